"""Seeded synthetic data of the maps domain.

``generate(seed)`` returns the native data: ``{table: [row dict, ...]}`` in the column order
of ``schema.sql`` and in rowid order (what :mod:`.io` exports back). Everything is drawn from
``numpy.random.default_rng(seed)`` in a fixed order; the clock is the fixed ``TODAY`` of
:mod:`.tools`.

Six cities of about 55 places each (restaurants, cafes, bars, museums, parks, hotels, shops,
...) with weekly opening hours by category; about 180 users, each with saved lists, reviews
(which make the places' ratings), some trip plans with stops timed within opening hours,
and some reports of wrong place data; one user in eight has claimed a business.
"""

from __future__ import annotations

import string
from datetime import date, timedelta

import numpy as np

from .geo import is_open, weekday
from .tools import TODAY

N_USERS = 180
_TODAY = date.fromisoformat(TODAY)
_ALNUM = string.ascii_lowercase + string.digits

#: city -> (latitude, longitude) of its center
CITIES = {"Austin": (30.2672, -97.7431), "Denver": (39.7392, -104.9903),
          "Seattle": (47.6062, -122.3321), "Boston": (42.3601, -71.0589),
          "Chicago": (41.8781, -87.6298), "Portland": (45.5152, -122.6784)}
STREETS = ("Main St", "Oak Ave", "Pine St", "Lake Blvd", "Market St", "2nd Ave", "Elm St",
           "Park Rd", "River Dr", "Hill St", "Union Ave", "Broadway", "Cedar Ln", "5th St",
           "Washington Ave", "Grand Ave")
ADJECTIVES = ("Blue", "Golden", "Little", "Old", "Green", "Red", "Silver", "Happy", "Quiet",
              "Rustic", "Urban", "Wild", "Copper", "Iron", "Velvet", "Lucky", "Sunny", "Hidden",
              "Crooked", "Bright")
NOUNS = ("Door", "Fox", "Oak", "Harbor", "Lantern", "Sparrow", "Bridge", "Anchor", "Maple",
         "River", "Stone", "Feather", "Pine", "Owl", "Garden", "Bear", "Willow", "Compass",
         "Meadow", "Cedar")
#: category -> (places per city, name patterns)
CATEGORIES = {
    "restaurant": (12, ("{a} {n} Kitchen", "{a} {n} Grill", "The {n} Bistro",
                        "{n} Trattoria", "{a} {n} Noodle House", "{n} Taqueria")),
    "cafe": (8, ("{a} {n} Coffee", "Cafe {n}", "{n} Espresso Bar")),
    "bar": (5, ("The {a} {n}", "{n} Tap Room", "{a} {n} Pub")),
    "museum": (4, ("{c} Museum of Art", "{c} History Museum", "{c} Science Center",
                   "{n} Gallery", "{c} Museum of Photography", "{a} {n} Gallery")),
    "park": (5, ("{n} Park", "{a} {n} Gardens", "{n} Creek Park")),
    "hotel": (4, ("Hotel {n}", "The {a} {n} Inn", "{n} Suites")),
    "supermarket": (3, ("{n} Market", "{a} {n} Grocers", "{n} Fresh Foods")),
    "pharmacy": (3, ("{n} Pharmacy", "{a} {n} Drugstore")),
    "gas_station": (2, ("{n} Fuel", "{a} {n} Gas")),
    "gym": (3, ("{n} Fitness", "{a} {n} Gym", "{n} Athletic Club")),
    "library": (2, ("{n} Branch Library", "{c} Public Library - {n}")),
    "bakery": (4, ("{a} {n} Bakery", "{n} Bread Co", "The {n} Bakehouse")),
}
PRICED = ("restaurant", "cafe", "bar", "hotel", "bakery")
LIST_NAMES = ("Want to Go", "Coffee Spots", "Date Night", "Weekend Ideas", "Kid Friendly",
              "Rainy Day", "Brunch", "Out of Town Guests")
TRIP_KINDS = ("Weekend", "Day Out", "Food Tour", "Museum Day", "Getaway")
REVIEW_TEXTS = {
    1: ("Really disappointing visit.", "Would not go back.", "Rude staff and long waits."),
    2: ("Not great, not terrible.", "Overpriced for what you get.", "Slow service."),
    3: ("Decent but nothing special.", "Okay for a quick stop.", "Fine, a bit crowded."),
    4: ("Really good, will come back.", "Friendly staff and nice atmosphere.",
        "Solid choice in the area."),
    5: ("Absolutely loved it!", "One of the best in town.", "Perfect in every way."),
}
REPORT_DETAILS = {
    "wrong_hours": "The posted hours are out of date.",
    "wrong_phone": "The phone number does not work.",
    "wrong_address": "The entrance is on the next block.",
    "permanently_closed": "The place has closed for good.",
    "duplicate": "This place is listed twice.",
    "other": "The photos show a different business.",
}
TABLES = ("users", "places", "opening_hours", "saved_lists", "saved_places", "reviews",
          "place_reports", "trips", "trip_stops")

FIRST = ("James Mary Robert Patricia John Jennifer Michael Linda David Elizabeth William "
         "Barbara Richard Susan Joseph Jessica Thomas Sarah Charles Karen Daniel Lisa Matthew "
         "Nancy Anthony Betty Mark Sandra Donald Ashley Steven Emily Paul Donna Andrew Michelle "
         "Omar Aisha Wei Mei Carlos Lucia Raj Priya Ahmed Fatima Hiroshi Yuki Ivan Olga Kwame "
         "Amara Nora Felix Ingrid Mateo").split()
LAST = ("Smith Johnson Williams Brown Jones Garcia Miller Davis Rodriguez Martinez Hernandez "
        "Lopez Gonzalez Wilson Anderson Thomas Taylor Moore Jackson Martin Lee Perez Thompson "
        "White Harris Sanchez Clark Ramirez Lewis Robinson Walker Young Allen King Wright Scott "
        "Torres Nguyen Hill Flores Green Adams Nelson Baker Hall Rivera Campbell Mitchell "
        "Patel Kim Chen Okafor Novak Schmidt Rossi Tanaka Haddad Lindqvist").split()
EMAIL_HOSTS = ("example.com", "mail.com", "inbox.net", "post.org")


def _day(offset: int) -> str:
    """``offset`` days after today (negative: before)."""
    return (_TODAY + timedelta(days=offset)).isoformat()


def _clock(quarters: int) -> str:
    """``HH:MM`` of a number of quarter hours after midnight (at most 23:45)."""
    quarters = min(quarters, 95)
    return f"{quarters // 4:02d}:{quarters % 4 * 15:02d}"


class _Maps:
    """The tables being drawn, with the draws they share."""

    def __init__(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)
        self.data: dict[str, list[dict]] = {t: [] for t in TABLES}
        self.used: set[str] = set()
        self.hours: dict[str, dict[int, tuple[str, str]]] = {}
        self.by_city: dict[str, list[dict]] = {c: [] for c in CITIES}
        self.quality: dict[str, float] = {}

    def pick(self, options):
        return options[int(self.rng.integers(len(options)))]

    def chance(self, p: float) -> bool:
        return bool(self.rng.random() < p)

    def between(self, lo: int, hi: int) -> int:
        return int(self.rng.integers(lo, hi + 1))

    def token(self, prefix: str, n: int = 8) -> str:
        """``prefix_`` and a letter, then letters and digits (ids the tools create have
        digits after the prefix, so they never clash)."""
        while True:
            rest = self.rng.integers(0, len(_ALNUM), size=n - 1)
            value = (f"{prefix}_{_ALNUM[int(self.rng.integers(26))]}"
                     + "".join(_ALNUM[int(i)] for i in rest))
            if value not in self.used:
                self.used.add(value)
                return value

    # ------------------------------------------------------------------- places
    def places(self) -> None:
        for city, (lat, lon) in CITIES.items():
            names: set[str] = set()
            for category, (count, patterns) in CATEGORIES.items():
                for _ in range(count):
                    while True:
                        name = self.pick(patterns).format(a=self.pick(ADJECTIVES),
                                                          n=self.pick(NOUNS), c=city)
                        if name not in names:
                            names.add(name)
                            break
                    self.place(city, lat, lon, category, name)

    def place(self, city: str, lat: float, lon: float, category: str, name: str) -> None:
        rng = self.rng
        roll = rng.random()
        status = ("operating" if roll < 0.93 else "temporarily_closed" if roll < 0.97
                  else "permanently_closed")
        row = {"place_id": self.token("plc"), "name": name, "category": category,
               "city": city,
               "address": f"{self.between(10, 4999)} {self.pick(STREETS)}, {city}",
               "lat": round(lat + float(rng.normal(0, 0.03)), 5),
               "lon": round(lon + float(rng.normal(0, 0.04)), 5),
               "phone": f"+1-555-{self.between(200, 999)}-{self.between(0, 9999):04d}",
               "price_level": self.between(1, 4) if category in PRICED else None,
               "status": status, "owner_id": None, "rating": None, "review_count": 0}
        self.data["places"].append(row)
        self.by_city[city].append(row)
        self.quality[row["place_id"]] = float(rng.uniform(2.3, 4.9))
        self.opening_hours(row["place_id"], category)

    def opening_hours(self, place_id: str, category: str) -> None:
        """Weekly hours by category, in quarter hours (each day's span drawn once)."""
        between, chance = self.between, self.chance
        if category == "hotel":
            days = {d: ("00:00", "23:59") for d in range(7)}
        else:
            spans = {  # category -> (open days, (opens lo, hi), (closes lo, hi)) in quarters
                "restaurant": ((1, 2, 3, 4, 5, 6) if chance(0.4) else tuple(range(7)),
                               (44, 48), (84, 92)),
                "cafe": (tuple(range(6)) if chance(0.25) else tuple(range(7)), (26, 32),
                         (60, 76)),
                "bar": (tuple(range(7)) if chance(0.5) else (1, 2, 3, 4, 5, 6), (60, 68),
                        (92, 95)),
                "museum": ((1, 2, 3, 4, 5, 6), (36, 42), (68, 76)),
                "park": (tuple(range(7)), (20, 26), (84, 92)),
                "supermarket": (tuple(range(7)), (28, 32), (84, 92)),
                "pharmacy": (tuple(range(7)), (32, 36), (76, 88)),
                "gas_station": (tuple(range(7)), (20, 24), (88, 95)),
                "gym": (tuple(range(7)), (20, 24), (84, 92)),
                "library": ((0, 1, 2, 3, 4, 5), (36, 40), (68, 80)),
                "bakery": ((1, 2, 3, 4, 5, 6), (24, 30), (52, 64)),
            }[category]
            open_days, (olo, ohi), (clo, chi) = spans
            weekday_span = (_clock(between(olo, ohi)), _clock(between(clo, chi)))
            weekend_span = weekday_span if chance(0.5) else (
                _clock(between(olo, ohi) + 4), _clock(between(clo, chi) - 4))
            days = {d: weekend_span if d >= 5 else weekday_span for d in open_days}
        self.hours[place_id] = days
        for d, (opens, closes) in sorted(days.items()):
            self.data["opening_hours"].append({"place_id": place_id, "weekday": d,
                                               "opens": opens, "closes": closes})

    # -------------------------------------------------------------------- users
    def users(self) -> list[dict]:
        emails: set[str] = set()
        usernames: set[str] = set()
        rows = []
        for _ in range(N_USERS):
            first, last = self.pick(FIRST), self.pick(LAST)
            while True:
                email = f"{first}.{last}{self.between(1, 999)}@{self.pick(EMAIL_HOSTS)}".lower()
                if email not in emails:
                    emails.add(email)
                    break
            while True:
                username = f"{first[0]}{last}{self.between(10, 99)}".lower()
                if username not in usernames:
                    usernames.add(username)
                    break
            rows.append({"user_id": self.token("usr"), "first_name": first, "last_name": last,
                         "email": email, "username": username,
                         "home_city": self.pick(tuple(CITIES)),
                         "member_since": _day(-self.between(30, 2500))})
        self.data["users"] = rows
        return rows

    def local(self, user: dict, k: int, away: float = 0.15) -> list[dict]:
        """``k`` distinct places, mostly of the user's home city."""
        out: dict[str, dict] = {}
        for _ in range(4 * k):
            city = self.pick(tuple(CITIES)) if self.chance(away) else user["home_city"]
            place = self.pick(self.by_city[city])
            out.setdefault(place["place_id"], place)
            if len(out) == k:
                break
        return list(out.values())

    def claim_businesses(self, users: list[dict]) -> None:
        for user in users:
            if self.chance(0.13):
                free = [p for p in self.by_city[user["home_city"]] if p["owner_id"] is None
                        and p["status"] == "operating"]
                self.pick(free)["owner_id"] = user["user_id"]

    def lists(self, user: dict) -> None:
        names = ["Favorites"] + [LIST_NAMES[int(i)] for i in self.rng.permutation(
            len(LIST_NAMES))[:self.between(0, 2)]]
        for name in names:
            list_id = self.token("lst")
            self.data["saved_lists"].append({"list_id": list_id, "user_id": user["user_id"],
                                             "name": name,
                                             "created_on": _day(-self.between(20, 700))})
            for place in self.local(user, self.between(2, 7)):
                note = self.pick(("", "", "", "Try the specials", "Good for groups",
                                  "Ask for a window seat", "Recommended by a friend"))
                self.data["saved_places"].append({
                    "list_id": list_id, "place_id": place["place_id"], "note": note,
                    "added_on": _day(-self.between(1, 19))})

    def reviews(self, user: dict) -> None:
        for place in self.local(user, self.between(3, 12), away=0.2):
            if place["owner_id"] == user["user_id"]:
                continue
            q = self.quality[place["place_id"]]
            rating = int(min(5, max(1, round(q + float(self.rng.normal(0, 0.9))))))
            self.data["reviews"].append({
                "review_id": self.token("rev"), "place_id": place["place_id"],
                "user_id": user["user_id"], "rating": rating,
                "text": self.pick(REVIEW_TEXTS[rating]),
                "created_on": _day(-self.between(1, 600)),
                "updated_on": _day(-self.between(0, 30)) if self.chance(0.1) else None})

    def reports(self, user: dict) -> None:
        if self.chance(0.2):
            place = self.pick(self.local(user, 1))
            issue = self.pick(tuple(REPORT_DETAILS))
            self.data["place_reports"].append({
                "report_id": self.token("rpt"), "place_id": place["place_id"],
                "user_id": user["user_id"], "issue": issue, "detail": REPORT_DETAILS[issue],
                "status": self.pick(("pending", "pending", "accepted", "rejected")),
                "created_on": _day(-self.between(1, 90))})

    def trips(self, user: dict) -> None:
        names: set[str] = set()
        for _ in range(self.between(0, 2)):
            city = user["home_city"] if self.chance(0.4) else self.pick(tuple(CITIES))
            name = f"{city} {self.pick(TRIP_KINDS)}"
            if name in names:
                continue
            names.add(name)
            day = _day(self.between(2, 40) if self.chance(0.8) else -self.between(5, 90))
            trip_id = self.token("trp")
            self.data["trips"].append({"trip_id": trip_id, "user_id": user["user_id"],
                                       "name": name, "city": city, "date": day,
                                       "travel_mode": self.pick(("driving", "walking",
                                                                 "cycling", "transit"))})
            times: set[str] = set()
            places = [p for p in self.by_city[city] if p["status"] == "operating"]
            for index in self.rng.permutation(len(places))[:self.between(2, 5)]:
                place = places[int(index)]
                span = self.hours[place["place_id"]].get(weekday(day))
                if span is None:
                    continue
                slots = [t for t in (_clock(q) for q in range(32, 88, 2))
                         if is_open({0: span}, 0, t) and t not in times]
                if not slots:
                    continue
                at = self.pick(slots)
                times.add(at)
                self.data["trip_stops"].append({"trip_id": trip_id,
                                                "place_id": place["place_id"],
                                                "arrive_at": at})

    def ratings(self) -> None:
        scores: dict[str, list[int]] = {}
        for r in self.data["reviews"]:
            scores.setdefault(r["place_id"], []).append(r["rating"])
        for place in self.data["places"]:
            got = scores.get(place["place_id"], [])
            place["review_count"] = len(got)
            place["rating"] = round(sum(got) / len(got), 2) if got else None


def generate(seed: int) -> dict[str, list[dict]]:
    """The native data of the maps made from ``seed``."""
    maps = _Maps(seed)
    maps.places()
    users = maps.users()
    maps.claim_businesses(users)
    for user in users:
        maps.lists(user)
        maps.reviews(user)
        maps.reports(user)
        maps.trips(user)
    maps.ratings()
    return maps.data
