"""Seeded synthetic data of the marketplace domain.

``generate(seed)`` returns the native data: ``{table: [row dict, ...]}`` in the column
order of ``schema.sql`` and in rowid order, exactly what :func:`..io.export` gives back after
:func:`..io.load`. Everything comes from ``numpy.random.default_rng(seed)``; the clock is
the fixed ``NOW`` of :mod:`.tools`, so the same seed always gives the same marketplace.

About 240 members, each with one or two cards (a few expired) and up to seven listings
(active, sold or closed); orders for the sold listings (paid, shipped with a label, or
delivered, some with a return or feedback) and cancelled orders in the history; open and
answered offers (some countered); saved searches; conversations about listings.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta

import numpy as np

from .tools import NOW, RATES, TODAY, money, shipping_rate

N_MEMBERS = 240
_TODAY = date.fromisoformat(TODAY)

FIRST = ("James Mary Robert Patricia John Jennifer Michael Linda David Elizabeth William "
         "Barbara Richard Susan Joseph Jessica Thomas Sarah Charles Karen Daniel Lisa Matthew "
         "Nancy Anthony Betty Mark Sandra Donald Ashley Steven Emily Paul Donna Andrew Michelle "
         "Joshua Carol Kevin Amanda Brian Melissa George Deborah Omar Aisha Wei Mei Carlos "
         "Lucia Raj Priya Ahmed Fatima Hiroshi Yuki Ivan Olga Kwame Amara").split()
LAST = ("Smith Johnson Williams Brown Jones Garcia Miller Davis Rodriguez Martinez Hernandez "
        "Lopez Gonzalez Wilson Anderson Thomas Taylor Moore Jackson Martin Lee Perez Thompson "
        "White Harris Sanchez Clark Ramirez Lewis Robinson Walker Young Allen King Wright Scott "
        "Torres Nguyen Hill Flores Green Adams Nelson Baker Hall Rivera Campbell Mitchell "
        "Carter Roberts Patel Kim Chen Okafor Novak Schmidt Rossi Tanaka Haddad").split()
PLACES = (("Austin", "TX"), ("Denver", "CO"), ("Seattle", "WA"), ("Portland", "OR"),
          ("Chicago", "IL"), ("Boston", "MA"), ("Atlanta", "GA"), ("Phoenix", "AZ"),
          ("Columbus", "OH"), ("Raleigh", "NC"), ("Madison", "WI"), ("Sacramento", "CA"),
          ("Pittsburgh", "PA"), ("Tampa", "FL"), ("Omaha", "NE"))
EMAIL_HOSTS = ("example.com", "mail.com", "inbox.net", "post.org")
HANDLE_WORDS = ("vintage", "thrift", "retro", "deals", "finds", "closet", "corner", "attic",
                "garage", "treasure", "resale", "swap", "goods", "picks", "market")
BRANDS = ("Visa", "Mastercard", "Amex", "Discover")
#: (title, category, typical price, shipping weight in ounces).
ITEMS = (
    ("Nintendo Switch OLED Console", "Video Games", 260, 48),
    ("PlayStation 5 DualSense Controller", "Video Games", 55, 20),
    ("Xbox Series S Console", "Video Games", 230, 96),
    ("Legend of Zelda Tears of the Kingdom", "Video Games", 45, 8),
    ("Game Boy Color Atomic Purple", "Video Games", 85, 12),
    ("Pokemon Red Cartridge", "Video Games", 60, 4),
    ("Apple iPad Air 64GB", "Electronics", 380, 32),
    ("Apple AirPods Pro 2nd Gen", "Electronics", 160, 10),
    ("Sony WH-1000XM4 Headphones", "Electronics", 190, 24),
    ("Bose SoundLink Flex Speaker", "Electronics", 110, 22),
    ("Kindle Paperwhite 11th Gen", "Electronics", 95, 14),
    ("Samsung Galaxy Watch 5", "Electronics", 150, 10),
    ("Garmin Forerunner 255", "Electronics", 210, 10),
    ("Raspberry Pi 4 Kit 8GB", "Electronics", 90, 16),
    ("Canon AE-1 Program 35mm Camera", "Cameras", 180, 36),
    ("Fujifilm Instax Mini 12", "Cameras", 65, 18),
    ("GoPro HERO10 Black", "Cameras", 240, 16),
    ("Nikon 50mm f/1.8G Lens", "Cameras", 120, 14),
    ("Polaroid Now Instant Camera", "Cameras", 85, 30),
    ("Sony RX100 III Compact Camera", "Cameras", 320, 20),
    ("Levi's 501 Vintage Jeans", "Clothing", 45, 24),
    ("Patagonia Nano Puff Jacket", "Clothing", 110, 20),
    ("North Face Denali Fleece", "Clothing", 75, 28),
    ("Carhartt Detroit Jacket", "Clothing", 95, 48),
    ("Lululemon Align Leggings", "Clothing", 55, 8),
    ("Vintage Band T-Shirt Nirvana", "Clothing", 40, 8),
    ("Nike Air Jordan 1 Mid", "Shoes", 130, 56),
    ("Adidas Ultraboost 22", "Shoes", 95, 48),
    ("Dr. Martens 1460 Boots", "Shoes", 110, 72),
    ("New Balance 990v5", "Shoes", 120, 52),
    ("Birkenstock Arizona Sandals", "Shoes", 70, 32),
    ("KitchenAid Artisan Stand Mixer", "Home & Kitchen", 260, 400),
    ("Le Creuset Dutch Oven 5.5 qt", "Home & Kitchen", 230, 240),
    ("Nespresso Vertuo Coffee Maker", "Home & Kitchen", 120, 160),
    ("Dyson V8 Cordless Vacuum", "Home & Kitchen", 210, 150),
    ("Instant Pot Duo 6 qt", "Home & Kitchen", 65, 180),
    ("Vitamix 5200 Blender", "Home & Kitchen", 240, 200),
    ("LEGO Star Wars Millennium Falcon 75257", "Toys", 140, 80),
    ("LEGO Technic Bugatti Chiron", "Toys", 280, 128),
    ("American Girl Doll Samantha", "Toys", 120, 40),
    ("Hot Wheels Redline Collection", "Toys", 75, 24),
    ("Pokemon Charizard Holo Card", "Collectibles", 350, 2),
    ("1986 Fleer Basketball Card Lot", "Collectibles", 90, 6),
    ("Funko Pop Darth Vader Chrome", "Collectibles", 45, 12),
    ("Morgan Silver Dollar 1921", "Collectibles", 60, 2),
    ("Vintage Star Wars Kenner Figure Lot", "Collectibles", 160, 20),
    ("Signed Baseball Derek Jeter", "Collectibles", 420, 10),
    ("Harry Potter Box Set Hardcover", "Books", 85, 120),
    ("Dune Classic Paperback Edition", "Books", 70, 12),
    ("The Joy of Cooking 1975 Edition", "Books", 30, 40),
    ("Calvin and Hobbes Complete Collection", "Books", 95, 160),
    ("Yeti Tundra 45 Cooler", "Sports & Outdoors", 220, 360),
    ("Trek Marlin 5 Mountain Bike", "Sports & Outdoors", 450, 700),
    ("REI Half Dome 2 Tent", "Sports & Outdoors", 160, 80),
    ("Bowflex SelectTech 552 Dumbbells", "Sports & Outdoors", 300, 1000),
    ("Callaway Rogue Driver", "Sports & Outdoors", 170, 60),
    ("Burton Custom Snowboard 156", "Sports & Outdoors", 310, 180),
    ("Fender Player Stratocaster", "Musical Instruments", 620, 320),
    ("Yamaha FG800 Acoustic Guitar", "Musical Instruments", 180, 260),
    ("Roland TD-1K Electronic Drum Kit", "Musical Instruments", 340, 640),
    ("Boss DS-1 Distortion Pedal", "Musical Instruments", 45, 16),
    ("Shure SM58 Microphone", "Musical Instruments", 80, 20),
    ("Korg Minilogue Synthesizer", "Musical Instruments", 420, 240),
)
#: Variants that tell two listings of one item apart (colors, sizes, bundles).
VARIANTS = ("Black", "White", "Blue", "Red", "Gray", "Green", "Size M", "Size L", "Size 10",
            "Bundle", "With Box", "Like New Box")
CONDITION_FACTOR = {"new": 1.0, "like_new": 0.85, "good": 0.7, "fair": 0.55, "for_parts": 0.3}
SEARCH_WORDS = ("nintendo", "lego", "canon", "jacket", "vintage", "pokemon", "guitar",
                "jordan", "dyson", "camera", "kindle", "boots", "synthesizer", "cooler")
QUESTIONS = ("Is this still available?", "Would you take a lower price?",
             "Can you ship it this week?", "Does it come with the original box?",
             "Any scratches or damage I should know about?", "Is the battery still good?")
ANSWERS = ("Yes, it's still available.", "I can ship it tomorrow.",
           "No damage, it's in great shape.", "It comes with the original box.",
           "Sorry, the price is firm.", "Thanks for asking, happy to help!")
FEEDBACK_WORDS = {"positive": ("Great seller, fast shipping!", "Item exactly as described.",
                               "Smooth transaction, thank you!", "Great buyer, quick payment."),
                  "neutral": ("Item was fine, shipping was slow.", "OK transaction."),
                  "negative": ("Item arrived damaged.", "Not as described.")}
TABLES = ("members", "payment_methods", "listings", "offers", "orders", "shipping_labels",
          "returns", "feedback", "saved_searches", "conversations", "messages")
_ALNUM = "abcdefghijklmnopqrstuvwxyz0123456789"


def _day(offset: int) -> str:
    return (_TODAY - timedelta(days=int(offset))).isoformat()


def _stamp(day: str, rng: np.random.Generator) -> str:
    return f"{day}T{int(rng.integers(8, 22)):02d}:{int(rng.integers(0, 60)):02d}:00"


def _later(stamp: str, days: int, rng: np.random.Generator) -> str:
    """A time ``days`` days after ``stamp`` (never after ``NOW``)."""
    when = datetime.fromisoformat(stamp) + timedelta(days=days,
                                                     hours=int(rng.integers(1, 10)))
    return min(when, datetime.fromisoformat(NOW) - timedelta(minutes=5)).isoformat()


class _Market:
    """The tables being drawn, with the values that must stay unique."""

    def __init__(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)
        self.data: dict[str, list[dict]] = {t: [] for t in TABLES}
        self.tokens: set[str] = set()
        self.emails: set[str] = set()
        self.usernames: set[str] = set()
        self.tracking: set[str] = set()
        self.cards: dict[str, list[dict]] = {}
        self.titles: dict[str, set[str]] = {}

    def pick(self, options):
        return options[int(self.rng.integers(len(options)))]

    def token(self, prefix: str, n: int = 8) -> str:
        """A new id ``prefix_xxxxxxxx``: a letter first (created ids are digits)."""
        while True:
            chars = [_ALNUM[int(i)] for i in self.rng.integers(0, 36, size=n)]
            chars[0] = _ALNUM[int(self.rng.integers(0, 26))]
            value = f"{prefix}_{''.join(chars)}"
            if value not in self.tokens:
                self.tokens.add(value)
                return value

    def digits(self, k: int) -> str:
        return "".join(str(int(d)) for d in self.rng.integers(0, 10, size=k))

    # ------------------------------------------------------------------- members
    def member(self) -> dict:
        rng = self.rng
        first, last = self.pick(FIRST), self.pick(LAST)
        while True:
            email = f"{first}.{last}{int(rng.integers(1, 1000))}@{self.pick(EMAIL_HOSTS)}"
            if email.lower() not in self.emails:
                self.emails.add(email.lower())
                break
        while True:
            if rng.random() < 0.5:
                username = f"{first}{last[0]}{int(rng.integers(10, 100))}".lower()
            else:
                username = (f"{self.pick(HANDLE_WORDS)}_{self.pick(HANDLE_WORDS)}"
                            f"{int(rng.integers(1, 100))}")
            if username not in self.usernames:
                self.usernames.add(username)
                break
        city, state = self.pick(PLACES)
        row = {"member_id": self.token("mem"), "first_name": first, "last_name": last,
               "email": email.lower(), "username": username, "city": city, "state": state,
               "joined_on": _day(int(rng.integers(150, 3000)))}
        self.data["members"].append(row)
        self.cards[row["member_id"]] = []
        self.titles[row["member_id"]] = set()
        return row

    def payment_methods(self, member: dict) -> None:
        rng = self.rng
        digits: set[str] = set()
        count = 1 + int(rng.random() < 0.45) + int(rng.random() < 0.15)
        for i in range(count):
            while True:
                last4 = str(int(rng.integers(2000, 10000)))  # no year or model number
                if last4 not in digits:
                    digits.add(last4)
                    break
            expired = i > 0 and rng.random() < 0.3
            year = int(rng.integers(2022, 2024)) if expired else int(rng.integers(2025, 2030))
            row = {"payment_method_id": self.token("pm"), "member_id": member["member_id"],
                   "brand": self.pick(BRANDS), "last4": last4,
                   "expires": f"{year}-{int(rng.integers(1, 13)):02d}",
                   "status": "expired" if expired else "active"}
            self.data["payment_methods"].append(row)
            self.cards[member["member_id"]].append(row)

    def active_card(self, member_id: str) -> dict:
        return self.pick([c for c in self.cards[member_id] if c["status"] == "active"])

    # ------------------------------------------------------------------ listings
    def listings(self, member: dict) -> None:
        rng = self.rng
        for _ in range(int(rng.choice((0, 1, 2, 3, 3, 4, 5, 6, 7)))):
            title, category, base, _ = self.pick(ITEMS)
            if title in self.titles[member["member_id"]]:
                title = f"{title} - {self.pick(VARIANTS)}"
                if title in self.titles[member["member_id"]]:
                    continue
            self.titles[member["member_id"]].add(title)
            condition = str(rng.choice(("new", "like_new", "like_new", "good", "good", "fair",
                                        "for_parts"), p=(0.1, 0.15, 0.15, 0.2, 0.2, 0.15, 0.05)))
            raw = base * CONDITION_FACTOR[condition] * rng.uniform(0.8, 1.15)
            price = float(max(5, round(raw))) if rng.random() < 0.6 else money(
                max(5, int(raw)) - 0.01)
            shipping = 0.0 if rng.random() < 0.3 else money(
                float(rng.choice((4.99, 6.99, 8.99, 12.99, 15.99, 19.99))))
            roll = rng.random()
            status = "active" if roll < 0.55 else "sold" if roll < 0.85 else "closed"
            created = int(rng.integers(5, 150))
            self.data["listings"].append({
                "listing_id": self.token("lst"), "seller_id": member["member_id"],
                "title": title, "category": category, "condition": condition,
                "price": price, "shipping_cost": shipping,
                "description": f"{title}, {condition.replace('_', ' ')} condition.",
                "status": status, "created_on": _day(created),
                "updated_on": _day(int(rng.integers(0, created + 1))),
                "views": int(rng.integers(3, 900))})

    # -------------------------------------------------------------------- trades
    def buyer_for(self, seller_id: str) -> str:
        while True:
            member = self.pick(self.data["members"])
            if member["member_id"] != seller_id:
                return member["member_id"]

    def offer(self, listing: dict, buyer_id: str, status: str, created: str,
              counter: bool = False) -> dict:
        rng = self.rng
        price = listing["price"]
        amount = float(max(int(np.ceil(price * 0.5)), int(price * rng.uniform(0.55, 0.92))))
        if amount >= price:
            amount = money(price * 0.75)
        counter_amount = None
        if counter and price - amount >= 2:
            counter_amount = float(int(amount + (price - amount) * rng.uniform(0.35, 0.75)))
            counter_amount = counter_amount if amount < counter_amount < price else None
        if status == "countered" and counter_amount is None:
            status = "pending"
        responded = None if status == "pending" else _later(created, int(rng.integers(0, 3)),
                                                                rng)
        row = {"offer_id": self.token("ofr"), "listing_id": listing["listing_id"],
               "buyer_id": buyer_id,
               "payment_method_id": self.active_card(buyer_id)["payment_method_id"],
               "amount": amount, "counter_amount": counter_amount,
               "message": self.pick(("", "", "Would you take this?", "Cash ready, quick pay.")),
               "status": status, "created_at": created, "responded_at": responded}
        self.data["offers"].append(row)
        return row

    def order(self, listing: dict, buyer_id: str, status: str, ordered: str,
              offer: dict | None = None) -> dict:
        rng = self.rng
        price = listing["price"] if offer is None else (offer["counter_amount"]
                                                        or offer["amount"])
        card = (offer["payment_method_id"] if offer else
                self.active_card(buyer_id)["payment_method_id"])
        shipped = delivered = cancelled = None
        if status in ("shipped", "delivered"):
            shipped = _later(ordered, int(rng.integers(0, 3)), rng)
        if status == "delivered":
            delivered = _later(shipped, int(rng.integers(2, 6)), rng)
        if status == "cancelled":
            cancelled = _later(ordered, int(rng.integers(0, 2)), rng)
        row = {"order_id": self.token("ord"), "listing_id": listing["listing_id"],
               "buyer_id": buyer_id, "seller_id": listing["seller_id"],
               "payment_method_id": card, "offer_id": offer["offer_id"] if offer else None,
               "item_price": price, "shipping_cost": listing["shipping_cost"],
               "total": money(price + listing["shipping_cost"]), "status": status,
               "ordered_at": ordered, "shipped_at": shipped, "delivered_at": delivered,
               "cancelled_at": cancelled,
               "cancel_reason": self.pick(("buyer_changed_mind", "out_of_stock", "other"))
               if status == "cancelled" else None}
        self.data["orders"].append(row)
        if shipped:
            self.label(row, listing)
        return row

    def label(self, order: dict, listing: dict) -> None:
        rng = self.rng
        weight = next(w for t, _, _, w in ITEMS if listing["title"].startswith(t))
        weight = max(1, int(weight * rng.uniform(0.9, 1.3)))
        carrier = self.pick(tuple(RATES))
        service = str(rng.choice(("ground", "priority", "express"), p=(0.55, 0.35, 0.1)))
        while True:
            tracking = {"USPS": "9405" + self.digits(18), "UPS": "1Z" + self.digits(6) + "03"
                        + self.digits(8), "FedEx": "39" + self.digits(10)}[carrier]
            if tracking not in self.tracking:
                self.tracking.add(tracking)
                break
        self.data["shipping_labels"].append({
            "label_id": self.token("lbl"), "order_id": order["order_id"], "carrier": carrier,
            "service": service, "weight_oz": weight,
            "cost": shipping_rate(carrier, service, weight), "tracking_number": tracking,
            "created_at": order["shipped_at"]})

    def sold(self, listing: dict) -> None:
        """A sold listing: perhaps a cancelled order first, then the sale (by offer or
        outright), shipped and delivered according to its age."""
        rng = self.rng
        age = (_TODAY - date.fromisoformat(listing["created_on"])).days
        ordered_day = int(rng.integers(0, max(1, age)))
        ordered = _stamp(_day(ordered_day), rng)
        if ordered_day > 4 and rng.random() < 0.12:
            self.order(listing, self.buyer_for(listing["seller_id"]), "cancelled",
                       _stamp(_day(ordered_day + 1), rng) if ordered_day + 1 < age else ordered)
        status = ("paid" if ordered_day <= 2 else "shipped" if ordered_day <= 6
                  else "delivered")
        if ordered_day <= 6 and rng.random() < 0.3:
            status = ("paid", "shipped")[int(rng.integers(2))]
        buyer = self.buyer_for(listing["seller_id"])
        offer = None
        if rng.random() < 0.35:
            created = _later(ordered, -int(rng.integers(1, 4)), rng)
            offer = self.offer(listing, buyer, "accepted", created, counter=rng.random() < 0.4)
            offer["responded_at"] = ordered
        order = self.order(listing, buyer, status, ordered, offer)
        if status == "delivered":
            self.after_delivery(order)

    def after_delivery(self, order: dict) -> None:
        rng = self.rng
        delivered = order["delivered_at"][:10]
        age = (_TODAY - date.fromisoformat(delivered)).days
        for role, chance in (("buyer", 0.5), ("seller", 0.4)):
            if rng.random() < chance:
                rating = str(rng.choice(("positive", "neutral", "negative"),
                                        p=(0.85, 0.1, 0.05)))
                author, recipient = ((order["buyer_id"], order["seller_id"]) if role == "buyer"
                                     else (order["seller_id"], order["buyer_id"]))
                self.data["feedback"].append({
                    "feedback_id": self.token("fb"), "order_id": order["order_id"],
                    "author_id": author, "recipient_id": recipient, "role": role,
                    "rating": rating, "comment": self.pick(FEEDBACK_WORDS[rating]),
                    "left_on": _day(max(0, age - int(rng.integers(0, min(age, 20) + 1))))})
        if rng.random() < 0.06:
            self.data["returns"].append({
                "return_id": self.token("ret"), "order_id": order["order_id"],
                "reason": self.pick(("not_as_described", "damaged", "wrong_item")),
                "status": self.pick(("open", "approved", "refunded", "rejected")),
                "opened_on": _day(max(0, age - int(rng.integers(1, 10))))})

    def active(self, listing: dict) -> None:
        """Offers on an active listing: answered ones in the past, maybe one open."""
        rng = self.rng
        age = (_TODAY - date.fromisoformat(listing["created_on"])).days
        buyers = []
        for _ in range(int(rng.choice((0, 0, 1, 1, 2, 3)))):
            buyer = self.buyer_for(listing["seller_id"])
            if buyer in buyers:
                continue
            buyers.append(buyer)
            roll = rng.random()
            status = ("pending" if roll < 0.35 else "countered" if roll < 0.6 else "declined"
                      if roll < 0.85 else "expired")
            self.offer(listing, buyer, status, _stamp(_day(int(rng.integers(0, age + 1))), rng),
                       counter=status == "countered" or rng.random() < 0.2)

    def closed(self, listing: dict) -> None:
        if self.rng.random() < 0.3:
            self.offer(listing, self.buyer_for(listing["seller_id"]), "declined",
                       _stamp(listing["created_on"], self.rng))

    # --------------------------------------------------- searches and conversations
    def saved_searches(self, member: dict) -> None:
        rng = self.rng
        seen = set()
        for _ in range(int(rng.choice((0, 0, 1, 1, 2, 3)))):
            query = self.pick(SEARCH_WORDS)
            max_price = float(self.pick((0, 0, 50, 100, 200, 300)))
            if (query, max_price) in seen:
                continue
            seen.add((query, max_price))
            self.data["saved_searches"].append({
                "saved_search_id": self.token("srch"), "member_id": member["member_id"],
                "query": query, "category": "", "max_price": max_price,
                "created_on": _day(int(rng.integers(1, 200)))})

    def conversations(self) -> None:
        rng = self.rng
        pairs = {}
        for offer in self.data["offers"]:
            if rng.random() < 0.35:
                pairs.setdefault((offer["listing_id"], offer["buyer_id"]), offer["created_at"])
        for order in self.data["orders"]:
            if rng.random() < 0.25:
                pairs.setdefault((order["listing_id"], order["buyer_id"]), order["ordered_at"])
        sellers = {x["listing_id"]: x["seller_id"] for x in self.data["listings"]}
        for (listing_id, buyer_id), when in sorted(pairs.items(), key=lambda kv: kv[1]):
            conversation_id = self.token("cnv")
            started = _later(when, -1, rng)
            self.data["conversations"].append({
                "conversation_id": conversation_id, "listing_id": listing_id,
                "buyer_id": buyer_id, "seller_id": sellers[listing_id], "started_at": started})
            stamp = started
            for i in range(int(rng.integers(1, 5))):
                sender = buyer_id if i % 2 == 0 else sellers[listing_id]
                body = self.pick(QUESTIONS) if i % 2 == 0 else self.pick(ANSWERS)
                self.data["messages"].append({
                    "message_id": self.token("msg"), "conversation_id": conversation_id,
                    "sender_id": sender, "body": body, "sent_at": stamp,
                    "is_read": int(rng.random() < 0.7)})
                stamp = _later(stamp, 0, rng)
        self.data["messages"].sort(key=lambda m: m["sent_at"])


def generate(seed: int) -> dict[str, list[dict]]:
    """The native data of a marketplace made from ``seed``."""
    market = _Market(seed)
    for _ in range(N_MEMBERS):
        member = market.member()
        market.payment_methods(member)
    for member in market.data["members"]:
        market.listings(member)
    for listing in market.data["listings"]:
        {"sold": market.sold, "active": market.active, "closed": market.closed}[
            listing["status"]](listing)
    for member in market.data["members"]:
        market.saved_searches(member)
    market.conversations()
    data = market.data
    data["offers"].sort(key=lambda o: o["created_at"])
    data["orders"].sort(key=lambda o: o["ordered_at"])
    order_ids = [o["order_id"] for o in data["orders"]]
    data["shipping_labels"].sort(key=lambda s: order_ids.index(s["order_id"]))
    data["feedback"].sort(key=lambda f: f["left_on"])
    data["returns"].sort(key=lambda r: r["opened_on"])
    return data
