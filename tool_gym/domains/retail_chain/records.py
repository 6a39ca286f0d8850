"""The retail chain tools' shared parts: the clock and limits, the entity types of ids, and
the reads and checks the tools build on (who may act for which store, stock, records)."""

from __future__ import annotations

import re
import sqlite3
from datetime import date, timedelta
from typing import Annotated, Literal

from ...core.rows import fetch_dicts, fetch_row
from ...core.tools import Entity, ToolError

#: The chain's clock (fixed, so that every episode is reproducible); a Monday.
TODAY = "2024-08-05"
NOW = "2024-08-05T10:00:00"
#: Most hours a week one person may be scheduled, by employment type.
MAX_WEEKLY_HOURS = {"full_time": 40, "part_time": 25}
#: Policy: a store price is at least this share of the product's base price.
MIN_PRICE_SHARE = 0.70
#: Policy: the most one purchase order may cost (quantity times unit cost).
PO_LIMIT = 5000.0
#: Shifts are scheduled at most this many days ahead.
SCHEDULE_DAYS = 28
#: A pickup order waits this many days for its customer.
PICKUP_DAYS = 3

StoreId = Annotated[str, Entity("store_id")]
EmployeeId = Annotated[str, Entity("employee_id")]
ProductId = Annotated[str, Entity("product_id")]
TransferId = Annotated[str, Entity("transfer_id")]
PoId = Annotated[str, Entity("po_id")]
ShiftId = Annotated[str, Entity("shift_id")]
OrderId = Annotated[str, Entity("order_id")]

TransferStatus = Literal["", "requested", "in_transit", "received", "cancelled"]
PoStatus = Literal["", "submitted", "received", "cancelled"]
PickupStatus = Literal["", "pending", "ready", "picked_up", "cancelled"]
RANK = {"associate": 0, "supervisor": 1, "manager": 2}
CLOCK = re.compile(r"^([01]\d|2[0-3]):([0-5]\d)$")


def money(value: float) -> float:
    """A dollar amount rounded to cents (the one rounding used everywhere)."""
    return round(float(value) + 0.0, 2)


def minutes(clock: str) -> int:
    """``"09:30"`` -> 570."""
    return int(clock[:2]) * 60 + int(clock[3:5])


def week_of(day: str) -> tuple[str, str]:
    """The Monday and Sunday of ``day``'s week."""
    d = date.fromisoformat(day)
    monday = d - timedelta(days=d.weekday())
    return monday.isoformat(), (monday + timedelta(days=6)).isoformat()


def scheduled_minutes(db: sqlite3.Connection, employee_id: str, day: str) -> int:
    """Minutes of the employee's scheduled and completed shifts in ``day``'s week."""
    monday, sunday = week_of(day)
    rows = db.execute("SELECT start_time, end_time FROM shifts WHERE employee_id = ? AND "
                      "status != 'cancelled' AND date BETWEEN ? AND ?",
                      (employee_id, monday, sunday)).fetchall()
    return sum(minutes(b) - minutes(a) for a, b in rows)


EMPLOYEE_COLUMNS = ("employee_id", "first_name", "last_name", "email", "username", "store_id", "role",
             "employment_type", "status", "hired_on")


def employee_row(db: sqlite3.Connection, employee_id: str, what: str = "Employee") -> dict:
    row = fetch_row(db, f"SELECT {', '.join(EMPLOYEE_COLUMNS)} FROM employees WHERE employee_id = ?",
                    (employee_id,), f"{what} {employee_id!r} not found.")
    return dict(zip(EMPLOYEE_COLUMNS, row))


def store_row(db: sqlite3.Connection, store_id: str) -> dict:
    row = fetch_row(db, "SELECT store_id, name, city, region, status FROM stores "
                    "WHERE store_id = ?", (store_id,), f"Store {store_id!r} not found.")
    return dict(zip(("store_id", "name", "city", "region", "status"), row))


PRODUCT_COLUMNS = ("product_id", "sku", "name", "brand", "category", "supplier_id", "base_price",
            "unit_cost", "case_size", "status")


def product_row(db: sqlite3.Connection, product_id: str) -> dict:
    row = fetch_row(db, f"SELECT {', '.join(PRODUCT_COLUMNS)} FROM products WHERE product_id = ?",
                    (product_id,), f"Product {product_id!r} not found.")
    return dict(zip(PRODUCT_COLUMNS, row))


def acting_employee(db: sqlite3.Connection, employee_id: str, store_id: str, role: str,
           what: str) -> dict:
    """The acting employee, once they may ``what`` for ``store_id`` with their role."""
    me = employee_row(db, employee_id)
    if me["status"] != "active":
        raise ToolError(f"{me['first_name']} {me['last_name']} is on leave and cannot make "
                        "changes.")
    if me["store_id"] != store_id:
        raise ToolError(f"You work at the {store_row(db, me['store_id'])['name']} store; you can "
                        f"only {what} for your own store.")
    if RANK[me["role"]] < RANK[role]:
        raise ToolError(f"Only a store {role} or above can {what}; you are a {me['role']}.")
    return me


def stock_row(db: sqlite3.Connection, store_id: str, product_id: str) -> dict | None:
    row = db.execute("SELECT on_hand, reserved, reorder_point, price FROM inventory "
                     "WHERE store_id = ? AND product_id = ?", (store_id, product_id)).fetchone()
    if row is None:
        return None
    return {"on_hand": row[0], "reserved": row[1], "available": row[0] - row[1],
            "reorder_point": row[2], "price": row[3]}


def carried_stock(db: sqlite3.Connection, store: dict, product: dict) -> dict:
    stock = stock_row(db, store["store_id"], product["product_id"])
    if stock is None:
        raise ToolError(f"The {store['name']} store does not carry {product['name']}.")
    return stock


def checked_count(value: int, what: str, low: int = 1, high: int = 10_000) -> int:
    if not low <= value <= high:
        raise ToolError(f"The {what} must be between {low} and {high}.")
    return int(value)


TRANSFER_COLUMNS = ("transfer_id", "product_id", "from_store_id", "to_store_id", "quantity", "status",
             "requested_by", "created_at", "updated_at")


def transfer_row(db: sqlite3.Connection, transfer_id: str) -> dict:
    row = fetch_row(db, f"SELECT {', '.join(TRANSFER_COLUMNS)} FROM transfers WHERE transfer_id = ?",
                    (transfer_id,), f"Transfer {transfer_id!r} not found.")
    return dict(zip(TRANSFER_COLUMNS, row))


PO_COLUMNS = ("po_id", "store_id", "supplier_id", "product_id", "quantity", "unit_cost", "status",
       "created_by", "created_at", "expected_on")


def po_row(db: sqlite3.Connection, po_id: str) -> dict:
    row = fetch_row(db, f"SELECT {', '.join(PO_COLUMNS)} FROM purchase_orders WHERE po_id = ?",
                    (po_id,), f"Purchase order {po_id!r} not found.")
    return dict(zip(PO_COLUMNS, row))


def pickup_record(db: sqlite3.Connection, order_id: str) -> dict:
    row = fetch_row(db, "SELECT order_id, store_id, customer_name, customer_phone, status, "
                    "created_at, pickup_by FROM pickup_orders WHERE order_id = ?", (order_id,),
                    f"Pickup order {order_id!r} not found.")
    order = dict(zip(("order_id", "store_id", "customer_name", "customer_phone", "status",
                      "created_at", "pickup_by"), row))
    order["items"] = fetch_dicts(
        db, ("product_id", "name", "quantity", "unit_price"),
        "SELECT i.product_id, p.name, i.quantity, i.unit_price FROM pickup_items i JOIN products "
        "p ON p.product_id = i.product_id WHERE i.order_id = ? ORDER BY i.rowid", (order_id,))
    order["total"] = money(sum(i["quantity"] * i["unit_price"] for i in order["items"]))
    return order


def release_items(db: sqlite3.Connection, order: dict, picked_up: bool) -> None:
    """Free the units an open pickup order reserves (and take them off the shelf when the
    customer collects them)."""
    for item in order["items"]:
        db.execute("UPDATE inventory SET reserved = reserved - ?, on_hand = on_hand - ? "
                   "WHERE store_id = ? AND product_id = ?",
                   (item["quantity"], item["quantity"] if picked_up else 0, order["store_id"],
                    item["product_id"]))


def status_filter(status: str) -> tuple[str, tuple]:
    return (" AND status = ?", (status,)) if status else ("", ())
