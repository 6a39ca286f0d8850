"""Tests for the synthetic retail generator (spec retail.md §1.1)."""

from __future__ import annotations

import copy
import json
import re
import statistics
from collections import Counter
from functools import partial
from pathlib import Path

import pytest

from tool_gym.domains.retail.generate import generate

from ..databases import fixed_and_drawn_seeds, generated, generated_json

db = partial(generated, "retail")  # a private copy of the data generated from a seed

SEEDS = [0, 1, 2, 12345]

REPO_ROOT = Path(__file__).resolve().parents[3]
TAU2_DB = REPO_ROOT.parent / "shared" / "data" / "tau2" / "retail" / "db.json"

PRODUCT_KEYS = ["name", "product_id", "variants"]
VARIANT_KEYS = ["item_id", "options", "available", "price"]
USER_KEYS = ["user_id", "name", "address", "email", "payment_methods", "orders"]
NAME_KEYS = ["first_name", "last_name"]
ADDRESS_KEYS = ["address1", "address2", "city", "country", "state", "zip"]
PM_KEYS = {
    "credit_card": ["source", "id", "brand", "last_four"],
    "paypal": ["source", "id"],
    "gift_card": ["source", "id", "balance"],
}
ORDER_KEYS = ["order_id", "user_id", "address", "items", "status", "fulfillments", "payment_history"]
OPTIONAL_ORDER_KEYS = [
    "cancel_reason", "exchange_items", "exchange_new_items", "exchange_payment_method_id",
    "exchange_price_difference", "return_items", "return_payment_method_id",
]
ITEM_KEYS = ["name", "product_id", "item_id", "price", "options"]
FULFILLMENT_KEYS = ["tracking_id", "item_ids"]
PAYMENT_KEYS = ["transaction_type", "amount", "payment_method_id"]

TEN_DIGITS = re.compile(r"[0-9]{10}")
ORDER_ID = re.compile(r"#W[0-9]{7}")
PM_ID = re.compile(r"(credit_card|paypal|gift_card)_[0-9]{7}")
TRACKING_ID = re.compile(r"[0-9]{12}")
USER_ID = re.compile(r"[a-z]+_[a-z]+_[0-9]{4}")
ZIP = re.compile(r"[0-9]{5}")
ADDRESS2 = re.compile(r"(|Suite [0-9]{3}|Apt [0-9]{1,2})")


def is_money(x) -> bool:
    return type(x) is float and round(x, 2) == x


def variants_by_id(d: dict) -> dict:
    return {iid: (p, v) for p in d["products"].values() for iid, v in p["variants"].items()}


# ------------------------------------------------------------------------------------------
# Determinism and speed
# ------------------------------------------------------------------------------------------


def test_different_seeds_differ():
    dumps = {generated_json("retail", s) for s in SEEDS}
    assert len(dumps) == len(SEEDS)
    a, b = db(0), db(1)
    assert set(a["orders"]) != set(b["orders"])
    assert set(a["users"]) != set(b["users"])


def test_each_call_returns_fresh_unshared_objects():
    a = generate(3)
    before = json.dumps(a)
    b = generate(3)
    b["users"].clear()
    next(iter(b["orders"].values()))["address"]["city"] = "Nowhere"
    assert json.dumps(a) == before
    # within one database no two records share a mutable sub-object
    order = next(o for o in a["orders"].values() if o["address"] == a["users"][o["user_id"]]["address"])
    assert order["address"] is not a["users"][order["user_id"]]["address"]
    item = order["items"][0]
    variant = a["products"][item["product_id"]]["variants"][item["item_id"]]
    assert item["options"] is not variant["options"]


def test_json_round_trip_is_lossless():
    d = generate(0)
    assert json.loads(json.dumps(d)) == d


# ------------------------------------------------------------------------------------------
# Counts and scale
# ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", SEEDS)
def test_counts_and_scale(seed):
    d = db(seed)
    assert list(d) == ["products", "users", "orders"]
    assert len(d["products"]) == 50
    assert len(d["users"]) == 500
    assert len(d["orders"]) == 1000

    variants = [v for p in d["products"].values() for v in p["variants"].values()]
    assert 500 <= len(variants) <= 720
    share = sum(v["available"] for v in variants) / len(variants)
    assert 0.55 <= share <= 0.73

    statuses = Counter(o["status"] for o in d["orders"].values())
    assert statuses == {"pending": 423, "processed": 102, "delivered": 373, "cancelled": 102}

    without = sum(1 for u in d["users"].values() if not u["orders"])
    assert 45 <= without <= 75

    n_items = Counter(len(o["items"]) for o in d["orders"].values())
    assert set(n_items) == {1, 2, 3, 4, 5}
    n_pms = Counter(len(u["payment_methods"]) for u in d["users"].values())
    assert set(n_pms) <= {1, 2, 3, 4} and n_pms[1] > n_pms[2] > 0 and n_pms[3] > 0


# ------------------------------------------------------------------------------------------
# Invariants of spec §1.1
# ------------------------------------------------------------------------------------------


def check_invariants(d: dict) -> None:
    products, users, orders = d["products"], d["users"], d["orders"]

    # --- products and variants
    names = [p["name"] for p in products.values()]
    assert len(set(names)) == len(names)
    product_ids, item_ids = set(), []
    for pid, p in products.items():
        assert list(p) == PRODUCT_KEYS
        assert p["product_id"] == pid and TEN_DIGITS.fullmatch(pid)
        product_ids.add(pid)
        assert 5 <= len(p["variants"]) <= 20
        option_keys = None
        combos = set()
        for iid, v in p["variants"].items():
            assert list(v) == VARIANT_KEYS
            assert v["item_id"] == iid and TEN_DIGITS.fullmatch(iid)
            item_ids.append(iid)
            assert type(v["available"]) is bool
            assert is_money(v["price"]) and 1.0 < v["price"] < 10000.0
            opts = v["options"]
            assert opts and all(type(k) is str and type(x) is str for k, x in opts.items())
            if option_keys is None:
                option_keys = list(opts)
            assert list(opts) == option_keys
            combos.add(tuple(opts.values()))
        assert len(combos) == len(p["variants"])
        # prices of one product stay in a coherent band
        prices = [v["price"] for v in p["variants"].values()]
        assert max(prices) / min(prices) < 1.5
    assert len(set(item_ids)) == len(item_ids)
    assert not product_ids & set(item_ids)
    vmap = variants_by_id(d)

    # --- users
    emails, pm_ids, city_state = set(), set(), {}
    for uid, u in users.items():
        assert list(u) == USER_KEYS
        assert u["user_id"] == uid and USER_ID.fullmatch(uid)
        assert list(u["name"]) == NAME_KEYS
        first, last = u["name"]["first_name"], u["name"]["last_name"]
        assert uid.startswith(f"{first.lower()}_{last.lower()}_")
        a = u["address"]
        assert list(a) == ADDRESS_KEYS and all(type(x) is str for x in a.values())
        assert a["country"] == "USA" and ZIP.fullmatch(a["zip"]) and ADDRESS2.fullmatch(a["address2"])
        assert re.fullmatch(r"[A-Z]{2}", a["state"]) and a["address1"] and a["city"]
        assert city_state.setdefault(a["city"], a["state"]) == a["state"]
        assert "@" in u["email"] and u["email"].lower() not in emails
        emails.add(u["email"].lower())
        assert 1 <= len(u["payment_methods"]) <= 4
        for pm_key, pm in u["payment_methods"].items():
            assert pm["id"] == pm_key and PM_ID.fullmatch(pm_key)
            assert pm_key.startswith(pm["source"] + "_")
            assert list(pm) == PM_KEYS[pm["source"]]
            assert pm_key not in pm_ids
            pm_ids.add(pm_key)
            if pm["source"] == "credit_card":
                assert pm["brand"] in {"visa", "mastercard", "amex", "discover"}
                assert re.fullmatch(r"[0-9]{4}", pm["last_four"])
            elif pm["source"] == "gift_card":
                assert is_money(pm["balance"]) and pm["balance"] >= 0
        assert len(set(u["orders"])) == len(u["orders"])
        for oid in u["orders"]:
            assert orders[oid]["user_id"] == uid

    # --- orders
    tracking_ids = []
    for oid, o in orders.items():
        assert list(o) == ORDER_KEYS  # the optional fields are omitted, as in tau2's file
        assert o["order_id"] == oid and ORDER_ID.fullmatch(oid)
        owner = users[o["user_id"]]
        assert oid in owner["orders"]
        a = o["address"]
        assert list(a) == ADDRESS_KEYS and a["country"] == "USA" and ZIP.fullmatch(a["zip"])
        assert city_state.setdefault(a["city"], a["state"]) == a["state"]

        assert 1 <= len(o["items"]) <= 5
        total = 0.0
        for it in o["items"]:
            assert list(it) == ITEM_KEYS
            p, v = vmap[it["item_id"]]
            assert it["product_id"] == p["product_id"] and it["name"] == p["name"]
            assert it["price"] == v["price"] and type(it["price"]) is float
            assert it["options"] == v["options"] and list(it["options"]) == list(v["options"])
            total += it["price"]

        status = o["status"]
        assert status in {"pending", "processed", "delivered", "cancelled"}
        if status == "pending":
            assert o["fulfillments"] == []
        else:
            assert len(o["fulfillments"]) == 1
            f = o["fulfillments"][0]
            assert list(f) == FULFILLMENT_KEYS
            assert len(f["tracking_id"]) == 1 and TRACKING_ID.fullmatch(f["tracking_id"][0])
            tracking_ids.append(f["tracking_id"][0])
            assert f["item_ids"] == [it["item_id"] for it in o["items"]]

        history = o["payment_history"]
        for h in history:
            assert list(h) == PAYMENT_KEYS
            assert h["payment_method_id"] in owner["payment_methods"]
            assert type(h["amount"]) is float
        pay = history[0]
        assert pay["transaction_type"] == "payment"
        assert pay["amount"] == round(total, 2)
        if status == "cancelled":
            assert len(history) == 2
            refund = history[1]
            assert refund["transaction_type"] == "refund"
            assert refund["amount"] == pay["amount"]
            assert refund["payment_method_id"] == pay["payment_method_id"]
            assert "cancel_reason" not in o
        else:
            assert len(history) == 1
    assert len(set(tracking_ids)) == len(tracking_ids)

    # users[*].orders and orders[*].user_id agree, and every order is listed exactly once
    listed = [oid for u in users.values() for oid in u["orders"]]
    assert sorted(listed) == sorted(orders)


@fixed_and_drawn_seeds(*SEEDS)
def test_invariants(seed):
    check_invariants(generate(seed))


@pytest.mark.parametrize("seed", SEEDS)
def test_ids_are_globally_unique(seed):
    d = db(seed)
    ten = list(d["products"]) + [i for p in d["products"].values() for i in p["variants"]]
    assert len(set(ten)) == len(ten)
    pms = [k for u in d["users"].values() for k in u["payment_methods"]]
    assert len(set(pms)) == len(pms)
    assert len({k.lower() for k in d["users"]}) == len(d["users"])


@pytest.mark.parametrize("seed", SEEDS)
def test_name_and_zip_identify_a_user(seed):
    d = db(seed)
    keys = [(u["name"]["first_name"].lower(), u["name"]["last_name"].lower(), u["address"]["zip"])
            for u in d["users"].values()]
    assert len(set(keys)) == len(keys)


# ------------------------------------------------------------------------------------------
# Material for task sampling
# ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", SEEDS)
def test_data_supports_task_sampling(seed):
    d = db(seed)
    orders, users = d["orders"], d["users"]

    two_pending = [u for u in users.values()
                   if sum(orders[o]["status"] == "pending" for o in u["orders"]) >= 2]
    assert len(two_pending) >= 20

    same_product = [o for o in orders.values()
                    if len({i["product_id"] for i in o["items"]}) < len(o["items"])]
    assert len(same_product) >= 20

    same_item = [o for o in orders.values()
                 if len({i["item_id"] for i in o["items"]}) < len(o["items"])]
    assert 1 <= len(same_item) <= 40

    totals = [o["payment_history"][0]["amount"] for o in orders.values()]
    median = statistics.median(totals)
    balances = [pm["balance"] for u in users.values() for pm in u["payment_methods"].values()
                if pm["source"] == "gift_card"]
    assert sum(b < median for b in balances) >= 20
    assert sum(b > median for b in balances) >= 20
    paid_by_gift_card = [o for o in orders.values()
                         if o["payment_history"][0]["payment_method_id"].startswith("gift_card_")]
    assert paid_by_gift_card

    # every product offers alternatives: an ordered item can be swapped for another available one
    for p in d["products"].values():
        assert sum(v["available"] for v in p["variants"].values()) >= 2
    # some products also have unavailable variants (exchange into them must fail)
    assert sum(1 for p in d["products"].values()
               if not all(v["available"] for v in p["variants"].values())) >= 25

    sources = Counter(pm["source"] for u in users.values() for pm in u["payment_methods"].values())
    assert all(sources[s] >= 100 for s in PM_KEYS)
    brands = Counter(pm["brand"] for u in users.values() for pm in u["payment_methods"].values()
                     if pm["source"] == "credit_card")
    assert set(brands) == {"visa", "mastercard", "amex", "discover"}
    # some orders ship to an address other than the owner's current one
    moved = sum(o["address"] != users[o["user_id"]]["address"] for o in orders.values())
    assert 50 <= moved <= 400
    assert any(u["address"]["address2"] == "" for u in users.values())


# ------------------------------------------------------------------------------------------
# Schema shape against the real tau2 file (key lists only)
# ------------------------------------------------------------------------------------------


def _key_shapes(d: dict) -> dict:
    shapes: dict[str, set] = {k: set() for k in (
        "top", "product", "variant", "user", "name", "address", "pm", "order", "item",
        "fulfillment", "payment")}
    shapes["top"].add(tuple(d))
    for p in d["products"].values():
        shapes["product"].add(tuple(p))
        for v in p["variants"].values():
            shapes["variant"].add(tuple(v))
    for u in d["users"].values():
        shapes["user"].add(tuple(u))
        shapes["name"].add(tuple(u["name"]))
        shapes["address"].add(tuple(u["address"]))
        for pm in u["payment_methods"].values():
            shapes["pm"].add(tuple(pm))
    for o in d["orders"].values():
        shapes["order"].add(tuple(o))
        shapes["address"].add(tuple(o["address"]))
        for it in o["items"]:
            shapes["item"].add(tuple(it))
        for f in o["fulfillments"]:
            shapes["fulfillment"].add(tuple(f))
        for h in o["payment_history"]:
            shapes["payment"].add(tuple(h))
    return shapes


def test_key_order_matches_spec():
    shapes = _key_shapes(db(0))
    assert shapes["product"] == {tuple(PRODUCT_KEYS)}
    assert shapes["variant"] == {tuple(VARIANT_KEYS)}
    assert shapes["user"] == {tuple(USER_KEYS)}
    assert shapes["address"] == {tuple(ADDRESS_KEYS)}
    assert shapes["pm"] == {tuple(k) for k in PM_KEYS.values()}
    assert shapes["order"] == {tuple(ORDER_KEYS)}
    assert shapes["item"] == {tuple(ITEM_KEYS)}


@pytest.mark.skipif(not TAU2_DB.exists(), reason="tau2 reference data not present")
def test_key_order_matches_tau2_db_json():
    real = json.loads(TAU2_DB.read_text())
    assert _key_shapes(db(0)) == _key_shapes(real)


@pytest.mark.skipif(not TAU2_DB.exists(), reason="tau2 reference data not present")
def test_no_record_copied_from_tau2():
    real = json.loads(TAU2_DB.read_text())
    d = db(0)
    real_ids = (set(real["products"]) | set(real["orders"]) | set(real["users"])
                | {i for p in real["products"].values() for i in p["variants"]})
    ours = (set(d["products"]) | set(d["orders"]) | set(d["users"])
            | {i for p in d["products"].values() for i in p["variants"]})
    # random 7/10-digit ids may collide by chance only very rarely
    assert len(real_ids & ours) <= 2
    real_emails = {u["email"] for u in real["users"].values()}
    assert not real_emails & {u["email"] for u in d["users"].values()}


def test_optional_fields_absent_but_importable():
    d = db(0)
    for o in d["orders"].values():
        assert not set(OPTIONAL_ORDER_KEYS) & set(o)
    assert copy.deepcopy(d) == d
