"""PROVE's reward components on constructed trajectories, computed by hand."""

from __future__ import annotations

import math

import pytest

from tool_gym.core import prove
from tool_gym.core.prove import AgentCall as C
from tool_gym.core.prove import GroundTruthCall as G
from tool_gym.core.prove import ProveRewardConfig
from tool_gym.core.rewards import RewardConfig

# ground truth: a -> b -> c, and c also depends on a
GT = [G("a", {"x": 1}), G("b", {"y": "u"}, (0,)), G("c", {"z": [1, 2], "w": "k"}, (0, 1))]


def test_defaults_are_the_one_definition():
    # total = 0.5 V + 0.5 C + 0.15 E + 0.2 N + 0.1 A, alpha = beta = 0.5
    cfg = ProveRewardConfig()
    assert (cfg.validity, cfg.coverage, cfg.efficiency, cfg.tool_name, cfg.arguments) == \
        (0.5, 0.5, 0.15, 0.2, 0.1)
    assert cfg.alpha == cfg.beta == 0.5
    assert RewardConfig.named("prove").prove == cfg


@pytest.mark.parametrize("bad", [{"validity": -0.1}, {"alpha": float("nan")},
                                 {"beta": -1}, {"arguments": "high"}])
def test_config_rejects_negative_or_non_numbers(bad):
    with pytest.raises(ValueError):
        ProveRewardConfig(**bad)


def test_validity_three_equal_levels():
    assert prove.validity([C("a", {}, 3), C("b", {}, 0), C("c", {}, 1), C("d", {}, 2)]) == \
        pytest.approx((1 + 0 + 1 / 3 + 2 / 3) / 4)  # = 0.5
    assert prove.validity([]) == 0.0


def test_alignment_needs_name_and_all_ground_truth_keys():
    calls = [C("b", {"y": "v"}), C("a", {"x": 1, "extra": 0}), C("b", {"y": "u"}),
             C("c", {"z": [1, 2]})]  # c lacks the key w: no match
    alignment = prove.align(calls, GT)
    # a -> call 1 (extra keys are fine); b -> call 2 (agrees on y) rather than call 0
    assert alignment == {0: 1, 1: 2}


def test_coverage_with_dependency_order():
    # b made before a: b matched but its prerequisite a comes later -> not covered
    calls = [C("b", {"y": "u"}), C("a", {"x": 1}), C("c", {"z": [1, 2], "w": "k"})]
    # a covered (no prereqs); b: prereq a at index 1 > 0 -> no; c: a(1), b(0) < 2 -> yes
    assert prove.coverage(calls, GT) == pytest.approx(2 / 3)
    in_order = [C("a", {"x": 1}), C("b", {"y": "u"}), C("c", {"z": [1, 2], "w": "k"})]
    assert prove.coverage(in_order, GT) == 1.0
    # c's prerequisite b missing: c not covered although matched
    assert prove.coverage([C("a", {"x": 1}), C("c", {"z": 0, "w": 0})], GT) == \
        pytest.approx(1 / 3)
    assert prove.coverage([], GT) == 0.0
    assert prove.coverage([C("a", {})], []) == 0.0


def test_adaptive_efficiency():
    # n_gt = 3: B = 3 + ceil(1.5) = 5
    assert prove.budget(3, 0.5) == 5
    assert prove.efficiency(5, 3) == 0.0
    assert prove.efficiency(8, 3) == pytest.approx(-0.5 * 3 / 5)  # -0.3
    assert prove.efficiency(8, 3, alpha=1.0, beta=0.25) == pytest.approx(-1.0 * 4 / 4)  # B=4
    assert prove.budget(1, 0.5) == 2 and prove.efficiency(3, 1) == pytest.approx(-0.25)
    assert prove.efficiency(0, 3) == 0.0
    # no ground truth: budget 0, each call costs alpha
    assert prove.efficiency(2, 0) == -1.0 and prove.efficiency(0, 0) == 0.0


def test_tool_name_precision_is_membership_per_call():
    calls = [C("a"), C("a"), C("b"), C("z")]
    # a, a, b are ground-truth names, z is not -> 3 / 4 (the repeat of a counts)
    assert prove.tool_name_precision(calls, GT) == 0.75
    assert prove.tool_name_precision([], GT) == 0.0
    # no ground-truth call: 1 without a call, else 0
    assert prove.tool_name_precision(calls, []) == 0.0
    assert prove.tool_name_precision([], []) == 1.0


def test_argument_agreement_over_aligned_pairs():
    calls = [C("a", {"x": 1.0}), C("b", {"y": "U"}), C("c", {"z": [1, 2], "w": "j"})]
    # a: x 1 == 1.0 -> 1; b: "U" != "u" -> 0; c: z agrees, w not -> 1/2
    assert prove.argument_agreement(calls, GT) == pytest.approx((1 + 0 + 0.5) / 3)
    assert prove.argument_agreement([C("q", {})], GT) == 0.0  # no aligned pair
    assert prove.argument_agreement([], GT) == 0.0
    # a ground-truth call without arguments agrees fully
    assert prove.argument_agreement([C("n", {"k": 1})], [G("n", {})]) == 1.0


def test_values_equal():
    assert prove.values_equal(1, 1.0) and prove.values_equal({"a": [1]}, {"a": [1.0]})
    assert not prove.values_equal(True, 1) and not prove.values_equal("1", 1)
    assert not prove.values_equal([1, 2], [2, 1])


def test_abstention():
    assert prove.abstention([], []) == 1.0
    assert prove.abstention([C("a")], []) == 0.0
    assert prove.abstention([], GT) == 0.0


def test_composite_by_hand():
    # 4 calls: a ok, b ok (order fine), b again (failed at stage 2), c with one wrong value
    calls = [C("a", {"x": 1}, 3), C("b", {"y": "u"}, 3), C("b", {"y": "u"}, 2),
             C("c", {"z": [1, 2], "w": "j"}, 3)]
    s = prove.score(calls, GT)
    v = (1 + 1 + 2 / 3 + 1) / 4          # 11/12
    c = 1.0                               # all matched in order
    e = 0.0                               # n = 4 <= B = 5
    n = 1.0                               # every call's name is a ground-truth name
    a = (1 + 1 + 0.5) / 3                 # 5/6
    total = 0.5 * v + 0.5 * c + 0.15 * e + 0.2 * n + 0.1 * a
    assert s.validity == pytest.approx(v) and s.coverage == c and s.efficiency == e
    assert s.tool_name == pytest.approx(n) and s.arguments == pytest.approx(a)
    assert s.abstention == 0.0
    assert s.total == pytest.approx(total)  # 11/24 + 1/2 + 0 + 1/5 + 1/12 = 149/120
    assert s.total == pytest.approx(149 / 120)
    assert s.best == pytest.approx(1.3) and s.normalized == pytest.approx(149 / 120 / 1.3)
    assert s.alignment == ((0, 0), (1, 1), (2, 3)) and s.budget == 5


def test_perfect_and_verbose():
    perfect = [C(g.name, dict(g.arguments)) for g in GT]
    s = prove.score(perfect, GT)
    assert s.total == pytest.approx(1.3) and s.normalized == pytest.approx(1.0)
    # three useless extra calls: n = 6 > B = 5
    verbose = perfect + [C("zz", {}, 0)] * 3
    s = prove.score(verbose, GT)
    assert s.efficiency == pytest.approx(-0.5 * 1 / 5)
    assert s.validity == pytest.approx(0.5) and s.tool_name == pytest.approx(0.5)
    # 0.5 * 0.5 + 0.5 * 1 + 0.15 * -0.1 + 0.2 * 0.5 + 0.1 * 1
    assert s.total == pytest.approx(0.25 + 0.5 - 0.015 + 0.1 + 0.1)  # 0.935


def test_efficiency_weight_over_budget():
    # one ground-truth call: B = 1 + ceil(0.5) = 2; four calls -> E = -0.5 * 2 / 2
    s = prove.score([C("a", {"x": 1}, 3)] + [C("q", {}, 1)] * 3, [G("a", {"x": 1})])
    assert s.budget == 2 and s.efficiency == pytest.approx(-0.5)
    assert s.validity == pytest.approx(0.5) and s.tool_name == pytest.approx(0.25)
    # 0.5 * 0.5 + 0.5 * 1 + 0.15 * -0.5 + 0.2 * 0.25 + 0.1 * 1
    assert s.total == pytest.approx(0.825) and s.normalized == pytest.approx(0.825 / 1.3)


def test_edge_case_no_calls():
    s = prove.score([], GT)
    assert (s.validity, s.coverage, s.efficiency, s.tool_name, s.arguments, s.abstention) == \
        (0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
    assert s.total == 0.0 and s.normalized == 0.0


def test_edge_case_no_aligned_pairs():
    s = prove.score([C("x", {}, 3), C("y", {}, 1)], GT)
    assert s.alignment == () and s.coverage == 0.0 and s.arguments == 0.0
    assert s.validity == pytest.approx((1 + 1 / 3) / 2) and s.tool_name == 0.0
    assert s.total == pytest.approx(0.5 * (2 / 3))  # E = 0 (n = 2 <= B = 5), N = 0


def test_unanswerable_task():
    s = prove.score([], [])  # abstaining: N = 1, best = w_N = 0.2
    assert s.abstention == 1.0 and s.tool_name == 1.0
    assert s.total == pytest.approx(0.2) and s.best == pytest.approx(0.2)
    assert s.normalized == pytest.approx(1.0)
    s = prove.score([C("a", {"x": 1})], [])  # one call: N = 0, E = -alpha * 1
    assert s.abstention == 0.0 and s.validity == 0.0 and s.tool_name == 0.0
    assert s.efficiency == -0.5
    assert s.total == pytest.approx(0.15 * -0.5) and s.normalized == pytest.approx(-0.375)


def test_inputs_as_plain_data_and_config_dicts():
    calls = [{"name": "a", "arguments": {"x": 1}, "stage": 3}, ("b", {"y": "u"}, 3)]
    truth = [{"name": "a", "arguments": {"x": 1}, "after": []},
             {"name": "b", "arguments": {"y": "u"}, "after": [0]}]
    s = prove.score(calls, truth, {"alpha": 1.0})
    assert s.normalized == pytest.approx(1.0)
    with pytest.raises(ValueError):
        ProveRewardConfig.from_dict({"nope": 1})
    assert G.of(GT[2].to_dict()) == GT[2]


def test_weights_change_the_total():
    calls = [C("a", {"x": 1}), C("b", {"y": "u"})]
    base = prove.score(calls, GT)
    heavy = prove.score(calls, GT, ProveRewardConfig(coverage=1.0))
    assert heavy.total - base.total == pytest.approx(0.5 * base.coverage)
    assert not math.isnan(base.normalized)


def test_reward_config_prove_preset():
    cfg = RewardConfig.named("prove")
    assert cfg.terminal == "prove" and cfg.validity_weight == 0.0
    assert cfg.prove == ProveRewardConfig()
    # terminal = 1 * (success + 0.5 * clip(normalized, 0, 1))
    assert cfg.final(False, 0.0, 1.2) == pytest.approx(0.5)
    assert cfg.final(True, 0.0, 0.8) == pytest.approx(1.4)
    assert cfg.final(False, 0.0, -0.375) == 0.0
    with pytest.raises(ValueError):
        cfg.final(True, 1.0)
    custom = RewardConfig.named({"terminal": "prove", "prove": {"alpha": 1.0}})
    assert custom.prove.alpha == 1.0 and custom.prove.efficiency == 0.15
    with pytest.raises(ValueError):
        RewardConfig.named({"terminal": "prove", "prove": {"normalize": True}})
    with pytest.raises(ValueError):
        RewardConfig(terminal="nope")
    assert RewardConfig.named("cove").final(False, 0.5) == pytest.approx(0.25)
