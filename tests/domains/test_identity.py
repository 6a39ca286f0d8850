"""The user answers each domain's own identity question, and the oracle logs in only with
what the user said: an oracle that used the hidden identity after the user failed to
understand the question would teach SFT to invent emails, and leave an honest agent stuck."""

from __future__ import annotations

import json

import gymnasium as gym
import pytest

from tool_gym.agents.episode_loop import run_episode
from tool_gym.agents.oracle import OraclePolicy
from tool_gym.core.users import identity_request
from tool_gym.domains import BUILTINS, get_domain

DOMAINS = tuple(sorted(BUILTINS))


def _env_id(name: str) -> str:
    return get_domain(name).envs[0].id


@pytest.mark.parametrize("name", DOMAINS)
def test_the_kits_identity_question_is_understood(name):
    kit = gym.make(_env_id(name)).unwrapped.kit
    if kit.ask_identity:
        assert identity_request(kit.ask_identity, kit.identity_asks), kit.ask_identity


@pytest.mark.parametrize("name", DOMAINS)
def test_the_oracle_logs_in_with_what_the_user_said(name):
    kit = gym.make(_env_id(name)).unwrapped.kit
    for k, kind in enumerate(kit.samplers):
        env = gym.make(_env_id(name), constraint_types=[kind])
        run = run_episode(env, OraclePolicy(), seed=k, task_id=f"train-{k}", chat=True)
        said = ""
        for message in run["chat"]["messages"]:
            for call in message.get("tool_calls") or ():
                if call["function"]["name"] in kit.auth_tools:
                    args = call["function"]["arguments"]
                    args = json.loads(args) if isinstance(args, str) else args
                    for value in args.values():
                        assert str(value).lower() in said, (kind, call, said[-300:])
            if message["role"] == "user":
                said += " " + (message.get("content") or "").lower()
