"""Running totals as an SVG line chart, drawn on the server (no chart script in the browser)."""

from __future__ import annotations

from collections.abc import Sequence
from xml.sax.saxutils import escape, quoteattr

from ...games.base import Replay, running_totals
from ...names import clip

# Distinguishable on light and dark backgrounds, for up to 11 players.
PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
           "#e377c2", "#17becf", "#bcbd22", "#7f7f7f", "#393b79")
WIDTH, HEIGHT = 640, 240
MARGIN = {"left": 44, "right": 12, "top": 12, "bottom": 28}
LEGEND_CHARS = 19  # letters a quarter of the legend's width holds at its font size
LEGEND_ROW, LEGEND_DESCENT = 18, 8  # a legend row's height; the room under the last row's baseline for subscripts


def fitted(label: str, chars: int = LEGEND_CHARS) -> str:
    """The label, cut with an ellipsis when longer than its place in the legend; never inside a letter.

    >>> fitted("Ann & Cid"), fitted("Dee " + "Q" * 36), fitted("Zoe\u0301" * 7) == "Zoe\u0301" * 6 + "…"
    ('Ann & Cid', 'Dee QQQQQQQQQQQQQQ…', True)
    """
    return clip(label, chars)


def nice_step(span: int) -> int:
    """A round grid step giving about four lines over span, in whole numbers (any size of int).

    >>> nice_step(130), nice_step(12), nice_step(0), nice_step(10 ** 310) == 5 * 10 ** 309
    (50, 5, 1, True)
    """
    span = max(span, 1)
    magnitude = 10 ** (len(str(span // 4)) - 1)
    for factor in (1, 2, 5, 10):
        if span <= 4 * factor * magnitude:
            return factor * magnitude
    return 10 * magnitude


def running_totals_svg(labels: Sequence[str], lines: Sequence[Sequence[int]], title: str) -> str:
    """An accessible SVG chart: one polyline per label, a zero line, a grid and a legend."""
    values = [v for line in lines for v in line] or [0]
    low, high = min(0, *values), max(0, *values)
    step = nice_step(high - low)
    low, high = (low // step) * step, -((-high) // step) * step or step
    hands = max(len(lines[0]) - 1 if lines else 0, 1)
    plot_w = WIDTH - MARGIN["left"] - MARGIN["right"]
    plot_h = HEIGHT - MARGIN["top"] - MARGIN["bottom"]
    legend_rows = -(-len(labels) // 4)
    height = HEIGHT + LEGEND_ROW * legend_rows + LEGEND_DESCENT

    def x(i: int) -> float:
        return MARGIN["left"] + plot_w * i / hands

    def y(v: int) -> float:
        return MARGIN["top"] + plot_h * (high - v) / (high - low)

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {WIDTH} {height}" '
        f'role="img" aria-label={quoteattr(title)}><title>{escape(title)}</title>'
    ]
    for v in range(low, high + 1, step):
        parts.append(f'<line x1="{MARGIN["left"]}" x2="{WIDTH - MARGIN["right"]}" y1="{y(v):.1f}" y2="{y(v):.1f}" '
                     f'stroke="currentColor" stroke-opacity="{0.6 if v == 0 else 0.15}"/>')
        parts.append(f'<text x="{MARGIN["left"] - 6}" y="{y(v) + 4:.1f}" text-anchor="end" font-size="11" '
                     f'fill="currentColor">{v}</text>')
    tick = max(1, nice_step(hands))
    for i in range(0, hands + 1, tick):
        parts.append(f'<text x="{x(i):.1f}" y="{HEIGHT - 8}" text-anchor="middle" font-size="11" '
                     f'fill="currentColor">{i}</text>')
    for n, (label, line) in enumerate(zip(labels, lines)):
        color = PALETTE[n % len(PALETTE)]
        points = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(line))
        parts.append(f'<polyline fill="none" stroke="{color}" stroke-width="2.5" points="{points}"/>')
        lx, ly = MARGIN["left"] + (n % 4) * (plot_w / 4), HEIGHT + 6 + LEGEND_ROW * (n // 4)
        parts.append(f'<rect x="{lx:.1f}" y="{ly:.1f}" width="12" height="12" fill="{color}"/>')
        parts.append(f'<text x="{lx + 16:.1f}" y="{ly + 11:.1f}" font-size="12" fill="currentColor">'
                     f'<title>{escape(label)}</title>{escape(fitted(label))}</text>')
    parts.append("</svg>")
    return "".join(parts)


def match_chart(replay: Replay, title: str) -> str:
    """The running-totals chart of a match: one line per side (a player, or a Kozyol team)."""
    labels = [" & ".join(side) for side in replay.sides]
    return running_totals_svg(labels, running_totals(replay), title)
