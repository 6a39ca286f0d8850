"""The vehicle task kit: its refusals and policy rules, descriptions resolved over the plain
data, plates and VINs kept out of the owner's words. The checks every domain shares are in
tests/domains/test_conformance.py."""

from __future__ import annotations

import numpy as np

from tool_gym.core.actions import ToolCall
from tool_gym.core.sandbox import Sandbox
from tool_gym.domains.vehicle.tasks import TASKS

from .. import taskchecks as checks

FORBIDDEN = {  # refusal type -> the write it forbids
    "refuse_late_refund": checks.Forbidden(lambda c, _: ToolCall("request_charging_refund", {
        "session_id": c.args["session_id"], "reason": c.args["reason"]}),
        ("policy:refund_window",), in_episode="policy:refund_window"),  # the tool trusts
    "refuse_change_past_event": checks.Forbidden(lambda c, _: ToolCall(
        "cancel_service_appointment", {"appointment_id": c.args["appointment_id"]}),
        ("policy:past_appointment",), tool_allows=False),
}


def _vehicles_of(state: dict, user: str, fields: dict) -> list[dict]:
    keys = ("color", "make", "model")
    return [v for v in state["vehicles"] if v["owner_id"] == user
            and all(v[k] == fields[k] for k in keys if k in fields)]


def resolve(state: dict, user: str, d) -> list:
    f = d.fields
    if d.entity == "user":
        return checks.identified(state["owners"], "owner_id", f)
    if d.entity == "vehicle":
        return [v["vehicle_id"] for v in _vehicles_of(state, user, f)]
    if d.entity == "place":
        return [p["place_id"] for p in state["places"] if p["owner_id"] == user
                and p["label"] == f["label"]]
    if d.entity == "dealer":
        return [x["dealer_id"] for x in state["dealers"] if x["name"] == f["name"]]
    mine = {v["vehicle_id"] for v in state["vehicles"] if v["owner_id"] == user}
    if d.entity == "appointment":
        names = {x["dealer_id"]: x["name"] for x in state["dealers"]}
        return [a["appointment_id"] for a in state["service_appointments"]
                if a["vehicle_id"] in mine and a["service_type"] == f["service_type"]
                and names[a["dealer_id"]] == f["dealer"] and a["date"] == f["date"]]
    if d.entity == "key":
        vehicles = {v["vehicle_id"] for v in _vehicles_of(state, user, f)}
        return [k["key_id"] for k in state["digital_keys"] if k["vehicle_id"] in vehicles
                and k["holder_name"] == f["holder_name"] and k["status"] == "active"]
    if d.entity == "session":
        return [s["session_id"] for s in state["charging_sessions"]
                if s["vehicle_id"] in mine and s["station"] == f["station"]
                and s["started_at"][:10] == f["date"]]
    raise AssertionError(f"unknown entity {d.entity}")


def test_descriptions_resolve_independently(state, tasks):
    kinds = checks.resolved_entities(tasks, lambda task, d: resolve(state, task.user_id, d))
    assert {"user", "vehicle", "place", "dealer", "appointment", "key", "session"} <= set(kinds)


def test_user_words_name_no_plate_or_vin(state, tasks):
    secret = {v["plate"] for v in state["vehicles"]} | {v["vin"] for v in state["vehicles"]}
    for task in tasks:
        rng = np.random.default_rng(0)
        texts = [TASKS.identify(task, rng), task.identity.text]
        for c in task.constraints:
            texts += [TASKS.opening(task, c, rng), *c.say, *(d.text for d in c.refs.values())]
        for text in texts:
            assert not any(s in text for s in secret), text


def test_every_type_is_drawn(tasks):
    drawn = {c.type for t in tasks for c in t.constraints}
    assert drawn == set(TASKS.constraint_types)
    assert sum(t.startswith("info_") for t in TASKS.constraint_types) >= 4
    assert sum(t.startswith("refuse_") for t in TASKS.constraint_types) >= 2


def test_refusals_flag_the_forbidden_write(tpl, tasks):
    assert checks.flagged_refusals(tasks, FORBIDDEN)["refuse_late_refund"] >= 3
    assert checks.violations_in_episodes("vehicle", FORBIDDEN) == {"refuse_late_refund"}
    for c in (c for t in tasks for c in t.constraints if c.type == "request_charging_refund"):
        with Sandbox(tpl) as box:  # a refund within the window is not flagged
            assert TASKS.policy_violations(box.db, "request_charging_refund", c.args) == []
    for c in (c for t in tasks for c in t.constraints if c.type == "cancel_service_appointment"):
        with Sandbox(tpl) as box:  # neither is an upcoming appointment's cancellation
            assert TASKS.policy_violations(box.db, "cancel_service_appointment", c.args) == []
