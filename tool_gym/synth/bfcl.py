"""BFCL's single-turn data: import its test categories as tasks, export tasks in its format.

The Berkeley Function Calling Leaderboard ships its data in the ``bfcl-eval`` package
(``pip install tool_gym[bfcl]``, an optional extra). Only its data files are read: the
package is located with ``importlib.util.find_spec`` and never imported, so its heavy
dependencies need not be installed. A category is two JSON-lines files::

    BFCL_v4_<category>.json                  {"id", "question": [[messages]], "function": [docs]}
    possible_answer/BFCL_v4_<category>.json  {"id", "ground_truth": [{name: {param: [values]}}]}

(the irrelevance categories have no possible answers: the right answer is no call).
:func:`export` writes tasks the same way, so BFCL's own runner and checker read them.
"""

from __future__ import annotations

import importlib.util
import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Iterable

from .formats import FunctionTask, read_jsonl, write_jsonl

__all__ = [
    "SINGLE_TURN",
    "available",
    "concrete_value",
    "data_dir",
    "export",
    "function_docs",
    "load",
    "reference_calls",
]

#: BFCL's single-turn Python categories this package can serve and check.
SINGLE_TURN = ("simple_python", "multiple", "parallel", "parallel_multiple", "irrelevance",
               "live_simple", "live_multiple", "live_parallel", "live_parallel_multiple",
               "live_irrelevance", "live_relevance")
#: Short names accepted for the four main categories.
ALIASES = {"simple": "simple_python"}

_INSTALL_HINT = ("BFCL data needs the bfcl-eval package: pip install 'tool_gym[bfcl]' "
                 "(or pip install --no-deps bfcl-eval: only its data files are read)")


def available() -> bool:
    """Whether BFCL's data can be found (``bfcl-eval`` installed)."""
    try:
        data_dir()
    except ImportError:
        return False
    return True


@lru_cache(maxsize=1)
def data_dir() -> Path:
    """The ``data`` folder of the installed ``bfcl_eval`` package (never imported)."""
    spec = importlib.util.find_spec("bfcl_eval")
    if spec is None or not spec.submodule_search_locations:
        raise ImportError(_INSTALL_HINT)
    for location in spec.submodule_search_locations:
        path = Path(location) / "data"
        if path.is_dir():
            return path
    raise ImportError(f"bfcl_eval has no data folder; {_INSTALL_HINT}")


def _file(category: str, answers: bool = False) -> Path | None:
    folder = data_dir() / "possible_answer" if answers else data_dir()
    found = []
    for path in folder.glob(f"BFCL_v*_{category}.json"):
        match = re.fullmatch(rf"BFCL_v(\d+)_{re.escape(category)}\.json", path.name)
        if match:
            found.append((int(match.group(1)), path))
    return max(found)[1] if found else None


def _question(question: list) -> tuple[str, list[dict]]:
    """The user's request and the whole prompt (when it has more than that message)."""
    turn = question[0] if question and isinstance(question[0], list) else question
    messages = [{"role": m.get("role", "user"), "content": m.get("content", "")} for m in turn]
    users = [m["content"] for m in messages if m["role"] == "user"]
    text = users[-1] if users else (messages[-1]["content"] if messages else "")
    return text, (messages if len(messages) > 1 else [])


def _omitted(value) -> bool:
    return isinstance(value, str) and value == ""


_NONE = object()


def _first(options):
    """The first accepted value that is not ``""``, or ``_NONE``."""
    options = options if isinstance(options, list) else [options]
    return next((o for o in options if not _omitted(o)), _NONE)


def concrete_value(value):
    """A value a call can send, from one accepted value: inside a dict (or a list of
    dicts) each key holds accepted values in turn, so the first that is not ``""`` is
    taken (keys with none are left out)."""
    if isinstance(value, dict):
        out = {}
        for key, options in value.items():
            chosen = _first(options)
            if chosen is not _NONE:
                out[key] = concrete_value(chosen)
        return out
    if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
        return [concrete_value(v) for v in value]
    return value


def reference_calls(answers: list[dict], functions: list[dict] | None = None) -> list[dict]:
    """One correct answer as OpenAI ``tool_calls`` entries: each parameter takes its first
    accepted value other than ``""``, and is left out where there is none (or where the
    function's document, when given, does not have it)."""
    docs = {d.get("name"): d for d in functions or []}
    calls = []
    for answer in answers:
        (name, params), = answer.items()
        properties = ((docs[name].get("parameters") or {}).get("properties")
                      if name in docs else None)
        arguments = {}
        for param, accepted in (params or {}).items():
            if properties is not None and param not in properties:
                continue
            chosen = _first(accepted)
            if chosen is not _NONE:
                arguments[param] = concrete_value(chosen)
        calls.append({"type": "function",
                      "function": {"name": name, "arguments": json.dumps(arguments)}})
    return calls


@lru_cache(maxsize=32)
def _load(category: str) -> tuple[FunctionTask, ...]:
    questions = _file(category)
    if questions is None:
        known = sorted({p.name.split("_", 2)[2][:-5] for p in data_dir().glob("BFCL_v*_*.json")})
        raise ValueError(f"no BFCL category {category!r}; known: {', '.join(known)}")
    answer_file = _file(category, answers=True)
    truth = {}
    if answer_file is not None:
        truth = {row["id"]: row["ground_truth"] for row in read_jsonl(answer_file)}
    tasks = []
    for row in read_jsonl(questions):
        text, messages = _question(row["question"])
        answers = truth.get(row["id"], [])
        if not isinstance(answers, list):
            answers = [answers]
        tasks.append(FunctionTask(
            id=row["id"], category=category, question=text, functions=row["function"],
            answers=answers, messages=messages,
            calls=reference_calls(answers, row["function"]),
            meta={"source": f"bfcl:{category}"}))
    return tuple(tasks)


def load(categories: str | Iterable[str]) -> list[FunctionTask]:
    """BFCL's tasks of one or more categories (``"simple_python"``, ``"multiple"``,
    ``"parallel"``, ``"parallel_multiple"``, ``"irrelevance"``, ``live_*``; ``"simple"``
    is ``simple_python``; ``"all"`` is the four main ones and irrelevance)."""
    if isinstance(categories, str):
        categories = [c.strip() for c in categories.split(",") if c.strip()]
    names: list[str] = []
    for category in categories:
        if category == "all":
            names += ["simple_python", "multiple", "parallel", "parallel_multiple",
                      "irrelevance"]
        else:
            names.append(ALIASES.get(category, category))
    for name in names:
        if name not in SINGLE_TURN:
            raise ValueError(f"BFCL category {name!r} is not single-turn Python; "
                             f"use one of {', '.join(SINGLE_TURN)}")
    return [task for name in names for task in _load(name)]


def function_docs(categories: str | Iterable[str] = "all") -> list[dict]:
    """Every distinct function document of these BFCL categories (by name and content)."""
    seen: dict[str, dict] = {}
    for task in load(categories):
        for doc in task.functions:
            key = json.dumps(doc, sort_keys=True)
            seen.setdefault(key, doc)
    return list(seen.values())


def export(tasks: Iterable[FunctionTask], out_dir: str | Path, name: str,
           version: int = 4) -> tuple[Path, Path]:
    """Write tasks as BFCL's question file and possible-answer file for a category named
    ``name``; returns both paths. Tasks without answers (irrelevance) get no answer row."""
    out_dir = Path(out_dir)
    (out_dir / "possible_answer").mkdir(parents=True, exist_ok=True)
    questions = out_dir / f"BFCL_v{version}_{name}.json"
    answers = out_dir / "possible_answer" / f"BFCL_v{version}_{name}.json"
    tasks = list(tasks)

    def question(task: FunctionTask) -> list:
        turn = task.messages or [{"role": "user", "content": task.question}]
        return [turn]

    write_jsonl(questions, ({"id": t.id, "question": question(t), "function": t.functions}
                            for t in tasks))
    write_jsonl(answers, ({"id": t.id, "ground_truth": t.answers} for t in tasks if t.answers))
    return questions, answers
