"""User simulators. ``ScriptedUser`` is deterministic given its seed and the agent's words.

The scripted user holds the task's needs and reveals them one at a time (CoVe's
progressive user): it opens with the first need in fuzzy terms, answers identity
questions, says yes to a proposed write only when the proposal matches its current need
and declines otherwise, corrects the agent when a write hit the wrong entity, moves to the
next need once the current one holds in the database, and ends the conversation with a
stop marker when everything is done or when it has waited too long without progress.
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass, field
from typing import Protocol, Sequence

import numpy as np

from .tasks import Constraint, Task, TaskKit

STOP = "###STOP###"
TRANSFER = "###TRANSFER###"
OUT_OF_SCOPE = "###OUT-OF-SCOPE###"
STOP_MARKERS = (STOP, TRANSFER, OUT_OF_SCOPE)

_CONFIRMATION = re.compile(
    r"^\W*(yes|yeah|yep|yup|sure|ok(ay)?|correct|confirm(ed)?|please (do|proceed|go ahead)|"
    r"go ahead|that'?s (right|correct)|sounds good|affirmative)\b", re.IGNORECASE)
_NEGATION = re.compile(r"\b(no|not|don'?t|do not|wait|cancel that|stop)\b", re.IGNORECASE)
_PROPOSAL = re.compile(
    r"\b(confirm|proceed|go ahead|shall i|should i|would you like|do you want|can i|"
    r"may i|ok(ay)? to|is (that|this) (correct|right)|yes\b)", re.IGNORECASE)
_IDENTITY = re.compile(r"\b(e-?mail|zip|postal|your (full )?name|first name|last name|"
                       r"user[ _-]?id|identif|verify|authenticat|who (am i|are you))",
                       re.IGNORECASE)
_ID_LIKE = re.compile(r"#W\d{7}")


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


@dataclass
class UserStats:
    turns: int = 0
    confirmations: int = 0
    declines: int = 0
    corrections: int = 0
    identity_answers: int = 0
    gave_up: bool = False


@dataclass
class ScriptedUser:
    """A deterministic, seeded simulator of the task's user.

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

    def respond(self, message: str, writes: Sequence[tuple[str, str, str | None]] = ()) -> str:
        self.stats.turns += 1
        self.agent_messages.append(message)
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
                + self.kit.request(self.task, need, self.rng))
        proposal = bool(_PROPOSAL.search(message)) and not need.is_information
        # A proposal that matches the need is confirmed even when it uses words such as
        # "email" (the email domain) that would otherwise read as an identity question.
        if proposal and need.confirm_terms and mentions_all(message, need.confirm_terms):
            self.stats.confirmations += 1
            self._stalled = 0
            return self._pick(["Yes, please go ahead.", "Yes, that's right. Please do it.",
                               "Yes, I confirm."])
        if _IDENTITY.search(message) and self.stats.identity_answers <= 3:
            self.stats.identity_answers += 1
            return self._progress_or_give_up(self.kit.identify(self.task, self.rng))
        if proposal:
            self.stats.declines += 1
            mentioned = set(_ID_LIKE.findall(message))
            expected = {str(v) for v in need.args.values() if isinstance(v, str)}
            lead = ("No, that's not the right order. " if mentioned - expected
                    else "No, that's not quite what I want. ")
            return self._progress_or_give_up(lead + self.kit.request(self.task, need, self.rng))
        return self._progress_or_give_up(self.kit.request(self.task, need, self.rng))

    def _progress_or_give_up(self, text: str) -> str:
        self._stalled += 1
        if self._stalled > self.patience:
            self.stats.gave_up = True
            return self._finish("I don't think this is going anywhere. Goodbye.")
        return text

    def _pick(self, options: Sequence[str]) -> str:
        return options[int(self.rng.integers(len(options)))]
