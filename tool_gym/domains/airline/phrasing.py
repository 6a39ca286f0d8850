"""The airline user's words: places, dates, passengers and the request of each need type."""

from __future__ import annotations

from typing import Callable

import numpy as np

from ...core.taskkit import date_words as core_date_words
from ...core.taskkit import join_words, pick
from ...core.task_model import Constraint, Task
from .rules import CABINS
from .tools import AIRPORTS

CITY = dict(AIRPORTS)
CABIN_WORDS = {"basic_economy": "basic economy", "economy": "economy", "business": "business"}
CARD_BRANDS = {"visa": "Visa", "mastercard": "Mastercard", "amex": "American Express",
               "american express": "American Express", "discover": "Discover"}
#: Cancellation reasons: key -> the user's words.
REASONS = {
    "change_of_plan": "my plans have changed",
    "airline_cancelled": "the airline cancelled my flight",
    "health": "I'm sick and can't travel",
    "weather": "there's a big storm forecast and I don't want to fly in that weather",
    "other": "I just don't need the trip anymore",
}


def date_words(date: str) -> str:
    """``"2024-05-20"`` -> ``"May 20"`` (the year is the clock's); not a date: as given."""
    try:
        words = core_date_words(date)
    except (TypeError, ValueError):
        return date
    return words.removesuffix(", 2024")


def place(code: str, rng: np.random.Generator) -> str:
    """An airport in the user's words: its city, sometimes with the code."""
    city = CITY.get(code)
    if city is None:
        return code
    if code in ("JFK", "LGA", "EWR") or rng.random() < 0.4:
        return f"{city} ({code})"
    return city


def passenger_phrase(entry: dict) -> str:
    """Words for one passenger of a booking."""
    if entry.get("self"):
        return "myself"
    if entry.get("saved"):
        return f"{entry['first_name']} {entry['last_name']} (saved in my profile)"
    return (f"{entry['relation']} {entry['first_name']} {entry['last_name']}, date of birth "
            f"{entry['dob']}")


def _ref(c: Constraint, role: str) -> str:
    return c.refs[role].text if role in c.refs else ""


def _book(c: Constraint, rng) -> str:
    a, r = c.args, c.refs
    trip = "a round trip" if a["flight_type"] == "round_trip" else "a one-way trip"
    flights = r["outbound_flight"].text
    if "return_flight" in r:
        flights += f", and back on {r['return_flight'].text}"
    people = join_words([passenger_phrase(e) for e in a["passenger_spec"]])
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
    head = pick(rng, ("I'd like to book {trip} in {cabin}: {flights}.",
                      "I want to book {trip}, {cabin} class: {flights}.",
                      "Can you book {trip} for me in {cabin}? I'd like {flights}."))
    head = head.format(trip=trip, cabin=CABIN_WORDS[a["cabin"]], flights=flights)
    return f"{head} The passengers are {people}. {bag_words} {ins} {money}"


def _cancel(c: Constraint, rng) -> str:
    reason = REASONS[c.args["reason"]]
    return pick(rng, (
        "I'd like to cancel {res}, because {reason}.",
        "Please cancel {res}. The reason is that {reason}.",
        "Could you cancel {res} for me? {Reason}.",
    )).format(res=_ref(c, "reservation"), reason=reason,
              Reason=reason[0].upper() + reason[1:])


def _flight_change(c: Constraint, rng) -> str:
    a = c.args
    paying = c.type == "change_flights"
    flights = a["flights"] if paying else a["forbidden"]["arguments"]["flights"]
    which = {"outbound": "outbound flight", "return": "return flight"}[a["leg"]]
    if len(flights) == 1:
        which = "flight"
    ask = pick(rng, (
        "For {res}, I'd like to change the {which} to {flight}.",
        "I need to move the {which} of {res}. Could you put me on {flight} instead?",
        "Can you change {res}? I want {flight} instead of my current {which}.",
    )).format(res=_ref(c, "reservation"), which=which, flight=c.refs["new_flight"].text)
    if paying:
        ask += " " + pick(rng, ("Please use {pm} for any price difference.",
                                "Any fare difference should go to {pm}.",
                                "Use {pm} for the difference, please.")
                          ).format(pm=_ref(c, "payment_method"))
    return ask


def _change_cabin(c: Constraint, rng) -> str:
    a = c.args
    move = "upgrade" if CABINS.index(a["cabin"]) > CABINS.index(a["old_cabin"]) else "change"
    return pick(rng, (
        "I'd like to {move} {res} to {cabin} class, for all the flights and everyone "
        "on it. Please use {pm} for the price difference.",
        "Could you {move} the cabin of {res} to {cabin}? Settle the difference with {pm}.",
        "Please {move} {res} to {cabin}, with {pm} for any difference in price.",
    )).format(move=move, res=_ref(c, "reservation"), cabin=CABIN_WORDS[a["cabin"]],
              pm=_ref(c, "payment_method"))


def _add_bags(c: Constraint, rng) -> str:
    n = c.args["added"]
    bags = "one more checked bag" if n == 1 else f"{n} more checked bags"
    return pick(rng, (
        "I need to add {bags} to {res}, so {total} in total. If there's a fee, "
        "charge {pm}.",
        "Could you add {bags} to {res}? That makes {total} checked bags. Use {pm} for "
        "any bag fees.",
        "Please add {bags} to {res} ({total} bags in total), paid with {pm} if "
        "needed.",
    )).format(bags=bags, res=_ref(c, "reservation"), total=c.args["total_baggages"],
              pm=_ref(c, "payment_method"))


def _change_passengers(c: Constraint, rng) -> str:
    res, old, new = _ref(c, "reservation"), c.refs["passenger"].text, c.args["new_passenger"]
    if c.args["kind"] == "replace":
        return pick(rng, (
            "On {res}, please replace the passenger {old} with {f} {l}, date of birth "
            "{d}.",
            "{old} can't make it on {res}. Please put {f} {l} (born {d}) on the "
            "reservation instead.",
        )).format(res=res, old=old, f=new["first_name"], l=new["last_name"], d=new["dob"])
    return pick(rng, (
        "The date of birth of {old} on {res} is wrong; it should be {d}.",
        "Please correct the date of birth of passenger {old} on {res} to {d}.",
    )).format(res=res, old=old, d=new["dob"])


def _compensation(c: Constraint, rng) -> str:
    a = c.args
    return pick(rng, (
        "My flight from {a} to {b} on {d} was cancelled by the airline, on {res}. "
        "That really messed up my plans, and I'd like some compensation for it.",
        "I'm upset: the airline cancelled my flight from {a} to {b} on {d} ({res}). "
        "Can I get compensated for that?",
    )).format(a=CITY.get(a["origin"], a["origin"]),
              b=CITY.get(a["destination"], a["destination"]),
              d=date_words(a["date"]), res=_ref(c, "reservation"))


def _flight_status(c: Constraint, rng) -> str:
    return pick(rng, (
        "What's the status of {f}?",
        "Could you check the status of {f} for me?",
        "I'd like to know the current status of {f}.",
    )).format(f=c.refs["flight"].text)


def _reservation_details(c: Constraint, rng) -> str:
    if c.args["detail"] == "total_paid":
        return pick(rng, (
            "How much have I paid in total for {res}?",
            "Could you tell me the total amount I paid for {res}?",
        )).format(res=_ref(c, "reservation"))
    return pick(rng, (
        "Which cabin class is {res} in?",
        "Could you tell me the cabin class of {res}?",
    )).format(res=_ref(c, "reservation"))


def _cheapest(c: Constraint, rng) -> str:
    a = c.args
    src, dst = a["words"]
    return pick(rng, (
        "How much is the cheapest direct flight from {a} to {b} on {d} in {c}?",
        "What's the lowest {c} fare for a direct flight from {a} to {b} on {d}?",
        "I'm planning a trip: what does the cheapest direct {c} flight from {a} to {b} "
        "on {d} cost?",
    )).format(a=src, b=dst, d=date_words(a["date"]), c=CABIN_WORDS[a["cabin"]])


#: Constraint type -> the user's words for it ``(constraint, rng) -> str``.
REQUESTS: dict[str, Callable[[Constraint, np.random.Generator], str]] = {
    "book_reservation": _book,
    "cancel_reservation": _cancel,
    "change_flights": _flight_change,
    "change_cabin": _change_cabin,
    "add_bags": _add_bags,
    "change_passengers": _change_passengers,
    "compensation_certificate": _compensation,
    "info_flight_status": _flight_status,
    "info_reservation_details": _reservation_details,
    "info_cheapest_option": _cheapest,
    "refuse_ineligible_cancellation": _cancel,
    "refuse_basic_economy_change": _flight_change,
}


def request(task: Task, constraint: Constraint, rng: np.random.Generator) -> str:
    """The user's message stating the need, in fuzzy terms."""
    words = REQUESTS.get(constraint.type)
    if words is None:
        raise ValueError(f"unknown airline constraint type {constraint.type!r}")
    return words(constraint, rng)
