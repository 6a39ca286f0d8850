"""Policies see only what an agent sees: a ``module:Class`` policy cannot reach the hidden
task through what it is given; only ``--policy oracle`` gets the privileged access."""

from __future__ import annotations

import json
import sys
import textwrap

import gymnasium as gym
import pytest

from tool_gym.cli import evaluate
from tool_gym.agents import OraclePolicy, RandomPolicy, load_policy
from tool_gym.agents.isolation import IsolatedPolicy
from tool_gym.agents.privileged import OracleAccess, is_privileged, privileged_spec, reset_policy
from tool_gym.agents.episode_loop import run_episode
from tool_gym.agents.sft import SFTDataConfig, collect_verified
from tests.agents.fake_env import ENV_ID

SNOOP = textwrap.dedent('''
    """A policy that looks for the hidden task in everything it can reach."""
    import gc
    import json
    import os
    import sqlite3
    import sys
    import types

    import gymnasium as gym

    SUSPECTS = ("Task", "Constraint", "Description", "Refusal", "Expectation", "OracleAccess",
                "Sandbox", "FakeKit", "PlanStep", "ScriptedUser")


    def reachable(*roots, limit=500_000):
        """Every object reachable from ``roots`` through gc.get_referents (classes and
        modules are not entered: they lead to the whole program, not to what was given)."""
        seen = {}
        stack = list(roots)
        while stack and len(seen) < limit:
            obj = stack.pop()
            if id(obj) in seen:
                continue
            seen[id(obj)] = obj
            if isinstance(obj, (type, types.ModuleType)):
                continue
            stack.extend(gc.get_referents(obj))
        return list(seen.values())


    def suspect(obj):
        kind = type(obj)
        return kind.__name__ in SUSPECTS or issubclass(kind, (gym.Env, sqlite3.Connection))


    def suspects(*roots):
        """What the args lead to (referents), and what the whole process holds: every
        gc-tracked object, the referrers of the args, and the callers' frames."""
        found = {"given": sorted({type(o).__name__ for o in reachable(*roots) if suspect(o)})}
        found["process"] = sorted({type(o).__name__ for o in gc.get_objects() if suspect(o)})
        found["referrers"] = sorted({type(o).__name__ for r in roots
                                     for o in gc.get_referrers(r) if suspect(o)})
        frames, frame = set(), sys._getframe(1)
        while frame is not None:
            frames |= {type(v).__name__ for v in frame.f_locals.values() if suspect(v)}
            frame = frame.f_back
        found["frames"] = sorted(frames)
        return found


    def log(entry):
        with open(os.environ["SNOOP_LOG"], "a") as f:
            f.write(json.dumps(entry) + "\\n")


    class Snoop:
        def reset(self, *args, **kwargs):
            log({"call": "reset", "args": len(args), "kwargs": sorted(kwargs),
                 "found": suspects(args, kwargs)})

        def reset_privileged(self, observation, info, access):
            log({"call": "reset_privileged"})

        def act(self, *args, **kwargs):
            if args and args[0] == "boom":
                raise KeyError("boom")
            log({"call": "act", "found": suspects(args, kwargs)})
            return "Hello, could you tell me your email address?"


    def make_oracle():
        from tool_gym.agents.oracle import OraclePolicy

        return OraclePolicy()
''')


def entries(path):
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


NOTHING = {"given": [], "process": [], "referrers": [], "frames": []}


@pytest.fixture
def snoop(tmp_path, monkeypatch):
    (tmp_path / "snoop_policy_mod.py").write_text(SNOOP)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("SNOOP_LOG", str(tmp_path / "snoop.jsonl"))
    import snoop_policy_mod

    yield snoop_policy_mod, tmp_path / "snoop.jsonl"
    sys.modules.pop("snoop_policy_mod", None)


@pytest.mark.filterwarnings("ignore::FutureWarning")  # the process scan touches torch's objects
def test_in_process_the_snoop_finds_the_task(snoop):
    """The detector works, and shows why a user's policy runs in a process of its own:
    in the env's process, what it is handed leads nowhere, but the process does."""
    import tool_gym  # noqa: F401

    module, log = snoop
    env = gym.make("ToolRetail-v0")
    observation, info = env.reset(seed=0, options={"task_id": "test-0"})
    given = module.suspects(observation, info, env)["given"]
    assert "Task" in given and "Constraint" in given  # handed the env: found
    found = module.suspects(observation, info)
    assert found["given"] == []  # handed (observation, info): nothing reachable from them
    assert "Task" in found["process"] and "ToolEnv" in found["process"]


@pytest.mark.parametrize("env_id", ["ToolRetail-v0", "ToolCall-Simple-v0", ENV_ID])
def test_a_module_class_policy_finds_nothing_in_evaluate(snoop, tmp_path, env_id):
    _, log = snoop
    summary = evaluate.run_command(["--env", env_id, "--policy", "snoop_policy_mod:Snoop",
                                    "--tasks", "2", "--trials", "1", "--out", str(tmp_path / "run")])
    assert summary["episodes"] == 2
    seen = entries(log)
    resets = [e for e in seen if e["call"] == "reset"]
    assert [(e["args"], e["kwargs"]) for e in resets] == [(2, [])] * 2  # (observation, info)
    assert len(seen) > len(resets) and all(e["call"] != "reset_privileged" for e in seen)
    assert all(e["found"] == NOTHING for e in seen), seen[:3]


def test_a_module_class_policy_is_never_privileged(snoop, tmp_path, capsys):
    _, log = snoop
    policy = load_policy("snoop_policy_mod:Snoop")
    assert not is_privileged(policy)
    env = gym.make(ENV_ID)
    run_episode(env, policy, seed=0, task_id="test-1")  # by type: not privileged
    assert entries(log)[0]["call"] == "reset"
    assert all(e["call"] != "reset_privileged" for e in entries(log))
    with pytest.raises(ValueError, match="never privileged"):
        load_policy("tool_gym.agents.oracle:OraclePolicy")
    with pytest.raises(ValueError, match="never privileged"):
        load_policy("snoop_policy_mod:make_oracle")  # a factory that returns the oracle
    with pytest.raises(SystemExit):
        evaluate.run_command(["--env", ENV_ID, "--policy", "tool_gym.agents.oracle:OraclePolicy",
                              "--tasks", "1", "--out", str(tmp_path / "no")])
    assert "never privileged" in capsys.readouterr().err
    assert not (tmp_path / "no").exists()  # refused before any work
    assert privileged_spec("oracle") and privileged_spec(" oracle ")
    assert not privileged_spec("snoop_policy_mod:Snoop") and not privileged_spec("random")


def test_subclasses_of_the_oracle_are_not_privileged():
    class Sub(OraclePolicy):
        pass

    env = gym.make(ENV_ID)
    observation, info = env.reset(seed=0, options={"task_id": "test-3"})
    assert is_privileged(OraclePolicy()) and not is_privileged(Sub())
    with pytest.raises(TypeError, match="privileged"):
        reset_policy(Sub(), observation, info, env)  # plain reset: the oracle refuses
    with pytest.raises(TypeError, match="reset_privileged"):
        reset_policy(RandomPolicy(), observation, info, env, privileged=True)


def test_oracle_access_is_only_the_task_and_kit():
    env = gym.make(ENV_ID)
    env.reset(seed=0, options={"task_id": "test-3"})
    access = OracleAccess.from_env(env)
    assert access.task is env.unwrapped.task and access.kit is env.unwrapped.kit
    with pytest.raises(AttributeError):
        access.task = None  # frozen


def test_evaluate_oracle_still_solves_every_task(tmp_path):
    summary = evaluate.run_command(["--policy", "oracle", "--split", "test", "--tasks", "10",
                                    "--trials", "1", "--out", str(tmp_path / "oracle")])
    assert summary["pass_hat_k"] == {"1": 1.0}


def test_sft_data_grants_the_access_by_spec_only(snoop):
    _, log = snoop
    base = dict(env_id=ENV_ID, tasks=2, trials=1, split="test", task_offset=3)
    rows = collect_verified(SFTDataConfig(policy="oracle", **base))
    assert rows  # the oracle, from its spec, solved test-3 (always lucky in the fake env)
    json.dumps(rows)  # chat examples only
    collect_verified(SFTDataConfig(policy="snoop_policy_mod:Snoop", **base))
    seen = entries(log)
    assert [e["call"] for e in seen if e["call"].startswith("reset")] == ["reset", "reset"]
    assert all(e["found"] == NOTHING for e in seen)


def test_isolated_policy_errors_are_one_line_or_re_raised(snoop, tmp_path, capsys):
    with pytest.raises(SystemExit):
        evaluate.run_command(["--env", ENV_ID, "--policy", "snoop_policy_mod:Nope", "--tasks",
                              "1", "--out", str(tmp_path / "no")])
    error = capsys.readouterr().err
    assert "has no attribute 'Nope'" in error and error.count("\n") == 1
    assert not (tmp_path / "no").exists()
    with IsolatedPolicy("snoop_policy_mod:Snoop") as policy:
        with pytest.raises(RuntimeError, match="KeyError: 'boom'"):
            policy.act("boom", {})  # the child's exception comes back with its traceback
        policy.reset("hi", {"tools": []})
        assert policy.act("hi", {}) == "Hello, could you tell me your email address?"
    with pytest.raises(RuntimeError, match="closed"):
        policy.act("hi", {})


def test_ray_workers_run_a_module_class_policy_apart(snoop):
    from tool_gym.agents.distributed import EpisodeWorker

    _, log = snoop
    worker = EpisodeWorker(ENV_ID, {}, "snoop_policy_mod:Snoop")  # the actor's class, no Ray
    assert not worker.privileged
    records = worker.run([("test-1", 0, 0), ("test-2", 0, 1)])
    assert [r[0] for r in records] == ["test-1", "test-2"]
    seen = entries(log)
    assert [e["call"] for e in seen if e["call"].startswith("reset")] == ["reset", "reset"]
    assert all(e["found"] == NOTHING for e in seen)
    worker.policy.close()
    oracle = EpisodeWorker(ENV_ID, {}, "oracle")
    assert oracle.privileged and oracle.run([("test-3", 0, 0)])[0][3]["success"]
