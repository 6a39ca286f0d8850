"""The shopping domain's growth recipe (``tests/fuzz/growth.py`` collects it): calls that add a
row every time they succeed, so that the quota tests reach the quotas."""

from __future__ import annotations

import sqlite3


def recipe(db: sqlite3.Connection, text: str):
    """Add addresses, wishlist products and reviews with the longest texts, each call on a
    customer and product it never used before."""
    customers = [c for (c,) in db.execute(
        "SELECT customer_id FROM customers c WHERE (SELECT count(*) FROM addresses a "
        "WHERE a.customer_id = c.customer_id) < 8 ORDER BY customer_id")]
    wishes = db.execute(
        "SELECT c.customer_id, p.product_id FROM customers c JOIN products p "
        "WHERE p.status = 'active' AND NOT EXISTS (SELECT 1 FROM wishlist_items w "
        "WHERE w.customer_id = c.customer_id AND w.product_id = p.product_id) "
        "ORDER BY p.product_id, c.customer_id LIMIT 400").fetchall()
    reviews = db.execute(
        "SELECT DISTINCT o.customer_id, i.product_id FROM orders o JOIN order_items i "
        "ON i.order_id = o.order_id WHERE o.status = 'delivered' AND NOT EXISTS (SELECT 1 "
        "FROM reviews v WHERE v.customer_id = o.customer_id AND v.product_id = i.product_id) "
        "ORDER BY o.customer_id, i.product_id LIMIT 400").fetchall()

    def step(i: int):
        n = i // 3
        if i % 3 == 0:
            return "add_address", {"customer_id": customers[n % len(customers)],
                                   "label": f"Growth {i}", "street": text[:120],
                                   "city": "Springfield", "state": "IL", "zip": "62701"}
        if i % 3 == 1:
            customer, product = wishes[n % len(wishes)]
            return "add_to_wishlist", {"customer_id": customer, "product_id": product}
        customer, product = reviews[n % len(reviews)]
        return "write_review", {"customer_id": customer, "product_id": product, "rating": 4,
                                "title": text[:120], "body": text[:2_000]}
    return step
