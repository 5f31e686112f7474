"""A row's reading as the API entry it says, per game: what the fitting checks with the game's engine.

Each game's reader turns a reading (per group key the value taken, None for a needed mark missing) into an
entry in the API's form, or raises Unfit with the sentence that says why no hand reads so (a count without
its units, places that are not 1 to 4, hearts that do not make the deck's). ``paper_form`` is what a sheet
can say of an entry, to tell a row already recorded from one recorded with other figures.
"""

from __future__ import annotations

import copy
import itertools
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..games import GAMES, InvalidHand
from ..games.barbu import COUNTED
from ..games.base import N_
from ..games.hearts import BLACK_MARIAS, HEARTS
from ..games.kozyol import TOTAL_POINTS
from ..refusals import Reason
from .layout import LOST, Key

CARD_WORDS = {"ace": N_("who took the ace of hearts"), "king": N_("who took the king of hearts"),
              "12": N_("who took trick 12"), "13": N_("who took trick 13")}
CARDS_OF = {"no_hearts": ("ace",), "no_last_two": ("12", "13"), "barbu": ("king",)}
CARD_FIELDS = {"ace": "ace_of_hearts", "12": "second_last", "13": "last", "king": "king_of_hearts"}

Reading = dict[Key, Any]  # a group's (or a card's) reading per key; None: a needed mark is missing


class Unfit(Exception):
    """A reading that makes no hand at all (a count without its units, places that are not 1 to 4...)."""

    def __init__(self, reason: Reason) -> None:
        super().__init__(str(reason))
        self.reason = reason


def _count(read: Reading, seat: int, name: str) -> int:
    units = read[("units", seat)]
    if units is None:
        raise Unfit(Reason(N_("The count of {name} has no mark from 0 to 9."), {"name": name}))
    return int(read[("tens", seat)] or 0) + int(units)


def _doubles(read: Reading, players: Sequence[str]) -> list[dict[str, Any]]:
    doubles = []
    for i, j in itertools.combinations(range(len(players)), 2):
        by, redoubled = read[("doubled", i, j)], read[("redoubled", i, j)] == "R"
        if by in (i, j):
            doubles.append({"by": players[by], "target": players[j if by == i else i], "redoubled": redoubled})
        elif redoubled:
            raise Unfit(Reason(N_("{a} and {b}: a redouble needs a double first."), {"a": players[i], "b": players[j]}))
    return doubles


def barbu_entry(read: Reading, players: Sequence[str]) -> dict[str, Any]:
    """The Barbu entry a reading says: the contract, its counts or cards, the doubles."""
    contract = read[("contract",)]
    if contract is None:
        raise Unfit(Reason(N_("The contract has no mark.")))
    entry: dict[str, Any] = {"contract": contract, "doubles": _doubles(read, players)}
    if contract in COUNTED:
        entry[COUNTED[contract]] = {name: _count(read, seat, name) for seat, name in enumerate(players)}
    for card in CARDS_OF.get(contract, ()):
        seat = read[("owner", card)]
        if seat is None:
            raise Unfit(Reason(N_("Mark {what}."), {"what": Reason(CARD_WORDS[card])}))
        entry[CARD_FIELDS[card]] = players[seat]
    if contract == "dominoes":
        places = [_count(read, seat, name) for seat, name in enumerate(players)]
        if sorted(places) != list(range(1, len(players) + 1)):
            raise Unfit(Reason(N_("The domino places must be 1, 2, 3 and 4, each once.")))
        entry["order"] = [players[places.index(place)] for place in range(1, len(players) + 1)]
    return entry


def barbu_relevant(key: Key, contract: Any) -> bool:
    """Whether a group matters to the contract: counts to the counted ones and Dominoes, each card to its own."""
    if key[0] in ("tens", "units"):
        return contract in COUNTED or contract == "dominoes"
    if key[0] == "owner":
        return key[1] in CARDS_OF.get(contract, ())
    return True


def kozyol_entry(read: Reading, players: Sequence[str]) -> dict[str, Any]:
    """The Kozyol entry a reading says: card points, and tricks for a team without card points."""
    points = []
    for team in range(2):
        tens, units = read[("tens", team)], read[("units", team)]
        if tens is None or units is None:
            p1, p2 = players[team::2]
            raise Unfit(Reason(N_("The card points of {p1} and {p2} lack a mark."), {"p1": p1, "p2": p2}))
        points.append(int(read[("hundreds", team)] or 0) + 10 * int(tens) + int(units))
    # The sheet says only whether a team took no trick; a team without card points that took some took one at least.
    tricks = [0 if read[("no_trick", team)] == "none" else (1 if points[team] == 0 else None) for team in range(2)]
    entry: dict[str, Any] = {"points": points}
    if any(count is not None for count in tricks):
        entry["tricks"] = tricks
    return entry


def hearts_entry(read: Reading, players: Sequence[str]) -> dict[str, Any]:
    """The Hearts entry a reading says, once its hearts and Black Marias (with those lost) make the deck's."""
    counts = {name: _count(read, seat, name) for seat, name in enumerate(players)}
    lost = int(read[("tens", LOST)] or 0) + int(read[("units", LOST)] or 0)  # no mark: nothing lost
    marias = {name: int(read[("marias", seat)] or 0) for seat, name in enumerate(players)}
    lost_marias = int(read[("marias", LOST)] or 0)
    if lost > len(players):
        raise Unfit(Reason(N_("At most {count} hearts are lost in a cancelled last trick, not {lost}."),
                           {"count": len(players), "lost": lost}))
    if sum(counts.values()) + lost != HEARTS:
        raise Unfit(Reason(N_("The hearts taken and lost add up to {got}; they must add up to {total}."),
                           {"got": sum(counts.values()) + lost, "total": HEARTS}))
    if sum(marias.values()) + lost_marias != BLACK_MARIAS:
        raise Unfit(Reason(N_("The Black Marias taken and lost add up to {got}; they must add up to {total}."),
                           {"got": sum(marias.values()) + lost_marias, "total": BLACK_MARIAS}))
    entry: dict[str, Any] = {"hearts": counts, "black_marias": marias}
    if read[("moon",)]:
        entry["moon"] = read[("moon",)]
    return entry


ENTRIES: dict[str, Callable[[Reading, Sequence[str]], dict[str, Any]]] = {
    "barbu": barbu_entry, "kozyol": kozyol_entry, "hearts": hearts_entry}
assert set(ENTRIES) == set(GAMES), "every game reads its rows from paper"


def kozyol_heaviest(players: Sequence[str]) -> list[dict[str, Any]]:  # noqa: ARG001
    """Each team's worst deal: no card point and no trick."""
    return [{"points": [0, TOTAL_POINTS], "tricks": [0, None]}, {"points": [TOTAL_POINTS, 0], "tricks": [None, 0]}]


def hearts_heaviest(players: Sequence[str]) -> list[dict[str, Any]]:
    """Per player the most it can take in a hand: all but one heart and every Black Maria, or another's moon added."""
    out: list[dict[str, Any]] = []
    for seat, name in enumerate(players):
        other = players[(seat + 1) % len(players)]
        hearts = {p: HEARTS - 1 if p == name else int(p == other) for p in players}
        marias = {p: BLACK_MARIAS if p == name else 0 for p in players}
        out.append({"hearts": hearts, "black_marias": marias})
        out.append({"hearts": {p: HEARTS if p == name else 0 for p in players}, "black_marias": marias, "moon": "add"})
    return out


# The hands that bring the match's end nearest, for the games where a hand's legality depends on the hands before
# it only through the match's end (it is over, or at its limit); None: it depends on them otherwise (Barbu's
# contracts once per declarer, its doubles owed), so a row after a hand not known cannot be checked at all.
HEAVIEST: dict[str, Callable[[Sequence[str]], list[dict[str, Any]]] | None] = {
    "barbu": None, "kozyol": kozyol_heaviest, "hearts": hearts_heaviest}
assert set(HEAVIEST) == set(GAMES), "every game says whether its rows can be checked past a hand not known"


def could_end(game: str, played: Sequence[Mapping[str, Any]], players: list[str], options: Mapping[str, Any],
              missing: Sequence[int]) -> bool:
    """Whether the hands missing (by number) could have ended the match before its next hand: each of the game's
    heaviest hands put in their places, the hands after them played again."""
    heaviest = HEAVIEST[game]
    for probe in heaviest(players) if heaviest is not None else []:
        entries = list(played)
        for number in missing:
            entries.insert(number - 1, probe)
        trial = GAMES[game].new_replay(players, options)
        try:
            for entry in entries:
                trial.play(copy.deepcopy(dict(entry)))
        except InvalidHand:
            return True
        if trial.next() is None:
            return True
    return heaviest is None


def what_of(game: str, key: Key, players: Sequence[str]) -> Reason:
    """How a reason names a group: "the count of Ann", "the doubles between Ann and Bob"..."""
    kind, seats = key[0], [int(seat) for seat in key[1:]]
    if kind == "contract":
        return Reason(N_("the contract"))
    if kind == "moon":
        return Reason(N_("the moon"))
    if kind in ("doubled", "redoubled"):
        return Reason(N_("the doubles between {a} and {b}"), {"a": players[seats[0]], "b": players[seats[1]]})
    if game == "kozyol":
        team = players[seats[0]::2]
        text = N_("whether {p1} and {p2} took a trick") if kind == "no_trick" else N_("the card points of {p1} and {p2}")
        return Reason(text, {"p1": team[0], "p2": team[1]})
    if kind == "marias":
        if seats[0] == LOST:
            return Reason(N_("the Black Marias lost"))
        return Reason(N_("the Black Marias of {name}"), {"name": players[seats[0]]})
    if seats[0] == LOST:
        return Reason(N_("the hearts lost"))
    return Reason(N_("the count of {name}"), {"name": players[seats[0]]})


def relevant(game: str, key: Key, read: Reading) -> bool:
    return barbu_relevant(key, read[("contract",)]) if game == "barbu" else True


def paper_form(game: str, entry: Mapping[str, Any]) -> Any:
    """What a sheet can say of a validated entry: two hands with the same paper form are the same on paper."""
    if game == "kozyol":
        tricks = entry.get("tricks") or [None, None]
        return entry["points"], [tricks[team] == 0 for team in range(2) if entry["points"][team] == 0]
    if game == "barbu":
        doubles = sorted((d["by"], d["target"], bool(d.get("redoubled"))) for d in entry.get("doubles") or [])
        fields = ("contract", "tricks", "queens", "hearts", "ace_of_hearts", "second_last", "last", "king_of_hearts",
                  "order")
        return {name: entry[name] for name in fields if name in entry}, doubles
    return entry["hearts"], entry["black_marias"], entry.get("moon")
