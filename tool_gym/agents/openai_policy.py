"""``OpenAIPolicy``: any OpenAI-compatible chat server plays the agent (vLLM, llama.cpp,
SGLang, TGI, Ollama, ...), with native tool calls.

Each turn sends the conversation and ``info["tools"]`` through the one client of
:mod:`tool_gym.llm.openai_compat` (the ``openai`` SDK: its retries and timeout) and
returns the assistant message dict (``content`` and ``tool_calls``) for the env to parse.
Tool results go back as ``tool`` messages tied to the call ids; a server that answers in
text (Hermes ``<tool_call>`` blocks) works too, since the env parses text. ::

    python evaluate.py --policy openai:http://127.0.0.1:8000/v1#Qwen/Qwen2.5-7B-Instruct \\
        --temperature 0 --max-tokens 1024 --api-key-env OPENAI_API_KEY

The API key, when the server needs one, comes from the environment variable named by
``api_key_env`` (default ``OPENAI_API_KEY``).
"""

from __future__ import annotations

from typing import Any

from ..llm.openai_compat import (DEFAULT_API_KEY_ENV, chat_completion, check_sampling,
                                 openai_client, parse_openai_spec)
from .transformers_policy import episode_seed, initial_messages, observation_message

__all__ = ["OpenAIPolicy", "parse_spec"]


def parse_spec(rest: str) -> tuple[str, str]:
    """``(base_url, model)`` from ``URL#MODEL`` (the part after ``openai:``); see
    :func:`tool_gym.llm.openai_compat.parse_openai_spec`."""
    return parse_openai_spec(f"openai:{rest}")


class OpenAIPolicy:
    """A model behind an OpenAI-compatible ``/chat/completions`` endpoint.

    Args:
        base_url: e.g. ``http://127.0.0.1:8000/v1``.
        model: the model name the server knows.
        api_key_env: environment variable holding the API key (a placeholder key is sent
            when it is unset; local servers need none).
        temperature / max_tokens / top_p: sampling settings sent with each request
            (``None``: the server's default).
        seed: base seed; each request carries a seed derived from the episode.
        native_tools: send ``tools`` and expect ``tool_calls`` (default); when false the
            schemas are not sent and the model must write calls as text.
        system_prompt: text put before the domain policy in the system message.
        timeout / max_retries: the SDK's seconds per request and retries (connection
            errors, 429 and 5xx answers).
        extra_body: extra request fields for the server (e.g. vLLM's ``top_k``).
    """

    def __init__(self, base_url: str, model: str, *, api_key_env: str = DEFAULT_API_KEY_ENV,
                 temperature: float | None = 0.0, max_tokens: int | None = 1024,
                 top_p: float | None = None, seed: int | None = 0, native_tools: bool = True,
                 system_prompt: str | None = None, timeout: float = 120.0,
                 max_retries: int = 2, extra_body: dict | None = None):
        check_sampling(temperature, max_tokens)
        self.base_url, self.model = base_url.rstrip("/"), model
        self.api_key_env = api_key_env
        self.client = openai_client(self.base_url, api_key_env=api_key_env, timeout=timeout,
                                    max_retries=max_retries)
        self.temperature = temperature
        self.max_tokens = max_tokens
        self.top_p = top_p
        self.seed = seed
        self.native_tools = native_tools
        self.system_prompt = system_prompt
        self.extra_body = dict(extra_body or {})
        self.messages: list[dict] = []
        self.tools: list[dict] = []
        self.usage = {"prompt_tokens": 0, "completion_tokens": 0, "requests": 0}
        self._last: dict | None = None
        self._episode_seed: int | None = None

    # -- Policy API
    def reset(self, observation: str, info: dict) -> None:
        self.tools = list((info or {}).get("tools") or [])
        self.messages = initial_messages(observation, info, self.system_prompt)
        self._last = None
        self._episode_seed = None if self.seed is None else \
            episode_seed(self.seed, info, observation) % (2**31)

    def act(self, observation: str, info: dict) -> dict:
        if self._last is not None:
            self.messages.extend(self._replies(observation, self._last))
        request: dict[str, Any] = {"temperature": self.temperature,
                                   "max_tokens": self.max_tokens, "top_p": self.top_p}
        if self.native_tools and self.tools:
            request["tools"] = self.tools
            request["tool_choice"] = "auto"
        if self._episode_seed is not None:
            request["seed"] = (self._episode_seed + len(self.messages)) % (2**31)
        if self.extra_body:
            request["extra_body"] = self.extra_body
        reply = chat_completion(self.client, self.model, self.messages, **request)
        self.usage["requests"] += 1
        for key, count in reply.usage.items():
            self.usage[key] += count
        message = reply.message()
        self.messages.append(message)
        self._last = message
        return message

    # -- helpers
    def _replies(self, observation: str, last: dict) -> list[dict]:
        """The env's observation as chat messages: one ``tool`` message per call of the
        last action (the env joins several results with newlines), else a user message."""
        calls = last.get("tool_calls") or []
        if not calls:
            return [observation_message(observation, last.get("content") or "", self.tools)]
        parts = observation.split("\n")
        if len(parts) != len(calls):
            parts = [observation] + ["(see the result above)"] * (len(calls) - 1)
        return [{"role": "tool", "tool_call_id": call.get("id") or f"call_{i}",
                 "content": part} for i, (call, part) in enumerate(zip(calls, parts))]
