"""Retail's outcome checks (one per write or refusal type), the owners of write calls, and
the cheap SQL prefilters the sampler uses to pick users."""

from __future__ import annotations

import json
import sqlite3
from typing import Any, Callable

from .records import ADDRESS_KEYS

_ORDER_OWNER = "SELECT user_id FROM orders WHERE order_id = ?"
_USER_OWNER = "SELECT user_id FROM users WHERE user_id = ?"
#: Tool -> (sql returning the user whose data it touches, the argument it binds).
OWNERS = {
    **{tool: (_ORDER_OWNER, "order_id") for tool in (
        "cancel_pending_order", "modify_pending_order_address", "modify_pending_order_payment",
        "modify_pending_order_items", "return_delivered_order_items",
        "exchange_delivered_order_items", "get_order_details")},
    **{tool: (_USER_OWNER, "user_id") for tool in ("modify_user_address", "get_user_details")},
}

#: Has the user two orders with a product in common?
_HAS_DISTRACTORS = (
    "SELECT EXISTS (SELECT 1 FROM orders o JOIN order_items i ON i.order_id = o.order_id "
    "WHERE o.user_id = ? GROUP BY i.product_id HAVING count(DISTINCT o.order_id) > 1)")

#: Order statuses of which a user needs one for a type to be possible (None: any order).
_LEAD_STATUSES: dict[str, tuple[str, ...] | None] = {
    "cancel_order": ("pending",),
    "modify_items": ("pending",),
    "change_order_address": ("pending", "pending (item modified)"),
    "return_items": ("delivered",),
    "exchange_items": ("delivered",),
    "info_tracking": ("delivered", "processed"),
    "cancel_processed_order": ("processed",),
    "info_order_total": None,
}


def has_distractors(db: sqlite3.Connection, user_id: str) -> bool:
    """Whether two of the user's orders share a product (descriptions must tell them apart)."""
    return bool(db.execute(_HAS_DISTRACTORS, (user_id,)).fetchone()[0])


def may_lead(db: sqlite3.Connection, kind: str, user_id: str) -> bool:
    """A cheap necessary condition for ``kind`` to be feasible for a user (one indexed
    query, or none)."""
    if kind == "info_gift_card_balance":
        return db.execute("SELECT count(*) FROM payment_methods WHERE user_id = ? AND "
                          "source = 'gift_card'", (user_id,)).fetchone()[0] == 1
    if kind == "change_order_payment":
        return db.execute(
            "SELECT (SELECT count(*) FROM payment_methods WHERE user_id = ?1) > 1 AND EXISTS "
            "(SELECT 1 FROM orders WHERE user_id = ?1 AND status LIKE '%pending%')",
            (user_id,)).fetchone()[0] == 1
    if kind not in _LEAD_STATUSES:
        return True
    need = _LEAD_STATUSES[kind]
    if need is None:
        return db.execute("SELECT 1 FROM orders WHERE user_id = ? LIMIT 1",
                          (user_id,)).fetchone() is not None
    marks = ", ".join("?" * len(need))
    return db.execute(f"SELECT 1 FROM orders WHERE user_id = ? AND status IN ({marks}) LIMIT 1",
                      (user_id, *need)).fetchone() is not None


# --------------------------------------------------------------------------- outcome checks

def _json_list(text: Any) -> list | None:
    if text is None:
        return None
    try:
        value = json.loads(text)
    except (TypeError, ValueError):
        return None
    return value if isinstance(value, list) else None


def _order_row(db, order_id: str, columns: str):
    return db.execute(f"SELECT {columns} FROM orders WHERE order_id = ?",
                      (order_id,)).fetchone()


def _payments(db, order_id: str) -> list[tuple]:
    return db.execute("SELECT transaction_type, amount, payment_method_id FROM "
                      "order_payments WHERE order_id = ? ORDER BY pos", (order_id,)).fetchall()


def _cancelled(db, a) -> bool:
    row = _order_row(db, a["order_id"], "status, cancel_reason")
    return row is not None and row[0] == "cancelled" and row[1] == a["reason"]


def _still_processed(db, a) -> bool:
    row = _order_row(db, a["order_id"], "status")
    return row is not None and row[0] == "processed"


def _order_address(db, a) -> bool:
    row = _order_row(db, a["order_id"], ", ".join(ADDRESS_KEYS))
    return row is not None and tuple(row) == tuple(a[k] for k in ADDRESS_KEYS)


def _user_address(db, a) -> bool:
    row = db.execute(f"SELECT {', '.join(ADDRESS_KEYS)} FROM users WHERE user_id = ?",
                     (a["user_id"],)).fetchone()
    return row is not None and tuple(row) == tuple(a[k] for k in ADDRESS_KEYS)


def _items_modified(db, a) -> bool:
    row = _order_row(db, a["order_id"], "status")
    if row is None or row[0] != "pending (item modified)":
        return False
    items = sorted(r[0] for r in db.execute(
        "SELECT item_id FROM order_items WHERE order_id = ?", (a["order_id"],)))
    if items != list(a["result_item_ids"]):
        return False
    diff = a["price_difference"]
    kind = "payment" if diff > 0 else "refund"
    return any(p[0] == kind and p[2] == a["payment_method_id"]
               and abs(p[1] - abs(diff)) < 1e-6
               for p in _payments(db, a["order_id"])[1:])


def _payment_changed(db, a) -> bool:
    pays = _payments(db, a["order_id"])
    if not pays or pays[0][0] != "payment" or pays[0][2] != a["original_payment_method_id"]:
        return False
    amount, new, old = a["amount"], a["payment_method_id"], a["original_payment_method_id"]
    for k, p in enumerate(pays[1:], 1):
        if p[0] == "payment" and p[2] == new and abs(p[1] - amount) < 1e-6:
            return any(q[0] == "refund" and q[2] == old and abs(q[1] - amount) < 1e-6
                       for q in pays[k + 1:])
    return False


def _return_requested(db, a) -> bool:
    row = _order_row(db, a["order_id"], "status, return_items, return_payment_method_id")
    return (row is not None and row[0] == "return requested"
            and _json_list(row[1]) == sorted(a["item_ids"])
            and row[2] == a["payment_method_id"])


def _exchange_requested(db, a) -> bool:
    row = _order_row(db, a["order_id"],
                     "status, exchange_items, exchange_new_items, "
                     "exchange_payment_method_id, exchange_price_difference")
    return (row is not None and row[0] == "exchange requested"
            and _json_list(row[1]) == sorted(a["item_ids"])
            and _json_list(row[2]) == sorted(a["new_item_ids"])
            and row[3] == a["payment_method_id"]
            and isinstance(row[4], (int, float))
            and abs(row[4] - a["price_difference"]) < 1e-6)


#: Constraint type -> its outcome check on the final database (information needs have
#: none: their answer is checked as communicated).
CHECKS: dict[str, Callable[[sqlite3.Connection, dict], bool]] = {
    "cancel_order": _cancelled,
    "cancel_processed_order": _still_processed,
    "change_order_address": _order_address,
    "change_user_address": _user_address,
    "modify_items": _items_modified,
    "change_order_payment": _payment_changed,
    "return_items": _return_requested,
    "exchange_items": _exchange_requested,
}
