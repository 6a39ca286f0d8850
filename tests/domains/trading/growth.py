"""The trading growth recipe (``tests/fuzz/growth.py`` finds it here): resting limit buys
far below the market and deposits into an individual account, each adding a row."""

from __future__ import annotations

import sqlite3

from tests.fuzz.growth import Step, _one


def recipe(db: sqlite3.Connection, text: str) -> Step:
    """Deposit cash and rest a one-share limit buy at 60% of the price, in turn."""
    account, bank = _one(
        db, "SELECT a.account_id, b.bank_link_id FROM accounts a JOIN bank_links b "
            "ON b.investor_id = a.investor_id WHERE a.type = 'individual' "
            "AND a.status = 'open' AND b.status = 'verified' ORDER BY a.account_id")
    symbol, price = _one(db, "SELECT symbol, last_price FROM securities "
                             "WHERE trading_status = 'active' ORDER BY last_price")
    limit = round(price * 0.6, 2)

    def step(i: int):
        if i % 2:
            return "place_limit_order", {"account_id": account, "symbol": symbol,
                                         "side": "buy", "quantity": 1, "limit_price": limit}
        return "deposit_funds", {"account_id": account, "bank_link_id": bank, "amount": 25.0}
    return step
