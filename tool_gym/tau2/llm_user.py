"""``Tau2LLMUser``: tau2-bench's own language-model user, for tau2 tasks (``user="llm"``).

The model plays the task's full ``user_scenario`` as tau2's ``UserSimulator`` does: a
system prompt of simulation guidelines followed by the scenario (persona, then the
instructions: domain, reason for call, known info, unknown info, task instructions), and
the conversation with roles flipped (the agent's messages are the model's ``"user"``
turns, the simulated customer's own messages its ``"assistant"`` turns). As in tau2's
orchestrator, the agent speaks first with "Hi! How can I help you today?" and the model
writes the customer's first message in reply.

The conversation ends when the model writes a stop marker (``###STOP###``,
``###TRANSFER###``, ``###OUT-OF-SCOPE###``), after ``max_turns`` customer messages (the
last one gets ``###STOP###``), or when the backend fails: the customer then says
``###STOP###`` and :meth:`Tau2LLMUser.report` counts the error. Nothing here raises
during an episode and nothing reads tau2's files at run time (tau2 may be absent).
"""

from __future__ import annotations

import re
import sqlite3
import textwrap
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..core.llm_user import resolve_backend
from ..core.task_model import Task, TaskKit
from ..core.users import OUT_OF_SCOPE, READ_LIMIT, STOP, TRANSFER, has_stop_marker

__all__ = ["AGENT_GREETING", "GUIDELINES", "Tau2LLMUser", "render_scenario", "system_prompt"]

#: tau2's orchestrator opens every conversation with this agent message
#: (``tau2/orchestrator/orchestrator.py``, ``DEFAULT_FIRST_AGENT_MESSAGE``).
AGENT_GREETING = "Hi! How can I help you today?"

#: Our own wording of tau2's user-simulation guidelines, same rules
#: (source: tau2-bench, ``data/tau2/user_simulator/simulation_guidelines.md``).
GUIDELINES = f"""\
# How to play the customer
You are a customer talking to a customer service agent. Act like a real customer would, \
and follow the scenario you are given below.

## Principles
- Write a single message at a time, as one turn of a natural conversation.
- Keep strictly to the scenario's instructions.
- Do not invent any information the scenario does not give you. Treat anything it does \
not state as something you do not know or do not have.
- Do not copy the instructions word for word; say the same things in your own, natural \
words.
- Reveal information a little at a time: do not give everything at once, and wait for \
the agent to ask for a detail before you give it.

## Ending the conversation
- Keep talking until your task is done.
- Once the goal in your instructions is met, write {STOP} to end the conversation.
- If you are transferred to another agent, write {TRANSFER} to say so.
- If the scenario does not give you enough information to go on, write {OUT_OF_SCOPE} to \
end the conversation.

Above all, make the conversation realistic and natural, keep to the instructions and stay \
in character."""

#: Order and labels of tau2's ``StructuredUserInstructions.__str__``: (key, label, optional).
_INSTRUCTION_FIELDS = (("reason_for_call", "Reason for call", False),
                       ("known_info", "Known info", True),
                       ("unknown_info", "Unknown info", True),
                       ("task_instructions", "Task instructions", False))
_THINK = re.compile(r"<think>.*?</think>", re.DOTALL)


def _render_instructions(instructions: Any) -> str:
    """The instructions as tau2 prints them: ``Domain: ...`` then each part under its label,
    indented by a tab; optional parts that are absent are left out. A plain string (tau2's
    other form of instructions) is used as it is."""
    if not isinstance(instructions, dict):
        return str(instructions or "")
    lines = [f"Domain: {instructions.get('domain', '')}"]
    for key, label, optional in _INSTRUCTION_FIELDS:
        value = instructions.get(key)
        if value is None and optional:
            continue
        body = textwrap.indent(str(value or ""), "\t")
        lines.append(f"{label}:\n{body}")
    return "\n".join(lines)


def render_scenario(scenario: dict) -> str:
    """A tau2 ``user_scenario`` dict as tau2's ``UserScenario.__str__`` prints it: the
    persona (when there is one), then the instructions, each indented by a tab."""
    lines = []
    persona = scenario.get("persona")
    if persona is not None:
        lines += ["Persona:", textwrap.indent(str(persona), "\t")]
    lines += ["Instructions:",
              textwrap.indent(_render_instructions(scenario.get("instructions")), "\t")]
    return "\n".join(lines)


def system_prompt(scenario: dict) -> str:
    """The simulator's system prompt: the guidelines, then the scenario in ``<scenario>``
    tags (the layout of tau2's ``user_simulator.SYSTEM_PROMPT``)."""
    return f"{GUIDELINES}\n\n<scenario>\n{render_scenario(scenario)}\n</scenario>"


def _visible(text: str) -> str:
    """The reply without reasoning: complete ``<think>`` blocks, and anything before a
    stray ``</think>``, are removed."""
    text = _THINK.sub("", text)
    if "</think>" in text:
        text = text.rsplit("</think>", 1)[1]
    return text.strip()


class Tau2LLMUser:
    """A language model playing a tau2 task's ``user_scenario``, as tau2 does.

    Args:
        task: a tau2 task; ``task.persona["tau2"]`` holds tau2's raw ``user_scenario``.
        kit / db: unused (the model sees only the scenario), kept for the user protocol.
        rng: draws the ``seed`` sent with each call.
        backend: anything with ``generate(messages, **kw) -> str`` (or a spec for
            :func:`~tool_gym.core.llm_user.resolve_backend`).
        max_turns: customer messages after which the conversation ends.
        temperature / max_new_tokens: sampling settings sent to the backend.
    """

    def __init__(self, task: Task, kit: TaskKit | None, db: sqlite3.Connection | None,
                 rng: np.random.Generator, backend: Any, max_turns: int = 30,
                 temperature: float = 0.0, max_new_tokens: int | None = None):
        scenario = (task.persona or {}).get("tau2")
        if not isinstance(scenario, dict):
            raise ValueError(  # noqa: TRY004 - a task without a scenario is a wrong value
                f"task {task.id}: persona['tau2'] must hold tau2's user_scenario")
        self.task, self.kit, self.db, self.rng = task, kit, db, rng
        self.backend = resolve_backend(backend)
        self.max_turns = max(1, int(max_turns))
        self.temperature = temperature
        self.max_new_tokens = max_new_tokens
        self.system = system_prompt(scenario)
        # the model's view: the agent is "user", the simulated customer "assistant"
        self.history: list[dict] = []
        self.turns = 0
        self.backend_errors = 0
        self._done = False

    # ------------------------------------------------------------------ User protocol
    @property
    def done(self) -> bool:
        return self._done

    def opening(self) -> str:
        return self._reply_to(AGENT_GREETING)

    def respond(self, message: str, writes: Sequence[tuple[str, str, str | None]] = ()) -> str:
        """The customer's reply to the agent's ``message`` (its first ``READ_LIMIT``
        characters); ``writes`` are not shown to the model (tau2's user does not see the
        agent's tools)."""
        if self._done:
            return STOP
        return self._reply_to(str(message or "")[:READ_LIMIT])

    def report(self) -> dict:
        """Counts of this episode: customer messages and backend failures."""
        return {"backend_errors": self.backend_errors, "turns": self.turns}

    # ------------------------------------------------------------------ internals
    def _sampling(self) -> dict:
        kw: dict[str, Any] = {"temperature": self.temperature,
                              "seed": int(self.rng.integers(2**31))}
        if self.max_new_tokens is not None:
            kw["max_tokens"] = self.max_new_tokens
        return kw

    def _reply_to(self, agent_text: str) -> str:
        self.history.append({"role": "user", "content": agent_text})
        messages = [{"role": "system", "content": self.system}, *self.history]
        try:
            text = _visible(str(self.backend.generate(messages, **self._sampling()) or ""))
        except Exception:  # noqa: BLE001 - any backend failure ends the episode cleanly
            self.backend_errors += 1
            text = STOP
        self.turns += 1
        if has_stop_marker(text):
            self._done = True
        elif self.turns >= self.max_turns:
            text = f"{text} {STOP}".strip()
            self._done = True
        self.history.append({"role": "assistant", "content": text})
        return text
