"""Fuzzing of every registered env id and of every domain's sandbox.

Hypothesis builds tool calls from each tool's schema with, in every parameter, a real
value of the database (so that writes do happen), a value of the declared type, or an
adversarial one (SQL injection strings, megabyte strings, lone surrogates and control
characters, deeply nested structures, huge integers, NaN and infinities), sends them in
every action format, and mixes in malformed JSON, unknown tools and parameters and odd
action types; the seeded generator of ``adversarial.py`` adds volume. Whatever comes in:

- no exception escapes ``env.step`` or ``Sandbox.call``;
- every failure is an observation: ``Error: ...`` for a failed call or an unparseable
  action of a multi-turn env (``ToolEnv``), a verdict (``Incorrect: ...``) for a
  single-turn one (``ToolCall-*``); every observation is a text of the space;
- after every episode each sandbox of the env passes ``check_integrity()`` (SQLite's
  integrity and foreign-key checks plus the domain's invariants: non-negative balances,
  legal statuses, ...); the check is skipped for a database that did not change since it
  last passed (SQLite's ``total_changes`` and schema version);
- the templates never change (sha256 digests), so a fresh sandbox has the state hash
  of the start.

Short by default: ``TOOL_GYM_FUZZ_N`` (default 1000) actions in each of the four tests
per id or domain, so a few thousand per domain. The long mode is ``benchmarks/fuzz.py``.
"""
from __future__ import annotations

import importlib.util
import json
import math
import os
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

import tool_gym
from tool_gym.domains import domain_names, get_domain
from tool_gym.core.tools import Category, ToolResult
from tool_gym.envs.spaces import sample_values

from .adversarial import (CONTROL, EXTREME_JSON, INJECTIONS, KINDS, STYLES, WEIRD_VALUES,
                          IntegrityChecks, adversarial_action, adversarial_calls, env_sandboxes,
                          is_error_observation, make_env, mixed_actions, nested_value,
                          render_call)

N = int(os.environ.get("TOOL_GYM_FUZZ_N", "1000"))
PER_EXAMPLE = 40  # actions per hypothesis example (about one episode)
EXAMPLES = max(1, N // PER_EXAMPLE)

SETTINGS = settings(max_examples=EXAMPLES, deadline=None, database=None, derandomize=True,
                    phases=(Phase.explicit, Phase.generate, Phase.shrink),
                    suppress_health_check=list(HealthCheck))

# ------------------------------------------------------------------ strategies

BIG = ["x" * 100_001, "é" * 1_048_576, "'; DROP TABLE users; --" * 50_000]
ODD_ACTIONS = [None, 0, 1.5, float("nan"), b"\xff\xfe", bytearray(b"{}"), object(), [1, 2],
               ("a",), {"tool_calls": "x"}, {"name": None}, {"name": 1, "arguments": 1},
               {"role": "assistant", "tool_calls": [None]}, [[]], {}]

any_char = st.characters(exclude_categories=())  # surrogates and control characters too
scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(),
                    st.text(any_char, max_size=20))
adversarial = st.one_of(
    st.sampled_from(INJECTIONS),
    st.sampled_from(WEIRD_VALUES),
    st.text(any_char, max_size=40),
    st.text(st.sampled_from(CONTROL), min_size=1, max_size=10),
    st.integers(),
    st.sampled_from([2**63 - 1, 2**63, -(2**63) - 1, 10**100, -(10**4400)]),
    st.floats(),  # NaN and infinities included
    st.recursive(scalars, lambda inner: st.lists(inner, max_size=3)
                 | st.dictionaries(st.text(any_char, max_size=5), inner, max_size=3),
                 max_leaves=12),
    st.integers(20, 300).map(nested_value),
)  # megabyte strings: in INJECTIONS and WEIRD_VALUES, and as whole actions


def typed(schema: dict) -> st.SearchStrategy:
    """Values of the declared JSON type (enums honoured)."""
    if schema.get("enum"):
        return st.sampled_from(schema["enum"])
    kind = schema.get("type")
    if kind == "integer":
        return st.integers(-5, 50)
    if kind == "number":
        return st.floats(-100, 5000, allow_nan=False)
    if kind == "boolean":
        return st.booleans()
    if kind == "array":
        return st.lists(typed(schema.get("items") or {"type": "string"}), max_size=3)
    if kind == "object":
        return st.dictionaries(st.text(max_size=5), scalars, max_size=3)
    return st.text(max_size=15)


def parameter(name: str, schema: dict, values: dict) -> st.SearchStrategy:
    pool = values.get(name) or values.get(name.rstrip("s"))
    branches = [typed(schema), adversarial]
    if pool:
        real = st.sampled_from(pool)
        if schema.get("type") == "array":
            real = st.lists(real, min_size=1, max_size=3)
        branches = [real, real, *branches]
    return st.one_of(branches)


def tool_calls(tools: list[dict], values: dict) -> st.SearchStrategy:
    """``(name, arguments)`` built from the tools' schemas."""

    def one_tool(function: dict) -> st.SearchStrategy:
        props = function["parameters"]["properties"]
        required = set(function["parameters"].get("required", ()))
        strategies = {k: parameter(k, v, values) for k, v in props.items()}
        arguments = st.one_of(
            st.fixed_dictionaries({k: s for k, s in strategies.items() if k in required},
                                  optional={k: s for k, s in strategies.items()
                                            if k not in required}),
            st.fixed_dictionaries({}, optional=strategies),  # required ones may be missing
            st.builds(lambda a, k, v: {**a, k: v}, st.fixed_dictionaries(strategies),
                      st.text(any_char, max_size=10), adversarial),  # an unknown parameter
            adversarial,  # not an object at all
        )
        name = st.one_of(st.just(function["name"]), st.just(function["name"]), st.just(function["name"]),
                         st.text(any_char, max_size=12).map(lambda s: function["name"] + s),
                         adversarial)
        return st.tuples(name, arguments)

    return st.one_of([one_tool(t.get("function", t)) for t in tools])


def actions(tools: list[dict], values: dict, space) -> st.SearchStrategy:
    """Raw actions for ``env.step``, in every format, broken in every way."""
    calls = tool_calls(tools, values)

    def cut(pair, fraction):
        text = render_call(*pair, 0)
        return text[: int(len(text) * fraction)] if isinstance(text, str) else text

    def sample(seed):
        space.seed(seed)
        return space.sample()

    def several(pairs):  # Hermes blocks on separate lines (or the first call as is)
        parts = [render_call(n, a, 0) for n, a in pairs]
        return "\n".join(p for p in parts if isinstance(p, str)) or parts[0]

    return st.one_of(
        st.builds(lambda pair, style: render_call(*pair, style), calls,
                  st.integers(0, STYLES - 1)),
        st.lists(calls, min_size=2, max_size=4).map(several),
        st.builds(cut, calls, st.floats(0, 1)),
        st.builds(lambda kind, seed: adversarial_action(tools, kind, np.random.default_rng(seed)),
                  st.integers(0, KINDS - 1), st.integers(0, 2**32 - 1)),
        st.builds(lambda name, value: '<tool_call>{"name": "%s", "arguments": {"x": %s}}'
                  '</tool_call>' % (name, value),
                  st.sampled_from([t["function"]["name"] for t in tools]),
                  st.sampled_from(EXTREME_JSON)),
        st.integers(0, 2**32 - 1).map(sample),  # realistic calls, messages, broken text
        st.text(any_char, max_size=60),  # messages to the user
        st.sampled_from(BIG),
        st.sampled_from(ODD_ACTIONS),
    )


def real_values(template) -> dict:
    names = sorted({p for t in template.domain.toolbox for p in t.parameters["properties"]})
    return sample_values(template.reader(), names)


# ------------------------------------------------------------------ checks


class Watch:
    """Checks the env of one id after each step and each episode, whatever its class."""

    def __init__(self, env):
        self.env = env
        self.templates: dict[int, tuple] = {}  # id -> (template, digest at first sight)
        self.stats = Counter()
        self.integrity = IntegrityChecks()
        self._see()

    def _see(self) -> None:
        for box in env_sandboxes(self.env):
            if id(box.template) not in self.templates:
                self.templates[id(box.template)] = (box.template, box.template.digest)

    def step(self, action) -> bool:
        """Step, check the result; true when the episode ended (then checked too)."""
        observation, reward, terminated, truncated, info = self.env.step(action)
        self.stats["actions"] += 1
        assert isinstance(observation, str) and self.env.observation_space.contains(observation)
        assert isinstance(reward, float) and math.isfinite(reward)
        assert isinstance(terminated, bool) and isinstance(truncated, bool)
        validity = info.get("validity")  # multi-turn envs: graded validity of the calls
        if validity is not None and validity < 1 and not observation.endswith("[truncated]"):
            assert observation.startswith("Error: ") or "\nError: " in observation, \
                observation[:300]
        self.stats["errors"] += is_error_observation(observation)
        if terminated or truncated:
            self.stats["episodes"] += 1
            self.check()
        return terminated or truncated

    def check(self, force: bool = False) -> None:
        """Integrity of every sandbox of the env whose database changed since its last
        check (``force``: all of them)."""
        self._see()
        problems = self.integrity.problems(env_sandboxes(self.env), force)
        assert problems == [], problems

    def templates_unchanged(self) -> bool:
        return all(t.digest == digest for t, digest in self.templates.values())


def assert_consistent(box) -> None:
    problems = box.check_integrity()
    assert problems == [], problems


# ------------------------------------------------------------------ env ids

# Where the env class takes them: a higher error limit than the default 10 (longer
# episodes, each ending with a full integrity check of 10 to 50 ms), and tasks drawn from
# a fixed set of synthesized ones (single-turn envs synthesize a task per episode, ~12 ms,
# else; the fuzzing is of the step, not of the synthesizer).
ENV_KWARGS = {"max_errors": PER_EXAMPLE + 10, "n_tasks": 64}


@pytest.mark.parametrize("env_id", tool_gym.ENV_IDS)
def test_hypothesis_actions_through_the_env(env_id):
    env = make_env(env_id, **ENV_KWARGS)
    _, info = env.reset(seed=0)
    watch = Watch(env)
    values = getattr(env.unwrapped.action_space, "values", {})  # real database values
    strategy = actions(info["tools"], values, env.unwrapped.action_space)

    @SETTINGS
    @given(seed=st.integers(0, 2**31 - 1), data=st.data())
    def episodes(seed, data):
        env.reset(seed=seed)
        for k in range(PER_EXAMPLE):
            if watch.step(data.draw(strategy, label="action")):
                env.reset(seed=seed + k + 1)
        watch.check()

    episodes()
    watch.check(force=True)
    assert watch.stats["actions"] >= EXAMPLES * PER_EXAMPLE
    assert watch.templates_unchanged()


@pytest.mark.parametrize("env_id", tool_gym.ENV_IDS)
def test_generated_actions_through_the_env(env_id):
    """The seeded generator: adversarial actions and schema-built calls, N of them."""
    env = make_env(env_id, **dict(ENV_KWARGS, max_errors=40))
    _, info = env.reset(seed=0)
    watch = Watch(env)
    values = getattr(env.unwrapped.action_space, "values", {})
    for i, action in enumerate(mixed_actions(info["tools"], values, N, seed=7)):
        if watch.step(action):
            _, info = env.reset(seed=i)
    watch.check(force=True)
    assert watch.templates_unchanged()
    assert watch.stats["episodes"] > 0 and watch.stats["errors"] > 0


# ------------------------------------------------------------------ sandboxes


def write_tools(domain) -> set:
    return {t.name for t in domain.toolbox if t.category is Category.WRITE}


@pytest.mark.parametrize("domain", sorted(domain_names()))
def test_hypothesis_calls_into_the_sandbox(domain):
    box = tool_gym.sandbox(domain)
    digest = box.template.digest
    start = box.state_hash()
    writes = write_tools(get_domain(domain))
    strategy = tool_calls(box.tools, real_values(box.template))
    stats = Counter()
    integrity = IntegrityChecks()

    @SETTINGS
    @given(data=st.data())
    def episode(data):
        box.reset()
        for _ in range(PER_EXAMPLE):
            name, arguments = data.draw(strategy, label="call")
            result = box.call(name, arguments)
            assert isinstance(result, ToolResult) and isinstance(result.content, str)
            assert result.ok or result.content.startswith("Error: "), result
            stats["calls"] += 1
            stats["ok writes"] += result.ok and name in writes
        problems = integrity.problems([box])  # when the database changed
        assert problems == [], problems

    episode()
    assert stats["calls"] >= EXAMPLES * PER_EXAMPLE
    box.reset()
    assert box.state_hash() == start
    assert box.template.digest == digest


@pytest.mark.parametrize("domain", sorted(domain_names()))
def test_generated_calls_into_the_sandbox(domain):
    """N seeded calls in episodes of 50; some writes succeed, none breaks a rule."""
    box = tool_gym.sandbox(domain)
    digest = box.template.digest
    start = box.state_hash()
    writes = write_tools(get_domain(domain))
    ok_writes = 0
    for i, (name, arguments) in enumerate(adversarial_calls(
            box.tools, real_values(box.template), N, seed=11)):
        result = box.call(name, arguments)
        assert isinstance(result.content, str)
        assert result.ok or result.content.startswith("Error: "), result
        ok_writes += result.ok and name in writes
        if i % 50 == 49:
            assert_consistent(box)
            box.reset()
    assert_consistent(box)
    assert ok_writes > 0  # the invariants were checked after real writes
    box.reset()
    assert box.state_hash() == start
    assert box.template.digest == digest


# ------------------------------------------------------------------ long mode script


def test_long_mode_script(tmp_path):
    """``benchmarks/fuzz.py`` at a tiny N: every id and domain, counts, JSON report."""
    path = Path(__file__).resolve().parents[2] / "benchmarks" / "fuzz.py"
    spec = importlib.util.spec_from_file_location("benchmark_fuzz", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    out = tmp_path / "fuzz.json"
    # one id per env class and one domain: the script's plumbing, not more fuzzing
    env_ids = list({entry: env_id for env_id, entry, *_ in
                    reversed(tool_gym.ENVIRONMENTS)}.values())[::-1]
    domain = sorted(domain_names())[0]
    report = module.main(["--n", "120", "--sandbox-episode", "40", "--no-progress",
                          "--out", str(out), *(f"--env={e}" for e in env_ids),
                          f"--domain={domain}"])
    saved = json.loads(out.read_text())
    assert saved == json.loads(json.dumps(report))
    rows = saved["results"]
    assert [r["target"] for r in rows] == [*env_ids, domain]
    for row in rows:
        assert row["actions"] == 120 and row["episodes"] >= 1
        assert row["error observations"] > 0 and row["actions/s"] > 0
        assert row["escaped exceptions"] == 0, row["escaped"]
        assert row["integrity failures"] == 0, row["integrity examples"]
        assert row["template unchanged"]
    assert saved["ok"] is True
