"""Ids and positions for new rows, derived from the state alone (a sandbox keeps no counter,
so the same calls on the same state give the same ids).

``scope`` restricts a lookup to the rows whose columns have the given values, e.g.
``{"user_id": "u1"}``.
"""

from __future__ import annotations

import itertools
import sqlite3
from typing import Any, Iterable, Mapping

__all__ = ["counted_id", "first_free", "next_number", "next_serial_id"]


def _where(columns: Iterable[str]) -> str:
    """`` WHERE "a" = ? AND "b" = ?`` for ``columns`` (nothing for none)."""
    terms = [f'"{c}" = ?' for c in columns]
    return " WHERE " + " AND ".join(terms) if terms else ""


def first_free(db: sqlite3.Connection, table: str, column: str, candidates: Iterable[str],
               scope: Mapping[str, Any] | None = None) -> str | None:
    """The first of ``candidates`` that no row (within ``scope``) holds in ``column``;
    ``None`` when every candidate is taken."""
    scope = scope or {}
    sql = f'SELECT 1 FROM "{table}"{_where([*scope, column])}'
    for candidate in candidates:
        if db.execute(sql, (*scope.values(), candidate)).fetchone() is None:
            return candidate
    return None


def next_number(db: sqlite3.Connection, table: str, column: str, start: int = 0,
                scope: Mapping[str, Any] | None = None) -> int:
    """One more than the largest ``column`` (within ``scope``), or ``start`` if none."""
    scope = scope or {}
    return db.execute(f'SELECT coalesce(max("{column}") + 1, ?) FROM "{table}"{_where(scope)}',
                      (start, *scope.values())).fetchone()[0]


def counted_id(db: sqlite3.Connection, table: str, column: str, prefix: str,
               width: int = 8) -> str:
    """``<prefix><n>`` (``n`` zero-padded to ``width``) for the first free ``n`` counting
    up from the number of rows plus one."""
    (count,) = db.execute(f'SELECT count(*) FROM "{table}"').fetchone()
    return first_free(db, table, column,
                      (f"{prefix}{n:0{width}d}" for n in itertools.count(count + 1)))


def next_serial_id(db: sqlite3.Connection, table: str, column: str, prefix: str,
                   width: int) -> str:
    """``<prefix><n>`` with ``n`` one more than the highest number after ``prefix`` (the
    longest, then greatest, id wins), zero-padded to ``width``; 1 in an empty table."""
    row = db.execute(f'SELECT "{column}" FROM "{table}" WHERE "{column}" LIKE ? '
                     f'ORDER BY length("{column}") DESC, "{column}" DESC LIMIT 1',
                     (prefix + "%",)).fetchone()
    number = int(row[0][len(prefix):]) + 1 if row else 1
    return f"{prefix}{number:0{width}d}"
