"""Tools: the ``@tool`` decorator, OpenAI schemas from signatures, argument validation.

The full explanation is in ``docs/tools.md``.
"""

from __future__ import annotations

import enum
import inspect
import json
import math
import re
import sqlite3
import types
import typing
from dataclasses import dataclass, field
from typing import Any, Annotated, Callable, Iterable, Literal, Mapping

__all__ = [
    "Annotated",
    "Category",
    "Entity",
    "QuotaExceeded",
    "Quotas",
    "Tool",
    "ToolError",
    "ToolResult",
    "Toolbox",
    "tool",
    "to_json",
]


class Category(str, enum.Enum):
    """READ tools never change state; WRITE tools may; GENERIC tools touch no data."""

    READ = "read"
    WRITE = "write"
    GENERIC = "generic"


@dataclass(frozen=True)
class Entity:
    """Marks a parameter or a returned field as an identifier of an entity type."""

    type: str


class ToolError(Exception):
    """Raised by a tool for a failure the caller should see as ``Error: <message>``.

    Whatever the call wrote before raising is rolled back, unless ``keep_effects`` is
    true: some reference implementations (tau2) have no rollback, and a faithful port
    must then keep the writes made before the error.
    """

    def __init__(self, message: str, *, keep_effects: bool = False):
        super().__init__(message)
        self.keep_effects = keep_effects


@dataclass(frozen=True)
class ToolResult:
    """Outcome of one call: ``ok`` and ``content`` (JSON text, or ``Error: ...``)."""

    ok: bool
    content: str
    name: str = ""
    #: 0 no such tool, 1 tool exists, 2 arguments valid, 3 executed without error.
    stage: int = 3

    @property
    def validity(self) -> float:
        """Graded validity: 0, 1/3, 2/3 or 1 (name known, arguments valid, ran without error)."""
        return self.stage / 3.0


def to_json(value: Any) -> str:
    """Deterministic JSON text of a tool's return value (strings pass through as they are)."""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)


# --------------------------------------------------------------------------- schemas

_SCALARS: dict[type, str] = {str: "string", int: "integer", float: "number", bool: "boolean"}


def _json_schema(hint: Any) -> tuple[dict, str | None]:
    """JSON schema of a type hint, and the entity type it carries (if any)."""
    entity = None
    if typing.get_origin(hint) is Annotated:
        base, *meta = typing.get_args(hint)
        for m in meta:
            if isinstance(m, Entity):
                entity = m.type
        schema, inner = _json_schema(base)
        return schema, entity or inner
    origin = typing.get_origin(hint)
    if hint in _SCALARS:
        return {"type": _SCALARS[hint]}, None
    if origin is Literal:
        values = list(typing.get_args(hint))
        kinds = {_SCALARS[type(v)] for v in values}
        return {"type": kinds.pop() if len(kinds) == 1 else sorted(kinds), "enum": values}, None
    if origin in (list, tuple, set, frozenset) or hint is list:
        args = typing.get_args(hint)
        item, entity = _json_schema(args[0]) if args else ({}, None)
        return {"type": "array", "items": item}, entity
    if origin in (dict, Mapping) or hint is dict:
        return {"type": "object"}, None
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(hint) if a is not type(None)]
        if len(args) == 1:
            return _json_schema(args[0])
    raise TypeError(f"unsupported type hint for a tool parameter: {hint!r}")


_ARGS_HEADER = re.compile(r"^\s*(Args|Arguments|Parameters)\s*:\s*$")
_SECTION_HEADER = re.compile(r"^\s*(Returns|Raises|Yields|Examples?|Notes?)\s*:\s*$")
_ARG_LINE = re.compile(r"^\s*(\w+)\s*(\([^)]*\))?\s*:\s*(.*)$")


def _parse_docstring(doc: str) -> tuple[str, dict[str, str]]:
    """Google-style docstring -> (description, {param: description})."""
    lines = inspect.cleandoc(doc or "").splitlines()
    description: list[str] = []
    params: dict[str, str] = {}
    section = "description"
    current = None
    indent = None
    for line in lines:
        if _ARGS_HEADER.match(line):
            section = "args"
            continue
        if _SECTION_HEADER.match(line):
            section = "other"
            continue
        if section == "description":
            description.append(line)
        elif section == "args" and line.strip():
            this_indent = len(line) - len(line.lstrip())
            match = _ARG_LINE.match(line)
            if match and (indent is None or this_indent <= indent):
                indent = this_indent
                current = match.group(1)
                params[current] = match.group(3).strip()
            elif current:
                params[current] = (params[current] + " " + line.strip()).strip()
    text = " ".join(" ".join(description).split())
    return text, params


@dataclass(frozen=True)
class Tool:
    """A tool function with its schema and metadata."""

    name: str
    fn: Callable[..., Any]
    category: Category
    description: str
    parameters: dict  # JSON schema of the arguments object
    input_entities: dict[str, str] = field(default_factory=dict)  # param -> entity type
    output_entities: dict[str, str] = field(default_factory=dict)  # field -> entity type
    #: Entity types whose state a successful call creates or changes (implicit graph edges).
    writes: tuple[str, ...] = ()
    #: Entity types whose state the tool needs in a particular condition (implicit edges).
    needs: tuple[str, ...] = ()

    @property
    def schema(self) -> dict:
        """OpenAI ``tools`` entry for this tool."""
        return {
            "type": "function",
            "function": {
                "name": self.name,
                "description": self.description,
                "parameters": self.parameters,
            },
        }

    @property
    def required(self) -> list[str]:
        return list(self.parameters.get("required", []))


def tool(
    category: Category | str = Category.READ,
    *,
    name: str | None = None,
    returns: Mapping[str, Any] | None = None,
    writes: Iterable[str] = (),
    needs: Iterable[str] = (),
) -> Callable[[Callable[..., Any]], Tool]:
    """Turn ``fn(db, **params)`` into a :class:`Tool`.

    ``returns`` maps a field of the result (``"."`` for the result itself) to an entity
    type, either a string or ``Annotated[..., Entity(...)]``.
    """
    category = Category(category)

    def decorate(fn: Callable[..., Any]) -> Tool:
        hints = typing.get_type_hints(fn, include_extras=True)
        description, docs = _parse_docstring(fn.__doc__ or "")
        properties: dict[str, dict] = {}
        required: list[str] = []
        entities: dict[str, str] = {}
        params = list(inspect.signature(fn).parameters.values())[1:]  # skip the connection
        for p in params:
            if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
                raise TypeError(f"{fn.__name__}: *args/**kwargs are not allowed in tools")
            if p.name not in hints:
                raise TypeError(f"{fn.__name__}: parameter {p.name!r} needs a type hint")
            schema, entity = _json_schema(hints[p.name])
            if p.name in docs:
                schema = {**schema, "description": docs[p.name]}
            properties[p.name] = schema
            if entity:
                entities[p.name] = entity
            if p.default is inspect.Parameter.empty:
                required.append(p.name)
            else:
                properties[p.name]["default"] = p.default
        outputs = {}
        for key, value in (returns or {}).items():
            if isinstance(value, str):
                outputs[key] = value
            else:
                _, entity = _json_schema(value)
                if entity is None:
                    raise TypeError(f"{fn.__name__}: returns[{key!r}] carries no Entity")
                outputs[key] = entity
        return Tool(
            name=name or fn.__name__,
            fn=fn,
            category=category,
            description=description,
            parameters={"type": "object", "properties": properties, "required": required},
            input_entities=entities,
            output_entities=outputs,
            writes=tuple(writes),
            needs=tuple(needs),
        )

    return decorate


# ------------------------------------------------------------------------ validation

_JSON_TYPES: dict[str, Callable[[Any], bool]] = {
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: (isinstance(v, int) and not isinstance(v, bool)
                          or isinstance(v, float) and v.is_integer()),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "array": lambda v: isinstance(v, list),
    "object": lambda v: isinstance(v, dict),
    "null": lambda v: v is None,
}

#: Longest string accepted in any argument (characters). Longer ones are an error.
MAX_STRING = 100_000
_MAX_DEPTH = 32
_INT_MIN, _INT_MAX = -(2**63), 2**63 - 1


def _type_name(value: Any) -> str:
    for name in ("boolean", "integer", "number", "string", "array", "object", "null"):
        if _JSON_TYPES[name](value):
            return name
    return type(value).__name__


def _check_value(value: Any, schema: dict, where: str, depth: int = 0) -> str | None:
    if depth > _MAX_DEPTH:
        return f"{where} is nested too deeply"
    expected = schema.get("type")
    if expected is not None:
        kinds = expected if isinstance(expected, list) else [expected]
        if not any(_JSON_TYPES[k](value) for k in kinds):
            return f"{where} must be of type {' or '.join(kinds)}, got {_type_name(value)}"
    if isinstance(value, float) and not math.isfinite(value):
        return f"{where} must be a finite number"
    if isinstance(value, int) and not isinstance(value, bool) and not _INT_MIN <= value <= _INT_MAX:
        return f"{where} is out of range (a 64-bit integer at most)"
    if isinstance(value, str):
        if len(value) > MAX_STRING:
            return f"{where} is too long ({len(value)} characters; at most {MAX_STRING})"
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return f"{where} is not valid UTF-8 text"
        if "\x00" in value:
            return f"{where} contains a NUL character"
    if "enum" in schema and value not in schema["enum"]:
        allowed = ", ".join(json.dumps(v) for v in schema["enum"])
        return f"{where} must be one of {allowed}, got {json.dumps(value, ensure_ascii=False)[:80]}"
    if isinstance(value, list) and "items" in schema:
        for i, item in enumerate(value):
            problem = _check_value(item, schema["items"], f"{where}[{i}]", depth + 1)
            if problem:
                return problem
    if isinstance(value, dict):
        for key, item in value.items():
            problem = _check_value(item, {}, f"{where}.{key}", depth + 1)
            if problem:
                return problem
    return None


def validate_arguments(t: Tool, arguments: Any) -> str | None:
    """First problem with ``arguments`` for tool ``t``, or ``None`` when they are valid."""
    if not isinstance(arguments, dict):
        return f"arguments of {t.name} must be a JSON object, got {_type_name(arguments)}"
    properties = t.parameters["properties"]
    for key in arguments:
        if not isinstance(key, str) or key not in properties:
            known = ", ".join(properties) or "none"
            return f"unknown parameter {str(key)[:80]!r} for {t.name} (parameters: {known})"
    missing = [p for p in t.required if p not in arguments]
    if missing:
        return f"missing required parameter(s) for {t.name}: {', '.join(missing)}"
    for key, value in arguments.items():
        problem = _check_value(value, properties[key], f"parameter {key!r}")
        if problem:
            return problem
    return None


def _coerce_integers(t: Tool, arguments: dict) -> dict:
    """``2.0`` for an integer parameter becomes ``2`` (JSON Schema counts it as an integer)."""
    props = t.parameters["properties"]
    if not any(isinstance(v, float) and props[k].get("type") == "integer"
               for k, v in arguments.items()):
        return arguments
    return {k: int(v) if isinstance(v, float) and props[k].get("type") == "integer" else v
            for k, v in arguments.items()}


# --------------------------------------------------------------------------- quotas


class QuotaExceeded(ToolError):
    """A tool call would grow the sandbox past a quota; seen as ``Error: quota exceeded: ...``."""

    def __init__(self, message: str):
        super().__init__(f"quota exceeded: {message}")


@dataclass(frozen=True)
class Quotas:
    """Bounds on what the tool calls of one sandbox can grow, so every step stays cheap.

    A domain declares ``QUOTAS = Quotas(...)`` in its tools module
    (:meth:`Toolbox.from_module` picks it up); a toolbox without one gets the defaults.
    The :class:`Toolbox` enforces them on every call:

    * before a WRITE runs: no string argument longer than ``max_text`` characters (a
      stored text) and no array argument with more than ``max_items`` items;
    * after a WRITE that changed a row, still inside its savepoint: every table holds at
      most ``rows.get(table, default_rows)`` rows and the database at most ``max_bytes``
      (``page_count x page_size``); otherwise the call is rolled back;
    * any call: its result holds at most ``max_result`` characters.

    A tool that may add many rows in one call (a folder copy) asks :meth:`room` before
    it starts, so that one call adds at most ``batch`` rows to a table. A quota hit is a
    :class:`QuotaExceeded` (a :class:`ToolError`): ``Error: quota exceeded: ...``, and
    nothing of the call stays.

    Bounds. With ``R`` the largest table (rows) and ``S`` the database size, a step's
    cost is that of one call over tables of at most ``R`` rows and ``S`` bytes (plus at
    most ``batch`` inserted rows, and one ``count(*)`` per table after a write, which
    SQLite answers from the b-tree page count), and the sandbox never exceeds
    ``max_bytes`` after a call. The defaults (25,000 rows, 16 MiB, 1,000 rows a call)
    keep a step of every domain under 100 ms and a sandbox under 64 MB
    (``benchmarks/step_cost.py`` measures it); they sit far above what any task, tau2's
    included, needs: templates hold at most about 9,000 rows in a table and 4 MB.
    """

    rows: Mapping[str, int] = field(default_factory=dict)
    default_rows: int = 25_000
    batch: int = 1_000
    max_bytes: int = 16 * 1024 * 1024
    max_text: int = 32_768
    max_items: int = 100
    max_result: int = 100_000

    def limit(self, table: str) -> int:
        """The most rows ``table`` may hold."""
        return self.rows.get(table, self.default_rows)

    def room(self, db: sqlite3.Connection, table: str, adding: int, what: str = "rows") -> None:
        """Raise :class:`QuotaExceeded` unless one call may add ``adding`` rows to ``table``."""
        if adding > self.batch:
            raise QuotaExceeded(f"{adding} {what} at once (at most {self.batch} in one call)")
        count = db.execute(f'SELECT count(*) FROM "{table}"').fetchone()[0]
        if count + adding > self.limit(table):
            raise QuotaExceeded(f"{what}: {count} + {adding} would pass the limit of "
                                f"{self.limit(table)} in this sandbox")

    def check_arguments(self, arguments: Mapping[str, Any]) -> str | None:
        """The first argument of a WRITE call past ``max_text``/``max_items``, or ``None``."""
        stack: list[tuple[str, Any]] = [(f"parameter {k!r}", v) for k, v in arguments.items()]
        while stack:
            where, value = stack.pop()
            if isinstance(value, str):
                if len(value) > self.max_text:
                    return (f"{where} holds {len(value)} characters (at most {self.max_text} "
                            f"can be stored)")
            elif isinstance(value, list):
                if len(value) > self.max_items:
                    return f"{where} has {len(value)} items (at most {self.max_items})"
                stack.extend((f"{where}[{i}]", v) for i, v in enumerate(value))
            elif isinstance(value, dict):
                if len(value) > self.max_items:
                    return f"{where} has {len(value)} keys (at most {self.max_items})"
                stack.extend((f"{where}.{k}", v) for k, v in value.items())
        return None

    def check_database(self, db: sqlite3.Connection) -> str | None:
        """The first quota the database is past, or ``None``."""
        size = db.execute("PRAGMA page_count").fetchone()[0] * \
            db.execute("PRAGMA page_size").fetchone()[0]
        if size > self.max_bytes:
            return f"the sandbox would hold {size} bytes (at most {self.max_bytes})"
        for table in _tables(db):
            count = db.execute(f'SELECT count(*) FROM "{table}"').fetchone()[0]
            if count > self.limit(table):
                return f"table {table} would hold {count} rows (at most {self.limit(table)})"
        return None


def _tables(db: sqlite3.Connection) -> list[str]:
    return [r[0] for r in db.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")]


# -------------------------------------------------------------------------- toolbox


class Toolbox:
    """The tools of one domain: schemas, validation and execution against a connection."""

    def __init__(self, tools: Iterable[Tool], quotas: Quotas | None = None):
        self.quotas = quotas if quotas is not None else Quotas()
        self._tools: dict[str, Tool] = {}
        for t in tools:
            if t.name in self._tools:
                raise ValueError(f"duplicate tool name {t.name!r}")
            self._tools[t.name] = t
        self.schemas: list[dict] = [t.schema for t in self._tools.values()]

    @classmethod
    def from_module(cls, module: Any) -> "Toolbox":
        """Collect every :class:`Tool` defined in a module, in definition order, with the
        module's ``QUOTAS`` (a :class:`Quotas`) when it declares one."""
        quotas = getattr(module, "QUOTAS", None)
        return cls((v for v in vars(module).values() if isinstance(v, Tool)),
                   quotas if isinstance(quotas, Quotas) else None)

    def __getitem__(self, name: str) -> Tool:
        return self._tools[name]

    def __contains__(self, name: object) -> bool:
        return name in self._tools

    def __iter__(self):
        return iter(self._tools.values())

    def __len__(self) -> int:
        return len(self._tools)

    @property
    def names(self) -> list[str]:
        return list(self._tools)

    def call(self, db: sqlite3.Connection, name: Any, arguments: Any) -> ToolResult:
        """Validate and run one call. Never raises for anything the caller sends.

        A WRITE call runs inside a savepoint: if it fails, nothing it did stays. The
        toolbox's :class:`Quotas` are checked on every call (see there).
        """
        if not isinstance(name, str) or name not in self._tools:
            shown = name[:80] if isinstance(name, str) else f"<{type(name).__name__}>"
            return ToolResult(False, f"Error: unknown tool {shown!r}", str(shown), stage=0)
        t = self._tools[name]
        problem = validate_arguments(t, arguments)
        if problem:
            return ToolResult(False, f"Error: {problem}", name, stage=1)
        arguments = _coerce_integers(t, arguments)
        quotas = self.quotas
        write = t.category is Category.WRITE
        if write:
            problem = quotas.check_arguments(arguments)
            if problem:
                return ToolResult(False, f"Error: quota exceeded: {problem}", name, stage=2)
            db.execute("SAVEPOINT tool_call")
            changes = db.total_changes
        try:
            value = t.fn(db, **arguments)
            content = to_json(value)
            if len(content) > quotas.max_result:
                raise QuotaExceeded(f"the result holds {len(content)} characters (at most "
                                    f"{quotas.max_result}); ask for less")
            if write and db.total_changes != changes:
                problem = quotas.check_database(db)
                if problem:
                    raise QuotaExceeded(problem)
        except ToolError as error:
            if write:
                keep = error.keep_effects and not (db.total_changes != changes
                                                   and quotas.check_database(db))
                if not keep:
                    db.execute("ROLLBACK TO tool_call")
                db.execute("RELEASE tool_call")
            return ToolResult(False, f"Error: {error}", name, stage=2)
        except (sqlite3.Error, ValueError, TypeError, OverflowError, ArithmeticError,
                RecursionError, MemoryError, KeyError, IndexError) as error:
            if write:
                db.execute("ROLLBACK TO tool_call")
                db.execute("RELEASE tool_call")
            return ToolResult(False, f"Error: {type(error).__name__}: {error}", name, stage=2)
        if write:
            db.execute("RELEASE tool_call")
        return ToolResult(True, content, name, stage=3)
