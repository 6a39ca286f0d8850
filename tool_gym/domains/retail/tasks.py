"""Hidden-intent tasks of the retail domain (spec ``retail.md`` §5): the constraint
samplers, and ``TASKS``, the domain's :class:`~tool_gym.core.taskkit.ViewTaskKit`.

Each sampler draws one need on a loaded :class:`~.records.UserView` (``ctx.view``), which
keeps the needs of one task apart; the types, descriptions and checks are described in
``docs/retail-tasks.md``.
"""

from __future__ import annotations

import json
from collections import Counter

from ...core.proposals import Intent, Param
from ...core.taskkit import SampleContext, UserDraws, ViewTaskKit, money, pick, prove, shuffled
from ...core.task_model import Constraint, Description, Refusal
from . import checks, describe, phrasing
from .describe import (choose_method, describe_lines, describe_method, describe_order,
                       describe_variants, entry_forms, method_param, method_terms, new_address,
                       order_param)
from .records import ADDRESS_KEYS, REASONS, Order, UserView

__all__ = ["TASKS", "CONSTRAINT_TYPES"]


#: The ways an agent may state each cancellation reason in a proposal.
REASON_FORMS = {
    "no longer needed": ("no longer needed", "no longer need", "not needed", "don't need",
                         "do not need", "doesn't need", "does not need", "not need it",
                         "no longer required", "no longer want", "no need for"),
    "ordered by mistake": ("ordered by mistake", "by mistake", "mistaken", "accidental",
                           "by accident", "in error", "unintentional"),
}
#: Words that name why the request is refused (any one addresses it; see ``Refusal.about``).
_PROCESSED_WORDS = (
    "processed", "processing", "already processed", "shipped", "shipping", "pending",
    "fulfilled", "being prepared", "on its way")
_ORDER_TRIES = 8          # candidate orders tried per constraint
_DEFAULT_ADDRESS_P = 0.5  # change_order_address to "my default address"


def _orders(user: UserView, rng, pred) -> list[Order]:
    found = [o for o in user.orders if o.order_id not in user.used_orders and pred(o)]
    return shuffled(rng, found)[:_ORDER_TRIES]


def _pick_lines(order: Order, rng, candidates: list, most: int) -> list:
    """Up to ``most`` of ``candidates`` (items of ``order``), kept in line order."""
    k = 1 + int(rng.integers(min(len(candidates), most)))
    idx = sorted(int(i) for i in rng.permutation(len(candidates))[:k])
    return [candidates[i] for i in idx]


def _quantity(order: Order, item_id: str, rng) -> int:
    mult = sum(1 for l in order.lines if l.item_id == item_id)
    return mult if mult == 1 else 1 + int(rng.integers(mult))


def _described(db, user: UserView, o: Order, rng, config, chosen):
    """``(method, its description, the order's description)``; ``None`` when no method
    was chosen or the order cannot be described."""
    if chosen is None:
        return None
    desc = describe_order(db, user, o, rng, config)
    return None if desc is None else (*chosen, desc)


def _take(user: UserView, o: Order, m) -> None:
    """Book the order, and a gift card chosen as the method, for this need."""
    user.used_orders.add(o.order_id)
    if m.source == "gift_card":
        user.used_gift_cards.add(m.id)


def _cancel_order(ctx: SampleContext) -> Constraint | None:
    db, user, rng, config = ctx.db, ctx.view, ctx.rng, ctx.config
    for o in _orders(user, rng, lambda o: o.status == "pending"):
        refunded = user.owner_gift_cards(p[2] for p in o.payments)
        if refunded & user.frozen_gift_cards:
            continue
        desc = describe_order(db, user, o, rng, config)
        if desc is None:
            continue
        reason = pick(rng, REASONS)
        user.used_orders.add(o.order_id)
        user.touched_gift_cards |= refunded
        return Constraint("cancel_order", {"order_id": o.order_id, "reason": reason},
                          {"order": desc}, (("cancel_pending_order", o.order_id),),
                          ((o.order_id,), (reason,)),
                          intent=Intent((
                              Param("action", ("cancel",)),
                              order_param(user, o, desc),
                              Param("reason", REASON_FORMS[reason],
                                    tuple(REASON_FORMS[r] for r in REASONS
                                          if r != reason)))))
    return None


def _cancel_processed_order(ctx: SampleContext) -> Constraint | None:
    db, user, rng, config = ctx.db, ctx.view, ctx.rng, ctx.config
    for o in _orders(user, rng, lambda o: o.status == "processed"):
        desc = describe_order(db, user, o, rng, config)
        if desc is None:
            continue
        reason = pick(rng, REASONS)
        user.used_orders.add(o.order_id)
        return Constraint("cancel_processed_order",
                          {"order_id": o.order_id, "reason": reason}, {"order": desc},
                          answer="processed",
                          refusal=Refusal((("get_order_details", o.order_id),),
                                          about=(o.order_id, *_PROCESSED_WORDS)))
    return None


def _change_order_address(ctx: SampleContext) -> Constraint | None:
    db, user, rng, config = ctx.db, ctx.view, ctx.rng, ctx.config
    use_default = bool(rng.random() < _DEFAULT_ADDRESS_P) and not user.user_address_changed
    orders = _orders(user, rng, lambda o: "pending" in o.status)
    if use_default:  # orders that do not ship to the default address first
        orders.sort(key=lambda o: o.address == user.address)
    for o in orders:
        desc = describe_order(db, user, o, rng, config)
        if desc is None:
            continue
        refs = {"order": desc}
        if use_default and user.address != o.address:
            proof = prove(db, "SELECT address1, address2, city, state, country, zip "
                               "FROM users WHERE user_id = ?", (user.user_id,),
                           tuple(user.address[k] for k in ADDRESS_KEYS))
            if proof is None:
                continue
            address = dict(user.address)
            refs["address"] = Description("address", "my default address",
                                          {"default_address": True}, address, proof)
            user.default_address_used = True
        else:
            address = new_address(rng, [o.address, user.address])
        user.used_orders.add(o.order_id)
        return Constraint("change_order_address", {"order_id": o.order_id, **address}, refs,
                          (("modify_pending_order_address", o.order_id),),
                          ((o.order_id,), (address["address1"],), (address["zip"],)),
                          intent=Intent((order_param(user, o, desc),
                                         Param("address1", (address["address1"],)),
                                         Param("zip", (address["zip"],)))))
    return None


def _change_user_address(ctx: SampleContext) -> Constraint | None:
    user, rng = ctx.view, ctx.rng
    if user.user_address_changed or user.default_address_used:
        return None
    address = new_address(rng, [user.address])
    user.user_address_changed = True
    return Constraint("change_user_address", {"user_id": user.user_id, **address}, {},
                      (("modify_user_address", user.user_id),),
                      ((address["address1"],), (address["zip"],)))


def _change_order_payment(ctx: SampleContext) -> Constraint | None:
    db, user, rng, config = ctx.db, ctx.view, ctx.rng, ctx.config

    def ok(o: Order) -> bool:
        return ("pending" in o.status and len(o.payments) == 1
                and o.payments[0][0] == "payment")

    for o in _orders(user, rng, ok):
        _, amount, original = o.payments[0]
        refunded = user.owner_gift_cards([original])
        if refunded & user.frozen_gift_cards:
            continue
        others = [m for m in user.methods if m.id != original]
        found = _described(db, user, o, rng, config,
                           choose_method(db, user, rng, others, amount))
        if found is None:
            continue
        m, m_desc, desc = found
        _take(user, o, m)
        user.touched_gift_cards |= refunded
        return Constraint(
            "change_order_payment",
            {"order_id": o.order_id, "payment_method_id": m.id,
             "original_payment_method_id": original, "amount": amount},
            {"order": desc, "payment_method": m_desc},
            (("modify_pending_order_payment", o.order_id),),
            ((o.order_id,), method_terms(m.id, m_desc)),
            intent=Intent((order_param(user, o, desc), method_param(user, m))))
    return None


def _variant_changes(db, user: UserView, o: Order, rng, most: int):
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
    picks = _pick_lines(o, rng, candidates, most)
    return [(item_id, _quantity(o, item_id, rng), pick(rng, alts))
            for item_id, alts in picks]


def _item_change(db, user: UserView, o: Order, rng, changes):
    """Descriptions and call lists of a change of variants."""
    old = describe_lines(db, o, [(i, q) for i, q, _ in changes], rng)
    if old is None:
        return None
    new = describe_variants(db, [(o.first_line(i).name, v) for i, _, v in changes])
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


def _item_change_intent(user: UserView, o, desc, changes, old, new, m) -> Intent:
    """What a proposal to modify or exchange items must name: the order, each item
    before its replacement (product with options), and the payment method."""
    return Intent((order_param(user, o, desc),
                   *(Param(f"item{k}", entry_forms(i, e))
                     for k, ((i, _, _), e) in enumerate(zip(changes, old.fields["items"]))),
                   *(Param(f"new_item{k}", entry_forms(v.item_id, e))
                     for k, ((_, _, v), e) in enumerate(zip(changes, new.fields["items"]))),
                   method_param(user, m)),
                  before=tuple((f"item{k}", f"new_item{k}") for k in range(len(changes))))


#: Item-swap type -> (the status its order has, its write tool).
_SWAPS = {"modify_items": ("pending", "modify_pending_order_items"),
          "exchange_items": ("delivered", "exchange_delivered_order_items")}


def _swap_items(ctx: SampleContext, kind: str) -> Constraint | None:
    """Lines of one order -> other variants of the same products (``modify_items`` on a
    pending order, ``exchange_items`` on a delivered one), paid with one method."""
    db, user, rng, config = ctx.db, ctx.view, ctx.rng, ctx.config
    status, tool = _SWAPS[kind]
    for o in _orders(user, rng, lambda o: o.status == status):
        changes = _variant_changes(db, user, o, rng, most=2)
        if changes is None:
            continue
        made = _item_change(db, user, o, rng, changes)
        if made is None:
            continue
        old, new, item_ids, new_ids, diff, products = made
        if kind == "exchange_items":
            diff = round(diff, 2)
        found = _described(db, user, o, rng, config,
                           choose_method(db, user, rng, user.methods, diff))
        if found is None:
            continue
        m, m_desc, desc = found
        args = {"order_id": o.order_id, "item_ids": item_ids, "new_item_ids": new_ids,
                "payment_method_id": m.id, "price_difference": diff}
        if kind == "modify_items":
            result = Counter(l.item_id for l in o.lines)
            result.subtract(item_ids)
            result.update(new_ids)
            args["result_item_ids"] = sorted(result.elements())
        args["new_product_ids"] = products
        _take(user, o, m)
        return Constraint(
            kind, args,
            {"order": desc, "items": old, "new_items": new, "payment_method": m_desc},
            ((tool, o.order_id),),
            ((o.order_id,), *[(v,) for v in dict.fromkeys(new_ids)],
             method_terms(m.id, m_desc)),
            intent=_item_change_intent(user, o, desc, changes, old, new, m))
    return None


def _return_items(ctx: SampleContext) -> Constraint | None:
    db, user, rng, config = ctx.db, ctx.view, ctx.rng, ctx.config
    for o in _orders(user, rng, lambda o: o.status == "delivered"):
        if not o.payments:
            continue
        original = o.payments[0][2]
        methods = [m for m in user.methods
                   if m.id == original or m.source == "gift_card"]
        chosen = choose_method(db, user, rng, methods)
        if chosen is None:
            continue
        items = o.distinct_items()
        picks = [(i, _quantity(o, i, rng))
                 for i in _pick_lines(o, rng, items, 3)]
        old = describe_lines(db, o, picks, rng)
        if old is None:
            continue
        desc = describe_order(db, user, o, rng, config)
        if desc is None:
            continue
        m, m_desc = chosen
        item_ids = [i for i, q in picks for _ in range(q)]
        _take(user, o, m)
        return Constraint(
            "return_items",
            {"order_id": o.order_id, "item_ids": item_ids, "payment_method_id": m.id},
            {"order": desc, "items": old, "payment_method": m_desc},
            (("return_delivered_order_items", o.order_id),),
            ((o.order_id,), *[(i,) for i, _ in picks], method_terms(m.id, m_desc)),
            intent=Intent((order_param(user, o, desc),
                           *(Param(f"item{k}", entry_forms(i, e), tuple(
                               (x,) for x in items if x not in dict(picks)))
                             for k, ((i, _), e) in enumerate(
                                 zip(picks, old.fields["items"]))),
                           method_param(user, m))))
    return None


def _info_tracking(ctx: SampleContext) -> Constraint | None:
    db, user, rng, config = ctx.db, ctx.view, ctx.rng, ctx.config
    for o in _orders(user, rng, lambda o: o.status in ("delivered", "processed")):
        tracking: list = []
        for (ids,) in db.execute("SELECT tracking_ids FROM fulfillments WHERE order_id = ? "
                                 "ORDER BY pos", (o.order_id,)):
            try:
                tracking += list(json.loads(ids))
            except (TypeError, ValueError):
                tracking.append(None)
        if len(tracking) != 1 or not isinstance(tracking[0], str) or not tracking[0]:
            continue
        desc = describe_order(db, user, o, rng, config)
        if desc is None:
            continue
        user.used_orders.add(o.order_id)
        return Constraint("info_tracking", {"order_id": o.order_id}, {"order": desc},
                          answer=tracking[0])
    return None


def _info_order_total(ctx: SampleContext) -> Constraint | None:
    db, user, rng, config = ctx.db, ctx.view, ctx.rng, ctx.config
    for o in _orders(user, rng, lambda o: bool(o.lines)):
        desc = describe_order(db, user, o, rng, config)
        if desc is None:
            continue
        total = 0.0
        for line in o.lines:
            total += line.price
        user.used_orders.add(o.order_id)
        return Constraint("info_order_total", {"order_id": o.order_id, "total": total},
                          {"order": desc}, answer=money(total),
                          evidence=(("get_order_details", o.order_id),))
    return None


def _info_available_options(ctx: SampleContext) -> Constraint | None:
    db, user, rng = ctx.db, ctx.view, ctx.rng
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
    for pid in shuffled(rng, list(products))[:_ORDER_TRIES]:
        name = products[pid]
        count = sum(1 for v in user.variants(db, pid) if v.available)
        if count == 0:
            continue
        proof = prove(db, "SELECT product_id FROM products WHERE name = ?", (name,), (pid,))
        if proof is None:
            continue
        user.used_products.add(pid)
        desc = Description("product", f"the {name}", {"product": name}, pid, proof)
        return Constraint("info_available_options", {"product_id": pid},
                          {"product": desc}, answer=str(count),
                          evidence=(("get_product_details", pid),))
    return None


def _info_gift_card_balance(ctx: SampleContext) -> Constraint | None:
    db, user = ctx.db, ctx.view
    if len(user.gift_cards) != 1:
        return None
    g = user.gift_cards[0]
    if (g.balance is None or g.id in user.used_gift_cards
            or g.id in user.touched_gift_cards or g.id in user.frozen_gift_cards):
        return None
    desc = describe_method(db, user, g)
    if desc is None:
        return None
    user.frozen_gift_cards.add(g.id)
    return Constraint("info_gift_card_balance", {"payment_method_id": g.id},
                      {"payment_method": desc}, answer=money(g.balance))


SAMPLERS = {
    "cancel_order": _cancel_order,
    "change_order_address": _change_order_address,
    "modify_items": lambda ctx: _swap_items(ctx, "modify_items"),
    "change_order_payment": _change_order_payment,
    "change_user_address": _change_user_address,
    "return_items": _return_items,
    "exchange_items": lambda ctx: _swap_items(ctx, "exchange_items"),
    "info_tracking": _info_tracking,
    "info_order_total": _info_order_total,
    "info_available_options": _info_available_options,
    "info_gift_card_balance": _info_gift_card_balance,
    "cancel_processed_order": _cancel_processed_order,
}
CONSTRAINT_TYPES = tuple(SAMPLERS)


#: The instance the domain registers.
TASKS = ViewTaskKit(
    "retail", SAMPLERS,
    view=UserView,
    identify=describe.identity,
    may_lead=checks.may_lead,
    preferred=checks.has_distractors,
    draws=UserDraws(lead_draws=120),
    once=("change_user_address",),
    auth_tools=("find_user_id_by_email", "find_user_id_by_name_zip"),
    owners=checks.OWNERS,
    checks=checks.CHECKS,
    greetings=phrasing.GREETINGS,
    request_words=phrasing.request,
    identity_words=phrasing.identify,
    plan_steps=phrasing.plan,
)
