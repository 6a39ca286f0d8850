"""Banking data: realistic sizes, loader validation.
The checks every domain shares are in tests/domains/test_conformance.py."""

from __future__ import annotations

import sqlite3

import pytest

from tool_gym.domains.banking import DOMAIN


def test_sizes_are_realistic():
    data = DOMAIN.generate(0)
    assert 200 <= len(data["customers"]) <= 500 and 3000 <= sum(map(len, data.values())) <= 15000
    kinds = {(a["type"], a["status"]) for a in data["accounts"]}
    assert {("checking", "open"), ("savings", "open"), ("savings", "closed")} <= kinds
    assert {c["status"] for c in data["cards"]} == {"active", "frozen", "cancelled"}
    assert {t["status"] for t in data["transactions"]} == {"posted", "pending"}


def test_load_rejects_bad_data():
    db = sqlite3.connect(":memory:")
    db.executescript(DOMAIN.schema)
    with pytest.raises(ValueError, match="unknown tables"):
        DOMAIN.load(db, {"planets": []})
    with pytest.raises(ValueError, match="columns"):
        DOMAIN.load(db, {"customers": [{"customer_id": "x"}]})
    with pytest.raises(ValueError, match="JSON object"):
        DOMAIN.load(db, [])
