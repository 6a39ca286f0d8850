import sys
import textwrap

import gymnasium as gym
import pytest

from tool_gym.agents import OraclePolicy, Policy, RandomPolicy, load_policy
from tool_gym.agents.privileged import OracleAccess
from tool_gym.agents.episode_loop import run_episode
from tests.agents.fake_env import ENV_ID, TOOLS, FakeToolEnv
from tool_gym.core.actions import parse_action

INFO = {"tools": TOOLS, "task_id": "test-1"}
NAMES = {t["function"]["name"]: t["function"]["parameters"] for t in TOOLS}
OBSERVATIONS = ["Hi, I want to cancel order #W1234567, my email is ann@example.com",
                '{"order_id": "#W7654321", "total": 12.5, "items": ["lamp"]}',
                "Error: no such order", "yes"] * 10


def play(policy, observations=OBSERVATIONS, info=INFO):
    policy.reset(observations[0], info)
    return [policy.act(o, info) for o in observations]


def test_random_policy_is_deterministic():
    assert play(RandomPolicy(seed=3)) == play(RandomPolicy(seed=3))
    assert play(RandomPolicy(seed=3)) != play(RandomPolicy(seed=4))
    # reset reseeds: an episode does not depend on the episodes before it
    policy = RandomPolicy(seed=3)
    first = play(policy)
    play(policy, OBSERVATIONS[1:])
    assert play(policy) == first


def test_random_policy_output_is_valid():
    actions = play(RandomPolicy(seed=0)) + play(RandomPolicy(seed=1))
    calls = messages = 0
    seen_value = False
    for action in actions:
        assert isinstance(action, str) and action
        parsed = parse_action(action, tool_names=list(NAMES))
        assert parsed.error is None, (action, parsed.error)
        if parsed.calls:
            calls += 1
            (call,) = parsed.calls
            schema = NAMES[call.name]
            assert set(schema["required"]) <= set(call.arguments) <= set(schema["properties"])
            for name, value in call.arguments.items():
                kind = schema["properties"][name]
                if "enum" in kind:
                    assert value in kind["enum"]
                expected = {"string": str, "integer": int, "number": float, "boolean": bool,
                            "array": list}[kind["type"]]
                assert isinstance(value, expected)
            seen_value |= call.arguments.get("order_id") in ("#W1234567", "#W7654321")
        else:
            messages += 1
    assert calls > messages > 0  # mostly calls, sometimes messages
    assert seen_value  # reuses values from observations


def test_random_policy_without_tools_sends_messages():
    policy = RandomPolicy()
    policy.reset("hello", {})
    for _ in range(5):
        assert parse_action(policy.act("hi", {})).message


def test_oracle_needs_privileged_access():
    with pytest.raises(TypeError, match="privileged"):
        OraclePolicy().reset("hello", INFO)
    with pytest.raises(RuntimeError, match="reset"):
        OraclePolicy().act("hello", INFO)
    with pytest.raises(ValueError, match="task"):
        OracleAccess.from_env(FakeToolEnv())  # env not reset: no task


def test_oracle_plays_the_plan_then_closes():
    env = gym.make(ENV_ID)
    observation, info = env.reset(seed=0, options={"task_id": "test-3"})
    policy = OraclePolicy()
    policy.reset_privileged(observation, info, OracleAccess.from_env(env))
    plan = env.unwrapped.kit.plan(env.unwrapped.task)
    actions = [policy.act(observation, info) for _ in range(len(plan) + 2)]
    assert actions[0] == plan[0].call.to_hermes()
    assert actions[1] == plan[1].say
    assert actions[-2:] == [OraclePolicy.closing] * 2
    _, info = env.reset(seed=0, options={"task_id": "test-2"})
    with pytest.raises(RuntimeError, match="test-3"):
        policy.reset_privileged("", dict(info, task_id="test-3"), OracleAccess.from_env(env))


def test_rollout_oracle_and_random_on_fake_env():
    env = gym.make(ENV_ID)
    record = run_episode(env, OraclePolicy(), seed=1, task_id="test-3")  # (3 % 4)/3: always lucky
    assert record["success"] and record["score"] == 1.0 and record["verified"]
    assert record["task_id"] == "test-3" and record["seed"] == 1
    assert record["tool_calls"] == 2 and record["turns"] == 4
    assert record["constraints"] == [{"type": "cancel_order", "satisfied": True},
                                     {"type": "lookup", "satisfied": True}]
    random = run_episode(env, RandomPolicy(), seed=1, task_id="test-3")
    assert not random["success"] and random["ended"] == "truncated"
    assert random == run_episode(env, RandomPolicy(), seed=1, task_id="test-3")


def test_rollout_without_verification_is_a_failure():
    env = gym.make(ENV_ID, max_turns=1000, max_episode_steps=5)
    record = run_episode(env, RandomPolicy(message_prob=0.0), seed=0, task_id="test-1")
    assert record == dict(record, verified=False, success=False, score=0.0, ended="time_limit",
                          steps=5)
    assert [c["type"] for c in record["constraints"]] == ["cancel_order", "lookup"]


def test_load_policy_builtins():
    assert isinstance(load_policy("oracle"), OraclePolicy)
    policy = load_policy("random", seed=7)
    assert isinstance(policy, RandomPolicy) and policy.seed == 7
    assert isinstance(policy, Policy)
    with pytest.raises(ValueError, match="no local model"):
        load_policy("hf:/nonexistent/model")
    from tool_gym.agents.openai_policy import OpenAIPolicy
    assert isinstance(load_policy("openai:http://127.0.0.1:9/v1#m"), OpenAIPolicy)
    for spec in ("", "nope", "tool_gym.agents.policy:Missing", "no_such_module_xyz:Policy",
                 "tool_gym.agents.policy:_WORDS"):
        with pytest.raises(ValueError):
            load_policy(spec)


def test_load_policy_module_class(tmp_path, monkeypatch):
    (tmp_path / "my_temp_policies.py").write_text(textwrap.dedent("""
        class Echo:
            def __init__(self):
                self.calls = 0
            def reset(self, observation, info):
                self.calls = 0
            def act(self, observation, info):
                self.calls += 1
                return "you said: " + observation

        class Outer:
            class Inner(Echo):
                pass

        class NotAPolicy:
            pass
    """))
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        policy = load_policy("my_temp_policies:Echo")
        assert type(policy).__name__ == "Echo" and isinstance(policy, Policy)
        assert play(policy, ["a", "b"]) == ["you said: a", "you said: b"]
        assert type(load_policy("my_temp_policies:Outer.Inner")).__name__ == "Inner"
        with pytest.raises(ValueError, match="does not implement"):
            load_policy("my_temp_policies:NotAPolicy")
    finally:
        sys.modules.pop("my_temp_policies", None)


def test_policies_on_the_real_env():
    import tool_gym  # noqa: F401

    env = gym.make("ToolRetail-v0")
    observation, info = env.reset(seed=0, options={"task_id": "test-0"})
    names = [t["function"]["name"] for t in info["tools"]]
    policy = RandomPolicy(seed=1)
    policy.reset(observation, info)
    for _ in range(30):
        action = policy.act(observation, info)
        assert parse_action(action, tool_names=names).error is None
    record = run_episode(env, OraclePolicy(), seed=0, task_id="train-5")
    assert record["success"] and record["task_id"] == "train-5"
    assert record == run_episode(env, OraclePolicy(), seed=0, task_id="train-5")
