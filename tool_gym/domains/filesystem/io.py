"""Filesystem data <-> the SQLite schema.

The native data is one list of row dicts per table (every column present), in insertion
order; ``export`` gives back exactly that (the core's generic table export, rows in rowid
order), so ``export(load(data)) == data`` and the canonical state is plain tables.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from ...core.sandbox import export_tables

__all__ = ["TABLES", "load", "read", "export"]

#: Tables in load order (referenced tables first).
TABLES = ("users", "nodes", "versions", "shares")


def load(db: sqlite3.Connection, data: dict[str, list[dict]]) -> None:
    """Write native ``data`` into an empty database made from ``schema.sql``."""
    unknown = set(data) - set(TABLES)
    if unknown:
        raise ValueError(f"unknown tables in filesystem data: {sorted(unknown)}")
    db.execute("PRAGMA defer_foreign_keys = ON")  # rows may come in any order
    for table in TABLES:
        rows = data.get(table, [])
        if not rows:
            continue
        columns = [r[1] for r in db.execute(f'PRAGMA table_info("{table}")')]
        marks = ", ".join("?" for _ in columns)
        db.executemany(f'INSERT INTO "{table}" ({", ".join(columns)}) VALUES ({marks})',
                       [tuple(row.get(c) for c in columns) for row in rows])


def read(path: Path) -> dict[str, Any]:
    """Native data from a JSON file (what ``export`` returns, dumped as JSON)."""
    return json.loads(Path(path).read_text(encoding="utf-8"))


def export(db: sqlite3.Connection) -> dict[str, list[dict]]:
    """The canonical state: every table as row dicts in rowid order."""
    return export_tables(db)
