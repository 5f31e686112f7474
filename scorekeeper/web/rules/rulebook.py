"""What the rules pages print of each game: the engine's numbers, the limits it enforces, the options in words.

Every number on a rules page comes from the engine (``scorekeeper/games/``), so a rule changed
there changes the pages too. The limits of a game are one list per game (``LIMITS``): a limit the
engine starts to enforce, say a maximum number of hands, is one more ``limit(...)`` line there.
Sentences are engine-style ``Reason`` templates with ``{placeholders}``, translated when shown.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ...games import GAMES, barbu, hearts, kozyol
from ...games.base import N_, NAME_MAX, Game, Reason
from ...i18n import translate

SEAT_OPTIONS = ("first_declarer", "first_dealer")  # options naming a player: None on a page for no match
EXAMPLE_PLAYERS = ("Ann", "Bob", "Cid", "Dee")  # the names of docs/rules.md, when no match gives its own
BETWEEN = N_("{low} to {high}")
EXACTLY = N_("exactly {count}")


def signed(value: int) -> str:
    """A score as a score sheet writes it: its sign always shown, a true minus sign.

    >>> signed(5), signed(-20), signed(0)
    ('+5', '−20', '0')
    """
    return f"+{value}" if value > 0 else f"−{-value}" if value < 0 else "0"


def say(text: Reason | str) -> str:
    """A sentence in the reader's language; a plain string (a player's name, a number) as it is."""
    return translate(text) if isinstance(text, Reason) else text


# -- the limits the app enforces -------------------------------------------------------------------


@dataclass(frozen=True)
class Limit:
    """One thing the app checks, and what it allows: a row of a rules page's limits table."""

    what: Reason
    allowed: Reason

    def said(self) -> tuple[str, str]:
        return translate(self.what), translate(self.allowed)


def limit(what: str, allowed: str, **numbers: Any) -> Limit:
    """A limit whose two sentences share the engine's numbers."""
    return Limit(Reason(what, numbers), Reason(allowed, numbers))


def seating(game: Game) -> list[Limit]:
    """What every game checks of the players: how many, and their names."""
    if game.min_players == game.max_players:
        players = limit(N_("Players"), EXACTLY, count=game.min_players)
    else:
        players = limit(N_("Players"), BETWEEN, low=game.min_players, high=game.max_players)
    return [players, limit(N_("Characters in a player's name"), BETWEEN, low=1, high=NAME_MAX)]


ADDING_UP = N_("{low} to {high}, all players together {total}")
AT_MOST = N_("{low} to {high}, all players together at most {high}")
AT_MOST_HANDS = N_("at most {count}: no real table plays that long (a moon or eggs can make a game endless)")
LIMITS: dict[str, list[Limit]] = {
    "barbu": [
        *seating(barbu.GAME),
        limit(N_("Hands in a match"), EXACTLY, count=barbu.HANDS),
        limit(N_("Tricks taken by one player"), ADDING_UP, low=0, high=barbu.CARDS_PER_HAND,
              total=barbu.COUNT_TOTALS["tricks"]),
        limit(N_("Queens taken by one player"), ADDING_UP, low=0, high=barbu.QUEENS, total=barbu.COUNT_TOTALS["queens"]),
        limit(N_("Hearts taken by one player"), ADDING_UP, low=0, high=barbu.CARDS_PER_HAND,
              total=barbu.COUNT_TOTALS["hearts"]),
        limit(N_("Dominoes scores"), N_("{count} whole numbers, never going up from first place, together {total}"),
              count=barbu.SEATS, total=barbu.DOMINO_TOTAL),
    ],
    "kozyol": [
        *seating(kozyol.GAME),
        limit(N_("Defeat points that end the series"), BETWEEN,
              low=kozyol.TARGET_RANGE[0], high=kozyol.TARGET_RANGE[1]),
        limit(N_("Card points of one team"), N_("{low} to {high}, both teams together {high}; never {one} or {almost}"),
              low=0, high=kozyol.TOTAL_POINTS, one=min(set(range(kozyol.TOTAL_POINTS)) - kozyol.REACHABLE),
              almost=max(set(range(kozyol.TOTAL_POINTS)) - kozyol.REACHABLE)),
        limit(N_("Cards of one rank counted in a pile"), BETWEEN, low=0, high=kozyol.CARDS_PER_RANK),
        limit(N_("Tricks of one team"), N_("{low} to {high}, both teams together {fewest} to {high}"),
              low=0, high=kozyol.TRICKS_PER_DEAL, fewest=kozyol.FEWEST_TRICKS),
        limit(N_("Deals in a series"), AT_MOST_HANDS, count=kozyol.GAME.max_hands),
    ],
    "hearts": [
        *seating(hearts.GAME),
        limit(N_("Game ends when a player reaches"), BETWEEN, low=hearts.TARGET_MIN, high=hearts.TARGET_MAX),
        limit(N_("Shooting the moon counts"), N_("{first} or {second}"),
              first=hearts.MOON_POINTS[0], second=hearts.MOON_POINTS[1]),
        limit(N_("Hearts taken by one player"),
              N_("{low} to {high}, all players together {high}, or one less for each card of a cancelled last trick"),
              low=0, high=hearts.HEARTS),
        limit(N_("Black Marias taken by one player"), AT_MOST, low=0, high=hearts.BLACK_MARIAS),
        limit(N_("Hands in a game"), AT_MOST_HANDS, count=hearts.GAME.max_hands),
    ],
}
assert set(LIMITS) == set(GAMES), "every game lists its limits"


# -- a match's options in words ----------------------------------------------------------------------


@dataclass(frozen=True)
class OptionWords:
    """How the rules page names one option and words its value (None: a page for no match, no seat known)."""

    label: str
    value: Callable[[Any], Reason | str]


def seat(unchosen: str) -> Callable[[str | None], Reason | str]:
    """A player's name as it is, or what happens when no match names one yet."""
    return lambda name: Reason(unchosen) if name is None else name


def either(yes: str, no: str) -> Callable[[bool], Reason]:
    return lambda value: Reason(yes if value else no)


def scores(values: list[int]) -> str:
    return " / ".join(signed(value) for value in values)


OPTION_WORDS: dict[str, dict[str, OptionWords]] = {
    "barbu": {
        "first_declarer": OptionWords(N_("Who declares first"), seat(N_("drawn at random, or chosen when the match starts"))),
        "domino_scores": OptionWords(N_("Dominoes scores"), scores),
        "enforce_declarer_doubles": OptionWords(N_("A hand missing a compulsory double"), either(
            N_("is refused"), N_("is recorded, with a warning beside it"))),
    },
    "kozyol": {
        "target": OptionWords(N_("Defeat points that end the series"), str),
        "eggs_double_next": OptionWords(N_("After eggs"), either(
            N_("the next deal counts double"), N_("the next deal counts as usual"))),
        "six_for_zero_points": OptionWords(N_("Defeat points for 0 card points with a trick"),
                                           lambda value: str(kozyol.DEFEAT["no_trick" if value else "heavy"])),
        "first_dealer": OptionWords(N_("Who deals first"), seat(N_("the player in the first seat"))),
    },
    "hearts": {
        "target": OptionWords(N_("Game ends when a player reaches"), str),
        "moon_points": OptionWords(N_("Shooting the moon counts"), str),
        "first_dealer": OptionWords(N_("Who deals first"), seat(N_("the player in the first seat"))),
    },
}
assert {slug: set(words) for slug, words in OPTION_WORDS.items()} == {
    slug: set(module.OPTIONS) for slug, module in (("barbu", barbu), ("kozyol", kozyol), ("hearts", hearts))
}, "every option of every game is put in words"


def defaults(game: Game) -> dict[str, Any]:
    """The options of a match that chose nothing, as the engine fills them in; no seat is named yet."""
    placeholders = [f"seat {n}" for n in range(1, game.min_players + 1)]
    filled = dict(game.parse_options(placeholders, {}, None))
    return {**filled, **{name: None for name in SEAT_OPTIONS if name in filled}}


def in_words(slug: str, options: Mapping[str, Any]) -> list[tuple[str, str]]:
    """Each option of a match with its value in words, in the reader's language."""
    return [(translate(words.label), say(words.value(options[name]))) for name, words in OPTION_WORDS[slug].items()]
