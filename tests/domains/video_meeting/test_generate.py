"""Video meeting data: realistic sizes, every state the tasks need, loader validation.
The checks every domain shares are in tests/domains/test_conformance.py."""

from __future__ import annotations

import sqlite3
from collections import Counter

import pytest

from tool_gym.core.taskkit import split_of
from tool_gym.domains.video_meeting import DOMAIN

from ..databases import fixed_and_drawn_seeds, generated


def test_sizes_are_realistic():
    data = DOMAIN.generate(0)
    assert 150 <= len(data["users"]) <= 400 and len(data["organizations"]) == 8
    assert 3000 <= sum(map(len, data.values())) <= 20000
    splits = Counter(split_of(u["user_id"]) for u in data["users"])
    assert splits["test"] >= 20 and splits["train"] >= 100


def test_every_state_is_present():
    data = DOMAIN.generate(0)
    assert {m["status"] for m in data["meetings"]} == {"scheduled", "in_progress", "completed",
                                                       "cancelled"}
    assert {u["plan"] for u in data["users"]} == {"basic", "pro", "business"}
    assert {i["role"] for i in data["invitations"]} == {"attendee", "co_host"}
    assert {s["permission"] for s in data["recording_shares"]} == {"view", "download"}
    domains = {o["domain"] for o in data["organizations"]}
    assert any(i["email"].split("@")[1] not in domains for i in data["invitations"])
    assert data["waiting_room"] and data["breakout_assignments"]
    assert any(m["room_id"] for m in data["meetings"])


@fixed_and_drawn_seeds(0, 5)
def test_generated_data_keeps_the_rules(seed):
    data = generated("video_meeting", seed)
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
        DOMAIN.load(db, {"users": [{"user_id": "x"}]})
    with pytest.raises(ValueError, match="JSON object"):
        DOMAIN.load(db, [])
