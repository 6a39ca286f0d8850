"""Many live environments in one process (``benchmarks/memory.py`` at a smaller count):
all alive, each with its own database, none affected by another's writes; a generous
sanity bound on the memory per env. No timing or exact byte assertion."""

import importlib.util
import json
import sys
from pathlib import Path

import pytest

import tool_gym
from tool_gym.agents import OraclePolicy
from tool_gym.agents.episode_loop import run_episode

BENCHMARK = Path(__file__).resolve().parents[1] / "benchmarks" / "memory.py"
COUNTS = {"ToolRetail-v0": 200}  # live envs per id; 20 for the other ids


def load():
    spec = importlib.util.spec_from_file_location("benchmark_memory", BENCHMARK)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


memory = load()


@pytest.mark.parametrize("env_id", tool_gym.ENV_IDS)
def test_live_environments_are_alive_and_independent(env_id):
    count = COUNTS.get(env_id, 20)
    writers = range(0, count, 10)  # these envs then play a whole oracle episode (writes)
    probe = memory.live_env(env_id, 0)
    stateful = getattr(probe.unwrapped, "sandbox", None) is not None
    probe.close()
    if not stateful:
        pytest.skip(f"{env_id} keeps no episode database (single-turn)")
    result, envs = memory.measure(env_id, count, traced=10)
    try:
        assert len(envs) == count
        assert memory.check_live(envs) == {"alive": count, "distinct connections": count,
                                           "databases equal to the template": count}
        assert len({env.unwrapped.task.id for env in envs}) > count // 2  # their own tasks
        if result["rss per env, bytes"] is not None:  # memory freed earlier may be reused
            assert result["rss per env, bytes"] < 20 * 2**20
        assert 0 < result["python heap per env (tracemalloc), bytes"] < 20 * 2**20
        assert result["database per env, bytes"] > 0

        template = memory.template_fingerprint(envs[0])
        policy = OraclePolicy()
        for i in writers:  # whole oracle episodes in a few of the live envs
            for j in range(5):  # until one task writes
                run_episode(envs[i], policy, seed=10_000 + i, task_id=f"train-{i + 1000 * j}")
                if memory.fingerprint(envs[i]) != template:
                    break
        changed = {i for i, env in enumerate(envs) if memory.fingerprint(env) != template}
        assert changed and changed <= set(writers)  # nobody else saw those writes
        for i in sorted(set(writers) | set(range(5, count, 10))):  # 10-50 ms each
            assert envs[i].unwrapped.sandbox.check_integrity() == []
    finally:
        for env in envs:
            env.close()


def test_memory_benchmark_writes_its_report(tmp_path):
    out = tmp_path / "memory.json"
    report = memory.main(["--count", "20", "--traced", "5", "--no-progress", "--out", str(out)])
    saved = json.loads(out.read_text())
    assert saved == json.loads(json.dumps(report))
    results = saved["results"]
    assert results["env"] == "ToolRetail-v0" and results["count"] == 20
    assert results["all alive and independent"] is True
    assert results["alive"] == results["distinct connections"] == 20
    assert results["python heap per env (tracemalloc), bytes"] > 0
