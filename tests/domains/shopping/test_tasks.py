"""The shopping task kit: its refusals and policy rules, descriptions resolved over the plain
data, no two refusals answered by one message. The checks every domain shares are in
tests/domains/test_conformance.py."""

from __future__ import annotations

from collections import Counter

from tool_gym.core.actions import ToolCall
from tool_gym.core.grounding import addresses
from tool_gym.core.sandbox import Sandbox
from tool_gym.domains.shopping.tasks import _LATE_WORDS, _SHIPPED_WORDS, TASKS

from .. import taskchecks as checks

FORBIDDEN = {  # refusal type -> the write it forbids
    "refuse_late_return": checks.Forbidden(lambda c, _: ToolCall("request_return", {
        "order_id": c.args["order_id"], "product_id": c.args["product_id"], "quantity": 1,
        "reason": "defective", "refund_to": "original_payment"}),
        ("policy:return_window",), in_episode="policy:return_window"),  # policy-only
    "refuse_cancel_shipped": checks.Forbidden(lambda c, _: ToolCall("cancel_order", {
        "order_id": c.args["order_id"], "reason": "changed my mind"}),
        ("policy:cancel_before_shipping",), tool_allows=False),
}


def resolve(state: dict, user: str, d) -> list:
    f = d.fields
    if d.entity == "user":
        return checks.identified(state["customers"], "customer_id", f)
    if d.entity == "order":
        names: dict[str, set] = {}
        for i in state["order_items"]:
            names.setdefault(i["order_id"], set()).add(i["name"])
        return [o["order_id"] for o in state["orders"] if o["customer_id"] == user
                and ("date" not in f or o["placed_at"][:10] == f["date"])
                and ("product" not in f or f["product"] in names[o["order_id"]])]
    if d.entity == "product":
        return [p["product_id"] for p in state["products"] if p["name"] == f["name"]]
    if d.entity == "address":
        return [a["address_id"] for a in state["addresses"] if a["customer_id"] == user
                and a["label"] == f["label"]]
    if d.entity == "payment_method":
        return [p["payment_method_id"] for p in state["payment_methods"]
                if p["customer_id"] == user and p["brand"] == f["brand"]
                and p["last4"] == f["last4"]]
    if d.entity == "return":
        lines = {(i["order_id"], i["line"]): i["name"] for i in state["order_items"]}
        return [r["return_id"] for r in state["returns"] if r["customer_id"] == user
                and lines[r["order_id"], r["line"]] == f["product"]]
    raise AssertionError(f"unknown entity {d.entity}")


def test_descriptions_resolve_independently(state, tasks):
    kinds = checks.resolved_entities(tasks, lambda task, d: resolve(state, task.user_id, d))
    assert {"user", "order", "product", "address", "payment_method", "return"} <= set(kinds)


def test_every_type_is_drawn_and_the_kit_is_varied(tasks):
    types = Counter(c.type for t in tasks for c in t.constraints)
    assert set(types) == set(TASKS.constraint_types) and len(types) >= 8
    assert sum(t.startswith("info_") for t in TASKS.constraint_types) >= 3
    assert sum(c.refusal is not None for t in tasks for c in t.constraints) >= 20


def test_refusals_flag_the_forbidden_write(tpl, tasks):
    assert checks.flagged_refusals(tasks, FORBIDDEN)["refuse_late_return"] >= 3
    assert checks.violations_in_episodes("shopping", FORBIDDEN) == {"refuse_late_return"}
    for c in (c for t in tasks for c in t.constraints if c.type == "request_return"):
        with Sandbox(tpl) as box:  # a return in time is not flagged
            assert TASKS.policy_violations(box.db, "request_return", c.args) == []


def test_one_refusal_does_not_address_the_other(tasks):
    """The oracle's refusal of one type names none of the other type's blocking facts, so
    refusing a cancellation never counts as refusing a late return (or the reverse)."""
    facts = {"refuse_cancel_shipped": _SHIPPED_WORDS, "refuse_late_return": _LATE_WORDS}
    seen = Counter()
    for t in tasks:
        for c in (c for c in t.constraints if c.refusal):
            other = next(k for k in facts if k != c.type)
            said = [s.say for s in c.solution if s.say]
            assert any(addresses(m, facts[c.type]) for m in said), (t.id, c.type, said)
            assert not any(addresses(m, facts[other]) for m in said), (t.id, c.type, said)
            seen[c.type] += 1
    assert set(seen) == set(facts)
