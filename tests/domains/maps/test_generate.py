"""Maps data: realistic sizes, opening hours by category, trips within opening hours,
loader validation. The checks every domain shares are in tests/domains/test_conformance.py."""

from __future__ import annotations

import sqlite3
from collections import Counter

import pytest

from tool_gym.core.taskkit import split_of
from tool_gym.domains.maps import DOMAIN
from tool_gym.domains.maps.geo import is_open, weekday


def test_sizes_are_realistic():
    data = DOMAIN.generate(0)
    assert 150 <= len(data["users"]) <= 400 and 300 <= len(data["places"]) <= 600
    assert 5_000 <= sum(map(len, data.values())) <= 20_000
    cities = Counter(p["city"] for p in data["places"])
    assert len(cities) == 6 and min(cities.values()) >= 50
    assert {p["status"] for p in data["places"]} == {"operating", "temporarily_closed",
                                                     "permanently_closed"}
    assert {r["status"] for r in data["place_reports"]} == {"pending", "accepted", "rejected"}
    assert sum(p["owner_id"] is not None for p in data["places"]) >= 15
    splits = Counter(split_of(u["user_id"]) for u in data["users"])
    assert splits["test"] >= 25 and splits["train"] >= 100


def test_hours_follow_the_category():
    data = DOMAIN.generate(1)
    kinds = {p["place_id"]: p["category"] for p in data["places"]}
    hours: dict[str, dict] = {}
    for h in data["opening_hours"]:
        hours.setdefault(h["place_id"], {})[h["weekday"]] = (h["opens"], h["closes"])
        assert h["opens"] < h["closes"]
    for place_id, days in hours.items():
        if kinds[place_id] in ("museum", "bakery"):
            assert 0 not in days  # closed on Mondays
        if kinds[place_id] == "hotel":
            assert len(days) == 7


def test_trip_stops_are_planned_while_the_places_are_open():
    data = DOMAIN.generate(2)
    hours: dict[str, dict] = {}
    for h in data["opening_hours"]:
        hours.setdefault(h["place_id"], {})[h["weekday"]] = (h["opens"], h["closes"])
    trips = {t["trip_id"]: t for t in data["trips"]}
    assert data["trip_stops"]
    for s in data["trip_stops"]:
        day = weekday(trips[s["trip_id"]]["date"])
        assert is_open(hours[s["place_id"]], day, s["arrive_at"]), s


def test_load_rejects_bad_data():
    db = sqlite3.connect(":memory:")
    db.executescript(DOMAIN.schema)
    with pytest.raises(ValueError, match="unknown tables"):
        DOMAIN.load(db, {"roads": []})
    with pytest.raises(ValueError, match="columns"):
        DOMAIN.load(db, {"users": [{"user_id": "x"}]})
    with pytest.raises(ValueError, match="JSON object"):
        DOMAIN.load(db, [])
