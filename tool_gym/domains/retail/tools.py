"""The 16 tools of the retail domain (tau2-bench ``retail`` compatible).

Names, parameters (order and JSON types), preconditions, the order of the checks, and the
effects follow the retail specification (section 2), including tau2's quirks: every line
rewritten by ``modify_pending_order_items`` takes the price and options of the last new
variant, that tool's payment entry holds the unrounded ``abs(diff)``, a cancellation refunds
every history entry (refunds included), and the status tests differ by tool.

Every tool reads and writes the sandbox's SQLite connection with parameterized SQL on
indexed columns; money is computed in Python floats, in the specified order, never in SQL.
A failing tool raises :class:`ToolError` before its first write (the toolbox additionally
wraps WRITE calls in a savepoint).
"""

from __future__ import annotations

import json
import sqlite3
from collections import Counter
from functools import lru_cache
from typing import Annotated

from ...core import common_tools
from ...core.common_tools import human_transfer_tool
from ...core.rows import fetch_parts, fetch_row
from ...core.tools import Category, Entity, Quotas, ToolError, to_json, tool
from .io import (
    ORDER_COLUMNS,
    order_record,
    payment_method_record,
    product_record,
    user_record,
    variant_record,
)

#: Growth bounds of one sandbox (see :class:`~tool_gym.core.tools.Quotas`): tau2's retail
#: data holds about 3,000 rows in its largest table.
QUOTAS = Quotas(default_rows=50_000)

UserId = Annotated[str, Entity("user_id")]
OrderId = Annotated[str, Entity("order_id")]
ProductId = Annotated[str, Entity("product_id")]
ItemId = Annotated[str, Entity("item_id")]
PaymentMethodId = Annotated[str, Entity("payment_method_id")]

#: Entity types of the fields of an Order (tool output of every order tool).
ORDER_RETURNS = {
    "order_id": "order_id",
    "user_id": "user_id",
    "items.item_id": "item_id",
    "items.product_id": "product_id",
    "payment_history.payment_method_id": "payment_method_id",
}
#: Entity types of the fields of a User. ``payment_methods`` is an object keyed by id.
USER_RETURNS = {
    "user_id": "user_id",
    "orders": "order_id",
    "payment_methods": "payment_method_id",
}

CANCEL_REASONS = ("no longer needed", "ordered by mistake")
ORDER_STATUSES = (
    "pending",
    "processed",
    "delivered",
    "cancelled",
    "pending (item modified)",
    "exchange requested",
    "return requested",
)

_dumps = json.dumps


@lru_cache(maxsize=4096)
def _parse_json(text: str):
    return json.loads(text)


def _options(text: str) -> dict:
    """A private dict of a stored JSON options object (parsing is cached)."""
    return dict(_parse_json(text))


# --------------------------------------------------------------------------- lookups


_ORDER_SQL = f"SELECT {ORDER_COLUMNS} FROM orders WHERE order_id = ?"


def _order_row(db: sqlite3.Connection, order_id: str) -> tuple:
    return fetch_row(db, _ORDER_SQL, (order_id,), "Order not found")


_ORDER_PARTS_SQL = (
    "SELECT 0, pos, item_id, product_id, name, price, options FROM order_items "
    "WHERE order_id = ?1 "
    "UNION ALL SELECT 1, pos, tracking_ids, item_ids, NULL, NULL, NULL FROM fulfillments "
    "WHERE order_id = ?1 "
    "UNION ALL SELECT 2, pos, transaction_type, payment_method_id, NULL, amount, NULL "
    "FROM order_payments WHERE order_id = ?1"
)


def _order_parts(db: sqlite3.Connection, order_id: str) -> list[tuple]:
    """The rows of an order's items, fulfillments and payments, in that order (one query)."""
    return fetch_parts(db, _ORDER_PARTS_SQL, (order_id,))


def _order_from_parts(row: tuple, parts: list | tuple) -> dict:
    items, fulfillments, payments = [], [], []
    for kind, _, a, b, name, number, opts in parts:
        if kind == 0:
            items.append({"name": name, "product_id": b, "item_id": a, "price": number,
                          "options": _options(opts)})
        elif kind == 1:
            fulfillments.append({"tracking_id": list(_parse_json(a)),
                                 "item_ids": list(_parse_json(b))})
        else:
            payments.append({"transaction_type": a, "amount": number, "payment_method_id": b})
    return order_record(row, items, fulfillments, payments)


def _order(db: sqlite3.Connection, row: tuple) -> dict:
    """The full Order record of an ``ORDER_COLUMNS`` row."""
    return _order_from_parts(row, _order_parts(db, row[0]))


@lru_cache(maxsize=2048)
def _order_text(row: tuple, diff_repr: str, parts: tuple) -> str:
    """JSON text of an Order, cached by the rows it is made of (so it is never stale).

    ``diff_repr`` tells apart the values of the untyped ``exchange_price_difference``
    column that compare equal but serialize differently (``0``, ``0.0``, ``-0.0``).
    """
    return to_json(_order_from_parts(row, parts))


def _order_by_id(db: sqlite3.Connection, order_id: str) -> dict:
    return _order(db, _order_row(db, order_id))


def _order_owner(db: sqlite3.Connection, order_id: str, status: str, action: str) -> str:
    """The user id of an order whose status is ``status``; a ``ToolError`` saying only
    such an order can be ``action`` (e.g. 'cancelled') otherwise."""
    row = _order_row(db, order_id)
    if row[8] != status:
        raise ToolError(f"Order is not {status}; only a {status} order can be {action}")
    return row[1]


def _user(db: sqlite3.Connection, user_id: str) -> dict:
    row = fetch_row(db, "SELECT user_id, first_name, last_name, email, address1, address2, city, "
                    "country, state, zip FROM users WHERE user_id = ?", (user_id,),
                    "User not found")
    methods = {mid: payment_method_record(source, mid, brand, last_four, balance)
               for mid, source, brand, last_four, balance in db.execute(
                   "SELECT id, source, brand, last_four, balance FROM payment_methods "
                   "WHERE user_id = ? ORDER BY ord", (user_id,))}
    orders = [oid for (oid,) in db.execute(
        "SELECT order_id FROM user_orders WHERE user_id = ? ORDER BY pos", (user_id,))]
    return user_record(row, methods, orders)


def _payment_method(db: sqlite3.Connection, user_id: str, method_id: str) -> tuple:
    """``(source, balance)`` of one of the user's payment methods."""
    return fetch_row(db, "SELECT source, balance FROM payment_methods WHERE id = ? AND user_id = ?",
                     (method_id, user_id), "Payment method not found")


def _variant_of_product(db: sqlite3.Connection, product_id: str, item_id: str) -> tuple:
    """``(available, price, options_json)`` of variant ``item_id`` of product ``product_id``."""
    row = db.execute("SELECT available, price, options FROM variants "
                     "WHERE item_id = ? AND product_id = ?", (item_id, product_id)).fetchone()
    if row is None:
        if db.execute("SELECT 1 FROM products WHERE product_id = ?",
                      (product_id,)).fetchone() is None:
            raise ToolError("Product not found")
        raise ToolError("Variant not found")
    return row


def _order_lines(db: sqlite3.Connection, order_id: str) -> list[tuple]:
    """``(pos, item_id, product_id, price)`` of each line of an order, in order."""
    return db.execute("SELECT pos, item_id, product_id, price FROM order_items "
                      "WHERE order_id = ? ORDER BY pos", (order_id,)).fetchall()


def _order_payments(db: sqlite3.Connection, order_id: str) -> list[tuple]:
    """``(pos, transaction_type, amount, payment_method_id)`` of an order's history."""
    return db.execute("SELECT pos, transaction_type, amount, payment_method_id "
                      "FROM order_payments WHERE order_id = ? ORDER BY pos",
                      (order_id,)).fetchall()


def _check_multiset(item_ids: list[str], line_ids: list[str]) -> None:
    """Each id may occur in ``item_ids`` at most as often as among the order's lines."""
    wanted = Counter(item_ids)
    have = Counter(line_ids)
    for item_id in item_ids:
        if wanted[item_id] > have[item_id]:
            raise ToolError(f"Item {item_id} not found in the order "
                            f"(or listed more times than the order contains it)")


def _replaced_lines(db: sqlite3.Connection, order_id: str, item_ids: list[str],
                    new_item_ids: list[str]) -> tuple[list[tuple], list[str]]:
    """The order's lines and their item ids, once ``item_ids`` are among them and
    ``new_item_ids`` pairs with them one to one."""
    lines = _order_lines(db, order_id)
    line_ids = [line[1] for line in lines]
    _check_multiset(item_ids, line_ids)
    if len(item_ids) != len(new_item_ids):
        raise ToolError("item_ids and new_item_ids must have the same length")
    return lines, line_ids


def _price_difference(db: sqlite3.Connection, lines: list[tuple], line_ids: list[str],
                      item_ids: list[str], new_item_ids: list[str], *,
                      distinct: bool) -> tuple[float, tuple | None]:
    """The summed price difference of replacing ``item_ids`` by ``new_item_ids`` (each new
    item available; with ``distinct``, unlike the one it replaces), and ``(price,
    options_json)`` of the last new item (``None`` for none)."""
    diff = 0
    last = None
    for old, new in zip(item_ids, new_item_ids):
        if distinct and old == new:
            raise ToolError(f"The new item {new} must differ from the item it replaces")
        line = lines[line_ids.index(old)]
        available, price, options = _variant_of_product(db, line[2], new)
        if not available:
            raise ToolError(f"New item {new} is not available")
        diff = diff + (price - line[3])
        last = (price, options)
    return diff, last


def _set_balance(db: sqlite3.Connection, method_id: str, balance: float) -> None:
    db.execute("UPDATE payment_methods SET balance = ? WHERE id = ?", (balance, method_id))


def _append_payment(db: sqlite3.Connection, order_id: str, pos: int, kind: str,
                    amount: float, method_id: str) -> None:
    db.execute("INSERT INTO order_payments (order_id, pos, transaction_type, amount, "
               "payment_method_id) VALUES (?, ?, ?, ?, ?)",
               (order_id, pos, kind, amount, method_id))


def _next_payment_pos(payments: list[tuple]) -> int:
    return payments[-1][0] + 1 if payments else 0


# ============================================================================ tools
# ----------------------------------------------------------------------------- READ


@tool(Category.READ, returns={".": "user_id"})
def find_user_id_by_email(db, email: str) -> str:
    """Find a user's id by their email address. The match ignores upper/lower case. If no
    user has this email, the function returns an error. This is the default way to
    authenticate a user.

    Args:
        email: The email of the user, such as 'something@example.com'.
    """
    key = email.lower()
    # SQLite's lower() folds ASCII letters exactly like str.lower(); any other stored
    # email is compared in Python below, so the answer follows Python's case folding.
    for user_id, stored in db.execute(
            "SELECT user_id, email FROM users WHERE lower(email) = ? ORDER BY ord", (key,)):
        if stored.lower() == key:
            return user_id
    for user_id, stored in db.execute(
            "SELECT user_id, email FROM users "
            "WHERE length(CAST(email AS BLOB)) != length(email) ORDER BY ord"):  # non-ASCII
        if stored.lower() == key:
            return user_id
    raise ToolError("User not found")


@tool(Category.READ, returns={".": "user_id"})
def find_user_id_by_name_zip(db, first_name: str, last_name: str, zip: str) -> str:
    """Find a user's id by first name, last name and zip code. Names match ignoring
    upper/lower case; the zip code must match exactly. If no user matches, the function
    returns an error. Authenticate by email by default, and use this function only when
    the user cannot be found by email or does not remember their email.

    Args:
        first_name: The first name of the customer, such as 'John'.
        last_name: The last name of the customer, such as 'Doe'.
        zip: The zip code of the customer, such as '12345'.
    """
    first, last = first_name.lower(), last_name.lower()
    for user_id, f, l in db.execute(
            "SELECT user_id, first_name, last_name FROM users WHERE zip = ? ORDER BY ord",
            (zip,)):
        if f.lower() == first and l.lower() == last:
            return user_id
    raise ToolError("User not found")


@tool(Category.READ, returns=USER_RETURNS)
def get_user_details(db, user_id: UserId) -> dict:
    """Get the details of a user: name, default address, email, payment methods (with gift
    card balances) and the ids of their orders.

    Args:
        user_id: The user id, such as 'sara_doe_496'.
    """
    return _user(db, user_id)


@tool(Category.READ, returns=ORDER_RETURNS)
def get_order_details(db, order_id: OrderId) -> str:
    """Get the status and details of an order: shipping address, items with the price paid
    and options, fulfillments with tracking ids, and the payment history.

    Args:
        order_id: The order id, such as '#W0000000'. Be careful: the order id starts with
            a '#' symbol.
    """
    row = _order_row(db, order_id)
    return _order_text(row, repr(row[13]), tuple(_order_parts(db, order_id)))


@lru_cache(maxsize=256)
def _product_text(product_id: str, name: str, rows: tuple) -> str:
    """JSON text of a Product, cached by the rows it is made of (so it is never stale)."""
    variants = {item_id: variant_record(item_id, _options(opts), available, price)
                for item_id, opts, available, price in rows}
    return to_json(product_record(name, product_id, variants))


@tool(Category.READ, returns={"product_id": "product_id", "variants": "item_id"})
def get_product_details(db, product_id: ProductId) -> str:
    """Get the inventory details of a product type: its name and every variant (item) with
    its options, availability and current price.

    Args:
        product_id: The product id, such as '6086499569'. Be careful: a product id is not
            the same as an item id.
    """
    row = fetch_row(db, "SELECT name FROM products WHERE product_id = ?", (product_id,),
                    "Product not found")
    rows = db.execute("SELECT item_id, options, available, price FROM variants "
                      "WHERE product_id = ? ORDER BY ord", (product_id,)).fetchall()
    return _product_text(product_id, row[0], tuple(rows))


@tool(Category.READ, returns={"item_id": "item_id"})
def get_item_details(db, item_id: ItemId) -> dict:
    """Get the inventory details of one item (a variant of a product): its options,
    availability and current price.

    Args:
        item_id: The item id, such as '6086499569'. Be careful: an item id is not the same
            as a product id.
    """
    row = fetch_row(db, "SELECT options, available, price FROM variants WHERE item_id = ?",
                    (item_id,), "Item not found")
    return variant_record(item_id, _options(row[0]), row[1], row[2])


@lru_cache(maxsize=64)
def _product_types_text(rows: tuple) -> str:
    return _dumps(dict(rows), sort_keys=True)  # ASCII-escaped, like tau2's json.dumps


# ``"*"``: every value of the returned JSON object is a product id.
@tool(Category.READ, returns={"*": "product_id"})
def list_all_product_types(db) -> str:
    """List the name and product id of every product type in the store, as a JSON object
    mapping product names to product ids, sorted by name. Each product type has several
    items (variants) with their own item ids and options.
    """
    rows = db.execute("SELECT name, product_id FROM products ORDER BY ord").fetchall()
    return _product_types_text(tuple(rows))


# -------------------------------------------------------------------------- GENERIC


calculate = common_tools.calculate


transfer_to_human_agents = human_transfer_tool(
    "Transfer the user to a human agent, with a summary of the user's issue. Only "
    "transfer if the user explicitly asks for a human agent, or if, given the policy and "
    "the available tools, you cannot solve the user's issue.")


# ---------------------------------------------------------------------------- WRITE


@tool(Category.WRITE, returns=ORDER_RETURNS, writes=("order_id", "payment_method_id"))
def cancel_pending_order(db, order_id: OrderId, reason: str) -> dict:
    """Cancel a pending order. An order that is already processed or delivered cannot be
    cancelled. Explain the cancellation details and ask for an explicit confirmation (yes)
    from the user before calling. On success the order status becomes 'cancelled' and the
    payment is refunded: immediately to a gift card, otherwise within 5-7 business days.
    Returns the order details after the cancellation.

    Args:
        order_id: The order id, such as '#W0000000'. Be careful: the order id starts with
            a '#' symbol.
        reason: The reason for cancellation, which must be either 'no longer needed' or
            'ordered by mistake'.
    """
    owner = _order_owner(db, order_id, "pending", "cancelled")
    if reason not in CANCEL_REASONS:
        raise ToolError("Invalid reason; it must be 'no longer needed' or 'ordered by mistake'")
    payments = _order_payments(db, order_id)
    balances: dict[str, float] = {}
    refunds = []
    for _, _, amount, method_id in payments:
        refunds.append((amount, method_id))
        source, balance = _payment_method(db, owner, method_id)
        if source == "gift_card":
            current = balances.get(method_id, balance)
            balances[method_id] = round(current + amount, 2)
    for method_id, balance in balances.items():
        _set_balance(db, method_id, balance)
    db.execute("UPDATE orders SET status = 'cancelled', cancel_reason = ? WHERE order_id = ?",
               (reason, order_id))
    pos = _next_payment_pos(payments)
    for k, (amount, method_id) in enumerate(refunds):
        _append_payment(db, order_id, pos + k, "refund", amount, method_id)
    return _order_by_id(db, order_id)


@tool(Category.WRITE, returns=ORDER_RETURNS, writes=("order_id",))
def modify_pending_order_address(db, order_id: OrderId, address1: str, address2: str,
                                 city: str, state: str, country: str, zip: str) -> dict:
    """Modify the shipping address of a pending order. Explain the modification details and
    ask for an explicit confirmation (yes) from the user before calling. Returns the order
    details after the modification.

    Args:
        order_id: The order id, such as '#W0000000'. Be careful: the order id starts with
            a '#' symbol.
        address1: The first line of the address, such as '123 Main St'.
        address2: The second line of the address, such as 'Apt 1' or ''.
        city: The city, such as 'San Francisco'.
        state: The state, such as 'CA'.
        country: The country, such as 'USA'.
        zip: The zip code, such as '12345'.
    """
    row = _order_row(db, order_id)
    if "pending" not in row[8]:
        raise ToolError("Order is not pending; only a pending order can be modified")
    db.execute("UPDATE orders SET address1 = ?, address2 = ?, city = ?, country = ?, state = ?, "
               "zip = ? WHERE order_id = ?",
               (address1, address2, city, country, state, zip, order_id))
    return _order_by_id(db, order_id)


@tool(Category.WRITE, returns=ORDER_RETURNS, writes=("order_id", "payment_method_id"))
def modify_pending_order_payment(db, order_id: OrderId,
                                 payment_method_id: PaymentMethodId) -> dict:
    """Modify the payment method of a pending order, which must have been paid with exactly
    one payment. The new method must belong to the user and differ from the current one; a
    gift card must have enough balance to cover the whole amount. The original method is
    refunded (a gift card immediately). Explain the modification details and ask for an
    explicit confirmation (yes) from the user before calling. Returns the order details
    after the modification.

    Args:
        order_id: The order id, such as '#W0000000'. Be careful: the order id starts with
            a '#' symbol.
        payment_method_id: The id of the new payment method, such as 'gift_card_0000000' or
            'credit_card_0000000'. It can be looked up in the user's details.
    """
    row = _order_row(db, order_id)
    owner, status = row[1], row[8]
    if "pending" not in status:
        raise ToolError("Order is not pending; only a pending order can be modified")
    new_source, new_balance = _payment_method(db, owner, payment_method_id)
    payments = _order_payments(db, order_id)
    if len(payments) != 1 or payments[0][1] != "payment":
        raise ToolError("The order must have exactly one payment to change its payment method")
    _, _, amount, old_id = payments[0]
    if old_id == payment_method_id:
        raise ToolError("The new payment method must differ from the current one")
    if new_source == "gift_card" and new_balance < amount:
        raise ToolError("Insufficient gift card balance to pay for the order")
    old_source, old_balance = _payment_method(db, owner, old_id)
    pos = _next_payment_pos(payments)
    _append_payment(db, order_id, pos, "payment", amount, payment_method_id)
    _append_payment(db, order_id, pos + 1, "refund", amount, old_id)
    if new_source == "gift_card":
        _set_balance(db, payment_method_id, round(new_balance - amount, 2))
    if old_source == "gift_card":
        _set_balance(db, old_id, round(old_balance + amount, 2))
    return _order_by_id(db, order_id)


@tool(Category.WRITE, returns=ORDER_RETURNS, writes=("order_id", "payment_method_id"))
def modify_pending_order_items(db, order_id: OrderId, item_ids: list[ItemId],
                               new_item_ids: list[ItemId],
                               payment_method_id: PaymentMethodId) -> dict:
    """Modify items of a pending order into other items (variants) of the same product
    type. This can be done only once per order: afterwards its status is 'pending (item
    modified)' and it can no longer be modified or cancelled, so collect every item to
    change before calling. The price difference is charged to, or refunded to, the given
    payment method; a gift card must cover a positive difference. Explain the details and
    ask for an explicit confirmation (yes) from the user before calling. Returns the order
    details after the modification.

    Args:
        order_id: The order id, such as '#W0000000'. Be careful: the order id starts with
            a '#' symbol.
        item_ids: The ids of the items to modify, each such as '1008292230'. The list may
            contain the same id more than once.
        new_item_ids: The ids of the new items, each such as '1008292230', in the same
            positions as item_ids: each must be an available item of the same product as
            the item it replaces, with different options. The list may contain duplicates.
        payment_method_id: The payment method that pays, or receives the refund of, the
            price difference, such as 'gift_card_0000000' or 'credit_card_0000000'. It can
            be looked up in the user or order details.
    """
    owner = _order_owner(db, order_id, "pending", "modified")
    lines, line_ids = _replaced_lines(db, order_id, item_ids, new_item_ids)
    diff, last = _price_difference(db, lines, line_ids, item_ids, new_item_ids, distinct=True)
    source, balance = _payment_method(db, owner, payment_method_id)
    if source == "gift_card" and balance < diff:
        raise ToolError("Insufficient gift card balance to pay for the new items")
    payments = _order_payments(db, order_id)
    _append_payment(db, order_id, _next_payment_pos(payments),
                    "payment" if diff > 0 else "refund", float(abs(diff)), payment_method_id)
    if source == "gift_card":
        _set_balance(db, payment_method_id, round(balance - diff, 2))
    current = list(line_ids)
    for old, new in zip(item_ids, new_item_ids):
        k = current.index(old)
        current[k] = new
        db.execute("UPDATE order_items SET item_id = ?, price = ?, options = ? "
                   "WHERE order_id = ? AND pos = ?",
                   (new, last[0], last[1], order_id, lines[k][0]))
    db.execute("UPDATE orders SET status = 'pending (item modified)' WHERE order_id = ?",
               (order_id,))
    return _order_by_id(db, order_id)


@tool(Category.WRITE, returns=USER_RETURNS, writes=("user_id",))
def modify_user_address(db, user_id: UserId, address1: str, address2: str, city: str,
                        state: str, country: str, zip: str) -> dict:
    """Modify the default address of a user. Explain the modification details and ask for
    an explicit confirmation (yes) from the user before calling. Returns the user details
    after the modification.

    Args:
        user_id: The user id, such as 'sara_doe_496'.
        address1: The first line of the address, such as '123 Main St'.
        address2: The second line of the address, such as 'Apt 1' or ''.
        city: The city, such as 'San Francisco'.
        state: The state, such as 'CA'.
        country: The country, such as 'USA'.
        zip: The zip code, such as '12345'.
    """
    cursor = db.execute("UPDATE users SET address1 = ?, address2 = ?, city = ?, country = ?, "
                        "state = ?, zip = ? WHERE user_id = ?",
                        (address1, address2, city, country, state, zip, user_id))
    if cursor.rowcount == 0:
        raise ToolError("User not found")
    return _user(db, user_id)


@tool(Category.WRITE, returns=ORDER_RETURNS, writes=("order_id",))
def return_delivered_order_items(db, order_id: OrderId, item_ids: list[ItemId],
                                 payment_method_id: PaymentMethodId) -> dict:
    """Request the return of some items of a delivered order. The order status becomes
    'return requested' and the user will receive an email explaining how and where to
    return the items. The refund goes either to the original payment method or to a gift
    card of the user. A delivered order can be returned or exchanged only once. Explain the
    return details and ask for an explicit confirmation (yes) from the user before calling.
    Returns the order details after the request.

    Args:
        order_id: The order id, such as '#W0000000'. Be careful: the order id starts with
            a '#' symbol.
        item_ids: The ids of the items to return, each such as '1008292230'. The list may
            contain the same id more than once.
        payment_method_id: The payment method that receives the refund: the original
            payment method of the order or a gift card of the user, such as
            'gift_card_0000000' or 'credit_card_0000000'. It can be looked up in the user
            or order details.
    """
    owner = _order_owner(db, order_id, "delivered", "returned")
    source, _ = _payment_method(db, owner, payment_method_id)
    if source != "gift_card":
        first = fetch_row(db, "SELECT payment_method_id FROM order_payments "
                          "WHERE order_id = ? ORDER BY pos LIMIT 1", (order_id,),
                          "The order has no payment")
        if first[0] != payment_method_id:
            raise ToolError("The refund must go to the original payment method or a gift card")
    _check_multiset(item_ids, [line[1] for line in _order_lines(db, order_id)])
    db.execute("UPDATE orders SET status = 'return requested', return_items = ?, "
               "return_payment_method_id = ? WHERE order_id = ?",
               (_dumps(sorted(item_ids), ensure_ascii=False), payment_method_id, order_id))
    return _order_by_id(db, order_id)


@tool(Category.WRITE, returns=ORDER_RETURNS, writes=("order_id",))
def exchange_delivered_order_items(db, order_id: OrderId, item_ids: list[ItemId],
                                   new_item_ids: list[ItemId],
                                   payment_method_id: PaymentMethodId) -> dict:
    """Exchange items of a delivered order for other items (variants) of the same product
    type. A delivered order can be returned or exchanged only once, so collect every item
    to exchange before calling. The order status becomes 'exchange requested'; the price
    difference is settled with the given payment method, and a gift card must cover a
    positive difference. Explain the exchange details and ask for an explicit confirmation
    (yes) from the user before calling. Returns the order details after the request.

    Args:
        order_id: The order id, such as '#W0000000'. Be careful: the order id starts with
            a '#' symbol.
        item_ids: The ids of the items to exchange, each such as '1008292230'. The list may
            contain the same id more than once.
        new_item_ids: The ids of the new items, each such as '1008292230', in the same
            positions as item_ids: each must be an available item of the same product as
            the item it replaces. The list may contain duplicates.
        payment_method_id: The payment method that pays, or receives the refund of, the
            price difference, such as 'gift_card_0000000' or 'credit_card_0000000'. It can
            be looked up in the user or order details.
    """
    owner = _order_owner(db, order_id, "delivered", "exchanged")
    lines, line_ids = _replaced_lines(db, order_id, item_ids, new_item_ids)
    diff, _ = _price_difference(db, lines, line_ids, item_ids, new_item_ids, distinct=False)
    diff = round(diff, 2)
    source, balance = _payment_method(db, owner, payment_method_id)
    if source == "gift_card" and balance < diff:
        raise ToolError("Insufficient gift card balance to pay for the price difference")
    db.execute("UPDATE orders SET status = 'exchange requested', exchange_items = ?, "
               "exchange_new_items = ?, exchange_payment_method_id = ?, "
               "exchange_price_difference = ? WHERE order_id = ?",
               (_dumps(sorted(item_ids), ensure_ascii=False),
                _dumps(sorted(new_item_ids), ensure_ascii=False),
                payment_method_id, diff, order_id))
    return _order_by_id(db, order_id)
