"""tau2-bench ``db.json`` <-> the retail SQLite schema.

``read`` parses tau2's file, ``load`` writes such a dict into an empty database made from
``schema.sql``, ``export`` rebuilds exactly the tau2 structure from the database (the
canonical state: ``tool_gym`` hashes ``json.dumps(export(db), sort_keys=True)``).

The record builders (``order_record`` and friends) are shared with the tools, so a tool's
output and the export are the same records in the same key order (tau2's declaration
order; see spec section 1.1).

Storage conventions:
- money is stored as REAL and cast to ``float`` on import;
- ``ord`` keeps the source order of products, variants (within a product), users,
  payment methods (within a user) and orders; ``pos`` the order of every list;
- options, tracking ids, fulfilment item ids and the optional order lists are JSON text;
- the seven optional order fields absent from the source become NULL and are always
  emitted (as ``null``);
- ``orders.exchange_price_difference`` has no declared type, so an integer ``0`` (stored
  by tau2 for an empty exchange) and ``-0.0`` survive as they are.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

__all__ = [
    "read",
    "load",
    "export",
    "ORDER_COLUMNS",
    "order_record",
    "user_record",
    "product_record",
    "variant_record",
    "payment_method_record",
]

_loads = json.loads


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


# ----------------------------------------------------------------------------- read


def read(path: str | Path) -> dict:
    """tau2's ``db.json`` as a dict (``{"products": ..., "users": ..., "orders": ...}``)."""
    with open(path, encoding="utf-8") as f:
        return json.load(f)


# ----------------------------------------------------------------------------- load


def _money(value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"{where}: expected a number, got {value!r}")
    return float(value)


def _str_list(value: Any, where: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError(f"{where}: expected a list of strings or null, got {value!r}")
    return _dumps(value)


def _check_key(key: str, record_id: Any, where: str) -> None:
    if key != record_id:
        raise ValueError(f"{where}: map key {key!r} differs from the record's id {record_id!r}")


def load(db: sqlite3.Connection, data: dict) -> None:
    """Write a tau2-shaped dict into an empty retail database (no commit)."""
    products = data["products"]
    users = data["users"]
    orders = data["orders"]

    product_rows, variant_rows = [], []
    for i, (key, p) in enumerate(products.items()):
        pid = p["product_id"]
        _check_key(key, pid, "products")
        product_rows.append((pid, p["name"], i))
        for j, (vkey, v) in enumerate(p["variants"].items()):
            _check_key(vkey, v["item_id"], f"products[{pid}].variants")
            available = v["available"]
            if not isinstance(available, bool):
                raise ValueError(f"variant {vkey}: 'available' must be a boolean")
            variant_rows.append((v["item_id"], pid, _dumps(v["options"]), int(available),
                                 _money(v["price"], f"variant {vkey} price"), j))

    user_rows, method_rows, user_order_rows = [], [], []
    for i, (key, u) in enumerate(users.items()):
        uid = u["user_id"]
        _check_key(key, uid, "users")
        a = u["address"]
        user_rows.append((uid, u["name"]["first_name"], u["name"]["last_name"], u["email"],
                          a["address1"], a["address2"], a["city"], a["country"], a["state"],
                          a["zip"], i))
        for j, (mkey, m) in enumerate(u["payment_methods"].items()):
            _check_key(mkey, m["id"], f"users[{uid}].payment_methods")
            source = m["source"]
            if source == "credit_card":
                method_rows.append((m["id"], uid, source, m["brand"], m["last_four"], None, j))
            elif source == "gift_card":
                method_rows.append((m["id"], uid, source, None, None,
                                    _money(m["balance"], f"gift card {mkey} balance"), j))
            elif source == "paypal":
                method_rows.append((m["id"], uid, source, None, None, None, j))
            else:
                raise ValueError(f"payment method {mkey}: unknown source {source!r}")
        for pos, order_id in enumerate(u["orders"]):
            user_order_rows.append((uid, pos, order_id))

    order_rows, item_rows, fulfillment_rows, payment_rows = [], [], [], []
    for i, (key, o) in enumerate(orders.items()):
        oid = o["order_id"]
        _check_key(key, oid, "orders")
        a = o["address"]
        diff = o.get("exchange_price_difference")
        if diff is not None and (isinstance(diff, bool) or not isinstance(diff, (int, float))):
            raise ValueError(f"order {oid}: exchange_price_difference must be a number or null")
        order_rows.append((
            oid, o["user_id"], a["address1"], a["address2"], a["city"], a["country"],
            a["state"], a["zip"], o["status"], o.get("cancel_reason"),
            _str_list(o.get("exchange_items"), f"order {oid} exchange_items"),
            _str_list(o.get("exchange_new_items"), f"order {oid} exchange_new_items"),
            o.get("exchange_payment_method_id"), diff,
            _str_list(o.get("return_items"), f"order {oid} return_items"),
            o.get("return_payment_method_id"), i))
        for pos, it in enumerate(o["items"]):
            item_rows.append((oid, pos, it["item_id"], it["product_id"], it["name"],
                              _money(it["price"], f"order {oid} item price"),
                              _dumps(it["options"])))
        for pos, f in enumerate(o["fulfillments"]):
            fulfillment_rows.append((oid, pos, _dumps(f["tracking_id"]), _dumps(f["item_ids"])))
        for pos, pay in enumerate(o["payment_history"]):
            payment_rows.append((oid, pos, pay["transaction_type"],
                                 _money(pay["amount"], f"order {oid} payment amount"),
                                 pay["payment_method_id"]))

    ex = db.executemany
    ex("INSERT INTO products (product_id, name, ord) VALUES (?, ?, ?)", product_rows)
    ex("INSERT INTO variants (item_id, product_id, options, available, price, ord) "
       "VALUES (?, ?, ?, ?, ?, ?)", variant_rows)
    ex("INSERT INTO users (user_id, first_name, last_name, email, address1, address2, city, "
       "country, state, zip, ord) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", user_rows)
    ex("INSERT INTO payment_methods (id, user_id, source, brand, last_four, balance, ord) "
       "VALUES (?, ?, ?, ?, ?, ?, ?)", method_rows)
    ex("INSERT INTO orders (order_id, user_id, address1, address2, city, country, state, zip, "
       "status, cancel_reason, exchange_items, exchange_new_items, exchange_payment_method_id, "
       "exchange_price_difference, return_items, return_payment_method_id, ord) "
       "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", order_rows)
    ex("INSERT INTO user_orders (user_id, pos, order_id) VALUES (?, ?, ?)", user_order_rows)
    ex("INSERT INTO order_items (order_id, pos, item_id, product_id, name, price, options) "
       "VALUES (?, ?, ?, ?, ?, ?, ?)", item_rows)
    ex("INSERT INTO fulfillments (order_id, pos, tracking_ids, item_ids) VALUES (?, ?, ?, ?)",
       fulfillment_rows)
    ex("INSERT INTO order_payments (order_id, pos, transaction_type, amount, payment_method_id) "
       "VALUES (?, ?, ?, ?, ?)", payment_rows)


# ------------------------------------------------------------------ record builders

#: Columns of ``orders`` that ``order_record`` expects, in this order.
ORDER_COLUMNS = (
    "order_id, user_id, address1, address2, city, country, state, zip, status, "
    "cancel_reason, exchange_items, exchange_new_items, exchange_payment_method_id, "
    "exchange_price_difference, return_items, return_payment_method_id"
)


def _json_or_none(text: str | None) -> Any:
    return None if text is None else _loads(text)


def order_record(row: tuple, items: list, fulfillments: list, payments: list) -> dict:
    """An Order in tau2's key order, from an ``ORDER_COLUMNS`` row and built sub-lists."""
    (order_id, user_id, a1, a2, city, country, state, zip_, status, cancel_reason,
     exchange_items, exchange_new_items, exchange_method, exchange_diff, return_items,
     return_method) = row
    return {
        "order_id": order_id,
        "user_id": user_id,
        "address": {"address1": a1, "address2": a2, "city": city, "country": country,
                    "state": state, "zip": zip_},
        "items": items,
        "status": status,
        "fulfillments": fulfillments,
        "payment_history": payments,
        "cancel_reason": cancel_reason,
        "exchange_items": _json_or_none(exchange_items),
        "exchange_new_items": _json_or_none(exchange_new_items),
        "exchange_payment_method_id": exchange_method,
        "exchange_price_difference": exchange_diff,
        "return_items": _json_or_none(return_items),
        "return_payment_method_id": return_method,
    }


def payment_method_record(source: str, method_id: str, brand: Any, last_four: Any,
                          balance: Any) -> dict:
    """A PaymentMethod in tau2's key order (fields depend on ``source``)."""
    if source == "credit_card":
        return {"source": source, "id": method_id, "brand": brand, "last_four": last_four}
    if source == "gift_card":
        return {"source": source, "id": method_id, "balance": balance}
    return {"source": source, "id": method_id}


def user_record(row: tuple, methods: dict, orders: list) -> dict:
    """A User from ``(user_id, first_name, last_name, email, address1, address2, city,
    country, state, zip)``."""
    user_id, first, last, email, a1, a2, city, country, state, zip_ = row
    return {
        "user_id": user_id,
        "name": {"first_name": first, "last_name": last},
        "address": {"address1": a1, "address2": a2, "city": city, "country": country,
                    "state": state, "zip": zip_},
        "email": email,
        "payment_methods": methods,
        "orders": orders,
    }


def variant_record(item_id: str, options: dict, available: int, price: float) -> dict:
    return {"item_id": item_id, "options": options, "available": bool(available), "price": price}


def product_record(name: str, product_id: str, variants: dict) -> dict:
    return {"name": name, "product_id": product_id, "variants": variants}


# ---------------------------------------------------------------------------- export


def export(db: sqlite3.Connection) -> dict:
    """The whole state as tau2's ``db.json`` structure (maps in source order)."""
    memo: dict[str, dict] = {}

    def options(text: str) -> dict:
        parsed = memo.get(text)
        if parsed is None:
            parsed = memo[text] = _loads(text)
        return dict(parsed)  # a private copy: no shared dicts in the result

    ex = db.execute

    variants: dict[str, dict] = {}
    for item_id, pid, opts, available, price in ex(
            "SELECT item_id, product_id, options, available, price FROM variants "
            "ORDER BY product_id, ord"):
        group = variants.get(pid)
        if group is None:
            group = variants[pid] = {}
        group[item_id] = {"item_id": item_id, "options": options(opts),
                          "available": bool(available), "price": price}
    products = {}
    for pid, name in ex("SELECT product_id, name FROM products ORDER BY ord"):
        products[pid] = {"name": name, "product_id": pid, "variants": variants.get(pid, {})}

    methods: dict[str, dict] = {}
    for uid, source, mid, brand, last_four, balance in ex(
            "SELECT user_id, source, id, brand, last_four, balance FROM payment_methods "
            "ORDER BY user_id, ord"):
        group = methods.get(uid)
        if group is None:
            group = methods[uid] = {}
        group[mid] = payment_method_record(source, mid, brand, last_four, balance)
    user_orders: dict[str, list] = {}
    for uid, oid in ex("SELECT user_id, order_id FROM user_orders ORDER BY user_id, pos"):
        group = user_orders.get(uid)
        if group is None:
            group = user_orders[uid] = []
        group.append(oid)
    users = {}
    for row in ex("SELECT user_id, first_name, last_name, email, address1, address2, city, "
                  "country, state, zip FROM users ORDER BY ord"):
        uid = row[0]
        users[uid] = user_record(row, methods.get(uid, {}), user_orders.get(uid, []))

    items: dict[str, list] = {}
    for oid, item_id, pid, name, price, opts in ex(
            "SELECT order_id, item_id, product_id, name, price, options FROM order_items "
            "ORDER BY order_id, pos"):
        group = items.get(oid)
        if group is None:
            group = items[oid] = []
        group.append({"name": name, "product_id": pid, "item_id": item_id, "price": price,
                      "options": options(opts)})
    fulfillments: dict[str, list] = {}
    for oid, tracking, item_ids in ex(
            "SELECT order_id, tracking_ids, item_ids FROM fulfillments ORDER BY order_id, pos"):
        group = fulfillments.get(oid)
        if group is None:
            group = fulfillments[oid] = []
        group.append({"tracking_id": _loads(tracking), "item_ids": _loads(item_ids)})
    payments: dict[str, list] = {}
    for oid, kind, amount, mid in ex(
            "SELECT order_id, transaction_type, amount, payment_method_id FROM order_payments "
            "ORDER BY order_id, pos"):
        group = payments.get(oid)
        if group is None:
            group = payments[oid] = []
        group.append({"transaction_type": kind, "amount": amount, "payment_method_id": mid})
    orders = {}
    for row in ex(f"SELECT {ORDER_COLUMNS} FROM orders ORDER BY ord"):
        oid = row[0]
        orders[oid] = order_record(row, items.get(oid, []), fulfillments.get(oid, []),
                                   payments.get(oid, []))

    return {"products": products, "users": users, "orders": orders}
