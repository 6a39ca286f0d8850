"""The tools of the shopping domain: 14 reads, 13 writes and a transfer to a human agent.

Every tool takes the sandbox's SQLite connection first and uses parameterized SQL only.
A write checks all its preconditions before its first statement and raises
:class:`ToolError` with a clear message when one fails (the toolbox also wraps each write
in a savepoint). Money is computed in integer cents and stored in dollars.

Rules the tools enforce: only active products in stock go into a cart (at most 10 of one
product, 20 lines); a coupon must exist, be unexpired, be the customer's own or public, be
unused by the customer and be reached by the cart's subtotal; checkout ships to one of the
customer's addresses and charges one of their payment methods (a gift card must cover the
total), takes the stock and empties the cart; an order is cancelled only while ``placed``
(the stock and any gift card charge come back); a return is for a delivered order's own
line, once per line; a review needs a delivered purchase of the product and is written once;
at most 8 addresses and one default. The 30-day return window is a policy rule the agent must
apply (the tool does not check it, as in tau2, where tools trust the agent).
"""

from __future__ import annotations

import re
import sqlite3
from datetime import date, timedelta
from typing import Annotated, Literal

from ...core.common_tools import human_transfer_tool
from ...core.ids import counted_id
from ...core.rows import fetch_dicts, fetch_row, find_id
from ...core.tools import Category, Entity, Quotas, ToolError, tool

#: Growth bounds of one sandbox (see :class:`~tool_gym.core.tools.Quotas`): templates hold
#: about 1,000 orders and 2,000 order lines.
QUOTAS = Quotas(rows={"orders": 10_000, "order_items": 30_000, "cart_items": 5_000,
                      "wishlist_items": 10_000, "reviews": 10_000, "returns": 5_000,
                      "addresses": 5_000})

#: The store's clock (fixed, so that every episode is reproducible).
TODAY = "2024-06-14"
NOW = "2024-06-14T12:00:00"
#: Delivered items may be returned only this many days after delivery (policy).
RETURN_WINDOW_DAYS = 30
#: Standard shipping, free for Plus members and from this much after discounts.
SHIPPING_FEE = 5.99
FREE_SHIPPING_FROM = 50.0
MAX_QUANTITY = 10
MAX_CART_LINES = 20
MAX_WISHLIST = 50
MAX_ADDRESSES = 8
MAX_TITLE = 120
MAX_BODY = 2000
MAX_REASON = 200

CustomerId = Annotated[str, Entity("customer_id")]
AddressId = Annotated[str, Entity("address_id")]
PaymentMethodId = Annotated[str, Entity("payment_method_id")]
ProductId = Annotated[str, Entity("product_id")]
OrderId = Annotated[str, Entity("order_id")]
ReturnId = Annotated[str, Entity("return_id")]
ReviewId = Annotated[str, Entity("review_id")]
CouponCode = Annotated[str, Entity("coupon_code")]

ProductCategory = Literal["", "electronics", "home", "kitchen", "books", "toys", "sports",
                          "beauty", "clothing", "garden", "office"]
ReturnReason = Literal["damaged", "defective", "wrong_item", "not_as_described",
                       "no_longer_needed"]
RefundTo = Literal["original_payment", "store_credit"]
OrderStatus = Literal["", "placed", "shipped", "delivered", "cancelled"]


# ------------------------------------------------------------------------- money

def cents_of(amount: float) -> int:
    return int(round(float(amount) * 100))


def dollars_of(cents: int) -> float:
    return round(cents / 100 + 0.0, 2)


def order_amounts(lines: list[tuple[float, int]], coupon: tuple[str, float] | None,
                  tier: str) -> tuple[float, float, float, float]:
    """``(subtotal, discount, shipping, total)`` of ``(unit price, quantity)`` lines with an
    optional coupon ``(kind, value)``: a percent coupon takes that share of the subtotal
    (half-cents up), a fixed one its value (at most the subtotal); shipping is free for Plus
    members and from :data:`FREE_SHIPPING_FROM` after the discount."""
    subtotal = sum(cents_of(price) * quantity for price, quantity in lines)
    discount = 0
    if coupon is not None:
        kind, value = coupon
        discount = (subtotal * int(value) + 50) // 100 if kind == "percent" \
            else min(cents_of(value), subtotal)
    after = subtotal - discount
    shipping = 0 if tier == "plus" or after >= cents_of(FREE_SHIPPING_FROM) \
        else cents_of(SHIPPING_FEE)
    return (dollars_of(subtotal), dollars_of(discount), dollars_of(shipping),
            dollars_of(after + shipping))


def refund_amount(unit_price: float, quantity: int, subtotal: float, discount: float) -> float:
    """What a return of ``quantity`` units pays back: their price less their share of the
    order's coupon discount (half-cents up)."""
    paid = cents_of(unit_price) * quantity
    share = (cents_of(discount) * paid + cents_of(subtotal) // 2) // max(cents_of(subtotal), 1)
    return dollars_of(paid - share)


def return_deadline(delivered_at: str) -> str:
    """The last day a delivered order's items may be returned (policy)."""
    return (date.fromisoformat(delivered_at[:10]) + timedelta(days=RETURN_WINDOW_DAYS)).isoformat()


def days_since(stamp: str) -> int:
    """Whole days from ``stamp`` (ISO date or time) to ``TODAY``."""
    return (date.fromisoformat(TODAY) - date.fromisoformat(stamp[:10])).days


# ------------------------------------------------------------------------- records

def _customer(db: sqlite3.Connection, customer_id: str) -> tuple:
    return fetch_row(db, "SELECT customer_id, first_name, last_name, email, username, phone, "
                     "member_since, tier, store_credit FROM customers WHERE customer_id = ?",
                     (customer_id,), f"Customer {customer_id!r} not found.")


_PRODUCT_KEYS = ("product_id", "name", "brand", "category", "price", "stock", "status")


def _product(db: sqlite3.Connection, product_id: str) -> dict:
    row = fetch_row(db, f"SELECT {', '.join(_PRODUCT_KEYS)} FROM products WHERE product_id = ?",
                    (product_id,), f"Product {product_id!r} not found.")
    return dict(zip(_PRODUCT_KEYS, row))


def _active_product(db: sqlite3.Connection, product_id: str) -> dict:
    product = _product(db, product_id)
    if product["status"] != "active":
        raise ToolError(f"{product['name']} is discontinued and can no longer be ordered.")
    return product


def _text(value: str, what: str, limit: int) -> str:
    value = value.strip()
    if not value:
        raise ToolError(f"The {what} must not be empty.")
    if len(value) > limit:
        raise ToolError(f"The {what} is too long (at most {limit} characters).")
    return value


def _quantity(quantity: int) -> int:
    if not 1 <= quantity <= MAX_QUANTITY:
        raise ToolError(f"The quantity must be between 1 and {MAX_QUANTITY}.")
    return int(quantity)


def _cart_lines(db: sqlite3.Connection, customer_id: str) -> list[tuple]:
    """``(product_id, name, price, stock, status, quantity)`` of the cart, in order added."""
    return db.execute("SELECT c.product_id, p.name, p.price, p.stock, p.status, c.quantity "
                      "FROM cart_items c JOIN products p ON p.product_id = c.product_id "
                      "WHERE c.customer_id = ? ORDER BY c.rowid", (customer_id,)).fetchall()


def _cart_coupon(db: sqlite3.Connection, customer_id: str) -> str | None:
    row = db.execute("SELECT coupon_code FROM carts WHERE customer_id = ?",
                     (customer_id,)).fetchone()
    return row[0] if row else None


def _touch_cart(db: sqlite3.Connection, customer_id: str) -> None:
    db.execute("INSERT INTO carts (customer_id, coupon_code, updated_at) VALUES (?, NULL, ?) "
               "ON CONFLICT (customer_id) DO UPDATE SET updated_at = excluded.updated_at",
               (customer_id, NOW))


def coupon_used(db: sqlite3.Connection, customer_id: str, code: str) -> bool:
    """Whether the customer has an order (not cancelled) that used ``code``."""
    return db.execute("SELECT 1 FROM orders WHERE customer_id = ? AND coupon_code = ? "
                      "AND status != 'cancelled'", (customer_id, code)).fetchone() is not None


def _valid_coupon(db: sqlite3.Connection, customer_id: str, code: str,
                  subtotal: float) -> tuple[str, str, float]:
    """``(code, kind, value)`` of a coupon the customer may use on ``subtotal`` now."""
    row = db.execute("SELECT code, customer_id, kind, value, min_subtotal, expires_on "
                     "FROM coupons WHERE code = ?", (code.strip().upper(),)).fetchone()
    if row is None or (row[1] is not None and row[1] != customer_id):
        raise ToolError(f"Coupon {code.strip().upper()!r} is not valid for this customer.")
    code, _, kind, value, minimum, expires = row
    if expires < TODAY:
        raise ToolError(f"Coupon {code} expired on {expires}.")
    if coupon_used(db, customer_id, code):
        raise ToolError(f"Coupon {code} has already been used by this customer.")
    if cents_of(subtotal) < cents_of(minimum):
        raise ToolError(f"Coupon {code} needs a subtotal of at least {minimum:.2f}; the cart's "
                        f"subtotal is {subtotal:.2f}.")
    return code, kind, value


def _order(db: sqlite3.Connection, order_id: str) -> dict:
    keys = ("order_id", "customer_id", "address_id", "payment_method_id", "status", "subtotal",
            "discount", "shipping", "total", "coupon_code", "placed_at", "shipped_at",
            "delivered_at", "cancel_reason")
    row = fetch_row(db, f"SELECT {', '.join(keys)} FROM orders WHERE order_id = ?",
                    (order_id,), f"Order {order_id!r} not found.")
    return dict(zip(keys, row))


def _owned(db: sqlite3.Connection, table: str, id_column: str, value: str,
           customer_id: str, what: str) -> None:
    row = db.execute(f"SELECT customer_id FROM {table} WHERE {id_column} = ?",
                     (value,)).fetchone()
    if row is None:
        raise ToolError(f"{what} {value!r} not found.")
    if row[0] != customer_id:
        raise ToolError(f"{what} {value!r} is not one of the customer's.")


# --------------------------------------------------------------------------- READ


@tool(Category.READ, returns={".": CustomerId})
def find_customer_by_email(db, email: str) -> str:
    """Find a customer's id by the email address of their store account. Use it to
    authenticate the customer before anything else.

    Args:
        email: The customer's email address, such as 'jane.doe12@example.com'.
    """
    return find_id(db, "customers", "customer_id", "email", email.strip().lower(),
                   "No customer found with this email address.")


@tool(Category.READ, returns={".": CustomerId})
def find_customer_by_username(db, username: str) -> str:
    """Find a customer's id by the username of their store account. Use it to authenticate
    the customer before anything else.

    Args:
        username: The customer's username, such as 'jdoe42'.
    """
    return find_id(db, "customers", "customer_id", "username", username.strip().lower(),
                   "No customer found with this username.")


@tool(Category.READ, returns={"customer_id": CustomerId, "default_address_id": AddressId})
def get_customer_profile(db, customer_id: CustomerId) -> dict:
    """Get a customer's profile: name, contact details, membership tier (Plus members ship
    free), store credit balance and default shipping address.

    Args:
        customer_id: The customer's id, such as 'cus_a1b2c3d4'.
    """
    row = _customer(db, customer_id)
    default = db.execute("SELECT address_id FROM addresses WHERE customer_id = ? "
                         "AND is_default = 1", (customer_id,)).fetchone()
    keys = ("customer_id", "first_name", "last_name", "email", "username", "phone",
            "member_since", "tier", "store_credit")
    return {**dict(zip(keys, row)), "default_address_id": default[0] if default else None}


@tool(Category.READ, returns={"customer_id": CustomerId, "addresses.address_id": AddressId})
def list_addresses(db, customer_id: CustomerId) -> dict:
    """List a customer's shipping addresses (label, street, city, state, ZIP code) and which
    one is the default.

    Args:
        customer_id: The customer's id.
    """
    _customer(db, customer_id)
    keys = ("address_id", "label", "street", "city", "state", "zip", "is_default")
    rows = fetch_dicts(db, keys, f"SELECT {', '.join(keys)} FROM addresses "
                       "WHERE customer_id = ? ORDER BY rowid", (customer_id,))
    for r in rows:
        r["is_default"] = bool(r["is_default"])
    return {"customer_id": customer_id, "addresses": rows}


@tool(Category.READ, returns={"customer_id": CustomerId,
                              "payment_methods.payment_method_id": PaymentMethodId})
def list_payment_methods(db, customer_id: CustomerId) -> dict:
    """List a customer's saved payment methods: cards (brand and last four digits), PayPal,
    and gift cards with their remaining balance.

    Args:
        customer_id: The customer's id.
    """
    _customer(db, customer_id)
    keys = ("payment_method_id", "kind", "brand", "last4", "balance")
    rows = fetch_dicts(db, keys, f"SELECT {', '.join(keys)} FROM payment_methods "
                       "WHERE customer_id = ? ORDER BY rowid", (customer_id,))
    for r in rows:
        if r["balance"] is None:
            del r["balance"]
    return {"customer_id": customer_id, "payment_methods": rows}


@tool(Category.READ, returns={"products.product_id": ProductId})
def search_products(db, query: str = "", category: ProductCategory = "",
                    max_price: float = 0) -> dict:
    """Search the catalog by words of a product's name or brand, by category and/or by
    price (case-insensitive; empty filters match everything). At most 20 products, by name.

    Args:
        query: Words the product's name or brand contains (empty for all).
        category: One of electronics, home, kitchen, books, toys, sports, beauty, clothing,
            garden, office (empty for all).
        max_price: The highest price to include in dollars (0 for no limit).
    """
    if max_price < 0:
        raise ToolError("max_price must not be negative.")
    words = query.lower().split()
    if len(words) > 10:
        raise ToolError("The query may hold at most 10 words.")
    sql = ("SELECT product_id, name, brand, category, price, stock, status FROM products "
           "WHERE (? = '' OR category = ?) AND (? = 0 OR price <= ?)")
    params: list = [category, category, max_price, max_price]
    for w in words:
        sql += " AND (instr(lower(name), ?) > 0 OR instr(lower(brand), ?) > 0)"
        params += [w, w]
    rows = fetch_dicts(db, _PRODUCT_KEYS, sql + " ORDER BY name", params)
    for r in rows:
        r["in_stock"] = r.pop("stock") > 0
    return {"matches": len(rows), "products": rows[:20]}


@tool(Category.READ, returns={"product_id": ProductId})
def get_product(db, product_id: ProductId) -> dict:
    """Get a product's details: brand, category, price, units in stock, status (active or
    discontinued), average rating and number of reviews.

    Args:
        product_id: The product's id, such as 'prd_k3j9x0p2'.
    """
    product = _product(db, product_id)
    count, average = db.execute("SELECT count(*), avg(rating) FROM reviews WHERE product_id = ?",
                                (product_id,)).fetchone()
    return {**product, "review_count": count,
            "average_rating": round(average, 1) if average is not None else None}


@tool(Category.READ, returns={"product_id": ProductId, "reviews.review_id": ReviewId})
def list_product_reviews(db, product_id: ProductId) -> dict:
    """List a product's reviews, newest first (at most 20): rating from 1 to 5, title, text,
    the reviewer's first name and date.

    Args:
        product_id: The product's id.
    """
    _product(db, product_id)
    keys = ("review_id", "rating", "title", "body", "reviewer", "created_on")
    rows = fetch_dicts(db, keys,
                       "SELECT r.review_id, r.rating, r.title, r.body, c.first_name, "
                       "r.created_on FROM reviews r JOIN customers c "
                       "ON c.customer_id = r.customer_id WHERE r.product_id = ? "
                       "ORDER BY r.created_on DESC, r.rowid DESC LIMIT 20", (product_id,))
    return {"product_id": product_id, "reviews": rows}


@tool(Category.READ, returns={"customer_id": CustomerId, "items.product_id": ProductId,
                              "coupon_code": CouponCode})
def get_cart(db, customer_id: CustomerId) -> dict:
    """Show a customer's cart: each product with its unit price, quantity and line total,
    the coupon applied (if any), and the subtotal, discount, shipping and total that
    checkout would charge.

    Args:
        customer_id: The customer's id.
    """
    row = _customer(db, customer_id)
    lines = _cart_lines(db, customer_id)
    code = _cart_coupon(db, customer_id)
    coupon = None
    if code is not None:
        coupon = db.execute("SELECT kind, value FROM coupons WHERE code = ?", (code,)).fetchone()
    subtotal, discount, shipping, total = order_amounts(
        [(r[2], r[5]) for r in lines], coupon, row[7]) if lines else (0.0, 0.0, 0.0, 0.0)
    items = [{"product_id": r[0], "name": r[1], "unit_price": r[2], "quantity": r[5],
              "line_total": dollars_of(cents_of(r[2]) * r[5]),
              "available": r[4] == "active" and r[3] >= r[5]} for r in lines]
    return {"customer_id": customer_id, "items": items, "coupon_code": code,
            "subtotal": subtotal, "discount": discount, "shipping": shipping, "total": total}


@tool(Category.READ, returns={"customer_id": CustomerId, "orders.order_id": OrderId})
def list_orders(db, customer_id: CustomerId, status: OrderStatus = "") -> dict:
    """List a customer's orders, newest first: status, date placed, total and the names of
    the products in each.

    Args:
        customer_id: The customer's id.
        status: Only orders with this status: 'placed', 'shipped', 'delivered' or
            'cancelled' (empty for all).
    """
    _customer(db, customer_id)
    rows = db.execute("SELECT order_id, status, placed_at, total FROM orders "
                      "WHERE customer_id = ? AND (? = '' OR status = ?) "
                      "ORDER BY placed_at DESC, rowid DESC", (customer_id, status, status))
    orders = []
    for order_id, state, placed_at, total in rows.fetchall():
        names = [n for (n,) in db.execute("SELECT name FROM order_items WHERE order_id = ? "
                                          "ORDER BY line", (order_id,))]
        orders.append({"order_id": order_id, "status": state, "placed_on": placed_at[:10],
                       "total": total, "products": names})
    return {"customer_id": customer_id, "orders": orders}


@tool(Category.READ, returns={"order_id": OrderId, "customer_id": CustomerId,
                              "address_id": AddressId, "payment_method_id": PaymentMethodId,
                              "coupon_code": CouponCode, "items.product_id": ProductId,
                              "items.return_id": ReturnId})
def get_order(db, order_id: OrderId) -> dict:
    """Get an order's details: status and dates, shipping address, payment method, coupon,
    amounts, and each product with its price, quantity and any return; for a delivered
    order also the last day of its return window.

    Args:
        order_id: The order's id, such as 'ord_x8k2m4p1'.
    """
    order = _order(db, order_id)
    keys = ("line", "product_id", "name", "unit_price", "quantity", "return_id",
            "return_status")
    order["items"] = fetch_dicts(
        db, keys, "SELECT i.line, i.product_id, i.name, i.unit_price, i.quantity, "
        "r.return_id, r.status FROM order_items i LEFT JOIN returns r ON r.order_id = "
        "i.order_id AND r.line = i.line WHERE i.order_id = ? ORDER BY i.line", (order_id,))
    if order["delivered_at"] is not None:
        order["return_window_ends"] = return_deadline(order["delivered_at"])
    return order


@tool(Category.READ, returns={"customer_id": CustomerId, "items.product_id": ProductId})
def get_wishlist(db, customer_id: CustomerId) -> dict:
    """Show a customer's wishlist: each product with its price, status and whether it is in
    stock, and when it was added.

    Args:
        customer_id: The customer's id.
    """
    _customer(db, customer_id)
    keys = ("product_id", "name", "price", "status", "in_stock", "added_on")
    rows = fetch_dicts(db, keys,
                       "SELECT w.product_id, p.name, p.price, p.status, p.stock > 0, w.added_on "
                       "FROM wishlist_items w JOIN products p ON p.product_id = w.product_id "
                       "WHERE w.customer_id = ? ORDER BY w.rowid", (customer_id,))
    for r in rows:
        r["in_stock"] = bool(r["in_stock"])
    return {"customer_id": customer_id, "items": rows}


@tool(Category.READ, returns={"customer_id": CustomerId, "coupons.code": CouponCode})
def list_coupons(db, customer_id: CustomerId) -> dict:
    """List the coupons a customer can see: the store's public coupons and their personal
    ones, each with its discount (percent or fixed amount), minimum subtotal, expiry date,
    and whether it has expired or the customer has already used it.

    Args:
        customer_id: The customer's id.
    """
    _customer(db, customer_id)
    keys = ("code", "description", "kind", "value", "min_subtotal", "expires_on", "personal")
    rows = fetch_dicts(db, keys,
                       "SELECT code, description, kind, value, min_subtotal, expires_on, "
                       "customer_id IS NOT NULL FROM coupons WHERE customer_id IS NULL "
                       "OR customer_id = ? ORDER BY customer_id IS NULL, code", (customer_id,))
    for r in rows:
        r["personal"] = bool(r["personal"])
        r["expired"] = r["expires_on"] < TODAY
        r["used"] = coupon_used(db, customer_id, r["code"])
    return {"customer_id": customer_id, "coupons": rows}


@tool(Category.READ, returns={"customer_id": CustomerId, "returns.return_id": ReturnId,
                              "returns.order_id": OrderId, "returns.product_id": ProductId})
def list_returns(db, customer_id: CustomerId) -> dict:
    """List a customer's returns: the order and product, quantity, reason, where the refund
    goes (original payment or store credit), refund amount, status and date requested.

    Args:
        customer_id: The customer's id.
    """
    _customer(db, customer_id)
    keys = ("return_id", "order_id", "product_id", "name", "quantity", "reason", "refund_to",
            "refund_amount", "status", "requested_on")
    rows = fetch_dicts(db, keys,
                       "SELECT r.return_id, r.order_id, i.product_id, i.name, r.quantity, "
                       "r.reason, r.refund_to, r.refund_amount, r.status, r.requested_on "
                       "FROM returns r JOIN order_items i ON i.order_id = r.order_id "
                       "AND i.line = r.line WHERE r.customer_id = ? ORDER BY r.rowid",
                       (customer_id,))
    return {"customer_id": customer_id, "returns": rows}


transfer_to_human_agents = human_transfer_tool(
    "Transfer the customer to a human agent, with a summary of their issue. Only transfer "
    "if the customer explicitly asks for a human agent, or if the request cannot be "
    "handled with the policy and the available tools.",
    "A summary of the customer's issue.")


# -------------------------------------------------------------------------- WRITE


@tool(Category.WRITE, returns={"customer_id": CustomerId, "items.product_id": ProductId},
      writes=("customer_id",), needs=("product_id",))
def add_to_cart(db, customer_id: CustomerId, product_id: ProductId, quantity: int = 1) -> dict:
    """Put units of an active product in a customer's cart (added to any already there).
    A cart holds at most 10 units of one product and 20 products, and never more than the
    stock. Confirm with the customer (explicit yes) before calling.

    Args:
        customer_id: The customer's id.
        product_id: The product to add.
        quantity: How many units to add, 1 to 10.
    """
    _customer(db, customer_id)
    quantity = _quantity(quantity)
    product = _active_product(db, product_id)
    lines = _cart_lines(db, customer_id)
    current = next((r[5] for r in lines if r[0] == product_id), 0)
    if current == 0 and len(lines) >= MAX_CART_LINES:
        raise ToolError(f"The cart already holds {MAX_CART_LINES} different products.")
    if current + quantity > MAX_QUANTITY:
        raise ToolError(f"At most {MAX_QUANTITY} units of one product fit in a cart; "
                        f"{current} are already there.")
    if current + quantity > product["stock"]:
        raise ToolError(f"Only {product['stock']} units of {product['name']} are in stock.")
    _touch_cart(db, customer_id)
    db.execute("INSERT INTO cart_items (customer_id, product_id, quantity, added_at) "
               "VALUES (?, ?, ?, ?) ON CONFLICT (customer_id, product_id) DO UPDATE SET "
               "quantity = quantity + excluded.quantity", (customer_id, product_id, quantity,
                                                            NOW))
    return get_cart.fn(db, customer_id)


def _drop_unreachable_coupon(db: sqlite3.Connection, customer_id: str) -> None:
    """Take the coupon off a cart whose subtotal no longer reaches its minimum."""
    code = _cart_coupon(db, customer_id)
    if code is None:
        return
    (minimum,) = db.execute("SELECT min_subtotal FROM coupons WHERE code = ?", (code,)).fetchone()
    subtotal = sum(cents_of(r[2]) * r[5] for r in _cart_lines(db, customer_id))
    if subtotal == 0 or subtotal < cents_of(minimum):
        db.execute("UPDATE carts SET coupon_code = NULL WHERE customer_id = ?", (customer_id,))


@tool(Category.WRITE, returns={"customer_id": CustomerId, "items.product_id": ProductId},
      writes=("customer_id",))
def remove_from_cart(db, customer_id: CustomerId, product_id: ProductId) -> dict:
    """Take a product (all its units) out of a customer's cart; a coupon whose minimum the
    cart no longer reaches comes off too. Confirm with the customer (explicit yes) before
    calling.

    Args:
        customer_id: The customer's id.
        product_id: The product to remove.
    """
    _customer(db, customer_id)
    if db.execute("DELETE FROM cart_items WHERE customer_id = ? AND product_id = ?",
                  (customer_id, product_id)).rowcount == 0:
        raise ToolError(f"Product {product_id!r} is not in the cart.")
    _touch_cart(db, customer_id)
    _drop_unreachable_coupon(db, customer_id)
    return get_cart.fn(db, customer_id)


@tool(Category.WRITE, returns={"customer_id": CustomerId, "coupon_code": CouponCode},
      writes=("customer_id",), needs=("coupon_code",))
def apply_coupon(db, customer_id: CustomerId, code: CouponCode) -> dict:
    """Apply a coupon to a customer's cart (replacing any other). The coupon must be
    unexpired, public or the customer's own, not used by the customer before, and the cart's
    subtotal must reach its minimum. Confirm with the customer (explicit yes) before calling.

    Args:
        customer_id: The customer's id.
        code: The coupon code, such as 'SPRING15'.
    """
    row = _customer(db, customer_id)
    lines = _cart_lines(db, customer_id)
    if not lines:
        raise ToolError("The cart is empty.")
    subtotal, _, _, _ = order_amounts([(r[2], r[5]) for r in lines], None, row[7])
    code, _, _ = _valid_coupon(db, customer_id, code, subtotal)
    if _cart_coupon(db, customer_id) == code:
        raise ToolError(f"Coupon {code} is already applied to the cart.")
    _touch_cart(db, customer_id)
    db.execute("UPDATE carts SET coupon_code = ? WHERE customer_id = ?", (code, customer_id))
    return get_cart.fn(db, customer_id)


@tool(Category.WRITE, returns={"customer_id": CustomerId}, writes=("customer_id",))
def remove_coupon(db, customer_id: CustomerId) -> dict:
    """Take the applied coupon off a customer's cart. Confirm with the customer (explicit
    yes) before calling.

    Args:
        customer_id: The customer's id.
    """
    _customer(db, customer_id)
    if _cart_coupon(db, customer_id) is None:
        raise ToolError("No coupon is applied to the cart.")
    _touch_cart(db, customer_id)
    db.execute("UPDATE carts SET coupon_code = NULL WHERE customer_id = ?", (customer_id,))
    return get_cart.fn(db, customer_id)


@tool(Category.WRITE, returns={"order_id": OrderId, "customer_id": CustomerId,
                               "address_id": AddressId, "payment_method_id": PaymentMethodId,
                               "items.product_id": ProductId},
      writes=("order_id", "customer_id", "payment_method_id", "product_id"),
      needs=("customer_id", "address_id", "payment_method_id"))
def checkout(db, customer_id: CustomerId, address_id: AddressId,
             payment_method_id: PaymentMethodId, coupon_code: str = "") -> dict:
    """Place an order with everything in the customer's cart, shipped to one of their
    addresses and charged to one of their payment methods (a gift card must cover the
    total); the stock is reserved and the cart emptied. The coupon is the one given here,
    else the one applied to the cart. Tell the customer the total and confirm (explicit
    yes) before calling.

    Args:
        customer_id: The customer's id.
        address_id: The shipping address (one of the customer's).
        payment_method_id: The payment method (one of the customer's).
        coupon_code: An optional coupon code (empty: the cart's coupon, if any).
    """
    row = _customer(db, customer_id)
    lines = _cart_lines(db, customer_id)
    if not lines:
        raise ToolError("The cart is empty.")
    for _, name, _, stock, status, quantity in lines:
        if status != "active":
            raise ToolError(f"{name} is discontinued; remove it from the cart first.")
        if quantity > stock:
            raise ToolError(f"Only {stock} units of {name} are in stock; the cart holds "
                            f"{quantity}.")
    _owned(db, "addresses", "address_id", address_id, customer_id, "Address")
    _owned(db, "payment_methods", "payment_method_id", payment_method_id, customer_id,
           "Payment method")
    prices = [(r[2], r[5]) for r in lines]
    code = coupon_code.strip() or _cart_coupon(db, customer_id)
    coupon = None
    if code:
        subtotal = order_amounts(prices, None, row[7])[0]
        code, kind, value = _valid_coupon(db, customer_id, code, subtotal)
        coupon = (kind, value)
    subtotal, discount, shipping, total = order_amounts(prices, coupon, row[7])
    kind, balance = db.execute("SELECT kind, balance FROM payment_methods "
                               "WHERE payment_method_id = ?", (payment_method_id,)).fetchone()
    if kind == "gift_card" and cents_of(balance) < cents_of(total):
        raise ToolError(f"The gift card's balance ({balance:.2f}) does not cover the total "
                        f"({total:.2f}).")
    order_id = counted_id(db, "orders", "order_id", "ord_")
    db.execute("INSERT INTO orders (order_id, customer_id, address_id, payment_method_id, "
               "status, subtotal, discount, shipping, total, coupon_code, placed_at, "
               "shipped_at, delivered_at, cancel_reason) VALUES (?, ?, ?, ?, 'placed', ?, ?, "
               "?, ?, ?, ?, NULL, NULL, NULL)",
               (order_id, customer_id, address_id, payment_method_id, subtotal, discount,
                shipping, total, code or None, NOW))
    db.executemany("INSERT INTO order_items (order_id, line, product_id, name, unit_price, "
                   "quantity) VALUES (?, ?, ?, ?, ?, ?)",
                   [(order_id, n, r[0], r[1], r[2], r[5]) for n, r in enumerate(lines, 1)])
    db.executemany("UPDATE products SET stock = stock - ? WHERE product_id = ?",
                   [(r[5], r[0]) for r in lines])
    if kind == "gift_card":
        db.execute("UPDATE payment_methods SET balance = ? WHERE payment_method_id = ?",
                   (dollars_of(cents_of(balance) - cents_of(total)), payment_method_id))
    db.execute("DELETE FROM cart_items WHERE customer_id = ?", (customer_id,))
    db.execute("UPDATE carts SET coupon_code = NULL, updated_at = ? WHERE customer_id = ?",
               (NOW, customer_id))
    return get_order.fn(db, order_id)


@tool(Category.WRITE, returns={"order_id": OrderId},
      writes=("order_id", "payment_method_id", "product_id"), needs=("order_id",))
def cancel_order(db, order_id: OrderId, reason: str) -> dict:
    """Cancel an order that has not shipped yet (status 'placed'): the stock goes back and a
    gift card is refunded (other payments are never charged before shipping). Confirm with
    the customer (explicit yes) before calling.

    Args:
        order_id: The order's id.
        reason: Why the customer cancels, in a few words.
    """
    order = _order(db, order_id)
    reason = _text(reason, "reason", MAX_REASON)
    if order["status"] != "placed":
        raise ToolError(f"The order is {order['status']}: only an order that has not shipped "
                        "yet can be cancelled.")
    db.execute("UPDATE orders SET status = 'cancelled', cancel_reason = ? WHERE order_id = ?",
               (reason, order_id))
    db.execute("UPDATE products SET stock = stock + (SELECT quantity FROM order_items i "
               "WHERE i.order_id = ? AND i.product_id = products.product_id) "
               "WHERE product_id IN (SELECT product_id FROM order_items WHERE order_id = ?)",
               (order_id, order_id))
    db.execute("UPDATE payment_methods SET balance = round(balance + ?, 2) "
               "WHERE payment_method_id = ? AND kind = 'gift_card'",
               (order["total"], order["payment_method_id"]))
    return get_order.fn(db, order_id)


@tool(Category.WRITE, returns={"return_id": ReturnId, "order_id": OrderId,
                               "product_id": ProductId},
      writes=("return_id", "order_id"), needs=("order_id",))
def request_return(db, order_id: OrderId, product_id: ProductId, quantity: int,
                   reason: ReturnReason, refund_to: RefundTo) -> dict:
    """Start the return of units of one product of a delivered order (one return per
    product of an order). The refund is the price paid for them (less their share of any
    coupon discount), to the original payment or as store credit, once the item arrives.
    Check the policy's return window first. Confirm with the customer (explicit yes) before
    calling.

    Args:
        order_id: The delivered order's id.
        product_id: The product to return (one of the order's).
        quantity: How many units to return, at most the number ordered.
        reason: 'damaged', 'defective', 'wrong_item', 'not_as_described' or
            'no_longer_needed'.
        refund_to: 'original_payment' or 'store_credit'.
    """
    order = _order(db, order_id)
    if order["status"] != "delivered":
        raise ToolError(f"The order is {order['status']}: only a delivered order's items can "
                        "be returned.")
    line = db.execute("SELECT line, unit_price, quantity, name FROM order_items "
                      "WHERE order_id = ? AND product_id = ?", (order_id, product_id)).fetchone()
    if line is None:
        raise ToolError(f"Product {product_id!r} is not part of order {order_id}.")
    if db.execute("SELECT 1 FROM returns WHERE order_id = ? AND line = ?",
                  (order_id, line[0])).fetchone():
        raise ToolError(f"A return of {line[3]} from this order already exists.")
    if not 1 <= quantity <= line[2]:
        raise ToolError(f"The quantity must be between 1 and {line[2]} (the number ordered).")
    amount = refund_amount(line[1], int(quantity), order["subtotal"], order["discount"])
    return_id = counted_id(db, "returns", "return_id", "ret_")
    db.execute("INSERT INTO returns (return_id, customer_id, order_id, line, quantity, reason, "
               "refund_to, refund_amount, status, requested_on) "
               "VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?)",
               (return_id, order["customer_id"], order_id, line[0], int(quantity), reason,
                refund_to, amount, TODAY))
    return {"return_id": return_id, "order_id": order_id, "product_id": product_id,
            "name": line[3], "quantity": int(quantity), "reason": reason,
            "refund_to": refund_to, "refund_amount": amount, "status": "pending",
            "requested_on": TODAY}


@tool(Category.WRITE, returns={"customer_id": CustomerId, "items.product_id": ProductId},
      writes=("customer_id",), needs=("product_id",))
def add_to_wishlist(db, customer_id: CustomerId, product_id: ProductId) -> dict:
    """Save an active product to a customer's wishlist (at most 50 products). Confirm with
    the customer (explicit yes) before calling.

    Args:
        customer_id: The customer's id.
        product_id: The product to save.
    """
    _customer(db, customer_id)
    product = _active_product(db, product_id)
    if db.execute("SELECT 1 FROM wishlist_items WHERE customer_id = ? AND product_id = ?",
                  (customer_id, product_id)).fetchone():
        raise ToolError(f"{product['name']} is already on the wishlist.")
    (count,) = db.execute("SELECT count(*) FROM wishlist_items WHERE customer_id = ?",
                          (customer_id,)).fetchone()
    if count >= MAX_WISHLIST:
        raise ToolError(f"The wishlist already holds {MAX_WISHLIST} products.")
    db.execute("INSERT INTO wishlist_items (customer_id, product_id, added_on) VALUES (?, ?, ?)",
               (customer_id, product_id, TODAY))
    return get_wishlist.fn(db, customer_id)


@tool(Category.WRITE, returns={"customer_id": CustomerId, "items.product_id": ProductId},
      writes=("customer_id",))
def remove_from_wishlist(db, customer_id: CustomerId, product_id: ProductId) -> dict:
    """Take a product off a customer's wishlist. Confirm with the customer (explicit yes)
    before calling.

    Args:
        customer_id: The customer's id.
        product_id: The product to take off.
    """
    _customer(db, customer_id)
    if db.execute("DELETE FROM wishlist_items WHERE customer_id = ? AND product_id = ?",
                  (customer_id, product_id)).rowcount == 0:
        raise ToolError(f"Product {product_id!r} is not on the wishlist.")
    return get_wishlist.fn(db, customer_id)


@tool(Category.WRITE, returns={"customer_id": CustomerId, "items.product_id": ProductId},
      writes=("customer_id",), needs=("product_id",))
def move_wishlist_item_to_cart(db, customer_id: CustomerId, product_id: ProductId) -> dict:
    """Move a product from a customer's wishlist into their cart (one unit, added to any
    already there); it must be active and in stock. Confirm with the customer (explicit yes)
    before calling.

    Args:
        customer_id: The customer's id.
        product_id: The wishlist product to move.
    """
    _customer(db, customer_id)
    if not db.execute("SELECT 1 FROM wishlist_items WHERE customer_id = ? AND product_id = ?",
                      (customer_id, product_id)).fetchone():
        raise ToolError(f"Product {product_id!r} is not on the wishlist.")
    add_to_cart.fn(db, customer_id, product_id, 1)
    db.execute("DELETE FROM wishlist_items WHERE customer_id = ? AND product_id = ?",
               (customer_id, product_id))
    return get_cart.fn(db, customer_id)


@tool(Category.WRITE, returns={"review_id": ReviewId, "customer_id": CustomerId,
                               "product_id": ProductId},
      writes=("review_id", "product_id"), needs=("product_id",))
def write_review(db, customer_id: CustomerId, product_id: ProductId, rating: int, title: str,
                 body: str = "") -> dict:
    """Publish a customer's review of a product they received (a delivered order holds it);
    one review per product and customer. Confirm the rating and title with the customer
    (explicit yes) before calling.

    Args:
        customer_id: The customer's id.
        product_id: The reviewed product.
        rating: Stars from 1 to 5.
        title: A short headline (at most 120 characters).
        body: The review's text (at most 2000 characters; may be empty).
    """
    _customer(db, customer_id)
    product = _product(db, product_id)
    if not 1 <= rating <= 5:
        raise ToolError("The rating must be between 1 and 5 stars.")
    title = _text(title, "title", MAX_TITLE)
    body = body.strip()
    if len(body) > MAX_BODY:
        raise ToolError(f"The review text is too long (at most {MAX_BODY} characters).")
    if not db.execute("SELECT 1 FROM orders o JOIN order_items i ON i.order_id = o.order_id "
                      "WHERE o.customer_id = ? AND i.product_id = ? AND o.status = 'delivered'",
                      (customer_id, product_id)).fetchone():
        raise ToolError(f"Only customers who received {product['name']} can review it.")
    if db.execute("SELECT 1 FROM reviews WHERE customer_id = ? AND product_id = ?",
                  (customer_id, product_id)).fetchone():
        raise ToolError(f"The customer has already reviewed {product['name']}.")
    review_id = counted_id(db, "reviews", "review_id", "rev_")
    db.execute("INSERT INTO reviews (review_id, customer_id, product_id, rating, title, body, "
               "created_on) VALUES (?, ?, ?, ?, ?, ?, ?)",
               (review_id, customer_id, product_id, int(rating), title, body, TODAY))
    return {"review_id": review_id, "customer_id": customer_id, "product_id": product_id,
            "product_name": product["name"], "rating": int(rating), "title": title,
            "body": body, "created_on": TODAY}


@tool(Category.WRITE, returns={"address_id": AddressId, "customer_id": CustomerId},
      writes=("address_id", "customer_id"))
def add_address(db, customer_id: CustomerId, label: str, street: str, city: str, state: str,
                zip: str, make_default: bool = False) -> dict:
    """Save a new shipping address for a customer (at most 8; labels are unique per
    customer), optionally as the default. Confirm the details with the customer (explicit
    yes) before calling.

    Args:
        customer_id: The customer's id.
        label: A short name for the address, such as 'Home' or 'Office'.
        street: The street and number.
        city: The city.
        state: The two-letter US state code, such as 'CA'.
        zip: The five-digit ZIP code.
        make_default: Whether it becomes the default shipping address.
    """
    _customer(db, customer_id)
    label = _text(label, "label", 40)
    street, city = _text(street, "street", 120), _text(city, "city", 60)
    state = state.strip().upper()
    if not re.fullmatch(r"[A-Z]{2}", state):
        raise ToolError("The state must be a two-letter code, such as 'CA'.")
    if not re.fullmatch(r"\d{5}", zip.strip()):
        raise ToolError("The ZIP code must be five digits.")
    if db.execute("SELECT 1 FROM addresses WHERE customer_id = ? AND lower(label) = lower(?)",
                  (customer_id, label)).fetchone():
        raise ToolError(f"The customer already has an address labelled {label!r}.")
    (count,) = db.execute("SELECT count(*) FROM addresses WHERE customer_id = ?",
                          (customer_id,)).fetchone()
    if count >= MAX_ADDRESSES:
        raise ToolError(f"A customer may save at most {MAX_ADDRESSES} addresses.")
    default = bool(make_default) or count == 0
    if default:
        db.execute("UPDATE addresses SET is_default = 0 WHERE customer_id = ?", (customer_id,))
    address_id = counted_id(db, "addresses", "address_id", "adr_")
    db.execute("INSERT INTO addresses (address_id, customer_id, label, street, city, state, "
               "zip, is_default) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
               (address_id, customer_id, label, street, city, state, zip.strip(), int(default)))
    return {"address_id": address_id, "customer_id": customer_id, "label": label,
            "street": street, "city": city, "state": state, "zip": zip.strip(),
            "is_default": default}


@tool(Category.WRITE, returns={"address_id": AddressId, "customer_id": CustomerId},
      writes=("address_id", "customer_id"), needs=("address_id",))
def set_default_address(db, customer_id: CustomerId, address_id: AddressId) -> dict:
    """Make one of a customer's addresses their default shipping address. Confirm with the
    customer (explicit yes) before calling.

    Args:
        customer_id: The customer's id.
        address_id: The address to make the default (one of the customer's).
    """
    _customer(db, customer_id)
    _owned(db, "addresses", "address_id", address_id, customer_id, "Address")
    if db.execute("SELECT is_default FROM addresses WHERE address_id = ?",
                  (address_id,)).fetchone()[0]:
        raise ToolError("This address is already the default.")
    db.execute("UPDATE addresses SET is_default = (address_id = ?) WHERE customer_id = ?",
               (address_id, customer_id))
    return list_addresses.fn(db, customer_id)
