"""PROVE's multi-component programmatic reward over an episode's tool calls.

The full explanation is in ``docs/prove.md``.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field, fields
from typing import Any, Iterable, Mapping, Sequence

__all__ = [
    "AgentCall",
    "GroundTruthCall",
    "ProveRewardConfig",
    "ProveScore",
    "abstention",
    "align",
    "best_total",
    "argument_agreement",
    "budget",
    "coverage",
    "efficiency",
    "score",
    "tool_name_precision",
    "validity",
    "values_equal",
]


@dataclass(frozen=True)
class ProveRewardConfig:
    """Weights of PROVE's reward components (the defaults are the one definition of the
    module docstring).

    Attributes:
        validity: weight of the graded validity ``V``.
        coverage: weight of the dependency-ordered coverage ``C``.
        efficiency: weight of the adaptive efficiency penalty ``E`` (<= 0).
        tool_name: weight of the tool-name precision ``N``.
        arguments: weight of the argument-value agreement ``A``.
        alpha: strength of the efficiency penalty.
        beta: slack of the call budget ``B = n_gt + ceil(beta * n_gt)``.
    """

    validity: float = 0.5
    coverage: float = 0.5
    efficiency: float = 0.15
    tool_name: float = 0.2
    arguments: float = 0.1
    alpha: float = 0.5
    beta: float = 0.5

    def __post_init__(self):
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) \
                    or not math.isfinite(value) or value < 0:
                raise ValueError(f"PROVE's {f.name} must be a finite number >= 0, "
                                 f"got {value!r}")

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | "ProveRewardConfig" | None
                  ) -> "ProveRewardConfig":
        if data is None:
            return cls()
        if isinstance(data, ProveRewardConfig):
            return data
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise ValueError(f"unknown PROVE reward fields: {sorted(unknown)}; "
                             f"known: {sorted(known)}")
        return cls(**dict(data))

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class AgentCall:
    """One call the agent made: ``stage`` 0-3 as ``ToolResult.stage``."""

    name: str
    arguments: Any = field(default_factory=dict)
    stage: int = 3

    @classmethod
    def of(cls, value: Any) -> "AgentCall":
        if isinstance(value, AgentCall):
            return value
        if isinstance(value, Mapping):
            return cls(str(value.get("name", "")), value.get("arguments", {}),
                       int(value.get("stage", 3)))
        name, arguments, *rest = value
        return cls(name, arguments, int(rest[0]) if rest else 3)


@dataclass(frozen=True)
class GroundTruthCall:
    """One ground-truth call and the indices of the ground-truth calls it depends on."""

    name: str
    arguments: Mapping[str, Any] = field(default_factory=dict)
    after: tuple[int, ...] = ()

    @classmethod
    def of(cls, value: Any) -> "GroundTruthCall":
        if isinstance(value, GroundTruthCall):
            return value
        if isinstance(value, Mapping):
            return cls(str(value["name"]), dict(value.get("arguments") or {}),
                       tuple(int(i) for i in value.get("after", ())))
        name, arguments, *rest = value
        return cls(name, dict(arguments or {}), tuple(rest[0]) if rest else ())

    def to_dict(self) -> dict:
        return {"name": self.name, "arguments": dict(self.arguments), "after": list(self.after)}


@dataclass(frozen=True)
class ProveScore:
    """Every component, the composite and how it was reached."""

    validity: float
    coverage: float
    efficiency: float
    tool_name: float
    arguments: float
    abstention: float
    total: float
    best: float
    normalized: float
    calls: int
    ground_truth: int
    budget: int
    alignment: tuple[tuple[int, int], ...]  # (ground-truth index, call index)

    def to_dict(self) -> dict:
        data = asdict(self)
        data["alignment"] = [list(pair) for pair in self.alignment]
        return data


# --------------------------------------------------------------------------- pieces


def values_equal(a: Any, b: Any) -> bool:
    """JSON equality with ``1 == 1.0`` (``True`` is not ``1``; objects by keys, lists in
    order). Never raises, whatever the agent sent (huge integers included)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        return set(a) == set(b) and all(values_equal(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(values_equal(x, y) for x, y in zip(a, b))
    if isinstance(a, (Mapping, list, tuple)) or isinstance(b, (Mapping, list, tuple)):
        return False
    return type(a) is type(b) and a == b


def _calls(calls: Iterable[Any]) -> list[AgentCall]:
    return [AgentCall.of(c) for c in calls]


def _truth(ground_truth: Iterable[Any]) -> list[GroundTruthCall]:
    return [GroundTruthCall.of(g) for g in ground_truth]


def validity(calls: Sequence[Any]) -> float:
    """Mean of ``stage / 3`` over the calls; 0 without calls."""
    calls = _calls(calls)
    if not calls:
        return 0.0
    return sum(min(3, max(0, c.stage)) / 3.0 for c in calls) / len(calls)


def _matches(g: GroundTruthCall, c: AgentCall) -> bool:
    return (c.name == g.name and isinstance(c.arguments, Mapping)
            and all(k in c.arguments for k in g.arguments))


def _agreement(g: GroundTruthCall, c: AgentCall) -> float:
    if not g.arguments:
        return 1.0
    same = sum(1 for k, v in g.arguments.items() if values_equal(v, c.arguments.get(k)))
    return same / len(g.arguments)


def align(calls: Sequence[Any], ground_truth: Sequence[Any]) -> dict[int, int]:
    """Ground-truth index -> index of the agent call aligned with it (see module doc)."""
    calls, truth = _calls(calls), _truth(ground_truth)
    used: set[int] = set()
    out: dict[int, int] = {}
    for gi, g in enumerate(truth):
        best, best_key = None, None
        for ci, c in enumerate(calls):
            if ci in used or not _matches(g, c):
                continue
            key = (-_agreement(g, c), ci)
            if best_key is None or key < best_key:
                best, best_key = ci, key
        if best is not None:
            used.add(best)
            out[gi] = best
    return out


def coverage(calls: Sequence[Any], ground_truth: Sequence[Any],
             alignment: Mapping[int, int] | None = None) -> float:
    """``sum_g matched(g) * all-prerequisites-earlier(g) / n_gt``; 0 when ``n_gt = 0``."""
    truth = _truth(ground_truth)
    if not truth:
        return 0.0
    alignment = align(calls, truth) if alignment is None else alignment
    covered = 0
    for gi, g in enumerate(truth):
        if gi not in alignment:
            continue
        position = alignment[gi]
        if all(p in alignment and alignment[p] < position for p in g.after):
            covered += 1
    return covered / len(truth)


def budget(n_ground_truth: int, beta: float = 0.5) -> int:
    """``B = n_gt + ceil(beta * n_gt)``."""
    return n_ground_truth + math.ceil(beta * n_ground_truth)


def efficiency(n_calls: int, n_ground_truth: int, alpha: float = 0.5,
               beta: float = 0.5) -> float:
    """``-alpha * max(0, n - B) / B``; with ``n_gt = 0``, ``-alpha * n``."""
    b = budget(n_ground_truth, beta)
    if b <= 0:
        return -alpha * n_calls + 0.0  # + 0.0: no negative zero
    return -alpha * max(0, n_calls - b) / b + 0.0


def tool_name_precision(calls: Sequence[Any], ground_truth: Sequence[Any]) -> float:
    """The share of the calls whose name is a ground-truth name (membership per call); 0
    without calls; with no ground-truth call, 1 when there is no call either, else 0."""
    calls, truth = _calls(calls), _truth(ground_truth)
    if not truth:
        return 0.0 if calls else 1.0
    if not calls:
        return 0.0
    wanted = {g.name for g in truth}
    return sum(1 for c in calls if c.name in wanted) / len(calls)


def argument_agreement(calls: Sequence[Any], ground_truth: Sequence[Any],
                       alignment: Mapping[int, int] | None = None) -> float:
    """Mean agreement of argument values over the aligned pairs; 0 without any."""
    calls, truth = _calls(calls), _truth(ground_truth)
    alignment = align(calls, truth) if alignment is None else alignment
    if not alignment:
        return 0.0
    return sum(_agreement(truth[g], calls[c]) for g, c in alignment.items()) / len(alignment)


def abstention(calls: Sequence[Any], ground_truth: Sequence[Any]) -> float:
    """1 when there is no ground-truth call and the agent made none, else 0 (recorded in
    the score; on such a task it equals ``N``)."""
    return 1.0 if not list(ground_truth) and not list(calls) else 0.0


def best_total(n_ground_truth: int, config: ProveRewardConfig | Mapping | None = None
               ) -> float:
    """The highest total attainable: ``w_V + w_C + w_N + w_A``, or ``w_N`` when the task
    has no ground-truth call."""
    config = ProveRewardConfig.from_dict(config)
    if n_ground_truth == 0:
        return config.tool_name
    return config.validity + config.coverage + config.tool_name + config.arguments


def score(calls: Sequence[Any], ground_truth: Sequence[Any],
          config: ProveRewardConfig | Mapping | None = None) -> ProveScore:
    """Every component and the composite of one episode."""
    config = ProveRewardConfig.from_dict(config)
    calls, truth = _calls(calls), _truth(ground_truth)
    n, n_gt = len(calls), len(truth)
    e = efficiency(n, n_gt, config.alpha, config.beta)
    nm = tool_name_precision(calls, truth)
    if n_gt == 0:
        v = c = a = 0.0
        alignment: dict[int, int] = {}
    else:
        alignment = align(calls, truth)
        v = validity(calls)
        c = coverage(calls, truth, alignment)
        a = argument_agreement(calls, truth, alignment)
    total = (config.validity * v + config.coverage * c + config.efficiency * e
             + config.tool_name * nm + config.arguments * a)
    best = best_total(n_gt, config)
    normalized = total / best if best > 0 else 0.0
    return ProveScore(
        validity=v, coverage=c, efficiency=e, tool_name=nm, arguments=a,
        abstention=abstention(calls, truth), total=total, best=best, normalized=normalized,
        calls=n, ground_truth=n_gt, budget=budget(n_gt, config.beta),
        alignment=tuple(sorted(alignment.items())),
    )
