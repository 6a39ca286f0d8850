"""Shared pieces of the reward-integrity tests: a cache of episode returns, so that the
oracle plays each (id, preset, task) once per session."""

from __future__ import annotations

from functools import lru_cache

import gymnasium as gym
import pytest

import tool_gym  # noqa: F401  (registers the ids)
from tool_gym.agents.adversarial import ADVERSARIES
from tool_gym.agents.oracle import OraclePolicy
from tool_gym.agents.episode_loop import run_episode
from tool_gym.agents.styles import STYLES


@lru_cache(maxsize=None)
def _env(env_id: str, preset: str) -> gym.Env:
    return gym.make(env_id, split="test", reward=preset)


def _policy(name: str):
    if name == "oracle":
        return OraclePolicy()
    if name in STYLES:
        return STYLES[name]()
    return ADVERSARIES[name]()


@lru_cache(maxsize=None)
def _episode(env_id: str, preset: str, name: str, index: int) -> tuple[bool, float]:
    # only the oracle and the style agents (which play its plan) get the hidden task
    record = run_episode(_env(env_id, preset), _policy(name), seed=0,
                         task_id=f"test-{index}", privileged=name == "oracle" or name in STYLES)
    assert record["verified"], (env_id, name, index, record["ended"])
    return bool(record["success"]), float(record["reward"])


def episodes(env_id: str, preset: str, name: str, tasks: int) -> tuple[tuple[bool, float], ...]:
    """``(success, return)`` of ``name`` on ``test-0 .. test-(tasks-1)`` (seed 0), each
    episode played once per session."""
    return tuple(_episode(env_id, preset, name, i) for i in range(tasks))


@pytest.fixture
def play():
    return episodes
