"""ToolLoop's closed-loop staged synthesis of single-turn function-calling tasks.

Each sample is made in three stages, and each stage is checked before the next one runs:

1. **Targets** (``targets``): the functions to call, picked from one semantic group of the
   tool pool (:mod:`tool_gym.synth.pool`). Rules: every name is offered; cardinality 1
   (``simple``, ``multiple``, ``irrelevance``) or 2 to 4 calls (``parallel``: one function
   several times; ``parallel_multiple``: at least two functions); coherent (one group, one
   source); parallelizable (no target consumes the identifier another one looks up, and
   a function called more than once can take different arguments); executable where the
   tool is (its domain gave working arguments).
2. **Query** (``query``), derived backwards from the targets: the user's request and the
   calls it implies (the *plan*). Rules: the plan has exactly the target calls, no more and
   no fewer; its values fit the signatures (required present, nothing unknown, JSON types
   exact, enums); every value of the plan is stated in the query; parallel calls differ
   and no write touches an entity another call uses; the query never names a function and
   reads naturally (a sentence, no code, no identifiers that are not values); the plan
   runs on a fresh sandbox in the given and in the reverse order (executable tools); for
   ``irrelevance`` no candidate can serve the request.
3. **Calls** (``calls``): the answer to the query from the candidate functions alone (the
   targets plus look-alike distractors from the same group). Rules: it parses (JSON, an
   OpenAI message, Hermes blocks or Python call syntax: an AST, never evaluated); every
   call is schema-compliant; every value is supported by the query; the calls match the
   plan under BFCL's AST rules (:mod:`tool_gym.core.ast_match`); they run on a fresh
   sandbox; for ``irrelevance``, no call at all. The sample is stored in OpenAI format.

An optional LLM verifier (any backend) checks each stage after the rules pass. When a
stage fails, it is generated again with feedback that names each problem, after the failed
output (the whole history of attempts and feedback stays in the conversation), up to
``max_retries`` (3) times; then the sample is discarded with its reason. Retries per stage
and discard reasons are counted (:class:`SynthesisStats`, printed as a table of stage x
retries 0..3).

Ablation (``feedback=``): ``"full"`` (closed loop, the default); ``"retry"`` (checked and
generated again, without feedback); ``"filter"`` (each stage once, the same checks at the
end, failures discarded); ``"none"`` (each stage once, nothing discarded that can be
parsed; what the checks would have found is kept in ``meta["unchecked_problems"]``).

Generators: any backend of :mod:`tool_gym.llm` (``generate(messages, **kw) -> str``). The
prompts say everything a model needs; the offline :class:`~tool_gym.llm.TemplateBackend`
instead renders the ``staged.*`` templates registered here from structured context, and
makes realistic mistakes at the rate ``noise`` (so that the loop has something to repair);
given feedback, it avoids the mistakes named there.

Command line::

    python -m tool_gym.synth.staged --n 1000 --out runs/synth
"""

from __future__ import annotations

import argparse
import functools
import json
import re
import sys
import time
from collections import Counter
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

from ..core.actions import ToolCall, parse_action
from ..core.ast_match import check as ast_check
from ..core.ast_match import normalize_string
from ..core.tools import Category, Tool, validate_arguments
from ..llm.base import Backend
from ..llm.template import TemplateBackend, register
from .formats import CATEGORIES, NO_CALL_REPLY, FunctionTask
from .pool import ToolPool, cached_pool, name_overlap, schema_similarity, split_identifier

__all__ = [
    "MODES",
    "STAGES",
    "Discard",
    "Problem",
    "StagedConfig",
    "StagedSynthesizer",
    "SynthesisResult",
    "SynthesisStats",
    "answers_from_calls",
    "audit",
    "main",
]

STAGES = ("targets", "query", "calls")
MODES = ("full", "retry", "filter", "none")
_CATEGORY_CODE = {c: i for i, c in enumerate(CATEGORIES)}


# ------------------------------------------------------------------ records


@dataclass(frozen=True)
class Problem:
    """One failed check: ``code`` (``"<stage>.<rule>"``), a message that names the specific
    problem, and data for templates (names, positions)."""

    code: str
    message: str
    data: dict = field(default_factory=dict, compare=False, hash=False)

    def __str__(self) -> str:
        return f"[{self.code}] {self.message}"


@dataclass
class Discard:
    """A sample given up: where, why, and after how many attempts."""

    index: int
    category: str
    stage: str
    reason: str
    problems: list[str]
    attempts: int
    retries: dict = field(default_factory=dict)  # retries of the stages it passed

    def to_dict(self) -> dict:
        return asdict(self)


class _StageFailed(Exception):
    def __init__(self, stage: str, problems: list[Problem], attempts: int):
        super().__init__(stage)
        self.stage = stage
        self.problems = problems
        self.attempts = attempts


@dataclass
class StagedConfig:
    """Settings of the staged synthesis.

    Attributes:
        categories: categories made in turn (sample ``i`` is ``categories[i % len]``).
        feedback: ``"full"``, ``"retry"``, ``"filter"`` or ``"none"`` (see the module doc).
        max_retries: generations after the first one, per stage.
        seed: seed of everything random.
        noise: rate of mistakes of the template backend (model backends ignore it).
        execute: run executable calls on fresh sandboxes as a check.
        max_parallel: most calls of a parallel sample (at least 2).
        max_distractors: most look-alike distractors among the candidates.
        strict_format: the calls stage must itself write an OpenAI assistant message.
    """

    categories: tuple[str, ...] = ("simple", "multiple", "parallel", "parallel_multiple")
    feedback: str = "full"
    max_retries: int = 3
    seed: int = 0
    noise: float = 0.2
    execute: bool = True
    max_parallel: int = 4
    max_distractors: int = 3
    strict_format: bool = False

    def __post_init__(self):
        self.categories = tuple(self.categories)
        for c in self.categories:
            if c not in CATEGORIES:
                raise ValueError(f"unknown category {c!r}; use {', '.join(CATEGORIES)}")
        if self.feedback not in MODES:
            raise ValueError(f"feedback must be one of {', '.join(MODES)}")
        if not 0 <= self.max_retries <= 10:
            raise ValueError("max_retries must be within 0..10")
        if self.max_parallel < 2:
            raise ValueError("max_parallel must be at least 2")


@dataclass
class SynthesisStats:
    """Retries per stage and discard reasons.

    ``passed[stage][r]``: samples whose stage passed its checks after ``r`` retries
    (whether or not a later stage discarded them); ``discarded[stage]``: samples given up
    at that stage; ``reasons``: ``(stage, code)`` of the first problem of each discard. So
    each row's total is the number of samples that reached the stage. (With
    ``feedback="none"`` a stage that failed its checks counts in neither column.)
    """

    max_retries: int = 3
    passed: dict[str, list[int]] = field(default_factory=dict)
    discarded: Counter = field(default_factory=Counter)
    reasons: Counter = field(default_factory=Counter)
    kept: int = 0
    seconds: float = 0.0

    def __post_init__(self):
        for stage in STAGES:
            self.passed.setdefault(stage, [0] * (self.max_retries + 1))

    @property
    def total(self) -> int:
        return self.kept + sum(self.discarded.values())

    @property
    def per_minute(self) -> float:
        return 60.0 * self.kept / self.seconds if self.seconds > 0 else 0.0

    def add(self, other: "SynthesisStats") -> None:
        for stage in STAGES:
            for r, count in enumerate(other.passed[stage]):
                self.passed[stage][r] += count
        self.discarded.update(other.discarded)
        self.reasons.update(other.reasons)
        self.kept += other.kept
        self.seconds += other.seconds

    def table(self) -> str:
        """The stage x retries table, then the discard reasons."""
        columns = [str(r) for r in range(self.max_retries + 1)] + ["discarded"]
        width = max(9, *(len(str(v)) + 1 for row in self.passed.values() for v in row))
        lines = ["stage".ljust(9) + "".join(c.rjust(width + 1) for c in columns)]
        for stage in STAGES:
            cells = [*self.passed[stage], self.discarded.get(stage, 0)]
            lines.append(stage.ljust(9) + "".join(str(v).rjust(width + 1) for v in cells))
        lines.append(f"kept {self.kept} of {self.total} samples"
                     + (f" in {self.seconds:.1f} s ({self.per_minute:,.0f} per minute)"
                        if self.seconds else ""))
        if self.reasons:
            lines.append("discard reasons:")
            for (stage, code), count in self.reasons.most_common():
                lines.append(f"  {code:<32} {count}")
        return "\n".join(lines)

    def to_dict(self) -> dict:
        return {"passed": self.passed, "discarded": dict(self.discarded),
                "reasons": {code: n for (_, code), n in self.reasons.items()},
                "kept": self.kept, "total": self.total, "seconds": self.seconds,
                "per_minute": self.per_minute}


@dataclass
class SynthesisResult:
    tasks: list[FunctionTask]
    discards: list[Discard]
    stats: SynthesisStats


# ------------------------------------------------------------------ helpers


def _json_payload(text: str) -> Any:
    """The first JSON value in a model's text (reasoning and code fences skipped)."""
    text = re.sub(r"<think>.*?</think>", "", text or "", flags=re.S)
    if "</think>" in text:
        text = text.rsplit("</think>", 1)[1]
    fence = re.search(r"```(?:json)?\s*(.*?)```", text, flags=re.S)
    if fence:
        text = fence.group(1)
    decoder = json.JSONDecoder()
    for match in re.finditer(r"[\[{]", text):
        try:
            value, _ = decoder.raw_decode(text, match.start())
            return value
        except json.JSONDecodeError:
            continue
    raise ValueError("no JSON value found")


def _strict_type(value: Any, spec: dict) -> bool:
    kind = spec.get("type")
    if isinstance(kind, list) or kind is None:
        return True
    return {"string": lambda v: isinstance(v, str),
            "integer": lambda v: type(v) is int,
            "number": lambda v: type(v) in (int, float),
            "boolean": lambda v: type(v) is bool,
            "array": lambda v: isinstance(v, list),
            "object": lambda v: isinstance(v, dict)}.get(kind, lambda v: True)(value)


def _number_pattern(value: float | int) -> re.Pattern:
    forms = {repr(value), str(value)}
    if isinstance(value, float) and value.is_integer():
        forms.add(str(int(value)))
    alternatives = "|".join(re.escape(f) for f in sorted(forms, key=len, reverse=True))
    return re.compile(rf"(?<![\w.])(?:{alternatives})(?![\d])")


def _supported(value: Any, param: str, query: str, normal_query: str) -> bool:
    """Whether the query states ``value`` (strings compared in BFCL's normalized form)."""
    if value is None:
        return True
    if isinstance(value, bool):
        return normalize_string(split_identifier(param)) in normal_query
    if isinstance(value, (int, float)):
        return bool(_number_pattern(value).search(query))
    if isinstance(value, str):
        if value.strip() == "":
            return normalize_string(split_identifier(param)) in normal_query
        return normalize_string(value) in normal_query
    if isinstance(value, list):
        return all(_supported(v, param, query, normal_query) for v in value)
    if isinstance(value, dict):
        return all(_supported(v, k, query, normal_query) for k, v in value.items())
    return False


def _leaf_params(arguments: dict) -> list[tuple[str, Any]]:
    return list(arguments.items())


def _bfcl_value(value: Any, spec: dict) -> Any:
    """A given value as one accepted value of a BFCL possible answer."""
    kind = spec.get("type")
    if kind == "object" and isinstance(value, dict):
        return {k: [v] for k, v in value.items()}
    if kind == "array" and isinstance(value, list) and value and all(
            isinstance(v, dict) for v in value):
        return [{k: [x] for k, x in v.items()} for v in value]
    if kind == "number" and type(value) is int:
        return float(value)
    return value


def answers_from_calls(calls: Sequence[ToolCall], tools: dict[str, Any]) -> list[dict]:
    """BFCL possible answers of the calls: each given value accepted (also left out when
    it equals the default); each optional parameter not given may be left out (or given
    its default)."""
    answers = []
    for call in calls:
        t = tools[call.name]
        properties = t.properties
        required = set(t.required)
        params: dict[str, list] = {}
        for param, spec in properties.items():
            spec = spec or {}
            default = spec.get("default")
            if param in call.arguments:
                value = call.arguments[param]
                accepted = [_bfcl_value(value, spec)]
                if param not in required and "default" in spec and default == value:
                    accepted.append("")
                params[param] = accepted
            elif param not in required:
                params[param] = [""] + ([_bfcl_value(default, spec)]
                                        if default is not None and default != [] else [])
        answers.append({call.name: params})
    return answers


def _openai(calls: Sequence[ToolCall]) -> list[dict]:
    return [ToolCall(c.name, c.arguments).to_openai() for c in calls]


def _as_core_tool(t) -> Tool:
    return Tool(name=t.name, fn=None, category=Category(t.category or "read"),
                description=t.description, parameters=t.parameters)


# ------------------------------------------------------------- query rendering

_OPENERS = (("Please", "."), ("Could you", "?"), ("Can you", "?"), ("I need you to", "."),
            ("Help me", "."), ("I'd like you to", "."), ("Would you", "?"))
_NOUN_START = ("the ", "a ", "an ", "this ", "returns ", "return ")
_TRAILING = {"a", "an", "the", "of", "for", "to", "by", "with", "and", "or", "in", "on", "its"}


def _base_verb(word: str) -> str:
    low = word.lower()
    if low.endswith(("ches", "shes", "sses", "xes", "zes")):
        return word[:-2]
    if low.endswith("ies") and len(low) > 4:
        return word[:-3] + "y"
    if low.endswith("s") and not low.endswith(("ss", "us", "is")) and len(low) > 3:
        return word[:-1]
    return word


def task_phrase(description: str, name: str) -> str:
    """A verb phrase for a tool, from the first sentence of its description."""
    text = (description or "").strip()
    text = re.split(r"(?<=[.!?])\s|[:;(\n]|,\s+(?=(?:as|which|that|so|if|when|where|while|"
                    r"with|given|using|returning|including|and return|e\.g\.|for example)\b)",
                    text, maxsplit=1)[0].strip().rstrip(".!?,")
    text = re.sub(r"^(this|the)\s+(function|tool|api|method|endpoint)\s+(will\s+)?", "",
                  text, flags=re.I)
    text = re.sub(r"^(a\s+)?(function|tool|api|method)\s+(to|that|which|for)\s+", "", text,
                  flags=re.I)
    text = re.sub(r"[\[\]{}<>`]", "", text)
    text = re.sub(r"\s*=\s*", " ", text)
    text = re.sub(r"(?<=[A-Za-z0-9])_(?=[A-Za-z0-9])", " ", text)  # snake_case -> words
    if not text:
        return "help with " + split_identifier(name)
    words = text.split()
    if len(words) > 14:
        words = words[:14]
    while len(words) > 2 and words[-1].lower().strip(",") in _TRAILING:
        words.pop()
    text = " ".join(words).rstrip(",")
    low = text.lower()
    if low.startswith(_NOUN_START) or not words[0][:1].isalpha():
        if low.startswith(("returns ", "return ")):
            text = text.split(" ", 1)[1] if " " in text else text
        return "look up " + text[:1].lower() + text[1:]
    first = _base_verb(words[0])
    rest = text[len(words[0]):]
    return first[:1].lower() + first[1:] + rest


def _label(param: str) -> str:
    return re.sub(r"(?<=[a-z])(?=\d)", " ", split_identifier(param))


def _render_value(value: Any) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, float) and value.is_integer():
        return str(value)
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, str):
        return f'"{value}"' if " " in value.strip() else value
    if isinstance(value, list):
        parts = [_render_value(v) for v in value]
        return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
    if isinstance(value, dict):
        return "(" + ", ".join(_arg_phrase(k, v) for k, v in value.items()) + ")"
    return str(value)


def _arg_phrase(param: str, value: Any, unnatural: bool = False) -> str:
    if unnatural:
        return f"{param}={json.dumps(value, ensure_ascii=False)}"
    label = _label(param)
    if isinstance(value, bool):
        return f"{label} turned {'on' if value else 'off'}"
    if isinstance(value, str) and value.strip() == "":
        return f"no {label}"
    return f"{label} {_render_value(value)}"


def _join(parts: list[str]) -> str:
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def render_query(tools: Sequence[Any], arguments: Sequence[dict], rng: np.random.Generator,
                 unnatural: bool = False, drop: tuple[int, str] | None = None) -> str:
    """A natural request for calls ``tools[i](**arguments[i])`` (calls of one function are
    merged: "... with A, and also with B"). ``drop`` leaves one value out (a mistake)."""
    opener, end = _OPENERS[int(rng.integers(len(_OPENERS)))]
    clauses: list[str] = []
    order: list[str] = []
    grouped: dict[str, list[int]] = {}
    for i, t in enumerate(tools):
        if t.name not in grouped:
            order.append(t.name)
        grouped.setdefault(t.name, []).append(i)
    for name in order:
        indices = grouped[name]
        t = tools[indices[0]]
        phrases = []
        for i in indices:
            items = [_arg_phrase(k, v, unnatural) for k, v in arguments[i].items()
                     if drop is None or (i, k) != drop]
            phrases.append(_join(items))
        clause = task_phrase(t.description, t.name)
        if phrases[0]:
            clause += " with " + phrases[0]
        for extra in phrases[1:]:
            clause += ", and also with " + (extra or "the same settings")
        clauses.append(clause)
    body = "; also ".join(clauses)
    text = f"{opener} {body}{end}"
    return text[:1].upper() + text[1:]


_SNAKE = re.compile(r"\b[a-z][a-z0-9]*_[a-z0-9_]+\b")
_ASSIGN = re.compile(r"\b\w+\s*=\s*\S")


def naturalness_problems(query: str, values: Sequence[Any]) -> list[str]:
    """Why a query does not read as a user's request (empty list: it does)."""
    problems = []
    words = query.split()
    if len(words) < 4:
        problems.append("it is too short to be a request")
    if len(words) > 250:
        problems.append("it is too long")
    if re.search(r"[{}\[\]<>]|```", query):
        problems.append("it contains code-like brackets")
    value_text = " ".join(json.dumps(v, ensure_ascii=False) for v in values)
    snakes = [w for w in _SNAKE.findall(query) if w not in value_text]
    if snakes:
        problems.append(f"it contains identifiers such as {snakes[0]!r} instead of words")
    if _ASSIGN.search(query) and not any("=" in str(v) for v in values):
        problems.append("it assigns parameters (key=value) instead of asking in words")
    stripped = query.strip()
    if stripped and not (stripped[0].isupper() or stripped[0].isdigit()
                         or stripped[0] in "\"'¿¡"):
        problems.append("it does not start like a sentence")
    if stripped and stripped[-1] not in ".?!\"'":
        problems.append("it does not end like a sentence")
    return problems


@functools.lru_cache(maxsize=65536)
def _name_patterns(name: str) -> tuple[re.Pattern, re.Pattern | None]:
    escaped = re.escape(name.lower())
    used = re.compile(rf"(?:\b(?:using|use|call|calling|via|invoke|run|with the)\s+`?{escaped}`?"
                      rf"(?![\w])|(?<![\w.]){escaped}\s*\(|`{escaped}`|\b{escaped}\s+"
                      rf"(?:function|tool|api|endpoint)\b)")
    words = split_identifier(name).split()
    if len(words) < 2:
        return used, None
    phrase = (rf"(?<![\w.]){escaped}(?![\w])"
              + (rf"|\b{re.escape(' '.join(words))}\b" if len(words) >= 3 else ""))
    return used, re.compile(phrase)


def names_in(query: str, names: Sequence[str]) -> list[str]:
    """Function names the query mentions: an identifier of two or more words, its words
    as a phrase of three or more, or any name used as a name ("using calculate",
    "calculate(", "the calculate function")."""
    found = []
    low = query.lower()
    for name in names:
        used, phrase = _name_patterns(name)
        if used.search(low) or (phrase is not None and phrase.search(low)):
            found.append(name)
    return found


# ---------------------------------------------------------------- prompts

_SYSTEM = ("You create training data for function calling: a user's request and the exact "
           "function calls that answer it. Follow the output format exactly and reply with "
           "JSON only.")
_CARDINALITY = {
    "simple": "exactly one call of one function",
    "multiple": "exactly one call of one function",
    "irrelevance": "exactly one call of one function (it will be hidden from the assistant)",
    "parallel": "2 to {m} independent calls of the same function with different arguments",
    "parallel_multiple": ("2 to {m} independent calls of at least two different functions "
                          "(no call may need another call's result)"),
}


_SCHEMA_TEXT: dict[str, str] = {}


def _schemas(tools: Sequence[Any]) -> str:
    parts = []
    for t in tools:
        text = _SCHEMA_TEXT.get(t.key)
        if text is None:
            text = _SCHEMA_TEXT[t.key] = json.dumps(t.schema["function"], ensure_ascii=False)
        parts.append(text)
    return "[\n" + ",\n".join(parts) + "\n]"


def _feedback_message(problems: Sequence[Problem]) -> str:
    lines = ["Your reply above failed these checks:"]
    lines += [f"- {p}" for p in problems]
    lines.append("Fix every problem listed and reply again, in the same JSON format only.")
    return "\n".join(lines)


# ------------------------------------------------------------ the synthesizer


@dataclass
class _Scenario:
    index: int
    category: str
    rng: np.random.Generator
    source: str
    group: int
    offered: list[int]
    retries: dict = field(default_factory=dict)
    deferred: list = field(default_factory=list)  # (stage, problems) in filter/none modes
    salt: int = 0


class StagedSynthesizer:
    """Makes samples with the three checked stages.

    Args:
        pool: the tool pool (default: every domain's tools, built once per process).
        generator: backend of the three stages (default: the offline template backend).
        verifier: optional backend that judges each stage after the rules pass
            (``PASS`` or ``FAIL: <problem>``).
        config: :class:`StagedConfig`; keyword arguments override its fields.
    """

    def __init__(self, pool: ToolPool | None = None, generator: Backend | None = None,
                 verifier: Backend | None = None, config: StagedConfig | None = None,
                 **overrides: Any):
        self.pool = pool if pool is not None else cached_pool()
        self.generator = generator if generator is not None else TemplateBackend()
        self.verifier = verifier
        self.config = replace(config or StagedConfig(), **overrides)
        self.db_seed = self.pool.db_seed
        self._feasible = {c: self._scenarios(c) for c in CATEGORIES}
        self._weights = {c: np.array([len(o[2]) for o in options], dtype=float)
                         for c, options in self._feasible.items()}
        for c, w in self._weights.items():
            if len(w):
                self._weights[c] = np.cumsum(w / w.sum())
        self._executed: set[str] = set()  # call sets that ran (per sample)
        for c in self.config.categories:
            if not self._feasible[c]:
                raise ValueError(f"the pool cannot make {c!r} samples")

    # -- scenarios
    def _parallel_capable(self, i: int) -> bool:
        t = self.pool.tools[i]
        if t.executable:
            return len(self.pool.banks.get(t.key) or []) >= 2
        return bool(t.properties)

    def _independent(self, a: int, b: int) -> bool:
        """Neither tool needs the identifier the other one looks up."""
        ta, tb = self.pool.tools[a], self.pool.tools[b]
        return not ((ta.output_entities.get(".") or "\0") in tb.input_entities.values()
                    or (tb.output_entities.get(".") or "\0") in ta.input_entities.values())

    def _scenarios(self, category: str) -> list[tuple[int, str, list[int]]]:
        out = []
        for g, members in enumerate(self.pool.groups):
            sources = sorted({self.pool.tools[i].source for i in members})
            for source in sources:
                offered = [i for i in members if self.pool.tools[i].source == source
                           and self.pool.usable(i)]
                names = [self.pool.tools[i].name for i in offered]
                offered = [i for i in offered if names.count(self.pool.tools[i].name) == 1]
                if category in ("irrelevance", "parallel", "parallel_multiple"):
                    # handing the user over serves any request, and happens once
                    offered = [i for i in offered if not self.pool.tools[i].transfer]
                if not offered:
                    continue
                if category == "irrelevance" and len(self.pool.groups) < 2:
                    continue
                if category == "parallel" and not any(self._parallel_capable(i) for i in offered):
                    continue
                if category == "parallel_multiple" and not any(
                        self._independent(a, b) for a in offered for b in offered if a < b):
                    continue
                out.append((g, source, offered))
        return out

    def _scenario(self, index: int, category: str, salt: int = 0) -> _Scenario:
        key = [self.config.seed, index, _CATEGORY_CODE[category]] + ([salt] if salt else [])
        rng = np.random.default_rng(key)
        options = self._feasible[category]
        pick = int(np.searchsorted(self._weights[category], rng.random(), side="right"))
        g, source, offered = options[min(pick, len(options) - 1)]
        return _Scenario(index, category, rng, source, g, list(offered), salt=salt)

    def _seed(self, sc: _Scenario, stage: str, attempt: int) -> int:
        return (self.config.seed * 1_000_003 + sc.index * 1009 + STAGES.index(stage) * 101
                + attempt + sc.salt * 7_919_993) % (2**31)

    # -- the stage loop
    def _run_stage(self, stage: str, sc: _Scenario, messages: list[dict], context: dict,
                   parse: Callable[[str], tuple[Any, list[Problem]]],
                   check: Callable[[Any], list[Problem]]) -> Any:
        mode = self.config.feedback
        closed = mode in ("full", "retry")
        attempts = self.config.max_retries + 1 if closed else 1
        history = list(messages)
        feedback: list[list[Problem]] = []
        problems: list[Problem] = []
        for attempt in range(attempts):
            text = self.generator.generate(
                history, template=f"staged.{stage}",
                context={**context, "feedback": feedback, "attempt": attempt},
                seed=self._seed(sc, stage, attempt), temperature=0.7)
            value, problems = parse(text)
            if value is not None and not problems:
                problems = check(value)
                if not problems and self.verifier is not None and closed:
                    problems = self._verify(stage, sc, text)
            if value is not None and not closed:
                sc.deferred.append((stage, problems))
                if not problems and all(not p for _, p in sc.deferred):
                    sc.retries[stage] = 0
                return value
            if not problems:
                sc.retries[stage] = attempt
                return value
            if mode == "full":
                history += [{"role": "assistant", "content": text},
                            {"role": "user", "content": _feedback_message(problems)}]
                feedback.append(problems)
        raise _StageFailed(stage, problems, attempts)

    def _verify(self, stage: str, sc: _Scenario, text: str) -> list[Problem]:
        prompt = (f"Check this {stage} stage output of a {sc.category} function-calling "
                  f"sample against the rules of the stage.\n\nOutput:\n{text}\n\n"
                  "Reply PASS if it is correct, or FAIL: followed by the specific problem.")
        reply = self.verifier.generate(
            [{"role": "system", "content": "You are a strict reviewer of synthetic data."},
             {"role": "user", "content": prompt}],
            template="staged.verify", context={"stage": stage}, temperature=0.0)
        head = reply.strip()
        if head.upper().startswith("PASS"):
            return []
        reason = head[5:].strip(" :") if head.upper().startswith("FAIL") else head
        return [Problem(f"{stage}.verifier", f"the verifier found: {reason[:300]}")]

    # -- stage 1
    def _targets(self, sc: _Scenario) -> list[int]:
        pool = self.pool
        offered = [pool.tools[i] for i in sc.offered]
        m = self.config.max_parallel
        messages = [
            {"role": "system", "content": _SYSTEM},
            {"role": "user", "content": (
                f"Category: {sc.category}: {_CARDINALITY[sc.category].format(m=m)}.\n"
                f"Functions:\n{_schemas(offered)}\n\nChoose the target functions of one "
                "realistic request. Reply {\"functions\": [names]}, one name per call.")}]
        context = {"pool": pool, "category": sc.category, "offered": sc.offered,
                   "noise": self.config.noise, "max_parallel": m}
        return self._run_stage("targets", sc, messages, context,
                               lambda text: self._parse_targets(text, sc),
                               lambda targets: self._check_targets(targets, sc))

    def _resolve(self, name: str, sc: _Scenario) -> int | None:
        for i in sc.offered:
            if self.pool.tools[i].name == name:
                return i
        for i, t in enumerate(self.pool.tools):
            if t.name == name and t.source == sc.source:
                return i
        for i, t in enumerate(self.pool.tools):
            if t.name == name:
                return i
        return None

    def _parse_targets(self, text: str, sc: _Scenario) -> tuple[Any, list[Problem]]:
        try:
            value = _json_payload(text)
        except ValueError:
            return None, [Problem("targets.unparseable", "the reply has no JSON object "
                                  "{\"functions\": [...]}")]
        names = value.get("functions") if isinstance(value, dict) else value
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            return None, [Problem("targets.unparseable", "\"functions\" must be a list of "
                                  "function names")]
        resolved = [self._resolve(n, sc) for n in names]
        unknown = [n for n, r in zip(names, resolved) if r is None]
        if unknown:
            return None, [Problem("targets.unknown_function",
                                  f"{unknown[0]!r} is not one of the offered functions",
                                  {"names": unknown})]
        return resolved, []

    def _check_targets(self, targets: list[int], sc: _Scenario) -> list[Problem]:
        pool, problems = self.pool, []
        names = [pool.tools[i].name for i in targets]
        m = self.config.max_parallel
        if sc.category in ("simple", "multiple", "irrelevance"):
            if len(targets) != 1:
                problems.append(Problem("targets.cardinality", f"a {sc.category} sample has "
                                        f"exactly one call, not {len(targets)}"))
        elif not 2 <= len(targets) <= m:
            problems.append(Problem("targets.cardinality", f"a {sc.category} sample has 2 to "
                                    f"{m} calls, not {len(targets)}"))
        if sc.category == "parallel" and len(set(names)) > 1:
            problems.append(Problem("targets.not_parallel", "a parallel sample calls one "
                                    f"function several times, not {sorted(set(names))}"))
        if sc.category == "parallel_multiple" and len(targets) >= 2 and len(set(names)) < 2:
            problems.append(Problem("targets.not_multiple", "a parallel_multiple sample calls "
                                    "at least two different functions"))
        strangers = [pool.tools[i].name for i in targets if i not in sc.offered]
        if strangers:
            problems.append(Problem("targets.incoherent", f"{strangers[0]!r} does not belong "
                                    "with the offered functions (another group or source)",
                                    {"names": strangers}))
        for i in targets:
            t = pool.tools[i]
            if not pool.usable(i):
                problems.append(Problem("targets.not_executable", f"{t.name!r} has no "
                                        "arguments that run on its domain", {"names": [t.name]}))
        for i in dict.fromkeys(targets):
            t = pool.tools[i]
            if targets.count(i) > 1 and not self._parallel_capable(i):
                problems.append(Problem("targets.not_parallel", f"{t.name!r} cannot be "
                                        "called twice with different arguments",
                                        {"names": [t.name]}))
        for a in dict.fromkeys(targets):
            looked_up = pool.tools[a].output_entities.get(".")
            if not looked_up:
                continue
            for b in dict.fromkeys(targets):
                if b != a and looked_up in pool.tools[b].input_entities.values():
                    problems.append(Problem(
                        "targets.dependent", f"{pool.tools[b].name!r} needs the "
                        f"{looked_up} that {pool.tools[a].name!r} looks up, so they cannot "
                        "run in parallel", {"names": [pool.tools[b].name]}))
                    break
        return problems

    # -- candidates (the pipeline's choice, not a stage)
    def _candidates(self, sc: _Scenario, targets: list[int]) -> list[int]:
        pool, rng = self.pool, sc.rng
        distinct = list(dict.fromkeys(targets))
        taken = {pool.tools[i].name for i in distinct}
        chosen: list[int] = []
        if sc.category == "irrelevance":
            hidden = pool.tools[targets[0]]
            others = [i for i in range(len(pool)) if pool.labels[i] != pool.labels[targets[0]]
                      and pool.usable(i) and not pool.tools[i].transfer]
            order = [others[k] for k in rng.permutation(len(others))]
            want = int(rng.integers(1, self.config.max_distractors + 1))
            for i in order:
                t = pool.tools[i]
                if t.name in taken or name_overlap(t.name, hidden.name):
                    continue
                if schema_similarity(t, hidden) >= 0.4:
                    continue
                chosen.append(i)
                taken.add(t.name)
                if len(chosen) == want:
                    break
            return chosen
        if sc.category in ("multiple", "parallel_multiple"):
            low = 1 if sc.category == "multiple" else 0
            want = int(rng.integers(low, self.config.max_distractors + 1))
            group = [i for i in range(len(pool)) if pool.labels[i] == sc.group]
            ranked = pool.neighbours(distinct[0], group) + pool.neighbours(distinct[0])
            for i in ranked:
                if len(chosen) >= want:
                    break
                t = pool.tools[i]
                if t.name in taken or i in chosen:
                    continue
                chosen.append(i)
                taken.add(t.name)
        candidates = distinct + chosen
        return [candidates[k] for k in rng.permutation(len(candidates))]

    # -- stage 2
    def _query(self, sc: _Scenario, targets: list[int], candidates: list[int]) -> dict:
        pool = self.pool
        tools = [pool.tools[i] for i in dict.fromkeys(targets)]
        calls = ", ".join(pool.tools[i].name for i in targets)
        messages = [
            {"role": "system", "content": _SYSTEM},
            {"role": "user", "content": (
                f"Target calls, in any order: {calls}.\nFunctions:\n{_schemas(tools)}\n\n"
                "Write the request of a user that implies exactly these calls, no more and no "
                "fewer. Choose realistic argument values that fit the signatures and state "
                "every value in the request (every required one at least). Write it the way a "
                "person would, and never name a function. Reply {\"query\": \"...\", "
                "\"calls\": [{\"name\": ..., \"arguments\": {...}}]} with the calls the "
                "request implies.")}]
        context = {"pool": pool, "category": sc.category, "targets": targets,
                   "noise": self.config.noise, "candidates": candidates}
        return self._run_stage("query", sc, messages, context, self._parse_query,
                               lambda plan: self._check_query(plan, sc, targets, candidates))

    @staticmethod
    def _parse_calls_list(items: Any, code: str) -> tuple[list[ToolCall] | None, list[Problem]]:
        if not isinstance(items, list):
            return None, [Problem(code, "\"calls\" must be a list of {\"name\", \"arguments\"}")]
        parsed = parse_action(items) if items else None
        if parsed is not None and parsed.error:
            return None, [Problem(code, f"the calls do not parse: {parsed.error}")]
        return (list(parsed.calls) if parsed is not None else []), []

    def _parse_query(self, text: str) -> tuple[Any, list[Problem]]:
        try:
            value = _json_payload(text)
        except ValueError:
            return None, [Problem("query.unparseable", "the reply has no JSON object "
                                  "{\"query\": ..., \"calls\": [...]}")]
        if not isinstance(value, dict) or not isinstance(value.get("query"), str):
            return None, [Problem("query.unparseable", "the reply needs a string \"query\"")]
        calls, problems = self._parse_calls_list(value.get("calls"), "query.unparseable")
        if problems:
            return None, problems
        return {"query": value["query"].strip(), "calls": calls}, []

    def _tool_of(self, name: str, among: Sequence[int]) -> Any:
        for i in among:
            if self.pool.tools[i].name == name:
                return self.pool.tools[i]
        return None

    def _schema_problems(self, calls: Sequence[ToolCall], among: Sequence[int],
                         stage: str) -> list[Problem]:
        problems = []
        for n, call in enumerate(calls):
            t = self._tool_of(call.name, among)
            if t is None:
                problems.append(Problem(f"{stage}.unknown_function", f"call {n} names "
                                        f"{call.name!r}, which is not a candidate function"))
                continue
            problem = validate_arguments(_as_core_tool(t), call.arguments)
            if problem is None:
                for param, value in call.arguments.items():
                    if not _strict_type(value, t.properties[param] or {}):
                        kind = (t.properties[param] or {}).get("type")
                        problem = (f"parameter {param!r} must be of type {kind}, got "
                                   f"{json.dumps(value)[:60]}")
                        break
            if problem:
                problems.append(Problem(f"{stage}.schema", f"call {n} ({call.name}): {problem}",
                                        {"call": n, "param": problem}))
        return problems

    def _execute(self, calls: Sequence[ToolCall], among: Sequence[int],
                 stage: str) -> list[Problem]:
        if not self.config.execute:
            return []
        from ..core.sandbox import sandbox

        runnable = [(c, self._tool_of(c.name, among)) for c in calls]
        runnable = [(c, t) for c, t in runnable if t is not None and t.executable]
        if not runnable:
            return []
        key = json.dumps([(c.name, c.arguments) for c, _ in runnable], sort_keys=True)
        if key in self._executed:  # the same calls already ran for this sample
            return []
        orders = [runnable]
        if len(runnable) > 1 and any(t.is_write for _, t in runnable):
            orders.append(runnable[::-1])  # order-free: the reverse order runs too
        for k, order in enumerate(orders):
            boxes: dict[str, Any] = {}
            try:
                for call, t in order:
                    box = boxes.get(t.source)
                    if box is None:
                        box = boxes[t.source] = sandbox(t.source, self.db_seed)
                    result = box.call(call.name, call.arguments)
                    if not result.ok:
                        where = "" if k == 0 else " when the calls run in the reverse order"
                        return [Problem(f"{stage}.execution",
                                        f"{call.name}({json.dumps(call.arguments)[:160]}) "
                                        f"fails on the database{where}: {result.content[:200]}",
                                        {"name": call.name})]
            finally:
                for box in boxes.values():
                    box.close()
        self._executed.add(key)
        return []

    def _check_query(self, plan: dict, sc: _Scenario, targets: list[int],
                     candidates: list[int]) -> list[Problem]:
        pool, problems = self.pool, []
        query, calls = plan["query"], plan["calls"]
        wanted = Counter(pool.tools[i].name for i in targets)
        made = Counter(c.name for c in calls)
        if made != wanted:
            more = sorted((made - wanted).elements())
            fewer = sorted((wanted - made).elements())
            detail = "; ".join(x for x in (f"extra: {', '.join(more)}" if more else "",
                                           f"missing: {', '.join(fewer)}" if fewer else "") if x)
            problems.append(Problem("query.call_count", "the request must imply exactly the "
                                    f"target calls ({', '.join(sorted(wanted.elements()))}); "
                                    f"{detail}"))
        among = list(dict.fromkeys(targets))
        problems += self._schema_problems(calls, among, "query")
        texts = [json.dumps(c.arguments, sort_keys=True) for c in calls]
        if len(set(zip([c.name for c in calls], texts))) < len(calls):
            problems.append(Problem("query.duplicate_calls", "two implied calls are identical;"
                                    " parallel calls need different arguments"))
        normal = normalize_string(query)
        for n, call in enumerate(calls):
            for param, value in _leaf_params(call.arguments):
                if not _supported(value, param, query, normal):
                    problems.append(Problem(
                        "query.missing_value", f"the request does not state the value "
                        f"{json.dumps(value, ensure_ascii=False)[:80]} of {param!r} "
                        f"(call {n}, {call.name})", {"call": n, "param": param}))
        names = [pool.tools[i].name for i in set(targets) | set(candidates)]
        mentioned = names_in(query, names)
        if mentioned:
            problems.append(Problem("query.names_function", f"the request names the "
                                    f"function {mentioned[0]!r}; describe the need instead",
                                    {"names": mentioned}))
        values = [v for c in calls for v in c.arguments.values()]
        for reason in naturalness_problems(query, values):
            problems.append(Problem("query.unnatural", f"the request does not read naturally: "
                                    f"{reason}"))
        problems += self._conflicts(calls, among)
        if sc.category == "irrelevance":
            hidden = pool.tools[targets[0]]
            for i in candidates:
                t = pool.tools[i]
                if name_overlap(t.name, hidden.name) or schema_similarity(t, hidden) >= 0.4:
                    problems.append(Problem("query.answerable", f"the candidate {t.name!r} "
                                            "could serve the request"))
        if not problems:
            problems += self._execute(calls, among, "query")
        return problems

    def _conflicts(self, calls: Sequence[ToolCall], among: Sequence[int]) -> list[Problem]:
        """A write shares the entity it changes with another call: not parallelizable."""
        touched: list[tuple[int, set]] = []
        for n, call in enumerate(calls):
            t = self._tool_of(call.name, among)
            if t is None:
                continue
            ids = {json.dumps(call.arguments.get(p)) for p in t.input_entities
                   if p in call.arguments and isinstance(call.arguments.get(p), str)}
            touched.append((n, ids))
        for n, call in enumerate(calls):
            t = self._tool_of(call.name, among)
            if t is None or not t.is_write or not t.input_entities:
                continue
            first = next(iter(t.input_entities))
            target = json.dumps(call.arguments.get(first))
            for m, ids in touched:
                if m != n and target in ids:
                    return [Problem("query.conflict", f"call {n} ({call.name}) changes "
                                    f"{first} {target} that call {m} also uses; parallel "
                                    "calls must be independent", {"call": n})]
        return []

    # -- stage 3
    def _calls(self, sc: _Scenario, plan: dict, candidates: list[int]) -> list[ToolCall]:
        pool = self.pool
        tools = [pool.tools[i] for i in candidates]
        messages = [
            {"role": "system", "content": (
                "You are an assistant with access to functions. Answer the user's request "
                "with the function calls it needs, as an OpenAI assistant message JSON: "
                "{\"role\": \"assistant\", \"content\": null, \"tool_calls\": [{\"id\": ..., "
                "\"type\": \"function\", \"function\": {\"name\": ..., \"arguments\": "
                "\"<JSON string>\"}}]}. Use only values the request gives. If no function "
                "fits, reply with a short message and no tool calls.")},
            {"role": "user",
             "content": f"Functions:\n{_schemas(tools)}\n\nRequest: {plan['query']}"}]
        context = {"pool": pool, "category": sc.category, "plan": plan["calls"],
                   "candidates": candidates, "noise": self.config.noise}
        return self._run_stage("calls", sc, messages, context, self._parse_calls,
                               lambda calls: self._check_calls(calls, sc, plan, candidates))

    def _parse_calls(self, text: str) -> tuple[Any, list[Problem]]:
        stripped = text.strip()
        value: Any = None
        if stripped[:1] in "{[":
            try:
                value = json.loads(stripped)
            except json.JSONDecodeError as error:
                return None, [Problem("calls.unparseable", f"the reply is not valid JSON "
                                      f"({error.msg} at column {error.colno})")]
        if isinstance(value, dict) and "tool_calls" in value:
            entries = value.get("tool_calls") or []
            problems = [] if isinstance(entries, list) else [
                Problem("calls.format", "\"tool_calls\" must be a list")]
            for n, entry in enumerate(entries if isinstance(entries, list) else []):
                fn = entry.get("function") if isinstance(entry, dict) else None
                if (not isinstance(fn, dict) or entry.get("type", "function") != "function"
                        or not isinstance(fn.get("arguments"), str)):
                    problems.append(Problem("calls.format", f"tool call {n} must be "
                                            "{\"type\": \"function\", \"function\": {\"name\", "
                                            "\"arguments\": \"<JSON string>\"}}"))
            if problems:
                return None, problems
            parsed = parse_action(value)
        else:
            if self.config.strict_format:
                return None, [Problem("calls.format", "the reply must be an OpenAI assistant "
                                      "message with \"tool_calls\"")]
            parsed = parse_action(value if value is not None else text)
        if parsed.error:
            return None, [Problem("calls.unparseable", f"the calls do not parse: {parsed.error}")]
        return list(parsed.calls), []

    def _check_calls(self, calls: list[ToolCall], sc: _Scenario, plan: dict,
                     candidates: list[int]) -> list[Problem]:
        pool = self.pool
        if sc.category == "irrelevance":
            if calls:
                return [Problem("calls.called_irrelevant", "no candidate function can serve "
                                f"the request, but the reply calls {calls[0].name!r}; answer "
                                "in words without a call")]
            return []
        if not calls:
            return [Problem("calls.no_call", "the reply makes no call, but the request needs "
                                             f"{len(plan['calls'])}")]
        problems = self._schema_problems(calls, candidates, "calls")
        query = plan["query"]
        normal = normalize_string(query)
        for n, call in enumerate(calls):
            for param, value in _leaf_params(call.arguments):
                if not _supported(value, param, query, normal):
                    problems.append(Problem(
                        "calls.unsupported_value", f"call {n} ({call.name}) gives {param!r} the "
                        f"value {json.dumps(value, ensure_ascii=False)[:80]}, which the "
                        "request does not support", {"call": n, "param": param}))
        if problems:
            return problems
        by_name = {pool.tools[i].name: pool.tools[i] for i in candidates}
        docs = [pool.tools[i].doc for i in candidates]
        answers = answers_from_calls(plan["calls"], by_name)
        verdict = ast_check(docs, calls, answers, sc.category)
        if not verdict.valid:
            return [Problem("calls.mismatch", "the calls do not match the request: "
                            + "; ".join(str(e) for e in verdict.errors[:3]))]
        return self._execute(calls, candidates, "calls")

    # -- one sample
    def sample(self, index: int, category: str | None = None,
               salt: int = 0) -> FunctionTask | Discard:
        """Sample ``index`` (deterministic for the config's seed): a task, or a discard.
        ``category`` defaults to ``categories[index % len(categories)]``; a ``salt`` other
        than 0 draws another sample for the same index."""
        cats = self.config.categories
        category = category or cats[index % len(cats)]
        sc = self._scenario(index, category, salt)
        self._executed.clear()
        try:
            targets = self._targets(sc)
            candidates = self._candidates(sc, targets)
            if sc.category == "irrelevance" and not candidates:
                raise _StageFailed("targets", [Problem("targets.no_candidates", "no function "
                                                       "unrelated to the target is left")], 1)
            plan = self._query(sc, targets, candidates)
            calls = self._calls(sc, plan, candidates)
        except _StageFailed as failed:
            earlier = [(s, p) for s, ps in sc.deferred for p in ps]
            if earlier:  # filter/none modes: the first stage that failed its checks
                stage, first = earlier[0]
                return Discard(index, category, stage, first.code,
                               [str(p) for s, p in earlier if s == stage], 1, dict(sc.retries))
            return Discard(index, category, failed.stage,
                           failed.problems[0].code if failed.problems else "unknown",
                           [str(p) for p in failed.problems], failed.attempts,
                           dict(sc.retries))
        unchecked = [(s, p) for s, ps in sc.deferred for p in ps]
        if unchecked and self.config.feedback == "filter":
            stage, first = unchecked[0]
            return Discard(index, category, stage, first.code,
                           [str(p) for s, p in unchecked if s == stage], 1, dict(sc.retries))
        pool = self.pool
        tools = [pool.tools[i] for i in candidates]
        by_name = {t.name: t for t in tools}
        answers = [] if category == "irrelevance" else answers_from_calls(calls, by_name)
        meta = {"source": "synth", "generator": type(self.generator).__name__,
                "feedback": self.config.feedback, "retries": dict(sc.retries),
                "group": int(sc.group), "domain": sc.source,
                "tools": [t.key for t in tools],
                "targets": [pool.tools[i].key for i in targets]}
        if unchecked:
            meta["unchecked_problems"] = [p.code for _, p in unchecked]
        if category == "irrelevance":  # the call the request was derived from (hidden)
            meta["hidden_calls"] = [{"name": c.name, "arguments": c.arguments}
                                    for c in plan["calls"]]
        return FunctionTask(
            id=f"{category}-{index}", category=category, question=plan["query"],
            functions=[t.doc for t in tools], answers=answers,
            calls=[] if category == "irrelevance" else _openai(calls),
            executable={t.name: t.source for t in tools if t.executable}, meta=meta)

    def run(self, n: int, start: int = 0, progress: bool = False) -> SynthesisResult:
        """Samples ``start .. start + n - 1``: the kept tasks, the discards and the stats."""
        stats = SynthesisStats(self.config.max_retries)
        tasks, discards = [], []
        began = time.perf_counter()
        indices = range(start, start + n)
        if progress:
            from tqdm import tqdm

            indices = tqdm(indices, desc="synthesis", unit="sample")
        for index in indices:
            result = self.sample(index)
            self._count(stats, result)
            (tasks if isinstance(result, FunctionTask) else discards).append(result)
        stats.seconds = time.perf_counter() - began
        return SynthesisResult(tasks, discards, stats)

    def _count(self, stats: SynthesisStats, result: FunctionTask | Discard) -> None:
        retries = result.meta["retries"] if isinstance(result, FunctionTask) else result.retries
        for stage, r in retries.items():
            stats.passed[stage][r] += 1
        if isinstance(result, FunctionTask):
            stats.kept += 1
            return
        stats.discarded[result.stage] += 1
        stats.reasons[(result.stage, result.reason)] += 1


def audit(task: FunctionTask, execute: bool = True, db_seed: int = 0) -> list[str]:
    """Every deterministic check of a finished sample, run again from the record alone
    (for synthesized data read back from disk, or made by other means); ``[]`` when it
    passes. Checks: calls and answers agree with the category; every call names a
    candidate, fits its schema with exact JSON types, and states only values of the
    request; the request names no function and reads naturally; the calls match the
    possible answers under BFCL's rules; executable calls run on a fresh sandbox."""
    from ..core.sandbox import sandbox
    from .formats import bfcl_to_openai

    problems: list[str] = []
    try:
        calls = [ToolCall(c["function"]["name"], json.loads(c["function"]["arguments"]))
                 for c in task.calls]
    except (KeyError, TypeError, json.JSONDecodeError) as error:
        return [f"calls are not OpenAI tool_calls entries: {error}"]
    if task.category == "irrelevance":
        if calls or task.answers:
            problems.append("an irrelevance task has neither calls nor answers")
    elif not calls or len(calls) != len(task.answers):
        problems.append("calls and answers differ in number")
    schemas = {d["name"]: bfcl_to_openai(d)["function"] for d in task.functions}
    normal = normalize_string(task.question)
    for call in calls:
        schema = schemas.get(call.name)
        if schema is None:
            problems.append(f"{call.name!r} is not a candidate")
            continue
        tool = Tool(call.name, None, Category.READ, schema["description"], schema["parameters"])
        problem = validate_arguments(tool, call.arguments)
        if problem:
            problems.append(problem)
        for param, value in call.arguments.items():
            spec = (schema["parameters"].get("properties") or {}).get(param) or {}
            if not _strict_type(value, spec):
                problems.append(f"{param!r} of {call.name} has the wrong JSON type")
            if not _supported(value, param, task.question, normal):
                problems.append(f"{param!r} of {call.name}: the request does not state "
                                f"{json.dumps(value)[:60]}")
    mentioned = names_in(task.question, list(schemas))
    if mentioned:
        problems.append(f"the request names {mentioned[0]!r}")
    values = [v for c in calls for v in c.arguments.values()]
    values += [v for c in task.meta.get("hidden_calls", []) for v in c["arguments"].values()]
    problems += [f"unnatural request: {p}" for p in naturalness_problems(task.question, values)]
    verdict = ast_check(task.functions, calls, task.answers, task.category)
    if not verdict.valid:
        problems.append(f"the calls do not match the answers: {verdict.errors[:1]}")
    if execute:
        boxes: dict[str, Any] = {}
        try:
            for call in calls:
                domain = task.executable.get(call.name)
                if domain is None:
                    continue
                if domain not in boxes:
                    boxes[domain] = sandbox(domain, db_seed)
                result = boxes[domain].call(call.name, call.arguments)
                if not result.ok:
                    problems.append(f"{call.name} fails on a fresh sandbox: {result.content[:120]}")
        finally:
            for box in boxes.values():
                box.close()
    return problems


# ------------------------------------------------------------ the templates
# The template backend's side of each stage: what an LLM would do, from structured
# context, with mistakes at the rate ``noise``. Feedback (the problems of earlier attempts)
# turns off the mistakes it names and halves the rate of the others per round.

_MISTAKES = {
    "targets": {"cardinality": "targets.cardinality", "unknown": "targets.unknown_function",
                "incoherent": "targets.incoherent"},
    "query": {"names_function": "query.names_function", "missing_value": "query.missing_value",
              "extra_call": "query.call_count", "unnatural": "query.unnatural",
              "wrong_type": "query.schema"},
    "calls": {"bad_json": "calls.unparseable", "missing_required": "calls.schema",
              "wrong_type": "calls.schema", "unsupported": "calls.unsupported_value",
              "extra_call": "calls.mismatch", "called_irrelevant": "calls.called_irrelevant"},
}


def _mistake(stage: str, context: dict, rng: np.random.Generator,
             applicable: Sequence[str]) -> str | None:
    feedback = context.get("feedback") or []
    named = {p.code for round_ in feedback for p in round_}
    rate = float(context.get("noise", 0.0)) * (0.5 ** len(feedback))
    if rng.random() >= rate:
        return None
    kinds = [k for k in applicable if _MISTAKES[stage][k] not in named]
    return kinds[int(rng.integers(len(kinds)))] if kinds else None


def _named(context: dict, key: str = "names") -> set:
    return {n for round_ in context.get("feedback") or [] for p in round_
            for n in (p.data.get(key) or [])}


@register("staged.targets")
def _template_targets(messages: list, context: dict, rng: np.random.Generator) -> str:
    pool: ToolPool = context["pool"]
    category = context["category"]
    avoid = _named(context)
    offered = [i for i in context["offered"] if pool.tools[i].name not in avoid] or list(
        context["offered"])
    m = int(context.get("max_parallel", 4))
    if category == "parallel":
        capable = [i for i in offered if (not pool.tools[i].executable or len(
            pool.banks.get(pool.tools[i].key) or []) >= 2) and pool.tools[i].properties]
        tool = (capable or offered)[int(rng.integers(len(capable or offered)))]
        bank = len(pool.bank(pool.tools[tool].key)) if pool.tools[tool].executable else m
        names = [pool.tools[tool].name] * int(rng.integers(2, max(2, min(m, bank)) + 1))
    elif category == "parallel_multiple":
        if len(offered) < 2:
            offered = list(context["offered"])
        k = int(rng.integers(2, min(m, len(offered)) + 1))
        picks = [offered[j] for j in rng.choice(len(offered), size=k, replace=False)]
        names = [pool.tools[i].name for i in picks]
        first = picks[0]
        repeatable = not pool.tools[first].executable or len(
            pool.banks.get(pool.tools[first].key) or []) >= 2
        if len(names) < m and rng.random() < 0.3 and repeatable and pool.tools[first].properties:
            names.append(names[0])
    else:
        names = [pool.tools[offered[int(rng.integers(len(offered)))]].name]
    kind = _mistake("targets", context, rng, ["cardinality", "unknown", "incoherent"])
    if kind == "cardinality":
        names = names[:1] if len(names) > 1 else names * 2
    elif kind == "unknown":
        names[0] = names[0] + "_v2"
    elif kind == "incoherent":
        others = [i for i in range(len(pool)) if i not in context["offered"] and pool.usable(i)]
        if others:
            names[-1] = pool.tools[others[int(rng.integers(len(others)))]].name
    return json.dumps({"functions": names})


@register("staged.query")
def _template_query(messages: list, context: dict, rng: np.random.Generator) -> str:
    pool: ToolPool = context["pool"]
    targets = list(context["targets"])
    tools = [pool.tools[i] for i in targets]
    arguments: list[dict] = []
    seen: set[str] = set()
    for i in targets:
        for _ in range(20):  # distinct argument sets for repeated functions
            a = pool.arguments(i, rng)
            key = f"{pool.tools[i].name}:{json.dumps(a, sort_keys=True)}"
            if key not in seen:
                break
        seen.add(key)
        arguments.append(a)
    calls = [{"name": t.name, "arguments": a} for t, a in zip(tools, arguments)]
    kinds = ["names_function", "extra_call", "unnatural"]
    if any(arguments):
        kinds.append("missing_value")
    if any(isinstance(v, (int, float)) and not isinstance(v, bool)
           for a in arguments for v in a.values()):
        kinds.append("wrong_type")
    kind = _mistake("query", context, rng, kinds)
    drop = None
    if kind == "missing_value":
        options = [(n, k) for n, a in enumerate(arguments) for k in a]
        drop = options[int(rng.integers(len(options)))]
    query = render_query(tools, arguments, rng, unnatural=kind == "unnatural", drop=drop)
    for name in _named(context):  # feedback said the request names it: reword that part
        words = split_identifier(name).split()
        if len(words) >= 3:
            query = re.sub(rf"\b({re.escape(words[0])}) ({re.escape(' '.join(words[1:]))})\b",
                           r"\1 the \2", query, flags=re.I)
    if kind == "names_function":
        named = max(tools, key=lambda t: len(split_identifier(t.name).split()))
        query = query[:-1] + f" using {named.name}" + query[-1]
    elif kind == "extra_call":
        calls.append(dict(calls[-1]))
    elif kind == "wrong_type":
        for c in calls:
            for k, v in c["arguments"].items():
                if isinstance(v, (int, float)) and not isinstance(v, bool):
                    c["arguments"] = {**c["arguments"], k: str(v)}
                    break
            else:
                continue
            break
    return json.dumps({"query": query, "calls": calls}, ensure_ascii=False)


@register("staged.calls")
def _template_calls(messages: list, context: dict, rng: np.random.Generator) -> str:
    pool: ToolPool = context["pool"]
    category = context["category"]
    plan: list[ToolCall] = list(context["plan"])
    if category == "irrelevance":
        if _mistake("calls", context, rng, ["called_irrelevant"]):
            i = context["candidates"][0]
            call = ToolCall(pool.tools[i].name, pool.arguments(i, rng)).to_openai()
            return json.dumps({"role": "assistant", "content": None, "tool_calls": [call]})
        return json.dumps({"role": "assistant", "content": NO_CALL_REPLY})
    calls = [ToolCall(c.name, dict(c.arguments)) for c in plan]
    kinds = ["bad_json", "extra_call"]
    by_name = {pool.tools[i].name: pool.tools[i] for i in context["candidates"]}
    if any(set(by_name[c.name].required) & set(c.arguments) for c in calls if c.name in by_name):
        kinds.append("missing_required")
    if any(isinstance(v, str) for c in calls for v in c.arguments.values()):
        kinds.append("unsupported")
    if any(isinstance(v, (int, float)) and not isinstance(v, bool)
           for c in calls for v in c.arguments.values()):
        kinds.append("wrong_type")
    kind = _mistake("calls", context, rng, kinds)
    if kind == "missing_required":
        for n, c in enumerate(calls):
            required = [p for p in by_name[c.name].required if p in c.arguments]
            if required:
                args = {k: v for k, v in c.arguments.items() if k != required[0]}
                calls[n] = ToolCall(c.name, args)
                break
    elif kind == "unsupported":
        for n, c in enumerate(calls):
            strings = [k for k, v in c.arguments.items() if isinstance(v, str)]
            if strings:
                calls[n] = ToolCall(c.name, {**c.arguments, strings[0]: c.arguments[strings[0]]
                                             + " (approx.)"})
                break
    elif kind == "wrong_type":
        for n, c in enumerate(calls):
            numbers = [k for k, v in c.arguments.items()
                       if isinstance(v, (int, float)) and not isinstance(v, bool)]
            if numbers:
                calls[n] = ToolCall(c.name, {**c.arguments,
                                             numbers[0]: str(c.arguments[numbers[0]])})
                break
    elif kind == "extra_call":
        calls.append(calls[0])
    message = {"role": "assistant", "content": None,
               "tool_calls": [c.to_openai() for c in calls]}
    text = json.dumps(message, ensure_ascii=False)
    if kind == "bad_json":
        text = text[: max(1, len(text) - 3)]
    return text


@register("staged.verify")
def _template_verify(messages: list, context: dict, rng: np.random.Generator) -> str:
    return "PASS"


# ------------------------------------------------------------------ CLI


def _cli_backends(args: argparse.Namespace) -> tuple[Backend, Backend | None]:
    """The generator and verifier of the command line, each ``openai:`` server checked
    (reachable, serving the model) before any work; ``ValueError`` (one line) if not."""
    from ..llm import make_backend
    from ..llm.openai_compat import OpenAICompatBackend, check_sampling, check_server

    if args.base_url is not None:
        raise ValueError("--base-url is gone: name the server in the spec, "
                         "--backend openai:URL#MODEL")
    check_sampling(args.temperature, args.max_tokens)

    def options(spec: str, **remote: Any) -> dict:
        if spec == "template":
            return {"seed": args.seed}
        return {"api_key_env": args.api_key_env, "max_tokens": args.max_tokens, **remote}

    generator = make_backend(args.backend, **options(args.backend,
                                                     temperature=args.temperature))
    # the verifier judges at the temperature its call asks for (0)
    verifier = make_backend(args.verifier, **options(args.verifier)) if args.verifier else None
    for backend in (generator, verifier):
        if isinstance(backend, OpenAICompatBackend):
            check_server(backend.base_url, backend.model, api_key_env=args.api_key_env)
    return generator, verifier


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m tool_gym.synth.staged",
        description="ToolLoop staged synthesis: write samples, discards and the retry table.")
    parser.add_argument("--n", type=int, default=100, help="samples to attempt")
    parser.add_argument("--out", required=True, help="output folder")
    parser.add_argument("--categories", default="simple,multiple,parallel,parallel_multiple",
                        help="comma-separated: " + ", ".join(CATEGORIES))
    parser.add_argument("--feedback", choices=MODES, default="full",
                        help="ablation: full (closed loop), retry (no feedback), filter "
                             "(check at the end only), none (no checks)")
    parser.add_argument("--max-retries", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--noise", type=float, default=0.2,
                        help="mistake rate of the template backend")
    parser.add_argument("--backend", default="template",
                        help="generator of the stages: 'template' (offline) or "
                             "'openai:URL#MODEL' (an OpenAI-compatible server)")
    parser.add_argument("--verifier", default=None,
                        help="optional judge of each stage: 'openai:URL#MODEL'")
    parser.add_argument("--temperature", type=float, default=None,
                        help="generator temperature for openai: backends (default: 0.7, "
                             "the stages' own; the verifier judges at 0)")
    parser.add_argument("--max-tokens", type=int, default=None,
                        help="most tokens per reply for openai: backends (default: the "
                             "server's)")
    parser.add_argument("--api-key-env", default="OPENAI_API_KEY",
                        help="environment variable holding the API key (unset: a placeholder "
                             "key, enough for a local vLLM)")
    parser.add_argument("--base-url", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--bfcl", choices=("auto", "yes", "no"), default="auto",
                        help="add BFCL's function documents to the pool (needs bfcl-eval)")
    parser.add_argument("--isolate", default=None,
                        help="BFCL categories to isolate from (e.g. 'all'): overlapping tools "
                             "are removed, and the BFCL documents of those categories are "
                             "not used")
    parser.add_argument("--domains", default=None, help="comma-separated domains (default: all)")
    parser.add_argument("--no-execute", action="store_true", help="skip execution checks")
    parser.add_argument("--progress", action="store_true")
    return parser


def _cli_pool(args: argparse.Namespace) -> tuple[Any, float]:
    """The tool pool the flags ask for, and the seconds it took to build."""
    from . import bfcl as bfcl_data
    from .pool import build_pool

    use_bfcl = {"auto": bfcl_data.available(), "yes": True, "no": False}[args.bfcl]
    exclude: list = []
    bfcl_categories: Any = "all"
    if args.isolate:
        exclude = bfcl_data.function_docs(args.isolate)
        held_out = {t.category for t in bfcl_data.load(args.isolate)}
        bfcl_categories = sorted(set(bfcl_data.SINGLE_TURN) - held_out)
    domains = args.domains.split(",") if args.domains else None
    began = time.perf_counter()
    pool = build_pool(domains, bfcl=use_bfcl and bool(bfcl_categories),
                      bfcl_categories=bfcl_categories or "all", seed=args.seed, exclude=exclude)
    return pool, time.perf_counter() - began


def _write_outputs(out: Path, result: Any, pool: Any, config: StagedConfig,
                   built: float) -> str:
    """Samples, discards, HF chat, BFCL files, the retry table and stats; the table."""
    from . import bfcl as bfcl_data
    from .formats import write_hf_chat, write_jsonl

    write_jsonl(out / "samples.jsonl", (t.to_dict() for t in result.tasks))
    write_jsonl(out / "discards.jsonl", (d.to_dict() for d in result.discards))
    write_hf_chat(out / "hf_chat.jsonl", result.tasks)
    for category in sorted({t.category for t in result.tasks}):
        bfcl_data.export([t for t in result.tasks if t.category == category], out / "bfcl",
                         f"synth_{category}")
    table = result.stats.table()
    (out / "retry_table.txt").write_text(table + "\n", encoding="utf-8")
    summary = {**result.stats.to_dict(), "pool": {
        "tools": len(pool), "groups": len(pool.groups), "method": pool.method,
        "unusable": pool.unusable, "removed": len(pool.removed), "build_seconds": built},
        "config": asdict(config)}
    (out / "stats.json").write_text(json.dumps(summary, indent=1, default=str) + "\n",
                                    encoding="utf-8")
    return table


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        generator, verifier = _cli_backends(args)
    except (ValueError, ImportError) as error:  # a bad spec or flag; no openai package
        parser.error(str(error))

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    pool, built = _cli_pool(args)
    synthesizer = StagedSynthesizer(
        pool, generator, verifier,
        StagedConfig(categories=tuple(c.strip() for c in args.categories.split(",") if c.strip()),
                     feedback=args.feedback, max_retries=args.max_retries, seed=args.seed,
                     noise=args.noise, execute=not args.no_execute))
    result = synthesizer.run(args.n, progress=args.progress)
    table = _write_outputs(out, result, pool, synthesizer.config, built)
    print(f"pool: {len(pool)} tools in {len(pool.groups)} groups ({pool.method}); "
          f"{len(pool.removed)} removed by isolation; {len(pool.unusable)} not executable")
    print(table)
    print(f"wrote {len(result.tasks)} samples to {out}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
