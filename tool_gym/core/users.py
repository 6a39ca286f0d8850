"""User simulators. ``ScriptedUser`` is deterministic given its seed and the agent's words.

The scripted user holds the task's needs and reveals them one at a time (CoVe's
progressive user): it opens with the first need in fuzzy terms, answers identity
questions (only the fields asked for: :func:`identity_request`), reads any question that
asks for approval as a proposal and says yes only when it names exactly the intended
action, entity and parameters of its current need (:mod:`tool_gym.core.proposals`), asks
the agent to be specific when a proposal offers competing values, declines every other
proposal with the same words (its wish restated: the decline is no oracle), corrects the
agent when a write hit the wrong entity, moves to the next need once the current one holds
in the database, and ends the conversation with a stop marker when everything is done or
when it has waited too long without progress.
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass, field
from typing import Protocol, Sequence

import numpy as np

from .proposals import (Intent, Verdict, asks_approval, asks_information, judge,
                        need_texts)
from .task_model import Constraint, Task, TaskKit
from .values import canonical, extract

STOP = "###STOP###"
TRANSFER = "###TRANSFER###"
OUT_OF_SCOPE = "###OUT-OF-SCOPE###"
STOP_MARKERS = (STOP, TRANSFER, OUT_OF_SCOPE)
#: Characters of one agent message the user reads (a proposal or question is far shorter;
#: the bound keeps one reply's cost constant whatever the agent sends).
READ_LIMIT = 4000

_CONFIRMATION = re.compile(
    r"^\W*(yes|yeah|yep|yup|sure|ok(ay)?|correct|confirm(ed)?|please (do|proceed|go ahead)|"
    r"go ahead|that'?s (right|correct)|sounds good|affirmative)\b", re.IGNORECASE)
_NEGATION = re.compile(r"\b(no|not|don'?t|do not|wait|cancel that|stop)\b", re.IGNORECASE)
# Coarse keyword filters, kept for task synthesis (synth.chains), which avoids any message
# of its plans that might be read as a proposal or an identity question; the user itself
# reads messages with proposals.asks_approval and identity_request.
_PROPOSAL = re.compile(
    r"\b(confirm|proceed|go ahead|shall i|should i|would you like|do you want|can i|"
    r"may i|ok(ay)? to|is (that|this) (correct|right)|yes\b)", re.IGNORECASE)
_IDENTITY = re.compile(r"\b(e-?mail|zip|postal|your (full )?name|first name|last name|"
                       r"user[ _-]?id|identif|verify|authenticat|who (am i|are you))",
                       re.IGNORECASE)


def is_confirmation(text: str) -> bool:
    """An explicit yes: starts with an affirmative word and takes nothing back."""
    if not text:
        return False
    head = text.strip().split("\n", 1)[0]
    return bool(_CONFIRMATION.match(head)) and not _NEGATION.search(head.split(".", 1)[0][4:])


def has_stop_marker(text: str) -> bool:
    return any(marker in text for marker in STOP_MARKERS)


def mentions_all(message: str, groups: Sequence[Sequence[str]]) -> bool:
    """True when ``message`` mentions at least one term of every group (case-insensitive)."""
    low = message.lower()
    return all(any(term.lower() in low for term in group) for group in groups)


class User(Protocol):
    """What the environment needs of a user simulator."""

    def opening(self) -> str: ...

    def respond(self, message: str, writes: Sequence[tuple[str, str, str | None]]) -> str:
        """Reply to the agent's ``message``; ``writes`` are the successful writes since the
        previous reply as ``(tool, target id, owner)``."""

    @property
    def done(self) -> bool: ...

    def report(self) -> dict | None:
        """Counts of this episode for ``info["user_report"]`` (an LLM user's guardrails),
        or ``None`` when the user has nothing to report."""


@dataclass
class UserStats:
    turns: int = 0
    confirmations: int = 0
    declines: int = 0
    corrections: int = 0
    identity_answers: int = 0
    gave_up: bool = False


#: Identity fields a user may be asked for: field -> words that ask for it (canonical,
#: lowercase). A kit may declare its own as ``identity_asks`` (same shape).
IDENTITY_ASKS: dict[str, str] = {
    "email": r"e-?mail(?: address)?",
    "username": r"user ?name|login(?: name)?|handle",
    "name": r"(?<!user )(?<!user)(?:full |first |last )?names?\b(?! of\b)",
    "zip": r"zip(?: code)?|postal code|post ?code",
    "user_id": r"user ?id|customer (?:id|number)|member (?:id|number)|client id",
}
#: Identity fields of a task (``Task.identity.fields``) -> the ask field they answer.
_FIELD_ASK = {"email": "email", "username": "username", "first_name": "name",
              "last_name": "name", "zip": "zip", "user_id": "user_id"}
_FIELD_LABEL = {"email": "email address", "username": "username", "name": "name",
                "zip": "zip code", "user_id": "user id"}
_GENERIC_IDENTITY = re.compile(
    r"\b(?:verify|confirm|check) (?:your|the customer'?s?) (?:identity|account)\b|"
    r"\bidentify yourself\b|"
    r"\bauthenticate you\b|\bwho you are\b|\b(?:find|locate|look up|pull up|access) your "
    r"(?:account|profile|record)s?\b")
_REQUEST = re.compile(r"\?|^\W*(?:please|could|can|would|may|kindly|provide|tell|give|share|"
                      r"what|first|before)\b|\b(?:could|can|would|will) you\b|\bplease\b|"
                      r"\bi(?:'ll| will)? need\b")
_ASKED_ID = re.compile(
    r"\b(order|reservation|booking|confirmation|account|card|payment method|transaction|item|"
    r"product|ticket|issue|event|message|thread|deal|lead|contact|file|folder|channel|"
    r"restaurant)[ -]?(?:id|number|#|code)\b")


def _asks_pattern(words: str) -> re.Pattern:
    field = rf"(?:{words})(?: address)?"
    return re.compile(
        rf"\byour (?:[\w,']+ ){{0,5}}?(?:{words})|{field} (?:on|for|of|associated with|linked to|"
        rf"tied to|attached to|registered (?:to|with|under)|used (?:for|with|on)) (?:your|the) "
        rf"(?:\w+ ){{0,2}}?(?:account|profile|mailbox|app)|^\W*(?:and )?(?:the )?(?:{words})\W*\?|"
        rf"\b(?:what|which) (?:is|'s) the (?:{words})\b|{field} (?:that )?you(?:'ve| have)? "
        rf"(?:\w+ ){{0,2}}?(?:sign|log|use|registered|signed|set up)\b|{field} on (?:it|file)\b|"
        rf"\b(?:what|which) (?:\w+ )?{field} (?:do|did) you\b")


def _alternative(words: str) -> re.Pattern:
    """A field offered as the other half of "A or B" ("your email or the username")."""
    return re.compile(rf"(?:{words})(?: address)?,? or\b|\bor (?:the |your )?(?:\w+ )?(?:{words})\b")


def identity_request(message: str, asks: dict[str, str] | None = None) -> set[str] | None:
    """The identity fields ``message`` asks for (``{"any"}`` for a generic "verify your
    identity"), or ``None`` when it asks for none. A sentence that asks for approval is never
    an identity request ("Shall I forward the email to your manager?")."""
    asks = asks or IDENTITY_ASKS
    fields: set[str] = set()
    generic = False
    for s in re.findall(r"[^.?!\n]+[.?!]*", canonical(message or "")):
        if not _REQUEST.search(s) or asks_approval(s):
            continue
        asked = {f for f, words in asks.items() if _asks_pattern(words).search(s)}
        if asked:
            asked |= {f for f, words in asks.items() if _alternative(words).search(s)}
        fields |= asked
        if _GENERIC_IDENTITY.search(s):
            generic = True
    if fields:
        return fields
    return {"any"} if generic else None


@dataclass
class ScriptedUser:
    """A deterministic, seeded simulator of the task's user.

    It answers an identity request with what was asked (declared per kit as
    ``identity_asks``), reads any question asking for approval as a proposal and judges it
    with :func:`~tool_gym.core.proposals.judge` against the current need's intent: yes when
    it names exactly the intended action, entity and parameters; "be specific" when it
    offers competing values; otherwise one decline, identical for every wrong proposal, that
    restates the need in the user's own words. A question about an internal id it was not
    given gets "I don't know it"; any other question it cannot answer gets "what do you
    mean", and a statement gets its need restated.

    Args:
        task: the hidden intent.
        kit: the domain's task kit (phrasing and outcome checks).
        db: the episode's live database (read to see whether a need holds).
        rng: the only source of randomness (paraphrase choice).
        patience: agent messages without progress after which the user gives up.
    """

    task: Task
    kit: TaskKit
    db: sqlite3.Connection
    rng: np.random.Generator
    patience: int = 6
    agent_messages: list[str] = field(default_factory=list)
    stats: UserStats = field(default_factory=UserStats)
    _index: int = 0
    _stalled: int = 0
    _finished: bool = False
    _restated: dict = field(default_factory=dict)

    @property
    def current(self) -> Constraint | None:
        cs = self.task.constraints
        return cs[self._index] if self._index < len(cs) else None

    @property
    def done(self) -> bool:
        return self._finished

    @property
    def needs_met(self) -> int:
        return self._index

    def report(self) -> None:
        """A scripted user has no counts to report."""
        return None

    def opening(self) -> str:
        return self.kit.opening(self.task, self.task.constraints[0], self.rng)

    def _holds(self, constraint: Constraint) -> bool:
        return self.kit.check(self.db, self.task, constraint, self.agent_messages)

    def _advance(self) -> bool:
        """Skip past every need that holds now; True when at least one did."""
        moved = False
        while self.current is not None and self._holds(self.current):
            self._index += 1
            moved = True
        return moved

    def _finish(self, text: str) -> str:
        self._finished = True
        return f"{text} {STOP}"

    def _restatement(self, need: Constraint) -> str:
        """The user's wish for ``need``, drawn once: every decline of it uses these words."""
        if self._index not in self._restated:
            self._restated[self._index] = self.kit.request(self.task, need, self.rng)
        return self._restated[self._index]

    def respond(self, message: str, writes: Sequence[tuple[str, str, str | None]] = ()) -> str:
        self.stats.turns += 1
        message = message if isinstance(message, str) else ""
        self.agent_messages.append(message)
        message = message[:READ_LIMIT]  # what a person reads of one message
        wanted = {w for c in self.task.constraints for w in c.writes}
        wrong = [w for w in writes if (w[0], w[1]) not in wanted]
        if self._advance():
            self._stalled = 0
            if self.current is None:
                return self._finish(self._pick([
                    "That's everything, thank you!", "Great, that's all I needed. Thanks!",
                    "Perfect, thanks for your help."]))
            return self._pick(["Thanks. One more thing.", "Great. I have another request.",
                               "Thank you. There's something else."]) + " " + \
                self.kit.request(self.task, self.current, self.rng)
        need = self.current
        if need is None:  # nothing left (e.g. after a correction): end politely
            return self._finish("Thanks, that's all.")
        if wrong:
            self.stats.corrections += 1
            return self._progress_or_give_up(
                "Wait, that's not what I asked for; you changed the wrong thing. "
                + self._restatement(need))
        asked = identity_request(message, self.kit.identity_asks)
        if asked is not None and self.stats.identity_answers <= 3:
            self.stats.identity_answers += 1
            return self._progress_or_give_up(self._identify(asked))
        if asks_approval(message):
            return self._judge(message, need)
        if asks_information(message):
            unknown = _ASKED_ID.search(canonical(message))
            if unknown:
                if any(extract(d.text)["id"] for d in need.refs.values()):
                    return self._progress_or_give_up("As I said: " + self._restatement(need))
                return self._progress_or_give_up(
                    f"I'm sorry, I don't know the {unknown.group(1)} id. "
                    + self._restatement(need))
            return self._progress_or_give_up("I'm not sure what you mean. "
                                             + self.kit.request(self.task, need, self.rng))
        return self._progress_or_give_up(self.kit.request(self.task, need, self.rng))

    def _judge(self, message: str, need: Constraint) -> str:
        intent = intent_of(need)
        verdict = Verdict.NO if intent is None else judge(
            message, intent, need_texts(need, self.task.identity))
        if verdict is Verdict.YES:
            self.stats.confirmations += 1
            self._stalled = 0
            return self._pick(["Yes, please go ahead.", "Yes, that's right. Please do it.",
                               "Yes, I confirm."])
        self.stats.declines += 1
        if verdict is Verdict.VAGUE:
            return self._progress_or_give_up(
                "Please be specific about exactly what you will do. " + self._restatement(need))
        return self._progress_or_give_up("No, that's not what I want. " + self._restatement(need))

    def _identify(self, asked: set[str]) -> str:
        """The answer to an identity request: what was asked, when the user knows it."""
        fields = self.task.identity.fields
        known = {_FIELD_ASK[k] for k in fields if k in _FIELD_ASK}
        if "any" in asked or not (asked & known) or known <= asked:
            return self.kit.identify(self.task, self.rng)
        parts = []
        for ask in sorted(asked & known):
            if ask == "name":
                parts.append(f"my name is {fields.get('first_name', '')} "
                             f"{fields.get('last_name', '')}".rstrip())
            else:
                key = next(k for k in fields if _FIELD_ASK.get(k) == ask)
                parts.append(f"my {_FIELD_LABEL[ask]} is {fields[key]}")
        text = " and ".join(parts)
        return f"Sure, {text}."

    def _progress_or_give_up(self, text: str) -> str:
        self._stalled += 1
        if self._stalled > self.patience:
            self.stats.gave_up = True
            return self._finish("I don't think this is going anywhere. Goodbye.")
        return text

    def _pick(self, options: Sequence[str]) -> str:
        return options[int(self.rng.integers(len(options)))]


def intent_of(need: Constraint):
    """The need's declared intent, or one made from its ``confirm_terms``; ``None`` for a
    need nothing can be proposed for (information and refusal needs)."""
    declared = getattr(need, "intent", None)
    if declared is not None:
        return declared
    if need.is_information or not need.confirm_terms:
        return None
    return Intent.from_terms(need.confirm_terms)
