"""Reading a paper sheet from the match's pages: the upload and its refusals, the review, the save through the hand
API once per row, the photo kept with the match and shown only to a phone that holds its edit key."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from flask import Flask
from flask.testing import FlaskClient

from helpers.api import create_match, read
from helpers.evening_tables import TwoTables
from helpers.forms import csrf_token
from helpers.matches import PLAYERS, barbu_entry
from helpers.paper import drawn_page, marks_of, photographed
from scorekeeper.db import db
from scorekeeper.models import Match, PaperPhoto
from scorekeeper.paper import layout, service
from scorekeeper.web.paper import views

OPTIONS = {"first_declarer": PLAYERS[0]}
ENTRIES = [barbu_entry(number, PLAYERS) for number in (1, 2, 3)]
DOUBTFUL_ROW = 1  # hand 2 (No Queens): Ann's count is marked twice, 1 and 3


def sheet_photo(public_id: str, entries: list[dict], page: int = 1, seed: int = 1, cut: int | None = None,
                doubt: bool = True) -> bytes:
    """A photo of the match's readable sheet with entries marked in pen, the second row marked twice in one place."""
    sheet = layout.page_for("barbu", len(PLAYERS))
    marks = {(row, key, value): "solid" for number, entry in enumerate(entries)
             for (row, key), values in marks_of("barbu", entry, PLAYERS, number).items() for value in values}
    if doubt:
        marks[(DOUBTFUL_ROW, ("units", 0), 3)] = "solid"
    return photographed(drawn_page(sheet, layout.qr_payload(public_id, page), marks), seed=seed, cut=cut)


class Inputs(HTMLParser):
    """What a browser sends of a page's form: its inputs as they stand, checked radios and chosen options."""

    def __init__(self) -> None:
        super().__init__()
        self.values: list[tuple[str, str]] = []
        self.select: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {name: value or "" for name, value in attrs}
        if tag == "input" and "name" in found and found.get("type") not in ("file", "submit"):
            if found.get("type") not in ("radio", "checkbox") or "checked" in found:
                self.values.append((found["name"], found.get("value", "")))
        elif tag == "select":
            self.select = found.get("name")
        elif tag == "option" and self.select and "selected" in found:
            self.values.append((self.select, found.get("value", "")))

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self.select = None


def inputs_of(page: str) -> dict[str, str]:
    parser = Inputs()
    parser.feed(page)
    return dict(parser.values)


@pytest.fixture
def match(client: FlaskClient) -> dict:
    """A Barbu match this phone holds the edit key of."""
    made = create_match(client, "barbu", PLAYERS, OPTIONS)
    assert client.get(f"/m/{made['id']}/join?key={made['edit_key']}").status_code == 302
    return made


def upload(client: FlaskClient, public_id: str, photo: bytes | None, name: str = "sheet.jpg"):
    """Send the form as a phone's browser does (a body built here: the test client would spool a large one to a
    temporary file it never closes)."""
    boundary = "paper-photo-boundary"
    parts = [f'--{boundary}\r\nContent-Disposition: form-data; name="csrf_token"\r\n\r\n'.encode()
             + csrf_token(client, f"/m/{public_id}/paper").encode() + b"\r\n"]
    if photo is not None:
        parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="photo"; filename="{name}"\r\n'
                     "Content-Type: image/jpeg\r\n\r\n".encode() + photo + b"\r\n")
    body = b"".join(parts) + f"--{boundary}--\r\n".encode()
    return client.post(f"/m/{public_id}/paper", data=body, content_type=f"multipart/form-data; boundary={boundary}")


def photos_kept(app: Flask) -> int:
    with app.app_context():
        return db.session.query(PaperPhoto).count()


def test_the_paper_pages_the_photo_and_the_crops_need_the_edit_key(app, client, match):
    page = client.get(f"/m/{match['id']}/paper")
    assert page.status_code == 200
    assert 'capture="environment"' in page.text and 'accept="image/*"' in page.text and 'name="photo"' in page.text
    assert "all four black corner squares in view" in page.text
    assert f'href="/m/{match["id"]}/paper"' in client.get(f"/m/{match['id']}").text  # the match page links it
    answer = upload(client, match["id"], sheet_photo(match["id"], ENTRIES))
    assert answer.status_code == 302
    review = answer.headers["Location"]
    photo_id = int(review.rsplit("/", 1)[1])
    shown = client.get(review)
    crop = f"/m/{match['id']}/paper/{photo_id}/row/{DOUBTFUL_ROW}.png"
    assert shown.status_code == 200 and f'src="{crop}"' in shown.text
    assert client.get(crop).mimetype == "image/png" and client.get(crop).data.startswith(b"\x89PNG")
    full = client.get(f"/m/{match['id']}/paper/{photo_id}/photo.jpg")
    assert full.mimetype == "image/jpeg" and "no-store" in full.headers["Cache-Control"]

    stranger = app.test_client()  # the watch link alone
    assert f'href="/m/{match["id"]}/paper"' not in stranger.get(f"/m/{match['id']}").text
    for url in (f"/m/{match['id']}/paper", review, crop, f"/m/{match['id']}/paper/{photo_id}/photo.jpg"):
        assert stranger.get(url).status_code == 403, url
    assert stranger.post(f"/m/{match['id']}/paper", data={}).status_code == 403
    other = create_match(client, "barbu", PLAYERS, OPTIONS)  # this phone's key of another match opens no photo here
    assert client.get(f"/m/{other['id']}/join?key={other['edit_key']}").status_code == 302
    assert client.get(f"/m/{other['id']}/paper/{photo_id}").status_code == 404
    assert client.get(f"/m/{other['id']}/paper/{photo_id}/photo.jpg").status_code == 404


@pytest.mark.parametrize("case", ["no file", "empty file", "not an image", "too big", "over the bound",
                                  "another match's sheet", "a corner out of view"])
def test_a_refused_upload_says_why_beside_the_field_and_keeps_nothing(app, client, match, case):
    other = create_match(client, "barbu", PLAYERS, OPTIONS)
    photo = {
        "no file": None,
        "empty file": b"",
        "not an image": b"\x00garbage, not a photo" * 100,
        "too big": b"\xff\xd8\xff" + b"\x00" * (15 * 1024 * 1024),
        "over the bound": b"\xff\xd8\xff" + b"\x00" * (views.UPLOAD_LIMIT + 1),
        "another match's sheet": sheet_photo(other["id"], ENTRIES),
        "a corner out of view": sheet_photo(match["id"], ENTRIES, cut=2),
    }[case]
    answer = upload(client, match["id"], photo)
    said = {
        "no file": "Choose a photo of the sheet first.",
        "empty file": "Choose a photo of the sheet first.",
        "not an image": "This file is not a photo the app can read",
        "too big": "This photo is too large",
        "over the bound": "This photo is too large",
        "another match's sheet": "This sheet belongs to another match.",
        "a corner out of view": "Move so all four corners of the sheet are in view.",
    }[case]
    assert answer.status_code == (413 if case == "over the bound" else 422), answer.text[:500]
    assert re.search(r'<p class="error" id="err-photo">[^<]*' + re.escape(said), answer.text), answer.text
    assert 'name="photo"' in answer.text and photos_kept(app) == 0
    assert read(client, match)["hands"] == []


def test_a_refusal_reads_in_the_phones_language(client, match):
    client.get("/language/fr")
    answer = upload(client, match["id"], None)
    assert answer.status_code == 422 and "Choisissez une photo de la feuille" in answer.text


def test_the_review_saves_every_row_once_and_the_history_says_read_from_paper(app, client, match):
    photo = sheet_photo(match["id"], ENTRIES)
    review = upload(client, match["id"], photo).headers["Location"]
    page = client.get(review).text
    assert page.count('class="paper-row"') == 1  # the doubtful row; the others are listed for a glance
    assert "Save 3 hands" in page
    sent = inputs_of(page)
    for seat, name in enumerate(PLAYERS):  # what the table wrote, confirmed by the person looking at the photo
        sent[f"r{DOUBTFUL_ROW}-queens_{seat}"] = str(ENTRIES[DOUBTFUL_ROW]["queens"][name])
    saved = client.post(review, data=sent)
    assert saved.status_code == 302, saved.text
    state = read(client, match)
    assert [hand["entry"]["contract"] for hand in state["hands"]] == ["no_tricks", "no_queens", "no_hearts"]
    assert state["hands"][1]["entry"]["queens"] == ENTRIES[1]["queens"]
    assert state["hands"][2]["entry"]["hearts"] == ENTRIES[2]["hearts"]
    history = client.get(f"/api/v1/matches/{match['id']}/history").get_json()["changes"]
    assert [change["source"] for change in history] == ["paper"] * 3
    assert "read from paper" in client.get(f"/m/{match['id']}/history").text

    # The same Save sent again (its answer lost), and the same photo sent again: nothing is added twice.
    assert client.post(review, data=sent).status_code == 302
    again = upload(client, match["id"], photo)
    assert again.headers["Location"] == review and photos_kept(app) == 1
    shown = client.get(review).text
    assert "Save" not in re.sub(r"<p><a[^>]*>[^<]*</a></p>", "", shown.split("Already recorded", 1)[1])
    assert shown.split("<main", 1)[1].count("already recorded") == 3
    assert len(read(client, match)["hands"]) == 3 and len(client.get(
        f"/api/v1/matches/{match['id']}/history").get_json()["changes"]) == 3


def test_a_row_the_rules_refuse_stops_the_save_there_with_its_sentence_and_input_kept(client, match):
    review = upload(client, match["id"], sheet_photo(match["id"], ENTRIES)).headers["Location"]
    sent = inputs_of(client.get(review).text)
    for seat in range(len(PLAYERS)):  # five queens: the rules refuse it
        sent[f"r{DOUBTFUL_ROW}-queens_{seat}"] = "2" if seat == 0 else "1"
    answer = client.post(review, data=sent)
    assert answer.status_code == 422
    assert [hand["entry"]["contract"] for hand in read(client, match)["hands"]] == ["no_tricks"]  # saved before it
    section = answer.text.split(f'id="row-{DOUBTFUL_ROW}"', 1)[1].split("</section>", 1)[0]
    assert 'class="error"' in section
    assert inputs_of(section)[f"r{DOUBTFUL_ROW}-queens_0"] == "2"  # what was typed, kept


def test_a_sheet_ahead_of_the_match_saves_nothing_and_says_which_hands_come_first(client, match):
    review = upload(client, match["id"], sheet_photo(match["id"], ENTRIES, page=2, doubt=False))
    assert review.status_code == 302
    page = client.get(review.headers["Location"])
    assert f"Hands 1 to {layout.rows_per_page('barbu')} come before this sheet" in page.text
    assert "Save" not in page.text.split("</h1>", 1)[1]
    assert client.post(review.headers["Location"], data=inputs_of(page.text)).status_code == 422
    assert read(client, match)["hands"] == []


def test_the_photos_are_kept_a_few_per_match_and_go_with_the_match(app, client, match, monkeypatch):
    monkeypatch.setattr(service, "PHOTOS_KEPT", 2)
    for seed in (1, 2, 3):
        assert upload(client, match["id"], sheet_photo(match["id"], ENTRIES, seed=seed)).status_code == 302
    with app.app_context():
        kept = db.session.query(PaperPhoto).order_by(PaperPhoto.id).all()
        assert len(kept) == 2 and all(0 < len(photo.jpeg) <= 4 * 1024 * 1024 for photo in kept)
        db.session.delete(db.session.query(Match).filter_by(public_id=match["id"]).one())
        db.session.commit()
    assert photos_kept(app) == 0


def test_the_evenings_tables_link_their_paper_page_for_a_phone_that_holds_the_tables_key(app, client):
    evening = TwoTables(app, client)
    rounds = f"/c/{evening.club}/admin/evenings/{evening.evening}/rounds"
    playing, done = f'href="/m/{evening.playing["id"]}/paper"', f'href="/m/{evening.done["id"]}/paper"'
    assert playing not in evening.admin.get(rounds).text  # the admin's phone holds no table's key yet
    assert evening.admin.get(f"/m/{evening.playing['id']}/join?key={evening.playing['edit_key']}").status_code == 302
    page = evening.admin.get(rounds).text
    assert playing in page and done not in page  # a finished table has nothing left to read
    assert evening.admin.get(f"/m/{evening.playing['id']}/paper").status_code == 200
    # The club page is the same page for every phone: it links no phone's own paper page.
    club_page = evening.at_table(evening.playing).get(f"/c/{evening.club}").text
    assert 'class="matches round-tables"' in club_page and playing not in club_page


def test_garbage_sent_to_the_review_is_refused_with_a_sentence_never_a_500(client, match):
    review = upload(client, match["id"], sheet_photo(match["id"], ENTRIES)).headers["Location"]
    sent = inputs_of(client.get(review).text)
    junk = [{}, {"csrf_token": sent["csrf_token"]}, {**sent, f"r{DOUBTFUL_ROW}-variant": "dominoes"},
            {**sent, f"r{DOUBTFUL_ROW}-queens_0": "many"}, {**sent, "open": "0", f"r{DOUBTFUL_ROW}-double_1_0": "x"}]
    for data in junk:
        answer = client.post(review, data=data)
        assert answer.status_code == 422 and 'class="error' in answer.text, (data, answer.status_code)
    assert len(read(client, match)["hands"]) <= 1  # at most the row before the one refused, once
    # A contract nobody offers, and a row number that is no row: not taken, the rows as shown are saved.
    assert client.post(review, data={**sent, "open": "x", f"r{DOUBTFUL_ROW}-variant": "poker"}).status_code == 302
    assert len(read(client, match)["hands"]) == 3
    assert client.get(f"{review}/row/0.png").status_code == 404  # read with certainty: no crop
    assert client.get(f"/m/{match['id']}/paper/999").status_code == 404


def test_hostile_names_are_escaped_on_the_review_page(client):
    names = ["<script>alert(1)</script>", '"><img src=x onerror=alert(1)>', "Bob & 'Co'", "</td><b>Dee"]
    made = create_match(client, "barbu", names, {"first_declarer": names[0]})
    assert client.get(f"/m/{made['id']}/join?key={made['edit_key']}").status_code == 302
    entries = [barbu_entry(number, names) for number in (1, 2)]
    marks = {(row, key, value): "solid" for number, entry in enumerate(entries)
             for (row, key), values in marks_of("barbu", entry, names, number).items() for value in values}
    marks[(1, ("units", 0), 3)] = "solid"  # a doubt: the review shows that row's form, names and all
    sheet = layout.page_for("barbu", len(names))
    review = upload(client, made["id"], photographed(drawn_page(sheet, layout.qr_payload(made["id"], 1), marks)))
    page = client.get(review.headers["Location"]).text
    assert 'class="paper-row"' in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert names[0] not in page and "<img src=x" not in page and "<b>Dee" not in page
