import json

import gymnasium as gym
import pytest

from tool_gym.core.rewards import RewardConfig

import tool_gym  # noqa: F401
from tool_gym.core.actions import ToolCall
from tool_gym.envs.spaces import LLMText


@pytest.fixture()
def env():
    e = gym.make("ToolRetail-v0")
    yield e
    e.close()


def test_reset_gives_the_users_first_message_and_public_info(env):
    obs, info = env.reset(seed=7)
    assert isinstance(obs, str) and obs
    assert env.observation_space.contains(obs)
    assert {"tools", "policy", "task_id", "turn", "validity"} <= set(info)
    names = {t["function"]["name"] for t in info["tools"]}
    assert "find_user_id_by_email" in names and len(names) == 16
    assert info["policy"]


def test_hidden_intent_never_in_info(env):
    obs, info = env.reset(seed=3)
    task = env.unwrapped.task
    text = json.dumps(info, default=str)
    for c in task.constraints:
        for key, value in c.args.items():
            if isinstance(value, str) and len(value) > 3 and key not in ("reason",):
                assert value not in text, (key, value)
    assert task.user_id not in text
    assert "verification" not in info


def test_same_seed_same_task_and_user(env):
    first = env.reset(seed=11)[0]
    task = env.unwrapped.task
    again = env.reset(seed=11)[0]
    assert first == again and env.unwrapped.task == task
    replies = []
    for _ in range(2):
        env.reset(seed=11)
        replies.append(env.step("Could you tell me your email address?")[0])
    assert replies[0] == replies[1]
    assert env.reset(seed=12)[0] != first or env.unwrapped.task != task


def test_task_id_option_selects_task(env):
    env.reset(options={"task_id": "test-5"})
    assert env.unwrapped.task.id == "test-5"
    assert env.unwrapped.task.split == "test"
    with pytest.raises(ValueError):
        env.reset(options={"task_id": "test-999"})
    with pytest.raises(ValueError):
        env.reset(options={"task_id": "bogus"})


def test_spaces_contain_real_llm_text(env):
    space = env.observation_space
    assert isinstance(space, LLMText)
    for text in ['<tool_call>{"name": "x", "arguments": {}}</tool_call>', "Grüße, 你好! {}[]()\n\t",
                 "", "x" * space.max_length]:
        assert space.contains(text) and env.action_space.contains(text)
    assert not space.contains("x" * (space.max_length + 1))
    assert not space.contains(5)


def test_action_space_samples_real_calls_deterministically(env):
    env.action_space.seed(0)
    samples = [env.action_space.sample() for _ in range(200)]
    env.action_space.seed(0)
    assert samples == [env.action_space.sample() for _ in range(200)]
    assert sum("<tool_call>" in s for s in samples) > 50
    env.reset(seed=0)
    validities = []
    for s in samples:
        obs, reward, terminated, truncated, info = env.step(s)
        assert isinstance(obs, str)
        if info["validity"] is not None:
            validities.append(info["validity"])
        if terminated or truncated:
            env.reset(seed=len(validities))
    assert 1.0 in validities and 0.0 in validities


def test_tool_step_validity_and_reward(env):
    env.reset(seed=1)
    obs, reward, *_ , info = env.step(ToolCall("list_all_product_types", {}))
    assert info["validity"] == 1.0 and reward == pytest.approx(RewardConfig().validity_weight)
    assert json.loads(obs)
    obs, reward, *_, info = env.step('<tool_call>{"name": "get_order_details", "arguments": {"order_id": 5}}</tool_call>')
    assert obs.startswith("Error:") and info["validity"] == pytest.approx(1 / 3)
    obs, reward, *_, info = env.step('<tool_call>{"name": "no_such_tool", "arguments": {}}</tool_call>')
    assert info["validity"] == 0.0 and reward == 0.0
    obs, reward, *_, info = env.step("<tool_call>{broken</tool_call>")
    assert obs.startswith("Error:") and info["validity"] == 0.0


def test_error_limit_terminates_with_verification():
    env = gym.make("ToolRetail-v0", max_errors=3)
    env.reset(seed=0)
    for i in range(3):
        obs, reward, terminated, truncated, info = env.step("<tool_call>{oops</tool_call>")
    assert terminated and not truncated
    v = info["verification"]
    assert v["ended"] == "error_limit" and v["score"] == 0.0 and not v["success"]
    with pytest.raises(gym.error.ResetNeeded):
        env.unwrapped.step("hello")


def test_turn_limit_truncates():
    env = gym.make("ToolRetail-v0", max_turns=2)
    env.reset(seed=0)
    env.step(ToolCall("list_all_product_types", {}))
    *_, terminated, truncated, info = env.step(ToolCall("list_all_product_types", {}))
    assert truncated and not terminated and info["verification"]["ended"] == "truncated"


def test_transfer_ends_episode(env):
    env.reset(seed=2)
    *_, terminated, truncated, info = env.step(
        ToolCall("transfer_to_human_agents", {"summary": "user wants a human"}))
    assert terminated and info["verification"]["ended"] == "transfer"
    assert info["verification"]["success"] is False


def test_render_modes():
    env = gym.make("ToolRetail-v0", render_mode="ansi")
    env.reset(seed=0)
    env.step("Hello, what is your email?")
    text = env.render()
    assert "[user]" in text and "[agent] Hello, what is your email?" in text


def test_bad_arguments():
    with pytest.raises(ValueError):
        gym.make("ToolRetail-v0", split="dev")
    with pytest.raises(ValueError):
        gym.make("ToolRetail-v0", reward="unknown")
    with pytest.raises(ValueError):
        gym.make("ToolRetail-v0", user="telepathic")
