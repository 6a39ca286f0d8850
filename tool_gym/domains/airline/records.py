"""Views of one airline user's rows (reservations, flights, passengers, payment methods),
read with a few indexed queries, and a reservation's fingerprint."""

from __future__ import annotations

import hashlib
import sqlite3
from dataclasses import dataclass

from .rules import FLOWN

_USER_SQL = (
    "SELECT u.first_name, u.last_name, u.dob, u.membership, p.id, p.source, p.brand, "
    "p.last_four, p.amount FROM users u LEFT JOIN payment_methods p ON p.user_id = u.user_id "
    "WHERE u.user_id = ? ORDER BY p.ord, p.id")
_RESERVATIONS_SQL = (
    "SELECT r.reservation_id, r.origin, r.destination, r.flight_type, r.cabin, r.created_at, "
    "r.total_baggages, r.nonfree_baggages, r.insurance, r.status, "
    "f.flight_number, f.origin, f.destination, f.date, f.price, d.status, "
    "d.seats_basic_economy, d.seats_economy, d.seats_business, "
    "d.price_basic_economy, d.price_economy, d.price_business "
    "FROM reservations r LEFT JOIN reservation_flights f ON f.reservation_id = r.reservation_id "
    "LEFT JOIN flight_dates d ON d.flight_number = f.flight_number AND d.date = f.date "
    "WHERE r.user_id = ? ORDER BY r.ord, r.reservation_id, f.pos")
_PASSENGERS_SQL = (
    "SELECT p.reservation_id, p.first_name, p.last_name, p.dob FROM reservations r "
    "JOIN reservation_passengers p ON p.reservation_id = r.reservation_id "
    "WHERE r.user_id = ? ORDER BY r.ord, r.reservation_id, p.pos")
#: Segments, passengers and payments of a reservation (tagged 0, 1, 2), in list order.
PARTS_SQL = (
    "SELECT 0, pos, flight_number, date, price FROM reservation_flights "
    "WHERE reservation_id = ?1 "
    "UNION ALL SELECT 1, pos, first_name, last_name, dob FROM reservation_passengers "
    "WHERE reservation_id = ?1 "
    "UNION ALL SELECT 2, pos, payment_id, amount, NULL FROM reservation_payments "
    "WHERE reservation_id = ?1 ORDER BY 1, 2")


def fingerprint(db: sqlite3.Connection, reservation_id: str) -> str:
    """A digest of everything a write could change on a reservation."""
    row = db.execute("SELECT status, cabin, total_baggages, nonfree_baggages, insurance, "
                     "flight_type, origin, destination FROM reservations "
                     "WHERE reservation_id = ?", (reservation_id,)).fetchone()
    parts = db.execute(PARTS_SQL, (reservation_id,)).fetchall()
    return hashlib.sha1(repr((row, parts)).encode()).hexdigest()


class Segment:
    """One flight of a reservation, with its date's status, seats and prices per cabin."""

    __slots__ = ("flight_number", "origin", "destination", "date", "price", "status",
                 "seats", "prices")

    def __init__(self, row):
        (self.flight_number, self.origin, self.destination, self.date, self.price,
         self.status) = row[:6]
        self.seats = row[6:9]
        self.prices = row[9:12]


class Reservation:
    __slots__ = ("reservation_id", "origin", "destination", "flight_type", "cabin",
                 "created_at", "total_bags", "nonfree", "insurance", "status", "segs",
                 "passengers", "_payments", "_db")

    def __init__(self, db, row):
        self._db = db
        (self.reservation_id, self.origin, self.destination, self.flight_type, self.cabin,
         self.created_at, self.total_bags, self.nonfree, self.insurance, self.status) = row
        self.segs: list[Segment] = []
        self.passengers: list[tuple[str, str, str]] = []
        self._payments = None

    @property
    def n(self) -> int:
        return len(self.passengers)

    @property
    def key(self) -> tuple | None:
        """``(origin, destination, date of the first flight)``: how the user names it."""
        return (self.origin, self.destination, self.segs[0].date) if self.segs else None

    @property
    def flown(self) -> bool:
        return any(s.status in FLOWN for s in self.segs)

    @property
    def upcoming(self) -> bool:
        """Every flight still bookable (so nothing flown)."""
        return bool(self.segs) and all(s.status == "available" for s in self.segs)

    @property
    def airline_cancelled(self) -> bool:
        return any(s.status == "cancelled" for s in self.segs)

    @property
    def payments(self) -> list[tuple[str, int]]:
        if self._payments is None:
            self._payments = self._db.execute(
                "SELECT payment_id, amount FROM reservation_payments WHERE reservation_id = ? "
                "ORDER BY pos", (self.reservation_id,)).fetchall()
        return self._payments

    def legs(self) -> list[tuple[str, list[int]]]:
        """``(name, segment indices)`` of each direction of the trip."""
        idx = list(range(len(self.segs)))
        if self.flight_type != "round_trip":
            return [("outbound", idx)]
        turn = next((i for i, s in enumerate(self.segs) if s.destination == self.destination),
                    None)
        if turn is None or turn == len(self.segs) - 1:
            return [("outbound", idx)]
        return [("outbound", idx[:turn + 1]), ("return", idx[turn + 1:])]


@dataclass(frozen=True, slots=True)
class Method:
    """A saved payment method (``amount``: a gift card's balance, a certificate's value)."""

    id: str
    source: str
    brand: str | None
    last_four: str | None
    amount: float | None


class UserRecords:
    """One user's rows, and the bookkeeping that keeps the constraints of one task apart."""

    def __init__(self, db: sqlite3.Connection, user_id: str):
        self.user_id = user_id
        rows = db.execute(_USER_SQL, (user_id,)).fetchall()
        self.first_name, self.last_name, self.dob, self.membership = rows[0][:4]
        self.methods = [Method(*r[4:]) for r in rows if r[4] is not None]
        self.saved = db.execute("SELECT first_name, last_name, dob FROM saved_passengers "
                                "WHERE user_id = ? ORDER BY pos", (user_id,)).fetchall()
        self.reservations: list[Reservation] = []
        by_id: dict[str, Reservation] = {}
        for r in db.execute(_RESERVATIONS_SQL, (user_id,)):
            res = by_id.get(r[0])
            if res is None:
                res = by_id[r[0]] = Reservation(db, r[:10])
                self.reservations.append(res)
            if r[10] is not None:
                res.segs.append(Segment(r[10:]))
        for rid, first, last, dob in db.execute(_PASSENGERS_SQL, (user_id,)):
            by_id[rid].passengers.append((first, last, dob))
        self.by_id = by_id
        self.keys: list[tuple] = [r.key for r in self.reservations if r.key is not None]
        self.method_descriptions: dict = {}  # method id -> Description | None (a cache)
        # bookkeeping of the constraints drawn so far
        self.used_reservations: set[str] = set()
        self.used_gift_cards: set[str] = set()
        self.flight_keys: set[tuple] = set()   # (origin, destination, date) referred to
        self.seats_taken: dict[tuple, int] = {}  # (flight, date, cabin) -> seats booked
        self.booked = False
        self.compensated = False
        self.certificate_described = False

    def take_seats(self, flight_number: str, date: str, cabin: int, n: int) -> None:
        seat = (flight_number, date, cabin)
        self.seats_taken[seat] = self.seats_taken.get(seat, 0) + n

    def seats_left(self, flight_number: str, date: str, cabin: int, seats: int) -> int:
        return seats - self.seats_taken.get((flight_number, date, cabin), 0)
