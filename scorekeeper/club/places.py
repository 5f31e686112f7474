"""An evening's places: each player of the evening in their game's season table counting its matches up to the
evening's day, beside their place before it; and the places a closed evening keeps (Evening.final).

Closing an evening keeps its places as they stand then, so a correction made later at another evening's
table does not move them; only the club's admin changing one of the evening's own matches takes them
again (evening_results.retake). A player not ranked yet has a provisional place (engine.standings).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Mapping, Sequence
from datetime import date, datetime, timezone
from typing import Any, NamedTuple, TypedDict, cast

from ..games import GAMES
from ..json_values import JsonObject
from ..models import Evening
from .engine.digest import Played
from .engine.standings import Tally

VERSION = 1


class Placed(NamedTuple):
    """A player of the evening in one game's season table after it (and before it)."""

    player: int
    name: str
    matches: int
    ranked: bool
    place: int | None  # None: not ranked yet (fewer matches than the club's minimum)
    before: int | None  # the place before the evening, None when not ranked then
    provisional: int | None = None  # while not ranked: where the figures so far put the player
    before_provisional: int | None = None  # the same before the evening


def places_of(played: Sequence[Played], tallies: Mapping[str, Tally], day: date, finished: Mapping[int, Any],
              names: Mapping[int, str], now: Mapping[int, int], min_matches: int) -> dict[str, list[Placed]]:
    """Per game finished that evening (its digests, `finished`), its players' places in the season counting the
    season's matches (`played`, in_order()) up to the evening's day, beside their places before it.

    tallies: the running sums of every match in `played` per game, when kept (a shortcut, copied, never changed).
    """
    games = {made["game"] for made in finished.values()}
    days = [one.day for one in played]  # in day order
    day_starts, day_ends = bisect_left(days, day), bisect_right(days, day)
    out: dict[str, list[Placed]] = {}
    for slug in GAMES:
        if slug not in games:
            continue
        upto = _tally_upto(played, tallies.get(slug), slug, day_ends)
        then = upto.copy()
        for one in played[day_starts:day_ends]:
            then.remove(one.digest)
        players = {now.get(seat, seat) for made in finished.values() if made["game"] == slug for seat in made["seats"]}
        before = {row.player: row for row in then.standings(min_matches)}
        out[slug] = [Placed(row.player, names.get(row.player, "?"), row.matches, row.ranked, row.place,
                            before[row.player].place if row.player in before else None, row.provisional,
                            before[row.player].provisional if row.player in before else None)
                     for row in upto.standings(min_matches) if row.player in players]
    return out


def _tally_upto(played: Sequence[Played], kept: Tally | None, game: str, end: int) -> Tally:
    """The game's running sums over the first `end` matches: the kept sums less the matches after them when those
    are fewer (an evening of the last days), else added up from the start."""
    if kept is not None and len(played) - end <= end:
        tally = kept.copy()
        for one in played[end:]:
            tally.remove(one.digest)
        return tally
    tally = Tally(game)
    for one in played[:end]:
        tally.add(one.digest)
    return tally


# -- what a closed evening keeps -------------------------------------------------------------------------------


class KeptPlace(TypedDict):
    player: int
    name: str  # as the roster had it then; the pages show the name the roster has now
    matches: int
    ranked: bool
    place: int | None
    before: int | None
    provisional: int | None
    before_provisional: int | None


class Kept(TypedDict):
    """What Evening.final holds."""

    version: int
    taken_at: str  # ISO 8601, UTC: when the places were taken (the close, or the admin's change since)
    season: int | None  # the season the places are in; None: all time
    min_matches: int
    places: dict[str, list[KeptPlace]]


def kept(season_id: int | None, min_matches: int, places: Mapping[str, list[Placed]]) -> JsonObject:
    """The places as Evening.final keeps them, taken now."""
    made: Kept = {"version": VERSION, "taken_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
                  "season": season_id, "min_matches": min_matches,
                  "places": {slug: [cast(KeptPlace, row._asdict()) for row in rows] for slug, rows in places.items()}}
    return cast(JsonObject, made)


def kept_of(evening: Evening) -> Kept | None:
    """The places a closed evening keeps; None while open, or for one closed before evenings kept them."""
    final = getattr(evening, "final", None)
    if evening.closed_at is None or not isinstance(final, dict) or final.get("version") != VERSION:
        return None
    return cast(Kept, final)


def placed(kept: Kept, names: Mapping[int, str]) -> dict[str, list[Placed]]:
    """The kept places, each player under the name the roster has now (the kept one for a player gone since)."""
    return {slug: [Placed(row["player"], names.get(row["player"], row["name"]), row["matches"], row["ranked"],
                          row["place"], row["before"], row["provisional"], row["before_provisional"]) for row in rows]
            for slug, rows in kept["places"].items()}


def brought(final: Any, season_id: int | None, now: Callable[[Any], int]) -> JsonObject | None:
    """Kept places of an export, for the club made of it here: each player under their id here, in the season
    holding the evening's day here; None for none, or for places kept in another shape (computed again then)."""
    if not isinstance(final, dict) or final.get("version") != VERSION:
        return None
    places = {str(slug): [{**row, "player": now(row["player"])} for row in rows] for slug, rows in final["places"].items()}
    return cast(JsonObject, {**final, "season": season_id, "places": places})

