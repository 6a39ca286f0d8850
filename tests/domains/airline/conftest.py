"""Shared fixtures of the airline tests.

- ``tiny_data`` / ``tiny_template``: a small hand-written database in the native (tau2) shape,
  independent of the generator, covering every flight-date status, a connection across
  midnight, a flown reservation, a reservation made within 24 hours and every payment source.
- ``v1_dir`` / ``v1_template`` / ``v1_sandbox``: tau-bench's three airline files, and
  ``tau2_tasks``: tau2's airline tasks (tests skip when the data is absent).
- ``Reference``: a plain-dict model of the airline write tools written literally from the
  spec (section 2.3), an independent oracle for success/failure and the state after a call.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from tool_gym.core.sandbox import Sandbox, Template, build_database
from tool_gym.domains.airline import DOMAIN

from ..databases import hand_written

REPO = Path(__file__).resolve().parents[3]
DATA = REPO.parent / "shared" / "data"
V1_DIR = DATA / "tau-bench" / "airline"
TAU2_DIR = DATA / "tau2" / "airline"
V1_FILES = ("flights.json", "reservations.json", "users.json")

NOW = "2024-05-15T15:00:00"


# ------------------------------------------------------------------------- tiny data


def _available(seats, prices):
    cabins = ("basic_economy", "economy", "business")
    return {"status": "available", "available_seats": dict(zip(cabins, seats)),
            "prices": dict(zip(cabins, prices))}


def _landed(date, dep, arr):
    return {"status": "landed", "actual_departure_time_est": f"{date}T{dep}",
            "actual_arrival_time_est": f"{date}T{arr}"}


def _flight(number, origin, destination, dep, arr, dates):
    return {"flight_number": number, "origin": origin, "destination": destination,
            "scheduled_departure_time_est": dep, "scheduled_arrival_time_est": arr,
            "dates": dates}


def _pax(first, last, dob):
    return {"first_name": first, "last_name": last, "dob": dob}


def _seg(number, origin, destination, date, price):
    return {"flight_number": number, "origin": origin, "destination": destination,
            "date": date, "price": price}


ALICE = _pax("Alice", "Ng", "1980-02-03")
BOB = _pax("Bob", "Ng", "1982-07-08")
CARL = _pax("Carl", "Ode", "1975-11-30")


def make_tiny_data() -> dict:
    """A fresh copy of the tiny airline database (native shape)."""
    flights = {
        "HAT001": _flight("HAT001", "JFK", "ORD", "08:00:00", "10:00:00", {
            "2024-05-10": _landed("2024-05-10", "08:05:00", "09:58:00"),
            "2024-05-14": {"status": "cancelled"},
            "2024-05-15": {"status": "flying", "actual_departure_time_est": "2024-05-15T08:10:00",
                           "estimated_arrival_time_est": "2024-05-15T10:05:00"},
            "2024-05-20": _available((5, 3, 1), (60, 120, 300)),
            "2024-05-21": _available((2, 2, 2), (70, 130, 320)),
        }),
        "HAT002": _flight("HAT002", "ORD", "SEA", "11:00:00", "13:30:00", {
            "2024-05-15": {"status": "on time",
                           "estimated_departure_time_est": "2024-05-15T11:00:00",
                           "estimated_arrival_time_est": "2024-05-15T13:30:00"},
            "2024-05-20": _available((5, 5, 5), (55, 110, 250)),
        }),
        # leaves ORD before HAT001 arrives: no connection
        "HAT003": _flight("HAT003", "ORD", "SEA", "09:00:00", "11:00:00", {
            "2024-05-20": _available((4, 4, 4), (58, 115, 260)),
        }),
        # arrives after midnight: connects with next-day flights
        "HAT004": _flight("HAT004", "JFK", "ORD", "22:00:00", "01:30:00+1", {
            "2024-05-08": _available((9, 9, 9), (50, 100, 200)),
            "2024-05-15": {"status": "delayed",
                           "estimated_departure_time_est": "2024-05-15T23:10:00",
                           "estimated_arrival_time_est": "2024-05-16T02:40:00"},
            "2024-05-20": _available((9, 9, 9), (51, 101, 201)),
        }),
        "HAT005": _flight("HAT005", "ORD", "SEA", "03:00:00", "05:00:00", {
            "2024-05-09": _available((9, 9, 9), (52, 102, 202)),
            "2024-05-20": _available((9, 9, 9), (53, 103, 203)),
            "2024-05-21": _available((9, 9, 9), (54, 104, 204)),
        }),
        "HAT006": _flight("HAT006", "SEA", "JFK", "07:00:00", "15:00:00", {
            "2024-05-12": _landed("2024-05-12", "07:00:00", "15:02:00"),
            "2024-05-25": _available((3, 3, 3), (90, 190, 490)),
        }),
        "HAT007": _flight("HAT007", "JFK", "SEA", "12:00:00", "15:00:00", {
            "2024-05-20": _available((6, 6, 6), (80, 150, 400)),
            "2024-05-21": _available((6, 6, 0), (85, 155, 410)),
        }),
        "HAT008": _flight("HAT008", "ORD", "JFK", "18:00:00", "20:00:00", {
            "2024-05-10": _landed("2024-05-10", "18:00:00", "20:00:00"),
            "2024-05-22": _available((7, 7, 7), (65, 125, 290)),
        }),
    }
    users = {
        "alice_ng_1001": {
            "user_id": "alice_ng_1001", "name": {"first_name": "Alice", "last_name": "Ng"},
            "address": {"address1": "9 Oak Ave", "address2": "Unit 3", "city": "Boston",
                        "country": "USA", "state": "MA", "zip": "02101"},
            "email": "alice.ng@example.com", "dob": "1980-02-03",
            "payment_methods": {
                "credit_card_1000001": {"source": "credit_card", "id": "credit_card_1000001",
                                        "brand": "visa", "last_four": "1234"},
                "gift_card_1000002": {"source": "gift_card", "id": "gift_card_1000002",
                                      "amount": 500.0},
                "certificate_1000003": {"source": "certificate", "id": "certificate_1000003",
                                        "amount": 250.0},
                "gift_card_1000004": {"source": "gift_card", "id": "gift_card_1000004",
                                      "amount": 30.0},
            },
            "saved_passengers": [dict(BOB)],
            "membership": "gold",
            "reservations": ["RES001", "RES002", "RES003"],
        },
        "carl_ode_2002": {
            "user_id": "carl_ode_2002", "name": {"first_name": "Carl", "last_name": "Ode"},
            "address": {"address1": "1 Pine St", "address2": None, "city": "Denver",
                        "country": "USA", "state": "CO", "zip": "80201"},
            "email": "carl.ode@example.com", "dob": "1975-11-30",
            "payment_methods": {
                "credit_card_2000001": {"source": "credit_card", "id": "credit_card_2000001",
                                        "brand": "mastercard", "last_four": "9876"},
                "certificate_2000002": {"source": "certificate", "id": "certificate_2000002",
                                        "amount": 100.0},
            },
            "saved_passengers": [],
            "membership": "regular",
            "reservations": ["RES004"],
        },
        "dina_quinn_3003": {
            "user_id": "dina_quinn_3003", "name": {"first_name": "Dina", "last_name": "Quinn"},
            "address": {"address1": "4 Elm Rd", "address2": "", "city": "Austin",
                        "country": "USA", "state": "TX", "zip": "73301"},
            "email": "dina.quinn@example.com", "dob": "1990-05-06",
            "payment_methods": {
                "gift_card_3000001": {"source": "gift_card", "id": "gift_card_3000001",
                                      "amount": 0.0},
            },
            "saved_passengers": [],
            "membership": "silver",
            "reservations": [],
        },
    }
    reservations = {
        # one way, one stop, 2 passengers, insured: 2 * (100 + 100) + 2 * 30 = 460
        "RES001": {
            "reservation_id": "RES001", "user_id": "alice_ng_1001", "origin": "JFK",
            "destination": "SEA", "flight_type": "one_way", "cabin": "economy",
            "flights": [_seg("HAT001", "JFK", "ORD", "2024-05-20", 100),
                        _seg("HAT002", "ORD", "SEA", "2024-05-20", 100)],
            "passengers": [dict(ALICE), dict(BOB)],
            "payment_history": [{"payment_id": "credit_card_1000001", "amount": 460}],
            "created_at": "2024-05-10T10:00:00", "total_baggages": 2, "nonfree_baggages": 0,
            "insurance": "yes", "status": None,
        },
        # round trip whose first flight has been flown
        "RES002": {
            "reservation_id": "RES002", "user_id": "alice_ng_1001", "origin": "JFK",
            "destination": "ORD", "flight_type": "round_trip", "cabin": "business",
            "flights": [_seg("HAT001", "JFK", "ORD", "2024-05-10", 280),
                        _seg("HAT008", "ORD", "JFK", "2024-05-22", 290)],
            "passengers": [dict(ALICE)],
            "payment_history": [{"payment_id": "gift_card_1000002", "amount": 570}],
            "created_at": "2024-05-01T09:30:00", "total_baggages": 0, "nonfree_baggages": 0,
            "insurance": "no", "status": None,
        },
        # basic economy, booked within 24 hours of the clock
        "RES003": {
            "reservation_id": "RES003", "user_id": "alice_ng_1001", "origin": "JFK",
            "destination": "ORD", "flight_type": "one_way", "cabin": "basic_economy",
            "flights": [_seg("HAT001", "JFK", "ORD", "2024-05-21", 65)],
            "passengers": [dict(ALICE)],
            "payment_history": [{"payment_id": "credit_card_1000001", "amount": 65}],
            "created_at": "2024-05-14T16:00:00", "total_baggages": 0, "nonfree_baggages": 0,
            "insurance": "no", "status": None,
        },
        # one paid bag: 150 + 50
        "RES004": {
            "reservation_id": "RES004", "user_id": "carl_ode_2002", "origin": "JFK",
            "destination": "SEA", "flight_type": "one_way", "cabin": "economy",
            "flights": [_seg("HAT007", "JFK", "SEA", "2024-05-20", 150)],
            "passengers": [dict(CARL)],
            "payment_history": [{"payment_id": "credit_card_2000001", "amount": 200}],
            "created_at": "2024-05-12T08:00:00", "total_baggages": 2, "nonfree_baggages": 1,
            "insurance": "no", "status": None,
        },
    }
    return {"flights": flights, "users": users, "reservations": reservations}


@pytest.fixture(scope="session")
def tiny_template() -> Template:
    return hand_written("airline", make_tiny_data(), "tiny-test-fixture")


@pytest.fixture
def tiny_data() -> dict:
    return make_tiny_data()


# ------------------------------------------------------------------- public data


@pytest.fixture(scope="session")
def v1_dir() -> Path:
    if not all((V1_DIR / name).is_file() for name in V1_FILES):
        pytest.skip(f"tau-bench airline data not found at {V1_DIR}")
    return V1_DIR


@pytest.fixture(scope="session")
def v1_raw(v1_dir) -> dict:
    """tau-bench's three files as parsed JSON (do not mutate)."""
    return {name[:-5]: json.loads((v1_dir / name).read_text(encoding="utf-8"))
            for name in V1_FILES}


@pytest.fixture(scope="session")
def v1_template(v1_dir) -> Template:
    return Template(DOMAIN, build_database(DOMAIN, data=v1_dir), ("airline", "v1-test"))


@pytest.fixture
def v1_sandbox(v1_template) -> Sandbox:
    box = Sandbox(v1_template)
    yield box
    box.close()


@pytest.fixture(scope="session")
def tau2_tasks() -> list[dict]:
    path = TAU2_DIR / "tasks.json"
    if not path.is_file():
        pytest.skip(f"tau2 airline tasks not found at {path}")
    return json.loads(path.read_text(encoding="utf-8"))


def normalized_v1(raw: dict) -> dict:
    """tau-bench's files as the tau2 export must reproduce them (spec 1.2): users with
    ``user_id``, reservations with ``status``, gift card / certificate amounts as floats."""
    users = {}
    for key, user in raw["users"].items():
        user = copy.deepcopy(user)
        for method in user["payment_methods"].values():
            if "amount" in method:
                method["amount"] = float(method["amount"])
        users[key] = {"user_id": key, **user}
    reservations = {key: {**copy.deepcopy(r), "status": r.get("status")}
                    for key, r in raw["reservations"].items()}
    return {"flights": raw["flights"], "users": users, "reservations": reservations}


# ---------------------------------------------------------------------- reference model


class RefError(Exception):
    pass


class Reference:
    """The airline tools on plain tau2-shaped dicts, transcribed from spec section 2.3.

    ``call(name, args)`` returns ``(ok, result)`` and mutates ``self.data`` as tau2 does
    (including the partial failure of section 2.4.6). Deliberately naive: no SQL.
    """

    WRITES = ("book_reservation", "cancel_reservation", "update_reservation_baggages",
              "update_reservation_flights", "update_reservation_passengers",
              "send_certificate")

    def __init__(self, data: dict):
        """Takes ownership of ``data`` (a fresh tau2-shaped copy)."""
        self.data = data
        for r in data["reservations"].values():
            r.setdefault("status", None)

    def call(self, name: str, args: dict):
        try:
            return True, getattr(self, name)(**args)
        except (RefError, KeyError) as error:
            return False, str(error)

    # object building (spec 2.1)
    @staticmethod
    def _obj(item, keys):
        for k in keys:
            if k not in item or not isinstance(item[k], str):
                raise RefError(f"bad {k}")
        return {k: item[k] for k in keys}

    def _payments(self, items):
        out = []
        for item in items:
            if "payment_id" not in item or not isinstance(item["payment_id"], str):
                raise RefError("bad payment_id")
            amount = item.get("amount")
            if isinstance(amount, float) and amount.is_integer():
                amount = int(amount)
            if isinstance(amount, bool) or not isinstance(amount, int):
                raise RefError("bad amount")
            out.append({"payment_id": item["payment_id"], "amount": amount})
        return out

    # lookups
    def _row(self, table: str, key, what: str):
        if key not in self.data[table]:
            raise RefError(f"{what} not found")
        return self.data[table][key]

    def _user(self, user_id):
        return self._row("users", user_id, "user")

    def _reservation(self, rid):
        return self._row("reservations", rid, "reservation")

    def _flight(self, number):
        return self._row("flights", number, "flight")

    def _flight_date(self, number, date):
        flight = self._flight(number)
        if date not in flight["dates"]:
            raise RefError("flight not found on date")
        return flight["dates"][date]

    def _bookable(self, number, date, cabin, n):
        flight = self._flight(number)
        fd = self._flight_date(number, date)
        if fd["status"] != "available":
            raise RefError("flight not available on date")
        if fd["available_seats"][cabin] < n:
            raise RefError("not enough seats")
        return flight, fd

    def _update_payment(self, user, payment_id, price):
        if payment_id not in user["payment_methods"]:
            raise RefError("payment method not found")
        method = user["payment_methods"][payment_id]
        if method["source"] == "certificate":
            raise RefError("certificate not allowed")
        if method["source"] == "gift_card" and method["amount"] < price:
            raise RefError("insufficient gift card balance")
        return method

    # reads
    def get_user_details(self, user_id):
        return self._user(user_id)

    def get_reservation_details(self, reservation_id):
        return self._reservation(reservation_id)

    def get_flight_status(self, flight_number, date):
        return self._flight_date(flight_number, date)["status"]

    def search_direct_flight(self, origin, destination, date):
        return [n for n, f in self.data["flights"].items()
                if f["origin"] == origin and f["destination"] == destination
                and date in f["dates"] and f["dates"][date]["status"] == "available"]

    def list_all_airports(self):
        return None

    def search_onestop_flight(self, origin, destination, date):
        out = []
        for n1, f1 in self.data["flights"].items():
            if not (f1["origin"] == origin and date in f1["dates"]
                    and f1["dates"][date]["status"] == "available"):
                continue
            arrival = f1["scheduled_arrival_time_est"]
            date2 = f"2024-05-{int(date[-2:]) + 1}" if "+1" in arrival else date
            for n2, f2 in self.data["flights"].items():
                if (f2["origin"] == f1["destination"] and f2["destination"] == destination
                        and date2 in f2["dates"] and f2["dates"][date2]["status"] == "available"
                        and f2["scheduled_departure_time_est"] >= arrival):
                    out.append([(n1, date), (n2, date2)])
        return out

    def calculate(self, expression):
        return None

    def transfer_to_human_agents(self, summary):
        return "Transfer successful"

    # writes
    def book_reservation(self, user_id, origin, destination, flight_type, cabin, flights,
                         passengers, payment_methods, total_baggages, nonfree_baggages,
                         insurance):
        flights = [self._obj(f, ("flight_number", "date")) for f in flights]
        passengers = [self._obj(p, ("first_name", "last_name", "dob")) for p in passengers]
        payments = self._payments(payment_methods)
        user = self._user(user_id)
        rid = next((r for r in ("HATHAT", "HATHAU", "HATHAV")
                    if r not in self.data["reservations"]), None)
        if rid is None:
            raise RefError("too many reservations")
        n = len(passengers)
        total, segments, dates = 0, [], []
        for f in flights:
            flight, fd = self._bookable(f["flight_number"], f["date"], cabin, n)
            price = fd["prices"][cabin]
            segments.append({"flight_number": f["flight_number"], "origin": flight["origin"],
                             "destination": flight["destination"], "date": f["date"],
                             "price": price})
            dates.append(fd)
            total += price * n
        if insurance == "yes":
            total += 30 * n
        total += 50 * nonfree_baggages
        for p in payments:
            if p["payment_id"] not in user["payment_methods"]:
                raise RefError("payment method not found")
            method = user["payment_methods"][p["payment_id"]]
            if method["source"] in ("gift_card", "certificate") and method["amount"] < p["amount"]:
                raise RefError("not enough balance")
        if sum(p["amount"] for p in payments) != total:
            raise RefError("payment total mismatch")
        for p in payments:
            method = user["payment_methods"][p["payment_id"]]  # KeyError: partial failure
            if method["source"] == "gift_card":
                method["amount"] -= p["amount"]
            elif method["source"] == "certificate":
                del user["payment_methods"][p["payment_id"]]
        for fd in dates:
            fd["available_seats"][cabin] -= n
        record = {"reservation_id": rid, "user_id": user_id, "origin": origin,
                  "destination": destination, "flight_type": flight_type, "cabin": cabin,
                  "flights": segments, "passengers": passengers, "payment_history": payments,
                  "created_at": NOW, "total_baggages": total_baggages,
                  "nonfree_baggages": nonfree_baggages, "insurance": insurance, "status": None}
        self.data["reservations"][rid] = record
        user["reservations"].append(rid)
        return record

    def cancel_reservation(self, reservation_id):
        r = self._reservation(reservation_id)
        r["payment_history"] = r["payment_history"] + [
            {"payment_id": p["payment_id"], "amount": -p["amount"]} for p in r["payment_history"]]
        r["status"] = "cancelled"
        return r

    def update_reservation_baggages(self, reservation_id, total_baggages, nonfree_baggages,
                                    payment_id):
        r = self._reservation(reservation_id)
        user = self._user(r["user_id"])
        price = 50 * max(0, nonfree_baggages - r["nonfree_baggages"])
        method = self._update_payment(user, payment_id, price)
        if method["source"] == "gift_card":
            method["amount"] -= price
        if price != 0:
            r["payment_history"].append({"payment_id": payment_id, "amount": price})
        r["total_baggages"] = total_baggages
        r["nonfree_baggages"] = nonfree_baggages
        return r

    def update_reservation_flights(self, reservation_id, cabin, flights, payment_id):
        flights = [self._obj(f, ("flight_number", "date")) for f in flights]
        r = self._reservation(reservation_id)
        user = self._user(r["user_id"])
        n = len(r["passengers"])
        total, segments = 0, []
        for f in flights:
            kept = None
            if cabin == r["cabin"]:
                kept = next((s for s in r["flights"] if s["flight_number"] == f["flight_number"]
                             and s["date"] == f["date"]), None)
            if kept is not None:
                segments.append(dict(kept))
                total += kept["price"] * n
                continue
            flight, fd = self._bookable(f["flight_number"], f["date"], cabin, n)
            segments.append({"flight_number": f["flight_number"], "origin": flight["origin"],
                             "destination": flight["destination"], "date": f["date"],
                             "price": fd["prices"][cabin]})
            total += fd["prices"][cabin] * n
        total -= sum(s["price"] for s in r["flights"]) * n
        method = self._update_payment(user, payment_id, total)
        if method["source"] == "gift_card":
            method["amount"] -= total
        if total != 0:
            r["payment_history"].append({"payment_id": payment_id, "amount": total})
        r["flights"] = segments
        r["cabin"] = cabin
        return r

    def update_reservation_passengers(self, reservation_id, passengers):
        passengers = [self._obj(p, ("first_name", "last_name", "dob")) for p in passengers]
        r = self._reservation(reservation_id)
        if len(passengers) != len(r["passengers"]):
            raise RefError("passenger count must not change")
        r["passengers"] = passengers
        return r

    def send_certificate(self, user_id, amount):
        user = self._user(user_id)
        for number in (3221322, 3221323, 3221324):
            pid = f"certificate_{number}"
            if pid not in user["payment_methods"]:
                user["payment_methods"][pid] = {"source": "certificate", "id": pid,
                                                "amount": float(amount)}
                return f"Certificate {pid} added to user {user_id} with amount {amount}."
        raise RefError("too many certificates")


def canonical(value) -> str:
    """The canonical JSON text of a state (what ``Sandbox.state_hash`` hashes)."""
    return json.dumps(value, sort_keys=True)
