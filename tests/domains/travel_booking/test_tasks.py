"""The travel booking task kit: descriptions resolved over the plain data, its refusals and
policy rules, answers that a constant cannot guess. The checks every domain shares are in
tests/domains/test_conformance.py."""

from __future__ import annotations

from collections import Counter

from tool_gym.core.actions import ToolCall
from tool_gym.core.sandbox import Sandbox
from tool_gym.domains.travel_booking.tasks import TASKS

from .. import taskchecks as checks

FORBIDDEN = {  # refusal type -> the write it forbids (the tools refuse it as well)
    "refuse_over_balance": checks.Forbidden(lambda c, _: ToolCall("redeem_points", {
        "booking_id": c.args["booking_id"], "points": c.args["points"]}),
        ("policy:points_balance",), tool_allows=False),
    "refuse_late_refund": checks.Forbidden(lambda c, _: ToolCall("cancel_booking", {
        "booking_id": c.args["booking_id"]}), ("policy:activity_window",), tool_allows=False),
}


def resolve(state: dict, user: str, d) -> list:
    f = d.fields
    if d.entity == "user":
        return checks.identified(state["customers"], "customer_id", f)
    trips = {t["trip_id"]: t for t in state["trips"] if t["customer_id"] == user}
    if d.entity == "trip":
        return [i for i, t in trips.items() if t["destination_city"] == f["city"]
                and t["start_date"] == f.get("start_date", t["start_date"])]
    if d.entity == "traveler":
        return [t["traveler_id"] for t in state["travelers"] if t["customer_id"] == user
                and (t["first_name"], t["last_name"]) == (f["first_name"], f["last_name"])]
    assert d.entity == "booking", d.entity
    hotels = {h["hotel_id"]: h["name"] for h in state["hotels"]}
    rooms = {r["room_type_id"]: hotels[r["hotel_id"]] for r in state["room_types"]}
    cars = {c["car_id"]: (c["company"], c["city"]) for c in state["cars"]}
    acts = {a["activity_id"]: a["name"] for a in state["activities"]}
    found = []
    for b in state["bookings"]:
        if b["trip_id"] not in trips:
            continue
        if "hotel" in f:
            match = b["kind"] == "hotel" and rooms[b["room_type_id"]] == f["hotel"]
        elif "company" in f:
            match = b["kind"] == "car" and cars[b["car_id"]] == (f["company"], f["city"])
        else:
            match = b["kind"] == "activity" and acts[b["activity_id"]] == f["activity"]
        day = f.get("start_date", f.get("date"))
        if match and (day is None or b["start_date"] == day):
            found.append(b["booking_id"])
    return found


def test_descriptions_resolve_independently(state, tasks):
    kinds = checks.resolved_entities(tasks, lambda task, d: resolve(state, task.user_id, d))
    assert {"user", "trip", "booking", "traveler"} <= set(kinds)


def test_every_type_is_drawn_and_questions_are_not_guessable(tasks):
    drawn = Counter(c.type for t in tasks for c in t.constraints)
    assert set(drawn) == set(TASKS.constraint_types), set(TASKS.constraint_types) - set(drawn)
    assert sum(t.startswith("info_") for t in TASKS.constraint_types) >= 3
    assert sum(t.startswith("refuse_") for t in TASKS.constraint_types) >= 2
    answers = Counter(c.answer for t in tasks for c in t.constraints
                      if c.type.startswith("info_"))
    # no answer wins often (one user drawn again repeats theirs): amounts with cents,
    # balances of at least four digits that are not a bare welcome bonus
    assert max(answers.values()) <= max(3, sum(answers.values()) // 20), answers.most_common(3)
    assert all(len(a.replace(".", "")) >= 4 for a in answers)
    assert not {"1000", "1500", "2000", "500"} & set(answers)


def test_refusals_flag_the_forbidden_write(tpl, tasks):
    tried = checks.flagged_refusals(tasks, FORBIDDEN)
    assert tried["refuse_over_balance"] >= 3 and tried["refuse_late_refund"] >= 3
    for c in (c for t in tasks for c in t.constraints if c.type == "redeem_points"):
        with Sandbox(tpl) as box:  # the allowed redemption is not flagged
            assert TASKS.policy_violations(box.db, "redeem_points", c.args) == []
    for c in (c for t in tasks for c in t.constraints if c.type == "cancel_booking"):
        with Sandbox(tpl) as box:
            assert TASKS.policy_violations(box.db, "cancel_booking", c.args) == []


def test_cancellations_state_the_fee(tasks):
    for c in (c for t in tasks for c in t.constraints if c.type == "cancel_booking"):
        fee = c.expect[0].rows[0][1]
        proposal = next(s.say for s in c.solution if s.expects_confirmation)
        assert (f"{fee:,.2f}" in proposal) if fee else ("free of charge" in proposal)
