"""Each shopping tool: its success path and its error paths; failed writes change nothing."""

from __future__ import annotations

from collections import Counter

from tool_gym.core.tools import Category
from tool_gym.domains.shopping import DOMAIN
from tool_gym.domains.shopping.tools import (TODAY, order_amounts, refund_amount,
                                             return_deadline)

from ..calls import fails, ok, one, rules_catch


def cart_owner(box):
    """A customer with a filled cart of available products, a card and an address."""
    return one(box, "SELECT c.customer_id FROM customers c WHERE EXISTS (SELECT 1 FROM "
                    "cart_items i WHERE i.customer_id = c.customer_id) AND NOT EXISTS (SELECT 1 "
                    "FROM cart_items i JOIN products p ON p.product_id = i.product_id WHERE "
                    "i.customer_id = c.customer_id AND (p.status != 'active' OR p.stock < "
                    "i.quantity)) ORDER BY c.customer_id LIMIT 1")[0]


def stocked(box, customer, n=0):
    """An active product with stock that is not in the customer's cart."""
    return one(box, "SELECT product_id FROM products p WHERE status = 'active' AND stock >= 10 "
                    "AND NOT EXISTS (SELECT 1 FROM cart_items c WHERE c.customer_id = ? "
                    "AND c.product_id = p.product_id) ORDER BY product_id LIMIT 1 OFFSET ?",
               (customer, n))[0]


def card_of(box, customer, kind="card"):
    return one(box, "SELECT payment_method_id FROM payment_methods WHERE customer_id = ? "
                    "AND kind = ? ORDER BY rowid", (customer, kind))[0]


def address_of(box, customer):
    return one(box, "SELECT address_id FROM addresses WHERE customer_id = ? ORDER BY rowid",
               (customer,))[0]


# ------------------------------------------------------------------------- schemas


def test_toolbox_has_many_reads_and_writes():
    counts = Counter(t.category for t in DOMAIN.toolbox)
    assert len(DOMAIN.toolbox) >= 23
    assert counts[Category.READ] >= 10 and counts[Category.WRITE] >= 10


def test_amounts_in_cents():
    assert order_amounts([(19.99, 2), (5.0, 1)], None, "standard") == (44.98, 0.0, 5.99, 50.97)
    assert order_amounts([(19.99, 2), (15.0, 1)], None, "standard") == (54.98, 0.0, 0.0, 54.98)
    assert order_amounts([(10.0, 1)], None, "plus") == (10.0, 0.0, 0.0, 10.0)
    assert order_amounts([(33.33, 1)], ("percent", 15), "plus")[1] == 5.0  # 4.9995 up
    assert order_amounts([(8.0, 1)], ("fixed", 20), "plus") == (8.0, 8.0, 0.0, 0.0)
    assert refund_amount(20.0, 1, 40.0, 10.0) == 15.0
    assert refund_amount(9.99, 3, 29.97, 0.0) == 29.97
    assert return_deadline("2024-05-20T10:00:00") == "2024-06-19"


# --------------------------------------------------------------------------- reads

def test_find_customer(box, state):
    customer = state["customers"][5]
    assert ok(box, "find_customer_by_email",
              email=f" {customer['email'].upper()} ") == customer["customer_id"]
    assert ok(box, "find_customer_by_username",
              username=customer["username"]) == customer["customer_id"]
    fails(box, "find_customer_by_email", "no customer", email="nobody@example.com")
    fails(box, "find_customer_by_username", "no customer", username="nobody")


def test_profile_addresses_and_payment_methods(box):
    customer, = one(box, "SELECT customer_id FROM addresses GROUP BY customer_id "
                         "HAVING count(*) >= 2 LIMIT 1")
    profile = ok(box, "get_customer_profile", customer_id=customer)
    addresses = ok(box, "list_addresses", customer_id=customer)["addresses"]
    assert [a["address_id"] for a in addresses if a["is_default"]] == \
        [profile["default_address_id"]]
    assert profile["tier"] in ("standard", "plus")
    gift, = one(box, "SELECT customer_id FROM payment_methods WHERE kind = 'gift_card' LIMIT 1")
    methods = ok(box, "list_payment_methods", customer_id=gift)["payment_methods"]
    assert any("balance" in m for m in methods if m["kind"] == "gift_card")
    assert all("balance" not in m for m in methods if m["kind"] != "gift_card")
    for name in ("get_customer_profile", "list_addresses", "list_payment_methods", "get_cart",
                 "list_orders", "get_wishlist", "list_coupons", "list_returns"):
        fails(box, name, "not found", customer_id="cus_missing")


def test_search_and_product_details(box):
    product, name, category, price = one(
        box, "SELECT product_id, name, category, price FROM products p WHERE EXISTS (SELECT 1 "
             "FROM reviews r WHERE r.product_id = p.product_id) LIMIT 1")
    found = ok(box, "search_products", query=name.lower())
    assert [p["product_id"] for p in found["products"]] == [product]
    cheap = ok(box, "search_products", category=category, max_price=price)["products"]
    assert product in [p["product_id"] for p in cheap]
    assert all(p["category"] == category and p["price"] <= price for p in cheap)
    assert ok(box, "search_products")["matches"] == 120
    assert len(ok(box, "search_products")["products"]) == 20
    fails(box, "search_products", "negative", max_price=-1)
    fails(box, "search_products", "must be one of", category="cars")
    details = ok(box, "get_product", product_id=product)
    assert details["review_count"] >= 1 and 1 <= details["average_rating"] <= 5
    reviews = ok(box, "list_product_reviews", product_id=product)["reviews"]
    assert len(reviews) == details["review_count"] or len(reviews) == 20
    fails(box, "get_product", "not found", product_id="prd_missing")
    fails(box, "list_product_reviews", "not found", product_id="prd_missing")
    assert ok(box, "transfer_to_human_agents", summary="help") == "Transfer successful"


def test_orders_and_returns(box):
    order, customer = one(box, "SELECT order_id, customer_id FROM returns LIMIT 1")
    orders = ok(box, "list_orders", customer_id=customer)["orders"]
    assert order in [o["order_id"] for o in orders]
    days = [o["placed_on"] for o in orders]
    assert days == sorted(days, reverse=True)
    delivered = ok(box, "list_orders", customer_id=customer, status="delivered")["orders"]
    assert delivered and all(o["status"] == "delivered" for o in delivered)
    fails(box, "list_orders", "must be one of", customer_id=customer, status="lost")
    record = ok(box, "get_order", order_id=order)
    assert record["return_window_ends"] == return_deadline(record["delivered_at"])
    assert any(i["return_id"] for i in record["items"])
    fails(box, "get_order", "not found", order_id="ord_missing")
    returns = ok(box, "list_returns", customer_id=customer)["returns"]
    assert returns and all(r["refund_amount"] >= 0 for r in returns)


def test_cart_wishlist_and_coupons(box):
    customer = cart_owner(box)
    cart = ok(box, "get_cart", customer_id=customer)
    assert cart["items"] and cart["total"] == round(
        cart["subtotal"] - cart["discount"] + cart["shipping"], 2)
    wisher, = one(box, "SELECT customer_id FROM wishlist_items LIMIT 1")
    assert ok(box, "get_wishlist", customer_id=wisher)["items"]
    personal, = one(box, "SELECT customer_id FROM coupons WHERE customer_id IS NOT NULL LIMIT 1")
    coupons = ok(box, "list_coupons", customer_id=personal)["coupons"]
    assert any(c["personal"] for c in coupons) and any(not c["personal"] for c in coupons)
    assert {c["expired"] for c in coupons} == {True, False}
    other = [c for c in ok(box, "list_coupons", customer_id=customer)["coupons"]
             if c["personal"]]
    assert all(c["code"] not in {x["code"] for x in coupons if x["personal"]} for c in other)


# -------------------------------------------------------------------------- writes

def test_add_and_remove_cart_items(box):
    customer = cart_owner(box)
    product = stocked(box, customer)
    cart = ok(box, "add_to_cart", customer_id=customer, product_id=product, quantity=2)
    assert {"product_id": product, "quantity": 2}.items() <= next(
        i for i in cart["items"] if i["product_id"] == product).items()
    cart = ok(box, "add_to_cart", customer_id=customer, product_id=product, quantity=3)
    assert next(i for i in cart["items"] if i["product_id"] == product)["quantity"] == 5
    discontinued, = one(box, "SELECT product_id FROM products WHERE status = 'discontinued'")
    empty, = one(box, "SELECT product_id FROM products WHERE stock = 0 AND status = 'active'")
    before = box.state_hash()
    fails(box, "add_to_cart", "at most 10", customer_id=customer, product_id=product,
          quantity=6)
    fails(box, "add_to_cart", "between 1 and 10", customer_id=customer, product_id=product,
          quantity=0)
    fails(box, "add_to_cart", "discontinued", customer_id=customer, product_id=discontinued)
    fails(box, "add_to_cart", "in stock", customer_id=customer, product_id=empty)
    fails(box, "add_to_cart", "not found", customer_id=customer, product_id="prd_missing")
    fails(box, "add_to_cart", "not found", customer_id="cus_missing", product_id=product)
    fails(box, "add_to_cart", "must be of type integer", customer_id=customer,
          product_id=product, quantity="2")
    assert box.state_hash() == before
    cart = ok(box, "remove_from_cart", customer_id=customer, product_id=product)
    assert product not in [i["product_id"] for i in cart["items"]]
    before = box.state_hash()
    fails(box, "remove_from_cart", "not in the cart", customer_id=customer, product_id=product)
    assert box.state_hash() == before


def test_coupons_on_the_cart(box):
    customer = cart_owner(box)
    product = stocked(box, customer)
    ok(box, "add_to_cart", customer_id=customer, product_id=product, quantity=10)
    cart = ok(box, "apply_coupon", customer_id=customer, code="welcome10")
    assert cart["coupon_code"] == "WELCOME10"
    assert cart["discount"] == round(cart["subtotal"] * 0.10 + 1e-9, 2)
    stranger, = one(box, "SELECT code FROM coupons WHERE customer_id != ? LIMIT 1", (customer,))
    before = box.state_hash()
    fails(box, "apply_coupon", "already applied", customer_id=customer, code="WELCOME10")
    fails(box, "apply_coupon", "expired", customer_id=customer, code="HOLIDAY30")
    fails(box, "apply_coupon", "not valid", customer_id=customer, code=stranger)
    fails(box, "apply_coupon", "not valid", customer_id=customer, code="NOPE")
    assert box.state_hash() == before
    assert ok(box, "remove_coupon", customer_id=customer)["coupon_code"] is None
    fails(box, "remove_coupon", "no coupon", customer_id=customer)
    empty, = one(box, "SELECT customer_id FROM customers c WHERE NOT EXISTS (SELECT 1 FROM "
                      "cart_items i WHERE i.customer_id = c.customer_id) LIMIT 1")
    fails(box, "apply_coupon", "cart is empty", customer_id=empty, code="WELCOME10")


def test_coupon_minimum_and_single_use(box):
    cheap, = one(box, "SELECT product_id FROM products WHERE status = 'active' AND stock > 5 "
                      "AND price < 20 ORDER BY price LIMIT 1")
    lonely, = one(box, "SELECT customer_id FROM customers c WHERE NOT EXISTS (SELECT 1 FROM "
                       "cart_items i WHERE i.customer_id = c.customer_id) AND NOT EXISTS ("
                       "SELECT 1 FROM orders o WHERE o.customer_id = c.customer_id AND "
                       "o.coupon_code = 'SAVE15') LIMIT 1")
    ok(box, "add_to_cart", customer_id=lonely, product_id=cheap)
    fails(box, "apply_coupon", "needs a subtotal of at least 75.00", customer_id=lonely,
          code="SAVE15")
    used_by, code = one(box, "SELECT customer_id, coupon_code FROM orders WHERE coupon_code "
                             "IS NOT NULL AND status != 'cancelled' AND coupon_code IN (SELECT "
                             "code FROM coupons WHERE expires_on >= ?) LIMIT 1", (TODAY,))
    ok(box, "add_to_cart", customer_id=used_by, product_id=stocked(box, used_by, 3), quantity=10)
    fails(box, "apply_coupon", "already been used", customer_id=used_by, code=code)


def test_checkout(box):
    customer = cart_owner(box)
    cart = ok(box, "get_cart", customer_id=customer)
    stock = {i["product_id"]: one(box, "SELECT stock FROM products WHERE product_id = ?",
                                  (i["product_id"],))[0] for i in cart["items"]}
    order = ok(box, "checkout", customer_id=customer, address_id=address_of(box, customer),
               payment_method_id=card_of(box, customer))
    assert order["status"] == "placed" and order["total"] == cart["total"]
    assert [i["product_id"] for i in order["items"]] == [i["product_id"] for i in cart["items"]]
    for item in cart["items"]:
        assert one(box, "SELECT stock FROM products WHERE product_id = ?",
                   (item["product_id"],))[0] == stock[item["product_id"]] - item["quantity"]
    assert ok(box, "get_cart", customer_id=customer)["items"] == []
    fails(box, "checkout", "cart is empty", customer_id=customer,
          address_id=address_of(box, customer), payment_method_id=card_of(box, customer))
    assert box.check_integrity() == []


def test_checkout_errors_change_nothing(box):
    customer = cart_owner(box)
    other, = one(box, "SELECT customer_id FROM customers WHERE customer_id != ? LIMIT 1",
                 (customer,))
    args = {"customer_id": customer, "address_id": address_of(box, customer),
            "payment_method_id": card_of(box, customer)}
    before = box.state_hash()
    fails(box, "checkout", "not one of the customer's", **{**args,
                                                            "address_id": address_of(box, other)})
    fails(box, "checkout", "not found", **{**args, "payment_method_id": "pm_missing"})
    fails(box, "checkout", "expired", **args, coupon_code="HOLIDAY30")
    assert box.state_hash() == before


def test_checkout_with_a_gift_card(box):
    customer, card, balance = one(
        box, "SELECT p.customer_id, p.payment_method_id, p.balance FROM payment_methods p "
             "WHERE p.kind = 'gift_card' AND NOT EXISTS (SELECT 1 FROM cart_items c WHERE "
             "c.customer_id = p.customer_id) LIMIT 1")
    pricey, = one(box, "SELECT product_id FROM products WHERE status = 'active' AND stock > 0 "
                       "AND price > 240 LIMIT 1")
    ok(box, "add_to_cart", customer_id=customer, product_id=pricey)
    fails(box, "checkout", "does not cover", customer_id=customer,
          address_id=address_of(box, customer), payment_method_id=card)
    ok(box, "remove_from_cart", customer_id=customer, product_id=pricey)
    cheap, price = one(box, "SELECT product_id, price FROM products WHERE status = 'active' "
                            "AND stock > 0 AND price < 20 LIMIT 1")
    ok(box, "add_to_cart", customer_id=customer, product_id=cheap)
    order = ok(box, "checkout", customer_id=customer, address_id=address_of(box, customer),
               payment_method_id=card)
    left = one(box, "SELECT balance FROM payment_methods WHERE payment_method_id = ?", (card,))[0]
    assert left == round(balance - order["total"], 2)
    ok(box, "cancel_order", order_id=order["order_id"], reason="changed my mind")
    assert one(box, "SELECT balance FROM payment_methods WHERE payment_method_id = ?",
               (card,))[0] == balance
    assert box.check_integrity() == []


def test_cancel_order(box):
    order, = one(box, "SELECT order_id FROM orders WHERE status = 'placed' LIMIT 1")
    items = box.db.execute("SELECT i.product_id, i.quantity, p.stock FROM order_items i JOIN "
                           "products p ON p.product_id = i.product_id WHERE i.order_id = ?",
                           (order,)).fetchall()
    before = box.state_hash()
    fails(box, "cancel_order", "must not be empty", order_id=order, reason="  ")
    assert box.state_hash() == before
    result = ok(box, "cancel_order", order_id=order, reason="Ordered by mistake")
    assert result["status"] == "cancelled" and result["cancel_reason"] == "Ordered by mistake"
    for product, quantity, stock in items:
        assert one(box, "SELECT stock FROM products WHERE product_id = ?",
                   (product,))[0] == stock + quantity
    shipped, = one(box, "SELECT order_id FROM orders WHERE status = 'shipped' LIMIT 1")
    before = box.state_hash()
    fails(box, "cancel_order", "only an order that has not shipped", order_id=shipped,
          reason="x")
    fails(box, "cancel_order", "is cancelled", order_id=order, reason="x")
    fails(box, "cancel_order", "not found", order_id="ord_missing", reason="x")
    assert box.state_hash() == before


def test_request_return(box):
    order, product, price, quantity, subtotal, discount = one(
        box, "SELECT o.order_id, i.product_id, i.unit_price, i.quantity, o.subtotal, "
             "o.discount FROM orders o JOIN order_items i ON i.order_id = o.order_id "
             "WHERE o.status = 'delivered' AND o.discount > 0 AND NOT EXISTS (SELECT 1 FROM "
             "returns r WHERE r.order_id = o.order_id AND r.line = i.line) LIMIT 1")
    made = ok(box, "request_return", order_id=order, product_id=product, quantity=1,
              reason="damaged", refund_to="store_credit")
    assert made["status"] == "pending" and made["refund_amount"] == refund_amount(
        price, 1, subtotal, discount) < price
    placed, placed_product = one(box, "SELECT o.order_id, i.product_id FROM orders o JOIN "
                                      "order_items i ON i.order_id = o.order_id "
                                      "WHERE o.status = 'placed' LIMIT 1")
    before = box.state_hash()
    fails(box, "request_return", "already exists", order_id=order, product_id=product,
          quantity=1, reason="damaged", refund_to="store_credit")
    fails(box, "request_return", "only a delivered order", order_id=placed,
          product_id=placed_product, quantity=1, reason="damaged", refund_to="store_credit")
    fails(box, "request_return", "not part of order", order_id=order,
          product_id=placed_product, quantity=1, reason="damaged", refund_to="store_credit")
    fails(box, "request_return", "must be one of", order_id=order, product_id=product,
          quantity=1, reason="bored", refund_to="store_credit")
    fails(box, "request_return", "must be one of", order_id=order, product_id=product,
          quantity=1, reason="damaged", refund_to="cash")
    assert box.state_hash() == before
    order2, product2, ordered = one(
        box, "SELECT o.order_id, i.product_id, i.quantity FROM orders o JOIN order_items i "
             "ON i.order_id = o.order_id WHERE o.status = 'delivered' AND NOT EXISTS (SELECT 1 "
             "FROM returns r WHERE r.order_id = o.order_id AND r.line = i.line) LIMIT 1 OFFSET 5")
    fails(box, "request_return", "between 1 and", order_id=order2, product_id=product2,
          quantity=ordered + 1, reason="defective", refund_to="original_payment")
    assert box.check_integrity() == []


def test_wishlist(box):
    customer, product = one(box, "SELECT customer_id, product_id FROM wishlist_items w "
                                 "WHERE EXISTS (SELECT 1 FROM products p WHERE p.product_id = "
                                 "w.product_id AND p.status = 'active' AND p.stock > 2) LIMIT 1")
    other = stocked(box, customer)
    items = ok(box, "add_to_wishlist", customer_id=customer, product_id=other)["items"]
    assert other in [i["product_id"] for i in items]
    discontinued, = one(box, "SELECT product_id FROM products WHERE status = 'discontinued'")
    before = box.state_hash()
    fails(box, "add_to_wishlist", "already on the wishlist", customer_id=customer,
          product_id=other)
    fails(box, "add_to_wishlist", "discontinued", customer_id=customer,
          product_id=discontinued)
    assert box.state_hash() == before
    ok(box, "remove_from_wishlist", customer_id=customer, product_id=other)
    fails(box, "remove_from_wishlist", "not on the wishlist", customer_id=customer,
          product_id=other)
    cart = ok(box, "move_wishlist_item_to_cart", customer_id=customer, product_id=product)
    assert product in [i["product_id"] for i in cart["items"]]
    assert not box.db.execute("SELECT 1 FROM wishlist_items WHERE customer_id = ? AND "
                              "product_id = ?", (customer, product)).fetchone()
    fails(box, "move_wishlist_item_to_cart", "not on the wishlist", customer_id=customer,
          product_id=product)


def test_wishlist_item_out_of_stock_stays(box):
    empty, = one(box, "SELECT product_id FROM products WHERE stock = 0 AND status = 'active'")
    customer, = one(box, "SELECT customer_id FROM customers c WHERE NOT EXISTS (SELECT 1 FROM "
                         "wishlist_items w WHERE w.customer_id = c.customer_id AND "
                         "w.product_id = ?) LIMIT 1", (empty,))
    ok(box, "add_to_wishlist", customer_id=customer, product_id=empty)
    before = box.state_hash()
    fails(box, "move_wishlist_item_to_cart", "in stock", customer_id=customer, product_id=empty)
    assert box.state_hash() == before


def test_write_review(box):
    customer, product = one(
        box, "SELECT o.customer_id, i.product_id FROM orders o JOIN order_items i ON "
             "i.order_id = o.order_id WHERE o.status = 'delivered' AND NOT EXISTS (SELECT 1 "
             "FROM reviews v WHERE v.customer_id = o.customer_id AND v.product_id = "
             "i.product_id) LIMIT 1")
    before = box.state_hash()
    fails(box, "write_review", "between 1 and 5", customer_id=customer, product_id=product,
          rating=6, title="Great")
    fails(box, "write_review", "must not be empty", customer_id=customer, product_id=product,
          rating=5, title="   ")
    fails(box, "write_review", "too long", customer_id=customer, product_id=product,
          rating=5, title="x" * 121)
    never, = one(box, "SELECT product_id FROM products p WHERE NOT EXISTS (SELECT 1 FROM orders "
                      "o JOIN order_items i ON i.order_id = o.order_id WHERE o.customer_id = ? "
                      "AND i.product_id = p.product_id) LIMIT 1", (customer,))
    fails(box, "write_review", "only customers who received", customer_id=customer,
          product_id=never, rating=5, title="Great")
    assert box.state_hash() == before
    review = ok(box, "write_review", customer_id=customer, product_id=product, rating=4,
                title="  Solid  ", body="Works well.")
    assert review["title"] == "Solid" and review["created_on"] == TODAY
    fails(box, "write_review", "already reviewed", customer_id=customer, product_id=product,
          rating=2, title="Changed my mind")
    assert ok(box, "get_product", product_id=product)["review_count"] >= 1


def test_addresses(box):
    customer, = one(box, "SELECT customer_id FROM addresses GROUP BY customer_id "
                         "HAVING count(*) = 1 LIMIT 1")
    made = ok(box, "add_address", customer_id=customer, label="Office", street="1 Main St",
              city="Austin", state="tx", zip="78701")
    assert made["state"] == "TX" and made["is_default"] is False
    before = box.state_hash()
    fails(box, "add_address", "already has an address", customer_id=customer, label="office",
          street="2 Main St", city="Austin", state="TX", zip="78701")
    fails(box, "add_address", "two-letter", customer_id=customer, label="Gym",
          street="2 Main St", city="Austin", state="Texas", zip="78701")
    fails(box, "add_address", "five digits", customer_id=customer, label="Gym",
          street="2 Main St", city="Austin", state="TX", zip="787")
    fails(box, "add_address", "must not be empty", customer_id=customer, label="Gym",
          street=" ", city="Austin", state="TX", zip="78701")
    assert box.state_hash() == before
    listed = ok(box, "set_default_address", customer_id=customer,
                address_id=made["address_id"])["addresses"]
    assert [a["address_id"] for a in listed if a["is_default"]] == [made["address_id"]]
    fails(box, "set_default_address", "already the default", customer_id=customer,
          address_id=made["address_id"])
    stranger, = one(box, "SELECT address_id FROM addresses WHERE customer_id != ? LIMIT 1",
                    (customer,))
    fails(box, "set_default_address", "not one of the customer's", customer_id=customer,
          address_id=stranger)
    for n in range(6):
        ok(box, "add_address", customer_id=customer, label=f"Place {n}", street="3 Elm St",
           city="Austin", state="TX", zip="78702", make_default=n == 5)
    fails(box, "add_address", "at most 8", customer_id=customer, label="One more",
          street="4 Elm St", city="Austin", state="TX", zip="78702")
    assert box.check_integrity() == []


def test_created_ids_never_clash_with_generated_ones(box):
    customer = cart_owner(box)
    order = ok(box, "checkout", customer_id=customer, address_id=address_of(box, customer),
               payment_method_id=card_of(box, customer))["order_id"]
    assert order.startswith("ord_") and order[4:].isdigit()


def test_invariants_catch_broken_rules(box):
    rules_catch(box, {
        "sum of its lines": "UPDATE order_items SET quantity = quantity + 1 WHERE rowid = 1",
        "less the discount": "UPDATE orders SET total = total + 1 WHERE rowid = 1",
        "exactly one default": "UPDATE addresses SET is_default = 1",
        "product its author received": "UPDATE reviews SET customer_id = (SELECT customer_id "
        "FROM customers c WHERE NOT EXISTS (SELECT 1 FROM orders o JOIN order_items i ON "
        "i.order_id = o.order_id WHERE o.customer_id = c.customer_id AND i.product_id = "
        "reviews.product_id) LIMIT 1) WHERE rowid = 1",
        "dates follow its status": "UPDATE orders SET shipped_at = NULL "
        "WHERE status = 'delivered'",
        "within the units bought": "UPDATE returns SET quantity = 99 WHERE rowid = 1",
        "used once per customer": "UPDATE orders SET coupon_code = 'WELCOME10' WHERE "
        "customer_id = (SELECT customer_id FROM orders GROUP BY customer_id HAVING "
        "count(*) >= 3 LIMIT 1) AND status != 'cancelled'",
    })
