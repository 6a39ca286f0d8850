"""``python -m tool_gym.export``: a ``--save-trajectories`` run becomes a chat dataset that
``datasets`` loads back exactly and TRL's ``SFTTrainer`` trains on; one chat format for
trajectories, SFT data and synthesis (``tool_gym.chat``)."""

import json
import os

import gymnasium as gym
import pytest

import tool_gym  # noqa: F401  (registers the ids)
from tests.agents.fake_env import ENV_ID as FAKE_ID
from tool_gym.agents.oracle import OraclePolicy
from tool_gym.agents.policy import RandomPolicy
from tool_gym.agents.episode_loop import run_episode
from tool_gym.agents.sft import SFTDataConfig, collect_verified
from tool_gym.chat import METADATA, EpisodeChat
from tool_gym.export import run_command as main
from tool_gym.synth.formats import FunctionTask, to_hf_chat

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRL_EXPERIMENTAL_SILENCE", "1")


def write_run(path, env_id, episodes, env_kwargs=None):
    """An ``evaluate.py --save-trajectories`` output directory of ``(task_id, policy)``
    episodes (trial 0, seed = index), written as evaluate writes it."""
    path.mkdir(parents=True)
    env = gym.make(env_id, **(env_kwargs or {}))
    with open(path / "trajectories.jsonl", "w") as traj, \
            open(path / "episodes.jsonl", "w") as eps:
        for seed, (task_id, policy) in enumerate(episodes):
            record = run_episode(env, policy, seed, task_id, trajectory=True)
            trajectory = dict(record.pop("trajectory"), task_id=task_id, trial=0, seed=seed)
            traj.write(json.dumps(trajectory, sort_keys=True) + "\n")
            eps.write(json.dumps(dict(record, trial=0), sort_keys=True) + "\n")
    env.close()
    (path / "config.json").write_text(json.dumps({"env": env_id, "policy": "mixed"}))
    return path


@pytest.fixture(scope="module")
def fake_run(tmp_path_factory):
    """Two successes (tasks n % 4 == 3 are always solved by the oracle) and two failures."""
    return write_run(tmp_path_factory.mktemp("runs") / "fake", FAKE_ID, [
        ("train-3", OraclePolicy()), ("train-0", OraclePolicy()),
        ("train-7", OraclePolicy()), ("train-1", RandomPolicy(seed=1))])


@pytest.fixture(scope="module")
def retail_records(tmp_path_factory):
    run = write_run(tmp_path_factory.mktemp("runs") / "retail", "ToolRetail-v0",
                    [("train-0", OraclePolicy()), ("train-1", RandomPolicy(seed=0))])
    return [json.loads(line) for line in (run / "trajectories.jsonl").open()]


def assert_chat_format(record):
    """The one format: the columns, tool calls with ids, each tool message answering the
    earlier call of its id, in the calls' order."""
    assert {"messages", "tools", *METADATA} <= set(record)
    assert all(t["type"] == "function" and t["function"]["name"] for t in record["tools"])
    pending, seen = [], 0
    for message in record["messages"]:
        assert message["role"] in ("system", "user", "assistant", "tool")
        assert isinstance(message["content"], str)
        if message["role"] == "tool":
            assert set(message) == {"role", "tool_call_id", "name", "content"}
            call_id, name = pending.pop(0)  # answers the oldest unanswered call
            assert (message["tool_call_id"], message["name"]) == (call_id, name)
            continue
        assert not pending, "a call was left without its result"
        for call in message.get("tool_calls") or ():
            assert message["role"] == "assistant"
            assert set(call) == {"id", "type", "function"} and call["type"] == "function"
            assert call["id"] == f"call_{seen}"  # per-episode counter
            assert set(call["function"]) == {"name", "arguments"}
            assert isinstance(call["function"]["arguments"], dict)
            pending.append((call["id"], call["function"]["name"]))
            seen += 1


def test_trajectories_pair_calls_and_results(retail_records):
    oracle, random = retail_records
    for record in retail_records:
        assert_chat_format(record)
        assert record["env_id"] == "ToolRetail-v0" and record["trial"] == 0
        assert {"calls", "ground_truth", "agent_messages"} <= set(record)  # the sweep's
    calls = [c for m in oracle["messages"] for c in m.get("tool_calls") or ()]
    assert [c["function"]["name"] for c in calls] == [c["name"] for c in oracle["calls"]]
    results = [m["content"] for m in oracle["messages"] if m["role"] == "tool"]
    assert results == [c["content"] for c in oracle["calls"]]
    assert oracle["success"] and not random["success"]
    assert oracle["messages"][0]["role"] == "system" and oracle["messages"][1]["role"] == "user"


def test_parallel_calls_keep_their_order():
    chat = EpisodeChat("hi", {"tools": []})
    chat.add_turn("Hello, your email?", "a@b.c")
    chat.add_turn('<tool_call>{"name": "f", "arguments": {"x": 1}}</tool_call>'
                  '<tool_call>{"name": "g", "arguments": {}}</tool_call>',
                  "one\ntwo", [{"name": "f", "arguments": {"x": 1}, "content": "one"},
                               {"name": "g", "arguments": {}, "content": "two"}])
    chat.add_turn('<tool_call>{"name": "h", "arguments": {"y": [2]}}</tool_call>', "three")
    chat.add_turn('<tool_call>{"name": </tool_call>', "Error: bad")  # unparseable: a user reply
    chat.add_turn("Done.", None)  # the episode ended on it
    record = chat.record(task_id="t")
    assert_chat_format(record)
    tail = [(m["role"], m.get("tool_call_id"), m["content"]) for m in record["messages"][4:]]
    assert tail == [("tool", "call_0", "one"), ("tool", "call_1", "two"),
                    ("assistant", None, ""), ("tool", "call_2", "three"),
                    ("assistant", None, '<tool_call>{"name": </tool_call>'),
                    ("user", None, "Error: bad"), ("assistant", None, "Done.")]
    assert record["seed"] is None and record["task_id"] == "t"


def test_parallel_replies_without_call_log_or_cut_by_the_env():
    both = ('<tool_call>{"name": "f", "arguments": {}}</tool_call>'
            '<tool_call>{"name": "g", "arguments": {}}</tool_call>')
    chat = EpisodeChat("hi", {"tools": []})
    chat.add_turn(both, "one\ntwo")  # no call log: the reply stays whole, on the first call
    results = [{"name": "f", "arguments": {}, "content": "x" * 10},
               {"name": "g", "arguments": {}, "content": "y" * 10}]
    chat.add_turn(both, "x" * 10 + "\nyy ...[truncated]", results)  # the env cut it
    chat.add_turn(both, "xxx ...[truncated]", results)
    tools = [m["content"] for m in chat.record()["messages"] if m["role"] == "tool"]
    assert tools == ["one\ntwo", "", "x" * 10, "yy ...[truncated]",
                     "xxx ...[truncated]", " ...[truncated]"]


def test_three_writers_one_format(retail_records):
    rows = collect_verified(SFTDataConfig(env_id=FAKE_ID, tasks=4, task_offset=3))
    assert rows and all(r["success"] and r["score"] == 1.0 for r in rows)
    task = FunctionTask(id="simple-1", category="simple", question="Where is order #W1?",
                        functions=[{"name": "get_order", "description": "An order.",
                                    "parameters": {"type": "dict", "properties": {
                                        "order_id": {"type": "string"}}}}],
                        answers=[{"get_order": {"order_id": ["#W1"]}}],
                        calls=[{"type": "function", "function": {
                            "name": "get_order", "arguments": '{"order_id": "#W1"}'}}])
    synthesized = to_hf_chat(task)
    for record in [retail_records[0], rows[0], synthesized]:
        assert_chat_format(record)
    assert synthesized["messages"][-1]["tool_calls"][0]["function"]["arguments"] == \
        {"order_id": "#W1"}
    assert rows[0]["env_id"] == FAKE_ID and rows[0]["trial"] == 0


def run_export(capsys, *argv):
    with pytest.raises(SystemExit) as exit_info:
        main(list(map(str, argv)))
    return exit_info.value.code, capsys.readouterr().err


def test_bad_input_is_one_line_exit_2(tmp_path, capsys, fake_run):
    (tmp_path / "plain").mkdir()
    code, err = run_export(capsys, tmp_path / "plain", "--out", tmp_path / "d")
    assert code == 2 and "--save-trajectories" in err and len(err.strip().splitlines()) == 1
    code, err = run_export(capsys, fake_run, "--out", tmp_path / "d", "--max-length", "9")
    assert code == 2 and "--tokenizer" in err
    old = tmp_path / "old"
    old.mkdir()
    (old / "trajectories.jsonl").write_text(json.dumps({"calls": [], "messages": ["hi"]}) + "\n")
    code, err = run_export(capsys, old, "--out", tmp_path / "d")
    assert code == 1 and "older" in err
    assert not (tmp_path / "d").exists()
