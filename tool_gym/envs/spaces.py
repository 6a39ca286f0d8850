"""Text spaces that truly contain LLM text.

Gymnasium's ``Text`` space only contains strings over its charset (alphanumerics by
default), so a real model's output (punctuation, JSON, non-Latin letters) would not be
in it. ``LLMText`` contains every ``str`` up to ``max_length`` characters; its
``sample()`` still draws from a charset. ``ToolActionSpace`` contains every action form
that ``step`` reads (:func:`is_action`: text and the structured forms of
``tool_gym.core.actions``) and samples what an agent of the domain would send: tool calls
in several formats with plausible or broken arguments, messages to the user, and
malformed text.
"""

from __future__ import annotations

import json
import multiprocessing as mp
import sqlite3
import string
from collections.abc import Mapping, Sequence as SequenceABC
from typing import Any, Sequence

import numpy as np
from gymnasium.spaces import Text
from gymnasium.vector.utils import (create_shared_memory, read_from_shared_memory,
                                    write_to_shared_memory)

from ..core.actions import MAX_CALLS, ParsedAction, ToolCall


_SAMPLE_CHARSET = string.ascii_letters + string.digits + string.punctuation + " éüß中文"


class LLMText(Text):
    """Any Python string of at most ``max_length`` characters."""

    def __init__(self, max_length: int = 100_000, *, min_length: int = 0,
                 seed: int | np.random.Generator | None = None):
        super().__init__(max_length=max_length, min_length=min_length,
                         charset=_SAMPLE_CHARSET, seed=seed)

    def contains(self, x: Any) -> bool:
        return isinstance(x, str) and self.min_length <= len(x) <= self.max_length

    def sample(self, mask=None, probability=None) -> str:  # noqa: D401
        if mask is None and probability is None:
            length = int(self.np_random.integers(self.min_length, min(self.max_length, 200) + 1))
            return super().sample(mask=(length, None))
        return super().sample(mask=mask, probability=probability)

    def __repr__(self) -> str:
        return f"LLMText({self.min_length}, {self.max_length})"

    def __eq__(self, other: Any) -> bool:
        return (isinstance(other, LLMText) and other.min_length == self.min_length
                and other.max_length == self.max_length)


_MESSAGES = (
    "Hello! How can I help you today?",
    "Could you please tell me your email address?",
    "Can you give me your first name, last name and zip code?",
    "Which order are you asking about?",
    "Is there anything else I can help you with?",
    "I'm sorry, I can't help with that request.",
    "Let me check that for you.",
)
_BROKEN = (
    "<tool_call>{\"name\": ",
    "<tool_call>not json</tool_call>",
    "{\"arguments\": {}}",
    "get_user_details(user_id=__import__('os'))",
    "",
)


def sample_values(db: sqlite3.Connection, names: Sequence[str], per_name: int = 16) -> dict:
    """Up to ``per_name`` real values for each parameter name that is also a column name
    somewhere in the database (read once per template; feeds realistic samples)."""
    wanted = set(names)
    values: dict[str, list] = {}
    tables = [r[0] for r in db.execute(
        "SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%' "
        "ORDER BY name")]
    for table in tables:
        for column in (r[1] for r in db.execute(f'PRAGMA table_info("{table}")')):
            if column in wanted and column not in values:
                rows = db.execute(f'SELECT DISTINCT "{column}" FROM "{table}" '
                                  f'WHERE "{column}" IS NOT NULL ORDER BY rowid LIMIT ?',
                                  (per_name,)).fetchall()
                values[column] = [r[0] for r in rows]
    return values


# ------------------------------------------------------- the forms of an action
# ``is_action`` follows ``tool_gym.core.actions._dispatch`` form by form. It judges the
# shape only: what a form holds (the text, an arguments JSON string, argument values) is
# content, which ``step`` may still answer with ``Error: ...``, as it does malformed text.


def _is_text(value: Any, max_length: int, min_length: int = 0) -> bool:
    return isinstance(value, str) and min_length <= len(value) <= max_length


def _is_call(item: Any, max_length: int) -> bool:
    """A ``ToolCall``, ``{"name", "arguments"|"parameters", "id"?}`` or an OpenAI
    ``tool_calls`` entry ``{"id"?, "type": "function", "function": {...}}``."""
    if isinstance(item, ToolCall):
        return (_is_text(item.name, max_length, 1) and isinstance(item.arguments, dict)
                and (item.id is None or isinstance(item.id, str)))
    if not isinstance(item, Mapping):
        return False
    call_id = item.get("id")
    if "name" not in item and isinstance(item.get("function"), Mapping):
        if item.get("type", "function") != "function":
            return False
        item = item["function"]
    if not _is_text(item.get("name"), max_length, 1):
        return False
    if call_id is not None and not isinstance(call_id, str):
        return False
    if "arguments" in item and "parameters" in item and item["arguments"] != item["parameters"]:
        return False
    raw = item["arguments"] if "arguments" in item else item.get("parameters")
    return raw is None or isinstance(raw, Mapping) or _is_text(raw, max_length)


def _is_calls(items: Any, max_length: int) -> bool:
    return (isinstance(items, (list, tuple)) and 0 < len(items) <= MAX_CALLS
            and all(_is_call(item, max_length) for item in items))


def _is_content(content: Any, max_length: int) -> bool:
    """Message content: ``None``, text, or a list of text parts (strings or
    ``{"type": "text", "text": ...}``) of at most ``max_length`` characters in all."""
    if content is None:
        return True
    if isinstance(content, str):
        return len(content) <= max_length
    if not isinstance(content, (list, tuple)):
        return False
    total = 0
    for part in content:
        if isinstance(part, Mapping) and part.get("type", "text") == "text":
            part = part.get("text")
        if not isinstance(part, str):
            return False
        total += len(part)
    return total <= max_length


def _is_mapping_action(action: Mapping, max_length: int) -> bool:
    if not any(k in action for k in ("tool_calls", "content", "role", "function_call")):
        return _is_call(action, max_length)  # one call dict
    if action.get("role", "assistant") != "assistant":
        return False
    if not _is_content(action.get("content"), max_length):
        return False
    calls = action.get("tool_calls")
    if calls is None and action.get("function_call") is not None:
        calls = [action["function_call"]]
    return calls is None or (isinstance(calls, (list, tuple)) and len(calls) == 0) \
        or _is_calls(calls, max_length)


def is_action(action: Any, max_length: int = 100_000, min_length: int = 0) -> bool:
    """Whether ``action`` has a form that ``step`` reads as an action (``parse_action``):
    text of ``min_length`` to ``max_length`` characters (``str``, or UTF-8 ``bytes``), a
    ``ToolCall``, a ``ParsedAction``, a call dict, an OpenAI assistant message dict, a
    non-empty list of calls (at most ``MAX_CALLS``), or an object whose ``model_dump()``
    is one of these dicts. Any other type, or a dict of another shape, is not an action."""
    if isinstance(action, str):
        return _is_text(action, max_length, min_length)
    if isinstance(action, ParsedAction):
        return True
    if isinstance(action, ToolCall):
        return _is_call(action, max_length)
    if isinstance(action, (bytes, bytearray, memoryview)):
        try:
            return _is_text(bytes(action).decode("utf-8"), max_length, min_length)
        except UnicodeDecodeError:
            return False
    if isinstance(action, Mapping):
        return _is_mapping_action(action, max_length)
    if isinstance(action, (list, tuple)):
        return _is_calls(action, max_length)
    dump = getattr(action, "model_dump", None)
    if callable(dump) and not isinstance(action, type):
        try:
            dumped = dump()
        except Exception:  # noqa: BLE001 - the object's own code failed: not an action
            return False
        return isinstance(dumped, Mapping) and _is_mapping_action(dumped, max_length)
    return False


class ToolActionSpace(LLMText):
    """Actions of a tool domain: any text, or a structured action ``step`` reads
    (:func:`is_action`); samples are realistic agent outputs (always text)."""

    def __init__(self, tools: Sequence[dict], values: dict[str, list] | None = None,
                 max_length: int = 100_000, seed: int | np.random.Generator | None = None):
        super().__init__(max_length=max_length, seed=seed)
        self.tools = [t["function"] for t in tools]  # OpenAI schemas: plain data, picklable
        self.values = values or {}

    def contains(self, x: Any) -> bool:
        return is_action(x, self.max_length, self.min_length)

    def _argument(self, name: str, schema: dict) -> Any:
        rng = self.np_random
        if "enum" in schema and rng.random() < 0.8:
            return schema["enum"][int(rng.integers(len(schema["enum"])))]
        kind = schema.get("type")
        pool = self.values.get(name) or self.values.get(name.rstrip("s"))
        if kind == "string":
            if pool and rng.random() < 0.8:
                return str(pool[int(rng.integers(len(pool)))])
            return "".join(rng.choice(list(string.ascii_lowercase), size=int(rng.integers(1, 12))))
        if kind == "integer":
            return int(rng.integers(-5, 100))
        if kind == "number":
            return float(np.round(rng.uniform(-10, 500), 2))
        if kind == "boolean":
            return bool(rng.random() < 0.5)
        if kind == "array":
            n = int(rng.integers(0, 3))
            return [self._argument(name, schema.get("items", {"type": "string"})) for _ in range(n)]
        return {}

    def sample(self, mask=None, probability=None) -> str:
        if mask is not None or probability is not None:
            return super().sample(mask=mask, probability=probability)
        rng = self.np_random
        roll = rng.random()
        if roll < 0.2:
            return _MESSAGES[int(rng.integers(len(_MESSAGES)))]
        if roll < 0.28:
            return _BROKEN[int(rng.integers(len(_BROKEN)))]
        t = self.tools[int(rng.integers(len(self.tools)))]
        props = t["parameters"]["properties"]
        required = t["parameters"].get("required", [])
        args = {k: self._argument(k, v) for k, v in props.items()
                if k in required or rng.random() < 0.5}
        if rng.random() < 0.1 and args:  # a broken call: drop or mistype an argument
            key = sorted(args)[int(rng.integers(len(args)))]
            if rng.random() < 0.5:
                del args[key]
            else:
                args[key] = 12345
        call = {"name": t["name"], "arguments": args}
        style = rng.random()
        if style < 0.6:
            return f"<tool_call>{json.dumps(call, ensure_ascii=False)}</tool_call>"
        if style < 0.9:
            return json.dumps(call, ensure_ascii=False)
        body = ", ".join(f"{k}={json.dumps(v, ensure_ascii=False)}" for k, v in args.items())
        return f"{t['name']}({body})".replace("true", "True").replace("false", "False")


# ------------------------------------------------------- vector envs (shared memory)
# Gymnasium's AsyncVectorEnv passes observations through shared memory, which for ``Text``
# stores charset indices (dropping every character outside the charset) and is read once,
# into immutable strings that never change afterwards. ``LLMText`` stores Unicode code
# points (one int32 for the length, then the text) and reads them through a live view,
# which the vector env's copy of the observations turns into a plain tuple of strings.


class _SharedTexts(SequenceABC):
    """Live, read-only view of the texts in a shared buffer."""

    def __init__(self, data: np.ndarray):
        self._data = data

    def __len__(self) -> int:
        return self._data.shape[0]

    def __getitem__(self, index):
        if isinstance(index, slice):
            return tuple(self)[index]
        row = self._data[index]
        return "".join(map(chr, row[1: 1 + row[0]]))

    def __deepcopy__(self, memo) -> tuple[str, ...]:
        return tuple(self)

    def __eq__(self, other) -> bool:
        return tuple(self) == tuple(other) if isinstance(other, SequenceABC) else NotImplemented

    def __repr__(self) -> str:
        return repr(tuple(self))


@create_shared_memory.register(LLMText)
def _create_llm_text_shared_memory(space: LLMText, n: int = 1, ctx=mp):
    return ctx.Array(np.dtype(np.int32).char, n * (space.max_length + 1))


@read_from_shared_memory.register(LLMText)
def _read_llm_text_from_shared_memory(space: LLMText, shared_memory, n: int = 1):
    data = np.frombuffer(shared_memory.get_obj(), dtype=np.int32)
    return _SharedTexts(data.reshape((n, space.max_length + 1)))


@write_to_shared_memory.register(LLMText)
def _write_llm_text_to_shared_memory(space: LLMText, index: int, value: str, shared_memory):
    size = space.max_length + 1
    destination = np.frombuffer(shared_memory.get_obj(), dtype=np.int32)
    codes = np.fromiter(map(ord, value), dtype=np.int32, count=len(value))
    destination[index * size] = len(codes)
    destination[index * size + 1: index * size + 1 + len(codes)] = codes
