"""The offline template backend: deterministic replies from named templates, no model.

A template is a function ``(messages, context, rng) -> str``. Callers name it with the
``template=`` keyword and give it structured data with ``context=``; the backend looks it
up in its own table, then in the shared :data:`TEMPLATES` table (modules register theirs
with :func:`register`, e.g. the staged synthesis registers ``"staged.targets"``,
``"staged.query"``, ``"staged.calls"`` and ``"staged.verify"``). Randomness comes from a
generator seeded by the ``seed`` keyword (or the backend's own seed and a call counter),
so a run is reproducible. Without a known template the reply is ``default``.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from .base import BackendError, Message

__all__ = ["TEMPLATES", "TemplateBackend", "register"]

Template = Callable[[list[Message], dict, np.random.Generator], str]

#: Shared table: template name -> function.
TEMPLATES: dict[str, Template] = {}


def register(name: str) -> Callable[[Template], Template]:
    """Decorator: add a template to the shared table under ``name``."""

    def decorate(fn: Template) -> Template:
        TEMPLATES[name] = fn
        return fn

    return decorate


class TemplateBackend:
    """Replies rendered by templates (see the module docstring).

    Args:
        templates: extra templates for this backend only (they win over the shared table).
        default: reply when no template is named (or ``None`` to raise instead).
        seed: seed of the random generator when a call gives none.
    """

    def __init__(self, templates: dict[str, Template] | None = None,
                 default: str | None = "I can help with that.", seed: int = 0):
        self.templates = dict(templates or {})
        self.default = default
        self.seed = seed
        self.calls = 0

    def generate(self, messages: list[Message], *, template: str | None = None,
                 context: dict | None = None, seed: Any = None, **kw: Any) -> str:
        self.calls += 1
        fn = self.templates.get(template) or TEMPLATES.get(template) if template else None
        if fn is None:
            if template is not None and self.default is None:
                raise BackendError(f"no template named {template!r}")
            if self.default is None:
                raise BackendError("TemplateBackend needs template=...")
            return self.default
        rng = np.random.default_rng(seed if seed is not None else [self.seed, self.calls])
        return fn(list(messages), dict(context or {}), rng)

    def __repr__(self) -> str:
        return f"TemplateBackend(seed={self.seed})"
