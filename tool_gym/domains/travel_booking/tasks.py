"""Hidden-intent tasks of the travel booking domain (customers' trips, their hotel stays, car
rentals and activities, travellers and loyalty points): the constraint samplers and
``TASKS``, the domain's :class:`~tool_gym.core.taskkit.RuleTaskKit`.

Claims: a need claims the trip it touches (``("trip", id)``), so that two needs of a task
never change or read the same itinerary in an order-dependent way; a need that moves or
reads the points balance claims ``("points", user)``; bookings, room types and activity
days are claimed as well, so that inventory never runs out between two needs.
"""

from __future__ import annotations

from ...core.actions import ToolCall
from ...core.sampler_parts import Login, by_name, describe_any
from ...core.taskkit import (RuleTaskKit, SampleContext, answer_steps, date_words, dollars,
                             money_terms, write_steps)
from ...core.task_model import Constraint, Description, Expectation, Refusal
from .tools import (ACTIVITY_CHANGE_DAYS, MAX_ROOMS, MAX_TRAVELERS, POINTS_PER_DOLLAR, TODAY,
                    amount_due, cancellation_terms, cars_left, days_between, money, plus_days,
                    rooms_left, runs_on, seats_left)

#: Words that name why a refusal is due (any one addresses it; see ``Refusal.about``).
_OVER_BALANCE_WORDS = (
    "balance", "enough", "insufficient", "exceed", "exceeds", "exceeding", "more than",
    "only have", "only has", "short", "not have that many", "don't have that many")
_LATE_WORDS = (
    "48 hours", "48-hour", "48 hour", "2 days", "two days", "window", "too late", "late",
    "deadline", "too close", "tomorrow", "today", "no longer")

CLASS_WORDS = {"economy": "an economy", "compact": "a compact", "midsize": "a midsize",
               "suv": "an SUV", "van": "a van", "luxury": "a luxury"}

ASK_IDENTITY = ("I'd be glad to help. First, to verify your account, could you tell me the "
                "email address or the username on it?")

_BOOKING = ("SELECT b.booking_id FROM bookings b JOIN trips t ON t.trip_id = b.trip_id ")


# ------------------------------------------------------------------ descriptions

def describe_trip(ctx: SampleContext, trip_id: str, city: str,
                  start: str) -> Description | None:
    """A trip by its destination, or its destination and first day."""
    mine = "SELECT trip_id FROM trips WHERE customer_id = ? AND destination_city = ?"
    return describe_any(ctx, "trip", trip_id, [
        (f"trip to {city}", {"city": city}, mine, (ctx.user_id, city)),
        (f"{city} trip starting {date_words(start)}", {"city": city, "start_date": start},
         mine + " AND start_date = ?", (ctx.user_id, city, start))])


def booking_name(ctx: SampleContext, booking_id: str) -> tuple[str, str, tuple]:
    """``(kind, what it is for, the words a proposal may name it by)``."""
    kind, hotel, company, car_class, city, activity = ctx.rows(
        "SELECT b.kind, h.name, c.company, c.car_class, coalesce(h.city, c.city, a.city), a.name "
        "FROM bookings b LEFT JOIN room_types r ON r.room_type_id = b.room_type_id "
        "LEFT JOIN hotels h ON h.hotel_id = r.hotel_id LEFT JOIN cars c ON c.car_id = b.car_id "
        "LEFT JOIN activities a ON a.activity_id = b.activity_id WHERE b.booking_id = ?",
        (booking_id,))[0]
    if kind == "hotel":
        return kind, hotel, (booking_id, hotel)
    if kind == "car":
        return kind, f"{company} {car_class} car", (booking_id, (company, car_class))
    return kind, activity, (booking_id, activity)


def describe_booking(ctx: SampleContext, booking_id: str) -> Description | None:
    """A booking by what it is for (the hotel, the car company and city, the activity),
    or that and its first day."""
    kind, start = ctx.rows("SELECT kind, start_date FROM bookings WHERE booking_id = ?",
                           (booking_id,))[0]
    mine = _BOOKING + "WHERE t.customer_id = ? "
    when = date_words(start)
    if kind == "hotel":
        (hotel,) = ctx.rows("SELECT h.name FROM bookings b JOIN room_types r ON "
                            "r.room_type_id = b.room_type_id JOIN hotels h ON "
                            "h.hotel_id = r.hotel_id WHERE b.booking_id = ?", (booking_id,))[0]
        base = mine + ("AND b.room_type_id IN (SELECT r.room_type_id FROM room_types r "
                       "JOIN hotels h ON h.hotel_id = r.hotel_id WHERE h.name = ?)")
        options = [(f"stay at the {hotel}", {"hotel": hotel}, base, (ctx.user_id, hotel)),
                   (f"stay at the {hotel} from {when}", {"hotel": hotel, "start_date": start},
                    base + " AND b.start_date = ?", (ctx.user_id, hotel, start))]
    elif kind == "car":
        company, city = ctx.rows("SELECT c.company, c.city FROM bookings b JOIN cars c "
                                 "ON c.car_id = b.car_id WHERE b.booking_id = ?",
                                 (booking_id,))[0]
        base = mine + ("AND b.car_id IN (SELECT car_id FROM cars WHERE company = ? "
                       "AND city = ?)")
        options = [(f"{company} car rental in {city}", {"company": company, "city": city},
                    base, (ctx.user_id, company, city)),
                   (f"{company} car rental in {city} from {when}",
                    {"company": company, "city": city, "start_date": start},
                    base + " AND b.start_date = ?", (ctx.user_id, company, city, start))]
    else:
        (name,) = ctx.rows("SELECT a.name FROM bookings b JOIN activities a ON "
                           "a.activity_id = b.activity_id WHERE b.booking_id = ?",
                           (booking_id,))[0]
        base = mine + "AND b.activity_id IN (SELECT activity_id FROM activities WHERE name = ?)"
        options = [(f"booking for the {name}", {"activity": name}, base, (ctx.user_id, name)),
                   (f"booking for the {name} on {when}", {"activity": name, "date": start},
                    base + " AND b.start_date = ?", (ctx.user_id, name, start))]
    return describe_any(ctx, "booking", booking_id, options)


def describe_traveler(ctx: SampleContext, traveler_id: str, first: str,
                      last: str) -> Description | None:
    return ctx.describe("traveler", f"{first} {last}", {"first_name": first, "last_name": last},
                        traveler_id, "SELECT traveler_id FROM travelers WHERE customer_id = ? "
                        "AND first_name = ? AND last_name = ?", (ctx.user_id, first, last))


# ------------------------------------------------------------------------ helpers

def _lists(ctx: SampleContext, *tools: str) -> list[ToolCall]:
    """Calls of the customer's list tools (``list_trips``, ``get_loyalty_account``, ...)."""
    return [ToolCall(tool, {"customer_id": ctx.user_id}) for tool in tools]


def _trip_reads(ctx: SampleContext, trip_id: str) -> list[ToolCall]:
    return _lists(ctx, "list_trips") + [ToolCall("get_trip", {"trip_id": trip_id})]


def _booking_reads(ctx: SampleContext, trip_id: str, booking_id: str) -> list[ToolCall]:
    return _trip_reads(ctx, trip_id) + [ToolCall("get_booking", {"booking_id": booking_id})]


def _trips(ctx: SampleContext, statuses: tuple[str, ...] = ("planned",)) -> list[tuple]:
    """The user's trips of ``statuses``: id, city, first and last day, travellers."""
    marks = ", ".join("?" * len(statuses))
    return ctx.rows(
        "SELECT t.trip_id, t.destination_city, t.start_date, t.end_date, (SELECT count(*) "
        "FROM trip_travelers x WHERE x.trip_id = t.trip_id) FROM trips t "
        f"WHERE t.customer_id = ? AND t.status IN ({marks}) ORDER BY t.rowid",
        (ctx.user_id, *statuses))


def _booking(ctx: SampleContext, booking_id: str) -> dict:
    keys = ("booking_id", "trip_id", "kind", "room_type_id", "car_id", "activity_id",
            "start_date", "end_date", "quantity", "unit_price", "total_price",
            "points_redeemed", "status", "cancellation_fee", "booked_on")
    return dict(zip(keys, ctx.rows(f"SELECT {', '.join(keys)} FROM bookings "
                                   "WHERE booking_id = ?", (booking_id,))[0]))


def _confirmed(ctx: SampleContext, kinds: tuple[str, ...] = ("hotel", "car", "activity"),
               after: str = TODAY) -> list[dict]:
    """The user's confirmed bookings of ``kinds`` starting after ``after``."""
    marks = ", ".join("?" * len(kinds))
    rows = ctx.rows(_BOOKING + "WHERE t.customer_id = ? AND b.status = 'confirmed' "
                    f"AND b.start_date > ? AND b.kind IN ({marks}) ORDER BY b.rowid",
                    (ctx.user_id, after, *kinds))
    return [_booking(ctx, b) for (b,) in rows]


def _balance(ctx: SampleContext) -> int:
    return ctx.rows("SELECT points_balance FROM customers WHERE customer_id = ?",
                    (ctx.user_id,))[0][0]


def _live(ctx: SampleContext, trip_id: str, kind: str) -> bool:
    """Whether the trip holds a confirmed booking of ``kind``."""
    return bool(ctx.rows("SELECT 1 FROM bookings WHERE trip_id = ? AND kind = ? "
                         "AND status = 'confirmed'", (trip_id, kind)))


def _points_terms(points: int) -> tuple[str, ...]:
    return tuple(dict.fromkeys((str(points), f"{points:,}")))


def _fee_terms(fee: float) -> tuple[str, ...]:
    if fee > 0:
        return money_terms(fee)
    return ("free", "no fee", "no charge", "no cancellation fee", "without a fee",
            "without charge", "0.00")


def _fee_words(fee: float) -> str:
    return f"a cancellation fee of ${fee:,.2f}" if fee > 0 else "free of charge (no fee)"


# ------------------------------------------------------------------- write needs

def cancel_booking(ctx: SampleContext) -> Constraint | None:
    for b in ctx.shuffled(_confirmed(ctx)):
        terms = cancellation_terms(ctx.db, b)
        if not terms["cancellable"]:
            continue
        d = describe_booking(ctx, b["booking_id"])
        keys = [b["booking_id"], ("trip", b["trip_id"])]
        if b["points_redeemed"]:
            keys.append(("points", ctx.user_id))
        if d is None or not ctx.claim(*keys):
            continue
        kind, name, forms = booking_name(ctx, b["booking_id"])
        fee = terms["fee"]
        call = ToolCall("cancel_booking", {"booking_id": b["booking_id"]})
        return Constraint(
            "cancel_booking", dict(call.arguments), refs={"booking": d},
            writes=(("cancel_booking", b["booking_id"]),),
            confirm_terms=(("cancel",), forms, _fee_terms(fee)),
            say=(f"Please cancel my {d.text}; our plans changed.",
                 f"I need to cancel my {d.text}. Can you do that?",
                 f"We won't need the {d.text} anymore, please cancel it."),
            solution=write_steps(
                _booking_reads(ctx, b["trip_id"], b["booking_id"]),
                f"I will cancel your {d.text} ({b['booking_id']}, {name}); it is "
                f"{_fee_words(fee)}. Shall I proceed?", call),
            expect=(Expectation("SELECT status, cancellation_fee FROM bookings "
                                "WHERE booking_id = ?", (b["booking_id"],),
                                (("cancelled", fee),)),))
    return None


def book_hotel(ctx: SampleContext) -> Constraint | None:
    for trip_id, city, start, end, party in ctx.shuffled(_trips(ctx)):
        if end <= start or _live(ctx, trip_id, "hotel") or ("trip", trip_id) in ctx.claimed:
            continue
        rooms = ctx.rows("SELECT r.room_type_id, r.name, h.name, r.capacity, r.nightly_rate "
                         "FROM room_types r JOIN hotels h ON h.hotel_id = r.hotel_id "
                         "WHERE h.city = ? ORDER BY r.rowid", (city,))
        for room_type_id, room, hotel, capacity, rate in ctx.shuffled(rooms):
            count = -(-party // capacity)
            if count > MAX_ROOMS or rooms_left(ctx.db, room_type_id, start, end) < count:
                continue
            trip = describe_trip(ctx, trip_id, city, start)
            if trip is None or not ctx.claim(("trip", trip_id), ("room", room_type_id)):
                return None
            nights = days_between(start, end)
            total = money(rate * nights * count)
            call = ToolCall("book_hotel", {"trip_id": trip_id, "room_type_id": room_type_id,
                                           "check_in": start, "check_out": end,
                                           "rooms": count})
            many = f"{count} rooms" if count > 1 else "one room"
            stay = f"from {date_words(start)} to {date_words(end)}"
            return Constraint(
                "book_hotel", dict(call.arguments), refs={"trip": trip},
                writes=(("book_hotel", trip_id),),
                confirm_terms=((hotel,), (room,), (start, date_words(start)),
                               (end, date_words(end))),
                say=(f"Please book a {room} at the {hotel} for my {trip.text}, {stay}. We "
                     f"need {many}.",
                     f"For my {trip.text}, I'd like {many} ({room}) at the {hotel}, checking "
                     f"in {date_words(start)} and out {date_words(end)}.",
                     f"Can you reserve the {hotel}, {room}, {many}, {stay}? It's for my "
                     f"{trip.text}."),
                solution=write_steps(
                    _lists(ctx, "list_trips") + [ToolCall("search_hotels", {
                        "city": city, "check_in": start, "check_out": end, "rooms": count})],
                    f"I will book {many} ({room}) at the {hotel} on your {trip.text}, checking "
                    f"in {start} and out {end} ({nights} nights), for ${total:,.2f} in total. "
                    "Shall I proceed?", call),
                expect=(Expectation("SELECT room_type_id, start_date, end_date, quantity, "
                                    "total_price FROM bookings WHERE trip_id = ? AND kind = "
                                    "'hotel' AND status = 'confirmed'", (trip_id,),
                                    ((room_type_id, start, end, count, total),)),))
    return None


def rent_car(ctx: SampleContext) -> Constraint | None:
    for trip_id, city, start, end, party in ctx.shuffled(_trips(ctx)):
        if end <= start or _live(ctx, trip_id, "car") or ("trip", trip_id) in ctx.claimed:
            continue
        cars = ctx.rows("SELECT car_id, company, car_class, daily_rate FROM cars "
                        "WHERE city = ? AND seats >= ? ORDER BY rowid", (city, party))
        for car_id, company, car_class, rate in ctx.shuffled(cars):
            if cars_left(ctx.db, car_id, start, end) < 1:
                continue
            trip = describe_trip(ctx, trip_id, city, start)
            if trip is None or not ctx.claim(("trip", trip_id), ("car", car_id)):
                return None
            days = days_between(start, end)
            total = money(rate * days)
            call = ToolCall("book_rental_car", {"trip_id": trip_id, "car_id": car_id,
                                                "pickup_date": start, "dropoff_date": end})
            when = f"from {date_words(start)} to {date_words(end)}"
            article = CLASS_WORDS[car_class]
            return Constraint(
                "rent_car", dict(call.arguments), refs={"trip": trip},
                writes=(("book_rental_car", trip_id),),
                confirm_terms=((company,), (car_class,), (start, date_words(start)),
                               (end, date_words(end))),
                say=(f"I'd like to rent {article} car from {company} for my {trip.text}, "
                     f"{when}.",
                     f"Could you book us {article} car with {company} for the {trip.text}? "
                     f"Pick-up {date_words(start)}, drop-off {date_words(end)}.",
                     f"Please add {article} rental car from {company} to my {trip.text}, "
                     f"{when}."),
                solution=write_steps(
                    _lists(ctx, "list_trips") + [ToolCall("search_rental_cars", {
                        "city": city, "pickup_date": start, "dropoff_date": end})],
                    f"I will rent a {company} {car_class} car on your {trip.text}, picked up "
                    f"{start} and dropped off {end} ({days} days), for ${total:,.2f}. Shall I "
                    "proceed?", call),
                expect=(Expectation("SELECT car_id, start_date, end_date, total_price FROM "
                                    "bookings WHERE trip_id = ? AND kind = 'car' AND status = "
                                    "'confirmed'", (trip_id,),
                                    ((car_id, start, end, total),)),))
    return None


def book_activity(ctx: SampleContext) -> Constraint | None:
    for trip_id, city, start, end, party in ctx.shuffled(_trips(ctx, ("planned",
                                                                         "in_progress"))):
        if ("trip", trip_id) in ctx.claimed:
            continue
        days = [d for d in (plus_days(start, k) for k in range(days_between(start, end) + 1))
                if d >= TODAY]
        acts = ctx.rows("SELECT activity_id, name, weekdays, price_per_person FROM activities "
                        "WHERE city = ? AND activity_id NOT IN (SELECT activity_id FROM "
                        "bookings WHERE trip_id = ? AND kind = 'activity' AND status = "
                        "'confirmed') ORDER BY rowid", (city, trip_id))
        options = [(a, d) for a in acts for d in days if runs_on(a[2], d)]
        for (activity_id, name, _, price), day in ctx.shuffled(options):
            people = party if party == 1 or ctx.rng.random() < 0.5 else \
                int(ctx.rng.integers(1, party + 1))
            if seats_left(ctx.db, activity_id, day) < people:
                continue
            trip = describe_trip(ctx, trip_id, city, start)
            if trip is None or not ctx.claim(("trip", trip_id), ("activity", activity_id, day)):
                return None
            total = money(price * people)
            call = ToolCall("book_activity", {"trip_id": trip_id, "activity_id": activity_id,
                                              "date": day, "participants": people})
            who = "just me" if people == 1 else f"{people} people"
            return Constraint(
                "book_activity", dict(call.arguments), refs={"trip": trip},
                writes=(("book_activity", trip_id),),
                confirm_terms=((name,), (day, date_words(day)), (str(people),)),
                say=(f"Please book the {name} on {date_words(day)} for {who}, on my "
                     f"{trip.text}.",
                     f"On my {trip.text} we'd like to do the {name} on {date_words(day)}: "
                     f"{who}.",
                     f"Can you get us on the {name} on {date_words(day)}? {who.capitalize()}, "
                     f"it's for my {trip.text}."),
                solution=write_steps(
                    _lists(ctx, "list_trips") + [ToolCall("search_activities", {
                        "city": city, "date": day})],
                    f"I will book the {name} on {day} for {people} participant(s) on your "
                    f"{trip.text}, for ${total:,.2f}. Shall I proceed?", call),
                expect=(Expectation("SELECT quantity, total_price FROM bookings WHERE trip_id = "
                                    "? AND activity_id = ? AND start_date = ? AND status = "
                                    "'confirmed'", (trip_id, activity_id, day),
                                    ((people, total),)),))
    return None


def change_hotel_dates(ctx: SampleContext) -> Constraint | None:
    for b in ctx.shuffled(_confirmed(ctx, ("hotel",))):
        terms = cancellation_terms(ctx.db, b)
        if not terms["cancellable"] or terms["fee"] > 0:
            continue
        trip_start, trip_end = ctx.rows("SELECT start_date, end_date FROM trips "
                                        "WHERE trip_id = ?", (b["trip_id"],))[0]
        first, last = b["start_date"], b["end_date"]
        ranges = [(plus_days(first, 1), last), (first, plus_days(last, -1)), (trip_start, trip_end),
                  (first, plus_days(last, 1)), (plus_days(first, -1), last)]
        options = [(i, o) for i, o in ranges if (i, o) != (first, last) and i < o
                   and i > TODAY and trip_start <= i and o <= trip_end
                   and rooms_left(ctx.db, b["room_type_id"], i, o, b["booking_id"])
                   >= b["quantity"]]
        if not options:
            continue
        new_in, new_out = ctx.pick(options)
        total = money(b["unit_price"] * days_between(new_in, new_out) * b["quantity"])
        if b["points_redeemed"] > total * POINTS_PER_DOLLAR:
            continue
        d = describe_booking(ctx, b["booking_id"])
        if d is None or not ctx.claim(b["booking_id"], ("trip", b["trip_id"]),
                                      ("room", b["room_type_id"])):
            continue
        _, hotel, forms = booking_name(ctx, b["booking_id"])
        call = ToolCall("change_hotel_dates", {"booking_id": b["booking_id"],
                                               "check_in": new_in, "check_out": new_out})
        when = f"checking in {date_words(new_in)} and out {date_words(new_out)}"
        return Constraint(
            "change_hotel_dates", dict(call.arguments), refs={"booking": d},
            writes=(("change_hotel_dates", b["booking_id"]),),
            confirm_terms=(forms, (new_in, date_words(new_in)), (new_out, date_words(new_out))),
            say=(f"Could you move my {d.text}? I'd like to be {when} instead.",
                 f"Please change the dates of my {d.text}: new check-in {date_words(new_in)}, "
                 f"new check-out {date_words(new_out)}.",
                 f"Our plans shifted; can my {d.text} be changed to {when}?"),
            solution=write_steps(
                _booking_reads(ctx, b["trip_id"], b["booking_id"]),
                f"I will change your stay at the {hotel} ({b['booking_id']}) to check in "
                f"{new_in} and check out {new_out}; the new price is ${total:,.2f}. Shall I "
                "proceed?", call),
            expect=(Expectation("SELECT start_date, end_date, total_price, status FROM bookings "
                                "WHERE booking_id = ?", (b["booking_id"],),
                                ((new_in, new_out, total, "confirmed"),)),))
    return None


def add_traveler_to_trip(ctx: SampleContext) -> Constraint | None:
    for trip_id, city, start, _, party in ctx.shuffled(_trips(ctx)):
        if party >= MAX_TRAVELERS or ("trip", trip_id) in ctx.claimed:
            continue
        others = ctx.rows("SELECT traveler_id, first_name, last_name, relation FROM travelers "
                          "WHERE customer_id = ? AND traveler_id NOT IN (SELECT traveler_id "
                          "FROM trip_travelers WHERE trip_id = ?) ORDER BY rowid",
                          (ctx.user_id, trip_id))
        for traveler_id, first, last, relation in ctx.shuffled(others):
            who = describe_traveler(ctx, traveler_id, first, last)
            trip = describe_trip(ctx, trip_id, city, start)
            if who is None or trip is None or not ctx.claim(("trip", trip_id)):
                return None
            call = ToolCall("add_traveler_to_trip", {"trip_id": trip_id,
                                                     "traveler_id": traveler_id})
            return Constraint(
                "add_traveler_to_trip", dict(call.arguments), refs={"trip": trip,
                                                                    "traveler": who},
                writes=(("add_traveler_to_trip", trip_id),),
                confirm_terms=((first, traveler_id), (city, trip_id)),
                say=(f"Please add {who.text} to my {trip.text}; they're coming along.",
                     f"{who.text} will join my {trip.text}. Can you put them on it?",
                     f"Could you add my {relation} {who.text} as a traveler on my "
                     f"{trip.text}?"),
                solution=write_steps(
                    _lists(ctx, "list_trips", "list_travelers"),
                    f"I will add {first} {last} to your {trip.text} ({trip_id}). Shall I "
                    "proceed?", call),
                expect=(Expectation("SELECT count(*) FROM trip_travelers WHERE trip_id = ? "
                                    "AND traveler_id = ?", (trip_id, traveler_id), ((1,),)),))
    return None


def redeem_points(ctx: SampleContext) -> Constraint | None:
    balance = _balance(ctx)
    if balance < 1000 or ("points", ctx.user_id) in ctx.claimed:
        return None
    for b in ctx.shuffled(_confirmed(ctx)):
        most = min(balance, int(round(amount_due(b) * POINTS_PER_DOLLAR)))
        if most < 1000:
            continue
        d = describe_booking(ctx, b["booking_id"])
        if d is None or not ctx.claim(b["booking_id"], ("trip", b["trip_id"]),
                                      ("points", ctx.user_id)):
            continue
        points = 500 * int(ctx.rng.integers(2, most // 500 + 1))
        _, name, forms = booking_name(ctx, b["booking_id"])
        call = ToolCall("redeem_points", {"booking_id": b["booking_id"], "points": points})
        off = points / POINTS_PER_DOLLAR
        return Constraint(
            "redeem_points", dict(call.arguments), refs={"booking": d},
            writes=(("redeem_points", b["booking_id"]),),
            confirm_terms=(_points_terms(points), forms),
            say=(f"I'd like to use {points:,} of my points on my {d.text}.",
                 f"Please redeem {points:,} loyalty points against my {d.text}.",
                 f"Can you take {points:,} points off my balance and apply them to my "
                 f"{d.text}?"),
            solution=write_steps(
                _lists(ctx, "get_loyalty_account") + _trip_reads(ctx, b["trip_id"]),
                f"I will redeem {points:,} points (${off:,.2f} off) on your {d.text} "
                f"({b['booking_id']}, {name}). Shall I proceed?", call),
            expect=(Expectation("SELECT points_redeemed FROM bookings WHERE booking_id = ?",
                                (b["booking_id"],), ((b["points_redeemed"] + points,),)),
                    Expectation("SELECT points_balance FROM customers WHERE customer_id = ?",
                                (ctx.user_id,), ((balance - points,),))))
    return None


# ------------------------------------------------------------- questions

def info_cancellation_fee(ctx: SampleContext) -> Constraint | None:
    for b in ctx.shuffled(_confirmed(ctx, ("hotel", "car"))):
        terms = cancellation_terms(ctx.db, b)
        if not terms["cancellable"] or terms["fee"] <= 0:
            continue
        d = describe_booking(ctx, b["booking_id"])
        if d is None or not ctx.claim(b["booking_id"], ("trip", b["trip_id"])):
            continue
        fee = terms["fee"]
        return Constraint(
            "info_cancellation_fee", {"booking_id": b["booking_id"]}, refs={"booking": d},
            answer=f"{fee:.2f}",
            say=(f"If I cancelled my {d.text} today, what would the cancellation fee be? "
                 "Don't cancel it yet.",
                 f"How much would it cost me to cancel my {d.text} now? I'm only asking.",
                 f"I'm thinking about cancelling my {d.text}. What fee would I pay today?"),
            solution=answer_steps(
                _booking_reads(ctx, b["trip_id"], b["booking_id"]),
                f"Free cancellation of your {d.text} ended on {terms['free_until']}, so "
                f"cancelling it today would cost a fee of ${fee:,.2f}."))
    return None


def info_trip_total(ctx: SampleContext) -> Constraint | None:
    for trip_id, city, start, _, _ in ctx.shuffled(_trips(ctx, ("planned", "in_progress"))):
        rows = ctx.rows("SELECT total_price FROM bookings WHERE trip_id = ? "
                        "AND status = 'confirmed'", (trip_id,))
        if len(rows) < 2:
            continue
        trip = describe_trip(ctx, trip_id, city, start)
        if trip is None or not ctx.claim(("trip", trip_id)):
            continue
        total = money(sum(r[0] for r in rows))
        return Constraint(
            "info_trip_total", {"trip_id": trip_id}, refs={"trip": trip},
            answer=f"{total:.2f}",
            say=(f"What do all the confirmed bookings of my {trip.text} add up to?",
                 f"How much is my {trip.text} costing in total, counting the confirmed "
                 "bookings?",
                 f"Could you tell me the total price of everything booked on my {trip.text}?"),
            solution=answer_steps(
                _trip_reads(ctx, trip_id),
                f"The confirmed bookings of your {trip.text} come to ${total:,.2f} in total "
                f"({len(rows)} bookings)."))
    return None


def info_points_balance(ctx: SampleContext) -> Constraint | None:
    balance = _balance(ctx)
    # a balance of whole hundreds may be a bare welcome bonus (1,000, 1,500): guessable
    if balance < 1000 or balance % 100 == 0 or not ctx.claim(("points", ctx.user_id)):
        return None
    value = money(balance / POINTS_PER_DOLLAR)
    return Constraint(
        "info_points_balance", {"customer_id": ctx.user_id}, answer=str(balance),
        say=("How many loyalty points do I have right now?",
             "What's my current points balance?",
             "Could you check how many reward points are on my account?"),
        solution=answer_steps(
            _lists(ctx, "get_loyalty_account"),
            f"You have {balance:,} points, worth ${value:,.2f} off a booking."))


# ------------------------------------------------------------------- refusals

def refuse_over_balance(ctx: SampleContext) -> Constraint | None:
    balance = _balance(ctx)
    if ("points", ctx.user_id) in ctx.claimed:
        return None
    for b in ctx.shuffled(_confirmed(ctx)):
        due = int(round(amount_due(b) * POINTS_PER_DOLLAR))
        points = 1000 * (balance // 1000 + int(ctx.rng.integers(1, 4)))
        if points > due:
            continue
        d = describe_booking(ctx, b["booking_id"])
        if d is None or not ctx.claim(b["booking_id"], ("trip", b["trip_id"]),
                                      ("points", ctx.user_id)):
            continue
        _, name, _ = booking_name(ctx, b["booking_id"])
        return Constraint(
            "refuse_over_balance", {"booking_id": b["booking_id"], "points": points},
            refs={"booking": d}, answer="cannot",
            refusal=Refusal((b["booking_id"],), about=(b["booking_id"], name,
                                                        *_OVER_BALANCE_WORDS)),
            say=(f"Please put {points:,} of my points on my {d.text}.",
                 f"I want to redeem {points:,} loyalty points on my {d.text}.",
                 f"Can you knock {dollars(points / POINTS_PER_DOLLAR)} off my {d.text} with "
                 f"{points:,} of my points?"),
            solution=answer_steps(
                _lists(ctx, "get_loyalty_account") + _trip_reads(ctx, b["trip_id"]),
                f"I'm sorry, but I cannot redeem {points:,} points on your {d.text}: your "
                f"balance is only {balance:,} points, and points can never be redeemed "
                "beyond the balance."),
            expect=(Expectation("SELECT points_redeemed FROM bookings WHERE booking_id = ?",
                                (b["booking_id"],), ((b["points_redeemed"],),)),))
    return None


def refuse_late_refund(ctx: SampleContext) -> Constraint | None:
    late = plus_days(TODAY, ACTIVITY_CHANGE_DAYS)
    rows = ctx.rows(_BOOKING + "WHERE t.customer_id = ? AND b.status = 'confirmed' "
                    "AND b.kind = 'activity' AND b.start_date >= ? AND b.start_date < ? "
                    "ORDER BY b.rowid", (ctx.user_id, TODAY, late))
    for (booking_id,) in ctx.shuffled(rows):
        b = _booking(ctx, booking_id)
        d = describe_booking(ctx, booking_id)
        if d is None or not ctx.claim(booking_id, ("trip", b["trip_id"])):
            continue
        _, name, _ = booking_name(ctx, booking_id)
        day = "today" if b["start_date"] == TODAY else "tomorrow"
        return Constraint(
            "refuse_late_refund", {"booking_id": booking_id}, refs={"booking": d},
            answer="cannot",
            refusal=Refusal((booking_id,), about=(booking_id, name, *_LATE_WORDS)),
            say=(f"Please cancel my {d.text} and refund it; we can't make it.",
                 f"I need to cancel the {d.text} and get my money back.",
                 f"Something came up, so cancel my {d.text} please, with a refund."),
            solution=answer_steps(
                _booking_reads(ctx, b["trip_id"], booking_id),
                f"I'm sorry, but I cannot cancel or refund your {d.text}: it is {day} "
                f"({b['start_date']}), and activities can only be cancelled at least 2 days "
                "(48 hours) before their date."),
            expect=(Expectation("SELECT status FROM bookings WHERE booking_id = ?",
                                (booking_id,), (("confirmed",),)),))
    return None


# ------------------------------------------------------------------------ the kit

LOGIN = Login("customers", "customer_id", "find_customer_by_email",
              "find_customer_by_username")


def policy_violations(db, tool: str, arguments: dict) -> list[str]:
    """Policy rules a write would break (the tools refuse these writes as well)."""
    if tool == "redeem_points":
        row = db.execute("SELECT c.points_balance FROM bookings b JOIN trips t "
                         "ON t.trip_id = b.trip_id JOIN customers c ON c.customer_id = "
                         "t.customer_id WHERE b.booking_id = ?",
                         (arguments.get("booking_id"),)).fetchone()
        points = arguments.get("points")
        if row is not None and isinstance(points, (int, float)) and points > row[0]:
            return ["policy:points_balance"]
    if tool in ("cancel_booking", "change_activity_participants"):
        row = db.execute("SELECT start_date FROM bookings WHERE booking_id = ? AND kind = "
                         "'activity' AND status = 'confirmed'",
                         (arguments.get("booking_id"),)).fetchone()
        if row is not None and days_between(TODAY, row[0]) < ACTIVITY_CHANGE_DAYS:
            return ["policy:activity_window"]
    return []


_CUSTOMER = ("SELECT customer_id FROM customers WHERE customer_id = ?", "customer_id")
_TRIP_OWNER = ("SELECT customer_id FROM trips WHERE trip_id = ?", "trip_id")
_BOOKING_OWNER = ("SELECT t.customer_id FROM bookings b JOIN trips t ON t.trip_id = b.trip_id "
                  "WHERE b.booking_id = ?", "booking_id")

SAMPLERS = by_name(
    cancel_booking, book_hotel, rent_car, book_activity, change_hotel_dates,
    add_traveler_to_trip, redeem_points, info_cancellation_fee, info_trip_total,
    info_points_balance, refuse_over_balance, refuse_late_refund)

TASKS = RuleTaskKit(
    "travel_booking", SAMPLERS,
    **LOGIN.kit_keywords(),
    owners={
        "create_trip": _CUSTOMER, "add_traveler_profile": _CUSTOMER,
        "add_traveler_to_trip": _TRIP_OWNER, "remove_traveler_from_trip": _TRIP_OWNER,
        "book_hotel": _TRIP_OWNER, "book_rental_car": _TRIP_OWNER, "book_activity": _TRIP_OWNER,
        "cancel_trip": _TRIP_OWNER, "change_hotel_dates": _BOOKING_OWNER,
        "change_activity_participants": _BOOKING_OWNER, "cancel_booking": _BOOKING_OWNER,
        "redeem_points": _BOOKING_OWNER,
    },
    ask_identity=ASK_IDENTITY,
    identity_phrases=("Sure, {text}.", "Of course: {text}.", "Yes, {text}."),
    greetings=("Hi!", "Hello,", "Hi there.", "Good morning."),
    policy_violations=policy_violations,
)
