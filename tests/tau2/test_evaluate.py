"""evaluate.py on tau2's tasks: tau2's ids, --split all, the tau2 report, one-line errors."""

from __future__ import annotations

import json

import pytest

from tool_gym.cli import evaluate
from tool_gym.core.metrics import summarize

from .conftest import tau2_data


def _kwargs(domain: str) -> str:
    data = tau2_data(domain)
    return json.dumps({"task_source": "tau2", **({"data": data} if data else {})})


def test_oracle_on_tau2_ids(tmp_path):
    summary = evaluate.run_command(["--env", "ToolRetail-v0", "--env-kwargs", _kwargs("retail"),
                                    "--policy", "oracle", "--split", "all", "--tasks", "3",
                                    "--trials", "1", "--out", str(tmp_path)])
    assert summary["config"]["task_ids"] == ["0", "1", "2"]
    assert summary["pass_hat_k"]["1"] == 1.0
    tau2 = summary["tau2"]
    assert tau2["reward_mean"] == 1.0 and tau2["db_match_rate"] == 1.0
    # tasks whose reward basis has NL assertions are reported apart (their number depends
    # on the task file's version)
    assert sum(row["tasks"] for row in tau2["groups"].values()) == 3
    assert all(row["pass_hat_1"] == 1.0 for row in tau2["groups"].values())
    lines = (tmp_path / "episodes.jsonl").read_text().splitlines()
    assert all(json.loads(line)["tau2"]["db_match"] for line in lines)


def test_rejected_gold_writes_are_named(tmp_path):
    summary = evaluate.run_command(["--env", "ToolRetail-v0", "--env-kwargs", _kwargs("retail"),
                                    "--policy", "oracle", "--split", "all", "--task-ids", "64,105,0",
                                    "--trials", "1", "--out", str(tmp_path)])
    assert summary["tau2"]["tasks_with_rejected_gold_writes"] == ["64", "105"]
    assert summary["pass_hat_k"]["1"] == 1.0


def test_split_follows_tau2s_split_file(tmp_path):
    summary = evaluate.run_command(["--env", "ToolAirline-v0", "--env-kwargs", _kwargs("airline"),
                                    "--policy", "random", "--split", "test", "--trials", "1",
                                    "--tasks", "2", "--out", str(tmp_path)])
    from tool_gym.tau2.source import load_tasks, locate, split_ids

    data = tau2_data("airline")
    files = locate("airline", data)
    assert summary["config"]["task_ids"] == split_ids(files, load_tasks(files), "test")[:2]
    assert summary["success_rate"] == 0.0


@pytest.mark.parametrize("argv,message", [
    (["--split", "all"], "--split all plays tau2's tasks"),
    (["--env-kwargs", '{"task_source": "tau2", "data": "/nonexistent"}'],
     "--env-kwargs: data='/nonexistent' is not a directory"),
])
def test_command_line_mistakes_are_one_line(argv, message, tmp_path, capsys):
    with pytest.raises(SystemExit) as stop:
        evaluate.run_command(["--policy", "oracle", "--out", str(tmp_path), *argv])
    error = capsys.readouterr().err
    assert stop.value.code == 2 and error.startswith(f"{evaluate.PROG}: error: {message}")
    assert error.count("\n") == 1


def test_summary_reports_nl_assertion_tasks_apart():
    def episode(task, ok, nl):
        return {"task_id": task, "success": ok, "tau2": {
            "db_match": ok, "communicate_info": True, "reward": float(ok),
            "nl_assertions_unchecked": nl, "rejected_gold_writes": 0}}

    summary = summarize([episode("0", True, True), episode("1", False, True),
                         episode("2", True, False)], max_k=1)
    groups = summary["tau2"]["groups"]
    assert groups["NL assertions unchecked"] == {"tasks": 2, "pass_hat_1": 0.5}
    assert groups["checked (no NL assertions)"] == {"tasks": 1, "pass_hat_1": 1.0}
    assert summary["tau2"]["db_match_rate"] == pytest.approx(2 / 3)
    assert "tau2" not in summarize([{"task_id": "a", "success": True}], max_k=1)
