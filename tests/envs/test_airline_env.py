"""``ToolAirline-v0``: the airline domain as a hidden-intent environment."""

import json
from pathlib import Path

import gymnasium as gym
import pytest
from gymnasium.utils.env_checker import check_env

import tool_gym  # noqa: F401
from tool_gym.agents import OraclePolicy, RandomPolicy
from tool_gym.agents.episode_loop import run_episode
from tool_gym.core.actions import ToolCall

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"
V1_DIR = DATA / "tau-bench" / "airline"


@pytest.fixture(scope="module")
def env():
    e = gym.make("ToolAirline-v0")
    yield e
    e.close()


def test_registered_and_passes_check_env():
    assert "ToolAirline-v0" in tool_gym.ENV_IDS
    e = gym.make("ToolAirline-v0")
    check_env(e.unwrapped)
    e.close()


def test_reset_gives_the_users_request_and_public_info(env):
    obs, info = env.reset(seed=7)
    assert isinstance(obs, str) and obs
    names = {t["function"]["name"] for t in info["tools"]}
    assert "book_reservation" in names and len(names) == 14
    assert "basic economy" in info["policy"].lower()
    task = env.unwrapped.task
    text = obs + json.dumps(info, default=str)
    assert task.user_id not in text
    assert "verification" not in info


@pytest.mark.parametrize("split,count", [("test", 50), ("train", 100)])
def test_oracle_solves_every_task(env, split, count):
    records = [run_episode(env, OraclePolicy(), seed=i, task_id=f"{split}-{i}")
               for i in range(count)]
    failed = [(r["task_id"], r["ended"], r["violation_counts"], r["constraints"])
              for r in records if not r["success"]]
    assert not failed, failed
    assert all(r["score"] == 1.0 and r["violations"] == 0 and r["redundant_writes"] == 0
               for r in records)


def test_random_policy_scores_near_zero(env):
    scores = [run_episode(env, RandomPolicy(seed=i), seed=i, task_id=f"test-{i}")["score"]
              for i in range(30)]
    assert sum(scores) / len(scores) < 0.1


def test_user_gives_the_user_id_when_asked(env):
    env.reset(options={"task_id": "test-3"}, seed=0)
    obs, *_ = env.step("Sure. Could you tell me your user ID?")
    assert env.unwrapped.task.user_id in obs


def test_get_user_details_authenticates_and_policy_rules_are_counted():
    """Reading the user record authenticates that user (no write on another user), and a
    forbidden write the tool accepts is counted as a policy violation."""
    e = gym.make("ToolAirline-v0", constraint_types=("refuse_ineligible_cancellation",),
                 max_constraints=1)
    e.reset(options={"task_id": "train-0"}, seed=0)
    task = e.unwrapped.task
    rid = task.constraints[0].args["reservation_id"]
    e.step(ToolCall("get_user_details", {"user_id": task.user_id}))
    assert e.unwrapped.monitor.authenticated == task.user_id
    obs, *_ = e.step(ToolCall("cancel_reservation", {"reservation_id": rid}))
    assert not obs.startswith("Error")
    *_, terminated, _, info = e.step(ToolCall("transfer_to_human_agents", {"summary": "x"}))
    v = info["verification"]
    assert terminated and not v["success"]
    assert v["violation_counts"].get("policy:cancel_not_eligible") == 1
    assert "write_on_other_user" not in v["violation_counts"]
    assert v["constraints"] == [{"type": "refuse_ineligible_cancellation", "satisfied": False,
                                 "reason": "not communicated: no message to the user said "
                                           "the request cannot be done"}]
    e.close()


def _refusal_episode(read: bool):
    """A basic-economy change refused after authenticating, with or without reading the
    reservation that makes it ineligible: the last step's outcome."""
    e = gym.make("ToolAirline-v0", constraint_types=("refuse_basic_economy_change",),
                 max_constraints=1)
    try:
        e.reset(options={"task_id": "test-1"}, seed=0)
        task = e.unwrapped.task
        (need,) = task.constraints
        e.step("I can help. What is your user id?")
        e.step(ToolCall("get_user_details", {"user_id": task.user_id}))
        if read:
            obs, *_ = e.step(ToolCall("get_reservation_details",
                                      {"reservation_id": need.args["reservation_id"]}))
            assert "basic_economy" in obs
        return e.step("I'm sorry, but flights of a basic economy reservation cannot be "
                      "changed.")
    finally:
        e.close()


def test_refusal_is_satisfied_by_declining_after_reading_the_reservation():
    obs, _, terminated, _, info = _refusal_episode(read=True)
    assert terminated and info["verification"]["success"], obs


def test_refusal_without_reading_the_reservation_is_not_satisfied():
    obs, _, terminated, _, info = _refusal_episode(read=False)
    # the user is not satisfied: it restates its request instead of ending the episode
    assert not terminated and "verification" not in info, obs


@pytest.mark.skipif(not V1_DIR.is_dir(), reason=f"tau-bench airline data not found at {V1_DIR}")
def test_public_data():
    e = gym.make("ToolAirline-v0", data=str(V1_DIR))
    obs, info = e.reset(seed=0)
    assert obs
    for i in range(10):
        record = run_episode(e, OraclePolicy(), seed=i, task_id=f"test-{i}")
        assert record["success"], record
    e.close()
