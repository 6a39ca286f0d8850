"""The issue tracker tools on the tiny database: every success path and error path.

Every error test is also a rollback test: ``fails`` (tests/domains/calls.py) checks that
the failed call changed nothing.
"""

from __future__ import annotations

from collections import Counter

import pytest

from tool_gym.core.tools import Category
from tool_gym.domains.issue_tracker import DOMAIN
from tool_gym.domains.issue_tracker.generate import NOW
from tool_gym.domains.issue_tracker.tasks import TASKS, WRITE_TOOLS

from ..calls import fails, ok

pytestmark = pytest.mark.usefixtures("rules_kept")  # the rules hold after every test


def issue(box, issue_id):
    row = box.db.execute("SELECT status, priority, assignee_id, sprint_id, due_date, "
                         "resolved_at, updated_at FROM issues WHERE issue_id = ?",
                         (issue_id,)).fetchone()
    return dict(zip(("status", "priority", "assignee_id", "sprint_id", "due_date",
                     "resolved_at", "updated_at"), row))


def history(box, issue_id):
    return [tuple(r) for r in box.db.execute(
        "SELECT field, old_value, new_value, actor_id FROM issue_events WHERE issue_id = ? "
        "ORDER BY event_id", (issue_id,))]


def test_toolbox_shape():
    counts = Counter(t.category for t in DOMAIN.toolbox)
    writes = [t for t in DOMAIN.toolbox if t.category is Category.WRITE]
    assert counts[Category.READ] == 7 and counts[Category.WRITE] == 11
    assert {t.name for t in writes} == set(WRITE_TOOLS)
    for t in writes:
        first = next(iter(t.input_entities))
        assert t.input_entities[first] in ("issue_id", "project_id")
        assert t.input_entities["user_id"] == "user_id" and t.writes


def test_owner_and_policy_hooks(box):
    assert TASKS.owner(box.db, "add_comment", {"issue_id": "WEB-1", "user_id": "u_bob"}) == \
        "u_bob"
    assert TASKS.owner(box.db, "add_comment", {"issue_id": "WEB-1"}) is None
    done = {"issue_id": "WEB-3", "user_id": "u_ada", "status": "done"}
    assert TASKS.policy_violations(box.db, "transition_issue", done) == \
        ["policy:done_while_blocked"]
    assert TASKS.policy_violations(box.db, "transition_issue", {**done, "issue_id": "WEB-5"}) \
        == []
    assert TASKS.policy_violations(box.db, "transition_issue", {**done, "status": "open"}) == []
    assert TASKS.policy_violations(box.db, "transition_issue", {**done, "issue_id": 3}) == []
    ok(box, "transition_issue", issue_id="WEB-1", user_id="u_ada", status="in_progress")
    ok(box, "transition_issue", issue_id="WEB-1", user_id="u_ada", status="in_review")
    ok(box, "transition_issue", issue_id="WEB-1", user_id="u_ada", status="done")
    assert TASKS.policy_violations(box.db, "transition_issue", done) == []  # unblocked now


# ----------------------------------------------------------------------- reads


def test_find_users(box):
    assert ok(box, "find_user_by_email", email=" Ada.Moss@acmesoft.com") == "u_ada"
    assert ok(box, "find_user_by_username", username="BStone") == "u_bob"


def test_user_and_project_details(box):
    ada = ok(box, "get_user_details", user_id="u_ada")
    assert [(p["name"], p["role"]) for p in ada["projects"]] == [("Public API", "member"),
                                                                ("Web Platform", "lead")]
    web = ok(box, "get_project_details", project_id="prj_web")
    assert [m["username"] for m in web["members"]] == ["amoss", "bstone"]
    assert web["labels"] == ["backend", "frontend"]
    assert [(s["name"], s["state"]) for s in web["sprints"]] == [
        ("Sprint 1", "closed"), ("Sprint 2", "active"), ("Sprint 3", "planned")]


def test_search_issues(box):
    ids = lambda rows: [r["issue_id"] for r in rows]  # noqa: E731
    assert ids(ok(box, "search_issues", project_id="prj_web", query="CRASH")) == ["WEB-1"]
    assert ids(ok(box, "search_issues", project_id="prj_web", status="unresolved")) == \
        ["WEB-1", "WEB-2", "WEB-3", "WEB-5"]
    assert ids(ok(box, "search_issues", project_id="prj_web", status="done")) == ["WEB-4"]
    assert ids(ok(box, "search_issues", project_id="prj_web", assignee_id="u_ada")) == \
        ["WEB-1", "WEB-3"]
    assert ok(box, "search_issues", project_id="prj_web", query="login")[0]["assignee"] == \
        "amoss"


def test_issue_details_and_user_issues(box):
    web3 = ok(box, "get_issue_details", issue_id="WEB-3")
    assert web3["links"] == [{"relation": "blocked_by", "issue_id": "WEB-1",
                              "title": "Login page crashes on Safari", "status": "open"}]
    assert web3["sprint"] == {"name": "Sprint 2", "state": "active"}
    assert [h["to"] for h in web3["history"]] == ["open", "in_progress", "in_review"]
    web1 = ok(box, "get_issue_details", issue_id="WEB-1")
    assert web1["links"][0]["relation"] == "blocks" and web1["labels"] == ["frontend"]
    assert web1["comments"][0]["author"] == "bstone"
    assert [i["issue_id"] for i in ok(box, "list_user_issues", user_id="u_ada")] == \
        ["WEB-1", "WEB-3"]
    assert [i["issue_id"] for i in ok(box, "list_user_issues", user_id="u_bob",
                                      status="any")] == ["WEB-2", "WEB-4"]


# ----------------------------------------------------------------------- writes


def test_create_issue(box):
    made = ok(box, "create_issue", project_id="prj_web", user_id="u_bob",
              title="  Search results is slow to load ", type="bug", priority="high")
    assert made["issue_id"] == "WEB-6" and made["status"] == "open"
    assert made["title"] == "Search results is slow to load" and made["assignee_id"] is None
    assert made["reporter_id"] == "u_bob" and made["created_at"] == NOW
    assert history(box, "WEB-6") == [("created", None, "open", "u_bob")]
    assert ok(box, "create_issue", project_id="prj_api", user_id="u_ada", title="Docs",
              type="task", priority="low", description="Write them.")["issue_id"] == "API-2"


def test_transition_issue_follows_the_workflow(box):
    moved = ok(box, "transition_issue", issue_id="WEB-1", user_id="u_bob",
               status="in_progress")
    assert moved["status"] == "in_progress" and moved["updated_at"] == NOW
    assert history(box, "WEB-1")[-1] == ("status", "open", "in_progress", "u_bob")
    fails(box, "transition_issue", "cannot move an issue from in_progress to done",
          issue_id="WEB-1", user_id="u_ada", status="done")
    fails(box, "transition_issue", "already in_progress", issue_id="WEB-1", user_id="u_ada",
          status="in_progress")
    done = ok(box, "transition_issue", issue_id="WEB-5", user_id="u_ada", status="done")
    assert done["resolved_at"] == NOW
    reopened = ok(box, "transition_issue", issue_id="WEB-4", user_id="u_ada", status="open")
    assert reopened["resolved_at"] is None
    ok(box, "transition_issue", issue_id="WEB-2", user_id="u_ada", status="open")


def test_wont_fix_of_a_blocker_needs_a_comment(box):
    fails(box, "transition_issue", "blocks unresolved issues (WEB-3)", issue_id="WEB-1",
          user_id="u_ada", status="wont_fix")
    closed = ok(box, "transition_issue", issue_id="WEB-1", user_id="u_ada",
                status="wont_fix", comment="Safari 15 is no longer supported.")
    assert closed["status"] == "wont_fix" and closed["resolved_at"] == NOW
    assert closed["comments"][-1]["body"] == "Safari 15 is no longer supported."
    # No blocked issue: no comment needed.
    ok(box, "transition_issue", issue_id="API-1", user_id="u_cy", status="wont_fix")


def test_done_while_blocked_is_left_to_the_policy(box):
    # The tool allows it; the policy forbids it (see test_owner_and_policy_hooks).
    assert ok(box, "transition_issue", issue_id="WEB-3", user_id="u_ada",
              status="done")["status"] == "done"


def test_assign_and_unassign(box):
    assigned = ok(box, "assign_issue", issue_id="WEB-5", user_id="u_ada",
                  assignee_id="u_bob")
    assert assigned["assignee"] == "bstone" and assigned["assignee_name"] == "Bob Stone"
    assert history(box, "WEB-5")[-1] == ("assignee", None, "bstone", "u_ada")
    fails(box, "assign_issue", "already assigned to Bob Stone", issue_id="WEB-5",
          user_id="u_ada", assignee_id="u_bob")
    assert ok(box, "unassign_issue", issue_id="WEB-1", user_id="u_bob")["assignee_id"] is None
    fails(box, "unassign_issue", "has no assignee", issue_id="WEB-1", user_id="u_bob")


def test_priority_and_labels(box):
    assert ok(box, "set_issue_priority", issue_id="WEB-1", user_id="u_ada",
              priority="critical")["priority"] == "critical"
    fails(box, "set_issue_priority", "already has critical priority", issue_id="WEB-1",
          user_id="u_ada", priority="critical")
    assert ok(box, "add_label", issue_id="WEB-1", user_id="u_bob",
              label=" Backend")["labels"] == ["backend", "frontend"]
    fails(box, "add_label", "already has the label 'backend'", issue_id="WEB-1",
          user_id="u_bob", label="backend")
    assert ok(box, "remove_label", issue_id="WEB-1", user_id="u_bob",
              label="frontend")["labels"] == ["backend"]
    fails(box, "remove_label", "has no label 'frontend'", issue_id="WEB-1", user_id="u_bob",
          label="frontend")


def test_add_comment(box):
    added = ok(box, "add_comment", issue_id="WEB-2", user_id="u_bob", body=" Looks good. ")
    assert added["body"] == "Looks good." and added["author"] == "bstone"
    assert issue(box, "WEB-2")["updated_at"] == NOW


def test_link_issues(box):
    linked = ok(box, "link_issues", issue_id="WEB-2", user_id="u_ada",
                target_issue_id="WEB-5", kind="blocks")
    assert linked == {"issue_id": "WEB-2", "kind": "blocks", "target_issue_id": "WEB-5",
                      "created_at": NOW}
    fails(box, "link_issues", "already blocks", issue_id="WEB-2", user_id="u_ada",
          target_issue_id="WEB-5", kind="blocks")
    ok(box, "link_issues", issue_id="WEB-3", user_id="u_ada", target_issue_id="WEB-2",
       kind="blocks")
    fails(box, "link_issues", "cannot form a cycle", issue_id="WEB-5", user_id="u_ada",
          target_issue_id="WEB-1", kind="blocks")  # WEB-1 > WEB-3 > WEB-2 > WEB-5
    ok(box, "link_issues", issue_id="WEB-5", user_id="u_ada", target_issue_id="WEB-1",
       kind="relates_to")  # not a blocking link: no cycle rule
    ok(box, "link_issues", issue_id="WEB-2", user_id="u_ada", target_issue_id="API-1",
       kind="relates_to")


def test_move_issue_to_sprint(box):
    moved = ok(box, "move_issue_to_sprint", issue_id="WEB-1", user_id="u_ada",
               sprint_id="spr_w3")
    assert moved["sprint"] == {"name": "Sprint 3", "state": "planned"}
    assert history(box, "WEB-1")[-1] == ("sprint", None, "Sprint 3", "u_ada")
    fails(box, "move_issue_to_sprint", "already in 'Sprint 3'", issue_id="WEB-1",
          user_id="u_ada", sprint_id="spr_w3")


def test_set_due_date(box):
    assert ok(box, "set_due_date", issue_id="WEB-1", user_id="u_ada",
              due_date="2025-07-01")["due_date"] == "2025-07-01"
    fails(box, "set_due_date", "already has that due date", issue_id="WEB-1", user_id="u_ada",
          due_date="2025-07-01")
    for bad in ("2025-13-01", "20250701", "July 1st", "2025-7-1"):
        fails(box, "set_due_date", "YYYY-MM-DD", issue_id="WEB-1", user_id="u_ada",
              due_date=bad)
    assert ok(box, "set_due_date", issue_id="WEB-1", user_id="u_ada",
              due_date="")["due_date"] is None


def test_transfer_and_injection(box):
    assert ok(box, "transfer_to_human_agents", summary="x") == "Transfer successful"
    fails(box, "find_user_by_username", "no user", username="' OR '1'='1")
    made = ok(box, "add_comment", issue_id="WEB-2", user_id="u_bob",
              body="'); DROP TABLE issues; --")
    assert made["body"] == "'); DROP TABLE issues; --"


# ----------------------------------------------------------------------- refusals

#: Calls that the tiny database as it is refuses: tool, what the error says, arguments.
REFUSED = [
    ("find_user_by_email", "no user with email", {"email": "ada@example.com"}),
    ("find_user_by_username", "no user with username", {"username": "ada"}),
    ("find_user_by_username", "NUL", {"username": "amo\x00ss"}),
    ("get_user_details", "not found", {"user_id": "u_zed"}),
    ("get_project_details", "not found", {"project_id": "prj_nope"}),
    ("search_issues", "not found", {"project_id": "prj_nope"}),
    ("search_issues", "must be one of", {"project_id": "prj_web", "status": "closed"}),
    ("get_issue_details", "issue 'WEB-99' not found", {"issue_id": "WEB-99"}),
    ("list_user_issues", "not found", {"user_id": "u_zed"}),
    ("create_issue", "already has an issue titled",
     {"project_id": "prj_web", "user_id": "u_ada", "title": "Dashboard is slow to load",
      "type": "bug", "priority": "low"}),
    ("create_issue", "not a member of the project 'Public API'",
     {"project_id": "prj_api", "user_id": "u_bob", "title": "x", "type": "bug",
      "priority": "low"}),
    ("create_issue", "title must not be empty",
     {"project_id": "prj_web", "user_id": "u_ada", "title": " ", "type": "bug",
      "priority": "low"}),
    ("create_issue", "at most 200",
     {"project_id": "prj_web", "user_id": "u_ada", "title": "x" * 201, "type": "bug",
      "priority": "low"}),
    ("create_issue", "control",
     {"project_id": "prj_web", "user_id": "u_ada", "title": "bad\x07title", "type": "bug",
      "priority": "low"}),
    ("create_issue", "must be one of",
     {"project_id": "prj_web", "user_id": "u_ada", "title": "x", "type": "epic",
      "priority": "low"}),
    ("create_issue", "project 'prj_x' not found",
     {"project_id": "prj_x", "user_id": "u_ada", "title": "x", "type": "bug", "priority": "low"}),
    ("transition_issue", "cannot move an issue from open to in_review",
     {"issue_id": "API-1", "user_id": "u_cy", "status": "in_review"}),
    ("transition_issue", "not a member",
     {"issue_id": "WEB-1", "user_id": "u_cy", "status": "open"}),
    ("transition_issue", "must be one of",
     {"issue_id": "WEB-1", "user_id": "u_ada", "status": "closed"}),
    ("assign_issue", "only project members can be assigned",
     {"issue_id": "WEB-5", "user_id": "u_ada", "assignee_id": "u_cy"}),
    ("assign_issue", "user 'u_zed' not found",
     {"issue_id": "WEB-5", "user_id": "u_ada", "assignee_id": "u_zed"}),
    ("assign_issue", "not a member",
     {"issue_id": "API-1", "user_id": "u_bob", "assignee_id": "u_ada"}),
    ("set_issue_priority", "must be one of",
     {"issue_id": "WEB-1", "user_id": "u_ada", "priority": "urgent"}),
    ("add_label", "its labels are: backend, frontend",
     {"issue_id": "WEB-1", "user_id": "u_bob", "label": "docs"}),
    ("add_comment", "must not be empty", {"issue_id": "WEB-2", "user_id": "u_bob", "body": ""}),
    ("add_comment", "not a member", {"issue_id": "API-1", "user_id": "u_bob", "body": "hi"}),
    ("add_comment", "issue 'WEB-9' not found",
     {"issue_id": "WEB-9", "user_id": "u_bob", "body": "hi"}),
    ("link_issues", "cannot be linked to itself",
     {"issue_id": "WEB-2", "user_id": "u_ada", "target_issue_id": "WEB-2", "kind": "relates_to"}),
    ("link_issues", "cannot form a cycle",
     {"issue_id": "WEB-3", "user_id": "u_ada", "target_issue_id": "WEB-1", "kind": "blocks"}),
    ("link_issues", "not a member",
     {"issue_id": "WEB-2", "user_id": "u_bob", "target_issue_id": "API-1", "kind": "relates_to"}),
    ("link_issues", "must be one of",
     {"issue_id": "WEB-2", "user_id": "u_ada", "target_issue_id": "WEB-1", "kind": "causes"}),
    ("move_issue_to_sprint", "'Sprint 1' is closed",
     {"issue_id": "WEB-1", "user_id": "u_ada", "sprint_id": "spr_w1"}),
    ("move_issue_to_sprint", "sprint of another project",
     {"issue_id": "WEB-1", "user_id": "u_ada", "sprint_id": "spr_a1"}),
    ("move_issue_to_sprint", "sprint 'spr_x' not found",
     {"issue_id": "WEB-1", "user_id": "u_ada", "sprint_id": "spr_x"}),
]


@pytest.mark.parametrize("tool, error, arguments", REFUSED)
def test_refused_calls_say_why(box, tool, error, arguments):
    fails(box, tool, error, **arguments)
