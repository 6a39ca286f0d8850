"""evaluate.py on a small fake env (files, determinism, resume) and on ToolRetail-v0
(the oracle solves every task, the random policy scores about 0)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.agents.fake_env import ENV_ID
from tool_gym.agents.episode_loop import run_episode as real_run_episode
from tool_gym.cli import evaluate
from tool_gym.cli.checks import UsageError

ROOT = Path(__file__).resolve().parents[2]
ARGS = ["--env", ENV_ID, "--tasks", "5", "--trials", "3", "--seed", "1"]
FILES = ("episodes.jsonl", "summary.json", "config.json")


def run(out, *extra, args=ARGS):
    return evaluate.run_command([*args, "--out", str(out), *extra])


def read(out):
    return {name: (out / name).read_bytes() for name in FILES}


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    out = tmp_path_factory.mktemp("reference")
    summary = run(out)
    return out, summary, read(out)


class CountingRollout:
    """Counts episodes played; raises KeyboardInterrupt at episode ``kill_at`` (a kill)."""

    def __init__(self, kill_at=None):
        self.kill_at = kill_at
        self.played = []

    def __call__(self, env, policy, seed, task_id, **kwargs):
        if self.kill_at is not None and len(self.played) == self.kill_at:
            raise KeyboardInterrupt
        self.played.append((task_id, seed))
        return real_run_episode(env, policy, seed, task_id, **kwargs)


def test_files_and_summary(reference):
    out, summary, files = reference
    assert (out / "pass_hat_k.png").stat().st_size > 1000
    lines = files["episodes.jsonl"].decode().splitlines()
    assert len(lines) == 15
    records = [json.loads(line) for line in lines]
    assert [(r["task_id"], r["trial"]) for r in records] == \
        [(f"test-{i}", t) for i in range(5) for t in range(3)]
    required = {"task_id", "trial", "seed", "success", "score", "turns", "tool_calls",
                "violations", "redundant_writes", "constraints", "ended", "reward"}
    for line, record in zip(lines, records):
        assert required <= set(record)
        assert line == json.dumps(record, sort_keys=True)
        assert record["seed"] == evaluate.episode_seed(1, record["task_id"], record["trial"])
        assert all(set(c) == {"type", "satisfied"} for c in record["constraints"])
    assert len({r["seed"] for r in records}) == 15
    saved = json.loads(files["summary.json"])
    assert saved == json.loads(json.dumps(summary))
    for key in ("pass_hat_k", "pass_hat_k_ci", "pass_at_k", "constraint_types", "mean_score",
                "mean_turns", "mean_tool_calls", "violations", "episodes", "config"):
        assert key in saved
    assert list(saved["pass_hat_k"]) == ["1", "2", "3"]
    for k, (low, high) in saved["pass_hat_k_ci"].items():
        assert low <= saved["pass_hat_k"][k] <= high
    assert saved["episodes"] == 15 and saved["tasks"] == 5
    assert 0 < saved["pass_hat_k"]["1"] < 1  # the fake env's luck varies with the seed


def test_second_run_is_byte_identical(reference, tmp_path):
    out, _, files = reference
    run(tmp_path / "again")
    assert read(tmp_path / "again") == files


def test_rerun_of_finished_run_plays_nothing(reference, tmp_path, monkeypatch):
    out = tmp_path / "done"
    run(out)
    counter = CountingRollout()
    monkeypatch.setattr(evaluate, "run_episode", counter)
    run(out)
    assert counter.played == []
    assert read(out) == reference[2]


@pytest.mark.parametrize("kill_at", [0, 1, 7, 14])
def test_resume_after_kill(reference, tmp_path, monkeypatch, kill_at):
    out = tmp_path / "killed"
    first = CountingRollout(kill_at=kill_at)
    monkeypatch.setattr(evaluate, "run_episode", first)
    with pytest.raises(KeyboardInterrupt):
        run(out)
    assert len((out / "episodes.jsonl").read_text().splitlines()) == kill_at
    assert not (out / "summary.json").exists()
    second = CountingRollout()
    monkeypatch.setattr(evaluate, "run_episode", second)
    run(out)
    assert len(first.played) == kill_at and len(second.played) == 15 - kill_at
    assert not set(first.played) & set(second.played)  # nothing played twice
    assert read(out) == reference[2]


@pytest.mark.parametrize("cut", ["mid_line", "no_newline", "garbage_tail", "blank_tail"])
def test_resume_after_partial_line(reference, tmp_path, monkeypatch, cut):
    out = tmp_path / "cut"
    out.mkdir()
    files = reference[2]
    (out / "config.json").write_bytes(files["config.json"])
    lines = files["episodes.jsonl"].splitlines(keepends=True)
    head = b"".join(lines[:6])
    tail = {"mid_line": lines[6][: len(lines[6]) // 2], "no_newline": lines[6][:-1],
            "garbage_tail": b"{not json\n", "blank_tail": b"\n"}[cut]
    (out / "episodes.jsonl").write_bytes(head + tail)
    counter = CountingRollout()
    monkeypatch.setattr(evaluate, "run_episode", counter)
    run(out)
    assert len(counter.played) == 9
    assert read(out) == files


def test_load_episodes_drops_only_the_last_line(tmp_path):
    path = tmp_path / "episodes.jsonl"
    path.write_text('{"task_id": "a", "trial": 0, "x": 1}\n{"task_id": "a", "trial": 0, "x": 2}\n'
                    '{"task_id": "b", "trial": 1}\n{"task_id": "c", "tr')
    done = evaluate.load_episodes(path)
    assert done == {("a", 0): {"task_id": "a", "trial": 0, "x": 1},
                    ("b", 1): {"task_id": "b", "trial": 1}}
    assert path.read_text().endswith('{"task_id": "b", "trial": 1}\n')
    path.write_text('{"task_id": "a", "trial": 0}\nbroken\n{"task_id": "b", "trial": 1}\n')
    with pytest.raises(UsageError, match=":2 "):
        evaluate.load_episodes(path)


def test_more_trials_and_tasks_extend_a_run(reference, tmp_path, monkeypatch):
    out = tmp_path / "grow"
    run(out, args=[*ARGS[:2], "--tasks", "2", "--trials", "2", "--seed", "1"])
    counter = CountingRollout()
    monkeypatch.setattr(evaluate, "run_episode", counter)
    run(out)
    assert len(counter.played) == 15 - 4
    assert read(out) == reference[2]
    # a smaller run into the same directory keeps the other episodes but counts only its own
    summary = run(out, args=[*ARGS[:2], "--tasks", "2", "--trials", "3", "--seed", "1"])
    assert len(counter.played) == 15 - 4
    assert summary["episodes"] == 6
    assert (out / "episodes.jsonl").read_bytes() == reference[2]["episodes.jsonl"]


def test_task_ids_and_argument_errors(tmp_path, capsys):
    summary = run(tmp_path / "ids", "--task-ids", "train-3,test-7", args=[
        "--env", ENV_ID, "--trials", "2"])
    records = [json.loads(line) for line in
               (tmp_path / "ids" / "episodes.jsonl").read_text().splitlines()]
    assert [(r["task_id"], r["trial"]) for r in records] == \
        [("train-3", 0), ("train-3", 1), ("test-7", 0), ("test-7", 1)]
    assert summary["config"]["task_ids"] == ["train-3", "test-7"]
    with pytest.raises(SystemExit):
        run(tmp_path / "both", "--task-ids", "test-1")  # with --tasks from ARGS
    with pytest.raises(SystemExit):
        run(tmp_path / "dup", "--task-ids", "test-1,test-1", args=["--env", ENV_ID])
    capsys.readouterr()
    with pytest.raises(SystemExit) as stop:
        run(tmp_path / "ids", "--policy", "random", "--task-ids", "train-3,test-7",
            args=["--env", ENV_ID, "--trials", "2"])
    assert stop.value.code == 2 and "other settings" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        run(tmp_path / "bad", "--split", "valid")
    with pytest.raises(SystemExit):
        run(tmp_path / "bad", "--env-kwargs", "[1]")


def test_defaults(monkeypatch, tmp_path):
    args = evaluate.parse_args([])
    assert (args.env, args.policy, args.split, args.trials, args.seed) == \
        ("ToolRetail-v0", "oracle", "test", 4, 0)
    assert len(evaluate.resolve_task_ids(args)) == 200
    assert evaluate.resolve_task_ids(evaluate.parse_args(["--split", "train"]))[-1] == "train-99"
    args = evaluate.parse_args(["--policy", "pkg.mod:My/Policy", "--env", "X-v0"])
    assert evaluate.default_out(args) == Path("runs/X-v0-pkg.mod_My_Policy-test")
    monkeypatch.chdir(tmp_path)
    evaluate.run_command(["--env", ENV_ID, "--policy", "random", "--tasks", "2", "--trials", "1",
                          "--env-kwargs", '{"max_turns": 3}'])
    out = tmp_path / "runs" / f"{ENV_ID}-random-test"
    saved = json.loads((out / "summary.json").read_text())
    assert saved["pass_hat_k"] == {"1": 0.0}
    assert saved["config"]["env_kwargs"] == {"max_turns": 3}
    assert all(json.loads(line)["turns"] == 3
               for line in (out / "episodes.jsonl").read_text().splitlines())


def test_command_line(reference, tmp_path):
    out = tmp_path / "cli"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    result = subprocess.run(
        [sys.executable, str(ROOT / "evaluate.py"), "--env", f"tests.agents.fake_env:{ENV_ID}",
         *ARGS[2:], "--out", str(out)], cwd=ROOT, env=env, capture_output=True, text=True,
        timeout=120)
    assert result.returncode == 0, result.stderr
    assert "pass^k" in result.stdout and "cancel_order" in result.stdout
    assert (out / "episodes.jsonl").read_bytes() == reference[2]["episodes.jsonl"]


# ---------------------------------------------------------------------- the real env


def real_run(tmp_path, policy, split, tasks, trials=1):
    return evaluate.run_command(["--policy", policy, "--split", split, "--tasks", str(tasks),
                                 "--trials", str(trials), "--out", str(tmp_path / f"{policy}-{split}")])


@pytest.mark.parametrize("split,tasks,trials", [("test", 50, 2), ("train", 100, 1)])
def test_real_env_oracle_solves_every_task(tmp_path, split, tasks, trials):
    summary = real_run(tmp_path, "oracle", split, tasks, trials)
    failed = [line for line in (tmp_path / f"oracle-{split}" / "episodes.jsonl")
              .read_text().splitlines() if not json.loads(line)["success"]]
    assert not failed, failed[:3]
    assert summary["pass_hat_k"] == {str(k): 1.0 for k in range(1, trials + 1)}
    assert summary["violations"]["total"] == 0 and summary["redundant_writes"]["total"] == 0


def test_real_env_random_scores_near_zero(tmp_path):
    summary = real_run(tmp_path, "random", "test", 50)
    assert summary["mean_score"] <= 0.05
    assert summary["pass_hat_k"]["1"] <= 0.05


def test_real_env_is_reproducible_and_resumes(tmp_path, monkeypatch):
    args = ["--policy", "random", "--task-ids", "test-0,train-1,test-2", "--trials", "2"]
    evaluate.run_command([*args, "--out", str(tmp_path / "a")])
    monkeypatch.setattr(evaluate, "run_episode", CountingRollout(kill_at=3))
    with pytest.raises(KeyboardInterrupt):
        evaluate.run_command([*args, "--out", str(tmp_path / "b")])
    monkeypatch.setattr(evaluate, "run_episode", real_run_episode)
    evaluate.run_command([*args, "--out", str(tmp_path / "b")])
    assert read(tmp_path / "a") == read(tmp_path / "b")
