"""Airline data <-> the SQLite schema: tau-bench v1's three files and tau2's ``db.json``.

``read(path)`` accepts either a directory with tau-bench's ``flights.json``,
``reservations.json`` and ``users.json`` (users keyed by id, without ``user_id``), or a
tau2-style single ``db.json`` (a file, or a directory holding one). Both become the native
structure ``{"flights": ..., "users": ..., "reservations": ...}`` with ``user_id`` inside
every user, which ``load`` writes into an empty database made from ``schema.sql``.

``export`` rebuilds tau2's structure (the canonical state, spec section 1.2): users with
``user_id``; every reservation with ``status`` (``null`` unless cancelled); each flight date
with only its status's keys; gift card and certificate amounts as floats; seat counts,
prices, payment amounts and baggage counts as ints; maps in source order. ``export_v1``
rebuilds tau-bench's three files byte for byte (v1 key orders, no ``user_id`` inside users,
``status`` only once a reservation is cancelled, integral balances as ints).

The record builders are shared with the tools, so a tool's output and the export are the
same records in the same key order (tau2's declaration order, spec section 2.1).
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

__all__ = [
    "read",
    "load",
    "export",
    "export_v1",
    "CABINS",
    "FLIGHT_DATE_COLUMNS",
    "RESERVATION_COLUMNS",
    "USER_COLUMNS",
    "flight_date_record",
    "payment_method_record",
    "reservation_record",
    "user_record",
]

CABINS = ("basic_economy", "economy", "business")
FLIGHT_STATUSES = ("available", "on time", "delayed", "flying", "landed", "cancelled")
V1_FILES = ("flights.json", "reservations.json", "users.json")
TOP_KEYS = ("flights", "users", "reservations")

#: Keys of a FlightDate after ``status``, by status: (JSON key, column).
_DATE_KEYS: dict[str, tuple[tuple[str, str], ...]] = {
    "available": (),  # seats and prices are handled apart
    "on time": (("estimated_departure_time_est", "est_dep"),
                ("estimated_arrival_time_est", "est_arr")),
    "delayed": (("estimated_departure_time_est", "est_dep"),
                ("estimated_arrival_time_est", "est_arr")),
    "flying": (("actual_departure_time_est", "act_dep"),
               ("estimated_arrival_time_est", "est_arr")),
    "landed": (("actual_departure_time_est", "act_dep"),
               ("actual_arrival_time_est", "act_arr")),
    "cancelled": (),
}

#: Columns of ``flight_dates`` that ``flight_date_record`` expects, in this order.
FLIGHT_DATE_COLUMNS = (
    "status, seats_basic_economy, seats_economy, seats_business, price_basic_economy, "
    "price_economy, price_business, est_dep, est_arr, act_dep, act_arr"
)
#: Columns of ``reservations`` that ``reservation_record`` expects, in this order.
RESERVATION_COLUMNS = (
    "reservation_id, user_id, origin, destination, flight_type, cabin, created_at, "
    "total_baggages, nonfree_baggages, insurance, status"
)
#: Columns of ``users`` that ``user_record`` expects, in this order.
USER_COLUMNS = (
    "user_id, first_name, last_name, address1, address2, city, country, state, zip, email, "
    "dob, membership"
)


# ----------------------------------------------------------------------------- read


def _read_json(path: Path) -> Any:
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def read(path: str | Path) -> dict:
    """The native structure of the airline data at ``path``.

    ``path`` is a tau-bench v1 directory (``flights.json``, ``reservations.json``,
    ``users.json``), a tau2 ``db.json`` file, or a directory holding a ``db.json``.
    """
    path = Path(path)
    if path.is_dir():
        if all((path / name).is_file() for name in V1_FILES):
            flights = _read_json(path / "flights.json")
            reservations = _read_json(path / "reservations.json")
            users = _read_json(path / "users.json")
            if not isinstance(users, dict):
                raise ValueError(f"{path / 'users.json'}: expected a JSON object keyed by user id")
            users = {key: {"user_id": key, **user} for key, user in users.items()}
            return {"flights": flights, "users": users, "reservations": reservations}
        if (path / "db.json").is_file():
            path = path / "db.json"
        else:
            raise FileNotFoundError(
                f"{path}: expected tau-bench's {', '.join(V1_FILES)} or tau2's db.json")
    data = _read_json(path)
    if not isinstance(data, dict):
        raise ValueError(f"{path}: expected a JSON object")
    return data


# ----------------------------------------------------------------------------- load


def _int(value: Any, where: str) -> int:
    """An integer as tau2's models accept it (an integral float counts as an int)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"{where}: expected an integer, got {value!r}")
    if isinstance(value, float):
        if not value.is_integer():
            raise ValueError(f"{where}: expected an integer, got {value!r}")
        return int(value)
    return value


def _number(value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"{where}: expected a number, got {value!r}")
    return float(value)


def _str(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise ValueError(f"{where}: expected a string, got {value!r}")
    return value


def _check_key(key: str, record_id: Any, where: str) -> None:
    if key != record_id:
        raise ValueError(f"{where}: map key {key!r} differs from the record's id {record_id!r}")


def _map(value: Any, where: str) -> dict:
    if not isinstance(value, dict):
        raise ValueError(f"{where}: expected a JSON object, got {type(value).__name__}")
    return value


def _list(value: Any, where: str) -> list:
    if not isinstance(value, list):
        raise ValueError(f"{where}: expected a JSON array, got {type(value).__name__}")
    return value


def _passenger(p: Any, where: str) -> tuple[str, str, str]:
    p = _map(p, where)
    return (_str(p["first_name"], f"{where}.first_name"),
            _str(p["last_name"], f"{where}.last_name"),
            _str(p["dob"], f"{where}.dob"))


def load(db: sqlite3.Connection, data: dict) -> None:
    """Write the native structure into an empty airline database (no commit).

    Users may omit ``user_id`` (taken from the key); reservations may omit ``status``.
    Unknown top-level keys are rejected; unknown keys inside records are ignored.
    """
    data = _map(data, "airline data")
    unknown = sorted(set(data) - set(TOP_KEYS))
    if unknown:
        raise ValueError(f"airline data: unknown top-level keys {unknown}")
    flights = _map(data["flights"], "flights")
    users = _map(data["users"], "users")
    reservations = _map(data["reservations"], "reservations")

    flight_rows, date_rows = [], []
    for i, (key, f) in enumerate(flights.items()):
        number = f["flight_number"]
        _check_key(key, number, "flights")
        flight_rows.append((number, _str(f["origin"], f"{key}.origin"),
                            _str(f["destination"], f"{key}.destination"),
                            _str(f["scheduled_departure_time_est"], f"{key} departure"),
                            _str(f["scheduled_arrival_time_est"], f"{key} arrival"), i))
        for j, (date, d) in enumerate(_map(f["dates"], f"{key}.dates").items()):
            where = f"flight {key} date {date}"
            status = d["status"]
            if status not in FLIGHT_STATUSES:
                raise ValueError(f"{where}: unknown status {status!r}")
            seats = prices = (None, None, None)
            times = {"est_dep": None, "est_arr": None, "act_dep": None, "act_arr": None}
            if status == "available":
                s, p = _map(d["available_seats"], where), _map(d["prices"], where)
                seats = tuple(_int(s[c], f"{where} seats {c}") for c in CABINS)
                prices = tuple(_int(p[c], f"{where} price {c}") for c in CABINS)
            for json_key, column in _DATE_KEYS[status]:
                times[column] = _str(d[json_key], f"{where} {json_key}")
            date_rows.append((number, _str(date, where), status, *seats, *prices,
                              times["est_dep"], times["est_arr"], times["act_dep"],
                              times["act_arr"], j))

    user_rows, method_rows, saved_rows, user_res_rows = [], [], [], []
    for i, (key, u) in enumerate(users.items()):
        uid = u.get("user_id", key)
        _check_key(key, uid, "users")
        name, a = _map(u["name"], f"user {key} name"), _map(u["address"], f"user {key} address")
        membership = u["membership"]
        if membership not in ("regular", "silver", "gold"):
            raise ValueError(f"user {key}: unknown membership {membership!r}")
        address2 = a.get("address2")
        user_rows.append((uid, _str(name["first_name"], f"user {key}"),
                          _str(name["last_name"], f"user {key}"),
                          _str(a["address1"], f"user {key} address1"),
                          None if address2 is None else _str(address2, f"user {key} address2"),
                          _str(a["city"], f"user {key} city"),
                          _str(a["country"], f"user {key} country"),
                          _str(a["state"], f"user {key} state"), _str(a["zip"], f"user {key} zip"),
                          _str(u["email"], f"user {key} email"), _str(u["dob"], f"user {key} dob"),
                          membership, i))
        for j, (mkey, m) in enumerate(_map(u["payment_methods"], f"user {key}").items()):
            _check_key(mkey, m["id"], f"users[{uid}].payment_methods")
            source = m["source"]
            if source == "credit_card":
                method_rows.append((uid, mkey, source, _str(m["brand"], mkey),
                                    _str(m["last_four"], mkey), None, j))
            elif source in ("gift_card", "certificate"):
                method_rows.append((uid, mkey, source, None, None,
                                    _number(m["amount"], f"{mkey} amount"), j))
            else:
                raise ValueError(f"payment method {mkey}: unknown source {source!r}")
        for pos, p in enumerate(_list(u["saved_passengers"], f"user {key} saved_passengers")):
            saved_rows.append((uid, pos, *_passenger(p, f"user {key} saved passenger {pos}")))
        for pos, rid in enumerate(_list(u["reservations"], f"user {key} reservations")):
            user_res_rows.append((uid, pos, _str(rid, f"user {key} reservations")))

    res_rows, seg_rows, pax_rows, pay_rows = [], [], [], []
    for i, (key, r) in enumerate(reservations.items()):
        rid = r["reservation_id"]
        _check_key(key, rid, "reservations")
        status = r.get("status")
        if status not in (None, "cancelled"):
            raise ValueError(f"reservation {rid}: unknown status {status!r}")
        res_rows.append((rid, _str(r["user_id"], rid), _str(r["origin"], rid),
                         _str(r["destination"], rid), r["flight_type"], r["cabin"],
                         _str(r["created_at"], rid),
                         _int(r["total_baggages"], f"{rid} total_baggages"),
                         _int(r["nonfree_baggages"], f"{rid} nonfree_baggages"),
                         r["insurance"], status, i))
        for pos, s in enumerate(_list(r["flights"], f"{rid} flights")):
            seg_rows.append((rid, pos, _str(s["flight_number"], rid), _str(s["origin"], rid),
                             _str(s["destination"], rid), _str(s["date"], rid),
                             _int(s["price"], f"{rid} segment price")))
        for pos, p in enumerate(_list(r["passengers"], f"{rid} passengers")):
            pax_rows.append((rid, pos, *_passenger(p, f"{rid} passenger {pos}")))
        for pos, p in enumerate(_list(r["payment_history"], f"{rid} payment_history")):
            pay_rows.append((rid, pos, _str(p["payment_id"], rid),
                             _int(p["amount"], f"{rid} payment amount")))

    ex = db.executemany
    ex("INSERT INTO flights (flight_number, origin, destination, sched_dep, sched_arr, ord) "
       "VALUES (?, ?, ?, ?, ?, ?)", flight_rows)
    ex(f"INSERT INTO flight_dates (flight_number, date, {FLIGHT_DATE_COLUMNS}, ord) "
       "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", date_rows)
    ex("INSERT INTO users (user_id, first_name, last_name, address1, address2, city, country, "
       "state, zip, email, dob, membership, ord) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
       user_rows)
    ex("INSERT INTO payment_methods (user_id, id, source, brand, last_four, amount, ord) "
       "VALUES (?, ?, ?, ?, ?, ?, ?)", method_rows)
    ex("INSERT INTO saved_passengers (user_id, pos, first_name, last_name, dob) "
       "VALUES (?, ?, ?, ?, ?)", saved_rows)
    ex(f"INSERT INTO reservations ({RESERVATION_COLUMNS}, ord) "
       "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", res_rows)
    ex("INSERT INTO user_reservations (user_id, pos, reservation_id) VALUES (?, ?, ?)",
       user_res_rows)
    ex("INSERT INTO reservation_flights (reservation_id, pos, flight_number, origin, "
       "destination, date, price) VALUES (?, ?, ?, ?, ?, ?, ?)", seg_rows)
    ex("INSERT INTO reservation_passengers (reservation_id, pos, first_name, last_name, dob) "
       "VALUES (?, ?, ?, ?, ?)", pax_rows)
    ex("INSERT INTO reservation_payments (reservation_id, pos, payment_id, amount) "
       "VALUES (?, ?, ?, ?)", pay_rows)


# ------------------------------------------------------------------ record builders


def _v1_amount(amount: float) -> int | float:
    """tau-bench stores integral balances as ints."""
    return int(amount) if amount.is_integer() else amount


def flight_date_record(row: tuple) -> dict:
    """A FlightDate from a ``FLIGHT_DATE_COLUMNS`` row: only the keys of its status."""
    status, sb, se, sbu, pb, pe, pbu, est_dep, est_arr, act_dep, act_arr = row
    if status == "available":
        return {"status": status,
                "available_seats": {"basic_economy": sb, "economy": se, "business": sbu},
                "prices": {"basic_economy": pb, "economy": pe, "business": pbu}}
    if status in ("on time", "delayed"):
        return {"status": status, "estimated_departure_time_est": est_dep,
                "estimated_arrival_time_est": est_arr}
    if status == "flying":
        return {"status": status, "actual_departure_time_est": act_dep,
                "estimated_arrival_time_est": est_arr}
    if status == "landed":
        return {"status": status, "actual_departure_time_est": act_dep,
                "actual_arrival_time_est": act_arr}
    return {"status": status}


def payment_method_record(source: str, method_id: str, brand: Any, last_four: Any,
                          amount: Any, v1: bool = False) -> dict:
    """A PaymentMethod in tau2's key order (tau-bench's with ``v1``)."""
    if source == "credit_card":
        if v1:
            return {"source": source, "brand": brand, "last_four": last_four, "id": method_id}
        return {"source": source, "id": method_id, "brand": brand, "last_four": last_four}
    if v1:
        return {"source": source, "amount": _v1_amount(amount), "id": method_id}
    return {"source": source, "id": method_id, "amount": amount}


def user_record(row: tuple, methods: dict, saved: list, reservations: list,
                v1: bool = False) -> dict:
    """A User from a ``USER_COLUMNS`` row (tau-bench's layout, without user_id, with ``v1``)."""
    user_id, first, last, a1, a2, city, country, state, zip_, email, dob, membership = row
    record = {} if v1 else {"user_id": user_id}
    record.update({
        "name": {"first_name": first, "last_name": last},
        "address": {"address1": a1, "address2": a2, "city": city, "country": country,
                    "state": state, "zip": zip_},
        "email": email,
        "dob": dob,
        "payment_methods": methods,
        "saved_passengers": saved,
        "membership": membership,
        "reservations": reservations,
    })
    return record


def reservation_record(row: tuple, flights: list, passengers: list, payments: list,
                       v1: bool = False) -> dict:
    """A Reservation from a ``RESERVATION_COLUMNS`` row and its built lists.

    tau2 always has ``status``; tau-bench (``v1``) only once the reservation is cancelled.
    """
    (rid, user_id, origin, destination, flight_type, cabin, created_at, total_bags,
     nonfree_bags, insurance, status) = row
    record = {
        "reservation_id": rid,
        "user_id": user_id,
        "origin": origin,
        "destination": destination,
        "flight_type": flight_type,
        "cabin": cabin,
        "flights": flights,
        "passengers": passengers,
        "payment_history": payments,
        "created_at": created_at,
        "total_baggages": total_bags,
        "nonfree_baggages": nonfree_bags,
        "insurance": insurance,
    }
    if not v1 or status is not None:
        record["status"] = status
    return record


def segment_record(flight_number: str, origin: str, destination: str, date: str, price: int,
                   v1: bool = False) -> dict:
    """A reservation segment in tau2's key order (tau-bench's with ``v1``)."""
    if v1:
        return {"origin": origin, "destination": destination, "flight_number": flight_number,
                "date": date, "price": price}
    return {"flight_number": flight_number, "origin": origin, "destination": destination,
            "date": date, "price": price}


# ---------------------------------------------------------------------------- export


def _grouped(rows) -> dict:
    groups: dict = {}
    for row in rows:
        key = row[0]
        group = groups.get(key)
        if group is None:
            group = groups[key] = []
        group.append(row[1:])
    return groups


def _export(db: sqlite3.Connection, v1: bool) -> dict:
    ex = db.execute

    dates = _grouped(ex(f"SELECT flight_number, date, {FLIGHT_DATE_COLUMNS} FROM flight_dates "
                        "ORDER BY flight_number, ord"))
    flights = {}
    for number, origin, destination, dep, arr in ex(
            "SELECT flight_number, origin, destination, sched_dep, sched_arr FROM flights "
            "ORDER BY ord"):
        flights[number] = {
            "flight_number": number, "origin": origin, "destination": destination,
            "scheduled_departure_time_est": dep, "scheduled_arrival_time_est": arr,
            "dates": {row[0]: flight_date_record(row[1:]) for row in dates.get(number, ())},
        }

    methods: dict[str, dict] = {}
    for uid, mid, source, brand, last_four, amount in ex(
            "SELECT user_id, id, source, brand, last_four, amount FROM payment_methods "
            "ORDER BY user_id, ord"):
        group = methods.get(uid)
        if group is None:
            group = methods[uid] = {}
        group[mid] = payment_method_record(source, mid, brand, last_four, amount, v1)
    saved = _grouped(ex("SELECT user_id, first_name, last_name, dob FROM saved_passengers "
                        "ORDER BY user_id, pos"))
    user_res = _grouped(ex("SELECT user_id, reservation_id FROM user_reservations "
                           "ORDER BY user_id, pos"))
    users = {}
    for row in ex(f"SELECT {USER_COLUMNS} FROM users ORDER BY ord"):
        uid = row[0]
        users[uid] = user_record(
            row, methods.get(uid, {}),
            [{"first_name": f, "last_name": l, "dob": d} for f, l, d in saved.get(uid, ())],
            [r for (r,) in user_res.get(uid, ())], v1)

    segments = _grouped(ex("SELECT reservation_id, flight_number, origin, destination, date, "
                           "price FROM reservation_flights ORDER BY reservation_id, pos"))
    passengers = _grouped(ex("SELECT reservation_id, first_name, last_name, dob "
                             "FROM reservation_passengers ORDER BY reservation_id, pos"))
    payments = _grouped(ex("SELECT reservation_id, payment_id, amount FROM reservation_payments "
                           "ORDER BY reservation_id, pos"))
    reservations = {}
    for row in ex(f"SELECT {RESERVATION_COLUMNS} FROM reservations ORDER BY ord"):
        rid = row[0]
        reservations[rid] = reservation_record(
            row,
            [segment_record(*s, v1=v1) for s in segments.get(rid, ())],
            [{"first_name": f, "last_name": l, "dob": d} for f, l, d in passengers.get(rid, ())],
            [{"payment_id": p, "amount": a} for p, a in payments.get(rid, ())], v1)

    return {"flights": flights, "users": users, "reservations": reservations}


def export(db: sqlite3.Connection) -> dict:
    """The whole state in tau2's airline ``db.json`` structure (the canonical state)."""
    return _export(db, v1=False)


def export_v1(db: sqlite3.Connection) -> dict:
    """The whole state as tau-bench's three files:
    ``{"flights": ..., "reservations": ..., "users": ...}`` (one dict per file name stem)."""
    data = _export(db, v1=True)
    return {"flights": data["flights"], "reservations": data["reservations"],
            "users": data["users"]}
