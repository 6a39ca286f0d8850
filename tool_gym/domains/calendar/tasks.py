"""Hidden-intent tasks of the calendar domain (meetings, invitations, rooms, reminders):
the constraint samplers and ``TASKS``, the domain's
:class:`~tool_gym.core.taskkit.RuleTaskKit`. Types, descriptions and claims:
``docs/calendar-tasks.md``.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator

from ...core.actions import ToolCall
from ...core.taskkit import RuleTaskKit, SampleContext, answer_steps, join_words
from ...core.sampler_parts import by_name, claimed, identify_by, proposed_write
from ...core.task_model import Constraint, Description, Expectation, Refusal
from .generate import LAST_DAY, NOW, PROJECTS, TOPICS

#: Words that name why the request is refused (any one addresses it; see ``Refusal.about``).
_NOT_ORGANIZER_WORDS = (
    "organizer", "organiser", "organizers", "organisers", "organized", "organised",
    "organizing", "organising", "host", "hosted", "owner", "owns", "created",
    "creator", "invitee", "invited", "invitation", "attendee", "decline")
_PAST_WORDS = (
    "past", "already happened", "happened", "took place", "ended", "already over",
    "is over", "was over", "in the past", "already passed", "passed", "earlier", "previous")


__all__ = ["TASKS", "policy_violations", "date_words", "time_words"]

#: Meetings of "upcoming" needs start on or after this day (never today: no edge cases).
FUTURE = "2025-06-03"
#: Meetings of "past" needs ended before this instant.
PAST = "2025-06-01"
ASK = ("I can help with that. First, could you please give me the email address of your "
       "account so that I can verify your identity?")

_EVENT_WRITES = ("reschedule_event", "cancel_event", "add_attendee", "remove_attendee",
                 "book_room", "respond_to_invitation", "set_reminder")


# ------------------------------------------------------------------------- wording


def date_words(date: str) -> str:
    """'2025-06-05' -> 'Thursday, June 5'."""
    d = dt.date.fromisoformat(date[:10])
    return f"{d:%A}, {d:%B} {d.day}"


def time_words(stamp: str) -> str:
    """'2025-06-05 14:30' or '14:30' -> '2:30 PM'."""
    hh, mm = map(int, stamp[-5:].split(":"))
    suffix = "AM" if hh < 12 else "PM"
    return f"{(hh - 1) % 12 + 1}:{mm:02d} {suffix}"


def date_terms(date: str) -> tuple[str, ...]:
    d = dt.date.fromisoformat(date[:10])
    return (d.isoformat(), f"{d:%B} {d.day}", f"{d:%b} {d.day}", f"{d.day} {d:%B}",
            f"{d.month}/{d.day}")


def time_terms(stamp: str) -> tuple[str, ...]:
    hh, mm = map(int, stamp[-5:].split(":"))
    h12 = (hh - 1) % 12 + 1
    ampm = "am" if hh < 12 else "pm"
    terms = [f"{hh:02d}:{mm:02d}", f"{hh}:{mm:02d}", f"{h12}:{mm:02d} {ampm}",
             f"{h12}:{mm:02d}{ampm}"]
    if mm == 0:
        terms += [f"{h12} {ampm}", f"{h12}{ampm}"]
    return tuple(terms)


def _minutes_words(minutes: int) -> str:
    if minutes == 1440:
        return "one day"
    if minutes == 60:
        return "one hour"
    return f"{minutes} minutes"


def _minutes_terms(minutes: int) -> tuple[str, ...]:
    if minutes == 1440:
        return ("1440 minutes", "one day", "1 day", "a day", "24 hours")
    if minutes == 60:
        return ("60 minutes", "one hour", "1 hour", "an hour")
    return (f"{minutes} minutes", f"{minutes} min")


_METHOD_WORDS = {"popup": "desktop popup", "push": "push notification on my phone"}
_METHOD_TERMS = {"popup": ("popup", "pop-up"), "push": ("push",)}
_RESPONSE_VERB = {"accepted": "accept", "declined": "decline", "tentative": "tentatively accept"}
_RESPONSE_TERMS = {"accepted": ("accept",), "declined": ("decline",),
                   "tentative": ("tentative", "maybe")}


def _clock(minutes: int) -> str:
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def _weekdays(first: str, last: dt.date) -> list[str]:
    d, out = dt.date.fromisoformat(first), []
    while d <= last:
        if d.weekday() < 5:
            out.append(d.isoformat())
        d += dt.timedelta(days=1)
    return out


UPCOMING_DAYS = _weekdays(FUTURE, LAST_DAY)


# --------------------------------------------------------------------- descriptions

_EVENT_QUERY = ("SELECT e.event_id FROM events e JOIN attendees a ON a.event_id = e.event_id "
                "WHERE a.user_id = ? AND e.title = ? AND substr(e.start, 1, 10) = ?")


def describe_event(ctx: SampleContext, event_id: str, title: str, start: str) -> Description | None:
    """A meeting the user attends, by title and date (and start time when needed)."""
    date = start[:10]
    text = f'the "{title}" meeting on {date_words(date)}'
    found = ctx.describe("event", text, {"title": title, "date": date}, event_id,
                         _EVENT_QUERY, (ctx.user_id, title, date))
    if found is None:
        found = ctx.describe("event", f"{text} at {time_words(start)}",
                             {"title": title, "date": date, "time": start[11:]}, event_id,
                             _EVENT_QUERY + " AND substr(e.start, 12, 5) = ?",
                             (ctx.user_id, title, date, start[11:]))
    return found


def describe_person(ctx: SampleContext, user_id: str, name: str) -> Description | None:
    return ctx.describe("user", name, {"name": name}, user_id,
                        "SELECT user_id FROM users WHERE name = ?", (name,))


def describe_room(ctx: SampleContext, room_id: str, name: str) -> Description | None:
    return ctx.describe("room", f"the {name} room", {"name": name}, room_id,
                        "SELECT room_id FROM rooms WHERE name = ?", (name,))


# ----------------------------------------------------------------------- helpers

_MINE = ("SELECT e.event_id, e.title, e.start, e.end, e.room_id, e.series_id, e.organizer_id "
         "FROM events e JOIN attendees a ON a.event_id = e.event_id WHERE a.user_id = ? "
         "AND e.status = 'confirmed' ")


def _events(ctx: SampleContext, where: str, params: tuple = ()) -> list[tuple]:
    return ctx.shuffled(ctx.rows(_MINE + where + " ORDER BY e.event_id", (ctx.user_id, *params)))


def _room_free(ctx: SampleContext, room_id: str, start: str, end: str,
               ignore: str | None = None) -> bool:
    return not ctx.rows("SELECT 1 FROM events WHERE room_id = ? AND status = 'confirmed' AND "
                        "start < ? AND end > ? AND event_id IS NOT ? LIMIT 1",
                        (room_id, end, start, ignore))


def _free_rooms(ctx: SampleContext, capacity: int, start: str, end: str) -> list[tuple]:
    """(room_id, name) of the rooms for ``capacity`` people free from ``start`` to ``end``."""
    return [r for r in ctx.rows("SELECT room_id, name FROM rooms WHERE capacity >= ? "
                                "ORDER BY room_id", (capacity,))
            if _room_free(ctx, r[0], start, end)]


def _search(ctx: SampleContext, title: str) -> ToolCall:
    return ToolCall("search_events", {"user_id": ctx.user_id, "query": title})


def _event_reads(ctx: SampleContext, event_id: str, title: str) -> tuple[ToolCall, ToolCall]:
    return _search(ctx, title), ToolCall("get_event", {"event_id": event_id})


def _unchanged(event_id: str, start: str, end: str) -> Expectation:
    return Expectation("SELECT status, start, end FROM events WHERE event_id = ?",
                       (event_id,), (("confirmed", start, end),))


def _claim_event(ctx: SampleContext, event_id: str, title: str, start: str, *more) -> bool:
    return ctx.claim(event_id, ("title-date", title, start[:10]), *more)


def _claimed_events(ctx: SampleContext, where: str, params: tuple,
                    usable: Callable[[tuple], bool] = lambda row: True,
                    limit: int = 6) -> Iterator[tuple[tuple, Description]]:
    """Up to ``limit`` of the user's meetings matching ``where`` (shuffled); the ``usable``
    ones described and claimed: (row of :data:`_MINE`, description)."""
    return claimed(ctx, _events(ctx, where, params)[:limit],
                   lambda row: describe_event(ctx, *row[:3]),
                   lambda row: (row[0], ("title-date", row[1], row[2][:10])), usable)


def _name(ctx: SampleContext, user_id: str) -> str:
    return ctx.rows("SELECT name FROM users WHERE user_id = ?", (user_id,))[0][0]


def _attendee_rows(ctx: SampleContext, event_id: str) -> list[tuple]:
    return ctx.rows("SELECT user_id, rsvp FROM attendees WHERE event_id = ? ORDER BY user_id",
                    (event_id,))


def _colleague(ctx: SampleContext, exclude: set[str]) -> tuple[str, str] | None:
    """A colleague (id, name), preferably of the user's department, not in ``exclude``."""
    dept, = ctx.rows("SELECT department FROM users WHERE user_id = ?", (ctx.user_id,))[0]
    same = ctx.rows("SELECT user_id, name FROM users WHERE department = ? AND user_id != ? "
                    "ORDER BY user_id", (dept, ctx.user_id))
    pool = [r for r in same if r[0] not in exclude]
    if not pool or ctx.rng.random() < 0.3:
        pool = [r for r in ctx.rows("SELECT user_id, name FROM users WHERE user_id != ? "
                                    "ORDER BY user_id", (ctx.user_id,)) if r[0] not in exclude]
    return ctx.pick(pool) if pool else None


# ----------------------------------------------------------------------- samplers


def schedule_meeting(ctx: SampleContext) -> Constraint | None:
    invitees: list[tuple[str, str]] = []
    for _ in range(int(ctx.rng.integers(1, 4))):
        person = _colleague(ctx, {ctx.user_id, *(u for u, _ in invitees)})
        if person is not None:
            invitees.append(person)
    refs = {}
    for i, (uid, name) in enumerate(invitees):
        ref = describe_person(ctx, uid, name)
        if ref is None:
            return None
        refs[f"invitee_{i}"] = ref
    day = ctx.pick(UPCOMING_DAYS)
    begin = int(ctx.pick(range(9 * 60, 17 * 60, 30)))
    start, end = f"{day} {_clock(begin)}", f"{day} {_clock(begin + ctx.pick([30, 60]))}"
    rooms = _free_rooms(ctx, len(invitees) + 1, start, end)
    if not rooms:
        return None
    room_id, room_name = ctx.pick(rooms)
    title = f"{ctx.pick(PROJECTS)} {ctx.pick(TOPICS)}"
    if ctx.rows("SELECT 1 FROM events e JOIN attendees a ON a.event_id = e.event_id "
                "WHERE a.user_id = ? AND e.title = ? LIMIT 1", (ctx.user_id, title)):
        return None
    room_ref = describe_room(ctx, room_id, room_name)
    if room_ref is None or not ctx.claim(("room", room_id), ("title", title),
                                         ("title-date", title, day)):
        return None
    refs["room"] = room_ref
    names = [n for _, n in invitees]
    who = join_words(names)
    when = f"{date_words(day)} from {time_words(start)} to {time_words(end)}"
    ids = sorted(u for u, _ in invitees)
    call = ToolCall("create_event", {"organizer_id": ctx.user_id, "title": title, "start": start,
                                     "end": end, "attendee_ids": ids, "room_id": room_id})
    reads = [ToolCall("search_directory", {"query": n}) for n in names]
    reads += [ToolCall("list_rooms", {"min_capacity": len(invitees) + 1}),
              ToolCall("check_room_availability", {"room_id": room_id, "start": start,
                                                   "end": end})]
    attendees = sorted([(ctx.user_id, "accepted")] + [(u, "needs_action") for u in ids])
    return Constraint(
        "schedule_meeting", dict(call.arguments), refs=refs,
        writes=(("create_event", ctx.user_id),),
        confirm_terms=((title,), date_terms(day), time_terms(start), (room_name,),
                       *((n, n.split()[0]) for n in names)),
        say=(f'Please set up a meeting called "{title}" on {when} in the {room_name} room, '
             f"and invite {who}.",
             f'I need a new meeting, "{title}", with {who}. Make it {when}, in the '
             f"{room_name} room.",
             f'Could you book the {room_name} room on {when} for a meeting named "{title}" '
             f"with {who}?"),
        solution=proposed_write(reads, f'I will create the meeting "{title}" on {when} in the '
                                       f"{room_name} room, and invite {who}.", call),
        expect=(Expectation("SELECT start, end, room_id, status FROM events WHERE "
                            "organizer_id = ? AND title = ?", (ctx.user_id, title),
                            ((start, end, room_id, "confirmed"),)),
                Expectation("SELECT a.user_id, a.rsvp FROM attendees a JOIN events e ON "
                            "e.event_id = a.event_id WHERE e.organizer_id = ? AND e.title = ? "
                            "ORDER BY a.user_id", (ctx.user_id, title), tuple(attendees))))


def reschedule_meeting(ctx: SampleContext) -> Constraint | None:
    for event_id, title, start, end, room, _, _ in _events(
            ctx, "AND e.organizer_id = a.user_id AND e.series_id IS NULL AND e.start >= ?",
            (FUTURE,))[:6]:
        length = _minutes(end) - _minutes(start)
        day = ctx.pick(UPCOMING_DAYS)
        begin = int(ctx.pick(range(9 * 60, 18 * 60 - length + 1, 30)))
        new_start, new_end = f"{day} {_clock(begin)}", f"{day} {_clock(begin + length)}"
        if new_start == start or (room and not _room_free(ctx, room, new_start, new_end, event_id)):
            continue
        ref = describe_event(ctx, event_id, title, start)
        if ref is None or not _claim_event(ctx, event_id, title, start, ("title-date", title, day),
                                           *((("room", room),) if room else ())):
            continue
        when = f"{date_words(day)} from {time_words(new_start)} to {time_words(new_end)}"
        call = ToolCall("reschedule_event", {"event_id": event_id, "start": new_start,
                                             "end": new_end})
        reads = [_search(ctx, title)]
        if room:
            reads.append(ToolCall("check_room_availability", {
                "room_id": room, "start": new_start, "end": new_end}))
        return Constraint(
            "reschedule_meeting", dict(call.arguments), refs={"event": ref},
            writes=(("reschedule_event", event_id),),
            confirm_terms=((title,), date_terms(day), time_terms(new_start)),
            say=(f"Please move {ref.text} to {when}.",
                 f"Something came up: can you reschedule {ref.text}? The new time is {when}.",
                 f"I need {ref.text} moved to {when}, please."),
            solution=proposed_write(reads, f'I will move "{title}" from {date_words(start)} at '
                                           f"{time_words(start)} to {when}.", call),
            expect=(Expectation("SELECT start, end, room_id, status FROM events WHERE "
                                "event_id = ?", (event_id,),
                                ((new_start, new_end, room, "confirmed"),)),))
    return None


def _minutes(stamp: str) -> int:
    hh, mm = map(int, stamp[-5:].split(":"))
    return hh * 60 + mm


def cancel_meeting(ctx: SampleContext) -> Constraint | None:
    for event_id, title, start, _, _, series, _ in _events(
            ctx, "AND e.organizer_id = a.user_id AND e.start >= ?", (FUTURE,))[:6]:
        ref = describe_event(ctx, event_id, title, start)
        if ref is None or not _claim_event(ctx, event_id, title, start,
                                           *((("series", series),) if series else ())):
            continue
        call = ToolCall("cancel_event", {"event_id": event_id})
        if series:
            rows = ctx.rows("SELECT event_id, status FROM events WHERE series_id = ? "
                            "ORDER BY event_id", (series,))
            expect = Expectation("SELECT event_id, status FROM events WHERE series_id = ? "
                                 "ORDER BY event_id", (series,),
                                 tuple((e, "cancelled" if e == event_id else s) for e, s in rows))
            only = " Only that one occurrence, please; keep the rest of the series."
        else:
            expect = Expectation("SELECT status FROM events WHERE event_id = ?", (event_id,),
                                 (("cancelled",),))
            only = ""
        return Constraint(
            "cancel_meeting", dict(call.arguments), refs={"event": ref},
            writes=(("cancel_event", event_id),),
            confirm_terms=((title,), date_terms(start), ("cancel",)),
            say=(f"Please cancel {ref.text}.{only}",
                 f"We don't need {ref.text} anymore, can you cancel it?{only}",
                 f"I'd like to call off {ref.text}.{only}"),
            solution=proposed_write(
                (_search(ctx, title),),
                f'I will cancel "{title}" on {date_words(start)} at {time_words(start)}'
                + (" (only this occurrence)." if series else "."), call),
            expect=(expect,))
    return None


def rsvp_invitation(ctx: SampleContext) -> Constraint | None:
    for event_id, title, start, _, _, _, organizer in _events(
            ctx, "AND e.organizer_id != a.user_id AND a.rsvp IN ('needs_action', 'tentative') "
                 "AND e.start >= ?", (FUTURE,))[:6]:
        current, = ctx.rows("SELECT rsvp FROM attendees WHERE event_id = ? AND user_id = ?",
                            (event_id, ctx.user_id))[0]
        response = ctx.pick([r for r in ("accepted", "declined", "tentative") if r != current])
        ref = describe_event(ctx, event_id, title, start)
        if ref is None or not _claim_event(ctx, event_id, title, start):
            continue
        who = _name(ctx, organizer)
        verb = _RESPONSE_VERB[response]
        call = ToolCall("respond_to_invitation", {"event_id": event_id, "user_id": ctx.user_id,
                                                  "response": response})
        return Constraint(
            "rsvp_invitation", dict(call.arguments), refs={"event": ref},
            writes=(("respond_to_invitation", event_id),),
            confirm_terms=((title,), _RESPONSE_TERMS[response]),
            say=(f"{who} invited me to {ref.text}. Please {verb} the invitation for me.",
                 f"Can you {verb} my invitation to {ref.text}? {who} sent it.",
                 f"About {ref.text} from {who}: I want to {verb} it."),
            solution=proposed_write((_search(ctx, title),),
                                    f'I will {verb} your invitation to "{title}" on '
                                    f"{date_words(start)}, organized by {who}.", call),
            expect=(Expectation("SELECT rsvp FROM attendees WHERE event_id = ? AND user_id = ?",
                                (event_id, ctx.user_id), ((response,),)),))
    return None


def add_reminder(ctx: SampleContext) -> Constraint | None:
    for (event_id, title, start, *_), ref in _claimed_events(
            ctx, "AND e.start >= ? AND NOT EXISTS (SELECT 1 FROM reminders r WHERE "
                 "r.event_id = e.event_id AND r.user_id = a.user_id)", (FUTURE,)):
        minutes = int(ctx.pick([10, 15, 30, 60, 1440]))
        method = ctx.pick(["popup", "push"])
        before = f"{_minutes_words(minutes)} before"
        how = _METHOD_WORDS[method]
        call = ToolCall("set_reminder", {"event_id": event_id, "user_id": ctx.user_id,
                                         "minutes_before": minutes, "method": method})
        return Constraint(
            "add_reminder", dict(call.arguments), refs={"event": ref},
            writes=(("set_reminder", event_id),),
            confirm_terms=((title,), _minutes_terms(minutes), _METHOD_TERMS[method]),
            say=(f"Please remind me {before} {ref.text}, with a {how}.",
                 f"I keep forgetting {ref.text}. Can you set a {how} reminder {before} it?",
                 f"Add a reminder for {ref.text}: {before}, as a {how}."),
            solution=proposed_write(
                (_search(ctx, title),
                 ToolCall("list_reminders", {"user_id": ctx.user_id, "event_id": event_id})),
                f'I will add a {how.replace(" on my phone", "")} reminder {before} "{title}" on '
                f"{date_words(start)}.", call),
            expect=(Expectation("SELECT minutes_before, method FROM reminders WHERE "
                                "event_id = ? AND user_id = ? ORDER BY reminder_id",
                                (event_id, ctx.user_id), ((minutes, method),)),))
    return None


def invite_colleague(ctx: SampleContext) -> Constraint | None:
    for event_id, title, start, _, room, _, _ in _events(
            ctx, "AND e.organizer_id = a.user_id AND e.start >= ?", (FUTURE,))[:6]:
        rows = _attendee_rows(ctx, event_id)
        if room and len(rows) + 1 > ctx.rows("SELECT capacity FROM rooms WHERE room_id = ?",
                                             (room,))[0][0]:
            continue
        person = _colleague(ctx, {u for u, _ in rows})
        if person is None:
            continue
        uid, name = person
        ref = describe_event(ctx, event_id, title, start)
        who = describe_person(ctx, uid, name)
        if ref is None or who is None or not _claim_event(ctx, event_id, title, start):
            continue
        call = ToolCall("add_attendee", {"event_id": event_id, "user_id": uid})
        return Constraint(
            "invite_colleague", dict(call.arguments), refs={"event": ref, "invitee": who},
            writes=(("add_attendee", event_id),),
            confirm_terms=((title,), (name, name.split()[0])),
            say=(f"Please add {name} to {ref.text}.",
                 f"Could you invite {name} to {ref.text} as well?",
                 f"{name} should join {ref.text}; please send an invitation."),
            solution=proposed_write(
                (_search(ctx, title), ToolCall("search_directory", {"query": name})),
                f'I will invite {name} to "{title}" on {date_words(start)}.', call),
            expect=(Expectation("SELECT user_id, rsvp FROM attendees WHERE event_id = ? "
                                "ORDER BY user_id", (event_id,),
                                tuple(sorted(rows + [(uid, "needs_action")]))),))
    return None


def book_room(ctx: SampleContext) -> Constraint | None:
    for event_id, title, start, end, _, _, _ in _events(
            ctx, "AND e.organizer_id = a.user_id AND e.room_id IS NULL AND e.start >= ?",
            (FUTURE,))[:6]:
        people = len(_attendee_rows(ctx, event_id))
        if people < 2:
            continue
        rooms = _free_rooms(ctx, people, start, end)
        if not rooms:
            continue
        room_id, room_name = ctx.pick(rooms)
        ref = describe_event(ctx, event_id, title, start)
        room_ref = describe_room(ctx, room_id, room_name)
        if ref is None or room_ref is None or not _claim_event(ctx, event_id, title, start,
                                                               ("room", room_id)):
            continue
        call = ToolCall("book_room", {"event_id": event_id, "room_id": room_id})
        return Constraint(
            "book_room", dict(call.arguments), refs={"event": ref, "room": room_ref},
            writes=(("book_room", event_id),),
            confirm_terms=((title,), (room_name,)),
            say=(f"Please book the {room_name} room for {ref.text}.",
                 f"{ref.text[0].upper()}{ref.text[1:]} has no room yet. Can you get us the "
                 f"{room_name} room?",
                 f"Could you reserve the {room_name} room for {ref.text}?"),
            solution=proposed_write(
                (_search(ctx, title), ToolCall("list_rooms", {"min_capacity": people}),
                 ToolCall("check_room_availability",
                          {"room_id": room_id, "start": start, "end": end})),
                f'I will book the {room_name} room for "{title}" on {date_words(start)}, '
                f"{time_words(start)} to {time_words(end)}.", call),
            expect=(Expectation("SELECT room_id FROM events WHERE event_id = ?", (event_id,),
                                ((room_id,),)),))
    return None


def info_event_room(ctx: SampleContext) -> Constraint | None:
    for (event_id, title, start, _, room, *_), ref in _claimed_events(
            ctx, "AND e.room_id IS NOT NULL AND e.start >= ?", (FUTURE,)):
        name, building, floor = ctx.rows("SELECT name, building, floor FROM rooms WHERE "
                                         "room_id = ?", (room,))[0]
        return Constraint(
            "info_event_room", {"event_id": event_id}, refs={"event": ref}, answer=name,
            say=(f"Which room is {ref.text} in?",
                 f"Where is {ref.text} taking place?",
                 f"I forgot the room for {ref.text}. Can you tell me?"),
            solution=answer_steps(_event_reads(ctx, event_id, title),
                                  f'"{title}" on {date_words(start)} is in the {name} room '
                                  f"({building} building)."))
    return None


def info_accepted_count(ctx: SampleContext) -> Constraint | None:
    def accepted(event_id: str) -> int:
        rows = _attendee_rows(ctx, event_id)
        count = sum(1 for u, r in rows if u != ctx.user_id and r == "accepted")
        return count if len(rows) >= 3 else 0

    for (event_id, title, *_), ref in _claimed_events(
            ctx, "AND e.organizer_id = a.user_id AND e.start >= ?", (FUTURE,),
            usable=lambda row: accepted(row[0]) >= 1, limit=8):
        count = accepted(event_id)
        people = "person has" if count == 1 else "people have"
        return Constraint(
            "info_accepted_count", {"event_id": event_id}, refs={"event": ref},
            answer=str(count), evidence=(("get_event", event_id),),
            say=(f"How many people have accepted my invitation to {ref.text} so far?",
                 f"For {ref.text}, how many of the invitees said yes?",
                 f"Can you check how many acceptances I have for {ref.text}?"),
            solution=answer_steps(_event_reads(ctx, event_id, title),
                                  f"So far {count} {people} accepted your invitation to "
                                  f'"{title}".'))
    return None


def refuse_cancel_not_organizer(ctx: SampleContext) -> Constraint | None:
    for (event_id, title, start, end, _, _, organizer), ref in _claimed_events(
            ctx, "AND e.organizer_id != a.user_id AND e.start >= ?", (FUTURE,)):
        who = _name(ctx, organizer)
        return Constraint(
            "refuse_cancel_not_organizer", {"event_id": event_id}, refs={"event": ref},
            answer="organizer",
            refusal=Refusal((event_id,), about=(event_id, title, who, *_NOT_ORGANIZER_WORDS)),
            say=(f"Please cancel {ref.text}. I was invited to it, and it's pointless.",
                 f"Can you call off {ref.text} for everyone? I'm one of the invitees.",
                 f"I want {ref.text} cancelled; it's on my calendar as an invitation."),
            solution=answer_steps(_event_reads(ctx, event_id, title),
                                  f'I\'m sorry, but I cannot cancel "{title}": only its '
                                  f"organizer, {who}, can cancel it. If it helps, I can decline "
                                  f"the invitation for you instead."),
            expect=(_unchanged(event_id, start, end),))
    return None


def refuse_change_past_event(ctx: SampleContext) -> Constraint | None:
    for (event_id, title, start, end, *_), ref in _claimed_events(
            ctx, "AND e.organizer_id = a.user_id AND e.end < ?", (PAST,)):
        return Constraint(
            "refuse_change_past_event", {"event_id": event_id}, refs={"event": ref},
            answer="past",
            refusal=Refusal((event_id,), about=(event_id, title, *_PAST_WORDS)),
            say=(f"Please cancel {ref.text}; I'd rather it weren't on my calendar.",
                 f"Can you delete {ref.text} from my calendar by cancelling it?",
                 f"I want {ref.text} cancelled, please."),
            solution=answer_steps((_search(ctx, title),),
                                  f'I\'m sorry, but I cannot cancel "{title}": it took place on '
                                  f"{date_words(start)}, which is in the past, and past "
                                  f"meetings cannot be changed or cancelled."),
            expect=(_unchanged(event_id, start, end),))
    return None


# ------------------------------------------------------------------------- policy


def policy_violations(db, tool: str, arguments: dict) -> list[str]:
    """Policy rules a write would break, judged on the state before it runs: changing,
    cancelling or answering a meeting that has already started (``policy:past_event``)."""
    if tool not in _EVENT_WRITES:
        return []
    event_id = arguments.get("event_id")
    if not isinstance(event_id, str):
        return []
    row = db.execute("SELECT start FROM events WHERE event_id = ?", (event_id,)).fetchone()
    if row is not None and row[0] < NOW:
        return ["policy:past_event"]
    return []


_BY_EVENT = ("SELECT organizer_id FROM events WHERE event_id = ?", "event_id")
_BY_USER = ("SELECT user_id FROM users WHERE user_id = ?", "user_id")

TASKS = RuleTaskKit(
    "calendar",
    by_name(schedule_meeting, reschedule_meeting, cancel_meeting, rsvp_invitation, add_reminder,
            invite_colleague, book_room, info_event_room, info_accepted_count,
            refuse_cancel_not_organizer, refuse_change_past_event),
    identify=lambda ctx: identify_by(ctx, "email"),
    auth_call=lambda d: ToolCall("find_user_by_email", {"email": d.fields["email"]}),
    auth_tools=("find_user_by_email",),
    owners={
        "create_event": ("SELECT user_id FROM users WHERE user_id = ?", "organizer_id"),
        "reschedule_event": _BY_EVENT, "cancel_event": _BY_EVENT, "add_attendee": _BY_EVENT,
        "remove_attendee": _BY_EVENT, "book_room": _BY_EVENT,
        "respond_to_invitation": _BY_USER, "set_reminder": _BY_USER,
        "delete_reminder": ("SELECT user_id FROM reminders WHERE reminder_id = ?", "reminder_id"),
    },
    ask_identity=ASK,
    identity_phrases=("My email is {email}.", "It's {email}.", "Sure, it's {email}."),
    policy_violations=policy_violations,
)
