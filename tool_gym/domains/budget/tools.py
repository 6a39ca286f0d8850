"""The tools of the budget domain: 10 reads, 10 writes and a transfer to a human agent.

Every tool takes the sandbox's SQLite connection first and uses parameterized SQL only.
A write checks all its preconditions before its first statement and raises
:class:`ToolError` with a clear message when one fails (the toolbox also wraps each write
in a savepoint). Money is computed in integer cents and stored in dollars; an outflow is a
negative amount.

Rules the tools enforce: a transaction, bill, budget or goal only uses accounts and
categories of its own user, open or active; an income category only takes money coming in,
and a goal transfer is never categorized; a checking, savings or cash account never goes
below zero and a credit card never past its limit; a goal is funded only from an open
checking or savings account, within its balance; a bill is paid from its account for its
amount, and its next due date moves on by its frequency; a category with active bills cannot
be archived. Budgets of past months are closed by policy: the agent must refuse to change
them (the tool does not check it, as in tau2, where tools trust the agent).
"""

from __future__ import annotations

import calendar
import re
import sqlite3
from datetime import date, timedelta
from typing import Annotated, Literal

from ...core.arguments import check_cents, check_date
from ...core.common_tools import human_transfer_tool
from ...core.ids import counted_id
from ...core.rows import fetch_dicts, fetch_row, find_id
from ...core.tools import Category, Entity, Quotas, ToolError, tool

#: Growth bounds of one sandbox (see :class:`~tool_gym.core.tools.Quotas`): templates hold
#: about 7,000 transactions.
QUOTAS = Quotas(rows={"transactions": 30_000, "budgets": 20_000, "categories": 10_000,
                      "bills": 5_000, "goals": 5_000})

#: The app's clock (fixed, so that every episode is reproducible).
TODAY = "2024-06-14"
THIS_MONTH = TODAY[:7]
#: Budgets may be set up to this many months ahead.
MONTHS_AHEAD = 12
MAX_CATEGORIES = 40
MAX_BILLS = 30
MAX_GOALS = 20
MAX_NAME = 60
MAX_MEMO = 200
#: The first day a transaction may be dated.
FIRST_DAY = "2024-01-01"

UserId = Annotated[str, Entity("user_id")]
AccountId = Annotated[str, Entity("account_id")]
CategoryId = Annotated[str, Entity("category_id")]
TransactionId = Annotated[str, Entity("transaction_id")]
BillId = Annotated[str, Entity("bill_id")]
GoalId = Annotated[str, Entity("goal_id")]

Group = Literal["essentials", "lifestyle", "financial", "income"]
Frequency = Literal["weekly", "monthly", "yearly"]


# ------------------------------------------------------------------------- money

def cents_of(amount: float) -> int:
    return int(round(float(amount) * 100))


def dollars_of(cents: int) -> float:
    return round(cents / 100 + 0.0, 2)


def month_bounds(month: str) -> tuple[str, str]:
    """The first and last day of ``month`` ('YYYY-MM')."""
    year, number = int(month[:4]), int(month[5:7])
    return f"{month}-01", f"{month}-{calendar.monthrange(year, number)[1]:02d}"


def check_month(month: str) -> str:
    """A month written 'YYYY-MM' that exists."""
    if not re.fullmatch(r"\d{4}-\d{2}", month) or not 1 <= int(month[5:]) <= 12:
        raise ToolError(f"month must be written YYYY-MM, got {month!r}.")
    return month


def months_between(first: str, second: str) -> int:
    """How many months ``second`` ('YYYY-MM') comes after ``first``."""
    return (int(second[:4]) - int(first[:4])) * 12 + int(second[5:7]) - int(first[5:7])


def next_due(day: str, frequency: str) -> str:
    """The due date after ``day`` for a bill of ``frequency`` (the day of the month kept,
    or the month's last day when it is shorter)."""
    d = date.fromisoformat(day)
    if frequency == "weekly":
        return (d + timedelta(days=7)).isoformat()
    months = 1 if frequency == "monthly" else 12
    year, month = divmod(d.month - 1 + months, 12)
    year += d.year
    month += 1
    return date(year, month, min(d.day, calendar.monthrange(year, month)[1])).isoformat()


def spent_in(db: sqlite3.Connection, category_id: str, month: str) -> float:
    """What a category's transactions took in ``month``: outflows less refunds."""
    first, last = month_bounds(month)
    (total,) = db.execute("SELECT coalesce(sum(round(amount * 100)), 0) FROM transactions "
                          "WHERE category_id = ? AND date >= ? AND date <= ?",
                          (category_id, first, last)).fetchone()
    return dollars_of(-int(total))


def budgeted(db: sqlite3.Connection, category_id: str, month: str) -> float:
    row = db.execute("SELECT amount FROM budgets WHERE category_id = ? AND month = ?",
                     (category_id, month)).fetchone()
    return row[0] if row else 0.0


# ------------------------------------------------------------------------- records

def _user(db: sqlite3.Connection, user_id: str) -> tuple:
    return fetch_row(db, "SELECT user_id, first_name, last_name, email, username, joined_on "
                     "FROM users WHERE user_id = ?", (user_id,), f"User {user_id!r} not found.")


_ACCOUNT_KEYS = ("account_id", "user_id", "name", "kind", "institution", "balance",
                 "credit_limit", "status")


def _account(db: sqlite3.Connection, account_id: str) -> dict:
    row = fetch_row(db, f"SELECT {', '.join(_ACCOUNT_KEYS)} FROM accounts WHERE account_id = ?",
                    (account_id,), f"Account {account_id!r} not found.")
    return dict(zip(_ACCOUNT_KEYS, row))


_CATEGORY_KEYS = ("category_id", "user_id", "name", "kind", "group_name", "status")


def _category(db: sqlite3.Connection, category_id: str) -> dict:
    row = fetch_row(db, f"SELECT {', '.join(_CATEGORY_KEYS)} FROM categories "
                    "WHERE category_id = ?", (category_id,),
                    f"Category {category_id!r} not found.")
    return dict(zip(_CATEGORY_KEYS, row))


def _active_category(db: sqlite3.Connection, category_id: str, user_id: str) -> dict:
    category = _category(db, category_id)
    if category["user_id"] != user_id:
        raise ToolError(f"Category {category_id!r} belongs to another user.")
    if category["status"] != "active":
        raise ToolError(f"The category {category['name']} is archived.")
    return category


def _open_account(db: sqlite3.Connection, account_id: str, user_id: str | None = None) -> dict:
    account = _account(db, account_id)
    if user_id is not None and account["user_id"] != user_id:
        raise ToolError(f"Account {account_id!r} belongs to another user.")
    if account["status"] != "open":
        raise ToolError(f"The account {account['name']} is closed.")
    return account


def _check_room(account: dict, amount_cents: int) -> None:
    """A change of ``amount_cents`` keeps a cash account at zero or more and a credit card
    within its limit."""
    after = cents_of(account["balance"]) + amount_cents
    if account["kind"] == "credit_card":
        if after < -cents_of(account["credit_limit"]):
            raise ToolError(f"The charge would take {account['name']} past its credit limit of "
                            f"{account['credit_limit']:.2f} (balance {account['balance']:.2f}).")
    elif after < 0:
        raise ToolError(f"Insufficient balance: {account['name']} holds "
                        f"{account['balance']:.2f}, {-amount_cents / 100:.2f} requested.")


def _post(db: sqlite3.Connection, account: dict, day: str, payee: str, cents: int,
          category_id: str | None, memo: str = "", bill_id: str | None = None,
          goal_id: str | None = None) -> str:
    """Record a cleared transaction and move the account's balance."""
    transaction_id = counted_id(db, "transactions", "transaction_id", "txn_")
    db.execute("INSERT INTO transactions (transaction_id, user_id, account_id, date, payee, "
               "amount, category_id, memo, status, bill_id, goal_id) "
               "VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'cleared', ?, ?)",
               (transaction_id, account["user_id"], account["account_id"], day, payee,
                dollars_of(cents), category_id, memo, bill_id, goal_id))
    db.execute("UPDATE accounts SET balance = ? WHERE account_id = ?",
               (dollars_of(cents_of(account["balance"]) + cents), account["account_id"]))
    return transaction_id


def _name(value: str, what: str) -> str:
    value = " ".join(value.split())
    if not value:
        raise ToolError(f"The {what} must not be empty.")
    if len(value) > MAX_NAME:
        raise ToolError(f"The {what} is too long (at most {MAX_NAME} characters).")
    return value


_TRANSACTION_KEYS = ("transaction_id", "account_id", "date", "payee", "amount", "category_id",
                     "category", "memo", "status", "bill_id", "goal_id")
_TRANSACTION_SQL = ("SELECT t.transaction_id, t.account_id, t.date, t.payee, t.amount, "
                    "t.category_id, c.name, t.memo, t.status, t.bill_id, t.goal_id "
                    "FROM transactions t LEFT JOIN categories c ON c.category_id = t.category_id")


def _transaction(db: sqlite3.Connection, transaction_id: str) -> dict:
    rows = fetch_dicts(db, _TRANSACTION_KEYS, _TRANSACTION_SQL + " WHERE t.transaction_id = ?",
                       (transaction_id,))
    if not rows:
        raise ToolError(f"Transaction {transaction_id!r} not found.")
    return rows[0]


def _bill(db: sqlite3.Connection, bill_id: str) -> dict:
    keys = ("bill_id", "user_id", "name", "amount", "category_id", "account_id", "frequency",
            "next_due", "status")
    row = fetch_row(db, f"SELECT {', '.join(keys)} FROM bills WHERE bill_id = ?", (bill_id,),
                    f"Bill {bill_id!r} not found.")
    return dict(zip(keys, row))


def _goal(db: sqlite3.Connection, goal_id: str) -> dict:
    keys = ("goal_id", "user_id", "name", "target_amount", "saved_amount", "target_date",
            "status", "created_on")
    row = fetch_row(db, f"SELECT {', '.join(keys)} FROM goals WHERE goal_id = ?", (goal_id,),
                    f"Goal {goal_id!r} not found.")
    goal = dict(zip(keys, row))
    goal["remaining"] = dollars_of(max(0, cents_of(goal["target_amount"])
                                       - cents_of(goal["saved_amount"])))
    return goal


# --------------------------------------------------------------------------- READ


@tool(Category.READ, returns={".": UserId})
def find_user_by_email(db, email: str) -> str:
    """Find a user's id by the email address of their budgeting account. Use it to
    authenticate the user before anything else.

    Args:
        email: The user's email address, such as 'jane.doe12@example.com'.
    """
    return find_id(db, "users", "user_id", "email", email.strip().lower(),
                   "No user found with this email address.")


@tool(Category.READ, returns={".": UserId})
def find_user_by_username(db, username: str) -> str:
    """Find a user's id by the username of their budgeting account. Use it to authenticate
    the user before anything else.

    Args:
        username: The user's username, such as 'jdoe42'.
    """
    return find_id(db, "users", "user_id", "username", username.strip().lower(),
                   "No user found with this username.")


@tool(Category.READ, returns={"user_id": UserId})
def get_user_profile(db, user_id: UserId) -> dict:
    """Get a user's profile: name, email, username, the day they joined, and their net worth
    (the sum of their open accounts' balances; credit card debt counts negative).

    Args:
        user_id: The user's id, such as 'usr_a1b2c3d4'.
    """
    row = _user(db, user_id)
    (worth,) = db.execute("SELECT coalesce(sum(round(balance * 100)), 0) FROM accounts "
                          "WHERE user_id = ? AND status = 'open'", (user_id,)).fetchone()
    keys = ("user_id", "first_name", "last_name", "email", "username", "joined_on")
    return {**dict(zip(keys, row)), "net_worth": dollars_of(int(worth))}


@tool(Category.READ, returns={"user_id": UserId, "accounts.account_id": AccountId})
def list_accounts(db, user_id: UserId) -> dict:
    """List a user's accounts: name, kind (checking, savings, credit_card or cash),
    institution, balance (a credit card's debt is negative), credit limit and status.

    Args:
        user_id: The user's id.
    """
    _user(db, user_id)
    keys = ("account_id", "name", "kind", "institution", "balance", "credit_limit", "status")
    rows = fetch_dicts(db, keys, f"SELECT {', '.join(keys)} FROM accounts WHERE user_id = ? "
                       "ORDER BY rowid", (user_id,))
    for r in rows:
        if r["credit_limit"] is None:
            del r["credit_limit"]
    return {"user_id": user_id, "accounts": rows}


@tool(Category.READ, returns={"user_id": UserId, "categories.category_id": CategoryId})
def list_categories(db, user_id: UserId, include_archived: bool = False) -> dict:
    """List a user's categories: name, kind (expense or income), group and status.

    Args:
        user_id: The user's id.
        include_archived: Whether to list archived categories too.
    """
    _user(db, user_id)
    keys = ("category_id", "name", "kind", "group_name", "status")
    rows = fetch_dicts(db, keys, f"SELECT {', '.join(keys)} FROM categories WHERE user_id = ? "
                       "AND (? OR status = 'active') ORDER BY rowid",
                       (user_id, bool(include_archived)))
    return {"user_id": user_id, "categories": rows}


@tool(Category.READ, returns={"user_id": UserId, "categories.category_id": CategoryId})
def get_budget_summary(db, user_id: UserId, month: str = THIS_MONTH) -> dict:
    """A user's budget for one month: for every expense category with a budget or spending
    that month, the amount budgeted, spent (outflows less refunds) and remaining (negative
    when overspent); and the month's totals and income.

    Args:
        user_id: The user's id.
        month: The month, written YYYY-MM (default: the current month).
    """
    _user(db, user_id)
    month = check_month(month)
    first, last = month_bounds(month)
    rows = db.execute(
        "SELECT c.category_id, c.name, c.group_name, c.status FROM categories c "
        "WHERE c.user_id = ? AND c.kind = 'expense' AND (EXISTS (SELECT 1 FROM budgets b "
        "WHERE b.category_id = c.category_id AND b.month = ?) OR EXISTS (SELECT 1 FROM "
        "transactions t WHERE t.category_id = c.category_id AND t.date >= ? AND t.date <= ?)) "
        "ORDER BY c.rowid", (user_id, month, first, last)).fetchall()
    lines = []
    for category_id, name, group, status in rows:
        plan, spent = budgeted(db, category_id, month), spent_in(db, category_id, month)
        lines.append({"category_id": category_id, "name": name, "group_name": group,
                      "status": status, "budgeted": plan, "spent": spent,
                      "remaining": dollars_of(cents_of(plan) - cents_of(spent))})
    (income,) = db.execute(
        "SELECT coalesce(sum(round(t.amount * 100)), 0) FROM transactions t JOIN categories c "
        "ON c.category_id = t.category_id WHERE t.user_id = ? AND c.kind = 'income' "
        "AND t.date >= ? AND t.date <= ?", (user_id, first, last)).fetchone()
    return {"user_id": user_id, "month": month, "categories": lines,
            "total_budgeted": dollars_of(sum(cents_of(x["budgeted"]) for x in lines)),
            "total_spent": dollars_of(sum(cents_of(x["spent"]) for x in lines)),
            "income": dollars_of(int(income))}


@tool(Category.READ, returns={"user_id": UserId, "transactions.transaction_id": TransactionId,
                              "transactions.account_id": AccountId,
                              "transactions.category_id": CategoryId})
def list_transactions(db, user_id: UserId, account_id: AccountId = "",
                      category_id: CategoryId = "",
                      start_date: str = "", end_date: str = "", payee: str = "",
                      uncategorized_only: bool = False) -> dict:
    """List a user's transactions, newest first (at most 50), optionally for one account or
    category, within dates, for a payee, or only those without a category. Outflows are
    negative amounts.

    Args:
        user_id: The user's id.
        account_id: Only this account's transactions (empty for all).
        category_id: Only this category's transactions (empty for all).
        start_date: Earliest date to include, as YYYY-MM-DD (empty for no bound).
        end_date: Latest date to include, as YYYY-MM-DD (empty for no bound).
        payee: Only transactions whose payee contains this text, case-insensitive (empty
            for all).
        uncategorized_only: Only transactions without a category (goal transfers excluded).
    """
    _user(db, user_id)
    start = check_date(start_date, "start_date") if start_date else "0000-00-00"
    end = check_date(end_date, "end_date") if end_date else "9999-99-99"
    if start > end:
        raise ToolError("start_date is after end_date.")
    rows = fetch_dicts(
        db, _TRANSACTION_KEYS, _TRANSACTION_SQL + " WHERE t.user_id = ? AND (? = '' OR "
        "t.account_id = ?) AND (? = '' OR t.category_id = ?) AND t.date >= ? AND t.date <= ? "
        "AND instr(lower(t.payee), lower(?)) > 0 AND (NOT ? OR (t.category_id IS NULL AND "
        "t.goal_id IS NULL)) ORDER BY t.date DESC, t.rowid DESC",
        (user_id, account_id, account_id, category_id, category_id, start, end, payee,
         bool(uncategorized_only)))
    return {"user_id": user_id, "matches": len(rows), "transactions": rows[:50]}


@tool(Category.READ, returns={"transaction_id": TransactionId, "account_id": AccountId,
                              "category_id": CategoryId, "bill_id": BillId, "goal_id": GoalId})
def get_transaction(db, transaction_id: TransactionId) -> dict:
    """Get one transaction: account, date, payee, amount, category, memo, status, and the
    bill or savings goal it belongs to.

    Args:
        transaction_id: The transaction's id, such as 'txn_k3j9x0p2'.
    """
    return _transaction(db, transaction_id)


@tool(Category.READ, returns={"user_id": UserId, "bills.bill_id": BillId,
                              "bills.category_id": CategoryId, "bills.account_id": AccountId})
def list_bills(db, user_id: UserId) -> dict:
    """List a user's recurring bills (active and cancelled): name, amount, category, the
    account that pays it, frequency and next due date.

    Args:
        user_id: The user's id.
    """
    _user(db, user_id)
    keys = ("bill_id", "name", "amount", "category_id", "category", "account_id", "frequency",
            "next_due", "status")
    rows = fetch_dicts(db, keys, "SELECT b.bill_id, b.name, b.amount, b.category_id, c.name, "
                       "b.account_id, b.frequency, b.next_due, b.status FROM bills b JOIN "
                       "categories c ON c.category_id = b.category_id WHERE b.user_id = ? "
                       "ORDER BY b.rowid", (user_id,))
    return {"user_id": user_id, "bills": rows}


@tool(Category.READ, returns={"user_id": UserId, "goals.goal_id": GoalId})
def list_goals(db, user_id: UserId) -> dict:
    """List a user's savings goals: target amount and date, amount saved so far, what is
    still missing (remaining) and status.

    Args:
        user_id: The user's id.
    """
    _user(db, user_id)
    ids = [g for (g,) in db.execute("SELECT goal_id FROM goals WHERE user_id = ? ORDER BY rowid",
                                    (user_id,))]
    goals = []
    for goal_id in ids:
        goal = _goal(db, goal_id)
        del goal["user_id"]
        goals.append(goal)
    return {"user_id": user_id, "goals": goals}


transfer_to_human_agents = human_transfer_tool(
    "Transfer the user to a human agent, with a summary of their issue. Only transfer if the "
    "user explicitly asks for a human agent, or if the request cannot be handled with the "
    "policy and the available tools.",
    "A summary of the user's issue.")


# -------------------------------------------------------------------------- WRITE


@tool(Category.WRITE, returns={"transaction_id": TransactionId, "account_id": AccountId,
                               "category_id": CategoryId},
      writes=("transaction_id", "account_id"), needs=("account_id",))
def add_transaction(db, account_id: AccountId, date: str, payee: str, amount: float,
                    category_id: CategoryId = "", memo: str = "") -> dict:
    """Record a transaction by hand (cash spending, a payment the bank feed missed) on one of
    the user's open accounts, which moves its balance. A cash, checking or savings account
    cannot go below zero, nor a credit card past its limit. Confirm the details with the
    user (explicit yes) before calling.

    Args:
        account_id: The account.
        date: The day it happened, YYYY-MM-DD (2024-01-01 to today).
        payee: Who was paid, or who paid.
        amount: The amount in dollars: negative for money going out, positive for money
            coming in; at most two decimals.
        category_id: The category (one of the user's active ones; empty for none).
        memo: An optional note.
    """
    account = _open_account(db, account_id)
    day = check_date(date, "date")
    if not FIRST_DAY <= day <= TODAY:
        raise ToolError(f"The date must be between {FIRST_DAY} and today ({TODAY}).")
    payee = _name(payee, "payee")
    if len(memo) > MAX_MEMO:
        raise ToolError(f"The memo is too long (at most {MAX_MEMO} characters).")
    if amount == 0:
        raise ToolError("The amount must not be zero.")
    cents = -cents_of(check_cents(-amount)) if amount < 0 else cents_of(check_cents(amount))
    if category_id:
        category = _active_category(db, category_id, account["user_id"])
        if category["kind"] == "income" and cents < 0:
            raise ToolError(f"{category['name']} is an income category; it takes only money "
                            "coming in.")
    _check_room(account, cents)
    transaction_id = _post(db, account, day, payee, cents, category_id or None, memo.strip())
    return _transaction(db, transaction_id)


@tool(Category.WRITE, returns={"transaction_id": TransactionId, "category_id": CategoryId},
      writes=("transaction_id",), needs=("transaction_id", "category_id"))
def categorize_transaction(db, transaction_id: TransactionId, category_id: CategoryId) -> dict:
    """Put a transaction in one of its user's active categories (replacing any other). An
    income category takes only money coming in; a savings goal transfer has no category.
    Confirm with the user (explicit yes) before calling.

    Args:
        transaction_id: The transaction.
        category_id: The category to put it in.
    """
    row = fetch_row(db, "SELECT user_id, amount, category_id, goal_id FROM transactions "
                    "WHERE transaction_id = ?", (transaction_id,),
                    f"Transaction {transaction_id!r} not found.")
    user_id, amount, current, goal_id = row
    if goal_id is not None:
        raise ToolError("A transfer into a savings goal has no category.")
    category = _active_category(db, category_id, user_id)
    if current == category_id:
        raise ToolError(f"The transaction is already in {category['name']}.")
    if category["kind"] == "income" and amount < 0:
        raise ToolError(f"{category['name']} is an income category; it takes only money "
                        "coming in.")
    db.execute("UPDATE transactions SET category_id = ? WHERE transaction_id = ?",
               (category_id, transaction_id))
    return _transaction(db, transaction_id)


@tool(Category.WRITE, returns={"budget_id": "budget_id", "category_id": CategoryId},
      writes=("category_id",), needs=("category_id",))
def set_budget(db, category_id: CategoryId, month: str, amount: float) -> dict:
    """Set how much a user plans to spend in an active expense category in one month (up to
    12 months ahead), replacing any amount set before; 0 clears it. Check the policy on past
    months first. Confirm with the user (explicit yes) before calling.

    Args:
        category_id: The expense category.
        month: The month, written YYYY-MM.
        amount: The amount in dollars, zero or more, at most two decimals.
    """
    category = _category(db, category_id)
    if category["status"] != "active":
        raise ToolError(f"The category {category['name']} is archived.")
    if category["kind"] != "expense":
        raise ToolError(f"{category['name']} is an income category; budgets are for "
                        "spending.")
    month = check_month(month)
    if months_between(THIS_MONTH, month) > MONTHS_AHEAD:
        raise ToolError(f"Budgets can be set at most {MONTHS_AHEAD} months ahead.")
    if amount < 0:
        raise ToolError("The amount must not be negative.")
    amount = check_cents(amount) if amount else 0.0
    row = db.execute("SELECT budget_id, amount FROM budgets WHERE category_id = ? AND month = ?",
                     (category_id, month)).fetchone()
    if row is not None and cents_of(row[1]) == cents_of(amount):
        raise ToolError(f"The {category['name']} budget of {month} is already {amount:.2f}.")
    budget_id = row[0] if row else counted_id(db, "budgets", "budget_id", "bud_")
    db.execute("INSERT INTO budgets (budget_id, category_id, month, amount) VALUES (?, ?, ?, ?) "
               "ON CONFLICT (category_id, month) DO UPDATE SET amount = excluded.amount",
               (budget_id, category_id, month, amount))
    spent = spent_in(db, category_id, month)
    return {"budget_id": budget_id, "category_id": category_id, "category": category["name"],
            "month": month, "budgeted": amount, "spent": spent,
            "remaining": dollars_of(cents_of(amount) - cents_of(spent))}


@tool(Category.WRITE, returns={"category_id": CategoryId, "user_id": UserId},
      writes=("category_id",))
def create_category(db, user_id: UserId, name: str, group: Group) -> dict:
    """Create a category for a user (at most 40; names are unique per user). The group
    'income' makes an income category; the others make expense categories. Confirm with the
    user (explicit yes) before calling.

    Args:
        user_id: The user's id.
        name: The category's name, such as 'Pet Care'.
        group: 'essentials', 'lifestyle', 'financial' or 'income'.
    """
    _user(db, user_id)
    name = _name(name, "category name")
    if db.execute("SELECT 1 FROM categories WHERE user_id = ? AND lower(name) = lower(?)",
                  (user_id, name)).fetchone():
        raise ToolError(f"The user already has a category named {name!r}.")
    (count,) = db.execute("SELECT count(*) FROM categories WHERE user_id = ?",
                          (user_id,)).fetchone()
    if count >= MAX_CATEGORIES:
        raise ToolError(f"A user may have at most {MAX_CATEGORIES} categories.")
    category_id = counted_id(db, "categories", "category_id", "cat_")
    kind = "income" if group == "income" else "expense"
    db.execute("INSERT INTO categories (category_id, user_id, name, kind, group_name, status) "
               "VALUES (?, ?, ?, ?, ?, 'active')", (category_id, user_id, name, kind, group))
    return {"category_id": category_id, "user_id": user_id, "name": name, "kind": kind,
            "group_name": group, "status": "active"}


@tool(Category.WRITE, returns={"category_id": CategoryId}, writes=("category_id",),
      needs=("category_id",))
def archive_category(db, category_id: CategoryId) -> dict:
    """Archive a category the user no longer uses: it keeps its past transactions but takes
    no new ones and no budgets. A category that active bills use cannot be archived.
    Confirm with the user (explicit yes) before calling.

    Args:
        category_id: The category.
    """
    category = _category(db, category_id)
    if category["status"] != "active":
        raise ToolError(f"The category {category['name']} is already archived.")
    bills = [n for (n,) in db.execute("SELECT name FROM bills WHERE category_id = ? "
                                      "AND status = 'active' ORDER BY rowid", (category_id,))]
    if bills:
        raise ToolError(f"Active bills use {category['name']}: {', '.join(bills)}. Move or "
                        "cancel them first.")
    db.execute("UPDATE categories SET status = 'archived' WHERE category_id = ?",
               (category_id,))
    return {**category, "status": "archived"}


@tool(Category.WRITE, returns={"bill_id": BillId, "category_id": CategoryId,
                               "account_id": AccountId},
      writes=("bill_id",), needs=("category_id", "account_id"))
def add_bill(db, user_id: UserId, name: str, amount: float, category_id: CategoryId,
             account_id: AccountId, frequency: Frequency, next_due: str) -> dict:
    """Add a recurring bill for a user (at most 30), paid from one of their open accounts and
    filed under one of their active expense categories; its first due date must be after
    today. Confirm the details with the user (explicit yes) before calling.

    Args:
        user_id: The user's id.
        name: The bill's name, such as 'City Water'.
        amount: The amount of each payment in dollars, positive, at most two decimals.
        category_id: The expense category it is filed under.
        account_id: The account that pays it.
        frequency: 'weekly', 'monthly' or 'yearly'.
        next_due: The first due date, YYYY-MM-DD, after today.
    """
    _user(db, user_id)
    name = _name(name, "bill name")
    amount = check_cents(amount)
    category = _active_category(db, category_id, user_id)
    if category["kind"] != "expense":
        raise ToolError(f"{category['name']} is an income category; a bill is spending.")
    _open_account(db, account_id, user_id)
    if check_date(next_due, "next_due") <= TODAY:
        raise ToolError(f"The first due date must be after today ({TODAY}).")
    if db.execute("SELECT 1 FROM bills WHERE user_id = ? AND lower(name) = lower(?) "
                  "AND status = 'active'", (user_id, name)).fetchone():
        raise ToolError(f"The user already has an active bill named {name!r}.")
    (count,) = db.execute("SELECT count(*) FROM bills WHERE user_id = ?", (user_id,)).fetchone()
    if count >= MAX_BILLS:
        raise ToolError(f"A user may have at most {MAX_BILLS} bills.")
    bill_id = counted_id(db, "bills", "bill_id", "bil_")
    db.execute("INSERT INTO bills (bill_id, user_id, name, amount, category_id, account_id, "
               "frequency, next_due, status) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'active')",
               (bill_id, user_id, name, amount, category_id, account_id, frequency, next_due))
    return _bill(db, bill_id)


@tool(Category.WRITE, returns={"bill_id": BillId}, writes=("bill_id",), needs=("bill_id",))
def cancel_bill(db, bill_id: BillId) -> dict:
    """Cancel an active recurring bill: it stops coming due. Confirm with the user (explicit
    yes) before calling.

    Args:
        bill_id: The bill.
    """
    bill = _bill(db, bill_id)
    if bill["status"] != "active":
        raise ToolError(f"The bill {bill['name']} is already cancelled.")
    db.execute("UPDATE bills SET status = 'cancelled' WHERE bill_id = ?", (bill_id,))
    return {**bill, "status": "cancelled"}


@tool(Category.WRITE, returns={"bill_id": BillId, "transaction_id": TransactionId,
                               "account_id": AccountId},
      writes=("bill_id", "transaction_id", "account_id"), needs=("bill_id",))
def mark_bill_paid(db, bill_id: BillId) -> dict:
    """Record today's payment of an active bill: its amount leaves the bill's account (filed
    under the bill's category) and its next due date moves on by its frequency. The account
    must cover it. Confirm with the user (explicit yes) before calling.

    Args:
        bill_id: The bill.
    """
    bill = _bill(db, bill_id)
    if bill["status"] != "active":
        raise ToolError(f"The bill {bill['name']} is cancelled.")
    account = _open_account(db, bill["account_id"])
    category = _category(db, bill["category_id"])
    if category["status"] != "active":
        raise ToolError(f"The bill's category {category['name']} is archived.")
    cents = -cents_of(bill["amount"])
    _check_room(account, cents)
    transaction_id = _post(db, account, TODAY, bill["name"], cents, bill["category_id"],
                           bill_id=bill_id)
    following = next_due(bill["next_due"], bill["frequency"])
    db.execute("UPDATE bills SET next_due = ? WHERE bill_id = ?", (following, bill_id))
    return {"bill_id": bill_id, "name": bill["name"], "transaction_id": transaction_id,
            "account_id": account["account_id"], "amount": bill["amount"],
            "paid_on": TODAY, "next_due": following,
            "account_balance": dollars_of(cents_of(account["balance"]) + cents)}


@tool(Category.WRITE, returns={"goal_id": GoalId, "user_id": UserId}, writes=("goal_id",))
def create_goal(db, user_id: UserId, name: str, target_amount: float,
                target_date: str) -> dict:
    """Create a savings goal for a user (at most 20; names are unique per user) with a
    target amount and a target date after today. Confirm with the user (explicit yes) before
    calling.

    Args:
        user_id: The user's id.
        name: The goal's name, such as 'New Bike'.
        target_amount: The amount to save in dollars, positive, at most two decimals.
        target_date: The day to reach it by, YYYY-MM-DD, after today.
    """
    _user(db, user_id)
    name = _name(name, "goal name")
    target = check_cents(target_amount)
    if check_date(target_date, "target_date") <= TODAY:
        raise ToolError(f"The target date must be after today ({TODAY}).")
    if db.execute("SELECT 1 FROM goals WHERE user_id = ? AND lower(name) = lower(?)",
                  (user_id, name)).fetchone():
        raise ToolError(f"The user already has a goal named {name!r}.")
    (count,) = db.execute("SELECT count(*) FROM goals WHERE user_id = ?", (user_id,)).fetchone()
    if count >= MAX_GOALS:
        raise ToolError(f"A user may have at most {MAX_GOALS} goals.")
    goal_id = counted_id(db, "goals", "goal_id", "gol_")
    db.execute("INSERT INTO goals (goal_id, user_id, name, target_amount, saved_amount, "
               "target_date, status, created_on) VALUES (?, ?, ?, ?, 0, ?, 'active', ?)",
               (goal_id, user_id, name, target, target_date, TODAY))
    return _goal(db, goal_id)


@tool(Category.WRITE, returns={"goal_id": GoalId, "transaction_id": TransactionId,
                               "account_id": AccountId},
      writes=("goal_id", "transaction_id", "account_id"), needs=("goal_id", "account_id"))
def contribute_to_goal(db, goal_id: GoalId, from_account_id: AccountId, amount: float) -> dict:
    """Move money from one of the user's open checking or savings accounts into a savings
    goal; the goal is completed once the saved amount reaches its target. The amount may not
    exceed the account's balance. Confirm with the user (explicit yes) before calling.

    Args:
        goal_id: The savings goal.
        from_account_id: The checking or savings account the money leaves.
        amount: The amount in dollars, positive, at most two decimals.
    """
    goal = _goal(db, goal_id)
    amount = check_cents(amount)
    account = _open_account(db, from_account_id, goal["user_id"])
    if account["kind"] not in ("checking", "savings"):
        raise ToolError("A goal is funded only from a checking or savings account.")
    if cents_of(amount) > cents_of(account["balance"]):
        raise ToolError(f"Insufficient balance: {account['name']} holds "
                        f"{account['balance']:.2f}, {amount:.2f} requested.")
    transaction_id = _post(db, account, TODAY, f"Savings goal: {goal['name']}",
                           -cents_of(amount), None, goal_id=goal_id)
    saved = dollars_of(cents_of(goal["saved_amount"]) + cents_of(amount))
    status = "completed" if cents_of(saved) >= cents_of(goal["target_amount"]) else "active"
    db.execute("UPDATE goals SET saved_amount = ?, status = ? WHERE goal_id = ?",
               (saved, status, goal_id))
    return {**_goal(db, goal_id), "transaction_id": transaction_id,
            "account_id": account["account_id"],
            "account_balance": dollars_of(cents_of(account["balance"]) - cents_of(amount))}
