"""The marketplace task kit: its refusals and policy rules, descriptions resolved over the
plain data. The checks every domain shares are in tests/domains/test_conformance.py."""

from __future__ import annotations

from tool_gym.core.actions import ToolCall
from tool_gym.core.sandbox import Sandbox
from tool_gym.domains.marketplace.tasks import TASKS

from .. import taskchecks as checks

FORBIDDEN = {  # refusal type -> the write it forbids
    "refuse_late_refund": checks.Forbidden(lambda c, task: ToolCall("request_return", {
        "order_id": c.args["order_id"], "buyer_id": task.user_id,
        "reason": c.args["reason"]}), ("policy:return_window",),
        in_episode="policy:return_window"),  # the tool trusts the agent
    "cancel_processed_order": checks.Forbidden(lambda c, task: ToolCall("cancel_order", {
        "order_id": c.args["order_id"], "member_id": task.user_id, "reason": "other"}),
        ("policy:order_shipped",), tool_allows=False),
}


def resolve(state: dict, user: str, d) -> list:
    f = d.fields
    if d.entity == "user":
        return checks.identified(state["members"], "member_id", f)
    names = {m["member_id"]: m["username"] for m in state["members"]}
    listings = {x["listing_id"]: x for x in state["listings"]}
    if d.entity == "listing":
        if "seller" in f:
            return [x["listing_id"] for x in state["listings"] if x["status"] == "active"
                    and names[x["seller_id"]] == f["seller"] and x["title"] == f["title"]]
        return [x["listing_id"] for x in state["listings"] if x["seller_id"] == user
                and x["title"] == f["title"]]
    if d.entity == "card":
        return [c["payment_method_id"] for c in state["payment_methods"]
                if c["member_id"] == user and (c["brand"], c["last4"]) == (f["brand"],
                                                                           f["last4"])]
    if d.entity == "order":
        mine, theirs = ("buyer_id", "seller_id") if f["role"] == "buyer" else ("seller_id",
                                                                               "buyer_id")
        return [o["order_id"] for o in state["orders"] if o[mine] == user
                and names[o[theirs]] == f["other"]
                and listings[o["listing_id"]]["title"] == f["title"]]
    if d.entity == "offer":
        open_offers = [o for o in state["offers"] if o["status"] in ("pending", "countered")]
        if "buyer" in f:  # received on the member's own listing
            return [o["offer_id"] for o in open_offers
                    if listings[o["listing_id"]]["seller_id"] == user
                    and listings[o["listing_id"]]["title"] == f["title"]
                    and names[o["buyer_id"]] == f["buyer"] and o["amount"] == f["amount"]]
        return [o["offer_id"] for o in open_offers if o["buyer_id"] == user
                and listings[o["listing_id"]]["title"] == f["title"]
                and names[listings[o["listing_id"]]["seller_id"]] == f["seller"]]
    raise AssertionError(f"unknown entity {d.entity}")


def test_descriptions_resolve_independently(state, tasks):
    kinds = checks.resolved_entities(tasks, lambda task, d: resolve(state, task.user_id, d))
    assert {"user", "listing", "card", "order", "offer"} <= set(kinds)


def test_refusals_flag_the_forbidden_write(tpl, tasks):
    assert sum(t.startswith("info_") for t in TASKS.constraint_types) >= 3
    tried = checks.flagged_refusals(tasks, FORBIDDEN)
    assert tried["refuse_late_refund"] >= 3 and tried["cancel_processed_order"] >= 3
    assert checks.violations_in_episodes("marketplace", FORBIDDEN) == {"refuse_late_refund"}
    for c in (c for t in tasks for c in t.constraints
              if c.type in ("request_return", "cancel_order")):
        with Sandbox(tpl) as box:  # the allowed return or cancellation is not flagged
            call = c.solution[-2].call
            assert TASKS.policy_violations(box.db, call.name, call.arguments) == []


def test_writes_act_only_for_the_member(tpl, tasks):
    """Every write of a plan names the task's member as the acting party, and the kit names
    another member as the owner when the agent acts for the other side."""
    db = tpl.reader()
    for task in tasks:
        for c in (c for c in task.constraints if c.type == "accept_offer"):
            buyer, = db.execute("SELECT buyer_id FROM offers WHERE offer_id = ?",
                                (c.args["offer_id"],)).fetchone()
            assert TASKS.owner(db, "accept_offer", {**c.args, "member_id": buyer}) == buyer
            assert TASKS.owner(db, "accept_offer", c.args) == task.user_id
