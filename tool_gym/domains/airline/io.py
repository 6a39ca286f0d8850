"""Airline data <-> the SQLite schema: tau-bench v1's three files and tau2's ``db.json``.

Formats, export rules and key orders: ``docs/airline-data.md``.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from ...core.json_fields import (
    as_int,
    as_list,
    as_map,
    as_number,
    as_str,
    check_key,
)
from ...core.tables import child_rows, load_records, read_json
from ...core.tau2_records import address_record, name_record

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


def read(path: str | Path) -> dict:
    """The native structure of the airline data at ``path``.

    ``path`` is a tau-bench v1 directory (``flights.json``, ``reservations.json``,
    ``users.json``), a tau2 ``db.json`` file, or a directory holding a ``db.json``.
    """
    path = Path(path)
    if path.is_dir():
        if all((path / name).is_file() for name in V1_FILES):
            return _read_v1(path)
        if not (path / "db.json").is_file():
            raise FileNotFoundError(
                f"{path}: expected tau-bench's {', '.join(V1_FILES)} or tau2's db.json")
        path = path / "db.json"
    data = read_json(path)
    if not isinstance(data, dict):
        raise ValueError(f"{path}: expected a JSON object")
    return data


def _read_v1(path: Path) -> dict:
    flights = read_json(path / "flights.json")
    reservations = read_json(path / "reservations.json")
    users = read_json(path / "users.json")
    if not isinstance(users, dict):
        raise ValueError(f"{path / 'users.json'}: expected a JSON object keyed by user id")
    users = {key: {"user_id": key, **user} for key, user in users.items()}
    return {"flights": flights, "users": users, "reservations": reservations}


# ----------------------------------------------------------------------------- load


def _names(columns: str) -> tuple[str, ...]:
    return tuple(columns.split(", "))


#: The tables ``load`` fills, in insert order, with the columns of their rows.
_LOAD_COLUMNS = {
    "flights": ("flight_number", "origin", "destination", "sched_dep", "sched_arr", "ord"),
    "flight_dates": ("flight_number", "date", *_names(FLIGHT_DATE_COLUMNS), "ord"),
    "users": (*_names(USER_COLUMNS), "ord"),
    "payment_methods": ("user_id", "id", "source", "brand", "last_four", "amount", "ord"),
    "saved_passengers": ("user_id", "pos", "first_name", "last_name", "dob"),
    "reservations": (*_names(RESERVATION_COLUMNS), "ord"),
    "user_reservations": ("user_id", "pos", "reservation_id"),
    "reservation_flights": ("reservation_id", "pos", "flight_number", "origin", "destination",
                            "date", "price"),
    "reservation_passengers": ("reservation_id", "pos", "first_name", "last_name", "dob"),
    "reservation_payments": ("reservation_id", "pos", "payment_id", "amount"),
}


def load(db: sqlite3.Connection, data: dict) -> None:
    """Write the native structure into an empty airline database (no commit).

    Users may omit ``user_id`` (taken from the key); reservations may omit ``status``.
    Unknown top-level keys are rejected; unknown keys inside records are ignored. Every
    record is checked before the first row is written.
    """
    data = as_map(data, "airline data")
    unknown = sorted(set(data) - set(TOP_KEYS))
    if unknown:
        raise ValueError(f"airline data: unknown top-level keys {unknown}")
    flights, users, reservations = (as_map(data[key], key) for key in TOP_KEYS)
    load_records(db, _LOAD_COLUMNS, ((flights, _add_flight), (users, _add_user),
                                     (reservations, _add_reservation)))


def _passenger(p: Any, where: str) -> tuple[str, str, str]:
    p = as_map(p, where)
    return (as_str(p["first_name"], f"{where}.first_name"),
            as_str(p["last_name"], f"{where}.last_name"),
            as_str(p["dob"], f"{where}.dob"))


def _add_flight(rows: dict[str, list], i: int, key: str, f: dict) -> None:
    number = f["flight_number"]
    check_key(key, number, "flights")
    rows["flights"].append((number, as_str(f["origin"], f"{key}.origin"),
                            as_str(f["destination"], f"{key}.destination"),
                            as_str(f["scheduled_departure_time_est"], f"{key} departure"),
                            as_str(f["scheduled_arrival_time_est"], f"{key} arrival"), i))
    for j, (date, d) in enumerate(as_map(f["dates"], f"{key}.dates").items()):
        rows["flight_dates"].append(_flight_date_row(number, key, j, date, d))


def _flight_date_row(number: str, key: str, j: int, date: str, d: dict) -> tuple:
    where = f"flight {key} date {date}"
    status = d["status"]
    if status not in FLIGHT_STATUSES:
        raise ValueError(f"{where}: unknown status {status!r}")
    seats = prices = (None, None, None)
    times = {"est_dep": None, "est_arr": None, "act_dep": None, "act_arr": None}
    if status == "available":
        s, p = as_map(d["available_seats"], where), as_map(d["prices"], where)
        seats = tuple(as_int(s[c], f"{where} seats {c}") for c in CABINS)
        prices = tuple(as_int(p[c], f"{where} price {c}") for c in CABINS)
    for json_key, column in _DATE_KEYS[status]:
        times[column] = as_str(d[json_key], f"{where} {json_key}")
    return (number, as_str(date, where), status, *seats, *prices, times["est_dep"],
            times["est_arr"], times["act_dep"], times["act_arr"], j)


def _add_user(rows: dict[str, list], i: int, key: str, u: dict) -> None:
    uid = u.get("user_id", key)
    check_key(key, uid, "users")
    name, a = as_map(u["name"], f"user {key} name"), as_map(u["address"], f"user {key} address")
    membership = u["membership"]
    if membership not in ("regular", "silver", "gold"):
        raise ValueError(f"user {key}: unknown membership {membership!r}")
    address2 = a.get("address2")
    where = f"user {key}"
    rows["users"].append((
        uid, as_str(name["first_name"], where), as_str(name["last_name"], where),
        as_str(a["address1"], f"{where} address1"),
        None if address2 is None else as_str(address2, f"{where} address2"),
        as_str(a["city"], f"{where} city"), as_str(a["country"], f"{where} country"),
        as_str(a["state"], f"{where} state"), as_str(a["zip"], f"{where} zip"),
        as_str(u["email"], f"{where} email"), as_str(u["dob"], f"{where} dob"), membership, i))
    for j, (mkey, m) in enumerate(as_map(u["payment_methods"], where).items()):
        rows["payment_methods"].append(_payment_method_row(uid, j, mkey, m))
    for pos, p in enumerate(as_list(u["saved_passengers"], f"{where} saved_passengers")):
        rows["saved_passengers"].append(
            (uid, pos, *_passenger(p, f"{where} saved passenger {pos}")))
    for pos, rid in enumerate(as_list(u["reservations"], f"{where} reservations")):
        rows["user_reservations"].append((uid, pos, as_str(rid, f"{where} reservations")))


def _payment_method_row(uid: str, j: int, mkey: str, m: dict) -> tuple:
    check_key(mkey, m["id"], f"users[{uid}].payment_methods")
    source = m["source"]
    if source == "credit_card":
        return (uid, mkey, source, as_str(m["brand"], mkey), as_str(m["last_four"], mkey),
                None, j)
    if source in ("gift_card", "certificate"):
        return (uid, mkey, source, None, None, as_number(m["amount"], f"{mkey} amount"), j)
    raise ValueError(f"payment method {mkey}: unknown source {source!r}")


def _add_reservation(rows: dict[str, list], i: int, key: str, r: dict) -> None:
    rid = r["reservation_id"]
    check_key(key, rid, "reservations")
    status = r.get("status")
    if status not in (None, "cancelled"):
        raise ValueError(f"reservation {rid}: unknown status {status!r}")
    rows["reservations"].append((
        rid, as_str(r["user_id"], rid), as_str(r["origin"], rid),
        as_str(r["destination"], rid), r["flight_type"], r["cabin"],
        as_str(r["created_at"], rid), as_int(r["total_baggages"], f"{rid} total_baggages"),
        as_int(r["nonfree_baggages"], f"{rid} nonfree_baggages"), r["insurance"], status, i))
    for pos, s in enumerate(as_list(r["flights"], f"{rid} flights")):
        rows["reservation_flights"].append((
            rid, pos, as_str(s["flight_number"], rid), as_str(s["origin"], rid),
            as_str(s["destination"], rid), as_str(s["date"], rid),
            as_int(s["price"], f"{rid} segment price")))
    for pos, p in enumerate(as_list(r["passengers"], f"{rid} passengers")):
        rows["reservation_passengers"].append((rid, pos, *_passenger(p, f"{rid} passenger {pos}")))
    for pos, p in enumerate(as_list(r["payment_history"], f"{rid} payment_history")):
        rows["reservation_payments"].append((rid, pos, as_str(p["payment_id"], rid),
                                             as_int(p["amount"], f"{rid} payment amount")))


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
        "name": name_record(first, last),
        "address": address_record(a1, a2, city, country, state, zip_),
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


def _export(db: sqlite3.Connection, v1: bool) -> dict:
    return {"flights": _export_flights(db), "users": _export_users(db, v1),
            "reservations": _export_reservations(db, v1)}


def _export_flights(db: sqlite3.Connection) -> dict:
    dates = child_rows(db, "flight_dates", "flight_number", f"date, {FLIGHT_DATE_COLUMNS}",
                       order="ord")
    return {number: {
        "flight_number": number, "origin": origin, "destination": destination,
        "scheduled_departure_time_est": dep, "scheduled_arrival_time_est": arr,
        "dates": {row[0]: flight_date_record(row[1:]) for row in dates.get(number, ())},
    } for number, origin, destination, dep, arr in db.execute(
        "SELECT flight_number, origin, destination, sched_dep, sched_arr FROM flights "
        "ORDER BY ord")}


def _people(rows) -> list[dict]:
    return [{"first_name": f, "last_name": l, "dob": d} for f, l, d in rows]


def _export_users(db: sqlite3.Connection, v1: bool) -> dict:
    methods = child_rows(db, "payment_methods", "user_id",
                         "id, source, brand, last_four, amount", order="ord")
    saved = child_rows(db, "saved_passengers", "user_id", "first_name, last_name, dob")
    user_res = child_rows(db, "user_reservations", "user_id", "reservation_id")
    users = {}
    for row in db.execute(f"SELECT {USER_COLUMNS} FROM users ORDER BY ord"):
        uid = row[0]
        own_methods = {mid: payment_method_record(source, mid, brand, last_four, amount, v1)
                       for mid, source, brand, last_four, amount in methods.get(uid, ())}
        users[uid] = user_record(row, own_methods, _people(saved.get(uid, ())),
                                 [r for (r,) in user_res.get(uid, ())], v1)
    return users


def _export_reservations(db: sqlite3.Connection, v1: bool) -> dict:
    segments = child_rows(db, "reservation_flights", "reservation_id",
                          "flight_number, origin, destination, date, price")
    passengers = child_rows(db, "reservation_passengers", "reservation_id",
                            "first_name, last_name, dob")
    payments = child_rows(db, "reservation_payments", "reservation_id", "payment_id, amount")
    reservations = {}
    for row in db.execute(f"SELECT {RESERVATION_COLUMNS} FROM reservations ORDER BY ord"):
        rid = row[0]
        reservations[rid] = reservation_record(
            row, [segment_record(*s, v1=v1) for s in segments.get(rid, ())],
            _people(passengers.get(rid, ())),
            [{"payment_id": p, "amount": a} for p, a in payments.get(rid, ())], v1)
    return reservations


def export(db: sqlite3.Connection) -> dict:
    """The whole state in tau2's airline ``db.json`` structure (the canonical state)."""
    return _export(db, v1=False)


def export_v1(db: sqlite3.Connection) -> dict:
    """The whole state as tau-bench's three files:
    ``{"flights": ..., "reservations": ..., "users": ...}`` (one dict per file name stem)."""
    data = _export(db, v1=True)
    return {"flights": data["flights"], "reservations": data["reservations"],
            "users": data["users"]}
