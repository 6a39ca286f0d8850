"""Social media data: realistic sizes and mixes, loader validation.
The checks every domain shares are in tests/domains/test_conformance.py."""

from __future__ import annotations

import sqlite3

import pytest

from tool_gym.domains.social_media import DOMAIN
from tool_gym.domains.social_media.tools import RESTORE_WINDOW_DAYS, days_before_today


def test_sizes_are_realistic():
    data = DOMAIN.generate(0)
    assert 200 <= len(data["users"]) <= 400 and 20_000 <= sum(map(len, data.values())) <= 60_000
    assert {u["visibility"] for u in data["users"]} == {"public", "private"}
    assert {u["dm_policy"] for u in data["users"]} == {"everyone", "following", "nobody"}
    assert {r["status"] for r in data["follow_requests"]} >= {"pending", "declined", "cancelled"}
    assert {c["status"] for c in data["comments"]} == {"visible", "deleted"}
    ages = [days_before_today(p["deleted_on"]) for p in data["posts"] if p["deleted_on"]]
    assert sum(a <= RESTORE_WINDOW_DAYS for a in ages) >= 40
    assert sum(a > RESTORE_WINDOW_DAYS + 5 for a in ages) >= 40
    assert {r["reason"] for r in data["reports"]} >= {"spam", "harassment"}


def test_every_user_follows_someone_and_private_accounts_get_requests():
    data = DOMAIN.generate(1)
    followers = {f["follower_id"] for f in data["follows"]}
    assert followers == {u["user_id"] for u in data["users"]}
    private = {u["user_id"] for u in data["users"] if u["visibility"] == "private"}
    pending = {r["target_id"] for r in data["follow_requests"] if r["status"] == "pending"}
    assert pending <= private and len(pending) >= len(private) // 2


def test_load_rejects_bad_data():
    db = sqlite3.connect(":memory:")
    db.executescript(DOMAIN.schema)
    with pytest.raises(ValueError, match="unknown tables"):
        DOMAIN.load(db, {"planets": []})
    with pytest.raises(ValueError, match="columns"):
        DOMAIN.load(db, {"users": [{"user_id": "x"}]})
    with pytest.raises(ValueError, match="JSON object"):
        DOMAIN.load(db, [])
