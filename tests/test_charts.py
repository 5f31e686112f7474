"""The running-totals chart: drawn from the same hands the sheet shows, escaped, one line per player or team."""

from __future__ import annotations

import doctest
import re

import scorekeeper.web.sheets.charts as charts
from helpers.api import bearer, create_match
from scorekeeper.games import kozyol


def points(svg: str) -> list[list[tuple[float, float]]]:
    return [[tuple(map(float, p.split(","))) for p in line.split()]
            for line in re.findall(r'<polyline[^>]* points="([^"]+)"', svg)]


def test_doctests_pass():
    assert doctest.testmod(charts).failed == 0


def test_one_line_per_label_starting_at_zero_and_following_the_totals():
    svg = charts.running_totals_svg(["A", "B"], [[0, 10, -10], [0, -10, 10]], "Totals")
    lines = points(svg)
    assert len(lines) == 2 and all(len(line) == 3 for line in lines)
    zero_y = lines[0][0][1]
    assert lines[1][0][1] == zero_y
    assert lines[0][1][1] < zero_y < lines[0][2][1]  # up for +10 (SVG y grows downwards), down for -10
    assert lines[0][1][1] == lines[1][2][1]


def test_names_are_escaped():
    svg = charts.running_totals_svg(['<script>x</script>', '"><img src=x>'], [[0, 1], [0, 2]], "<b>")
    assert "<script>" not in svg and "<img" not in svg and "<b>" not in svg
    assert "&lt;script&gt;" in svg


def test_kozyol_chart_has_a_line_per_team():
    players = ["Ann", "Bob", "Cid", "Dee"]
    series = kozyol.GAME.new_replay(players, kozyol.parse_options(players, {}, None))
    series.play({"points": [61, 59]})
    series.play({"points": [29, 91]})
    svg = charts.match_chart(series, "t")
    assert len(points(svg)) == 2 and "Ann &amp; Cid" in svg


def test_match_page_shows_the_chart_once_hands_exist(client):
    match = create_match(client, "hearts", ["A", "B", "C", "D", "E", "F"])
    page = client.get(match["url"]).text
    assert 'class="chart"' not in page  # nothing to draw before the first hand
    hand = {"hearts": {"A": 26, "B": 0, "C": 0, "D": 0, "E": 0, "F": 0},
            "black_marias": {"A": 0, "B": 2, "C": 0, "D": 0, "E": 0, "F": 0}}
    assert client.post(f"/api/v1/matches/{match['id']}/hands", json=hand,
                       headers=bearer(match["edit_key"])).status_code == 201
    page = client.get(match["url"]).text
    assert 'class="chart"' in page and len(points(page)) == 6
