"""The edit history in words: what a correction changed, what a hand held, and which phone did it."""

from __future__ import annotations

from types import SimpleNamespace

from scorekeeper.web.match.history_lines import lines, sources


def test_a_correction_names_only_what_changed(app):
    before = {"contract": "no_queens", "queens": {"Ann": 1, "Bob": 1, "Cid": 2, "Dee": 0}, "doubles": []}
    after = {"contract": "no_queens", "queens": {"Ann": 1, "Bob": 0, "Cid": 2, "Dee": 1},
             "doubles": [{"by": "Bob", "target": "Ann", "redoubled": True}]}
    with app.test_request_context():
        assert lines(before, after) == ["Bob: queens 1 → 0", "Dee: queens 0 → 1", "doubles: – → Bob → Ann ×2"]


def test_a_hand_recorded_or_undone_lists_what_it_held(app):
    entry = {"points": [75, 45], "tricks": [None, 3], "last_trick": "Bob"}
    with app.test_request_context():
        assert lines(None, entry) == ["card points: 75 : 45", "tricks: – : 3", "last trick: Bob"]
        assert lines(entry, None) == lines(None, entry)
    with app.test_request_context(headers={"Accept-Language": "fr"}):
        assert lines(None, {"contract": "trumps"}) == ["contrat\u00a0: Atout"]


def test_phones_are_named_as_this_phone_reads_them(app):
    changes = [SimpleNamespace(id=n, source=source) for n, source in
               enumerate(["phone aa11", "api", "phone bb22", "phone cc33", "phone aa11", ""], 1)]
    with app.test_request_context():
        assert sources(changes, "phone bb22") == {"phone aa11": "phone 2", "api": "API", "phone bb22": "this phone",
                                                  "phone cc33": "phone 3", "": "unknown"}


def test_a_stored_value_in_no_shape_the_rules_give_is_shown_as_stored(app):
    """Written around the app, a change still reads: the odd value as it is, never an error page."""
    with app.test_request_context():
        assert lines(None, {"doubles": [1, "Bob"]}) == ["doubles: [1, 'Bob']"]
        assert lines(None, {"cards": [["A"], None]}) == ["cards: [['A'], None]"]
        assert lines(None, {"contract": ["trumps"]}) == ["contract: ['trumps']"]
        assert lines({"points": [75, 45]}, [75, 45]) == ["entry: – → 75 : 45", "card points: 75 : 45 → –"]
        assert lines(None, {"queens": {"Ann": 10 ** 30}}) == [f"Ann: queens {10 ** 30}"]
