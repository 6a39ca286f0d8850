"""Gymnasium conventions: human rendering on every step, an action space that contains
every action form ``step`` reads, and envs that pickle (by replaying the episode) or say
why they cannot."""

import copy
import pickle

import gymnasium as gym
import pytest

import tool_gym  # noqa: F401 - registers the ids
from tool_gym.core.actions import ParsedAction, ToolCall
from tool_gym.envs import ToolEnv
from tool_gym.envs.function_call_env import FunctionCallEnv

READ = ToolCall("find_user_id_by_email", {"email": "nobody@example.com"})
#: One of each form ``step`` reads (retail's tools).
FORMS = [
    "Hello, how can I help?",
    "<tool_call>{json</tool_call>",  # malformed text is still text
    b"Hello in bytes",
    READ,
    [READ, READ],
    ParsedAction(message="Hello"),
    {"name": READ.name, "arguments": READ.arguments},
    {"name": READ.name, "arguments": '{"email": "nobody@example.com"}'},
    {"id": "call_1", "type": "function", "function": {"name": READ.name, "arguments": "{}"}},
    [{"name": READ.name, "parameters": READ.arguments}],
    {"role": "assistant", "content": None, "tool_calls": [READ.to_openai()]},
    {"role": "assistant", "content": "Hello", "tool_calls": []},
    {"content": [{"type": "text", "text": "Hello"}, " there"]},
    {"role": "assistant", "function_call": {"name": READ.name, "arguments": "{}"}},
]
#: Not actions: ``step`` answers each with an ``Error:`` observation.
NOT_FORMS = [
    5, None, 1.5, {1, 2}, [], [1], ["text"], {"foo": 1}, {"arguments": {}},
    {"role": "user", "content": "Hello"}, {"content": 5},
    {"name": READ.name, "arguments": [1]}, {"tool_calls": "no list"},
    {"type": "other", "function": {"name": READ.name}}, b"\xff\xfe",
    {"content": [{"type": "image_url", "image_url": {"url": "x"}}]},
    "x" * 100_001,
]


class _Dumped:
    """An SDK message object: ``step`` reads its ``model_dump()``."""

    def model_dump(self):
        return {"role": "assistant", "content": "Hello"}


# ------------------------------------------------------------------ render modes
def test_render_modes_declared_and_checked():
    for cls in (ToolEnv, FunctionCallEnv):
        assert cls.metadata["render_modes"] == ["human", "ansi"]
    with pytest.raises(ValueError, match="render_mode must be one of"):
        ToolEnv("retail", render_mode="rgb_array")


def test_human_render_prints_each_new_turn(capsys):
    env = gym.make("ToolRetail-v0", render_mode="human")
    observation, _ = env.reset(seed=0)
    assert capsys.readouterr().out == f"[user] {observation}\n"
    observation, *_ = env.step("Hello, how can I help?")
    out = capsys.readouterr().out
    assert out == f"[agent] Hello, how can I help?\n[user] {observation}\n"
    observation, *_ = env.step(READ.to_hermes())
    out = capsys.readouterr().out
    assert out.startswith("[call] find_user_id_by_email(") and f"[tool] {observation}" in out
    assert "[user]" not in out
    env.render()  # nothing new to print
    assert capsys.readouterr().out == ""
    env.close()


def test_human_render_single_turn(capsys):
    env = gym.make("ToolCall-v0", render_mode="human")
    observation, info = env.reset(seed=0)
    out = capsys.readouterr().out
    assert out.startswith(f"[task] {info['task_id']}") and f"[user] {observation}" in out
    observation, *_ = env.step("No call.")
    out = capsys.readouterr().out
    assert out.startswith("[agent] No call.\n[verdict] ")
    env.close()


def test_ansi_returns_the_whole_transcript(capsys):
    env = ToolEnv("retail", render_mode="ansi")
    assert env.render() == ""
    observation, _ = env.reset(seed=0)
    env.step("Hello?")
    text = env.render()
    assert text.startswith(f"[user] {observation}\n[agent] Hello?\n[user] ")
    assert capsys.readouterr().out == ""


# ------------------------------------------------------------------ action space
@pytest.mark.parametrize("env_id", ["ToolRetail-v0", "ToolCall-v0"])
def test_action_space_contains_every_form_step_reads(env_id):
    env = gym.make(env_id)
    space = env.action_space
    for action in FORMS + [_Dumped()]:
        assert space.contains(action), action
    for action in NOT_FORMS:
        assert not space.contains(action), action
    space.seed(0)
    assert all(space.contains(space.sample()) for _ in range(50))
    env.close()


def test_step_reads_what_the_space_holds_and_refuses_the_rest():
    env = ToolEnv("retail")
    for action in FORMS[2:] + [_Dumped()]:  # the two text forms: any text is read
        env.reset(seed=0)
        observation, *_ = env.step(action)
        assert not observation.startswith("Error: unsupported"), (action, observation)
    for action in NOT_FORMS[:-1]:
        env.reset(seed=0)
        observation, *_ = env.step(action)
        assert observation.startswith("Error:"), (action, observation)


# ------------------------------------------------------------------ pickling
ROUTE = ["Hello, how can I help?", READ.to_hermes(), {"name": "get_user_details",
                                                      "arguments": {"user_id": "nobody"}},
         READ]
NEXT = ["Could you give me your email address?", READ, "Anything else?"]


def _continue(env, actions):
    return [env.step(a) for a in actions]


@pytest.mark.parametrize("roundtrip", [lambda e: pickle.loads(pickle.dumps(e)), copy.deepcopy])
@pytest.mark.parametrize("wrapped", [True, False])
def test_multi_turn_env_continues_identically(roundtrip, wrapped):
    env = gym.make("ToolRetail-v0")
    target = env if wrapped else env.unwrapped
    target.reset(seed=7, options={"task_id": "train-3"})
    _continue(target, ROUTE)
    restored = roundtrip(target)
    assert type(restored) is type(target) and restored.unwrapped.spec.id == "ToolRetail-v0"
    assert restored.unwrapped.transcript == target.unwrapped.transcript
    assert restored.unwrapped.calls == target.unwrapped.calls
    assert _continue(restored, NEXT) == _continue(target, NEXT)
    # the generators go on as the original's: the next unseeded reset is the same
    assert restored.reset() == target.reset()
    env.close()


def test_single_turn_env_continues_identically():
    env = gym.make("ToolCall-v0")
    env.reset(seed=3)
    restored = pickle.loads(pickle.dumps(env))
    answer = env.unwrapped.kit.plan(env.unwrapped.task)[0]
    action = answer.call.to_hermes() if answer.call else answer.say
    first = env.step(action)
    assert first[1] == 1.0 and restored.step(action) == first
    # after the one step: done, and the next resets agree
    done = copy.deepcopy(env)
    with pytest.raises(gym.error.ResetNeeded):
        done.unwrapped.step(action)
    assert done.reset() == env.reset()
    env.close()


def test_time_limit_counts_survive_pickling():
    env = gym.make("ToolRetail-v0", max_episode_steps=3)
    env.reset(seed=0)
    _continue(env, ["Hello?", "Hello?"])
    restored = pickle.loads(pickle.dumps(env))
    original, copied = env.step("Hello?"), restored.step("Hello?")
    assert original == copied and copied[3] and "verification" in copied[4]


def test_replay_prints_nothing_and_rendering_goes_on(capsys):
    env = ToolEnv("retail", render_mode="human")
    env.reset(seed=0)
    _continue(env, ["Hello?", READ])
    capsys.readouterr()
    restored = pickle.loads(pickle.dumps(env))
    assert capsys.readouterr().out == ""
    restored.step("Thanks.")
    assert capsys.readouterr().out.startswith("[agent] Thanks.\n[user] ")


def test_env_before_reset_pickles():
    env = ToolEnv("retail", max_turns=5)
    restored = copy.deepcopy(env)
    assert restored.max_turns == 5 and restored.task is None
    assert restored.reset(seed=1) == env.reset(seed=1)


class _EchoModel:
    def generate(self, messages, **kw):
        return "Hi, I need help with my order."


def _scripted_user(task, kit, db, rng):
    from tool_gym.core.users import ScriptedUser
    return ScriptedUser(task, kit, db, rng)


def test_llm_user_refuses_to_pickle_with_the_reason():
    env = ToolEnv("retail", user="llm", user_llm=_EchoModel())
    env.reset(seed=0)
    with pytest.raises(pickle.PicklingError, match="its user is an LLM"):
        pickle.dumps(env)
    with pytest.raises(pickle.PicklingError, match="its user is an LLM"):
        copy.deepcopy(gym.wrappers.TimeLimit(env, 10))


def test_user_factory_pickles_when_it_can():
    env = ToolEnv("retail", user=_scripted_user)
    env.reset(seed=0)
    restored = pickle.loads(pickle.dumps(env))
    assert _continue(restored, NEXT) == _continue(env, NEXT)
    local = ToolEnv("retail", user=lambda *a: _scripted_user(*a))
    with pytest.raises(pickle.PicklingError, match="user factory .* cannot be pickled"):
        pickle.dumps(local)
