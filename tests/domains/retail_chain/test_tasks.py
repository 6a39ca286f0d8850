"""The retail chain task kit: descriptions resolved over the plain data, roles, its refusals
and policy rules. The checks every domain shares are in tests/domains/test_conformance.py."""

from __future__ import annotations

from collections import Counter

from tool_gym.core.actions import ToolCall
from tool_gym.core.sandbox import Sandbox
from tool_gym.domains.retail_chain.tasks import TASKS

from .. import taskchecks as checks

FORBIDDEN = {  # refusal type -> the write it forbids
    "refuse_transfer_over_stock": checks.Forbidden(
        lambda c, _: ToolCall("request_transfer", dict(c.args)), ("policy:transfer_stock",),
        tool_allows=False),
    "refuse_deep_markdown": checks.Forbidden(
        lambda c, _: ToolCall("change_price", dict(c.args)), ("policy:markdown_limit",),
        in_episode="policy:markdown_limit"),  # the tool trusts the agent
    "refuse_large_po": checks.Forbidden(
        lambda c, _: ToolCall("create_purchase_order", dict(c.args)), ("policy:po_limit",),
        in_episode="policy:po_limit"),  # the tool trusts the agent
}
#: Needs only some roles can have.
ROLES = {"create_purchase_order": {"manager"}, "change_price": {"manager"},
         "refuse_deep_markdown": {"manager"}, "refuse_large_po": {"manager"},
         "schedule_shift": {"manager", "supervisor"}}


def resolve(state: dict, user: str, d) -> list:
    f = d.fields
    if d.entity == "user":
        return checks.identified(state["employees"], "employee_id", f)
    if d.entity == "product":
        return [p["product_id"] for p in state["products"] if p["name"] == f["product"]
                and p["sku"] == f.get("sku", p["sku"])]
    if d.entity == "store":
        return [s["store_id"] for s in state["stores"] if s["name"] == f["store"]]
    me = next(e for e in state["employees"] if e["employee_id"] == user)
    store = me["store_id"]
    if d.entity == "staff":
        return [e["employee_id"] for e in state["employees"] if e["store_id"] == store
                and (e["first_name"], e["last_name"]) == (f["first_name"], f["last_name"])]
    products = {p["product_id"]: p["name"] for p in state["products"]}
    stores = {s["store_id"]: s["name"] for s in state["stores"]}
    if d.entity == "transfer":
        return [t["transfer_id"] for t in state["transfers"] if t["to_store_id"] == store
                and t["status"] == "in_transit" and products[t["product_id"]] == f["product"]
                and t["quantity"] == f["quantity"] and stores[t["from_store_id"]] == f["from"]]
    if d.entity == "pickup_order":
        return [o["order_id"] for o in state["pickup_orders"] if o["store_id"] == store
                and o["customer_name"] == f["customer"] and o["status"] == f["status"]]
    if d.entity == "purchase_order":
        return [o["po_id"] for o in state["purchase_orders"] if o["store_id"] == store
                and o["status"] == "submitted" and products[o["product_id"]] == f["product"]]
    raise AssertionError(f"unknown entity {d.entity}")


def test_descriptions_resolve_independently(state, tasks):
    kinds = checks.resolved_entities(tasks, lambda task, d: resolve(state, task.user_id, d))
    assert {"user", "product", "store", "staff", "transfer", "pickup_order",
            "purchase_order"} <= set(kinds)


def test_needs_fit_the_employees_role(state, tasks):
    roles = {e["employee_id"]: e["role"] for e in state["employees"]}
    kinds = Counter()
    for task in tasks:
        for c in task.constraints:
            kinds[c.type] += 1
            assert roles[task.user_id] in ROLES.get(c.type, {roles[task.user_id]}), c.type
    assert set(kinds) == set(TASKS.constraint_types)
    assert sum(t.startswith("info_") for t in TASKS.constraint_types) >= 3
    assert sum(t.startswith("refuse_") for t in TASKS.constraint_types) >= 3


def test_price_questions_are_about_markdowns(state, tasks):
    base = {p["product_id"]: p["base_price"] for p in state["products"]}
    for c in (c for t in tasks for c in t.constraints if c.type == "info_store_price"):
        assert float(c.answer) != base[c.args["product_id"]]  # the catalogue price is no answer


def test_refusals_flag_the_forbidden_write(tpl, tasks):
    tried = checks.flagged_refusals(tasks, FORBIDDEN)
    assert min(tried[kind] for kind in FORBIDDEN) >= 2, tried
    assert checks.violations_in_episodes("retail_chain", FORBIDDEN) == {
        "refuse_deep_markdown", "refuse_large_po"}
    allowed = ("request_transfer", "change_price", "create_purchase_order")
    for c in (c for t in tasks for c in t.constraints if c.type in allowed):
        with Sandbox(tpl) as box:  # the allowed writes are not flagged
            call = c.solution[-2].call
            assert TASKS.policy_violations(box.db, call.name, call.arguments) == []
