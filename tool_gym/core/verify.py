"""Rule-based verification of an episode: constraints by outcome, redundancy, policy.

The full explanation is in ``docs/verification.md``.
"""

from __future__ import annotations

import json
import sqlite3
from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Sequence

from .task_model import Task, TaskKit

#: Violation kinds and what they mean.
VIOLATIONS = {
    "write_before_authentication": "a write before the user was authenticated",
    "write_without_confirmation": "a write without an explicit yes in the preceding user turn",
    "write_on_other_user": "a write on data of a user other than the authenticated one",
    "multiple_writes_in_turn": "more than one write between two user turns",
    "multiple_calls_in_message": "more than one tool call in one agent message",
    "call_and_message_together": "a tool call and a message to the user in one agent message",
}

#: How episodes end (recorded in ``Verification.ended``; none of them gates the score).
ENDINGS = ("user_stop", "transfer", "error_limit", "truncated")


def authenticated_user(content: str) -> str:
    """The user id that an authentication tool's successful result names: the result
    itself (a bare or JSON-quoted id, as retail's lookups return), or the ``user_id`` field
    of a JSON object (a user record, as airline's ``get_user_details`` returns)."""
    text = content.strip()
    try:
        value = json.loads(text)
    except ValueError:
        return text.strip('"')
    if isinstance(value, str):
        return value
    if isinstance(value, dict) and isinstance(value.get("user_id"), str):
        return value["user_id"]
    return text.strip('"')


@dataclass
class WriteRecord:
    tool: str
    target: str | None
    owner: str | None
    ok: bool


@dataclass
class PolicyMonitor:
    """Counts violations of the rules that code can check, as the episode runs."""

    auth_tools: tuple[str, ...]
    authenticated: str | None = None
    confirmed: bool = False
    writes_this_turn: int = 0
    violations: Counter = field(default_factory=Counter)
    writes: list[WriteRecord] = field(default_factory=list)

    def on_user_message(self, text: str, is_confirmation: bool) -> None:
        self.confirmed = is_confirmation
        self.writes_this_turn = 0

    def on_agent_action(self, n_calls: int, has_message: bool) -> None:
        if n_calls > 1:
            self.violations["multiple_calls_in_message"] += 1
        if n_calls and has_message:
            self.violations["call_and_message_together"] += 1

    def on_call(self, tool: str, is_write: bool, ok: bool, content: str,
                target: str | None = None, owner: str | None = None) -> None:
        if tool in self.auth_tools and ok:
            self.authenticated = authenticated_user(content)
        if not is_write:
            return
        self.writes.append(WriteRecord(tool, target, owner, ok))
        if self.authenticated is None:
            self.violations["write_before_authentication"] += 1
        elif owner is not None and owner != self.authenticated:
            self.violations["write_on_other_user"] += 1
        if self.writes_this_turn >= 1:
            self.violations["multiple_writes_in_turn"] += 1
        elif not self.confirmed:
            self.violations["write_without_confirmation"] += 1
        self.writes_this_turn += 1
        self.confirmed = False  # one yes covers one write


@dataclass
class Verification:
    score: float
    success: bool
    constraints: list[dict]
    redundant_writes: int
    violations: int
    violation_counts: dict[str, int]
    ended: str
    satisfied_fraction: float
    #: The redundant writes themselves, in episode order: ``{"tool", "target"}`` each
    #: (``len(redundant) == redundant_writes``). Explanatory only, like each failed
    #: constraint's ``reason``: the score reads the counts.
    redundant: list[dict] = field(default_factory=list)

    def to_dict(self) -> dict:
        return asdict(self)


#: The reason of a failed constraint whose kit gives none (:func:`constraint_result`).
UNEXPLAINED = "not satisfied (the task kit gives no reason)"


def find_redundant(task: Task, writes: Sequence[WriteRecord]) -> list[WriteRecord]:
    """Successful writes that no constraint needs (wrong entity, or needed no more), in
    episode order: a write needed ``n`` times counts as needed for its first ``n``."""
    wanted = Counter(w for c in task.constraints for w in c.writes)
    redundant = []
    for w in writes:
        if not w.ok:
            continue
        key = (w.tool, w.target)
        if wanted[key] > 0:
            wanted[key] -= 1
        else:
            redundant.append(w)
    return redundant


def count_redundant(task: Task, writes: Sequence[WriteRecord]) -> int:
    """How many writes :func:`find_redundant` finds."""
    return len(find_redundant(task, writes))


def redundant_list(writes: Sequence[WriteRecord]) -> list[dict]:
    """Writes as ``Verification.redundant`` lists them (JSON-ready)."""
    return [{"tool": str(w.tool), "target": None if w.target is None else str(w.target)}
            for w in writes]


def constraint_result(kit: TaskKit, task: Task, constraint, db: sqlite3.Connection,
                      agent_messages: Sequence[str], held: bool) -> dict:
    """One entry of ``Verification.constraints``: ``{"type", "satisfied"}``, plus, when it
    failed, ``"reason"``: the kit's :meth:`~tool_gym.core.task_model.TaskKit.explain`
    (:data:`UNEXPLAINED` when it has none). ``held`` is the kit's verdict, taken as given:
    the reason never changes it."""
    result = {"type": constraint.type, "satisfied": bool(held)}
    if not held:
        explain = getattr(kit, "explain", None)
        reason = None
        if explain is not None:
            try:
                reason = explain(db, task, constraint, agent_messages)
            except Exception as error:  # noqa: BLE001 - an explanation never ends an episode
                reason = f"not satisfied (explaining it raised {type(error).__name__})"
        result["reason"] = str(reason) if reason else UNEXPLAINED
    return result


def verify(task: Task, kit: TaskKit, db: sqlite3.Connection, agent_messages: Sequence[str],
           monitor: PolicyMonitor, ended: str) -> Verification:
    """Check the task on the final database and score the episode."""
    results = [
        constraint_result(kit, task, c, db, agent_messages,
                          bool(kit.check(db, task, c, agent_messages)))
        for c in task.constraints
    ]
    satisfied = sum(r["satisfied"] for r in results)
    fraction = satisfied / len(results) if results else 1.0
    redundant_writes = find_redundant(task, monitor.writes)
    redundant = len(redundant_writes)
    n_violations = sum(monitor.violations.values())
    penalty = max(0.0, 1.0 - 0.25 * (redundant + n_violations))
    score = fraction * penalty
    return Verification(
        score=score, success=score == 1.0, constraints=results, redundant_writes=redundant,
        violations=n_violations, violation_counts=dict(sorted(monitor.violations.items())),
        ended=ended, satisfied_fraction=fraction, redundant=redundant_list(redundant_writes),
    )
