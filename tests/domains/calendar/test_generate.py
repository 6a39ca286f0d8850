"""The calendar generator: realistic sizes and content. The checks every domain shares
are in tests/domains/test_conformance.py."""

from __future__ import annotations

from tool_gym.domains.calendar.generate import NOW, generate


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
