"""Hidden-intent tasks of the food delivery domain (customers' carts, orders, addresses and the
restaurants' menus): the constraint samplers and ``TASKS``, the domain's
:class:`~tool_gym.core.taskkit.RuleTaskKit`. Types, descriptions and claims:
``docs/food-delivery-tasks.md``.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta

from ...core.actions import ToolCall
from ...core.taskkit import (RuleTaskKit, SampleContext, answer_steps, join_words, month_day,
                             write_steps)
from ...core.sampler_parts import Login, by_name, describe_address, describe_payment
from ...core.task_model import Constraint, Description, Expectation, Refusal
from .generate import NEW_INSTRUCTIONS
from .tools import NOW, REFUND_WINDOW_HOURS, TODAY, cents_of, hours_since, order_amounts

#: Words that name why the request is refused (any one addresses it; see ``Refusal.about``).
_ACCEPTED_WORDS = (
    "accepted", "preparing", "prepared", "being prepared", "on the way", "on its way",
    "out for delivery", "in progress", "already started", "cooking", "kitchen",
    "confirmed", "picked up", "en route")
_LATE_REFUND_WORDS = (
    "24 hours", "24-hour", "24 hour", "24h", "a day", "one day", "hours", "window",
    "too late", "too long", "expired", "time limit", "deadline", "delivered", "ago")


ASK_IDENTITY = ("I can help with that. First, to verify your account, could you give me the "
                "email address or the username you use in the app?")
CANCEL_WORDS = ("I ordered by mistake", "I changed my mind", "it's taking too long")
STATUS_WORDS = {"accepted": "accepted by the restaurant", "preparing": "being prepared",
                "on_the_way": "already on the way"}


def cents_terms(amount: float) -> tuple[str, ...]:
    """The ways an agent's message may write ``amount``, always with its cents (unlike
    ``taskkit.money_terms``, which drops them from whole amounts)."""
    return tuple(dict.fromkeys((f"{amount:.2f}", f"{amount:,.2f}")))


def day_words(day: str) -> str:
    if day == TODAY:
        return "today"
    if day == (date.fromisoformat(TODAY) - timedelta(days=1)).isoformat():
        return "yesterday"
    return f"on {month_day(day)}"


# ------------------------------------------------------------------ descriptions

_ORDER_BY_DAY = ("SELECT o.order_id FROM orders o JOIN restaurants r "
                 "ON r.restaurant_id = o.restaurant_id WHERE o.customer_id = ? AND r.name = ? "
                 "AND substr(o.placed_at, 1, 10) = ?")


def describe_order(ctx: SampleContext, order_id: str, restaurant: str,
                   placed_at: str) -> Description | None:
    day = placed_at[:10]
    return ctx.describe("order", f"order from {restaurant} {day_words(day)}",
                        {"restaurant": restaurant, "date": day}, order_id, _ORDER_BY_DAY,
                        (ctx.user_id, restaurant, day))


def describe_line(ctx: SampleContext, item_id: str, name: str, restaurant: str,
                  placed_at: str) -> Description | None:
    day = placed_at[:10]
    return ctx.describe(
        "order_item", name, {"restaurant": restaurant, "date": day, "item": name}, item_id,
        "SELECT i.item_id FROM order_items i JOIN orders o ON o.order_id = i.order_id "
        "JOIN restaurants r ON r.restaurant_id = o.restaurant_id WHERE o.customer_id = ? "
        "AND r.name = ? AND substr(o.placed_at, 1, 10) = ? AND i.name = ?",
        (ctx.user_id, restaurant, day, name))


def describe_menu_item(ctx: SampleContext, item_id: str, restaurant: str,
                       name: str) -> Description | None:
    return ctx.describe(
        "menu_item", f"{name} from {restaurant}", {"restaurant": restaurant, "item": name},
        item_id,
        "SELECT m.item_id FROM menu_items m JOIN restaurants r ON r.restaurant_id = "
        "m.restaurant_id WHERE r.name = ? AND m.name = ?", (restaurant, name))


def _orders(ctx: SampleContext, where: str, params: tuple = ()) -> list[tuple]:
    return ctx.rows(
        "SELECT o.order_id, r.name, o.placed_at, o.delivered_at, o.status, o.total "
        "FROM orders o JOIN restaurants r ON r.restaurant_id = o.restaurant_id "
        f"WHERE o.customer_id = ? AND {where} ORDER BY o.rowid", (ctx.user_id, *params))


def _lines(ctx: SampleContext, order_id: str) -> list[tuple]:
    return ctx.rows("SELECT item_id, name, unit_price, quantity FROM order_items "
                    "WHERE order_id = ? ORDER BY line", (order_id,))


def _list_orders(ctx: SampleContext) -> ToolCall:
    return ToolCall("list_orders", {"customer_id": ctx.user_id})


def _order_reads(ctx: SampleContext, order_id: str) -> list[ToolCall]:
    return [_list_orders(ctx), ToolCall("get_order", {"order_id": order_id})]


def _menu_reads(restaurant: str, restaurant_id: str) -> list[ToolCall]:
    return [ToolCall("search_restaurants", {"query": restaurant}),
            ToolCall("get_menu", {"restaurant_id": restaurant_id})]


# ----------------------------------------------------------------------- samplers

def add_to_cart(ctx: SampleContext) -> Constraint | None:
    cart = ctx.rows("SELECT c.item_id, m.restaurant_id, c.quantity FROM cart_items c "
                    "JOIN menu_items m ON m.item_id = c.item_id WHERE c.customer_id = ? "
                    "ORDER BY c.rowid", (ctx.user_id,))
    if cart:
        candidates = ctx.rows("SELECT restaurant_id, name FROM restaurants "
                              "WHERE restaurant_id = ? AND is_open = 1", (cart[0][1],))
    else:
        candidates = ctx.rows(
            "SELECT r.restaurant_id, r.name FROM restaurants r JOIN addresses a "
            "ON a.city = r.city WHERE a.customer_id = ? AND a.is_default = 1 AND r.is_open = 1 "
            "ORDER BY r.rowid", (ctx.user_id,))
    if not candidates or not ctx.claim(("cart", ctx.user_id)):
        return None
    restaurant_id, restaurant = ctx.pick(candidates)
    items = ctx.rows("SELECT item_id, name, price FROM menu_items WHERE restaurant_id = ? "
                     "AND available = 1 ORDER BY rowid", (restaurant_id,))
    if not items:
        return None
    item_id, name, price = ctx.pick(items)
    d = describe_menu_item(ctx, item_id, restaurant, name)
    if d is None:
        return None
    quantity = int(ctx.rng.integers(1, 4))
    before = next((q for i, _, q in cart if i == item_id), 0)
    call = ToolCall("add_item_to_cart", {"customer_id": ctx.user_id, "item_id": item_id,
                                         "quantity": quantity})
    more = " more" if before else ""
    return Constraint(
        "add_to_cart", dict(call.arguments), refs={"item": d},
        writes=(("add_item_to_cart", ctx.user_id),),
        confirm_terms=((name,), (restaurant,)),
        say=(f"Please add {quantity}{more} {name} from {restaurant} to my cart.",
             f"Could you put {quantity}{more} x {name} from {restaurant} in my cart?",
             f"I'd like {quantity}{more} {name} from {restaurant} added to my cart, please."),
        solution=write_steps(
            _menu_reads(restaurant, restaurant_id),
            f"I will add {quantity} x {name} from {restaurant} (${price:.2f} each) to your "
            "cart. Shall I proceed?", call),
        expect=(Expectation("SELECT quantity FROM cart_items WHERE customer_id = ? "
                            "AND item_id = ?", (ctx.user_id, item_id),
                            ((before + quantity,),)),))


def checkout_cart(ctx: SampleContext) -> Constraint | None:
    cart = ctx.rows("SELECT c.item_id, m.name, m.price, m.available, m.restaurant_id, "
                    "c.quantity FROM cart_items c JOIN menu_items m ON m.item_id = c.item_id "
                    "WHERE c.customer_id = ? ORDER BY c.rowid", (ctx.user_id,))
    if not cart or not all(r[3] for r in cart):
        return None
    (restaurant_id, restaurant, city, fee, minimum, is_open), = ctx.rows(
        "SELECT restaurant_id, name, city, delivery_fee, min_order, is_open FROM restaurants "
        "WHERE restaurant_id = ?", (cart[0][4],))
    lines = [(r[2], r[5]) for r in cart]
    subtotal = sum(cents_of(p) * q for p, q in lines)
    if not is_open or subtotal < cents_of(minimum):
        return None
    addresses = ctx.rows("SELECT address_id, label, street FROM addresses WHERE customer_id = ? "
                         "AND city = ? ORDER BY rowid", (ctx.user_id, city))
    if not addresses or not ctx.claim(("cart", ctx.user_id)):
        return None
    address_id, label, street = ctx.pick(addresses)
    promo = None
    if ctx.rng.random() < 0.5:
        promos = ctx.rows("SELECT code, percent_off, max_discount FROM promo_codes "
                          "WHERE active = 1 AND expires_on >= ? AND min_subtotal * 100 <= ? "
                          "ORDER BY code", (TODAY, subtotal))
        promo = ctx.pick(promos) if promos else None
    _, _, discount, total = order_amounts(lines, fee, promo[1] if promo else 0,
                                          promo[2] if promo else 0.0)
    methods = [m for m in ctx.rows(
        "SELECT payment_method_id, kind, brand, last4, balance FROM payment_methods "
        "WHERE customer_id = ? ORDER BY rowid", (ctx.user_id,))
        if m[1] != "gift_card" or cents_of(m[4]) >= cents_of(total)]
    method_id, kind, brand, last4, _ = ctx.pick(methods)
    a = describe_address(ctx, address_id, label)
    p = describe_payment(ctx, method_id, kind, brand, last4)
    if a is None or p is None or not ctx.claim(method_id):
        return None
    args = {"customer_id": ctx.user_id, "address_id": address_id,
            "payment_method_id": method_id}
    if promo:
        args["promo_code"] = promo[0]
    call = ToolCall("place_order", args)
    code = promo[0] if promo else ""
    (before,) = ctx.rows("SELECT count(*) FROM orders WHERE customer_id = ? AND restaurant_id = ? "
                         "AND address_id = ? AND payment_method_id = ? AND total = ? "
                         "AND coalesce(promo_code, '') = ? AND status = 'placed'",
                         (ctx.user_id, restaurant_id, address_id, method_id, total, code))[0]
    items = ", ".join(f"{r[5]} x {r[1]}" for r in cart)
    with_code = f" Use my promo code {code}." if promo else ""
    terms = ((restaurant,), (label,), (last4 or brand,), cents_terms(total))
    return Constraint(
        "checkout_cart", dict(args), refs={"address": a, "payment_method": p},
        writes=(("place_order", ctx.user_id),),
        confirm_terms=terms + (((code,),) if promo else ()),
        say=(f"I'm ready to order what's in my cart from {restaurant}. Deliver it to my "
             f"{a.text} and charge my {p.text}.{with_code}",
             f"Please check out my {restaurant} cart: send it to my {a.text}, paid with my "
             f"{p.text}.{with_code}",
             f"Place my cart order from {restaurant}, please, to my {a.text}; pay with my "
             f"{p.text}.{with_code}"),
        solution=write_steps(
            [ToolCall("get_cart", {"customer_id": ctx.user_id}),
             ToolCall("get_customer_profile", {"customer_id": ctx.user_id})]
            + ([ToolCall("check_promo_code", {"customer_id": ctx.user_id, "code": code})]
               if promo else []),
            f"I will place your order from {restaurant} ({items}) for delivery to your "
            f"{label} address at {street}, paid with your {p.text}"
            + (f", with promo code {code} (discount ${discount:.2f})" if promo else "")
            + f". The total is ${total:.2f}. Shall I proceed?", call),
        expect=(Expectation("SELECT count(*) FROM orders WHERE customer_id = ? "
                            "AND restaurant_id = ? AND address_id = ? AND payment_method_id = ? "
                            "AND total = ? AND coalesce(promo_code, '') = ? "
                            "AND status = 'placed'",
                            (ctx.user_id, restaurant_id, address_id, method_id, total, code),
                            ((before + 1,),)),
                Expectation("SELECT count(*) FROM cart_items WHERE customer_id = ?",
                            (ctx.user_id,), ((0,),))))


def cancel_order(ctx: SampleContext) -> Constraint | None:
    for order_id, restaurant, placed_at, _, _, total in ctx.shuffled(
            _orders(ctx, "o.status = 'placed'")):
        d = describe_order(ctx, order_id, restaurant, placed_at)
        if d is None or not ctx.claim(order_id):
            continue
        reason = ctx.pick(CANCEL_WORDS)
        call = ToolCall("cancel_order", {"order_id": order_id, "reason": reason})
        return Constraint(
            "cancel_order", {"order_id": order_id}, refs={"order": d},
            writes=(("cancel_order", order_id),),
            confirm_terms=(("cancel",), (restaurant,)),
            say=(f"Please cancel my {d.text}; {reason}.",
                 f"I need to cancel the {d.text}, {reason}.",
                 f"Can you cancel my {d.text}? {reason[0].upper()}{reason[1:]}."),
            solution=write_steps(
                [_list_orders(ctx)],
                f"Your {d.text} has not been accepted yet, so I can cancel it and refund "
                f"${total:.2f} to your original payment method. Shall I proceed?", call),
            expect=(Expectation("SELECT status FROM orders WHERE order_id = ?", (order_id,),
                                (("cancelled",),)),))
    return None


def refuse_cancel_accepted(ctx: SampleContext) -> Constraint | None:
    for order_id, restaurant, placed_at, _, status, _ in ctx.shuffled(
            _orders(ctx, "o.status IN ('accepted', 'preparing', 'on_the_way')")):
        d = describe_order(ctx, order_id, restaurant, placed_at)
        if d is None or not ctx.claim(order_id):
            continue
        return Constraint(
            "refuse_cancel_accepted", {"order_id": order_id}, refs={"order": d},
            answer="cannot",
            refusal=Refusal((order_id,), about=(order_id, restaurant, *_ACCEPTED_WORDS)),
            say=(f"Please cancel my {d.text}, I don't want it anymore.",
                 f"I changed my mind about the {d.text}. Cancel it, please.",
                 f"Can you cancel my {d.text}?"),
            solution=answer_steps(
                [_list_orders(ctx)],
                f"I'm sorry, but I cannot cancel your {d.text}: it is {STATUS_WORDS[status]}, "
                "and an order can only be cancelled before the restaurant accepts it."),
            expect=(Expectation("SELECT status FROM orders WHERE order_id = ?", (order_id,),
                                ((status,),)),))
    return None


def _missing(ctx: SampleContext, order: tuple, count: int) -> tuple | None:
    """Descriptions and rows of ``count`` lines of a delivered order."""
    order_id, restaurant, placed_at = order[:3]
    lines = _lines(ctx, order_id)
    if len(lines) < count:
        return None
    chosen = sorted(ctx.rng.choice(len(lines), size=count, replace=False).tolist())
    picked = [lines[i] for i in chosen]
    refs = [describe_line(ctx, line[0], line[1], restaurant, placed_at) for line in picked]
    if any(r is None for r in refs):
        return None
    return picked, refs


def refund_missing_items(ctx: SampleContext) -> Constraint | None:
    since = (datetime.fromisoformat(NOW) - timedelta(hours=REFUND_WINDOW_HOURS - 2)).isoformat()
    orders = _orders(ctx, "o.status = 'delivered' AND o.delivered_at >= ? AND NOT EXISTS ("
                          "SELECT 1 FROM refunds f WHERE f.order_id = o.order_id)", (since,))
    for order in ctx.shuffled(orders):
        order_id, restaurant, placed_at = order[:3]
        n_lines = len(_lines(ctx, order_id))
        if n_lines < 2:
            continue
        d = describe_order(ctx, order_id, restaurant, placed_at)
        found = _missing(ctx, order, int(ctx.rng.integers(1, min(2, n_lines - 1) + 1)))
        if d is None or found is None or not ctx.claim(order_id):
            continue
        lines, refs = found
        amount = sum(cents_of(line[2]) * line[3] for line in lines) / 100
        names = [line[1] for line in lines]
        call = ToolCall("request_missing_items_refund", {
            "order_id": order_id, "item_ids": [line[0] for line in lines]})
        what = join_words([f"the {n}" for n in names])
        return Constraint(
            "refund_missing_items", dict(call.arguments),
            refs={"order": d, **{f"item{i + 1}": r for i, r in enumerate(refs)}},
            writes=(("request_missing_items_refund", order_id),),
            confirm_terms=(("refund",), cents_terms(amount), *((n,) for n in names)),
            say=(f"My {d.text} came without {what}. I'd like a refund for the missing items.",
                 f"Some of my {d.text} was missing: {what}. Please refund them.",
                 f"{what[0].upper()}{what[1:]} never made it into my {d.text}; can you refund "
                 "that?"),
            solution=write_steps(
                _order_reads(ctx, order_id),
                f"I will refund ${amount:.2f} for the missing {join_words(names)} from your "
                f"{d.text} to the original payment method. Shall I proceed?", call),
            expect=(Expectation("SELECT amount, reason FROM refunds WHERE order_id = ?",
                                (order_id,), ((amount, "missing_items"),)),))
    return None


def refuse_late_refund(ctx: SampleContext) -> Constraint | None:
    before = (datetime.fromisoformat(NOW) - timedelta(hours=48)).isoformat()
    orders = _orders(ctx, "o.status = 'delivered' AND o.delivered_at < ? AND NOT EXISTS ("
                          "SELECT 1 FROM refunds f WHERE f.order_id = o.order_id)", (before,))
    for order in ctx.shuffled(orders):
        order_id, restaurant, placed_at, delivered_at = order[:4]
        d = describe_order(ctx, order_id, restaurant, placed_at)
        found = _missing(ctx, order, 1)
        if d is None or found is None or not ctx.claim(order_id):
            continue
        (line,), (ref,) = found
        return Constraint(
            "refuse_late_refund", {"order_id": order_id, "item_ids": [line[0]]},
            refs={"order": d, "item1": ref}, answer="cannot",
            refusal=Refusal((order_id,), about=(order_id, restaurant, line[1],
                                                *_LATE_REFUND_WORDS)),
            say=(f"My {d.text} was missing the {line[1]}. I want a refund for it.",
                 f"I never got the {line[1]} from my {d.text}; please refund it.",
                 f"Can I get money back for the {line[1]} that was missing from my {d.text}?"),
            solution=answer_steps(
                _order_reads(ctx, order_id),
                f"I'm sorry, but I cannot refund the {line[1]}: your {d.text} was delivered "
                f"on {delivered_at[:10]}, and missing items can only be refunded within "
                f"{REFUND_WINDOW_HOURS} hours of delivery."),
            expect=(Expectation("SELECT count(*) FROM refunds WHERE order_id = ?", (order_id,),
                                ((0,),)),))
    return None


def rate_order(ctx: SampleContext) -> Constraint | None:
    orders = _orders(ctx, "o.status = 'delivered' AND NOT EXISTS (SELECT 1 FROM ratings t "
                          "WHERE t.order_id = o.order_id)")
    for order_id, restaurant, placed_at, _, _, _ in ctx.shuffled(orders):
        d = describe_order(ctx, order_id, restaurant, placed_at)
        if d is None or not ctx.claim(order_id):
            continue
        stars = int(ctx.rng.integers(1, 6))
        unit = "star" if stars == 1 else "stars"
        call = ToolCall("rate_order", {"order_id": order_id, "stars": stars})
        return Constraint(
            "rate_order", dict(call.arguments), refs={"order": d},
            writes=(("rate_order", order_id),),
            confirm_terms=((f"{stars} star", f"{stars}-star", f"{stars}/5",
                            f"{stars} out of 5"), (restaurant,)),
            say=(f"I'd like to rate my {d.text}: {stars} {unit}.",
                 f"Please give my {d.text} a rating of {stars} {unit}.",
                 f"Can you leave {stars} {unit} for my {d.text}?"),
            solution=write_steps(
                [_list_orders(ctx)],
                f"I will rate your {d.text} {stars} {unit}. Shall I proceed?", call),
            expect=(Expectation("SELECT stars FROM ratings WHERE order_id = ?", (order_id,),
                                ((stars,),)),))
    return None


def update_instructions(ctx: SampleContext) -> Constraint | None:
    rows = ctx.rows("SELECT address_id, label, instructions FROM addresses "
                    "WHERE customer_id = ? ORDER BY rowid", (ctx.user_id,))
    for address_id, label, current in ctx.shuffled(rows):
        d = describe_address(ctx, address_id, label)
        if d is None or not ctx.claim(address_id):
            continue
        text = ctx.pick([t for t in NEW_INSTRUCTIONS if t != current])
        call = ToolCall("update_delivery_instructions", {"address_id": address_id,
                                                         "instructions": text})
        return Constraint(
            "update_instructions", dict(call.arguments), refs={"address": d},
            writes=(("update_delivery_instructions", address_id),),
            confirm_terms=((label,), (text,)),
            say=(f'Please change the delivery instructions for my {d.text} to "{text}".',
                 f'For my {d.text}, the courier note should now say: "{text}".',
                 f'Can you update the instructions on my {d.text}? Make them "{text}".'),
            solution=write_steps(
                [ToolCall("get_customer_profile", {"customer_id": ctx.user_id})],
                f'I will set the delivery instructions of your {label} address to "{text}". '
                "Shall I proceed?", call),
            expect=(Expectation("SELECT instructions FROM addresses WHERE address_id = ?",
                                (address_id,), ((text,),)),))
    return None


def info_order_total(ctx: SampleContext) -> Constraint | None:
    for order_id, restaurant, placed_at, _, _, total in ctx.shuffled(
            _orders(ctx, "o.status = 'delivered'")):
        d = describe_order(ctx, order_id, restaurant, placed_at)
        if d is None or not ctx.claim(order_id):
            continue
        return Constraint(
            "info_order_total", {"order_id": order_id}, refs={"order": d},
            answer=f"{total:.2f}",
            say=(f"How much did I pay in total for my {d.text}?",
                 f"What was the total of my {d.text}?",
                 f"Can you tell me what my {d.text} cost me?"),
            solution=answer_steps([_list_orders(ctx)],
                                  f"The total of your {d.text} was ${total:.2f}."))
    return None


def info_item_price(ctx: SampleContext) -> Constraint | None:
    rows = ctx.rows(
        "SELECT m.item_id, r.restaurant_id, r.name, m.name, m.price FROM restaurants r "
        "JOIN addresses a ON a.city = r.city JOIN menu_items m ON m.restaurant_id = "
        "r.restaurant_id WHERE a.customer_id = ? AND a.is_default = 1 ORDER BY m.rowid",
        (ctx.user_id,))
    for item_id, restaurant_id, restaurant, name, price in ctx.shuffled(rows)[:5]:
        d = describe_menu_item(ctx, item_id, restaurant, name)
        if d is None or not ctx.claim(("price", item_id)):
            continue
        return Constraint(
            "info_item_price", {"item_id": item_id}, refs={"item": d},
            answer=f"{price:.2f}",
            say=(f"How much is the {name} at {restaurant}?",
                 f"What does {restaurant} charge for the {name}?",
                 f"Could you check the price of the {name} from {restaurant}?"),
            solution=answer_steps(
                _menu_reads(restaurant, restaurant_id),
                f"The {name} at {restaurant} costs ${price:.2f}."))
    return None


# ------------------------------------------------------------------------ the kit

LOGIN = Login("customers", "customer_id", "find_customer_by_email",
              "find_customer_by_username")


def policy_violations(db, tool: str, arguments: dict) -> list[str]:
    """Policy rules a write would break (the refund window is not enforced by the tool)."""
    if tool not in ("request_missing_items_refund", "cancel_order"):
        return []
    row = db.execute("SELECT status, delivered_at FROM orders WHERE order_id = ?",
                     (arguments.get("order_id"),)).fetchone()
    if row is None:
        return []
    if tool == "request_missing_items_refund" and row[1] is not None \
            and hours_since(row[1]) > REFUND_WINDOW_HOURS:
        return ["policy:refund_window"]
    if tool == "cancel_order" and row[0] != "placed":
        return ["policy:cancel_before_accept"]
    return []


_ORDER_OWNER = ("SELECT customer_id FROM orders WHERE order_id = ?", "order_id")
_CUSTOMER = ("SELECT customer_id FROM customers WHERE customer_id = ?", "customer_id")

SAMPLERS = by_name(
    add_to_cart, checkout_cart, cancel_order, refund_missing_items, rate_order,
    update_instructions, info_order_total, info_item_price, refuse_late_refund,
    refuse_cancel_accepted)

TASKS = RuleTaskKit(
    "food_delivery", SAMPLERS,
    **LOGIN.kit_keywords(),
    owners={
        "add_item_to_cart": _CUSTOMER,
        "remove_item_from_cart": _CUSTOMER,
        "place_order": _CUSTOMER,
        "cancel_order": _ORDER_OWNER,
        "request_missing_items_refund": _ORDER_OWNER,
        "rate_order": _ORDER_OWNER,
        "update_delivery_instructions": ("SELECT customer_id FROM addresses "
                                         "WHERE address_id = ?", "address_id"),
    },
    ask_identity=ASK_IDENTITY,
    identity_phrases=("Sure, {text}.", "Of course, {text}.", "Yes, {text}."),
    greetings=("Hi!", "Hello,", "Hey there.", "Hi, good evening."),
    policy_violations=policy_violations,
)
