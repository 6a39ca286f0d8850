"""Ids and positions derived from the state: the same state gives the same id."""

from __future__ import annotations

import sqlite3

from tool_gym.core.ids import counted_id, first_free, next_number, next_serial_id


def _db(*ids: str) -> sqlite3.Connection:
    db = sqlite3.connect(":memory:")
    db.execute("CREATE TABLE t (id TEXT PRIMARY KEY, owner TEXT, pos INTEGER)")
    db.executemany("INSERT INTO t VALUES (?, ?, ?)",
                   [(i, "a" if n % 2 else "b", n) for n, i in enumerate(ids)])
    return db


def test_counted_id_starts_after_the_row_count_and_skips_taken_ids():
    assert counted_id(_db(), "t", "id", "x_") == "x_00000001"
    assert counted_id(_db("x_00000003", "y"), "t", "id", "x_") == "x_00000004"
    assert counted_id(_db("q", "r"), "t", "id", "x_", width=3) == "x_003"


def test_next_serial_id_follows_the_highest_number():
    assert next_serial_id(_db(), "t", "id", "msg_", 4) == "msg_0001"
    assert next_serial_id(_db("msg_0009", "msg_0010", "other"), "t", "id", "msg_", 4) == \
        "msg_0011"
    assert next_serial_id(_db("msg_99999"), "t", "id", "msg_", 4) == "msg_100000"


def test_first_free_within_a_scope():
    db = _db("A", "B")
    assert first_free(db, "t", "id", ("A", "B", "C")) == "C"
    assert first_free(db, "t", "id", ("A", "B"), scope={"owner": "b"}) == "B"
    assert first_free(db, "t", "id", ("A", "B")) is None


def test_next_number():
    db = _db("A", "B", "C")
    assert next_number(db, "t", "pos") == 3
    assert next_number(db, "t", "pos", scope={"owner": "a"}) == 2
    assert next_number(db, "t", "pos", start=7, scope={"owner": "z"}) == 7
