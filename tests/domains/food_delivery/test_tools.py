"""Each food delivery tool: its success path and its error paths; failed writes change
nothing."""

from __future__ import annotations

from collections import Counter

from tool_gym.core.tools import Category
from tool_gym.domains.food_delivery import DOMAIN
from tool_gym.domains.food_delivery.tools import NOW, cents_of

from ..calls import fails, ok, one, rules_catch


def cart_customer(box):
    """A customer with a cart whose restaurant is open, a card and a default address there."""
    return one(box, "SELECT c.customer_id, m.restaurant_id, a.address_id, p.payment_method_id "
                    "FROM cart_items c JOIN menu_items m ON m.item_id = c.item_id "
                    "JOIN restaurants r ON r.restaurant_id = m.restaurant_id "
                    "JOIN addresses a ON a.customer_id = c.customer_id AND a.city = r.city "
                    "JOIN payment_methods p ON p.customer_id = c.customer_id AND p.kind = 'card' "
                    "WHERE r.is_open = 1 AND r.min_order = 0 LIMIT 1")


def test_toolbox_has_six_reads_and_six_writes_at_least():
    counts = Counter(t.category for t in DOMAIN.toolbox)
    assert counts[Category.READ] >= 6 and counts[Category.WRITE] >= 6


def test_find_customer_and_profile(box, state):
    customer = state["customers"][3]
    assert ok(box, "find_customer_by_email", email=customer["email"].upper()) == \
        customer["customer_id"]
    assert ok(box, "find_customer_by_username", username=customer["username"]) == \
        customer["customer_id"]
    fails(box, "find_customer_by_email", "no customer", email="x@y.z")
    fails(box, "find_customer_by_username", "no customer", username="ghost")
    profile = ok(box, "get_customer_profile", customer_id=customer["customer_id"])
    assert profile["addresses"] and profile["payment_methods"]
    assert sum(a["is_default"] for a in profile["addresses"]) == 1
    fails(box, "get_customer_profile", "not found", customer_id="cus_missing")


def test_orders_reads(box):
    customer, order = one(box, "SELECT customer_id, order_id FROM orders "
                               "WHERE status = 'delivered' LIMIT 1")
    orders = ok(box, "list_orders", customer_id=customer)["orders"]
    stamps = [o["placed_at"] for o in orders]
    assert stamps == sorted(stamps, reverse=True)
    assert all(o["status"] == "delivered" for o in ok(
        box, "list_orders", customer_id=customer, status="delivered")["orders"])
    fails(box, "list_orders", "unknown order status", customer_id=customer, status="lost")
    fails(box, "list_orders", "not found", customer_id="cus_missing")
    detail = ok(box, "get_order", order_id=order)
    assert detail["items"] and detail["hours_since_delivery"] > 0
    assert sum(cents_of(i["unit_price"]) * i["quantity"] for i in detail["items"]) == \
        cents_of(detail["subtotal"])
    fails(box, "get_order", "not found", order_id="ord_missing")


def test_restaurants_and_menus(box):
    found = ok(box, "search_restaurants", query="garden")["restaurants"]
    assert any(r["name"] == "Bangkok Garden" for r in found)
    thai = ok(box, "search_restaurants", cuisine="thai", city="")["restaurants"]
    assert thai and all(r["cuisine"] == "Thai" for r in thai)
    assert ok(box, "search_restaurants", query="no such place")["restaurants"] == []
    menu = ok(box, "get_menu", restaurant_id=thai[0]["restaurant_id"])
    assert menu["items"] and all(isinstance(i["available"], bool) for i in menu["items"])
    fails(box, "get_menu", "not found", restaurant_id="rest_missing")


def test_cart_and_promo_reads(box):
    customer, *_ = cart_customer(box)
    cart = ok(box, "get_cart", customer_id=customer)
    assert cart["items"] and cart["restaurant_name"]
    quote = ok(box, "check_promo_code", customer_id=customer, code="welcome10")
    assert quote["total"] == round(quote["subtotal"] + quote["delivery_fee"]
                                   - quote["discount"], 2)
    fails(box, "check_promo_code", "expired", customer_id=customer, code="SPRING30")
    fails(box, "check_promo_code", "no longer active", customer_id=customer, code="STAFF50")
    fails(box, "check_promo_code", "does not exist", customer_id=customer, code="FREEFOOD")
    empty, = one(box, "SELECT customer_id FROM customers c WHERE NOT EXISTS (SELECT 1 FROM "
                      "cart_items i WHERE i.customer_id = c.customer_id) LIMIT 1")
    assert ok(box, "get_cart", customer_id=empty)["items"] == []
    fails(box, "check_promo_code", "cart is empty", customer_id=empty, code="WELCOME10")
    fails(box, "get_cart", "not found", customer_id="cus_missing")
    assert ok(box, "transfer_to_human_agents", summary="x") == "Transfer successful"


def test_cart_writes(box):
    customer, restaurant, *_ = cart_customer(box)
    item, = one(box, "SELECT item_id FROM menu_items WHERE restaurant_id = ? AND available = 1 "
                     "LIMIT 1", (restaurant,))
    before_q = box.db.execute("SELECT quantity FROM cart_items WHERE customer_id = ? AND "
                              "item_id = ?", (customer, item)).fetchone()
    cart = ok(box, "add_item_to_cart", customer_id=customer, item_id=item, quantity=2)
    line = next(i for i in cart["items"] if i["item_id"] == item)
    assert line["quantity"] == (before_q[0] if before_q else 0) + 2
    elsewhere, = one(box, "SELECT m.item_id FROM menu_items m JOIN restaurants r "
                          "ON r.restaurant_id = m.restaurant_id WHERE m.restaurant_id != ? "
                          "AND m.available = 1 AND r.is_open = 1 LIMIT 1", (restaurant,))
    sold_out, = one(box, "SELECT item_id FROM menu_items WHERE available = 0 LIMIT 1")
    closed, = one(box, "SELECT m.item_id FROM menu_items m JOIN restaurants r ON "
                       "r.restaurant_id = m.restaurant_id WHERE r.is_open = 0 AND m.available = 1 "
                       "LIMIT 1")
    before = box.state_hash()
    fails(box, "add_item_to_cart", "one restaurant", customer_id=customer, item_id=elsewhere)
    fails(box, "add_item_to_cart", "sold out", customer_id=customer, item_id=sold_out)
    fails(box, "add_item_to_cart", "closed", customer_id=customer, item_id=closed)
    fails(box, "add_item_to_cart", "between 1 and 20", customer_id=customer, item_id=item,
          quantity=0)
    fails(box, "add_item_to_cart", "at most 20", customer_id=customer, item_id=item,
          quantity=20)
    fails(box, "add_item_to_cart", "not found", customer_id=customer, item_id="item_missing")
    fails(box, "remove_item_from_cart", "not in the cart", customer_id=customer,
          item_id=elsewhere)
    assert box.state_hash() == before
    left = ok(box, "remove_item_from_cart", customer_id=customer, item_id=item)
    assert item not in {i["item_id"] for i in left["items"]}


def test_place_order(box):
    customer, restaurant, address, card = cart_customer(box)
    other_city, = one(box, "SELECT a.address_id FROM addresses a JOIN restaurants r "
                           "ON r.restaurant_id = ? WHERE a.customer_id = ? AND a.city != r.city "
                           "UNION ALL SELECT NULL LIMIT 1", (restaurant, customer))
    stranger, = one(box, "SELECT address_id FROM addresses WHERE customer_id != ? LIMIT 1",
                    (customer,))
    other_card, = one(box, "SELECT payment_method_id FROM payment_methods "
                           "WHERE customer_id != ? LIMIT 1", (customer,))
    before = box.state_hash()
    fails(box, "place_order", "not one of the customer's addresses", customer_id=customer,
          address_id=stranger, payment_method_id=card)
    fails(box, "place_order", "payment method is not", customer_id=customer,
          address_id=address, payment_method_id=other_card)
    fails(box, "place_order", "expired", customer_id=customer, address_id=address,
          payment_method_id=card, promo_code="SPRING30")
    if other_city:
        fails(box, "place_order", "delivers only in", customer_id=customer,
              address_id=other_city, payment_method_id=card)
    assert box.state_hash() == before
    order = ok(box, "place_order", customer_id=customer, address_id=address,
               payment_method_id=card, promo_code="welcome10")
    assert order["status"] == "placed" and order["promo_code"] == "WELCOME10"
    assert order["placed_at"] == NOW and order["discount"] > 0
    assert ok(box, "get_cart", customer_id=customer)["items"] == []
    fails(box, "place_order", "cart is empty", customer_id=customer, address_id=address,
          payment_method_id=card)
    assert box.check_integrity() == []


def test_gift_card_must_cover_the_total(box):
    customer, restaurant, address, _ = cart_customer(box)
    box.db.execute("INSERT INTO payment_methods VALUES ('pm_gift', ?, 'gift_card', "
                   "'Gift card', '9999', 1.0, 0)", (customer,))
    fails(box, "place_order", "does not cover", customer_id=customer, address_id=address,
          payment_method_id="pm_gift")
    box.db.execute("UPDATE payment_methods SET balance = 500 WHERE payment_method_id = 'pm_gift'")
    order = ok(box, "place_order", customer_id=customer, address_id=address,
               payment_method_id="pm_gift")
    balance, = one(box, "SELECT balance FROM payment_methods WHERE payment_method_id = 'pm_gift'")
    assert balance == round(500 - order["total"], 2)
    ok(box, "cancel_order", order_id=order["order_id"], reason="mistake")
    balance, = one(box, "SELECT balance FROM payment_methods WHERE payment_method_id = 'pm_gift'")
    assert balance == 500.0
    assert box.check_integrity() == []


def test_cancel_order(box):
    placed, total = one(box, "SELECT order_id, total FROM orders WHERE status = 'placed' LIMIT 1")
    result = ok(box, "cancel_order", order_id=placed, reason="Changed my mind")
    assert result["status"] == "cancelled" and result["refund_amount"] == total
    accepted, = one(box, "SELECT order_id FROM orders WHERE status = 'preparing' LIMIT 1")
    before = box.state_hash()
    fails(box, "cancel_order", "only an order that the restaurant has not accepted",
          order_id=accepted, reason="late")
    fails(box, "cancel_order", "cancelled", order_id=placed, reason="again")
    fails(box, "cancel_order", "not found", order_id="ord_missing", reason="x")
    other, = one(box, "SELECT order_id FROM orders WHERE status = 'placed' LIMIT 1")
    fails(box, "cancel_order", "reason", order_id=other, reason="  ")
    assert box.state_hash() == before
    assert box.check_integrity() == []


def test_missing_items_refund(box):
    order, = one(box, "SELECT o.order_id FROM orders o WHERE o.status = 'delivered' AND "
                      "(SELECT count(*) FROM order_items i WHERE i.order_id = o.order_id) >= 2 "
                      "AND NOT EXISTS (SELECT 1 FROM refunds f WHERE f.order_id = o.order_id) "
                      "LIMIT 1")
    lines = box.db.execute("SELECT item_id, unit_price, quantity FROM order_items "
                           "WHERE order_id = ? ORDER BY line", (order,)).fetchall()
    refund = ok(box, "request_missing_items_refund", order_id=order, item_ids=[lines[0][0]])
    assert refund["amount"] == cents_of(lines[0][1]) * lines[0][2] / 100
    placed, = one(box, "SELECT order_id FROM orders WHERE status = 'placed' LIMIT 1")
    before = box.state_hash()
    fails(box, "request_missing_items_refund", "already refunded", order_id=order,
          item_ids=[lines[0][0]])
    fails(box, "request_missing_items_refund", "not in this order", order_id=order,
          item_ids=["item_missing"])
    fails(box, "request_missing_items_refund", "listed twice", order_id=order,
          item_ids=[lines[1][0], lines[1][0]])
    fails(box, "request_missing_items_refund", "at least one", order_id=order, item_ids=[])
    fails(box, "request_missing_items_refund", "only a delivered order", order_id=placed,
          item_ids=[lines[1][0]])
    assert box.state_hash() == before
    assert box.check_integrity() == []


def test_rate_order_and_instructions(box):
    order, restaurant = one(box, "SELECT o.order_id, o.restaurant_id FROM orders o "
                                 "WHERE o.status = 'delivered' AND NOT EXISTS (SELECT 1 FROM "
                                 "ratings t WHERE t.order_id = o.order_id) LIMIT 1")
    count, = one(box, "SELECT rating_count FROM restaurants WHERE restaurant_id = ?",
                 (restaurant,))
    assert ok(box, "rate_order", order_id=order, stars=4, comment=" tasty ")["comment"] == "tasty"
    assert one(box, "SELECT rating_count FROM restaurants WHERE restaurant_id = ?",
               (restaurant,))[0] == count + 1
    placed, = one(box, "SELECT order_id FROM orders WHERE status = 'placed' LIMIT 1")
    address, = one(box, "SELECT address_id FROM addresses LIMIT 1")
    before = box.state_hash()
    fails(box, "rate_order", "already rated", order_id=order, stars=5)
    fails(box, "rate_order", "only a delivered order", order_id=placed, stars=5)
    other, = one(box, "SELECT o.order_id FROM orders o WHERE o.status = 'delivered' AND NOT "
                      "EXISTS (SELECT 1 FROM ratings t WHERE t.order_id = o.order_id) LIMIT 1")
    fails(box, "rate_order", "between 1 and 5", order_id=other, stars=6)
    fails(box, "update_delivery_instructions", "200 characters", address_id=address,
          instructions="x" * 201)
    fails(box, "update_delivery_instructions", "not found", address_id="addr_missing",
          instructions="x")
    assert box.state_hash() == before
    assert ok(box, "update_delivery_instructions", address_id=address,
              instructions=" Knock twice ")["instructions"] == "Knock twice"


def test_place_order_checks_the_restaurant_and_the_cart(box):
    customer, restaurant, address, card = cart_customer(box)
    args = {"customer_id": customer, "address_id": address, "payment_method_id": card}
    box.db.execute("UPDATE restaurants SET min_order = 10000 WHERE restaurant_id = ?",
                   (restaurant,))
    fails(box, "place_order", "minimum order", **args)
    box.db.execute("UPDATE restaurants SET min_order = 0, is_open = 0 WHERE restaurant_id = ?",
                   (restaurant,))
    fails(box, "place_order", "closed", **args)
    box.db.execute("UPDATE restaurants SET is_open = 1 WHERE restaurant_id = ?", (restaurant,))
    box.db.execute("UPDATE menu_items SET available = 0 WHERE item_id IN (SELECT item_id FROM "
                   "cart_items WHERE customer_id = ?)", (customer,))
    before = box.state_hash()
    fails(box, "place_order", "sold out", **args)
    assert box.state_hash() == before


def test_invariants_catch_broken_rules(box):
    rules_catch(box, {
        "subtotal + delivery fee": "UPDATE orders SET total = total + 1 WHERE order_id = "
        "(SELECT order_id FROM orders LIMIT 1)",
        "one default address": "UPDATE addresses SET is_default = 1"})
