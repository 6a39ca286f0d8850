"""Hidden-intent tasks of the airline domain (spec ``airline.md`` §3 and §5): the samplers
of its twelve constraint types, assembled into a :class:`~tool_gym.core.taskkit.ViewTaskKit`.

Each sampler draws a need that is feasible on the database as given and that does not
interfere with the needs drawn before it (the bookkeeping lives on the user's
:class:`~.records.UserRecords`). See ``docs/airline-tasks.md`` for the types, their
feasibility rules and how the user describes every id.
"""

from __future__ import annotations

from typing import Callable, Iterator

from ...core.taskkit import SampleContext, ViewTaskKit, pick, prove, shuffled
from ...core.task_model import Constraint, Description, Refusal
from . import descriptions as describe
from .checks import OUTCOME_CHECKS, OWNERS
from .intents import with_intent
from .phrasing import CABIN_WORDS, place, request
from .plans import ASK_IDENTITY, plan
from .policy_checks import policy_violations
from .records import Method, Reservation, UserRecords, fingerprint
from .rules import CABINS, WITHIN_24H, free_bags, nonfree_after
from .tools import BAG_PRICE, INSURANCE_PRICE, NEW_CERTIFICATE_IDS, NOW
from .user_draws import DRAWS, has_distractors, may_lead

__all__ = ["TASKS", "CONSTRAINT_TYPES"]

#: Words that name why the request is refused (any one addresses it; see ``Refusal.about``).
_INELIGIBLE_CANCEL_WORDS = (
    "24 hours", "24-hour", "24 hour", "24h", "a day", "one day", "insurance", "insured",
    "uninsured", "business", "business class", "cancelled by the airline",
    "canceled by the airline", "airline cancelled", "airline canceled", "refund policy",
    "cancellation policy", "booked more than", "booked over", "non-refundable",
    "nonrefundable")
_BASIC_ECONOMY_WORDS = ("basic economy", "basic_economy", "basic-economy", "basic")

_RES_TRIES = 8            # candidate reservations tried per constraint
_FLIGHT_TRIES = 8         # random flight dates drawn per booking / price question

# Our own names for new passengers.
_NEW_FIRST = ("Aiko", "Bram", "Celine", "Dario", "Esme", "Farid", "Gwen", "Hugo", "Ines",
              "Jasper", "Kira", "Luca", "Mila", "Nico", "Oona", "Pia", "Rafael", "Sena", "Teo",
              "Uma", "Viggo", "Wren", "Yara", "Zeno")
_NEW_LAST = ("Albright", "Baptiste", "Carrow", "Drummond", "Ellery", "Fairweather", "Granger",
             "Holloway", "Iverson", "Jansen", "Kestrel", "Lowell", "Marchetti", "Norwood",
             "Oakes", "Pemberton", "Quill", "Renwick", "Stroud", "Thorne")
_RELATIONS = ("my friend", "my colleague", "my cousin", "my partner", "my niece", "my brother")

_FLIGHT_DATE_RANGE = ("SELECT (SELECT min(rowid) FROM flight_dates), "
                      "(SELECT max(rowid) FROM flight_dates)")
_FLIGHT_DATE_AT = (
    "SELECT d.flight_number, d.date, d.status, f.origin, f.destination FROM flight_dates d "
    "JOIN flights f ON f.flight_number = d.flight_number WHERE d.rowid = ?")
_ROUTE_COLUMNS = (
    "SELECT f.flight_number, f.sched_dep, d.date, d.seats_basic_economy, d.seats_economy, "
    "d.seats_business, d.price_basic_economy, d.price_economy, d.price_business ")
_ROUTE_DAY = (
    _ROUTE_COLUMNS + "FROM flights f JOIN flight_dates d ON d.flight_number = f.flight_number "
    "AND d.date = ? WHERE f.origin = ? AND f.destination = ? AND d.status = 'available' "
    "ORDER BY f.ord")
_ROUTE_ALL = (
    _ROUTE_COLUMNS + "FROM flights f JOIN flight_dates d ON d.flight_number = f.flight_number "
    "WHERE f.origin = ? AND f.destination = ? AND d.status = 'available' "
    "ORDER BY d.date, f.ord")


# --------------------------------------------------------------------------- helpers

def _unused(ctx: SampleContext, pred: Callable[[Reservation], bool]) -> list[Reservation]:
    """Up to :data:`_RES_TRIES` of the user's reservations no need uses yet, shuffled."""
    user = ctx.view
    found = [r for r in user.reservations
             if r.reservation_id not in user.used_reservations and pred(r)]
    return shuffled(ctx.rng, found)[:_RES_TRIES]


def _unflown(r: Reservation) -> bool:
    """Active, with passengers, and nothing flown yet."""
    return r.status is None and bool(r.segs) and not r.flown and r.n > 0


def _reservation_need(kind: str, tool: str, r: Reservation, args: dict, refs: dict,
                      terms) -> Constraint:
    """A need written by ``tool`` on reservation ``r`` (``args`` after its id)."""
    rid = r.reservation_id
    return Constraint(kind, {"reservation_id": rid, **args}, refs, ((tool, rid),), tuple(terms))


def _random_flight_date(ctx: SampleContext, lo: int, hi: int) -> tuple | None:
    """``(date, origin, destination)`` of a random bookable flight date, or ``None``."""
    row = ctx.db.execute(_FLIGHT_DATE_AT, (int(ctx.rng.integers(lo, hi + 1)),)).fetchone()
    if row is None or row[2] != "available":
        return None
    return row[1], row[3], row[4]


def _birth_date(rng) -> str:
    return (f"{int(rng.integers(1950, 2013))}-{int(rng.integers(1, 13)):02d}-"
            f"{int(rng.integers(1, 29)):02d}")


def _new_name(rng, taken) -> tuple[str, str]:
    while True:
        name = pick(rng, _NEW_FIRST), pick(rng, _NEW_LAST)
        if name not in taken:
            return name


def _pick_flight(ctx: SampleContext, origin, destination, date, k, n, options=None):
    """A describable flight of the route on ``date`` with ``n`` seats in cabin ``k``:
    ``(description, row, key)`` or None."""
    user = ctx.view
    key = (origin, destination, date)
    if key in user.flight_keys:
        return None
    if options is None:
        options = ctx.db.execute(_ROUTE_DAY, (date, origin, destination)).fetchall()
    fits = [r for r in options if r[3 + k] is not None
            and user.seats_left(r[0], r[2], k, r[3 + k]) >= n]
    everyone = [(r[0], r[1]) for r in options]
    for r in shuffled(ctx.rng, fits)[:3]:
        desc = describe.flight(ctx, origin, destination, date, r[0], everyone)
        if desc is not None:
            return desc, tuple(r), key
    return None


def _update_method(ctx: SampleContext, need: int) -> tuple[Method, Description] | None:
    """A credit card or free gift card (covering ``need`` when positive), described."""
    user = ctx.view
    for m in shuffled(ctx.rng, [m for m in user.methods
                                if m.source in ("credit_card", "gift_card")]):
        if m.source == "gift_card":
            if m.id in user.used_gift_cards:
                continue
            if need > 0 and (m.amount is None or m.amount < need):
                continue
        desc = describe.method(ctx, user, m)
        if desc is not None:
            return m, desc
    return None


def _paid_change(ctx: SampleContext, r: Reservation, amount: int):
    """``(method, its description, r's description)`` of a change of ``r`` that costs
    ``amount``, or ``None``."""
    chosen = _update_method(ctx, amount)
    if chosen is None:
        return None
    desc = describe.reservation(ctx, ctx.view, r)
    return None if desc is None else (*chosen, desc)


def _paid_terms(r: Reservation, what: tuple, amount: int, m: Method,
                m_desc: Description) -> list[tuple]:
    """Confirm groups of a paid change: the reservation, what changes, the amount (when
    any) and the method."""
    terms = [(r.reservation_id,), what]
    if amount:
        terms.append((str(abs(amount)),))
    return [*terms, describe.method_terms(m.id, m_desc)]


def _method_used(user: UserRecords, m: Method, charged: bool = True) -> None:
    if m.source == "gift_card" and charged:
        user.used_gift_cards.add(m.id)


# --------------------------------------------------------------------------- booking

def _passengers(user: UserRecords, rng) -> tuple[list[dict], list[tuple[str, str, str]]]:
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
        f, l = _new_name(rng, names)
        names.add((f, l))
        d = _birth_date(rng)
        spec.append({"first_name": f, "last_name": l, "dob": d,
                     "relation": pick(rng, _RELATIONS)})
        people.append((f, l, d))
    return spec, people


def _bags(user: UserRecords, cabin: str, n: int, rng) -> tuple[int, int]:
    free = free_bags(user.membership, cabin, n)
    r = rng.random()
    if r < 0.25:
        total = 0
    elif r < 0.75 or free == 0:
        total = int(rng.integers(0, free + 1)) if free else int(rng.integers(0, 3))
    else:
        total = free + int(rng.integers(1, 3))
    return total, max(0, total - free)


def _payment_plans(user: UserRecords, total: int) -> list[list[tuple[Method, int | None]]]:
    """Ways to pay ``total``: one method, or a gift card or certificate for part and a
    card or gift card for the rest (at most one certificate, one card, three gift cards)."""
    cards = [m for m in user.methods if m.source == "credit_card"]
    gifts = [m for m in user.methods if m.source == "gift_card"
             and m.id not in user.used_gift_cards and m.amount is not None
             and int(m.amount) >= 1]
    certs = [m for m in user.methods if m.source == "certificate"
             and m.amount is not None and int(m.amount) >= 1 and not user.compensated]
    plans: list[list[tuple[Method, int | None]]] = [[(c, None)] for c in cards]
    plans += [[(g, None)] for g in gifts if int(g.amount) >= total]
    for part in certs + gifts:
        x = min(int(part.amount), total)
        if x >= total:
            if part.source == "certificate":
                plans.append([(part, None)])
            continue
        rest = total - x
        for other in cards + [g for g in gifts if g is not part and int(g.amount) >= rest]:
            plans.append([(part, x), (other, None)])
    return plans


def _booking_payment(ctx: SampleContext, total: int):
    """``(payment_methods, [(method, description)])`` of a booking of ``total``."""
    user = ctx.view
    for plan_ in shuffled(ctx.rng, _payment_plans(user, total))[:6]:
        descs = [describe.method(ctx, user, m) for m, _ in plan_]
        if any(d is None for d in descs):
            continue
        payments, paid = [], 0
        for m, x in plan_:
            amount = x if x is not None else total - paid
            payments.append({"payment_id": m.id, "amount": amount})
            paid += amount
        return payments, [(m, d) for (m, _), d in zip(plan_, descs)]
    return None


def _trip(ctx: SampleContext, n: int, round_trip: bool, lo: int, hi: int):
    """One try at the flights of a booking: ``(cabin index, legs)`` or ``None``."""
    drawn = _random_flight_date(ctx, lo, hi)
    if drawn is None:
        return None
    date, origin, destination = drawn
    if origin == destination:
        return None
    k = CABINS.index(pick(ctx.rng, CABINS))
    out = _pick_flight(ctx, origin, destination, date, k, n)
    if out is None:
        return None
    if not round_trip:
        return k, [out]
    back_options = [r for r in ctx.db.execute(_ROUTE_ALL, (destination, origin))
                    if r[2] > date]
    for d2 in shuffled(ctx.rng, sorted({r[2] for r in back_options}))[:3]:
        back = _pick_flight(ctx, destination, origin, d2, k, n,
                            [r for r in back_options if r[2] == d2])
        if back is not None:
            return k, [out, back]
    return None


def _book_bookkeeping(user: UserRecords, legs: list, k: int, n: int, method_refs) -> None:
    user.booked = True
    user.keys.append(legs[0][2])
    for leg in legs:
        user.flight_keys.add(leg[2])
        user.take_seats(leg[1][0], leg[1][2], k, n)
    for m, _ in method_refs:
        _method_used(user, m)
        if m.source == "certificate":
            user.certificate_described = True


def _book_refs(legs: list, pax_desc, method_refs) -> dict[str, Description]:
    refs: dict[str, Description] = {"outbound_flight": legs[0][0]}
    if len(legs) > 1:
        refs["return_flight"] = legs[1][0]
    if pax_desc is not None:
        refs["passengers"] = pax_desc
    for role, (_, d) in zip(("payment_method", "second_payment_method"), method_refs):
        refs[role] = d
    return refs


def _book_reservation(ctx: SampleContext) -> Constraint | None:
    user, rng = ctx.view, ctx.rng
    if user.booked:
        return None
    spec, people = _passengers(user, rng)
    pax_desc = describe.passengers(ctx, user, spec, people)
    if pax_desc is False:
        return None
    n = len(people)
    lo, hi = ctx.db.execute(_FLIGHT_DATE_RANGE).fetchone()
    if lo is None:
        return None
    round_trip = bool(rng.random() < 0.4)
    for _ in range(_FLIGHT_TRIES):
        trip = _trip(ctx, n, round_trip, lo, hi)
        if trip is None or trip[1][0][2] in user.keys:
            continue
        k, legs = trip
        cabin = CABINS[k]
        total_bags, nonfree = _bags(user, cabin, n, rng)
        insurance = "yes" if rng.random() < 0.5 else "no"
        total = (sum(leg[1][6 + k] for leg in legs) * n
                 + (INSURANCE_PRICE * n if insurance == "yes" else 0) + BAG_PRICE * nonfree)
        paying = _booking_payment(ctx, total)
        if paying is None:
            return None
        payments, method_refs = paying
        _book_bookkeeping(user, legs, k, n, method_refs)
        origin, destination, _ = legs[0][2]
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
        terms += [describe.method_terms(m.id, d) for m, d in method_refs]
        return Constraint("book_reservation", args, _book_refs(legs, pax_desc, method_refs),
                          (("book_reservation", user.user_id),), tuple(terms))
    return None


# --------------------------------------------------------------------------- cancellation

def _cancel_reservation(ctx: SampleContext) -> Constraint | None:
    def ok(r: Reservation) -> bool:
        return r.status is None and bool(r.segs) and not r.flown and (
            r.created_at > WITHIN_24H or r.airline_cancelled or r.cabin == "business"
            or r.insurance == "yes")

    for r in _unused(ctx, ok):
        desc = describe.reservation(ctx, ctx.view, r)
        if desc is None:
            continue
        if r.airline_cancelled:
            reasons = ["airline_cancelled"]
        elif r.created_at > WITHIN_24H or r.cabin == "business":
            reasons = ["change_of_plan", "other", "health", "weather"]
        else:  # insured only: the reason must be covered
            reasons = ["health", "weather"]
        reason = pick(ctx.rng, reasons)
        ctx.view.used_reservations.add(r.reservation_id)
        return _reservation_need("cancel_reservation", "cancel_reservation", r,
                                 {"reason": reason}, {"reservation": desc},
                                 ((r.reservation_id,),))
    return None


def _refuse_ineligible_cancellation(ctx: SampleContext) -> Constraint | None:
    def ok(r: Reservation) -> bool:
        return (r.status is None and bool(r.segs) and not r.flown
                and r.created_at < WITHIN_24H and not r.airline_cancelled
                and r.cabin != "business" and r.insurance == "no")

    for r in _unused(ctx, ok):
        desc = describe.reservation(ctx, ctx.view, r)
        if desc is None:
            continue
        reason = pick(ctx.rng, ("change_of_plan", "other"))
        rid = r.reservation_id
        ctx.view.used_reservations.add(rid)
        return Constraint(
            "refuse_ineligible_cancellation",
            {"reservation_id": rid, "reason": reason,
             "fingerprint": fingerprint(ctx.db, rid),
             "forbidden": {"tool": "cancel_reservation",
                           "arguments": {"reservation_id": rid}}},
            {"reservation": desc}, answer="not eligible",
            refusal=Refusal((("get_reservation_details", rid),),
                            about=(rid, *_INELIGIBLE_CANCEL_WORDS)))
    return None


# --------------------------------------------------------------------------- flight changes

def _flight_change(ctx: SampleContext, r: Reservation):
    """A direct leg of ``r`` and another flight of the same route (seats for everyone,
    dates in trip order): ``(leg name, segment index, description, row, key)``."""
    k = CABINS.index(r.cabin)
    legs = [(name, idx) for name, idx in r.legs() if len(idx) == 1]
    for name, idx in shuffled(ctx.rng, legs):
        i = idx[0]
        seg = r.segs[i]
        lo = r.segs[i - 1].date if i > 0 else ""
        hi = r.segs[i + 1].date if i + 1 < len(r.segs) else "9999"
        rows = [row for row in ctx.db.execute(_ROUTE_ALL, (seg.origin, seg.destination))
                if lo < row[2] < hi]
        for d in shuffled(ctx.rng, sorted({row[2] for row in rows}))[:4]:
            if i == 0 and d != seg.date and (r.origin, r.destination, d) in ctx.view.keys:
                continue
            options = [row for row in rows if row[2] == d]
            choice = [row for row in options
                      if not (row[0] == seg.flight_number and d == seg.date)]
            if not choice:
                continue
            got = _pick_flight(ctx, seg.origin, seg.destination, d, k, r.n, choice)
            if got is None:
                continue
            # the description is unique among every flight of the day, the current one too
            desc = describe.flight(ctx, seg.origin, seg.destination, d, got[1][0],
                                   [(o[0], o[1]) for o in options])
            if desc is not None:
                return name, i, desc, got[1], got[2]
    return None


def _changes(ctx: SampleContext, basic_economy: bool) -> Iterator[tuple[Reservation, tuple]]:
    """Upcoming reservations, in basic economy or not, each with a flight change (see
    :func:`_flight_change`)."""
    def ok(r: Reservation) -> bool:
        return (r.status is None and (r.cabin == "basic_economy") == basic_economy
                and r.upcoming and r.n > 0)

    for r in _unused(ctx, ok):
        change = _flight_change(ctx, r)
        if change is not None:
            yield r, change


def _change_flights(ctx: SampleContext) -> Constraint | None:
    user = ctx.view
    for r, (leg, i, flight_desc, row, key) in _changes(ctx, basic_economy=False):
        k = CABINS.index(r.cabin)
        diff = (row[6 + k] - r.segs[i].price) * r.n
        paid = _paid_change(ctx, r, diff)
        if paid is None:
            continue
        m, m_desc, desc = paid
        flights = [{"flight_number": s.flight_number, "date": s.date} for s in r.segs]
        expected = [[s.flight_number, s.date, s.price] for s in r.segs]
        flights[i] = {"flight_number": row[0], "date": row[2]}
        expected[i] = [row[0], row[2], row[6 + k]]
        user.used_reservations.add(r.reservation_id)
        user.flight_keys.add(key)
        user.take_seats(row[0], row[2], k, r.n)
        if i == 0:
            user.keys.append((r.origin, r.destination, row[2]))
        _method_used(user, m)
        return _reservation_need(
            "change_flights", "update_reservation_flights", r,
            {"cabin": r.cabin, "flights": flights, "payment_id": m.id, "expected": expected,
             "difference": diff, "payments_before": len(r.payments), "leg": leg,
             "new_flight": {"flight_number": row[0], "date": row[2],
                            "origin": r.segs[i].origin,
                            "destination": r.segs[i].destination,
                            "departure": row[1]}},
            {"reservation": desc, "new_flight": flight_desc, "payment_method": m_desc},
            ((r.reservation_id,), (row[0],), describe.method_terms(m.id, m_desc)))
    return None


def _refuse_basic_economy_change(ctx: SampleContext) -> Constraint | None:
    user = ctx.view
    for r, (leg, i, flight_desc, row, key) in _changes(ctx, basic_economy=True):
        diff = (row[6] - r.segs[i].price) * r.n
        payer = next((m for m in user.methods if m.source == "credit_card"
                      or (m.source == "gift_card" and m.amount is not None
                          and m.amount >= diff)), None)
        if payer is None:
            continue
        desc = describe.reservation(ctx, user, r)
        if desc is None:
            continue
        flights = [{"flight_number": s.flight_number, "date": s.date} for s in r.segs]
        flights[i] = {"flight_number": row[0], "date": row[2]}
        rid = r.reservation_id
        user.used_reservations.add(rid)
        user.flight_keys.add(key)
        return Constraint(
            "refuse_basic_economy_change",
            {"reservation_id": rid, "leg": leg, "fingerprint": fingerprint(ctx.db, rid),
             "forbidden": {"tool": "update_reservation_flights", "arguments": {
                 "reservation_id": rid, "cabin": "basic_economy", "flights": flights,
                 "payment_id": payer.id}}},
            {"reservation": desc, "new_flight": flight_desc}, answer="basic economy",
            refusal=Refusal((("get_reservation_details", rid),),
                            about=(rid, *_BASIC_ECONOMY_WORDS)))
    return None


def _cabin_terms(cabin: str) -> tuple[str, ...]:
    if cabin == "basic_economy":
        return ("basic economy", "basic_economy")
    return (cabin,)


def _change_cabin(ctx: SampleContext) -> Constraint | None:
    def ok(r: Reservation) -> bool:
        return r.status is None and r.upcoming and r.n > 0

    user = ctx.view
    for r in _unused(ctx, ok):
        cabins = [c for c in CABINS if c != r.cabin and all(
            s.seats[CABINS.index(c)] is not None and user.seats_left(
                s.flight_number, s.date, CABINS.index(c), s.seats[CABINS.index(c)]) >= r.n
            for s in r.segs)]
        if not cabins:
            continue
        cabin = pick(ctx.rng, cabins)
        k = CABINS.index(cabin)
        diff = (sum(s.prices[k] for s in r.segs) - sum(s.price for s in r.segs)) * r.n
        paid = _paid_change(ctx, r, diff)
        if paid is None:
            continue
        m, m_desc, desc = paid
        user.used_reservations.add(r.reservation_id)
        _method_used(user, m)
        for seg in r.segs:  # the seats must still be there when the change is made
            user.take_seats(seg.flight_number, seg.date, k, r.n)
        terms = _paid_terms(r, _cabin_terms(cabin), diff, m, m_desc)
        return _reservation_need(
            "change_cabin", "update_reservation_flights", r,
            {"cabin": cabin,
             "flights": [{"flight_number": s.flight_number, "date": s.date} for s in r.segs],
             "payment_id": m.id,
             "expected": [[s.flight_number, s.date, s.prices[k]] for s in r.segs],
             "difference": diff, "payments_before": len(r.payments),
             "old_cabin": r.cabin},
            {"reservation": desc, "payment_method": m_desc}, terms)
    return None


# --------------------------------------------------------------------------- bags, passengers

def _add_bags(ctx: SampleContext) -> Constraint | None:
    user = ctx.view
    for r in _unused(ctx, _unflown):
        added = 1 + int(ctx.rng.integers(3))
        total = r.total_bags + added
        nonfree = nonfree_after(r.total_bags, r.nonfree, total,
                                free_bags(user.membership, r.cabin, r.n))
        cost = BAG_PRICE * (nonfree - r.nonfree)
        paid = _paid_change(ctx, r, cost)
        if paid is None:
            continue
        m, m_desc, desc = paid
        user.used_reservations.add(r.reservation_id)
        _method_used(user, m, charged=cost > 0)
        terms = _paid_terms(r, (str(total),), cost, m, m_desc)
        return _reservation_need(
            "add_bags", "update_reservation_baggages", r,
            {"total_baggages": total,
             "nonfree_baggages": nonfree, "payment_id": m.id, "added": added,
             "cost": cost, "payments_before": len(r.payments)},
            {"reservation": desc, "payment_method": m_desc}, terms)
    return None


def _change_passengers(ctx: SampleContext) -> Constraint | None:
    rng = ctx.rng
    for r in _unused(ctx, _unflown):
        names = [(f, l) for f, l, _ in r.passengers]
        unique = [i for i, name in enumerate(names) if names.count(name) == 1]
        if not unique:
            continue
        i = pick(rng, unique)
        first, last, dob = r.passengers[i]
        proof = prove(ctx.db, "SELECT dob FROM reservation_passengers WHERE "
                              "reservation_id = ? AND first_name = ? AND last_name = ?",
                      (r.reservation_id, first, last), (dob,))
        if proof is None:
            continue
        desc = describe.reservation(ctx, ctx.view, r)
        if desc is None:
            continue
        new_dob = _birth_date(rng)
        if new_dob == dob:
            continue
        if rng.random() < 0.5:
            kind, new = "replace", (*_new_name(rng, names), new_dob)
            terms = ((r.reservation_id,), (new[0],), (new_dob,))
        else:
            kind, new = "dob", (first, last, new_dob)
            terms = ((r.reservation_id,), (new_dob,))
        people = list(r.passengers)
        people[i] = new
        ctx.view.used_reservations.add(r.reservation_id)
        pax = Description("passenger", f"{first} {last}",
                          {"first_name": first, "last_name": last}, i, proof)
        return _reservation_need(
            "change_passengers", "update_reservation_passengers", r,
            {"passengers": [{"first_name": f, "last_name": l, "dob": d} for f, l, d in people],
             "kind": kind, "index": i,
             "new_passenger": {"first_name": new[0], "last_name": new[1], "dob": new[2]}},
            {"reservation": desc, "passenger": pax}, terms)
    return None


# --------------------------------------------------------------------------- compensation

def _compensation_certificate(ctx: SampleContext) -> Constraint | None:
    user = ctx.view
    if user.compensated or user.certificate_described:
        return None
    if len(NEW_CERTIFICATE_IDS) <= sum(1 for m in user.methods if m.id in NEW_CERTIFICATE_IDS):
        return None

    def ok(r: Reservation) -> bool:
        return (r.status is None and r.airline_cancelled and r.n > 0
                and (user.membership in ("silver", "gold") or r.insurance == "yes"
                     or r.cabin == "business"))

    for r in _unused(ctx, ok):
        desc = describe.reservation(ctx, user, r)
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


# --------------------------------------------------------------------------- information

def _info_flight_status(ctx: SampleContext) -> Constraint | None:
    user, rng = ctx.view, ctx.rng
    candidates: dict[tuple, tuple[str, str]] = {}
    for r in user.reservations:
        for s in r.segs:
            if s.status not in (None, "available"):
                candidates.setdefault((s.origin, s.destination, s.date),
                                      (s.flight_number, r.reservation_id))
    keys = [k for k in candidates if k not in user.flight_keys]
    today = [k for k in keys if k[2] == NOW[:10]]
    order = shuffled(rng, today) + shuffled(rng, [k for k in keys if k[2] != NOW[:10]])
    if today and rng.random() < 0.3:
        order = shuffled(rng, keys)
    for key in order[:_RES_TRIES]:
        fn, rid = candidates[key]
        status = ctx.db.execute("SELECT status FROM flight_dates WHERE flight_number = ? AND "
                                "date = ?", (fn, key[2])).fetchone()
        if status is None:
            continue
        desc = describe.user_flight(ctx, user, key, fn)
        if desc is None:
            continue
        user.flight_keys.add(key)
        return Constraint("info_flight_status",
                          {"flight_number": fn, "date": key[2], "reservation_id": rid},
                          {"flight": desc}, answer=status[0])
    return None


def _info_reservation_details(ctx: SampleContext) -> Constraint | None:
    for r in _unused(ctx, lambda r: bool(r.segs)):
        kinds = ["cabin"]
        if r.status is None and r.payments:
            kinds.append("total_paid")
        kind = pick(ctx.rng, kinds)
        desc = describe.reservation(ctx, ctx.view, r)
        if desc is None:
            continue
        evidence = ()
        if kind == "total_paid":
            answer = str(sum(int(a) for _, a in r.payments))
            evidence = (("get_reservation_details", r.reservation_id),)
        else:
            answer = CABIN_WORDS[r.cabin]
        ctx.view.used_reservations.add(r.reservation_id)
        return Constraint("info_reservation_details",
                          {"reservation_id": r.reservation_id, "detail": kind},
                          {"reservation": desc}, answer=answer, evidence=evidence)
    return None


def _info_cheapest_option(ctx: SampleContext) -> Constraint | None:
    lo, hi = ctx.db.execute(_FLIGHT_DATE_RANGE).fetchone()
    if lo is None:
        return None
    for _ in range(_FLIGHT_TRIES):
        drawn = _random_flight_date(ctx, lo, hi)
        if drawn is None:
            continue
        date, origin, destination = drawn
        key = (origin, destination, date)
        if key in ctx.view.flight_keys:
            continue
        options = ctx.db.execute(_ROUTE_DAY, (date, origin, destination)).fetchall()
        cabin = pick(ctx.rng, CABINS)
        k = CABINS.index(cabin)
        prices = sorted((r[6 + k], r[0], r[3 + k]) for r in options)
        if not prices or (len(prices) > 1 and prices[0][0] == prices[1][0]):
            continue
        price, fn, seats = prices[0]
        if seats is None or seats < 1:
            continue
        ctx.view.flight_keys.add(key)
        return Constraint(
            "info_cheapest_option",
            {"origin": origin, "destination": destination, "date": date, "cabin": cabin,
             "flight_number": fn, "price": price,
             "words": [place(origin, ctx.rng), place(destination, ctx.rng)]},
            {}, answer=str(price))
    return None


# --------------------------------------------------------------------------- the kit

#: Constraint type -> its sampler (each named for its type).
_SAMPLERS = {sampler.__name__.removeprefix("_"): sampler for sampler in (
    _book_reservation, _cancel_reservation, _change_flights, _change_cabin, _add_bags,
    _change_passengers, _compensation_certificate, _info_flight_status,
    _info_reservation_details, _info_cheapest_option, _refuse_ineligible_cancellation,
    _refuse_basic_economy_change)}
CONSTRAINT_TYPES = tuple(_SAMPLERS)

#: The instance the domain registers.
TASKS = ViewTaskKit(
    "airline", _SAMPLERS,
    view=UserRecords, may_lead=may_lead, preferred=has_distractors, draws=DRAWS,
    with_intent=with_intent, identify=describe.identity, auth_tools=("get_user_details",),
    owners=OWNERS,
    ask_identity=ASK_IDENTITY,
    identity_phrases=("My user id is {user_id}.", "Sure, it's {user_id}.", "It's {user_id}.",
                      "My user ID is {user_id}."),
    greetings=("Hi!", "Hello,", "Hi there.", "Hello!", "Good afternoon."),
    policy_violations=policy_violations,
    checks=OUTCOME_CHECKS,
    request_words=request, plan_steps=plan)
