"""The LLM user behind an OpenAI-compatible server, named openai:URL#MODEL like every
other model of tool_gym (a fake server on 127.0.0.1 plays the model)."""

import pytest

from tool_gym.core.llm_user import resolve_backend
from tool_gym.llm.openai_compat import OpenAICompatBackend

from ..llm.fake_openai import FakeOpenAIServer, answer
from .test_llm_user import episode

HINT = "A fitting reply would be: "


def paraphrase_the_hint(body):
    """Answers with the reply the system prompt suggests (a perfect paraphraser)."""
    system = body["messages"][0]["content"]
    return answer(system.partition(HINT)[2].partition("\n")[0])


def test_an_openai_user_plays_the_task():
    with FakeOpenAIServer(paraphrase_the_hint, models=("user-model",)) as server:
        info = episode(server.spec, "test-1")
    report = info["user_report"]
    assert info["verification"]["success"]
    assert report["llm_messages"] == report["messages"] == len(server.chats()) > 1
    body = server.chats()[0]["body"]
    assert body["model"] == "user-model" and body["messages"][0]["role"] == "system"
    assert (body["temperature"], body["max_tokens"]) == (0.7, 96)  # the user's own settings
    assert isinstance(body["seed"], int)


def test_user_backend_specs():
    backend = resolve_backend("openai:http://127.0.0.1:9/v1#u", api_key_env="USER_KEY",
                              temperature=0.1)
    assert isinstance(backend, OpenAICompatBackend)
    assert (backend.model, backend.api_key_env, backend.temperature) == ("u", "USER_KEY", 0.1)
    with pytest.raises(ValueError, match="names no model"):
        resolve_backend("openai:qwen")  # the old openai:<model> spelling
    with pytest.raises(ValueError, match="openai:URL#MODEL"):
        resolve_backend(42)


def test_user_llm_kwargs_reach_the_server(monkeypatch):
    """``user_llm_kwargs`` of the env: the key variable and the sampling settings the
    served user model gets (they win over the user's own 0.7 / 96)."""
    monkeypatch.setenv("USER_KEY", "secret-user-key")
    with FakeOpenAIServer(paraphrase_the_hint, models=("user-model",)) as server:
        info = episode(server.spec, "test-1", user_llm_kwargs={
            "api_key_env": "USER_KEY", "temperature": 0.2, "max_tokens": 40})
    assert info["verification"]["success"]
    request = server.chats()[0]
    assert (request["body"]["temperature"], request["body"]["max_tokens"]) == (0.2, 40)
    assert request["auth"] == "Bearer secret-user-key"
