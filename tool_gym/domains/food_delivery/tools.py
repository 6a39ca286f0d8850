"""The tools of the food delivery domain: 9 reads, 7 writes and a transfer to a human agent.

Every tool takes the sandbox's SQLite connection first and uses parameterized SQL only.
A write checks all its preconditions before its first statement and raises
:class:`ToolError` with a clear message when one fails (the toolbox also wraps each write
in a savepoint). Money is computed in integer cents and stored in dollars.

Rules the tools enforce: a cart holds items of one open restaurant, all available; an order
goes to an address in the restaurant's city and meets its minimum; a promo code must be
active, unexpired and reached by the subtotal; a gift card must cover the total; an order is
cancelled only while ``placed`` (before the restaurant accepts it); a missing-items refund
only for a delivered order's own lines, once per line; one rating per delivered order. The
24-hour window of missing-items refunds is a policy rule the agent must apply.
"""

from __future__ import annotations

import json
import sqlite3
from datetime import datetime, timedelta
from typing import Annotated

from ...core.common_tools import human_transfer_tool
from ...core.ids import counted_id
from ...core.rows import fetch_record, fetch_row, find_id
from ...core.tools import Category, Entity, Quotas, ToolError, tool

#: Growth bounds of one sandbox (see :class:`~tool_gym.core.tools.Quotas`): templates hold
#: about 1,200 orders.
QUOTAS = Quotas(rows={"orders": 10_000, "order_items": 40_000, "cart_items": 5_000,
                      "ratings": 5_000, "refunds": 5_000})

#: The service's clock (fixed, so that every episode is reproducible): a Friday evening.
NOW = "2024-06-14T19:00:00"
TODAY = NOW[:10]
#: Missing items can be refunded only this many hours after delivery (policy).
REFUND_WINDOW_HOURS = 24

CustomerId = Annotated[str, Entity("customer_id")]
AddressId = Annotated[str, Entity("address_id")]
PaymentMethodId = Annotated[str, Entity("payment_method_id")]
RestaurantId = Annotated[str, Entity("restaurant_id")]
ItemId = Annotated[str, Entity("item_id")]
OrderId = Annotated[str, Entity("order_id")]

ACTIVE_STATUSES = ("placed", "accepted", "preparing", "on_the_way")


def cents_of(amount: float) -> int:
    return int(round(float(amount) * 100))


def money(value: float) -> float:
    return round(float(value) + 0.0, 2)


def order_amounts(lines: list[tuple[float, int]], delivery_fee: float, percent_off: int,
                  max_discount: float) -> tuple[float, float, float, float]:
    """``(subtotal, delivery_fee, discount, total)`` of ``(unit price, quantity)`` lines: the
    discount is ``percent_off`` of the subtotal (rounded half up to the cent), at most
    ``max_discount``."""
    subtotal = sum(cents_of(price) * q for price, q in lines)
    discount = min((subtotal * percent_off + 50) // 100, cents_of(max_discount))
    fee = cents_of(delivery_fee)
    return subtotal / 100, fee / 100, discount / 100, (subtotal + fee - discount) / 100


def hours_since(stamp: str) -> float:
    return (datetime.fromisoformat(NOW) - datetime.fromisoformat(stamp)) / timedelta(hours=1)


def _customer(db: sqlite3.Connection, customer_id: str) -> tuple:
    return fetch_row(db, "SELECT customer_id, first_name, last_name, email, username, phone, "
                     "joined_on FROM customers WHERE customer_id = ?", (customer_id,),
                     f"Customer {customer_id!r} not found.")


_RESTAURANT_KEYS = ("restaurant_id", "name", "cuisine", "city", "delivery_fee", "min_order",
                    "is_open", "rating", "rating_count")


def _restaurant(db: sqlite3.Connection, restaurant_id: str) -> dict:
    record = fetch_record(db, "restaurants", _RESTAURANT_KEYS, "restaurant_id", restaurant_id,
                          f"Restaurant {restaurant_id!r} not found.")
    record["is_open"] = bool(record["is_open"])
    return record


_ORDER_KEYS = ("order_id", "customer_id", "restaurant_id", "address_id", "payment_method_id",
               "status", "subtotal", "delivery_fee", "discount", "total", "promo_code",
               "placed_at", "delivered_at", "cancel_reason")


def _order_row(db: sqlite3.Connection, order_id: str) -> dict:
    return fetch_record(db, "orders", _ORDER_KEYS, "order_id", order_id,
                        f"Order {order_id!r} not found.")


def _cart(db: sqlite3.Connection, customer_id: str) -> list[tuple]:
    """``(item_id, name, price, available, restaurant_id, quantity)`` of the cart."""
    return db.execute(
        "SELECT c.item_id, m.name, m.price, m.available, m.restaurant_id, c.quantity "
        "FROM cart_items c JOIN menu_items m ON m.item_id = c.item_id "
        "WHERE c.customer_id = ? ORDER BY c.rowid", (customer_id,)).fetchall()


def _promo(db: sqlite3.Connection, code: str, subtotal: float) -> tuple[int, float]:
    """``(percent_off, max_discount)`` of a code usable on ``subtotal``."""
    row = fetch_row(db, "SELECT percent_off, max_discount, min_subtotal, expires_on, active "
                    "FROM promo_codes WHERE code = ?", (code.strip().upper(),),
                    f"Promo code {code!r} does not exist.")
    pct, cap, minimum, expires, active = row
    if not active:
        raise ToolError(f"Promo code {code!r} is no longer active.")
    if expires < TODAY:
        raise ToolError(f"Promo code {code!r} expired on {expires}.")
    if cents_of(subtotal) < cents_of(minimum):
        raise ToolError(f"Promo code {code!r} needs a subtotal of at least {minimum:.2f}; "
                        f"the subtotal is {subtotal:.2f}.")
    return pct, cap


def _refund(db: sqlite3.Connection, order: dict, amount: float, reason: str,
            item_ids: list[str]) -> dict:
    refund_id = counted_id(db, "refunds", "refund_id", "ref_")
    db.execute("INSERT INTO refunds (refund_id, order_id, payment_method_id, amount, reason, "
               "item_ids, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
               (refund_id, order["order_id"], order["payment_method_id"], amount, reason,
                json.dumps(item_ids), NOW))
    row = db.execute("SELECT balance FROM payment_methods WHERE payment_method_id = ? "
                     "AND kind = 'gift_card'", (order["payment_method_id"],)).fetchone()
    if row is not None:
        db.execute("UPDATE payment_methods SET balance = ? WHERE payment_method_id = ?",
                   ((cents_of(row[0]) + cents_of(amount)) / 100, order["payment_method_id"]))
    return {"refund_id": refund_id, "order_id": order["order_id"], "amount": amount,
            "reason": reason, "item_ids": item_ids,
            "payment_method_id": order["payment_method_id"]}


# --------------------------------------------------------------------------- READ


@tool(Category.READ, returns={".": CustomerId})
def find_customer_by_email(db, email: str) -> str:
    """Find a customer's id by the email address of their account. Use it to authenticate
    the customer before anything else.

    Args:
        email: The customer's email address, such as 'mia.rossi12@example.com'.
    """
    return find_id(db, "customers", "customer_id", "email", email.strip().lower(),
                   "No customer found with this email address.")


@tool(Category.READ, returns={".": CustomerId})
def find_customer_by_username(db, username: str) -> str:
    """Find a customer's id by their app username. Use it to authenticate the customer
    before anything else.

    Args:
        username: The customer's username, such as 'miar123'.
    """
    return find_id(db, "customers", "customer_id", "username", username.strip().lower(),
                   "No customer found with this username.")


@tool(Category.READ, returns={"customer_id": CustomerId, "addresses.address_id": AddressId,
                              "payment_methods.payment_method_id": PaymentMethodId})
def get_customer_profile(db, customer_id: CustomerId) -> dict:
    """Get a customer's profile with their saved delivery addresses (label, street, city,
    delivery instructions) and payment methods (cards, PayPal, gift cards with balance).

    Args:
        customer_id: The customer's id, such as 'cus_a1b2c3d4'.
    """
    row = _customer(db, customer_id)
    profile = dict(zip(("customer_id", "first_name", "last_name", "email", "username", "phone",
                        "joined_on"), row))
    keys = ("address_id", "label", "street", "city", "zip", "instructions", "is_default")
    profile["addresses"] = [dict(zip(keys, r)) for r in db.execute(
        f"SELECT {', '.join(keys)} FROM addresses WHERE customer_id = ? ORDER BY rowid",
        (customer_id,))]
    keys = ("payment_method_id", "kind", "brand", "last4", "balance", "is_default")
    profile["payment_methods"] = [dict(zip(keys, r)) for r in db.execute(
        f"SELECT {', '.join(keys)} FROM payment_methods WHERE customer_id = ? ORDER BY rowid",
        (customer_id,))]
    for entry in profile["addresses"] + profile["payment_methods"]:
        entry["is_default"] = bool(entry["is_default"])
    return profile


@tool(Category.READ, returns={"customer_id": CustomerId, "orders.order_id": OrderId,
                              "orders.restaurant_id": RestaurantId})
def list_orders(db, customer_id: CustomerId, status: str = "") -> dict:
    """List a customer's orders, newest first, with restaurant, status, total and times.

    Args:
        customer_id: The customer's id.
        status: Only orders with this status ('placed', 'accepted', 'preparing',
            'on_the_way', 'delivered' or 'cancelled'); empty for all.
    """
    _customer(db, customer_id)
    statuses = (*ACTIVE_STATUSES, "delivered", "cancelled")
    if status and status not in statuses:
        raise ToolError(f"Unknown order status {status!r}; statuses are: {', '.join(statuses)}.")
    rows = db.execute(
        "SELECT o.order_id, o.restaurant_id, r.name, o.status, o.total, o.placed_at, "
        "o.delivered_at FROM orders o JOIN restaurants r ON r.restaurant_id = o.restaurant_id "
        "WHERE o.customer_id = ? AND (? = '' OR o.status = ?) "
        "ORDER BY o.placed_at DESC, o.rowid DESC", (customer_id, status, status)).fetchall()
    keys = ("order_id", "restaurant_id", "restaurant_name", "status", "total", "placed_at",
            "delivered_at")
    return {"customer_id": customer_id, "orders": [dict(zip(keys, r)) for r in rows]}


@tool(Category.READ, returns={"order_id": OrderId, "customer_id": CustomerId,
                              "restaurant_id": RestaurantId, "address_id": AddressId,
                              "payment_method_id": PaymentMethodId, "items.item_id": ItemId,
                              "refunds.refund_id": "refund_id"})
def get_order(db, order_id: OrderId) -> dict:
    """Get an order's details: restaurant, lines, amounts, status, times (and hours since
    delivery), refunds and rating.

    Args:
        order_id: The order's id, such as 'ord_k3j9x0p2'.
    """
    order = _order_row(db, order_id)
    order["restaurant_name"] = _restaurant(db, order["restaurant_id"])["name"]
    keys = ("line", "item_id", "name", "unit_price", "quantity")
    order["items"] = [dict(zip(keys, r)) for r in db.execute(
        "SELECT line, item_id, name, unit_price, quantity FROM order_items WHERE order_id = ? "
        "ORDER BY line", (order_id,))]
    order["hours_since_delivery"] = (round(hours_since(order["delivered_at"]), 1)
                                     if order["delivered_at"] else None)
    order["refunds"] = [
        {"refund_id": r[0], "amount": r[1], "reason": r[2], "item_ids": json.loads(r[3]),
         "created_at": r[4]} for r in db.execute(
            "SELECT refund_id, amount, reason, item_ids, created_at FROM refunds "
            "WHERE order_id = ? ORDER BY rowid", (order_id,))]
    rating = db.execute("SELECT stars, comment FROM ratings WHERE order_id = ?",
                        (order_id,)).fetchone()
    order["rating"] = None if rating is None else {"stars": rating[0], "comment": rating[1]}
    return order


@tool(Category.READ, returns={"restaurants.restaurant_id": RestaurantId})
def search_restaurants(db, query: str = "", cuisine: str = "", city: str = "") -> dict:
    """Search restaurants by part of their name, by cuisine and/or by city
    (case-insensitive; empty filters match everything). At most 25 results.

    Args:
        query: Part of the restaurant's name.
        cuisine: A cuisine, such as 'Thai'.
        city: The city, such as 'Springfield'.
    """
    rows = db.execute(
        f"SELECT {', '.join(_RESTAURANT_KEYS)} FROM restaurants "
        "WHERE instr(lower(name), lower(?)) > 0 AND (? = '' OR lower(cuisine) = lower(?)) "
        "AND (? = '' OR lower(city) = lower(?)) ORDER BY name LIMIT 25",
        (query.strip(), cuisine.strip(), cuisine.strip(), city.strip(), city.strip())).fetchall()
    result = [dict(zip(_RESTAURANT_KEYS, r)) for r in rows]
    for r in result:
        r["is_open"] = bool(r["is_open"])
    return {"restaurants": result}


@tool(Category.READ, returns={"restaurant_id": RestaurantId, "items.item_id": ItemId})
def get_menu(db, restaurant_id: RestaurantId) -> dict:
    """Get a restaurant's details and its menu: items with category, price and whether they
    are available right now.

    Args:
        restaurant_id: The restaurant's id.
    """
    restaurant = _restaurant(db, restaurant_id)
    keys = ("item_id", "name", "category", "price", "available")
    restaurant["items"] = [dict(zip(keys, r)) for r in db.execute(
        "SELECT item_id, name, category, price, available FROM menu_items "
        "WHERE restaurant_id = ? ORDER BY rowid", (restaurant_id,))]
    for item in restaurant["items"]:
        item["available"] = bool(item["available"])
    return restaurant


@tool(Category.READ, returns={"customer_id": CustomerId, "restaurant_id": RestaurantId,
                              "items.item_id": ItemId})
def get_cart(db, customer_id: CustomerId) -> dict:
    """Get a customer's cart: its restaurant, items, quantities and subtotal.

    Args:
        customer_id: The customer's id.
    """
    _customer(db, customer_id)
    rows = _cart(db, customer_id)
    items = [{"item_id": r[0], "name": r[1], "unit_price": r[2], "available": bool(r[3]),
              "quantity": r[5]} for r in rows]
    subtotal = sum(cents_of(r[2]) * r[5] for r in rows) / 100
    restaurant = _restaurant(db, rows[0][4]) if rows else None
    return {"customer_id": customer_id,
            "restaurant_id": restaurant["restaurant_id"] if restaurant else None,
            "restaurant_name": restaurant["name"] if restaurant else None,
            "items": items, "subtotal": subtotal}


@tool(Category.READ, returns={"customer_id": CustomerId})
def check_promo_code(db, customer_id: CustomerId, code: str) -> dict:
    """Check whether a promo code can be used on the customer's current cart, and what the
    order would cost with it (subtotal, delivery fee, discount, total).

    Args:
        customer_id: The customer's id.
        code: The promo code, such as 'WELCOME10'.
    """
    _customer(db, customer_id)
    rows = _cart(db, customer_id)
    if not rows:
        raise ToolError("The cart is empty.")
    restaurant = _restaurant(db, rows[0][4])
    lines = [(r[2], r[5]) for r in rows]
    subtotal = sum(cents_of(p) * q for p, q in lines) / 100
    pct, cap = _promo(db, code, subtotal)
    subtotal, fee, discount, total = order_amounts(lines, restaurant["delivery_fee"], pct, cap)
    return {"code": code.strip().upper(), "valid": True, "percent_off": pct,
            "max_discount": cap, "subtotal": subtotal, "delivery_fee": fee,
            "discount": discount, "total": total}


transfer_to_human_agents = human_transfer_tool(
    "Transfer the customer to a human agent, with a summary of their issue. Only transfer "
    "if the customer explicitly asks for a human agent, or if the request cannot be "
    "handled with the policy and the available tools.",
    "A summary of the customer's issue.")


# -------------------------------------------------------------------------- WRITE


@tool(Category.WRITE, returns={"customer_id": CustomerId, "items.item_id": ItemId},
      writes=("customer_id",), needs=("item_id",))
def add_item_to_cart(db, customer_id: CustomerId, item_id: ItemId, quantity: int = 1) -> dict:
    """Add an available menu item of an open restaurant to the customer's cart (adding to
    its quantity if it is already there). A cart holds items of one restaurant only.
    Confirm with the customer (explicit yes) before calling.

    Args:
        customer_id: The customer's id.
        item_id: The menu item's id.
        quantity: How many to add, 1 to 20.
    """
    _customer(db, customer_id)
    if not 1 <= quantity <= 20:
        raise ToolError("The quantity must be between 1 and 20.")
    row = fetch_row(db, "SELECT m.name, m.available, m.restaurant_id, r.name, r.is_open "
                    "FROM menu_items m JOIN restaurants r ON r.restaurant_id = m.restaurant_id "
                    "WHERE m.item_id = ?", (item_id,), f"Menu item {item_id!r} not found.")
    name, available, restaurant_id, restaurant, is_open = row
    if not available:
        raise ToolError(f"{name} is sold out at {restaurant} right now.")
    if not is_open:
        raise ToolError(f"{restaurant} is closed right now.")
    cart = _cart(db, customer_id)
    if cart and cart[0][4] != restaurant_id:
        other = _restaurant(db, cart[0][4])["name"]
        raise ToolError(f"The cart already holds items from {other}; a cart can only hold "
                        "items of one restaurant. Remove them first.")
    current = next((r[5] for r in cart if r[0] == item_id), 0)
    if current + quantity > 20:
        raise ToolError("At most 20 of one item fit in a cart.")
    if current:
        db.execute("UPDATE cart_items SET quantity = ? WHERE customer_id = ? AND item_id = ?",
                   (current + quantity, customer_id, item_id))
    else:
        db.execute("INSERT INTO cart_items (customer_id, item_id, quantity) VALUES (?, ?, ?)",
                   (customer_id, item_id, quantity))
    return get_cart.fn(db, customer_id)


@tool(Category.WRITE, returns={"customer_id": CustomerId, "items.item_id": ItemId},
      writes=("customer_id",))
def remove_item_from_cart(db, customer_id: CustomerId, item_id: ItemId) -> dict:
    """Remove an item (all of its quantity) from the customer's cart. Confirm with the
    customer (explicit yes) before calling.

    Args:
        customer_id: The customer's id.
        item_id: The menu item's id.
    """
    _customer(db, customer_id)
    removed = db.execute("DELETE FROM cart_items WHERE customer_id = ? AND item_id = ?",
                         (customer_id, item_id))
    if removed.rowcount == 0:
        raise ToolError(f"Item {item_id!r} is not in the cart.")
    return get_cart.fn(db, customer_id)


@tool(Category.WRITE, returns={"order_id": OrderId, "customer_id": CustomerId,
                               "restaurant_id": RestaurantId, "address_id": AddressId,
                               "payment_method_id": PaymentMethodId, "items.item_id": ItemId},
      writes=("order_id", "customer_id", "payment_method_id"),
      needs=("customer_id", "address_id", "payment_method_id"))
def place_order(db, customer_id: CustomerId, address_id: AddressId,
                payment_method_id: PaymentMethodId, promo_code: str = "") -> dict:
    """Place an order with everything in the customer's cart, delivered to one of their
    addresses (in the restaurant's city) and paid with one of their payment methods; the
    cart is emptied. Tell the customer the total and confirm (explicit yes) before calling.

    Args:
        customer_id: The customer's id.
        address_id: The delivery address (one of the customer's).
        payment_method_id: The payment method (one of the customer's); a gift card must
            cover the total.
        promo_code: An optional promo code.
    """
    _customer(db, customer_id)
    cart = _cart(db, customer_id)
    if not cart:
        raise ToolError("The cart is empty.")
    restaurant = _restaurant(db, cart[0][4])
    if not restaurant["is_open"]:
        raise ToolError(f"{restaurant['name']} is closed right now.")
    sold_out = [r[1] for r in cart if not r[3]]
    if sold_out:
        raise ToolError(f"Sold out right now: {', '.join(sold_out)}. Remove them from the cart.")
    address = db.execute("SELECT customer_id, city FROM addresses WHERE address_id = ?",
                         (address_id,)).fetchone()
    if address is None or address[0] != customer_id:
        raise ToolError("The address is not one of the customer's addresses.")
    if address[1] != restaurant["city"]:
        raise ToolError(f"{restaurant['name']} delivers only in {restaurant['city']}; the "
                        f"address is in {address[1]}.")
    method = db.execute("SELECT customer_id, kind, balance FROM payment_methods "
                        "WHERE payment_method_id = ?", (payment_method_id,)).fetchone()
    if method is None or method[0] != customer_id:
        raise ToolError("The payment method is not one of the customer's.")
    lines = [(r[2], r[5]) for r in cart]
    subtotal = sum(cents_of(p) * q for p, q in lines) / 100
    if cents_of(subtotal) < cents_of(restaurant["min_order"]):
        raise ToolError(f"{restaurant['name']} has a minimum order of "
                        f"{restaurant['min_order']:.2f}; the subtotal is {subtotal:.2f}.")
    code = promo_code.strip().upper()
    pct, cap = _promo(db, code, subtotal) if code else (0, 0.0)
    subtotal, fee, discount, total = order_amounts(lines, restaurant["delivery_fee"], pct, cap)
    if method[1] == "gift_card" and cents_of(method[2]) < cents_of(total):
        raise ToolError(f"The gift card balance ({method[2]:.2f}) does not cover the total "
                        f"({total:.2f}).")
    order_id = counted_id(db, "orders", "order_id", "ord_")
    db.execute("INSERT INTO orders (order_id, customer_id, restaurant_id, address_id, "
               "payment_method_id, status, subtotal, delivery_fee, discount, total, promo_code, "
               "placed_at, delivered_at, cancel_reason) "
               "VALUES (?, ?, ?, ?, ?, 'placed', ?, ?, ?, ?, ?, ?, NULL, NULL)",
               (order_id, customer_id, restaurant["restaurant_id"], address_id,
                payment_method_id, subtotal, fee, discount, total, code or None, NOW))
    db.executemany("INSERT INTO order_items (order_id, line, item_id, name, unit_price, "
                   "quantity) VALUES (?, ?, ?, ?, ?, ?)",
                   [(order_id, n, r[0], r[1], r[2], r[5]) for n, r in enumerate(cart, 1)])
    if method[1] == "gift_card":
        db.execute("UPDATE payment_methods SET balance = ? WHERE payment_method_id = ?",
                   ((cents_of(method[2]) - cents_of(total)) / 100, payment_method_id))
    db.execute("DELETE FROM cart_items WHERE customer_id = ?", (customer_id,))
    return get_order.fn(db, order_id)


@tool(Category.WRITE, returns={"order_id": OrderId, "refund_id": "refund_id"},
      writes=("order_id", "payment_method_id"))
def cancel_order(db, order_id: OrderId, reason: str) -> dict:
    """Cancel an order that the restaurant has not accepted yet (status 'placed'); the total
    is refunded to the order's payment method. Confirm with the customer (explicit yes)
    before calling.

    Args:
        order_id: The order's id.
        reason: The customer's reason, in a few words.
    """
    order = _order_row(db, order_id)
    if order["status"] != "placed":
        raise ToolError(f"The order is {order['status']}; only an order that the restaurant "
                        "has not accepted yet (status 'placed') can be cancelled.")
    if not reason.strip():
        raise ToolError("Give the reason for the cancellation.")
    db.execute("UPDATE orders SET status = 'cancelled', cancel_reason = ? WHERE order_id = ?",
               (reason.strip(), order_id))
    refund = _refund(db, order, order["total"], "cancellation", [])
    return {"order_id": order_id, "status": "cancelled", "refund_id": refund["refund_id"],
            "refund_amount": refund["amount"]}


@tool(Category.WRITE, returns={"order_id": OrderId, "refund_id": "refund_id"},
      writes=("order_id", "payment_method_id"), needs=("item_id",))
def request_missing_items_refund(db, order_id: OrderId, item_ids: list[ItemId]) -> dict:
    """Refund the lines of a delivered order that did not arrive, to the order's payment
    method (each line in full, at most once). Check the policy's time window first. Confirm
    with the customer (explicit yes) before calling.

    Args:
        order_id: The order's id.
        item_ids: The menu item ids of the missing lines of the order.
    """
    order = _order_row(db, order_id)
    if order["status"] != "delivered":
        raise ToolError(f"The order is {order['status']}; only a delivered order can get a "
                        "missing-items refund.")
    if not item_ids:
        raise ToolError("List at least one missing item.")
    if len(set(item_ids)) != len(item_ids):
        raise ToolError("An item is listed twice.")
    lines = {r[0]: (r[1], r[2]) for r in db.execute(
        "SELECT item_id, unit_price, quantity FROM order_items WHERE order_id = ?", (order_id,))}
    unknown = [i for i in item_ids if i not in lines]
    if unknown:
        raise ToolError(f"Not in this order: {', '.join(map(str, unknown))}.")
    refunded = set()
    for (text,) in db.execute("SELECT item_ids FROM refunds WHERE order_id = ? "
                              "AND reason = 'missing_items'", (order_id,)):
        refunded.update(json.loads(text))
    again = [i for i in item_ids if i in refunded]
    if again:
        raise ToolError(f"Already refunded: {', '.join(again)}.")
    amount = sum(cents_of(lines[i][0]) * lines[i][1] for i in item_ids) / 100
    return _refund(db, order, amount, "missing_items", list(item_ids))


@tool(Category.WRITE, returns={"order_id": OrderId, "rating_id": "rating_id"},
      writes=("order_id", "restaurant_id"))
def rate_order(db, order_id: OrderId, stars: int, comment: str = "") -> dict:
    """Rate a delivered order from 1 to 5 stars (once per order); the restaurant's average
    rating is updated. Confirm with the customer (explicit yes) before calling.

    Args:
        order_id: The order's id.
        stars: 1 to 5.
        comment: An optional comment.
    """
    order = _order_row(db, order_id)
    if order["status"] != "delivered":
        raise ToolError("Only a delivered order can be rated.")
    if not 1 <= stars <= 5:
        raise ToolError("The rating must be between 1 and 5 stars.")
    if db.execute("SELECT 1 FROM ratings WHERE order_id = ?", (order_id,)).fetchone():
        raise ToolError("This order is already rated.")
    rating_id = counted_id(db, "ratings", "rating_id", "rat_")
    db.execute("INSERT INTO ratings (rating_id, order_id, customer_id, restaurant_id, stars, "
               "comment, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
               (rating_id, order_id, order["customer_id"], order["restaurant_id"], stars,
                comment.strip(), NOW))
    db.execute("UPDATE restaurants SET rating = round((rating * rating_count + ?) / "
               "(rating_count + 1), 2), rating_count = rating_count + 1 WHERE restaurant_id = ?",
               (stars, order["restaurant_id"]))
    return {"rating_id": rating_id, "order_id": order_id, "stars": stars,
            "comment": comment.strip()}


@tool(Category.WRITE, returns={"address_id": AddressId}, writes=("address_id",))
def update_delivery_instructions(db, address_id: AddressId, instructions: str) -> dict:
    """Set the delivery instructions of one of the customer's saved addresses (up to 200
    characters; empty to clear). Confirm with the customer (explicit yes) before calling.

    Args:
        address_id: The address's id.
        instructions: The new instructions for the courier.
    """
    row = fetch_row(db, "SELECT address_id, customer_id, label, street, city, zip FROM addresses "
                    "WHERE address_id = ?", (address_id,), f"Address {address_id!r} not found.")
    if len(instructions) > 200:
        raise ToolError("Delivery instructions are limited to 200 characters.")
    db.execute("UPDATE addresses SET instructions = ? WHERE address_id = ?",
               (instructions.strip(), address_id))
    return dict(zip(("address_id", "customer_id", "label", "street", "city", "zip"), row),
                instructions=instructions.strip())
