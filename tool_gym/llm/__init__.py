"""Text generation backends shared by synthesis, verifiers, user simulators and policies.

- :mod:`tool_gym.llm.base`: the protocol (``generate(messages, **kw) -> str``).
- :mod:`tool_gym.llm.template`: the offline template backend (the default).
- :mod:`tool_gym.llm.openai_compat`: the one client of OpenAI-compatible chat servers
  (vLLM, SGLang, llama.cpp, OpenAI), named ``openai:URL#MODEL`` everywhere; needs the
  ``openai`` package (``pip install "tool_gym[openai]"``).
"""

from .base import Backend, BackendError, Message, generate_batch
from .template import TemplateBackend

__all__ = ["Backend", "BackendError", "Message", "TemplateBackend", "generate_batch",
           "make_backend"]

BACKEND_SPECS = "'template' or 'openai:URL#MODEL'"


def make_backend(spec: str | Backend | None = None, **kw) -> Backend:
    """A backend from a spec: ``None``/``"template"`` (offline;
    :class:`~tool_gym.llm.template.TemplateBackend`), ``"openai:URL#MODEL"`` (an
    OpenAI-compatible server; ``kw``: ``api_key_env``, ``temperature``, ``max_tokens``,
    ``timeout``, ``max_retries`` of
    :class:`~tool_gym.llm.openai_compat.OpenAICompatBackend`), or a backend object,
    returned as it is. A bad spec raises ``ValueError`` with one line."""
    if spec is None or spec == "template":
        return TemplateBackend(**kw)
    if isinstance(spec, str):
        if "base_url" in kw:
            raise ValueError("base_url= is gone: name the server in the spec, "
                             "openai:URL#MODEL")
        if spec.strip().startswith("openai:"):
            from .openai_compat import OpenAICompatBackend

            return OpenAICompatBackend.from_spec(spec, **kw)
        raise ValueError(f"unknown backend {spec!r}: use {BACKEND_SPECS}")
    if not hasattr(spec, "generate"):
        raise TypeError(f"{spec!r} has no generate(messages, **kw) method")
    return spec
