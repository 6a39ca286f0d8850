"""10,000 malformed or adversarial actions through parser, tools and env: no exception
escapes, every error is an observation, and the sandbox stays consistent."""

import os

import gymnasium as gym
import pytest

import tool_gym
from tool_gym.core.actions import parse_action

from .adversarial import adversarial_actions

N = int(os.environ.get("TOOL_GYM_FUZZ_N", "10000"))


@pytest.mark.parametrize("env_id", ["ToolRetail-v0"])
def test_adversarial_actions_through_the_env(env_id, tmp_path):
    env = gym.make(env_id, max_errors=10**9, max_turns=10**9).unwrapped
    obs, info = env.reset(seed=0)
    template_digest = env.template.digest
    errors = 0
    cwd_before = sorted(os.listdir(tmp_path))
    for i, action in enumerate(adversarial_actions(info["tools"], N, seed=1)):
        obs, reward, terminated, truncated, info = env.step(action)
        assert isinstance(obs, str) and env.observation_space.contains(obs)
        assert isinstance(reward, float)
        errors += obs.startswith("Error")
        if terminated or truncated:
            assert env.sandbox.check_integrity() == []
            env.reset(seed=i)
        if i % 1000 == 0:
            assert env.sandbox.check_integrity() == []
    assert env.sandbox.check_integrity() == []
    assert env.template.digest == template_digest
    assert errors > N * 0.5
    assert not os.path.exists("/tmp/pwned")
    assert sorted(os.listdir(tmp_path)) == cwd_before


def test_adversarial_calls_straight_into_the_sandbox():
    box = tool_gym.sandbox("retail", seed=0)
    start = box.state_hash()
    for action in adversarial_actions(box.tools, N // 5, seed=2):
        parsed = parse_action(action)
        for call in parsed.calls:
            result = box.call(call.name, call.arguments)
            assert isinstance(result.content, str)
            assert result.ok or result.content.startswith("Error")
    assert box.check_integrity() == []
    # adversarial arguments never point at real entities, so nothing can have changed
    assert box.state_hash() == start
