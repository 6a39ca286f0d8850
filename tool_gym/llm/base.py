"""The backend protocol: one method, ``generate(messages, **kw) -> str``.

Every text generator in tool_gym (synthesis stages, verifiers, user simulators, policies)
is a *backend*: an object with ::

    def generate(self, messages: list[dict], **kw) -> str

``messages`` is an OpenAI-style chat (``{"role": "system" | "user" | "assistant",
"content": str}``); the return value is the assistant's reply as text. Keyword
arguments are hints, and a backend ignores the ones it does not know:

- ``temperature``, ``max_tokens``, ``seed``, ``stop``: sampling settings.
- ``tools``: OpenAI ``tools`` entries the model may call. A backend whose model answers
  with structured tool calls writes them into the text as Hermes blocks
  (``<tool_call>{"name": ..., "arguments": {...}}</tool_call>``), which
  :func:`tool_gym.core.actions.parse_action` reads.
- ``template``, ``context``: the name of an offline template and the structured data it
  needs (read by :class:`~tool_gym.llm.template.TemplateBackend`; model backends, which
  read the messages, ignore them). Callers pass both, so one call site serves every
  backend.

A backend may also offer ``generate_batch(conversations, **kw) -> list[str]`` (one
batched model call); :func:`generate_batch` falls back to a loop.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

__all__ = ["Backend", "BackendError", "Message", "generate_batch"]

Message = dict[str, Any]


class BackendError(RuntimeError):
    """A backend could not produce a reply (server error, bad response...)."""


@runtime_checkable
class Backend(Protocol):
    """Anything with ``generate(messages, **kw) -> str``."""

    def generate(self, messages: list[Message], **kw: Any) -> str: ...


def generate_batch(backend: Backend, conversations: list[list[Message]],
                   **kw: Any) -> list[str]:
    """Replies to several conversations: the backend's ``generate_batch`` when it has one,
    else one ``generate`` per conversation. Per-conversation ``context`` values may be
    given as ``contexts=[...]``."""
    contexts = kw.pop("contexts", None)
    batch = getattr(backend, "generate_batch", None)
    if batch is not None and contexts is None:
        return list(batch(conversations, **kw))
    return [backend.generate(messages, **({**kw, "context": contexts[i]} if contexts else kw))
            for i, messages in enumerate(conversations)]
