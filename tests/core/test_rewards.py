"""Bounded shaping and the ordering of returns (``tool_gym.core.rewards`` and
``tool_gym.core.shaping``): properties over random step sequences and configs."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tool_gym.core.rewards import RewardConfig
from tool_gym.core.shaping import Shaping, call_key

PRESETS = ("cove", "sparse", "binary", "prove")
LEVELS = (0.0, 1 / 3, 2 / 3, 1.0)
EPS = 1e-9


# --------------------------------------------------------------------------- clipped sum


@settings(max_examples=200, deadline=None)
@given(cap=st.floats(0.0, 1.0), amounts=st.lists(st.floats(-2.0, 2.0), max_size=80))
def test_clipped_shaping_total_stays_within_the_cap(cap, amounts):
    ledger = Shaping(cap)
    paid = 0.0
    for amount in amounts:
        paid += ledger.add(amount)
        assert -cap - EPS <= ledger.total <= cap + EPS
        assert -cap - EPS <= paid <= cap + EPS
    assert paid == pytest.approx(ledger.total, abs=EPS)  # the step rewards telescope


def test_clipped_sum_pays_the_change():
    ledger = Shaping(0.2)
    assert ledger.add(0.15) == pytest.approx(0.15)
    assert ledger.add(0.15) == pytest.approx(0.05)  # clipped at 0.2
    assert ledger.add(0.1) == 0.0
    assert ledger.add(-0.5) == pytest.approx(-0.4)  # down to -0.2
    assert ledger.add(0.1) == pytest.approx(0.1)   # a new gain counts again
    assert ledger.total == pytest.approx(-0.1)
    with pytest.raises(ValueError):
        Shaping(-0.1)


# --------------------------------------------------------------------------- crediting

CALL = st.tuples(
    st.sampled_from(["get_user", "get_order", "cancel_order"]),        # name
    st.sampled_from([{}, {"id": "a"}, {"id": "b"}, {"id": 1}]),        # arguments
    st.sampled_from(LEVELS),                                           # validity
    st.booleans(),                                                     # is_write
    st.booleans(),                                                     # ok
    st.booleans(),                                                     # changed
    st.sampled_from(["{}", '{"x": 1}', "Error: not found", "done"]),   # result text
)


@settings(max_examples=200, deadline=None)
@given(calls=st.lists(CALL, max_size=60))
def test_each_distinct_call_is_credited_at_most_once(calls):
    ledger = Shaping(1.0)
    credited_keys = set()
    for name, arguments, validity, is_write, ok, changed, content in calls:
        key = call_key(name, arguments)
        credit = ledger.credit(name, arguments, validity, is_write, ok, changed, content)
        assert 0.0 <= credit <= validity
        if credit > 0:
            assert key not in credited_keys
            credited_keys.add(key)
    # so the credited sum is bounded by the number of distinct calls, not by their length
    assert len(credited_keys) <= len({call_key(c[0], c[1]) for c in calls})


def test_credit_rules():
    s = Shaping(1.0)
    # a read is credited once per key, and not at all when its result was seen before
    assert s.credit("get", {"id": "a", "x": 1}, 1.0, False, True, False, "A") == 1.0
    assert s.credit("get", {"x": 1, "id": "a"}, 1.0, False, True, False, "A2") == 0.0
    assert s.credit("get", {"id": "b"}, 1.0, False, True, False, "A") == 0.0
    assert s.credit("get", {"id": "c"}, 2 / 3, False, False, False, "Error: no c") == 2 / 3
    assert s.credit("get", {"id": "d"}, 2 / 3, False, False, False, "Error: no c") == 0.0
    # a write earns when it succeeded and changed the database
    assert s.credit("cancel", {"id": "a"}, 1.0, True, True, True, "ok a") == 1.0
    assert s.credit("cancel", {"id": "a"}, 1.0, True, True, True, "ok a'") == 0.0
    assert s.credit("cancel", {"id": "b"}, 1.0, True, True, False, "ok b") == 0.0
    # a failed write: the first time for its key only, whatever its message
    assert s.credit("cancel", {"id": "z"}, 2 / 3, True, False, False, "Error: x") == 2 / 3
    assert s.credit("cancel", {"id": "z"}, 2 / 3, True, False, False, "Error: y") == 0.0
    assert s.credit("cancel", {"id": "y"}, 2 / 3, True, False, False, "Error: x") == 2 / 3


def test_call_key_is_canonical_and_never_raises():
    assert call_key("f", {"a": 1, "b": [1, 2]}) == call_key("f", {"b": [1, 2], "a": 1})
    assert call_key("f", {"a": 1}) != call_key("g", {"a": 1})
    assert call_key("f", {"a": "1"}) != call_key("f", {"a": 1})
    for odd in ({"a": 10 ** 5000}, {"a": {1, 2}}, {1: "x", "b": 2}, {"a": "\ud800"}):
        assert isinstance(call_key("f", odd), bytes)


# --------------------------------------------------------------------------- configs


@pytest.mark.parametrize("fields", [
    {"shaping_cap": 0.25},                                  # = 1 * (1 - 0.5) / 2
    {"shaping_cap": 0.3, "partial": 0.5},
    {"terminal": "success", "shaping_cap": 0.5},            # = 1 * (1 - 0) / 2
    {"terminal_weight": 2.0, "partial": 0.8, "shaping_cap": 0.2},
    {"partial": 1.0, "shaping_cap": 0.0},
    {"terminal_weight": 0.0},
    {"terminal_weight": -1.0},
    {"error_penalty": 0.1},
    {"validity_weight": -0.1},
    {"shaping_cap": -0.1},
    {"shaping_cap": float("nan")},
    {"terminal_weight": float("inf")},
])
def test_configs_that_could_misorder_returns_are_rejected(fields):
    with pytest.raises(ValueError):
        RewardConfig(**fields)


def test_default_cap_follows_the_terminal_weight():
    assert RewardConfig().shaping_cap == pytest.approx(0.2)
    assert RewardConfig(terminal_weight=3.0).shaping_cap == pytest.approx(0.6)
    with pytest.raises(ValueError):  # default cap 0.2 >= 1 * (1 - 0.7) / 2
        RewardConfig(partial=0.7)
    assert [RewardConfig.named(p).shaping_cap for p in PRESETS] == [0.2, 0.0, 0.0, 0.0]


def _final(config: RewardConfig, success: bool, q: float) -> float:
    return config.final(success, q, q if config.terminal == "prove" else None)


QUALITIES = (0.0, 0.25, 0.5, 0.999999, 1.0)


def _extremes(config: RewardConfig) -> tuple[float, float]:
    """(lowest return of a success, highest return of a failure) over every shaping
    total in [-cap, cap] and qualities across [0, 1]."""
    cap = config.shaping_cap
    low = -cap + min(_final(config, True, q) for q in QUALITIES)
    high = cap + max(_final(config, False, q) for q in QUALITIES)
    return low, high


@pytest.mark.parametrize("preset", PRESETS)
def test_every_preset_orders_returns(preset):
    low, high = _extremes(RewardConfig.named(preset))
    assert high < low


@settings(max_examples=300, deadline=None)
@given(w=st.floats(0.01, 10.0), partial=st.floats(0.0, 0.999),
       cap=st.floats(0.0, 10.0), terminal=st.sampled_from(["score", "success", "prove"]),
       validity_weight=st.floats(0.0, 5.0), error_penalty=st.floats(-5.0, 0.0),
       steps=st.lists(st.floats(-5.0, 5.0), max_size=30))
def test_every_accepted_config_orders_returns(w, partial, cap, terminal, validity_weight,
                                              error_penalty, steps):
    try:
        config = RewardConfig(validity_weight=validity_weight, terminal=terminal,
                              terminal_weight=w, partial=partial, shaping_cap=cap,
                              error_penalty=error_penalty)
    except ValueError:
        assert cap >= w * (1 - (0.0 if terminal == "success" else partial)) / 2
        return
    low, high = _extremes(config)
    assert high < low
    # a concrete failing episode with any shaping sequence stays below the worst success
    ledger = Shaping(config.shaping_cap)
    failure = sum(ledger.add(x) for x in steps) + _final(config, False, 1.0)
    assert failure < low
