import pytest

from tool_gym.core.rewards import RewardConfig
from tool_gym.core.task_model import Constraint, Description, Task
from tool_gym.core.verify import (UNEXPLAINED, PolicyMonitor, WriteRecord, count_redundant,
                                  find_redundant, verify)


def make_task(*constraints):
    ident = Description("user", "my email is a@b.c", {"email": "a@b.c"}, "u1")
    return Task("train-0", "toy", "train", "u1", ident, tuple(constraints))


CANCEL = Constraint("cancel", {"order_id": "o1"}, writes=(("cancel", "o1"),))
ADDRESS = Constraint("address", {"user_id": "u1"}, writes=(("set_address", "u1"),))


class Kit:
    def __init__(self, holds):
        self.holds = holds

    def check(self, db, task, constraint, messages):
        return self.holds[constraint.type]


def monitor_after(events):
    m = PolicyMonitor(auth_tools=("login",))
    for e in events:
        if e[0] == "user":
            m.on_user_message(e[1], e[1].startswith("yes"))
        elif e[0] == "call":
            _, tool, is_write, ok, content, target, owner = e
            m.on_call(tool, is_write, ok, content, target, owner)
        elif e[0] == "action":
            m.on_agent_action(*e[1:])
    return m


def test_clean_episode_has_no_violations():
    m = monitor_after([("call", "login", False, True, "u1", None, None), ("user", "yes please"),
                       ("call", "cancel", True, True, "{}", "o1", "u1")])
    assert not m.violations and m.authenticated == "u1"


@pytest.mark.parametrize("events, kind", [
    ([("user", "yes"), ("call", "cancel", True, True, "{}", "o1", "u1")], "write_before_authentication"),
    ([("call", "login", False, True, "u1", None, None), ("user", "hmm"),
      ("call", "cancel", True, True, "{}", "o1", "u1")], "write_without_confirmation"),
    ([("call", "login", False, True, "u1", None, None), ("user", "yes"),
      ("call", "cancel", True, True, "{}", "o9", "u2")], "write_on_other_user"),
    ([("call", "login", False, True, "u1", None, None), ("user", "yes"),
      ("call", "cancel", True, True, "{}", "o1", "u1"),
      ("call", "set_address", True, True, "{}", "u1", "u1")], "multiple_writes_in_turn"),
    ([("action", 2, False)], "multiple_calls_in_message"),
    ([("action", 1, True)], "call_and_message_together"),
])
def test_each_violation_is_counted(events, kind):
    m = monitor_after(events)
    assert m.violations[kind] == 1
    assert sum(m.violations.values()) == 1


def test_failed_login_does_not_authenticate():
    m = monitor_after([("call", "login", False, False, "Error: user not found", None, None)])
    assert m.authenticated is None


def test_redundant_writes():
    task = make_task(CANCEL)
    writes = [WriteRecord("cancel", "o1", "u1", True), WriteRecord("cancel", "o1", "u1", True),
              WriteRecord("cancel", "o2", "u1", True), WriteRecord("cancel", "o3", "u1", False)]
    assert count_redundant(task, writes) == 2
    assert find_redundant(task, writes) == writes[1:3]  # the second o1, and o2


class ExplainingKit(Kit):
    def explain(self, db, task, constraint, messages):
        if constraint.type == "boom":
            raise RuntimeError("no")
        return f"outcome check failed: no {constraint.type}"


def test_reasons_and_redundant_writes_explain_without_changing_the_score():
    task = make_task(CANCEL, ADDRESS, Constraint("boom", {}))
    dirty = monitor_after([("call", "login", False, True, "u1", None, None), ("user", "yes"),
                           ("call", "cancel", True, True, "{}", "o9", "u1")])
    holds = {"cancel": False, "address": True, "boom": False}
    plain = verify(task, Kit(holds), None, [], dirty, "user_stop")
    told = verify(task, ExplainingKit(holds), None, [], dirty, "user_stop")
    assert [c["reason"] for c in told.constraints if not c["satisfied"]] == \
        ["outcome check failed: no cancel", "not satisfied (explaining it raised RuntimeError)"]
    assert "reason" not in told.constraints[1]  # a held constraint has none
    assert told.redundant == plain.redundant == [{"tool": "cancel", "target": "o9"}]
    for v in (plain, told):
        assert (v.score, v.success, v.redundant_writes, v.satisfied_fraction) == \
            (pytest.approx(0.75 / 3), False, 1, pytest.approx(1 / 3))
        assert [c["satisfied"] for c in v.constraints] == [False, True, False]


def test_score_formula():
    task = make_task(CANCEL, ADDRESS)
    clean = monitor_after([("call", "login", False, True, "u1", None, None)])
    v = verify(task, Kit({"cancel": True, "address": True}), None, [], clean, "user_stop")
    assert (v.score, v.success, v.redundant_writes, v.violations) == (1.0, True, 0, 0)
    v = verify(task, Kit({"cancel": True, "address": False}), None, [], clean, "user_stop")
    assert (v.score, v.success) == (0.5, False)
    assert v.constraints == [{"type": "cancel", "satisfied": True},
                             {"type": "address", "satisfied": False, "reason": UNEXPLAINED}]
    dirty = monitor_after([("call", "login", False, True, "u1", None, None),
                           ("call", "cancel", True, True, "{}", "o1", "u1")])
    v = verify(task, Kit({"cancel": True, "address": True}), None, [], dirty, "user_stop")
    assert v.score == 0.75 and v.violation_counts == {"write_without_confirmation": 1}
    assert verify(task, Kit({"cancel": True, "address": True}), None, [], clean,
                  "transfer").success


@pytest.mark.parametrize("ended", ["user_stop", "transfer", "error_limit", "truncated"])
def test_the_state_is_judged_as_it_stands_whatever_ended_the_episode(ended):
    task = make_task(CANCEL, ADDRESS)
    clean = monitor_after([("call", "login", False, True, "u1", None, None)])
    done = verify(task, Kit({"cancel": True, "address": True}), None, [], clean, ended)
    assert (done.score, done.success, done.ended) == (1.0, True, ended)
    half = verify(task, Kit({"cancel": True, "address": False}), None, [], clean, ended)
    assert (half.score, half.success) == (0.5, False)
    dirty = monitor_after([("call", "login", False, True, "u1", None, None),
                           ("call", "cancel", True, True, "{}", "o1", "u1")])
    assert not verify(task, Kit({"cancel": True, "address": True}), None, [], dirty,
                      ended).success


def test_reward_config():
    # terminal = w * (success + partial * q)
    assert RewardConfig.named("binary").final(False, 0.75) == 0.0
    assert RewardConfig.named("binary").final(True, 1.0) == 1.0
    assert RewardConfig.named("sparse").final(False, 0.75) == pytest.approx(0.375)
    assert RewardConfig.named("cove").final(True, 1.0) == pytest.approx(1.5)
    assert RewardConfig.named(None) == RewardConfig.named("cove")
    assert RewardConfig.named({"validity_weight": 0.5}).shaping_cap == pytest.approx(0.2)
    with pytest.raises(ValueError):
        RewardConfig.named("nope")
