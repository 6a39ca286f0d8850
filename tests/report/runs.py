"""Run directories for the report's tests and benchmark: small real runs of the evaluate
CLI, and larger runs fabricated from them in the same format.

:func:`evaluate_run` plays a real run through ``tool_gym.cli.evaluate.run_command``.
:func:`fabricate_run` writes a run of any size whose every episode (its line of
``episodes.jsonl`` and of ``trajectories.jsonl``) is a copy of a real episode given a new
task id, trial and numbers, and whose ``summary.json`` is ``tool_gym.core.metrics.summarize`` of
them, as the evaluate CLI writes it.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from pathlib import Path

from tool_gym.cli import evaluate
from tool_gym.core.metrics import summarize

#: Agent text that must stay text in the page (the report's escaping is tested with it).
HOSTILE = ('</script><script>window.__pwned = 1; alert(1)</script>'
           '<img src=x onerror="window.__pwned = 2"> <!-- & \u2028 done')


def evaluate_run(out: Path, policy: str, tasks: int = 3, trials: int = 2,
                 trajectories: bool = True, report: bool = False,
                 env_kwargs: dict | None = None) -> Path:
    """A real ``tool-gym-evaluate`` run of ``policy`` on ToolRetail-v0's test split."""
    argv = ["--env", "ToolRetail-v0", "--policy", policy, "--split", "test",
            "--tasks", str(tasks), "--trials", str(trials), "--out", str(out),
            "--env-kwargs", json.dumps(env_kwargs or {})]
    argv += ["--save-trajectories"] if trajectories else []
    argv += ["--report"] if report else []
    evaluate.run_command(argv)
    return out


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def fabricate_run(out: Path, sources: Sequence[Path], episodes: int, trials: int = 4,
                  seed: int = 0, hostile: bool = False) -> Path:
    """A run of ``episodes`` episodes (``episodes // trials`` tasks x ``trials``) copied
    from the episodes of ``sources`` (runs with trajectories), chosen with ``seed``. With
    ``hostile``, the first episode's first agent message, first tool result and task id
    hold :data:`HOSTILE`."""
    pool = []
    for source in sources:
        saved = {(t["task_id"], t["trial"]): t for t in _lines(source / "trajectories.jsonl")}
        pool += [(e, saved[(e["task_id"], e["trial"])]) for e in _lines(source / "episodes.jsonl")]
    rng = random.Random(seed)
    out.mkdir(parents=True, exist_ok=True)
    tasks = max(1, episodes // trials)
    task_ids = [f"test-{i}" for i in range(tasks)]
    records, chats = [], []
    for task_id in task_ids:
        for trial in range(trials):
            episode, chat = (json.loads(json.dumps(x)) for x in rng.choice(pool))
            episode.update(task_id=task_id, trial=trial)
            chat.update(task_id=task_id, trial=trial)
            _renumber(chat, rng)
            records.append(episode)
            chats.append(chat)
    if hostile:
        _poison(records[0], chats[0])
        task_ids[0] = records[0]["task_id"]
    config = {"env": "ToolRetail-v0", "policy": "fabricated", "seed": seed, "env_kwargs": {}}
    summary = summarize(records, max_k=trials)
    summary["config"] = dict(config, split="test", trials=trials, task_ids=task_ids)
    (out / "config.json").write_text(json.dumps(config, indent=2, sort_keys=True) + "\n")
    (out / "episodes.jsonl").write_text("".join(json.dumps(r, sort_keys=True) + "\n"
                                                for r in records))
    (out / "trajectories.jsonl").write_text("".join(evaluate.json_line(c) for c in chats))
    (out / "summary.json").write_text(json.dumps(summary, indent=2, sort_keys=True) + "\n")
    return out


def _renumber(chat: dict, rng: random.Random) -> None:
    """Give the copy its own numbers (a digit permutation over its user and tool texts), so
    that no two copies of one episode are the same text (the compression of the report's
    transcripts is then that of distinct episodes)."""
    digits = list("0123456789")
    rng.shuffle(digits)
    table = str.maketrans("0123456789", "".join(digits))
    for message in chat["messages"]:
        if message["role"] in ("user", "tool") and isinstance(message.get("content"), str):
            message["content"] = message["content"].translate(table)


def _poison(record: dict, chat: dict) -> None:
    task_id = "test-0" + HOSTILE
    record["task_id"] = chat["task_id"] = task_id
    said = called = False
    for message in chat["messages"]:
        if message["role"] == "assistant" and not said:
            message["content"] = HOSTILE
            said = True
        if message["role"] == "tool" and not called:
            message["content"] = HOSTILE
            called = True
