"""Tables already playing (seating.draw's `playing`): latecomers and sit-outs seated without moving anyone playing.

Rows worked out by hand: who is present, the tables playing, the game of the new tables, then what the
draw must give (the new tables' sizes and how many sit out) or refuse. Then random evenings: the tables
playing come back first and unchanged, only those free are drawn, each once, and those of them who sat
out least sit out again.
"""

from __future__ import annotations

import random

import pytest

from helpers.seating import random_evening, seated
from scorekeeper.club.engine.seating import History, Round, Table, draw, evening, greedy_draw, plan
from scorekeeper.games import GAMES
from scorekeeper.refusals import Refusal

TWO_KOZYOL = (Table("kozyol", (1, 2, 3, 4)), Table("kozyol", (5, 6, 7, 8)))
HEARTS_SEVEN = (Table("hearts", (1, 2, 3, 4, 5, 6, 7)),)
FEW = "A new table needs at least {count} players; free now: {free}."

# (present, playing, game) -> the new tables' sizes and how many sit out, or the refusal.
ROWS = [
    (range(1, 13), TWO_KOZYOL, "kozyol", [4], 0),  # three latecomers and the one who sat out: a third table
    (range(1, 15), TWO_KOZYOL, "kozyol", [4], 2),  # six free: one table, two still out
    (range(1, 17), TWO_KOZYOL, "kozyol", [4, 4], 0),
    (range(1, 13), TWO_KOZYOL, "barbu", [4], 0),  # the new table may play another game
    (range(1, 15), TWO_KOZYOL, "hearts", [6], 0),
    (range(1, 16), HEARTS_SEVEN, "hearts", [8], 0),
    (range(1, 16), HEARTS_SEVEN, ["barbu", "barbu"], [4, 4], 0),
    ([*range(2, 13)], TWO_KOZYOL, "kozyol", [4], 0),  # 1 left without a word: the table plays on, 9-12 are free
    (range(1, 12), TWO_KOZYOL, "kozyol", FEW.format(count=4, free=3), None),
    (range(1, 14), TWO_KOZYOL, "hearts", FEW.format(count=6, free=5), None),
    (range(1, 13), TWO_KOZYOL, ["kozyol", "barbu"], FEW.format(count=8, free=4), None),
]


@pytest.mark.parametrize(("present", "playing", "game", "sizes", "out"), ROWS)
def test_the_tables_playing_stay_and_those_free_are_drawn(present, playing, game, sizes, out):
    present = list(present)
    history = History().after(Round(playing, tuple(p for p in present if p not in {s for t in playing for s in t.seats})))
    if out is None:
        with pytest.raises(Refusal) as refused:
            draw(present, game, history, 7, playing=playing)
        assert refused.value.fields == {"players": sizes}
        return
    for seed in range(5):
        drawn = draw(present, game, history, seed, playing=playing)
        assert drawn.tables[:len(playing)] == playing
        new = drawn.tables[len(playing):]
        assert [len(table.seats) for table in new] == sizes and len(drawn.sat_out) == out
        busy = {seat for table in playing for seat in table.seats}
        assert sorted(seated(Round(new, ())) + list(drawn.sat_out)) == [p for p in present if p not in busy]


def test_a_player_at_two_tables_playing_is_refused():
    playing = (Table("kozyol", (1, 2, 3, 4)), Table("kozyol", (4, 5, 6, 7)))
    with pytest.raises(Refusal) as refused:
        draw(range(1, 13), "kozyol", History(), 1, playing=playing)
    assert refused.value.fields == {"players": "A player is seated at two tables."}


def test_those_who_sat_out_play_before_latecomers_who_came_after_the_draw():
    """The round's sit-out has sat it out (counted in the history); latecomers have not: with five free for a
    table of four, a latecomer sits out."""
    first = evening(list(range(1, 10)), "kozyol", History(), 1, 3)[0]
    history = History().after(first)
    for seed in range(8):
        drawn = draw(list(range(1, 14)), "kozyol", history, seed, tonight=[first], playing=first.tables)
        assert first.sat_out[0] in drawn.tables[2].seats and drawn.sat_out[0] in (10, 11, 12, 13)


@pytest.mark.parametrize("chunk", range(4))
def test_random_evenings_keep_every_table_playing_and_draw_the_free_fairly(chunk):
    for number in range(chunk, 80, 4):
        rng = random.Random(f"playing {number}")
        club = random_evening(rng)
        try:
            first = greedy_draw(club.present, club.game, club.history, number)
        except Refusal:
            continue
        playing = rng.sample(first.tables, rng.randint(1, len(first.tables)))
        busy = {seat for table in playing for seat in table.seats}
        latecomers = [player for player in club.players if player not in club.present][:rng.randint(0, 8)]
        present = club.present + latecomers
        free = [player for player in present if player not in busy]
        game = rng.choice(sorted(GAMES))
        history = club.history.after(first)
        try:
            tables, out = plan(game, len(free))
        except Refusal:
            with pytest.raises(Refusal):
                draw(present, game, history, number, tonight=[first], playing=playing)
            continue
        drawn = draw(present, game, history, number, tonight=[first], playing=playing)
        assert drawn.tables[:len(playing)] == tuple(playing), number
        new = drawn.tables[len(playing):]
        assert [(table.game, len(table.seats)) for table in new] == tables and len(drawn.sat_out) == out
        assert sorted(seated(Round(new, ())) + list(drawn.sat_out)) == sorted(free)
        if drawn.sat_out:
            counts = history.sat_out
            assert max(counts.get(p, 0) for p in drawn.sat_out) <= min(counts.get(p, 0) for p in seated(Round(new, ())))
        assert draw(list(reversed(present)), game, history, number, tonight=[first], playing=playing) == drawn
