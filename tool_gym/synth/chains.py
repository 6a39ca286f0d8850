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
4. **phrasing** in one of three modes: ``complete`` (60%: every step and every value the
   user must give), ``missing`` (20%: the same, less one required value the agent must ask
   for) or ``minimal`` (20%: only the goal and the values). The default phraser is a
   template; an LLM backend (any object with ``generate(messages) -> str``) may be
   given: its text is kept only if it contains every value to give (and not the withheld
   one), else the template is used.
5. **perturbations**: 3 to 8 distractor tools of other domains (40%), enums stripped from
   the schemas (30%), and unanswerable requests (5%): the chain's final write tool is
   hidden from the agent (or the request asks for a write tool of another domain); the
   right behaviour is then no call and a clear answer.

Batch synthesis (:func:`synthesize`) also drops near-duplicates: a chain whose set of
calls (name and arguments) has a Jaccard similarity of at least 0.7 with a kept one.

How a chain task is played (:class:`ChainTaskKit`, ``ToolEnv(task_source="chains")``).
A task has the user and identity of the domain's kit and one constraint of type
``"chain"``:

- ``say[0]`` is the opening request (in the task's mode); ``say[1]`` is what the user says
  when the agent asks for anything else than their identity: in ``missing`` mode, the
  follow-up that supplies the withheld value (``"Sorry, I forgot to mention: the reason
  should be 'no longer needed'."``), otherwise a restatement of the complete request. The
  scripted user answers an agent's question with ``kit.request``, which is ``say[1]``, so
  the agent gets the withheld value exactly when it asks for it.
- ``solution``: the reference steps after the authentication: for ``missing`` mode a
  question for the withheld value before the first call that needs it; the reads; before
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
  the ``withheld`` one.

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
from typing import Any, Sequence

import numpy as np

from ..core.actions import ToolCall
from ..core.depgraph import (EntityRef, build_graph, call_dependencies, extract_entities,
                             parse_result)
from ..core.prove import GroundTruthCall
from ..core.grounding import (MAX_MESSAGE_CHARS, AgentMessage, answer_gap, grounded_answer,
                              states_refusal)
from ..core.taskkit import mentions_answer, outcome_gap
from ..core.task_model import Constraint, Expectation, PlanStep, SamplerConfig, Task, TaskKit
from ..core.tools import Category, Tool, Toolbox
from ..core.users import _IDENTITY, _PROPOSAL
from ..domains import get_domain
from .pool import POOL_DOMAINS_V0

__all__ = [
    "Chain",
    "ChainBuilder",
    "ChainConfig",
    "ChainTaskKit",
    "SynthesisReport",
    "TemplatePhraser",
    "jaccard",
    "synthesize",
]

MODES = ("complete", "missing", "minimal")
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

    def track(self, db: sqlite3.Connection) -> None:
        """Temporary triggers that log the key of every row a statement touches."""
        db.execute("CREATE TEMP TABLE IF NOT EXISTS _chain_changes (tbl TEXT, key TEXT)")
        for table, keys in self.keys.items():
            for event, rows in (("INSERT", ("NEW",)), ("UPDATE", ("OLD", "NEW")),
                                ("DELETE", ("OLD",))):
                body = " ".join(
                    f"INSERT INTO _chain_changes VALUES ('{table}', json_array("
                    + ", ".join(f'{r}."{k}"' for k in keys) + "));" for r in rows)
                db.execute(f'CREATE TEMP TRIGGER IF NOT EXISTS "_chain_{table}_{event}" '
                           f'AFTER {event} ON main."{table}" BEGIN {body} END')

    def changed(self, db: sqlite3.Connection) -> list[tuple[str, tuple]]:
        rows = db.execute("SELECT DISTINCT tbl, key FROM _chain_changes ORDER BY rowid").fetchall()
        return [(t, tuple(json.loads(k))) for t, k in rows]

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
        db = self.fresh()
        self.tables = _Tables(db)
        self._sizes = {t: db.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0]
                       for t in self.tables.columns}
        db.close()
        self._db: sqlite3.Connection | None = None

    def fresh(self) -> sqlite3.Connection:
        db = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
        db.deserialize(self.image)
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
        order = []
        pool, pw = list(candidates), list(weights)
        while pool:
            t = _weighted(rng, pool, pw)
            k = pool.index(t)
            pool.pop(k)
            pw.pop(k)
            order.append(t)
        return order

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
    def _replay(self, chain: Chain) -> tuple[sqlite3.Connection, list[bool], list[str]]:
        db = self.fresh()
        self.tables.track(db)
        auth = self.toolbox.call(db, chain.auth.name, chain.auth.arguments)
        chain.auth_result = auth.content
        oks, contents = [], []
        for s in chain.steps:
            r = self.toolbox.call(db, s.call.name, s.call.arguments)
            oks.append(r.ok)
            contents.append(r.content)
        return db, oks, contents

    def finish(self, chain: Chain) -> Chain | None:
        """Replay filter, expectations, answer and dependencies (None: dropped)."""
        for _ in range(2):
            db, oks, contents = self._replay(chain)
            failed = oks.count(False)
            if failed == 0:
                break
            db.close()
            if failed / len(oks) > self.config.max_failure:
                self.stats["drop_replay_failed"] += 1
                return None
            self.stats["replay_pruned_calls"] += failed
            chain.steps = [s for s, ok in zip(chain.steps, oks) if ok]
            if len(chain.steps) < self.config.min_length:
                self.stats["drop_too_short"] += 1
                return None
        else:
            self.stats["drop_replay_failed"] += 1
            return None
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
                chain.answer_key, chain.answer = answer
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

    @staticmethod
    def _answer(step: ChainStep) -> tuple[str, str] | None:
        """``(key, value)`` a read-only chain's answer is: a scalar of the last result."""
        data = parse_result(step.result)
        if isinstance(data, list) and len(data) == 1 and isinstance(data[0], dict):
            data = data[0]
        if isinstance(data, (str, int, float)) and not isinstance(data, bool):
            text = data if isinstance(data, str) else json.dumps(data)
            return ("result", text) if 2 <= len(text) <= 60 else None
        if not isinstance(data, dict):
            return None
        options = []
        for key, value in data.items():
            if isinstance(value, bool) or value is None or isinstance(value, (dict, list)):
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
        return chosen[len(chosen) // 2]


# ------------------------------------------------------------------------ phrasing


class TemplatePhraser:
    """The default phraser: deterministic templates, no model.

    ``backend`` (optional): an LLM backend, ``generate(messages) -> str``. Its text is kept
    only when it contains every value the user must give (and not a withheld one);
    otherwise the template's text is used (counted as ``phrasing_fallback``).
    """

    def __init__(self, backend: Any = None, stats: Counter | None = None):
        self.backend = backend
        self.stats = stats if stats is not None else Counter()

    @staticmethod
    def mentions(chain: Chain) -> list[tuple[int, str, Any]]:
        """``(step, param, value)`` the user must give: choices, context and user values."""
        out = []
        for i, s in enumerate(chain.steps):
            for param, src in s.sources.items():
                if src.kind in ("choice", "user", "context"):
                    out.append((i, param, s.call.arguments[param]))
        return out

    @staticmethod
    def _clause(step: ChainStep, params: Sequence[tuple[str, Any]]) -> str:
        verb = _human(step.call.name)
        if not params:
            return verb
        values = [f"{_human(p)} {_format(v)}" for p, v in params]
        joined = values[0] if len(values) == 1 else ", ".join(values[:-1]) + " and " + values[-1]
        return f"{verb} with {joined}"

    @staticmethod
    def given(chain: Chain, withheld: tuple[int, str] | None) -> list[tuple[int, str, Any]]:
        """The mentions less every one of the withheld value."""
        if withheld is None:
            return TemplatePhraser.mentions(chain)
        hidden = json.dumps(chain.steps[withheld[0]].call.arguments[withheld[1]])
        return [m for m in TemplatePhraser.mentions(chain) if json.dumps(m[2]) != hidden]

    def template(self, chain: Chain, mode: str, withheld: tuple[int, str] | None,
                 rng: np.random.Generator) -> str:
        mentions = self.given(chain, withheld)
        by_step: dict[int, list] = {}
        for i, p, v in mentions:
            by_step.setdefault(i, []).append((p, v))
        if mode == "minimal":
            words = Counter(_human(p) for _, p, _ in mentions)
            values = [f"{_human(p)} {_format(v)}" + (
                f" (to {_human(chain.steps[i].call.name)})" if words[_human(p)] > 1 else "")
                for i, p, v in mentions]
            tail = ("; ".join(values) + ".") if values else ""
            if chain.answer is not None:
                return (f"Could you tell me the {_human(chain.answer_key)} from "
                        f"{_human(chain.steps[-1].call.name)}? " + tail).strip()
            goal = " and ".join(_human(s.call.name) for s in chain.writes)
            return f"Please {goal}. " + tail
        clauses = [self._clause(s, by_step.get(i, [])) for i, s in enumerate(chain.steps)]
        words = []
        for i, c in enumerate(clauses):
            if i == 0:
                words.append(f"First, {c}.")
            elif i == len(clauses) - 1:
                words.append(f"Finally, {c}.")
            else:
                words.append(f"Then {c}.")
        text = "I need help with something. " + " ".join(words)
        if chain.answer is not None:
            text += f" Then tell me the {_human(chain.answer_key)} you find."
        return text

    def phrase(self, chain: Chain, mode: str, withheld: tuple[int, str] | None,
               rng: np.random.Generator) -> str:
        text = self.template(chain, mode, withheld, rng)
        if self.backend is None:
            return text
        needles = [n for _, _, v in self.given(chain, withheld) for n in _needles(v)]
        banned = []
        if withheld is not None:
            banned = _needles(chain.steps[withheld[0]].call.arguments[withheld[1]])
        system = ("You write the first message of a customer to a support agent. Rewrite the "
                  "draft as one natural message in the customer's voice. Keep every value "
                  "exactly as written (ids, names, numbers, quoted text). Do not add values. "
                  "Answer with the message only.")
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
                and not any(b.lower() in low for b in banned)):
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
        self.phraser = TemplatePhraser(backend, self.stats)
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
        builder = self.builder(db)
        for _ in range(self.config.users):
            base_task = self.base.sample(db, rng, split, SamplerConfig(1, 1), task_id)
            chain = self.draw_chain(builder, base_task, rng)
            if chain is None:
                continue
            try:
                return self.make_task(chain, base_task, rng, task_id)
            except _Unusable:
                self.stats["drop_unphraseable"] += 1
        raise RuntimeError(f"{self.domain}: no chain found for {self.config.users} users of "
                           f"split {split!r}")

    def auth_prefix(self, base_task: Task) -> list[PlanStep]:
        return list(self.base.plan(replace(base_task, constraints=())))

    def draw_chain(self, builder: ChainBuilder, base_task: Task, rng: np.random.Generator,
                   live: sqlite3.Connection | None = None) -> Chain | None:
        """A finished chain for the task's user (``live``: walk on that sandbox)."""
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
            if chain is not None:
                return chain
        return None

    def _withheld(self, chain: Chain, rng: np.random.Generator) -> tuple[int, str] | None:
        """A required value to leave out of the request: its first use ``(step, param)``.
        A value the user gives (preferred) or chooses; never one the words of the
        agent's question for it would make look like an identity question or a proposal."""
        users, choices, seen = [], [], set()
        # after the last write the user's need is met and the conversation ends: the
        # question must come before it
        last = max((i for i, s in enumerate(chain.steps) if s.write),
                   default=len(chain.steps) - 1)
        for i, p, v in TemplatePhraser.mentions(chain):
            key = json.dumps(v)
            if key in seen or i > last:
                continue
            seen.add(key)
            src = chain.steps[i].sources[p]
            if _IDENTITY.search(_human(p)) or _PROPOSAL.search(_human(p)):
                continue
            if not isinstance(v, (str, int, float)) or isinstance(v, bool) or len(str(v)) > 80:
                continue
            (users if src.kind == "user" else choices).append((i, p))
        options = users or choices
        return _pick(rng, options) if options else None

    def make_task(self, chain: Chain, base_task: Task, rng: np.random.Generator,
                  task_id: str) -> Task:
        cfg = self.config
        roll = rng.random()
        mode = ("complete" if roll < cfg.p_complete else
                "missing" if roll < cfg.p_complete + cfg.p_missing else "minimal")
        unanswerable = None
        if rng.random() < cfg.p_unanswerable:
            kinds = (["hidden_tool"] if chain.writes else []) + \
                (["foreign"] if self._foreign_tools() else [])
            unanswerable = _pick(rng, kinds) if kinds else None
        withheld = self._withheld(chain, rng) if mode == "missing" and not unanswerable \
            else None
        if mode == "missing" and withheld is None:
            mode = "complete"
            self.stats["missing_to_complete"] += 1
        hidden: list[str] = []
        if unanswerable == "hidden_tool":
            hidden = [chain.writes[-1].call.name]
            mode = mode if mode != "missing" else "complete"
        tools = [{"domain": self.domain, "name": t.name} for t in self.spec.toolbox
                 if t.name not in hidden]
        if rng.random() < cfg.p_distractors:
            tools = self._add_distractors(tools, hidden, rng)
        strip = bool(rng.random() < cfg.p_strip_enums)
        greeting = _pick(rng, _GREETINGS)
        if unanswerable == "foreign":
            domain, t = _pick(rng, self._foreign_tools())
            request = (f"Could you {_human(t.name)} for me? "
                       f"{t.description.split('. ')[0].rstrip('.')}.")
            chain_args = {"foreign": {"domain": domain, "name": t.name}}
        else:
            request = self.phraser.phrase(chain, mode, withheld, rng)
            chain_args = {}
        restate = request if withheld is None else self.phraser.template(
            chain, "complete", None, rng)
        if withheld is not None:
            value = chain.steps[withheld[0]].call.arguments[withheld[1]]
            follow = (f"Sorry, I forgot to mention: the {_human(withheld[1])} should be "
                      f"{_format(value)}.")
        else:
            follow = restate
        if unanswerable:
            self.stats[f"unanswerable_{unanswerable}"] += 1
            constraint = self._unanswerable_constraint(chain, request, mode, tools, strip,
                                                       hidden, unanswerable, chain_args)
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
                solution.append(PlanStep(say=f"Please tell me the {_human(withheld[1])} for "
                                             "this request."))
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
            "given": [{"step": i, "param": p, "value": v}
                      for i, p, v in TemplatePhraser.given(chain, withheld)],
            "withheld": None if withheld is None else {
                "step": withheld[0], "param": withheld[1],
                "value": chain.steps[withheld[0]].call.arguments[withheld[1]]},
        }
        return Constraint(
            type="chain", args=args, writes=tuple(writes),
            confirm_terms=(tuple(dict.fromkeys(terms)),) if terms else (),
            answer=chain.answer, say=(request, follow), solution=tuple(solution),
            expect=tuple(chain.expect))

    def _unanswerable_constraint(self, chain, request, mode, tools, strip, hidden, kind,
                                 extra) -> Constraint:
        if kind == "hidden_tool":
            what = _human(hidden[0])
        else:
            what = _human(extra["foreign"]["name"])
        refusal = (f"I'm sorry, but I can't do that: none of the tools I have here can "
                   f"{what}. Is there anything else I can help you with?")
        args = {"mode": mode, "calls": [], "ground_truth": [], "tools": tools,
                "strip_enums": strip, "hidden": hidden, "unanswerable": kind,
                "withheld": None, **extra}
        return Constraint(type="chain", args=args, say=(request, request),
                          solution=(PlanStep(say=refusal),))

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


def synthesize(domain: str, n: int, *, seed: int = 0, split: str = "train", db_seed: int = 0,
               config: ChainConfig | dict | None = None, live: bool = True,
               backend: Any = None, max_draws: int | None = None) -> SynthesisReport:
    """``n`` chain tasks of ``domain``, near-duplicates removed.

    With ``live`` the walks run on one live sandbox that keeps every earlier sample's
    writes (a live server); the ground truth always replays on a fresh sandbox.
    """
    from ..core.sandbox import template as make_template

    tpl = make_template(domain, db_seed)
    kit = ChainTaskKit(domain, template=tpl, config=config, backend=backend)
    builder = kit.builder(tpl.reader())
    rng = np.random.default_rng(seed)
    live_db = builder.fresh() if live else None
    reader = tpl.reader()
    kept: list[Task] = []
    signatures: list[frozenset] = []
    draws = 0
    start = time.perf_counter()
    limit = max_draws if max_draws is not None else 4 * n + 20
    try:
        while len(kept) < n and draws < limit:
            draws += 1
            task_id = f"{split}-chain-{draws - 1}"
            base_task = kit.base.sample(reader, rng, split, SamplerConfig(1, 1), task_id)
            chain = kit.draw_chain(builder, base_task, rng, live=live_db)
            if chain is None:
                kit.stats["drop_no_chain_for_user"] += 1
                continue
            signature = chain.signature()
            if any(jaccard(signature, s) >= kit.config.dedup for s in signatures):
                kit.stats["drop_near_duplicate"] += 1
                continue
            try:
                task = kit.make_task(chain, base_task, rng, task_id)
            except _Unusable:
                kit.stats["drop_unphraseable"] += 1
                continue
            signatures.append(signature)
            kept.append(task)
    finally:
        if live_db is not None:
            live_db.close()
    seconds = time.perf_counter() - start
    stats = dict(sorted(kit.stats.items()))
    stats["draws"] = draws
    return SynthesisReport(kept, stats, seconds)


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
