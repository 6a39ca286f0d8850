"""Each conversation id's test split (test-0 .. test-199) is frozen: same tasks in every
process and on every machine, pinned by a digest tied to the env version."""

import hashlib

import gymnasium as gym
import pytest

import tool_gym
from tool_gym.envs.frozen import TEST_SET_DIGESTS
from tool_gym.envs.tool_env import TEST_SET_SIZE


@pytest.mark.parametrize("env_id", tool_gym.CONVERSATION_IDS)
def test_test_set_is_frozen(env_id):
    env = gym.make(env_id).unwrapped
    digest = hashlib.sha256()
    users = set()
    for n in range(TEST_SET_SIZE):
        task = env.make_task(f"test-{n}")
        assert task.split == "test"
        users.add(task.user_id)
        digest.update(task.digest.encode())
    assert digest.hexdigest() == TEST_SET_DIGESTS[env_id], (
        f"{env_id}'s frozen test set changed: if that is intended, release a new version "
        "of the id and record its digest in tool_gym/envs/frozen.py")
    train_users = {env.make_task(f"train-{n}").user_id for n in range(200)}
    assert not users & train_users
