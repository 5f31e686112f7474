"""The language switch sends a phone back only to a path on this site, however the target is spelled."""

from __future__ import annotations

from urllib.parse import quote, urljoin, urlsplit

import pytest

from scorekeeper.web.redirects import local_path

SITE = "http://localhost/language/fr"

# Targets as they arrive in ?next= (already percent-decoded once by the query string).
REFUSED = [
    "//evil.example", "///evil.example", "////evil.example", "/\\evil.example", "\\\\evil.example", "\\/evil.example",
    "/\t/evil.example", "/\t\t/evil.example", "\t//evil.example", "/\n/evil.example", "/\r/evil.example",
    "/\r\n/x", "/\x00/evil.example", "/\x1f/evil.example", "/\x7f/evil.example", " //evil.example",
    "//evil.example/", "/%2F/evil.example", "/%2f/evil.example", "/%5Cevil.example", "/%5c/evil.example",
    "/%09/evil.example", "/%252F/evil.example".replace("%25", "%"),
    "https://evil.example", "http://evil.example/m/x", "HTTPS://evil.example", "javascript:alert(1)",
    "data:text/html,hi", "evil.example", "m/abc", "",
    "/\uff0fevil.example", "\uff0f\uff0fevil.example", "/\u2215evil.example", "/\u2044evil.example",
    "/\u29f8evil.example", "/\ufe68evil.example", "/\u3000/evil.example", "/\u00a0/evil.example",
    "/%0D%0ASet-Cookie:x=1", "/\r\nSet-Cookie:x=1", "/x\r\nLocation: //evil.example",
]
KEPT = ["/", "/m/AbC_d-9", "/m/AbC?x=1", "/c/AbC/players/3", "/sheets/barbu.pdf?players=Ann%2CBob", "/rules/barbu#doubles",
        "/.well-known/x", "/m/a%20b"]


@pytest.mark.parametrize("target", REFUSED)
def test_a_target_off_this_site_is_refused(target):
    assert local_path(target) is None


@pytest.mark.parametrize("target", KEPT)
def test_a_path_on_this_site_is_kept_as_given(target):
    assert local_path(target) == target


@pytest.mark.parametrize("target", REFUSED + ["/%0A/x", "/%0D/x", "/%0D%0ASet-Cookie:x=1"])
def test_the_language_switch_sends_a_refused_target_home(client, target):
    answer = client.get(f"/language/fr?next={quote(target, safe='')}")
    assert answer.status_code == 302
    assert answer.headers["Location"] == "/"
    assert "Set-Cookie: x" not in str(answer.headers)


@pytest.mark.parametrize("raw", ["/%09/evil.example", "/%09%09/evil.example", "/%0A/x", "/%0D/x", "/%0D%0ASet-Cookie:x=1",
                                 "%2F%2Fevil.example", "/%5Cevil.example", "%EF%BC%8F%EF%BC%8Fevil.example"])
def test_the_quoted_probe_targets_go_home_not_to_a_server_error(client, raw):
    answer = client.get(f"/language/fr?next={raw}")
    assert answer.status_code == 302
    assert answer.headers["Location"] == "/"


@pytest.mark.parametrize("target", KEPT)
def test_the_language_switch_goes_back_where_the_player_was(client, target):
    answer = client.get(f"/language/fr?next={quote(target, safe='')}")
    assert answer.status_code == 302
    location = answer.headers["Location"]
    assert location == target
    assert urlsplit(urljoin(SITE, location)).netloc == "localhost"


def test_every_language_link_on_a_page_comes_back_to_it(client):
    page = client.get("/rules/barbu").text
    for code in ("en", "fr", "ru"):
        assert f'href="/language/{code}?next=/rules/barbu"' in page
        assert client.get(f"/language/{code}?next=/rules/barbu").headers["Location"] == "/rules/barbu"
