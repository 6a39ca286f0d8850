"""Step shaping that is bounded and cannot be farmed.

The full explanation is in ``docs/rewards.md``.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

__all__ = ["Shaping", "call_key"]


def _digest(text: str) -> bytes:
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()


def call_key(name: Any, arguments: Any) -> bytes:
    """A digest of ``(name, arguments)`` as canonical JSON (sorted keys, no spaces). Never
    raises: values JSON cannot hold (huge integers, sets, ...) fall back to their type and
    a bounded repr, which can only merge keys (less credit), never split them."""
    try:
        text = json.dumps([name, arguments], sort_keys=True, separators=(",", ":"))
    except (TypeError, ValueError, RecursionError):
        try:
            text = f"{type(name).__name__}:{str(name)[:200]}:{type(arguments).__name__}:" \
                   f"{repr(arguments)[:10_000]}"
        except Exception:  # noqa: BLE001 - a key must never break a step
            text = f"{type(name).__name__}:{type(arguments).__name__}"
    return _digest(text)


class Shaping:
    """The per-episode ledger: what was credited and the clipped running sum."""

    def __init__(self, cap: float):
        if cap < 0:
            raise ValueError(f"cap must be >= 0, got {cap}")
        self.cap = float(cap)
        self.total = 0.0
        self._keys: set[bytes] = set()
        self._results: set[bytes] = set()

    def credit(self, name: Any, arguments: Any, validity: float, is_write: bool, ok: bool,
               changed: bool, content: str) -> float:
        """The validity credited to one call (0 when it repeats or achieved nothing new).
        ``changed``: the call changed the database (``total_changes`` went up)."""
        key = call_key(name, arguments)
        result = _digest(content if isinstance(content, str) else repr(content))
        new_key = key not in self._keys
        new_result = result not in self._results
        self._keys.add(key)
        self._results.add(result)
        if not new_key:
            return 0.0
        if is_write:
            return float(validity) if (changed if ok else True) else 0.0
        return float(validity) if new_result else 0.0

    def add(self, amount: float) -> float:
        """Add a step's shaping; return the step's reward (the change of the clipped sum)."""
        new = min(self.cap, max(-self.cap, self.total + float(amount)))
        delta = new - self.total
        self.total = new
        return delta
