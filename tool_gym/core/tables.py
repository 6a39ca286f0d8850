"""Native data formats of the domains, declared rather than written out: ``RowTables`` (one
list of row dicts per table) and ``KeyedTables`` (one map per table, keyed by the row's key,
with child tables nested into their parent's records). Each gives a domain's ``load``,
``read`` and ``export``.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Sequence

from .sandbox import export_tables

__all__ = ["KeyedTables", "Nested", "RowTables", "Table", "child_rows", "group_rows",
           "insert_rows", "load_records", "read_json", "table_columns"]

#: ``add(rows, index, key, record)``: checks one record of a native map and appends its
#: rows to ``rows[table]`` (value tuples in the table's load columns).
RecordAdder = Callable[[dict[str, list], int, str, Any], None]


def read_json(path: str | Path) -> Any:
    """The JSON value stored at ``path`` (UTF-8)."""
    return json.loads(Path(path).read_text(encoding="utf-8"))


def table_columns(db: sqlite3.Connection, table: str) -> list[str]:
    """The columns of ``table`` in schema order."""
    return [r[1] for r in db.execute(f'PRAGMA table_info("{table}")')]


def insert_rows(db: sqlite3.Connection, table: str, columns: Iterable[str],
                rows: Iterable[Iterable[Any]]) -> None:
    """Insert value tuples (in ``columns`` order) into ``table``."""
    columns = tuple(columns)
    names = ", ".join(f'"{c}"' for c in columns)
    marks = ", ".join("?" for _ in columns)
    db.executemany(f'INSERT INTO "{table}" ({names}) VALUES ({marks})', rows)


def load_records(db: sqlite3.Connection, columns: Mapping[str, Sequence[str]],
                 maps: Iterable[tuple[Mapping[str, Any], RecordAdder]]) -> None:
    """Insert the native ``maps`` (each with the adder of its records) into the tables of
    ``columns`` (table -> load columns, in insertion order); every record is checked before
    the first row is written."""
    rows: dict[str, list] = {table: [] for table in columns}
    for records, add in maps:
        for i, (key, record) in enumerate(records.items()):
            add(rows, i, key, record)
    for table, names in columns.items():
        insert_rows(db, table, names, rows[table])


def group_rows(rows: Iterable[tuple]) -> dict[Any, list[tuple]]:
    """Rows grouped by their first value (in order of appearance), each without it."""
    groups: dict[Any, list[tuple]] = {}
    for row in rows:
        group = groups.get(row[0])
        if group is None:
            group = groups[row[0]] = []
        group.append(row[1:])
    return groups


def child_rows(db: sqlite3.Connection, table: str, parent: str, columns: str,
               order: str = "pos") -> dict[Any, list[tuple]]:
    """The ``columns`` (an SQL select list) of the rows of ``table``, grouped by their
    ``parent`` key, each group ordered by ``order``."""
    return group_rows(db.execute(f"SELECT {parent}, {columns} FROM {table} "
                                 f"ORDER BY {parent}, {order}"))


@dataclass(frozen=True)
class RowTables:
    """Native data ``{table: [row dict, ...]}``: every column present, rows in rowid order.

    ``export`` is the generic table export, so ``export(load(data)) == data``.
    """

    label: str  #: names the domain in error messages ("banking data: ...")
    tables: tuple[str, ...]  #: every table, referenced tables first

    def load(self, db: sqlite3.Connection, data: dict) -> None:
        """Insert ``data`` into an empty database (no commit; references checked at commit)."""
        if not isinstance(data, dict):
            raise ValueError(f"{self.label} data must be a JSON object, "
                             f"got {type(data).__name__}")
        unknown = sorted(set(data) - set(self.tables))
        if unknown:
            raise ValueError(f"{self.label} data: unknown tables {unknown}")
        db.execute("PRAGMA defer_foreign_keys = ON")
        for table in self.tables:
            rows = data.get(table, [])
            if rows:
                self._insert(db, table, rows)

    def _insert(self, db: sqlite3.Connection, table: str, rows: list[dict]) -> None:
        columns = table_columns(db, table)
        for i, row in enumerate(rows):
            if set(row) != set(columns):
                raise ValueError(f"{self.label} data: {table}[{i}] has columns {sorted(row)}, "
                                 f"expected {sorted(columns)}")
        insert_rows(db, table, columns, (tuple(row[c] for c in columns) for row in rows))

    @staticmethod
    def read(path: str | Path) -> dict:
        """The native data stored as JSON at ``path``."""
        return read_json(path)

    @staticmethod
    def export(db: sqlite3.Connection) -> dict[str, list[dict]]:
        """The canonical state: every table as a list of row dicts in rowid order."""
        return export_tables(db)


@dataclass(frozen=True)
class Nested:
    """A child table stored inside its parent's records as the list ``field``.

    The child rows carry the parent's key in ``parent``; the list holds dicts of ``columns``
    (or, with ``scalar``, the value of its one column), ordered by those columns.
    """

    field: str
    table: str
    parent: str
    columns: tuple[str, ...]
    scalar: bool = False

    def values(self, record: dict) -> Iterable[tuple]:
        key = record[self.parent]
        if self.scalar:
            return ((key, value) for value in record[self.field])
        return ((key, *(child[c] for c in self.columns)) for child in record[self.field])

    def record(self, row: tuple) -> Any:
        return row[0] if self.scalar else dict(zip(self.columns, row))


@dataclass(frozen=True)
class Table:
    """A table of a ``KeyedTables`` format; ``key`` defaults to the first column."""

    name: str
    columns: tuple[str, ...]
    key: tuple[str, ...] = ()
    nested: tuple[Nested, ...] = ()

    @property
    def keys(self) -> tuple[str, ...]:
        return self.key or self.columns[:1]

    def map_key(self, row: tuple) -> Any:
        """The row's key in the native map (a composite key joins its parts with ``/``)."""
        if len(self.keys) == 1:
            return row[self.columns.index(self.keys[0])]
        return "/".join(str(row[self.columns.index(k)]) for k in self.keys)


@dataclass(frozen=True)
class KeyedTables:
    """Native data ``{table: {key: record}}``, tables in load order (referenced ones first).

    ``export`` rebuilds the native data exactly: maps ordered by key, nested lists by their
    columns.
    """

    tables: tuple[Table, ...]

    def load(self, db: sqlite3.Connection, data: dict) -> None:
        """Write ``data`` into an empty database (references are checked at commit)."""
        db.execute("PRAGMA defer_foreign_keys = ON")
        for table in self.tables:
            records = data[table.name].values()
            insert_rows(db, table.name, table.columns,
                        ([r[c] for c in table.columns] for r in records))
            for child in table.nested:
                insert_rows(db, child.table, (child.parent, *child.columns),
                            (values for r in records for values in child.values(r)))

    @staticmethod
    def read(path: str | Path) -> dict:
        """Native data from a JSON file (as written by ``json.dump(export(db))``)."""
        return read_json(path)

    def export(self, db: sqlite3.Connection) -> dict:
        """The whole state in the native shape (the canonical export of the domain)."""
        return {table.name: self._records(db, table) for table in self.tables}

    @staticmethod
    def _records(db: sqlite3.Connection, table: Table) -> dict:
        names = ", ".join(f'"{c}"' for c in table.columns)
        order = ", ".join(f'"{c}"' for c in table.keys)
        records = {table.map_key(row): dict(zip(table.columns, row)) for row in
                   db.execute(f'SELECT {names} FROM "{table.name}" ORDER BY {order}')}
        for child in table.nested:
            for record in records.values():
                record[child.field] = []
            columns = ", ".join(f'"{c}"' for c in (child.parent, *child.columns))
            for row in db.execute(f'SELECT {columns} FROM "{child.table}" ORDER BY {columns}'):
                records[row[0]][child.field].append(child.record(row[1:]))
        return records
