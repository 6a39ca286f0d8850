"""Pickling an episode by replaying it: ``pickle.dumps(env)`` and ``copy.deepcopy(env)``.

An env holds live things (SQLite connections, tool functions, a simulated user) that
do not pickle, but everything it holds follows from its constructor arguments, the
episode's random state at ``reset``, its reset options and the actions taken since. So
the pickled state is exactly that (Gymnasium's ``EzPickle`` for the arguments, plus the
episode), and unpickling builds the env anew and replays the episode: the restored env
continues identically, the same next action giving the same observation, reward and
info. Replay does not render (no second print in ``render_mode="human"``) and leaves the
random generators as the original had them. Wrappers pickle their own counters
(``TimeLimit``'s elapsed steps) and the env restores the step limit it found at reset.

An env that cannot be rebuilt this way (its user is an LLM: replay would query the model
again, and a backend holds a live model or client) raises ``pickle.PicklingError`` with
the reason.
"""

from __future__ import annotations

import copy
import pickle
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from gymnasium.utils import EzPickle


@dataclass
class Episode:
    """What replaying an episode needs: ``rng``, the env's generator as ``reset`` began
    to draw from it (after seeding); the reset ``options``; ``context``, keyword arguments
    of the env's ``_start`` that reset found outside the env (a wrapper's step limit);
    the ``actions`` taken so far, each as sent (copied)."""

    rng: np.random.Generator
    options: dict | None
    context: dict = field(default_factory=dict)
    actions: list = field(default_factory=list)


class _Unreplayable:
    """Stands for an action that could not be copied; pickling then says why."""

    def __init__(self, reason: str):
        self.reason = reason


class ReplayPickle(EzPickle):
    """Mixin for an env whose ``reset`` is ``super().reset(seed=seed)`` then
    ``self._begin(options, **context)`` (which runs the env's ``_start`` and records the
    episode), and whose ``step`` calls :meth:`_record_step` once it has run. Call
    ``ReplayPickle.__init__(self, **constructor_kwargs)`` first in ``__init__``."""

    _episode: Episode | None = None

    def _start(self, options: dict | None, **context) -> tuple[Any, dict]:
        """Start an episode, drawing from ``np_random`` as it stands; return ``reset``'s
        observation and info."""
        raise NotImplementedError

    def _unpicklable_reason(self) -> str | None:
        """Why this env cannot be rebuilt from its arguments and episode (``None``: it can)."""
        return None

    def _begin(self, options: dict | None, **context) -> tuple[Any, dict]:
        """``self._start(options, **context)``, recorded once it has succeeded."""
        rng = copy.deepcopy(self.np_random)
        self._episode = None
        result = self._start(options, **context)
        self._episode = Episode(rng, copy.deepcopy(options), dict(context))
        return result

    def _record_step(self, action: Any) -> None:
        if self._episode is None:
            return
        if not isinstance(action, str):
            try:
                action = copy.deepcopy(action)
            except Exception as error:  # noqa: BLE001 - any object an agent may send
                action = _Unreplayable(f"action {len(self._episode.actions) + 1} of the "
                                       f"episode ({type(action).__name__}) cannot be copied "
                                       f"({type(error).__name__}: {error})")
        self._episode.actions.append(action)

    def __getstate__(self) -> dict[str, Any]:
        name = type(self).__name__
        reason = self._unpicklable_reason()
        if reason is None and self._episode is not None:
            reason = next((a.reason for a in self._episode.actions
                           if isinstance(a, _Unreplayable)), None)
        if reason is not None:
            raise pickle.PicklingError(f"{name} cannot be pickled or copied: {reason}")
        state = EzPickle.__getstate__(self)
        state.update(
            spec=self.spec, render_mode=self.render_mode, episode=self._episode,
            np_random=self._np_random, np_random_seed=self._np_random_seed,
            action_space=self.action_space, observation_space=self.observation_space,
            rendered=getattr(self, "_rendered", 0))
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        EzPickle.__setstate__(self, state)  # a new env from the constructor arguments
        self.spec = state["spec"]
        episode = state["episode"]
        if episode is not None:
            self.render_mode = None  # replay renders nothing
            self._np_random = copy.deepcopy(episode.rng)
            self._begin(copy.deepcopy(episode.options), **episode.context)
            for action in episode.actions:
                self.step(action)  # records the action again
        self.render_mode = state["render_mode"]
        self._np_random = state["np_random"]
        self._np_random_seed = state["np_random_seed"]
        self.action_space = state["action_space"]
        self.observation_space = state["observation_space"]
        self._rendered = state["rendered"]
