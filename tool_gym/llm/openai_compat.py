"""The one OpenAI-compatible client of tool_gym: policies, the LLM user and synthesis.

A model behind any OpenAI-compatible server (vLLM, SGLang, llama.cpp, Ollama, OpenAI) is
named everywhere by one spec, ``openai:URL#MODEL``::

    openai:http://127.0.0.1:8000/v1#Qwen/Qwen3-4B

This module owns that grammar (:func:`parse_openai_spec`), the client
(:func:`openai_client`: the official ``openai`` SDK, imported only when a client is
built; ``pip install "tool_gym[openai]"``), one chat completion with tools
(:func:`chat_completion` -> :class:`ChatReply`), the check a command line runs before any
work (:func:`check_server`) and the text backend (:class:`OpenAICompatBackend`).

The API key is read from an environment variable (``api_key_env``, default
``OPENAI_API_KEY``); when it is unset a placeholder key is sent, since local servers such
as vLLM need none. Retries (connection errors, 408/409/429/5xx, with exponential backoff
or the server's ``Retry-After``) and timeouts are the SDK's own ``max_retries`` and
``timeout``. Failures of a completion raise :class:`~tool_gym.llm.base.BackendError` with a
one-line message.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from .base import BackendError, Message

__all__ = ["DEFAULT_API_KEY_ENV", "PLACEHOLDER_API_KEY", "SPEC_EXAMPLE", "ChatReply",
           "OpenAICompatBackend", "api_key_from_env", "chat_completion", "check_sampling",
           "check_server", "openai_client", "parse_openai_spec"]

DEFAULT_API_KEY_ENV = "OPENAI_API_KEY"
PLACEHOLDER_API_KEY = "EMPTY"
SPEC_EXAMPLE = "openai:http://127.0.0.1:8000/v1#Qwen/Qwen3-4B"
INSTALL_HINT = 'pip install "tool_gym[openai]"'

# Keywords of a completion request that a caller may pass; others are ignored (the
# backend protocol: a backend ignores the hints it does not know).
SAMPLING = ("temperature", "max_tokens", "top_p", "seed", "stop", "tools", "tool_choice",
            "n", "presence_penalty", "frequency_penalty", "response_format", "extra_body")

_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


# ------------------------------------------------------------------------ the spec

def parse_openai_spec(spec: str) -> tuple[str, str]:
    """``(base_url, model)`` of ``"openai:URL#MODEL"``.

    ``URL`` is the server root with its API prefix (``http://host:8000/v1``); a trailing
    ``/`` or ``/chat/completions`` is dropped. Raises ``ValueError`` with a one-line
    message when the spec has no ``openai:`` prefix, no ``#MODEL`` or a bad URL.
    """
    if not isinstance(spec, str) or not spec.strip().startswith("openai:"):
        raise ValueError(f"an OpenAI-compatible model is named openai:URL#MODEL (e.g. "
                         f"{SPEC_EXAMPLE}), got {spec!r}")
    spec = spec.strip()
    url, sep, model = spec[len("openai:"):].rpartition("#")
    url, model = url.strip(), model.strip()
    if not sep or not model:
        raise ValueError(f"{spec!r} names no model: write openai:URL#MODEL (e.g. "
                         f"{SPEC_EXAMPLE})")
    if not url:
        raise ValueError(f"{spec!r} names no server URL: write openai:URL#MODEL (e.g. "
                         f"{SPEC_EXAMPLE})")
    parts = urlsplit(url)
    try:
        parts.port  # noqa: B018 - raises ValueError on a bad port
        ok = parts.scheme in ("http", "https") and bool(parts.hostname)
    except ValueError:
        ok = False
    if not ok or any(c.isspace() for c in url):
        raise ValueError(f"{spec!r}: the URL must look like http://HOST:PORT/v1, got {url!r} "
                         f"(write openai:URL#MODEL)")
    url = url.rstrip("/")
    url = url.removesuffix("/chat/completions")
    return url, model


def check_sampling(temperature: float | None = None, max_tokens: int | None = None) -> None:
    """Raise ``ValueError`` (one line) on a negative temperature or a max_tokens below 1;
    ``None`` means the server's default."""
    if temperature is not None and (isinstance(temperature, bool) or not isinstance(
            temperature, (int, float)) or not temperature >= 0):
        raise ValueError(f"temperature must be a number >= 0, got {temperature!r}")
    if max_tokens is not None and (isinstance(max_tokens, bool) or not isinstance(
            max_tokens, int) or max_tokens < 1):
        raise ValueError(f"max_tokens must be a positive integer, got {max_tokens!r}")


# ------------------------------------------------------------------------ the client

def _sdk() -> Any:
    try:
        import openai
    except ImportError:
        raise ImportError(f"OpenAI-compatible servers need the openai package: "
                          f"{INSTALL_HINT}") from None
    return openai


def api_key_from_env(api_key_env: str | None = DEFAULT_API_KEY_ENV) -> str:
    """The key in the environment variable ``api_key_env`` (``None``: ``OPENAI_API_KEY``),
    or a placeholder when it is unset or empty (vLLM and other local servers need none)."""
    if api_key_env is None:
        api_key_env = DEFAULT_API_KEY_ENV
    if not isinstance(api_key_env, str) or not _ENV_NAME.fullmatch(api_key_env):
        raise ValueError(f"api_key_env must name an environment variable (like "
                         f"{DEFAULT_API_KEY_ENV}), got {api_key_env!r}")
    return os.environ.get(api_key_env) or PLACEHOLDER_API_KEY


def openai_client(base_url: str, *, api_key_env: str = DEFAULT_API_KEY_ENV,
                  timeout: float = 120.0, max_retries: int = 3) -> Any:
    """An ``openai.OpenAI`` client for ``base_url`` (key from ``$api_key_env``).

    ``timeout`` is seconds per request; ``max_retries`` the SDK's retries after a
    connection error or a 408/409/429/5xx answer.
    """
    api_key = api_key_from_env(api_key_env)
    if not isinstance(max_retries, int) or isinstance(max_retries, bool) or max_retries < 0:
        raise ValueError(f"max_retries must be an integer >= 0, got {max_retries!r}")
    if not isinstance(timeout, (int, float)) or not timeout > 0:
        raise ValueError(f"timeout must be a positive number of seconds, got {timeout!r}")
    return _sdk().OpenAI(base_url=base_url, api_key=api_key, timeout=float(timeout),
                         max_retries=max_retries)


def _one_line(text: Any, limit: int = 300) -> str:
    return " ".join(str(text).split())[:limit]


def _reason(error: BaseException) -> str:
    """The root cause of an SDK connection error, in one line."""
    cause = error
    while cause.__cause__ is not None:
        cause = cause.__cause__
    return _one_line(cause if str(cause) else type(cause).__name__)


def _status_text(error: Any) -> str:
    response = getattr(error, "response", None)
    try:
        return _one_line(response.text) if response is not None else _one_line(error)
    except Exception:  # noqa: BLE001 - a body that cannot be read is not worth a crash
        return _one_line(error)


@dataclass(frozen=True)
class ChatReply:
    """One assistant turn.

    Attributes:
        text: the message's text (empty when the model only called tools).
        tool_calls: OpenAI tool calls, ``{"id", "type": "function", "function": {"name",
            "arguments": JSON text}}``.
        usage: ``prompt_tokens`` and ``completion_tokens`` the server reported (0 if not).
    """

    text: str
    tool_calls: list[dict] = field(default_factory=list)
    usage: dict = field(default_factory=lambda: {"prompt_tokens": 0, "completion_tokens": 0})

    def message(self) -> dict:
        """The assistant message, as it goes back into the conversation."""
        message: dict[str, Any] = {"role": "assistant", "content": self.text}
        if self.tool_calls:
            message["tool_calls"] = [dict(call) for call in self.tool_calls]
        return message

    def hermes_text(self) -> str:
        """The text followed by one ``<tool_call>{"name", "arguments"}</tool_call>`` block
        per tool call (what :func:`tool_gym.core.actions.parse_action` reads)."""
        text = self.text
        for call in self.tool_calls:
            arguments: Any = call["function"]["arguments"]
            try:
                arguments = json.loads(arguments)
            except json.JSONDecodeError:
                pass  # kept as the text the model wrote; the parser reports it
            block = json.dumps({"name": call["function"]["name"], "arguments": arguments},
                               ensure_ascii=False)
            text += f"<tool_call>{block}</tool_call>"
        return text


def _reply(completion: Any) -> ChatReply:
    choices = getattr(completion, "choices", None)
    message = getattr(choices[0], "message", None) if choices else None
    if message is None:
        dump = completion.model_dump() if hasattr(completion, "model_dump") else completion
        raise BackendError(f"unexpected answer: {_one_line(json.dumps(dump, default=str))}")
    calls = []
    for i, call in enumerate(getattr(message, "tool_calls", None) or []):
        function = getattr(call, "function", None)
        if function is None:
            continue  # a non-function (custom) tool call: nothing tool_gym can run
        arguments = getattr(function, "arguments", None)
        if not isinstance(arguments, str):
            arguments = json.dumps(arguments if arguments is not None else {})
        calls.append({"id": getattr(call, "id", None) or f"call_{i}", "type": "function",
                      "function": {"name": getattr(function, "name", None),
                                   "arguments": arguments}})
    usage = getattr(completion, "usage", None)
    counts = {key: int(getattr(usage, key, 0) or 0)
              for key in ("prompt_tokens", "completion_tokens")}
    return ChatReply(getattr(message, "content", None) or "", calls, counts)


def chat_completion(client: Any, model: str, messages: list[Message], **kw: Any) -> ChatReply:
    """One ``POST /chat/completions`` through ``client`` (:func:`openai_client`).

    ``kw``: the sampling keywords in :data:`SAMPLING` (``None`` values are not sent;
    others are ignored). Raises :class:`~tool_gym.llm.base.BackendError` (one line) when
    the server cannot be reached, answers an error after the SDK's retries, or answers
    something that is not a chat completion.
    """
    openai = _sdk()
    params = {k: v for k, v in kw.items() if k in SAMPLING and v is not None}
    where = str(client.base_url).rstrip("/")
    try:
        completion = client.chat.completions.create(model=model, messages=list(messages),
                                                    **params)
    except openai.APIStatusError as error:
        raise BackendError(f"{where}/chat/completions: HTTP {error.status_code}: "
                           f"{_status_text(error)}") from None
    except openai.APIConnectionError as error:
        raise BackendError(f"cannot reach {where}: {_reason(error)}") from None
    except openai.APIError as error:
        raise BackendError(f"{where}/chat/completions: {_one_line(error)}") from None
    return _reply(completion)


def check_server(base_url: str, model: str, *, api_key_env: str = DEFAULT_API_KEY_ENV,
                 timeout: float = 10.0) -> list[str]:
    """The models the server serves (``GET {base_url}/models``), once it is known that it
    serves ``model``; a command line calls this before any work.

    Raises ``ValueError`` with one line when the ``openai`` package is missing, the server
    cannot be reached, answers an error, or does not serve ``model``.
    """
    try:
        client = openai_client(base_url, api_key_env=api_key_env, timeout=timeout,
                               max_retries=0)
    except ImportError as error:
        raise ValueError(str(error)) from None
    openai = _sdk()
    where = base_url.rstrip("/")
    try:
        served = [str(entry.id) for entry in client.models.list()]
    except openai.APIStatusError as error:
        raise ValueError(f"{where}/models answered HTTP {error.status_code}: "
                         f"{_status_text(error)}") from None
    except openai.APIConnectionError as error:
        raise ValueError(f"cannot reach the OpenAI-compatible server at {where} "
                         f"({_reason(error)}): start it or fix the URL in openai:URL#MODEL") \
            from None
    except (openai.APIError, AttributeError, TypeError) as error:
        raise ValueError(f"{where}/models did not answer a model list: "
                         f"{_one_line(error)}") from None
    if model not in served:
        listed = ", ".join(repr(m) for m in served[:10]) or "no model"
        raise ValueError(f"{where} does not serve model {model!r}; it serves {listed}")
    return served


# ------------------------------------------------------------------------ the backend

class OpenAICompatBackend:
    """A model behind an OpenAI-compatible server as a text backend
    (``generate(messages, **kw) -> str``; tool calls come back as Hermes blocks). ::

        backend = OpenAICompatBackend.from_spec("openai:http://127.0.0.1:8000/v1#Qwen/Qwen3-4B")
        backend.generate([{"role": "user", "content": "Hi"}], temperature=0.2)

    Args:
        base_url: server root with its API prefix, e.g. ``http://127.0.0.1:8000/v1``.
        model: the model name the server knows.
        api_key_env: environment variable holding the API key (placeholder when unset).
        temperature / max_tokens: when given, every request uses them, whatever the
            caller's hints (the command lines' ``--temperature`` / ``--max-tokens``);
            when ``None``, the caller's hint, else the server's default.
        timeout / max_retries: the SDK's seconds per request and retries.
    """

    def __init__(self, base_url: str, model: str, *, api_key_env: str = DEFAULT_API_KEY_ENV,
                 temperature: float | None = None, max_tokens: int | None = None,
                 timeout: float = 120.0, max_retries: int = 3):
        check_sampling(temperature, max_tokens)
        self.base_url, self.model = base_url.rstrip("/"), model
        self.api_key_env = api_key_env
        self.temperature, self.max_tokens = temperature, max_tokens
        self.timeout, self.max_retries = timeout, max_retries
        self._client = self._connect()

    @classmethod
    def from_spec(cls, spec: str, **kw: Any) -> OpenAICompatBackend:
        """The backend named by ``"openai:URL#MODEL"``; ``kw`` as for the constructor."""
        return cls(*parse_openai_spec(spec), **kw)

    def _connect(self) -> Any:
        return openai_client(self.base_url, api_key_env=self.api_key_env,
                             timeout=self.timeout, max_retries=self.max_retries)

    def generate(self, messages: list[Message], **kw: Any) -> str:
        pinned = {"temperature": self.temperature, "max_tokens": self.max_tokens}
        kw.update({k: v for k, v in pinned.items() if v is not None})
        return chat_completion(self._client, self.model, messages, **kw).hermes_text()

    # A client holds sockets and locks: pickles (vector envs, Ray) carry the settings only.
    def __getstate__(self) -> dict:
        return {k: v for k, v in self.__dict__.items() if k != "_client"}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._client = self._connect()

    def __repr__(self) -> str:
        return f"OpenAICompatBackend('openai:{self.base_url}#{self.model}')"
