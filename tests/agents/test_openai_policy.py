"""OpenAIPolicy against a tiny OpenAI-compatible server on 127.0.0.1 started by the test."""

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import gymnasium as gym
import pytest

from tool_gym.agents import load_policy
from tool_gym.agents.openai_policy import OpenAIPolicy, parse_spec
from tool_gym.agents.rollout import run_episode

from .lockstep_env import ENV_ID


class Server:
    """Answers /v1/chat/completions: first a native tool call add(a, b) read from the user's
    message, then a text message; records every request body. ``fail`` makes it answer
    that many HTTP 500s first; ``status`` answers every request with that code."""

    def __init__(self, fail=0, status=None):
        self.requests, self.fail, self.status = [], fail, status
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                server.requests.append({"path": self.path, "body": body,
                                        "auth": self.headers.get("Authorization")})
                if server.status or server.fail:
                    server.fail = max(0, server.fail - 1)
                    self.send_response(server.status or 500)
                    self.end_headers()
                    self.wfile.write(b'{"error": "busy"}')
                    return
                messages = body["messages"]
                if messages[-1]["role"] == "user" and len(messages) <= 3:
                    n = int(messages[-1]["content"].split()[2])
                    message = {"role": "assistant", "content": None, "tool_calls": [{
                        "id": "call_1", "type": "function", "function": {
                            "name": "add", "arguments": json.dumps({"a": n, "b": 1})}}]}
                else:
                    message = {"role": "assistant", "content": "Done."}
                reply = {"id": "x", "object": "chat.completion", "choices": [
                    {"index": 0, "message": message, "finish_reason": "stop"}],
                    "usage": {"prompt_tokens": 10, "completion_tokens": 5}}
                data = json.dumps(reply).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def server():
    s = Server()
    yield s
    s.close()


def test_native_tool_calls_end_to_end(server):
    policy = load_policy(f"openai:{server.url}#fake-model", api_key="secret")
    assert isinstance(policy, OpenAIPolicy)
    record = run_episode(gym.make(ENV_ID), policy, seed=0, task_id="test-4")
    assert record["success"] and record["tool_calls"] == 1 and record["steps"] == 1
    first = server.requests[0]
    assert first["path"] == "/v1/chat/completions" and first["auth"] == "Bearer secret"
    assert first["body"]["model"] == "fake-model" and first["body"]["tools"][0][
        "function"]["name"] == "add"
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
    flaky = Server(fail=1)
    try:
        policy = OpenAIPolicy(flaky.url, "m", retries=1)
        policy.reset("Please add 1 and 1.", {"tools": []})
        assert policy.act("Please add 1 and 1.", {})["role"] == "assistant"
        assert len(flaky.requests) == 2
    finally:
        flaky.close()
    bad = Server(status=400)
    try:
        policy = OpenAIPolicy(bad.url, "m", retries=3)
        policy.reset("hi", {})
        with pytest.raises(RuntimeError, match="HTTP 400"):
            policy.act("hi", {})
        assert len(bad.requests) == 1  # a client error is not retried
    finally:
        bad.close()


def test_spec_parsing():
    assert parse_spec("http://h:8000/v1#Qwen/Qwen2.5-7B-Instruct") == (
        "http://h:8000/v1", "Qwen/Qwen2.5-7B-Instruct")
    for bad in ("http://h:8000/v1", "#model", "ftp://h#m"):
        with pytest.raises(ValueError):
            parse_spec(bad)


def test_evaluate_py_with_openai_policy(server, tmp_path):
    import evaluate

    summary = evaluate.main(["--env", ENV_ID, "--policy", f"openai:{server.url}#m",
                             "--tasks", "3", "--trials", "1", "--out", str(tmp_path / "o")])
    assert summary["episodes"] == 3 and summary["pass_hat_k"]["1"] == 1.0
