"""Rows a tool needs: the row, or a ToolError with the tool's message."""

from __future__ import annotations

import sqlite3

import pytest

from tool_gym.core.rows import fetch_record, fetch_row
from tool_gym.core.tools import ToolError


def _db() -> sqlite3.Connection:
    db = sqlite3.connect(":memory:")
    db.execute("CREATE TABLE t (id TEXT PRIMARY KEY, name TEXT)")
    db.execute("INSERT INTO t VALUES ('a', 'Ann')")
    return db


def test_fetch_row():
    assert fetch_row(_db(), "SELECT name FROM t WHERE id = ?", ("a",), "gone") == ("Ann",)
    with pytest.raises(ToolError, match="^gone$"):
        fetch_row(_db(), "SELECT name FROM t WHERE id = ?", ("b",), "gone")


def test_fetch_record():
    assert fetch_record(_db(), "t", ("id", "name"), "id", "a", "gone") == \
        {"id": "a", "name": "Ann"}
    with pytest.raises(ToolError, match="^no b$"):
        fetch_record(_db(), "t", ("id", "name"), "id", "b", "no b")
