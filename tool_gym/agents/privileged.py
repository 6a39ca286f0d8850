"""The privileged side door: how the reference oracle, and only it, learns the hidden task.

A :class:`~tool_gym.agents.policy.Policy` sees what an LLM agent sees: ``reset(observation, info)``
and ``act(observation, info)``, never the env. A policy that must know the hidden task (the
reference :class:`~tool_gym.agents.oracle.OraclePolicy`, which plays the task kit's plan) implements
:class:`PrivilegedPolicy` instead: ``reset_privileged(observation, info, access)``, where
``access`` is an :class:`~tool_gym.envs.episode.OracleAccess` (the episode's task and its
kit) that the episode loop takes from the env's privileged ``oracle_access()``.

Who gets the access is decided by the caller, never by the policy object:

- ``evaluate.py``, the Ray workers and SFT data collection grant it exactly when the policy
  spec is ``"oracle"`` (:func:`privileged_spec`); a ``module:Class`` policy never gets it;
- library code that builds a policy itself (tests, benchmarks, trajectory synthesis) may
  let :func:`tool_gym.agents.episode_loop.run_episode` decide by type (:func:`is_privileged`): only an
  instance whose exact class is the library's own oracle is privileged, not a subclass.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from ..envs.episode import OracleAccess

__all__ = ["OracleAccess", "PrivilegedPolicy", "PRIVILEGED_SPECS", "is_privileged",
           "privileged_class", "privileged_spec", "reset_policy"]


@runtime_checkable
class PrivilegedPolicy(Protocol):
    """A policy that is reset with the hidden task (the reference oracle)."""

    def reset_privileged(self, observation: str, info: dict, access: OracleAccess) -> None:
        ...

    def act(self, observation: str, info: dict) -> str | dict:
        ...


#: Policy specs of ``load_policy`` that are granted privileged access.
PRIVILEGED_SPECS = frozenset({"oracle"})


def privileged_spec(spec: Any) -> bool:
    """Whether the command-line policy ``spec`` is granted the hidden task."""
    return isinstance(spec, str) and spec.strip() in PRIVILEGED_SPECS


def _privileged_types() -> tuple[type, ...]:
    from .oracle import OraclePolicy

    return (OraclePolicy,)


def privileged_class(cls: Any) -> bool:
    """Whether ``cls`` is one of the library's privileged policy classes (exactly)."""
    return any(cls is t for t in _privileged_types())


def is_privileged(policy: Any) -> bool:
    """Whether ``policy``'s exact class is one of the library's privileged policies."""
    return privileged_class(type(policy))


def reset_policy(policy: Any, observation: str, info: dict, env: Any,
                 privileged: bool | None = None) -> None:
    """Start an episode for ``policy``: ``reset_privileged`` with the env's
    :class:`OracleAccess` when ``privileged`` (``None``: :func:`is_privileged`), else
    ``reset(observation, info)``: the env itself is never handed to a policy."""
    if privileged is None:
        privileged = is_privileged(policy)
    if privileged:
        if not isinstance(policy, PrivilegedPolicy):
            raise TypeError(f"{type(policy).__name__} was granted privileged access but has "
                            f"no reset_privileged(observation, info, access)")
        policy.reset_privileged(observation, info, OracleAccess.from_env(env))
    else:
        policy.reset(observation, info)
