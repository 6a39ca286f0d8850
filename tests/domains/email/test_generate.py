"""The email generator: realistic sizes and content. The checks every domain shares are
in tests/domains/test_conformance.py."""

from __future__ import annotations

from tool_gym.domains.email.generate import LEGAL_HOLD, NOW, generate


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
