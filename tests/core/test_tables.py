"""The declared native data formats: row tables and keyed tables round-trip exactly."""

from __future__ import annotations

import sqlite3

import pytest

from tool_gym.core.tables import (
    KeyedTables,
    Nested,
    RowTables,
    Table,
    group_rows,
    read_json,
)

SCHEMA = """
CREATE TABLE users (user_id TEXT PRIMARY KEY, name TEXT);
CREATE TABLE posts (post_id TEXT PRIMARY KEY, user_id TEXT REFERENCES users(user_id), title TEXT);
CREATE TABLE tags (post_id TEXT REFERENCES posts(post_id), tag TEXT, PRIMARY KEY (post_id, tag));
CREATE TABLE likes (post_id TEXT, user_id TEXT, PRIMARY KEY (post_id, user_id));
"""


def _db() -> sqlite3.Connection:
    db = sqlite3.connect(":memory:", isolation_level=None)
    db.execute("PRAGMA foreign_keys = ON")
    db.executescript(SCHEMA)
    return db


ROWS = RowTables("toy", ("users", "posts", "tags", "likes"))

ROW_DATA = {
    "likes": [{"post_id": "p1", "user_id": "u2"}],
    "posts": [{"post_id": "p1", "user_id": "u1", "title": "Hi"}],
    "tags": [{"post_id": "p1", "tag": "b"}, {"post_id": "p1", "tag": "a"}],
    "users": [{"user_id": "u1", "name": "Ann"}, {"user_id": "u2", "name": "Bo"}],
}


def test_row_tables_round_trip():
    db = _db()
    db.execute("BEGIN")
    ROWS.load(db, ROW_DATA)
    db.execute("COMMIT")
    assert ROWS.export(db) == ROW_DATA


@pytest.mark.parametrize("data, message", [
    ([], "toy data must be a JSON object, got list"),
    ({"nope": []}, r"toy data: unknown tables \['nope'\]"),
    ({"users": [{"user_id": "u1"}]}, r"toy data: users\[0\] has columns"),
])
def test_row_tables_reject_bad_data(data, message):
    with pytest.raises(ValueError, match=message):
        ROWS.load(_db(), data)


KEYED = KeyedTables((
    Table("users", ("user_id", "name")),
    Table("posts", ("post_id", "user_id", "title"),
          nested=(Nested("tags", "tags", "post_id", ("tag",), scalar=True),)),
    Table("likes", ("post_id", "user_id"), key=("post_id", "user_id")),
))

KEYED_DATA = {
    "users": {"u1": {"user_id": "u1", "name": "Ann"}, "u2": {"user_id": "u2", "name": "Bo"}},
    "posts": {"p1": {"post_id": "p1", "user_id": "u1", "title": "Hi", "tags": ["a", "b"]}},
    "likes": {"p1/u2": {"post_id": "p1", "user_id": "u2"}},
}


def test_keyed_tables_round_trip():
    db = _db()
    db.execute("BEGIN")
    KEYED.load(db, KEYED_DATA)
    db.execute("COMMIT")
    assert KEYED.export(db) == KEYED_DATA


def test_nested_dict_records():
    nested = Nested("tags", "tags", "post_id", ("tag",))
    assert list(nested.values({"post_id": "p1", "tags": [{"tag": "x"}]})) == [("p1", "x")]
    assert nested.record(("x",)) == {"tag": "x"}


def test_group_rows_keeps_order():
    assert group_rows([("a", 1), ("b", 2), ("a", 3)]) == {"a": [(1,), (3,)], "b": [(2,)]}


def test_read_json(tmp_path):
    (tmp_path / "x.json").write_text('{"a": "é"}', encoding="utf-8")
    assert read_json(tmp_path / "x.json") == {"a": "é"}
