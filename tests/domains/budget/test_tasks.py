"""The budget task kit: its refusals and policy rules, descriptions resolved over the plain
data, no refusal answered by another's reason. The checks every domain shares are in
tests/domains/test_conformance.py."""

from __future__ import annotations

from collections import Counter

from tool_gym.core.actions import ToolCall
from tool_gym.core.grounding import addresses
from tool_gym.core.sandbox import Sandbox
from tool_gym.domains.budget.tasks import _OVER_WORDS, _PAST_WORDS, TASKS

from .. import taskchecks as checks

FORBIDDEN = {  # refusal type -> the write it forbids
    "refuse_past_month_budget": checks.Forbidden(lambda c, _: ToolCall("set_budget", {
        "category_id": c.args["category_id"], "month": c.args["month"],
        "amount": c.args["amount"]}), ("policy:closed_month",),
        in_episode="policy:closed_month"),  # policy-only
    "refuse_goal_over_balance": checks.Forbidden(lambda c, _: ToolCall("contribute_to_goal", dict(
        c.args)), ("policy:available_balance",), tool_allows=False),
}


def resolve(state: dict, user: str, d) -> list:
    f = d.fields
    if d.entity == "user":
        return checks.identified(state["users"], "user_id", f)
    if d.entity == "transaction":
        return [t["transaction_id"] for t in state["transactions"] if t["user_id"] == user
                and t["payee"] == f["payee"] and t["amount"] == -f["amount"]
                and t["date"] == f["date"]]
    if d.entity == "bill":
        return [b["bill_id"] for b in state["bills"] if b["user_id"] == user
                and b["name"] == f["name"] and b["status"] == "active"]
    table, key = {"category": ("categories", "category_id"), "account": ("accounts",
                  "account_id"), "goal": ("goals", "goal_id")}[d.entity]
    return [r[key] for r in state[table] if r["user_id"] == user and r["name"] == f["name"]]


def test_descriptions_resolve_independently(state, tasks):
    kinds = checks.resolved_entities(tasks, lambda task, d: resolve(state, task.user_id, d))
    assert {"user", "transaction", "category", "account", "bill", "goal"} <= set(kinds)


def test_every_type_is_drawn(tasks):
    types = Counter(c.type for t in tasks for c in t.constraints)
    assert set(types) == set(TASKS.constraint_types) and len(types) >= 8
    assert sum(t.startswith("info_") for t in TASKS.constraint_types) >= 3


def test_refusals_flag_the_forbidden_write(tpl, tasks):
    assert checks.flagged_refusals(tasks, FORBIDDEN)["refuse_past_month_budget"] >= 3
    assert checks.violations_in_episodes("budget", FORBIDDEN) == {"refuse_past_month_budget"}
    for c in (c for t in tasks for c in t.constraints if c.type == "set_budget"):
        with Sandbox(tpl) as box:  # the current month and the months ahead are open
            assert TASKS.policy_violations(box.db, "set_budget", c.args) == []
    for c in (c for t in tasks for c in t.constraints if c.type == "contribute_to_goal"):
        with Sandbox(tpl) as box:  # a transfer within the balance is allowed
            assert TASKS.policy_violations(box.db, "contribute_to_goal", c.args) == []


def test_one_refusal_does_not_address_the_other(tasks):
    facts = {"refuse_goal_over_balance": _OVER_WORDS, "refuse_past_month_budget": _PAST_WORDS}
    seen = Counter()
    for t in tasks:
        for c in (c for c in t.constraints if c.refusal):
            other = next(k for k in facts if k != c.type)
            said = [s.say for s in c.solution if s.say]
            assert any(addresses(m, facts[c.type]) for m in said), (t.id, c.type, said)
            assert not any(addresses(m, facts[other]) for m in said), (t.id, c.type, said)
            seen[c.type] += 1
    assert set(seen) == set(facts)
