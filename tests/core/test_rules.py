"""Invariants as SQL rules."""

from __future__ import annotations

import sqlite3

from tool_gym.core.rules import rule_problems


def _db(n: int) -> sqlite3.Connection:
    db = sqlite3.connect(":memory:")
    db.execute("CREATE TABLE t (id TEXT, v INTEGER)")
    db.executemany("INSERT INTO t VALUES (?, -1)", [(f"r{i}",) for i in range(n)])
    return db


RULES = [("values are non-negative", "SELECT id FROM t WHERE v < 0 ORDER BY id"),
         ("always holds", "SELECT id FROM t WHERE 0")]


def test_offenders_are_named_up_to_the_limit():
    assert rule_problems(_db(0), RULES) == []
    assert rule_problems(_db(2), RULES) == ["values are non-negative: r0",
                                            "values are non-negative: r1"]
    assert len(rule_problems(_db(12), RULES)) == 10
    assert rule_problems(_db(3), RULES, limit=2) == ["values are non-negative: r0",
                                                     "values are non-negative: r1"]


def test_flag_more():
    problems = rule_problems(_db(3), RULES, limit=2, flag_more=True)
    assert problems[-1] == "values are non-negative: ... (more)" and len(problems) == 3
    assert rule_problems(_db(2), RULES, limit=2, flag_more=True)[-1].endswith("r1")
