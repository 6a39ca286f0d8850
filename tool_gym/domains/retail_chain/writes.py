"""The retail chain domain's writes; see :mod:`.tools`."""

from __future__ import annotations

import re
import sqlite3
from datetime import date, timedelta

from ...core.arguments import check_cents, check_date
from ...core.ids import counted_id
from ...core.rows import fetch_row
from ...core.tools import Category, ToolError, tool
from .records import (
    CLOCK,
    MAX_WEEKLY_HOURS,
    NOW,
    PICKUP_DAYS,
    SCHEDULE_DAYS,
    TODAY,
    EmployeeId,
    OrderId,
    PoId,
    ProductId,
    ShiftId,
    StoreId,
    TransferId,
    acting_employee,
    carried_stock,
    checked_count,
    employee_row,
    minutes,
    money,
    pickup_record,
    po_row,
    product_row,
    release_items,
    scheduled_minutes,
    stock_row,
    store_row,
    transfer_row,
)


@tool(Category.WRITE, returns={"transfer_id": TransferId, "product_id": ProductId},
      writes=("transfer_id",), needs=("product_id",))
def request_transfer(db, product_id: ProductId, from_store_id: StoreId, to_store_id: StoreId,
                     quantity: int, employee_id: EmployeeId) -> dict:
    """Request units of a product from another open store for the employee's own store. The
    quantity may not exceed what the source store has available (on hand minus reserved).
    Confirm the details with the employee (explicit yes) before calling.

    Args:
        product_id: The product's id.
        from_store_id: The store that sends the units.
        to_store_id: The store that receives them (the employee's own store).
        quantity: The number of units, 1 to 500.
        employee_id: The signed-in employee's id (who acts).
    """
    quantity = checked_count(quantity, "quantity", 1, 500)
    acting_employee(db, employee_id, to_store_id, "associate", "request transfers")
    product = product_row(db, product_id)
    source, target = store_row(db, from_store_id), store_row(db, to_store_id)
    if source["store_id"] == target["store_id"]:
        raise ToolError("The two stores must be different.")
    for store in (source, target):
        if store["status"] != "open":
            raise ToolError(f"The {store['name']} store is closed and takes part in no transfer.")
    stock = carried_stock(db, source, product)
    carried_stock(db, target, product)
    if quantity > stock["available"]:
        raise ToolError(f"The {source['name']} store has only {stock['available']} units of "
                        f"{product['name']} available; {quantity} requested.")
    transfer_id = counted_id(db, "transfers", "transfer_id", "trf_")
    db.execute("INSERT INTO transfers (transfer_id, product_id, from_store_id, to_store_id, "
               "quantity, status, requested_by, created_at, updated_at) "
               "VALUES (?, ?, ?, ?, ?, 'requested', ?, ?, ?)",
               (transfer_id, product_id, from_store_id, to_store_id, quantity, employee_id,
                NOW, NOW))
    return transfer_row(db, transfer_id)


@tool(Category.WRITE, returns={"transfer_id": TransferId}, writes=("transfer_id",),
      needs=("transfer_id",))
def ship_transfer(db, transfer_id: TransferId, employee_id: EmployeeId) -> dict:
    """Ship a requested transfer out of the employee's store (a supervisor or manager of
    the sending store): its units leave the store's stock. Confirm with the employee
    (explicit yes) before calling.

    Args:
        transfer_id: The transfer's id, such as 'trf_q1w2e3r4'.
        employee_id: The signed-in employee's id (who acts).
    """
    transfer = transfer_row(db, transfer_id)
    acting_employee(db, employee_id, transfer["from_store_id"], "supervisor", "ship transfers")
    if transfer["status"] != "requested":
        raise ToolError(f"The transfer is {transfer['status']}; only a requested transfer can "
                        "be shipped.")
    stock = stock_row(db, transfer["from_store_id"], transfer["product_id"])
    if stock is None or transfer["quantity"] > stock["available"]:
        raise ToolError(f"Only {0 if stock is None else stock['available']} units are "
                        f"available to ship; the transfer is for {transfer['quantity']}.")
    db.execute("UPDATE inventory SET on_hand = on_hand - ? WHERE store_id = ? AND product_id = ?",
               (transfer["quantity"], transfer["from_store_id"], transfer["product_id"]))
    db.execute("UPDATE transfers SET status = 'in_transit', updated_at = ? WHERE transfer_id = ?",
               (NOW, transfer_id))
    return transfer_row(db, transfer_id)


@tool(Category.WRITE, returns={"transfer_id": TransferId}, writes=("transfer_id",),
      needs=("transfer_id",))
def receive_transfer(db, transfer_id: TransferId, employee_id: EmployeeId) -> dict:
    """Receive a transfer in transit at the employee's store: its units are added to the
    store's stock. Confirm with the employee (explicit yes) before calling.

    Args:
        transfer_id: The transfer's id.
        employee_id: The signed-in employee's id (who acts).
    """
    transfer = transfer_row(db, transfer_id)
    acting_employee(db, employee_id, transfer["to_store_id"], "associate", "receive transfers")
    if transfer["status"] != "in_transit":
        raise ToolError(f"The transfer is {transfer['status']}; only a transfer in transit can "
                        "be received.")
    db.execute("UPDATE inventory SET on_hand = on_hand + ? WHERE store_id = ? AND product_id = ?",
               (transfer["quantity"], transfer["to_store_id"], transfer["product_id"]))
    db.execute("UPDATE transfers SET status = 'received', updated_at = ? WHERE transfer_id = ?",
               (NOW, transfer_id))
    return transfer_row(db, transfer_id)


@tool(Category.WRITE, returns={"transfer_id": TransferId}, writes=("transfer_id",),
      needs=("transfer_id",))
def cancel_transfer(db, transfer_id: TransferId, employee_id: EmployeeId) -> dict:
    """Cancel a transfer that has not shipped yet (a supervisor or manager of either
    store). Confirm with the employee (explicit yes) before calling.

    Args:
        transfer_id: The transfer's id.
        employee_id: The signed-in employee's id (who acts).
    """
    transfer = transfer_row(db, transfer_id)
    me = employee_row(db, employee_id)
    store = transfer["to_store_id"] if me["store_id"] == transfer["to_store_id"] \
        else transfer["from_store_id"]
    acting_employee(db, employee_id, store, "supervisor", "cancel transfers")
    if transfer["status"] != "requested":
        raise ToolError(f"The transfer is {transfer['status']}; only a requested transfer "
                        "(not shipped yet) can be cancelled.")
    db.execute("UPDATE transfers SET status = 'cancelled', updated_at = ? WHERE transfer_id = ?",
               (NOW, transfer_id))
    return transfer_row(db, transfer_id)


@tool(Category.WRITE, returns={"po_id": PoId, "product_id": ProductId}, writes=("po_id",),
      needs=("product_id",))
def create_purchase_order(db, product_id: ProductId, store_id: StoreId, quantity: int,
                          employee_id: EmployeeId) -> dict:
    """Order units of an active product from its supplier for the employee's store (a
    manager). The quantity must be whole cases; delivery is expected after the supplier's
    lead time. Check the policy's spending limit first. Confirm the details with the
    employee (explicit yes) before calling.

    Args:
        product_id: The product's id.
        store_id: The store that orders (the employee's own store).
        quantity: The number of units, a multiple of the product's case size.
        employee_id: The signed-in employee's id (who acts).
    """
    quantity = checked_count(quantity, "quantity", 1, 10_000)
    acting_employee(db, employee_id, store_id, "manager", "place purchase orders")
    product = product_row(db, product_id)
    store = store_row(db, store_id)
    if store["status"] != "open":
        raise ToolError(f"The {store['name']} store is closed.")
    if product["status"] != "active":
        raise ToolError(f"{product['name']} is discontinued and cannot be ordered.")
    carried_stock(db, store, product)
    if quantity % product["case_size"]:
        raise ToolError(f"{product['name']} comes in cases of {product['case_size']}; order a "
                        "multiple of that.")
    (lead,) = db.execute("SELECT lead_time_days FROM suppliers WHERE supplier_id = ?",
                         (product["supplier_id"],)).fetchone()
    expected = (date.fromisoformat(TODAY) + timedelta(days=lead)).isoformat()
    po_id = counted_id(db, "purchase_orders", "po_id", "po_")
    db.execute("INSERT INTO purchase_orders (po_id, store_id, supplier_id, product_id, quantity, "
               "unit_cost, status, created_by, created_at, expected_on) "
               "VALUES (?, ?, ?, ?, ?, ?, 'submitted', ?, ?, ?)",
               (po_id, store_id, product["supplier_id"], product_id, quantity,
                product["unit_cost"], employee_id, NOW, expected))
    record = po_row(db, po_id)
    record["total_cost"] = money(quantity * product["unit_cost"])
    return record


@tool(Category.WRITE, returns={"po_id": PoId}, writes=("po_id",), needs=("po_id",))
def receive_purchase_order(db, po_id: PoId, employee_id: EmployeeId) -> dict:
    """Receive a submitted purchase order at the employee's store: its units are added to
    the store's stock. Confirm with the employee (explicit yes) before calling.

    Args:
        po_id: The purchase order's id, such as 'po_z9y8x7w6'.
        employee_id: The signed-in employee's id (who acts).
    """
    po = po_row(db, po_id)
    acting_employee(db, employee_id, po["store_id"], "associate", "receive deliveries")
    if po["status"] != "submitted":
        raise ToolError(f"The purchase order is {po['status']}; only a submitted order can be "
                        "received.")
    db.execute("UPDATE inventory SET on_hand = on_hand + ? WHERE store_id = ? AND product_id = ?",
               (po["quantity"], po["store_id"], po["product_id"]))
    db.execute("UPDATE purchase_orders SET status = 'received' WHERE po_id = ?", (po_id,))
    return po_row(db, po_id)


@tool(Category.WRITE, returns={"po_id": PoId}, writes=("po_id",), needs=("po_id",))
def cancel_purchase_order(db, po_id: PoId, employee_id: EmployeeId) -> dict:
    """Cancel a submitted purchase order of the employee's store (a manager). Confirm with
    the employee (explicit yes) before calling.

    Args:
        po_id: The purchase order's id.
        employee_id: The signed-in employee's id (who acts).
    """
    po = po_row(db, po_id)
    acting_employee(db, employee_id, po["store_id"], "manager", "cancel purchase orders")
    if po["status"] != "submitted":
        raise ToolError(f"The purchase order is {po['status']}; only a submitted order can be "
                        "cancelled.")
    db.execute("UPDATE purchase_orders SET status = 'cancelled' WHERE po_id = ?", (po_id,))
    return po_row(db, po_id)


@tool(Category.WRITE, returns={"product_id": ProductId, "store_id": StoreId},
      writes=("product_id",), needs=("product_id",))
def change_price(db, product_id: ProductId, store_id: StoreId, price: float,
                 employee_id: EmployeeId) -> dict:
    """Set a product's shelf price at the employee's store (a manager); the change is kept
    in the price history. Check the policy's markdown limit first. Confirm the details with
    the employee (explicit yes) before calling.

    Args:
        product_id: The product's id.
        store_id: The store (the employee's own store).
        price: The new shelf price in dollars, positive, at most two decimals.
        employee_id: The signed-in employee's id (who acts).
    """
    new_price = check_cents(price)
    acting_employee(db, employee_id, store_id, "manager", "change prices")
    product = product_row(db, product_id)
    stock = carried_stock(db, store_row(db, store_id), product)
    if new_price == stock["price"]:
        raise ToolError(f"{product['name']} already costs {new_price:.2f} at this store.")
    db.execute("UPDATE inventory SET price = ? WHERE store_id = ? AND product_id = ?",
               (new_price, store_id, product_id))
    change_id = counted_id(db, "price_changes", "change_id", "chg_")
    db.execute("INSERT INTO price_changes (change_id, store_id, product_id, old_price, "
               "new_price, changed_by, changed_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
               (change_id, store_id, product_id, stock["price"], new_price, employee_id, NOW))
    return {"product_id": product_id, "store_id": store_id, "name": product["name"],
            "base_price": product["base_price"], "old_price": stock["price"],
            "new_price": new_price}


@tool(Category.WRITE, returns={"product_id": ProductId, "store_id": StoreId},
      writes=("product_id",), needs=("product_id",))
def update_reorder_point(db, product_id: ProductId, store_id: StoreId, reorder_point: int,
                         employee_id: EmployeeId) -> dict:
    """Set the stock level at or below which a product of the employee's store needs
    reordering (a supervisor or manager). Confirm with the employee (explicit yes) before
    calling.

    Args:
        product_id: The product's id.
        store_id: The store (the employee's own store).
        reorder_point: The new reorder point, 0 to 1000 units.
        employee_id: The signed-in employee's id (who acts).
    """
    reorder_point = checked_count(reorder_point, "reorder point", 0, 1000)
    acting_employee(db, employee_id, store_id, "supervisor", "set reorder points")
    product = product_row(db, product_id)
    stock = carried_stock(db, store_row(db, store_id), product)
    if stock["reorder_point"] == reorder_point:
        raise ToolError(f"The reorder point is already {reorder_point}.")
    db.execute("UPDATE inventory SET reorder_point = ? WHERE store_id = ? AND product_id = ?",
               (reorder_point, store_id, product_id))
    return {"product_id": product_id, "store_id": store_id, "name": product["name"],
            "reorder_point": reorder_point, "on_hand": stock["on_hand"]}


def _clock_value(value: str, what: str) -> int:
    match = CLOCK.match(value.strip())
    if not match:
        raise ToolError(f"The {what} must be a time in the format HH:MM, got {value!r}.")
    total = minutes(value.strip())
    if total % 30:
        raise ToolError(f"The {what} must be on the hour or the half hour.")
    return total


@tool(Category.WRITE, returns={"shift_id": ShiftId, "employee_id": EmployeeId},
      writes=("shift_id",), needs=("employee_id",))
def schedule_shift(db, staff_id: EmployeeId, date: str, start: str, end: str,
                   employee_id: EmployeeId) -> dict:
    """Schedule a shift for an active member of the employee's store (the employee is a
    supervisor or manager). A shift lasts 4 to 10 hours between 06:00 and 23:00, on the half
    hour; a person works at most one shift a day and at most their weekly hours (40
    full-time, 25 part-time, Monday to Sunday). Confirm the details with the employee
    (explicit yes) before calling.

    Args:
        staff_id: The id of the person who will work the shift.
        date: The day, YYYY-MM-DD, from today up to 28 days ahead.
        start: When the shift starts, HH:MM (24-hour clock).
        end: When the shift ends, HH:MM (24-hour clock).
        employee_id: The signed-in employee's id (who acts).
    """
    staff = employee_row(db, staff_id, "Staff member")
    acting_employee(db, employee_id, staff["store_id"], "supervisor", "schedule shifts")
    day = check_date(date, "date")
    if not TODAY <= day <= (_today() + timedelta(days=SCHEDULE_DAYS)).isoformat():
        raise ToolError(f"Shifts can be scheduled from today ({TODAY}) up to "
                        f"{SCHEDULE_DAYS} days ahead.")
    start, end = _clock_value(start, "start"), _clock_value(end, "end")
    if start < 6 * 60 or end > 23 * 60 or not 240 <= end - start <= 600:
        raise ToolError("A shift lasts 4 to 10 hours between 06:00 and 23:00.")
    name = f"{staff['first_name']} {staff['last_name']}"
    if staff["status"] != "active":
        raise ToolError(f"{name} is on leave and cannot be scheduled.")
    if db.execute("SELECT 1 FROM shifts WHERE employee_id = ? AND date = ? AND status != "
                  "'cancelled'", (staff_id, day)).fetchone():
        raise ToolError(f"{name} already has a shift on {day}.")
    limit = MAX_WEEKLY_HOURS[staff["employment_type"]]
    hours = (scheduled_minutes(db, staff_id, day) + end - start) / 60
    if hours > limit:
        raise ToolError(f"{name} would work {hours:g} hours that week; the limit is {limit}.")
    shift_id = counted_id(db, "shifts", "shift_id", "shf_")
    db.execute("INSERT INTO shifts (shift_id, employee_id, store_id, date, start_time, end_time, "
               "status) VALUES (?, ?, ?, ?, ?, ?, 'scheduled')",
               (shift_id, staff_id, staff["store_id"], day, f"{start // 60:02d}:{start % 60:02d}",
                f"{end // 60:02d}:{end % 60:02d}"))
    return {"shift_id": shift_id, "employee_id": staff_id, "name": name, "date": day,
            "start_time": f"{start // 60:02d}:{start % 60:02d}",
            "end_time": f"{end // 60:02d}:{end % 60:02d}", "week_hours": hours,
            "status": "scheduled"}


def _today() -> date:
    return date.fromisoformat(TODAY)


@tool(Category.WRITE, returns={"shift_id": ShiftId}, writes=("shift_id",), needs=("shift_id",))
def cancel_shift(db, shift_id: ShiftId, employee_id: EmployeeId) -> dict:
    """Cancel a scheduled shift of the employee's store from tomorrow on (a supervisor or
    manager). Confirm with the employee (explicit yes) before calling.

    Args:
        shift_id: The shift's id, such as 'shf_h5j6k7l8'.
        employee_id: The signed-in employee's id (who acts).
    """
    row = fetch_row(db, "SELECT store_id, date, status FROM shifts WHERE shift_id = ?",
                    (shift_id,), f"Shift {shift_id!r} not found.")
    acting_employee(db, employee_id, row[0], "supervisor", "cancel shifts")
    if row[2] != "scheduled":
        raise ToolError(f"The shift is {row[2]}; only a scheduled shift can be cancelled.")
    if row[1] <= TODAY:
        raise ToolError("A shift of today or earlier can no longer be cancelled.")
    db.execute("UPDATE shifts SET status = 'cancelled' WHERE shift_id = ?", (shift_id,))
    return {"shift_id": shift_id, "date": row[1], "status": "cancelled"}


_PHONE = re.compile(r"^\+?[\d\- ()]{7,20}$")


@tool(Category.WRITE, returns={"order_id": OrderId, "store_id": StoreId},
      writes=("order_id",), needs=("product_id",))
def create_pickup_order(db, product_id: ProductId, store_id: StoreId, quantity: int,
                        customer: str, phone: str, employee_id: EmployeeId) -> dict:
    """Create a pickup order for a customer at the employee's store: the units are reserved
    until the customer collects them (within 3 days). Only available units of an active
    product can be reserved. Confirm the details with the employee (explicit yes) before
    calling.

    Args:
        product_id: The product's id.
        store_id: The store (the employee's own store).
        quantity: The number of units, 1 to 10.
        customer: The customer's full name.
        phone: The customer's phone number.
        employee_id: The signed-in employee's id (who acts).
    """
    quantity = checked_count(quantity, "quantity", 1, 10)
    acting_employee(db, employee_id, store_id, "associate", "create pickup orders")
    product = product_row(db, product_id)
    store = store_row(db, store_id)
    if store["status"] != "open":
        raise ToolError(f"The {store['name']} store is closed.")
    if product["status"] != "active":
        raise ToolError(f"{product['name']} is discontinued.")
    name = " ".join(customer.split())
    if not name or len(name) > 100:
        raise ToolError("The customer's name must be 1 to 100 characters.")
    if not _PHONE.match(phone.strip()):
        raise ToolError("The phone number must be 7 to 20 digits, spaces, dashes or brackets.")
    stock = carried_stock(db, store, product)
    if quantity > stock["available"]:
        raise ToolError(f"Only {stock['available']} units of {product['name']} are available "
                        "at this store.")
    order_id = counted_id(db, "pickup_orders", "order_id", "pko_")
    pickup_by = (_today() + timedelta(days=PICKUP_DAYS)).isoformat()
    db.execute("INSERT INTO pickup_orders (order_id, store_id, customer_name, customer_phone, "
               "status, created_at, pickup_by) VALUES (?, ?, ?, ?, 'pending', ?, ?)",
               (order_id, store_id, name, phone.strip(), NOW, pickup_by))
    db.execute("INSERT INTO pickup_items (order_id, product_id, quantity, unit_price) "
               "VALUES (?, ?, ?, ?)", (order_id, product_id, quantity, stock["price"]))
    db.execute("UPDATE inventory SET reserved = reserved + ? WHERE store_id = ? AND "
               "product_id = ?", (quantity, store_id, product_id))
    return pickup_record(db, order_id)


def _pickup_step(db: sqlite3.Connection, order_id: str, employee_id: str, allowed: tuple,
                 what: str, done: str) -> dict:
    """The pickup order, once the employee may ``what`` for its store and it is in one of
    the ``allowed`` statuses (else: only such an order can be ``done``)."""
    order = pickup_record(db, order_id)
    acting_employee(db, employee_id, order["store_id"], "associate", what)
    if order["status"] not in allowed:
        raise ToolError(f"The pickup order is {order['status']}; only a "
                        f"{' or '.join(allowed)} order can be {done}.")
    return order


@tool(Category.WRITE, returns={"order_id": OrderId}, writes=("order_id",), needs=("order_id",))
def mark_pickup_ready(db, order_id: OrderId, employee_id: EmployeeId) -> dict:
    """Mark a pending pickup order of the employee's store as ready for the customer.
    Confirm with the employee (explicit yes) before calling.

    Args:
        order_id: The pickup order's id.
        employee_id: The signed-in employee's id (who acts).
    """
    _pickup_step(db, order_id, employee_id, ("pending",), "mark orders ready",
                 "marked ready")
    db.execute("UPDATE pickup_orders SET status = 'ready' WHERE order_id = ?", (order_id,))
    return pickup_record(db, order_id)


@tool(Category.WRITE, returns={"order_id": OrderId}, writes=("order_id",), needs=("order_id",))
def complete_pickup(db, order_id: OrderId, employee_id: EmployeeId) -> dict:
    """Record that the customer collected a ready pickup order: its reserved units leave
    the store's stock. Confirm with the employee (explicit yes) before calling.

    Args:
        order_id: The pickup order's id.
        employee_id: The signed-in employee's id (who acts).
    """
    order = _pickup_step(db, order_id, employee_id, ("ready",), "complete pickups",
                         "picked up")
    release_items(db, order, picked_up=True)
    db.execute("UPDATE pickup_orders SET status = 'picked_up' WHERE order_id = ?", (order_id,))
    return pickup_record(db, order_id)


@tool(Category.WRITE, returns={"order_id": OrderId}, writes=("order_id",), needs=("order_id",))
def cancel_pickup_order(db, order_id: OrderId, employee_id: EmployeeId) -> dict:
    """Cancel a pending or ready pickup order of the employee's store: its reserved units
    are released. Confirm with the employee (explicit yes) before calling.

    Args:
        order_id: The pickup order's id.
        employee_id: The signed-in employee's id (who acts).
    """
    order = _pickup_step(db, order_id, employee_id, ("pending", "ready"), "cancel orders",
                         "cancelled")
    release_items(db, order, picked_up=False)
    db.execute("UPDATE pickup_orders SET status = 'cancelled' WHERE order_id = ?", (order_id,))
    return pickup_record(db, order_id)
