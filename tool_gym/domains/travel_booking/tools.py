"""The tools of the travel booking domain: 12 reads, 12 writes and a transfer to a human agent.

A customer's trips (itineraries) hold hotel stays, car rentals and activity bookings for the
travellers on the trip. Every tool takes the sandbox's SQLite connection first and uses
parameterized SQL only; a write checks all its preconditions before its first statement and
raises :class:`ToolError` with a clear message when one fails (the toolbox also wraps each
write in a savepoint).

Rules the tools enforce: bookings fall within their trip's dates and destination, start
today or later, fit the inventory (rooms, cars, activity seats) and the party (room capacity,
car seats, no more participants than travellers); cancellation fees follow the hotel's
free-cancellation days (then one night per room), two days for cars (then one day's rate),
and activities cannot be cancelled or changed within two days of their date; points are
redeemed in hundreds (100 points = $1), never beyond the balance nor the amount due.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Annotated, Literal

from ...core.arguments import check_date
from ...core.common_tools import human_transfer_tool
from ...core.ids import counted_id
from ...core.rows import fetch_dicts, fetch_row, find_id
from ...core.tools import Category, Entity, Quotas, ToolError, tool

#: Growth bounds of one sandbox (templates hold about 1,500 bookings).
QUOTAS = Quotas(rows={"trips": 5_000, "trip_travelers": 10_000, "travelers": 5_000,
                      "bookings": 10_000, "points_ledger": 20_000})

#: The agency's clock (fixed, so that every episode is reproducible). A Monday.
TODAY = "2025-05-12"
#: Most travellers on one trip.
MAX_TRAVELERS = 8
#: Longest trip, hotel stay or car rental, in days.
MAX_DAYS = 30
#: Most rooms in one hotel booking.
MAX_ROOMS = 4
#: A car rental is cancelled free until this many days before pick-up (then one day's rate).
CAR_FREE_CANCEL_DAYS = 2
#: An activity can be cancelled or changed only this many days or more before its date.
ACTIVITY_CHANGE_DAYS = 2
#: Points per dollar of discount, and the step in which points are redeemed.
POINTS_PER_DOLLAR = 100
#: Longest trip name and traveller name.
MAX_NAME = 80

_WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")

CustomerId = Annotated[str, Entity("customer_id")]
TravelerId = Annotated[str, Entity("traveler_id")]
TripId = Annotated[str, Entity("trip_id")]
HotelId = Annotated[str, Entity("hotel_id")]
RoomTypeId = Annotated[str, Entity("room_type_id")]
CarId = Annotated[str, Entity("car_id")]
ActivityId = Annotated[str, Entity("activity_id")]
BookingId = Annotated[str, Entity("booking_id")]

Relation = Literal["spouse", "partner", "child", "parent", "sibling", "friend", "colleague"]


def money(value: float) -> float:
    """A dollar amount rounded to cents (the one rounding used everywhere)."""
    return round(float(value) + 0.0, 2)


def days_between(first: str, last: str) -> int:
    """Whole days from ``first`` to ``last`` (ISO dates)."""
    return (date.fromisoformat(last) - date.fromisoformat(first)).days


def plus_days(day: str, days: int) -> str:
    """The ISO date ``days`` after ``day``."""
    return (date.fromisoformat(day) + timedelta(days=days)).isoformat()


def weekday_name(day: str) -> str:
    """``2025-05-12`` -> ``Monday``."""
    return _WEEKDAYS[date.fromisoformat(day).weekday()]


def runs_on(weekdays: str, day: str) -> bool:
    """Whether an activity that runs on ``weekdays`` ('0246': Monday = 0) runs on ``day``."""
    return str(date.fromisoformat(day).weekday()) in weekdays


# ------------------------------------------------------------------------- records

_BOOKING_COLUMNS = ("booking_id", "trip_id", "kind", "room_type_id", "car_id", "activity_id",
                    "start_date", "end_date", "quantity", "unit_price", "total_price",
                    "points_redeemed", "status", "cancellation_fee", "booked_on")
_TRIP_COLUMNS = ("trip_id", "customer_id", "name", "destination_city", "start_date",
                 "end_date", "status", "created_on")


def _customer(db, customer_id: str) -> dict:
    row = fetch_row(db, "SELECT customer_id, first_name, last_name, email, username, phone, "
                    "home_city, member_since, loyalty_tier, points_balance FROM customers "
                    "WHERE customer_id = ?", (customer_id,),
                    f"Customer {customer_id!r} not found.")
    keys = ("customer_id", "first_name", "last_name", "email", "username", "phone",
            "home_city", "member_since", "loyalty_tier", "points_balance")
    return dict(zip(keys, row))


def _trip(db, trip_id: str) -> dict:
    row = fetch_row(db, f"SELECT {', '.join(_TRIP_COLUMNS)} FROM trips WHERE trip_id = ?",
                    (trip_id,), f"Trip {trip_id!r} not found.")
    return dict(zip(_TRIP_COLUMNS, row))


def _booking(db, booking_id: str) -> dict:
    row = fetch_row(db, f"SELECT {', '.join(_BOOKING_COLUMNS)} FROM bookings "
                    "WHERE booking_id = ?", (booking_id,), f"Booking {booking_id!r} not found.")
    return dict(zip(_BOOKING_COLUMNS, row))


def _traveler(db, traveler_id: str) -> dict:
    row = fetch_row(db, "SELECT traveler_id, customer_id, first_name, last_name, date_of_birth, "
                    "relation FROM travelers WHERE traveler_id = ?", (traveler_id,),
                    f"Traveler {traveler_id!r} not found.")
    keys = ("traveler_id", "customer_id", "first_name", "last_name", "date_of_birth",
            "relation")
    return dict(zip(keys, row))


def _trip_size(db, trip_id: str) -> int:
    return db.execute("SELECT count(*) FROM trip_travelers WHERE trip_id = ?",
                      (trip_id,)).fetchone()[0]


def _item(db, booking: dict) -> dict:
    """What a booking is for: the hotel and room, the car, or the activity."""
    if booking["kind"] == "hotel":
        row = db.execute("SELECT h.hotel_id, h.name, h.city, r.name, h.free_cancel_days "
                         "FROM room_types r JOIN hotels h ON h.hotel_id = r.hotel_id "
                         "WHERE r.room_type_id = ?", (booking["room_type_id"],)).fetchone()
        return {"hotel_id": row[0], "hotel_name": row[1], "city": row[2], "room_name": row[3],
                "free_cancel_days": row[4]}
    if booking["kind"] == "car":
        row = db.execute("SELECT company, city, car_class, model FROM cars WHERE car_id = ?",
                         (booking["car_id"],)).fetchone()
        return {"company": row[0], "city": row[1], "car_class": row[2], "model": row[3]}
    row = db.execute("SELECT name, city, start_time FROM activities WHERE activity_id = ?",
                     (booking["activity_id"],)).fetchone()
    return {"activity_name": row[0], "city": row[1], "start_time": row[2]}


def amount_due(booking: dict) -> float:
    """What the booking costs after the points redeemed on it."""
    return money(booking["total_price"] - booking["points_redeemed"] / POINTS_PER_DOLLAR)


def cancellation_terms(db, booking: dict) -> dict:
    """Whether a confirmed booking can be cancelled today, until when it is free, and the fee
    if it were cancelled today: ``{"cancellable", "free_until", "fee", "why"}``."""
    kind, start = booking["kind"], booking["start_date"]
    if booking["status"] != "confirmed":
        return {"cancellable": False, "free_until": None, "fee": 0.0,
                "why": f"the booking is {booking['status']}"}
    if kind == "activity":
        last = plus_days(start, -ACTIVITY_CHANGE_DAYS)
        ok = TODAY <= last
        return {"cancellable": ok, "free_until": last, "fee": 0.0,
                "why": "" if ok else f"activities can only be cancelled at least "
                f"{ACTIVITY_CHANGE_DAYS} days (48 hours) before their date"}
    if start <= TODAY:
        return {"cancellable": False, "free_until": None, "fee": 0.0,
                "why": "it has already started"}
    if kind == "hotel":
        (days,) = db.execute("SELECT h.free_cancel_days FROM room_types r JOIN hotels h "
                             "ON h.hotel_id = r.hotel_id WHERE r.room_type_id = ?",
                             (booking["room_type_id"],)).fetchone()
        last = plus_days(start, -days)
        fee = 0.0 if TODAY <= last else money(booking["unit_price"] * booking["quantity"])
    else:
        last = plus_days(start, -CAR_FREE_CANCEL_DAYS)
        fee = 0.0 if TODAY <= last else money(booking["unit_price"])
    return {"cancellable": True, "free_until": last, "fee": fee, "why": ""}


def _booking_record(db, booking: dict) -> dict:
    record = dict(booking)
    record.update(_item(db, booking))
    record["amount_due"] = amount_due(booking)
    if booking["status"] == "confirmed":
        terms = cancellation_terms(db, booking)
        record["can_cancel_today"] = terms["cancellable"]
        record["free_cancellation_until"] = terms["free_until"]
        if terms["cancellable"]:
            record["cancellation_fee_if_cancelled_today"] = terms["fee"]
    return record


def _summary(db, booking: dict) -> dict:
    """A booking as a trip lists it."""
    item = _item(db, booking)
    name = item.get("hotel_name") or item.get("activity_name") or \
        f"{item['company']} {item['car_class']}"
    return {"booking_id": booking["booking_id"], "kind": booking["kind"], "name": name,
            "start_date": booking["start_date"], "end_date": booking["end_date"],
            "quantity": booking["quantity"], "total_price": booking["total_price"],
            "points_redeemed": booking["points_redeemed"], "amount_due": amount_due(booking),
            "status": booking["status"]}


def _trip_bookings(db, trip_id: str) -> list[dict]:
    rows = db.execute(f"SELECT {', '.join(_BOOKING_COLUMNS)} FROM bookings WHERE trip_id = ? "
                      "ORDER BY start_date, rowid", (trip_id,)).fetchall()
    return [dict(zip(_BOOKING_COLUMNS, r)) for r in rows]


# ------------------------------------------------------------------- availability

def rooms_left(db, room_type_id: str, check_in: str, check_out: str,
               ignore: str | None = None) -> int:
    """Rooms of a type free on every night from ``check_in`` to ``check_out`` (exclusive),
    not counting the booking ``ignore``."""
    (total,) = db.execute("SELECT rooms_total FROM room_types WHERE room_type_id = ?",
                          (room_type_id,)).fetchone()
    rows = db.execute("SELECT start_date, end_date, quantity FROM bookings "
                      "WHERE room_type_id = ? AND status != 'cancelled' AND start_date < ? "
                      "AND end_date > ? AND booking_id != ?",
                      (room_type_id, check_out, check_in, ignore or "")).fetchall()
    return total - _peak(rows, check_in, check_out)


def cars_left(db, car_id: str, pickup: str, dropoff: str, ignore: str | None = None) -> int:
    """Cars of an offer free on every day from ``pickup`` to ``dropoff`` (exclusive)."""
    (units,) = db.execute("SELECT units FROM cars WHERE car_id = ?", (car_id,)).fetchone()
    rows = db.execute("SELECT start_date, end_date, quantity FROM bookings WHERE car_id = ? "
                      "AND status != 'cancelled' AND start_date < ? AND end_date > ? "
                      "AND booking_id != ?", (car_id, dropoff, pickup, ignore or "")).fetchall()
    return units - _peak(rows, pickup, dropoff)


def seats_left(db, activity_id: str, day: str, ignore: str | None = None) -> int:
    """Seats of an activity left on ``day``."""
    (capacity,) = db.execute("SELECT daily_capacity FROM activities WHERE activity_id = ?",
                             (activity_id,)).fetchone()
    (taken,) = db.execute("SELECT coalesce(sum(quantity), 0) FROM bookings WHERE activity_id = ? "
                          "AND start_date = ? AND status != 'cancelled' AND booking_id != ?",
                          (activity_id, day, ignore or "")).fetchone()
    return capacity - taken


def _peak(rows: list[tuple], first: str, last: str) -> int:
    """The most units the ``(start, end, quantity)`` rows hold on one day of [first, last)."""
    peak, day = 0, first
    while day < last:
        peak = max(peak, sum(q for s, e, q in rows if s <= day < e))
        day = plus_days(day, 1)
    return peak


# ------------------------------------------------------------------------ checks

def _text(value: str, what: str, limit: int = MAX_NAME) -> str:
    value = " ".join(value.split())
    if not value:
        raise ToolError(f"The {what} must not be empty.")
    if len(value) > limit:
        raise ToolError(f"The {what} is too long (at most {limit} characters).")
    return value


def _city(db, city: str) -> str:
    """The served city named ``city`` (any case), as the agency spells it."""
    row = db.execute("SELECT city FROM hotels WHERE lower(city) = lower(?) LIMIT 1",
                     (city.strip(),)).fetchone()
    if row is None:
        served = [c for (c,) in db.execute("SELECT DISTINCT city FROM hotels ORDER BY city")]
        raise ToolError(f"We do not serve {city.strip()[:60]!r}. Cities served: "
                        f"{', '.join(served)}.")
    return row[0]


def _future_range(first: str, last: str, first_name: str, last_name: str,
                  same_day: bool = False) -> int:
    """Checks a date range starting today or later; its length in days."""
    check_date(first, first_name)
    check_date(last, last_name)
    if first < TODAY:
        raise ToolError(f"{first_name} must be today ({TODAY}) or later.")
    days = days_between(first, last)
    if days < 0 or (days == 0 and not same_day):
        raise ToolError(f"{last_name} must be after {first_name}.")
    if days > MAX_DAYS:
        raise ToolError(f"At most {MAX_DAYS} days can be booked at once.")
    return days


def _open_trip(db, trip_id: str) -> dict:
    trip = _trip(db, trip_id)
    if trip["status"] not in ("planned", "in_progress"):
        raise ToolError(f"Trip {trip_id} is {trip['status']}; only a planned or in-progress "
                        "trip can be changed.")
    return trip


def _within_trip(trip: dict, first: str, last: str) -> None:
    if first < trip["start_date"] or last > trip["end_date"]:
        raise ToolError(f"The dates must fall within the trip ({trip['start_date']} to "
                        f"{trip['end_date']}).")


def _in_city(trip: dict, city: str, what: str) -> None:
    if city != trip["destination_city"]:
        raise ToolError(f"The {what} is in {city}, but trip {trip['trip_id']} goes to "
                        f"{trip['destination_city']}.")


def _confirmed_upcoming(db, booking_id: str) -> dict:
    booking = _booking(db, booking_id)
    if booking["status"] != "confirmed":
        raise ToolError(f"Booking {booking_id} is {booking['status']}.")
    if booking["start_date"] <= TODAY:
        raise ToolError(f"Booking {booking_id} has already started ({booking['start_date']}).")
    return booking


def _insert_booking(db, trip_id: str, kind: str, item: str, first: str, last: str,
                    quantity: int, unit_price: float, total: float) -> str:
    booking_id = counted_id(db, "bookings", "booking_id", "bk_")
    columns = {"hotel": "room_type_id", "car": "car_id", "activity": "activity_id"}
    db.execute(f"INSERT INTO bookings (booking_id, trip_id, kind, {columns[kind]}, start_date, "
               "end_date, quantity, unit_price, total_price, points_redeemed, status, "
               "cancellation_fee, booked_on) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0, 'confirmed', "
               "0, ?)", (booking_id, trip_id, kind, item, first, last, quantity, unit_price,
                         total, TODAY))
    return booking_id


def _ledger(db, customer_id: str, booking_id: str | None, kind: str, points: int) -> None:
    entry_id = counted_id(db, "points_ledger", "entry_id", "pts_")
    db.execute("INSERT INTO points_ledger (entry_id, customer_id, booking_id, kind, points, "
               "posted_on) VALUES (?, ?, ?, ?, ?, ?)",
               (entry_id, customer_id, booking_id, kind, points, TODAY))
    db.execute("UPDATE customers SET points_balance = points_balance + ? WHERE customer_id = ?",
               (points, customer_id))


def _owner_of_booking(db, booking: dict) -> str:
    return _trip(db, booking["trip_id"])["customer_id"]


# --------------------------------------------------------------------------- READ


@tool(Category.READ, returns={".": CustomerId})
def find_customer_by_email(db, email: str) -> str:
    """Find a customer's id by the email address on their account. Use it to authenticate
    the customer before anything else.

    Args:
        email: The customer's email address, such as 'ana.silva12@example.com'.
    """
    return find_id(db, "customers", "customer_id", "email", email.strip().lower(),
                   "No customer found with this email address.")


@tool(Category.READ, returns={".": CustomerId})
def find_customer_by_username(db, username: str) -> str:
    """Find a customer's id by their username. Use it to authenticate the customer before
    anything else.

    Args:
        username: The customer's username, such as 'asilva42'.
    """
    return find_id(db, "customers", "customer_id", "username", username.strip().lower(),
                   "No customer found with this username.")


@tool(Category.READ, returns={"customer_id": CustomerId, "trip_ids": TripId,
                              "traveler_ids": TravelerId})
def get_customer_profile(db, customer_id: CustomerId) -> dict:
    """Get a customer's profile: name, contact details, loyalty tier and points balance, and
    the ids of their trips and saved traveller profiles.

    Args:
        customer_id: The customer's id, such as 'cus_a1b2c3d4'.
    """
    record = _customer(db, customer_id)
    record["points_value"] = money(record["points_balance"] / POINTS_PER_DOLLAR)
    record["trip_ids"] = [r[0] for r in db.execute(
        "SELECT trip_id FROM trips WHERE customer_id = ? ORDER BY rowid", (customer_id,))]
    record["traveler_ids"] = [r[0] for r in db.execute(
        "SELECT traveler_id FROM travelers WHERE customer_id = ? ORDER BY rowid",
        (customer_id,))]
    return record


@tool(Category.READ, returns={"customer_id": CustomerId, "travelers.traveler_id": TravelerId})
def list_travelers(db, customer_id: CustomerId) -> dict:
    """List the traveller profiles a customer has saved (themself and the people they travel
    with): name, date of birth and relation.

    Args:
        customer_id: The customer's id.
    """
    _customer(db, customer_id)
    keys = ("traveler_id", "first_name", "last_name", "date_of_birth", "relation")
    return {"customer_id": customer_id, "travelers": fetch_dicts(
        db, keys, f"SELECT {', '.join(keys)} FROM travelers WHERE customer_id = ? "
        "ORDER BY rowid", (customer_id,))}


@tool(Category.READ, returns={"customer_id": CustomerId, "trips.trip_id": TripId})
def list_trips(db, customer_id: CustomerId) -> dict:
    """List a customer's trips (itineraries): name, destination, dates, status, and how many
    travellers and bookings each has.

    Args:
        customer_id: The customer's id.
    """
    _customer(db, customer_id)
    rows = db.execute(
        "SELECT t.trip_id, t.name, t.destination_city, t.start_date, t.end_date, t.status, "
        "(SELECT count(*) FROM trip_travelers x WHERE x.trip_id = t.trip_id), "
        "(SELECT count(*) FROM bookings b WHERE b.trip_id = t.trip_id) "
        "FROM trips t WHERE t.customer_id = ? ORDER BY t.start_date, t.rowid",
        (customer_id,)).fetchall()
    keys = ("trip_id", "name", "destination_city", "start_date", "end_date", "status",
            "traveler_count", "booking_count")
    return {"customer_id": customer_id, "trips": [dict(zip(keys, r)) for r in rows]}


@tool(Category.READ, returns={"trip_id": TripId, "customer_id": CustomerId,
                              "travelers.traveler_id": TravelerId,
                              "bookings.booking_id": BookingId})
def get_trip(db, trip_id: TripId) -> dict:
    """Get a trip with its travellers and its bookings (hotel stays, car rentals and
    activities: dates, quantity, price, points redeemed, amount due, status), and the total
    price of its confirmed bookings.

    Args:
        trip_id: The trip's id, such as 'trp_k3j9x0p2'.
    """
    record = _trip(db, trip_id)
    record["travelers"] = fetch_dicts(
        db, ("traveler_id", "first_name", "last_name", "relation"),
        "SELECT v.traveler_id, v.first_name, v.last_name, v.relation FROM trip_travelers x "
        "JOIN travelers v ON v.traveler_id = x.traveler_id WHERE x.trip_id = ? "
        "ORDER BY x.rowid", (trip_id,))
    bookings = _trip_bookings(db, trip_id)
    record["bookings"] = [_summary(db, b) for b in bookings]
    record["confirmed_total"] = money(sum(b["total_price"] for b in bookings
                                          if b["status"] == "confirmed"))
    return record


@tool(Category.READ, returns={"hotels.hotel_id": HotelId,
                              "hotels.rooms.room_type_id": RoomTypeId})
def search_hotels(db, city: str, check_in: str, check_out: str, rooms: int = 1) -> dict:
    """Search the hotels of a city for rooms free on every night of a stay: each hotel with
    its stars and free-cancellation days, and each room type with rooms left, capacity
    (guests per room), nightly rate and the price of the whole stay for the rooms asked.

    Args:
        city: The city, such as 'Lisbon'.
        check_in: The arrival date, YYYY-MM-DD, today or later.
        check_out: The departure date, YYYY-MM-DD, after the arrival date.
        rooms: How many rooms are needed (1 to 4).
    """
    city = _city(db, city)
    nights = _future_range(check_in, check_out, "check_in", "check_out")
    if not 1 <= rooms <= MAX_ROOMS:
        raise ToolError(f"rooms must be between 1 and {MAX_ROOMS}.")
    hotels = []
    for hotel_id, name, stars, address, free_days in db.execute(
            "SELECT hotel_id, name, stars, address, free_cancel_days FROM hotels "
            "WHERE city = ? ORDER BY name", (city,)).fetchall():
        found = []
        for room_type_id, room, capacity, rate in db.execute(
                "SELECT room_type_id, name, capacity, nightly_rate FROM room_types "
                "WHERE hotel_id = ? ORDER BY nightly_rate, name", (hotel_id,)).fetchall():
            left = rooms_left(db, room_type_id, check_in, check_out)
            if left >= rooms:
                found.append({"room_type_id": room_type_id, "room_name": room,
                              "capacity": capacity, "nightly_rate": rate, "rooms_left": left,
                              "stay_price": money(rate * nights * rooms)})
        if found:
            hotels.append({"hotel_id": hotel_id, "hotel_name": name, "stars": stars,
                           "address": address, "free_cancel_days": free_days, "rooms": found})
    return {"city": city, "check_in": check_in, "check_out": check_out, "nights": nights,
            "hotels": hotels}


@tool(Category.READ, returns={"hotel_id": HotelId, "room_types.room_type_id": RoomTypeId})
def get_hotel(db, hotel_id: HotelId) -> dict:
    """Get a hotel: city, address, stars, its cancellation policy (free until how many days
    before check-in) and its room types with capacity, nightly rate and number of rooms.

    Args:
        hotel_id: The hotel's id, such as 'htl_4kd9s02m'.
    """
    row = fetch_row(db, "SELECT hotel_id, name, city, stars, address, free_cancel_days "
                    "FROM hotels WHERE hotel_id = ?", (hotel_id,),
                    f"Hotel {hotel_id!r} not found.")
    record = dict(zip(("hotel_id", "hotel_name", "city", "stars", "address",
                       "free_cancel_days"), row))
    record["cancellation_policy"] = (
        f"Free cancellation until {row[5]} day(s) before check-in; later, a fee of one "
        "night per room.")
    record["room_types"] = fetch_dicts(
        db, ("room_type_id", "room_name", "capacity", "nightly_rate", "rooms_total"),
        "SELECT room_type_id, name, capacity, nightly_rate, rooms_total FROM room_types "
        "WHERE hotel_id = ? ORDER BY nightly_rate, name", (hotel_id,))
    return record


@tool(Category.READ, returns={"cars.car_id": CarId})
def search_rental_cars(db, city: str, pickup_date: str, dropoff_date: str) -> dict:
    """Search the rental cars of a city free for every day of a rental: company, class,
    model, seats, daily rate, cars left and the price of the whole rental.

    Args:
        city: The city, such as 'Lisbon'.
        pickup_date: The pick-up date, YYYY-MM-DD, today or later.
        dropoff_date: The drop-off date, YYYY-MM-DD, after the pick-up date.
    """
    city = _city(db, city)
    days = _future_range(pickup_date, dropoff_date, "pickup_date", "dropoff_date")
    cars = []
    for car_id, company, car_class, model, seats, rate in db.execute(
            "SELECT car_id, company, car_class, model, seats, daily_rate FROM cars "
            "WHERE city = ? ORDER BY daily_rate, company", (city,)).fetchall():
        left = cars_left(db, car_id, pickup_date, dropoff_date)
        if left > 0:
            cars.append({"car_id": car_id, "company": company, "car_class": car_class,
                         "model": model, "seats": seats, "daily_rate": rate,
                         "cars_left": left, "rental_price": money(rate * days)})
    return {"city": city, "pickup_date": pickup_date, "dropoff_date": dropoff_date,
            "days": days, "cars": cars}


@tool(Category.READ, returns={"activities.activity_id": ActivityId})
def search_activities(db, city: str, date: str) -> dict:
    """Search the activities (tours, classes, cruises, ...) that run in a city on a date,
    with start time, duration, price per person and seats left.

    Args:
        city: The city, such as 'Lisbon'.
        date: The day, YYYY-MM-DD, today or later.
    """
    city = _city(db, city)
    check_date(date, "date")
    if date < TODAY:
        raise ToolError(f"date must be today ({TODAY}) or later.")
    found = []
    for activity_id, name, category, start, hours, price, weekdays in db.execute(
            "SELECT activity_id, name, category, start_time, duration_hours, price_per_person, "
            "weekdays FROM activities WHERE city = ? ORDER BY start_time, name",
            (city,)).fetchall():
        if runs_on(weekdays, date):
            left = seats_left(db, activity_id, date)
            if left > 0:
                found.append({"activity_id": activity_id, "activity_name": name,
                              "category": category, "start_time": start,
                              "duration_hours": hours, "price_per_person": price,
                              "seats_left": left})
    return {"city": city, "date": date, "weekday": weekday_name(date), "activities": found}


@tool(Category.READ, returns={"booking_id": BookingId, "trip_id": TripId,
                              "hotel_id": HotelId, "room_type_id": RoomTypeId,
                              "car_id": CarId, "activity_id": ActivityId})
def get_booking(db, booking_id: BookingId) -> dict:
    """Get one booking (hotel stay, car rental or activity): what it is for, dates,
    quantity, prices, points redeemed, amount due, status and, while it is confirmed, whether
    it can be cancelled today, until when that is free and the fee if cancelled today.

    Args:
        booking_id: The booking's id, such as 'bk_9d2k1m3x'.
    """
    return _booking_record(db, _booking(db, booking_id))


@tool(Category.READ, returns={"customer_id": CustomerId,
                              "entries.booking_id": BookingId})
def get_loyalty_account(db, customer_id: CustomerId) -> dict:
    """Get a customer's loyalty account: tier, points balance (100 points are worth $1 off a
    booking) and every points entry (earned, redeemed, refunded, bonus), newest first.

    Args:
        customer_id: The customer's id.
    """
    customer = _customer(db, customer_id)
    entries = fetch_dicts(
        db, ("entry_id", "booking_id", "kind", "points", "posted_on"),
        "SELECT entry_id, booking_id, kind, points, posted_on FROM points_ledger "
        "WHERE customer_id = ? ORDER BY posted_on DESC, rowid DESC", (customer_id,))
    return {"customer_id": customer_id, "loyalty_tier": customer["loyalty_tier"],
            "points_balance": customer["points_balance"],
            "points_value": money(customer["points_balance"] / POINTS_PER_DOLLAR),
            "entries": entries}


transfer_to_human_agents = human_transfer_tool(
    "Transfer the customer to a human agent, with a summary of their issue. Only transfer "
    "if the customer explicitly asks for a human agent, or if the request cannot be "
    "handled with the policy and the available tools.",
    "A summary of the customer's issue.")


# -------------------------------------------------------------------------- WRITE


@tool(Category.WRITE, returns={"trip_id": TripId, "customer_id": CustomerId},
      writes=("trip_id",))
def create_trip(db, customer_id: CustomerId, name: str, destination_city: str,
                start_date: str, end_date: str) -> dict:
    """Create a new trip (an empty itinerary) for a customer, with the customer as its first
    traveller. Confirm the details with the customer (explicit yes) before calling.

    Args:
        customer_id: The customer's id.
        name: A name for the trip, such as 'Summer in Lisbon' (at most 80 characters).
        destination_city: The city the trip goes to (a city the agency serves).
        start_date: The first day, YYYY-MM-DD, today or later.
        end_date: The last day, YYYY-MM-DD, on or after the first (at most 30 days).
    """
    _customer(db, customer_id)
    name = _text(name, "trip name")
    city = _city(db, destination_city)
    _future_range(start_date, end_date, "start_date", "end_date", same_day=True)
    (self_id,) = fetch_row(db, "SELECT traveler_id FROM travelers WHERE customer_id = ? "
                           "AND relation = 'self'", (customer_id,),
                           "The customer has no own traveler profile.")
    trip_id = counted_id(db, "trips", "trip_id", "trp_")
    db.execute("INSERT INTO trips (trip_id, customer_id, name, destination_city, start_date, "
               "end_date, status, created_on) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
               (trip_id, customer_id, name, city, start_date, end_date,
                "in_progress" if start_date == TODAY else "planned", TODAY))
    db.execute("INSERT INTO trip_travelers (trip_id, traveler_id) VALUES (?, ?)",
               (trip_id, self_id))
    return get_trip.fn(db, trip_id)


@tool(Category.WRITE, returns={"traveler_id": TravelerId, "customer_id": CustomerId},
      writes=("traveler_id",))
def add_traveler_profile(db, customer_id: CustomerId, first_name: str, last_name: str,
                         date_of_birth: str, relation: Relation) -> dict:
    """Save a new traveller profile for a customer (someone they travel with). Confirm the
    details with the customer (explicit yes) before calling.

    Args:
        customer_id: The customer's id.
        first_name: The traveller's first name, as on their passport.
        last_name: The traveller's last name, as on their passport.
        date_of_birth: The traveller's date of birth, YYYY-MM-DD, in the past.
        relation: How the traveller is related to the customer.
    """
    _customer(db, customer_id)
    first = _text(first_name, "first name")
    last = _text(last_name, "last name")
    check_date(date_of_birth, "date_of_birth")
    if date_of_birth >= TODAY or date_of_birth < "1900-01-01":
        raise ToolError("The date of birth must be in the past (1900 or later).")
    if db.execute("SELECT 1 FROM travelers WHERE customer_id = ? AND lower(first_name) = "
                  "lower(?) AND lower(last_name) = lower(?)",
                  (customer_id, first, last)).fetchone():
        raise ToolError(f"A traveler named {first} {last} is already saved for this customer.")
    traveler_id = counted_id(db, "travelers", "traveler_id", "trv_")
    db.execute("INSERT INTO travelers (traveler_id, customer_id, first_name, last_name, "
               "date_of_birth, relation) VALUES (?, ?, ?, ?, ?, ?)",
               (traveler_id, customer_id, first, last, date_of_birth, relation))
    return _traveler(db, traveler_id)


@tool(Category.WRITE, returns={"trip_id": TripId, "traveler_id": TravelerId},
      writes=("trip_id",), needs=("traveler_id",))
def add_traveler_to_trip(db, trip_id: TripId, traveler_id: TravelerId) -> dict:
    """Add one of the customer's saved travellers to a planned or in-progress trip (at most
    8 travellers per trip). Confirm with the customer (explicit yes) before calling.

    Args:
        trip_id: The trip's id.
        traveler_id: The saved traveller's id (a profile of the trip's customer).
    """
    trip = _open_trip(db, trip_id)
    traveler = _traveler(db, traveler_id)
    if traveler["customer_id"] != trip["customer_id"]:
        raise ToolError("The traveler is not one of the trip owner's saved travelers.")
    if db.execute("SELECT 1 FROM trip_travelers WHERE trip_id = ? AND traveler_id = ?",
                  (trip_id, traveler_id)).fetchone():
        raise ToolError(f"{traveler['first_name']} {traveler['last_name']} is already on "
                        "this trip.")
    if _trip_size(db, trip_id) >= MAX_TRAVELERS:
        raise ToolError(f"A trip has at most {MAX_TRAVELERS} travelers.")
    db.execute("INSERT INTO trip_travelers (trip_id, traveler_id) VALUES (?, ?)",
               (trip_id, traveler_id))
    return {"trip_id": trip_id, "traveler_id": traveler_id,
            "traveler_count": _trip_size(db, trip_id)}


@tool(Category.WRITE, returns={"trip_id": TripId, "traveler_id": TravelerId},
      writes=("trip_id",), needs=("trip_id",))
def remove_traveler_from_trip(db, trip_id: TripId, traveler_id: TravelerId) -> dict:
    """Take a traveller off a planned or in-progress trip. The customer themself stays on
    their trip, and no confirmed activity may be left with more participants than travellers.
    Confirm with the customer (explicit yes) before calling.

    Args:
        trip_id: The trip's id.
        traveler_id: The id of a traveller on the trip.
    """
    _open_trip(db, trip_id)
    traveler = _traveler(db, traveler_id)
    if not db.execute("SELECT 1 FROM trip_travelers WHERE trip_id = ? AND traveler_id = ?",
                      (trip_id, traveler_id)).fetchone():
        raise ToolError(f"{traveler['first_name']} {traveler['last_name']} is not on this trip.")
    if traveler["relation"] == "self":
        raise ToolError("The customer themself cannot be removed from their own trip.")
    size = _trip_size(db, trip_id)
    (most,) = db.execute("SELECT coalesce(max(quantity), 0) FROM bookings WHERE trip_id = ? "
                         "AND kind = 'activity' AND status = 'confirmed'", (trip_id,)).fetchone()
    if most > size - 1:
        raise ToolError(f"An activity of this trip is booked for {most} participants; reduce "
                        "it before removing a traveler.")
    db.execute("DELETE FROM trip_travelers WHERE trip_id = ? AND traveler_id = ?",
               (trip_id, traveler_id))
    return {"trip_id": trip_id, "traveler_id": traveler_id, "removed": True,
            "traveler_count": size - 1}


@tool(Category.WRITE, returns={"booking_id": BookingId, "trip_id": TripId,
                               "room_type_id": RoomTypeId, "hotel_id": HotelId},
      writes=("booking_id", "trip_id"), needs=("room_type_id",))
def book_hotel(db, trip_id: TripId, room_type_id: RoomTypeId, check_in: str, check_out: str,
               rooms: int = 1) -> dict:
    """Book a hotel stay on a trip: rooms of one room type in the trip's destination, within
    the trip's dates, free on every night, with room for every traveller of the trip (rooms
    times capacity). State the price and the cancellation policy and get the customer's
    explicit yes before calling.

    Args:
        trip_id: The trip's id.
        room_type_id: The room type's id (from search_hotels or get_hotel).
        check_in: The arrival date, YYYY-MM-DD, today or later.
        check_out: The departure date, YYYY-MM-DD, after the arrival date.
        rooms: How many rooms (1 to 4).
    """
    trip = _open_trip(db, trip_id)
    row = fetch_row(db, "SELECT r.hotel_id, h.city, r.capacity, r.nightly_rate FROM room_types r "
                    "JOIN hotels h ON h.hotel_id = r.hotel_id WHERE r.room_type_id = ?",
                    (room_type_id,), f"Room type {room_type_id!r} not found.")
    hotel_id, city, capacity, rate = row
    nights = _future_range(check_in, check_out, "check_in", "check_out")
    if not 1 <= rooms <= MAX_ROOMS:
        raise ToolError(f"rooms must be between 1 and {MAX_ROOMS}.")
    _in_city(trip, city, "hotel")
    _within_trip(trip, check_in, check_out)
    party = _trip_size(db, trip_id)
    if rooms * capacity < party:
        raise ToolError(f"{rooms} room(s) for {capacity} guest(s) each cannot hold the trip's "
                        f"{party} travelers.")
    left = rooms_left(db, room_type_id, check_in, check_out)
    if left < rooms:
        raise ToolError(f"Only {max(left, 0)} room(s) of this type are free for those nights.")
    total = money(rate * nights * rooms)
    booking_id = _insert_booking(db, trip_id, "hotel", room_type_id, check_in, check_out,
                                 rooms, rate, total)
    return _booking_record(db, _booking(db, booking_id))


@tool(Category.WRITE, returns={"booking_id": BookingId, "trip_id": TripId, "car_id": CarId},
      writes=("booking_id", "trip_id"), needs=("car_id",))
def book_rental_car(db, trip_id: TripId, car_id: CarId, pickup_date: str,
                    dropoff_date: str) -> dict:
    """Rent a car on a trip: a car offer in the trip's destination, within the trip's dates,
    with a seat for every traveller of the trip. State the price and the cancellation policy
    and get the customer's explicit yes before calling.

    Args:
        trip_id: The trip's id.
        car_id: The car offer's id (from search_rental_cars).
        pickup_date: The pick-up date, YYYY-MM-DD, today or later.
        dropoff_date: The drop-off date, YYYY-MM-DD, after the pick-up date.
    """
    trip = _open_trip(db, trip_id)
    row = fetch_row(db, "SELECT city, seats, daily_rate FROM cars WHERE car_id = ?", (car_id,),
                    f"Car {car_id!r} not found.")
    city, seats, rate = row
    days = _future_range(pickup_date, dropoff_date, "pickup_date", "dropoff_date")
    _in_city(trip, city, "car")
    _within_trip(trip, pickup_date, dropoff_date)
    party = _trip_size(db, trip_id)
    if seats < party:
        raise ToolError(f"The car seats {seats}, but the trip has {party} travelers.")
    if cars_left(db, car_id, pickup_date, dropoff_date) < 1:
        raise ToolError("No car of this offer is free for those days.")
    booking_id = _insert_booking(db, trip_id, "car", car_id, pickup_date, dropoff_date, 1,
                                 rate, money(rate * days))
    return _booking_record(db, _booking(db, booking_id))


@tool(Category.WRITE, returns={"booking_id": BookingId, "trip_id": TripId,
                               "activity_id": ActivityId},
      writes=("booking_id", "trip_id"), needs=("activity_id",))
def book_activity(db, trip_id: TripId, activity_id: ActivityId, date: str,
                  participants: int) -> dict:
    """Book an activity on a trip: in the trip's destination, on a day within the trip when
    it runs, for at most as many participants as the trip has travellers, with seats left.
    State the price and get the customer's explicit yes before calling.

    Args:
        trip_id: The trip's id.
        activity_id: The activity's id (from search_activities).
        date: The day, YYYY-MM-DD, today or later.
        participants: How many people take part (1 to the number of travellers on the trip).
    """
    trip = _open_trip(db, trip_id)
    row = fetch_row(db, "SELECT city, price_per_person, weekdays, name FROM activities "
                    "WHERE activity_id = ?", (activity_id,),
                    f"Activity {activity_id!r} not found.")
    city, price, weekdays, name = row
    check_date(date, "date")
    if date < TODAY:
        raise ToolError(f"date must be today ({TODAY}) or later.")
    _in_city(trip, city, "activity")
    _within_trip(trip, date, date)
    if not runs_on(weekdays, date):
        raise ToolError(f"{name} does not run on that day of the week.")
    party = _trip_size(db, trip_id)
    if not 1 <= participants <= party:
        raise ToolError(f"participants must be between 1 and the trip's {party} travelers.")
    left = seats_left(db, activity_id, date)
    if left < participants:
        raise ToolError(f"Only {max(left, 0)} seat(s) are left on that day.")
    booking_id = _insert_booking(db, trip_id, "activity", activity_id, date, date,
                                 participants, price, money(price * participants))
    return _booking_record(db, _booking(db, booking_id))


@tool(Category.WRITE, returns={"booking_id": BookingId, "trip_id": TripId},
      writes=("booking_id",), needs=("booking_id",))
def change_hotel_dates(db, booking_id: BookingId, check_in: str, check_out: str) -> dict:
    """Move a confirmed hotel stay to other dates within its trip, at the room's nightly
    rate. Allowed only while the stay can still be cancelled free of charge (see
    get_booking), and only if the rooms are free on the new nights. Confirm the new dates and
    price with the customer (explicit yes) before calling.

    Args:
        booking_id: The hotel booking's id.
        check_in: The new arrival date, YYYY-MM-DD, today or later.
        check_out: The new departure date, YYYY-MM-DD, after the arrival date.
    """
    booking = _confirmed_upcoming(db, booking_id)
    if booking["kind"] != "hotel":
        raise ToolError(f"Booking {booking_id} is a {booking['kind']} booking, not a hotel stay.")
    terms = cancellation_terms(db, booking)
    if terms["fee"] > 0:
        raise ToolError(f"The free-cancellation period ended on {terms['free_until']}; the "
                        "dates of this stay can no longer be changed.")
    nights = _future_range(check_in, check_out, "check_in", "check_out")
    if (check_in, check_out) == (booking["start_date"], booking["end_date"]):
        raise ToolError("The stay already has these dates.")
    trip = _trip(db, booking["trip_id"])
    _within_trip(trip, check_in, check_out)
    left = rooms_left(db, booking["room_type_id"], check_in, check_out, ignore=booking_id)
    if left < booking["quantity"]:
        raise ToolError("The room type is not free on the new nights.")
    total = money(booking["unit_price"] * nights * booking["quantity"])
    if booking["points_redeemed"] > total * POINTS_PER_DOLLAR:
        raise ToolError("The points redeemed on this stay exceed the new price.")
    db.execute("UPDATE bookings SET start_date = ?, end_date = ?, total_price = ? "
               "WHERE booking_id = ?", (check_in, check_out, total, booking_id))
    return _booking_record(db, _booking(db, booking_id))


@tool(Category.WRITE, returns={"booking_id": BookingId, "trip_id": TripId},
      writes=("booking_id",), needs=("booking_id",))
def change_activity_participants(db, booking_id: BookingId, participants: int) -> dict:
    """Change how many people take part in a confirmed activity booking (at most the trip's
    travellers, within the seats left). Not possible within 2 days of the activity. Confirm
    the new number and price with the customer (explicit yes) before calling.

    Args:
        booking_id: The activity booking's id.
        participants: The new number of participants.
    """
    booking = _booking(db, booking_id)
    if booking["kind"] != "activity":
        raise ToolError(f"Booking {booking_id} is a {booking['kind']} booking, not an activity.")
    if booking["status"] != "confirmed":
        raise ToolError(f"Booking {booking_id} is {booking['status']}.")
    if days_between(TODAY, booking["start_date"]) < ACTIVITY_CHANGE_DAYS:
        raise ToolError(f"Activities cannot be changed within {ACTIVITY_CHANGE_DAYS} days of "
                        "their date.")
    if participants == booking["quantity"]:
        raise ToolError(f"The booking is already for {participants} participant(s).")
    party = _trip_size(db, booking["trip_id"])
    if not 1 <= participants <= party:
        raise ToolError(f"participants must be between 1 and the trip's {party} travelers.")
    if seats_left(db, booking["activity_id"], booking["start_date"], ignore=booking_id) \
            < participants:
        raise ToolError("Not enough seats are left on that day.")
    total = money(booking["unit_price"] * participants)
    if booking["points_redeemed"] > total * POINTS_PER_DOLLAR:
        raise ToolError("The points redeemed on this booking exceed the new price.")
    db.execute("UPDATE bookings SET quantity = ?, total_price = ? WHERE booking_id = ?",
               (participants, total, booking_id))
    return _booking_record(db, _booking(db, booking_id))


@tool(Category.WRITE, returns={"booking_id": BookingId, "trip_id": TripId},
      writes=("booking_id",), needs=("booking_id",))
def cancel_booking(db, booking_id: BookingId) -> dict:
    """Cancel a confirmed booking that has not started. A hotel stay is free to cancel until
    its hotel's free-cancellation days before check-in, then costs one night per room; a car
    rental is free until 2 days before pick-up, then costs one day's rate; an activity can be
    cancelled (free) only 2 days or more before its date. Points redeemed on the booking are
    returned. State the fee and get the customer's explicit yes before calling.

    Args:
        booking_id: The booking's id.
    """
    booking = _booking(db, booking_id)
    terms = cancellation_terms(db, booking)
    if not terms["cancellable"]:
        raise ToolError(f"Booking {booking_id} cannot be cancelled: {terms['why']}.")
    fee = terms["fee"]
    db.execute("UPDATE bookings SET status = 'cancelled', cancellation_fee = ? "
               "WHERE booking_id = ?", (fee, booking_id))
    points = booking["points_redeemed"]
    if points:
        _ledger(db, _owner_of_booking(db, booking), booking_id, "refunded", points)
    return {"booking_id": booking_id, "trip_id": booking["trip_id"], "status": "cancelled",
            "cancellation_fee": fee, "refund_amount": money(max(0.0, amount_due(booking) - fee)),
            "points_returned": points}


@tool(Category.WRITE, returns={"booking_id": BookingId, "trip_id": TripId,
                               "customer_id": CustomerId},
      writes=("booking_id", "customer_id"), needs=("booking_id",))
def redeem_points(db, booking_id: BookingId, points: int) -> dict:
    """Redeem loyalty points of the trip's customer on a confirmed booking that has not
    started: 100 points take $1 off. Points are redeemed in multiples of 100, at most the
    customer's balance and at most the amount still due. Confirm with the customer (explicit
    yes) before calling.

    Args:
        booking_id: The booking's id.
        points: How many points to redeem (a positive multiple of 100).
    """
    booking = _confirmed_upcoming(db, booking_id)
    if points <= 0 or points % POINTS_PER_DOLLAR:
        raise ToolError(f"points must be a positive multiple of {POINTS_PER_DOLLAR}.")
    customer_id = _owner_of_booking(db, booking)
    (balance,) = db.execute("SELECT points_balance FROM customers WHERE customer_id = ?",
                            (customer_id,)).fetchone()
    if points > balance:
        raise ToolError(f"Not enough points: the balance is {balance} points, {points} "
                        "requested.")
    due = amount_due(booking)
    if points > round(due * POINTS_PER_DOLLAR):
        raise ToolError(f"{points} points (${points / POINTS_PER_DOLLAR:.2f}) exceed the "
                        f"amount due on the booking (${due:.2f}).")
    db.execute("UPDATE bookings SET points_redeemed = points_redeemed + ? WHERE booking_id = ?",
               (points, booking_id))
    _ledger(db, customer_id, booking_id, "redeemed", -points)
    return {"booking_id": booking_id, "trip_id": booking["trip_id"], "customer_id": customer_id,
            "points_redeemed": booking["points_redeemed"] + points,
            "amount_due": money(due - points / POINTS_PER_DOLLAR),
            "points_balance": balance - points}


@tool(Category.WRITE, returns={"trip_id": TripId}, writes=("trip_id",), needs=("trip_id",))
def cancel_trip(db, trip_id: TripId) -> dict:
    """Cancel a planned trip that holds no confirmed booking (cancel its bookings first).
    Confirm with the customer (explicit yes) before calling.

    Args:
        trip_id: The trip's id.
    """
    trip = _trip(db, trip_id)
    if trip["status"] != "planned":
        raise ToolError(f"Trip {trip_id} is {trip['status']}; only a planned trip can be "
                        "cancelled.")
    (confirmed,) = db.execute("SELECT count(*) FROM bookings WHERE trip_id = ? "
                              "AND status = 'confirmed'", (trip_id,)).fetchone()
    if confirmed:
        raise ToolError(f"Trip {trip_id} still has {confirmed} confirmed booking(s); cancel "
                        "them first.")
    db.execute("UPDATE trips SET status = 'cancelled' WHERE trip_id = ?", (trip_id,))
    return {"trip_id": trip_id, "status": "cancelled"}
