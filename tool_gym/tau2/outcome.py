"""tau2's database check, by replaying a task's gold actions on the initial database.

tau2 scores a task's database part (``db_match``) by replaying the gold actions
(``evaluation_criteria.actions``, reads and writes, a failing one skipped) on a fresh copy of
the initial database and comparing the result with the agent's final database. Here the
same replay runs once per task on a private sandbox of the template (:func:`replay_gold`),
and keeps:

- per gold write, the rows it added and removed, table by table (:class:`GoldWrite`): a
  need of the scripted user holds when the live database has the added rows and lacks the
  removed ones (:func:`write_holds`), so the user can tell, turn by turn and in any order,
  which of its writes were made;
- the final tables: :func:`db_match` compares the live tables with them (every row of
  every table, as multisets: equal tables give equal exports); tables that differ in a
  value are a mismatch, and only a difference in the ordering columns alone is settled by
  comparing the canonical exports (tau2's own structure, what tau2 hashes), so a
  different internal ordering key that leaves every list in the same order is no
  mismatch.
"""

from __future__ import annotations

import sqlite3
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Sequence

from ..core.sandbox import Sandbox, Template
from ..core.tools import Category

__all__ = ["GoldWrite", "GoldOutcome", "replay_gold", "write_holds", "db_match",
           "table_rows"]

Rows = dict[str, Counter]


def _tables(db: sqlite3.Connection) -> list[str]:
    return [name for (name,) in db.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
        "ORDER BY name")]


def table_rows(db: sqlite3.Connection) -> Rows:
    """Every row of every table, as a multiset per table."""
    return {t: Counter(db.execute(f'SELECT * FROM "{t}"')) for t in _tables(db)}


def _diff(before: Rows, after: Rows) -> tuple[dict, dict]:
    added, removed = {}, {}
    for table in after.keys() | before.keys():
        a, b = after.get(table, Counter()), before.get(table, Counter())
        plus, minus = tuple(sorted((a - b).elements(), key=repr)), \
            tuple(sorted((b - a).elements(), key=repr))
        if plus:
            added[table] = plus
        if minus:
            removed[table] = minus
    return added, removed


@dataclass(frozen=True)
class GoldWrite:
    """One gold write as replayed: its place among the gold actions, whether tau2's tool
    accepted it, and the rows it added and removed (empty when it failed)."""

    index: int
    name: str
    arguments: dict
    ok: bool
    result: str
    added: dict = field(default_factory=dict)
    removed: dict = field(default_factory=dict)

    @property
    def effective(self) -> bool:
        return bool(self.added or self.removed)


@dataclass
class GoldOutcome:
    """The replay of one task's gold actions (see the module docstring)."""

    writes: list[GoldWrite]
    results: list[tuple[str, dict, bool, str]]  # every gold action: name, args, ok, result
    final: Rows
    exporter: Any
    _export: Any = None

    def final_export(self, template: Template) -> Any:
        if self._export is None:
            with Sandbox(template) as box:
                for name, arguments, _, _ in self.results:
                    box.call(name, arguments)
                self._export = self.exporter(box.db)
        return self._export


def replay_gold(template: Template, actions: Sequence[dict]) -> GoldOutcome:
    """Run tau2's gold ``actions`` (``{"name", "arguments"}``) on a fresh sandbox."""
    domain = template.domain
    toolbox = domain.toolbox
    writes: list[GoldWrite] = []
    results = []
    with Sandbox(template) as box:
        rows = None
        for index, action in enumerate(actions):
            name, arguments = action["name"], dict(action.get("arguments") or {})
            is_write = name in toolbox and toolbox[name].category is Category.WRITE
            if is_write and rows is None:
                rows = table_rows(box.db)
            result = box.call(name, arguments)
            results.append((name, arguments, result.ok, result.content))
            if not is_write:
                continue
            after = table_rows(box.db)
            added, removed = _diff(rows, after) if result.ok else ({}, {})
            writes.append(GoldWrite(index, name, arguments, result.ok, result.content,
                                    added, removed))
            rows = after
        final = rows if rows is not None else table_rows(box.db)
    exporter = domain.exporters[domain.canonical]
    return GoldOutcome(writes, results, final, exporter)


def _count(db: sqlite3.Connection, table: str, row: tuple) -> int:
    columns = [r[1] for r in db.execute(f'PRAGMA table_info("{table}")')]
    where = " AND ".join(f'"{c}" IS ?' for c in columns)
    return db.execute(f'SELECT count(*) FROM "{table}" WHERE {where}', row).fetchone()[0]


def write_holds(db: sqlite3.Connection, write: GoldWrite) -> bool:
    """Whether the live database shows ``write``'s effect: every row it added is there and
    every row it removed is gone (a write that changed nothing holds trivially)."""
    for table, rows in write.added.items():
        for row, n in Counter(rows).items():
            if _count(db, table, row) < n:
                return False
    for table, rows in write.removed.items():
        for row in set(rows):
            if _count(db, table, row) > 0 and row not in write.added.get(table, ()):
                return False
    return True


#: Columns that only order records within a list (``ord``, ``pos``): the export shows
#: them as list order, not as values.
ORDER_COLUMNS = ("ord", "pos")


def _values_only(db: sqlite3.Connection, rows: Rows) -> Rows:
    """``rows`` without their ordering columns."""
    out = {}
    for table, counter in rows.items():
        columns = [r[1] for r in db.execute(f'PRAGMA table_info("{table}")')]
        keep = [i for i, c in enumerate(columns) if c not in ORDER_COLUMNS]
        out[table] = Counter({tuple(row[i] for i in keep): n for row, n in counter.items()})
    return out


def db_match(db: sqlite3.Connection, gold: GoldOutcome, template: Template) -> bool:
    """tau2's DB check: the live database equals the gold replay's (see the module
    docstring). Equal tables match; tables that differ in a value (not only in an
    ordering column) do not; only an ordering difference is settled by the exports."""
    live = table_rows(db)
    if live == gold.final:
        return True
    if _values_only(db, live) != _values_only(db, gold.final):
        return False
    return gold.exporter(db) == gold.final_export(template)
