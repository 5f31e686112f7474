"""What a table marked in one group of bubbles, from how dark each bubble is: the values, and whether to doubt them.

A mark is a bubble clearly darker than the group's unmarked ones and than an absolute floor: a filled bubble,
a cross and a tick all are (a tick covers the least, about a third of a bubble's inside). A lighter one is a
mark too when a line goes across the bubble's inside (a pencil's tick or cross): a dot, however dark, does not
reach that far. A bubble between the floor of a faint mark and that of a mark, and no line, is neither read
nor ignored: the group is in doubt.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from scorekeeper.paper.layout import Group, Key, Value

MARK = 0.24  # of solid ink, above the group's unmarked level: a mark (a tick reads about 0.35, a cross 0.45)
FAINT = 0.08  # above the unmarked level: too dark to be paper, too light to be a mark
PAPER = 0.045  # above the unmarked level: as blank as printed paper reads (its 99.9th percentile: 0.047)
LINE = 1.5  # mm of the 2.4 mm measured inside: a hand's line through the bubble (a pen's dot reaches 1.2)
LIGHT = 0.05  # above the unmarked level, with a line: a mark (a pencil's tick reads 0.05 to 0.15)
STRUCK = 0.25  # of ink in the gaps on both sides of a bubble: a scribble over it (a mark never reaches 0.05)
# A group that may stay blank (a double, the 10 of a count) has no second mark to check a light one against:
# anything darker than paper there is a doubt, so a missed tick is never read as "no double".
LEVEL_FROM = 5  # bubbles: a one-mark group this large has its own unmarked level (most of its bubbles are)


@dataclass(frozen=True)
class GroupMarks:
    values: tuple[Value, ...]  # the marked values, strongest first
    doubt: bool  # two marks where one is read, a faint mark, a dark group, or no mark where one is needed
    candidates: tuple[Value, ...]  # every value the group can mean, the most likely first
    faint: tuple[Value, ...] = field(default=(), compare=False, repr=False)  # lighter than a mark, darker than paper


def group_marks(group: Group, fills: list[float], spans: list[float] | None = None,
                beyond: list[float] | None = None) -> GroupMarks:
    """The marks of a group of bubbles from their fills (0 blank ... 1 solid ink, in the group's order), how
    far the longest stroke inside each reaches (mm; none given: no line is counted) and how much ink lies in the
    gaps on both sides of each (none given: nothing is struck out).

    >>> from scorekeeper.paper.layout import Bubble
    >>> digits = Group(0, ("units", 0), tuple(Bubble(0.0, 0.0, d, str(d)) for d in range(4)))
    >>> group_marks(digits, [0.02, 0.71, 0.03, 0.01])
    GroupMarks(values=(1,), doubt=False, candidates=(1, 2, 0, 3))
    >>> group_marks(digits, [0.02, 0.71, 0.5, 0.01]).doubt
    True
    >>> group_marks(digits, [0.0, 0.0, 0.09, 0.0], [0.0, 0.0, 2.3, 0.0]).values  # a pencil's tick
    (2,)
    >>> group_marks(digits, [0.0, 0.0, 0.12, 0.0], [0.0, 0.0, 1.1, 0.0]).doubt  # a dot alone
    True
    >>> group_marks(digits, [0.0, 0.7, 0.12, 0.0], [0.0, 2.5, 1.1, 0.0])  # a dot beside a mark
    GroupMarks(values=(1,), doubt=False, candidates=(1, 2, 0, 3))
    >>> group_marks(digits, [0.9, 0.7, 0.0, 0.0], [2.5, 2.5, 0, 0], [0.6, 0.0, 0.0, 0.0]).values  # 0 struck out
    (1,)
    """
    assert len(fills) == len(group.bubbles)
    reach = spans if spans is not None else [0.0] * len(fills)
    assert len(reach) == len(fills)
    # Its unmarked level: a low one of its own fills where most bubbles must be blank, else the page's (0).
    level = max(0.0, sorted(fills)[len(fills) // 3]) if len(fills) >= LEVEL_FROM and not group.many else 0.0
    above = [fill - level for fill in fills]
    order = sorted(range(len(fills)), key=lambda k: (-above[k], k))
    sides = beyond if beyond is not None else [0.0] * len(fills)
    struck = {k for k in range(len(fills)) if sides[k] >= STRUCK}
    marked = [k for k in order if k not in struck and (above[k] >= MARK or (above[k] >= LIGHT and reach[k] >= LINE))]
    # A light mark with no line through it is not read, even alone where one mark is needed: a stray dot looks
    # the same, and would be read as the value a table forgot to mark.
    floor = FAINT if group.default is None and not group.many else PAPER + 0.01
    faint = [k for k in order if (floor <= above[k] or k in struck) and k not in marked]
    values = tuple(group.bubbles[k].value for k in marked)
    # Beside the one mark a group needs, a touch with no line through it (a pen's dot, the tail of a stroke on
    # the bubble next to it) is not a second mark, nor is a mark scribbled out; alone, either stays a doubt.
    settled = not group.many and group.default is None and len(marked) == 1
    doubt = any(not (settled and (k in struck or (spans is not None and reach[k] < LINE))) for k in faint)
    doubt = doubt or level >= FAINT
    if not group.many:
        doubt = doubt or len(marked) > 1 or (not marked and group.default is None)
    ranked = [group.bubbles[k].value for k in marked + faint]
    if group.default is not None and not group.many:
        ranked.append(group.default)
    ranked += [group.bubbles[k].value for k in order if k not in marked and k not in faint]
    return GroupMarks(values, doubt, tuple(dict.fromkeys(ranked)), tuple(group.bubbles[k].value for k in faint))


class Measures(Protocol):
    """What the reader measured of each group's bubbles (reader.Reading)."""

    fills: dict[tuple[int, Key], list[float]]
    spans: dict[tuple[int, Key], list[float]]
    beyond: dict[tuple[int, Key], list[float]]


def of_reading(group: Group, reading: Measures) -> GroupMarks:
    """The marks of a group as a photo's reading measured its bubbles."""
    where = (group.row, group.key)
    return group_marks(group, reading.fills[where], reading.spans[where], reading.beyond[where])
