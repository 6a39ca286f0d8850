"""The issue tracker task kit: its refusal is a policy rule; descriptions resolve over the plain
data. The checks every domain shares are in tests/domains/test_conformance.py."""

from __future__ import annotations

from ..taskchecks import named_forbidden_write_violations, resolved_entities


def test_forbidden_write_is_a_violation():
    violations = named_forbidden_write_violations("issue_tracker", "refuse_done_while_blocked")
    assert violations == ["policy:done_while_blocked"]


def _resolver(state: dict):
    projects = {p["project_id"]: p["name"] for p in state["projects"]}
    members = {(m["project_id"], m["user_id"]) for m in state["project_members"]}
    users = state["users"]

    def resolve(user_id, d):
        f = d.fields
        if d.entity == "user":
            if "email" in f:
                return [u["user_id"] for u in users if u["email"] == f["email"]]
            if "username" in f:
                return [u["user_id"] for u in users if u["username"] == f["username"]]
            return [u["user_id"] for u in users if u["full_name"] == f["full_name"]
                    and any(projects[p] == f["project"] and (p, u["user_id"]) in members
                            for p in projects)]
        if d.entity == "project":
            return [p for p, name in projects.items() if name == f["name"]]
        if d.entity == "sprint":
            return [s["sprint_id"] for s in state["sprints"] if s["name"] == f["sprint"]
                    and projects[s["project_id"]] == f["project"]]
        out = []
        for i in state["issues"]:
            if (i["project_id"], user_id) not in members:
                continue
            if "title" in f and i["title"] != f["title"]:
                continue
            if "project" in f and projects[i["project_id"]] != f["project"]:
                continue
            if f.get("reported_by_me") and (i["reporter_id"] != user_id or i["type"] != f["type"]
                                            or i["created_at"][:10] != f["reported_on"]):
                continue
            out.append(i["issue_id"])
        return out

    return resolve


def test_every_description_resolves_to_its_value_alone(state, tasks):
    resolve = _resolver(state)
    kinds = resolved_entities(tasks, lambda task, d: resolve(task.user_id, d))
    assert kinds["user"] >= len(tasks) and sum(kinds.values()) >= 200 + len(tasks)
