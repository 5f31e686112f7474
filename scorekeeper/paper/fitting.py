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
from dataclasses import dataclass, field
from typing import Any

from ..games import GAMES, InvalidHand
from ..games.base import N_, Replay
from ..refusals import Reason
from .entries import CARD_WORDS, ENTRIES, Reading, Unfit, paper_form, relevant
from .layout import BARBU_CARDS, LOST, Group, Key, Page, Value
from .marks import GroupMarks

CERTAIN, DOUBTFUL, EMPTY = "certain", "doubtful", "empty"
MOST_OPTIONS = 3  # readings tried per unclear group; a group missing its mark tries all its values
MOST_TRIES = 2000  # combinations of readings tried per row, fewest changes first
NOBODY = ""  # Barbu's pair of seats with no double

UNCLEAR = N_("Check {what}: the marks are unclear.")
PROPOSED = N_("The figures proposed are the closest to the marks that keep the rules; check them.")
NO_LEGAL_ROW = N_("No row close to these marks keeps the rules: enter this hand's figures by hand.")
ALREADY = N_("Hand {number} is already recorded with other figures.")
NOT_YET = N_("Hand {number} is not recorded yet, so this row cannot be checked: save the rows before it first.")

@dataclass
class RowRead:
    """One row as read: its hand number, the entry proposed (API form, names as players), and why it is doubtful."""

    row: int
    number: int
    entry: dict[str, Any] | None
    status: str  # CERTAIN, DOUBTFUL or EMPTY
    reasons: list[str] = field(default_factory=list)  # English templates with {placeholders} (N_)
    params: list[dict[str, Any]] = field(default_factory=list)  # their values, one dict per reason
    read: dict[str, list[Value]] = field(default_factory=dict)  # what was marked, per group
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


def _unique(values: Sequence[Any]) -> tuple[Any, ...]:
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


def _what(page: Page, key: Key, players: Sequence[str]) -> Reason:
    """How a reason names a group: "the count of Ann", "the doubles between Ann and Bob"..."""
    kind, seats = key[0], [int(seat) for seat in key[1:]]
    if kind == "contract":
        return Reason(N_("the contract"))
    if kind == "moon":
        return Reason(N_("the moon"))
    if kind in ("doubled", "redoubled"):
        return Reason(N_("the doubles between {a} and {b}"), {"a": players[seats[0]], "b": players[seats[1]]})
    if page.game == "kozyol":
        team = players[seats[0]::2]
        text = N_("whether {p1} and {p2} took a trick") if kind == "no_trick" else N_("the card points of {p1} and {p2}")
        return Reason(text, {"p1": team[0], "p2": team[1]})
    if kind == "marias":
        if seats[0] == LOST:
            return Reason(N_("the Black Marias lost"))
        return Reason(N_("the Black Marias of {name}"), {"name": players[seats[0]]})
    if seats[0] == LOST:
        return Reason(N_("the hearts lost"))
    return Reason(N_("the count of {name}"), {"name": players[seats[0]]})


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
            out.append(group_choice(group, found, _what(page, group.key, players)))
    if cards:
        out += [card_choice(card, cards) for card in BARBU_CARDS]
    return out


# -- the search -----------------------------------------------------------------------------------------------


def readings(choices: Sequence[Choice], unsure: Sequence[Choice]) -> Iterator[tuple[int, Reading]]:
    """Readings with the fewest changes from the strongest first (and the likelier ones first): at most MOST_TRIES."""
    strongest = {choice.key: choice.options[0] for choice in choices}
    yield 0, dict(strongest)
    tried = 1
    for changes in range(1, len(unsure) + 1):
        batch: list[tuple[int, Reading]] = []
        for picked in itertools.combinations(unsure, changes):
            for ranks in itertools.product(*(range(1, len(choice.options)) for choice in picked)):
                read = dict(strongest)
                read.update({choice.key: choice.options[rank] for choice, rank in zip(picked, ranks, strict=True)})
                batch.append((sum(ranks), read))
                if tried + len(batch) >= MOST_TRIES:
                    break
            if tried + len(batch) >= MOST_TRIES:
                break
        for _, read in sorted(batch, key=lambda item: item[0]):
            yield changes, read
        tried += len(batch)
        if tried >= MOST_TRIES:
            return


@dataclass
class Fit:
    entry: dict[str, Any] | None  # the legal entry closest to the marks; else the strongest reading's, if any
    legal: bool
    changes: int
    problem: Reason | None  # why the strongest reading is no legal hand
    unsure: list[Choice]  # unclear groups that matter to the entry proposed


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
    first: dict[str, Any] | None = None
    problem: Reason | None = None
    seen: list[dict[str, Any]] = []
    for changes, read in readings(choices, unsure):
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
            return Fit(entry, True, changes, problem, mattered)
    return Fit(first, False, 0, problem, [choice for choice in unsure if relevant(game, choice.key, strongest)])


# -- a page -----------------------------------------------------------------------------------------------------


def _shown(key: Key) -> str:
    return " ".join(str(part) for part in key)


def fit_page(reading_page: Page, marks: Mapping[tuple[int, Key], GroupMarks], players: list[str],
             options: Mapping[str, Any], before: Sequence[Mapping[str, Any]], first_number: int) -> list[RowRead]:
    """Every row of a read page fitted as hands first_number, first_number + 1...: certain, doubtful or empty.

    before is the match's entries so far; a row whose hand is among them is compared with it, not saved again.
    A row without a mark ends the sheet: it and every row after it are empty.
    """
    game = reading_page.game
    replay = GAMES[game].new_replay(players, options)
    for entry in before[:first_number - 1]:
        replay.play(copy.deepcopy(dict(entry)))
    rows: list[RowRead] = []
    ended = False
    for row in reading_page.rows:
        number = first_number + row.index
        marked = {(row.index, group.key): marks[(row.index, group.key)] for group in reading_page.row_groups(row.index)
                  if (row.index, group.key) in marks and marks[(row.index, group.key)].values}
        out = RowRead(row.index, number, None, EMPTY, read={_shown(key): list(found.values)
                                                             for (_, key), found in marked.items()})
        ended = ended or not marked
        rows.append(out)
        if ended:
            out.read = {}
            continue
        choices = choices_of(reading_page, row.index, marks, players)
        if number <= len(before):
            _recorded(out, game, choices, players, replay, before[number - 1])
        elif len(replay.hands) != number - 1:
            _unchecked(out, game, choices, players, len(replay.hands) + 1)
        else:
            found = _fresh(out, game, choices, players, replay)
            if found is not None:
                replay.play(copy.deepcopy(found))
    return rows


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


def _fresh(out: RowRead, game: str, choices: list[Choice], players: Sequence[str],
           replay: Replay[Any]) -> dict[str, Any] | None:
    """Fit a row as the match's next hand; its entry when legal (the next rows follow it), else None."""
    found = fit(game, choices, players, Trial(replay).play)
    _judge(out, found)
    return found.entry if found.legal else None


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


def _unchecked(out: RowRead, game: str, choices: list[Choice], players: Sequence[str], missing: int) -> None:
    """A row after a hand the match does not hold yet: what the marks say, to check once that hand is in."""
    try:
        out.entry = ENTRIES[game]({choice.key: choice.options[0] for choice in choices}, players)
    except Unfit as err:
        out.say(err.reason)
    out.status = DOUBTFUL
    out.say(Reason(NOT_YET, {"number": missing}))
