"""Travel booking data: realistic sizes, every state the tasks need, loader validation.
The checks every domain shares are in tests/domains/test_conformance.py."""

from __future__ import annotations

import sqlite3
from collections import Counter

import pytest

from tool_gym.core.taskkit import split_of
from tool_gym.domains.travel_booking import DOMAIN
from tool_gym.domains.travel_booking.tools import TODAY

from ..databases import fixed_and_drawn_seeds, generated


def test_sizes_are_realistic():
    data = DOMAIN.generate(0)
    assert 150 <= len(data["customers"]) <= 400
    assert 2000 <= sum(map(len, data.values())) <= 15000
    assert len({h["city"] for h in data["hotels"]}) == 10
    splits = Counter(split_of(c["customer_id"]) for c in data["customers"])
    assert splits["test"] >= 20 and splits["train"] >= 100


def test_every_state_is_present():
    data = DOMAIN.generate(0)
    assert {t["status"] for t in data["trips"]} == {"planned", "in_progress", "completed",
                                                    "cancelled"}
    assert {(b["kind"], b["status"]) for b in data["bookings"]} == {
        (k, s) for k in ("hotel", "car", "activity") for s in ("confirmed", "cancelled",
                                                              "completed")}
    assert {p["kind"] for p in data["points_ledger"]} == {"bonus", "earned", "redeemed"}
    # activities within two days (refusals) and points redeemed on upcoming bookings
    assert any(b["kind"] == "activity" and b["status"] == "confirmed"
               and b["start_date"] <= "2025-05-13" for b in data["bookings"])
    assert any(b["points_redeemed"] for b in data["bookings"] if b["start_date"] > TODAY)


@fixed_and_drawn_seeds(0, 7)
def test_generated_data_keeps_the_rules(seed):
    data = generated("travel_booking", seed)
    db = sqlite3.connect(":memory:")
    db.executescript(DOMAIN.schema)
    DOMAIN.load(db, data)
    db.commit()
    assert DOMAIN.invariants(db) == []
    assert db.execute("PRAGMA foreign_key_check").fetchall() == []


def test_load_rejects_bad_data():
    db = sqlite3.connect(":memory:")
    db.executescript(DOMAIN.schema)
    with pytest.raises(ValueError, match="unknown tables"):
        DOMAIN.load(db, {"planets": []})
    with pytest.raises(ValueError, match="columns"):
        DOMAIN.load(db, {"customers": [{"customer_id": "x"}]})
    with pytest.raises(ValueError, match="JSON object"):
        DOMAIN.load(db, [])
