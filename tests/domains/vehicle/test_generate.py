"""Vehicle data: realistic sizes, every kind of record, loader validation.
The checks every domain shares are in tests/domains/test_conformance.py."""

from __future__ import annotations

import sqlite3

import pytest

from tool_gym.domains.vehicle import DOMAIN
from tool_gym.domains.vehicle.tools import TODAY


def test_sizes_are_realistic():
    data = DOMAIN.generate(0)
    assert 200 <= len(data["owners"]) <= 400
    assert 5000 <= sum(map(len, data.values())) <= 20000
    assert {v["powertrain"] for v in data["vehicles"]} == {"electric", "plug_in_hybrid",
                                                          "gasoline"}
    assert {a["status"] for a in data["service_appointments"]} == {"scheduled", "completed",
                                                                  "cancelled"}
    assert {k["status"] for k in data["digital_keys"]} == {"active", "revoked", "expired"}
    assert {s["status"] for s in data["charging_sessions"]} == {"completed", "interrupted"}
    assert {v["locked"] for v in data["vehicles"]} == {0, 1}
    assert any(s["started_at"][:10] < TODAY for s in data["charging_sessions"])


def test_owners_tell_their_vehicles_apart():
    data = DOMAIN.generate(1)
    seen = set()
    for v in data["vehicles"]:
        assert (v["owner_id"], v["model"]) not in seen
        seen.add((v["owner_id"], v["model"]))


def test_load_rejects_bad_data():
    db = sqlite3.connect(":memory:")
    db.executescript(DOMAIN.schema)
    with pytest.raises(ValueError, match="unknown tables"):
        DOMAIN.load(db, {"garages": []})
    with pytest.raises(ValueError, match="columns"):
        DOMAIN.load(db, {"owners": [{"owner_id": "x"}]})
    with pytest.raises(ValueError, match="JSON object"):
        DOMAIN.load(db, [])
