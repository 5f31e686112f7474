"""Season standings per game, ranked the way each game's players rank a year of play.

Barbu by average final score per match, then total; Kozyol by fewest goats per match, then most
deals won, with the partnerships beside; Hearts by wins, then average finishing place. Players with
fewer matches than the club's minimum are listed unranked at the end, each with a provisional place.
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass
from typing import cast

from .base import Digest, Figures, Played, Ranking, of_game
from .kozyol import KozyolDigest, deals_won, team_of
from .registry import FIGURES

__all__ = ["RANKING", "PairTally", "Partnership", "Ranking", "Standing", "Tally", "deals_won", "of_game",
           "partnerships", "provisional_places", "standings", "team_of"]


@dataclass(frozen=True)
class Standing:
    """One player's line of a season table: place None when not ranked (too few matches); a player not ranked
    yet has a provisional place instead, where their figures so far put them among every player of the table."""

    player: int
    matches: int
    ranked: bool
    place: int | None
    figures: Figures
    provisional: int | None = None  # None once ranked


@dataclass(frozen=True)
class Partnership:
    """Two Kozyol partners (lower id first) and how their matches together went."""

    pair: tuple[int, int]
    matches: int
    goats: int
    goats_with_eggs: int
    deals: int
    deals_won: int


RANKING: dict[str, Ranking] = {slug: figures.ranking for slug, figures in FIGURES.items()}  # per game, as the registry


class Tally:
    """One game's table as running sums: add a finished match, take one away, read the standings at any time.

    What standings() computes from scratch, kept up to date by a caller that knows which matches
    changed (a correction takes the old digest away and adds the new one): the sums are whole numbers,
    so a tally after any additions and removals equals one made from the matches left.
    """

    def __init__(self, game: str) -> None:
        self.ranking = FIGURES[game].ranking
        self.game = game
        self.sums: dict[int, list[int]] = {}
        self.matches: dict[int, int] = {}

    def add(self, made: Digest, times: int = 1) -> None:
        """Count one match's digest (times -1 takes it away again)."""
        def add(player: int, line: tuple[int, ...]) -> None:
            count = self.matches.get(player, 0) + times
            kept = self.sums.setdefault(player, [0] * self.ranking.columns)
            for index, value in enumerate(line):
                kept[index] += times * value
            if count:
                self.matches[player] = count
            else:
                del self.matches[player], self.sums[player]

        if made.get("game") == self.game:
            self.ranking.add_match(made, add)

    def remove(self, made: Digest) -> None:
        """Take away a match counted before."""
        self.add(made, -1)

    def copy(self) -> Tally:
        """A tally of the same sums, to change without changing this one."""
        made = Tally(self.game)
        made.sums = {player: list(line) for player, line in self.sums.items()}
        made.matches = dict(self.matches)
        return made

    def standings(self, min_matches: int = 1) -> list[Standing]:
        """The table now: ranked players by the game's order, then those under min_matches, unranked."""
        matches, ranking = self.matches, self.ranking
        figures = {player: ranking.figures(self.sums[player], matches[player]) for player in matches}
        keys = {player: ranking.key(figures[player]) for player in matches}
        order = sorted(matches, key=lambda player: (matches[player] < min_matches, keys[player], player))
        among_all = provisional_places(keys)
        table: list[Standing] = []
        for player in order:
            ranked = matches[player] >= min_matches
            place = None
            if ranked:
                tied = bool(table) and keys[table[-1].player] == keys[player]
                place = table[-1].place if tied else len(table) + 1
            table.append(Standing(player, matches[player], ranked, place, figures[player],
                                  None if ranked else among_all[player]))
        return table


def provisional_places(keys: dict[int, tuple[float, ...]]) -> dict[int, int]:
    """Each player's place by their key among all of them, the smallest key first and a tie sharing its place.

    >>> provisional_places({7: (0.5, 1.0), 8: (0.25, 3.0), 9: (0.5, 1.0), 10: (0.75, 0.0)})
    {7: 2, 8: 1, 9: 2, 10: 4}
    """
    ordered = sorted(keys.values())
    return {player: bisect_left(ordered, key) + 1 for player, key in keys.items()}


def standings(game: str, played: list[Played], min_matches: int = 1) -> list[Standing]:
    """Rank every player seated in the game's matches; those under min_matches come last, unranked."""
    tally = Tally(game)
    for p in played:
        tally.add(p.digest)
    return tally.standings(min_matches)


class PairTally:
    """The Kozyol partnerships as running sums, like Tally: add or take away a match, read the lines at any time."""

    def __init__(self) -> None:
        self.counts: dict[tuple[int, int], list[int]] = {}

    def add(self, digest: Digest, times: int = 1) -> None:
        """Count one match's two partnerships (times -1 takes them away again); other games pass."""
        if digest.get("game") != "kozyol":
            return
        made = cast(KozyolDigest, digest)
        for team, (first, second) in enumerate(made["teams"]):
            pair = (min(made["seats"][first], made["seats"][second]), max(made["seats"][first], made["seats"][second]))
            goat = int(made["goat"] == team)
            counts = self.counts.setdefault(pair, [0, 0, 0, 0, 0])
            for index, value in enumerate((1, goat, goat * int(made["goat_with_eggs"]),
                                           len(made["deals"]), deals_won(made, team))):
                counts[index] += times * value
            if counts[0] == 0:
                del self.counts[pair]

    def remove(self, made: Digest) -> None:
        """Take away a match counted before."""
        self.add(made, -1)

    def partnerships(self) -> list[Partnership]:
        """Every partnership: fewest goats per match first, then the most matches together."""
        lines = [Partnership(pair, *counts) for pair, counts in self.counts.items()]
        return sorted(lines, key=lambda p: (p.goats / p.matches, -p.matches, -p.deals_won, p.pair))


def partnerships(played: list[Played]) -> list[Partnership]:
    """Every Kozyol partnership: fewest goats per match first, then the most matches together."""
    tally = PairTally()
    for p in played:
        tally.add(p.digest)
    return tally.partnerships()
