"""The team chat generator: deterministic, realistic sizes, rules hold; the native JSON round
trip is exact."""

from __future__ import annotations

import json

from tool_gym.core.sandbox import build_database, canonical_json
from tool_gym.domains.team_chat import DOMAIN
from tool_gym.domains.team_chat.generate import NOW, generate
from tool_gym.domains.team_chat.io import export


def test_same_seed_same_data_other_seed_other_data():
    a, b = generate(3), generate(3)
    assert json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)
    assert json.dumps(generate(4), sort_keys=True) != json.dumps(a, sort_keys=True)


def test_sizes_and_content():
    data = generate(0)
    assert 200 <= len(data["users"]) <= 400
    messages = list(data["messages"].values())
    assert len(messages) >= 3000 and all(m["ts"] < NOW for m in messages)
    assert any(m["thread_parent_id"] for m in messages)
    channels = list(data["channels"].values())
    assert {(c["is_private"], c["is_archived"]) for c in channels} >= {(0, 0), (1, 0), (0, 1)}
    assert {m["role"] for m in data["channel_members"].values()} == {"admin", "member"}
    assert {i["status"] for i in data["invites"].values()} >= {"pending", "declined"}
    assert data["reactions"] and data["pins"]
    assert any(u["status_text"] for u in data["users"].values())
    assert len(data["workspaces"]) == 3


def test_invariants_hold_on_generated_data(tpl):
    for db in (tpl.reader(), build_database(DOMAIN, 1)):
        assert DOMAIN.invariants(db) == []
        assert db.execute("PRAGMA foreign_key_check").fetchall() == []


def test_round_trip_is_exact(tmp_path):
    data = generate(0)
    db = build_database(DOMAIN, data=data)
    assert export(db) == data
    path = tmp_path / "team_chat.json"
    path.write_text(json.dumps(export(db)), encoding="utf-8")
    again = build_database(DOMAIN, data=path)
    assert canonical_json(export(again)) == canonical_json(data)
