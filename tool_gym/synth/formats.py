"""The single-turn function-calling task record, schema conversions and the chat export.

A :class:`FunctionTask` is what :class:`~tool_gym.envs.function_call_env.FunctionCallEnv`
serves and what the staged pipeline (:mod:`tool_gym.synth.staged`) produces: a user's
request, the candidate functions (BFCL function documents, which the checker reads) and
the possible answers in BFCL's format (``[{name: {param: [accepted values]}}]``; empty
for the irrelevance category, where the right answer is no call).

Exports: :func:`to_hf_chat` gives the project's chat record (:mod:`tool_gym.chat`, the
format of ``evaluate.py --save-trajectories`` and SFT data), the shape that
``tokenizer.apply_chat_template(messages, tools=tools)`` and TRL's SFT trainer read;
:mod:`tool_gym.synth.bfcl` writes BFCL's own files.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from tool_gym.chat import assistant_turn, chat_record

__all__ = [
    "CATEGORIES",
    "FunctionTask",
    "bfcl_to_openai",
    "openai_to_bfcl",
    "read_jsonl",
    "to_hf_chat",
    "write_hf_chat",
    "write_jsonl",
]

#: The categories of single-turn tasks the pipeline makes and the env serves.
CATEGORIES = ("simple", "multiple", "parallel", "parallel_multiple", "irrelevance")

_TO_OPENAI = {"dict": "object", "float": "number", "tuple": "array"}
_TO_BFCL = {"object": "dict", "number": "float"}


def _convert(schema: Any, table: dict, drop_any: bool) -> Any:
    if isinstance(schema, list):
        return [_convert(s, table, drop_any) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out = {}
    for key, value in schema.items():
        if key == "type":
            if isinstance(value, list):  # JSON schema unions: BFCL has one type
                value = next((v for v in value if v != "null"), "string")
            if value == "any" and drop_any:
                continue
            out[key] = table.get(value, value)
        elif key == "properties" and isinstance(value, dict):
            out[key] = {k: _convert(v, table, drop_any) for k, v in value.items()}
        elif key in ("items", "additionalProperties"):
            out[key] = _convert(value, table, drop_any)
        else:
            out[key] = copy.deepcopy(value)
    return out


def bfcl_to_openai(doc: dict) -> dict:
    """An OpenAI ``tools`` entry from a BFCL function document (``dict`` -> ``object``,
    ``float`` -> ``number``, ``tuple`` -> ``array``, ``any`` -> no type). The name is kept
    as it is (it may hold dots)."""
    parameters = _convert(doc.get("parameters") or {"type": "dict", "properties": {}},
                          _TO_OPENAI, True)
    return {"type": "function", "function": {"name": doc["name"],
                                             "description": doc.get("description", ""),
                                             "parameters": parameters}}


def openai_to_bfcl(schema: dict) -> dict:
    """A BFCL function document from an OpenAI ``tools`` entry (or its ``function`` part)."""
    fn = schema.get("function", schema)
    parameters = _convert(fn.get("parameters") or {"type": "object", "properties": {}},
                          _TO_BFCL, False)
    parameters["type"] = "dict"
    parameters.setdefault("properties", {})
    parameters.setdefault("required", [])
    return {"name": fn["name"], "description": fn.get("description", ""),
            "parameters": parameters}


@dataclass
class FunctionTask:
    """One single-turn function-calling task.

    Attributes:
        id: unique id (BFCL's, such as ``"simple_python_12"``, or ``"<category>-<n>"``).
        category: ``simple``, ``multiple``, ``parallel``, ``parallel_multiple``,
            ``irrelevance`` or a BFCL category name (``live_simple``...).
        question: the user's request (the observation).
        functions: candidate functions as BFCL function documents.
        answers: possible answers, BFCL format; ``[]`` when no call is right.
        messages: the whole prompt when it has more than the user's request (BFCL's
            system messages), else empty.
        calls: one reference answer as OpenAI ``tool_calls`` entries (empty if unknown).
        executable: function name -> domain whose tools run it (synthesized tasks).
        meta: provenance: source, retries per stage, tool keys, semantic group...
    """

    id: str
    category: str
    question: str
    functions: list[dict]
    answers: list[dict]
    messages: list[dict] = field(default_factory=list)
    calls: list[dict] = field(default_factory=list)
    executable: dict[str, str] = field(default_factory=dict)
    meta: dict = field(default_factory=dict)

    @property
    def tools(self) -> list[dict]:
        """The candidate functions as OpenAI ``tools`` entries."""
        return [bfcl_to_openai(doc) for doc in self.functions]

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> FunctionTask:
        known = {f for f in cls.__dataclass_fields__}
        return cls(**{k: v for k, v in data.items() if k in known})


def write_jsonl(path: str | Path, records: Iterable[dict]) -> int:
    """Write dicts as JSON lines; returns how many."""
    count = 0
    with open(path, "w", encoding="utf-8") as out:
        for record in records:
            out.write(json.dumps(record, ensure_ascii=False) + "\n")
            count += 1
    return count


def read_jsonl(path: str | Path) -> list[dict]:
    with open(path, encoding="utf-8") as source:
        return [json.loads(line) for line in source if line.strip()]


#: The assistant's reply when no candidate function fits (irrelevance tasks).
NO_CALL_REPLY = ("None of the available functions can do this, so I cannot make a "
                 "function call for this request.")


def to_hf_chat(task: FunctionTask, system: str | None = None) -> dict:
    """The task as a chat record of :mod:`tool_gym.chat`: ``messages``, ``tools`` and the
    metadata (``task_id``; ``success`` is true: the reference answer was checked).

    The assistant turn holds the reference ``tool_calls`` (ids ``call_0``, ``call_1``...,
    ``arguments`` as a dict); for a task whose right answer is no call, it is a short
    refusal in ``content``.
    """
    messages: list[dict] = []
    if system:
        messages.append({"role": "system", "content": system})
    if task.messages:
        messages.extend({"role": m["role"], "content": m["content"]} for m in task.messages)
    else:
        messages.append({"role": "user", "content": task.question})
    calls = []
    for call in task.calls:
        fn = call.get("function", call)
        arguments = fn.get("arguments", {})
        if isinstance(arguments, str):
            arguments = json.loads(arguments) if arguments.strip() else {}
        calls.append((fn["name"], arguments))
    messages.append(assistant_turn("", calls) if calls else assistant_turn(NO_CALL_REPLY))
    return chat_record(messages, task.tools, task_id=task.id, success=True)


def write_hf_chat(path: str | Path, tasks: Iterable[FunctionTask],
                  system: str | None = None) -> int:
    """Write tasks as chat records, one JSON line each (``datasets.load_dataset("json",
    ...)`` reads them; :func:`tool_gym.chat.write_dataset` writes a dataset directory with
    exact features); returns how many."""
    return write_jsonl(path, (to_hf_chat(t, system) for t in tasks))
