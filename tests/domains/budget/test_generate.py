"""Budget data: realistic sizes and mixes, balances that add up, loader validation.
The checks every domain shares are in tests/domains/test_conformance.py."""

from __future__ import annotations

import sqlite3
from collections import defaultdict

import pytest

from tool_gym.domains.budget import DOMAIN
from tool_gym.domains.budget.tools import TODAY, cents_of


def test_sizes_are_realistic():
    data = DOMAIN.generate(0)
    assert 100 <= len(data["users"]) <= 500 and 3000 <= sum(map(len, data.values())) <= 15000
    assert {a["kind"] for a in data["accounts"]} == {"checking", "savings", "credit_card",
                                                     "cash"}
    assert {a["status"] for a in data["accounts"]} == {"open", "closed"}
    assert {c["status"] for c in data["categories"]} == {"active", "archived"}
    assert {t["status"] for t in data["transactions"]} == {"pending", "cleared"}
    assert {b["status"] for b in data["bills"]} == {"active", "cancelled"}
    assert {g["status"] for g in data["goals"]} == {"active", "completed"}
    assert {b["month"] for b in data["budgets"]} == {"2024-04", "2024-05", "2024-06", "2024-07"}
    assert all(t["date"] <= TODAY for t in data["transactions"])
    loose = [t for t in data["transactions"] if t["category_id"] is None and not t["goal_id"]]
    assert 50 <= len(loose) <= 0.1 * len(data["transactions"])


def test_balances_add_up():
    data = DOMAIN.generate(2)
    moved = defaultdict(int)
    for t in data["transactions"]:
        moved[t["account_id"]] += cents_of(t["amount"])
    for a in data["accounts"]:
        assert cents_of(a["balance"]) - cents_of(a["opening_balance"]) == moved[a["account_id"]]


def test_load_rejects_bad_data():
    db = sqlite3.connect(":memory:")
    db.executescript(DOMAIN.schema)
    with pytest.raises(ValueError, match="unknown tables"):
        DOMAIN.load(db, {"planets": []})
    with pytest.raises(ValueError, match="columns"):
        DOMAIN.load(db, {"users": [{"user_id": "x"}]})
    with pytest.raises(ValueError, match="JSON object"):
        DOMAIN.load(db, [])
