import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tool_gym.core.metrics import (group_successes, pass_at_k, pass_hat_k, pass_hat_k_ci,
                                   summarize, tasks_with_at_least)


def trials(n, c):
    return [True] * c + [False] * (n - c)


def test_pass_hat_k_hand_computed():
    one = {"a": trials(4, 2)}
    assert pass_hat_k(one, 1) == pytest.approx(0.5)
    assert pass_hat_k(one, 2) == pytest.approx(1 / 6)
    assert pass_hat_k(one, 3) == 0.0
    assert pass_hat_k(one, 4) == 0.0
    # mean over tasks: (C(3,2)/C(4,2) + C(4,2)/C(4,2)) / 2 = (0.5 + 1) / 2
    two = {"a": trials(4, 3), "b": trials(4, 4)}
    assert pass_hat_k(two, 2) == pytest.approx(0.75)
    assert pass_hat_k({"a": trials(3, 0)}, 1) == 0.0
    assert pass_hat_k({"a": trials(5, 5)}, 5) == 1.0


def test_pass_at_k_hand_computed():
    one = {"a": trials(4, 2)}
    assert pass_at_k(one, 1) == pytest.approx(0.5)
    assert pass_at_k(one, 2) == pytest.approx(1 - 1 / 6)  # 1 - C(2,2)/C(4,2)
    assert pass_at_k(one, 3) == 1.0
    assert pass_at_k({"a": trials(4, 1)}, 2) == pytest.approx(0.5)  # 1 - C(3,2)/C(4,2)
    assert pass_at_k({"a": trials(4, 0)}, 4) == 0.0


def test_tasks_with_fewer_trials_are_excluded():
    data = {"a": trials(4, 2), "b": [True]}
    assert tasks_with_at_least(data, 2) == 1
    assert pass_hat_k(data, 2) == pytest.approx(1 / 6)  # only "a" counts
    assert pass_hat_k(data, 1) == pytest.approx((0.5 + 1.0) / 2)
    with pytest.raises(ValueError, match="at least k=5"):
        pass_hat_k(data, 5)
    with pytest.raises(ValueError):
        pass_hat_k({}, 1)
    for bad in (0, -1, 1.5, True):
        with pytest.raises(ValueError):
            pass_hat_k(data, bad)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 8), st.integers(0, 8)), min_size=1, max_size=12))
def test_pass_hat_k_monotone_and_bounded(shapes):
    data = {i: trials(n, min(c, n)) for i, (n, c) in enumerate(shapes)}
    n_min = min(n for n, _ in shapes)
    values = [pass_hat_k(data, k) for k in range(1, n_min + 1)]
    at = [pass_at_k(data, k) for k in range(1, n_min + 1)]
    assert all(0.0 <= v <= 1.0 for v in values + at)
    assert all(b <= a + 1e-12 for a, b in zip(values, values[1:]))
    assert all(b >= a - 1e-12 for a, b in zip(at, at[1:]))
    assert values[0] == pytest.approx(at[0])  # pass^1 == pass@1 == success rate
    assert all(h <= a + 1e-12 for h, a in zip(values, at))


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 4), min_size=1, max_size=20), st.integers(1, 4))
def test_ci_contains_point_and_is_deterministic(counts, k):
    data = {i: trials(4, c) for i, c in enumerate(counts)}
    low, high = pass_hat_k_ci(data, k, resamples=200, seed=3)
    point = pass_hat_k(data, k)
    assert 0.0 <= low <= point <= high <= 1.0
    assert (low, high) == pass_hat_k_ci(data, k, resamples=200, seed=3)


def test_ci_width_shrinks_with_more_tasks():
    small = {i: trials(4, i % 5) for i in range(10)}
    large = {i: trials(4, i % 5) for i in range(400)}
    lo_s, hi_s = pass_hat_k_ci(small, 1)
    lo_l, hi_l = pass_hat_k_ci(large, 1)
    assert hi_l - lo_l < hi_s - lo_s
    assert lo_l < pass_hat_k(large, 1) < hi_l
    with pytest.raises(ValueError):
        pass_hat_k_ci(small, 1, confidence=1.5)


def episode(task, success, types=("cancel",), satisfied=None, **extra):
    satisfied = [success] * len(types) if satisfied is None else satisfied
    record = {"task_id": task, "success": success, "score": 1.0 if success else 0.25,
              "turns": 6, "tool_calls": 3, "reward": 1.5 if success else 0.0,
              "violations": 0, "violation_counts": {}, "redundant_writes": 0,
              "ended": "user_stop",
              "constraints": [{"type": t, "satisfied": s} for t, s in zip(types, satisfied)]}
    record.update(extra)
    return record


def test_summarize_hand_made():
    episodes = [
        episode("t0", True, ("cancel", "info")),
        episode("t0", False, ("cancel", "info"), [True, False], violations=2,
                violation_counts={"write_without_confirmation": 2}, redundant_writes=1),
        episode("t1", True, ("exchange",), turns=10, tool_calls=7),
        episode("t1", True, ("exchange",), ended="transfer"),
        episode("t2", False, ("cancel",), ended="truncated", turns=2, tool_calls=0),
        episode("t2", False, ("cancel",), violations=1,
                violation_counts={"write_on_other_user": 1}),
    ]
    s = summarize(episodes, max_k=2)
    assert s["episodes"] == 6 and s["tasks"] == 3
    assert s["pass_hat_k"]["1"] == pytest.approx(0.5)  # (1/2 + 1 + 0) / 3
    assert s["pass_hat_k"]["2"] == pytest.approx(1 / 3)  # (0 + 1 + 0) / 3
    assert s["pass_at_k"]["2"] == pytest.approx(2 / 3)
    assert set(s["pass_hat_k"]) == set(s["pass_hat_k_ci"]) == {"1", "2"}
    for k, (low, high) in s["pass_hat_k_ci"].items():
        assert low <= s["pass_hat_k"][k] <= high
    assert s["pass_hat_k_tasks"] == {"1": 3, "2": 3}
    assert s["success_rate"] == pytest.approx(0.5)
    assert s["mean_score"] == pytest.approx((3 * 1.0 + 3 * 0.25) / 6)
    assert s["mean_turns"] == pytest.approx((6 * 4 + 10 + 2) / 6)
    assert s["mean_tool_calls"] == pytest.approx((3 * 4 + 7 + 0) / 6)
    assert s["violations"] == {"total": 3, "per_episode": 0.5, "episodes_with_violations": 2,
                               "by_kind": {"write_on_other_user": 1,
                                           "write_without_confirmation": 2}}
    assert s["redundant_writes"]["total"] == 1
    assert s["ended"] == {"transfer": 1, "truncated": 1, "user_stop": 4}
    types = s["constraint_types"]
    assert list(types) == ["cancel", "exchange", "info"]
    assert types["cancel"] == {"constraints": 4, "satisfied_rate": 0.5, "episodes": 4,
                               "episode_success_rate": 0.25}
    assert types["info"]["satisfied_rate"] == 0.5
    assert types["exchange"]["episode_success_rate"] == 1.0


def test_summarize_partial_tasks_and_limits():
    episodes = [episode("a", True), episode("a", True), episode("b", False)]
    s = summarize(episodes, max_k=4)
    assert list(s["pass_hat_k"]) == ["1", "2"]  # no task has 3 trials
    assert s["pass_hat_k_tasks"] == {"1": 2, "2": 1}
    assert s["pass_hat_k"]["2"] == 1.0
    with pytest.raises(ValueError):
        summarize([], max_k=1)
    assert group_successes(episodes) == {"a": [True, True], "b": [False]}
    assert math.isclose(summarize(episodes, 1)["pass_hat_k"]["1"], 0.5)
