"""The tools of the calendar domain: a company's shared calendar service.

Reads find people, calendars, meetings, rooms and reminders; writes create, move and
cancel meetings, manage invitations and RSVPs, book rooms and set reminders. The tools
enforce the data rules (no meeting starts in the past when it is created or moved, no room
is double-booked or over capacity, the organizer stays an attendee); the rules that depend
on who is asking (only the organizer may cancel, a meeting that has started is not
changed) are policy, checked by the task kit's ``policy_violations``.

Times are ``YYYY-MM-DD HH:MM`` (a ``T`` between date and time is accepted too), office
local time; the clock is :data:`NOW`.
"""

from __future__ import annotations

import datetime as dt
import sqlite3
from typing import Annotated, Literal

from ...core.common_tools import human_transfer_tool
from ...core.ids import next_serial_id
from ...core.rows import fetch_record, fetch_row, find_id
from ...core.tools import Category, Entity, Quotas, ToolError, tool
from .generate import NOW

#: Growth bounds of one sandbox (see :class:`~tool_gym.core.tools.Quotas`): templates hold
#: about 2,000 events and 8,000 attendees.
QUOTAS = Quotas(rows={"events": 10_000, "attendees": 50_000, "reminders": 10_000,
                      "series": 2_000})

UserId = Annotated[str, Entity("user_id")]
CalendarId = Annotated[str, Entity("calendar_id")]
EventId = Annotated[str, Entity("event_id")]
RoomId = Annotated[str, Entity("room_id")]
ReminderId = Annotated[str, Entity("reminder_id")]

RSVPS = ("needs_action", "accepted", "declined", "tentative")
EVENT_RETURNS = {"event_id": "event_id", "organizer_id": "user_id", "calendar_id": "calendar_id",
                 "room_id": "room_id", "attendees.user_id": "user_id"}

# --------------------------------------------------------------------------- helpers


def parse_time(value: str, what: str = "time") -> str:
    """``value`` as ``YYYY-MM-DD HH:MM``, or a ToolError naming the expected format."""
    text = value.strip().replace("T", " ")
    try:
        stamp = dt.datetime.strptime(text, "%Y-%m-%d %H:%M")
    except ValueError:
        raise ToolError(f"invalid {what} {value[:40]!r}: use the format YYYY-MM-DD HH:MM") \
            from None
    return stamp.strftime("%Y-%m-%d %H:%M")


def parse_date(value: str, what: str = "date") -> str:
    try:
        return dt.date.fromisoformat(value.strip()).isoformat()
    except ValueError:
        raise ToolError(f"invalid {what} {value[:40]!r}: use the format YYYY-MM-DD") from None


def _user(db: sqlite3.Connection, user_id: str) -> dict:
    row = fetch_row(db, "SELECT user_id, name, email, department, title FROM users "
                    "WHERE user_id = ?", (user_id,), f"user not found: {user_id[:60]!r}")
    return dict(zip(("user_id", "name", "email", "department", "title"), row))


def _room(db: sqlite3.Connection, room_id: str) -> dict:
    row = fetch_row(db, "SELECT room_id, name, building, floor, capacity, has_video FROM rooms "
                    "WHERE room_id = ?", (room_id,), f"room not found: {room_id[:60]!r}")
    room = dict(zip(("room_id", "name", "building", "floor", "capacity", "has_video"), row))
    room["has_video"] = bool(room["has_video"])
    return room


_EVENT_COLUMNS = ("event_id", "calendar_id", "organizer_id", "title", "description", "start",
                  "end", "room_id", "status", "series_id")


def _event_row(db: sqlite3.Connection, event_id: str) -> dict:
    return fetch_record(db, "events", _EVENT_COLUMNS, "event_id", event_id,
                        f"event not found: {event_id[:60]!r}")


def _confirmed(db: sqlite3.Connection, event_id: str) -> dict:
    event = _event_row(db, event_id)
    if event["status"] != "confirmed":
        raise ToolError(f"event {event_id} is cancelled")
    return event


def _attendees(db: sqlite3.Connection, event_id: str) -> list[dict]:
    return [{"user_id": u, "name": n, "email": e, "rsvp": r} for u, n, e, r in db.execute(
        "SELECT a.user_id, u.name, u.email, a.rsvp FROM attendees a JOIN users u "
        "ON u.user_id = a.user_id WHERE a.event_id = ? ORDER BY a.user_id", (event_id,))]


def _event(db: sqlite3.Connection, event_id: str) -> dict:
    """Full details of an event: room, organizer, attendees with RSVP, series."""
    event = _event_row(db, event_id)
    event["organizer_name"] = db.execute("SELECT name FROM users WHERE user_id = ?",
                                         (event["organizer_id"],)).fetchone()[0]
    event["room_name"] = None
    if event["room_id"] is not None:
        event["room_name"] = _room(db, event["room_id"])["name"]
    event["recurrence"] = None
    if event["series_id"] is not None:
        frequency, = db.execute("SELECT frequency FROM series WHERE series_id = ?",
                                (event["series_id"],)).fetchone()
        event["recurrence"] = frequency
    event["attendees"] = _attendees(db, event_id)
    return event


def _summary(row: tuple, user_id: str) -> dict:
    (event_id, title, start, end, status, organizer, organizer_name, room_id, room, series,
     rsvp) = row
    return {"event_id": event_id, "title": title, "start": start, "end": end, "status": status,
            "organizer_id": organizer, "organizer_name": organizer_name, "room_id": room_id,
            "room_name": room, "recurring": series is not None, "my_rsvp": rsvp,
            "role": "organizer" if organizer == user_id else "attendee"}


_VISIBLE = (
    "SELECT e.event_id, e.title, e.start, e.end, e.status, e.organizer_id, o.name, e.room_id, "
    "r.name, e.series_id, a.rsvp FROM events e JOIN attendees a ON a.event_id = e.event_id "
    "JOIN users o ON o.user_id = e.organizer_id LEFT JOIN rooms r ON r.room_id = e.room_id "
    "WHERE a.user_id = ? ")


def _conflicts(db: sqlite3.Connection, room_id: str, start: str, end: str,
               ignore: str | None = None) -> list[dict]:
    return [{"event_id": e, "title": t, "start": s, "end": f} for e, t, s, f in db.execute(
        "SELECT event_id, title, start, end FROM events WHERE room_id = ? AND status = "
        "'confirmed' AND start < ? AND end > ? AND event_id IS NOT ? ORDER BY start",
        (room_id, end, start, ignore))]


def _check_slot(start: str, end: str) -> tuple[str, str]:
    start, end = parse_time(start, "start"), parse_time(end, "end")
    if end <= start:
        raise ToolError("the end must be after the start")
    if start < NOW:
        raise ToolError(f"cannot schedule an event in the past (now is {NOW})")
    if start[:10] != end[:10]:
        raise ToolError("an event must start and end on the same day")
    return start, end


def _check_room(db: sqlite3.Connection, room_id: str, start: str, end: str, people: int,
                ignore: str | None = None) -> dict:
    room = _room(db, room_id)
    if people > room["capacity"]:
        raise ToolError(f"room {room['name']} seats {room['capacity']}, but the event has "
                        f"{people} attendees")
    clash = _conflicts(db, room_id, start, end, ignore)
    if clash:
        raise ToolError(f"room {room['name']} is already booked from {clash[0]['start']} to "
                        f"{clash[0]['end']}")
    return room


def _count(db: sqlite3.Connection, event_id: str) -> int:
    return db.execute("SELECT count(*) FROM attendees WHERE event_id = ?",
                      (event_id,)).fetchone()[0]


# ------------------------------------------------------------------------------ READ


@tool(Category.READ, returns={"user_id": UserId})
def find_user_by_email(db, email: str) -> dict:
    """Find a user by their email address. Use it first, to authenticate the user.

    Args:
        email: The user's email address, such as 'ada.moss@northwind-labs.com'.
    """
    return _user(db, find_id(db, "users", "user_id", "email", email.strip(),
                             "no user with this email address"))


@tool(Category.READ, returns={"user_id": UserId, "calendars.calendar_id": CalendarId})
def get_user_details(db, user_id: UserId) -> dict:
    """Get a user's profile and their calendars.

    Args:
        user_id: The user's id, such as 'usr_0001'.
    """
    user = _user(db, user_id)
    user["calendars"] = [
        {"calendar_id": c, "name": n, "color": col, "is_primary": bool(p)}
        for c, n, col, p in db.execute(
            "SELECT calendar_id, name, color, is_primary FROM calendars WHERE owner_id = ? "
            "ORDER BY calendar_id", (user_id,))]
    return user


@tool(Category.READ, returns={"matches.user_id": UserId})
def search_directory(db, query: str) -> dict:
    """Search the company directory for colleagues by name (case-insensitive, part of the
    name is enough). At most 20 matches.

    Args:
        query: Part of a person's name, such as 'Maya' or 'Maya Lopez'.
    """
    text = query.strip().lower()
    if len(text) < 2:
        raise ToolError("the query must have at least 2 characters")
    rows = db.execute("SELECT user_id, name, email, department, title FROM users "
                      "WHERE instr(lower(name), ?) > 0 ORDER BY name LIMIT 20", (text,))
    return {"matches": [dict(zip(("user_id", "name", "email", "department", "title"), r))
                        for r in rows]}


@tool(Category.READ, returns={"events.event_id": EventId, "events.organizer_id": UserId,
                              "events.room_id": RoomId})
def list_events(db, user_id: UserId, start_date: str, end_date: str) -> dict:
    """List the events a user organizes or is invited to, whose start date lies between
    two dates (both included), in time order, cancelled ones included.

    Args:
        user_id: The user's id.
        start_date: First date, YYYY-MM-DD.
        end_date: Last date, YYYY-MM-DD (at most 62 days after the first).
    """
    _user(db, user_id)
    first, last = parse_date(start_date, "start_date"), parse_date(end_date, "end_date")
    if last < first:
        raise ToolError("end_date is before start_date")
    if (dt.date.fromisoformat(last) - dt.date.fromisoformat(first)).days > 62:
        raise ToolError("the range may span at most 62 days")
    rows = db.execute(_VISIBLE + "AND e.start >= ? AND e.start < ? ORDER BY e.start, e.event_id",
                      (user_id, first, last + " 99"))
    return {"events": [_summary(r, user_id) for r in rows]}


@tool(Category.READ, returns={"events.event_id": EventId, "events.organizer_id": UserId,
                              "events.room_id": RoomId})
def search_events(db, user_id: UserId, query: str) -> dict:
    """Search the events a user organizes or is invited to by title (case-insensitive, part
    of the title is enough), in time order. At most 50 results.

    Args:
        user_id: The user's id.
        query: Part of the event title, such as 'budget sync'.
    """
    _user(db, user_id)
    text = query.strip().lower()
    if not text:
        raise ToolError("the query is empty")
    rows = db.execute(_VISIBLE + "AND instr(lower(e.title), ?) > 0 ORDER BY e.start, e.event_id "
                      "LIMIT 50", (user_id, text))
    return {"events": [_summary(r, user_id) for r in rows]}


@tool(Category.READ, returns=EVENT_RETURNS)
def get_event(db, event_id: EventId) -> dict:
    """Get the full details of an event: time, status, room, organizer, recurrence and
    every attendee with their RSVP.

    Args:
        event_id: The event's id, such as 'evt_00042'.
    """
    return _event(db, event_id)


@tool(Category.READ, returns={"rooms.room_id": RoomId})
def list_rooms(db, min_capacity: int = 1, building: Literal["", "North", "South"] = "") -> dict:
    """List the meeting rooms, optionally only those seating at least some people or in one
    building.

    Args:
        min_capacity: Only rooms that seat at least this many people.
        building: Only rooms of this building ('North' or 'South'); empty for all.
    """
    rows = db.execute("SELECT room_id FROM rooms WHERE capacity >= ? AND (? = '' OR building = ?) "
                      "ORDER BY room_id", (min_capacity, building, building))
    return {"rooms": [_room(db, r) for r, in rows]}


@tool(Category.READ, returns={"room_id": RoomId, "conflicts.event_id": EventId})
def check_room_availability(db, room_id: RoomId, start: str, end: str) -> dict:
    """Check whether a room is free for a time slot, and list the bookings that overlap it.

    Args:
        room_id: The room's id, such as 'room_03'.
        start: Start of the slot, YYYY-MM-DD HH:MM.
        end: End of the slot, YYYY-MM-DD HH:MM.
    """
    room = _room(db, room_id)
    start, end = parse_time(start, "start"), parse_time(end, "end")
    if end <= start:
        raise ToolError("the end must be after the start")
    clash = _conflicts(db, room_id, start, end)
    return {"room_id": room_id, "name": room["name"], "capacity": room["capacity"],
            "available": not clash, "conflicts": clash}


@tool(Category.READ, returns={"reminders.reminder_id": ReminderId,
                              "reminders.event_id": EventId})
def list_reminders(db, user_id: UserId, event_id: str = "") -> dict:
    """List a user's reminders, optionally only those of one event.

    Args:
        user_id: The user's id.
        event_id: Only the reminders of this event; empty for all.
    """
    _user(db, user_id)
    rows = db.execute(
        "SELECT r.reminder_id, r.event_id, e.title, e.start, r.minutes_before, r.method "
        "FROM reminders r JOIN events e ON e.event_id = r.event_id WHERE r.user_id = ? "
        "AND (? = '' OR r.event_id = ?) ORDER BY e.start, r.reminder_id",
        (user_id, event_id, event_id))
    keys = ("reminder_id", "event_id", "title", "start", "minutes_before", "method")
    return {"reminders": [dict(zip(keys, r)) for r in rows]}


transfer_to_human_agents = human_transfer_tool()


# ----------------------------------------------------------------------------- WRITE


@tool(Category.WRITE, returns=EVENT_RETURNS, writes=("event_id",),
      needs=("room_id", "calendar_id"))
def create_event(db, organizer_id: UserId, title: str, start: str, end: str,
                 attendee_ids: list[UserId] = (), room_id: str = "", description: str = "",
                 calendar_id: str = "") -> dict:
    """Create a meeting organized by a user and invite colleagues. The organizer attends
    (accepted); each invitee's RSVP starts as 'needs_action'. The start must not be in the
    past; a room must be free and seat everyone.

    Args:
        organizer_id: The organizer's user id.
        title: The event's title.
        start: Start, YYYY-MM-DD HH:MM.
        end: End, YYYY-MM-DD HH:MM (same day, after the start).
        attendee_ids: User ids of the invitees (not the organizer).
        room_id: Room to book, such as 'room_03'; empty for none.
        description: Free text shown in the invitation.
        calendar_id: The organizer's calendar to put it on; empty for their primary one.
    """
    _user(db, organizer_id)
    title = title.strip()
    if not title or len(title) > 200:
        raise ToolError("the title must have 1 to 200 characters")
    start, end = _check_slot(start, end)
    invitees = list(dict.fromkeys(attendee_ids))
    if organizer_id in invitees:
        raise ToolError("the organizer attends automatically; do not list them as an invitee")
    for u in invitees:
        _user(db, u)
    if calendar_id:
        owner = db.execute("SELECT owner_id FROM calendars WHERE calendar_id = ?",
                           (calendar_id,)).fetchone()
        if owner is None or owner[0] != organizer_id:
            raise ToolError(f"calendar {calendar_id[:60]!r} is not a calendar of the organizer")
    else:
        calendar_id, = db.execute("SELECT calendar_id FROM calendars WHERE owner_id = ? AND "
                                  "is_primary = 1", (organizer_id,)).fetchone()
    room = None
    if room_id:
        room = _check_room(db, room_id, start, end, len(invitees) + 1)["room_id"]
    event_id = next_serial_id(db, "events", "event_id", "evt_", 5)
    db.execute("INSERT INTO events (event_id, calendar_id, organizer_id, title, description, "
               "start, end, room_id, status, series_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, "
               "'confirmed', NULL)",
               (event_id, calendar_id, organizer_id, title, description, start, end, room))
    db.executemany("INSERT INTO attendees (event_id, user_id, rsvp) VALUES (?, ?, ?)",
                   [(event_id, organizer_id, "accepted")]
                   + [(event_id, u, "needs_action") for u in invitees])
    return _event(db, event_id)


@tool(Category.WRITE, returns=EVENT_RETURNS, writes=("event_id",), needs=("room_id",))
def reschedule_event(db, event_id: EventId, start: str, end: str) -> dict:
    """Move a confirmed event to a new time (its room, if any, must be free then). The new
    start must not be in the past.

    Args:
        event_id: The event's id.
        start: New start, YYYY-MM-DD HH:MM.
        end: New end, YYYY-MM-DD HH:MM.
    """
    event = _confirmed(db, event_id)
    start, end = _check_slot(start, end)
    if (start, end) == (event["start"], event["end"]):
        raise ToolError("the event already has this time")
    if event["room_id"] is not None:
        _check_room(db, event["room_id"], start, end, _count(db, event_id), ignore=event_id)
    db.execute("UPDATE events SET start = ?, end = ? WHERE event_id = ?", (start, end, event_id))
    return _event(db, event_id)


@tool(Category.WRITE, returns={"cancelled": EventId}, writes=("event_id",))
def cancel_event(db, event_id: EventId, scope: Literal["this", "following"] = "this") -> dict:
    """Cancel a confirmed event. For an occurrence of a recurring event, 'this' cancels only
    this occurrence and 'following' cancels it and every later occurrence of the series.

    Args:
        event_id: The event's id.
        scope: 'this' (default) or 'following' (recurring events only).
    """
    event = _confirmed(db, event_id)
    if scope == "following" and event["series_id"] is None:
        raise ToolError("scope 'following' applies to recurring events only")
    if scope == "this":
        ids = [event_id]
    else:
        ids = [e for e, in db.execute(
            "SELECT event_id FROM events WHERE series_id = ? AND start >= ? AND status = "
            "'confirmed' ORDER BY start", (event["series_id"], event["start"]))]
    db.executemany("UPDATE events SET status = 'cancelled' WHERE event_id = ?",
                   [(e,) for e in ids])
    return {"cancelled": ids}


@tool(Category.WRITE, returns=EVENT_RETURNS, writes=("event_id",), needs=("user_id",))
def add_attendee(db, event_id: EventId, user_id: UserId) -> dict:
    """Invite one more person to a confirmed event (RSVP 'needs_action'). The event's room,
    if any, must seat everyone.

    Args:
        event_id: The event's id.
        user_id: The user id of the person to invite.
    """
    event = _confirmed(db, event_id)
    _user(db, user_id)
    if db.execute("SELECT 1 FROM attendees WHERE event_id = ? AND user_id = ?",
                  (event_id, user_id)).fetchone():
        raise ToolError(f"{user_id} is already invited to {event_id}")
    if event["room_id"] is not None:
        capacity, = db.execute("SELECT capacity FROM rooms WHERE room_id = ?",
                               (event["room_id"],)).fetchone()
        if _count(db, event_id) + 1 > capacity:
            raise ToolError(f"the room seats {capacity}; it is full")
    db.execute("INSERT INTO attendees (event_id, user_id, rsvp) VALUES (?, ?, 'needs_action')",
               (event_id, user_id))
    return _event(db, event_id)


@tool(Category.WRITE, returns=EVENT_RETURNS, writes=("event_id",))
def remove_attendee(db, event_id: EventId, user_id: UserId) -> dict:
    """Remove an invitee from a confirmed event (the organizer cannot be removed).

    Args:
        event_id: The event's id.
        user_id: The user id of the invitee to remove.
    """
    event = _confirmed(db, event_id)
    if user_id == event["organizer_id"]:
        raise ToolError("the organizer cannot be removed from their own event")
    if db.execute("DELETE FROM attendees WHERE event_id = ? AND user_id = ?",
                  (event_id, user_id)).rowcount == 0:
        raise ToolError(f"{user_id[:60]} is not invited to {event_id}")
    db.execute("DELETE FROM reminders WHERE event_id = ? AND user_id = ?", (event_id, user_id))
    return _event(db, event_id)


@tool(Category.WRITE, returns={"event_id": EventId, "user_id": UserId}, writes=("event_id",))
def respond_to_invitation(db, event_id: EventId, user_id: UserId,
                          response: Literal["accepted", "declined", "tentative"]) -> dict:
    """Record an invitee's answer (RSVP) to an invitation of a confirmed event.

    Args:
        event_id: The event's id.
        user_id: The invitee's user id.
        response: 'accepted', 'declined' or 'tentative'.
    """
    event = _confirmed(db, event_id)
    if user_id == event["organizer_id"]:
        raise ToolError("the organizer does not answer their own invitation")
    row = fetch_row(db, "SELECT rsvp FROM attendees WHERE event_id = ? AND user_id = ?",
                    (event_id, user_id), f"{user_id[:60]} is not invited to {event_id}")
    if row[0] == response:
        raise ToolError(f"the RSVP is already {response!r}")
    db.execute("UPDATE attendees SET rsvp = ? WHERE event_id = ? AND user_id = ?",
               (response, event_id, user_id))
    return {"event_id": event_id, "user_id": user_id, "rsvp": response}


@tool(Category.WRITE, returns=EVENT_RETURNS, writes=("event_id",), needs=("room_id",))
def book_room(db, event_id: EventId, room_id: RoomId) -> dict:
    """Book a room for a confirmed event (replacing its current room, if any). The room
    must be free for the whole event and seat every attendee.

    Args:
        event_id: The event's id.
        room_id: The room's id.
    """
    event = _confirmed(db, event_id)
    if event["room_id"] == room_id:
        raise ToolError(f"the event is already in room {room_id}")
    _check_room(db, room_id, event["start"], event["end"], _count(db, event_id),
                ignore=event_id)
    db.execute("UPDATE events SET room_id = ? WHERE event_id = ?", (room_id, event_id))
    return _event(db, event_id)


@tool(Category.WRITE, returns={"reminder_id": ReminderId, "event_id": EventId},
      writes=("reminder_id",), needs=("event_id",))
def set_reminder(db, event_id: EventId, user_id: UserId, minutes_before: int,
                 method: Literal["popup", "push"] = "popup") -> dict:
    """Add a reminder for a user who organizes or attends an event: a desktop popup or a
    mobile push notification some minutes before it starts.

    Args:
        event_id: The event's id.
        user_id: The user to remind (an attendee of the event).
        minutes_before: Minutes before the start, 0 to 10080 (one week).
        method: 'popup' (desktop) or 'push' (mobile).
    """
    _event_row(db, event_id)
    if not 0 <= minutes_before <= 10080:
        raise ToolError("minutes_before must be between 0 and 10080")
    if not db.execute("SELECT 1 FROM attendees WHERE event_id = ? AND user_id = ?",
                      (event_id, user_id)).fetchone():
        raise ToolError(f"{user_id[:60]} does not attend {event_id}")
    if db.execute("SELECT 1 FROM reminders WHERE event_id = ? AND user_id = ? AND "
                  "minutes_before = ? AND method = ?",
                  (event_id, user_id, minutes_before, method)).fetchone():
        raise ToolError("this reminder already exists")
    reminder_id = next_serial_id(db, "reminders", "reminder_id", "rem_", 5)
    db.execute("INSERT INTO reminders (reminder_id, event_id, user_id, minutes_before, method) "
               "VALUES (?, ?, ?, ?, ?)", (reminder_id, event_id, user_id, minutes_before, method))
    return {"reminder_id": reminder_id, "event_id": event_id, "user_id": user_id,
            "minutes_before": minutes_before, "method": method}


@tool(Category.WRITE, returns={"deleted": ReminderId}, writes=("reminder_id",))
def delete_reminder(db, reminder_id: ReminderId) -> dict:
    """Delete a reminder.

    Args:
        reminder_id: The reminder's id, such as 'rem_00012'.
    """
    if db.execute("DELETE FROM reminders WHERE reminder_id = ?", (reminder_id,)).rowcount == 0:
        raise ToolError(f"reminder not found: {reminder_id[:60]!r}")
    return {"deleted": reminder_id}
