"""Chain synthesis (PROVE): multi-step tasks sampled along the tool dependency graph.

A *chain* is 2 to 5 tool calls of one domain in which every call after the first takes
at least one entity (an id) that an earlier call of the chain returned, i.e. it follows
an edge of :mod:`tool_gym.core.depgraph`. Chains are bound to one user and to real
entities: the user is drawn by the domain's own task kit (which also supplies how the
user identifies themself and the authentication call), and every id is *discovered* by
running the calls on a live sandbox, starting from what the authentication returns.

Pipeline of one sample (:class:`ChainBuilder`):

1. **walk**: from the entities known so far, pick a tool whose required entity inputs can
   all be bound (and, after the first call, at least one by an earlier call of the
   chain), bind them, fill its other required parameters (a closed set from the schema or
   the description; for a read, the sibling field of a bound entity in an earlier result,
   e.g. the ``date`` next to a ``flight_number``; for a write, a value drawn from a random
   row of the table that has that column, so that the write changes something), and run
   it on the live sandbox. A write must name the task's user's data (``kit.owner``) and
   break no domain rule (``kit.policy_violations``); a call that fails is discarded and
   another binding or tool is tried. At most ``max_writes`` writes per chain.
2. **replay filter**: the authentication and the chain run again on a *fresh* sandbox.
   A chain whose calls fail there more than ``max_failure`` (30%) of the time is dropped
   (``replay_failed``); the few failing calls of a chain below that are pruned and the rest
   replayed again. (In the per-task sampler the walk itself runs on a fresh copy, so the
   replay always agrees; in batch synthesis with ``live=True`` the walk runs on one live
   sandbox that keeps the writes of the earlier samples, as a live server would, and the
   filter catches chains that depend on them.)
3. **ground truth**: the replay's results give the expected final rows of everything the
   writes changed (SQLite triggers record the changed keys; each becomes an
   :class:`~tool_gym.core.task_model.Expectation` on its primary key); a write chain whose
   expectations already hold before its last write, or that changes nothing, is dropped
   (``premature`` / ``no_effect``). A read-only chain's answer is a scalar field of the
   last result. The data-flow dependencies of the calls
   (:func:`~tool_gym.core.depgraph.call_dependencies`) give the dependency order that
   PROVE's coverage checks.
   Each kept step is tagged by its outcome on that replay: ``SUCCESS``; ``PARTIAL``, a
   call that ran but did nothing (a write that inserted, deleted or changed no row: every
   row it touched kept its values; a read whose result, less the fields that only repeat
   an argument, holds no data, e.g. ``{"customer_id": "cus_1", "cards": []}``); the
   calls the filter prunes are kept as ``FAILURE`` (an error on the fresh sandbox) in
   ``chain.pruned``.
4. **phrasing** in one of three modes: ``complete`` (60%: every step and every value the
   user must give), ``missing`` (20%: the same, less one required value the agent must ask
   for) or ``minimal`` (20%: only the goal and the values), in the user's words: each tool's
   ``ask`` variants and argument templates from the domain's ``requests.json``
   (:mod:`tool_gym.synth.requests`), so that a request never names a tool or a parameter
   and refers to an entity by what the user knows (a sibling field of the result the
   agent sees it in: "my Visa card ending 2093") rather than by an internal id; the
   *needles* of each value (the value verbatim, or the sibling fields that pick the
   entity out) are in the text. The mode is drawn *before* the chain: a chain with
   nothing to withhold is replaced by another for ``missing`` (it used to be phrased
   ``complete`` instead, which kept ``missing`` below its share); batch synthesis
   stratifies the modes (:func:`mode_schedule`). An LLM backend (any object with
   ``generate(messages) -> str``) may rewrite the text: it is kept only if it contains
   every needle to give, none of the withheld value and no tool or parameter name, else
   the template is used.
5. **perturbations**: 3 to 8 distractor tools of other domains (40%), enums stripped from
   the schemas (30%), and unanswerable requests (5%): the chain's final write tool is
   hidden from the agent (or the request asks for a write tool of another domain); the
   right behaviour is then no call and a clear answer.

Batch synthesis (:class:`ChainSynthesizer`, :func:`synthesize`) also drops
near-duplicates: a chain whose set of calls (name and arguments) has a Jaccard similarity
of at least 0.7 with a kept one. ``python -m tool_gym.synth.dataset`` turns it into chat
data at PROVE's scale (docs/prove-data.md).

How a chain task is played (:class:`ChainTaskKit`, ``ToolEnv(task_source="chains")``).
A task has the user and identity of the domain's kit and one constraint of type
``"chain"``:

- ``say[0]`` is the opening request (in the task's mode); ``say[1]`` is what the user says
  when the agent asks for anything else than their identity: in ``missing`` mode, the
  follow-up that supplies the withheld value (``"Sorry, I forgot to mention the reason:
  "no longer needed"."``), otherwise the request again. The scripted user answers an
  agent's question with ``kit.request``, which is ``say[1]``, so the agent gets the
  withheld value exactly when it asks for it (in ``missing`` mode without the default
  user's "I'm not sure what you mean." before it: :meth:`ChainTaskKit.scripted_user`).
- ``solution``: the reference steps after the authentication: for ``missing`` mode a
  question for the withheld value ("Which card do you mean?") before the first call
  that needs it; the reads; before
  every write a proposal (``expects_confirmation=True``) naming the write tool and its
  target, which the scripted user confirms (``confirm_terms`` is one group of
  alternatives: the chain's write tools and targets); the write; and a closing message
  (write chains) or the answer (read-only chains). An unanswerable task's solution is
  a single refusal and no call.
- ``expect``: the expected final rows; ``answer``: the value a read-only chain's last
  message must state; ``writes``: ``(tool, target)`` of each write (redundancy).
- ``args``: ``mode``, the chain's ``calls``, the ``ground_truth`` for PROVE's reward
  (authentication included, with ``after``: the indices each call depends on), the
  tool list the agent sees (``tools``: distractors included, hidden tools left out),
  ``strip_enums``, ``hidden``, ``unanswerable``, the values the request ``given``s and
  the ``withheld`` one (each ``step``, ``param``, ``value``, ``text``, ``needles``), the
  ``outcomes`` of the calls and the ``pruned`` ones.

The kit delegates identity, authentication, ownership and policy checks to the domain's
own kit, checks a chain constraint by its expectations and answer (an unanswerable one by
a refusal in an agent message), and offers ``tool_schemas(task)`` (what the agent sees)
and ``ground_truth(task)`` (PROVE's ground-truth calls) to the environment.
"""

from __future__ import annotations

import argparse
import json
import re
import sqlite3
import sys
import time
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Any, Iterator, Sequence

import numpy as np

from ..core.actions import ToolCall
from ..core.depgraph import (EntityRef, build_graph, call_dependencies, extract_entities,
                             parse_result)
from ..core.prove import GroundTruthCall
from ..core.proposals import asks_approval
from ..core.grounding import (MAX_MESSAGE_CHARS, AgentMessage, answer_gap, grounded_answer,
                              states_refusal)
from ..core.taskkit import mentions_answer, outcome_gap
from ..core.task_model import Constraint, Expectation, PlanStep, SamplerConfig, Task, TaskKit
from ..core.tools import Category, Tool, Toolbox
from ..core.users import _IDENTITY, _PROPOSAL, ScriptedUser, identity_request
from ..domains import get_domain
from .pool import POOL_DOMAINS_V0
from .requests import Mention, banned_names, fill, names_in, phrasing, placeholders, refer

__all__ = [
    "FAILURE",
    "PARTIAL",
    "SUCCESS",
    "Chain",
    "ChainBuilder",
    "ChainConfig",
    "ChainSynthesizer",
    "ChainTaskKit",
    "SynthesisReport",
    "TemplatePhraser",
    "jaccard",
    "mode_schedule",
    "synthesize",
]

MODES = ("complete", "missing", "minimal")
#: Outcome tags of a chain's steps on replay (see the module doc).
SUCCESS, PARTIAL, FAILURE = "SUCCESS", "PARTIAL", "FAILURE"
REFUSAL = re.compile(r"\b(can ?not|can'?t|unable|not able|not possible|no way to|"
                     r"(do|does) not (have|support)|don'?t (have|support)|not supported|"
                     r"outside)\b", re.IGNORECASE)
_GREETINGS = ("Hi!", "Hello,", "Hi there.", "Hello!")


@dataclass(frozen=True)
class ChainConfig:
    """Knobs of chain synthesis.

    Attributes:
        min_length / max_length: calls per chain (authentication not counted).
        p_complete / p_missing / p_minimal: shares of the three phrasing modes.
        p_distractors: share of tasks with ``distractors`` (range) tools of other domains.
        p_strip_enums: share of tasks whose schemas lose their enums.
        p_unanswerable: share of unanswerable tasks (a needed tool hidden, or a request for
            another domain's tool).
        max_writes: writes per chain at most.
        max_failure: replay filter: the most calls that may fail on a fresh sandbox.
        dedup: Jaccard threshold of near-duplicates (batch synthesis).
        attempts: walks tried per user before another user is drawn.
        users: users drawn per task at most.
    """

    min_length: int = 2
    max_length: int = 5
    p_complete: float = 0.6
    p_missing: float = 0.2
    p_minimal: float = 0.2
    p_distractors: float = 0.4
    distractors: tuple[int, int] = (3, 8)
    p_strip_enums: float = 0.3
    p_unanswerable: float = 0.05
    max_writes: int = 2
    max_failure: float = 0.3
    dedup: float = 0.7
    attempts: int = 24
    users: int = 6

    @classmethod
    def of(cls, value: "ChainConfig | dict | None") -> "ChainConfig":
        if value is None:
            return cls()
        if isinstance(value, ChainConfig):
            return value
        data = dict(value)
        if "distractors" in data:
            data["distractors"] = tuple(data["distractors"])
        return cls(**data)


# ---------------------------------------------------------------------- the chain


@dataclass
class Source:
    """Where an argument value came from.

    ``kind``: ``"identity"`` (the authentication returned it), ``"derived"`` (the only
    value of its type in an earlier result), ``"choice"`` (one of several values of an
    earlier result: the user must say which), ``"context"`` (a field next to a bound
    entity in an earlier result) or ``"user"`` (a value only the user knows).
    """

    kind: str
    step: int | None = None  # index of the producing call (-1: authentication)


@dataclass
class ChainStep:
    call: ToolCall
    write: bool
    sources: dict[str, Source]
    result: str = ""
    outcome: str = SUCCESS  # its tag on the (last) replay


@dataclass
class Chain:
    """A synthesized chain before phrasing."""

    steps: list[ChainStep]
    auth: ToolCall
    auth_result: str
    ground_truth: list[GroundTruthCall] = field(default_factory=list)
    expect: list[Expectation] = field(default_factory=list)
    answer: str | None = None
    answer_key: str | None = None
    pruned: list[dict] = field(default_factory=list)  # calls the replay filter took out
    answer_options: list[tuple[str, str]] = field(default_factory=list)

    @property
    def outcomes(self) -> list[str]:
        """The outcome tag of each step on replay (:data:`SUCCESS`, :data:`PARTIAL`)."""
        return [s.outcome for s in self.steps]

    @property
    def writes(self) -> list[ChainStep]:
        return [s for s in self.steps if s.write]

    def signature(self) -> frozenset:
        """The set of calls (name and canonical arguments), for near-duplicate checks."""
        return frozenset(f"{s.call.name}:{json.dumps(s.call.arguments, sort_keys=True)}"
                         for s in self.steps)


def jaccard(a: frozenset | set, b: frozenset | set) -> float:
    """``|a & b| / |a | b|`` (0 for two empty sets)."""
    union = a | b
    return len(a & b) / len(union) if union else 0.0


# ------------------------------------------------------------------ small helpers


def _pick(rng: np.random.Generator, options: Sequence[Any]) -> Any:
    return options[int(rng.integers(len(options)))]


def _weighted(rng: np.random.Generator, options: Sequence[Any], weights: Sequence[float]) -> Any:
    w = np.asarray(weights, dtype=float)
    return options[int(rng.choice(len(options), p=w / w.sum()))]


def _human(name: str) -> str:
    from .pool import split_identifier

    return split_identifier(name)


def _target_param(t: Tool) -> str | None:
    """The parameter whose value the environment takes as a write's target."""
    return next(iter(t.input_entities), None)


def _format(value: Any) -> str:
    if isinstance(value, str):
        return value if re.fullmatch(r"[#\w.@\-:/+]+", value) else f"'{value}'"
    if isinstance(value, list) and all(isinstance(v, (str, int, float)) for v in value):
        return ", ".join(_format(v) for v in value)
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def _needles(value: Any) -> list[str]:
    """The strings a text that gives ``value`` must contain."""
    if isinstance(value, list) and all(isinstance(v, (str, int, float)) for v in value):
        return [str(v) for v in value]
    if isinstance(value, (str, int, float)) and not isinstance(value, bool):
        return [str(value)]
    return [_format(value)]


def _coerce(value: Any, spec: dict) -> Any:
    kind = spec.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), None)
    try:
        if kind == "string" and not isinstance(value, str):
            return None if isinstance(value, (dict, list)) else str(value)
        if kind == "integer" and not isinstance(value, bool):
            if isinstance(value, float) and value.is_integer():
                return int(value)
            if isinstance(value, str) and re.fullmatch(r"-?\d+", value):
                return int(value)
            return value if isinstance(value, int) else None
        if kind == "number" and not isinstance(value, bool):
            if isinstance(value, (int, float)):
                return value
            return float(value) if isinstance(value, str) and re.fullmatch(
                r"-?\d+(\.\d+)?", value) else None
        if kind == "boolean":
            return value if isinstance(value, bool) else None
        if kind == "array":
            return value if isinstance(value, list) else None
        if kind == "object":
            return value if isinstance(value, dict) else None
    except (TypeError, ValueError):
        return None
    return value


def _lookup(data: Any, key: str, depth: int = 0) -> Any:
    """The first value under ``key`` in nested data (objects, then lists), or None."""
    if depth > 3:
        return None
    if isinstance(data, dict):
        if key in data and data[key] is not None:
            return data[key]
        for v in data.values():
            if isinstance(v, (dict, list)):
                found = _lookup(v, key, depth + 1)
                if found is not None:
                    return found
    elif isinstance(data, list):
        for v in data[:4]:
            found = _lookup(v, key, depth + 1)
            if found is not None:
                return found
    return None


def _schema_without_enums(schema: Any) -> Any:
    if isinstance(schema, dict):
        return {k: _schema_without_enums(v) for k, v in schema.items() if k != "enum"}
    if isinstance(schema, list):
        return [_schema_without_enums(v) for v in schema]
    return schema


def _empty(data: Any) -> bool:
    """No data: None, an empty text, zero, or containers of nothing else."""
    if data is None or data is False:
        return True
    if isinstance(data, str):
        return not data.strip()
    if isinstance(data, (int, float)):
        return data == 0
    if isinstance(data, dict):
        return all(_empty(v) for v in data.values())
    if isinstance(data, list):
        return all(_empty(v) for v in data)
    return False


def _holds_value(data: Any, value: Any) -> bool:
    """Whether ``value`` is ``data`` or one of its nested values (exact, not a substring)."""
    if json.dumps(data, sort_keys=True) == json.dumps(value, sort_keys=True):
        return True
    if isinstance(data, dict):
        return any(_holds_value(v, value) for v in data.values())
    if isinstance(data, list):
        return any(_holds_value(v, value) for v in data)
    return False


def _prune(steps: list[ChainStep], oks: Sequence[bool]) -> list[ChainStep]:
    """The steps that ran, with the sources renumbered (a source whose call was taken
    out points nowhere: ``step=None``)."""
    index, kept = {-1: -1}, []
    for i, (s, ok) in enumerate(zip(steps, oks)):
        if ok:
            index[i] = len(kept)
            kept.append(s)
    for s in kept:
        s.sources = {p: replace(src, step=index.get(src.step)) if src.step is not None
                     else src for p, src in s.sources.items()}
    return kept


# -------------------------------------------------------------- change tracking


class _Tables:
    """The tables of a schema and their keys (primary key, or rowid)."""

    def __init__(self, db: sqlite3.Connection):
        self.columns: dict[str, list[str]] = {}
        self.keys: dict[str, list[str]] = {}
        for (table,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND "
                                   "name NOT LIKE 'sqlite_%' ORDER BY name"):
            info = db.execute(f'PRAGMA table_info("{table}")').fetchall()
            self.columns[table] = [r[1] for r in info]
            pk = [r[1] for r in sorted((r for r in info if r[5] > 0), key=lambda r: r[5])]
            self.keys[table] = pk or ["rowid"]

    def track(self, db: sqlite3.Connection, temp: bool = True) -> None:
        """Triggers that log the key of every row a statement touches, with the row before
        and after (``quote``d, so that any value, a blob too, compares); ``temp``: on this
        connection only, else in the database itself (an image to copy)."""
        kind = "TEMP" if temp else ""
        target = "main." if temp else ""
        db.execute(f"CREATE {kind} TABLE IF NOT EXISTS _chain_changes "
                   "(tbl TEXT, key TEXT, old TEXT, new TEXT)")
        for table, keys in self.keys.items():
            def image(row: str | None, table: str = table) -> str:
                if row is None:
                    return "NULL"
                return " || ',' || ".join(f'quote({row}."{c}")' for c in self.columns[table])

            for event, rows, old, new in (("INSERT", ("NEW",), None, "NEW"),
                                          ("UPDATE", ("OLD", "NEW"), "OLD", "NEW"),
                                          ("DELETE", ("OLD",), "OLD", None)):
                body = " ".join(
                    f"INSERT INTO _chain_changes VALUES ('{table}', json_array("
                    + ", ".join(f'{r}."{k}"' for k in keys) + f"), {image(old)}, {image(new)});"
                    for r in rows)
                db.execute(f'CREATE {kind} TRIGGER IF NOT EXISTS "_chain_{table}_{event}" '
                           f'AFTER {event} ON {target}"{table}" BEGIN {body} END')

    def changed(self, db: sqlite3.Connection) -> list[tuple[str, tuple]]:
        rows = db.execute("SELECT DISTINCT tbl, key FROM _chain_changes ORDER BY rowid").fetchall()
        return [(t, tuple(json.loads(k))) for t, k in rows]

    @staticmethod
    def mark(db: sqlite3.Connection) -> int:
        """The last change logged so far (see :meth:`changed_since`)."""
        return db.execute("SELECT coalesce(max(rowid), 0) FROM _chain_changes").fetchone()[0]

    @staticmethod
    def changed_since(db: sqlite3.Connection, mark: int) -> bool:
        """Whether a row was inserted, deleted or given other values after ``mark``."""
        return db.execute("SELECT EXISTS (SELECT 1 FROM _chain_changes WHERE rowid > ? AND "
                          "old IS NOT new)", (mark,)).fetchone()[0] == 1

    def expectation(self, db: sqlite3.Connection, table: str, key: tuple) -> Expectation:
        columns = ", ".join(f'"{c}"' for c in self.columns[table])
        where = " AND ".join(f'"{k}" = ?' if k != "rowid" else "rowid = ?"
                             for k in self.keys[table])
        query = f'SELECT {columns} FROM "{table}" WHERE {where}'
        rows = tuple(tuple(r) for r in db.execute(query, key).fetchall())
        return Expectation(query, tuple(key), rows)


# ------------------------------------------------------------------------ building


@dataclass
class _Known:
    ref: EntityRef
    step: int  # -1: authentication
    unique: bool


class ChainBuilder:
    """Walks the dependency graph of one domain on a live sandbox (see the module doc).

    Args:
        domain: the domain's name.
        kit: the domain's own task kit (owner and policy checks).
        image: the template database's bytes (fresh sandboxes for the replay).
        config: the synthesis knobs.
        stats: a counter that collects what happened (kept and dropped by reason).
    """

    def __init__(self, domain: str, kit: Any, image: bytes, config: ChainConfig,
                 stats: Counter | None = None):
        self.domain = get_domain(domain)
        self.toolbox: Toolbox = self.domain.toolbox
        self.kit = kit
        self.image = image
        self.config = config
        self.stats = stats if stats is not None else Counter()
        self.graph = build_graph(self.domain)
        auth = set(kit.auth_tools)
        self.tools = [t for t in self.toolbox if t.category is not Category.GENERIC
                      and t.name != self.domain.transfer_tool
                      and not (t.name in auth and not t.input_entities)]
        self.banned = banned_names()
        self._tracked: bytes | None = None
        db = self.fresh()
        self.tables = _Tables(db)
        self._sizes = {t: db.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0]
                       for t in self.tables.columns}
        db.close()
        self._db: sqlite3.Connection | None = None

    def fresh(self, tracked: bool = False) -> sqlite3.Connection:
        """A fresh sandbox of the template; ``tracked``: with the change log of
        :meth:`_Tables.track` already in it (built once, then copied: creating the
        triggers on every replay cost more than the replay)."""
        image = self.image
        if tracked:
            if self._tracked is None:
                db = self.fresh()
                self.tables.track(db, temp=False)
                self._tracked = db.serialize()
                db.close()
            image = self._tracked
        db = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
        db.deserialize(image)
        db.execute("PRAGMA foreign_keys = ON")
        return db

    # -- values
    def _random_row(self, db: sqlite3.Connection, table: str,
                    rng: np.random.Generator) -> dict:
        size = self._sizes.get(table, 0)
        if not size:
            return {}
        row = db.execute(f'SELECT * FROM "{table}" LIMIT 1 OFFSET ?',
                         (int(rng.integers(size)),)).fetchone()
        return dict(zip(self.tables.columns[table], row)) if row else {}

    def _donor_row(self, db: sqlite3.Connection, params: Sequence[str],
                   rng: np.random.Generator) -> dict:
        """A random row of the table that has the most of ``params`` as columns."""
        best, score = None, 0
        for table, columns in self.tables.columns.items():
            s = sum(1 for p in params if p in columns or p.rstrip("s") in columns)
            if s > score:
                best, score = table, s
        return self._random_row(db, best, rng) if best is not None else {}

    def _fill(self, t: Tool, param: str, spec: dict, contexts: list[tuple[Any, int]],
              donor: dict, rng: np.random.Generator) -> tuple[Any, Source] | None:
        from .pool import closed_set, schema_value

        write = t.category is Category.WRITE
        found, found_step = None, None
        for data, step in contexts:
            value = _lookup(data, param)
            if value is None and param.endswith("s"):
                value = _lookup(data, param[:-1])
            value = _coerce(value, spec) if value is not None else None
            if value is not None:
                found, found_step = value, step
                break
        choices = closed_set(spec)
        if choices:
            if not write and found in choices:
                return found, Source("context", found_step)
            others = [c for c in choices if c != found] if write else list(choices)
            return _pick(rng, others or choices), Source("user")
        kind = spec.get("type")
        if kind == "array" and (spec.get("items") or {}).get("type") == "object":
            if not isinstance(found, list) or not found:
                return None
            value = [dict(x) if isinstance(x, dict) else x for x in found]
            if write and isinstance(value[0], dict):
                keys = list(value[0])
                row = self._donor_row_with(rng, keys)
                if row:
                    k = int(rng.integers(len(value)))
                    value[k] = {key: _coerce(row[key], {"type": "string"})
                                if isinstance(value[k].get(key), str) else row[key]
                                for key in keys}
                    return value, Source("user")
            return value, Source("context", found_step)
        if not write and found is not None:
            return found, Source("context", found_step)
        candidate = donor.get(param, donor.get(param.rstrip("s")))
        for _ in range(3):  # an empty text is a poor thing to ask for: another row
            if candidate != "":
                break
            row = self._donor_row(self._db, [param], rng)
            candidate = row.get(param, row.get(param.rstrip("s")))
        if candidate is not None:
            if kind == "array":
                candidate = [candidate]
            candidate = _coerce(candidate, spec)
            if candidate is not None and candidate != found:
                return candidate, Source("user")
        if found is not None:
            return found, Source("context", found_step)
        value = _coerce(schema_value(param, spec, rng), spec)
        return (value, Source("user")) if value is not None else None

    def _donor_row_with(self, rng: np.random.Generator, keys: Sequence[str]) -> dict:
        tables = [t for t, cols in self.tables.columns.items() if all(k in cols for k in keys)]
        return self._random_row(self._db, _pick(rng, tables), rng) if tables else {}

    def _bind(self, t: Tool, known: list[_Known], step: int, rng: np.random.Generator,
              results: dict[int, Any]) -> tuple[dict, dict[str, Source]] | None:
        """Arguments for ``t`` from the known entities (None when some cannot be bound)."""
        required = t.required
        entity_params = [p for p in required if p in t.input_entities]
        by_type: dict[str, list[_Known]] = {}
        for k in known:
            by_type.setdefault(k.ref.type, []).append(k)
        if any(t.input_entities[p] not in by_type for p in entity_params):
            return None
        arguments: dict = {}
        sources: dict[str, Source] = {}
        contexts: list[tuple[Any, int]] = []
        linked = False
        order = list(entity_params)
        # bind first a parameter that an earlier call of the chain can feed (the edge)
        linkable = [p for p in order if any(k.step >= 0 for k in by_type[t.input_entities[p]])]
        if step > 0 and not linkable:
            return None
        if linkable:
            first = _pick(rng, linkable)
            order.remove(first)
            order.insert(0, first)
        taken: set[str] = set()
        for n, param in enumerate(order):
            options = by_type[t.input_entities[param]]
            if n == 0 and step > 0:
                options = [k for k in options if k.step >= 0]
            fresh = [k for k in options if json.dumps(k.ref.value) not in taken]
            options = fresh or options
            # later results first; a field named like the parameter much more likely
            weights = [(1.0 + 2.0 * (k.step + 1))
                       * (6.0 if k.ref.path.rsplit(".", 1)[-1] == param else 1.0)
                       for k in options]
            chosen = _weighted(rng, options, weights)
            taken.add(json.dumps(chosen.ref.value))
            spec = t.parameters["properties"][param]
            if spec.get("type") == "array":
                same = [k for k in options if k.step == chosen.step
                        and k.ref.path == chosen.ref.path]
                count = 2 if len(same) > 1 and rng.random() < 0.3 else 1
                picks = [same[int(i)] for i in rng.permutation(len(same))[:count]] \
                    if chosen in same else [chosen]
                value = [_coerce(k.ref.value, spec.get("items") or {}) for k in picks]
                if any(v is None for v in value):
                    return None
            else:
                value = _coerce(chosen.ref.value, spec)
                if value is None:
                    return None
            arguments[param] = value
            if not chosen.unique or isinstance(value, list):
                kind = "choice"
            else:
                kind = "identity" if chosen.step < 0 else "derived"
            sources[param] = Source(kind, chosen.step)
            linked = linked or chosen.step >= 0
            if isinstance(chosen.ref.context, dict):
                contexts.append((chosen.ref.context, chosen.step))
        if step > 0 and not linked:
            return None
        # then the rest: siblings of the bound entities, the producing results, a donor row
        for s in sorted({src.step for src in sources.values() if src.step is not None},
                        reverse=True):
            contexts.append((results.get(s), s))
        others = [p for p in required if p not in arguments]
        donor = self._donor_row(self._db, others, rng) if others and \
            t.category is Category.WRITE else {}
        for param in others:
            filled = self._fill(t, param, t.parameters["properties"][param] or {},
                                contexts, donor, rng)
            if filled is None:
                return None
            arguments[param], sources[param] = filled
        return arguments, sources

    def _allowed_write(self, db: sqlite3.Connection, t: Tool, arguments: dict,
                       user_id: str) -> bool:
        owner = self.kit.owner(db, t.name, arguments)
        if owner is not None and owner != user_id:
            return False
        return not self.kit.policy_violations(db, t.name, arguments)

    def walk(self, db: sqlite3.Connection, rng: np.random.Generator, user_id: str,
             auth: ToolCall, length: int) -> Chain | None:
        """Build a chain of up to ``length`` calls on ``db`` (which it changes)."""
        self._db = db
        result = self.toolbox.call(db, auth.name, auth.arguments)
        if not result.ok:
            self.stats["auth_failed"] += 1
            raise _AuthFailed(auth.name)
        known: list[_Known] = []
        results: dict[int, Any] = {-1: parse_result(result.content)}
        self._learn(known, self.toolbox[auth.name], result.content, -1)
        seen = {f"{auth.name}:{json.dumps(auth.arguments, sort_keys=True)}"}
        steps: list[ChainStep] = []
        while len(steps) < length:
            step = None
            for t in self._walk_order(steps, length, rng)[:8]:
                step = self._walk_step(t, rng, user_id, known, results, seen, len(steps))
                if step is not None:
                    break
            if step is None:
                break
            steps.append(step)
            results[len(steps) - 1] = parse_result(step.result)
            self._learn(known, t, step.result, len(steps) - 1)
        if len(steps) < self.config.min_length:
            self.stats["walk_too_short"] += 1
            return None
        return Chain(steps, auth, result.content)

    @staticmethod
    def _learn(known: list[_Known], t: Tool, content: str, step: int) -> None:
        """Adds the entities of a call's result to what the walk knows."""
        refs = extract_entities(t, content)
        counts = Counter(r.type for r in refs)
        for r in refs:
            known.append(_Known(r, step, counts[r.type] == 1))

    def _walk_order(self, steps: list[ChainStep], length: int,
                    rng: np.random.Generator) -> list[Tool]:
        """The tools that may come next, in a weighted random order (fresh tools first, and
        writes rather at the end)."""
        used = Counter(s.call.name for s in steps)
        writes = sum(s.write for s in steps)
        # after the first call: only the tools an edge of the graph leads to from a
        # tool of the chain (binding then takes one entity from such a call)
        after = {b for s in steps for b in self.graph.successors(s.call.name)
                 if self.graph.edges[s.call.name, b]["explicit"]}
        candidates = [t for t in self.tools
                      if not (t.category is Category.WRITE and writes >= self.config.max_writes)
                      and (not steps or t.name in after)]
        weights = []
        last = len(steps) == length - 1
        for t in candidates:
            w = 1.0 if not used[t.name] else 0.3
            if t.category is Category.WRITE:
                w *= 1.5 if last else 0.8
            weights.append(w)
        # a weighted random permutation in one draw (Efraimidis-Spirakis: sort by
        # u ** (1 / w)), the law of drawing one at a time without replacement
        keys = rng.random(len(candidates)) ** (1.0 / np.asarray(weights, dtype=float))
        return [candidates[int(i)] for i in np.argsort(-keys, kind="stable")]

    def _walk_step(self, t: Tool, rng: np.random.Generator, user_id: str, known: list[_Known],
                   results: dict[int, Any], seen: set[str], position: int) -> ChainStep | None:
        """A call of ``t`` at ``position`` that is new, allowed and succeeds on the walk's
        database (up to three bindings tried), or None."""
        db = self._db
        for _ in range(3):
            bound = self._bind(t, known, position, rng, results)
            if bound is None:
                return None
            arguments, sources = bound
            key = f"{t.name}:{json.dumps(arguments, sort_keys=True)}"
            write = t.category is Category.WRITE
            target = f"{t.name}@{json.dumps(arguments.get(_target_param(t)))}"
            if key in seen or (write and target in seen):
                continue
            if write and not self._allowed_write(db, t, arguments, user_id):
                self.stats["walk_rejected_write"] += 1
                continue
            outcome = self.toolbox.call(db, t.name, arguments)
            if not outcome.ok:
                self.stats["walk_failed_call"] += 1
                continue
            seen.add(key)
            if write:
                seen.add(target)
            return ChainStep(ToolCall(t.name, arguments), write, sources, outcome.content)
        return None

    # -- replay and ground truth
    def _replay(self, chain: Chain) -> tuple[sqlite3.Connection, list[bool], list[str],
                                              list[str]]:
        """The chain run again on a fresh sandbox: the database (changes logged), whether
        each call ran, its result and its outcome tag."""
        db = self.fresh(tracked=True)
        auth = self.toolbox.call(db, chain.auth.name, chain.auth.arguments)
        chain.auth_result = auth.content
        oks, contents, tags = [], [], []
        for s in chain.steps:
            mark = self.tables.mark(db)
            r = self.toolbox.call(db, s.call.name, s.call.arguments)
            oks.append(r.ok)
            contents.append(r.content)
            tags.append(self.outcome(s, r.ok, r.content, db, mark))
        return db, oks, contents, tags

    def outcome(self, step: ChainStep, ok: bool, content: str, db: sqlite3.Connection,
                mark: int) -> str:
        """The tag of a call on replay: :data:`FAILURE` when it returned an error;
        :data:`PARTIAL` when it ran but did nothing: a write that inserted, deleted or
        changed no row (every row it touched kept its values), or a read whose result,
        less the fields that only repeat an argument, holds no data (empty or zero
        values only, e.g. ``{"customer_id": "cus_1", "cards": []}``); else
        :data:`SUCCESS`."""
        if not ok:
            return FAILURE
        if step.write:
            return SUCCESS if self.tables.changed_since(db, mark) else PARTIAL
        data = parse_result(content)
        echoes = {json.dumps(v) for v in step.call.arguments.values()}
        if isinstance(data, dict):
            data = {k: v for k, v in data.items() if json.dumps(v) not in echoes}
        return PARTIAL if _empty(data) else SUCCESS

    def finish(self, chain: Chain) -> Chain | None:
        """Replay filter, outcome tags, expectations, answer and dependencies (None:
        dropped)."""
        for _ in range(2):
            db, oks, contents, tags = self._replay(chain)
            failed = oks.count(False)
            if failed == 0:
                break
            db.close()
            if failed / len(oks) > self.config.max_failure:
                self.stats["drop_replay_failed"] += 1
                return None
            self.stats["replay_pruned_calls"] += failed
            chain.pruned += [{"name": s.call.name, "arguments": s.call.arguments,
                              "outcome": FAILURE, "error": content[:200]}
                             for s, ok, content in zip(chain.steps, oks, contents) if not ok]
            chain.steps = _prune(chain.steps, oks)
            if len(chain.steps) < self.config.min_length:
                self.stats["drop_too_short"] += 1
                return None
        else:
            self.stats["drop_replay_failed"] += 1
            return None
        for s, tag in zip(chain.steps, tags):
            s.outcome = tag
        for s, content in zip(chain.steps, contents):
            s.result = content
        try:
            if chain.writes:
                initial = self.fresh()
                expect = []
                for table, key in self.tables.changed(db):
                    e = self.tables.expectation(db, table, key)
                    if not e.holds(initial):
                        expect.append(e)
                initial.close()
                if not expect:
                    self.stats["drop_no_effect"] += 1
                    return None
                chain.expect = expect
                if self._premature(chain):
                    self.stats["drop_premature"] += 1
                    return None
            else:
                answer = self._answer(chain.steps[-1])
                if answer is None:
                    self.stats["drop_no_answer"] += 1
                    return None
                chain.answer_options = answer
                chain.answer_key, chain.answer = answer[0]
            calls = [(chain.auth.name, chain.auth.arguments)] + \
                [(s.call.name, s.call.arguments) for s in chain.steps]
            deps = call_dependencies(self.toolbox, calls,
                                     [chain.auth_result] + [s.result for s in chain.steps])
            chain.ground_truth = [GroundTruthCall(n, a, d) for (n, a), d in zip(calls, deps)]
            return chain
        finally:
            db.close()

    def _premature(self, chain: Chain) -> bool:
        """Whether the expectations hold before the chain's last write."""
        db = self.fresh()
        try:
            self.toolbox.call(db, chain.auth.name, chain.auth.arguments)
            last = max(i for i, s in enumerate(chain.steps) if s.write)
            for i, s in enumerate(chain.steps):
                if all(e.holds(db) for e in chain.expect):
                    return True
                if i == last:
                    return False
                self.toolbox.call(db, s.call.name, s.call.arguments)
            return False
        finally:
            db.close()

    def _answer(self, step: ChainStep) -> list[tuple[str, str]] | None:
        """``(key, value)`` options for a read-only chain's answer, preferred first: a
        scalar of the last result under a key the request may name (no tool or parameter
        name). The first is taken unless the request states its value (see
        :meth:`ChainTaskKit.make_task`)."""
        data = parse_result(step.result)
        if isinstance(data, list) and len(data) == 1 and isinstance(data[0], dict):
            data = data[0]
        if isinstance(data, (str, int, float)) and not isinstance(data, bool):
            text = data if isinstance(data, str) else json.dumps(data)
            return [("result", text)] if 2 <= len(text) <= 60 else None
        if not isinstance(data, dict):
            return None
        options = []
        for key, value in data.items():
            if isinstance(value, bool) or value is None or isinstance(value, (dict, list)):
                continue
            if names_in(key.replace("_", " "), names=self.banned) or \
                    names_in(key, names=self.banned):
                continue
            text = value if isinstance(value, str) else json.dumps(value)
            if 2 <= len(text) <= 60 and text.lower() not in ("none", "null"):
                options.append((key, text))
        if not options:
            return None
        # prefer a field that is not an id, then one that the request does not name
        named = {json.dumps(v) for v in step.call.arguments.values()}
        fresh = [o for o in options if json.dumps(o[1]) not in named]
        plain = [o for o in fresh if not o[0].lower().endswith("id")]
        chosen = plain or fresh or options
        mid = len(chosen) // 2
        ordered = chosen[mid:] + chosen[:mid]
        return ordered + [o for o in options if o not in ordered]


# ------------------------------------------------------------------------ phrasing


_OPENERS = ("I need help with a few things.", "Here's what I need.",
            "Could you help me with something?", "I have a few things to sort out.")
_GENERIC_QUESTION = ("I need one more detail before I can do this. Could you tell me what "
                     "is missing from your request?")
_YOU = {"my": "your", "me": "you", "i": "you", "i'm": "you're", "i've": "you've",
        "mine": "yours", "myself": "yourself"}


def _second_person(text: str) -> str:
    """A user's phrase as the agent says it back ("freeze one of my cards" -> "freeze
    one of your cards")."""
    return re.sub(r"\b(I'm|I've|myself|mine|my|me|I)\b",
                  lambda m: _YOU[m.group(1).lower()], text)


def _labeled(m: Mention) -> str:
    """A mention with what it is ("the travel day: 2024-05-12"), unless its text says it
    already ("the payee Con Edison")."""
    noun = m.bare.split()[-1].lower() if m.bare.split() else ""
    if noun and re.search(rf"\b{re.escape(noun)}\b", m.text, re.IGNORECASE):
        return m.text
    return f"{m.bare}: {m.text}"


class TemplatePhraser:
    """The default phraser: requests in the user's words from the domain's
    ``requests.json`` (:mod:`tool_gym.synth.requests`), no model.

    The text of a step is one of the tool's ``ask`` variants, chosen among those that fill
    the most placeholders with values the user gives and the fewest with bare forms;
    each given value is said as its ``args`` template says (a sibling field such as the
    last four digits, or the value verbatim); a given value without a placeholder in the
    chosen variant follows it in parentheses. ``complete``: every step in order;
    ``minimal``: the goal (the writes, or the answer wanted from the last call) and the
    values of the other steps; ``missing``: as ``complete``, less the withheld value.

    ``backend`` (optional): an LLM backend, ``generate(messages) -> str``, that rewrites
    the text for fluency. Its text is kept only when it contains every needle of every
    value the user must give, no needle of a withheld value, and no tool or parameter
    name; otherwise the template's text is used (counted as ``phrasing_fallback``).

    Args:
        backend: the optional rewriting backend.
        stats: a counter of what happened.
        domain: the domain whose ``requests.json`` gives the words.
    """

    def __init__(self, backend: Any = None, stats: Counter | None = None,
                 domain: str | None = None):
        self.backend = backend
        self.stats = stats if stats is not None else Counter()
        self.domain = domain
        self._toolbox = get_domain(domain).toolbox if domain is not None else None

    # -- what the user says
    def _refs(self, chain: Chain, i: int, entity: str, first: int | None) -> list[EntityRef]:
        """The entities of type ``entity`` in the results before step ``i``, those of the
        producing call ``first`` first."""
        box = self._toolbox
        results = [(-1, chain.auth.name, chain.auth_result)] + \
            [(j, s.call.name, s.result) for j, s in enumerate(chain.steps[:i])]
        results.sort(key=lambda r: r[0] != first)
        out = []
        for _, name, content in results:
            if name in box:
                out += [r for r in extract_entities(box[name], content) if r.type == entity]
        return out

    def mentions(self, chain: Chain) -> list[Mention]:
        """What the user must give, at each use: choices (referred to by a sibling field
        when one picks the entity out), context values and values only the user knows."""
        cached = getattr(chain, "_mentions", None)
        if cached is not None and cached[0] == len(chain.steps):
            return cached[1]
        out = []
        for i, s in enumerate(chain.steps):
            entry = phrasing(self.domain, s.call.name)
            tool = self._toolbox[s.call.name]
            for param, src in s.sources.items():
                if src.kind not in ("choice", "user", "context"):
                    continue
                value = s.call.arguments[param]
                entity = tool.input_entities.get(param)
                refs = self._refs(chain, i, entity, src.step) if entity else []
                text, needles, sibling = refer(entry, param, value, refs, entity)
                out.append(Mention(i, param, value, text, tuple(dict.fromkeys(needles)),
                                   entry.bare(param) or "the detail", sibling))
        chain._mentions = (len(chain.steps), out)
        return out

    def given(self, chain: Chain, withheld: tuple[int, str] | None) -> list[Mention]:
        """The mentions less every one of the withheld value."""
        mentions = self.mentions(chain)
        if withheld is None:
            return mentions
        hidden = json.dumps(chain.steps[withheld[0]].call.arguments[withheld[1]])
        return [m for m in mentions if json.dumps(m.value) != hidden]

    def withheld_mention(self, chain: Chain, withheld: tuple[int, str]) -> Mention:
        return next(m for m in self.mentions(chain)
                    if (m.step, m.param) == (withheld[0], withheld[1]))

    # -- texts
    def _clause(self, step: ChainStep, given: dict[str, Mention],
                rng: np.random.Generator, missing: frozenset = frozenset()) -> str:
        """One step in the user's words: the ask variant that leaves out the ``missing``
        (withheld) parameters, then fills the most placeholders with given values, then
        the fewest with bare forms (ties drawn)."""
        entry = phrasing(self.domain, step.call.name)
        scored = []
        for ask in entry.asks:
            names = set(placeholders(ask))
            if any(p not in given and entry.bare(p) is None for p in names):
                continue
            scored.append(((-len(names & missing), sum(p in given for p in names),
                            -sum(p not in given for p in names)), ask))
        best = max(score for score, _ in scored)
        options = [ask for score, ask in scored if score == best]
        ask = _pick(rng, options)
        names = placeholders(ask)
        text = fill(ask, {p: given[p].text if p in given else entry.bare(p) for p in names})
        rest = [m for p, m in given.items() if p not in names]
        if rest:
            text += " (" + "; ".join(_labeled(m) for m in rest) + ")"
        return text

    @staticmethod
    def answer_label(chain: Chain) -> str:
        return f"the {chain.answer_key.replace('_', ' ')}"

    def template(self, chain: Chain, mode: str, withheld: tuple[int, str] | None,
                 rng: np.random.Generator) -> str:
        mentions = self.given(chain, withheld)
        by_step: dict[int, dict[str, Mention]] = {}
        for m in mentions:
            by_step.setdefault(m.step, {})[m.param] = m
        missing: dict[int, frozenset] = {}
        if withheld is not None:
            hidden = json.dumps(chain.steps[withheld[0]].call.arguments[withheld[1]])
            for i, s in enumerate(chain.steps):
                missing[i] = frozenset(p for p, src in s.sources.items()
                                       if src.kind in ("choice", "user", "context")
                                       and json.dumps(s.call.arguments[p]) == hidden)

        def clause(i: int) -> str:
            return self._clause(chain.steps[i], by_step.get(i, {}), rng,
                                missing.get(i, frozenset()))

        if mode == "minimal":
            if chain.answer is not None:
                goal = [len(chain.steps) - 1]
                head = f"Could you {clause(goal[0])} and tell me {self.answer_label(chain)}?"
            else:
                goal = [i for i, s in enumerate(chain.steps) if s.write]
                head = "Please " + " and ".join(clause(i) for i in goal) + "."
            rest = list(dict.fromkeys(_labeled(m) for m in mentions if m.step not in goal))
            tail = ""
            if rest:
                tail = " For reference, " + "; ".join(rest) + "."
            return head + tail
        clauses = [clause(i) for i in range(len(chain.steps))]
        if chain.answer is not None:
            clauses[-1] += f" and tell me {self.answer_label(chain)}"
        words = []
        for i, c in enumerate(clauses):
            if i == 0:
                words.append(f"First, {c}.")
            elif i == len(clauses) - 1:
                words.append(f"Finally, {c}.")
            else:
                words.append(f"Then {c}.")
        return _pick(rng, _OPENERS) + " " + " ".join(words)

    def follow_up(self, chain: Chain, withheld: tuple[int, str]) -> str:
        """What the user says when asked for the withheld value."""
        return f"Sorry, I forgot to mention {_labeled(self.withheld_mention(chain, withheld))}."

    def question(self, chain: Chain, withheld: tuple[int, str],
                 asks: dict[str, str] | None = None) -> str:
        """The agent's question for the withheld value (never one the scripted user would
        read as an identity question or a proposal)."""
        m = self.withheld_mention(chain, withheld)
        entity = withheld[1] in self._toolbox[chain.steps[withheld[0]].call.name].input_entities
        if entity and m.bare.startswith("the "):
            text = f"I need one more detail first. Which {m.bare[4:]} do you mean?"
        else:
            text = f"I need one more detail first. Could you tell me {_second_person(m.bare)}?"
        if (_IDENTITY.search(text) or _PROPOSAL.search(text) or asks_approval(text)
                or identity_request(text, asks) is not None):
            return _GENERIC_QUESTION
        return text

    def foreign(self, domain: str, tool: str, rng: np.random.Generator) -> str:
        """A request for another domain's tool, in that domain's words."""
        entry = phrasing(domain, tool)
        ask = _pick(rng, [a for a in entry.asks if not placeholders(a)])
        return f"Could you please {ask}?"

    def capability(self, domain: str, tool: str) -> str:
        """What ``tool`` does, as the agent says it ("freeze one of your cards")."""
        entry = phrasing(domain, tool)
        ask = next(a for a in entry.asks if not placeholders(a))
        return _second_person(ask)

    def phrase(self, chain: Chain, mode: str, withheld: tuple[int, str] | None,
               rng: np.random.Generator, draft: str | None = None) -> str:
        text = draft if draft is not None else self.template(chain, mode, withheld, rng)
        given = self.given(chain, withheld)
        needles = [n for m in given for n in m.needles]
        if not all(n in text for n in needles):  # the template's own guarantee
            raise _Unusable("the request lost a value the user must give")
        if self.backend is None:
            return text
        banned = list(self.withheld_mention(chain, withheld).needles) if withheld else []
        values = [s.call.arguments for s in chain.steps] + [n for m in given for n in m.needles]
        system = ("You write the first message of a customer to a support agent. Rewrite the "
                  "draft as one natural message in the customer's voice. Keep every value "
                  "exactly as written (names, numbers, dates, quoted text). Do not add values "
                  "and do not mention tools or technical field names. Answer with the "
                  "message only.")
        style = {"complete": "Mention every step.", "minimal": "Be brief: only the goal and "
                 "the values.", "missing": "Mention every step."}[mode]
        try:
            generated = str(self.backend.generate([
                {"role": "system", "content": system},
                {"role": "user", "content": f"{style}\nDraft: {text}"}])).strip()
        except Exception:  # noqa: BLE001 - any backend failure falls back to the template
            generated = ""
        low = generated.lower()
        if (generated and all(n.lower() in low for n in needles)
                and not any(b.lower() in low for b in banned)
                and not names_in(generated, values)):
            self.stats["phrasing_backend"] += 1
            return generated
        self.stats["phrasing_fallback"] += 1
        return text


# ------------------------------------------------------------------------ task kit


class ChainTaskKit(TaskKit):
    """A :class:`~tool_gym.core.task_model.TaskKit` of chain tasks for one domain.

    Args:
        domain: the domain's name.
        base: the domain's own task kit (default: ``get_domain(domain).tasks``).
        template: the template the environment runs on (its bytes give fresh sandboxes);
            when ``None`` the database passed to :meth:`sample` is copied.
        config: :class:`ChainConfig` or a dict of its fields.
        backend: optional LLM backend for phrasing (see :class:`TemplatePhraser`).
    """

    constraint_types = ("chain",)

    def __init__(self, domain: str, base: Any = None, template: Any = None,
                 config: ChainConfig | dict | None = None, backend: Any = None):
        self.domain = domain
        self.spec = get_domain(domain)
        self.base = base if base is not None else self.spec.tasks
        if self.base is None:
            raise ValueError(f"domain {domain!r} has no task kit to draw users from")
        self.auth_tools = tuple(self.base.auth_tools)
        self.template = template
        self.config = ChainConfig.of(config)
        self.stats: Counter = Counter()
        self.phraser = TemplatePhraser(backend, self.stats, domain)
        self._pinned: dict[str, Task] = {}
        self._builder: ChainBuilder | None = None
        self._image_key = None
        self.policy_violations = self.base.policy_violations
        self._foreign = [d for d in POOL_DOMAINS_V0 if d != domain]

    # -- delegated
    def split_of(self, user_id: str) -> str:
        return self.base.split_of(user_id)

    def owner(self, db: sqlite3.Connection, tool: str, arguments: dict) -> str | None:
        return self.base.owner(db, tool, arguments)

    def identify(self, task: Task, rng: np.random.Generator) -> str:
        return self.base.identify(task, rng)

    # -- sampling
    def builder(self, db: sqlite3.Connection) -> ChainBuilder:
        if self.template is not None and getattr(self.template, "image", None) is not None:
            key = ("template", id(self.template))
            image = self.template.image
        else:
            key = ("db", id(db))
            image = None
        if self._builder is None or self._image_key != key:
            self._builder = ChainBuilder(self.domain, self.base,
                                         image if image is not None else db.serialize(),
                                         self.config, self.stats)
            self._image_key = key
        return self._builder

    def sample(self, db: sqlite3.Connection, rng: np.random.Generator, split: str,
               config: SamplerConfig | None = None, task_id: str = "chain-0") -> Task:
        if task_id in self._pinned:
            return self._pinned[task_id]
        builder = self.builder(db)
        mode = self.roll_mode(rng)
        unanswerable = bool(rng.random() < self.config.p_unanswerable)
        for _ in range(self.config.users):
            base_task = self.base.sample(db, rng, split, SamplerConfig(1, 1), task_id)
            for _ in range(4):  # a chain the request cannot be made for: another one
                chain = self.draw_chain(builder, base_task, rng, accept=self.accepts(mode))
                if chain is None:
                    break
                try:
                    return self.make_task(chain, base_task, rng, task_id, mode, unanswerable)
                except _Unusable:
                    self.stats["drop_unphraseable"] += 1
        raise RuntimeError(f"{self.domain}: no chain found for {self.config.users} users of "
                           f"split {split!r}")

    def pin(self, tasks: Sequence[Task]) -> None:
        """Play these tasks: :meth:`sample` returns the pinned task whose id is asked for
        (``ToolEnv`` asks for ``"train-<n>"``) instead of drawing one."""
        self._pinned = {t.id: t for t in tasks}

    def roll_mode(self, rng: np.random.Generator) -> str:
        """One phrasing mode drawn with the configured shares."""
        cfg = self.config
        roll = rng.random()
        return ("complete" if roll < cfg.p_complete else
                "missing" if roll < cfg.p_complete + cfg.p_missing else "minimal")

    def accepts(self, mode: str):
        """What a chain needs for ``mode``: in ``missing`` mode a value the user gives
        that can be withheld (the mode is drawn first, and a chain without one is not
        turned into another mode: another chain is drawn)."""
        if mode != "missing":
            return None
        return lambda chain: bool(self._withheld_options(chain))

    def auth_prefix(self, base_task: Task) -> list[PlanStep]:
        return list(self.base.plan(replace(base_task, constraints=())))

    def draw_chain(self, builder: ChainBuilder, base_task: Task, rng: np.random.Generator,
                   live: sqlite3.Connection | None = None, accept=None) -> Chain | None:
        """A finished chain for the task's user (``live``: walk on that sandbox;
        ``accept``: a test the chain must pass, else another walk is tried)."""
        prefix = self.auth_prefix(base_task)
        auth = next((s.call for s in prefix if s.call is not None), None)
        if auth is None:
            raise ValueError(f"{self.domain}: the kit's plan has no authentication call")
        for _ in range(self.config.attempts):
            self.stats["attempts"] += 1
            length = int(rng.integers(self.config.min_length, self.config.max_length + 1))
            db = live if live is not None else builder.fresh()
            try:
                chain = builder.walk(db, rng, base_task.user_id, auth, length)
            except _AuthFailed:  # the user cannot log in on this sandbox: next user
                return None
            finally:
                if live is None:
                    db.close()
            if chain is None:
                continue
            chain = builder.finish(chain)
            if chain is None:
                continue
            if accept is not None and not accept(chain):
                self.stats["walk_nothing_to_withhold"] += 1
                continue
            return chain
        return None

    def _withheld_options(self, chain: Chain) -> list[tuple[str, tuple[int, str]]]:
        """The values that may be left out of a ``missing`` request: ``(kind, (step,
        param))`` of their first use, before the last write (after it the user's need is
        met and the conversation ends: the question must come before). A value only the
        user knows, a choice or a context value; a scalar or a list of scalars."""
        out, seen = [], set()
        last = max((i for i, s in enumerate(chain.steps) if s.write),
                   default=len(chain.steps) - 1)
        for m in self.phraser.mentions(chain):
            key = json.dumps(m.value)
            if key in seen or m.step > last:
                continue
            seen.add(key)
            # a value an earlier call passes already (found by the agent, not given by
            # the user) cannot be withheld
            if any(_holds_value(s.call.arguments, m.value) for s in chain.steps[:m.step]):
                continue
            values = m.value if isinstance(m.value, list) else [m.value]
            if not values or not all(isinstance(v, (str, int, float)) and not isinstance(
                    v, bool) for v in values) or len(m.text) > 300:
                continue
            out.append((chain.steps[m.step].sources[m.param].kind, (m.step, m.param)))
        return out

    def _withhold(self, chain: Chain, rng: np.random.Generator
                  ) -> tuple[tuple[int, str], str]:
        """The withheld value (one the user gives preferred, then a choice) and the
        ``missing`` request without it; a value whose words the request still contains
        (e.g. a zero that a date holds too) is passed over."""
        options = self._withheld_options(chain)
        users = [o for k, o in options if k == "user"]
        others = [o for k, o in options if k != "user"]
        order = [users[int(i)] for i in rng.permutation(len(users))] + \
            [others[int(i)] for i in rng.permutation(len(others))]
        for withheld in order:
            draft = self.phraser.template(chain, "missing", withheld, rng)
            needles = self.phraser.withheld_mention(chain, withheld).needles
            if any(n.lower() in draft.lower() for n in needles):
                continue
            return withheld, self.phraser.phrase(chain, "missing", withheld, rng, draft)
        raise _NothingToWithhold("no value of the chain can be withheld")

    def make_task(self, chain: Chain, base_task: Task, rng: np.random.Generator,
                  task_id: str, mode: str | None = None,
                  unanswerable: bool | None = None) -> Task:
        """The task of a finished chain. ``mode`` (default: drawn with the configured
        shares) is kept whatever the chain: a chain with nothing to withhold raises for
        ``missing`` (:meth:`accepts` tells beforehand). ``unanswerable`` (default: drawn
        with ``p_unanswerable``) makes it unanswerable: the chain's final write hidden, or
        a request for another domain's tool."""
        cfg = self.config
        if mode is None:
            mode = self.roll_mode(rng)
        if mode not in MODES:
            raise ValueError(f"mode must be one of {MODES}, got {mode!r}")
        if unanswerable is None:
            unanswerable = bool(rng.random() < cfg.p_unanswerable)
        kind = None
        if unanswerable:
            kinds = (["hidden_tool"] if chain.writes else []) + \
                (["foreign"] if self._foreign_tools() else [])
            if not kinds:
                raise _Unusable("nothing to make the request unanswerable with")
            kind = _pick(rng, kinds)
        hidden: list[str] = []
        if kind == "hidden_tool":
            hidden = [chain.writes[-1].call.name]
        tools = [{"domain": self.domain, "name": t.name} for t in self.spec.toolbox
                 if t.name not in hidden]
        if rng.random() < cfg.p_distractors:
            tools = self._add_distractors(tools, hidden, rng)
        strip = bool(rng.random() < cfg.p_strip_enums)
        greeting = _pick(rng, _GREETINGS)
        withheld, chain_args = None, {}
        if kind == "foreign":
            domain, t = _pick(rng, self._foreign_tools())
            request = follow = self.phraser.foreign(domain, t.name, rng)
            chain_args = {"foreign": {"domain": domain, "name": t.name}}
        else:
            # a read-only chain asks for a field of the last result that the request
            # does not state already
            for option in (chain.answer_options or [None]):
                if option is not None:
                    chain.answer_key, chain.answer = option
                if mode == "missing":
                    withheld, request = self._withhold(chain, rng)
                    follow = self.phraser.follow_up(chain, withheld)
                else:
                    request = follow = self.phraser.phrase(chain, mode, None, rng)
                if chain.answer is None or not mentions_answer(chain.answer,
                                                               [request, follow]):
                    break
            else:
                raise _Unusable("the request states every possible answer")
        if kind:
            self.stats[f"unanswerable_{kind}"] += 1
            constraint = self._unanswerable_constraint(chain, request, follow, mode, tools,
                                                       strip, hidden, kind, chain_args,
                                                       withheld)
        else:
            constraint = self._constraint(chain, request, follow, mode, withheld, tools,
                                          strip)
        self.stats[f"mode_{mode}"] += 1
        self.stats["kept"] += 1
        return Task(task_id, self.domain, base_task.split, base_task.user_id,
                    base_task.identity, (constraint,),
                    {"greeting": greeting, "source": "chains"})

    def _foreign_tools(self) -> list[tuple[str, Tool]]:
        own = set(self.spec.toolbox.names)
        out = []
        for d in self._foreign:
            try:
                box = get_domain(d).toolbox
            except Exception:  # noqa: BLE001 - a domain being written may not import yet
                continue
            out += [(d, t) for t in box if t.category is Category.WRITE and t.name not in own]
        return out

    def _add_distractors(self, tools: list[dict], hidden: list[str],
                         rng: np.random.Generator) -> list[dict]:
        own = set(self.spec.toolbox.names) | set(hidden)
        pool = []
        for d in self._foreign:
            try:
                box = get_domain(d).toolbox
            except Exception:  # noqa: BLE001
                continue
            pool += [{"domain": d, "name": t.name} for t in box if t.name not in own]
        names = set()
        pool = [p for p in pool if not (p["name"] in names or names.add(p["name"]))]
        if not pool:
            return tools
        lo, hi = self.config.distractors
        k = min(len(pool), int(rng.integers(lo, hi + 1)))
        chosen = [pool[int(i)] for i in rng.permutation(len(pool))[:k]]
        out = list(tools)
        for c in chosen:
            out.insert(int(rng.integers(len(out) + 1)), c)
        self.stats["distractor_tasks"] += 1
        return out

    def _proposal(self, step: ChainStep, target: Any) -> str:
        what = f" on {_format(target)}" if target is not None else ""
        text = f"Next I will call {step.call.name}{what}. Shall I proceed?"
        if _IDENTITY.search(text):
            text = f"Next I will make the change{what}. Shall I proceed?"
        return text

    def _constraint(self, chain: Chain, request: str, follow: str, mode: str,
                    withheld: tuple[int, str] | None, tools: list[dict],
                    strip: bool) -> Constraint:
        solution: list[PlanStep] = []
        writes: list[tuple[str, Any]] = []
        terms: list[str] = []
        for i, s in enumerate(chain.steps):
            if withheld is not None and i == withheld[0]:
                solution.append(PlanStep(say=self.phraser.question(chain, withheld,
                                                                   self.identity_asks)))
            if s.write:
                t = self.spec.toolbox[s.call.name]
                param = _target_param(t)
                target = s.call.arguments.get(param) if param else None
                solution.append(PlanStep(say=self._proposal(s, target),
                                         expects_confirmation=True))
                writes.append((s.call.name, target))
                terms.append(s.call.name)
                if isinstance(target, (str, int)):
                    terms.append(str(target))
            solution.append(PlanStep(call=ToolCall(s.call.name, dict(s.call.arguments))))
        if chain.writes:
            solution.append(PlanStep(say="Done. Is there anything else I can help you with?"))
        else:
            solution.append(PlanStep(say=f"The {_human(chain.answer_key)} is {chain.answer}."))
        for step in solution[:-1]:
            if step.say and (_IDENTITY.search(step.say) or (
                    chain.answer and mentions_answer(chain.answer, [step.say]))):
                raise _Unusable("a message of the solution would be misread")
        args = {
            "mode": mode,
            "calls": [{"name": s.call.name, "arguments": s.call.arguments}
                      for s in chain.steps],
            "ground_truth": [g.to_dict() for g in chain.ground_truth],
            "tools": tools,
            "strip_enums": strip,
            "hidden": [],
            "unanswerable": None,
            "given": [m.to_dict() for m in self.phraser.given(chain, withheld)],
            "withheld": None if withheld is None else
            self.phraser.withheld_mention(chain, withheld).to_dict(),
            "outcomes": chain.outcomes,
            "pruned": list(chain.pruned),
        }
        return Constraint(
            type="chain", args=args, writes=tuple(writes),
            confirm_terms=(tuple(dict.fromkeys(terms)),) if terms else (),
            answer=chain.answer, say=(request, follow), solution=tuple(solution),
            expect=tuple(chain.expect))

    def _unanswerable_constraint(self, chain: Chain, request: str, follow: str, mode: str,
                                 tools: list[dict], strip: bool, hidden: list[str],
                                 kind: str, extra: dict,
                                 withheld: tuple[int, str] | None) -> Constraint:
        if kind == "hidden_tool":
            what = self.phraser.capability(self.domain, hidden[0])
        else:
            what = self.phraser.capability(extra["foreign"]["domain"], extra["foreign"]["name"])
        refusal = (f"I'm sorry, but I can't do that: none of the tools I have here can "
                   f"{what}. Is there anything else I can help you with?")
        args = {"mode": mode, "calls": [], "ground_truth": [], "tools": tools,
                "strip_enums": strip, "hidden": hidden, "unanswerable": kind,
                "given": [] if kind == "foreign" else
                [m.to_dict() for m in self.phraser.given(chain, withheld)],
                "withheld": None if withheld is None else
                self.phraser.withheld_mention(chain, withheld).to_dict(),
                "outcomes": [], "pruned": [], **extra}
        return Constraint(type="chain", args=args, say=(request, follow),
                          solution=(PlanStep(say=refusal),))

    def scripted_user(self, task: Task, db: sqlite3.Connection, rng: np.random.Generator,
                      patience: int) -> ScriptedUser | None:
        """The scripted user of a ``missing`` task: the default one, except that it
        answers a question asked while the withheld value is still missing with the value
        alone (the default prefixes "I'm not sure what you mean." or "I don't know the ...
        id." to the same answer)."""
        c = task.constraints[0] if task.constraints else None
        if c is None or c.type != "chain" or not c.args.get("withheld"):
            return None
        return _ChainUser(task, self, db, rng, patience=patience)

    # -- checking and phrasing
    def check(self, db: sqlite3.Connection, task: Task, constraint: Constraint,
              agent_messages: Sequence[str]) -> bool:
        if constraint.type != "chain":
            return self.base.check(db, task, constraint, agent_messages)
        if constraint.args.get("unanswerable"):
            # nothing to read or write: an agent message (never the user's text) saying so
            return any(isinstance(m, AgentMessage) and (states_refusal(m) or REFUSAL.search(
                m[:MAX_MESSAGE_CHARS])) for m in agent_messages)
        if constraint.answer is not None and not grounded_answer(agent_messages,
                                                                 constraint.answer):
            return False
        return all(e.holds(db) for e in constraint.expect)

    def explain(self, db: sqlite3.Connection, task: Task, constraint: Constraint,
                agent_messages: Sequence[str]) -> str | None:
        """Why :meth:`check` fails, in its order."""
        if constraint.type != "chain":
            return self.base.explain(db, task, constraint, agent_messages)
        if constraint.args.get("unanswerable"):
            if self.check(db, task, constraint, agent_messages):
                return None
            return ("not communicated: no message to the user said that the tools here "
                    "cannot do it")
        if constraint.answer is not None:
            gap = answer_gap(agent_messages, constraint.answer)
            if gap is not None:
                return gap
        return outcome_gap(db, constraint)

    def opening(self, task: Task, constraint: Constraint, rng: np.random.Generator) -> str:
        if constraint.type != "chain":
            return self.base.opening(task, constraint, rng)
        greeting = task.persona.get("greeting") or _pick(rng, _GREETINGS)
        return f"{greeting} {constraint.say[0]}"

    def request(self, task: Task, constraint: Constraint, rng: np.random.Generator) -> str:
        if constraint.type != "chain":
            return self.base.request(task, constraint, rng)
        return constraint.say[-1]

    def plan(self, task: Task) -> list[PlanStep]:
        c = task.constraints[0] if task.constraints else None
        if c is not None and c.type == "chain" and c.args.get("unanswerable"):
            return list(c.solution)
        steps = self.auth_prefix(task)
        for c in task.constraints:
            steps.extend(c.solution)
        return steps

    # -- what the environment asks of a chain kit
    def tool_schemas(self, task: Task) -> list[dict] | None:
        """The OpenAI schemas the agent sees in this task (distractors in, hidden out)."""
        c = task.constraints[0] if task.constraints else None
        if c is None or c.type != "chain" or "tools" not in c.args:
            return None
        out = []
        for entry in c.args["tools"]:
            box = get_domain(entry["domain"]).toolbox
            schema = box[entry["name"]].schema
            out.append(_schema_without_enums(schema) if c.args.get("strip_enums") else schema)
        return out

    def ground_truth(self, task: Task) -> list[GroundTruthCall]:
        """PROVE's ground-truth calls (authentication included; none when unanswerable)."""
        out = []
        for c in task.constraints:
            out += [GroundTruthCall.of(g) for g in c.args.get("ground_truth", ())]
        return out


class _Unusable(Exception):
    pass


class _NothingToWithhold(_Unusable):
    pass


_CONFUSED = re.compile(r"^(?:I'm not sure what you mean\. |I'm sorry, I don't know the [\w ]+ "
                       r"id\. )")


class _ChainUser(ScriptedUser):
    """:class:`~tool_gym.core.users.ScriptedUser` whose answer to a question for the
    withheld value is the value alone (same turns, same counts, other words)."""

    def respond(self, message: str, writes=()) -> str:
        reply = super().respond(message, writes)
        need = self.current
        if need is not None and need.type == "chain" and not self.done:
            follow = need.say[-1]
            head = _CONFUSED.match(reply)
            if head and reply[head.end():] == follow:
                return follow
        return reply


class _AuthFailed(Exception):
    pass


# --------------------------------------------------------------------- batch mode


@dataclass
class SynthesisReport:
    """What :func:`synthesize` made and dropped."""

    tasks: list[Task]
    stats: dict
    seconds: float

    @property
    def per_second(self) -> float:
        return len(self.tasks) / self.seconds if self.seconds > 0 else float("inf")


def mode_schedule(config: ChainConfig | dict | None, rng: np.random.Generator,
                  block: int = 20) -> Iterator[str]:
    """The phrasing modes of successive kept tasks, stratified: each run of ``block``
    tasks holds the configured shares (rounded by largest remainder), in a random order.
    Over ``n`` tasks every share is then within ``block / n`` of its target, where
    independent draws would stray by a few points over a thousand."""
    cfg = ChainConfig.of(config)
    shares = np.array([cfg.p_complete, cfg.p_missing, cfg.p_minimal], dtype=float)
    if shares.sum() <= 0 or (shares < 0).any():
        raise ValueError("the mode shares must be >= 0 and not all 0")
    exact = shares / shares.sum() * block
    counts = np.floor(exact).astype(int)
    for k in np.argsort(-(exact - counts), kind="stable")[:block - counts.sum()]:
        counts[k] += 1
    modes = [m for m, c in zip(MODES, counts) for _ in range(int(c))]
    while True:
        for k in rng.permutation(len(modes)):
            yield modes[int(k)]


class ChainSynthesizer:
    """Chain tasks of one domain, one at a time, near-duplicates removed (the batch
    synthesis behind :func:`synthesize` and ``python -m tool_gym.synth.dataset``).

    With ``live`` the walks run on one live sandbox that keeps every earlier sample's
    writes (a live server); the ground truth always replays on a fresh sandbox. Call
    :meth:`close` when done (or use it as a context manager).
    """

    def __init__(self, domain: str, *, seed: int | np.random.Generator = 0,
                 split: str = "train", db_seed: int = 0,
                 config: ChainConfig | dict | None = None, live: bool = True,
                 backend: Any = None):
        from ..core.sandbox import template as make_template

        self.domain = domain
        self.split = split
        self.template = make_template(domain, db_seed)
        self.kit = ChainTaskKit(domain, template=self.template, config=config, backend=backend)
        self.builder = self.kit.builder(self.template.reader())
        self.rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
        self.live_db = self.builder.fresh() if live else None
        self.reader = self.template.reader()
        self.signatures: list[frozenset] = []
        self.draws = 0

    @property
    def stats(self) -> Counter:
        return self.kit.stats

    def next(self, mode: str | None = None, unanswerable: bool | None = None,
             max_draws: int = 40) -> Task | None:
        """The next kept task (``mode`` / ``unanswerable``: as for
        :meth:`ChainTaskKit.make_task`), or None after ``max_draws`` draws without one."""
        kit = self.kit
        for _ in range(max_draws):
            self.draws += 1
            task_id = f"{self.split}-chain-{self.draws - 1}"
            base_task = kit.base.sample(self.reader, self.rng, self.split, SamplerConfig(1, 1),
                                        task_id)
            chain = kit.draw_chain(self.builder, base_task, self.rng, live=self.live_db,
                                   accept=kit.accepts(mode) if mode else None)
            if chain is None:
                kit.stats["drop_no_chain_for_user"] += 1
                continue
            signature = chain.signature()
            if any(jaccard(signature, s) >= kit.config.dedup for s in self.signatures):
                kit.stats["drop_near_duplicate"] += 1
                continue
            try:
                task = kit.make_task(chain, base_task, self.rng, task_id, mode, unanswerable)
            except _Unusable:
                kit.stats["drop_unphraseable"] += 1
                continue
            self.signatures.append(signature)
            return task
        return None

    def close(self) -> None:
        if self.live_db is not None:
            self.live_db.close()
            self.live_db = None

    def __enter__(self) -> "ChainSynthesizer":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def synthesize(domain: str, n: int, *, seed: int = 0, split: str = "train", db_seed: int = 0,
               config: ChainConfig | dict | None = None, live: bool = True,
               backend: Any = None, max_draws: int | None = None) -> SynthesisReport:
    """``n`` chain tasks of ``domain``, near-duplicates removed, the modes stratified
    (:func:`mode_schedule`: a mode is drawn for each task to keep and stays until a chain
    fits it, so drops never shift the shares).

    With ``live`` the walks run on one live sandbox that keeps every earlier sample's
    writes (a live server); the ground truth always replays on a fresh sandbox.
    """
    start = time.perf_counter()
    limit = max_draws if max_draws is not None else 4 * n + 20
    kept: list[Task] = []
    with ChainSynthesizer(domain, seed=seed, split=split, db_seed=db_seed, config=config,
                          live=live, backend=backend) as synth:
        schedule = mode_schedule(synth.kit.config, synth.rng)
        while len(kept) < n and synth.draws < limit:
            task = synth.next(next(schedule), max_draws=limit - synth.draws)
            if task is None:
                break
            kept.append(task)
        stats = dict(sorted(synth.stats.items()))
        stats["draws"] = synth.draws
    return SynthesisReport(kept, stats, time.perf_counter() - start)


def main(argv: Sequence[str] | None = None) -> SynthesisReport:
    parser = argparse.ArgumentParser(description="Synthesize PROVE chain tasks of a domain.")
    parser.add_argument("domain")
    parser.add_argument("-n", type=int, default=50, help="tasks to make")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--split", default="train", choices=("train", "test"))
    parser.add_argument("--db-seed", type=int, default=0)
    parser.add_argument("--fresh", action="store_true",
                        help="walk on a fresh sandbox per sample instead of a live one")
    parser.add_argument("--out", default=None, help="write the tasks as JSON lines here")
    args = parser.parse_args(argv)
    report = synthesize(args.domain, args.n, seed=args.seed, split=args.split,
                        db_seed=args.db_seed, live=not args.fresh)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            for task in report.tasks:
                f.write(json.dumps(task.to_dict(), sort_keys=True, default=list) + "\n")
    print(json.dumps({"tasks": len(report.tasks), "seconds": round(report.seconds, 3),
                      "per_second": round(report.per_second, 2), "stats": report.stats},
                     indent=1), file=sys.stderr)
    return report


if __name__ == "__main__":
    main()
