"""Fuzzy descriptions of airline entities (reservations, flights, payment methods,
passengers), each proven unique by a query when the task is made."""

from __future__ import annotations

import copy

from ...core.taskkit import SampleContext, join_words, prove
from ...core.task_model import Description
from .phrasing import CARD_BRANDS, date_words, passenger_phrase, place
from .records import Method, Reservation, UserRecords

#: Time-of-day periods of a departure: (words, from, before), ``HH:MM:SS`` strings.
PERIODS = (("early morning", "00:00:00", "06:00:00"), ("morning", "06:00:00", "12:00:00"),
           ("afternoon", "12:00:00", "17:00:00"), ("evening", "17:00:00", "24:00:00"))

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
_METHOD_BY_CARD = ("SELECT id FROM payment_methods WHERE user_id = ? AND "
                   "source = 'credit_card' AND brand = ? AND last_four = ?")
_METHOD_BY_SOURCE = "SELECT id FROM payment_methods WHERE user_id = ? AND source = ?"
_METHOD_BY_AMOUNT = ("SELECT id FROM payment_methods WHERE user_id = ? AND "
                     "source = 'certificate' AND amount = ?")
_METHOD_BY_ENDING = ("SELECT id FROM payment_methods WHERE user_id = ? AND "
                     "source = ? AND substr(id, -4) = ?")


def identity(ctx: SampleContext) -> Description | None:
    """The user, by their user id (as in tau2's airline tasks)."""
    uid = ctx.user_id
    return ctx.describe("user", f"user id {uid}", {"user_id": uid}, uid,
                        "SELECT user_id FROM users WHERE user_id = ?", (uid,))


def reservation(ctx: SampleContext, user: UserRecords, r: Reservation) -> Description | None:
    """By route and first date, unique among the user's reservations, or (with probability
    ``1 - fuzziness``) by its id."""
    rid = r.reservation_id
    if ctx.rng.random() >= ctx.config.fuzziness:
        return ctx.describe("reservation", f"reservation {rid}", {"reservation_id": rid}, rid,
                            "SELECT reservation_id FROM reservations WHERE "
                            "reservation_id = ? AND user_id = ?", (rid, user.user_id))
    key = r.key
    if key is None or user.keys.count(key) != 1:
        return None
    proof = prove(ctx.db, _RESERVATION_BY_KEY, (user.user_id, *key), (rid,))
    if proof is None:
        return None
    kind = "round trip" if r.flight_type == "round_trip" else "trip"
    text = (f"my {kind} from {place(key[0], ctx.rng)} to {place(key[1], ctx.rng)} "
            f"departing on {date_words(key[2])}")
    return Description("reservation", text,
                       {"origin": key[0], "destination": key[1], "date": key[2]}, rid, proof)


def period_of(dep: str) -> tuple[str, str, str]:
    for period in PERIODS:
        if period[1] <= dep < period[2]:
            return period
    return PERIODS[-1]


def flight(ctx: SampleContext, origin: str, destination: str, date: str, flight_number: str,
           options: list[tuple]) -> Description | None:
    """A flight among ``options`` (``(flight_number, sched_dep)`` of every available flight
    of the route on the date) by its time of day, or by its exact departure time."""
    dep = next((o[1] for o in options if o[0] == flight_number), None)
    if dep is None:
        return None
    words, after, before = period_of(dep)
    a, b, d = place(origin, ctx.rng), place(destination, ctx.rng), date_words(date)
    route = {"origin": origin, "destination": destination, "date": date}
    if sum(1 for o in options if after <= o[1] < before) == 1:
        desc = ctx.describe("flight", f"the {words} flight from {a} to {b} on {d}",
                            {**route, "depart_after": after, "depart_before": before},
                            flight_number, _FLIGHT_BY_PERIOD,
                            (date, origin, destination, after, before))
        if desc is not None:
            return desc
    if sum(1 for o in options if o[1] == dep) == 1:
        return ctx.describe("flight", f"the flight from {a} to {b} on {d} that departs at "
                            f"{dep[:5]}", {**route, "departure": dep}, flight_number,
                            _FLIGHT_BY_TIME, (date, origin, destination, dep))
    return None


def user_flight(ctx: SampleContext, user: UserRecords, key: tuple,
                flight_number: str) -> Description | None:
    """One of the user's flights by route and date, or (with probability
    ``1 - fuzziness``) by flight number and date."""
    origin, destination, date = key
    if ctx.rng.random() >= ctx.config.fuzziness:
        return ctx.describe("segment", f"flight {flight_number} on {date_words(date)}",
                            {"flight_number": flight_number, "date": date}, flight_number,
                            "SELECT flight_number FROM flight_dates WHERE "
                            "flight_number = ? AND date = ?", (flight_number, date))
    proof = prove(ctx.db, _USER_SEGMENT, (user.user_id, *key), (flight_number,))
    if proof is None:
        return None
    return Description(
        "segment", f"my flight from {place(origin, ctx.rng)} to {place(destination, ctx.rng)} "
                   f"on {date_words(date)}",
        {"origin": origin, "destination": destination, "date": date}, flight_number, proof)


def _stored_value(ctx: SampleContext, user: UserRecords, m: Method,
                  word: str) -> Description | None:
    """A gift card or certificate: the only one, its whole-dollar value (certificates),
    or the last four digits of its id."""
    uid = user.user_id
    desc = None
    if sum(1 for x in user.methods if x.source == m.source) == 1:
        desc = ctx.describe("payment_method", f"my {word}", {"source": m.source}, m.id,
                            _METHOD_BY_SOURCE, (uid, m.source))
    if desc is None and m.source == "certificate" and m.amount is not None \
            and float(m.amount).is_integer():
        value = int(m.amount)
        desc = ctx.describe("payment_method", f"my ${value} {word}",
                            {"source": m.source, "amount": value}, m.id, _METHOD_BY_AMOUNT,
                            (uid, float(value)))
    if desc is None and len(m.id) > 4 and m.id[-4:].isdigit():
        ending = m.id[-4:]
        desc = ctx.describe("payment_method", f"my {word} ending in {ending}",
                            {"source": m.source, "ending": ending}, m.id, _METHOD_BY_ENDING,
                            (uid, m.source, ending))
    return desc


def method(ctx: SampleContext, user: UserRecords, m: Method) -> Description | None:
    """A credit card by brand and last four digits; a gift card or travel certificate as
    "my gift card" when it is the only one, else by its value or its last four digits."""
    if m.id in user.method_descriptions:
        return user.method_descriptions[m.id]
    desc = None
    if m.source == "credit_card" and m.brand and m.last_four:
        brand = CARD_BRANDS.get(str(m.brand).lower(), str(m.brand).title())
        desc = ctx.describe("payment_method", f"my {brand} card ending in {m.last_four}",
                            {"source": "credit_card", "brand": m.brand,
                             "last_four": m.last_four}, m.id, _METHOD_BY_CARD,
                            (user.user_id, m.brand, m.last_four))
    elif m.source in ("gift_card", "certificate"):
        word = "gift card" if m.source == "gift_card" else "travel certificate"
        desc = _stored_value(ctx, user, m, word)
    user.method_descriptions[m.id] = desc
    return desc


def method_terms(m_id: str, desc: Description) -> tuple[str, ...]:
    """The confirm group of a payment method: its id, or how it was described."""
    f = desc.fields
    if f["source"] == "credit_card":
        return (m_id, f["last_four"])
    if "ending" in f:
        return (m_id, f["ending"])
    return (m_id, "gift card" if f["source"] == "gift_card" else "certificate")


def passengers(ctx: SampleContext, user: UserRecords, spec: list[dict],
               people: list[tuple]) -> Description | None | bool:
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
    proof = prove(ctx.db, "SELECT " + ", ".join(parts), tuple(params), tuple(expected))
    if proof is None:
        return False
    texts = [passenger_phrase(e) for e in spec]
    value = [{"first_name": f, "last_name": l, "dob": d} for f, l, d in people]
    return Description("passengers", join_words(texts), {"passengers": copy.deepcopy(spec)},
                       value, proof)
