"""Travel booking's growth recipe (``tests/fuzz/growth.py`` finds it here): new trips (each
with its first traveller) and new traveller profiles, with the longest names stored."""
from __future__ import annotations

import sqlite3

from tool_gym.domains.travel_booking.tools import MAX_NAME


def recipe(db: sqlite3.Connection, text: str):
    """``step(i) -> (tool, arguments)``: calls that add rows every time they succeed."""
    (customer,) = db.execute("SELECT customer_id FROM customers ORDER BY customer_id").fetchone()
    name = text[:MAX_NAME]

    def step(i: int):
        if i % 2:
            return "add_traveler_profile", {"customer_id": customer, "first_name": f"Growth{i}",
                                            "last_name": name, "date_of_birth": "1990-01-01",
                                            "relation": "friend"}
        return "create_trip", {"customer_id": customer, "name": name,
                               "destination_city": "Lisbon", "start_date": "2025-06-01",
                               "end_date": "2025-06-05"}
    return step
