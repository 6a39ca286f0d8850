"""Seeded synthetic data of the food delivery domain.

``generate(seed)`` returns the native data: ``{table: [row dict, ...]}`` in the column order
of ``schema.sql`` and in rowid order, exactly what :func:`..io.export` gives back after
:func:`..io.load`. Everything comes from ``random.Random(seed)``; the clock is the fixed
``NOW`` of :mod:`.tools` (a Friday evening).

About 60 restaurants in three cities with menus (a few items sold out), 300 customers with
addresses and payment methods, two months of orders (delivered, cancelled, and a few in
progress right now), refunds, ratings, promo codes and some filled carts.
"""

from __future__ import annotations

import random
import string
from datetime import datetime, timedelta

from .tools import NOW, cents_of, money, order_amounts

N_CUSTOMERS = 300
_NOW = datetime.fromisoformat(NOW)
_ALNUM = string.ascii_lowercase + string.digits

FIRST = ("Ava Ben Chloe Dan Eva Finn Gia Hugo Iris Jack Kara Leo Mia Nate Opal Paul Rosa Sam "
         "Tess Umar Vera Wes Xena Yara Zane Amir Bella Cyrus Dana Elio Farah Gabe Hana Ivo "
         "June Kofi Lena Milo Nora Oren Pia Quinn Ravi Sara Theo Uma Vik Wren").split()
LAST = ("Adler Baptiste Costa Dubois Eklund Ferreira Gupta Hansen Ito Jovanovic Kaur Lambert "
        "Morales Nilsen Oliveira Pereira Quinn Rossi Sato Toivonen Ueda Varga Weber Xavier "
        "Yamada Zamora Alvarez Bauer Castillo Diaz Engel Fontaine Guerra Hoffmann Iqbal "
        "Jansen Kovacs Lindgren Marino Novak").split()
CITIES = {
    "Springfield": ("Maple Ave", "Oak St", "Elm St", "Pine Rd", "Cedar Ln", "Lake Dr"),
    "Riverton": ("River Rd", "Bridge St", "Mill Ln", "Harbor Way", "Canal St", "Bay Ave"),
    "Lakewood": ("Sunset Blvd", "Hill St", "Park Ave", "Grove Rd", "Meadow Ln", "Vista Dr"),
}
ZIPS = {"Springfield": "627", "Riverton": "824", "Lakewood": "904"}
LABELS = ("Home", "Work", "Gym", "Parents")
INSTRUCTIONS = ("", "", "Ring the bell twice", "Leave at the front door", "Call on arrival",
                "Front desk will collect", "Gate code 4421")
#: Instructions a task may ask to set (never generated).
NEW_INSTRUCTIONS = ("Leave it by the side door", "Please knock, the baby is sleeping",
                    "Hand it to the concierge", "Text me when you are outside",
                    "Use the back entrance on the alley", "Leave it on the porch bench")

#: cuisine -> (restaurant names, menu: (item, category, base price))
CUISINES = {
    "Italian": (("Luigi's Trattoria", "Nonna's Kitchen", "Via Roma", "Pasta Fresca",
                 "Bella Napoli", "Trattoria Sole", "Il Forno"),
                (("Margherita Pizza", "pizza", 13.5), ("Pepperoni Pizza", "pizza", 15.0),
                 ("Quattro Formaggi Pizza", "pizza", 16.5), ("Spaghetti Carbonara", "pasta", 16.0),
                 ("Penne Arrabbiata", "pasta", 14.0), ("Lasagna Bolognese", "pasta", 17.5),
                 ("Fettuccine Alfredo", "pasta", 15.5), ("Caesar Salad", "salads", 10.0),
                 ("Caprese Salad", "salads", 11.0), ("Garlic Bread", "sides", 5.5),
                 ("Tiramisu", "desserts", 7.5), ("Panna Cotta", "desserts", 7.0))),
    "Thai": (("Bangkok Garden", "Thai Orchid", "Siam Spice", "Lemongrass House",
              "Chiang Mai Kitchen", "Basil Leaf Thai", "Golden Elephant"),
             (("Pad Thai", "noodles", 13.95), ("Pad See Ew", "noodles", 13.95),
              ("Drunken Noodles", "noodles", 14.5), ("Green Curry", "curries", 15.0),
              ("Red Curry", "curries", 15.0), ("Massaman Curry", "curries", 15.95),
              ("Tom Yum Soup", "soups", 8.5), ("Tom Kha Soup", "soups", 8.95),
              ("Spring Rolls", "starters", 6.5), ("Chicken Satay", "starters", 8.0),
              ("Mango Sticky Rice", "desserts", 7.25), ("Thai Iced Tea", "drinks", 4.5))),
    "Mexican": (("Casa Azul", "El Camino Taqueria", "La Cocina", "Taco Loco", "Verde Cantina",
                 "Agave Street", "Los Compadres"),
                (("Carne Asada Tacos", "tacos", 12.5), ("Al Pastor Tacos", "tacos", 11.5),
                 ("Fish Tacos", "tacos", 13.0), ("Chicken Burrito", "burritos", 12.0),
                 ("Veggie Burrito", "burritos", 11.0), ("Beef Quesadilla", "quesadillas", 11.5),
                 ("Chicken Enchiladas", "mains", 14.5), ("Chips and Guacamole", "sides", 7.0),
                 ("Elote", "sides", 5.0), ("Churros", "desserts", 6.0),
                 ("Horchata", "drinks", 4.0), ("Pozole", "soups", 9.5))),
    "Japanese": (("Sakura Sushi", "Tokyo Bento", "Kaze Ramen", "Hana Izakaya", "Umami House",
                  "Koi Sushi Bar", "Mochi Mochi"),
                 (("Salmon Nigiri", "sushi", 7.0), ("Tuna Roll", "sushi", 8.5),
                  ("California Roll", "sushi", 7.5), ("Dragon Roll", "sushi", 14.0),
                  ("Tonkotsu Ramen", "ramen", 15.5), ("Miso Ramen", "ramen", 14.5),
                  ("Chicken Teriyaki Bento", "bento", 16.0), ("Gyoza", "starters", 7.0),
                  ("Edamame", "starters", 5.0), ("Miso Soup", "soups", 3.5),
                  ("Matcha Ice Cream", "desserts", 5.5), ("Chicken Katsu Curry", "mains", 15.0))),
    "Indian": (("Taj Palace", "Bombay Spice", "Curry Leaf", "Tandoori Nights", "Masala Junction",
                "Spice Route", "Saffron Grill"),
               (("Butter Chicken", "curries", 16.5), ("Chicken Tikka Masala", "curries", 16.5),
                ("Palak Paneer", "curries", 14.5), ("Chana Masala", "curries", 13.0),
                ("Lamb Rogan Josh", "curries", 18.5), ("Vegetable Biryani", "rice", 14.0),
                ("Chicken Biryani", "rice", 16.0), ("Garlic Naan", "breads", 4.0),
                ("Samosas", "starters", 6.5), ("Onion Bhaji", "starters", 6.0),
                ("Mango Lassi", "drinks", 4.5), ("Gulab Jamun", "desserts", 5.5))),
    "American": (("Liberty Burger", "Smokehouse BBQ", "Route 66 Diner", "Brooklyn Deli",
                  "Golden Fry", "The Burger Joint", "Patriot Grill"),
                 (("Classic Cheeseburger", "burgers", 12.5), ("Bacon Burger", "burgers", 14.0),
                  ("Veggie Burger", "burgers", 12.0),
                  ("BBQ Pulled Pork Sandwich", "sandwiches", 13.5),
                  ("Buffalo Wings", "starters", 11.0), ("Mac and Cheese", "sides", 7.0),
                  ("French Fries", "sides", 4.5), ("Onion Rings", "sides", 5.0),
                  ("Cobb Salad", "salads", 12.0), ("Chocolate Milkshake", "drinks", 6.5),
                  ("Apple Pie", "desserts", 6.0), ("Clam Chowder", "soups", 8.0))),
    "Mediterranean": (("Olive Tree", "Aegean Grill", "Cedar Mezze", "Petra Kitchen",
                       "Santorini Taverna", "Falafel Corner", "Zaytoon"),
                      (("Chicken Shawarma Plate", "plates", 15.0), ("Falafel Wrap", "wraps", 10.5),
                       ("Lamb Gyro", "wraps", 12.5), ("Hummus", "starters", 6.5),
                       ("Baba Ganoush", "starters", 7.0), ("Greek Salad", "salads", 11.0),
                       ("Tabbouleh", "salads", 9.0), ("Spanakopita", "starters", 8.0),
                       ("Moussaka", "plates", 16.5), ("Lentil Soup", "soups", 6.5),
                       ("Baklava", "desserts", 5.5), ("Mint Lemonade", "drinks", 4.0))),
}
PROMOS = (
    ("WELCOME10", "10% off your order", 10, 10.0, 15.0, "2024-12-31", 1),
    ("FEAST20", "20% off orders of $40 or more", 20, 15.0, 40.0, "2024-08-31", 1),
    ("FRIDAY15", "15% off on Fridays", 15, 12.0, 25.0, "2024-07-31", 1),
    ("SUMMER25", "25% off summer special", 25, 20.0, 50.0, "2024-09-30", 1),
    ("SPRING30", "30% off spring special", 30, 20.0, 30.0, "2024-05-31", 1),
    ("STAFF50", "Staff discount", 50, 30.0, 0.0, "2024-12-31", 0),
)
CARD_BRANDS = ("Visa", "Mastercard", "Amex")
CANCEL_REASONS = ("Ordered by mistake", "Changed my mind", "Restaurant too slow")


def _stamp(moment: datetime) -> str:
    return moment.replace(microsecond=0).isoformat()


def generate(seed: int) -> dict[str, list[dict]]:
    """The native data of a food delivery service made from ``seed``."""
    rng = random.Random(seed)
    used_tokens: set[str] = set()

    def token(prefix: str, n: int = 8) -> str:
        # The first character is a letter: ids the tools create are digits after the prefix.
        while True:
            text = rng.choice(string.ascii_lowercase) + "".join(rng.choices(_ALNUM, k=n - 1))
            if text not in used_tokens:
                used_tokens.add(text)
                return f"{prefix}_{text}"

    data: dict[str, list[dict]] = {t: [] for t in (
        "customers", "addresses", "payment_methods", "restaurants", "menu_items", "promo_codes",
        "cart_items", "orders", "order_items", "refunds", "ratings")}
    cities = list(CITIES)

    # ------------------------------------------------------- restaurants and menus
    by_city: dict[str, list[dict]] = {c: [] for c in cities}
    menus: dict[str, list[dict]] = {}
    for cuisine, (names, menu) in CUISINES.items():
        for i, name in enumerate(names):
            city = cities[i % len(cities)] if i < 6 else rng.choice(cities)
            restaurant = {
                "restaurant_id": token("rest"), "name": name, "cuisine": cuisine, "city": city,
                "delivery_fee": rng.choice((0.0, 1.99, 2.99, 3.99, 4.99)),
                "min_order": rng.choice((0.0, 10.0, 15.0, 20.0)),
                "is_open": 1 if rng.random() < 0.9 else 0,
                "rating": 0.0, "rating_count": 0}
            data["restaurants"].append(restaurant)
            by_city[city].append(restaurant)
            items = []
            for item, category, base in rng.sample(menu, rng.randint(8, 12)):
                price = money(base + rng.choice((-1.0, -0.5, 0.0, 0.0, 0.5, 1.0, 1.5)))
                row = {"item_id": token("item"), "restaurant_id": restaurant["restaurant_id"],
                       "name": item, "category": category, "price": price,
                       "available": 1 if rng.random() < 0.9 else 0}
                items.append(row)
                data["menu_items"].append(row)
            menus[restaurant["restaurant_id"]] = items
    for code, description, pct, cap, minimum, expires, active in PROMOS:
        data["promo_codes"].append({"code": code, "description": description, "percent_off": pct,
                                    "max_discount": cap, "min_subtotal": minimum,
                                    "expires_on": expires, "active": active})
    promos = [p for p in data["promo_codes"] if p["active"] and p["expires_on"] >= NOW[:10]]
    ratings_of: dict[str, list[int]] = {r["restaurant_id"]: [] for r in data["restaurants"]}

    emails: set[str] = set()
    usernames: set[str] = set()
    for _ in range(N_CUSTOMERS):
        first, last = rng.choice(FIRST), rng.choice(LAST)
        customer_id = token("cus")
        while True:
            email = f"{first}.{last}{rng.randint(1, 999)}@example.com".lower()
            if email not in emails:
                emails.add(email)
                break
        while True:
            username = f"{first}{last[0]}{rng.randint(10, 999)}".lower()
            if username not in usernames:
                usernames.add(username)
                break
        data["customers"].append({
            "customer_id": customer_id, "first_name": first, "last_name": last, "email": email,
            "username": username,
            "phone": f"+1-555-{rng.randint(200, 999)}-{rng.randint(0, 9999):04d}",
            "joined_on": (_NOW - timedelta(days=rng.randint(70, 1500))).date().isoformat()})

        city = rng.choice(cities)
        addresses = []
        for k, label in enumerate(rng.sample(LABELS, rng.randint(1, 3))):
            where = city if k == 0 or rng.random() < 0.8 else rng.choice(cities)
            addresses.append({
                "address_id": token("addr"), "customer_id": customer_id, "label": label,
                "street": f"{rng.randint(1, 999)} {rng.choice(CITIES[where])}", "city": where,
                "zip": ZIPS[where] + f"{rng.randint(0, 99):02d}",
                "instructions": rng.choice(INSTRUCTIONS), "is_default": 1 if k == 0 else 0})
        data["addresses"].extend(addresses)

        methods = []
        last4s: set[str] = set()

        def last4() -> str:
            while True:
                digits = "".join(rng.choices(string.digits, k=4))
                if digits not in last4s:
                    last4s.add(digits)
                    return digits

        brands = rng.sample(CARD_BRANDS, rng.randint(1, 2))
        for brand in brands:
            methods.append({"payment_method_id": token("pm"), "customer_id": customer_id,
                            "kind": "card", "brand": brand, "last4": last4(), "balance": None,
                            "is_default": 0})
        if rng.random() < 0.3:
            methods.append({"payment_method_id": token("pm"), "customer_id": customer_id,
                            "kind": "paypal", "brand": "PayPal", "last4": "", "balance": None,
                            "is_default": 0})
        if rng.random() < 0.25:
            methods.append({"payment_method_id": token("pm"), "customer_id": customer_id,
                            "kind": "gift_card", "brand": "Gift card", "last4": last4(),
                            "balance": float(rng.choice((25, 50, 75, 100))), "is_default": 0})
        methods[0]["is_default"] = 1
        data["payment_methods"].extend(methods)

        # ------------------------------------------------------------- orders
        orders = []
        recent = rng.random() < 0.45  # an order delivered within the last day
        active = rng.random() < 0.5  # an order in progress right now
        for k in range(rng.randint(2, 6)):
            address = rng.choice(addresses)
            restaurant = rng.choice(by_city[address["city"]])
            items = [i for i in menus[restaurant["restaurant_id"]]]
            lines = rng.sample(items, min(len(items), rng.randint(1, 4)))
            if k == 0 and recent:
                placed = _NOW - timedelta(hours=rng.randint(2, 21), minutes=rng.randint(0, 59))
                status = "delivered"
            elif k == 1 and active:
                placed = _NOW - timedelta(minutes=rng.randint(3, 50))
                status = rng.choice(("placed", "placed", "accepted", "preparing", "on_the_way"))
            else:
                placed = _NOW - timedelta(days=rng.randint(2, 60), hours=rng.randint(0, 10))
                status = "cancelled" if rng.random() < 0.08 else "delivered"
            method = rng.choice([m for m in methods if m["kind"] != "gift_card"] or methods)
            quantities = [rng.choice((1, 1, 1, 2, 2, 3)) for _ in lines]
            promo = rng.choice(promos) if rng.random() < 0.2 else None
            subtotal, fee, discount, total = order_amounts(
                [(line["price"], q) for line, q in zip(lines, quantities)],
                restaurant["delivery_fee"], promo["percent_off"] if promo else 0,
                promo["max_discount"] if promo else 0.0)
            if promo and cents_of(subtotal) < cents_of(promo["min_subtotal"]):
                promo = None
                subtotal, fee, discount, total = order_amounts(
                    [(line["price"], q) for line, q in zip(lines, quantities)],
                    restaurant["delivery_fee"], 0, 0.0)
            order = {
                "order_id": token("ord"), "customer_id": customer_id,
                "restaurant_id": restaurant["restaurant_id"], "address_id": address["address_id"],
                "payment_method_id": method["payment_method_id"], "status": status,
                "subtotal": subtotal, "delivery_fee": fee, "discount": discount, "total": total,
                "promo_code": promo["code"] if promo else None, "placed_at": _stamp(placed),
                "delivered_at": (_stamp(placed + timedelta(minutes=rng.randint(25, 60)))
                                 if status == "delivered" else None),
                "cancel_reason": rng.choice(CANCEL_REASONS) if status == "cancelled" else None}
            orders.append((order, lines, quantities, method))
        orders.sort(key=lambda o: o[0]["placed_at"])
        for order, lines, quantities, method in orders:
            data["orders"].append(order)
            for n, (line, q) in enumerate(zip(lines, quantities), 1):
                data["order_items"].append({
                    "order_id": order["order_id"], "line": n, "item_id": line["item_id"],
                    "name": line["name"], "unit_price": line["price"], "quantity": q})
            delivered = order["delivered_at"]
            if order["status"] == "cancelled":
                data["refunds"].append({
                    "refund_id": token("ref"), "order_id": order["order_id"],
                    "payment_method_id": method["payment_method_id"], "amount": order["total"],
                    "reason": "cancellation", "item_ids": "[]",
                    "created_at": order["placed_at"]})
            elif delivered and len(lines) > 1 and rng.random() < 0.06:
                line, q = lines[0], quantities[0]
                data["refunds"].append({
                    "refund_id": token("ref"), "order_id": order["order_id"],
                    "payment_method_id": method["payment_method_id"],
                    "amount": money(cents_of(line["price"]) * q / 100),
                    "reason": "missing_items", "item_ids": f'["{line["item_id"]}"]',
                    "created_at": _stamp(datetime.fromisoformat(delivered) + timedelta(hours=1))})
            if delivered and delivered < _stamp(_NOW - timedelta(days=1)) and rng.random() < 0.4:
                stars = rng.choice((2, 3, 4, 4, 5, 5, 5))
                ratings_of[order["restaurant_id"]].append(stars)
                data["ratings"].append({
                    "rating_id": token("rat"), "order_id": order["order_id"],
                    "customer_id": customer_id, "restaurant_id": order["restaurant_id"],
                    "stars": stars, "comment": "",
                    "created_at": _stamp(datetime.fromisoformat(delivered) + timedelta(hours=2))})

        # --------------------------------------------------------------- cart
        if rng.random() < 0.5:
            restaurant = rng.choice([r for r in by_city[addresses[0]["city"]] if r["is_open"]])
            items = [i for i in menus[restaurant["restaurant_id"]] if i["available"]]
            for item in rng.sample(items, min(len(items), rng.randint(1, 3))):
                data["cart_items"].append({"customer_id": customer_id,
                                           "item_id": item["item_id"],
                                           "quantity": rng.choice((1, 2, 2, 3))})

    for restaurant in data["restaurants"]:
        stars = ratings_of[restaurant["restaurant_id"]]
        base = rng.randint(20, 400)
        restaurant["rating_count"] = base + len(stars)
        restaurant["rating"] = round((4.3 * base + sum(stars)) / (base + len(stars)), 2)
    return data
