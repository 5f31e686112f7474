"""Shared vocabulary of the rules engines: errors, the game record, entry checks.

Pure standard library: the engines never import the web stack or the database.
Messages are English templates with named ``{placeholders}``; the web layer
translates the template and fills in the values, so the engine stays pure.
"""

from __future__ import annotations

import random
import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypedDict, TypeVar

# Reason and refuse are named here too: the web layer imports them with the rest of the engines' words.
from ..refusals import Reason as Reason, Refusal, refuse as refuse

NAME_MAX = 40  # letters or signs of a name, as a reader counts them (scorekeeper.names)
SUITS = ("spades", "hearts", "diamonds", "clubs")


def N_(text: str) -> str:
    """Mark a message template for translation without translating it here."""
    return text


# The engines' word for a refusal: an entry (or options) that breaks a rule of the game. It is the
# app-wide Refusal itself under the name the engines have always used, so a refusal raised under
# either name is caught under either name.
InvalidHand = Refusal


# -- the shapes at the engine's boundary (the JSON API gives them as they are) ---------

Entry = Mapping[str, Any]
"""A hand as entered (API body or form), before validation; each game normalizes it to its own TypedDict."""


class Upcoming(TypedDict):
    """What the table does next; each game adds its roles (declarer, leader, pass...)."""

    number: int
    dealer: str


class HandState(TypedDict):
    """One hand as replayed: its number, who dealt, the normalized entry; each game adds its scores."""

    number: int
    dealer: str


class Summary(TypedDict):
    """The state after the last hand; each game adds its totals (and extras such as Kozyol's teams).

    ``max_hands`` is the game's limit on hands: ``next`` is None once a match holds that many,
    finished or not.
    """

    finished: bool
    winners: list[str]
    max_hands: int


HandT = TypeVar("HandT", bound=HandState)
"""A game's own hand state (BarbuHand, KozyolHand...): what its replay holds, plays and totals."""


class Replay(Protocol[HandT]):
    """A match replayed hand by hand from its entries: what every engine provides.

    ``sides`` and ``running_totals`` say the same in every game, so shared code (charts,
    the table view) needs no branch: a side is one player, or a Kozyol team of two.
    A replay of any game is a ``Replay[Any]``: its hands are that game's, and ``side_totals``
    takes one of them back.
    """

    players: list[str]
    sides: list[list[str]]
    lowest_wins: bool
    max_hands: int  # no match of the game holds more hands (docs/rules.md, "How long a match can last")

    @property
    def options(self) -> Mapping[str, Any]:
        """The match's options, checked, with the defaults filled in."""

    @property
    def hands(self) -> Sequence[HandT]:
        """The hands played so far, in order."""

    @property
    def finished(self) -> bool:
        """Whether the match is over: no more hands can be played."""

    def play(self, entry: Entry) -> HandT:
        """Validate an entry as the next hand, score it and append it; return its state."""

    def next(self) -> Upcoming | None:
        """What the table does next, or None once the match is over."""

    def summary(self) -> Summary:
        """Totals, finished, winners, next (and game extras) as in the API."""

    def side_totals(self, hand: HandT | None = None) -> list[int]:
        """Each side's total after hand (the last one when None), in the order of sides."""


def running_totals(replay: Replay[Any]) -> list[list[int]]:
    """Each side's running total, from 0 before the first hand to the last hand."""
    lines: list[list[int]] = [[0] for _ in replay.sides]
    for hand in replay.hands:
        for line, total in zip(lines, replay.side_totals(hand)):
            line.append(total)
    return lines


@dataclass(frozen=True)
class Game:
    """What the app needs to know about one game."""

    slug: str
    title: str
    min_players: int
    max_players: int
    max_hands: int  # more hands than any real table plays: recording and restoring stop there
    parse_options: Callable[[list[str], Mapping[str, Any] | None, random.Random | None], Mapping[str, Any]]
    new_replay: Callable[[list[str], Mapping[str, Any]], Replay[Any]]


# -- entry checks shared by the engines ------------------------------------------------


def player_list(raw: Any, min_players: int, max_players: int) -> list[str]:
    """Refuse anything but a list of names, as many as the game seats."""
    if not isinstance(raw, list) or not all(isinstance(name, str) for name in raw):
        raise refuse("players", N_("Give the players as a list of names."))
    if not min_players <= len(raw) <= max_players:
        if min_players == max_players:
            raise refuse("players", N_("This game needs exactly {count} players."), count=min_players)
        raise refuse("players", N_("This game needs {low} to {high} players."), low=min_players, high=max_players)
    return list(raw)


def stored_players(raw: Any, min_players: int, max_players: int) -> list[str]:
    """The players of a stored match, spelt as it keeps them: as many as the game seats, none empty, none twice.

    Their names were checked when they were given (scorekeeper.names.parse_players), by rules that have grown
    since: a match made before is replayed with the names it holds.
    """
    names = player_list(raw, min_players, max_players)
    if not all(name.strip() for name in names):
        raise refuse("players", N_("Every player needs a name."))
    if len(set(names)) != len(names):
        raise refuse("players", N_("Two players have the same name; names must differ."))
    return names


# Invisible characters a phone keyboard does type: the joiners inside emoji sequences and some scripts.
JOINERS = frozenset("\u200c\u200d")
VIRAMA = 9  # the combining class of a virama or Khmer's coeng: the letter after it is drawn with the one before


def typeable(char: str) -> bool:
    r"""Whether a name may hold this character: any letter, mark, symbol or space, and the joiners.

    Control characters, bidirectional overrides and other invisible formatting are refused, and so are the
    line and paragraph separators (U+2028, U+2029), which break a line wherever the text goes (a calendar,
    a script, a CSV file).

    >>> [typeable(c) for c in ("é", "\u00a0", "\u200d", "\n", "\u202e", "\u200b", "\u2028", "\u2029")]
    [True, True, True, False, False, False, False, False]
    """
    if char in JOINERS:
        return True
    category = unicodedata.category(char)
    return not category.startswith("C") and category not in ("Zl", "Zp")


# Characters that show nothing (Unicode's default ignorable code points): the zero-width space, the joiners,
# variation selectors, fillers. A name with one looks like the name without it.
INVISIBLE = re.compile("[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e"
                       "\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\U0001bca0-\U0001bca3\U0001d173-\U0001d17a"
                       "\U000e0000-\U000e0fff]")
SPACES = re.compile(r"\s+")
# Khmer: a subscript consonant (coeng + consonant) typed after the vowel or sign it is drawn with, subscript DA
# (drawn as subscript TA), and subscript RO typed before another subscript (it is drawn first whatever the order).
KHMER_LATE_SUBSCRIPTS = re.compile("([\u17b6-\u17d1\u17d3\u17dd]+)((?:\u17d2[\u1780-\u17b3])+)")
KHMER_EARLY_RO = re.compile("(\u17d2\u179a)((?:\u17d2[\u1780-\u17b3])+)")
KHMER_DA, KHMER_TA = "\u17d2\u178a", "\u17d2\u178f"


def same_name(name: str) -> str:
    r"""The look-alike key: two names with the same key read the same to a player, so a match or a roster takes one.

    NFKC and case folding (so "ﬁ" is "fi", Lao "ຄຳ" is "ຄໍາ", "Zoé" typed either way is one name), any run of
    spaces of any kind one space, invisible characters dropped, and Khmer's spellings that are drawn alike
    made one: subscript DA as subscript TA ("ឧត្ដម", "ឧត្តម"), a subscript typed after its vowel moved before
    it ("សី្រ", "ស្រី"), subscript RO after the other subscripts. Unicode's confusables skeleton folds none of
    Khmer's reorderings and keeps subscript DA and TA apart, and the libraries built on it look for one
    script passed off as another, which is not how two players' names come to look alike.

    >>> same_name("Zoé") == same_name("ZOE\u0301"), same_name("Ann\u00a0 Lee") == same_name("ann lee")
    (True, True)
    >>> same_name("\ufb01n") == same_name("Fin"), same_name("\u0e84\u0eb3") == same_name("\u0e84\u0ecd\u0eb2")
    (True, True)
    >>> khmer = ("\u17a7\u178f\u17d2\u178f\u1798", "\u17a7\u178f\u17d2\u178a\u1798")  # subscript TA, DA
    >>> same_name(khmer[0]) == same_name(khmer[1])
    True
    >>> same_name("\u179f\u17b8\u17d2\u179a") == same_name("\u179f\u17d2\u179a\u17b8")  # subscript after its vowel
    True
    """
    spaced = "".join(" " if unicodedata.category(char) == "Zs" else char for char in INVISIBLE.sub("", name))
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", spaced).casefold())
    folded = KHMER_LATE_SUBSCRIPTS.sub(r"\2\1", folded.replace(KHMER_DA, KHMER_TA))
    return SPACES.sub(" ", KHMER_EARLY_RO.sub(r"\2\1", folded)).strip()


def player_named(value: str, players: Sequence[str]) -> str | None:
    """The player of the match value names: the one spelt so, else the one it is the same name as, else None.

    >>> player_named(" ZOE\u0301 ", ["Ann", "Zoé"]), player_named("Eve", ["Ann", "Zoé"])
    ('Zoé', None)
    """
    name = value.strip()
    if name in players:
        return name
    key = same_name(name)
    found = [player for player in players if same_name(player) == key]
    return found[0] if len(found) == 1 else None


def quoted(text: str, limit: int = NAME_MAX) -> str:
    r"""Text from an entry as a refusal quotes it back: at most limit characters, and never a letter without its
    marks (the cut moves back over the marks and joiners that go with the letter before it).

    >>> quoted("x" * 50) == "x" * 40, quoted("e\u0301" * 30) == "e\u0301" * 20, quoted("ab", 5)
    (True, True, 'ab')
    """
    end = min(len(text), limit)
    while 0 < end < len(text) and (unicodedata.category(text[end]).startswith("M") or text[end] in JOINERS
                                   or text[end - 1] == "\u200d" or unicodedata.combining(text[end - 1]) == VIRAMA):
        end -= 1
    return text[:end]


def as_int(value: Any, field_name: str, low: int, high: int) -> int:
    """Return value as an int in [low, high] or refuse (JSON true is not a number).

    >>> as_int(3, "tricks", 0, 13)
    3
    """
    if isinstance(value, bool) or not isinstance(value, int):
        raise refuse(field_name, N_("Enter a whole number."))
    if not low <= value <= high:
        raise refuse(field_name, N_("Enter a number from {low} to {high}."), low=low, high=high)
    return value


def at_limit(count: int, limit: int) -> InvalidHand | None:
    """The refusal of one more hand once a match holds limit hands, else None.

    >>> at_limit(199, 200) is None, str(at_limit(200, 200))
    (True, 'This match has reached the limit of 200 hands; no more can be recorded.')
    """
    if count < limit:
        return None
    return refuse("number", N_("This match has reached the limit of {limit} hands; no more can be recorded."),
                  limit=limit)


def as_bool(value: Any, field_name: str) -> bool:
    """Return value if it is a JSON boolean, else refuse."""
    if not isinstance(value, bool):
        raise refuse(field_name, N_("Answer yes or no (true or false)."))
    return value


def as_player(value: Any, field_name: str, players: list[str]) -> str:
    """The player of the match value names (player_named: however it is spelt), else refuse."""
    found = player_named(value, players) if isinstance(value, str) else None
    if found is None:
        raise refuse(field_name, N_("Choose one of the players."))
    return found


def as_mapping(value: Any, field_name: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise refuse(field_name, N_("Give one number per player."))
    return value


def per_player(entry: Mapping[str, Any], field_name: str, players: list[str], high: int) -> dict[str, int]:
    """Read {name: count} for every player, each count in 0..high."""
    raw = as_mapping(entry.get(field_name), field_name)
    found = {name: player_named(name, players) if isinstance(name, str) else None for name in raw}
    unknown = [name for name, player in found.items() if player is None]
    if unknown:
        raise refuse(field_name, N_("{name} is not a player in this match."), name=quoted(str(unknown[0])))
    named = {found[name]: value for name, value in raw.items()}
    if len(named) != len(raw):
        raise refuse(field_name, N_("Give one number per player, each player once."))
    missing = [name for name in players if name not in named]
    if missing:
        raise refuse(field_name, N_("Enter a number for {name}."), name=missing[0])
    return {name: as_int(named[name], field_name, 0, high) for name in players}


def optional_choice(entry: Mapping[str, Any], field_name: str, choices: Iterable[str]) -> str | None:
    """Read an optional note that must be one of choices."""
    value = entry.get(field_name)
    if value is None or value == "":
        return None
    choices = tuple(choices)
    if not isinstance(value, str) or value not in choices:
        raise refuse(field_name, N_("Choose one of: {choices}."), choices=", ".join(choices))
    return value


def optional_seat_name(raw: Mapping[str, Any], key: str, players: list[str], rng: random.Random | None) -> str:
    """Read an option naming a seat; draw one at random (rng) or take seat 0 when left out (null names nobody)."""
    if key not in raw:
        return rng.choice(players) if rng is not None else players[0]
    return as_player(raw[key], key, players)


def check_option_keys(raw: Any, known: Iterable[str]) -> Mapping[str, Any]:
    """Refuse options that are not an object or name an unknown option."""
    if raw is None:
        return {}
    if not isinstance(raw, Mapping):
        raise refuse("options", N_("Options must be an object."))
    known = set(known)
    for key in raw:
        if key not in known:
            raise refuse("options", N_("Unknown option: {name}."), name=quoted(str(key)))
    return raw


def winners_of(totals: Mapping[str, int], lowest: bool = False) -> list[str]:
    """Players with the best total (ties share the win), in seat order.

    >>> winners_of({"A": 3, "B": 5, "C": 5})
    ['B', 'C']
    """
    best = (min if lowest else max)(totals.values())
    return [name for name, total in totals.items() if total == best]


def in_seat_order(totals: Mapping[str, int], players: Sequence[str]) -> list[int]:
    """Each player's total, in seat order: the sides of a game where everyone plays for themselves.

    >>> in_seat_order({"B": 2, "A": 5}, ["A", "B"])
    [5, 2]
    """
    return [totals[p] for p in players]


def ranking(totals: Mapping[str, int], lowest: bool = False) -> list[tuple[int, str, int]]:
    """Place, name and total from first to last; equal totals share a place, in seat order.

    >>> ranking({"A": 5, "B": 9, "C": 5})
    [(1, 'B', 9), (2, 'A', 5), (2, 'C', 5)]
    """
    ranked: list[tuple[int, str, int]] = []
    for place, (name, total) in enumerate(sorted(totals.items(), key=lambda item: item[1], reverse=not lowest), 1):
        ranked.append((ranked[-1][0] if ranked and ranked[-1][2] == total else place, name, total))
    return ranked
