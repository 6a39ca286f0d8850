"""The retail chain domain's reads (and the hand-off to a human agent); see :mod:`.tools`."""

from __future__ import annotations

from datetime import date, timedelta

from ...core.arguments import check_date
from ...core.common_tools import human_transfer_tool
from ...core.rows import fetch_dicts, find_id
from ...core.tools import Category, ToolError, tool
from .records import (
    MAX_WEEKLY_HOURS,
    PO_COLUMNS,
    PRODUCT_COLUMNS,
    TODAY,
    TRANSFER_COLUMNS,
    EmployeeId,
    OrderId,
    PickupStatus,
    PoId,
    PoStatus,
    ProductId,
    ShiftId,
    StoreId,
    TransferId,
    TransferStatus,
    employee_row,
    minutes,
    money,
    pickup_record,
    product_row,
    scheduled_minutes,
    status_filter,
    store_row,
    week_of,
)


@tool(Category.READ, returns={".": EmployeeId})
def find_employee_by_email(db, email: str) -> str:
    """Find an employee's id by their work email address. Use it to authenticate the
    employee before anything else.

    Args:
        email: The work email address, such as 'ava.smith@northwind-stores.com'.
    """
    return find_id(db, "employees", "employee_id", "email", email.strip().lower(),
                   "No employee found with this email address.")


@tool(Category.READ, returns={".": EmployeeId})
def find_employee_by_username(db, username: str) -> str:
    """Find an employee's id by their staff login name. Use it to authenticate the
    employee before anything else.

    Args:
        username: The staff login name, such as 'asmith42'.
    """
    return find_id(db, "employees", "employee_id", "username", username.strip().lower(),
                   "No employee found with this username.")


@tool(Category.READ, returns={"employee_id": EmployeeId, "store_id": StoreId})
def get_employee_profile(db, employee_id: EmployeeId) -> dict:
    """Get an employee's profile: name, store, role (associate, supervisor or manager),
    employment type, status, and hours scheduled this week and next week.

    Args:
        employee_id: The employee's id, such as 'emp_a1b2c3d4'.
    """
    me = employee_row(db, employee_id)
    store = store_row(db, me["store_id"])
    next_week = (date.fromisoformat(TODAY) + timedelta(days=7)).isoformat()
    return {**me, "store_name": store["name"],
            "max_weekly_hours": MAX_WEEKLY_HOURS[me["employment_type"]],
            "hours_this_week": scheduled_minutes(db, employee_id, TODAY) / 60,
            "hours_next_week": scheduled_minutes(db, employee_id, next_week) / 60}


@tool(Category.READ, returns={"stores.store_id": StoreId})
def list_stores(db) -> dict:
    """List every store of the chain: name, city, region and whether it is open."""
    return {"stores": fetch_dicts(db, ("store_id", "name", "city", "region", "status"),
                                  "SELECT store_id, name, city, region, status FROM stores "
                                  "ORDER BY region, name")}


@tool(Category.READ, returns={"store_id": StoreId, "staff.employee_id": EmployeeId})
def list_store_staff(db, store_id: StoreId) -> dict:
    """List a store's employees: name, role, employment type and status.

    Args:
        store_id: The store's id, such as 'str_k3j9x0p2'.
    """
    store = store_row(db, store_id)
    staff = fetch_dicts(db, ("employee_id", "first_name", "last_name", "role",
                             "employment_type", "status"),
                        "SELECT employee_id, first_name, last_name, role, employment_type, "
                        "status FROM employees WHERE store_id = ? ORDER BY last_name, "
                        "first_name", (store_id,))
    return {"store_id": store_id, "store_name": store["name"], "staff": staff}


@tool(Category.READ, returns={"products.product_id": ProductId})
def search_products(db, query: str) -> dict:
    """Search the catalogue by product name, SKU, brand or category (case-insensitive, part
    of a word is enough). Returns at most 25 products with their base price, case size,
    supplier and status.

    Args:
        query: At least 2 characters to look for.
    """
    text = query.strip().lower()
    if len(text) < 2:
        raise ToolError("The search needs at least 2 characters.")
    rows = fetch_dicts(
        db, (*PRODUCT_COLUMNS, "supplier_name"),
        f"SELECT {', '.join('p.' + c for c in PRODUCT_COLUMNS)}, s.name FROM products p JOIN "
        "suppliers s ON s.supplier_id = p.supplier_id WHERE instr(lower(p.name), ?) > 0 OR "
        "instr(lower(p.sku), ?) > 0 OR instr(lower(p.brand), ?) > 0 OR "
        "instr(lower(p.category), ?) > 0 ORDER BY p.name LIMIT 25", (text,) * 4)
    for r in rows:
        del r["unit_cost"]
    return {"query": query, "products": rows}


@tool(Category.READ, returns={"store_id": StoreId, "items.product_id": ProductId})
def get_store_inventory(db, store_id: StoreId, category: str = "") -> dict:
    """List what a store carries: for each product its stock on hand, the units reserved by
    pickup orders, the units available (on hand minus reserved), the reorder point (and
    whether stock is at or below it) and the store's shelf price.

    Args:
        store_id: The store's id.
        category: Only this category, such as 'tools' or 'kitchen' (empty for all).
    """
    store = store_row(db, store_id)
    rows = db.execute(
        "SELECT p.product_id, p.sku, p.name, p.category, p.status, i.on_hand, i.reserved, "
        "i.reorder_point, i.price FROM inventory i JOIN products p ON p.product_id = "
        "i.product_id WHERE i.store_id = ? AND (? = '' OR p.category = lower(?)) "
        "ORDER BY p.category, p.name", (store_id, category.strip(), category.strip())).fetchall()
    items = [{"product_id": r[0], "sku": r[1], "name": r[2], "category": r[3],
              "product_status": r[4], "on_hand": r[5], "reserved": r[6],
              "available": r[5] - r[6], "reorder_point": r[7], "needs_reorder": r[5] <= r[7],
              "price": r[8]} for r in rows]
    return {"store_id": store_id, "store_name": store["name"], "items": items}


@tool(Category.READ, returns={"product_id": ProductId, "stores.store_id": StoreId})
def check_product_stock(db, product_id: ProductId) -> dict:
    """Check one product across the chain: for every store that carries it, the stock on
    hand, reserved and available units, and the store's price.

    Args:
        product_id: The product's id, such as 'prd_m4n5b6v7'.
    """
    product = product_row(db, product_id)
    rows = db.execute(
        "SELECT s.store_id, s.name, s.status, i.on_hand, i.reserved, i.price FROM inventory i "
        "JOIN stores s ON s.store_id = i.store_id WHERE i.product_id = ? ORDER BY s.name",
        (product_id,)).fetchall()
    stores = [{"store_id": r[0], "store_name": r[1], "store_status": r[2], "on_hand": r[3],
               "reserved": r[4], "available": r[3] - r[4], "price": r[5]} for r in rows]
    return {"product_id": product_id, "name": product["name"], "sku": product["sku"],
            "base_price": product["base_price"], "stores": stores}


@tool(Category.READ, returns={"store_id": StoreId, "transfers.transfer_id": TransferId,
                              "transfers.product_id": ProductId,
                              "transfers.from_store_id": StoreId,
                              "transfers.to_store_id": StoreId})
def list_transfers(db, store_id: StoreId, status: TransferStatus = "") -> dict:
    """List the stock transfers into and out of a store, newest first, with the product,
    both stores, the quantity and the status.

    Args:
        store_id: The store's id.
        status: Only transfers with this status (empty for all).
    """
    store_row(db, store_id)
    where, params = status_filter(status)
    rows = fetch_dicts(
        db, (*TRANSFER_COLUMNS, "product_name", "from_store", "to_store"),
        f"SELECT {', '.join('t.' + c for c in TRANSFER_COLUMNS)}, p.name, f.name, d.name FROM "
        "transfers t JOIN products p ON p.product_id = t.product_id JOIN stores f ON "
        "f.store_id = t.from_store_id JOIN stores d ON d.store_id = t.to_store_id WHERE "
        f"(t.from_store_id = ? OR t.to_store_id = ?){where.replace('status', 't.status')} "
        "ORDER BY t.created_at DESC, t.transfer_id", (store_id, store_id, *params))
    return {"store_id": store_id, "transfers": rows}


@tool(Category.READ, returns={"store_id": StoreId, "purchase_orders.po_id": PoId,
                              "purchase_orders.product_id": ProductId})
def list_purchase_orders(db, store_id: StoreId, status: PoStatus = "") -> dict:
    """List a store's purchase orders to suppliers, newest first: product, supplier,
    quantity, cost, status and expected delivery date.

    Args:
        store_id: The store's id.
        status: Only orders with this status (empty for all).
    """
    store_row(db, store_id)
    where, params = status_filter(status)
    rows = fetch_dicts(
        db, (*PO_COLUMNS, "product_name", "supplier_name"),
        f"SELECT {', '.join('o.' + c for c in PO_COLUMNS)}, p.name, s.name FROM purchase_orders o "
        "JOIN products p ON p.product_id = o.product_id JOIN suppliers s ON s.supplier_id = "
        f"o.supplier_id WHERE o.store_id = ?{where.replace('status', 'o.status')} "
        "ORDER BY o.created_at DESC, o.po_id", (store_id, *params))
    for r in rows:
        r["total_cost"] = money(r["quantity"] * r["unit_cost"])
    return {"store_id": store_id, "purchase_orders": rows}


@tool(Category.READ, returns={"suppliers.supplier_id": "supplier_id"})
def list_suppliers(db) -> dict:
    """List the chain's suppliers with their delivery lead time in days."""
    return {"suppliers": fetch_dicts(db, ("supplier_id", "name", "lead_time_days", "email"),
                                     "SELECT supplier_id, name, lead_time_days, email FROM "
                                     "suppliers ORDER BY name")}


@tool(Category.READ, returns={"store_id": StoreId, "shifts.shift_id": ShiftId,
                              "shifts.employee_id": EmployeeId})
def list_shifts(db, store_id: StoreId, start_date: str = "", end_date: str = "") -> dict:
    """List a store's shifts between two dates (default: this week and next week), by date
    and start time, with each person's name, hours and status.

    Args:
        store_id: The store's id.
        start_date: The first day, YYYY-MM-DD (empty: this week's Monday).
        end_date: The last day, YYYY-MM-DD (empty: next week's Sunday).
    """
    store_row(db, store_id)
    monday, _ = week_of(TODAY)
    start = check_date(start_date, "start_date") if start_date else monday
    end = check_date(end_date, "end_date") if end_date else \
        (date.fromisoformat(monday) + timedelta(days=13)).isoformat()
    if start > end:
        raise ToolError("start_date is after end_date.")
    rows = fetch_dicts(
        db, ("shift_id", "employee_id", "first_name", "last_name", "date", "start_time",
             "end_time", "status"),
        "SELECT s.shift_id, s.employee_id, e.first_name, e.last_name, s.date, s.start_time, "
        "s.end_time, s.status FROM shifts s JOIN employees e ON e.employee_id = s.employee_id "
        "WHERE s.store_id = ? AND s.date BETWEEN ? AND ? ORDER BY s.date, s.start_time, "
        "e.last_name", (store_id, start, end))
    for r in rows:
        r["hours"] = (minutes(r["end_time"]) - minutes(r["start_time"])) / 60
    return {"store_id": store_id, "start_date": start, "end_date": end, "shifts": rows}


@tool(Category.READ, returns={"store_id": StoreId, "orders.order_id": OrderId})
def list_pickup_orders(db, store_id: StoreId, status: PickupStatus = "") -> dict:
    """List a store's customer pickup orders, newest first: customer, status, the day they
    must be collected by, number of items and total.

    Args:
        store_id: The store's id.
        status: Only orders with this status (empty for all).
    """
    store_row(db, store_id)
    where, params = status_filter(status)
    rows = db.execute(
        "SELECT o.order_id, o.customer_name, o.status, o.created_at, o.pickup_by, "
        "sum(i.quantity), round(sum(i.quantity * i.unit_price), 2) FROM pickup_orders o "
        "JOIN pickup_items i ON i.order_id = o.order_id "
        f"WHERE o.store_id = ?{where.replace('status', 'o.status')} GROUP BY o.order_id "
        "ORDER BY o.created_at DESC, o.order_id", (store_id, *params)).fetchall()
    keys = ("order_id", "customer_name", "status", "created_at", "pickup_by", "units", "total")
    return {"store_id": store_id, "orders": [dict(zip(keys, r)) for r in rows]}


@tool(Category.READ, returns={"order_id": OrderId, "store_id": StoreId,
                              "items.product_id": ProductId})
def get_pickup_order(db, order_id: OrderId) -> dict:
    """Get one pickup order: customer, phone, status, dates and its items (product,
    quantity, unit price) with the total.

    Args:
        order_id: The pickup order's id, such as 'pko_b7c8d9e0'.
    """
    return pickup_record(db, order_id)


transfer_to_human_agents = human_transfer_tool(
    "Transfer the employee to a human agent (the chain's operations desk), with a summary of "
    "their issue. Only transfer if the employee explicitly asks for a human agent, or if the "
    "request cannot be handled with the policy and the available tools.",
    "A summary of the employee's issue.")
