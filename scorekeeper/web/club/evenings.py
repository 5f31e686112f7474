"""A club's planned evenings in the browser: "I'm in" from the club page and from an evening's own page, the
calendar.

A phone is a member of the club once it opened that member's own link (members.py): then its answer
is the member's, and counts for the draw; the admin answers for anyone. A name picked from the roster
proves nothing and answers nothing. The club page is kept per club state; the phone's own evening card
is drawn into it on each request.
"""

from __future__ import annotations

import re
from collections.abc import Hashable
from datetime import date, datetime, timedelta, timezone
from zoneinfo import ZoneInfo

from flask import Blueprint, Response, abort, redirect, render_template, request, url_for
from flask_babel import get_locale, gettext as _
from icalendar import Calendar, Event

from ...club import evenings, results as club_results, service as clubs
from ...games.base import N_
from ...i18n import translate
from ...kept import Kept
from ...match import matches
from ...models import Club, ClubPlayer, Evening
from ...refusals import Refusal
from ..errors import error_page
from ..forms import TableForm
from . import members, phone as club_phone
from .forms import AnswerForm
from .ical_text import Text

bp = Blueprint("club_evenings", __name__, url_prefix="/c/<public_id>")
NOT_PROVEN = N_("Saying a name is not enough: open your own member link on this phone first. The club's "
                "organiser gives each member one.")
CARD = b"<!-- the phone's own evening card -->"
CARDS: Kept[Hashable, str] = Kept(1_000_000, sizeof=len)  # evening cards, per club version and member (with_card)
TOKEN = re.compile(r'(?<=name="csrf_token" type="hidden" value=")[^"]+')  # a form's token, as WTForms writes it
TOKEN_HERE = "\x00token\x00"  # where a kept card takes the phone's own token


# -- what a phone keeps ---------------------------------------------------------------------------------


def me(public_id: str) -> int | None:
    """The roster player this phone proved it is at the club (its member link), if any."""
    return members.proven_in(public_id)


# -- the club page's card ---------------------------------------------------------------------------------


def with_card(public_id: str, page: bytes | str, glance: clubs.Peek | None = None) -> bytes:
    """The club page with this phone's evening card in place of its marker.

    The card is kept per club version (every change to the roster, an evening or an answer raises it; a result
    does not, and the card shows none), the player this phone is, the language, the host and the day, with
    its forms' CSRF tokens left out; each view puts in this phone's own token. A kept club page thus costs
    one more statement (the stamp) and a string's replacement, not the roster, the attendance and a render.
    """
    body = page.encode() if isinstance(page, str) else page
    if CARD not in body:
        return body
    glance = glance or clubs.peek(public_id)
    if glance is None:
        club_phone.club_or_404(public_id)  # 404
    key = (glance.stamp.club, glance.stamp.version, me(public_id), str(get_locale()),
           request.host, request.script_root,  # its links
           club_results.day_of(datetime.now(timezone.utc), glance.time_zone))
    kept = CARDS.fetch(key, lambda: TOKEN.sub(TOKEN_HERE, card(club_phone.club_or_404(public_id))))
    return body.replace(CARD, kept.replace(TOKEN_HERE, TableForm().csrf_token.current_token).encode(), 1)


def card(club: Club) -> str:
    """The next evening: when and where, who comes, and this member's answer (or how a member proves who they are)."""
    evening = evenings.next_evening(club)
    player = members.proven(club)
    return render_template("club/_evening_card.html", club=club, evening=evening, roster=clubs.roster(club),
                           player=player, said=said_by(evening, player),
                           answers=evenings.answers(club, evening) if evening else None,
                           answer_form=AnswerForm(), webcal=webcal(club))


def said_by(evening: Evening | None, player: ClubPlayer | None) -> str | None:
    """What the member said for the evening from their own phone or through the admin: "in", "out" or None."""
    if evening is None or player is None:
        return None
    return next((row.answer for row in evenings.attendance(evening) if row.player_id == player.id and row.proven),
                None)


def webcal(club: Club) -> str:
    """The feed's address for a calendar to follow (webcal://, which phones open in their calendar)."""
    return "webcal://" + url_for("club_evenings.feed", public_id=club.public_id, _external=True).split("://", 1)[1]


@bp.post("/me")
def pick_me(public_id: str):
    """A name picked from the roster (as pages before member links offered): refused with the way to prove it."""
    club_phone.club_or_404(public_id)
    abort(error_page(403, _(NOT_PROVEN), correct_url=url_for("clubs.club", public_id=public_id),
                     correct_text=_("Open the club")))


@bp.post("/me/forget")
def forget_me(public_id: str):
    """This phone is nobody at the club any more (a shared phone, a phone lent to a friend)."""
    club = club_phone.club_or_404(public_id)
    if TableForm(request.form).validate():  # only the token
        members.keep(club, None)
    return redirect(url_for("clubs.club", public_id=public_id, _anchor="next-evening"))


@bp.post("/evenings/<int:evening_id>/answer")
def answer(public_id: str, evening_id: int):
    """I'm in, or not this time, for the player this phone is."""
    club = club_phone.club_or_404(public_id)
    evening = found(club, evening_id)
    form = AnswerForm(request.form)
    back = url_for("club_evenings.page", public_id=public_id, evening_id=evening.id) \
        if request.form.get("back") == "evening" else url_for("clubs.club", public_id=public_id, _anchor="next-evening")
    player = members.proven(club)
    if player is None:
        abort(error_page(403, _(NOT_PROVEN), correct_url=back, correct_text=_("Open the club")))
    if not form.validate():
        abort(error_page(422, _("The page was open too long; please try again."), correct_url=back,
                         correct_text=_("Open the club")))
    try:
        evenings.answer(club, evening, player.id, form.coming.data == "in", None, proven=True)
    except (Refusal, matches.Conflict) as err:
        abort(error_page(422 if isinstance(err, Refusal) else 409, translate(err.reason), correct_url=back,
                         correct_text=_("Open the club")))
    except matches.NotFound:  # the player left the roster since
        return redirect(back)
    return redirect(back)


def found(club: Club, evening_id: int) -> Evening:
    """The club's planned evening with this id, or a 404 page."""
    try:
        return evenings.evening_of(club, evening_id)
    except matches.NotFound:
        abort(error_page(404, _("There is no such evening at this club.")))


@bp.get("/evenings/<int:evening_id>")
def page(public_id: str, evening_id: int):
    """An evening's own page, which the calendar's event opens: when and where, who comes, this phone's answer
    while the evening is to come, and its results."""
    club = club_phone.club_or_404(public_id)
    evening = found(club, evening_id)
    player = members.proven(club)
    return render_template("club/planned.html", club=club, evening=evening, answers=evenings.answers(club, evening),
                           roster=clubs.roster(club), player=player, said=said_by(evening, player),
                           answer_form=AnswerForm(), to_come=evening.day >= clubs.today(club),
                           admin=club_phone.is_admin(club))


# -- the calendar -----------------------------------------------------------------------------------------


@bp.get("/evenings.ics")
def feed(public_id: str):
    """The club's evenings as an iCalendar feed, for a phone's calendar to follow."""
    club = club_phone.club_or_404(public_id)
    since = clubs.today(club) - timedelta(days=FEED_DAYS_BACK)
    body = calendar(club, evenings.planned(club, limit=FEED_MOST, since=since))
    answer = Response(body, content_type="text/calendar; charset=utf-8")
    answer.headers["Content-Disposition"] = 'inline; filename="evenings.ics"'
    return answer


UID_DOMAIN = "scorekeeper"  # the right of an event's UID: the club's public id already makes it unique
FEED_DAYS_BACK, FEED_MOST = 366, 500  # the evenings of the last year, and those to come
LASTS = timedelta(hours=3)  # an evening's length in a calendar, when only its start is known


def calendar(club: Club, planned: list[Evening]) -> bytes:
    """The evenings as iCalendar: one event each, a start in the club's zone (with its VTIMEZONE), or all day,
    linking to the evening's own page (when and where, who comes and "I'm in", then its results)."""
    feed = Calendar()
    feed.add("prodid", "-//Scorekeeper//Club evenings//EN")
    feed.add("version", "2.0")
    feed.add("calscale", "GREGORIAN")
    feed.add("x-wr-calname", Text(club.name))
    zone = ZoneInfo(club.time_zone or "UTC")
    stamp = datetime.now(timezone.utc).replace(microsecond=0)
    for evening in planned:
        event = Event()
        # The same evening has the same UID whatever address the feed was read at: not the Host header's name,
        # which a phone sets as it likes (and would make one evening two events in a calendar).
        event.add("uid", f"evening-{evening.id}-{club.public_id}@{UID_DOMAIN}")
        event.add("dtstamp", stamp)
        if evening.starts_at is None:
            event.add("dtstart", evening.day)
            event.add("dtend", evening.day + timedelta(days=1))
        else:
            event.add("dtstart", datetime.combine(evening.day, evening.starts_at, tzinfo=zone))
            event.add("duration", LASTS)
        event.add("summary", Text(f"{club.name} · {evening.name}" if evening.name else club.name))
        if evening.place:
            event.add("location", Text(evening.place))
        if evening.note:
            event.add("description", Text(evening.note))
        event.add("url", url_for("club_evenings.page", public_id=club.public_id, evening_id=evening.id,
                                 _external=True))
        feed.add_component(event)
    if planned and club.time_zone:
        feed.add_missing_timezones(first_date=date(planned[0].day.year - 1, 1, 1),
                                   last_date=date(planned[-1].day.year + 2, 1, 1))
    return feed.to_ical()
