"""Barbu at the club: every contract and double in the digest, a table by average score, per contract statistics."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, TypedDict, cast

from ...games.barbu import CONTRACTS, BarbuHand
from ...games.base import Replay
from .base import (
    Add,
    Digest,
    Figures,
    GameFigures,
    PerSeat,
    Played,
    Ranking,
    Seating,
    average,
    by_place,
    of_game,
    per_seat,
    seats_of,
)


class BarbuDigest(Digest):
    """contracts: (contract, declarer seat, score per seat) per hand; doubles: (by, target, redoubled, moved)."""

    contracts: Sequence[tuple[str, int, Sequence[int]]]
    doubles: Sequence[tuple[int, int, bool, int]]


class BarbuExtras(PerSeat):
    contracts: list[list[object]]
    doubles: list[list[object]]


class ContractStats(TypedDict):
    """One contract of a player's: averages as declarer, as defender and overall, and how often each."""

    as_declarer: float | None
    as_defender: float | None
    overall: float | None
    declared: int
    defended: int


class BarbuStats(TypedDict):
    matches: int
    total: int
    doubles_made: int
    doubles_net: int
    doubled: int
    redoubles: int
    average: float | None
    contracts: dict[str, ContractStats]
    best_contract: str | None  # by the average as declarer (then overall)
    worst_contract: str | None
    best_as_defender: str | None  # by the average as defender (then overall)
    worst_as_defender: str | None


def extras(replay: Replay[BarbuHand], seat: Seating) -> BarbuExtras:
    """Each hand's contract, declarer and scores, and every double, with seats for names."""
    contracts: list[list[object]] = []
    doubles: list[list[object]] = []
    for hand in replay.hands:
        contracts.append([hand["contract"], seat[hand["declarer"]], [hand["scores"][p] for p in replay.players]])
        for transfer in hand["settlement"]:
            doubles.append([seat[transfer["by"]], seat[transfer["target"]], transfer["weight"] > 1, transfer["moved"]])
    return {**per_seat(replay), "contracts": contracts, "doubles": doubles}


def add_match(made: Digest, add: Add) -> None:
    """Each player's final score and whether they won."""
    winners = made["winners"]
    for seat, (player, total) in enumerate(zip(made["seats"], made["totals"])):
        add(player, (total, seat in winners))


def figures(sums: list[int], matches: int) -> Figures:
    total, wins = sums
    return {"average": total / matches, "total": total, "wins": wins}


RANKING = Ranking(2, add_match, figures, lambda f: (-f["average"], -f["total"]))


def stats(played: list[Played], player: int) -> BarbuStats:
    """Per contract as declarer and as defender, doubles made and their net result, redoubles."""
    sums = {c: {"declared": 0, "declarer_total": 0, "defended": 0, "defender_total": 0} for c in CONTRACTS}
    out = {"matches": 0, "total": 0, "doubles_made": 0, "doubles_net": 0, "doubled": 0, "redoubles": 0}
    for made in cast(list[BarbuDigest], of_game("barbu", played)):
        for seat in seats_of(made, player):
            out["matches"] += 1
            out["total"] += made["totals"][seat]
            for contract, declarer, scores in made["contracts"]:
                role = "declare" if declarer == seat else "defende"
                sums[contract][role + "d"] += 1
                sums[contract][role + "r_total"] += scores[seat]
            for by, target, redoubled, moved in made["doubles"]:
                out["doubles_made"] += by == seat
                out["doubles_net"] += moved if by == seat else 0
                out["doubled"] += target == seat
                out["redoubles"] += target == seat and redoubled
    contracts: dict[str, ContractStats] = {
        c: {"as_declarer": average(s["declarer_total"], s["declared"]),
            "as_defender": average(s["defender_total"], s["defended"]),
            "overall": average(s["declarer_total"] + s["defender_total"], s["declared"] + s["defended"]),
            "declared": s["declared"], "defended": s["defended"]}
        for c, s in sums.items()
    }
    declared, defended = ranked_by(contracts, "as_declarer"), ranked_by(contracts, "as_defender")
    return {"matches": out["matches"], "total": out["total"], "doubles_made": out["doubles_made"],
            "doubles_net": out["doubles_net"], "doubled": out["doubled"], "redoubles": out["redoubles"],
            "average": average(out["total"], out["matches"]), "contracts": contracts,
            "best_contract": declared[-1] if declared else None, "worst_contract": declared[0] if declared else None,
            "best_as_defender": defended[-1] if defended else None,
            "worst_as_defender": defended[0] if defended else None}


def ranked_by(contracts: dict[str, ContractStats], role: Literal["as_declarer", "as_defender"]) -> list[str]:
    """The contracts the player held this role in, worst first, by their average in it and then overall.

    A contract's average as declarer and as defender rank apart: a declarer chooses the contract,
    a defender suffers it, so one list of both would call a contract good that only the others chose.

    >>> line = lambda mine, theirs: {"as_declarer": mine, "as_defender": theirs, "overall": (mine or 0) + theirs}
    >>> ranked_by({"barbu": line(None, -20), "trumps": line(65, -15), "dominoes": line(45, 5)}, "as_defender")
    ['barbu', 'trumps', 'dominoes']
    """
    held = [c for c in contracts if contracts[c][role] is not None]
    return sorted(held, key=lambda c: (contracts[c][role], contracts[c]["overall"]))


FIGURES = GameFigures(extras, RANKING, stats, by_place)
