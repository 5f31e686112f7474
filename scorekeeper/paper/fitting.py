"""Each row of a read sheet fitted to the game's rules: the legal hand closest to the marks, or a doubt.

The marks of a row say what the table wrote; the game's own engine says whether that is a hand the rules allow.
A row whose every mark is clear and whose hand is legal is certain. Otherwise the fitting tries the other
likely readings of the unclear marks (a checksum such as 13 tricks usually leaves one), proposes the legal hand
with the fewest changes, and sends the row to a person with the reasons; it never saves a doubt silently.
"""

from __future__ import annotations

import copy
import itertools
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ..games import GAMES, InvalidHand
from ..games.base import N_, Replay
from ..refusals import Reason
from .entries import CARD_WORDS, ENTRIES, HEAVIEST, Reading, Unfit, could_end, paper_form, relevant, what_of
from .layout import BARBU_CARDS, Group, Key, Page, Value
from .marks import GroupMarks

CERTAIN, DOUBTFUL, EMPTY = "certain", "doubtful", "empty"
MOST_OPTIONS = 3  # readings tried per unclear group; a group missing its mark tries all its values
MOST_TRIES = 2000  # combinations of readings tried per row, fewest changes first

UNCLEAR = N_("Check {what}: the marks are unclear.")
PROPOSED = N_("The figures proposed are the closest to the marks that keep the rules; check them.")
NO_LEGAL_ROW = N_("No row close to these marks keeps the rules: enter this hand's figures by hand.")
ALREADY = N_("Hand {number} is already recorded with other figures.")
NOT_YET = N_("Hand {number} is not recorded yet, so this row cannot be checked: save the rows before it first.")
AFTER = N_("Hand {number} above is doubtful and this row's check depends on it: confirm that hand first.")
GAP = N_("Hand {number} has no marks but rows below it do: fill it in.")


@dataclass
class RowRead:
    """One row as read: its hand number, the entry proposed (API form, names as players), and why it is doubtful."""

    row: int
    number: int
    entry: dict[str, Any] | None
    status: str  # CERTAIN, DOUBTFUL or EMPTY
    reasons: list[str] = field(default_factory=list)  # English templates with {placeholders} (N_)
    params: list[dict[str, Any]] = field(default_factory=list)  # their values, one dict per reason
    read: dict[str, list[Value]] = field(default_factory=dict)  # what was marked, per group ([]: a faint mark)
    recorded: bool = False  # the match holds this hand already, with these figures: nothing to save

    @property
    def why(self) -> list[Reason]:
        """The reasons as the engines give theirs, for i18n.translate."""
        return [Reason(text, values) for text, values in zip(self.reasons, self.params, strict=True)]

    def say(self, reason: Reason) -> None:
        self.reasons.append(reason.text)
        self.params.append(dict(reason.params))


@dataclass(frozen=True)
class Choice:
    """What one group (or who took one Barbu card) may read, most likely first; sure: one clear reading."""

    key: Key
    options: tuple[Any, ...]
    sure: bool
    what: Reason  # how a reason names it


def _unique(values: Sequence[Any]) -> tuple[Any, ...]:  # the values once each, in order
    return tuple(dict.fromkeys(values))


def group_choice(group: Group, marks: GroupMarks, what: Reason) -> Choice:
    """The readings of a one-mark group: its strongest mark (or its default), then the group's other candidates."""
    strongest = marks.values[0] if marks.values else group.default
    sure = not marks.doubt and len(marks.values) <= 1 and strongest is not None
    if strongest is None:  # a needed mark is missing: any of the group's values may be it
        options = _unique([*marks.candidates, *(bubble.value for bubble in group.bubbles)])
        return Choice(group.key, (None, *options), False, what)
    others = [*marks.values, *marks.candidates] + ([] if group.default is None else [group.default])
    return Choice(group.key, _unique([strongest, *others])[:MOST_OPTIONS], sure, what)


def card_choice(card: str, groups: Sequence[GroupMarks]) -> Choice:
    """Who took a Barbu card: the one seat whose cards group marks it, else every seat that may have."""
    marked = [seat for seat, marks in enumerate(groups) if card in marks.values]
    maybe = [seat for seat, marks in enumerate(groups) if marks.doubt and card in marks.candidates]
    sure = len(marked) == 1 and set(maybe) <= set(marked)
    first: list[Any] = marked[:1] if marked else [None]
    return Choice(("owner", card), _unique([*first, *marked, *maybe, *range(len(groups))]), sure,
                  Reason(CARD_WORDS[card]))


def choices_of(page: Page, row: int, marks: Mapping[tuple[int, Key], GroupMarks], players: Sequence[str]) -> list[Choice]:
    """Every reading of the row to decide: its groups, and for Barbu who took each card."""
    blank = GroupMarks((), False, ())
    out: list[Choice] = []
    cards: list[GroupMarks] = []
    for group in page.row_groups(row):
        found = marks.get((row, group.key), blank)
        if group.many:
            cards.append(found)
        else:
            out.append(group_choice(group, found, what_of(page.game, group.key, players)))
    if cards:
        out += [card_choice(card, cards) for card in BARBU_CARDS]
    return out


# -- the search -----------------------------------------------------------------------------------------------


def _ranks(sizes: Sequence[int], total: int) -> Iterator[tuple[int, ...]]:
    """Every choice of an option other than the first per group (options 1 to size - 1) whose ranks add up to total."""
    if not sizes or not len(sizes) <= total <= sum(sizes) - len(sizes):
        yield from [()] if not sizes and total == 0 else []
        return
    for rank in range(1, min(sizes[0] - 1, total - len(sizes) + 1) + 1):
        for rest in _ranks(sizes[1:], total - rank):
            yield (rank, *rest)


def readings(choices: Sequence[Choice], unsure: Sequence[Choice],
             forced: Sequence[Choice] = ()) -> Iterator[tuple[int, Reading]]:
    """The strongest reading, then those with the fewest changes (the likelier first): at most MOST_TRIES.

    A forced group (a needed mark missing: no hand reads without it) takes its likeliest value unless changed.
    """
    strongest = {choice.key: choice.options[0] for choice in choices}
    yield 0, dict(strongest)
    base = {**strongest, **{choice.key: choice.options[1] for choice in forced}}
    options = {choice.key: choice.options[1:] if choice in forced else choice.options for choice in unsure}
    tried = 1
    for extra in range(0 if forced else 1, len(unsure) + 1):
        picks = list(itertools.islice(itertools.combinations(unsure, extra), MOST_TRIES))
        for total in range(extra, max(sum(len(options[choice.key]) - 1 for choice in p) for p in picks) + 1):
            for picked in picks:
                for ranks in _ranks([len(options[choice.key]) for choice in picked], total):
                    read = dict(base)
                    read.update({choice.key: options[choice.key][rank] for choice, rank in zip(picked, ranks, strict=True)})
                    yield len(forced) + extra, read
                    tried += 1
                    if tried >= MOST_TRIES:
                        return


@dataclass
class Fit:
    entry: dict[str, Any] | None  # the legal entry closest to the marks; else the strongest reading's, if any
    legal: bool
    changes: int
    problem: Reason | None  # why the strongest reading is no legal hand
    unsure: list[Choice]  # unclear groups that matter to the entry proposed
    refused: bool = False  # the strongest reading is a hand the rules refuse here (not one that makes no hand)


class Trial:
    """Entries tried as the next hand of a replay, each on a copy: the engine validates before it changes a thing."""

    def __init__(self, replay: Replay[Any]) -> None:
        self.base = copy.deepcopy(replay)  # the replay may go on while its rows are tried (a recorded row)
        self.copy = copy.deepcopy(self.base)

    def play(self, entry: Mapping[str, Any]) -> tuple[Any, Reason | None]:
        try:
            hand = self.copy.play(copy.deepcopy(dict(entry)))
        except InvalidHand as err:
            if len(self.copy.hands) != len(self.base.hands):  # a refused hand left something behind: start again
                self.copy = copy.deepcopy(self.base)
            return None, err.reason
        self.copy = copy.deepcopy(self.base)
        return hand, None


def fit(game: str, choices: list[Choice], players: Sequence[str], accept: Callable[[dict[str, Any]],
        tuple[Any, Reason | None]]) -> Fit:
    """The reading with the fewest changes whose entry accept takes; the strongest reading's entry when none."""
    build = ENTRIES[game]
    strongest = {choice.key: choice.options[0] for choice in choices}
    contracts = {choice.key: choice.options for choice in choices}.get(("contract",), (None,))
    unsure = [choice for choice in choices if not choice.sure
              and any(relevant(game, choice.key, {("contract",): contract}) for contract in contracts)]
    forced = [choice for choice in unsure if choice.options[0] is None
              and all(relevant(game, choice.key, {("contract",): c}) for c in contracts if c is not None)]
    first: dict[str, Any] | None = None
    problem: Reason | None = None
    seen: list[dict[str, Any]] = []
    for changes, read in readings(choices, unsure, forced):
        try:
            entry = build(read, players)
        except Unfit as err:
            problem = problem or (err.reason if changes == 0 else None)
            continue
        if entry in seen:
            continue
        seen.append(entry)
        _, refused = accept(entry)
        if changes == 0:
            first, problem = entry, refused
        if refused is None:
            mattered = [choice for choice in unsure if relevant(game, choice.key, read)]
            return Fit(entry, True, changes, problem, mattered, first is not None and problem is not None)
    return Fit(first, False, 0, problem, [choice for choice in unsure if relevant(game, choice.key, strongest)],
               first is not None)


# -- a page -----------------------------------------------------------------------------------------------------


def _shown(key: Key) -> str:
    return " ".join(str(part) for part in key)


def _inked(group: Group, found: GroupMarks) -> bool:
    """Whether a group holds a mark, or a faint one."""
    return bool(found.values or found.faint)


def _blank_rows(page: Page, marks: Mapping[tuple[int, Key], GroupMarks], first_number: int) -> list[RowRead]:
    """The page's rows before fitting: doubtful where a group holds a mark or a faint one, else empty."""
    rows: list[RowRead] = []
    for row in page.rows:
        inked = {group.key: marks[(row.index, group.key)] for group in page.row_groups(row.index)
                 if (row.index, group.key) in marks and _inked(group, marks[(row.index, group.key)])}
        rows.append(RowRead(row.index, first_number + row.index, None, DOUBTFUL if inked else EMPTY,
                            read={_shown(key): list(got.values) for key, got in inked.items()}))
    return rows


def fit_page(reading_page: Page, marks: Mapping[tuple[int, Key], GroupMarks], players: list[str],
             options: Mapping[str, Any], before: Sequence[Mapping[str, Any]], first_number: int) -> list[RowRead]:
    """Every row of a read page fitted as hands first_number, first_number + 1...: certain, doubtful or empty.

    before is the match's entries so far; a row whose hand is among them is compared with it, not saved again.
    The rows after the last one with a mark (faint or not) are empty; a row without one above it is doubtful.
    A doubtful row's legal proposal stands for its hand while the rows below are checked; without one, they are
    checked past it only where the game's rules allow (HEAVIEST), else they wait for it.
    """
    game = reading_page.game
    replay = GAMES[game].new_replay(players, options)
    for entry in before[:first_number - 1]:
        replay.play(copy.deepcopy(dict(entry)))
    rows = _blank_rows(reading_page, marks, first_number)
    last = max((out.row for out in rows if out.status == DOUBTFUL), default=-1)
    missing: list[int] = []  # hands of this page with no legal reading: the rows below are checked without them
    doubted: int | None = None  # the first hand proposed in doubt: a refusal below may be the proposal's doing
    for out in rows[:last + 1]:
        choices = _choices(reading_page, out, marks, players)
        if out.number <= len(before):
            if out.read:
                _recorded(out, game, choices, players, replay, before[out.number - 1])
            else:
                replay.play(copy.deepcopy(dict(before[out.number - 1])))
            continue
        if len(replay.hands) + len(missing) != out.number - 1:
            _unchecked(out, game, choices, players, Reason(NOT_YET, {"number": len(replay.hands) + 1}))
        elif missing and HEAVIEST[game] is None:
            _unchecked(out, game, choices, players, Reason(AFTER, {"number": missing[0]}))
        elif out.read:
            found = _fresh(out, game, choices, players, replay)
            if missing and could_end(game, [hand["entry"] for hand in replay.hands], players, options, missing):
                out.status = DOUBTFUL
                out.say(Reason(AFTER, {"number": missing[0]}))
            elif found.refused and doubted is not None and HEAVIEST[game] is None:
                out.say(Reason(AFTER, {"number": doubted}))  # the proposal above may be what the rules refuse
            if found.legal and found.entry is not None:
                replay.play(copy.deepcopy(found.entry))
                doubted = out.number if doubted is None and out.status == DOUBTFUL else doubted
                continue
        missing.append(out.number)
    for out in rows[last + 1:]:
        out.read, out.status = {}, EMPTY
    return rows


def _choices(page: Page, out: RowRead, marks: Mapping[tuple[int, Key], GroupMarks], players: list[str]) -> list[Choice]:
    """A row's choices; a row without a mark is said to be one, and one of faint marks only reads them first."""
    if not out.read:
        out.status = DOUBTFUL
        out.say(Reason(GAP, {"number": out.number}))
    choices = choices_of(page, out.row, marks, players)
    if not out.read or any(out.read.values()):
        return choices
    return [choice if choice.sure else replace(choice, options=(*choice.options[1:], choice.options[0]))
            for choice in choices]


def _judge(out: RowRead, found: Fit) -> None:
    """Status and reasons of a row from its fit."""
    out.entry = found.entry
    out.status = CERTAIN if found.legal and found.changes == 0 and not found.unsure else DOUBTFUL
    if found.problem is not None:
        out.say(found.problem)
    unclear: list[Reason] = []
    for choice in found.unsure:
        if choice.what not in unclear:  # the tens and units of one count are one thing to check
            unclear.append(choice.what)
            out.say(Reason(UNCLEAR, {"what": choice.what}))
    if found.legal and found.changes:
        out.say(Reason(PROPOSED))
    if not found.legal:
        out.say(Reason(NO_LEGAL_ROW))


def _fresh(out: RowRead, game: str, choices: list[Choice], players: Sequence[str], replay: Replay[Any]) -> Fit:
    """Fit a row as the match's next hand: when legal, its entry is what the next rows follow."""
    found = fit(game, choices, players, Trial(replay).play)
    _judge(out, found)
    return found


def _recorded(out: RowRead, game: str, choices: list[Choice], players: Sequence[str], replay: Replay[Any],
              recorded: Mapping[str, Any]) -> None:
    """A row of a hand the match holds: certain when some close reading is that hand, else doubtful; replay it."""
    trial = Trial(replay)
    kept = replay.play(copy.deepcopy(dict(recorded)))
    same = paper_form(game, kept["entry"])

    def accept(entry: dict[str, Any]) -> tuple[Any, Reason | None]:
        hand, refused = trial.play(entry)
        if refused is None and paper_form(game, hand["entry"]) != same:
            return hand, Reason(ALREADY, {"number": out.number})
        return hand, refused

    found = fit(game, choices, players, accept)
    if found.legal:
        out.entry, out.status, out.recorded = dict(recorded), CERTAIN, True
        return
    legal = fit(game, choices, players, trial.play)
    _judge(out, legal)
    out.status = DOUBTFUL
    out.say(Reason(ALREADY, {"number": out.number}))


def _unchecked(out: RowRead, game: str, choices: list[Choice], players: Sequence[str], waits: Reason) -> None:
    """A row after a hand not known yet: what the marks say, to check once that hand is in (waits says which)."""
    out.status = DOUBTFUL
    if out.read:
        try:
            out.entry = ENTRIES[game]({choice.key: choice.options[0] for choice in choices}, players)
        except Unfit as err:
            out.say(err.reason)
    out.say(waits)
