"""An undone hand can come back from the history long after the undo, with and without JavaScript, at phone size."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from helpers.browser import TAP, serious
from helpers.matches import PLAYERS

DEALS = [{"points": [75, 45]}, {"points": [30, 90], "trump_suit": "hearts", "last_trick": "Bob"}]


def opened(page, game: str, options: dict, hands: list[dict]) -> tuple[str, dict[str, str]]:
    """A match made over the API with hands, opened on this phone with its edit link; its id and the API's key."""
    match = page.context.request.post("/api/v1/matches", data={"game": game, "players": PLAYERS,
                                                               "options": options}).json()
    auth = {"Authorization": f"Bearer {match['edit_key']}"}
    for hand in hands:
        assert page.context.request.post(f"/api/v1/matches/{match['id']}/hands", data=hand, headers=auth).status == 201
    page.goto(match["edit_url"])
    return match["id"], auth


def undo_then_play_on(page, match_id: str, auth: dict[str, str], hand: dict) -> None:
    """Hand 2 undone over the API, then another hand 2 played: the undone one lives only in the history."""
    assert page.context.request.delete(f"/api/v1/matches/{match_id}/hands/2", headers=auth).ok
    assert page.context.request.post(f"/api/v1/matches/{match_id}/hands", data=hand, headers=auth).status == 201


@pytest.mark.parametrize("script", [True, False], ids=["javascript", "no-javascript"])
def test_an_undone_deal_comes_back_from_the_history_and_lands_on_the_next_deal(phone, tap, script):
    page = phone(java_script_enabled=script)
    match_id, auth = opened(page, "kozyol", {}, DEALS)
    undo_then_play_on(page, match_id, auth, {"points": [61, 59]})
    page.goto(f"/m/{match_id}/history")
    tap(page.get_by_role("button", name="Put deal 2 back as deal 3"))
    expect(page.get_by_text("Deal 2 is back, as deal 3.")).to_be_visible()
    expect(page.locator("#next").get_by_role("link", name="Enter deal 4")).to_be_in_viewport()
    expect(page.locator("#hand-3")).to_contain_text("30 : 90")
    page.goto(f"/m/{match_id}/history")
    expect(page.get_by_role("button", name="Put deal 2 back as deal 3")).to_have_count(0)


def test_a_hand_that_cannot_come_back_says_why(phone, tap):
    page = phone()
    no_last_two = {"contract": "no_last_two", "second_last": "Bob", "last": "Cid"}
    match_id, auth = opened(page, "barbu", {"first_declarer": "Ann", "enforce_declarer_doubles": False},
                            [{"contract": "barbu", "king_of_hearts": "Bob"}, no_last_two])
    undo_then_play_on(page, match_id, auth, {**no_last_two, "second_last": "Cid", "last": "Bob"})
    page.goto(f"/m/{match_id}/history")
    tap(page.get_by_role("button", name="Put hand 2 back as hand 3"))
    reason = page.get_by_text("Hand 2 cannot be put back:")
    expect(reason).to_be_in_viewport()
    expect(reason).to_contain_text("No Last Two")
    expect(page.get_by_role("button", name="Put hand 2 back as hand 3")).to_be_visible()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_history_with_a_hand_to_put_back_passes_axe(phone, scheme):
    page = phone(color_scheme=scheme)
    match_id, auth = opened(page, "kozyol", {}, DEALS)
    undo_then_play_on(page, match_id, auth, {"points": [61, 59]})
    page.goto(f"/m/{match_id}/history")
    button = page.get_by_role("button", name="Put deal 2 back as deal 3")
    expect(button).to_be_visible()
    box = button.bounding_box()
    assert box["width"] >= TAP - 0.5 and box["height"] >= TAP - 0.5, box
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
    assert serious(page) == []


@pytest.mark.parametrize(("language", "button", "said"), [
    ("fr", "Rétablir la donne 2 comme donne 3", "La donne 2 est rétablie, comme donne 3."),
    ("ru", "Вернуть раздачу 2 как раздачу 3", "Раздача 2 возвращена как раздача 3."),
])
def test_put_back_in_french_and_russian(phone, tap, language, button, said):
    page = phone()
    match_id, auth = opened(page, "kozyol", {}, DEALS)
    undo_then_play_on(page, match_id, auth, {"points": [61, 59]})
    # The language is chosen from the history, as a player would, not from the match page redrawing itself.
    page.goto(f"/m/{match_id}/history")
    page.goto(f"/language/{language}?next=/m/{match_id}/history")
    tap(page.get_by_role("button", name=button))
    expect(page.get_by_text(said)).to_be_visible()
