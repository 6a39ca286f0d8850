"""Each video meeting tool: its success path and its error paths; failed writes change
nothing; the invariants catch broken rules."""

from __future__ import annotations

from collections import Counter

import pytest

from tool_gym.core.tools import Category
from tool_gym.domains.video_meeting import DOMAIN
from tool_gym.domains.video_meeting.tools import NOW, end_of, passcode_of, storage_used

from ..calls import fails, ok, one, rules_catch


def hosted(box, status: str = "scheduled", plan: str = "business", extra: str = "") -> tuple:
    """A meeting of ``status`` hosted by a user on ``plan``: meeting, host, host email."""
    return one(box, "SELECT m.meeting_id, m.host_id, u.email FROM meetings m JOIN users u "
                    "ON u.user_id = m.host_id WHERE m.status = ? AND u.plan = ? " + extra +
                    " ORDER BY m.rowid LIMIT 1", (status, plan))


def colleague(box, user_id: str, exclude: tuple = ()) -> str:
    """The email of a colleague of ``user_id`` not in ``exclude``."""
    marks = ", ".join("?" * len(exclude)) or "''"
    return one(box, "SELECT u.email FROM users u JOIN users me ON me.org_id = u.org_id "
                    f"WHERE me.user_id = ? AND u.user_id != ? AND u.email NOT IN ({marks}) "
                    "ORDER BY u.rowid LIMIT 1", (user_id, user_id, *exclude))[0]


def invitees(box, meeting_id: str) -> list[str]:
    return [e for (e,) in box.db.execute("SELECT email FROM invitations WHERE meeting_id = ? "
                                         "ORDER BY rowid",
                                         (meeting_id,))]


# ------------------------------------------------------------------------- schemas

def test_toolbox_has_ten_reads_and_twelve_writes():
    counts = Counter(t.category for t in DOMAIN.toolbox)
    assert counts[Category.READ] == 10 and counts[Category.WRITE] == 12
    assert counts[Category.GENERIC] == 1 and len(DOMAIN.toolbox) >= 16


# --------------------------------------------------------------------------- reads

def test_find_user(box, state):
    user = state["users"][9]
    assert ok(box, "find_user_by_email", email=f" {user['email'].upper()} ") == user["user_id"]
    assert ok(box, "find_user_by_username", username=user["username"]) == user["user_id"]
    fails(box, "find_user_by_email", "no user", email="nobody@example.com")
    fails(box, "find_user_by_username", "no user", username="nobody")


def test_profile_and_colleagues(box):
    meeting, host, _ = hosted(box, "completed", "pro", "AND EXISTS (SELECT 1 FROM recordings r "
                                                       "WHERE r.meeting_id = m.meeting_id)")
    profile = ok(box, "get_user_profile", user_id=host)
    assert profile["plan"] == "pro" and profile["max_meeting_minutes"] == 480
    assert profile["storage_used_mb"] == storage_used(box.db, host) > 0
    last, = one(box, "SELECT u.last_name FROM users u JOIN users me ON me.org_id = u.org_id "
                     "WHERE me.user_id = ? AND u.user_id != ? LIMIT 1", (host, host))
    found = ok(box, "search_colleagues", user_id=host, name=last.upper())["colleagues"]
    assert found and all(last.lower() in (c["first_name"] + " " + c["last_name"]).lower()
                         or last.lower() in c["email"] for c in found)
    assert all(c["user_id"] != host for c in found)
    fails(box, "search_colleagues", "must not be empty", user_id=host, name="  ")
    fails(box, "get_user_profile", "not found", user_id="usr_missing")


def test_meetings_and_details(box):
    meeting, host, email = hosted(box)
    listed = ok(box, "list_meetings", user_id=host)["meetings"]
    mine = next(m for m in listed if m["meeting_id"] == meeting)
    assert mine["role"] == "host" and mine["end_time"] > mine["start_time"]
    starts = [m["start_time"] for m in listed]
    assert starts == sorted(starts)
    assert {m["status"] for m in ok(box, "list_meetings", user_id=host,
                                    status="scheduled")["meetings"]} == {"scheduled"}
    guest = invitees(box, meeting)[0]
    guest_id = box.db.execute("SELECT user_id FROM users WHERE email = ?", (guest,)).fetchone()
    if guest_id:
        roles = {m["meeting_id"]: m["role"] for m in ok(box, "list_meetings",
                                                        user_id=guest_id[0])["meetings"]}
        assert roles[meeting] in ("attendee", "co_host")
    record = ok(box, "get_meeting", meeting_id=meeting)
    assert record["passcode"] == passcode_of(meeting) and record["host_email"] == email
    assert record["join_url"].endswith(meeting) and set(record["settings"]) == {
        "waiting_room", "mute_on_entry", "join_before_host", "auto_recording"}
    assert [i["email"] for i in record["invitees"]] == invitees(box, meeting)
    fails(box, "list_meetings", "status must be", user_id=host, status="live")
    fails(box, "get_meeting", "not found", meeting_id="mtg_missing")


def test_conference_rooms(box):
    meeting, host, start, minutes, room = one(
        box, "SELECT meeting_id, host_id, start_time, duration_minutes, room_id FROM meetings "
             "WHERE room_id IS NOT NULL AND status = 'scheduled' LIMIT 1")
    rooms = ok(box, "list_conference_rooms", user_id=host, start=start, minutes=minutes)["rooms"]
    assert len(rooms) == 5 and {r["room_id"]: r["free"] for r in rooms}[room] is False
    fails(box, "list_conference_rooms", "YYYY-MM-DD HH:MM", user_id=host, start="tomorrow",
          minutes=30)
    fails(box, "list_conference_rooms", "between 15 and 480", user_id=host, start=start,
          minutes=5)


def test_recordings_and_waiting_room(box):
    recording, meeting, host = one(
        box, "SELECT r.recording_id, r.meeting_id, m.host_id FROM recordings r JOIN meetings m "
             "ON m.meeting_id = r.meeting_id WHERE EXISTS (SELECT 1 FROM recording_shares s "
             "WHERE s.recording_id = r.recording_id) LIMIT 1")
    listed = ok(box, "list_recordings", user_id=host)
    assert recording in [r["recording_id"] for r in listed["recordings"]]
    assert listed["storage_used_mb"] == round(sum(r["size_mb"] for r in listed["recordings"]), 1)
    record = ok(box, "get_recording", recording_id=recording)
    assert record["meeting_id"] == meeting and record["shared_with"]
    fails(box, "get_recording", "not found", recording_id="rec_missing")
    live, = one(box, "SELECT meeting_id FROM waiting_room LIMIT 1")
    room = ok(box, "get_waiting_room", meeting_id=live)
    assert room["waiting"] and room["present"]
    fails(box, "get_waiting_room", "not live", meeting_id=meeting)
    assert ok(box, "transfer_to_human_agents", summary="help") == "Transfer successful"


# -------------------------------------------------------------------------- writes

@pytest.mark.usefixtures("rules_kept")
def test_schedule_meeting(box):
    _, host, _ = hosted(box)
    made = ok(box, "schedule_meeting", user_id=host, title="  Pricing   Workshop ",
              start="2025-04-02T15:00", minutes=45)
    assert made["title"] == "Pricing Workshop" and made["start_time"] == "2025-04-02 15:00"
    assert made["status"] == "scheduled" and made["settings"]["waiting_room"] is True
    assert made["passcode"] == passcode_of(made["meeting_id"])
    args = {"user_id": host, "title": "T", "start": "2025-04-02 15:30", "minutes": 30}
    fails(box, "schedule_meeting", "cannot overlap", **args)
    fails(box, "schedule_meeting", "after now", **{**args, "start": "2025-03-18 10:00"})
    fails(box, "schedule_meeting", "YYYY-MM-DD HH:MM", **{**args, "start": "April 2"})
    fails(box, "schedule_meeting", "not a valid time", **{**args, "start": "2025-04-31 09:00"})
    fails(box, "schedule_meeting", "between 15 and 480", **{**args, "start": "2025-04-03 09:00",
                                                            "minutes": 600})
    fails(box, "schedule_meeting", "must not be empty", **{**args, "title": " "})
    fails(box, "schedule_meeting", "too long", **{**args, "title": "x" * 121})
    _, basic, _ = hosted(box, plan="basic")
    fails(box, "schedule_meeting", "basic plan", user_id=basic, title="T",
          start="2025-05-02 09:00", minutes=45)


@pytest.mark.usefixtures("rules_kept")
def test_reschedule_and_cancel(box):
    meeting, host, _ = hosted(box, extra="AND m.room_id IS NULL")
    moved = ok(box, "reschedule_meeting", meeting_id=meeting, user_id=host,
               start="2025-06-02 08:00", minutes=60)
    assert moved["start_time"] == "2025-06-02 08:00" and moved["duration_minutes"] == 60
    fails(box, "reschedule_meeting", "already has this time", meeting_id=meeting, user_id=host,
          start="2025-06-02 08:00", minutes=60)
    guest = one(box, "SELECT user_id FROM users WHERE user_id != ? LIMIT 1", (host,))[0]
    fails(box, "reschedule_meeting", "only the meeting's host", meeting_id=meeting,
          user_id=guest, start="2025-06-03 08:00", minutes=60)
    fails(box, "cancel_meeting", "only the meeting's host", meeting_id=meeting, user_id=guest)
    assert ok(box, "cancel_meeting", meeting_id=meeting, user_id=host)["status"] == "cancelled"
    fails(box, "cancel_meeting", "cancelled", meeting_id=meeting, user_id=host)
    past, past_host, _ = hosted(box, "completed")
    fails(box, "reschedule_meeting", "completed", meeting_id=past, user_id=past_host,
          start="2025-06-04 08:00", minutes=30)
    fails(box, "cancel_meeting", "not found", meeting_id="mtg_missing", user_id=host)


def test_a_room_moves_with_its_meeting_or_blocks_it(box):
    meeting, host, room, minutes = one(
        box, "SELECT m.meeting_id, m.host_id, m.room_id, m.duration_minutes FROM meetings m "
             "WHERE m.room_id IS NOT NULL AND m.status = 'scheduled' AND EXISTS (SELECT 1 FROM "
             "meetings o WHERE o.room_id = m.room_id AND o.status = 'scheduled' AND "
             "o.meeting_id != m.meeting_id AND o.host_id != m.host_id) LIMIT 1")
    other_start, = one(box, "SELECT start_time FROM meetings WHERE room_id = ? AND status = "
                            "'scheduled' AND meeting_id != ? AND host_id != ? LIMIT 1",
                       (room, meeting, host))
    fails(box, "reschedule_meeting", "conference room is taken", meeting_id=meeting,
          user_id=host, start=other_start, minutes=minutes)


@pytest.mark.usefixtures("rules_kept")
def test_invite_and_remove(box):
    meeting, host, email = hosted(box)
    mate = colleague(box, host, tuple(invitees(box, meeting)))
    made = ok(box, "invite_participant", meeting_id=meeting, user_id=host, email=mate.upper(),
              role="co_host")
    assert made["email"] == mate and made["role"] == "co_host" and made["name"]
    fails(box, "invite_participant", "already invited", meeting_id=meeting, user_id=host,
          email=mate)
    fails(box, "invite_participant", "host is already", meeting_id=meeting, user_id=host,
          email=email)
    fails(box, "invite_participant", "co-host must be", meeting_id=meeting, user_id=host,
          email="guest@outside.example.com", role="co_host")
    fails(box, "invite_participant", "not a valid email", meeting_id=meeting, user_id=host,
          email="not an email")
    guest = ok(box, "invite_participant", meeting_id=meeting, user_id=host,
               email="guest@outside.example.com")
    assert guest["name"] is None and guest["role"] == "attendee"
    ok(box, "remove_participant", meeting_id=meeting, user_id=host, email=mate)
    fails(box, "remove_participant", "not invited", meeting_id=meeting, user_id=host,
          email=mate)


@pytest.mark.usefixtures("rules_kept")
def test_settings(box):
    meeting, host, _ = hosted(box, extra="AND m.waiting_room = 1 AND m.auto_recording = 0")
    fails(box, "update_meeting_settings", "already on", meeting_id=meeting, user_id=host,
          setting="waiting_room", enabled=True)
    fails(box, "update_meeting_settings", "waiting room is on", meeting_id=meeting,
          user_id=host, setting="join_before_host", enabled=True)
    made = ok(box, "update_meeting_settings", meeting_id=meeting, user_id=host,
              setting="auto_recording", enabled=True)
    assert made["settings"]["auto_recording"] is True
    ok(box, "update_meeting_settings", meeting_id=meeting, user_id=host,
       setting="waiting_room", enabled=False)
    assert ok(box, "update_meeting_settings", meeting_id=meeting, user_id=host,
              setting="join_before_host", enabled=True)["settings"]["join_before_host"]
    fails(box, "update_meeting_settings", "join before host is on", meeting_id=meeting,
          user_id=host, setting="waiting_room", enabled=True)
    fails(box, "update_meeting_settings", "must be one of", meeting_id=meeting, user_id=host,
          setting="volume", enabled=True)
    basic, basic_host, _ = hosted(box, plan="basic")
    fails(box, "update_meeting_settings", "no cloud recording", meeting_id=basic,
          user_id=basic_host, setting="auto_recording", enabled=True)


@pytest.mark.usefixtures("rules_kept")
def test_breakout_rooms(box):
    meeting, host, _ = hosted(box, extra="AND NOT EXISTS (SELECT 1 FROM breakout_rooms b WHERE "
                                         "b.meeting_id = m.meeting_id) AND (SELECT count(*) "
                                         "FROM invitations i WHERE i.meeting_id = "
                                         "m.meeting_id) >= 3")
    people = invitees(box, meeting)
    fails(box, "create_breakout_rooms", "between 2 and", meeting_id=meeting, user_id=host,
          count=len(people) + 1)
    rooms = ok(box, "create_breakout_rooms", meeting_id=meeting, user_id=host,
               count=2)["breakout_rooms"]
    assert [r["name"] for r in rooms] == ["Room 1", "Room 2"]
    fails(box, "create_breakout_rooms", "already has 2", meeting_id=meeting, user_id=host,
          count=2)
    first, second = (r["breakout_room_id"] for r in rooms)
    ok(box, "assign_breakout_room", breakout_room_id=first, user_id=host, email=people[0])
    fails(box, "assign_breakout_room", "already in Room 1", breakout_room_id=first,
          user_id=host, email=people[0])
    ok(box, "assign_breakout_room", breakout_room_id=second, user_id=host, email=people[0])
    assert box.db.execute("SELECT breakout_room_id FROM breakout_assignments WHERE email = ? "
                          "AND breakout_room_id IN (?, ?)", (people[0], first, second)
                          ).fetchall() == [(second,)]
    fails(box, "assign_breakout_room", "not invited", breakout_room_id=first, user_id=host,
          email="stranger@example.com")
    fails(box, "assign_breakout_room", "not found", breakout_room_id="brk_missing",
          user_id=host, email=people[0])
    ok(box, "remove_participant", meeting_id=meeting, user_id=host, email=people[0])
    assert box.db.execute("SELECT count(*) FROM breakout_assignments WHERE email = ? AND "
                          "breakout_room_id IN (?, ?)", (people[0], first, second)
                          ).fetchone() == (0,)


@pytest.mark.usefixtures("rules_kept")
def test_admit_participant(box):
    meeting, host, email, name = one(
        box, "SELECT w.meeting_id, m.host_id, w.email, w.name FROM waiting_room w JOIN meetings m "
             "ON m.meeting_id = w.meeting_id LIMIT 1")
    made = ok(box, "admit_participant", meeting_id=meeting, user_id=host, email=email)
    assert made["joined_at"] == NOW and made["name"] == name
    fails(box, "admit_participant", "not in the waiting room", meeting_id=meeting,
          user_id=host, email=email)
    later, later_host, _ = hosted(box, plan="pro")
    fails(box, "admit_participant", "scheduled", meeting_id=later, user_id=later_host,
          email=email)


@pytest.mark.usefixtures("rules_kept")
def test_assign_conference_room(box):
    meeting, host, _ = hosted(box, extra="AND m.room_id IS NULL")
    start, minutes = one(box, "SELECT start_time, duration_minutes FROM meetings WHERE "
                              "meeting_id = ?", (meeting,))
    rooms = ok(box, "list_conference_rooms", user_id=host, start=start, minutes=minutes)["rooms"]
    free = next(r for r in rooms if r["free"])
    made = ok(box, "assign_conference_room", meeting_id=meeting, user_id=host,
              room_id=free["room_id"])
    assert made["conference_room"]["room_id"] == free["room_id"]
    fails(box, "assign_conference_room", "already booked", meeting_id=meeting, user_id=host,
          room_id=free["room_id"])
    alien, = one(box, "SELECT r.room_id FROM conference_rooms r JOIN users u ON u.user_id = ? "
                      "WHERE r.org_id != u.org_id LIMIT 1", (host,))
    fails(box, "assign_conference_room", "another organization", meeting_id=meeting,
          user_id=host, room_id=alien)
    other, other_host, _ = hosted(box, plan="pro", extra="AND m.room_id IS NULL AND "
                                  "u.org_id = (SELECT org_id FROM users WHERE user_id = '"
                                  + host + "')")
    box.db.execute("UPDATE meetings SET start_time = ?, duration_minutes = ? WHERE "
                   "meeting_id = ?", (start, minutes, other))
    fails(box, "assign_conference_room", "taken", meeting_id=other, user_id=other_host,
          room_id=free["room_id"])


@pytest.mark.usefixtures("rules_kept")
def test_share_and_delete_recording(box):
    recording, host = one(box, "SELECT r.recording_id, m.host_id FROM recordings r JOIN meetings "
                               "m ON m.meeting_id = r.meeting_id LIMIT 1")
    shared = [e for (e,) in box.db.execute("SELECT email FROM recording_shares WHERE "
                                           "recording_id = ?", (recording,))]
    mate = colleague(box, host, tuple(shared))
    made = ok(box, "share_recording", recording_id=recording, user_id=host, email=mate)
    assert {s["email"]: s["permission"] for s in made["shared_with"]}[mate] == "view"
    fails(box, "share_recording", "already shared", recording_id=recording, user_id=host,
          email=mate)
    made = ok(box, "share_recording", recording_id=recording, user_id=host, email=mate,
              permission="download")
    assert {s["email"]: s["permission"] for s in made["shared_with"]}[mate] == "download"
    fails(box, "share_recording", "only be shared with members", recording_id=recording,
          user_id=host, email="client@acme-corp.com")
    stranger, = one(box, "SELECT user_id FROM users WHERE user_id != ? LIMIT 1", (host,))
    fails(box, "share_recording", "only the host", recording_id=recording, user_id=stranger,
          email=mate)
    fails(box, "delete_recording", "only the host", recording_id=recording, user_id=stranger)
    before = storage_used(box.db, host)
    gone = ok(box, "delete_recording", recording_id=recording, user_id=host)
    assert gone["storage_used_mb"] == round(before - gone["freed_mb"], 1)
    fails(box, "get_recording", "not found", recording_id=recording)


def test_created_ids_never_clash_with_generated_ones(box):
    _, host, _ = hosted(box)
    first = ok(box, "schedule_meeting", user_id=host, title="A", start="2026-01-05 09:00",
               minutes=30)["meeting_id"]
    second = ok(box, "schedule_meeting", user_id=host, title="B", start="2026-01-05 10:00",
                minutes=30)["meeting_id"]
    assert first != second and first.split("_")[1].isdigit()
    assert end_of("2026-01-05 09:45", 30) == "2026-01-05 10:15"


def test_bad_input_is_an_error(box):
    meeting, host, _ = hosted(box)
    fails(box, "schedule_meeting", "must be of type integer", user_id=host, title="T",
          start="2026-02-02 09:00", minutes="half an hour")
    fails(box, "update_meeting_settings", "must be of type boolean", meeting_id=meeting,
          user_id=host, setting="mute_on_entry", enabled="yes")
    fails(box, "invite_participant", "quota exceeded", meeting_id=meeting, user_id=host,
          email="a" * 40_000 + "@example.com")


def test_invariants_catch_broken_rules(box):
    rules_catch(box, {
        "two scheduled or live meetings at once": "UPDATE meetings SET start_time = (SELECT "
        "start_time FROM meetings o WHERE o.host_id = meetings.host_id AND o.status = "
        "'scheduled' AND o.meeting_id != meetings.meeting_id LIMIT 1) WHERE rowid = (SELECT "
        "min(m.rowid) FROM meetings m WHERE m.status = 'scheduled' AND (SELECT count(*) FROM "
        "meetings x WHERE x.host_id = m.host_id AND x.status = 'scheduled') >= 2)",
        "status matches the clock": "UPDATE meetings SET status = 'scheduled' WHERE rowid = "
        "(SELECT min(rowid) FROM meetings WHERE status = 'completed')",
        "a co-host belongs": "UPDATE invitations SET role = 'co_host' WHERE email LIKE "
        "'%@acme-corp.com' AND rowid = (SELECT min(rowid) FROM invitations WHERE email "
        "LIKE '%@acme-corp.com')",
        "shared only with members": "UPDATE recording_shares SET email = 'x@acme-corp.com' "
        "WHERE rowid = 1",
        "passcode is six digits": "UPDATE meetings SET passcode = '12a456' WHERE rowid = 1",
    })
