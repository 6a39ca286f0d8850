"""The one chat-dataset record of the project: episodes and synthesized tasks as chat.

Every writer of conversations uses it: ``evaluate.py --save-trajectories``
(:func:`tool_gym.agents.episode_loop.run_episode`), SFT data collection
(:mod:`tool_gym.agents.sft`), synthesis (:func:`tool_gym.synth.formats.to_hf_chat`) and
``python -m tool_gym.export``. A record is one row of a Hugging Face chat dataset::

    {"messages": [
        {"role": "system", "content": "<domain policy>"},
        {"role": "user", "content": "Hi, I want to cancel an order."},
        {"role": "assistant", "content": "", "tool_calls": [
            {"id": "call_0", "type": "function",
             "function": {"name": "find_user", "arguments": {"email": "a@b.c"}}}]},
        {"role": "tool", "tool_call_id": "call_0", "name": "find_user", "content": "..."},
        {"role": "assistant", "content": "Shall I cancel order #W1?"},
        {"role": "user", "content": "Yes."}, ...],
     "tools": [{"type": "function", "function": {"name", "description", "parameters"}}],
     "env_id": "ToolRetail-v0", "task_id": "train-0", "trial": 0, "seed": 0,
     "success": true, "reward": 1.2, "score": 1.0}

Decisions:

- ``arguments`` is a JSON object (a dict), not the JSON text of OpenAI's wire format: Hugging
  Face chat templates serialize it themselves (``| tojson``), the tiny model's template
  accepts both, and ``datasets`` keeps it exactly with :func:`features` (arguments that
  JSON cannot represent, such as a 5000-digit integer, become the string
  :data:`UNREPRESENTABLE`).
- Call ids are ``call_<n>``, ``n`` counting the episode's calls from 0; parallel calls of
  one turn keep their order, and each gets its own ``tool`` message, in the same order.
- The environment's reply to a message is a ``user`` message; to an action that failed to
  parse (no call to pair with) also a ``user`` message, holding the env's error. So every
  ``tool`` message answers exactly one earlier call.
- The episode's last action has no reply: the env ended the episode on it.
- ``tools`` and the tool results are kept as the agent saw them; metadata columns the
  writer does not know are ``None``.

``datasets`` infers struct columns from JSON lines and fills every key missing in one row
with ``null`` (so a template would render ``"required": null``): :func:`features` declares
``messages`` and ``tools`` as lists of JSON values instead, and :func:`write_dataset` puts
those features in the dataset card, so that ``datasets.load_dataset(DIR)`` gives the rows
back exactly.
"""

from __future__ import annotations

import json
import reprlib
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from tool_gym.core.actions import parse_action

__all__ = [
    "METADATA",
    "UNREPRESENTABLE",
    "EpisodeChat",
    "assistant_turn",
    "chat_record",
    "features",
    "initial_messages",
    "to_dataset",
    "tool_call",
    "write_dataset",
]

#: Metadata columns of every record, in order, with their ``datasets`` dtypes.
METADATA: dict[str, str] = {"env_id": "string", "task_id": "string", "trial": "int64",
                            "seed": "int64", "success": "bool", "reward": "float64",
                            "score": "float64"}
#: The arguments of a call that JSON cannot represent.
UNREPRESENTABLE = "<arguments not representable in JSON>"
#: The data file of a dataset directory written by :func:`write_dataset`.
DATA_FILE = "train.jsonl"


def _json_safe(arguments: Any) -> Any:
    try:
        json.dumps(arguments)
    except (TypeError, ValueError, OverflowError):
        return UNREPRESENTABLE
    return arguments


def _text(action: Any, limit: int = 2000) -> str:
    """An action as the assistant's text: a string as given, anything else bounded."""
    if isinstance(action, str):
        return action
    try:
        return reprlib.Repr(maxstring=limit, maxother=limit, maxlong=200).repr(action)[:limit]
    except Exception:  # noqa: BLE001 - a record must never break an episode
        return f"<{type(action).__name__}>"


def tool_call(index: int, name: str, arguments: Any) -> dict:
    """One ``tool_calls`` entry with the id ``call_<index>``."""
    return {"id": f"call_{index}", "type": "function",
            "function": {"name": str(name), "arguments": _json_safe(arguments)}}


def assistant_turn(content: str, calls: Sequence[tuple[str, Any]] = (), first_id: int = 0
                   ) -> dict:
    """An assistant message: ``content`` and, when there are ``(name, arguments)`` calls,
    their ``tool_calls`` numbered from ``first_id``."""
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if calls:
        message["tool_calls"] = [tool_call(first_id + i, name, arguments)
                                 for i, (name, arguments) in enumerate(calls)]
    return message


#: What the envs put at the end of an observation they cut at their length bound.
CUT_MARK = " ...[truncated]"


def _split_reply(reply: str, contents: Sequence[str] | None, calls: int) -> list[str]:
    """Each call's part of the env's reply to ``calls`` calls: the reply itself for one
    call; for parallel calls, their ``contents`` (the env joins them with newlines; when
    it cut the joined text at its length bound, each part is what was left of its result,
    with :data:`CUT_MARK` when it was cut); without ``contents`` the reply stays whole, on
    the first call."""
    if calls == 1:
        return [reply]
    if contents is None:
        return [reply] + [""] * (calls - 1)
    if "\n".join(contents) == reply:
        return list(contents)
    cut = reply.endswith(CUT_MARK)
    text = reply[:-len(CUT_MARK)] if cut else reply
    parts, start = [], 0
    for content in contents:
        part = text[start:start + len(content)]
        start += len(content) + 1
        parts.append(part + CUT_MARK if cut and len(part) < len(content) else part)
    return parts


def initial_messages(observation: str, info: dict, system_prompt: str | None = None
                     ) -> list[dict]:
    """The conversation at the start of an episode: a system message (``system_prompt``
    and the domain's ``info["policy"]``, when there are any) and the user's opening."""
    parts = [p for p in (system_prompt, (info or {}).get("policy")) if p]
    messages = [{"role": "system", "content": "\n\n".join(str(p) for p in parts)}] \
        if parts else []
    messages.append({"role": "user", "content": str(observation)})
    return messages


def tool_names(tools: Sequence[dict] | None) -> tuple[str, ...]:
    names = []
    for tool in tools or ():
        function = tool.get("function", tool) if isinstance(tool, dict) else {}
        if isinstance(function, dict) and isinstance(function.get("name"), str):
            names.append(function["name"])
    return tuple(names)


class EpisodeChat:
    """One episode's conversation, built as it is played.

        chat = EpisodeChat(observation, info, system_prompt)
        ...
        chat.add_turn(action, None if done else observation, results)
        record = chat.record(env_id=..., task_id=..., success=...)

    The opening is the one policies see (:func:`initial_messages`:
    a system message of ``system_prompt`` and the domain policy, then the user's opening);
    ``tools`` are ``info["tools"]``.
    """

    def __init__(self, observation: str, info: Mapping | None, system_prompt: str | None = None):
        info = info or {}
        self.tools = list(info.get("tools") or [])
        self._names = tool_names(self.tools) or None
        self.messages: list[dict] = initial_messages(observation, dict(info), system_prompt)
        self.call_count = 0

    def add_turn(self, action: Any, reply: str | None,
                 results: Sequence[Mapping] | None = None) -> None:
        """The agent's ``action`` and the env's ``reply`` (``None`` when the episode ended
        on it). ``results``: the calls the env ran on this step (``name``, ``arguments``,
        ``content``; e.g. the new entries of ``env.unwrapped.episode.calls``), which name the calls
        and give each parallel call its own result; without them the action is parsed."""
        parsed = parse_action(action, tool_names=self._names)
        if results:
            calls = [(r.get("name"), r.get("arguments")) for r in results]
            contents = [str(r.get("content", "")) for r in results]
        else:
            calls = [(c.name, c.arguments) for c in parsed.calls] if not parsed.error else []
            contents = None
        if calls:
            self.messages.append(assistant_turn(parsed.message or "", calls, self.call_count))
            ids = range(self.call_count, self.call_count + len(calls))
            self.call_count += len(calls)
            if reply is not None:
                parts = _split_reply(str(reply), contents, len(calls))
                for i, (name, _), part in zip(ids, calls, parts):
                    self.messages.append({"role": "tool", "tool_call_id": f"call_{i}",
                                          "name": str(name), "content": part})
            return
        text = _text(action) if isinstance(action, str) or parsed.error else \
            (parsed.message or "")
        self.messages.append(assistant_turn(text))
        if reply is not None:
            self.messages.append({"role": "user", "content": str(reply)})

    def record(self, **metadata: Any) -> dict:
        """The chat record (see :func:`chat_record`)."""
        return chat_record(self.messages, self.tools, **metadata)


def chat_record(messages: Sequence[dict], tools: Sequence[dict], **metadata: Any) -> dict:
    """``{"messages", "tools"}`` and every :data:`METADATA` column (``None`` when not
    given); an unknown metadata name is an error."""
    unknown = sorted(set(metadata) - set(METADATA))
    if unknown:
        raise ValueError(f"unknown metadata {unknown}: the columns are {list(METADATA)}")
    record: dict[str, Any] = {"messages": list(messages), "tools": list(tools)}
    record.update({key: metadata.get(key) for key in METADATA})
    return record


def features(extra: Mapping[str, str] | None = None):
    """The ``datasets.Features`` of chat records (``extra``: more ``{column: dtype}``)."""
    from datasets import Features, Json, List, Value

    columns: dict[str, Any] = {"messages": List(Json()), "tools": List(Json())}
    columns.update({k: Value(v) for k, v in {**METADATA, **(extra or {})}.items()})
    return Features(columns)


def _columns(rows: Sequence[Mapping]) -> dict[str, str]:
    """Columns beyond the record's (e.g. SFT's ``score``), typed from their values."""
    kinds = {bool: "bool", int: "int64", float: "float64", str: "string"}
    extra: dict[str, str] = {}
    for row in rows:
        for key, value in row.items():
            if key in ("messages", "tools") or key in METADATA or value is None:
                continue
            kind = kinds.get(type(value))
            if kind is None:
                raise ValueError(f"column {key!r} holds a {type(value).__name__}: chat "
                                 "datasets take only strings, numbers and booleans beside "
                                 "messages and tools")
            if extra.get(key) == "int64" and kind == "float64":
                extra[key] = kind
            else:
                extra.setdefault(key, kind)
    return extra


def to_dataset(rows: Sequence[Mapping]):
    """Chat records as a ``datasets.Dataset`` with :func:`features`."""
    from datasets import Dataset

    rows = list(rows)
    extra = _columns(rows)
    columns = ["messages", "tools", *METADATA, *extra]
    return Dataset.from_list([{k: row.get(k) for k in columns} for row in rows],
                             features=features(extra))


CARD = """\
---
{yaml}---
# {title}

Tool-use conversations in the Hugging Face / OpenAI chat format, one row per episode
(written by tool_gym, `tool_gym/chat.py`).

- `messages`: system, user, assistant and tool messages. Assistant tool calls are
  `{{"id": "call_<n>", "type": "function", "function": {{"name", "arguments"}}}}` with
  `arguments` a JSON object; each tool message carries the `tool_call_id` of its call.
- `tools`: the tool schemas the agent saw (OpenAI function format).
- metadata: {metadata}.

{description}

```python
from datasets import load_dataset
dataset = load_dataset("path/to/this/directory", split="train")
```
"""


def write_dataset(rows: Iterable[Mapping], out_dir: str | Path,
                  title: str = "tool_gym chat data", description: str = "") -> Path:
    """Write ``rows`` as a dataset directory that ``datasets.load_dataset(out_dir)`` loads:
    :data:`DATA_FILE` (JSON lines) and a ``README.md`` card declaring the features.
    Returns the data file."""
    from datasets import DatasetInfo
    from datasets.info import DatasetInfosDict
    from huggingface_hub import DatasetCardData

    rows = list(rows)
    extra = _columns(rows)
    columns = ["messages", "tools", *METADATA, *extra]
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    data = out / DATA_FILE
    with open(data, "w", encoding="utf-8") as f:
        # ASCII escapes: text an agent wrote may hold lone surrogates, which UTF-8 cannot
        f.writelines(json.dumps({k: row.get(k) for k in columns}) + "\n" for row in rows)
    header = DatasetCardData(configs=[{"config_name": "default", "data_files": [
        {"split": "train", "path": DATA_FILE}]}])
    DatasetInfosDict({"default": DatasetInfo(features=features(extra))}) \
        .to_dataset_card_data(header)
    card = CARD.format(yaml=header.to_yaml() + "\n", title=title,
                       metadata=", ".join(f"`{k}`" for k in [*METADATA, *extra]),
                       description=description.strip())
    (out / "README.md").write_text(card, encoding="utf-8")
    return data
