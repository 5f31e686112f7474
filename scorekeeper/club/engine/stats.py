"""One player's statistics per game, and two players head to head, from the digests of finished matches.

Only a card game app can give these: Barbu averages per contract as declarer and as defender and the
doubles, Kozyol deals won, eggs and goats with each partner, Hearts hearts, Black Marias and moons.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from typing import Any

from ...games import GAMES
from ...games.barbu import CONTRACTS
from .digest import Played
from .standings import deals_won, of_game, team_of


def average(total: float, count: int) -> float | None:
    """Total over count, or None when there is nothing to average.

    >>> average(-30, 4), average(0, 0)
    (-7.5, None)
    """
    return total / count if count else None


def seats_of(made: dict[str, Any], player: int) -> list[int]:
    """The seats a player held in one match (one, unless two merged entries sat at the same table)."""
    seats = made["seats"]
    return [seat for seat, who in enumerate(seats) if who == player] if player in seats else []


def barbu_stats(played: list[Played], player: int) -> dict[str, Any]:
    """Per contract as declarer and as defender, doubles made and their net result, redoubles."""
    sums = {c: {"declared": 0, "declarer_total": 0, "defended": 0, "defender_total": 0} for c in CONTRACTS}
    out = {"matches": 0, "total": 0, "doubles_made": 0, "doubles_net": 0, "doubled": 0, "redoubles": 0}
    for made in of_game("barbu", played):
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
    contracts = {
        c: {"as_declarer": average(s["declarer_total"], s["declared"]),
            "as_defender": average(s["defender_total"], s["defended"]),
            "overall": average(s["declarer_total"] + s["defender_total"], s["declared"] + s["defended"]),
            "declared": s["declared"], "defended": s["defended"]}
        for c, s in sums.items()
    }
    ranked = sorted((c for c in CONTRACTS if contracts[c]["declared"]),
                    key=lambda c: (contracts[c]["as_declarer"], contracts[c]["overall"]))
    return {**out, "average": average(out["total"], out["matches"]), "contracts": contracts,
            "best_contract": ranked[-1] if ranked else None, "worst_contract": ranked[0] if ranked else None}


def kozyol_stats(played: list[Played], player: int) -> dict[str, Any]:
    """Deals won, eggs, goats (with eggs) and the best partner: most deals won together, then fewest goats."""
    out = {"matches": 0, "deals": 0, "deals_won": 0, "eggs": 0, "goats": 0, "goats_with_eggs": 0}
    partners: dict[int, dict[str, int]] = defaultdict(lambda: {"matches": 0, "deals_won": 0, "goats": 0})
    for made in of_game("kozyol", played):
        for seat in seats_of(made, player):
            team = team_of(made, seat)
            goat = int(made["goat"] == team)
            won = deals_won(made, team)
            for name, value in (("matches", 1), ("deals", len(made["deals"])), ("deals_won", won),
                                ("eggs", made["deals"].count(None)), ("goats", goat),
                                ("goats_with_eggs", goat * int(made["goat_with_eggs"]))):
                out[name] += value
            partner = made["seats"][next(s for s in made["teams"][team] if s != seat)]
            for name, value in (("matches", 1), ("deals_won", won), ("goats", goat)):
                partners[partner][name] += value
    best = min(partners, key=lambda p: (-partners[p]["deals_won"], partners[p]["goats"], p), default=None)
    return {**out, "best_partner": best, "partners": {p: dict(line) for p, line in sorted(partners.items())}}


def hearts_stats(played: list[Played], player: int) -> dict[str, Any]:
    """Average per hand, hearts, Black Marias and moons taken, wins and average finishing place."""
    out = {"matches": 0, "hands": 0, "total": 0, "hearts": 0, "black_marias": 0, "moons": 0, "wins": 0, "places": 0}
    for made in of_game("hearts", played):
        for seat in seats_of(made, player):
            for name, value in (("matches", 1), ("hands", made["hands"]), ("total", made["totals"][seat]),
                                ("hearts", made["hearts"][seat]), ("black_marias", made["black_marias"][seat]),
                                ("moons", made["moons"][seat]), ("wins", int(seat in made["winners"])),
                                ("places", made["places"][seat])):
                out[name] += value
    places = out.pop("places")
    return {**out, "average_per_hand": average(out["total"], out["hands"]),
            "average_place": average(places, out["matches"])}


STATS: dict[str, Callable[[list[Played], int], dict[str, Any]]] = {
    "barbu": barbu_stats, "kozyol": kozyol_stats, "hearts": hearts_stats,
}
assert set(STATS) == set(GAMES), "every game of the engine has its player statistics, and only those"


def player_stats(game: str, played: list[Played], player: int) -> dict[str, Any]:
    """One player's statistics in one game over the played matches."""
    return STATS[game](played, player)


def head_to_head(played: list[Played], a: int, b: int) -> dict[str, dict[str, int]]:
    """Per game: matches where both sat, who finished ahead (better place) and level; Kozyol partners apart."""
    out = {game: {"matches": 0, "a_ahead": 0, "b_ahead": 0, "level": 0} for game in GAMES}
    out["kozyol"]["partners"] = 0
    for p in played:
        made = p.digest
        seats = made["seats"]
        if a == b or a not in seats or b not in seats:
            continue
        line = out[made["game"]]
        seat_a, seat_b = seats.index(a), seats.index(b)
        if made["game"] == "kozyol" and team_of(made, seat_a) == team_of(made, seat_b):
            line["partners"] += 1
            continue
        place_a, place_b = made["places"][seat_a], made["places"][seat_b]
        line["matches"] += 1
        line["a_ahead" if place_a < place_b else "b_ahead" if place_b < place_a else "level"] += 1
    return out
