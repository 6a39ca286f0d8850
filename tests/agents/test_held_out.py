"""Held-out scores between training stages: success with its Wilson interval and reward
kept apart; the opening context's token count; the final table."""

from __future__ import annotations

import pytest

pytest.importorskip("torch")

from tool_gym.agents.batched_rollouts import Trajectory
from tool_gym.agents.held_out import (
    held_out_tasks,
    opening_context,
    plot_stages,
    score_trajectories,
    stage_table,
)
from tool_gym.core.metrics import wilson_interval


def episode(success, reward):
    return Trajectory(task_id="t", seed=0, prompt_ids=[1], rewards=[reward],
                      record={"success": success, "score": float(success)})


def test_success_and_reward_are_apart():
    """More reward with fewer successes (valid calls that solve nothing) shows as such."""
    solving = score_trajectories([episode(True, 1.6)] * 2 + [episode(False, 0.0)] * 6)
    busy = score_trajectories([episode(True, 1.6)] + [episode(False, 0.6)] * 7)
    assert solving["success"] > busy["success"] and busy["reward"] > solving["reward"]
    assert solving["success_ci"] == [round(x, 4) for x in wilson_interval(2, 8)]
    assert solving["successes"] == 2 and solving["episodes"] == 8


def test_wilson_interval():
    assert wilson_interval(0, 64)[0] == 0.0 and 0.05 < wilson_interval(0, 64)[1] < 0.06
    low, high = wilson_interval(32, 64)
    assert low < 0.5 < high and abs((low + high) / 2 - 0.5) < 1e-9
    with pytest.raises(ValueError):
        wilson_interval(3, 2)


def test_held_out_tasks_spread_over_databases():
    assert held_out_tasks(3, 1, {"prompt": "compact"}) == [
        ({"prompt": "compact"}, ["test-0", "test-1", "test-2"])]
    groups = held_out_tasks(7, 3, {"db_seed": 5, "prompt": "compact"})
    assert groups == [
        ({"db_seed": 5, "prompt": "compact"}, ["test-0", "test-1", "test-2"]),
        ({"db_seed": 6, "prompt": "compact"}, ["test-0", "test-1"]),
        ({"db_seed": 7, "prompt": "compact"}, ["test-0", "test-1"])]
    assert sum(len(ids) for _, ids in groups) == 7
    # more databases than tasks: one task on each of the first databases
    assert [kw["db_seed"] for kw, _ in held_out_tasks(2, 8)] == [0, 1]
    with pytest.raises(ValueError):
        held_out_tasks(4, 0)


def test_opening_context_counts_and_the_compact_prompt_is_smaller(tiny):
    _, tokenizer = tiny
    full = opening_context(tokenizer, "ToolRetail-v0")
    compact = opening_context(tokenizer, "ToolRetail-v0", {"prompt": "compact"})
    assert full["total"] == full["system"] + full["opening"] and full["tools"] == 16
    assert compact["total"] < full["total"] / 2


def test_stage_table_lists_the_stages_run():
    stages = {"before": score_trajectories([episode(False, 0.0)] * 4),
              "grpo": score_trajectories([episode(True, 1.0)] * 4)}
    table = stage_table(stages, 4).splitlines()
    assert len(table) == 3 and table[1].split()[0] == "before" and table[2].split()[0] == "grpo"


def test_plot_of_the_stages_is_a_png(tmp_path):
    pytest.importorskip("matplotlib")
    stages = {"before": score_trajectories([episode(False, 0.0)] * 4),
              "sft": score_trajectories([episode(True, 1.6)] * 3 + [episode(False, 0.2)])}
    assert plot_stages(stages, tmp_path / "held_out.png", "title")
    assert (tmp_path / "held_out.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
