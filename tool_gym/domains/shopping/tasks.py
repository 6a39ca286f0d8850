"""Hidden-intent tasks of the shopping domain (customers' carts, orders, returns, reviews,
wishlists and addresses): the constraint samplers and ``TASKS``, the domain's
:class:`~tool_gym.core.taskkit.RuleTaskKit`.

Descriptions: an order by the day it was placed or by a product in it, a product by its
name, an address by its label, a payment method by brand and last four digits, a return by
its product. Samplers claim what they touch (the cart, an order, a product), so the needs of
one task never interfere.

Constraint types: ``checkout_cart``, ``cancel_order``, ``request_return``, ``write_review``,
``add_to_wishlist``, ``move_wishlist_to_cart``, ``set_default_address`` (writes);
``info_order_total``, ``info_delivery_date``, ``info_refund_amount``, ``info_cart_total``
(answers); ``refuse_cancel_shipped`` (an order that has shipped) and
``refuse_late_return`` (a return after the 30-day window) are refusals: nothing may
change.
"""

from __future__ import annotations

from datetime import date, timedelta

from ...core.actions import ToolCall
from ...core.sampler_parts import (Login, by_name, describe_address, describe_any,
                                   describe_payment)
from ...core.taskkit import (RuleTaskKit, SampleContext, answer_steps, date_words, join_words,
                             write_steps)
from ...core.task_model import Constraint, Description, Expectation, Refusal
from .tools import (RETURN_WINDOW_DAYS, TODAY, cents_of, days_since, order_amounts,
                    refund_amount, return_deadline)

#: Words that name why the request is refused (any one addresses it; see ``Refusal.about``).
_SHIPPED_WORDS = (
    "shipped", "already shipped", "has shipped", "on its way", "on the way", "in transit",
    "dispatched", "processed", "left the warehouse", "not yet shipped", "before it ships",
    "before shipping", ("cancel", "delivered"), ("already", "delivered"))
_LATE_WORDS = (
    "30 days", "30-day", "thirty days", "window", "return window", "too late", "expired",
    "days ago", "deadline", "time limit", "return period")

ASK_IDENTITY = ("I'd be glad to help. First, to verify your account, could you tell me the "
                "email address or the username of your store account?")
REASON_WORDS = {
    "damaged": ("it arrived damaged", "it showed up broken in the box"),
    "defective": ("it stopped working after a few days", "it doesn't work properly"),
    "wrong_item": ("you sent me the wrong item", "what arrived isn't what I ordered"),
    "not_as_described": ("it's nothing like the description", "it doesn't match the listing"),
    "no_longer_needed": ("I don't need it anymore", "I changed my mind about it"),
}
CANCEL_WORDS = ("I ordered it by mistake", "I found it cheaper elsewhere",
                "I don't need it anymore")
TITLES = {1: ("Fell apart quickly", "Would not recommend"),
          2: ("Not great", "Disappointing"),
          3: ("Decent for the price", "Okay overall"),
          4: ("Really good", "Happy with it"),
          5: ("Absolutely love it", "Best purchase this year")}


def cents_terms(amount: float) -> tuple[str, ...]:
    """The ways an agent's message may write ``amount``, always with its cents."""
    return tuple(dict.fromkeys((f"{amount:.2f}", f"{amount:,.2f}")))


def _upper(text: str) -> str:
    return text[0].upper() + text[1:]


# ------------------------------------------------------------------ descriptions

_ORDER_BY_DAY = ("SELECT order_id FROM orders WHERE customer_id = ? "
                 "AND substr(placed_at, 1, 10) = ?")
_ORDER_BY_PRODUCT = ("SELECT DISTINCT o.order_id FROM orders o JOIN order_items i "
                     "ON i.order_id = o.order_id WHERE o.customer_id = ? AND i.name = ?")
_ORDER_BY_BOTH = _ORDER_BY_PRODUCT + " AND substr(o.placed_at, 1, 10) = ?"


def _names(ctx: SampleContext, order_id: str) -> list[str]:
    return [n for (n,) in ctx.rows("SELECT name FROM order_items WHERE order_id = ? "
                                   "ORDER BY line", (order_id,))]


def describe_order(ctx: SampleContext, order_id: str, placed_at: str) -> Description | None:
    """An order by the day it was placed or by one of its products."""
    day = placed_at[:10]
    options = [(f"order from {date_words(day)}", {"date": day}, _ORDER_BY_DAY,
                (ctx.user_id, day))]
    options += [(f"order with the {name}", {"product": name}, _ORDER_BY_PRODUCT,
                 (ctx.user_id, name)) for name in _names(ctx, order_id)]
    return describe_any(ctx, "order", order_id, options)


def describe_purchase(ctx: SampleContext, order_id: str, name: str,
                      placed_at: str) -> Description | None:
    """The order of one product bought on a day: ``the <product> I ordered on <day>``."""
    day = placed_at[:10]
    return ctx.describe("order", f"{name} I ordered on {date_words(day)}",
                        {"product": name, "date": day}, order_id, _ORDER_BY_BOTH,
                        (ctx.user_id, name, day))


def describe_product(ctx: SampleContext, product_id: str, name: str) -> Description | None:
    return ctx.describe("product", name, {"name": name}, product_id,
                        "SELECT product_id FROM products WHERE name = ?", (name,))


def describe_return(ctx: SampleContext, return_id: str, name: str) -> Description | None:
    return ctx.describe(
        "return", f"return of the {name}", {"product": name}, return_id,
        "SELECT r.return_id FROM returns r JOIN order_items i ON i.order_id = r.order_id "
        "AND i.line = r.line WHERE r.customer_id = ? AND i.name = ?", (ctx.user_id, name))


# ------------------------------------------------------------------------ reads

def _call(tool: str, ctx: SampleContext) -> ToolCall:
    return ToolCall(tool, {"customer_id": ctx.user_id})


def _order_reads(ctx: SampleContext, order_id: str) -> list[ToolCall]:
    return [_call("list_orders", ctx), ToolCall("get_order", {"order_id": order_id})]


def _product_reads(name: str) -> list[ToolCall]:
    return [ToolCall("search_products", {"query": name})]


def _orders(ctx: SampleContext, where: str, params: tuple = ()) -> list[tuple]:
    """``(order_id, status, placed_at, delivered_at, total)`` of the user's orders."""
    return ctx.rows("SELECT order_id, status, placed_at, delivered_at, total FROM orders "
                    f"WHERE customer_id = ? AND {where} ORDER BY rowid", (ctx.user_id, *params))


def _delivered_lines(ctx: SampleContext, newest: int, oldest: int) -> list[tuple]:
    """``(order_id, line, product_id, name, unit_price, quantity, placed_at, delivered_at,
    subtotal, discount)`` of delivered lines not returned, delivered ``newest`` to ``oldest``
    days ago."""
    today = date.fromisoformat(TODAY)
    return ctx.rows(
        "SELECT o.order_id, i.line, i.product_id, i.name, i.unit_price, i.quantity, "
        "o.placed_at, o.delivered_at, o.subtotal, o.discount FROM orders o JOIN order_items i "
        "ON i.order_id = o.order_id WHERE o.customer_id = ? AND o.status = 'delivered' "
        "AND substr(o.delivered_at, 1, 10) <= ? AND substr(o.delivered_at, 1, 10) >= ? "
        "AND NOT EXISTS (SELECT 1 FROM returns r WHERE r.order_id = o.order_id "
        "AND r.line = i.line) ORDER BY o.rowid, i.line",
        (ctx.user_id, (today - timedelta(days=newest)).isoformat(),
         (today - timedelta(days=oldest)).isoformat()))


# ----------------------------------------------------------------------- samplers

def checkout_cart(ctx: SampleContext) -> Constraint | None:
    cart = ctx.rows("SELECT c.product_id, p.name, p.price, p.stock, p.status, c.quantity "
                    "FROM cart_items c JOIN products p ON p.product_id = c.product_id "
                    "WHERE c.customer_id = ? ORDER BY c.rowid", (ctx.user_id,))
    if not cart or any(r[4] != "active" or r[3] < r[5] for r in cart):
        return None
    (tier,), = ctx.rows("SELECT tier FROM customers WHERE customer_id = ?", (ctx.user_id,))
    prices = [(r[2], r[5]) for r in cart]
    subtotal = order_amounts(prices, None, tier)[0]
    addresses = ctx.rows("SELECT address_id, label, street FROM addresses "
                         "WHERE customer_id = ? ORDER BY rowid", (ctx.user_id,))
    if not ctx.claim(("cart", ctx.user_id)):
        return None
    address_id, label, street = ctx.pick(addresses)
    coupon = None
    if ctx.rng.random() < 0.5:
        coupons = [c for c in ctx.rows(
            "SELECT code, kind, value FROM coupons WHERE (customer_id IS NULL OR "
            "customer_id = ?) AND expires_on >= ? AND min_subtotal * 100 <= ? ORDER BY code",
            (ctx.user_id, TODAY, cents_of(subtotal))) if not ctx.rows(
            "SELECT 1 FROM orders WHERE customer_id = ? AND coupon_code = ? "
            "AND status != 'cancelled'", (ctx.user_id, c[0]))]
        coupon = ctx.pick(coupons) if coupons else None
    _, discount, shipping, total = order_amounts(
        prices, (coupon[1], coupon[2]) if coupon else None, tier)
    methods = [m for m in ctx.rows(
        "SELECT payment_method_id, kind, brand, last4, balance FROM payment_methods "
        "WHERE customer_id = ? ORDER BY rowid", (ctx.user_id,))
        if m[1] != "gift_card" or cents_of(m[4]) >= cents_of(total)]
    method_id, kind, brand, last4, _ = ctx.pick(methods)
    a = describe_address(ctx, address_id, label)
    p = describe_payment(ctx, method_id, kind, brand, last4)
    if a is None or p is None:
        return None
    code = coupon[0] if coupon else ""
    args = {"customer_id": ctx.user_id, "address_id": address_id,
            "payment_method_id": method_id}
    if coupon:
        args["coupon_code"] = code
    call = ToolCall("checkout", args)
    count = ("SELECT count(*) FROM orders WHERE customer_id = ? AND address_id = ? "
             "AND payment_method_id = ? AND total = ? AND coalesce(coupon_code, '') = ? "
             "AND status = 'placed'")
    params = (ctx.user_id, address_id, method_id, total, code)
    (before,), = ctx.rows(count, params)
    items = join_words([f"{r[5]} x {r[1]}" for r in cart])
    with_code = f" Please use my coupon {code}." if coupon else ""
    return Constraint(
        "checkout_cart", dict(args), refs={"address": a, "payment_method": p},
        writes=(("checkout", ctx.user_id),),
        confirm_terms=((label,), (last4 or brand,), cents_terms(total))
        + (((code,),) if coupon else ()),
        say=(f"I'm ready to buy what's in my cart. Ship it to my {a.text} and charge my "
             f"{p.text}.{with_code}",
             f"Please check out my cart: send it to my {a.text}, paid with my {p.text}."
             f"{with_code}",
             f"Can you place the order for everything in my cart? Deliver it to my {a.text} "
             f"and pay with my {p.text}.{with_code}"),
        solution=write_steps(
            [_call("get_cart", ctx), _call("list_addresses", ctx),
             _call("list_payment_methods", ctx)]
            + ([_call("list_coupons", ctx)] if coupon else []),
            f"I will order {items}, shipped to your {label} address at {street} and paid with "
            f"your {p.text}" + (f", with coupon {code} (discount ${discount:.2f})"
                                if coupon else "")
            + f"; shipping is ${shipping:.2f} and the total is ${total:.2f}. Shall I proceed?",
            call),
        expect=(Expectation(count, params, ((before + 1,),)),
                Expectation("SELECT count(*) FROM cart_items WHERE customer_id = ?",
                            (ctx.user_id,), ((0,),))))


def cancel_order(ctx: SampleContext) -> Constraint | None:
    for order_id, _, placed_at, _, total in ctx.shuffled(_orders(ctx, "status = 'placed'")):
        d = describe_order(ctx, order_id, placed_at)
        if d is None or not ctx.claim(order_id):
            continue
        reason = ctx.pick(CANCEL_WORDS)
        call = ToolCall("cancel_order", {"order_id": order_id, "reason": reason})
        key = (d.fields["product"],) if "product" in d.fields else (
            d.fields["date"], date_words(d.fields["date"]))
        return Constraint(
            "cancel_order", {"order_id": order_id}, refs={"order": d},
            writes=(("cancel_order", order_id),),
            confirm_terms=(("cancel",), (order_id, *key)),
            say=(f"Please cancel my {d.text}; {reason}.",
                 f"I need to cancel the {d.text}, {reason}.",
                 f"Can you cancel my {d.text}? {_upper(reason)}."),
            solution=write_steps(
                [_call("list_orders", ctx)],
                f"Your {d.text} (total ${total:.2f}) has not shipped yet, so I can cancel "
                "it. Shall I proceed?", call),
            expect=(Expectation("SELECT status FROM orders WHERE order_id = ?", (order_id,),
                                (("cancelled",),)),))
    return None


def refuse_cancel_shipped(ctx: SampleContext) -> Constraint | None:
    rows = _orders(ctx, "status IN ('shipped', 'delivered')")
    for order_id, status, placed_at, delivered_at, _ in ctx.shuffled(rows):
        d = describe_order(ctx, order_id, placed_at)
        if d is None or not ctx.claim(order_id):
            continue
        names = _names(ctx, order_id)
        state = ("has already shipped and is on its way" if status == "shipped" else
                 f"was already delivered on {delivered_at[:10]}")
        after = ("Once it is delivered, you can return its items instead."
                 if status == "shipped" else "You can ask to return its items instead.")
        return Constraint(
            "refuse_cancel_shipped", {"order_id": order_id}, refs={"order": d},
            answer="cannot",
            refusal=Refusal((order_id,), about=(order_id, *names, *_SHIPPED_WORDS)),
            say=(f"Please cancel my {d.text}, I don't want it anymore.",
                 f"I changed my mind about the {d.text}. Cancel it, please.",
                 f"Can you cancel my {d.text}?"),
            solution=answer_steps(
                [_call("list_orders", ctx)],
                f"I'm sorry, but I cannot cancel your {d.text}: it {state}, and only an order "
                f"that has not shipped yet can be cancelled. {after}"),
            expect=(Expectation("SELECT status FROM orders WHERE order_id = ?", (order_id,),
                                ((status,),)),))
    return None


def request_return(ctx: SampleContext) -> Constraint | None:
    for row in ctx.shuffled(_delivered_lines(ctx, 0, RETURN_WINDOW_DAYS - 5)):
        order_id, line, product_id, name, price, ordered, placed_at, _, subtotal, discount = row
        d = describe_purchase(ctx, order_id, name, placed_at)
        p = describe_product(ctx, product_id, name)
        if d is None or p is None or not ctx.claim(order_id):
            continue
        quantity = ordered if ordered == 1 or ctx.rng.random() < 0.5 else 1
        reason = ctx.pick(tuple(REASON_WORDS))
        first, second = REASON_WORDS[reason]
        credit = bool(ctx.rng.random() < 0.35)
        refund_to = "store_credit" if credit else "original_payment"
        amount = refund_amount(price, quantity, subtotal, discount)
        units = ("" if ordered == 1 else " (both of them)" if quantity == 2 == ordered else
                 f" (all {ordered} of them)" if quantity == ordered else
                 f" (just one of the {ordered})")
        where = "as store credit" if credit else "to my original payment method"
        call = ToolCall("request_return", {"order_id": order_id, "product_id": product_id,
                                           "quantity": quantity, "reason": reason,
                                           "refund_to": refund_to})
        return Constraint(
            "request_return", dict(call.arguments), refs={"order": d, "product": p},
            writes=(("request_return", order_id),),
            confirm_terms=(("return",), (name,), cents_terms(amount),
                           ("store credit",) if credit else ("original",)),
            say=(f"I want to return the {d.text}{units}: {first}. I'd like the refund "
                 f"{where}.",
                 f"The {d.text} has to go back{units}, because {second}. Please refund me "
                 f"{where}.",
                 f"Please start a return for the {d.text}{units}. {_upper(first)}. The "
                 f"money should come back {where}."),
            solution=write_steps(
                _order_reads(ctx, order_id),
                f"I will start a return of {quantity} x {name} from your order of "
                f"{d.fields['date']} (reason: {reason}); the refund of ${amount:.2f} goes "
                + ("to your store credit" if credit else "to your original payment method")
                + " once the item arrives. Shall I proceed?", call),
            expect=(Expectation("SELECT quantity, reason, refund_to, refund_amount, status "
                                "FROM returns WHERE order_id = ? AND line = ?",
                                (order_id, line),
                                ((quantity, reason, refund_to, amount, "pending"),)),))
    return None


def refuse_late_return(ctx: SampleContext) -> Constraint | None:
    for row in ctx.shuffled(_delivered_lines(ctx, RETURN_WINDOW_DAYS + 5, 400)):
        order_id, line, product_id, name, _, _, placed_at, delivered_at, _, _ = row
        d = describe_purchase(ctx, order_id, name, placed_at)
        p = describe_product(ctx, product_id, name)
        if d is None or p is None or not ctx.claim(order_id):
            continue
        reason = ctx.pick(tuple(REASON_WORDS))
        first, _ = REASON_WORDS[reason]
        return Constraint(
            "refuse_late_return", {"order_id": order_id, "product_id": product_id},
            refs={"order": d, "product": p}, answer="cannot",
            refusal=Refusal((order_id,), about=(order_id, name, *_LATE_WORDS)),
            say=(f"I want to return the {d.text}; {first}.",
                 f"Please start a return for the {d.text} and refund me. {_upper(first)}.",
                 f"Can I send back the {d.text}? {_upper(first)}."),
            solution=answer_steps(
                _order_reads(ctx, order_id),
                f"I'm sorry, but I cannot start a return for the {name}: the order was "
                f"delivered on {delivered_at[:10]}, {days_since(delivered_at)} days ago, and "
                f"returns are accepted only within {RETURN_WINDOW_DAYS} days of delivery "
                f"(the window ended on {return_deadline(delivered_at)})."),
            expect=(Expectation("SELECT count(*) FROM returns WHERE order_id = ? AND line = ?",
                                (order_id, line), ((0,),)),))
    return None


def write_review(ctx: SampleContext) -> Constraint | None:
    rows = ctx.rows(
        "SELECT DISTINCT i.product_id, i.name FROM orders o JOIN order_items i "
        "ON i.order_id = o.order_id WHERE o.customer_id = ? AND o.status = 'delivered' "
        "AND NOT EXISTS (SELECT 1 FROM reviews v WHERE v.customer_id = o.customer_id "
        "AND v.product_id = i.product_id) ORDER BY i.product_id", (ctx.user_id,))
    for product_id, name in ctx.shuffled(rows):
        p = describe_product(ctx, product_id, name)
        if p is None or not ctx.claim(("review", product_id)):
            continue
        rating = int(ctx.rng.integers(1, 6))
        title = ctx.pick(TITLES[rating])
        stars = "1 star" if rating == 1 else f"{rating} stars"
        call = ToolCall("write_review", {"customer_id": ctx.user_id, "product_id": product_id,
                                         "rating": rating, "title": title})
        return Constraint(
            "write_review", dict(call.arguments), refs={"product": p},
            writes=(("write_review", ctx.user_id),),
            confirm_terms=((f"{rating} star", f"{rating}-star", f"{rating}/5",
                            f"{rating} out of 5"), (name,), (title,)),
            say=(f'I\'d like to review the {name} I bought: {stars}, titled "{title}".',
                 f'Please post a {stars} review of my {name} with the title "{title}".',
                 f'Can you leave a review for the {name} for me? {_upper(stars)}, and the '
                 f'title should be "{title}".'),
            solution=write_steps(
                _product_reads(name),
                f'I will post a {rating}-star review of the {name} titled "{title}". Shall I '
                "proceed?", call),
            expect=(Expectation("SELECT rating, title FROM reviews WHERE customer_id = ? "
                                "AND product_id = ?", (ctx.user_id, product_id),
                                ((rating, title),)),))
    return None


def add_to_wishlist(ctx: SampleContext) -> Constraint | None:
    rows = ctx.rows("SELECT product_id, name, category FROM products p WHERE status = 'active' "
                    "AND NOT EXISTS (SELECT 1 FROM wishlist_items w WHERE w.customer_id = ? "
                    "AND w.product_id = p.product_id) ORDER BY rowid", (ctx.user_id,))
    for product_id, name, _ in ctx.shuffled(rows)[:5]:
        p = describe_product(ctx, product_id, name)
        if p is None or not ctx.claim(product_id):
            continue
        call = ToolCall("add_to_wishlist", {"customer_id": ctx.user_id,
                                            "product_id": product_id})
        return Constraint(
            "add_to_wishlist", dict(call.arguments), refs={"product": p},
            writes=(("add_to_wishlist", ctx.user_id),),
            confirm_terms=(("wishlist", "wish list"), (name,)),
            say=(f"Please save the {name} to my wishlist.",
                 f"Could you add the {name} to my wish list? I'll buy it later.",
                 f"I'd like to keep the {name} on my wishlist for now."),
            solution=write_steps(
                _product_reads(name),
                f"I will add the {name} to your wishlist. Shall I proceed?", call),
            expect=(Expectation("SELECT count(*) FROM wishlist_items WHERE customer_id = ? "
                                "AND product_id = ?", (ctx.user_id, product_id), ((1,),)),))
    return None


def move_wishlist_to_cart(ctx: SampleContext) -> Constraint | None:
    rows = ctx.rows(
        "SELECT w.product_id, p.name, p.price, p.stock, coalesce(c.quantity, 0) "
        "FROM wishlist_items w JOIN products p ON p.product_id = w.product_id "
        "LEFT JOIN cart_items c ON c.customer_id = w.customer_id "
        "AND c.product_id = w.product_id WHERE w.customer_id = ? AND p.status = 'active' "
        "AND p.stock > coalesce(c.quantity, 0) AND coalesce(c.quantity, 0) < 10 "
        "ORDER BY w.rowid", (ctx.user_id,))
    (lines,), = ctx.rows("SELECT count(*) FROM cart_items WHERE customer_id = ?",
                         (ctx.user_id,))
    for product_id, name, price, _, before in ctx.shuffled(rows):
        p = describe_product(ctx, product_id, name)
        if p is None or (before == 0 and lines >= 20) or \
                not ctx.claim(product_id, ("cart", ctx.user_id)):
            continue
        call = ToolCall("move_wishlist_item_to_cart", {"customer_id": ctx.user_id,
                                                       "product_id": product_id})
        return Constraint(
            "move_wishlist_to_cart", dict(call.arguments), refs={"product": p},
            writes=(("move_wishlist_item_to_cart", ctx.user_id),),
            confirm_terms=(("cart",), (name,)),
            say=(f"Please move the {name} from my wishlist into my cart.",
                 f"I've decided to buy the {name} on my wishlist. Can you put it in my cart?",
                 f"Could you take the {name} off my wish list and add it to my cart?"),
            solution=write_steps(
                [_call("get_wishlist", ctx)],
                f"I will move the {name} (${price:.2f}) from your wishlist to your cart. Shall I "
                "proceed?", call),
            expect=(Expectation("SELECT count(*) FROM wishlist_items WHERE customer_id = ? "
                                "AND product_id = ?", (ctx.user_id, product_id), ((0,),)),
                    Expectation("SELECT quantity FROM cart_items WHERE customer_id = ? "
                                "AND product_id = ?", (ctx.user_id, product_id),
                                ((before + 1,),))))
    return None


def set_default_address(ctx: SampleContext) -> Constraint | None:
    rows = ctx.rows("SELECT address_id, label, street, city FROM addresses "
                    "WHERE customer_id = ? AND is_default = 0 ORDER BY rowid", (ctx.user_id,))
    for address_id, label, street, city in ctx.shuffled(rows):
        a = describe_address(ctx, address_id, label)
        if a is None or not ctx.claim(("default_address", ctx.user_id)):
            continue
        call = ToolCall("set_default_address", {"customer_id": ctx.user_id,
                                                "address_id": address_id})
        return Constraint(
            "set_default_address", dict(call.arguments), refs={"address": a},
            writes=(("set_default_address", ctx.user_id),),
            confirm_terms=(("default",), (label, street)),
            say=(f"Please make my {a.text} the default for shipping.",
                 f"From now on I want my orders to go to my {a.text} by default.",
                 f"Can you set my {a.text} as my default shipping address?"),
            solution=write_steps(
                [_call("list_addresses", ctx)],
                f"I will make your {label} address ({street}, {city}) your default shipping "
                "address. Shall I proceed?", call),
            expect=(Expectation("SELECT address_id FROM addresses WHERE customer_id = ? "
                                "AND is_default = 1", (ctx.user_id,), ((address_id,),)),))
    return None


def info_order_total(ctx: SampleContext) -> Constraint | None:
    for order_id, _, placed_at, _, total in ctx.shuffled(
            _orders(ctx, "status != 'cancelled'")):
        d = describe_order(ctx, order_id, placed_at)
        if d is None or not ctx.claim(order_id):
            continue
        return Constraint(
            "info_order_total", {"order_id": order_id}, refs={"order": d},
            answer=f"{total:.2f}",
            say=(f"How much did I pay in total for my {d.text}?",
                 f"What was the total of my {d.text}?",
                 f"Can you tell me what my {d.text} cost me, all in?"),
            solution=answer_steps([_call("list_orders", ctx)],
                                  f"The total of your {d.text} was ${total:.2f}."))
    return None


def info_delivery_date(ctx: SampleContext) -> Constraint | None:
    for order_id, _, placed_at, delivered_at, _ in ctx.shuffled(
            _orders(ctx, "status = 'delivered'")):
        d = describe_order(ctx, order_id, placed_at)
        if d is None or "date" in d.fields or not ctx.claim(order_id):
            continue
        day = delivered_at[:10]
        return Constraint(
            "info_delivery_date", {"order_id": order_id}, refs={"order": d}, answer=day,
            say=(f"On what day was my {d.text} delivered?",
                 f"When did my {d.text} arrive?",
                 f"Could you check the delivery date of my {d.text}?"),
            solution=answer_steps(_order_reads(ctx, order_id),
                                  f"Your {d.text} was delivered on {day}."))
    return None


def info_refund_amount(ctx: SampleContext) -> Constraint | None:
    rows = ctx.rows("SELECT r.return_id, r.order_id, i.name, r.refund_amount FROM returns r "
                    "JOIN order_items i ON i.order_id = r.order_id AND i.line = r.line "
                    "WHERE r.customer_id = ? AND r.status != 'rejected' ORDER BY r.rowid",
                    (ctx.user_id,))
    for return_id, order_id, name, amount in ctx.shuffled(rows):
        d = describe_return(ctx, return_id, name)
        if d is None or not ctx.claim(return_id, order_id):
            continue
        return Constraint(
            "info_refund_amount", {"return_id": return_id}, refs={"return": d},
            answer=f"{amount:.2f}",
            say=(f"How much money do I get back for my {d.text}?",
                 f"What's the refund amount on my {d.text}?",
                 f"Can you tell me how much my {d.text} refunds?"),
            solution=answer_steps([_call("list_returns", ctx)],
                                  f"The refund for your {d.text} is ${amount:.2f}."))
    return None


def info_cart_total(ctx: SampleContext) -> Constraint | None:
    cart = ctx.rows("SELECT p.price, c.quantity FROM cart_items c JOIN products p "
                    "ON p.product_id = c.product_id WHERE c.customer_id = ? ORDER BY c.rowid",
                    (ctx.user_id,))
    if not cart or not ctx.claim(("cart", ctx.user_id)):
        return None
    (tier, code), = ctx.rows("SELECT c.tier, k.coupon_code FROM customers c LEFT JOIN carts k "
                             "ON k.customer_id = c.customer_id WHERE c.customer_id = ?",
                             (ctx.user_id,))
    coupon = ctx.rows("SELECT kind, value FROM coupons WHERE code = ?", (code,))
    _, _, shipping, total = order_amounts([tuple(r) for r in cart],
                                          tuple(coupon[0]) if coupon else None, tier)
    return Constraint(
        "info_cart_total", {"customer_id": ctx.user_id}, answer=f"{total:.2f}",
        say=("What would my cart come to right now, shipping included?",
             "If I checked out my cart now, what would the total be?",
             "Can you tell me the total of everything in my cart, with shipping?"),
        solution=answer_steps([_call("get_cart", ctx)],
                              f"Your cart comes to ${total:.2f}, shipping (${shipping:.2f}) "
                              "included."))


# ------------------------------------------------------------------------ the kit

LOGIN = Login("customers", "customer_id", "find_customer_by_email",
              "find_customer_by_username")


def policy_violations(db, tool: str, arguments: dict) -> list[str]:
    """Policy rules a write would break (the return window is not enforced by the tool)."""
    if tool not in ("request_return", "cancel_order"):
        return []
    row = db.execute("SELECT status, delivered_at FROM orders WHERE order_id = ?",
                     (arguments.get("order_id"),)).fetchone()
    if row is None:
        return []
    if tool == "request_return" and row[1] is not None and \
            days_since(row[1]) > RETURN_WINDOW_DAYS:
        return ["policy:return_window"]
    if tool == "cancel_order" and row[0] != "placed":
        return ["policy:cancel_before_shipping"]
    return []


_CUSTOMER = ("SELECT customer_id FROM customers WHERE customer_id = ?", "customer_id")
_ORDER_OWNER = ("SELECT customer_id FROM orders WHERE order_id = ?", "order_id")

SAMPLERS = by_name(
    checkout_cart, cancel_order, request_return, write_review, add_to_wishlist,
    move_wishlist_to_cart, set_default_address, info_order_total, info_delivery_date,
    info_refund_amount, info_cart_total, refuse_cancel_shipped, refuse_late_return)

TASKS = RuleTaskKit(
    "shopping", SAMPLERS,
    **LOGIN.kit_keywords(),
    owners={
        **{tool: _CUSTOMER for tool in (
            "add_to_cart", "remove_from_cart", "apply_coupon", "remove_coupon", "checkout",
            "add_to_wishlist", "remove_from_wishlist", "move_wishlist_item_to_cart",
            "write_review", "add_address", "set_default_address")},
        "cancel_order": _ORDER_OWNER,
        "request_return": _ORDER_OWNER,
    },
    ask_identity=ASK_IDENTITY,
    identity_phrases=("Sure, {text}.", "Of course: {text}.", "Yes, {text}."),
    greetings=("Hi!", "Hello,", "Hi there.", "Good afternoon."),
    policy_violations=policy_violations,
)
