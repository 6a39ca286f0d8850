"""The airline's reference solution: the reads, proposal, write and answer of each need."""

from __future__ import annotations

import copy
from typing import Callable

from ...core.actions import ToolCall
from ...core.taskkit import answer_steps, join_words, write_steps
from ...core.task_model import Constraint, PlanStep, Task
from .phrasing import CABIN_WORDS
from .tools import BAG_PRICE

ASK_IDENTITY = ("I'd be happy to help. First, could you please give me your user id so that "
                "I can verify your identity?")
DONE = "Done. Is there anything else I can help you with?"

#: Write constraint type -> (tool, its parameters taken from ``Constraint.args``).
WRITE_CALLS: dict[str, tuple[str, tuple[str, ...]]] = {
    "book_reservation": ("book_reservation", (
        "user_id", "origin", "destination", "flight_type", "cabin", "flights", "passengers",
        "payment_methods", "total_baggages", "nonfree_baggages", "insurance")),
    "cancel_reservation": ("cancel_reservation", ("reservation_id",)),
    "change_flights": ("update_reservation_flights",
                       ("reservation_id", "cabin", "flights", "payment_id")),
    "change_cabin": ("update_reservation_flights",
                     ("reservation_id", "cabin", "flights", "payment_id")),
    "add_bags": ("update_reservation_baggages",
                 ("reservation_id", "total_baggages", "nonfree_baggages", "payment_id")),
    "change_passengers": ("update_reservation_passengers", ("reservation_id", "passengers")),
    "compensation_certificate": ("send_certificate", ("user_id", "amount")),
}


def _route_of(a: dict, f: dict) -> tuple[str, str]:
    if f is a["flights"][0]:
        return a["origin"], a["destination"]
    return a["destination"], a["origin"]


def _search(origin: str, destination: str, date: str) -> ToolCall:
    return ToolCall("search_direct_flight",
                    {"origin": origin, "destination": destination, "date": date})


def _status(a: dict) -> list[ToolCall]:
    return [ToolCall("get_flight_status",
                     {"flight_number": a["flight_number"], "date": a["date"]})]


#: Constraint type -> its reads after the reservation's (flight searches, statuses).
_READS: dict[str, Callable[[dict], list[ToolCall]]] = {
    "book_reservation": lambda a: [_search(*_route_of(a, f), f["date"]) for f in a["flights"]],
    "change_flights": lambda a: [_search(a["new_flight"]["origin"],
                                         a["new_flight"]["destination"],
                                         a["new_flight"]["date"])],
    "compensation_certificate": _status,
    "info_flight_status": _status,
    "info_cheapest_option": lambda a: [_search(a["origin"], a["destination"], a["date"])],
}


def _agent_method(c: Constraint, role: str = "payment_method") -> str:
    desc = c.refs[role]
    return f"{desc.text.replace('my ', 'your ', 1)} ({desc.value})"


def _difference(diff: int) -> str:
    if diff > 0:
        return f"You will pay the difference of ${diff}"
    if diff < 0:
        return f"You will be refunded ${-diff}"
    return "There is no price difference"


def _people(passengers: list[dict]) -> str:
    return join_words([f"{p['first_name']} {p['last_name']} (born {p['dob']})"
                       for p in passengers])


def _bag_fee(cost: int) -> str:
    if cost:
        return f"The {cost // BAG_PRICE} extra bag(s) beyond your free allowance cost ${cost}"
    return "The added bags are within your free allowance, so there is no fee"


def _book(c: Constraint) -> str:
    a = c.args
    trip = "round trip" if a["flight_type"] == "round_trip" else "one-way trip"
    legs = []
    for f, dep in zip(a["flights"], a["departures"]):
        o, d = _route_of(a, f)
        legs.append(f"flight {f['flight_number']} from {o} to {d} on {f['date']} "
                    f"(departing {dep[:5]})")
    bags = a["total_baggages"]
    bag_text = f"{bags} checked bag{'s' if bags != 1 else ''}"
    if a["nonfree_baggages"]:
        bag_text += f" ({a['nonfree_baggages']} of them not free, at ${BAG_PRICE} each)"
    ins = "with travel insurance" if a["insurance"] == "yes" else "without insurance"
    roles = ("payment_method", "second_payment_method")
    pays = join_words([f"${p['amount']} on {_agent_method(c, role)}"
                       for p, role in zip(a["payment_methods"], roles)])
    return (f"Here is the booking: a {trip} in {CABIN_WORDS[a['cabin']]}, "
            f"{join_words(legs)}, for {_people(a['passengers'])}; {bag_text}, {ins}. "
            f"The total is ${a['total']}, paid as {pays}. Shall I proceed?")


#: Constraint type (with ``detail`` for information about a reservation) -> the agent's
#: proposal or answer, formatted with the constraint's args and :func:`_fields`.
_TEMPLATES: dict[str, str] = {
    "cancel_reservation":
        "Reservation {reservation_id} can be cancelled; every payment will be refunded to "
        "the original payment method within 5 to 7 business days. Shall I proceed with the "
        "cancellation?",
    "change_flights":
        "I will change reservation {reservation_id} to flight {new_flight[flight_number]} "
        "from {new_flight[origin]} to {new_flight[destination]} on {new_flight[date]} "
        "(departing {new_flight[departure]:.5}), keeping the other flights. {pay} using "
        "{method}. Shall I proceed?",
    "change_cabin":
        "I will change the cabin of reservation {reservation_id} to {cabin_words} for all "
        "flights and passengers. {pay} using {method}. Shall I proceed?",
    "add_bags":
        "I will update reservation {reservation_id} to {total_baggages} checked bags "
        "({nonfree_baggages} not free). {fee}, charged to {method} if needed. "
        "Shall I proceed?",
    "change_passengers":
        "I will update the passengers of reservation {reservation_id} to: {people}. "
        "Shall I proceed?",
    "compensation_certificate":
        "I'm sorry about the cancelled flight {flight_number} on {date}. I can offer you a "
        "travel certificate of ${amount} ($100 for each of the {passengers} passenger(s)). "
        "Shall I proceed?",
    "info_flight_status": "Flight {flight_number} on {date} is {answer}.",
    "info_reservation_details/total_paid":
        "You have paid ${answer} in total for reservation {reservation_id}.",
    "info_reservation_details/cabin": "Reservation {reservation_id} is in {answer} class.",
    "info_cheapest_option":
        "The cheapest direct {cabin_words} flight from {origin} to {destination} on {date} "
        "is {flight_number}, at ${answer} per passenger.",
    "refuse_ineligible_cancellation":
        "I'm sorry, but reservation {reservation_id} is not eligible for cancellation: it "
        "was booked more than 24 hours ago, it is not in business class, none of its "
        "flights was cancelled by the airline, and it has no travel insurance.",
    "refuse_basic_economy_change":
        "I'm sorry, but reservation {reservation_id} is in basic economy, and the flights "
        "of a basic economy reservation cannot be changed.",
}


def _fields(c: Constraint) -> dict:
    """The constraint's args and the words the templates derive from them."""
    a = c.args
    out = {**a, "answer": c.answer}
    if "difference" in a:
        out["pay"] = _difference(a["difference"])
    if "cost" in a:
        out["fee"] = _bag_fee(a["cost"])
    if "payment_method" in c.refs:
        out["method"] = _agent_method(c)
    if "cabin" in a:
        out["cabin_words"] = CABIN_WORDS[a["cabin"]]
    if isinstance(a.get("passengers"), list):
        out["people"] = _people(a["passengers"])
    return out


def _message(c: Constraint) -> str:
    """The agent's proposal (write needs) or answer (information, refusals)."""
    if c.type == "book_reservation":
        return _book(c)
    key = c.type if "detail" not in c.args else f"{c.type}/{c.args['detail']}"
    if key not in _TEMPLATES:
        raise ValueError(f"unknown airline constraint type {c.type!r}")
    return _TEMPLATES[key].format(**_fields(c))


def steps(c: Constraint) -> tuple[PlanStep, ...]:
    """The reference steps of one need: its reads, then a proposal, the write and a
    closing message, or the answer."""
    a, t = c.args, c.type
    reads = []
    if "reservation_id" in a and t != "book_reservation":
        reads.append(ToolCall("get_reservation_details", {"reservation_id": a["reservation_id"]}))
    reads += _READS[t](a) if t in _READS else []
    if t in WRITE_CALLS:
        tool, params = WRITE_CALLS[t]
        call = ToolCall(tool, {p: copy.deepcopy(a[p]) for p in params})
        return write_steps(reads, _message(c), call, DONE)
    return answer_steps(reads, _message(c))


def plan(task: Task) -> list[PlanStep]:
    """The reference solution: ask for the user id, look the user up, then each need."""
    out = [PlanStep(say=ASK_IDENTITY),
           PlanStep(call=ToolCall("get_user_details", {"user_id": task.user_id}))]
    for c in task.constraints:
        out += steps(c)
    return out
