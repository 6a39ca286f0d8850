"""Policy-only rules of the airline (spec §3, tagged [policy]) that a write would break.

Each check sees the state before the write runs; names start with ``policy:``.
"""

from __future__ import annotations

import sqlite3
from typing import Callable

from .rules import FLOWN, WITHIN_24H, free_bags, nonfree_after


def _book_reservation(db, a) -> list[str]:
    out = []
    passengers = a.get("passengers")
    payments = a.get("payment_methods")
    if isinstance(passengers, list) and len(passengers) > 5:
        out.append("policy:too_many_passengers")
    user = db.execute("SELECT membership FROM users WHERE user_id = ?",
                      (a.get("user_id"),)).fetchone()
    if user is None:
        return out
    if isinstance(payments, list):
        sources = dict(db.execute("SELECT id, source FROM payment_methods WHERE user_id = ?",
                                  (a["user_id"],)).fetchall())
        used = [sources.get(p.get("payment_id")) for p in payments if isinstance(p, dict)]
        if (used.count("certificate") > 1 or used.count("credit_card") > 1
                or used.count("gift_card") > 3):
            out.append("policy:payment_method_limits")
    if isinstance(passengers, list) and passengers:
        total, nonfree = a.get("total_baggages"), a.get("nonfree_baggages")
        if isinstance(total, (int, float)) and isinstance(nonfree, (int, float)):
            free = free_bags(user[0], a.get("cabin"), len(passengers))
            if nonfree != max(0, total - free):
                out.append("policy:baggage_allowance")
    return out


def _cancel_reservation(db, a) -> list[str]:
    rid = a.get("reservation_id")
    row = db.execute("SELECT created_at, cabin, insurance FROM reservations WHERE "
                     "reservation_id = ?", (rid,)).fetchone()
    if row is None:
        return []
    statuses = [s for (s,) in db.execute(
        "SELECT d.status FROM reservation_flights f LEFT JOIN flight_dates d ON "
        "d.flight_number = f.flight_number AND d.date = f.date WHERE f.reservation_id = ?",
        (rid,))]
    if any(s in FLOWN for s in statuses):
        return ["policy:cancel_flown"]
    created_at, cabin, insurance = row
    if not (created_at >= WITHIN_24H or "cancelled" in statuses or cabin == "business"
            or insurance == "yes"):
        return ["policy:cancel_not_eligible"]
    return []


def _same_trip(db, origin: str, destination: str, flight_type: str,
               wanted: list[tuple]) -> bool | None:
    """Whether the wanted flights keep the trip's endpoints; ``None`` for an unknown flight
    (the tool rejects it) or no flights."""
    routes = []
    for number, _ in wanted:
        r = db.execute("SELECT origin, destination FROM flights WHERE flight_number = ?",
                       (number,)).fetchone()
        if r is None:
            return None
        routes.append(tuple(r))
    if not routes:
        return None
    ends = routes[-1][1]
    if flight_type == "round_trip":
        return (routes[0][0] == origin and ends == origin
                and any(r[1] == destination for r in routes))
    return routes[0][0] == origin and ends == destination


def _update_reservation_flights(db, a) -> list[str]:
    rid = a.get("reservation_id")
    row = db.execute("SELECT origin, destination, flight_type, cabin FROM reservations "
                     "WHERE reservation_id = ?", (rid,)).fetchone()
    flights = a.get("flights")
    if row is None or not isinstance(flights, list):
        return []
    origin, destination, flight_type, cabin = row
    wanted = [(f.get("flight_number"), f.get("date")) for f in flights]
    current = db.execute("SELECT flight_number, date FROM reservation_flights WHERE "
                         "reservation_id = ? ORDER BY pos", (rid,)).fetchall()
    out = []
    if cabin == "basic_economy" and wanted != [tuple(c) for c in current]:
        out.append("policy:basic_economy_change")
    if _same_trip(db, origin, destination, flight_type, wanted) is False:
        out.append("policy:change_origin_or_destination")
    return out


def _update_reservation_baggages(db, a) -> list[str]:
    rid = a.get("reservation_id")
    row = db.execute("SELECT r.total_baggages, r.nonfree_baggages, r.cabin, u.membership, "
                     "(SELECT count(*) FROM reservation_passengers p WHERE "
                     "p.reservation_id = r.reservation_id) FROM reservations r JOIN users u "
                     "ON u.user_id = r.user_id WHERE r.reservation_id = ?", (rid,)).fetchone()
    if row is None:
        return []
    old_total, old_nonfree, cabin, membership, n = row
    total, nonfree = a.get("total_baggages"), a.get("nonfree_baggages")
    if total < old_total or nonfree < old_nonfree:
        return ["policy:remove_bags"]
    expected = nonfree_after(old_total, old_nonfree, total, free_bags(membership, cabin, n))
    if nonfree != expected:
        return ["policy:baggage_allowance"]
    return []


def _send_certificate(db, a) -> list[str]:
    user = db.execute("SELECT membership FROM users WHERE user_id = ?",
                      (a.get("user_id"),)).fetchone()
    if user is None:
        return []
    eligible = []
    for cabin, insurance, n in db.execute(
            "SELECT r.cabin, r.insurance, (SELECT count(*) FROM reservation_passengers p "
            "WHERE p.reservation_id = r.reservation_id) FROM reservations r "
            "WHERE r.user_id = ?", (a["user_id"],)):
        if user[0] in ("silver", "gold") or insurance == "yes" or cabin == "business":
            eligible.append(n)
    if not eligible:
        return ["policy:certificate_not_eligible"]
    amount = a.get("amount")
    if amount not in {k * n for n in eligible for k in (50, 100)}:
        return ["policy:certificate_amount"]
    return []


#: Write tool -> its policy check ``(db, arguments) -> names of the broken rules``.
POLICY_CHECKS: dict[str, Callable[[sqlite3.Connection, dict], list[str]]] = {
    "book_reservation": _book_reservation,
    "cancel_reservation": _cancel_reservation,
    "update_reservation_flights": _update_reservation_flights,
    "update_reservation_baggages": _update_reservation_baggages,
    "send_certificate": _send_certificate,
}


def policy_violations(db: sqlite3.Connection, tool: str, arguments: dict) -> list[str]:
    """The policy-only rules the write would break, judged on the state before it runs."""
    check = POLICY_CHECKS.get(tool)
    if check is None or not isinstance(arguments, dict):
        return []
    try:
        return check(db, arguments)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError, OverflowError,
            sqlite3.Error):
        return []  # malformed arguments: the tool itself rejects them
