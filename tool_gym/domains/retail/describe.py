"""How retail things are named: the user's proven descriptions (identity, orders, lines,
variants, payment methods, new addresses) and the parameters a proposal must name
(:class:`~tool_gym.core.proposals.Param`, with the user's other records as rivals)."""

from __future__ import annotations

import json
from itertools import combinations

from ...core.proposals import Param
from ...core.taskkit import SampleContext, join_words, pick, prove, shuffled
from ...core.task_model import Description, SamplerConfig
from .phrasing import line_phrase, variant_phrase
from .records import ADDRESS_KEYS, Method, Order, UserView, Variant

#: Card brands as a person writes them.
BRANDS = {"visa": "Visa", "mastercard": "Mastercard", "amex": "American Express",
          "american express": "American Express", "discover": "Discover"}

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

# Plain parameterized SQL only: no ``json_each`` (SQLite 3.40 crashes when a connection that
# ran ``json_each`` together with a table is ``deserialize``d, as ``Sandbox.restore`` does, and
# runs ``json_each`` again) and no recursive CTEs (slow to compile on every fresh sandbox).

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


def identity(ctx: SampleContext) -> Description | None:
    """The user by email, or by first name + last name + zip (the way drawn first)."""
    db, user = ctx.db, ctx.view
    ways = ["email", "name_zip"]
    if ctx.rng.random() < 0.5:
        ways.reverse()
    for way in ways:
        if way == "email":
            proof = prove(db, "SELECT user_id FROM users WHERE lower(email) = lower(?)",
                          (user.email,), (user.user_id,))
            if proof is not None:
                return Description("user", user.email, {"email": user.email},
                                   user.user_id, proof)
        else:
            a = user.address
            proof = prove(
                db, "SELECT user_id FROM users WHERE lower(first_name) = lower(?) AND "
                    "lower(last_name) = lower(?) AND zip = ?",
                (user.first_name, user.last_name, a["zip"]), (user.user_id,))
            if proof is not None:
                return Description(
                    "user", f"{user.first_name} {user.last_name}, zip code {a['zip']}",
                    {"first_name": user.first_name, "last_name": user.last_name,
                     "zip": a["zip"]}, user.user_id, proof)
    return None


def describe_order(db, user: UserView, order: Order, rng,
                   config: SamplerConfig) -> Description | None:
    """By a minimal set of its product names no other order of the user has all of, or
    (with probability ``1 - fuzziness``) by its id."""
    oid = order.order_id
    if rng.random() >= config.fuzziness:
        proof = prove(db, "SELECT order_id FROM orders WHERE order_id = ? AND user_id = ?",
                      (oid, user.user_id), (oid,))
        return proof and Description("order", f"order {oid}", {"order_id": oid}, oid, proof)
    names = sorted(order.names)
    others = [o.names for o in user.orders if o is not order]
    chosen = None
    for k in range(1, len(names) + 1):
        ok = [s for s in combinations(names, k)
              if not any(other.issuperset(s) for other in others)]
        if ok:
            chosen = list(pick(rng, ok))
            break
    if chosen is None:
        return None
    marks = ", ".join("?" * len(chosen))
    proof = prove(db, "SELECT o.order_id FROM orders o WHERE o.user_id = ? AND "
                      "(SELECT count(DISTINCT i.name) FROM order_items i WHERE "
                      f"i.order_id = o.order_id AND i.name IN ({marks})) = {len(chosen)}",
                  (user.user_id, *chosen), (oid,))
    if proof is None:
        return None
    text = "my order with " + join_words([f"the {n}" for n in chosen])
    return Description("order", text, {"items": chosen}, oid, proof)


def _telling_options(order: Order, item_id: str, rng) -> tuple | None:
    """The fewest option keys that tell the line of ``item_id`` apart from the order's
    other lines of that product (``None``: none do)."""
    line = order.first_line(item_id)
    opts = line.options
    others = [l for l in order.lines if l.name == line.name and l.item_id != item_id]
    if not others:
        return ()
    keys = list(opts)
    for k in range(1, len(keys) + 1):
        ok = [c for c in combinations(keys, k)
              if all(any(l.options.get(key) != opts[key] for key in c) for l in others)]
        if ok:
            return pick(rng, ok)
    return None


def describe_lines(db, order: Order, picks: list[tuple[str, int]],
                   rng) -> Description | None:
    """Lines of ``order``: one entry per distinct item id with its quantity."""
    entries, texts = [], []
    for item_id, quantity in picks:
        line = order.first_line(item_id)
        opts = line.options
        if not all(isinstance(v, str) for v in opts.values()):
            return None
        chosen = _telling_options(order, item_id, rng)
        if chosen is None:
            return None
        entry = {"product": line.name, "options": {k: opts[k] for k in chosen},
                 "quantity": quantity}
        units = sum(1 for l in order.lines if l.item_id == item_id)
        if units > 1:
            entry["units"] = units  # identical lines in the order
        entries.append(entry)
        texts.append(line_phrase(entry))
    value = [item_id for item_id, _ in picks]
    params: list = []
    for e in entries:
        params += [e["quantity"], order.order_id, e["product"], json.dumps(e["options"])]
    proof = prove(db, "SELECT " + ", ".join([_LINE] * len(entries)), params, tuple(value))
    if proof is None:
        return None
    return Description("items", join_words(texts), {"items": entries}, value, proof)


def describe_variants(db, picks: list[tuple[str, Variant]]) -> Description | None:
    """New variants by product name and full options."""
    entries, texts = [], []
    for name, v in picks:
        entry = {"product": name, "options": dict(v.options)}
        entries.append(entry)
        texts.append(variant_phrase(entry))
    value = [v.item_id for _, v in picks]
    params = []
    for e in entries:
        params += [e["product"], json.dumps(e["options"])]
    proof = prove(db, "SELECT " + ", ".join([_VARIANT] * len(entries)), params, tuple(value))
    if proof is None:
        return None
    return Description("variants", join_words(texts), {"items": entries}, value, proof)


def _method_description(db, user: UserView, m: Method) -> Description | None:
    if m.source == "credit_card":
        if not (m.brand and m.last_four):
            return None
        proof = prove(db, "SELECT id FROM payment_methods WHERE user_id = ? AND "
                          "source = 'credit_card' AND brand = ? AND last_four = ?",
                      (user.user_id, m.brand, m.last_four), (m.id,))
        if proof is None:
            return None
        brand = BRANDS.get(str(m.brand).lower(), str(m.brand).title())
        return Description(
            "payment_method", f"my {brand} card ending in {m.last_four}",
            {"source": "credit_card", "brand": m.brand, "last_four": m.last_four}, m.id, proof)
    if m.source in ("paypal", "gift_card"):
        proof = prove(db, "SELECT id FROM payment_methods WHERE user_id = ? AND source = ?",
                      (user.user_id, m.source), (m.id,))
        if proof is not None:
            text = "my PayPal account" if m.source == "paypal" else "my gift card"
            return Description("payment_method", text, {"source": m.source}, m.id, proof)
    return None


def describe_method(db, user: UserView, m: Method) -> Description | None:
    """A card by brand and last four digits; PayPal or a gift card when the user has
    only one of that kind (made once per user view)."""
    if m.id not in user.method_desc:
        user.method_desc[m.id] = _method_description(db, user, m)
    return user.method_desc[m.id]


def choose_method(db, user: UserView, rng, candidates: list[Method],
                  need: float | None = None) -> tuple[Method, Description] | None:
    """A describable method; gift cards must be free and cover ``need`` (if given)."""
    for m in shuffled(rng, candidates):
        if m.source == "gift_card":
            if not user.gift_card_free(m.id):
                continue
            if need is not None and (m.balance is None or m.balance < need):
                continue
        desc = describe_method(db, user, m)
        if desc is not None:
            return m, desc
    return None


def new_address(rng, avoid: list[dict]) -> dict:
    """An invented address differing from each of ``avoid``."""
    while True:
        city, state, zip0 = pick(rng, _NEW_CITIES)
        r = rng.random()
        address2 = "" if r < 0.4 else (f"Apt {int(rng.integers(1, 40))}" if r < 0.8
                                       else f"Unit {int(rng.integers(100, 999))}")
        a = {"address1": f"{int(rng.integers(1, 9999))} {pick(rng, _NEW_STREETS)}",
             "address2": address2, "city": city, "state": state, "country": "USA",
             "zip": f"{zip0 + int(rng.integers(0, 9)):05d}"}
        if all(any(a[k] != b.get(k) for k in ADDRESS_KEYS) for b in avoid):
            return a


# --------------------------------------------------------------------------- proposals

def order_param(user: UserView, o: Order, desc: Description | None = None) -> Param:
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


def method_forms(m: Method, methods: list[Method]) -> tuple:
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


def method_param(user: UserView, m: Method) -> Param:
    """The payment method; the user's other methods are its rivals."""
    return Param("payment_method", method_forms(m, user.methods),
                 tuple(method_forms(x, user.methods) for x in user.methods if x.id != m.id))


def entry_forms(item_id: str, entry: dict) -> tuple:
    """An item by id, or by its product name with its option values."""
    words = (entry["product"], *(str(v) for v in entry.get("options", {}).values()))
    return (item_id, words)


def method_terms(m_id: str, desc: Description) -> tuple[str, ...]:
    """The confirm terms of a payment method: its id, or a card's last four digits or
    the kind of the method."""
    f = desc.fields
    if f["source"] == "credit_card":
        return (m_id, f["last_four"])
    return (m_id, "paypal" if f["source"] == "paypal" else "gift card")
