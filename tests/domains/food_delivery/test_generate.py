"""The food delivery generator, loader, exporter and invariants."""

from __future__ import annotations

import json
import sqlite3

import pytest

from tool_gym.core.sandbox import Sandbox, build_database, canonical_json, template
from tool_gym.domains.food_delivery import DOMAIN
from tool_gym.domains.food_delivery.generate import generate
from tool_gym.domains.food_delivery.io import TABLES, export
from tool_gym.domains.food_delivery.tools import NOW, order_amounts


def test_same_seed_same_data_other_seed_other_data():
    a, b, c = generate(3), generate(3), generate(4)
    assert canonical_json(a) == canonical_json(b)
    assert canonical_json(a) != canonical_json(c)


def test_sizes_are_realistic():
    data = generate(0)
    assert set(data) == set(TABLES)
    assert 200 <= len(data["customers"]) <= 500
    assert 3000 <= sum(map(len, data.values())) <= 15000
    assert {o["status"] for o in data["orders"]} == {
        "placed", "accepted", "preparing", "on_the_way", "delivered", "cancelled"}
    assert any(not i["available"] for i in data["menu_items"])
    assert all(o["placed_at"] <= NOW for o in data["orders"])


def test_invariants_hold_on_generated_data(box):
    assert box.check_integrity() == []  # seed 0
    db = build_database(DOMAIN, 1)
    assert DOMAIN.invariants(db) == []
    assert db.execute("PRAGMA foreign_key_check").fetchall() == []
    db.close()


def test_round_trip_is_exact(tpl):
    data = generate(0)
    with Sandbox(tpl) as box:
        assert canonical_json(box.export()) == canonical_json(data)
        assert canonical_json(export(box.db)) == canonical_json(data)


def test_read_a_json_file(tmp_path, registered):
    path = tmp_path / "food.json"
    data = generate(1)
    path.write_text(json.dumps(data), encoding="utf-8")
    assert DOMAIN.read(path) == json.loads(json.dumps(data))
    with Sandbox(template("food_delivery", data=path)) as box:
        assert canonical_json(box.export()) == canonical_json(data)
        assert box.check_integrity() == []


def test_load_rejects_bad_data():
    db = sqlite3.connect(":memory:")
    db.executescript(DOMAIN.schema)
    with pytest.raises(ValueError, match="unknown tables"):
        DOMAIN.load(db, {"planets": []})
    with pytest.raises(ValueError, match="columns"):
        DOMAIN.load(db, {"customers": [{"customer_id": "x"}]})


def test_order_amounts_in_cents():
    assert order_amounts([(13.95, 2), (0.1, 3)], 2.99, 10, 10.0) == (28.2, 2.99, 2.82, 28.37)
    assert order_amounts([(100.0, 1)], 0.0, 50, 30.0) == (100.0, 0.0, 30.0, 70.0)


def test_invariants_catch_broken_rules(box):
    db = box.db
    db.execute("UPDATE orders SET total = total + 1 WHERE order_id = (SELECT order_id FROM "
               "orders LIMIT 1)")
    db.execute("UPDATE addresses SET is_default = 1")
    problems = DOMAIN.invariants(db)
    assert any("subtotal + delivery fee" in p for p in problems)
    assert any("one default address" in p for p in problems)
