"""The one OpenAI-compatible client: spec grammar, client construction, chat completions
with tools, the SDK's retries and the server check, against a fake server on 127.0.0.1."""

import pickle
import subprocess
import sys

import pytest

from tool_gym.core.actions import parse_action
from tool_gym.llm import BackendError
from tool_gym.llm.openai_compat import (PLACEHOLDER_API_KEY, OpenAICompatBackend,
                                        api_key_from_env, chat_completion, check_sampling,
                                        check_server, openai_client, parse_openai_spec)

from .fake_openai import FakeOpenAIServer, answer, free_port, tool_call

HI = [{"role": "user", "content": "Hi"}]


def test_spec_grammar():
    assert parse_openai_spec("openai:http://h:8000/v1#Qwen/Qwen2.5-7B-Instruct") == (
        "http://h:8000/v1", "Qwen/Qwen2.5-7B-Instruct")
    assert parse_openai_spec(" openai:https://api.example.com/v1/#gpt ") == (
        "https://api.example.com/v1", "gpt")
    assert parse_openai_spec("openai:http://h/v1/chat/completions#m") == ("http://h/v1", "m")


@pytest.mark.parametrize("spec, words", [
    ("openai:http://h:8000/v1", "names no model"),
    ("openai:http://h:8000/v1#", "names no model"),
    ("openai:#model", "names no server URL"),
    ("openai:ftp://h#m", "URL must look like"),
    ("openai:h:8000/v1#m", "URL must look like"),
    ("openai:http://#m", "URL must look like"),
    ("openai:http://h:99999/v1#m", "URL must look like"),
    ("openai:http://h x/v1#m", "URL must look like"),
    ("qwen", "openai:URL#MODEL"),
    (None, "openai:URL#MODEL"),
])
def test_spec_errors_are_one_line(spec, words):
    with pytest.raises(ValueError, match=words) as caught:
        parse_openai_spec(spec)
    assert "\n" not in str(caught.value) and "openai:URL#MODEL" in str(caught.value)


def test_api_key_comes_from_the_named_variable(monkeypatch):
    monkeypatch.delenv("TOOL_GYM_TEST_KEY", raising=False)
    assert api_key_from_env("TOOL_GYM_TEST_KEY") == PLACEHOLDER_API_KEY
    monkeypatch.setenv("TOOL_GYM_TEST_KEY", "secret")
    assert api_key_from_env("TOOL_GYM_TEST_KEY") == "secret"
    monkeypatch.setenv("OPENAI_API_KEY", "default-secret")
    assert api_key_from_env(None) == "default-secret"
    for bad in ("", "1KEY", "MY-KEY", 7):
        with pytest.raises(ValueError, match="api_key_env"):
            api_key_from_env(bad)
    for bad in ({"temperature": -0.1}, {"temperature": "hot"}, {"max_tokens": 0},
                {"max_tokens": 2.5}):
        with pytest.raises(ValueError, match="must be"):
            check_sampling(**bad)
    with pytest.raises(ValueError, match="max_retries"):
        openai_client("http://127.0.0.1:9/v1", max_retries=-1)


def test_chat_completion_with_tools_sends_key_and_returns_text_and_calls(monkeypatch):
    monkeypatch.setenv("TOOL_GYM_TEST_KEY", "secret")
    calls = [tool_call("get_weather", {"city": "Paris"}, "c1")]
    tools = [{"type": "function", "function": {"name": "get_weather", "parameters": {}}}]
    with FakeOpenAIServer([answer("Let me look.", calls, {"prompt_tokens": 9,
                                                          "completion_tokens": 4})]) as server:
        client = openai_client(server.url, api_key_env="TOOL_GYM_TEST_KEY")
        reply = chat_completion(client, "m", HI, tools=tools, temperature=0.0, max_tokens=5,
                                seed=3, top_p=None, template="ignored", context={"x": 1})
    assert reply.text == "Let me look." and reply.usage == {"prompt_tokens": 9,
                                                            "completion_tokens": 4}
    assert reply.tool_calls == [{"id": "c1", "type": "function", "function": {
        "name": "get_weather", "arguments": '{"city": "Paris"}'}}]
    assert reply.message() == {"role": "assistant", "content": "Let me look.",
                               "tool_calls": reply.tool_calls}
    parsed = parse_action(reply.hermes_text())
    assert parsed.calls[0].name == "get_weather"
    assert parsed.calls[0].arguments == {"city": "Paris"}
    (request,) = server.requests
    assert request["path"] == "/v1/chat/completions" and request["auth"] == "Bearer secret"
    assert request["body"] == {"model": "m", "messages": HI, "tools": tools,
                               "temperature": 0.0, "max_tokens": 5, "seed": 3}


def test_placeholder_key_when_the_variable_is_unset(monkeypatch):
    monkeypatch.delenv("TOOL_GYM_TEST_KEY", raising=False)
    with FakeOpenAIServer([answer("ok")]) as server:
        backend = OpenAICompatBackend(server.url, "m", api_key_env="TOOL_GYM_TEST_KEY")
        assert backend.generate(HI) == "ok"
    assert server.requests[0]["auth"] == f"Bearer {PLACEHOLDER_API_KEY}"


def test_backend_flags_win_over_call_hints():
    with FakeOpenAIServer([answer("a"), answer("b")]) as server:
        pinned = OpenAICompatBackend(server.url, "m", temperature=0.2, max_tokens=8)
        assert pinned.generate(HI, temperature=0.9, max_tokens=100, stop=["\n"]) == "a"
        free = OpenAICompatBackend(server.url, "m")
        assert free.generate(HI, temperature=0.9) == "b"
    first, second = (r["body"] for r in server.requests)
    assert (first["temperature"], first["max_tokens"], first["stop"]) == (0.2, 8, ["\n"])
    assert second["temperature"] == 0.9 and "max_tokens" not in second
    with pytest.raises(ValueError, match="temperature"):
        OpenAICompatBackend(server.url, "m", temperature=-1)


def test_a_server_error_is_retried_by_the_sdk():
    with FakeOpenAIServer([(500, {"error": {"message": "busy"}}), answer("ok")]) as server:
        assert OpenAICompatBackend(server.url, "m", max_retries=1).generate(HI) == "ok"
    assert len(server.requests) == 2
    with FakeOpenAIServer([(500, {"error": {"message": "busy"}})] * 2) as server, \
            pytest.raises(BackendError, match="HTTP 500"):
        OpenAICompatBackend(server.url, "m", max_retries=1).generate(HI)
    assert len(server.requests) == 2


def test_client_errors_and_odd_answers_are_one_line():
    with FakeOpenAIServer([(400, {"error": {"message": "bad\nrequest"}})]) as server, \
            pytest.raises(BackendError, match="HTTP 400") as caught:
        OpenAICompatBackend(server.url, "m", max_retries=3).generate(HI)
    assert len(server.requests) == 1 and "\n" not in str(caught.value)  # never retried
    with FakeOpenAIServer([(200, {"unexpected": True})]) as server, \
            pytest.raises(BackendError, match="unexpected answer"):
        OpenAICompatBackend(server.url, "m").generate(HI)
    with pytest.raises(BackendError, match="cannot reach") as caught:
        OpenAICompatBackend(f"http://127.0.0.1:{free_port()}/v1", "m",
                            max_retries=0).generate(HI)
    assert "\n" not in str(caught.value)


def test_check_server():
    with FakeOpenAIServer(models=("a", "Qwen/Qwen3-4B")) as server:
        assert check_server(server.url, "Qwen/Qwen3-4B") == ["a", "Qwen/Qwen3-4B"]
        with pytest.raises(ValueError, match="does not serve model 'b'; it serves 'a', "):
            check_server(server.url, "b")
        with pytest.raises(ValueError, match="HTTP 404"):
            check_server(server.url + "/nowhere", "a")
    assert [r["path"] for r in server.requests] == ["/v1/models"] * 2 + [
        "/v1/nowhere/models"]
    with pytest.raises(ValueError, match="cannot reach the OpenAI-compatible server") as caught:
        check_server(f"http://127.0.0.1:{free_port()}/v1", "m", timeout=5)
    assert "\n" not in str(caught.value) and "openai:URL#MODEL" in str(caught.value)


def test_backend_survives_pickling():
    with FakeOpenAIServer([answer("ok")]) as server:
        backend = pickle.loads(pickle.dumps(OpenAICompatBackend(server.url, "m",
                                                                max_tokens=4)))
        assert backend.generate(HI) == "ok" and backend.max_tokens == 4
    assert repr(backend) == f"OpenAICompatBackend('openai:{server.url}#m')"


def test_library_imports_without_openai_and_says_how_to_install():
    code = ("import sys; sys.modules['openai'] = None\n"
            "import tool_gym.llm, tool_gym.llm.openai_compat, tool_gym.agents.openai_policy\n"
            "from tool_gym.llm import make_backend\n"
            "try:\n    make_backend('openai:http://127.0.0.1:9/v1#m')\n"
            "except ImportError as e:\n    print(e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120, check=False)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().endswith('pip install "tool_gym[openai]"')
    assert out.stdout.count("\n") == 1
