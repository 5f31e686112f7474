"""A closed season's tables as its snapshot (Season.final) keeps them, as JSON, and read back as the engine's records.

Standings, ratings and partnerships per game, names as the roster had them, and each evening's matches
and winners. A snapshot kept before provisional places were kept has them made again from its figures.
"""

from __future__ import annotations

import math
from typing import NotRequired, TypedDict

from .engine.ratings import Rating
from .engine.standings import RANKING, Partnership, Standing, provisional_places
from .figures import GameView

VERSION = 1


class StandingRow(TypedDict):
    """An engine Standing as JSON; a figure that is not a finite number is kept as None."""

    player: int
    matches: int
    ranked: bool
    place: int | None
    figures: dict[str, float | int | None]
    provisional: NotRequired[int | None]  # kept since provisional places: made again from the figures for the others


class RatingRow(TypedDict):
    player: int
    mu: float
    sigma: float
    ordinal: float
    matches: int


class PairRow(TypedDict):
    pair: list[int]
    matches: int
    goats: int
    goats_with_eggs: int
    deals: int
    deals_won: int


class FinalGame(TypedDict):
    """One game's table as it stood: the engine's standings, ratings and partnerships as JSON objects."""

    matches: int
    standings: list[StandingRow]
    ratings: list[RatingRow]
    partnerships: list[PairRow]


class FinalMatch(TypedDict):
    """A finished match of an evening: its game, who sat and who won, by name."""

    game: str
    players: list[str]
    winners: list[str]


class FinalEvening(TypedDict):
    day: str  # year-month-day
    name: str | None
    matches: list[FinalMatch]


class Final(TypedDict):
    """What Season.final holds."""

    version: int
    closed_on: str  # the club's day when it closed, year-month-day
    min_matches: int
    names: dict[str, str]  # club player id (as JSON keys are text) -> name
    games: dict[str, FinalGame]
    evenings: list[FinalEvening]  # the latest first


def number(value: float | int) -> float | int | None:
    """A figure as JSON keeps it: a number, or None for one that is not finite."""
    return value if not isinstance(value, float) or math.isfinite(value) else None


def kept_game(view: GameView) -> FinalGame:
    """One game's figures as the snapshot keeps them."""
    return {"matches": view.matches,
            "standings": [{"player": row.player, "matches": row.matches, "ranked": row.ranked, "place": row.place,
                           "figures": {key: number(value) for key, value in row.figures.items()},
                           "provisional": row.provisional} for row in view.standings],
            "ratings": [{"player": row.player, "mu": row.mu, "sigma": row.sigma, "ordinal": row.ordinal,
                         "matches": row.matches} for row in view.ratings],
            "partnerships": [{"pair": list(row.pair), "matches": row.matches, "goats": row.goats,
                              "goats_with_eggs": row.goats_with_eggs, "deals": row.deals, "deals_won": row.deals_won}
                             for row in view.partnerships]}


def game_view(slug: str, kept: FinalGame) -> GameView:
    """The engine's records again from the snapshot's JSON (a figure kept as None reads as not a number)."""
    figures = [{key: math.nan if value is None else value for key, value in row["figures"].items()}
               for row in kept["standings"]]
    made_again = provisional_places({row["player"]: RANKING[slug].key(line)
                                     for row, line in zip(kept["standings"], figures)})
    return GameView(
        matches=kept["matches"],
        standings=[Standing(row["player"], row["matches"], row["ranked"], row["place"], line,
                            row["provisional"] if "provisional" in row else
                            None if row["ranked"] else made_again[row["player"]])
                   for row, line in zip(kept["standings"], figures)],
        ratings=[Rating(row["player"], row["mu"], row["sigma"], row["ordinal"], row["matches"])
                 for row in kept["ratings"]],
        partnerships=[Partnership((row["pair"][0], row["pair"][1]), row["matches"], row["goats"],
                                  row["goats_with_eggs"], row["deals"], row["deals_won"])
                      for row in kept["partnerships"]])
