"""The tools of the banking domain: 10 reads, 8 writes and a transfer to a human agent.

Every tool takes the sandbox's SQLite connection first and uses parameterized SQL only.
A write checks all its preconditions before its first statement and raises
:class:`ToolError` with a clear message when one fails (the toolbox also wraps each write
in a savepoint). Money is in dollars, rounded to cents in Python.

Rules the tools enforce: transfers and payments never exceed the available balance
(balance minus holds) nor the customer's daily transfer limit; both accounts of an
internal transfer belong to the same customer and are open; freeze / unfreeze only from
the opposite state; a transaction is disputed at most once and only when it is a posted
card purchase. The 60-day dispute window is a policy rule the agent must apply (the tool
does not check it, as in tau2, where tools trust the agent).
"""

from __future__ import annotations

import re
import sqlite3
from datetime import date
from typing import Annotated, Literal

from ...core.arguments import check_cents, check_date
from ...core.common_tools import human_transfer_tool
from ...core.ids import counted_id
from ...core.rows import fetch_row, find_id
from ...core.tools import Category, Entity, Quotas, ToolError, tool

#: Growth bounds of one sandbox (see :class:`~tool_gym.core.tools.Quotas`): templates hold
#: about 6,000 transactions.
QUOTAS = Quotas(rows={"transfers": 10_000, "transactions": 30_000, "payees": 5_000,
                      "scheduled_payments": 5_000, "disputes": 5_000})

#: The bank's clock (fixed, so that every episode is reproducible).
TODAY = "2024-06-14"
NOW = "2024-06-14T12:00:00"
#: Disputes may be filed only for transactions at most this many days old (policy).
DISPUTE_WINDOW_DAYS = 60

CustomerId = Annotated[str, Entity("customer_id")]
AccountId = Annotated[str, Entity("account_id")]
CardId = Annotated[str, Entity("card_id")]
PayeeId = Annotated[str, Entity("payee_id")]
TransactionId = Annotated[str, Entity("transaction_id")]
ScheduledPaymentId = Annotated[str, Entity("scheduled_payment_id")]

PayeeCategory = Literal["utility", "rent", "credit_card", "insurance", "person", "other"]
DisputeReason = Literal["fraud", "duplicate_charge", "item_not_received", "incorrect_amount"]
Frequency = Literal["once", "weekly", "monthly"]


def money(value: float) -> float:
    """A dollar amount rounded to cents (the one rounding used everywhere)."""
    return round(float(value) + 0.0, 2)


def days_before_today(day: str) -> int:
    """Whole days from ``day`` (ISO date) to ``TODAY``."""
    return (date.fromisoformat(TODAY) - date.fromisoformat(day)).days


# ------------------------------------------------------------------------- records

_ACCOUNT_COLUMNS = ("account_id, customer_id, type, nickname, account_number, balance, "
                    "hold_amount, interest_rate, status, opened_on")


def _account_record(row: tuple) -> dict:
    (account_id, customer_id, kind, nickname, number, balance, hold, rate, status,
     opened) = row
    return {"account_id": account_id, "customer_id": customer_id, "type": kind,
            "nickname": nickname, "account_number_last4": number[-4:], "balance": balance,
            "hold_amount": hold, "available_balance": money(balance - hold),
            "interest_rate": rate, "status": status, "opened_on": opened}


def _customer(db: sqlite3.Connection, customer_id: str) -> tuple:
    return fetch_row(db, "SELECT customer_id, first_name, last_name, email, username, phone, city, "
                     "member_since, daily_transfer_limit FROM customers WHERE customer_id = ?",
                     (customer_id,), f"Customer {customer_id!r} not found.")


def _owned_ids(db: sqlite3.Connection, table: str, id_column: str, customer_id: str) -> list:
    """The ids of the customer's rows of ``table``, in the order they were added."""
    return [r[0] for r in db.execute(f"SELECT {id_column} FROM {table} WHERE customer_id = ? "
                                     "ORDER BY rowid", (customer_id,))]


def _account(db: sqlite3.Connection, account_id: str) -> tuple:
    return fetch_row(db, f"SELECT {_ACCOUNT_COLUMNS} FROM accounts WHERE account_id = ?",
                     (account_id,), f"Account {account_id!r} not found.")


def _card(db: sqlite3.Connection, card_id: str) -> dict:
    row = fetch_row(db, "SELECT card_id, customer_id, account_id, network, form, last4, expiry, "
                    "status, daily_spend_limit FROM cards WHERE card_id = ?",
                    (card_id,), f"Card {card_id!r} not found.")
    keys = ("card_id", "customer_id", "account_id", "network", "form", "last4", "expiry",
            "status", "daily_spend_limit")
    return dict(zip(keys, row))


def _payee(db: sqlite3.Connection, payee_id: str) -> dict:
    row = fetch_row(db, "SELECT payee_id, customer_id, name, category, bank_name, account_number, "
                    "added_on FROM payees WHERE payee_id = ?", (payee_id,),
                    f"Payee {payee_id!r} not found.")
    return {"payee_id": row[0], "customer_id": row[1], "name": row[2], "category": row[3],
            "bank_name": row[4], "account_number_last4": row[5][-4:], "added_on": row[6]}


def transferred_today(db: sqlite3.Connection, customer_id: str) -> float:
    """Sum of the customer's transfers and payee payments made today."""
    (total,) = db.execute(
        "SELECT coalesce(sum(amount), 0) FROM transfers WHERE customer_id = ? "
        "AND created_at >= ? AND created_at < ?", (customer_id, TODAY, TODAY + "U")).fetchone()
    return money(total)


def _check_outgoing(db: sqlite3.Connection, account: tuple, amount: float) -> None:
    """Available balance and daily limit checks of money leaving ``account``."""
    if account[8] != "open":
        raise ToolError(f"Account {account[0]} is closed.")
    available = money(account[5] - account[6])
    if amount > available:
        raise ToolError(f"Insufficient available balance: {available:.2f} available in "
                        f"account {account[0]}, {amount:.2f} requested.")
    customer = _customer(db, account[1])
    used = transferred_today(db, customer[0])
    if money(used + amount) > customer[8]:
        raise ToolError(f"Daily transfer limit exceeded: the limit is {customer[8]:.2f}, "
                        f"{used:.2f} already transferred today, {amount:.2f} requested.")


def _post_transfer(db: sqlite3.Connection, customer_id: str, source: tuple, amount: float,
                   memo: str, to_account: tuple | None = None,
                   payee: dict | None = None) -> dict:
    transfer_id = counted_id(db, "transfers", "transfer_id", "trf_")
    db.execute("INSERT INTO transfers (transfer_id, customer_id, from_account_id, to_account_id, "
               "payee_id, amount, memo, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
               (transfer_id, customer_id, source[0], to_account[0] if to_account else None,
                payee["payee_id"] if payee else None, amount, memo, NOW))
    db.execute("UPDATE accounts SET balance = ? WHERE account_id = ?",
               (money(source[5] - amount), source[0]))
    if to_account is not None:
        description, kind = f"Transfer to {to_account[3]}", "transfer_out"
    else:
        description, kind = f"Payment to {payee['name']}", "bill_payment"
    rows = [(source[0], description, "transfer" if to_account else "bills", kind, -amount)]
    if to_account is not None:
        db.execute("UPDATE accounts SET balance = ? WHERE account_id = ?",
                   (money(to_account[5] + amount), to_account[0]))
        rows.append((to_account[0], f"Transfer from {source[3]}", "transfer", "transfer_in",
                     amount))
    for account_id, text, category, kind, value in rows:
        txn_id = counted_id(db, "transactions", "transaction_id", "txn_")
        db.execute("INSERT INTO transactions (transaction_id, account_id, card_id, transfer_id, "
                   "date, description, category, kind, amount, status) "
                   "VALUES (?, ?, NULL, ?, ?, ?, ?, ?, ?, 'posted')",
                   (txn_id, account_id, transfer_id, TODAY, text, category, kind, value))
    return {"transfer_id": transfer_id, "from_account_id": source[0],
            "to_account_id": to_account[0] if to_account else None,
            "payee_id": payee["payee_id"] if payee else None, "amount": amount, "memo": memo,
            "created_at": NOW,
            "from_account_balance": money(source[5] - amount)}


# --------------------------------------------------------------------------- READ


@tool(Category.READ, returns={".": CustomerId})
def find_customer_by_email(db, email: str) -> str:
    """Find a customer's id by the email address on their profile. Use it to authenticate
    the customer before anything else.

    Args:
        email: The customer's email address, such as 'jane.doe12@example.com'.
    """
    return find_id(db, "customers", "customer_id", "email", email.strip().lower(),
                   "No customer found with this email address.")


@tool(Category.READ, returns={".": CustomerId})
def find_customer_by_username(db, username: str) -> str:
    """Find a customer's id by their online banking username. Use it to authenticate the
    customer before anything else.

    Args:
        username: The customer's online banking username, such as 'jdoe42'.
    """
    return find_id(db, "customers", "customer_id", "username", username.strip().lower(),
                   "No customer found with this username.")


@tool(Category.READ, returns={"customer_id": CustomerId, "account_ids": AccountId,
                              "card_ids": CardId})
def get_customer_profile(db, customer_id: CustomerId) -> dict:
    """Get a customer's profile: name, contact details, daily transfer limit (and how much of
    it is used today), and the ids of their accounts and cards.

    Args:
        customer_id: The customer's id, such as 'cus_a1b2c3d4'.
    """
    row = _customer(db, customer_id)
    used = transferred_today(db, customer_id)
    return {
        "customer_id": row[0], "first_name": row[1], "last_name": row[2], "email": row[3],
        "username": row[4], "phone": row[5], "city": row[6], "member_since": row[7],
        "daily_transfer_limit": row[8], "transferred_today": used,
        "remaining_daily_limit": money(row[8] - used),
        "account_ids": _owned_ids(db, "accounts", "account_id", customer_id),
        "card_ids": _owned_ids(db, "cards", "card_id", customer_id),
    }


@tool(Category.READ, returns={"customer_id": CustomerId, "accounts.account_id": AccountId})
def list_accounts(db, customer_id: CustomerId) -> dict:
    """List a customer's accounts with their type, nickname, last four digits of the account
    number, balance, holds and available balance (balance minus holds), and status.

    Args:
        customer_id: The customer's id.
    """
    _customer(db, customer_id)
    rows = db.execute(f"SELECT {_ACCOUNT_COLUMNS} FROM accounts WHERE customer_id = ? "
                      "ORDER BY rowid", (customer_id,)).fetchall()
    return {"customer_id": customer_id, "accounts": [_account_record(r) for r in rows]}


@tool(Category.READ, returns={"account_id": AccountId,
                              "transactions.transaction_id": TransactionId,
                              "transactions.card_id": CardId})
def get_account_transactions(db, account_id: AccountId, start_date: str = "",
                             end_date: str = "", merchant: str = "") -> dict:
    """List the transactions of an account, newest first, optionally within a date range
    and/or for one merchant. Debits are negative amounts, credits positive.

    Args:
        account_id: The account's id.
        start_date: Earliest date to include, as YYYY-MM-DD (empty for no bound).
        end_date: Latest date to include, as YYYY-MM-DD (empty for no bound).
        merchant: Only transactions whose description contains this text, case-insensitive
            (empty for all).
    """
    _account(db, account_id)
    start = check_date(start_date, "start_date") if start_date else "0000-00-00"
    end = check_date(end_date, "end_date") if end_date else "9999-99-99"
    if start > end:
        raise ToolError("start_date is after end_date.")
    rows = db.execute(
        "SELECT transaction_id, date, description, category, kind, amount, status, card_id "
        "FROM transactions WHERE account_id = ? AND date >= ? AND date <= ? "
        "AND instr(lower(description), lower(?)) > 0 ORDER BY date DESC, rowid DESC",
        (account_id, start, end, merchant)).fetchall()
    keys = ("transaction_id", "date", "description", "category", "kind", "amount", "status",
            "card_id")
    return {"account_id": account_id, "transactions": [dict(zip(keys, r)) for r in rows]}


@tool(Category.READ, returns={"transaction_id": TransactionId, "account_id": AccountId,
                              "card_id": CardId, "dispute.dispute_id": "dispute_id"})
def get_transaction(db, transaction_id: TransactionId) -> dict:
    """Get one transaction with its account, card, status, age in days and any dispute
    filed on it.

    Args:
        transaction_id: The transaction's id, such as 'txn_k3j9x0p2qa'.
    """
    row = fetch_row(db, "SELECT transaction_id, account_id, card_id, transfer_id, date, "
                    "description, category, kind, amount, status FROM transactions "
                    "WHERE transaction_id = ?", (transaction_id,),
                    f"Transaction {transaction_id!r} not found.")
    keys = ("transaction_id", "account_id", "card_id", "transfer_id", "date", "description",
            "category", "kind", "amount", "status")
    record = dict(zip(keys, row))
    record["days_ago"] = days_before_today(record["date"])
    dispute = db.execute("SELECT dispute_id, reason, status, filed_on FROM disputes "
                         "WHERE transaction_id = ?", (transaction_id,)).fetchone()
    record["dispute"] = (None if dispute is None else dict(zip(
        ("dispute_id", "reason", "status", "filed_on"), dispute)))
    return record


@tool(Category.READ, returns={"customer_id": CustomerId, "cards.card_id": CardId,
                              "cards.account_id": AccountId})
def list_cards(db, customer_id: CustomerId) -> dict:
    """List a customer's debit cards: network, physical or virtual, last four digits,
    expiry, linked account and status (active, frozen or cancelled).

    Args:
        customer_id: The customer's id.
    """
    _customer(db, customer_id)
    ids = _owned_ids(db, "cards", "card_id", customer_id)
    return {"customer_id": customer_id, "cards": [_card(db, c) for c in ids]}


@tool(Category.READ, returns={"customer_id": CustomerId, "payees.payee_id": PayeeId})
def list_payees(db, customer_id: CustomerId) -> dict:
    """List the payees a customer has saved (bills and people they pay), with the last four
    digits of each payee's account number.

    Args:
        customer_id: The customer's id.
    """
    _customer(db, customer_id)
    ids = _owned_ids(db, "payees", "payee_id", customer_id)
    return {"customer_id": customer_id, "payees": [_payee(db, p) for p in ids]}


@tool(Category.READ, returns={"customer_id": CustomerId,
                              "scheduled_payments.scheduled_payment_id": ScheduledPaymentId,
                              "scheduled_payments.payee_id": PayeeId,
                              "scheduled_payments.from_account_id": AccountId})
def list_scheduled_payments(db, customer_id: CustomerId) -> dict:
    """List a customer's scheduled payments (active and cancelled) with payee, amount,
    frequency and next payment date.

    Args:
        customer_id: The customer's id.
    """
    _customer(db, customer_id)
    rows = db.execute(
        "SELECT s.scheduled_payment_id, s.from_account_id, s.payee_id, p.name, s.amount, "
        "s.frequency, s.next_date, s.status, s.memo FROM scheduled_payments s "
        "JOIN payees p ON p.payee_id = s.payee_id WHERE s.customer_id = ? ORDER BY s.rowid",
        (customer_id,)).fetchall()
    keys = ("scheduled_payment_id", "from_account_id", "payee_id", "payee_name", "amount",
            "frequency", "next_date", "status", "memo")
    return {"customer_id": customer_id, "scheduled_payments": [dict(zip(keys, r)) for r in rows]}


@tool(Category.READ, returns={"customer_id": CustomerId, "disputes.dispute_id": "dispute_id",
                              "disputes.transaction_id": TransactionId})
def list_disputes(db, customer_id: CustomerId) -> dict:
    """List the disputes a customer has filed, with their transaction, reason, amount and
    status.

    Args:
        customer_id: The customer's id.
    """
    _customer(db, customer_id)
    rows = db.execute(
        "SELECT dispute_id, transaction_id, reason, amount, status, filed_on FROM disputes "
        "WHERE customer_id = ? ORDER BY rowid", (customer_id,)).fetchall()
    keys = ("dispute_id", "transaction_id", "reason", "amount", "status", "filed_on")
    return {"customer_id": customer_id, "disputes": [dict(zip(keys, r)) for r in rows]}


transfer_to_human_agents = human_transfer_tool(
    "Transfer the customer to a human agent, with a summary of their issue. Only transfer "
    "if the customer explicitly asks for a human agent, or if the request cannot be "
    "handled with the policy and the available tools.",
    "A summary of the customer's issue.")


# -------------------------------------------------------------------------- WRITE


@tool(Category.WRITE, returns={"transfer_id": "transfer_id", "from_account_id": AccountId,
                               "to_account_id": AccountId},
      writes=("account_id", "transfer_id", "transaction_id"), needs=("account_id",))
def transfer_between_accounts(db, from_account_id: AccountId, to_account_id: AccountId,
                              amount: float, memo: str = "") -> dict:
    """Move money between two open accounts of the same customer. The amount may not exceed
    the source account's available balance nor the customer's remaining daily transfer
    limit. Confirm the details with the customer (explicit yes) before calling.

    Args:
        from_account_id: The account the money leaves.
        to_account_id: The account the money goes to (same customer).
        amount: The amount in dollars, positive, at most two decimals.
        memo: An optional note.
    """
    amount = check_cents(amount)
    source = _account(db, from_account_id)
    target = _account(db, to_account_id)
    if source[0] == target[0]:
        raise ToolError("The source and destination accounts must be different.")
    if source[1] != target[1]:
        raise ToolError("Both accounts must belong to the same customer; to pay someone else, "
                        "use a payee.")
    if target[8] != "open":
        raise ToolError(f"Account {target[0]} is closed.")
    _check_outgoing(db, source, amount)
    result = _post_transfer(db, source[1], source, amount, memo, to_account=target)
    result["to_account_balance"] = money(target[5] + amount)
    return result


@tool(Category.WRITE, returns={"transfer_id": "transfer_id", "from_account_id": AccountId,
                               "payee_id": PayeeId},
      writes=("account_id", "transfer_id", "transaction_id"), needs=("payee_id",))
def pay_payee(db, from_account_id: AccountId, payee_id: PayeeId, amount: float,
              memo: str = "") -> dict:
    """Pay one of the customer's saved payees now, from one of their open accounts. The
    amount may not exceed the available balance nor the remaining daily transfer limit.
    Confirm the details with the customer (explicit yes) before calling.

    Args:
        from_account_id: The account the payment leaves.
        payee_id: The payee to pay (saved by the same customer).
        amount: The amount in dollars, positive, at most two decimals.
        memo: An optional note.
    """
    amount = check_cents(amount)
    source = _account(db, from_account_id)
    payee = _payee(db, payee_id)
    if payee["customer_id"] != source[1]:
        raise ToolError("The payee does not belong to the owner of the account.")
    _check_outgoing(db, source, amount)
    return _post_transfer(db, source[1], source, amount, memo, payee=payee)


@tool(Category.WRITE, returns={"payee_id": PayeeId, "customer_id": CustomerId},
      writes=("payee_id",))
def add_payee(db, customer_id: CustomerId, name: str, bank_name: str, account_number: str,
              category: PayeeCategory) -> dict:
    """Save a new payee for a customer. Confirm the details with the customer (explicit
    yes) before calling.

    Args:
        customer_id: The customer's id.
        name: The payee's name, as the customer gives it.
        bank_name: The payee's bank.
        account_number: The payee's account number (digits only, 6 to 17 of them).
        category: What the payments are for.
    """
    _customer(db, customer_id)
    name = name.strip()
    if not name:
        raise ToolError("The payee name must not be empty.")
    if not bank_name.strip():
        raise ToolError("The bank name must not be empty.")
    if not re.fullmatch(r"\d{6,17}", account_number):
        raise ToolError("The account number must be 6 to 17 digits.")
    if db.execute("SELECT 1 FROM payees WHERE customer_id = ? AND lower(name) = lower(?)",
                  (customer_id, name)).fetchone():
        raise ToolError(f"A payee named {name!r} already exists for this customer.")
    payee_id = counted_id(db, "payees", "payee_id", "pay_")
    db.execute("INSERT INTO payees (payee_id, customer_id, name, category, bank_name, "
               "account_number, added_on) VALUES (?, ?, ?, ?, ?, ?, ?)",
               (payee_id, customer_id, name, category, bank_name.strip(), account_number, TODAY))
    return _payee(db, payee_id)


@tool(Category.WRITE, returns={"scheduled_payment_id": ScheduledPaymentId,
                               "from_account_id": AccountId, "payee_id": PayeeId},
      writes=("scheduled_payment_id",), needs=("payee_id",))
def schedule_payment(db, from_account_id: AccountId, payee_id: PayeeId, amount: float,
                     start_date: str, frequency: Frequency) -> dict:
    """Schedule a future payment (one-time or recurring) to a saved payee. The first payment
    date must be after today. Confirm the details with the customer (explicit yes) before
    calling.

    Args:
        from_account_id: The open account the payments leave.
        payee_id: The payee (saved by the same customer).
        amount: The amount of each payment in dollars, positive, at most two decimals.
        start_date: The date of the first payment, YYYY-MM-DD, after today.
        frequency: 'once', 'weekly' or 'monthly'.
    """
    amount = check_cents(amount)
    source = _account(db, from_account_id)
    payee = _payee(db, payee_id)
    if payee["customer_id"] != source[1]:
        raise ToolError("The payee does not belong to the owner of the account.")
    if source[8] != "open":
        raise ToolError(f"Account {source[0]} is closed.")
    if check_date(start_date, "start_date") <= TODAY:
        raise ToolError(f"The first payment date must be after today ({TODAY}).")
    scheduled_id = counted_id(db, "scheduled_payments", "scheduled_payment_id", "sch_")
    db.execute("INSERT INTO scheduled_payments (scheduled_payment_id, customer_id, "
               "from_account_id, payee_id, amount, frequency, next_date, status, memo) "
               "VALUES (?, ?, ?, ?, ?, ?, ?, 'active', '')",
               (scheduled_id, source[1], source[0], payee_id, amount, frequency, start_date))
    return {"scheduled_payment_id": scheduled_id, "from_account_id": source[0],
            "payee_id": payee_id, "payee_name": payee["name"], "amount": amount,
            "frequency": frequency, "next_date": start_date, "status": "active"}


@tool(Category.WRITE, returns={"scheduled_payment_id": ScheduledPaymentId},
      writes=("scheduled_payment_id",))
def cancel_scheduled_payment(db, scheduled_payment_id: ScheduledPaymentId) -> dict:
    """Cancel an active scheduled payment. Confirm with the customer (explicit yes) before
    calling.

    Args:
        scheduled_payment_id: The scheduled payment's id.
    """
    row = fetch_row(db, "SELECT status FROM scheduled_payments WHERE scheduled_payment_id = ?",
                    (scheduled_payment_id,),
                    f"Scheduled payment {scheduled_payment_id!r} not found.")
    if row[0] != "active":
        raise ToolError("This scheduled payment is already cancelled.")
    db.execute("UPDATE scheduled_payments SET status = 'cancelled' "
               "WHERE scheduled_payment_id = ?", (scheduled_payment_id,))
    return {"scheduled_payment_id": scheduled_payment_id, "status": "cancelled"}


@tool(Category.WRITE, returns={"card_id": CardId}, writes=("card_id",), needs=("card_id",))
def freeze_card(db, card_id: CardId) -> dict:
    """Freeze an active card (e.g. lost or misplaced): it is declined until unfrozen.
    Confirm with the customer (explicit yes) before calling.

    Args:
        card_id: The card's id.
    """
    card = _card(db, card_id)
    if card["status"] == "frozen":
        raise ToolError("The card is already frozen.")
    if card["status"] != "active":
        raise ToolError("The card is cancelled and cannot be frozen.")
    db.execute("UPDATE cards SET status = 'frozen' WHERE card_id = ?", (card_id,))
    card["status"] = "frozen"
    return card


@tool(Category.WRITE, returns={"card_id": CardId}, writes=("card_id",), needs=("card_id",))
def unfreeze_card(db, card_id: CardId) -> dict:
    """Unfreeze a frozen card so that it works again. Confirm with the customer (explicit
    yes) before calling.

    Args:
        card_id: The card's id.
    """
    card = _card(db, card_id)
    if card["status"] != "frozen":
        raise ToolError(f"Only a frozen card can be unfrozen; this card is {card['status']}.")
    db.execute("UPDATE cards SET status = 'active' WHERE card_id = ?", (card_id,))
    card["status"] = "active"
    return card


@tool(Category.WRITE, returns={"dispute_id": "dispute_id", "transaction_id": TransactionId},
      writes=("dispute_id", "transaction_id"), needs=("transaction_id",))
def file_dispute(db, transaction_id: TransactionId, reason: DisputeReason) -> dict:
    """Open a dispute on a posted card purchase. A transaction can be disputed only once.
    Check the policy's time window first. Confirm with the customer (explicit yes) before
    calling.

    Args:
        transaction_id: The disputed transaction's id.
        reason: 'fraud' (not made by the customer), 'duplicate_charge',
            'item_not_received' or 'incorrect_amount'.
    """
    row = fetch_row(db, "SELECT t.kind, t.status, t.amount, a.customer_id FROM transactions t "
                    "JOIN accounts a ON a.account_id = t.account_id "
                    "WHERE t.transaction_id = ?", (transaction_id,),
                    f"Transaction {transaction_id!r} not found.")
    kind, status, amount, customer_id = row
    if kind != "card_purchase":
        raise ToolError("Only card purchases can be disputed.")
    if status != "posted":
        raise ToolError("A pending transaction cannot be disputed until it has posted.")
    if db.execute("SELECT 1 FROM disputes WHERE transaction_id = ?",
                  (transaction_id,)).fetchone():
        raise ToolError("This transaction is already disputed.")
    dispute_id = counted_id(db, "disputes", "dispute_id", "dsp_")
    db.execute("INSERT INTO disputes (dispute_id, customer_id, transaction_id, reason, amount, "
               "status, filed_on) VALUES (?, ?, ?, ?, ?, 'open', ?)",
               (dispute_id, customer_id, transaction_id, reason, money(-amount), TODAY))
    return {"dispute_id": dispute_id, "transaction_id": transaction_id, "reason": reason,
            "amount": money(-amount), "status": "open", "filed_on": TODAY}
