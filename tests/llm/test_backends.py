"""Backends: the protocol, the offline template backend, backend specs, and the
OpenAI-compatible backend driving synthesis against a fake server on 127.0.0.1."""

import json

import pytest

from tool_gym.llm import Backend, BackendError, TemplateBackend, generate_batch, make_backend
from tool_gym.llm.openai_compat import OpenAICompatBackend
from tool_gym.llm.template import TEMPLATES, register

from .fake_openai import FakeOpenAIServer, answer


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


def test_make_backend():
    assert isinstance(make_backend(), TemplateBackend)
    remote = make_backend("openai:http://127.0.0.1:9/v1#qwen", api_key_env="MY_KEY",
                          temperature=0.3, max_tokens=7)
    assert isinstance(remote, OpenAICompatBackend)
    assert (remote.base_url, remote.model, remote.api_key_env) == (
        "http://127.0.0.1:9/v1", "qwen", "MY_KEY")
    assert (remote.temperature, remote.max_tokens) == (0.3, 7)
    for bad, words in (("mystery", "openai:URL#MODEL"), ("openai:qwen", "names no model"),
                       ("vllm:qwen", "unknown backend")):
        with pytest.raises(ValueError, match=words):
            make_backend(bad)
    with pytest.raises(ValueError, match="base_url= is gone"):
        make_backend("openai:qwen", base_url="http://127.0.0.1:9/v1")


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
    with FakeOpenAIServer(replies) as server:
        backend = make_backend(server.spec)
        task = StagedSynthesizer(pool, backend, categories=("simple",)).sample(index)
    assert audit(task) == [], task
    assert task.meta["generator"] == "OpenAICompatBackend"
    assert "Functions:" in server.chats()[0]["body"]["messages"][1]["content"]
