"""Each marketplace tool: its success path and its error paths; failed writes change nothing."""

from __future__ import annotations

from collections import Counter

import pytest

from tool_gym.core.tools import Category
from tool_gym.domains.marketplace import DOMAIN
from tool_gym.domains.marketplace.tools import NOW, TODAY, money, shipping_rate

from ..calls import fails, ok, one, rules_catch


def active_listing(box):
    """An active listing with no open offer, its seller, price and shipping."""
    return one(box, "SELECT l.listing_id, l.seller_id, l.price, l.shipping_cost FROM listings l "
                    "WHERE l.status = 'active' AND l.price >= 20 AND NOT EXISTS (SELECT 1 FROM "
                    "offers o WHERE o.listing_id = l.listing_id AND o.status IN ('pending', "
                    "'countered')) ORDER BY l.rowid LIMIT 1")


def buyer_for(box, seller_id):
    """Another member with an active card: member id, card id."""
    return one(box, "SELECT member_id, payment_method_id FROM payment_methods "
                    "WHERE status = 'active' AND member_id != ? ORDER BY rowid LIMIT 1",
               (seller_id,))


def status(box, table, key, value):
    return one(box, f"SELECT status FROM {table} WHERE {key} = ?", (value,))[0]


def paid_order(box):
    return one(box, "SELECT order_id, buyer_id, seller_id, listing_id FROM orders "
                    "WHERE status = 'paid' ORDER BY rowid LIMIT 1")


# ------------------------------------------------------------------------- schemas

def test_toolbox_has_many_reads_and_writes():
    counts = Counter(t.category for t in DOMAIN.toolbox)
    assert len(DOMAIN.toolbox) >= 17
    assert counts[Category.READ] >= 10 and counts[Category.WRITE] >= 10
    assert counts[Category.GENERIC] == 1


# --------------------------------------------------------------------------- reads

def test_find_member_and_profile(box, state):
    member = state["members"][3]
    assert ok(box, "find_member_by_email",
              email=f" {member['email'].upper()} ") == member["member_id"]
    assert ok(box, "find_member_by_username",
              username=member["username"]) == member["member_id"]
    fails(box, "find_member_by_email", "no member", email="nobody@example.com")
    fails(box, "find_member_by_username", "no member", username="nobody")
    seller, = one(box, "SELECT recipient_id FROM feedback WHERE role = 'buyer' LIMIT 1")
    profile = ok(box, "get_member_profile", member_id=seller)
    assert sum(profile["feedback_as_seller"].values()) >= 1
    for name in ("get_member_profile", "list_payment_methods", "list_my_listings",
                 "list_offers", "list_orders", "list_feedback", "list_saved_searches",
                 "list_conversations"):
        fails(box, name, "not found", member_id="mem_missing")


def test_search_and_listings(box):
    found = ok(box, "search_listings", query="LEGO star")["results"]
    assert all("lego" in r["title"].lower() and "star" in r["title"].lower() for r in found)
    cheap = ok(box, "search_listings", category="books", max_price=50)["results"]
    assert cheap and all(r["category"] == "Books" and r["price"] <= 50 for r in cheap)
    assert [r["price"] for r in cheap] == sorted(r["price"] for r in cheap)
    seller, = one(box, "SELECT m.username FROM listings l JOIN members m "
                       "ON m.member_id = l.seller_id WHERE l.status = 'active' LIMIT 1")
    mine = ok(box, "search_listings", seller_username=seller.upper())["results"]
    assert mine and {r["seller_username"] for r in mine} == {seller}
    fails(box, "search_listings", "give words")
    fails(box, "search_listings", "must not be negative", query="lego", max_price=-1)
    listing_id, seller_id, _, _ = active_listing(box)
    listing = ok(box, "get_listing", listing_id=listing_id)
    assert listing["status"] == "active" and listing["seller_username"]
    fails(box, "get_listing", "not found", listing_id="lst_missing")
    sold = ok(box, "list_my_listings", member_id=seller_id, status="active")["listings"]
    assert sold and all(x["status"] == "active" for x in sold)
    fails(box, "list_my_listings", "must be one of", member_id=seller_id, status="gone")


def test_offers_orders_feedback_and_rates(box):
    buyer, = one(box, "SELECT buyer_id FROM offers WHERE status = 'countered' LIMIT 1")
    made = ok(box, "list_offers", member_id=buyer, role="buyer")["offers"]
    assert made and all(o["role"] == "buyer" and o["payment_method_id"] for o in made)
    assert any(o["counter_amount"] for o in made if o["status"] == "countered")
    seller, = one(box, "SELECT seller_id FROM orders WHERE status = 'shipped' LIMIT 1")
    sales = ok(box, "list_orders", member_id=seller, role="seller")["orders"]
    shipped = [o for o in sales if o["status"] == "shipped"]
    assert shipped and all(o["tracking_number"] and o["role"] == "seller" for o in shipped)
    order = ok(box, "get_order", order_id=shipped[0]["order_id"])
    assert order["carrier"] in ("USPS", "UPS", "FedEx")
    fails(box, "get_order", "not found", order_id="ord_missing")
    author, = one(box, "SELECT author_id FROM feedback LIMIT 1")
    assert ok(box, "list_feedback", member_id=author)["given"]
    rates = ok(box, "get_shipping_rates", weight_oz=33)["rates"]
    assert len(rates) == 9
    assert {"carrier": "USPS", "service": "ground",
            "price": shipping_rate("USPS", "ground", 33)} in rates
    assert shipping_rate("USPS", "ground", 33) == money(5.25 + 0.95 * 3)
    fails(box, "get_shipping_rates", "between 1 and 1120", weight_oz=0)
    member, = one(box, "SELECT member_id FROM saved_searches LIMIT 1")
    assert ok(box, "list_saved_searches", member_id=member)["saved_searches"]
    buyer, = one(box, "SELECT buyer_id FROM conversations LIMIT 1")
    talks = ok(box, "list_conversations", member_id=buyer)["conversations"]
    assert talks and all(c["messages"] for c in talks)
    assert ok(box, "transfer_to_human_agents", summary="help") == "Transfer successful"


# ------------------------------------------------------------------------- listings

@pytest.mark.usefixtures("rules_kept")
def test_create_edit_close_relist(box):
    member, = one(box, "SELECT member_id FROM members LIMIT 1")
    made = ok(box, "create_listing", seller_id=member, title="  Retro   Lamp ",
              category="Home & Kitchen", condition="good", price=25, shipping_cost=4.99)
    assert made["title"] == "Retro Lamp" and made["status"] == "active"
    assert made["created_on"] == TODAY and made["listing_id"].split("_")[1].isdigit()
    listing = made["listing_id"]
    assert ok(box, "edit_listing", listing_id=listing, price=22.5)["price"] == 22.5
    fails(box, "edit_listing", "nothing to change", listing_id=listing, price=22.5)
    fails(box, "relist_listing", "this needs a closed listing", listing_id=listing)
    assert ok(box, "close_listing", listing_id=listing)["status"] == "closed"
    fails(box, "edit_listing", "this needs an active listing", listing_id=listing, price=20)
    fails(box, "close_listing", "active", listing_id=listing)
    relisted = ok(box, "relist_listing", listing_id=listing, price=19.99)
    assert relisted["status"] == "active" and relisted["price"] == 19.99


def test_listing_errors(box):
    member, = one(box, "SELECT member_id FROM members LIMIT 1")
    args = {"seller_id": member, "category": "Toys", "condition": "good", "shipping_cost": 0}
    fails(box, "create_listing", "at least 3", **args, title="ab", price=10)
    fails(box, "create_listing", "at most 80", **args, title="x" * 81, price=10)
    fails(box, "create_listing", "between 1.00 and 50000.00", **args, title="Lamp",
          price=60000)
    fails(box, "create_listing", "whole cents", **args, title="Lamp", price=10.001)
    fails(box, "create_listing", "must be one of", seller_id=member, title="Lamp",
          category="Cars", condition="good", price=10, shipping_cost=0)
    fails(box, "create_listing", "shipping cost", seller_id=member, title="Lamp",
          category="Toys", condition="good", price=10, shipping_cost=500)
    fails(box, "create_listing", "not found", seller_id="mem_missing", title="Lamp",
          category="Toys", condition="good", price=10, shipping_cost=0)
    sold, = one(box, "SELECT listing_id FROM listings WHERE status = 'sold' LIMIT 1")
    fails(box, "edit_listing", "this needs an active listing", listing_id=sold, price=10)
    fails(box, "edit_listing", "not found", listing_id="lst_missing", price=10)


# ----------------------------------------------------------------- offers and buying

@pytest.mark.usefixtures("rules_kept")
def test_offer_counter_and_accept(box):
    listing, seller, price, shipping = active_listing(box)
    buyer, card = buyer_for(box, seller)
    amount = money(price * 0.7)
    offer = ok(box, "make_offer", buyer_id=buyer, listing_id=listing, amount=amount,
               payment_method_id=card)
    assert offer["status"] == "pending"
    fails(box, "make_offer", "already has an open offer", buyer_id=buyer, listing_id=listing,
          amount=amount, payment_method_id=card)
    fails(box, "accept_offer", "only the seller", offer_id=offer["offer_id"], member_id=buyer)
    fails(box, "counter_offer", "between the offer", offer_id=offer["offer_id"],
          seller_id=seller, amount=price)
    counter = money(price * 0.85)
    assert ok(box, "counter_offer", offer_id=offer["offer_id"], seller_id=seller,
              amount=counter)["status"] == "countered"
    fails(box, "accept_offer", "only the buyer", offer_id=offer["offer_id"], member_id=seller)
    order = ok(box, "accept_offer", offer_id=offer["offer_id"], member_id=buyer)
    assert order["item_price"] == counter and order["total"] == money(counter + shipping)
    assert order["status"] == "paid" and order["ordered_at"] == NOW
    assert status(box, "listings", "listing_id", listing) == "sold"
    fails(box, "accept_offer", "only a pending or countered", offer_id=offer["offer_id"],
          member_id=buyer)


@pytest.mark.usefixtures("rules_kept")
def test_offer_rules_and_decline(box):
    listing, seller, price, _ = active_listing(box)
    buyer, card = buyer_for(box, seller)
    seller_card, = one(box, "SELECT payment_method_id FROM payment_methods WHERE member_id = ?",
                       (seller,))
    expired, = one(box, "SELECT payment_method_id FROM payment_methods WHERE status = 'expired' "
                        "LIMIT 1")
    args = {"buyer_id": buyer, "listing_id": listing}
    fails(box, "make_offer", "below the asking price", **args, amount=price,
          payment_method_id=card)
    fails(box, "make_offer", "at least half", **args, amount=money(price * 0.4),
          payment_method_id=card)
    fails(box, "make_offer", "does not belong", **args, amount=money(price * 0.8),
          payment_method_id=seller_card)
    fails(box, "make_offer", "own listing", buyer_id=seller, listing_id=listing,
          amount=money(price * 0.8), payment_method_id=seller_card)
    owner, = one(box, "SELECT member_id FROM payment_methods WHERE payment_method_id = ?",
                 (expired,))
    if owner != seller:
        fails(box, "make_offer", "expired", buyer_id=owner, listing_id=listing,
              amount=money(price * 0.8), payment_method_id=expired)
    offer = ok(box, "make_offer", **args, amount=money(price * 0.8), payment_method_id=card)
    fails(box, "decline_offer", "only the seller", offer_id=offer["offer_id"], member_id=buyer)
    assert ok(box, "decline_offer", offer_id=offer["offer_id"],
              member_id=seller)["status"] == "declined"
    closed, = one(box, "SELECT listing_id FROM listings WHERE status = 'closed' LIMIT 1")
    fails(box, "make_offer", "offers need an active listing", buyer_id=buyer,
          listing_id=closed, amount=10, payment_method_id=card)
    fails(box, "decline_offer", "not found", offer_id="ofr_missing", member_id=seller)


@pytest.mark.usefixtures("rules_kept")
def test_buy_now_declines_open_offers_and_cancel_relists(box):
    listing, seller, price, shipping = one(
        box, "SELECT l.listing_id, l.seller_id, l.price, l.shipping_cost FROM listings l "
             "JOIN offers o ON o.listing_id = l.listing_id WHERE l.status = 'active' "
             "AND o.status = 'pending' LIMIT 1")
    buyer, card = buyer_for(box, seller)
    order = ok(box, "buy_now", buyer_id=buyer, listing_id=listing, payment_method_id=card)
    assert order["total"] == money(price + shipping) and order["offer_id"] is None
    (open_offers,) = one(box, "SELECT count(*) FROM offers WHERE listing_id = ? "
                              "AND status IN ('pending', 'countered')", (listing,))
    assert open_offers == 0
    fails(box, "buy_now", "only an active listing", buyer_id=buyer, listing_id=listing,
          payment_method_id=card)
    fails(box, "cancel_order", "neither the buyer nor the seller", order_id=order["order_id"],
          member_id="mem_other", reason="other")
    cancelled = ok(box, "cancel_order", order_id=order["order_id"], member_id=buyer,
                   reason="buyer_changed_mind")
    assert cancelled["status"] == "cancelled" and cancelled["refunded"] == order["total"]
    assert status(box, "listings", "listing_id", listing) == "active"
    fails(box, "cancel_order", "only an order that has not shipped",
          order_id=order["order_id"], member_id=buyer, reason="other")
    fails(box, "buy_now", "own listing", buyer_id=seller, listing_id=listing,
          payment_method_id=card)


# -------------------------------------------------------------- shipping and after

@pytest.mark.usefixtures("rules_kept")
def test_shipping_label(box):
    order, buyer, seller, _ = paid_order(box)
    fails(box, "purchase_shipping_label", "only the seller", order_id=order, seller_id=buyer,
          carrier="USPS", service="ground", weight_oz=10)
    fails(box, "purchase_shipping_label", "between 1 and 1120", order_id=order,
          seller_id=seller, carrier="USPS", service="ground", weight_oz=5000)
    fails(box, "purchase_shipping_label", "must be one of", order_id=order, seller_id=seller,
          carrier="DHL", service="ground", weight_oz=10)
    label = ok(box, "purchase_shipping_label", order_id=order, seller_id=seller,
               carrier="UPS", service="priority", weight_oz=40)
    assert label["cost"] == shipping_rate("UPS", "priority", 40)
    assert label["tracking_number"].startswith("1Z")
    assert status(box, "orders", "order_id", order) == "shipped"
    fails(box, "purchase_shipping_label", "labels are bought for paid orders", order_id=order,
          seller_id=seller, carrier="UPS", service="priority", weight_oz=40)
    fails(box, "cancel_order", "only an order that has not shipped", order_id=order,
          member_id=seller, reason="other")


@pytest.mark.usefixtures("rules_kept")
def test_returns_and_feedback(box):
    order, buyer, seller = one(
        box, "SELECT o.order_id, o.buyer_id, o.seller_id FROM orders o WHERE o.status = "
             "'delivered' AND o.delivered_at >= '2024-08-01' AND NOT EXISTS (SELECT 1 FROM "
             "feedback f WHERE f.order_id = o.order_id) AND NOT EXISTS (SELECT 1 FROM returns r "
             "WHERE r.order_id = o.order_id) LIMIT 1")
    fails(box, "request_return", "only the buyer", order_id=order, buyer_id=seller,
          reason="damaged")
    made = ok(box, "request_return", order_id=order, buyer_id=buyer, reason="damaged")
    assert made["status"] == "open"
    fails(box, "request_return", "already open", order_id=order, buyer_id=buyer,
          reason="damaged")
    paid, paid_buyer, _, _ = paid_order(box)
    fails(box, "request_return", "only a delivered order", order_id=paid, buyer_id=paid_buyer,
          reason="damaged")
    given = ok(box, "leave_feedback", order_id=order, member_id=buyer, rating="positive",
               comment="Great!")
    assert given["rating"] == "positive"
    fails(box, "leave_feedback", "already left", order_id=order, member_id=buyer,
          rating="positive", comment="Again")
    fails(box, "leave_feedback", "must not be empty", order_id=order, member_id=seller,
          rating="positive", comment="  ")
    ok(box, "leave_feedback", order_id=order, member_id=seller, rating="neutral",
       comment="Slow to pay.")
    old, old_buyer = one(box, "SELECT order_id, buyer_id FROM orders WHERE status = 'delivered' "
                              "AND delivered_at < '2024-07-01' LIMIT 1")
    fails(box, "leave_feedback", "within 60 days", order_id=old, member_id=old_buyer,
          rating="positive", comment="Late")
    fails(box, "leave_feedback", "feedback needs a delivered order", order_id=paid,
          member_id=paid_buyer, rating="positive", comment="Early")


# ---------------------------------------------------------- searches and messages

def test_saved_searches(box):
    member, = one(box, "SELECT member_id FROM members WHERE member_id NOT IN (SELECT member_id "
                       "FROM saved_searches) LIMIT 1")
    made = ok(box, "save_search", member_id=member, query="  Vintage  Camera ",
              max_price=150)
    assert made["query"] == "vintage camera" and made["max_price"] == 150
    fails(box, "save_search", "already saved", member_id=member, query="vintage camera",
          max_price=150)
    fails(box, "save_search", "unknown category", member_id=member, query="lamp",
          category="Cars")
    fails(box, "save_search", "must not be empty", member_id=member, query=" ")
    assert ok(box, "delete_saved_search",
              saved_search_id=made["saved_search_id"])["deleted"] is True
    fails(box, "delete_saved_search", "not found", saved_search_id=made["saved_search_id"])
    for i in range(20):
        ok(box, "save_search", member_id=member, query=f"thing {i}")
    fails(box, "save_search", "at most 20", member_id=member, query="one more")


@pytest.mark.usefixtures("rules_kept")
def test_messages(box):
    listing, seller, _, _ = active_listing(box)
    buyer, _ = buyer_for(box, seller)
    first = ok(box, "contact_seller", buyer_id=buyer, listing_id=listing,
               body="Is this still available?")
    again = ok(box, "contact_seller", buyer_id=buyer, listing_id=listing, body="Hello?")
    assert first["conversation_id"] == again["conversation_id"]
    fails(box, "contact_seller", "cannot contact themself", buyer_id=seller,
          listing_id=listing, body="Hi")
    fails(box, "contact_seller", "at most 1000", buyer_id=buyer, listing_id=listing,
          body="x" * 1001)
    reply = ok(box, "reply_to_conversation", conversation_id=first["conversation_id"],
               member_id=seller, body="Yes, it is.")
    assert reply["to_username"]
    (unread,) = one(box, "SELECT count(*) FROM messages WHERE conversation_id = ? "
                         "AND sender_id = ? AND is_read = 0",
                    (first["conversation_id"], buyer))
    assert unread == 0
    fails(box, "reply_to_conversation", "does not take part",
          conversation_id=first["conversation_id"], member_id="mem_other", body="Hi")
    fails(box, "reply_to_conversation", "not found", conversation_id="cnv_missing",
          member_id=seller, body="Hi")


# ------------------------------------------------------------------------- invariants

def test_invariants_catch_broken_rules(box):
    rules_catch(box, {
        "exactly one order": "UPDATE listings SET status = 'sold' WHERE listing_id = (SELECT "
        "listing_id FROM listings WHERE status = 'active' LIMIT 1)",
        "an unsold listing has no order": "UPDATE listings SET status = 'active' WHERE "
        "listing_id = (SELECT listing_id FROM orders WHERE status = 'paid' LIMIT 1)",
        "open offers are only on active listings": "UPDATE listings SET status = 'closed' "
        "WHERE listing_id = (SELECT listing_id FROM offers WHERE status = 'pending' LIMIT 1)",
        "has a shipping label": "DELETE FROM shipping_labels WHERE rowid = 1",
        "item price plus shipping": "UPDATE orders SET total = total + 1 WHERE rowid = 1",
        "returns are opened on delivered orders": "UPDATE orders SET status = 'paid', "
        "shipped_at = NULL, delivered_at = NULL WHERE order_id = (SELECT order_id FROM returns "
        "LIMIT 1)",
        "sent by a member of its conversation": "UPDATE messages SET sender_id = (SELECT "
        "member_id FROM members WHERE member_id NOT IN (SELECT buyer_id FROM conversations c "
        "WHERE c.conversation_id = messages.conversation_id) AND member_id NOT IN (SELECT "
        "seller_id FROM conversations c WHERE c.conversation_id = messages.conversation_id) "
        "LIMIT 1) WHERE rowid = 1",
    })
