"""The calendar task kit: its policy rules and refusals, descriptions resolved over the
plain data, failed writes.
The checks every domain shares are in tests/domains/test_conformance.py."""

from __future__ import annotations

import pytest

from tool_gym.core.actions import ToolCall
from tool_gym.core.task_model import Task
from tool_gym.domains.calendar.tasks import TASKS, policy_violations

from ..calls import fails
from ..taskchecks import forbidden_write_episode, resolved_entities


def test_policy_flags_changes_to_past_meetings(box):
    past, = box.db.execute("SELECT event_id FROM events WHERE start < '2025-06-01' AND "
                           "status = 'confirmed' LIMIT 1").fetchone()
    future, = box.db.execute("SELECT event_id FROM events WHERE start > '2025-06-03' AND "
                             "status = 'confirmed' LIMIT 1").fetchone()
    assert policy_violations(box.db, "cancel_event", {"event_id": past}) == ["policy:past_event"]
    assert policy_violations(box.db, "set_reminder", {"event_id": past, "user_id": "x",
                                                     "minutes_before": 5}) == ["policy:past_event"]
    assert policy_violations(box.db, "cancel_event", {"event_id": future}) == []
    assert policy_violations(box.db, "create_event", {"organizer_id": "usr_0001"}) == []
    assert policy_violations(box.db, "cancel_event", {"event_id": 5}) == []


@pytest.mark.parametrize("kind, violation", [
    ("refuse_change_past_event", "policy:past_event"),
    ("refuse_cancel_not_organizer", "write_on_other_user")])
def test_forbidden_cancellation_is_a_violation(kind, violation):
    """The refusal needs: cancelling anyway scores as a violation and fails the need."""
    env = forbidden_write_episode("calendar", kind, lambda c, _: ToolCall(
        "cancel_event", {"event_id": c.args["event_id"]}))
    refusal = env.task.constraints[0]
    assert env.monitor.violations["write_without_confirmation"] == 1
    assert env.monitor.violations[violation] == 1
    assert not TASKS.check(env.sandbox.db, env.task, refusal, [refusal.solution[-1].say])

def test_failed_writes_keep_the_state_hash(box):
    event, = box.db.execute("SELECT event_id FROM events WHERE status = 'cancelled'").fetchone()
    for name, args in [
        ("create_event", {"organizer_id": "usr_0001", "title": "x", "start": "2025-05-01 10:00",
                          "end": "2025-05-01 11:00"}),
        ("cancel_event", {"event_id": event}),
        ("reschedule_event", {"event_id": "nope", "start": "2025-07-01 10:00",
                              "end": "2025-07-01 11:00"}),
        ("add_attendee", {"event_id": event, "user_id": "usr_0001"}),
        ("set_reminder", {"event_id": event, "user_id": "usr_0001", "minutes_before": 99999}),
        ("delete_reminder", {"reminder_id": "rem_0"}),
    ]:
        fails(box, name, **args)


def _resolve(state: dict, task: Task, d) -> list:
    """The ids that a description names, found with plain Python over the export."""
    f = d.fields
    if d.entity == "user" and "email" in f:
        return [u for u, r in state["users"].items() if r["email"].lower() == f["email"].lower()]
    if d.entity == "user":
        return [u for u, r in state["users"].items() if r["name"] == f["name"]]
    if d.entity == "room":
        return [r for r, x in state["rooms"].items() if x["name"] == f["name"]]
    if d.entity == "event":
        return [e for e, x in state["events"].items()
                if x["title"] == f["title"] and x["start"][:10] == f["date"]
                and ("time" not in f or x["start"][11:] == f["time"])
                and any(a["user_id"] == task.user_id for a in x["attendees"])]
    raise AssertionError(f"unknown entity {d.entity}")


def test_descriptions_resolve_independently(state, tasks):
    kinds = resolved_entities(tasks, lambda task, d: _resolve(state, task, d))
    assert kinds["user"] >= len(tasks) and sum(kinds.values()) > 200 + len(tasks)
