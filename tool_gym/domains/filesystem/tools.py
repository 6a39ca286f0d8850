"""The tools of the filesystem domain: a virtual file tree held entirely in SQLite.

Nothing here touches the host's file system: a "path" is a plain string that
:func:`parse_path` splits into names, which are looked up among the rows of ``nodes``
under the user's own root folder. Absolute and relative paths both start at that root;
``.`` is ignored, ``..`` goes up one folder and an error is raised when it would leave the
root; NUL and other control or format characters, backslashes, and overlong paths are
errors. Names are compared after Unicode NFC normalization.

Access: the owner of a tree may do anything in it. A share gives another user ``view``
(list, read, copy from) or ``edit`` (also create, write, rename) access to a node and
everything below it. Only the owner may move, delete, restore, share or permanently
delete. Every write tool takes the acting (authenticated) user's id after the node it
acts on; it is checked against these rules. A failed precondition raises
:class:`ToolError` before anything is written.
"""

from __future__ import annotations

import hashlib
import itertools
import unicodedata
from typing import Annotated, Literal

from ...core.common_tools import human_transfer_tool
from ...core.ids import first_free, next_number
from ...core.rows import fetch_row, find_id
from ...core.tools import Category, Entity, Quotas, ToolError, tool
from .generate import NOW, mime_of

UserId = Annotated[str, Entity("user_id")]
NodeId = Annotated[str, Entity("node_id")]
FolderId = Annotated[str, Entity("node_id")]

MAX_PATH = 4096
MAX_NAME = 255
MAX_DEPTH = 64
SEARCH_LIMIT = 50

NODE_COLUMNS = ("node_id", "owner_id", "parent_id", "name", "kind", "mime_type", "size",
                "content", "version", "created_at", "modified_at", "trashed_at")
_NODE_SELECT = f"SELECT {', '.join(NODE_COLUMNS)} FROM nodes"
_BAD_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}
_RANK = {None: 0, "view": 1, "edit": 2, "owner": 3}

NODE_RETURNS = {"node_id": "node_id", "parent_id": "node_id", "owner_id": "user_id"}

#: Growth bounds of one sandbox (see :class:`~tool_gym.core.tools.Quotas`): a copy adds at
#: most ``batch`` nodes (a copy costs about 40 us a node), the tree holds at most 20,000
#: (templates hold about 4,000).
QUOTAS = Quotas(rows={"nodes": 20_000, "versions": 40_000, "shares": 10_000}, batch=500)


# ------------------------------------------------------------------------ helpers


def _row_node(row) -> dict | None:
    return None if row is None else dict(zip(NODE_COLUMNS, row))


def _get(db, node_id: str) -> dict | None:
    return _row_node(db.execute(f"{_NODE_SELECT} WHERE node_id = ?", (node_id,)).fetchone())


def _user(db, user_id: str) -> dict:
    row = fetch_row(db, "SELECT user_id, username, email, full_name, organization, quota_bytes "
                    "FROM users WHERE user_id = ?", (user_id,), f"user '{user_id}' not found")
    return dict(zip(("user_id", "username", "email", "full_name", "organization",
                     "quota_bytes"), row))


def _root(db, user_id: str) -> dict:
    node = _row_node(db.execute(f"{_NODE_SELECT} WHERE owner_id = ? AND parent_id IS NULL",
                                (user_id,)).fetchone())
    if node is None:
        raise ToolError(f"user '{user_id}' has no root folder")
    return node


def _ancestors(db, node: dict) -> list[dict]:
    """The node and its ancestors, from the node up to the root."""
    chain = [node]
    while chain[-1]["parent_id"] is not None:
        if len(chain) > 10_000:
            raise ToolError("the folder tree is corrupt (too deep)")
        parent = _get(db, chain[-1]["parent_id"])
        if parent is None:
            break
        chain.append(parent)
    return chain


def _trashed_ancestor(db, node: dict) -> dict | None:
    """The top item of the trashed subtree holding ``node`` (itself included), if any."""
    for item in _ancestors(db, node):
        if item["trashed_at"] is not None:
            return item
    return None


def _path(db, node: dict) -> str:
    names = [n["name"] for n in reversed(_ancestors(db, node))][1:]
    return "/" + "/".join(names)


def _access(db, user_id: str, node: dict) -> str | None:
    """``owner``, ``edit``, ``view`` or None: what ``user_id`` may do with ``node``."""
    if node["owner_id"] == user_id:
        return "owner"
    best = None
    for item in _ancestors(db, node):
        row = db.execute("SELECT permission FROM shares WHERE node_id = ? AND grantee_id = ?",
                         (item["node_id"], user_id)).fetchone()
        if row is not None and _RANK[row[0]] > _RANK[best]:
            best = row[0]
    return best


def _describe(node: dict) -> str:
    return f"{node['kind']} '{node['name']}'" if node["name"] else "root folder"


def _node_for(db, node_id: str, user_id: str, need: str = "view", *,
              live: bool = True) -> dict:
    """The node ``node_id`` if ``user_id`` exists and has at least ``need`` access to it.

    An inaccessible node is reported as not found (its existence is not revealed)."""
    _user(db, user_id)
    node = _get(db, node_id)
    access = _access(db, user_id, node) if node is not None else None
    if access is None:
        raise ToolError(f"no file or folder with id '{node_id}' is accessible to user "
                        f"'{user_id}'")
    if _RANK[access] < _RANK[need]:
        if need == "owner":
            raise ToolError(f"only the owner of the {_describe(node)} can do this; user "
                            f"'{user_id}' has {access} access")
        raise ToolError(f"user '{user_id}' has only {access} access to the {_describe(node)}")
    if live:
        trashed = _trashed_ancestor(db, node)
        if trashed is not None:
            where = "" if trashed is node else f" (inside the trashed {_describe(trashed)})"
            raise ToolError(f"the {_describe(node)} is in the trash{where}; restore it first")
    return node


def _folder_for(db, folder_id: str, user_id: str, need: str) -> dict:
    folder = _node_for(db, folder_id, user_id, need)
    if folder["kind"] != "folder":
        raise ToolError(f"'{folder['name']}' is a file, not a folder")
    return folder


def clean_name(name: str) -> str:
    """A valid file or folder name (NFC normalized) or a ToolError."""
    name = unicodedata.normalize("NFC", name)
    if not name.strip():
        raise ToolError("a name must not be empty")
    if name != name.strip():
        raise ToolError("a name must not start or end with spaces")
    if len(name) > MAX_NAME:
        raise ToolError(f"a name must be at most {MAX_NAME} characters")
    if name in (".", ".."):
        raise ToolError(f"'{name}' is not a valid name")
    if "/" in name or "\\" in name:
        raise ToolError("a name must not contain '/' or '\\'")
    if any(unicodedata.category(c) in _BAD_CATEGORIES for c in name):
        raise ToolError("a name must not contain control, format or unassigned characters")
    return name


def parse_path(path: str) -> list[str]:
    """The names along ``path`` (from the user's root), with ``.`` and ``..`` resolved.

    Raises ToolError for paths that leave the root, contain control characters or
    backslashes, or are too long or too deep."""
    if not isinstance(path, str):
        raise ToolError("a path must be a string")
    if len(path) > MAX_PATH:
        raise ToolError(f"a path must be at most {MAX_PATH} characters")
    path = unicodedata.normalize("NFC", path.strip())
    if "\\" in path:
        raise ToolError("use '/' to separate folders in a path, not '\\'")
    if any(unicodedata.category(c) in _BAD_CATEGORIES for c in path):
        raise ToolError("a path must not contain control, format or unassigned characters")
    names: list[str] = []
    for part in path.split("/"):
        if part in ("", "."):
            continue
        if part == "..":
            if not names:
                raise ToolError("the path goes above your root folder")
            names.pop()
            continue
        names.append(clean_name(part))
        if len(names) > MAX_DEPTH:
            raise ToolError(f"a path may be at most {MAX_DEPTH} folders deep")
    return names


def _resolve(db, user_id: str, path: str) -> dict:
    """The live node at ``path`` in the user's own tree."""
    _user(db, user_id)
    node = _root(db, user_id)
    walked = ""
    for name in parse_path(path):
        if node["kind"] != "folder":
            raise ToolError(f"'{walked}' is a file, not a folder")
        child = _row_node(db.execute(
            f"{_NODE_SELECT} WHERE parent_id = ? AND name = ? AND trashed_at IS NULL",
            (node["node_id"], name)).fetchone())
        walked += "/" + name
        if child is None:
            raise ToolError(f"no file or folder at '{walked}'")
        node = child
    return node


def _live_child(db, folder_id: str, name: str) -> dict | None:
    return _row_node(db.execute(
        f"{_NODE_SELECT} WHERE parent_id = ? AND name = ? AND trashed_at IS NULL",
        (folder_id, name)).fetchone())


def _check_free(db, folder: dict, name: str) -> None:
    if _live_child(db, folder["node_id"], name) is not None:
        where = "the root folder" if folder["parent_id"] is None else f"'{folder['name']}'"
        raise ToolError(f"{where} already contains an item named '{name}'")


def _used(db, user_id: str) -> int:
    return db.execute("SELECT coalesce(sum(size), 0) FROM nodes WHERE owner_id = ? "
                      "AND kind = 'file'", (user_id,)).fetchone()[0]


def _check_quota(db, owner_id: str, extra: int) -> None:
    if extra <= 0:
        return
    quota = db.execute("SELECT quota_bytes FROM users WHERE user_id = ?",
                       (owner_id,)).fetchone()[0]
    used = _used(db, owner_id)
    if used + extra > quota:
        raise ToolError(f"not enough storage: {used + extra} bytes needed, the quota is "
                        f"{quota} bytes")


def _new_id(db) -> str:
    """The first free ``nd_<hash>`` id, counting up from the highest rowid."""
    start = next_number(db, "nodes", "rowid", start=1)
    return first_free(db, "nodes", "node_id",
                      ("nd_" + hashlib.sha256(f"node:{n}".encode()).hexdigest()[:8]
                       for n in itertools.count(start)))


def _children(db, folder_id: str) -> list[dict]:
    rows = db.execute(f"{_NODE_SELECT} WHERE parent_id = ? AND trashed_at IS NULL",
                      (folder_id,)).fetchall()
    nodes = [_row_node(r) for r in rows]
    return sorted(nodes, key=lambda n: (n["kind"] != "folder", n["name"]))


def _subtree(db, node_id: str) -> list[str]:
    """Ids of the node and all its descendants (trashed ones included), parents first."""
    return [r[0] for r in db.execute(
        "WITH RECURSIVE t(id, d) AS (SELECT ?, 0 UNION ALL "
        "SELECT n.node_id, t.d + 1 FROM nodes n JOIN t ON n.parent_id = t.id WHERE t.d < 10000) "
        "SELECT id FROM t ORDER BY d", (node_id,))]


def _live_size(db, node_id: str, cap: int) -> int:
    """Number of nodes in the live (untrashed) subtree of ``node_id``, counted up to ``cap``
    (so that sizing a huge tree stays cheap)."""
    return db.execute(
        "WITH RECURSIVE t(id) AS (SELECT ? UNION ALL SELECT n.node_id FROM nodes n "
        "JOIN t ON n.parent_id = t.id WHERE n.trashed_at IS NULL LIMIT ?) "
        "SELECT count(*) FROM t", (node_id, cap)).fetchone()[0]


def _entry(node: dict) -> dict:
    return {"node_id": node["node_id"], "name": node["name"], "kind": node["kind"],
            "size": node["size"], "modified_at": node["modified_at"]}


def _record(db, node: dict, user_id: str) -> dict:
    """What the tools show of a node to ``user_id``."""
    access = _access(db, user_id, node)
    owner = _user(db, node["owner_id"])
    trashed = _trashed_ancestor(db, node)
    record = {
        "node_id": node["node_id"], "name": node["name"], "kind": node["kind"],
        "path": _path(db, node) if access == "owner" else None,
        "parent_id": node["parent_id"] if access == "owner" else None,
        "owner_id": node["owner_id"], "owner_email": owner["email"],
        "owner_name": owner["full_name"], "your_access": access,
        "created_at": node["created_at"], "modified_at": node["modified_at"],
        "in_trash": trashed is not None, "trashed_at": node["trashed_at"],
    }
    if node["kind"] == "file":
        record.update(size=node["size"], mime_type=node["mime_type"], version=node["version"],
                      is_text=node["content"] is not None)
    else:
        record["item_count"] = db.execute(
            "SELECT count(*) FROM nodes WHERE parent_id = ? AND trashed_at IS NULL",
            (node["node_id"],)).fetchone()[0]
    if access == "owner":
        record["shared_with"] = [
            {"email": r[0], "full_name": r[1], "permission": r[2], "shared_at": r[3]}
            for r in db.execute(
                "SELECT u.email, u.full_name, s.permission, s.shared_at FROM shares s "
                "JOIN users u ON u.user_id = s.grantee_id WHERE s.node_id = ? ORDER BY u.email",
                (node["node_id"],))]
    return record


# ------------------------------------------------------------------------ reads


@tool(Category.READ, returns={".": UserId})
def find_user_id_by_email(db, email: str) -> str:
    """Find the id of a user from the email address of their account. Use it to
    authenticate the user at the start of the conversation.

    Args:
        email: The email address of the account, such as 'ada.moss@northwind.com'.
    """
    return find_id(db, "users", "user_id", "email", email.strip().lower(),
                   f"no user with email '{email[:200]}'")


@tool(Category.READ, returns={"user_id": UserId, "root_folder_id": FolderId})
def get_user_details(db, user_id: UserId) -> dict:
    """Get a user's profile: name, email, organization, storage quota and usage, and the
    id of their root folder.

    Args:
        user_id: The user's id, such as 'usr_1a2b3c4d'.
    """
    user = _user(db, user_id)
    user["used_bytes"] = _used(db, user_id)
    user["root_folder_id"] = _root(db, user_id)["node_id"]
    return user


@tool(Category.READ, returns={"folder_id": FolderId, "entries.node_id": NodeId},
      needs=("node_id",))
def list_directory(db, user_id: UserId, path: str = "/") -> dict:
    """List the files and folders directly inside a folder of the user's own drive, given
    its path. Paths start at the user's root folder: '/' is the root, '/Photos/2024' a
    folder inside it ('..' goes up one folder). Items in the trash are not listed.

    Args:
        user_id: The user's id.
        path: The folder's path, such as '/Projects/Apollo'. Defaults to the root '/'.
    """
    folder = _resolve(db, user_id, path)
    if folder["kind"] != "folder":
        raise ToolError(f"'{_path(db, folder)}' is a file, not a folder")
    return {"folder_id": folder["node_id"], "path": _path(db, folder),
            "entries": [_entry(n) for n in _children(db, folder["node_id"])]}


@tool(Category.READ, returns=NODE_RETURNS)
def get_node_by_path(db, user_id: UserId, path: str) -> dict:
    """Get the details of the file or folder at a path of the user's own drive (its id,
    kind, size, dates, version, shares).

    Args:
        user_id: The user's id.
        path: The item's path from the user's root folder, such as '/Finance/expenses.csv'.
    """
    return _record(db, _resolve(db, user_id, path), user_id)


@tool(Category.READ, returns={**NODE_RETURNS, "children.node_id": NodeId},
      needs=("node_id", "share"))
def get_node_details(db, node_id: NodeId, user_id: UserId) -> dict:
    """Get the details of a file or folder the user can access (their own, or shared with
    them), by id: kind, size, dates, version, path, shares, and a folder's children.

    Args:
        node_id: The id of the file or folder, such as 'nd_0a1b2c3d'.
        user_id: The user's id.
    """
    node = _node_for(db, node_id, user_id, "view", live=False)
    record = _record(db, node, user_id)
    if node["kind"] == "folder":
        record["children"] = [_entry(n) for n in _children(db, node_id)]
    return record


@tool(Category.READ, returns={"node_id": NodeId}, needs=("file_version",))
def read_file(db, node_id: NodeId, user_id: UserId) -> dict:
    """Read the text content of a file the user can access. Binary files (PDF, images,
    office documents, audio, video) cannot be shown as text.

    Args:
        node_id: The id of the file.
        user_id: The user's id.
    """
    node = _node_for(db, node_id, user_id, "view")
    if node["kind"] != "file":
        raise ToolError(f"'{node['name']}' is a folder; use list_directory or "
                        f"get_node_details to see what it contains")
    if node["content"] is None:
        raise ToolError(f"'{node['name']}' is a binary file ({node['mime_type']}) and cannot "
                        f"be shown as text")
    return {"node_id": node_id, "name": node["name"], "version": node["version"],
            "content": node["content"]}


@tool(Category.READ, returns={"node_id": NodeId, "owner_id": UserId}, needs=("node_id",))
def search_files(db, user_id: UserId, query: str,
                 kind: Literal["any", "file", "folder"] = "any") -> list:
    """Search the user's own drive and the items shared with them for files or folders
    whose name contains a text (case-insensitive). Items in the trash are not searched.

    Args:
        user_id: The user's id.
        query: Part of the name to look for, such as 'budget' or '.pdf'.
        kind: Only files, only folders, or both ('any', the default).
    """
    _user(db, user_id)
    needle = unicodedata.normalize("NFC", query).strip().casefold()
    if not needle:
        raise ToolError("the search query must not be empty")
    seen: dict[str, dict] = {}
    roots = [_root(db, user_id)["node_id"]] + [r[0] for r in db.execute(
        "SELECT node_id FROM shares WHERE grantee_id = ?", (user_id,))]
    for root_id in roots:
        root = _get(db, root_id)
        if root is None or _trashed_ancestor(db, root) is not None:
            continue
        stack = [root]
        while stack:
            node = stack.pop()
            if node["node_id"] in seen:
                continue
            seen[node["node_id"]] = node
            if node["kind"] == "folder":
                stack.extend(_children(db, node["node_id"]))
    hits = []
    for node in seen.values():
        if node["parent_id"] is None and node["owner_id"] == user_id:
            continue  # the root itself has no name
        if kind != "any" and node["kind"] != kind:
            continue
        if needle in unicodedata.normalize("NFC", node["name"]).casefold():
            mine = node["owner_id"] == user_id
            hits.append({"node_id": node["node_id"], "name": node["name"],
                         "kind": node["kind"], "path": _path(db, node) if mine else None,
                         "owner_id": node["owner_id"], "shared_with_you": not mine,
                         "size": node["size"], "modified_at": node["modified_at"]})
    hits.sort(key=lambda h: (h["shared_with_you"], h["path"] or "", h["name"], h["node_id"]))
    return hits[:SEARCH_LIMIT]


@tool(Category.READ, returns={"node_id": NodeId}, needs=("trash_item",))
def list_trash(db, user_id: UserId) -> list:
    """List the items in the user's trash (each with the folder it was deleted from).
    The content of a trashed folder is in the trash with it and is not listed apart.

    Args:
        user_id: The user's id.
    """
    _user(db, user_id)
    rows = db.execute(f"{_NODE_SELECT} WHERE owner_id = ? AND trashed_at IS NOT NULL "
                      f"ORDER BY trashed_at, node_id", (user_id,)).fetchall()
    out = []
    for node in map(_row_node, rows):
        parent = _get(db, node["parent_id"])
        out.append({"node_id": node["node_id"], "name": node["name"], "kind": node["kind"],
                    "size": node["size"], "original_folder": _path(db, parent),
                    "trashed_at": node["trashed_at"]})
    return out


@tool(Category.READ, returns={"node_id": NodeId}, needs=("file_version",))
def list_file_versions(db, node_id: NodeId, user_id: UserId) -> dict:
    """List the saved versions of a file (number, size, date, who saved it), newest last.

    Args:
        node_id: The id of the file.
        user_id: The user's id.
    """
    node = _node_for(db, node_id, user_id, "view", live=False)
    if node["kind"] != "file":
        raise ToolError(f"'{node['name']}' is a folder; only files have versions")
    versions = [{"version": r[0], "size": r[1], "modified_at": r[2], "modified_by": r[3],
                 "current": r[0] == node["version"]}
                for r in db.execute(
                    "SELECT v.version, v.size, v.modified_at, u.email FROM versions v "
                    "JOIN users u ON u.user_id = v.modified_by WHERE v.node_id = ? "
                    "ORDER BY v.version", (node_id,))]
    return {"node_id": node_id, "name": node["name"], "current_version": node["version"],
            "versions": versions}


@tool(Category.READ, returns={"node_id": NodeId, "owner_id": UserId}, needs=("share",))
def list_shared_with_me(db, user_id: UserId) -> list:
    """List the files and folders other users have shared with the user, with the
    permission each share gives ('view' or 'edit').

    Args:
        user_id: The user's id.
    """
    _user(db, user_id)
    out = []
    for node_id, permission, shared_at in db.execute(
            "SELECT node_id, permission, shared_at FROM shares WHERE grantee_id = ? "
            "ORDER BY shared_at, node_id", (user_id,)).fetchall():
        node = _get(db, node_id)
        if _trashed_ancestor(db, node) is not None:
            continue
        owner = _user(db, node["owner_id"])
        out.append({"node_id": node_id, "name": node["name"], "kind": node["kind"],
                    "owner_id": owner["user_id"], "owner_email": owner["email"],
                    "owner_name": owner["full_name"], "permission": permission,
                    "shared_at": shared_at})
    return out


# ------------------------------------------------------------------------ writes


@tool(Category.WRITE, returns=NODE_RETURNS, writes=("node_id",))
def create_folder(db, parent_id: FolderId, user_id: UserId, name: str) -> dict:
    """Create a new, empty folder inside a folder (the user's own, or one shared with them
    with edit permission).

    Args:
        parent_id: The id of the folder to create it in.
        user_id: The id of the authenticated user.
        name: The new folder's name (unique in that folder; no '/').
    """
    parent = _folder_for(db, parent_id, user_id, "edit")
    name = clean_name(name)
    _check_free(db, parent, name)
    node_id = _new_id(db)
    db.execute("INSERT INTO nodes (node_id, owner_id, parent_id, name, kind, size, version, "
               "created_at, modified_at) VALUES (?, ?, ?, ?, 'folder', 0, 0, ?, ?)",
               (node_id, parent["owner_id"], parent_id, name, NOW, NOW))
    return _record(db, _get(db, node_id), user_id)


@tool(Category.WRITE, returns=NODE_RETURNS, writes=("node_id", "file_version"))
def create_file(db, parent_id: FolderId, user_id: UserId, name: str, content: str) -> dict:
    """Create a new text file with the given content inside a folder (the user's own, or
    one shared with them with edit permission).

    Args:
        parent_id: The id of the folder to create it in.
        user_id: The id of the authenticated user.
        name: The new file's name, with its extension (unique in that folder; no '/').
        content: The text content of the file.
    """
    parent = _folder_for(db, parent_id, user_id, "edit")
    name = clean_name(name)
    _check_free(db, parent, name)
    size = len(content.encode("utf-8"))
    _check_quota(db, parent["owner_id"], size)
    node_id = _new_id(db)
    mime = mime_of(name)[0]
    db.execute("INSERT INTO nodes (node_id, owner_id, parent_id, name, kind, mime_type, size, "
               "content, version, created_at, modified_at) "
               "VALUES (?, ?, ?, ?, 'file', ?, ?, ?, 1, ?, ?)",
               (node_id, parent["owner_id"], parent_id, name, mime, size, content, NOW, NOW))
    db.execute("INSERT INTO versions VALUES (?, 1, ?, ?, ?, ?)",
               (node_id, size, content, NOW, user_id))
    return _record(db, _get(db, node_id), user_id)


def _new_version(db, node: dict, user_id: str, size: int, content: str | None) -> dict:
    _check_quota(db, node["owner_id"], size - node["size"])
    version = next_number(db, "versions", "version", scope={"node_id": node["node_id"]})
    db.execute("INSERT INTO versions VALUES (?, ?, ?, ?, ?, ?)",
               (node["node_id"], version, size, content, NOW, user_id))
    db.execute("UPDATE nodes SET size = ?, content = ?, version = ?, modified_at = ? "
               "WHERE node_id = ?", (size, content, version, NOW, node["node_id"]))
    return _record(db, _get(db, node["node_id"]), user_id)


@tool(Category.WRITE, returns=NODE_RETURNS, writes=("file_version",))
def update_file(db, node_id: NodeId, user_id: UserId, content: str) -> dict:
    """Replace the content of a text file; the previous content stays available as an
    older version.

    Args:
        node_id: The id of the text file.
        user_id: The id of the authenticated user (owner, or edit permission).
        content: The new text content of the file.
    """
    node = _node_for(db, node_id, user_id, "edit")
    if node["kind"] != "file":
        raise ToolError(f"'{node['name']}' is a folder, not a file")
    if node["content"] is None:
        raise ToolError(f"'{node['name']}' is a binary file; only text files can be written")
    if content == node["content"]:
        raise ToolError("the new content is the same as the current content")
    return _new_version(db, node, user_id, len(content.encode("utf-8")), content)


@tool(Category.WRITE, returns=NODE_RETURNS, writes=("node_id",))
def rename_node(db, node_id: NodeId, user_id: UserId, new_name: str) -> dict:
    """Rename a file or folder (it stays in the same folder).

    Args:
        node_id: The id of the file or folder.
        user_id: The id of the authenticated user (owner, or edit permission).
        new_name: The new name (unique in the folder; no '/').
    """
    node = _node_for(db, node_id, user_id, "edit")
    if node["parent_id"] is None:
        raise ToolError("the root folder cannot be renamed")
    new_name = clean_name(new_name)
    if new_name == node["name"]:
        raise ToolError(f"the {node['kind']} is already named '{new_name}'")
    _check_free(db, _get(db, node["parent_id"]), new_name)
    db.execute("UPDATE nodes SET name = ? WHERE node_id = ?", (new_name, node_id))
    return _record(db, _get(db, node_id), user_id)


@tool(Category.WRITE, returns=NODE_RETURNS, writes=("node_id",))
def move_node(db, node_id: NodeId, user_id: UserId, destination_folder_id: FolderId) -> dict:
    """Move a file or folder (with everything in it) into another folder of the same
    drive. Only the owner can move items; a folder cannot go into itself or one of its
    subfolders.

    Args:
        node_id: The id of the file or folder to move.
        user_id: The id of the authenticated user (the owner).
        destination_folder_id: The id of the folder to move it into.
    """
    node = _node_for(db, node_id, user_id, "owner")
    if node["parent_id"] is None:
        raise ToolError("the root folder cannot be moved")
    target = _folder_for(db, destination_folder_id, user_id, "owner")
    if target["owner_id"] != node["owner_id"]:
        raise ToolError("items can only be moved within the same drive")
    if any(a["node_id"] == node_id for a in _ancestors(db, target)):
        raise ToolError(f"cannot move the folder '{node['name']}' into itself or one of its "
                        f"subfolders")
    if target["node_id"] == node["parent_id"]:
        raise ToolError(f"the {_describe(node)} is already in that folder")
    _check_free(db, target, node["name"])
    db.execute("UPDATE nodes SET parent_id = ? WHERE node_id = ?", (target["node_id"], node_id))
    return _record(db, _get(db, node_id), user_id)


@tool(Category.WRITE, returns=NODE_RETURNS, writes=("node_id", "file_version"))
def copy_node(db, node_id: NodeId, user_id: UserId, destination_folder_id: FolderId,
              new_name: str = "") -> dict:
    """Copy a file, or a folder with everything in it, into a folder. The copy belongs to
    the owner of the destination's drive; only the current version of each file is copied.

    Args:
        node_id: The id of the file or folder to copy (view access is enough).
        user_id: The id of the authenticated user.
        destination_folder_id: The id of the folder to copy into (owner, or edit
            permission).
        new_name: The name of the copy; by default the original's name.
    """
    node = _node_for(db, node_id, user_id, "view")
    if node["parent_id"] is None:
        raise ToolError("the root folder cannot be copied; copy its folders instead")
    target = _folder_for(db, destination_folder_id, user_id, "edit")
    if any(a["node_id"] == node_id for a in _ancestors(db, target)):
        raise ToolError(f"cannot copy the folder '{node['name']}' into itself or one of its "
                        f"subfolders")
    name = clean_name(new_name) if new_name else node["name"]
    _check_free(db, target, name)
    QUOTAS.room(db, "nodes", _live_size(db, node_id, QUOTAS.batch + 1), "items copied")
    live = []  # (node, new parent id) in parent-first order
    stack = [(node, target["node_id"])]
    while stack:
        item, parent_id = stack.pop()
        live.append((item, parent_id))
        if item["kind"] == "folder":
            stack.extend((child, item["node_id"]) for child in
                         reversed(_children(db, item["node_id"])))
    total = sum(item["size"] for item, _ in live if item["kind"] == "file")
    _check_quota(db, target["owner_id"], total)
    new_ids: dict[str, str] = {}
    first = None
    for item, parent_id in live:
        new_id = _new_id(db)
        new_ids[item["node_id"]] = new_id
        first = first or new_id
        is_file = item["kind"] == "file"
        db.execute(
            "INSERT INTO nodes (node_id, owner_id, parent_id, name, kind, mime_type, size, "
            "content, version, created_at, modified_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (new_id, target["owner_id"], new_ids.get(parent_id, parent_id),
             name if item is node else item["name"], item["kind"], item["mime_type"],
             item["size"], item["content"], 1 if is_file else 0, NOW, NOW))
        if is_file:
            db.execute("INSERT INTO versions VALUES (?, 1, ?, ?, ?, ?)",
                       (new_id, item["size"], item["content"], NOW, user_id))
    return _record(db, _get(db, first), user_id)


@tool(Category.WRITE, returns=NODE_RETURNS, writes=("node_id", "trash_item"))
def delete_node(db, node_id: NodeId, user_id: UserId) -> dict:
    """Move a file or folder (with everything in it) to the trash. It can be restored
    from there until it is permanently deleted. Only the owner can delete.

    Args:
        node_id: The id of the file or folder.
        user_id: The id of the authenticated user (the owner).
    """
    node = _node_for(db, node_id, user_id, "owner")
    if node["parent_id"] is None:
        raise ToolError("the root folder cannot be deleted")
    db.execute("UPDATE nodes SET trashed_at = ? WHERE node_id = ?", (NOW, node_id))
    return _record(db, _get(db, node_id), user_id)


@tool(Category.WRITE, returns=NODE_RETURNS, writes=("node_id",), needs=("trash_item",))
def restore_node(db, node_id: NodeId, user_id: UserId) -> dict:
    """Restore an item from the trash to the folder it was deleted from. Only the owner
    can restore.

    Args:
        node_id: The id of the trashed file or folder (see list_trash).
        user_id: The id of the authenticated user (the owner).
    """
    node = _node_for(db, node_id, user_id, "owner", live=False)
    if node["trashed_at"] is None:
        trashed = _trashed_ancestor(db, node)
        if trashed is None:
            raise ToolError(f"the {_describe(node)} is not in the trash")
        raise ToolError(f"the {_describe(node)} is inside the trashed {_describe(trashed)}; "
                        f"restore that instead")
    parent = _get(db, node["parent_id"])
    if _trashed_ancestor(db, parent) is not None:
        raise ToolError(f"the folder it was deleted from ('{parent['name']}') is in the trash "
                        f"too; restore that folder first")
    _check_free(db, parent, node["name"])
    db.execute("UPDATE nodes SET trashed_at = NULL WHERE node_id = ?", (node_id,))
    return _record(db, _get(db, node_id), user_id)


@tool(Category.WRITE, writes=("node_id",), needs=("trash_item",))
def permanently_delete_node(db, node_id: NodeId, user_id: UserId) -> dict:
    """Permanently delete an item that is in the trash, with everything in it, its
    versions and its shares. This cannot be undone. Only the owner can do this.

    Args:
        node_id: The id of the trashed file or folder (see list_trash).
        user_id: The id of the authenticated user (the owner).
    """
    node = _node_for(db, node_id, user_id, "owner", live=False)
    if node["trashed_at"] is None:
        raise ToolError(f"the {_describe(node)} must be in the trash (its own entry in "
                        f"list_trash) before it can be permanently deleted")
    ids = _subtree(db, node_id)
    marks = ", ".join("?" for _ in ids)
    db.execute(f"DELETE FROM shares WHERE node_id IN ({marks})", ids)
    db.execute(f"DELETE FROM versions WHERE node_id IN ({marks})", ids)
    db.execute(f"DELETE FROM nodes WHERE node_id IN ({marks})", ids)
    return {"deleted": len(ids), "node_id": node_id, "name": node["name"]}


@tool(Category.WRITE, returns={"node_id": NodeId, "user_id": UserId}, writes=("share",))
def share_node(db, node_id: NodeId, user_id: UserId, email: str,
               permission: Literal["view", "edit"]) -> dict:
    """Share a file or folder (with everything in it) with another user, or change the
    permission of an existing share. Only the owner can share.

    Args:
        node_id: The id of the file or folder.
        user_id: The id of the authenticated user (the owner).
        email: The email address of the user to share with.
        permission: 'view' (see and copy) or 'edit' (also change).
    """
    node = _node_for(db, node_id, user_id, "owner")
    if node["parent_id"] is None:
        raise ToolError("the root folder cannot be shared; share a folder inside it")
    row = fetch_row(db, "SELECT user_id, full_name FROM users WHERE email = ?",
                    (email.strip().lower(),),
                    f"no user with email '{email[:200]}'; items can only be shared with "
                    "registered users")
    other, full_name = row
    if other == node["owner_id"]:
        raise ToolError("an item cannot be shared with its owner")
    current = db.execute("SELECT permission FROM shares WHERE node_id = ? AND grantee_id = ?",
                         (node_id, other)).fetchone()
    if current is not None and current[0] == permission:
        raise ToolError(f"the {_describe(node)} is already shared with {full_name} with "
                        f"{permission} permission")
    db.execute("INSERT INTO shares (node_id, grantee_id, permission, shared_at) "
               "VALUES (?, ?, ?, ?) "
               "ON CONFLICT (node_id, grantee_id) DO UPDATE SET permission = excluded.permission, "
               "shared_at = excluded.shared_at", (node_id, other, permission, NOW))
    return {"node_id": node_id, "name": node["name"], "user_id": other, "full_name": full_name,
            "email": email.strip().lower(), "permission": permission, "shared_at": NOW}


@tool(Category.WRITE, returns={"node_id": NodeId}, writes=("share",), needs=("share",))
def unshare_node(db, node_id: NodeId, user_id: UserId, email: str) -> dict:
    """Stop sharing a file or folder with a user. Only the owner can do this.

    Args:
        node_id: The id of the shared file or folder.
        user_id: The id of the authenticated user (the owner).
        email: The email address of the user who should lose access.
    """
    node = _node_for(db, node_id, user_id, "owner", live=False)
    row = fetch_row(db, "SELECT s.grantee_id FROM shares s JOIN users u "
                    "ON u.user_id = s.grantee_id WHERE s.node_id = ? AND u.email = ?",
                    (node_id, email.strip().lower()),
                    f"the {_describe(node)} is not shared with '{email[:200]}'")
    db.execute("DELETE FROM shares WHERE node_id = ? AND grantee_id = ?", (node_id, row[0]))
    return {"node_id": node_id, "name": node["name"], "removed": email.strip().lower()}


@tool(Category.WRITE, returns=NODE_RETURNS, writes=("file_version",), needs=("file_version",))
def restore_file_version(db, node_id: NodeId, user_id: UserId, version: int) -> dict:
    """Make an older version of a file the current one. This saves it as a new version,
    so nothing is lost.

    Args:
        node_id: The id of the file.
        user_id: The id of the authenticated user (owner, or edit permission).
        version: The number of the version to bring back (see list_file_versions).
    """
    node = _node_for(db, node_id, user_id, "edit")
    if node["kind"] != "file":
        raise ToolError(f"'{node['name']}' is a folder; only files have versions")
    row = fetch_row(db, "SELECT size, content FROM versions WHERE node_id = ? AND version = ?",
                    (node_id, version), f"'{node['name']}' has no version {version}")
    if version == node["version"]:
        raise ToolError(f"version {version} is already the current version")
    return _new_version(db, node, user_id, row[0], row[1])


transfer_to_human_agents = human_transfer_tool(
    "Transfer the user to a human support agent, with a summary of their issue. Only do "
    "this when the user asks for a human or the request cannot be handled with the tools.",
    "A short summary of the user's issue.")
