"""The filesystem tests' database: ``tpl`` is a small hand-written one (independent of the
generator): three users of two organizations, text and binary files, versions, a trashed
file, an edit share inside the organization and a view share outside it. The other fixtures
are shared (tests/domains/conftest.py)."""

from __future__ import annotations

import pytest

from tool_gym.core.sandbox import Template

from ..databases import hand_written

NAME = "filesystem"


def _user(user_id, username, full_name, email, organization, quota):
    return {"user_id": user_id, "username": username, "email": email, "full_name": full_name,
            "organization": organization, "quota_bytes": quota,
            "created_at": "2023-01-02T10:00:00"}


def _node(node_id, owner, parent, name, kind="folder", content=None, size=0, version=0,
          mime=None, modified="2024-05-01T10:00:00", trashed=None):
    if kind == "file" and content is not None:
        size = len(content.encode("utf-8"))
    return {"node_id": node_id, "owner_id": owner, "parent_id": parent, "name": name,
            "kind": kind, "mime_type": mime, "size": size, "content": content,
            "version": version, "created_at": "2024-01-01T10:00:00", "modified_at": modified,
            "trashed_at": trashed}


def _version(node_id, version, content=None, size=None, day="2024-05-01", by="usr_alice"):
    if content is not None:
        size = len(content.encode("utf-8"))
    return {"node_id": node_id, "version": version, "size": size, "content": content,
            "modified_at": f"{day}T10:00:00", "modified_by": by}


TINY = {
    "users": [
        _user("usr_alice", "alicem", "Alice Moss", "alice.moss@northwind.com",
              "Northwind Traders", 10_000),
        _user("usr_bob", "bobs", "Bob Stone", "bob.stone@northwind.com", "Northwind Traders",
              1_000_000),
        _user("usr_carol", "carold", "Carol Diaz", "carol.diaz@contoso.com", "Contoso",
              1_000_000),
    ],
    "nodes": [
        _node("nd_aroot", "usr_alice", None, ""),
        _node("nd_docs", "usr_alice", "nd_aroot", "Documents"),
        _node("nd_notes", "usr_alice", "nd_docs", "notes.txt", "file", "v2 text\n",
              version=2, mime="text/plain", modified="2024-05-03T10:00:00"),
        _node("nd_report", "usr_alice", "nd_docs", "report.pdf", "file", size=4000, version=1,
              mime="application/pdf"),
        _node("nd_old", "usr_alice", "nd_docs", "old.txt", "file", "old\n", version=1,
              mime="text/plain", trashed="2024-06-01T10:00:00"),
        _node("nd_photos", "usr_alice", "nd_aroot", "Photos"),
        _node("nd_2024", "usr_alice", "nd_photos", "2024"),
        _node("nd_beach", "usr_alice", "nd_2024", "beach.jpg", "file", size=3000, version=1,
              mime="image/jpeg"),
        _node("nd_todo", "usr_alice", "nd_aroot", "todo.txt", "file", "buy milk\n",
              version=1, mime="text/plain"),
        _node("nd_broot", "usr_bob", None, ""),
        _node("nd_plan", "usr_bob", "nd_broot", "plan.md", "file", "# Plan\n", version=1,
              mime="text/markdown"),
        _node("nd_croot", "usr_carol", None, ""),
    ],
    "versions": [
        _version("nd_notes", 1, "v1 text\n", day="2024-05-01"),
        _version("nd_notes", 2, "v2 text\n", day="2024-05-03"),
        _version("nd_report", 1, size=4000),
        _version("nd_old", 1, "old\n"),
        _version("nd_beach", 1, size=3000),
        _version("nd_todo", 1, "buy milk\n"),
        _version("nd_plan", 1, "# Plan\n", by="usr_bob"),
    ],
    "shares": [
        {"node_id": "nd_docs", "grantee_id": "usr_bob", "permission": "edit",
         "shared_at": "2024-05-02T10:00:00"},
        {"node_id": "nd_photos", "grantee_id": "usr_carol", "permission": "view",
         "shared_at": "2024-05-02T11:00:00"},
    ],
}


@pytest.fixture(scope="module")
def tpl() -> Template:
    """The hand-written database instead of the generated one."""
    return hand_written(NAME, TINY)
