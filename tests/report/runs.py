"""Run directories for the report's tests and benchmark: small real runs of the evaluate
CLI, and larger runs fabricated from them in the same format.

:func:`evaluate_run` plays a real run through ``tool_gym.cli.evaluate.run_command``.
:func:`fabricate_run` writes a run of any size whose every episode (its line of
``episodes.jsonl`` and of ``trajectories.jsonl``) is a copy of a real episode given a new
task id, trial and numbers, and whose ``summary.json`` is ``tool_gym.core.metrics.summarize`` of
them, as the evaluate CLI writes it. :func:`explained_run` writes real episodes that fail
for known reasons.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from pathlib import Path

import gymnasium as gym

from tool_gym.agents.episode_loop import run_episode
from tool_gym.cli import evaluate
from tool_gym.core.actions import ToolCall
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


class _Script:
    """Plays ``steps(env.unwrapped)`` (made when the episode starts), then transfers."""

    def __init__(self, env, steps):
        self.env, self.steps, self.todo = env, steps, []

    def reset(self, observation, info):
        self.todo = list(self.steps(self.env.unwrapped))

    def act(self, observation, info):
        return self.todo.pop(0) if self.todo else \
            ToolCall("transfer_to_human_agents", {"summary": "handing over"})


def _first_call(base) -> list:
    return [s.call for s in base.kit.plan(base.task) if s.call is not None][:1]


def _unread_answer(base) -> list:
    """Authenticate, then say the order's total without reading the order."""
    return _first_call(base) + [f"The total of your order is ${base.task.constraints[0].answer}."]


def _cancel_another_order(base) -> list:
    """Authenticate, then cancel a pending order other than the one the user means."""
    target = base.task.constraints[0].args["order_id"]
    (other,) = base.sandbox.db.execute(
        "SELECT order_id FROM orders WHERE order_id != ? AND status = 'pending' "
        "ORDER BY user_id = ? DESC, order_id", (target, base.task.user_id)).fetchone()
    return _first_call(base) + [ToolCall("cancel_pending_order",
                                         {"order_id": other, "reason": "no longer needed"})]


#: The scripted episodes of :func:`explained_run`: (constraint type, steps).
EXPLAINED = (("info_order_total", _unread_answer), ("cancel_order", _cancel_another_order))


def explained_run(out: Path) -> Path:
    """A run of real ToolRetail-v0 episodes that fail for known reasons (one per entry of
    :data:`EXPLAINED`, task ``test-<i>``, trial 0): an answer said before a tool showed
    it, and a cancellation of the wrong order (its outcome fails, its write is
    redundant), with trajectories, written as the evaluate CLI writes a run."""
    out.mkdir(parents=True, exist_ok=True)
    records, chats = [], []
    for index, (kind, steps) in enumerate(EXPLAINED):
        env = gym.make("ToolRetail-v0", split="test", constraint_types=(kind,),
                       max_constraints=1)
        try:
            record = run_episode(env, _Script(env, steps), seed=index,
                                 task_id=f"test-{index}", trajectory=True)
        finally:
            env.close()
        trajectory = record.pop("trajectory")
        record.update(trial=0)
        records.append(record)
        chats.append(dict(trajectory, task_id=record["task_id"], trial=0, seed=index))
    config = {"env": "ToolRetail-v0", "policy": "scripted", "seed": 0, "env_kwargs": {}}
    summary = summarize(records, max_k=1)
    summary["config"] = dict(config, split="test", trials=1,
                             task_ids=[r["task_id"] for r in records])
    (out / "config.json").write_text(json.dumps(config, indent=2, sort_keys=True) + "\n")
    (out / "episodes.jsonl").write_text("".join(json.dumps(r, sort_keys=True) + "\n"
                                                for r in records))
    (out / "trajectories.jsonl").write_text("".join(evaluate.json_line(c) for c in chats))
    (out / "summary.json").write_text(json.dumps(summary, indent=2, sort_keys=True) + "\n")
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
