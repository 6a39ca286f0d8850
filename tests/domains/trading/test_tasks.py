"""The trading task kit: its refusals and policy rules, descriptions resolved over the plain
data, account numbers kept out of the investor's words. The checks every domain shares are
in tests/domains/test_conformance.py."""

from __future__ import annotations

import re

import numpy as np

from tool_gym.core.actions import ToolCall
from tool_gym.core.sandbox import Sandbox
from tool_gym.domains.trading.tasks import TASKS

from .. import taskchecks as checks

FORBIDDEN = {  # refusal type -> the write it forbids (both rules the tools enforce too)
    "refuse_over_balance": checks.Forbidden(lambda c, _: ToolCall(
        "place_market_order", dict(c.args)), ("policy:buying_power",), tool_allows=False),
    "cancel_processed_order": checks.Forbidden(lambda c, _: ToolCall(
        "cancel_order", {"order_id": c.args["order_id"]}), ("policy:order_not_open",),
        tool_allows=False),
}


def resolve(state: dict, user: str, d) -> list:
    f = d.fields
    if d.entity == "user":
        return checks.identified(state["investors"], "investor_id", f)
    accounts = {a["account_id"]: a for a in state["accounts"]}
    if d.entity == "account":
        return [a["account_id"] for a in state["accounts"] if a["investor_id"] == user
                and a["type"] == f["type"] and a["account_number"][-4:] == f["last4"]]
    if d.entity == "bank":
        return [b["bank_link_id"] for b in state["bank_links"] if b["investor_id"] == user
                and b["bank_name"] == f["bank_name"] and b["account_last4"] == f["last4"]]
    if d.entity == "order":
        mine = [o for o in state["orders"] if accounts[o["account_id"]]["investor_id"] == user
                and (o["side"], o["quantity"], o["symbol"]) == (f["side"], f["quantity"],
                                                                f["symbol"])]
        if "limit_price" in f:  # an open limit order
            return [o["order_id"] for o in mine if o["status"] == "open"
                    and o["limit_price"] == f["limit_price"]]
        return [o["order_id"] for o in mine if o["placed_at"][:10] == f["date"]]
    if d.entity == "alert":
        return [p["alert_id"] for p in state["price_alerts"] if p["investor_id"] == user
                and p["status"] == "active" and (p["symbol"], p["direction"], p["target_price"])
                == (f["symbol"], f["direction"], f["target_price"])]
    if d.entity == "watchlist":
        return [w["watchlist_id"] for w in state["watchlists"] if w["investor_id"] == user
                and w["name"] == f["name"]]
    raise AssertionError(f"unknown entity {d.entity}")


def test_descriptions_resolve_independently(state, tasks):
    kinds = checks.resolved_entities(tasks, lambda task, d: resolve(state, task.user_id, d))
    assert {"user", "account", "bank", "order", "alert", "watchlist"} <= set(kinds)


def test_user_words_name_no_account_number(state, tasks):
    numbers = {a["account_number"] for a in state["accounts"]}
    for task in tasks:
        rng = np.random.default_rng(0)
        texts = [TASKS.identify(task, rng), task.identity.text]
        for c in task.constraints:
            texts += [TASKS.opening(task, c, rng), *c.say, *(d.text for d in c.refs.values())]
        for text in texts:
            assert not numbers & set(re.findall(r"\d{6,}", text)), text


def test_refusals_flag_the_forbidden_write(tasks):
    assert sum(t.startswith("info_") for t in TASKS.constraint_types) >= 3
    tried = checks.flagged_refusals(tasks, FORBIDDEN)
    assert tried["refuse_over_balance"] >= 3 and tried["cancel_processed_order"] >= 3


def test_policy_names_the_ira_rules_and_spares_allowed_writes(tpl, tasks):
    db = tpl.reader()
    ira, bank, room = db.execute(
        "SELECT a.account_id, b.bank_link_id, 7000 - coalesce((SELECT sum(t.amount) FROM "
        "cash_transfers t WHERE t.account_id = a.account_id AND t.direction = 'deposit' "
        "AND t.created_at >= '2024'), 0) FROM accounts a JOIN bank_links b USING (investor_id) "
        "WHERE a.type = 'ira' AND b.status = 'verified' AND a.status = 'open' "
        "AND a.cash_balance - a.reserved_cash > 500 LIMIT 1").fetchone()
    withdraw = {"account_id": ira, "bank_link_id": bank, "amount": 100.0}
    assert TASKS.policy_violations(db, "withdraw_funds", withdraw) == ["policy:ira_withdrawal"]
    with Sandbox(tpl) as box:  # the tool trusts the agent with this rule
        assert box.call("withdraw_funds", withdraw).ok
    over = {"account_id": ira, "bank_link_id": bank, "amount": float(room) + 1}
    assert TASKS.policy_violations(db, "deposit_funds", over) == \
        ["policy:ira_contribution_limit"]
    for c in (c for t in tasks for c in t.constraints
              if c.type in ("withdraw_funds", "deposit_funds", "buy_shares",
                            "place_limit_order", "cancel_open_order")):
        tool = c.solution[-2].call
        assert TASKS.policy_violations(db, tool.name, tool.arguments) == [], c.type
    assert TASKS.policy_violations(db, "withdraw_funds", {"account_id": 3}) == []
