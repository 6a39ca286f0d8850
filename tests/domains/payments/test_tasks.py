"""The payments task kit: its refusals and policy rules, descriptions resolved over the plain
data. The checks every domain shares are in tests/domains/test_conformance.py."""

from __future__ import annotations

from tool_gym.core.actions import ToolCall
from tool_gym.core.sandbox import Sandbox
from tool_gym.domains.payments.tasks import TASKS

from .. import taskchecks as checks

FORBIDDEN = {  # refusal type -> the write it forbids
    "refuse_late_refund": checks.Forbidden(lambda c, _: ToolCall("refund_merchant_payment", {
        "payment_id": c.args["payment_id"], "amount": c.args["amount"],
        "reason": c.args["reason"]}), ("policy:refund_window",),
        in_episode="policy:refund_window"),  # the tool trusts the agent
    "refuse_over_balance": checks.Forbidden(lambda c, _: ToolCall("send_money", dict(c.args)),
                                            ("policy:wallet_balance",), tool_allows=False),
}


def resolve(state: dict, user: str, d) -> list:
    f = d.fields
    if d.entity == "user":
        return checks.identified(state["users"], "user_id", f)
    people = {u["user_id"]: (u["first_name"], u["last_name"]) for u in state["users"]}
    if d.entity == "wallet":
        return [w["wallet_id"] for w in state["wallets"] if w["user_id"] == user
                and w["currency"] == f["currency"]]
    if d.entity == "contact":
        return [c["contact_user_id"] for c in state["contacts"] if c["user_id"] == user
                and people[c["contact_user_id"]] == (f["first_name"], f["last_name"])]
    if d.entity == "request":
        me, them = ("payer_id", "requester_id") if f["incoming"] else ("requester_id",
                                                                      "payer_id")
        return [q["request_id"] for q in state["payment_requests"] if q[me] == user
                and people[q[them]] == (f["first_name"], f["last_name"])
                and (q["amount"], q["currency"], q["note"]) == (f["amount"], f["currency"],
                                                                f["note"])]
    if d.entity == "payment":
        merchants = {m["merchant_id"]: m["name"] for m in state["merchants"]}
        return [p["payment_id"] for p in state["payments"] if p["sender_id"] == user
                and merchants.get(p["merchant_id"]) == f["merchant"]
                and p["amount"] == f["amount"] and p["created_at"][:10] == f["date"]]
    raise AssertionError(f"unknown entity {d.entity}")


def test_descriptions_resolve_independently(state, tasks):
    kinds = checks.resolved_entities(tasks, lambda task, d: resolve(state, task.user_id, d))
    assert {"user", "wallet", "contact", "request", "payment"} <= set(kinds)


def test_every_type_is_drawn(tasks):
    drawn = {c.type for t in tasks for c in t.constraints}
    assert drawn == set(TASKS.constraint_types)
    assert sum(t.startswith("info_") for t in TASKS.constraint_types) >= 3
    assert sum(t.startswith("refuse_") for t in TASKS.constraint_types) >= 2


def test_needs_moving_money_never_share_a_wallet(tasks):
    for task in tasks:
        wallets = [c.args.get("from_wallet_id") or c.args.get("wallet_id")
                   for c in task.constraints if c.type in (
                       "send_money", "convert_funds", "info_wallet_balance",
                       "refuse_over_balance")]
        wallets = [w for w in wallets if w]
        assert len(wallets) == len(set(wallets)), task.id


def test_refusals_flag_the_forbidden_write(tpl, tasks):
    assert checks.flagged_refusals(tasks, FORBIDDEN)["refuse_late_refund"] >= 3
    assert checks.violations_in_episodes("payments", FORBIDDEN) == {"refuse_late_refund"}
    for c in (c for t in tasks for c in t.constraints if c.type == "refund_merchant_payment"):
        with Sandbox(tpl) as box:  # a refund within the merchant's window is not flagged
            assert TASKS.policy_violations(box.db, "refund_merchant_payment", c.args) == []
    for c in (c for t in tasks for c in t.constraints if c.type == "send_money"):
        with Sandbox(tpl) as box:  # nor a payment within the balance
            assert TASKS.policy_violations(box.db, "send_money", c.args) == []
