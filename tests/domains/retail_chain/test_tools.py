"""Each retail chain tool: its success path and its error paths; failed writes change nothing."""

from __future__ import annotations

from collections import Counter
from datetime import date, timedelta

from tool_gym.core.tools import Category
from tool_gym.domains.retail_chain import DOMAIN
from tool_gym.domains.retail_chain.tools import TODAY

from ..calls import fails, ok, one, rules_catch

NEXT_WEEK = (date.fromisoformat(TODAY) + timedelta(days=7)).isoformat()


def staff(box, role, store=None):
    """An active employee of ``role`` at an open store (``store``: that store)."""
    return one(box, "SELECT e.employee_id, e.store_id FROM employees e JOIN stores s ON "
                    "s.store_id = e.store_id WHERE e.role = ? AND e.status = 'active' AND "
                    "s.status = 'open' AND (? IS NULL OR e.store_id = ?) ORDER BY e.rowid LIMIT 1",
               (role, store, store))


def stock(box, store, product):
    return one(box, "SELECT on_hand, reserved, price FROM inventory WHERE store_id = ? AND "
                    "product_id = ?", (store, product))


def transfer_pair(box, store):
    """A product ``store`` carries and another open store with at least 20 available."""
    return one(box, "SELECT i.product_id, j.store_id, j.on_hand - j.reserved FROM inventory i "
                    "JOIN inventory j ON j.product_id = i.product_id AND j.store_id != i.store_id "
                    "JOIN stores s ON s.store_id = j.store_id WHERE i.store_id = ? AND s.status = "
                    "'open' AND j.on_hand - j.reserved >= 20 ORDER BY i.rowid LIMIT 1", (store,))


# ------------------------------------------------------------------------- schemas


def test_toolbox_has_fourteen_reads_and_fifteen_writes():
    counts = Counter(t.category for t in DOMAIN.toolbox)
    assert counts[Category.READ] == 14 and counts[Category.WRITE] == 15
    assert counts[Category.GENERIC] == 1


# --------------------------------------------------------------------------- reads

def test_find_employee_and_profile(box, state):
    e = state["employees"][4]
    assert ok(box, "find_employee_by_email", email=f" {e['email'].upper()} ") == e["employee_id"]
    assert ok(box, "find_employee_by_username", username=e["username"]) == e["employee_id"]
    fails(box, "find_employee_by_email", "no employee", email="nobody@example.com")
    fails(box, "find_employee_by_username", "no employee", username="nobody")
    manager, store = staff(box, "manager")
    profile = ok(box, "get_employee_profile", employee_id=manager)
    assert profile["store_id"] == store and profile["role"] == "manager"
    assert 0 <= profile["hours_this_week"] <= profile["max_weekly_hours"] == 40
    fails(box, "get_employee_profile", "not found", employee_id="emp_missing")


def test_stores_staff_and_suppliers(box):
    stores = ok(box, "list_stores")["stores"]
    assert len(stores) == 20 and {s["status"] for s in stores} == {"open", "closed"}
    team = ok(box, "list_store_staff", store_id=stores[0]["store_id"])["staff"]
    assert {"manager", "supervisor", "associate"} <= {m["role"] for m in team}
    assert len(ok(box, "list_suppliers")["suppliers"]) == 8
    fails(box, "list_store_staff", "not found", store_id="str_missing")


def test_search_and_stock(box):
    found = ok(box, "search_products", query="KITCHEN")["products"]
    assert found and all(p["category"] == "kitchen" or "kitchen" in p["name"].lower()
                         or "kitchen" in p["brand"].lower() for p in found)
    assert "unit_cost" not in found[0]
    sku = found[0]["sku"]
    assert [p["sku"] for p in ok(box, "search_products", query=sku.lower())["products"]] == [sku]
    fails(box, "search_products", "at least 2", query="x")
    product = found[0]["product_id"]
    across = ok(box, "check_product_stock", product_id=product)["stores"]
    assert across and all(s["available"] == s["on_hand"] - s["reserved"] for s in across)
    fails(box, "check_product_stock", "not found", product_id="prd_missing")
    store = across[0]["store_id"]
    items = ok(box, "get_store_inventory", store_id=store, category="Kitchen")["items"]
    assert items and {i["category"] for i in items} == {"kitchen"}
    assert all(i["needs_reorder"] == (i["on_hand"] <= i["reorder_point"]) for i in items)
    fails(box, "get_store_inventory", "not found", store_id="str_missing")


def test_lists_of_a_store(box):
    store, = one(box, "SELECT to_store_id FROM transfers WHERE status = 'in_transit' LIMIT 1")
    moving = ok(box, "list_transfers", store_id=store, status="in_transit")["transfers"]
    assert moving and all(t["status"] == "in_transit" for t in moving)
    assert len(ok(box, "list_transfers", store_id=store)["transfers"]) >= len(moving)
    orders = ok(box, "list_purchase_orders", store_id=store)["purchase_orders"]
    assert all(o["total_cost"] == round(o["quantity"] * o["unit_cost"], 2) for o in orders)
    fails(box, "list_purchase_orders", "must be one of", store_id=store, status="lost")
    shifts = ok(box, "list_shifts", store_id=store)["shifts"]
    assert shifts and all(4 <= s["hours"] <= 10 for s in shifts)
    fails(box, "list_shifts", "after end_date", store_id=store, start_date="2024-08-10",
          end_date="2024-08-01")
    fails(box, "list_shifts", "YYYY-MM-DD", store_id=store, start_date="Aug 1")
    pickups = ok(box, "list_pickup_orders", store_id=store, status="ready")["orders"]
    order = ok(box, "get_pickup_order", order_id=pickups[0]["order_id"])
    assert order["total"] == pickups[0]["total"] and order["items"]
    fails(box, "get_pickup_order", "not found", order_id="pko_missing")
    assert ok(box, "transfer_to_human_agents", summary="help") == "Transfer successful"


# -------------------------------------------------------------------------- writes

def test_transfer_lifecycle(box):
    associate, store = staff(box, "associate")
    product, source, _ = transfer_pair(box, store)
    made = ok(box, "request_transfer", product_id=product, from_store_id=source,
              to_store_id=store, quantity=10, employee_id=associate)
    assert made["status"] == "requested"
    fails(box, "ship_transfer", "you can only", transfer_id=made["transfer_id"],
          employee_id=associate)
    shipper, _ = staff(box, "supervisor", source)
    before = stock(box, source, product)[0]
    assert ok(box, "ship_transfer", transfer_id=made["transfer_id"],
              employee_id=shipper)["status"] == "in_transit"
    assert stock(box, source, product)[0] == before - 10
    fails(box, "cancel_transfer", "only a requested", transfer_id=made["transfer_id"],
          employee_id=shipper)
    at_home = stock(box, store, product)[0]
    assert ok(box, "receive_transfer", transfer_id=made["transfer_id"],
              employee_id=associate)["status"] == "received"
    assert stock(box, store, product)[0] == at_home + 10
    fails(box, "receive_transfer", "only a transfer in transit",
          transfer_id=made["transfer_id"], employee_id=associate)
    assert box.check_integrity() == []


def test_transfer_errors(box):
    associate, store = staff(box, "associate")
    product, source, available = transfer_pair(box, store)
    closed, = one(box, "SELECT store_id FROM stores WHERE status = 'closed' LIMIT 1")
    before = box.state_hash()
    args = {"product_id": product, "from_store_id": source, "to_store_id": store,
            "employee_id": associate}
    fails(box, "request_transfer", "only", **args, quantity=available + 1)
    fails(box, "request_transfer", "between 1 and 500", **args, quantity=0)
    fails(box, "request_transfer", "different", **{**args, "from_store_id": store}, quantity=1)
    fails(box, "request_transfer", "closed", **{**args, "from_store_id": closed}, quantity=1)
    fails(box, "request_transfer", "your own store", **{**args, "to_store_id": source},
          quantity=1)
    fails(box, "request_transfer", "must be of type integer", **args, quantity="5")
    fails(box, "request_transfer", "not found", **{**args, "product_id": "prd_missing"},
          quantity=1)
    away, = one(box, "SELECT employee_id FROM employees WHERE status = 'on_leave' LIMIT 1")
    fails(box, "request_transfer", "on leave", **{**args, "employee_id": away}, quantity=1)
    assert box.state_hash() == before
    made = ok(box, "request_transfer", **args, quantity=5)
    fails(box, "cancel_transfer", "supervisor or above", transfer_id=made["transfer_id"],
          employee_id=associate)
    boss, _ = staff(box, "supervisor", store)
    assert ok(box, "cancel_transfer", transfer_id=made["transfer_id"],
              employee_id=boss)["status"] == "cancelled"
    fails(box, "ship_transfer", "not found", transfer_id="trf_missing", employee_id=boss)


def test_purchase_orders(box):
    manager, store = staff(box, "manager")
    product, case, cost = one(box, "SELECT p.product_id, p.case_size, p.unit_cost FROM products p "
                                   "JOIN inventory i ON i.product_id = p.product_id WHERE "
                                   "i.store_id = ? AND p.status = 'active' AND p.case_size > 1 "
                                   "LIMIT 1", (store,))
    made = ok(box, "create_purchase_order", product_id=product, store_id=store, quantity=case,
              employee_id=manager)
    assert made["status"] == "submitted" and made["expected_on"] > TODAY
    assert made["total_cost"] == round(case * cost, 2)
    before = box.state_hash()
    fails(box, "create_purchase_order", "cases of", product_id=product, store_id=store,
          quantity=case + 1, employee_id=manager)
    supervisor, _ = staff(box, "supervisor", store)
    fails(box, "create_purchase_order", "manager", product_id=product, store_id=store,
          quantity=case, employee_id=supervisor)
    gone, = one(box, "SELECT p.product_id FROM products p JOIN inventory i ON i.product_id = "
                     "p.product_id WHERE i.store_id = ? AND p.status = 'discontinued' LIMIT 1",
                (store,))
    fails(box, "create_purchase_order", "discontinued", product_id=gone, store_id=store,
          quantity=case, employee_id=manager)
    fails(box, "cancel_purchase_order", "manager", po_id=made["po_id"], employee_id=supervisor)
    assert box.state_hash() == before
    on_hand = stock(box, store, product)[0]
    assert ok(box, "receive_purchase_order", po_id=made["po_id"],
              employee_id=supervisor)["status"] == "received"
    assert stock(box, store, product)[0] == on_hand + case
    fails(box, "cancel_purchase_order", "only a submitted", po_id=made["po_id"],
          employee_id=manager)
    fails(box, "receive_purchase_order", "only a submitted", po_id=made["po_id"],
          employee_id=manager)
    fails(box, "receive_purchase_order", "not found", po_id="po_missing", employee_id=manager)
    assert box.check_integrity() == []


def test_prices_and_reorder_points(box):
    manager, store = staff(box, "manager")
    product, price, base = one(box, "SELECT i.product_id, i.price, p.base_price FROM inventory i "
                                    "JOIN products p ON p.product_id = i.product_id WHERE "
                                    "i.store_id = ? LIMIT 1", (store,))
    changed = ok(box, "change_price", product_id=product, store_id=store,
                 price=round(base * 0.9, 2), employee_id=manager)
    assert changed["old_price"] == price and stock(box, store, product)[2] == round(base * 0.9, 2)
    assert box.check_integrity() == []  # the history names the new price
    before = box.state_hash()
    fails(box, "change_price", "already costs", product_id=product, store_id=store,
          price=round(base * 0.9, 2), employee_id=manager)
    fails(box, "change_price", "whole cents", product_id=product, store_id=store,
          price=1.234, employee_id=manager)
    fails(box, "change_price", "positive", product_id=product, store_id=store, price=0,
          employee_id=manager)
    other, = one(box, "SELECT store_id FROM inventory WHERE product_id = ? AND store_id != ? "
                      "LIMIT 1", (product, store))
    fails(box, "change_price", "your own store", product_id=product, store_id=other,
          price=10, employee_id=manager)
    associate, _ = staff(box, "associate", store)
    fails(box, "update_reorder_point", "supervisor", product_id=product, store_id=store,
          reorder_point=10, employee_id=associate)
    fails(box, "update_reorder_point", "between 0 and 1000", product_id=product,
          store_id=store, reorder_point=5000, employee_id=manager)
    assert box.state_hash() == before
    assert ok(box, "update_reorder_point", product_id=product, store_id=store,
              reorder_point=7, employee_id=manager)["reorder_point"] == 7
    fails(box, "update_reorder_point", "already 7", product_id=product, store_id=store,
          reorder_point=7, employee_id=manager)


def test_shifts(box):
    supervisor, store = staff(box, "supervisor")
    worker, _ = one(box, "SELECT e.employee_id, e.employment_type FROM employees e WHERE "
                            "e.store_id = ? AND e.status = 'active' AND e.employee_id != ? AND "
                            "NOT EXISTS (SELECT 1 FROM shifts s WHERE s.employee_id = "
                            "e.employee_id AND s.date = ?) LIMIT 1", (store, supervisor, NEXT_WEEK))
    made = ok(box, "schedule_shift", staff_id=worker, date=NEXT_WEEK, start="09:00",
              end="13:30", employee_id=supervisor)
    assert made["status"] == "scheduled"
    before = box.state_hash()
    args = {"staff_id": worker, "employee_id": supervisor}
    fails(box, "schedule_shift", "already has a shift", **args, date=NEXT_WEEK, start="14:00",
          end="18:00")
    fails(box, "schedule_shift", "4 to 10 hours", **args, date=TODAY, start="09:00",
          end="11:00")
    fails(box, "schedule_shift", "half hour", **args, date=TODAY, start="09:15", end="14:00")
    fails(box, "schedule_shift", "HH:MM", **args, date=TODAY, start="9am", end="14:00")
    fails(box, "schedule_shift", "28 days", **args, date="2024-12-01", start="09:00",
          end="14:00")
    fails(box, "schedule_shift", "28 days", **args, date="2024-08-01", start="09:00",
          end="14:00")
    associate, _ = staff(box, "associate", store)
    fails(box, "schedule_shift", "supervisor", staff_id=worker, date=TODAY, start="09:00",
          end="14:00", employee_id=associate)
    away, boss = one(box, "SELECT e.employee_id, b.employee_id FROM employees e JOIN employees b "
                          "ON b.store_id = e.store_id AND b.role = 'supervisor' AND b.status = "
                          "'active' JOIN stores s ON s.store_id = e.store_id WHERE e.status = "
                          "'on_leave' AND s.status = 'open' LIMIT 1")
    fails(box, "schedule_shift", "on leave", staff_id=away, date=TODAY, start="09:00",
          end="14:00", employee_id=boss)
    assert box.state_hash() == before
    assert ok(box, "cancel_shift", shift_id=made["shift_id"],
              employee_id=supervisor)["status"] == "cancelled"
    fails(box, "cancel_shift", "only a scheduled", shift_id=made["shift_id"],
          employee_id=supervisor)
    today, = one(box, "SELECT shift_id FROM shifts WHERE store_id = ? AND date = ? AND "
                      "status = 'scheduled' LIMIT 1", (store, TODAY))
    fails(box, "cancel_shift", "no longer be cancelled", shift_id=today, employee_id=supervisor)
    fails(box, "cancel_shift", "not found", shift_id="shf_missing", employee_id=supervisor)
    assert box.check_integrity() == []


def test_weekly_hours_limit(box):
    supervisor, store = staff(box, "supervisor")
    worker, = one(box, "SELECT employee_id FROM employees WHERE store_id = ? AND status = "
                       "'active' AND employment_type = 'part_time' LIMIT 1", (store,))
    monday = date.fromisoformat(TODAY) + timedelta(days=14)
    for day in range(2):
        ok(box, "schedule_shift", staff_id=worker, date=(monday + timedelta(days=day)).isoformat(),
           start="08:00", end="18:00", employee_id=supervisor)
    fails(box, "schedule_shift", "the limit is 25", staff_id=worker,
          date=(monday + timedelta(days=2)).isoformat(), start="08:00", end="14:00",
          employee_id=supervisor)


def test_pickup_orders(box):
    associate, store = staff(box, "associate")
    product, _ = one(box, "SELECT i.product_id, i.on_hand - i.reserved FROM inventory i "
                                  "JOIN products p ON p.product_id = i.product_id WHERE "
                                  "i.store_id = ? AND p.status = 'active' AND i.on_hand - "
                                  "i.reserved >= 3 LIMIT 1", (store,))
    on_hand, reserved, _ = stock(box, store, product)
    order = ok(box, "create_pickup_order", product_id=product, store_id=store, quantity=2,
               customer=" Dana  Fox ", phone="+1-555-010-2030", employee_id=associate)
    assert order["customer_name"] == "Dana Fox" and order["status"] == "pending"
    assert stock(box, store, product)[:2] == (on_hand, reserved + 2)
    before = box.state_hash()
    fails(box, "create_pickup_order", "phone number", product_id=product, store_id=store,
          quantity=1, customer="Dana Fox", phone="call me", employee_id=associate)
    fails(box, "create_pickup_order", "between 1 and 10", product_id=product, store_id=store,
          quantity=11, customer="Dana Fox", phone="5550102030", employee_id=associate)
    fails(box, "complete_pickup", "only a ready", order_id=order["order_id"],
          employee_id=associate)
    assert box.state_hash() == before
    ok(box, "mark_pickup_ready", order_id=order["order_id"], employee_id=associate)
    fails(box, "mark_pickup_ready", "only a pending", order_id=order["order_id"],
          employee_id=associate)
    assert ok(box, "complete_pickup", order_id=order["order_id"],
              employee_id=associate)["status"] == "picked_up"
    assert stock(box, store, product)[:2] == (on_hand - 2, reserved)
    fails(box, "cancel_pickup_order", "only a pending or ready", order_id=order["order_id"],
          employee_id=associate)
    other, = one(box, "SELECT order_id FROM pickup_orders WHERE store_id != ? AND status = "
                      "'pending' LIMIT 1", (store,))
    fails(box, "cancel_pickup_order", "your own store", order_id=other, employee_id=associate)
    assert box.check_integrity() == []


def test_cancel_pickup_releases_units(box):
    order, store = one(box, "SELECT order_id, store_id FROM pickup_orders WHERE status = 'ready' "
                            "LIMIT 1")
    associate, _ = staff(box, "associate", store)
    items = box.db.execute("SELECT product_id, quantity FROM pickup_items WHERE order_id = ?",
                           (order,)).fetchall()
    held = {p: stock(box, store, p)[1] for p, _ in items}
    ok(box, "cancel_pickup_order", order_id=order, employee_id=associate)
    for product, quantity in items:
        assert stock(box, store, product)[1] == held[product] - quantity
    assert box.check_integrity() == []


def test_created_ids_never_clash_with_generated_ones(box):
    associate, store = staff(box, "associate")
    product, source, _ = transfer_pair(box, store)
    args = {"product_id": product, "from_store_id": source, "to_store_id": store,
            "quantity": 1, "employee_id": associate}
    first = ok(box, "request_transfer", **args)["transfer_id"]
    second = ok(box, "request_transfer", **args)["transfer_id"]
    assert first != second and first.split("_")[1].isdigit()


def test_invariants_catch_broken_rules(box):
    rules_catch(box, {
        "reserved units are the items of open pickup orders": "UPDATE inventory SET reserved = "
        "reserved + 1 WHERE rowid = 1",
        "reserved units are on hand": "UPDATE inventory SET on_hand = 0 WHERE reserved > 0 AND "
        "rowid = (SELECT min(rowid) FROM inventory WHERE reserved > 0)",
        "latest price change": "UPDATE inventory SET price = price + 1 WHERE rowid = 2",
        "whole cases": "UPDATE purchase_orders SET quantity = quantity + 1 WHERE rowid = 1 AND "
        "(SELECT case_size FROM products p WHERE p.product_id = purchase_orders.product_id) > 1",
        "one shift a day": "INSERT INTO shifts SELECT 'shf_x', employee_id, store_id, date, "
        "'06:00', '10:00', 'scheduled' FROM shifts WHERE status = 'scheduled' LIMIT 1",
        "past is not still scheduled": "UPDATE shifts SET status = 'scheduled' WHERE shift_id = "
        "(SELECT shift_id FROM shifts WHERE status = 'completed' LIMIT 1)"})
