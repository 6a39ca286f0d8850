"""The calendar generator: deterministic, realistic sizes, rules hold; the native
JSON round trip is exact."""

from __future__ import annotations

import json

from tool_gym.core.sandbox import build_database, canonical_json
from tool_gym.domains.calendar import DOMAIN
from tool_gym.domains.calendar.generate import NOW, generate
from tool_gym.domains.calendar.io import export


def test_same_seed_same_data_other_seed_other_data():
    a, b = generate(3), generate(3)
    assert json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)
    assert json.dumps(generate(4), sort_keys=True) != json.dumps(a, sort_keys=True)


def test_sizes_and_content():
    data = generate(0)
    assert 200 <= len(data["users"]) <= 400
    assert len(data["events"]) >= 1500 and len(data["reminders"]) >= 1000
    events = data["events"].values()
    assert any(e["series_id"] for e in events) and any(e["room_id"] for e in events)
    assert any(e["start"] < NOW for e in events) and any(e["start"] > NOW for e in events)
    assert {e["status"] for e in events} == {"confirmed", "cancelled"}
    rsvps = {a["rsvp"] for e in events for a in e["attendees"]}
    assert rsvps == {"needs_action", "accepted", "declined", "tentative"}
    names = [u["name"] for u in data["users"].values()]
    assert len(set(names)) == len(names)


def test_invariants_hold_on_generated_data(tpl):
    for db in (tpl.reader(), build_database(DOMAIN, 1)):
        assert DOMAIN.invariants(db) == []
        assert db.execute("PRAGMA foreign_key_check").fetchall() == []


def test_round_trip_is_exact(tmp_path):
    data = generate(0)
    db = build_database(DOMAIN, data=data)
    assert export(db) == data
    path = tmp_path / "calendar.json"
    path.write_text(json.dumps(export(db)), encoding="utf-8")
    again = build_database(DOMAIN, data=path)
    assert canonical_json(export(again)) == canonical_json(data)
