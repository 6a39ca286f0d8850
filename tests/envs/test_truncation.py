"""Verified truncation: an episode cut by ``max_turns`` or by Gymnasium's ``TimeLimit``
carries ``info["verification"]`` (the state as it stands) and its terminal reward on the
cut step."""

from __future__ import annotations

import gymnasium as gym
import pytest
from gymnasium.wrappers import TimeLimit

import tool_gym  # noqa: F401 - registers the ids
from tool_gym.core.actions import ToolCall
from tool_gym.core.rewards import RewardConfig
from tool_gym.envs.tool_env import ToolEnv

READ = ToolCall("list_all_product_types", {})


def _run(env, actions, task_id="test-0"):
    env.reset(seed=0, options={"task_id": task_id})
    out = []
    for action in actions:
        out.append(env.step(action))
        if out[-1][2] or out[-1][3]:
            break
    return out


def test_time_limit_from_gym_make_truncates_with_verification():
    env = gym.make("ToolRetail-v0", max_episode_steps=5)
    assert isinstance(env, TimeLimit)
    steps = _run(env, [READ, "Hello, how can I help?"] * 10)
    assert len(steps) == 5
    *_, (obs, reward, terminated, truncated, info) = steps
    assert truncated and not terminated
    verification = info["verification"]
    assert verification["ended"] == "truncated" and not verification["success"]
    assert env.unwrapped.turn_limit == 5
    # the terminal reward is on that step: w * (0 + 0.5 * score) plus this step's shaping
    config = RewardConfig.named("cove")
    assert verification["reward"]["terminal"] == pytest.approx(
        config.final(False, verification["score"]))
    assert sum(s[1] for s in steps) == pytest.approx(
        verification["reward"]["shaping"] + verification["reward"]["terminal"])
    with pytest.raises(gym.error.ResetNeeded):
        env.unwrapped.step("hello")
    env.close()


def test_time_limit_applied_by_hand_and_max_turns():
    env = TimeLimit(ToolEnv("retail"), max_episode_steps=3)
    steps = _run(env, [READ] * 10)
    assert len(steps) == 3 and steps[-1][3] and "verification" in steps[-1][4]
    env.close()
    # the smaller of the two limits wins; a larger TimeLimit changes nothing
    env = TimeLimit(ToolEnv("retail", max_turns=2), max_episode_steps=50)
    steps = _run(env, [READ] * 10)
    assert len(steps) == 2 and steps[-1][3]
    assert steps[-1][4]["verification"]["ended"] == "truncated"
    env.close()
    # the limit is read at every reset: the same env without the wrapper uses max_turns
    bare = env.unwrapped
    bare.max_turns = 4
    bare.reset(seed=0)
    assert bare.turn_limit == 4


def test_time_limit_in_a_vector_env():
    envs = gym.vector.SyncVectorEnv([lambda: gym.make("ToolRetail-v0", max_episode_steps=2)
                                     for _ in range(2)])
    envs.reset(seed=0)
    envs.step(["Hello.", READ.to_hermes()])
    _, _, terminated, truncated, infos = envs.step(["Hello.", READ.to_hermes()])
    assert list(truncated) == [True, True] and not any(terminated)
    assert list(infos["_verification"]) == [True, True]
    envs.close()


def test_a_task_done_before_the_cut_succeeds():
    """The oracle cut one step before it would have ended: the state as it stands
    decides (writes done: success; an answer not yet given: failure)."""
    from tool_gym.agents.oracle import OraclePolicy
    from tool_gym.agents.privileged import OracleAccess

    outcomes = []
    for n in range(8):
        task_id = f"test-{n}"
        env = gym.make("ToolRetail-v0")
        observation, info = env.reset(seed=0, options={"task_id": task_id})
        oracle = OraclePolicy()
        oracle.reset_privileged(observation, info, OracleAccess.from_env(env))
        actions, done = [], False
        while not done:
            actions.append(oracle.act(observation, info))
            observation, _, terminated, truncated, info = env.step(actions[-1])
            done = terminated or truncated
        assert info["verification"]["success"]
        env.close()
        cut = gym.make("ToolRetail-v0", max_episode_steps=len(actions) - 1)
        steps = _run(cut, actions[:-1], task_id)
        _, reward, terminated, truncated, info = steps[-1]
        assert truncated and not terminated
        verification = info["verification"]
        if verification["success"]:
            assert verification["reward"]["terminal"] == pytest.approx(1.5)
            assert reward >= 1.5 - 1e-9
        else:
            assert verification["reward"]["terminal"] < 1.0
        outcomes.append(verification["success"])
        cut.close()
    assert any(outcomes)


def test_doing_nothing_until_the_cut_never_succeeds():
    for task in range(5):
        env = gym.make("ToolRetail-v0", max_episode_steps=4)
        steps = _run(env, ["Okay."] * 10, f"test-{task}")
        info = steps[-1][4]
        if steps[-1][3]:
            assert not info["verification"]["success"]
        env.close()
