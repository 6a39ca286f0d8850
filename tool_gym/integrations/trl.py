"""TRL's ``environment_factory`` for every tool_gym environment id.

``GRPOTrainer(environment_factory=...)`` wants a zero-argument callable that returns an
object whose public methods are the model's tools, plus ``reset(**row)`` (gets the whole
dataset row, returns text appended to the prompt's last message) and ``get_reward()``
(the rollout's reward). TRL lists the tools with ``inspect.getmembers(type(instance))`` and
turns each into a schema with transformers' ``get_json_schema`` (signature, type hints,
Google-style docstring), so this module builds, once per environment id and settings, a
class whose methods are exactly:

- **conversation ids** (``ToolRetail-v0`` and the other ``ToolEnv`` ids): one method per
  domain tool, with the tool's parameters as typed keyword-only arguments (enums as
  ``Literal``) and its descriptions in the docstring, so that the schema TRL shows the model
  is the env's own; each call is one ``env.step`` with that call and returns the tool's
  result text (errors as ``Error: ...`` text: arguments are checked by the env, never by
  Python). :data:`MESSAGE_TOOL` sends a message to the user and returns the user's reply.
- **single-turn ids** (``ToolCall-*-v0``): each task has its own candidate functions, but
  TRL renders one fixed tool list for every prompt, so the candidates are listed (as JSON
  schemas) in the text ``reset`` returns and the one tool :data:`ANSWER_TOOL` records one
  call of the answer (``name``, ``arguments``). There is no user. The recorded calls are
  graded together as the env grades one answer (BFCL's AST rules), when the reward is asked
  for; no calls is the "no call" answer (right for irrelevance tasks).

``reset(task_id=..., split=..., seed=..., **other_columns)`` starts the episode the row
names (``"train-3"``, or ``3`` with ``split="train"``; tau2 tasks by tau2's own id) with that
reset seed; a row without them draws a task from the env's seeded generator. ``get_reward()``
is the env's return: the sum of the episode's step rewards, the terminal verification
included when the env ended the episode (the user stopped, the turn limit, a transfer). An
episode the model left unfinished (it stopped calling tools first) is not verified: it
earns its step shaping only and never success, as a rollout cut before its end does in
:mod:`tool_gym.agents.batched_rollouts`. After the episode ends, every tool answers
:data:`EPISODE_OVER`.

    from trl import GRPOConfig, GRPOTrainer
    from tool_gym.integrations.trl import environment_factory, task_dataset

    trainer = GRPOTrainer(model=..., args=GRPOConfig(...),
                          train_dataset=task_dataset("ToolRetail-v0", n=256),
                          environment_factory=environment_factory("ToolRetail-v0"))
"""

from __future__ import annotations

import functools
import inspect
import itertools
import json
import keyword
import operator
from collections.abc import Callable
from types import FunctionType
from typing import Any, ClassVar, Literal

import gymnasium as gym

from ..core.actions import ParsedAction, ToolCall
from ..envs.episode import episode_env
from ..envs.function_call_env import FunctionCallEnv
from ..envs.tool_env import ToolEnv

__all__ = ["ANSWER_TOOL", "EPISODE_OVER", "MESSAGE_TOOL", "ToolGymEnvironment",
           "environment_factory", "task_dataset"]

#: The tool that sends a message to the user (conversation ids).
MESSAGE_TOOL = "send_message_to_user"
#: The tool that records one call of the answer (single-turn ids).
ANSWER_TOOL = "call_function"
#: What every tool returns once the episode is over.
EPISODE_OVER = "The episode is over ({reason}); no further action is taken."
#: The system message of single-turn prompts (the candidates come with the request).
SINGLE_TURN_SYSTEM = (f"Answer the user's request with calls of the functions listed with "
                      f"it: call {ANSWER_TOOL} once for each call of your answer. If none of "
                      f"the functions fits the request, answer without calling any.")
_RESERVED = {"reset", "get_reward"}
_JSON_TYPES = {"string": str, "integer": int, "number": float, "boolean": bool}


# --------------------------------------------------------------------------- public API

def environment_factory(env_id: str, **env_kwargs: Any) -> Callable[[], ToolGymEnvironment]:
    """The zero-argument callable ``GRPOTrainer(environment_factory=...)`` takes: each call
    returns a new environment object of ``env_id`` made with ``gym.make(env_id,
    **env_kwargs)``; the class (tools and their schemas) is built once per id and settings."""
    cls = _environment_class(env_id, env_kwargs)

    def factory() -> ToolGymEnvironment:
        return cls()

    factory.__name__ = factory.__qualname__ = f"{cls.__name__}_factory"
    factory.environment_class = cls  # type: ignore[attr-defined]
    return factory


def task_dataset(env_id: str, split: str = "train", n: int = 64, seed: int = 0,
                 **env_kwargs: Any):
    """A ``datasets.Dataset`` with one row per task of ``split`` for ``environment_factory``.

    Each row: ``prompt`` (a system message, the domain policy or the single-turn
    instructions, then an empty user message that TRL fills with ``reset``'s text),
    ``task_id`` (``"train-0"`` .. or tau2's own ids), ``split`` and ``seed`` (the reset
    seed, ``seed + index``). Deterministic: the same arguments give the same rows.
    """
    from datasets import Dataset

    if not isinstance(n, int) or isinstance(n, bool) or n < 1:
        raise ValueError(f"n must be a positive integer, got {n!r}")
    env = _make(env_id, env_kwargs)
    try:
        base = episode_env(env)
        system = base.episode.policy or SINGLE_TURN_SYSTEM
        tau2_ids = _tau2_ids(base, split)
        if tau2_ids is not None:
            task_ids = list(tau2_ids[:n])
        else:
            if split not in ("train", "test"):
                raise ValueError(f"split must be 'train' or 'test', got {split!r}")
            limit = base.split_size(split)
            if limit is not None and n > limit:
                raise ValueError(f"{env_id} has {limit} {split} tasks; n={n} asks for more")
            task_ids = [f"{split}-{i}" for i in range(n)]
    finally:
        env.close()
    rows = [{"prompt": [{"role": "system", "content": system}, {"role": "user", "content": ""}],
             "task_id": task_id, "split": split, "seed": seed + i}
            for i, task_id in enumerate(task_ids)]
    return Dataset.from_list(rows)


# --------------------------------------------------------------------------- the object

class ToolGymEnvironment:
    """One tool_gym env driven through tools by TRL's ``GRPOTrainer`` (base class).

    Subclasses, built by :func:`environment_factory`, add the tools. Public methods are
    ``reset``, ``get_reward`` and the tools only; the Gymnasium env is ``self.env``.
    """

    env_id: ClassVar[str] = ""
    env_kwargs: ClassVar[dict] = {}
    _instances: ClassVar[itertools.count] = itertools.count()

    def __init__(self):
        self.env = _make(self.env_id, self.env_kwargs)
        #: Reset seed of a row that names none: the instance's creation index.
        self._default_seed = next(type(self)._instances)
        self._seeded = False
        self._rewards: list[float] | None = None
        self._over: str | None = None
        #: The ``info`` of the last reset or step (the final one has ``verification``).
        self.info: dict = {}

    def reset(self, task_id: Any = None, split: str | None = None, seed: int | None = None,
              **row: Any) -> str:
        """Start the episode named by the row: its ``task_id``, ``split`` and reset
        ``seed`` (other columns, such as ``prompt``, are ignored). Returns the opening text."""
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
            raise TypeError(f"seed must be an integer, got {seed!r}")
        if seed is None and not self._seeded:
            seed = self._default_seed
        self._seeded = True
        options = {"task_id": self._task_id(task_id, split)} if task_id is not None else None
        observation, info = self.env.reset(seed=seed, options=options)
        self._rewards = []
        self._over = None
        self.info = info
        return self._opening(observation, info)

    def get_reward(self) -> float:
        """The episode's return (see the module docstring)."""
        if self._rewards is None:
            raise RuntimeError("get_reward() before reset(): no episode")
        return float(sum(self._rewards))

    # ------------------------------------------------------------------ internals
    def _task_id(self, task_id: Any, split: str | None) -> str:
        if split is not None and split not in ("train", "test", "all"):
            raise ValueError(f"split must be 'train', 'test' or 'all', got {split!r}")
        if episode_env(self.env).episode.task_source == "tau2":
            return str(task_id)
        if isinstance(task_id, bool) or not isinstance(task_id, (int, str)):
            raise TypeError(f"task_id must be a string like 'train-3' or an integer, got "
                             f"{task_id!r}")
        if isinstance(task_id, int) or task_id.isdigit():
            return f"{split or 'train'}-{int(task_id)}"
        prefix = task_id.rpartition("-")[0]
        if split is not None and prefix in ("train", "test") and prefix != split:
            raise ValueError(f"task_id {task_id!r} is not in split {split!r}")
        return task_id

    def _opening(self, observation: str, info: dict) -> str:
        return observation

    def _step(self, action: Any) -> str:
        """One env step; its observation (with a note when the step ended the episode)."""
        observation, reward, terminated, truncated, info = self.env.step(action)
        self._rewards.append(float(reward))
        self.info = info
        if terminated or truncated:
            ended = (info.get("verification") or {}).get("ended")
            self._over = str(ended or ("truncated" if truncated else "terminated"))
            return f"{observation}\n\n{EPISODE_OVER.format(reason=self._over)}"
        return observation

    def _closed(self) -> str | None:
        """The text to return instead of acting: before reset, or after the end."""
        if self._rewards is None:
            return "Error: the episode has not started (reset() first)."
        if self._over is not None:
            return EPISODE_OVER.format(reason=self._over)
        return None


class _ConversationEnvironment(ToolGymEnvironment):
    """A ``ToolEnv`` id: domain tools plus :data:`MESSAGE_TOOL`."""

    def _call_tool(self, name: str, arguments: dict) -> str:
        return self._closed() or self._step(ToolCall(name, dict(arguments)))

    def _message(self, message: Any) -> str:
        closed = self._closed()
        if closed:
            return closed
        if not isinstance(message, str):
            return f"Error: message must be a string, got {type(message).__name__}"
        # A message is never parsed for calls; empty text is the env's own error.
        return self._step(ParsedAction(message=message) if message.strip() else message)


class _SingleTurnEnvironment(ToolGymEnvironment):
    """A ``FunctionCallEnv`` id: :data:`ANSWER_TOOL` records the answer's calls."""

    def reset(self, task_id: Any = None, split: str | None = None, seed: int | None = None,
              **row: Any) -> str:
        text = super().reset(task_id=task_id, split=split, seed=seed, **row)
        self._answer: list[dict] = []
        return text

    def _opening(self, observation: str, info: dict) -> str:
        parts = []
        if info.get("messages"):
            parts.append("Earlier conversation:\n" + "\n".join(
                f"{m.get('role')}: {m.get('content')}" for m in info["messages"]))
        parts.append(observation)
        functions = "\n".join(json.dumps(t, ensure_ascii=False) for t in info.get("tools") or [])
        parts.append(f"Functions (call each through {ANSWER_TOOL}; none if no function "
                     f"fits):\n{functions}")
        return "\n\n".join(parts)

    def _record(self, name: Any, arguments: Any) -> str:
        closed = self._closed()
        if closed:
            return closed
        self._answer.append({"name": name, "arguments": arguments})
        shown = name[:80] if isinstance(name, str) else f"<{type(name).__name__}>"
        return (f"Recorded call {len(self._answer)} of your answer: {shown}. The answer is "
                f"graded when you stop.")

    def get_reward(self) -> float:
        """The env's reward for the recorded calls as one answer (graded once)."""
        if self._rewards is None:
            raise RuntimeError("get_reward() before reset(): no episode")
        if self._over is None:
            from ..synth.formats import NO_CALL_REPLY

            self._step(list(self._answer) if self._answer else NO_CALL_REPLY)
        return float(sum(self._rewards))


# --------------------------------------------------------------------------- building

_CLASSES: dict[tuple[str, str], type] = {}


def _make(env_id: str, env_kwargs: dict) -> gym.Env:
    import tool_gym  # noqa: F401  (registers the ids)

    if not isinstance(env_id, str) or env_id not in gym.registry:
        raise ValueError(f"{env_id!r} is not a registered environment id; tool_gym's ids "
                         f"are tool_gym.ENV_IDS")
    return gym.make(env_id, **env_kwargs)


def _environment_class(env_id: str, env_kwargs: dict) -> type:
    key = (env_id, json.dumps(env_kwargs, sort_keys=True, default=repr))
    if key in _CLASSES:
        return _CLASSES[key]
    env = _make(env_id, env_kwargs)
    try:
        base = env.unwrapped
        name = "".join(ch for ch in env_id.rpartition(":")[2] if ch.isalnum()) + "Environment"
        namespace: dict[str, Any] = {"env_id": env_id, "env_kwargs": dict(env_kwargs),
                                     "_instances": itertools.count(),
                                     "__module__": __name__}
        if isinstance(base, ToolEnv):
            if base.task_source == "chains":
                raise ValueError(f"{env_id} with these settings gives each task its own tool "
                                 f"list (task_source='chains'); TRL's environment_factory "
                                 f"needs one fixed list of tools")
            parent = _ConversationEnvironment
            tools = [_tool_method(schema) for schema in base.domain.toolbox.schemas]
            tools.append(_message_method())
        elif isinstance(base, FunctionCallEnv):
            parent = _SingleTurnEnvironment
            tools = [_answer_method()]
        else:
            raise ValueError(f"{env_id} is neither a ToolEnv nor a FunctionCallEnv id")
        for method in tools:
            if method.__name__ in _RESERVED or method.__name__ in namespace:
                raise ValueError(f"{env_id}: tool name {method.__name__!r} clashes with "
                                 f"the environment's own methods")
            namespace[method.__name__] = method
    finally:
        env.close()
    cls = type(name, (parent,), namespace)
    cls.__doc__ = (f"{env_id} for TRL's GRPOTrainer: tools "
                   f"{', '.join(m.__name__ for m in tools)}.")
    _CLASSES[key] = cls
    return cls


def _python_type(schema: dict, where: str) -> Any:
    """The type hint whose ``get_json_schema`` is ``schema`` (type, enum, items)."""
    if "enum" in schema:
        values = tuple(schema["enum"])
        if not values or any(type(v) not in (str, int, float, bool) for v in values):
            raise ValueError(f"{where}: enum values must be JSON scalars, got {values!r}")
        return Literal[values]
    kind = schema.get("type")
    if isinstance(kind, list):
        return functools.reduce(operator.or_, [_python_type({"type": k}, where) for k in kind])
    if kind in _JSON_TYPES:
        return _JSON_TYPES[kind]
    if kind == "array":
        items = schema.get("items")
        return list[_python_type(items, where)] if items else list
    if kind == "object":
        return dict
    raise ValueError(f"{where}: unsupported JSON schema type {kind!r}")


def _one_line(text: Any) -> str:
    return " ".join(str(text or "").split())


def _build_method(name: str, description: str, params: list[tuple[str, Any, str, Any]],
                  body: Callable[..., str]) -> FunctionType:
    """A function ``name(self, *, <params>)`` with a real signature, annotations and a
    Google-style docstring (no return hint, so its schema has exactly the env's keys); calling
    it runs ``body(self, arguments)`` with exactly the
    keyword arguments given."""
    if not name.isidentifier() or keyword.iskeyword(name) or name.startswith("_"):
        raise ValueError(f"tool name {name!r} cannot be a public Python method")

    def method(self, **arguments):
        return body(self, arguments)

    parameters = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    annotations: dict[str, Any] = {}
    lines = []
    for pname, hint, text, default in params:
        if not pname.isidentifier() or keyword.iskeyword(pname):
            raise ValueError(f"{name}: parameter {pname!r} cannot be a Python argument name")
        parameters.append(inspect.Parameter(pname, inspect.Parameter.KEYWORD_ONLY,
                                            default=default, annotation=hint))
        annotations[pname] = hint
        lines.append(f"    {pname}: {_one_line(text) or pname.replace('_', ' ')}")
    method.__name__ = method.__qualname__ = name
    method.__annotations__ = annotations
    method.__signature__ = inspect.Signature(parameters)
    doc = _one_line(description) or name.replace("_", " ")
    if lines:
        doc += "\n\nArgs:\n" + "\n".join(lines)
    method.__doc__ = doc  # no Returns section: the schema is the env's, nothing more
    return method


def _tool_method(schema: dict) -> FunctionType:
    function = schema["function"]
    name = function["name"]
    parameters = function.get("parameters") or {}
    required = set(parameters.get("required") or ())
    params = []
    for pname, pschema in (parameters.get("properties") or {}).items():
        default = inspect.Parameter.empty if pname in required else pschema.get("default")
        params.append((pname, _python_type(pschema, f"{name}.{pname}"),
                       pschema.get("description", ""), default))

    def body(self, arguments, _name=name):
        return self._call_tool(_name, arguments)

    return _build_method(name, function.get("description", ""), params, body)


def _message_method() -> FunctionType:
    def body(self, arguments):
        if set(arguments) != {"message"}:
            return "Error: send_message_to_user takes exactly one argument, message"
        return self._message(arguments["message"])

    return _build_method(
        MESSAGE_TOOL, "Send a message to the user (a question, a proposal to confirm, or an "
        "answer) and get the user's reply.",
        [("message", str, "The text of the message.", inspect.Parameter.empty)], body)


def _answer_method() -> FunctionType:
    def body(self, arguments):
        unknown = set(arguments) - {"name", "arguments"}
        if unknown or "name" not in arguments:
            return f"Error: {ANSWER_TOOL} takes name and arguments"
        return self._record(arguments["name"], arguments.get("arguments", {}))

    return _build_method(
        ANSWER_TOOL, "Make one call of your answer: one of the functions listed with the "
        "request. Call this once for each call the answer needs; the calls are graded "
        "together when you stop.",
        [("name", str, "The name of the function to call.", inspect.Parameter.empty),
         ("arguments", dict, "The function's arguments, by parameter name.", None)], body)


def _tau2_ids(base: Any, split: str) -> list[str] | None:
    """tau2's own task ids of ``split`` when the env plays tau2's tasks, else ``None``."""
    if not isinstance(base, ToolEnv) or base.task_source != "tau2":
        return None
    return list(base.kit.ids(split))
