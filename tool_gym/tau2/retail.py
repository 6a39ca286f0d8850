"""tau2-bench's retail gold writes in a customer's words (see :mod:`tool_gym.tau2.words`).

:func:`write_words` turns one gold write of a tau2 retail task (tool name and arguments)
into what the scripted user needs, read from the task's initial database:

- the :class:`~tool_gym.core.proposals.Intent` a proposal must match, built like the retail
  kit's (:mod:`tool_gym.domains.retail.tasks`):

  - ``cancel_pending_order``: ``cancel`` + order + reason (the other reason a rival);
  - ``modify_pending_order_address``: order + address1 + zip + city;
  - ``modify_user_address``: words of the default address + address1 + zip + city;
  - ``modify_pending_order_payment``: payment words (never next to "price difference") +
    order + payment method;
  - ``modify_pending_order_items``, ``exchange_delivered_order_items``: order + each item
    before its replacement + payment method;
  - ``return_delivered_order_items``: ``return`` (never next to ``exchange``) + order +
    each returned item + refund method.

  An order is named by its id or its product names (rivals: the user's other orders), an
  item by its id or its product name with its option values (rivals: the order's other
  items; for a new item, the product's other variants), a payment method by its id, a card's
  last four digits, or its kind when no other method of the user shares it (rivals: the
  user's other methods). A rival's description that the intended values' own words already
  contain (the variant being replaced, a variant mixing the old and new options) cannot
  tell the two apart and is dropped; the rival keeps its id.
- the user's request, in a customer's words: product names and option values, card brand
  and last four digits, the full new address; an order by its id only when the task's
  instructions state it (``known_ids``), else by the fewest of its product names that no
  other order of the user has all of;
- the reference agent's proposal: every parameter by id and in words, ending with
  "Shall I proceed?".
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections import Counter
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from itertools import combinations

from ..core.proposals import Intent, Param, Verdict, judge
from ..core.taskkit import join_words as _join
from ..core.taskkit import money as _money
from ..domains.retail.describe import BRANDS as _BRANDS
from ..domains.retail.describe import method_forms
from ..domains.retail.phrasing import REASON_PHRASE as _REASON_PHRASE
from ..domains.retail.phrasing import address_text as _address_text
from ..domains.retail.phrasing import options_text as _options_text
from ..domains.retail.records import ADDRESS_KEYS, REASONS
from ..domains.retail.records import Method as _Method
from ..domains.retail.records import Order as _Order
from ..domains.retail.records import UserView as _User
from ..domains.retail.tasks import REASON_FORMS as _REASON_FORMS
from .words import WriteWords

__all__ = ["WRITE_TOOLS", "write_words"]

#: The retail tools whose calls change the database.
WRITE_TOOLS = (
    "cancel_pending_order", "modify_pending_order_address", "modify_pending_order_payment",
    "modify_pending_order_items", "modify_user_address", "return_delivered_order_items",
    "exchange_delivered_order_items",
)

#: Words that name the user's default address (not an order's shipping address).
_DEFAULT_ADDRESS_FORMS = ("default", "account address", "address on file", "profile",
                          "user address", "home address", "primary address")
#: Words of a change of an order's payment method, and of an item change it is not.
_PAYMENT_FORMS = ("payment", "pay for", "pay with", "pay it with", "paid", "charge", "bill")
_PAYMENT_OPPOSITES = ("price difference", "exchange")
_RETURN_FORMS = ("return", "send back", "sent back", "send it back", "send them back")
_RETURN_OPPOSITES = ("exchange",)
_QUANTITY_WORDS = {2: "two", 3: "three", 4: "four", 5: "five"}


@dataclass(frozen=True)
class _Item:
    """One item (an order line or a catalogue variant) as words."""

    item_id: str
    product_id: str
    name: str
    options: dict
    price: float

    @property
    def words(self) -> tuple[str, ...]:
        """The product name with its option values: the form that names it in words."""
        return (self.name, *(str(v) for v in self.options.values()))

    @property
    def agent_text(self) -> str:
        return f"item {self.item_id} ({', '.join(self.words)})"

    @property
    def customer_text(self) -> str:
        options = f" ({_options_text(self.options)})" if self.options else ""
        return f"{self.name}{options}"


# --------------------------------------------------------------------------- entry point

def write_words(db: sqlite3.Connection, user_id: str, name: str, arguments: dict,
                known_ids: Collection[str] = ()) -> WriteWords:
    """The intent, the customer's request and the reference agent's proposal of the gold
    write ``name(**arguments)`` of ``user_id``, read from the task's initial database
    ``db``; ``known_ids`` are the ids the task's instructions state (the user may say
    them). Raises ``ValueError`` for a tool that is not a retail write, or an order, item
    or payment method that the database does not hold."""
    build = _BUILDERS.get(name)
    if build is None:
        raise ValueError(f"{name!r} is not a retail write tool; known: {list(WRITE_TOOLS)}")
    if db.execute("SELECT 1 FROM users WHERE user_id = ?", (user_id,)).fetchone() is None:
        raise ValueError(f"unknown user {user_id!r}")
    return build(db, _User(db, user_id), arguments, frozenset(known_ids))


# --------------------------------------------------------------------------- writes

def _cancel(db, user: _User, a: dict, known) -> WriteWords:
    order = _order(user, a["order_id"])
    reason = a["reason"]
    forms = _REASON_FORMS.get(reason, (reason,))
    rivals = tuple(_REASON_FORMS[r] for r in REASONS if r != reason)
    intent = _intent(Param("action", ("cancel",)), _order_param(user, order, known),
                     Param("reason", forms, rivals))
    because = _REASON_PHRASE.get(reason, reason)
    return WriteWords(
        intent,
        f"I'd like to cancel {_order_words(user, order, known)} because {because}.",
        f"I can cancel order {_order_agent(order)} with the reason '{reason}'. The payment "
        "will be refunded to the original payment method. Shall I proceed?")


def _order_address(db, user: _User, a: dict, known) -> WriteWords:
    order = _order(user, a["order_id"])
    address = _address_text({k: a[k] for k in ADDRESS_KEYS})
    intent = _intent(_order_param(user, order, known), *_address_params(a))
    return WriteWords(
        intent,
        f"Please change the shipping address of {_order_words(user, order, known)} to "
        f"{address}.",
        f"I will change the shipping address of order {_order_agent(order)} to {address}. "
        "Shall I proceed?")


def _user_address(db, user: _User, a: dict, known) -> WriteWords:
    address = _address_text({k: a[k] for k in ADDRESS_KEYS})
    target = Param("target", (*_DEFAULT_ADDRESS_FORMS, user.user_id))
    return WriteWords(
        _intent(target, *_address_params(a)),
        f"I've moved. Please update the default address on my account to {address}.",
        f"I will update the default address of your account to {address}. Shall I proceed?")


def _payment(db, user: _User, a: dict, known) -> WriteWords:
    order = _order(user, a["order_id"])
    method = _method(user, a["payment_method_id"])
    intent = _intent(Param("action", _PAYMENT_FORMS), _order_param(user, order, known),
                     _method_param(user, method), opposite=_PAYMENT_OPPOSITES)
    paid = sum(p[1] for p in order.payments if p[0] == "payment")
    return WriteWords(
        intent,
        f"I'd like to pay for {_order_words(user, order, known)} with "
        f"{_method_words(user, method)} instead.",
        f"I will switch the payment method of order {_order_agent(order)} to "
        f"{_method_agent(user, method)}; the original payment of ${_money(paid)} will be "
        "refunded. Shall I proceed?")


def _modify_items(db, user: _User, a: dict, known) -> WriteWords:
    return _item_change(db, user, a, known, verb="modify", word="to",
                        ask="For {order}, I'd like to change {changes}. Please use {pm} for "
                            "any price difference.")


def _exchange_items(db, user: _User, a: dict, known) -> WriteWords:
    return _item_change(db, user, a, known, verb="exchange", word="for",
                        ask="From {order}, which was delivered, I'd like to exchange {changes}. "
                            "Please use {pm} for any price difference.")


def _item_change(db, user: _User, a: dict, known, verb: str, word: str,
                 ask: str) -> WriteWords:
    """A modification of a pending order's items or an exchange of a delivered order's:
    each item named before its replacement."""
    order = _order(user, a["order_id"])
    method = _method(user, a["payment_method_id"])
    pairs = list(zip(a["item_ids"], a["new_item_ids"]))
    if len(pairs) != len(a["item_ids"]) or len(pairs) != len(a["new_item_ids"]):
        raise ValueError("item_ids and new_item_ids must have the same length")
    units = Counter(pairs)
    distinct = list(units)
    olds = [_item(db, order, old) for old, _ in distinct]
    news = [_variant(db, new) for _, new in distinct]
    intended = {i for pair in distinct for i in pair}
    params = [_order_param(user, order, known)]
    for k, old in enumerate(olds):
        params.append(Param(f"item{k}", (old.item_id, old.words),
                            _line_rivals(db, order, intended)))
    for k, new in enumerate(news):
        params.append(Param(f"new_item{k}", (new.item_id, new.words),
                            _variant_rivals(db, new, intended)))
    params.append(_method_param(user, method))
    intent = _intent(*params, before=tuple((f"item{k}", f"new_item{k}")
                                           for k in range(len(distinct))))
    diff = round(sum(n.price - o.price for o, n in zip(olds, news)
                     for _ in range(units[(o.item_id, n.item_id)])), 2)
    changes = _list([f"{_units(units[(o.item_id, n.item_id)])}my {o.customer_text} {word} "
                     f"{_new_words(o, n)}" for o, n in zip(olds, news)])
    request = ask.format(order=_order_words(user, order, known), changes=changes,
                         pm=_method_words(user, method))
    agent_pairs = _join([f"{_units(units[(o.item_id, n.item_id)])}{o.agent_text} to "
                         f"{n.agent_text}" for o, n in zip(olds, news)])
    proposal = (f"I will {verb} order {_order_agent(order)}: {agent_pairs}. "
                f"{_difference(diff, _method_agent(user, method))} Shall I proceed?")
    return WriteWords(intent, request, proposal)


def _return_items(db, user: _User, a: dict, known) -> WriteWords:
    order = _order(user, a["order_id"])
    method = _method(user, a["payment_method_id"])
    units = Counter(a["item_ids"])
    items = [_item(db, order, i) for i in units]
    rivals = _line_rivals(db, order, set(units))
    params = [Param(f"item{k}", (it.item_id, it.words), rivals) for k, it in enumerate(items)]
    intent = _intent(Param("action", _RETURN_FORMS), _order_param(user, order, known),
                     *params, _method_param(user, method), opposite=_RETURN_OPPOSITES)
    refund = sum(it.price * units[it.item_id] for it in items)
    listed = _list([f"{_units(units[it.item_id])}my {it.customer_text}" for it in items])
    agent_items = _join([f"{_units(units[it.item_id])}{it.agent_text}" for it in items])
    return WriteWords(
        intent,
        f"I want to return {listed} from {_order_words(user, order, known)}, with the "
        f"refund to {_method_words(user, method)}.",
        f"I will return {agent_items} of order {_order_agent(order)}. The refund of "
        f"${_money(refund)} will go to {_method_agent(user, method)}. Shall I proceed?")


_BUILDERS: dict[str, Callable[..., WriteWords]] = {
    "cancel_pending_order": _cancel,
    "modify_pending_order_address": _order_address,
    "modify_user_address": _user_address,
    "modify_pending_order_payment": _payment,
    "modify_pending_order_items": _modify_items,
    "exchange_delivered_order_items": _exchange_items,
    "return_delivered_order_items": _return_items,
}


# --------------------------------------------------------------------------- intents

def _intent(*params: Param, opposite: Sequence[str] = (),
            before: tuple[tuple[str, str], ...] = ()) -> Intent:
    """The intent of ``params`` whose rival descriptions the intended words do not already
    contain (see the module docstring)."""
    own = " ; ".join(" ".join(f) if isinstance(f, tuple) else str(f)
                     for p in params for f in p.forms)
    kept = tuple(Param(p.name, p.forms, _telling(p.rivals, own), p.role) for p in params)
    return Intent(kept, tuple(opposite), before)


def _telling(rivals: tuple, own: str) -> tuple:
    """Each rival's id and those of its other forms that ``own`` does not name."""
    out = []
    for forms in rivals:
        kept = forms[:1] + tuple(f for f in forms[1:] if not _names(own, f))
        out.append(kept)
    return tuple(dict.fromkeys(out))


def _names(text: str, form) -> bool:
    """Whether ``text`` names ``form`` (as :func:`judge` reads a proposal)."""
    return judge(text, Intent((Param("probe", (form,)),)), (text,)) is Verdict.YES


def _order_param(user: _User, order: _Order, known) -> Param:
    """The order by id, by all its product names, or by the names the user gives; the
    user's other orders are rivals (by id, and by their names unless all of those are this
    order's too)."""
    forms = [order.order_id, tuple(sorted(order.names))]
    if order.order_id not in known:
        forms.append(_telling_names(user, order))
    rivals = tuple((x.order_id,) if x.names <= order.names
                   else (x.order_id, tuple(sorted(x.names)))
                   for x in user.orders if x.order_id != order.order_id)
    return Param("order", tuple(dict.fromkeys(f for f in forms if f)), rivals)


def _method_param(user: _User, method: _Method) -> Param:
    """The payment method; the user's other methods are its rivals."""
    return Param("payment_method", _method_forms(user, method),
                 tuple(_method_forms(user, m) for m in user.methods if m.id != method.id))


def _method_forms(user: _User, method: _Method) -> tuple:
    """The kit's forms (id, last four, a kind no other method shares), and a gift card's
    balance when the user has several gift cards."""
    forms = method_forms(method, user.methods)
    if _shared_gift_card(user, method) and method.balance is not None:
        forms += (("gift card", f"${_money(method.balance)}"),)
    return forms


def _address_params(a: dict) -> tuple[Param, ...]:
    return (Param("address1", (a["address1"],)), Param("zip", (a["zip"],)),
            Param("city", (a["city"],)))


def _line_rivals(db, order: _Order, intended: set[str]) -> tuple:
    """The order's other items: by id, and by their words."""
    out = []
    for item_id in order.distinct_items():
        if item_id not in intended:
            it = _item(db, order, item_id)
            out.append((it.item_id, it.words))
    return tuple(out)


def _variant_rivals(db, new: _Item, intended: set[str]) -> tuple:
    """The product's other variants: by id, and by their words."""
    rows = db.execute("SELECT item_id FROM variants WHERE product_id = ? ORDER BY ord, item_id",
                      (new.product_id,)).fetchall()
    return tuple((v.item_id, v.words) for v in (_variant(db, r[0]) for r in rows)
                 if v.item_id not in intended)


# --------------------------------------------------------------------------- database

def _order(user: _User, order_id: str) -> _Order:
    order = user.order_by_id.get(order_id)
    if order is None:
        raise ValueError(f"order {order_id!r} is not an order of user {user.user_id!r}")
    return order


def _method(user: _User, method_id: str) -> _Method:
    method = user.method_by_id.get(method_id)
    if method is None:
        raise ValueError(f"{method_id!r} is not a payment method of user {user.user_id!r}")
    return method


def _item(db, order: _Order, item_id: str) -> _Item:
    """An item of the order (as ordered), or else the catalogue's variant."""
    for line in order.lines:
        if line.item_id == item_id:
            return _Item(item_id, line.product_id, line.name, line.options, line.price)
    return _variant(db, item_id)


def _variant(db, item_id: str) -> _Item:
    row = db.execute("SELECT v.product_id, p.name, v.options, v.price FROM variants v "
                     "JOIN products p ON p.product_id = v.product_id WHERE v.item_id = ?",
                     (item_id,)).fetchone()
    if row is None:
        raise ValueError(f"unknown item {item_id!r}")
    try:
        options = json.loads(row[2])
    except (TypeError, ValueError):
        options = {}
    return _Item(item_id, row[0], row[1], options if isinstance(options, dict) else {}, row[3])


# --------------------------------------------------------------------------- words

def _telling_names(user: _User, order: _Order) -> tuple[str, ...]:
    """The fewest of the order's product names that no other order of the user has all of
    (empty when every set is shared)."""
    names = sorted(order.names)
    others = [x.names for x in user.orders if x.order_id != order.order_id]
    for k in range(1, len(names) + 1):
        for chosen in combinations(names, k):
            if not any(other.issuperset(chosen) for other in others):
                return chosen
    return ()


def _order_words(user: _User, order: _Order, known) -> str:
    """The order as the customer names it: its id when the instructions give it, else its
    telling product names (all its items with their options, as a last resort)."""
    if order.order_id in known:
        return f"order {order.order_id}"
    chosen = _telling_names(user, order)
    if chosen:
        return "my order with " + _join([f"the {n}" for n in chosen])
    lines = [f"the {l.name} ({_options_text(l.options)})" for l in order.lines]
    return f"my {order.status} order with " + _join(lines)


def _order_agent(order: _Order) -> str:
    return f"{order.order_id} ({', '.join(sorted(order.names))})"


def _shared_gift_card(user: _User, method: _Method) -> bool:
    return method.source == "gift_card" and len(user.gift_cards) > 1


def _method_words(user: _User, method: _Method) -> str:
    """The payment method as the customer names it."""
    if method.source == "credit_card":
        brand = _BRANDS.get(str(method.brand).lower(), str(method.brand).title())
        card = "" if brand.lower().endswith("card") else " card"
        return f"my {brand}{card} ending in {method.last_four}"
    if method.source == "paypal":
        return "my PayPal account"
    if _shared_gift_card(user, method) and method.balance is not None:
        return f"my gift card with a balance of ${_money(method.balance)}"
    return "my gift card"


def _method_agent(user: _User, method: _Method) -> str:
    return f"{_method_words(user, method).replace('my ', 'your ', 1)} ({method.id})"


def _new_words(old: _Item, new: _Item) -> str:
    if new.name == old.name:
        return f"the one with {_options_text(new.options)}"
    return f"a {new.customer_text}"


def _list(parts: list[str]) -> str:
    """Parts joined for reading: with semicolons when a part has commas of its own."""
    if len(parts) < 2 or not any("," in p for p in parts):
        return _join(parts)
    return "; ".join(parts[:-1]) + "; and " + parts[-1]


def _units(n: int) -> str:
    return "" if n == 1 else f"{_QUANTITY_WORDS.get(n, str(n))} units of "


def _difference(diff: float, method: str) -> str:
    if diff > 0:
        return f"The price difference of ${_money(diff)} will be charged to {method}."
    if diff < 0:
        return f"The price difference of ${_money(-diff)} will be refunded to {method}."
    return f"The price stays the same; {method} stays on file for any difference."


# ----------------------------------------------------------------------------- refusals
def records_named(db: sqlite3.Connection, user_id: str, text: str) -> tuple:
    """``(read, order id)`` of the user's orders that a task's instructions name (with or
    without the ``#``): a refusal must have read them."""
    found = []
    for token in dict.fromkeys(re.findall(r"#?\b[A-Z0-9]{6,8}\b", text)):
        order_id = token if token.startswith("#") else "#" + token
        row = db.execute("SELECT order_id FROM orders WHERE order_id = ? AND user_id = ?",
                         (order_id, user_id)).fetchone()
        if row:
            found.append(("get_order_details", row[0]))
    return tuple(found)


def record_words(db: sqlite3.Connection, user_id: str, order_id: str) -> tuple:
    """How a refusal may name an order besides its id: a product that no other order of
    the user has."""
    own = {n for (n,) in db.execute("SELECT name FROM order_items WHERE order_id = ?",
                                    (order_id,))}
    others = {n for (n,) in db.execute(
        "SELECT i.name FROM order_items i JOIN orders o ON o.order_id = i.order_id "
        "WHERE o.user_id = ? AND o.order_id != ?", (user_id, order_id))}
    return tuple(sorted(own - others))


def facts_named(db: sqlite3.Connection, text: str) -> tuple:
    """Other facts of the instructions a refusal may name instead: none in retail."""
    return ()
