"""The airline task kit: what is specific to airline (the conformance suite checks what holds
for every domain): sampling, fuzzy descriptions, phrasing, reference plans, policy rules.

The database is the generated one (seed 0, ``tpl`` and ``db`` of tests/domains/conftest.py);
each replay runs on a fresh sandbox copy of it.
"""

from __future__ import annotations

import json
import re
import statistics
from collections import Counter
from functools import partial

import numpy as np
import pytest

from tool_gym.core.sandbox import Sandbox
from tool_gym.core.task_model import Constraint, Description, Task
from tool_gym.domains.airline.plans import WRITE_CALLS
from tool_gym.domains.airline.rules import FREE_BAGS
from tool_gym.domains.airline.tasks import CONSTRAINT_TYPES, TASKS

from .. import kit_runs as runs
from ..kit_runs import SPLITS, sample
from ..taskchecks import resolved_entities

WRITE_TOOLS = {tool for tool, _ in WRITE_CALLS.values()}
REFUSALS = ("refuse_ineligible_cancellation", "refuse_basic_economy_change")
FLIGHT_NUMBER = re.compile(r"\bHAT\d{3}\b")
RESERVATION_LIKE = re.compile(r"\b[A-Z0-9]{6}\b")
METHOD_ID = re.compile(r"(?:credit_card|gift_card|certificate)_\d+")


@pytest.fixture(scope="module")
def tasks(db) -> list[Task]:
    return runs.varied_tasks(TASKS, db)


def plan_messages(task: Task) -> list[str]:
    return runs.plan_messages(TASKS, task)


def replay(box: Sandbox, task: Task) -> list[str]:
    """The plan played (every write breaking no policy rule); its grounded messages."""
    return runs.replay(box, TASKS, task, WRITE_TOOLS, policy=True)


def replay_reads(box: Sandbox, task: Task) -> list[str]:
    """The plan without its writes: its reads run, its messages grounded in them."""
    return runs.replay(box, TASKS, task, WRITE_TOOLS, writes=False)


def write_of(c: Constraint):
    tool, params = WRITE_CALLS[c.type]
    return tool, {p: c.args[p] for p in params}


def resolve(state: dict, task: Task, d: Description) -> list:
    """Everything that ``d.fields`` matches, found with plain Python over the export
    (no SQL, no sampler code)."""
    users, reservations, flights = state["users"], state["reservations"], state["flights"]
    f = d.fields
    if d.entity == "user":
        return [u["user_id"] for u in users.values() if u["user_id"] == f["user_id"]]
    user = users[task.user_id]
    mine = [r for r in reservations.values() if r["user_id"] == task.user_id]
    if d.entity == "reservation":
        if "reservation_id" in f:
            return [r["reservation_id"] for r in mine if r["reservation_id"] == f["reservation_id"]]
        return [r["reservation_id"] for r in mine
                if (r["origin"], r["destination"]) == (f["origin"], f["destination"])
                and r["flights"] and r["flights"][0]["date"] == f["date"]]
    if d.entity == "flight":
        found = []
        for number, flight in flights.items():
            day = flight["dates"].get(f["date"])
            if ((flight["origin"], flight["destination"]) != (f["origin"], f["destination"])
                    or day is None or day["status"] != "available"):
                continue
            dep = flight["scheduled_departure_time_est"]
            if "departure" in f:
                ok = dep == f["departure"]
            else:
                ok = f["depart_after"] <= dep < f["depart_before"]
            if ok:
                found.append(number)
        return found
    if d.entity == "segment":
        if "flight_number" in f:
            flight = flights.get(f["flight_number"])
            return [f["flight_number"]] if flight and f["date"] in flight["dates"] else []
        return sorted({s["flight_number"] for r in mine for s in r["flights"]
                       if (s["origin"], s["destination"], s["date"])
                       == (f["origin"], f["destination"], f["date"])})
    if d.entity == "passengers":
        people = []
        for e in f["passengers"]:
            if e.get("self"):
                people.append({"first_name": user["name"]["first_name"],
                               "last_name": user["name"]["last_name"], "dob": user["dob"]})
            elif e.get("saved"):
                match = [p for p in user["saved_passengers"]
                         if (p["first_name"], p["last_name"]) == (e["first_name"], e["last_name"])]
                if len(match) != 1:
                    return []
                people.append(dict(match[0]))
            else:
                people.append({k: e[k] for k in ("first_name", "last_name", "dob")})
        return [people]
    if d.entity == "passenger":
        pax = reservations[runs.need_of(task, d).args["reservation_id"]]["passengers"]
        return [i for i, p in enumerate(pax)
                if (p["first_name"], p["last_name"]) == (f["first_name"], f["last_name"])]
    if d.entity == "payment_method":
        found = []
        for m in user["payment_methods"].values():
            if m["source"] != f["source"]:
                continue
            if f["source"] == "credit_card":
                ok = (m["brand"], m["last_four"]) == (f["brand"], f["last_four"])
            elif "ending" in f:
                ok = m["id"].endswith(f["ending"])
            elif "amount" in f:
                ok = m["amount"] == f["amount"]
            else:
                ok = True
            if ok:
                found.append(m["id"])
        return found
    raise AssertionError(f"unknown entity {d.entity}")


# --------------------------------------------------------------------------- sampling

def test_checks_work_on_round_tripped_tasks(tpl, tasks):
    for task in tasks[:50]:
        again = Task.from_dict(json.loads(json.dumps(task.to_dict())))
        with Sandbox(tpl) as box:
            messages = replay(box, again)
            assert all(TASKS.check(box.db, again, c, messages) for c in again.constraints)


def test_types_are_spread(tasks):
    runs.assert_types_spread(tasks, CONSTRAINT_TYPES)


def test_constraint_counts_follow_the_config(db):
    runs.assert_counts_follow_the_config(TASKS, db)


def test_fuzziness_controls_reservation_ids(db):
    runs.assert_fuzziness_hides_ids(TASKS, db, "reservation", "reservation_id")


def test_constraints_of_a_task_do_not_conflict(tasks):
    for task in tasks:
        cs = task.constraints
        reservations = [c.args["reservation_id"] for c in cs
                        if "reservation_id" in c.args and c.type != "info_flight_status"]
        assert len(reservations) == len(set(reservations)), task
        assert sum(c.type == "book_reservation" for c in cs) <= 1
        assert sum(c.type == "compensation_certificate" for c in cs) <= 1
        gift = [m for c in cs for m in
                [c.args.get("payment_id", "")]
                + [p["payment_id"] for p in c.args.get("payment_methods", ())]
                if m.startswith("gift_card")
                and not (c.type == "add_bags" and not c.args["cost"])]
        assert len(gift) == len(set(gift)), task
        if any(c.type == "compensation_certificate" for c in cs):
            assert not any(p["payment_id"].startswith("certificate")
                           for c in cs for p in c.args.get("payment_methods", ()))


# --------------------------------------------------------------------------- feasibility

def test_plans_replay_and_satisfy_every_constraint(tpl, tasks):
    """On the untouched database every need fails with the plan's bare messages (a refusal
    or an answer counts only after the reads); after the plan every need holds and the
    database is consistent."""
    for task in tasks[:400]:
        with Sandbox(tpl) as box:
            for c in task.constraints:
                assert not TASKS.check(box.db, task, c, plan_messages(task)), (task.id, c)
            messages = replay(box, task)
            assert messages == plan_messages(task)
            for c in task.constraints:
                assert TASKS.check(box.db, task, c, messages), (task.id, c)
            assert box.check_integrity() == []


def test_refusals_fail_after_the_forbidden_write(tpl, tasks):
    """The forbidden write is accepted by the tool (the rule is policy-only), breaks the
    refusal, and ``policy_violations`` flags it beforehand."""
    seen = Counter()
    for task in tasks:
        for c in task.constraints:
            if c.type not in REFUSALS:
                continue
            with Sandbox(tpl) as box:
                tool, arguments = c.args["forbidden"]["tool"], c.args["forbidden"]["arguments"]
                found = TASKS.policy_violations(box.db, tool, arguments)
                expected = ("policy:cancel_not_eligible"
                            if c.type == "refuse_ineligible_cancellation"
                            else "policy:basic_economy_change")
                assert expected in found, (task.id, found)
                assert all(v.startswith("policy:") for v in found)
                assert box.call(tool, arguments).ok
                assert not TASKS.check(box.db, task, c, plan_messages(task))
                seen[c.type] += 1
    assert min(seen[k] for k in REFUSALS) > 20


def test_needs_can_be_met_in_any_order(tpl, tasks):
    """The writes of all needs succeed in reverse order too, and all needs hold after."""
    assert runs.needs_met_in_reverse(tpl, TASKS, tasks[:400], WRITE_CALLS) > 100


def test_information_needs_require_the_answer(tpl, tasks):
    runs.assert_answers_need_the_reads(tpl, TASKS, tasks[:300], WRITE_TOOLS, [
        "I can't tell.", "Reservation ABC123.", "Sorry, I cannot help with that."])


def test_wrong_writes_do_not_satisfy(tpl, tasks):
    """Near misses fail the check: bags without the fee, another cabin, the booking without
    its insurance choice, a cancellation of another reservation."""
    tried = Counter()
    for task in tasks:
        for c in task.constraints:
            tool, arguments = write_of(c) if c.type in WRITE_CALLS else (None, None)
            wrong = None
            if c.type == "add_bags" and c.args["cost"]:
                wrong = dict(arguments, nonfree_baggages=arguments["nonfree_baggages"] - 1)
            elif c.type == "change_cabin":
                other = [k for k in ("basic_economy", "economy", "business")
                         if k not in (c.args["cabin"], c.args["old_cabin"])][0]
                wrong = dict(arguments, cabin=other)
            elif c.type == "book_reservation":
                flip = {"yes": "no", "no": "yes"}[arguments["insurance"]]
                n = len(arguments["passengers"])
                delta = 30 * n * (1 if flip == "yes" else -1)
                pays = [dict(p) for p in arguments["payment_methods"]]
                pays[-1]["amount"] += delta
                if pays[-1]["amount"] <= 0 or not pays[-1]["payment_id"].startswith("credit"):
                    continue
                wrong = dict(arguments, insurance=flip, payment_methods=pays)
            elif c.type == "change_passengers":
                people = [dict(p) for p in arguments["passengers"]]
                people[c.args["index"]]["dob"] = "1901-01-01"
                wrong = dict(arguments, passengers=people)
            if wrong is None:
                continue
            with Sandbox(tpl) as box:
                if box.call(tool, wrong).ok:
                    assert not TASKS.check(box.db, task, c, []), (task.id, c.type, wrong)
                    tried[c.type] += 1
    assert min(tried[k] for k in ("add_bags", "change_cabin", "book_reservation",
                                  "change_passengers")) > 5


def test_oracle_plan_satisfies_the_scripted_user(tpl, tasks):
    for task in tasks[:200]:
        with Sandbox(tpl) as box:
            replies = runs.scripted_user_replies(box, TASKS, task, WRITE_TOOLS,
                                                 "reservation_id")
            assert task.user_id in replies[0]  # the identity question is answered


def test_plan_shape(tasks):
    """The user id authenticates; refusals and questions write nothing."""
    for task in tasks[:300]:
        auth = runs.written(TASKS, task, WRITE_TOOLS, "reservation_id")[1].call
        assert auth.arguments == {"user_id": task.user_id}
        for c in task.constraints:
            assert bool(c.writes) == (c.type in WRITE_CALLS)
            assert (c.answer is None) == (c.type in WRITE_CALLS)


# --------------------------------------------------------------------------- descriptions

def test_descriptions_resolve_independently(state, tasks):
    """Each description, resolved from its fields alone over the export, matches exactly
    one entity: the hidden one."""
    kinds = resolved_entities(tasks, partial(resolve, state))
    assert {"user", "reservation", "flight", "segment", "passengers", "passenger",
            "payment_method"} <= set(kinds)
    ways = Counter(tuple(sorted(d.fields)) for t in tasks for c in t.constraints
                   for d in c.refs.values() if d.entity == "payment_method")
    assert len(ways) >= 4  # card, "my gift card", by ending, "my travel certificate", ...


def test_write_args_match_the_descriptions(tasks):
    """The hidden ids of a constraint are what its descriptions resolve to."""
    for task in tasks:
        for c in task.constraints:
            r = c.refs
            if "reservation" in r:
                assert r["reservation"].value == c.args["reservation_id"]
            if c.type == "book_reservation":
                assert [f["flight_number"] for f in c.args["flights"]] == \
                    [r[k].value for k in ("outbound_flight", "return_flight") if k in r]
                methods = [p["payment_id"] for p in c.args["payment_methods"]]
                assert methods == [r[k].value for k in ("payment_method",
                                                        "second_payment_method") if k in r]
                if "passengers" in r:
                    assert r["passengers"].value == c.args["passengers"]
            if c.type in ("change_flights", "change_cabin", "add_bags"):
                assert r["payment_method"].value == c.args["payment_id"]
            if c.type == "change_flights":
                assert r["new_flight"].value == c.args["new_flight"]["flight_number"]
            if c.type == "info_flight_status":
                assert r["flight"].value == c.args["flight_number"]


def test_identity_is_the_user_id(tasks):
    for task in tasks:
        assert task.identity.fields == {"user_id": task.user_id}
        assert task.user_id in TASKS.identify(task, np.random.default_rng(0))


def test_user_words_leak_no_ids(state, tasks):
    reservation_ids = set(state["reservations"])
    method_ids = {m for u in state["users"].values() for m in u["payment_methods"]}
    user_ids = set(state["users"])
    for task in tasks:
        rng = np.random.default_rng(0)
        texts = []
        for c in task.constraints:
            texts += [(c, TASKS.opening(task, c, rng))]
            texts += [(c, TASKS.request(task, c, rng)) for _ in range(3)]
        for c, text in texts:
            assert not any(u in text for u in user_ids), text
            assert not METHOD_ID.search(text) and not any(m in text for m in method_ids), text
            allowed_res = set()
            if "reservation" in c.refs and "reservation_id" in c.refs["reservation"].fields:
                allowed_res = {c.args["reservation_id"]}
            for token in RESERVATION_LIKE.findall(text):
                assert token not in reservation_ids or token in allowed_res, (text, token)
            allowed_flights = set()
            if "flight" in c.refs and "flight_number" in c.refs["flight"].fields:
                allowed_flights = {c.args["flight_number"]}
            for found in FLIGHT_NUMBER.findall(text):
                assert found in allowed_flights, (text, found)


def test_requests_state_the_need(tasks):
    for task in tasks[:400]:
        rng = np.random.default_rng(3)
        for c in task.constraints:
            text = TASKS.request(task, c, rng)
            for role, d in c.refs.items():
                assert d.text in text, (role, d.text, text)
            a = c.args
            if c.type == "book_reservation":
                assert str(a["total_baggages"]) in text or "one bag" in text \
                    or "any bags" in text
                assert ("travel insurance." in text) == (a["insurance"] == "yes")
                assert a["cabin"].replace("_", " ") in text
                for p in a["passenger_spec"]:
                    if not p.get("self"):
                        assert f"{p['first_name']} {p['last_name']}" in text
                    if "dob" in p:
                        assert p["dob"] in text
                if len(a["payment_methods"]) == 2:
                    assert f"${a['payment_methods'][0]['amount']}" in text
            if c.type == "add_bags":
                assert str(a["total_baggages"]) in text
            if c.type == "change_passengers":
                assert a["new_passenger"]["dob"] in text
                assert a["new_passenger"]["first_name"] in text
            if c.type == "change_cabin":
                assert a["cabin"].replace("_", " ") in text
            if c.type == "info_cheapest_option":
                assert a["cabin"].replace("_", " ") in text


# --------------------------------------------------------------------------- owner, checks

def test_owner(db):
    rid, uid = db.execute("SELECT reservation_id, user_id FROM reservations LIMIT 1").fetchone()
    assert TASKS.owner(db, "cancel_reservation", {"reservation_id": rid}) == uid
    assert TASKS.owner(db, "update_reservation_flights", {"reservation_id": rid}) == uid
    assert TASKS.owner(db, "book_reservation", {"user_id": uid}) == uid
    assert TASKS.owner(db, "send_certificate", {"user_id": uid, "amount": 100}) == uid
    assert TASKS.owner(db, "cancel_reservation", {"reservation_id": "NOSUCH"}) is None
    assert TASKS.owner(db, "send_certificate", {"user_id": "nobody"}) is None
    assert TASKS.owner(db, "cancel_reservation", {"reservation_id": 5}) is None
    assert TASKS.owner(db, "calculate", {"expression": "1+1"}) is None
    assert TASKS.owner(db, "cancel_reservation", "not a dict") is None


def test_cabin_and_refusal_wording(tpl, tasks):
    """Cabin answers tell economy from basic economy; refusals accept common wordings."""
    cabin = next(c for t in tasks for c in t.constraints
                 if c.type == "info_reservation_details" and c.answer == "economy")
    task = next(t for t in tasks if cabin in t.constraints)
    with Sandbox(tpl) as box:
        log = replay_reads(box, task)[-1].log  # the reads that ground the answers

        def said(text):
            return [log.agent_message(text)]

        assert TASKS.check(box.db, task, cabin, said("It is in economy class."))
        assert not TASKS.check(box.db, task, cabin, said("It is in basic economy."))
        assert not TASKS.check(box.db, task, cabin, said("It is in basic_economy."))
        assert not TASKS.check(box.db, task, cabin, ["It is in economy class."])  # no reads
    refusal = next(c for t in tasks for c in t.constraints
                   if c.type == "refuse_ineligible_cancellation")
    task = next(t for t in tasks if refusal in t.constraints)
    with Sandbox(tpl) as box:
        log = replay_reads(box, task)[-1].log
        for text in ("This reservation is not eligible for cancellation: it has no insurance.",
                     "I'm afraid it can't be cancelled; it was booked over 24 hours ago.",
                     "I cannot cancel it: it isn't business class.",
                     "Unfortunately we're unable to cancel this booking (24-hour rule)."):
            assert TASKS.check(box.db, task, refusal, [log.agent_message(text)]), text
            assert not TASKS.check(box.db, task, refusal, [text])  # no reads: not earned
        for text in ("I'm afraid it can't be cancelled.", "I cannot cancel it."):  # no reason
            assert not TASKS.check(box.db, task, refusal, [log.agent_message(text)]), text
        assert not TASKS.check(box.db, task, refusal, [log.agent_message("Sure, let me look.")])


# --------------------------------------------------------------------------- policy rules

def test_policy_violations_by_rule(tiny_sandbox):
    """The policy-only rules on the hand-written tiny database (see conftest)."""
    db, v = tiny_sandbox.db, TASKS.policy_violations
    keep = [{"flight_number": "HAT001", "date": "2024-05-21"}]
    other = [{"flight_number": "HAT001", "date": "2024-05-20"}]
    # RES003: basic economy, booked within 24 h
    assert v(db, "update_reservation_flights", {
        "reservation_id": "RES003", "cabin": "basic_economy", "flights": other,
        "payment_id": "credit_card_1000001"}) == ["policy:basic_economy_change"]
    assert v(db, "update_reservation_flights", {  # a cabin change keeps the flights: allowed
        "reservation_id": "RES003", "cabin": "economy", "flights": keep,
        "payment_id": "credit_card_1000001"}) == []
    assert v(db, "cancel_reservation", {"reservation_id": "RES003"}) == []
    # RES004: economy, uninsured, booked 3 days ago, nothing cancelled by the airline
    assert v(db, "cancel_reservation", {"reservation_id": "RES004"}) == \
        ["policy:cancel_not_eligible"]
    assert v(db, "update_reservation_flights", {
        "reservation_id": "RES004", "cabin": "economy",
        "flights": [{"flight_number": "HAT001", "date": "2024-05-20"}],
        "payment_id": "credit_card_2000001"}) == ["policy:change_origin_or_destination"]
    assert v(db, "update_reservation_flights", {
        "reservation_id": "RES004", "cabin": "economy",
        "flights": [{"flight_number": "HAT007", "date": "2024-05-21"}],
        "payment_id": "credit_card_2000001"}) == []
    # RES002: its first flight has landed; RES001: insured (the reason is not in the call)
    assert v(db, "cancel_reservation", {"reservation_id": "RES002"}) == ["policy:cancel_flown"]
    assert v(db, "cancel_reservation", {"reservation_id": "RES001"}) == []
    # bags: RES004 (regular member, economy: 1 free bag) has 2 bags, 1 paid
    bags = {"reservation_id": "RES004", "payment_id": "credit_card_2000001"}
    assert v(db, "update_reservation_baggages", dict(bags, total_baggages=3,
                                                     nonfree_baggages=2)) == []
    assert v(db, "update_reservation_baggages", dict(bags, total_baggages=1,
                                                     nonfree_baggages=0)) == ["policy:remove_bags"]
    assert v(db, "update_reservation_baggages", dict(bags, total_baggages=3,
                                                     nonfree_baggages=1)) == \
        ["policy:baggage_allowance"]
    # RES001 (gold, economy, 2 passengers: 6 free bags) has 2 bags
    assert v(db, "update_reservation_baggages", {
        "reservation_id": "RES001", "payment_id": "credit_card_1000001",
        "total_baggages": 7, "nonfree_baggages": 1}) == []
    # certificates: carl is a regular member whose reservation is uninsured economy
    assert v(db, "send_certificate", {"user_id": "carl_ode_2002", "amount": 100}) == \
        ["policy:certificate_not_eligible"]
    assert v(db, "send_certificate", {"user_id": "alice_ng_1001", "amount": 200}) == []
    assert v(db, "send_certificate", {"user_id": "alice_ng_1001", "amount": 75}) == \
        ["policy:certificate_amount"]
    # bookings
    alice = {"first_name": "Alice", "last_name": "Ng", "dob": "1980-02-03"}
    book = {"user_id": "alice_ng_1001", "origin": "JFK", "destination": "SEA",
            "flight_type": "one_way", "cabin": "economy",
            "flights": [{"flight_number": "HAT007", "date": "2024-05-20"}],
            "passengers": [alice], "payment_methods": [
                {"payment_id": "credit_card_1000001", "amount": 150}],
            "total_baggages": 3, "nonfree_baggages": 0, "insurance": "no"}
    assert v(db, "book_reservation", book) == []
    assert v(db, "book_reservation", dict(book, nonfree_baggages=1)) == \
        ["policy:baggage_allowance"]
    assert v(db, "book_reservation", dict(book, passengers=[alice] * 6, total_baggages=18)) == \
        ["policy:too_many_passengers"]
    assert v(db, "book_reservation", dict(book, payment_methods=[
        {"payment_id": "credit_card_1000001", "amount": 100},
        {"payment_id": "credit_card_1000001", "amount": 50}])) == \
        ["policy:payment_method_limits"]
    # malformed arguments are left to the tool
    assert v(db, "book_reservation", dict(book, passengers=["x"])) == []
    assert v(db, "update_reservation_flights", {"reservation_id": "RES003",
                                                "flights": "x"}) == []
    assert v(db, "get_user_details", {"user_id": "alice_ng_1001"}) == []


def test_free_bag_table():
    assert FREE_BAGS == {"regular": (0, 1, 2), "silver": (1, 2, 3), "gold": (2, 3, 4)}


# --------------------------------------------------------------------------- other databases

def test_tiny_database(tiny_template):
    """Sampling copes with a tiny, odd database (flights bookable in the past, a flown round
    trip, users without reservations or usable methods)."""
    with Sandbox(tiny_template) as box:
        splits = {TASKS.split_of(u) for (u,) in box.db.execute("SELECT user_id FROM users")}
        state = box.export("tau2")
    made = Counter()
    for split in sorted(splits):
        for seed in range(60):
            with Sandbox(tiny_template) as box:
                task = runs.sample_and_meet(box, TASKS, seed, split, WRITE_TOOLS, policy=True)
            resolved_entities([task], partial(resolve, state))
            made.update(c.type for c in task.constraints)
    assert len(made) >= 6


def test_v1_database(v1_template):
    """tau-bench's airline files: descriptions resolve over the export, plans replay."""
    with Sandbox(v1_template) as box:
        state = box.export("tau2")
    made = Counter()
    for seed in range(200):
        with Sandbox(v1_template) as box:
            task = runs.sample_and_meet(box, TASKS, seed, SPLITS[seed % 2], WRITE_TOOLS,
                                        policy=True)
            assert box.check_integrity() == []
        resolved_entities([task], partial(resolve, state))
        made.update(c.type for c in task.constraints)
    assert set(made) == set(CONSTRAINT_TYPES)


def test_sampling_survives_restore(tpl):
    with Sandbox(tpl) as box:
        snapshot = box.snapshot()
        for seed in range(60):
            box.restore(snapshot)
            runs.sample_and_meet(box, TASKS, seed, SPLITS[seed % 2], WRITE_TOOLS, policy=True)


def test_distractors_prefer_users_with_many_reservations(db):
    def mean_reservations(distractors):
        counts = [db.execute("SELECT count(*) FROM reservations WHERE user_id = ?",
                             (sample(TASKS, db, seed, SPLITS[seed % 2],
                                     distractors=distractors).user_id,)).fetchone()[0]
                  for seed in range(80)]
        return statistics.mean(counts)

    assert mean_reservations(1.0) > mean_reservations(0.0) + 0.5
