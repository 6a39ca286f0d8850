"""The issue tracker tests' database: ``tpl`` is a small hand-written one (independent of
the generator): two projects, three users, sprints in every state, issues in every status, a
blocking link. The other fixtures are shared (tests/domains/conftest.py)."""

from __future__ import annotations

import pytest

from tool_gym.core.sandbox import Template

from ..databases import hand_written

NAME = "issue_tracker"


def _issue(number, key, project, title, kind, status, priority, reporter, assignee,
           sprint=None, resolved=None):
    return {"issue_id": f"{key}-{number}", "project_id": project, "number": number,
            "title": title, "description": f"{title}.", "type": kind, "status": status,
            "priority": priority, "reporter_id": reporter, "assignee_id": assignee,
            "sprint_id": sprint, "due_date": None, "created_at": "2025-01-10T10:00:00",
            "updated_at": "2025-02-01T10:00:00", "resolved_at": resolved}


def _events(issue_id, actor, *statuses):
    events = [(issue_id, actor, "created", None, "open")]
    for old, new in zip(("open", *statuses), statuses):
        events.append((issue_id, actor, "status", old, new))
    return events


_EVENTS = (_events("WEB-1", "u_bob") + _events("WEB-2", "u_bob", "in_progress")
           + _events("WEB-3", "u_ada", "in_progress", "in_review")
           + _events("WEB-4", "u_bob", "in_progress", "in_review", "done")
           + _events("WEB-5", "u_ada", "in_progress", "in_review") + _events("API-1", "u_cy"))

TINY = {
    "users": [
        {"user_id": u, "username": name, "email": email, "full_name": full,
         "created_at": "2024-01-01T10:00:00"}
        for u, name, email, full in (
            ("u_ada", "amoss", "ada.moss@acmesoft.com", "Ada Moss"),
            ("u_bob", "bstone", "bob.stone@acmesoft.com", "Bob Stone"),
            ("u_cy", "cdiaz", "cy.diaz@acmesoft.com", "Cy Diaz"))],
    "projects": [
        {"project_id": "prj_web", "key": "WEB", "name": "Web Platform", "description": "Web.",
         "lead_id": "u_ada", "created_at": "2024-02-01T10:00:00"},
        {"project_id": "prj_api", "key": "API", "name": "Public API", "description": "API.",
         "lead_id": "u_cy", "created_at": "2024-02-01T10:00:00"}],
    "project_members": [
        {"project_id": p, "user_id": u, "role": r, "joined_at": "2024-02-02T10:00:00"}
        for p, u, r in (("prj_web", "u_ada", "lead"), ("prj_web", "u_bob", "member"),
                        ("prj_api", "u_cy", "lead"), ("prj_api", "u_ada", "member"))],
    "sprints": [
        {"sprint_id": s, "project_id": p, "name": n, "start_date": a, "end_date": b,
         "state": st}
        for s, p, n, a, b, st in (
            ("spr_w1", "prj_web", "Sprint 1", "2025-05-12", "2025-05-25", "closed"),
            ("spr_w2", "prj_web", "Sprint 2", "2025-05-26", "2025-06-08", "active"),
            ("spr_w3", "prj_web", "Sprint 3", "2025-06-09", "2025-06-22", "planned"),
            ("spr_a1", "prj_api", "Sprint 7", "2025-05-26", "2025-06-08", "active"))],
    "labels": [{"project_id": p, "name": n, "color": "#0075ca"}
               for p, n in (("prj_web", "backend"), ("prj_web", "frontend"),
                            ("prj_api", "docs"))],
    "issues": [
        _issue(1, "WEB", "prj_web", "Login page crashes on Safari", "bug", "open", "high",
               "u_bob", "u_ada"),
        _issue(2, "WEB", "prj_web", "Dashboard is slow to load", "bug", "in_progress",
               "medium", "u_ada", "u_bob", "spr_w2"),
        _issue(3, "WEB", "prj_web", "CSV export double-counts items", "bug", "in_review",
               "critical", "u_ada", "u_ada", "spr_w2"),
        _issue(4, "WEB", "prj_web", "Dark mode breaks on small screens", "bug", "done", "low",
               "u_bob", "u_bob", "spr_w1", resolved="2025-02-01T10:00:00"),
        _issue(5, "WEB", "prj_web", "Audit log needs unit tests", "task", "in_review",
               "medium", "u_ada", None),
        _issue(1, "API", "prj_api", "Webhooks should log retries", "task", "open", "low",
               "u_cy", "u_cy"),
    ],
    "issue_labels": [{"issue_id": "WEB-1", "project_id": "prj_web", "label": "frontend"}],
    "comments": [{"comment_id": 1, "issue_id": "WEB-1", "author_id": "u_bob",
                  "body": "I can reproduce this on the latest build.",
                  "created_at": "2025-01-11T10:00:00"}],
    "issue_links": [{"source_id": "WEB-1", "target_id": "WEB-3", "kind": "blocks",
                     "created_by": "u_ada", "created_at": "2025-01-12T10:00:00"}],
    "issue_events": [
        {"event_id": i, "issue_id": e[0], "actor_id": e[1], "field": e[2], "old_value": e[3],
         "new_value": e[4], "created_at": "2025-01-20T10:00:00"}
        for i, e in enumerate(_EVENTS, start=1)],
}


@pytest.fixture(scope="module")
def tpl() -> Template:
    """The hand-written database instead of the generated one."""
    return hand_written(NAME, TINY)
