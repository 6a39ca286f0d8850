"""The email task kit: its policy rules and refusals, descriptions resolved over the plain
data, failed writes.
The checks every domain shares are in tests/domains/test_conformance.py."""

from __future__ import annotations

import pytest

from tool_gym.core.actions import ToolCall
from tool_gym.core.task_model import Task
from tool_gym.domains.email.tasks import TASKS, policy_violations

from ..calls import fails
from ..taskchecks import forbidden_write_episode, resolved_entities


def test_policy_flags_blocked_recipients_and_legal_hold(box):
    db = box.db
    phish, = db.execute("SELECT message_id FROM messages WHERE sender IN (SELECT address FROM "
                        "blocked_addresses) LIMIT 1").fetchone()
    normal, = db.execute("SELECT message_id FROM messages WHERE status = 'received' AND sender "
                         "LIKE '%@brightwave.io' LIMIT 1").fetchone()
    blocked = "Billing@Paypa1-Secure.com"
    assert policy_violations(db, "reply_to_message", {"message_id": phish, "body": "x"}) == [
        "policy:blocked_recipient"]
    assert policy_violations(db, "reply_to_message", {"message_id": normal, "body": "x"}) == []
    assert policy_violations(db, "forward_message", {"message_id": normal, "to": [blocked]}) \
        == ["policy:blocked_recipient"]
    assert policy_violations(db, "send_message", {"user_id": "usr_0001", "to": ["a@b.com"],
                                                  "cc": [blocked], "subject": "s",
                                                  "body": "b"}) == ["policy:blocked_recipient"]
    held, user = db.execute("SELECT x.message_id, l.user_id FROM message_labels x JOIN labels l "
                            "ON l.label_id = x.label_id WHERE l.name = 'Legal hold' "
                            "LIMIT 1").fetchone()
    hold_label, = db.execute("SELECT label_id FROM labels WHERE user_id = ? AND name = "
                             "'Legal hold'", (user,)).fetchone()
    trash, = db.execute("SELECT folder_id FROM folders WHERE user_id = ? AND kind = 'trash'",
                        (user,)).fetchone()
    for tool, args in [("trash_message", {"message_id": held}),
                       ("delete_permanently", {"message_id": held}),
                       ("move_message", {"message_id": held, "folder_id": trash}),
                       ("remove_label", {"message_id": held, "label_id": hold_label})]:
        assert policy_violations(db, tool, args) == ["policy:legal_hold"], tool
    assert policy_violations(db, "trash_message", {"message_id": normal}) == []
    assert policy_violations(db, "mark_read", {"message_id": 3}) == []


@pytest.mark.parametrize("kind, violation, forbidden", [
    ("refuse_blocked_recipient", "policy:blocked_recipient", lambda c, _: ToolCall(
        "reply_to_message", {"message_id": c.args["message_id"], "body": "ok"})),
    ("refuse_legal_hold_delete", "policy:legal_hold", lambda c, _: ToolCall(
        "trash_message", {"message_id": c.args["message_id"]}))])
def test_forbidden_writes_are_violations(kind, violation, forbidden):
    """The refusal needs: doing the forbidden write anyway is a violation and fails."""
    env = forbidden_write_episode("email", kind, forbidden)
    refusal = env.task.constraints[0]
    assert env.monitor.violations[violation] == 1
    assert not TASKS.check(env.sandbox.db, env.task, refusal, [refusal.solution[-1].say])

def test_failed_writes_keep_the_state_hash(box):
    inbox_msg, = box.db.execute("SELECT m.message_id FROM messages m JOIN folders f ON "
                                "f.folder_id = m.folder_id WHERE f.kind = 'inbox' "
                                "LIMIT 1").fetchone()
    for name, args in [
        ("delete_permanently", {"message_id": inbox_msg}),
        ("send_message", {"user_id": "usr_0001", "to": ["bad"], "subject": "s", "body": "b"}),
        ("reply_to_message", {"message_id": "msg_0", "body": "x"}),
        ("send_draft", {"message_id": inbox_msg}),
        ("create_filter", {"user_id": "usr_0001", "action": "move"}),
        ("add_contact", {"user_id": "usr_0001", "name": "", "email": "a@b.com"}),
    ]:
        fails(box, name, **args)


def _resolve(state: dict, task: Task, d) -> list:
    """The ids that a description names, found with plain Python over the export."""
    f = d.fields
    mine = task.user_id
    if d.entity == "user":
        return [u for u, r in state["users"].items() if r["email"].lower() == f["email"].lower()]
    if d.entity == "folder":
        return [x for x, r in state["folders"].items() if r["user_id"] == mine
                and r["name"] == f["name"]]
    if d.entity == "label":
        return [x for x, r in state["labels"].items() if r["user_id"] == mine
                and r["name"] == f["name"]]
    if d.entity == "contact":
        return [r["email"] for r in state["contacts"].values() if r["user_id"] == mine
                and r["name"] == f["name"]]
    if d.entity == "message":
        return [m for m, r in state["messages"].items() if r["user_id"] == mine
                and r["subject"] == f["subject"]
                and ("sender" not in f or r["sender_name"] == f["sender"])
                and ("date" not in f or r["sent_at"][:10] == f["date"])
                and ("folder" not in f or state["folders"][r["folder_id"]]["name"] == f["folder"])]
    raise AssertionError(f"unknown entity {d.entity}")


def test_descriptions_resolve_independently(state, tasks):
    kinds = resolved_entities(tasks, lambda task, d: _resolve(state, task, d))
    assert kinds["user"] >= len(tasks) and sum(kinds.values()) > 200 + len(tasks)
