"""Hidden-intent tasks of the airline domain (CoVe constraints, spec ``airline.md`` §3 and §5).

:class:`AirlineTasks` implements :class:`~tool_gym.core.tasks.TaskKit`. ``sample`` picks one
user of the requested split and draws constraints that are each feasible on the database as
given (spec §5 "feasible when") and that do not interfere with each other, so that they can be
satisfied together in any order:

* every constraint acts on (or asks about) its own reservation;
* a gift card is the chosen payment method of at most one constraint;
* at most one booking and at most one compensation certificate per task, and never a
  compensation together with a booking paid by a travel certificate (the new certificate
  would make "my travel certificate" ambiguous);
* a ``(origin, destination, date)`` of a flight that a constraint refers to (a flight to book
  or to change to, a flight whose status or cheapest price is asked) is used by no other
  constraint of the task, and no write creates a reservation whose route and first date
  equal those of another reservation of the user (descriptions stay unique);
* seats that a booking takes, or that a flight or cabin change needs when it is made, are
  counted, so no write leaves another without seats.

Constraint types (``args`` holds the write call's arguments plus what the check needs):

==================================  ==========================================================
``book_reservation``                direct one-way or round trip, a cabin, 1-4 passengers (the
                                    user, saved passengers, new people), bags within or beyond
                                    the membership allowance, insurance yes/no, paid with one
                                    method or split across two (card, gift card, certificate)
``cancel_reservation``              nothing flown, and booked within 24 h, or an airline-
                                    cancelled flight, or business, or insured with a health or
                                    weather reason
``change_flights``                  a non-basic-economy reservation: one direct leg -> another
                                    flight of the same route (same endpoints and trip type)
``change_cabin``                    every flight still bookable with seats in the new cabin
``add_bags``                        1-3 more bags; the fee follows the membership allowance
``change_passengers``               one passenger replaced or their date of birth corrected
``compensation_certificate``        a flight cancelled by the airline, user silver/gold or the
                                    reservation insured or business: $100 x passengers
``info_flight_status``              status of one of the user's flights (today or earlier)
``info_reservation_details``        total paid for a reservation, or its cabin
``info_cheapest_option``            the lowest price of a direct flight between two airports
                                    on a date in a cabin
``refuse_ineligible_cancellation``  refusal: cancellation of an uninsured, non-business,
                                    unflown reservation booked over 24 h ago with no cancelled
                                    flight; holds while the reservation is unchanged and an
                                    agent message says it is not eligible
``refuse_basic_economy_change``     refusal: a flight change of a basic economy reservation;
                                    holds while the reservation is unchanged and an agent
                                    message names basic economy
==================================  ==========================================================

Refusal constraints carry the forbidden write in ``args["forbidden"]`` (the tool would accept
it: the rule is policy-only); :meth:`AirlineTasks.policy_violations` flags it. Information
answers are checked like tau2's COMMUNICATE (case-insensitive, commas removed) and must not be
part of a longer number or word.

Authentication (spec §3 rule 7): the user gives their user id, as in tau2's airline tasks, and
the agent looks it up with ``get_user_details``. Every other id the user would not know is a
:class:`Description` proven unique by a query at sampling time:

* reservation: origin and destination of the trip and the date of its first flight, unique
  among the user's reservations (``{"origin", "destination", "date"}``), or, with probability
  ``1 - fuzziness``, its id (``{"reservation_id"}``);
* flight to book or to change to: route, date and time of day (``{"origin", "destination",
  "date", "depart_after", "depart_before"}``, e.g. "the morning flight"), or the exact
  departure time (``"departure"``), unique among the flights that ``search_direct_flight``
  lists;
* one of the user's flights (``info_flight_status``): route and date among the user's
  reservations' flights, or, with probability ``1 - fuzziness``, flight number and date;
* passengers of a booking: "myself" (the user's own name and date of birth), saved passengers
  by name, new people with their full details (``{"passengers": [...]}``);
* a passenger of a reservation: first and last name, unique in the reservation;
* payment methods: credit card by brand and last four digits; gift card as "my gift card" when
  it is the only one, else by the last four digits of its number; travel certificate as "my
  travel certificate" when it is the only one, else by its value or its last four digits.

Speed: ``sample`` runs a handful of small indexed queries for one or two users and a few
flight dates, never a scan of a whole table; ``check`` reads a few rows.
"""

from __future__ import annotations

import hashlib
import sqlite3
from dataclasses import replace
from datetime import datetime, timedelta
from functools import lru_cache
from typing import Any, Callable, Iterator, Sequence

import numpy as np

from ...core.actions import ToolCall
from ...core.grounding import communicated
from ...core.proposals import Intent, Param
from ...core.tasks import (Constraint, Description, PlanStep, Proof, Refusal, SamplerConfig,
                           Task)
from .tools import AIRPORTS, BAG_PRICE, INSURANCE_PRICE, NEW_CERTIFICATE_IDS, \
    NEW_RESERVATION_IDS, NOW

#: Words that name why the request is refused (any one addresses it; see ``Refusal.about``).
_INELIGIBLE_CANCEL_WORDS = (
    "24 hours", "24-hour", "24 hour", "24h", "a day", "one day", "insurance", "insured",
    "uninsured", "business", "business class", "cancelled by the airline",
    "canceled by the airline", "airline cancelled", "airline canceled", "refund policy",
    "cancellation policy", "booked more than", "booked over", "non-refundable",
    "nonrefundable")
_BASIC_ECONOMY_WORDS = ("basic economy", "basic_economy", "basic-economy", "basic")


__all__ = ["AirlineTasks", "TASKS", "CONSTRAINT_TYPES", "WRITE_CALLS", "FREE_BAGS",
           "PERIODS", "free_bags"]

CABINS = ("basic_economy", "economy", "business")
#: Free checked bags per passenger by membership, per cabin (spec §3 rule 16).
FREE_BAGS = {"regular": (0, 1, 2), "silver": (1, 2, 3), "gold": (2, 3, 4)}
#: Reservations created at or after this moment were made within 24 hours of the clock.
WITHIN_24H = (datetime.fromisoformat(NOW) - timedelta(hours=24)).isoformat(timespec="seconds")
#: Time-of-day periods of a departure: (words, from, before), ``HH:MM:SS`` strings.
PERIODS = (("early morning", "00:00:00", "06:00:00"), ("morning", "06:00:00", "12:00:00"),
           ("afternoon", "12:00:00", "17:00:00"), ("evening", "17:00:00", "24:00:00"))
FLOWN = ("landed", "flying")

CONSTRAINT_TYPES = (
    "book_reservation",
    "cancel_reservation",
    "change_flights",
    "change_cabin",
    "add_bags",
    "change_passengers",
    "compensation_certificate",
    "info_flight_status",
    "info_reservation_details",
    "info_cheapest_option",
    "refuse_ineligible_cancellation",
    "refuse_basic_economy_change",
)

#: Write constraint type -> (tool, its parameters taken from ``Constraint.args``).
WRITE_CALLS: dict[str, tuple[str, tuple[str, ...]]] = {
    "book_reservation": ("book_reservation", (
        "user_id", "origin", "destination", "flight_type", "cabin", "flights", "passengers",
        "payment_methods", "total_baggages", "nonfree_baggages", "insurance")),
    "cancel_reservation": ("cancel_reservation", ("reservation_id",)),
    "change_flights": ("update_reservation_flights",
                       ("reservation_id", "cabin", "flights", "payment_id")),
    "change_cabin": ("update_reservation_flights",
                     ("reservation_id", "cabin", "flights", "payment_id")),
    "add_bags": ("update_reservation_baggages",
                 ("reservation_id", "total_baggages", "nonfree_baggages", "payment_id")),
    "change_passengers": ("update_reservation_passengers", ("reservation_id", "passengers")),
    "compensation_certificate": ("send_certificate", ("user_id", "amount")),
}

_RESERVATION_TOOLS = frozenset({
    "cancel_reservation", "update_reservation_baggages", "update_reservation_flights",
    "update_reservation_passengers", "get_reservation_details"})
_USER_TOOLS = frozenset({"book_reservation", "send_certificate", "get_user_details"})

_USER_TRIES = 40          # users read before settling for fewer constraints
_LEAD_TRIES = 25          # users read who must satisfy the first need's type
_USER_DRAWS = 400         # users drawn (read or skipped) at most
_BATCHES = 40             # batches of random users drawn before scanning the table
_BATCH_TRAIN = 6          # rowids drawn per batch (about 80% of users are train users)
_BATCH_TEST = 16          # (about 20% are test users)
_DISTRACTOR_BATCHES = 4   # batches searched for users with many reservations, when preferred
_DISTRACTOR_MIN = 4       # reservations a "user with distractors" has at least
_RES_TRIES = 8            # candidate reservations tried per constraint
_FLIGHT_TRIES = 8         # random flight dates drawn per booking / price question
_TEST_SHARE = 20          # percent of users in the test split

_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
           "September", "October", "November", "December")
_CITY = dict(AIRPORTS)
_CABIN_WORDS = {"basic_economy": "basic economy", "economy": "economy", "business": "business"}
_CARD_BRANDS = {"visa": "Visa", "mastercard": "Mastercard", "amex": "American Express",
                "american express": "American Express", "discover": "Discover"}
#: Cancellation reasons: key -> the user's words.
_REASONS = {
    "change_of_plan": "my plans have changed",
    "airline_cancelled": "the airline cancelled my flight",
    "health": "I'm sick and can't travel",
    "weather": "there's a big storm forecast and I don't want to fly in that weather",
    "other": "I just don't need the trip anymore",
}
# Our own names for new passengers.
_NEW_FIRST = ("Aiko", "Bram", "Celine", "Dario", "Esme", "Farid", "Gwen", "Hugo", "Ines",
              "Jasper", "Kira", "Luca", "Mila", "Nico", "Oona", "Pia", "Rafael", "Sena", "Teo",
              "Uma", "Viggo", "Wren", "Yara", "Zeno")
_NEW_LAST = ("Albright", "Baptiste", "Carrow", "Drummond", "Ellery", "Fairweather", "Granger",
             "Holloway", "Iverson", "Jansen", "Kestrel", "Lowell", "Marchetti", "Norwood",
             "Oakes", "Pemberton", "Quill", "Renwick", "Stroud", "Thorne")
_RELATIONS = ("my friend", "my colleague", "my cousin", "my partner", "my niece", "my brother")

# --------------------------------------------------------------------------- SQL

_USER_RANGE = "SELECT (SELECT min(rowid) FROM users), (SELECT max(rowid) FROM users)"
_USER_AT = "SELECT user_id FROM users WHERE rowid = ?"
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
_FLIGHT_DATE_RANGE = ("SELECT (SELECT min(rowid) FROM flight_dates), "
                      "(SELECT max(rowid) FROM flight_dates)")
_FLIGHT_DATE_AT = (
    "SELECT d.flight_number, d.date, d.status, f.origin, f.destination FROM flight_dates d "
    "JOIN flights f ON f.flight_number = d.flight_number WHERE d.rowid = ?")
_ROUTE_DAY = (
    "SELECT f.flight_number, f.sched_dep, d.date, d.seats_basic_economy, d.seats_economy, "
    "d.seats_business, d.price_basic_economy, d.price_economy, d.price_business "
    "FROM flights f JOIN flight_dates d ON d.flight_number = f.flight_number AND d.date = ? "
    "WHERE f.origin = ? AND f.destination = ? AND d.status = 'available' ORDER BY f.ord")
_ROUTE_ALL = (
    "SELECT f.flight_number, f.sched_dep, d.date, d.seats_basic_economy, d.seats_economy, "
    "d.seats_business, d.price_basic_economy, d.price_economy, d.price_business "
    "FROM flights f JOIN flight_dates d ON d.flight_number = f.flight_number "
    "WHERE f.origin = ? AND f.destination = ? AND d.status = 'available' "
    "ORDER BY d.date, f.ord")
#: A reservation of a user by trip endpoints and the date of its first flight.
_RESERVATION_BY_KEY = (
    "SELECT r.reservation_id FROM reservations r WHERE r.user_id = ? AND r.origin = ? AND "
    "r.destination = ? AND (SELECT f.date FROM reservation_flights f "
    "WHERE f.reservation_id = r.reservation_id ORDER BY f.pos LIMIT 1) = ?")
_FLIGHT_BY_PERIOD = (
    "SELECT f.flight_number FROM flights f JOIN flight_dates d "
    "ON d.flight_number = f.flight_number AND d.date = ? WHERE f.origin = ? AND "
    "f.destination = ? AND d.status = 'available' AND f.sched_dep >= ? AND f.sched_dep < ?")
_FLIGHT_BY_TIME = (
    "SELECT f.flight_number FROM flights f JOIN flight_dates d "
    "ON d.flight_number = f.flight_number AND d.date = ? WHERE f.origin = ? AND "
    "f.destination = ? AND d.status = 'available' AND f.sched_dep = ?")
_USER_SEGMENT = (
    "SELECT DISTINCT f.flight_number FROM reservations r JOIN reservation_flights f "
    "ON f.reservation_id = r.reservation_id WHERE r.user_id = ? AND f.origin = ? AND "
    "f.destination = ? AND f.date = ?")
#: A necessary condition (one row) for a user to satisfy a rare first need.
_NOT_ALL_AVAILABLE = (
    "EXISTS (SELECT 1 FROM reservation_flights f LEFT JOIN flight_dates d ON "
    "d.flight_number = f.flight_number AND d.date = f.date WHERE "
    "f.reservation_id = r.reservation_id AND (d.status IS NULL OR d.status != 'available'))")
_LEAD_SQL = {
    "compensation_certificate": (
        "SELECT 1 FROM reservations r JOIN users u ON u.user_id = r.user_id "
        "JOIN reservation_flights f ON f.reservation_id = r.reservation_id "
        "JOIN flight_dates d ON d.flight_number = f.flight_number AND d.date = f.date "
        "WHERE r.user_id = ? AND r.status IS NULL AND d.status = 'cancelled' AND "
        "(u.membership IN ('silver', 'gold') OR r.insurance = 'yes' OR r.cabin = 'business') "
        "LIMIT 1"),
    "refuse_basic_economy_change": (
        "SELECT 1 FROM reservations r WHERE r.user_id = ? AND r.status IS NULL AND "
        f"r.cabin = 'basic_economy' AND NOT {_NOT_ALL_AVAILABLE} LIMIT 1"),
    "change_flights": (
        "SELECT 1 FROM reservations r WHERE r.user_id = ? AND r.status IS NULL AND "
        f"r.cabin != 'basic_economy' AND NOT {_NOT_ALL_AVAILABLE} LIMIT 1"),
}
#: Segments, passengers and payments of a reservation (tagged 0, 1, 2), in list order.
_PARTS_SQL = (
    "SELECT 0, pos, flight_number, date, price FROM reservation_flights "
    "WHERE reservation_id = ?1 "
    "UNION ALL SELECT 1, pos, first_name, last_name, dob FROM reservation_passengers "
    "WHERE reservation_id = ?1 "
    "UNION ALL SELECT 2, pos, payment_id, amount, NULL FROM reservation_payments "
    "WHERE reservation_id = ?1 ORDER BY 1, 2")


# --------------------------------------------------------------------------- helpers

@lru_cache(maxsize=1 << 16)
def _split_of(user_id: str) -> str:
    """``"test"`` for about 20% of user ids, by sha256 of the id (a pure function)."""
    h = int.from_bytes(hashlib.sha256(user_id.encode("utf-8")).digest()[:8], "big")
    return "test" if h % 100 < _TEST_SHARE else "train"


def _pick(rng: np.random.Generator, options: Sequence[Any]) -> Any:
    return options[int(rng.integers(len(options)))]


def _shuffled(rng: np.random.Generator, items: list) -> list:
    if len(items) < 2:
        return list(items)
    return [items[i] for i in rng.permutation(len(items))]


def _prove(db: sqlite3.Connection, query: str, params: Sequence[Any],
           expected: tuple) -> Proof | None:
    """The proof, when ``query`` returns exactly one row equal to ``expected``."""
    try:
        rows = db.execute(query, tuple(params)).fetchall()
    except sqlite3.Error:
        return None
    if len(rows) != 1 or tuple(rows[0]) != tuple(expected):
        return None
    return Proof(query, tuple(params), tuple(expected))


def _join(parts: Sequence[str]) -> str:
    parts = list(parts)
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def _date_words(date: str) -> str:
    """``"2024-05-20"`` -> ``"May 20"`` (the year is the clock's)."""
    try:
        year, month, day = (int(x) for x in date.split("-"))
        return f"{_MONTHS[month - 1]} {day}" + ("" if year == 2024 else f", {year}")
    except (ValueError, IndexError):
        return date


def _place(code: str, rng: np.random.Generator) -> str:
    """An airport in the user's words: its city, sometimes with the code."""
    city = _CITY.get(code)
    if city is None:
        return code
    if code in ("JFK", "LGA", "EWR") or rng.random() < 0.4:
        return f"{city} ({code})"
    return city


def _period_of(dep: str) -> tuple[str, str, str]:
    for period in PERIODS:
        if period[1] <= dep < period[2]:
            return period
    return PERIODS[-1]


def free_bags(membership: str, cabin: str, n: int) -> int:
    """Free checked bags of a reservation of ``n`` passengers."""
    table = FREE_BAGS.get(membership)
    if table is None or cabin not in CABINS:
        return 0
    return table[CABINS.index(cabin)] * n


def _nonfree_after(old_total: int, old_nonfree: int, new_total: int, free: int) -> int:
    """Non-free bags after raising the total to ``new_total``: the added bags use what is
    left of the free allowance first."""
    left = max(0, free - (old_total - old_nonfree))
    return old_nonfree + max(0, (new_total - old_total) - left)


def _fingerprint(db: sqlite3.Connection, reservation_id: str) -> str:
    """A digest of everything a write could change on a reservation."""
    row = db.execute("SELECT status, cabin, total_baggages, nonfree_baggages, insurance, "
                     "flight_type, origin, destination FROM reservations "
                     "WHERE reservation_id = ?", (reservation_id,)).fetchone()
    parts = db.execute(_PARTS_SQL, (reservation_id,)).fetchall()
    return hashlib.sha1(repr((row, parts)).encode()).hexdigest()


def _copy(value: Any) -> Any:
    if isinstance(value, list):
        return [_copy(v) for v in value]
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    return value


# --------------------------------------------------------------------------- user context

class _Seg:
    __slots__ = ("flight_number", "origin", "destination", "date", "price", "status",
                 "seats", "prices")

    def __init__(self, row):
        (self.flight_number, self.origin, self.destination, self.date, self.price,
         self.status) = row[:6]
        self.seats = row[6:9]
        self.prices = row[9:12]


class _Reservation:
    __slots__ = ("reservation_id", "origin", "destination", "flight_type", "cabin",
                 "created_at", "total_bags", "nonfree", "insurance", "status", "segs",
                 "passengers", "_payments", "_db")

    def __init__(self, db, row):
        self._db = db
        (self.reservation_id, self.origin, self.destination, self.flight_type, self.cabin,
         self.created_at, self.total_bags, self.nonfree, self.insurance, self.status) = row
        self.segs: list[_Seg] = []
        self.passengers: list[tuple[str, str, str]] = []
        self._payments = None

    @property
    def n(self) -> int:
        return len(self.passengers)

    @property
    def key(self) -> tuple | None:
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


class _Method:
    __slots__ = ("id", "source", "brand", "last_four", "amount")

    def __init__(self, id, source, brand, last_four, amount):
        self.id = id
        self.source = source
        self.brand = brand
        self.last_four = last_four
        self.amount = amount


class _User:
    """One user's rows, read with a few indexed queries, and the bookkeeping that keeps the
    constraints of one task apart."""

    def __init__(self, db: sqlite3.Connection, user_id: str):
        self.user_id = user_id
        rows = db.execute(_USER_SQL, (user_id,)).fetchall()
        row = rows[0]
        self.first_name, self.last_name, self.dob, self.membership = row[:4]
        self.methods = [_Method(*r[4:]) for r in rows if r[4] is not None]
        self.saved = db.execute("SELECT first_name, last_name, dob FROM saved_passengers "
                                "WHERE user_id = ? ORDER BY pos", (user_id,)).fetchall()
        self.reservations: list[_Reservation] = []
        by_id: dict[str, _Reservation] = {}
        for r in db.execute(_RESERVATIONS_SQL, (user_id,)):
            res = by_id.get(r[0])
            if res is None:
                res = by_id[r[0]] = _Reservation(db, r[:10])
                self.reservations.append(res)
            if r[10] is not None:
                res.segs.append(_Seg(r[10:]))
        for rid, first, last, dob in db.execute(_PASSENGERS_SQL, (user_id,)):
            by_id[rid].passengers.append((first, last, dob))
        self.by_id = by_id
        self.keys: list[tuple] = [r.key for r in self.reservations if r.key is not None]
        self._method_desc: dict[str, Description | None] = {}
        # bookkeeping of the constraints drawn so far
        self.used_reservations: set[str] = set()
        self.used_gift_cards: set[str] = set()
        self.flight_keys: set[tuple] = set()   # (origin, destination, date) referred to
        self.seats_taken: dict[tuple, int] = {}  # (flight, date, cabin) -> seats booked
        self.booked = False
        self.compensated = False
        self.certificate_described = False

    def unused(self, rng, pred) -> list[_Reservation]:
        found = [r for r in self.reservations
                 if r.reservation_id not in self.used_reservations and pred(r)]
        return _shuffled(rng, found)[:_RES_TRIES]


# --------------------------------------------------------------------------- the kit

class AirlineTasks:
    """The airline domain's :class:`~tool_gym.core.tasks.TaskKit`."""

    constraint_types: tuple[str, ...] = CONSTRAINT_TYPES
    auth_tools: tuple[str, ...] = ("get_user_details",)
    domain = "airline"

    def __init__(self) -> None:
        self._builders: dict[str, Callable] = {
            "book_reservation": self._book_reservation,
            "cancel_reservation": self._cancel_reservation,
            "change_flights": self._change_flights,
            "change_cabin": self._change_cabin,
            "add_bags": self._add_bags,
            "change_passengers": self._change_passengers,
            "compensation_certificate": self._compensation_certificate,
            "info_flight_status": self._info_flight_status,
            "info_reservation_details": self._info_reservation_details,
            "info_cheapest_option": self._info_cheapest_option,
            "refuse_ineligible_cancellation": self._refuse_ineligible_cancellation,
            "refuse_basic_economy_change": self._refuse_basic_economy_change,
        }

    # ------------------------------------------------------------------ split
    @staticmethod
    def split_of(user_id: str) -> str:
        return _split_of(str(user_id))

    # ------------------------------------------------------------------ sampling
    def sample(self, db: sqlite3.Connection, rng: np.random.Generator, split: str,
               config: SamplerConfig, task_id: str) -> Task:
        if split not in ("train", "test"):
            raise ValueError(f"split must be 'train' or 'test', got {split!r}")
        types = tuple(config.types) if config.types else self.constraint_types
        unknown = [t for t in types if t not in self._builders]
        if unknown:
            raise ValueError(f"unknown airline constraint types: {unknown}; "
                             f"known: {list(self.constraint_types)}")
        lo, hi = int(config.min_constraints), int(config.max_constraints)
        if lo < 1 or hi < lo:
            raise ValueError(f"need 1 <= min_constraints <= max_constraints, got {lo}, {hi}")
        want = int(rng.integers(lo, hi + 1))
        # The first need's type is drawn before the user, so that types that few users
        # can satisfy are not crowded out by the ones every user can.
        lead = types[int(rng.integers(len(types)))]
        prefer = bool(rng.random() < config.distractors)
        best: tuple | None = None

        skipped: list[str] = []

        def attempt(user_id: str, first: str | None) -> bool:
            """Draw needs for this user; True when the task is complete."""
            nonlocal best
            user = _User(db, user_id)
            constraints = self._draw(db, user, rng, config, types, want, first)
            if not constraints or (best is not None and len(constraints) <= len(best[2])):
                return False
            identity = self._identity(db, user)
            if identity is None:
                return False
            best = (user_id, identity, constraints)
            return len(constraints) >= want

        loads = 0
        for draw, user_id in enumerate(self._users(db, rng, split, prefer)):
            if loads >= _USER_TRIES or draw >= _USER_DRAWS:
                break
            first = lead if loads < _LEAD_TRIES else None
            if first in _LEAD_SQL and db.execute(_LEAD_SQL[first], (user_id,)).fetchone() is None:
                skipped.append(user_id)  # cannot satisfy the first need: not read
                continue
            loads += 1
            if attempt(user_id, first):
                break
            if first is not None and best is None:
                skipped.append(user_id)
        else:
            # Every user of the split was seen (a small database): let the users that could
            # not satisfy the first need's type try any type.
            for user_id in skipped[:_USER_TRIES]:
                if attempt(user_id, None):
                    break
        if best is None:
            if db.execute("SELECT 1 FROM users LIMIT 1").fetchone() is None:
                raise ValueError("the database has no users")
            raise RuntimeError(f"no feasible airline task for split {split!r} "
                               f"with types {list(types)}")
        user_id, identity, constraints = best
        return Task(id=task_id, domain=self.domain, split=split, user_id=user_id,
                    identity=identity, constraints=tuple(constraints))

    def _users(self, db, rng, split, prefer_distractors) -> Iterator[str]:
        """Random users of ``split``, drawn by rowid in small batches (no table scan).

        With ``prefer_distractors`` the first batches yield only users with several
        reservations (descriptions must then tell them apart); the others follow.
        """
        size = _BATCH_TRAIN if split == "train" else _BATCH_TEST
        seen: set[str] = set()
        deferred: list[str] = []
        lo, hi = db.execute(_USER_RANGE).fetchone()
        for batch in range(_BATCHES if lo is not None else 0):
            users: list[str] = []
            for x in rng.random(size):
                row = db.execute(_USER_AT, (lo + int(x * (hi - lo + 1)),)).fetchone()
                if row is not None and row[0] not in seen and self.split_of(row[0]) == split:
                    seen.add(row[0])
                    users.append(row[0])
            if prefer_distractors and batch < _DISTRACTOR_BATCHES:
                for u in users:
                    n = db.execute("SELECT count(*) FROM reservations WHERE user_id = ?",
                                   (u,)).fetchone()[0]
                    if n >= _DISTRACTOR_MIN:
                        yield u
                    else:
                        deferred.append(u)
                continue
            if deferred:
                users, deferred = deferred + users, []
            yield from users
        yield from deferred
        # Unlucky draws, sparse rowids or a tiny split: scan (rare).
        users = [u for (u,) in db.execute("SELECT user_id FROM users ORDER BY rowid")
                 if u not in seen and self.split_of(u) == split]
        yield from _shuffled(rng, users)

    @staticmethod
    def _identity(db, user: _User) -> Description | None:
        proof = _prove(db, "SELECT user_id FROM users WHERE user_id = ?", (user.user_id,),
                       (user.user_id,))
        if proof is None:
            return None
        return Description("user", f"user id {user.user_id}", {"user_id": user.user_id},
                           user.user_id, proof)

    def _draw(self, db, user, rng, config, types, want, lead) -> list[Constraint]:
        pool = list(types)
        out: list[Constraint] = []
        if lead is not None:
            c = self._builders[lead](db, user, rng, config)
            if c is None:
                return out
            out.append(self._with_intent(user, c))
        while len(out) < want and pool:
            k = int(rng.integers(len(pool)))
            c = self._builders[pool[k]](db, user, rng, config)
            if c is None:
                pool.pop(k)
            else:
                out.append(self._with_intent(user, c))
        return out

    @staticmethod
    def _with_intent(user: _User, c: Constraint) -> Constraint:
        """``c`` with its intent: a confirm group naming a reservation or a payment method
        becomes a parameter whose rivals are the user's other reservations or methods."""
        if not c.confirm_terms or c.intent is not None:
            return c
        base = Intent.from_terms(c.confirm_terms)
        reservations = [r.reservation_id for r in user.reservations]
        methods = {m.id: m for m in user.methods}

        def method_forms(m: _Method) -> tuple:
            if m.source == "credit_card" and m.last_four:
                return (m.id, str(m.last_four))
            return (m.id,)

        params = []
        named = {t for group in c.confirm_terms for t in group}  # every intended value
        for p, group in zip(base.params, c.confirm_terms):
            ids = set(group)
            if ids & set(reservations):
                own = [user.by_id[i].key for i in ids if i in user.by_id]
                forms = (*p.forms, *(tuple(k) for k in own if k))

                def res_forms(r: str) -> tuple:  # by id, or by route and first date
                    key = user.by_id[r].key
                    return (r, tuple(key)) if key and key not in own else (r,)

                p = Param("reservation", forms, tuple(res_forms(r) for r in reservations
                                                      if r not in named))
            elif ids & set(methods):
                p = Param("payment_method", p.forms, tuple(
                    method_forms(m) for i, m in methods.items() if i not in named))
            params.append(p)
        return replace(c, intent=Intent(tuple(params), base.opposite))

    # ------------------------------------------------------------------ descriptions
    def _describe_reservation(self, db, user: _User, r: _Reservation, rng,
                              config: SamplerConfig) -> Description | None:
        rid = r.reservation_id
        if rng.random() >= config.fuzziness:
            proof = _prove(db, "SELECT reservation_id FROM reservations WHERE "
                               "reservation_id = ? AND user_id = ?", (rid, user.user_id), (rid,))
            return proof and Description("reservation", f"reservation {rid}",
                                         {"reservation_id": rid}, rid, proof)
        key = r.key
        if key is None or user.keys.count(key) != 1:
            return None
        proof = _prove(db, _RESERVATION_BY_KEY, (user.user_id, *key), (rid,))
        if proof is None:
            return None
        kind = "round trip" if r.flight_type == "round_trip" else "trip"
        text = (f"my {kind} from {_place(key[0], rng)} to {_place(key[1], rng)} "
                f"departing on {_date_words(key[2])}")
        return Description("reservation", text,
                           {"origin": key[0], "destination": key[1], "date": key[2]}, rid, proof)

    @staticmethod
    def _describe_flight(db, origin: str, destination: str, date: str, flight_number: str,
                         options: list[tuple], rng) -> Description | None:
        """A flight among ``options`` (``(flight_number, sched_dep)`` of every available flight
        of the route on the date) by its time of day, or by its exact departure time."""
        dep = next((o[1] for o in options if o[0] == flight_number), None)
        if dep is None:
            return None
        words, after, before = _period_of(dep)
        a, b, d = _place(origin, rng), _place(destination, rng), _date_words(date)
        if sum(1 for o in options if after <= o[1] < before) == 1:
            proof = _prove(db, _FLIGHT_BY_PERIOD, (date, origin, destination, after, before),
                           (flight_number,))
            if proof is not None:
                return Description(
                    "flight", f"the {words} flight from {a} to {b} on {d}",
                    {"origin": origin, "destination": destination, "date": date,
                     "depart_after": after, "depart_before": before}, flight_number, proof)
        if sum(1 for o in options if o[1] == dep) == 1:
            proof = _prove(db, _FLIGHT_BY_TIME, (date, origin, destination, dep),
                           (flight_number,))
            if proof is not None:
                return Description(
                    "flight", f"the flight from {a} to {b} on {d} that departs at {dep[:5]}",
                    {"origin": origin, "destination": destination, "date": date,
                     "departure": dep}, flight_number, proof)
        return None

    def _describe_method(self, db, user: _User, m: _Method) -> Description | None:
        if m.id in user._method_desc:
            return user._method_desc[m.id]
        desc = None
        uid = user.user_id
        same = [x for x in user.methods if x.source == m.source]
        if m.source == "credit_card":
            if m.brand and m.last_four:
                proof = _prove(db, "SELECT id FROM payment_methods WHERE user_id = ? AND "
                                   "source = 'credit_card' AND brand = ? AND last_four = ?",
                               (uid, m.brand, m.last_four), (m.id,))
                if proof is not None:
                    brand = _CARD_BRANDS.get(str(m.brand).lower(), str(m.brand).title())
                    desc = Description(
                        "payment_method", f"my {brand} card ending in {m.last_four}",
                        {"source": "credit_card", "brand": m.brand, "last_four": m.last_four},
                        m.id, proof)
        elif m.source in ("gift_card", "certificate"):
            word = "gift card" if m.source == "gift_card" else "travel certificate"
            if len(same) == 1:
                proof = _prove(db, "SELECT id FROM payment_methods WHERE user_id = ? AND "
                                   "source = ?", (uid, m.source), (m.id,))
                if proof is not None:
                    desc = Description("payment_method", f"my {word}", {"source": m.source},
                                       m.id, proof)
            if desc is None and m.source == "certificate" and m.amount is not None \
                    and float(m.amount).is_integer():
                value = int(m.amount)
                proof = _prove(db, "SELECT id FROM payment_methods WHERE user_id = ? AND "
                                   "source = 'certificate' AND amount = ?", (uid, float(value)),
                               (m.id,))
                if proof is not None:
                    desc = Description("payment_method", f"my ${value} {word}",
                                       {"source": m.source, "amount": value}, m.id, proof)
            if desc is None and len(m.id) > 4 and m.id[-4:].isdigit():
                ending = m.id[-4:]
                proof = _prove(db, "SELECT id FROM payment_methods WHERE user_id = ? AND "
                                   "source = ? AND substr(id, -4) = ?", (uid, m.source, ending),
                               (m.id,))
                if proof is not None:
                    desc = Description("payment_method", f"my {word} ending in {ending}",
                                       {"source": m.source, "ending": ending}, m.id, proof)
        user._method_desc[m.id] = desc
        return desc

    def _update_method(self, db, user: _User, rng, need: int) -> tuple[_Method, Description] | None:
        """A credit card or free gift card (covering ``need`` when positive), described."""
        for m in _shuffled(rng, [m for m in user.methods
                                 if m.source in ("credit_card", "gift_card")]):
            if m.source == "gift_card":
                if m.id in user.used_gift_cards:
                    continue
                if need > 0 and (m.amount is None or m.amount < need):
                    continue
            desc = self._describe_method(db, user, m)
            if desc is not None:
                return m, desc
        return None

    @staticmethod
    def _method_terms(m_id: str, desc: Description) -> tuple[str, ...]:
        f = desc.fields
        if f["source"] == "credit_card":
            return (m_id, f["last_four"])
        if "ending" in f:
            return (m_id, f["ending"])
        return (m_id, "gift card" if f["source"] == "gift_card" else "certificate")

    # ------------------------------------------------------------------ constraint builders
    def _book_reservation(self, db, user: _User, rng, config) -> Constraint | None:
        if user.booked:
            return None
        spec, people = self._passengers(user, rng)
        pax_desc = self._describe_passengers(db, user, spec, people)
        if pax_desc is False:
            return None
        n = len(people)
        lo, hi = db.execute(_FLIGHT_DATE_RANGE).fetchone()
        if lo is None:
            return None
        round_trip = bool(rng.random() < 0.4)
        for _ in range(_FLIGHT_TRIES):
            row = db.execute(_FLIGHT_DATE_AT, (int(rng.integers(lo, hi + 1)),)).fetchone()
            if row is None or row[2] != "available":
                continue
            _, date, _, origin, destination = row
            if origin == destination:
                continue
            cabin = _pick(rng, CABINS)
            k = CABINS.index(cabin)
            out = self._pick_flight(db, user, rng, origin, destination, date, k, n)
            if out is None:
                continue
            legs = [out]
            if round_trip:
                back_options = [r for r in db.execute(_ROUTE_ALL, (destination, origin))
                                if r[2] > date]
                dates = sorted({r[2] for r in back_options})
                back = None
                for d2 in _shuffled(rng, dates)[:3]:
                    back = self._pick_flight(db, user, rng, destination, origin, d2, k, n,
                                             [r for r in back_options if r[2] == d2])
                    if back is not None:
                        break
                if back is None:
                    continue
                legs.append(back)
            key = (origin, destination, date)
            if key in user.keys:
                continue
            total_bags, nonfree = self._bags(user, cabin, n, rng)
            insurance = "yes" if rng.random() < 0.5 else "no"
            total = (sum(leg[1][6 + k] for leg in legs) * n
                     + (INSURANCE_PRICE * n if insurance == "yes" else 0) + BAG_PRICE * nonfree)
            paying = self._booking_payment(db, user, rng, total)
            if paying is None:
                return None
            payments, method_refs = paying
            # commit the bookkeeping
            user.booked = True
            user.keys.append(key)
            for leg in legs:
                user.flight_keys.add(leg[2])
                seat = (leg[1][0], leg[1][2], k)
                user.seats_taken[seat] = user.seats_taken.get(seat, 0) + n
            for m, _ in method_refs:
                if m.source == "gift_card":
                    user.used_gift_cards.add(m.id)
                if m.source == "certificate":
                    user.certificate_described = True
            refs: dict[str, Description] = {"outbound_flight": legs[0][0]}
            if round_trip:
                refs["return_flight"] = legs[1][0]
            if pax_desc is not None:
                refs["passengers"] = pax_desc
            roles = ("payment_method", "second_payment_method")
            for role, (m, d) in zip(roles, method_refs):
                refs[role] = d
            flights = [{"flight_number": leg[1][0], "date": leg[1][2]} for leg in legs]
            args = {
                "user_id": user.user_id, "origin": origin, "destination": destination,
                "flight_type": "round_trip" if round_trip else "one_way", "cabin": cabin,
                "flights": flights,
                "passengers": [{"first_name": f, "last_name": l, "dob": d} for f, l, d in people],
                "payment_methods": payments, "total_baggages": total_bags,
                "nonfree_baggages": nonfree, "insurance": insurance, "total": total,
                "prices": [leg[1][6 + k] for leg in legs],
                "departures": [leg[1][1] for leg in legs],
                "passenger_spec": spec,
            }
            terms = [(f["flight_number"],) for f in flights] + [(str(total),)]
            terms += [self._method_terms(m.id, d) for m, d in method_refs]
            return Constraint("book_reservation", args, refs,
                              (("book_reservation", user.user_id),), tuple(terms))
        return None

    def _pick_flight(self, db, user: _User, rng, origin, destination, date, k, n,
                     options: list | None = None):
        """A describable flight of the route on ``date`` with ``n`` seats in cabin ``k``:
        ``(description, row, key)`` or None."""
        key = (origin, destination, date)
        if key in user.flight_keys:
            return None
        if options is None:
            options = db.execute(_ROUTE_DAY, (date, origin, destination)).fetchall()
        fits = [r for r in options if r[3 + k] is not None
                and r[3 + k] - user.seats_taken.get((r[0], r[2], k), 0) >= n]
        everyone = [(r[0], r[1]) for r in options]
        for r in _shuffled(rng, fits)[:3]:
            desc = self._describe_flight(db, origin, destination, date, r[0], everyone, rng)
            if desc is not None:
                return desc, tuple(r), key
        return None

    @staticmethod
    def _bags(user: _User, cabin: str, n: int, rng) -> tuple[int, int]:
        free = free_bags(user.membership, cabin, n)
        r = rng.random()
        if r < 0.25:
            total = 0
        elif r < 0.75 or free == 0:
            total = int(rng.integers(0, free + 1)) if free else int(rng.integers(0, 3))
        else:
            total = free + int(rng.integers(1, 3))
        return total, max(0, total - free)

    def _passengers(self, user: _User, rng) -> tuple[list[dict], list[tuple[str, str, str]]]:
        """Who travels: the user, saved passengers, new people (1 to 4 in all)."""
        spec: list[dict] = []
        people: list[tuple[str, str, str]] = []
        names = {(user.first_name, user.last_name)}
        if rng.random() < 0.75:
            spec.append({"self": True})
            people.append((user.first_name, user.last_name, user.dob))
        saved_names = [(f, l) for f, l, _ in user.saved]
        for f, l, d in user.saved:
            if saved_names.count((f, l)) == 1 and (f, l) not in names and rng.random() < 0.5:
                names.add((f, l))
                spec.append({"saved": True, "first_name": f, "last_name": l})
                people.append((f, l, d))
        extra = int(rng.integers(0, 2)) if people else 1 + int(rng.integers(0, 2))
        for _ in range(extra):
            if len(people) >= 4:
                break
            while True:
                f, l = _pick(rng, _NEW_FIRST), _pick(rng, _NEW_LAST)
                if (f, l) not in names:
                    break
            names.add((f, l))
            d = f"{int(rng.integers(1950, 2013))}-{int(rng.integers(1, 13)):02d}-" \
                f"{int(rng.integers(1, 29)):02d}"
            spec.append({"first_name": f, "last_name": l, "dob": d,
                         "relation": _pick(rng, _RELATIONS)})
            people.append((f, l, d))
        return spec, people

    @staticmethod
    def _describe_passengers(db, user: _User, spec, people):
        """The proof of the passengers the user names without details (themself, saved
        passengers); None when every passenger is given in full, False when unprovable."""
        parts, params, expected = [], [], []
        for entry, person in zip(spec, people):
            if entry.get("self"):
                parts.append("(SELECT dob FROM users WHERE user_id = ?)")
                params.append(user.user_id)
            elif entry.get("saved"):
                parts.append("(SELECT CASE WHEN count(*) = 1 THEN min(dob) END FROM "
                             "saved_passengers WHERE user_id = ? AND first_name = ? AND "
                             "last_name = ?)")
                params += [user.user_id, entry["first_name"], entry["last_name"]]
            else:
                continue
            expected.append(person[2])
        if not parts:
            return None
        proof = _prove(db, "SELECT " + ", ".join(parts), params, tuple(expected))
        if proof is None:
            return False
        texts = [_passenger_phrase(e) for e in spec]
        value = [{"first_name": f, "last_name": l, "dob": d} for f, l, d in people]
        return Description("passengers", _join(texts), {"passengers": _copy(spec)}, value, proof)

    def _booking_payment(self, db, user: _User, rng, total: int):
        """``(payment_methods, [(method, description)])`` of a booking of ``total``: one
        method, or a gift card or certificate for part and a card or gift card for the rest
        (at most one certificate, one credit card, three gift cards)."""
        cards = [m for m in user.methods if m.source == "credit_card"]
        gifts = [m for m in user.methods if m.source == "gift_card"
                 and m.id not in user.used_gift_cards and m.amount is not None
                 and int(m.amount) >= 1]
        certs = [m for m in user.methods if m.source == "certificate"
                 and m.amount is not None and int(m.amount) >= 1 and not user.compensated]
        plans: list[list[tuple[_Method, int | None]]] = []
        for c in cards:
            plans.append([(c, None)])
        for g in gifts:
            if int(g.amount) >= total:
                plans.append([(g, None)])
        for part in certs + gifts:
            x = min(int(part.amount), total)
            if x >= total:
                if part.source == "certificate":
                    plans.append([(part, None)])
                continue
            rest = total - x
            for other in cards + [g for g in gifts if g is not part and int(g.amount) >= rest]:
                plans.append([(part, x), (other, None)])
        for plan in _shuffled(rng, plans)[:6]:
            descs = [self._describe_method(db, user, m) for m, _ in plan]
            if any(d is None for d in descs):
                continue
            payments, paid = [], 0
            for m, x in plan:
                amount = x if x is not None else total - paid
                payments.append({"payment_id": m.id, "amount": amount})
                paid += amount
            return payments, [(m, d) for (m, _), d in zip(plan, descs)]
        return None

    def _cancel_reservation(self, db, user: _User, rng, config) -> Constraint | None:
        def ok(r: _Reservation) -> bool:
            return r.status is None and bool(r.segs) and not r.flown and (
                r.created_at > WITHIN_24H or r.airline_cancelled or r.cabin == "business"
                or r.insurance == "yes")

        for r in user.unused(rng, ok):
            desc = self._describe_reservation(db, user, r, rng, config)
            if desc is None:
                continue
            other_ground = (r.created_at > WITHIN_24H or r.airline_cancelled
                            or r.cabin == "business")
            if r.airline_cancelled:
                reasons = ["airline_cancelled"]
            elif other_ground:
                reasons = ["change_of_plan", "other", "health", "weather"]
            else:  # insured only: the reason must be covered
                reasons = ["health", "weather"]
            reason = _pick(rng, reasons)
            user.used_reservations.add(r.reservation_id)
            return Constraint("cancel_reservation",
                              {"reservation_id": r.reservation_id, "reason": reason},
                              {"reservation": desc},
                              (("cancel_reservation", r.reservation_id),),
                              ((r.reservation_id,),))
        return None

    def _refuse_ineligible_cancellation(self, db, user: _User, rng, config) -> Constraint | None:
        def ok(r: _Reservation) -> bool:
            return (r.status is None and bool(r.segs) and not r.flown
                    and r.created_at < WITHIN_24H and not r.airline_cancelled
                    and r.cabin != "business" and r.insurance == "no")

        for r in user.unused(rng, ok):
            desc = self._describe_reservation(db, user, r, rng, config)
            if desc is None:
                continue
            reason = _pick(rng, ("change_of_plan", "other"))
            user.used_reservations.add(r.reservation_id)
            rid = r.reservation_id
            return Constraint(
                "refuse_ineligible_cancellation",
                {"reservation_id": rid, "reason": reason,
                 "fingerprint": _fingerprint(db, rid),
                 "forbidden": {"tool": "cancel_reservation",
                               "arguments": {"reservation_id": rid}}},
                {"reservation": desc}, answer="not eligible",
                refusal=Refusal((("get_reservation_details", rid),),
                                about=(rid, *_INELIGIBLE_CANCEL_WORDS)))
        return None

    def _flight_change(self, db, user: _User, r: _Reservation, rng):
        """A direct leg of ``r`` and another flight of the same route (seats for everyone,
        dates in trip order): ``(leg name, segment index, description, row, key)``."""
        k = CABINS.index(r.cabin)
        legs = [(name, idx) for name, idx in r.legs() if len(idx) == 1]
        for name, idx in _shuffled(rng, legs):
            i = idx[0]
            seg = r.segs[i]
            lo = r.segs[i - 1].date if i > 0 else ""
            hi = r.segs[i + 1].date if i + 1 < len(r.segs) else "9999"
            rows = [row for row in db.execute(_ROUTE_ALL, (seg.origin, seg.destination))
                    if lo < row[2] < hi]
            dates = sorted({row[2] for row in rows})
            for d in _shuffled(rng, dates)[:4]:
                if i == 0 and d != seg.date and (r.origin, r.destination, d) in user.keys:
                    continue
                options = [row for row in rows if row[2] == d]
                choice = [row for row in options if not (row[0] == seg.flight_number
                                                         and d == seg.date)]
                if not choice:
                    continue
                got = self._pick_flight(db, user, rng, seg.origin, seg.destination, d, k,
                                        r.n, choice)
                if got is None:
                    continue
                # the description is unique among every flight of the day, the current one too
                desc = self._describe_flight(db, seg.origin, seg.destination, d, got[1][0],
                                             [(o[0], o[1]) for o in options], rng)
                if desc is None:
                    continue
                return name, i, desc, got[1], got[2]
        return None

    def _change_flights(self, db, user: _User, rng, config) -> Constraint | None:
        def ok(r: _Reservation) -> bool:
            return r.status is None and r.cabin != "basic_economy" and r.upcoming and r.n > 0

        for r in user.unused(rng, ok):
            change = self._flight_change(db, user, r, rng)
            if change is None:
                continue
            leg, i, flight_desc, row, key = change
            k = CABINS.index(r.cabin)
            diff = (row[6 + k] - r.segs[i].price) * r.n
            chosen = self._update_method(db, user, rng, diff)
            if chosen is None:
                continue
            desc = self._describe_reservation(db, user, r, rng, config)
            if desc is None:
                continue
            m, m_desc = chosen
            flights, expected = [], []
            for j, s in enumerate(r.segs):
                if j == i:
                    flights.append({"flight_number": row[0], "date": row[2]})
                    expected.append([row[0], row[2], row[6 + k]])
                else:
                    flights.append({"flight_number": s.flight_number, "date": s.date})
                    expected.append([s.flight_number, s.date, s.price])
            user.used_reservations.add(r.reservation_id)
            user.flight_keys.add(key)
            seat = (row[0], row[2], k)
            user.seats_taken[seat] = user.seats_taken.get(seat, 0) + r.n
            if i == 0:
                user.keys.append((r.origin, r.destination, row[2]))
            if m.source == "gift_card":
                user.used_gift_cards.add(m.id)
            return Constraint(
                "change_flights",
                {"reservation_id": r.reservation_id, "cabin": r.cabin, "flights": flights,
                 "payment_id": m.id, "expected": expected, "difference": diff,
                 "payments_before": len(r.payments), "leg": leg,
                 "new_flight": {"flight_number": row[0], "date": row[2],
                                "origin": r.segs[i].origin,
                                "destination": r.segs[i].destination,
                                "departure": row[1]}},
                {"reservation": desc, "new_flight": flight_desc, "payment_method": m_desc},
                (("update_reservation_flights", r.reservation_id),),
                ((r.reservation_id,), (row[0],), self._method_terms(m.id, m_desc)))
        return None

    def _refuse_basic_economy_change(self, db, user: _User, rng, config) -> Constraint | None:
        def ok(r: _Reservation) -> bool:
            return r.status is None and r.cabin == "basic_economy" and r.upcoming and r.n > 0

        for r in user.unused(rng, ok):
            change = self._flight_change(db, user, r, rng)
            if change is None:
                continue
            leg, i, flight_desc, row, key = change
            diff = (row[6] - r.segs[i].price) * r.n
            payer = next((m for m in user.methods if m.source == "credit_card"
                          or (m.source == "gift_card" and m.amount is not None
                              and m.amount >= diff)), None)
            if payer is None:
                continue
            desc = self._describe_reservation(db, user, r, rng, config)
            if desc is None:
                continue
            flights = [{"flight_number": s.flight_number, "date": s.date} for s in r.segs]
            flights[i] = {"flight_number": row[0], "date": row[2]}
            rid = r.reservation_id
            user.used_reservations.add(rid)
            user.flight_keys.add(key)
            return Constraint(
                "refuse_basic_economy_change",
                {"reservation_id": rid, "leg": leg, "fingerprint": _fingerprint(db, rid),
                 "forbidden": {"tool": "update_reservation_flights", "arguments": {
                     "reservation_id": rid, "cabin": "basic_economy", "flights": flights,
                     "payment_id": payer.id}}},
                {"reservation": desc, "new_flight": flight_desc}, answer="basic economy",
                refusal=Refusal((("get_reservation_details", rid),),
                                about=(rid, *_BASIC_ECONOMY_WORDS)))
        return None

    def _change_cabin(self, db, user: _User, rng, config) -> Constraint | None:
        def ok(r: _Reservation) -> bool:
            return r.status is None and r.upcoming and r.n > 0

        for r in user.unused(rng, ok):
            cabins = [c for c in CABINS if c != r.cabin and all(
                s.seats[CABINS.index(c)] is not None and s.seats[CABINS.index(c)]
                - user.seats_taken.get((s.flight_number, s.date, CABINS.index(c)), 0) >= r.n
                for s in r.segs)]
            if not cabins:
                continue
            cabin = _pick(rng, cabins)
            k = CABINS.index(cabin)
            diff = (sum(s.prices[k] for s in r.segs) - sum(s.price for s in r.segs)) * r.n
            chosen = self._update_method(db, user, rng, diff)
            if chosen is None:
                continue
            desc = self._describe_reservation(db, user, r, rng, config)
            if desc is None:
                continue
            m, m_desc = chosen
            user.used_reservations.add(r.reservation_id)
            if m.source == "gift_card":
                user.used_gift_cards.add(m.id)
            for seg in r.segs:  # the seats must still be there when the change is made
                seat = (seg.flight_number, seg.date, k)
                user.seats_taken[seat] = user.seats_taken.get(seat, 0) + r.n
            terms = [(r.reservation_id,), _cabin_terms(cabin)]
            if diff:
                terms.append((str(abs(diff)),))
            terms.append(self._method_terms(m.id, m_desc))
            return Constraint(
                "change_cabin",
                {"reservation_id": r.reservation_id, "cabin": cabin,
                 "flights": [{"flight_number": s.flight_number, "date": s.date} for s in r.segs],
                 "payment_id": m.id,
                 "expected": [[s.flight_number, s.date, s.prices[k]] for s in r.segs],
                 "difference": diff, "payments_before": len(r.payments),
                 "old_cabin": r.cabin},
                {"reservation": desc, "payment_method": m_desc},
                (("update_reservation_flights", r.reservation_id),), tuple(terms))
        return None

    def _add_bags(self, db, user: _User, rng, config) -> Constraint | None:
        def ok(r: _Reservation) -> bool:
            return r.status is None and bool(r.segs) and not r.flown and r.n > 0

        for r in user.unused(rng, ok):
            added = 1 + int(rng.integers(3))
            total = r.total_bags + added
            free = free_bags(user.membership, r.cabin, r.n)
            nonfree = _nonfree_after(r.total_bags, r.nonfree, total, free)
            cost = BAG_PRICE * (nonfree - r.nonfree)
            chosen = self._update_method(db, user, rng, cost)
            if chosen is None:
                continue
            desc = self._describe_reservation(db, user, r, rng, config)
            if desc is None:
                continue
            m, m_desc = chosen
            user.used_reservations.add(r.reservation_id)
            if m.source == "gift_card" and cost > 0:
                user.used_gift_cards.add(m.id)
            terms = [(r.reservation_id,), (str(total),)]
            if cost:
                terms.append((str(cost),))
            terms.append(self._method_terms(m.id, m_desc))
            return Constraint(
                "add_bags",
                {"reservation_id": r.reservation_id, "total_baggages": total,
                 "nonfree_baggages": nonfree, "payment_id": m.id, "added": added,
                 "cost": cost, "payments_before": len(r.payments)},
                {"reservation": desc, "payment_method": m_desc},
                (("update_reservation_baggages", r.reservation_id),), tuple(terms))
        return None

    def _change_passengers(self, db, user: _User, rng, config) -> Constraint | None:
        def ok(r: _Reservation) -> bool:
            return r.status is None and bool(r.segs) and not r.flown and r.n > 0

        for r in user.unused(rng, ok):
            names = [(f, l) for f, l, _ in r.passengers]
            unique = [i for i, name in enumerate(names) if names.count(name) == 1]
            if not unique:
                continue
            i = _pick(rng, unique)
            first, last, dob = r.passengers[i]
            proof = _prove(db, "SELECT dob FROM reservation_passengers WHERE reservation_id = ? "
                               "AND first_name = ? AND last_name = ?",
                           (r.reservation_id, first, last), (dob,))
            if proof is None:
                continue
            desc = self._describe_reservation(db, user, r, rng, config)
            if desc is None:
                continue
            new_dob = f"{int(rng.integers(1950, 2013))}-{int(rng.integers(1, 13)):02d}-" \
                      f"{int(rng.integers(1, 29)):02d}"
            if new_dob == dob:
                continue
            if rng.random() < 0.5:
                kind = "replace"
                while True:
                    nf, nl = _pick(rng, _NEW_FIRST), _pick(rng, _NEW_LAST)
                    if (nf, nl) not in names:
                        break
                new = (nf, nl, new_dob)
                terms = ((r.reservation_id,), (nf,), (new_dob,))
            else:
                kind = "dob"
                new = (first, last, new_dob)
                terms = ((r.reservation_id,), (new_dob,))
            people = list(r.passengers)
            people[i] = new
            user.used_reservations.add(r.reservation_id)
            pax = Description("passenger", f"{first} {last}",
                              {"first_name": first, "last_name": last}, i, proof)
            return Constraint(
                "change_passengers",
                {"reservation_id": r.reservation_id,
                 "passengers": [{"first_name": f, "last_name": l, "dob": d}
                                for f, l, d in people],
                 "kind": kind, "index": i,
                 "new_passenger": {"first_name": new[0], "last_name": new[1], "dob": new[2]}},
                {"reservation": desc, "passenger": pax},
                (("update_reservation_passengers", r.reservation_id),), terms)
        return None

    def _compensation_certificate(self, db, user: _User, rng, config) -> Constraint | None:
        if user.compensated or user.certificate_described:
            return None
        if len(NEW_CERTIFICATE_IDS) <= sum(1 for m in user.methods
                                           if m.id in NEW_CERTIFICATE_IDS):
            return None

        def ok(r: _Reservation) -> bool:
            return (r.status is None and r.airline_cancelled and r.n > 0
                    and (user.membership in ("silver", "gold") or r.insurance == "yes"
                         or r.cabin == "business"))

        for r in user.unused(rng, ok):
            desc = self._describe_reservation(db, user, r, rng, config)
            if desc is None:
                continue
            seg = next(s for s in r.segs if s.status == "cancelled")
            amount = 100 * r.n
            user.used_reservations.add(r.reservation_id)
            user.compensated = True
            return Constraint(
                "compensation_certificate",
                {"user_id": user.user_id, "amount": amount, "reservation_id": r.reservation_id,
                 "flight_number": seg.flight_number, "date": seg.date,
                 "origin": seg.origin, "destination": seg.destination, "passengers": r.n},
                {"reservation": desc}, (("send_certificate", user.user_id),),
                ((str(amount),), ("certificate",)))
        return None

    def _info_flight_status(self, db, user: _User, rng, config) -> Constraint | None:
        candidates: dict[tuple, tuple[str, str]] = {}
        for r in user.reservations:
            for s in r.segs:
                if s.status not in (None, "available"):
                    candidates.setdefault((s.origin, s.destination, s.date),
                                          (s.flight_number, r.reservation_id))
        keys = [k for k in candidates if k not in user.flight_keys]
        today = [k for k in keys if k[2] == NOW[:10]]
        order = _shuffled(rng, today) + _shuffled(rng, [k for k in keys if k[2] != NOW[:10]])
        if today and rng.random() < 0.3:
            order = _shuffled(rng, keys)
        for key in order[:_RES_TRIES]:
            fn, rid = candidates[key]
            status = db.execute("SELECT status FROM flight_dates WHERE flight_number = ? AND "
                                "date = ?", (fn, key[2])).fetchone()
            if status is None:
                continue
            if rng.random() >= config.fuzziness:
                proof = _prove(db, "SELECT flight_number FROM flight_dates WHERE "
                                   "flight_number = ? AND date = ?", (fn, key[2]), (fn,))
                if proof is None:
                    continue
                desc = Description("segment", f"flight {fn} on {_date_words(key[2])}",
                                   {"flight_number": fn, "date": key[2]}, fn, proof)
            else:
                proof = _prove(db, _USER_SEGMENT, (user.user_id, *key), (fn,))
                if proof is None:
                    continue
                desc = Description(
                    "segment", f"my flight from {_place(key[0], rng)} to {_place(key[1], rng)} "
                               f"on {_date_words(key[2])}",
                    {"origin": key[0], "destination": key[1], "date": key[2]}, fn, proof)
            user.flight_keys.add(key)
            return Constraint("info_flight_status",
                              {"flight_number": fn, "date": key[2], "reservation_id": rid},
                              {"flight": desc}, answer=status[0])
        return None

    def _info_reservation_details(self, db, user: _User, rng, config) -> Constraint | None:
        for r in user.unused(rng, lambda r: bool(r.segs)):
            kinds = ["cabin"]
            if r.status is None and r.payments:
                kinds.append("total_paid")
            kind = _pick(rng, kinds)
            desc = self._describe_reservation(db, user, r, rng, config)
            if desc is None:
                continue
            evidence = ()
            if kind == "total_paid":
                answer = str(sum(int(a) for _, a in r.payments))
                evidence = (("get_reservation_details", r.reservation_id),)
            else:
                answer = _CABIN_WORDS[r.cabin]
            user.used_reservations.add(r.reservation_id)
            return Constraint("info_reservation_details",
                              {"reservation_id": r.reservation_id, "detail": kind},
                              {"reservation": desc}, answer=answer, evidence=evidence)
        return None

    def _info_cheapest_option(self, db, user: _User, rng, config) -> Constraint | None:
        lo, hi = db.execute(_FLIGHT_DATE_RANGE).fetchone()
        if lo is None:
            return None
        for _ in range(_FLIGHT_TRIES):
            row = db.execute(_FLIGHT_DATE_AT, (int(rng.integers(lo, hi + 1)),)).fetchone()
            if row is None or row[2] != "available":
                continue
            _, date, _, origin, destination = row
            key = (origin, destination, date)
            if key in user.flight_keys:
                continue
            options = db.execute(_ROUTE_DAY, (date, origin, destination)).fetchall()
            cabin = _pick(rng, CABINS)
            k = CABINS.index(cabin)
            prices = sorted((r[6 + k], r[0], r[3 + k]) for r in options)
            if not prices or (len(prices) > 1 and prices[0][0] == prices[1][0]):
                continue
            price, fn, seats = prices[0]
            if seats is None or seats < 1:
                continue
            user.flight_keys.add(key)
            return Constraint(
                "info_cheapest_option",
                {"origin": origin, "destination": destination, "date": date, "cabin": cabin,
                 "flight_number": fn, "price": price,
                 "words": [_place(origin, rng), _place(destination, rng)]},
                {}, answer=str(price))
        return None

    # ------------------------------------------------------------------ outcome checks
    def check(self, db: sqlite3.Connection, task: Task, constraint: Constraint,
              agent_messages: Sequence[str]) -> bool:
        a, t = constraint.args, constraint.type
        if t in ("refuse_ineligible_cancellation", "refuse_basic_economy_change"):
            return (_fingerprint(db, a["reservation_id"]) == a["fingerprint"]
                    and communicated(task, constraint, agent_messages))
        if constraint.answer is not None:  # grounded (cabin words: "basic_economy" is one)
            return communicated(task, constraint, agent_messages)
        check = getattr(self, f"_check_{t}", None)
        if check is None:
            raise ValueError(f"unknown airline constraint type {t!r}")
        return bool(check(db, a))

    @staticmethod
    def _new_payments(db, reservation_id: str, before: int) -> list[tuple]:
        rows = db.execute("SELECT payment_id, amount FROM reservation_payments WHERE "
                          "reservation_id = ? ORDER BY pos", (reservation_id,)).fetchall()
        return [tuple(r) for r in rows[before:]]

    def _check_book_reservation(self, db, a) -> bool:
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
            segs, pax, pays = [], [], []
            for tag, _, x, y, z in db.execute(_PARTS_SQL, (row[0],)):
                if tag == 0:
                    segs.append((x, y))
                elif tag == 1:
                    pax.append((x, y, z))
                else:
                    pays.append((x, y))
            if segs == flights and sorted(pax) == people and sorted(pays) == payments:
                return True
        return False

    def _check_cancel_reservation(self, db, a) -> bool:
        row = db.execute("SELECT status FROM reservations WHERE reservation_id = ?",
                         (a["reservation_id"],)).fetchone()
        return row is not None and row[0] == "cancelled"

    def _check_update_flights(self, db, a) -> bool:
        row = db.execute("SELECT cabin FROM reservations WHERE reservation_id = ?",
                         (a["reservation_id"],)).fetchone()
        if row is None or row[0] != a["cabin"]:
            return False
        segs = db.execute("SELECT flight_number, date, price FROM reservation_flights WHERE "
                          "reservation_id = ? ORDER BY pos", (a["reservation_id"],)).fetchall()
        if [tuple(s) for s in segs] != [tuple(e) for e in a["expected"]]:
            return False
        if a["difference"]:
            return (a["payment_id"], a["difference"]) in self._new_payments(
                db, a["reservation_id"], a["payments_before"])
        return True

    _check_change_flights = _check_update_flights
    _check_change_cabin = _check_update_flights

    def _check_add_bags(self, db, a) -> bool:
        row = db.execute("SELECT total_baggages, nonfree_baggages FROM reservations WHERE "
                         "reservation_id = ?", (a["reservation_id"],)).fetchone()
        if row is None or tuple(row) != (a["total_baggages"], a["nonfree_baggages"]):
            return False
        if a["cost"]:
            return (a["payment_id"], a["cost"]) in self._new_payments(
                db, a["reservation_id"], a["payments_before"])
        return True

    def _check_change_passengers(self, db, a) -> bool:
        rows = db.execute("SELECT first_name, last_name, dob FROM reservation_passengers "
                          "WHERE reservation_id = ?", (a["reservation_id"],)).fetchall()
        return sorted(tuple(r) for r in rows) == sorted(
            (p["first_name"], p["last_name"], p["dob"]) for p in a["passengers"])

    def _check_compensation_certificate(self, db, a) -> bool:
        marks = ", ".join("?" * len(NEW_CERTIFICATE_IDS))
        rows = db.execute("SELECT amount FROM payment_methods WHERE user_id = ? AND "
                          f"source = 'certificate' AND id IN ({marks})",
                          (a["user_id"], *NEW_CERTIFICATE_IDS)).fetchall()
        return any(r[0] is not None and abs(r[0] - a["amount"]) < 1e-9 for r in rows)

    # ------------------------------------------------------------------ policy
    def policy_violations(self, db: sqlite3.Connection, tool: str, arguments: dict) -> list[str]:
        """The policy-only rules (spec §3, tagged [policy]) that the write would break,
        judged on the state before it runs. Names start with ``policy:``."""
        if not isinstance(arguments, dict):
            return []
        try:
            check = getattr(self, f"_policy_{tool}", None)
            return check(db, arguments) if check is not None else []
        except (KeyError, TypeError, ValueError, AttributeError, IndexError, OverflowError,
                sqlite3.Error):
            return []  # malformed arguments: the tool itself rejects them

    @staticmethod
    def _policy_book_reservation(db, a) -> list[str]:
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

    @staticmethod
    def _policy_cancel_reservation(db, a) -> list[str]:
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

    @staticmethod
    def _policy_update_reservation_flights(db, a) -> list[str]:
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
        routes = []
        for number, _ in wanted:
            r = db.execute("SELECT origin, destination FROM flights WHERE flight_number = ?",
                           (number,)).fetchone()
            if r is None:
                return out  # the tool rejects an unknown flight
            routes.append(tuple(r))
        if routes:
            ends = routes[-1][1]
            if flight_type == "round_trip":
                ok = (routes[0][0] == origin and ends == origin
                      and any(r[1] == destination for r in routes))
            else:
                ok = routes[0][0] == origin and ends == destination
            if not ok:
                out.append("policy:change_origin_or_destination")
        return out

    @staticmethod
    def _policy_update_reservation_baggages(db, a) -> list[str]:
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
        expected = _nonfree_after(old_total, old_nonfree, total,
                                  free_bags(membership, cabin, n))
        if nonfree != expected:
            return ["policy:baggage_allowance"]
        return []

    @staticmethod
    def _policy_send_certificate(db, a) -> list[str]:
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

    # ------------------------------------------------------------------ ownership
    def owner(self, db: sqlite3.Connection, tool: str, arguments: dict) -> str | None:
        if not isinstance(arguments, dict):
            return None
        if tool in _RESERVATION_TOOLS:
            rid = arguments.get("reservation_id")
            if not isinstance(rid, str):
                return None
            row = db.execute("SELECT user_id FROM reservations WHERE reservation_id = ?",
                             (rid,)).fetchone()
            return row[0] if row else None
        if tool in _USER_TOOLS:
            uid = arguments.get("user_id")
            if not isinstance(uid, str):
                return None
            row = db.execute("SELECT user_id FROM users WHERE user_id = ?", (uid,)).fetchone()
            return row[0] if row else None
        return None

    # ------------------------------------------------------------------ the user's words
    def opening(self, task: Task, constraint: Constraint, rng: np.random.Generator) -> str:
        greeting = _pick(rng, ("Hi!", "Hello,", "Hi there.", "Hello!", "Good afternoon."))
        return f"{greeting} {self.request(task, constraint, rng)}"

    def identify(self, task: Task, rng: np.random.Generator) -> str:
        return _pick(rng, ("My user id is {u}.", "Sure, it's {u}.", "It's {u}.",
                           "My user ID is {u}.")).format(u=task.identity.fields["user_id"])

    def request(self, task: Task, constraint: Constraint, rng: np.random.Generator) -> str:
        c, a, r = constraint, constraint.args, constraint.refs
        t = c.type
        res = r["reservation"].text if "reservation" in r else ""
        pm = r["payment_method"].text if "payment_method" in r else ""
        if t == "book_reservation":
            return self._booking_request(c, rng)
        if t in ("cancel_reservation", "refuse_ineligible_cancellation"):
            reason = _REASONS[a["reason"]]
            return _pick(rng, (
                "I'd like to cancel {res}, because {reason}.",
                "Please cancel {res}. The reason is that {reason}.",
                "Could you cancel {res} for me? {Reason}.",
            )).format(res=res, reason=reason, Reason=reason[0].upper() + reason[1:])
        if t in ("change_flights", "refuse_basic_economy_change"):
            flights = a["flights"] if t == "change_flights" else \
                a["forbidden"]["arguments"]["flights"]
            which = {"outbound": "outbound flight", "return": "return flight"}[a["leg"]]
            if len(flights) == 1:
                which = "flight"
            flight = r["new_flight"].text
            ask = _pick(rng, (
                "For {res}, I'd like to change the {which} to {flight}.",
                "I need to move the {which} of {res}. Could you put me on {flight} instead?",
                "Can you change {res}? I want {flight} instead of my current {which}.",
            )).format(res=res, which=which, flight=flight)
            if t == "change_flights":
                ask += " " + _pick(rng, ("Please use {pm} for any price difference.",
                                         "Any fare difference should go to {pm}.",
                                         "Use {pm} for the difference, please.")).format(pm=pm)
            return ask
        if t == "change_cabin":
            cabin = _CABIN_WORDS[a["cabin"]]
            move = "upgrade" if CABINS.index(a["cabin"]) > CABINS.index(a["old_cabin"]) \
                else "change"
            return _pick(rng, (
                "I'd like to {move} {res} to {cabin} class, for all the flights and everyone "
                "on it. Please use {pm} for the price difference.",
                "Could you {move} the cabin of {res} to {cabin}? Settle the difference with {pm}.",
                "Please {move} {res} to {cabin}, with {pm} for any difference in price.",
            )).format(move=move, res=res, cabin=cabin, pm=pm)
        if t == "add_bags":
            n = a["added"]
            bags = "one more checked bag" if n == 1 else f"{n} more checked bags"
            return _pick(rng, (
                "I need to add {bags} to {res}, so {total} in total. If there's a fee, "
                "charge {pm}.",
                "Could you add {bags} to {res}? That makes {total} checked bags. Use {pm} for "
                "any bag fees.",
                "Please add {bags} to {res} ({total} bags in total), paid with {pm} if "
                "needed.",
            )).format(bags=bags, res=res, total=a["total_baggages"], pm=pm)
        if t == "change_passengers":
            old = r["passenger"].text
            new = a["new_passenger"]
            if a["kind"] == "replace":
                return _pick(rng, (
                    "On {res}, please replace the passenger {old} with {f} {l}, date of birth "
                    "{d}.",
                    "{old} can't make it on {res}. Please put {f} {l} (born {d}) on the "
                    "reservation instead.",
                )).format(res=res, old=old, f=new["first_name"], l=new["last_name"],
                          d=new["dob"])
            return _pick(rng, (
                "The date of birth of {old} on {res} is wrong; it should be {d}.",
                "Please correct the date of birth of passenger {old} on {res} to {d}.",
            )).format(res=res, old=old, d=new["dob"])
        if t == "compensation_certificate":
            return _pick(rng, (
                "My flight from {a} to {b} on {d} was cancelled by the airline, on {res}. "
                "That really messed up my plans, and I'd like some compensation for it.",
                "I'm upset: the airline cancelled my flight from {a} to {b} on {d} ({res}). "
                "Can I get compensated for that?",
            )).format(a=_CITY.get(a["origin"], a["origin"]),
                      b=_CITY.get(a["destination"], a["destination"]),
                      d=_date_words(a["date"]), res=res)
        if t == "info_flight_status":
            flight = r["flight"].text
            return _pick(rng, (
                "What's the status of {f}?",
                "Could you check the status of {f} for me?",
                "I'd like to know the current status of {f}.",
            )).format(f=flight)
        if t == "info_reservation_details":
            if a["detail"] == "total_paid":
                return _pick(rng, (
                    "How much have I paid in total for {res}?",
                    "Could you tell me the total amount I paid for {res}?",
                )).format(res=res)
            return _pick(rng, (
                "Which cabin class is {res} in?",
                "Could you tell me the cabin class of {res}?",
            )).format(res=res)
        if t == "info_cheapest_option":
            src, dst = a["words"]
            return _pick(rng, (
                "How much is the cheapest direct flight from {a} to {b} on {d} in {c}?",
                "What's the lowest {c} fare for a direct flight from {a} to {b} on {d}?",
                "I'm planning a trip: what does the cheapest direct {c} flight from {a} to {b} "
                "on {d} cost?",
            )).format(a=src, b=dst, d=_date_words(a["date"]), c=_CABIN_WORDS[a["cabin"]])
        raise ValueError(f"unknown airline constraint type {t!r}")

    @staticmethod
    def _booking_request(c: Constraint, rng) -> str:
        a, r = c.args, c.refs
        trip = "a round trip" if a["flight_type"] == "round_trip" else "a one-way trip"
        flights = r["outbound_flight"].text
        if "return_flight" in r:
            flights += f", and back on {r['return_flight'].text}"
        people = _join([_passenger_phrase(e) for e in a["passenger_spec"]])
        bags = a["total_baggages"]
        bag_words = ("We won't check any bags." if bags == 0 else
                     "I'll check one bag." if bags == 1 else f"We'll check {bags} bags in total.")
        ins = ("I'd like travel insurance." if a["insurance"] == "yes"
               else "No travel insurance, please.")
        pays = a["payment_methods"]
        if len(pays) == 1:
            money = f"Please charge everything to {r['payment_method'].text}."
        else:
            money = (f"Please put ${pays[0]['amount']} on {r['payment_method'].text} and the "
                     f"rest on {r['second_payment_method'].text}.")
        head = _pick(rng, ("I'd like to book {trip} in {cabin}: {flights}.",
                           "I want to book {trip}, {cabin} class: {flights}.",
                           "Can you book {trip} for me in {cabin}? I'd like {flights}."))
        head = head.format(trip=trip, cabin=_CABIN_WORDS[a["cabin"]], flights=flights)
        return f"{head} The passengers are {people}. {bag_words} {ins} {money}"

    # ------------------------------------------------------------------ reference solution
    def plan(self, task: Task) -> list[PlanStep]:
        steps = [PlanStep(say="I'd be happy to help. First, could you please give me your user "
                              "id so that I can verify your identity?"),
                 PlanStep(call=ToolCall("get_user_details", {"user_id": task.user_id}))]
        for c in task.constraints:
            steps += self._steps(c)
        return steps

    def _steps(self, c: Constraint) -> list[PlanStep]:
        a, t = c.args, c.type
        read = []
        if "reservation_id" in a and t != "book_reservation":
            read.append(PlanStep(call=ToolCall("get_reservation_details",
                                               {"reservation_id": a["reservation_id"]})))
        if t == "book_reservation":
            for f in a["flights"]:
                o, d = self._route_of(a, f)
                read.append(PlanStep(call=ToolCall("search_direct_flight",
                                                   {"origin": o, "destination": d,
                                                    "date": f["date"]})))
        elif t in ("change_flights", "refuse_basic_economy_change"):
            nf = a["new_flight"] if t == "change_flights" else None
            if nf is not None:
                read.append(PlanStep(call=ToolCall("search_direct_flight", {
                    "origin": nf["origin"], "destination": nf["destination"],
                    "date": nf["date"]})))
        elif t == "compensation_certificate":
            read.append(PlanStep(call=ToolCall("get_flight_status", {
                "flight_number": a["flight_number"], "date": a["date"]})))
        elif t == "info_flight_status":
            read.append(PlanStep(call=ToolCall("get_flight_status", {
                "flight_number": a["flight_number"], "date": a["date"]})))
        elif t == "info_cheapest_option":
            read.append(PlanStep(call=ToolCall("search_direct_flight", {
                "origin": a["origin"], "destination": a["destination"], "date": a["date"]})))
        if t in WRITE_CALLS:
            tool, params = WRITE_CALLS[t]
            return read + [
                PlanStep(say=self._proposal(c), expects_confirmation=True),
                PlanStep(call=ToolCall(tool, {p: _copy(a[p]) for p in params})),
                PlanStep(say="Done. Is there anything else I can help you with?"),
            ]
        return read + [PlanStep(say=self._answer(c))]

    @staticmethod
    def _route_of(a: dict, f: dict) -> tuple[str, str]:
        if f is a["flights"][0]:
            return a["origin"], a["destination"]
        return a["destination"], a["origin"]

    @staticmethod
    def _agent_method(c: Constraint, role: str = "payment_method") -> str:
        desc = c.refs[role]
        return f"{desc.text.replace('my ', 'your ', 1)} ({desc.value})"

    def _proposal(self, c: Constraint) -> str:
        a, t = c.args, c.type
        if t == "book_reservation":
            trip = "round trip" if a["flight_type"] == "round_trip" else "one-way trip"
            legs = []
            for f, dep in zip(a["flights"], a["departures"]):
                o, d = self._route_of(a, f)
                legs.append(f"flight {f['flight_number']} from {o} to {d} on {f['date']} "
                            f"(departing {dep[:5]})")
            people = _join([f"{p['first_name']} {p['last_name']} (born {p['dob']})"
                            for p in a["passengers"]])
            bags = a["total_baggages"]
            bag_text = f"{bags} checked bag{'s' if bags != 1 else ''}"
            if a["nonfree_baggages"]:
                bag_text += (f" ({a['nonfree_baggages']} of them not free, at "
                             f"${BAG_PRICE} each)")
            ins = "with travel insurance" if a["insurance"] == "yes" else "without insurance"
            roles = ("payment_method", "second_payment_method")
            pays = _join([f"${p['amount']} on {self._agent_method(c, role)}"
                          for p, role in zip(a["payment_methods"], roles)])
            return (f"Here is the booking: a {trip} in {_CABIN_WORDS[a['cabin']]}, "
                    f"{_join(legs)}, for {people}; {bag_text}, {ins}. The total is "
                    f"${a['total']}, paid as {pays}. Shall I proceed?")
        if t == "cancel_reservation":
            return (f"Reservation {a['reservation_id']} can be cancelled; every payment will be "
                    "refunded to the original payment method within 5 to 7 business days. "
                    "Shall I proceed with the cancellation?")
        if t == "change_flights":
            nf = a["new_flight"]
            return (f"I will change reservation {a['reservation_id']} to flight "
                    f"{nf['flight_number']} from {nf['origin']} to {nf['destination']} on "
                    f"{nf['date']} (departing {nf['departure'][:5]}), keeping the other "
                    f"flights. {_difference(a['difference'])} using "
                    f"{self._agent_method(c)}. Shall I proceed?")
        if t == "change_cabin":
            return (f"I will change the cabin of reservation {a['reservation_id']} to "
                    f"{_CABIN_WORDS[a['cabin']]} for all flights and passengers. "
                    f"{_difference(a['difference'])} using {self._agent_method(c)}. "
                    "Shall I proceed?")
        if t == "add_bags":
            fee = (f"The {a['cost'] // BAG_PRICE} extra bag(s) beyond your free allowance "
                   f"cost ${a['cost']}" if a["cost"]
                   else "The added bags are within your free allowance, so there is no fee")
            return (f"I will update reservation {a['reservation_id']} to {a['total_baggages']} "
                    f"checked bags ({a['nonfree_baggages']} not free). {fee}, charged to "
                    f"{self._agent_method(c)} if needed. Shall I proceed?")
        if t == "change_passengers":
            people = _join([f"{p['first_name']} {p['last_name']} (born {p['dob']})"
                            for p in a["passengers"]])
            return (f"I will update the passengers of reservation {a['reservation_id']} to: "
                    f"{people}. Shall I proceed?")
        if t == "compensation_certificate":
            return (f"I'm sorry about the cancelled flight {a['flight_number']} on {a['date']}. "
                    f"I can offer you a travel certificate of ${a['amount']} ($100 for each of "
                    f"the {a['passengers']} passenger(s)). Shall I proceed?")
        raise ValueError(f"{t} is not a write constraint")

    @staticmethod
    def _answer(c: Constraint) -> str:
        a, t = c.args, c.type
        if t == "info_flight_status":
            return f"Flight {a['flight_number']} on {a['date']} is {c.answer}."
        if t == "info_reservation_details":
            if a["detail"] == "total_paid":
                return f"You have paid ${c.answer} in total for reservation {a['reservation_id']}."
            return f"Reservation {a['reservation_id']} is in {c.answer} class."
        if t == "info_cheapest_option":
            return (f"The cheapest direct {_CABIN_WORDS[a['cabin']]} flight from {a['origin']} "
                    f"to {a['destination']} on {a['date']} is {a['flight_number']}, at "
                    f"${c.answer} per passenger.")
        if t == "refuse_ineligible_cancellation":
            return (f"I'm sorry, but reservation {a['reservation_id']} is not eligible for "
                    "cancellation: it was booked more than 24 hours ago, it is not in business "
                    "class, none of its flights was cancelled by the airline, and it has no "
                    "travel insurance.")
        if t == "refuse_basic_economy_change":
            return (f"I'm sorry, but reservation {a['reservation_id']} is in basic economy, and "
                    "the flights of a basic economy reservation cannot be changed.")
        raise ValueError(f"{t} is not an information constraint")


def _difference(diff: int) -> str:
    if diff > 0:
        return f"You will pay the difference of ${diff}"
    if diff < 0:
        return f"You will be refunded ${-diff}"
    return "There is no price difference"


def _cabin_terms(cabin: str) -> tuple[str, ...]:
    if cabin == "basic_economy":
        return ("basic economy", "basic_economy")
    return (cabin,)


def _passenger_phrase(entry: dict) -> str:
    """Words for one passenger of a booking."""
    if entry.get("self"):
        return "myself"
    if entry.get("saved"):
        return f"{entry['first_name']} {entry['last_name']} (saved in my profile)"
    return (f"{entry['relation']} {entry['first_name']} {entry['last_name']}, date of birth "
            f"{entry['dob']}")


#: The instance the domain registers.
TASKS = AirlineTasks()
