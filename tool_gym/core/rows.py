"""Reads for tools: a row (or its id) that must exist, else a :class:`ToolError` with the
tool's own message; rows as dicts; a record's child rows in one query."""

from __future__ import annotations

import sqlite3
from typing import Any, Sequence

from .tools import ToolError

__all__ = ["fetch_dicts", "fetch_parts", "fetch_record", "fetch_row", "find_id"]


def fetch_row(db: sqlite3.Connection, sql: str, params: Sequence[Any], missing: str) -> tuple:
    """The first row of ``sql``; ``ToolError(missing)`` when there is none."""
    row = db.execute(sql, params).fetchone()
    if row is None:
        raise ToolError(missing)
    return row


def fetch_record(db: sqlite3.Connection, table: str, columns: Sequence[str], key: str,
                 value: Any, missing: str) -> dict:
    """The row of ``table`` whose ``key`` is ``value`` as a dict of ``columns``;
    ``ToolError(missing)`` when there is none."""
    row = fetch_row(db, f"SELECT {', '.join(columns)} FROM {table} WHERE {key} = ?", (value,),
                    missing)
    return dict(zip(columns, row))


def find_id(db: sqlite3.Connection, table: str, id_column: str, column: str, value: Any,
            missing: str) -> Any:
    """The ``id_column`` of the row of ``table`` whose ``column`` is ``value`` (e.g. the user
    with an email address); ``ToolError(missing)`` when there is none."""
    return fetch_row(db, f"SELECT {id_column} FROM {table} WHERE {column} = ?", (value,),
                     missing)[0]


def fetch_dicts(db: sqlite3.Connection, keys: Sequence[str], sql: str,
                params: Sequence[Any] = ()) -> list[dict]:
    """Every row of ``sql`` as a dict of ``keys`` (one per selected column, in order)."""
    return [dict(zip(keys, row)) for row in db.execute(sql, params)]


def _kind_and_pos(row: tuple) -> tuple:
    return row[0], row[1]


def fetch_parts(db: sqlite3.Connection, sql: str, params: Sequence[Any]) -> list[tuple]:
    """The rows of ``sql`` (a ``UNION ALL`` over a record's child tables, each row starting
    with its table's number and its position) ordered by table, then position."""
    parts = db.execute(sql, params).fetchall()
    parts.sort(key=_kind_and_pos)
    return parts
