from importlib.metadata import EntryPoint

import numpy as np
import pytest

from tool_gym.agents import OraclePolicy
from tool_gym.agents.episode_loop import run_episode
from tool_gym.core.taskkit import UserDraws, ViewTaskKit, mentions_answer, split_of
from tool_gym.core.actions import ToolCall
from tool_gym.core.task_model import SamplerConfig, Task
from tool_gym.domains import ENTRY_POINT_GROUP as GROUP, plugins
from tool_gym.envs.tool_env import ToolEnv

from . import toy_tasks


@pytest.fixture()
def env(monkeypatch):
    monkeypatch.setitem(plugins(), "toy_tasks",
                        EntryPoint("toy_tasks", "tests.core.toy_tasks:DOMAIN", GROUP))
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


def _view_kit(**kw):
    """The toy samplers on a ViewTaskKit: the view is loaded once per user and seen by
    every sampler; ``move_money`` at most once per task."""
    loaded = []

    def view(db, user_id):
        loaded.append(user_id)
        return {"user": user_id}

    def seen(sampler):
        def wrapped(ctx):
            assert ctx.view == {"user": ctx.user_id}
            return sampler(ctx)
        return wrapped

    kit = ViewTaskKit(
        "toy", {"move_money": seen(toy_tasks.move_money),
                "info_balance": seen(toy_tasks.balance_question)},
        view=view, identify=toy_tasks.identify, users_table="accounts", user_column="owner",
        auth_tools=("find_account",), owners=toy_tasks.KIT.owners,
        auth_call=lambda d: ToolCall("find_account", {"owner": d.fields["owner"]}),
        ask_identity="Who are you?", test_share=0,
        draws=UserDraws(batch_train=2), once=("move_money",), **kw)
    return kit, loaded


def test_view_kit_draws_loaded_users_deterministically(env):
    db = env.template.reader()
    kit, loaded = _view_kit(may_lead=lambda db, kind, user: user != "owner3",
                            preferred=lambda db, user: user.endswith("7"))
    config = SamplerConfig(max_constraints=3, distractors=1.0)
    tasks = [kit.sample(db, np.random.default_rng(s), "train", config, f"t{s}")
             for s in range(20)]
    again = [kit.sample(db, np.random.default_rng(s), "train", config, f"t{s}")
             for s in range(20)]
    assert [t.digest for t in tasks] == [t.digest for t in again]
    assert loaded and "owner3" not in {t.user_id for t in tasks}
    assert all([c.type for c in t.constraints].count("move_money") <= 1 for t in tasks)
    with pytest.raises(ValueError, match="unknown toy constraint types"):
        kit.sample(db, np.random.default_rng(0), "train", SamplerConfig(types=("x",)), "t")
    plan = kit.plan(tasks[0])
    assert plan[0].say == "Who are you?" and plan[1].call.name == "find_account"


def test_kit_hooks_have_defaults_and_checks_by_table(env):
    db = env.template.reader()
    kit, _ = _view_kit(checks={"move_money": lambda db, args: args["src"] == "nowhere"})
    task = kit.sample(db, np.random.default_rng(0), "train",
                      SamplerConfig(types=("move_money",)), "t")
    assert not kit.check(db, task, task.constraints[0], [])  # the table's check, not expect
    assert kit.policy_violations(db, "transfer", {}) == []
    assert kit.tool_schemas(task) is None and kit.ground_truth(task) is None
    assert kit.scripted_user(task, db, np.random.default_rng(0), 3) is None
    assert kit.identity_asks is None
    assert toy_tasks.KIT.verify(task, db, [], None, "user_stop", None) is None
