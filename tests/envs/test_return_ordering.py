"""Returns order correctly against adversarial policies, in every conversation id and
under every reward preset: every failing episode returns less than every successful one,
and no policy farms the step shaping beyond its cap. The single-turn ids too."""

from __future__ import annotations

import json

import gymnasium as gym
import pytest

import tool_gym
from tool_gym.core.actions import ToolCall
from tool_gym.agents.privileged import OracleAccess
from tool_gym.core.rewards import RewardConfig
from tool_gym.core.tools import Category
from tool_gym.envs.function_call_env import AnswerKit

PRESETS = ("cove", "sparse", "binary", "prove")
TASKS = ("test-0", "test-1", "test-2")
EPS = 1e-9


def _oracle_reset(policy, observation, info, env):
    """Start the oracle through the privileged interface."""
    policy.reset_privileged(observation, info, OracleAccess.from_env(env))


def _reads(env) -> tuple[ToolCall, list[ToolCall]]:
    """A valid read of the current task (the plan's first read, the authentication lookup
    for most tasks) and many distinct reads: every READ tool over real database values."""
    base = env.unwrapped
    toolbox = base.domain.toolbox
    is_read = {t.name: t.category is Category.READ for t in toolbox}
    plan_reads = [s.call for s in base.kit.plan(base.task)
                  if s.call is not None and is_read.get(s.call.name)]
    values = base.action_space.values
    distinct = list(plan_reads)
    for i in range(8):
        for tool in toolbox:
            required = tool.parameters.get("required") or []
            if tool.category is not Category.READ or not all(values.get(p) for p in required):
                continue
            distinct.append(ToolCall(tool.name, {p: values[p][i % len(values[p])]
                                                 for p in required}))
    valid = plan_reads[0] if plan_reads else distinct[0]
    return valid, distinct


def _play(env, task_id: str, kind: str) -> tuple[float, float, dict, list[float]]:
    """(return, sum of the non-final step rewards, final verification, validities)."""
    from tool_gym.agents.oracle import OraclePolicy

    observation, info = env.reset(seed=0, options={"task_id": task_id})
    oracle = None
    if kind == "oracle":
        oracle = OraclePolicy()
        _oracle_reset(oracle, observation, info, env)
    valid, distinct = _reads(env)
    transfer = env.unwrapped.domain.transfer_tool
    rewards, validities = [], []
    terminated = truncated = False
    step = 0
    while not (terminated or truncated):
        if kind == "oracle":
            action = oracle.act(observation, info)
        elif kind == "spam_read":
            action = valid.to_hermes()
        elif kind == "spam_distinct":
            action = distinct[step % len(distinct)].to_hermes()
        elif kind == "transfer":
            action = ToolCall(transfer, {"summary": "The customer needs a human."}).to_hermes()
        else:  # goodbye
            action = "Thank you for contacting us, goodbye!"
        observation, reward, terminated, truncated, info = env.step(action)
        rewards.append(float(reward))
        validities.append(info["validity"])
        step += 1
    return sum(rewards), sum(rewards[:-1]), info["verification"], validities


@pytest.mark.parametrize("env_id", tool_gym.CONVERSATION_IDS)
def test_failing_episodes_return_less_than_successful_ones(env_id):
    for preset in PRESETS:
        config = RewardConfig.named(preset)
        env = gym.make(env_id, reward=preset, max_turns=30)
        wins, losses = [], []
        for task_id in TASKS:
            total, _, verification, _ = _play(env, task_id, "oracle")
            assert verification["success"], (env_id, preset, task_id, verification)
            wins.append(total)
            for kind in ("spam_read", "spam_distinct", "transfer", "goodbye"):
                total, shaped, verification, validities = _play(env, task_id, kind)
                if kind == "spam_read":
                    assert validities[0] == 1.0  # the spammed read is a valid call
                # the shaping an adversary collects stays within the cap
                assert shaped <= config.shaping_cap + EPS, (env_id, preset, kind)
                assert verification["reward"]["shaping"] <= config.shaping_cap + EPS
                (wins if verification["success"] else losses).append(total)
                if kind.startswith("spam") and verification["reward"]["quality"] == 0.0:
                    assert total <= config.shaping_cap + EPS, (env_id, preset, kind, total)
        env.close()
        assert losses, (env_id, preset)
        assert max(losses) < min(wins), (env_id, preset, sorted(losses), sorted(wins))


def test_spam_used_to_out_earn_solving_and_no_longer_does():
    """The issue's case: a valid read repeated to the turn limit under ``cove``."""
    env = gym.make("ToolRetail-v0", max_turns=60)
    spam, shaped, verification, validities = _play(env, "test-0", "spam_read")
    solved, *_ = _play(env, "test-0", "oracle")
    env.close()
    assert len(validities) == 60 and all(v == 1.0 for v in validities)
    # the first read only: the repeats reveal nothing
    assert shaped == pytest.approx(RewardConfig().validity_weight)
    assert spam < 1.0 <= solved


# --------------------------------------------------------------------------- single turn


def _wrong_answers(task) -> list[str]:
    """Answers that differ from the reference: no call, a dropped call, a changed value,
    every call twice, an unknown function, broken text."""
    calls = [{"name": c.name, "arguments": dict(c.arguments)}
             for c in AnswerKit.plan(task)[0].call.calls] if task.calls else []
    out = ["I cannot help with that.", '[{"name": ', json.dumps([{"name": "no_such_fn",
                                                                  "arguments": {}}])]
    if calls:
        out.append(json.dumps(calls[:-1]))
        out.append(json.dumps(calls * 2))
        for call in calls:
            for key, value in call["arguments"].items():
                changed = dict(call["arguments"])
                changed[key] = (value + 7) if isinstance(value, (int, float)) and \
                    not isinstance(value, bool) else f"{value}-other"
                out.append(json.dumps([c if c is not call else
                                       {"name": call["name"], "arguments": changed}
                                       for c in calls]))
    else:
        functions = task.functions
        out.append(json.dumps([{"name": functions[0]["name"], "arguments": {}}]))
    return out


@pytest.mark.parametrize("env_id", [i for i in tool_gym.ENV_IDS if i.startswith("ToolCall")])
@pytest.mark.parametrize("reward", ["binary", "prove"])
def test_single_turn_wrong_answers_earn_less_than_right_ones(env_id, reward):
    env = gym.make(env_id, reward=reward)
    wins, losses = [], []
    for n in range(4):
        env.reset(options={"task_id": f"test-{n}"})
        task = env.unwrapped.task
        answers = [AnswerKit.plan(task)[0].call.to_hermes() if task.calls
                   else AnswerKit.plan(task)[0].say] + _wrong_answers(task)
        for answer in answers:
            env.reset(options={"task_id": f"test-{n}"})
            _, reward_value, _, _, info = env.step(answer)
            (wins if info["verification"]["success"] else losses).append(reward_value)
    env.close()
    assert wins and losses
    assert max(losses) < min(wins), (sorted(losses), sorted(wins))
