"""The numbers and small tables of each game's rules page, computed by the engine for a match's options.

A page for no match gets the options a match gets when it chooses nothing (``rulebook.defaults``)
and the names of docs/rules.md for its example. Scores are worked out by the engine's own
functions (``barbu.raw_scores``, ``barbu.settle``, ``hearts.deal``...), never added up here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ...games import GAMES, barbu, hearts, kozyol
from ...games.base import N_, Reason
from ..forms import RANK_LETTERS
from ..games.kozyol import RANK_NAMES
from .rulebook import signed

# -- Barbu --------------------------------------------------------------------------------------------

CONTRACT_SCORES = {
    "no_tricks": (N_("{each} for each trick taken"), {"each": barbu.PER_TRICK["no_tricks"]}),
    "no_queens": (N_("{each} for each queen taken"), {"each": barbu.PER_QUEEN}),
    "no_hearts": (N_("{each} for each heart taken; the ace of hearts costs {ace} instead"),
                  {"each": barbu.PER_HEART, "ace": barbu.ACE_OF_HEARTS}),
    "no_last_two": (N_("{second_last} for winning the second-last trick, {last} for the last one"),
                    {"second_last": barbu.SECOND_LAST_TRICK, "last": barbu.LAST_TRICK}),
    "barbu": (N_("{each} for taking the king of hearts"), {"each": barbu.KING_OF_HEARTS}),
    "trumps": (N_("{each} for each trick taken"), {"each": barbu.PER_TRICK["trumps"]}),
}
DOMINO_SCORES = N_("by the order of going out, first to last: {scores}")
# A hand of the worked example: Trumps, tricks by seat, and (doubler, doubled, redoubled) by seat.
EXAMPLE_TRICKS = (6, 3, 1, 3)
EXAMPLE_DOUBLES = ((1, 0, False), (2, 0, True), (3, 0, False))


def everything_to_one(players: list[str]) -> dict[str, Any]:
    """An entry of any contract in which the first player takes every card that counts."""
    one = players[0]
    entry: dict[str, Any] = {field: {p: total if p == one else 0 for p in players}
                             for field, total in barbu.COUNT_TOTALS.items()}
    entry.update(ace_of_hearts=one, second_last=one, last=one, king_of_hearts=one, order=list(players))
    return entry


def contracts(players: list[str], domino: list[int]) -> list[dict[str, Any]]:
    """Each contract's title, what one player scores and what the whole hand adds up to (the engine's sum)."""
    entry = everything_to_one(players)
    rows = []
    for contract in barbu.CONTRACTS:
        if contract == "dominoes":
            score = Reason(DOMINO_SCORES, {"scores": ", ".join(signed(value) for value in domino)})
        else:
            text, numbers = CONTRACT_SCORES[contract]
            score = Reason(text, {name: signed(value) for name, value in numbers.items()})
        total = sum(barbu.raw_scores(contract, entry, players, domino).values())  # type: ignore[arg-type]
        rows.append({"slug": contract, "title": Reason(barbu.CONTRACT_TITLES[contract]), "score": score,
                     "total": total})
    return rows


def doubled_hand(players: list[str], domino: list[int]) -> dict[str, Any]:
    """The worked example: a Trumps hand with doubles and a redouble, scored by the engine."""
    tricks = dict(zip(players, EXAMPLE_TRICKS))
    doubles = [barbu.Double(by=players[by], target=players[target], redoubled=re)
               for by, target, re in EXAMPLE_DOUBLES]
    raw = barbu.raw_scores("trumps", barbu.BarbuEntry(contract="trumps", tricks=tricks, doubles=doubles),
                           players, domino)
    scores = barbu.settle(raw, doubles)
    return {"tricks": tricks, "raw": raw, "scores": scores, "doubles": doubles, "declarer": players[0],
            "raw_total": sum(raw.values()), "total": sum(scores.values())}


def schedule(players: list[str], first: str) -> list[dict[str, Any]]:
    """Who declares, deals and cuts in each block of a match."""
    rows = []
    for block in range(barbu.SEATS):
        number = block * barbu.HANDS_PER_DECLARER + 1
        seats = barbu.schedule(number, players.index(first))
        rows.append({"first": number, "last": number + barbu.HANDS_PER_DECLARER - 1,
                     **{role: players[seat] for role, seat in seats.items()}})
    return rows


def barbu_page(players: list[str], options: Mapping[str, Any], named: bool) -> dict[str, Any]:
    rows = contracts(players, options["domino_scores"])
    return {
        "seats": barbu.SEATS, "cards": barbu.CARDS_PER_HAND * barbu.SEATS, "hands": barbu.HANDS,
        "block": barbu.HANDS_PER_DECLARER, "contracts": rows, "owed": barbu.DOUBLES_OWED,
        "redoubled": barbu.REDOUBLED, "tricks": barbu.CARDS_PER_HAND, "queens": barbu.QUEENS,
        "negative": sum(row["total"] for row in rows if row["slug"] not in barbu.POSITIVE),
        "positive": sum(row["total"] for row in rows if row["slug"] in barbu.POSITIVE),
        "example": doubled_hand(players, options["domino_scores"]),
        "schedule": schedule(players, options["first_declarer"]) if named else [],
    }


# -- Kozyol -------------------------------------------------------------------------------------------

RANK_ORDER = ("6", "7", "8", "9", "J", "Q", "K", "10", "A")  # low to high in a suit
NOTHING_WORTH = N_("Nines, eights, sevens and sixes")


def defeats(six_for_zero_points: bool) -> list[tuple[Reason, int]]:
    """What the losing team has, and the defeat points it takes (before any doubling after eggs)."""
    light, heavy = kozyol.LIGHT_DEFEAT_FROM, kozyol.LIGHT_DEFEAT_FROM - 1
    rows = [(Reason(N_("{low} to {high} card points"), {"low": light, "high": kozyol.EGGS - 1}), kozyol.DEFEAT["light"])]
    if six_for_zero_points:
        rows += [(Reason(N_("{high} card points or fewer, but not 0"), {"high": heavy}), kozyol.DEFEAT["heavy"]),
                 (Reason(N_("0 card points, or no trick at all")), kozyol.DEFEAT["no_trick"])]
    else:
        rows += [(Reason(N_("{high} card points or fewer, and at least one trick"), {"high": heavy}),
                  kozyol.DEFEAT["heavy"]),
                 (Reason(N_("no trick at all")), kozyol.DEFEAT["no_trick"])]
    return rows


def kozyol_page(players: list[str], options: Mapping[str, Any], named: bool) -> dict[str, Any]:
    letters = {rank: str(RANK_LETTERS.get(rank, rank)) for rank in RANK_ORDER}
    return {
        "seats": kozyol.SEATS, "teams": kozyol.TEAMS, "total": kozyol.TOTAL_POINTS, "eggs": kozyol.EGGS,
        "wins": kozyol.EGGS + 1, "suit": sum(kozyol.CARD_VALUES.values()), "per_rank": kozyol.CARDS_PER_RANK,
        "tricks": kozyol.TRICKS_PER_DEAL, "multiplier": kozyol.EGGS_MULTIPLIER,
        "card_values": [(str(RANK_NAMES[rank]), value) for rank, value in kozyol.CARD_VALUES.items()],
        "nothing_worth": Reason(NOTHING_WORTH), "order": " ".join(letters[rank] for rank in RANK_ORDER),
        "defeats": defeats(options["six_for_zero_points"]),
        "team_seats": [[seat + 1 for seat in range(team, kozyol.SEATS, kozyol.TEAMS)] for team in range(kozyol.TEAMS)],
        "teams_named": [players[team::kozyol.TEAMS] for team in range(kozyol.TEAMS)] if named else [],
    }


# -- Cancellation Hearts ------------------------------------------------------------------------------


def hearts_page(players: list[str], options: Mapping[str, Any], named: bool) -> dict[str, Any]:
    seats = range(hearts.MIN_PLAYERS, hearts.MAX_PLAYERS + 1)
    return {
        "low": hearts.MIN_PLAYERS, "high": hearts.MAX_PLAYERS, "decks": hearts.DECKS, "cards": hearts.CARDS,
        "deals": [{"players": n, **hearts.deal(n)} for n in seats], "passed": hearts.CARDS_PASSED,
        "hearts": hearts.HEARTS, "black_marias": hearts.BLACK_MARIAS, "heart": hearts.HEART,
        "black_maria": hearts.BLACK_MARIA, "moon": list(hearts.MOON_POINTS),
        "here": len(players) if named else None,
    }


PAGES: dict[str, Callable[[list[str], Mapping[str, Any], bool], dict[str, Any]]] = {
    "barbu": barbu_page, "kozyol": kozyol_page, "hearts": hearts_page,
}
assert set(PAGES) == set(GAMES), "every game of the engine has its rules tables, and only those"
