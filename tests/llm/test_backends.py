"""Backends: the protocol, the offline template backend, and the OpenAI-compatible HTTP
backend against a tiny chat server started on 127.0.0.1 in the test."""

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from tool_gym.core.actions import parse_action
from tool_gym.llm import Backend, BackendError, TemplateBackend, generate_batch, make_backend
from tool_gym.llm.openai_compat import OpenAICompatBackend
from tool_gym.llm.template import TEMPLATES, register


def test_template_backend_renders_named_templates():
    backend = TemplateBackend({"echo": lambda messages, context, rng: context["word"] * 2})
    assert isinstance(backend, Backend)
    assert backend.generate([], template="echo", context={"word": "ab"}) == "abab"
    assert backend.generate([{"role": "user", "content": "hi"}]) == backend.default
    with pytest.raises(BackendError):
        TemplateBackend(default=None).generate([], template="missing")

    @register("test.dice")
    def dice(messages, context, rng):
        return str(int(rng.integers(1_000_000)))

    try:
        first = backend.generate([], template="test.dice", seed=5)
        assert first == backend.generate([], template="test.dice", seed=5)
        assert TemplateBackend(seed=1).generate([], template="test.dice") == \
            TemplateBackend(seed=1).generate([], template="test.dice")
    finally:
        TEMPLATES.pop("test.dice")


def test_generate_batch_falls_back_to_a_loop():
    backend = TemplateBackend({"n": lambda m, c, r: str(len(m))})
    replies = generate_batch(backend, [[{"role": "user", "content": "a"}], []], template="n")
    assert replies == ["1", "0"]


class ChatServer:
    """A minimal OpenAI-compatible /v1/chat/completions server (replies are scripted)."""

    def __init__(self, replies):
        self.replies = list(replies)
        self.requests = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                server.requests.append({"path": self.path, "body": body,
                                        "auth": self.headers.get("Authorization")})
                status, payload = server.replies.pop(0)
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args):
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.httpd.serve_forever,
                                       kwargs={"poll_interval": 0.05}, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.httpd.shutdown()
        self.httpd.server_close()


def answer(content=None, tool_calls=None):
    message = {"role": "assistant", "content": content}
    if tool_calls:
        message["tool_calls"] = tool_calls
    return 200, {"choices": [{"index": 0, "message": message, "finish_reason": "stop"}]}


def test_openai_compat_sends_the_chat_and_returns_the_text():
    with ChatServer([answer("Hello there")]) as server:
        backend = OpenAICompatBackend("tiny", base_url=server.url, api_key="k", temperature=0.1)
        text = backend.generate([{"role": "user", "content": "Hi"}], max_tokens=5,
                                template="ignored", context={"x": 1})
    assert text == "Hello there"
    request = server.requests[0]
    assert request["path"] == "/v1/chat/completions" and request["auth"] == "Bearer k"
    assert request["body"] == {"model": "tiny", "messages": [{"role": "user", "content": "Hi"}],
                               "temperature": 0.1, "max_tokens": 5}


def test_openai_compat_tool_calls_become_hermes_blocks():
    calls = [{"id": "c1", "type": "function",
              "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'}}]
    with ChatServer([answer(None, calls)]) as server:
        text = OpenAICompatBackend("tiny", base_url=server.url).generate(
            [{"role": "user", "content": "Weather?"}], tools=[{"type": "function"}])
    parsed = parse_action(text)
    assert parsed.is_call and parsed.calls[0].name == "get_weather"
    assert parsed.calls[0].arguments == {"city": "Paris"}
    assert server.requests[0]["body"]["tools"] == [{"type": "function"}]


def test_openai_compat_retries_server_errors_and_reports_others():
    with ChatServer([(503, {"error": "busy"}), answer("ok")]) as server:
        backend = OpenAICompatBackend("tiny", base_url=server.url, backoff=0.01)
        assert backend.generate([{"role": "user", "content": "x"}]) == "ok"
    assert len(server.requests) == 2
    with ChatServer([(400, {"error": "bad request"})]) as server:
        with pytest.raises(BackendError, match="HTTP 400"):
            OpenAICompatBackend("tiny", base_url=server.url).generate([])
    with ChatServer([(200, {"unexpected": True})]) as server:
        with pytest.raises(BackendError, match="unexpected answer"):
            OpenAICompatBackend("tiny", base_url=server.url).generate([])


def test_make_backend():
    assert isinstance(make_backend(), TemplateBackend)
    remote = make_backend("openai:qwen", base_url="http://127.0.0.1:9/v1")
    assert isinstance(remote, OpenAICompatBackend) and remote.model == "qwen"
    with pytest.raises(ValueError):
        make_backend("mystery")


def test_openai_compat_drives_the_staged_synthesis():
    """A model behind the HTTP backend makes a sample; the stages read its replies."""
    from tool_gym.synth.pool import cached_pool
    from tool_gym.synth.staged import StagedSynthesizer, audit

    pool = cached_pool()
    synth = StagedSynthesizer(pool, categories=("simple",))
    index = next(i for i in range(200)
                 if pool.tools[synth._scenario(i, "simple").offered[0]].name == "get_order_details")
    order_id = pool.banks["retail/get_order_details"][0]["order_id"]
    plan = [{"name": "get_order_details", "arguments": {"order_id": order_id}}]
    replies = [answer('{"functions": ["get_order_details"]}'),
               answer("```json\n" + json.dumps({
                   "query": f"What is the status of my order {order_id}?", "calls": plan})
                   + "\n```"),
               answer(None, [{"id": "c", "type": "function", "function": {
                   "name": "get_order_details", "arguments": json.dumps({"order_id": order_id})}}])]
    with ChatServer(replies) as server:
        backend = OpenAICompatBackend("tiny", base_url=server.url)
        task = StagedSynthesizer(pool, backend, categories=("simple",)).sample(index)
    assert audit(task) == [], task
    assert task.meta["generator"] == "OpenAICompatBackend"
    assert "Functions:" in server.requests[0]["body"]["messages"][1]["content"]
