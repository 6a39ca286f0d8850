"""The words of retail tasks: the user's requests and identity answers, and the reference
plan's messages (proposals, answers); each constraint type by an explicit table."""

from __future__ import annotations

from typing import Callable

from ...core.actions import ToolCall
from ...core.taskkit import copy_argument, join_words, money, pick
from ...core.task_model import Constraint, PlanStep, Task
from .records import ADDRESS_KEYS

#: Write constraint type -> (tool, its parameters taken from ``Constraint.args``).
WRITE_CALLS: dict[str, tuple[str, tuple[str, ...]]] = {
    "cancel_order": ("cancel_pending_order", ("order_id", "reason")),
    "change_order_address": ("modify_pending_order_address", ("order_id",) + ADDRESS_KEYS),
    "modify_items": ("modify_pending_order_items",
                     ("order_id", "item_ids", "new_item_ids", "payment_method_id")),
    "change_order_payment": ("modify_pending_order_payment", ("order_id", "payment_method_id")),
    "change_user_address": ("modify_user_address", ("user_id",) + ADDRESS_KEYS),
    "return_items": ("return_delivered_order_items",
                     ("order_id", "item_ids", "payment_method_id")),
    "exchange_items": ("exchange_delivered_order_items",
                       ("order_id", "item_ids", "new_item_ids", "payment_method_id")),
}
GREETINGS = ("Hi!", "Hello,", "Hi there.", "Hello!", "Good afternoon.")
REASON_PHRASE = {"no longer needed": "it's no longer needed",
                 "ordered by mistake": "it was ordered by mistake"}
_ASK_IDENTITY = ("I'd be happy to help. First, could you please provide the email address "
                 "on your account, or your first name, last name and zip code, so that I can "
                 "find your account?")
_DONE = "Done. Is there anything else I may help you with?"


def address_text(a: dict) -> str:
    parts = [a["address1"]] + ([a["address2"]] if a["address2"] else [])
    return f"{', '.join(parts)}, {a['city']}, {a['state']} {a['zip']}, {a['country']}"


def options_text(options: dict) -> str:
    return ", ".join(f"{k}: {v}" for k, v in options.items())


def line_phrase(entry: dict) -> str:
    """Words for one entry of an ``items`` description."""
    options = entry["options"]
    base = f"the {entry['product']}" + (f" ({options_text(options)})" if options else "")
    q = entry["quantity"]
    if q > 1:
        return f"{q} units of {base}"
    return f"one unit of {base}" if entry.get("units", 1) > 1 else base


def variant_phrase(entry: dict) -> str:
    """Words for one entry of a ``new_items`` description."""
    return f"a {entry['product']} with {options_text(entry['options'])}"


def _address_of(a: dict) -> str:
    return address_text({k: a[k] for k in ADDRESS_KEYS})


# --------------------------------------------------------------------------- the user's words

def identify(task: Task, rng) -> str:
    """The user's answer to an identity question (email, or name and zip code)."""
    f = task.identity.fields
    if "email" in f:
        return pick(rng, ("My email is {e}.", "Sure, it's {e}.",
                          "You can find my account under {e}.",
                          "It's {e}.")).format(e=f["email"])
    return pick(rng, (
        "I'm {first} {last}, and my zip code is {zip}.",
        "My name is {first} {last}; zip code {zip}.",
        "{first} {last}, zip {zip}.",
        "Sure: {first} {last}, and the zip code is {zip}.",
    )).format(first=f["first_name"], last=f["last_name"], zip=f["zip"])


def _words(c: Constraint) -> dict:
    """The terms a request's template may use (the fuzzy descriptions of its records)."""
    a, r = c.args, c.refs
    words = {"order": r["order"].text if "order" in r else "",
             "pm": r["payment_method"].text if "payment_method" in r else ""}
    if c.type in ("cancel_order", "cancel_processed_order"):
        words["reason"] = REASON_PHRASE[a["reason"]]
    elif c.type in ("change_order_address", "change_user_address"):
        words["address"] = r["address"].text if "address" in r else _address_of(a)
    elif c.type in ("modify_items", "exchange_items"):
        old = [line_phrase(e) for e in r["items"].fields["items"]]
        new = [variant_phrase(e) for e in r["new_items"].fields["items"]]
        word = "to" if c.type == "modify_items" else "for"
        words["changes"] = join_words([f"{o} {word} {n}" for o, n in zip(old, new)])
    elif c.type == "return_items":
        words["items"] = r["items"].text
    elif c.type == "info_available_options":
        words["p"] = r["product"].fields["product"]
    return words


_CANCEL = (
    "I want to cancel {order}, because {reason}.",
    "Please cancel {order}. The reason is that {reason}.",
    "Could you cancel {order} for me? Honestly, {reason}.",
)
#: Constraint type -> the templates of its request (one is drawn).
_REQUESTS: dict[str, tuple[str, ...]] = {
    "cancel_order": _CANCEL,
    "cancel_processed_order": _CANCEL,
    "change_order_address": (
        "I need to change the shipping address of {order} to {address}.",
        "Could you ship {order} to {address} instead?",
        "Please send {order} to {address}; the address on it is wrong.",
    ),
    "change_user_address": (
        "I've moved. Please update my default address to {address}.",
        "Could you change the default address on my account to {address}?",
        "I'd like my account's address changed to {address}.",
    ),
    "change_order_payment": (
        "I'd like to pay for {order} with {pm} instead.",
        "Please switch the payment method of {order} to {pm}.",
        "Can you change {order} so that it is paid with {pm}?",
    ),
    "modify_items": (
        "For {order}, which hasn't shipped yet, I'd like to change {changes}. "
        "Please use {pm} for any price difference.",
        "I want to modify the items of {order}: change {changes}. That's all the "
        "items I want to change. Any price difference goes to {pm}.",
        "Can you update {order}? I want to change {changes}, with {pm} for the "
        "price difference.",
    ),
    "exchange_items": (
        "I'd like to exchange items from {order}: please exchange {changes}. "
        "Use {pm} for any price difference.",
        "For {order}, which was delivered, I want to exchange {changes}. That's "
        "everything I want to exchange. Please settle the difference with {pm}.",
        "Can I exchange {changes} from {order}? Any price difference should go "
        "through {pm}.",
    ),
    "return_items": (
        "I want to return {items} from {order}, with the refund to {pm}.",
        "Please start a return of {items} from {order}. Refund it to {pm}, please.",
        "I'd like to send back {items} from {order} and get the refund on {pm}.",
    ),
    "info_tracking": (
        "What's the tracking number of {order}?",
        "Could you give me the tracking number for {order}?",
        "I'd like to know the tracking number of {order}.",
    ),
    "info_order_total": (
        "How much did {order} cost in total?",
        "What was the total price of {order}?",
        "Could you tell me the total of {order}?",
    ),
    "info_available_options": (
        "How many options of the {p} are available right now?",
        "I'm curious: how many variants of the {p} are currently available?",
        "Could you tell me how many available options the {p} has?",
    ),
    "info_gift_card_balance": (
        "What's the balance on {pm}?",
        "How much money is left on {pm}?",
        "Could you check the balance of {pm}?",
    ),
}


def request(task: Task, constraint: Constraint, rng) -> str:
    """The user's words for a need, in fuzzy terms."""
    templates = _REQUESTS.get(constraint.type)
    if templates is None:
        raise ValueError(f"unknown retail constraint type {constraint.type!r}")
    return pick(rng, templates).format(**_words(constraint))


# --------------------------------------------------------------------------- the plan

def plan(task: Task) -> list[PlanStep]:
    """The reference solution: authenticate, then for each need the reads that find its
    records, and a proposal, the write and a closing message, or the answer."""
    steps = [PlanStep(say=_ASK_IDENTITY)]
    f = task.identity.fields
    if "email" in f:
        steps.append(PlanStep(call=ToolCall("find_user_id_by_email", {"email": f["email"]})))
    else:
        steps.append(PlanStep(call=ToolCall("find_user_id_by_name_zip", {
            "first_name": f["first_name"], "last_name": f["last_name"], "zip": f["zip"]})))
    user_read = False
    for c in task.constraints:
        for step in _reads(task, c):
            is_user = step.call.name == "get_user_details"
            if not (is_user and user_read):  # the user's details once per plan
                steps.append(step)
            user_read = user_read or is_user
        if c.type in WRITE_CALLS:
            tool, params = WRITE_CALLS[c.type]
            steps.append(PlanStep(say=_PROPOSALS[c.type](c), expects_confirmation=True))
            steps.append(PlanStep(call=ToolCall(tool, {p: copy_argument(c.args[p])
                                                       for p in params})))
            steps.append(PlanStep(say=_DONE))
        else:
            steps.append(PlanStep(say=_ANSWERS[c.type](c)))
    return steps


def _reads(task: Task, c: Constraint) -> list[PlanStep]:
    """The reads that find one need's records."""
    a, r = c.args, c.refs
    calls: list[ToolCall] = []
    user = ToolCall("get_user_details", {"user_id": task.user_id})
    if "order" in r:
        if "order_id" not in r["order"].fields:
            calls.append(user)  # find the order among the user's orders
        calls.append(ToolCall("get_order_details", {"order_id": a["order_id"]}))
    if "payment_method" in r or "address" in r:
        calls.append(user)
    for pid in a.get("new_product_ids", ()):
        calls.append(ToolCall("get_product_details", {"product_id": pid}))
    if c.type == "info_available_options":
        calls.append(ToolCall("list_all_product_types", {}))
        calls.append(ToolCall("get_product_details", {"product_id": a["product_id"]}))
    return [PlanStep(call=call) for call in calls]


def _agent_method(c: Constraint) -> str:
    desc = c.refs["payment_method"]
    words = desc.text.replace("my ", "your ", 1)
    return f"{words} ({c.args['payment_method_id']})"


def _propose_cancel(c: Constraint) -> str:
    a = c.args
    return (f"I can cancel order {a['order_id']} with the reason '{a['reason']}'. "
            "The payment will be refunded to the original payment method. Shall I proceed?")


def _propose_order_address(c: Constraint) -> str:
    return (f"I will change the shipping address of order {c.args['order_id']} to "
            f"{_address_of(c.args)}. Shall I proceed?")


def _propose_user_address(c: Constraint) -> str:
    return f"I will update your default address to {_address_of(c.args)}. Shall I proceed?"


def _propose_payment(c: Constraint) -> str:
    a = c.args
    return (f"I will switch the payment of order {a['order_id']} (${money(a['amount'])}) "
            f"to {_agent_method(c)}; the original payment will be refunded. Shall I proceed?")


def _propose_change(c: Constraint) -> str:
    a = c.args
    pairs = join_words([f"item {o} to item {n}"
                        for o, n in zip(a["item_ids"], a["new_item_ids"])])
    diff = a["price_difference"]
    paid = (f"you will pay ${money(diff)}" if diff > 0
            else f"you will receive ${money(-diff)}")
    verb = "modify" if c.type == "modify_items" else "exchange"
    return (f"I will {verb} order {a['order_id']}: {pairs}. For the price difference "
            f"{paid}, using {_agent_method(c)}. Shall I proceed?")


def _propose_return(c: Constraint) -> str:
    a = c.args
    return (f"I will return items {join_words(a['item_ids'])} of order {a['order_id']}, "
            f"with the refund to {_agent_method(c)}. Shall I proceed?")


_PROPOSALS: dict[str, Callable[[Constraint], str]] = {
    "cancel_order": _propose_cancel, "change_order_address": _propose_order_address,
    "change_user_address": _propose_user_address, "change_order_payment": _propose_payment,
    "modify_items": _propose_change, "exchange_items": _propose_change,
    "return_items": _propose_return,
}

_ANSWERS: dict[str, Callable[[Constraint], str]] = {
    "info_tracking": lambda c: (f"The tracking number of order {c.args['order_id']} is "
                                f"{c.answer}."),
    "info_order_total": lambda c: f"The total of order {c.args['order_id']} is ${c.answer}.",
    "info_available_options": lambda c: (f"There are {c.answer} available options of that "
                                         "product."),
    "info_gift_card_balance": lambda c: f"The balance of your gift card is ${c.answer}.",
    "cancel_processed_order": lambda c: (
        f"I'm sorry, but order {c.args['order_id']} has already been processed, so it can "
        "no longer be cancelled."),
}
