"""Consistency rules of an airline database: ``invariants(db)`` lists the problems (empty
when the rules hold). Rules flagged or left out on purpose: ``docs/airline-data.md``.
"""

from __future__ import annotations

from ...core.rules import rule_checker
from .tools import NOW

__all__ = ["invariants", "RULES"]


#: Sum of the payment history minus the price of the reservation's current contents.
_PAID_MINUS_PRICE = (
    "(SELECT coalesce(sum(amount), 0) FROM reservation_payments p "
    " WHERE p.reservation_id = r.reservation_id) - ("
    " (SELECT coalesce(sum(price), 0) FROM reservation_flights s "
    "  WHERE s.reservation_id = r.reservation_id)"
    " + (CASE r.insurance WHEN 'yes' THEN 30 ELSE 0 END)"
    ") * (SELECT count(*) FROM reservation_passengers x WHERE x.reservation_id = r.reservation_id)"
    " - 50 * r.nonfree_baggages"
)

#: (description, query returning one text column describing each offending row).
RULES: list[tuple[str, str]] = [
    ("available seats must be non-negative integers",
     "SELECT flight_number || ' ' || date FROM flight_dates WHERE status = 'available' AND ("
     "typeof(seats_basic_economy) != 'integer' OR typeof(seats_economy) != 'integer' "
     "OR typeof(seats_business) != 'integer' OR seats_basic_economy < 0 OR seats_economy < 0 "
     "OR seats_business < 0)"),
    ("prices must be non-negative integers",
     "SELECT flight_number || ' ' || date FROM flight_dates WHERE status = 'available' AND ("
     "typeof(price_basic_economy) != 'integer' OR typeof(price_economy) != 'integer' "
     "OR typeof(price_business) != 'integer' OR price_basic_economy < 0 OR price_economy < 0 "
     "OR price_business < 0)"),
    ("a flight date has exactly the fields of its status",
     "SELECT flight_number || ' ' || date || ' ' || status FROM flight_dates WHERE "
     "(status = 'available') != (seats_basic_economy IS NOT NULL AND seats_economy IS NOT NULL "
     "AND seats_business IS NOT NULL AND price_basic_economy IS NOT NULL "
     "AND price_economy IS NOT NULL AND price_business IS NOT NULL) "
     "OR (status != 'available' AND coalesce(seats_basic_economy, seats_economy, seats_business, "
     "price_basic_economy, price_economy, price_business) IS NOT NULL) "
     "OR (est_dep IS NOT NULL) != (status IN ('on time', 'delayed')) "
     "OR (est_arr IS NOT NULL) != (status IN ('on time', 'delayed', 'flying')) "
     "OR (act_dep IS NOT NULL) != (status IN ('flying', 'landed')) "
     "OR (act_arr IS NOT NULL) != (status = 'landed')"),
    ("gift card and certificate amounts must be non-negative numbers",
     "SELECT user_id || ' ' || id || ' ' || quote(amount) FROM payment_methods "
     "WHERE source IN ('gift_card', 'certificate') "
     "AND (typeof(amount) NOT IN ('real', 'integer') OR amount < 0)"),
    ("credit cards have brand and last_four and no amount; others only an amount",
     "SELECT user_id || ' ' || id FROM payment_methods WHERE "
     "(source = 'credit_card' AND (brand IS NULL OR last_four IS NULL OR amount IS NOT NULL)) "
     "OR (source != 'credit_card' AND (brand IS NOT NULL OR last_four IS NOT NULL))"),
    ("a user's reservation list must name existing reservations of that user",
     "SELECT u.user_id || ' lists ' || u.reservation_id FROM user_reservations u "
     "LEFT JOIN reservations r ON r.reservation_id = u.reservation_id "
     "WHERE r.reservation_id IS NULL OR r.user_id != u.user_id"),
    ("every reservation appears exactly once in its user's reservation list",
     "SELECT r.reservation_id FROM reservations r WHERE (SELECT count(*) FROM user_reservations u "
     "WHERE u.reservation_id = r.reservation_id AND u.user_id = r.user_id) != 1"),
    ("segments must name an existing flight date, with the flight's origin and destination",
     "SELECT s.reservation_id || '[' || s.pos || '] ' || s.flight_number || ' ' || s.date "
     "FROM reservation_flights s LEFT JOIN flights f ON f.flight_number = s.flight_number "
     "LEFT JOIN flight_dates d ON d.flight_number = s.flight_number AND d.date = s.date "
     "WHERE d.flight_number IS NULL OR f.origin != s.origin OR f.destination != s.destination"),
    ("segment prices must be non-negative integers",
     "SELECT reservation_id || '[' || pos || ']' FROM reservation_flights "
     "WHERE typeof(price) != 'integer' OR price < 0"),
    ("payments use payment methods of the reservation's user (used certificates are gone)",
     "SELECT p.reservation_id || ' uses ' || p.payment_id FROM reservation_payments p "
     "JOIN reservations r ON r.reservation_id = p.reservation_id LEFT JOIN payment_methods m "
     "ON m.user_id = r.user_id AND m.id = p.payment_id "
     "WHERE m.id IS NULL AND p.payment_id NOT LIKE 'certificate\\_%' ESCAPE '\\'"),
    ("an active reservation's payments cover its price (segments x passengers, insurance, "
     "non-free bags)",
     f"SELECT r.reservation_id || ' short by ' || (-({_PAID_MINUS_PRICE})) FROM reservations r "
     f"WHERE r.status IS NULL AND ({_PAID_MINUS_PRICE}) < 0"),
    ("reservations cannot be created after the clock",
     f"SELECT reservation_id || ' ' || created_at FROM reservations WHERE created_at > '{NOW}'"),
]


invariants = rule_checker(RULES, flag_more=True)
