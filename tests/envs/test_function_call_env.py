"""FunctionCallEnv: one request, one answer, BFCL's rules; synthesized and BFCL tasks."""

import importlib.util
import json

import gymnasium as gym
import pytest

import tool_gym  # noqa: F401
from tool_gym.core.actions import ToolCall, parse_action
from tool_gym.envs.function_call_env import FunctionCallEnv

HAS_BFCL = importlib.util.find_spec("bfcl_eval") is not None


@pytest.fixture(scope="module")
def env():
    e = gym.make("ToolCall-v0")
    yield e
    e.close()


def kept(env, category, start=0):
    """The id of the first synthesized task of a category from ``start`` on (a few samples
    are discarded by the pipeline; ids are deterministic)."""
    for n in range(start, start + 50):
        try:
            env.unwrapped.make_task(f"{category}-{n}")
        except ValueError:
            continue
        return f"{category}-{n}"
    raise AssertionError(f"no {category} task kept")


def reference(env):
    return [{"name": c["function"]["name"], "arguments": json.loads(c["function"]["arguments"])}
            for c in env.unwrapped.task.calls]


def test_reset_gives_the_request_and_candidates_only(env):
    obs, info = env.reset(seed=4)
    task = env.unwrapped.task
    assert obs == task.question and env.observation_space.contains(obs)
    assert {t["function"]["name"] for t in info["tools"]} == {f["name"] for f in task.functions}
    assert info["task_id"] == task.id and info["category"] == task.category
    text = json.dumps(info)
    assert "answers" not in text and "verification" not in info
    assert env.reset(seed=4)[0] == obs
    seen = {env.reset(seed=s)[1]["category"] for s in range(40)}
    assert seen == {"simple", "multiple", "parallel", "parallel_multiple", "irrelevance"}


def test_correct_calls_in_every_format_earn_one(env):
    task_id = kept(env, "parallel_multiple")
    env.reset(options={"task_id": task_id})
    calls = reference(env)
    forms = [json.dumps(calls),
             "".join(f"<tool_call>{json.dumps(c)}</tool_call>" for c in calls),
             json.dumps(calls[::-1]),
             {"role": "assistant", "content": None,
              "tool_calls": [ToolCall(c["name"], c["arguments"]).to_openai() for c in calls]},
             [ToolCall(c["name"], c["arguments"]) for c in calls]]
    for action in forms:
        env.reset(options={"task_id": task_id})
        obs, reward, terminated, truncated, info = env.step(action)
        assert reward == 1.0 and terminated and obs == "Correct.", (action, info)
        v = info["verification"]
        assert v["correct"] and set(v["components"].values()) == {1.0}
        assert v["outputs"] and all(not o.startswith("Error") for o in v["outputs"])


def test_wrong_answers_earn_zero(env):
    task_id = kept(env, "parallel")
    env.reset(options={"task_id": task_id})
    calls = reference(env)
    for action in (json.dumps(calls[:1]), json.dumps(calls + calls[:1]), "I cannot help.",
                   "<tool_call>{broken", ""):
        env.reset(options={"task_id": task_id})
        obs, reward, terminated, _, info = env.step(action)
        assert reward == 0.0 and terminated and obs.startswith("Incorrect")
        assert not info["verification"]["correct"] and info["verification"]["errors"]
    with pytest.raises(gym.error.ResetNeeded):
        env.step("again")


def test_python_syntax_and_changed_values(env):
    task_id = next(kept(env, "simple", n) for n in range(50)
                   if json.loads(env.unwrapped.make_task(kept(env, "simple", n))
                                 .calls[0]["function"]["arguments"]))
    env.reset(options={"task_id": task_id})
    (call,) = reference(env)
    body = ", ".join(f"{k}={json.dumps(v)}" for k, v in call["arguments"].items())
    assert env.step(f"[{call['name']}({body})]")[1] == 1.0
    env.reset(options={"task_id": task_id})
    key = next(iter(call["arguments"]))
    changed = {**call["arguments"], key: "something else"}
    _, reward, _, _, info = env.step(json.dumps([{"name": call["name"], "arguments": changed}]))
    assert reward == 0.0 and 0 < info["verification"]["components"]["arguments"] < 1


def test_irrelevance_is_right_without_a_call(env):
    task_id = kept(env, "irrelevance")
    env.reset(options={"task_id": task_id})
    assert env.unwrapped.task.answers == []
    assert env.step("None of these functions can do that.")[1] == 1.0
    env.reset(options={"task_id": task_id})
    name = env.unwrapped.task.functions[0]["name"]
    assert env.step(json.dumps({"name": name, "arguments": {}}))[1] == 0.0


def test_graded_prove_reward():
    e = FunctionCallEnv(category="parallel", reward="prove")
    task_id = kept(e, "parallel")
    e.reset(options={"task_id": task_id})
    calls = reference(e)
    assert e.step(json.dumps(calls))[1] == 1.5  # success + 0.5 x normalized PROVE (1.0)
    e.reset(options={"task_id": task_id})
    _, reward, _, _, info = e.step(json.dumps(calls[:1]))
    assert 0.0 < reward < 0.5  # a wrong answer: 0.5 x its graded quality only
    assert info["verification"]["components"]["coverage"] == 1 / len(calls)
    with pytest.raises(ValueError):
        FunctionCallEnv(reward="sometimes")


def test_validity_comes_from_running_the_calls():
    e = FunctionCallEnv(category="simple", reward="prove")
    for n in range(40):
        task = e.make_task(kept(e, "simple", n))
        (call,) = reference_of(task)
        strings = [k for k, v in call["arguments"].items() if isinstance(v, str)]
        if not strings or not task.executable:
            continue
        broken = {**call["arguments"], strings[0]: "no-such-id-000"}
        with tool_gym.sandbox(task.executable[call["name"]]) as box:
            if box.call(call["name"], broken).ok:
                continue
        e.reset(options={"task_id": task.id})
        _, reward, _, _, info = e.step(json.dumps({"name": call["name"], "arguments": broken}))
        assert info["verification"]["components"]["validity"] == pytest.approx(2 / 3)
        assert info["verification"]["outputs"][0].startswith("Error")
        assert reward < 1.0
        return
    raise AssertionError("no executable task found")


def reference_of(task):
    return [{"name": c["function"]["name"], "arguments": json.loads(c["function"]["arguments"])}
            for c in task.calls]


def test_task_ids_and_categories():
    e = FunctionCallEnv(category="multiple")
    obs, info = e.reset(seed=0)
    assert info["category"] == "multiple" and len(info["tools"]) >= 2
    with pytest.raises(ValueError):
        e.reset(options={"task_id": "simple-1"})
    with pytest.raises(ValueError):
        e.reset(options={"task_id": "bogus"})
    with pytest.raises(ValueError):
        FunctionCallEnv(category="nested")
    bounded = FunctionCallEnv(category="simple", n_tasks=5)
    ids = {bounded.reset(seed=s)[1]["task_id"] for s in range(30)}
    assert all(int(i.split("-")[1]) < 5 for i in ids) and 1 < len(ids) <= 5


def test_action_space_samples_realistic_answers(env):
    env.reset(seed=1)
    names = {t["function"]["name"] for t in env.unwrapped._tools(env.unwrapped.task)}
    env.action_space.seed(0)
    samples = [env.action_space.sample() for _ in range(200)]
    assert all(env.action_space.contains(s) for s in samples)
    parsed = [parse_action(s) for s in samples]
    calls = [p for p in parsed if p.is_call]
    assert len(calls) > 120 and any(len(p.calls) > 1 for p in calls)
    assert all(c.name in names for p in calls for c in p.calls)
    assert any(p.is_message for p in parsed) and any(p.is_error for p in parsed)


def test_one_step_episodes_in_vector_envs():
    envs = gym.make_vec("ToolCall-Simple-v0", num_envs=2, vectorization_mode="sync")
    obs, info = envs.reset(seed=1)
    answers = [json.dumps(reference(e)) for e in envs.envs]
    obs, reward, terminated, truncated, info = envs.step([answers[0], "no idea"])
    assert list(reward) == [1.0, 0.0] and all(terminated)
    assert info["_verification"].all()
    obs, reward, terminated, truncated, info = envs.step(["x", "y"])  # next-step autoreset
    assert list(reward) == [0.0, 0.0] and not any(terminated)
    assert list(obs) == [e.unwrapped.task.question for e in envs.envs]
    envs.close()


def test_render_and_jsonl_source(tmp_path):
    from tool_gym.synth.formats import write_jsonl
    from tool_gym.synth.staged import StagedSynthesizer

    tasks = StagedSynthesizer(categories=("simple", "parallel")).run(6).tasks
    write_jsonl(tmp_path / "samples.jsonl", (t.to_dict() for t in tasks))
    e = FunctionCallEnv(source=str(tmp_path), render_mode="ansi")
    obs, info = e.reset(options={"task_id": tasks[1].id})
    assert obs == tasks[1].question
    e.step(json.dumps(reference(e)))
    text = e.render()
    assert "[user]" in text and "[verdict] correct" in text
    assert FunctionCallEnv(source=tasks, category="parallel").reset(seed=0)[1]["category"] == \
        "parallel"


@pytest.mark.skipif(not HAS_BFCL, reason="bfcl-eval is not installed (optional extra)")
@pytest.mark.parametrize("category,task_id", [("simple_python", "simple_python_12"),
                                              ("multiple", "multiple_7"),
                                              ("parallel", "parallel_3"),
                                              ("parallel_multiple", "parallel_multiple_5")])
def test_bfcl_source(category, task_id):
    e = gym.make("ToolCall-v0", source=f"bfcl:{category}")
    obs, info = e.reset(options={"task_id": task_id})
    task = e.unwrapped.task
    assert task.id == task_id and obs == task.question and info["tools"]
    assert e.step(json.dumps(reference(e)))[1] == 1.0
    e.reset(options={"task_id": task_id})
    calls = reference(e)
    calls[0]["arguments"]["not_a_parameter"] = 1
    assert e.step(json.dumps(calls))[1] == 0.0
    e.close()


@pytest.mark.skipif(not HAS_BFCL, reason="bfcl-eval is not installed (optional extra)")
def test_bfcl_source_filters_and_dots():
    e = FunctionCallEnv(category="parallel", source="bfcl:all")
    assert {t.category for t in e.tasks} == {"parallel"}
    e = FunctionCallEnv(source="bfcl:simple_python", underscore_names=True)
    _, info = e.reset(options={"task_id": "simple_python_1"})  # math.factorial
    assert info["tools"][0]["function"]["name"] == "math_factorial"
    assert e.step('[{"name": "math_factorial", "arguments": {"number": 5}}]')[1] == 1.0
    with pytest.raises(ValueError):
        FunctionCallEnv(category="simple", source="bfcl:parallel")


def test_splits_and_the_oracle_of_evaluate():
    from tool_gym.agents.oracle import OraclePolicy
    from tool_gym.agents.episode_loop import run_episode

    env = gym.make("ToolCall-v0", split="test")
    ids = {env.reset(seed=s)[1]["task_id"] for s in range(10)}
    assert all(i.startswith("test-") and int(i[5:]) < 200 for i in ids)
    with pytest.raises(ValueError):
        env.reset(options={"task_id": "test-200"})
    train = env.unwrapped.make_task("train-3")
    assert train.id == "train-3" and train.question != env.unwrapped.make_task("test-3").question
    for n in range(5):
        record = run_episode(env, OraclePolicy(), seed=n, task_id=f"test-{n}", trajectory=True)
        assert record["success"] and record["score"] == 1.0 and record["ended"] == "answered"
        truth = record["trajectory"]["ground_truth"]
        assert [g["name"] for g in truth] == [c["name"] for c in record["trajectory"]["calls"]]
    env.close()
