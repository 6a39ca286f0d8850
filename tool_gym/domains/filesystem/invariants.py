"""Consistency rules of a filesystem database that every tool call preserves.

``invariants(db)`` returns a list of problems (empty when the rules hold): SQL rules (at
most ``LIMIT`` offending rows each) and a walk of the tree in Python (no cycles, every
node reaches its owner's root, valid and unique names, storage within quota).
"""

from __future__ import annotations

import sqlite3
import unicodedata

from ...core.rules import LIMIT, rule_checker

__all__ = ["invariants", "RULES"]


#: (description, query returning one text column per offending row).
RULES: list[tuple[str, str]] = [
    ("every user has exactly one root folder",
     "SELECT u.user_id FROM users u WHERE (SELECT count(*) FROM nodes n "
     "WHERE n.owner_id = u.user_id AND n.parent_id IS NULL) != 1"),
    ("a root is a folder named '' that is not in the trash",
     "SELECT node_id FROM nodes WHERE parent_id IS NULL AND (kind != 'folder' OR name != '' "
     "OR trashed_at IS NOT NULL)"),
    ("folders have no size, content, mime type or version",
     "SELECT node_id FROM nodes WHERE kind = 'folder' AND (size != 0 OR content IS NOT NULL "
     "OR mime_type IS NOT NULL OR version != 0)"),
    ("a text file's size is the UTF-8 length of its content",
     "SELECT node_id FROM nodes WHERE kind = 'file' AND content IS NOT NULL "
     "AND size != length(CAST(content AS BLOB))"),
    ("a file's current version is its latest saved version, with the same size and content",
     "SELECT n.node_id FROM nodes n LEFT JOIN versions v ON v.node_id = n.node_id "
     "AND v.version = n.version WHERE n.kind = 'file' AND (v.node_id IS NULL "
     "OR v.size != n.size OR v.content IS NOT n.content OR EXISTS (SELECT 1 FROM versions w "
     "WHERE w.node_id = n.node_id AND w.version > n.version))"),
    ("versions are numbered 1..n without gaps",
     "SELECT node_id FROM versions GROUP BY node_id HAVING max(version) != count(*)"),
    ("only files have versions",
     "SELECT v.node_id FROM versions v JOIN nodes n ON n.node_id = v.node_id "
     "WHERE n.kind != 'file'"),
    ("a share is on a non-root item, for a user other than its owner",
     "SELECT s.node_id || ' ' || s.grantee_id FROM shares s JOIN nodes n ON n.node_id = s.node_id "
     "WHERE n.parent_id IS NULL OR n.owner_id = s.grantee_id"),
    ("names are unique among the live items of a folder",
     "SELECT parent_id || ' ' || name FROM nodes WHERE trashed_at IS NULL "
     "AND parent_id IS NOT NULL GROUP BY parent_id, name HAVING count(*) > 1"),
    ("storage used stays within the quota",
     "SELECT n.owner_id FROM nodes n JOIN users u ON u.user_id = n.owner_id "
     "WHERE n.kind = 'file' GROUP BY n.owner_id HAVING sum(n.size) > max(u.quota_bytes)"),
]

_BAD = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}


def _name_problem(name: str) -> str | None:
    if not name.strip() or name != name.strip() or name in (".", "..") or len(name) > 255:
        return "empty, padded, dot or too long"
    if "/" in name or "\\" in name:
        return "contains a separator"
    if unicodedata.normalize("NFC", name) != name:
        return "not NFC"
    if any(unicodedata.category(c) in _BAD for c in name):
        return "contains control characters"
    return None


def _tree_problems(db: sqlite3.Connection) -> list[str]:
    """No cycles (every node reaches a root), parents are folders of the same owner, names
    are valid."""
    rows = db.execute("SELECT node_id, parent_id, name, kind, owner_id FROM nodes").fetchall()
    info = {r[0]: r for r in rows}
    problems = []
    for node_id, parent_id, _, _, owner in rows:
        parent = info.get(parent_id)
        if parent is not None and (parent[3] != "folder" or parent[4] != owner):
            problems.append(f"the parent of {node_id} is not a folder of the same owner")
    ok: set[str] = set()  # nodes known to reach a root
    for start in info:
        path, seen = [], set()
        node = start
        while node is not None and node not in ok:
            if node in seen:
                problems.append(f"cycle in the folder tree through {node}")
                break
            seen.add(node)
            path.append(node)
            row = info.get(node)
            node = row[1] if row else None  # a missing parent is a foreign key problem
        else:
            ok.update(path)
        if len(problems) >= LIMIT:
            return problems
    names = {r[2] for r in rows if r[1] is not None}
    for name in sorted(names):
        problem = _name_problem(name)
        if problem:
            problems.append(f"invalid name {name!r}: {problem}")
    return problems[: 2 * LIMIT]


invariants = rule_checker(RULES, _tree_problems)
