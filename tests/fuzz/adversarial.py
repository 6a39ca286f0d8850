"""Generators of malformed and adversarial agent actions, shared by the fuzz tests and the
long fuzz benchmark (``benchmarks/fuzz.py``).

- ``adversarial_actions(tools, n, seed)``: raw actions for ``env.step`` (every format the
  parser accepts, broken in every way listed in the docstring);
- ``adversarial_calls(tools, values, n, seed)``: ``(name, arguments)`` pairs for
  ``Sandbox.call``, every parameter drawn from real database values (so that writes do
  happen), schema-valid random values, or adversarial values;
- ``mixed_actions(tools, values, n, seed)``: both, plus realistic calls rendered in every
  action format, for the long fuzz mode.
"""

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


#: JSON texts that Python's ``json`` reads into values no tool expects (or cannot read).
EXTREME_JSON = [
    "NaN", "Infinity", "-Infinity", "1e999", "-1e999", "1" * 5000, "-" + "9" * 4301,
    "9223372036854775808", "-9223372036854775809", "1e-400", "-0.0", '"\\ud800"',
    '"\\udfff\\ud800"', '"\\u0000"', '"\\u001b[2J\\u0007"', '"\\u202e"', "true", "null",
    "[" * 40 + "]" * 40, '{"a": ' * 40 + "1" + "}" * 40,
]
CONTROL = "".join(chr(c) for c in range(32)) + "\x7f\x85\u2028\u2029"


def deeply_nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def nested_value(depth: int) -> Any:
    """A Python list nested ``depth`` levels deep."""
    value: Any = []
    for _ in range(depth):
        value = [value]
    return value


#: Number of kinds of :func:`adversarial_action`.
KINDS = 14


def adversarial_actions(tools: list[dict], n: int, seed: int = 0) -> Iterator[Any]:
    """``n`` actions, cycling through the kinds of :func:`adversarial_action`."""
    rng = np.random.default_rng(seed)
    for i in range(n):
        yield adversarial_action(tools, i % KINDS, rng)


def adversarial_action(tools: list[dict], kind: int, rng: np.random.Generator) -> Any:
    """One action of ``kind`` (0 to ``KINDS - 1``): injection strings in every string
    parameter, wrong types, unknown tools and parameters, broken JSON, deep nesting,
    non-UTF-8 bytes and lone surrogates, megabyte strings, Python syntax with non-literals,
    OpenAI dicts with bad argument strings, odd action types, control characters, extreme
    numbers, JSON text with NaN / infinities / huge integers / escaped surrogates, and
    control characters inside names and keys."""
    names = [t["function"]["name"] for t in tools]

    def pick(seq):
        return seq[int(rng.integers(len(seq)))]

    def string_value() -> str:
        return pick(INJECTIONS) if rng.random() < 0.7 else str(pick(WEIRD_VALUES))[:200]

    schema = pick(tools)["function"]
    props = schema["parameters"]["properties"]
    if kind == 0:  # injection strings in every string parameter
        args = {k: (string_value() if v.get("type") == "string" else
                    [string_value()] if v.get("type") == "array" else pick(WEIRD_VALUES))
                for k, v in props.items()}
        return "<tool_call>" + json.dumps({"name": schema["name"], "arguments": args}) + "</tool_call>"
    if kind == 1:  # wrong types everywhere
        return {"name": schema["name"], "arguments": {k: pick(WEIRD_VALUES) for k in props}}
    if kind == 2:  # unknown tool / unknown parameters
        return json.dumps({"name": pick(names) + "_x" if rng.random() < 0.5 else pick(names),
                           "arguments": {"zzz": 1, **{k: "a" for k in props}}})
    if kind == 3:  # broken JSON
        text = json.dumps({"name": schema["name"], "arguments": {k: "v" for k in props}})
        cut = int(rng.integers(1, len(text)))
        return "<tool_call>" + text[:cut] + "</tool_call>"
    if kind == 4:  # deeply nested JSON
        return '<tool_call>{"name": "%s", "arguments": {"x": %s}}</tool_call>' % (
            schema["name"], deeply_nested(int(rng.integers(100, 5000))))
    if kind == 5:  # non-UTF-8 bytes and lone surrogates
        if rng.random() < 0.5:
            return bytes(rng.integers(0, 256, size=int(rng.integers(1, 64)), dtype=np.uint8))
        return "<tool_call>" + json.dumps({"name": schema["name"], "arguments": {
            k: "\udc80" for k in props}}, ensure_ascii=False) + "</tool_call>"
    if kind == 6:  # megabyte strings
        return "x" * int(rng.integers(100_000, 1_100_000))
    if kind == 7:  # python syntax with non-literals
        return pick([f"{schema['name']}(x=__import__('os').getcwd())",
                     f"{schema['name']}(*[1])", "open('/etc/passwd').read()",
                     f"{schema['name']}(a=lambda: 1)", "[f() for f in x]"])
    if kind == 8:  # OpenAI dicts with bad arguments strings
        return {"role": "assistant", "content": None, "tool_calls": [
            {"id": "c1", "type": "function",
             "function": {"name": schema["name"], "arguments": pick(
                 ["{", "[]", "null", "1e999", json.dumps({"a": 1})])}}]}
    if kind == 9:  # odd action types
        return pick([12345, 3.5, None, object(), [1, 2], {"tool_calls": "x"}, ("a",), b"\xff\xfe"])
    if kind == 10:  # control characters and prose with tags
        return "\x1b[31m</tool_call><tool_call>\r\n\t" + string_value()[:100]
    if kind == 11:  # a valid call with extreme numbers
        args = {k: (pick([10**30, -1e308, 1e-320, 0.1 + 0.2]) if v.get("type") in ("number", "integer")
                    else pick(INJECTIONS)[:50]) for k, v in props.items()}
        return [{"name": schema["name"], "arguments": args}]
    if kind == 12:  # JSON text with NaN, infinities, huge integers, escaped surrogates
        body = ", ".join(f'"{k}": {pick(EXTREME_JSON)}' for k in props) or \
            f'"x": {pick(EXTREME_JSON)}'
        text = '{"name": "%s", "arguments": {%s}}' % (schema["name"], body)
        return pick([f"<tool_call>{text}</tool_call>", text, f"[{text}]"])
    # control characters inside names, keys and values
    junk = "".join(pick(CONTROL) for _ in range(int(rng.integers(1, 8))))
    name = schema["name"] if rng.random() < 0.5 else schema["name"] + junk
    args = {(k + junk if rng.random() < 0.2 else k): junk + str(k) for k in props}
    return pick([{"name": name, "arguments": args},
                 "<tool_call>" + json.dumps({"name": name, "arguments": args}) + "</tool_call>",
                 junk + "<tool_call>" + junk + "</tool_call>" + junk])


def adversarial_value(rng: np.random.Generator) -> Any:
    """One value of any JSON type, or none, chosen to break a tool."""
    roll = int(rng.integers(9))
    if roll == 0:
        return INJECTIONS[int(rng.integers(len(INJECTIONS)))]
    if roll == 1:
        return WEIRD_VALUES[int(rng.integers(len(WEIRD_VALUES)))]
    if roll == 2:  # lone surrogates and control characters in otherwise normal text
        return "ab" + chr(int(rng.integers(0xD800, 0xE000))) + CONTROL[int(rng.integers(len(CONTROL)))]
    if roll == 3:
        return int(rng.choice([2**63 - 1, 2**63, -(2**63), -(2**63) - 1, 10**100, -(10**5000)]))
    if roll == 4:
        return float(rng.choice([float("nan"), float("inf"), -float("inf"), 1e308, -0.0, 5e-324]))
    if roll == 5:
        return nested_value(int(rng.integers(20, 200)))
    if roll == 6:
        return {"$gt": "", "__proto__": {"admin": True}, "'; --": [None]}
    if roll == 7:
        return "x" * int(rng.choice([99_999, 100_000, 100_001, 1_048_576]))
    return str(rng.integers(-5, 10**9)) + "'"


def _schema_value(schema: dict, rng: np.random.Generator) -> Any:
    """A value of the declared type (enums honoured), random otherwise."""
    if schema.get("enum"):
        return schema["enum"][int(rng.integers(len(schema["enum"])))]
    kind = schema.get("type")
    if kind == "integer":
        return int(rng.integers(-3, 20))
    if kind == "number":
        return float(np.round(rng.uniform(-50, 2000), 2))
    if kind == "boolean":
        return bool(rng.random() < 0.5)
    if kind == "array":
        return [_schema_value(schema.get("items") or {"type": "string"}, rng)
                for _ in range(int(rng.integers(0, 4)))]
    if kind == "object":
        return {}
    return "".join(rng.choice(list("abcxyz0123#@_ "), size=int(rng.integers(0, 12))))


def _real_value(name: str, schema: dict, values: dict, rng: np.random.Generator) -> Any:
    pool = values.get(name) or values.get(name.rstrip("s"))
    if not pool:
        return _schema_value(schema, rng)
    if schema.get("type") == "array":
        return [pool[int(rng.integers(len(pool)))] for _ in range(int(rng.integers(1, 4)))]
    return pool[int(rng.integers(len(pool)))]


def adversarial_calls(tools: list[dict], values: dict | None, n: int,
                      seed: int = 0) -> Iterator[tuple[Any, Any]]:
    """``n`` ``(name, arguments)`` pairs for ``Sandbox.call``.

    Each parameter of the chosen tool gets a real value from the database (``values``, as
    from ``tool_gym.envs.spaces.sample_values``; so some writes succeed), a value of the
    declared type, or an adversarial value; sometimes a required parameter is dropped,
    an unknown one added, the name mangled or the arguments not a dict at all.
    """
    rng = np.random.default_rng(seed)
    values = values or {}
    functions = [t.get("function", t) for t in tools]
    for _ in range(n):
        schema = functions[int(rng.integers(len(functions)))]
        props = schema["parameters"]["properties"]
        mode = rng.random()  # how hostile this call is
        args: Any = {}
        for key, spec in props.items():
            roll = rng.random()
            if roll < 0.1:
                continue  # missing (an error when required)
            if roll < 0.1 + 0.8 * (1 - mode):
                args[key] = _real_value(key, spec, values, rng)
            elif roll < 0.9:
                args[key] = _schema_value(spec, rng)
            else:
                args[key] = adversarial_value(rng)
        roll = rng.random()
        if roll < 0.05:
            args[INJECTIONS[int(rng.integers(len(INJECTIONS)))][:50] + "_"] = 1  # unknown parameter
        elif roll < 0.08:
            args = [args] if rng.random() < 0.5 else adversarial_value(rng)  # not an object
        name: Any = schema["name"]
        roll = rng.random()
        if roll < 0.04:
            name = name + pick_char(rng)
        elif roll < 0.06:
            name = adversarial_value(rng)
        yield name, args


def pick_char(rng: np.random.Generator) -> str:
    return str(rng.choice(["_x", "\x00", "\ud800", "'", " ", "(", CONTROL[int(rng.integers(len(CONTROL)))]]))


#: Number of styles of :func:`render_call`.
STYLES = 6


def render_call(name: Any, arguments: Any, style: int) -> Any:
    """A call as one of the action formats, by ``style``: Hermes text, bare JSON, a list,
    a dict, an OpenAI message, Python syntax. Values JSON cannot hold come out as their
    text (``default=str``); a structure ``json`` cannot encode is sent as a dict."""
    call = {"name": name, "arguments": arguments}
    try:
        if style == 0:
            return "<tool_call>" + json.dumps(call, default=str) + "</tool_call>"
        if style == 1:
            return json.dumps(call, ensure_ascii=False, default=str)
        if style == 2:
            return [call]
        if style == 3:
            return call
        if style == 4:
            return {"role": "assistant", "content": None, "tool_calls": [
                {"id": "c", "type": "function",
                 "function": {"name": name, "arguments": json.dumps(arguments, default=str)}}]}
        if isinstance(arguments, dict):
            body = ", ".join(f"{k}={v!r}" for k, v in arguments.items() if isinstance(k, str))
            return f"{name}({body})"
        return f"{name}({arguments!r})"
    except (ValueError, RecursionError):  # too deep or too big an integer for text: as is
        return call


def mixed_actions(tools: list[dict], values: dict | None, n: int,
                  seed: int = 0) -> Iterator[Any]:
    """``n`` actions: half from :func:`adversarial_actions`, half :func:`adversarial_calls`
    rendered by :func:`render_call`, with a few plain and hostile messages to the user."""
    rng = np.random.default_rng([seed, 1])
    raw = adversarial_actions(tools, n, seed)
    calls = adversarial_calls(tools, values, n, seed)
    messages = ["Hello", "yes", "Yes, please go ahead.", "no", "\x00\ud800", "'; DROP TABLE users; --",
                "###STOP###", "x" * 200_000, ""]
    for _ in range(n):
        roll = rng.random()
        if roll < 0.45:
            yield next(raw)
        elif roll < 0.92:
            yield render_call(*next(calls), int(rng.integers(STYLES)))
        else:
            yield messages[int(rng.integers(len(messages)))]


# ------------------------------------------------------------------ env helpers
# Registered ids are of several env classes: the multi-turn ``ToolEnv`` (one episode
# database, ``env.sandbox``) and the single-turn ``FunctionCallEnv`` (a sandbox per domain
# for executable calls). The fuzzers treat them alike through these helpers.


def make_env(env_id: str, **kwargs: Any):
    """``gym.make(env_id, **kwargs)``, dropping the kwargs its env class does not take."""
    import inspect

    import gymnasium as gym
    from gymnasium.envs.registration import load_env_creator

    entry_point = gym.spec(env_id).entry_point
    creator = load_env_creator(entry_point) if isinstance(entry_point, str) else entry_point
    accepted = inspect.signature(creator).parameters
    return gym.make(env_id, **{k: v for k, v in kwargs.items() if k in accepted})


def env_sandboxes(env) -> list:
    """The live sandboxes of an env: its episode database, or the per-domain sandboxes a
    single-turn env runs executable calls on."""
    base = env.unwrapped
    box = getattr(base, "sandbox", None)
    if box is not None:
        return [box]
    return list(getattr(base, "_boxes", {}).values())


def is_error_observation(observation: str) -> bool:
    """``Error: ...`` (a failed call or unparseable action of a multi-turn env; several
    results are joined by newlines) or ``Incorrect: ...`` (a single-turn env's verdict)."""
    return (observation.startswith("Error: ") or "\nError: " in observation
            or observation.startswith("Incorrect: "))


class IntegrityChecks:
    """``check_integrity()`` of sandboxes, skipped while a database is unchanged since its
    last check (SQLite's ``total_changes`` of the connection, which only grows, and the
    schema version); ``problems`` returns what the checks found."""

    def __init__(self) -> None:
        import weakref

        self._seen: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()
        self.runs = 0

    def problems(self, boxes, force: bool = False) -> list[str]:
        found: list[str] = []
        for box in boxes:
            key = (id(box.db), box.db.total_changes,
                   box.db.execute("PRAGMA schema_version").fetchone()[0])
            if force or self._seen.get(box) != key:
                self.runs += 1
                found += box.check_integrity()
                self._seen[box] = key
        return found
