"""Per-episode SQLite sandboxes made from a template built once per (domain, seed).

The template database is generated (or imported) once and kept as bytes from
``Connection.serialize``; a fresh sandbox is a ``deserialize`` of those bytes into a new
in-memory connection: no file I/O, no JSON parsing, full isolation between episodes.
"""

from __future__ import annotations

import functools
import hashlib
import json
import sqlite3
import threading
from pathlib import Path
from typing import Any

import sqlite_utils

from .domain import Domain, lookup_domain
from .tools import ToolResult

_HAS_SERIALIZE = hasattr(sqlite3.Connection, "serialize")  # Python 3.11+


def _connect() -> sqlite3.Connection:
    # Autocommit mode: tool calls manage their own savepoints.
    db = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
    return db


def _configure(db: sqlite3.Connection) -> sqlite3.Connection:
    db.execute("PRAGMA foreign_keys = ON")
    return db


class Template:
    """An immutable image of a domain's initial database.

    On Python 3.11+ the image is the serialized bytes; on 3.10 it is a private
    connection copied with the backup API.
    """

    def __init__(self, domain: Domain, db: sqlite3.Connection, key: tuple):
        self.domain = domain
        self.key = key
        self._lock = threading.Lock()
        self._local = threading.local()
        if _HAS_SERIALIZE:
            self.image: bytes | None = db.serialize()
            self._db = None
            db.close()
        else:  # pragma: no cover - exercised on Python 3.10 only
            self.image = None
            self._db = db

    def open(self) -> sqlite3.Connection:
        """A new in-memory connection holding a private copy of the template."""
        db = _connect()
        if self.image is not None:
            db.deserialize(self.image)
        else:  # pragma: no cover
            with self._lock:
                self._db.backup(db)
        return _configure(db)

    def reader(self) -> sqlite3.Connection:
        """A connection to the template's state kept open for reads (one per thread).

        Task samplers read the initial state here: its statements stay prepared from one
        episode to the next, which a freshly deserialized connection cannot offer. Never
        write through it.
        """
        db = getattr(self._local, "db", None)
        if db is None:
            db = self._local.db = self.open()
            db.execute("PRAGMA query_only = ON")
        return db

    @property
    def digest(self) -> str:
        """sha256 of the template bytes (proves the template never changes)."""
        if self.image is not None:
            return hashlib.sha256(self.image).hexdigest()
        with self._lock:  # pragma: no cover
            return hashlib.sha256("\n".join(self._db.iterdump()).encode()).hexdigest()


def build_database(domain: Domain, seed: int = 0, data: Any = None) -> sqlite3.Connection:
    """A new database of ``domain``: imported from ``data`` (a path or native data) or
    generated from ``seed``."""
    db = _configure(_connect())
    db.executescript(domain.schema)
    if data is None:
        native = domain.generate(seed)
    elif isinstance(data, (str, Path)):
        native = domain.read(Path(data))
    else:
        native = data
    db.execute("BEGIN")
    domain.load(db, native)
    db.execute("COMMIT")
    db.execute("ANALYZE")
    return db


@functools.lru_cache(maxsize=64)
def _cached_template(domain_name: str, seed: int, data_key: tuple | None) -> Template:
    domain = lookup_domain(domain_name)
    data = None if data_key is None else Path(data_key[0])
    return Template(domain, build_database(domain, seed, data), (domain_name, seed, data_key))


def template(domain: str, seed: int = 0, data: str | Path | None = None) -> Template:
    """The cached template of ``domain``: generated from ``seed``, or imported from ``data``.

    A data path is part of the cache key together with its modification time, so an
    edited file is imported again.
    """
    data_key = None
    if data is not None:
        path = Path(data).resolve()
        if not path.exists():
            raise FileNotFoundError(f"{domain}: no data at {path}")
        data_key = (str(path), path.stat().st_mtime_ns)
    return _cached_template(domain, int(seed), data_key)


def canonical_json(value: Any) -> str:
    """The canonical text of an exported state: ``json.dumps(..., sort_keys=True)``."""
    return json.dumps(value, sort_keys=True)


def export_tables(db: sqlite3.Connection) -> dict[str, list[dict]]:
    """Every table as a list of row dicts in rowid order (the generic export)."""
    tables = sqlite_utils.Database(db)
    return {name: list(tables[name].rows_where(order_by="rowid"))
            for name in sorted(tables.table_names()) if not name.startswith("sqlite_")}


class Sandbox:
    """One episode's private database of a domain, with its tools.

    Use :func:`tool_gym.sandbox` to get one.
    """

    def __init__(self, template: Template):
        self.template = template
        self.domain = template.domain
        self.db = template.open()
        self.toolbox = self.domain.toolbox

    # -- tools
    @property
    def tools(self) -> list[dict]:
        """OpenAI function schemas of the domain's tools."""
        return self.toolbox.schemas

    def call(self, name: str, arguments: Any = None) -> ToolResult:
        """Run one tool call. Errors come back as ``ToolResult(ok=False)``, never raised."""
        return self.toolbox.call(self.db, name, {} if arguments is None else arguments)

    # -- state
    def export(self, fmt: str | None = None) -> Any:
        """The whole state: in a domain format (``"tau2"``) or, by default, the canonical one."""
        fmt = fmt or self.domain.canonical
        if fmt is None or fmt == "tables":
            return export_tables(self.db)
        if fmt not in self.domain.exporters:
            known = ", ".join(["tables", *self.domain.exporters])
            raise ValueError(f"{self.domain.name}: unknown export format {fmt!r} (known: {known})")
        return self.domain.exporters[fmt](self.db)

    def state_json(self) -> str:
        """Canonical JSON text of the whole state."""
        return canonical_json(self.export())

    def state_hash(self) -> str:
        """sha256 of the canonical JSON of the whole state."""
        return hashlib.sha256(self.state_json().encode()).hexdigest()

    def snapshot(self) -> bytes | sqlite3.Connection:
        """A copy of the current state, for :meth:`restore` within the episode."""
        if _HAS_SERIALIZE:
            return self.db.serialize()
        copy = _connect()  # pragma: no cover
        self.db.backup(copy)  # pragma: no cover
        return copy  # pragma: no cover

    def restore(self, snapshot: bytes | sqlite3.Connection) -> None:
        """Put back a state taken with :meth:`snapshot`."""
        if isinstance(snapshot, bytes):
            self.db.deserialize(snapshot)
        else:  # pragma: no cover
            snapshot.backup(self.db)
        _configure(self.db)

    def reset(self) -> None:
        """Put back the template's state in this connection (cheaper than a new sandbox:
        the connection and its statement cache are kept)."""
        if self.template.image is not None:
            self.restore(self.template.image)
        else:  # pragma: no cover - Python 3.10
            self.db.close()
            self.db = self.template.open()

    def check_integrity(self) -> list[str]:
        """Problems found by SQLite's integrity and foreign-key checks, the domain's
        invariants and its quotas; an empty list means the sandbox is consistent."""
        problems = [f"integrity_check: {r[0]}" for r in self.db.execute("PRAGMA integrity_check")
                    if r[0] != "ok"]
        problems += [f"foreign key violation: {tuple(r)}" for r in
                     self.db.execute("PRAGMA foreign_key_check")]
        problems += self.domain.invariants(self.db)
        quota = self.toolbox.quotas.check_database(self.db)
        if quota:
            problems.append(f"quota: {quota}")
        return problems

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> "Sandbox":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def sandbox(domain: str, seed: int = 0, data: str | Path | None = None) -> Sandbox:
    """A fresh episode sandbox of ``domain``.

    Args:
        domain: a registered domain name, e.g. ``"retail"``.
        seed: seed of the generated database (ignored when ``data`` is given).
        data: path to public benchmark data (for retail, tau2's ``db.json``).
    """
    return Sandbox(template(domain, seed, data))
