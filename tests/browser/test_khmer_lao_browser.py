"""Khmer and Lao at phone size (390x844, touch): a whole Barbu match on a phone set to the language, Kozyol deals
entered after choosing it from the menu, a member's "I'm in" and their seat at the club's evening, and names in
both scripts drawn whole at the table. Every page in the language (its words read from the catalog, no English the
catalog has words for), none wider than the phone, Save on screen and uncovered; axe-core and the tap sizes on each
page of a match and of the club."""

from __future__ import annotations

import re
from datetime import datetime, timezone
from typing import Any

import pytest
from playwright.sync_api import expect

from helpers.browser import UNCOVERED, check, fonts_drawn, made, member_link
from helpers.matches import barbu_entry
from helpers.phone_languages import (
    KHMER,
    LAO,
    LOCALES,
    MIXED,
    barbu_match,
    barbu_totals,
    covered,
    english_shown,
    enter_barbu_hand,
    not_whole,
    said,
    split,
    switched,
    wider_than_the_phone,
)
from scorekeeper.games import barbu, kozyol

LANGUAGES = ["km", "lo"]
TABLES = {"km": KHMER, "lo": LAO}
CLUBS = {"km": ("ក្លឹបល្ងាចថ្ងៃសុក្រ", "ផ្សារថ្មី"), "lo": ("ສະໂມສອນຄືນວັນສຸກ", "ຕະຫຼາດເຊົ້າ")}


def fits(page: Any, lang: str, where: str) -> None:
    """The page says it is in lang, and does not scroll sideways."""
    expect(page.locator("html")).to_have_attribute("lang", lang)
    assert wider_than_the_phone(page) == 0, f"{where} in {lang}: {wider_than_the_phone(page)}px wider than the phone"


def in_the_language(page: Any, lang: str, where: str) -> None:
    """The page is in lang, shows no English the catalog has words of its own for, and fits the phone."""
    fits(page, lang, where)
    assert not (shown := english_shown(page, lang)), f"{where} in {lang} shows English: {shown}"


def save_in_reach(page: Any, button: Any, text: str, where: str) -> None:
    """Save reads text, is on the screen where the thumb is and nothing covers it."""
    expect(button).to_have_text(text)
    expect(button).to_be_in_viewport(ratio=1)
    assert button.evaluate(UNCOVERED), f"{where}: Save is covered"


def looked_at(page: Any, name: str, problems: dict[str, list[str]], exempt: dict[str, list[str]]) -> None:
    """axe-core and the tap sizes, once the stylesheet and the fonts have arrived."""
    page.wait_for_load_state("load")
    fonts_drawn(page)
    check(page, name, problems, exempt)


def started(page: Any, tap: Any, lang: str, game: str, players: list[str], first: str,
            problems: dict[str, list[str]], exempt: dict[str, list[str]]) -> None:
    """Start a match from the home page's button, as a player does; the new-match form is in lang."""
    tap(page.locator(f'a.button.big[href="/new/{game}"]'))
    title = said(lang, barbu.GAME.title if game == "barbu" else kozyol.GAME.title)
    expect(page.get_by_role("heading", level=1)).to_have_text(said(lang, "New %(game)s match", game=title))
    for seat, name in enumerate(players):
        page.locator(f"#players-{seat}").fill(name)
    page.locator(f"#{first}").select_option("0")
    in_the_language(page, lang, f"new {game} match")
    looked_at(page, f"new-{game}", problems, exempt)
    start = page.locator("form button.primary.big[type=submit]")
    expect(start).to_have_text(said(lang, "Start the match"))
    tap(start)
    page.wait_for_url("**/m/*")
    expect(page.get_by_role("heading", level=1)).to_have_text(title)


def found(problems: dict[str, list[str]]) -> str:
    return "\n".join(f"{name}: {line}" for name, lines in problems.items() for line in lines)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_whole_barbu_match_on_a_phone_set_to_the_language(phone, tap, screenshot, lang: str):
    page = phone(locale=LOCALES[lang])  # the phone's own language: its Accept-Language
    players = TABLES[lang]
    problems: dict[str, list[str]] = {}
    exempt: dict[str, list[str]] = {}
    page.goto("/")
    in_the_language(page, lang, "home")
    started(page, tap, lang, "barbu", players, "first_declarer", problems, exempt)
    looked_at(page, "match", problems, exempt)
    looked: set[str] = set()
    for number, contract, hand in barbu_match():
        where, first = f"hand {number} ({contract})", contract not in looked  # each contract's first hand: read whole
        looked.add(contract)
        look = in_the_language if first else fits
        upcoming = page.locator("#next")
        expect(upcoming.locator("h2")).to_have_text(said(lang, "Hand %(n)s of %(count)s", n=number, count=barbu.HANDS))
        title = said(lang, barbu.CONTRACT_TITLES[contract])
        link = upcoming.locator(f'.choices a.button[href$="variant={contract}"]')
        expect(link).to_have_text(title)
        look(page, lang, f"the landing before {where}")
        tap(link)
        expect(page.get_by_role("heading", level=1)).to_have_text(
            said(lang, "Hand %(n)s: %(contract)s", n=number, contract=title))
        enter_barbu_hand(page, tap, contract, hand, players)
        look(page, lang, where)
        save_in_reach(page, page.locator(".save-bar button[type=submit]"), said(lang, "Save hand %(n)s", n=number),
                      where)
        if first:
            looked_at(page, f"hand-{contract}", problems, exempt)
        tap(page.locator(".save-bar button[type=submit]"))
        page.wait_for_url("**/m/*")
    totals = barbu_totals()
    expect(page.locator(".standings .totals .total")).to_have_text([str(total) for total in totals])
    winners = [name for name, total in zip(players, totals) if total == max(totals)]
    expect(page.locator(".standings .result")).to_have_text(
        said(lang, "Winner: %(names)s", len(winners), names=", ".join(winners)))
    expect(page.locator("#next")).to_have_count(0)
    in_the_language(page, lang, "the finished match")
    looked_at(page, "finished", problems, exempt)
    screenshot(page, "finished")
    assert not any(problems.values()), found(problems)


def step(page: Any, value: int, times: int) -> None:
    """Tap the + of the rank worth value as often as there are cards of it in the pile."""
    for _ in range(times):
        page.locator(f'.by-cards .rank[data-value="{value}"] button[data-step="1"]').tap()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_kozyol_deals_entered_in_the_language_chosen_from_the_menu(phone, tap, screenshot, lang: str):
    page = phone()
    players = TABLES[lang]
    problems: dict[str, list[str]] = {}
    exempt: dict[str, list[str]] = {}
    page.goto("/")
    switched(page, tap, lang)
    in_the_language(page, lang, "home")
    started(page, tap, lang, "kozyol", players, "first_dealer", problems, exempt)
    teams = [said(lang, "%(first)s & %(second)s", first=players[team], second=players[team + kozyol.TEAMS])
             for team in range(kozyol.TEAMS)]
    expect(page.locator(".kozyol .totals .name")).to_have_text(teams)
    looked_at(page, "series", problems, exempt)

    # Deal 1: the first team's pile counted card by card, A A 10 K K Q J = 45: they lose 2.
    enter = page.locator("#next a.button.primary.big")
    expect(enter).to_have_text(said(lang, "Enter deal %(n)s", n=1))
    tap(enter)
    expect(page.get_by_role("heading", level=1)).to_have_text(said(lang, "Deal %(n)s", n=1))
    expect(page.get_by_role("radio", name=teams[0], exact=True)).to_be_checked()
    tap(page.get_by_role("radio", name=said(lang, "Count the cards"), exact=True))
    for value, cards in ((11, 2), (10, 1), (4, 2), (3, 1), (2, 1)):
        step(page, value, cards)
    expect(page.locator(".split .score")).to_have_text("45 : 75")
    in_the_language(page, lang, "deal 1")
    save_in_reach(page, page.locator(".save-bar button[type=submit]"), said(lang, "Save deal %(n)s", n=1), "deal 1")
    looked_at(page, "deal-by-cards", problems, exempt)
    screenshot(page, "deal-by-cards")
    tap(page.locator(".save-bar button[type=submit]"))
    page.wait_for_url("**/m/*")
    expect(page.locator("#hand-1")).to_contain_text(
        said(lang, "%(team)s lose: %(num)d defeat point", 2, team=teams[0], num=2))
    expect(page.locator(".kozyol .totals .total")).to_have_text(["2", "0"])

    # Deal 2: the points typed in, 60: eggs, nobody loses.
    tap(page.locator("#next a.button.primary.big"))
    tap(page.get_by_role("radio", name=said(lang, "Type the points"), exact=True))
    tap.type(page.get_by_label(said(lang, "Card points in the pile"), exact=True), "60")
    expect(page.locator(".split .score")).to_have_text("60 : 60")
    in_the_language(page, lang, "deal 2")
    save_in_reach(page, page.locator(".save-bar button[type=submit]"), said(lang, "Save deal %(n)s", n=2), "deal 2")
    looked_at(page, "deal-by-points", problems, exempt)
    tap(page.locator(".save-bar button[type=submit]"))
    page.wait_for_url("**/m/*")
    expect(page.locator("#hand-2")).to_contain_text(said(lang, "Eggs: nobody loses"))
    expect(page.locator(".kozyol .totals .total")).to_have_text(["2", "0"])
    expect(page.locator("#next h2")).to_have_text(said(lang, "Deal %(n)s", n=3))
    in_the_language(page, lang, "the series after two deals")
    looked_at(page, "series-after", problems, exempt)
    screenshot(page, "series")
    assert not any(problems.values()), found(problems)


def api(page: Any, method: str, path: str, data: Any, key: str) -> Any:
    answer = page.context.request.fetch(f"/api/v1{path}", method=method, data=data,
                                        headers={"Authorization": f"Bearer {key}"})
    assert answer.ok, answer.text()
    return answer.json()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_member_says_im_in_and_finds_their_table_in_the_language(phone, tap, screenshot, lang: str):
    admin = phone()
    players = TABLES[lang]
    name, place = CLUBS[lang]
    made_club = admin.context.request.post("/api/v1/clubs", data={"name": name})
    assert made_club.status == 201, made_club.text()
    club, key = made_club.json()["id"], made_club.json()["admin_key"]
    ids = {player: api(admin, "POST", f"/clubs/{club}/players", {"name": player}, key)["id"] for player in players}
    today = datetime.now(timezone.utc).date().isoformat()
    evening = api(admin, "POST", f"/clubs/{club}/planned-evenings",
                  {"day": today, "starts_at": "19:00", "place": place}, key)["evenings"][0]["id"]
    me = players[1]
    problems: dict[str, list[str]] = {}
    exempt: dict[str, list[str]] = {}

    # The member opens their own link on a phone set to the language: the club page, the next evening first.
    member = phone(locale=LOCALES[lang])
    member.goto(member_link(admin, club, ids[me], key))
    member.wait_for_url(f"**/c/{club}#next-evening")
    in_the_language(member, lang, "the club page")
    expect(member.get_by_text(said(lang, "This phone is %(name)s at %(club)s.", name=me, club=name))).to_be_visible()
    card = member.locator("#next-evening")
    expect(card).to_contain_text(said(lang, "from %(time)s", time="19:00"))
    expect(card).to_contain_text(said(lang, "Where: %(place)s", place=place))
    expect(card).to_contain_text(said(lang, "You are %(name)s.", name=me))
    coming = card.get_by_role("button", name=said(lang, "I'm in"), exact=True)
    expect(coming).to_have_attribute("aria-pressed", "false")
    expect(card.get_by_role("button", name=said(lang, "Not this time"), exact=True)).to_be_visible()
    looked_at(member, "club-evening", problems, exempt)
    tap(coming)
    expect(card).to_contain_text(said(lang, "%(num)d player is coming: %(names)s", 1, num=1, names=me))
    expect(card).to_contain_text(said(lang, "You said you are coming."))
    expect(card.get_by_role("button", name=said(lang, "I'm in"), exact=True)).to_have_attribute("aria-pressed", "true")
    in_the_language(member, lang, "the club page after I'm in")
    looked_at(member, "club-evening-coming", problems, exempt)
    screenshot(member, "coming")

    # The others say they come; the admin seats the four at one Kozyol table.
    for player in players:
        if player != me:
            api(admin, "POST", f"/clubs/{club}/planned-evenings/{evening}/answers",
                {"player": ids[player], "coming": True}, key)
    api(admin, "POST", f"/clubs/{club}/planned-evenings/{evening}/rounds",
        {"tables": [{"game": "kozyol", "seats": [ids[player] for player in players]}]}, key)
    member.goto(f"/c/{club}")
    deals = re.escape(said(lang, "%(name)s deals", name="\0")).replace("\0", "(?:" + "|".join(players) + ")")
    line = re.escape(said(lang, "Round %(round)s: table %(table)s, seat %(seat)s (%(first)s)", round=1, table=1,
                          seat=players.index(me) + 1, first="\1")).replace("\1", deals).replace("\\ ", r"\s+")
    seat = member.locator(".round-seat a")
    expect(seat).to_have_text(re.compile(f"^{line}$"))
    expect(seat).to_be_in_viewport()
    in_the_language(member, lang, "the club page with the member's seat")
    looked_at(member, "club-seated", problems, exempt)
    screenshot(member, "seated")

    # The seat opens the table: the Kozyol series of the four, in the language, the member's to enter.
    tap(seat)
    member.wait_for_url("**/m/*")
    expect(member.get_by_role("heading", level=1)).to_have_text(said(lang, "Kozyol"))
    expect(member.locator(".table-plan .seat")).to_have_text(players)
    expect(member.locator("#next a.button.primary.big")).to_have_text(said(lang, "Enter deal %(n)s", n=1))
    in_the_language(member, lang, "the member's table")
    looked_at(member, "table", problems, exempt)
    assert not any(problems.values()), found(problems)


# Where a name stands alone at the table (each drawn whole on one line), and where names stand together in a
# line that may wrap between them but never inside one.
BARBU_NAMES = ".standings .totals .name, #next .roles dd, .sheet thead th:nth-child(n+3)"
BARBU_LINES = ".owed, #saved .running-totals, #saved > p:first-child a"
COUNTED_NAMES = "fieldset.counted .chips.count legend"
CHOSEN_NAMES = '.chips[data-field="king_of_hearts"] .chip span, .doubles .cell legend'
CHOSEN_LINES = ".doubler .who, .save-bar .save-summary"
KOZYOL_NAMES = ".table-plan .seat"
KOZYOL_LINES = ".kozyol .totals .name, #saved .running-totals"
DEAL_LINES = ".chips[data-field=side] .chip span, .kozyol-deal .split .team-0, .kozyol-deal .split .team-1"


def whole(page: Any, names: str, lines: str, where: str) -> list[str]:
    """What is wrong with the names on this page: a name not whole on one line, split in a line, or covered."""
    wrong = [f"{where}: {line}" for line in not_whole(page, names)] if names else []
    wrong += [f"{where}: {name} split across two lines" for name in split(page, lines, MIXED)]
    if names:
        wrong += [f"{where}: {name} covered" for name in covered(page, names)]
    return wrong


@pytest.mark.parametrize("lang", LANGUAGES)
def test_khmer_and_lao_names_are_drawn_whole_at_the_table(phone, tap, screenshot, lang: str):
    page = phone()
    barbu_id = made(page, "barbu", MIXED, {"first_declarer": MIXED[0]}, [barbu_entry(n, MIXED) for n in (1, 2)])
    switched(page, tap, lang)
    wrong = whole(page, BARBU_NAMES, BARBU_LINES, "Barbu match")
    fits(page, lang, "Barbu match")
    screenshot(page, "barbu-match")
    page.goto(f"/m/{barbu_id}/hands/new?variant=no_hearts")
    wrong += whole(page, COUNTED_NAMES, ".save-bar .save-summary", "No Hearts form")
    page.goto(f"/m/{barbu_id}/hands/new?variant=barbu")
    tap(page.locator('.chips[data-field="king_of_hearts"]').get_by_role("radio", name=MIXED[1], exact=True))
    tap(page.locator(".doubles .cell").first.locator(".chip").nth(1))  # a double: Save's summary names both
    wrong += whole(page, CHOSEN_NAMES, CHOSEN_LINES, "Barbu form")
    fits(page, lang, "Barbu form")
    screenshot(page, "barbu-form")

    kozyol_id = made(page, "kozyol", MIXED, {}, [{"points": [75, 45]}])
    wrong += whole(page, KOZYOL_NAMES, KOZYOL_LINES, "Kozyol series")
    fits(page, lang, "Kozyol series")
    page.goto(f"/m/{kozyol_id}/hands/new")
    wrong += whole(page, "", DEAL_LINES, "Kozyol deal")
    fits(page, lang, "Kozyol deal")
    screenshot(page, "kozyol-deal")
    assert wrong == [], "\n".join(wrong)
