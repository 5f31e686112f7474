"""What the match page, its sheet, the evening's results and the API say of a club match changed after agreement.

The store side is club/amendments.py: each change the club's admin made to a locked match, with its reason.
Pages say each in one sentence, in the club's time zone; the API gives them as data (``state``).
"""

from __future__ import annotations

from datetime import datetime, tzinfo

from babel.dates import format_datetime
from flask_babel import get_locale, gettext as _

from ...club import results
from ...club.amendments import Amendment, amendments
from ...json_values import Json
from ...models import Club, Match

BY = "club_admin"  # who changes an agreed match: only the club's admin key can


def when(at: datetime, zone: tzinfo) -> str:
    """A time as a printed sheet says it, in the club's time zone."""
    return format_datetime(at, "d MMM yyyy HH:mm", tzinfo=zone, locale=get_locale())


def what(change: Amendment, game: str) -> str:
    """Which hand and what was done to it, as the edit history heads it (Kozyol says deal)."""
    number, deals = change.number, game == "kozyol"
    if change.action == "correct":
        return _("Deal %(n)s corrected", n=number) if deals else _("Hand %(n)s corrected", n=number)
    if change.action == "record":
        return _("Deal %(n)s recorded", n=number) if deals else _("Hand %(n)s recorded", n=number)
    if change.action == "delete":
        return _("Deal %(n)s deleted with the match", n=number) if deals else _("Hand %(n)s deleted with the match",
                                                                                   n=number)
    return _("Deal %(n)s undone", n=number) if deals else _("Hand %(n)s undone", n=number)


def sentence(change: Amendment, zone: tzinfo, game: str) -> str:
    """One change after agreement in words: by the organiser, when, which hand and what; then why."""
    said = _("Changed by the club's organiser on %(when)s, after its players agreed: %(what)s.",
             when=when(change.at, zone), what=what(change, game))
    return f"{said} {_('Reason: %(reason)s', reason=change.reason)}" if change.reason else said


def sentences(changes: list[Amendment] | tuple[Amendment, ...], club: Club | None, game: str) -> list[str]:
    """The changes to a match of this game in words, in the club's time zone."""
    zone = results.zone_info(club.time_zone if club is not None else None)
    return [sentence(change, zone, game) for change in changes]


def lines_of(match: Match) -> list[str]:
    """What a club match's page and sheet say of the changes made after its players agreed ([] for none)."""
    if match.club_id is None:
        return []
    changes = amendments(match)
    return sentences(changes, results.club_of(match), match.game) if changes else []


def state(changes: list[Amendment] | tuple[Amendment, ...]) -> list[Json]:
    """The changes after agreement as the API gives them (the AmendedAfterAgreement schema), oldest first."""
    return [{"number": change.number, "action": change.action, "at": change.at.isoformat(timespec="seconds"),
             "reason": change.reason, "by": BY} for change in changes]
