"""Shopping data: realistic sizes and mixes, loader validation.
The checks every domain shares are in tests/domains/test_conformance.py."""

from __future__ import annotations

import sqlite3

import pytest

from tool_gym.domains.shopping import DOMAIN
from tool_gym.domains.shopping.tools import NOW, TODAY, order_amounts


def test_sizes_are_realistic():
    data = DOMAIN.generate(0)
    assert 150 <= len(data["customers"]) <= 500 and 3000 <= sum(map(len, data.values())) <= 15000
    assert len(data["products"]) == 120 and len({p["name"] for p in data["products"]}) == 120
    assert {o["status"] for o in data["orders"]} == {"placed", "shipped", "delivered",
                                                     "cancelled"}
    assert {r["status"] for r in data["returns"]} == {"pending", "received", "refunded",
                                                      "rejected"}
    assert {p["status"] for p in data["products"]} == {"active", "discontinued"}
    assert any(p["stock"] == 0 for p in data["products"])
    assert {m["kind"] for m in data["payment_methods"]} == {"card", "paypal", "gift_card"}
    assert all(o["placed_at"] <= NOW for o in data["orders"])
    assert {c["expires_on"] < TODAY for c in data["coupons"]} == {True, False}
    assert any(c["store_credit"] > 0 for c in data["customers"])


def test_order_amounts_follow_the_lines():
    data = DOMAIN.generate(1)
    lines: dict[str, list] = {}
    for i in data["order_items"]:
        lines.setdefault(i["order_id"], []).append((i["unit_price"], i["quantity"]))
    tiers = {c["customer_id"]: c["tier"] for c in data["customers"]}
    coupons = {c["code"]: (c["kind"], c["value"]) for c in data["coupons"]}
    for o in data["orders"]:
        coupon = coupons[o["coupon_code"]] if o["coupon_code"] else None
        assert order_amounts(lines[o["order_id"]], coupon, tiers[o["customer_id"]]) == (
            o["subtotal"], o["discount"], o["shipping"], o["total"])


def test_load_rejects_bad_data():
    db = sqlite3.connect(":memory:")
    db.executescript(DOMAIN.schema)
    with pytest.raises(ValueError, match="unknown tables"):
        DOMAIN.load(db, {"planets": []})
    with pytest.raises(ValueError, match="columns"):
        DOMAIN.load(db, {"customers": [{"customer_id": "x"}]})
    with pytest.raises(ValueError, match="JSON object"):
        DOMAIN.load(db, [])
