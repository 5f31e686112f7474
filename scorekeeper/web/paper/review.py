"""The review of a sheet read from a photo: each row, what the match already holds of it, and for each row a
person confirms the game's own hand form, filled in with what was read.

The hand forms are the ones the hand pages use (``GamePages.hand_form``), each under a prefix of its row
("r3-") so that every row of the page posts in one form: a row's fields are read back without the prefix.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from flask_babel import gettext as _
from werkzeug.datastructures import MultiDict

from ...games import InvalidHand
from ...games.base import N_, Entry, Replay
from ...i18n import translate
from ...match import matches
from ...models import Match, PaperPhoto
from ...paper.service import ReadRow, reason_of, rows_of, same_on_paper
from ...refusals import Refusal
from ..games.pages import GamePages, HandForm
from ..games.registry import GAME_PAGES
from ..match.history_lines import FIELDS, lines

OTHER_CONTRACT = N_("Fill in hand {number} for the contract chosen, then save again.")
RECORDED_OTHERWISE = N_("Hand {number} is recorded with other values than this sheet's: correct it from the match "
                        "page if the sheet is right.")
BEFORE_THE_SHEET = N_("Hands {low} to {high} come before this sheet and are not recorded: record them first.")
NOTHING_FITS = N_("No legal row fits these marks: fill the row in as it was played.")
CHOSEN_SEATS = ("ace_of_hearts", "second_last", "last", "king_of_hearts")
PLACE_NAMES = ("Went out first", "Second", "Third", "Last")
HIDDEN = ("rest_to",)  # Hearts' "took the rest": what was read gives every row its own count


@dataclass
class Item:
    """One row of the sheet on the review page."""

    row: ReadRow
    state: str  # "recorded", "differs", "certain", "doubtful" (a form to confirm), "closed" (the match is over),
    # "waiting" (hands before the sheet are not recorded)
    entry: Entry | None = None  # what Save records: the row as read, or its form's entry
    form: HandForm | None = None
    prefix: str = ""
    variant: str | None = None  # Barbu: the contract the form is for
    variants: list[str] = field(default_factory=list)
    reasons: list[str] = field(default_factory=list)
    error: str | None = None  # why Save stopped here

    @property
    def summary(self) -> str:
        return "; ".join(lines(None, self.entry or self.row["entry"]))

    def refuse(self, err: Refusal) -> None:
        if self.form is not None:
            self.form.refuse(err)  # type: ignore[arg-type]
        self.error = translate(err.reason)


@dataclass
class Review:
    items: list[Item]
    missing: str | None  # hands before this sheet not yet recorded: nothing can be saved

    def to_save(self) -> list[Item]:
        """The rows Save records, in hand order."""
        return [] if self.missing else [item for item in self.items if item.state in ("certain", "doubtful")]


def worded(text: str, params: Any) -> str:
    """A reason of the reading in the player's language, its values filled in."""
    try:
        return translate(reason_of(text, params))
    except (KeyError, ValueError, IndexError, TypeError):  # a sentence kept by an older reading: said as it is
        return _(text)


def review_of(match: Match, photo: PaperPhoto, formdata: Any = None, stopped: int | None = None) -> Review:
    """Every row read on the photo as it stands against the match; formdata: the review as posted."""
    entries = matches.entries_of(match)
    running = list(entries)
    opened = {int(value) for value in (formdata.getlist("open") if formdata else []) if str(value).isdigit()}
    items, missing = [], None
    for row in sorted(rows_of(photo.rows), key=lambda row: row["number"]):
        number = row["number"]
        if row["status"] == "empty":
            continue
        if number <= len(entries):
            same = row["entry"] is None or row["recorded"] or same_on_paper(match.game, dict(entries[number - 1]), row["entry"])
            items.append(Item(row, "recorded", entries[number - 1]) if same else
                         Item(row, "differs", reasons=[translate_params(RECORDED_OTHERWISE, number=number)]))
            continue
        if missing is None and number > len(entries) + 1 and len(running) == len(entries):  # its first row open
            missing = translate_params(BEFORE_THE_SHEET, low=len(entries) + 1, high=number - 1)
        if missing:
            items.append(Item(row, "waiting", reasons=[missing]))
            continue
        item = fitted(match, row, matches.replay(match, running), formdata,
                      row["row"] in opened or row["row"] == stopped)
        if row["row"] == stopped and item.error is None:
            item.error = ""  # Save stopped here: the view says why
        if item.entry is not None and legal(match, running, item, formdata is not None):
            running.append(item.entry)
        items.append(item)
    return Review(items, missing)


def legal(match: Match, running: list[Entry], item: Item, posted: bool) -> bool:
    """Whether the row's entry is a legal next hand; if not, the rules' refusal goes on its form (nothing saved)."""
    if item.form is None:
        return True  # read with certainty: checked as it was read (fitted)
    try:
        matches.replay(match, [*running, item.entry] if item.entry is not None else running)
    except InvalidHand as err:
        item.form.refuse(err.original if isinstance(err, matches.LaterHandRefused) else err)  # type: ignore[arg-type]
        item.entry = None
        if posted:
            item.error = translate(err.original.reason if isinstance(err, matches.LaterHandRefused) else err.reason)
        return False
    return True


def translate_params(text: str, **params: Any) -> str:
    return _(text).format(**params)


def fitted(match: Match, row: ReadRow, before: Replay, formdata: Any, opened: bool) -> Item:
    """A row not yet recorded: certain as read, or a form to confirm (doubtful, or opened by a refusal)."""
    reasons = [worded(text, params) for text, params in zip(row["reasons"], row["params"], strict=False)]
    if before.next() is None:
        return Item(row, "closed", reasons=[_("This match is finished; no more hands can be recorded.")])
    entry = row["entry"]
    if entry is not None and row["status"] == "certain" and not opened:
        try:
            matches.replay(match, [*before_entries(before), entry])
        except InvalidHand as err:
            reasons.append(translate(err.reason))
        else:
            return Item(row, "certain", entry, reasons=reasons)
    if entry is None:
        reasons.append(_(NOTHING_FITS))
    item = Item(row, "doubtful", entry, reasons=reasons, prefix=f"r{row['row']}-")
    return form_item(item, GAME_PAGES[match.game], before, formdata)


def before_entries(before: Replay) -> list[Entry]:
    return [hand["entry"] for hand in before.hands]


def form_item(item: Item, pages: GamePages, before: Replay, formdata: Any) -> Item:
    """Give a row its hand form: filled from what was read, or from what was posted (then checked)."""
    posted = row_data(formdata, item.prefix) if formdata is not None else None
    proposed = item.entry
    if pages.choice is not None:
        item.variants = pages.choice.options(before, None, []) or list(pages.choice.every)
        read = pages.choice.of(proposed) if proposed else None
        wanted = posted.get("variant") if posted is not None else None
        item.variant = next((v for v in (wanted, read, *item.variants) if v in pages.choice.every), None)
    item.form = pages.hand_form(before, item.variant, posted, proposed)
    item.entry = None
    if posted is not None:
        if pages.choice is not None and posted.get("shown") != item.variant:
            item.error = translate_params(OTHER_CONTRACT, number=item.row["number"])
        elif item.form.validate():
            try:
                item.entry = item.form.entry()
            except InvalidHand as err:
                item.refuse(err)
        else:
            item.error = next((one.errors[0] for one in item.form if one.errors), None)  # type: ignore[attr-defined]
    elif formdata is None:  # shown to confirm; a posted review saves only the rows it sent
        item.entry = proposed
    prefixed(item.form, item.prefix)
    return item


def row_data(formdata: Any, prefix: str) -> MultiDict[str, str] | None:
    """A row's fields as posted, without their prefix, with the page's token; None when the row was not posted
    (a row read with certainty that Save stopped at: its form shows what was read)."""
    data: MultiDict[str, str] = MultiDict()
    for key, value in formdata.items(multi=True):
        if key.startswith(prefix):
            data.add(key[len(prefix):], value)
    if not data:
        return None
    data.setlist("csrf_token", formdata.getlist("csrf_token"))
    return data


def prefixed(form: HandForm, prefix: str) -> None:
    """Name the form's fields under the row's prefix, as the page sends them."""
    for one in form:  # type: ignore[attr-defined]
        one.name, one.id = prefix + one.name, prefix + one.id


def label_of(form: Any, one: Any, players: list[str]) -> str:
    """What a field of a hand form is about, said for a row of its own (the hand pages say it in their layout)."""
    name = one.short_name
    doubled = re.fullmatch(r"double_(\d+)_(\d+)", name)
    if doubled:
        return _("%(by)s doubles %(target)s", by=players[int(doubled[1])], target=players[int(doubled[2])])
    if name in CHOSEN_SEATS:
        return str(FIELDS[name])
    if re.fullmatch(r"place_\d", name):
        return _(PLACE_NAMES[int(name[-1])])
    counted = re.fullmatch(r"(tricks|queens|hearts|black_marias)_(\d+)", name)
    if counted:
        return _("%(field)s: %(value)s", field=players[int(counted[2])], value=FIELDS[counted[1]])
    took = re.fullmatch(r"took_(\d)", name)
    if took and hasattr(form, "teams"):
        return _("Did %(team)s take a trick?", team=form.teams[int(took[1])])
    return str(one.label.text)


class Shown(NamedTuple):
    """A field of a row's form as the review shows it: the field, what it is about, its largest value if a number."""

    field: Any
    label: str
    limit: int | None


def shown_fields(form: HandForm, players: list[str]) -> list[Shown]:
    """The fields a row's form shows, in order (its token is the page's)."""
    return [Shown(one, label_of(form, one, players),
                  next((v.max for v in one.validators if isinstance(getattr(v, "max", None), int)), None))
            for one in form if one.short_name not in ("csrf_token", *HIDDEN)]  # type: ignore[attr-defined]
