"""Rules every shopping database keeps (generated data and after any tool call).

``invariants(db)`` returns the problems found (empty when every rule holds).
"""

from __future__ import annotations

from ...core.rules import rule_checker

_CENTS = "abs({0} * 100 - round({0} * 100)) > 1e-6"

RULES: list[tuple[str, str]] = [
    ("money amounts are whole cents",
     f"SELECT order_id FROM orders WHERE {_CENTS.format('total')} OR "
     f"{_CENTS.format('discount')} UNION ALL SELECT customer_id FROM customers WHERE "
     f"{_CENTS.format('store_credit')} UNION ALL SELECT payment_method_id FROM "
     f"payment_methods WHERE balance IS NOT NULL AND {_CENTS.format('balance')}"),
    ("an order's subtotal is the sum of its lines",
     "SELECT o.order_id FROM orders o WHERE abs(o.subtotal - (SELECT coalesce(sum("
     "round(i.unit_price * 100) * i.quantity), 0) / 100.0 FROM order_items i "
     "WHERE i.order_id = o.order_id)) > 0.005"),
    ("an order's total is its subtotal less the discount plus shipping",
     "SELECT order_id FROM orders WHERE discount > subtotal "
     "OR abs(total - (subtotal - discount + shipping)) > 0.005"),
    ("an order ships to an address and is paid by a method of its customer",
     "SELECT o.order_id FROM orders o JOIN addresses a ON a.address_id = o.address_id "
     "JOIN payment_methods p ON p.payment_method_id = o.payment_method_id "
     "WHERE a.customer_id != o.customer_id OR p.customer_id != o.customer_id"),
    ("an order's dates follow its status",
     "SELECT order_id FROM orders WHERE (status IN ('placed', 'cancelled') AND (shipped_at "
     "IS NOT NULL OR delivered_at IS NOT NULL)) OR (status = 'shipped' AND (shipped_at IS NULL "
     "OR delivered_at IS NOT NULL)) OR (status = 'delivered' AND (shipped_at IS NULL OR "
     "delivered_at IS NULL OR delivered_at < shipped_at)) OR (status = 'cancelled') "
     "!= (cancel_reason IS NOT NULL)"),
    ("a coupon is used once per customer, by its owner",
     "SELECT o.order_id FROM orders o JOIN coupons c ON c.code = o.coupon_code "
     "WHERE (c.customer_id IS NOT NULL AND c.customer_id != o.customer_id) OR (o.status != "
     "'cancelled' AND (SELECT count(*) FROM orders x WHERE x.customer_id = o.customer_id "
     "AND x.coupon_code = o.coupon_code AND x.status != 'cancelled') > 1)"),
    ("a cart's coupon is public or the customer's own",
     "SELECT k.customer_id FROM carts k JOIN coupons c ON c.code = k.coupon_code "
     "WHERE c.customer_id IS NOT NULL AND c.customer_id != k.customer_id"),
    ("a return is for a delivered order of its customer, within the units bought, refunding "
     "at most what they cost",
     "SELECT r.return_id FROM returns r JOIN orders o ON o.order_id = r.order_id "
     "JOIN order_items i ON i.order_id = r.order_id AND i.line = r.line "
     "WHERE o.status != 'delivered' OR o.customer_id != r.customer_id "
     "OR r.quantity > i.quantity OR r.refund_amount > round(i.unit_price * r.quantity, 2) + 0.005"),
    ("a review is of a product its author received",
     "SELECT v.review_id FROM reviews v WHERE NOT EXISTS (SELECT 1 FROM orders o "
     "JOIN order_items i ON i.order_id = o.order_id WHERE o.customer_id = v.customer_id "
     "AND i.product_id = v.product_id AND o.status = 'delivered')"),
    ("a customer with addresses has exactly one default",
     "SELECT customer_id FROM addresses GROUP BY customer_id HAVING sum(is_default) != 1"),
    ("a cart holds at most 20 products",
     "SELECT customer_id FROM cart_items GROUP BY customer_id HAVING count(*) > 20"),
    ("a customer keeps at most 8 addresses and 50 wishlist products",
     "SELECT customer_id FROM addresses GROUP BY customer_id HAVING count(*) > 8 UNION ALL "
     "SELECT customer_id FROM wishlist_items GROUP BY customer_id HAVING count(*) > 50"),
]


invariants = rule_checker(RULES)
