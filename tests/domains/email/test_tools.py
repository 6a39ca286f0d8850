"""Every email tool: its success path and its error paths; failed writes change nothing."""

from __future__ import annotations

from collections import Counter


from tool_gym.core.tools import Category
from tool_gym.domains.email import DOMAIN
from tool_gym.domains.email.invariants import invariants

from ..calls import rules_catch


def _box(call, user="usr_0001"):
    """{kind or custom name: folder_id} of a mailbox."""
    return {(k if k != "custom" else n): f for f, n, k in call.box.db.execute(
        "SELECT folder_id, name, kind FROM folders WHERE user_id = ?", (user,))}


def _received(call, where="", params=()):
    return call.one("SELECT m.message_id, m.user_id, m.sender, m.subject FROM messages m JOIN "
                    "folders f ON f.folder_id = m.folder_id WHERE m.status = 'received' "
                    f"{where} ORDER BY m.message_id LIMIT 1", params)


def test_toolbox_has_six_reads_and_six_writes_at_least():
    counts = Counter(t.category for t in DOMAIN.toolbox)
    assert counts[Category.READ] >= 6 and counts[Category.WRITE] >= 6


def test_find_user_and_folders_and_labels(call):
    uid, email = call.one("SELECT user_id, email FROM users ORDER BY user_id LIMIT 1")
    assert call.ok("find_user_by_email", email=f"  {email.upper()} ")["user_id"] == uid
    assert "no mailbox" in call.err("find_user_by_email", email="ghost@brightwave.io")
    folders = call.ok("list_folders", user_id=uid)["folders"]
    assert {f["kind"] for f in folders} >= {"inbox", "sent", "drafts", "trash", "archive", "spam"}
    inbox = next(f for f in folders if f["kind"] == "inbox")
    assert inbox["unread"] == call.one("SELECT count(*) FROM messages WHERE folder_id = ? AND "
                                       "is_read = 0", (inbox["folder_id"],))[0]
    assert call.ok("list_labels", user_id=uid)["labels"]
    assert "user not found" in call.err("list_folders", user_id="usr_9999")
    assert "user not found" in call.err("list_labels", user_id="nobody")


def test_list_and_search_messages(call):
    inbox = _box(call)["inbox"]
    listed = call.ok("list_messages", folder_id=inbox)["messages"]
    assert listed and [m["sent_at"] for m in listed] == sorted(
        (m["sent_at"] for m in listed), reverse=True)
    unread = call.ok("list_messages", folder_id=inbox, unread_only=True)["messages"]
    assert all(not m["is_read"] for m in unread)
    assert len(call.ok("list_messages", folder_id=inbox, limit=1)["messages"]) == 1
    assert "between 1 and 200" in call.err("list_messages", folder_id=inbox, limit=0)
    assert "folder not found" in call.err("list_messages", folder_id="fld_0")
    mid, uid, sender, subject = _received(call)
    found = call.ok("search_messages", user_id=uid, query=subject.upper())["messages"]
    assert mid in [m["message_id"] for m in found]
    by_sender = call.ok("search_messages", user_id=uid, sender=sender)["messages"]
    assert by_sender and all(sender in m["from"] for m in by_sender)
    assert "query, a sender" in call.err("search_messages", user_id=uid)


def test_get_message_and_thread(call):
    mid, = call.one("SELECT message_id FROM attachments LIMIT 1")
    m = call.ok("get_message", message_id=mid)
    assert m["attachments"] and m["to"] and m["folder"]
    assert "message not found" in call.err("get_message", message_id="msg_0")
    reply, thread = call.one("SELECT message_id, thread_id FROM messages WHERE in_reply_to IS "
                             "NOT NULL LIMIT 1")
    messages = call.ok("get_thread", thread_id=thread)["messages"]
    assert len(messages) >= 2 and reply in [x["message_id"] for x in messages]
    assert "thread not found" in call.err("get_thread", thread_id="thr_0")


def test_contacts_filters_and_addresses(call):
    uid, name = call.one("SELECT user_id, name FROM contacts ORDER BY contact_id LIMIT 1")
    assert name in [c["name"] for c in call.ok("list_contacts", user_id=uid)["contacts"]]
    only = call.ok("list_contacts", user_id=uid, query=name.split()[0].lower())["contacts"]
    assert only and all(name.split()[0] in c["name"] or name.split()[0].lower() in c["email"]
                        for c in only)
    fuid, = call.one("SELECT user_id FROM filters LIMIT 1")
    assert call.ok("list_filters", user_id=fuid)["filters"]
    assert call.ok("check_address", address="IT-Helpdesk@brightwave-support.net")["blocked"]
    ok = call.ok("check_address", address="nathan.fernandes@brightwave.io")
    assert not ok["blocked"] and ok["internal"]
    assert "user not found" in call.err("list_contacts", user_id="x")
    assert call.ok("transfer_to_human_agents", summary="x") == "Transfer successful"


# ---------------------------------------------------------------------------- writes


def test_send_message_delivers_and_filters(call):
    sender, recipient = "usr_0001", "usr_0002"
    to, = call.one("SELECT email FROM users WHERE user_id = ?", (recipient,))
    folder = _box(call, recipient)["Receipts"] if "Receipts" in _box(call, recipient) else \
        next(f for k, f in _box(call, recipient).items() if k not in (
            "inbox", "sent", "drafts", "trash", "archive", "spam"))
    call.ok("create_filter", user_id=recipient, action="move", subject_contains="quarterly",
            folder_id=folder)
    sent = call.ok("send_message", user_id=sender, to=[to], cc=["x@example.com", to],
                   subject="Quarterly numbers", body="Attached.")
    assert sent["status"] == "sent" and sent["folder"] == "Sent"
    assert sent["to"] == [to] and sent["cc"] == ["x@example.com"]
    copy = call.one("SELECT folder_id, status, is_read FROM messages WHERE user_id = ? AND "
                    "subject = 'Quarterly numbers'", (recipient,))
    assert copy == (folder, "received", 0)  # delivered, then moved by the filter
    assert invariants(call.box.db) == []
    assert "invalid address" in call.err("send_message", user_id=sender, to=["not-an-address"],
                                         subject="s", body="b")
    assert "at least one recipient" in call.err("send_message", user_id=sender, to=[],
                                                subject="s", body="b")
    assert "subject is empty" in call.err("send_message", user_id=sender, to=[to], subject=" ",
                                          body="b")
    assert "too long" in call.err("send_message", user_id=sender, to=[to], subject="s",
                                  body="x" * 20_001)
    assert "at most 50" in call.err("send_message", user_id=sender, subject="s", body="b",
                                    to=[f"p{i}@example.com" for i in range(51)])
    assert "user not found" in call.err("send_message", user_id="usr_9", to=[to], subject="s",
                                        body="b")


def test_reply_to_message(call):
    mid, uid, sender, subject = _received(call, "AND f.kind = 'inbox'")
    reply = call.ok("reply_to_message", message_id=mid, body="Thanks!")
    assert reply["subject"] == f"Re: {subject}" and reply["in_reply_to"] == mid
    assert reply["to"] == [sender] and reply["user_id"] == uid
    thread, = call.one("SELECT thread_id FROM messages WHERE message_id = ?", (mid,))
    assert reply["thread_id"] == thread
    again = call.ok("reply_to_message", message_id=reply["message_id"], body="One more thing.")
    assert again["subject"] == f"Re: {subject}" and again["to"] == [sender]
    cc_mid, = call.one("SELECT message_id FROM recipients WHERE kind = 'cc' LIMIT 1")
    everyone = call.ok("reply_to_message", message_id=cc_mid, body="All", reply_all=True)
    assert everyone["cc"]
    draft, = call.one("SELECT message_id FROM messages WHERE status = 'draft' LIMIT 1")
    assert "draft cannot be replied" in call.err("reply_to_message", message_id=draft, body="x")
    assert "message not found" in call.err("reply_to_message", message_id="msg_1x", body="x")


def test_forward_message(call):
    mid, = call.one("SELECT message_id FROM attachments ORDER BY attachment_id LIMIT 1")
    n, = call.one("SELECT count(*) FROM attachments WHERE message_id = ?", (mid,))
    fwd = call.ok("forward_message", message_id=mid, to=["friend@example.com"], note="FYI")
    assert fwd["subject"].startswith("Fwd: ") and len(fwd["attachments"]) == n
    assert fwd["body"].startswith("FYI\n\n---------- Forwarded message")
    draft, = call.one("SELECT message_id FROM messages WHERE status = 'draft' LIMIT 1")
    assert "draft cannot be forwarded" in call.err("forward_message", message_id=draft,
                                                   to=["a@example.com"])
    assert "invalid address" in call.err("forward_message", message_id=mid, to=["a@b"])


def test_drafts(call):
    draft = call.ok("create_draft", user_id="usr_0001", to=["a@example.com"], subject="Plan",
                    body="Draft text")
    assert draft["status"] == "draft" and draft["folder"] == "Drafts"
    sent = call.ok("send_draft", message_id=draft["message_id"])
    assert sent["status"] == "sent" and sent["folder"] == "Sent"
    assert "not a draft" in call.err("send_draft", message_id=draft["message_id"])
    empty = call.ok("create_draft", user_id="usr_0001", to=["a@example.com"], subject=" ",
                    body="")
    assert "no subject" in call.err("send_draft", message_id=empty["message_id"])
    assert "at least one recipient" in call.err("create_draft", user_id="usr_0001", to=[],
                                                subject="x", body="y")


def test_move_trash_and_delete(call):
    folders = _box(call)
    mid, *_ = _received(call, "AND f.folder_id = ?", (folders["inbox"],))
    moved = call.ok("move_message", message_id=mid, folder_id=folders["archive"])
    assert moved["folder"] == "Archive"
    assert "already in" in call.err("move_message", message_id=mid, folder_id=folders["archive"])
    assert "cannot be moved into" in call.err("move_message", message_id=mid,
                                              folder_id=folders["sent"])
    other, = call.one("SELECT folder_id FROM folders WHERE user_id != 'usr_0001' LIMIT 1")
    assert "another mailbox" in call.err("move_message", message_id=mid, folder_id=other)
    draft, = call.one("SELECT message_id FROM messages WHERE status = 'draft' LIMIT 1")
    drafts_folder, = call.one("SELECT f.folder_id FROM folders f JOIN messages m ON m.user_id = "
                              "f.user_id WHERE m.message_id = ? AND f.kind = 'archive'", (draft,))
    assert "drafts stay" in call.err("move_message", message_id=draft, folder_id=drafts_folder)
    assert call.ok("trash_message", message_id=draft)["folder"] == "Trash"  # a discarded draft
    assert invariants(call.box.db) == []
    assert "drafts stay" in call.err("move_message", message_id=draft, folder_id=drafts_folder)
    assert "only messages in the Trash" in call.err("delete_permanently", message_id=mid)
    assert call.ok("trash_message", message_id=mid)["folder"] == "Trash"
    assert "already in the Trash" in call.err("trash_message", message_id=mid)
    reply = call.ok("reply_to_message", message_id=mid, body="ok")
    assert call.ok("delete_permanently", message_id=mid) == {"deleted": mid}
    assert call.one("SELECT count(*) FROM messages WHERE message_id = ?", (mid,)) == (0,)
    assert call.one("SELECT in_reply_to FROM messages WHERE message_id = ?",
                    (reply["message_id"],)) == (None,)
    assert "message not found" in call.err("delete_permanently", message_id=mid)
    assert invariants(call.box.db) == []


def test_read_state_and_labels(call):
    mid, uid, *_ = _received(call, "AND m.is_read = 0")
    assert call.ok("mark_read", message_id=mid)["is_read"] is True
    assert "already read" in call.err("mark_read", message_id=mid)
    assert call.ok("mark_read", message_id=mid, read=False)["is_read"] is False
    label, = call.one("SELECT label_id FROM labels WHERE user_id = ? AND label_id NOT IN (SELECT "
                      "label_id FROM message_labels WHERE message_id = ?) LIMIT 1", (uid, mid))
    assert label in [l["label_id"] for l in call.ok("add_label", message_id=mid,
                                                    label_id=label)["labels"]]
    assert "already has the label" in call.err("add_label", message_id=mid, label_id=label)
    foreign, = call.one("SELECT label_id FROM labels WHERE user_id != ? LIMIT 1", (uid,))
    assert "another mailbox" in call.err("add_label", message_id=mid, label_id=foreign)
    assert "label not found" in call.err("add_label", message_id=mid, label_id="lbl_x")
    assert call.ok("remove_label", message_id=mid, label_id=label)["labels"] == [
        l for l in call.ok("get_message", message_id=mid)["labels"]]
    assert "does not have the label" in call.err("remove_label", message_id=mid, label_id=label)


def test_contacts_filters_folders(call):
    made = call.ok("add_contact", user_id="usr_0001", name="Pat Doe", email="pat@example.com")
    assert made["contact_id"].startswith("con_")
    assert "already a contact" in call.err("add_contact", user_id="usr_0001", name="P",
                                           email="PAT@example.com")
    assert "invalid address" in call.err("add_contact", user_id="usr_0001", name="P", email="x")
    assert "name is empty" in call.err("add_contact", user_id="usr_0001", name=" ",
                                       email="q@example.com")
    folders = _box(call)
    flt = call.ok("create_filter", user_id="usr_0001", action="mark_read",
                  from_address="news@example.com")
    assert flt["action"] == "mark_read" and flt["folder_id"] is None
    assert "already exists" in call.err("create_filter", user_id="usr_0001", action="mark_read",
                                        from_address="news@example.com")
    assert "needs from_address" in call.err("create_filter", user_id="usr_0001",
                                            action="mark_read")
    assert "needs folder_id" in call.err("create_filter", user_id="usr_0001", action="move",
                                         from_address="a@example.com")
    assert "Drafts or Sent" in call.err("create_filter", user_id="usr_0001", action="move",
                                        from_address="a@example.com", folder_id=folders["sent"])
    assert "needs label_id" in call.err("create_filter", user_id="usr_0001", action="label",
                                        from_address="a@example.com")
    assert "'move' filters only" in call.err("create_filter", user_id="usr_0001",
                                             action="label", from_address="a@example.com",
                                             folder_id=folders["inbox"])
    top = call.ok("create_folder", user_id="usr_0001", name="Taxes")
    child = call.ok("create_folder", user_id="usr_0001", name="2025", parent_id=top["folder_id"])
    assert child["parent_id"] == top["folder_id"]
    assert "already exists" in call.err("create_folder", user_id="usr_0001", name="Taxes")
    assert "inside custom folders" in call.err("create_folder", user_id="usr_0001", name="X",
                                               parent_id=folders["inbox"])
    assert invariants(call.box.db) == []


def test_invariants_catch_broken_rules(box):
    rules_catch(box, {
        "no cycle": "UPDATE folders SET parent_id = folder_id WHERE folder_id = (SELECT "
        "folder_id FROM folders WHERE kind = 'custom' LIMIT 1)",
        "only drafts are in the Drafts folder": "UPDATE messages SET folder_id = (SELECT "
        "folder_id FROM folders f WHERE f.user_id = messages.user_id AND f.kind = 'drafts') "
        "WHERE message_id = 'msg_000001'",
        "a draft is there or in the Trash": "UPDATE messages SET folder_id = (SELECT folder_id "
        "FROM folders f WHERE f.user_id = messages.user_id AND f.kind = 'archive') "
        "WHERE status = 'draft'",
        "at least one recipient": "DELETE FROM recipients WHERE message_id = 'msg_000001'",
        "one folder of each system kind": "DELETE FROM folders WHERE kind = 'spam' AND "
        "user_id = 'usr_0003'",
        "labels belong to its mailbox": "INSERT INTO message_labels SELECT 'msg_000001', "
        "label_id FROM labels WHERE user_id != 'usr_0001' LIMIT 1",
    }, "PRAGMA foreign_keys = OFF")
