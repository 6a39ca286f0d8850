"""The retail task kit: sampling, feasibility, fuzzy descriptions, phrasing, reference plans.

The database is the generated one (seed 0), built once for the module; each replay runs on
a fresh sandbox copy of it.
"""

from __future__ import annotations

import json
import re
from collections import Counter

import numpy as np
import pytest

from tool_gym.core.grounding import EpisodeLog, record_call, replay
from tool_gym.core.sandbox import Sandbox, Template, build_database, template
from tool_gym.core.taskkit import mentions_answer  # the plain match, still used by synthesis
from tool_gym.core.tasks import Constraint, SamplerConfig, Task
from tool_gym.domains.retail import DOMAIN
from tool_gym.domains.retail.tasks import (
    ADDRESS_KEYS,
    CONSTRAINT_TYPES,
    TASKS,
    WRITE_CALLS,
)

SEED = 0
SPLITS = ("train", "test")
ORDER_ID = re.compile(r"#?W\d{7}")
METHOD_ID = re.compile(r"(?:credit_card|paypal|gift_card)_\d+")


# --------------------------------------------------------------------------- fixtures

@pytest.fixture(scope="module")
def tpl() -> Template:
    return template("retail", SEED)


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

def run_calls(box: Sandbox, calls) -> None:
    for call in calls:
        result = box.call(call.name, call.arguments)
        assert result.ok, (call, result.content)


def plan_calls(task: Task):
    return [s.call for s in TASKS.plan(task) if s.call is not None]


def plan_messages(task: Task) -> list[str]:
    return [s.say for s in TASKS.plan(task) if s.say is not None]


def play(box: Sandbox, task: Task, writes: bool = True) -> list[str]:
    """Play the plan (without its writes when ``writes`` is false; every call must
    succeed); its messages, grounded in the reads before each (``core.grounding``)."""
    log = EpisodeLog()
    write_tools = {tool for tool, _ in WRITE_CALLS.values()}
    steps = [s for s in TASKS.plan(task)
             if writes or s.call is None or s.call.name not in write_tools]
    messages = replay(box, steps, TASKS.auth_tools, log)
    assert all(e.ok for e in log.events), [(e.tool, e.content) for e in log.events if not e.ok]
    return messages


def descriptions(task: Task):
    yield None, "identity", task.identity
    for c in task.constraints:
        for role, d in c.refs.items():
            yield c, role, d


def resolve(state: dict, task: Task, constraint: Constraint | None, d) -> list:
    """Everything that ``d.fields`` matches, found with plain Python over the export
    (no SQL, no sampler code)."""
    users, orders, products = state["users"], state["orders"], state["products"]
    f = d.fields
    if d.entity == "user":
        if "email" in f:
            return [u["user_id"] for u in users.values()
                    if u["email"].lower() == f["email"].lower()]
        return [u["user_id"] for u in users.values()
                if u["name"]["first_name"].lower() == f["first_name"].lower()
                and u["name"]["last_name"].lower() == f["last_name"].lower()
                and u["address"]["zip"] == f["zip"]]
    mine = [o for o in orders.values() if o["user_id"] == task.user_id]
    if d.entity == "order":
        if "order_id" in f:
            return [o["order_id"] for o in mine if o["order_id"] == f["order_id"]]
        return [o["order_id"] for o in mine
                if set(f["items"]) <= {line["name"] for line in o["items"]}]
    if d.entity == "items":  # lines of the constraint's order
        lines = orders[constraint.args["order_id"]]["items"]
        found = []
        for e in f["items"]:
            match = [line for line in lines if line["name"] == e["product"]
                     and all(line["options"].get(k) == v for k, v in e["options"].items())]
            ids = {line["item_id"] for line in match}
            if len(ids) != 1 or len(match) < e["quantity"]:
                return []
            found.append(ids.pop())
        return [found]
    if d.entity == "variants":
        found = []
        for e in f["items"]:
            named = [p for p in products.values() if p["name"] == e["product"]]
            if len(named) != 1:
                return []
            match = [v["item_id"] for v in named[0]["variants"].values()
                     if v["options"] == e["options"]]
            if len(match) != 1:
                return []
            found.append(match[0])
        return [found]
    if d.entity == "payment_method":
        return [m["id"] for m in users[task.user_id]["payment_methods"].values()
                if m["source"] == f["source"]
                and (f["source"] != "credit_card"
                     or (m["brand"], m["last_four"]) == (f["brand"], f["last_four"]))]
    if d.entity == "product":
        return [p["product_id"] for p in products.values() if p["name"] == f["product"]]
    if d.entity == "address":
        assert f == {"default_address": True}
        a = users[task.user_id]["address"]
        return [{k: a[k] for k in ADDRESS_KEYS}]
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


def test_task_round_trips_through_json(tasks):
    for task in tasks[:200]:
        again = Task.from_dict(json.loads(json.dumps(task.to_dict())))
        assert again.digest == task.digest


@pytest.mark.parametrize("kind", CONSTRAINT_TYPES)
def test_every_type_can_be_sampled(db, kind):
    for split in SPLITS:
        for seed in range(5):
            task = sample(db, seed, split, types=(kind,), max_constraints=2)
            assert task.split == split
            assert 1 <= len(task.constraints) <= 2
            assert {c.type for c in task.constraints} == {kind}


def test_types_are_spread(tasks):
    counts = Counter(c.type for t in tasks for c in t.constraints)
    assert set(counts) == set(CONSTRAINT_TYPES)
    # the first need's type is drawn before the user: rare types are not crowded out
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


def test_fuzziness_controls_order_ids(db):
    def by_id(fuzziness):
        refs = [c.refs["order"] for seed in range(60)
                for c in sample(db, seed, "train", fuzziness=fuzziness).constraints
                if "order" in c.refs]
        return sum("order_id" in d.fields for d in refs), len(refs)

    assert by_id(0.0)[0] == by_id(0.0)[1] > 0
    assert by_id(1.0)[0] == 0


def test_constraints_of_a_task_do_not_conflict(tasks):
    for task in tasks:
        cs = task.constraints
        orders = [c.args["order_id"] for c in cs if "order_id" in c.args]
        assert len(orders) == len(set(orders)), task
        assert sum(c.type == "change_user_address" for c in cs) <= 1
        if any(c.type == "change_user_address" for c in cs):
            assert not any("address" in c.refs for c in cs)
        gift = [c.args["payment_method_id"] for c in cs
                if c.args.get("payment_method_id", "").startswith("gift_card")]
        assert len(gift) == len(set(gift))


def test_split_is_a_stable_partition(db, tasks):
    users = [u for (u,) in db.execute("SELECT user_id FROM users")]
    splits = {u: TASKS.split_of(u) for u in users}
    assert set(splits.values()) == set(SPLITS)
    assert splits == {u: TASKS.split_of(u) for u in users}
    share = sum(s == "test" for s in splits.values()) / len(users)
    assert 0.15 <= share <= 0.25
    seen = {s: set() for s in SPLITS}
    for task in tasks:
        assert splits[task.user_id] == task.split
        seen[task.split].add(task.user_id)
    assert not seen["train"] & seen["test"]
    assert len(seen["test"]) > 30


# --------------------------------------------------------------------------- feasibility

def test_plans_replay_and_satisfy_every_constraint(tpl, tasks):
    checked = 0
    for task in tasks[:400]:
        with Sandbox(tpl) as box:
            for c in task.constraints:
                if c.writes:  # a need that holds already would be no need
                    assert not TASKS.check(box.db, task, c, []), (task.id, c)
            messages = play(box, task)
            for c in task.constraints:
                assert TASKS.check(box.db, task, c, messages), (task.id, c)
            assert box.check_integrity() == []
            checked += 1
    assert checked == 400


def test_needs_can_be_met_in_any_order(tpl, tasks):
    """The writes of all needs succeed in reverse order too, and all needs hold after."""
    for task in tasks[:300]:
        if len(task.constraints) < 2:
            continue
        with Sandbox(tpl) as box:
            for c in reversed(task.constraints):
                if c.type in WRITE_CALLS:
                    tool, params = WRITE_CALLS[c.type]
                    result = box.call(tool, {p: c.args[p] for p in params})
                    assert result.ok, (task.id, c, result.content)
            with Sandbox(tpl) as fresh:  # the plan's reads (on the initial state) ground them
                messages = play(fresh, task, writes=False)
            assert all(TASKS.check(box.db, task, c, messages) for c in task.constraints)


def test_information_needs_require_the_answer(tpl, tasks):
    for task in tasks[:300]:
        for c in task.constraints:
            if c.answer is None:
                continue
            with Sandbox(tpl) as box:
                assert not TASKS.check(box.db, task, c, ["I can't tell.", "Order #W0000000."])
                assert not TASKS.check(box.db, task, c, plan_messages(task))  # not grounded
                assert TASKS.check(box.db, task, c, play(box, task))


def test_wrong_writes_do_not_satisfy(tpl, tasks):
    """A cancel with the other reason or a return to another method fails the check."""
    tried = 0
    for task in tasks:
        for c in task.constraints:
            if c.type == "cancel_order":
                other = next(r for r in ("no longer needed", "ordered by mistake")
                             if r != c.args["reason"])
                with Sandbox(tpl) as box:
                    assert box.call("cancel_pending_order",
                                    {"order_id": c.args["order_id"], "reason": other}).ok
                    assert not TASKS.check(box.db, task, c, [])
                    tried += 1
            if c.type == "return_items" and len(c.args["item_ids"]) > 1:
                with Sandbox(tpl) as box:
                    assert box.call("return_delivered_order_items", {
                        "order_id": c.args["order_id"], "item_ids": c.args["item_ids"][:1],
                        "payment_method_id": c.args["payment_method_id"]}).ok
                    assert not TASKS.check(box.db, task, c, [])
                    tried += 1
    assert tried > 20


def test_oracle_plan_satisfies_the_scripted_user(tpl, tasks):
    """Played against the scripted user, the plan gets a yes for every proposal and the
    user ends the conversation with every need met."""
    from tool_gym.core.users import STOP, ScriptedUser

    for task in tasks[:150]:
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
                    if step.call.name in {tool for tool, _ in WRITE_CALLS.values()}:
                        args = step.call.arguments
                        target = args.get("order_id", args.get("user_id"))
                        writes.append((step.call.name, target,
                                       TASKS.owner(box.db, step.call.name, args)))
                    continue
                reply = user.respond(log.agent_message(step.say), writes)
                writes = []
                if step.expects_confirmation:
                    assert reply.startswith("Yes"), (task.id, step.say, reply)
            assert STOP in reply and user.done, (task.id, reply)
            assert user.needs_met == len(task.constraints)


def test_proposals_mention_every_confirm_term(tasks):
    for task in tasks[:300]:
        proposals = [s.say for s in TASKS.plan(task) if s.expects_confirmation]
        writes = [c for c in task.constraints if c.type in WRITE_CALLS]
        assert len(proposals) == len(writes)
        for text, c in zip(proposals, writes):
            low = text.lower()
            assert c.confirm_terms
            assert all(any(t.lower() in low for t in group) for group in c.confirm_terms)


def test_plan_shape(tasks):
    for task in tasks[:200]:
        steps = TASKS.plan(task)
        assert steps[0].say and steps[0].call is None
        auth = steps[1].call
        assert auth.name in TASKS.auth_tools
        assert set(auth.arguments.values()) == set(task.identity.fields.values())
        writes = [s.call for s in steps if s.call and s.call.name in
                  {tool for tool, _ in WRITE_CALLS.values()}]
        assert [(w.name, w.arguments.get("order_id", w.arguments.get("user_id")))
                for w in writes] == [w for c in task.constraints for w in c.writes]
        for i, s in enumerate(steps):
            if s.expects_confirmation:  # a proposal is followed by its write
                assert steps[i + 1].call in writes


# --------------------------------------------------------------------------- descriptions

def test_proofs_hold(db, tasks):
    for task in tasks:
        for _, role, d in descriptions(task):
            assert d.proof is not None, (task.id, role)
            assert d.proof.holds(db), (task.id, role, d)


def test_descriptions_resolve_independently(state, tasks):
    """Each description, resolved from its fields alone over the export, matches exactly
    one entity: the hidden one."""
    assert len(tasks) == 1000
    kinds = Counter()
    for task in tasks:
        for c, role, d in descriptions(task):
            found = resolve(state, task, c, d)
            assert found == [d.value], (task.id, role, d.fields, found, d.value)
            kinds[d.entity] += 1
    assert {"user", "order", "items", "variants", "payment_method", "product",
            "address"} <= set(kinds)


def test_identity_uses_email_or_name_and_zip(tasks):
    ways = Counter(tuple(sorted(t.identity.fields)) for t in tasks)
    assert set(ways) == {("email",), ("first_name", "last_name", "zip")}


def test_user_words_leak_no_ids(state, tasks):
    item_ids = {v for p in state["products"].values() for v in p["variants"]}
    item_ids |= {line["item_id"] for o in state["orders"].values() for line in o["items"]}
    product_ids = set(state["products"])
    for task in tasks:
        rng = np.random.default_rng(0)
        texts = [(None, TASKS.identify(task, rng)) for _ in range(3)]
        for c in task.constraints:
            texts += [(c, TASKS.opening(task, c, rng))]
            texts += [(c, TASKS.request(task, c, rng)) for _ in range(3)]
        for c, text in texts:
            assert task.user_id not in text
            assert not METHOD_ID.search(text), text
            numbers = set(re.findall(r"\d+", text))
            assert not numbers & (item_ids | product_ids), text
            allowed = set()
            if c is not None and "order" in c.refs and "order_id" in c.refs["order"].fields:
                allowed = {c.args["order_id"]}
            for found in ORDER_ID.findall(text):
                assert ("#" + found.lstrip("#")) in allowed, (text, allowed)


def test_requests_state_the_need(tasks):
    for task in tasks[:300]:
        rng = np.random.default_rng(3)
        for c in task.constraints:
            text = TASKS.request(task, c, rng)
            for d in c.refs.values():
                if d.entity in ("items", "variants"):
                    for e in d.fields["items"]:
                        assert e["product"] in text
                        assert all(str(v) in text for v in e["options"].values())
                elif d.entity == "product":
                    assert d.fields["product"] in text
                else:
                    assert d.text in text, (d.text, text)
            if "reason" in c.args:
                assert c.args["reason"] in text
            if "address1" in c.args and "address" not in c.refs:
                assert all(c.args[k] in text for k in ("address1", "city", "zip"))


# --------------------------------------------------------------------------- owner, checks

def test_owner(db):
    order_id, user_id = db.execute("SELECT order_id, user_id FROM orders LIMIT 1").fetchone()
    assert TASKS.owner(db, "cancel_pending_order", {"order_id": order_id}) == user_id
    assert TASKS.owner(db, "exchange_delivered_order_items", {"order_id": order_id}) == user_id
    assert TASKS.owner(db, "modify_user_address", {"user_id": user_id}) == user_id
    assert TASKS.owner(db, "cancel_pending_order", {"order_id": "#W0000000"}) is None
    assert TASKS.owner(db, "modify_user_address", {"user_id": "nobody"}) is None
    assert TASKS.owner(db, "cancel_pending_order", {"order_id": 5}) is None
    assert TASKS.owner(db, "calculate", {"expression": "1+1"}) is None
    assert TASKS.owner(db, "cancel_pending_order", "not a dict") is None


def test_answer_matching():
    assert mentions_answer("1234.56", ["The total is $1,234.56."])
    assert mentions_answer("1234.56", ["TOTAL: 1234.56"])
    assert not mentions_answer("1234.56", ["The total is 1234.5"])
    assert not mentions_answer("7", ["There are 17 options."])
    assert mentions_answer("7", ["There are 7 options."])
    assert not mentions_answer("20.00", ["The balance is 120.00."])
    assert mentions_answer("123456789012", ["Tracking: 123456789012."])


# --------------------------------------------------------------------------- other databases

def test_tiny_database(tiny_template):
    """Sampling copes with odd data: same name and zip twice, duplicate lines, a line of an
    unknown product, users without orders or methods."""
    with Sandbox(tiny_template) as box:
        splits = {TASKS.split_of(u) for (u,) in box.db.execute("SELECT user_id FROM users")}
    for split in sorted(splits):
        for seed in range(60):
            with Sandbox(tiny_template) as box:
                task = TASKS.sample(box.db, np.random.default_rng(seed), split,
                                    SamplerConfig(max_constraints=3), "t")
                for _, _, d in descriptions(task):
                    assert d.proof.holds(box.db)
                messages = play(box, task)
                assert all(TASKS.check(box.db, task, c, messages) for c in task.constraints)


def test_tau2_database(tau2_db_path):
    tau2 = Template(DOMAIN, build_database(DOMAIN, data=tau2_db_path), ("retail", "tau2-test"))
    with Sandbox(tau2) as box:
        state = box.export("tau2")
    for seed in range(150):
        with Sandbox(tau2) as box:
            task = TASKS.sample(box.db, np.random.default_rng(seed), SPLITS[seed % 2],
                                SamplerConfig(max_constraints=3), "t")
            for c, role, d in descriptions(task):
                assert resolve(state, task, c, d) == [d.value], (role, d)
            messages = play(box, task)
            assert all(TASKS.check(box.db, task, c, messages) for c in task.constraints)


def test_distractors_prefer_users_with_similar_orders(db):
    def share(distractors):
        hits = 0
        for seed in range(80):
            task = sample(db, seed, SPLITS[seed % 2], distractors=distractors)
            hits += db.execute(
                "SELECT 1 FROM orders o JOIN order_items i ON i.order_id = o.order_id "
                "WHERE o.user_id = ? GROUP BY i.product_id "
                "HAVING count(DISTINCT o.order_id) > 1 LIMIT 1", (task.user_id,)).fetchone() \
                is not None
        return hits / 80

    assert share(1.0) > share(0.0) + 0.25


def test_sampling_survives_restore(tpl):
    """Sampling again on a connection that was restored (``deserialize``) works: the
    queries avoid the SQLite 3.40 crash of ``json_each`` after ``deserialize``."""
    with Sandbox(tpl) as box:
        snapshot = box.snapshot()
        for seed in range(60):
            box.restore(snapshot)
            task = TASKS.sample(box.db, np.random.default_rng(seed), SPLITS[seed % 2],
                                SamplerConfig(max_constraints=3), "t")
            messages = play(box, task)
            assert all(TASKS.check(box.db, task, c, messages) for c in task.constraints)


def test_a_type_no_user_can_satisfy_is_skipped(tpl):
    """When no user can satisfy a type (no processed orders left), tasks are still drawn
    from the other types."""
    with Sandbox(tpl) as box:
        box.db.execute("UPDATE orders SET status = 'delivered' WHERE status = 'processed'")
        for seed in range(20):
            task = TASKS.sample(box.db, np.random.default_rng(seed), SPLITS[seed % 2],
                                SamplerConfig(types=("cancel_processed_order",
                                                     "change_user_address")), "t")
            assert [c.type for c in task.constraints] == ["change_user_address"]
        with pytest.raises(RuntimeError):
            TASKS.sample(box.db, np.random.default_rng(0), "train",
                         SamplerConfig(types=("cancel_processed_order",)), "t")
