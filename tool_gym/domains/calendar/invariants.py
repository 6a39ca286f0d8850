"""Rules every calendar database keeps: rooms, attendees, calendars and series.

``invariants(db)`` returns the problems found (empty when every rule holds).
"""

from __future__ import annotations

from ...core.rules import rule_checker

__all__ = ["invariants", "RULES"]


RULES: list[tuple[str, str]] = [
    ("no room is double-booked",
     "SELECT event_id || ' overlaps an earlier booking of ' || room_id FROM ("
     "SELECT event_id, room_id, start, max(end) OVER (PARTITION BY room_id ORDER BY start, "
     "event_id ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS busy_until FROM events "
     "WHERE status = 'confirmed' AND room_id IS NOT NULL) WHERE busy_until > start"),
    ("a room seats every attendee of its confirmed events",
     "SELECT e.event_id FROM events e JOIN rooms r ON r.room_id = e.room_id "
     "WHERE e.status = 'confirmed' AND (SELECT count(*) FROM attendees a "
     "WHERE a.event_id = e.event_id) > r.capacity"),
    ("the organizer attends their event, accepted",
     "SELECT e.event_id FROM events e WHERE NOT EXISTS (SELECT 1 FROM attendees a "
     "WHERE a.event_id = e.event_id AND a.user_id = e.organizer_id AND a.rsvp = 'accepted')"),
    ("an event lies on a calendar of its organizer",
     "SELECT e.event_id FROM events e JOIN calendars c ON c.calendar_id = e.calendar_id "
     "WHERE c.owner_id != e.organizer_id"),
    ("an event starts and ends on one day, in YYYY-MM-DD HH:MM",
     "SELECT event_id FROM events WHERE substr(start, 1, 10) != substr(end, 1, 10) "
     "OR start NOT GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9] [0-9][0-9]:[0-9][0-9]' "
     "OR end NOT GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9] [0-9][0-9]:[0-9][0-9]'"),
    ("a reminder belongs to an attendee of its event",
     "SELECT r.reminder_id FROM reminders r WHERE NOT EXISTS (SELECT 1 FROM attendees a "
     "WHERE a.event_id = r.event_id AND a.user_id = r.user_id)"),
    ("every user has exactly one primary calendar",
     "SELECT u.user_id FROM users u WHERE (SELECT count(*) FROM calendars c "
     "WHERE c.owner_id = u.user_id AND c.is_primary = 1) != 1"),
    ("a series has as many occurrences as rows, all with one organizer",
     "SELECT s.series_id FROM series s WHERE s.occurrences != (SELECT count(*) FROM events e "
     "WHERE e.series_id = s.series_id) OR (SELECT count(DISTINCT organizer_id) FROM events e "
     "WHERE e.series_id = s.series_id) > 1"),
]


invariants = rule_checker(RULES)
