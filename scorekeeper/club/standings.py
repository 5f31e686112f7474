"""Season standings per game, ranked the way each game's players rank a year of play.

Barbu by average final score per match, then total; Kozyol by fewest goats per match, then most
deals won, with the partnerships beside; Hearts by wins, then average finishing place. Players with
fewer matches than the club's minimum are listed unranked at the end.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from .digest import Played

Figures = dict[str, float | int]


@dataclass(frozen=True)
class Standing:
    """One player's line of a season table: place None when not ranked (too few matches)."""

    player: int
    matches: int
    ranked: bool
    place: int | None
    figures: Figures


@dataclass(frozen=True)
class Partnership:
    """Two Kozyol partners (lower id first) and how their matches together went."""

    pair: tuple[int, int]
    matches: int
    goats: int
    goats_with_eggs: int
    deals: int
    deals_won: int


def of_game(game: str, played: Iterable[Played]) -> Iterator[dict[str, Any]]:
    """The digests of one game's matches."""
    return (p.digest for p in played if p.digest.get("game") == game)


def team_of(made: dict[str, Any], seat: int) -> int:
    """The Kozyol team (0 or 1) of a seat."""
    return 0 if seat in made["teams"][0] else 1


def deals_won(made: dict[str, Any], team: int) -> int:
    """Kozyol deals that the other team lost (eggs are nobody's).

    >>> deals_won({"deals": [1, None, 0, 1]}, 0), deals_won({"deals": [1, None, 0, 1]}, 1)
    (2, 1)
    """
    return sum(1 for loser in made["deals"] if loser is not None and loser != team)


def _barbu(made: dict[str, Any], seat: int) -> Figures:
    return {"total": made["totals"][seat], "wins": int(seat in made["winners"])}


def _kozyol(made: dict[str, Any], seat: int) -> Figures:
    team = team_of(made, seat)
    goat = int(made["goat"] == team)
    return {"goats": goat, "goats_with_eggs": goat * int(made["goat_with_eggs"]),
            "deals_won": deals_won(made, team), "deals": len(made["deals"])}


def _hearts(made: dict[str, Any], seat: int) -> Figures:
    return {"wins": int(seat in made["winners"]), "places": made["places"][seat], "total": made["totals"][seat]}


def _barbu_figures(sums: Figures, matches: int) -> Figures:
    return {"average": sums["total"] / matches, "total": sums["total"], "wins": sums["wins"]}


def _kozyol_figures(sums: Figures, matches: int) -> Figures:
    return {**sums, "goats_per_match": sums["goats"] / matches}


def _hearts_figures(sums: Figures, matches: int) -> Figures:
    return {"wins": sums["wins"], "average_place": sums["places"] / matches, "average": sums["total"] / matches}


# Per game: what one match adds to a seat, the figures from the sums, and the ranking key (smaller first).
RANKING: dict[str, tuple[Callable[[dict[str, Any], int], Figures], Callable[[Figures, int], Figures],
                         Callable[[Figures], tuple[float, ...]]]] = {
    "barbu": (_barbu, _barbu_figures, lambda f: (-f["average"], -f["total"])),
    "kozyol": (_kozyol, _kozyol_figures, lambda f: (f["goats_per_match"], -f["deals_won"])),
    "hearts": (_hearts, _hearts_figures, lambda f: (-f["wins"], f["average_place"])),
}


def standings(game: str, played: list[Played], min_matches: int = 1) -> list[Standing]:
    """Rank every player seated in the game's matches; those under min_matches come last, unranked."""
    one_match, figures_of, key = RANKING[game]
    sums: dict[int, Figures] = defaultdict(lambda: defaultdict(int))
    matches: dict[int, int] = defaultdict(int)
    for made in of_game(game, played):
        for seat, player in enumerate(made["seats"]):
            matches[player] += 1
            for name, value in one_match(made, seat).items():
                sums[player][name] += value
    figures = {player: figures_of(dict(sums[player]), matches[player]) for player in matches}
    order = sorted(matches, key=lambda player: (matches[player] < min_matches, key(figures[player]), player))
    table: list[Standing] = []
    for player in order:
        ranked = matches[player] >= min_matches
        place = None
        if ranked:
            previous = table[-1] if table else None
            tied = previous is not None and key(previous.figures) == key(figures[player])
            place = previous.place if tied else len(table) + 1
        table.append(Standing(player, matches[player], ranked, place, figures[player]))
    return table


def partnerships(played: list[Played]) -> list[Partnership]:
    """Every Kozyol partnership: fewest goats per match first, then the most matches together."""
    tally: dict[tuple[int, int], list[int]] = defaultdict(lambda: [0, 0, 0, 0, 0])
    for made in of_game("kozyol", played):
        for team, (first, second) in enumerate(made["teams"]):
            pair = tuple(sorted((made["seats"][first], made["seats"][second])))
            goat = int(made["goat"] == team)
            counts = tally[pair]  # type: ignore[index]
            for index, value in enumerate((1, goat, goat * int(made["goat_with_eggs"]),
                                           len(made["deals"]), deals_won(made, team))):
                counts[index] += value
    lines = [Partnership(pair, *counts) for pair, counts in tally.items()]
    return sorted(lines, key=lambda p: (p.goats / p.matches, -p.matches, -p.deals_won, p.pair))
