"""Each budget tool: its success path and its error paths; failed writes change nothing."""

from __future__ import annotations

from collections import Counter

from tool_gym.core.tools import Category
from tool_gym.domains.budget import DOMAIN
from tool_gym.domains.budget.tools import (THIS_MONTH, TODAY, month_bounds, months_between,
                                           next_due, spent_in)

from ..calls import fails, ok, one, rules_catch


def checking(box, minimum=100):
    """A user's open checking account holding at least ``minimum``."""
    return one(box, "SELECT user_id, account_id, balance FROM accounts WHERE kind = 'checking' "
                    "AND status = 'open' AND balance >= ? ORDER BY user_id LIMIT 1", (minimum,))


def category(box, user, kind="expense", status="active", offset=0):
    return one(box, "SELECT category_id FROM categories WHERE user_id = ? AND kind = ? AND "
                    "status = ? ORDER BY rowid LIMIT 1 OFFSET ?",
               (user, kind, status, offset))[0]


def balance(box, account):
    return one(box, "SELECT balance FROM accounts WHERE account_id = ?", (account,))[0]


# ------------------------------------------------------------------------- schemas


def test_toolbox_has_enough_reads_and_writes():
    counts = Counter(t.category for t in DOMAIN.toolbox)
    assert len(DOMAIN.toolbox) >= 16
    assert counts[Category.READ] >= 8 and counts[Category.WRITE] >= 8


def test_calendar_helpers():
    assert month_bounds("2024-02") == ("2024-02-01", "2024-02-29")
    assert months_between("2024-06", "2025-01") == 7 and months_between("2024-06", "2024-05") == -1
    assert next_due("2024-01-31", "monthly") == "2024-02-29"
    assert next_due("2024-06-20", "weekly") == "2024-06-27"
    assert next_due("2024-02-29", "yearly") == "2025-02-28"


# --------------------------------------------------------------------------- reads

def test_find_user(box, state):
    user = state["users"][3]
    assert ok(box, "find_user_by_email", email=f" {user['email'].upper()}") == user["user_id"]
    assert ok(box, "find_user_by_username", username=user["username"]) == user["user_id"]
    fails(box, "find_user_by_email", "no user", email="nobody@example.com")
    fails(box, "find_user_by_username", "no user", username="nobody")


def test_profile_accounts_and_categories(box):
    user, account, _ = checking(box)
    profile = ok(box, "get_user_profile", user_id=user)
    accounts = ok(box, "list_accounts", user_id=user)["accounts"]
    assert profile["net_worth"] == round(sum(a["balance"] for a in accounts
                                             if a["status"] == "open"), 2)
    assert all(("credit_limit" in a) == (a["kind"] == "credit_card") for a in accounts)
    archived, = one(box, "SELECT user_id FROM categories WHERE status = 'archived' LIMIT 1")
    active = ok(box, "list_categories", user_id=archived)["categories"]
    every = ok(box, "list_categories", user_id=archived, include_archived=True)["categories"]
    assert all(c["status"] == "active" for c in active) and len(every) == len(active) + 1
    for name in ("get_user_profile", "list_accounts", "list_categories", "get_budget_summary",
                 "list_transactions", "list_bills", "list_goals"):
        fails(box, name, "not found", user_id="usr_missing")


def test_budget_summary(box):
    user, = one(box, "SELECT c.user_id FROM budgets b JOIN categories c USING (category_id) "
                     "WHERE b.month = ? LIMIT 1", (THIS_MONTH,))
    summary = ok(box, "get_budget_summary", user_id=user)
    assert summary["month"] == THIS_MONTH and summary["categories"]
    for line in summary["categories"]:
        assert line["spent"] == spent_in(box.db, line["category_id"], THIS_MONTH)
        assert line["remaining"] == round(line["budgeted"] - line["spent"], 2)
    assert summary["total_spent"] == round(sum(x["spent"] for x in summary["categories"]), 2)
    assert ok(box, "get_budget_summary", user_id=user, month="2024-04")["income"] > 0
    fails(box, "get_budget_summary", "YYYY-MM", user_id=user, month="April")
    fails(box, "get_budget_summary", "YYYY-MM", user_id=user, month="2024-13")


def test_transactions_filters(box):
    user, account, _ = checking(box)
    every = ok(box, "list_transactions", user_id=user)
    dates = [t["date"] for t in every["transactions"]]
    assert dates == sorted(dates, reverse=True) and len(dates) == min(50, every["matches"])
    mine = ok(box, "list_transactions", user_id=user, account_id=account)["transactions"]
    assert mine and all(t["account_id"] == account for t in mine)
    window = ok(box, "list_transactions", user_id=user, start_date="2024-04-01",
                end_date="2024-04-30")["transactions"]
    assert window and all("2024-04-01" <= t["date"] <= "2024-04-30" for t in window)
    loose, = one(box, "SELECT user_id FROM transactions WHERE category_id IS NULL "
                      "AND goal_id IS NULL LIMIT 1")
    unsorted = ok(box, "list_transactions", user_id=loose, uncategorized_only=True)
    assert unsorted["transactions"] and all(t["category_id"] is None and t["goal_id"] is None
                                            for t in unsorted["transactions"])
    fails(box, "list_transactions", "after end_date", user_id=user, start_date="2024-06-01",
          end_date="2024-05-01")
    fails(box, "list_transactions", "YYYY-MM-DD", user_id=user, start_date="June 1")
    txn = mine[0]["transaction_id"]
    assert ok(box, "get_transaction", transaction_id=txn)["account_id"] == account
    fails(box, "get_transaction", "not found", transaction_id="txn_missing")


def test_bills_and_goals(box):
    user, = one(box, "SELECT user_id FROM goals WHERE status = 'active' LIMIT 1")
    goals = ok(box, "list_goals", user_id=user)["goals"]
    assert all(g["remaining"] == round(max(0, g["target_amount"] - g["saved_amount"]), 2)
               for g in goals)
    billed, = one(box, "SELECT user_id FROM bills LIMIT 1")
    bills = ok(box, "list_bills", user_id=billed)["bills"]
    assert bills and all(b["category"] for b in bills)
    assert ok(box, "transfer_to_human_agents", summary="help") == "Transfer successful"


# -------------------------------------------------------------------------- writes

def test_add_transaction(box):
    user, account, before = checking(box, 200)
    food = category(box, user)
    made = ok(box, "add_transaction", account_id=account, date=TODAY, payee=" Corner  Deli ",
              amount=-12.5, category_id=food, memo="lunch")
    assert made["payee"] == "Corner Deli" and made["amount"] == -12.5
    assert made["status"] == "cleared" and balance(box, account) == round(before - 12.5, 2)
    salary = category(box, user, kind="income")
    ok(box, "add_transaction", account_id=account, date="2024-06-01", payee="Bonus",
       amount=100, category_id=salary)
    assert box.check_integrity() == []
    state = box.state_hash()
    args = {"account_id": account, "date": TODAY, "payee": "Shop"}
    fails(box, "add_transaction", "not be zero", **args, amount=0)
    fails(box, "add_transaction", "whole cents", **args, amount=-1.234)
    fails(box, "add_transaction", "between 2024-01-01 and today", **{**args, "date": "2024-07-01"},
          amount=-5)
    fails(box, "add_transaction", "insufficient balance", **args, amount=-1_000_000)
    fails(box, "add_transaction", "income category", **args, amount=-5, category_id=salary)
    fails(box, "add_transaction", "must not be empty", **{**args, "payee": "  "}, amount=-5)
    other, = one(box, "SELECT category_id FROM categories WHERE user_id != ? LIMIT 1", (user,))
    fails(box, "add_transaction", "another user", **args, amount=-5, category_id=other)
    closed, = one(box, "SELECT account_id FROM accounts WHERE status = 'closed' LIMIT 1")
    fails(box, "add_transaction", "closed", **{**args, "account_id": closed}, amount=5)
    fails(box, "add_transaction", "not found", **{**args, "account_id": "acc_missing"}, amount=5)
    assert box.state_hash() == state


def test_credit_card_limit(box):
    card, limit, owed = one(box, "SELECT account_id, credit_limit, balance FROM accounts "
                                 "WHERE kind = 'credit_card' LIMIT 1")
    fails(box, "add_transaction", "credit limit", account_id=card, date=TODAY, payee="TV",
          amount=-round(limit + owed + 1, 2))
    ok(box, "add_transaction", account_id=card, date=TODAY, payee="TV",
       amount=-round(limit + owed, 2))
    assert balance(box, card) == -limit


def test_categorize_transaction(box):
    txn, user, amount = one(box, "SELECT transaction_id, user_id, amount FROM transactions "
                                 "WHERE category_id IS NULL AND goal_id IS NULL AND amount < 0 "
                                 "LIMIT 1")
    target = category(box, user)
    assert ok(box, "categorize_transaction", transaction_id=txn,
              category_id=target)["category_id"] == target
    state = box.state_hash()
    fails(box, "categorize_transaction", "already in", transaction_id=txn, category_id=target)
    fails(box, "categorize_transaction", "income category", transaction_id=txn,
          category_id=category(box, user, kind="income"))
    other, = one(box, "SELECT category_id FROM categories WHERE user_id != ? LIMIT 1", (user,))
    fails(box, "categorize_transaction", "another user", transaction_id=txn, category_id=other)
    archived, owner = one(box, "SELECT category_id, user_id FROM categories "
                               "WHERE status = 'archived' LIMIT 1")
    mine, = one(box, "SELECT transaction_id FROM transactions WHERE user_id = ? "
                     "AND goal_id IS NULL LIMIT 1", (owner,))
    fails(box, "categorize_transaction", "archived", transaction_id=mine, category_id=archived)
    goal_txn, goal_user = one(box, "SELECT transaction_id, user_id FROM transactions "
                                   "WHERE goal_id IS NOT NULL LIMIT 1")
    fails(box, "categorize_transaction", "savings goal", transaction_id=goal_txn,
          category_id=category(box, goal_user))
    fails(box, "categorize_transaction", "not found", transaction_id="txn_missing",
          category_id=target)
    assert box.state_hash() == state


def test_set_budget(box):
    user, = one(box, "SELECT user_id FROM users LIMIT 1")
    target = category(box, user)
    made = ok(box, "set_budget", category_id=target, month="2024-09", amount=275)
    assert made["budgeted"] == 275 and made["remaining"] == 275
    again = ok(box, "set_budget", category_id=target, month="2024-09", amount=300.5)
    assert again["budget_id"] == made["budget_id"] and again["budgeted"] == 300.5
    state = box.state_hash()
    fails(box, "set_budget", "already 300.50", category_id=target, month="2024-09",
          amount=300.5)
    fails(box, "set_budget", "12 months ahead", category_id=target, month="2025-07", amount=10)
    fails(box, "set_budget", "YYYY-MM", category_id=target, month="Sept", amount=10)
    fails(box, "set_budget", "not be negative", category_id=target, month="2024-09", amount=-5)
    fails(box, "set_budget", "income category", category_id=category(box, user, "income"),
          month="2024-09", amount=10)
    archived, = one(box, "SELECT category_id FROM categories WHERE status = 'archived' LIMIT 1")
    fails(box, "set_budget", "archived", category_id=archived, month="2024-09", amount=10)
    fails(box, "set_budget", "not found", category_id="cat_missing", month="2024-09", amount=1)
    assert box.state_hash() == state
    assert ok(box, "set_budget", category_id=target, month="2024-09", amount=0)["budgeted"] == 0


def test_categories(box):
    user, = one(box, "SELECT user_id FROM users LIMIT 1")
    made = ok(box, "create_category", user_id=user, name="  Pet   Care ", group="lifestyle")
    assert made["name"] == "Pet Care" and made["kind"] == "expense"
    assert ok(box, "create_category", user_id=user, name="Tutoring", group="income")["kind"] \
        == "income"
    state = box.state_hash()
    fails(box, "create_category", "already has a category", user_id=user, name="pet care",
          group="essentials")
    fails(box, "create_category", "must be one of", user_id=user, name="X", group="fun")
    fails(box, "create_category", "too long", user_id=user, name="x" * 61, group="lifestyle")
    assert box.state_hash() == state
    assert ok(box, "archive_category", category_id=made["category_id"])["status"] == "archived"
    fails(box, "archive_category", "already archived", category_id=made["category_id"])
    billed, = one(box, "SELECT category_id FROM bills WHERE status = 'active' LIMIT 1")
    fails(box, "archive_category", "active bills use", category_id=billed)
    for n in range(40):
        result = box.call("create_category", {"user_id": user, "name": f"Extra {n}",
                                              "group": "lifestyle"})
        if not result.ok:
            assert "at most 40" in result.content
            break
    else:
        raise AssertionError("no limit on categories")


def test_bills(box):
    user, account, _ = checking(box, 500)
    target = category(box, user)
    made = ok(box, "add_bill", user_id=user, name="Trash Pickup", amount=32.4,
              category_id=target, account_id=account, frequency="monthly",
              next_due="2024-06-30")
    assert made["status"] == "active"
    state = box.state_hash()
    args = {"user_id": user, "amount": 10, "category_id": target, "account_id": account,
            "frequency": "weekly", "next_due": "2024-07-01"}
    fails(box, "add_bill", "already has an active bill", **args, name="trash pickup")
    fails(box, "add_bill", "after today", **{**args, "next_due": TODAY}, name="Water")
    fails(box, "add_bill", "must be one of", **{**args, "frequency": "daily"}, name="Water")
    fails(box, "add_bill", "income category", **{**args, "category_id": category(
        box, user, "income")}, name="Water")
    other, = one(box, "SELECT account_id FROM accounts WHERE user_id != ? LIMIT 1", (user,))
    fails(box, "add_bill", "another user", **{**args, "account_id": other}, name="Water")
    assert box.state_hash() == state
    before = balance(box, account)
    paid = ok(box, "mark_bill_paid", bill_id=made["bill_id"])
    assert paid["next_due"] == "2024-07-30" and paid["paid_on"] == TODAY
    assert balance(box, account) == round(before - 32.4, 2)
    assert one(box, "SELECT bill_id, amount FROM transactions WHERE transaction_id = ?",
               (paid["transaction_id"],)) == (made["bill_id"], -32.4)
    assert ok(box, "cancel_bill", bill_id=made["bill_id"])["status"] == "cancelled"
    state = box.state_hash()
    fails(box, "cancel_bill", "already cancelled", bill_id=made["bill_id"])
    fails(box, "mark_bill_paid", "cancelled", bill_id=made["bill_id"])
    fails(box, "mark_bill_paid", "not found", bill_id="bil_missing")
    assert box.state_hash() == state
    assert box.check_integrity() == []


def test_bill_needs_money(box):
    bill, account = one(box, "SELECT b.bill_id, b.account_id FROM bills b JOIN accounts a "
                             "USING (account_id) WHERE b.status = 'active' AND a.kind = "
                             "'checking' LIMIT 1")
    box.db.execute("UPDATE accounts SET opening_balance = opening_balance - balance, "
                   "balance = 0 WHERE account_id = ?", (account,))
    fails(box, "mark_bill_paid", "insufficient balance", bill_id=bill)


def test_goals(box):
    user, account, before, card = one(
        box, "SELECT a.user_id, a.account_id, a.balance, c.account_id FROM accounts a JOIN "
             "accounts c ON c.user_id = a.user_id AND c.kind = 'credit_card' WHERE a.kind = "
             "'checking' AND a.status = 'open' AND a.balance >= 300 LIMIT 1")
    goal = ok(box, "create_goal", user_id=user, name="Road Trip", target_amount=250,
              target_date="2024-12-31")
    assert goal["saved_amount"] == 0 and goal["remaining"] == 250
    state = box.state_hash()
    fails(box, "create_goal", "already has a goal", user_id=user, name="road trip",
          target_amount=10, target_date="2024-12-31")
    fails(box, "create_goal", "after today", user_id=user, name="Late", target_amount=10,
          target_date=TODAY)
    fails(box, "create_goal", "positive", user_id=user, name="Zero", target_amount=0,
          target_date="2024-12-31")
    assert box.state_hash() == state
    part = ok(box, "contribute_to_goal", goal_id=goal["goal_id"], from_account_id=account,
              amount=100)
    assert part["saved_amount"] == 100 and part["status"] == "active"
    assert balance(box, account) == round(before - 100, 2)
    done = ok(box, "contribute_to_goal", goal_id=goal["goal_id"], from_account_id=account,
              amount=150)
    assert done["status"] == "completed" and done["remaining"] == 0
    state = box.state_hash()
    fails(box, "contribute_to_goal", "insufficient balance", goal_id=goal["goal_id"],
          from_account_id=account, amount=10_000_000)
    fails(box, "contribute_to_goal", "only from a checking or savings", goal_id=goal["goal_id"],
          from_account_id=card, amount=1)
    other, = one(box, "SELECT account_id FROM accounts WHERE user_id != ? AND kind = "
                      "'checking' LIMIT 1", (user,))
    fails(box, "contribute_to_goal", "another user", goal_id=goal["goal_id"],
          from_account_id=other, amount=1)
    fails(box, "contribute_to_goal", "not found", goal_id="gol_missing",
          from_account_id=account, amount=1)
    assert box.state_hash() == state
    assert box.check_integrity() == []


def test_created_ids_never_clash_with_generated_ones(box):
    user, account, _ = checking(box)
    first = ok(box, "add_transaction", account_id=account, date=TODAY, payee="A", amount=1)
    second = ok(box, "add_transaction", account_id=account, date=TODAY, payee="B", amount=1)
    assert first["transaction_id"] != second["transaction_id"]
    assert first["transaction_id"][4:].isdigit()


def test_invariants_catch_broken_rules(box):
    rules_catch(box, {
        "opening balance plus its transactions": "UPDATE accounts SET balance = balance + 1 "
        "WHERE rowid = 1",
        "never go below zero": "UPDATE accounts SET opening_balance = opening_balance - "
        "balance - 5, balance = -5 WHERE kind = 'checking' AND rowid = (SELECT min(rowid) "
        "FROM accounts WHERE kind = 'checking')",
        "income category only takes money coming in": "UPDATE transactions SET amount = "
        "-amount WHERE rowid = (SELECT t.rowid FROM transactions t JOIN categories c USING "
        "(category_id) WHERE c.kind = 'income' LIMIT 1)",
        "transfers into it": "UPDATE goals SET saved_amount = saved_amount + 1 WHERE rowid = 1",
        "belong to its user": "UPDATE transactions SET category_id = (SELECT category_id FROM "
        "categories WHERE user_id != transactions.user_id LIMIT 1) WHERE rowid = 1",
        "budgets are for expense categories": "UPDATE budgets SET category_id = (SELECT "
        "category_id FROM categories WHERE kind = 'income' LIMIT 1) WHERE rowid = 1",
        "active bill's category is active": "UPDATE categories SET status = 'archived' WHERE "
        "category_id = (SELECT category_id FROM bills WHERE status = 'active' LIMIT 1)",
    })
