"""The filesystem task kit: its refusal is a policy rule; descriptions resolve over the plain
data. The checks every domain shares are in tests/domains/test_conformance.py."""

from __future__ import annotations

from ..taskchecks import named_forbidden_write_violations, resolved_entities


def test_forbidden_write_is_a_violation():
    violations = named_forbidden_write_violations("filesystem", "refuse_external_edit")
    assert violations == ["policy:external_edit_share"]


def _resolver(state: dict):
    nodes = {n["node_id"]: n for n in state["nodes"]}

    def live(n):
        while n is not None:
            if n["trashed_at"] is not None:
                return False
            n = nodes.get(n["parent_id"])
        return True

    def parent(n):
        return nodes.get(n["parent_id"])

    def match(user_id, f):
        out = []
        for n in state["nodes"]:
            if n["owner_id"] != user_id:
                continue
            if f.get("in_trash"):
                if n["trashed_at"] is None or n["name"] != f["name"]:
                    continue
                if "deleted_on" in f and n["trashed_at"][:10] != f["deleted_on"]:
                    continue
                out.append(n["node_id"])
                continue
            if f.get("root"):
                if n["parent_id"] is None:
                    out.append(n["node_id"])
                continue
            if n["parent_id"] is None or not live(n) or n["kind"] != f["kind"]:
                continue
            if "name" in f and n["name"] != f["name"]:
                continue
            if "folder" in f and parent(n)["name"] != f["folder"]:
                continue
            if f.get("top_level") and parent(n)["parent_id"] is not None:
                continue
            if "extension" in f and not n["name"].lower().endswith("." + f["extension"]):
                continue
            if "modified_on" in f and n["modified_at"][:10] != f["modified_on"]:
                continue
            out.append(n["node_id"])
        return out

    def resolve(user_id, d):
        f = d.fields
        if d.entity == "user":
            return [u["user_id"] for u in state["users"] if u["email"] == f["email"]]
        if d.entity == "version":
            files = match(user_id, f["file"])
            return [v["version"] for v in state["versions"] if v["node_id"] in files
                    and v["modified_at"][:10] == f["saved_on"]]
        return match(user_id, f)

    return resolve


def test_every_description_resolves_to_its_value_alone(state, tasks):
    resolve = _resolver(state)
    kinds = resolved_entities(tasks, lambda task, d: resolve(task.user_id, d))
    assert kinds["user"] >= len(tasks) and sum(kinds.values()) >= 200 + len(tasks)
