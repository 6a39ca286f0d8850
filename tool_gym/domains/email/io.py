"""The email domain's native data: ``load`` into SQLite, ``export`` back, ``read`` a file.

The native shape (what ``generate`` returns and ``export`` rebuilds, exactly)::

    {"users":    {user_id: {user_id, name, email, signature}},
     "folders":  {folder_id: {folder_id, user_id, name, kind, parent_id}},
     "labels":   {label_id: {label_id, user_id, name, color}},
     "threads":  {thread_id: {thread_id, user_id, subject}},
     "messages": {message_id: {message_id, user_id, thread_id, folder_id, status, sender,
                               sender_name, subject, body, sent_at, is_read, is_starred,
                               in_reply_to,
                               recipients: [{kind, address}]  (by kind, address),
                               labels: [label_id]  (sorted),
                               attachments: [{attachment_id, filename, mime_type,
                                              size_bytes}]  (by id)}},
     "contacts": {contact_id: {contact_id, user_id, name, email}},
     "filters":  {filter_id: {filter_id, user_id, from_address, subject_contains, action,
                              folder_id, label_id}},
     "blocked_addresses": {address: {address, reason, added_on}}}
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

__all__ = ["load", "read", "export"]

_FLAT = {
    "users": ("user_id", "name", "email", "signature"),
    "folders": ("folder_id", "user_id", "name", "kind", "parent_id"),
    "labels": ("label_id", "user_id", "name", "color"),
    "threads": ("thread_id", "user_id", "subject"),
}
_MESSAGE = ("message_id", "user_id", "thread_id", "folder_id", "status", "sender", "sender_name",
            "subject", "body", "sent_at", "is_read", "is_starred", "in_reply_to")
_ATTACHMENT = ("attachment_id", "filename", "mime_type", "size_bytes")
_LATE = {
    "contacts": ("contact_id", "user_id", "name", "email"),
    "filters": ("filter_id", "user_id", "from_address", "subject_contains", "action",
                "folder_id", "label_id"),
    "blocked_addresses": ("address", "reason", "added_on"),
}


def _insert(db: sqlite3.Connection, table: str, columns: tuple[str, ...], rows) -> None:
    marks = ", ".join("?" for _ in columns)
    db.executemany(f'INSERT INTO "{table}" ({", ".join(columns)}) VALUES ({marks})',
                   ([row[c] for c in columns] for row in rows))


def load(db: sqlite3.Connection, data: dict) -> None:
    """Write native ``data`` into an empty email database (replies after their originals
    are not required: references are checked at commit)."""
    db.execute("PRAGMA defer_foreign_keys = ON")
    for table, columns in _FLAT.items():
        _insert(db, table, columns, data[table].values())
    messages = data["messages"].values()
    _insert(db, "messages", _MESSAGE, messages)
    db.executemany("INSERT INTO recipients (message_id, kind, address) VALUES (?, ?, ?)",
                   ((m["message_id"], r["kind"], r["address"]) for m in messages
                    for r in m["recipients"]))
    db.executemany("INSERT INTO message_labels (message_id, label_id) VALUES (?, ?)",
                   ((m["message_id"], label) for m in messages for label in m["labels"]))
    db.executemany("INSERT INTO attachments (attachment_id, message_id, filename, mime_type, "
                   "size_bytes) VALUES (?, ?, ?, ?, ?)",
                   ((a["attachment_id"], m["message_id"], a["filename"], a["mime_type"],
                     a["size_bytes"]) for m in messages for a in m["attachments"]))
    for table, columns in _LATE.items():
        _insert(db, table, columns, data[table].values())


def read(path: Path) -> dict:
    """Native data from a JSON file (as written by ``json.dump(export(db))``)."""
    return json.loads(Path(path).read_text(encoding="utf-8"))


def _rows(db: sqlite3.Connection, table: str, columns: tuple[str, ...]) -> dict:
    return {row[0]: dict(zip(columns, row)) for row in db.execute(
        f'SELECT {", ".join(columns)} FROM "{table}" ORDER BY {columns[0]}')}


def export(db: sqlite3.Connection) -> dict:
    """The whole state in the native shape (the canonical export of the domain)."""
    out = {table: _rows(db, table, columns) for table, columns in _FLAT.items()}
    messages = _rows(db, "messages", _MESSAGE)
    for m in messages.values():
        m["recipients"], m["labels"], m["attachments"] = [], [], []
    for message_id, kind, address in db.execute(
            "SELECT message_id, kind, address FROM recipients ORDER BY message_id, kind, address"):
        messages[message_id]["recipients"].append({"kind": kind, "address": address})
    for message_id, label_id in db.execute(
            "SELECT message_id, label_id FROM message_labels ORDER BY message_id, label_id"):
        messages[message_id]["labels"].append(label_id)
    for row in db.execute("SELECT message_id, attachment_id, filename, mime_type, size_bytes "
                          "FROM attachments ORDER BY attachment_id"):
        messages[row[0]]["attachments"].append(dict(zip(_ATTACHMENT, row[1:])))
    out["messages"] = messages
    for table, columns in _LATE.items():
        out[table] = _rows(db, table, columns)
    return out
