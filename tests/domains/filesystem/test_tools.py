"""The filesystem tools on the tiny database: every success path and error path.

``fails`` (tests/domains/calls.py) asserts that a call fails with a given message *and
changes nothing*, so every error test is also a rollback test.
"""

from __future__ import annotations

from collections import Counter

import pytest

from tool_gym.core.tools import Category
from tool_gym.domains.filesystem import DOMAIN
from tool_gym.domains.filesystem.generate import NOW
from tool_gym.domains.filesystem.tasks import TASKS, WRITE_TOOLS

from ..calls import fails, ok

pytestmark = pytest.mark.usefixtures("rules_kept")  # the rules hold after every test


def node(box, node_id):
    row = box.db.execute("SELECT name, parent_id, owner_id, size, content, version, trashed_at "
                         "FROM nodes WHERE node_id = ?", (node_id,)).fetchone()
    return None if row is None else dict(zip(
        ("name", "parent_id", "owner_id", "size", "content", "version", "trashed_at"), row))


# ----------------------------------------------------------------------- the toolbox


def test_toolbox_shape():
    counts = Counter(t.category for t in DOMAIN.toolbox)
    writes = [t for t in DOMAIN.toolbox if t.category is Category.WRITE]
    assert counts[Category.READ] == 10 and counts[Category.WRITE] == 12
    assert {t.name for t in writes} == set(WRITE_TOOLS)
    for t in writes:  # the target of a write is its first entity-typed parameter
        first = next(iter(t.input_entities))
        assert t.input_entities[first] == "node_id" and t.input_entities["user_id"] == "user_id"
        assert t.writes, t.name
    assert DOMAIN.toolbox["find_user_id_by_email"].output_entities == {".": "user_id"}


def test_owner_and_policy_hooks(box):
    assert TASKS.owner(box.db, "rename_node", {"node_id": "nd_notes", "user_id": "usr_bob"}) \
        == "usr_bob"
    assert TASKS.owner(box.db, "rename_node", {"user_id": "nobody"}) is None
    assert TASKS.owner(box.db, "list_trash", {"user_id": "usr_bob"}) is None
    share = {"node_id": "nd_docs", "user_id": "usr_alice", "permission": "edit"}
    assert TASKS.policy_violations(box.db, "share_node", {
        **share, "email": " Carol.Diaz@contoso.com"}) == ["policy:external_edit_share"]
    assert TASKS.policy_violations(box.db, "share_node", {
        **share, "email": "bob.stone@northwind.com"}) == []
    assert TASKS.policy_violations(box.db, "share_node", {
        **share, "email": "carol.diaz@contoso.com", "permission": "view"}) == []
    assert TASKS.policy_violations(box.db, "delete_node", {"node_id": "nd_docs"}) == []


# ----------------------------------------------------------------------- reads


def test_find_user_id_by_email(box):
    assert ok(box, "find_user_id_by_email", email="  Alice.Moss@Northwind.com ") == "usr_alice"
    fails(box, "find_user_id_by_email", "no user with email", email="alice@example.com")
    fails(box, "find_user_id_by_email", "NUL", email="alice\x00.moss@northwind.com")


def test_get_user_details(box):
    user = ok(box, "get_user_details", user_id="usr_alice")
    assert user["used_bytes"] == 8 + 4000 + 4 + 3000 + 9  # the trash counts too
    assert user["root_folder_id"] == "nd_aroot" and user["organization"] == "Northwind Traders"
    fails(box, "get_user_details", "not found", user_id="usr_nobody")


def test_list_directory_and_paths(box):
    root = ok(box, "list_directory", user_id="usr_alice")
    assert root["path"] == "/" and root["folder_id"] == "nd_aroot"
    assert [e["name"] for e in root["entries"]] == ["Documents", "Photos", "todo.txt"]
    docs = ok(box, "list_directory", user_id="usr_alice", path="Documents")
    assert [e["name"] for e in docs["entries"]] == ["notes.txt", "report.pdf"]  # not the trash
    for path in ("/Photos/2024", "Photos/2024/", "/Photos/./2024", "/Documents/../Photos/2024",
                 "//Photos//2024", " /Photos/2024 "):
        assert ok(box, "list_directory", user_id="usr_alice", path=path)["folder_id"] == \
            "nd_2024", path
    fails(box, "list_directory", "above your root", user_id="usr_alice", path="..")
    fails(box, "list_directory", "above your root", user_id="usr_alice", path="/Documents/../..")
    fails(box, "list_directory", "above your root", user_id="usr_alice", path="../../etc/passwd")
    fails(box, "list_directory", "no file or folder at '/etc'", user_id="usr_alice",
          path="/etc/passwd")
    fails(box, "list_directory", "no file or folder at '/~'", user_id="usr_alice", path="~/x")
    fails(box, "list_directory", "not '\\'", user_id="usr_alice", path="C:\\Windows")
    fails(box, "list_directory", "NUL", user_id="usr_alice", path="/Documents\x00/x")
    fails(box, "list_directory", "control", user_id="usr_alice", path="/Docu\u202ements")
    fails(box, "list_directory", "control", user_id="usr_alice", path="/Docu\nments")
    fails(box, "list_directory", "at most 4096", user_id="usr_alice", path="/a" * 3000)
    fails(box, "list_directory", "at most 64", user_id="usr_alice", path="/a" * 70)
    fails(box, "list_directory", "is a file", user_id="usr_alice", path="/todo.txt")
    fails(box, "list_directory", "is a file", user_id="usr_alice", path="/todo.txt/x")
    fails(box, "list_directory", "no file or folder at '/Documents/old.txt'",
          user_id="usr_alice", path="/Documents/old.txt")  # trashed items have no path
    fails(box, "list_directory", "not found", user_id="usr_ghost", path="/")
    fails(box, "list_directory", "must be of type string", user_id="usr_alice", path=["/"])
    # Bob's own root: Alice's folders are not reachable by path, only Bob's.
    assert [e["name"] for e in ok(box, "list_directory", user_id="usr_bob")["entries"]] == \
        ["plan.md"]
    fails(box, "list_directory", "no file or folder", user_id="usr_bob", path="/Documents")


def test_unicode_names_are_normalized(box):
    made = ok(box, "create_folder", parent_id="nd_aroot", user_id="usr_alice", name="Cafe\u0301")
    assert made["name"] == "Caf\u00e9"
    assert ok(box, "get_node_by_path", user_id="usr_alice", path="/Caf\u00e9")["node_id"] == \
        made["node_id"]
    assert ok(box, "get_node_by_path", user_id="usr_alice", path="/Cafe\u0301")["node_id"] == \
        made["node_id"]
    fails(box, "create_folder", "already contains", parent_id="nd_aroot", user_id="usr_alice",
          name="Caf\u00e9")


def test_get_node_by_path(box):
    notes = ok(box, "get_node_by_path", user_id="usr_alice", path="/Documents/notes.txt")
    assert notes["node_id"] == "nd_notes" and notes["version"] == 2 and notes["is_text"]
    assert notes["path"] == "/Documents/notes.txt" and notes["your_access"] == "owner"
    docs = ok(box, "get_node_by_path", user_id="usr_alice", path="/Documents")
    assert docs["item_count"] == 2
    assert docs["shared_with"] == [{"email": "bob.stone@northwind.com", "full_name": "Bob Stone",
                                    "permission": "edit", "shared_at": "2024-05-02T10:00:00"}]
    fails(box, "get_node_by_path", "no file or folder at '/nope'", user_id="usr_alice",
          path="/nope")


def test_get_node_details_and_access(box):
    docs = ok(box, "get_node_details", node_id="nd_docs", user_id="usr_alice")
    assert [c["name"] for c in docs["children"]] == ["notes.txt", "report.pdf"]
    seen = ok(box, "get_node_details", node_id="nd_notes", user_id="usr_bob")
    assert seen["your_access"] == "edit" and seen["path"] is None and "shared_with" not in seen
    assert ok(box, "get_node_details", node_id="nd_beach",
              user_id="usr_carol")["your_access"] == "view"
    old = ok(box, "get_node_details", node_id="nd_old", user_id="usr_alice")
    assert old["in_trash"] and old["trashed_at"] == "2024-06-01T10:00:00"
    fails(box, "get_node_details", "accessible to user", node_id="nd_docs", user_id="usr_carol")
    fails(box, "get_node_details", "accessible to user", node_id="nd_missing", user_id="usr_alice")
    fails(box, "get_node_details", "not found", node_id="nd_docs", user_id="usr_ghost")


def test_read_file(box):
    assert ok(box, "read_file", node_id="nd_notes", user_id="usr_alice")["content"] == \
        "v2 text\n"
    assert ok(box, "read_file", node_id="nd_notes", user_id="usr_bob")["version"] == 2
    fails(box, "read_file", "is a folder", node_id="nd_docs", user_id="usr_alice")
    fails(box, "read_file", "binary file (application/pdf)", node_id="nd_report",
          user_id="usr_alice")
    fails(box, "read_file", "in the trash", node_id="nd_old", user_id="usr_alice")
    fails(box, "read_file", "accessible to user", node_id="nd_notes", user_id="usr_carol")


def test_search_files(box):
    hits = ok(box, "search_files", user_id="usr_alice", query="NOTES")
    assert [(h["node_id"], h["path"]) for h in hits] == [("nd_notes", "/Documents/notes.txt")]
    assert [h["name"] for h in ok(box, "search_files", user_id="usr_alice", query=".pdf")] == \
        ["report.pdf"]
    assert [h["node_id"] for h in ok(box, "search_files", user_id="usr_alice", query="2024",
                                     kind="folder")] == ["nd_2024"]
    assert ok(box, "search_files", user_id="usr_alice", query="old") == []  # trashed
    shared = ok(box, "search_files", user_id="usr_bob", query=".")
    assert {(h["name"], h["shared_with_you"]) for h in shared} == {
        ("notes.txt", True), ("report.pdf", True), ("plan.md", False)}
    assert all(h["path"] is None for h in shared if h["shared_with_you"])
    fails(box, "search_files", "must not be empty", user_id="usr_alice", query="  ")
    fails(box, "search_files", "must be one of", user_id="usr_alice", query="x", kind="link")


def test_list_trash_versions_and_shares(box):
    trash = ok(box, "list_trash", user_id="usr_alice")
    assert [(t["node_id"], t["original_folder"]) for t in trash] == [("nd_old", "/Documents")]
    assert ok(box, "list_trash", user_id="usr_bob") == []
    versions = ok(box, "list_file_versions", node_id="nd_notes", user_id="usr_alice")
    assert [(v["version"], v["current"]) for v in versions["versions"]] == [(1, False),
                                                                           (2, True)]
    fails(box, "list_file_versions", "only files have versions", node_id="nd_docs",
          user_id="usr_alice")
    assert [(s["name"], s["permission"]) for s in ok(box, "list_shared_with_me",
                                                     user_id="usr_bob")] == \
        [("Documents", "edit")]
    assert [(s["name"], s["owner_email"]) for s in ok(box, "list_shared_with_me",
                                                      user_id="usr_carol")] == \
        [("Photos", "alice.moss@northwind.com")]
    assert ok(box, "list_shared_with_me", user_id="usr_alice") == []
    fails(box, "list_trash", "not found", user_id="usr_ghost")


# ----------------------------------------------------------------------- writes


def test_create_folder(box):
    made = ok(box, "create_folder", parent_id="nd_docs", user_id="usr_alice", name="Drafts")
    assert made["path"] == "/Documents/Drafts" and made["created_at"] == NOW
    by_bob = ok(box, "create_folder", parent_id="nd_docs", user_id="usr_bob", name="Bob's")
    assert node(box, by_bob["node_id"])["owner_id"] == "usr_alice"  # the tree's owner
    fails(box, "create_folder", "already contains", parent_id="nd_docs", user_id="usr_alice",
          name="Drafts")
    for bad, message in (("", "empty"), ("   ", "empty"), ("a/b", "'/'"), ("a\\b", "'/'"),
                         ("..", "not a valid name"), (".", "not a valid name"),
                         (" x", "spaces"), ("x\u202e", "control"), ("x\u0007", "control"),
                         ("x" * 256, "at most 255")):
        fails(box, "create_folder", message, parent_id="nd_aroot", user_id="usr_alice", name=bad)
    fails(box, "create_folder", "is a file", parent_id="nd_todo", user_id="usr_alice", name="x")
    fails(box, "create_folder", "only view access", parent_id="nd_photos", user_id="usr_carol",
          name="x")
    fails(box, "create_folder", "accessible to user", parent_id="nd_broot", user_id="usr_alice",
          name="x")
    fails(box, "create_folder", "not found", parent_id="nd_aroot", user_id="usr_ghost", name="x")


def test_create_file(box):
    made = ok(box, "create_file", parent_id="nd_aroot", user_id="usr_alice", name="ideas.md",
              content="# Idées\n")
    assert made["size"] == len("# Idées\n".encode()) and made["version"] == 1
    assert made["mime_type"] == "text/markdown"
    assert ok(box, "read_file", node_id=made["node_id"], user_id="usr_alice")["content"] == \
        "# Idées\n"
    fails(box, "create_file", "not enough storage", parent_id="nd_aroot", user_id="usr_alice",
          name="big.txt", content="x" * 3000)
    fails(box, "create_file", "already contains", parent_id="nd_aroot", user_id="usr_alice",
          name="todo.txt", content="x")
    fails(box, "create_file", "only view access", parent_id="nd_2024", user_id="usr_carol",
          name="x.txt", content="x")


def test_update_file_keeps_versions(box):
    updated = ok(box, "update_file", node_id="nd_notes", user_id="usr_bob", content="v3\n")
    assert updated["version"] == 3 and node(box, "nd_notes")["content"] == "v3\n"
    versions = ok(box, "list_file_versions", node_id="nd_notes", user_id="usr_alice")
    assert [v["version"] for v in versions["versions"]] == [1, 2, 3]
    assert versions["versions"][-1]["modified_by"] == "bob.stone@northwind.com"
    fails(box, "update_file", "same as the current", node_id="nd_notes", user_id="usr_alice",
          content="v3\n")
    fails(box, "update_file", "binary file", node_id="nd_report", user_id="usr_alice",
          content="x")
    fails(box, "update_file", "is a folder", node_id="nd_docs", user_id="usr_alice", content="x")
    fails(box, "update_file", "only view access", node_id="nd_beach", user_id="usr_carol",
          content="x")
    fails(box, "update_file", "in the trash", node_id="nd_old", user_id="usr_alice", content="x")
    fails(box, "update_file", "not enough storage", node_id="nd_todo", user_id="usr_alice",
          content="x" * 4000)


def test_rename_node(box):
    assert ok(box, "rename_node", node_id="nd_notes", user_id="usr_bob",
              new_name="notes-old.txt")["name"] == "notes-old.txt"
    fails(box, "rename_node", "already contains an item named 'report.pdf'", node_id="nd_notes",
          user_id="usr_alice", new_name="report.pdf")
    fails(box, "rename_node", "already named", node_id="nd_todo", user_id="usr_alice",
          new_name="todo.txt")
    fails(box, "rename_node", "root folder cannot be renamed", node_id="nd_aroot",
          user_id="usr_alice", new_name="x")
    fails(box, "rename_node", "only view access", node_id="nd_beach", user_id="usr_carol",
          new_name="x.jpg")
    fails(box, "rename_node", "not a valid name", node_id="nd_todo", user_id="usr_alice",
          new_name="..")
    # A trashed item may share its name with a live one.
    ok(box, "rename_node", node_id="nd_report", user_id="usr_alice", new_name="old.txt")


def test_move_node(box):
    moved = ok(box, "move_node", node_id="nd_todo", user_id="usr_alice",
               destination_folder_id="nd_docs")
    assert moved["path"] == "/Documents/todo.txt"
    ok(box, "move_node", node_id="nd_2024", user_id="usr_alice",
       destination_folder_id="nd_aroot")
    assert node(box, "nd_beach")["parent_id"] == "nd_2024"  # content moves along
    fails(box, "move_node", "into itself or one of its subfolders", node_id="nd_docs",
          user_id="usr_alice", destination_folder_id="nd_docs")
    ok(box, "move_node", node_id="nd_2024", user_id="usr_alice",
       destination_folder_id="nd_photos")
    fails(box, "move_node", "into itself or one of its subfolders", node_id="nd_photos",
          user_id="usr_alice", destination_folder_id="nd_2024")
    fails(box, "move_node", "already in that folder", node_id="nd_2024", user_id="usr_alice",
          destination_folder_id="nd_photos")
    ok(box, "create_file", parent_id="nd_aroot", user_id="usr_alice", name="notes.txt",
       content="x")
    fails(box, "move_node", "already contains an item named 'notes.txt'", node_id="nd_notes",
          user_id="usr_alice", destination_folder_id="nd_aroot")
    fails(box, "move_node", "only the owner", node_id="nd_notes", user_id="usr_bob",
          destination_folder_id="nd_docs")
    fails(box, "move_node", "is a file", node_id="nd_notes", user_id="usr_alice",
          destination_folder_id="nd_report")
    fails(box, "move_node", "root folder cannot be moved", node_id="nd_aroot",
          user_id="usr_alice", destination_folder_id="nd_docs")
    fails(box, "move_node", "accessible to user", node_id="nd_notes", user_id="usr_alice",
          destination_folder_id="nd_broot")
    fails(box, "move_node", "in the trash", node_id="nd_old", user_id="usr_alice",
          destination_folder_id="nd_aroot")


def test_copy_node(box):
    copy = ok(box, "copy_node", node_id="nd_todo", user_id="usr_alice",
              destination_folder_id="nd_docs")
    assert copy["node_id"] != "nd_todo" and copy["path"] == "/Documents/todo.txt"
    assert ok(box, "list_file_versions", node_id=copy["node_id"],
              user_id="usr_alice")["current_version"] == 1
    renamed = ok(box, "copy_node", node_id="nd_todo", user_id="usr_alice",
                 destination_folder_id="nd_aroot", new_name="todo-copy.txt")
    assert renamed["name"] == "todo-copy.txt"
    fails(box, "copy_node", "not enough storage", node_id="nd_photos", user_id="usr_alice",
          destination_folder_id="nd_docs")  # 3000 more bytes than the quota allows
    # Carol may copy from a folder shared with her (view) into her own drive.
    mine = ok(box, "copy_node", node_id="nd_photos", user_id="usr_carol",
              destination_folder_id="nd_croot")
    assert mine["owner_id"] == "usr_carol" and mine["item_count"] == 1
    beach = ok(box, "get_node_by_path", user_id="usr_carol", path="/Photos/2024/beach.jpg")
    assert beach["size"] == 3000 and beach["node_id"] != "nd_beach"
    fails(box, "copy_node", "already contains", node_id="nd_todo", user_id="usr_alice",
          destination_folder_id="nd_aroot")
    fails(box, "copy_node", "into itself", node_id="nd_photos", user_id="usr_alice",
          destination_folder_id="nd_2024")
    fails(box, "copy_node", "only view access", node_id="nd_beach", user_id="usr_carol",
          destination_folder_id="nd_2024")
    fails(box, "copy_node", "root folder cannot be copied", node_id="nd_aroot",
          user_id="usr_alice", destination_folder_id="nd_docs")


def test_delete_and_restore(box):
    deleted = ok(box, "delete_node", node_id="nd_photos", user_id="usr_alice")
    assert deleted["in_trash"] and deleted["trashed_at"] == NOW
    fails(box, "read_file", "inside the trashed folder 'Photos'", node_id="nd_beach",
          user_id="usr_alice")
    fails(box, "get_node_details", "accessible to user", node_id="nd_beach", user_id="usr_bob")
    assert ok(box, "list_shared_with_me", user_id="usr_carol") == []
    fails(box, "delete_node", "in the trash", node_id="nd_photos", user_id="usr_alice")
    fails(box, "delete_node", "root folder cannot be deleted", node_id="nd_aroot",
          user_id="usr_alice")
    fails(box, "delete_node", "only the owner", node_id="nd_notes", user_id="usr_bob")
    fails(box, "restore_node", "inside the trashed folder 'Photos'", node_id="nd_beach",
          user_id="usr_alice")
    restored = ok(box, "restore_node", node_id="nd_photos", user_id="usr_alice")
    assert not restored["in_trash"] and restored["path"] == "/Photos"
    fails(box, "restore_node", "not in the trash", node_id="nd_photos", user_id="usr_alice")
    fails(box, "restore_node", "only the owner", node_id="nd_old", user_id="usr_bob")
    ok(box, "create_file", parent_id="nd_docs", user_id="usr_alice", name="old.txt",
       content="new\n")
    fails(box, "restore_node", "already contains an item named 'old.txt'", node_id="nd_old",
          user_id="usr_alice")


def test_restore_needs_a_live_folder(box):
    ok(box, "delete_node", node_id="nd_docs", user_id="usr_alice")
    fails(box, "restore_node", "is in the trash too", node_id="nd_old", user_id="usr_alice")
    ok(box, "restore_node", node_id="nd_docs", user_id="usr_alice")
    assert ok(box, "restore_node", node_id="nd_old",
              user_id="usr_alice")["path"] == "/Documents/old.txt"


def test_permanently_delete_node(box):
    fails(box, "permanently_delete_node", "must be in the trash", node_id="nd_todo",
          user_id="usr_alice")
    fails(box, "permanently_delete_node", "only the owner", node_id="nd_old", user_id="usr_bob")
    assert ok(box, "permanently_delete_node", node_id="nd_old",
              user_id="usr_alice")["deleted"] == 1
    assert node(box, "nd_old") is None
    assert box.db.execute("SELECT count(*) FROM versions WHERE node_id = 'nd_old'").fetchone() \
        == (0,)
    ok(box, "delete_node", node_id="nd_photos", user_id="usr_alice")
    assert ok(box, "permanently_delete_node", node_id="nd_photos",
              user_id="usr_alice")["deleted"] == 3
    assert box.db.execute("SELECT count(*) FROM shares WHERE node_id = 'nd_photos'"
                          ).fetchone() == (0,)
    assert ok(box, "get_user_details", user_id="usr_alice")["used_bytes"] == 8 + 4000 + 9


def test_share_and_unshare(box):
    shared = ok(box, "share_node", node_id="nd_todo", user_id="usr_alice",
                email="Bob.Stone@northwind.com", permission="view")
    assert shared["user_id"] == "usr_bob" and shared["permission"] == "view"
    assert ok(box, "share_node", node_id="nd_todo", user_id="usr_alice",
              email="bob.stone@northwind.com", permission="edit")["permission"] == "edit"
    fails(box, "share_node", "already shared with Bob Stone with edit", node_id="nd_todo",
          user_id="usr_alice", email="bob.stone@northwind.com", permission="edit")
    fails(box, "share_node", "registered users", node_id="nd_todo", user_id="usr_alice",
          email="eve@example.com", permission="view")
    fails(box, "share_node", "with its owner", node_id="nd_todo", user_id="usr_alice",
          email="alice.moss@northwind.com", permission="view")
    fails(box, "share_node", "root folder cannot be shared", node_id="nd_aroot",
          user_id="usr_alice", email="bob.stone@northwind.com", permission="view")
    fails(box, "share_node", "only the owner", node_id="nd_notes", user_id="usr_bob",
          email="carol.diaz@contoso.com", permission="view")
    fails(box, "share_node", "in the trash", node_id="nd_old", user_id="usr_alice",
          email="bob.stone@northwind.com", permission="view")
    fails(box, "share_node", "must be one of", node_id="nd_todo", user_id="usr_alice",
          email="bob.stone@northwind.com", permission="owner")
    assert ok(box, "unshare_node", node_id="nd_photos", user_id="usr_alice",
              email="carol.diaz@contoso.com")["removed"] == "carol.diaz@contoso.com"
    fails(box, "get_node_details", "accessible to user", node_id="nd_beach", user_id="usr_carol")
    fails(box, "unshare_node", "is not shared with", node_id="nd_photos", user_id="usr_alice",
          email="carol.diaz@contoso.com")
    fails(box, "unshare_node", "only the owner", node_id="nd_docs", user_id="usr_bob",
          email="bob.stone@northwind.com")


def test_restore_file_version(box):
    restored = ok(box, "restore_file_version", node_id="nd_notes", user_id="usr_alice",
                  version=1)
    assert restored["version"] == 3 and node(box, "nd_notes")["content"] == "v1 text\n"
    fails(box, "restore_file_version", "already the current version", node_id="nd_notes",
          user_id="usr_alice", version=3)
    fails(box, "restore_file_version", "has no version 9", node_id="nd_notes",
          user_id="usr_alice", version=9)
    fails(box, "restore_file_version", "only files have versions", node_id="nd_docs",
          user_id="usr_alice", version=1)
    fails(box, "restore_file_version", "accessible to user", node_id="nd_notes",
          user_id="usr_carol", version=1)
    fails(box, "restore_file_version", "must be of type integer", node_id="nd_notes",
          user_id="usr_alice", version="1")


def test_transfer(box):
    assert ok(box, "transfer_to_human_agents", summary="wants a refund") == \
        "Transfer successful"


def test_sql_injection_is_data(box):
    fails(box, "find_user_id_by_email", "no user", email="' OR 1=1 --")
    made = ok(box, "create_folder", parent_id="nd_aroot", user_id="usr_alice",
              name="x'); DROP TABLE nodes; --")
    assert node(box, made["node_id"])["name"] == "x'); DROP TABLE nodes; --"
