"""``prompt="compact"``: a short policy and only the tools the env's task family needs; the
dynamics, the user and the rewards are those of the full prompt."""

from __future__ import annotations

import json

import gymnasium as gym
import pytest
from gymnasium.utils.env_checker import check_env

import tool_gym
from tool_gym.agents.adversarial import ADVERSARIES
from tool_gym.agents.episode_loop import run_episode
from tool_gym.agents.oracle import OraclePolicy
from tool_gym.domains import get_domain

GIFT_CARD = {"constraint_types": ["info_gift_card_balance"], "max_constraints": 1}


def names(info):
    return [t["function"]["name"] for t in info["tools"]]


def test_a_family_sees_its_tools_and_a_short_policy():
    full = gym.make("ToolRetail-v0", **GIFT_CARD)
    compact = gym.make("ToolRetail-v0", prompt="compact", **GIFT_CARD)
    _, full_info = full.reset(seed=0)
    _, info = compact.reset(seed=0)
    assert names(info) == ["find_user_id_by_email", "find_user_id_by_name_zip",
                           "get_user_details", "transfer_to_human_agents"]
    size = len(json.dumps(info["tools"])) + len(info["policy"])
    full_size = len(json.dumps(full_info["tools"])) + len(full_info["policy"])
    assert size < full_size / 6, (size, full_size)
    assert "find_user_id_by_email" in info["policy"] and "yes" in info["policy"]
    assert compact.unwrapped.episode.policy == info["policy"]
    schema = info["tools"][0]["function"]
    assert schema["description"] == "Find a user's id by their email address."
    assert schema["parameters"]["required"] == ["email"]
    assert "description" not in schema["parameters"]["properties"]["email"]


def test_the_tools_shown_never_depend_on_the_task():
    env = gym.make("ToolRetail-v0", prompt="compact")
    shown = set()
    for seed in range(12):
        _, info = env.reset(seed=seed)
        shown.add(json.dumps(info["tools"]))
    assert len(shown) == 1


@pytest.mark.parametrize("env_id", tool_gym.CONVERSATION_IDS)
def test_every_type_is_solved_with_only_the_tools_shown(env_id):
    """Each constraint type forced: the oracle wins, and every call it makes is of a tool
    the compact prompt lists."""
    domain = get_domain(gym.spec(env_id).kwargs["domain"])
    for kind in domain.tasks.constraint_types:
        env = gym.make(env_id, prompt="compact", constraint_types=[kind], max_constraints=1)
        for index in range(2):
            record = run_episode(env, OraclePolicy(), seed=index, task_id=f"test-{index}",
                                 trajectory=True)
            listed = set(names({"tools": record["trajectory"]["tools"]}))
            called = {c["name"] for c in record["trajectory"]["calls"]}
            assert record["success"], (env_id, kind, index, record["ended"])
            assert called <= listed, (env_id, kind, called - listed)


@pytest.mark.parametrize("env_id", ["ToolRetail-v0", "ToolBanking-v0"])
def test_same_actions_same_observations_and_rewards(env_id):
    full = gym.make(env_id)
    compact = gym.make(env_id, prompt="compact")
    for index in range(3):
        record = run_episode(full, OraclePolicy(), seed=index, task_id=f"test-{index}",
                             trajectory=True)
        actions = [m for m in record["trajectory"]["messages"] if m["role"] == "assistant"]
        outcomes = []
        for env in (full, compact):
            env.reset(seed=index, options={"task_id": f"test-{index}"})
            steps = []
            for message in actions:
                obs, reward, terminated, truncated, info = env.step(message)
                steps.append((obs, reward, terminated, truncated,
                              info.get("verification", {}).get("success")))
                if terminated or truncated:
                    break
            outcomes.append(steps)
        assert outcomes[0] == outcomes[1]
        assert outcomes[0][-1][-1] is True


@pytest.mark.parametrize("name", sorted(ADVERSARIES))
def test_adversaries_win_nothing_of_the_compact_family(name):
    env = gym.make("ToolRetail-v0", prompt="compact", split="test", **GIFT_CARD)
    wins = sum(run_episode(env, ADVERSARIES[name](), seed=0, task_id=f"test-{i}")["success"]
               for i in range(25))
    assert wins == 0, f"{name} wins {wins}/25"


def test_check_env_and_a_bad_prompt():
    env = gym.make("ToolAirline-v0", prompt="compact")
    check_env(env.unwrapped, skip_render_check=True)
    with pytest.raises(ValueError, match="prompt must be one of"):
        gym.make("ToolRetail-v0", prompt="tiny")
