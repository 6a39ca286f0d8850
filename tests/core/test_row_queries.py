"""The shared row queries of the domains' tools and loaders (core.rows, core.tables,
core.rules) on one small database."""

from __future__ import annotations

import sqlite3

import pytest

from tool_gym.core.rows import fetch_dicts, fetch_parts, find_id
from tool_gym.core.rules import rule_checker
from tool_gym.core.tables import child_rows, load_records
from tool_gym.core.tools import ToolError


def _db() -> sqlite3.Connection:
    db = sqlite3.connect(":memory:")
    db.executescript(
        "CREATE TABLE users (user_id TEXT PRIMARY KEY, email TEXT);"
        "CREATE TABLE notes (user_id TEXT, pos INTEGER, text TEXT);"
        "CREATE TABLE tags (user_id TEXT, pos INTEGER, tag TEXT);"
        "INSERT INTO users VALUES ('u1', 'a@x.io'), ('u2', 'b@x.io');"
        "INSERT INTO notes VALUES ('u2', 1, 'n2b'), ('u1', 0, 'n1'), ('u2', 0, 'n2a');"
        "INSERT INTO tags VALUES ('u1', 0, 't1');")
    return db


def test_find_id():
    db = _db()
    assert find_id(db, "users", "user_id", "email", "b@x.io", "none") == "u2"
    with pytest.raises(ToolError, match="^no such user$"):
        find_id(db, "users", "user_id", "email", "c@x.io", "no such user")


def test_fetch_dicts():
    db = _db()
    assert fetch_dicts(db, ("id", "mail"), "SELECT user_id, email FROM users ORDER BY user_id") \
        == [{"id": "u1", "mail": "a@x.io"}, {"id": "u2", "mail": "b@x.io"}]
    assert fetch_dicts(db, ("id",), "SELECT user_id FROM users WHERE 0") == []


def test_fetch_parts_orders_by_table_then_position():
    sql = ("SELECT 1, pos, tag FROM tags WHERE user_id = ?1 "
           "UNION ALL SELECT 0, pos, text FROM notes WHERE user_id = ?1")
    assert fetch_parts(_db(), sql, ("u2",)) == [(0, 0, "n2a"), (0, 1, "n2b")]
    assert fetch_parts(_db(), sql, ("u1",)) == [(0, 0, "n1"), (1, 0, "t1")]


def test_child_rows_groups_by_parent_in_order():
    assert child_rows(_db(), "notes", "user_id", "text") == {"u1": [("n1",)],
                                                             "u2": [("n2a",), ("n2b",)]}


def test_load_records_checks_every_record_before_writing():
    db = sqlite3.connect(":memory:")
    db.execute("CREATE TABLE users (user_id TEXT, ord INTEGER)")

    def add(rows, i, key, record):
        if not isinstance(record, dict):
            raise ValueError(f"user {key}: not an object")
        rows["users"].append((key, i))

    load_records(db, {"users": ("user_id", "ord")}, (({"a": {}, "b": {}}, add),))
    assert db.execute("SELECT * FROM users").fetchall() == [("a", 0), ("b", 1)]
    with pytest.raises(ValueError):
        load_records(db, {"users": ("user_id", "ord")}, (({"c": {}, "d": 1}, add),))
    assert db.execute("SELECT count(*) FROM users").fetchone() == (2,)


def test_rule_checker_runs_rules_then_checks():
    db = _db()
    rules = [("emails are unique", "SELECT email FROM users GROUP BY email HAVING count(*) > 1"),
             ("no user u2", "SELECT user_id FROM users WHERE user_id = 'u2'")]
    invariants = rule_checker(rules, lambda db: ["python check"])
    assert invariants(db) == ["no user u2: u2", "python check"]
