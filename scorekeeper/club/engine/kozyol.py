"""Kozyol at the club: teams, deals and the goat in the digest, a table by goats per match, partners' statistics."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import TypedDict, cast

from ...games.base import Replay
from ...games.kozyol import KozyolHand, KozyolSummary
from .base import Add, Digest, Figures, GameFigures, PerSeat, Played, Ranking, Seating, Sides, of_game, seats_of


class KozyolDigest(Digest):
    """teams: the seats of each team; deals: the losing team per deal (None: eggs); goat: the team that lost."""

    teams: Sequence[Sequence[int]]
    deals: Sequence[int | None]
    goat: int
    goat_with_eggs: bool


class KozyolExtras(PerSeat):
    teams: list[list[int]]
    deals: list[int | None]
    goat: int
    goat_with_eggs: bool


class PartnerLine(TypedDict):
    """A player's matches with one partner: how many, the deals they won together, their goats."""

    matches: int
    deals_won: int
    goats: int


class KozyolStats(TypedDict):
    matches: int
    deals: int
    deals_won: int
    eggs: int
    goats: int
    goats_with_eggs: int
    best_partner: int | None
    partners: dict[int, PartnerLine]


def team_of(made: KozyolDigest, seat: int) -> int:
    """The Kozyol team (0 or 1) of a seat."""
    return 0 if seat in made["teams"][0] else 1


def deals_won(made: KozyolDigest, team: int) -> int:
    """Kozyol deals that the other team lost (eggs are nobody's).

    >>> deals_won({"deals": [1, None, 0, 1]}, 0), deals_won({"deals": [1, None, 0, 1]}, 1)
    (2, 1)
    """
    return sum(1 for loser in made["deals"] if loser is not None and loser != team)


def extras(replay: Replay[KozyolHand], seat: Seating) -> KozyolExtras:
    """Each seat its team's total and place, the teams as seats, the loser of each deal and the goat."""
    summary = cast(KozyolSummary, replay.summary())
    teams = [[seat[name] for name in team] for team in summary["teams"]]
    goat = summary["goat"]
    totals, placed = [0] * len(seat), [0] * len(seat)
    for team, members in enumerate(teams):
        for member in members:
            totals[member] = summary["totals"][team]
            placed[member] = 2 if team == goat else 1
    return {
        "totals": totals, "places": placed, "winners": sorted(teams[1 - goat]),
        "teams": teams, "deals": [hand["loser"] for hand in replay.hands],
        "goat": goat, "goat_with_eggs": bool(summary["goat_with_eggs"]),
    }


def add_match(made: Digest, add: Add) -> None:
    """Each player their team's goat (with eggs or not), the deals it won and the deals played."""
    made = cast(KozyolDigest, made)
    deals, eggs = len(made["deals"]), int(made["goat_with_eggs"])
    for team, members in enumerate(made["teams"]):
        goat = int(made["goat"] == team)
        line = (goat, goat * eggs, deals_won(made, team), deals)
        for seat in members:
            add(made["seats"][seat], line)


def figures(sums: list[int], matches: int) -> Figures:
    goats, with_eggs, won, deals = sums
    return {"goats": goats, "goats_with_eggs": with_eggs, "deals_won": won, "deals": deals,
            "goats_per_match": goats / matches}


RANKING = Ranking(4, add_match, figures, lambda f: (f["goats_per_match"], -f["deals_won"]))


def stats(played: list[Played], player: int) -> KozyolStats:
    """Deals won, eggs, goats (with eggs) and the best partner: most deals won together, then fewest goats."""
    out = {"matches": 0, "deals": 0, "deals_won": 0, "eggs": 0, "goats": 0, "goats_with_eggs": 0}
    partners: dict[int, PartnerLine] = defaultdict(lambda: {"matches": 0, "deals_won": 0, "goats": 0})
    for made in cast(list[KozyolDigest], of_game("kozyol", played)):
        for seat in seats_of(made, player):
            team = team_of(made, seat)
            goat = int(made["goat"] == team)
            won = deals_won(made, team)
            for name, value in (("matches", 1), ("deals", len(made["deals"])), ("deals_won", won),
                                ("eggs", made["deals"].count(None)), ("goats", goat),
                                ("goats_with_eggs", goat * int(made["goat_with_eggs"]))):
                out[name] += value
            line = partners[made["seats"][next(s for s in made["teams"][team] if s != seat)]]
            line["matches"] += 1
            line["deals_won"] += won
            line["goats"] += goat
    best = min(partners, key=lambda p: (-partners[p]["deals_won"], partners[p]["goats"], p), default=None)
    return {"matches": out["matches"], "deals": out["deals"], "deals_won": out["deals_won"], "eggs": out["eggs"],
            "goats": out["goats"], "goats_with_eggs": out["goats_with_eggs"], "best_partner": best,
            "partners": {p: PartnerLine(**line) for p, line in sorted(partners.items())}}


def rated(made: Digest) -> Sides:
    """The two teams, the goat ranked last.

    >>> rated({"game": "kozyol", "teams": [[0, 2], [1, 3]], "goat": 0})
    ([[0, 2], [1, 3]], [2, 1])
    """
    teams = cast(KozyolDigest, made)
    return [list(team) for team in teams["teams"]], [2 if team == teams["goat"] else 1 for team in range(2)]


FIGURES = GameFigures(extras, RANKING, stats, rated)
