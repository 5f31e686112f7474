"""A phone's photo of a readable sheet, taken in and read: the page straightened, identified, its marks found."""

from __future__ import annotations

import io
import struct
import zlib

import cv2
import numpy
import pytest
import segno
from PIL import Image

from helpers.paper import drawn_page, photographed
from scorekeeper.paper import codes, layout, photos, reader
from scorekeeper.paper.layout import Identity, Key, Page, Value
from scorekeeper.paper.marks import FAINT, LINE, MARK, GroupMarks, group_marks, of_reading
from scorekeeper.paper.photos import PhotoRefused, intake
from scorekeeper.paper.reader import Unreadable, read, row_crop

MATCH = "Zq3x_Yb8Ru0aLk2Pd7WcNg"
HARSH = {"tilt": 14.0, "turn": -12.0, "light": 0.45, "shadow": 0.4, "noise": 6.0, "quality": 55, "blur": 1.4}


def pages() -> dict[str, Page]:
    return {"barbu": layout.page_for("barbu", 4), "kozyol": layout.page_for("kozyol", 4),
            "hearts": layout.page_for("hearts", 5, 26)}


def table_marks(page: Page, seed: int) -> dict[tuple[int, Key, Value], str]:
    """A table's pen: about half the groups marked, one bubble each (two in Barbu's cards), in every style."""
    random = numpy.random.default_rng(seed)
    styles = ["solid", "cross", "tick", "solid", "cross", "tick", "light", "dot", "stray"]
    marks: dict[tuple[int, Key, Value], str] = {}
    for group in page.groups:
        if random.random() < 0.5:
            picked = random.choice(len(group.bubbles), 2 if group.many and len(group.bubbles) > 1 else 1, replace=False)
            for k in picked:
                marks[(group.row, group.key, group.bubbles[k].value)] = str(random.choice(styles))
    return marks


def expected(page: Page, marks: dict[tuple[int, Key, Value], str]) -> dict[tuple[int, Key], tuple[set[Value], bool]]:
    """Per group: the values a reader must find, and whether the group must be in doubt."""
    found = {}
    for group in page.groups:
        styles = {b.value: marks.get((group.row, group.key, b.value)) for b in group.bubbles}
        values = {value for value, style in styles.items() if style in ("solid", "cross", "tick", "light")}
        doubt = "dot" in styles.values() or (not group.many and (len(values) > 1 or (
            not values and group.default is None)))
        found[(group.row, group.key)] = (values, doubt)
    return found


def of(page: Page) -> reader.Callable[[Identity], Page]:
    def layout_for(identity: Identity) -> Page:
        assert identity == Identity(MATCH, 3, layout.TEMPLATE_VERSION)
        return page
    return layout_for


@pytest.mark.parametrize(("game", "seed"), [("barbu", 1), ("kozyol", 2), ("hearts", 3)])
def test_a_harsh_photo_reads_exactly_the_marked_bubbles(game: str, seed: int) -> None:
    page = pages()[game]
    marks = table_marks(page, seed)
    assert {"solid", "cross", "tick", "light", "dot", "stray"} <= set(marks.values())
    photo = photographed(drawn_page(page, layout.qr_payload(MATCH, 3), marks), seed=seed, **HARSH)  # type: ignore[arg-type]
    reading = read(intake(photo), of(page))
    assert reading.identity == Identity(MATCH, 3, layout.TEMPLATE_VERSION) and reading.page is page
    assert reading.image.shape == (round(layout.HEIGHT * reader.PX_PER_MM), round(layout.WIDTH * reader.PX_PER_MM))
    assert set(reading.fills) == {(group.row, group.key) for group in page.groups}
    wrong = {}
    for (row, key), (values, doubt) in expected(page, marks).items():
        read_marks = of_reading(page.group(row, key), reading)
        if set(read_marks.values) != values or read_marks.doubt != doubt:
            wrong[(row, key)] = (reading.fills[(row, key)], read_marks, values, doubt)
    assert not wrong


def test_fills_tell_a_solid_a_cross_a_tick_a_light_mark_a_dot_and_paper_apart() -> None:
    page = pages()["kozyol"]
    styles = {1: "solid", 3: "cross", 5: "tick", 7: "light", 8: "dot", 9: "stray"}
    marks: dict[tuple[int, Key, Value], str] = {(0, ("tens", 0), digit): style for digit, style in styles.items()}
    reading = read(photographed(drawn_page(page, layout.qr_payload(MATCH, 3), marks), seed=9), of(page))
    fills, spans = reading.fills[(0, ("tens", 0))], reading.spans[(0, ("tens", 0))]
    solid, cross, tick, light, dot = fills[1], fills[3], fills[5], fills[7], fills[8]
    blank = (0, 2, 4, 6, 9)  # 9 has a dot of the pen beside it
    assert solid > 0.6 and solid > cross > tick >= MARK + 0.05
    # Light, and a hand went across it; a dot is as light or darker than a pencil, and goes nowhere.
    assert FAINT <= light and spans[7] >= LINE + 0.3
    assert FAINT <= dot < MARK and spans[8] <= LINE - 0.3
    assert min(spans[k] for k in (1, 3, 5)) >= LINE + 0.3
    assert max(fills[k] for k in blank) <= FAINT - 0.04 and max(spans[k] for k in blank) <= 0.6


def first(*values: int) -> tuple[int, ...]:
    """Candidates: these digits, then the others in order (all as dark)."""
    return (*values, *(d for d in range(10) if d not in values))


def digits(default: Value | None = None, many: bool = False) -> layout.Group:
    return layout.Group(0, ("units", 0), tuple(layout.Bubble(0.0, 0.0, d, str(d)) for d in range(10)), default, many)


@pytest.mark.parametrize(("group", "fills", "marks"), [
    (digits(), [0.0, 0.01, 0.02, 0.8, 0.0, 0.01, 0.0, 0.03, 0.0, 0.0], GroupMarks((3,), False, first(3, 7, 2, 1, 5))),
    # a cross and a fill in a one-mark group: a doubt with both first, never a guess
    (digits(), [0.0, 0.45, 0.0, 0.8, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], GroupMarks((3, 1), True, first(3, 1))),
    # a faint mark: a doubt, the faint value first
    (digits(), [0.0, 0.0, 0.0, 0.0, 0.15, 0.0, 0.0, 0.0, 0.0, 0.0], GroupMarks((), True, first(4))),
    # nothing where a mark is needed: a doubt, the darkest first
    (digits(), [0.0, 0.0, 0.03, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], GroupMarks((), True, first(2))),
    # nothing in a group with a default: the default
    (layout.Group(0, ("tens", 0), (layout.Bubble(0.0, 0.0, 10, "10"),), default=0), [0.02], GroupMarks((), False, (0, 10))),
    (layout.Group(0, ("tens", 0), (layout.Bubble(0.0, 0.0, 10, "10"),), default=0), [0.4], GroupMarks((10,), False, (10, 0))),
    (layout.Group(0, ("tens", 0), (layout.Bubble(0.0, 0.0, 10, "10"),), default=0), [0.12], GroupMarks((), True, (10, 0))),
    # a group where every mark counts: two marks, strongest first; a faint one more is a doubt
    (digits(many=True), [0.0, 0.3, 0.0, 0.8, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], GroupMarks((3, 1), False, first(3, 1))),
    (digits(many=True), [0.0, 0.3, 0.0, 0.8, 0.0, 0.0, 0.1, 0.0, 0.0, 0.0], GroupMarks((3, 1), True, first(3, 1, 6))),
    (digits(many=True), [0.0] * 10, GroupMarks((), False, tuple(range(10)))),
    # a group grey all over (a smudge of the hand, a shadow missed): relative to it, but in doubt
    (digits(), [0.15, 0.15, 0.6, 0.15, 0.15, 0.15, 0.15, 0.15, 0.15, 0.15], GroupMarks((2,), True, first(2))),
])
def test_group_marks(group: layout.Group, fills: list[float], marks: GroupMarks) -> None:
    assert group_marks(group, fills) == marks


def test_a_mark_scribbled_out_is_not_read_beside_the_mark_that_replaces_it() -> None:
    page = pages()["kozyol"]
    marks: dict[tuple[int, Key, Value], str] = {
        (0, ("units", 0), 3): "struck", (0, ("units", 0), 7): "tick",  # corrected: 3 struck out, 7 ticked
        (0, ("units", 1), 4): "struck",  # struck out, nothing else: the table has not said
        (1, ("units", 0), 2): "solid", (1, ("units", 0), 3): "cross"}  # two marks, neither struck out: a doubt
    reading = read(photographed(drawn_page(page, layout.qr_payload(MATCH, 3), marks), seed=5), of(page))
    corrected = of_reading(page.group(0, ("units", 0)), reading)
    assert (corrected.values, corrected.doubt) == ((7,), False)
    alone = of_reading(page.group(0, ("units", 1)), reading)
    assert alone.values == () and alone.doubt and alone.candidates[0] == 4
    two = of_reading(page.group(1, ("units", 0)), reading)
    assert set(two.values) == {2, 3} and two.doubt


@pytest.mark.parametrize(("group", "fills", "spans", "values", "doubt"), [
    # a pencil's tick or cross: light, but a line through the bubble
    (digits(), [0.0, 0.0, 0.09, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 2.3, *[0.0] * 7], (2,), False),
    # a dot of the pen as dark: no line, so alone it is a doubt, never the value
    (digits(), [0.0, 0.0, 0.14, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 1.1, *[0.0] * 7], (), True),
    # the same dot beside the one mark the group needs: not a second mark
    (digits(), [0.0, 0.0, 0.14, 0.0, 0.0, 0.7, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 1.1, 0, 0, 2.5, 0, 0, 0, 0], (5,), False),
    # a stroke grazing the edge (no part of it in the middle) beside the mark: not a mark either
    (digits(), [0.0, 0.0, 0.1, 0.0, 0.0, 0.7, 0.0, 0.0, 0.0, 0.0], [0.0] * 5 + [2.5] + [0.0] * 4, (5,), False),
    # two lines in a one-mark group: a doubt, both first
    (digits(), [0.0, 0.0, 0.1, 0.0, 0.0, 0.7, 0.0, 0.0, 0.0, 0.0], [0, 0, 2.0, 0, 0, 2.5, 0, 0, 0, 0], (5, 2), True),
    # where every mark counts, or a group may stay blank, a touch is still a doubt
    (digits(many=True), [0.0, 0.0, 0.14, 0.0, 0.0, 0.7, 0.0, 0.0, 0.0, 0.0], [0, 0, 1.1, 0, 0, 2.5, 0, 0, 0, 0], (5,),
     True),
    (layout.Group(0, ("tens", 0), (layout.Bubble(0.0, 0.0, 10, "10"),), default=0), [0.12], [1.1], (), True),
    (layout.Group(0, ("tens", 0), (layout.Bubble(0.0, 0.0, 10, "10"),), default=0), [0.12], [2.2], (10,), False),
])
def test_a_line_through_a_bubble_is_a_mark_and_a_touch_is_not(group: layout.Group, fills: list[float],
                                                              spans: list[float], values: tuple[Value, ...],
                                                              doubt: bool) -> None:
    read = group_marks(group, fills, spans)
    assert (read.values, read.doubt) == (values, doubt)


@pytest.mark.parametrize("corner", [0, 1, 2, 3])
def test_a_corner_out_of_the_photo_asks_for_all_four(corner: int) -> None:
    page = pages()["barbu"]
    photo = photographed(drawn_page(page, layout.qr_payload(MATCH, 3)), turn=3.0, cut=corner)
    with pytest.raises(Unreadable) as refused:
        read(photo, of(page))
    assert refused.value.sentence == "Move so all four corners of the sheet are in view."


def test_a_photo_of_no_sheet_asks_for_the_corners() -> None:
    noise = numpy.random.default_rng(4).integers(0, 255, (900, 1200), dtype=numpy.uint8)
    with pytest.raises(Unreadable) as refused:
        read(cv2.imencode(".jpg", noise)[1].tobytes(), of(pages()["kozyol"]))
    assert refused.value.sentence == reader.NO_CORNERS


@pytest.mark.parametrize(("payload", "sentence"), [
    ("", reader.NO_CODE),  # no code printed at all
    ("https://example.org/a-menu", reader.NOT_OURS),
    ("SK1 Zq3x_Yb8Ru0aLk2Pd7WcNg page 1", reader.NOT_OURS),
    (layout.qr_payload(MATCH, 3, version=layout.TEMPLATE_VERSION - 1), reader.OLD_LAYOUT),
    (layout.qr_payload(MATCH, 3, version=layout.TEMPLATE_VERSION + 1), reader.OLD_LAYOUT),
])
def test_a_sheet_whose_code_is_not_this_layouts_is_refused(payload: str, sentence: str) -> None:
    page = pages()["kozyol"]
    picture = drawn_page(page, payload or "x")
    if not payload:
        x, y, side = page.qr
        picture[round(y * 8):round((y + side) * 8), round(x * 8):round((x + side) * 8)] = 255
    with pytest.raises(Unreadable) as refused:
        read(photographed(picture, seed=5), of(page))
    assert refused.value.sentence == sentence
    assert sentence.startswith("This sheet was printed from an older layout") == (sentence == reader.OLD_LAYOUT)


def test_the_callers_refusal_of_another_match_comes_through() -> None:
    class OtherMatch(Exception):
        pass

    def layout_for(identity: Identity) -> Page:
        raise OtherMatch(identity.match)

    with pytest.raises(OtherMatch, match=MATCH):
        read(photographed(drawn_page(pages()["hearts"], layout.qr_payload(MATCH, 3))), layout_for)


def test_a_rows_crop_is_its_band_of_the_straightened_page() -> None:
    page = pages()["barbu"]
    marks: dict[tuple[int, Key, Value], str] = {(2, ("contract",), "trumps"): "solid"}
    reading = read(photographed(drawn_page(page, layout.qr_payload(MATCH, 3), marks)), of(page))
    crops = [numpy.asarray(cv2.imdecode(numpy.frombuffer(row_crop(reading, row), numpy.uint8), cv2.IMREAD_GRAYSCALE))
             for row in range(len(page.rows))]
    band = page.rows[2]
    assert crops[2].shape[0] == pytest.approx((band.height + 3.0) * reader.PX_PER_MM, abs=2)
    assert crops[2].shape[1] > 250 * reader.PX_PER_MM
    bubble = next(b for b in page.group(2, ("contract",)).bubbles if b.value == "trumps")
    x = round((bubble.x - layout.LEFT + 3.0) * reader.PX_PER_MM)
    y = round((bubble.y - band.top + 1.5) * reader.PX_PER_MM)
    inside = [float(crop[y - 3:y + 4, x - 3:x + 4].mean()) for crop in crops]  # the mark is row 2's, at its place
    assert inside[2] < 100 and min(inside[:2] + inside[3:]) > 150


def jpeg_with_metadata(size: tuple[int, int], orientation: int) -> bytes:
    """A landscape photo, its left half black, that says it must be turned, with a GPS position and a comment."""
    picture = Image.new("RGB", size, (250, 250, 250))
    picture.paste((0, 0, 0), (0, 0, size[0] // 2, size[1]))
    exif = Image.Exif()
    exif[0x0112] = orientation
    exif[0x010F] = "PhoneMaker"
    exif[0x8825] = {1: "N", 2: (48.0, 51.0, 24.0), 3: "E", 4: (2.0, 21.0, 3.0)}
    out = io.BytesIO()
    picture.save(out, "JPEG", exif=exif, comment=b"taken at the club", icc_profile=b"\0" * 128)
    return out.getvalue()


def test_intake_turns_the_photo_upright_and_strips_its_metadata() -> None:
    original = jpeg_with_metadata((600, 400), orientation=6)
    assert Image.open(io.BytesIO(original)).getexif().get_ifd(0x8825)  # the GPS position is there
    kept = intake(original)
    picture = Image.open(io.BytesIO(kept))
    assert picture.format == "JPEG" and picture.size == (400, 600)  # 6: turned a quarter clockwise
    grey = numpy.asarray(picture.convert("L"))
    assert grey[:250].mean() < 30 and grey[350:].mean() > 220  # the left half is now on top
    assert not picture.getexif() and not {"exif", "icc_profile", "comment", "xmp"} & set(picture.info)
    assert b"PhoneMaker" not in kept and b"club" not in kept and b"Exif" not in kept


def test_intake_keeps_an_upright_photo_as_it_is_and_bounds_its_long_side() -> None:
    kept = Image.open(io.BytesIO(intake(jpeg_with_metadata((600, 400), orientation=1))))
    assert kept.size == (600, 400)
    wide = io.BytesIO()
    Image.new("RGB", (5000, 1000), (200, 10, 10)).save(wide, "PNG")
    assert Image.open(io.BytesIO(intake(wide.getvalue()))).size == (photos.LONG_SIDE, 800)


def test_intake_flattens_a_transparent_picture_on_white() -> None:
    clear = io.BytesIO()
    Image.new("RGBA", (40, 30), (0, 0, 0, 0)).save(clear, "WEBP", lossless=True)
    assert numpy.asarray(Image.open(io.BytesIO(intake(clear.getvalue()))).convert("L")).min() > 240


def png_header(width: int, height: int) -> bytes:
    """A PNG that claims its size and holds almost nothing: only a decoder that believes the header allocates."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"\0" * 64)) + chunk(b"IEND", b""))


def other_format(kind: str) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (20, 20)).save(out, kind)
    return out.getvalue()


def cut_short(kind: str) -> bytes:
    """A picture whose last two thirds never arrived."""
    noise = numpy.random.default_rng(6).integers(0, 255, (300, 400, 3), dtype=numpy.uint8)
    whole = io.BytesIO()
    Image.fromarray(noise).save(whole, kind)
    return whole.getvalue()[:len(whole.getvalue()) // 3]


@pytest.mark.parametrize(("data", "sentence"), [
    (b"\xff\xd8" + b"\0" * (photos.MAX_UPLOAD - 1), photos.TOO_LARGE),
    (png_header(7000, 6000), photos.TOO_LARGE),  # 42 MP: over the bound, under Pillow's own
    (png_header(12000, 9000), photos.TOO_LARGE),  # a decompression bomb by Pillow's measure too
    (b"not a photo at all", photos.NOT_A_PHOTO),
    (other_format("GIF"), photos.NOT_A_PHOTO),
    (other_format("BMP"), photos.NOT_A_PHOTO),
    (cut_short("JPEG"), photos.BROKEN),
    (cut_short("PNG"), photos.BROKEN),
])
def test_intake_refuses_with_a_sentence(data: bytes, sentence: str) -> None:
    with pytest.raises(PhotoRefused) as refused:
        intake(data)
    assert refused.value.sentence == sentence
    assert sentence.endswith(".") and len(sentence.split(". ")) == 1


def test_the_pixel_bound_is_pillows_bound_too() -> None:
    assert Image.MAX_IMAGE_PIXELS is not None and Image.MAX_IMAGE_PIXELS <= photos.MAX_PIXELS


def test_a_sheet_photographed_upside_down_and_sideways_reads_the_same() -> None:
    page = pages()["hearts"]
    marks: dict[tuple[int, Key, Value], str] = {(4, ("units", 2), 7): "cross", (4, ("moon",), "add"): "solid"}
    picture = drawn_page(page, layout.qr_payload(MATCH, 3), marks)
    for turn, size in ((180.0, (2400, 1800)), (90.0, (1800, 2400))):
        reading = read(photographed(picture, size=size, turn=turn, seed=8), of(page))
        assert group_marks(page.group(4, ("units", 2)), reading.fills[(4, ("units", 2))]).values == (7,)
        assert group_marks(page.group(4, ("moon",)), reading.fills[(4, ("moon",))]).values == ("add",)


def code_picture(payload: str, px_per_mm: float, margin: float) -> tuple[numpy.ndarray, tuple[float, float, float]]:
    """The page's QR code as printed (its quiet zone of layout.QR_BORDER modules inside layout.QR mm), with a
    margin of paper round it, and where its square is in px."""
    matrix = numpy.array(segno.make(payload, error="m", micro=False, boost_error=False).matrix, numpy.uint8)
    modules = numpy.pad(matrix, layout.QR_BORDER)
    side = round(layout.QR * px_per_mm)
    code = cv2.resize(numpy.where(modules > 0, 0, 255).astype(numpy.uint8), (side, side),
                      interpolation=cv2.INTER_NEAREST)
    edge = round(margin * px_per_mm)
    return numpy.pad(code, edge, constant_values=255), (float(edge), float(edge), float(side))


@pytest.mark.parametrize("seed", range(12))
def test_a_code_under_a_shadows_edge_and_blur_is_read_where_the_layout_printed_it(seed: int) -> None:
    payload = layout.qr_payload("a" * 32, 3)
    picture, square = code_picture(payload, reader.QR_PX_PER_MM, 2.0)
    rng = numpy.random.default_rng(seed)
    # A shadow's hard edge across the code, the paper under it as dark as the ink beside it, then blur and noise.
    height, width = picture.shape
    ys, xs = numpy.mgrid[0:height, 0:width]
    angle = rng.uniform(0, numpy.pi)
    shade = (numpy.cos(angle) * (xs - width / 2) + numpy.sin(angle) * (ys - height / 2)) > rng.uniform(-20, 20)
    seen = picture.astype(numpy.float32) * numpy.where(shade, 0.3, 1.0)
    seen = cv2.GaussianBlur(seen, (0, 0), 2.2) + rng.normal(0, 6, seen.shape)
    blurred = numpy.clip(seen, 0, 255).astype(numpy.uint8)
    assert codes.decoded(blurred, square) == payload


def crisp(matrix: object) -> numpy.ndarray:
    modules = numpy.pad(numpy.array(matrix, numpy.uint8), 4)
    return cv2.resize(numpy.where(modules > 0, 0, 255).astype(numpy.uint8), None, fx=8, fy=8,
                      interpolation=cv2.INTER_NEAREST)


def test_a_code_the_decoder_cannot_read_with_one_mask_is_printed_with_another() -> None:
    payload = "SK1 a7ce91051f3f63131f6286beed9720d6 4 1"  # a match's id, page 4: seen on a sheet no photo read
    chosen = segno.make(payload, error="m", micro=False, boost_error=False)
    assert codes.decoded(crisp(chosen.matrix)) == ""  # however crisp, as segno chose it
    printed = codes.printed_matrix(payload)
    assert codes.decoded(crisp(printed)) == payload
    assert codes.decoded(cv2.GaussianBlur(crisp(printed), (0, 0), 3.0)) == payload


def test_the_code_printed_for_any_match_and_page_reads() -> None:
    random = numpy.random.default_rng(12)
    alphabet = numpy.array(list("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-"))
    for _ in range(100):
        match = "".join(random.choice(alphabet, 22))
        payload = layout.qr_payload(match, int(random.integers(1, 40)))
        assert codes.decoded(crisp(codes.printed_matrix(payload))) == payload, payload
