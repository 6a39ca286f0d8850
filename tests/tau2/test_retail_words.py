"""tau2's retail gold writes in words (tool_gym.tau2.retail.write_words), on tau2's own
114 tasks: the reference proposal is confirmed, every proposal that names another order,
payment method, variant or set of items, swaps old and new, or lists every candidate is
not, an agent's own words are, and the customer's request says no id it cannot know."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from tool_gym.core.proposals import Verdict, asks_approval, judge
from tool_gym.core.sandbox import Sandbox, template
from tool_gym.tau2.retail import WRITE_TOOLS, write_words
from tool_gym.tau2.words import WriteWords

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "tau2" / "retail"
ORDER_ID = re.compile(r"#W\d{7}")


@dataclass(frozen=True)
class Case:
    task_id: str
    user_id: str
    name: str
    args: dict
    known: frozenset
    words: WriteWords


@pytest.fixture(scope="module")
def db():
    if not (DATA / "db.json").is_file() or not (DATA / "tasks.json").is_file():
        pytest.skip(f"tau2 retail data absent at {DATA}")
    box = Sandbox(template("retail", 0, str(DATA / "db.json")))
    yield box.db
    box.close()


@pytest.fixture(scope="module")
def cases(db) -> list[Case]:
    tasks = json.loads((DATA / "tasks.json").read_text(encoding="utf-8"))
    out = []
    for task in tasks:
        known = frozenset(ORDER_ID.findall(json.dumps(task["user_scenario"])))
        for action in (task.get("evaluation_criteria") or {}).get("actions") or ():
            if action["name"] not in WRITE_TOOLS:
                continue
            args = action["arguments"]
            user_id = _owner(db, args)
            out.append(Case(task["id"], user_id, action["name"], args, known,
                            write_words(db, user_id, action["name"], args, known)))
    return out


def _owner(db, args: dict) -> str:
    if "user_id" in args:
        return args["user_id"]
    return db.execute("SELECT user_id FROM user_orders WHERE order_id = ?",
                      (args["order_id"],)).fetchone()[0]


def _not_yes(proposal: str, case: Case) -> bool:
    return judge(proposal, case.words.intent, ()) is not Verdict.YES


def _orders(db, user_id: str) -> list[str]:
    return [r[0] for r in db.execute("SELECT order_id FROM user_orders WHERE user_id = ? "
                                     "ORDER BY pos", (user_id,))]


def _methods(db, user_id: str) -> list[tuple]:
    return db.execute("SELECT id, source, brand, last_four FROM payment_methods "
                      "WHERE user_id = ? ORDER BY ord", (user_id,)).fetchall()


def _variant(db, item_id: str) -> tuple[str, str, dict]:
    """(product id, product name, options) of a catalogue item."""
    pid, name, options = db.execute(
        "SELECT v.product_id, p.name, v.options FROM variants v JOIN products p "
        "ON p.product_id = v.product_id WHERE v.item_id = ?", (item_id,)).fetchone()
    return pid, name, json.loads(options)


def _order_items(db, order_id: str) -> list[str]:
    return list(dict.fromkeys(r[0] for r in db.execute(
        "SELECT item_id FROM order_items WHERE order_id = ? ORDER BY pos", (order_id,))))


# --------------------------------------------------------------------------- the reference

def test_every_gold_write_has_words(cases):
    tools = {c.name for c in cases}
    assert len(cases) >= 150 and tools == set(WRITE_TOOLS), \
        f"{len(cases)} gold writes checked, tools {sorted(tools)}"


def test_reference_proposal_is_confirmed(cases):
    wrong = [(c.task_id, c.name, judge(c.words.proposal, c.words.intent, ()))
             for c in cases if judge(c.words.proposal, c.words.intent, ()) is not Verdict.YES]
    unasked = [(c.task_id, c.name) for c in cases if not asks_approval(c.words.proposal)]
    assert not wrong and not unasked, f"of {len(cases)} writes: {wrong} {unasked}"


def test_request_names_no_id_the_customer_cannot_know(db, cases):
    leaks = []
    for c in cases:
        secret = {c.user_id} - c.known
        secret |= {m[0] for m in _methods(db, c.user_id)}
        for key in ("item_ids", "new_item_ids"):
            secret |= set(c.args.get(key, ()))
        if "order_id" in c.args:
            secret |= set(_order_items(db, c.args["order_id"]))
        secret |= {_variant(db, i)[0] for i in secret if i.isdigit() and len(i) == 10}
        said = {s for s in secret if s in c.words.request}
        said |= set(ORDER_ID.findall(c.words.request)) - c.known
        said |= set(re.findall(r"\b\d{10}\b|(?:credit_card|paypal|gift_card)_\d+",
                               c.words.request))
        if said:
            leaks.append((c.task_id, c.name, sorted(said)))
    by_id = sum(1 for c in cases if c.args.get("order_id") in c.known)
    assert not leaks, f"of {len(cases)} requests: {leaks}"
    assert all(c.args["order_id"] in c.words.request for c in cases
               if c.args.get("order_id") in c.known) and by_id >= 5, \
        f"{by_id} requests may name their order by id"


# --------------------------------------------------------------------------- wrong proposals

def test_another_order_is_not_confirmed(db, cases):
    checked, confirmed = 0, []
    for c in cases:
        if "order_id" not in c.args:
            continue
        for other in _orders(db, c.user_id):
            if other == c.args["order_id"]:
                continue
            wrong = write_words(db, c.user_id, c.name, {**c.args, "order_id": other}, c.known)
            checked += 1
            if not _not_yes(wrong.proposal, c):
                confirmed.append((c.task_id, c.name, other))
    assert checked >= 300 and not confirmed, f"{checked} other orders checked: {confirmed}"


def test_another_payment_method_is_not_confirmed(db, cases):
    checked, confirmed = 0, []
    for c in cases:
        if "payment_method_id" not in c.args:
            continue
        for other, *_ in _methods(db, c.user_id):
            if other == c.args["payment_method_id"]:
                continue
            wrong = write_words(db, c.user_id, c.name, {**c.args, "payment_method_id": other},
                                c.known)
            checked += 1
            if not _not_yes(wrong.proposal, c):
                confirmed.append((c.task_id, c.name, other))
    assert checked >= 40 and not confirmed, f"{checked} other methods checked: {confirmed}"


def test_another_variant_is_not_confirmed(db, cases):
    checked, confirmed = 0, []
    for c in cases:
        if "new_item_ids" not in c.args:
            continue
        intended = set(c.args["item_ids"]) | set(c.args["new_item_ids"])
        product = _variant(db, c.args["new_item_ids"][0])[0]
        for (other,) in db.execute("SELECT item_id FROM variants WHERE product_id = ?",
                                   (product,)):
            if other in intended:
                continue
            new = [other if i == c.args["new_item_ids"][0] else i
                   for i in c.args["new_item_ids"]]
            wrong = write_words(db, c.user_id, c.name, {**c.args, "new_item_ids": new},
                                c.known)
            checked += 1
            if not _not_yes(wrong.proposal, c):
                confirmed.append((c.task_id, c.name, other))
    assert checked >= 500 and not confirmed, f"{checked} other variants checked: {confirmed}"


def test_old_and_new_swapped_is_not_confirmed(db, cases):
    changes = [c for c in cases if "new_item_ids" in c.args]
    confirmed = []
    for c in changes:
        swapped = {**c.args, "item_ids": c.args["new_item_ids"],
                   "new_item_ids": c.args["item_ids"]}
        if not _not_yes(write_words(db, c.user_id, c.name, swapped, c.known).proposal, c):
            confirmed.append((c.task_id, c.name))
    assert len(changes) >= 60 and not confirmed, f"{len(changes)} swaps checked: {confirmed}"


def test_changed_set_of_returned_items_is_not_confirmed(db, cases):
    checked, confirmed = 0, []
    for c in cases:
        if c.name != "return_delivered_order_items":
            continue
        ids = list(dict.fromkeys(c.args["item_ids"]))
        variants = [ids[1:]] if len(ids) > 1 else []  # one item left out
        variants += [ids + [x] for x in _order_items(db, c.args["order_id"]) if x not in ids]
        for item_ids in variants:
            wrong = write_words(db, c.user_id, c.name, {**c.args, "item_ids": item_ids},
                                c.known)
            checked += 1
            if not _not_yes(wrong.proposal, c):
                confirmed.append((c.task_id, item_ids))
    assert checked >= 60 and not confirmed, f"{checked} item sets checked: {confirmed}"


def test_return_is_not_an_exchange(db, cases):
    """A return's intent does not confirm an exchange of the same items (nor the reverse)."""
    returns = [c for c in cases if c.name == "return_delivered_order_items"]
    confirmed = []
    for c in returns:
        item = c.args["item_ids"][0]
        pid = _variant(db, item)[0]
        other = db.execute("SELECT item_id FROM variants WHERE product_id = ? AND item_id != ? "
                           "ORDER BY ord LIMIT 1", (pid, item)).fetchone()[0]
        exchange = write_words(db, c.user_id, "exchange_delivered_order_items",
                               {**c.args, "item_ids": [item], "new_item_ids": [other]}, c.known)
        also_returned = exchange.proposal.replace(" Shall", " You will return the old item. "
                                                  "Shall")
        if (judge(exchange.proposal, c.words.intent, ()) is Verdict.YES
                or judge(also_returned, c.words.intent, ()) is Verdict.YES
                or judge(c.words.proposal, exchange.intent, ()) is Verdict.YES):
            confirmed.append(c.task_id)
    assert len(returns) >= 30 and not confirmed, f"{len(returns)} returns: {confirmed}"


def test_other_actions_are_not_confirmed(cases):
    """The same order and values under another action's words."""
    changed = {"cancel_pending_order": ("I can cancel", "I can modify"),
               "return_delivered_order_items": ("I will return", "I will cancel")}
    checked = [c for c in cases if c.name in changed]
    confirmed = [(c.task_id, c.name) for c in checked
                 if not _not_yes(c.words.proposal.replace(*changed[c.name]), c)]
    assert len(checked) >= 60 and not confirmed, f"{len(checked)} checked: {confirmed}"


def test_item_change_is_not_a_payment_change(db, cases):
    """A modification of the order's items, paid with the intended method, does not confirm
    a change of the order's payment method."""
    checked, confirmed = 0, []
    for c in cases:
        if c.name != "modify_pending_order_payment":
            continue
        item = _order_items(db, c.args["order_id"])[0]
        for (other,) in db.execute("SELECT item_id FROM variants WHERE product_id = ? AND "
                                   "item_id != ?", (_variant(db, item)[0], item)).fetchall():
            items = write_words(db, c.user_id, "modify_pending_order_items",
                                {**c.args, "item_ids": [item], "new_item_ids": [other]}, c.known)
            checked += 1
            if not _not_yes(items.proposal, c):
                confirmed.append((c.task_id, other))
    assert checked >= 3 and not confirmed, f"{checked} checked: {confirmed}"


def test_catch_all_proposals_are_not_confirmed(db, cases):
    orders = methods = variants = reasons = 0
    confirmed = []
    for c in cases:
        if c.name == "cancel_pending_order":
            reasons += 1
            spray = c.words.proposal.replace(f"'{c.args['reason']}'",
                                             "'no longer needed' or 'ordered by mistake'")
            if not _not_yes(spray, c):
                confirmed.append((c.task_id, c.name, "reasons"))
        if "new_item_ids" in c.args:
            variants += 1
            new = c.args["new_item_ids"][0]
            every = [r[0] for r in db.execute("SELECT item_id FROM variants WHERE product_id = ?",
                                              (_variant(db, new)[0],))]
            spray = c.words.proposal.replace(f"item {new} ", f"item {' or '.join(every)} ")
            if not _not_yes(spray, c):
                confirmed.append((c.task_id, c.name, "variants"))
        every = _orders(db, c.user_id)
        if "order_id" in c.args and len(every) > 1:
            orders += 1
            spray = c.words.proposal.replace(c.args["order_id"], ", ".join(every))
            if not _not_yes(spray, c):
                confirmed.append((c.task_id, c.name, "orders"))
        every = [m[0] for m in _methods(db, c.user_id)]
        if "payment_method_id" in c.args and len(every) > 1:
            methods += 1
            spray = c.words.proposal.replace(c.args["payment_method_id"], " or ".join(every))
            if not _not_yes(spray, c):
                confirmed.append((c.task_id, c.name, "methods"))
    assert orders >= 100 and methods >= 30 and variants >= 60 and reasons >= 20 \
        and not confirmed, f"{orders} order, {methods} method, {variants} variant, " \
                           f"{reasons} reason catch-alls: {confirmed}"


def test_user_address_is_not_an_order_address(db, cases):
    """Each address proposal confirms only its own need; one proposal naming both the
    default address and the order's confirms either."""
    pairs = [(c, d) for c in cases for d in cases
             if c.task_id == d.task_id and c.name == "modify_user_address"
             and d.name == "modify_pending_order_address"]
    wrong, combined = [], 0
    for user, order in pairs:
        a = order.args
        both = (f"I will update your default address and the shipping address of order "
                f"{a['order_id']} to {a['address1']}, {a['city']}, {a['state']} {a['zip']}. "
                "Shall I proceed?")
        same = all(user.args[k] == a[k] for k in ("address1", "city", "zip"))
        if (not _not_yes(order.words.proposal, user) or not _not_yes(user.words.proposal, order)
                or judge(both, order.words.intent, ()) is not Verdict.YES
                or same and judge(both, user.words.intent, ()) is not Verdict.YES):
            wrong.append((user.task_id, a["order_id"]))
        combined += same
    assert len(pairs) >= 5 and combined >= 3 and not wrong, \
        f"{len(pairs)} pairs checked ({combined} to one address): {wrong}"


def test_another_item_changed_too_is_not_confirmed(db, cases):
    """A modification or exchange that also changes another item of the order."""
    checked, confirmed = 0, []
    for c in cases:
        if "new_item_ids" not in c.args:
            continue
        intended = set(c.args["item_ids"]) | set(c.args["new_item_ids"])
        for extra in _order_items(db, c.args["order_id"]):
            if extra in intended:
                continue
            other = db.execute(
                "SELECT item_id FROM variants WHERE product_id = ? AND item_id != ? "
                "ORDER BY ord LIMIT 1", (_variant(db, extra)[0], extra)).fetchone()
            if other is None:
                continue
            more = {**c.args, "item_ids": [*c.args["item_ids"], extra],
                    "new_item_ids": [*c.args["new_item_ids"], other[0]]}
            checked += 1
            if not _not_yes(write_words(db, c.user_id, c.name, more, c.known).proposal, c):
                confirmed.append((c.task_id, c.name, extra))
    assert checked >= 100 and not confirmed, f"{checked} extra items checked: {confirmed}"


def test_not_a_write_tool(db, cases):
    with pytest.raises(ValueError, match="not a retail write tool"):
        write_words(db, cases[0].user_id, "get_order_details", {"order_id": "#W0000000"})


# --------------------------------------------------------------------------- own words

def _item_words(db, item_id: str) -> str:
    _, name, options = _variant(db, item_id)
    return f"**{name}** ({' / '.join(options.values())})"


def _method_words(db, method_id: str) -> str:
    _, source, brand, last_four = db.execute(
        "SELECT id, source, brand, last_four FROM payment_methods WHERE id = ?",
        (method_id,)).fetchone()
    if source == "credit_card":
        return f"{brand} card ending in {last_four}"
    return "PayPal account" if source == "paypal" else "gift card"


def _product_names(db, order_id: str) -> str:
    return ", ".join(sorted({r[0] for r in db.execute(
        "SELECT name FROM order_items WHERE order_id = ?", (order_id,))}))


def _order_words(db, order_id: str, by_names: bool) -> str:
    if not by_names:
        return f"order **{order_id}**"
    return "your order with the " + _product_names(db, order_id)


def _own_words(db, c: Case, order: str = "") -> str:
    """The agent's own proposal for ``c``, naming its order with the words ``order``."""
    a = c.args
    address = (f"**{a['address1']}** {a['address2']}, {a['city']}, {a['state']} "
               f"{a['zip']}" if "zip" in a else "")
    if c.name == "cancel_pending_order":
        why = ("you no longer need it" if a["reason"] == "no longer needed"
               else "it was ordered by mistake")
        text = f"Just to confirm: I'll cancel {order} since {why}."
    elif c.name == "modify_pending_order_address":
        text = f"Here's the plan: ship {order} to {address} instead."
    elif c.name == "modify_user_address":
        text = f"Here's the plan: your default address becomes {address}."
    elif c.name == "modify_pending_order_payment":
        method = _method_words(db, a["payment_method_id"])
        text = f"I'll update the payment for {order} to your {method}."
    elif c.name == "return_delivered_order_items":
        items = " and ".join(_item_words(db, i) for i in dict.fromkeys(a["item_ids"]))
        text = (f"I'll return the {items} from {order}; the refund goes to your "
                f"{_method_words(db, a['payment_method_id'])}.")
    else:
        verb = "exchange" if c.name.startswith("exchange") else "swap"
        pairs = "; ".join(f"the {_item_words(db, o)} for the {_item_words(db, n)}"
                          for o, n in dict.fromkeys(zip(a["item_ids"], a["new_item_ids"])))
        text = (f"For {order} I'll {verb} {pairs}. Any difference is settled with your "
                f"{_method_words(db, a['payment_method_id'])}.")
    return (text + " Would you like me to go ahead?").lower()


@pytest.mark.parametrize("by_names", [False, True], ids=["order_id", "product_names"])
def test_agent_own_words_are_confirmed(db, cases, by_names):
    wrong = []
    for c in cases:
        order = _order_words(db, c.args["order_id"], by_names) if "order_id" in c.args else ""
        proposal = _own_words(db, c, order)
        assert asks_approval(proposal), proposal
        verdict = judge(proposal, c.words.intent, ())
        if verdict is not Verdict.YES:
            wrong.append((c.task_id, c.name, verdict.value, proposal))
    assert not wrong, f"of {len(cases)} own-words proposals: {wrong[:5]} ({len(wrong)})"


def test_every_order_in_words_is_not_confirmed(db, cases):
    """An agent's own proposal that names every order of the user by its products."""
    checked, confirmed = 0, []
    for c in cases:
        every = _orders(db, c.user_id)
        if "order_id" not in c.args or len(every) < 2:
            continue
        spray = "your orders with the " + "; the ".join(_product_names(db, o) for o in every)
        checked += 1
        if not _not_yes(_own_words(db, c, spray), c):
            confirmed.append((c.task_id, c.name))
    assert checked >= 100 and not confirmed, f"{checked} checked: {confirmed}"
