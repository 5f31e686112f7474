"""The club at phone size (390x844, touch): standings tables with no player hidden, a player's best and worst
contract as declarer and as defender, the roster run with the name field kept, evenings with their winners,
seating four from the roster in a tap each; axe-core in light and dark mode on every page touched."""

from __future__ import annotations

import random
from typing import Any

from playwright.sync_api import expect

from helpers.browser import check, report
from helpers.club_matches import FOUR, hearts_entry, scripted_barbu

SEVEN = [*FOUR, "Eve", "Fay", "Gus"]
# Names as long as a roster takes (40 characters at most), in two scripts, with and without spaces.
LONG = {"Ann": "Bartholomew Featherstonehaugh-Smythe", "Bob": "Анастасия Владимировна Кузнецова",
        "Cid": "Maximilianus-Konstantinos Papadopoulos", "Dee": "Dee", "Eve": "Evangelina Worthington",
        "Fay": "Fay", "Gus": "Gustavo Hernández de la Fuente"}
GAMES = ("barbu", "kozyol", "hearts")


class Club:
    """A club made over the API, its admin link opened on the phone, the phone's requests carrying the key."""

    def __init__(self, page: Any, name: str = "Les Dimanches de Montparnasse") -> None:
        self.page = page
        made = page.context.request.post("/api/v1/clubs", data={"name": name})
        assert made.status == 201, made.text()
        self.id, self.key = made.json()["id"], made.json()["admin_key"]
        page.goto(made.json()["admin_url"])
        self.address = f"/c/{self.id}"
        self.api("PUT", f"/api/v1/clubs/{self.id}/rules", {"min_matches": 1})

    def api(self, method: str, path: str, data: Any, key: str | None = None) -> Any:
        answer = self.page.context.request.fetch(path, method=method, data=data,
                                                 headers={"Authorization": f"Bearer {key or self.key}"})
        assert answer.ok, answer.text()
        return answer.json()

    def start(self, game: str, players: list[str], options: dict[str, Any]) -> tuple[str, str, list[int]]:
        """A club match over the API: its id, edit key and the roster ids of its seats."""
        started = self.api("POST", f"/api/v1/clubs/{self.id}/matches",
                           {"game": game, "players": players, "options": options})
        return started["id"], started["edit_key"], started["seat_ids"]

    def play(self, match: str, key: str, entries: list[dict[str, Any]]) -> dict[str, Any]:
        state: dict[str, Any] = {}
        for entry in entries:
            state = self.api("POST", f"/api/v1/matches/{match}/hands", entry, key)
        return state

    def rename(self, ids: dict[str, int], names: dict[str, str]) -> None:
        for short, player in ids.items():
            if names.get(short, short) != short:
                self.api("PATCH", f"/api/v1/clubs/{self.id}/players/{player}", {"name": names[short]})


def hearts_to_the_end(club: Club, match: str, key: str, players: list[str]) -> None:
    rng = random.Random(7)
    while not club.play(match, key, [hearts_entry(rng, players)])["finished"]:
        pass


def every_game_finished(page: Any, names: dict[str, str] = LONG) -> tuple[Club, dict[str, int]]:
    """A club with a finished match of every game, seven players on its roster under long names."""
    club = Club(page)
    barbu, key, seats = club.start("barbu", FOUR, {"first_declarer": "Ann", "enforce_declarer_doubles": False})
    club.play(barbu, key, scripted_barbu())
    kozyol, key, _ = club.start("kozyol", FOUR, {"target": 1, "first_dealer": "Ann"})
    club.play(kozyol, key, [{"points": [75, 45]}])
    hearts, key, all_seats = club.start("hearts", SEVEN, {"target": 26})
    hearts_to_the_end(club, hearts, key, SEVEN)
    ids = dict(zip(SEVEN, all_seats))
    assert ids["Ann"] == seats[0]
    club.rename(ids, names)
    return club, ids


# Per standings table on screen, scrolled all the way to the right: how many pixels of it are out of the
# card, which rows then have their place or player out of view (outside the table's visible part, or under
# a figure), and which figures cannot be brought out from under the place and player by scrolling.
HIDDEN = """() => {
  const shows = (cell, box) => {
    window.scrollBy(0, cell.getBoundingClientRect().top - window.innerHeight / 2);
    const r = cell.getBoundingClientRect(), y = r.top + r.height / 2;
    if (r.left < box().left - 1 || r.right > box().right + 1) { return false; }
    return [r.left + r.width / 4, r.left + r.width / 2, r.right - r.width / 4].every((x) => {
      const hit = document.elementFromPoint(x, y);
      return hit !== null && cell.contains(hit);
    });
  };
  return [...document.querySelectorAll(".club-standings .scroll")].map((area) => {
    const box = () => area.getBoundingClientRect();
    const rows = [...area.querySelectorAll("tbody tr")];
    area.scrollLeft = area.scrollWidth;
    const hidden = rows.filter((row) => ![row.cells[0], row.cells[1]].every((cell) => shows(cell, box)))
      .map((row) => row.cells[1].innerText.trim());
    const buried = [];
    rows.forEach((row) => [...row.cells].slice(2).forEach((cell) => {
      area.scrollLeft = 0;
      area.scrollLeft = cell.getBoundingClientRect().right - box().right;
      if (!shows(cell, box)) { buried.push(row.cells[1].innerText.trim() + ": " + cell.innerText.trim()); }
    }));
    const label = document.getElementById(area.getAttribute("aria-labelledby")).innerText;
    return {table: label, out: area.scrollWidth - area.clientWidth, hidden: hidden, buried: buried};
  });
}"""


def test_every_standings_table_keeps_place_and_player_in_view(phone, screenshot):
    page = phone()
    club, _ = every_game_finished(page)
    tables = {}
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        page.goto(club.address)
        tables.update({row["table"]: row for row in page.evaluate(HIDDEN)})
        report("club-tables", f"standings at 390 px ({scheme})",
               {name: {"px out of the card": row["out"], "players hidden": len(row["hidden"]),
                       "figures out of reach": len(row["buried"])}
                for name, row in tables.items()})
        assert not any(row["hidden"] or row["buried"] for row in tables.values()), [(n, r["hidden"]) for n, r in tables.items()]
        assert page.evaluate("document.documentElement.scrollWidth") <= 390, "the page itself scrolls sideways"
        screenshot(page, f"standings-{scheme}")
    assert set(tables) == {"Barbu", "Kozyol", "Partnerships", "Cancellation Hearts"}, tables
    problems: dict[str, list[str]] = {}
    exempt: dict[str, list[str]] = {}
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        page.goto(club.address)
        check(page, f"club-{scheme}", problems, exempt)
    assert not any(problems.values()), problems


def test_a_player_page_says_what_her_best_and_worst_contract_are_ranked_by(phone):
    page = phone()
    club, ids = every_game_finished(page)
    problems: dict[str, list[str]] = {}
    exempt: dict[str, list[str]] = {}
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        page.goto(f"{club.address}/players/{ids['Ann']}")
        figures = page.locator("#stats-barbu + .figures")
        # Worked out by hand (tests/test_club_contracts.py): Trumps 110 and No Hearts -30 as declarer;
        # Dominoes 20/3 and No Hearts -40/3 in three hands as defender.
        for label, shown in [("Best contract as declarer", "Trumps 110.0 a hand"),
                             ("Worst contract as declarer", "No Hearts -30.0 a hand"),
                             ("Best contract as defender", "Dominoes 6.7 a hand"),
                             ("Worst contract as defender", "No Hearts -13.3 a hand")]:
            expect(figures.locator("div", has_text=label).locator("dd")).to_have_text(shown, use_inner_text=True)
        expect(page.get_by_text("by the average score of a hand of that contract, as declarer and as defender")
               ).to_be_visible()
        check(page, f"player-{scheme}", problems, exempt)
    assert not any(problems.values()), problems


EIGHT = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Deee"]


def test_eight_players_join_the_roster_with_the_field_kept_and_a_merge_is_undone(phone, tap, screenshot):
    page = phone()
    club = Club(page, "Jeudis")
    page.goto(f"{club.address}/admin/players")
    field = page.get_by_label("New player")
    for name in EIGHT:  # the field is ready each time: the name, then the keyboard's Enter
        expect(field).to_be_focused()
        page.keyboard.type(name)
        page.keyboard.press("Enter")
        tap.count += len(name) + 1
        expect(page.get_by_text(f"{name} joined the roster.")).to_be_visible()
    expect(field).to_be_focused()
    assert field.evaluate("el => { const r = el.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; }"), \
        "the focused field is on screen"
    typed = sum(len(name) for name in EIGHT)
    report("taps", "Club: eight players added to the roster",
           {"taps": tap.count, "beyond the names typed": tap.count - typed, "before": typed + 17})
    assert tap.count - typed <= len(EIGHT)

    # Deee is Dee typed twice over: the merge reads as its sentence, and comes undone from the same page.
    merge = page.locator("#merge")
    merge.get_by_label("Entry", exact=True).select_option(label="Deee")
    merge.get_by_label("becomes", exact=True).select_option(label="Dee")
    expect(merge.locator("[data-merge-preview]")).to_have_text("Deee becomes Dee")
    tap(merge.get_by_role("button", name="Merge"))
    expect(page.get_by_text("Merged: one player now holds both records.")).to_be_visible()
    merged = page.locator("#unmerge li", has_text="Deee became Dee")
    expect(merged).to_be_visible()
    screenshot(page, "merged")
    problems: dict[str, list[str]] = {}
    exempt: dict[str, list[str]] = {}
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        check(page, f"admin-merged-{scheme}", problems, exempt)
    tap(merged.get_by_role("button", name="Undo: Deee back on the roster"))
    expect(page.get_by_text("Deee is back on the roster with their own matches.")).to_be_visible()
    expect(page.locator("#unmerge")).to_have_count(0)

    # Deee never played: gone in one go. Ann has played: she stays, and the page says why.
    kozyol, key, _ = club.start("kozyol", FOUR, {"target": 1, "first_dealer": "Ann"})
    club.play(kozyol, key, [{"points": [75, 45]}])
    page.reload()
    remove = page.locator("#remove")
    remove.get_by_label("Entry to remove").select_option(label="Deee")
    tap(remove.get_by_role("button", name="Remove from the roster"))
    expect(page.get_by_text("Deee left the roster.")).to_be_visible()
    expect(page.locator(".roster-list")).not_to_contain_text("Deee")
    page.locator("#remove").get_by_label("Entry to remove").select_option(label="Ann")
    tap(page.locator("#remove").get_by_role("button", name="Remove from the roster"))
    expect(page.locator("#remove .error")).to_have_text(
        "Ann has played at the club, and a player with matches stays on the roster: rename or merge them instead.")
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        check(page, f"admin-refused-removal-{scheme}", problems, exempt)
    assert not any(problems.values()), problems


def test_evenings_show_each_match_state_and_winners_and_print_with_a_date(phone, screenshot):
    page = phone()
    club, _ = every_game_finished(page)
    club.start("kozyol", [LONG[name] for name in FOUR], {"target": 1})  # still at the table
    problems: dict[str, list[str]] = {}
    exempt: dict[str, list[str]] = {}
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        page.goto(club.address)
        matches = page.locator(".matches li")
        expect(matches).to_have_count(4)
        kozyol = f"Kozyol · {', '.join(LONG[name] for name in FOUR)}"
        expect(matches.nth(1)).to_contain_text(f"{kozyol} Finished Winners: {LONG['Ann']}, {LONG['Cid']}")
        expect(matches.nth(3)).to_contain_text(f"{kozyol} In progress")
        expect(matches.nth(3)).not_to_contain_text("Winner")
        for state in matches.locator(".state").all():
            state.scroll_into_view_if_needed()
            expect(state).to_be_in_viewport()
        check(page, f"evenings-{scheme}", problems, exempt)
    assert not any(problems.values()), problems
    screenshot(page, "evenings")
    expect(page.get_by_text("Printed on")).to_be_hidden()  # on paper only
    page.emulate_media(media="print")
    expect(page.get_by_text("Printed on")).to_be_visible()
    page.emulate_media(media="screen")
    link = page.get_by_role("link", name="Standings as PDF")
    answer = page.context.request.get(link.get_attribute("href"))
    assert answer.ok and answer.headers["content-type"] == "application/pdf"
    assert answer.headers["content-disposition"].startswith('inline; filename="Les-Dimanches-de-Montparnasse-All-time-')


def roster_of(page: Any, names: list[str]) -> Club:
    club = Club(page, "Mardis")
    for name in names:
        club.api("POST", f"/api/v1/clubs/{club.id}/players", {"name": name})
    return club


def seated_at(page: Any) -> list[str]:
    match = page.url.rsplit("/", 1)[1].split("#")[0]
    return page.context.request.get(f"/api/v1/matches/{match}").json()["players"]


def test_four_players_are_seated_from_the_roster_in_a_tap_each(phone, tap, screenshot):
    page = phone()
    club = roster_of(page, ["Eve", *reversed(FOUR), "Fay"])
    problems: dict[str, list[str]] = {}
    exempt: dict[str, list[str]] = {}
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        page.goto(f"{club.address}/new/kozyol")
        check(page, f"new-match-chips-{scheme}", problems, exempt)
    chips = page.get_by_role("group", name="Tap the players in seating order")
    tap.reset()
    for name in FOUR:
        tap(chips.get_by_role("button", name=name))
    for seat, name in enumerate(FOUR):
        expect(chips.get_by_role("button", name=name)).to_have_attribute("aria-pressed", "true")
        expect(chips.get_by_role("button", name=name)).to_contain_text(f"Seat {seat + 1}")
        expect(page.get_by_label(f"Seat {seat + 1}", exact=True)).to_have_value(name)
        expect(page.locator(f'.table-plan [data-seat="{seat}"]')).to_have_text(name)
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        check(page, f"new-match-seated-{scheme}", problems, exempt)
    assert not any(problems.values()), problems
    screenshot(page, "seated")
    tap(page.get_by_role("button", name="Start the match"))
    page.wait_for_url("**/m/*")
    assert seated_at(page) == FOUR
    report("taps", "Club: four players seated from the roster and the match started",
           {"taps": tap.count, "at_most": 5, "before": 9})
    assert tap.count <= 5

    # A slip is one tap to undo: Bob tapped again leaves seat 2, and the next player tapped takes it.
    page.goto(f"{club.address}/new/kozyol")
    for name in [*FOUR, "Bob", "Eve"]:
        page.get_by_role("button", name=name).tap()
    expect(page.get_by_label("Seat 2", exact=True)).to_have_value("Eve")
    expect(page.get_by_role("button", name="Bob")).to_have_attribute("aria-pressed", "false")


def test_a_phone_without_javascript_seats_the_roster_with_the_menus(phone, tap):
    page = phone(java_script_enabled=False)
    club = roster_of(page, FOUR)
    page.goto(f"{club.address}/new/kozyol")
    expect(page.locator("[data-seat-chips]")).to_be_hidden()
    tap.reset()
    for seat, name in enumerate(FOUR):
        page.get_by_label(f"Seat {seat + 1}", exact=True).select_option(name)
        tap.count += 2  # the menu, then the name
    tap(page.get_by_role("button", name="Start the match"))
    page.wait_for_url("**/m/*")
    assert seated_at(page) == FOUR
    report("taps", "Club: four players seated with the menus (no JavaScript)", {"taps": tap.count})
