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
from datetime import datetime, timedelta
from pathlib import Path

from ...core.fake_data import Tokens, digits, draw_unique, phone
from ...core.tables import read_json
from .tools import NOW, cents_of, money, order_amounts

_VOCABULARY = read_json(Path(__file__).with_name("vocabulary.json"))

N_CUSTOMERS = 300
_NOW = datetime.fromisoformat(NOW)

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
CUISINES = _VOCABULARY["cuisines"]
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
TABLES = ("customers", "addresses", "payment_methods", "restaurants", "menu_items", "promo_codes",
          "cart_items", "orders", "order_items", "refunds", "ratings")


def _stamp(moment: datetime) -> str:
    return moment.replace(microsecond=0).isoformat()


class _Service:
    """The tables being drawn, with the restaurants, menus and values all customers share."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.token = Tokens(self.rng)
        self.data: dict[str, list[dict]] = {t: [] for t in TABLES}
        self.cities = list(CITIES)
        self.by_city: dict[str, list[dict]] = {c: [] for c in self.cities}
        self.menus: dict[str, list[dict]] = {}
        self.emails: set[str] = set()
        self.usernames: set[str] = set()

    def restaurants_and_menus(self) -> None:
        rng, cities = self.rng, self.cities
        for cuisine, (names, menu) in CUISINES.items():
            for i, name in enumerate(names):
                city = cities[i % len(cities)] if i < 6 else rng.choice(cities)
                restaurant = {
                    "restaurant_id": self.token("rest"), "name": name, "cuisine": cuisine,
                    "city": city, "delivery_fee": rng.choice((0.0, 1.99, 2.99, 3.99, 4.99)),
                    "min_order": rng.choice((0.0, 10.0, 15.0, 20.0)),
                    "is_open": 1 if rng.random() < 0.9 else 0,
                    "rating": 0.0, "rating_count": 0}
                self.data["restaurants"].append(restaurant)
                self.by_city[city].append(restaurant)
                self.menus[restaurant["restaurant_id"]] = self.menu_items(restaurant, menu)
        self.ratings_of: dict[str, list[int]] = {
            r["restaurant_id"]: [] for r in self.data["restaurants"]}

    def menu_items(self, restaurant: dict, menu: tuple) -> list[dict]:
        rng = self.rng
        items = []
        for item, category, base in rng.sample(menu, rng.randint(8, 12)):
            price = money(base + rng.choice((-1.0, -0.5, 0.0, 0.0, 0.5, 1.0, 1.5)))
            row = {"item_id": self.token("item"), "restaurant_id": restaurant["restaurant_id"],
                   "name": item, "category": category, "price": price,
                   "available": 1 if rng.random() < 0.9 else 0}
            items.append(row)
            self.data["menu_items"].append(row)
        return items

    def promo_codes(self) -> None:
        for code, description, pct, cap, minimum, expires, active in PROMOS:
            self.data["promo_codes"].append({
                "code": code, "description": description, "percent_off": pct,
                "max_discount": cap, "min_subtotal": minimum, "expires_on": expires,
                "active": active})
        self.promos = [p for p in self.data["promo_codes"]
                       if p["active"] and p["expires_on"] >= NOW[:10]]

    def restaurant_ratings(self) -> None:
        """Each restaurant's rating: a base of earlier ratings plus the generated ones."""
        for restaurant in self.data["restaurants"]:
            stars = self.ratings_of[restaurant["restaurant_id"]]
            base = self.rng.randint(20, 400)
            restaurant["rating_count"] = base + len(stars)
            restaurant["rating"] = round((4.3 * base + sum(stars)) / (base + len(stars)), 2)


class _Customer:
    """One customer and their rows, drawn table by table in a fixed order."""

    def __init__(self, service: _Service) -> None:
        self.service, self.rng, self.token = service, service.rng, service.token
        self.data = service.data

    def draw(self) -> None:
        for step in (self.profile, self.addresses, self.payment_methods, self.orders, self.cart):
            step()

    def profile(self) -> None:
        rng, service = self.rng, self.service
        first, last = rng.choice(FIRST), rng.choice(LAST)
        self.customer_id = self.token("cus")
        email = draw_unique(lambda: f"{first}.{last}{rng.randint(1, 999)}@example.com".lower(),
                            service.emails)
        username = draw_unique(lambda: f"{first}{last[0]}{rng.randint(10, 999)}".lower(),
                               service.usernames)
        self.data["customers"].append({
            "customer_id": self.customer_id, "first_name": first, "last_name": last,
            "email": email, "username": username, "phone": phone(rng),
            "joined_on": (_NOW - timedelta(days=rng.randint(70, 1500))).date().isoformat()})

    def addresses(self) -> None:
        rng, cities = self.rng, self.service.cities
        city = rng.choice(cities)
        self.address_rows = []
        for k, label in enumerate(rng.sample(LABELS, rng.randint(1, 3))):
            where = city if k == 0 or rng.random() < 0.8 else rng.choice(cities)
            self.address_rows.append({
                "address_id": self.token("addr"), "customer_id": self.customer_id,
                "label": label,
                "street": f"{rng.randint(1, 999)} {rng.choice(CITIES[where])}", "city": where,
                "zip": ZIPS[where] + f"{rng.randint(0, 99):02d}",
                "instructions": rng.choice(INSTRUCTIONS), "is_default": 1 if k == 0 else 0})
        self.data["addresses"].extend(self.address_rows)

    def payment_methods(self) -> None:
        rng = self.rng
        last4s: set[str] = set()

        def method(pm_id: str, kind: str, brand: str, last4: str,
                   balance: float | None = None) -> None:
            self.methods.append({"payment_method_id": pm_id, "customer_id": self.customer_id,
                                 "kind": kind, "brand": brand, "last4": last4,
                                 "balance": balance, "is_default": 0})

        self.methods: list[dict] = []
        for brand in rng.sample(CARD_BRANDS, rng.randint(1, 2)):
            method(self.token("pm"), "card", brand, draw_unique(lambda: digits(rng, 4), last4s))
        if rng.random() < 0.3:
            method(self.token("pm"), "paypal", "PayPal", "")
        if rng.random() < 0.25:
            method(self.token("pm"), "gift_card", "Gift card",
                   draw_unique(lambda: digits(rng, 4), last4s),
                   float(rng.choice((25, 50, 75, 100))))
        self.methods[0]["is_default"] = 1
        self.data["payment_methods"].extend(self.methods)

    def orders(self) -> None:
        rng = self.rng
        recent = rng.random() < 0.45  # an order delivered within the last day
        active = rng.random() < 0.5  # an order in progress right now
        orders = [self.draw_order(k, recent, active) for k in range(rng.randint(2, 6))]
        orders.sort(key=lambda o: o[0]["placed_at"])
        for order, lines, quantities, method in orders:
            self.record_order(order, lines, quantities, method)

    def draw_order(self, k: int, recent: bool, active: bool) -> tuple:
        rng, service = self.rng, self.service
        address = rng.choice(self.address_rows)
        restaurant = rng.choice(service.by_city[address["city"]])
        items = [i for i in service.menus[restaurant["restaurant_id"]]]
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
        method = rng.choice([m for m in self.methods if m["kind"] != "gift_card"] or self.methods)
        quantities = [rng.choice((1, 1, 1, 2, 2, 3)) for _ in lines]
        promo = rng.choice(service.promos) if rng.random() < 0.2 else None
        priced = [(line["price"], q) for line, q in zip(lines, quantities)]
        subtotal, fee, discount, total = order_amounts(
            priced, restaurant["delivery_fee"], promo["percent_off"] if promo else 0,
            promo["max_discount"] if promo else 0.0)
        if promo and cents_of(subtotal) < cents_of(promo["min_subtotal"]):
            promo = None
            subtotal, fee, discount, total = order_amounts(
                priced, restaurant["delivery_fee"], 0, 0.0)
        order = {
            "order_id": self.token("ord"), "customer_id": self.customer_id,
            "restaurant_id": restaurant["restaurant_id"], "address_id": address["address_id"],
            "payment_method_id": method["payment_method_id"], "status": status,
            "subtotal": subtotal, "delivery_fee": fee, "discount": discount, "total": total,
            "promo_code": promo["code"] if promo else None, "placed_at": _stamp(placed),
            "delivered_at": (_stamp(placed + timedelta(minutes=rng.randint(25, 60)))
                             if status == "delivered" else None),
            "cancel_reason": rng.choice(CANCEL_REASONS) if status == "cancelled" else None}
        return order, lines, quantities, method

    def record_order(self, order: dict, lines: list[dict], quantities: list[int],
                     method: dict) -> None:
        """The order, its lines, and its refund and rating if it has them."""
        self.data["orders"].append(order)
        for n, (line, q) in enumerate(zip(lines, quantities), 1):
            self.data["order_items"].append({
                "order_id": order["order_id"], "line": n, "item_id": line["item_id"],
                "name": line["name"], "unit_price": line["price"], "quantity": q})
        delivered = order["delivered_at"]
        refund = {"order_id": order["order_id"],
                  "payment_method_id": method["payment_method_id"]}
        if order["status"] == "cancelled":
            self.data["refunds"].append({
                "refund_id": self.token("ref"), **refund, "amount": order["total"],
                "reason": "cancellation", "item_ids": "[]", "created_at": order["placed_at"]})
        elif delivered and len(lines) > 1 and self.rng.random() < 0.06:
            line, q = lines[0], quantities[0]
            self.data["refunds"].append({
                "refund_id": self.token("ref"), **refund,
                "amount": money(cents_of(line["price"]) * q / 100),
                "reason": "missing_items", "item_ids": f'["{line["item_id"]}"]',
                "created_at": _stamp(datetime.fromisoformat(delivered) + timedelta(hours=1))})
        if delivered and delivered < _stamp(_NOW - timedelta(days=1)) and self.rng.random() < 0.4:
            self.rating(order, delivered)

    def rating(self, order: dict, delivered: str) -> None:
        stars = self.rng.choice((2, 3, 4, 4, 5, 5, 5))
        self.service.ratings_of[order["restaurant_id"]].append(stars)
        self.data["ratings"].append({
            "rating_id": self.token("rat"), "order_id": order["order_id"],
            "customer_id": self.customer_id, "restaurant_id": order["restaurant_id"],
            "stars": stars, "comment": "",
            "created_at": _stamp(datetime.fromisoformat(delivered) + timedelta(hours=2))})

    def cart(self) -> None:
        rng, service = self.rng, self.service
        if rng.random() < 0.5:
            restaurant = rng.choice([r for r in service.by_city[self.address_rows[0]["city"]]
                                     if r["is_open"]])
            items = [i for i in service.menus[restaurant["restaurant_id"]] if i["available"]]
            for item in rng.sample(items, min(len(items), rng.randint(1, 3))):
                self.data["cart_items"].append({"customer_id": self.customer_id,
                                                "item_id": item["item_id"],
                                                "quantity": rng.choice((1, 2, 2, 3))})


def generate(seed: int) -> dict[str, list[dict]]:
    """The native data of a food delivery service made from ``seed``."""
    service = _Service(seed)
    service.restaurants_and_menus()
    service.promo_codes()
    for _ in range(N_CUSTOMERS):
        _Customer(service).draw()
    service.restaurant_ratings()
    return service.data
