"""Quotas of a toolbox: argument sizes, result size, rows per table and bytes per sandbox."""
import sqlite3

import pytest

from tool_gym.core.tools import Category, QuotaExceeded, Quotas, ToolError, Toolbox, tool


@tool(Category.WRITE)
def add_notes(db, text: str, copies: int = 1) -> dict:
    """Store a note several times.

    Args:
        text: The note.
        copies: How many rows to add.
    """
    db.executemany("INSERT INTO notes (text) VALUES (?)", [(text,)] * copies)
    return {"rows": db.execute("SELECT count(*) FROM notes").fetchone()[0]}


@tool(Category.WRITE)
def tag(db, tags: list[str]) -> dict:
    """Store tags.

    Args:
        tags: The tags.
    """
    db.executemany("INSERT INTO tags (tag) VALUES (?)", [(t,) for t in tags])
    return {"tags": len(tags)}


@tool(Category.WRITE)
def quirky_add(db, text: str, copies: int) -> dict:
    """Add rows, then fail keeping them (a tau2-style quirk).

    Args:
        text: The note.
        copies: How many rows to add.
    """
    db.executemany("INSERT INTO notes (text) VALUES (?)", [(text,)] * copies)
    raise ToolError("failed after writing", keep_effects=True)


@tool(Category.WRITE)
def bulk_copy(db, copies: int) -> dict:
    """Copy the notes, asking for room first.

    Args:
        copies: How many copies of the first note to add.
    """
    QUOTAS.room(db, "notes", copies, "notes copied")
    db.executemany("INSERT INTO notes (text) SELECT text FROM notes LIMIT 1", [()] * copies)
    return {"ok": True}


@tool(Category.READ)
def read_all(db) -> list:
    """All notes."""
    return [r[0] for r in db.execute("SELECT text FROM notes ORDER BY id")]


QUOTAS = Quotas(rows={"notes": 20}, default_rows=50, batch=5, max_bytes=2 * 1024 * 1024,
                max_text=1_000, max_items=10, max_result=5_000)
BOX = Toolbox([add_notes, tag, quirky_add, bulk_copy, read_all], QUOTAS)


@pytest.fixture()
def db():
    db = sqlite3.connect(":memory:", isolation_level=None)
    db.executescript("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL);"
                     "CREATE TABLE tags (tag TEXT NOT NULL);")
    return db


def rows(db, table="notes"):
    return db.execute(f"SELECT count(*) FROM {table}").fetchone()[0]


def refused(result, *fragments):
    assert not result.ok and result.content.startswith("Error: quota exceeded: "), result
    for fragment in fragments:
        assert fragment in result.content, (fragment, result.content)


def test_default_quotas_and_module_declaration():
    assert Toolbox([read_all]).quotas == Quotas()

    class Module:
        pass
    Module.read_all, Module.QUOTAS = read_all, QUOTAS
    assert Toolbox.from_module(Module).quotas is QUOTAS


def test_text_and_item_quotas_refuse_before_running(db):
    refused(BOX.call(db, "add_notes", {"text": "x" * 1_001}), "'text'", "1001", "1000")
    refused(BOX.call(db, "tag", {"tags": ["a"] * 11}), "11 items", "at most 10")
    refused(BOX.call(db, "tag", {"tags": ["a", "y" * 1_001]}), "'tags'[1]")
    assert rows(db) == 0 and rows(db, "tags") == 0
    assert BOX.call(db, "add_notes", {"text": "x" * 1_000}).ok
    assert BOX.call(db, "tag", {"tags": ["a"] * 10}).ok


def test_row_quota_rolls_the_whole_call_back(db):
    assert BOX.call(db, "add_notes", {"text": "a", "copies": 15}).ok
    refused(BOX.call(db, "add_notes", {"text": "a", "copies": 6}), "notes", "21 rows",
            "at most 20")
    assert rows(db) == 15
    assert BOX.call(db, "add_notes", {"text": "a", "copies": 5}).ok
    assert rows(db) == 20
    refused(BOX.call(db, "add_notes", {"text": "a"}))
    assert rows(db) == 20


def test_default_rows_cover_undeclared_tables(db):
    for _ in range(5):
        assert BOX.call(db, "tag", {"tags": ["t"] * 10}).ok
    refused(BOX.call(db, "tag", {"tags": ["t"]}), "tags", "at most 50")
    assert rows(db, "tags") == 50


def test_byte_quota(db):
    box = Toolbox([add_notes], Quotas(max_bytes=64 * 1024, max_text=1_000))
    results = [box.call(db, "add_notes", {"text": "z" * 1_000, "copies": 3})
               for _ in range(40)]
    first = next(i for i, r in enumerate(results) if not r.ok)
    refused(results[first], "bytes", "at most 65536")
    assert all(r.ok for r in results[:first]) and first > 5
    size = db.execute("PRAGMA page_count").fetchone()[0] * \
        db.execute("PRAGMA page_size").fetchone()[0]
    assert size <= 64 * 1024
    assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_room_bounds_one_call_and_the_table(db):
    assert BOX.call(db, "add_notes", {"text": "n", "copies": 12}).ok
    refused(BOX.call(db, "bulk_copy", {"copies": 6}), "6 notes copied at once", "at most 5")
    assert BOX.call(db, "bulk_copy", {"copies": 5}).ok
    refused(BOX.call(db, "bulk_copy", {"copies": 4}), "17 + 4", "limit of 20")
    assert rows(db) == 17
    with pytest.raises(QuotaExceeded):
        QUOTAS.room(db, "notes", 4)
    QUOTAS.room(db, "notes", 3)


def test_result_quota(db):
    assert BOX.call(db, "add_notes", {"text": "r" * 1_000, "copies": 4}).ok
    assert BOX.call(db, "read_all", {}).ok
    assert BOX.call(db, "add_notes", {"text": "r" * 1_000, "copies": 1}).ok
    refused(BOX.call(db, "read_all", {}), "result", "at most 5000")


def test_a_write_past_its_result_quota_is_rolled_back(db):
    box = Toolbox([read_all, add_notes], Quotas(max_result=10))
    refused(box.call(db, "add_notes", {"text": "a", "copies": 1_000}), "result")
    assert rows(db) == 0


def test_keep_effects_never_keeps_a_quota_breach(db):
    assert not BOX.call(db, "quirky_add", {"text": "k", "copies": 3}).ok
    assert rows(db) == 3  # the quirk keeps its writes within the quotas
    result = BOX.call(db, "quirky_add", {"text": "k", "copies": 18})
    assert not result.ok and rows(db) == 3
