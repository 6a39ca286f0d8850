"""The tools of the issue tracker domain.

Every write takes the issue (or project) it acts on first and the acting (authenticated)
user's id second; the acting user must be a member of the project. The workflow is
enforced: ``open -> in_progress -> in_review -> done``, ``wont_fix`` from any unresolved
status, the back steps ``in_progress -> open`` and ``in_review -> in_progress``, and
reopening (``done`` / ``wont_fix`` -> ``open``). Only project members may be assigned.
Closing an issue as ``wont_fix`` while it blocks an unresolved issue needs a comment that
explains it (the blocked issue can then never be unblocked by this one). Every change is
recorded in the issue's history. A failed precondition raises :class:`ToolError` before
anything is written.
"""

from __future__ import annotations

import datetime as dt
import unicodedata
from typing import Annotated, Literal

from ...core.common_tools import human_transfer_tool
from ...core.ids import next_number
from ...core.rows import fetch_dicts, fetch_row, find_id
from ...core.tools import Category, Entity, Quotas, ToolError, tool
from .generate import CLOSED, NOW, WORKFLOW

#: Growth bounds of one sandbox (see :class:`~tool_gym.core.tools.Quotas`): templates hold
#: about 1,000 issues.
QUOTAS = Quotas(rows={"issues": 10_000, "comments": 20_000, "issue_events": 40_000,
                      "issue_links": 10_000, "issue_labels": 20_000})

UserId = Annotated[str, Entity("user_id")]
ProjectId = Annotated[str, Entity("project_id")]
IssueId = Annotated[str, Entity("issue_id")]
SprintId = Annotated[str, Entity("sprint_id")]

Status = Literal["open", "in_progress", "in_review", "done", "wont_fix"]
Priority = Literal["low", "medium", "high", "critical"]
IssueType = Literal["bug", "task", "story"]
LinkKind = Literal["blocks", "relates_to", "duplicates"]

MAX_TITLE = 200
MAX_BODY = 5000
SEARCH_LIMIT = 50

ISSUE_COLUMNS = ("issue_id", "project_id", "number", "title", "description", "type", "status",
                 "priority", "reporter_id", "assignee_id", "sprint_id", "due_date",
                 "created_at", "updated_at", "resolved_at")
_ISSUE_SELECT = f"SELECT {', '.join(ISSUE_COLUMNS)} FROM issues"
_BAD_CATEGORIES = {"Cc", "Cs", "Co", "Cn"}

ISSUE_RETURNS = {"issue_id": "issue_id", "project_id": "project_id",
                 "assignee_id": "user_id", "reporter_id": "user_id", "sprint_id": "sprint_id"}


# ------------------------------------------------------------------------ helpers


def _issue(db, issue_id: str) -> dict:
    row = fetch_row(db, f"{_ISSUE_SELECT} WHERE issue_id = ?", (issue_id,),
                    f"issue '{issue_id}' not found")
    return dict(zip(ISSUE_COLUMNS, row))


def _user(db, user_id: str) -> dict:
    row = fetch_row(db, "SELECT user_id, username, email, full_name FROM users WHERE user_id = ?",
                    (user_id,), f"user '{user_id}' not found")
    return dict(zip(("user_id", "username", "email", "full_name"), row))


def _project(db, project_id: str) -> dict:
    row = fetch_row(db, "SELECT project_id, key, name, description, lead_id, created_at "
                    "FROM projects WHERE project_id = ?", (project_id,),
                    f"project '{project_id}' not found")
    return dict(zip(("project_id", "key", "name", "description", "lead_id", "created_at"), row))


def _is_member(db, project_id: str, user_id: str) -> bool:
    return db.execute("SELECT 1 FROM project_members WHERE project_id = ? AND user_id = ?",
                      (project_id, user_id)).fetchone() is not None


def _member(db, project_id: str, user_id: str) -> None:
    """The acting user exists and is a member of the project."""
    user = _user(db, user_id)
    if not _is_member(db, project_id, user_id):
        name = _project(db, project_id)["name"]
        raise ToolError(f"{user['full_name']} is not a member of the project '{name}' and "
                        f"cannot change its issues")


def _acting_on(db, issue_id: str, user_id: str) -> dict:
    issue = _issue(db, issue_id)
    _member(db, issue["project_id"], user_id)
    return issue


def _text(value: str, what: str, limit: int) -> str:
    value = unicodedata.normalize("NFC", value).strip()
    if not value:
        raise ToolError(f"the {what} must not be empty")
    if len(value) > limit:
        raise ToolError(f"the {what} must be at most {limit} characters")
    if any(unicodedata.category(c) in _BAD_CATEGORIES and c not in "\n\t" for c in value):
        raise ToolError(f"the {what} must not contain control or unassigned characters")
    return value


def _log(db, issue_id: str, actor: str, field: str, old, new) -> None:
    db.execute("INSERT INTO issue_events (issue_id, actor_id, field, old_value, new_value, "
               "created_at) VALUES (?, ?, ?, ?, ?, ?)", (issue_id, actor, field, old, new, NOW))
    db.execute("UPDATE issues SET updated_at = ? WHERE issue_id = ?", (NOW, issue_id))


def _name_of(db, user_id: str | None) -> str | None:
    """The username of a user id (None for None)."""
    if user_id is None:
        return None
    row = db.execute("SELECT username FROM users WHERE user_id = ?", (user_id,)).fetchone()
    return row[0] if row else None


def _full_name_of(db, user_id: str | None) -> str | None:
    if user_id is None:
        return None
    row = db.execute("SELECT full_name FROM users WHERE user_id = ?", (user_id,)).fetchone()
    return row[0] if row else None


def _unresolved_blocked(db, issue_id: str) -> list[str]:
    """Unresolved issues that ``issue_id`` blocks."""
    return [r[0] for r in db.execute(
        "SELECT l.target_id FROM issue_links l JOIN issues i ON i.issue_id = l.target_id "
        "WHERE l.source_id = ? AND l.kind = 'blocks' AND i.status NOT IN ('done', 'wont_fix') "
        "ORDER BY l.target_id", (issue_id,))]


def unresolved_blockers(db, issue_id: str) -> list[str]:
    """Unresolved issues that block ``issue_id``."""
    return [r[0] for r in db.execute(
        "SELECT l.source_id FROM issue_links l JOIN issues i ON i.issue_id = l.source_id "
        "WHERE l.target_id = ? AND l.kind = 'blocks' AND i.status NOT IN ('done', 'wont_fix') "
        "ORDER BY l.source_id", (issue_id,))]


def _summary(db, issue: dict) -> dict:
    return {"issue_id": issue["issue_id"], "title": issue["title"], "type": issue["type"],
            "status": issue["status"], "priority": issue["priority"],
            "assignee_id": issue["assignee_id"],
            "assignee": _name_of(db, issue["assignee_id"]),
            "assignee_name": _full_name_of(db, issue["assignee_id"]),
            "sprint_id": issue["sprint_id"], "due_date": issue["due_date"]}


def _record(db, issue_id: str) -> dict:
    issue = _issue(db, issue_id)
    record = dict(issue)
    record["project_name"] = _project(db, issue["project_id"])["name"]
    record["reporter"] = _name_of(db, issue["reporter_id"])
    record["reporter_name"] = _full_name_of(db, issue["reporter_id"])
    record["assignee"] = _name_of(db, issue["assignee_id"])
    record["assignee_name"] = _full_name_of(db, issue["assignee_id"])
    sprint = db.execute("SELECT name, state FROM sprints WHERE sprint_id = ?",
                        (issue["sprint_id"],)).fetchone()
    record["sprint"] = {"name": sprint[0], "state": sprint[1]} if sprint else None
    record["labels"] = [r[0] for r in db.execute(
        "SELECT label FROM issue_labels WHERE issue_id = ? ORDER BY label", (issue_id,))]
    links = []
    for source, target, kind in db.execute(
            "SELECT source_id, target_id, kind FROM issue_links WHERE source_id = ? "
            "OR target_id = ? ORDER BY rowid", (issue_id, issue_id)):
        outgoing = source == issue_id
        other = _issue(db, target if outgoing else source)
        relation = kind if outgoing else {"blocks": "blocked_by", "duplicates": "duplicated_by",
                                          "relates_to": "relates_to"}[kind]
        links.append({"relation": relation, "issue_id": other["issue_id"],
                      "title": other["title"], "status": other["status"]})
    record["links"] = links
    record["comments"] = fetch_dicts(
        db, ("comment_id", "author", "body", "created_at"),
        "SELECT c.comment_id, u.username, c.body, c.created_at FROM comments c "
        "JOIN users u ON u.user_id = c.author_id WHERE c.issue_id = ? ORDER BY c.comment_id",
        (issue_id,))
    record["history"] = fetch_dicts(
        db, ("field", "from", "to", "by", "at"),
        "SELECT e.field, e.old_value, e.new_value, u.username, e.created_at FROM issue_events e "
        "JOIN users u ON u.user_id = e.actor_id WHERE e.issue_id = ? ORDER BY e.event_id",
        (issue_id,))
    return record


# ------------------------------------------------------------------------ reads


def _find_user(db, column: str, value: str, what: str) -> str:
    return find_id(db, "users", "user_id", column, value.strip().lower(),
                   f"no user with {what} '{value[:200]}'")


@tool(Category.READ, returns={".": UserId})
def find_user_by_email(db, email: str) -> str:
    """Find the id of a user from their email address. Use it (or find_user_by_username)
    to authenticate the user at the start of the conversation.

    Args:
        email: The user's email address, such as 'ada.moss@acmesoft.com'.
    """
    return _find_user(db, "email", email, "email")


@tool(Category.READ, returns={".": UserId})
def find_user_by_username(db, username: str) -> str:
    """Find the id of a user from their username. Use it (or find_user_by_email) to
    authenticate the user at the start of the conversation.

    Args:
        username: The user's username, such as 'amoss'.
    """
    return _find_user(db, "username", username, "username")


@tool(Category.READ, returns={"user_id": UserId, "projects.project_id": ProjectId})
def get_user_details(db, user_id: UserId) -> dict:
    """Get a user's profile and the projects they are a member of (with their role).

    Args:
        user_id: The user's id, such as 'u_1a2b3c'.
    """
    user = _user(db, user_id)
    user["projects"] = fetch_dicts(
        db, ("project_id", "key", "name", "role"),
        "SELECT p.project_id, p.key, p.name, m.role FROM project_members m "
        "JOIN projects p ON p.project_id = m.project_id WHERE m.user_id = ? ORDER BY p.name",
        (user_id,))
    return user


@tool(Category.READ, returns={"project_id": ProjectId, "lead_id": UserId,
                              "members.user_id": UserId, "sprints.sprint_id": SprintId})
def get_project_details(db, project_id: ProjectId) -> dict:
    """Get a project: its lead, members, labels and sprints (with dates and state).

    Args:
        project_id: The project's id, such as 'prj_1a2b'.
    """
    project = _project(db, project_id)
    project["members"] = fetch_dicts(
        db, ("user_id", "username", "full_name", "role"),
        "SELECT u.user_id, u.username, u.full_name, m.role FROM project_members m "
        "JOIN users u ON u.user_id = m.user_id WHERE m.project_id = ? ORDER BY u.full_name",
        (project_id,))
    project["labels"] = [r[0] for r in db.execute(
        "SELECT name FROM labels WHERE project_id = ? ORDER BY name", (project_id,))]
    project["sprints"] = fetch_dicts(
        db, ("sprint_id", "name", "start_date", "end_date", "state"),
        "SELECT sprint_id, name, start_date, end_date, state FROM sprints "
        "WHERE project_id = ? ORDER BY start_date", (project_id,))
    return project


def _issue_query(column: str, value: str, status: str) -> tuple[str, list]:
    """SQL and parameters selecting the issues whose ``column`` is ``value`` and whose
    status matches ``status`` (a status, 'unresolved' or 'any')."""
    sql = f"{_ISSUE_SELECT} WHERE {column} = ?"
    params: list = [value]
    if status == "unresolved":
        sql += " AND status NOT IN ('done', 'wont_fix')"
    elif status != "any":
        sql += " AND status = ?"
        params.append(status)
    return sql, params


@tool(Category.READ, returns={"issue_id": IssueId, "assignee_id": UserId,
                              "sprint_id": SprintId}, needs=("issue_id",))
def search_issues(db, project_id: ProjectId, query: str = "",
                  status: Literal["any", "unresolved", "open", "in_progress", "in_review",
                                  "done", "wont_fix"] = "any",
                  assignee_id: UserId = "") -> list:
    """Search the issues of a project by words of their title, status and assignee.
    At most 50 issues are returned, by issue number.

    Args:
        project_id: The project's id.
        query: Text the title must contain (case-insensitive); empty for any title.
        status: A status, 'unresolved' (not done and not won't fix) or 'any' (default).
        assignee_id: Only issues assigned to this user id; empty for any.
    """
    _project(db, project_id)
    sql, params = _issue_query("project_id", project_id, status)
    if assignee_id:
        sql += " AND assignee_id = ?"
        params.append(assignee_id)
    needle = unicodedata.normalize("NFC", query).strip().casefold()
    out = []
    for row in db.execute(sql + " ORDER BY number", params):
        issue = dict(zip(ISSUE_COLUMNS, row))
        if needle and needle not in issue["title"].casefold():
            continue
        out.append(_summary(db, issue))
        if len(out) >= SEARCH_LIMIT:
            break
    return out


@tool(Category.READ, returns=ISSUE_RETURNS, needs=("issue_id", "comment", "issue_link"))
def get_issue_details(db, issue_id: IssueId) -> dict:
    """Get everything about an issue: fields, labels, links (blocks / blocked by ...),
    comments and the history of its changes.

    Args:
        issue_id: The issue's id, such as 'WEB-42'.
    """
    return _record(db, issue_id)


@tool(Category.READ, returns={"issue_id": IssueId, "project_id": ProjectId},
      needs=("issue_id",))
def list_user_issues(db, user_id: UserId,
                     status: Literal["any", "unresolved", "open", "in_progress", "in_review",
                                     "done", "wont_fix"] = "unresolved") -> list:
    """List the issues assigned to a user, in all projects.

    Args:
        user_id: The user's id.
        status: A status, 'unresolved' (the default: not done and not won't fix) or 'any'.
    """
    _user(db, user_id)
    sql, params = _issue_query("assignee_id", user_id, status)
    out = []
    for row in db.execute(sql + " ORDER BY project_id, number", params):
        issue = dict(zip(ISSUE_COLUMNS, row))
        out.append({**_summary(db, issue), "project_id": issue["project_id"]})
    return out


# ------------------------------------------------------------------------ writes


@tool(Category.WRITE, returns=ISSUE_RETURNS, writes=("issue_id",))
def create_issue(db, project_id: ProjectId, user_id: UserId, title: str, type: IssueType,
                 priority: Priority, description: str = "") -> dict:
    """Create a new issue in a project; it starts open and unassigned, reported by the
    acting user.

    Args:
        project_id: The project's id.
        user_id: The id of the authenticated user (a member of the project).
        title: A short title (unique among the project's issues).
        type: 'bug', 'task' or 'story'.
        priority: 'low', 'medium', 'high' or 'critical'.
        description: A longer description (optional).
    """
    project = _project(db, project_id)
    _member(db, project_id, user_id)
    title = _text(title, "title", MAX_TITLE)
    description = _text(description, "description", MAX_BODY) if description.strip() else ""
    if db.execute("SELECT 1 FROM issues WHERE project_id = ? AND title = ?",
                  (project_id, title)).fetchone():
        raise ToolError(f"the project '{project['name']}' already has an issue titled "
                        f"'{title}'")
    number = next_number(db, "issues", "number", start=1, scope={"project_id": project_id})
    issue_id = f"{project['key']}-{number}"
    db.execute(f"INSERT INTO issues ({', '.join(ISSUE_COLUMNS)}) VALUES "
               f"(?, ?, ?, ?, ?, ?, 'open', ?, ?, NULL, NULL, NULL, ?, ?, NULL)",
               (issue_id, project_id, number, title, description, type, priority, user_id,
                NOW, NOW))
    _log(db, issue_id, user_id, "created", None, "open")
    return _record(db, issue_id)


@tool(Category.WRITE, returns=ISSUE_RETURNS, writes=("issue_id", "comment"),
      needs=("issue_link",))
def transition_issue(db, issue_id: IssueId, user_id: UserId, status: Status,
                     comment: str = "") -> dict:
    """Move an issue to another status along the workflow: open -> in_progress ->
    in_review -> done; wont_fix from any unresolved status; back from in_progress to open
    and from in_review to in_progress; done or wont_fix back to open (reopen).

    Args:
        issue_id: The issue's id.
        user_id: The id of the authenticated user (a member of the project).
        status: The new status.
        comment: A comment added with the change; required when closing as wont_fix an
            issue that blocks unresolved issues.
    """
    issue = _acting_on(db, issue_id, user_id)
    old = issue["status"]
    if status == old:
        raise ToolError(f"the issue is already {old}")
    if status not in WORKFLOW[old]:
        allowed = ", ".join(WORKFLOW[old])
        raise ToolError(f"cannot move an issue from {old} to {status}; from {old} it can "
                        f"only go to: {allowed}")
    body = _text(comment, "comment", MAX_BODY) if comment.strip() else ""
    if status == "wont_fix" and not body:
        blocked = _unresolved_blocked(db, issue_id)
        if blocked:
            raise ToolError(f"the issue blocks unresolved issues ({', '.join(blocked)}); "
                            f"closing it as wont_fix needs a comment that explains why")
    resolved = NOW if status in CLOSED else None
    db.execute("UPDATE issues SET status = ?, resolved_at = ? WHERE issue_id = ?",
               (status, resolved, issue_id))
    _log(db, issue_id, user_id, "status", old, status)
    if body:
        db.execute("INSERT INTO comments (issue_id, author_id, body, created_at) "
                   "VALUES (?, ?, ?, ?)", (issue_id, user_id, body, NOW))
    return _record(db, issue_id)


@tool(Category.WRITE, returns=ISSUE_RETURNS, writes=("issue_id",))
def assign_issue(db, issue_id: IssueId, user_id: UserId, assignee_id: UserId) -> dict:
    """Assign an issue to a member of its project (replacing the current assignee).

    Args:
        issue_id: The issue's id.
        user_id: The id of the authenticated user (a member of the project).
        assignee_id: The user id of the new assignee (a member of the project).
    """
    issue = _acting_on(db, issue_id, user_id)
    assignee = _user(db, assignee_id)
    if not _is_member(db, issue["project_id"], assignee_id):
        raise ToolError(f"{assignee['full_name']} is not a member of the project; only "
                        f"project members can be assigned")
    if issue["assignee_id"] == assignee_id:
        raise ToolError(f"the issue is already assigned to {assignee['full_name']}")
    db.execute("UPDATE issues SET assignee_id = ? WHERE issue_id = ?", (assignee_id, issue_id))
    _log(db, issue_id, user_id, "assignee", _name_of(db, issue["assignee_id"]),
         assignee["username"])
    return _record(db, issue_id)


@tool(Category.WRITE, returns=ISSUE_RETURNS, writes=("issue_id",))
def unassign_issue(db, issue_id: IssueId, user_id: UserId) -> dict:
    """Remove the assignee of an issue.

    Args:
        issue_id: The issue's id.
        user_id: The id of the authenticated user (a member of the project).
    """
    issue = _acting_on(db, issue_id, user_id)
    if issue["assignee_id"] is None:
        raise ToolError("the issue has no assignee")
    db.execute("UPDATE issues SET assignee_id = NULL WHERE issue_id = ?", (issue_id,))
    _log(db, issue_id, user_id, "assignee", _name_of(db, issue["assignee_id"]), None)
    return _record(db, issue_id)


@tool(Category.WRITE, returns=ISSUE_RETURNS, writes=("issue_id",))
def set_issue_priority(db, issue_id: IssueId, user_id: UserId, priority: Priority) -> dict:
    """Change the priority of an issue.

    Args:
        issue_id: The issue's id.
        user_id: The id of the authenticated user (a member of the project).
        priority: 'low', 'medium', 'high' or 'critical'.
    """
    issue = _acting_on(db, issue_id, user_id)
    if issue["priority"] == priority:
        raise ToolError(f"the issue already has {priority} priority")
    db.execute("UPDATE issues SET priority = ? WHERE issue_id = ?", (priority, issue_id))
    _log(db, issue_id, user_id, "priority", issue["priority"], priority)
    return _record(db, issue_id)


def _label(db, issue: dict, label: str) -> str:
    label = unicodedata.normalize("NFC", label).strip().lower()
    if db.execute("SELECT 1 FROM labels WHERE project_id = ? AND name = ?",
                  (issue["project_id"], label)).fetchone() is None:
        known = ", ".join(r[0] for r in db.execute(
            "SELECT name FROM labels WHERE project_id = ? ORDER BY name", (issue["project_id"],)))
        raise ToolError(f"the project has no label '{label[:100]}'; its labels are: {known}")
    return label


@tool(Category.WRITE, returns=ISSUE_RETURNS, writes=("issue_id",))
def add_label(db, issue_id: IssueId, user_id: UserId, label: str) -> dict:
    """Add one of the project's labels to an issue.

    Args:
        issue_id: The issue's id.
        user_id: The id of the authenticated user (a member of the project).
        label: The label, one of the project's labels (see get_project_details).
    """
    issue = _acting_on(db, issue_id, user_id)
    label = _label(db, issue, label)
    if db.execute("SELECT 1 FROM issue_labels WHERE issue_id = ? AND label = ?",
                  (issue_id, label)).fetchone():
        raise ToolError(f"the issue already has the label '{label}'")
    db.execute("INSERT INTO issue_labels VALUES (?, ?, ?)", (issue_id, issue["project_id"], label))
    _log(db, issue_id, user_id, "label", None, label)
    return _record(db, issue_id)


@tool(Category.WRITE, returns=ISSUE_RETURNS, writes=("issue_id",))
def remove_label(db, issue_id: IssueId, user_id: UserId, label: str) -> dict:
    """Remove a label from an issue.

    Args:
        issue_id: The issue's id.
        user_id: The id of the authenticated user (a member of the project).
        label: The label to remove.
    """
    _acting_on(db, issue_id, user_id)
    label = unicodedata.normalize("NFC", label).strip().lower()
    if db.execute("DELETE FROM issue_labels WHERE issue_id = ? AND label = ?",
                  (issue_id, label)).rowcount == 0:
        raise ToolError(f"the issue has no label '{label[:100]}'")
    _log(db, issue_id, user_id, "label", label, None)
    return _record(db, issue_id)


@tool(Category.WRITE, returns={"issue_id": IssueId}, writes=("comment",))
def add_comment(db, issue_id: IssueId, user_id: UserId, body: str) -> dict:
    """Add a comment to an issue, written by the acting user.

    Args:
        issue_id: The issue's id.
        user_id: The id of the authenticated user (a member of the project).
        body: The text of the comment.
    """
    _acting_on(db, issue_id, user_id)
    body = _text(body, "comment", MAX_BODY)
    cursor = db.execute("INSERT INTO comments (issue_id, author_id, body, created_at) "
                        "VALUES (?, ?, ?, ?)", (issue_id, user_id, body, NOW))
    db.execute("UPDATE issues SET updated_at = ? WHERE issue_id = ?", (NOW, issue_id))
    return {"comment_id": cursor.lastrowid, "issue_id": issue_id, "author": _user(
        db, user_id)["username"], "body": body, "created_at": NOW}


def _blocks_path(db, start: str, goal: str) -> bool:
    """Whether ``start`` already blocks ``goal``, directly or through other issues."""
    seen, stack = set(), [start]
    while stack:
        node = stack.pop()
        if node == goal:
            return True
        if node in seen:
            continue
        seen.add(node)
        stack.extend(r[0] for r in db.execute(
            "SELECT target_id FROM issue_links WHERE source_id = ? AND kind = 'blocks'", (node,)))
    return False


@tool(Category.WRITE, returns={"issue_id": IssueId, "target_issue_id": IssueId},
      writes=("issue_link",))
def link_issues(db, issue_id: IssueId, user_id: UserId, target_issue_id: IssueId,
                kind: LinkKind) -> dict:
    """Link two issues: '<issue> blocks <target>', '<issue> relates_to <target>' or
    '<issue> duplicates <target>'. Blocking links cannot form a cycle.

    Args:
        issue_id: The id of the first issue (the one that blocks, relates or duplicates).
        user_id: The id of the authenticated user (a member of both projects).
        target_issue_id: The id of the other issue.
        kind: 'blocks', 'relates_to' or 'duplicates'.
    """
    _acting_on(db, issue_id, user_id)
    _acting_on(db, target_issue_id, user_id)
    if issue_id == target_issue_id:
        raise ToolError("an issue cannot be linked to itself")
    if db.execute("SELECT 1 FROM issue_links WHERE source_id = ? AND target_id = ? AND kind = ?",
                  (issue_id, target_issue_id, kind)).fetchone():
        raise ToolError(f"{issue_id} already {kind} {target_issue_id}")
    if kind == "blocks" and _blocks_path(db, target_issue_id, issue_id):
        raise ToolError(f"{target_issue_id} already blocks {issue_id} (directly or through "
                        f"other issues); blocking links cannot form a cycle")
    db.execute("INSERT INTO issue_links VALUES (?, ?, ?, ?, ?)",
               (issue_id, target_issue_id, kind, user_id, NOW))
    _log(db, issue_id, user_id, "link", None, f"{kind} {target_issue_id}")
    return {"issue_id": issue_id, "kind": kind, "target_issue_id": target_issue_id,
            "created_at": NOW}


@tool(Category.WRITE, returns=ISSUE_RETURNS, writes=("issue_id",))
def move_issue_to_sprint(db, issue_id: IssueId, user_id: UserId, sprint_id: SprintId) -> dict:
    """Put an issue into a sprint of its project that is planned or active (not closed).

    Args:
        issue_id: The issue's id.
        user_id: The id of the authenticated user (a member of the project).
        sprint_id: The sprint's id (see get_project_details).
    """
    issue = _acting_on(db, issue_id, user_id)
    row = fetch_row(db, "SELECT project_id, name, state FROM sprints WHERE sprint_id = ?",
                    (sprint_id,), f"sprint '{sprint_id}' not found")
    project_id, name, state = row
    if project_id != issue["project_id"]:
        raise ToolError(f"'{name}' is a sprint of another project")
    if state == "closed":
        raise ToolError(f"'{name}' is closed; issues can only be added to planned or active "
                        f"sprints")
    if issue["sprint_id"] == sprint_id:
        raise ToolError(f"the issue is already in '{name}'")
    old = db.execute("SELECT name FROM sprints WHERE sprint_id = ?",
                     (issue["sprint_id"],)).fetchone()
    db.execute("UPDATE issues SET sprint_id = ? WHERE issue_id = ?", (sprint_id, issue_id))
    _log(db, issue_id, user_id, "sprint", old[0] if old else None, name)
    return _record(db, issue_id)


@tool(Category.WRITE, returns=ISSUE_RETURNS, writes=("issue_id",))
def set_due_date(db, issue_id: IssueId, user_id: UserId, due_date: str) -> dict:
    """Set or clear the due date of an issue.

    Args:
        issue_id: The issue's id.
        user_id: The id of the authenticated user (a member of the project).
        due_date: The date as YYYY-MM-DD, or an empty string to clear it.
    """
    issue = _acting_on(db, issue_id, user_id)
    value = due_date.strip() or None
    if value is not None:
        try:
            value = dt.date.fromisoformat(value).isoformat()
        except ValueError:
            raise ToolError(f"'{due_date[:40]}' is not a date of the form YYYY-MM-DD") from None
        if len(due_date.strip()) != 10:
            raise ToolError(f"'{due_date[:40]}' is not a date of the form YYYY-MM-DD")
    if value == issue["due_date"]:
        raise ToolError("the issue already has that due date")
    db.execute("UPDATE issues SET due_date = ? WHERE issue_id = ?", (value, issue_id))
    _log(db, issue_id, user_id, "due_date", issue["due_date"], value)
    return _record(db, issue_id)


transfer_to_human_agents = human_transfer_tool(
    "Transfer the user to a human agent, with a summary of their issue. Only do this when "
    "the user asks for a human or the request cannot be handled with the tools.",
    "A short summary of the user's issue.")
