"""The team chat generator: realistic sizes and content. The checks every domain shares
are in tests/domains/test_conformance.py."""

from __future__ import annotations

from tool_gym.domains.team_chat.generate import NOW, generate


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
