"""``RuleTaskKit``: a complete :class:`~tool_gym.core.tasks.TaskKit` from constraint samplers.

A domain that uses it writes only *samplers*: functions that look at one user's rows and
return a :class:`~tool_gym.core.tasks.Constraint` that carries everything else the episode
needs:

- ``args`` / ``refs``: the hidden intent and its fuzzy descriptions (each with a proof,
  made with :meth:`SampleContext.describe`);
- ``say``: the user's words for the need (paraphrases; fuzzy terms only);
- ``solution``: the reference steps (reads, a proposal mentioning every
  ``confirm_terms`` group, the write, a closing message; or reads and an answer);
- ``expect``: outcome checks, queries whose rows must be exactly the given ones at the end
  (any path that reaches that state passes); ``answer`` for information requests;
- ``writes``: the ``(tool, target id)`` pairs the need requires (for redundancy).

The kit draws a user of the split (stable hash of the user id), describes their identity,
draws one to N constraints whose samplers ``claim`` the entities they use (so constraints
of one task never touch the same entity), and implements checking, phrasing and the plan
generically. Information answers and refusals are checked by
:func:`tool_gym.core.grounding.communicated`: an answer counts only once a tool result (or
the constraint's ``evidence`` records) showed it, in any equivalent form and with no
competing value; a refusal only once earned (the user authenticated, the ``refusal``
records read, nothing written to them). ``mentions_answer`` is the older plain match.
"""

from __future__ import annotations

import hashlib
import re
from datetime import date
import sqlite3
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from .actions import ToolCall
from .grounding import communicated
from .proposals import entity_groups, intent_with_rivals
from .tasks import Constraint, Description, PlanStep, Proof, SamplerConfig, Task

#: Other needs of a type drawn per need to find the user's competing values (rivals).
RIVAL_DRAWS = 6

#: Share of users (by a stable hash of their id) that belong to the test split.
TEST_SHARE = 20


def split_of(user_id: str, test_share: int = TEST_SHARE) -> str:
    """``"test"`` for about ``test_share`` percent of user ids (sha256; a pure function)."""
    h = int.from_bytes(hashlib.sha256(str(user_id).encode("utf-8")).digest()[:8], "big")
    return "test" if h % 100 < test_share else "train"


@lru_cache(maxsize=4096)
def _answer_pattern(answer: str) -> re.Pattern:
    return re.compile(r"(?<![0-9a-z])" + re.escape(answer.lower()) + r"(?![0-9a-z]|\.[0-9])")


def mentions_answer(answer: str, messages: Sequence[str]) -> bool:
    """``answer`` occurs in some message, ignoring case and commas, not inside a longer
    number or word (``"7"`` is not in ``"17"``)."""
    pattern = _answer_pattern(answer.replace(",", ""))
    return any(pattern.search(m.replace(",", "").lower()) for m in messages
               if isinstance(m, str))


def pick(rng: np.random.Generator, options: Sequence[Any]) -> Any:
    return options[int(rng.integers(len(options)))]


# ------------------------------------------------------------ wording and solutions
DONE = "Done. Is there anything else you need?"
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
           "September", "October", "November", "December")


def write_steps(reads: Sequence[ToolCall], proposal: str, call: ToolCall,
                done: str = DONE) -> tuple[PlanStep, ...]:
    """The reference steps of a write need: reads, a proposal awaiting a yes, the write,
    a closing message."""
    return (*(PlanStep(call=r) for r in reads),
            PlanStep(say=proposal, expects_confirmation=True), PlanStep(call=call),
            PlanStep(say=done))


def answer_steps(reads: Sequence[ToolCall], message: str) -> tuple[PlanStep, ...]:
    """The reference steps of an information need: reads, then the answer."""
    return (*(PlanStep(call=r) for r in reads), PlanStep(say=message))


def dollars(amount: float) -> str:
    """``$1,250`` for whole dollars, ``$85.40`` otherwise (how a person writes it)."""
    return f"${amount:,.0f}" if amount == int(amount) else f"${amount:,.2f}"


def money_terms(amount: float) -> tuple[str, ...]:
    """The ways an agent's message may write ``amount`` (any one of them matches)."""
    if amount == int(amount):
        return tuple(dict.fromkeys((f"{int(amount)}", f"{int(amount):,}")))
    return tuple(dict.fromkeys((f"{amount:.2f}", f"{amount:,.2f}")))


def date_words(day: str) -> str:
    """``2024-05-03`` -> ``May 3, 2024``."""
    d = date.fromisoformat(day)
    return f"{_MONTHS[d.month - 1]} {d.day}, {d.year}"


@dataclass
class SampleContext:
    """What a sampler sees: the initial database, the user, the rng and the claims."""

    db: sqlite3.Connection
    user_id: str
    rng: np.random.Generator
    config: SamplerConfig
    claimed: set = field(default_factory=set)

    def pick(self, options: Sequence[Any]) -> Any:
        return pick(self.rng, options)

    def shuffled(self, options: Sequence[Any]) -> list:
        order = self.rng.permutation(len(options))
        return [options[int(i)] for i in order]

    def claim(self, *keys: Any) -> bool:
        """Reserve entities for this constraint; False when another constraint has one."""
        if any(k in self.claimed for k in keys):
            return False
        self.claimed.update(keys)
        return True

    def rows(self, query: str, params: tuple = ()) -> list[tuple]:
        return self.db.execute(query, params).fetchall()

    def describe(self, entity: str, text: str, fields: dict, value: Any, query: str,
                 params: tuple) -> Description | None:
        """A description proven unique: ``query`` must return exactly one row, ``(value,)``.
        ``None`` when it does not (refine the description or draw something else)."""
        rows = self.db.execute(query, params).fetchmany(2)
        if len(rows) != 1 or tuple(rows[0]) != (value,):
            return None
        return Description(entity, text, fields, value, Proof(query, tuple(params), (value,)))


Sampler = Callable[[SampleContext], "Constraint | None"]


class RuleTaskKit:
    """A TaskKit assembled from samplers and a few declarations.

    Args:
        domain: the domain's name.
        samplers: constraint type -> sampler.
        users_table / user_column: where the users' ids are (drawn by random rowid).
        identify: ``(ctx) -> Description`` of the user's identity, or ``None``.
        auth_call: ``Description -> ToolCall`` that authenticates the user from it.
        auth_tools: tools whose successful result is the authenticated user's id.
        owners: write tool -> ``(sql, argument)``: the sql, bound to that argument, returns
            the id of the user whose data the write touches.
        ask_identity: the agent's words asking the user to identify themself.
        identity_phrases: templates of the user's answer, formatted with the identity
            description's ``fields`` and ``text``.
        policy_violations: optional ``(db, tool, arguments) -> list[str]``.
    """

    def __init__(self, domain: str, samplers: Mapping[str, Sampler], *,
                 users_table: str = "users", user_column: str = "user_id",
                 identify: Callable[[SampleContext], Description | None],
                 auth_call: Callable[[Description], ToolCall], auth_tools: Sequence[str],
                 owners: Mapping[str, tuple[str, str]], ask_identity: str,
                 identity_phrases: Sequence[str] = ("It's {text}.", "Sure: {text}."),
                 greetings: Sequence[str] = ("Hi!", "Hello,", "Hi there.", "Hello!"),
                 policy_violations: Callable[..., list[str]] | None = None,
                 test_share: int = TEST_SHARE):
        self.domain = domain
        self.samplers = dict(samplers)
        self.constraint_types = tuple(self.samplers)
        self._rowids = f'SELECT min(rowid), max(rowid) FROM "{users_table}"'
        self._user_at = f'SELECT "{user_column}" FROM "{users_table}" WHERE rowid = ?'
        self._all_users = f'SELECT "{user_column}" FROM "{users_table}" ORDER BY rowid'
        self._identify = identify
        self._auth_call = auth_call
        self.auth_tools = tuple(auth_tools)
        self.owners = dict(owners)
        self.ask_identity = ask_identity
        self.identity_phrases = tuple(identity_phrases)
        self.greetings = tuple(greetings)
        self.test_share = test_share
        if policy_violations is not None:
            self.policy_violations = policy_violations

    # ------------------------------------------------------------------ sampling
    def split_of(self, user_id: str) -> str:
        return split_of(user_id, self.test_share)

    def _draw_user(self, db: sqlite3.Connection, rng: np.random.Generator,
                   split: str) -> str | None:
        """A random user of ``split``: random rowids first (no scan), a scan if unlucky."""
        lo, hi = db.execute(self._rowids).fetchone()
        if lo is None:
            return None
        for _ in range(64):
            row = db.execute(self._user_at, (int(rng.integers(lo, hi + 1)),)).fetchone()
            if row is not None and self.split_of(row[0]) == split:
                return row[0]
        users = [u for (u,) in db.execute(self._all_users) if self.split_of(u) == split]
        return pick(rng, users) if users else None

    def sample(self, db: sqlite3.Connection, rng: np.random.Generator, split: str,
               config: SamplerConfig, task_id: str) -> Task:
        types = [t for t in self.constraint_types if not config.types or t in config.types]
        if not types:
            raise ValueError(f"{self.domain}: none of the types {config.types} exist")
        lead = pick(rng, types)  # drawn first, so rare types still come up
        best = None
        for attempt in range(64):
            user_id = self._draw_user(db, rng, split)
            if user_id is None:
                raise ValueError(f"{self.domain}: no users in split {split!r}")
            ctx = SampleContext(db, user_id, rng, config)
            identity = self._identify(ctx)
            if identity is None:
                continue
            want = int(rng.integers(config.min_constraints, config.max_constraints + 1))
            order = [lead] + [t for t in ctx.shuffled(types) if t != lead] if attempt < 32 \
                else ctx.shuffled(types)
            constraints: list[Constraint] = []
            for kind in order * 2:  # a type may be drawn twice (other entities)
                if len(constraints) >= want:
                    break
                c = self.samplers[kind](ctx)
                if c is not None:
                    constraints.append(self._with_intent(ctx, kind, c))
            if attempt < 16 and (not constraints or constraints[0].type != lead):
                continue  # first look for a user who can have the lead type (rare types)
            if len(constraints) >= max(1, min(want, config.min_constraints)):
                return Task(task_id, self.domain, split, ctx.user_id, identity,
                            tuple(constraints))
            if constraints and best is None:
                best = (ctx.user_id, identity, constraints)
        if best is None:
            raise RuntimeError(f"{self.domain}: no feasible task in split {split!r}")
        return Task(task_id, self.domain, split, best[0], best[1], tuple(best[2]))

    def _with_intent(self, ctx: SampleContext, kind: str, c: Constraint) -> Constraint:
        """``c`` with its intent: an entity the user described gets as rivals the same
        entity of up to :data:`RIVAL_DRAWS` other needs of this type drawn for this user
        (a generator of their own, fresh claims: the task's draw is unchanged)."""
        if c.intent is not None or not c.confirm_terms or c.answer is not None:
            return c
        others: list[Constraint] = []
        if entity_groups(c):
            seed = int.from_bytes(hashlib.sha256(f"{ctx.user_id}/{kind}".encode()).digest()[:8],
                                  "big")
            alt = SampleContext(ctx.db, ctx.user_id, np.random.default_rng(seed), ctx.config)
            for _ in range(RIVAL_DRAWS):
                other = self.samplers[kind](alt)
                if other is None:
                    break
                others.append(other)
        return replace(c, intent=intent_with_rivals(c, others))

    # ------------------------------------------------------------------ checking
    def check(self, db: sqlite3.Connection, task: Task, constraint: Constraint,
              agent_messages: Sequence[str]) -> bool:
        if not communicated(task, constraint, agent_messages):
            return False
        return all(e.holds(db) for e in constraint.expect)

    def owner(self, db: sqlite3.Connection, tool: str, arguments: dict) -> str | None:
        spec = self.owners.get(tool)
        if spec is None or not isinstance(arguments, dict):
            return None
        sql, argument = spec
        value = arguments.get(argument)
        if not isinstance(value, (str, int)):
            return None
        row = db.execute(sql, (value,)).fetchone()
        return row[0] if row else None

    # ------------------------------------------------------------------ phrasing
    def opening(self, task: Task, constraint: Constraint, rng: np.random.Generator) -> str:
        return f"{pick(rng, self.greetings)} {self.request(task, constraint, rng)}"

    def request(self, task: Task, constraint: Constraint, rng: np.random.Generator) -> str:
        if not constraint.say:
            raise ValueError(f"constraint {constraint.type!r} has no words (say=())")
        return pick(rng, constraint.say)

    def identify(self, task: Task, rng: np.random.Generator) -> str:
        ident = task.identity
        return pick(rng, self.identity_phrases).format(text=ident.text, **ident.fields)

    def plan(self, task: Task) -> list[PlanStep]:
        steps = [PlanStep(say=self.ask_identity), PlanStep(call=self._auth_call(task.identity))]
        for c in task.constraints:
            steps.extend(c.solution)
        return steps
