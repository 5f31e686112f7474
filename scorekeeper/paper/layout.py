"""Where everything is on a readable sheet: the page, its four corner markers, its QR code, and every bubble.

A readable sheet is a score sheet a table plays on with a pen and a phone reads back. The printer and the
reader share this module: the sheet's template draws each bubble where its ``Bubble`` says, and the reader
looks for the marks at the same places once it has straightened the photo onto the page. Every length is in
millimetres from the top left corner of an A4 page in landscape.

A change of any position here is a new ``TEMPLATE_VERSION``: the QR code of each printed page says which
version printed it, and the reader refuses a page whose version is not this one rather than misread it.

What a group of bubbles means (its ``key``), per game:

- Barbu, per row (hand): ``("contract",)`` one of the seven contract slugs; per seat s ``("tens", s)`` the
  bubble 10 (no mark: 0), ``("units", s)`` 0 to 9, ``("cards", s)`` any of "ace", "king", "12", "13" (the ace
  and king of hearts, tricks 12 and 13); per pair of seats i < j ``("doubled", i, j)`` the seat that doubled
  the other (i or j; no mark: nobody) and ``("redoubled", i, j)`` "R" (no mark: not redoubled). The count of
  seat s (tricks, queens, hearts, or the domino place) is tens + units.
- Kozyol, per row (deal): per team t ``("hundreds", t)`` 100 (no mark: 0), ``("tens", t)`` 0 to 9,
  ``("units", t)`` 0 to 9, ``("no_trick", t)`` "none" (the team took no trick; no mark: it took one).
- Cancellation Hearts, per row (hand): per seat s, and for the cards lost in a cancelled last trick under the
  seat ``LOST``: ``("tens", s)`` 10 or 20 (no mark: 0), ``("units", s)`` 0 to 9, ``("marias", s)`` 1 or 2
  Black Marias (no mark: 0); ``("moon",)`` "subtract" or "add" (no mark: nobody shot the moon).

A group with a ``default`` reads "no mark" as that value; a group without one needs exactly one mark. A group
with ``many`` takes any number of marks (Barbu's cards). Written boxes (``Box``) are for the table's own
figures (Barbu's Score column, Kozyol's defeat points, Hearts' running totals): printed, never read.
"""

from __future__ import annotations

from dataclasses import dataclass, field

TEMPLATE_VERSION = 1
WIDTH, HEIGHT = 297.0, 210.0  # A4 landscape
MARKER = 12.0  # the side of a corner marker, its black border included
MARKER_MARGIN = 6.0  # from the page's edge to a marker
MARKER_DICTIONARY = "DICT_4X4_50"  # OpenCV's ArUco dictionary: 4x4 bits, 50 markers, the most robust small set
MARKER_IDS = (0, 1, 2, 3)  # top left, top right, bottom right, bottom left
QR = 22.0  # the QR code's side, its quiet zone included
QR_BORDER = 2  # modules of quiet zone inside the QR square; the paper around it is blank too
PITCH = 4.2  # from one bubble's centre to the next
BUBBLE = 3.2  # a bubble's diameter
TOP = 38.0  # the first row's top edge
BOTTOM = HEIGHT - MARKER_MARGIN - MARKER - 2.0  # the last row ends above the bottom markers
LEFT = 10.0
LOST = -1  # Cancellation Hearts: the "seat" of the hearts lost in a cancelled last trick

BARBU_CONTRACTS = ("no_tricks", "no_queens", "no_hearts", "no_last_two", "barbu", "trumps", "dominoes")
BARBU_CARDS = ("ace", "king", "12", "13")
BARBU_ROWS = 7  # a declarer's block of seven hands: one page per declarer
KOZYOL_ROWS = 9
HEARTS_ROWS = 7

Key = tuple[str | int, ...]
Value = int | str


@dataclass(frozen=True)
class Bubble:
    x: float  # the centre
    y: float
    value: Value
    label: str  # printed inside the bubble


@dataclass(frozen=True)
class Group:
    row: int  # 0-based row on the page
    key: Key
    bubbles: tuple[Bubble, ...]
    default: Value | None = None  # what no mark means; None: a mark is needed
    many: bool = False  # any number of marks (each a value)


@dataclass(frozen=True)
class Box:
    row: int
    key: Key
    x: float  # top left corner
    y: float
    width: float
    height: float


@dataclass(frozen=True)
class Marker:
    id: int
    x: float  # top left corner
    y: float
    size: float = MARKER


MARKERS: tuple[Marker, ...] = (
    Marker(MARKER_IDS[0], MARKER_MARGIN, MARKER_MARGIN),
    Marker(MARKER_IDS[1], WIDTH - MARKER_MARGIN - MARKER, MARKER_MARGIN),
    Marker(MARKER_IDS[2], WIDTH - MARKER_MARGIN - MARKER, HEIGHT - MARKER_MARGIN - MARKER),
    Marker(MARKER_IDS[3], MARKER_MARGIN, HEIGHT - MARKER_MARGIN - MARKER),
)


@dataclass(frozen=True)
class Row:
    """A row's band on the page: where its number is printed."""

    index: int
    top: float
    height: float


@dataclass(frozen=True)
class Page:
    game: str
    seats: int  # players at the table
    rows: tuple[Row, ...]
    groups: tuple[Group, ...]
    boxes: tuple[Box, ...]
    columns: tuple[tuple[float, float, Key], ...]  # (left, width, what) of each column head, for the template
    markers: tuple[Marker, ...] = field(default_factory=lambda: MARKERS)
    qr: tuple[float, float, float] = (WIDTH - MARKER_MARGIN - MARKER - 3.0 - QR, MARKER_MARGIN, QR)
    width: float = WIDTH
    height: float = HEIGHT
    version: int = TEMPLATE_VERSION

    def row_groups(self, row: int) -> list[Group]:
        return [group for group in self.groups if group.row == row]

    def group(self, row: int, key: Key) -> Group:
        for group in self.groups:
            if group.row == row and group.key == key:
                return group
        raise KeyError((row, key))


def _line(row: int, key: Key, x: float, y: float, values: list[tuple[Value, str]],
          default: Value | None = None, many: bool = False) -> Group:
    """A group of bubbles side by side from (x, y), the first bubble's centre."""
    bubbles = tuple(Bubble(round(x + i * PITCH, 2), round(y, 2), value, label) for i, (value, label) in enumerate(values))
    return Group(row, key, bubbles, default, many)


def _units(row: int, key: Key, x: float, y: float) -> Group:
    """0 to 9 in two lines of five under each other, from (x, y)."""
    bubbles = tuple(Bubble(round(x + (digit % 5) * PITCH, 2), round(y + (digit // 5) * PITCH, 2), digit, str(digit))
                    for digit in range(10))
    return Group(row, key, bubbles)


def _rows(count: int, height: float) -> tuple[Row, ...]:
    return tuple(Row(index, round(TOP + index * height, 2), height) for index in range(count))


def barbu_page() -> Page:
    """Seven hands of one declarer. A row: the contract, then per seat its count, cards and Score, then the doubles."""
    height = 3 * PITCH + 3.6
    rows = _rows(BARBU_ROWS, height)
    groups: list[Group] = []
    boxes: list[Box] = []
    number = 8.0  # the hand's number
    contract_x = LEFT + number
    seat_x = contract_x + 4 * PITCH + 3.0
    seat_width = 5 * PITCH + 2.0
    score_width = 15.0
    doubles_x = seat_x + 4 * (seat_width + score_width + 2.0) + 1.0
    columns: list[tuple[float, float, Key]] = [(LEFT, number, ("number",)), (contract_x, 4 * PITCH, ("contract",))]
    for seat in range(4):
        left = seat_x + seat * (seat_width + score_width + 2.0)
        columns += [(left, seat_width, ("seat", seat)), (left + seat_width, score_width, ("score", seat))]
    pairs = [(i, j) for i in range(4) for j in range(i + 1, 4)]
    columns += [(doubles_x + k * (PITCH + 1.0), PITCH, ("pair", i, j)) for k, (i, j) in enumerate(pairs)]
    for row in rows:
        y = row.top + 1.8 + PITCH / 2
        contracts = [(slug, roman) for slug, roman in zip(BARBU_CONTRACTS, ("I", "II", "III", "IV", "V", "VI", "VII"),
                                                          strict=True)]
        x = contract_x + PITCH / 2
        groups.append(Group(row.index, ("contract",), tuple(
            Bubble(round(x + (k % 4) * PITCH, 2), round(y + (k // 4) * PITCH, 2), slug, roman)
            for k, (slug, roman) in enumerate(contracts))))
        for seat in range(4):
            left = seat_x + seat * (seat_width + score_width + 2.0) + PITCH / 2
            groups.append(_line(row.index, ("tens", seat), left, y, [(10, "10")], default=0))
            groups.append(_line(row.index, ("cards", seat), left + PITCH, y,
                                [(card, card) for card in BARBU_CARDS], many=True))
            groups.append(_units(row.index, ("units", seat), left, y + PITCH))
            boxes.append(Box(row.index, ("score", seat), round(left - PITCH / 2 + seat_width, 2), round(row.top + 1.0, 2),
                             score_width, round(height - 2.0, 2)))
        for k, (i, j) in enumerate(pairs):
            x = doubles_x + k * (PITCH + 1.0) + PITCH / 2
            groups.append(Group(row.index, ("doubled", i, j), (Bubble(x, round(y, 2), i, "ABCD"[i]),
                                                                Bubble(x, round(y + PITCH, 2), j, "ABCD"[j])),
                                default=""))  # no mark: neither doubled the other
            groups.append(Group(row.index, ("redoubled", i, j), (Bubble(x, round(y + 2 * PITCH, 2), "R", "R"),),
                                default=""))
    return Page("barbu", 4, rows, tuple(groups), tuple(boxes), tuple(columns))


def kozyol_page() -> Page:
    """Nine deals. A row: per team its card points (100, tens, units), whether it took no trick, its defeat points."""
    height = 3 * PITCH + 3.6
    rows = _rows(KOZYOL_ROWS, height)
    groups: list[Group] = []
    boxes: list[Box] = []
    number = 8.0
    team_width = 10 * PITCH + 2.0
    defeat_width = 18.0
    columns: list[tuple[float, float, Key]] = [(LEFT, number, ("number",))]
    for team in range(2):
        left = LEFT + number + 2.0 + team * (team_width + defeat_width + 8.0)
        columns += [(left, team_width, ("team", team)), (left + team_width, defeat_width, ("defeat", team))]
    for row in rows:
        y = row.top + 1.8 + PITCH / 2
        for team in range(2):
            left = LEFT + number + 2.0 + team * (team_width + defeat_width + 8.0) + PITCH / 2
            groups.append(_line(row.index, ("hundreds", team), left, y, [(100, "100")], default=0))
            groups.append(_line(row.index, ("no_trick", team), left + 2 * PITCH, y, [("none", "0")], default=""))
            groups.append(_line(row.index, ("tens", team), left, y + PITCH, [(d, str(d)) for d in range(10)]))
            groups.append(_line(row.index, ("units", team), left, y + 2 * PITCH, [(d, str(d)) for d in range(10)]))
            boxes.append(Box(row.index, ("defeat", team), round(left - PITCH / 2 + team_width, 2), round(row.top + 1.0, 2),
                             defeat_width, round(height - 2.0, 2)))
    return Page("kozyol", 4, rows, tuple(groups), tuple(boxes), tuple(columns))


def hearts_page(seats: int, moon_points: int) -> Page:
    """Seven hands. A row: per seat (and for the lost cards) its hearts and Black Marias and a box for its total."""
    height = 3 * PITCH + 6.0 + 3.0
    rows = _rows(HEARTS_ROWS, height)
    groups: list[Group] = []
    boxes: list[Box] = []
    number = 8.0
    cell = 5 * PITCH + 1.0
    moon_x = LEFT + number + (seats + 1) * cell + 2.0
    columns: list[tuple[float, float, Key]] = [(LEFT, number, ("number",))]
    columns += [(LEFT + number + k * cell, cell, ("seat", seat)) for k, seat in enumerate([*range(seats), LOST])]
    columns.append((moon_x, PITCH, ("moon",)))
    for row in rows:
        y = row.top + 1.5 + PITCH / 2
        for k, seat in enumerate([*range(seats), LOST]):
            left = LEFT + number + k * cell + PITCH / 2
            groups.append(_line(row.index, ("tens", seat), left, y, [(10, "10"), (20, "20")], default=0))
            groups.append(_line(row.index, ("marias", seat), left + 3 * PITCH, y, [(1, "1"), (2, "2")], default=0))
            units = _units(row.index, ("units", seat), left, y + PITCH)
            # A player's count needs its mark (0 too); the lost box is left empty when nothing was lost.
            groups.append(units if seat != LOST else Group(units.row, units.key, units.bubbles, default=0))
            if seat != LOST:
                boxes.append(Box(row.index, ("total", seat), round(left - PITCH / 2, 2), round(y + 2.5 * PITCH, 2),
                                 round(5 * PITCH, 2), 5.0))
        x = moon_x + PITCH / 2
        groups.append(Group(row.index, ("moon",), (Bubble(x, round(y, 2), "subtract", f"-{moon_points}"),
                                                   Bubble(x, round(y + PITCH, 2), "add", f"+{moon_points}")),
                            default=""))
    return Page("hearts", seats, rows, tuple(groups), tuple(boxes), tuple(columns))


def page_for(game: str, seats: int, moon_points: int = 26) -> Page:
    if game == "barbu":
        return barbu_page()
    if game == "kozyol":
        return kozyol_page()
    if game == "hearts":
        return hearts_page(seats, moon_points)
    raise ValueError(game)


def rows_per_page(game: str) -> int:
    return {"barbu": BARBU_ROWS, "kozyol": KOZYOL_ROWS, "hearts": HEARTS_ROWS}[game]


# What the QR code of a page holds: "SK1 <match> <page> <version>" (page from 1). "SK1" names the payload's own
# format; the match is its public id, which is in every watch link already.
QR_PREFIX = "SK1"


def qr_payload(match: str, page: int, version: int = TEMPLATE_VERSION) -> str:
    return f"{QR_PREFIX} {match} {page} {version}"


@dataclass(frozen=True)
class Identity:
    match: str
    page: int
    version: int


def parse_payload(text: str) -> Identity | None:
    parts = text.split()
    if len(parts) != 4 or parts[0] != QR_PREFIX or not parts[2].isdigit() or not parts[3].isdigit():
        return None
    return Identity(parts[1], int(parts[2]), int(parts[3]))
