"""Seeded synthetic data of the retail chain domain.

``generate(seed)`` returns the native data: ``{table: [row dict, ...]}`` with every column
of ``schema.sql``, in rowid order (what ``io.export`` gives back after ``io.load``). All
draws come from ``numpy.random.default_rng(seed)`` in a fixed order; the clock is the fixed
``TODAY`` of :mod:`.tools`.

Twenty stores (two of them closed for renovation) with about ten employees each (two
managers, two supervisors, associates, some part-time or on leave); sixty products from
eight suppliers, each store carrying most of them at the base price or a markdown (with its
price history); stock transfers between stores, purchase orders, last week's, this week's
and next week's shifts, and customers' store-pickup orders whose items are reserved.
"""

from __future__ import annotations

from datetime import date, timedelta

from tool_gym.core.draws import RngDraws

from .tools import MAX_WEEKLY_HOURS, TODAY, minutes, money

_TODAY = date.fromisoformat(TODAY)
#: Monday of this week (the clock's day is a Monday).
WEEK = _TODAY - timedelta(days=_TODAY.weekday())

#: (name, city, region) of the stores.
STORES = (
    ("Northgate", "Seattle", "West"), ("Pearl District", "Portland", "West"),
    ("Mission Bay", "San Francisco", "West"), ("Silver Lake", "Los Angeles", "West"),
    ("Cherry Creek", "Denver", "West"), ("Tempe Marketplace", "Phoenix", "West"),
    ("Lincoln Park", "Chicago", "Midwest"), ("Uptown", "Minneapolis", "Midwest"),
    ("Short North", "Columbus", "Midwest"), ("Westport", "Kansas City", "Midwest"),
    ("Midtown", "Atlanta", "South"), ("South Congress", "Austin", "South"),
    ("Houston Heights", "Houston", "South"), ("Music Row", "Nashville", "South"),
    ("Wynwood", "Miami", "South"), ("Back Bay", "Boston", "Northeast"),
    ("Park Slope", "Brooklyn", "Northeast"), ("Fishtown", "Philadelphia", "Northeast"),
    ("Capitol Hill", "Washington", "Northeast"), ("Lawrenceville", "Pittsburgh", "Northeast"),
)
#: (name, lead time in days) of the suppliers.
SUPPLIERS = (("Acme Tools Supply", 5), ("HomeGoods Wholesale", 7), ("Brightline Electronics", 10),
             ("Greenleaf Outdoor", 6), ("Kitchen Pro Distributors", 4), ("PlayWorld Toys", 12),
             ("Summit Sports", 8), ("Evergreen Home", 9))
#: (name, brand, category, base price, case size, supplier index) of the products.
PRODUCTS = (
    ("Cordless Drill Kit", "Voltmaster", "tools", 129.99, 4, 0),
    ("Impact Driver", "Voltmaster", "tools", 149.0, 4, 0),
    ("Claw Hammer", "Ironhand", "tools", 24.5, 12, 0),
    ("Socket Wrench Set", "Ironhand", "tools", 59.99, 6, 0),
    ("Laser Level", "Truline", "tools", 79.0, 6, 0),
    ("Stud Finder", "Truline", "tools", 29.99, 12, 0),
    ("Tape Measure", "Ironhand", "tools", 14.99, 24, 0),
    ("Utility Knife", "Ironhand", "tools", 9.99, 24, 0),
    ("Shop Vacuum", "Cleanforce", "tools", 119.0, 2, 0),
    ("Throw Blanket", "Cozynest", "home", 34.99, 12, 1),
    ("Memory Foam Pillow", "Cozynest", "home", 39.99, 12, 1),
    ("Bath Towel Set", "Cozynest", "home", 44.5, 8, 1),
    ("Table Lamp", "Lumora", "home", 54.0, 6, 7),
    ("Floor Lamp", "Lumora", "home", 89.99, 4, 7),
    ("Wall Mirror", "Evergreen", "home", 74.99, 4, 7),
    ("Storage Bins", "Evergreen", "home", 19.99, 12, 1),
    ("Area Rug", "Evergreen", "home", 129.0, 2, 7),
    ("Curtain Panels", "Cozynest", "home", 27.99, 12, 1),
    ("Wireless Earbuds", "Sonique", "electronics", 79.99, 10, 2),
    ("Bluetooth Speaker", "Sonique", "electronics", 59.0, 8, 2),
    ("Smart Plug", "Homelink", "electronics", 19.99, 24, 2),
    ("Video Doorbell", "Homelink", "electronics", 149.99, 4, 2),
    ("Portable Charger", "Voltcell", "electronics", 34.99, 20, 2),
    ("Noise Cancelling Headphones", "Sonique", "electronics", 199.0, 4, 2),
    ("Streaming Stick", "Homelink", "electronics", 49.99, 10, 2),
    ("Desk Fan", "Breezeway", "electronics", 29.0, 6, 2),
    ("Garden Hose", "Greenleaf", "outdoor", 32.99, 6, 3),
    ("Pruning Shears", "Greenleaf", "outdoor", 21.5, 12, 3),
    ("Patio Chair", "Sunhaven", "outdoor", 69.0, 4, 3),
    ("Propane Grill", "Emberline", "outdoor", 349.0, 1, 3),
    ("Camping Tent", "Trailhead", "outdoor", 159.99, 2, 6),
    ("Cooler Box", "Trailhead", "outdoor", 64.99, 4, 6),
    ("Solar Path Lights", "Sunhaven", "outdoor", 39.99, 8, 3),
    ("Bird Feeder", "Greenleaf", "outdoor", 18.99, 12, 3),
    ("Chef Knife", "Kitchen Pro", "kitchen", 49.99, 6, 4),
    ("Cast Iron Skillet", "Kitchen Pro", "kitchen", 39.0, 6, 4),
    ("Stand Mixer", "Whiskwell", "kitchen", 279.0, 2, 4),
    ("Air Fryer", "Whiskwell", "kitchen", 99.99, 4, 4),
    ("Coffee Maker", "Brewhaus", "kitchen", 69.99, 4, 4),
    ("Electric Kettle", "Brewhaus", "kitchen", 34.5, 6, 4),
    ("Cutting Board", "Kitchen Pro", "kitchen", 22.99, 12, 4),
    ("Nonstick Pan Set", "Whiskwell", "kitchen", 119.0, 2, 4),
    ("Blender", "Whiskwell", "kitchen", 89.0, 4, 4),
    ("Building Blocks Set", "PlayWorld", "toys", 49.99, 6, 5),
    ("Remote Control Car", "PlayWorld", "toys", 59.99, 6, 5),
    ("Puzzle Box", "Brainy", "toys", 19.99, 12, 5),
    ("Plush Bear", "Cuddlies", "toys", 24.99, 12, 5),
    ("Board Game Classic", "Brainy", "toys", 29.99, 8, 5),
    ("Art Supply Kit", "Brainy", "toys", 34.99, 8, 5),
    ("Yoga Mat", "Summit", "sports", 29.99, 10, 6),
    ("Dumbbell Pair", "Summit", "sports", 44.99, 4, 6),
    ("Basketball", "Summit", "sports", 27.5, 6, 6),
    ("Water Bottle", "Trailhead", "sports", 17.99, 24, 6),
    ("Hiking Backpack", "Trailhead", "sports", 89.99, 4, 6),
    ("Resistance Bands", "Summit", "sports", 19.99, 12, 6),
    ("Tennis Racket", "Summit", "sports", 79.0, 4, 6),
    ("Jump Rope", "Summit", "sports", 12.99, 24, 6),
    ("Bike Helmet", "Trailhead", "sports", 49.0, 6, 6),
    ("Soccer Ball", "Summit", "sports", 24.0, 6, 6),
    ("Foam Roller", "Summit", "sports", 26.99, 8, 6),
)
FIRST = ("Ava Liam Noah Emma Olivia Mia Lucas Ethan Sofia Amelia Harper Mason Logan Ella "
         "Chloe Jack Aiden Zoe Nora Leo Grace Owen Layla Ruby Henry Isla Caleb Hazel Ezra "
         "Piper Kai Luna Miles Aria Jonah Iris Felix Naomi Theo Stella Omar Aisha Wei Mei "
         "Carlos Lucia Raj Priya Ahmed Fatima Hiroshi Yuki Ivan Olga Kwame Amara Diego Ines "
         "Mateo Leila").split()
LAST = ("Smith Johnson Brown Garcia Miller Davis Rodriguez Martinez Lopez Wilson Anderson "
        "Taylor Moore Jackson Martin Lee Perez Thompson White Harris Clark Lewis Walker Young "
        "Allen King Wright Scott Torres Nguyen Hill Flores Green Adams Baker Hall Rivera "
        "Campbell Carter Roberts Patel Kim Chen Okafor Novak Schmidt Rossi Tanaka Haddad "
        "Silva Costa Dubois Larsen Kowalski Murphy Quinn Reyes Ward Fox Stone").split()
TABLES = ("stores", "employees", "suppliers", "products", "inventory", "price_changes",
          "transfers", "purchase_orders", "shifts", "pickup_orders", "pickup_items")


def _day(offset: int) -> str:
    """The day ``offset`` days from today (negative: in the past)."""
    return (_TODAY + timedelta(days=int(offset))).isoformat()


def _clock(total: int) -> str:
    return f"{total // 60:02d}:{total % 60:02d}"


class _Draw(RngDraws):
    """The shared draws, and the times of this domain's records."""

    def stamp(self, offset: int) -> str:
        """A working-hours time of the day ``offset`` days from today (never after the
        clock's 10:00 today)."""
        hour = self.int(7, 9) if offset == 0 else self.int(7, 19)
        return f"{_day(offset)}T{hour:02d}:{self.int(0, 59):02d}:00"


class _Chain:
    """The tables being drawn, table by table in a fixed order."""

    def __init__(self, seed: int) -> None:
        self.d = _Draw(seed)
        self.data: dict[str, list[dict]] = {t: [] for t in TABLES}

    def draw(self) -> dict[str, list[dict]]:
        for step in (self.stores, self.employees, self.catalogue, self.stock, self.pickups,
                     self.finish_stock, self.transfers, self.purchase_orders, self.shifts):
            step()
        return self.data

    def stores(self) -> None:
        d = self.d
        closed = set(d.sample(range(len(STORES)), 2))
        for i, (name, city, region) in enumerate(STORES):
            self.data["stores"].append({
                "store_id": d.token("str"), "name": name, "city": city, "region": region,
                "status": "closed" if i in closed else "open",
                "opened_on": _day(-d.int(400, 5000))})
        self.open = [s["store_id"] for s in self.data["stores"] if s["status"] == "open"]

    def employees(self) -> None:
        d = self.d
        names, users, emails = set(), set(), set()
        for store in self.data["stores"]:
            roles = ["manager"] * 2 + ["supervisor"] * 2 + ["associate"] * d.int(5, 7)
            for role in roles:
                while True:
                    first, last = d.pick(FIRST), d.pick(LAST)
                    if (first, last) not in names:
                        names.add((first, last))
                        break
                while True:
                    username = f"{first[0]}{last}{d.int(1, 99)}".lower()
                    if username not in users:
                        users.add(username)
                        break
                email = f"{first}.{last}@northwind-stores.com".lower()
                assert email not in emails
                emails.add(email)
                part = role == "associate" and d.chance(0.4)
                self.data["employees"].append({
                    "employee_id": d.token("emp"), "first_name": first, "last_name": last,
                    "email": email, "username": username, "store_id": store["store_id"],
                    "role": role, "employment_type": "part_time" if part else "full_time",
                    "status": "on_leave" if d.chance(0.05) else "active",
                    "hired_on": _day(-d.int(60, 4000))})
        self.managers = {}
        for e in self.data["employees"]:
            if e["role"] == "manager":
                self.managers.setdefault(e["store_id"], []).append(e["employee_id"])
        self.staff = {}
        for e in self.data["employees"]:
            self.staff.setdefault(e["store_id"], []).append(e["employee_id"])

    def catalogue(self) -> None:
        d = self.d
        for name, lead in SUPPLIERS:
            slug = name.lower().replace(" ", "")
            self.data["suppliers"].append({"supplier_id": d.token("sup"), "name": name,
                                           "lead_time_days": lead,
                                           "email": f"orders@{slug}.example.com"})
        suppliers = [s["supplier_id"] for s in self.data["suppliers"]]
        skus = set()
        for name, brand, category, price, case, supplier in PRODUCTS:
            while True:
                sku = f"SKU-{d.int(100000, 999999)}"
                if sku not in skus:
                    skus.add(sku)
                    break
            self.data["products"].append({
                "product_id": d.token("prd"), "sku": sku, "name": name, "brand": brand,
                "category": category, "supplier_id": suppliers[supplier], "base_price": price,
                "unit_cost": money(price * d.int(45, 62) / 100), "case_size": case,
                "status": "discontinued" if d.chance(0.08) else "active"})
        self.products = {p["product_id"]: p for p in self.data["products"]}

    def stock(self) -> None:
        d = self.d
        self.inventory: dict[tuple[str, str], dict] = {}
        ids = list(self.products)
        for store in self.data["stores"]:
            sid = store["store_id"]
            for pid in sorted(d.sample(ids, d.int(40, 52)), key=ids.index):
                base = self.products[pid]["base_price"]
                price = base if d.chance(0.8) else money(base * d.int(80, 95) / 100)
                point = d.int(2, 8) * 5
                on_hand = d.int(0, point) if d.chance(0.2) else d.int(point, 260)
                row = {"store_id": sid, "product_id": pid, "on_hand": on_hand, "reserved": 0,
                       "reorder_point": point, "price": price}
                self.inventory[(sid, pid)] = row
                if price != base:
                    self.data["price_changes"].append({
                        "change_id": d.token("chg"), "store_id": sid, "product_id": pid,
                        "old_price": base, "new_price": price,
                        "changed_by": d.pick(self.managers[sid]),
                        "changed_at": d.stamp(-d.int(3, 120))})
        self.data["price_changes"].sort(key=lambda r: (r["changed_at"], r["change_id"]))

    def pickups(self) -> None:
        d = self.d
        orders = []
        for sid in self.open:
            carried = [pid for (s, pid) in self.inventory if s == sid
                       and self.products[pid]["status"] == "active"]
            for _ in range(d.int(6, 12)):
                roll = d.rng.random()
                status = ("pending" if roll < 0.3 else "ready" if roll < 0.6 else
                          "picked_up" if roll < 0.9 else "cancelled")
                age = d.int(0, 2) if status in ("pending", "ready") else d.int(3, 40)
                order = {"order_id": d.token("pko"), "store_id": sid,
                         "customer_name": f"{d.pick(FIRST)} {d.pick(LAST)}",
                         "customer_phone": f"+1-555-{d.int(200, 999)}-{d.int(0, 9999):04d}",
                         "status": status, "created_at": d.stamp(-age),
                         "pickup_by": _day(3 - age)}
                orders.append(order)
                for pid in d.sample(carried, d.int(1, 3)):
                    item = self.inventory[(sid, pid)]
                    quantity = d.int(1, 3)
                    self.data["pickup_items"].append({
                        "order_id": order["order_id"], "product_id": pid, "quantity": quantity,
                        "unit_price": item["price"]})
                    if status in ("pending", "ready"):
                        item["reserved"] += quantity
        orders.sort(key=lambda o: (o["created_at"], o["order_id"]))
        position = {o["order_id"]: i for i, o in enumerate(orders)}
        self.data["pickup_orders"] = orders
        self.data["pickup_items"].sort(key=lambda i: (position[i["order_id"]], i["product_id"]))

    def finish_stock(self) -> None:
        for row in self.inventory.values():
            row["on_hand"] = max(row["on_hand"], row["reserved"])
        self.data["inventory"] = list(self.inventory.values())

    def transfers(self) -> None:
        d = self.d
        rows = []
        for sid in self.open:
            for _ in range(d.int(2, 5)):
                source = d.pick([s for s in self.open if s != sid])
                shared = [pid for (s, pid) in self.inventory if s == source
                          and (sid, pid) in self.inventory]
                pid = d.pick(shared)
                roll = d.rng.random()
                status = ("requested" if roll < 0.25 else "in_transit" if roll < 0.55 else
                          "received" if roll < 0.9 else "cancelled")
                age = d.int(1, 6) if status in ("requested", "in_transit") else d.int(7, 60)
                created = d.stamp(-age)
                rows.append({"transfer_id": d.token("trf"), "product_id": pid,
                             "from_store_id": source, "to_store_id": sid,
                             "quantity": d.int(1, 8) * 5, "status": status,
                             "requested_by": d.pick(self.staff[sid]), "created_at": created,
                             "updated_at": created if status == "requested"
                             else d.stamp(-d.int(0, age - 1))})
        rows.sort(key=lambda r: (r["created_at"], r["transfer_id"]))
        self.data["transfers"] = rows

    def purchase_orders(self) -> None:
        d = self.d
        rows = []
        suppliers = {s["supplier_id"]: s for s in self.data["suppliers"]}
        for sid in self.open:
            carried = [pid for (s, pid) in self.inventory if s == sid
                       and self.products[pid]["status"] == "active"]
            for pid in d.sample(carried, d.int(3, 6)):
                product = self.products[pid]
                lead = suppliers[product["supplier_id"]]["lead_time_days"]
                roll = d.rng.random()
                status = "submitted" if roll < 0.5 else "received" if roll < 0.85 else "cancelled"
                age = d.int(0, lead - 1) if status == "submitted" else d.int(lead, 90)
                cases = max(1, min(d.int(1, 6), int(4000 // (product["unit_cost"] *
                                                              product["case_size"]))))
                rows.append({"po_id": d.token("po"), "store_id": sid,
                             "supplier_id": product["supplier_id"], "product_id": pid,
                             "quantity": cases * product["case_size"],
                             "unit_cost": product["unit_cost"], "status": status,
                             "created_by": d.pick(self.managers[sid]),
                             "created_at": d.stamp(-age), "expected_on": _day(lead - age)})
        rows.sort(key=lambda r: (r["created_at"], r["po_id"]))
        self.data["purchase_orders"] = rows

    def shifts(self) -> None:
        d = self.d
        rows = []
        for e in self.data["employees"]:
            if e["status"] != "active" or e["store_id"] not in self.open:
                continue
            full = e["employment_type"] == "full_time"
            for week in (-1, 0, 1):
                monday = WEEK + timedelta(days=7 * week)
                days = sorted(d.sample(range(7), d.int(4, 5) if full else d.int(2, 3)))
                budget = MAX_WEEKLY_HOURS[e["employment_type"]] * 60 - d.int(0, 4) * 60
                for day in days:
                    length = min(d.int(8, 16) * 30 if full else d.int(8, 12) * 30, budget)
                    if length < 240:
                        break
                    budget -= length
                    start = d.int(12, 26) * 30  # 06:00 to 13:00
                    when = monday + timedelta(days=day)
                    rows.append({"shift_id": d.token("shf"), "employee_id": e["employee_id"],
                                 "store_id": e["store_id"], "date": when.isoformat(),
                                 "start_time": _clock(start), "end_time": _clock(start + length),
                                 "status": "completed" if when < _TODAY else
                                 "cancelled" if d.chance(0.04) else "scheduled"})
        rows.sort(key=lambda r: (r["date"], r["start_time"], r["shift_id"]))
        self.data["shifts"] = rows
        assert all(minutes(r["end_time"]) - minutes(r["start_time"]) >= 240 for r in rows)


def generate(seed: int) -> dict[str, list[dict]]:
    """The native data of a store chain made from ``seed``."""
    return _Chain(seed).draw()
