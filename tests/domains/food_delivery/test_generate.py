"""Food delivery data: realistic sizes, amounts in cents.
The checks every domain shares are in tests/domains/test_conformance.py."""

from __future__ import annotations

from tool_gym.domains.food_delivery import DOMAIN
from tool_gym.domains.food_delivery.tools import NOW, order_amounts


def test_sizes_are_realistic():
    data = DOMAIN.generate(0)
    assert 200 <= len(data["customers"]) <= 500 and 3000 <= sum(map(len, data.values())) <= 15000
    assert {o["status"] for o in data["orders"]} == {
        "placed", "accepted", "preparing", "on_the_way", "delivered", "cancelled"}
    assert any(not i["available"] for i in data["menu_items"])
    assert all(o["placed_at"] <= NOW for o in data["orders"])


def test_order_amounts_in_cents():
    assert order_amounts([(13.95, 2), (0.1, 3)], 2.99, 10, 10.0) == (28.2, 2.99, 2.82, 28.37)
    assert order_amounts([(100.0, 1)], 0.0, 50, 30.0) == (100.0, 0.0, 30.0, 70.0)
