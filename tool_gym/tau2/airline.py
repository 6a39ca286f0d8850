"""tau2's airline gold writes in a customer's words (see :mod:`tool_gym.tau2.words`).

:func:`write_words` reads the user's rows of the task's initial database and builds, for one
gold write (``book_reservation``, ``cancel_reservation``, ``update_reservation_flights``,
``update_reservation_passengers``, ``update_reservation_baggages``, ``send_certificate``),
the :class:`~tool_gym.tau2.words.WriteWords`: the intent a proposal must name, the user's
request and the reference agent's proposal.

Parameters of the intent and their forms (each form: a phrase, or a tuple of phrases that
must all appear; see :mod:`tool_gym.core.proposals`):

==================  ==========================================================================
reservation         its id, or its route ``"<origin> to <destination>"`` in airport codes or
                    city names, with the date of its first flight when another reservation of
                    the user joins the same two airports (with its first flight number and
                    date when that date is shared too); rivals: the user's other reservations
action              the action's words (``cancel``; ``change``/``upgrade``...; ``add``;
                    ``book``; ``certificate``)
cabin               ``economy``, ``basic economy`` or ``business class`` (canonical text
                    joins ``basic economy`` into one word, so ``economy`` never matches it;
                    ``business`` needs a neighbour: "business days" names no cabin); the
                    other cabins are its rivals, but for the cabin a flight change leaves
                    ("from basic economy to business class")
flight<i>           each flight number of the new itinerary
passenger<i>        ``"First Last"`` (or ``"Last, First"``), and ``dob<i>`` its date of birth;
                    a booking's rivals are the user's saved passengers it does not take
bags                the total, ``"2 checked bags"``, ``"bags: 2"`` (``"no bags"`` for none)
insurance, trip     ``with``/``without`` travel insurance; round trip or one way (rivals: the
                    other answer)
payment<i>          the method's id, a card's last four digits, ``"gift card"`` or
                    ``"certificate"`` when the user has one of that kind (else with the last
                    four digits of its id); rivals: the user's other methods;
                    ``amount<i>``: what a booking charges it
amount              the certificate's value
==================  ==========================================================================

The user's request names a reservation by id only when the task's instructions give it
(``known_ids``), else by its description ("my trip from Philadelphia to LaGuardia departing
on May 20"; by id after all in the one case where nothing else tells it apart); it names a
payment method as a customer does ("my Visa card ending in 7238", "my gift card"), never by
id. The reference proposal names every value (ids included) and ends "Shall I proceed?".
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

from ..core.proposals import Intent, Param
from ..core.taskkit import date_words, money_terms
from ..core.taskkit import join_words as _join
from ..domains.airline.phrasing import CARD_BRANDS as _CARD_BRANDS
from ..domains.airline.phrasing import date_words as _date_words
from ..domains.airline.tools import AIRPORTS
from .words import WriteWords

__all__ = ["WRITE_TOOLS", "write_words"]

#: The airline write tools :func:`write_words` knows.
WRITE_TOOLS = ("book_reservation", "cancel_reservation", "update_reservation_flights",
               "update_reservation_passengers", "update_reservation_baggages",
               "send_certificate")

_CITY = dict(AIRPORTS)
_CABINS = ("basic_economy", "economy", "business")
_CABIN_WORDS = {"basic_economy": "basic economy", "economy": "economy", "business": "business"}

#: Action words (a single word matches with any ending: ``chang`` -> ``changing``).
_ACTIONS = {
    "cancel": ("cancel", "call off", "void"),
    "change": ("chang", "modif", "updat", "switch", "move", "moving", "rebook", "upgrad",
               "downgrad", "replac"),
    "passengers": ("chang", "modif", "updat", "replac", "correct", "switch", "swap"),
    "bags": ("add", "updat", "chang", "increas", "modif"),
    "book": ("book", "purchas", "buy"),
    "certificate": ("certificate", "voucher"),
}
_INSURED = ("with travel insurance", "with insurance", "insurance: yes", "insurance included",
            "insurance: included", "including travel insurance", "including insurance",
            "include travel insurance", "include insurance", "plus travel insurance",
            "add travel insurance", "adding travel insurance")
_UNINSURED = ("without travel insurance", "without insurance", "without any insurance",
              "no travel insurance", "no insurance", "insurance: no", "insurance: none",
              "insurance: not included", "insurance not included", "insurance: declined",
              "insurance declined", "not insured", "uninsured", "decline travel insurance",
              "declined travel insurance", "not include insurance",
              "not include travel insurance", "not including insurance",
              "not including travel insurance")
#: Cabins by name. ``business`` needs a neighbour word: "5-7 business days" names no cabin.
_CABIN_FORMS = {
    "basic_economy": ("basic economy", "basic_economy"),
    "economy": ("economy",),
    "business": ("business class", "business-class", "business cabin", "business fare",
                 "business seat", "in business", "to business", "cabin: business",
                 "cabin business", "class: business", "(business)"),
}
# canonical text reads "one" as 1 except after a determiner ("a one-way trip")
_ONE_WAY = ("a one-way", "a one way", "the one-way", "1-way", "1 way", "one_way")
_ROUND_TRIP = ("round trip", "round-trip", "roundtrip", "round_trip")
_NO_BAGS = ("no checked bag", "no bag", "without checked bag", "without bag", "no luggage",
            "no baggage")


# --------------------------------------------------------------------------- the account

@dataclass(frozen=True)
class _Method:
    id: str
    source: str
    brand: str | None
    last_four: str | None
    amount: float | None


@dataclass(frozen=True)
class _Reservation:
    id: str
    origin: str
    destination: str
    cabin: str
    total_bags: int
    flights: tuple[tuple[str, str], ...]  # (flight_number, date) in order
    passengers: tuple[tuple[str, str, str], ...]  # (first, last, dob)
    first_stop: str  # where its first flight lands

    @property
    def first_date(self) -> str:
        return self.flights[0][1] if self.flights else ""

    @property
    def far_end(self) -> str:
        """Where the trip goes: its destination, or where its first flight lands when the
        record's destination is its origin (a few records say "DEN to DEN")."""
        return self.first_stop if self.destination == self.origin and self.first_stop \
            else self.destination

    def routes(self) -> list[tuple[str, str]]:
        """``(origin, destination)`` as a customer says it, then as the record says it."""
        return list(dict.fromkeys([(self.origin, self.far_end),
                                   (self.origin, self.destination)]))


class _Account:
    """One user's rows: name, payment methods, saved passengers, reservations."""

    def __init__(self, db: sqlite3.Connection, user_id: str):
        row = db.execute("SELECT first_name, last_name, dob FROM users WHERE user_id = ?",
                         (user_id,)).fetchone()
        if row is None:
            raise ValueError(f"no airline user {user_id!r}")
        self.user_id = user_id
        self.name = (row[0], row[1], row[2])
        self.methods = [_Method(*r) for r in db.execute(
            "SELECT id, source, brand, last_four, amount FROM payment_methods "
            "WHERE user_id = ? ORDER BY ord, id", (user_id,))]
        self.saved = [tuple(r) for r in db.execute(
            "SELECT first_name, last_name, dob FROM saved_passengers WHERE user_id = ? "
            "ORDER BY pos", (user_id,))]
        self.reservations: list[_Reservation] = []
        for rid, origin, destination, cabin, bags in db.execute(
                "SELECT reservation_id, origin, destination, cabin, total_baggages "
                "FROM reservations "
                "WHERE user_id = ? ORDER BY ord, reservation_id", (user_id,)).fetchall():
            segments = db.execute(
                "SELECT flight_number, date, destination FROM reservation_flights "
                "WHERE reservation_id = ? ORDER BY pos", (rid,)).fetchall()
            people = tuple(tuple(r) for r in db.execute(
                "SELECT first_name, last_name, dob FROM reservation_passengers "
                "WHERE reservation_id = ? ORDER BY pos", (rid,)))
            self.reservations.append(_Reservation(
                rid, origin, destination, cabin, bags, tuple((f, d) for f, d, _ in segments),
                people, segments[0][2] if segments else ""))

    def reservation(self, rid: str) -> _Reservation:
        for r in self.reservations:
            if r.id == rid:
                return r
        raise ValueError(f"reservation {rid!r} is not one of {self.user_id}'s")

    def method(self, payment_id: str) -> _Method:
        for m in self.methods:
            if m.id == payment_id:
                return m
        raise ValueError(f"payment method {payment_id!r} is not one of {self.user_id}'s")


# --------------------------------------------------------------------------- reservations

def _place_words(code: str) -> tuple[str, ...]:
    """An airport as a customer or an agent may write it: its code, its city."""
    return (code, _CITY[code]) if code in _CITY else (code,)


def _route_phrases(r: _Reservation) -> tuple[str, ...]:
    return tuple(dict.fromkeys(f"{a} to {b}" for o, d in r.routes()
                               for a in _place_words(o) for b in _place_words(d)))


def _same_airports(a: _Reservation, b: _Reservation) -> bool:
    """Whether some route phrase of one may name the other's airports (either way round)."""
    return bool({frozenset(x) for x in a.routes()} & {frozenset(x) for x in b.routes()})


def _description(acct: _Account, r: _Reservation) -> tuple[str, tuple] | None:
    """How the user tells ``r`` apart from their other reservations without its id: the
    words ("my trip from Philadelphia to LaGuardia departing on May 20") and the forms that
    name it: its route; its route and first date when another reservation joins the same
    airports; its first flight and date when that date is shared too; None when even that
    is."""
    others = [o for o in acct.reservations if o.id != r.id]
    trip = (f"my trip from {_CITY.get(r.origin, r.origin)} to "
            f"{_CITY.get(r.far_end, r.far_end)} departing on {_date_words(r.first_date)}")
    clash = [o for o in others if _same_airports(o, r)]
    if not clash:
        return trip, _route_phrases(r)
    if r.first_date and all(o.first_date != r.first_date for o in clash):
        return trip, tuple((p, r.first_date) for p in _route_phrases(r))
    if r.flights and all(o.flights[:1] != r.flights[:1] for o in others):
        number, day = r.flights[0]
        return (f"my reservation whose first flight is {number} on {_date_words(day)}",
                ((number, day),))
    return None


def _reservation_forms(acct: _Account, r: _Reservation) -> tuple:
    described = _description(acct, r)
    return (r.id, *(described[1] if described else ()))


def _reservation_param(acct: _Account, rid: str) -> Param:
    r = acct.reservation(rid)
    return Param("reservation", _reservation_forms(acct, r),
                 tuple(_reservation_forms(acct, o) for o in acct.reservations if o.id != rid))


def _reservation_words(acct: _Account, rid: str, known: Collection[str]) -> str:
    """The reservation in the user's words: its id when the task gave it to the user, else
    its description (and its id only when nothing else tells it apart)."""
    described = _description(acct, acct.reservation(rid))
    if rid in known or described is None:
        return f"my reservation {rid}"
    return described[0]


def _reservation_agent(r: _Reservation) -> str:
    return f"reservation {r.id} ({r.origin} to {r.far_end})"


# --------------------------------------------------------------------------- payment methods

def _kind_word(m: _Method) -> str:
    return {"gift_card": "gift card", "certificate": "travel certificate"}.get(m.source,
                                                                                "credit card")


def _only_of_kind(acct: _Account, m: _Method) -> bool:
    return sum(1 for x in acct.methods if x.source == m.source) == 1


def _method_forms(acct: _Account, m: _Method) -> tuple:
    if m.source == "credit_card":
        return (m.id, str(m.last_four)) if m.last_four else (m.id,)
    word = "gift card" if m.source == "gift_card" else "certificate"
    if _only_of_kind(acct, m):
        return (m.id, word)
    return (m.id, (word, m.id[-4:]))


def _method_param(acct: _Account, name: str, payment_id: str,
                  chosen: Collection[str]) -> Param:
    """The payment method ``payment_id``; rivals: the user's methods not in ``chosen``."""
    m = acct.method(payment_id)
    return Param(name, _method_forms(acct, m),
                 tuple(_method_forms(acct, x) for x in acct.methods if x.id not in chosen))


def _method_words(acct: _Account, m: _Method) -> str:
    """The method as the user says it: "my Visa card ending in 7238", "my gift card"."""
    if m.source == "credit_card":
        brand = _CARD_BRANDS.get(str(m.brand).lower(), str(m.brand or "credit").title())
        card = brand if brand.lower().endswith("card") else f"{brand} card"
        return f"my {card} ending in {m.last_four}"
    word = _kind_word(m)
    if _only_of_kind(acct, m):
        return f"my {word}"
    return f"my {word} ending in {m.id[-4:]}"


def _method_agent(acct: _Account, m: _Method) -> str:
    if m.source == "credit_card":
        return f"the credit card ending in {m.last_four} ({m.id})"
    return f"the {_kind_word(m)} {m.id}"


# --------------------------------------------------------------------------- other params

def _action_param(kind: str) -> Param:
    return Param("action", _ACTIONS[kind])


def _cabin_param(cabin: str, current: str | None = None) -> Param:
    """The cabin; rivals: the other cabins but the reservation's ``current`` one, which a
    proposal may name as what is changed ("from basic economy to business class")."""
    if cabin not in _CABINS:
        raise ValueError(f"unknown cabin {cabin!r}")
    forms = _CABIN_FORMS[cabin] + (("same cabin", "current cabin") if cabin == current else ())
    return Param("cabin", forms,
                 tuple(_CABIN_FORMS[c] for c in _CABINS if c not in (cabin, current)))


def _flight_params(flights: Sequence[dict]) -> list[Param]:
    return [Param(f"flight{i}", (f["flight_number"],)) for i, f in enumerate(flights)]


def _name_forms(first: str, last: str) -> tuple[str, ...]:
    return (f"{first} {last}", f"{last}, {first}")


def _passenger_params(passengers: Sequence[dict],
                      rivals: Sequence[tuple[str, str]] = ()) -> list[Param]:
    params = []
    for i, p in enumerate(passengers):
        params.append(Param(f"passenger{i}", _name_forms(p["first_name"], p["last_name"]),
                            tuple(_name_forms(f, l) for f, l in rivals)))
        params.append(Param(f"dob{i}", (p["dob"],)))
    return params


def _bags_param(total: int) -> Param:
    """The total number of checked bags, as a phrase ("2 checked bags", "bags: 2"): a bare
    number elsewhere ("2 of them not free") is not the total."""
    n = str(total)
    forms = (f"{n} checked bag", f"{n} bag", f"{n} total bag", f"{n} total checked bag",
             f"{n} checked-in bag", f"{n} checked baggage", f"{n} piece",
             f"bags: {n}", f"bag: {n}", f"baggage: {n}", f"baggages: {n}", f"bags to {n}",
             f"bags of {n}")
    return Param("bags", forms + (_NO_BAGS if total == 0 else ()))


def _insurance_param(insurance: str) -> Param:
    yes, no = (_INSURED, _UNINSURED) if insurance == "yes" else (_UNINSURED, _INSURED)
    return Param("insurance", yes, (no,))


def _trip_param(flight_type: str) -> Param:
    mine, other = (_ROUND_TRIP, _ONE_WAY) if flight_type == "round_trip" else \
        (_ONE_WAY, _ROUND_TRIP)
    return Param("trip", mine, (other,))


def _amount_param(name: str, amount: float) -> Param:
    return Param(name, money_terms(amount))


# --------------------------------------------------------------------------- words

def _money(amount: float) -> str:
    return f"${money_terms(amount)[-1]}"


def _flight_list(flights: Sequence[dict], dates: Callable[[str], str]) -> str:
    """``"flights HAT005 on May 20 and HAT178 on May 30"`` (``"flight ..."`` for one)."""
    word = "flight" if len(flights) == 1 else "flights"
    return f"{word} " + _join([f"{f['flight_number']} on {dates(f['date'])}" for f in flights])


def _people(passengers: Sequence[dict], dates: Callable[[str], str]) -> str:
    return _join([f"{p['first_name']} {p['last_name']} (born {dates(p['dob'])})"
                  for p in passengers])


def _iso(day: str) -> str:
    return day


_ASK = "Shall I proceed?"


# --------------------------------------------------------------------------- the writes

def _cancel(acct: _Account, a: dict, known: Collection[str]) -> WriteWords:
    r = acct.reservation(a["reservation_id"])
    intent = Intent((_reservation_param(acct, r.id), _action_param("cancel")))
    request = f"I'd like to cancel {_reservation_words(acct, r.id, known)}."
    proposal = (f"I will cancel {_reservation_agent(r)}, whose first flight is on "
                f"{r.first_date}. Any refund goes back to the original payment methods. {_ASK}")
    return WriteWords(intent, request, proposal)


def _update_flights(acct: _Account, a: dict, known: Collection[str]) -> WriteWords:
    r = acct.reservation(a["reservation_id"])
    cabin, flights = a["cabin"], a["flights"]
    same_flights = [(f["flight_number"], f["date"]) for f in flights] == list(r.flights)
    m = acct.method(a["payment_id"])
    intent = Intent((_reservation_param(acct, r.id), _action_param("change"),
                     _cabin_param(cabin, r.cabin), *_flight_params(flights),
                     _method_param(acct, "payment", m.id, (m.id,))))
    res, pay = _reservation_words(acct, r.id, known), _method_words(acct, m)
    cabin_words = _CABIN_WORDS[cabin]
    user_flights = _flight_list(flights, _date_words)
    if same_flights:
        move = "upgrade" if _CABINS.index(cabin) > _CABINS.index(r.cabin) else "change"
        request = (f"I'd like to {move} {res} to {cabin_words} class, keeping my "
                   f"{user_flights}. Please use {pay} for any difference in price.")
    else:
        request = (f"I'd like to change {res} to {user_flights}, in {cabin_words} "
                   f"class. Please use {pay} for any difference in price.")
    proposal = (f"I will change {_reservation_agent(r)} to {cabin_words} class on "
                f"{_flight_list(flights, _iso)}. Any fare difference will be charged to, or "
                f"refunded to, {_method_agent(acct, m)}. {_ASK}")
    return WriteWords(intent, request, proposal)


def _update_passengers(acct: _Account, a: dict, known: Collection[str]) -> WriteWords:
    r = acct.reservation(a["reservation_id"])
    people = a["passengers"]
    intent = Intent((_reservation_param(acct, r.id), _action_param("passengers"),
                     *_passenger_params(people)))
    request = (f"I need to update the passengers on {_reservation_words(acct, r.id, known)}: "
               f"they should be {_people(people, date_words)}.")
    proposal = (f"I will update the passengers of {_reservation_agent(r)} to "
                f"{_people(people, _iso)}. {_ASK}")
    return WriteWords(intent, request, proposal)


def _bag_words(total: int) -> str:
    return "no checked bags" if total == 0 else \
        f"{total} checked bag{'s' if total != 1 else ''}"


def _update_bags(acct: _Account, a: dict, known: Collection[str]) -> WriteWords:
    r = acct.reservation(a["reservation_id"])
    total, nonfree = int(a["total_baggages"]), int(a["nonfree_baggages"])
    m = acct.method(a["payment_id"])
    intent = Intent((_reservation_param(acct, r.id), _action_param("bags"), _bags_param(total),
                     _method_param(acct, "payment", m.id, (m.id,))))
    res = _reservation_words(acct, r.id, known)
    want = (f"I'd like to add checked bags to {res}, so that I have {_bag_words(total)} in "
            f"total." if total > r.total_bags else
            f"I'd like to have {_bag_words(total)} in total on {res}.")
    request = f"{want} If there's a fee, please charge {_method_words(acct, m)}."
    proposal = (f"I will update {_reservation_agent(r)} to {_bag_words(total)} in total "
                f"({nonfree} of them not free), charging any bag fee to "
                f"{_method_agent(acct, m)}. {_ASK}")
    return WriteWords(intent, request, proposal)


def _traveller_words(acct: _Account, p: dict) -> str:
    """A passenger of a booking in the user's words: "myself (Mia Li, born April 5, 1990)"."""
    person = f"{p['first_name']} {p['last_name']}"
    born = date_words(p["dob"])
    if (p["first_name"], p["last_name"], p["dob"]) == acct.name:
        return f"myself ({person}, born {born})"
    return f"{person} (born {born})"


def _book(acct: _Account, a: dict, known: Collection[str]) -> WriteWords:
    people, flights, pays = a["passengers"], a["flights"], a["payment_methods"]
    booked = {(p["first_name"], p["last_name"]) for p in people}
    rivals = [(f, l) for f, l, _ in acct.saved if (f, l) not in booked]
    chosen = {p["payment_id"] for p in pays}
    methods = [acct.method(p["payment_id"]) for p in pays]
    params = [_action_param("book"), _trip_param(a["flight_type"]), _cabin_param(a["cabin"]),
              *_flight_params(flights), *_passenger_params(people, rivals),
              _bags_param(int(a["total_baggages"])), _insurance_param(a["insurance"])]
    for i, (p, m) in enumerate(zip(pays, methods)):
        params += [_method_param(acct, f"payment{i}", m.id, chosen),
                   _amount_param(f"amount{i}", p["amount"])]
    intent = Intent(tuple(params))
    round_trip = a["flight_type"] == "round_trip"
    trip = "a round trip" if round_trip else "a one-way trip"
    cabin = _CABIN_WORDS[a["cabin"]]
    o, d = a["origin"], a["destination"]
    ins = "with" if a["insurance"] == "yes" else "without"
    total_bags = int(a["total_baggages"])
    who = _join([_traveller_words(acct, p) for p in people])
    bags = "No checked bags" if total_bags == 0 else f"I'll check {_bag_words(total_bags)}"
    insurance = "I'd like it with travel insurance" if a["insurance"] == "yes" else \
        "No travel insurance, please"
    paying = _join([f"{_money(p['amount'])} on {_method_words(acct, m)}"
                    for p, m in zip(pays, methods)])
    request = (f"I'd like to book {trip} from {_CITY.get(o, o)} to {_CITY.get(d, d)} in "
               f"{cabin}, on {_flight_list(flights, _date_words)}. The passengers are "
               f"{who}. {bags}. {insurance}. Please put {paying}.")
    agent_paying = _join([f"{_money(p['amount'])} with {_method_agent(acct, m)}"
                          for p, m in zip(pays, methods)])
    proposal = (f"Here is the booking: {trip} from {o} to {d} in {cabin}, on "
                f"{_flight_list(flights, _iso)}, for {_people(people, _iso)}; "
                f"{_bag_words(total_bags)}, {ins} travel insurance. "
                f"Payment: {agent_paying}. {_ASK}")
    return WriteWords(intent, request, proposal)


def _certificate(acct: _Account, a: dict, known: Collection[str]) -> WriteWords:
    amount = a["amount"]
    intent = Intent((_action_param("certificate"), _amount_param("amount", amount)))
    request = (f"I'd like to be compensated with a {_money(amount)} travel certificate for "
               f"the trouble.")
    proposal = (f"As a gesture of goodwill, I can issue a travel certificate of {_money(amount)} "
                f"to your account. {_ASK}")
    return WriteWords(intent, request, proposal)


_BUILDERS: dict[str, Callable[[_Account, dict, Collection[str]], WriteWords]] = {
    "book_reservation": _book,
    "cancel_reservation": _cancel,
    "update_reservation_flights": _update_flights,
    "update_reservation_passengers": _update_passengers,
    "update_reservation_baggages": _update_bags,
    "send_certificate": _certificate,
}


def write_words(db: sqlite3.Connection, user_id: str, name: str, arguments: dict,
                known_ids: Collection[str] = ()) -> WriteWords:
    """The intent, the user's request and the reference proposal of the airline write
    ``name(**arguments)`` of user ``user_id``, read from the initial database ``db``;
    ``known_ids``: the ids the task's instructions give the user (see the module
    docstring). Raises ValueError for another tool, or an argument naming no row of the
    user."""
    builder = _BUILDERS.get(name)
    if builder is None:
        raise ValueError(f"{name!r} is not an airline write tool (known: {', '.join(WRITE_TOOLS)})")
    return builder(_Account(db, user_id), arguments, frozenset(known_ids))


# ----------------------------------------------------------------------------- refusals
def records_named(db: sqlite3.Connection, user_id: str, text: str) -> tuple:
    """``(read, reservation id)`` of the user's reservations that a task's instructions
    name, by id or else by route ("your flight from IAH to SEA": every reservation of the
    user that starts or ends at all the airport codes given): a refusal must have read
    them."""
    found = []
    for token in dict.fromkeys(re.findall(r"\b[A-Z0-9]{6}\b", text)):
        row = db.execute("SELECT reservation_id FROM reservations WHERE reservation_id = ? "
                         "AND user_id = ?", (token, user_id)).fetchone()
        if row:
            found.append(("get_reservation_details", row[0]))
    if found:
        return tuple(found)
    codes = [c for c in dict.fromkeys(re.findall(r"\b[A-Z]{3}\b", text))
             if db.execute("SELECT 1 FROM flights WHERE origin = ? LIMIT 1", (c,)).fetchone()]
    if not codes:
        return ()
    return tuple(("get_reservation_details", rid) for rid, origin, destination in
                 db.execute("SELECT reservation_id, origin, destination FROM reservations "
                            "WHERE user_id = ? ORDER BY rowid", (user_id,))
                 if all(c in (origin, destination) for c in codes))


def record_words(db: sqlite3.Connection, user_id: str, reservation_id: str) -> tuple:
    """How a refusal may name a reservation besides its id: its route (airport codes)."""
    row = db.execute("SELECT origin, destination FROM reservations WHERE reservation_id = ?",
                     (reservation_id,)).fetchone()
    return ((row[0], row[1]),) if row else ()


def facts_named(db: sqlite3.Connection, text: str) -> tuple:
    """Flight numbers the instructions name: a refusal about that flight may name it."""
    return tuple(f for f in dict.fromkeys(re.findall(r"\bHAT\d{3}\b", text))
                 if db.execute("SELECT 1 FROM flights WHERE flight_number = ?",
                               (f,)).fetchone())
