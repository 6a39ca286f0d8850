"""The budget domain's growth recipe (``tests/fuzz/growth.py`` collects it): calls that add a
row every time they succeed, so that the quota tests reach the quotas."""

from __future__ import annotations

import sqlite3


def recipe(db: sqlite3.Connection, text: str):
    """Record deposits with the longest payees and memos, and create categories and savings
    goals, each time for the next user."""
    accounts = db.execute("SELECT user_id, account_id FROM accounts WHERE status = 'open' "
                          "AND kind = 'checking' ORDER BY user_id").fetchall()

    def step(i: int):
        user, account = accounts[(i // 3) % len(accounts)]
        if i % 3 == 0:
            return "add_transaction", {"account_id": account, "date": "2024-06-01",
                                       "payee": text[:60], "amount": 1.25, "memo": text[:200]}
        if i % 3 == 1:
            return "create_category", {"user_id": user, "name": f"Growth {i} {text[:40]}",
                                       "group": "lifestyle"}
        return "create_goal", {"user_id": user, "name": f"Growth goal {i} {text[:30]}",
                               "target_amount": 100.0, "target_date": "2025-01-01"}
    return step
