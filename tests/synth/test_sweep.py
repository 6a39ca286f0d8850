"""Rescoring recorded trajectories under several PROVE weight settings."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tool_gym.core.prove import ProveRewardConfig
from tool_gym.synth import sweep

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

TRUTH = [{"name": "a", "arguments": {"x": 1}, "after": []},
         {"name": "b", "arguments": {"y": 2}, "after": [0]}]
VERBOSE = [{"name": "a", "arguments": {"x": 1}, "stage": 3},
           {"name": "b", "arguments": {"y": 2}, "stage": 3}] + \
    [{"name": "x", "arguments": {}, "stage": 3}] * 4
TERSE = [{"name": "a", "arguments": {"x": 1}, "stage": 3}]


def records(calls, n=2):
    return [{"task_id": f"train-{i}", "trial": 0, "calls": calls, "ground_truth": TRUTH}
            for i in range(n)]


def test_parse_setting():
    name, cfg = sweep.parse_setting("heavy:alpha=1,validity=0.3")
    assert name == "heavy" and cfg == ProveRewardConfig(alpha=1.0, validity=0.3)
    assert sweep.parse_setting("plain:")[1] == ProveRewardConfig()
    for bad in (":alpha=1", "x:alpha", "x:nope=1"):
        with pytest.raises(ValueError):
            sweep.parse_setting(bad)


def test_rank_and_kendall_tau():
    assert sweep.rank({"a": 2.0, "b": 1.0, "c": 2.0}) == {"a": 1, "c": 1, "b": 3}
    assert sweep.kendall_tau({"a": 1, "b": 2, "c": 3}, {"a": 1, "b": 2, "c": 3}) == 1.0
    assert sweep.kendall_tau({"a": 1, "b": 2, "c": 3}, {"a": 3, "b": 2, "c": 1}) == -1.0
    # one discordant pair of three: (2 - 1) / 3
    assert sweep.kendall_tau({"a": 1, "b": 2, "c": 3}, {"a": 2, "b": 1, "c": 3}) == \
        pytest.approx(1 / 3)
    assert sweep.kendall_tau({"a": 1}, {"a": 5}) == 1.0


def test_rescore_by_hand():
    (default,) = sweep.rescore(records(VERBOSE, 1), ProveRewardConfig())
    # n = 6, B = 2 + 1 = 3: E = -0.5 * 3 / 3; V = C = A = 1, N = 2 / 6
    assert default["efficiency"] == pytest.approx(-0.5)
    # 0.5 V + 0.5 C + 0.15 E + 0.2 N + 0.1 A
    assert default["total"] == pytest.approx(0.5 + 0.5 + 0.15 * -0.5 + 0.2 / 3 + 0.1)
    assert sweep.rescore([{"calls": []}], ProveRewardConfig()) == []  # no ground truth


def test_sweep_reports_a_ranking_change():
    runs = [("verbose", records(VERBOSE)), ("terse", records(TERSE))]
    report = sweep.sweep(runs)
    assert list(report["settings"]) == ["lenient", "default", "strict"]
    p = report["policies"]
    # verbose (n = 6, V = C = A = 1, N = 2/6): 1.1 + 0.2 / 3 + 0.15 E, with
    # lenient B = 4, E = -0.25 * 2 / 4; default B = 3, E = -0.5; strict B = 3, E = -1.
    # terse (one call a): V = 1, C = 1/2, E = 0, N = 1, A = 1 -> 0.5 + 0.25 + 0.2 + 0.1
    assert p["verbose"]["lenient"]["total"] == pytest.approx(1.1 + 0.2 / 3 - 0.15 * 0.125)
    assert p["verbose"]["default"]["total"] == pytest.approx(1.1 + 0.2 / 3 - 0.15 * 0.5)
    assert p["verbose"]["strict"]["total"] == pytest.approx(1.1 + 0.2 / 3 - 0.15)
    for name in ("lenient", "default", "strict"):
        assert p["terse"][name]["total"] == pytest.approx(1.05)
    assert report["rankings"]["lenient"] == {"verbose": 1, "terse": 2}
    assert report["rankings"]["default"] == {"verbose": 1, "terse": 2}
    assert report["rankings"]["strict"] == {"verbose": 2, "terse": 1}
    assert report["changes"]["default"] == {"against": "lenient", "kendall_tau": 1.0,
                                            "moved": {}}
    change = report["changes"]["strict"]
    assert change["against"] == "lenient" and change["kendall_tau"] == -1.0
    assert change["moved"] == {"verbose": [1, 2], "terse": [2, 1]}
    assert p["terse"]["default"]["episodes"] == 2


def test_evaluate_trajectories_and_sweep_command(tmp_path, capsys):
    from tool_gym.cli import evaluate

    kwargs = json.dumps({"task_source": "chains", "reward": "prove"})
    common = ["--env", "ToolRetail-v0", "--split", "train", "--tasks", "3", "--trials", "1",
              "--env-kwargs", kwargs]
    evaluate.run_command(common + ["--policy", "oracle", "--out", str(tmp_path / "plain")])
    evaluate.run_command(common + ["--policy", "oracle", "--out", str(tmp_path / "oracle"),
                                   "--save-trajectories"])
    evaluate.run_command(common + ["--policy", "random", "--out", str(tmp_path / "random"),
                                   "--save-trajectories"])
    # the flag adds a file and changes no other output
    for name in ("episodes.jsonl", "summary.json", "config.json"):
        assert (tmp_path / "plain" / name).read_bytes() == \
            (tmp_path / "oracle" / name).read_bytes()
    assert not (tmp_path / "plain" / "trajectories.jsonl").exists()
    lines = (tmp_path / "oracle" / "trajectories.jsonl").read_text().splitlines()
    assert len(lines) == 3
    first = json.loads(lines[0])
    assert first["task_id"] == "train-0" and first["trial"] == 0
    assert first["calls"] and first["ground_truth"]
    assert {"name", "arguments", "stage", "ok", "content"} <= set(first["calls"][0])
    # resuming keeps the trajectories and rewrites them in order
    evaluate.run_command(common + ["--policy", "oracle", "--out", str(tmp_path / "oracle"),
                                   "--save-trajectories"])
    assert (tmp_path / "oracle" / "trajectories.jsonl").read_text().splitlines() == lines

    out = tmp_path / "sweep.json"
    report = sweep.main([str(tmp_path / "oracle"), str(tmp_path / "random"),
                         "--out", str(out)])
    printed = capsys.readouterr().out
    assert "== default" in printed and "kendall tau" in printed
    assert json.loads(out.read_text()) == json.loads(json.dumps(report))
    for name in report["settings"]:
        assert report["policies"]["oracle"][name]["normalized"] == pytest.approx(1.0)
        assert report["rankings"][name]["oracle"] == 1
    custom = sweep.main([str(tmp_path / "oracle"), "--setting", "only:coverage=1"])
    assert list(custom["settings"]) == ["only"]
    with pytest.raises(FileNotFoundError):
        sweep.load_run(tmp_path / "plain")
