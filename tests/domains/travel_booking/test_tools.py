"""Each travel booking tool: its success path and its error paths; failed writes change
nothing; the invariants catch broken rules."""

from __future__ import annotations

from collections import Counter

import pytest

from tool_gym.core.tools import Category
from tool_gym.domains.travel_booking import DOMAIN
from tool_gym.domains.travel_booking.tools import (TODAY, days_between, money, plus_days,
                                                   runs_on)

from ..calls import fails, ok, one, rules_catch

TOMORROW = plus_days(TODAY, 1)

_UPCOMING = ("SELECT b.booking_id FROM bookings b JOIN room_types r "
             "ON r.room_type_id = b.room_type_id JOIN hotels h ON h.hotel_id = r.hotel_id "
             "WHERE b.status = 'confirmed' AND b.start_date > ? ")


def free_stay(box) -> str:
    """A confirmed hotel stay still free to cancel."""
    return one(box, _UPCOMING + "AND date(b.start_date, '-' || h.free_cancel_days || ' days') "
                    ">= ? AND b.points_redeemed = 0 ORDER BY b.rowid LIMIT 1", (TODAY, TODAY))[0]


def late_stay(box) -> tuple:
    """A confirmed hotel stay past its free cancellation: id, nightly rate, rooms."""
    return one(box, "SELECT b.booking_id, b.unit_price, b.quantity FROM bookings b "
                    "WHERE b.booking_id IN (" + _UPCOMING + "AND date(b.start_date, '-' || "
                    "h.free_cancel_days || ' days') < ?) ORDER BY b.rowid LIMIT 1",
               (TODAY, TODAY))


def open_trip(box, city: str = "Lisbon", start: str = "2025-08-10",
              end: str = "2025-08-14") -> tuple:
    """A new planned trip of the first customer (themself its one traveller): id, customer,
    city, first and last day."""
    customer, = one(box, "SELECT customer_id FROM customers ORDER BY rowid LIMIT 1")
    trip = ok(box, "create_trip", customer_id=customer, name="Test trip", destination_city=city,
              start_date=start, end_date=end)
    return trip["trip_id"], customer, city, start, end


def balance(box, customer_id: str) -> int:
    return one(box, "SELECT points_balance FROM customers WHERE customer_id = ?",
               (customer_id,))[0]


# ------------------------------------------------------------------------- schemas

def test_toolbox_has_twelve_reads_and_twelve_writes():
    counts = Counter(t.category for t in DOMAIN.toolbox)
    assert counts[Category.READ] == 12 and counts[Category.WRITE] == 12
    assert counts[Category.GENERIC] == 1 and len(DOMAIN.toolbox) >= 20


# --------------------------------------------------------------------------- reads

def test_find_customer(box, state):
    customer = state["customers"][5]
    assert ok(box, "find_customer_by_email",
              email=f"  {customer['email'].upper()} ") == customer["customer_id"]
    assert ok(box, "find_customer_by_username",
              username=customer["username"]) == customer["customer_id"]
    fails(box, "find_customer_by_email", "no customer", email="nobody@example.com")
    fails(box, "find_customer_by_username", "no customer", username="nobody")


def test_profile_travelers_and_trips(box):
    trip_id, customer = one(box, "SELECT trip_id, customer_id FROM trips WHERE status = "
                                 "'planned' AND (SELECT count(*) FROM bookings b WHERE "
                                 "b.trip_id = trips.trip_id AND b.status = 'confirmed') >= 2")
    profile = ok(box, "get_customer_profile", customer_id=customer)
    assert trip_id in profile["trip_ids"] and profile["traveler_ids"]
    assert profile["points_value"] == money(profile["points_balance"] / 100)
    travelers = ok(box, "list_travelers", customer_id=customer)["travelers"]
    assert [t["relation"] for t in travelers].count("self") == 1
    trips = ok(box, "list_trips", customer_id=customer)["trips"]
    assert trip_id in [t["trip_id"] for t in trips]
    trip = ok(box, "get_trip", trip_id=trip_id)
    confirmed = [b for b in trip["bookings"] if b["status"] == "confirmed"]
    assert trip["confirmed_total"] == money(sum(b["total_price"] for b in confirmed))
    assert all(b["amount_due"] == money(b["total_price"] - b["points_redeemed"] / 100)
               for b in trip["bookings"])
    for name in ("get_customer_profile", "list_travelers", "list_trips"):
        fails(box, name, "not found", customer_id="cus_missing")
    fails(box, "get_trip", "not found", trip_id="trp_missing")


def test_search_hotels(box):
    trip_id, _, city, start, end = open_trip(box)
    found = ok(box, "search_hotels", city=city.upper(), check_in=start, check_out=end, rooms=2)
    nights = days_between(start, end)
    assert found["city"] == city and found["nights"] == nights and found["hotels"]
    for hotel in found["hotels"]:
        for room in hotel["rooms"]:
            assert room["rooms_left"] >= 2
            assert room["stay_price"] == money(room["nightly_rate"] * nights * 2)
    fails(box, "search_hotels", "do not serve", city="Atlantis", check_in=start, check_out=end)
    fails(box, "search_hotels", "today", city=city, check_in="2025-01-01",
          check_out="2025-01-03")
    fails(box, "search_hotels", "after check_in", city=city, check_in=end, check_out=start)
    fails(box, "search_hotels", "at most 30", city=city, check_in=start,
          check_out=plus_days(start, 31))
    fails(box, "search_hotels", "YYYY-MM-DD", city=city, check_in="June 1", check_out=end)
    fails(box, "search_hotels", "between 1 and 4", city=city, check_in=start, check_out=end,
          rooms=0)


def test_get_hotel_cars_and_activities(box):
    hotel_id, city = one(box, "SELECT hotel_id, city FROM hotels LIMIT 1")
    hotel = ok(box, "get_hotel", hotel_id=hotel_id)
    assert hotel["city"] == city and len(hotel["room_types"]) == 3
    assert f"{hotel['free_cancel_days']} day" in hotel["cancellation_policy"]
    fails(box, "get_hotel", "not found", hotel_id="htl_missing")
    day = plus_days(TODAY, 20)
    cars = ok(box, "search_rental_cars", city=city, pickup_date=day,
              dropoff_date=plus_days(day, 3))["cars"]
    assert cars and all(c["rental_price"] == money(c["daily_rate"] * 3) for c in cars)
    fails(box, "search_rental_cars", "after pickup_date", city=city, pickup_date=day,
          dropoff_date=day)
    found = ok(box, "search_activities", city=city, date=day)
    weekdays = dict(box.db.execute("SELECT activity_id, weekdays FROM activities"))
    assert all(runs_on(weekdays[a["activity_id"]], day) for a in found["activities"])
    assert day == "2025-06-01" and found["weekday"] == "Sunday"
    fails(box, "search_activities", "today", city=city, date="2025-05-01")
    fails(box, "search_activities", "do not serve", city="", date=day)


def test_get_booking_and_loyalty(box):
    booking_id, rate, rooms = late_stay(box)
    record = ok(box, "get_booking", booking_id=booking_id)
    assert record["can_cancel_today"] and record["free_cancellation_until"] < TODAY
    assert record["cancellation_fee_if_cancelled_today"] == money(rate * rooms)
    assert record["hotel_name"] and record["room_name"]
    free = ok(box, "get_booking", booking_id=free_stay(box))
    assert free["cancellation_fee_if_cancelled_today"] == 0
    fails(box, "get_booking", "not found", booking_id="bk_missing")
    customer, = one(box, "SELECT customer_id FROM points_ledger WHERE kind = 'redeemed' LIMIT 1")
    account = ok(box, "get_loyalty_account", customer_id=customer)
    assert account["points_balance"] == sum(e["points"] for e in account["entries"])
    assert {"bonus", "redeemed"} <= {e["kind"] for e in account["entries"]}
    fails(box, "get_loyalty_account", "not found", customer_id="cus_missing")
    assert ok(box, "transfer_to_human_agents", summary="help") == "Transfer successful"


# -------------------------------------------------------------------------- writes

@pytest.mark.usefixtures("rules_kept")
def test_create_trip(box):
    customer, = one(box, "SELECT customer_id FROM customers LIMIT 1")
    made = ok(box, "create_trip", customer_id=customer, name="  Summer   in Lisbon ",
              destination_city="lisbon", start_date="2025-07-01", end_date="2025-07-08")
    assert made["name"] == "Summer in Lisbon" and made["destination_city"] == "Lisbon"
    assert made["status"] == "planned" and [t["relation"] for t in made["travelers"]] == ["self"]
    today = ok(box, "create_trip", customer_id=customer, name="Day trip",
               destination_city="Rome", start_date=TODAY, end_date=TODAY)
    assert today["status"] == "in_progress"
    args = {"customer_id": customer, "name": "Trip", "destination_city": "Rome",
            "start_date": "2025-07-01", "end_date": "2025-07-03"}
    fails(box, "create_trip", "must not be empty", **{**args, "name": "   "})
    fails(box, "create_trip", "too long", **{**args, "name": "x" * 81})
    fails(box, "create_trip", "do not serve", **{**args, "destination_city": "Paris"})
    fails(box, "create_trip", "today", **{**args, "start_date": "2025-05-01"})
    fails(box, "create_trip", "after start_date", **{**args, "end_date": "2025-06-30"})
    fails(box, "create_trip", "not a valid date", **{**args, "end_date": "2025-02-30"})
    fails(box, "create_trip", "not found", **{**args, "customer_id": "cus_missing"})


@pytest.mark.usefixtures("rules_kept")
def test_traveler_profiles_and_trip_travelers(box):
    trip_id, customer, *_ = open_trip(box)
    made = ok(box, "add_traveler_profile", customer_id=customer, first_name="Ada",
              last_name="Lovelace", date_of_birth="1990-12-10", relation="friend")
    fails(box, "add_traveler_profile", "already saved", customer_id=customer,
          first_name="ADA", last_name="lovelace", date_of_birth="1990-12-10", relation="friend")
    fails(box, "add_traveler_profile", "in the past", customer_id=customer, first_name="Al",
          last_name="Future", date_of_birth="2030-01-01", relation="child")
    fails(box, "add_traveler_profile", "must be one of", customer_id=customer, first_name="Al",
          last_name="Self", date_of_birth="1990-01-01", relation="self")
    added = ok(box, "add_traveler_to_trip", trip_id=trip_id, traveler_id=made["traveler_id"])
    assert added["traveler_count"] == 2
    fails(box, "add_traveler_to_trip", "already on", trip_id=trip_id,
          traveler_id=made["traveler_id"])
    stranger, = one(box, "SELECT traveler_id FROM travelers WHERE customer_id != ? LIMIT 1",
                    (customer,))
    fails(box, "add_traveler_to_trip", "not one of", trip_id=trip_id, traveler_id=stranger)
    done, owner = one(box, "SELECT trip_id, customer_id FROM trips WHERE status = 'completed' "
                           "LIMIT 1")
    fails(box, "add_traveler_to_trip", "completed", trip_id=done, traveler_id=stranger)
    self_id, = one(box, "SELECT traveler_id FROM travelers WHERE customer_id = ? "
                        "AND relation = 'self'", (customer,))
    fails(box, "remove_traveler_from_trip", "cannot be removed", trip_id=trip_id,
          traveler_id=self_id)
    assert ok(box, "remove_traveler_from_trip", trip_id=trip_id,
              traveler_id=made["traveler_id"])["traveler_count"] == 1
    fails(box, "remove_traveler_from_trip", "not on this trip", trip_id=trip_id,
          traveler_id=made["traveler_id"])


def test_a_traveler_in_an_activity_stays(box):
    trip_id, traveler_id = one(
        box, "SELECT b.trip_id, x.traveler_id FROM bookings b JOIN trip_travelers x ON "
             "x.trip_id = b.trip_id JOIN travelers v ON v.traveler_id = x.traveler_id JOIN trips t "
             "ON t.trip_id = b.trip_id WHERE b.kind = 'activity' AND b.status = 'confirmed' "
             "AND t.status = 'planned' AND v.relation != 'self' AND b.quantity = (SELECT "
             "count(*) FROM trip_travelers y WHERE y.trip_id = b.trip_id) LIMIT 1")
    fails(box, "remove_traveler_from_trip", "participants", trip_id=trip_id,
          traveler_id=traveler_id)


def test_book_hotel(box):
    trip_id, _, city, start, end = open_trip(box)
    rooms = ok(box, "search_hotels", city=city, check_in=start, check_out=end)["hotels"][0]
    room = rooms["rooms"][0]
    made = ok(box, "book_hotel", trip_id=trip_id, room_type_id=room["room_type_id"],
              check_in=start, check_out=end)
    assert made["status"] == "confirmed" and made["total_price"] == room["stay_price"]
    assert made["hotel_name"] == rooms["hotel_name"] and made["booked_on"] == TODAY
    other, = one(box, "SELECT r.room_type_id FROM room_types r JOIN hotels h USING (hotel_id) "
                      "WHERE h.city != ? LIMIT 1", (city,))
    fails(box, "book_hotel", "goes to", trip_id=trip_id, room_type_id=other, check_in=start,
          check_out=end)
    fails(box, "book_hotel", "within the trip", trip_id=trip_id,
          room_type_id=room["room_type_id"], check_in=start, check_out=plus_days(end, 1))
    fails(box, "book_hotel", "not found", trip_id=trip_id, room_type_id="rm_missing",
          check_in=start, check_out=end)
    fails(box, "book_hotel", "between 1 and 4", trip_id=trip_id,
          room_type_id=room["room_type_id"], check_in=start, check_out=end, rooms=9)
    assert box.check_integrity() == []
    # fill the room type: the next booking finds no room
    box.db.execute("UPDATE room_types SET rooms_total = 1 WHERE room_type_id = ?",
                   (room["room_type_id"],))
    fails(box, "book_hotel", "free for those nights", trip_id=trip_id,
          room_type_id=room["room_type_id"], check_in=start, check_out=end)
    done, = one(box, "SELECT trip_id FROM trips WHERE status = 'cancelled' LIMIT 1")
    fails(box, "book_hotel", "cancelled", trip_id=done, room_type_id=room["room_type_id"],
          check_in=start, check_out=end)


def test_rooms_must_hold_the_party(box):
    trip_id, city, start, end, party = one(
        box, "SELECT t.trip_id, t.destination_city, t.start_date, t.end_date, count(*) "
             "FROM trips t JOIN trip_travelers x ON x.trip_id = t.trip_id WHERE t.status = "
             "'planned' AND t.end_date > t.start_date GROUP BY t.trip_id HAVING count(*) >= 3 "
             "LIMIT 1")
    room, = one(box, "SELECT r.room_type_id FROM room_types r JOIN hotels h USING (hotel_id) "
                     "WHERE h.city = ? AND r.capacity = 2", (city,))
    fails(box, "book_hotel", "cannot hold", trip_id=trip_id, room_type_id=room, check_in=start,
          check_out=end, rooms=1)
    car, = one(box, "SELECT car_id FROM cars WHERE city = ? AND seats < ? LIMIT 1", (city, party)) \
        if party > 4 else (None,)
    if car:
        fails(box, "book_rental_car", "seats", trip_id=trip_id, car_id=car, pickup_date=start,
              dropoff_date=end)


def test_book_rental_car(box):
    trip_id, _, city, start, end = open_trip(box)
    car = ok(box, "search_rental_cars", city=city, pickup_date=start, dropoff_date=end)["cars"][0]
    made = ok(box, "book_rental_car", trip_id=trip_id, car_id=car["car_id"], pickup_date=start,
              dropoff_date=end)
    assert made["total_price"] == car["rental_price"] and made["company"] == car["company"]
    other, = one(box, "SELECT car_id FROM cars WHERE city != ? LIMIT 1", (city,))
    fails(box, "book_rental_car", "goes to", trip_id=trip_id, car_id=other, pickup_date=start,
          dropoff_date=end)
    fails(box, "book_rental_car", "after pickup_date", trip_id=trip_id, car_id=car["car_id"],
          pickup_date=end, dropoff_date=start)
    assert box.check_integrity() == []
    box.db.execute("UPDATE cars SET units = 1 WHERE car_id = ?", (car["car_id"],))
    fails(box, "book_rental_car", "no car", trip_id=trip_id, car_id=car["car_id"],
          pickup_date=start, dropoff_date=end)


def test_book_activity(box):
    trip_id, _, city, start, end = open_trip(box)
    day = next(d for d in (plus_days(start, k) for k in range(days_between(start, end) + 1))
               if ok(box, "search_activities", city=city, date=d)["activities"])
    act = ok(box, "search_activities", city=city, date=day)["activities"][0]
    made = ok(box, "book_activity", trip_id=trip_id, activity_id=act["activity_id"], date=day,
              participants=1)
    assert made["total_price"] == act["price_per_person"] and made["end_date"] == day
    fails(box, "book_activity", "between 1 and", trip_id=trip_id,
          activity_id=act["activity_id"], date=day, participants=2)
    idle = next(d for d in (plus_days(day, k) for k in range(1, 7))
                if not runs_on(one(box, "SELECT weekdays FROM activities WHERE activity_id = ?",
                                   (act["activity_id"],))[0], d))
    fails(box, "book_activity", "", trip_id=trip_id, activity_id=act["activity_id"], date=idle,
          participants=1)
    assert box.check_integrity() == []
    box.db.execute("UPDATE activities SET daily_capacity = 1 WHERE activity_id = ?",
                   (act["activity_id"],))
    fails(box, "book_activity", "seat", trip_id=trip_id, activity_id=act["activity_id"],
          date=day, participants=1)
    fails(box, "book_activity", "not found", trip_id=trip_id, activity_id="act_missing",
          date=day, participants=1)


@pytest.mark.usefixtures("rules_kept")
def test_change_hotel_dates(box):
    booking_id = free_stay(box)
    b = one(box, "SELECT start_date, end_date, unit_price, quantity FROM bookings "
                 "WHERE booking_id = ?", (booking_id,))
    start, end, rate, rooms = b
    if days_between(start, end) >= 2:
        new_in, new_out = plus_days(start, 1), end
    else:
        new_in, new_out = start, end
    if (new_in, new_out) != (start, end):
        made = ok(box, "change_hotel_dates", booking_id=booking_id, check_in=new_in,
                  check_out=new_out)
        assert made["total_price"] == money(rate * rooms * days_between(new_in, new_out))
    fails(box, "change_hotel_dates", "already has these dates", booking_id=booking_id,
          check_in=new_in, check_out=new_out)
    fails(box, "change_hotel_dates", "within the trip", booking_id=booking_id,
          check_in=plus_days(TODAY, 1), check_out=plus_days(TODAY, 2))
    late, *_ = late_stay(box)
    fails(box, "change_hotel_dates", "free-cancellation period", booking_id=late,
          check_in=plus_days(TODAY, 1), check_out=plus_days(TODAY, 2))
    car, = one(box, "SELECT booking_id FROM bookings WHERE kind = 'car' AND status = 'confirmed' "
                    "AND start_date > ? LIMIT 1", (TODAY,))
    fails(box, "change_hotel_dates", "not a hotel stay", booking_id=car, check_in=new_in,
          check_out=new_out)


@pytest.mark.usefixtures("rules_kept")
def test_change_activity_participants(box):
    booking_id, quantity, party, price = one(
        box, "SELECT b.booking_id, b.quantity, (SELECT count(*) FROM trip_travelers x WHERE "
             "x.trip_id = b.trip_id), b.unit_price FROM bookings b WHERE b.kind = 'activity' "
             "AND b.status = 'confirmed' AND b.start_date >= ? AND b.points_redeemed = 0 AND "
             "b.quantity >= 2 LIMIT 1", (plus_days(TODAY, 2),))
    made = ok(box, "change_activity_participants", booking_id=booking_id,
              participants=quantity - 1)
    assert made["quantity"] == quantity - 1 and made["total_price"] == money(price * (quantity - 1))
    fails(box, "change_activity_participants", "already for", booking_id=booking_id,
          participants=quantity - 1)
    fails(box, "change_activity_participants", "between 1 and", booking_id=booking_id,
          participants=party + 1)
    late, = one(box, "SELECT booking_id FROM bookings WHERE kind = 'activity' AND status = "
                     "'confirmed' AND start_date = ? LIMIT 1", (TOMORROW,))
    fails(box, "change_activity_participants", "2 days", booking_id=late, participants=1)


@pytest.mark.usefixtures("rules_kept")
def test_cancel_booking_fees(box):
    free = free_stay(box)
    assert ok(box, "cancel_booking", booking_id=free)["cancellation_fee"] == 0
    fails(box, "cancel_booking", "is cancelled", booking_id=free)
    late, rate, rooms = late_stay(box)
    made = ok(box, "cancel_booking", booking_id=late)
    assert made["cancellation_fee"] == money(rate * rooms)
    assert one(box, "SELECT status, cancellation_fee FROM bookings WHERE booking_id = ?",
               (late,)) == ("cancelled", money(rate * rooms))
    car, day_rate = one(box, "SELECT booking_id, unit_price FROM bookings WHERE kind = 'car' "
                             "AND status = 'confirmed' AND start_date = ?", (TOMORROW,))
    assert ok(box, "cancel_booking", booking_id=car)["cancellation_fee"] == day_rate
    activity, = one(box, "SELECT booking_id FROM bookings WHERE kind = 'activity' AND status = "
                         "'confirmed' AND start_date <= ? LIMIT 1", (TOMORROW,))
    fails(box, "cancel_booking", "48 hours", booking_id=activity)
    started, = one(box, "SELECT booking_id FROM bookings WHERE kind = 'hotel' AND status = "
                        "'confirmed' AND start_date <= ? LIMIT 1", (TODAY,))
    fails(box, "cancel_booking", "already started", booking_id=started)
    done, = one(box, "SELECT booking_id FROM bookings WHERE status = 'completed' LIMIT 1")
    fails(box, "cancel_booking", "completed", booking_id=done)
    fails(box, "cancel_booking", "not found", booking_id="bk_missing")


@pytest.mark.usefixtures("rules_kept")
def test_cancelling_returns_the_points(box):
    booking_id, points, customer = one(
        box, "SELECT b.booking_id, b.points_redeemed, t.customer_id FROM bookings b JOIN trips t "
             "ON t.trip_id = b.trip_id WHERE b.points_redeemed > 0 AND b.status = 'confirmed' "
             "AND b.kind != 'activity' LIMIT 1")
    before = balance(box, customer)
    assert ok(box, "cancel_booking", booking_id=booking_id)["points_returned"] == points
    assert balance(box, customer) == before + points


def test_redeem_points(box):
    booking_id, customer, due = one(
        box, "SELECT b.booking_id, t.customer_id, b.total_price - b.points_redeemed / 100.0 "
             "FROM bookings b JOIN trips t ON t.trip_id = b.trip_id JOIN customers c ON "
             "c.customer_id = t.customer_id WHERE b.status = 'confirmed' AND b.start_date > ? "
             "AND c.points_balance >= 1000 AND b.total_price >= 50 LIMIT 1", (TODAY,))
    before = balance(box, customer)
    made = ok(box, "redeem_points", booking_id=booking_id, points=1000)
    assert made["points_balance"] == before - 1000 == balance(box, customer)
    assert made["amount_due"] == money(due - 10)
    fails(box, "redeem_points", "multiple of 100", booking_id=booking_id, points=150)
    fails(box, "redeem_points", "multiple of 100", booking_id=booking_id, points=-100)
    fails(box, "redeem_points", "not enough points", booking_id=booking_id,
          points=(before // 100 + 1) * 100)
    assert box.check_integrity() == []
    box.db.execute("UPDATE customers SET points_balance = points_balance + 10000000 "
                   "WHERE customer_id = ?", (customer,))
    fails(box, "redeem_points", "exceed the amount due", booking_id=booking_id,
          points=int(due * 100) + 100)
    done, = one(box, "SELECT booking_id FROM bookings WHERE status = 'completed' LIMIT 1")
    fails(box, "redeem_points", "completed", booking_id=done, points=100)


@pytest.mark.usefixtures("rules_kept")
def test_cancel_trip(box):
    trip_id, = one(box, "SELECT t.trip_id FROM trips t WHERE t.status = 'planned' AND "
                        "(SELECT count(*) FROM bookings b WHERE b.trip_id = t.trip_id AND "
                        "b.status = 'confirmed' AND b.kind != 'activity') = 1 AND NOT EXISTS "
                        "(SELECT 1 FROM bookings b WHERE b.trip_id = t.trip_id AND b.status = "
                        "'confirmed' AND b.kind = 'activity') AND NOT EXISTS (SELECT 1 FROM "
                        "bookings b JOIN room_types r USING (room_type_id) JOIN hotels h USING "
                        "(hotel_id) WHERE b.trip_id = t.trip_id AND date(b.start_date, '-' || "
                        "h.free_cancel_days || ' days') < ?) AND t.start_date > ? LIMIT 1",
                   (TODAY, plus_days(TODAY, 3)))
    fails(box, "cancel_trip", "still has 1 confirmed", trip_id=trip_id)
    booking, = one(box, "SELECT booking_id FROM bookings WHERE trip_id = ? AND status = "
                        "'confirmed'", (trip_id,))
    ok(box, "cancel_booking", booking_id=booking)
    assert ok(box, "cancel_trip", trip_id=trip_id)["status"] == "cancelled"
    fails(box, "cancel_trip", "only a planned trip", trip_id=trip_id)
    fails(box, "cancel_trip", "not found", trip_id="trp_missing")


def test_created_ids_never_clash_with_generated_ones(box):
    customer, = one(box, "SELECT customer_id FROM customers LIMIT 1")
    args = {"customer_id": customer, "name": "T", "destination_city": "Rome",
            "start_date": "2025-07-01", "end_date": "2025-07-03"}
    first = ok(box, "create_trip", **args)["trip_id"]
    second = ok(box, "create_trip", **args)["trip_id"]
    assert first != second and first.split("_")[1].isdigit()


def test_bad_input_is_an_error(box):
    customer, = one(box, "SELECT customer_id FROM customers LIMIT 1")
    fails(box, "create_trip", "must be of type string", customer_id=customer, name=5,
          destination_city="Rome", start_date="2025-07-01", end_date="2025-07-02")
    fails(box, "redeem_points", "must be of type integer", booking_id="bk_x", points="a lot")
    fails(box, "create_trip", "quota exceeded", customer_id=customer, name="x" * 40_000,
          destination_city="Rome", start_date="2025-07-01", end_date="2025-07-02")


def test_invariants_catch_broken_rules(box):
    rules_catch(box, {
        "sum of the customer's points": "UPDATE customers SET points_balance = "
        "points_balance + 100 WHERE rowid = 1",
        "unit price times quantity": "UPDATE bookings SET total_price = total_price + 1 "
        "WHERE rowid = 1",
        "within its trip's dates": "UPDATE bookings SET end_date = '2030-01-01' WHERE "
        "kind = 'hotel' AND rowid = (SELECT min(rowid) FROM bookings WHERE kind = 'hotel')",
        "beyond its rooms": "UPDATE room_types SET rooms_total = 0 + 1 WHERE room_type_id = ("
        "SELECT room_type_id FROM bookings WHERE kind = 'hotel' AND status != 'cancelled' "
        "GROUP BY room_type_id, start_date HAVING sum(quantity) >= 2 LIMIT 1)",
        "only a cancelled booking": "UPDATE bookings SET cancellation_fee = 5 WHERE "
        "status = 'confirmed' AND rowid = (SELECT min(rowid) FROM bookings WHERE "
        "status = 'confirmed')",
        "status matches its dates": "UPDATE trips SET status = 'completed' WHERE "
        "status = 'planned' AND rowid = (SELECT min(rowid) FROM trips WHERE status = 'planned')",
        "profiles of the trip's customer": "UPDATE trip_travelers SET traveler_id = (SELECT "
        "traveler_id FROM travelers ORDER BY rowid DESC LIMIT 1) WHERE rowid = 1",
    })
