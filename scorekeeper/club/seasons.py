"""A season closed by the admin: its final tables, champions and evenings' winners, kept as they stood.

Closing takes a snapshot (Season.final) of the season's figures and of each evening's winners, names
as the roster had them; a closed season is read from it, so a match corrected later moves nothing.
Reopening drops the snapshot and the season follows its matches again.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timezone
from typing import Any, NamedTuple, cast

from sqlalchemy import select

from ..db import db
from ..games import GAMES
from ..games.base import N_
from ..json_values import JsonObject
from ..models import Club, Match, Season
from ..refusals import refuse
from . import figures as club_figures, service
from .figures import ClubView
from .season_final import VERSION, Final, FinalEvening, game_view, kept_game

__all__ = ["VERSION", "Closing", "EveningWinners", "Fame", "champions", "close", "closing", "evening_winners",
           "final_of", "final_view", "hall_of_fame", "leading", "min_matches", "reopen", "view"]


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
    leading: dict[str, list[str]]  # per game nobody was ranked in, who led it on provisional places


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


def close(club: Club, season: Season, early: Any = False) -> None:
    """Close the season: keep its tables, champions and evenings' winners as they are now.

    Before its last day only when asked (early): today then becomes its last day, so a match played after
    the close never falls in a season whose tables no longer move.
    """
    if season.closed_at is not None:
        raise refuse("season", N_("This season is already closed."))
    if not isinstance(early, bool):
        raise refuse("early", N_("Say yes or no."))
    today = service.today(club)
    if today < season.starts:
        raise refuse("season", N_("This season has not started yet: change its days instead."))
    if today < season.ends and not early:
        raise refuse("early", N_("{name} runs until {day}. Closing it today makes today its last day: confirm to "
                                 "close it early."), name=season.name, day=season.ends.isoformat())
    season.ends = min(season.ends, today)
    view = club_figures.view(club, season)
    final: Final = {"version": VERSION, "closed_on": today.isoformat(), "min_matches": club.min_matches,
                    "names": {str(player): name for player, name in view.names.items()},
                    "games": {slug: kept_game(game) for slug, game in view.games.items()},
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
    games = {slug: game_view(slug, final["games"][slug]) for slug in GAMES if slug in final["games"]}  # GAMES order
    names = {int(player): name for player, name in final["names"].items()}
    return ClubView(games, names, sum(game.matches for game in games.values()))


def view(club: Club, season: Season | None) -> ClubView:
    """The season's figures: from its snapshot when closed, else as its matches stand (figures.view)."""
    return final_view(season) if season is not None and season.closed_at is not None else club_figures.view(club, season)


def champions(view: ClubView) -> dict[str, list[str]]:
    """Per game, the ranked players in first place (all of them on a tie), by name."""
    return {slug: [view.names.get(row.player, "?") for row in game.standings if row.ranked and row.place == 1]
            for slug, game in view.games.items()}


def leading(view: ClubView) -> dict[str, list[str]]:
    """Per game in which nobody is ranked yet, the players first on provisional places, by name."""
    return {slug: [view.names.get(row.player, "?") for row in game.standings if row.provisional == 1]
            for slug, game in view.games.items() if not any(row.ranked for row in game.standings)}


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
    kept = final_view(season)
    return Closing(date.fromisoformat(final["closed_on"]), champions(kept), evening_winners(season), leading(kept))


def min_matches(club: Club, season: Season | None) -> int:
    """The fewest matches to be ranked that the season's tables were made with."""
    final = final_of(season) if season is not None else None
    return final["min_matches"] if final else club.min_matches


class Fame(NamedTuple):
    """A closed season of the hall of fame: its champions per game, and who led a game nobody was ranked in."""

    season: Season
    champions: dict[str, list[str]]
    leading: dict[str, list[str]]


def hall_of_fame(club: Club) -> list[Fame]:
    """The club's closed seasons, the latest first, each with its champions per game."""
    closed = db.session.scalars(select(Season).where(Season.club_id == club.id, Season.closed_at.is_not(None))
                                .order_by(Season.ends.desc(), Season.starts.desc(), Season.id.desc()))
    kept = [(season, final_view(season)) for season in closed if final_of(season) is not None]
    return [Fame(season, champions(view), leading(view)) for season, view in kept]
