"""The retail task kit: what is specific to retail (the conformance suite checks what holds
for every domain): sampling, fuzzy descriptions, phrasing, reference plans on other databases.

The database is the generated one (seed 0, ``tpl`` and ``db`` of tests/domains/conftest.py);
each replay runs on a fresh sandbox copy of it.
"""

from __future__ import annotations

import re
from collections import Counter
from functools import partial

import numpy as np
import pytest

from tool_gym.core.sandbox import Sandbox, Template, build_database
from tool_gym.core.taskkit import mentions_answer
from tool_gym.core.task_model import Description, SamplerConfig, Task
from tool_gym.domains.retail import DOMAIN
from tool_gym.domains.retail.phrasing import WRITE_CALLS
from tool_gym.domains.retail.records import ADDRESS_KEYS
from tool_gym.domains.retail.tasks import CONSTRAINT_TYPES, TASKS

from .. import kit_runs as runs
from ..kit_runs import SPLITS, sample
from ..taskchecks import resolved_entities

WRITE_TOOLS = {tool for tool, _ in WRITE_CALLS.values()}
ORDER_ID = re.compile(r"#?W\d{7}")
METHOD_ID = re.compile(r"(?:credit_card|paypal|gift_card)_\d+")


@pytest.fixture(scope="module")
def tasks(db) -> list[Task]:
    return runs.varied_tasks(TASKS, db)


def resolve(state: dict, task: Task, d: Description) -> list:
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
        lines = orders[runs.need_of(task, d).args["order_id"]]["items"]
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

def test_samples_differ(db):
    assert len({sample(TASKS, db, seed, "train").digest for seed in range(40)}) > 35


def test_types_are_spread(tasks):
    runs.assert_types_spread(tasks, CONSTRAINT_TYPES)


def test_constraint_counts_follow_the_config(db):
    runs.assert_counts_follow_the_config(TASKS, db)


def test_bad_config_is_rejected(db):
    with pytest.raises(ValueError):
        sample(TASKS, db, 0, "train", types=("no_such_type",))
    with pytest.raises(ValueError):
        sample(TASKS, db, 0, "train", min_constraints=3, max_constraints=2)
    with pytest.raises(ValueError):
        sample(TASKS, db, 0, "validation")


def test_fuzziness_controls_order_ids(db):
    runs.assert_fuzziness_hides_ids(TASKS, db, "order", "order_id")


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


def test_about_a_fifth_of_the_users_are_test_users(db, tasks):
    users = [u for (u,) in db.execute("SELECT user_id FROM users")]
    splits = {u: TASKS.split_of(u) for u in users}
    assert splits == {u: TASKS.split_of(u) for u in users}
    assert 0.15 <= list(splits.values()).count("test") / len(users) <= 0.25
    assert all(splits[t.user_id] == t.split for t in tasks)
    assert len({t.user_id for t in tasks if t.split == "test"}) > 30


# --------------------------------------------------------------------------- feasibility

def test_plans_replay_and_satisfy_every_constraint(tpl, tasks):
    for task in tasks[:400]:
        with Sandbox(tpl) as box:
            for c in task.constraints:
                if c.writes:  # a need that holds already would be no need
                    assert not TASKS.check(box.db, task, c, []), (task.id, c)
            messages = runs.replay(box, TASKS, task, WRITE_TOOLS)
            assert all(TASKS.check(box.db, task, c, messages) for c in task.constraints)
            assert box.check_integrity() == []


def test_needs_can_be_met_in_any_order(tpl, tasks):
    """The writes of all needs succeed in reverse order too, and all needs hold after."""
    runs.needs_met_in_reverse(tpl, TASKS, tasks[:300], WRITE_CALLS, reads_first=True)


def test_information_needs_require_the_answer(tpl, tasks):
    runs.assert_answers_need_the_reads(tpl, TASKS, tasks[:300], WRITE_TOOLS,
                                       ["I can't tell.", "Order #W0000000."])


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
    for task in tasks[:150]:
        with Sandbox(tpl) as box:
            runs.scripted_user_replies(box, TASKS, task, WRITE_TOOLS, "order_id")


def test_plan_shape(tasks):
    """The identity is given as the task describes it; the writes follow the needs."""
    for task in tasks[:200]:
        auth = runs.written(TASKS, task, WRITE_TOOLS, "order_id")[1].call
        assert set(auth.arguments.values()) == set(task.identity.fields.values())


# --------------------------------------------------------------------------- descriptions

def test_descriptions_resolve_independently(state, tasks):
    """Each description, resolved from its fields alone over the export, matches exactly
    one entity: the hidden one."""
    kinds = resolved_entities(tasks, partial(resolve, state))
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


def test_answer_matching():  # the plain match, still used by synthesis
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
                runs.sample_and_meet(box, TASKS, seed, split, WRITE_TOOLS)


def test_tau2_database(tau2_db_path):
    tau2 = Template(DOMAIN, build_database(DOMAIN, data=tau2_db_path), ("retail", "tau2-test"))
    with Sandbox(tau2) as box:
        state = box.export("tau2")
    for seed in range(150):
        with Sandbox(tau2) as box:
            task = runs.sample_and_meet(box, TASKS, seed, SPLITS[seed % 2], WRITE_TOOLS)
        resolved_entities([task], partial(resolve, state))


def test_distractors_prefer_users_with_similar_orders(db):
    def share(distractors):
        hits = 0
        for seed in range(80):
            task = sample(TASKS, db, seed, SPLITS[seed % 2], distractors=distractors)
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
            runs.sample_and_meet(box, TASKS, seed, SPLITS[seed % 2], WRITE_TOOLS)


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
