"""The step limit that a Gymnasium ``TimeLimit`` wrapper puts on an env, seen from inside.

An env that ends its own episodes (verification and terminal reward on the last step)
must end them no later than a ``TimeLimit`` around it would cut them, else the cut step
carries neither. Gymnasium 1.x does not tell the env: ``gym.make`` gives the unwrapped
env a spec whose ``max_episode_steps`` is ``None`` and puts the limit only on the
wrapper. The wrapper's ``reset`` calls the env's ``reset`` through the chain of wrappers,
so the env finds the limit by looking, from its ``reset``, at the callers on the stack
for a ``TimeLimit`` whose innermost env is itself. This covers ``gym.make(...,
max_episode_steps=N)``, the registered default and a ``TimeLimit`` applied by hand,
in vector envs too (each sub-env is reset through its own wrappers).
"""

from __future__ import annotations

import sys
from typing import Any

from gymnasium.wrappers import TimeLimit

#: How many callers above ``reset`` are looked at (wrapper chains are a few deep).
MAX_DEPTH = 32


def wrapper_step_limit(env: Any, depth: int = MAX_DEPTH) -> int | None:
    """The smallest ``max_episode_steps`` of the ``TimeLimit`` wrappers of ``env`` that
    are resetting it now (call from ``env.reset``), or ``None`` when there is none."""
    limits = []
    spec = getattr(env, "spec", None)
    if spec is not None and getattr(spec, "max_episode_steps", None):
        limits.append(int(spec.max_episode_steps))
    frame = sys._getframe(1) if hasattr(sys, "_getframe") else None
    for _ in range(depth):
        if frame is None:
            break
        caller = frame.f_locals.get("self")
        if isinstance(caller, TimeLimit) and caller.unwrapped is env:
            limit = getattr(caller, "_max_episode_steps", None)
            if isinstance(limit, int) and limit > 0:
                limits.append(limit)
        frame = frame.f_back
    return min(limits) if limits else None
