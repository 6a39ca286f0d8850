"""Tests for the synthetic airline generator (spec airline.md section 1.1)."""

from __future__ import annotations

import json
import re
from collections import Counter
from functools import partial

import pytest

from tool_gym.core.sandbox import Sandbox, Template, build_database
from tool_gym.domains.airline import DOMAIN, io
from tool_gym.domains.airline.generate import generate
from tool_gym.domains.airline.tools import AIRPORTS

from ..databases import fixed_and_drawn_seeds, generated, generated_json

db = partial(generated, "airline")  # a private copy of the data generated from a seed

FLIGHT_KEYS = ["flight_number", "origin", "destination", "scheduled_departure_time_est",
               "scheduled_arrival_time_est", "dates"]
DATE_KEYS = {
    "available": ["status", "available_seats", "prices"],
    "on time": ["status", "estimated_departure_time_est", "estimated_arrival_time_est"],
    "delayed": ["status", "estimated_departure_time_est", "estimated_arrival_time_est"],
    "flying": ["status", "actual_departure_time_est", "estimated_arrival_time_est"],
    "landed": ["status", "actual_departure_time_est", "actual_arrival_time_est"],
    "cancelled": ["status"],
}
USER_KEYS = ["user_id", "name", "address", "email", "dob", "payment_methods",
             "saved_passengers", "membership", "reservations"]
RESERVATION_KEYS = ["reservation_id", "user_id", "origin", "destination", "flight_type",
                    "cabin", "flights", "passengers", "payment_history", "created_at",
                    "total_baggages", "nonfree_baggages", "insurance", "status"]
CABINS = ("basic_economy", "economy", "business")
PRICES = {"basic_economy": (50, 100), "economy": (100, 200), "business": (200, 500)}
DATES = [f"2024-05-{d:02d}" for d in range(1, 31)]
CLOCK = "2024-05-15T15:00:00"
TIME = re.compile(r"([01][0-9]|2[0-3]):[0-5][0-9]:00(\+1)?")
STAMP = re.compile(r"2024-0[45]-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}")
DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
RID = re.compile(r"[A-Z0-9]{6}")
METHOD_ID = re.compile(r"(credit_card|gift_card|certificate)_[0-9]{7}")


def test_seeds_differ():
    assert generated_json("airline", 0) != generated_json("airline", 1)
    a, b = db(0), db(1)
    assert set(a["reservations"]) != set(b["reservations"])
    assert set(a["users"]) != set(b["users"])


def check(d: dict) -> None:
    """Every shape rule and invariant of spec 1.1 on generated data."""
    assert list(d) == ["flights", "users", "reservations"]
    flights, users, reservations = d["flights"], d["users"], d["reservations"]

    # flights
    assert list(flights) == [f"HAT{k:03d}" for k in range(1, 301)]
    codes = [code for code, _ in AIRPORTS]
    routes = Counter()
    for number, f in flights.items():
        assert list(f) == FLIGHT_KEYS and f["flight_number"] == number
        assert f["origin"] in codes and f["destination"] in codes
        assert f["origin"] != f["destination"]
        assert TIME.fullmatch(f["scheduled_departure_time_est"])
        assert not f["scheduled_departure_time_est"].endswith("+1")
        assert TIME.fullmatch(f["scheduled_arrival_time_est"])
        routes[f["origin"], f["destination"]] += 1
        assert list(f["dates"]) == DATES
        for date, fd in f["dates"].items():
            status = fd["status"]
            assert list(fd) == DATE_KEYS[status]
            if date < "2024-05-15":
                assert status in ("landed", "cancelled")
            elif date == "2024-05-15":
                assert status in ("landed", "flying", "on time", "delayed")
            else:
                assert status == "available"
                assert list(fd["available_seats"]) == list(CABINS) == list(fd["prices"])
                for c in CABINS:
                    assert type(fd["available_seats"][c]) is int
                    assert 0 <= fd["available_seats"][c] <= 20
                    lo, hi = PRICES[c]
                    assert type(fd["prices"][c]) is int and lo <= fd["prices"][c] <= hi
            for key in DATE_KEYS[status][1:]:
                if key.endswith("_est") and key != "available_seats":
                    assert STAMP.fullmatch(fd[key])
            # relative to the clock: flown before it, not departed after it
            if status in ("landed",):
                assert fd["actual_arrival_time_est"] <= CLOCK
            if status == "flying":
                assert fd["actual_departure_time_est"] <= CLOCK < fd["estimated_arrival_time_est"]
            if status in ("on time", "delayed"):
                assert fd["estimated_departure_time_est"] > CLOCK
    assert len(routes) == 108
    assert all((b, a) in routes for a, b in routes)  # every route is served both ways
    assert 20 <= sum("+1" in f["scheduled_arrival_time_est"] for f in flights.values()) <= 60
    today = Counter(f["dates"]["2024-05-15"]["status"] for f in flights.values())
    assert all(today[s] > 10 for s in ("landed", "flying", "on time", "delayed"))
    cancelled = sum(fd["status"] == "cancelled" for f in flights.values()
                    for fd in f["dates"].values())
    assert 250 <= cancelled <= 500

    # users
    assert len(users) == 500
    method_ids = []
    for uid, u in users.items():
        assert list(u) == USER_KEYS and u["user_id"] == uid
        assert re.fullmatch(r"[a-z]+_[a-z]+_[0-9]{4}", uid)
        assert DATE.fullmatch(u["dob"]) and "@" in u["email"]
        assert u["membership"] in ("regular", "silver", "gold")
        assert 1 <= len(u["saved_passengers"]) <= 2
        assert 1 <= len(u["payment_methods"]) <= 7
        for mid, m in u["payment_methods"].items():
            assert m["id"] == mid and METHOD_ID.fullmatch(mid) and mid.startswith(m["source"])
            method_ids.append(mid)
            if m["source"] == "credit_card":
                assert list(m) == ["source", "id", "brand", "last_four"]
                assert re.fullmatch(r"[0-9]{4}", m["last_four"])
            else:
                assert list(m) == ["source", "id", "amount"]
                assert type(m["amount"]) is float and m["amount"] >= 0
            if m["source"] == "certificate":
                assert m["amount"] in (100.0, 150.0, 250.0, 500.0)
    assert len(method_ids) == len(set(method_ids))  # globally unique
    assert not {"certificate_3221322", "certificate_3221323", "certificate_3221324"} & set(
        method_ids)
    memberships = Counter(u["membership"] for u in users.values())
    assert memberships == {"regular": 143, "silver": 182, "gold": 175}
    sources = Counter(m["source"] for u in users.values() for m in u["payment_methods"].values())
    assert all(sources[s] > 300 for s in ("credit_card", "gift_card", "certificate"))

    # reservations
    assert len(reservations) == 2000
    assert not {"HATHAT", "HATHAU", "HATHAV"} & set(reservations)
    listed = Counter()
    for uid, u in users.items():
        for rid in u["reservations"]:
            assert reservations[rid]["user_id"] == uid
            listed[rid] += 1
    assert set(listed) == set(reservations) and set(listed.values()) == {1}
    assert sum(1 for u in users.values() if not u["reservations"]) >= 20
    kinds = Counter()
    for rid, r in reservations.items():
        assert list(r) == RESERVATION_KEYS and r["reservation_id"] == rid and RID.fullmatch(rid)
        assert r["flight_type"] in ("one_way", "round_trip")
        assert r["cabin"] in CABINS and r["insurance"] in ("yes", "no")
        assert r["status"] in (None, "cancelled")
        assert "2024-04-30T00:00:00" <= r["created_at"] < "2024-05-15T00:00:00"
        assert STAMP.fullmatch(r["created_at"])
        n = len(r["passengers"])
        assert 1 <= n <= 4
        segs = r["flights"]
        kinds[r["flight_type"], len(segs)] += 1
        assert r["created_at"][:10] < segs[0]["date"]
        for s in segs:
            f = flights[s["flight_number"]]
            assert (s["origin"], s["destination"]) == (f["origin"], f["destination"])
            assert s["date"] in f["dates"]
            lo, hi = PRICES[r["cabin"]]
            assert type(s["price"]) is int and lo <= s["price"] <= hi
        # the segments connect and match the trip endpoints
        for a, b in zip(segs, segs[1:]):
            assert a["destination"] == b["origin"] and a["date"] <= b["date"]
        assert segs[0]["origin"] == r["origin"]
        if r["flight_type"] == "one_way":
            assert 1 <= len(segs) <= 2 and segs[-1]["destination"] == r["destination"]
        else:
            assert 2 <= len(segs) <= 4 and segs[-1]["destination"] == r["origin"]
            assert r["destination"] in [s["destination"] for s in segs[:-1]]
        # payments (spec 1.1): booking amount = prices * n + insurance + paid bags
        methods = users[r["user_id"]]["payment_methods"]
        history = r["payment_history"]
        for p in history:
            assert type(p["amount"]) is int
            assert methods[p["payment_id"]]["source"] in ("credit_card", "gift_card")
        paid = [p for p in history if p["amount"] > 0]
        bags_bought = sum(p["amount"] for p in paid[1:])
        assert bags_bought % 50 == 0
        booked_nonfree = r["nonfree_baggages"] - bags_bought // 50
        assert booked_nonfree >= 0
        assert paid[0]["amount"] == (sum(s["price"] for s in segs) * n
                                     + (30 * n if r["insurance"] == "yes" else 0)
                                     + 50 * booked_nonfree)
        assert 0 <= r["nonfree_baggages"] <= r["total_baggages"]
        if r["status"] == "cancelled":
            assert history[len(paid):] == [{"payment_id": p["payment_id"], "amount": -p["amount"]}
                                           for p in paid]
        else:
            assert history == paid
    assert set(kinds) == {("one_way", 1), ("one_way", 2), ("round_trip", 2),
                          ("round_trip", 3), ("round_trip", 4)}
    statuses = Counter(r["status"] for r in reservations.values())
    assert 40 <= statuses["cancelled"] <= 160
    within_24h = sum(r["created_at"] >= "2024-05-14T15:00:00" for r in reservations.values())
    assert within_24h > 5
    flown = sum(r["flights"][0]["date"] < "2024-05-15" for r in reservations.values())
    assert 300 <= flown <= 1000
    passengers = Counter(len(r["passengers"]) for r in reservations.values())
    assert set(passengers) == {1, 2, 3, 4}


@fixed_and_drawn_seeds(0, 1, 2)
def test_generated_data_follows_the_spec(seed):
    check(generate(seed))


@pytest.mark.parametrize("seed", [0, 5])
def test_the_export_gives_back_the_generated_json_byte_for_byte(seed):
    exported = io.export(build_database(DOMAIN, data=db(seed)))
    assert json.dumps(exported) == generated_json("airline", seed)


def test_generated_data_supports_the_tools():
    """Searches find flights, and a booking on a found flight succeeds."""
    data = db(0)
    box = Sandbox(Template(DOMAIN, build_database(DOMAIN, data=data), ("airline", 0)))
    direct = onestop = 0
    for origin, destination in [("JFK", "SFO"), ("ORD", "MIA"), ("SEA", "BOS"),
                                ("DEN", "ATL"), ("LAX", "PHL")]:
        for date in ("2024-05-16", "2024-05-20", "2024-05-25"):
            direct += len(json.loads(box.call("search_direct_flight", {
                "origin": origin, "destination": destination, "date": date}).content))
            onestop += len(json.loads(box.call("search_onestop_flight", {
                "origin": origin, "destination": destination, "date": date}).content))
    assert onestop > 0
    uid, u = next((k, u) for k, u in data["users"].items()
                  if any(m["source"] == "credit_card" for m in u["payment_methods"].values()))
    card = next(m for m, v in u["payment_methods"].items() if v["source"] == "credit_card")
    number, f = next((k, f) for k, f in data["flights"].items()
                     if f["dates"]["2024-05-20"]["available_seats"]["economy"] > 0)
    price = f["dates"]["2024-05-20"]["prices"]["economy"]
    result = box.call("book_reservation", {
        "user_id": uid, "origin": f["origin"], "destination": f["destination"],
        "flight_type": "one_way", "cabin": "economy",
        "flights": [{"flight_number": number, "date": "2024-05-20"}],
        "passengers": [{"first_name": "A", "last_name": "B", "dob": "1990-01-01"}],
        "payment_methods": [{"payment_id": card, "amount": price}],
        "total_baggages": 0, "nonfree_baggages": 0, "insurance": "no"})
    assert result.ok, result.content
    assert box.check_integrity() == []
    del direct
