"""Marketplace data: realistic sizes and mixes, loader validation.
The checks every domain shares are in tests/domains/test_conformance.py."""

from __future__ import annotations

import sqlite3

import pytest

from tool_gym.domains.marketplace import DOMAIN
from tool_gym.domains.marketplace.tools import RETURN_WINDOW_DAYS, days_since


def test_sizes_are_realistic():
    data = DOMAIN.generate(0)
    assert 150 <= len(data["members"]) <= 500
    assert 3000 <= sum(map(len, data.values())) <= 20000
    assert {x["status"] for x in data["listings"]} == {"active", "sold", "closed"}
    assert {x["status"] for x in data["orders"]} == {"paid", "shipped", "delivered",
                                                      "cancelled"}
    assert {x["status"] for x in data["offers"]} == {"pending", "countered", "accepted",
                                                      "declined", "expired"}
    assert {x["status"] for x in data["payment_methods"]} == {"active", "expired"}
    assert {x["role"] for x in data["feedback"]} == {"buyer", "seller"}


def test_deliveries_fall_on_both_sides_of_the_return_window():
    ages = [days_since(o["delivered_at"]) for o in DOMAIN.generate(0)["orders"]
            if o["status"] == "delivered"]
    assert sum(a <= RETURN_WINDOW_DAYS - 3 for a in ages) >= 20
    assert sum(a > RETURN_WINDOW_DAYS + 5 for a in ages) >= 20


def test_every_member_is_a_seller_or_a_buyer_somewhere():
    data = DOMAIN.generate(0)
    active = {x["seller_id"] for x in data["listings"]} | {x["buyer_id"] for x in data["orders"]}
    assert len(active) >= 0.8 * len(data["members"])


def test_load_rejects_bad_data():
    db = sqlite3.connect(":memory:")
    db.executescript(DOMAIN.schema)
    with pytest.raises(ValueError, match="unknown tables"):
        DOMAIN.load(db, {"planets": []})
    with pytest.raises(ValueError, match="columns"):
        DOMAIN.load(db, {"members": [{"member_id": "x"}]})
    with pytest.raises(ValueError, match="JSON object"):
        DOMAIN.load(db, [])
