"""The calendar domain's native data: one map per table keyed by the row's id, attendees
nested in their event (by ``user_id``); ``load``, ``read`` and ``export`` come from
:class:`~tool_gym.core.tables.KeyedTables`.
"""

from __future__ import annotations

from ...core.tables import KeyedTables, Nested, Table

__all__ = ["load", "read", "export"]

FORMAT = KeyedTables((
    Table("users", ("user_id", "name", "email", "department", "title")),
    Table("calendars", ("calendar_id", "owner_id", "name", "color", "is_primary")),
    Table("rooms", ("room_id", "name", "building", "floor", "capacity", "has_video")),
    Table("series", ("series_id", "frequency", "occurrences")),
    Table("events", ("event_id", "calendar_id", "organizer_id", "title", "description", "start",
                     "end", "room_id", "status", "series_id"),
          nested=(Nested("attendees", "attendees", "event_id", ("user_id", "rsvp")),)),
    Table("reminders", ("reminder_id", "event_id", "user_id", "minutes_before", "method")),
))
load, read, export = FORMAT.load, FORMAT.read, FORMAT.export
