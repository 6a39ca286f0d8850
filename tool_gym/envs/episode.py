"""The episode interface of tool_gym's envs: a public record and the oracle's access.

``env.unwrapped.episode`` is an :class:`EpisodeRecord` (what the agent saw and did);
``oracle_access()`` and ``ground_truth()`` are the hidden part, for the episode loop and
the reference oracle only. See docs/episode-record.md.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Protocol, runtime_checkable

import gymnasium as gym

__all__ = ["EpisodeEnv", "EpisodeRecord", "OracleAccess", "episode_env"]


@dataclass(frozen=True)
class EpisodeRecord:
    """The public part of an env's current episode: a JSON-ready snapshot.

    ``calls`` are the tool calls the env ran (``name``, ``arguments``, validity ``stage``,
    ``ok``, result ``content``); ``agent_messages`` the agent's messages to the user;
    ``transcript`` the ``(who, text)`` turns; ``tools`` the schemas shown to the agent;
    ``policy`` the domain's policy text (``None`` without one); ``task_source`` where the
    tasks come from. Nothing in it names the hidden task beyond what the agent was shown.
    """

    task_id: str | None
    turn: int
    done: bool
    calls: tuple[dict, ...]
    agent_messages: tuple[str, ...]
    transcript: tuple[tuple[str, str], ...]
    tools: tuple[dict, ...]
    policy: str | None
    task_source: str

    def to_dict(self) -> dict[str, Any]:
        """The record as plain JSON types (lists for tuples)."""
        out = asdict(self)
        out["transcript"] = [list(turn) for turn in self.transcript]
        for key in ("calls", "agent_messages", "tools"):
            out[key] = list(out[key])
        return out


@dataclass(frozen=True)
class OracleAccess:
    """The hidden part of the current episode: its task, the kit that can plan it
    (``kit.plan(task)``) and the task's constraint types. Only the episode loop takes it,
    and hands it to a privileged policy only (:mod:`tool_gym.agents.privileged`)."""

    task: Any
    kit: Any
    constraint_types: tuple[str, ...] = ()

    @classmethod
    def from_env(cls, env: gym.Env) -> "OracleAccess":
        """The access to ``env``'s current episode (the env must have been reset)."""
        return episode_env(env).oracle_access()


@runtime_checkable
class EpisodeEnv(Protocol):
    """What an env (``env.unwrapped``) gives the episode loop besides the Gymnasium API."""

    @property
    def episode(self) -> EpisodeRecord:
        """The public record of the current episode."""
        ...

    def oracle_access(self) -> OracleAccess:
        """The hidden task (privileged); ``ValueError`` before the first reset."""
        ...

    def ground_truth(self) -> list:
        """The task's ground-truth calls for PROVE's reward (privileged)."""
        ...


def episode_env(env: Any) -> EpisodeEnv:
    """``env.unwrapped``, checked to keep an episode record (``TypeError`` otherwise)."""
    if not isinstance(env, gym.Env):
        raise TypeError(f"expected a Gymnasium env, got {type(env).__name__}")
    base = env.unwrapped
    if not isinstance(base, EpisodeEnv):
        raise TypeError(f"{type(base).__name__} keeps no episode record: it needs `episode`, "
                        f"`oracle_access()` and `ground_truth()` (tool_gym.envs.episode)")
    return base
