"""Tasks as in CoVe: a hidden intent of constraints sampled from the live database.

A :class:`Task` is what one episode is about: a user (who identifies themself by a fuzzy
description), and one or more :class:`Constraint` objects, each a need of that user whose
concrete values (ids) stay hidden from the agent. Every id the user would not know is
replaced by a :class:`Description` that was proven, by a query at sampling time, to pick
exactly one entity; the proof is kept on the description.

What a domain contributes is a :class:`TaskKit`: it samples tasks, checks each constraint
against a final database by outcome, phrases the user's requests and proposes the
reference (oracle) solution. The core's environment, user simulator and verifier work only
through that protocol.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, Sequence

import numpy as np

from .actions import ToolCall
from .proposals import Intent

if TYPE_CHECKING:
    from .grounding import EpisodeLog
    from .prove import GroundTruthCall
    from .users import User
    from .verify import PolicyMonitor, Verification


@dataclass(frozen=True)
class Proof:
    """A query that returned exactly one row when the task was made."""

    query: str
    params: tuple
    result: tuple

    def holds(self, db: sqlite3.Connection) -> bool:
        rows = db.execute(self.query, self.params).fetchall()
        return len(rows) == 1 and tuple(rows[0]) == tuple(self.result)


@dataclass(frozen=True)
class Description:
    """A fuzzy reference to one entity, in words the user would use.

    ``fields`` holds the same reference in structured form (e.g. ``{"items": ["Desk Lamp"]}``)
    so that it can be resolved independently of the query in ``proof``.
    """

    entity: str  # "user", "order", "item", "payment_method", "address", ...
    text: str
    fields: dict
    value: Any  # the hidden id (or value) it resolves to
    proof: Proof | None = None


@dataclass(frozen=True)
class Expectation:
    """An outcome check: ``query`` with ``params`` must return exactly ``rows`` at the end."""

    query: str
    params: tuple
    rows: tuple

    def holds(self, db: sqlite3.Connection) -> bool:
        return tuple(map(tuple, db.execute(self.query, self.params).fetchall())) == \
            tuple(map(tuple, self.rows))


@dataclass(frozen=True)
class PlanStep:
    """One step of the reference solution: a tool call, or a message to the user.

    ``expects_confirmation`` marks a message that proposes a write and waits for a "yes".
    """

    call: ToolCall | None = None
    say: str | None = None
    expects_confirmation: bool = False


@dataclass(frozen=True)
class Refusal:
    """What earns a refusal (see :mod:`tool_gym.core.grounding`): the records that make the
    request ineligible (a successful read must have named each before the refusal, and no
    successful write may name one; ``(tool, id)``: a read of that tool naming the id),
    and optionally the only write tools that count.

    ``about``: the forms that address the request (each a string, or a tuple of strings
    that must all appear, as in :attr:`tool_gym.core.proposals.Param.forms`): the record
    (its id, the words that describe it in tool results) and the blocking fact in its
    common wordings. When given, a refusal must name at least one of them; empty: no
    such requirement."""

    records: tuple = ()
    tools: tuple[str, ...] = ()
    about: tuple = ()


@dataclass(frozen=True)
class Constraint:
    """One need of the user.

    Attributes:
        type: constraint type name, e.g. ``"cancel_order"``.
        args: the hidden concrete intent (ids and values).
        refs: fuzzy descriptions of the values in ``args`` the user would not know, by role.
        writes: ``(tool, target id)`` pairs of the writes this need requires; a successful
            write matching none of them is redundant.
        confirm_terms: groups of alternative strings; a proposal matches this need when it
            mentions at least one string of every group (case-insensitive).
        answer: for information requests, the value an agent message must contain.
        say: the user's words for this need (paraphrases, fuzzy terms only); used by
            :class:`~tool_gym.core.taskkit.RuleTaskKit`, which needs no phrasing code.
        solution: the reference steps for this need (reads, proposal, write, closing).
        expect: outcome checks on the final database (all must hold).
        evidence: for an answer the agent must compute (a count, a sum): the ids of the
            records whose reads ground it (each named by a successful read before the
            answer); empty: a tool result must have shown the answer itself.
        refusal: for a request the agent must refuse: the records that make it
            ineligible (:class:`Refusal`); ``answer`` then only marks it as a
            non-write need.
        intent: what a proposal must name to be confirmed, structurally (the action, each
            parameter's accepted forms and its rivals, roles; see
            :mod:`tool_gym.core.proposals`); ``None``: made from ``confirm_terms``.
    """

    type: str
    args: dict
    refs: dict[str, Description] = field(default_factory=dict)
    writes: tuple[tuple[str, str], ...] = ()
    confirm_terms: tuple[tuple[str, ...], ...] = ()
    answer: str | None = None
    say: tuple[str, ...] = ()
    solution: tuple[PlanStep, ...] = ()
    expect: tuple[Expectation, ...] = ()
    intent: Intent | None = None
    evidence: tuple = ()
    refusal: Refusal | None = None

    @property
    def is_information(self) -> bool:
        return self.answer is not None


@dataclass(frozen=True)
class Task:
    """The hidden intent of one episode."""

    id: str
    domain: str
    split: str
    user_id: str
    identity: Description
    constraints: tuple[Constraint, ...]
    persona: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> "Task":
        def description(d: dict) -> Description:
            proof = d.get("proof")
            if proof is not None:
                proof = Proof(proof["query"], tuple(proof["params"]), tuple(proof["result"]))
            return Description(d["entity"], d["text"], d["fields"], d["value"], proof)

        def step(d: dict) -> PlanStep:
            call = d.get("call")
            if call is not None:
                call = ToolCall(call["name"], call["arguments"], call.get("id"))
            return PlanStep(call, d.get("say"), d.get("expects_confirmation", False))

        constraints = tuple(
            Constraint(
                type=c["type"], args=c["args"],
                refs={k: description(v) for k, v in c.get("refs", {}).items()},
                writes=tuple(tuple(w) for w in c.get("writes", ())),
                confirm_terms=tuple(tuple(g) for g in c.get("confirm_terms", ())),
                answer=c.get("answer"),
                say=tuple(c.get("say", ())),
                solution=tuple(step(s) for s in c.get("solution", ())),
                expect=tuple(Expectation(e["query"], tuple(e["params"]),
                                         tuple(tuple(r) for r in e["rows"]))
                             for e in c.get("expect", ())),
                intent=Intent.from_dict(c.get("intent")),
                evidence=tuple(c.get("evidence", ())),
                refusal=None if c.get("refusal") is None else Refusal(
                    tuple(tuple(r) if isinstance(r, list) else r
                          for r in c["refusal"].get("records", ())),
                    tuple(c["refusal"].get("tools", ())),
                    tuple(tuple(f) if isinstance(f, list) else f
                          for f in c["refusal"].get("about", ()))),
            )
            for c in data["constraints"]
        )
        return cls(data["id"], data["domain"], data["split"], data["user_id"],
                   description(data["identity"]), constraints, data.get("persona", {}))

    @property
    def digest(self) -> str:
        """sha256 of the task's canonical JSON."""
        return hashlib.sha256(json.dumps(self.to_dict(), sort_keys=True,
                                         default=list).encode()).hexdigest()


@dataclass(frozen=True)
class SamplerConfig:
    """Difficulty knobs of task sampling.

    Attributes:
        min_constraints / max_constraints: how many needs one task has.
        fuzziness: probability that an id the user might know (an order id) is replaced
            by a description; ids the user cannot know are always described.
        distractors: probability of preferring a user with similar orders and items.
        types: restrict to these constraint types (``None``: all of the domain's).
    """

    min_constraints: int = 1
    max_constraints: int = 3
    fuzziness: float = 1.0
    distractors: float = 0.5
    types: tuple[str, ...] | None = None


class TaskKit(Protocol):
    """What a domain provides for hidden-intent tasks.

    The optional hooks at the end have defaults; a kit that subclasses ``TaskKit``
    explicitly inherits them, and callers call them directly."""

    #: Constraint types this domain can sample.
    constraint_types: tuple[str, ...]
    #: Tools whose successful result (a user id) authenticates that user.
    auth_tools: tuple[str, ...]
    #: What the agent's identity questions ask for (shape of
    #: :data:`tool_gym.core.users.IDENTITY_ASKS`); ``None``: the core's.
    identity_asks: dict[str, str] | None = None

    def split_of(self, user_id: str) -> str:
        """``"train"`` or ``"test"``, by a stable hash of the user id."""

    def sample(self, db: sqlite3.Connection, rng: np.random.Generator, split: str,
               config: SamplerConfig, task_id: str) -> Task:
        """Draw one feasible, conflict-free task for one user of ``split``."""

    def check(self, db: sqlite3.Connection, task: Task, constraint: Constraint,
              agent_messages: Sequence[str]) -> bool:
        """Whether ``constraint`` holds in the final database (by outcome)."""

    def owner(self, db: sqlite3.Connection, tool: str, arguments: dict) -> str | None:
        """The user whose data a write call acts on, or ``None`` when it names none."""

    def opening(self, task: Task, constraint: Constraint, rng: np.random.Generator) -> str:
        """The user's first message: the first need, in fuzzy terms."""

    def request(self, task: Task, constraint: Constraint, rng: np.random.Generator) -> str:
        """The user's message stating (or restating) a need, in fuzzy terms."""

    def identify(self, task: Task, rng: np.random.Generator) -> str:
        """The user's answer to an identity question."""

    def plan(self, task: Task) -> list[PlanStep]:
        """The reference solution through the text interface (authentication included)."""

    # ---------------------------------------------------------- optional hooks (defaults)
    def policy_violations(self, db: sqlite3.Connection, tool: str,
                          arguments: dict) -> list[str]:
        """Called before a schema-valid WRITE runs, on the state it would change: the
        domain rules (policy-only, not enforced by the tool) that the write would break.
        Each returned name counts as a violation if the write then succeeds."""
        return []

    def tool_schemas(self, task: Task) -> list[dict] | None:
        """The task's own tool list; ``None``: the domain's toolbox."""
        return None

    def explain(self, db: sqlite3.Connection, task: Task, constraint: Constraint,
                agent_messages: Sequence[str]) -> str | None:
        """Why ``constraint`` does not hold, in a short line (called only where
        :meth:`check` said it does not, for ``Verification.constraints[i]["reason"]``;
        never read by the score). Kits word it as ``"not communicated: ..."`` or ``"not
        grounded: ..."`` for the message part of a need, ``"outcome check failed: ..."``
        for the final database. ``None``: no reason given."""
        return None

    def ground_truth(self, task: Task) -> list[GroundTruthCall] | None:
        """The task's ground-truth calls for PROVE; ``None``: those of :meth:`plan`."""
        return None

    def verify(self, task: Task, db: sqlite3.Connection, agent_messages: Sequence[str],
               monitor: PolicyMonitor, ended: str, log: EpisodeLog) -> Verification | None:
        """The kit's own verification rule; ``None``: the core's
        (:func:`tool_gym.core.verify.verify`)."""
        return None

    def scripted_user(self, task: Task, db: sqlite3.Connection, rng: np.random.Generator,
                      patience: int) -> User | None:
        """The kit's own scripted user; ``None``: :class:`tool_gym.core.users.ScriptedUser`."""
        return None
