"""Hidden-intent tasks of the retail domain (CoVe constraints, spec ``retail.md`` §5).

:class:`RetailTasks` implements :class:`~tool_gym.core.tasks.TaskKit`. ``sample`` picks one
user of the requested split and draws constraints that are each feasible on the database as
given and that do not interfere with each other, so that they can be satisfied together in
any order:

* every constraint acts on (or asks about) its own order;
* a gift card is the chosen payment method of at most one constraint, and a gift card whose
  balance is asked for is touched by no other constraint (not even by a refund);
* at most one ``change_user_address``, and never together with an order address described
  as "my default address" (which would then depend on the order of the requests).

Constraint types (``args`` holds the write call's arguments plus what the check needs):

==========================  =====================================================================
``cancel_order``            pending order, reason one of the two allowed strings
``change_order_address``    pending-like order -> a new address (sometimes "my default address")
``modify_items``            pending order: lines -> other available variants of the same
                            product, difference paid/refunded with an owner's method
``change_order_payment``    pending-like order with one payment -> another owner's method
``change_user_address``     the user's default address -> a new address
``return_items``            delivered order: some lines -> refund to the original method or a
                            gift card of the owner
``exchange_items``          delivered order: lines -> other available variants, via a method
``info_tracking``           tracking number of a delivered or processed order
``info_order_total``        sum of the order's item prices, e.g. ``"1234.56"``
``info_available_options``  number of available variants of a product, e.g. ``"7"``
``info_gift_card_balance``  balance of the user's only gift card, e.g. ``"20.00"``
``cancel_processed_order``  refusal: the user asks to cancel a processed order; holds while the
                            order stays ``processed`` and an agent message says "processed"
==========================  =====================================================================

Information answers are checked like tau2's COMMUNICATE (case-insensitive, commas removed
from the message) and must not be part of a longer number or word ("7" is not in "17").

Every id the user would not know is replaced by a :class:`Description` whose uniqueness is
proven by a query run at sampling time (kept as ``Description.proof``):

* user: by email, or by first name + last name + zip (names case-insensitive, as the tool);
* order: by a minimal set of its product names that no other order of the user contains
  entirely (``{"items": [...]}``), or, with probability ``1 - fuzziness``, by its id;
* order lines (role ``items``): one entry per distinct item,
  ``{"product", "options", "quantity"}`` with the fewest options that tell it apart from the
  order's other lines of that product (``value``: the item ids, one per entry; ``units``
  when the order has several identical lines);
* new variants (role ``new_items``): ``{"product", "options"}`` with the full option set;
* payment methods: ``{"source", "brand", "last_four"}`` for cards, ``{"source"}`` for PayPal
  and gift cards (only when the user has exactly one of that kind);
* product (``info_available_options``): ``{"product": name}``;
* "my default address" (``{"default_address": True}``).

Order, item and variant descriptions are relative to the task's user and the constraint's
order. Speed: ``sample`` runs about a dozen small indexed queries for one or two users, never
a scan of a whole table, and keeps no state between calls. On a fresh sandbox most of its
cost is SQLite loading the schema and compiling those statements (once per connection).
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections import Counter
from functools import lru_cache
from itertools import combinations
from typing import Any, Callable, Iterator, Sequence

import numpy as np

from ...core.actions import ToolCall
from ...core.grounding import communicated
from ...core.proposals import Intent, Param
from ...core.tasks import (Constraint, Description, PlanStep, Proof, Refusal, SamplerConfig,
                           Task)

#: Words that name why the request is refused (any one addresses it; see ``Refusal.about``).
_PROCESSED_WORDS = (
    "processed", "processing", "already processed", "shipped", "shipping", "pending",
    "fulfilled", "being prepared", "on its way")


__all__ = ["RetailTasks", "TASKS", "REASONS", "CONSTRAINT_TYPES", "WRITE_CALLS", "ADDRESS_KEYS"]

REASONS = ("no longer needed", "ordered by mistake")
#: Address fields in the order of the tools' parameters.
ADDRESS_KEYS = ("address1", "address2", "city", "state", "country", "zip")

CONSTRAINT_TYPES = (
    "cancel_order",
    "change_order_address",
    "modify_items",
    "change_order_payment",
    "change_user_address",
    "return_items",
    "exchange_items",
    "info_tracking",
    "info_order_total",
    "info_available_options",
    "info_gift_card_balance",
    "cancel_processed_order",
)

#: Write constraint type -> (tool, its parameters taken from ``Constraint.args``).
WRITE_CALLS: dict[str, tuple[str, tuple[str, ...]]] = {
    "cancel_order": ("cancel_pending_order", ("order_id", "reason")),
    "change_order_address": ("modify_pending_order_address", ("order_id",) + ADDRESS_KEYS),
    "modify_items": ("modify_pending_order_items",
                     ("order_id", "item_ids", "new_item_ids", "payment_method_id")),
    "change_order_payment": ("modify_pending_order_payment", ("order_id", "payment_method_id")),
    "change_user_address": ("modify_user_address", ("user_id",) + ADDRESS_KEYS),
    "return_items": ("return_delivered_order_items",
                     ("order_id", "item_ids", "payment_method_id")),
    "exchange_items": ("exchange_delivered_order_items",
                       ("order_id", "item_ids", "new_item_ids", "payment_method_id")),
}

_ORDER_TOOLS = frozenset({
    "cancel_pending_order", "modify_pending_order_address", "modify_pending_order_payment",
    "modify_pending_order_items", "return_delivered_order_items",
    "exchange_delivered_order_items", "get_order_details",
})
_USER_TOOLS = frozenset({"modify_user_address", "get_user_details"})

_USER_TRIES = 40          # users drawn before settling for fewer constraints
_LEAD_TRIES = 25          # users read who must satisfy the first need's type
_USER_DRAWS = 400         # users drawn (read or skipped) at most
_LEAD_DRAWS = 120         # users drawn before the first need's type may be any type
_BATCHES = 40             # batches of random users drawn before scanning the table
_BATCH_TRAIN = 6          # rowids drawn per batch (about 80% of users are train users)
_BATCH_TEST = 16          # (about 20% are test users)
_DISTRACTOR_BATCHES = 6   # batches searched for users with similar orders, when preferred
_ORDER_TRIES = 8          # candidate orders tried per constraint
_DEFAULT_ADDRESS_P = 0.5  # change_order_address to "my default address"
_TEST_SHARE = 20          # percent of users in the test split

# Our own small list of places for invented new addresses: (city, state, first zip).
_NEW_CITIES = (
    ("Burlington", "VT", 5401), ("Portsmouth", "NH", 3801), ("Ann Arbor", "MI", 48103),
    ("Madison", "WI", 53703), ("Boulder", "CO", 80302), ("Eugene", "OR", 97401),
    ("Santa Fe", "NM", 87501), ("Savannah", "GA", 31401), ("Asheville", "NC", 28801),
    ("Fort Collins", "CO", 80521), ("Ithaca", "NY", 14850), ("Bozeman", "MT", 59715),
    ("Missoula", "MT", 59801), ("Flagstaff", "AZ", 86001), ("Durham", "NC", 27701),
    ("Lexington", "KY", 40507), ("Tacoma", "WA", 98402), ("Reno", "NV", 89501),
    ("Des Moines", "IA", 50309), ("Charleston", "SC", 29401), ("Knoxville", "TN", 37902),
    ("Anchorage", "AK", 99501), ("Honolulu", "HI", 96813), ("Fargo", "ND", 58102),
)
_NEW_STREETS = (
    "Acorn Street", "Beacon Hill Road", "Bluebell Court", "Cedar Ridge Drive", "Copper Lane",
    "Elm Grove Avenue", "Fern Hollow Road", "Garnet Way", "Hawthorn Place", "Ivy Terrace",
    "Lakeshore Drive", "Lantern Lane", "Maple Crest Road", "Oak Hollow Court", "Pebble Path",
    "Prospect Avenue", "Saddle Ridge Road", "Spruce Street", "Summit Avenue", "Thistle Way",
    "Timber Lane", "Walnut Street", "Wildflower Drive", "Winding Brook Road",
)
_BRANDS = {"visa": "Visa", "mastercard": "Mastercard", "amex": "American Express",
           "american express": "American Express", "discover": "Discover"}
_REASON_PHRASE = {"no longer needed": "it's no longer needed",
                  "ordered by mistake": "it was ordered by mistake"}
#: The ways an agent may state each cancellation reason in a proposal.
_REASON_FORMS = {
    "no longer needed": ("no longer needed", "no longer need", "not needed", "don't need",
                         "do not need", "doesn't need", "does not need", "not need it",
                         "no longer required", "no longer want", "no need for"),
    "ordered by mistake": ("ordered by mistake", "by mistake", "mistaken", "accidental",
                           "by accident", "in error", "unintentional"),
}


# Plain parameterized SQL only: no ``json_each`` (SQLite 3.40 crashes when a connection that
# ran ``json_each`` together with a table is ``deserialize``d, as ``Sandbox.restore`` does, and
# runs ``json_each`` again) and no recursive CTEs (slow to compile on every fresh sandbox).

#: Has the user two orders with a product in common?
_HAS_DISTRACTORS = (
    "SELECT EXISTS (SELECT 1 FROM orders o JOIN order_items i ON i.order_id = o.order_id "
    "WHERE o.user_id = ? GROUP BY i.product_id HAVING count(DISTINCT o.order_id) > 1)")
#: Proof of one entry {product, options, quantity} of an ``items`` description: the one item
#: id among the order's lines of that product whose options include the entry's (JSON
#: object parameter), when at least ``quantity`` lines match; else null.
_LINE = (
    "(SELECT CASE WHEN count(DISTINCT item_id) = 1 AND count(*) >= ? THEN min(item_id) END "
    "FROM order_items WHERE order_id = ? AND name = ? AND "
    "json_patch(options, ?) = json(options))")
#: Proof of one entry {product, options} of a ``new_items`` description: the one variant of
#: the product with exactly those options, else null.
_VARIANT = (
    "(SELECT CASE WHEN count(*) = 1 THEN min(v.item_id) END FROM variants v "
    "JOIN products p ON p.product_id = v.product_id "
    "WHERE p.name = ? AND json(v.options) = json(?))")


# --------------------------------------------------------------------------- helpers

@lru_cache(maxsize=1 << 16)
def _split_of(user_id: str) -> str:
    """``"test"`` for about 20% of user ids, by sha256 of the id (a pure function)."""
    h = int.from_bytes(hashlib.sha256(user_id.encode("utf-8")).digest()[:8], "big")
    return "test" if h % 100 < _TEST_SHARE else "train"


def _pick(rng: np.random.Generator, options: Sequence[Any]) -> Any:
    return options[int(rng.integers(len(options)))]


def _shuffled(rng: np.random.Generator, items: list) -> list:
    if len(items) < 2:
        return list(items)
    return [items[i] for i in rng.permutation(len(items))]


def _prove(db: sqlite3.Connection, query: str, params: Sequence[Any],
           expected: tuple) -> Proof | None:
    """The proof, when ``query`` returns exactly one row equal to ``expected``."""
    try:
        rows = db.execute(query, tuple(params)).fetchall()
    except sqlite3.Error:  # e.g. malformed JSON options in foreign data
        return None
    if len(rows) != 1 or tuple(rows[0]) != tuple(expected):
        return None
    return Proof(query, tuple(params), tuple(expected))


def _address_text(a: dict) -> str:
    parts = [a["address1"]] + ([a["address2"]] if a["address2"] else [])
    return f"{', '.join(parts)}, {a['city']}, {a['state']} {a['zip']}, {a['country']}"


def _options_text(options: dict) -> str:
    return ", ".join(f"{k}: {v}" for k, v in options.items())


def _join(parts: Sequence[str]) -> str:
    parts = list(parts)
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def _money(x: float) -> str:
    return f"{round(float(x), 2):.2f}"


# --------------------------------------------------------------------------- user context

class _WithOptions:
    """A row whose ``options`` column (a JSON object) is parsed on first use."""

    __slots__ = ("options_text", "_options")

    @property
    def options(self) -> dict:
        if self._options is None:
            try:
                value = json.loads(self.options_text)
            except (TypeError, ValueError):
                value = {}
            self._options = value if isinstance(value, dict) else {}
        return self._options


class _Line(_WithOptions):
    __slots__ = ("item_id", "product_id", "name", "price")

    def __init__(self, item_id, product_id, name, price, options_text):
        self.item_id = item_id
        self.product_id = product_id
        self.name = name
        self.price = price
        self.options_text = options_text
        self._options = None


class _Variant(_WithOptions):
    __slots__ = ("item_id", "available", "price")

    def __init__(self, item_id, options_text, available, price):
        self.item_id = item_id
        self.options_text = options_text
        self.available = bool(available)
        self.price = price
        self._options = None


class _Order:
    __slots__ = ("order_id", "status", "address", "lines", "_payments", "_names", "_db")

    def __init__(self, db, order_id, status, address):
        self._db = db
        self.order_id = order_id
        self.status = status
        self.address = address
        self.lines: list[_Line] = []
        self._payments = None
        self._names = None

    @property
    def payments(self) -> list[tuple[str, float, str]]:
        """``(transaction_type, amount, payment_method_id)`` in history order (read lazily)."""
        if self._payments is None:
            self._payments = self._db.execute(
                "SELECT transaction_type, amount, payment_method_id FROM order_payments "
                "WHERE order_id = ? ORDER BY pos", (self.order_id,)).fetchall()
        return self._payments

    @property
    def names(self) -> frozenset:
        if self._names is None:
            self._names = frozenset(l.name for l in self.lines)
        return self._names

    def first_line(self, item_id: str) -> _Line:
        return next(l for l in self.lines if l.item_id == item_id)

    def distinct_items(self) -> list[str]:
        seen: dict[str, None] = {}
        for l in self.lines:
            seen.setdefault(l.item_id, None)
        return list(seen)


class _Method:
    __slots__ = ("id", "source", "brand", "last_four", "balance")

    def __init__(self, id, source, brand, last_four, balance):
        self.id = id
        self.source = source
        self.brand = brand
        self.last_four = last_four
        self.balance = balance


class _User:
    """One user's rows, read with a few indexed queries, and the bookkeeping that keeps the
    constraints of one task apart."""

    def __init__(self, db: sqlite3.Connection, user_id: str):
        self.user_id = user_id
        # One query for the user and their payment methods (a user without methods still shows).
        rows = db.execute(
            "SELECT u.first_name, u.last_name, u.email, u.address1, u.address2, u.city, "
            "u.state, u.country, u.zip, p.id, p.source, p.brand, p.last_four, p.balance "
            "FROM users u LEFT JOIN payment_methods p ON p.user_id = u.user_id "
            "WHERE u.user_id = ? ORDER BY p.ord, p.id", (user_id,)).fetchall()
        row = rows[0]
        self.first_name, self.last_name, self.email = row[0], row[1], row[2]
        self.address = dict(zip(ADDRESS_KEYS, row[3:9]))
        self.methods = [_Method(*r[9:]) for r in rows if r[9] is not None]
        self.method_by_id = {m.id: m for m in self.methods}
        self.gift_cards = [m for m in self.methods if m.source == "gift_card"]
        self.orders: list[_Order] = []
        by_id: dict[str, _Order] = {}
        # One query for the orders and their lines (an order without lines still shows).
        for r in db.execute(
                "SELECT o.order_id, o.status, o.address1, o.address2, o.city, o.state, "
                "o.country, o.zip, i.item_id, i.product_id, i.name, i.price, i.options "
                "FROM orders o LEFT JOIN order_items i ON i.order_id = o.order_id "
                "WHERE o.user_id = ? ORDER BY o.ord, o.order_id, i.pos", (user_id,)):
            o = by_id.get(r[0])
            if o is None:
                o = by_id[r[0]] = _Order(db, r[0], r[1], dict(zip(ADDRESS_KEYS, r[2:8])))
                self.orders.append(o)
            if r[8] is not None:
                o.lines.append(_Line(*r[8:]))
        self.order_by_id = by_id
        self._variants: dict[str, list[_Variant]] = {}
        self._method_desc: dict[str, Description | None] = {}
        # bookkeeping of the constraints drawn so far
        self.used_orders: set[str] = set()
        self.used_gift_cards: set[str] = set()     # chosen as a payment method
        self.touched_gift_cards: set[str] = set()  # balance may move (refunds)
        self.frozen_gift_cards: set[str] = set()   # balance asked for
        self.used_products: set[str] = set()
        self.user_address_changed = False
        self.default_address_used = False

    def variants(self, db: sqlite3.Connection, product_id: str) -> list[_Variant]:
        found = self._variants.get(product_id)
        if found is None:
            found = [_Variant(*r) for r in db.execute(
                "SELECT item_id, options, available, price FROM variants "
                "WHERE product_id = ? ORDER BY ord, item_id", (product_id,))]
            self._variants[product_id] = found
        return found

    def gift_card_free(self, method_id: str) -> bool:
        """A gift card that may be chosen as a constraint's payment method."""
        return method_id not in self.used_gift_cards and method_id not in self.frozen_gift_cards

    def owner_gift_cards(self, method_ids) -> set[str]:
        return {m for m in method_ids
                if m in self.method_by_id and self.method_by_id[m].source == "gift_card"}


# --------------------------------------------------------------------------- the kit

class RetailTasks:
    """The retail domain's :class:`~tool_gym.core.tasks.TaskKit`."""

    constraint_types: tuple[str, ...] = CONSTRAINT_TYPES
    auth_tools: tuple[str, ...] = ("find_user_id_by_email", "find_user_id_by_name_zip")
    domain = "retail"

    def __init__(self) -> None:
        self._builders: dict[str, Callable] = {
            "cancel_order": self._cancel_order,
            "change_order_address": self._change_order_address,
            "modify_items": self._modify_items,
            "change_order_payment": self._change_order_payment,
            "change_user_address": self._change_user_address,
            "return_items": self._return_items,
            "exchange_items": self._exchange_items,
            "info_tracking": self._info_tracking,
            "info_order_total": self._info_order_total,
            "info_available_options": self._info_available_options,
            "info_gift_card_balance": self._info_gift_card_balance,
            "cancel_processed_order": self._cancel_processed_order,
        }

    # ------------------------------------------------------------------ split
    @staticmethod
    def split_of(user_id: str) -> str:
        return _split_of(str(user_id))

    # ------------------------------------------------------------------ sampling
    def sample(self, db: sqlite3.Connection, rng: np.random.Generator, split: str,
               config: SamplerConfig, task_id: str) -> Task:
        if split not in ("train", "test"):
            raise ValueError(f"split must be 'train' or 'test', got {split!r}")
        types = tuple(config.types) if config.types else self.constraint_types
        unknown = [t for t in types if t not in self._builders]
        if unknown:
            raise ValueError(f"unknown retail constraint types: {unknown}; "
                             f"known: {list(self.constraint_types)}")
        lo, hi = int(config.min_constraints), int(config.max_constraints)
        if lo < 1 or hi < lo:
            raise ValueError(f"need 1 <= min_constraints <= max_constraints, got {lo}, {hi}")
        want = int(rng.integers(lo, hi + 1))
        # The first need's type is drawn before the user, so that types that few users
        # can satisfy are not crowded out by the ones every user can.
        lead = types[int(rng.integers(len(types)))]
        prefer = bool(rng.random() < config.distractors)
        best: tuple | None = None
        skipped: list[str] = []

        def attempt(user_id: str, first: str | None) -> bool:
            """Draw needs for this user; True when the task is complete."""
            nonlocal best
            user = _User(db, user_id)
            constraints = self._draw(db, user, rng, config, types, want, first)
            if not constraints or (best is not None and len(constraints) <= len(best[2])):
                return False
            identity = self._identity(db, user, rng)
            if identity is None:
                return False
            best = (user_id, identity, constraints)
            return len(constraints) >= want

        loads = 0
        for draw, user_id in enumerate(self._users(db, rng, split, prefer)):
            if loads >= _USER_TRIES or draw >= _USER_DRAWS:
                break
            first = lead if loads < _LEAD_TRIES and draw < _LEAD_DRAWS else None
            if first is not None and not _may_lead(db, first, user_id):
                skipped.append(user_id)  # cannot satisfy the first need: not read
                continue
            loads += 1
            if attempt(user_id, first):
                break
        else:
            # Every user of the split was seen (a small database): let the users that could
            # not satisfy the first need's type try any type.
            for user_id in skipped[:_USER_TRIES]:
                if attempt(user_id, None):
                    break
        if best is None:
            if db.execute("SELECT 1 FROM users LIMIT 1").fetchone() is None:
                raise ValueError("the database has no users")
            raise RuntimeError(f"no feasible retail task for split {split!r} "
                               f"with types {list(types)}")
        user_id, identity, constraints = best
        return Task(id=task_id, domain=self.domain, split=split, user_id=user_id,
                    identity=identity, constraints=tuple(constraints))

    def _users(self, db, rng, split, prefer_distractors) -> Iterator[str]:
        """Random users of ``split``, drawn by rowid in small batches (no table scan).

        With ``prefer_distractors`` the first batches yield only users whose orders share a
        product; the other users of those batches follow.
        """
        size = _BATCH_TRAIN if split == "train" else _BATCH_TEST
        lo, hi = db.execute("SELECT (SELECT min(rowid) FROM users), "
                            "(SELECT max(rowid) FROM users)").fetchone()
        if lo is None:
            return
        seen: set[str] = set()
        deferred: list[str] = []
        for batch in range(_BATCHES):
            draws = [int(x) for x in rng.integers(lo, hi + 1, size=size)]
            marks = ", ".join("?" * size)
            found = dict(db.execute(f"SELECT rowid, user_id FROM users WHERE rowid IN ({marks})",
                                    draws).fetchall())
            users: list[str] = []
            for d in draws:
                u = found.get(d)
                if u is not None and u not in seen and self.split_of(u) == split:
                    seen.add(u)
                    users.append(u)
            if prefer_distractors and batch < _DISTRACTOR_BATCHES:
                # only users whose orders share a product (distractors for descriptions);
                # the others come after these batches
                for u in users:
                    if db.execute(_HAS_DISTRACTORS, (u,)).fetchone()[0]:
                        yield u
                    else:
                        deferred.append(u)
                continue
            if deferred:
                users, deferred = deferred + users, []
            yield from users
        yield from deferred
        # Unlucky draws, sparse rowids or a tiny split: scan (rare).
        users = [u for (u,) in db.execute("SELECT user_id FROM users ORDER BY rowid")
                 if u not in seen and self.split_of(u) == split]
        yield from _shuffled(rng, users)

    def _identity(self, db, user: _User, rng) -> Description | None:
        ways = ["email", "name_zip"]
        if rng.random() < 0.5:
            ways.reverse()
        for way in ways:
            if way == "email":
                proof = _prove(db, "SELECT user_id FROM users WHERE lower(email) = lower(?)",
                               (user.email,), (user.user_id,))
                if proof is not None:
                    return Description("user", user.email, {"email": user.email},
                                       user.user_id, proof)
            else:
                a = user.address
                proof = _prove(
                    db, "SELECT user_id FROM users WHERE lower(first_name) = lower(?) AND "
                        "lower(last_name) = lower(?) AND zip = ?",
                    (user.first_name, user.last_name, a["zip"]), (user.user_id,))
                if proof is not None:
                    return Description(
                        "user", f"{user.first_name} {user.last_name}, zip code {a['zip']}",
                        {"first_name": user.first_name, "last_name": user.last_name,
                         "zip": a["zip"]}, user.user_id, proof)
        return None

    def _draw(self, db, user, rng, config, types, want, lead) -> list[Constraint]:
        pool = list(types)
        out: list[Constraint] = []
        if lead is not None:
            c = self._builders[lead](db, user, rng, config)
            if c is None:
                return out
            out.append(c)
            if lead == "change_user_address":
                pool.remove(lead)
        while len(out) < want and pool:
            k = int(rng.integers(len(pool)))
            c = self._builders[pool[k]](db, user, rng, config)
            if c is None or pool[k] == "change_user_address":
                pool.pop(k)
            if c is not None:
                out.append(c)
        return out

    # ------------------------------------------------------------------ descriptions
    def _orders(self, user: _User, rng, pred) -> list[_Order]:
        found = [o for o in user.orders if o.order_id not in user.used_orders and pred(o)]
        return _shuffled(rng, found)[:_ORDER_TRIES]

    def _describe_order(self, db, user: _User, order: _Order, rng,
                        config: SamplerConfig) -> Description | None:
        oid = order.order_id
        if rng.random() >= config.fuzziness:
            proof = _prove(db, "SELECT order_id FROM orders WHERE order_id = ? AND user_id = ?",
                           (oid, user.user_id), (oid,))
            return proof and Description("order", f"order {oid}", {"order_id": oid}, oid, proof)
        names = sorted(order.names)
        others = [o.names for o in user.orders if o is not order]
        chosen = None
        for k in range(1, len(names) + 1):
            ok = [s for s in combinations(names, k)
                  if not any(other.issuperset(s) for other in others)]
            if ok:
                chosen = list(_pick(rng, ok))
                break
        if chosen is None:
            return None
        marks = ", ".join("?" * len(chosen))
        proof = _prove(db, "SELECT o.order_id FROM orders o WHERE o.user_id = ? AND "
                           "(SELECT count(DISTINCT i.name) FROM order_items i WHERE "
                           f"i.order_id = o.order_id AND i.name IN ({marks})) = {len(chosen)}",
                       (user.user_id, *chosen), (oid,))
        if proof is None:
            return None
        text = "my order with " + _join([f"the {n}" for n in chosen])
        return Description("order", text, {"items": chosen}, oid, proof)

    def _describe_lines(self, db, order: _Order, picks: list[tuple[str, int]],
                        rng) -> Description | None:
        """Lines of ``order``: one entry per distinct item id with its quantity."""
        entries, texts = [], []
        for item_id, quantity in picks:
            line = order.first_line(item_id)
            opts = line.options
            if not all(isinstance(v, str) for v in opts.values()):
                return None
            others = [l for l in order.lines if l.name == line.name and l.item_id != item_id]
            keys = list(opts)
            chosen: tuple = ()
            if others:
                found = None
                for k in range(1, len(keys) + 1):
                    ok = [c for c in combinations(keys, k)
                          if all(any(l.options.get(key) != opts[key] for key in c)
                                 for l in others)]
                    if ok:
                        found = _pick(rng, ok)
                        break
                if found is None:
                    return None
                chosen = found
            options = {k: opts[k] for k in chosen}
            entry = {"product": line.name, "options": options, "quantity": quantity}
            units = sum(1 for l in order.lines if l.item_id == item_id)
            if units > 1:
                entry["units"] = units  # identical lines in the order
            entries.append(entry)
            texts.append(_line_phrase(entry))
        value = [item_id for item_id, _ in picks]
        params: list = []
        for e in entries:
            params += [e["quantity"], order.order_id, e["product"], json.dumps(e["options"])]
        proof = _prove(db, "SELECT " + ", ".join([_LINE] * len(entries)), params, tuple(value))
        if proof is None:
            return None
        return Description("items", _join(texts), {"items": entries}, value, proof)

    def _describe_variants(self, db, picks: list[tuple[str, _Variant]]) -> Description | None:
        """New variants by product name and full options."""
        entries, texts = [], []
        for name, v in picks:
            entry = {"product": name, "options": dict(v.options)}
            entries.append(entry)
            texts.append(_variant_phrase(entry))
        value = [v.item_id for _, v in picks]
        params = []
        for e in entries:
            params += [e["product"], json.dumps(e["options"])]
        proof = _prove(db, "SELECT " + ", ".join([_VARIANT] * len(entries)), params,
                       tuple(value))
        if proof is None:
            return None
        return Description("variants", _join(texts), {"items": entries}, value, proof)

    def _describe_method(self, db, user: _User, m: _Method) -> Description | None:
        if m.id in user._method_desc:
            return user._method_desc[m.id]
        desc = None
        if m.source == "credit_card":
            if m.brand and m.last_four:
                proof = _prove(db, "SELECT id FROM payment_methods WHERE user_id = ? AND "
                                   "source = 'credit_card' AND brand = ? AND last_four = ?",
                               (user.user_id, m.brand, m.last_four), (m.id,))
                if proof is not None:
                    brand = _BRANDS.get(str(m.brand).lower(), str(m.brand).title())
                    desc = Description(
                        "payment_method", f"my {brand} card ending in {m.last_four}",
                        {"source": "credit_card", "brand": m.brand, "last_four": m.last_four},
                        m.id, proof)
        elif m.source in ("paypal", "gift_card"):
            proof = _prove(db, "SELECT id FROM payment_methods WHERE user_id = ? AND source = ?",
                           (user.user_id, m.source), (m.id,))
            if proof is not None:
                text = "my PayPal account" if m.source == "paypal" else "my gift card"
                desc = Description("payment_method", text, {"source": m.source}, m.id, proof)
        user._method_desc[m.id] = desc
        return desc

    def _choose_method(self, db, user: _User, rng, candidates: list[_Method],
                       need: float | None = None) -> tuple[_Method, Description] | None:
        """A describable method; gift cards must be free and cover ``need`` (if given)."""
        for m in _shuffled(rng, candidates):
            if m.source == "gift_card":
                if not user.gift_card_free(m.id):
                    continue
                if need is not None and (m.balance is None or m.balance < need):
                    continue
            desc = self._describe_method(db, user, m)
            if desc is not None:
                return m, desc
        return None

    def _new_address(self, rng, avoid: list[dict]) -> dict:
        while True:
            city, state, zip0 = _pick(rng, _NEW_CITIES)
            r = rng.random()
            address2 = "" if r < 0.4 else (f"Apt {int(rng.integers(1, 40))}" if r < 0.8
                                           else f"Unit {int(rng.integers(100, 999))}")
            a = {"address1": f"{int(rng.integers(1, 9999))} {_pick(rng, _NEW_STREETS)}",
                 "address2": address2, "city": city, "state": state, "country": "USA",
                 "zip": f"{zip0 + int(rng.integers(0, 9)):05d}"}
            if all(any(a[k] != b.get(k) for k in ADDRESS_KEYS) for b in avoid):
                return a

    @staticmethod
    def _order_param(user: _User, o: _Order, desc: Description | None = None) -> Param:
        """The order, by id or by its items (all of them, or those the user named); the
        user's other orders are its rivals (by id, and by their items unless those are all
        items of this order too)."""
        forms: list = [o.order_id, tuple(sorted(o.names))]
        if desc is not None and desc.fields.get("items"):
            forms.append(tuple(desc.fields["items"]))
        rivals = []
        for x in user.orders:
            if x.order_id == o.order_id:
                continue
            rivals.append((x.order_id,) if set(x.names) <= set(o.names)
                          else (x.order_id, tuple(sorted(x.names))))
        return Param("order", tuple(dict.fromkeys(forms)), tuple(rivals))

    @staticmethod
    def _method_forms(m: _Method, methods: list[_Method]) -> tuple:
        """How a proposal may name a payment method: its id, a card's last four digits,
        and its kind ("PayPal", "gift card", a card's brand) when no other method of the
        user shares it."""
        forms: list = [m.id]
        if m.source == "credit_card" and m.last_four:
            forms.append(str(m.last_four))
            if m.brand and sum(1 for x in methods if x.brand == m.brand) == 1:
                forms.append(f"{m.brand} card")
        elif sum(1 for x in methods if x.source == m.source) == 1:
            forms.append("paypal" if m.source == "paypal" else "gift card")
        return tuple(forms)

    def _method_param(self, user: _User, m: _Method) -> Param:
        """The payment method; the user's other methods are its rivals."""
        return Param("payment_method", self._method_forms(m, user.methods),
                     tuple(self._method_forms(x, user.methods) for x in user.methods
                           if x.id != m.id))

    @staticmethod
    def _entry_forms(item_id: str, entry: dict) -> tuple:
        """An item by id, or by its product name with its option values."""
        words = (entry["product"], *(str(v) for v in entry.get("options", {}).values()))
        return (item_id, words)

    @staticmethod
    def _method_terms(m_id: str, desc: Description) -> tuple[str, ...]:
        f = desc.fields
        if f["source"] == "credit_card":
            return (m_id, f["last_four"])
        return (m_id, "paypal" if f["source"] == "paypal" else "gift card")

    def _pick_lines(self, order: _Order, rng, candidates: list, most: int) -> list:
        """Up to ``most`` of ``candidates`` (items of ``order``), kept in line order."""
        k = 1 + int(rng.integers(min(len(candidates), most)))
        idx = sorted(int(i) for i in rng.permutation(len(candidates))[:k])
        return [candidates[i] for i in idx]

    @staticmethod
    def _quantity(order: _Order, item_id: str, rng) -> int:
        mult = sum(1 for l in order.lines if l.item_id == item_id)
        return mult if mult == 1 else 1 + int(rng.integers(mult))

    # ------------------------------------------------------------------ constraint builders
    def _cancel_order(self, db, user: _User, rng, config) -> Constraint | None:
        for o in self._orders(user, rng, lambda o: o.status == "pending"):
            refunded = user.owner_gift_cards(p[2] for p in o.payments)
            if refunded & user.frozen_gift_cards:
                continue
            desc = self._describe_order(db, user, o, rng, config)
            if desc is None:
                continue
            reason = _pick(rng, REASONS)
            user.used_orders.add(o.order_id)
            user.touched_gift_cards |= refunded
            return Constraint("cancel_order", {"order_id": o.order_id, "reason": reason},
                              {"order": desc}, (("cancel_pending_order", o.order_id),),
                              ((o.order_id,), (reason,)),
                              intent=Intent((
                                  Param("action", ("cancel",)),
                                  self._order_param(user, o, desc),
                                  Param("reason", _REASON_FORMS[reason],
                                        tuple(_REASON_FORMS[r] for r in REASONS
                                              if r != reason)))))
        return None

    def _cancel_processed_order(self, db, user: _User, rng, config) -> Constraint | None:
        for o in self._orders(user, rng, lambda o: o.status == "processed"):
            desc = self._describe_order(db, user, o, rng, config)
            if desc is None:
                continue
            reason = _pick(rng, REASONS)
            user.used_orders.add(o.order_id)
            return Constraint("cancel_processed_order",
                              {"order_id": o.order_id, "reason": reason}, {"order": desc},
                              answer="processed",
                              refusal=Refusal((("get_order_details", o.order_id),),
                                              about=(o.order_id, *_PROCESSED_WORDS)))
        return None

    def _change_order_address(self, db, user: _User, rng, config) -> Constraint | None:
        use_default = bool(rng.random() < _DEFAULT_ADDRESS_P) and not user.user_address_changed
        orders = self._orders(user, rng, lambda o: "pending" in o.status)
        if use_default:  # orders that do not ship to the default address first
            orders.sort(key=lambda o: o.address == user.address)
        for o in orders:
            desc = self._describe_order(db, user, o, rng, config)
            if desc is None:
                continue
            refs = {"order": desc}
            if use_default and user.address != o.address:
                proof = _prove(db, "SELECT address1, address2, city, state, country, zip "
                                   "FROM users WHERE user_id = ?", (user.user_id,),
                               tuple(user.address[k] for k in ADDRESS_KEYS))
                if proof is None:
                    continue
                address = dict(user.address)
                refs["address"] = Description("address", "my default address",
                                              {"default_address": True}, address, proof)
                user.default_address_used = True
            else:
                address = self._new_address(rng, [o.address, user.address])
            user.used_orders.add(o.order_id)
            return Constraint("change_order_address", {"order_id": o.order_id, **address}, refs,
                              (("modify_pending_order_address", o.order_id),),
                              ((o.order_id,), (address["address1"],), (address["zip"],)),
                              intent=Intent((self._order_param(user, o, desc),
                                             Param("address1", (address["address1"],)),
                                             Param("zip", (address["zip"],)))))
        return None

    def _change_user_address(self, db, user: _User, rng, config) -> Constraint | None:
        if user.user_address_changed or user.default_address_used:
            return None
        address = self._new_address(rng, [user.address])
        user.user_address_changed = True
        return Constraint("change_user_address", {"user_id": user.user_id, **address}, {},
                          (("modify_user_address", user.user_id),),
                          ((address["address1"],), (address["zip"],)))

    def _change_order_payment(self, db, user: _User, rng, config) -> Constraint | None:
        def ok(o: _Order) -> bool:
            return ("pending" in o.status and len(o.payments) == 1
                    and o.payments[0][0] == "payment")

        for o in self._orders(user, rng, ok):
            _, amount, original = o.payments[0]
            refunded = user.owner_gift_cards([original])
            if refunded & user.frozen_gift_cards:
                continue
            chosen = self._choose_method(db, user, rng,
                                         [m for m in user.methods if m.id != original], amount)
            if chosen is None:
                continue
            desc = self._describe_order(db, user, o, rng, config)
            if desc is None:
                continue
            m, m_desc = chosen
            user.used_orders.add(o.order_id)
            user.touched_gift_cards |= refunded
            if m.source == "gift_card":
                user.used_gift_cards.add(m.id)
            return Constraint(
                "change_order_payment",
                {"order_id": o.order_id, "payment_method_id": m.id,
                 "original_payment_method_id": original, "amount": amount},
                {"order": desc, "payment_method": m_desc},
                (("modify_pending_order_payment", o.order_id),),
                ((o.order_id,), self._method_terms(m.id, m_desc)),
                intent=Intent((self._order_param(user, o, desc), self._method_param(user, m))))
        return None

    def _variant_changes(self, db, user: _User, o: _Order, rng, most: int):
        """Lines of ``o`` -> other available variants of the same product: the picked
        ``(item_id, quantity, variant)`` triples, or None."""
        present = {l.item_id for l in o.lines}
        candidates = []
        for item_id in o.distinct_items():
            line = o.first_line(item_id)
            alts = [v for v in user.variants(db, line.product_id)
                    if v.available and v.item_id not in present]
            if alts:
                candidates.append((item_id, alts))
        if not candidates:
            return None
        picks = self._pick_lines(o, rng, candidates, most)
        return [(item_id, self._quantity(o, item_id, rng), _pick(rng, alts))
                for item_id, alts in picks]

    def _item_change(self, db, user: _User, o: _Order, rng, changes):
        """Descriptions and call lists of a change of variants."""
        old = self._describe_lines(db, o, [(i, q) for i, q, _ in changes], rng)
        if old is None:
            return None
        new = self._describe_variants(db, [(o.first_line(i).name, v) for i, _, v in changes])
        if new is None:
            return None
        item_ids = [i for i, q, _ in changes for _ in range(q)]
        new_ids = [v.item_id for _, q, v in changes for _ in range(q)]
        prices = {v.item_id: v.price for _, _, v in changes}
        diff = 0
        for a, b in zip(item_ids, new_ids):
            diff = diff + (prices[b] - o.first_line(a).price)
        products: list[str] = []
        for i, _, _ in changes:
            pid = o.first_line(i).product_id
            if pid not in products:
                products.append(pid)
        return old, new, item_ids, new_ids, diff, products

    def _modify_items(self, db, user: _User, rng, config) -> Constraint | None:
        for o in self._orders(user, rng, lambda o: o.status == "pending"):
            changes = self._variant_changes(db, user, o, rng, most=2)
            if changes is None:
                continue
            made = self._item_change(db, user, o, rng, changes)
            if made is None:
                continue
            old, new, item_ids, new_ids, diff, products = made
            chosen = self._choose_method(db, user, rng, user.methods, diff)
            if chosen is None:
                continue
            desc = self._describe_order(db, user, o, rng, config)
            if desc is None:
                continue
            m, m_desc = chosen
            result = Counter(l.item_id for l in o.lines)
            result.subtract(item_ids)
            result.update(new_ids)
            user.used_orders.add(o.order_id)
            if m.source == "gift_card":
                user.used_gift_cards.add(m.id)
            return Constraint(
                "modify_items",
                {"order_id": o.order_id, "item_ids": item_ids, "new_item_ids": new_ids,
                 "payment_method_id": m.id, "price_difference": diff,
                 "result_item_ids": sorted(result.elements()), "new_product_ids": products},
                {"order": desc, "items": old, "new_items": new, "payment_method": m_desc},
                (("modify_pending_order_items", o.order_id),),
                ((o.order_id,), *[(v,) for v in dict.fromkeys(new_ids)],
                 self._method_terms(m.id, m_desc)),
                intent=self._item_change_intent(user, o, desc, changes, old, new, m))
        return None

    def _item_change_intent(self, user: _User, o, desc, changes, old, new, m) -> Intent:
        """What a proposal to modify or exchange items must name: the order, each item
        before its replacement (product with options), and the payment method."""
        return Intent((self._order_param(user, o, desc),
                       *(Param(f"item{k}", self._entry_forms(i, e))
                         for k, ((i, _, _), e) in enumerate(zip(changes, old.fields["items"]))),
                       *(Param(f"new_item{k}", self._entry_forms(v.item_id, e))
                         for k, ((_, _, v), e) in enumerate(zip(changes, new.fields["items"]))),
                       self._method_param(user, m)),
                      before=tuple((f"item{k}", f"new_item{k}") for k in range(len(changes))))

    def _exchange_items(self, db, user: _User, rng, config) -> Constraint | None:
        for o in self._orders(user, rng, lambda o: o.status == "delivered"):
            changes = self._variant_changes(db, user, o, rng, most=2)
            if changes is None:
                continue
            made = self._item_change(db, user, o, rng, changes)
            if made is None:
                continue
            old, new, item_ids, new_ids, diff, products = made
            diff = round(diff, 2)
            chosen = self._choose_method(db, user, rng, user.methods, diff)
            if chosen is None:
                continue
            desc = self._describe_order(db, user, o, rng, config)
            if desc is None:
                continue
            m, m_desc = chosen
            user.used_orders.add(o.order_id)
            if m.source == "gift_card":
                user.used_gift_cards.add(m.id)
            return Constraint(
                "exchange_items",
                {"order_id": o.order_id, "item_ids": item_ids, "new_item_ids": new_ids,
                 "payment_method_id": m.id, "price_difference": diff,
                 "new_product_ids": products},
                {"order": desc, "items": old, "new_items": new, "payment_method": m_desc},
                (("exchange_delivered_order_items", o.order_id),),
                ((o.order_id,), *[(v,) for v in dict.fromkeys(new_ids)],
                 self._method_terms(m.id, m_desc)),
                intent=self._item_change_intent(user, o, desc, changes, old, new, m))
        return None

    def _return_items(self, db, user: _User, rng, config) -> Constraint | None:
        for o in self._orders(user, rng, lambda o: o.status == "delivered"):
            if not o.payments:
                continue
            original = o.payments[0][2]
            methods = [m for m in user.methods
                       if m.id == original or m.source == "gift_card"]
            chosen = self._choose_method(db, user, rng, methods)
            if chosen is None:
                continue
            items = o.distinct_items()
            picks = [(i, self._quantity(o, i, rng))
                     for i in self._pick_lines(o, rng, items, 3)]
            old = self._describe_lines(db, o, picks, rng)
            if old is None:
                continue
            desc = self._describe_order(db, user, o, rng, config)
            if desc is None:
                continue
            m, m_desc = chosen
            item_ids = [i for i, q in picks for _ in range(q)]
            user.used_orders.add(o.order_id)
            if m.source == "gift_card":
                user.used_gift_cards.add(m.id)
            return Constraint(
                "return_items",
                {"order_id": o.order_id, "item_ids": item_ids, "payment_method_id": m.id},
                {"order": desc, "items": old, "payment_method": m_desc},
                (("return_delivered_order_items", o.order_id),),
                ((o.order_id,), *[(i,) for i, _ in picks], self._method_terms(m.id, m_desc)),
                intent=Intent((self._order_param(user, o, desc),
                               *(Param(f"item{k}", self._entry_forms(i, e), tuple(
                                   (x,) for x in items if x not in dict(picks)))
                                 for k, ((i, _), e) in enumerate(
                                     zip(picks, old.fields["items"]))),
                               self._method_param(user, m))))
        return None

    def _info_tracking(self, db, user: _User, rng, config) -> Constraint | None:
        for o in self._orders(user, rng, lambda o: o.status in ("delivered", "processed")):
            tracking: list = []
            for (ids,) in db.execute("SELECT tracking_ids FROM fulfillments WHERE order_id = ? "
                                     "ORDER BY pos", (o.order_id,)):
                try:
                    tracking += list(json.loads(ids))
                except (TypeError, ValueError):
                    tracking.append(None)
            if len(tracking) != 1 or not isinstance(tracking[0], str) or not tracking[0]:
                continue
            desc = self._describe_order(db, user, o, rng, config)
            if desc is None:
                continue
            user.used_orders.add(o.order_id)
            return Constraint("info_tracking", {"order_id": o.order_id}, {"order": desc},
                              answer=tracking[0])
        return None

    def _info_order_total(self, db, user: _User, rng, config) -> Constraint | None:
        for o in self._orders(user, rng, lambda o: bool(o.lines)):
            desc = self._describe_order(db, user, o, rng, config)
            if desc is None:
                continue
            total = 0.0
            for line in o.lines:
                total += line.price
            user.used_orders.add(o.order_id)
            return Constraint("info_order_total", {"order_id": o.order_id, "total": total},
                              {"order": desc}, answer=_money(total),
                              evidence=(("get_order_details", o.order_id),))
        return None

    def _info_available_options(self, db, user: _User, rng, config) -> Constraint | None:
        products: dict[str, str] = {}
        for o in user.orders:
            for line in o.lines:
                if line.product_id not in products and line.product_id not in user.used_products:
                    products[line.product_id] = line.name
        if not user.orders:
            n = db.execute("SELECT count(*) FROM products").fetchone()[0]
            if n:
                row = db.execute("SELECT product_id, name FROM products ORDER BY rowid "
                                 "LIMIT 1 OFFSET ?", (int(rng.integers(n)),)).fetchone()
                if row[0] not in user.used_products:
                    products[row[0]] = row[1]
        for pid in _shuffled(rng, list(products))[:_ORDER_TRIES]:
            name = products[pid]
            count = sum(1 for v in user.variants(db, pid) if v.available)
            if count == 0:
                continue
            proof = _prove(db, "SELECT product_id FROM products WHERE name = ?", (name,), (pid,))
            if proof is None:
                continue
            user.used_products.add(pid)
            desc = Description("product", f"the {name}", {"product": name}, pid, proof)
            return Constraint("info_available_options", {"product_id": pid},
                              {"product": desc}, answer=str(count),
                              evidence=(("get_product_details", pid),))
        return None

    def _info_gift_card_balance(self, db, user: _User, rng, config) -> Constraint | None:
        if len(user.gift_cards) != 1:
            return None
        g = user.gift_cards[0]
        if (g.balance is None or g.id in user.used_gift_cards
                or g.id in user.touched_gift_cards or g.id in user.frozen_gift_cards):
            return None
        desc = self._describe_method(db, user, g)
        if desc is None:
            return None
        user.frozen_gift_cards.add(g.id)
        return Constraint("info_gift_card_balance", {"payment_method_id": g.id},
                          {"payment_method": desc}, answer=_money(g.balance))

    # ------------------------------------------------------------------ outcome checks
    def check(self, db: sqlite3.Connection, task: Task, constraint: Constraint,
              agent_messages: Sequence[str]) -> bool:
        a, t = constraint.args, constraint.type
        if t == "cancel_processed_order":
            row = db.execute("SELECT status FROM orders WHERE order_id = ?",
                             (a["order_id"],)).fetchone()
            return (row is not None and row[0] == "processed"
                    and communicated(task, constraint, agent_messages))
        if constraint.answer is not None:
            return communicated(task, constraint, agent_messages)
        check = getattr(self, f"_check_{t}", None)
        if check is None:
            raise ValueError(f"unknown retail constraint type {t!r}")
        return bool(check(db, a))

    @staticmethod
    def _order_row(db, order_id: str, columns: str):
        return db.execute(f"SELECT {columns} FROM orders WHERE order_id = ?",
                          (order_id,)).fetchone()

    def _check_cancel_order(self, db, a) -> bool:
        row = self._order_row(db, a["order_id"], "status, cancel_reason")
        return row is not None and row[0] == "cancelled" and row[1] == a["reason"]

    def _check_change_order_address(self, db, a) -> bool:
        row = self._order_row(db, a["order_id"], ", ".join(ADDRESS_KEYS))
        return row is not None and tuple(row) == tuple(a[k] for k in ADDRESS_KEYS)

    def _check_change_user_address(self, db, a) -> bool:
        row = db.execute(f"SELECT {', '.join(ADDRESS_KEYS)} FROM users WHERE user_id = ?",
                         (a["user_id"],)).fetchone()
        return row is not None and tuple(row) == tuple(a[k] for k in ADDRESS_KEYS)

    @staticmethod
    def _payments(db, order_id: str) -> list[tuple]:
        return db.execute("SELECT transaction_type, amount, payment_method_id FROM "
                          "order_payments WHERE order_id = ? ORDER BY pos", (order_id,)).fetchall()

    def _check_modify_items(self, db, a) -> bool:
        row = self._order_row(db, a["order_id"], "status")
        if row is None or row[0] != "pending (item modified)":
            return False
        items = sorted(r[0] for r in db.execute(
            "SELECT item_id FROM order_items WHERE order_id = ?", (a["order_id"],)))
        if items != list(a["result_item_ids"]):
            return False
        diff = a["price_difference"]
        kind = "payment" if diff > 0 else "refund"
        return any(p[0] == kind and p[2] == a["payment_method_id"]
                   and abs(p[1] - abs(diff)) < 1e-6
                   for p in self._payments(db, a["order_id"])[1:])

    def _check_change_order_payment(self, db, a) -> bool:
        pays = self._payments(db, a["order_id"])
        if not pays or pays[0][0] != "payment" or pays[0][2] != a["original_payment_method_id"]:
            return False
        amount, new, old = a["amount"], a["payment_method_id"], a["original_payment_method_id"]
        for k, p in enumerate(pays[1:], 1):
            if p[0] == "payment" and p[2] == new and abs(p[1] - amount) < 1e-6:
                return any(q[0] == "refund" and q[2] == old and abs(q[1] - amount) < 1e-6
                           for q in pays[k + 1:])
        return False

    def _check_return_items(self, db, a) -> bool:
        row = self._order_row(db, a["order_id"],
                              "status, return_items, return_payment_method_id")
        return (row is not None and row[0] == "return requested"
                and _json_list(row[1]) == sorted(a["item_ids"])
                and row[2] == a["payment_method_id"])

    def _check_exchange_items(self, db, a) -> bool:
        row = self._order_row(db, a["order_id"],
                              "status, exchange_items, exchange_new_items, "
                              "exchange_payment_method_id, exchange_price_difference")
        return (row is not None and row[0] == "exchange requested"
                and _json_list(row[1]) == sorted(a["item_ids"])
                and _json_list(row[2]) == sorted(a["new_item_ids"])
                and row[3] == a["payment_method_id"]
                and isinstance(row[4], (int, float))
                and abs(row[4] - a["price_difference"]) < 1e-6)

    # ------------------------------------------------------------------ ownership
    def owner(self, db: sqlite3.Connection, tool: str, arguments: dict) -> str | None:
        if not isinstance(arguments, dict):
            return None
        if tool in _ORDER_TOOLS:
            order_id = arguments.get("order_id")
            if not isinstance(order_id, str):
                return None
            row = db.execute("SELECT user_id FROM orders WHERE order_id = ?",
                             (order_id,)).fetchone()
            return row[0] if row else None
        if tool in _USER_TOOLS:
            user_id = arguments.get("user_id")
            if not isinstance(user_id, str):
                return None
            row = db.execute("SELECT user_id FROM users WHERE user_id = ?",
                             (user_id,)).fetchone()
            return row[0] if row else None
        return None

    # ------------------------------------------------------------------ the user's words
    def opening(self, task: Task, constraint: Constraint, rng: np.random.Generator) -> str:
        greeting = _pick(rng, ("Hi!", "Hello,", "Hi there.", "Hello!", "Good afternoon."))
        return f"{greeting} {self.request(task, constraint, rng)}"

    def identify(self, task: Task, rng: np.random.Generator) -> str:
        f = task.identity.fields
        if "email" in f:
            return _pick(rng, ("My email is {e}.", "Sure, it's {e}.",
                               "You can find my account under {e}.",
                               "It's {e}.")).format(e=f["email"])
        return _pick(rng, (
            "I'm {first} {last}, and my zip code is {zip}.",
            "My name is {first} {last}; zip code {zip}.",
            "{first} {last}, zip {zip}.",
            "Sure: {first} {last}, and the zip code is {zip}.",
        )).format(first=f["first_name"], last=f["last_name"], zip=f["zip"])

    def request(self, task: Task, constraint: Constraint, rng: np.random.Generator) -> str:
        c, a, r = constraint, constraint.args, constraint.refs
        t = c.type
        order = r["order"].text if "order" in r else ""
        pm = r["payment_method"].text if "payment_method" in r else ""
        if t in ("cancel_order", "cancel_processed_order"):
            reason = _REASON_PHRASE[a["reason"]]
            return _pick(rng, (
                "I want to cancel {order}, because {reason}.",
                "Please cancel {order}. The reason is that {reason}.",
                "Could you cancel {order} for me? Honestly, {reason}.",
            )).format(order=order, reason=reason)
        if t == "change_order_address":
            address = (r["address"].text if "address" in r
                       else _address_text({k: a[k] for k in ADDRESS_KEYS}))
            return _pick(rng, (
                "I need to change the shipping address of {order} to {address}.",
                "Could you ship {order} to {address} instead?",
                "Please send {order} to {address}; the address on it is wrong.",
            )).format(order=order, address=address)
        if t == "change_user_address":
            address = _address_text({k: a[k] for k in ADDRESS_KEYS})
            return _pick(rng, (
                "I've moved. Please update my default address to {address}.",
                "Could you change the default address on my account to {address}?",
                "I'd like my account's address changed to {address}.",
            )).format(address=address)
        if t == "change_order_payment":
            return _pick(rng, (
                "I'd like to pay for {order} with {pm} instead.",
                "Please switch the payment method of {order} to {pm}.",
                "Can you change {order} so that it is paid with {pm}?",
            )).format(order=order, pm=pm)
        if t in ("modify_items", "exchange_items"):
            old_texts = [_line_phrase(e) for e in r["items"].fields["items"]]
            new_texts = [_variant_phrase(e) for e in r["new_items"].fields["items"]]
            word = "to" if t == "modify_items" else "for"
            changes = _join([f"{o} {word} {n}" for o, n in zip(old_texts, new_texts)])
            if t == "modify_items":
                templates = (
                    "For {order}, which hasn't shipped yet, I'd like to change {changes}. "
                    "Please use {pm} for any price difference.",
                    "I want to modify the items of {order}: change {changes}. That's all the "
                    "items I want to change. Any price difference goes to {pm}.",
                    "Can you update {order}? I want to change {changes}, with {pm} for the "
                    "price difference.",
                )
            else:
                templates = (
                    "I'd like to exchange items from {order}: please exchange {changes}. "
                    "Use {pm} for any price difference.",
                    "For {order}, which was delivered, I want to exchange {changes}. That's "
                    "everything I want to exchange. Please settle the difference with {pm}.",
                    "Can I exchange {changes} from {order}? Any price difference should go "
                    "through {pm}.",
                )
            return _pick(rng, templates).format(order=order, changes=changes, pm=pm)
        if t == "return_items":
            items = r["items"].text
            return _pick(rng, (
                "I want to return {items} from {order}, with the refund to {pm}.",
                "Please start a return of {items} from {order}. Refund it to {pm}, please.",
                "I'd like to send back {items} from {order} and get the refund on {pm}.",
            )).format(items=items, order=order, pm=pm)
        if t == "info_tracking":
            return _pick(rng, (
                "What's the tracking number of {order}?",
                "Could you give me the tracking number for {order}?",
                "I'd like to know the tracking number of {order}.",
            )).format(order=order)
        if t == "info_order_total":
            return _pick(rng, (
                "How much did {order} cost in total?",
                "What was the total price of {order}?",
                "Could you tell me the total of {order}?",
            )).format(order=order)
        if t == "info_available_options":
            product = r["product"].fields["product"]
            return _pick(rng, (
                "How many options of the {p} are available right now?",
                "I'm curious: how many variants of the {p} are currently available?",
                "Could you tell me how many available options the {p} has?",
            )).format(p=product)
        if t == "info_gift_card_balance":
            return _pick(rng, (
                "What's the balance on {pm}?",
                "How much money is left on {pm}?",
                "Could you check the balance of {pm}?",
            )).format(pm=pm)
        raise ValueError(f"unknown retail constraint type {t!r}")

    # ------------------------------------------------------------------ reference solution
    def plan(self, task: Task) -> list[PlanStep]:
        steps = [PlanStep(say="I'd be happy to help. First, could you please provide the email "
                              "address on your account, or your first name, last name and zip "
                              "code, so that I can find your account?")]
        f = task.identity.fields
        if "email" in f:
            steps.append(PlanStep(call=ToolCall("find_user_id_by_email", {"email": f["email"]})))
        else:
            steps.append(PlanStep(call=ToolCall("find_user_id_by_name_zip", {
                "first_name": f["first_name"], "last_name": f["last_name"], "zip": f["zip"]})))
        user_read = False

        def read_user() -> None:
            nonlocal user_read
            if not user_read:
                steps.append(PlanStep(call=ToolCall("get_user_details",
                                                    {"user_id": task.user_id})))
                user_read = True

        for c in task.constraints:
            a, r, t = c.args, c.refs, c.type
            if "order" in r:
                if "order_id" not in r["order"].fields:
                    read_user()  # find the order among the user's orders
                steps.append(PlanStep(call=ToolCall("get_order_details",
                                                    {"order_id": a["order_id"]})))
            if "payment_method" in r or "address" in r:
                read_user()
            for pid in a.get("new_product_ids", ()):
                steps.append(PlanStep(call=ToolCall("get_product_details", {"product_id": pid})))
            if t == "info_available_options":
                steps.append(PlanStep(call=ToolCall("list_all_product_types", {})))
                steps.append(PlanStep(call=ToolCall("get_product_details",
                                                    {"product_id": a["product_id"]})))
            if t in WRITE_CALLS:
                tool, params = WRITE_CALLS[t]
                steps.append(PlanStep(say=self._proposal(c), expects_confirmation=True))
                steps.append(PlanStep(call=ToolCall(tool, {p: _copy(a[p]) for p in params})))
                steps.append(PlanStep(say="Done. Is there anything else I may help you with?"))
            else:
                steps.append(PlanStep(say=self._answer(c)))
        return steps

    @staticmethod
    def _agent_method(c: Constraint) -> str:
        desc = c.refs["payment_method"]
        words = desc.text.replace("my ", "your ", 1)
        return f"{words} ({c.args['payment_method_id']})"

    def _proposal(self, c: Constraint) -> str:
        a, t = c.args, c.type
        if t == "cancel_order":
            return (f"I can cancel order {a['order_id']} with the reason '{a['reason']}'. "
                    "The payment will be refunded to the original payment method. "
                    "Shall I proceed?")
        if t == "change_order_address":
            address = _address_text({k: a[k] for k in ADDRESS_KEYS})
            return (f"I will change the shipping address of order {a['order_id']} to "
                    f"{address}. Shall I proceed?")
        if t == "change_user_address":
            address = _address_text({k: a[k] for k in ADDRESS_KEYS})
            return f"I will update your default address to {address}. Shall I proceed?"
        if t == "change_order_payment":
            return (f"I will switch the payment of order {a['order_id']} "
                    f"(${_money(a['amount'])}) to {self._agent_method(c)}; the original "
                    "payment will be refunded. Shall I proceed?")
        if t in ("modify_items", "exchange_items"):
            pairs = _join([f"item {o} to item {n}"
                           for o, n in zip(a["item_ids"], a["new_item_ids"])])
            diff = a["price_difference"]
            money = (f"you will pay ${_money(diff)}" if diff > 0
                     else f"you will receive ${_money(-diff)}")
            verb = "modify" if t == "modify_items" else "exchange"
            return (f"I will {verb} order {a['order_id']}: {pairs}. For the price difference "
                    f"{money}, using {self._agent_method(c)}. Shall I proceed?")
        if t == "return_items":
            items = _join(a["item_ids"])
            return (f"I will return items {items} of order {a['order_id']}, with the refund "
                    f"to {self._agent_method(c)}. Shall I proceed?")
        raise ValueError(f"{t} is not a write constraint")

    @staticmethod
    def _answer(c: Constraint) -> str:
        a, t = c.args, c.type
        if t == "info_tracking":
            return f"The tracking number of order {a['order_id']} is {c.answer}."
        if t == "info_order_total":
            return f"The total of order {a['order_id']} is ${c.answer}."
        if t == "info_available_options":
            return f"There are {c.answer} available options of that product."
        if t == "info_gift_card_balance":
            return f"The balance of your gift card is ${c.answer}."
        if t == "cancel_processed_order":
            return (f"I'm sorry, but order {a['order_id']} has already been processed, so it "
                    "can no longer be cancelled.")
        raise ValueError(f"{t} is not an information constraint")


#: Order statuses of which a user needs one for a type to be possible (None: any order).
_LEAD_STATUSES: dict[str, tuple[str, ...] | None] = {
    "cancel_order": ("pending",),
    "modify_items": ("pending",),
    "change_order_address": ("pending", "pending (item modified)"),
    "return_items": ("delivered",),
    "exchange_items": ("delivered",),
    "info_tracking": ("delivered", "processed"),
    "cancel_processed_order": ("processed",),
    "info_order_total": None,
}


def _may_lead(db: sqlite3.Connection, kind: str, user_id: str) -> bool:
    """A cheap necessary condition for ``kind`` to be feasible for a user (one indexed
    query, or none)."""
    if kind == "info_gift_card_balance":
        return db.execute("SELECT count(*) FROM payment_methods WHERE user_id = ? AND "
                          "source = 'gift_card'", (user_id,)).fetchone()[0] == 1
    if kind == "change_order_payment":
        return db.execute(
            "SELECT (SELECT count(*) FROM payment_methods WHERE user_id = ?1) > 1 AND EXISTS "
            "(SELECT 1 FROM orders WHERE user_id = ?1 AND status LIKE '%pending%')",
            (user_id,)).fetchone()[0] == 1
    if kind not in _LEAD_STATUSES:
        return True
    need = _LEAD_STATUSES[kind]
    if need is None:
        return db.execute("SELECT 1 FROM orders WHERE user_id = ? LIMIT 1",
                          (user_id,)).fetchone() is not None
    marks = ", ".join("?" * len(need))
    return db.execute(f"SELECT 1 FROM orders WHERE user_id = ? AND status IN ({marks}) LIMIT 1",
                      (user_id, *need)).fetchone() is not None


def _json_list(text: Any) -> list | None:
    if text is None:
        return None
    try:
        value = json.loads(text)
    except (TypeError, ValueError):
        return None
    return value if isinstance(value, list) else None


def _copy(value: Any) -> Any:
    return list(value) if isinstance(value, list) else value


def _line_phrase(entry: dict) -> str:
    """Words for one entry of an ``items`` description."""
    options = entry["options"]
    base = f"the {entry['product']}" + (f" ({_options_text(options)})" if options else "")
    q = entry["quantity"]
    if q > 1:
        return f"{q} units of {base}"
    return f"one unit of {base}" if entry.get("units", 1) > 1 else base


def _variant_phrase(entry: dict) -> str:
    """Words for one entry of a ``new_items`` description."""
    return f"a {entry['product']} with {_options_text(entry['options'])}"


#: The instance the domain registers.
TASKS = RetailTasks()
