"""benchmarks/rollout.py with tiny settings: JSON shape, identical tokens on the batched and
one-at-a-time sides, and TRL's environment_factory side on a tool_gym id."""

import importlib.util
import json
import sys
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("transformers")

from .lockstep_env import ENV_ID  # noqa: E402

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "rollout.py"


def load_script():
    spec = importlib.util.spec_from_file_location("benchmark_rollout", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_rollout_benchmark_smoke(tmp_path):
    module = load_script()
    out = tmp_path / "rollout.json"
    report = module.main(["--env", ENV_ID, "--episodes", "6", "--max-new-tokens", "6",
                          "--max-turns", "3", "--threads", "1", "--no-trl", "--out", str(out)])
    assert json.loads(out.read_text()) == report
    assert report["same_tokens"] is True  # greedy: both sides generate the same tokens
    batched, single = report["batched"], report["one_at_a_time"]
    assert batched["model_tokens"] == single["model_tokens"] > 0
    assert batched["generations"] == 3 and single["generations"] > 6
    assert report["tokens_per_second_ratio"] > 0 and report["episodes_per_second_ratio"] > 0


def test_rollout_benchmark_compares_the_environment_factory_path(tmp_path):
    pytest.importorskip("trl")
    module = load_script()
    out = tmp_path / "rollout.json"
    report = module.main(["--env", "ToolCall-Simple-v0", "--episodes", "4",
                          "--max-new-tokens", "4", "--max-turns", "2", "--threads", "1",
                          "--out", str(out)])
    assert json.loads(out.read_text()) == report
    trl = report["environment_factory"]
    assert trl["episodes"] == 4 and 0 < trl["model_tokens"] <= 4 * 4 * 2
    assert trl["generations"] >= 1 and trl["tokens_per_second"] > 0
    assert set(report["ratios_to_one_at_a_time"]) == {"batched", "one_at_a_time",
                                                      "environment_factory"}
