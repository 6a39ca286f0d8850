"""``OpenAIPolicy``: any OpenAI-compatible chat server plays the agent (vLLM, llama.cpp,
SGLang, TGI, Ollama, ...), with native tool calls.

Each turn posts the conversation and ``info["tools"]`` to ``<base_url>/chat/completions``
and returns the assistant message dict (``content`` and ``tool_calls``) for the env to
parse. Tool results go back as ``tool`` messages tied to the call ids; a server that
answers in text (Hermes ``<tool_call>`` blocks) works too, since the env parses text.
Standard library only (``urllib``).

    python evaluate.py --policy openai:http://127.0.0.1:8000/v1#Qwen/Qwen2.5-7B-Instruct

The API key, when the server needs one, comes from ``api_key`` or ``OPENAI_API_KEY``.
"""

from __future__ import annotations

import json
import os
import time
import urllib.error
import urllib.request
from typing import Any

from .transformers_policy import episode_seed, initial_messages, observation_message

__all__ = ["OpenAIPolicy", "parse_spec"]


def parse_spec(rest: str) -> tuple[str, str]:
    """``(base_url, model)`` from ``URL#MODEL`` (the part after ``openai:``)."""
    url, sep, model = rest.rpartition("#")
    if not sep or not url or not model:
        raise ValueError(f"openai policy spec must look like openai:URL#MODEL, got "
                         f"'openai:{rest}'")
    if not url.startswith(("http://", "https://")):
        raise ValueError(f"openai policy URL must start with http:// or https://, got {url!r}")
    return url, model


class OpenAIPolicy:
    """A model behind an OpenAI-compatible ``/chat/completions`` endpoint.

    Args:
        base_url: e.g. ``http://127.0.0.1:8000/v1`` (``/chat/completions`` is appended
            unless the URL already ends with it).
        model: the model name the server knows.
        api_key: bearer token (default: ``OPENAI_API_KEY``, or none).
        temperature / max_tokens / top_p: sampling settings sent with each request.
        seed: base seed; each request carries a seed derived from the episode.
        native_tools: send ``tools`` and expect ``tool_calls`` (default); when false the
            schemas are not sent and the model must write calls as text.
        system_prompt: text put before the domain policy in the system message.
        timeout / retries: per request; connection errors and 429/5xx are retried.
    """

    def __init__(self, base_url: str, model: str, *, api_key: str | None = None,
                 temperature: float = 0.0, max_tokens: int | None = 1024,
                 top_p: float | None = None, seed: int | None = 0, native_tools: bool = True,
                 system_prompt: str | None = None, timeout: float = 120.0, retries: int = 2,
                 extra_body: dict | None = None):
        url = base_url.rstrip("/")
        self.url = url if url.endswith("/chat/completions") else url + "/chat/completions"
        self.model = model
        self.api_key = api_key if api_key is not None else os.environ.get("OPENAI_API_KEY")
        self.temperature = temperature
        self.max_tokens = max_tokens
        self.top_p = top_p
        self.seed = seed
        self.native_tools = native_tools
        self.system_prompt = system_prompt
        self.timeout = timeout
        self.retries = retries
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
        body: dict[str, Any] = {"model": self.model, "messages": self.messages,
                                "temperature": self.temperature}
        if self.native_tools and self.tools:
            body["tools"] = self.tools
            body["tool_choice"] = "auto"
        if self.max_tokens is not None:
            body["max_tokens"] = self.max_tokens
        if self.top_p is not None:
            body["top_p"] = self.top_p
        if self._episode_seed is not None:
            body["seed"] = (self._episode_seed + len(self.messages)) % (2**31)
        body.update(self.extra_body)
        reply = self._post(body)
        message = self._message(reply)
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

    @staticmethod
    def _message(reply: dict) -> dict:
        try:
            raw = reply["choices"][0]["message"]
        except (KeyError, IndexError, TypeError):
            raise RuntimeError(f"unexpected chat completion: {json.dumps(reply)[:300]}") \
                from None
        message: dict[str, Any] = {"role": "assistant", "content": raw.get("content") or ""}
        calls = []
        for i, call in enumerate(raw.get("tool_calls") or []):
            function = call.get("function") or {}
            arguments = function.get("arguments")
            if not isinstance(arguments, str):
                arguments = json.dumps(arguments if arguments is not None else {})
            calls.append({"id": call.get("id") or f"call_{i}", "type": "function",
                          "function": {"name": function.get("name"), "arguments": arguments}})
        if calls:
            message["tool_calls"] = calls
        return message

    def _post(self, body: dict) -> dict:
        data = json.dumps(body).encode()
        headers = {"Content-Type": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        error: Exception | None = None
        for attempt in range(self.retries + 1):
            request = urllib.request.Request(self.url, data=data, headers=headers,
                                             method="POST")
            try:
                with urllib.request.urlopen(request, timeout=self.timeout) as response:
                    reply = json.loads(response.read().decode("utf-8"))
                usage = reply.get("usage") or {}
                self.usage["requests"] += 1
                for key in ("prompt_tokens", "completion_tokens"):
                    self.usage[key] += int(usage.get(key) or 0)
                return reply
            except urllib.error.HTTPError as e:
                text = e.read().decode("utf-8", "replace")[:500]
                error = RuntimeError(f"{self.url} answered HTTP {e.code}: {text}")
                if e.code != 429 and e.code < 500:
                    raise error from None
            except (urllib.error.URLError, TimeoutError, ConnectionError) as e:
                error = RuntimeError(f"cannot reach {self.url}: {e}")
            if attempt < self.retries:
                time.sleep(min(2.0 ** attempt, 10.0))
        raise error  # type: ignore[misc]
