"""tool_gym.integrations.trl: TRL's environment_factory for every id, the schemas TRL shows
the model, the reward it reads, and two GRPO steps on the tiny model."""

import inspect
import itertools

import gymnasium as gym
import pytest

import tool_gym
from tool_gym.integrations.trl import (
    ANSWER_TOOL,
    EPISODE_OVER,
    MESSAGE_TOOL,
    environment_factory,
    task_dataset,
)

pytest.importorskip("datasets")
get_json_schema = pytest.importorskip("transformers.utils").get_json_schema

SINGLE_TURN = [i for i in tool_gym.ENV_IDS if i not in tool_gym.CONVERSATION_IDS]


def public_functions(obj) -> set:
    """What TRL sees: the public functions of the class (``inspect.getmembers``)."""
    return {n for n, _ in inspect.getmembers(type(obj), predicate=inspect.isfunction)
            if not n.startswith("_")}


def env_tool_names(env_id: str) -> list:
    env = gym.make(env_id)
    try:
        _, info = env.reset(seed=0, options={"task_id": "train-0"})
        return sorted(t["function"]["name"] for t in info["tools"])
    finally:
        env.close()


@pytest.mark.parametrize("env_id", tool_gym.ENV_IDS)
def test_every_id_gives_the_env_tools_resets_on_a_row_and_calls_one(env_id):
    environment = environment_factory(env_id)()
    row = task_dataset(env_id, n=1)[0]
    opening = environment.reset(**row)  # the whole row, prompt included, as TRL passes it
    assert isinstance(opening, str) and opening
    assert environment.info["task_id"] == "train-0"
    if env_id in tool_gym.CONVERSATION_IDS:
        tools = sorted(env_tool_names(env_id) + [MESSAGE_TOOL])
        result = environment.transfer_to_human_agents(summary="the user needs a human")
    else:  # the task's candidates come with the request; the one tool records calls
        tools = [ANSWER_TOOL]
        for name in env_tool_names(env_id):
            assert f'"name": "{name}"' in opening
        result = environment.call_function(name="no_such_function", arguments={})
    assert public_functions(environment) == set(tools) | {"reset", "get_reward"}
    assert isinstance(result, str) and result
    assert isinstance(environment.get_reward(), float)


@pytest.mark.parametrize("env_id", tool_gym.CONVERSATION_IDS)
def test_schemas_trl_renders_are_the_env_schemas(env_id):
    """transformers' get_json_schema of each method (what TRL puts in the prompt) has the
    env's name, description, parameter types, enums, items, descriptions and required list;
    only the JSON schema ``default`` is left out (it is the Python default instead)."""
    environment = environment_factory(env_id)()
    base = environment.env.unwrapped
    for schema in base.domain.toolbox.schemas:
        expected = schema["function"]
        got = get_json_schema(getattr(environment, expected["name"]))["function"]
        assert got["name"] == expected["name"] and got["description"] == expected["description"]
        want = {p: {k: v for k, v in s.items() if k != "default"}
                for p, s in expected["parameters"]["properties"].items()}
        assert got["parameters"]["properties"] == want, expected["name"]
        assert sorted(got["parameters"].get("required", [])) == \
            sorted(expected["parameters"].get("required", []))
    message = get_json_schema(getattr(environment, MESSAGE_TOOL))["function"]
    assert message["parameters"]["required"] == ["message"]


def play(env_id, actions, task_id="train-0", seed=0):
    """The same actions on a plain gym env: (rewards, last info)."""
    env = gym.make(env_id)
    env.reset(seed=seed, options={"task_id": task_id})
    rewards, info = [], {}
    for action in actions:
        _, reward, terminated, truncated, info = env.step(action)
        rewards.append(reward)
        if terminated or truncated:
            break
    env.close()
    return rewards, info


def test_repeating_a_read_tool_earns_what_the_env_gives_and_no_success():
    from tool_gym.core.actions import ToolCall

    environment = environment_factory("ToolRetail-v0")()
    environment.reset(task_id="train-0", seed=0)
    for _ in range(30):
        environment.list_all_product_types()
    rewards, _ = play("ToolRetail-v0", [ToolCall("list_all_product_types", {})] * 30)
    assert environment.get_reward() == pytest.approx(sum(rewards))
    assert 0 < environment.get_reward() <= 0.2  # one credit: shaping pays once, capped
    assert "verification" not in environment.info  # unfinished: never verified, no success


def test_messaging_done_until_the_user_stops_earns_the_env_failure_reward():
    from tool_gym.core.actions import ParsedAction

    environment = environment_factory("ToolRetail-v0")()
    environment.reset(task_id="train-0", seed=0)
    replies = []
    for _ in range(80):
        replies.append(environment.send_message_to_user(message="done"))
        if replies[-1].startswith(EPISODE_OVER.split("(")[0]):
            break
    rewards, info = play("ToolRetail-v0", [ParsedAction(message="done")] * 80)
    verification = environment.info["verification"]
    assert verification["success"] is False and info["verification"]["success"] is False
    assert environment.get_reward() == pytest.approx(sum(rewards))
    assert environment.get_reward() < 0.8  # every success returns at least 0.8
    assert "Error" not in " ".join(replies)
    over = EPISODE_OVER.format(reason=verification["ended"])
    assert replies[-1] == over  # after the end every tool says so and nothing changes
    assert environment.get_order_details(order_id="#W0000000") == over
    assert environment.get_reward() == pytest.approx(sum(rewards))


def test_a_message_is_never_parsed_as_a_call():
    environment = environment_factory("ToolRetail-v0")()
    environment.reset(task_id="train-1", seed=1)
    environment.send_message_to_user(message="list_all_product_types()")
    assert environment.env.unwrapped.tool_calls == 0
    assert environment.send_message_to_user(message=7).startswith("Error: message must be")


def test_single_turn_grades_the_recorded_calls_as_one_answer():
    from tool_gym.envs.function_call_env import AnswerKit

    def reference(environment):
        return AnswerKit.plan(environment.env.unwrapped.task)[0].call.calls

    right = environment_factory("ToolCall-Simple-v0")()
    right.reset(task_id="train-2", seed=0)
    for call in reference(right):
        assert right.call_function(name=call.name, arguments=call.arguments).startswith(
            "Recorded call")
    assert right.get_reward() == 1.0 and right.get_reward() == 1.0  # graded once
    assert right.call_function(name="x", arguments={}) == EPISODE_OVER.format(reason="answered")
    twice = environment_factory("ToolCall-Simple-v0")()
    twice.reset(task_id="train-2", seed=0)
    for call in reference(twice) * 2:  # the right call repeated: a wrong answer
        twice.call_function(name=call.name, arguments=call.arguments)
    assert twice.get_reward() == 0.0
    silent = environment_factory("ToolCall-Simple-v0")()
    silent.reset(task_id="train-2", seed=0)
    assert silent.get_reward() == 0.0  # no call: the "no call" answer, wrong here


def test_rows_name_episodes_deterministically_and_bad_rows_fail_clearly():
    factory = environment_factory("ToolRetail-v0")
    first, second = factory(), factory()
    assert first.reset(task_id=3, split="test", seed=5) == \
        second.reset(task_id="test-3", split="test", seed=5, prompt=[], other="x")
    assert first.info["task_id"] == "test-3"
    with pytest.raises(ValueError, match="not in split"):
        first.reset(task_id="train-3", split="test")
    with pytest.raises(TypeError, match="seed must be an integer"):
        first.reset(task_id="train-3", seed="5")
    with pytest.raises(ValueError, match="not a registered environment id"):
        environment_factory("NoSuchEnv-v0")
    a, b = task_dataset("ToolCall-Simple-v0", n=3), task_dataset("ToolCall-Simple-v0", n=3)
    assert a.to_list() == b.to_list() and a["task_id"] == ["train-0", "train-1", "train-2"]
    assert a["seed"] == [0, 1, 2] and a[0]["prompt"][-1] == {"role": "user", "content": ""}
    with pytest.raises(ValueError, match="has 200 test tasks"):
        task_dataset("ToolRetail-v0", split="test", n=201)
    with pytest.raises(ValueError, match="positive integer"):
        task_dataset("ToolRetail-v0", n=0)


# ------------------------------------------------------------------ GRPO on the tiny model

@pytest.fixture(scope="module")
def tiny_dir(tmp_path_factory):
    pytest.importorskip("trl")
    torch = pytest.importorskip("torch")
    torch.set_num_threads(1)  # tiny matrices: threads only contend on a shared machine
    from tool_gym.agents.tiny import build_tiny_model, env_texts

    texts = env_texts("ToolRetail-v0", 4) + env_texts("ToolCall-Simple-v0", 8)
    return build_tiny_model(tmp_path_factory.mktemp("tiny") / "model", texts)


def scripted_call(env_id, environment) -> dict:
    """A call for the rows whose first turn the test writes: the reference answer of the
    single-turn task (reward 1), or a retail read with a made-up email (validity shaping)."""
    if env_id in tool_gym.CONVERSATION_IDS:
        return {"name": "find_user_id_by_email", "arguments": {"email": "nobody@example.com"}}
    from tool_gym.envs.function_call_env import AnswerKit

    call = AnswerKit.plan(environment.env.unwrapped.task)[0].call.calls[0]
    return {"name": ANSWER_TOOL, "arguments": {"name": call.name, "arguments": call.arguments}}


@pytest.mark.parametrize("env_id", ["ToolRetail-v0", "ToolCall-Simple-v0"])
def test_two_grpo_steps_with_environment_factory(env_id, tiny_dir, tmp_path, monkeypatch):
    """TRL's GRPOTrainer trains on the id with nothing but environment_factory and
    task_dataset. A random tiny model never writes a tool call, so every reward would be
    equal (no gradient): the test writes the first turn of every other rollout as a call
    (the model writes the rest, and every later turn), which TRL parses, runs through the
    environment object and scores with get_reward."""
    import json

    import torch
    from trl import GRPOConfig, GRPOTrainer

    from tool_gym.llm.transformers_backend import load_model

    monkeypatch.setenv("TRL_EXPERIMENTAL_SILENCE", "1")
    model, tokenizer = load_model(tiny_dir, device="cpu")
    factory = environment_factory(env_id)
    args = GRPOConfig(
        output_dir=str(tmp_path), max_steps=2, per_device_train_batch_size=4,
        num_generations=4, max_completion_length=96, max_tool_calling_iterations=1,
        learning_rate=1e-2, beta=0.0, temperature=1.0, logging_steps=1, report_to=[],
        save_strategy="no", use_cpu=True, bf16=False, seed=0, disable_tqdm=True)
    trainer = GRPOTrainer(model=model, args=args, processing_class=tokenizer,
                          train_dataset=task_dataset(env_id, n=4),
                          environment_factory=factory)
    rendered = {get_json_schema(t)["function"]["name"] for t in trainer._env_tools[None]}
    assert rendered == public_functions(factory()) - {"reset", "get_reward"}

    original = trainer._generate_single_turn
    played = []

    def generate(prompt_ids, images, fields, num_generations, has_tool_images=False):
        ids, logprobs = original(prompt_ids, images, fields, num_generations, has_tool_images)
        if num_generations != 1:  # the first turn of the batch (later turns: the tool loop)
            for row in range(0, len(ids), 2):
                call = scripted_call(env_id, trainer.environments[row])
                text = f"<tool_call>{json.dumps(call)}</tool_call><|im_end|>"
                ids[row] = tokenizer(text, add_special_tokens=False)["input_ids"]
            played.append([e.info["task_id"] for e in trainer.environments])
        return ids, logprobs

    trainer._generate_single_turn = generate
    before = {n: p.detach().clone() for n, p in trainer.model.named_parameters()}
    trainer.train()
    assert trainer.state.global_step == 2 and len(played) == 2
    assert set(itertools.chain(*played)) <= {f"train-{i}" for i in range(4)}  # rows reset the envs
    logs = [h for h in trainer.state.log_history if "loss" in h]
    name = factory.environment_class.__name__
    rewards = [h[f"rewards/{name}/mean"] for h in logs]
    assert all(r > 0 for r in rewards) and logs[-1]["tools/call_frequency"] > 0
    after = dict(trainer.model.named_parameters())
    assert any(not torch.equal(before[n], after[n]) for n in before)
