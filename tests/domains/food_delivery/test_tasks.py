"""The food delivery task kit through the environment: check_env, the oracle on train and test
tasks, the random floor, fuzzy descriptions resolved independently, no id leakage,
outcome checks, refusals and integrity."""

from __future__ import annotations

import re
from collections import Counter

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from tool_gym.agents import OraclePolicy, RandomPolicy
from tool_gym.agents.rollout import run_episode
from tool_gym.core.grounding import EpisodeLog, replay
from tool_gym.core.actions import ToolCall
from tool_gym.core.sandbox import Sandbox
from tool_gym.core.tasks import SamplerConfig, Task
from tool_gym.domains.food_delivery.tasks import TASKS
from tool_gym.envs.tool_env import ToolEnv

NAME = "food_delivery"
ID = re.compile(r"\b(?:cus|addr|pm|rest|item|ord|ref|rat)_[a-z0-9]+\b")


@pytest.fixture(scope="module")
def env(registered):
    e = ToolEnv(NAME)
    yield e
    e.close()


@pytest.fixture(scope="module")
def tasks(tpl) -> list[Task]:
    db = tpl.reader()
    return [TASKS.sample(db, np.random.default_rng(i), ("train", "test")[i % 2],
                         SamplerConfig(max_constraints=3), f"t-{i}") for i in range(200)]


def test_check_env(env):
    check_env(env, skip_render_check=True)


def test_oracle_solves_train_and_test_tasks(env):
    seen = Counter()
    for split, n in (("train", 100), ("test", 50)):
        for i in range(n):
            record = run_episode(env, OraclePolicy(), seed=i, task_id=f"{split}-{i}")
            assert record["success"], (split, i, record)
            assert record["violations"] == 0 and record["redundant_writes"] == 0
            if i % 5 == 0:  # the full check costs a few milliseconds
                assert env.sandbox.check_integrity() == []
            seen.update(c["type"] for c in record["constraints"])
    assert set(seen) == set(TASKS.constraint_types), set(TASKS.constraint_types) - set(seen)


def test_random_policy_scores_near_zero(env):
    scores = [run_episode(env, RandomPolicy(seed=1), seed=i, task_id=f"train-{i}")["score"]
              for i in range(40)]
    assert np.mean(scores) < 0.05


def test_kit_shape():
    types = TASKS.constraint_types
    assert len(types) >= 6
    assert sum(t.startswith("info_") for t in types) >= 2
    assert sum(t.startswith("refuse_") for t in types) >= 1
    assert "verify" in TASKS.ask_identity or "email" in TASKS.ask_identity


def test_sampling_is_deterministic_and_serializable(tpl, tasks):
    db = tpl.reader()
    again = TASKS.sample(db, np.random.default_rng(5), "test", SamplerConfig(max_constraints=3),
                         "t-5")
    assert again == tasks[5]
    for task in tasks[:50]:
        assert Task.from_dict(task.to_dict()) == task
        assert TASKS.split_of(task.user_id) == task.split


def test_constraints_of_a_task_do_not_share_entities(tasks):
    for task in tasks:
        targets = [w for c in task.constraints for w in c.writes]
        assert len(targets) == len(set(targets))


def test_plans_and_proposals(tasks):
    for task in tasks:
        steps = TASKS.plan(task)
        assert steps[0].say == TASKS.ask_identity and steps[1].call.name in TASKS.auth_tools
        for c in task.constraints:
            proposals = [s.say for s in c.solution if s.expects_confirmation]
            if c.answer is None:
                assert c.writes and c.expect and c.confirm_terms and len(proposals) == 1
                assert "Shall I proceed?" in proposals[0]
                low = proposals[0].lower()
                assert all(any(t.lower() in low for t in g) for g in c.confirm_terms), \
                    (proposals[0], c.confirm_terms)
                assert c.solution[-1].say.startswith("Done.")
            else:
                assert not proposals and not c.writes
                assert c.answer.lower() in c.solution[-1].say.replace(",", "").lower()
            if c.type.startswith("refuse_"):
                assert c.answer == "cannot" and c.expect
            assert 2 <= len(c.say) <= 4


def test_expectations_fail_before_and_hold_after_the_plan(tpl, tasks):
    for n, task in enumerate(tasks[:100]):
        with Sandbox(tpl) as box:
            for c in task.constraints:
                if c.writes:
                    assert not all(e.holds(box.db) for e in c.expect), (task.id, c.type)
            log = EpisodeLog()  # the plan's messages, grounded in its reads
            messages = replay(box, TASKS.plan(task), TASKS.auth_tools, log)
            assert all(e.ok for e in log.events), task.id
            for c in task.constraints:
                assert TASKS.check(box.db, task, c, messages), (task.id, c.type)
            if n % 5 == 0:
                assert box.check_integrity() == []


def test_refusals_flag_the_forbidden_write(tpl, tasks):
    tried = Counter()
    for task in tasks:
        for c in task.constraints:
            with Sandbox(tpl) as box:
                if c.type == "refuse_late_refund":
                    args = {"order_id": c.args["order_id"], "item_ids": c.args["item_ids"]}
                    assert TASKS.policy_violations(box.db, "request_missing_items_refund",
                                                   args) == ["policy:refund_window"]
                    assert box.call("request_missing_items_refund", args).ok  # policy-only
                elif c.type == "refuse_cancel_accepted":
                    args = {"order_id": c.args["order_id"], "reason": "changed my mind"}
                    assert TASKS.policy_violations(box.db, "cancel_order", args) == \
                        ["policy:cancel_before_accept"]
                    assert not box.call("cancel_order", args).ok  # the tool refuses too
                    continue
                else:
                    continue
                assert not TASKS.check(box.db, task, c, ["I cannot do that."])
                tried[c.type] += 1
    assert tried["refuse_late_refund"] >= 3
    for c in (c for t in tasks for c in t.constraints if c.type == "refund_missing_items"):
        with Sandbox(tpl) as box:
            assert TASKS.policy_violations(box.db, "request_missing_items_refund", c.args) == []


def test_forbidden_write_counts_as_a_violation_in_an_episode(env):
    for i in range(200):
        env.reset(seed=i, options={"task_id": f"train-{i}"})
        c = env.task.constraints[0]
        if c.type == "refuse_late_refund":
            break
    else:
        pytest.skip("no refusal task drawn")
    env.step(TASKS.ask_identity)
    env.step(TASKS.plan(env.task)[1].call.to_hermes())
    env.step("I will refund it. Shall I proceed?")
    call = ToolCall("request_missing_items_refund", {"order_id": c.args["order_id"],
                                                     "item_ids": c.args["item_ids"]})
    env.step(call.to_hermes())
    *_, info = env.step("transfer_to_human_agents(summary='done')")
    result = info["verification"]
    assert result["violation_counts"].get("policy:refund_window") == 1
    assert not result["success"]


# ---------------------------------------------------------------- descriptions

def resolve(state: dict, user: str, d) -> list:
    f = d.fields
    if d.entity == "user":
        key = "email" if "email" in f else "username"
        return [c["customer_id"] for c in state["customers"] if c[key] == f[key]]
    restaurants = {r["restaurant_id"]: r["name"] for r in state["restaurants"]}
    if d.entity in ("order", "order_item"):
        orders = [o["order_id"] for o in state["orders"] if o["customer_id"] == user
                  and restaurants[o["restaurant_id"]] == f["restaurant"]
                  and o["placed_at"][:10] == f["date"]]
        if d.entity == "order":
            return orders
        return [i["item_id"] for i in state["order_items"] if i["order_id"] in orders
                and i["name"] == f["item"]]
    if d.entity == "menu_item":
        return [m["item_id"] for m in state["menu_items"]
                if restaurants[m["restaurant_id"]] == f["restaurant"] and m["name"] == f["item"]]
    if d.entity == "address":
        return [a["address_id"] for a in state["addresses"] if a["customer_id"] == user
                and a["label"] == f["label"]]
    if d.entity == "payment_method":
        return [p["payment_method_id"] for p in state["payment_methods"]
                if p["customer_id"] == user and p["brand"] == f["brand"]
                and p["last4"] == f["last4"]]
    raise AssertionError(f"unknown entity {d.entity}")


def test_descriptions_resolve_independently(state, tasks, tpl):
    kinds = Counter()
    db = tpl.reader()
    for task in tasks:
        described = [task.identity] + [d for c in task.constraints for d in c.refs.values()]
        for d in described:
            assert resolve(state, task.user_id, d) == [d.value], (task.id, d)
            assert d.proof.holds(db)
            kinds[d.entity] += 1
    assert {"user", "order", "order_item", "menu_item", "address", "payment_method"} \
        <= set(kinds)


def test_user_words_leak_no_ids(state, tasks):
    for task in tasks:
        rng = np.random.default_rng(0)
        texts = [TASKS.identify(task, rng) for _ in range(3)]
        texts += [task.identity.text]
        for c in task.constraints:
            texts += [TASKS.opening(task, c, rng), *c.say]
            texts += [d.text for d in c.refs.values()]
        for text in texts:
            assert not ID.search(text), text
            assert task.user_id not in text
