"""The banking task kit: its refusals and policy rules, descriptions resolved over the plain
data, account numbers kept out of the user's words. The checks every domain shares are in
tests/domains/test_conformance.py."""

from __future__ import annotations

import re

import numpy as np

from tool_gym.core.actions import ToolCall
from tool_gym.core.sandbox import Sandbox
from tool_gym.domains.banking.tasks import TASKS

from .. import taskchecks as checks

FORBIDDEN = {  # refusal type -> the write it forbids
    "refuse_old_dispute": checks.Forbidden(lambda c, _: ToolCall("file_dispute", {
        "transaction_id": c.args["transaction_id"], "reason": "fraud"}),
        ("policy:dispute_window",), in_episode="policy:dispute_window"),  # the tool trusts
    "refuse_over_balance": checks.Forbidden(lambda c, _: ToolCall(
        "transfer_between_accounts", dict(c.args)), ("policy:available_balance",),
        tool_allows=False),
}


def resolve(state: dict, user: str, d) -> list:
    f = d.fields
    if d.entity == "user":
        return checks.identified(state["customers"], "customer_id", f)
    accounts = {a["account_id"]: a for a in state["accounts"]}
    if d.entity == "account":
        return [a["account_id"] for a in state["accounts"] if a["customer_id"] == user
                and a["type"] == f["type"] and a["account_number"][-4:] == f["last4"]]
    if d.entity == "card":
        return [c["card_id"] for c in state["cards"] if c["customer_id"] == user
                and (c["network"], c["form"], c["last4"]) == (f["network"], f["form"],
                                                               f["last4"])]
    if d.entity == "payee":
        return [p["payee_id"] for p in state["payees"] if p["customer_id"] == user
                and p["name"] == f["name"]]
    if d.entity == "transaction":
        return [t["transaction_id"] for t in state["transactions"]
                if accounts[t["account_id"]]["customer_id"] == user
                and t["description"] == f["merchant"] and t["amount"] == -f["amount"]
                and t["date"] == f["date"]]
    if d.entity == "scheduled_payment":
        names = {p["payee_id"]: p["name"] for p in state["payees"]}
        return [s["scheduled_payment_id"] for s in state["scheduled_payments"]
                if s["customer_id"] == user and s["status"] == "active"
                and names[s["payee_id"]] == f["payee"] and s["amount"] == f["amount"]
                and s["frequency"] == f["frequency"]]
    raise AssertionError(f"unknown entity {d.entity}")


def test_descriptions_resolve_independently(state, tasks):
    kinds = checks.resolved_entities(tasks, lambda task, d: resolve(state, task.user_id, d))
    assert {"user", "account", "card", "payee", "transaction"} <= set(kinds)


def test_user_words_name_no_account_number(state, tasks):
    numbers = {a["account_number"] for a in state["accounts"]}
    for task in tasks:
        rng = np.random.default_rng(0)
        texts = [TASKS.identify(task, rng), task.identity.text]
        for c in task.constraints:
            texts += [TASKS.opening(task, c, rng), *c.say, *(d.text for d in c.refs.values())]
        for text in texts:
            assert not numbers & set(re.findall(r"\d{6,}", text)), text


def test_refusals_flag_the_forbidden_write(tpl, tasks):
    assert sum(t.startswith("info_") for t in TASKS.constraint_types) >= 2
    assert checks.flagged_refusals(tasks, FORBIDDEN)["refuse_old_dispute"] >= 3
    assert checks.violations_in_episodes("banking", FORBIDDEN) == {"refuse_old_dispute"}
    for c in (c for t in tasks for c in t.constraints if c.type == "file_dispute"):
        with Sandbox(tpl) as box:  # the allowed dispute is not flagged
            assert TASKS.policy_violations(box.db, "file_dispute", c.args) == []
