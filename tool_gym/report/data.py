"""Run directories as the report's one compact data model (JSON-ready).

A run directory of ``tool-gym-evaluate`` holds ``summary.json`` (the numbers: the page
shows them as they are, never recomputed), ``episodes.jsonl`` (one outcome per episode:
the grid, the lists and the filters are built from it alone) and, with
``--save-trajectories``, ``trajectories.jsonl`` (each episode's chat record, its calls
and its reference plan: the transcripts).

:func:`load_runs` returns ``(model, transcripts)``:

- ``model`` is small (about 200 bytes an episode) and parsed when the page opens: the
  runs (label, directory, config, ``summary.json`` verbatim, the command that gets
  transcripts), the tasks in order, the names the episodes share (constraint types,
  endings, violation kinds, tools, the reasons constraints failed, once each) and one row
  per line of ``episodes.jsonl``: each constraint ``[type, held]``, or ``[type, false,
  reason]`` when its record gives the reason it failed, and ``redundant``, the redundant
  writes as ``[tool, target]`` (when the record lists them);
- ``transcripts`` is a list of chunks of :data:`CHUNK` episodes each, every chunk the
  gzip of its JSON in base64, opened only when one of its episodes is shown.

A transcript merges the chat messages with the recorded calls: each agent turn carries
its calls, each call its arguments, validity stage, outcome and the result the agent saw;
the system prompt and the tool list, the same in every episode of a run, are stored once
per run.
"""

from __future__ import annotations

import base64
import gzip
import json
import shlex
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tool_gym.cli.checks import UsageError

__all__ = ["CHUNK", "EPISODES", "SUMMARY", "TRAJECTORIES", "check_run_dir", "load_runs",
           "transcripts_command"]

EPISODES, SUMMARY, TRAJECTORIES, CONFIG = ("episodes.jsonl", "summary.json",
                                           "trajectories.jsonl", "config.json")
#: Episodes per compressed transcript chunk: opening one episode inflates one chunk.
CHUNK = 50
#: What each rule that the verification counts (``violation_counts``) forbids.
RULES = {
    "call_and_message_together": "a tool call and a message to the user in one action",
    "multiple_calls_in_message": "several tool calls in one action",
    "multiple_writes_in_turn": "a second write without a new yes from the user",
    "write_before_authentication": "a write before the user was authenticated",
    "write_on_other_user": "a write on the records of another user",
    "write_without_confirmation": "a write without the user's explicit yes",
}
#: The validity stage of a call (``tool_gym.core.tools``): how far it got.
STAGES = {0: "unknown tool", 1: "invalid arguments", 2: "tool error", 3: "ran"}


def check_run_dir(path: str | Path) -> None:
    """A run directory the report can read: ``summary.json`` and ``episodes.jsonl``
    there (:class:`UsageError` saying what is missing otherwise)."""
    run = Path(path)
    if not run.is_dir():
        raise UsageError(f"RUN_DIR {path} is not a directory")
    for name in (SUMMARY, EPISODES):
        if not (run / name).is_file():
            raise UsageError(f"RUN_DIR {path} has no {name}: give a directory that "
                             f"tool-gym-evaluate --out wrote (a finished run)")


def _json_lines(path: Path) -> list[dict]:
    rows = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except ValueError:
                raise UsageError(f"{path}:{number} is not JSON; rerun tool-gym-evaluate "
                                 f"with the same --out to repair it") from None
            if not isinstance(row, dict) or "task_id" not in row or "trial" not in row:
                raise UsageError(f"{path}:{number} is not an episode record")
            rows.append(row)
    return rows


def _read_json(path: Path) -> dict:
    try:
        value = json.loads(path.read_text(encoding="utf-8"))
    except ValueError:
        raise UsageError(f"{path} is not JSON") from None
    if not isinstance(value, dict):
        raise UsageError(f"{path} is not a JSON object")
    return value


def transcripts_command(config: dict, run_dir: str | Path) -> str:
    """The ``tool-gym-evaluate`` command that replays the run of ``config`` (the
    ``config`` of ``summary.json``) with ``--save-trajectories --report`` into a new
    directory beside ``run_dir`` (a resumed run would skip the finished episodes)."""
    words = ["tool-gym-evaluate", "--env", str(config.get("env", "ToolRetail-v0")),
             "--policy", str(config.get("policy", "oracle"))]
    if config.get("split"):
        words += ["--split", str(config["split"])]
    task_ids = [str(t) for t in config.get("task_ids") or []]
    split = config.get("split")
    if task_ids and task_ids == [f"{split}-{i}" for i in range(len(task_ids))]:
        words += ["--tasks", str(len(task_ids))]
    elif task_ids:
        words += ["--task-ids", ",".join(task_ids)]
    if config.get("trials") is not None:
        words += ["--trials", str(config["trials"])]
    words += ["--seed", str(config.get("seed", 0))]
    if config.get("env_kwargs"):
        words += ["--env-kwargs", json.dumps(config["env_kwargs"], sort_keys=True)]
    flags = {"temperature": "--temperature", "max_tokens": "--max-tokens",
             "max_new_tokens": "--max-tokens", "api_key_env": "--api-key-env"}
    for key, value in sorted((config.get("policy_kwargs") or {}).items()):
        if key in flags:
            words += [flags[key], str(value)]
    out = Path(run_dir)
    words += ["--save-trajectories", "--report",
              "--out", str(out.with_name(out.name + "-transcripts"))]
    return shlex.join(words)


def _write_tools(env_id: str | None) -> set[str]:
    """Names of the WRITE tools of the env's domain (empty when it has none or is unknown)."""
    if not env_id:
        return set()
    try:
        import gymnasium as gym

        import tool_gym  # noqa: F401 - registers the ids
        from tool_gym.core.tools import Category

        domain = gym.spec(env_id.rpartition(":")[2]).kwargs.get("domain")
        if domain is None:
            return set()
        return {t.name for t in tool_gym.get_domain(domain).toolbox
                if t.category is Category.WRITE}
    except Exception:  # noqa: BLE001 - an env of another install: no write marks
        return set()


class _Names:
    """A list of distinct names and each one's index (the model stores indices)."""

    def __init__(self):
        self.items: list = []
        self._index: dict = {}

    def __call__(self, name) -> int:
        key = json.dumps(name, sort_keys=True) if not isinstance(name, str) else name
        if key not in self._index:
            self._index[key] = len(self.items)
            self.items.append(name)
        return self._index[key]


def _transcript(trajectory: dict, writes: set[str], prompts: _Names, toolsets: _Names
                ) -> tuple[dict, list[str]]:
    """One episode's transcript (see the module docstring) and the names of the tools it
    called."""
    calls = trajectory.get("calls") or []
    messages = list(trajectory.get("messages") or [])
    system = None
    if messages and messages[0].get("role") == "system":
        system = prompts(str(messages.pop(0).get("content") or ""))
    tools = [(t.get("function") or t).get("name", "?") for t in trajectory.get("tools") or []
             if isinstance(t, dict)]
    results = {m.get("tool_call_id"): str(m.get("content") or "")
               for m in messages if m.get("role") == "tool"}
    plan = [(g.get("name"), g.get("arguments")) for g in trajectory.get("ground_truth") or []]
    planned = [json.dumps(step, sort_keys=True) for step in plan]
    turns, called = [], []
    for message in messages:
        role = message.get("role")
        if role == "tool":
            continue  # shown with its call
        if role != "assistant":
            turns.append({"who": "user", "text": str(message.get("content") or "")})
            continue
        turn = {"who": "agent", "text": str(message.get("content") or ""), "calls": []}
        for entry in message.get("tool_calls") or []:
            function = entry.get("function") or {}
            number = int(str(entry.get("id", "call_-1")).rpartition("_")[2] or -1)
            ran = calls[number] if 0 <= number < len(calls) else {}
            name = str(function.get("name", ran.get("name", "?")))
            call = {"name": name, "arguments": function.get("arguments"),
                    "stage": ran.get("stage"), "ok": bool(ran.get("ok")),
                    "result": results.get(entry.get("id"), str(ran.get("content", "")))}
            if name in writes:
                call["write"] = True
                if call["ok"] and plan:
                    step = json.dumps((name, function.get("arguments")), sort_keys=True)
                    call["planned"] = step in planned
                    if step in planned:
                        planned.remove(step)
            turn["calls"].append(call)
            called.append(name)
        turns.append(turn)
    return {"system": system, "tools": toolsets(tools), "turns": turns,
            "plan": [{"name": n, "arguments": a} for n, a in plan]}, called


def _chunks(transcripts: Sequence[dict]) -> list[str]:
    """Base64 of the gzip of each :data:`CHUNK` transcripts' JSON (``mtime=0``: the same
    runs give the same bytes)."""
    chunks = []
    for start in range(0, len(transcripts), CHUNK):
        text = json.dumps(transcripts[start:start + CHUNK], separators=(",", ":"))
        packed = gzip.compress(text.encode("utf-8"), compresslevel=6, mtime=0)
        chunks.append(base64.b64encode(packed).decode("ascii"))
    return chunks


def load_runs(run_dirs: Sequence[str | Path]) -> tuple[dict, list[str]]:
    """The model and the transcript chunks of ``run_dirs`` (each checked with
    :func:`check_run_dir` first)."""
    for run_dir in run_dirs:
        check_run_dir(run_dir)
    tasks, types, endings, kinds, tool_names = _Names(), _Names(), _Names(), _Names(), _Names()
    reasons = _Names()

    def constraint(c: dict) -> list:
        row = [types(str(c.get("type"))), bool(c.get("satisfied"))]
        if not row[1] and c.get("reason"):
            row.append(reasons(str(c["reason"])))
        return row

    runs, episodes, transcripts = [], [], []
    for number, run_dir in enumerate(run_dirs):
        run = Path(run_dir)
        summary = _read_json(run / SUMMARY)
        config = dict(_read_json(run / CONFIG)) if (run / CONFIG).is_file() else {}
        config.update(summary.get("config") or {})
        rows = _json_lines(run / EPISODES)
        saved = {(t["task_id"], t["trial"]): t for t in _json_lines(run / TRAJECTORIES)} \
            if (run / TRAJECTORIES).is_file() else {}
        planned = set(map(str, config.get("task_ids") or []))
        trials = config.get("trials")
        writes = _write_tools(config.get("env"))
        prompts, toolsets = _Names(), _Names()
        uncounted = 0
        for row in rows:
            counted = (not planned or str(row["task_id"]) in planned) and \
                (trials is None or int(row["trial"]) < int(trials))
            uncounted += not counted
            episode = {
                "run": number, "task": tasks(str(row["task_id"])), "trial": int(row["trial"]),
                "seed": row.get("seed"), "success": bool(row.get("success")),
                "score": row.get("score"), "reward": row.get("reward"),
                "turns": row.get("turns"), "tool_calls": row.get("tool_calls"),
                "errors": row.get("errors"), "violations": row.get("violations", 0),
                "violation_counts": {str(kinds(k)): v for k, v in
                                     (row.get("violation_counts") or {}).items()},
                "redundant_writes": row.get("redundant_writes", 0),
                "satisfied_fraction": row.get("satisfied_fraction"),
                "ended": endings(str(row.get("ended", ""))),
                "constraints": [constraint(c) for c in row.get("constraints") or []],
                "counted": counted,
            }
            if row.get("redundant"):
                episode["redundant"] = [[str(w.get("tool")), w.get("target")]
                                        for w in row["redundant"] if isinstance(w, dict)]
            if row.get("tau2"):
                episode["tau2"] = row["tau2"]
            trajectory = saved.get((row["task_id"], row["trial"]))
            if trajectory is not None:
                transcript, called = _transcript(trajectory, writes, prompts, toolsets)
                episode["transcript"] = len(transcripts)
                episode["called"] = sorted({tool_names(name) for name in called})
                transcripts.append(transcript)
            episodes.append(episode)
        runs.append({
            "label": chr(ord("A") + number) if number < 26 else str(number + 1),
            "name": run.name or str(run), "dir": str(run_dir), "config": config,
            "summary": summary, "has_transcripts": bool(saved),
            "transcripts_command": transcripts_command(config, run_dir),
            "uncounted": uncounted, "prompts": prompts.items,
            "toolsets": toolsets.items,
        })
    model = {"format": 1, "runs": runs, "tasks": tasks.items, "types": types.items,
             "endings": endings.items, "kinds": kinds.items, "tools": tool_names.items,
             "reasons": reasons.items,
             "rules": RULES, "stages": {str(k): v for k, v in STAGES.items()},
             "chunk": CHUNK, "episodes": episodes}
    return model, _chunks(transcripts)
