"""The retail chain growth recipe (``tests/fuzz/growth.py``): pickup orders with the longest
customer names a store takes, transfer requests and shifts, each call adding rows."""

from __future__ import annotations

import sqlite3
from datetime import date, timedelta

from tool_gym.domains.retail_chain.tools import TODAY


def recipe(db: sqlite3.Connection, text: str):
    """``step(i) -> (tool, arguments)``: a one-unit pickup order (a new customer each time),
    a transfer request of one unit, or a short shift for a colleague."""
    manager, store = db.execute(
        "SELECT e.employee_id, e.store_id FROM employees e JOIN stores s ON s.store_id = "
        "e.store_id WHERE e.role = 'manager' AND e.status = 'active' AND s.status = 'open' "
        "ORDER BY e.employee_id").fetchone()
    product, source = db.execute(
        "SELECT i.product_id, j.store_id FROM inventory i JOIN products p ON p.product_id = "
        "i.product_id JOIN inventory j ON j.product_id = i.product_id AND j.store_id != "
        "i.store_id JOIN stores s ON s.store_id = j.store_id WHERE i.store_id = ? AND "
        "p.status = 'active' AND i.on_hand - i.reserved >= 200 AND j.on_hand - j.reserved >= 5 "
        "AND s.status = 'open' ORDER BY i.product_id, j.store_id", (store,)).fetchone()
    staff = [r[0] for r in db.execute(
        "SELECT employee_id FROM employees WHERE store_id = ? AND status = 'active' "
        "ORDER BY employee_id", (store,))]
    monday = date.fromisoformat(TODAY) + timedelta(days=14)

    def step(i: int):
        if i % 3 == 0:
            return "create_pickup_order", {"product_id": product, "store_id": store,
                                           "quantity": 1, "customer": f"{text[:90]} {i}",
                                           "phone": "+1-555-0100", "employee_id": manager}
        if i % 3 == 1:
            return "request_transfer", {"product_id": product, "from_store_id": source,
                                        "to_store_id": store, "quantity": 1,
                                        "employee_id": manager}
        day = (monday + timedelta(days=(i // 3) % 7 + 7 * ((i // 21) % 2))).isoformat()
        return "schedule_shift", {"staff_id": staff[(i // 42) % len(staff)], "date": day,
                                  "start": "06:00", "end": "10:00", "employee_id": manager}
    return step
