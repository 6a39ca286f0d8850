"""Formats: BFCL <-> OpenAI schemas, BFCL files, Hugging Face chat records."""

import importlib.util
import json

import pytest

from tool_gym.core.ast_match import check
from tool_gym.synth import bfcl
from tool_gym.synth.formats import (FunctionTask, bfcl_to_openai, openai_to_bfcl, read_jsonl,
                                    to_hf_chat, write_hf_chat)

HAS_BFCL = importlib.util.find_spec("bfcl_eval") is not None

DOC = {"name": "geo.distance", "description": "Distance between two points.",
       "parameters": {"type": "dict", "properties": {
           "a": {"type": "tuple", "items": {"type": "float"}},
           "unit": {"type": "string", "enum": ["km", "mi"], "default": "km"},
           "options": {"type": "dict", "properties": {"x": {"type": "any"}}}},
           "required": ["a"]}}


def test_schema_conversions():
    schema = bfcl_to_openai(DOC)
    params = schema["function"]["parameters"]
    assert schema["function"]["name"] == "geo.distance"
    assert params["type"] == "object" and params["properties"]["a"] == {
        "type": "array", "items": {"type": "number"}}
    assert params["properties"]["options"]["properties"]["x"] == {}
    back = openai_to_bfcl(schema)
    assert back["parameters"]["type"] == "dict"
    assert back["parameters"]["properties"]["a"]["items"]["type"] == "float"
    assert back["parameters"]["properties"]["unit"]["default"] == "km"


def task(**kw):
    base = dict(id="t-1", category="simple", question="How far is it from A to B?",
                functions=[DOC],
                answers=[{"geo.distance": {"a": [[1.0, 2.0]], "unit": ["", "km"]}}],
                calls=[{"type": "function", "function": {"name": "geo.distance",
                                                         "arguments": '{"a": [1.0, 2.0]}'}}])
    base.update(kw)
    return FunctionTask(**base)


def test_hf_chat_records(tmp_path):
    record = to_hf_chat(task(), system="You can call functions.")
    assert [m["role"] for m in record["messages"]] == ["system", "user", "assistant"]
    call = record["messages"][-1]["tool_calls"][0]
    assert call["function"] == {"name": "geo.distance", "arguments": {"a": [1.0, 2.0]}}
    assert record["tools"][0]["type"] == "function"
    refusal = to_hf_chat(task(category="irrelevance", answers=[], calls=[]))
    assert "tool_calls" not in refusal["messages"][-1] and refusal["messages"][-1]["content"]
    assert write_hf_chat(tmp_path / "chat.jsonl", [task(), task(id="t-2")]) == 2
    assert len(read_jsonl(tmp_path / "chat.jsonl")) == 2


def test_export_writes_bfcl_files(tmp_path):
    questions, answers = bfcl.export([task(), task(id="t-2", category="irrelevance",
                                                   answers=[], calls=[])], tmp_path, "mine")
    assert questions.name == "BFCL_v4_mine.json" and answers.parent.name == "possible_answer"
    rows = read_jsonl(questions)
    assert rows[0] == {"id": "t-1", "question": [[{"role": "user",
                                                   "content": "How far is it from A to B?"}]],
                       "function": [DOC]}
    assert [r["id"] for r in read_jsonl(answers)] == ["t-1"]


def test_reference_calls_pick_accepted_values():
    answers = [{"f": {"a": ["", 3], "b": [{"k": ["v", ""], "j": ["", 1]}], "c": [""]}}]
    (call,) = bfcl.reference_calls(answers)
    assert json.loads(call["function"]["arguments"]) == {"a": 3, "b": {"k": "v", "j": 1}}


def test_task_round_trip():
    t = task(meta={"source": "x"})
    assert FunctionTask.from_dict(json.loads(json.dumps(t.to_dict()))) == t


@pytest.mark.skipif(not HAS_BFCL, reason="bfcl-eval is not installed (optional extra)")
def test_import_bfcl_categories():
    assert bfcl.available()
    simple = bfcl.load("simple")
    assert simple[0].id == "simple_python_0" and simple[0].category == "simple_python"
    assert len(bfcl.load("multiple,parallel")) == 400
    irrelevant = bfcl.load("irrelevance")
    assert irrelevant and all(t.answers == [] and t.calls == [] for t in irrelevant)
    for t in bfcl.load("parallel_multiple")[:50]:
        assert check(t.functions, t.calls, t.answers, t.category).valid
    with pytest.raises(ValueError):
        bfcl.load("multi_turn_base")
    with pytest.raises(ValueError):
        bfcl.load("no_such_category")
