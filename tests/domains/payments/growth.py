"""The payments domain's growth recipe (see ``tests/fuzz/growth.py``): payment requests to
contacts with the longest notes, and top-ups of USD wallets, each call a new row."""

from __future__ import annotations

import sqlite3


def recipe(db: sqlite3.Connection, text: str):
    pairs = db.execute("SELECT user_id, contact_user_id FROM contacts "
                       "ORDER BY contact_id").fetchall()
    top_ups = db.execute(
        "SELECT w.wallet_id, s.source_id FROM wallets w JOIN funding_sources s "
        "ON s.user_id = w.user_id AND s.kind = 'bank_account' AND s.status = 'active' "
        "WHERE w.currency = 'USD' ORDER BY w.wallet_id").fetchall()

    def step(i: int):
        if i % 2:
            user, payer = pairs[i % len(pairs)]
            return "request_money", {"user_id": user, "payer_id": payer,
                                     "amount": round(1 + i / 100, 2), "currency": "USD",
                                     "note": text[:200]}
        wallet, source = top_ups[i % len(top_ups)]
        return "add_money", {"wallet_id": wallet, "source_id": source, "amount": 1.0}
    return step
