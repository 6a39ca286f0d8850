"""OpenAIPolicy against a fake OpenAI-compatible server on 127.0.0.1 started by the test."""

import gymnasium as gym
import pytest

from tool_gym.agents import load_policy
from tool_gym.agents.openai_policy import OpenAIPolicy, parse_spec
from tool_gym.agents.episode_loop import run_episode

from ..llm.fake_openai import FakeOpenAIServer, answer, tool_call
from .lockstep_env import ENV_ID


def add_then_done(body):
    """A native tool call add(a, b) read from the user's first message, then a text
    message."""
    messages = body["messages"]
    if messages[-1]["role"] == "user" and len(messages) <= 3:
        n = int(messages[-1]["content"].split()[2])
        return answer(None, [tool_call("add", {"a": n, "b": 1})],
                      {"prompt_tokens": 10, "completion_tokens": 5})
    return answer("Done.", usage={"prompt_tokens": 10, "completion_tokens": 5})


@pytest.fixture
def server():
    with FakeOpenAIServer(add_then_done, models=("fake-model", "m")) as s:
        yield s


def test_native_tool_calls_end_to_end(server, monkeypatch):
    monkeypatch.setenv("TOOL_GYM_TEST_KEY", "secret")
    policy = load_policy(f"openai:{server.url}#fake-model", api_key_env="TOOL_GYM_TEST_KEY",
                         temperature=0.5, max_tokens=64)
    assert isinstance(policy, OpenAIPolicy)
    record = run_episode(gym.make(ENV_ID), policy, seed=0, task_id="test-4")
    assert record["success"] and record["tool_calls"] == 1 and record["steps"] == 1
    first = server.requests[0]
    assert first["path"] == "/v1/chat/completions" and first["auth"] == "Bearer secret"
    assert first["body"]["model"] == "fake-model" and first["body"]["tools"][0][
        "function"]["name"] == "add"
    assert (first["body"]["temperature"], first["body"]["max_tokens"]) == (0.5, 64)
    assert [m["role"] for m in first["body"]["messages"]] == ["system", "user"]
    assert policy.usage == {"prompt_tokens": 10, "completion_tokens": 5, "requests": 1}


def test_tool_results_go_back_as_tool_messages(server):
    policy = OpenAIPolicy(server.url, "m")
    env = gym.make(ENV_ID)
    observation, info = env.reset(seed=0, options={"task_id": "test-3"})  # wrong call ends later
    policy.reset(observation, info)
    action = policy.act(observation, info)
    assert action["tool_calls"][0]["function"]["name"] == "add"
    observation, *_ , info = env.step(action)
    second = policy.act(observation, info)
    assert second == {"role": "assistant", "content": "Done."}
    sent = server.requests[1]["body"]["messages"]
    assert sent[-2]["tool_calls"][0]["id"] == "call_1"
    assert sent[-1] == {"role": "tool", "tool_call_id": "call_1", "content": '{"result": 4}'}


def test_retries_then_errors():
    busy = (500, {"error": {"message": "busy"}})
    with FakeOpenAIServer([busy, answer("ok")]) as flaky:
        policy = OpenAIPolicy(flaky.url, "m", max_retries=1)
        policy.reset("Please add 1 and 1.", {"tools": []})
        assert policy.act("Please add 1 and 1.", {}) == {"role": "assistant", "content": "ok"}
        assert len(flaky.requests) == 2
    with FakeOpenAIServer([(400, {"error": {"message": "bad"}})]) as bad:
        policy = OpenAIPolicy(bad.url, "m", max_retries=3)
        policy.reset("hi", {})
        with pytest.raises(RuntimeError, match="HTTP 400"):
            policy.act("hi", {})
        assert len(bad.requests) == 1  # a client error is not retried


def test_sampling_settings_are_checked_and_none_is_not_sent():
    with pytest.raises(ValueError, match="temperature"):
        OpenAIPolicy("http://127.0.0.1:9/v1", "m", temperature=-0.5)
    with pytest.raises(ValueError, match="max_tokens"):
        OpenAIPolicy("http://127.0.0.1:9/v1", "m", max_tokens=0)
    with pytest.raises(ValueError, match="api_key_env"):
        OpenAIPolicy("http://127.0.0.1:9/v1", "m", api_key_env="not a name")
    with FakeOpenAIServer([answer("ok")]) as server:
        policy = OpenAIPolicy(server.url, "m", temperature=None, max_tokens=None, seed=None)
        policy.reset("hi", {})
        policy.act("hi", {})
    assert set(server.requests[0]["body"]) == {"model", "messages"}


def test_spec_parsing():
    assert parse_spec("http://h:8000/v1#Qwen/Qwen2.5-7B-Instruct") == (
        "http://h:8000/v1", "Qwen/Qwen2.5-7B-Instruct")
    for bad in ("http://h:8000/v1", "#model", "ftp://h#m"):
        with pytest.raises(ValueError, match="openai:URL#MODEL"):
            parse_spec(bad)


def test_evaluate_py_with_openai_policy(server, tmp_path):
    from tool_gym.cli import evaluate

    summary = evaluate.run_command(["--env", ENV_ID, "--policy", f"openai:{server.url}#m",
                                    "--tasks", "3", "--trials", "1", "--out", str(tmp_path / "o")])
    assert summary["episodes"] == 3 and summary["pass_hat_k"]["1"] == 1.0
