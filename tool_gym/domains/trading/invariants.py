"""Rules every trading database keeps (generated data and after any tool call).

``invariants(db)`` returns the problems found (empty when every rule holds).
"""

from __future__ import annotations

import sqlite3

from ...core.rules import LIMIT, rule_checker
from .tools import IRA_CONTRIBUTION_LIMIT, YEAR, money

_CENTS = "abs({0} * 100 - round({0} * 100)) > 1e-6"

RULES: list[tuple[str, str]] = [
    ("reserved cash never exceeds the cash balance (buying power >= 0)",
     "SELECT account_id FROM accounts WHERE round(cash_balance - reserved_cash, 2) < 0"),
    ("reserved shares equal the open sell orders of the position",
     "SELECT h.holding_id FROM holdings h WHERE h.reserved_quantity != (SELECT coalesce(sum("
     "o.quantity), 0) FROM orders o WHERE o.account_id = h.account_id AND o.symbol = h.symbol "
     "AND o.status = 'open' AND o.side = 'sell')"),
    ("an open sell order is backed by a position",
     "SELECT o.order_id FROM orders o WHERE o.status = 'open' AND o.side = 'sell' AND NOT "
     "EXISTS (SELECT 1 FROM holdings h WHERE h.account_id = o.account_id "
     "AND h.symbol = o.symbol)"),
    ("money amounts are whole cents",
     f"SELECT account_id FROM accounts WHERE {_CENTS.format('cash_balance')} "
     f"OR {_CENTS.format('reserved_cash')} UNION ALL SELECT transfer_id FROM cash_transfers "
     f"WHERE {_CENTS.format('amount')} UNION ALL SELECT dividend_id FROM dividends "
     f"WHERE {_CENTS.format('amount')} UNION ALL SELECT order_id FROM orders "
     f"WHERE limit_price IS NOT NULL AND {_CENTS.format('limit_price')}"),
    ("a closed account holds no cash, positions or open orders",
     "SELECT a.account_id FROM accounts a WHERE a.status = 'closed' AND (a.cash_balance != 0 "
     "OR EXISTS (SELECT 1 FROM holdings h WHERE h.account_id = a.account_id) OR EXISTS ("
     "SELECT 1 FROM orders o WHERE o.account_id = a.account_id AND o.status = 'open'))"),
    ("an open limit order is not marketable at the last price",
     "SELECT o.order_id FROM orders o JOIN securities s ON s.symbol = o.symbol "
     "WHERE o.status = 'open' AND ((o.side = 'buy' AND o.limit_price >= s.last_price) "
     "OR (o.side = 'sell' AND o.limit_price <= s.last_price))"),
    ("a cash transfer goes through a bank of the account's owner",
     "SELECT t.transfer_id FROM cash_transfers t JOIN accounts a ON a.account_id = t.account_id "
     "JOIN bank_links b ON b.bank_link_id = t.bank_link_id WHERE a.investor_id != b.investor_id"),
    ("an IRA receives at most the yearly contribution limit",
     "SELECT t.account_id FROM cash_transfers t JOIN accounts a ON a.account_id = t.account_id "
     f"WHERE a.type = 'ira' AND t.direction = 'deposit' AND substr(t.created_at, 1, 4) = "
     f"'{YEAR}' GROUP BY t.account_id HAVING round(sum(t.amount), 2) > "
     f"{IRA_CONTRIBUTION_LIMIT}"),
    ("an active price alert lies on its side of the last price",
     "SELECT p.alert_id FROM price_alerts p JOIN securities s ON s.symbol = p.symbol "
     "WHERE p.status = 'active' AND ((p.direction = 'above' AND p.target_price <= s.last_price)"
     " OR (p.direction = 'below' AND p.target_price >= s.last_price))"),
    ("a dividend is paid on a dividend-paying security",
     "SELECT d.dividend_id FROM dividends d JOIN securities s ON s.symbol = d.symbol "
     "WHERE s.annual_dividend <= 0"),
    ("only a dividend-paying position reinvests dividends",
     "SELECT h.holding_id FROM holdings h JOIN securities s ON s.symbol = h.symbol "
     "WHERE h.reinvest_dividends = 1 AND s.annual_dividend <= 0"),
]


def reservations(db: sqlite3.Connection) -> list[str]:
    """Reserved cash equals the open buy limit orders of the account, each order's cash
    rounded to cents as the tools round it (in Python: SQLite rounds halves otherwise)."""
    due: dict[str, float] = {}
    for account_id, quantity, limit in db.execute(
            "SELECT account_id, quantity, limit_price FROM orders WHERE status = 'open' "
            "AND side = 'buy' ORDER BY rowid"):
        due[account_id] = money(due.get(account_id, 0.0) + money(quantity * limit))
    bad = [a for a, reserved in db.execute("SELECT account_id, reserved_cash FROM accounts "
                                           "ORDER BY rowid")
           if abs(reserved - due.get(a, 0.0)) > 0.005]
    return [f"reserved cash equals the open buy limit orders of the account: {a}"
            for a in bad[:LIMIT]]


def dividend_amounts(db: sqlite3.Connection) -> list[str]:
    """A dividend's amount is its shares times the amount per share, in cents."""
    bad = [d for d, shares, per_share, amount in db.execute(
        "SELECT dividend_id, shares, per_share, amount FROM dividends ORDER BY rowid")
        if abs(amount - money(shares * per_share)) > 0.005]
    return [f"a dividend is its shares times the amount per share: {d}" for d in bad[:LIMIT]]


invariants = rule_checker(RULES, reservations, dividend_amounts)
