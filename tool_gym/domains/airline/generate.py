"""Synthetic airline database in the native (tau2 ``db.json``) shape (spec ``airline.md`` 1.1).

``generate(seed)`` is a pure function: it builds the whole database from the vocabulary
lists below with a ``random.Random(seed)`` created inside the call, so the same seed always
yields an identical dict (and identical ``json.dumps``). Nothing here reads public data.

Scale and shape follow tau-bench's airline files: the 20 airports that
``list_all_airports`` names; 300 flights ``HAT001``..``HAT300`` on 108 directed routes (54
airport pairs served both ways, so round trips and one-stop connections exist), each with
30 dates 2024-05-01..30 whose status follows the fixed clock (2024-05-15 15:00 EST):
landed or cancelled before the 15th, landed / flying / on time / delayed on the 15th as the
clock dictates, available with 0..20 seats and a price per cabin from the 16th; 500 users
(regular / silver / gold) with 1..2 saved passengers and 1..7 payment methods (credit
cards, gift cards with balances, certificates); 2,000 reservations (one way or round
trip, direct or one stop, 1..4 passengers) created 2024-04-30..05-14 before their first
flight, about 5% cancelled.

Invariants (spec 1.1, plus ``invariants.py``): each reservation's first payment equals
``sum(segment prices) * n + 30 * n (insured) + 50 * nonfree_baggages`` at booking; a later
bag purchase appends ``50 *`` the added bags; a cancelled reservation appends the negated
payments; payments use the booking user's credit cards or gift cards; the users'
reservation lists and the reservations' users agree; segments name existing flight dates
with the flight's endpoints and connect; ids ``HATHAT``/``HATHAU``/``HATHAV`` and
``certificate_3221322``..``4`` are unused; payment method ids are globally unique.
"""

from __future__ import annotations

import bisect
import itertools
import random
from datetime import datetime, timedelta
from typing import Any

__all__ = ["generate", "N_FLIGHTS", "N_USERS", "N_RESERVATIONS", "DATES", "CLOCK"]

N_FLIGHTS = 300
N_USERS = 500
N_RESERVATIONS = 2000
N_PAIRS = 54                       # airport pairs served in both directions
DATES = [f"2024-05-{d:02d}" for d in range(1, 31)]
CLOCK = datetime(2024, 5, 15, 15, 0, 0)
TODAY = "2024-05-15"

_CANCELLED_FLIGHT_RATE = 0.09      # flight dates before today
_DELAYED_RATE = 0.3                # flights of today
_CANCELLED_RESERVATION_RATE = 0.05
_BAG_PURCHASE_RATE = 0.03          # reservations that bought bags after booking
_NONFREE_RATE = 0.08               # bookings that paid for extra bags
_IDLE_USERS = 48                   # users without reservations

_RESERVED_RESERVATION_IDS = {"HATHAT", "HATHAU", "HATHAV"}
_RESERVED_METHOD_NUMBERS = {3221322, 3221323, 3221324}
_FREE_BAGS = {"regular": (0, 1, 2), "silver": (1, 2, 3), "gold": (2, 3, 4)}
_CABINS = ("basic_economy", "economy", "business")
_PRICE_RANGES = {"basic_economy": (50, 100), "economy": (100, 200), "business": (200, 500)}

# ----------------------------------------------------------------------- vocabulary
# The airports are the tool's fixed list (``tools.AIRPORTS``); every other list is ours.

_AIRPORTS = ["SFO", "JFK", "LAX", "ORD", "DFW", "DEN", "SEA", "ATL", "MIA", "BOS", "PHX",
             "IAH", "LAS", "MCO", "EWR", "CLT", "MSP", "DTW", "PHL", "LGA"]

_FIRST_NAMES = [
    "Adele", "Bruno", "Camila", "Dmitri", "Elena", "Felix", "Greta", "Hiro", "Ingrid",
    "Jonas", "Kavya", "Lorenzo", "Maren", "Nikolai", "Odette", "Pablo", "Quinn", "Rosa",
    "Soren", "Talia", "Umar", "Vera", "Wendell", "Ximena", "Yusuf", "Zara", "Anders",
    "Bianca", "Cyrus", "Delphine", "Emeka", "Freya", "Gideon", "Hana", "Idris", "Juno",
    "Kofi", "Leila", "Matteo", "Nadia",
]
_LAST_NAMES = [
    "Abara", "Bergstrom", "Castellano", "Dubois", "Eriksen", "Fontaine", "Galloway",
    "Haddad", "Ibarra", "Jovanovic", "Kowalczyk", "Lindqvist", "Moreau", "Nakagawa",
    "Okafor", "Petrov", "Quintero", "Rasmussen", "Sandoval", "Takahashi", "Udeh",
    "Valente", "Whitfield", "Yamada", "Zielinski", "Achterberg", "Brennan", "Cavanagh",
    "Delacroix", "Esposito",
]
_STREETS = ["Maple Court", "Harbor Road", "Juniper Lane", "Quarry Street", "Willow Bend",
            "Foxglove Way", "Beacon Hill Road", "Cedar Ridge Drive", "Orchard Row",
            "Lighthouse Avenue", "Prairie View Road", "Granite Street", "Sparrow Lane",
            "Riverside Terrace", "Copper Canyon Drive"]
_CITIES = [("Portland", "OR", "972"), ("Columbus", "OH", "432"), ("Raleigh", "NC", "276"),
           ("Tucson", "AZ", "857"), ("Madison", "WI", "537"), ("Richmond", "VA", "232"),
           ("Boise", "ID", "837"), ("Albany", "NY", "122"), ("Savannah", "GA", "314"),
           ("Omaha", "NE", "681"), ("Spokane", "WA", "992"), ("Reno", "NV", "895"),
           ("Tulsa", "OK", "741"), ("Burlington", "VT", "054"), ("Santa Fe", "NM", "875")]
_BRANDS = ["visa", "mastercard"]

# ----------------------------------------------------------------------------- helpers


class _Random(random.Random):
    """``random.Random`` with cheaper integer and choice draws (one ``random()`` each)."""

    def randint(self, a: int, b: int) -> int:
        return a + int(self.random() * (b - a + 1))

    def randrange(self, start: int, stop: int | None = None) -> int:  # type: ignore[override]
        if stop is None:
            start, stop = 0, start
        return start + int(self.random() * (stop - start))

    def choice(self, seq):
        return seq[int(self.random() * len(seq))]

    def weighted(self, table: tuple[tuple, tuple[float, ...]]):
        """One value of a ``(values, cumulative weights)`` table (see ``_table``)."""
        values, cumulative = table
        return values[bisect.bisect(cumulative, self.random() * cumulative[-1])]


def _table(values, weights) -> tuple[tuple, tuple[float, ...]]:
    return tuple(values), tuple(itertools.accumulate(weights))


_METHOD_COUNT = _table(range(1, 8), (80, 142, 111, 90, 41, 28, 8))
_SOURCE = _table(("credit_card", "gift_card", "certificate"), (34, 35, 31))
_SAVED_COUNT = _table((1, 2), (65, 35))
_ONE_WAY_STOPS = _table((0, 1), (30, 70))
_ROUND_TRIP_STOPS = _table(((0, 0), (1, 1), (0, 1), (1, 0)), (25, 61, 7, 7))
_PASSENGERS = _table((1, 2, 3, 4), (46, 33, 16, 5))


def _hms(minutes: int) -> str:
    """``HH:MM:SS`` of a time of day in minutes, with ``+1`` when it is on the next day."""
    day, minutes = divmod(minutes, 24 * 60)
    text = f"{minutes // 60:02d}:{minutes % 60:02d}:00"
    return text + ("+1" if day else "")


def _stamp(moment: datetime) -> str:
    return moment.isoformat(timespec="seconds")


def _day(date: str) -> int:
    return int(date[-2:])


def _date(day: int) -> str:
    return f"2024-05-{day:02d}"


def _counts(rng: _Random, total: int, weights: dict[Any, float]) -> list:
    """``total`` values drawn with ``weights`` (a shuffled list with the right proportions)."""
    keys = list(weights)
    raw = [weights[k] * total / sum(weights.values()) for k in keys]
    counts = [int(x) for x in raw]
    for k in sorted(range(len(keys)), key=lambda i: raw[i] - counts[i], reverse=True):
        if sum(counts) >= total:
            break
        counts[k] += 1
    values = [k for k, c in zip(keys, counts) for _ in range(c)]
    rng.shuffle(values)
    return values


# ------------------------------------------------------------------------------ flights


def _routes(rng: _Random) -> list[tuple[str, str, int]]:
    """54 connected airport pairs with a flight time each (minutes)."""
    airports = list(_AIRPORTS)
    rng.shuffle(airports)
    pairs: set[frozenset] = set()
    for i in range(1, len(airports)):  # a random spanning tree keeps the network connected
        pairs.add(frozenset((airports[i], airports[rng.randrange(i)])))
    while len(pairs) < N_PAIRS:
        a, b = rng.sample(_AIRPORTS, 2)
        pairs.add(frozenset((a, b)))
    routes = []
    for pair in sorted(sorted(p) for p in pairs):
        minutes = rng.randrange(2, 12) * 30  # 1h..5h30
        routes.append((pair[0], pair[1], minutes))
        routes.append((pair[1], pair[0], minutes))
    return routes


def _flight_dates(rng: _Random, dep: int, duration: int) -> dict:
    dates = {}
    for date in DATES:
        midnight = datetime(2024, 5, _day(date))
        sched_dep = midnight + timedelta(minutes=dep)
        sched_arr = sched_dep + timedelta(minutes=duration)
        if date < TODAY:
            if rng.random() < _CANCELLED_FLIGHT_RATE:
                dates[date] = {"status": "cancelled"}
                continue
            shift = timedelta(minutes=rng.randint(-30, 40))
            dates[date] = {
                "status": "landed",
                "actual_departure_time_est": _stamp(sched_dep + shift),
                "actual_arrival_time_est": _stamp(
                    sched_arr + shift + timedelta(minutes=rng.randint(-15, 15))),
            }
        elif date == TODAY:
            delayed = rng.random() < _DELAYED_RATE
            delay = timedelta(minutes=rng.randint(25, 180) if delayed else rng.randint(-10, 10))
            act_dep = sched_dep + delay
            act_arr = sched_arr + delay + timedelta(minutes=rng.randint(-10, 10))
            if act_arr <= CLOCK:
                dates[date] = {"status": "landed", "actual_departure_time_est": _stamp(act_dep),
                               "actual_arrival_time_est": _stamp(act_arr)}
            elif act_dep <= CLOCK:
                dates[date] = {"status": "flying", "actual_departure_time_est": _stamp(act_dep),
                               "estimated_arrival_time_est": _stamp(act_arr)}
            elif delayed:
                dates[date] = {"status": "delayed",
                               "estimated_departure_time_est": _stamp(act_dep),
                               "estimated_arrival_time_est": _stamp(act_arr)}
            else:
                dates[date] = {"status": "on time",
                               "estimated_departure_time_est": _stamp(act_dep),
                               "estimated_arrival_time_est": _stamp(act_arr)}
        else:
            dates[date] = {
                "status": "available",
                "available_seats": {c: rng.randint(0, 20) for c in _CABINS},
                "prices": {c: rng.randint(*_PRICE_RANGES[c]) for c in _CABINS},
            }
    return dates


def _flights(rng: _Random) -> dict:
    routes = _routes(rng)
    # every route flown twice a day, 84 of them three times
    assigned = 2 * list(routes) + rng.sample(routes, N_FLIGHTS - 2 * len(routes))
    rng.shuffle(assigned)
    flights = {}
    for k, (origin, destination, duration) in enumerate(assigned, start=1):
        number = f"HAT{k:03d}"
        dep = rng.randrange(24) * 60 + rng.choice((0, 0, 0, 30))
        flights[number] = {
            "flight_number": number,
            "origin": origin,
            "destination": destination,
            "scheduled_departure_time_est": _hms(dep),
            "scheduled_arrival_time_est": _hms(dep + duration),
            "dates": _flight_dates(rng, dep, duration),
        }
    return flights


# -------------------------------------------------------------------------------- users


class _Ids:
    """Unique random ids."""

    def __init__(self, rng: _Random):
        self.rng = rng
        self.numbers: set[int] = set(_RESERVED_METHOD_NUMBERS)
        self.codes: set[str] = set(_RESERVED_RESERVATION_IDS)

    def method(self, source: str) -> str:
        while True:
            number = self.rng.randrange(1_000_000, 10_000_000)
            if number not in self.numbers:
                self.numbers.add(number)
                return f"{source}_{number}"

    def reservation(self) -> str:
        alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
        while True:
            number = self.rng.randrange(36 ** 6)
            code = ""
            for _ in range(6):
                number, digit = divmod(number, 36)
                code += alphabet[digit]
            if code not in self.codes:
                self.codes.add(code)
                return code


def _dob(rng: _Random, first_year: int = 1948, last_year: int = 2005) -> str:
    return f"{rng.randint(first_year, last_year)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"


def _person(rng: _Random) -> dict:
    return {"first_name": rng.choice(_FIRST_NAMES), "last_name": rng.choice(_LAST_NAMES),
            "dob": _dob(rng)}


def _payment_methods(rng: _Random, ids: _Ids) -> dict:
    count = rng.weighted(_METHOD_COUNT)
    sources = [rng.weighted(_SOURCE)
               for _ in range(count)]
    if "credit_card" not in sources and "gift_card" not in sources:
        sources[0] = rng.choice(("credit_card", "gift_card"))
    methods = {}
    for source in sources:
        mid = ids.method(source)
        if source == "credit_card":
            methods[mid] = {"source": source, "id": mid, "brand": rng.choice(_BRANDS),
                            "last_four": f"{rng.randrange(10_000):04d}"}
        elif source == "gift_card":
            methods[mid] = {"source": source, "id": mid, "amount": float(rng.randint(0, 300))}
        else:
            methods[mid] = {"source": source, "id": mid,
                            "amount": float(rng.choice((100, 150, 250, 500)))}
    return methods


def _users(rng: _Random, ids: _Ids) -> dict:
    memberships = _counts(rng, N_USERS, {"regular": 143, "silver": 182, "gold": 175})
    users: dict[str, dict] = {}
    taken: set[str] = set()
    for membership in memberships:
        first, last = rng.choice(_FIRST_NAMES), rng.choice(_LAST_NAMES)
        while True:
            number = rng.randrange(1000, 10000)
            user_id = f"{first.lower()}_{last.lower()}_{number}"
            if user_id not in taken:
                taken.add(user_id)
                break
        city, state, zip_prefix = rng.choice(_CITIES)
        saved = [_person(rng) for _ in range(rng.weighted(_SAVED_COUNT))]
        users[user_id] = {
            "user_id": user_id,
            "name": {"first_name": first, "last_name": last},
            "address": {
                "address1": f"{rng.randint(10, 9999)} {rng.choice(_STREETS)}",
                "address2": rng.choice(("", f"Apt {rng.randint(1, 40)}",
                                        f"Unit {rng.randint(100, 999)}")),
                "city": city, "country": "USA", "state": state,
                "zip": f"{zip_prefix}{rng.randrange(100):02d}",
            },
            "email": f"{first.lower()}.{last.lower()}{rng.randrange(100, 1000)}@example.net",
            "dob": _dob(rng, 1945, 2003),
            "payment_methods": _payment_methods(rng, ids),
            "saved_passengers": saved,
            "membership": membership,
            "reservations": [],
        }
    return users


# ------------------------------------------------------------------------- reservations


class _Network:
    """Connections between flights, for itineraries that tau2's search could find."""

    def __init__(self, flights: dict):
        self.flights = flights
        self.by_route: dict[tuple[str, str], list[str]] = {}
        self.by_origin: dict[str, list[str]] = {}
        for number, f in flights.items():
            self.by_route.setdefault((f["origin"], f["destination"]), []).append(number)
            self.by_origin.setdefault(f["origin"], []).append(number)
        # origin -> [(f1, f2, day offset)]: f2 leaves f1's destination (not back to f1's
        # origin) no earlier than f1 arrives, compared as tau2 does (strings, '+1' included).
        self.connections: dict[str, list[tuple[str, str, int]]] = {}
        self.connections_to: dict[tuple[str, str], list[tuple[str, str, int]]] = {}
        for number, f in flights.items():
            arrival = f["scheduled_arrival_time_est"]
            offset = 1 if "+1" in arrival else 0
            for g in self.by_origin.get(f["destination"], ()):
                second = flights[g]
                if (second["destination"] != f["origin"]
                        and second["scheduled_departure_time_est"] >= arrival):
                    item = (number, g, offset)
                    self.connections.setdefault(f["origin"], []).append(item)
                    self.connections_to.setdefault(
                        (f["origin"], second["destination"]), []).append(item)

    def path(self, rng: _Random, origin: str, day: int, stops: int,
             destination: str | None = None) -> list[tuple[str, int]] | None:
        """``[(flight, day), ...]`` from ``origin`` leaving on ``day`` (to ``destination``
        when given), direct (``stops == 0``) or with one stop; ``None`` if impossible."""
        if stops == 0:
            options = (self.by_route.get((origin, destination), []) if destination
                       else self.by_origin.get(origin, []))
            return [(rng.choice(options), day)] if options else None
        options = (self.connections_to.get((origin, destination), []) if destination
                   else self.connections.get(origin, []))
        if day == 30:  # a next-day connection would leave the date range
            options = [o for o in options if o[2] == 0]
        if not options:
            return None
        f1, f2, off = rng.choice(options)
        return [(f1, day), (f2, day + off)]


def _segment(rng: _Random, flights: dict, number: str, day: int, cabin: str) -> dict:
    f = flights[number]
    date = _date(day)
    current = f["dates"][date]
    if current["status"] == "available" and rng.random() < 0.4:
        price = current["prices"][cabin]
    else:
        price = rng.randint(*_PRICE_RANGES[cabin])
    return {"flight_number": number, "origin": f["origin"], "destination": f["destination"],
            "date": date, "price": price}


def _itinerary(rng: _Random, network: _Network, flight_type: str,
               ) -> tuple[str, str, list[tuple[str, int]]]:
    """``(origin, destination, [(flight, day), ...])`` of a trip; a round trip's
    destination is the airport where it turns back."""
    while True:
        origin = rng.choice(_AIRPORTS)
        # first flight day: about a third of the trips already started by the clock
        day = rng.randint(1, 15) if rng.random() < 0.33 else rng.randint(16, 30)
        if flight_type == "one_way":
            out = network.path(rng, origin, day, stops=rng.weighted(_ONE_WAY_STOPS))
            if out:
                return origin, network.flights[out[-1][0]]["destination"], out
            continue
        shape = rng.weighted(_ROUND_TRIP_STOPS)
        out = network.path(rng, origin, day, stops=shape[0])
        if not out:
            continue
        turnaround = network.flights[out[-1][0]]["destination"]
        back_day = out[-1][1] + rng.randint(1, 8)
        if back_day > 30:
            continue
        back = network.path(rng, turnaround, back_day, stops=shape[1], destination=origin)
        if back:
            return origin, turnaround, out + back


def _reservations(rng: _Random, flights: dict, users: dict, ids: _Ids) -> dict:
    network = _Network(flights)
    user_ids = list(users)
    active = rng.sample(user_ids, len(user_ids) - _IDLE_USERS)
    weights = [rng.gammavariate(4.0, 1.0) for _ in active]
    owners = list(active) + rng.choices(active, weights=weights,
                                        k=N_RESERVATIONS - len(active))
    rng.shuffle(owners)
    flight_types = _counts(rng, N_RESERVATIONS, {"one_way": 52, "round_trip": 48})
    cabins = _counts(rng, N_RESERVATIONS, {c: 1 for c in _CABINS})

    made = []
    for owner, flight_type, cabin in zip(owners, flight_types, cabins):
        user = users[owner]
        origin, destination, path = _itinerary(rng, network, flight_type)
        n = rng.weighted(_PASSENGERS)
        me = {"first_name": user["name"]["first_name"], "last_name": user["name"]["last_name"],
              "dob": user["dob"]}
        pool = [me] + list(user["saved_passengers"])
        passengers = [dict(p) for p in pool[:n]] if rng.random() < 0.8 else []
        while len(passengers) < n:
            passengers.append(_person(rng))
        segments = [_segment(rng, flights, number, day, cabin) for number, day in path]
        insurance = rng.choice(("yes", "no"))
        free = _FREE_BAGS[user["membership"]][_CABINS.index(cabin)] * n
        nonfree = rng.randint(1, 2) if rng.random() < _NONFREE_RATE else 0
        total_bags = rng.randint(0, free) + nonfree
        # created 2024-04-30 .. 2024-05-14 (day 0..14), before the day of the first flight
        first_day = path[0][1]
        created_day = rng.randint(0, min(14, first_day - 1))
        created = datetime(2024, 4, 30) + timedelta(days=created_day,
                                                    seconds=rng.randrange(24 * 3600))
        price = (sum(s["price"] for s in segments) * n + (30 * n if insurance == "yes" else 0)
                 + 50 * nonfree)
        methods = [m for m in user["payment_methods"].values()
                   if m["source"] in ("credit_card", "gift_card")]
        method = rng.choice(methods)
        history = [{"payment_id": method["id"], "amount": price}]
        if rng.random() < _BAG_PURCHASE_RATE:
            extra = rng.randint(1, 2)
            nonfree += extra
            total_bags += extra
            history.append({"payment_id": rng.choice(methods)["id"], "amount": 50 * extra})
        status = None
        if rng.random() < _CANCELLED_RESERVATION_RATE:
            status = "cancelled"
            history += [{"payment_id": p["payment_id"], "amount": -p["amount"]} for p in history]
        made.append({
            "reservation_id": ids.reservation(),
            "user_id": owner,
            "origin": origin,
            "destination": destination,
            "flight_type": flight_type,
            "cabin": cabin,
            "flights": segments,
            "passengers": passengers,
            "payment_history": history,
            "created_at": _stamp(created),
            "total_baggages": total_bags,
            "nonfree_baggages": nonfree,
            "insurance": insurance,
            "status": status,
        })

    reservations = {record["reservation_id"]: record for record in made}
    for record in sorted(made, key=lambda r: r["created_at"]):
        users[record["user_id"]]["reservations"].append(record["reservation_id"])
    return reservations


# ------------------------------------------------------------------------------ generate


def generate(seed: int) -> dict:
    """A synthetic airline database for ``seed`` in the native structure
    (``{"flights", "users", "reservations"}``, users with ``user_id``)."""
    rng = _Random(seed)
    ids = _Ids(rng)
    flights = _flights(rng)
    users = _users(rng, ids)
    reservations = _reservations(rng, flights, users, ids)
    return {"flights": flights, "users": users, "reservations": reservations}
