"""A backend for any OpenAI-compatible chat server (vLLM, SGLang, llama.cpp, OpenAI).

Standard library only (``urllib``): no ``openai`` package needed. ::

    backend = OpenAICompatBackend("Qwen/Qwen3-4B", base_url="http://127.0.0.1:8000/v1")
    backend.generate([{"role": "user", "content": "Hi"}], temperature=0.2)

``POST {base_url}/chat/completions`` with ``model``, ``messages`` and the sampling keywords
given (``temperature``, ``max_tokens``, ``top_p``, ``seed``, ``stop``, ``tools``); the
reply is ``choices[0].message.content``, followed by one Hermes block per structured tool
call (``<tool_call>{"name": ..., "arguments": {...}}</tool_call>``). Failures raise
:class:`~tool_gym.llm.base.BackendError`; 429 and 5xx answers and connection errors are
retried with exponential backoff.
"""

from __future__ import annotations

import json
import os
import time
import urllib.error
import urllib.request
from typing import Any

from .base import BackendError, Message

__all__ = ["OpenAICompatBackend"]

_SAMPLING = ("temperature", "max_tokens", "top_p", "seed", "stop", "tools", "tool_choice",
             "n", "presence_penalty", "frequency_penalty", "response_format")


class OpenAICompatBackend:
    """Chat completions over HTTP.

    Args:
        model: model name the server knows.
        base_url: server root including ``/v1`` (default: ``$OPENAI_BASE_URL`` or
            ``http://127.0.0.1:8000/v1``).
        api_key: bearer token (default: ``$OPENAI_API_KEY``; none sent when empty).
        timeout: seconds per request.
        max_retries: retries after a 429/5xx answer or a connection error.
        backoff: first retry delay in seconds (doubled each time).
        defaults: sampling keywords sent with every request unless overridden.
    """

    def __init__(self, model: str, base_url: str | None = None, api_key: str | None = None,
                 timeout: float = 120.0, max_retries: int = 3, backoff: float = 0.5,
                 **defaults: Any):
        self.model = model
        self.base_url = (base_url or os.environ.get("OPENAI_BASE_URL")
                         or "http://127.0.0.1:8000/v1").rstrip("/")
        self.api_key = api_key if api_key is not None else os.environ.get("OPENAI_API_KEY", "")
        self.timeout = timeout
        self.max_retries = max_retries
        self.backoff = backoff
        self.defaults = {k: v for k, v in defaults.items() if k in _SAMPLING}

    def _request(self, payload: dict) -> dict:
        data = json.dumps(payload).encode("utf-8")
        headers = {"Content-Type": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        url = f"{self.base_url}/chat/completions"
        delay = self.backoff
        for attempt in range(self.max_retries + 1):
            request = urllib.request.Request(url, data=data, headers=headers, method="POST")
            try:
                with urllib.request.urlopen(request, timeout=self.timeout) as response:
                    return json.loads(response.read().decode("utf-8"))
            except urllib.error.HTTPError as error:
                body = error.read().decode("utf-8", "replace")[:500]
                if error.code in (429, 500, 502, 503, 504) and attempt < self.max_retries:
                    time.sleep(delay)
                    delay *= 2
                    continue
                raise BackendError(f"{url}: HTTP {error.code}: {body}") from None
            except (urllib.error.URLError, TimeoutError, ConnectionError) as error:
                if attempt < self.max_retries:
                    time.sleep(delay)
                    delay *= 2
                    continue
                raise BackendError(f"{url}: {error}") from None
            except json.JSONDecodeError as error:
                raise BackendError(f"{url}: the answer is not JSON ({error})") from None
        raise BackendError(f"{url}: no answer")  # pragma: no cover

    def generate(self, messages: list[Message], **kw: Any) -> str:
        payload = {"model": self.model, "messages": list(messages), **self.defaults}
        payload.update({k: v for k, v in kw.items() if k in _SAMPLING and v is not None})
        answer = self._request(payload)
        try:
            message = answer["choices"][0]["message"]
        except (KeyError, IndexError, TypeError):
            raise BackendError(f"unexpected answer: {json.dumps(answer)[:300]}") from None
        text = message.get("content") or ""
        for call in message.get("tool_calls") or []:
            fn = call.get("function") or {}
            arguments = fn.get("arguments") or "{}"
            try:
                arguments = json.loads(arguments) if isinstance(arguments, str) else arguments
            except json.JSONDecodeError:
                pass  # kept as the text the model wrote; the parser reports it
            block = json.dumps({"name": fn.get("name"), "arguments": arguments},
                               ensure_ascii=False)
            text += f"<tool_call>{block}</tool_call>"
        return text

    def __repr__(self) -> str:
        return f"OpenAICompatBackend({self.model!r}, base_url={self.base_url!r})"
