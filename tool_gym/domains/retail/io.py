"""tau2-bench ``db.json`` <-> the retail SQLite schema (``read``, ``load``, ``export``).

Storage conventions and the canonical export: ``docs/retail-data.md``.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from ...core.json_fields import as_number, as_str_list, check_key
from ...core.tables import child_rows, load_records, read_json
from ...core.tau2_records import address_record, name_record

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

#: Columns of ``orders`` that ``order_record`` expects, in this order.
ORDER_COLUMNS = (
    "order_id, user_id, address1, address2, city, country, state, zip, status, "
    "cancel_reason, exchange_items, exchange_new_items, exchange_payment_method_id, "
    "exchange_price_difference, return_items, return_payment_method_id"
)


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


# ----------------------------------------------------------------------------- read


def read(path: str | Path) -> dict:
    """tau2's ``db.json`` as a dict (``{"products": ..., "users": ..., "orders": ...}``)."""
    return read_json(path)


# ----------------------------------------------------------------------------- load

#: The tables ``load`` fills, in insert order, with the columns of their rows.
_LOAD_COLUMNS = {
    "products": ("product_id", "name", "ord"),
    "variants": ("item_id", "product_id", "options", "available", "price", "ord"),
    "users": ("user_id", "first_name", "last_name", "email", "address1", "address2", "city",
              "country", "state", "zip", "ord"),
    "payment_methods": ("id", "user_id", "source", "brand", "last_four", "balance", "ord"),
    "orders": (*ORDER_COLUMNS.split(", "), "ord"),
    "user_orders": ("user_id", "pos", "order_id"),
    "order_items": ("order_id", "pos", "item_id", "product_id", "name", "price", "options"),
    "fulfillments": ("order_id", "pos", "tracking_ids", "item_ids"),
    "order_payments": ("order_id", "pos", "transaction_type", "amount", "payment_method_id"),
}


def load(db: sqlite3.Connection, data: dict) -> None:
    """Write a tau2-shaped dict into an empty retail database (no commit); every record is
    checked before the first row is written."""
    load_records(db, _LOAD_COLUMNS, ((data["products"], _add_product),
                                     (data["users"], _add_user), (data["orders"], _add_order)))


def _add_product(rows: dict[str, list], i: int, key: str, p: dict) -> None:
    pid = p["product_id"]
    check_key(key, pid, "products")
    rows["products"].append((pid, p["name"], i))
    for j, (vkey, v) in enumerate(p["variants"].items()):
        check_key(vkey, v["item_id"], f"products[{pid}].variants")
        available = v["available"]
        if not isinstance(available, bool):
            raise ValueError(f"variant {vkey}: 'available' must be a boolean")
        rows["variants"].append((v["item_id"], pid, _dumps(v["options"]), int(available),
                                 as_number(v["price"], f"variant {vkey} price"), j))


def _add_user(rows: dict[str, list], i: int, key: str, u: dict) -> None:
    uid = u["user_id"]
    check_key(key, uid, "users")
    a = u["address"]
    rows["users"].append((uid, u["name"]["first_name"], u["name"]["last_name"], u["email"],
                          a["address1"], a["address2"], a["city"], a["country"], a["state"],
                          a["zip"], i))
    for j, (mkey, m) in enumerate(u["payment_methods"].items()):
        check_key(mkey, m["id"], f"users[{uid}].payment_methods")
        rows["payment_methods"].append(_payment_method_row(uid, j, mkey, m))
    for pos, order_id in enumerate(u["orders"]):
        rows["user_orders"].append((uid, pos, order_id))


def _payment_method_row(uid: str, j: int, mkey: str, m: dict) -> tuple:
    source = m["source"]
    if source == "credit_card":
        return (m["id"], uid, source, m["brand"], m["last_four"], None, j)
    if source == "gift_card":
        return (m["id"], uid, source, None, None,
                as_number(m["balance"], f"gift card {mkey} balance"), j)
    if source == "paypal":
        return (m["id"], uid, source, None, None, None, j)
    raise ValueError(f"payment method {mkey}: unknown source {source!r}")


def _add_order(rows: dict[str, list], i: int, key: str, o: dict) -> None:
    oid = o["order_id"]
    check_key(key, oid, "orders")
    rows["orders"].append(_order_row(oid, i, o))
    for pos, it in enumerate(o["items"]):
        rows["order_items"].append((oid, pos, it["item_id"], it["product_id"], it["name"],
                                    as_number(it["price"], f"order {oid} item price"),
                                    _dumps(it["options"])))
    for pos, f in enumerate(o["fulfillments"]):
        rows["fulfillments"].append((oid, pos, _dumps(f["tracking_id"]), _dumps(f["item_ids"])))
    for pos, pay in enumerate(o["payment_history"]):
        rows["order_payments"].append((oid, pos, pay["transaction_type"],
                                       as_number(pay["amount"], f"order {oid} payment amount"),
                                       pay["payment_method_id"]))


def _order_row(oid: str, i: int, o: dict) -> tuple:
    a = o["address"]
    diff = o.get("exchange_price_difference")
    if diff is not None and (isinstance(diff, bool) or not isinstance(diff, (int, float))):
        raise ValueError(f"order {oid}: exchange_price_difference must be a number or null")
    return (oid, o["user_id"], a["address1"], a["address2"], a["city"], a["country"],
            a["state"], a["zip"], o["status"], o.get("cancel_reason"),
            as_str_list(o.get("exchange_items"), f"order {oid} exchange_items"),
            as_str_list(o.get("exchange_new_items"), f"order {oid} exchange_new_items"),
            o.get("exchange_payment_method_id"), diff,
            as_str_list(o.get("return_items"), f"order {oid} return_items"),
            o.get("return_payment_method_id"), i)


# ------------------------------------------------------------------ record builders

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
        "address": address_record(a1, a2, city, country, state, zip_),
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
        "name": name_record(first, last),
        "address": address_record(a1, a2, city, country, state, zip_),
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
    options = _OptionsReader()
    return {"products": _export_products(db, options), "users": _export_users(db),
            "orders": _export_orders(db, options)}


class _OptionsReader:
    """Parses each distinct options text once; every call returns a private copy (no shared
    dicts in the result)."""

    def __init__(self):
        self._parsed: dict[str, dict] = {}

    def __call__(self, text: str) -> dict:
        parsed = self._parsed.get(text)
        if parsed is None:
            parsed = self._parsed[text] = _loads(text)
        return dict(parsed)


def _export_products(db: sqlite3.Connection, options: _OptionsReader) -> dict:
    variants = child_rows(db, "variants", "product_id", "item_id, options, available, price",
                          order="ord")
    return {pid: product_record(name, pid, {
        item_id: variant_record(item_id, options(opts), available, price)
        for item_id, opts, available, price in variants.get(pid, ())})
        for pid, name in db.execute("SELECT product_id, name FROM products ORDER BY ord")}


def _export_users(db: sqlite3.Connection) -> dict:
    methods = child_rows(db, "payment_methods", "user_id",
                         "source, id, brand, last_four, balance", order="ord")
    user_orders = child_rows(db, "user_orders", "user_id", "order_id")
    users = {}
    for row in db.execute("SELECT user_id, first_name, last_name, email, address1, address2, "
                          "city, country, state, zip FROM users ORDER BY ord"):
        uid = row[0]
        own_methods = {m[1]: payment_method_record(*m) for m in methods.get(uid, ())}
        users[uid] = user_record(row, own_methods, [oid for (oid,) in user_orders.get(uid, ())])
    return users


def _export_orders(db: sqlite3.Connection, options: _OptionsReader) -> dict:
    items = child_rows(db, "order_items", "order_id", "item_id, product_id, name, price, options")
    fulfillments = child_rows(db, "fulfillments", "order_id", "tracking_ids, item_ids")
    payments = child_rows(db, "order_payments", "order_id",
                          "transaction_type, amount, payment_method_id")
    orders = {}
    for row in db.execute(f"SELECT {ORDER_COLUMNS} FROM orders ORDER BY ord"):
        oid = row[0]
        orders[oid] = order_record(
            row,
            [{"name": name, "product_id": pid, "item_id": item_id, "price": price,
              "options": options(opts)} for item_id, pid, name, price, opts in items.get(oid, ())],
            [{"tracking_id": _loads(tracking), "item_ids": _loads(item_ids)}
             for tracking, item_ids in fulfillments.get(oid, ())],
            [{"transaction_type": kind, "amount": amount, "payment_method_id": mid}
             for kind, amount, mid in payments.get(oid, ())])
    return orders
