"""The 14 tools of the airline domain (tau2-bench ``airline`` compatible).

Spec conformance, tau2's quirks kept on purpose, argument handling: ``docs/airline-data.md``.
"""

from __future__ import annotations

import sqlite3
from typing import Annotated, Any, Literal

from ...core import common_tools
from ...core.common_tools import human_transfer_tool
from ...core.ids import first_free, next_number
from ...core.rows import fetch_parts, fetch_row
from ...core.tools import Category, Entity, Quotas, ToolError, tool
from .io import (
    FLIGHT_DATE_COLUMNS,
    RESERVATION_COLUMNS,
    USER_COLUMNS,
    payment_method_record,
    reservation_record,
    segment_record,
    user_record,
)

#: Growth bounds of one sandbox (see :class:`~tool_gym.core.tools.Quotas`): tau2's airline
#: data holds about 9,000 flight dates and 5,000 reservation legs.
QUOTAS = Quotas(rows={"payment_methods": 20_000, "reservations": 20_000}, default_rows=50_000)

UserId = Annotated[str, Entity("user_id")]
ReservationId = Annotated[str, Entity("reservation_id")]
FlightNumber = Annotated[str, Entity("flight_number")]
PaymentId = Annotated[str, Entity("payment_id")]
Airport = Annotated[str, Entity("airport")]

Cabin = Literal["basic_economy", "economy", "business"]
FlightType = Literal["one_way", "round_trip"]
Insurance = Literal["yes", "no"]

#: The fixed clock (EST): "now" for every tool.
NOW = "2024-05-15T15:00:00"
#: Ids a new reservation gets, the first one not taken.
NEW_RESERVATION_IDS = ("HATHAT", "HATHAU", "HATHAV")
#: Ids a new certificate gets, the first one the user lacks.
NEW_CERTIFICATE_IDS = ("certificate_3221322", "certificate_3221323", "certificate_3221324")
#: Price of travel insurance per passenger, and of each non-free checked bag.
INSURANCE_PRICE = 30
BAG_PRICE = 50

#: (IATA code, city) of every airport, in the order ``list_all_airports`` returns them.
AIRPORTS = (
    ("SFO", "San Francisco"), ("JFK", "New York"), ("LAX", "Los Angeles"), ("ORD", "Chicago"),
    ("DFW", "Dallas"), ("DEN", "Denver"), ("SEA", "Seattle"), ("ATL", "Atlanta"),
    ("MIA", "Miami"), ("BOS", "Boston"), ("PHX", "Phoenix"), ("IAH", "Houston"),
    ("LAS", "Las Vegas"), ("MCO", "Orlando"), ("EWR", "Newark"), ("CLT", "Charlotte"),
    ("MSP", "Minneapolis"), ("DTW", "Detroit"), ("PHL", "Philadelphia"), ("LGA", "LaGuardia"),
)

_SEATS = {"basic_economy": "seats_basic_economy", "economy": "seats_economy",
          "business": "seats_business"}
_PRICE_INDEX = {"basic_economy": 4, "economy": 5, "business": 6}  # in a FLIGHT_DATE row
_SEAT_INDEX = {"basic_economy": 1, "economy": 2, "business": 3}

#: Entity types of the fields of a Reservation (output of every reservation tool).
RESERVATION_RETURNS = {
    "reservation_id": "reservation_id",
    "user_id": "user_id",
    "origin": "airport",
    "destination": "airport",
    "flights.flight_number": "flight_number",
    "payment_history.payment_id": "payment_id",
}
#: Entity types of the fields of a User. ``payment_methods`` is an object keyed by id.
USER_RETURNS = {
    "user_id": "user_id",
    "payment_methods": "payment_id",
    "reservations": "reservation_id",
}
#: Entity types of the fields of each DirectFlight of a search.
FLIGHT_RETURNS = {
    "flight_number": "flight_number",
    "origin": "airport",
    "destination": "airport",
}


# ----------------------------------------------------------------- argument objects


def _field(item: dict, key: str, where: str) -> str:
    if key not in item:
        raise ToolError(f"{where} is missing '{key}'")
    value = item[key]
    if not isinstance(value, str):
        raise ToolError(f"{where}.{key} must be a string")
    return value


def _build_flights(flights: list) -> list[tuple[str, str]]:
    """``(flight_number, date)`` of each requested flight (other keys are ignored)."""
    out = []
    for i, item in enumerate(flights):
        where = f"flights[{i}]"
        out.append((_field(item, "flight_number", where), _field(item, "date", where)))
    return out


def _build_passengers(passengers: list) -> list[tuple[str, str, str]]:
    """``(first_name, last_name, dob)`` of each passenger (other keys are ignored)."""
    out = []
    for i, item in enumerate(passengers):
        where = f"passengers[{i}]"
        out.append((_field(item, "first_name", where), _field(item, "last_name", where),
                    _field(item, "dob", where)))
    return out


def _build_payments(payments: list) -> list[tuple[str, int]]:
    """``(payment_id, amount)`` of each payment; the amount must be an integer (a float
    with zero fraction such as ``120.0`` counts as ``120``)."""
    out = []
    for i, item in enumerate(payments):
        where = f"payment_methods[{i}]"
        payment_id = _field(item, "payment_id", where)
        if "amount" not in item:
            raise ToolError(f"{where} is missing 'amount'")
        amount = item["amount"]
        if isinstance(amount, float) and amount.is_integer():
            amount = int(amount)
        if isinstance(amount, bool) or not isinstance(amount, int):
            raise ToolError(f"{where}.amount must be an integer")
        out.append((payment_id, amount))
    return out


# --------------------------------------------------------------------------- lookups


def _user_exists(db: sqlite3.Connection, user_id: str) -> None:
    if db.execute("SELECT 1 FROM users WHERE user_id = ?", (user_id,)).fetchone() is None:
        raise ToolError(f"user {user_id} not found")


def _user(db: sqlite3.Connection, user_id: str) -> dict:
    row = fetch_row(db, f"SELECT {USER_COLUMNS} FROM users WHERE user_id = ?",
                    (user_id,), f"user {user_id} not found")
    methods = {mid: payment_method_record(source, mid, brand, last_four, amount)
               for mid, source, brand, last_four, amount in db.execute(
                   "SELECT id, source, brand, last_four, amount FROM payment_methods "
                   "WHERE user_id = ? ORDER BY ord", (user_id,))}
    saved = [{"first_name": f, "last_name": l, "dob": d} for f, l, d in db.execute(
        "SELECT first_name, last_name, dob FROM saved_passengers WHERE user_id = ? "
        "ORDER BY pos", (user_id,))]
    reservations = [rid for (rid,) in db.execute(
        "SELECT reservation_id FROM user_reservations WHERE user_id = ? ORDER BY pos",
        (user_id,))]
    return user_record(row, methods, saved, reservations)


def _methods(db: sqlite3.Connection, user_id: str) -> dict[str, tuple[str, Any]]:
    """``id -> (source, amount)`` of the user's payment methods."""
    return {mid: (source, amount) for mid, source, amount in db.execute(
        "SELECT id, source, amount FROM payment_methods WHERE user_id = ?", (user_id,))}


def _method(db: sqlite3.Connection, user_id: str, payment_id: str) -> tuple[str, Any] | None:
    """``(source, amount)`` of one of the user's payment methods, or ``None``."""
    return db.execute("SELECT source, amount FROM payment_methods WHERE user_id = ? AND id = ?",
                      (user_id, payment_id)).fetchone()


def _reservation_row(db: sqlite3.Connection, reservation_id: str) -> tuple:
    return fetch_row(db, f"SELECT {RESERVATION_COLUMNS} FROM reservations WHERE reservation_id = ?",
                     (reservation_id,), f"reservation {reservation_id} not found")


_RESERVATION_PARTS_SQL = (
    "SELECT 0, pos, flight_number, origin, destination, date, price "
    "FROM reservation_flights WHERE reservation_id = ?1 "
    "UNION ALL SELECT 1, pos, first_name, last_name, dob, NULL, NULL "
    "FROM reservation_passengers WHERE reservation_id = ?1 "
    "UNION ALL SELECT 2, pos, payment_id, NULL, NULL, NULL, amount "
    "FROM reservation_payments WHERE reservation_id = ?1"
)


def _reservation(db: sqlite3.Connection, row: tuple) -> dict:
    """The full Reservation of a ``RESERVATION_COLUMNS`` row (one query for its lists)."""
    parts = fetch_parts(db, _RESERVATION_PARTS_SQL, (row[0],))
    flights, passengers, payments = [], [], []
    for kind, _, a, b, c, d, number in parts:
        if kind == 0:
            flights.append(segment_record(a, b, c, d, number))
        elif kind == 1:
            passengers.append({"first_name": a, "last_name": b, "dob": c})
        else:
            payments.append({"payment_id": a, "amount": number})
    return reservation_record(row, flights, passengers, payments)


def _reservation_by_id(db: sqlite3.Connection, reservation_id: str) -> dict:
    return _reservation(db, _reservation_row(db, reservation_id))


def _segments(db: sqlite3.Connection, reservation_id: str) -> list[tuple]:
    """``(flight_number, origin, destination, date, price)`` of each segment, in order."""
    return db.execute("SELECT flight_number, origin, destination, date, price "
                      "FROM reservation_flights WHERE reservation_id = ? ORDER BY pos",
                      (reservation_id,)).fetchall()


def _passenger_count(db: sqlite3.Connection, reservation_id: str) -> int:
    return db.execute("SELECT count(*) FROM reservation_passengers WHERE reservation_id = ?",
                      (reservation_id,)).fetchone()[0]


def _flight(db: sqlite3.Connection, flight_number: str) -> tuple[str, str]:
    """``(origin, destination)`` of a flight."""
    return fetch_row(db, "SELECT origin, destination FROM flights WHERE flight_number = ?",
                     (flight_number,), f"flight {flight_number} not found")


def _flight_date(db: sqlite3.Connection, flight_number: str, date: str) -> tuple:
    """The ``FLIGHT_DATE_COLUMNS`` row of a flight on a date (flight lookup first)."""
    row = db.execute(f"SELECT {FLIGHT_DATE_COLUMNS} FROM flight_dates "
                     "WHERE flight_number = ? AND date = ?", (flight_number, date)).fetchone()
    if row is None:
        _flight(db, flight_number)
        raise ToolError(f"flight {flight_number} not found on date {date}")
    return row


def _bookable(db: sqlite3.Connection, flight_number: str, date: str, cabin: str,
              n: int) -> tuple[tuple[str, str], tuple]:
    """Flight and flight-date rows of a segment to (re)price; checks status and seats."""
    flight = _flight(db, flight_number)
    fd = _flight_date(db, flight_number, date)
    if fd[0] != "available":
        raise ToolError(f"flight {flight_number} not available on date {date}")
    if fd[_SEAT_INDEX[cabin]] < n:
        raise ToolError(f"not enough seats on flight {flight_number} on {date}")
    return flight, fd


def _set_amount(db: sqlite3.Connection, user_id: str, payment_id: str, amount: float) -> None:
    db.execute("UPDATE payment_methods SET amount = ? WHERE user_id = ? AND id = ?",
               (amount, user_id, payment_id))


def _append_payment(db: sqlite3.Connection, reservation_id: str, payment_id: str,
                    amount: int) -> None:
    pos = next_number(db, "reservation_payments", "pos", scope={"reservation_id": reservation_id})
    db.execute("INSERT INTO reservation_payments (reservation_id, pos, payment_id, amount) "
               "VALUES (?, ?, ?, ?)", (reservation_id, pos, payment_id, amount))


def _check_update_payment(db: sqlite3.Connection, user_id: str, payment_id: str,
                           price: int) -> tuple[str, Any]:
    """The payment check of the update tools (spec 2.3, baggages step 3)."""
    method = _method(db, user_id, payment_id)
    if method is None:
        raise ToolError(f"payment method {payment_id} not found")
    source, amount = method
    if source == "certificate":
        raise ToolError("certificate not allowed to update a reservation")
    if source == "gift_card" and amount < price:
        raise ToolError(f"insufficient gift card balance in {payment_id}")
    return method


def _flight_dict(row: tuple, date: str | None) -> dict:
    """A DirectFlight from ``(flight_number, origin, destination, sched_dep, sched_arr,
    seats x3, prices x3)``."""
    number, origin, destination, dep, arr, sb, se, sbu, pb, pe, pbu = row
    return {
        "flight_number": number,
        "origin": origin,
        "destination": destination,
        "status": "available",
        "scheduled_departure_time_est": dep,
        "scheduled_arrival_time_est": arr,
        "date": date,
        "available_seats": {"basic_economy": sb, "economy": se, "business": sbu},
        "prices": {"basic_economy": pb, "economy": pe, "business": pbu},
    }


_SEARCH_COLUMNS = (
    "f.flight_number, f.origin, f.destination, f.sched_dep, f.sched_arr, d.seats_basic_economy, "
    "d.seats_economy, d.seats_business, d.price_basic_economy, d.price_economy, d.price_business"
)
_SECOND_COLUMNS = (
    "g.flight_number, g.origin, g.destination, g.sched_dep, g.sched_arr, e.seats_basic_economy, "
    "e.seats_economy, e.seats_business, e.price_basic_economy, e.price_economy, e.price_business"
)
#: One-stop pairs in tau2's order (first flights in file order, then second flights in file
#: order). ?1 date, ?2 origin, ?3 destination, ?4 the next day (see search_onestop_flight).
_ONESTOP_SQL = (
    f"SELECT {_SEARCH_COLUMNS}, {_SECOND_COLUMNS}, e.date FROM flights f "
    "JOIN flight_dates d ON d.flight_number = f.flight_number AND d.date = ?1 "
    "JOIN flights g ON g.origin = f.destination AND g.destination = ?3 "
    "AND g.sched_dep >= f.sched_arr "
    "JOIN flight_dates e ON e.flight_number = g.flight_number "
    "AND e.date = (CASE WHEN instr(f.sched_arr, '+1') > 0 THEN ?4 ELSE ?1 END) "
    "WHERE f.origin = ?2 AND d.status = 'available' AND e.status = 'available' "
    "ORDER BY f.ord, g.ord"
)
_OVERNIGHT_FIRST_SQL = (
    "SELECT 1 FROM flights f JOIN flight_dates d ON d.flight_number = f.flight_number "
    "AND d.date = ? WHERE f.origin = ? AND d.status = 'available' "
    "AND instr(f.sched_arr, '+1') > 0 LIMIT 1"
)


# ============================================================================ tools
# ----------------------------------------------------------------------------- READ


@tool(Category.READ, returns=USER_RETURNS)
def get_user_details(db, user_id: UserId) -> dict:
    """Get the details of a user: name, address, email, date of birth, payment methods
    (with gift card and certificate amounts), saved passengers, membership level and the
    ids of their reservations.

    Args:
        user_id: The user id, such as 'sara_doe_496'.
    """
    return _user(db, user_id)


@tool(Category.READ, returns=RESERVATION_RETURNS)
def get_reservation_details(db, reservation_id: ReservationId) -> dict:
    """Get the details of a reservation: trip endpoints and type, cabin, flight segments
    with the price paid per passenger, passengers, payment history, creation time, bags,
    insurance and status.

    Args:
        reservation_id: The reservation id, such as '8JX2WO'.
    """
    return _reservation_by_id(db, reservation_id)


@tool(Category.READ, returns={"iata": "airport"})
def list_all_airports(db) -> list:
    """List every airport the airline serves: its IATA code and city."""
    return [{"iata": code, "city": city} for code, city in AIRPORTS]


@tool(Category.READ, returns=FLIGHT_RETURNS)
def search_direct_flight(db, origin: Airport, destination: Airport, date: str) -> list:
    """Search direct flights between two airports on a date. Only flights that can still
    be booked on that date are listed, with their seats left and current prices per cabin.

    Args:
        origin: The IATA code of the origin airport, such as 'JFK'.
        destination: The IATA code of the destination airport, such as 'LAX'.
        date: The date of the flight, in the format 'YYYY-MM-DD', such as '2024-05-20'.
    """
    rows = db.execute(
        f"SELECT {_SEARCH_COLUMNS} FROM flights f JOIN flight_dates d "
        "ON d.flight_number = f.flight_number AND d.date = ? "
        "WHERE f.origin = ? AND f.destination = ? AND d.status = 'available' ORDER BY f.ord",
        (date, origin, destination)).fetchall()
    return [_flight_dict(row, None) for row in rows]


@tool(Category.READ, returns=FLIGHT_RETURNS)
def search_onestop_flight(db, origin: Airport, destination: Airport, date: str) -> list:
    """Search one-stop connections between two airports, the first flight leaving on the
    given date. Each result is a pair of flights: the second leaves the connecting airport
    no earlier than the first arrives (on the next day when the first arrives after
    midnight). Only bookable flights are listed, with seats left and current prices.

    Args:
        origin: The IATA code of the origin airport, such as 'JFK'.
        destination: The IATA code of the destination airport, such as 'LAX'.
        date: The date of the first flight, in the format 'YYYY-MM-DD', such as
            '2024-05-20'.
    """
    # tau2 quirk: the day after `date` is "2024-05-" + (day + 1): month fixed, no zero
    # padding. tau2 computes it only for a first flight arriving after midnight ('+1').
    try:
        next_day = f"2024-05-{int(date[-2:]) + 1}"
    except ValueError:
        next_day = None
        if db.execute(_OVERNIGHT_FIRST_SQL, (date, origin)).fetchone() is not None:
            raise ToolError(f"invalid date {date!r}") from None
    rows = db.execute(_ONESTOP_SQL, (date, origin, destination, next_day)).fetchall()
    return [[_flight_dict(row[:11], date), _flight_dict(row[11:22], row[22])] for row in rows]


@tool(Category.READ)
def get_flight_status(db, flight_number: FlightNumber, date: str) -> str:
    """Get the status of a flight on a date: 'available' (still bookable), 'on time',
    'delayed', 'flying', 'landed' or 'cancelled'.

    Args:
        flight_number: The flight number, such as 'HAT001'.
        date: The date of the flight, in the format 'YYYY-MM-DD', such as '2024-05-01'.
    """
    return _flight_date(db, flight_number, date)[0]


# -------------------------------------------------------------------------- GENERIC


calculate = common_tools.calculate


transfer_to_human_agents = human_transfer_tool(
    "Transfer the user to a human agent, with a summary of the user's issue. Only "
    "transfer if the user explicitly asks for a human agent, or if, given the policy and "
    "the available tools, you cannot solve the user's issue.")


# ---------------------------------------------------------------------------- WRITE


@tool(Category.WRITE, returns=RESERVATION_RETURNS,
      writes=("reservation_id", "user_id", "payment_id", "flight_number"))
def book_reservation(db, user_id: UserId, origin: Airport, destination: Airport,
                     flight_type: FlightType, cabin: Cabin, flights: list[dict],
                     passengers: list[dict], payment_methods: list[dict], total_baggages: int,
                     nonfree_baggages: int, insurance: Insurance) -> dict:
    """Book a reservation for a user. The price of each flight is its current price in the
    cabin, per passenger; insurance costs 30 per passenger and each non-free checked bag
    50. The payments must add up to the total exactly and use the user's own payment
    methods; a gift card or certificate must hold at least the amount charged to it, and a
    used certificate is consumed entirely. List the booking details and obtain the user's
    explicit confirmation (yes) before calling. Returns the new reservation.

    Args:
        user_id: The id of the user who books, such as 'sara_doe_496'.
        origin: The IATA code of the trip's origin airport, such as 'SFO'.
        destination: The IATA code of the trip's destination airport, such as 'JFK'.
        flight_type: The type of the trip: 'one_way' or 'round_trip'.
        cabin: The cabin for every flight and passenger: 'basic_economy', 'economy' or
            'business'.
        flights: Every flight of the trip (both directions of a round trip), in travel order;
            each an object with 'flight_number' (such as 'HAT001') and 'date' (such as
            '2024-05-01').
        passengers: The passengers; each an object with 'first_name', 'last_name' and 'dob'
            (date of birth, such as '1990-01-01').
        payment_methods: The payments; each an object with 'payment_id' (such as
            'credit_card_7815826') and an integer 'amount'.
        total_baggages: The total number of checked bags.
        nonfree_baggages: The number of checked bags beyond the free allowance (charged).
        insurance: Whether the booking includes travel insurance: 'yes' or 'no'.
    """
    wanted = _build_flights(flights)
    people = _build_passengers(passengers)
    payments = _build_payments(payment_methods)
    _user_exists(db, user_id)
    reservation_id = first_free(db, "reservations", "reservation_id", NEW_RESERVATION_IDS)
    if reservation_id is None:
        raise ToolError("too many reservations")
    segments, total = _price_booking(db, wanted, cabin, len(people), insurance,
                                     nonfree_baggages)
    methods = _check_booking_payments(db, user_id, payments, total)
    _charge_booking(db, user_id, methods, payments)
    _take_seats(db, segments, cabin, len(people))
    ord_ = next_number(db, "reservations", "ord")
    db.execute(f"INSERT INTO reservations ({RESERVATION_COLUMNS}, ord) "
               "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?)",
               (reservation_id, user_id, origin, destination, flight_type, cabin, NOW,
                total_baggages, nonfree_baggages, insurance, ord_))
    _insert_reservation_parts(db, reservation_id, user_id, segments, people, payments)
    return _reservation_by_id(db, reservation_id)


def _price_booking(db: sqlite3.Connection, wanted: list[tuple[str, str]], cabin: str, n: int,
                   insurance: str, nonfree_baggages: int) -> tuple[list[tuple], int]:
    """The segments of a new booking ``(flight_number, origin, destination, date, price,
    seats left)`` and its total price for ``n`` passengers."""
    total = 0
    segments = []
    for flight_number, date in wanted:
        (f_origin, f_destination), fd = _bookable(db, flight_number, date, cabin, n)
        price = fd[_PRICE_INDEX[cabin]]
        segments.append((flight_number, f_origin, f_destination, date, price,
                         fd[_SEAT_INDEX[cabin]]))
        total += price * n
    if insurance == "yes":
        total += INSURANCE_PRICE * n
    total += BAG_PRICE * nonfree_baggages
    return segments, total


def _check_booking_payments(db: sqlite3.Connection, user_id: str,
                            payments: list[tuple[str, int]], total: int
                            ) -> dict[str, tuple[str, Any]]:
    """The user's payment methods, once each payment is known, covered and the sum is
    ``total``."""
    methods = _methods(db, user_id)
    for payment_id, amount in payments:
        method = methods.get(payment_id)
        if method is None:
            raise ToolError(f"payment method {payment_id} not found")
        source, balance = method
        if source in ("gift_card", "certificate") and balance < amount:
            raise ToolError(f"not enough balance in payment method {payment_id}")
    paid = sum(amount for _, amount in payments)
    if paid != total:
        raise ToolError(f"payment total mismatch: the total price is {total}, "
                        f"the payments add up to {paid}")
    return methods


def _charge_booking(db: sqlite3.Connection, user_id: str, methods: dict[str, tuple[str, Any]],
                    payments: list[tuple[str, int]]) -> None:
    """Deduct the payments in order; a certificate listed twice fails at its second
    occurrence after the earlier deductions (kept, as in tau2)."""
    balances: dict[str, float] = {}
    removed: list[str] = []
    failed = None
    for payment_id, amount in payments:
        if payment_id in removed:
            failed = payment_id
            break
        source, balance = methods[payment_id]
        if source == "gift_card":
            balances[payment_id] = balances.get(payment_id, balance) - amount
        elif source == "certificate":
            removed.append(payment_id)
    for payment_id, balance in balances.items():
        _set_amount(db, user_id, payment_id, balance)
    for payment_id in removed:
        db.execute("DELETE FROM payment_methods WHERE user_id = ? AND id = ?",
                   (user_id, payment_id))
    if failed is not None:  # tau2 has no rollback: the payments taken so far stay
        raise ToolError(f"payment method {failed} not found (a certificate is consumed by "
                        "its first use; earlier payments of this booking were deducted)",
                        keep_effects=True)


def _take_seats(db: sqlite3.Connection, segments: list[tuple], cabin: str, n: int) -> None:
    """Remove ``n`` seats of ``cabin`` from each booked flight date (once per date, even
    when a date is listed twice)."""
    seats: dict[tuple[str, str], int] = {}
    for flight_number, _, _, date, _, left in segments:
        key = (flight_number, date)
        seats[key] = seats.get(key, left) - n
    column = _SEATS[cabin]
    for (flight_number, date), left in seats.items():
        db.execute(f"UPDATE flight_dates SET {column} = ? WHERE flight_number = ? AND date = ?",
                   (left, flight_number, date))


def _insert_reservation_parts(db: sqlite3.Connection, reservation_id: str, user_id: str,
                              segments: list[tuple], people: list[tuple],
                              payments: list[tuple[str, int]]) -> None:
    """The segments, passengers and payments of a new reservation, and its place in the
    user's list."""
    db.executemany("INSERT INTO reservation_flights (reservation_id, pos, flight_number, origin, "
                   "destination, date, price) VALUES (?, ?, ?, ?, ?, ?, ?)",
                   [(reservation_id, pos, *seg[:5]) for pos, seg in enumerate(segments)])
    db.executemany("INSERT INTO reservation_passengers (reservation_id, pos, first_name, "
                   "last_name, dob) VALUES (?, ?, ?, ?, ?)",
                   [(reservation_id, pos, *p) for pos, p in enumerate(people)])
    db.executemany("INSERT INTO reservation_payments (reservation_id, pos, payment_id, amount) "
                   "VALUES (?, ?, ?, ?)",
                   [(reservation_id, pos, *p) for pos, p in enumerate(payments)])
    pos = next_number(db, "user_reservations", "pos", scope={"user_id": user_id})
    db.execute("INSERT INTO user_reservations (user_id, pos, reservation_id) VALUES (?, ?, ?)",
               (user_id, pos, reservation_id))


@tool(Category.WRITE, returns=RESERVATION_RETURNS, writes=("reservation_id",))
def cancel_reservation(db, reservation_id: ReservationId) -> dict:
    """Cancel a whole reservation. Every payment of its history is refunded to the original
    payment method (within 5 to 7 business days). Check the cancellation rules of the
    policy, explain the details and obtain the user's explicit confirmation (yes) before
    calling. Returns the reservation after the cancellation.

    Args:
        reservation_id: The reservation id, such as 'ZFA04Y'.
    """
    _reservation_row(db, reservation_id)
    history = db.execute("SELECT pos, payment_id, amount FROM reservation_payments "
                         "WHERE reservation_id = ? ORDER BY pos", (reservation_id,)).fetchall()
    start = history[-1][0] + 1 if history else 0
    db.executemany("INSERT INTO reservation_payments (reservation_id, pos, payment_id, amount) "
                   "VALUES (?, ?, ?, ?)",
                   [(reservation_id, start + k, payment_id, -amount)
                    for k, (_, payment_id, amount) in enumerate(history)])
    db.execute("UPDATE reservations SET status = 'cancelled' WHERE reservation_id = ?",
               (reservation_id,))
    return _reservation_by_id(db, reservation_id)


@tool(Category.WRITE, returns=RESERVATION_RETURNS, writes=("reservation_id", "payment_id"))
def update_reservation_baggages(db, reservation_id: ReservationId, total_baggages: int,
                                nonfree_baggages: int, payment_id: PaymentId) -> dict:
    """Update the checked bags of a reservation. Each added non-free bag costs 50, paid
    with a credit card or gift card of the user (not a certificate). Explain the details
    and obtain the user's explicit confirmation (yes) before calling. Returns the
    reservation after the update.

    Args:
        reservation_id: The reservation id, such as 'ZFA04Y'.
        total_baggages: The new total number of checked bags.
        nonfree_baggages: The new number of non-free checked bags.
        payment_id: The payment method that pays for the added bags, such as
            'credit_card_7815826' or 'gift_card_7815826'.
    """
    row = _reservation_row(db, reservation_id)
    user_id, current_nonfree = row[1], row[8]
    _user_exists(db, user_id)
    price = BAG_PRICE * max(0, nonfree_baggages - current_nonfree)
    source, amount = _check_update_payment(db, user_id, payment_id, price)
    if source == "gift_card":
        _set_amount(db, user_id, payment_id, amount - price)
    if price != 0:
        _append_payment(db, reservation_id, payment_id, price)
    db.execute("UPDATE reservations SET total_baggages = ?, nonfree_baggages = ? "
               "WHERE reservation_id = ?", (total_baggages, nonfree_baggages, reservation_id))
    return _reservation_by_id(db, reservation_id)


@tool(Category.WRITE, returns=RESERVATION_RETURNS,
      writes=("reservation_id", "payment_id", "flight_number"))
def update_reservation_flights(db, reservation_id: ReservationId, cabin: Cabin,
                               flights: list[dict], payment_id: PaymentId) -> dict:
    """Update the flights and/or the cabin of a reservation. Give the complete new list of
    flights, including the ones that do not change. Flights kept in the same cabin keep
    their original price; new flights, and every flight when the cabin changes, are priced
    at the current price. The difference is charged to, or refunded to, a credit card or
    gift card of the user (not a certificate). Explain the details and obtain the user's
    explicit confirmation (yes) before calling. Returns the reservation after the update.

    Args:
        reservation_id: The reservation id, such as 'ZFA04Y'.
        cabin: The cabin after the update: 'basic_economy', 'economy' or 'business'.
        flights: Every flight of the updated reservation, in travel order, even the
            unchanged ones; each an object with 'flight_number' (such as 'HAT001') and
            'date' (such as '2024-05-01').
        payment_id: The payment method that pays or receives the price difference, such as
            'credit_card_7815826' or 'gift_card_7815826'.
    """
    wanted = _build_flights(flights)
    row = _reservation_row(db, reservation_id)
    user_id, old_cabin = row[1], row[5]
    _user_exists(db, user_id)
    current = _segments(db, reservation_id)
    n = _passenger_count(db, reservation_id)

    total = 0
    new_segments = []
    for flight_number, date in wanted:
        kept = None
        if cabin == old_cabin:
            kept = next((seg for seg in current if seg[0] == flight_number and seg[3] == date),
                        None)
        if kept is not None:
            new_segments.append(kept)
            total += kept[4] * n
            continue
        (f_origin, f_destination), fd = _bookable(db, flight_number, date, cabin, n)
        price = fd[_PRICE_INDEX[cabin]]
        new_segments.append((flight_number, f_origin, f_destination, date, price))
        total += price * n
    total -= sum(seg[4] for seg in current) * n

    source, amount = _check_update_payment(db, user_id, payment_id, total)
    if source == "gift_card":
        _set_amount(db, user_id, payment_id, amount - total)
    if total != 0:
        _append_payment(db, reservation_id, payment_id, total)
    db.execute("DELETE FROM reservation_flights WHERE reservation_id = ?", (reservation_id,))
    db.executemany("INSERT INTO reservation_flights (reservation_id, pos, flight_number, origin, "
                   "destination, date, price) VALUES (?, ?, ?, ?, ?, ?, ?)",
                   [(reservation_id, pos, *seg) for pos, seg in enumerate(new_segments)])
    db.execute("UPDATE reservations SET cabin = ? WHERE reservation_id = ?",
               (cabin, reservation_id))
    return _reservation_by_id(db, reservation_id)


@tool(Category.WRITE, returns=RESERVATION_RETURNS, writes=("reservation_id",))
def update_reservation_passengers(db, reservation_id: ReservationId,
                                  passengers: list[dict]) -> dict:
    """Update the passenger details of a reservation. The number of passengers cannot
    change. Explain the details and obtain the user's explicit confirmation (yes) before
    calling. Returns the reservation after the update.

    Args:
        reservation_id: The reservation id, such as 'ZFA04Y'.
        passengers: Every passenger of the reservation after the update, in order; each an
            object with 'first_name', 'last_name' and 'dob' (such as '1990-01-01').
    """
    people = _build_passengers(passengers)
    _reservation_row(db, reservation_id)
    if len(people) != _passenger_count(db, reservation_id):
        raise ToolError("the passenger count must not change")
    db.execute("DELETE FROM reservation_passengers WHERE reservation_id = ?", (reservation_id,))
    db.executemany("INSERT INTO reservation_passengers (reservation_id, pos, first_name, "
                   "last_name, dob) VALUES (?, ?, ?, ?, ?)",
                   [(reservation_id, pos, *p) for pos, p in enumerate(people)])
    return _reservation_by_id(db, reservation_id)


@tool(Category.WRITE, writes=("user_id", "payment_id"))
def send_certificate(db, user_id: UserId, amount: int) -> str:
    """Send a travel certificate of the given amount to a user, as compensation. Only do
    so when the policy allows it, and after confirming the facts with the user.

    Args:
        user_id: The id of the user, such as 'sara_doe_496'.
        amount: The amount of the certificate.
    """
    _user_exists(db, user_id)
    if amount <= 0:  # tau2 accepts any number; a non-positive certificate is never valid
        raise ToolError("the amount of a certificate must be positive")
    payment_id = first_free(db, "payment_methods", "id", NEW_CERTIFICATE_IDS,
                            scope={"user_id": user_id})
    if payment_id is None:
        raise ToolError("too many certificates")
    ord_ = next_number(db, "payment_methods", "ord", scope={"user_id": user_id})
    db.execute("INSERT INTO payment_methods (user_id, id, source, brand, last_four, amount, ord) "
               "VALUES (?, ?, 'certificate', NULL, NULL, ?, ?)",
               (user_id, payment_id, float(amount), ord_))
    return f"Certificate {payment_id} added to user {user_id} with amount {amount}."
