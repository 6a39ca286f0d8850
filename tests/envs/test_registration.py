import gymnasium as gym
import pytest
from gymnasium.utils.env_checker import check_env

import tool_gym


@pytest.mark.parametrize("env_id", tool_gym.ENV_IDS)
def test_check_env(env_id):
    env = gym.make(env_id)
    check_env(env.unwrapped)
    env.close()


@pytest.mark.parametrize("env_id", tool_gym.ENV_IDS)
def test_registered_with_time_limit(env_id):
    spec = gym.spec(env_id)
    assert spec.max_episode_steps and spec.max_episode_steps > 0
    env = gym.make(env_id)
    assert isinstance(env, gym.wrappers.TimeLimit) or env.spec.max_episode_steps
    env.close()


def test_one_table_of_ids():
    assert len(tool_gym.ENV_IDS) == len(set(tool_gym.ENV_IDS))
    for env_id, entry, kwargs, steps in tool_gym.ENVIRONMENTS:
        assert gym.spec(env_id).entry_point == entry
        assert gym.spec(env_id).kwargs == kwargs
