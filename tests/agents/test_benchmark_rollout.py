"""benchmarks/rollout.py with tiny settings: JSON shape, identical tokens on both sides."""

import importlib.util
import json
import sys
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("transformers")

from .lockstep_env import ENV_ID  # noqa: E402

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "rollout.py"


def test_rollout_benchmark_smoke(tmp_path):
    spec = importlib.util.spec_from_file_location("benchmark_rollout", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    out = tmp_path / "rollout.json"
    report = module.main(["--env", ENV_ID, "--episodes", "6", "--max-new-tokens", "6",
                          "--max-turns", "3", "--threads", "1", "--out", str(out)])
    assert json.loads(out.read_text()) == report
    assert report["same_tokens"] is True  # greedy: both sides generate the same tokens
    batched, single = report["batched"], report["one_at_a_time"]
    assert batched["model_tokens"] == single["model_tokens"] > 0
    assert batched["generations"] == 3 and single["generations"] > 6
    assert report["tokens_per_second_ratio"] > 0 and report["episodes_per_second_ratio"] > 0
