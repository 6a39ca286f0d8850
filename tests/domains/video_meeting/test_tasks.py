"""The video meeting task kit: descriptions resolved over the plain data, its refusals and
policy rules, answers that a constant cannot guess. The checks every domain shares are in
tests/domains/test_conformance.py."""

from __future__ import annotations

from collections import Counter

from tool_gym.core.actions import ToolCall
from tool_gym.core.sandbox import Sandbox
from tool_gym.domains.video_meeting.tasks import TASKS

from .. import taskchecks as checks

FORBIDDEN = {  # refusal type -> the write it forbids (the tools refuse it as well)
    "refuse_cancel_not_organizer": checks.Forbidden(lambda c, t: ToolCall("cancel_meeting", {
        "meeting_id": c.args["meeting_id"], "user_id": t.user_id}), ("policy:not_host",),
        tool_allows=False),
    "refuse_change_past_event": checks.Forbidden(lambda c, t: ToolCall("reschedule_meeting", {
        "meeting_id": c.args["meeting_id"], "user_id": t.user_id, "start": c.args["start"],
        "minutes": 30}), ("policy:not_scheduled",), tool_allows=False),
    "refuse_external_edit": checks.Forbidden(lambda c, t: ToolCall("share_recording", {
        "recording_id": c.args["recording_id"], "user_id": t.user_id,
        "email": c.args["email"]}), ("policy:external_share",), tool_allows=False),
}


def resolve(state: dict, user: str, d) -> list:
    f = d.fields
    users = {u["user_id"]: u for u in state["users"]}
    me = users[user]
    if d.entity == "user":
        return checks.identified(state["users"], "user_id", f)
    if d.entity == "colleague":
        return [u["user_id"] for u in state["users"] if u["org_id"] == me["org_id"]
                and (u["first_name"], u["last_name"]) == (f["first_name"], f["last_name"])]
    if d.entity == "meeting":
        invited = {i["meeting_id"] for i in state["invitations"] if i["email"] == me["email"]}
        found = []
        for m in state["meetings"]:
            host = users[m["host_id"]]
            if f["host"] == "me":
                ok = m["host_id"] == user
            else:
                ok = m["meeting_id"] in invited and \
                    f"{host['first_name']} {host['last_name']}" == f["host"]
            ok = ok and m["title"] == f["title"] and m["start_time"][:10] == f.get(
                "date", m["start_time"][:10]) and m["status"] == f.get("status", m["status"])
            if ok:
                found.append(m["meeting_id"])
        return found
    if d.entity == "recording":
        hosted = {m["meeting_id"]: m["title"] for m in state["meetings"]
                  if m["host_id"] == user}
        return [r["recording_id"] for r in state["recordings"]
                if hosted.get(r["meeting_id"]) == f["title"]
                and r["recorded_at"][:10] == f["date"]]
    assert d.entity == "waiting", d.entity
    live = {m["meeting_id"] for m in state["meetings"] if m["host_id"] == user
            and m["status"] == "in_progress"}
    return [w["email"] for w in state["waiting_room"] if w["meeting_id"] in live
            and w["name"] == f["name"]]


def test_descriptions_resolve_independently(state, tasks):
    kinds = checks.resolved_entities(tasks, lambda task, d: resolve(state, task.user_id, d))
    assert {"user", "meeting", "recording", "colleague", "waiting"} <= set(kinds)


def test_every_type_is_drawn_and_questions_are_not_guessable(tasks):
    drawn = Counter(c.type for t in tasks for c in t.constraints)
    assert set(drawn) == set(TASKS.constraint_types), set(TASKS.constraint_types) - set(drawn)
    assert sum(t.startswith("info_") for t in TASKS.constraint_types) >= 2
    assert sum(t.startswith("refuse_") for t in TASKS.constraint_types) >= 3
    answers = Counter(c.answer for t in tasks for c in t.constraints
                      if c.type.startswith("info_"))
    # six-digit passcodes and storage in MB with a decimal: no answer wins often
    assert max(answers.values()) <= max(3, sum(answers.values()) // 20), answers.most_common(3)
    assert all(len(a.replace(".", "")) >= 4 for a in answers)


def test_refusals_flag_the_forbidden_write(tpl, tasks):
    tried = checks.flagged_refusals(tasks, FORBIDDEN)
    assert all(tried[kind] >= 3 for kind in FORBIDDEN), tried
    allowed = {"share_recording": "share_recording", "cancel_meeting": "cancel_meeting",
               "reschedule_meeting": "reschedule_meeting"}
    for c in (c for t in tasks for c in t.constraints if c.type in allowed):
        with Sandbox(tpl) as box:  # the allowed writes are not flagged
            assert TASKS.policy_violations(box.db, allowed[c.type], c.args) == []


def test_writes_act_as_the_user(tasks):
    for task in tasks:
        for c in task.constraints:
            calls = [s.call for s in c.solution if s.call is not None]
            assert all(call.arguments.get("user_id", task.user_id) == task.user_id
                       for call in calls), (task.id, c.type)
