"""Native data of the food delivery domain: ``load`` into SQLite, ``read`` from a JSON file,
``export`` the canonical state.

The native structure is ``{table: [row dict, ...]}`` with every table of ``schema.sql``, rows
in rowid order and keys in column order. ``export`` is the core's generic table export, so
``export(load(data)) == data`` for any valid data (the round trip is exact).
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from ...core.sandbox import export_tables

#: Tables in an order that satisfies the foreign keys.
TABLES = ("customers", "addresses", "payment_methods", "restaurants", "menu_items",
          "promo_codes", "cart_items", "orders", "order_items", "refunds", "ratings")


def load(db: sqlite3.Connection, data: dict) -> None:
    """Insert the native ``data`` into an empty food delivery database (no commit)."""
    if not isinstance(data, dict):
        raise ValueError(f"food delivery data must be a JSON object, got {type(data).__name__}")
    unknown = sorted(set(data) - set(TABLES))
    if unknown:
        raise ValueError(f"food delivery data: unknown tables {unknown}")
    for table in TABLES:
        rows = data.get(table, [])
        if not rows:
            continue
        columns = [r[1] for r in db.execute(f'PRAGMA table_info("{table}")')]
        for i, row in enumerate(rows):
            if set(row) != set(columns):
                raise ValueError(f"food delivery data: {table}[{i}] has columns {sorted(row)}, "
                                 f"expected {sorted(columns)}")
        names = ", ".join(f'"{c}"' for c in columns)
        marks = ", ".join("?" for _ in columns)
        db.executemany(f'INSERT INTO "{table}" ({names}) VALUES ({marks})',
                       [tuple(row[c] for c in columns) for row in rows])


def read(path: str | Path) -> dict:
    """The native data stored as JSON at ``path``."""
    return json.loads(Path(path).read_text(encoding="utf-8"))


def export(db: sqlite3.Connection) -> dict:
    """The canonical state: every table as a list of row dicts in rowid order."""
    return export_tables(db)
