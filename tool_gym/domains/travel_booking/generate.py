"""Seeded synthetic data of the travel booking domain.

``generate(seed)`` returns the native data: ``{table: [row dict, ...]}`` in the column order
of ``schema.sql`` and in rowid order, exactly what :func:`..io.export` gives back after
:func:`..io.load`. Everything comes from ``numpy.random.default_rng(seed)``; the agency's
clock is the fixed ``TODAY`` of :mod:`.tools`, so the same seed always gives the same data.

Ten destination cities, each with six hotels (three room types each), nine car offers and
six activities. About 200 customers, each with their own traveller profile and up to four
companions, and one to four trips: completed ones (bookings completed, points earned),
cancelled ones, trips in progress and planned ones with hotel stays, car rentals and
activities that fit the inventory; some bookings have points redeemed on them.
"""

from __future__ import annotations

import string
from datetime import date, timedelta

import numpy as np

from .tools import MAX_ROOMS, MAX_TRAVELERS, TODAY, money

N_CUSTOMERS = 200
_TODAY = date.fromisoformat(TODAY)
TABLES = ("customers", "travelers", "hotels", "room_types", "cars", "activities", "trips",
          "trip_travelers", "bookings", "points_ledger")

#: (city, price factor)
CITIES = (("Lisbon", 0.9), ("Rome", 1.1), ("Barcelona", 1.0), ("Kyoto", 1.2),
          ("Reykjavik", 1.4), ("Vancouver", 1.15), ("Cape Town", 0.8), ("Prague", 0.85),
          ("Cancun", 1.0), ("Sydney", 1.25))
HOTEL_PREFIXES = ("Grand", "Harbor View", "Old Town", "Riverside", "Skyline", "Garden",
                  "Royal", "Central", "Boutique", "Seaside", "Park", "Plaza")
HOTEL_SUFFIXES = ("Hotel", "Inn", "Suites", "Resort", "Lodge", "House")
STREETS = ("Main", "Market", "Harbor", "Church", "Station", "Park", "Castle", "River", "King",
           "Queen", "Garden", "Bridge")
#: (room name, capacity, price factor)
ROOMS = (("Standard Double", 2, 1.0), ("Twin Room", 2, 1.0), ("Deluxe King", 2, 1.4),
         ("Junior Suite", 3, 1.9), ("Family Room", 4, 1.7), ("Executive Suite", 4, 2.6))
STAR_RATES = {2: 70, 3: 110, 4: 170, 5: 280}
COMPANIES = ("Hertz", "Avis", "Europcar", "Sixt", "Enterprise", "Budget")
#: (class, model, seats, daily rate)
CAR_CLASSES = (("economy", "Fiat 500 or similar", 4, 32), ("compact", "VW Golf or similar", 5, 41),
               ("midsize", "Toyota Camry or similar", 5, 55),
               ("suv", "Nissan X-Trail or similar", 7, 78),
               ("van", "Mercedes Vito or similar", 8, 96),
               ("luxury", "BMW 5 Series or similar", 5, 135))
#: (name template, category, start time, hours, lowest and highest price per person)
ACTIVITIES = (("{} Old Town Walking Tour", "tour", "10:00", 3.0, 25, 45),
              ("{} Street Food Tour", "food", "18:00", 3.0, 55, 95),
              ("{} Sunset Cruise", "cruise", "19:00", 2.0, 45, 90),
              ("{} Cooking Class", "class", "16:00", 3.5, 70, 120),
              ("{} Bike Tour", "outdoor", "09:00", 4.0, 35, 60),
              ("{} Museum Highlights Tour", "culture", "11:00", 2.5, 30, 55),
              ("{} Countryside Day Hike", "outdoor", "08:00", 7.0, 60, 110),
              ("{} Wine Tasting Evening", "food", "17:30", 2.0, 50, 85),
              ("{} Photography Walk", "class", "07:30", 2.5, 40, 70),
              ("{} Night Ghost Tour", "tour", "21:00", 1.5, 20, 35))
TRIP_NAMES = ("{} Getaway", "{} Adventure", "Family Trip to {}", "{} Long Weekend",
              "Business Trip to {}", "{} Vacation", "Spring in {}", "{} with Friends")

FIRST = ("James Mary Robert Patricia John Jennifer Michael Linda David Elizabeth William "
         "Barbara Richard Susan Joseph Jessica Thomas Sarah Charles Karen Daniel Lisa Matthew "
         "Nancy Anthony Betty Mark Sandra Donald Ashley Steven Emily Paul Donna Andrew Michelle "
         "Joshua Carol Kevin Amanda Brian Melissa George Deborah Omar Aisha Wei Mei Carlos "
         "Lucia Raj Priya Ahmed Fatima Hiroshi Yuki Ivan Olga Kwame Amara").split()
CHILDREN = ("Emma Liam Olivia Noah Ava Lucas Mia Leo Zoe Ethan Chloe Mateo Lily Oscar Nora "
            "Hugo Isla Felix Ruby Max").split()
LAST = ("Smith Johnson Williams Brown Jones Garcia Miller Davis Rodriguez Martinez Hernandez "
        "Lopez Gonzalez Wilson Anderson Thomas Taylor Moore Jackson Martin Lee Perez Thompson "
        "White Harris Sanchez Clark Ramirez Lewis Robinson Walker Young Allen King Wright Scott "
        "Torres Nguyen Hill Flores Green Adams Nelson Baker Hall Rivera Campbell Mitchell "
        "Carter Roberts Patel Kim Chen Okafor Novak Schmidt Rossi Tanaka Haddad").split()
HOME_CITIES = ("Austin", "Denver", "Seattle", "Portland", "Chicago", "Boston", "Atlanta",
               "Phoenix", "Columbus", "Raleigh", "Madison", "Sacramento", "Pittsburgh", "Tampa")
EMAIL_HOSTS = ("example.com", "mail.com", "inbox.net", "post.org")
TIERS = ("blue", "silver", "gold", "platinum")
_ALNUM = string.ascii_lowercase + string.digits


def _day(offset: int) -> str:
    """The ISO date ``offset`` days after today (negative: before)."""
    return (_TODAY + timedelta(days=int(offset))).isoformat()


def _plus(day: str, days: int) -> str:
    return (date.fromisoformat(day) + timedelta(days=int(days))).isoformat()


def _nights(first: str, last: str) -> list[str]:
    """The days from ``first`` up to, not including, ``last``."""
    days, day = [], first
    while day < last:
        days.append(day)
        day = _plus(day, 1)
    return days


class _Agency:
    """The tables being drawn, the ids and values that must stay unique, and the inventory
    already taken (per room type, car offer and activity, per day)."""

    def __init__(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)
        self.data: dict[str, list[dict]] = {t: [] for t in TABLES}
        self.ids: set[str] = set()
        self.emails: set[str] = set()
        self.usernames: set[str] = set()
        self.taken: dict[tuple[str, str], int] = {}

    def int(self, lo: int, hi: int) -> int:
        """An integer in ``lo..hi`` (both included)."""
        return int(self.rng.integers(lo, hi + 1))

    def pick(self, options):
        return options[int(self.rng.integers(len(options)))]

    def chance(self, p: float) -> bool:
        return bool(self.rng.random() < p)

    def sample(self, options, k: int) -> list:
        return [options[int(i)] for i in self.rng.permutation(len(options))[:k]]

    def token(self, prefix: str, n: int = 8) -> str:
        while True:
            chars = self.rng.integers(len(_ALNUM), size=n - 1)
            text = self.pick(string.ascii_lowercase) + "".join(_ALNUM[int(c)] for c in chars)
            if text not in self.ids:
                self.ids.add(text)
                return f"{prefix}_{text}"

    # ------------------------------------------------------------------ catalogue
    def catalogue(self) -> None:
        for city, factor in CITIES:
            for prefix in self.sample(HOTEL_PREFIXES, 6):
                self.hotel(city, factor, prefix)
            for company in self.sample(COMPANIES, 3):
                for kind, model, seats, rate in sorted(self.sample(CAR_CLASSES, 3)):
                    self.data["cars"].append({
                        "car_id": self.token("car"), "company": company, "city": city,
                        "car_class": kind, "model": model, "seats": seats,
                        "daily_rate": float(round(rate * factor * self.rng.uniform(0.9, 1.15))),
                        "units": self.int(2, 4)})
            for name, category, start, hours, lo, hi in self.sample(ACTIVITIES, 6):
                days = sorted(self.sample("0123456", self.int(3, 6)))
                self.data["activities"].append({
                    "activity_id": self.token("act"), "name": name.format(city), "city": city,
                    "category": category, "start_time": start, "duration_hours": hours,
                    "price_per_person": float(self.int(lo, hi)),
                    "daily_capacity": self.int(8, 20), "weekdays": "".join(days)})

    def hotel(self, city: str, factor: float, prefix: str) -> None:
        stars = self.pick((2, 3, 3, 4, 4, 5))
        hotel_id = self.token("htl")
        self.data["hotels"].append({
            "hotel_id": hotel_id, "name": f"{prefix} {self.pick(HOTEL_SUFFIXES)} {city}",
            "city": city, "stars": stars,
            "address": f"{self.int(1, 240)} {self.pick(STREETS)} Street, {city}",
            "free_cancel_days": self.pick((1, 2, 3, 7))})
        rooms = [ROOMS[0]] + self.sample(ROOMS[1:], 2)
        for name, capacity, scale in rooms:
            self.data["room_types"].append({
                "room_type_id": self.token("rm"), "hotel_id": hotel_id, "name": name,
                "capacity": capacity,
                "nightly_rate": float(round(STAR_RATES[stars] * factor * scale
                                            * self.rng.uniform(0.9, 1.1))),
                "rooms_total": self.int(2, 6)})

    # ------------------------------------------------------------------ inventory
    def free(self, key: str, days: list[str], limit: int, want: int) -> bool:
        return all(self.taken.get((key, d), 0) + want <= limit for d in days)

    def take(self, key: str, days: list[str], want: int) -> None:
        for d in days:
            self.taken[(key, d)] = self.taken.get((key, d), 0) + want


class _Customer:
    """One customer and their rows, drawn in a fixed order."""

    def __init__(self, agency: _Agency) -> None:
        self.a = agency
        self.travelers: list[dict] = []
        self.ledger: list[dict] = []
        self.bookings: list[dict] = []

    def draw(self) -> None:
        self.profile()
        self.companions()
        for city in self.a.sample([c for c, _ in CITIES], self.a.int(1, 4)):
            self.trip(city)
        self.points()

    def profile(self) -> None:
        a = self.a
        first, last = a.pick(FIRST), a.pick(LAST)
        self.customer_id = a.token("cus")
        while True:
            email = f"{first}.{last}{a.int(1, 999)}@{a.pick(EMAIL_HOSTS)}".lower()
            if email not in a.emails:
                a.emails.add(email)
                break
        while True:
            username = f"{first[0]}{last}{a.int(10, 99)}".lower()
            if username not in a.usernames:
                a.usernames.add(username)
                break
        self.member_since = _day(-a.int(200, 3000))
        self.row = {
            "customer_id": self.customer_id, "first_name": first, "last_name": last,
            "email": email, "username": username,
            "phone": f"+1-555-{a.int(200, 999)}-{a.int(0, 9999):04d}",
            "home_city": a.pick(HOME_CITIES), "member_since": self.member_since,
            "loyalty_tier": a.pick(TIERS[:1] * 4 + TIERS[1:2] * 3 + TIERS[2:3] * 2 + TIERS[3:]),
            "points_balance": 0}
        a.data["customers"].append(self.row)
        self.traveler(first, last, date(a.int(1955, 2000), a.int(1, 12), a.int(1, 28)), "self")

    def traveler(self, first: str, last: str, born: date, relation: str) -> None:
        if any((t["first_name"], t["last_name"]) == (first, last) for t in self.travelers):
            return
        row = {"traveler_id": self.a.token("trv"), "customer_id": self.customer_id,
               "first_name": first, "last_name": last, "date_of_birth": born.isoformat(),
               "relation": relation}
        self.travelers.append(row)
        self.a.data["travelers"].append(row)

    def companions(self) -> None:
        a, last = self.a, self.row["last_name"]
        if a.chance(0.6):
            a_last = last if a.chance(0.7) else a.pick(LAST)
            self.traveler(a.pick(FIRST), a_last, date(a.int(1958, 2000), a.int(1, 12),
                                                      a.int(1, 28)),
                          a.pick(("spouse", "spouse", "partner")))
        for _ in range(a.int(0, 3) if a.chance(0.5) else 0):
            self.traveler(a.pick(CHILDREN), last, date(a.int(2008, 2021), a.int(1, 12),
                                                       a.int(1, 28)), "child")
        for _ in range(a.int(0, 2)):
            relation = a.pick(("friend", "friend", "colleague", "parent", "sibling"))
            other = last if relation in ("parent", "sibling") else a.pick(LAST)
            self.traveler(a.pick(FIRST), other, date(a.int(1945, 2002), a.int(1, 12),
                                                     a.int(1, 28)), relation)

    # ---------------------------------------------------------------------- trips
    def trip(self, city: str) -> None:
        a = self.a
        roll = a.rng.random()
        length = a.int(3, 9)
        if roll < 0.33:
            status, start = "completed", _day(-a.int(length + 5, 420))
        elif roll < 0.43:
            status, start = "cancelled", _day(a.int(-200, 120))
        elif roll < 0.55:
            status, start = "in_progress", _day(-a.int(0, min(3, length - 2)))
        elif roll < 0.65:
            status, start = "planned", _day(a.int(1, 3))
        else:
            status, start = "planned", _day(a.int(4, 120))
        end = _plus(start, length - 1)
        created = min(_plus(start, -a.int(7, 150)), TODAY)
        trip_id = a.token("trp")
        a.data["trips"].append({
            "trip_id": trip_id, "customer_id": self.customer_id,
            "name": a.pick(TRIP_NAMES).format(city), "destination_city": city,
            "start_date": start, "end_date": end, "status": status, "created_on": created})
        others = self.travelers[1:]
        party = [self.travelers[0]] + a.sample(others, a.int(0, min(len(others),
                                                                     MAX_TRAVELERS - 1)))
        for t in party:
            a.data["trip_travelers"].append({"trip_id": trip_id, "traveler_id": t["traveler_id"]})
        status_of = {"completed": "completed", "cancelled": "cancelled"}.get(status, "confirmed")
        trip = {"trip_id": trip_id, "city": city, "start": start, "end": end, "party": len(party),
                "booked": created, "status": status_of}
        self.hotel_stays(trip)
        if a.chance(0.45):
            self.car(trip)
        self.activities(trip, status)

    def book(self, trip: dict, kind: str, item_column: str, item: str, first: str, last: str,
             quantity: int, unit: float, units: int) -> dict:
        a = self.a
        status = trip["status"]
        if status == "confirmed" and last < TODAY:  # the first stay of a trip in progress
            status = "completed"
        elif status == "confirmed" and a.chance(0.07):
            status = "cancelled"
        row = {"booking_id": a.token("bk"), "trip_id": trip["trip_id"], "kind": kind,
               "room_type_id": None, "car_id": None, "activity_id": None,
               "start_date": first, "end_date": last, "quantity": quantity,
               "unit_price": unit, "total_price": money(unit * quantity * units),
               "points_redeemed": 0, "status": status, "cancellation_fee": 0.0,
               "booked_on": min(_plus(trip["booked"], a.int(0, 5)), TODAY)}
        row[item_column] = item
        self.bookings.append(row)
        a.data["bookings"].append(row)
        return row

    def hotel_stays(self, trip: dict) -> None:
        a = self.a
        if trip["end"] <= trip["start"] or not a.chance(0.88):
            return
        split = a.chance(0.2) and len(_nights(trip["start"], trip["end"])) >= 4
        cut = _plus(trip["start"], a.int(2, len(_nights(trip["start"], trip["end"])) - 2)) \
            if split else trip["end"]
        for first, last in ((trip["start"], cut), (cut, trip["end"]))[:2 if split else 1]:
            self.hotel_stay(trip, first, last)

    def hotel_stay(self, trip: dict, first: str, last: str) -> None:
        a = self.a
        hotels = [h["hotel_id"] for h in a.data["hotels"] if h["city"] == trip["city"]]
        nights = _nights(first, last)
        options = [r for r in a.data["room_types"] if r["hotel_id"] in hotels]
        for room in a.sample(options, len(options)):
            rooms = -(-trip["party"] // room["capacity"])
            if rooms > MAX_ROOMS:
                continue
            counted = trip["status"] != "cancelled"
            if counted and not a.free(room["room_type_id"], nights, room["rooms_total"], rooms):
                continue
            row = self.book(trip, "hotel", "room_type_id", room["room_type_id"], first, last,
                            rooms, room["nightly_rate"], len(nights))
            if row["status"] != "cancelled":
                a.take(room["room_type_id"], nights, rooms)
            return

    def car(self, trip: dict) -> None:
        a = self.a
        days = _nights(trip["start"], trip["end"])
        if not days:
            return
        options = [c for c in a.data["cars"] if c["city"] == trip["city"]
                   and c["seats"] >= trip["party"]]
        for car in a.sample(options, len(options)):
            if trip["status"] != "cancelled" and not a.free(car["car_id"], days, car["units"], 1):
                continue
            row = self.book(trip, "car", "car_id", car["car_id"], trip["start"], trip["end"], 1,
                            car["daily_rate"], len(days))
            if row["status"] != "cancelled":
                a.take(car["car_id"], days, 1)
            return

    def activities(self, trip: dict, trip_status: str) -> None:
        a = self.a
        options = [x for x in a.data["activities"] if x["city"] == trip["city"]]
        days = _nights(trip["start"], _plus(trip["end"], 1))
        if trip_status == "in_progress":  # something booked for today or tomorrow
            days = [d for d in days if d >= TODAY]
            days = days[:2] + a.sample(days[2:], len(days[2:]))
        else:
            days = a.sample(days, len(days))
        wanted = a.int(1, 3) if trip_status in ("in_progress", "planned") else a.int(0, 2)
        booked = set()
        for day in days:
            if len(booked) >= wanted:
                break
            weekday = str(date.fromisoformat(day).weekday())
            for act in a.sample(options, len(options)):
                if act["activity_id"] in booked or weekday not in act["weekdays"]:
                    continue
                people = trip["party"] if a.chance(0.6) else a.int(1, trip["party"])
                key = act["activity_id"]
                if trip["status"] != "cancelled" and not a.free(key, [day],
                                                                 act["daily_capacity"], people):
                    continue
                row = self.book(trip, "activity", "activity_id", key, day, day, people,
                                act["price_per_person"], 1)
                if row["status"] != "cancelled":
                    a.take(key, [day], people)
                booked.add(key)
                break

    # --------------------------------------------------------------------- points
    def entry(self, booking_id: str | None, kind: str, points: int, day: str) -> None:
        self.ledger.append({"entry_id": self.a.token("pts", 10), "customer_id": self.customer_id,
                            "booking_id": booking_id, "kind": kind, "points": int(points),
                            "posted_on": day})

    def points(self) -> None:
        a = self.a
        self.entry(None, "bonus", a.pick((500, 1000, 1500, 2000)), self.member_since)
        for b in sorted(self.bookings, key=lambda b: b["end_date"]):
            if b["status"] == "completed":
                self.entry(b["booking_id"], "earned", int(b["total_price"]) * 5,
                           _plus(b["end_date"], 1))
        balance = sum(e["points"] for e in self.ledger)
        for b in self.bookings:
            if b["status"] == "confirmed" and b["start_date"] > TODAY and a.chance(0.15):
                most = min(balance, int(b["total_price"] * 100)) // 100
                if most >= 5:
                    points = 100 * a.int(5, most)
                    b["points_redeemed"] = points
                    balance -= points
                    self.entry(b["booking_id"], "redeemed", -points, b["booked_on"])
        self.ledger.sort(key=lambda e: e["posted_on"])
        self.a.data["points_ledger"].extend(self.ledger)
        self.row["points_balance"] = int(balance)


def generate(seed: int) -> dict[str, list[dict]]:
    """The native data of an agency made from ``seed``."""
    agency = _Agency(seed)
    agency.catalogue()
    for _ in range(N_CUSTOMERS):
        _Customer(agency).draw()
    return agency.data
