"""Retail chain data: realistic sizes and mixes, loader validation.
The checks every domain shares are in tests/domains/test_conformance.py."""

from __future__ import annotations

import sqlite3
from collections import Counter

import pytest

from tool_gym.domains.retail_chain import DOMAIN
from tool_gym.domains.retail_chain.tools import TODAY


def test_sizes_are_realistic():
    data = DOMAIN.generate(0)
    assert len(data["stores"]) == 20 and 150 <= len(data["employees"]) <= 300
    assert 3_000 <= sum(map(len, data.values())) <= 20_000
    roles = Counter(e["role"] for e in data["employees"])
    assert roles["manager"] == 40 and roles["supervisor"] == 40 and roles["associate"] > 80
    assert {e["employment_type"] for e in data["employees"]} == {"full_time", "part_time"}
    assert {s["status"] for s in data["stores"]} == {"open", "closed"}
    assert {p["status"] for p in data["products"]} == {"active", "discontinued"}
    for table, statuses in (("transfers", {"requested", "in_transit", "received", "cancelled"}),
                            ("purchase_orders", {"submitted", "received", "cancelled"}),
                            ("pickup_orders", {"pending", "ready", "picked_up", "cancelled"}),
                            ("shifts", {"scheduled", "completed", "cancelled"})):
        assert {r["status"] for r in data[table]} == statuses, table


def test_every_store_carries_most_products_and_some_run_low():
    data = DOMAIN.generate(1)
    carried = Counter(i["store_id"] for i in data["inventory"])
    assert min(carried.values()) >= 40
    low = [i for i in data["inventory"] if i["on_hand"] <= i["reorder_point"]]
    assert len(low) >= 50
    assert all(i["reserved"] <= i["on_hand"] for i in data["inventory"])


def test_shifts_cover_last_week_to_next_week():
    data = DOMAIN.generate(0)
    days = {s["date"] for s in data["shifts"]}
    assert min(days) < TODAY < max(days)
    assert all(s["status"] == "completed" for s in data["shifts"] if s["date"] < TODAY)


def test_load_rejects_bad_data():
    db = sqlite3.connect(":memory:")
    db.executescript(DOMAIN.schema)
    with pytest.raises(ValueError, match="unknown tables"):
        DOMAIN.load(db, {"planets": []})
    with pytest.raises(ValueError, match="columns"):
        DOMAIN.load(db, {"stores": [{"store_id": "x"}]})
    with pytest.raises(ValueError, match="JSON object"):
        DOMAIN.load(db, [])
