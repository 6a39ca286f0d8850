"""Why a failed episode failed: each failed constraint's ``reason`` and the redundant writes
(``redundant``), in ``info["verification"]`` and in the episode record. A reason is given
exactly where the kit's check fails, and it never changes a verdict."""

from __future__ import annotations

import gymnasium as gym
import pytest

import tool_gym  # noqa: F401  (registers the ids)
from tool_gym.agents import OraclePolicy, RandomPolicy
from tool_gym.agents.adversarial import ADVERSARIES, PROBES
from tool_gym.agents.episode_loop import run_episode
from tool_gym.core.actions import ToolCall
from tool_gym.core.grounding import ANSWER_GAPS, REFUSAL_GAPS
from tool_gym.core.verify import UNEXPLAINED
from tool_gym.envs.tool_env import ToolEnv

TRANSFER = ToolCall("transfer_to_human_agents", {"summary": "handing over"})


class Script:
    """Plays ``steps(env.unwrapped)`` (made when the episode starts), then transfers."""

    def __init__(self, env, steps):
        self.env, self.steps, self.todo = env, steps, []

    def reset(self, observation, info):
        self.todo = list(self.steps(self.env.unwrapped))

    def act(self, observation, info):
        return self.todo.pop(0) if self.todo else TRANSFER


def play(types, steps, env_id="ToolRetail-v0", task_id="train-0"):
    env = gym.make(env_id, constraint_types=types, max_constraints=1)
    try:
        return run_episode(env, Script(env, steps), seed=0, task_id=task_id)
    finally:
        env.close()


def plan_calls(base):
    return [s.call for s in base.kit.plan(base.task) if s.call is not None]


def authenticate(base):
    return plan_calls(base)[:1]


def said(base) -> str:
    return f"The total of your order is ${base.task.constraints[0].answer}."


def test_an_answer_said_before_a_tool_showed_it_is_not_grounded():
    record = play(("info_order_total",), lambda base: authenticate(base) + [said(base)])
    assert record["verified"] and not record["success"]
    (constraint,) = record["constraints"]
    assert constraint == {"type": "info_order_total", "satisfied": False,
                          "reason": ANSWER_GAPS["unshown"]}
    assert constraint["reason"].startswith("not grounded: ")
    # the same words after the read that shows the total: no reason, a success
    record = play(("info_order_total",), lambda base: plan_calls(base) + [said(base)])
    assert record["success"] and record["constraints"] == [
        {"type": "info_order_total", "satisfied": True}]


def test_an_answer_never_said_is_not_communicated():
    record = play(("info_order_total",), lambda base: plan_calls(base) + ["Let me check."])
    (constraint,) = record["constraints"]
    assert not constraint["satisfied"] and constraint["reason"] == ANSWER_GAPS["unsaid"]
    assert constraint["reason"].startswith("not communicated: ")


def test_a_write_on_the_wrong_order_fails_the_outcome_and_is_listed_as_redundant():
    chosen = {}

    def steps(base):
        target = base.task.constraints[0].args["order_id"]
        (other,) = base.sandbox.db.execute(  # another pending order, the user's if any
            "SELECT order_id FROM orders WHERE order_id != ? AND status = 'pending' "
            "ORDER BY user_id = ? DESC, order_id", (target, base.task.user_id)).fetchone()
        chosen.update(target=target, other=other)
        return authenticate(base) + [ToolCall(
            "cancel_pending_order", {"order_id": other, "reason": "no longer needed"})]

    record = play(("cancel_order",), steps)
    (constraint,) = record["constraints"]
    assert not constraint["satisfied"]
    assert constraint["reason"].startswith("outcome check failed: the final database does not "
                                           "hold the cancel_order outcome")
    assert f"cancel_pending_order on {chosen['target']}" in constraint["reason"]
    assert record["redundant_writes"] == 1
    assert record["redundant"] == [{"tool": "cancel_pending_order", "target": chosen["other"]}]


def test_a_refusal_before_reading_the_record_says_so():
    env = gym.make("ToolAirline-v0", constraint_types=("refuse_basic_economy_change",),
                   max_constraints=1)
    try:
        env.reset(options={"task_id": "test-1"}, seed=0)
        base = env.unwrapped
        (need,) = base.task.constraints
        env.step("I can help. What is your user id?")
        env.step(ToolCall("get_user_details", {"user_id": base.task.user_id}))
        env.step("I'm sorry, but flights of a basic economy reservation cannot be changed.")
        held = base.kit.check(base.sandbox.db, base.task, need, base.agent_messages)
        reason = base.kit.explain(base.sandbox.db, base.task, need, base.agent_messages)
        assert not held and reason == REFUSAL_GAPS["unread"]
    finally:
        env.close()


def _envs():
    for env_id in ("ToolRetail-v0", "ToolAirline-v0", "ToolIssueTracker-v0", "ToolEmail-v0"):
        yield pytest.param(lambda env_id=env_id: gym.make(env_id, split="test"), id=env_id)
    yield pytest.param(lambda: ToolEnv("retail", task_source="chains", split="test"),
                       id="retail-chains")


POLICIES = {"oracle": OraclePolicy, "random": lambda: RandomPolicy(seed=3),
            "refuse_after_reads": PROBES["refuse_after_reads"],
            **{name: ADVERSARIES[name] for name in ("refusal", "spray", "echo", "catch_all")}}


@pytest.mark.parametrize("make", list(_envs()))
def test_a_reason_is_given_exactly_where_the_check_fails(make):
    env = make()
    try:
        for index, (name, policy) in enumerate(POLICIES.items()):
            record = run_episode(env, policy(), seed=index, task_id=f"test-{index}",
                                 privileged=name == "oracle")
            base = env.unwrapped
            assert record["verified"], (name, record["ended"])
            assert len(record["redundant"]) == record["redundant_writes"], name
            for c, result in zip(base.task.constraints, record["constraints"]):
                held = base.kit.check(base.sandbox.db, base.task, c, base.agent_messages)
                reason = base.kit.explain(base.sandbox.db, base.task, c, base.agent_messages)
                assert result["satisfied"] == held and (reason is None) == held, \
                    (name, c.type, reason)
                assert result.get("reason") == reason, (name, c.type)
                assert reason is None or reason != UNEXPLAINED
    finally:
        env.close()
