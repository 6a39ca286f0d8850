"""The CRM task kit: its refusals and policy rules, descriptions resolved over the plain
data. The checks every domain shares are in tests/domains/test_conformance.py."""

from __future__ import annotations

from tool_gym.core.actions import ToolCall
from tool_gym.core.sandbox import Sandbox
from tool_gym.domains.crm.tasks import TASKS

from .. import taskchecks as checks

FORBIDDEN = {  # refusal type -> the write it forbids (both rules are policy-only)
    "refuse_stage_backward": checks.Forbidden(lambda c, _: ToolCall("update_opportunity_stage", {
        "opportunity_id": c.args["opportunity_id"], "stage": c.args["stage"]}),
        ("policy:stage_forward_only",), in_episode="policy:stage_forward_only"),
    "refuse_close_other_rep": checks.Forbidden(lambda c, _: ToolCall("close_opportunity", {
        "opportunity_id": c.args["opportunity_id"], "outcome": "won"}), (),
        in_episode="write_on_other_user"),  # the owner rule
}


def resolve(state: dict, user: str, d) -> list:
    f = d.fields
    if d.entity == "user":
        return checks.identified(state["reps"], "rep_id", f)
    if d.entity == "opportunity":
        names = {c["company_id"]: c["name"] for c in state["companies"]}
        if "owner" in f:
            owners = {r["rep_id"] for r in state["reps"]
                      if f"{r['first_name']} {r['last_name']}" == f["owner"]}
        else:
            owners = {user}
        return [o["opportunity_id"] for o in state["opportunities"]
                if o["owner_rep_id"] in owners and names[o["company_id"]] == f["company"]
                and o["product"] == f["product"]]
    if d.entity == "lead":
        return [x["lead_id"] for x in state["leads"] if x["owner_rep_id"] == user
                and f"{x['first_name']} {x['last_name']}" == f["name"]
                and x["company_name"] == f["company"]]
    if d.entity == "task":
        return [t["task_id"] for t in state["tasks"] if t["rep_id"] == user
                and t["title"] == f["title"]]
    raise AssertionError(f"unknown entity {d.entity}")


def test_descriptions_resolve_independently(state, tasks):
    kinds = checks.resolved_entities(tasks, lambda task, d: resolve(state, task.user_id, d))
    assert {"user", "opportunity", "lead", "task"} <= set(kinds)


def test_refusals_flag_the_forbidden_write(tpl, tasks):
    assert sum(t.startswith("info_") for t in TASKS.constraint_types) >= 2
    tried = checks.flagged_refusals(tasks, FORBIDDEN)
    assert tried["refuse_stage_backward"] >= 3 and tried["refuse_close_other_rep"] >= 3
    assert checks.violations_in_episodes("crm", FORBIDDEN) == set(FORBIDDEN)
    for task in tasks:  # closing another rep's deal: the kit names that rep as the owner
        for c in (c for c in task.constraints if c.type == "refuse_close_other_rep"):
            call = FORBIDDEN[c.type].call(c, task)
            owner = TASKS.owner(tpl.reader(), call.name, call.arguments)
            assert owner is not None and owner != task.user_id
    for c in (c for t in tasks for c in t.constraints if c.type == "advance_stage"):
        with Sandbox(tpl) as box:  # moving forward is not flagged
            assert TASKS.policy_violations(box.db, "update_opportunity_stage", c.args) == []
