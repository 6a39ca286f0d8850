"""Rules every retail chain database keeps (generated data and after any tool call).

``invariants(db)`` returns the problems found (empty when every rule holds).
"""

from __future__ import annotations

from ...core.rules import rule_checker

_WEEK_HOURS = (
    "SELECT s.employee_id || ' ' || date(s.date, '-' || ((strftime('%w', s.date) + 6) % 7) "
    "|| ' days') AS week, sum((cast(substr(s.end_time, 1, 2) AS INTEGER) * 60 + "
    "cast(substr(s.end_time, 4, 2) AS INTEGER)) - (cast(substr(s.start_time, 1, 2) AS INTEGER) "
    "* 60 + cast(substr(s.start_time, 4, 2) AS INTEGER))) AS total, max(CASE "
    "e.employment_type WHEN 'full_time' THEN 2400 ELSE 1500 END) AS cap FROM shifts s JOIN "
    "employees e ON e.employee_id = s.employee_id WHERE s.status != 'cancelled' GROUP BY week")

RULES: list[tuple[str, str]] = [
    ("reserved units are on hand",
     "SELECT store_id || ' ' || product_id FROM inventory WHERE reserved > on_hand"),
    ("reserved units are the items of open pickup orders",
     "SELECT i.store_id || ' ' || i.product_id FROM inventory i WHERE i.reserved != ("
     "SELECT coalesce(sum(x.quantity), 0) FROM pickup_items x JOIN pickup_orders o ON "
     "o.order_id = x.order_id WHERE o.store_id = i.store_id AND x.product_id = i.product_id "
     "AND o.status IN ('pending', 'ready'))"),
    ("a pickup item is a product its store carries",
     "SELECT x.order_id || ' ' || x.product_id FROM pickup_items x JOIN pickup_orders o ON "
     "o.order_id = x.order_id LEFT JOIN inventory i ON i.store_id = o.store_id AND "
     "i.product_id = x.product_id WHERE i.product_id IS NULL"),
    ("prices are whole cents",
     "SELECT store_id || ' ' || product_id FROM inventory "
     "WHERE abs(price * 100 - round(price * 100)) > 1e-6"),
    ("a store's price is its latest price change, else the base price",
     "SELECT i.store_id || ' ' || i.product_id FROM inventory i JOIN products p ON "
     "p.product_id = i.product_id WHERE i.price != coalesce((SELECT c.new_price FROM "
     "price_changes c WHERE c.store_id = i.store_id AND c.product_id = i.product_id ORDER BY "
     "c.changed_at DESC, c.rowid DESC LIMIT 1), p.base_price)"),
    ("a transfer is between two stores that both carry the product",
     "SELECT t.transfer_id FROM transfers t WHERE NOT EXISTS (SELECT 1 FROM inventory i "
     "WHERE i.store_id = t.from_store_id AND i.product_id = t.product_id) OR NOT EXISTS ("
     "SELECT 1 FROM inventory i WHERE i.store_id = t.to_store_id AND i.product_id = "
     "t.product_id)"),
    ("a purchase order is whole cases from the product's supplier",
     "SELECT o.po_id FROM purchase_orders o JOIN products p ON p.product_id = o.product_id "
     "WHERE o.supplier_id != p.supplier_id OR o.quantity % p.case_size != 0"),
    ("a shift is 4 to 10 hours at its employee's store",
     "SELECT s.shift_id FROM shifts s JOIN employees e ON e.employee_id = s.employee_id "
     "WHERE s.store_id != e.store_id OR (cast(substr(s.end_time, 1, 2) AS INTEGER) * 60 + "
     "cast(substr(s.end_time, 4, 2) AS INTEGER)) - (cast(substr(s.start_time, 1, 2) AS "
     "INTEGER) * 60 + cast(substr(s.start_time, 4, 2) AS INTEGER)) NOT BETWEEN 240 AND 600"),
    ("a person works at most one shift a day",
     "SELECT employee_id || ' ' || date FROM shifts WHERE status != 'cancelled' "
     "GROUP BY employee_id, date HAVING count(*) > 1"),
    ("a person's week stays within their hours",
     f"SELECT week FROM ({_WEEK_HOURS}) WHERE total > cap"),
    ("a shift in the past is not still scheduled",
     "SELECT shift_id FROM shifts WHERE status = 'scheduled' AND date < '2024-08-05'"),
]


invariants = rule_checker(RULES)
