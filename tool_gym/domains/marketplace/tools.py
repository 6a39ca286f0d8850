"""The tools of the marketplace domain: 14 reads, 17 writes and a transfer to a human agent.

A peer-to-peer marketplace: members buy and sell second-hand items. A seller lists an item
(``active``), edits it, closes it or relists it; a buyer buys it now or makes an offer,
which the seller accepts, declines or counters, and the buyer then accepts or declines the
counter. A sale is an order (``paid``); the seller buys a shipping label (``shipped``); the
carrier delivers (``delivered``). Either party may cancel an order that has not shipped; a
buyer may open a return on a delivered order; both parties leave feedback. Members save
searches and message each other about listings.

Rules the tools enforce: members act only in their own role (the seller of the listing, the
buyer of the offer or order), an offer is at least half of the asking price and below it,
one open offer per buyer and listing, a counter lies between the offer and the asking
price, an accepted offer or a purchase sells the listing and declines its other open
offers, only a ``paid`` order can be cancelled or shipped, feedback once per member and
order within 60 days of delivery, payment cards that are the buyer's and not expired. The
30-day return window is a policy rule the agent must apply (the tool does not check it, as
in tau2, where tools trust the agent).
"""

from __future__ import annotations

import math
import sqlite3
from datetime import date
from typing import Annotated, Literal

from ...core.arguments import check_cents
from ...core.common_tools import human_transfer_tool
from ...core.ids import counted_id
from ...core.rows import fetch_dicts, fetch_row, find_id
from ...core.tools import Category, Entity, Quotas, ToolError, tool

#: Growth bounds of one sandbox (templates hold about 2,000 listings and 3,000 messages).
QUOTAS = Quotas(rows={"listings": 8_000, "offers": 8_000, "orders": 6_000,
                      "shipping_labels": 6_000, "returns": 3_000, "feedback": 6_000,
                      "saved_searches": 3_000, "conversations": 6_000, "messages": 15_000})

#: The marketplace's clock (fixed, so that every episode is reproducible).
TODAY = "2024-09-20"
NOW = "2024-09-20T14:00:00"
#: A return may be opened at most this many days after delivery (policy).
RETURN_WINDOW_DAYS = 30
#: Feedback may be left at most this many days after delivery.
FEEDBACK_WINDOW_DAYS = 60
#: The smallest offer, as a share of the asking price.
MIN_OFFER_SHARE = 0.5
MAX_ACTIVE_LISTINGS = 100
MAX_SAVED_SEARCHES = 20
MAX_TITLE = 80
MAX_TEXT = 1000

CATEGORIES = ("Electronics", "Video Games", "Cameras", "Clothing", "Shoes", "Home & Kitchen",
              "Collectibles", "Books", "Sports & Outdoors", "Musical Instruments", "Toys")
ItemCategory = Literal["Electronics", "Video Games", "Cameras", "Clothing", "Shoes",
                    "Home & Kitchen", "Collectibles", "Books", "Sports & Outdoors",
                    "Musical Instruments", "Toys"]
Condition = Literal["new", "like_new", "good", "fair", "for_parts"]
Carrier = Literal["USPS", "UPS", "FedEx"]
Service = Literal["ground", "priority", "express"]
CancelReason = Literal["buyer_changed_mind", "out_of_stock", "payment_issue", "other"]
ReturnReason = Literal["not_as_described", "damaged", "wrong_item", "changed_mind"]
Rating = Literal["positive", "neutral", "negative"]
ListingStatus = Literal["all", "active", "sold", "closed"]
Role = Literal["all", "buyer", "seller"]

#: carrier -> service -> (base price, price per pound or part of one).
RATES = {
    "USPS": {"ground": (5.25, 0.95), "priority": (8.70, 1.35), "express": (28.75, 2.10)},
    "UPS": {"ground": (9.10, 1.05), "priority": (19.80, 1.85), "express": (34.50, 2.60)},
    "FedEx": {"ground": (8.95, 1.10), "priority": (18.40, 1.90), "express": (36.20, 2.75)},
}
MAX_WEIGHT_OZ = 1120  # 70 lb

MemberId = Annotated[str, Entity("member_id")]
ListingId = Annotated[str, Entity("listing_id")]
OfferId = Annotated[str, Entity("offer_id")]
OrderId = Annotated[str, Entity("order_id")]
PaymentMethodId = Annotated[str, Entity("payment_method_id")]
SavedSearchId = Annotated[str, Entity("saved_search_id")]
ConversationId = Annotated[str, Entity("conversation_id")]


def money(value: float) -> float:
    """A dollar amount rounded to cents (the one rounding used everywhere)."""
    return round(float(value) + 0.0, 2)


def days_since(day: str) -> int:
    """Whole days from ``day`` (an ISO date or time) to ``TODAY``."""
    return (date.fromisoformat(TODAY) - date.fromisoformat(day[:10])).days


def shipping_rate(carrier: str, service: str, weight_oz: int) -> float:
    """The price of a label: base price plus a price per pound started."""
    base, per_pound = RATES[carrier][service]
    return money(base + per_pound * math.ceil(weight_oz / 16))


# ------------------------------------------------------------------------- records

_LISTING_COLUMNS = ("listing_id", "seller_id", "title", "category", "condition", "price",
                    "shipping_cost", "description", "status", "created_on", "updated_on",
                    "views")
_ORDER_COLUMNS = ("order_id", "listing_id", "buyer_id", "seller_id", "payment_method_id",
                  "offer_id", "item_price", "shipping_cost", "total", "status", "ordered_at",
                  "shipped_at", "delivered_at", "cancelled_at", "cancel_reason")
_OFFER_COLUMNS = ("offer_id", "listing_id", "buyer_id", "payment_method_id", "amount",
                  "counter_amount", "message", "status", "created_at", "responded_at")


def _member(db: sqlite3.Connection, member_id: str) -> tuple:
    return fetch_row(db, "SELECT member_id, first_name, last_name, email, username, city, state, "
                     "joined_on FROM members WHERE member_id = ?", (member_id,),
                     f"Member {member_id!r} not found.")


def _listing(db: sqlite3.Connection, listing_id: str) -> dict:
    row = fetch_row(db, f"SELECT {', '.join(_LISTING_COLUMNS)} FROM listings "
                    "WHERE listing_id = ?", (listing_id,), f"Listing {listing_id!r} not found.")
    return dict(zip(_LISTING_COLUMNS, row))


def _order(db: sqlite3.Connection, order_id: str) -> dict:
    row = fetch_row(db, f"SELECT {', '.join(_ORDER_COLUMNS)} FROM orders WHERE order_id = ?",
                    (order_id,), f"Order {order_id!r} not found.")
    return dict(zip(_ORDER_COLUMNS, row))


def _offer(db: sqlite3.Connection, offer_id: str) -> dict:
    row = fetch_row(db, f"SELECT {', '.join(_OFFER_COLUMNS)} FROM offers WHERE offer_id = ?",
                    (offer_id,), f"Offer {offer_id!r} not found.")
    return dict(zip(_OFFER_COLUMNS, row))


def _username(db: sqlite3.Connection, member_id: str) -> str:
    row = db.execute("SELECT username FROM members WHERE member_id = ?", (member_id,)).fetchone()
    return row[0] if row else ""


def _listing_record(db: sqlite3.Connection, listing: dict) -> dict:
    record = dict(listing)
    record["seller_username"] = _username(db, listing["seller_id"])
    (record["open_offers"],) = db.execute(
        "SELECT count(*) FROM offers WHERE listing_id = ? AND status IN ('pending', "
        "'countered')", (listing["listing_id"],)).fetchone()
    return record


def _order_record(db: sqlite3.Connection, order: dict) -> dict:
    record = dict(order)
    (record["title"],) = db.execute("SELECT title FROM listings WHERE listing_id = ?",
                                    (order["listing_id"],)).fetchone()
    record["buyer_username"] = _username(db, order["buyer_id"])
    record["seller_username"] = _username(db, order["seller_id"])
    label = db.execute("SELECT carrier, service, tracking_number FROM shipping_labels "
                       "WHERE order_id = ?", (order["order_id"],)).fetchone()
    record["carrier"], record["service"], record["tracking_number"] = label or (None,) * 3
    ret = db.execute("SELECT return_id, reason, status FROM returns WHERE order_id = ?",
                     (order["order_id"],)).fetchone()
    record["return"] = None if ret is None else dict(zip(("return_id", "reason", "status"), ret))
    return record


def _payment_method(db: sqlite3.Connection, payment_method_id: str, buyer_id: str) -> None:
    row = fetch_row(db, "SELECT member_id, status FROM payment_methods "
                    "WHERE payment_method_id = ?", (payment_method_id,),
                    f"Payment method {payment_method_id!r} not found.")
    if row[0] != buyer_id:
        raise ToolError("The payment method does not belong to the buyer.")
    if row[1] != "active":
        raise ToolError("The payment method is expired.")


def _text(value: str, what: str, limit: int) -> str:
    value = " ".join(value.split())
    if not value:
        raise ToolError(f"The {what} must not be empty.")
    if len(value) > limit:
        raise ToolError(f"The {what} may have at most {limit} characters.")
    return value


def _price(value: float, what: str = "price") -> float:
    value = check_cents(value)
    if not 1 <= value <= 50_000:
        raise ToolError(f"The {what} must be between 1.00 and 50000.00.")
    return value


def _decline_open_offers(db: sqlite3.Connection, listing_id: str, keep: str | None = None) -> None:
    db.execute("UPDATE offers SET status = 'declined', responded_at = ? WHERE listing_id = ? "
               "AND status IN ('pending', 'countered') AND offer_id IS NOT ?",
               (NOW, listing_id, keep))


def _create_order(db: sqlite3.Connection, listing: dict, buyer_id: str, payment_method_id: str,
                  price: float, offer_id: str | None) -> dict:
    order_id = counted_id(db, "orders", "order_id", "ord_")
    total = money(price + listing["shipping_cost"])
    db.execute("INSERT INTO orders (order_id, listing_id, buyer_id, seller_id, "
               "payment_method_id, offer_id, item_price, shipping_cost, total, status, "
               "ordered_at, shipped_at, delivered_at, cancelled_at, cancel_reason) "
               "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'paid', ?, NULL, NULL, NULL, NULL)",
               (order_id, listing["listing_id"], buyer_id, listing["seller_id"],
                payment_method_id, offer_id, price, listing["shipping_cost"], total, NOW))
    db.execute("UPDATE listings SET status = 'sold', updated_on = ? WHERE listing_id = ?",
               (TODAY, listing["listing_id"]))
    _decline_open_offers(db, listing["listing_id"], offer_id)
    return _order_record(db, _order(db, order_id))


# --------------------------------------------------------------------------- READ


@tool(Category.READ, returns={".": MemberId})
def find_member_by_email(db, email: str) -> str:
    """Find a member's id by the email address on their account. Use it to authenticate
    the member before anything else.

    Args:
        email: The member's email address, such as 'jane.doe12@example.com'.
    """
    return find_id(db, "members", "member_id", "email", email.strip().lower(),
                   "No member found with this email address.")


@tool(Category.READ, returns={".": MemberId})
def find_member_by_username(db, username: str) -> str:
    """Find a member's id by their marketplace username. Use it to authenticate the member
    before anything else.

    Args:
        username: The member's username, such as 'vintage_finds42'.
    """
    return find_id(db, "members", "member_id", "username", username.strip().lower(),
                   "No member found with this username.")


@tool(Category.READ, returns={"member_id": MemberId})
def get_member_profile(db, member_id: MemberId) -> dict:
    """Get a member's profile: name, username, location, member since, and their feedback
    summary as a seller and as a buyer.

    Args:
        member_id: The member's id, such as 'mem_a1b2c3d4'.
    """
    row = _member(db, member_id)
    profile = dict(zip(("member_id", "first_name", "last_name", "email", "username", "city",
                        "state", "joined_on"), row))
    for role in ("seller", "buyer"):
        counts = dict(db.execute("SELECT rating, count(*) FROM feedback WHERE recipient_id = ? "
                                 "AND role != ? GROUP BY rating", (member_id, role)).fetchall())
        profile[f"feedback_as_{role}"] = {k: counts.get(k, 0)
                                          for k in ("positive", "neutral", "negative")}
    return profile


@tool(Category.READ, returns={"member_id": MemberId,
                              "payment_methods.payment_method_id": PaymentMethodId})
def list_payment_methods(db, member_id: MemberId) -> dict:
    """List a member's payment cards: brand, last four digits, expiry and status (active or
    expired).

    Args:
        member_id: The member's id.
    """
    _member(db, member_id)
    cards = fetch_dicts(db, ("payment_method_id", "brand", "last4", "expires", "status"),
                        "SELECT payment_method_id, brand, last4, expires, status "
                        "FROM payment_methods WHERE member_id = ? ORDER BY rowid", (member_id,))
    return {"member_id": member_id, "payment_methods": cards}


@tool(Category.READ, returns={"results.listing_id": ListingId, "results.seller_id": MemberId})
def search_listings(db, query: str = "", category: str = "", max_price: float = 0.0,
                    seller_username: str = "") -> dict:
    """Search the active listings by words of the title (case-insensitive), optionally in
    one category, up to a price and/or from one seller; cheapest first, at most 30.

    Args:
        query: Words that must all appear in the title, such as 'nintendo switch' (empty:
            any).
        category: Only this category, such as 'Cameras' (empty: any).
        max_price: Only listings priced at most this (0: no limit).
        seller_username: Only listings of the seller with this username (empty: any).
    """
    words = query.lower().split()
    if not words and not category.strip() and not seller_username.strip():
        raise ToolError("Give words to search for, a category or a seller.")
    if max_price < 0:
        raise ToolError("max_price must not be negative.")
    sql = ("SELECT l.listing_id, l.title, l.category, l.condition, l.price, l.shipping_cost, "
           "l.seller_id, m.username FROM listings l JOIN members m ON m.member_id = l.seller_id "
           "WHERE l.status = 'active' AND (? = '' OR lower(l.category) = lower(?)) "
           "AND (? = 0 OR l.price <= ?) AND (? = '' OR m.username = lower(?))")
    params: list = [category.strip(), category.strip(), max_price, max_price,
                    seller_username.strip(), seller_username.strip()]
    for word in words[:8]:
        sql += " AND instr(lower(l.title), ?) > 0"
        params.append(word)
    rows = fetch_dicts(db, ("listing_id", "title", "category", "condition", "price",
                            "shipping_cost", "seller_id", "seller_username"),
                       sql + " ORDER BY l.price, l.rowid LIMIT 30", params)
    return {"query": query, "results": rows}


@tool(Category.READ, returns={"listing_id": ListingId, "seller_id": MemberId})
def get_listing(db, listing_id: ListingId) -> dict:
    """Get one listing: title, category, condition, price, shipping cost, description,
    status (active, sold or closed), seller, views and the number of open offers.

    Args:
        listing_id: The listing's id, such as 'lst_x8k2m4p1'.
    """
    return _listing_record(db, _listing(db, listing_id))


@tool(Category.READ, returns={"member_id": MemberId, "listings.listing_id": ListingId})
def list_my_listings(db, member_id: MemberId, status: ListingStatus = "all") -> dict:
    """List the listings a member sells, newest first, with their price, status, views and
    open offers.

    Args:
        member_id: The seller's member id.
        status: Only listings with this status ('all' for every listing).
    """
    _member(db, member_id)
    ids = [r[0] for r in db.execute(
        "SELECT listing_id FROM listings WHERE seller_id = ? AND (? = 'all' OR status = ?) "
        "ORDER BY created_on DESC, rowid DESC", (member_id, status, status))]
    listings = []
    for listing_id in ids:
        record = _listing_record(db, _listing(db, listing_id))
        del record["description"]
        listings.append(record)
    return {"member_id": member_id, "status": status, "listings": listings}


@tool(Category.READ, returns={"member_id": MemberId, "offers.offer_id": OfferId,
                              "offers.listing_id": ListingId,
                              "offers.payment_method_id": PaymentMethodId})
def list_offers(db, member_id: MemberId, role: Role = "all") -> dict:
    """List the offers a member made as a buyer and received as a seller, newest first:
    listing, amount, the seller's counter amount, status (pending, countered, accepted,
    declined or expired) and the other party.

    Args:
        member_id: The member's id.
        role: 'buyer' for the offers they made, 'seller' for those they received, 'all' for
            both.
    """
    _member(db, member_id)
    rows = db.execute(
        "SELECT o.offer_id, o.listing_id, l.title, l.price, o.buyer_id, b.username, "
        "l.seller_id, s.username, o.payment_method_id, o.amount, o.counter_amount, o.message, "
        "o.status, o.created_at, o.responded_at FROM offers o "
        "JOIN listings l ON l.listing_id = o.listing_id "
        "JOIN members b ON b.member_id = o.buyer_id JOIN members s ON s.member_id = l.seller_id "
        "WHERE (o.buyer_id = ? AND ? != 'seller') OR (l.seller_id = ? AND ? != 'buyer') "
        "ORDER BY o.created_at DESC, o.rowid DESC", (member_id, role, member_id, role)).fetchall()
    offers = []
    for (offer_id, listing_id, title, price, buyer_id, buyer, seller_id, seller, method, amount,
         counter, message, status, created, responded) in rows:
        offers.append({
            "offer_id": offer_id, "role": "buyer" if buyer_id == member_id else "seller",
            "listing_id": listing_id, "title": title, "asking_price": price,
            "buyer_username": buyer, "seller_username": seller,
            "payment_method_id": method if buyer_id == member_id else None,
            "amount": amount, "counter_amount": counter, "message": message,
            "status": status, "created_at": created, "responded_at": responded})
    return {"member_id": member_id, "role": role, "offers": offers}


@tool(Category.READ, returns={"member_id": MemberId, "orders.order_id": OrderId,
                              "orders.listing_id": ListingId})
def list_orders(db, member_id: MemberId, role: Role = "all") -> dict:
    """List a member's purchases and sales, newest first: item, price, shipping, total,
    status (paid, shipped, delivered or cancelled), dates, carrier and tracking number.

    Args:
        member_id: The member's id.
        role: 'buyer' for purchases, 'seller' for sales, 'all' for both.
    """
    _member(db, member_id)
    ids = [r[0] for r in db.execute(
        "SELECT order_id FROM orders WHERE (buyer_id = ? AND ? != 'seller') "
        "OR (seller_id = ? AND ? != 'buyer') ORDER BY ordered_at DESC, rowid DESC",
        (member_id, role, member_id, role))]
    orders = []
    for order_id in ids:
        record = _order_record(db, _order(db, order_id))
        record["role"] = "buyer" if record["buyer_id"] == member_id else "seller"
        orders.append(record)
    return {"member_id": member_id, "role": role, "orders": orders}


@tool(Category.READ, returns={"order_id": OrderId, "listing_id": ListingId,
                              "buyer_id": MemberId, "seller_id": MemberId,
                              "payment_method_id": PaymentMethodId})
def get_order(db, order_id: OrderId) -> dict:
    """Get one order: item, buyer and seller, prices, status and dates, shipping label
    (carrier, service, tracking number) and any return opened on it.

    Args:
        order_id: The order's id, such as 'ord_k3j9x0p2'.
    """
    return _order_record(db, _order(db, order_id))


@tool(Category.READ, returns={"member_id": MemberId, "feedback.order_id": OrderId})
def list_feedback(db, member_id: MemberId) -> dict:
    """List the feedback a member received and gave: order, item, rating (positive, neutral
    or negative), comment, date and the other member.

    Args:
        member_id: The member's id.
    """
    _member(db, member_id)
    rows = db.execute(
        "SELECT f.feedback_id, f.order_id, l.title, f.author_id, a.username, f.recipient_id, "
        "r.username, f.role, f.rating, f.comment, f.left_on FROM feedback f "
        "JOIN orders o ON o.order_id = f.order_id JOIN listings l ON l.listing_id = o.listing_id "
        "JOIN members a ON a.member_id = f.author_id "
        "JOIN members r ON r.member_id = f.recipient_id "
        "WHERE f.author_id = ? OR f.recipient_id = ? ORDER BY f.left_on DESC, f.rowid DESC",
        (member_id, member_id)).fetchall()
    received, given = [], []
    for (feedback_id, order_id, title, author, author_name, _, recipient_name, role, rating,
         comment, left_on) in rows:
        item = {"feedback_id": feedback_id, "order_id": order_id, "title": title,
                "rating": rating, "comment": comment, "left_on": left_on}
        if author == member_id:
            given.append({**item, "to_username": recipient_name, "as": role})
        else:
            received.append({**item, "from_username": author_name,
                             "as": "seller" if role == "buyer" else "buyer"})
    return {"member_id": member_id, "received": received, "given": given}


@tool(Category.READ, returns={"member_id": MemberId,
                              "saved_searches.saved_search_id": SavedSearchId})
def list_saved_searches(db, member_id: MemberId) -> dict:
    """List a member's saved searches with the number of active listings each matches now.

    Args:
        member_id: The member's id.
    """
    _member(db, member_id)
    searches = fetch_dicts(db, ("saved_search_id", "query", "category", "max_price",
                                "created_on"),
                           "SELECT saved_search_id, query, category, max_price, created_on "
                           "FROM saved_searches WHERE member_id = ? ORDER BY rowid", (member_id,))
    for s in searches:
        sql = ("SELECT count(*) FROM listings WHERE status = 'active' AND seller_id != ? "
               "AND (? = '' OR category = ?) AND (? = 0 OR price <= ?)")
        params: list = [member_id, s["category"], s["category"], s["max_price"], s["max_price"]]
        for word in s["query"].lower().split():
            sql += " AND instr(lower(title), ?) > 0"
            params.append(word)
        (s["matches"],) = db.execute(sql, params).fetchone()
    return {"member_id": member_id, "saved_searches": searches}


@tool(Category.READ, returns={"member_id": MemberId,
                              "conversations.conversation_id": ConversationId,
                              "conversations.listing_id": ListingId})
def list_conversations(db, member_id: MemberId) -> dict:
    """List a member's conversations with other members about listings, newest first, with
    their messages (oldest first) and the number of unread messages.

    Args:
        member_id: The member's id.
    """
    _member(db, member_id)
    rows = db.execute(
        "SELECT c.conversation_id, c.listing_id, l.title, c.buyer_id, b.username, c.seller_id, "
        "s.username, (SELECT max(sent_at) FROM messages m WHERE m.conversation_id = "
        "c.conversation_id) AS last FROM conversations c JOIN listings l "
        "ON l.listing_id = c.listing_id JOIN members b ON b.member_id = c.buyer_id "
        "JOIN members s ON s.member_id = c.seller_id WHERE c.buyer_id = ? OR c.seller_id = ? "
        "ORDER BY last DESC, c.rowid DESC", (member_id, member_id)).fetchall()
    conversations = []
    for conversation_id, listing_id, title, buyer_id, buyer, _, seller, _ in rows:
        messages = fetch_dicts(db, ("message_id", "from_username", "body", "sent_at", "read"),
                               "SELECT m.message_id, u.username, m.body, m.sent_at, m.is_read "
                               "FROM messages m JOIN members u ON u.member_id = m.sender_id "
                               "WHERE m.conversation_id = ? ORDER BY m.sent_at, m.rowid",
                               (conversation_id,))
        mine = _username(db, member_id)
        unread = sum(1 for m in messages if not m["read"] and m["from_username"] != mine)
        for m in messages:
            m["read"] = bool(m["read"])
        conversations.append({
            "conversation_id": conversation_id, "listing_id": listing_id, "title": title,
            "with_username": seller if buyer_id == member_id else buyer,
            "role": "buyer" if buyer_id == member_id else "seller", "unread": unread,
            "messages": messages[-20:]})
    return {"member_id": member_id, "conversations": conversations}


@tool(Category.READ)
def get_shipping_rates(db, weight_oz: int) -> dict:
    """Get the price of a shipping label for a package of a given weight, for each carrier
    (USPS, UPS, FedEx) and service (ground, priority, express).

    Args:
        weight_oz: The package's weight in ounces, 1 to 1120.
    """
    if not 1 <= weight_oz <= MAX_WEIGHT_OZ:
        raise ToolError(f"The weight must be between 1 and {MAX_WEIGHT_OZ} ounces.")
    return {"weight_oz": weight_oz,
            "rates": [{"carrier": c, "service": s, "price": shipping_rate(c, s, weight_oz)}
                      for c in RATES for s in RATES[c]]}


transfer_to_human_agents = human_transfer_tool(
    "Transfer the member to a human agent, with a summary of their issue. Only transfer if "
    "the member explicitly asks for a human agent, or if the request cannot be handled with "
    "the policy and the available tools.",
    "A summary of the member's issue.")


# -------------------------------------------------------------------------- WRITE


@tool(Category.WRITE, returns={"listing_id": ListingId, "seller_id": MemberId},
      writes=("listing_id",))
def create_listing(db, seller_id: MemberId, title: str, category: ItemCategory,
                   condition: Condition, price: float, shipping_cost: float,
                   description: str = "") -> dict:
    """List an item for sale (active at once). Confirm the details with the member (explicit
    yes) before calling.

    Args:
        seller_id: The selling member's id.
        title: The title buyers see, 3 to 80 characters.
        category: The category of the item.
        condition: 'new', 'like_new', 'good', 'fair' or 'for_parts'.
        price: The asking price in dollars, 1.00 to 50000.00.
        shipping_cost: What the buyer pays for shipping, 0.00 to 200.00.
        description: An optional description, at most 1000 characters.
    """
    _member(db, seller_id)
    title = _text(title, "title", MAX_TITLE)
    if len(title) < 3:
        raise ToolError("The title must have at least 3 characters.")
    price = _price(price)
    if not 0 <= shipping_cost <= 200 or abs(round(shipping_cost, 2) - shipping_cost) > 1e-9:
        raise ToolError("The shipping cost must be between 0.00 and 200.00, in whole cents.")
    description = " ".join(description.split())
    if len(description) > MAX_TEXT:
        raise ToolError(f"The description may have at most {MAX_TEXT} characters.")
    (active,) = db.execute("SELECT count(*) FROM listings WHERE seller_id = ? "
                           "AND status = 'active'", (seller_id,)).fetchone()
    if active >= MAX_ACTIVE_LISTINGS:
        raise ToolError(f"A member may have at most {MAX_ACTIVE_LISTINGS} active listings.")
    listing_id = counted_id(db, "listings", "listing_id", "lst_")
    db.execute(f"INSERT INTO listings ({', '.join(_LISTING_COLUMNS)}) "
               "VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'active', ?, ?, 0)",
               (listing_id, seller_id, title, category, condition, price,
                money(shipping_cost), description, TODAY, TODAY))
    return _listing_record(db, _listing(db, listing_id))


def _own_listing(db: sqlite3.Connection, listing_id: str, status: str) -> dict:
    listing = _listing(db, listing_id)
    if listing["status"] != status:
        article = "an" if status == "active" else "a"
        raise ToolError(f"The listing is {listing['status']}: this needs {article} {status} "
                        "listing.")
    return listing


@tool(Category.WRITE, returns={"listing_id": ListingId}, writes=("listing_id",),
      needs=("listing_id",))
def edit_listing(db, listing_id: ListingId, title: str = "", price: float = 0.0,
                 description: str = "") -> dict:
    """Change the title, asking price and/or description of an active listing (empty or 0
    keeps a field). Confirm the change with the member (explicit yes) before calling.

    Args:
        listing_id: The listing's id.
        title: The new title, 3 to 80 characters (empty: unchanged).
        price: The new asking price in dollars (0: unchanged).
        description: The new description (empty: unchanged).
    """
    listing = _own_listing(db, listing_id, "active")
    changes = {}
    if title.strip():
        changes["title"] = _text(title, "title", MAX_TITLE)
        if len(changes["title"]) < 3:
            raise ToolError("The title must have at least 3 characters.")
    if price:
        changes["price"] = _price(price)
    if description.strip():
        changes["description"] = _text(description, "description", MAX_TEXT)
    changes = {k: v for k, v in changes.items() if v != listing[k]}
    if not changes:
        raise ToolError("Nothing to change: give a new title, price or description.")
    sets = ", ".join(f"{k} = ?" for k in changes)
    db.execute(f"UPDATE listings SET {sets}, updated_on = ? WHERE listing_id = ?",
               (*changes.values(), TODAY, listing_id))
    return _listing_record(db, _listing(db, listing_id))


@tool(Category.WRITE, returns={"listing_id": ListingId}, writes=("listing_id", "offer_id"),
      needs=("listing_id",))
def close_listing(db, listing_id: ListingId) -> dict:
    """End an active listing without selling it; its open offers are declined. Confirm with
    the member (explicit yes) before calling.

    Args:
        listing_id: The listing's id.
    """
    _own_listing(db, listing_id, "active")
    db.execute("UPDATE listings SET status = 'closed', updated_on = ? WHERE listing_id = ?",
               (TODAY, listing_id))
    _decline_open_offers(db, listing_id)
    return _listing_record(db, _listing(db, listing_id))


@tool(Category.WRITE, returns={"listing_id": ListingId}, writes=("listing_id",),
      needs=("listing_id",))
def relist_listing(db, listing_id: ListingId, price: float = 0.0) -> dict:
    """Put a closed (ended, unsold) listing back on sale, optionally at a new asking price.
    Confirm with the member (explicit yes) before calling.

    Args:
        listing_id: The listing's id.
        price: The new asking price in dollars (0: keep the old one).
    """
    listing = _own_listing(db, listing_id, "closed")
    new_price = _price(price) if price else listing["price"]
    (active,) = db.execute("SELECT count(*) FROM listings WHERE seller_id = ? "
                           "AND status = 'active'", (listing["seller_id"],)).fetchone()
    if active >= MAX_ACTIVE_LISTINGS:
        raise ToolError(f"A member may have at most {MAX_ACTIVE_LISTINGS} active listings.")
    db.execute("UPDATE listings SET status = 'active', price = ?, updated_on = ? "
               "WHERE listing_id = ?", (new_price, TODAY, listing_id))
    return _listing_record(db, _listing(db, listing_id))


@tool(Category.WRITE, returns={"offer_id": OfferId, "listing_id": ListingId},
      writes=("offer_id",), needs=("listing_id", "payment_method_id"))
def make_offer(db, buyer_id: MemberId, listing_id: ListingId, amount: float,
               payment_method_id: PaymentMethodId, message: str = "") -> dict:
    """Make an offer on an active listing of another member: at least half of the asking
    price and below it; one open offer per buyer and listing. The offer is binding: if the
    seller accepts it, the card is charged. Confirm the details with the member (explicit
    yes) before calling.

    Args:
        buyer_id: The buying member's id.
        listing_id: The listing's id.
        amount: The offered price in dollars, at most two decimals.
        payment_method_id: The buyer's card to charge if the offer is accepted.
        message: An optional note to the seller, at most 1000 characters.
    """
    _member(db, buyer_id)
    amount = check_cents(amount)
    listing = _listing(db, listing_id)
    if listing["status"] != "active":
        raise ToolError(f"The listing is {listing['status']}: offers need an active listing.")
    if listing["seller_id"] == buyer_id:
        raise ToolError("A member cannot make an offer on their own listing.")
    floor = money(listing["price"] * MIN_OFFER_SHARE)
    if amount >= listing["price"]:
        raise ToolError(f"An offer must be below the asking price {listing['price']:.2f}; "
                        "buy it now instead.")
    if amount < floor:
        raise ToolError(f"An offer must be at least half of the asking price ({floor:.2f}).")
    _payment_method(db, payment_method_id, buyer_id)
    message = " ".join(message.split())
    if len(message) > MAX_TEXT:
        raise ToolError(f"The message may have at most {MAX_TEXT} characters.")
    if db.execute("SELECT 1 FROM offers WHERE listing_id = ? AND buyer_id = ? "
                  "AND status IN ('pending', 'countered')", (listing_id, buyer_id)).fetchone():
        raise ToolError("The buyer already has an open offer on this listing.")
    offer_id = counted_id(db, "offers", "offer_id", "ofr_")
    db.execute(f"INSERT INTO offers ({', '.join(_OFFER_COLUMNS)}) "
               "VALUES (?, ?, ?, ?, ?, NULL, ?, 'pending', ?, NULL)",
               (offer_id, listing_id, buyer_id, payment_method_id, amount, message, NOW))
    return _offer(db, offer_id)


def _open_offer(db: sqlite3.Connection, offer_id: str, member_id: str) -> tuple[dict, dict, str]:
    """The offer, its listing and the role in which ``member_id`` may answer it now."""
    offer = _offer(db, offer_id)
    listing = _listing(db, offer["listing_id"])
    if offer["status"] == "pending":
        if member_id != listing["seller_id"]:
            raise ToolError("Only the seller of the listing can answer a pending offer.")
        return offer, listing, "seller"
    if offer["status"] == "countered":
        if member_id != offer["buyer_id"]:
            raise ToolError("Only the buyer who made the offer can answer a counter-offer.")
        return offer, listing, "buyer"
    raise ToolError(f"The offer is {offer['status']}: only a pending or countered offer can be "
                    "answered.")


@tool(Category.WRITE, returns={"order_id": OrderId, "listing_id": ListingId},
      writes=("offer_id", "listing_id", "order_id"), needs=("offer_id",))
def accept_offer(db, offer_id: OfferId, member_id: MemberId) -> dict:
    """Accept an offer: the seller accepts a pending offer, or the buyer accepts the
    seller's counter-offer. The buyer's card is charged, the listing is sold (an order at
    the agreed price plus shipping) and the listing's other open offers are declined.
    Confirm with the member (explicit yes) before calling.

    Args:
        offer_id: The offer's id.
        member_id: The member who accepts (the seller of a pending offer, the buyer of a
            countered one).
    """
    offer, listing, _ = _open_offer(db, offer_id, member_id)
    if listing["status"] != "active":
        raise ToolError(f"The listing is {listing['status']}.")
    _payment_method(db, offer["payment_method_id"], offer["buyer_id"])
    price = offer["counter_amount"] if offer["status"] == "countered" else offer["amount"]
    db.execute("UPDATE offers SET status = 'accepted', responded_at = ? WHERE offer_id = ?",
               (NOW, offer_id))
    return _create_order(db, listing, offer["buyer_id"], offer["payment_method_id"], price,
                         offer_id)


@tool(Category.WRITE, returns={"offer_id": OfferId}, writes=("offer_id",), needs=("offer_id",))
def decline_offer(db, offer_id: OfferId, member_id: MemberId) -> dict:
    """Decline an offer: the seller declines a pending offer, or the buyer declines the
    seller's counter-offer. Confirm with the member (explicit yes) before calling.

    Args:
        offer_id: The offer's id.
        member_id: The member who declines (the seller of a pending offer, the buyer of a
            countered one).
    """
    _open_offer(db, offer_id, member_id)
    db.execute("UPDATE offers SET status = 'declined', responded_at = ? WHERE offer_id = ?",
               (NOW, offer_id))
    return _offer(db, offer_id)


@tool(Category.WRITE, returns={"offer_id": OfferId}, writes=("offer_id",), needs=("offer_id",))
def counter_offer(db, offer_id: OfferId, seller_id: MemberId, amount: float) -> dict:
    """Answer a pending offer with a counter-offer: a price above the offer and below the
    asking price, which the buyer may then accept or decline. Confirm with the member
    (explicit yes) before calling.

    Args:
        offer_id: The offer's id.
        seller_id: The seller of the listing.
        amount: The counter price in dollars, at most two decimals.
    """
    amount = check_cents(amount)
    offer, listing, role = _open_offer(db, offer_id, seller_id)
    if role != "seller":
        raise ToolError("Only the seller can counter a pending offer.")
    if not offer["amount"] < amount < listing["price"]:
        raise ToolError(f"A counter-offer must lie between the offer {offer['amount']:.2f} and "
                        f"the asking price {listing['price']:.2f}.")
    db.execute("UPDATE offers SET status = 'countered', counter_amount = ?, responded_at = ? "
               "WHERE offer_id = ?", (amount, NOW, offer_id))
    return _offer(db, offer_id)


@tool(Category.WRITE, returns={"order_id": OrderId, "listing_id": ListingId},
      writes=("order_id", "listing_id"), needs=("listing_id", "payment_method_id"))
def buy_now(db, buyer_id: MemberId, listing_id: ListingId,
            payment_method_id: PaymentMethodId) -> dict:
    """Buy an active listing of another member at its asking price plus shipping; the card
    is charged and the listing's open offers are declined. Confirm the details with the
    member (explicit yes) before calling.

    Args:
        buyer_id: The buying member's id.
        listing_id: The listing's id.
        payment_method_id: The buyer's card to charge.
    """
    _member(db, buyer_id)
    listing = _listing(db, listing_id)
    if listing["status"] != "active":
        raise ToolError(f"The listing is {listing['status']}: only an active listing can be "
                        "bought.")
    if listing["seller_id"] == buyer_id:
        raise ToolError("A member cannot buy their own listing.")
    _payment_method(db, payment_method_id, buyer_id)
    return _create_order(db, listing, buyer_id, payment_method_id, listing["price"], None)


def _party(order: dict, member_id: str) -> str:
    if member_id == order["buyer_id"]:
        return "buyer"
    if member_id == order["seller_id"]:
        return "seller"
    raise ToolError("The member is neither the buyer nor the seller of this order.")


@tool(Category.WRITE, returns={"order_id": OrderId, "listing_id": ListingId},
      writes=("order_id", "listing_id"), needs=("order_id",))
def cancel_order(db, order_id: OrderId, member_id: MemberId, reason: CancelReason) -> dict:
    """Cancel an order that has not shipped yet (status paid): the buyer is refunded and
    the listing goes back on sale. A shipped or delivered order cannot be cancelled.
    Confirm with the member (explicit yes) before calling.

    Args:
        order_id: The order's id.
        member_id: The buyer or the seller of the order.
        reason: 'buyer_changed_mind', 'out_of_stock', 'payment_issue' or 'other'.
    """
    order = _order(db, order_id)
    _party(order, member_id)
    if order["status"] != "paid":
        raise ToolError(f"The order is {order['status']}: only an order that has not shipped "
                        "(paid) can be cancelled.")
    db.execute("UPDATE orders SET status = 'cancelled', cancelled_at = ?, cancel_reason = ? "
               "WHERE order_id = ?", (NOW, reason, order_id))
    db.execute("UPDATE listings SET status = 'active', updated_on = ? WHERE listing_id = ?",
               (TODAY, order["listing_id"]))
    record = _order_record(db, _order(db, order_id))
    record["refunded"] = order["total"]
    return record


@tool(Category.WRITE, returns={"order_id": OrderId, "label_id": "label_id"},
      writes=("order_id", "label_id"), needs=("order_id",))
def purchase_shipping_label(db, order_id: OrderId, seller_id: MemberId, carrier: Carrier,
                            service: Service, weight_oz: int) -> dict:
    """Buy a shipping label for a paid order (the seller ships it): the order becomes
    shipped, with a tracking number. The price follows get_shipping_rates. Confirm the
    carrier, service and weight with the member (explicit yes) before calling.

    Args:
        order_id: The order's id.
        seller_id: The seller of the order.
        carrier: 'USPS', 'UPS' or 'FedEx'.
        service: 'ground', 'priority' or 'express'.
        weight_oz: The package's weight in ounces, 1 to 1120.
    """
    order = _order(db, order_id)
    if _party(order, seller_id) != "seller":
        raise ToolError("Only the seller can buy the shipping label of an order.")
    if order["status"] != "paid":
        raise ToolError(f"The order is {order['status']}: labels are bought for paid orders.")
    if not 1 <= weight_oz <= MAX_WEIGHT_OZ:
        raise ToolError(f"The weight must be between 1 and {MAX_WEIGHT_OZ} ounces.")
    label_id = counted_id(db, "shipping_labels", "label_id", "lbl_")
    number = int(label_id[4:])
    tracking = {"USPS": f"9400111{number:015d}", "UPS": f"1Z999AA1{number:010d}",
                "FedEx": f"77{number:010d}"}[carrier]
    cost = shipping_rate(carrier, service, weight_oz)
    db.execute("INSERT INTO shipping_labels (label_id, order_id, carrier, service, weight_oz, "
               "cost, tracking_number, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
               (label_id, order_id, carrier, service, weight_oz, cost, tracking, NOW))
    db.execute("UPDATE orders SET status = 'shipped', shipped_at = ? WHERE order_id = ?",
               (NOW, order_id))
    return {"label_id": label_id, "order_id": order_id, "carrier": carrier,
            "service": service, "weight_oz": weight_oz, "cost": cost,
            "tracking_number": tracking, "status": "shipped"}


@tool(Category.WRITE, returns={"order_id": OrderId, "return_id": "return_id"},
      writes=("order_id", "return_id"), needs=("order_id",))
def request_return(db, order_id: OrderId, buyer_id: MemberId, reason: ReturnReason) -> dict:
    """Open a return on a delivered order (the buyer asks the seller to take the item
    back); one return per order. Check the policy's time window first. Confirm with the
    member (explicit yes) before calling.

    Args:
        order_id: The order's id.
        buyer_id: The buyer of the order.
        reason: 'not_as_described', 'damaged', 'wrong_item' or 'changed_mind'.
    """
    order = _order(db, order_id)
    if _party(order, buyer_id) != "buyer":
        raise ToolError("Only the buyer can open a return.")
    if order["status"] != "delivered":
        raise ToolError(f"The order is {order['status']}: only a delivered order can be "
                        "returned.")
    if db.execute("SELECT 1 FROM returns WHERE order_id = ?", (order_id,)).fetchone():
        raise ToolError("A return is already open on this order.")
    return_id = counted_id(db, "returns", "return_id", "ret_")
    db.execute("INSERT INTO returns (return_id, order_id, reason, status, opened_on) "
               "VALUES (?, ?, ?, 'open', ?)", (return_id, order_id, reason, TODAY))
    return {"return_id": return_id, "order_id": order_id, "reason": reason, "status": "open",
            "opened_on": TODAY}


@tool(Category.WRITE, returns={"order_id": OrderId, "feedback_id": "feedback_id"},
      writes=("feedback_id",), needs=("order_id",))
def leave_feedback(db, order_id: OrderId, member_id: MemberId, rating: Rating,
                   comment: str) -> dict:
    """Leave feedback on the other party of a delivered order (the buyer rates the seller,
    the seller rates the buyer), once per member and order, within 60 days of delivery.
    Confirm the rating and comment with the member (explicit yes) before calling.

    Args:
        order_id: The order's id.
        member_id: The member who leaves the feedback.
        rating: 'positive', 'neutral' or 'negative'.
        comment: The comment, 1 to 500 characters.
    """
    order = _order(db, order_id)
    role = _party(order, member_id)
    comment = _text(comment, "comment", 500)
    if order["status"] != "delivered":
        raise ToolError(f"The order is {order['status']}: feedback needs a delivered order.")
    if days_since(order["delivered_at"]) > FEEDBACK_WINDOW_DAYS:
        raise ToolError(f"Feedback can be left only within {FEEDBACK_WINDOW_DAYS} days of "
                        "delivery.")
    if db.execute("SELECT 1 FROM feedback WHERE order_id = ? AND author_id = ?",
                  (order_id, member_id)).fetchone():
        raise ToolError("This member already left feedback on this order.")
    other = order["seller_id"] if role == "buyer" else order["buyer_id"]
    feedback_id = counted_id(db, "feedback", "feedback_id", "fb_")
    db.execute("INSERT INTO feedback (feedback_id, order_id, author_id, recipient_id, role, "
               "rating, comment, left_on) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
               (feedback_id, order_id, member_id, other, role, rating, comment, TODAY))
    return {"feedback_id": feedback_id, "order_id": order_id, "to_username": _username(db, other),
            "rating": rating, "comment": comment, "left_on": TODAY}


@tool(Category.WRITE, returns={"saved_search_id": SavedSearchId, "member_id": MemberId},
      writes=("saved_search_id",))
def save_search(db, member_id: MemberId, query: str, category: str = "",
                max_price: float = 0.0) -> dict:
    """Save a search so the member is told about new matching listings (at most 20 saved
    searches). Confirm with the member (explicit yes) before calling.

    Args:
        member_id: The member's id.
        query: The words to look for in titles, 1 to 80 characters.
        category: Only this category (empty: any).
        max_price: Only listings priced at most this (0: no limit).
    """
    _member(db, member_id)
    query = _text(query, "query", 80).lower()
    category = category.strip()
    if category and category not in CATEGORIES:
        raise ToolError(f"Unknown category {category[:40]!r}; categories: "
                        f"{', '.join(CATEGORIES)}.")
    if max_price:
        max_price = _price(max_price, "maximum price")
    if db.execute("SELECT 1 FROM saved_searches WHERE member_id = ? AND query = ? "
                  "AND category = ? AND max_price = ?",
                  (member_id, query, category, max_price)).fetchone():
        raise ToolError("The same search is already saved.")
    (count,) = db.execute("SELECT count(*) FROM saved_searches WHERE member_id = ?",
                          (member_id,)).fetchone()
    if count >= MAX_SAVED_SEARCHES:
        raise ToolError(f"A member may save at most {MAX_SAVED_SEARCHES} searches.")
    saved_id = counted_id(db, "saved_searches", "saved_search_id", "srch_")
    db.execute("INSERT INTO saved_searches (saved_search_id, member_id, query, category, "
               "max_price, created_on) VALUES (?, ?, ?, ?, ?, ?)",
               (saved_id, member_id, query, category, float(max_price), TODAY))
    return {"saved_search_id": saved_id, "member_id": member_id, "query": query,
            "category": category, "max_price": float(max_price), "created_on": TODAY}


@tool(Category.WRITE, returns={"saved_search_id": SavedSearchId}, writes=("saved_search_id",),
      needs=("saved_search_id",))
def delete_saved_search(db, saved_search_id: SavedSearchId) -> dict:
    """Delete a saved search. Confirm with the member (explicit yes) before calling.

    Args:
        saved_search_id: The saved search's id.
    """
    row = fetch_row(db, "SELECT query FROM saved_searches WHERE saved_search_id = ?",
                    (saved_search_id,), f"Saved search {saved_search_id!r} not found.")
    db.execute("DELETE FROM saved_searches WHERE saved_search_id = ?", (saved_search_id,))
    return {"saved_search_id": saved_search_id, "query": row[0], "deleted": True}


def _post(db: sqlite3.Connection, conversation_id: str, sender_id: str, body: str) -> dict:
    message_id = counted_id(db, "messages", "message_id", "msg_")
    db.execute("INSERT INTO messages (message_id, conversation_id, sender_id, body, sent_at, "
               "is_read) VALUES (?, ?, ?, ?, ?, 0)",
               (message_id, conversation_id, sender_id, body, NOW))
    db.execute("UPDATE messages SET is_read = 1 WHERE conversation_id = ? AND sender_id != ?",
               (conversation_id, sender_id))
    return {"message_id": message_id, "conversation_id": conversation_id, "body": body,
            "sent_at": NOW}


@tool(Category.WRITE, returns={"conversation_id": ConversationId, "message_id": "message_id"},
      writes=("conversation_id", "message_id"), needs=("listing_id",))
def contact_seller(db, buyer_id: MemberId, listing_id: ListingId, body: str) -> dict:
    """Send a message to the seller of a listing (a question before buying, or about an
    order); it continues the member's conversation about that listing, or starts one.
    Confirm the message with the member (explicit yes) before calling.

    Args:
        buyer_id: The member who writes (not the seller).
        listing_id: The listing the message is about.
        body: The message, 1 to 1000 characters.
    """
    _member(db, buyer_id)
    listing = _listing(db, listing_id)
    if listing["seller_id"] == buyer_id:
        raise ToolError("A seller cannot contact themself; reply in a conversation instead.")
    body = _text(body, "message", MAX_TEXT)
    row = db.execute("SELECT conversation_id FROM conversations WHERE listing_id = ? "
                     "AND buyer_id = ?", (listing_id, buyer_id)).fetchone()
    if row is None:
        conversation_id = counted_id(db, "conversations", "conversation_id", "cnv_")
        db.execute("INSERT INTO conversations (conversation_id, listing_id, buyer_id, "
                   "seller_id, started_at) VALUES (?, ?, ?, ?, ?)",
                   (conversation_id, listing_id, buyer_id, listing["seller_id"], NOW))
    else:
        conversation_id = row[0]
    result = _post(db, conversation_id, buyer_id, body)
    result["to_username"] = _username(db, listing["seller_id"])
    return result


@tool(Category.WRITE, returns={"conversation_id": ConversationId, "message_id": "message_id"},
      writes=("message_id",), needs=("conversation_id",))
def reply_to_conversation(db, conversation_id: ConversationId, member_id: MemberId,
                          body: str) -> dict:
    """Reply in a conversation the member takes part in (as the buyer or the seller); the
    other party's messages are marked read. Confirm the message with the member (explicit
    yes) before calling.

    Args:
        conversation_id: The conversation's id.
        member_id: The member who writes.
        body: The message, 1 to 1000 characters.
    """
    row = fetch_row(db, "SELECT buyer_id, seller_id FROM conversations "
                    "WHERE conversation_id = ?", (conversation_id,),
                    f"Conversation {conversation_id!r} not found.")
    if member_id not in row:
        raise ToolError("The member does not take part in this conversation.")
    body = _text(body, "message", MAX_TEXT)
    result = _post(db, conversation_id, member_id, body)
    result["to_username"] = _username(db, row[1] if member_id == row[0] else row[0])
    return result
