"""Smart home data: realistic sizes, every kind and state present, loader validation.
The checks every domain shares are in tests/domains/test_conformance.py."""

from __future__ import annotations

import sqlite3
from collections import Counter

import pytest

from tool_gym.core.taskkit import split_of
from tool_gym.domains.iot_devices import DOMAIN


def test_sizes_are_realistic():
    data = DOMAIN.generate(0)
    assert 150 <= len(data["users"]) <= 400 and 100 <= len(data["homes"]) <= 300
    assert 10_000 <= sum(map(len, data.values())) <= 30_000
    assert {d["kind"] for d in data["devices"]} == {"thermostat", "lock", "light", "camera",
                                                    "plug"}
    assert {m["role"] for m in data["home_members"]} == {"owner", "admin", "member", "guest"}
    assert {d["lock_state"] for d in data["devices"] if d["kind"] == "lock"} == {
        "locked", "unlocked", "jammed"}
    assert {d["status"] for d in data["devices"]} == {"online", "offline"}
    assert {a["status"] for a in data["automations"]} == {"active", "paused"}


def test_every_user_reaches_a_home_and_both_splits_have_users():
    data = DOMAIN.generate(0)
    reached = {m["user_id"] for m in data["home_members"]}
    assert reached == {u["user_id"] for u in data["users"]}
    splits = Counter(split_of(u["user_id"]) for u in data["users"])
    assert splits["test"] >= 25 and splits["train"] >= 100
    shared = Counter(m["home_id"] for m in data["home_members"])
    assert max(shared.values()) <= 8 and sum(n > 1 for n in shared.values()) >= 60


def test_device_state_fits_its_kind():
    for d in DOMAIN.generate(1)["devices"]:
        assert (d["power"] is not None) == (d["kind"] in ("light", "camera", "plug"))
        assert (d["lock_state"] is not None) == (d["kind"] == "lock")
        if d["kind"] == "thermostat":
            assert 10 <= d["target_temp"] <= 30 and (d["target_temp"] * 2).is_integer()
        if d["kind"] == "camera" and d["recording"]:
            assert d["power"] == "on"


def test_load_rejects_bad_data():
    db = sqlite3.connect(":memory:")
    db.executescript(DOMAIN.schema)
    with pytest.raises(ValueError, match="unknown tables"):
        DOMAIN.load(db, {"garages": []})
    with pytest.raises(ValueError, match="columns"):
        DOMAIN.load(db, {"users": [{"user_id": "x"}]})
    with pytest.raises(ValueError, match="JSON object"):
        DOMAIN.load(db, [])


def test_schema_refuses_a_state_of_another_kind():
    db = sqlite3.connect(":memory:")
    db.executescript(DOMAIN.schema)
    db.execute("INSERT INTO users VALUES ('u', 'A', 'B', 'a@b.c', 'ab', '1', '2024-01-01')")
    db.execute("INSERT INTO homes VALUES ('h', 'u', 'H', '1 A St', 'Austin', 'America/Chicago',"
               " 0, '2024-01-01')")
    db.execute("INSERT INTO rooms VALUES ('r', 'h', 'Kitchen', 0)")
    with pytest.raises(sqlite3.IntegrityError):  # a light with a lock state
        db.execute("INSERT INTO devices (device_id, home_id, room_id, kind, name, model, "
                   "firmware, status, power, brightness, lock_state, installed_on) VALUES "
                   "('d', 'h', 'r', 'light', 'L', 'M', '1', 'online', 'on', 50, 'locked', "
                   "'2024-01-01')")
