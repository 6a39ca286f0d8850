"""The episode record: the public part of an episode, and the oracle's privileged access."""

import dataclasses
import gc
import json
import types

import gymnasium as gym
import pytest

import tool_gym  # noqa: F401
from tool_gym.agents import OraclePolicy, RandomPolicy
from tool_gym.agents.episode_loop import run_episode
from tool_gym.core.task_model import Constraint, Task
from tool_gym.envs.episode import EpisodeRecord, OracleAccess, episode_env

CALL_KEYS = {"name", "arguments", "stage", "ok", "content"}


@pytest.fixture(scope="module", params=["ToolRetail-v0", "ToolCall-v0"])
def env(request):
    e = gym.make(request.param)
    yield e
    e.close()


def test_before_reset_the_record_is_empty_and_the_access_refused(env):
    fresh = gym.make(env.spec.id)
    record = episode_env(fresh).episode
    assert record.task_id is None and record.turn == 0 and not record.done
    assert record.calls == () and record.agent_messages == () and record.transcript == ()
    with pytest.raises(ValueError, match="reset"):
        OracleAccess.from_env(fresh)
    fresh.close()


def test_after_reset_the_record_matches_info(env):
    observation, info = env.reset(seed=0, options={"task_id": "test-1"})
    record = episode_env(env).episode
    assert isinstance(record, EpisodeRecord)
    assert record.task_id == info["task_id"] == "test-1"
    assert (record.turn, record.done, record.calls, record.agent_messages) == (0, False, (), ())
    assert record.transcript == (("user", observation),)
    assert list(record.tools) == info["tools"]
    assert record.policy == info.get("policy")
    json.dumps(record.to_dict())


def test_the_oracle_episode_is_recorded_to_the_end(env):
    record = run_episode(env, OraclePolicy(), seed=0, task_id="test-1", trajectory=True)
    assert record["success"] and record["score"] == 1.0
    episode = episode_env(env).episode
    assert episode.done and episode.task_id == "test-1" and episode.turn == record["turns"]
    assert len(episode.calls) == record["tool_calls"]
    assert all(set(c) == CALL_KEYS for c in episode.calls)
    assert record["trajectory"]["calls"] == [dict(c) for c in episode.calls]
    assert record["trajectory"]["agent_messages"] == list(episode.agent_messages)
    assert [who for who, _ in episode.transcript][0] == "user"
    dumped = json.loads(json.dumps(episode.to_dict()))
    assert dumped["calls"] == [dict(c) for c in episode.calls]


def test_the_record_is_a_frozen_snapshot(env):
    env.reset(seed=0, options={"task_id": "test-2"})
    env.step(env.action_space.sample())
    record = episode_env(env).episode
    with pytest.raises(dataclasses.FrozenInstanceError):
        record.calls = ()
    for call in record.calls:
        call["content"] = "changed"
    assert all(c["content"] != "changed" for c in episode_env(env).episode.calls)


def test_the_oracle_access_is_the_hidden_task(env):
    _, info = env.reset(seed=0, options={"task_id": "test-3"})
    access = OracleAccess.from_env(env)
    assert access.task.id == info["task_id"] and callable(access.kit.plan)
    types = tuple(c.type for c in access.task.constraints) if isinstance(access.task, Task) \
        else ()
    assert access.constraint_types == types


def _reachable(root, limit=200_000):
    seen, stack = {}, [root]
    while stack and len(seen) < limit:
        obj = stack.pop()
        if id(obj) in seen:
            continue
        seen[id(obj)] = obj
        if not isinstance(obj, (type, types.ModuleType)):
            stack.extend(gc.get_referents(obj))
    return seen.values()


def test_the_public_record_leads_to_no_hidden_object(env):
    env.reset(seed=0, options={"task_id": "test-4"})
    env.step(env.action_space.sample())
    record = episode_env(env).episode
    hidden = (Task, Constraint, OracleAccess, gym.Env)
    assert not [o for o in _reachable(record) if isinstance(o, hidden)]
    assert not hasattr(record, "task") and not hasattr(record, "kit")


class PeekingPolicy(RandomPolicy):
    """A plain policy handed the public record (more than any policy gets) that tries to
    reach the hidden task through it."""

    def __init__(self, record):
        super().__init__(seed=0)
        self.record = record

    def reset(self, observation, info):
        super().reset(observation, info)
        OracleAccess.from_env(self.record)  # not an env: refused


def test_a_policy_cannot_read_the_hidden_task_through_the_record(env):
    env.reset(seed=0, options={"task_id": "test-1"})
    policy = PeekingPolicy(episode_env(env).episode)
    with pytest.raises(TypeError, match="Gymnasium env"):
        run_episode(env, policy, seed=0, task_id="test-1")
    with pytest.raises(AttributeError):
        policy.record.task  # noqa: B018


def test_an_env_without_the_record_is_refused_clearly():
    class Bare(gym.Env):
        def reset(self, *, seed=None, options=None):
            return "", {}

    with pytest.raises(TypeError, match="episode record"):
        episode_env(Bare())
    with pytest.raises(TypeError, match="episode record"):
        run_episode(Bare(), RandomPolicy(), seed=0, task_id=None)
    with pytest.raises(TypeError, match="Gymnasium env"):
        episode_env(object())
