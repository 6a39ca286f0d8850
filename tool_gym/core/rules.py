"""Invariants written as SQL rules: ``(description, query)`` pairs whose query returns one
row per offending record, its first column naming the record."""

from __future__ import annotations

import sqlite3
from typing import Callable, Iterable, Sequence

__all__ = ["LIMIT", "rule_checker", "rule_problems"]

#: A check of a database: the problems it finds (empty when all is well).
Check = Callable[[sqlite3.Connection], list[str]]

#: The most offending rows reported per rule.
LIMIT = 10


def rule_problems(db: sqlite3.Connection, rules: Iterable[tuple[str, str]], *,
                  limit: int = LIMIT, flag_more: bool = False) -> list[str]:
    """``"<description>: <offender>"`` for at most ``limit`` offenders of each rule; with
    ``flag_more``, a rule with more offenders adds ``"<description>: ... (more)"``."""
    problems: list[str] = []
    for description, query in rules:
        rows = db.execute(f"{query} LIMIT {limit + 1 if flag_more else limit}").fetchall()
        problems += [f"{description}: {row[0]}" for row in rows[:limit]]
        if len(rows) > limit:
            problems.append(f"{description}: ... (more)")
    return problems


def rule_checker(rules: Sequence[tuple[str, str]], *checks: Check,
                 flag_more: bool = False) -> Check:
    """A domain's ``invariants(db)``: the problems with ``rules`` (as :func:`rule_problems`
    reports them), then those each of ``checks`` (rules written in Python) finds."""

    def invariants(db: sqlite3.Connection) -> list[str]:
        problems = rule_problems(db, rules, flag_more=flag_more)
        for check in checks:
            problems += check(db)
        return problems

    return invariants
