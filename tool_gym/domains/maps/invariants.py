"""Rules every maps database keeps (generated data and after any tool call).

``invariants(db)`` returns the problems found (empty when every rule holds).
"""

from __future__ import annotations

import sqlite3

from ...core.rules import rule_checker
from .tools import place_rating

_HHMM = "GLOB '[0-2][0-9]:[0-5][0-9]'"

RULES: list[tuple[str, str]] = [
    ("a place's review count is its number of reviews",
     "SELECT p.place_id FROM places p WHERE p.review_count != (SELECT count(*) FROM reviews r "
     "WHERE r.place_id = p.place_id)"),
    ("a place has a rating exactly when it has reviews",
     "SELECT place_id FROM places WHERE (rating IS NULL) != (review_count = 0)"),
    ("no one reviews a business they claimed",
     "SELECT r.review_id FROM reviews r JOIN places p ON p.place_id = r.place_id "
     "WHERE p.owner_id = r.user_id"),
    ("opening hours are HH:MM times",
     f"SELECT place_id FROM opening_hours WHERE NOT (opens {_HHMM}) OR NOT (closes {_HHMM}) "
     "OR substr(opens, 1, 2) > '23' OR substr(closes, 1, 2) > '23'"),
    ("a trip's stops are places of the trip's city, at HH:MM times",
     "SELECT s.trip_id || ' ' || s.place_id FROM trip_stops s JOIN trips t "
     f"ON t.trip_id = s.trip_id JOIN places p ON p.place_id = s.place_id "
     f"WHERE p.city != t.city OR NOT (s.arrive_at {_HHMM}) OR substr(s.arrive_at, 1, 2) > '23'"),
    ("a trip has at most 10 stops",
     "SELECT trip_id FROM trip_stops GROUP BY trip_id HAVING count(*) > 10"),
    ("a user has at most 20 lists and 30 trips, a list at most 100 places",
     "SELECT user_id FROM saved_lists GROUP BY user_id HAVING count(*) > 20 UNION ALL "
     "SELECT user_id FROM trips GROUP BY user_id HAVING count(*) > 30 UNION ALL "
     "SELECT list_id FROM saved_places GROUP BY list_id HAVING count(*) > 100"),
]


def ratings(db: sqlite3.Connection) -> list[str]:
    """A place's rating is the mean of its reviews, to two decimals."""
    scores: dict[str, list[int]] = {}
    for place_id, rating in db.execute("SELECT place_id, rating FROM reviews ORDER BY rowid"):
        scores.setdefault(place_id, []).append(rating)
    problems = []
    for place_id, rating in db.execute("SELECT place_id, rating FROM places "
                                       "WHERE rating IS NOT NULL ORDER BY rowid"):
        if place_rating(scores.get(place_id, [])) != rating:
            problems.append(f"a place's rating is the mean of its reviews: {place_id}")
            if len(problems) >= 10:
                break
    return problems


invariants = rule_checker(RULES, ratings)
