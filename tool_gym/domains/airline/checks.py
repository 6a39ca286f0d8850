"""Outcome checks of the airline's needs on the final database, and whose data a
call acts on."""

from __future__ import annotations

import sqlite3
from typing import Callable

from .records import PARTS_SQL, fingerprint
from .tools import NEW_CERTIFICATE_IDS, NEW_RESERVATION_IDS, NOW


def _new_payments(db, reservation_id: str, before: int) -> list[tuple]:
    rows = db.execute("SELECT payment_id, amount FROM reservation_payments WHERE "
                      "reservation_id = ? ORDER BY pos", (reservation_id,)).fetchall()
    return [tuple(r) for r in rows[before:]]


def _paid(db, a: dict, amount_key: str) -> bool:
    """The need's payment, when it costs anything, is among the reservation's new ones."""
    if not a[amount_key]:
        return True
    return (a["payment_id"], a[amount_key]) in _new_payments(
        db, a["reservation_id"], a["payments_before"])


def _parts(db, reservation_id: str) -> tuple[list, list, list]:
    """Segments ``(flight, date)``, passengers and payments of a reservation."""
    segs, pax, pays = [], [], []
    for tag, _, x, y, z in db.execute(PARTS_SQL, (reservation_id,)):
        if tag == 0:
            segs.append((x, y))
        elif tag == 1:
            pax.append((x, y, z))
        else:
            pays.append((x, y))
    return segs, pax, pays


def _book_reservation(db, a) -> bool:
    marks = ", ".join("?" * len(NEW_RESERVATION_IDS))
    rows = db.execute(
        "SELECT reservation_id, origin, destination, flight_type, cabin, total_baggages, "
        "nonfree_baggages, insurance, created_at FROM reservations WHERE user_id = ? AND "
        f"reservation_id IN ({marks})", (a["user_id"], *NEW_RESERVATION_IDS)).fetchall()
    want = (a["origin"], a["destination"], a["flight_type"], a["cabin"],
            a["total_baggages"], a["nonfree_baggages"], a["insurance"], NOW)
    flights = [(f["flight_number"], f["date"]) for f in a["flights"]]
    people = sorted((p["first_name"], p["last_name"], p["dob"]) for p in a["passengers"])
    payments = sorted((p["payment_id"], p["amount"]) for p in a["payment_methods"])
    for row in rows:
        if tuple(row[1:]) != want:
            continue
        segs, pax, pays = _parts(db, row[0])
        if segs == flights and sorted(pax) == people and sorted(pays) == payments:
            return True
    return False


def _cancel_reservation(db, a) -> bool:
    row = db.execute("SELECT status FROM reservations WHERE reservation_id = ?",
                     (a["reservation_id"],)).fetchone()
    return row is not None and row[0] == "cancelled"


def _update_flights(db, a) -> bool:
    row = db.execute("SELECT cabin FROM reservations WHERE reservation_id = ?",
                     (a["reservation_id"],)).fetchone()
    if row is None or row[0] != a["cabin"]:
        return False
    segs = db.execute("SELECT flight_number, date, price FROM reservation_flights WHERE "
                      "reservation_id = ? ORDER BY pos", (a["reservation_id"],)).fetchall()
    if [tuple(s) for s in segs] != [tuple(e) for e in a["expected"]]:
        return False
    return _paid(db, a, "difference")


def _add_bags(db, a) -> bool:
    row = db.execute("SELECT total_baggages, nonfree_baggages FROM reservations WHERE "
                     "reservation_id = ?", (a["reservation_id"],)).fetchone()
    if row is None or tuple(row) != (a["total_baggages"], a["nonfree_baggages"]):
        return False
    return _paid(db, a, "cost")


def _change_passengers(db, a) -> bool:
    rows = db.execute("SELECT first_name, last_name, dob FROM reservation_passengers "
                      "WHERE reservation_id = ?", (a["reservation_id"],)).fetchall()
    return sorted(tuple(r) for r in rows) == sorted(
        (p["first_name"], p["last_name"], p["dob"]) for p in a["passengers"])


def _compensation_certificate(db, a) -> bool:
    marks = ", ".join("?" * len(NEW_CERTIFICATE_IDS))
    rows = db.execute("SELECT amount FROM payment_methods WHERE user_id = ? AND "
                      f"source = 'certificate' AND id IN ({marks})",
                      (a["user_id"], *NEW_CERTIFICATE_IDS)).fetchall()
    return any(r[0] is not None and abs(r[0] - a["amount"]) < 1e-9 for r in rows)


def _refused(db, a) -> bool:
    """A refused request left its reservation exactly as it was."""
    return fingerprint(db, a["reservation_id"]) == a["fingerprint"]


#: Constraint type -> whether its outcome holds ``(db, args) -> bool`` (information
#: needs have none: their answer is the outcome).
OUTCOME_CHECKS: dict[str, Callable[[sqlite3.Connection, dict], bool]] = {
    "book_reservation": _book_reservation,
    "cancel_reservation": _cancel_reservation,
    "change_flights": _update_flights,
    "change_cabin": _update_flights,
    "add_bags": _add_bags,
    "change_passengers": _change_passengers,
    "compensation_certificate": _compensation_certificate,
    "refuse_ineligible_cancellation": _refused,
    "refuse_basic_economy_change": _refused,
}

_RESERVATION_OWNER = ("SELECT user_id FROM reservations WHERE reservation_id = ?",
                      "reservation_id")
_USER_OWNER = ("SELECT user_id FROM users WHERE user_id = ?", "user_id")
#: Tool -> ``(sql, argument)``: the user whose data the call acts on.
OWNERS = {
    **dict.fromkeys(("cancel_reservation", "update_reservation_baggages",
                     "update_reservation_flights", "update_reservation_passengers",
                     "get_reservation_details"), _RESERVATION_OWNER),
    **dict.fromkeys(("book_reservation", "send_certificate", "get_user_details"), _USER_OWNER),
}
