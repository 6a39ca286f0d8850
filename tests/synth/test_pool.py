"""The tool pool: every domain's tools, semantic groups, argument banks that run, isolation."""

import importlib.util

import numpy as np
import pytest

import tool_gym
from tool_gym.domains import get_domain
from tool_gym.synth.pool import (POOL_DOMAINS_V0, PoolTool, build_pool, cached_pool, isolate,
                                 kmeans, name_overlap, schema_similarity, split_identifier, tfidf)

HAS_SKLEARN = importlib.util.find_spec("sklearn") is not None
HAS_BFCL = importlib.util.find_spec("bfcl_eval") is not None


@pytest.fixture(scope="module")
def pool():
    return cached_pool()


def test_every_tool_of_every_domain(pool):
    keys = {t.key for t in pool.tools}
    for name in POOL_DOMAINS_V0:
        for t in get_domain(name).toolbox:
            assert f"{name}/{t.name}" in keys
    assert all(t.executable for t in pool.tools)
    assert sum(len(g) for g in pool.groups) == len(pool) and len(pool.groups) >= 2
    assert pool.vectors.shape[0] == len(pool)
    assert np.allclose(np.linalg.norm(pool.vectors, axis=1), 1.0)


def test_banks_hold_arguments_that_run(pool):
    usable = [t for t in pool.tools if pool.banks.get(t.key)]
    assert len(usable) >= len(pool) // 2
    rng = np.random.default_rng(0)
    for t in usable:
        arguments = pool.arguments(pool.index(t.key), rng)
        with tool_gym.sandbox(t.source, pool.db_seed) as box:
            result = box.call(t.name, arguments)
        assert result.ok, (t.key, arguments, result.content)
    assert set(pool.unusable) == {t.key for t in pool.tools if not pool.banks.get(t.key)}


def test_groups_are_deterministic_and_hold_look_alikes(pool):
    again = build_pool(seed=0, probe_attempts=4, bank_size=1)
    assert np.array_equal(again.labels, pool.labels)
    first = pool.index("retail/get_order_details")
    nearest = pool.tools[pool.neighbours(first)[0]]
    assert nearest.key != "retail/get_order_details"
    assert schema_similarity(pool.tools[first], nearest) >= 0  # a real number
    labels = kmeans(pool.vectors, 3, seed=1)
    assert np.array_equal(labels, kmeans(pool.vectors, 3, seed=1))


def test_numpy_tfidf_formula():
    texts = ["find the user by email", "find an order by its id", "book a flight"]
    vectors = tfidf(texts, backend="numpy")
    assert vectors.shape[0] == 3
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0)
    assert vectors[0] @ vectors[1] > vectors[0] @ vectors[2]


@pytest.mark.skipif(not HAS_SKLEARN, reason="scikit-learn is not installed (cluster extra)")
def test_sklearn_and_numpy_tfidf_agree(pool):
    texts = [t.text() for t in pool.tools]
    assert np.allclose(tfidf(texts, backend="sklearn"), tfidf(texts, backend="numpy"))


def test_embedder_callable_is_used():
    calls = []

    def embed(texts):
        calls.append(len(texts))
        return np.eye(len(texts))[:, :8] + 0.01

    small = build_pool(["retail"], embedder=embed, n_groups=2, probe_attempts=2, bank_size=1)
    assert calls and small.method == "embed" and len(small.groups) == 2


def test_isolation_by_name_and_by_schema():
    order = PoolTool("x/get_order_details", "get_order_details", "Get the details of an order.",
                     {"type": "object", "properties": {"order_id": {"type": "string"}},
                      "required": ["order_id"]}, "x")
    weather = PoolTool("x/weather", "weather", "Current weather in a city.",
                       {"type": "object", "properties": {"city": {"type": "string"}}}, "x")
    hypot = PoolTool("x/hypot", "hypot", "Length of the hypotenuse.",
                     {"type": "object", "properties": {"x": {"type": "integer"}}}, "x")
    evaluation = [
        {"name": "GetOrderDetails", "parameters": {"type": "dict", "properties": {}}},
        {"name": "city_weather", "description": "Current weather in a given city.",
         "parameters": {"type": "dict", "properties": {"city": {"type": "string"}}}},
        {"name": "math.hypot", "parameters": {"type": "dict", "properties": {}}},
    ]
    kept, removed = isolate([order, weather, hypot], evaluation)
    assert kept == []
    reasons = dict(removed)
    assert "name" in reasons["x/get_order_details"] and "name" in reasons["x/hypot"]
    assert "schema" in reasons["x/weather"]
    kept, _ = isolate([order, weather, hypot], evaluation[:1])
    assert [t.key for t in kept] == ["x/weather", "x/hypot"]
    assert name_overlap("math.hypot", "hypot") and not name_overlap("hypot", "hypotenuse")
    assert split_identifier("getOrder_details.v2") == "get order details v2"


def test_build_pool_excludes_an_evaluation_set():
    evaluation = [t.schema for t in get_domain("retail").toolbox]
    pool = build_pool(["retail", "airline"], exclude=evaluation, probe_attempts=2, bank_size=1)
    names = {t.name for t in pool.tools}
    assert not names & {t.name for t in get_domain("retail").toolbox}
    assert pool.removed and all(key.startswith(("retail/", "airline/")) for key, _ in pool.removed)


@pytest.mark.skipif(not HAS_BFCL, reason="bfcl-eval is not installed (optional extra)")
def test_bfcl_documents_join_as_non_executable_tools():
    from tool_gym.synth.pool import bfcl_tools

    tools = bfcl_tools("simple_python")
    assert len(tools) > 300 and not any(t.executable for t in tools)
    assert len({t.key for t in tools}) == len(tools)
    rng = np.random.default_rng(0)
    pool = build_pool(["retail"], bfcl=True, bfcl_categories="simple_python",
                      probe_attempts=2, bank_size=1)
    i = next(i for i, t in enumerate(pool.tools) if t.source == "bfcl" and t.required)
    arguments = pool.arguments(i, rng)
    assert set(pool.tools[i].required) <= set(arguments)
