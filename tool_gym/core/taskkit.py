"""The task kit every domain builds on: samplers of constraints plus declarations.

:class:`BaseTaskKit` holds the generic parts (split, ownership, outcome checks, phrasing,
plan); :class:`RuleTaskKit` and :class:`ViewTaskKit` add two ways of drawing a task. The
shared helpers (picking, proofs, answer matching, wording) are here too. See
``docs/task-kit.md``.
"""

from __future__ import annotations

import hashlib
import re
from datetime import date
import sqlite3
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any, Callable, Iterator, Mapping, Sequence

import numpy as np

from .actions import ToolCall
from .grounding import communicated, communication_gap
from .proposals import entity_groups, intent_with_rivals
from .task_model import Constraint, Description, PlanStep, Proof, SamplerConfig, Task, TaskKit

#: Other needs of a type drawn per need to find the user's competing values (rivals).
RIVAL_DRAWS = 6

#: Share of users (by a stable hash of their id) that belong to the test split.
TEST_SHARE = 20


@lru_cache(maxsize=1 << 16)
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


def _clip(text: str, limit: int = 160) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[:limit - 1] + "\u2026"


def outcome_gap(db: sqlite3.Connection, constraint: Constraint,
                outcome: Callable[[sqlite3.Connection, dict], bool] | None = None
                ) -> str | None:
    """Why the final database does not hold ``constraint``'s outcome, as ``"outcome check
    failed: ..."`` (the first of its ``expect`` queries that does not hold, what it found
    and what it wanted, or, with ``outcome``, the kit's own check), naming the writes the
    need requires; ``None`` when it holds. For explanations only."""
    needs = "; it needs " + ", ".join(f"{tool} on {target}" for tool, target in
                                      constraint.writes) if constraint.writes else ""
    if outcome is not None:
        if outcome(db, constraint.args):
            return None
        return (f"outcome check failed: the final database does not hold the "
                f"{constraint.type} outcome{needs}")
    for e in constraint.expect:
        if not e.holds(db):
            found = [tuple(r) for r in db.execute(e.query, e.params).fetchall()]
            wanted = [tuple(r) for r in e.rows]
            return (f"outcome check failed: the final database does not hold the outcome "
                    f"({_clip(e.query, 120)} {_clip(repr(tuple(e.params)), 80)} gave "
                    f"{_clip(repr(found), 80)}, not {_clip(repr(wanted), 80)}){needs}")
    return None


def pick(rng: np.random.Generator, options: Sequence[Any]) -> Any:
    return options[int(rng.integers(len(options)))]


def shuffled(rng: np.random.Generator, items: Sequence[Any]) -> list:
    """``items`` in a random order (no draw for fewer than two)."""
    if len(items) < 2:
        return list(items)
    return [items[int(i)] for i in rng.permutation(len(items))]


def prove(db: sqlite3.Connection, query: str, params: Sequence[Any],
          expected: tuple) -> Proof | None:
    """The proof, when ``query`` returns exactly one row equal to ``expected`` (``None``
    also when the query fails, e.g. on malformed JSON in foreign data)."""
    try:
        rows = db.execute(query, tuple(params)).fetchall()
    except sqlite3.Error:
        return None
    if len(rows) != 1 or tuple(rows[0]) != tuple(expected):
        return None
    return Proof(query, tuple(params), tuple(expected))


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


def money(amount: float) -> str:
    """``1234.50``: two decimals, no thousands separator (an answer to match)."""
    return f"{round(float(amount), 2):.2f}"


def join_words(parts: Sequence[str]) -> str:
    """``a, b and c``."""
    parts = list(parts)
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def copy_argument(value: Any) -> Any:
    """A plan call's argument value, lists copied (the constraint's stay untouched)."""
    return list(value) if isinstance(value, list) else value


def date_words(day: str) -> str:
    """``2024-05-03`` -> ``May 3, 2024``."""
    d = date.fromisoformat(day)
    return f"{_MONTHS[d.month - 1]} {d.day}, {d.year}"


def month_day(stamp: str) -> str:
    """``2025-06-05`` (or a longer stamp) -> ``June 5``."""
    d = date.fromisoformat(stamp[:10])
    return f"{_MONTHS[d.month - 1]} {d.day}"


def month_words(month: str) -> str:
    """``2024-05`` -> ``May 2024``."""
    return f"{_MONTHS[int(month[5:7]) - 1]} {month[:4]}"


@dataclass
class SampleContext:
    """What a sampler sees: the initial database, the user, the rng and the claims."""

    db: sqlite3.Connection
    user_id: str
    rng: np.random.Generator
    config: SamplerConfig
    claimed: set = field(default_factory=set)
    #: The user's rows as the domain loaded them (``ViewTaskKit``'s ``view``), or ``None``.
    view: Any = None

    def pick(self, options: Sequence[Any]) -> Any:
        return pick(self.rng, options)

    def shuffled(self, options: Sequence[Any]) -> list:
        return shuffled(self.rng, options)

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


class BaseTaskKit(TaskKit):
    """The generic parts of a kit: split, ownership, outcome checks, phrasing, plan.

    Args:
        domain: the domain's name.
        samplers: constraint type -> sampler.
        identify: ``(ctx) -> Description`` of the user's identity, or ``None``.
        auth_tools: tools whose successful result is the authenticated user's id.
        owners: write tool -> ``(sql, argument)``: the sql, bound to that argument, returns
            the id of the user whose data the write touches.
        auth_call: ``Description -> ToolCall`` that authenticates the user from it (used
            by the default plan).
        ask_identity: the agent's words asking the user to identify themself (default plan).
        identity_phrases: templates of the user's answer, formatted with the identity
            description's ``fields`` and ``text``.
        greetings: the openings' first words.
        policy_violations: optional ``(db, tool, arguments) -> list[str]``.
        checks: constraint type -> ``(db, args) -> bool``, its outcome check; a type
            without one is checked by its ``expect`` queries.
        request_words: ``(task, constraint, rng) -> str``; default: one of ``say``.
        identity_words: ``(task, rng) -> str``; default: one of ``identity_phrases``.
        plan_steps: ``(task) -> list[PlanStep]``; default: ask, authenticate, then each
            constraint's ``solution``.
        users_table / user_column: where the users' ids are.
    """

    def __init__(self, domain: str, samplers: Mapping[str, Sampler], *,
                 identify: Callable[[SampleContext], Description | None],
                 auth_tools: Sequence[str], owners: Mapping[str, tuple[str, str]],
                 auth_call: Callable[[Description], ToolCall] | None = None,
                 ask_identity: str = "",
                 identity_phrases: Sequence[str] = ("It's {text}.", "Sure: {text}."),
                 greetings: Sequence[str] = ("Hi!", "Hello,", "Hi there.", "Hello!"),
                 policy_violations: Callable[..., list[str]] | None = None,
                 checks: Mapping[str, Callable[[sqlite3.Connection, dict], bool]] | None = None,
                 request_words: Callable[[Task, Constraint, np.random.Generator], str]
                 | None = None,
                 identity_words: Callable[[Task, np.random.Generator], str] | None = None,
                 plan_steps: Callable[[Task], list[PlanStep]] | None = None,
                 users_table: str = "users", user_column: str = "user_id",
                 test_share: int = TEST_SHARE):
        self.domain = domain
        self.samplers = dict(samplers)
        self.constraint_types = tuple(self.samplers)
        self._identify = identify
        self.auth_tools = tuple(auth_tools)
        self.owners = dict(owners)
        self._auth_call = auth_call
        self.ask_identity = ask_identity
        self.identity_phrases = tuple(identity_phrases)
        self.greetings = tuple(greetings)
        self._policy = policy_violations
        self.checks = dict(checks or {})
        self._request_words = request_words
        self._identity_words = identity_words
        self._plan_steps = plan_steps
        self.users_table = users_table
        self.user_column = user_column
        self.test_share = test_share

    def split_of(self, user_id: str) -> str:
        return split_of(user_id, self.test_share)

    def policy_violations(self, db: sqlite3.Connection, tool: str,
                          arguments: dict) -> list[str]:
        return [] if self._policy is None else self._policy(db, tool, arguments)

    # ------------------------------------------------------------------ checking
    def check(self, db: sqlite3.Connection, task: Task, constraint: Constraint,
              agent_messages: Sequence[str]) -> bool:
        if not communicated(task, constraint, agent_messages):
            return False
        outcome = self.checks.get(constraint.type)
        if outcome is not None:
            return bool(outcome(db, constraint.args))
        return all(e.holds(db) for e in constraint.expect)

    def explain(self, db: sqlite3.Connection, task: Task, constraint: Constraint,
                agent_messages: Sequence[str]) -> str | None:
        """Why :meth:`check` fails, in its order: the message part of the need
        (:func:`~tool_gym.core.grounding.communication_gap`), then the outcome
        (:func:`outcome_gap`)."""
        return communication_gap(task, constraint, agent_messages) or \
            outcome_gap(db, constraint, self.checks.get(constraint.type))

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
        if self._request_words is not None:
            return self._request_words(task, constraint, rng)
        if not constraint.say:
            raise ValueError(f"constraint {constraint.type!r} has no words (say=())")
        return pick(rng, constraint.say)

    def identify(self, task: Task, rng: np.random.Generator) -> str:
        if self._identity_words is not None:
            return self._identity_words(task, rng)
        ident = task.identity
        return pick(rng, self.identity_phrases).format(text=ident.text, **ident.fields)

    def plan(self, task: Task) -> list[PlanStep]:
        if self._plan_steps is not None:
            return self._plan_steps(task)
        steps = [PlanStep(say=self.ask_identity), PlanStep(call=self._auth_call(task.identity))]
        for c in task.constraints:
            steps.extend(c.solution)
        return steps


class RuleTaskKit(BaseTaskKit):
    """A kit whose samplers each look at one user's rows through a :class:`SampleContext`:
    a user is drawn by random rowid (a scan when unlucky), the first need's type before
    the user, and constraints claim the entities they use."""

    def _draw_user(self, db: sqlite3.Connection, rng: np.random.Generator,
                   split: str) -> str | None:
        """A random user of ``split``: random rowids first (no scan), a scan if unlucky."""
        table, column = self.users_table, self.user_column
        lo, hi = db.execute(f'SELECT min(rowid), max(rowid) FROM "{table}"').fetchone()
        if lo is None:
            return None
        for _ in range(64):
            row = db.execute(f'SELECT "{column}" FROM "{table}" WHERE rowid = ?',
                             (int(rng.integers(lo, hi + 1)),)).fetchone()
            if row is not None and self.split_of(row[0]) == split:
                return row[0]
        users = [u for (u,) in db.execute(f'SELECT "{column}" FROM "{table}" ORDER BY rowid')
                 if self.split_of(u) == split]
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


def random_rowids(rng: np.random.Generator, lo: int, hi: int, size: int) -> list[int]:
    """``size`` rowids drawn uniformly from ``lo..hi``."""
    return [int(x) for x in rng.integers(lo, hi + 1, size=size)]


@dataclass(frozen=True)
class UserDraws:
    """How :class:`ViewTaskKit` draws users.

    Attributes:
        user_tries: users loaded before settling for fewer constraints.
        lead_tries: users loaded who must satisfy the first need's type.
        user_draws: users drawn (loaded or skipped) at most.
        lead_draws: users drawn before the first need's type may be any type.
        batches: batches of random rowids drawn before scanning the table.
        batch_train / batch_test: rowids per batch, by split (test users are fewer).
        preferred_batches: batches that yield only preferred users (the others follow),
            when the task prefers distractors.
        rowids: ``(rng, lo, hi, size) -> rowids`` of one batch.
        retry_failed_leads: a user who was loaded for the first need's type and gave no
            task also gets the second chance (any type) of the users skipped.
    """

    user_tries: int = 40
    lead_tries: int = 25
    user_draws: int = 400
    lead_draws: int = 400
    batches: int = 40
    batch_train: int = 6
    batch_test: int = 16
    preferred_batches: int = 6
    rowids: Callable[[np.random.Generator, int, int, int], list[int]] = random_rowids
    retry_failed_leads: bool = False


class ViewTaskKit(BaseTaskKit):
    """A kit whose samplers work on a loaded view of one user (``ctx.view``, which also
    keeps the constraints of one task apart). The task's size, its first need's type and
    whether it prefers distractors are drawn first; then users of the split, in batches
    of random rowids (then a scan), each loaded and given needs; the best task is kept.

    Args (besides :class:`BaseTaskKit`'s):
        view: ``(db, user_id) -> view``, the user context.
        may_lead: ``(db, kind, user_id) -> bool``, a cheap necessary condition for the
            first need's type (an SQL prefilter); a user failing it is not loaded.
        preferred: ``(db, user_id) -> bool``, users with distractors, drawn first when
            the task prefers them (``config.distractors``); ``None``: no preference.
        draws: :class:`UserDraws`.
        once: types drawn at most once per task.
        with_intent: ``(ctx, constraint) -> constraint`` applied to each drawn need.
    """

    def __init__(self, domain: str, samplers: Mapping[str, Sampler], *,
                 view: Callable[[sqlite3.Connection, str], Any],
                 may_lead: Callable[[sqlite3.Connection, str, str], bool] | None = None,
                 preferred: Callable[[sqlite3.Connection, str], bool] | None = None,
                 draws: UserDraws = UserDraws(), once: Sequence[str] = (),
                 with_intent: Callable[[SampleContext, Constraint], Constraint] | None = None,
                 **kit: Any):
        super().__init__(domain, samplers, **kit)
        self._view = view
        self._may_lead = may_lead
        self._preferred = preferred
        self.draws = draws
        self.once = frozenset(once)
        self._finish = with_intent

    # ---- hooks
    def may_lead(self, db: sqlite3.Connection, kind: str, user_id: str) -> bool:
        return self._may_lead is None or self._may_lead(db, kind, user_id)

    def preferred(self, db: sqlite3.Connection, user_id: str) -> bool:
        return self._preferred is None or self._preferred(db, user_id)

    def with_intent(self, ctx: SampleContext, c: Constraint) -> Constraint:
        return c if self._finish is None else self._finish(ctx, c)

    # ---- sampling
    def sample(self, db: sqlite3.Connection, rng: np.random.Generator, split: str,
               config: SamplerConfig, task_id: str) -> Task:
        types = self._checked_types(split, config)
        want = int(rng.integers(int(config.min_constraints), int(config.max_constraints) + 1))
        # The first need's type is drawn before the user, so that types that few users
        # can satisfy are not crowded out by the ones every user can.
        lead = types[int(rng.integers(len(types)))]
        prefer = bool(rng.random() < config.distractors)
        best: list = []  # [(user_id, identity, constraints)] once found

        def attempt(user_id: str, first: str | None) -> bool:
            """Draw needs for this user; True when the task is complete."""
            ctx = SampleContext(db, user_id, rng, config, view=self._view(db, user_id))
            constraints = self._draw(ctx, types, want, first)
            if not constraints or (best and len(constraints) <= len(best[0][2])):
                return False
            identity = self._identify(ctx)
            if identity is None:
                return False
            best[:] = [(user_id, identity, constraints)]
            return len(constraints) >= want

        self._try_users(db, rng, split, prefer, lead, attempt, lambda: bool(best))
        if not best:
            if db.execute(f'SELECT 1 FROM "{self.users_table}" LIMIT 1').fetchone() is None:
                raise ValueError("the database has no users")
            raise RuntimeError(f"no feasible {self.domain} task for split {split!r} "
                               f"with types {list(types)}")
        user_id, identity, constraints = best[0]
        return Task(id=task_id, domain=self.domain, split=split, user_id=user_id,
                    identity=identity, constraints=tuple(constraints))

    def _checked_types(self, split: str, config: SamplerConfig) -> tuple[str, ...]:
        if split not in ("train", "test"):
            raise ValueError(f"split must be 'train' or 'test', got {split!r}")
        types = tuple(config.types) if config.types else self.constraint_types
        unknown = [t for t in types if t not in self.samplers]
        if unknown:
            raise ValueError(f"unknown {self.domain} constraint types: {unknown}; "
                             f"known: {list(self.constraint_types)}")
        lo, hi = int(config.min_constraints), int(config.max_constraints)
        if lo < 1 or hi < lo:
            raise ValueError(f"need 1 <= min_constraints <= max_constraints, got {lo}, {hi}")
        return types

    def _try_users(self, db, rng, split, prefer, lead, attempt, found) -> None:
        """Offer users to ``attempt`` until one completes the task or the limits are hit;
        the users skipped for the first need's type then get a try with any type."""
        d = self.draws
        skipped: list[str] = []
        loads = 0
        for draw, user_id in enumerate(self._users(db, rng, split, prefer)):
            if loads >= d.user_tries or draw >= d.user_draws:
                return
            first = lead if loads < d.lead_tries and draw < d.lead_draws else None
            if first is not None and not self.may_lead(db, first, user_id):
                skipped.append(user_id)  # cannot satisfy the first need: not loaded
                continue
            loads += 1
            if attempt(user_id, first):
                return
            if d.retry_failed_leads and first is not None and not found():
                skipped.append(user_id)
        # Every user of the split was seen (a small database): let the users that could
        # not satisfy the first need's type try any type.
        for user_id in skipped[:d.user_tries]:
            if attempt(user_id, None):
                return

    def _users(self, db, rng, split, prefer) -> Iterator[str]:
        """Random users of ``split``, drawn by rowid in small batches (no table scan); with
        ``prefer`` the first batches yield only preferred users, the others after them."""
        d, table, column = self.draws, self.users_table, self.user_column
        size = d.batch_train if split == "train" else d.batch_test
        lo, hi = db.execute(f'SELECT (SELECT min(rowid) FROM "{table}"), '
                            f'(SELECT max(rowid) FROM "{table}")').fetchone()
        if lo is None:
            return
        seen: set[str] = set()
        deferred: list[str] = []
        for batch in range(d.batches):
            draws = d.rowids(rng, lo, hi, size)
            marks = ", ".join("?" * len(draws))
            found = dict(db.execute(f'SELECT rowid, "{column}" FROM "{table}" '
                                    f"WHERE rowid IN ({marks})", draws).fetchall())
            users: list[str] = []
            for rowid in draws:
                u = found.get(rowid)
                if u is not None and u not in seen and self.split_of(u) == split:
                    seen.add(u)
                    users.append(u)
            if prefer and batch < d.preferred_batches:
                for u in users:
                    if self.preferred(db, u):
                        yield u
                    else:
                        deferred.append(u)
                continue
            if deferred:
                users, deferred = deferred + users, []
            yield from users
        yield from deferred
        # Unlucky draws, sparse rowids or a tiny split: scan (rare).
        users = [u for (u,) in db.execute(f'SELECT "{column}" FROM "{table}" ORDER BY rowid')
                 if u not in seen and self.split_of(u) == split]
        yield from shuffled(rng, users)

    def _draw(self, ctx: SampleContext, types: Sequence[str], want: int,
              lead: str | None) -> list[Constraint]:
        pool = list(types)
        out: list[Constraint] = []
        if lead is not None:
            c = self.samplers[lead](ctx)
            if c is None:
                return out
            out.append(self.with_intent(ctx, c))
            if lead in self.once:
                pool.remove(lead)
        while len(out) < want and pool:
            k = int(ctx.rng.integers(len(pool)))
            c = self.samplers[pool[k]](ctx)
            if c is None or pool[k] in self.once:
                pool.pop(k)
            if c is not None:
                out.append(self.with_intent(ctx, c))
        return out
