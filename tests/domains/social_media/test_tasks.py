"""The social media task kit: descriptions resolved over the plain data, its refusals and
policy rules, the user's words. The checks every domain shares are in
tests/domains/test_conformance.py."""

from __future__ import annotations

from collections import Counter

from tool_gym.core.actions import ToolCall
from tool_gym.core.sandbox import Sandbox
from tool_gym.domains.social_media.tasks import TASKS

from .. import taskchecks as checks

FORBIDDEN = {  # refusal type -> the write it forbids
    "refuse_restore_expired": checks.Forbidden(
        lambda c, _: ToolCall("restore_post", {"post_id": c.args["post_id"]}),
        ("policy:restore_window",), in_episode="policy:restore_window"),  # the tool trusts
    "refuse_message_restricted": checks.Forbidden(
        lambda c, _: ToolCall("send_message", dict(c.args)), ("policy:message_setting",),
        tool_allows=False),
}


def resolve(state: dict, user: str, d) -> list:
    f = d.fields
    if d.entity == "user":
        return checks.identified(state["users"], "user_id", f)
    names = {u["user_id"]: u for u in state["users"]}
    if d.entity == "person":
        if "relation" not in f:
            return checks.identified(state["users"], "user_id", f)
        if f["relation"] == "follower":
            ids = [x["follower_id"] for x in state["follows"] if x["followee_id"] == user]
        elif f["relation"] == "following":
            ids = [x["followee_id"] for x in state["follows"] if x["follower_id"] == user]
        else:
            ids = [r["requester_id"] for r in state["follow_requests"]
                   if r["target_id"] == user and r["status"] == "pending"]
        return [i for i in ids if names[i]["display_name"] == f["display_name"]]
    posts = {p["post_id"]: p for p in state["posts"]}
    if d.entity == "post":
        return [p["post_id"] for p in state["posts"] if p["author_id"] == user
                and p["content"] == f["content"]]
    if d.entity == "comment":
        return [c["comment_id"] for c in state["comments"] if c["status"] == "visible"
                and posts[c["post_id"]]["author_id"] == user
                and posts[c["post_id"]]["content"] == f["post"] and c["content"] == f["comment"]
                and ("author" not in f or names[c["author_id"]]["display_name"] == f["author"])]
    raise AssertionError(f"unknown entity {d.entity}")


def test_descriptions_resolve_independently(state, tasks):
    kinds = checks.resolved_entities(tasks, lambda task, d: resolve(state, task.user_id, d))
    assert {"user", "person", "post", "comment"} <= set(kinds)


def test_people_are_described_in_several_ways(tasks):
    ways = Counter(d.fields.get("relation", "handle") for t in tasks for c in t.constraints
                   for d in c.refs.values() if d.entity == "person")
    assert {"handle", "follower", "following", "requester"} <= set(ways)


def test_kinds_of_needs(tasks):
    kinds = Counter(c.type for t in tasks for c in t.constraints)
    assert set(kinds) == set(TASKS.constraint_types)
    assert sum(t.startswith("info_") for t in TASKS.constraint_types) >= 3
    assert sum(t.startswith("refuse_") for t in TASKS.constraint_types) >= 2


def test_answers_are_not_small_counts(tasks):
    for c in (c for t in tasks for c in t.constraints if c.type == "info_follower_count"):
        assert int(c.answer) >= 10


def test_refusals_flag_the_forbidden_write(tpl, tasks):
    tried = checks.flagged_refusals(tasks, FORBIDDEN)
    assert tried["refuse_restore_expired"] >= 3 and tried["refuse_message_restricted"] >= 3
    assert checks.violations_in_episodes("social_media", FORBIDDEN) == {"refuse_restore_expired"}
    for c in (c for t in tasks for c in t.constraints if c.type in ("restore_post",
                                                                     "send_message")):
        with Sandbox(tpl) as box:  # the allowed writes are not flagged
            call = c.solution[-2].call
            assert TASKS.policy_violations(box.db, call.name, call.arguments) == []
