"""Synthetic retail database in tau2-bench's ``db.json`` shape (spec ``retail.md`` §1.1).

``generate(seed)`` is a pure function: it builds the whole database from the vocabulary
lists below with a ``random.Random(seed)`` created inside the call, so the same seed always
yields an identical dict (and identical ``json.dumps``).  Nothing here reads tau2's data.

Shape and scale follow the shipped tau2 file: 50 products with 5..20 variants each (about
600 in all, about 64% available), 500 users (about 60 without orders) holding 1..4 payment
methods, 1,000 orders in the pending / processed / delivered / cancelled proportions
423 / 102 / 373 / 102, and every invariant listed in §1.1.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

__all__ = ["generate", "N_PRODUCTS", "N_USERS", "N_ORDERS", "STATUS_COUNTS"]

N_PRODUCTS = 50
N_USERS = 500
N_ORDERS = 1000
STATUS_COUNTS = (("pending", 423), ("processed", 102), ("delivered", 373), ("cancelled", 102))

_AVAILABLE_SHARE = 0.63  # ~0.64 after the minimum top-up below
_MIN_AVAILABLE = 3            # every product keeps alternatives to exchange/modify into
_DUPLICATE_ITEM_RATE = 0.01   # multi-item orders listing the same item twice
_OTHER_ADDRESS_RATE = 0.2     # orders shipped somewhere other than the owner's address

# --------------------------------------------------------------------------------------------
# Vocabulary (our own lists)
# --------------------------------------------------------------------------------------------

_COLORS = ["black", "white", "gray", "navy", "red", "green", "blue", "beige"]
_SIZES = ["XS", "S", "M", "L", "XL", "XXL"]

# name, option keys -> values (key order is the option order of every variant), base price range
_CATALOGUE: list[tuple[str, dict[str, list[str]], tuple[float, float]]] = [
    ("T-Shirt", {"color": ["white", "black", "navy", "heather gray", "olive", "maroon"],
                 "size": _SIZES, "fit": ["regular", "slim", "relaxed"],
                 "fabric": ["cotton", "cotton blend", "linen"]}, (14, 38)),
    ("Office Chair", {"upholstery": ["mesh", "leather", "fabric", "vinyl"],
                      "color": ["black", "gray", "blue", "white"],
                      "armrests": ["fixed", "adjustable", "none"],
                      "lumbar support": ["yes", "no"]}, (160, 480)),
    ("Mechanical Keyboard", {"switch type": ["linear", "tactile", "clicky"],
                             "layout": ["full size", "TKL", "75%", "60%"],
                             "backlight": ["none", "white", "RGB"]}, (70, 230)),
    ("Hoodie", {"color": ["black", "gray", "forest green", "burgundy", "sand"], "size": _SIZES,
                "closure": ["pullover", "zip-up"]}, (35, 85)),
    ("Rain Jacket", {"size": _SIZES, "color": ["yellow", "navy", "black", "olive"],
                     "hood": ["fixed", "packable"]}, (60, 190)),
    ("Denim Jeans", {"waist": ["28", "30", "32", "34", "36", "38"], "length": ["30", "32", "34"],
                     "fit": ["skinny", "straight", "bootcut"],
                     "wash": ["light", "medium", "dark"]}, (40, 120)),
    ("Trail Running Shoes", {"size": ["7", "7.5", "8", "8.5", "9", "9.5", "10", "10.5", "11", "12"],
                             "color": ["black", "orange", "blue", "gray"],
                             "drop": ["4mm", "8mm"]}, (90, 175)),
    ("Wool Socks", {"size": ["S", "M", "L"], "cushion": ["light", "medium", "heavy"],
                    "pack": ["3-pack", "6-pack"], "color": ["charcoal", "oatmeal", "navy"]}, (15, 35)),
    ("Standing Desk", {"width": ["48 in", "55 in", "60 in", "72 in"],
                       "top finish": ["walnut", "oak", "white", "black"],
                       "frame": ["single motor", "dual motor"]}, (300, 900)),
    ("Monitor", {"size": ["24 in", "27 in", "32 in", "34 in"],
                 "resolution": ["1080p", "1440p", "4K"],
                 "refresh rate": ["60Hz", "144Hz", "165Hz"]}, (150, 720)),
    ("Wireless Mouse", {"color": ["black", "white", "graphite", "pink"],
                        "DPI": ["1600", "4000", "8000"],
                        "grip": ["ergonomic", "ambidextrous"]}, (20, 95)),
    ("USB-C Hub", {"ports": ["4-in-1", "7-in-1", "10-in-1", "12-in-1"],
                   "color": ["silver", "space gray"],
                   "power delivery": ["60W", "100W"]}, (25, 95)),
    ("Noise-Cancelling Headphones", {"color": ["black", "silver", "midnight blue", "rose"],
                                     "fit": ["over-ear", "on-ear"],
                                     "battery life": ["20 hours", "30 hours", "40 hours"]},
     (120, 420)),
    ("Smart Speaker", {"color": ["charcoal", "chalk", "sky blue"],
                       "size": ["mini", "standard", "max"],
                       "voice assistant": ["Alexa", "Google Assistant", "none"]}, (40, 260)),
    ("Fitness Tracker", {"band color": ["black", "lavender", "teal", "coral"],
                         "band size": ["S", "M", "L"],
                         "display": ["monochrome", "color"]}, (50, 180)),
    ("Drone", {"camera": ["2.7K", "4K", "6K"], "flight time": ["25 min", "35 min", "45 min"],
               "bundle": ["standard", "fly more"]}, (300, 1400)),
    ("Gaming Console", {"storage": ["512GB", "1TB", "2TB"], "edition": ["digital", "disc"],
                        "color": ["white", "black", "gray"]}, (300, 620)),
    ("Laptop Sleeve", {"size": ["13 in", "14 in", "15 in", "16 in"],
                       "color": ["black", "gray", "tan", "navy"],
                       "material": ["neoprene", "felt", "leather"]}, (20, 70)),
    ("Air Fryer", {"capacity": ["3 qt", "5 qt", "6 qt", "8 qt"],
                   "color": ["black", "white", "stainless"], "window": ["yes", "no"]}, (60, 210)),
    ("Blender", {"power": ["600W", "900W", "1200W", "1500W"],
                 "jar material": ["plastic", "glass"],
                 "color": ["black", "red", "white"]}, (50, 320)),
    ("Chef's Knife", {"blade length": ["6 in", "8 in", "10 in"],
                      "steel": ["German", "Japanese", "carbon"],
                      "handle": ["wood", "resin", "stainless"]}, (40, 180)),
    ("Cast Iron Skillet", {"diameter": ["8 in", "10 in", "12 in", "15 in"],
                           "finish": ["pre-seasoned", "enameled"],
                           "lid": ["included", "not included"]}, (25, 120)),
    ("Stand Mixer", {"color": ["red", "cream", "black", "silver", "teal"],
                     "bowl size": ["4.5 qt", "5 qt", "6 qt"],
                     "attachment set": ["basic", "deluxe"]}, (200, 520)),
    ("Rice Cooker", {"capacity": ["3 cups", "5 cups", "10 cups"],
                     "type": ["basic", "fuzzy logic", "induction"],
                     "color": ["white", "black", "silver"]}, (30, 250)),
    ("Dinnerware Set", {"pieces": ["12", "16", "32"],
                        "material": ["stoneware", "porcelain", "melamine"],
                        "color": ["white", "speckled", "slate", "sage"]}, (50, 200)),
    ("Bath Towel Set", {"color": ["white", "gray", "navy", "blush", "spa blue"],
                        "pieces": ["2", "4", "6"],
                        "weight": ["lightweight", "plush"]}, (25, 95)),
    ("Bed Sheet Set", {"size": ["twin", "full", "queen", "king"],
                       "material": ["cotton percale", "sateen", "linen", "microfiber"],
                       "color": ["white", "ivory", "gray", "sage"]}, (40, 210)),
    ("Duvet Insert", {"size": ["twin", "queen", "king"],
                      "fill": ["down", "down alternative", "wool"],
                      "warmth": ["light", "all-season", "extra warm"]}, (60, 320)),
    ("Floor Lamp", {"finish": ["brass", "black", "nickel"], "shade": ["linen", "glass", "paper"],
                    "dimmable": ["yes", "no"]}, (50, 230)),
    ("Area Rug", {"size": ["5x7 ft", "8x10 ft", "9x12 ft"],
                  "pattern": ["solid", "geometric", "vintage", "striped"],
                  "material": ["wool", "jute", "polypropylene"]}, (80, 620)),
    ("Planter Pot", {"diameter": ["6 in", "8 in", "10 in", "12 in"],
                     "material": ["ceramic", "terracotta", "concrete"],
                     "color": ["white", "charcoal", "natural"]}, (15, 75)),
    ("Robot Vacuum", {"navigation": ["gyro", "lidar", "camera"], "self-empty": ["yes", "no"],
                      "color": ["black", "white"], "mop": ["yes", "no"]}, (200, 900)),
    ("Space Heater", {"type": ["ceramic", "oil-filled", "infrared"],
                      "wattage": ["750W", "1500W"],
                      "color": ["white", "black", "gray"]}, (40, 165)),
    ("Ceiling Fan", {"blade span": ["42 in", "52 in", "60 in"],
                     "finish": ["white", "bronze", "nickel", "black"],
                     "light kit": ["yes", "no"]}, (90, 420)),
    ("Camping Tent", {"capacity": ["2-person", "4-person", "6-person"],
                      "season": ["3-season", "4-season"],
                      "color": ["green", "orange", "gray"]}, (100, 620)),
    ("Sleeping Bag", {"temperature rating": ["0F", "20F", "40F"],
                      "fill": ["synthetic", "down"], "length": ["regular", "long"],
                      "color": ["red", "blue"]}, (60, 360)),
    ("Camping Stove", {"burners": ["1", "2"], "fuel": ["propane", "butane", "multi-fuel"],
                       "ignition": ["manual", "piezo"], "color": ["red", "silver"]}, (40, 210)),
    ("Kayak Paddle", {"length": ["220 cm", "230 cm", "240 cm"],
                      "shaft": ["aluminum", "fiberglass", "carbon"],
                      "blade color": ["yellow", "red", "black"]}, (60, 310)),
    ("Tennis Racket", {"head size": ["98 sq in", "100 sq in", "105 sq in"],
                       "grip size": ["4 1/8", "4 1/4", "4 3/8"],
                       "weight": ["light", "standard"]}, (80, 260)),
    ("Bike Helmet", {"size": ["S", "M", "L"], "color": ["matte black", "white", "neon yellow", "red"],
                     "MIPS": ["yes", "no"]}, (50, 250)),
    ("Kettlebell", {"weight": ["10 lb", "15 lb", "20 lb", "25 lb", "35 lb", "45 lb"],
                    "material": ["cast iron", "vinyl-coated", "competition steel"]}, (25, 150)),
    ("Resistance Bands", {"set": ["light", "medium", "heavy", "mixed"],
                          "handles": ["yes", "no"],
                          "style": ["loop", "tube"]}, (12, 45)),
    ("Board Game", {"genre": ["strategy", "party", "cooperative", "family"],
                    "player count": ["2-4", "2-6", "3-8"],
                    "edition": ["standard", "deluxe"]}, (20, 85)),
    ("Watercolor Paint Set", {"colors": ["12", "24", "36", "48"], "format": ["pans", "tubes"],
                              "grade": ["student", "artist"]}, (15, 120)),
    ("Acoustic Guitar", {"body": ["dreadnought", "concert", "parlor"],
                         "top wood": ["spruce", "cedar", "mahogany"],
                         "finish": ["natural", "sunburst", "black"]}, (180, 950)),
    ("Digital Piano", {"keys": ["61", "76", "88"],
                       "action": ["semi-weighted", "weighted", "hammer action"],
                       "color": ["black", "white", "rosewood"]}, (300, 1500)),
    ("Baby Stroller", {"type": ["full size", "jogging", "lightweight"],
                       "color": ["black", "gray", "navy", "olive"],
                       "canopy": ["standard", "extended"]}, (150, 820)),
    ("Dog Harness", {"size": ["XS", "S", "M", "L", "XL"],
                     "color": ["red", "blue", "black", "camo"],
                     "reflective": ["yes", "no"]}, (15, 55)),
    ("Cat Tree", {"height": ["3 ft", "4 ft", "5 ft", "6 ft"],
                  "color": ["beige", "gray", "brown"],
                  "platforms": ["3", "4", "5"]}, (50, 210)),
    ("Electric Scooter", {"range": ["15 miles", "25 miles", "40 miles"],
                          "max speed": ["15 mph", "19 mph", "25 mph"],
                          "color": ["black", "white", "green"]}, (300, 1250)),
    ("Leather Wallet", {"style": ["bifold", "trifold", "card holder"],
                        "color": ["black", "brown", "tan"],
                        "RFID blocking": ["yes", "no"]}, (20, 95)),
    ("Coffee Grinder", {"burr": ["flat", "conical"], "settings": ["15", "40", "60"],
                        "color": ["black", "white", "copper"]}, (40, 320)),
    ("Smart Doorbell", {"resolution": ["1080p", "1536p", "2K"], "power": ["battery", "wired"],
                        "chime": ["included", "not included"],
                        "color": ["satin nickel", "black"]}, (60, 260)),
    ("Carry-On Suitcase", {"shell": ["hard", "soft"],
                           "color": ["black", "silver", "teal", "burgundy"],
                           "wheels": ["2-wheel", "4-wheel spinner"],
                           "expandable": ["yes", "no"]}, (80, 420)),
]

_FIRST_NAMES = [
    "Abigail", "Adrian", "Alice", "Amir", "Ana", "Andre", "Beatrice", "Bruno", "Caleb", "Camila",
    "Connor", "Dalia", "Damian", "Elena", "Elliot", "Esther", "Felix", "Fiona", "Gavin", "Grace",
    "Hana", "Hector", "Iris", "Isaac", "Jade", "Jonah", "Julia", "Kai", "Keira", "Leo",
    "Lila", "Lorenzo", "Maya", "Marcus", "Mei", "Nadia", "Nathan", "Nora", "Oscar", "Paloma",
    "Priya", "Quentin", "Rosa", "Rowan", "Samir", "Sofia", "Tariq", "Tessa", "Victor", "Wren",
    "Xavier", "Yusuf", "Zara", "Zoe",
]
_LAST_NAMES = [
    "Abbott", "Alvarez", "Bennett", "Brooks", "Castillo", "Chang", "Costa", "Dawson", "Delgado",
    "Ellis", "Farouk", "Fischer", "Fleming", "Gallagher", "Greene", "Haddad", "Hughes", "Ito",
    "Jensen", "Kapoor", "Keller", "Kowalski", "Lambert", "Lindqvist", "Mahoney", "Marsh",
    "Mendez", "Morrison", "Nakamura", "Novak", "Okafor", "Ortega", "Park", "Petrov", "Quinn",
    "Ramos", "Reyes", "Rossi", "Salazar", "Schmidt", "Sharma", "Sullivan", "Tanaka", "Torres",
    "Vasquez", "Wagner", "Walsh", "Whitaker", "Yamada", "Zimmerman",
]

# city, state, zip range (inclusive, 5-digit numbers; printed zero-padded)
_CITIES: list[tuple[str, str, int, int]] = [
    ("Seattle", "WA", 98101, 98199), ("Spokane", "WA", 99201, 99224),
    ("Portland", "OR", 97201, 97299), ("San Francisco", "CA", 94102, 94188),
    ("Los Angeles", "CA", 90001, 90089), ("San Diego", "CA", 92101, 92199),
    ("Sacramento", "CA", 95811, 95899), ("Las Vegas", "NV", 89101, 89199),
    ("Phoenix", "AZ", 85001, 85099), ("Tucson", "AZ", 85701, 85775),
    ("Salt Lake City", "UT", 84101, 84199), ("Boise", "ID", 83701, 83799),
    ("Denver", "CO", 80201, 80299), ("Albuquerque", "NM", 87101, 87199),
    ("Austin", "TX", 78701, 78759), ("Houston", "TX", 77001, 77099),
    ("Dallas", "TX", 75201, 75398), ("San Antonio", "TX", 78201, 78299),
    ("Oklahoma City", "OK", 73101, 73199), ("Omaha", "NE", 68101, 68199),
    ("Kansas City", "MO", 64101, 64199), ("St. Louis", "MO", 63101, 63199),
    ("Minneapolis", "MN", 55401, 55488), ("Milwaukee", "WI", 53201, 53299),
    ("Chicago", "IL", 60601, 60661), ("Indianapolis", "IN", 46201, 46299),
    ("Detroit", "MI", 48201, 48299), ("Columbus", "OH", 43201, 43299),
    ("Cleveland", "OH", 44101, 44199), ("Louisville", "KY", 40201, 40299),
    ("Nashville", "TN", 37201, 37250), ("Atlanta", "GA", 30301, 30399),
    ("Charlotte", "NC", 28201, 28299), ("Raleigh", "NC", 27601, 27699),
    ("Richmond", "VA", 23219, 23298), ("Washington", "DC", 20001, 20099),
    ("Baltimore", "MD", 21201, 21299), ("Philadelphia", "PA", 19101, 19155),
    ("Pittsburgh", "PA", 15201, 15295), ("New York", "NY", 10001, 10099),
    ("Brooklyn", "NY", 11201, 11256), ("Boston", "MA", 2108, 2137),
    ("Providence", "RI", 2901, 2940), ("Hartford", "CT", 6101, 6199),
    ("Miami", "FL", 33101, 33199), ("Tampa", "FL", 33601, 33694),
    ("Orlando", "FL", 32801, 32899), ("New Orleans", "LA", 70112, 70199),
]

_STREETS = [
    "Alder Way", "Aspen Court", "Bayview Road", "Birch Avenue", "Chestnut Street", "Clover Lane",
    "Cypress Drive", "Dogwood Terrace", "Foxglove Road", "Glenwood Avenue", "Harbor Street",
    "Heather Lane", "Juniper Drive", "Kingsley Road", "Larkspur Court", "Magnolia Avenue",
    "Meadowbrook Drive", "Mill Street", "Northgate Boulevard", "Orchard Road", "Pinecrest Lane",
    "Quarry Road", "Redwood Street", "Riverside Drive", "Rosemary Lane", "Sycamore Avenue",
    "Tamarack Way", "Union Street", "Valley View Road", "Willow Bend", "Windmill Lane",
    "Woodland Avenue",
]

_CARD_BRANDS = ["visa", "mastercard", "amex", "discover"]
_CARD_BRAND_WEIGHTS = [40, 35, 15, 10]
_PM_COUNT_WEIGHTS = [67, 27, 5, 1]            # users with 1, 2, 3, 4 payment methods
_SOURCES = ["credit_card", "paypal", "gift_card"]


# --------------------------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------------------------


class _Ids:
    """Globally unique digit strings (first digit never 0) drawn from one rng."""

    def __init__(self, rng: random.Random) -> None:
        self._rng = rng
        self._used: set[str] = set()

    def digits(self, n: int) -> str:
        while True:
            s = str(self._rng.randrange(10 ** (n - 1), 10**n))
            if s not in self._used:
                self._used.add(s)
                return s


def _address(rng: random.Random) -> dict[str, str]:
    city, state, zlo, zhi = rng.choice(_CITIES)
    r = rng.random()
    if r < 0.2:
        address2 = ""
    elif r < 0.75:
        address2 = f"Suite {rng.randrange(100, 1000)}"
    else:
        address2 = f"Apt {rng.randrange(1, 60)}"
    return {
        "address1": f"{rng.randrange(10, 1000)} {rng.choice(_STREETS)}",
        "address2": address2,
        "city": city,
        "country": "USA",
        "state": state,
        "zip": f"{rng.randrange(zlo, zhi + 1):05d}",
    }


def _gift_card_balance(rng: random.Random) -> float:
    r = rng.random()
    if r < 0.45:          # small: below nearly every order total
        value = rng.randrange(0, 100)
    elif r < 0.85:        # medium: covers some orders, not others
        value = rng.randrange(100, 1000)
    else:                 # large: covers most orders
        value = rng.randrange(1000, 4000)
    if rng.random() < 0.5:
        return float(value)
    return round(value + rng.randrange(0, 100) / 100, 2)


def _products(rng: random.Random, ids: _Ids) -> dict[str, Any]:
    products: dict[str, Any] = {}
    for name, option_space, (lo, hi) in rng.sample(_CATALOGUE, N_PRODUCTS):
        keys = list(option_space)
        combos = list(itertools.product(*(option_space[k] for k in keys)))
        n = min(5 + round(15 * rng.betavariate(1.7, 1.8)), len(combos))  # 5..20, mean ~12
        chosen = rng.sample(combos, n)
        available = [rng.random() < _AVAILABLE_SHARE for _ in range(n)]
        short = _MIN_AVAILABLE - sum(available)
        if short > 0:
            off = [i for i, a in enumerate(available) if not a]
            for i in rng.sample(off, short):
                available[i] = True
        base = rng.uniform(lo, hi)
        product_id = ids.digits(10)
        variants: dict[str, Any] = {}
        for combo, avail in zip(chosen, available):
            item_id = ids.digits(10)
            variants[item_id] = {
                "item_id": item_id,
                "options": dict(zip(keys, combo)),
                "available": avail,
                "price": round(base * rng.uniform(0.88, 1.14), 2),
            }
        products[product_id] = {"name": name, "product_id": product_id, "variants": variants}
    return products


def _users(rng: random.Random, ids: _Ids) -> dict[str, Any]:
    users: dict[str, Any] = {}
    emails: set[str] = set()
    name_zip: set[tuple[str, str, str]] = set()
    while len(users) < N_USERS:
        first = rng.choice(_FIRST_NAMES)
        last = rng.choice(_LAST_NAMES)
        user_id = f"{first.lower()}_{last.lower()}_{rng.randrange(1000, 10000)}"
        email = f"{first.lower()}.{last.lower()}{rng.randrange(1000, 10000)}@example.com"
        address = _address(rng)
        key = (first.lower(), last.lower(), address["zip"])
        if user_id in users or email.lower() in emails or key in name_zip:
            continue
        emails.add(email.lower())
        name_zip.add(key)
        n_pm = rng.choices(range(1, 5), weights=_PM_COUNT_WEIGHTS)[0]
        methods: dict[str, Any] = {}
        for source in rng.sample(_SOURCES * 2, n_pm):
            pm_id = f"{source}_{ids.digits(7)}"
            if source == "credit_card":
                pm = {"source": source, "id": pm_id,
                      "brand": rng.choices(_CARD_BRANDS, weights=_CARD_BRAND_WEIGHTS)[0],
                      "last_four": f"{rng.randrange(10000):04d}"}
            elif source == "paypal":
                pm = {"source": source, "id": pm_id}
            else:
                pm = {"source": source, "id": pm_id, "balance": _gift_card_balance(rng)}
            methods[pm_id] = pm
        users[user_id] = {
            "user_id": user_id,
            "name": {"first_name": first, "last_name": last},
            "address": address,
            "email": email,
            "payment_methods": methods,
            "orders": [],
        }
    return users


def _order_items(rng: random.Random, products: list[dict[str, Any]]) -> list[dict[str, Any]]:
    n = rng.randint(1, 5)
    picked: list[tuple[dict[str, Any], dict[str, Any]]] = []
    seen: set[str] = set()
    while len(picked) < n:
        product = rng.choice(products)
        variant = rng.choice(list(product["variants"].values()))
        if variant["item_id"] in seen:
            continue
        seen.add(variant["item_id"])
        picked.append((product, variant))
    if n >= 2 and rng.random() < _DUPLICATE_ITEM_RATE:
        # the same item bought twice: replace one line by a copy of another
        src, dst = rng.sample(range(n), 2)
        picked[dst] = picked[src]
    return [
        {"name": p["name"], "product_id": p["product_id"], "item_id": v["item_id"],
         "price": v["price"], "options": dict(v["options"])}
        for p, v in picked
    ]


def _orders(rng: random.Random, ids: _Ids, users: dict[str, Any],
            products: dict[str, Any]) -> dict[str, Any]:
    user_ids = list(users)
    n_without = rng.randint(55, 65)
    buyers = rng.sample(user_ids, N_USERS - n_without)
    # every buyer gets one order; the rest go to buyers with over-dispersed weights
    weights = [rng.gammavariate(3.0, 1.0) for _ in buyers]
    extra = rng.choices(range(len(buyers)), weights=weights, k=N_ORDERS - len(buyers))
    owners = list(buyers) + [buyers[i] for i in extra]
    rng.shuffle(owners)
    statuses = [s for s, k in STATUS_COUNTS for _ in range(k)]
    rng.shuffle(statuses)

    product_list = list(products.values())
    orders: dict[str, Any] = {}
    for user_id, status in zip(owners, statuses):
        user = users[user_id]
        order_id = f"#W{ids.digits(7)}"
        items = _order_items(rng, product_list)
        if rng.random() < _OTHER_ADDRESS_RATE:
            address = _address(rng)
        else:
            address = dict(user["address"])
        fulfillments = []
        if status != "pending":
            fulfillments.append({"tracking_id": [ids.digits(12)],
                                 "item_ids": [it["item_id"] for it in items]})
        total = 0.0
        for it in items:
            total += it["price"]
        amount = round(total, 2)
        pm_id = rng.choice(list(user["payment_methods"]))
        history = [{"transaction_type": "payment", "amount": amount, "payment_method_id": pm_id}]
        if status == "cancelled":
            history.append({"transaction_type": "refund", "amount": amount,
                            "payment_method_id": pm_id})
        orders[order_id] = {
            "order_id": order_id,
            "user_id": user_id,
            "address": address,
            "items": items,
            "status": status,
            "fulfillments": fulfillments,
            "payment_history": history,
        }
        user["orders"].append(order_id)
    return orders


# --------------------------------------------------------------------------------------------
# Entry point
# --------------------------------------------------------------------------------------------


def generate(seed: int) -> dict[str, Any]:
    """Return a fresh synthetic retail database (tau2 ``db.json`` structure) for ``seed``."""
    rng = random.Random(int(seed))
    ids = _Ids(rng)
    products = _products(rng, ids)
    users = _users(rng, ids)
    orders = _orders(rng, ids, users, products)
    return {"products": products, "users": users, "orders": orders}
