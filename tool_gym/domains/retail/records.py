"""One retail user's rows as the task samplers see them (:class:`UserView`), read with a
few indexed queries, plus the bookkeeping that keeps the constraints of one task apart."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass

from ...core.task_model import Description

#: Address fields in the order of the tools' parameters.
ADDRESS_KEYS = ("address1", "address2", "city", "state", "country", "zip")
#: The cancellation reasons the tools accept.
REASONS = ("no longer needed", "ordered by mistake")


class WithOptions:
    """A row whose ``options`` column (a JSON object) is parsed on first use."""

    __slots__ = ("options_text", "_options")

    @property
    def options(self) -> dict:
        if self._options is None:
            try:
                value = json.loads(self.options_text)
            except (TypeError, ValueError):
                value = {}
            self._options = value if isinstance(value, dict) else {}
        return self._options


class Line(WithOptions):
    """One line of an order."""

    __slots__ = ("item_id", "product_id", "name", "price")

    def __init__(self, item_id, product_id, name, price, options_text):
        self.item_id = item_id
        self.product_id = product_id
        self.name = name
        self.price = price
        self.options_text = options_text
        self._options = None


class Variant(WithOptions):
    """One variant (item) of a product."""

    __slots__ = ("item_id", "available", "price")

    def __init__(self, item_id, options_text, available, price):
        self.item_id = item_id
        self.options_text = options_text
        self.available = bool(available)
        self.price = price
        self._options = None


class Order:
    """One order with its lines; its payments are read on first use."""

    __slots__ = ("order_id", "status", "address", "lines", "_payments", "_names", "_db")

    def __init__(self, db, order_id, status, address):
        self._db = db
        self.order_id = order_id
        self.status = status
        self.address = address
        self.lines: list[Line] = []
        self._payments = None
        self._names = None

    @property
    def payments(self) -> list[tuple[str, float, str]]:
        """``(transaction_type, amount, payment_method_id)`` in history order (read lazily)."""
        if self._payments is None:
            self._payments = self._db.execute(
                "SELECT transaction_type, amount, payment_method_id FROM order_payments "
                "WHERE order_id = ? ORDER BY pos", (self.order_id,)).fetchall()
        return self._payments

    @property
    def names(self) -> frozenset:
        if self._names is None:
            self._names = frozenset(l.name for l in self.lines)
        return self._names

    def first_line(self, item_id: str) -> Line:
        return next(l for l in self.lines if l.item_id == item_id)

    def distinct_items(self) -> list[str]:
        seen: dict[str, None] = {}
        for l in self.lines:
            seen.setdefault(l.item_id, None)
        return list(seen)


@dataclass(slots=True, eq=False)
class Method:
    """One payment method of the user."""

    id: str
    source: str
    brand: str | None
    last_four: str | None
    balance: float | None


class UserView:
    """One user's rows, read with a few indexed queries, and the bookkeeping that keeps the
    constraints of one task apart."""

    def __init__(self, db: sqlite3.Connection, user_id: str):
        self.user_id = user_id
        # One query for the user and their payment methods (a user without methods still shows).
        rows = db.execute(
            "SELECT u.first_name, u.last_name, u.email, u.address1, u.address2, u.city, "
            "u.state, u.country, u.zip, p.id, p.source, p.brand, p.last_four, p.balance "
            "FROM users u LEFT JOIN payment_methods p ON p.user_id = u.user_id "
            "WHERE u.user_id = ? ORDER BY p.ord, p.id", (user_id,)).fetchall()
        row = rows[0]
        self.first_name, self.last_name, self.email = row[0], row[1], row[2]
        self.address = dict(zip(ADDRESS_KEYS, row[3:9]))
        self.methods = [Method(*r[9:]) for r in rows if r[9] is not None]
        self.method_by_id = {m.id: m for m in self.methods}
        self.gift_cards = [m for m in self.methods if m.source == "gift_card"]
        self.orders: list[Order] = []
        by_id: dict[str, Order] = {}
        # One query for the orders and their lines (an order without lines still shows).
        for r in db.execute(
                "SELECT o.order_id, o.status, o.address1, o.address2, o.city, o.state, "
                "o.country, o.zip, i.item_id, i.product_id, i.name, i.price, i.options "
                "FROM orders o LEFT JOIN order_items i ON i.order_id = o.order_id "
                "WHERE o.user_id = ? ORDER BY o.ord, o.order_id, i.pos", (user_id,)):
            o = by_id.get(r[0])
            if o is None:
                o = by_id[r[0]] = Order(db, r[0], r[1], dict(zip(ADDRESS_KEYS, r[2:8])))
                self.orders.append(o)
            if r[8] is not None:
                o.lines.append(Line(*r[8:]))
        self.order_by_id = by_id
        self._variants: dict[str, list[Variant]] = {}
        #: payment method id -> its description (``None``: not describable), once made
        self.method_desc: dict[str, Description | None] = {}
        # bookkeeping of the constraints drawn so far
        self.used_orders: set[str] = set()
        self.used_gift_cards: set[str] = set()     # chosen as a payment method
        self.touched_gift_cards: set[str] = set()  # balance may move (refunds)
        self.frozen_gift_cards: set[str] = set()   # balance asked for
        self.used_products: set[str] = set()
        self.user_address_changed = False
        self.default_address_used = False

    def variants(self, db: sqlite3.Connection, product_id: str) -> list[Variant]:
        found = self._variants.get(product_id)
        if found is None:
            found = [Variant(*r) for r in db.execute(
                "SELECT item_id, options, available, price FROM variants "
                "WHERE product_id = ? ORDER BY ord, item_id", (product_id,))]
            self._variants[product_id] = found
        return found

    def gift_card_free(self, method_id: str) -> bool:
        """A gift card that may be chosen as a constraint's payment method."""
        return method_id not in self.used_gift_cards and method_id not in self.frozen_gift_cards

    def owner_gift_cards(self, method_ids) -> set[str]:
        return {m for m in method_ids
                if m in self.method_by_id and self.method_by_id[m].source == "gift_card"}
