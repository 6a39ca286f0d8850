"""Each banking tool: its success path and its error paths; failed writes change nothing."""

from __future__ import annotations

from collections import Counter

from tool_gym.core.tools import Category
from tool_gym.domains.banking import DOMAIN
from tool_gym.domains.banking.tools import TODAY, money, transferred_today

from ..calls import fails, ok, one, rules_catch


def two_accounts(box):
    """A customer with a checking and an open savings account, and a roomy daily limit."""
    return one(box, "SELECT c.customer_id, a.account_id, b.account_id FROM customers c "
                    "JOIN accounts a ON a.customer_id = c.customer_id AND a.type = 'checking' "
                    "JOIN accounts b ON b.customer_id = c.customer_id AND b.type = 'savings' "
                    "AND b.status = 'open' WHERE a.balance - a.hold_amount > 500 "
                    "AND c.daily_transfer_limit >= 5000 AND NOT EXISTS (SELECT 1 FROM transfers "
                    "t WHERE t.customer_id = c.customer_id AND t.created_at >= ?) LIMIT 1",
               (TODAY,))


def balance(box, account_id):
    return one(box, "SELECT balance FROM accounts WHERE account_id = ?", (account_id,))[0]


# ------------------------------------------------------------------------- schemas


def test_toolbox_has_six_reads_and_six_writes_at_least():
    counts = Counter(t.category for t in DOMAIN.toolbox)
    assert counts[Category.READ] >= 6 and counts[Category.WRITE] >= 6


# --------------------------------------------------------------------------- reads

def test_find_customer(box, state):
    customer = state["customers"][7]
    assert ok(box, "find_customer_by_email",
              email=f"  {customer['email'].upper()} ") == customer["customer_id"]
    assert ok(box, "find_customer_by_username",
              username=customer["username"]) == customer["customer_id"]
    fails(box, "find_customer_by_email", "no customer", email="nobody@example.com")
    fails(box, "find_customer_by_username", "no customer", username="nobody")


def test_profile_and_accounts(box):
    customer, checking, savings = two_accounts(box)
    profile = ok(box, "get_customer_profile", customer_id=customer)
    assert {checking, savings} <= set(profile["account_ids"])
    assert profile["transferred_today"] == 0
    assert profile["remaining_daily_limit"] == profile["daily_transfer_limit"]
    accounts = ok(box, "list_accounts", customer_id=customer)["accounts"]
    for a in accounts:
        assert a["available_balance"] == money(a["balance"] - a["hold_amount"])
        assert len(a["account_number_last4"]) == 4
    fails(box, "get_customer_profile", "not found", customer_id="cus_missing")
    fails(box, "list_accounts", "not found", customer_id="cus_missing")


def test_transactions_filters(box):
    account, merchant = one(box, "SELECT account_id, description FROM transactions "
                                 "WHERE kind = 'card_purchase' GROUP BY account_id, description "
                                 "HAVING count(*) >= 2 LIMIT 1")
    all_rows = ok(box, "get_account_transactions", account_id=account)["transactions"]
    dates = [t["date"] for t in all_rows]
    assert dates == sorted(dates, reverse=True)
    rows = ok(box, "get_account_transactions", account_id=account,
              merchant=merchant.lower())["transactions"]
    assert len(rows) >= 2 and all(t["description"] == merchant for t in rows)
    window = ok(box, "get_account_transactions", account_id=account, start_date="2024-05-01",
                end_date="2024-05-31")["transactions"]
    assert all("2024-05-01" <= t["date"] <= "2024-05-31" for t in window)
    fails(box, "get_account_transactions", "YYYY-MM-DD", account_id=account,
          start_date="May 1")
    fails(box, "get_account_transactions", "not a valid date", account_id=account,
          start_date="2024-02-30")
    fails(box, "get_account_transactions", "after end_date", account_id=account,
          start_date="2024-06-01", end_date="2024-05-01")
    fails(box, "get_account_transactions", "not found", account_id="acc_missing")


def test_get_transaction(box):
    txn, = one(box, "SELECT transaction_id FROM disputes LIMIT 1")
    record = ok(box, "get_transaction", transaction_id=txn)
    assert record["dispute"]["status"] in ("open", "resolved", "rejected")
    assert record["days_ago"] >= 0
    fails(box, "get_transaction", "not found", transaction_id="txn_missing")


def test_lists(box):
    customer, = one(box, "SELECT customer_id FROM scheduled_payments LIMIT 1")
    cards = ok(box, "list_cards", customer_id=customer)["cards"]
    assert cards and all(c["customer_id"] == customer for c in cards)
    payees = ok(box, "list_payees", customer_id=customer)["payees"]
    assert payees and all(len(p["account_number_last4"]) == 4 for p in payees)
    assert "account_number" not in payees[0]
    scheduled = ok(box, "list_scheduled_payments", customer_id=customer)["scheduled_payments"]
    assert scheduled and all(s["payee_name"] for s in scheduled)
    disputer, = one(box, "SELECT customer_id FROM disputes LIMIT 1")
    assert ok(box, "list_disputes", customer_id=disputer)["disputes"]
    for name in ("list_cards", "list_payees", "list_scheduled_payments", "list_disputes"):
        fails(box, name, "not found", customer_id="cus_missing")
    assert ok(box, "transfer_to_human_agents", summary="help") == "Transfer successful"


# -------------------------------------------------------------------------- writes

def test_transfer_between_accounts(box):
    customer, checking, savings = two_accounts(box)
    b1, b2 = balance(box, checking), balance(box, savings)
    result = ok(box, "transfer_between_accounts", from_account_id=checking,
                to_account_id=savings, amount=123.45, memo="rainy day")
    assert balance(box, checking) == money(b1 - 123.45)
    assert balance(box, savings) == money(b2 + 123.45)
    assert result["from_account_balance"] == money(b1 - 123.45)
    kinds = box.db.execute("SELECT kind, amount FROM transactions WHERE transfer_id = ? "
                           "ORDER BY kind", (result["transfer_id"],)).fetchall()
    assert kinds == [("transfer_in", 123.45), ("transfer_out", -123.45)]
    assert transferred_today(box.db, customer) == 123.45
    assert box.check_integrity() == []


def test_transfer_errors(box):
    customer, checking, savings = two_accounts(box)
    other, = one(box, "SELECT account_id FROM accounts WHERE customer_id != ? AND status = 'open' "
                      "LIMIT 1", (customer,))
    closed, = one(box, "SELECT account_id FROM accounts WHERE status = 'closed' LIMIT 1")
    available = money(balance(box, checking) - one(
        box, "SELECT hold_amount FROM accounts WHERE account_id = ?", (checking,))[0])
    before = box.state_hash()
    args = {"from_account_id": checking, "to_account_id": savings}
    fails(box, "transfer_between_accounts", "positive", **args, amount=0)
    fails(box, "transfer_between_accounts", "whole cents", **args, amount=10.005)
    fails(box, "transfer_between_accounts", "different", from_account_id=checking,
          to_account_id=checking, amount=10)
    fails(box, "transfer_between_accounts", "same customer", from_account_id=checking,
          to_account_id=other, amount=10)
    fails(box, "transfer_between_accounts", "closed", from_account_id=closed,
          to_account_id=one(box, "SELECT account_id FROM accounts WHERE customer_id = ("
                                 "SELECT customer_id FROM accounts WHERE account_id = ?) "
                                 "AND status = 'open'", (closed,))[0], amount=1)
    fails(box, "transfer_between_accounts", "insufficient available balance", **args,
          amount=money(available + 0.01))
    fails(box, "transfer_between_accounts", "not found", from_account_id="acc_missing",
          to_account_id=savings, amount=1)
    fails(box, "transfer_between_accounts", "must be of type number", **args, amount="10")
    assert box.state_hash() == before


def test_daily_limit(box):
    customer, checking, savings = two_accounts(box)
    limit, = one(box, "SELECT daily_transfer_limit FROM customers WHERE customer_id = ?",
                 (customer,))
    box.db.execute("UPDATE accounts SET balance = ? WHERE account_id = ?", (limit * 3, checking))
    ok(box, "transfer_between_accounts", from_account_id=checking, to_account_id=savings,
       amount=limit - 10)
    before = box.state_hash()
    fails(box, "transfer_between_accounts", "daily transfer limit", from_account_id=checking,
          to_account_id=savings, amount=20)
    assert box.state_hash() == before
    ok(box, "transfer_between_accounts", from_account_id=checking, to_account_id=savings,
       amount=10)


def test_pay_payee(box):
    customer, payee, name, account = one(
        box, "SELECT p.customer_id, p.payee_id, p.name, a.account_id FROM payees p "
             "JOIN accounts a ON a.customer_id = p.customer_id AND a.type = 'checking' "
             "WHERE a.balance - a.hold_amount > 100 LIMIT 1")
    b = balance(box, account)
    result = ok(box, "pay_payee", from_account_id=account, payee_id=payee, amount=42.1)
    assert result["payee_id"] == payee and balance(box, account) == money(b - 42.1)
    row = one(box, "SELECT description, kind, amount FROM transactions WHERE transfer_id = ?",
              (result["transfer_id"],))
    assert row == (f"Payment to {name}", "bill_payment", -42.1)
    stranger, = one(box, "SELECT payee_id FROM payees WHERE customer_id != ? LIMIT 1",
                    (customer,))
    before = box.state_hash()
    fails(box, "pay_payee", "does not belong", from_account_id=account, payee_id=stranger,
          amount=1)
    fails(box, "pay_payee", "not found", from_account_id=account, payee_id="pay_missing",
          amount=1)
    fails(box, "pay_payee", "insufficient", from_account_id=account, payee_id=payee,
          amount=10_000_000)
    assert box.state_hash() == before


def test_add_payee(box):
    customer, name = one(box, "SELECT customer_id, name FROM payees LIMIT 1")
    payee = ok(box, "add_payee", customer_id=customer, name="Blue Sky Dental",
               bank_name="Citizens Bank", account_number="0012345678", category="other")
    assert payee["account_number_last4"] == "5678" and payee["added_on"] == TODAY
    before = box.state_hash()
    fails(box, "add_payee", "already exists", customer_id=customer, name=name.upper(),
          bank_name="X", account_number="123456", category="other")
    fails(box, "add_payee", "6 to 17 digits", customer_id=customer, name="New One",
          bank_name="X", account_number="12-34", category="other")
    fails(box, "add_payee", "must not be empty", customer_id=customer, name="  ",
          bank_name="X", account_number="123456", category="other")
    fails(box, "add_payee", "must be one of", customer_id=customer, name="New One",
          bank_name="X", account_number="123456", category="groceries")
    fails(box, "add_payee", "not found", customer_id="cus_missing", name="New One",
          bank_name="X", account_number="123456", category="other")
    assert box.state_hash() == before


def test_schedule_and_cancel_payment(box):
    customer, payee, account = one(
        box, "SELECT p.customer_id, p.payee_id, a.account_id FROM payees p JOIN accounts a "
             "ON a.customer_id = p.customer_id AND a.type = 'checking' LIMIT 1")
    made = ok(box, "schedule_payment", from_account_id=account, payee_id=payee, amount=75.5,
              start_date="2024-07-01", frequency="monthly")
    assert made["status"] == "active" and made["next_date"] == "2024-07-01"
    before = box.state_hash()
    fails(box, "schedule_payment", "after today", from_account_id=account, payee_id=payee,
          amount=1, start_date=TODAY, frequency="once")
    fails(box, "schedule_payment", "YYYY-MM-DD", from_account_id=account, payee_id=payee,
          amount=1, start_date="07/01/2024", frequency="once")
    fails(box, "schedule_payment", "must be one of", from_account_id=account, payee_id=payee,
          amount=1, start_date="2024-07-01", frequency="daily")
    assert box.state_hash() == before
    ok(box, "cancel_scheduled_payment", scheduled_payment_id=made["scheduled_payment_id"])
    before = box.state_hash()
    fails(box, "cancel_scheduled_payment", "already cancelled",
          scheduled_payment_id=made["scheduled_payment_id"])
    fails(box, "cancel_scheduled_payment", "not found", scheduled_payment_id="sch_missing")
    assert box.state_hash() == before


def test_freeze_and_unfreeze(box):
    card, = one(box, "SELECT card_id FROM cards WHERE status = 'active' LIMIT 1")
    cancelled, = one(box, "SELECT card_id FROM cards WHERE status = 'cancelled' LIMIT 1")
    before = box.state_hash()
    fails(box, "unfreeze_card", "only a frozen card", card_id=card)
    fails(box, "freeze_card", "cancelled", card_id=cancelled)
    fails(box, "freeze_card", "not found", card_id="card_missing")
    assert box.state_hash() == before
    assert ok(box, "freeze_card", card_id=card)["status"] == "frozen"
    fails(box, "freeze_card", "already frozen", card_id=card)
    assert ok(box, "unfreeze_card", card_id=card)["status"] == "active"


def test_file_dispute(box):
    txn, amount = one(box, "SELECT t.transaction_id, t.amount FROM transactions t "
                           "WHERE t.kind = 'card_purchase' AND t.status = 'posted' AND NOT EXISTS "
                           "(SELECT 1 FROM disputes d WHERE d.transaction_id = t.transaction_id) "
                           "LIMIT 1")
    made = ok(box, "file_dispute", transaction_id=txn, reason="fraud")
    assert made["amount"] == -amount and made["status"] == "open"
    pending, = one(box, "SELECT transaction_id FROM transactions WHERE status = 'pending' LIMIT 1")
    deposit, = one(box, "SELECT transaction_id FROM transactions WHERE kind = 'deposit' LIMIT 1")
    before = box.state_hash()
    fails(box, "file_dispute", "already disputed", transaction_id=txn, reason="fraud")
    fails(box, "file_dispute", "pending", transaction_id=pending, reason="fraud")
    fails(box, "file_dispute", "only card purchases", transaction_id=deposit, reason="fraud")
    fails(box, "file_dispute", "not found", transaction_id="txn_missing", reason="fraud")
    fails(box, "file_dispute", "must be one of", transaction_id=txn, reason="angry")
    assert box.state_hash() == before
    assert box.check_integrity() == []


def test_created_ids_never_clash_with_generated_ones(box):
    customer, checking, savings = two_accounts(box)
    first = ok(box, "transfer_between_accounts", from_account_id=checking,
               to_account_id=savings, amount=1)["transfer_id"]
    second = ok(box, "transfer_between_accounts", from_account_id=checking,
                to_account_id=savings, amount=1)["transfer_id"]
    assert first != second and first.split("_")[1].isdigit()


def test_invariants_catch_broken_rules(box):
    rules_catch(box, {
        "pending card purchases": "UPDATE accounts SET hold_amount = 0 WHERE account_id = "
        "(SELECT account_id FROM accounts WHERE hold_amount > 0 LIMIT 1)",
        "non-negative": "UPDATE accounts SET balance = -5 WHERE account_id = (SELECT "
        "account_id FROM accounts WHERE hold_amount = 0 LIMIT 1 OFFSET 3)"})
