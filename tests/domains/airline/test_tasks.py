"""The airline task kit: sampling, feasibility, fuzzy descriptions, phrasing, reference plans,
policy rules.

The database is the generated one (seed 0), built once for the module; each replay runs on
a fresh sandbox copy of it.
"""

from __future__ import annotations

import json
import re
import statistics
from collections import Counter

import numpy as np
import pytest

from tool_gym.core.grounding import EpisodeLog, record_call
from tool_gym.core.grounding import replay as replay_steps
from tool_gym.core.sandbox import Sandbox, Template, template
from tool_gym.core.tasks import Constraint, SamplerConfig, Task
from tool_gym.core.users import STOP, ScriptedUser
from tool_gym.domains.airline.tasks import (
    CONSTRAINT_TYPES,
    FREE_BAGS,
    TASKS,
    WRITE_CALLS,
)

SEED = 0
SPLITS = ("train", "test")
WRITE_TOOLS = {tool for tool, _ in WRITE_CALLS.values()}
REFUSALS = ("refuse_ineligible_cancellation", "refuse_basic_economy_change")
FLIGHT_NUMBER = re.compile(r"\bHAT\d{3}\b")
RESERVATION_LIKE = re.compile(r"\b[A-Z0-9]{6}\b")
METHOD_ID = re.compile(r"(?:credit_card|gift_card|certificate)_\d+")


# --------------------------------------------------------------------------- fixtures

@pytest.fixture(scope="module")
def tpl() -> Template:
    return template("airline", SEED)


@pytest.fixture(scope="module")
def db(tpl):
    conn = tpl.open()
    yield conn
    conn.close()


@pytest.fixture(scope="module")
def state(tpl) -> dict:
    """The untouched database in tau2's shape (for independent checks)."""
    with Sandbox(tpl) as box:
        return box.export("tau2")


def sample(db, seed, split, **config) -> Task:
    return TASKS.sample(db, np.random.default_rng(seed), split, SamplerConfig(**config),
                        f"{split}-{seed}")


@pytest.fixture(scope="module")
def tasks(db) -> list[Task]:
    """1,000 tasks over both splits and a range of settings."""
    out = []
    for i in range(1000):
        split = SPLITS[i % 2]
        config = [dict(), dict(fuzziness=0.5), dict(min_constraints=2, max_constraints=3),
                  dict(distractors=1.0), dict(fuzziness=0.0, distractors=0.0)][i % 5]
        out.append(sample(db, i, split, **config))
    return out


# --------------------------------------------------------------------------- helpers

def plan_messages(task: Task) -> list[str]:
    return [s.say for s in TASKS.plan(task) if s.say is not None]


def replay(box: Sandbox, task: Task, check_policy: bool = True) -> list[str]:
    """Play the plan's calls (each must succeed, writes must break no policy rule); the
    plan's messages, grounded in the reads before each (``tool_gym.core.grounding``)."""
    messages, log, auth = [], EpisodeLog(), None
    for step in TASKS.plan(task):
        if step.call is None:
            messages.append(log.agent_message(step.say))
            continue
        if check_policy and step.call.name in WRITE_TOOLS:
            found = TASKS.policy_violations(box.db, step.call.name, step.call.arguments)
            assert found == [], (task.id, step.call, found)
        result = box.call(step.call.name, step.call.arguments)
        assert result.ok, (task.id, step.call, result.content)
        auth = record_call(log, box, step.call.name, step.call.arguments, result,
                           TASKS.auth_tools, auth)
    return messages


def replay_reads(box: Sandbox, task: Task) -> list[str]:
    """The plan without its writes: its reads run, its messages grounded in them."""
    return replay_steps(box, [s for s in TASKS.plan(task)
                              if s.call is None or s.call.name not in WRITE_TOOLS],
                        TASKS.auth_tools)


def write_of(c: Constraint):
    tool, params = WRITE_CALLS[c.type]
    return tool, {p: c.args[p] for p in params}


def descriptions(task: Task):
    yield None, "identity", task.identity
    for c in task.constraints:
        for role, d in c.refs.items():
            yield c, role, d


def resolve(state: dict, task: Task, constraint: Constraint | None, d) -> list:
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
        pax = reservations[constraint.args["reservation_id"]]["passengers"]
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

def test_sample_is_deterministic(tpl, db):
    config = SamplerConfig(max_constraints=3)
    for seed in range(40):
        split = SPLITS[seed % 2]
        a = TASKS.sample(db, np.random.default_rng(seed), split, config, "t")
        with Sandbox(tpl) as box:  # another copy of the same database
            b = TASKS.sample(box.db, np.random.default_rng(seed), split, config, "t")
        assert a == b and a.digest == b.digest
    digests = {sample(db, seed, "train").digest for seed in range(40)}
    assert len(digests) > 35


def test_task_round_trips_through_json(tpl, tasks):
    for task in tasks[:200]:
        again = Task.from_dict(json.loads(json.dumps(task.to_dict())))
        assert again.digest == task.digest
    for task in tasks[:50]:  # the checks work on the round-tripped task as well
        again = Task.from_dict(json.loads(json.dumps(task.to_dict())))
        with Sandbox(tpl) as box:
            messages = replay(box, again)
            assert all(TASKS.check(box.db, again, c, messages) for c in again.constraints)


@pytest.mark.parametrize("kind", CONSTRAINT_TYPES)
def test_every_type_can_be_sampled(db, kind):
    for split in SPLITS:
        for seed in range(5):
            task = sample(db, seed, split, types=(kind,), max_constraints=2)
            assert task.split == split and task.domain == "airline"
            assert 1 <= len(task.constraints) <= 2
            assert {c.type for c in task.constraints} == {kind}


def test_types_are_spread(tasks):
    counts = Counter(c.type for t in tasks for c in t.constraints)
    assert set(counts) == set(CONSTRAINT_TYPES)
    firsts = Counter(t.constraints[0].type for t in tasks)
    assert min(firsts.values()) > 0.3 * len(tasks) / len(CONSTRAINT_TYPES)


def test_constraint_counts_follow_the_config(db):
    sizes = Counter(len(sample(db, seed, SPLITS[seed % 2], min_constraints=3,
                               max_constraints=3).constraints) for seed in range(100))
    assert sizes[3] >= 90 and set(sizes) <= {1, 2, 3}
    for seed in range(30):
        assert len(sample(db, seed, "test", min_constraints=1, max_constraints=1).constraints) == 1


def test_bad_config_is_rejected(db):
    with pytest.raises(ValueError):
        sample(db, 0, "train", types=("no_such_type",))
    with pytest.raises(ValueError):
        sample(db, 0, "train", min_constraints=3, max_constraints=2)
    with pytest.raises(ValueError):
        sample(db, 0, "validation")


def test_fuzziness_controls_reservation_ids(db):
    def by_id(fuzziness):
        refs = [c.refs["reservation"] for seed in range(60)
                for c in sample(db, seed, "train", fuzziness=fuzziness).constraints
                if "reservation" in c.refs]
        return sum("reservation_id" in d.fields for d in refs), len(refs)

    assert by_id(0.0)[0] == by_id(0.0)[1] > 0
    assert by_id(1.0)[0] == 0


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


def test_split_is_a_stable_partition(db, tasks):
    users = [u for (u,) in db.execute("SELECT user_id FROM users")]
    splits = {u: TASKS.split_of(u) for u in users}
    assert set(splits.values()) == set(SPLITS)
    assert splits == {u: TASKS.split_of(u) for u in users}
    share = sum(s == "test" for s in splits.values()) / len(users)
    assert 0.12 <= share <= 0.28
    seen = {s: set() for s in SPLITS}
    for task in tasks:
        assert splits[task.user_id] == task.split
        seen[task.split].add(task.user_id)
    assert not seen["train"] & seen["test"]
    assert len(seen["test"]) > 30


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
    tried = 0
    for task in tasks[:400]:
        if len(task.constraints) < 2:
            continue
        with Sandbox(tpl) as box:
            for c in reversed(task.constraints):
                if c.type in WRITE_CALLS:
                    tool, arguments = write_of(c)
                    result = box.call(tool, arguments)
                    assert result.ok, (task.id, c, result.content)
            messages = replay_reads(box, task)
            assert all(TASKS.check(box.db, task, c, messages) for c in task.constraints)
            tried += 1
    assert tried > 100


def test_information_needs_require_the_answer(tpl, tasks):
    for task in tasks[:300]:
        for c in task.constraints:
            if c.answer is None:
                continue
            with Sandbox(tpl) as box:
                assert not TASKS.check(box.db, task, c, ["I can't tell.", "Reservation ABC123.",
                                                         "Sorry, I cannot help with that."])
                assert not TASKS.check(box.db, task, c, plan_messages(task))  # not grounded
                assert TASKS.check(box.db, task, c, replay(box, task))


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
    """Played against the scripted user, the plan gets a yes for every proposal and the
    user ends the conversation with every need met."""
    for task in tasks[:200]:
        with Sandbox(tpl) as box:
            user = ScriptedUser(task, TASKS, box.db, np.random.default_rng(1))
            user.opening()
            writes = []
            reply = ""
            log, auth = EpisodeLog(), None  # what the agent has read (grounds its messages)
            for step in TASKS.plan(task):
                if step.call is not None:
                    result = box.call(step.call.name, step.call.arguments)
                    assert result.ok
                    auth = record_call(log, box, step.call.name, step.call.arguments, result,
                                       TASKS.auth_tools, auth)
                    if step.call.name in WRITE_TOOLS:
                        args = step.call.arguments
                        target = args.get("reservation_id", args.get("user_id"))
                        writes.append((step.call.name, target,
                                       TASKS.owner(box.db, step.call.name, args)))
                    continue
                reply = user.respond(log.agent_message(step.say), writes)
                writes = []
                if step.say is TASKS.plan(task)[0].say:
                    assert task.user_id in reply  # the identity question is answered
                if step.expects_confirmation:
                    assert reply.startswith("Yes"), (task.id, step.say, reply)
            assert STOP in reply and user.done, (task.id, reply)
            assert user.needs_met == len(task.constraints)


def test_proposals_mention_every_confirm_term(tasks):
    for task in tasks[:400]:
        proposals = [s.say for s in TASKS.plan(task) if s.expects_confirmation]
        writes = [c for c in task.constraints if c.type in WRITE_CALLS]
        assert len(proposals) == len(writes)
        for text, c in zip(proposals, writes):
            low = text.lower()
            assert c.confirm_terms
            assert all(any(t.lower() in low for t in group) for group in c.confirm_terms)


def test_plan_shape(tasks):
    for task in tasks[:300]:
        steps = TASKS.plan(task)
        assert steps[0].say and steps[0].call is None
        auth = steps[1].call
        assert auth.name in TASKS.auth_tools
        assert auth.arguments == {"user_id": task.user_id}
        writes = [s.call for s in steps if s.call and s.call.name in WRITE_TOOLS]
        assert [(w.name, w.arguments.get("reservation_id", w.arguments.get("user_id")))
                for w in writes] == [w for c in task.constraints for w in c.writes]
        for i, s in enumerate(steps):
            if s.expects_confirmation:  # a proposal is followed by its write
                assert steps[i + 1].call in writes
        for c in task.constraints:  # refusals and questions write nothing
            assert bool(c.writes) == (c.type in WRITE_CALLS)
            assert (c.answer is None) == (c.type in WRITE_CALLS)


# --------------------------------------------------------------------------- descriptions

def test_proofs_hold(db, tasks):
    for task in tasks:
        for _, role, d in descriptions(task):
            assert d.proof is not None, (task.id, role)
            assert d.proof.holds(db), (task.id, role, d)


def test_descriptions_resolve_independently(state, tasks):
    """Each description, resolved from its fields alone over the export, matches exactly
    one entity: the hidden one."""
    assert len(tasks) >= 500
    kinds = Counter()
    for task in tasks:
        for c, role, d in descriptions(task):
            found = resolve(state, task, c, d)
            assert found == [d.value], (task.id, role, d.fields, found, d.value)
            kinds[d.entity] += 1
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

def test_tiny_database(tiny_template, tiny_data):
    """Sampling copes with a tiny, odd database (flights bookable in the past, a flown round
    trip, users without reservations or usable methods)."""
    with Sandbox(tiny_template) as box:
        splits = {TASKS.split_of(u) for (u,) in box.db.execute("SELECT user_id FROM users")}
        state = box.export("tau2")
    made = Counter()
    for split in sorted(splits):
        for seed in range(60):
            with Sandbox(tiny_template) as box:
                task = TASKS.sample(box.db, np.random.default_rng(seed), split,
                                    SamplerConfig(max_constraints=3), "t")
                for c, role, d in descriptions(task):
                    assert d.proof.holds(box.db)
                    assert resolve(state, task, c, d) == [d.value], (role, d)
                messages = replay(box, task)
                assert all(TASKS.check(box.db, task, c, messages) for c in task.constraints)
                made.update(c.type for c in task.constraints)
    assert len(made) >= 6


def test_v1_database(v1_template):
    """tau-bench's airline files: descriptions resolve over the export, plans replay."""
    with Sandbox(v1_template) as box:
        state = box.export("tau2")
    made = Counter()
    for seed in range(200):
        with Sandbox(v1_template) as box:
            task = TASKS.sample(box.db, np.random.default_rng(seed), SPLITS[seed % 2],
                                SamplerConfig(max_constraints=3), "t")
            for c, role, d in descriptions(task):
                assert resolve(state, task, c, d) == [d.value], (role, d)
            messages = replay(box, task)
            assert all(TASKS.check(box.db, task, c, messages) for c in task.constraints)
            assert box.check_integrity() == []
            made.update(c.type for c in task.constraints)
    assert set(made) == set(CONSTRAINT_TYPES)


def test_sampling_survives_restore(tpl):
    with Sandbox(tpl) as box:
        snapshot = box.snapshot()
        for seed in range(60):
            box.restore(snapshot)
            task = TASKS.sample(box.db, np.random.default_rng(seed), SPLITS[seed % 2],
                                SamplerConfig(max_constraints=3), "t")
            messages = replay(box, task)
            assert all(TASKS.check(box.db, task, c, messages) for c in task.constraints)


def test_distractors_prefer_users_with_many_reservations(db):
    def mean_reservations(distractors):
        counts = [db.execute("SELECT count(*) FROM reservations WHERE user_id = ?",
                             (sample(db, seed, SPLITS[seed % 2],
                                     distractors=distractors).user_id,)).fetchone()[0]
                  for seed in range(80)]
        return statistics.mean(counts)

    assert mean_reservations(1.0) > mean_reservations(0.0) + 0.5


# --------------------------------------------------------------------------- speed

