"""The email generator: deterministic, realistic sizes, rules hold; the native JSON round
trip is exact."""

from __future__ import annotations

import json

from tool_gym.core.sandbox import build_database, canonical_json
from tool_gym.domains.email import DOMAIN
from tool_gym.domains.email.generate import LEGAL_HOLD, NOW, generate
from tool_gym.domains.email.io import export


def test_same_seed_same_data_other_seed_other_data():
    a, b = generate(3), generate(3)
    assert json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)
    assert json.dumps(generate(4), sort_keys=True) != json.dumps(a, sort_keys=True)


def test_sizes_and_content():
    data = generate(0)
    assert 200 <= len(data["users"]) <= 400
    messages = list(data["messages"].values())
    assert len(messages) >= 3000
    assert {m["status"] for m in messages} == {"received", "sent", "draft"}
    assert any(m["in_reply_to"] for m in messages) and any(m["attachments"] for m in messages)
    assert all(m["sent_at"] < NOW for m in messages)
    blocked = set(data["blocked_addresses"])
    assert any(m["sender"] in blocked for m in messages)
    assert any(l["name"] == LEGAL_HOLD for l in data["labels"].values())
    assert any(f["parent_id"] for f in data["folders"].values())
    assert data["filters"] and data["contacts"]


def test_invariants_hold_on_generated_data(tpl):
    for db in (tpl.reader(), build_database(DOMAIN, 1)):
        assert DOMAIN.invariants(db) == []
        assert db.execute("PRAGMA foreign_key_check").fetchall() == []


def test_round_trip_is_exact(tmp_path):
    data = generate(0)
    db = build_database(DOMAIN, data=data)
    assert export(db) == data
    path = tmp_path / "email.json"
    path.write_text(json.dumps(export(db)), encoding="utf-8")
    again = build_database(DOMAIN, data=path)
    assert canonical_json(export(again)) == canonical_json(data)
