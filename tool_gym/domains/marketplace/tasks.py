"""Hidden-intent tasks of the marketplace domain: the constraint samplers and ``TASKS``, the
domain's :class:`~tool_gym.core.taskkit.RuleTaskKit`.

Descriptions proven unique: the member's own listing by its title, another member's listing
by its title and seller, an offer by its amount, buyer (or seller) and item, an order by its
item and the other party, a card by its brand and last four digits. Samplers claim what they
touch (a listing, an offer, an order), so the needs of one task never interfere.

Constraint types: ``create_listing``, ``edit_listing_price``, ``relist_listing``,
``close_listing``, ``make_offer``, ``accept_offer``, ``counter_offer``,
``decline_counter_offer``, ``buy_now``, ``cancel_order``, ``ship_order``,
``request_return``, ``leave_feedback``, ``save_search``, ``contact_seller`` (writes);
``info_counter_offer``, ``info_tracking_number``, ``info_sales_total`` (answers);
``cancel_processed_order`` (an order that already shipped) and ``refuse_late_refund`` (a
return after the 30-day window) (refusals: nothing may change).
"""

from __future__ import annotations

from ...core.actions import ToolCall
from ...core.proposals import Intent, Param
from ...core.sampler_parts import Login, by_name
from ...core.taskkit import (RuleTaskKit, SampleContext, answer_steps, date_words, dollars,
                             money_terms, write_steps)
from ...core.task_model import Constraint, Description, Expectation, Refusal
from .generate import ITEMS
from .tools import (FEEDBACK_WINDOW_DAYS, RETURN_WINDOW_DAYS, days_since, money,
                    shipping_rate)

ASK_IDENTITY = ("Before I can help, I need to verify your identity. Could you tell me the "
                "email address or the username of your marketplace account?")
CONDITION_WORDS = {"new": "brand new", "like_new": "like new", "good": "good",
                   "fair": "fair", "for_parts": "for parts only"}
#: Why a shipped order cannot be cancelled (any one addresses it; ``Refusal.about``).
_SHIPPED_WORDS = ("shipped", "delivered", "processed", "already", "on its way", "in transit",
                  "tracking", "not paid", "too late", "return")
_LATE_RETURN_WORDS = ("window", "return window", "30 days", "30-day", "too late", "late",
                      "expired", "past", "days ago", "more than", "ago", "days")
RETURN_REASONS = {
    "not_as_described": ("it's not as described in the listing",
                         "it doesn't match the description at all"),
    "damaged": ("it arrived damaged", "it came broken"),
    "wrong_item": ("they sent me the wrong item", "it's not the item I ordered"),
}
QUESTIONS = ("Is this still available?", "Would you ship it by Friday?",
             "Could you send a photo of the back?", "Does it come with the original box?",
             "Are there any scratches I should know about?")
COMMENTS = {"positive": ("Great seller, fast shipping!", "Exactly as described, thank you!",
                         "Smooth and friendly transaction."),
            "neutral": ("Item was fine, but shipping took a while.",),
            "negative": ("The item was not as described.",)}
LABELS = (("USPS", "priority"), ("USPS", "ground"), ("UPS", "ground"), ("FedEx", "express"),
          ("UPS", "priority"), ("FedEx", "ground"))
SEARCHES = (("vintage camera", 150.0), ("lego star wars", 200.0), ("nintendo switch", 250.0),
            ("air jordan", 120.0), ("acoustic guitar", 300.0), ("dutch oven", 0.0),
            ("pokemon card", 0.0), ("snowboard", 250.0), ("fleece", 60.0))


# ------------------------------------------------------------------ descriptions

def describe_own_listing(ctx: SampleContext, listing_id: str, title: str) -> Description | None:
    return ctx.describe("listing", f"\"{title}\" listing", {"title": title}, listing_id,
                        "SELECT listing_id FROM listings WHERE seller_id = ? AND title = ?",
                        (ctx.user_id, title))


def describe_other_listing(ctx: SampleContext, listing_id: str, title: str,
                           seller: str) -> Description | None:
    return ctx.describe(
        "listing", f"\"{title}\" listed by {seller}", {"title": title, "seller": seller},
        listing_id,
        "SELECT l.listing_id FROM listings l JOIN members m ON m.member_id = l.seller_id "
        "WHERE m.username = ? AND l.title = ? AND l.status = 'active'", (seller, title))


def describe_card(ctx: SampleContext, payment_method_id: str, brand: str,
                  last4: str) -> Description | None:
    return ctx.describe(
        "card", f"{brand} card ending in {last4}", {"brand": brand, "last4": last4},
        payment_method_id,
        "SELECT payment_method_id FROM payment_methods WHERE member_id = ? AND brand = ? "
        "AND last4 = ?", (ctx.user_id, brand, last4))


def describe_order(ctx: SampleContext, order_id: str, title: str, role: str,
                   other: str) -> Description | None:
    """An order by its item and the other party: ``"Canon AE-1" I bought from jdoe42``."""
    mine, theirs = ("buyer_id", "seller_id") if role == "buyer" else ("seller_id", "buyer_id")
    verb = "I bought from" if role == "buyer" else "I sold to"
    return ctx.describe(
        "order", f"\"{title}\" {verb} {other}", {"title": title, "role": role, "other": other},
        order_id,
        f"SELECT o.order_id FROM orders o JOIN listings l ON l.listing_id = o.listing_id "
        f"JOIN members m ON m.member_id = o.{theirs} WHERE o.{mine} = ? AND l.title = ? "
        "AND m.username = ?", (ctx.user_id, title, other))


def describe_offer(ctx: SampleContext, offer_id: str, amount: float, buyer: str,
                   title: str) -> Description | None:
    """An offer the member received: ``$80 offer from mike_t on my "Dyson V8"``."""
    return ctx.describe(
        "offer", f"{dollars(amount)} offer from {buyer} on my \"{title}\"",
        {"amount": amount, "buyer": buyer, "title": title}, offer_id,
        "SELECT o.offer_id FROM offers o JOIN listings l ON l.listing_id = o.listing_id "
        "JOIN members m ON m.member_id = o.buyer_id WHERE l.seller_id = ? AND l.title = ? "
        "AND m.username = ? AND o.amount = ? AND o.status IN ('pending', 'countered')",
        (ctx.user_id, title, buyer, amount))


def describe_made_offer(ctx: SampleContext, offer_id: str, title: str,
                        seller: str) -> Description | None:
    """An open offer the member made: ``my offer on "Dyson V8" from mike_t``."""
    return ctx.describe(
        "offer", f"offer I made on the \"{title}\" from {seller}",
        {"title": title, "seller": seller}, offer_id,
        "SELECT o.offer_id FROM offers o JOIN listings l ON l.listing_id = o.listing_id "
        "JOIN members m ON m.member_id = l.seller_id WHERE o.buyer_id = ? AND l.title = ? "
        "AND m.username = ? AND o.status IN ('pending', 'countered')",
        (ctx.user_id, title, seller))


# ----------------------------------------------------------------------- parts

def _lists(ctx: SampleContext, *tools: str) -> list[ToolCall]:
    return [ToolCall(tool, {"member_id": ctx.user_id}) for tool in tools]


def _my_listings(ctx: SampleContext, status: str) -> list[tuple]:
    return ctx.rows("SELECT listing_id, title, price, shipping_cost FROM listings "
                    "WHERE seller_id = ? AND status = ? ORDER BY rowid", (ctx.user_id, status))


def _cards(ctx: SampleContext) -> list[tuple]:
    return ctx.rows("SELECT payment_method_id, brand, last4 FROM payment_methods "
                    "WHERE member_id = ? AND status = 'active' ORDER BY rowid", (ctx.user_id,))


def _card_param(card: tuple, cards: list[tuple]) -> Param:
    return Param("card", (card[0], card[2]), tuple((c[0], c[2]) for c in cards
                                                   if c[0] != card[0]))


def _others_listings(ctx: SampleContext, draws: int = 60) -> list[tuple]:
    """Active listings of other members that the member has no open offer on, drawn at
    random (by rowid, no table scan), in a random order: ``(listing_id, title, price,
    shipping, seller username)``."""
    lo, hi = ctx.rows("SELECT min(rowid), max(rowid) FROM listings")[0]
    picks = sorted({int(x) for x in ctx.rng.integers(lo, hi + 1, size=draws)})
    offered = {r[0] for r in ctx.rows("SELECT listing_id FROM offers WHERE buyer_id = ? "
                                      "AND status IN ('pending', 'countered')", (ctx.user_id,))}
    rows = ctx.rows(
        "SELECT l.listing_id, l.title, l.price, l.shipping_cost, m.username FROM listings l "
        "JOIN members m ON m.member_id = l.seller_id WHERE l.status = 'active' "
        f"AND l.seller_id != ? AND l.rowid IN ({', '.join('?' * len(picks))}) "
        "ORDER BY l.rowid", (ctx.user_id, *picks))
    return ctx.shuffled([r for r in rows if r[0] not in offered])


def _search(title: str) -> ToolCall:
    return ToolCall("search_listings", {"query": title})


def _status(table: str, key: str, value: str, status: str) -> Expectation:
    return Expectation(f"SELECT status FROM {table} WHERE {key} = ?", (value,), ((status,),))


def _whole(value: float) -> float:
    return float(int(round(value)))


# ----------------------------------------------------------------- listings

def create_listing(ctx: SampleContext) -> Constraint | None:
    titles = {t for (t,) in ctx.rows("SELECT title FROM listings WHERE seller_id = ?",
                                     (ctx.user_id,))}
    options = [i for i in ITEMS if i[0] not in titles]
    if not options or not ctx.claim(("create_listing", ctx.user_id)):
        return None
    title, category, base, _ = ctx.pick(options)
    condition = ctx.pick(("new", "like_new", "good", "fair"))
    price = _whole(base * ctx.rng.uniform(0.6, 1.0))
    shipping = ctx.pick((0.0, 5.99, 8.99, 12.5))
    call = ToolCall("create_listing", {"seller_id": ctx.user_id, "title": title,
                                       "category": category, "condition": condition,
                                       "price": price, "shipping_cost": shipping})
    ship = "with free shipping" if not shipping else f"plus {dollars(shipping)} shipping"
    cond = CONDITION_WORDS[condition]
    return Constraint(
        "create_listing", dict(call.arguments), writes=(("create_listing", ctx.user_id),),
        confirm_terms=(("list",), (title,), money_terms(price)),
        say=(f"I want to sell my {title}. Please list it under {category}, in {cond} "
             f"condition, for {dollars(price)} {ship}.",
             f"Can you put my {title} up for sale? It's {cond}, category {category}, "
             f"{dollars(price)} {ship}.",
             f"Please create a listing for my {title} ({cond} condition, {category}) at "
             f"{dollars(price)} {ship}."),
        solution=write_steps(
            _lists(ctx, "list_my_listings"),
            f"I will list your {title} under {category} in {cond} condition for "
            f"${price:,.2f} {ship}. Shall I proceed?", call),
        expect=(Expectation("SELECT category, condition, price, shipping_cost, status "
                            "FROM listings WHERE seller_id = ? AND title = ?",
                            (ctx.user_id, title),
                            ((category, condition, price, shipping, "active"),)),))


def edit_listing_price(ctx: SampleContext) -> Constraint | None:
    for listing_id, title, price, _ in ctx.shuffled(_my_listings(ctx, "active")):
        d = describe_own_listing(ctx, listing_id, title)
        new = _whole(price * ctx.rng.uniform(0.75, 0.92))
        if d is None or new < 3 or new == price or not ctx.claim(listing_id):
            continue
        call = ToolCall("edit_listing", {"listing_id": listing_id, "price": new})
        return Constraint(
            "edit_listing_price", dict(call.arguments), refs={"listing": d},
            writes=(("edit_listing", listing_id),),
            confirm_terms=((title,), money_terms(new)),
            say=(f"Please lower the price of my {d.text} to {dollars(new)}.",
                 f"I'd like my {d.text} to cost {dollars(new)} from now on.",
                 f"Can you drop the asking price on my {d.text} to {dollars(new)}?"),
            solution=write_steps(
                _lists(ctx, "list_my_listings"),
                f"I will change the price of your \"{title}\" listing from ${price:,.2f} to "
                f"${new:,.2f}. Shall I proceed?", call),
            expect=(Expectation("SELECT price, status FROM listings WHERE listing_id = ?",
                                (listing_id,), ((new, "active"),)),))
    return None


def relist_listing(ctx: SampleContext) -> Constraint | None:
    for listing_id, title, price, _ in ctx.shuffled(_my_listings(ctx, "closed")):
        d = describe_own_listing(ctx, listing_id, title)
        if d is None or not ctx.claim(listing_id):
            continue
        new = _whole(price * ctx.rng.uniform(0.8, 0.95)) if ctx.rng.random() < 0.5 else 0.0
        if new and (new < 3 or new == price):
            new = 0.0
        call = ToolCall("relist_listing", {"listing_id": listing_id, "price": new})
        at = f" at {dollars(new)}" if new else ""
        final = new or price
        return Constraint(
            "relist_listing", dict(call.arguments), refs={"listing": d},
            writes=(("relist_listing", listing_id),),
            confirm_terms=(("relist", "list again", "put it back"), (title,),
                           money_terms(final)),
            say=(f"Please relist my {d.text}{at}; I still want to sell it.",
                 f"Can you put my {d.text} back on sale{at}?",
                 f"I ended my {d.text} too early. Please list it again{at}."),
            solution=write_steps(
                _lists(ctx, "list_my_listings"),
                f"I will relist your \"{title}\" listing at ${final:,.2f}. Shall I proceed?",
                call),
            expect=(Expectation("SELECT status, price FROM listings WHERE listing_id = ?",
                                (listing_id,), (("active", final),)),))
    return None


def close_listing(ctx: SampleContext) -> Constraint | None:
    for listing_id, title, _, _ in ctx.shuffled(_my_listings(ctx, "active")):
        d = describe_own_listing(ctx, listing_id, title)
        if d is None or not ctx.claim(listing_id):
            continue
        call = ToolCall("close_listing", {"listing_id": listing_id})
        return Constraint(
            "close_listing", dict(call.arguments), refs={"listing": d},
            writes=(("close_listing", listing_id),),
            confirm_terms=(("end", "close", "take down"), (title,)),
            say=(f"Please take down my {d.text}; I'm keeping the item.",
                 f"I'd like to end my {d.text}. It's no longer for sale.",
                 f"Can you close my {d.text}? I decided not to sell it."),
            solution=write_steps(
                _lists(ctx, "list_my_listings"),
                f"I will end your \"{title}\" listing, so it is no longer for sale, and "
                "decline any open offers on it. Shall I proceed?", call),
            expect=(_status("listings", "listing_id", listing_id, "closed"),))
    return None


# -------------------------------------------------------------------- buying

def make_offer(ctx: SampleContext) -> Constraint | None:
    cards = _cards(ctx)
    if not cards:
        return None
    for listing_id, title, price, _, seller in _others_listings(ctx):
        amount = _whole(price * ctx.rng.uniform(0.6, 0.9))
        if not price * 0.5 <= amount < price or not ctx.claim(listing_id):
            continue
        d = describe_other_listing(ctx, listing_id, title, seller)
        card = ctx.pick(cards)
        k = describe_card(ctx, card[0], card[1], card[2])
        if d is None or k is None:
            return None
        call = ToolCall("make_offer", {"buyer_id": ctx.user_id, "listing_id": listing_id,
                                       "amount": amount, "payment_method_id": card[0]})
        return Constraint(
            "make_offer", dict(call.arguments), refs={"listing": d, "card": k},
            writes=(("make_offer", ctx.user_id),),
            confirm_terms=(("offer",), money_terms(amount), (title,), (card[2],)),
            intent=Intent((Param("what", ("offer",)), Param("amount", money_terms(amount)),
                           Param("listing", (title, listing_id)), _card_param(card, cards))),
            say=(f"I'd like to offer {dollars(amount)} for the {d.text}, paying with my "
                 f"{k.text}.",
                 f"Please make an offer of {dollars(amount)} on the {d.text}; use my {k.text}.",
                 f"Can you send an offer of {dollars(amount)} for the {d.text}? Charge my "
                 f"{k.text} if they accept."),
            solution=write_steps(
                [_search(title)] + _lists(ctx, "list_payment_methods"),
                f"I will offer ${amount:,.2f} for the \"{title}\" listed by {seller} (asking "
                f"${price:,.2f}), charged to your {k.text} if the seller accepts. "
                "Shall I proceed?", call),
            expect=(Expectation("SELECT amount, payment_method_id, status FROM offers "
                                "WHERE listing_id = ? AND buyer_id = ? AND status = 'pending'",
                                (listing_id, ctx.user_id), ((amount, card[0], "pending"),)),))
    return None


def buy_now(ctx: SampleContext) -> Constraint | None:
    cards = _cards(ctx)
    if not cards:
        return None
    for listing_id, title, price, shipping, seller in _others_listings(ctx):
        if not ctx.claim(listing_id):
            continue
        d = describe_other_listing(ctx, listing_id, title, seller)
        card = ctx.pick(cards)
        k = describe_card(ctx, card[0], card[1], card[2])
        if d is None or k is None:
            return None
        total = money(price + shipping)
        call = ToolCall("buy_now", {"buyer_id": ctx.user_id, "listing_id": listing_id,
                                    "payment_method_id": card[0]})
        return Constraint(
            "buy_now", dict(call.arguments), refs={"listing": d, "card": k},
            writes=(("buy_now", ctx.user_id),),
            confirm_terms=(("buy", "purchase"), (title,), money_terms(total), (card[2],)),
            intent=Intent((Param("action", ("buy", "purchase")),
                           Param("listing", (title, listing_id)),
                           Param("total", money_terms(total)), _card_param(card, cards))),
            say=(f"I want to buy the {d.text} at the asking price, with my {k.text}.",
                 f"Please purchase the {d.text} for me right away; pay with my {k.text}.",
                 f"Can you buy the {d.text} now? Use my {k.text}."),
            solution=write_steps(
                [_search(title)] + _lists(ctx, "list_payment_methods"),
                f"I will buy the \"{title}\" from {seller} for ${price:,.2f} plus "
                f"${shipping:,.2f} shipping, ${total:,.2f} in total, charged to your "
                f"{k.text}. Shall I proceed?", call),
            expect=(_status("listings", "listing_id", listing_id, "sold"),
                    Expectation("SELECT item_price, total, payment_method_id FROM orders "
                                "WHERE listing_id = ? AND buyer_id = ? AND status = 'paid'",
                                (listing_id, ctx.user_id), ((price, total, card[0]),))))
    return None


def decline_counter_offer(ctx: SampleContext) -> Constraint | None:
    rows = ctx.rows("SELECT o.offer_id, l.title, m.username, o.counter_amount FROM offers o "
                    "JOIN listings l ON l.listing_id = o.listing_id JOIN members m "
                    "ON m.member_id = l.seller_id WHERE o.buyer_id = ? "
                    "AND o.status = 'countered' ORDER BY o.rowid", (ctx.user_id,))
    for offer_id, title, seller, counter in ctx.shuffled(rows):
        d = describe_made_offer(ctx, offer_id, title, seller)
        if d is None or not ctx.claim(offer_id):
            continue
        call = ToolCall("decline_offer", {"offer_id": offer_id, "member_id": ctx.user_id})
        return Constraint(
            "decline_counter_offer", dict(call.arguments), refs={"offer": d},
            writes=(("decline_offer", offer_id),),
            confirm_terms=(("decline",), (title,), money_terms(counter)),
            say=(f"The seller countered the {d.text}, but it's too much for me. Please "
                 "decline their counter-offer.",
                 f"Please turn down the counter-offer on the {d.text}.",
                 f"I don't want to pay what the seller countered on the {d.text}; decline it, "
                 "please."),
            solution=write_steps(
                _lists(ctx, "list_offers"),
                f"I will decline {seller}'s counter-offer of ${counter:,.2f} on the "
                f"\"{title}\". Shall I proceed?", call),
            expect=(_status("offers", "offer_id", offer_id, "declined"),))
    return None


# ------------------------------------------------------------------- selling

def _received_offers(ctx: SampleContext) -> list[tuple]:
    return ctx.rows("SELECT o.offer_id, o.amount, m.username, l.title, l.price FROM offers o "
                    "JOIN listings l ON l.listing_id = o.listing_id JOIN members m "
                    "ON m.member_id = o.buyer_id WHERE l.seller_id = ? AND o.status = 'pending' "
                    "AND l.status = 'active' ORDER BY o.rowid", (ctx.user_id,))


def accept_offer(ctx: SampleContext) -> Constraint | None:
    for offer_id, amount, buyer, title, _ in ctx.shuffled(_received_offers(ctx)):
        d = describe_offer(ctx, offer_id, amount, buyer, title)
        listing_id = ctx.rows("SELECT listing_id FROM offers WHERE offer_id = ?",
                              (offer_id,))[0][0]
        if d is None or not ctx.claim(offer_id, listing_id):
            continue
        call = ToolCall("accept_offer", {"offer_id": offer_id, "member_id": ctx.user_id})
        return Constraint(
            "accept_offer", dict(call.arguments), refs={"offer": d},
            writes=(("accept_offer", offer_id),),
            confirm_terms=(("accept",), money_terms(amount), (buyer,)),
            say=(f"Please accept the {d.text}.",
                 f"I'm happy with the {d.text}; go ahead and accept it.",
                 f"Can you accept the {d.text}? That works for me."),
            solution=write_steps(
                _lists(ctx, "list_offers"),
                f"I will accept {buyer}'s offer of ${amount:,.2f} on your \"{title}\", "
                "selling the item to them. Shall I proceed?",
                call),
            expect=(_status("offers", "offer_id", offer_id, "accepted"),
                    _status("listings", "listing_id", listing_id, "sold"),
                    Expectation("SELECT item_price, status FROM orders WHERE offer_id = ?",
                                (offer_id,), ((amount, "paid"),))))
    return None


def counter_offer(ctx: SampleContext) -> Constraint | None:
    for offer_id, amount, buyer, title, price in ctx.shuffled(_received_offers(ctx)):
        counter = _whole(amount + (price - amount) * ctx.rng.uniform(0.4, 0.7))
        if not amount < counter < price:
            continue
        d = describe_offer(ctx, offer_id, amount, buyer, title)
        listing_id = ctx.rows("SELECT listing_id FROM offers WHERE offer_id = ?",
                              (offer_id,))[0][0]
        if d is None or not ctx.claim(offer_id, listing_id):
            continue
        call = ToolCall("counter_offer", {"offer_id": offer_id, "seller_id": ctx.user_id,
                                          "amount": counter})
        return Constraint(
            "counter_offer", dict(call.arguments), refs={"offer": d},
            writes=(("counter_offer", offer_id),),
            confirm_terms=(("counter",), money_terms(counter), (buyer,)),
            say=(f"The {d.text} is too low. Please counter with {dollars(counter)}.",
                 f"Can you answer the {d.text} with a counter-offer of {dollars(counter)}?",
                 f"I'd go to {dollars(counter)} on the {d.text}; send that as a counter-offer."),
            solution=write_steps(
                _lists(ctx, "list_offers"),
                f"I will counter {buyer}'s ${amount:,.2f} offer on your \"{title}\" with "
                f"${counter:,.2f}. Shall I proceed?", call),
            expect=(Expectation("SELECT status, counter_amount FROM offers WHERE offer_id = ?",
                                (offer_id,), (("countered", counter),)),))
    return None


def _orders(ctx: SampleContext, role: str, status: str) -> list[tuple]:
    """The member's orders in ``role`` with ``status``: ``(order_id, title, other username,
    delivered_at)``."""
    mine, theirs = ("buyer_id", "seller_id") if role == "buyer" else ("seller_id", "buyer_id")
    return ctx.rows(f"SELECT o.order_id, l.title, m.username, o.delivered_at FROM orders o "
                    f"JOIN listings l ON l.listing_id = o.listing_id JOIN members m "
                    f"ON m.member_id = o.{theirs} WHERE o.{mine} = ? AND o.status = ? "
                    "ORDER BY o.rowid", (ctx.user_id, status))


def cancel_order(ctx: SampleContext) -> Constraint | None:
    role = ctx.pick(("buyer", "seller"))
    for order_id, title, other, _ in ctx.shuffled(_orders(ctx, role, "paid")):
        d = describe_order(ctx, order_id, title, role, other)
        if d is None or not ctx.claim(order_id):
            continue
        reason = "buyer_changed_mind" if role == "buyer" else "out_of_stock"
        call = ToolCall("cancel_order", {"order_id": order_id, "member_id": ctx.user_id,
                                         "reason": reason})
        why = ("I changed my mind" if role == "buyer" else
               "the item got damaged, so I don't have it to sell anymore")
        return Constraint(
            "cancel_order", dict(call.arguments), refs={"order": d},
            writes=(("cancel_order", order_id),),
            confirm_terms=(("cancel",), (title,)),
            say=(f"Please cancel the order for the {d.text}; {why}.",
                 f"I need to cancel the {d.text}: {why}.",
                 f"Can you cancel my order of the {d.text}? {why[0].upper()}{why[1:]}."),
            solution=write_steps(
                _lists(ctx, "list_orders"),
                f"I will cancel the order {order_id} for the \"{title}\" (reason: "
                f"{reason.replace('_', ' ')}); the buyer is refunded and the listing goes "
                "back on sale. Shall I proceed?", call),
            expect=(_status("orders", "order_id", order_id, "cancelled"),))
    return None


def ship_order(ctx: SampleContext) -> Constraint | None:
    for order_id, title, buyer, _ in ctx.shuffled(_orders(ctx, "seller", "paid")):
        d = describe_order(ctx, order_id, title, "seller", buyer)
        if d is None or not ctx.claim(order_id):
            continue
        base = next((w for t, _, _, w in ITEMS if title.startswith(t)), 32)
        weight = int(max(2, base * ctx.rng.uniform(1.0, 1.4)))
        carrier, service = ctx.pick(LABELS)
        cost = shipping_rate(carrier, service, weight)
        call = ToolCall("purchase_shipping_label", {"order_id": order_id,
                                                    "seller_id": ctx.user_id,
                                                    "carrier": carrier, "service": service,
                                                    "weight_oz": weight})
        return Constraint(
            "ship_order", dict(call.arguments), refs={"order": d},
            writes=(("purchase_shipping_label", order_id),),
            confirm_terms=((carrier,), (service,), (title,), (str(weight),)),
            say=(f"I'm ready to ship the {d.text}. Please buy a {carrier} {service} label; "
                 f"the package weighs {weight} oz.",
                 f"Can you get me a {carrier} {service} shipping label for the {d.text}? It's "
                 f"{weight} ounces.",
                 f"Please create a {service} label with {carrier} for the {d.text}, package "
                 f"weight {weight} oz."),
            solution=write_steps(
                _lists(ctx, "list_orders") + [
                    ToolCall("get_shipping_rates", {"weight_oz": weight})],
                f"I will buy a {carrier} {service} label for the {weight} oz package of the "
                f"\"{title}\" sold to {buyer}, for ${cost:,.2f}; the order will be marked "
                "shipped. Shall I proceed?", call),
            expect=(Expectation("SELECT carrier, service, weight_oz FROM shipping_labels "
                                "WHERE order_id = ?", (order_id,),
                                ((carrier, service, weight),)),
                    _status("orders", "order_id", order_id, "shipped")))
    return None


# --------------------------------------------------------- after the delivery

def _delivered(ctx: SampleContext, role: str, newest: int, oldest: int) -> list[tuple]:
    return [r for r in _orders(ctx, role, "delivered")
            if newest <= days_since(r[3]) <= oldest]


def request_return(ctx: SampleContext) -> Constraint | None:
    rows = [r for r in _delivered(ctx, "buyer", 0, RETURN_WINDOW_DAYS - 3)
            if not ctx.rows("SELECT 1 FROM returns WHERE order_id = ?", (r[0],))]
    for order_id, title, seller, _ in ctx.shuffled(rows):
        d = describe_order(ctx, order_id, title, "buyer", seller)
        if d is None or not ctx.claim(order_id):
            continue
        reason = ctx.pick(tuple(RETURN_REASONS))
        first, second = RETURN_REASONS[reason]
        call = ToolCall("request_return", {"order_id": order_id, "buyer_id": ctx.user_id,
                                           "reason": reason})
        return Constraint(
            "request_return", dict(call.arguments), refs={"order": d},
            writes=(("request_return", order_id),),
            confirm_terms=(("return",), (title,)),
            say=(f"I want to return the {d.text}: {first}.",
                 f"Please open a return for the {d.text}, because {second}.",
                 f"Can I send back the {d.text}? {first[0].upper()}{first[1:]}."),
            solution=write_steps(
                _lists(ctx, "list_orders"),
                f"I will open a return on the \"{title}\" you bought from {seller} (reason: "
                f"{reason.replace('_', ' ')}). Shall I proceed?", call),
            expect=(Expectation("SELECT reason, status FROM returns WHERE order_id = ?",
                                (order_id,), ((reason, "open"),)),))
    return None


def leave_feedback(ctx: SampleContext) -> Constraint | None:
    role = ctx.pick(("buyer", "seller"))
    rows = [r for r in _delivered(ctx, role, 0, FEEDBACK_WINDOW_DAYS - 3)
            if not ctx.rows("SELECT 1 FROM feedback WHERE order_id = ? AND author_id = ?",
                            (r[0], ctx.user_id))]
    for order_id, title, other, _ in ctx.shuffled(rows):
        d = describe_order(ctx, order_id, title, role, other)
        if d is None or not ctx.claim(order_id):
            continue
        rating = ctx.pick(("positive", "positive", "neutral", "negative")) \
            if role == "buyer" else "positive"
        comment = ctx.pick(COMMENTS[rating]) if role == "buyer" else \
            "Great buyer, quick payment!"
        call = ToolCall("leave_feedback", {"order_id": order_id, "member_id": ctx.user_id,
                                           "rating": rating, "comment": comment})
        return Constraint(
            "leave_feedback", dict(call.arguments), refs={"order": d},
            writes=(("leave_feedback", order_id),),
            confirm_terms=((rating,), (title,), (other,)),
            say=(f"Please leave {rating} feedback for {other} on the {d.text}, with the "
                 f"comment \"{comment}\"",
                 f"I'd like to rate {other} {rating} for the {d.text}. Comment: \"{comment}\"",
                 f"Can you post {rating} feedback on the {d.text} for me? Say \"{comment}\""),
            solution=write_steps(
                _lists(ctx, "list_orders"),
                f"I will leave {rating} feedback for {other} on the \"{title}\" with the "
                f"comment \"{comment}\". Shall I proceed?", call),
            expect=(Expectation("SELECT rating, comment FROM feedback WHERE order_id = ? "
                                "AND author_id = ?", (order_id, ctx.user_id),
                                ((rating, comment),)),))
    return None


# ----------------------------------------------------- searches and messages

def save_search(ctx: SampleContext) -> Constraint | None:
    saved = {(q, p) for q, p in ctx.rows("SELECT query, max_price FROM saved_searches "
                                         "WHERE member_id = ?", (ctx.user_id,))}
    options = [s for s in SEARCHES if s not in saved]
    if not options or not ctx.claim(("save_search", ctx.user_id)):
        return None
    query, max_price = ctx.pick(options)
    call = ToolCall("save_search", {"member_id": ctx.user_id, "query": query,
                                    "max_price": max_price})
    limit = f" up to {dollars(max_price)}" if max_price else " at any price"
    terms = ((query,), money_terms(max_price)) if max_price else ((query,),)
    return Constraint(
        "save_search", dict(call.arguments), writes=(("save_search", ctx.user_id),),
        confirm_terms=(("save",), *terms),
        say=(f"Please save a search for \"{query}\"{limit} so I hear about new listings.",
             f"I'd like to be notified about new \"{query}\" listings{limit}. Can you save "
             "that search?",
             f"Can you set up a saved search for \"{query}\"{limit}?"),
        solution=write_steps(
            _lists(ctx, "list_saved_searches"),
            f"I will save a search for \"{query}\"{limit}. Shall I proceed?", call),
        expect=(Expectation("SELECT count(*) FROM saved_searches WHERE member_id = ? "
                            "AND query = ? AND max_price = ?",
                            (ctx.user_id, query, max_price), ((1,),)),))


def contact_seller(ctx: SampleContext) -> Constraint | None:
    for listing_id, title, _, _, seller in _others_listings(ctx):
        if not ctx.claim(listing_id):
            continue
        d = describe_other_listing(ctx, listing_id, title, seller)
        if d is None:
            return None
        body = ctx.pick(QUESTIONS)
        call = ToolCall("contact_seller", {"buyer_id": ctx.user_id, "listing_id": listing_id,
                                           "body": body})
        (before,) = ctx.rows("SELECT count(*) FROM messages m JOIN conversations c "
                             "ON c.conversation_id = m.conversation_id WHERE c.listing_id = ? "
                             "AND m.sender_id = ? AND m.body = ?",
                             (listing_id, ctx.user_id, body))[0]
        return Constraint(
            "contact_seller", dict(call.arguments), refs={"listing": d},
            writes=(("contact_seller", ctx.user_id),),
            confirm_terms=(("message", "send", "ask"), (seller,), (title,)),
            intent=Intent((Param("action", ("message", "send", "ask")),
                           Param("seller", (seller,)), Param("listing", (title, listing_id)))),
            say=(f"Please ask the seller of the {d.text}: \"{body}\"",
                 f"Can you message {seller} about their \"{title}\" listing? Ask \"{body}\"",
                 f"I have a question for the seller of the {d.text}: \"{body}\" Please send "
                 "it."),
            solution=write_steps(
                [_search(title)],
                f"I will send {seller} this message about the \"{title}\": \"{body}\" "
                "Shall I proceed?", call),
            expect=(Expectation("SELECT count(*) FROM messages m JOIN conversations c "
                                "ON c.conversation_id = m.conversation_id "
                                "WHERE c.listing_id = ? AND m.sender_id = ? AND m.body = ?",
                                (listing_id, ctx.user_id, body), ((before + 1,),)),))
    return None


# --------------------------------------------------------------------- answers

def info_counter_offer(ctx: SampleContext) -> Constraint | None:
    rows = ctx.rows("SELECT o.offer_id, l.title, m.username, o.amount, o.counter_amount "
                    "FROM offers o JOIN listings l ON l.listing_id = o.listing_id "
                    "JOIN members m ON m.member_id = l.seller_id WHERE o.buyer_id = ? "
                    "AND o.status = 'countered' ORDER BY o.rowid", (ctx.user_id,))
    for offer_id, title, seller, amount, counter in ctx.shuffled(rows):
        d = describe_made_offer(ctx, offer_id, title, seller)
        if d is None or not ctx.claim(offer_id):
            continue
        return Constraint(
            "info_counter_offer", {"offer_id": offer_id}, refs={"offer": d},
            answer=f"{counter:.2f}",
            say=(f"The seller answered the {d.text} with a counter-offer. How much are they "
                 "asking now?",
                 f"What price did {seller} counter with on the {d.text}?",
                 f"How much is the counter-offer on the {d.text}?"),
            solution=answer_steps(
                _lists(ctx, "list_offers"),
                f"{seller} countered your offer on the \"{title}\" with ${counter:,.2f}."))
    return None


def info_tracking_number(ctx: SampleContext) -> Constraint | None:
    rows = ctx.rows("SELECT o.order_id, l.title, m.username, s.tracking_number, s.carrier "
                    "FROM orders o JOIN listings l ON l.listing_id = o.listing_id "
                    "JOIN members m ON m.member_id = o.seller_id JOIN shipping_labels s "
                    "ON s.order_id = o.order_id WHERE o.buyer_id = ? AND o.status = 'shipped' "
                    "ORDER BY o.rowid", (ctx.user_id,))
    for order_id, title, seller, tracking, carrier in ctx.shuffled(rows):
        d = describe_order(ctx, order_id, title, "buyer", seller)
        if d is None or not ctx.claim(order_id):
            continue
        return Constraint(
            "info_tracking_number", {"order_id": order_id}, refs={"order": d},
            answer=tracking,
            say=(f"What's the tracking number for the {d.text}?",
                 f"The {d.text} has shipped, right? Can you give me its tracking number?",
                 f"I'd like to track the {d.text}. What's the tracking number?"),
            solution=answer_steps(
                _lists(ctx, "list_orders"),
                f"The \"{title}\" shipped with {carrier}; the tracking number is {tracking}."))
    return None


def info_sales_total(ctx: SampleContext) -> Constraint | None:
    rows = ctx.rows("SELECT item_price FROM orders WHERE seller_id = ? "
                    "AND status != 'cancelled' ORDER BY rowid", (ctx.user_id,))
    if len(rows) < 2 or not ctx.claim(("sales_total", ctx.user_id)):
        return None
    total = 0.0
    for (price,) in rows:
        total = money(total + price)
    return Constraint(
        "info_sales_total", {"member_id": ctx.user_id}, answer=f"{total:.2f}",
        evidence=(("list_orders", ctx.user_id),),
        say=("How much have I sold on the marketplace in total? Just the item prices, not "
             "shipping, and leave out cancelled orders.",
             "Can you add up the item prices of all my sales that weren't cancelled?",
             "What do my sales come to in total, item prices only, without cancelled ones?"),
        solution=answer_steps(
            [ToolCall("list_orders", {"member_id": ctx.user_id, "role": "seller"})],
            f"Your sales that were not cancelled come to ${total:,.2f} in item prices."))


# -------------------------------------------------------------------- refusals

def cancel_processed_order(ctx: SampleContext) -> Constraint | None:
    role = ctx.pick(("buyer", "seller"))
    rows = _orders(ctx, role, "shipped") + _orders(ctx, role, "delivered")
    for order_id, title, other, _ in ctx.shuffled(rows):
        d = describe_order(ctx, order_id, title, role, other)
        if d is None or not ctx.claim(order_id):
            continue
        (status,) = ctx.rows("SELECT status FROM orders WHERE order_id = ?", (order_id,))[0]
        return Constraint(
            "cancel_processed_order", {"order_id": order_id}, refs={"order": d},
            answer="cannot",
            refusal=Refusal((order_id,), about=(order_id, title, *_SHIPPED_WORDS)),
            say=(f"Please cancel the order for the {d.text}.",
                 f"I changed my mind; can you cancel the {d.text}?",
                 f"I need the {d.text} cancelled, please."),
            solution=answer_steps(
                _lists(ctx, "list_orders"),
                f"I'm sorry, but I cannot cancel the order for the \"{title}\": it has already "
                f"been {status}, and only an order that has not shipped can be cancelled."),
            expect=(_status("orders", "order_id", order_id, status),))
    return None


def refuse_late_refund(ctx: SampleContext) -> Constraint | None:
    rows = [r for r in _delivered(ctx, "buyer", RETURN_WINDOW_DAYS + 5, 400)
            if not ctx.rows("SELECT 1 FROM returns WHERE order_id = ?", (r[0],))]
    for order_id, title, seller, delivered in ctx.shuffled(rows):
        d = describe_order(ctx, order_id, title, "buyer", seller)
        if d is None or not ctx.claim(order_id):
            continue
        reason = ctx.pick(tuple(RETURN_REASONS))
        first, _ = RETURN_REASONS[reason]
        age = days_since(delivered)
        return Constraint(
            "refuse_late_refund", {"order_id": order_id, "reason": reason},
            refs={"order": d}, answer="cannot",
            refusal=Refusal((order_id,), about=(order_id, title, *_LATE_RETURN_WORDS)),
            say=(f"I want to return the {d.text} and get my money back: {first}.",
                 f"Please open a return on the {d.text}; {first}.",
                 f"Can I still send back the {d.text} for a refund? {first[0].upper()}"
                 f"{first[1:]}."),
            solution=answer_steps(
                _lists(ctx, "list_orders"),
                f"I'm sorry, but I cannot open a return on the \"{title}\": it was delivered "
                f"on {date_words(delivered[:10])}, {age} days ago, and returns must be opened "
                f"within {RETURN_WINDOW_DAYS} days of delivery."),
            expect=(Expectation("SELECT count(*) FROM returns WHERE order_id = ?",
                                (order_id,), ((0,),)),))
    return None


# ------------------------------------------------------------------------ the kit

LOGIN = Login("members", "member_id", "find_member_by_email", "find_member_by_username")


def policy_violations(db, tool: str, arguments: dict) -> list[str]:
    """Policy rules a write would break: the return window (a rule the tool trusts the
    agent with) and cancelling an order that has shipped (which the tool refuses too)."""
    if not isinstance(arguments, dict):
        return []
    if tool == "request_return":
        row = db.execute("SELECT delivered_at FROM orders WHERE order_id = ?",
                         (arguments.get("order_id"),)).fetchone()
        if row is not None and row[0] and days_since(row[0]) > RETURN_WINDOW_DAYS:
            return ["policy:return_window"]
    if tool == "cancel_order":
        row = db.execute("SELECT status FROM orders WHERE order_id = ?",
                         (arguments.get("order_id"),)).fetchone()
        if row is not None and row[0] in ("shipped", "delivered"):
            return ["policy:order_shipped"]
    return []


_LISTING_OWNER = ("SELECT seller_id FROM listings WHERE listing_id = ?", "listing_id")
_MEMBER = ("SELECT member_id FROM members WHERE member_id = ?", "member_id")

SAMPLERS = by_name(
    create_listing, edit_listing_price, relist_listing, close_listing, make_offer,
    accept_offer, counter_offer, decline_counter_offer, buy_now, cancel_order, ship_order,
    request_return, leave_feedback, save_search, contact_seller, info_counter_offer,
    info_tracking_number, info_sales_total, cancel_processed_order, refuse_late_refund)

TASKS = RuleTaskKit(
    "marketplace", SAMPLERS,
    **LOGIN.kit_keywords(),
    owners={
        "create_listing": ("SELECT member_id FROM members WHERE member_id = ?", "seller_id"),
        "edit_listing": _LISTING_OWNER,
        "close_listing": _LISTING_OWNER,
        "relist_listing": _LISTING_OWNER,
        "make_offer": ("SELECT member_id FROM members WHERE member_id = ?", "buyer_id"),
        "accept_offer": _MEMBER,
        "decline_offer": _MEMBER,
        "counter_offer": ("SELECT member_id FROM members WHERE member_id = ?", "seller_id"),
        "buy_now": ("SELECT member_id FROM members WHERE member_id = ?", "buyer_id"),
        "cancel_order": _MEMBER,
        "purchase_shipping_label": ("SELECT member_id FROM members WHERE member_id = ?",
                                    "seller_id"),
        "request_return": ("SELECT member_id FROM members WHERE member_id = ?", "buyer_id"),
        "leave_feedback": _MEMBER,
        "save_search": _MEMBER,
        "delete_saved_search": ("SELECT member_id FROM saved_searches "
                                "WHERE saved_search_id = ?", "saved_search_id"),
        "contact_seller": ("SELECT member_id FROM members WHERE member_id = ?", "buyer_id"),
        "reply_to_conversation": _MEMBER,
    },
    ask_identity=ASK_IDENTITY,
    identity_phrases=("Sure, {text}.", "Of course: {text}.", "Yes, {text}."),
    greetings=("Hi!", "Hello,", "Hi there.", "Hey,"),
    policy_violations=policy_violations,
)
