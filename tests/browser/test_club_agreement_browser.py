"""Results the table agrees, on phones (390x844, touch): the admin asks for two agreements and gives the players
their member links, a finished club match is agreed from two members' own phones and locked, a third phone's
correction is refused with one sentence, and the admin's phone changes the deal with a reason that the edit
history shows; axe-core light and dark on the touched pages."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from helpers.browser import check, member_link
from helpers.club_matches import FOUR

LOCKED = "Agreed by Ann, Bob: locked. The club's admin can change it."


def test_two_phones_agree_the_match_is_locked_and_the_admin_changes_it_with_a_reason(phone, tap):
    admin = phone()
    made = admin.context.request.post("/api/v1/clubs", data={"name": "Les Dimanches"})
    club = made.json()
    admin.goto(club["admin_url"])
    admin.goto(f"/c/{club['id']}/admin/settings#agreement")
    settings = admin.locator("#agreement")
    field = settings.get_by_label("Agreements to lock a match")
    expect(field).to_have_value("0")  # the club's own value: nothing is asked yet
    field.fill("2")
    tap(settings.get_by_role("button", name="Save"))
    expect(admin.get_by_text("Saved: how the club agrees to its results.")).to_be_visible()
    problems: dict[str, list[str]] = {}
    exempt: dict[str, list[str]] = {}
    for scheme in ("light", "dark"):
        admin.emulate_media(color_scheme=scheme)
        admin.goto(f"/c/{club['id']}/admin/settings")
        check(admin, f"admin-agreement-{scheme}", problems, exempt)

    started = admin.context.request.post(f"/api/v1/clubs/{club['id']}/matches", data={
        "game": "kozyol", "players": FOUR, "options": {"target": 2}})
    match = started.json()
    sent = admin.context.request.post(f"/api/v1/matches/{match['id']}/hands", data={"points": [100, 20]},
                                      headers={"Authorization": f"Bearer {match['edit_key']}"})
    assert sent.status == 201, sent.text()
    admin.goto(f"/c/{club['id']}/admin/members")  # Ann's member link, made on the admin's roster (loaded again: it has her)
    tap(admin.locator("#members").get_by_role("button", name="Member link for Ann"))
    expect(admin.get_by_role("heading", name="Member link of Ann")).to_be_visible()
    for scheme in ("light", "dark"):
        admin.emulate_media(color_scheme=scheme)
        check(admin, f"member-link-{scheme}", problems, exempt)
    links = [admin.locator("#member-link").input_value(),
             *(member_link(admin, club["id"], player, club["admin_key"]) for player in match["seat_ids"][1:3])]
    ann, bob, cid = phone(), phone(), phone()
    for member, link, name in zip((ann, bob, cid), links, FOUR):
        member.goto(link)
        expect(member.get_by_text(f"This phone is {name} at Les Dimanches.")).to_be_visible()
    for at_the_table in (ann, bob, cid, admin):
        at_the_table.goto(match["edit_url"])
    expect(admin.get_by_role("button", name="I am Ann: Agreed")).to_have_count(0)  # the edit link is nobody
    expect(ann.get_by_role("button", name="I am Bob: Agreed")).to_have_count(0)  # each phone its own name

    tap(ann.get_by_role("button", name="I am Ann: Agreed"))
    expect(ann.get_by_text("Agreed. Thank you.")).to_be_visible()
    expect(ann.get_by_text("This phone agreed as Ann.")).to_be_visible()
    for scheme in ("light", "dark"):
        ann.emulate_media(color_scheme=scheme)
        ann.goto(f"/m/{match['id']}")
        check(ann, f"match-agreeing-{scheme}", problems, exempt)

    cid.goto(f"/m/{match['id']}/hands/1")  # Cid opens the correction before the lock
    bob.goto(f"/m/{match['id']}")
    expect(bob.get_by_role("button", name="I am Ann: Agreed")).to_have_count(0)  # Bob's phone is Bob's alone
    tap(bob.get_by_role("button", name="I am Bob: Agreed"))
    expect(bob.get_by_text(LOCKED)).to_be_visible()

    tap(cid.get_by_role("radio", name="Type the points"))
    tap.type(cid.get_by_label("Card points in the pile"), "20")
    with cid.expect_navigation():  # the outbox hears the refusal, then the form posts itself to show the page
        tap(cid.get_by_role("button", name="Save deal 1"))
    expect(cid.get_by_text(LOCKED).first).to_be_visible()
    expect(cid.get_by_text("card points: 20 : 100")).to_be_visible()  # what it typed, kept in sight
    tap(cid.get_by_role("link", name="Back to the match"))
    cid.wait_for_url(f"**/m/{match['id']}")
    expect(cid.get_by_text(LOCKED)).to_be_visible()
    expect(cid.get_by_role("link", name="Correct deal 1")).to_have_count(0)
    expect(cid.get_by_role("button", name="Undo deal 1")).to_have_count(0)
    for scheme in ("light", "dark"):
        cid.emulate_media(color_scheme=scheme)
        cid.goto(f"/m/{match['id']}")
        check(cid, f"match-locked-{scheme}", problems, exempt)

    admin.goto(f"/m/{match['id']}")
    expect(admin.get_by_text("You run the club")).to_be_visible()
    tap(admin.locator("#hand-1 .working-link"))
    tap(admin.get_by_role("link", name="Correct deal 1"))
    expect(admin.get_by_label("Reason for the change")).to_be_visible()
    for scheme in ("light", "dark"):
        admin.emulate_media(color_scheme=scheme)
        admin.reload()
        check(admin, f"correction-with-reason-{scheme}", problems, exempt)
    tap.type(admin.get_by_label("Reason for the change"), "Teams swapped")
    tap(admin.get_by_role("radio", name="Type the points"))
    tap.type(admin.get_by_label("Card points in the pile"), "20")
    tap(admin.get_by_role("button", name="Save deal 1"))
    admin.wait_for_url(f"**/m/{match['id']}*")
    expect(admin.get_by_text(re.compile(r"^Changed by the club's organiser on .+, after its players agreed: "
                                        r"Deal 1 corrected\. Reason: Teams swapped$"))).to_be_visible()
    admin.goto(f"/m/{match['id']}/history")
    expect(admin.get_by_text("Reason: Teams swapped")).to_be_visible()
    for scheme in ("light", "dark"):
        admin.emulate_media(color_scheme=scheme)
        admin.goto(f"/m/{match['id']}/history")
        check(admin, f"history-reason-{scheme}", problems, exempt)
    assert not any(problems.values()), problems
