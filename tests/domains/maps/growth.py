"""The maps' growth recipe (``tests/fuzz/growth.py`` finds it here): report place data
issues with long details and save places with long notes, each call a new row."""
from __future__ import annotations

import sqlite3

ISSUES = ("wrong_hours", "wrong_phone", "wrong_address", "duplicate", "other")


def recipe(db: sqlite3.Connection, text: str):
    """``step(i) -> (tool, arguments)``: calls that add rows every time they succeed."""
    user, list_id = db.execute("SELECT user_id, list_id FROM saved_lists "
                               "ORDER BY list_id").fetchone()
    places = [p for (p,) in db.execute("SELECT place_id FROM places WHERE place_id NOT IN "
                                       "(SELECT place_id FROM saved_places WHERE list_id = ?) "
                                       "AND place_id NOT IN (SELECT place_id FROM place_reports "
                                       "WHERE user_id = ?) ORDER BY place_id", (list_id, user))]

    def step(i: int):
        place = places[(i // 2) % len(places)]
        if i % 2:
            return "save_place", {"list_id": list_id, "place_id": place, "note": text[:1000]}
        return "report_place_issue", {"place_id": place, "user_id": user,
                                      "issue": ISSUES[(i // 2) % len(ISSUES)],
                                      "detail": text[:1000]}
    return step
