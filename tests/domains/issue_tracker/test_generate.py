"""The issue tracker generator: scale, policy, words, broken states caught. The checks
every domain shares are in tests/domains/test_conformance.py."""

from __future__ import annotations

import pytest

from tool_gym.core.users import _IDENTITY
from tool_gym.domains.issue_tracker import DOMAIN
from tool_gym.domains.issue_tracker.generate import CLOSED, generate


@pytest.fixture(scope="module")
def data() -> dict:
    return generate(0)


def test_scale(data):
    assert len(data["users"]) == 250 and len(data["projects"]) == 12
    assert 700 <= len(data["issues"]) <= 1500
    assert {i["status"] for i in data["issues"]} == {"open", "in_progress", "in_review", "done",
                                                    "wont_fix"}
    assert len(data["issue_links"]) >= 100 and len(data["comments"]) >= 500


def test_generated_data_follows_the_policy(data):
    status = {i["issue_id"]: i["status"] for i in data["issues"]}
    for link in data["issue_links"]:
        if link["kind"] == "blocks" and status[link["target_id"]] == "done":
            assert status[link["source_id"]] in CLOSED
    # some refusals are possible: in review, blocked by an unresolved issue
    assert any(link["kind"] == "blocks" and status[link["target_id"]] == "in_review"
               and status[link["source_id"]] not in CLOSED for link in data["issue_links"])


def test_words_never_sound_like_identity_questions(data):
    for i in data["issues"]:
        assert not _IDENTITY.search(i["title"]), i["title"]
    for c in data["comments"]:
        assert not _IDENTITY.search(c["body"]), c["body"]
    for p in data["projects"]:
        assert not _IDENTITY.search(p["name"])


@pytest.mark.parametrize("sql, problem", [
    ("UPDATE issues SET assignee_id = 'u_cy' WHERE issue_id = 'WEB-1'", "members"),
    ("UPDATE issues SET status = 'done' WHERE issue_id = 'WEB-1'", "resolved_at"),
    ("UPDATE issues SET sprint_id = 'spr_a1' WHERE issue_id = 'WEB-1'", "sprint"),
    ("UPDATE issues SET title = 'Dashboard is slow to load' WHERE issue_id = 'WEB-1'",
     "unique"),
    ("INSERT INTO issue_links VALUES ('WEB-3', 'WEB-1', 'blocks', 'u_ada', '2025-01-01')",
     "cycle"),
    ("INSERT INTO issue_events (issue_id, actor_id, field, old_value, new_value, created_at) "
     "VALUES ('WEB-1', 'u_ada', 'status', 'open', 'done', '2025-01-01')", "workflow"),
    ("UPDATE project_members SET role = 'member' WHERE user_id = 'u_ada' "
     "AND project_id = 'prj_web'", "lead"),
    ("UPDATE issues SET issue_id = 'WEB-77' WHERE issue_id = 'API-1'", "key"),
])
def test_invariants_catch_broken_states(box, sql, problem):
    assert box.check_integrity() == []
    box.db.execute("PRAGMA foreign_keys = OFF")
    box.db.execute(sql)
    assert any(problem in p for p in DOMAIN.invariants(box.db)), DOMAIN.invariants(box.db)
