"""Generators of malformed and adversarial agent actions, shared by the fuzz tests and the
long fuzz benchmark."""

from __future__ import annotations

import json
from typing import Any, Iterator

import numpy as np

INJECTIONS = [
    "'; DROP TABLE orders; --",
    "\" OR 1=1 --",
    "#W0000001' OR '1'='1",
    "x'); DELETE FROM users; --",
    "1; UPDATE payment_methods SET balance = 1e9",
    "../../../../etc/passwd",
    "/etc/shadow",
    "__import__('os').system('touch /tmp/pwned')",
    "{{7*7}}",
    "${jndi:ldap://x}",
    "%s%s%s%n",
    "\x00\x01\x02",
    "\ud800\udfff",
    "\u202e\u200b\ufeff",
    "A" * 1_000_001,
    "😀" * 1000,
    "",
    " ",
]
WEIRD_VALUES: list[Any] = [
    None, True, False, 0, -1, 2**63, -(2**70), 10**400, 1.5, float("nan"), float("inf"),
    float("-inf"), [], {}, [[[[[]]]]], {"a": {"b": {"c": {}}}}, "", "x" * 300_000,
]


def deeply_nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def adversarial_actions(tools: list[dict], n: int, seed: int = 0) -> Iterator[Any]:
    """``n`` actions: broken formats, wrong types, unknown tools and parameters, injection
    strings in every string parameter, huge and non-UTF-8 strings, deep nesting, huge
    numbers, NaN and infinities."""
    rng = np.random.default_rng(seed)
    names = [t["function"]["name"] for t in tools]

    def pick(seq):
        return seq[int(rng.integers(len(seq)))]

    def string_value() -> str:
        return pick(INJECTIONS) if rng.random() < 0.7 else str(pick(WEIRD_VALUES))[:200]

    for i in range(n):
        kind = i % 12
        schema = pick(tools)["function"]
        props = schema["parameters"]["properties"]
        if kind == 0:  # injection strings in every string parameter
            args = {k: (string_value() if v.get("type") == "string" else
                        [string_value()] if v.get("type") == "array" else pick(WEIRD_VALUES))
                    for k, v in props.items()}
            yield "<tool_call>" + json.dumps({"name": schema["name"], "arguments": args}) + "</tool_call>"
        elif kind == 1:  # wrong types everywhere
            args = {k: pick(WEIRD_VALUES) for k in props}
            yield {"name": schema["name"], "arguments": args}
        elif kind == 2:  # unknown tool / unknown parameters
            yield json.dumps({"name": pick(names) + "_x" if rng.random() < 0.5 else pick(names),
                              "arguments": {"zzz": 1, **{k: "a" for k in props}}})
        elif kind == 3:  # broken JSON
            text = json.dumps({"name": schema["name"], "arguments": {k: "v" for k in props}})
            cut = int(rng.integers(1, len(text)))
            yield "<tool_call>" + text[:cut] + "</tool_call>"
        elif kind == 4:  # deeply nested JSON
            yield '<tool_call>{"name": "%s", "arguments": {"x": %s}}</tool_call>' % (
                schema["name"], deeply_nested(int(rng.integers(100, 5000))))
        elif kind == 5:  # non-UTF-8 bytes and lone surrogates
            yield bytes(rng.integers(0, 256, size=int(rng.integers(1, 64)), dtype=np.uint8)) \
                if rng.random() < 0.5 else "<tool_call>" + json.dumps(
                    {"name": schema["name"], "arguments": {k: "\udc80" for k in props}},
                    ensure_ascii=False) + "</tool_call>"
        elif kind == 6:  # megabyte strings
            yield "x" * int(rng.integers(100_000, 1_100_000))
        elif kind == 7:  # python syntax with non-literals
            yield pick([f"{schema['name']}(x=__import__('os').getcwd())",
                        f"{schema['name']}(*[1])", "open('/etc/passwd').read()",
                        f"{schema['name']}(a=lambda: 1)", "[f() for f in x]"])
        elif kind == 8:  # OpenAI dicts with bad arguments strings
            yield {"role": "assistant", "content": None, "tool_calls": [
                {"id": "c1", "type": "function",
                 "function": {"name": schema["name"], "arguments": pick(["{", "[]", "null", "1e999",
                                                                           json.dumps({"a": 1})])}}]}
        elif kind == 9:  # odd action types
            yield pick([12345, 3.5, None, object(), [1, 2], {"tool_calls": "x"}, ("a",), b"\xff\xfe"])
        elif kind == 10:  # control characters and prose with tags
            yield "\x1b[31m</tool_call><tool_call>\r\n\t" + string_value()[:100]
        else:  # a valid call with extreme numbers
            args = {k: (pick([10**30, -1e308, 1e-320, 0.1 + 0.2]) if v.get("type") in ("number", "integer")
                        else pick(INJECTIONS)[:50]) for k, v in props.items()}
            yield [{"name": schema["name"], "arguments": args}]
