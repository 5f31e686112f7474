"""The smaller things a real table tripped over, each seen on a phone: a second tap on Save, names that are
the same name, doubles asked in calling order, corrections that offer only what is open, the right question."""

from __future__ import annotations

from playwright.sync_api import expect

from helpers.browser import made
from helpers.matches import PLAYERS


def test_a_second_tap_on_save_shows_the_hand_as_saved(phone, new_match, tap):
    page = phone()
    match_id = new_match(page, "kozyol", PLAYERS, **{"Who deals first": "0"})
    tap(page.get_by_role("link", name="Enter deal 1"))
    tap.type(page.locator("#points"), "45")
    # Two taps on Save before the first answer is back: two posts of the same form.
    page.evaluate("""() => {
      const form = document.querySelector("form.kozyol-deal") || document.querySelector("main form");
      const one = new FormData(form), two = new FormData(form);
      return fetch(form.action || location.href, {method: "POST", body: one})
        .then(() => fetch(form.action || location.href, {method: "POST", body: two}))
        .then(answer => { document.open(); return answer.text(); })
        .then(html => { document.write(html); document.close(); });
    }""")
    expect(page.get_by_text("Hand 1 is saved.")).to_be_visible()
    expect(page.get_by_text("already recorded")).to_have_count(0)
    assert len(page.request.get(f"/api/v1/matches/{match_id}").json()["hands"]) == 1


def test_names_that_differ_only_by_case_are_one_name(phone):
    page = phone()
    page.goto("/new/barbu")
    for seat, name in enumerate(["Ann", "Bob", "ann", "Dee"]):
        page.locator(f"#players-{seat}").fill(name)
    page.get_by_role("button", name="Start the match").tap()
    reason = page.locator("#err-players")
    expect(reason).to_contain_text("same name")
    expect(reason).to_be_in_viewport()
    expect(page.locator("#players-2")).to_have_value("ann")


def test_doubles_are_asked_in_calling_order_from_the_declarers_left(phone, tap):
    page = phone()
    match_id = made(page, "barbu", PLAYERS, {"first_declarer": "Cid"}, [])
    page.goto(f"/m/{match_id}")
    tap(page.locator("#next").get_by_role("link", name="No Tricks", exact=True))
    expect(page.get_by_role("heading", level=1)).to_have_text("Hand 1: No Tricks")
    # Cid declares: Dee on his left calls first, then Ann and Bob; Cid, who only redoubles, comes last.
    askers = page.locator(".doubler .who").all_inner_texts()
    assert [line.split(" doubles")[0] for line in askers] == ["Dee", "Ann", "Bob", "Cid"][: len(askers)]
    assert askers[0].startswith("Dee doubles")


def test_a_correction_offers_only_the_contracts_still_open(phone, tap):
    page = phone()
    match_id = made(page, "barbu", PLAYERS, {"first_declarer": "Ann"}, [
        {"contract": "no_tricks", "tricks": {"Ann": 2, "Bob": 5, "Cid": 6, "Dee": 0}},
        {"contract": "trumps", "tricks": {"Ann": 4, "Bob": 3, "Cid": 3, "Dee": 3}},
    ])
    page.goto(f"/m/{match_id}/working/1")
    tap(page.get_by_role("link", name="Correct hand 1"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Correcting hand 1: No Tricks")
    tap(page.get_by_role("link", name="Other contract"))
    page.wait_for_url("**variant=")
    expect(page.locator("main .choices").first).to_be_visible()
    offered = page.locator("main .choices .button, main .choices a").all_inner_texts()
    assert "Trumps" not in offered, "Trumps is played in this block already (hand 2)"
    assert {"No Queens", "No Hearts", "Barbu", "No Last Two", "Dominoes"} <= set(offered), offered


def test_a_team_without_points_is_asked_yes_or_no(phone, new_match, tap):
    page = phone()
    new_match(page, "kozyol", PLAYERS, **{"Who deals first": "0"})
    tap(page.get_by_role("link", name="Enter deal 1"))
    tap.type(page.locator("#points"), "0")
    tap(page.get_by_role("button", name="Save deal 1"))
    reason = page.locator("#err-tricks")
    expect(reason).to_have_text("Did Ann and Cid take a trick? Answer yes or no.")
    group = page.get_by_role("group", name="Did Ann & Cid take a trick?")
    expect(group.get_by_role("radio", name="Yes, a trick or more")).to_be_visible()
    expect(group.get_by_role("radio", name="No", exact=False).last).to_be_visible()
