"""Hidden-intent tasks of the filesystem domain (users' files, folders, shares, the trash and
file versions): the constraint samplers and ``TASKS``, the domain's
:class:`~tool_gym.core.taskkit.RuleTaskKit`. Types, descriptions and claims:
``docs/filesystem-tasks.md``.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...core.actions import ToolCall
from ...core.sampler_parts import describe_any, write_need
from ...core.taskkit import RuleTaskKit, SampleContext
from ...core.sampler_parts import by_name, identify_by
from ...core.task_model import Constraint, Description, Expectation, PlanStep, Refusal

#: Words that name why the request is refused (any one addresses it; see ``Refusal.about``).
_EXTERNAL_WORDS = (
    "another organization", "another organisation", "other organization",
    "other organisation", "different organization", "different organisation",
    "organization", "organisation", "organizations", "external", "outside", "outsider",
    "domain", "company", "view-only", "view only", "read-only", "read only")


ROOT_TERMS = ("top level", "top-level", "root")

WRITE_TOOLS = ("create_folder", "create_file", "update_file", "rename_node", "move_node",
               "copy_node", "delete_node", "restore_node", "permanently_delete_node",
               "share_node", "unshare_node", "restore_file_version")

_LIVE = ("SELECT n.node_id, n.name, n.kind, n.parent_id, p.name, p.parent_id IS NULL, n.size, "
         "n.modified_at, n.content IS NOT NULL, n.version FROM nodes n "
         "JOIN nodes p ON p.node_id = n.parent_id "
         "WHERE n.owner_id = ? AND n.trashed_at IS NULL ORDER BY n.rowid")


@dataclass(frozen=True)
class Node:
    node_id: str
    name: str
    kind: str
    parent_id: str
    folder: str  # the parent's name ('' for the root)
    at_top: bool  # the parent is the root
    size: int
    modified_at: str
    is_text: bool
    version: int


def _nodes(ctx: SampleContext, kind: str | None = None) -> list[Node]:
    return [n for n in (Node(*r) for r in ctx.rows(_LIVE, (ctx.user_id,)))
            if kind is None or n.kind == kind]


def _root_id(ctx: SampleContext) -> str:
    return ctx.rows("SELECT node_id FROM nodes WHERE owner_id = ? AND parent_id IS NULL",
                    (ctx.user_id,))[0][0]


def _path(ctx: SampleContext, node_id: str) -> str:
    names = []
    while True:
        parent, name = ctx.rows("SELECT parent_id, name FROM nodes WHERE node_id = ?",
                                (node_id,))[0]
        if parent is None:
            return "/" + "/".join(reversed(names))
        names.append(name)
        node_id = parent


def _ext(name: str) -> str:
    return name.rsplit(".", 1)[-1].lower() if "." in name[1:] else ""


_Q_FILE = ("SELECT n.node_id FROM nodes n JOIN nodes p ON p.node_id = n.parent_id "
           "WHERE n.owner_id = ? AND n.kind = ? AND n.trashed_at IS NULL")


def describe_node(ctx: SampleContext, node: Node, forms=("name", "folder", "date")
                  ) -> Description | None:
    """A unique description of one of the user's live files or folders."""
    kind = node.kind
    options = []
    if "name" in forms:
        options.append((f"my {kind} '{node.name}'", {"kind": kind, "name": node.name},
                        f"{_Q_FILE} AND n.name = ?", (ctx.user_id, kind, node.name)))
    if "folder" in forms:
        if node.at_top:
            options.append((f"the {kind} '{node.name}' at the top level of my drive",
                            {"kind": kind, "name": node.name, "top_level": True},
                            f"{_Q_FILE} AND n.name = ? AND p.parent_id IS NULL",
                            (ctx.user_id, kind, node.name)))
        else:
            options.append((f"the {kind} '{node.name}' in my '{node.folder}' folder",
                            {"kind": kind, "name": node.name, "folder": node.folder},
                            f"{_Q_FILE} AND n.name = ? AND p.name = ?",
                            (ctx.user_id, kind, node.name, node.folder)))
    ext = _ext(node.name)
    if "date" in forms and kind == "file" and ext.isalnum():
        day = node.modified_at[:10]
        options.append((f"the .{ext} file I last changed on {day}",
                        {"kind": kind, "extension": ext, "modified_on": day},
                        f"{_Q_FILE} AND n.name LIKE ? AND substr(n.modified_at, 1, 10) = ?",
                        (ctx.user_id, kind, f"%.{ext}", day)))
    return describe_any(ctx, kind, node.node_id, options)


def describe_folder(ctx: SampleContext, folder: Node | None) -> Description | None:
    """A unique description of a folder; ``None`` stands for the root folder."""
    if folder is None:
        return ctx.describe("folder", "the top level of my drive", {"kind": "folder",
                            "root": True}, _root_id(ctx),
                            "SELECT node_id FROM nodes WHERE owner_id = ? AND parent_id IS NULL",
                            (ctx.user_id,))
    return describe_node(ctx, folder, forms=("name", "folder"))


def _names(*descriptions: Description) -> list[tuple]:
    """Claim keys of every name a description relies on."""
    keys = []
    for d in descriptions:
        for field in ("name", "folder"):
            if field in d.fields:
                keys.append(("name", d.fields[field]))
    return keys


def _search(ctx: SampleContext, d: Description, kind: str = "any") -> PlanStep:
    query = d.fields.get("name") or f".{d.fields.get('extension', '')}"
    return PlanStep(call=ToolCall("search_files", {"user_id": ctx.user_id, "query": query,
                                                   "kind": kind}))


def _locate_folder(ctx: SampleContext, d: Description) -> PlanStep:
    if d.fields.get("root"):
        return PlanStep(call=ToolCall("get_user_details", {"user_id": ctx.user_id}))
    return _search(ctx, d, "folder")


def _where(folder: Node | None) -> str:
    return "the top level (root) of your drive" if folder is None else f"'{folder.name}'"


def _where_terms(folder: Node | None) -> tuple:
    return ROOT_TERMS if folder is None else (folder.name,)


# --------------------------------------------------------------------------- writes

_RENAMES = ("{stem}-old{dot}{ext}", "{stem}-final{dot}{ext}", "{stem}-2025{dot}{ext}",
            "old-{stem}{dot}{ext}", "{stem}-backup{dot}{ext}", "{stem}-draft{dot}{ext}")


def rename_file(ctx: SampleContext) -> Constraint | None:
    for node in ctx.shuffled(_nodes(ctx, "file"))[:12]:
        ext = _ext(node.name)
        stem = node.name[: -len(ext) - 1] if ext else node.name
        new = ctx.pick(_RENAMES).format(stem=stem, dot="." if ext else "", ext=ext)
        if ctx.rows("SELECT 1 FROM nodes WHERE parent_id = ? AND name = ? "
                    "AND trashed_at IS NULL", (node.parent_id, new)):
            continue
        d = describe_node(ctx, node)
        if d is None or not ctx.claim(node.node_id, node.parent_id, ("name", new), *_names(d)):
            continue
        call = ToolCall("rename_node", {"node_id": node.node_id, "user_id": ctx.user_id,
                                        "new_name": new})
        return write_need(
            "rename_file", {"node_id": node.node_id, "new_name": new}, {"file": d}, call,
            node.node_id, ((node.name,), (new,)),
            (f"Could you rename {d.text} to '{new}'?",
             f"I'd like {d.text} to be called '{new}' from now on.",
             f"Please change the name of {d.text} to '{new}'."),
            f"I found '{node.name}'. I will rename it to '{new}'.", (_search(ctx, d),),
            (Expectation("SELECT name, parent_id, trashed_at IS NULL FROM nodes "
                         "WHERE node_id = ?", (node.node_id,), ((new, node.parent_id, 1),)),))
    return None


def _descendants(ctx: SampleContext, node_id: str) -> set[str]:
    return {r[0] for r in ctx.rows(
        "WITH RECURSIVE t(id) AS (SELECT ? UNION ALL SELECT n.node_id FROM nodes n "
        "JOIN t ON n.parent_id = t.id) SELECT id FROM t", (node_id,))}


def move_item(ctx: SampleContext) -> Constraint | None:
    nodes = _nodes(ctx)
    folders = [n for n in nodes if n.kind == "folder"]
    movable = ctx.shuffled([n for n in nodes if n.kind == "file" or ctx.rng.random() < 0.4])
    for node in movable[:12]:
        inside = _descendants(ctx, node.node_id) if node.kind == "folder" else {node.node_id}
        targets = [None] + folders
        dest = ctx.pick(targets)
        dest_id = _root_id(ctx) if dest is None else dest.node_id
        if dest_id in inside or dest_id == node.parent_id:
            continue
        if ctx.rows("SELECT 1 FROM nodes WHERE parent_id = ? AND name = ? "
                    "AND trashed_at IS NULL", (dest_id, node.name)):
            continue
        d = describe_node(ctx, node)
        dd = describe_folder(ctx, dest)
        if d is None or dd is None:
            continue
        if not ctx.claim(node.node_id, node.parent_id, dest_id, ("name", node.name),
                         *_names(d, dd)):
            continue
        call = ToolCall("move_node", {"node_id": node.node_id, "user_id": ctx.user_id,
                                      "destination_folder_id": dest_id})
        return write_need(
            "move_item", {"node_id": node.node_id, "destination_folder_id": dest_id},
            {node.kind: d, "destination": dd}, call, node.node_id,
            ((node.name,), _where_terms(dest)),
            (f"Please move {d.text} into {dd.text}.",
             f"Could you move {d.text}? It should go into {dd.text}.",
             f"I want {d.text} moved to {dd.text}."),
            f"I will move the {node.kind} '{node.name}' into {_where(dest)}.",
            (_search(ctx, d), _locate_folder(ctx, dd)),
            (Expectation("SELECT parent_id, trashed_at IS NULL FROM nodes WHERE node_id = ?",
                         (node.node_id,), ((dest_id, 1),)),))
    return None


def trash_file(ctx: SampleContext) -> Constraint | None:
    for node in ctx.shuffled(_nodes(ctx, "file"))[:12]:
        d = describe_node(ctx, node)
        if d is None or not ctx.claim(node.node_id, node.parent_id, *_names(d)):
            continue
        call = ToolCall("delete_node", {"node_id": node.node_id, "user_id": ctx.user_id})
        return write_need(
            "trash_file", {"node_id": node.node_id}, {"file": d}, call, node.node_id,
            ((node.name,), ("trash", "delete")),
            (f"Please delete {d.text}; I don't need it anymore.",
             f"Could you put {d.text} in the trash?",
             f"I want to get rid of {d.text}."),
            f"I will move '{node.name}' to the trash (you can restore it from there later).",
            (_search(ctx, d),),
            (Expectation("SELECT trashed_at IS NOT NULL, parent_id FROM nodes "
                         "WHERE node_id = ?", (node.node_id,), ((1, node.parent_id),)),))
    return None


def restore_from_trash(ctx: SampleContext) -> Constraint | None:
    rows = ctx.rows("SELECT n.node_id, n.name, n.parent_id, substr(n.trashed_at, 1, 10) "
                    "FROM nodes n JOIN nodes p ON p.node_id = n.parent_id "
                    "WHERE n.owner_id = ? AND n.trashed_at IS NOT NULL "
                    "AND p.trashed_at IS NULL ORDER BY n.rowid", (ctx.user_id,))
    q = "SELECT node_id FROM nodes WHERE owner_id = ? AND trashed_at IS NOT NULL AND name = ?"
    for node_id, name, parent_id, day in ctx.shuffled(rows):
        if ctx.rows("SELECT 1 FROM nodes WHERE parent_id = ? AND name = ? "
                    "AND trashed_at IS NULL", (parent_id, name)):
            continue
        options = [(f"the file '{name}' that I deleted", {"name": name, "in_trash": True},
                    q, (ctx.user_id, name)),
                   (f"the file '{name}' I deleted on {day}",
                    {"name": name, "in_trash": True, "deleted_on": day},
                    q + " AND substr(trashed_at, 1, 10) = ?", (ctx.user_id, name, day))]
        d = describe_any(ctx, "file", node_id, options)
        if d is None or not ctx.claim(node_id, parent_id, ("name", name)):
            continue
        call = ToolCall("restore_node", {"node_id": node_id, "user_id": ctx.user_id})
        return write_need(
            "restore_from_trash", {"node_id": node_id}, {"file": d}, call, node_id,
            ((name,), ("restore", "recover", "bring back", "back")),
            (f"I need {d.text} back. Can you restore it?",
             f"Please recover {d.text} from the trash.",
             f"Oops, I shouldn't have deleted it: please bring back {d.text}."),
            f"I found '{name}' in your trash. I will restore it to the folder it was "
            f"deleted from.", (PlanStep(call=ToolCall("list_trash", {"user_id": ctx.user_id})),),
            (Expectation("SELECT trashed_at IS NULL, parent_id FROM nodes WHERE node_id = ?",
                         (node_id,), ((1, parent_id),)),))
    return None


_PERMISSION_TERMS = {"view": ("view", "read-only", "read only", "viewer"),
                     "edit": ("edit",)}


def _people(ctx: SampleContext, node_id: str, same_org: bool) -> list[tuple]:
    """Other users (id, name, email) of the user's organization (or of other ones) who
    have no share on the node."""
    op = "=" if same_org else "!="
    return ctx.rows(
        f"SELECT u.user_id, u.full_name, u.email, u.organization FROM users u, users me "
        f"WHERE me.user_id = ? AND u.user_id != me.user_id "
        f"AND u.organization {op} me.organization AND NOT EXISTS (SELECT 1 FROM shares s "
        f"WHERE s.node_id = ? AND s.grantee_id = u.user_id) ORDER BY u.rowid",
        (ctx.user_id, node_id))


def _shareable(ctx: SampleContext) -> list[Node]:
    return ctx.shuffled(_nodes(ctx))[:12]


def share_item(ctx: SampleContext) -> Constraint | None:
    for node in _shareable(ctx):
        same = ctx.rng.random() < 0.6
        people = _people(ctx, node.node_id, same)
        if not people:
            continue
        other, full_name, email, _ = ctx.pick(people)
        permission = ctx.pick(("view", "edit")) if same else "view"
        d = describe_node(ctx, node)
        if d is None or not ctx.claim(node.node_id, ("share", node.node_id), *_names(d)):
            continue
        call = ToolCall("share_node", {"node_id": node.node_id, "user_id": ctx.user_id,
                                       "email": email, "permission": permission})
        can = "edit it" if permission == "edit" else "see it (read-only)"
        return write_need(
            "share_item", {"node_id": node.node_id, "email": email,
                                "permission": permission}, {node.kind: d}, call, node.node_id,
            ((node.name,), (email, full_name), _PERMISSION_TERMS[permission]),
            (f"Please share {d.text} with {full_name} ({email}) so they can {can}.",
             f"Could you give {full_name}, {email}, {permission} access to {d.text}?",
             f"I want {full_name} ({email}) to be able to {can}: it's {d.text}."),
            f"I will share the {node.kind} '{node.name}' with {full_name} ({email}) with "
            f"{permission} permission.", (_search(ctx, d),),
            (Expectation("SELECT permission FROM shares WHERE node_id = ? AND grantee_id = ?",
                         (node.node_id, other), ((permission,),)),))
    return None


def unshare_item(ctx: SampleContext) -> Constraint | None:
    rows = ctx.rows("SELECT s.node_id, s.grantee_id, u.full_name, u.email FROM shares s "
                    "JOIN users u ON u.user_id = s.grantee_id "
                    "JOIN nodes n ON n.node_id = s.node_id "
                    "WHERE n.owner_id = ? AND n.trashed_at IS NULL ORDER BY s.rowid",
                    (ctx.user_id,))
    live = {n.node_id: n for n in _nodes(ctx)}
    for node_id, other, full_name, email in ctx.shuffled(rows):
        node = live.get(node_id)
        if node is None:
            continue
        d = describe_node(ctx, node)
        if d is None or not ctx.claim(node_id, ("share", node_id), *_names(d)):
            continue
        call = ToolCall("unshare_node", {"node_id": node_id, "user_id": ctx.user_id,
                                         "email": email})
        return write_need(
            "unshare_item", {"node_id": node_id, "email": email}, {node.kind: d}, call,
            node_id, ((node.name,), (full_name, email)),
            (f"Please stop sharing {d.text} with {full_name}.",
             f"{full_name} shouldn't have access to {d.text} anymore. Can you remove it?",
             f"Could you unshare {d.text} from {full_name}?"),
            f"I will stop sharing the {node.kind} '{node.name}' with {full_name} ({email}).",
            (_search(ctx, d), PlanStep(call=ToolCall("get_node_details", {
                "node_id": node_id, "user_id": ctx.user_id}))),
            (Expectation("SELECT count(*) FROM shares WHERE node_id = ? AND grantee_id = ?",
                         (node_id, other), ((0,),)),))
    return None


_NEW_FOLDERS = ("Drafts", "Backups", "Scans", "To Sort", "Shared Docs", "Old Stuff",
                "Invoices 2025", "Ideas", "Templates", "Summer 2025")


def create_folder(ctx: SampleContext) -> Constraint | None:
    folders = [None] + _nodes(ctx, "folder")
    for dest in ctx.shuffled(folders)[:8]:
        dest_id = _root_id(ctx) if dest is None else dest.node_id
        name = ctx.pick(_NEW_FOLDERS)
        if ctx.rows("SELECT 1 FROM nodes WHERE parent_id = ? AND name = ? "
                    "AND trashed_at IS NULL", (dest_id, name)):
            continue
        dd = describe_folder(ctx, dest)
        if dd is None or not ctx.claim(dest_id, ("name", name), *_names(dd)):
            continue
        call = ToolCall("create_folder", {"parent_id": dest_id, "user_id": ctx.user_id,
                                          "name": name})
        return write_need(
            "create_folder", {"parent_id": dest_id, "name": name}, {"folder": dd}, call,
            dest_id, ((name,), _where_terms(dest)),
            (f"Could you create a new folder called '{name}' in {dd.text}?",
             f"Please make a folder named '{name}' inside {dd.text}.",
             f"I need a new '{name}' folder in {dd.text}."),
            f"I will create a new folder named '{name}' inside {_where(dest)}.",
            (_locate_folder(ctx, dd),),
            (Expectation("SELECT count(*) FROM nodes WHERE parent_id = ? AND name = ? "
                         "AND kind = 'folder' AND trashed_at IS NULL", (dest_id, name),
                         ((1,),)),))
    return None


def restore_version(ctx: SampleContext) -> Constraint | None:
    files = [n for n in _nodes(ctx, "file") if n.is_text and n.version >= 2]
    for node in ctx.shuffled(files):
        versions = ctx.rows("SELECT version, substr(modified_at, 1, 10), content, size "
                            "FROM versions WHERE node_id = ? AND version < ? ORDER BY version",
                            (node.node_id, node.version))
        version, day, content, size = ctx.pick(versions)
        d = describe_node(ctx, node, forms=("name", "folder"))
        if d is None:
            continue
        dv = ctx.describe("version", f"the version I saved on {day}",
                          {"file": d.fields, "saved_on": day}, version,
                          "SELECT version FROM versions WHERE node_id = ? "
                          "AND substr(modified_at, 1, 10) = ?", (node.node_id, day))
        if dv is None or not ctx.claim(node.node_id, *_names(d)):
            continue
        call = ToolCall("restore_file_version", {"node_id": node.node_id,
                                                 "user_id": ctx.user_id, "version": version})
        return write_need(
            "restore_version", {"node_id": node.node_id, "version": version},
            {"file": d, "version": dv}, call, node.node_id, ((node.name,), (day,)),
            (f"I need {d.text} back the way it was on {day}. Can you restore that version?",
             f"Please bring back {dv.text} of {d.text}.",
             f"Could you roll {d.text} back to the version from {day}?"),
            f"I will make the version of '{node.name}' saved on {day} the current one "
            f"again (the current content stays in the history).",
            (_search(ctx, d), PlanStep(call=ToolCall("list_file_versions", {
                "node_id": node.node_id, "user_id": ctx.user_id}))),
            (Expectation("SELECT content, size, version FROM nodes WHERE node_id = ?",
                         (node.node_id,), ((content, size, node.version + 1),)),))
    return None


# --------------------------------------------------------------------------- information


def _inform(kind: str, args: dict, refs: dict, answer: str, say: tuple, reads: tuple,
            message: str, evidence: tuple = ()) -> Constraint:
    return Constraint(kind, args, refs, answer=answer, say=say, evidence=evidence,
                      solution=(*reads, PlanStep(say=message)))


def info_file_size(ctx: SampleContext) -> Constraint | None:
    for node in ctx.shuffled(_nodes(ctx, "file"))[:8]:
        d = describe_node(ctx, node)
        if d is None or not ctx.claim(node.node_id, *_names(d)):
            continue
        return _inform(
            "info_file_size", {"node_id": node.node_id}, {"file": d}, str(node.size),
            (f"How big is {d.text}, in bytes?", f"What's the size of {d.text}?",
             f"Can you tell me how many bytes {d.text} takes up?"),
            (_search(ctx, d),), f"'{node.name}' is {node.size} bytes.")
    return None


def info_last_modified(ctx: SampleContext) -> Constraint | None:
    for node in ctx.shuffled(_nodes(ctx, "file"))[:8]:
        d = describe_node(ctx, node, forms=("name", "folder"))
        if d is None or not ctx.claim(node.node_id, *_names(d)):
            continue
        day = node.modified_at[:10]
        return _inform(
            "info_last_modified", {"node_id": node.node_id}, {"file": d}, day,
            (f"When did I last change {d.text}?",
             f"What's the last-modified date of {d.text}?",
             f"On what day was {d.text} last updated?"),
            (_search(ctx, d),), f"'{node.name}' was last modified on {day}.")
    return None


def info_folder_count(ctx: SampleContext) -> Constraint | None:
    for dest in ctx.shuffled([None] + _nodes(ctx, "folder"))[:8]:
        dest_id = _root_id(ctx) if dest is None else dest.node_id
        dd = describe_folder(ctx, dest)
        if dd is None or not ctx.claim(dest_id, *_names(dd)):
            continue
        (count,), = ctx.rows("SELECT count(*) FROM nodes WHERE parent_id = ? "
                             "AND trashed_at IS NULL", (dest_id,))
        return _inform(
            "info_folder_count", {"folder_id": dest_id}, {"folder": dd}, str(count),
            (f"How many items are directly inside {dd.text}?",
             f"Can you count the files and folders in {dd.text} (not inside subfolders)?",
             f"How many things are in {dd.text}, not counting what's in subfolders?"),
            (PlanStep(call=ToolCall("list_directory", {"user_id": ctx.user_id,
                                                       "path": _path(ctx, dest_id)})),),
            f"There are {count} items directly inside {_where(dest)}.",
            evidence=(("list_directory", dest_id),))
    return None


# --------------------------------------------------------------------------- refusal


def refuse_external_edit(ctx: SampleContext) -> Constraint | None:
    for node in _shareable(ctx):
        people = _people(ctx, node.node_id, same_org=False)
        if not people:
            continue
        other, full_name, email, organization = ctx.pick(people)
        d = describe_node(ctx, node)
        if d is None or not ctx.claim(("refusal",), node.node_id, ("share", node.node_id),
                                      *_names(d)):
            continue
        shares = tuple(ctx.rows("SELECT grantee_id, permission FROM shares WHERE node_id = ? "
                                "ORDER BY grantee_id", (node.node_id,)))
        return Constraint(
            "refuse_external_edit",
            {"node_id": node.node_id, "email": email,
             "forbidden": {"name": "share_node", "arguments": {
                 "node_id": node.node_id, "user_id": ctx.user_id, "email": email,
                 "permission": "edit"}}},
            {node.kind: d}, answer="cannot",
            refusal=Refusal((node.node_id,), about=(node.node_id, node.name, email,
                                                    organization, *_EXTERNAL_WORDS)),
            say=(f"Please give {full_name} ({email}) edit access to {d.text}.",
                 f"{full_name} from {organization} needs to edit {d.text}. Can you share it "
                 f"with {email} as an editor?",
                 f"Could you let {full_name} ({email}) edit {d.text}?"),
            solution=(_search(ctx, d), PlanStep(say=(
                f"I'm sorry, but I cannot give {full_name} edit access: {email} belongs to "
                f"another organization, and edit access can only be given to members of your "
                f"own organization. I could share it with view-only access instead."))),
            expect=(Expectation("SELECT grantee_id, permission FROM shares WHERE node_id = ? "
                                "ORDER BY grantee_id", (node.node_id,), shares),))
    return None


def policy_violations(db, tool: str, arguments: dict) -> list[str]:
    """Rules of the policy that a write would break (judged before it runs)."""
    if tool != "share_node" or arguments.get("permission") != "edit":
        return []
    row = db.execute("SELECT o.organization, r.organization FROM nodes n "
                     "JOIN users o ON o.user_id = n.owner_id JOIN users r ON r.email = ? "
                     "WHERE n.node_id = ?", (str(arguments.get("email", "")).strip().lower(),
                                             arguments.get("node_id"))).fetchone()
    if row is not None and row[0] != row[1]:
        return ["policy:external_edit_share"]
    return []


# --------------------------------------------------------------------------- the kit

SAMPLERS = by_name(
    rename_file, move_item, trash_file, restore_from_trash, share_item, unshare_item,
    create_folder, restore_version, info_file_size, info_last_modified, info_folder_count,
    refuse_external_edit)

TASKS = RuleTaskKit(
    "filesystem", SAMPLERS,
    identify=lambda ctx: identify_by(ctx, "email"),
    auth_call=lambda d: ToolCall("find_user_id_by_email", {"email": d.fields["email"]}),
    auth_tools=("find_user_id_by_email",),
    owners={name: ("SELECT user_id FROM users WHERE user_id = ?", "user_id")
            for name in WRITE_TOOLS},
    ask_identity="Before I can help, I need to verify your identity. What is the email "
                 "address of your account?",
    identity_phrases=("It's {email}.", "Sure, my account is {email}.", "{email}"),
    policy_violations=policy_violations,
)
