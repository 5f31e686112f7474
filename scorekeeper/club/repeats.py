"""How many pairs a round seats together again, and why when they must: what the evening's pages say of a round.

A pair meets again when its two players already sat at one table in an earlier round of the evening.
Up to seating.exact.EXACT seated players, the fewest pairs any seating of the same players at tables of
the same sizes would seat together again is found exactly, so a page can say that no seating had fewer
(the draw's own proposal always has the fewest), or how few another seating would have had. The search
is kept by what it was asked (``_fewest``) and runs off the gevent hub, as a draw does.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import NamedTuple

from ..kept import Kept
from ..models import Evening
from ..render_slots import off_the_hub
from .engine import seating
from .rounds import rounds_of

FEWEST_KEPT = 64  # rounds whose fewest pairs meeting again are kept: a few evenings' pages
Tables = tuple[tuple[int, ...], ...]
_fewest: Kept[tuple[Tables, tuple[Tables, ...]], int | None] = Kept(FEWEST_KEPT)


class Repeats(NamedTuple):
    """A round's pairs meeting again, and what explains them."""

    number: int  # the round
    pairs: list[seating.Pair]  # the pairs meeting again, by player id
    players: int  # the players seated
    met: int  # the pairs of them who had already met at a table tonight
    among: int  # their pairs in all
    fewest: int | None  # the fewest pairs any seating of them at these tables would seat again; None: not known

    @property
    def must(self) -> bool:
        """Whether no seating of these players at these tables seats fewer pairs again."""
        return self.fewest is not None and self.fewest >= len(self.pairs)


def of_round(drawn: seating.Round, tonight: Sequence[seating.Round], number: int) -> Repeats:
    """The round's pairs meeting again after tonight's rounds before it, and the fewest any seating allows."""
    seated = [player for table in drawn.tables for player in table.seats]
    before = seating.History().after(seating.Round(tuple(t for earlier in tonight for t in earlier.tables), ())).met
    met = sum(1 for a, b in combinations(seated, 2) if seating.pair(a, b) in before)
    pairs = seating.met_again(drawn, tonight)
    return Repeats(number, pairs, len(seated), met, len(seated) * (len(seated) - 1) // 2,
                   fewest(drawn, tonight) if pairs else 0)


def fewest(drawn: seating.Round, tonight: Sequence[seating.Round]) -> int | None:
    """seating.fewest_again, kept by the tables asked about and searched off the gevent hub."""
    key = (tuple(table.seats for table in drawn.tables), tuple(tuple(table.seats for table in earlier.tables)
                                                              for earlier in tonight))
    return _fewest.fetch(key, lambda: off_the_hub(lambda: seating.fewest_again(drawn, tonight)))


def of_evening(evening: Evening) -> list[Repeats]:
    """Each confirmed round of the evening after its first, with its pairs meeting again."""
    done = rounds_of(evening)
    played = [seating.Round(tuple(seating.Table(table.game, tuple(table.seat_ids)) for table, _match in tables),
                            tuple(made.sat_out)) for made, tables in done]
    numbers = [made.number for made, _tables in done]
    return [of_round(drawn, played[:at], numbers[at]) for at, drawn in enumerate(played) if at]
