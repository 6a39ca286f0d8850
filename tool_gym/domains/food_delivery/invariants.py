"""Rules every food delivery database keeps: orders, refunds, carts and ratings.

``invariants(db)`` returns the problems found (empty when every rule holds).
"""

from __future__ import annotations

from ...core.rules import rule_checker


_CENTS = "abs({0} * 100 - round({0} * 100)) > 1e-6"

RULES: list[tuple[str, str]] = [
    ("an order's total is subtotal + delivery fee - discount",
     "SELECT order_id FROM orders WHERE abs(subtotal + delivery_fee - discount - total) > 0.005 "
     "OR discount < 0 OR discount > subtotal OR " + _CENTS.format("total")),
    ("an order's subtotal is the sum of its lines",
     "SELECT o.order_id FROM orders o WHERE abs(o.subtotal - (SELECT coalesce(sum("
     "round(i.unit_price * 100) * i.quantity), 0) / 100.0 FROM order_items i "
     "WHERE i.order_id = o.order_id)) > 0.005"),
    ("an order has at least one line",
     "SELECT o.order_id FROM orders o WHERE NOT EXISTS (SELECT 1 FROM order_items i "
     "WHERE i.order_id = o.order_id)"),
    ("an order's lines come from its restaurant",
     "SELECT i.order_id FROM order_items i JOIN orders o ON o.order_id = i.order_id "
     "JOIN menu_items m ON m.item_id = i.item_id WHERE m.restaurant_id != o.restaurant_id"),
    ("an order's address and payment method are its customer's",
     "SELECT o.order_id FROM orders o JOIN addresses a ON a.address_id = o.address_id "
     "JOIN payment_methods p ON p.payment_method_id = o.payment_method_id "
     "WHERE a.customer_id != o.customer_id OR p.customer_id != o.customer_id"),
    ("refunds never exceed the order's total",
     "SELECT o.order_id FROM orders o JOIN refunds r ON r.order_id = o.order_id "
     "GROUP BY o.order_id HAVING round(sum(r.amount), 2) > max(o.total) + 0.005"),
    ("a cancelled order is refunded in full, once",
     "SELECT o.order_id FROM orders o WHERE o.status = 'cancelled' AND (SELECT count(*) "
     "FROM refunds r WHERE r.order_id = o.order_id AND r.reason = 'cancellation' "
     "AND abs(r.amount - o.total) < 0.005) != 1"),
    ("missing-items refunds are for delivered orders",
     "SELECT r.refund_id FROM refunds r JOIN orders o ON o.order_id = r.order_id "
     "WHERE r.reason = 'missing_items' AND o.status != 'delivered'"),
    ("a gift card balance is non-negative",
     "SELECT payment_method_id FROM payment_methods WHERE kind = 'gift_card' AND balance < 0"),
    ("a cart holds items of one restaurant",
     "SELECT c.customer_id FROM cart_items c JOIN menu_items m ON m.item_id = c.item_id "
     "GROUP BY c.customer_id HAVING count(DISTINCT m.restaurant_id) > 1"),
    ("a rating is for a delivered order of its customer and restaurant",
     "SELECT t.rating_id FROM ratings t JOIN orders o ON o.order_id = t.order_id "
     "WHERE o.status != 'delivered' OR o.customer_id != t.customer_id "
     "OR o.restaurant_id != t.restaurant_id"),
    ("a customer has exactly one default address",
     "SELECT c.customer_id FROM customers c WHERE (SELECT count(*) FROM addresses a "
     "WHERE a.customer_id = c.customer_id AND a.is_default = 1) != 1"),
    ("an order is delivered after it is placed",
     "SELECT order_id FROM orders WHERE delivered_at IS NOT NULL AND delivered_at < placed_at"),
]


invariants = rule_checker(RULES)
