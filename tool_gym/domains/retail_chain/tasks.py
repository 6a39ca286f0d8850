"""Hidden-intent tasks of the retail chain domain: the constraint samplers and ``TASKS``, the
domain's :class:`~tool_gym.core.taskkit.RuleTaskKit`.

The user is an employee of one store. Seven kinds of writes (request stock from another
store, receive a transfer, place a purchase order, change a shelf price, schedule a shift,
record a customer's pickup, cancel a pickup order), three questions (units available at
the employee's store, another store's price of a product, when a purchase order is
expected) and three requests the policy forbids (a transfer of more units than the other
store has available, a markdown below 70% of the base price, a purchase order above
$5,000). Managers get every type; supervisors all but purchase orders and prices;
associates all but those and shifts.

Products are described by name (sometimes with their SKU), stores by name, staff by name
among the store's staff, transfers by product, quantity and sending store, pickup orders by
customer, purchase orders by product. Claims keep the needs of one task apart:
``("stock", store, product)`` for every need that reads or changes a store's units,
``("price", store, product)``, ``("po", store, product)`` and ``("week", person, monday)``.
"""

from __future__ import annotations

from datetime import date, timedelta

from ...core.actions import ToolCall
from ...core.sampler_parts import Login, by_name, describe_any
from ...core.task_model import Constraint, Description, Expectation, Refusal
from ...core.taskkit import (
    RuleTaskKit,
    SampleContext,
    answer_steps,
    date_words,
    dollars,
    money_terms,
    write_steps,
)
from .tools import (
    MAX_WEEKLY_HOURS,
    MIN_PRICE_SHARE,
    PO_LIMIT,
    TODAY,
    money,
    scheduled_minutes,
    week_of,
)

ASK_IDENTITY = ("Before I can help, I need to verify your identity. Could you tell me your "
                "work email address or your staff username?")
_RANK = {"associate": 0, "supervisor": 1, "manager": 2}
#: Next week's Monday: new shifts are drawn in next week.
NEXT_MONDAY = date.fromisoformat(week_of(TODAY)[0]) + timedelta(days=7)

_STOCK_WORDS = ("available", "only", "in stock", "not enough", "enough units", "units",
                "exceed", "exceeds", "more than", "short")
_MARKDOWN_WORDS = ("70%", "30%", "base price", "markdown", "discount", "regional manager",
                   "approval", "below", "too low", "too deep", "lowest")
_PO_WORDS = ("$5,000", "5,000", "5000", "limit", "regional buyer", "buyer", "approval",
             "exceeds", "too large", "too big", "spending")


# ------------------------------------------------------------------ descriptions

def _me(ctx: SampleContext) -> tuple[str, str, str] | None:
    """The employee's store id, store name and role; ``None`` unless they are active at an
    open store."""
    rows = ctx.rows("SELECT e.store_id, s.name, e.role FROM employees e JOIN stores s ON "
                    "s.store_id = e.store_id WHERE e.employee_id = ? AND e.status = 'active' "
                    "AND s.status = 'open'", (ctx.user_id,))
    return rows[0] if rows else None


def _at_least(ctx: SampleContext, role: str) -> tuple[str, str, str] | None:
    me = _me(ctx)
    return me if me is not None and _RANK[me[2]] >= _RANK[role] else None


def describe_product(ctx: SampleContext, product_id: str) -> Description | None:
    name, sku = ctx.rows("SELECT name, sku FROM products WHERE product_id = ?", (product_id,))[0]
    return describe_any(ctx, "product", product_id, [
        (f"the {name}", {"product": name}, "SELECT product_id FROM products WHERE name = ?",
         (name,)),
        (f"the {name} ({sku})", {"product": name, "sku": sku},
         "SELECT product_id FROM products WHERE name = ? AND sku = ?", (name, sku))])


def describe_store(ctx: SampleContext, store_id: str) -> Description | None:
    (name,), = ctx.rows("SELECT name FROM stores WHERE store_id = ?", (store_id,))
    return ctx.describe("store", f"the {name} store", {"store": name}, store_id,
                        "SELECT store_id FROM stores WHERE name = ?", (name,))


def _product(ctx: SampleContext, product_id: str) -> dict:
    row = ctx.rows("SELECT name, sku, base_price, unit_cost, case_size FROM products "
                   "WHERE product_id = ?", (product_id,))[0]
    return dict(zip(("name", "sku", "base_price", "unit_cost", "case_size"), row))


def _carried(ctx: SampleContext, store_id: str, active: bool = True) -> list[tuple]:
    """``(product_id, on_hand, reserved, reorder_point, price)`` of what the store carries."""
    return ctx.rows(
        "SELECT i.product_id, i.on_hand, i.reserved, i.reorder_point, i.price FROM inventory i "
        "JOIN products p ON p.product_id = i.product_id WHERE i.store_id = ? "
        f"{'AND p.status = ' + repr('active') if active else ''} ORDER BY i.rowid", (store_id,))


def _find_product(name: str, product_id: str) -> list[ToolCall]:
    return [ToolCall("search_products", {"query": name}),
            ToolCall("check_product_stock", {"product_id": product_id})]


def _inventory(store_id: str) -> ToolCall:
    return ToolCall("get_store_inventory", {"store_id": store_id})


def _profile(ctx: SampleContext) -> ToolCall:
    return ToolCall("get_employee_profile", {"employee_id": ctx.user_id})


def _count(ctx: SampleContext, sql: str, params: tuple) -> Expectation:
    """``sql`` (a count) as it is now, to expect one more or the same at the end."""
    return Expectation(sql, params, ((ctx.rows(sql, params)[0][0],),))


def _plus_one(e: Expectation) -> Expectation:
    return Expectation(e.query, e.params, ((e.rows[0][0] + 1,),))


def _product_terms(product_id: str, p: dict) -> tuple:
    return (product_id, p["name"], p["sku"])


def _sources(ctx: SampleContext, store_id: str, product_id: str) -> list[tuple]:
    """Other open stores carrying the product: ``(store_id, available)``."""
    return ctx.rows("SELECT i.store_id, i.on_hand - i.reserved FROM inventory i JOIN stores s "
                    "ON s.store_id = i.store_id WHERE i.product_id = ? AND i.store_id != ? "
                    "AND s.status = 'open' ORDER BY s.rowid", (product_id, store_id))


_TRANSFERS = ("SELECT count(*) FROM transfers WHERE product_id = ? AND from_store_id = ? "
              "AND to_store_id = ? AND quantity = ? AND status = 'requested'")


# ----------------------------------------------------------------------- samplers

def request_transfer(ctx: SampleContext) -> Constraint | None:
    me = _me(ctx)
    if me is None:
        return None
    store_id, store_name, _ = me
    for pid, on_hand, reserved, point, _ in ctx.shuffled(_carried(ctx, store_id))[:10]:
        sources = [s for s in _sources(ctx, store_id, pid) if s[1] >= 20]
        if not sources:
            continue
        src, available = ctx.pick(sources)
        quantity = 5 * int(ctx.rng.integers(1, min(10, (available - 5) // 5) + 1))
        d, s = describe_product(ctx, pid), describe_store(ctx, src)
        if d is None or s is None or not ctx.claim(pid, ("transfer", pid)):
            continue
        p = _product(ctx, pid)
        call = ToolCall("request_transfer", {"product_id": pid, "from_store_id": src,
                                             "to_store_id": store_id, "quantity": quantity,
                                             "employee_id": ctx.user_id})
        before = _count(ctx, _TRANSFERS, (pid, src, store_id, quantity))
        low = "We're running low on" if on_hand - reserved <= point else "We need more of"
        return Constraint(
            "request_transfer", dict(call.arguments), refs={"product": d, "from": s},
            writes=(("request_transfer", pid),),
            confirm_terms=(("transfer",), (str(quantity),), _product_terms(pid, p),
                           (s.fields["store"], src)),
            say=(f"{low} {d.text}. Please request {quantity} units from {s.text}.",
                 f"Can you get {quantity} units of {d.text} sent over from {s.text}?",
                 f"I'd like a transfer of {quantity} {d.text} from {s.text} to my store."),
            solution=write_steps(
                [_profile(ctx), *_find_product(p["name"], pid)],
                f"I will request a transfer of {quantity} units of {p['name']} from the "
                f"{s.fields['store']} store to your {store_name} store. Shall I proceed?", call),
            expect=(_plus_one(before),))
    return None


def receive_transfer(ctx: SampleContext) -> Constraint | None:
    me = _me(ctx)
    if me is None:
        return None
    store_id, store_name, _ = me
    rows = ctx.rows(
        "SELECT t.transfer_id, t.product_id, p.name, t.quantity, f.name, i.on_hand FROM "
        "transfers t JOIN products p ON p.product_id = t.product_id JOIN stores f ON "
        "f.store_id = t.from_store_id JOIN inventory i ON i.store_id = t.to_store_id AND "
        "i.product_id = t.product_id WHERE t.to_store_id = ? AND t.status = 'in_transit' "
        "ORDER BY t.rowid", (store_id,))
    for transfer_id, pid, name, quantity, source, on_hand in ctx.shuffled(rows):
        d = ctx.describe(
            "transfer", f"the {quantity} units of {name} coming from the {source} store",
            {"product": name, "quantity": quantity, "from": source}, transfer_id,
            "SELECT t.transfer_id FROM transfers t JOIN products p ON p.product_id = "
            "t.product_id JOIN stores f ON f.store_id = t.from_store_id WHERE t.to_store_id = ? "
            "AND t.status = 'in_transit' AND p.name = ? AND t.quantity = ? AND f.name = ?",
            (store_id, name, quantity, source))
        if d is None or not ctx.claim(transfer_id, ("stock", store_id, pid)):
            continue
        call = ToolCall("receive_transfer", {"transfer_id": transfer_id,
                                             "employee_id": ctx.user_id})
        return Constraint(
            "receive_transfer", dict(call.arguments), refs={"transfer": d},
            writes=(("receive_transfer", transfer_id),),
            confirm_terms=(("receiv",), (name, pid, transfer_id), (source,)),
            say=(f"{d.text[:1].upper()}{d.text[1:]} just arrived. Please mark them as received.",
                 f"Can you check in {d.text}? They're here.",
                 f"Please receive {d.text} into our stock."),
            solution=write_steps(
                [_profile(ctx), ToolCall("list_transfers", {"store_id": store_id,
                                                            "status": "in_transit"})],
                f"I will mark the transfer of {quantity} units of {name} from the {source} "
                f"store as received, adding them to your {store_name} store's stock. "
                "Shall I proceed?", call),
            expect=(Expectation("SELECT status FROM transfers WHERE transfer_id = ?",
                                (transfer_id,), (("received",),)),
                    Expectation("SELECT on_hand FROM inventory WHERE store_id = ? AND "
                                "product_id = ?", (store_id, pid), ((on_hand + quantity,),))))
    return None


_POS = ("SELECT count(*) FROM purchase_orders WHERE store_id = ? AND product_id = ? "
        "AND quantity = ? AND status = 'submitted'")


def create_purchase_order(ctx: SampleContext) -> Constraint | None:
    me = _at_least(ctx, "manager")
    if me is None:
        return None
    store_id, store_name, _ = me
    for pid, on_hand, _, point, _ in ctx.shuffled(_carried(ctx, store_id))[:10]:
        p = _product(ctx, pid)
        most = int(PO_LIMIT // (p["unit_cost"] * p["case_size"]))
        if most < 1:
            continue
        quantity = p["case_size"] * int(ctx.rng.integers(1, min(most, 8) + 1))
        d = describe_product(ctx, pid)
        if d is None or not ctx.claim(pid, ("po", store_id, pid)):
            continue
        call = ToolCall("create_purchase_order", {"product_id": pid, "store_id": store_id,
                                                  "quantity": quantity,
                                                  "employee_id": ctx.user_id})
        total = money(quantity * p["unit_cost"])
        before = _count(ctx, _POS, (store_id, pid, quantity))
        return Constraint(
            "create_purchase_order", dict(call.arguments), refs={"product": d},
            writes=(("create_purchase_order", pid),),
            confirm_terms=(("order",), (str(quantity),), _product_terms(pid, p)),
            say=(f"Please order {quantity} units of {d.text} from the supplier for my store.",
                 f"Can you place a purchase order for {quantity} {d.text}?",
                 f"We need to restock {d.text}: order {quantity} units, please."),
            solution=write_steps(
                [_profile(ctx), _inventory(store_id)],
                f"I will place a purchase order for {quantity} units of {p['name']} for your "
                f"{store_name} store, at {p['unit_cost']:.2f} each ({total:.2f} in total). "
                "Shall I proceed?", call),
            expect=(_plus_one(before),))
    return None


def change_price(ctx: SampleContext) -> Constraint | None:
    me = _at_least(ctx, "manager")
    if me is None:
        return None
    store_id, store_name, _ = me
    for pid, _, _, _, price in ctx.shuffled(_carried(ctx, store_id))[:10]:
        p = _product(ctx, pid)
        share = int(ctx.rng.integers(75, 96)) / 100
        new = money(int(p["base_price"] * share) + 0.99)
        if new == price or new >= p["base_price"] or new < p["base_price"] * MIN_PRICE_SHARE:
            continue
        d = describe_product(ctx, pid)
        if d is None or not ctx.claim(pid, ("price", store_id, pid)):
            continue
        call = ToolCall("change_price", {"product_id": pid, "store_id": store_id,
                                         "price": new, "employee_id": ctx.user_id})
        return Constraint(
            "change_price", dict(call.arguments), refs={"product": d},
            writes=(("change_price", pid),),
            confirm_terms=(money_terms(new), _product_terms(pid, p)),
            say=(f"Please mark {d.text} down to {dollars(new)} at my store.",
                 f"Can you set the price of {d.text} to {dollars(new)} in our store?",
                 f"We're running a promotion: {d.text} should cost {dollars(new)} here."),
            solution=write_steps(
                [_profile(ctx), _inventory(store_id)],
                f"I will change the price of {p['name']} at your {store_name} store from "
                f"{price:.2f} to {new:.2f}. Shall I proceed?", call),
            expect=(Expectation("SELECT price FROM inventory WHERE store_id = ? AND "
                                "product_id = ?", (store_id, pid), ((new,),)),))
    return None


def schedule_shift(ctx: SampleContext) -> Constraint | None:
    me = _at_least(ctx, "supervisor")
    if me is None:
        return None
    store_id, store_name, _ = me
    staff = ctx.rows("SELECT employee_id, first_name, last_name, employment_type FROM employees "
                     "WHERE store_id = ? AND status = 'active' AND employee_id != ? "
                     "ORDER BY rowid", (store_id, ctx.user_id))
    for sid, first, last, kind in ctx.shuffled(staff):
        day = (NEXT_MONDAY + timedelta(days=int(ctx.rng.integers(0, 7)))).isoformat()
        length = 30 * int(ctx.rng.integers(8, 17))
        start = 30 * int(ctx.rng.integers(14, 27))
        used = scheduled_minutes(ctx.db, sid, day)
        if ctx.rows("SELECT 1 FROM shifts WHERE employee_id = ? AND date = ? AND status != "
                    "'cancelled'", (sid, day)) or used + length > MAX_WEEKLY_HOURS[kind] * 60:
            continue
        d = ctx.describe("staff", f"{first} {last}", {"first_name": first, "last_name": last},
                         sid, "SELECT employee_id FROM employees WHERE store_id = ? AND "
                         "first_name = ? AND last_name = ?", (store_id, first, last))
        if d is None or not ctx.claim(sid, ("week", sid, NEXT_MONDAY.isoformat())):
            continue
        begin, end = f"{start // 60:02d}:{start % 60:02d}", \
            f"{(start + length) // 60:02d}:{(start + length) % 60:02d}"
        call = ToolCall("schedule_shift", {"staff_id": sid, "date": day, "start": begin,
                                           "end": end, "employee_id": ctx.user_id})
        when = date_words(day)
        weekday = date.fromisoformat(day).strftime("%A")
        sunday = (NEXT_MONDAY + timedelta(days=6)).isoformat()
        return Constraint(
            "schedule_shift", dict(call.arguments), refs={"staff": d},
            writes=(("schedule_shift", sid),),
            confirm_terms=((f"{first} {last}", sid), (day, when), (begin,), (end,)),
            say=(f"Please schedule {d.text} for a shift on {weekday}, {when}, from {begin} to "
                 f"{end}.",
                 f"Can you put {d.text} on the schedule on {when}, {begin} to {end}?",
                 f"I need {d.text} to work on {weekday} {when} from {begin} until {end}."),
            solution=write_steps(
                [_profile(ctx), ToolCall("list_store_staff", {"store_id": store_id}),
                 ToolCall("list_shifts", {"store_id": store_id,
                                          "start_date": NEXT_MONDAY.isoformat(),
                                          "end_date": sunday})],
                f"I will schedule {first} {last} at your {store_name} store on {day} from "
                f"{begin} to {end}. Shall I proceed?", call),
            expect=(Expectation("SELECT start_time, end_time, status FROM shifts WHERE "
                                "employee_id = ? AND date = ? AND status = 'scheduled'",
                                (sid, day), ((begin, end, "scheduled"),)),))
    return None


def _pickups(ctx: SampleContext, store_id: str, statuses: tuple) -> list[tuple]:
    marks = ", ".join("?" * len(statuses))
    return ctx.rows(f"SELECT order_id, customer_name, status FROM pickup_orders WHERE "
                    f"store_id = ? AND status IN ({marks}) ORDER BY rowid",
                    (store_id, *statuses))


def _describe_pickup(ctx: SampleContext, store_id: str, order_id: str, customer: str,
                     status: str) -> Description | None:
    text = "pickup order" if status != "ready" else "pickup order that is ready"
    return ctx.describe("pickup_order", f"{customer}'s {text}",
                        {"customer": customer, "status": status}, order_id,
                        "SELECT order_id FROM pickup_orders WHERE store_id = ? AND "
                        "customer_name = ? AND status = ?", (store_id, customer, status))


def _pickup_claims(ctx: SampleContext, store_id: str, order_id: str) -> tuple:
    items = ctx.rows("SELECT product_id FROM pickup_items WHERE order_id = ?", (order_id,))
    return (order_id, *(("stock", store_id, pid) for (pid,) in items))


def _pickup_need(ctx: SampleContext, kind: str) -> Constraint | None:
    me = _me(ctx)
    if me is None:
        return None
    store_id, _, _ = me
    statuses = ("ready",) if kind == "complete_pickup" else ("pending", "ready")
    for order_id, customer, status in ctx.shuffled(_pickups(ctx, store_id, statuses)):
        d = _describe_pickup(ctx, store_id, order_id, customer, status)
        if d is None or not ctx.claim(*_pickup_claims(ctx, store_id, order_id)):
            continue
        (units, total), = ctx.rows("SELECT sum(quantity), round(sum(quantity * unit_price), 2) "
                                   "FROM pickup_items WHERE order_id = ?", (order_id,))
        call = ToolCall(kind, {"order_id": order_id, "employee_id": ctx.user_id})
        if kind == "complete_pickup":
            terms = (("picked up",), (customer, order_id))
            say = (f"{customer} just collected their order. Please mark {d.text} as picked up.",
                   f"{customer} is here and has their items; can you close out {d.text}?",
                   f"Please record that {customer} picked up their order.")
            proposal = (f"I will mark {customer}'s pickup order ({units} units, {total:.2f}) as "
                        "picked up; its units leave your stock. Shall I proceed?")
            done = "picked_up"
        else:
            terms = (("cancel",), (customer, order_id))
            say = (f"{customer} called: they no longer want their order. Please cancel "
                   f"{d.text}.", f"Can you cancel {d.text}? The customer changed their mind.",
                   f"Please cancel {customer}'s pickup order and put the items back.")
            proposal = (f"I will cancel {customer}'s pickup order ({units} units, "
                        f"{total:.2f}) and release its items. Shall I proceed?")
            done = "cancelled"
        return Constraint(
            kind, dict(call.arguments), refs={"order": d}, writes=((kind, order_id),),
            confirm_terms=terms, say=say,
            solution=write_steps(
                [_profile(ctx), ToolCall("list_pickup_orders", {"store_id": store_id})],
                proposal, call),
            expect=(Expectation("SELECT status FROM pickup_orders WHERE order_id = ?",
                                (order_id,), ((done,),)),))
    return None


def complete_pickup(ctx: SampleContext) -> Constraint | None:
    return _pickup_need(ctx, "complete_pickup")


def cancel_pickup_order(ctx: SampleContext) -> Constraint | None:
    return _pickup_need(ctx, "cancel_pickup_order")


def info_available_stock(ctx: SampleContext) -> Constraint | None:
    me = _me(ctx)
    if me is None:
        return None
    store_id, store_name, _ = me
    for pid, on_hand, reserved, _, _ in ctx.shuffled(_carried(ctx, store_id, active=False)):
        available = on_hand - reserved
        d = describe_product(ctx, pid)
        if available < 13 or d is None or not ctx.claim(("stock", store_id, pid)):
            continue
        name = _product(ctx, pid)["name"]
        return Constraint(
            "info_available_stock", {"product_id": pid, "store_id": store_id},
            refs={"product": d}, answer=str(available),
            say=(f"How many units of {d.text} can we still sell at my store?",
                 f"How much {d.text} stock do we have available right now?",
                 f"Can you check how many {d.text} are available in my store?"),
            solution=answer_steps(
                [_profile(ctx), _inventory(store_id)],
                f"Your {store_name} store has {available} units of {name} available."))
    return None


def info_store_price(ctx: SampleContext) -> Constraint | None:
    me = _me(ctx)
    if me is None:
        return None
    store_id, _, _ = me
    for pid, _, _, _, _ in ctx.shuffled(_carried(ctx, store_id, active=False))[:10]:
        others = ctx.rows("SELECT i.store_id, i.price FROM inventory i JOIN stores s ON "
                          "s.store_id = i.store_id JOIN products p ON p.product_id = "
                          "i.product_id WHERE i.product_id = ? AND i.store_id != ? AND "
                          "s.status = 'open' AND i.price != p.base_price ORDER BY s.rowid",
                          (pid, store_id))  # a markdown: the base price is no answer
        if not others:
            continue
        other, price = ctx.pick(others)
        d, s = describe_product(ctx, pid), describe_store(ctx, other)
        if d is None or s is None or not ctx.claim(("price", other, pid)):
            continue
        name = _product(ctx, pid)["name"]
        return Constraint(
            "info_store_price", {"product_id": pid, "store_id": other},
            refs={"product": d, "store": s}, answer=f"{price:.2f}",
            say=(f"What does {s.text} charge for {d.text}?",
                 f"How much is {d.text} at {s.text}?",
                 f"Can you check the shelf price of {d.text} at {s.text}?"),
            solution=answer_steps(
                _find_product(name, pid),
                f"The {s.fields['store']} store sells {name} for ${price:,.2f}."))
    return None


def info_po_expected(ctx: SampleContext) -> Constraint | None:
    me = _me(ctx)
    if me is None:
        return None
    store_id, _, _ = me
    rows = ctx.rows("SELECT o.po_id, o.product_id, p.name, o.expected_on FROM purchase_orders o "
                    "JOIN products p ON p.product_id = o.product_id WHERE o.store_id = ? AND "
                    "o.status = 'submitted' ORDER BY o.rowid", (store_id,))
    for po_id, pid, name, expected in ctx.shuffled(rows):
        d = ctx.describe("purchase_order", f"our open purchase order for the {name}",
                         {"product": name}, po_id,
                         "SELECT o.po_id FROM purchase_orders o JOIN products p ON "
                         "p.product_id = o.product_id WHERE o.store_id = ? AND o.status = "
                         "'submitted' AND p.name = ?", (store_id, name))
        if d is None or not ctx.claim(po_id, ("po", store_id, pid)):
            continue
        return Constraint(
            "info_po_expected", {"po_id": po_id}, refs={"purchase_order": d}, answer=expected,
            say=(f"When is {d.text} expected to arrive?",
                 f"What's the expected delivery date of {d.text}?",
                 f"Can you check when {d.text} should be delivered?"),
            solution=answer_steps(
                [_profile(ctx), ToolCall("list_purchase_orders", {"store_id": store_id,
                                                                  "status": "submitted"})],
                f"Your purchase order for {name} is expected on {expected}."))
    return None


def refuse_transfer_over_stock(ctx: SampleContext) -> Constraint | None:
    me = _me(ctx)
    if me is None:
        return None
    store_id, _, _ = me
    for pid, _, _, _, _ in ctx.shuffled(_carried(ctx, store_id))[:10]:
        sources = [s for s in _sources(ctx, store_id, pid) if 1 <= s[1] <= 200]
        if not sources:
            continue
        src, available = ctx.pick(sources)
        quantity = 5 * (available // 5 + int(ctx.rng.integers(1, 7)))
        d, s = describe_product(ctx, pid), describe_store(ctx, src)
        if d is None or s is None or not ctx.claim(pid, ("transfer", pid)):
            continue
        name = _product(ctx, pid)["name"]
        before = _count(ctx, "SELECT count(*) FROM transfers WHERE product_id = ? AND "
                             "to_store_id = ?", (pid, store_id))
        return Constraint(
            "refuse_transfer_over_stock",
            {"product_id": pid, "from_store_id": src, "to_store_id": store_id,
             "quantity": quantity, "employee_id": ctx.user_id},
            refs={"product": d, "from": s}, answer="cannot",
            refusal=Refusal((src,), about=(src, s.fields["store"], *_STOCK_WORDS)),
            say=(f"Please request {quantity} units of {d.text} from {s.text}.",
                 f"I need {quantity} {d.text} transferred from {s.text} to my store.",
                 f"Can you get {quantity} units of {d.text} sent from {s.text}?"),
            solution=answer_steps(
                [_profile(ctx), *_find_product(name, pid)],
                f"I'm sorry, but I cannot request {quantity} units of {name} from the "
                f"{s.fields['store']} store: it has only {available} units available, and a "
                "transfer may not exceed the available stock."),
            expect=(before,))
    return None


def refuse_deep_markdown(ctx: SampleContext) -> Constraint | None:
    me = _at_least(ctx, "manager")
    if me is None:
        return None
    store_id, _, _ = me
    for pid, _, _, _, price in ctx.shuffled(_carried(ctx, store_id))[:10]:
        p = _product(ctx, pid)
        share = int(ctx.rng.integers(35, 63)) / 100
        asked = float(max(1, int(p["base_price"] * share)))
        if asked >= p["base_price"] * MIN_PRICE_SHARE:
            continue
        d = describe_product(ctx, pid)
        if d is None or not ctx.claim(pid, ("price", store_id, pid)):
            continue
        floor = money(p["base_price"] * MIN_PRICE_SHARE)
        return Constraint(
            "refuse_deep_markdown",
            {"product_id": pid, "store_id": store_id, "price": asked,
             "employee_id": ctx.user_id},
            refs={"product": d}, answer="cannot",
            refusal=Refusal((pid,), about=(pid, p["name"], *_MARKDOWN_WORDS)),
            say=(f"Please mark {d.text} down to {dollars(asked)} at my store.",
                 f"I want to clear out {d.text}: set it to {dollars(asked)}.",
                 f"Can you drop the price of {d.text} to {dollars(asked)} here?"),
            solution=answer_steps(
                [_profile(ctx), _inventory(store_id)],
                f"I'm sorry, but I cannot set {p['name']} to {asked:.2f}: its base price is "
                f"{p['base_price']:.2f}, and a store price may not go below 70% of the base "
                f"price ({floor:.2f}) without the regional manager's approval."),
            expect=(Expectation("SELECT price FROM inventory WHERE store_id = ? AND "
                                "product_id = ?", (store_id, pid), ((price,),)),))
    return None


def refuse_large_po(ctx: SampleContext) -> Constraint | None:
    me = _at_least(ctx, "manager")
    if me is None:
        return None
    store_id, _, _ = me
    for pid, _, _, _, _ in ctx.shuffled(_carried(ctx, store_id))[:10]:
        p = _product(ctx, pid)
        case = p["unit_cost"] * p["case_size"]
        cases = int(PO_LIMIT // case) + 1 + int(ctx.rng.integers(0, 4))
        quantity = cases * p["case_size"]
        total = money(quantity * p["unit_cost"])
        if total <= PO_LIMIT or quantity > 1000:
            continue
        d = describe_product(ctx, pid)
        if d is None or not ctx.claim(pid, ("po", store_id, pid)):
            continue
        before = _count(ctx, "SELECT count(*) FROM purchase_orders WHERE store_id = ? AND "
                             "product_id = ?", (store_id, pid))
        return Constraint(
            "refuse_large_po",
            {"product_id": pid, "store_id": store_id, "quantity": quantity,
             "employee_id": ctx.user_id},
            refs={"product": d}, answer="cannot",
            refusal=Refusal((pid,), about=(pid, p["name"], *_PO_WORDS)),
            say=(f"Please order {quantity} units of {d.text} for my store.",
                 f"We need a big restock: {quantity} {d.text}, please place the order.",
                 f"Can you put in a purchase order for {quantity} units of {d.text}?"),
            solution=answer_steps(
                [_profile(ctx), _inventory(store_id)],
                f"I'm sorry, but I cannot place that order: {quantity} units of {p['name']} "
                f"at {p['unit_cost']:.2f} each come to {total:.2f}, above the $5,000.00 limit "
                "for one purchase order; it needs the regional buyer's approval."),
            expect=(before,))
    return None


# ------------------------------------------------------------------------ the kit

LOGIN = Login("employees", "employee_id", "find_employee_by_email",
              "find_employee_by_username", email_words="my work email is")


def policy_violations(db, tool: str, arguments: dict) -> list[str]:
    """Policy rules a write would break: the markdown limit and the purchase order limit
    (the tools allow both), and a transfer above the available stock (refused by the tool
    too)."""
    product = db.execute("SELECT base_price, unit_cost FROM products WHERE product_id = ?",
                         (arguments.get("product_id"),)).fetchone()
    if product is None:
        return []
    if tool == "change_price":
        price = arguments.get("price")
        if isinstance(price, (int, float)) and price < product[0] * MIN_PRICE_SHARE:
            return ["policy:markdown_limit"]
    if tool == "create_purchase_order":
        quantity = arguments.get("quantity")
        if isinstance(quantity, (int, float)) and quantity * product[1] > PO_LIMIT:
            return ["policy:po_limit"]
    if tool == "request_transfer":
        row = db.execute("SELECT on_hand - reserved FROM inventory WHERE store_id = ? AND "
                         "product_id = ?", (arguments.get("from_store_id"),
                                            arguments.get("product_id"))).fetchone()
        quantity = arguments.get("quantity")
        if row is not None and isinstance(quantity, (int, float)) and quantity > row[0]:
            return ["policy:transfer_stock"]
    return []


_ACTOR = ("SELECT employee_id FROM employees WHERE employee_id = ?", "employee_id")

SAMPLERS = by_name(
    request_transfer, receive_transfer, create_purchase_order, change_price, schedule_shift,
    complete_pickup, cancel_pickup_order, info_available_stock, info_store_price,
    info_po_expected, refuse_transfer_over_stock, refuse_deep_markdown, refuse_large_po)

TASKS = RuleTaskKit(
    "retail_chain", SAMPLERS,
    **LOGIN.kit_keywords(),
    owners={name: _ACTOR for name in (
        "request_transfer", "ship_transfer", "receive_transfer", "cancel_transfer",
        "create_purchase_order", "receive_purchase_order", "cancel_purchase_order",
        "change_price", "update_reorder_point", "schedule_shift", "cancel_shift",
        "create_pickup_order", "mark_pickup_ready", "complete_pickup", "cancel_pickup_order")},
    ask_identity=ASK_IDENTITY,
    identity_phrases=("Sure, {text}.", "Of course: {text}.", "Yes, {text}."),
    greetings=("Hi!", "Hello,", "Hi there.", "Good morning."),
    policy_violations=policy_violations,
)
