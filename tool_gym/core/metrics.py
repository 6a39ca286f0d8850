"""Evaluation metrics over tasks x trials: pass^k (tau-bench), pass@k, bootstrap CIs.

The full explanation is in ``docs/metrics.md``.
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Hashable, Mapping, Sequence
from typing import Any

import numpy as np

Successes = Mapping[Hashable, Sequence[bool]]


def _check_k(k: int) -> int:
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 1:
        raise ValueError(f"k must be a positive integer, got {k!r}")
    return int(k)


def _counts(successes_per_task: Successes, k: int) -> list[tuple[int, int]]:
    """``(n, c)`` of every task with at least ``k`` trials, in the mapping's order."""
    k = _check_k(k)
    counts = []
    for outcomes in successes_per_task.values():
        outcomes = list(outcomes)
        if len(outcomes) >= k:
            counts.append((len(outcomes), sum(bool(o) for o in outcomes)))
    if not counts:
        raise ValueError(f"no task has at least k={k} trials "
                         f"({len(successes_per_task)} tasks given)")
    return counts


def tasks_with_at_least(successes_per_task: Successes, k: int) -> int:
    """How many tasks have at least ``k`` trials (the tasks that count at ``k``)."""
    return sum(len(list(v)) >= k for v in successes_per_task.values())


def pass_hat_k_per_task(successes_per_task: Successes, k: int) -> np.ndarray:
    """C(c, k) / C(n, k) for each task with at least ``k`` trials."""
    return np.array([math.comb(c, k) / math.comb(n, k)
                     for n, c in _counts(successes_per_task, k)], dtype=float)


def pass_hat_k(successes_per_task: Successes, k: int) -> float:
    """pass^k: mean over tasks of C(c, k) / C(n, k) (tasks with n < k excluded)."""
    counts = _counts(successes_per_task, k)
    return math.fsum(math.comb(c, k) / math.comb(n, k) for n, c in counts) / len(counts)


def pass_at_k(successes_per_task: Successes, k: int) -> float:
    """pass@k: mean over tasks of 1 - C(n - c, k) / C(n, k) (tasks with n < k excluded)."""
    counts = _counts(successes_per_task, k)
    return math.fsum(1.0 - math.comb(n - c, k) / math.comb(n, k)
                     for n, c in counts) / len(counts)


def pass_hat_k_ci(successes_per_task: Successes, k: int, confidence: float = 0.95,
                  resamples: int = 1000, seed: int = 0) -> tuple[float, float]:
    """Percentile-bootstrap confidence interval of pass^k, resampling tasks.

    Deterministic for a given ``seed`` and task order; always contains
    :func:`pass_hat_k`.
    """
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must lie in (0, 1), got {confidence!r}")
    if resamples < 1:
        raise ValueError(f"resamples must be positive, got {resamples!r}")
    values = pass_hat_k_per_task(successes_per_task, k)
    point = pass_hat_k(successes_per_task, k)
    rng = np.random.default_rng(seed)
    index = rng.integers(0, len(values), size=(resamples, len(values)))
    means = values[index].mean(axis=1)
    alpha = (1.0 - confidence) / 2.0
    low, high = np.quantile(means, [alpha, 1.0 - alpha])
    return float(min(low, point)), float(max(high, point))


def wilson_interval(successes: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson score interval of a success rate of ``successes`` out of ``n``.

    Unlike a bootstrap it is not degenerate at 0 or n successes (0 of 64 gives [0, 0.056]),
    so two rates whose intervals do not overlap differ by more than chance.
    """
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must lie in (0, 1), got {confidence!r}")
    if n < 1 or not 0 <= successes <= n:
        raise ValueError(f"need 0 <= successes <= n and n >= 1, got {successes} of {n}")
    z = statistics.NormalDist().inv_cdf(0.5 + confidence / 2.0)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def group_successes(episodes: Sequence[Mapping[str, Any]]) -> dict[Hashable, list[bool]]:
    """``{task_id: [success of each trial]}`` in the order tasks first appear."""
    grouped: dict[Hashable, list[bool]] = {}
    for episode in episodes:
        grouped.setdefault(episode["task_id"], []).append(bool(episode["success"]))
    return grouped


def _mean(values: Sequence[float]) -> float:
    return math.fsum(values) / len(values)


def summarize(episodes: Sequence[Mapping[str, Any]], max_k: int, confidence: float = 0.95,
              resamples: int = 1000, seed: int = 0) -> dict[str, Any]:
    """Everything an evaluation reports, from episode records (see ``tool_gym.agents.episode_loop``).

    Each episode needs ``task_id`` and ``success``; ``score``, ``turns``, ``tool_calls``,
    ``reward``, ``violations``, ``violation_counts``, ``redundant_writes``, ``ended`` and
    ``constraints`` (a list of ``{"type", "satisfied"}``) are used when present.

    Returns a JSON-ready dict whose ``k`` keys are strings: ``pass_hat_k``,
    ``pass_hat_k_ci`` (``[low, high]``), ``pass_at_k`` and ``pass_hat_k_tasks`` (tasks
    that counted) for each ``k`` in ``1..max_k`` that at least one task supports, and
    ``episodes``, ``tasks``, ``success_rate``, ``mean_score``, ``mean_reward``,
    ``mean_turns``, ``mean_tool_calls``, ``violations``, ``redundant_writes``, ``ended``,
    ``constraint_types`` and ``ci`` (how the intervals were made).

    ``constraint_types`` maps each constraint type to ``constraints`` (how many were
    posed), ``satisfied_rate`` (fraction of them that held at the end), ``episodes``
    (episodes with at least one constraint of the type) and ``episode_success_rate``
    (fraction of those episodes that succeeded).
    """
    if not episodes:
        raise ValueError("summarize needs at least one episode")
    max_k = _check_k(max_k)
    grouped = group_successes(episodes)
    n = len(episodes)

    summary: dict[str, Any] = {
        "episodes": n,
        "tasks": len(grouped),
        "success_rate": _mean([float(bool(e["success"])) for e in episodes]),
        "mean_score": _mean([float(e.get("score", 0.0)) for e in episodes]),
        "mean_reward": _mean([float(e.get("reward", 0.0)) for e in episodes]),
        "mean_turns": _mean([float(e.get("turns", 0)) for e in episodes]),
        "mean_tool_calls": _mean([float(e.get("tool_calls", 0)) for e in episodes]),
        "ci": {"confidence": confidence, "resamples": resamples, "seed": seed,
               "method": "percentile bootstrap over tasks"},
    }

    summary.update(_pass_k_summary(grouped, max_k, confidence, resamples, seed))
    summary["violations"] = _violations_summary(episodes)
    redundant = [int(e.get("redundant_writes", 0)) for e in episodes]
    summary["redundant_writes"] = {"total": sum(redundant), "per_episode": sum(redundant) / n}
    summary["ended"] = dict(sorted(Counter(str(e.get("ended", "")) for e in episodes).items()))
    tau2 = [e for e in episodes if e.get("tau2")]
    if tau2:
        summary["tau2"] = _tau2_summary(tau2)
    summary["constraint_types"] = _constraint_summary(episodes)
    return summary


def _pass_k_summary(grouped: Successes, max_k: int, confidence: float, resamples: int,
                    seed: int) -> dict[str, dict[str, Any]]:
    """pass^k with its interval, pass@k and the tasks counted, for each ``k`` supported."""
    pass_hat, pass_hat_ci, pass_at, counted = {}, {}, {}, {}
    for k in range(1, max_k + 1):
        if tasks_with_at_least(grouped, k) == 0:
            break
        key = str(k)
        pass_hat[key] = pass_hat_k(grouped, k)
        pass_hat_ci[key] = list(pass_hat_k_ci(grouped, k, confidence, resamples, seed))
        pass_at[key] = pass_at_k(grouped, k)
        counted[key] = tasks_with_at_least(grouped, k)
    return {"pass_hat_k": pass_hat, "pass_hat_k_ci": pass_hat_ci, "pass_at_k": pass_at,
            "pass_hat_k_tasks": counted}


def _violations_summary(episodes: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    by_kind: Counter = Counter()
    for e in episodes:
        by_kind.update({str(kind): int(v) for kind, v in (e.get("violation_counts") or {}).items()})
    violations = [int(e.get("violations", 0)) for e in episodes]
    return {
        "total": sum(violations),
        "per_episode": sum(violations) / len(episodes),
        "episodes_with_violations": sum(v > 0 for v in violations),
        "by_kind": dict(sorted(by_kind.items())),
    }


def _constraint_summary(episodes: Sequence[Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per constraint type: how many were posed and held, and how their episodes fared."""
    posed: Counter = Counter()
    held: Counter = Counter()
    in_episodes: Counter = Counter()
    won: Counter = Counter()
    for e in episodes:
        types = set()
        for c in e.get("constraints") or ():
            posed[c["type"]] += 1
            held[c["type"]] += bool(c["satisfied"])
            types.add(c["type"])
        for t in types:
            in_episodes[t] += 1
            won[t] += bool(e["success"])
    return {
        t: {"constraints": posed[t], "satisfied_rate": held[t] / posed[t],
            "episodes": in_episodes[t], "episode_success_rate": won[t] / in_episodes[t]}
        for t in sorted(posed)
    }


def _tau2_summary(episodes: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """tau2's own tasks: the mean of tau2's deterministic reward and its parts, and pass^1
    apart for the tasks whose reward basis has NL assertions (not judged here: no model
    enters a reward) and for those fully checked."""
    groups: dict[str, list] = {"checked (no NL assertions)": [],
                               "NL assertions unchecked": []}
    for e in episodes:
        key = "NL assertions unchecked" if e["tau2"].get("nl_assertions_unchecked") \
            else "checked (no NL assertions)"
        groups[key].append(e)
    return {
        "episodes": len(episodes),
        "reward_mean": _mean([float(e["tau2"]["reward"]) for e in episodes]),
        "db_match_rate": _mean([float(bool(e["tau2"]["db_match"])) for e in episodes]),
        "communicate_info_rate": _mean([float(bool(e["tau2"]["communicate_info"]))
                                        for e in episodes]),
        # tasks whose gold holds a write that tau2's own tool rejects (retail 64 and 105):
        # counted as tau2 counts them, against the gold database without that write
        "tasks_with_rejected_gold_writes": sorted(
            {str(e["task_id"]) for e in episodes if e["tau2"].get("rejected_gold_writes")},
            key=lambda t: (len(t), t)),
        "groups": {name: {"tasks": len(group_successes(rows)),
                          "pass_hat_1": pass_hat_k(group_successes(rows), 1)}
                   for name, rows in groups.items() if rows},
    }
