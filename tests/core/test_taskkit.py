import gymnasium as gym
import numpy as np
import pytest

from tool_gym.agents import OraclePolicy
from tool_gym.agents.rollout import run_episode
from tool_gym.core import domain as domain_table
from tool_gym.core.taskkit import mentions_answer, split_of
from tool_gym.core.tasks import SamplerConfig, Task
from tool_gym.envs.tool_env import ToolEnv

from . import toy_tasks


@pytest.fixture()
def env(monkeypatch):
    monkeypatch.setitem(domain_table.DOMAINS, "toy_tasks", "tests.core.toy_tasks")
    e = ToolEnv("toy_tasks", max_constraints=2)
    yield e
    e.close()


def test_oracle_solves_rule_kit_tasks_through_the_env(env):
    for i in range(30):
        record = run_episode(env, OraclePolicy(), seed=i, task_id=f"train-{i}")
        assert record["success"], (i, record)
        assert record["violations"] == 0


def test_expectations_fail_before_and_hold_after(env):
    env.reset(seed=3, options={"task_id": "train-3"})
    task = env.task
    kit = env.kit
    for c in task.constraints:
        if c.expect:
            assert not kit.check(env.sandbox.db, task, c, [])
    for step in kit.plan(task):
        if step.call and step.call.name == "transfer":
            assert env.sandbox.call(step.call.name, step.call.arguments).ok
    for c in task.constraints:
        if c.expect:
            assert kit.check(env.sandbox.db, task, c, [])


def test_sampling_is_deterministic_and_serializable(env):
    db = env.template.reader()
    a = toy_tasks.KIT.sample(db, np.random.default_rng(5), "train", SamplerConfig(), "t")
    b = toy_tasks.KIT.sample(db, np.random.default_rng(5), "train", SamplerConfig(), "t")
    assert a == b
    assert Task.from_dict(a.to_dict()) == a
    assert a.identity.proof.holds(db)
    types = {c.type for i in range(40) for c in toy_tasks.KIT.sample(
        db, np.random.default_rng(i), "train", SamplerConfig(), "t").constraints}
    assert types == {"move_money", "info_balance"}


def test_owner_and_phrasing(env):
    db = env.template.reader()
    kit = toy_tasks.KIT
    assert kit.owner(db, "transfer", {"src": "acc3", "dst": "acc4", "amount": 1}) == "acc3"
    assert kit.owner(db, "transfer", {"src": 5}) is None
    assert kit.owner(db, "get_balance", {"account_id": "acc3"}) is None
    task = kit.sample(db, np.random.default_rng(1), "train", SamplerConfig(), "t")
    rng = np.random.default_rng(0)
    assert kit.identify(task, rng) == f"I am {task.user_id}."
    assert kit.request(task, task.constraints[0], rng) in task.constraints[0].say


def test_answers_and_splits():
    assert mentions_answer("1234.50", ["It is 1,234.50 dollars."])
    assert not mentions_answer("7", ["There are 17."])
    assert not mentions_answer("7", ["It costs 7.5"])
    shares = [split_of(f"user_{i}") for i in range(2000)]
    assert 0.15 < shares.count("test") / 2000 < 0.25
    assert split_of("x", test_share=0) == "train"
