"""The marketplace growth recipe (``tests/fuzz/growth.py`` finds it here): new listings with
the longest descriptions, and messages to a seller, each adding a row."""

from __future__ import annotations

import sqlite3

from tests.fuzz.growth import Step, _one


def recipe(db: sqlite3.Connection, text: str) -> Step:
    """List an item and ask a seller a question, in turn."""
    member, = _one(db, "SELECT member_id FROM members ORDER BY member_id")
    listing, = _one(db, "SELECT listing_id FROM listings WHERE seller_id != ? "
                        "AND status = 'active' ORDER BY listing_id", member)

    def step(i: int):
        if i % 2:
            return "contact_seller", {"buyer_id": member, "listing_id": listing,
                                      "body": text[:1000]}
        return "create_listing", {"seller_id": member, "title": f"Growth item {i}",
                                  "category": "Toys", "condition": "good", "price": 10.0,
                                  "shipping_cost": 0.0, "description": text[:1000]}
    return step
