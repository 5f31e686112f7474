"""A season closed by the admin: its final tables, champions and evenings' winners, kept as they stood.

Closing takes a snapshot (Season.final) of the season's figures and of each evening's winners, names
as the roster had them; a closed season is read from it, so a match corrected later moves nothing.
Reopening drops the snapshot and the season follows its matches again.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import date, datetime, timezone
from typing import TypedDict, cast

from sqlalchemy import select

from ..db import db
from ..games import GAMES
from ..games.base import N_
from ..json_values import JsonObject
from ..models import Club, Match, Season
from ..refusals import refuse
from . import figures as club_figures, service
from .engine.ratings import Rating
from .engine.standings import Partnership, Standing
from .figures import ClubView, GameView

VERSION = 1


class StandingRow(TypedDict):
    """An engine Standing as JSON; a figure that is not a finite number is kept as None."""

    player: int
    matches: int
    ranked: bool
    place: int | None
    figures: dict[str, float | int | None]


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


@dataclass(frozen=True)
class EveningWinners:
    """An evening of a closed season: its day and name, and per game the players who won most of its matches."""

    day: date
    name: str | None
    winners: dict[str, list[str]]  # in GAMES order, games not finished that evening left out


@dataclass(frozen=True)
class Closing:
    """What a closed season's pages print beside its tables."""

    closed_on: date
    champions: dict[str, list[str]]
    evenings: list[EveningWinners]


def _number(value: float | int) -> float | int | None:
    """A figure as JSON keeps it: a number, or None for one that is not finite."""
    return value if not isinstance(value, float) or math.isfinite(value) else None


def _game(view: GameView) -> FinalGame:
    """One game's figures as the snapshot keeps them."""
    return {"matches": view.matches,
            "standings": [{"player": row.player, "matches": row.matches, "ranked": row.ranked, "place": row.place,
                           "figures": {key: _number(value) for key, value in row.figures.items()}}
                          for row in view.standings],
            "ratings": [{"player": row.player, "mu": row.mu, "sigma": row.sigma, "ordinal": row.ordinal,
                         "matches": row.matches} for row in view.ratings],
            "partnerships": [{"pair": list(row.pair), "matches": row.matches, "goats": row.goats,
                              "goats_with_eggs": row.goats_with_eggs, "deals": row.deals, "deals_won": row.deals_won}
                             for row in view.partnerships]}


def _kept_game(kept: FinalGame) -> GameView:
    """The engine's records again from the snapshot's JSON (a figure kept as None reads as not a number)."""
    return GameView(
        matches=kept["matches"],
        standings=[Standing(row["player"], row["matches"], row["ranked"], row["place"],
                            {key: math.nan if value is None else value for key, value in row["figures"].items()})
                   for row in kept["standings"]],
        ratings=[Rating(row["player"], row["mu"], row["sigma"], row["ordinal"], row["matches"])
                 for row in kept["ratings"]],
        partnerships=[Partnership((row["pair"][0], row["pair"][1]), row["matches"], row["goats"],
                                  row["goats_with_eggs"], row["deals"], row["deals_won"])
                      for row in kept["partnerships"]])


def _evenings(club: Club, season: Season, names: dict[int, str]) -> list[FinalEvening]:
    """Each evening of the season with its finished matches and their winners, by name."""
    days = service.evenings(club, season)
    won = service.winners_among(club, [match for _day, _name, played in days for match in played])
    made: list[FinalEvening] = []
    for day, name, played in days:
        finished = [match for match in played if match.id in won]
        made.append({"day": day.isoformat(), "name": name, "matches": [
            {"game": match.game, "players": (seated := _seated(match, names)),
             "winners": [seated[seat] for seat in won[match.id]]} for match in finished]})
    return made


def _seated(match: Match, names: dict[int, str]) -> list[str]:
    seats = match.seat_ids or []
    return [names.get(seat, name) for seat, name in zip(seats, match.players)] if seats else list(match.players)


def close(club: Club, season: Season) -> None:
    """Close the season from its last day on: keep its tables, champions and evenings' winners as they are now."""
    if season.closed_at is not None:
        raise refuse("season", N_("This season is already closed."))
    today = service.today(club)
    if today < season.ends:
        raise refuse("season", N_("A season closes on its last day or later: {day}."), day=season.ends.isoformat())
    view = club_figures.view(club, season)
    final: Final = {"version": VERSION, "closed_on": today.isoformat(), "min_matches": club.min_matches,
                    "names": {str(player): name for player, name in view.names.items()},
                    "games": {slug: _game(game) for slug, game in view.games.items()},
                    "evenings": _evenings(club, season, view.names)}
    season.final = cast(JsonObject, final)
    season.closed_at = datetime.now(timezone.utc)
    service.bump(club)


def reopen(club: Club, season: Season) -> None:
    """Open a closed season again: its tables follow its matches once more."""
    if season.closed_at is None:
        raise refuse("season", N_("This season is not closed."))
    season.final, season.closed_at = None, None
    service.bump(club)


def final_of(season: Season) -> Final | None:
    """The snapshot of a closed season, None for an open one."""
    if season.closed_at is None or not season.final:
        return None
    return cast(Final, season.final)


def final_view(season: Season) -> ClubView:
    """The closed season's figures as they stood, in the shape of figures.view."""
    final = final_of(season)
    if final is None:
        raise ValueError("the season is not closed")
    games = {slug: _kept_game(final["games"][slug]) for slug in GAMES if slug in final["games"]}  # in GAMES order
    names = {int(player): name for player, name in final["names"].items()}
    return ClubView(games, names, sum(game.matches for game in games.values()))


def view(club: Club, season: Season | None) -> ClubView:
    """The season's figures: from its snapshot when closed, else as its matches stand (figures.view)."""
    return final_view(season) if season is not None and season.closed_at is not None else club_figures.view(club, season)


def champions(view: ClubView) -> dict[str, list[str]]:
    """Per game, the ranked players in first place (all of them on a tie), by name."""
    return {slug: [view.names.get(row.player, "?") for row in game.standings if row.ranked and row.place == 1]
            for slug, game in view.games.items()}


def evening_winners(season: Season) -> list[EveningWinners]:
    """Each evening of a closed season, the latest first, with per game who won the most of its matches."""
    final = final_of(season)
    made: list[EveningWinners] = []
    for evening in final["evenings"] if final else []:
        winners: dict[str, list[str]] = {}
        for slug in GAMES:
            counts: dict[str, int] = {}
            for match in evening["matches"]:
                if match["game"] == slug:
                    for name in match["winners"]:
                        counts[name] = counts.get(name, 0) + 1
            if counts:
                most = max(counts.values())
                winners[slug] = [name for name, count in counts.items() if count == most]
        made.append(EveningWinners(date.fromisoformat(evening["day"]), evening["name"], winners))
    return made


def closing(season: Season | None) -> Closing | None:
    """What a closed season's pages show beside its tables; None for all time or an open season."""
    final = final_of(season) if season is not None else None
    if season is None or final is None:
        return None
    return Closing(date.fromisoformat(final["closed_on"]), champions(final_view(season)), evening_winners(season))


def min_matches(club: Club, season: Season | None) -> int:
    """The fewest matches to be ranked that the season's tables were made with."""
    final = final_of(season) if season is not None else None
    return final["min_matches"] if final else club.min_matches


def hall_of_fame(club: Club) -> list[tuple[Season, dict[str, list[str]]]]:
    """The club's closed seasons, the latest first, each with its champions per game."""
    closed = db.session.scalars(select(Season).where(Season.club_id == club.id, Season.closed_at.is_not(None))
                                .order_by(Season.ends.desc(), Season.starts.desc(), Season.id.desc()))
    return [(season, champions(final_view(season))) for season in closed if final_of(season) is not None]
