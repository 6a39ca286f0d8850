"""Every calendar tool: its success path and its error paths; failed writes change nothing."""

from __future__ import annotations

from collections import Counter

import pytest

from tool_gym.core.tools import Category
from tool_gym.domains.calendar import DOMAIN
from tool_gym.domains.calendar.generate import NOW
from tool_gym.domains.calendar.invariants import invariants

from ..calls import broken_rules

FUTURE = "2025-06-03"


def _future_event(call, where: str = "", params: tuple = ()):
    """(event_id, organizer, start, end, room_id) of a confirmed upcoming one-off event."""
    return call.one("SELECT event_id, organizer_id, start, end, room_id FROM events "
                    "WHERE status = 'confirmed' AND start >= ? AND series_id IS NULL "
                    f"{where} ORDER BY event_id LIMIT 1", (FUTURE, *params))


def _free_room(call, start, end, people=1):
    return call.one("SELECT room_id FROM rooms r WHERE capacity >= ? AND NOT EXISTS (SELECT 1 "
                    "FROM events e WHERE e.room_id = r.room_id AND e.status = 'confirmed' AND "
                    "e.start < ? AND e.end > ?) ORDER BY room_id LIMIT 1", (people, end, start))[0]


def test_toolbox_has_six_reads_and_six_writes_at_least():
    counts = Counter(t.category for t in DOMAIN.toolbox)
    assert counts[Category.READ] >= 6 and counts[Category.WRITE] >= 6


def test_find_user_by_email(call):
    email, uid = call.one("SELECT email, user_id FROM users ORDER BY user_id LIMIT 1")
    assert call.ok("find_user_by_email", email=email.upper())["user_id"] == uid
    assert "no user" in call.err("find_user_by_email", email="nobody@example.com")


def test_user_details_and_directory(call):
    uid, name = call.one("SELECT user_id, name FROM users ORDER BY user_id LIMIT 1")
    details = call.ok("get_user_details", user_id=uid)
    assert details["name"] == name
    assert sum(c["is_primary"] for c in details["calendars"]) == 1
    assert "user not found" in call.err("get_user_details", user_id="usr_9999")
    matches = call.ok("search_directory", query=name.lower())["matches"]
    assert [m["user_id"] for m in matches] == [uid]
    assert call.ok("search_directory", query="zzzz")["matches"] == []
    assert "at least 2" in call.err("search_directory", query=" a ")


def test_list_and_search_events(call):
    event_id, organizer, start, _, _ = _future_event(call)
    listed = call.ok("list_events", user_id=organizer, start_date=start[:10],
                     end_date=start[:10])["events"]
    assert event_id in [e["event_id"] for e in listed]
    assert all(e["start"][:10] == start[:10] for e in listed)
    mine = next(e for e in listed if e["event_id"] == event_id)
    assert mine["role"] == "organizer" and mine["my_rsvp"] == "accepted"
    title, = call.one("SELECT title FROM events WHERE event_id = ?", (event_id,))
    found = call.ok("search_events", user_id=organizer, query=title.upper())["events"]
    assert event_id in [e["event_id"] for e in found]
    assert "invalid start_date" in call.err("list_events", user_id=organizer,
                                            start_date="June 1", end_date="2025-06-02")
    assert "before" in call.err("list_events", user_id=organizer, start_date="2025-06-05",
                                end_date="2025-06-01")
    assert "62 days" in call.err("list_events", user_id=organizer, start_date="2025-01-01",
                                 end_date="2025-12-31")
    assert "user not found" in call.err("list_events", user_id="x", start_date="2025-06-01",
                                        end_date="2025-06-02")
    assert "empty" in call.err("search_events", user_id=organizer, query="  ")


def test_get_event(call):
    event_id, organizer, _, _, _ = _future_event(call, "AND room_id IS NOT NULL")
    event = call.ok("get_event", event_id=event_id)
    assert event["organizer_id"] == organizer and event["room_name"]
    assert any(a["user_id"] == organizer and a["rsvp"] == "accepted" for a in event["attendees"])
    series_event, = call.one("SELECT event_id FROM events WHERE series_id IS NOT NULL LIMIT 1")
    assert call.ok("get_event", event_id=series_event)["recurrence"] in ("daily", "weekly")
    assert "event not found" in call.err("get_event", event_id="evt_99999")


def test_rooms_and_availability(call):
    big = call.ok("list_rooms", min_capacity=12)["rooms"]
    assert big and all(r["capacity"] >= 12 for r in big)
    south = call.ok("list_rooms", building="South")["rooms"]
    assert south and all(r["building"] == "South" for r in south)
    assert len(call.ok("list_rooms")["rooms"]) == 18
    event_id, _, start, end, room = _future_event(call, "AND room_id IS NOT NULL")
    busy = call.ok("check_room_availability", room_id=room, start=start, end=end)
    assert not busy["available"] and event_id in [c["event_id"] for c in busy["conflicts"]]
    free = call.ok("check_room_availability", room_id=room, start="2025-06-07 06:00",
                   end="2025-06-07 07:00")  # a Saturday at dawn
    assert free["available"] and free["conflicts"] == []
    assert "room not found" in call.err("check_room_availability", room_id="room_99",
                                        start=start, end=end)
    assert "YYYY-MM-DD HH:MM" in call.err("check_room_availability", room_id=room,
                                          start="tomorrow", end=end)
    assert "after the start" in call.err("check_room_availability", room_id=room, start=end,
                                         end=start)


def test_list_reminders(call):
    reminder, user, event = call.one("SELECT reminder_id, user_id, event_id FROM reminders "
                                     "ORDER BY reminder_id LIMIT 1")
    listed = call.ok("list_reminders", user_id=user)["reminders"]
    assert reminder in [r["reminder_id"] for r in listed]
    only = call.ok("list_reminders", user_id=user, event_id=event)["reminders"]
    assert only and all(r["event_id"] == event for r in only)
    assert "user not found" in call.err("list_reminders", user_id="nobody")


def test_transfer(call):
    assert call.ok("transfer_to_human_agents", summary="help") == "Transfer successful"


# ---------------------------------------------------------------------------- writes


def test_create_event(call):
    organizer, = call.one("SELECT user_id FROM users ORDER BY user_id LIMIT 1")
    guests = [u for u, in call.box.db.execute(
        "SELECT user_id FROM users WHERE user_id != ? ORDER BY user_id LIMIT 2", (organizer,))]
    start, end = "2025-06-20 07:00", "2025-06-20 07:30"
    room = _free_room(call, start, end, 3)
    event = call.ok("create_event", organizer_id=organizer, title="Apollo sync", start=start,
                    end=end, attendee_ids=guests, room_id=room)
    assert event["status"] == "confirmed" and event["room_id"] == room
    assert {a["user_id"]: a["rsvp"] for a in event["attendees"]} == {
        organizer: "accepted", guests[0]: "needs_action", guests[1]: "needs_action"}
    primary, = call.one("SELECT calendar_id FROM calendars WHERE owner_id = ? AND is_primary = 1",
                        (organizer,))
    assert event["calendar_id"] == primary
    assert invariants(call.box.db) == []
    # the same room at an overlapping time is double-booking
    assert "already booked" in call.err("create_event", organizer_id=guests[0], title="Clash",
                                        start="2025-06-20 07:15", end="2025-06-20 08:00",
                                        room_id=room)
    common = dict(organizer_id=organizer, title="X", start=start, end=end)
    assert "in the past" in call.err("create_event", **{**common, "start": "2025-06-01 10:00",
                                                        "end": "2025-06-01 11:00"})
    assert "after the start" in call.err("create_event", **{**common, "end": start})
    assert "same day" in call.err("create_event", **{**common, "end": "2025-06-21 08:00"})
    assert "title" in call.err("create_event", **{**common, "title": "  "})
    assert "organizer attends" in call.err("create_event", **common, attendee_ids=[organizer])
    assert "user not found" in call.err("create_event", **common, attendee_ids=["usr_9999"])
    assert "user not found" in call.err("create_event", **{**common, "organizer_id": "nobody"})
    assert "room not found" in call.err("create_event", **common, room_id="room_99")
    tiny, = call.one("SELECT room_id FROM rooms WHERE capacity = 2 LIMIT 1")
    many = [u for u, in call.box.db.execute("SELECT user_id FROM users WHERE user_id != ? "
                                            "LIMIT 4", (organizer,))]
    assert "seats 2" in call.err("create_event", **{**common, "start": "2025-07-05 06:00",
                                                    "end": "2025-07-05 06:30"},
                                 attendee_ids=many, room_id=tiny)
    other_cal, = call.one("SELECT calendar_id FROM calendars WHERE owner_id != ? LIMIT 1",
                          (organizer,))
    assert "not a calendar of the organizer" in call.err("create_event", **common,
                                                         calendar_id=other_cal)


def test_reschedule_event(call):
    event_id, _, start, end, room = _future_event(call, "AND room_id IS NOT NULL")
    moved = call.ok("reschedule_event", event_id=event_id, start="2025-06-28T06:00",
                    end="2025-06-28T06:30")
    assert (moved["start"], moved["end"], moved["room_id"]) == ("2025-06-28 06:00",
                                                                  "2025-06-28 06:30", room)
    assert "already has this time" in call.err("reschedule_event", event_id=event_id,
                                               start="2025-06-28 06:00", end="2025-06-28 06:30")
    assert "in the past" in call.err("reschedule_event", event_id=event_id,
                                     start="2025-05-01 10:00", end="2025-05-01 11:00")
    other, _, o_start, o_end, _ = _future_event(call, "AND room_id = ? AND event_id != ?",
                                                (room, event_id))
    assert "already booked" in call.err("reschedule_event", event_id=event_id, start=o_start,
                                        end=o_end)
    cancelled, = call.one("SELECT event_id FROM events WHERE status = 'cancelled' LIMIT 1")
    assert "cancelled" in call.err("reschedule_event", event_id=cancelled,
                                   start="2025-06-28 10:00", end="2025-06-28 11:00")
    assert "event not found" in call.err("reschedule_event", event_id="evt_0",
                                         start="2025-06-28 10:00", end="2025-06-28 11:00")


def test_cancel_event_and_series(call):
    event_id, *_ = _future_event(call)
    assert call.ok("cancel_event", event_id=event_id) == {"cancelled": [event_id]}
    assert "cancelled" in call.err("cancel_event", event_id=event_id)
    sid, = call.one("SELECT series_id FROM events WHERE series_id IS NOT NULL GROUP BY series_id "
                    "HAVING min(start) >= ? LIMIT 1", (FUTURE,))
    occurrences = [e for e, in call.box.db.execute(
        "SELECT event_id FROM events WHERE series_id = ? ORDER BY start", (sid,))]
    assert call.ok("cancel_event", event_id=occurrences[1]) == {"cancelled": [occurrences[1]]}
    result = call.ok("cancel_event", event_id=occurrences[2], scope="following")
    assert result["cancelled"] == occurrences[2:]
    statuses = [s for s, in call.box.db.execute(
        "SELECT status FROM events WHERE series_id = ? ORDER BY start", (sid,))]
    assert statuses == ["confirmed"] + ["cancelled"] * (len(occurrences) - 1)
    single, *_ = _future_event(call, "AND event_id != ?", (event_id,))
    assert "recurring events only" in call.err("cancel_event", event_id=single, scope="following")
    assert "must be one of" in call.err("cancel_event", event_id=single, scope="all")


def test_add_and_remove_attendee(call):
    event_id, organizer, *_ = _future_event(call, "AND room_id IS NULL")
    guest, = call.one("SELECT user_id FROM users WHERE user_id NOT IN (SELECT user_id FROM "
                      "attendees WHERE event_id = ?) ORDER BY user_id LIMIT 1", (event_id,))
    event = call.ok("add_attendee", event_id=event_id, user_id=guest)
    assert {"user_id": guest, "rsvp": "needs_action"}.items() <= next(
        a for a in event["attendees"] if a["user_id"] == guest).items()
    assert "already invited" in call.err("add_attendee", event_id=event_id, user_id=guest)
    assert "user not found" in call.err("add_attendee", event_id=event_id, user_id="usr_0")
    call.ok("set_reminder", event_id=event_id, user_id=guest, minutes_before=10)
    event = call.ok("remove_attendee", event_id=event_id, user_id=guest)
    assert guest not in [a["user_id"] for a in event["attendees"]]
    assert call.one("SELECT count(*) FROM reminders WHERE event_id = ? AND user_id = ?",
                    (event_id, guest)) == (0,)
    assert "not invited" in call.err("remove_attendee", event_id=event_id, user_id=guest)
    assert "organizer cannot be removed" in call.err("remove_attendee", event_id=event_id,
                                                     user_id=organizer)
    # a full room refuses one more attendee
    full = call.one("SELECT e.event_id FROM events e JOIN rooms r ON r.room_id = e.room_id "
                    "WHERE e.status = 'confirmed' AND (SELECT count(*) FROM attendees a WHERE "
                    "a.event_id = e.event_id) = r.capacity LIMIT 1")[0]
    outsider, = call.one("SELECT user_id FROM users WHERE user_id NOT IN (SELECT user_id FROM "
                         "attendees WHERE event_id = ?) LIMIT 1", (full,))
    assert "full" in call.err("add_attendee", event_id=full, user_id=outsider)


def test_respond_to_invitation(call):
    event_id, user = call.one(
        "SELECT a.event_id, a.user_id FROM attendees a JOIN events e ON e.event_id = a.event_id "
        "WHERE e.status = 'confirmed' AND a.rsvp = 'needs_action' AND e.start >= ? LIMIT 1",
        (FUTURE,))
    assert call.ok("respond_to_invitation", event_id=event_id, user_id=user,
                   response="declined")["rsvp"] == "declined"
    assert "already 'declined'" in call.err("respond_to_invitation", event_id=event_id,
                                            user_id=user, response="declined")
    organizer, = call.one("SELECT organizer_id FROM events WHERE event_id = ?", (event_id,))
    assert "organizer does not answer" in call.err("respond_to_invitation", event_id=event_id,
                                                   user_id=organizer, response="accepted")
    outsider, = call.one("SELECT user_id FROM users WHERE user_id NOT IN (SELECT user_id FROM "
                         "attendees WHERE event_id = ?) LIMIT 1", (event_id,))
    assert "not invited" in call.err("respond_to_invitation", event_id=event_id,
                                     user_id=outsider, response="accepted")
    assert "must be one of" in call.err("respond_to_invitation", event_id=event_id,
                                        user_id=user, response="yes")


def test_book_room(call):
    event_id, _, start, end, _ = _future_event(call, "AND room_id IS NULL")
    room = _free_room(call, start, end, 20)
    assert call.ok("book_room", event_id=event_id, room_id=room)["room_id"] == room
    assert "already in room" in call.err("book_room", event_id=event_id, room_id=room)
    other, _, o_start, o_end, _ = _future_event(call, "AND room_id IS NULL AND start < ? AND "
                                                "end > ? AND event_id != ?",
                                                (end, start, event_id))
    assert "already booked" in call.err("book_room", event_id=other, room_id=room)
    assert "room not found" in call.err("book_room", event_id=other, room_id="room_77")
    assert invariants(call.box.db) == []


def test_set_and_delete_reminder(call):
    event_id, organizer, *_ = _future_event(call)
    made = call.ok("set_reminder", event_id=event_id, user_id=organizer, minutes_before=15,
                   method="push")
    assert made["reminder_id"].startswith("rem_")
    assert call.one("SELECT minutes_before, method FROM reminders WHERE reminder_id = ?",
                    (made["reminder_id"],)) == (15, "push")
    assert "already exists" in call.err("set_reminder", event_id=event_id, user_id=organizer,
                                        minutes_before=15, method="push")
    assert "between 0 and 10080" in call.err("set_reminder", event_id=event_id,
                                             user_id=organizer, minutes_before=-5)
    outsider, = call.one("SELECT user_id FROM users WHERE user_id NOT IN (SELECT user_id FROM "
                         "attendees WHERE event_id = ?) LIMIT 1", (event_id,))
    assert "does not attend" in call.err("set_reminder", event_id=event_id, user_id=outsider,
                                         minutes_before=5)
    assert call.ok("delete_reminder", reminder_id=made["reminder_id"]) == {
        "deleted": made["reminder_id"]}
    assert "reminder not found" in call.err("delete_reminder", reminder_id=made["reminder_id"])


def test_ids_of_new_rows_are_fresh(call):
    organizer, = call.one("SELECT user_id FROM users LIMIT 1")
    last, = call.one("SELECT max(event_id) FROM events")
    event = call.ok("create_event", organizer_id=organizer, title="New", start="2025-07-01 07:00",
                    end="2025-07-01 07:30")
    assert event["event_id"] == f"evt_{int(last[4:]) + 1:05d}"


@pytest.mark.parametrize("sql", [
    # overlapping confirmed bookings of one room
    "UPDATE events SET room_id = (SELECT room_id FROM events WHERE room_id IS NOT NULL AND "
    "status = 'confirmed' ORDER BY event_id LIMIT 1), start = (SELECT start FROM events WHERE "
    "room_id IS NOT NULL AND status = 'confirmed' ORDER BY event_id LIMIT 1), end = (SELECT end "
    "FROM events WHERE room_id IS NOT NULL AND status = 'confirmed' ORDER BY event_id LIMIT 1) "
    "WHERE event_id = (SELECT event_id FROM events WHERE room_id IS NULL AND status = "
    "'confirmed' AND series_id IS NULL ORDER BY event_id LIMIT 1)",
    "DELETE FROM attendees WHERE (event_id, user_id) IN (SELECT event_id, organizer_id "
    "FROM events LIMIT 1)",
    "UPDATE calendars SET is_primary = 0 WHERE calendar_id = 'cal_0001'",
    "UPDATE events SET end = '2025-06-10 25:00' WHERE event_id = 'evt_00001'",
])
def test_invariants_catch_broken_rules(box, sql):
    assert broken_rules(box, sql)


def test_now_is_the_domain_clock():
    assert NOW == "2025-06-02 09:00"
