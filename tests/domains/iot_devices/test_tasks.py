"""The smart home task kit: its refusals and policy rules, descriptions resolved over the plain
data, the writes each need expects. The checks every domain shares are in
tests/domains/test_conformance.py."""

from __future__ import annotations

from collections import Counter

from tool_gym.core.actions import ToolCall
from tool_gym.core.sandbox import Sandbox
from tool_gym.domains.iot_devices.tasks import TASKS

from .. import taskchecks as checks

FORBIDDEN = {  # refusal type -> the write it forbids
    "refuse_scheduled_unlock": checks.Forbidden(lambda c, _: ToolCall("create_automation", {
        "device_id": c.args["device_id"], "user_id": c.args["user_id"], "name": c.args["name"],
        "command": "unlock", "time": c.args["time"], "days": c.args["days"]}),
        ("policy:scheduled_unlock",), in_episode="policy:scheduled_unlock"),  # the tool trusts
    "refuse_guest_unlock": checks.Forbidden(lambda c, _: ToolCall("unlock_door", {
        "device_id": c.args["device_id"], "user_id": c.args["user_id"]}),
        ("policy:guest_access",), tool_allows=False),
}


def resolve(state: dict, user: str, d) -> list:
    f = d.fields
    if d.entity == "user":
        return checks.identified(state["users"], "user_id", f)
    homes = {m["home_id"] for m in state["home_members"] if m["user_id"] == user}
    names = {h["home_id"]: h["name"] for h in state["homes"]}
    mine = {h for h in homes if names[h] == f["home"]}
    if d.entity == "home":
        return sorted(mine)
    if d.entity == "device":
        return [x["device_id"] for x in state["devices"]
                if x["home_id"] in mine and x["name"] == f["device"]]
    if d.entity == "scene":
        return [s["scene_id"] for s in state["scenes"]
                if s["home_id"] in mine and s["name"] == f["scene"]]
    if d.entity == "automation":
        return [a["automation_id"] for a in state["automations"]
                if a["home_id"] in mine and a["name"] == f["automation"]]
    if d.entity == "member":
        people = {u["user_id"]: (u["first_name"], u["last_name"]) for u in state["users"]}
        return [m["user_id"] for m in state["home_members"] if m["home_id"] in mine
                and people[m["user_id"]] == (f["first_name"], f["last_name"])]
    raise AssertionError(f"unknown entity {d.entity}")


def test_descriptions_resolve_independently(state, tasks):
    kinds = checks.resolved_entities(tasks, lambda task, d: resolve(state, task.user_id, d))
    assert {"user", "home", "device", "scene", "automation", "member"} <= set(kinds)


def test_kit_has_the_constraint_mix():
    types = TASKS.constraint_types
    assert len(types) >= 8
    assert sum(t.startswith("info_") for t in types) >= 3
    assert sum(t.startswith("refuse_") for t in types) >= 2


def test_every_type_is_drawn(tasks):
    drawn = Counter(c.type for t in tasks for c in t.constraints)
    assert set(drawn) == set(TASKS.constraint_types), drawn
    assert min(drawn.values()) >= 5


def test_answers_are_not_small_counts(tasks):
    answers = [c.answer for t in tasks for c in t.constraints
               if c.answer is not None and c.refusal is None]
    assert answers and all(not a.isdigit() or int(a) > 50 for a in answers)
    assert len(set(answers)) >= 0.8 * len(answers)


def test_refusals_flag_the_forbidden_write(tpl, tasks):
    tried = checks.flagged_refusals(tasks, FORBIDDEN)
    assert tried["refuse_scheduled_unlock"] >= 3 and tried["refuse_guest_unlock"] >= 3
    assert checks.violations_in_episodes("iot_devices", FORBIDDEN) == {"refuse_scheduled_unlock"}
    for c in (c for t in tasks for c in t.constraints if c.type == "create_automation"):
        with Sandbox(tpl) as box:  # an allowed automation is not flagged
            call = c.solution[-2].call
            assert TASKS.policy_violations(box.db, call.name, call.arguments) == []


def test_a_guest_may_still_switch_lights(tpl):
    with Sandbox(tpl) as box:
        light, guest = box.db.execute(
            "SELECT d.device_id, m.user_id FROM devices d JOIN home_members m "
            "ON m.home_id = d.home_id WHERE m.role = 'guest' AND d.kind = 'light' "
            "LIMIT 1").fetchone()
        arguments = {"device_id": light, "user_id": guest, "brightness": 40}
        assert TASKS.policy_violations(box.db, "set_brightness", arguments) == []


def test_scene_needs_expect_the_devices_state(tpl, tasks):
    scenes = [c for t in tasks for c in t.constraints if c.type == "activate_scene"]
    assert scenes
    for c in scenes[:10]:
        with Sandbox(tpl) as box:
            assert not all(e.holds(box.db) for e in c.expect)
            assert box.call("activate_scene", c.args).ok
            assert all(e.holds(box.db) for e in c.expect)
