"""Rules every marketplace database keeps (generated data and after any tool call).

``invariants(db)`` returns the problems found (empty when every rule holds).
"""

from __future__ import annotations

import sqlite3

from ...core.rules import LIMIT, rule_checker
from .tools import money

_CENTS = "abs({0} * 100 - round({0} * 100)) > 1e-6"
_OPEN = "('pending', 'countered')"

RULES: list[tuple[str, str]] = [
    ("a sold listing has exactly one order that is not cancelled",
     "SELECT l.listing_id FROM listings l WHERE l.status = 'sold' AND (SELECT count(*) FROM "
     "orders o WHERE o.listing_id = l.listing_id AND o.status != 'cancelled') != 1"),
    ("an unsold listing has no order that is not cancelled",
     "SELECT o.order_id FROM orders o JOIN listings l ON l.listing_id = o.listing_id "
     "WHERE l.status != 'sold' AND o.status != 'cancelled'"),
    ("an order's seller is the listing's seller",
     "SELECT o.order_id FROM orders o JOIN listings l ON l.listing_id = o.listing_id "
     "WHERE o.seller_id != l.seller_id"),
    ("an order is paid with a card of its buyer",
     "SELECT o.order_id FROM orders o JOIN payment_methods p "
     "ON p.payment_method_id = o.payment_method_id WHERE p.member_id != o.buyer_id"),
    ("an offer is backed by a card of its buyer and made on another member's listing",
     "SELECT f.offer_id FROM offers f JOIN payment_methods p "
     "ON p.payment_method_id = f.payment_method_id JOIN listings l "
     "ON l.listing_id = f.listing_id WHERE p.member_id != f.buyer_id "
     "OR l.seller_id = f.buyer_id"),
    ("open offers are only on active listings",
     f"SELECT f.offer_id FROM offers f JOIN listings l ON l.listing_id = f.listing_id "
     f"WHERE f.status IN {_OPEN} AND l.status != 'active'"),
    ("a buyer has at most one open offer on a listing",
     f"SELECT listing_id || ' ' || buyer_id FROM offers WHERE status IN {_OPEN} "
     "GROUP BY listing_id, buyer_id HAVING count(*) > 1"),
    ("an accepted offer is the order of its listing, at the agreed price",
     "SELECT f.offer_id FROM offers f LEFT JOIN orders o ON o.offer_id = f.offer_id "
     "WHERE f.status = 'accepted' AND (o.order_id IS NULL OR o.listing_id != f.listing_id "
     "OR o.buyer_id != f.buyer_id "
     "OR abs(o.item_price - coalesce(f.counter_amount, f.amount)) > 0.005) "
     "UNION ALL SELECT o.offer_id FROM orders o JOIN offers f ON f.offer_id = o.offer_id "
     "WHERE f.status != 'accepted'"),
    ("a shipped or delivered order has a shipping label, others none",
     "SELECT o.order_id FROM orders o LEFT JOIN shipping_labels s ON s.order_id = o.order_id "
     "WHERE (o.status IN ('shipped', 'delivered')) != (s.label_id IS NOT NULL)"),
    ("returns are opened on delivered orders",
     "SELECT r.return_id FROM returns r JOIN orders o ON o.order_id = r.order_id "
     "WHERE o.status != 'delivered'"),
    ("feedback is left by a party of a delivered order on the other party",
     "SELECT f.feedback_id FROM feedback f JOIN orders o ON o.order_id = f.order_id "
     "WHERE o.status != 'delivered' OR NOT ((f.role = 'buyer' AND f.author_id = o.buyer_id "
     "AND f.recipient_id = o.seller_id) OR (f.role = 'seller' AND f.author_id = o.seller_id "
     "AND f.recipient_id = o.buyer_id))"),
    ("a conversation is between a listing's seller and another member",
     "SELECT c.conversation_id FROM conversations c JOIN listings l "
     "ON l.listing_id = c.listing_id WHERE c.seller_id != l.seller_id"),
    ("a message is sent by a member of its conversation",
     "SELECT m.message_id FROM messages m JOIN conversations c "
     "ON c.conversation_id = m.conversation_id WHERE m.sender_id NOT IN (c.buyer_id, "
     "c.seller_id)"),
    ("money amounts are whole cents",
     f"SELECT listing_id FROM listings WHERE {_CENTS.format('price')} "
     f"OR {_CENTS.format('shipping_cost')} UNION ALL SELECT offer_id FROM offers "
     f"WHERE {_CENTS.format('amount')} UNION ALL SELECT order_id FROM orders "
     f"WHERE {_CENTS.format('item_price')} OR {_CENTS.format('total')}"),
]


def order_totals(db: sqlite3.Connection) -> list[str]:
    """An order's total is its item price plus shipping, in cents (checked in Python, which
    rounds as the tools do)."""
    bad = [o for o, price, shipping, total in db.execute(
        "SELECT order_id, item_price, shipping_cost, total FROM orders ORDER BY rowid")
        if abs(total - money(price + shipping)) > 0.005]
    return [f"an order's total is its item price plus shipping: {o}" for o in bad[:LIMIT]]


invariants = rule_checker(RULES, order_totals)
