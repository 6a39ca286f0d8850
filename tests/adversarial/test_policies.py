"""The adversarial policies themselves: loadable, env-free, deterministic, and each doing
the trick it is named after (so that the integrity gate tests what it claims to)."""

from __future__ import annotations

import gymnasium as gym
import pytest

import tool_gym  # noqa: F401
from tool_gym.agents.adversarial import (ADVERSARIES, ASK_IDENTITY, PROBES, REFUSAL, CatchAllPolicy, Memory,
                                RefusalPolicy, SpamReadPolicy, SprayPolicy, TransferPolicy)
from tool_gym.agents.policy import Policy, load_policy
from tool_gym.core.actions import parse_action


def _episode(env_id: str, policy, task_id: str = "test-0", seed: int = 0):
    """Play one episode by hand (the policy never sees the env); the actions taken."""
    env = gym.make(env_id, split="test")
    observation, info = env.reset(seed=seed, options={"task_id": task_id})
    policy.reset(observation, info)
    actions, done = [], False
    while not done:
        action = policy.act(observation, info)
        actions.append(action)
        observation, _, terminated, truncated, info = env.step(action)
        done = terminated or truncated
    return actions, info, env


@pytest.mark.parametrize("name", [*ADVERSARIES, *PROBES])
def test_loadable_as_module_class_and_a_policy(name):
    cls = {**ADVERSARIES, **PROBES}[name]
    policy = load_policy(f"tool_gym.agents.adversarial:{cls.__name__}")
    assert isinstance(policy, Policy)
    assert type(policy) is cls


@pytest.mark.parametrize("name", list(ADVERSARIES))
@pytest.mark.parametrize("env_id", ["ToolRetail-v0", "ToolBanking-v0", "ToolTeamChat-v0"])
def test_deterministic_by_seed_and_verified(name, env_id):
    first, info, _ = _episode(env_id, ADVERSARIES[name]())
    again, _, _ = _episode(env_id, ADVERSARIES[name]())
    assert first == again
    assert "verification" in info
    # reseeded from the episode: an earlier episode changes nothing
    policy = ADVERSARIES[name]()
    _episode(env_id, policy, "test-1")
    assert _episode(env_id, policy)[0] == first


def test_spam_read_repeats_one_valid_read():
    actions, info, env = _episode("ToolRetail-v0", SpamReadPolicy())
    assert actions[0] == ASK_IDENTITY
    calls = env.unwrapped.calls
    assert any(c["ok"] and c["name"].startswith("find_user") for c in calls)
    repeated = [(c["name"], str(c["arguments"])) for c in calls[-20:]]
    assert len(set(repeated)) == 1 and all(c["ok"] for c in calls[-20:])
    assert not calls[-1]["name"].startswith(("cancel", "modify", "return", "exchange"))


def test_refusal_only_refuses():
    actions, info, env = _episode("ToolAirline-v0", RefusalPolicy())
    assert set(actions) == {REFUSAL}
    assert env.unwrapped.calls == []


def test_transfer_calls_the_transfer_tool_at_once():
    actions, info, env = _episode("ToolCrm-v0", TransferPolicy())
    assert len(actions) == 1
    (call,) = parse_action(actions[0]).calls
    assert call.name == "transfer_to_human_agents"
    assert info["verification"]["ended"] == "transfer"


def test_spray_lists_every_date_and_id_it_saw():
    policy = SprayPolicy()
    actions, _, env = _episode("ToolRetail-v0", policy, "test-2")
    sprays = [a for a in actions if a.startswith("Here is what I found")]
    assert len(sprays) >= 2
    last = sprays[-1]
    order_ids = {c["arguments"].get("order_id") for c in env.unwrapped.calls
                 if c["name"] == "get_order_details"} - {None}
    assert order_ids and all(o in last for o in order_ids)
    assert any(ch.isdigit() for ch in last) and "cancelled" in last


def test_catch_all_proposes_many_entities_at_once():
    policy = CatchAllPolicy()
    actions, _, env = _episode("ToolRetail-v0", policy, "test-1")
    proposals = [a for a in actions if a.startswith("Shall I ")]
    assert proposals
    # never one entity alone: each proposal offers several at once
    assert all(" and " in p and p.count("#W") >= 2 for p in proposals), proposals
    # the first one offers every action on every entity
    assert len({w for w in ("cancel", "modify", "return", "exchange") if w in proposals[0]}) \
        >= 2


def test_memory_reads_identity_and_results():
    m = Memory()
    m.user_message("Sure: Alice Quinn, and the zip code is 64198. My email is a.q@x.com.")
    m.user_message("Yes, my username is dlopez75. My user ID is hiro_k_5684.")
    assert m.values["email"] == ["a.q@x.com"]
    assert m.values["first_name"] == ["Alice"] and m.values["last_name"] == ["Quinn"]
    assert m.values["zip"] == ["64198"]
    assert m.values["username"] == ["dlopez75"] and m.values["user_id"] == ["hiro_k_5684"]
    m.tool_result("cus_f172q53j", ["find_customer_by_username"], ["customer_id", "order_id"])
    assert m.values["customer_id"] == ["cus_f172q53j"] and "order_id" not in m.values
    m.tool_result('{"orders": ["#W1", "#W2"], "status": "pending", "date": "2024-05-03"}',
                  ["get_user_details"], [])
    assert m.values["order_id"] == ["#W1", "#W2"]
    assert "pending" in m.status_words() and "2024-05-03" in m.dates()
