"""Consistency rules of a retail database that every tool call preserves.

``invariants(db)`` returns a list of problems (empty when the rules hold). Each rule is
one cheap SQL query; at most ``LIMIT`` offending rows are reported per rule.
"""

from __future__ import annotations

from ...core.rules import rule_checker
from .tools import CANCEL_REASONS, ORDER_STATUSES

__all__ = ["invariants", "RULES"]


_statuses = ", ".join(f"'{s}'" for s in ORDER_STATUSES)
_reasons = ", ".join(f"'{r}'" for r in CANCEL_REASONS)

#: (description, query returning one text column describing each offending row).
RULES: list[tuple[str, str]] = [
    ("gift card balance must be a non-negative number",
     "SELECT id || ' balance ' || quote(balance) FROM payment_methods "
     "WHERE source = 'gift_card' AND (typeof(balance) NOT IN ('real', 'integer') OR balance < 0)"),
    ("only gift cards carry a balance; credit cards need brand and last_four",
     "SELECT id FROM payment_methods WHERE (source != 'gift_card' AND balance IS NOT NULL) "
     "OR (source = 'credit_card' AND (brand IS NULL OR last_four IS NULL))"),
    ("order status must be one of the 7 legal values",
     f"SELECT order_id || ' status ' || quote(status) FROM orders "
     f"WHERE status NOT IN ({_statuses})"),
    ("payment transaction type must be payment or refund, amount a non-negative number",
     "SELECT order_id || '[' || pos || '] ' || quote(transaction_type) || ' ' || quote(amount) "
     "FROM order_payments WHERE transaction_type NOT IN ('payment', 'refund') "
     "OR typeof(amount) NOT IN ('real', 'integer') OR amount < 0"),
    ("every order has a payment history starting with a payment",
     "SELECT o.order_id FROM orders o LEFT JOIN order_payments p "
     "ON p.order_id = o.order_id AND p.pos = (SELECT min(pos) FROM order_payments q "
     "WHERE q.order_id = o.order_id) WHERE p.transaction_type IS NOT 'payment'"),
    ("payments use payment methods of the order's owner",
     "SELECT p.order_id || ' uses ' || p.payment_method_id FROM order_payments p "
     "JOIN orders o ON o.order_id = p.order_id LEFT JOIN payment_methods m "
     "ON m.id = p.payment_method_id AND m.user_id = o.user_id WHERE m.id IS NULL"),
    ("user_orders must reference existing orders",
     "SELECT u.user_id || ' lists ' || u.order_id FROM user_orders u "
     "LEFT JOIN orders o ON o.order_id = u.order_id WHERE o.order_id IS NULL"),
    ("every order's owner must exist",
     "SELECT o.order_id || ' owner ' || o.user_id FROM orders o "
     "LEFT JOIN users u ON u.user_id = o.user_id WHERE u.user_id IS NULL"),
    ("cancel_reason must be an allowed reason (on a cancelled order) or NULL",
     f"SELECT order_id || ' ' || quote(cancel_reason) FROM orders WHERE cancel_reason IS NOT NULL "
     f"AND (cancel_reason NOT IN ({_reasons}) OR status != 'cancelled')"),
    ("exchange fields are set exactly when the status is 'exchange requested'",
     "SELECT order_id FROM orders WHERE (status = 'exchange requested') != "
     "(exchange_items IS NOT NULL AND exchange_new_items IS NOT NULL "
     "AND exchange_payment_method_id IS NOT NULL AND exchange_price_difference IS NOT NULL) "
     "OR (status != 'exchange requested' AND (exchange_items IS NOT NULL "
     "OR exchange_new_items IS NOT NULL OR exchange_payment_method_id IS NOT NULL "
     "OR exchange_price_difference IS NOT NULL))"),
    ("exchange price difference must be a number or NULL",
     "SELECT order_id || ' ' || quote(exchange_price_difference) FROM orders "
     "WHERE typeof(exchange_price_difference) NOT IN ('real', 'integer', 'null')"),
    ("return fields are set exactly when the status is 'return requested'",
     "SELECT order_id FROM orders WHERE (status = 'return requested') != "
     "(return_items IS NOT NULL AND return_payment_method_id IS NOT NULL) "
     "OR (status != 'return requested' AND (return_items IS NOT NULL "
     "OR return_payment_method_id IS NOT NULL))"),
    ("variants belong to existing products; prices are non-negative numbers",
     "SELECT v.item_id FROM variants v LEFT JOIN products p ON p.product_id = v.product_id "
     "WHERE p.product_id IS NULL OR typeof(v.price) != 'real' OR v.price < 0"),
    ("order item prices are non-negative numbers",
     "SELECT order_id || '[' || pos || ']' FROM order_items "
     "WHERE typeof(price) != 'real' OR price < 0"),
    ("JSON columns hold valid JSON",
     "SELECT 'variant ' || item_id FROM variants WHERE NOT json_valid(options) "
     "UNION ALL SELECT 'order item ' || order_id || '[' || pos || ']' FROM order_items "
     "WHERE NOT json_valid(options) "
     "UNION ALL SELECT 'fulfillment ' || order_id || '[' || pos || ']' FROM fulfillments "
     "WHERE NOT (json_valid(tracking_ids) AND json_valid(item_ids)) "
     "UNION ALL SELECT 'order ' || order_id FROM orders WHERE "
     "NOT ((exchange_items IS NULL OR json_valid(exchange_items)) "
     "AND (exchange_new_items IS NULL OR json_valid(exchange_new_items)) "
     "AND (return_items IS NULL OR json_valid(return_items)))"),
]


invariants = rule_checker(RULES, flag_more=True)
