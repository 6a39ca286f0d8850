"""Consistency rules of an issue tracker database that every tool call preserves.

``invariants(db)`` returns a list of problems (empty when the rules hold): SQL rules (at
most ``LIMIT`` offending rows each) and, in Python, that the status history of every issue
follows the workflow and that blocking links form no cycle.
"""

from __future__ import annotations

import sqlite3

from ...core.rules import LIMIT, rule_checker
from .generate import WORKFLOW

__all__ = ["invariants", "RULES"]


#: (description, query returning one text column per offending row).
RULES: list[tuple[str, str]] = [
    ("an issue's id is its project's key and its number",
     "SELECT i.issue_id FROM issues i JOIN projects p ON p.project_id = i.project_id "
     "WHERE i.issue_id != p.key || '-' || i.number"),
    ("assignees are members of the issue's project",
     "SELECT i.issue_id FROM issues i WHERE i.assignee_id IS NOT NULL AND NOT EXISTS ("
     "SELECT 1 FROM project_members m WHERE m.project_id = i.project_id "
     "AND m.user_id = i.assignee_id)"),
    ("reporters are members of the issue's project",
     "SELECT i.issue_id FROM issues i WHERE NOT EXISTS (SELECT 1 FROM project_members m "
     "WHERE m.project_id = i.project_id AND m.user_id = i.reporter_id)"),
    ("resolved_at is set exactly when an issue is done or wont_fix",
     "SELECT issue_id FROM issues WHERE (resolved_at IS NOT NULL) != "
     "(status IN ('done', 'wont_fix'))"),
    ("an issue's sprint belongs to its project",
     "SELECT i.issue_id FROM issues i JOIN sprints s ON s.sprint_id = i.sprint_id "
     "WHERE s.project_id != i.project_id"),
    ("an issue's labels are labels of its project",
     "SELECT l.issue_id || ' ' || l.label FROM issue_labels l "
     "JOIN issues i ON i.issue_id = l.issue_id WHERE l.project_id != i.project_id"),
    ("titles are unique within a project",
     "SELECT project_id || ' ' || title FROM issues GROUP BY project_id, title "
     "HAVING count(*) > 1"),
    ("every project has exactly one lead, its lead_id, who is a member",
     "SELECT p.project_id FROM projects p WHERE (SELECT count(*) FROM project_members m "
     "WHERE m.project_id = p.project_id AND m.role = 'lead') != 1 OR NOT EXISTS ("
     "SELECT 1 FROM project_members m WHERE m.project_id = p.project_id "
     "AND m.user_id = p.lead_id AND m.role = 'lead')"),
    ("a sprint ends after it starts",
     "SELECT sprint_id FROM sprints WHERE end_date < start_date"),
    ("an issue's latest status change leads to its status",
     "SELECT i.issue_id FROM issues i WHERE i.status != coalesce((SELECT e.new_value "
     "FROM issue_events e WHERE e.issue_id = i.issue_id AND e.field = 'status' "
     "ORDER BY e.event_id DESC LIMIT 1), 'open')"),
    ("every issue has exactly one creation event",
     "SELECT i.issue_id FROM issues i WHERE (SELECT count(*) FROM issue_events e "
     "WHERE e.issue_id = i.issue_id AND e.field = 'created') != 1"),
    ("links join two different issues",
     "SELECT source_id || ' ' || target_id FROM issue_links WHERE source_id = target_id"),
]


def _workflow_problems(db: sqlite3.Connection) -> list[str]:
    problems = []
    last: dict[str, str] = {}
    for issue_id, old, new in db.execute(
            "SELECT issue_id, old_value, new_value FROM issue_events WHERE field = 'status' "
            "ORDER BY event_id"):
        before = last.get(issue_id, "open")
        if old != before or new not in WORKFLOW.get(before, ()):
            problems.append(f"status change of {issue_id} from {old} to {new} does not follow "
                            f"the workflow (was {before})")
            if len(problems) >= LIMIT:
                break
        last[issue_id] = new
    return problems


def _cycle_problems(db: sqlite3.Connection) -> list[str]:
    edges: dict[str, list[str]] = {}
    for source, target in db.execute(
            "SELECT source_id, target_id FROM issue_links WHERE kind = 'blocks'"):
        edges.setdefault(source, []).append(target)
    state: dict[str, int] = {}  # 1: on the stack, 2: done
    for start in sorted(edges):
        if state.get(start):
            continue
        stack = [(start, iter(edges.get(start, ())))]
        state[start] = 1
        while stack:
            node, children = stack[-1]
            child = next(children, None)
            if child is None:
                state[node] = 2
                stack.pop()
            elif state.get(child) == 1:
                return [f"blocking links form a cycle through {child}"]
            elif not state.get(child):
                state[child] = 1
                stack.append((child, iter(edges.get(child, ()))))
    return []


invariants = rule_checker(RULES, _workflow_problems, _cycle_problems)
