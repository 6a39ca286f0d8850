"""Rules every travel booking database keeps (generated data and after any tool call).

``invariants(db)`` returns the problems found (empty when every rule holds).
"""

from __future__ import annotations

from ...core.rules import rule_checker
from .tools import MAX_TRAVELERS, TODAY

_LIVE = "status != 'cancelled'"

RULES: list[tuple[str, str]] = [
    ("a points balance is the sum of the customer's points entries",
     "SELECT c.customer_id FROM customers c WHERE c.points_balance != (SELECT coalesce(sum("
     "p.points), 0) FROM points_ledger p WHERE p.customer_id = c.customer_id)"),
    ("points redeemed on a booking are on the ledger (returned when it is cancelled)",
     "SELECT b.booking_id FROM bookings b WHERE (CASE WHEN b.status = 'cancelled' THEN 0 "
     "ELSE b.points_redeemed END) != -(SELECT coalesce(sum(p.points), 0) FROM points_ledger p "
     "WHERE p.booking_id = b.booking_id AND p.kind IN ('redeemed', 'refunded'))"),
    ("a points entry of a booking belongs to the booking's customer",
     "SELECT p.entry_id FROM points_ledger p JOIN bookings b ON b.booking_id = p.booking_id "
     "JOIN trips t ON t.trip_id = b.trip_id WHERE t.customer_id != p.customer_id"),
    ("points never take off more than the price",
     "SELECT booking_id FROM bookings WHERE points_redeemed % 100 != 0 "
     "OR points_redeemed > round(total_price * 100)"),
    ("money amounts are whole cents",
     "SELECT booking_id FROM bookings WHERE abs(total_price * 100 - round(total_price * 100)) "
     "> 1e-6 OR abs(cancellation_fee * 100 - round(cancellation_fee * 100)) > 1e-6"),
    ("a price is the unit price times quantity and nights or days",
     "SELECT booking_id FROM bookings WHERE abs(total_price - round(unit_price * quantity * "
     "(CASE kind WHEN 'activity' THEN 1 ELSE julianday(end_date) - julianday(start_date) END),"
     " 2)) > 0.005"),
    ("a stay or rental lasts at least a day, an activity one day",
     "SELECT booking_id FROM bookings WHERE (kind = 'activity' AND end_date != start_date) "
     "OR (kind != 'activity' AND end_date <= start_date)"),
    ("only a cancelled booking has a cancellation fee",
     "SELECT booking_id FROM bookings WHERE status != 'cancelled' AND cancellation_fee != 0"),
    ("a booking falls within its trip's dates",
     "SELECT b.booking_id FROM bookings b JOIN trips t ON t.trip_id = b.trip_id "
     "WHERE b.start_date < t.start_date OR b.end_date > t.end_date"),
    ("a booking is in its trip's destination",
     "SELECT b.booking_id FROM bookings b JOIN trips t ON t.trip_id = b.trip_id "
     "LEFT JOIN room_types r ON r.room_type_id = b.room_type_id "
     "LEFT JOIN hotels h ON h.hotel_id = r.hotel_id LEFT JOIN cars c ON c.car_id = b.car_id "
     "LEFT JOIN activities a ON a.activity_id = b.activity_id "
     "WHERE coalesce(h.city, c.city, a.city) != t.destination_city"),
    ("no room type is booked beyond its rooms on any night",
     "SELECT b.booking_id FROM bookings b JOIN room_types r ON r.room_type_id = b.room_type_id "
     f"WHERE b.{_LIVE} AND (SELECT sum(o.quantity) FROM bookings o "
     f"WHERE o.room_type_id = b.room_type_id AND o.{_LIVE} AND o.start_date <= b.start_date "
     "AND o.end_date > b.start_date) > r.rooms_total"),
    ("no car offer is rented beyond its cars on any day",
     "SELECT b.booking_id FROM bookings b JOIN cars c ON c.car_id = b.car_id "
     f"WHERE b.{_LIVE} AND (SELECT count(*) FROM bookings o WHERE o.car_id = b.car_id "
     f"AND o.{_LIVE} AND o.start_date <= b.start_date AND o.end_date > b.start_date) > c.units"),
    ("no activity is booked beyond its capacity, and only on a day it runs",
     "SELECT b.booking_id FROM bookings b JOIN activities a ON a.activity_id = b.activity_id "
     f"WHERE b.{_LIVE} AND ((SELECT sum(o.quantity) FROM bookings o "
     f"WHERE o.activity_id = b.activity_id AND o.{_LIVE} AND o.start_date = b.start_date) "
     "> a.daily_capacity OR instr(a.weekdays, CAST((CAST(strftime('%w', b.start_date) AS "
     "INTEGER) + 6) % 7 AS TEXT)) = 0)"),
    ("a confirmed activity has no more participants than its trip has travelers",
     "SELECT b.booking_id FROM bookings b WHERE b.kind = 'activity' AND b.status = 'confirmed' "
     "AND b.quantity > (SELECT count(*) FROM trip_travelers x WHERE x.trip_id = b.trip_id)"),
    ("a trip's travelers are profiles of the trip's customer",
     "SELECT x.trip_id FROM trip_travelers x JOIN trips t ON t.trip_id = x.trip_id "
     "JOIN travelers v ON v.traveler_id = x.traveler_id WHERE v.customer_id != t.customer_id"),
    (f"a trip has one to {MAX_TRAVELERS} travelers, the customer among them",
     "SELECT t.trip_id FROM trips t WHERE (SELECT count(*) FROM trip_travelers x "
     f"WHERE x.trip_id = t.trip_id) NOT BETWEEN 1 AND {MAX_TRAVELERS} OR NOT EXISTS ("
     "SELECT 1 FROM trip_travelers x JOIN travelers v ON v.traveler_id = x.traveler_id "
     "WHERE x.trip_id = t.trip_id AND v.relation = 'self')"),
    ("every customer has exactly one own traveler profile",
     "SELECT c.customer_id FROM customers c WHERE (SELECT count(*) FROM travelers v "
     "WHERE v.customer_id = c.customer_id AND v.relation = 'self') != 1"),
    ("a trip's status matches its dates",
     f"SELECT trip_id FROM trips WHERE (status = 'completed' AND end_date >= '{TODAY}') "
     f"OR (status = 'planned' AND start_date <= '{TODAY}') OR (status = 'in_progress' AND "
     f"(start_date > '{TODAY}' OR end_date < '{TODAY}'))"),
    ("a cancelled or completed trip holds no confirmed booking",
     "SELECT b.booking_id FROM bookings b JOIN trips t ON t.trip_id = b.trip_id "
     "WHERE b.status = 'confirmed' AND t.status IN ('cancelled', 'completed')"),
    ("a confirmed booking has not ended, a completed one has",
     f"SELECT booking_id FROM bookings WHERE (status = 'confirmed' AND end_date < '{TODAY}') "
     f"OR (status = 'completed' AND end_date >= '{TODAY}')"),
]


invariants = rule_checker(RULES)
