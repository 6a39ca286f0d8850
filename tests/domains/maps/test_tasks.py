"""The maps task kit: its refusals and policy rules, descriptions resolved over the plain
data, answers a constant could not win. The checks every domain shares are in
tests/domains/test_conformance.py."""

from __future__ import annotations

from collections import Counter

from tool_gym.core.actions import ToolCall
from tool_gym.core.sandbox import Sandbox
from tool_gym.domains.maps.tasks import TASKS

from .. import taskchecks as checks

FORBIDDEN = {  # refusal type -> the write it forbids
    "refuse_closed_stop": checks.Forbidden(lambda c, _: ToolCall("add_trip_stop", dict(c.args)),
                                           ("policy:closed_stop",),
                                           in_episode="policy:closed_stop"),  # the tool trusts
    "refuse_own_review": checks.Forbidden(lambda c, _: ToolCall("add_review", dict(c.args)),
                                          ("policy:own_business_review",), tool_allows=False),
}


def resolve(state: dict, user: str, d) -> list:
    f = d.fields
    if d.entity == "user":
        return checks.identified(state["users"], "user_id", f)
    if d.entity == "place":
        return [p["place_id"] for p in state["places"]
                if p["name"] == f["place"] and p["city"] == f["city"]]
    if d.entity == "list":
        return [x["list_id"] for x in state["saved_lists"]
                if x["user_id"] == user and x["name"] == f["list"]]
    if d.entity == "trip":
        return [t["trip_id"] for t in state["trips"]
                if t["user_id"] == user and t["name"] == f["trip"]]
    if d.entity == "review":
        places = {p["place_id"]: (p["name"], p["city"]) for p in state["places"]}
        return [r["review_id"] for r in state["reviews"] if r["user_id"] == user
                and places[r["place_id"]] == (f["place"], f["city"])]
    raise AssertionError(f"unknown entity {d.entity}")


def test_descriptions_resolve_independently(state, tasks):
    kinds = checks.resolved_entities(tasks, lambda task, d: resolve(state, task.user_id, d))
    assert {"user", "place", "list", "trip", "review"} <= set(kinds)


def test_kit_has_the_constraint_mix(tasks):
    types = TASKS.constraint_types
    assert len(types) >= 8
    assert sum(t.startswith("info_") for t in types) >= 3
    assert sum(t.startswith("refuse_") for t in types) >= 2
    drawn = Counter(c.type for t in tasks for c in t.constraints)
    assert set(drawn) == set(types) and min(drawn.values()) >= 5, drawn


def test_answers_are_not_guessable(tasks):
    answers = [c.answer for t in tasks for c in t.constraints
               if c.answer is not None and c.refusal is None]
    assert answers and not any(a.isdigit() for a in answers)  # no counts
    assert len(set(answers)) >= 0.6 * len(answers)


def test_refusals_flag_the_forbidden_write(tpl, tasks):
    tried = checks.flagged_refusals(tasks, FORBIDDEN)
    assert tried["refuse_closed_stop"] >= 3 and tried["refuse_own_review"] >= 3
    assert checks.violations_in_episodes("maps", FORBIDDEN) == {"refuse_closed_stop"}
    for c in (c for t in tasks for c in t.constraints if c.type == "add_trip_stop"):
        with Sandbox(tpl) as box:  # a stop while the place is open is not flagged
            assert TASKS.policy_violations(box.db, "add_trip_stop", c.args) == []


def test_a_review_by_a_customer_is_not_flagged(tpl, tasks):
    for c in (c for t in tasks for c in t.constraints if c.type == "add_review"):
        with Sandbox(tpl) as box:
            assert TASKS.policy_violations(box.db, "add_review", c.args) == []
