"""The team chat domain's native data: ``load`` into SQLite, ``export`` back, ``read`` a file.

The native shape (what ``generate`` returns and ``export`` rebuilds, exactly) is one map
per table, keyed by the row's key (a composite key joins its parts with ``/``)::

    {"users":             {user_id: {user_id, username, display_name, email, title,
                                     status_text, status_emoji, presence}},
     "workspaces":        {workspace_id: {workspace_id, name}},
     "workspace_members": {"ws/user": {workspace_id, user_id, role}},
     "channels":          {channel_id: {channel_id, workspace_id, name, topic, is_private,
                                        is_archived, created_by, created_at}},
     "channel_members":   {"channel/user": {channel_id, user_id, role, joined_at}},
     "messages":          {message_id: {message_id, channel_id, user_id, text, ts,
                                        thread_parent_id, edited}},
     "reactions":         {"message/user/emoji": {message_id, user_id, emoji}},
     "pins":              {message_id: {message_id, channel_id, pinned_by, pinned_at}},
     "invites":           {invite_id: {invite_id, channel_id, inviter_id, invitee_id, status,
                                       created_at}}}
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

__all__ = ["load", "read", "export", "TABLES"]

#: table -> (key columns, columns), in an order that respects the references.
TABLES: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "users": (("user_id",), ("user_id", "username", "display_name", "email", "title",
                             "status_text", "status_emoji", "presence")),
    "workspaces": (("workspace_id",), ("workspace_id", "name")),
    "workspace_members": (("workspace_id", "user_id"), ("workspace_id", "user_id", "role")),
    "channels": (("channel_id",), ("channel_id", "workspace_id", "name", "topic", "is_private",
                                   "is_archived", "created_by", "created_at")),
    "channel_members": (("channel_id", "user_id"), ("channel_id", "user_id", "role",
                                                    "joined_at")),
    "messages": (("message_id",), ("message_id", "channel_id", "user_id", "text", "ts",
                                   "thread_parent_id", "edited")),
    "reactions": (("message_id", "user_id", "emoji"), ("message_id", "user_id", "emoji")),
    "pins": (("message_id",), ("message_id", "channel_id", "pinned_by", "pinned_at")),
    "invites": (("invite_id",), ("invite_id", "channel_id", "inviter_id", "invitee_id",
                                 "status", "created_at")),
}


def load(db: sqlite3.Connection, data: dict) -> None:
    """Write native ``data`` into an empty team chat database (a reply may come before the
    message it answers: references are checked at commit)."""
    db.execute("PRAGMA defer_foreign_keys = ON")
    for table, (_, columns) in TABLES.items():
        marks = ", ".join("?" for _ in columns)
        db.executemany(f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})",
                       ([row[c] for c in columns] for row in data[table].values()))


def read(path: Path) -> dict:
    """Native data from a JSON file (as written by ``json.dump(export(db))``)."""
    return json.loads(Path(path).read_text(encoding="utf-8"))


def export(db: sqlite3.Connection) -> dict:
    """The whole state in the native shape (the canonical export of the domain)."""
    out = {}
    for table, (keys, columns) in TABLES.items():
        rows = db.execute(f"SELECT {', '.join(columns)} FROM {table} ORDER BY {', '.join(keys)}")
        index = [columns.index(k) for k in keys]
        out[table] = {"/".join(str(row[i]) for i in index): dict(zip(columns, row))
                      for row in rows}
    return out
