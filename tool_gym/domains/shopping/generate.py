"""Seeded synthetic data of the shopping domain.

``generate(seed)`` returns the native data: ``{table: [row dict, ...]}`` in the column order
of ``schema.sql`` and in rowid order, exactly what :func:`..io.export` gives back after
:func:`..io.load`. Everything comes from ``numpy.random.default_rng(seed)``, drawn in a
fixed order; the store's clock is the fixed ``NOW`` of :mod:`.tools`.

A catalog of 120 products in ten categories (a few out of stock or discontinued), store-wide
and personal coupons (some expired), and 200 customers with addresses, payment methods
(cards, PayPal, gift cards), five months of orders (delivered, cancelled, and some placed or
shipped right now), returns, reviews of what they received, wishlists and filled carts.
"""

from __future__ import annotations

import string
from datetime import date, datetime, timedelta

import numpy as np

from .io import TABLES
from .tools import NOW, TODAY, cents_of, order_amounts, refund_amount

N_CUSTOMERS = 200
_TODAY = date.fromisoformat(TODAY)
_NOW = datetime.fromisoformat(NOW)

FIRST = ("James Mary Robert Patricia John Jennifer Michael Linda David Elizabeth William "
         "Barbara Richard Susan Joseph Jessica Thomas Sarah Charles Karen Daniel Lisa Matthew "
         "Nancy Anthony Betty Mark Sandra Donald Ashley Omar Aisha Wei Mei Carlos Lucia Raj "
         "Priya Ahmed Fatima Hiroshi Yuki Ivan Olga Kwame Amara").split()
LAST = ("Smith Johnson Williams Brown Jones Garcia Miller Davis Rodriguez Martinez Lopez "
        "Wilson Anderson Taylor Moore Jackson Martin Lee Perez Thompson White Harris Clark "
        "Lewis Robinson Walker Young Allen King Wright Scott Nguyen Hill Green Adams Baker "
        "Patel Kim Chen Okafor Novak Schmidt Rossi Tanaka Haddad").split()
EMAIL_HOSTS = ("example.com", "mail.com", "inbox.net", "post.org")
#: (city, state, ZIP prefix, streets)
PLACES = (
    ("Austin", "TX", "787", ("Congress Ave", "Lamar Blvd", "Guadalupe St", "Oltorf St")),
    ("Denver", "CO", "802", ("Colfax Ave", "Broadway", "Federal Blvd", "Santa Fe Dr")),
    ("Seattle", "WA", "981", ("Pine St", "Aurora Ave", "Rainier Ave", "Madison St")),
    ("Portland", "OR", "972", ("Burnside St", "Hawthorne Blvd", "Alberta St", "Division St")),
    ("Chicago", "IL", "606", ("Clark St", "Halsted St", "Ashland Ave", "Belmont Ave")),
    ("Boston", "MA", "021", ("Boylston St", "Tremont St", "Beacon St", "Hanover St")),
    ("Atlanta", "GA", "303", ("Peachtree St", "Ponce de Leon Ave", "Spring St", "Piedmont Ave")),
    ("Raleigh", "NC", "276", ("Hillsborough St", "Glenwood Ave", "Oberlin Rd", "Wade Ave")),
)
LABELS = ("Home", "Work", "Parents", "Cabin", "Studio")
CARD_BRANDS = ("Visa", "Mastercard", "Amex", "Discover")
#: category -> (brands, items with a base price)
CATALOG = {
    "electronics": (("Lumo", "Voltra", "Pixelle", "Sonic Bay"), (
        ("Wireless Earbuds", 79.0), ("Bluetooth Speaker", 59.0), ("USB-C Charger", 24.0),
        ("Noise-Cancelling Headphones", 199.0), ("Fitness Tracker", 89.0),
        ("4K Streaming Stick", 49.0), ("Portable Power Bank", 39.0), ("Smart Plug", 19.0),
        ("Webcam 1080p", 64.0), ("E-Reader", 129.0), ("Mechanical Keyboard", 109.0),
        ("Wireless Mouse", 29.0))),
    "home": (("Nestwell", "Hearth & Co", "Calmora", "Linden"), (
        ("Linen Duvet Cover", 119.0), ("Blackout Curtains", 45.0), ("Memory Foam Pillow", 39.0),
        ("Throw Blanket", 35.0), ("Scented Candle Set", 28.0), ("Bath Towel Set", 54.0),
        ("Table Lamp", 69.0), ("Wall Clock", 32.0), ("Storage Baskets", 26.0),
        ("Area Rug", 149.0), ("Shower Curtain", 22.0), ("Picture Frame Set", 31.0))),
    "kitchen": (("Cucina Pro", "Ember", "Whisk & Co", "Bramble"), (
        ("Chef's Knife", 89.0), ("Cast Iron Skillet", 42.0), ("French Press", 34.0),
        ("Stand Mixer", 279.0), ("Cutting Board", 25.0), ("Electric Kettle", 49.0),
        ("Nonstick Pan Set", 129.0), ("Spice Rack", 29.0), ("Blender", 99.0),
        ("Measuring Cups", 15.0), ("Glass Food Containers", 38.0), ("Toaster", 59.0))),
    "books": (("Harbor Press", "Quill House", "Northwind Books", "Oakleaf"), (
        ("Mystery Novel Collection", 29.0), ("Vegetarian Cookbook", 24.0),
        ("World Atlas", 35.0), ("Field Guide to Birds", 22.0), ("Poetry Anthology", 18.0),
        ("History of Rome", 27.0), ("Watercolor Handbook", 21.0), ("Sci-Fi Trilogy", 39.0),
        ("Children's Picture Book", 14.0), ("Personal Finance Guide", 19.0),
        ("Gardening Almanac", 23.0), ("Travel Journal", 16.0))),
    "toys": (("Brickly", "Funfolk", "Tiny Titan", "Wonderbox"), (
        ("Building Blocks Set", 49.0), ("Wooden Train Set", 59.0), ("Plush Bear", 19.0),
        ("Puzzle 1000 Pieces", 21.0), ("Remote Control Car", 45.0), ("Art Supply Kit", 29.0),
        ("Board Game Classic", 34.0), ("Kids Science Kit", 39.0), ("Dollhouse", 89.0),
        ("Kite", 17.0), ("Magnetic Tiles", 55.0), ("Card Game", 12.0))),
    "sports": (("Peakline", "Stridex", "Trailhead", "Oarsman"), (
        ("Yoga Mat", 32.0), ("Running Shoes", 119.0), ("Water Bottle", 18.0),
        ("Adjustable Dumbbells", 189.0), ("Camping Tent", 159.0), ("Cycling Helmet", 69.0),
        ("Resistance Bands", 24.0), ("Hiking Backpack", 99.0), ("Jump Rope", 14.0),
        ("Tennis Racket", 89.0), ("Foam Roller", 27.0), ("Sleeping Bag", 79.0))),
    "beauty": (("Glowra", "Purely", "Velvet Fern", "Aquamist"), (
        ("Face Moisturizer", 28.0), ("Vitamin C Serum", 34.0), ("Hair Dryer", 79.0),
        ("Lip Balm Set", 12.0), ("Sunscreen SPF 50", 19.0), ("Shampoo and Conditioner", 26.0),
        ("Makeup Brush Set", 31.0), ("Electric Toothbrush", 69.0), ("Nail Care Kit", 22.0),
        ("Body Lotion", 16.0), ("Perfume", 64.0), ("Beard Trimmer", 49.0))),
    "clothing": (("Norrland", "Threadwell", "Coastal Co", "Urbanite"), (
        ("Rain Jacket", 89.0), ("Wool Sweater", 74.0), ("Denim Jeans", 59.0),
        ("Cotton T-Shirt 3-Pack", 29.0), ("Winter Gloves", 24.0), ("Baseball Cap", 19.0),
        ("Leather Belt", 35.0), ("Hiking Socks", 16.0), ("Fleece Hoodie", 49.0),
        ("Linen Shirt", 44.0), ("Down Vest", 99.0), ("Silk Scarf", 39.0))),
    "garden": (("Greenfinch", "Sprout & Stem", "Terrace", "Rootwise"), (
        ("Garden Hose", 39.0), ("Pruning Shears", 24.0), ("Raised Garden Bed", 129.0),
        ("Solar Path Lights", 45.0), ("Bird Feeder", 29.0), ("Watering Can", 21.0),
        ("Seed Starter Kit", 19.0), ("Patio Umbrella", 99.0), ("Compost Bin", 69.0),
        ("Gardening Gloves", 14.0), ("Herb Planter", 34.0), ("Lawn Sprinkler", 27.0))),
    "office": (("Deskwise", "Inkwell", "Paperline", "Focusly"), (
        ("Ergonomic Chair", 249.0), ("Standing Desk Converter", 179.0), ("Desk Organizer", 23.0),
        ("Notebook 5-Pack", 15.0), ("Fountain Pen", 42.0), ("Monitor Stand", 36.0),
        ("Whiteboard", 49.0), ("Label Maker", 39.0), ("Paper Shredder", 89.0),
        ("Desk Lamp LED", 44.0), ("Laptop Sleeve", 27.0), ("Planner 2024", 18.0))),
}
PUBLIC_COUPONS = (  # code, description, kind, value, min subtotal, expires
    ("WELCOME10", "10% off your order", "percent", 10, 0.0, "2024-12-31"),
    ("SUMMER20", "20% off orders of $100 or more", "percent", 20, 100.0, "2024-08-31"),
    ("SAVE15", "$15 off orders of $75 or more", "fixed", 15, 75.0, "2024-09-15"),
    ("SPRING25", "25% off spring sale", "percent", 25, 60.0, "2024-05-31"),
    ("FREESHIP5", "$5 off any order", "fixed", 5, 20.0, "2024-07-20"),
    ("HOLIDAY30", "$30 off orders of $150 or more", "fixed", 30, 150.0, "2024-01-15"),
)
PERSONAL_WORDS = ("THANKS", "BIRTHDAY", "COMEBACK", "LOYAL", "VIP", "SORRY")
REVIEW_TITLES = {
    1: ("Very disappointed", "Broke after a week", "Not as pictured"),
    2: ("Below expectations", "Meh", "Cheaply made"),
    3: ("It's okay", "Does the job", "Average quality"),
    4: ("Pretty good", "Solid purchase", "Would buy again"),
    5: ("Love it!", "Excellent quality", "Exactly what I needed"),
}
REVIEW_BODIES = ("", "Arrived quickly and well packed.", "Good value for the price.",
                 "The color is a bit different from the photos.", "My whole family uses it.",
                 "Instructions could be clearer.", "Sturdy and well designed.")
RETURN_REASONS = ("damaged", "defective", "wrong_item", "not_as_described", "no_longer_needed")
CANCEL_REASONS = ("Ordered by mistake", "Found a better price", "No longer needed")
_ALNUM = string.ascii_lowercase + string.digits


def _stamp(moment: datetime) -> str:
    return moment.replace(microsecond=0).isoformat()


class _Draw:
    """The numpy generator with the draws this module needs."""

    def __init__(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)
        self.used: set[str] = set()

    def pick(self, options):
        return options[int(self.rng.integers(len(options)))]

    def sample(self, options, k: int) -> list:
        return [options[int(i)] for i in self.rng.choice(len(options), size=k, replace=False)]

    def int(self, lo: int, hi: int) -> int:
        """An integer in ``lo..hi`` (both included)."""
        return int(self.rng.integers(lo, hi + 1))

    def chance(self, p: float) -> bool:
        return bool(self.rng.random() < p)

    def digits(self, k: int) -> str:
        return "".join(str(int(d)) for d in self.rng.integers(0, 10, size=k))

    def token(self, prefix: str, n: int = 8) -> str:
        """A unique id ``prefix_xxxxxxxx`` starting with a letter (ids the tools create are
        digits after the prefix, so the two never collide)."""
        while True:
            head = string.ascii_lowercase[int(self.rng.integers(26))]
            tail = "".join(_ALNUM[int(i)] for i in self.rng.integers(len(_ALNUM), size=n - 1))
            value = f"{prefix}_{head}{tail}"
            if value not in self.used:
                self.used.add(value)
                return value


class _Store:
    """The tables being drawn: the catalog and coupons first, then customer by customer."""

    def __init__(self, seed: int) -> None:
        self.draw = _Draw(seed)
        self.data: dict[str, list[dict]] = {t: [] for t in TABLES}
        self.emails: set[str] = set()
        self.usernames: set[str] = set()
        self.codes: set[str] = set()
        self.catalog()
        self.public_coupons()

    def catalog(self) -> None:
        d = self.draw
        for category, (brands, items) in CATALOG.items():
            for item, base in items:
                price = round(base * float(d.pick((0.9, 1.0, 1.0, 1.1))) - 0.01, 2)
                roll = d.rng.random()
                status = "discontinued" if roll < 0.05 else "active"
                stock = 0 if 0.05 <= roll < 0.1 else d.int(4, 250)
                brand = d.pick(brands)
                self.data["products"].append({
                    "product_id": d.token("prd"), "name": f"{brand} {item}", "brand": brand,
                    "category": category, "price": price, "stock": stock, "status": status})

    def public_coupons(self) -> None:
        for code, text, kind, value, minimum, expires in PUBLIC_COUPONS:
            self.codes.add(code)
            self.data["coupons"].append({
                "code": code, "customer_id": None, "description": text, "kind": kind,
                "value": float(value), "min_subtotal": minimum, "expires_on": expires})


class _Customer:
    """One customer and their rows, drawn table by table in a fixed order."""

    def __init__(self, store: _Store) -> None:
        self.store, self.draw, self.data = store, store.draw, store.data
        self.addresses: list[dict] = []
        self.methods: list[dict] = []
        self.coupons: list[dict] = []
        self.orders: list[dict] = []
        self.lines: list[dict] = []
        self.received: set[str] = set()

    def make(self) -> None:
        for step in (self.profile, self.add_addresses, self.add_payment_methods,
                     self.add_coupons, self.place_orders, self.add_returns, self.add_reviews,
                     self.add_wishlist, self.fill_cart):
            step()

    def profile(self) -> None:
        d, store = self.draw, self.store
        first, last = d.pick(FIRST), d.pick(LAST)
        self.customer_id = d.token("cus")
        while True:
            email = f"{first}.{last}{d.int(1, 999)}@{d.pick(EMAIL_HOSTS)}".lower()
            if email not in store.emails:
                store.emails.add(email)
                break
        while True:
            username = f"{first[0]}{last}{d.int(10, 99)}".lower()
            if username not in store.usernames:
                store.usernames.add(username)
                break
        self.tier = "plus" if d.chance(0.25) else "standard"
        self.row = {"customer_id": self.customer_id, "first_name": first, "last_name": last,
                    "email": email, "username": username,
                    "phone": f"+1-555-{d.int(200, 999)}-{d.int(0, 9999):04d}",
                    "member_since": (_TODAY - timedelta(days=d.int(200, 3000))).isoformat(),
                    "tier": self.tier, "store_credit": 0.0}
        self.data["customers"].append(self.row)

    def add_addresses(self) -> None:
        d = self.draw
        count = d.pick((1, 1, 2, 2, 3))
        for i, label in enumerate(d.sample(LABELS[:4] if count < 3 else LABELS, count)):
            city, state, prefix, streets = d.pick(PLACES)
            self.addresses.append({
                "address_id": d.token("adr"), "customer_id": self.customer_id, "label": label,
                "street": f"{d.int(10, 9899)} {d.pick(streets)}", "city": city, "state": state,
                "zip": f"{prefix}{d.digits(2)}", "is_default": int(i == 0)})
        self.data["addresses"].extend(self.addresses)

    def add_payment_methods(self) -> None:
        d = self.draw
        last4s: set[str] = set()

        def last4() -> str:
            while True:
                value = d.digits(4)
                if value not in last4s:
                    last4s.add(value)
                    return value

        for brand in d.sample(CARD_BRANDS, d.pick((1, 1, 2))):
            self.methods.append({"payment_method_id": d.token("pm"),
                                 "customer_id": self.customer_id, "kind": "card",
                                 "brand": brand, "last4": last4(), "balance": None})
        if d.chance(0.3):
            self.methods.append({"payment_method_id": d.token("pm"),
                                 "customer_id": self.customer_id, "kind": "paypal",
                                 "brand": "PayPal", "last4": "", "balance": None})
        if d.chance(0.35):
            self.methods.append({"payment_method_id": d.token("pm"),
                                 "customer_id": self.customer_id, "kind": "gift_card",
                                 "brand": "Gift Card", "last4": last4(),
                                 "balance": float(d.pick((25, 50, 75, 100, 150, 200)))})
        self.data["payment_methods"].extend(self.methods)

    def add_coupons(self) -> None:
        d, store = self.draw, self.store
        for _ in range(d.pick((0, 1, 1, 2))):
            while True:
                code = f"{d.pick(PERSONAL_WORDS)}{d.int(10, 99)}{d.pick(string.ascii_uppercase)}"
                if code not in store.codes:
                    store.codes.add(code)
                    break
            if d.chance(0.5):
                kind, value = "percent", float(d.pick((10, 15, 20, 25)))
                text = f"{int(value)}% off, just for you"
            else:
                kind, value = "fixed", float(d.pick((5, 10, 20, 25)))
                text = f"${int(value)} off, just for you"
            row = {"code": code, "customer_id": self.customer_id, "description": text,
                   "kind": kind, "value": value, "min_subtotal": float(d.pick((0, 25, 50, 80))),
                   "expires_on": (_TODAY + timedelta(days=d.int(-40, 160))).isoformat()}
            self.coupons.append(row)
            self.data["coupons"].append(row)

    # ------------------------------------------------------------------ orders
    def place_orders(self) -> None:
        d = self.draw
        ages = [d.int(6, 150) for _ in range(d.int(2, 5))]
        if d.chance(0.4):
            ages.append(d.int(0, 1))  # placed, not shipped yet
        if d.chance(0.4):
            ages.append(d.int(2, 5))  # shipped, on its way
        if d.chance(0.6):
            ages.append(d.int(6, 24))  # delivered recently
        ages.sort(reverse=True)
        for age in ages:
            moment = _NOW - timedelta(days=age, hours=d.int(0, 10), minutes=d.int(0, 59))
            self.order(moment, age)
        self.orders.sort(key=lambda o: o["placed_at"])
        self.data["orders"].extend(self.orders)
        keys = {o["order_id"]: n for n, o in enumerate(self.orders)}
        self.lines.sort(key=lambda i: (keys[i["order_id"]], i["line"]))
        self.data["order_items"].extend(self.lines)

    def order(self, moment: datetime, age: int) -> None:
        d = self.draw
        products = [p for p in self.data["products"] if p["stock"] > 0 or age > 20]
        chosen = d.sample(products, d.pick((1, 1, 2, 2, 3)))
        order_id = d.token("ord")
        lines = []
        for n, p in enumerate(chosen, 1):
            price = round(p["price"] * float(d.pick((1.0, 1.0, 1.0, 0.9, 0.85))), 2)
            lines.append({"order_id": order_id, "line": n, "product_id": p["product_id"],
                          "name": p["name"], "unit_price": price,
                          "quantity": d.pick((1, 1, 1, 2, 3))})
        prices = [(i["unit_price"], i["quantity"]) for i in lines]
        subtotal = order_amounts(prices, None, self.tier)[0]
        coupon = None
        day = moment.date().isoformat()
        if d.chance(0.25):
            usable = [c for c in self.store.data["coupons"][:len(PUBLIC_COUPONS)] + self.coupons
                      if c["expires_on"] >= day and cents_of(c["min_subtotal"]) <= cents_of(
                          subtotal) and not any(o["coupon_code"] == c["code"]
                                                and o["status"] != "cancelled"
                                                for o in self.orders)]
            coupon = d.pick(usable) if usable else None
        _, discount, shipping, total = order_amounts(
            prices, (coupon["kind"], coupon["value"]) if coupon else None, self.tier)
        status, shipped, delivered, reason = "delivered", None, None, None
        if age <= 1:
            status = "placed"
        elif age <= 5:
            status = "shipped"
            shipped = _stamp(moment + timedelta(days=1, hours=d.int(1, 8)))
        elif d.chance(0.08):
            status, reason = "cancelled", d.pick(CANCEL_REASONS)
        else:
            shipped = _stamp(moment + timedelta(days=1, hours=d.int(1, 8)))
            delivered = _stamp(moment + timedelta(days=d.int(3, 5), hours=d.int(1, 8)))
        cards = [m for m in self.methods if m["kind"] != "gift_card"]
        method = d.pick(self.methods if d.chance(0.2) else cards or self.methods)
        self.orders.append({
            "order_id": order_id, "customer_id": self.customer_id,
            "address_id": d.pick(self.addresses)["address_id"],
            "payment_method_id": method["payment_method_id"], "status": status,
            "subtotal": subtotal, "discount": discount, "shipping": shipping, "total": total,
            "coupon_code": coupon["code"] if coupon else None, "placed_at": _stamp(moment),
            "shipped_at": shipped, "delivered_at": delivered, "cancel_reason": reason})
        self.lines.extend(lines)
        if delivered:
            self.received.update(i["product_id"] for i in lines)

    def add_returns(self) -> None:
        d = self.draw
        orders = {o["order_id"]: o for o in self.orders}
        for line in self.lines:
            order = orders[line["order_id"]]
            if order["status"] != "delivered" or not d.chance(0.12):
                continue
            delivered = date.fromisoformat(order["delivered_at"][:10])
            requested = delivered + timedelta(days=d.int(1, 20))
            if requested > _TODAY:
                continue
            age = (_TODAY - requested).days
            status = "pending" if age < 4 else d.pick(("received", "refunded", "refunded",
                                                        "rejected"))
            quantity = d.int(1, line["quantity"])
            amount = refund_amount(line["unit_price"], quantity, order["subtotal"],
                                   order["discount"])
            refund_to = "store_credit" if d.chance(0.3) else "original_payment"
            if status == "refunded" and refund_to == "store_credit":
                self.row["store_credit"] = round(self.row["store_credit"] + amount, 2)
            self.data["returns"].append({
                "return_id": d.token("ret"), "customer_id": self.customer_id,
                "order_id": line["order_id"], "line": line["line"], "quantity": quantity,
                "reason": d.pick(RETURN_REASONS), "refund_to": refund_to,
                "refund_amount": amount, "status": status,
                "requested_on": requested.isoformat()})

    def add_reviews(self) -> None:
        d = self.draw
        orders = {o["order_id"]: o for o in self.orders}
        seen: set[str] = set()
        for line in self.lines:
            order = orders[line["order_id"]]
            if order["status"] != "delivered" or line["product_id"] in seen or \
                    not d.chance(0.35):
                continue
            seen.add(line["product_id"])
            rating = d.pick((1, 2, 3, 4, 4, 5, 5, 5))
            delivered = date.fromisoformat(order["delivered_at"][:10])
            created = min(_TODAY, delivered + timedelta(days=d.int(1, 14)))
            self.data["reviews"].append({
                "review_id": d.token("rev"), "customer_id": self.customer_id,
                "product_id": line["product_id"], "rating": rating,
                "title": d.pick(REVIEW_TITLES[rating]), "body": d.pick(REVIEW_BODIES),
                "created_on": created.isoformat()})

    def add_wishlist(self) -> None:
        d = self.draw
        for p in d.sample(self.data["products"], d.pick((0, 1, 2, 3, 4))):
            self.data["wishlist_items"].append({
                "customer_id": self.customer_id, "product_id": p["product_id"],
                "added_on": (_TODAY - timedelta(days=d.int(1, 200))).isoformat()})

    def fill_cart(self) -> None:
        d = self.draw
        stamp = _stamp(_NOW - timedelta(days=d.int(0, 20), hours=d.int(0, 23)))
        self.data["carts"].append({"customer_id": self.customer_id, "coupon_code": None,
                                   "updated_at": stamp})
        if not d.chance(0.45):
            return
        wished = {w["product_id"] for w in self.data["wishlist_items"]
                  if w["customer_id"] == self.customer_id}
        products = [p for p in self.data["products"] if p["status"] == "active"
                    and p["stock"] >= 3 and p["product_id"] not in wished]
        for p in d.sample(products, d.pick((1, 1, 2, 3))):
            self.data["cart_items"].append({
                "customer_id": self.customer_id, "product_id": p["product_id"],
                "quantity": d.pick((1, 1, 2)), "added_at": stamp})


def generate(seed: int) -> dict[str, list[dict]]:
    """The native data of a store made from ``seed``."""
    store = _Store(seed)
    for _ in range(N_CUSTOMERS):
        _Customer(store).make()
    return store.data
