"""``LLMUser``: a user simulator written by a language model, held in check by code.

The full explanation is in ``docs/llm-user.md``.
"""

from __future__ import annotations

import re
import sqlite3
from collections import Counter
from typing import Any, Sequence

import numpy as np

from .task_model import Constraint, Task, TaskKit
from ..llm.template import register
from .users import STOP, ScriptedUser, has_stop_marker, is_confirmation

__all__ = ["GUARDRAILS", "LLMUser", "resolve_backend"]

GUARDRAILS = ("leaked_id", "new_need", "early_stop", "wrong_confirmation",
              "missed_confirmation", "missed_identity", "empty")

_TOKEN = re.compile(r"[#@\w][\w#@.\-]*\w|\w")
_SMALL_WORDS = frozenset({"info", "order", "orders", "item", "items", "user", "users", "the",
                          "details", "with", "from", "processed"})

SYSTEM_PROMPT = """\
You are a customer contacting the support agent of an online service. Stay in character \
and write only your own next message: one to three short sentences, plain text.
{persona}\
How you identify yourself: {identity}. Give these details only when the agent asks.
What you want now: {need}
{later}\
Rules:
- Never make up order numbers, item ids, payment ids or any other id. Refer to things in \
your own words, as above, or repeat an id the agent told you.
- Ask only for what is written above.
- Say yes only when the agent proposes exactly what you want; otherwise say no and \
explain again what you want.
- When everything you want is done, thank the agent and end your message with {stop}. \
Never write {stop} before that.
{hint}"""


@register("user.reply")
def _template_reply(messages: list, context: dict, rng: np.random.Generator) -> str:
    """The offline template backend's user: the scripted user's reply."""
    return str(context.get("suggested", ""))


def resolve_backend(spec: Any, **kw: Any) -> Any:
    """A backend from a spec: an object with ``generate`` is used as it is; ``"hf:PATH"``
    loads a local model (:class:`~tool_gym.llm.transformers_backend.TransformersBackend`);
    other specs (``"template"``, ``"openai:URL#MODEL"``) go to
    :func:`tool_gym.llm.make_backend` with ``kw`` (for ``openai:``: ``api_key_env``,
    ``temperature``, ``max_tokens``). A bad spec raises ``ValueError`` with one line."""
    if callable(getattr(spec, "generate", None)):
        return spec
    if isinstance(spec, str) and spec.startswith("hf:"):
        from ..llm.transformers_backend import TransformersBackend

        return TransformersBackend(spec[3:])
    if isinstance(spec, str):
        from ..llm import make_backend

        return make_backend(spec, **kw)
    raise ValueError(f"user_llm={spec!r}: give a backend with generate(messages, **kw) -> str, "
                     f"'hf:PATH' (a local model), 'template' or 'openai:URL#MODEL'")


def _strings(value: Any, out: set[str]) -> None:
    if isinstance(value, str):
        out.add(value)
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        out.add(str(value))
    elif isinstance(value, dict):
        for v in value.values():
            _strings(v, out)
    elif isinstance(value, (list, tuple)):
        for v in value:
            _strings(v, out)


def _id_like(token: str) -> bool:
    digits = sum(c.isdigit() for c in token)
    return (digits >= 4 and len(token) >= 6) or bool(re.search(r"[A-Za-z]_\w*\d", token)) \
        or (token.startswith("#") and digits >= 3)


class LLMUser:
    """A language-model user with code guardrails and a scripted fallback.

    Args:
        task / kit / db / rng: as for :class:`~tool_gym.core.users.ScriptedUser`.
        backend: anything with ``generate(messages, **kw) -> str`` (or a spec for
            :func:`resolve_backend`).
        patience: agent messages without progress after which the user gives up.
        max_attempts: samples per message before the scripted reply is used.
        temperature / max_new_tokens: passed to the backend.
        hint: show the model the scripted user's reply as a suggestion.
    """

    def __init__(self, task: Task, kit: TaskKit, db: sqlite3.Connection,
                 rng: np.random.Generator, backend: Any, patience: int = 6,
                 max_attempts: int = 3, temperature: float = 0.7, max_new_tokens: int = 96,
                 hint: bool = True):
        self.task, self.kit, self.db, self.rng = task, kit, db, rng
        self.backend = resolve_backend(backend)
        self.max_attempts = max(1, int(max_attempts))
        self.temperature = temperature
        self.max_new_tokens = max_new_tokens
        self.hint = hint
        script_rng, self._phrase_rng = rng.spawn(2) if hasattr(rng, "spawn") else \
            (np.random.default_rng(rng.integers(2**63)), np.random.default_rng(
                rng.integers(2**63)))
        self.script = ScriptedUser(task, kit, db, script_rng, patience=patience)
        self.counts: Counter = Counter()
        self.history: list[dict] = []  # the simulator's view: agent = "user", itself = "assistant"
        self.agent_messages: list[str] = []
        self._requests: dict[int, str] = {}
        self._identity = kit.identify(task, self._phrase_rng)
        hidden: set[str] = {task.user_id}
        for constraint in task.constraints:
            _strings(constraint.args, hidden)
            for ref in constraint.refs.values():
                _strings(ref.value, hidden)
        _strings(task.identity.value, hidden)
        self._hidden = {h for h in hidden if len(h) >= 3}
        own = set()
        for t in {c.type for c in task.constraints}:
            own.update(t.split("_"))
        other = set()
        for t in kit.constraint_types:
            other.update(w for w in str(t).split("_") if len(w) >= 4)
        self._need_words = sorted(other - own - _SMALL_WORDS)

    # ------------------------------------------------------------------ User protocol
    @property
    def done(self) -> bool:
        return self.script.done

    def opening(self) -> str:
        scripted = self.kit.opening(self.task, self.task.constraints[0], self._phrase_rng)
        self.history.append({"role": "user", "content": "Hello! How can I help you today?"})
        return self._reply(scripted, decision=None)

    def respond(self, message: str, writes: Sequence[tuple[str, str, str | None]] = ()) -> str:
        stats = self.script.stats
        before = (stats.declines, stats.confirmations, stats.identity_answers)
        scripted = self.script.respond(message, writes)
        self.agent_messages.append(str(message))
        self.history.append({"role": "user", "content": str(message)})
        decision = "decline" if stats.declines > before[0] else \
            "confirm" if stats.confirmations > before[1] else \
            "identify" if stats.identity_answers > before[2] else None
        return self._reply(scripted, decision=decision)

    def report(self) -> dict:
        """Counts of this episode: messages, model messages, resamples, fallbacks, and how
        often each guardrail fired."""
        keys = ("messages", "llm_messages", "resamples", "fallback", "backend_error",
                *GUARDRAILS)
        return {k: int(self.counts.get(k, 0)) for k in keys}

    # ------------------------------------------------------------------ internals
    def _request_text(self, index: int, constraint: Constraint) -> str:
        if index not in self._requests:
            self._requests[index] = self.kit.request(self.task, constraint, self._phrase_rng)
        return self._requests[index]

    def _current_request(self) -> str | None:
        need = self.script.current
        if self.script.done or need is None:
            return None
        return self._request_text(self.task.constraints.index(need), need)

    def _system(self, scripted: str) -> str:
        persona = self.task.persona or {}
        persona_text = ""
        if persona:
            persona_text = "About you: " + "; ".join(f"{k}: {v}" for k, v in persona.items()
                                                     if v not in (None, "")) + ".\n"
        need = self.script.current
        if self.script.done or need is None:
            need_text = ("nothing more: your requests are handled (or you have given up). "
                         f"Say goodbye and end with {STOP}.")
            later = ""
        else:
            index = self.task.constraints.index(need)
            need_text = self._request_text(index, need)
            remaining = len(self.task.constraints) - index - 1
            later = ("You will have another request afterwards; do not mention it yet.\n"
                     if remaining else "")
        hint = f"A fitting reply would be: {scripted}\n" if self.hint else ""
        return SYSTEM_PROMPT.format(persona=persona_text, identity=self._identity,
                                    need=need_text, later=later, stop=STOP, hint=hint)

    def _known_text(self, scripted: str) -> str:
        parts = [self._identity, scripted, *self._requests.values(), *self.agent_messages,
                 str(self.task.persona or "")]
        parts += [str(v) for v in self.task.identity.fields.values()]
        return "\n".join(parts).lower()

    def check(self, text: str, scripted: str, decision: str | None = None) -> str | None:
        """The first guardrail ``text`` breaks, or ``None``. ``decision`` is the scripted
        user's reaction to the agent's message: a verdict on a proposal (``"confirm"``,
        ``"decline"``), an identity answer (``"identify"``) or ``None``."""
        if not text.strip() or not text.replace(STOP, "").strip():
            return "empty"
        known = self._known_text(scripted)
        low = text.lower()
        for value in self._hidden:
            if value.lower() in low and value.lower() not in known:
                return "leaked_id"
        for token in _TOKEN.findall(text):
            token = token.strip(".-")
            if _id_like(token) and token.lower() not in known:
                return "leaked_id"
        for word in self._need_words:
            if re.search(rf"\b{re.escape(word)}", low) and not re.search(
                    rf"\b{re.escape(word)}", known):
                return "new_need"
        if has_stop_marker(text) and not self.script.done:
            return "early_stop"
        if decision == "decline" and is_confirmation(text):
            return "wrong_confirmation"
        if decision == "confirm" and not is_confirmation(text):
            return "missed_confirmation"
        if decision == "identify" and not all(
                v in low for v in self._asked_identity(scripted)):
            return "missed_identity"
        return None

    def _asked_identity(self, scripted: str) -> list[str]:
        """The identity values an answer must give: those the scripted answer gives (the
        user answers only the fields the agent asked for); all of them when it gives none
        of them verbatim."""
        values = [str(v).lower() for v in self.task.identity.fields.values()
                  if str(v).strip()]
        given = [v for v in values if v in scripted.lower()]
        return given or values

    def _reply(self, scripted: str, decision: str | None) -> str:
        self.counts["messages"] += 1
        messages = [{"role": "system", "content": self._system(scripted)}, *self.history]
        text = None
        for attempt in range(self.max_attempts):
            if attempt:
                self.counts["resamples"] += 1
            try:
                candidate = self.backend.generate(
                    messages, temperature=self.temperature, max_tokens=self.max_new_tokens,
                    seed=int(self.rng.integers(2**31)), template="user.reply",
                    context={"suggested": scripted, "need": self._current_request()})
            except Exception:  # noqa: BLE001 - any backend failure falls back to the script
                self.counts["backend_error"] += 1
                break
            candidate = str(candidate or "").strip()
            broken = self.check(candidate, scripted, decision)
            if broken is None:
                text = candidate
                self.counts["llm_messages"] += 1
                break
            self.counts[broken] += 1
        if text is None:
            self.counts["fallback"] += 1
            text = scripted
        if self.script.done and not has_stop_marker(text):
            text = f"{text} {STOP}"
        self.history.append({"role": "assistant", "content": text})
        return text
