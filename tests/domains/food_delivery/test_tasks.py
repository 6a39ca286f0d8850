"""The food delivery task kit: its refusals and policy rules, descriptions resolved over
the plain data. The checks every domain shares are in tests/domains/test_conformance.py."""

from __future__ import annotations

from tool_gym.core.actions import ToolCall
from tool_gym.core.sandbox import Sandbox
from tool_gym.domains.food_delivery.tasks import TASKS

from .. import taskchecks as checks

FORBIDDEN = {  # refusal type -> the write it forbids
    "refuse_late_refund": checks.Forbidden(lambda c, _: ToolCall("request_missing_items_refund", {
        "order_id": c.args["order_id"], "item_ids": c.args["item_ids"]}),
        ("policy:refund_window",), in_episode="policy:refund_window"),  # policy-only
    "refuse_cancel_accepted": checks.Forbidden(lambda c, _: ToolCall("cancel_order", {
        "order_id": c.args["order_id"], "reason": "changed my mind"}),
        ("policy:cancel_before_accept",), tool_allows=False),
}


def resolve(state: dict, user: str, d) -> list:
    f = d.fields
    if d.entity == "user":
        return checks.identified(state["customers"], "customer_id", f)
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


def test_descriptions_resolve_independently(state, tasks):
    kinds = checks.resolved_entities(tasks, lambda task, d: resolve(state, task.user_id, d))
    assert {"user", "order", "order_item", "menu_item", "address", "payment_method"} <= set(kinds)


def test_refusals_flag_the_forbidden_write(tpl, tasks):
    assert sum(t.startswith("info_") for t in TASKS.constraint_types) >= 2
    assert checks.flagged_refusals(tasks, FORBIDDEN)["refuse_late_refund"] >= 3
    assert checks.violations_in_episodes("food_delivery", FORBIDDEN) == {"refuse_late_refund"}
    for c in (c for t in tasks for c in t.constraints if c.type == "refund_missing_items"):
        with Sandbox(tpl) as box:  # a refund in time is not flagged
            assert TASKS.policy_violations(box.db, "request_missing_items_refund", c.args) == []
