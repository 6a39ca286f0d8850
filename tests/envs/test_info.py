"""``info`` carries the documented keys only, and nothing of the hidden task before the
final step, for every registered id."""

from __future__ import annotations

import json
import re

import gymnasium as gym
import pytest

import tool_gym  # noqa: F401  (registers the ids)
from tool_gym.agents import OraclePolicy, RandomPolicy
from tool_gym.agents.privileged import OracleAccess
from tool_gym.envs.function_call_env import FunctionCallEnv
from tool_gym.envs.tool_env import ToolEnv

IDS = sorted(k for k, spec in gym.registry.items()
             if str(spec.entry_point).startswith("tool_gym."))
TOOL_IDS = [i for i in IDS if gym.registry[i].entry_point.endswith(":ToolEnv")]
CALL_IDS = [i for i in IDS if gym.registry[i].entry_point.endswith(":FunctionCallEnv")]

#: What the docstrings say (checked against them below).
TOOL_STEP = {"tools", "policy", "task_id", "turn", "validity", "errors", "tool_calls"}
TOOL_FINAL = TOOL_STEP | {"verification", "user_report"}
CALL_RESET = {"tools", "task_id", "category", "source", "messages"}
CALL_FINAL = {"task_id", "category", "source", "turn", "tool_calls", "errors", "verification"}


def documented(cls) -> set[str]:
    """The keys named as ``info["key"]`` in the class docstring's "## Info" section."""
    section = cls.__doc__.split("## Info", 1)[1].split("\n    ## ", 1)[0]
    return set(re.findall(r'info\["(\w+)"\]', section))


def test_the_docstrings_document_exactly_these_keys():
    assert documented(ToolEnv) == TOOL_FINAL
    assert documented(FunctionCallEnv) == CALL_RESET | CALL_FINAL


def test_every_id_is_covered():
    assert set(TOOL_IDS) | set(CALL_IDS) == set(IDS) and TOOL_IDS and CALL_IDS


def _strings(value, out: set) -> set:
    if isinstance(value, dict):
        for item in value.values():
            _strings(item, out)
    elif isinstance(value, (list, tuple)):
        for item in value:
            _strings(item, out)
    elif isinstance(value, (str, int, float)) and not isinstance(value, bool):
        out.add(str(value))
    return out


def hidden_values(task) -> set[str]:
    """The task's hidden ids, values and answers that are specific enough to search for."""
    values = {task.user_id, str(task.identity.value)}
    for c in task.constraints:
        _strings(c.args, values)
        values |= {str(d.value) for d in c.refs.values()}
        if c.answer is not None:
            values.add(str(c.answer))
    # ids and answers with a digit or an id character, long enough not to occur by chance
    return {v for v in values if len(v) >= 5 and re.search(r"[\d@#_]", v)}


def check_tool_info(info: dict, final: bool, public: dict, hidden: set[str], where) -> None:
    keys = set(info)
    assert keys <= (TOOL_FINAL if final else TOOL_STEP), (where, keys - TOOL_STEP)
    assert TOOL_STEP <= keys, where
    # the parts the same for every task are the same for every task
    assert info["tools"] == public["tools"] and info["policy"] == public["policy"], where
    if final:
        return
    text = json.dumps({k: v for k, v in info.items() if k not in ("tools", "policy")})
    leaked = sorted(v for v in hidden if v in text)
    assert not leaked, (where, leaked)


def play(env, policy, task_id, seed, privileged):
    observation, info = env.reset(seed=seed, options={"task_id": task_id})
    if privileged:
        policy.reset_privileged(observation, info, OracleAccess.from_env(env))
    else:
        policy.reset(observation, info)
    infos = [(info, False)]
    for _ in range(200):
        observation, _, terminated, truncated, info = env.step(policy.act(observation, info))
        infos.append((info, terminated or truncated))
        if terminated or truncated:
            break
    return infos


@pytest.mark.parametrize("env_id", TOOL_IDS)
def test_tool_env_info_keys_and_no_hidden_task(env_id):
    env = gym.make(env_id, split="test")
    _, first = env.reset(seed=0, options={"task_id": "test-199"})
    public = {"tools": first["tools"], "policy": first["policy"]}
    for index, (policy, privileged) in enumerate([(OraclePolicy(), True),
                                                  (RandomPolicy(seed=5), False)]):
        task_id = f"test-{index}"
        infos = play(env, policy, task_id, index, privileged)
        hidden = hidden_values(env.unwrapped.task)
        assert hidden, task_id  # something to look for
        assert infos[-1][1] and "verification" in infos[-1][0]
        for step, (info, final) in enumerate(infos):
            check_tool_info(info, final, public, hidden, (env_id, task_id, step))
            if not final:
                json.dumps(info)  # plain JSON data: no object to walk to the env from


@pytest.mark.parametrize("env_id", CALL_IDS)
def test_function_call_env_info_keys_and_no_reference(env_id):
    env = gym.make(env_id, split="test")
    for n in range(3):
        _, info = env.reset(seed=n, options={"task_id": f"test-{n}"})
        assert set(info) <= CALL_RESET and {"tools", "task_id", "category", "source"} <= set(info)
        task = env.unwrapped.task
        text = json.dumps(info)
        reference = [json.dumps(c, sort_keys=True) for c in task.calls]
        assert not any(r in text for r in reference), (env_id, n)
        assert "verification" not in info and "reference" not in text
        _, _, terminated, _, final = env.step("no call")
        assert terminated and set(final) <= CALL_FINAL and "verification" in final
