"""The calendar domain's native data: ``load`` into SQLite, ``export`` back, ``read`` a file.

The native shape (what ``generate`` returns and ``export`` rebuilds, exactly)::

    {"users":     {user_id: {user_id, name, email, department, title}},
     "calendars": {calendar_id: {calendar_id, owner_id, name, color, is_primary}},
     "rooms":     {room_id: {room_id, name, building, floor, capacity, has_video}},
     "series":    {series_id: {series_id, frequency, occurrences}},
     "events":    {event_id: {event_id, calendar_id, organizer_id, title, description,
                              start, end, room_id, status, series_id,
                              attendees: [{user_id, rsvp}, ...]  (by user_id)}},
     "reminders": {reminder_id: {reminder_id, event_id, user_id, minutes_before, method}}}
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

__all__ = ["load", "read", "export"]

_FLAT = {
    "users": ("user_id", "name", "email", "department", "title"),
    "calendars": ("calendar_id", "owner_id", "name", "color", "is_primary"),
    "rooms": ("room_id", "name", "building", "floor", "capacity", "has_video"),
    "series": ("series_id", "frequency", "occurrences"),
}
_EVENT = ("event_id", "calendar_id", "organizer_id", "title", "description", "start", "end",
          "room_id", "status", "series_id")
_REMINDER = ("reminder_id", "event_id", "user_id", "minutes_before", "method")


def _insert(db: sqlite3.Connection, table: str, columns: tuple[str, ...], rows) -> None:
    cols = ", ".join(f'"{c}"' for c in columns)
    marks = ", ".join("?" for _ in columns)
    db.executemany(f'INSERT INTO "{table}" ({cols}) VALUES ({marks})',
                   ([row[c] for c in columns] for row in rows))


def load(db: sqlite3.Connection, data: dict) -> None:
    """Write native ``data`` into an empty calendar database."""
    for table, columns in _FLAT.items():
        _insert(db, table, columns, data[table].values())
    _insert(db, "events", _EVENT, data["events"].values())
    db.executemany("INSERT INTO attendees (event_id, user_id, rsvp) VALUES (?, ?, ?)",
                   ((e["event_id"], a["user_id"], a["rsvp"]) for e in data["events"].values()
                    for a in e["attendees"]))
    _insert(db, "reminders", _REMINDER, data["reminders"].values())


def read(path: Path) -> dict:
    """Native data from a JSON file (as written by ``json.dump(export(db))``)."""
    return json.loads(Path(path).read_text(encoding="utf-8"))


def _rows(db: sqlite3.Connection, table: str, columns: tuple[str, ...], key: str) -> dict:
    cols = ", ".join(f'"{c}"' for c in columns)
    return {row[0]: dict(zip(columns, row))
            for row in db.execute(f'SELECT {cols} FROM "{table}" ORDER BY "{key}"')}


def export(db: sqlite3.Connection) -> dict:
    """The whole state in the native shape (the canonical export of the domain)."""
    out = {table: _rows(db, table, columns, columns[0]) for table, columns in _FLAT.items()}
    events = _rows(db, "events", _EVENT, "event_id")
    for e in events.values():
        e["attendees"] = []
    for event_id, user_id, rsvp in db.execute(
            "SELECT event_id, user_id, rsvp FROM attendees ORDER BY event_id, user_id"):
        events[event_id]["attendees"].append({"user_id": user_id, "rsvp": rsvp})
    out["events"] = events
    out["reminders"] = _rows(db, "reminders", _REMINDER, "reminder_id")
    return out
