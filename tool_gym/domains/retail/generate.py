"""Synthetic retail database in tau2-bench's ``db.json`` shape (spec ``retail.md`` §1.1).

``generate(seed)`` is a pure function: it builds the whole database from the vocabulary
lists below with a ``random.Random(seed)`` created inside the call, so the same seed always
yields an identical dict (and identical ``json.dumps``).  Nothing here reads tau2's data.

Shape and scale follow the shipped tau2 file: 50 products with 5..20 variants each (about
600 in all, about 64% available), 500 users (about 60 without orders) holding 1..4 payment
methods, 1,000 orders in the pending / processed / delivered / cancelled proportions
423 / 102 / 373 / 102, and every invariant listed in §1.1.
"""

from __future__ import annotations

import itertools
import random
from pathlib import Path
from typing import Any

from ...core.tables import read_json

_VOCABULARY = read_json(Path(__file__).with_name("vocabulary.json"))

__all__ = ["generate", "N_PRODUCTS", "N_USERS", "N_ORDERS", "STATUS_COUNTS"]

N_PRODUCTS = 50
N_USERS = 500
N_ORDERS = 1000
STATUS_COUNTS = (("pending", 423), ("processed", 102), ("delivered", 373), ("cancelled", 102))

_AVAILABLE_SHARE = 0.63  # ~0.64 after the minimum top-up below
_MIN_AVAILABLE = 3            # every product keeps alternatives to exchange/modify into
_DUPLICATE_ITEM_RATE = 0.01   # multi-item orders listing the same item twice
_OTHER_ADDRESS_RATE = 0.2     # orders shipped somewhere other than the owner's address

# --------------------------------------------------------------------------------------------
# Vocabulary (our own lists)
# --------------------------------------------------------------------------------------------

_COLORS = ["black", "white", "gray", "navy", "red", "green", "blue", "beige"]
_SIZES = ["XS", "S", "M", "L", "XL", "XXL"]

# name, option keys -> values (key order is the option order of every variant), base price range
_CATALOGUE = _VOCABULARY["catalogue"]

_FIRST_NAMES = _VOCABULARY["first_names"]
_LAST_NAMES = _VOCABULARY["last_names"]

# city, state, zip range (inclusive, 5-digit numbers; printed zero-padded)
_CITIES: list[tuple[str, str, int, int]] = [
    ("Seattle", "WA", 98101, 98199), ("Spokane", "WA", 99201, 99224),
    ("Portland", "OR", 97201, 97299), ("San Francisco", "CA", 94102, 94188),
    ("Los Angeles", "CA", 90001, 90089), ("San Diego", "CA", 92101, 92199),
    ("Sacramento", "CA", 95811, 95899), ("Las Vegas", "NV", 89101, 89199),
    ("Phoenix", "AZ", 85001, 85099), ("Tucson", "AZ", 85701, 85775),
    ("Salt Lake City", "UT", 84101, 84199), ("Boise", "ID", 83701, 83799),
    ("Denver", "CO", 80201, 80299), ("Albuquerque", "NM", 87101, 87199),
    ("Austin", "TX", 78701, 78759), ("Houston", "TX", 77001, 77099),
    ("Dallas", "TX", 75201, 75398), ("San Antonio", "TX", 78201, 78299),
    ("Oklahoma City", "OK", 73101, 73199), ("Omaha", "NE", 68101, 68199),
    ("Kansas City", "MO", 64101, 64199), ("St. Louis", "MO", 63101, 63199),
    ("Minneapolis", "MN", 55401, 55488), ("Milwaukee", "WI", 53201, 53299),
    ("Chicago", "IL", 60601, 60661), ("Indianapolis", "IN", 46201, 46299),
    ("Detroit", "MI", 48201, 48299), ("Columbus", "OH", 43201, 43299),
    ("Cleveland", "OH", 44101, 44199), ("Louisville", "KY", 40201, 40299),
    ("Nashville", "TN", 37201, 37250), ("Atlanta", "GA", 30301, 30399),
    ("Charlotte", "NC", 28201, 28299), ("Raleigh", "NC", 27601, 27699),
    ("Richmond", "VA", 23219, 23298), ("Washington", "DC", 20001, 20099),
    ("Baltimore", "MD", 21201, 21299), ("Philadelphia", "PA", 19101, 19155),
    ("Pittsburgh", "PA", 15201, 15295), ("New York", "NY", 10001, 10099),
    ("Brooklyn", "NY", 11201, 11256), ("Boston", "MA", 2108, 2137),
    ("Providence", "RI", 2901, 2940), ("Hartford", "CT", 6101, 6199),
    ("Miami", "FL", 33101, 33199), ("Tampa", "FL", 33601, 33694),
    ("Orlando", "FL", 32801, 32899), ("New Orleans", "LA", 70112, 70199),
]

_STREETS = [
    "Alder Way", "Aspen Court", "Bayview Road", "Birch Avenue", "Chestnut Street", "Clover Lane",
    "Cypress Drive", "Dogwood Terrace", "Foxglove Road", "Glenwood Avenue", "Harbor Street",
    "Heather Lane", "Juniper Drive", "Kingsley Road", "Larkspur Court", "Magnolia Avenue",
    "Meadowbrook Drive", "Mill Street", "Northgate Boulevard", "Orchard Road", "Pinecrest Lane",
    "Quarry Road", "Redwood Street", "Riverside Drive", "Rosemary Lane", "Sycamore Avenue",
    "Tamarack Way", "Union Street", "Valley View Road", "Willow Bend", "Windmill Lane",
    "Woodland Avenue",
]

_CARD_BRANDS = ["visa", "mastercard", "amex", "discover"]
_CARD_BRAND_WEIGHTS = [40, 35, 15, 10]
_PM_COUNT_WEIGHTS = [67, 27, 5, 1]            # users with 1, 2, 3, 4 payment methods
_SOURCES = ["credit_card", "paypal", "gift_card"]


# --------------------------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------------------------


class _Ids:
    """Globally unique digit strings (first digit never 0) drawn from one rng."""

    def __init__(self, rng: random.Random) -> None:
        self._rng = rng
        self._used: set[str] = set()

    def digits(self, n: int) -> str:
        while True:
            s = str(self._rng.randrange(10 ** (n - 1), 10**n))
            if s not in self._used:
                self._used.add(s)
                return s


def _address(rng: random.Random) -> dict[str, str]:
    city, state, zlo, zhi = rng.choice(_CITIES)
    r = rng.random()
    if r < 0.2:
        address2 = ""
    elif r < 0.75:
        address2 = f"Suite {rng.randrange(100, 1000)}"
    else:
        address2 = f"Apt {rng.randrange(1, 60)}"
    return {
        "address1": f"{rng.randrange(10, 1000)} {rng.choice(_STREETS)}",
        "address2": address2,
        "city": city,
        "country": "USA",
        "state": state,
        "zip": f"{rng.randrange(zlo, zhi + 1):05d}",
    }


def _gift_card_balance(rng: random.Random) -> float:
    r = rng.random()
    if r < 0.45:          # small: below nearly every order total
        value = rng.randrange(0, 100)
    elif r < 0.85:        # medium: covers some orders, not others
        value = rng.randrange(100, 1000)
    else:                 # large: covers most orders
        value = rng.randrange(1000, 4000)
    if rng.random() < 0.5:
        return float(value)
    return round(value + rng.randrange(0, 100) / 100, 2)


def _products(rng: random.Random, ids: _Ids) -> dict[str, Any]:
    products: dict[str, Any] = {}
    for name, option_space, (lo, hi) in rng.sample(_CATALOGUE, N_PRODUCTS):
        keys = list(option_space)
        combos = list(itertools.product(*(option_space[k] for k in keys)))
        n = min(5 + round(15 * rng.betavariate(1.7, 1.8)), len(combos))  # 5..20, mean ~12
        chosen = rng.sample(combos, n)
        available = [rng.random() < _AVAILABLE_SHARE for _ in range(n)]
        short = _MIN_AVAILABLE - sum(available)
        if short > 0:
            off = [i for i, a in enumerate(available) if not a]
            for i in rng.sample(off, short):
                available[i] = True
        base = rng.uniform(lo, hi)
        product_id = ids.digits(10)
        variants: dict[str, Any] = {}
        for combo, avail in zip(chosen, available):
            item_id = ids.digits(10)
            variants[item_id] = {
                "item_id": item_id,
                "options": dict(zip(keys, combo)),
                "available": avail,
                "price": round(base * rng.uniform(0.88, 1.14), 2),
            }
        products[product_id] = {"name": name, "product_id": product_id, "variants": variants}
    return products


def _users(rng: random.Random, ids: _Ids) -> dict[str, Any]:
    users: dict[str, Any] = {}
    emails: set[str] = set()
    name_zip: set[tuple[str, str, str]] = set()
    while len(users) < N_USERS:
        first = rng.choice(_FIRST_NAMES)
        last = rng.choice(_LAST_NAMES)
        user_id = f"{first.lower()}_{last.lower()}_{rng.randrange(1000, 10000)}"
        email = f"{first.lower()}.{last.lower()}{rng.randrange(1000, 10000)}@example.com"
        address = _address(rng)
        key = (first.lower(), last.lower(), address["zip"])
        if user_id in users or email.lower() in emails or key in name_zip:
            continue
        emails.add(email.lower())
        name_zip.add(key)
        n_pm = rng.choices(range(1, 5), weights=_PM_COUNT_WEIGHTS)[0]
        methods: dict[str, Any] = {}
        for source in rng.sample(_SOURCES * 2, n_pm):
            pm_id = f"{source}_{ids.digits(7)}"
            if source == "credit_card":
                pm = {"source": source, "id": pm_id,
                      "brand": rng.choices(_CARD_BRANDS, weights=_CARD_BRAND_WEIGHTS)[0],
                      "last_four": f"{rng.randrange(10000):04d}"}
            elif source == "paypal":
                pm = {"source": source, "id": pm_id}
            else:
                pm = {"source": source, "id": pm_id, "balance": _gift_card_balance(rng)}
            methods[pm_id] = pm
        users[user_id] = {
            "user_id": user_id,
            "name": {"first_name": first, "last_name": last},
            "address": address,
            "email": email,
            "payment_methods": methods,
            "orders": [],
        }
    return users


def _order_items(rng: random.Random, products: list[dict[str, Any]]) -> list[dict[str, Any]]:
    n = rng.randint(1, 5)
    picked: list[tuple[dict[str, Any], dict[str, Any]]] = []
    seen: set[str] = set()
    while len(picked) < n:
        product = rng.choice(products)
        variant = rng.choice(list(product["variants"].values()))
        if variant["item_id"] in seen:
            continue
        seen.add(variant["item_id"])
        picked.append((product, variant))
    if n >= 2 and rng.random() < _DUPLICATE_ITEM_RATE:
        # the same item bought twice: replace one line by a copy of another
        src, dst = rng.sample(range(n), 2)
        picked[dst] = picked[src]
    return [
        {"name": p["name"], "product_id": p["product_id"], "item_id": v["item_id"],
         "price": v["price"], "options": dict(v["options"])}
        for p, v in picked
    ]


def _orders(rng: random.Random, ids: _Ids, users: dict[str, Any],
            products: dict[str, Any]) -> dict[str, Any]:
    user_ids = list(users)
    n_without = rng.randint(55, 65)
    buyers = rng.sample(user_ids, N_USERS - n_without)
    # every buyer gets one order; the rest go to buyers with over-dispersed weights
    weights = [rng.gammavariate(3.0, 1.0) for _ in buyers]
    extra = rng.choices(range(len(buyers)), weights=weights, k=N_ORDERS - len(buyers))
    owners = list(buyers) + [buyers[i] for i in extra]
    rng.shuffle(owners)
    statuses = [s for s, k in STATUS_COUNTS for _ in range(k)]
    rng.shuffle(statuses)

    product_list = list(products.values())
    orders: dict[str, Any] = {}
    for user_id, status in zip(owners, statuses):
        user = users[user_id]
        order_id = f"#W{ids.digits(7)}"
        items = _order_items(rng, product_list)
        if rng.random() < _OTHER_ADDRESS_RATE:
            address = _address(rng)
        else:
            address = dict(user["address"])
        fulfillments = []
        if status != "pending":
            fulfillments.append({"tracking_id": [ids.digits(12)],
                                 "item_ids": [it["item_id"] for it in items]})
        total = 0.0
        for it in items:
            total += it["price"]
        amount = round(total, 2)
        pm_id = rng.choice(list(user["payment_methods"]))
        history = [{"transaction_type": "payment", "amount": amount, "payment_method_id": pm_id}]
        if status == "cancelled":
            history.append({"transaction_type": "refund", "amount": amount,
                            "payment_method_id": pm_id})
        orders[order_id] = {
            "order_id": order_id,
            "user_id": user_id,
            "address": address,
            "items": items,
            "status": status,
            "fulfillments": fulfillments,
            "payment_history": history,
        }
        user["orders"].append(order_id)
    return orders


# --------------------------------------------------------------------------------------------
# Entry point
# --------------------------------------------------------------------------------------------


def generate(seed: int) -> dict[str, Any]:
    """Return a fresh synthetic retail database (tau2 ``db.json`` structure) for ``seed``."""
    rng = random.Random(int(seed))
    ids = _Ids(rng)
    products = _products(rng, ids)
    users = _users(rng, ids)
    orders = _orders(rng, ids, users, products)
    return {"products": products, "users": users, "orders": orders}
