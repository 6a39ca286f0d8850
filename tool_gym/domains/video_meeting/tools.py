"""The tools of the video meeting domain: 10 reads, 12 writes and a transfer to a human agent.

Users of an organization host meetings (each host on a plan that bounds meeting length and
cloud recording), invite colleagues and outside guests, set the meeting's options, split it
into breakout rooms, book a conference room for it, let people in from the waiting room of
a live meeting, and share the cloud recordings of past meetings. Every tool takes the
sandbox's SQLite connection first and uses parameterized SQL only; a write checks all its
preconditions before its first statement and raises :class:`ToolError` with a clear message
when one fails (the toolbox also wraps each write in a savepoint).

Rules the tools enforce: only the host changes a meeting or its recordings (``user_id`` is
the acting user); only a scheduled meeting is moved or cancelled, never into the past nor
over another meeting of its host; durations stay within the host's plan; the waiting room and
"join before host" are never on together; co-hosts and recording shares stay inside the
host's organization; a conference room holds one meeting at a time.
"""

from __future__ import annotations

import hashlib
import re
from datetime import datetime, timedelta
from typing import Annotated, Literal

from ...core.common_tools import human_transfer_tool
from ...core.ids import counted_id
from ...core.rows import fetch_dicts, fetch_row, find_id
from ...core.tools import Category, Entity, Quotas, ToolError, tool

#: Growth bounds of one sandbox (templates hold about 1,200 meetings).
QUOTAS = Quotas(rows={"meetings": 10_000, "invitations": 30_000, "breakout_rooms": 10_000,
                      "breakout_assignments": 20_000, "recording_shares": 10_000})

#: The service's clock (fixed, so that every episode is reproducible). A Tuesday.
NOW = "2025-03-18 10:30"
TODAY = NOW[:10]
#: What each plan allows: longest meeting (minutes), most invitees, cloud recording and
#: its storage (MB).
PLANS = {"basic": {"max_minutes": 40, "max_invitees": 100, "cloud_recording": False,
                   "storage_mb": 0},
         "pro": {"max_minutes": 480, "max_invitees": 100, "cloud_recording": True,
                 "storage_mb": 5120},
         "business": {"max_minutes": 480, "max_invitees": 300, "cloud_recording": True,
                      "storage_mb": 10240}}
#: Shortest meeting (minutes), most breakout rooms, longest title.
MIN_MINUTES = 15
MAX_BREAKOUT_ROOMS = 20
MAX_TITLE = 120
SETTINGS = ("waiting_room", "mute_on_entry", "join_before_host", "auto_recording")

UserId = Annotated[str, Entity("user_id")]
MeetingId = Annotated[str, Entity("meeting_id")]
RoomId = Annotated[str, Entity("room_id")]
RecordingId = Annotated[str, Entity("recording_id")]
BreakoutRoomId = Annotated[str, Entity("breakout_room_id")]

Setting = Literal["waiting_room", "mute_on_entry", "join_before_host", "auto_recording"]
Role = Literal["attendee", "co_host"]
Permission = Literal["view", "download"]

_TIME = re.compile(r"^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2})$")
_EMAIL = re.compile(r"^[a-z0-9._%+\-]+@[a-z0-9\-]+(\.[a-z0-9\-]+)+$")


def end_of(start: str, minutes: int) -> str:
    """The time ``minutes`` after ``start`` ('YYYY-MM-DD HH:MM')."""
    return (datetime.strptime(start, "%Y-%m-%d %H:%M")
            + timedelta(minutes=int(minutes))).strftime("%Y-%m-%d %H:%M")


def passcode_of(meeting_id: str) -> str:
    """A meeting's six-digit passcode, derived from its id (no hidden random state)."""
    return f"{int(hashlib.sha256(meeting_id.encode()).hexdigest()[:8], 16) % 1_000_000:06d}"


def join_url(meeting_id: str) -> str:
    return f"https://meet.example.com/j/{meeting_id}"


# ------------------------------------------------------------------------- records

_MEETING_COLUMNS = ("meeting_id", "host_id", "title", "start_time", "duration_minutes",
                    "status", "passcode", "waiting_room", "mute_on_entry", "join_before_host",
                    "auto_recording", "room_id", "created_at")


def _user(db, user_id: str) -> dict:
    row = fetch_row(db, "SELECT u.user_id, u.first_name, u.last_name, u.email, u.username, "
                    "u.department, u.plan, u.org_id, o.name, o.domain FROM users u JOIN "
                    "organizations o ON o.org_id = u.org_id WHERE u.user_id = ?", (user_id,),
                    f"User {user_id!r} not found.")
    keys = ("user_id", "first_name", "last_name", "email", "username", "department", "plan",
            "org_id", "organization", "org_domain")
    return dict(zip(keys, row))


def _meeting(db, meeting_id: str) -> dict:
    row = fetch_row(db, f"SELECT {', '.join(_MEETING_COLUMNS)} FROM meetings "
                    "WHERE meeting_id = ?", (meeting_id,), f"Meeting {meeting_id!r} not found.")
    return dict(zip(_MEETING_COLUMNS, row))


def _recording(db, recording_id: str) -> dict:
    row = fetch_row(db, "SELECT r.recording_id, r.meeting_id, m.title, m.host_id, "
                    "r.recorded_at, r.duration_minutes, r.size_mb, r.has_transcript "
                    "FROM recordings r JOIN meetings m ON m.meeting_id = r.meeting_id "
                    "WHERE r.recording_id = ?", (recording_id,),
                    f"Recording {recording_id!r} not found.")
    keys = ("recording_id", "meeting_id", "title", "host_id", "recorded_at",
            "duration_minutes", "size_mb", "has_transcript")
    record = dict(zip(keys, row))
    record["has_transcript"] = bool(record["has_transcript"])
    return record


def _name_of(db, email: str) -> str | None:
    row = db.execute("SELECT first_name || ' ' || last_name FROM users WHERE email = ?",
                     (email,)).fetchone()
    return row[0] if row else None


def _org_domain(db, user_id: str) -> str:
    return _user(db, user_id)["org_domain"]


def storage_used(db, user_id: str) -> float:
    """MB of cloud recordings of the meetings ``user_id`` hosted."""
    (total,) = db.execute("SELECT coalesce(sum(r.size_mb), 0) FROM recordings r JOIN meetings m "
                          "ON m.meeting_id = r.meeting_id WHERE m.host_id = ?",
                          (user_id,)).fetchone()
    return round(total, 1)


def _meeting_record(db, meeting: dict) -> dict:
    record = {k: meeting[k] for k in ("meeting_id", "title", "start_time", "duration_minutes",
                                      "status", "passcode")}
    record["end_time"] = end_of(meeting["start_time"], meeting["duration_minutes"])
    record["join_url"] = join_url(meeting["meeting_id"])
    host = _user(db, meeting["host_id"])
    record.update({"host_id": host["user_id"],
                   "host_name": f"{host['first_name']} {host['last_name']}",
                   "host_email": host["email"]})
    record["settings"] = {s: bool(meeting[s]) for s in SETTINGS}
    room = db.execute("SELECT room_id, name, floor, capacity FROM conference_rooms "
                      "WHERE room_id = ?", (meeting["room_id"],)).fetchone()
    record["conference_room"] = None if room is None else dict(zip(
        ("room_id", "name", "floor", "capacity"), room))
    domain = host["org_domain"]
    record["invitees"] = [
        {"email": email, "name": _name_of(db, email), "role": role, "response": response,
         "external": not email.endswith("@" + domain)}
        for email, role, response in db.execute(
            "SELECT email, role, response FROM invitations WHERE meeting_id = ? "
            "ORDER BY rowid", (meeting["meeting_id"],))]
    record["breakout_rooms"] = [
        {"breakout_room_id": rid, "name": name, "members": [e for (e,) in db.execute(
            "SELECT email FROM breakout_assignments WHERE breakout_room_id = ? ORDER BY rowid",
            (rid,))]}
        for rid, name in db.execute("SELECT breakout_room_id, name FROM breakout_rooms "
                                    "WHERE meeting_id = ? ORDER BY rowid",
                                    (meeting["meeting_id"],)).fetchall()]
    record["recording_ids"] = [r for (r,) in db.execute(
        "SELECT recording_id FROM recordings WHERE meeting_id = ? ORDER BY rowid",
        (meeting["meeting_id"],))]
    return record


# ------------------------------------------------------------------------ checks

def _time(value: str, what: str) -> str:
    """A valid time 'YYYY-MM-DD HH:MM' (a 'T' between date and time is accepted)."""
    match = _TIME.match(value.strip())
    if not match:
        raise ToolError(f"{what} must be a time in the format YYYY-MM-DD HH:MM, got "
                        f"{value[:40]!r}.")
    text = f"{match[1]} {match[2]}"
    try:
        datetime.strptime(text, "%Y-%m-%d %H:%M")
    except ValueError:
        raise ToolError(f"{what} is not a valid time: {value[:40]!r}.") from None
    return text


def _future_slot(db, host_id: str, start: str, minutes: int, ignore: str = "") -> str:
    """Checks a new slot of the host: in the future, a length the plan allows, free of the
    host's other scheduled or live meetings; returns the normalized start."""
    start = _time(start, "start")
    if start <= NOW:
        raise ToolError(f"start must be after now ({NOW}).")
    plan = _user(db, host_id)["plan"]
    most = PLANS[plan]["max_minutes"]
    if not MIN_MINUTES <= minutes <= most:
        raise ToolError(f"minutes must be between {MIN_MINUTES} and {most} on the host's "
                        f"{plan} plan.")
    end = end_of(start, minutes)
    for other, title, other_start, other_minutes in db.execute(
            "SELECT meeting_id, title, start_time, duration_minutes FROM meetings "
            "WHERE host_id = ? AND status IN ('scheduled', 'in_progress') AND meeting_id != ? "
            "AND start_time < ?", (host_id, ignore, end)).fetchall():
        if end_of(other_start, other_minutes) > start:
            raise ToolError(f"The host already has {title!r} ({other}) at {other_start}; "
                            "meetings of one host cannot overlap.")
    return start


def _room_free(db, room_id: str, start: str, minutes: int, ignore: str = "") -> bool:
    end = end_of(start, minutes)
    return not any(end_of(s, d) > start for s, d in db.execute(
        "SELECT start_time, duration_minutes FROM meetings WHERE room_id = ? AND status IN "
        "('scheduled', 'in_progress') AND meeting_id != ? AND start_time < ?",
        (room_id, ignore, end)))


def _hosted(db, meeting_id: str, user_id: str, what: str,
            statuses: tuple[str, ...] = ("scheduled", "in_progress")) -> dict:
    """The meeting, when ``user_id`` hosts it and its status is one of ``statuses``."""
    meeting = _meeting(db, meeting_id)
    _user(db, user_id)
    if meeting["host_id"] != user_id:
        raise ToolError(f"Only the meeting's host can {what}; user {user_id} is not the host "
                        f"of {meeting_id}.")
    if meeting["status"] not in statuses:
        raise ToolError(f"Meeting {meeting_id} is {meeting['status']}; only a "
                        f"{' or '.join(s.replace('_', '-') for s in statuses)} meeting can be "
                        "changed.")
    return meeting


def _email(value: str) -> str:
    email = value.strip().lower()
    if len(email) > 254 or not _EMAIL.match(email):
        raise ToolError(f"{value[:60]!r} is not a valid email address.")
    return email


def _invited(db, meeting_id: str, email: str) -> bool:
    return db.execute("SELECT 1 FROM invitations WHERE meeting_id = ? AND email = ?",
                      (meeting_id, email)).fetchone() is not None


def _hosted_recording(db, recording_id: str, user_id: str, what: str) -> dict:
    recording = _recording(db, recording_id)
    _user(db, user_id)
    if recording["host_id"] != user_id:
        raise ToolError(f"Only the host of the recorded meeting can {what}.")
    return recording


# --------------------------------------------------------------------------- READ


@tool(Category.READ, returns={".": UserId})
def find_user_by_email(db, email: str) -> str:
    """Find a user's id by the email address of their account. Use it to authenticate the
    user before anything else.

    Args:
        email: The user's email address, such as 'maria.lopez@northwind.io'.
    """
    return find_id(db, "users", "user_id", "email", email.strip().lower(),
                   "No user found with this email address.")


@tool(Category.READ, returns={".": UserId})
def find_user_by_username(db, username: str) -> str:
    """Find a user's id by their username. Use it to authenticate the user before anything
    else.

    Args:
        username: The user's username, such as 'mlopez'.
    """
    return find_id(db, "users", "user_id", "username", username.strip().lower(),
                   "No user found with this username.")


@tool(Category.READ, returns={"user_id": UserId})
def get_user_profile(db, user_id: UserId) -> dict:
    """Get a user's profile: name, email, organization, department, plan and what it allows
    (longest meeting, most invitees, cloud recording), and the cloud recording storage used.

    Args:
        user_id: The user's id, such as 'usr_a1b2c3d4'.
    """
    record = _user(db, user_id)
    plan = PLANS[record["plan"]]
    record.update({"max_meeting_minutes": plan["max_minutes"],
                   "max_invitees": plan["max_invitees"],
                   "cloud_recording": plan["cloud_recording"],
                   "storage_quota_mb": plan["storage_mb"],
                   "storage_used_mb": storage_used(db, user_id)})
    return record


@tool(Category.READ, returns={"colleagues.user_id": UserId})
def search_colleagues(db, user_id: UserId, name: str) -> dict:
    """Search the people of the user's organization by name or email address (at most 20
    matches), with their department.

    Args:
        user_id: The id of the user searching.
        name: A full name or part of one (a first or last name), or an email address, such
            as 'lopez'.
    """
    user = _user(db, user_id)
    text = " ".join(name.split()).lower()
    if not text:
        raise ToolError("The name must not be empty.")
    keys = ("user_id", "first_name", "last_name", "email", "department")
    found = fetch_dicts(
        db, keys, "SELECT user_id, first_name, last_name, email, department FROM users "
        "WHERE org_id = ? AND user_id != ? AND (instr(lower(first_name || ' ' || last_name), ?) "
        "> 0 OR instr(email, ?) > 0) ORDER BY last_name, first_name LIMIT 20",
        (user["org_id"], user_id, text, text))
    return {"organization": user["organization"], "name": name, "colleagues": found}


@tool(Category.READ, returns={"user_id": UserId, "meetings.meeting_id": MeetingId})
def list_meetings(db, user_id: UserId, status: str = "") -> dict:
    """List the meetings a user hosts or is invited to, by start time: title, start and end,
    status, the user's role (host, co_host or attendee) and their response, and the host.

    Args:
        user_id: The user's id.
        status: Only meetings with this status: 'scheduled', 'in_progress', 'completed' or
            'cancelled' (empty for all).
    """
    user = _user(db, user_id)
    if status and status not in ("scheduled", "in_progress", "completed", "cancelled"):
        raise ToolError("status must be 'scheduled', 'in_progress', 'completed', 'cancelled' "
                        "or empty.")
    rows = db.execute(
        "SELECT m.meeting_id, m.title, m.start_time, m.duration_minutes, m.status, "
        "CASE WHEN m.host_id = ? THEN 'host' ELSE i.role END, "
        "CASE WHEN m.host_id = ? THEN 'accepted' ELSE i.response END, "
        "h.first_name || ' ' || h.last_name FROM meetings m JOIN users h ON h.user_id = m.host_id "
        "LEFT JOIN invitations i ON i.meeting_id = m.meeting_id AND i.email = ? "
        "WHERE (m.host_id = ? OR i.email IS NOT NULL) AND (? = '' OR m.status = ?) "
        "ORDER BY m.start_time, m.rowid",
        (user_id, user_id, user["email"], user_id, status, status)).fetchall()
    meetings = [{"meeting_id": r[0], "title": r[1], "start_time": r[2],
                 "end_time": end_of(r[2], r[3]), "duration_minutes": r[3], "status": r[4],
                 "role": r[5], "response": r[6], "host_name": r[7]} for r in rows]
    return {"user_id": user_id, "meetings": meetings}


@tool(Category.READ, returns={"meeting_id": MeetingId, "host_id": UserId,
                              "conference_room.room_id": RoomId,
                              "breakout_rooms.breakout_room_id": BreakoutRoomId,
                              "recording_ids": RecordingId})
def get_meeting(db, meeting_id: MeetingId) -> dict:
    """Get a meeting: title, start and end, status, passcode and join link, host, settings
    (waiting room, mute on entry, join before host, automatic recording), conference room,
    invitees (role, response, whether outside the host's organization), breakout rooms with
    their members, and its recordings.

    Args:
        meeting_id: The meeting's id, such as 'mtg_k3j9x0p2'.
    """
    return _meeting_record(db, _meeting(db, meeting_id))


@tool(Category.READ, returns={"rooms.room_id": RoomId})
def list_conference_rooms(db, user_id: UserId, start: str, minutes: int) -> dict:
    """List the conference rooms of the user's organization (floor, capacity) and whether each
    is free for a slot.

    Args:
        user_id: The user's id.
        start: The start of the slot, 'YYYY-MM-DD HH:MM'.
        minutes: The length of the slot in minutes (15 to 480).
    """
    user = _user(db, user_id)
    start = _time(start, "start")
    if not MIN_MINUTES <= minutes <= 480:
        raise ToolError("minutes must be between 15 and 480.")
    rooms = [{"room_id": rid, "name": name, "floor": floor, "capacity": capacity,
              "free": _room_free(db, rid, start, minutes)}
             for rid, name, floor, capacity in db.execute(
                 "SELECT room_id, name, floor, capacity FROM conference_rooms WHERE org_id = ? "
                 "ORDER BY floor, name", (user["org_id"],)).fetchall()]
    return {"organization": user["organization"], "start_time": start,
            "end_time": end_of(start, minutes), "rooms": rooms}


@tool(Category.READ, returns={"user_id": UserId, "recordings.recording_id": RecordingId,
                              "recordings.meeting_id": MeetingId})
def list_recordings(db, user_id: UserId) -> dict:
    """List the cloud recordings of the meetings a user hosted, newest first: meeting title,
    when it was recorded, length, size in MB, transcript, and how many people it is shared
    with.

    Args:
        user_id: The user's id.
    """
    _user(db, user_id)
    rows = db.execute(
        "SELECT r.recording_id, r.meeting_id, m.title, r.recorded_at, r.duration_minutes, "
        "r.size_mb, r.has_transcript, (SELECT count(*) FROM recording_shares s "
        "WHERE s.recording_id = r.recording_id) FROM recordings r JOIN meetings m "
        "ON m.meeting_id = r.meeting_id WHERE m.host_id = ? ORDER BY r.recorded_at DESC, "
        "r.rowid", (user_id,)).fetchall()
    keys = ("recording_id", "meeting_id", "title", "recorded_at", "duration_minutes",
            "size_mb", "has_transcript", "shared_with_count")
    recordings = [dict(zip(keys, r)) for r in rows]
    for r in recordings:
        r["has_transcript"] = bool(r["has_transcript"])
    return {"user_id": user_id, "storage_used_mb": storage_used(db, user_id),
            "recordings": recordings}


@tool(Category.READ, returns={"recording_id": RecordingId, "meeting_id": MeetingId,
                              "host_id": UserId})
def get_recording(db, recording_id: RecordingId) -> dict:
    """Get a recording: its meeting, when it was recorded, length, size, transcript, and the
    people it is shared with (email, name, view or download).

    Args:
        recording_id: The recording's id, such as 'rec_9d2k1m3x'.
    """
    record = _recording(db, recording_id)
    record["shared_with"] = [
        {"email": email, "name": _name_of(db, email), "permission": permission,
         "shared_on": day}
        for email, permission, day in db.execute(
            "SELECT email, permission, shared_on FROM recording_shares WHERE recording_id = ? "
            "ORDER BY rowid", (recording_id,))]
    return record


@tool(Category.READ, returns={"meeting_id": MeetingId})
def get_waiting_room(db, meeting_id: MeetingId) -> dict:
    """Get who is in a live meeting and who is waiting in its waiting room to be let in.

    Args:
        meeting_id: The meeting's id.
    """
    meeting = _meeting(db, meeting_id)
    if meeting["status"] != "in_progress":
        raise ToolError(f"Meeting {meeting_id} is {meeting['status']}, not live: it has no "
                        "waiting room now.")
    return {"meeting_id": meeting_id, "title": meeting["title"],
            "waiting": fetch_dicts(db, ("name", "email", "since"),
                                   "SELECT name, email, since FROM waiting_room "
                                   "WHERE meeting_id = ? ORDER BY since, rowid", (meeting_id,)),
            "present": fetch_dicts(db, ("name", "email", "joined_at"),
                                   "SELECT name, email, joined_at FROM attendance "
                                   "WHERE meeting_id = ? ORDER BY joined_at, rowid",
                                   (meeting_id,))}


transfer_to_human_agents = human_transfer_tool(
    "Transfer the user to a human agent, with a summary of their issue. Only transfer if the "
    "user explicitly asks for a human agent, or if the request cannot be handled with the "
    "policy and the available tools.",
    "A summary of the user's issue.")


# -------------------------------------------------------------------------- WRITE


@tool(Category.WRITE, returns={"meeting_id": MeetingId, "host_id": UserId},
      writes=("meeting_id",))
def schedule_meeting(db, user_id: UserId, title: str, start: str, minutes: int) -> dict:
    """Schedule a new meeting hosted by the user: in the future, as long as the host's plan
    allows, not overlapping the host's other meetings. It starts with the waiting room on and
    the other options off. Confirm the details with the user (explicit yes) before calling.

    Args:
        user_id: The id of the user who hosts it.
        title: The meeting's title (at most 120 characters).
        start: When it starts, 'YYYY-MM-DD HH:MM', after now.
        minutes: How long it lasts, in minutes (at least 15; at most 40 on the basic plan,
            480 otherwise).
    """
    _user(db, user_id)
    title = " ".join(title.split())
    if not title:
        raise ToolError("The title must not be empty.")
    if len(title) > MAX_TITLE:
        raise ToolError(f"The title is too long (at most {MAX_TITLE} characters).")
    start = _future_slot(db, user_id, start, minutes)
    meeting_id = counted_id(db, "meetings", "meeting_id", "mtg_")
    db.execute("INSERT INTO meetings (meeting_id, host_id, title, start_time, duration_minutes, "
               "status, passcode, waiting_room, mute_on_entry, join_before_host, "
               "auto_recording, room_id, created_at) VALUES (?, ?, ?, ?, ?, 'scheduled', ?, 1, "
               "0, 0, 0, NULL, ?)", (meeting_id, user_id, title, start, minutes,
                                     passcode_of(meeting_id), NOW))
    return _meeting_record(db, _meeting(db, meeting_id))


@tool(Category.WRITE, returns={"meeting_id": MeetingId}, writes=("meeting_id",),
      needs=("meeting_id",))
def reschedule_meeting(db, meeting_id: MeetingId, user_id: UserId, start: str,
                       minutes: int) -> dict:
    """Move a scheduled meeting the user hosts to a new start time and length (in the future,
    within the plan, not overlapping the host's other meetings; its conference room must be
    free then). Confirm the new time with the user (explicit yes) before calling.

    Args:
        meeting_id: The meeting's id.
        user_id: The id of the user asking (must be the host).
        start: The new start, 'YYYY-MM-DD HH:MM', after now.
        minutes: The new length in minutes.
    """
    meeting = _hosted(db, meeting_id, user_id, "reschedule it", ("scheduled",))
    start = _future_slot(db, user_id, start, minutes, ignore=meeting_id)
    if (start, minutes) == (meeting["start_time"], meeting["duration_minutes"]):
        raise ToolError("The meeting already has this time and length.")
    if meeting["room_id"] and not _room_free(db, meeting["room_id"], start, minutes,
                                             meeting_id):
        raise ToolError("The meeting's conference room is taken at the new time; assign "
                        "another room first.")
    db.execute("UPDATE meetings SET start_time = ?, duration_minutes = ? WHERE meeting_id = ?",
               (start, minutes, meeting_id))
    return _meeting_record(db, _meeting(db, meeting_id))


@tool(Category.WRITE, returns={"meeting_id": MeetingId}, writes=("meeting_id",),
      needs=("meeting_id",))
def cancel_meeting(db, meeting_id: MeetingId, user_id: UserId) -> dict:
    """Cancel a scheduled meeting the user hosts (its invitees are told; its conference room
    is freed). Confirm with the user (explicit yes) before calling.

    Args:
        meeting_id: The meeting's id.
        user_id: The id of the user asking (must be the host).
    """
    _hosted(db, meeting_id, user_id, "cancel it", ("scheduled",))
    db.execute("UPDATE meetings SET status = 'cancelled' WHERE meeting_id = ?", (meeting_id,))
    return {"meeting_id": meeting_id, "status": "cancelled"}


@tool(Category.WRITE, returns={"meeting_id": MeetingId}, writes=("meeting_id",),
      needs=("meeting_id",))
def invite_participant(db, meeting_id: MeetingId, user_id: UserId, email: str,
                       role: Role = "attendee") -> dict:
    """Invite someone to a scheduled or live meeting the user hosts, by email (a colleague or
    a guest from outside the organization). A co-host must belong to the host's
    organization. Confirm with the user (explicit yes) before calling.

    Args:
        meeting_id: The meeting's id.
        user_id: The id of the user asking (must be the host).
        email: The invitee's email address.
        role: 'attendee', or 'co_host' to let them run the meeting too.
    """
    meeting = _hosted(db, meeting_id, user_id, "invite people")
    email = _email(email)
    host = _user(db, user_id)
    if email == host["email"]:
        raise ToolError("The host is already in the meeting.")
    if _invited(db, meeting_id, email):
        raise ToolError(f"{email} is already invited.")
    if role == "co_host" and not email.endswith("@" + host["org_domain"]):
        raise ToolError("A co-host must be a member of the host's organization.")
    (count,) = db.execute("SELECT count(*) FROM invitations WHERE meeting_id = ?",
                          (meeting_id,)).fetchone()
    most = PLANS[host["plan"]]["max_invitees"]
    if count >= most:
        raise ToolError(f"The host's {host['plan']} plan allows at most {most} invitees.")
    db.execute("INSERT INTO invitations (meeting_id, email, role, response) "
               "VALUES (?, ?, ?, 'needs_action')", (meeting_id, email, role))
    return {"meeting_id": meeting["meeting_id"], "email": email, "name": _name_of(db, email),
            "role": role, "response": "needs_action", "invitee_count": count + 1}


@tool(Category.WRITE, returns={"meeting_id": MeetingId}, writes=("meeting_id",),
      needs=("meeting_id",))
def remove_participant(db, meeting_id: MeetingId, user_id: UserId, email: str) -> dict:
    """Withdraw someone's invitation to a scheduled or live meeting the user hosts (they also
    leave its breakout rooms). Confirm with the user (explicit yes) before calling.

    Args:
        meeting_id: The meeting's id.
        user_id: The id of the user asking (must be the host).
        email: The invitee's email address.
    """
    _hosted(db, meeting_id, user_id, "remove people")
    email = email.strip().lower()
    if not _invited(db, meeting_id, email):
        raise ToolError(f"{email[:80]} is not invited to this meeting.")
    db.execute("DELETE FROM breakout_assignments WHERE email = ? AND breakout_room_id IN ("
               "SELECT breakout_room_id FROM breakout_rooms WHERE meeting_id = ?)",
               (email, meeting_id))
    db.execute("DELETE FROM invitations WHERE meeting_id = ? AND email = ?", (meeting_id, email))
    return {"meeting_id": meeting_id, "email": email, "removed": True}


@tool(Category.WRITE, returns={"meeting_id": MeetingId}, writes=("meeting_id",),
      needs=("meeting_id",))
def update_meeting_settings(db, meeting_id: MeetingId, user_id: UserId, setting: Setting,
                            enabled: bool) -> dict:
    """Turn one option of a scheduled or live meeting the user hosts on or off. The waiting
    room and 'join before host' cannot be on together; automatic cloud recording needs a
    plan with cloud recording. Confirm with the user (explicit yes) before calling.

    Args:
        meeting_id: The meeting's id.
        user_id: The id of the user asking (must be the host).
        setting: 'waiting_room', 'mute_on_entry', 'join_before_host' or 'auto_recording'.
        enabled: true to turn it on, false to turn it off.
    """
    meeting = _hosted(db, meeting_id, user_id, "change its settings")
    if bool(meeting[setting]) == enabled:
        raise ToolError(f"{setting} is already {'on' if enabled else 'off'}.")
    if enabled and setting == "join_before_host" and meeting["waiting_room"]:
        raise ToolError("Join before host cannot be on while the waiting room is on; turn the "
                        "waiting room off first.")
    if enabled and setting == "waiting_room" and meeting["join_before_host"]:
        raise ToolError("The waiting room cannot be on while join before host is on; turn "
                        "join before host off first.")
    if enabled and setting == "auto_recording":
        plan = _user(db, user_id)["plan"]
        if not PLANS[plan]["cloud_recording"]:
            raise ToolError(f"The {plan} plan has no cloud recording.")
    db.execute(f"UPDATE meetings SET {setting} = ? WHERE meeting_id = ?",
               (int(enabled), meeting_id))
    return {"meeting_id": meeting_id, "settings": {s: bool(v) for s, v in zip(
        SETTINGS, db.execute(f"SELECT {', '.join(SETTINGS)} FROM meetings WHERE meeting_id = ?",
                             (meeting_id,)).fetchone())}}


@tool(Category.WRITE, returns={"meeting_id": MeetingId,
                               "breakout_rooms.breakout_room_id": BreakoutRoomId},
      writes=("meeting_id", "breakout_room_id"), needs=("meeting_id",))
def create_breakout_rooms(db, meeting_id: MeetingId, user_id: UserId, count: int) -> dict:
    """Split a scheduled or live meeting the user hosts into breakout rooms 'Room 1' to
    'Room N' (2 to 20 rooms, at most one per invitee), when it has none yet. Confirm with the
    user (explicit yes) before calling.

    Args:
        meeting_id: The meeting's id.
        user_id: The id of the user asking (must be the host).
        count: How many breakout rooms.
    """
    _hosted(db, meeting_id, user_id, "create breakout rooms")
    (existing,) = db.execute("SELECT count(*) FROM breakout_rooms WHERE meeting_id = ?",
                             (meeting_id,)).fetchone()
    if existing:
        raise ToolError(f"The meeting already has {existing} breakout rooms.")
    (invitees,) = db.execute("SELECT count(*) FROM invitations WHERE meeting_id = ?",
                             (meeting_id,)).fetchone()
    if not 2 <= count <= min(MAX_BREAKOUT_ROOMS, max(invitees, 2)):
        raise ToolError(f"count must be between 2 and {min(MAX_BREAKOUT_ROOMS, max(invitees, 2))}"
                        f" (the meeting has {invitees} invitees).")
    rooms = []
    for n in range(1, count + 1):
        room_id = counted_id(db, "breakout_rooms", "breakout_room_id", "brk_")
        db.execute("INSERT INTO breakout_rooms (breakout_room_id, meeting_id, name) "
                   "VALUES (?, ?, ?)", (room_id, meeting_id, f"Room {n}"))
        rooms.append({"breakout_room_id": room_id, "name": f"Room {n}", "members": []})
    return {"meeting_id": meeting_id, "breakout_rooms": rooms}


@tool(Category.WRITE, returns={"breakout_room_id": BreakoutRoomId, "meeting_id": MeetingId},
      writes=("breakout_room_id",), needs=("breakout_room_id",))
def assign_breakout_room(db, breakout_room_id: BreakoutRoomId, user_id: UserId,
                         email: str) -> dict:
    """Put an invitee of a meeting the user hosts into one of its breakout rooms (out of any
    other room of that meeting). Confirm with the user (explicit yes) before calling.

    Args:
        breakout_room_id: The breakout room's id.
        user_id: The id of the user asking (must be the host).
        email: The invitee's email address.
    """
    row = fetch_row(db, "SELECT meeting_id, name FROM breakout_rooms WHERE breakout_room_id = ?",
                    (breakout_room_id,), f"Breakout room {breakout_room_id!r} not found.")
    meeting_id, name = row
    _hosted(db, meeting_id, user_id, "assign breakout rooms")
    email = email.strip().lower()
    if not _invited(db, meeting_id, email):
        raise ToolError(f"{email[:80]} is not invited to this meeting.")
    if db.execute("SELECT 1 FROM breakout_assignments WHERE breakout_room_id = ? AND email = ?",
                  (breakout_room_id, email)).fetchone():
        raise ToolError(f"{email} is already in {name}.")
    db.execute("DELETE FROM breakout_assignments WHERE email = ? AND breakout_room_id IN ("
               "SELECT breakout_room_id FROM breakout_rooms WHERE meeting_id = ?)",
               (email, meeting_id))
    db.execute("INSERT INTO breakout_assignments (breakout_room_id, email) VALUES (?, ?)",
               (breakout_room_id, email))
    return {"breakout_room_id": breakout_room_id, "meeting_id": meeting_id, "name": name,
            "email": email}


@tool(Category.WRITE, returns={"meeting_id": MeetingId}, writes=("meeting_id",),
      needs=("meeting_id",))
def admit_participant(db, meeting_id: MeetingId, user_id: UserId, email: str) -> dict:
    """Let someone in from the waiting room of a live meeting the user hosts. Confirm with
    the user (explicit yes) before calling.

    Args:
        meeting_id: The meeting's id.
        user_id: The id of the user asking (must be the host).
        email: The email address of the person waiting.
    """
    _hosted(db, meeting_id, user_id, "admit people", ("in_progress",))
    email = email.strip().lower()
    row = db.execute("SELECT entry_id, name FROM waiting_room WHERE meeting_id = ? "
                     "AND email = ?", (meeting_id, email)).fetchone()
    if row is None:
        raise ToolError(f"{email[:80]} is not in the waiting room of this meeting.")
    db.execute("DELETE FROM waiting_room WHERE entry_id = ?", (row[0],))
    db.execute("INSERT INTO attendance (meeting_id, email, name, joined_at) VALUES (?, ?, ?, ?)",
               (meeting_id, email, row[1], NOW))
    return {"meeting_id": meeting_id, "email": email, "name": row[1], "joined_at": NOW}


@tool(Category.WRITE, returns={"meeting_id": MeetingId, "conference_room.room_id": RoomId},
      writes=("meeting_id",), needs=("room_id",))
def assign_conference_room(db, meeting_id: MeetingId, user_id: UserId, room_id: RoomId) -> dict:
    """Book a conference room of the host's organization for a scheduled meeting the user
    hosts (replacing its room, if any); the room must be free for the whole meeting. Confirm
    with the user (explicit yes) before calling.

    Args:
        meeting_id: The meeting's id.
        user_id: The id of the user asking (must be the host).
        room_id: The conference room's id (from list_conference_rooms).
    """
    meeting = _hosted(db, meeting_id, user_id, "book a room for it", ("scheduled",))
    row = fetch_row(db, "SELECT org_id, name FROM conference_rooms WHERE room_id = ?",
                    (room_id,), f"Conference room {room_id!r} not found.")
    if row[0] != _user(db, user_id)["org_id"]:
        raise ToolError("The conference room belongs to another organization.")
    if meeting["room_id"] == room_id:
        raise ToolError(f"{row[1]} is already booked for this meeting.")
    if not _room_free(db, room_id, meeting["start_time"], meeting["duration_minutes"],
                      meeting_id):
        raise ToolError(f"{row[1]} is taken at that time.")
    db.execute("UPDATE meetings SET room_id = ? WHERE meeting_id = ?", (room_id, meeting_id))
    return _meeting_record(db, _meeting(db, meeting_id))


@tool(Category.WRITE, returns={"recording_id": RecordingId}, writes=("recording_id",),
      needs=("recording_id",))
def share_recording(db, recording_id: RecordingId, user_id: UserId, email: str,
                    permission: Permission = "view") -> dict:
    """Share the recording of a meeting the user hosted with a member of their organization
    (never outside it), to view or to download; sharing again changes the permission.
    Confirm with the user (explicit yes) before calling.

    Args:
        recording_id: The recording's id.
        user_id: The id of the user asking (must be the meeting's host).
        email: The email address of the colleague to share it with.
        permission: 'view' (watch online) or 'download'.
    """
    _hosted_recording(db, recording_id, user_id, "share it")
    email = _email(email)
    host = _user(db, user_id)
    if email == host["email"]:
        raise ToolError("The host already has the recording.")
    if db.execute("SELECT 1 FROM users WHERE email = ? AND org_id = ?",
                  (email, host["org_id"])).fetchone() is None:
        raise ToolError("Recordings can only be shared with members of the host's "
                        f"organization ({host['organization']}); {email} is not one.")
    row = db.execute("SELECT permission FROM recording_shares WHERE recording_id = ? "
                     "AND email = ?", (recording_id, email)).fetchone()
    if row is not None and row[0] == permission:
        raise ToolError(f"The recording is already shared with {email} ({permission}).")
    db.execute("INSERT INTO recording_shares (recording_id, email, permission, shared_on) "
               "VALUES (?, ?, ?, ?) ON CONFLICT (recording_id, email) DO UPDATE SET "
               "permission = excluded.permission, shared_on = excluded.shared_on",
               (recording_id, email, permission, TODAY))
    return get_recording.fn(db, recording_id)


@tool(Category.WRITE, returns={"recording_id": RecordingId}, writes=("recording_id",),
      needs=("recording_id",))
def delete_recording(db, recording_id: RecordingId, user_id: UserId) -> dict:
    """Delete the recording of a meeting the user hosted, and every share of it, for good
    (this frees storage and cannot be undone). Confirm with the user (explicit yes) before
    calling.

    Args:
        recording_id: The recording's id.
        user_id: The id of the user asking (must be the meeting's host).
    """
    recording = _hosted_recording(db, recording_id, user_id, "delete it")
    db.execute("DELETE FROM recording_shares WHERE recording_id = ?", (recording_id,))
    db.execute("DELETE FROM recordings WHERE recording_id = ?", (recording_id,))
    return {"recording_id": recording_id, "deleted": True,
            "freed_mb": recording["size_mb"], "storage_used_mb": storage_used(db, user_id)}
