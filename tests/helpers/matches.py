"""The players of most matches, and entries that bring a match where a test wants it."""

from __future__ import annotations

from typing import Any

from scorekeeper.games import barbu

PLAYERS = ["Ann", "Bob", "Cid", "Dee"]
# A new Barbu match and its first hand, as the JSON API takes them.
NEW = {"game": "barbu", "players": PLAYERS}
FIRST_HAND = {"contract": "barbu", "king_of_hearts": "Bob"}


def barbu_entry(number: int, players: list[str]) -> dict[str, Any]:
    """A legal entry for hand number (1-28, first declarer seat 0): each declarer doubled twice by everyone."""
    block, index = divmod(number - 1, barbu.HANDS_PER_DECLARER)
    contract = barbu.CONTRACTS[index]
    seats = players[block:] + players[:block]
    declarer, others = seats[0], seats[1:]
    cards: dict[str, Any] = {
        "no_tricks": {"tricks": dict(zip(seats, [3, 4, 5, 1]))},
        "no_queens": {"queens": dict(zip(seats, [1, 0, 1, 2]))},
        "no_hearts": {"hearts": dict(zip(seats, [4, 5, 2, 2])), "ace_of_hearts": seats[1]},
        "no_last_two": {"second_last": seats[2], "last": seats[3]},
        "barbu": {"king_of_hearts": seats[1]},
        "trumps": {"tricks": dict(zip(seats, [6, 3, 1, 3])), "trump_suit": "spades"},
        "dominoes": {"order": [seats[1], seats[0], seats[3], seats[2]]},
    }[contract]
    if index < 2:
        doubles = [{"by": p, "target": declarer, "redoubled": p == others[index]} for p in others]
    elif contract in barbu.POSITIVE:
        doubles = []
    else:
        doubles = [{"by": others[0], "target": others[1], "redoubled": index == 2}]
    return {"contract": contract, "doubles": doubles, **cards}


def hearts_entry(number: int, players: list[str], heavy: int = 0) -> dict[str, Any]:
    """Hearts spread round the table (heavy of them to seat 0), Black Marias to two players."""
    hearts = {p: 0 for p in players}
    marias = {p: 0 for p in players}
    hearts[players[0]] += heavy
    for i in range(26 - heavy):
        hearts[players[(i * 3 + number) % len(players)]] += 1
    if not heavy:
        marias[players[number % len(players)]] += 1
        marias[players[(number + 5) % len(players)]] += 1
    return {"hearts": hearts, "black_marias": marias}


def hearts_reaching(totals: list[int]) -> list[list[int]]:
    """Hearts-only Cancellation Hearts hands (never a moon) that bring a fresh game to totals.

    As few hands as can be, the hearts shared evenly between them, so that each takes between
    26 - N and 26 hearts, as the rules allow (a cancelled last trick loses at most N cards).
    """
    left, total = list(totals), sum(totals)
    count = -(-total // 26)
    sizes = [total // count + (i < total % count) for i in range(count)] if count else []
    assert all(26 - len(totals) <= size <= 26 for size in sizes), "these totals need Black Marias too"
    hands = []
    for size in sizes:
        hearts = []
        for seat, need in enumerate(left):
            hearts.append(min(need, size))
            size -= hearts[-1]
            left[seat] -= hearts[-1]
        hands.append(hearts)
    return hands
