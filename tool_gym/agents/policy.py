"""Policies: what plays the agent's side of a ``tool_gym`` episode.

A policy sees exactly what an LLM would: the observation text and the ``info`` dict
(``info["tools"]`` holds the OpenAI tool schemas, ``info["policy"]`` the domain's rules).
It returns the raw action for the env: model text (Hermes ``<tool_call>`` blocks or a
message to the user) or an OpenAI-style message dict.

``load_policy(spec)`` turns a command-line string into a policy:

- ``"oracle"``: :class:`~tool_gym.agents.oracle.OraclePolicy` (solves the hidden task; the only spec
  granted the privileged access of :mod:`tool_gym.agents.privileged`),
- ``"random"``: :class:`RandomPolicy`,
- ``"module:Class"``: imports ``module`` and instantiates ``Class()`` (never privileged),
- ``"hf:PATH"``: :class:`~tool_gym.agents.transformers_policy.TransformersPolicy` (a local model),
- ``"openai:URL#MODEL"``: :class:`~tool_gym.agents.openai_policy.OpenAIPolicy` (an
  OpenAI-compatible server).
"""

from __future__ import annotations

import importlib
import json
import re
import zlib
from typing import Any, Protocol, runtime_checkable

import numpy as np

from tool_gym.core.actions import ToolCall


@runtime_checkable
class Policy(Protocol):
    """The agent's side of an episode.

    ``reset`` is called once per episode with the first observation (the user's opening
    message) and the reset ``info``: what an LLM agent sees, never the env (the reference
    oracle, which needs the hidden task, is a :class:`~tool_gym.agents.privileged.PrivilegedPolicy`
    started by the episode loop instead). ``act`` returns the next raw action, which the
    env parses (:func:`tool_gym.core.actions.parse_action`) and never evaluates:

    - a ``str``: tool calls as Hermes ``<tool_call>{"name": ..., "arguments": {...}}
      </tool_call>`` blocks, bare JSON call objects or Python call syntax with literal
      arguments (``get_order_details(order_id="#W1")``); any other text is a message to
      the user (empty text is an error the agent is told about);
    - a ``dict``: an OpenAI assistant message (``{"content": ..., "tool_calls": [...]}``)
      or one call ``{"name": ..., "arguments": {...}}``;
    - a :class:`~tool_gym.core.actions.ToolCall`, or a list of them.

    A policy run in its own process (``module:Class``, :mod:`tool_gym.agents.isolation`)
    must return JSON data (a ``str`` or ``dict``) or ``ToolCall`` objects.

    For resumable, reproducible evaluations a policy's behaviour in an episode must be a
    function of that episode only: ``reset`` must clear any state left by earlier episodes
    (and reseed any randomness from the episode).
    """

    def reset(self, observation: str, info: dict) -> None:
        ...

    def act(self, observation: str, info: dict) -> str | dict:
        ...


# ---------------------------------------------------------------------------- random

_MESSAGES = (
    "Hello, how can I help you today?",
    "Could you tell me your email address?",
    "What is your name and zip code?",
    "Which order do you mean?",
    "Let me look into that.",
    "Done.",
    "Sorry, I cannot help with that.",
    "Is there anything else I can help you with?",
    "Can you confirm that?",
    "ok",
)
_WORDS = ("order", "item", "refund", "please", "yes", "no", "address", "cancel", "the",
          "exchange", "payment", "status", "user", "thanks", "help", "return")
_LETTERS = "abcdefghijklmnopqrstuvwxyz"
_TOKEN = re.compile(r"[#\w@.\-]{3,40}")


class RandomPolicy:
    """A policy that acts at random, as a floor for every metric.

    Each action is, with probability ``1 - message_prob``, one tool call in Hermes format:
    a tool drawn uniformly from ``info["tools"]``, every required argument and each
    optional one with probability 1/2, values drawn from the parameter's JSON schema
    (enums, random strings, numbers, booleans, short arrays) or, with probability
    ``seen_prob``, a value seen in an earlier observation (an id, an email, a JSON value
    from a tool result). Otherwise it is a short random message to the user.

    Deterministic: the generator is reseeded at every ``reset`` from ``seed``, the task id
    and the opening message (which the env draws from the episode's reset seed), so an
    episode's actions do not depend on which episodes ran before it.
    """

    def __init__(self, seed: int = 0, message_prob: float = 0.2, seen_prob: float = 0.3):
        if not 0.0 <= message_prob <= 1.0 or not 0.0 <= seen_prob <= 1.0:
            raise ValueError("message_prob and seen_prob must lie in [0, 1]")
        self.seed = int(seed)
        self.message_prob = message_prob
        self.seen_prob = seen_prob
        self.rng = np.random.default_rng(self.seed)
        self.tools: list[dict] = []
        self.seen: list[Any] = []

    # -- Policy API
    def reset(self, observation: str, info: dict) -> None:
        entropy = [self.seed, zlib.crc32(f"{info.get('task_id')}\0{observation}".encode(
            "utf-8", "surrogatepass"))]
        self.rng = np.random.default_rng(entropy)
        self.tools = list(info.get("tools") or [])
        self.seen = []
        self._observe(observation)

    def act(self, observation: str, info: dict) -> str:
        self._observe(observation)
        if not self.tools:
            self.tools = list(info.get("tools") or [])
        if not self.tools or self.rng.random() < self.message_prob:
            return self._message()
        schema = self.tools[int(self.rng.integers(len(self.tools)))]
        function = schema.get("function", schema)
        return ToolCall(str(function.get("name", "")), self._arguments(
            function.get("parameters") or {})).to_hermes()

    # -- helpers
    def _pick(self, items):
        return items[int(self.rng.integers(len(items)))]

    def _message(self) -> str:
        if self.rng.random() < 0.6:
            return self._pick(_MESSAGES)
        words = [self._pick(_WORDS) for _ in range(int(self.rng.integers(1, 8)))]
        if self.seen and self.rng.random() < 0.5:
            words.append(str(self._pick(self.seen)))
        return " ".join(words)

    def _arguments(self, parameters: dict) -> dict:
        properties = parameters.get("properties") or {}
        required = set(parameters.get("required") or ())
        arguments = {}
        for name in properties:  # schema order: deterministic
            if name in required or self.rng.random() < 0.5:
                arguments[name] = self._value(properties[name] or {})
        return arguments

    def _value(self, schema: dict, depth: int = 0) -> Any:
        if schema.get("enum"):
            return self._pick(list(schema["enum"]))
        kind = schema.get("type", "string")
        if isinstance(kind, list):
            kind = self._pick(kind) if kind else "string"
        if kind in ("string", "integer", "number") and self.seen \
                and self.rng.random() < self.seen_prob:
            value = self._seen_value(kind)
            if value is not None:
                return value
        if kind == "integer":
            return int(self.rng.integers(-5, 1000))
        if kind == "number":
            return round(float(self.rng.uniform(0, 1000)), 2)
        if kind == "boolean":
            return bool(self.rng.integers(2))
        if kind == "array":
            if depth >= 2:
                return []
            items = schema.get("items") or {}
            return [self._value(items, depth + 1) for _ in range(int(self.rng.integers(0, 4)))]
        if kind == "object":
            return {}
        return self._random_string()

    def _seen_value(self, kind: str) -> Any:
        if kind == "string":
            return str(self._pick(self.seen))
        numbers = [v for v in self.seen if isinstance(v, (int, float)) and not isinstance(v, bool)]
        if not numbers:
            return None
        value = self._pick(numbers)
        return int(value) if kind == "integer" else float(value)

    def _random_string(self) -> str:
        form = int(self.rng.integers(4))
        letters = "".join(self._pick(_LETTERS) for _ in range(int(self.rng.integers(3, 10))))
        if form == 0:
            return "#W" + "".join(str(int(d)) for d in self.rng.integers(0, 10, size=7))
        if form == 1:
            return f"{letters}@example.com"
        if form == 2:
            return f"{letters}_{int(self.rng.integers(1000, 10000))}"
        return letters

    def _observe(self, text: Any) -> None:
        """Remember values from an observation (JSON scalars, or id-like tokens)."""
        if not isinstance(text, str) or not text:
            return
        found: list[Any] = []
        try:
            _scalars(json.loads(text), found)
        except (ValueError, RecursionError):
            found = [t for t in _TOKEN.findall(text) if any(c.isdigit() or c in "@#" for c in t)]
        for value in found[:50]:
            if value not in self.seen:
                self.seen.append(value)
        del self.seen[:-200]


def _scalars(value: Any, out: list, depth: int = 0) -> None:
    if depth > 8 or len(out) >= 50:
        return
    if isinstance(value, dict):
        for item in value.values():
            _scalars(item, out, depth + 1)
    elif isinstance(value, list):
        for item in value:
            _scalars(item, out, depth + 1)
    elif isinstance(value, str):
        if 0 < len(value) <= 60:
            out.append(value)
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        out.append(value)


# ---------------------------------------------------------------------------- loading

_SPECS = "'oracle', 'random', 'module:Class', 'hf:PATH' or 'openai:URL#MODEL'"


def _resolve(spec: str, imports: bool = True) -> tuple[str, Any]:
    """``(kind, target)`` of a stripped ``spec``, without building the policy: the class
    (or factory) of a ``module:Class`` spec (``None`` without ``imports``: the module is
    then not imported), the model path of ``hf:``, ``(url, model)`` of ``openai:``.
    Raises ``ValueError`` with a one-line message on a bad spec."""
    if spec in ("oracle", "random"):
        return spec, None
    prefix, sep, rest = spec.partition(":")
    if sep and prefix == "hf":
        from tool_gym.llm.transformers_backend import resolve_model_path

        try:
            resolve_model_path(rest.strip() or ".")
        except (OSError, ValueError) as error:
            raise ValueError(f"policy {spec!r}: {error}") from None
        return "hf", rest.strip()
    if sep and prefix == "openai":
        from .openai_policy import parse_spec

        return "openai", parse_spec(rest.strip())
    if sep and prefix and rest and not rest.startswith("//"):
        if not imports:
            return "class", None
        try:
            module = importlib.import_module(prefix)
        except ImportError as error:
            raise ValueError(f"policy {spec!r}: cannot import module {prefix!r}: {error}") \
                from None
        target: Any = module
        for part in rest.split("."):
            try:
                target = getattr(target, part)
            except AttributeError:
                raise ValueError(f"policy {spec!r}: module {prefix!r} has no attribute "
                                 f"{rest!r}") from None
        if not callable(target):
            raise ValueError(f"policy {spec!r}: {rest!r} is not a class")
        from .privileged import privileged_class

        if privileged_class(target):
            raise ValueError(f"policy {spec!r}: module:Class policies are never privileged; "
                             f"use --policy oracle for the reference oracle")
        return "class", target
    raise ValueError(f"unknown policy {spec!r}: use {_SPECS}")


def check_policy_spec(spec: Any, imports: bool = True) -> None:
    """Raise ``ValueError`` (a one-line message saying what to use) when ``spec`` names no
    policy; build nothing (no model is loaded), so command lines check it before any work.
    Without ``imports`` a ``module:Class`` spec is checked for its form only (its module is
    imported where the policy runs: :mod:`tool_gym.agents.isolation`)."""
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError(f"policy spec must be a non-empty string ({_SPECS}), got {spec!r}")
    _resolve(spec.strip(), imports)


def load_policy(spec: str, **kwargs: Any) -> Policy:
    """The policy named by ``spec``.

    ``"oracle"`` and ``"random"`` build the built-in policies (``kwargs`` go to their
    constructors, e.g. ``seed`` for the random policy); ``"module:Class"`` imports
    ``module`` and calls ``Class(**kwargs)`` (no arguments by default; ``Class`` may be a
    dotted path inside the module). ``"hf:PATH"`` loads a local model directory or
    ``.gguf`` file as a :class:`~tool_gym.agents.transformers_policy.TransformersPolicy`;
    ``"openai:URL#MODEL"`` talks to an OpenAI-compatible server through
    :class:`~tool_gym.agents.openai_policy.OpenAIPolicy` (``kwargs`` go to their constructors).

    A ``module:Class`` policy is an ordinary :class:`Policy`: it must have
    ``reset(observation, info)`` and ``act(observation, info)``, and it is never granted
    the hidden task (a class that would be the library's privileged oracle is refused; see
    :mod:`tool_gym.agents.privileged`). This builds it in the caller's process; the command lines
    run it in a process of its own (:func:`tool_gym.agents.isolation.load_policy_isolated`).
    """
    if not isinstance(spec, str) or not spec.strip():
        check_policy_spec(spec)  # raises
    spec = spec.strip()
    kind, target = _resolve(spec)
    if kind == "oracle":
        from .oracle import OraclePolicy

        return OraclePolicy(**kwargs)
    if kind == "random":
        return RandomPolicy(**kwargs)
    if kind == "hf":
        from .transformers_policy import TransformersPolicy

        return TransformersPolicy(target, **kwargs)
    if kind == "openai":
        from .openai_policy import OpenAIPolicy

        return OpenAIPolicy(*target, **kwargs)
    policy = target(**kwargs)
    from .privileged import is_privileged

    if is_privileged(policy):
        raise ValueError(f"policy {spec!r}: module:Class policies are never privileged; use "
                         f"--policy oracle for the reference oracle")
    if not isinstance(policy, Policy):
        raise ValueError(f"policy {spec!r}: {spec.partition(':')[2]!r} does not implement "
                         f"reset(observation, info) and act(observation, info)")
    return policy
