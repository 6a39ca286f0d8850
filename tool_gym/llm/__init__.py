"""Text generation backends shared by synthesis, verifiers, user simulators and policies.

- :mod:`tool_gym.llm.base`: the protocol (``generate(messages, **kw) -> str``).
- :mod:`tool_gym.llm.template`: the offline template backend (the default).
- :mod:`tool_gym.llm.openai_compat`: any OpenAI-compatible chat server (vLLM, SGLang,
  llama.cpp, OpenAI), over the standard library only.
"""

from .base import Backend, BackendError, Message, generate_batch
from .template import TemplateBackend

__all__ = ["Backend", "BackendError", "Message", "TemplateBackend", "generate_batch",
           "make_backend"]


def make_backend(spec: str | Backend | None = None, **kw) -> Backend:
    """A backend from a short spec: ``None``/``"template"`` (offline), ``"openai:<model>"``
    (with ``base_url=``/``api_key=`` keywords or the ``OPENAI_BASE_URL`` /
    ``OPENAI_API_KEY`` environment variables), or a backend object, returned as it is."""
    if spec is None or spec == "template":
        return TemplateBackend(**kw)
    if isinstance(spec, str):
        kind, _, model = spec.partition(":")
        if kind in ("openai", "vllm") and model:
            from .openai_compat import OpenAICompatBackend

            return OpenAICompatBackend(model=model, **kw)
        raise ValueError(f"unknown backend {spec!r}: use 'template' or 'openai:<model>'")
    if not hasattr(spec, "generate"):
        raise TypeError(f"{spec!r} has no generate(messages, **kw) method")
    return spec
