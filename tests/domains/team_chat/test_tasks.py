"""The team chat task kit: its policy rules and refusals, descriptions resolved over the
plain data, failed writes.
The checks every domain shares are in tests/domains/test_conformance.py."""

from __future__ import annotations

import numpy as np

from tool_gym.core.actions import ToolCall
from tool_gym.core.task_model import SamplerConfig, Task
from tool_gym.domains.team_chat.tasks import TASKS, policy_violations

from ..calls import fails
from ..taskchecks import forbidden_write_episode, resolved_entities


def test_policy_flags_archive_and_removal_by_non_admins(box):
    db = box.db
    cid, admin = db.execute("SELECT channel_id, user_id FROM channel_members WHERE role = "
                            "'admin' ORDER BY channel_id LIMIT 1").fetchone()
    member, = db.execute("SELECT user_id FROM channel_members WHERE channel_id = ? AND role = "
                         "'member' LIMIT 1", (cid,)).fetchone()
    assert policy_violations(db, "archive_channel", {"channel_id": cid, "user_id": member}) == [
        "policy:admin_only_archive"]
    assert policy_violations(db, "archive_channel", {"channel_id": cid, "user_id": admin}) == []
    assert policy_violations(db, "remove_member", {"channel_id": cid, "user_id": member,
                                                   "member_id": admin}) == [
        "policy:admin_only_remove"]
    assert policy_violations(db, "remove_member", {"channel_id": cid, "user_id": admin,
                                                   "member_id": member}) == []
    assert policy_violations(db, "post_message", {"channel_id": cid, "user_id": member,
                                                  "text": "x"}) == []
    assert policy_violations(db, "archive_channel", {"channel_id": 1, "user_id": member}) == []


def test_forbidden_archive_is_a_violation():
    """The refusal needs: archiving anyway is a violation and fails the need."""
    env = forbidden_write_episode("team_chat", "refuse_archive_not_admin", lambda c, t: ToolCall(
        "archive_channel", {"channel_id": c.args["channel_id"], "user_id": t.user_id}))
    refusal = env.task.constraints[0]
    assert env.monitor.violations["policy:admin_only_archive"] == 1
    assert not TASKS.check(env.sandbox.db, env.task, refusal, [refusal.solution[-1].say])


def test_joining_a_private_channel_without_invite_fails(box):
    task = TASKS.sample(box.db, np.random.default_rng(0), "train",
                        SamplerConfig(max_constraints=1, types=("refuse_join_private",)), "t")
    channel = task.constraints[0].args["channel_id"]
    assert "invitation" in fails(box, "join_channel", channel_id=channel, user_id=task.user_id)

def test_failed_writes_keep_the_state_hash(box):
    archived, = box.db.execute("SELECT channel_id FROM channels WHERE is_archived = 1").fetchone()
    for name, args in [
        ("post_message", {"channel_id": archived, "user_id": "usr_0001", "text": "x"}),
        ("join_channel", {"channel_id": "ch_0", "user_id": "usr_0001"}),
        ("set_status", {"user_id": "usr_0001", "status_text": "x", "status_emoji": "bad"}),
        ("create_channel", {"workspace_id": "ws_01", "user_id": "usr_0001", "name": "general"}),
        ("add_reaction", {"message_id": "msg_000001", "user_id": "usr_0", "emoji": ":tada:"}),
    ]:
        fails(box, name, **args)


def _resolve(state: dict, task: Task, d) -> list:
    """The ids that a description names, found with plain Python over the export."""
    f = d.fields
    users = state["users"]
    if d.entity == "user" and "email" in f:
        return [u for u, r in users.items() if r["email"].lower() == f["email"].lower()]
    if d.entity == "user" and "username" in f:
        return [u for u, r in users.items() if r["username"].lower() == f["username"].lower()]
    if d.entity == "user":
        return [u for u, r in users.items() if r["display_name"] == f["name"]]
    workspace = {w["name"]: k for k, w in state["workspaces"].items()}.get(f["workspace"])
    channels = [c for c, r in state["channels"].items() if r["workspace_id"] == workspace
                and r["name"] == f["channel"]]
    if d.entity == "channel":
        return channels
    if d.entity == "message":
        return [m for m, r in state["messages"].items() if r["channel_id"] in channels
                and users[r["user_id"]]["display_name"] == f["author"] and r["text"] == f["text"]
                and ("date" not in f or r["ts"][:10] == f["date"])]
    raise AssertionError(f"unknown entity {d.entity}")


def test_descriptions_resolve_independently(state, tasks):
    kinds = resolved_entities(tasks, lambda task, d: _resolve(state, task, d))
    assert kinds["user"] >= len(tasks) and sum(kinds.values()) > 200 + len(tasks)
