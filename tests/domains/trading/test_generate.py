"""Trading data: realistic sizes and mixes, loader validation.
The checks every domain shares are in tests/domains/test_conformance.py."""

from __future__ import annotations

import sqlite3

import pytest

from tool_gym.domains.trading import DOMAIN
from tool_gym.domains.trading.tools import IRA_CONTRIBUTION_LIMIT, YEAR


def test_sizes_are_realistic():
    data = DOMAIN.generate(0)
    assert 150 <= len(data["investors"]) <= 500
    assert 8000 <= sum(map(len, data.values())) <= 30000
    kinds = {(a["type"], a["status"]) for a in data["accounts"]}
    assert {("individual", "open"), ("ira", "open"), ("joint", "open"),
            ("individual", "closed"), ("individual", "restricted")} <= kinds
    assert {o["status"] for o in data["orders"]} == {"open", "filled", "cancelled"}
    assert {(o["side"], o["status"]) for o in data["orders"]} >= {("buy", "open"),
                                                                   ("sell", "open")}
    assert {b["status"] for b in data["bank_links"]} == {"verified", "pending"}
    assert {s["trading_status"] for s in data["securities"]} == {"active", "halted"}
    assert {p["status"] for p in data["price_alerts"]} == {"active", "triggered", "cancelled"}
    assert {h["reinvest_dividends"] for h in data["holdings"]} == {0, 1}


def test_some_iras_are_at_their_contribution_limit():
    data = DOMAIN.generate(0)
    iras = {a["account_id"] for a in data["accounts"] if a["type"] == "ira"}
    given: dict[str, float] = {}
    for t in data["cash_transfers"]:
        if t["account_id"] in iras and t["direction"] == "deposit" and \
                t["created_at"].startswith(YEAR):
            given[t["account_id"]] = given.get(t["account_id"], 0) + t["amount"]
    assert max(given.values()) == IRA_CONTRIBUTION_LIMIT
    assert min(given.values()) < IRA_CONTRIBUTION_LIMIT / 2


def test_load_rejects_bad_data():
    db = sqlite3.connect(":memory:")
    db.executescript(DOMAIN.schema)
    with pytest.raises(ValueError, match="unknown tables"):
        DOMAIN.load(db, {"planets": []})
    with pytest.raises(ValueError, match="columns"):
        DOMAIN.load(db, {"investors": [{"investor_id": "x"}]})
    with pytest.raises(ValueError, match="JSON object"):
        DOMAIN.load(db, [])
