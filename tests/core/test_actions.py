import builtins
import json

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from tool_gym.core.actions import ParsedAction, ToolCall, parse_action

TOOLS = {"get_order_details", "find_user_id_by_email", "cancel_pending_order", "list_all"}


def call(text, **kw):
    result = parse_action(text, **kw)
    assert result.is_call, result
    return result


def err(action, *fragments, **kw):
    result = parse_action(action, **kw)
    assert result.is_error, result
    assert not result.calls and result.message is None
    for fragment in fragments:
        assert fragment in result.error, (fragment, result.error)
    assert len(result.error) < 400
    assert "internal parse error" not in result.error
    return result.error


def msg(action, expected=None, **kw):
    result = parse_action(action, **kw)
    assert result.is_message, result
    if expected is not None:
        assert result.message == expected
    return result


# ----------------------------------------------------------------------------- Hermes


def test_hermes_single_call():
    r = call('<tool_call>{"name": "get_order_details", "arguments": {"order_id": "#W1"}}'
             "</tool_call>")
    assert r.calls == (ToolCall("get_order_details", {"order_id": "#W1"}),)
    assert r.message is None and not r.has_prose


def test_hermes_several_calls_whitespace_and_newlines():
    text = ('<tool_call>\n  {"name": "a", "arguments": {"x": 1}}\n</tool_call>\n\n'
            '<tool_call>{"name":"b","arguments":{}}</tool_call>\n<tool_call>\n'
            '{"name": "c", "arguments": {"y": [1, {"z": null}]}}\n</tool_call>')
    r = call(text)
    assert [c.name for c in r.calls] == ["a", "b", "c"]
    assert r.calls[2].arguments == {"y": [1, {"z": None}]}
    assert r.message is None


def test_hermes_missing_final_closing_tag():
    r = call('<tool_call>{"name": "a", "arguments": {}}</tool_call><tool_call>\n'
             '{"name": "b", "arguments": {"k": "v"}}\n')
    assert [c.name for c in r.calls] == ["a", "b"]


def test_hermes_missing_closing_tag_in_the_middle_is_an_error():
    err('<tool_call>{"name": "a", "arguments": {}}<tool_call>{"name": "b", "arguments": {}}'
        '</tool_call>', "tool call 1", "missing </tool_call>")


def test_hermes_code_fence_inside_tag():
    for fence in ("```json", "```", "```JSON"):
        r = call(f'<tool_call>\n{fence}\n{{"name": "a", "arguments": {{"x": 1}}}}\n```\n'
                 "</tool_call>")
        assert r.calls == (ToolCall("a", {"x": 1}),)


def test_hermes_parameters_synonym_and_string_arguments():
    r = call('<tool_call>{"name": "a", "parameters": {"x": 1}}</tool_call>'
             '<tool_call>{"name": "b", "arguments": "{\\"y\\": \\"z\\"}"}</tool_call>')
    assert r.calls == (ToolCall("a", {"x": 1}), ToolCall("b", {"y": "z"}))


def test_missing_null_or_empty_arguments_mean_no_arguments():
    for body in ('{"name": "a"}', '{"name": "a", "arguments": null}',
                 '{"name": "a", "arguments": ""}', '{"name": "a", "arguments": "  "}'):
        assert call(f"<tool_call>{body}</tool_call>").calls == (ToolCall("a", {}),)


def test_hermes_id_is_kept_and_identical_duplicates_of_parameters_accepted():
    r = call('<tool_call>{"name": "a", "arguments": {"x": 1}, "parameters": {"x": 1}, '
             '"id": "c7"}</tool_call>')
    assert r.calls == (ToolCall("a", {"x": 1}, "c7"),)


def test_hermes_list_and_several_objects_in_one_tag():
    r = call('<tool_call>[{"name": "a", "arguments": {}}, {"name": "b", "arguments": {}}]'
             '</tool_call>')
    assert [c.name for c in r.calls] == ["a", "b"]
    r = call('<tool_call>\n{"name": "a", "arguments": {}}\n{"name": "b", "arguments": {}}\n'
             '</tool_call>')
    assert [c.name for c in r.calls] == ["a", "b"]


def test_closing_tag_inside_a_json_string_does_not_end_the_block():
    r = call('<tool_call>{"name": "note", "arguments": {"text": "see </tool_call> here"}}'
             '</tool_call>')
    assert r.calls[0].arguments == {"text": "see </tool_call> here"}


def test_python_syntax_inside_tag():
    r = call('<tool_call>get_order_details(order_id="#W1")</tool_call>')
    assert r.calls == (ToolCall("get_order_details", {"order_id": "#W1"}),)


def test_argument_values_are_kept_as_sent():
    r = call('<tool_call>{"name": "a", "arguments": {"n": "5", "f": 1.5, "b": true, '
             '"big": 123456789012345678901234567890, "o": {"k": [1, "2"]}}}</tool_call>')
    assert r.calls[0].arguments == {"n": "5", "f": 1.5, "b": True,
                                    "big": 123456789012345678901234567890,
                                    "o": {"k": [1, "2"]}}


def test_names_are_returned_as_given():
    r = call('<tool_call>{"name": " Get Order ", "arguments": {}}</tool_call>', tool_names=TOOLS)
    assert r.calls[0].name == " Get Order "


# ------------------------------------------------------------------- Hermes errors


def test_invalid_json_in_tag_says_which_call_and_where():
    e = err('<tool_call>{"name": "a", "arguments": {}}</tool_call>\n'
            '<tool_call>{"name": "b", "arguments": {"x": 1}</tool_call>',
            "tool call 2", "invalid JSON", "character")
    assert "Expecting" in e


def test_invalid_json_trailing_text_in_tag():
    err('<tool_call>{"name": "a", "arguments": {}}}</tool_call>', "tool call 1",
        "unexpected text after the JSON")


def test_non_json_body_in_tag():
    err("<tool_call>call a please</tool_call>", "tool call 1", "expected a JSON object")


def test_empty_tag():
    err("<tool_call>  </tool_call>", "tool call 1", "empty <tool_call>")
    err("<tool_call>", "empty <tool_call>")
    err("<tool_call>[]</tool_call>", "empty list")


def test_call_without_name():
    err('<tool_call>{"arguments": {"x": 1}}</tool_call>', "tool call 1", "missing tool name")
    err('<tool_call>{"name": "", "arguments": {}}</tool_call>', "missing tool name")
    err('<tool_call>{"name": null, "arguments": {}}</tool_call>', "missing tool name")


def test_name_not_a_string():
    err('<tool_call>{"name": 3, "arguments": {}}</tool_call>', "name must be a string",
        "integer")
    err('<tool_call>{"name": ["a"], "arguments": {}}</tool_call>', "name must be a string",
        "array")


def test_arguments_not_an_object_names_the_call():
    err('<tool_call>{"name": "a", "arguments": [1, 2]}</tool_call>', "'a'",
        "arguments must be a JSON object", "array")
    err('<tool_call>{"name": "a", "arguments": 5}</tool_call>', "'a'", "integer")
    err('<tool_call>{"name": "a", "arguments": "[1]"}</tool_call>', "'a'",
        "string holding array")
    err('<tool_call>{"name": "a", "arguments": "{oops"}</tool_call>', "'a'",
        "arguments string is not valid JSON")
    err('<tool_call>[1]</tool_call>', "tool call 1", "expected a JSON object")


def test_conflicting_arguments_and_parameters():
    err('<tool_call>{"name": "a", "arguments": {"x": 1}, "parameters": {"x": 2}}</tool_call>',
        "both 'arguments' and 'parameters'")


def test_stray_closing_tag():
    err('{"name": "a", "arguments": {}}</tool_call>', "without a matching <tool_call>")
    err('<tool_call>{"name": "a", "arguments": {}}</tool_call></tool_call>',
        "without a matching <tool_call>")


def test_unsupported_call_id_and_type():
    err('<tool_call>{"name": "a", "arguments": {}, "id": 5}</tool_call>', "id must be a string")
    err({"tool_calls": [{"type": "code", "function": {"name": "a"}}]},
        "unsupported tool call type")


def test_deeply_nested_json_is_an_error_not_a_crash():
    deep = "[" * 50_000 + "]" * 50_000
    err(f'<tool_call>{{"name": "a", "arguments": {{"x": {deep}}}}}</tool_call>', "too deeply")
    err(deep, "too deeply")
    err({"tool_calls": [{"function": {"name": "a", "arguments": '{"x": ' + deep + "}"}}]},
        "too deeply")


def test_error_messages_truncate_echoed_input():
    e = err("<tool_call>{" + '"k": "' + "x" * 10_000 + '",' + "</tool_call>", "tool call 1")
    assert len(e) < 400


def test_huge_integer_is_an_error():
    err('<tool_call>{"name": "a", "arguments": {"n": ' + "9" * 5000 + "}}</tool_call>",
        "tool call 1")


# -------------------------------------------------------------------------- bare JSON


def test_bare_json_object_list_and_fence():
    assert call('{"name": "a", "arguments": {"x": 1}}').calls == (ToolCall("a", {"x": 1}),)
    r = call('  [{"name": "a", "arguments": {}}, {"name": "b", "parameters": {"y": 2}}]  ')
    assert r.calls == (ToolCall("a", {}), ToolCall("b", {"y": 2}))
    r = call('```json\n{"name": "a", "arguments": "{\\"x\\": 1}"}\n```')
    assert r.calls == (ToolCall("a", {"x": 1}),)


def test_bare_json_without_name_is_a_message():
    text = '{"order_id": "#W1", "status": "delivered"}'
    msg(text, text)
    msg("[1, 2, 3]", "[1, 2, 3]")
    msg("[]", "[]")
    msg('"just a string"')
    msg('{"name": "Alice", "age": 30}', '{"name": "Alice", "age": 30}')
    msg('[{"name": "Alice", "age": 30}]')
    fenced = '```json\n{"total": 3}\n```'
    msg(fenced, fenced)


def test_bare_name_only_object_depends_on_tool_names():
    assert call('{"name": "list_all"}').calls == (ToolCall("list_all", {}),)
    assert call('{"name": "list_all"}', tool_names=TOOLS).calls == (ToolCall("list_all", {}),)
    msg('{"name": "Alice"}', tool_names=TOOLS)


def test_bare_json_broken_calls_are_errors():
    err('{"arguments": {"order_id": "#W1"}}', "missing tool name")
    err('{"parameters": {}}', "missing tool name")
    err('{"name": "get_order_details", "order_id": "#W1"}', "'get_order_details'",
        'under "arguments"', "order_id", tool_names=TOOLS)
    err('{"name": "a", "arguments": {"x": 1}', "invalid JSON tool call", "line 1")
    err('[{"name": "a", "arguments": {}}, 5]', "tool call 2", "integer")
    err('[{"name": "a", "arguments": {}}, {"name": 1, "arguments": {}}]', "tool call 2",
        "name must be a string")


def test_invalid_json_that_is_not_a_call_is_a_message():
    msg("{hello} is how templates look", "{hello} is how templates look")
    msg("[citation needed]")


def test_openai_message_as_json_text():
    text = json.dumps({"role": "assistant", "content": None, "tool_calls": [
        {"id": "c1", "type": "function", "function": {"name": "a", "arguments": "{}"}}]})
    assert call(text).calls == (ToolCall("a", {}, "c1"),)


# ----------------------------------------------------------------------------- OpenAI


def test_openai_assistant_message():
    action = {"role": "assistant", "content": None, "tool_calls": [
        {"id": "call_1", "type": "function",
         "function": {"name": "get_order_details", "arguments": '{"order_id": "#W1"}'}},
        {"id": "call_2", "type": "function",
         "function": {"name": "list_all", "arguments": {}}},
    ]}
    r = call(action)
    assert r.calls == (ToolCall("get_order_details", {"order_id": "#W1"}, "call_1"),
                       ToolCall("list_all", {}, "call_2"))
    assert not r.has_prose


def test_openai_content_alongside_tool_calls_is_prose():
    r = call({"role": "assistant", "content": "<think>x</think>One moment.",
              "tool_calls": [{"id": "c", "type": "function",
                              "function": {"name": "a", "arguments": "{}"}}]})
    assert r.message == "One moment." and r.has_prose


def test_openai_content_only_and_content_parts():
    msg({"role": "assistant", "content": "Hello!"}, "Hello!")
    msg({"content": "Hi", "tool_calls": []}, "Hi")
    msg({"content": "Hi", "tool_calls": None}, "Hi")
    msg({"content": [{"type": "text", "text": "Hel"}, {"type": "text", "text": "lo"}]}, "Hello")
    err({"content": [{"type": "image_url", "image_url": {}}]}, "unsupported content part")
    err({"content": 5}, "content must be a string")
    err({"role": "assistant", "content": None}, "empty action")


def test_openai_content_without_tool_calls_is_parsed_as_text():
    r = call({"role": "assistant",
              "content": '<tool_call>{"name": "a", "arguments": {}}</tool_call>'})
    assert r.calls == (ToolCall("a", {}),)


def test_single_call_dicts_and_lists():
    assert call({"name": "a", "arguments": {"x": 1}}).calls == (ToolCall("a", {"x": 1}),)
    assert call({"name": "a", "arguments": '{"x": 1}', "id": "i"}).calls == (
        ToolCall("a", {"x": 1}, "i"),)
    assert call({"type": "function", "function": {"name": "a", "arguments": "{}"}}).calls == (
        ToolCall("a", {}),)
    r = call([{"name": "a", "arguments": {}}, ToolCall("b", {"y": 1}),
              {"id": "c", "function": {"name": "c", "arguments": "{}"}}])
    assert r.calls == (ToolCall("a", {}), ToolCall("b", {"y": 1}), ToolCall("c", {}, "c"))


def test_legacy_function_call():
    r = call({"role": "assistant", "content": None,
              "function_call": {"name": "a", "arguments": '{"x": 2}'}})
    assert r.calls == (ToolCall("a", {"x": 2}),)


def test_openai_malformed():
    err({"role": "user", "content": "hi"}, "unsupported message role")
    err({"tool_calls": "a()"}, "tool_calls must be a list")
    err({"tool_calls": [5]}, "tool call 1", "integer")
    err({"tool_calls": [{"function": {"arguments": "{}"}}]}, "missing tool name")
    err({"tool_calls": [{"function": {"name": "a", "arguments": "[]"}}]}, "'a'",
        "arguments must be a JSON object")
    err({"foo": 1, "bar": 2}, "unsupported dict action", "'foo'")
    err({}, "unsupported dict action")
    err({"arguments": {}}, "missing tool name")
    err({"name": "a", "arguments": [1]}, "arguments must be a JSON object")
    err([], "empty list of tool calls")
    err(["a()"], "tool call 1", "string")
    err([ToolCall("a", {}), {"name": 3}], "tool call 2", "name must be a string")


def test_pydantic_like_objects_are_dumped():
    class Message:
        def model_dump(self):
            return {"role": "assistant", "content": None, "tool_calls": [
                {"id": "x", "type": "function", "function": {"name": "a", "arguments": "{}"}}]}

    class Broken:
        def model_dump(self):
            raise RuntimeError("boom")

    assert call(Message()).calls == (ToolCall("a", {}, "x"),)
    err(Broken(), "model_dump() raised")


# ---------------------------------------------------------------------- Python syntax


def test_python_single_call():
    r = call('get_order_details(order_id="#W123")')
    assert r.calls == (ToolCall("get_order_details", {"order_id": "#W123"}),)


def test_python_several_calls():
    r = call('[f(a=1), g(b="x")]')
    assert r.calls == (ToolCall("f", {"a": 1}), ToolCall("g", {"b": "x"}))
    assert call('f(a=1)\ng(b=2)').calls == (ToolCall("f", {"a": 1}), ToolCall("g", {"b": 2}))
    assert call('f(a=1); g(b=2);').calls == (ToolCall("f", {"a": 1}), ToolCall("g", {"b": 2}))
    assert call("(f(), g())").calls == (ToolCall("f", {}), ToolCall("g", {}))


def test_python_literals():
    r = call("modify(items=[1, -2, 3.5, -4e2, +5], opts={'a': [True, None, (1, 2)], "
             "'b': {'c': -0.5}}, s='it''s', flag=false, none=null, t=true)")
    assert r.calls[0].arguments == {"items": [1, -2, 3.5, -400.0, 5],
                                    "opts": {"a": [True, None, [1, 2]], "b": {"c": -0.5}},
                                    "s": "its", "flag": False, "none": None, "t": True}


def test_python_multiline_and_fenced():
    r = call('```python\nmodify(\n    order_id="#W1",\n    items=["a", "b"],\n)\n```')
    assert r.calls == (ToolCall("modify", {"order_id": "#W1", "items": ["a", "b"]}),)


@pytest.mark.parametrize("text, fragment", [
    ('open("/etc/passwd")', "positional arguments"),
    ('f("x")', "positional arguments"),
    ("f(a=x)", "a variable name"),
    ("f(a=os.environ)", "attribute access"),
    ("f(a=g())", "a function call"),
    ("f(a=__import__('os').system('x'))", "a function call"),
    ("f(a=[i for i in range(3)])", "a comprehension"),
    ("f(a=lambda: 1)", "a lambda"),
    ("f(a=f'{x}')", "an f-string"),
    ("f(a=[*x])", "unpacking"),
    ("f(a=1 + 2)", "an operator expression"),
    ("f(a={1, 2})", "a set"),
    ("f(a=b'x')", "bytes"),
    ("f(a=1j)", "complex"),
    ("f(a=...)", "ellipsis"),
    ("f(a=-True)", "must be a literal"),
    ("f(a={1: 2})", "dict keys must be strings"),
    ("f(a={**x})", "unpacking is not allowed"),
    ("f(**{'a': 1})", "unpacking is not allowed"),
    ("f(*args)", "positional arguments"),
    ("f(a=1, a=2)", "given twice"),
    ("__import__('os').system('x')", "only a plain tool name"),
    ("os.system('rm -rf /')", "only a plain tool name"),
    ("(lambda: 1)()", "only a plain tool name"),
    ("[f(a=1), g(b=x)]", "tool call 2"),
])
def test_python_non_literals_are_errors(text, fragment):
    e = err(text)
    assert fragment in e.lower() or fragment in e


def test_python_nested_too_deeply():
    err("f(a=" + "[" * 150 + "]" * 150 + ")", "nested too deeply")


def test_python_with_lone_surrogate_is_an_error():
    err('f(a="\ud800")', "surrogate")


@pytest.mark.parametrize("text", [
    "Confirm (yes/no)", "Hello (world)", "print", "x = f(a=1)", "import os",
    "Sure! Here it is: f(a=1)", "f(a=1) is what I would call", "(see above)",
    "Thanks(!)", "1 + 2",
])
def test_prose_is_not_python(text):
    msg(text, text)


def test_python_call_line_inside_prose_needs_a_known_tool():
    text = "Let me look that up.\nget_order_details(order_id=\"#W1\")\nOne moment."
    r = call(text, tool_names=TOOLS)
    assert r.calls == (ToolCall("get_order_details", {"order_id": "#W1"}),)
    assert r.message == "Let me look that up.\n\nOne moment." and r.has_prose
    msg(text)  # without tool_names: just prose
    msg("Let me see.\nunknown_tool(a=1)", tool_names=TOOLS)
    r = call('Checking.\n```python\nget_order_details(\n  order_id="#W1"\n)\n```', tool_names=TOOLS)
    assert r.calls[0].arguments == {"order_id": "#W1"} and r.message == "Checking."
    err("Checking.\nget_order_details(order_id=x)", "a variable name", tool_names=TOOLS)


# ---------------------------------------------------------------- ToolCall objects


def test_toolcall_objects():
    tc = ToolCall("a", {"x": 1}, "id1")
    assert parse_action(tc).calls == (tc,)
    assert parse_action((tc, ToolCall("b", {}))).calls == (tc, ToolCall("b", {}))
    err([ToolCall("a", [1])], "arguments must be a JSON object")
    err([ToolCall("", {})], "non-empty string")
    err(ToolCall(3, {}), "non-empty string")


def test_parsed_action_passes_through():
    pa = ParsedAction(message="hi")
    assert parse_action(pa) is pa


def test_toolcall_formats():
    tc = ToolCall("get_order_details", {"order_id": "#W1", "n": [1, "é"]}, "call_9")
    assert tc.to_openai() == {"id": "call_9", "type": "function", "function": {
        "name": "get_order_details", "arguments": '{"order_id": "#W1", "n": [1, "é"]}'}}
    assert tc.to_hermes() == ('<tool_call>{"name": "get_order_details", "arguments": '
                              '{"order_id": "#W1", "n": [1, "é"]}}</tool_call>')
    anonymous = ToolCall("a", {"x": 1})
    assert anonymous.to_openai()["id"] == ToolCall("a", {"x": 1}).to_openai()["id"]
    assert anonymous.to_openai()["id"].startswith("call_")
    assert anonymous.to_openai()["id"] != ToolCall("a", {"x": 2}).to_openai()["id"]


# ---------------------------------------------------------- text, prose and think


def test_plain_text_is_a_message():
    msg("  Could you give me your email?  ", "Could you give me your email?")
    msg("I'll use <b>bold</b> {and braces}")


def test_empty_text_is_an_error():
    for text in ("", "   \n\t", "<think>only thinking</think>", b"", "<think>unclosed"):
        err(text, "empty action")


def test_prose_plus_call_keeps_the_prose():
    r = call('Sure, checking now.\n<tool_call>{"name": "a", "arguments": {}}</tool_call>\nBye.')
    assert r.calls == (ToolCall("a", {}),)
    assert r.message == "Sure, checking now.\n\nBye."
    assert r.has_prose and r.is_call and not r.is_message and not r.is_error


def test_think_blocks_are_stripped():
    r = call('<think>I should call a.\n<tool_call>{"name": "evil", "arguments": {}}</tool_call>'
             '</think>\n<tool_call>{"name": "a", "arguments": {}}</tool_call>')
    assert r.calls == (ToolCall("a", {}),) and r.message is None
    msg("<think>plan</think>Hello there", "Hello there")
    msg("reasoning without opening tag</think>\nHello", "Hello")
    msg("Hello <think>trailing unfinished thoughts", "Hello")
    msg("<think>a</think>Hi<think>b</think> you", "Hi you")
    msg('<think>{"name": "a", "arguments": {}}</think>I will not call anything.')


# ------------------------------------------------------------------ action types


@pytest.mark.parametrize("action", [5, 1.5, None, True, {1, 2}, object(), 3j])
def test_unsupported_types(action):
    err(action, "unsupported action type")


def test_bytes():
    r = call('<tool_call>{"name": "a", "arguments": {"s": "é"}}</tool_call>'.encode())
    assert r.calls == (ToolCall("a", {"s": "é"}),)
    msg(bytearray(b"hello"), "hello")
    err(b"\xff\xfe", "not valid UTF-8")
    err(b"x" * 1000, "too long", max_length=100)


def test_too_many_calls():
    err("f();" * 101, "too many tool calls", "101")
    err("<tool_call>{\"name\": \"a\"}</tool_call>" * 101, "too many tool calls")
    err([ToolCall("a", {})] * 101, "too many tool calls")
    assert len(call([ToolCall("a", {})] * 100).calls) == 100


def test_max_length():
    err("x" * 201, "too long", "201", max_length=200)
    msg("x" * 200, max_length=200)
    err({"content": "x" * 300, "tool_calls": [{"function": {"name": "a"}}]}, "too long",
        max_length=200)
    err({"tool_calls": [{"function": {"name": "a", "arguments": "{" + " " * 300 + "}"}}]},
        "too long", max_length=200)


def test_lone_surrogates_pass_through():
    msg("hi \ud800 there", "hi \ud800 there")
    r = call('<tool_call>{"name": "a", "arguments": {"s": "\ud800", "t": "\\udc00"}}</tool_call>')
    assert r.calls[0].arguments == {"s": "\ud800", "t": "\udc00"}


# -------------------------------------------------------------- nothing is executed


def test_dangerous_python_is_never_executed(monkeypatch, tmp_path):
    called = []
    real_import = builtins.__import__

    def spy_import(name, *args, **kwargs):
        if name in ("os", "subprocess", "shutil"):
            called.append(("import", name))
        return real_import(name, *args, **kwargs)

    def spy(label):
        def fn(*args, **kwargs):
            called.append((label, args))
            raise AssertionError(f"{label} was called")
        return fn

    monkeypatch.setattr(builtins, "__import__", spy_import)
    for name in ("open", "eval", "exec", "sentinel"):
        monkeypatch.setattr(builtins, name, spy(name), raising=False)
    target = tmp_path / "pwned"
    texts = [
        "__import__('os').system('touch pwned')",
        f"open(file={str(target)!r}, mode='w')",
        f"open({str(target)!r}, 'w')",
        "f(a=sentinel())",
        "sentinel(x=1)",
        "f(a=__import__('os'))",
        "f(a=eval('1'))",
        "f(a=exec('x=1'))",
        "f(a=(lambda: sentinel())())",
        "f(a=[sentinel() for _ in range(3)])",
        "f(a=f'{sentinel()}')",
        "f(a=os.system)",
        "<tool_call>sentinel(x=sentinel())</tool_call>",
        "Sure.\nget_order_details(order_id=sentinel())",
        "[sentinel(a=1), open(file='/etc/passwd')]",
    ]
    results = [parse_action(t, tool_names=TOOLS) for t in texts]
    assert called == []
    assert not target.exists()
    for text, result in zip(texts, results):
        assert result.is_error or result.is_message or all(
            c.name in ("open", "sentinel") for c in result.calls), (text, result)
    # A call to a non-tool name is returned by name only; the tool layer rejects it.
    assert results[1].calls == (ToolCall("open", {"file": str(target), "mode": "w"}),)


# ------------------------------------------------------------------ properties


def check(result):
    assert isinstance(result, ParsedAction)
    assert [result.is_call, result.is_message, result.is_error].count(True) == 1, result
    if result.is_error:
        assert isinstance(result.error, str) and result.error
        assert not result.calls and result.message is None
        assert "internal parse error" not in result.error, result.error
        assert len(result.error) < 400
    else:
        assert result.message is None or isinstance(result.message, str)
    for c in result.calls:
        assert isinstance(c, ToolCall) and isinstance(c.name, str) and c.name
        assert isinstance(c.arguments, dict)
        assert c.id is None or isinstance(c.id, str)


any_chars = st.characters(blacklist_categories=())  # includes lone surrogates
json_scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) \
    | st.text(alphabet=any_chars, max_size=20)
json_values = st.recursive(
    json_scalars,
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.text(alphabet=any_chars, max_size=10), children, max_size=4),
    max_leaves=20,
)
json_objects = st.dictionaries(st.text(alphabet=any_chars, max_size=10), json_values,
                               max_size=5)
FRAGMENTS = ["<tool_call>", "</tool_call>", "<think>", "</think>", "```", "```json\n",
             "{", "}", "[", "]", '"name"', '"arguments"', '"parameters"', ":", ",", '"a"',
             "null", "1", "-", "\n", " ", '"', "\\", "(", ")", "=", "f", "get_order_details",
             "tool_calls", "\ud800", "'x'", "true"]
PY_FRAGMENTS = ["f", "g", "get_order_details", "(", ")", "[", "]", "{", "}", "=", ",", "a",
                "b", "1", "-", "2.5", "'s'", '"t"', "True", "None", "null", "lambda", ":",
                ".", "__import__", "os", "system", "*", "**", "f'", "for", " in ", "x", ";",
                "\n", " ", "open", "#", "\\", "\ud800", "\x00"]
text_soup = st.lists(st.sampled_from(FRAGMENTS) | st.text(alphabet=any_chars, max_size=5),
                     max_size=30).map("".join)
python_soup = st.lists(st.sampled_from(PY_FRAGMENTS), max_size=30).map("".join)
tool_names = st.none() | st.just(TOOLS) | st.just(frozenset({"f", "g"}))


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=any_chars) | text_soup, tool_names)
def test_arbitrary_text_never_raises(text, names):
    check(parse_action(text, tool_names=names))


@settings(max_examples=300, deadline=None)
@given(python_soup, tool_names)
def test_arbitrary_python_never_raises(text, names):
    check(parse_action(text, tool_names=names))
    check(parse_action(f"Hi.\n{text}", tool_names=names))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(json_values | st.builds(lambda v: {"name": "a", "arguments": v}, json_values)
       | st.builds(lambda v: {"tool_calls": v}, json_values)
       | st.builds(lambda v: {"role": "assistant", "content": v}, json_values)
       | st.builds(lambda v: [{"function": v}], json_values),
       tool_names)
def test_arbitrary_json_values_never_raise(value, names):
    check(parse_action(value, tool_names=names))
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (ValueError, TypeError):
        return
    check(parse_action(text, tool_names=names))
    check(parse_action(f"<tool_call>{text}</tool_call>", tool_names=names))
    check(parse_action(f"<tool_call>{text}", tool_names=names))
    check(parse_action(text.encode("utf-8", "surrogatepass"), tool_names=names))


@settings(max_examples=100, deadline=None)
@given(st.binary())
def test_arbitrary_bytes_never_raise(data):
    check(parse_action(data))


def _no_think(value):
    text = json.dumps(value, ensure_ascii=False)
    return "<think>" not in text and "</think>" not in text


names = st.text(alphabet=any_chars, min_size=1, max_size=30)


@settings(max_examples=300, deadline=None)
@given(names, json_objects)
def test_hermes_round_trip(name, arguments):
    tc = ToolCall(name, arguments)
    assume(_no_think([name, arguments]))
    assert parse_action(tc.to_hermes()).calls == (tc,)
    assert parse_action(tc.to_hermes() + "\n" + tc.to_hermes()).calls == (tc, tc)


@settings(max_examples=300, deadline=None)
@given(names, json_objects, st.none() | st.text(max_size=20))
def test_openai_round_trip(name, arguments, call_id):
    tc = ToolCall(name, arguments, call_id)
    entry = tc.to_openai()
    assert json.loads(entry["function"]["arguments"]) == arguments
    result = parse_action({"role": "assistant", "content": None, "tool_calls": [entry]})
    expected = tc if call_id is not None else ToolCall(name, arguments, entry["id"])
    assert result.calls == (expected,)
    assert parse_action({"tool_calls": [entry]}).calls == (expected,)


# ------------------------------------------------------------------ bounded cost
#
# Adversarial shapes of about 100,000 characters: each must give a result (an error or a
# message, never an exception) and the work counted by parse_with_cost must be linear in
# the input: at most COST_PER_CHAR times its length, and doubling the input at most about
# doubles it. Wall-clock figures are in benchmarks/step_cost.py.

from tool_gym.core.actions import PY_CODE_BUDGET, parse_with_cost  # noqa: E402

COST_PER_CHAR = 25


def _repeat(unit: str, n: int) -> str:
    return (unit * (n // len(unit) + 1))[:n]


ADVERSARIAL = {
    "hermes unclosed lines": lambda n: _repeat('<tool_call>{"name": "x", "arguments": {\n', n),
    "hermes unclosed object": lambda n: "<tool_call>" + _repeat('{"name": "x", "arguments": {',
                                                                n - 11),
    "hermes python bodies": lambda n: _repeat("<tool_call>get_order_details(order_id=1)", n),
    "hermes valid calls": lambda n: _repeat('<tool_call>{"name": "f", "arguments": {}}'
                                            '</tool_call>', n),
    "many open tags": lambda n: _repeat("<tool_call>", n),
    "many close tags": lambda n: _repeat("</tool_call>", n),
    "json name repeated": lambda n: _repeat('{"name":', n),
    "json call lines": lambda n: _repeat('{"name": "x", "arguments": {\n', n),
    "unclosed arrays": lambda n: "[" * n,
    "nested brackets": lambda n: "[" * (n // 2) + "]" * (n // 2),
    "nested parens": lambda n: "f(" + "(" * (n - 3) + ")",
    "python prefix lines": lambda n: _repeat("f(\n", n),
    "known tool prefix lines": lambda n: _repeat("get_order_details(\n", n),
    "known tool long lines": lambda n: _repeat("get_order_details(" + "1," * 2000 + "\n", n),
    "known tool in prose": lambda n: _repeat("Let me check.\nget_order_details(order_id=\n", n),
    "python calls ;": lambda n: _repeat("f(a=1);", n - 1) + ")",
    "python list of calls": lambda n: "[" + _repeat("f(a=1),", n - 2) + "]",
    "one huge python call": lambda n: "f(a=[" + _repeat("1,", n - 7) + "])",
    "triple quotes": lambda n: _repeat('f(a="""', n),
    "quotes": lambda n: '"' * n,
    "backslashes": lambda n: "\\" * n,
    "quotes and backslashes": lambda n: _repeat('"\\', n),
    "escaped quotes in a call": lambda n: "f(a=" + _repeat('\\"', n - 5) + ")",
    "lone surrogates": lambda n: _repeat("\ud800a", n),
    "NUL": lambda n: "\x00" * n,
    "think tags": lambda n: _repeat("<think>", n),
    "fences": lambda n: _repeat("```", n),
    "mixed": lambda n: _repeat('<tool_call>{"name": "f(", "arguments": [[{"\\\ud800\x00', n),
}


@pytest.mark.parametrize("shape", sorted(ADVERSARIAL))
def test_adversarial_shapes_parse_in_linear_work(shape):
    costs = []
    for n in (50_000, 100_000):
        text = ADVERSARIAL[shape](n)
        for names in (None, TOOLS):
            result, cost = parse_with_cost(text, tool_names=names)
            assert isinstance(result, ParsedAction)
            assert result.is_error or result.is_message or result.is_call
            assert "internal parse error" not in (result.error or "")
            assert cost.total <= COST_PER_CHAR * len(text), (shape, cost)
            assert cost.ast_chars <= len(text)
            costs.append(cost.total)
    # doubling the input at most about doubles the work
    assert costs[2] <= 2.2 * costs[0] + 1_000 and costs[3] <= 2.2 * costs[1] + 1_000, costs


def test_adversarial_bytes_and_dicts_are_bounded():
    result, cost = parse_with_cost(b"\xff" + b"{" * 99_999)
    assert result.is_error and "UTF-8" in result.error and cost.total == 0
    result, cost = parse_with_cost(("<tool_call>" + '{"name": "f"}' * 10).encode())
    assert len(result.calls) == 10 and cost.json_chars == 130
    # Arguments strings of a dict action count against max_length in total.
    big = '{"a": "' + "x" * 90_000 + '"}'
    action = {"tool_calls": [{"function": {"name": "f", "arguments": big}}] * 5}
    result, cost = parse_with_cost(action, max_length=100_000)
    assert result.is_error and "too long in total" in result.error
    assert cost.json_chars <= 200_000


def test_embedded_call_is_parsed_once_up_to_its_line_end():
    text = "Sure.\n" + "get_order_details(order_id='#W1')  # the order\n" + "Thanks.\n" * 2000
    result, cost = parse_with_cost(text, tool_names=TOOLS)
    assert result.calls == (ToolCall("get_order_details", {"order_id": "#W1"}),)
    assert cost.ast_parses == 1 and cost.ast_chars < 100


def test_python_syntax_over_the_token_budget():
    huge = "f(a=[" + ",".join(["1"] * PY_CODE_BUDGET) + "])"
    err(huge, "too long", "JSON")
    err("f();" * 5_000, "too many tool calls")
    ok = "f(a=[" + ", ".join(["1"] * 1_000) + "])"
    assert call(ok).calls[0].arguments == {"a": [1] * 1_000}
    # The same call as JSON has no token budget.
    assert call('{"name": "f", "arguments": {"a": [' + ", ".join(["1"] * 20_000) + "]}}")


def test_scanner_agrees_with_python_on_strings_and_comments():
    text = 'f(a="x)", b=\'\'\'(\n\'\'\', c="\\")", d=[1, 2])'
    assert call(text).calls[0].arguments == {"a": "x)", "b": "(\n", "c": '")', "d": [1, 2]}
    text += "  # (\n"
    prose = "One moment.\n" + text + "Done."
    r = call(prose, tool_names={"f"})
    assert r.calls[0].arguments["b"] == "(\n" and r.message == "One moment.\n\nDone."
