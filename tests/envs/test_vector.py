"""Vector envs for every id: sync and async agree step for step, observations belong to
the batched space, and autoreset follows Gymnasium's default (next-step) mode."""

import gymnasium as gym
import numpy as np
import pytest

import tool_gym


def rollout(env_id, mode, steps=120, n=3):
    envs = gym.make_vec(env_id, num_envs=n, vectorization_mode=mode)
    obs, info = envs.reset(seed=0)
    assert envs.observation_space.contains(tuple(obs))
    envs.action_space.seed(0)
    trace = [tuple(obs)]
    for _ in range(steps):
        actions = envs.action_space.sample()
        assert envs.action_space.contains(actions)
        obs, reward, terminated, truncated, info = envs.step(actions)
        assert envs.observation_space.contains(tuple(obs))
        assert reward.dtype == np.float64 and terminated.shape == (n,)
        trace.append((tuple(obs), tuple(reward), tuple(terminated), tuple(truncated)))
    envs.close()
    return trace


@pytest.mark.parametrize("env_id", tool_gym.ENV_IDS)
def test_sync_and_async_agree(env_id):
    sync = rollout(env_id, "sync")
    assert sync == rollout(env_id, "async")
    assert any(any(step[2]) for step in sync[1:]), "no episode ended: autoreset untested"


@pytest.mark.parametrize("env_id", tool_gym.CONVERSATION_IDS)
def test_next_step_autoreset(env_id):
    envs = gym.make_vec(env_id, num_envs=2, vectorization_mode="sync")
    envs.reset(seed=1)
    transfer = '<tool_call>{"name": "transfer_to_human_agents", "arguments": {"summary": "x"}}</tool_call>'
    obs, reward, terminated, truncated, info = envs.step([transfer, "Hello?"])
    assert terminated[0] and not terminated[1]
    assert "verification" in info and info["_verification"][0]
    obs, reward, terminated, truncated, info = envs.step(["Hello?", "Hello?"])
    # the ended sub-env was reset: its observation is a new opening, with no reward
    assert reward[0] == 0.0 and not terminated[0]
    assert obs[0] == envs.envs[0].unwrapped.transcript[0][1]
    envs.close()


def test_async_carries_any_unicode_text():
    envs = gym.make_vec("ToolRetail-v0", num_envs=2, vectorization_mode="async")
    envs.reset(seed=0)
    text = "Grüße 你好 \U0001F600 <tool_call>{not json</tool_call>"
    obs, *_ = envs.step([text, text])
    assert all(o.startswith("Error:") for o in obs)
    assert "not json" in obs[0] or "JSON" in obs[0]
    envs.close()
