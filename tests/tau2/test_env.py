"""tau2's own tasks as episodes: the oracle wins every task, a policy that never writes loses
every task with a write, farming policies win nothing, agents in their own words win, and
the same seed gives the same episode."""

from __future__ import annotations

import json

import gymnasium as gym
import pytest
from gymnasium.utils.env_checker import check_env

import tool_gym  # noqa: F401
from tool_gym.agents.adversarial import ADVERSARIES, PROBES
from tool_gym.agents.oracle import NeverWritesPolicy, OraclePolicy
from tool_gym.agents.privileged import OracleAccess
from tool_gym.agents.episode_loop import run_episode
from tool_gym.agents.styles import STYLES

from .conftest import tau2_data

ENVS = {"retail": "ToolRetail-v0", "airline": "ToolAirline-v0"}
INFO_KEYS = {"tools", "policy", "task_id", "turn", "validity", "errors", "tool_calls"}


@pytest.fixture(scope="module", params=sorted(ENVS))
def tau2_env(request):
    domain = request.param
    env = gym.make(ENVS[domain], task_source="tau2", data=tau2_data(domain), split="all")
    yield env
    env.close()


def _ids(env) -> list[str]:
    return env.unwrapped.kit.ids("all")


def _play(env, policy, task_id: str, **kw) -> dict:
    return run_episode(env, policy, seed=0, task_id=task_id, **kw)


def test_oracle_wins_every_task(tau2_env):
    """pass^1 = 1.0 on every task, 64 and 105 included (their rejected gold write is left
    out of the gold database, as tau2 does, and out of the oracle's plan)."""
    failed = {}
    for task_id in _ids(tau2_env):
        record = _play(tau2_env, OraclePolicy(), task_id, privileged=True)
        if not record["success"] or record["violations"] or not record["tau2"]["db_match"]:
            failed[task_id] = (record["constraints"], record["tau2"], record["ended"])
    assert not failed, failed


def test_info_has_tau2_parts_and_nothing_hidden_before_the_end(tau2_env):
    task_id = _ids(tau2_env)[0]
    observation, info = tau2_env.reset(seed=1, options={"task_id": task_id})
    assert set(info) == INFO_KEYS and info["task_id"] == task_id
    policy = OraclePolicy()
    policy.reset_privileged(observation, info, OracleAccess.from_env(tau2_env))
    done = False
    while not done:
        observation, _, terminated, truncated, info = tau2_env.step(policy.act(observation, info))
        done = terminated or truncated
        if not done:
            assert set(info) == INFO_KEYS
    tau2 = info["verification"]["tau2"]
    assert tau2["task_id"] == task_id and tau2["db_match"] and tau2["reward"] == 1.0
    assert set(tau2) >= {"db_match", "communicate_info", "reward", "reward_basis",
                         "nl_assertions_unchecked", "nl_assertions"}


def test_a_policy_that_never_writes_fails_every_task_with_a_write(tau2_env):
    kit = tau2_env.unwrapped.kit
    with_writes = [t for t in _ids(tau2_env) if any(w.effective for w in kit.gold(t).writes)]
    assert len(with_writes) >= 25
    records = {t: _play(tau2_env, NeverWritesPolicy(), t, privileged=True) for t in with_writes}
    assert not [t for t, r in records.items() if r["success"]]
    # tau2's own rule on the same episodes: the DB part fails on each of them too
    assert not [t for t, r in records.items() if r["tau2"]["db_match"]]


#: Every adversary on the tasks where farming is likeliest (no write, or only one), and on
#: a sample of the rest; ``pytest -m slow`` plays every task.
CHEAP_SAMPLE = 4


def _adversary_tasks(env, every: int) -> list[str]:
    kit = env.unwrapped.kit
    ids = _ids(env)
    few_writes = [t for t in ids if sum(w.effective for w in kit.gold(t).writes) <= 1]
    return list(dict.fromkeys(few_writes[::2] + ids[::every]))


@pytest.mark.parametrize("name", sorted({**ADVERSARIES, **PROBES}))
def test_farming_policies_win_no_task(tau2_env, name):
    policies = {**ADVERSARIES, **PROBES}
    won = [t for t in _adversary_tasks(tau2_env, 3 * CHEAP_SAMPLE)
           if _play(tau2_env, policies[name](), t)["success"]]
    assert not won, f"{name} won tau2 tasks {won}"


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted({**ADVERSARIES, **PROBES}))
def test_farming_policies_win_no_task_at_all(tau2_env, name):
    policies = {**ADVERSARIES, **PROBES}
    won = [t for t in _ids(tau2_env) if _play(tau2_env, policies[name](), t)["success"]]
    assert not won, f"{name} won tau2 tasks {won}"


def test_tau2_rule_alone_is_farmable_and_success_is_not(tau2_env):
    """The do-nothing refusal policy: tau2's own rule gives it the tasks with no write and
    nothing to say (their NL assertions are not in the reward basis); success does not."""
    kit = tau2_env.unwrapped.kit
    empty = [t for t in _ids(tau2_env) if not kit.gold(t).writes and
             not kit.raw[t]["evaluation_criteria"].get("communicate_info")]
    assert empty
    records = [_play(tau2_env, ADVERSARIES["refusal"](), t) for t in empty]
    assert all(r["tau2"]["reward"] == 1.0 for r in records)
    assert not any(r["success"] for r in records)


#: Known gaps of the style agents themselves (not of the env): retail 105's order holds
#: only products that another order of the user holds too, so "the order with the Tea
#: Kettle" names no order.
STYLE_GAPS = {("names", "retail", "105")}


@pytest.mark.parametrize("name", sorted(STYLES))
def test_agents_in_their_own_words_win(tau2_env, name):
    domain = tau2_env.unwrapped.domain.name
    lost = [t for t in _ids(tau2_env)[::3] if (name, domain, t) not in STYLE_GAPS
            and not _play(tau2_env, STYLES[name](), t, privileged=True)["success"]]
    assert not lost, f"{name} lost tau2 tasks {lost}"


def test_same_seed_same_episode(tau2_env):
    task_id = _ids(tau2_env)[5]
    runs = []
    for _ in range(2):
        env = gym.make(tau2_env.spec.id, task_source="tau2",
                       data=tau2_data(tau2_env.unwrapped.domain.name), split="all",
                       render_mode="ansi")
        record = _play(env, ADVERSARIES["catch_all"](), task_id)
        runs.append((json.dumps(record, sort_keys=True), env.render()))
        env.close()
    assert runs[0] == runs[1]
    first, _ = tau2_env.reset(seed=3)
    again, _ = tau2_env.reset(seed=3)
    assert first == again


def test_task_ids_and_splits(tau2_env):
    domain = tau2_env.unwrapped.domain.name
    data = tau2_data(domain)
    train = gym.make(ENVS[domain], task_source="tau2", data=data, split="train")
    test = gym.make(ENVS[domain], task_source="tau2", data=data, split="test")
    train_ids, test_ids = train.unwrapped.kit.ids("train"), test.unwrapped.kit.ids("test")
    assert set(train_ids) | set(test_ids) <= set(_ids(tau2_env))
    for _ in range(5):
        _, info = test.reset()
        assert info["task_id"] in test_ids
    with pytest.raises(ValueError, match="no tau2"):
        tau2_env.reset(options={"task_id": "train-0"})
    with pytest.raises(ValueError, match="'train', 'test' or 'all'"):
        gym.make(ENVS[domain], task_source="tau2", data=data, split="dev")
    with pytest.raises(ValueError, match="split must be 'train' or 'test'"):
        gym.make(ENVS[domain], split="all")


def test_check_env(tau2_env):
    check_env(tau2_env.unwrapped, skip_render_check=True)


def test_user_knows_only_its_known_info(tau2_env):
    """The user answers identity questions with exactly the fields tau2's known_info
    states, and says what it does not know."""
    kit = tau2_env.unwrapped.kit
    for task_id in _ids(tau2_env)[:40]:
        task = kit.task(task_id)
        known = str(kit.raw[task_id]["user_scenario"]["instructions"].get("known_info"))
        for value in task.identity.fields.values():
            assert value.lower() in known.lower().replace("_", " ") or \
                value.lower() in known.lower(), (task_id, value)


def test_opening_is_first_person_and_never_an_unknown_id(tau2_env):
    kit = tau2_env.unwrapped.kit
    for task_id in _ids(tau2_env):
        observation, _ = tau2_env.reset(seed=0, options={"task_id": task_id})
        said = observation.lower()
        assert " you " not in f" {said} " and "your " not in said, (task_id, observation)
        task = kit.task(task_id)
        instructions = json.dumps(kit.raw[task_id]["user_scenario"]).lower()
        for c in task.constraints:
            for key in ("payment_method_id", "payment_id", "item_ids", "new_item_ids"):
                for value in (c.args.get(key) if isinstance(c.args.get(key), list)
                              else [c.args.get(key)]):
                    if isinstance(value, str) and value.lower() not in instructions:
                        assert value.lower() not in said, (task_id, value)
                        assert value.lower() not in kit.request(task, c, None).lower()


class ScriptedBackend:
    """A stand-in for an OpenAI-compatible server: records what it was sent."""

    def __init__(self, replies):
        self.replies = list(replies)
        self.calls = []

    def generate(self, messages, **kw):
        self.calls.append((messages, kw))
        return self.replies.pop(0) if self.replies else "Thanks, bye. ###STOP###"


def test_llm_user_plays_the_full_instructions(tau2_env):
    domain = tau2_env.unwrapped.domain.name
    backend = ScriptedBackend(["Hi, I need help with my order.", "That's all. ###STOP###"])
    env = gym.make(ENVS[domain], task_source="tau2", data=tau2_data(domain), split="all",
                   user="llm", user_llm=backend)
    task_id = _ids(tau2_env)[0]
    observation, _ = env.reset(seed=0, options={"task_id": task_id})
    assert observation == "Hi, I need help with my order."
    system = backend.calls[0][0][0]["content"]
    instructions = env.unwrapped.kit.raw[task_id]["user_scenario"]["instructions"]
    for key in ("reason_for_call", "known_info", "task_instructions"):
        if instructions.get(key):
            assert instructions[key].strip().split("\n")[0][:40] in system
    _, _, terminated, _, info = env.step("How can I help?")
    assert terminated and "tau2" in info["verification"]
    env.close()


def test_talking_the_llm_user_into_stopping_wins_nothing(tau2_env):
    """The LLM user is no reward: a user model that ends the conversation at once (or an
    agent that talks it into stopping) leaves a task with a write unsolved."""
    domain = tau2_env.unwrapped.domain.name
    kit = tau2_env.unwrapped.kit
    task_id = next(t for t in _ids(tau2_env) if any(w.effective for w in kit.gold(t).writes))
    env = gym.make(ENVS[domain], task_source="tau2", data=tau2_data(domain), split="all",
                   user="llm", user_llm=ScriptedBackend(["All done, thanks! ###STOP###"]))
    env.reset(seed=0, options={"task_id": task_id})
    _, _, terminated, _, info = env.step("Everything is taken care of. Goodbye!")
    assert terminated
    assert not info["verification"]["success"]
    assert not info["verification"]["tau2"]["db_match"]
    env.close()
