"""Our tau2 ``db_match`` agrees with tau2's own evaluator on every retail and airline task.

For every task of the installed ``tau2`` package, trajectories are built with tau2 itself
(tau2's tools answer every call):

- ``gold``: the gold actions as the agent's tool calls;
- for a task with writes, ``omit`` (the first write tau2 accepts left out), ``change`` (one
  argument of a write changed, chosen from the database so that tau2 still accepts the call
  where it can: another payment method, item, order, reservation, cabin, address...) and
  ``extra`` (another write at the end: cancelling another order or reservation of the user,
  a new user address, a certificate);
- for a task without writes, ``extra``.

tau2's ``EnvironmentEvaluator.calculate_reward`` scores each trajectory; the same calls run
in our sandbox (imported from the same ``db.json``) and :func:`tool_gym.tau2.outcome.db_match`
scores them against :func:`~tool_gym.tau2.outcome.replay_gold`. The two verdicts must agree
everywhere, and the perturbations must matter (tau2 rejects most of them).

Speed: tau2's evaluator builds two environments per trajectory, and loading tau2's airline
``db.json`` takes half a second. The environments here share one loaded database instead, and
copy an entity (an order, a user, a reservation, a flight) the first time a tool reads it
(:class:`CopyOnRead`). The shared database is checked unchanged at the end, and one task per
domain is scored with tau2's own constructor as well. The tasks are played on two processes
when there are two cores.
"""

from __future__ import annotations

import functools
import json
import multiprocessing
import os
import pickle
from collections import Counter
from collections.abc import Callable, ItemsView, Iterable, Iterator, ValuesView
from concurrent.futures import ProcessPoolExecutor
from copy import deepcopy
from dataclasses import dataclass
from typing import Any

import pytest

tau2 = pytest.importorskip("tau2")

from loguru import logger
from tau2.data_model.message import AssistantMessage, Message, ToolCall
from tau2.data_model.tasks import Task as Tau2Task
from tau2.domains.airline import environment as airline_environment
from tau2.domains.airline.utils import AIRLINE_DB_PATH, AIRLINE_TASK_SET_PATH
from tau2.domains.retail import environment as retail_environment
from tau2.domains.retail.utils import RETAIL_DB_PATH, RETAIL_TASK_SET_PATH
from tau2.environment.environment import Environment
from tau2.environment.toolkit import ToolType
from tau2.evaluator.evaluator_env import EnvironmentEvaluator

from tool_gym.core.sandbox import Sandbox, Template, template
from tool_gym.tau2.outcome import GoldOutcome, db_match, replay_gold

Call = tuple[str, dict]  # a tool call: name, arguments


# -- tau2 environments over one shared database ------------------------------------------


class CopyOnRead(dict):
    """One table of a shared tau2 database (id -> entity) whose entities are copied the
    first time they are read, so that a tool changes only its own environment's copies.

    ``images`` holds every shared entity pickled once. Reads by key, ``get`` and the
    entities met while iterating ``values()`` or ``items()`` are copies; assignment adds an
    entity of this environment; anything else that could reach a shared entity is refused.
    Serialization (tau2's database hash) reads the underlying dict: the shared entities never
    read here, the copies of the others.
    """

    def __init__(self, shared: dict, images: dict[Any, bytes]):
        super().__init__(shared)
        self._images = images
        self._own: set = set()

    def __getitem__(self, key):
        if key not in self._own and key in self._images:
            dict.__setitem__(self, key, pickle.loads(self._images[key]))
            self._own.add(key)
        return dict.__getitem__(self, key)

    def __setitem__(self, key, value):
        self._own.add(key)
        dict.__setitem__(self, key, value)

    def get(self, key, default=None):
        try:
            return self[key]
        except KeyError:
            return default

    def values(self):
        return ValuesView(self)

    def items(self):
        return ItemsView(self)

    def _refused(self, *args, **kwargs):
        raise NotImplementedError("CopyOnRead: only reads, values(), items() and assignment")

    pop = popitem = setdefault = update = copy = __delitem__ = __ior__ = __or__ = _refused


def shared_constructor(get_environment: Callable[..., Environment], shared) -> Callable:
    """tau2's environment constructor over copy-on-read views of the ``shared`` database."""
    tables = {name: getattr(shared, name) for name in type(shared).model_fields}
    assert all(isinstance(table, dict) for table in tables.values())
    images = {name: {key: pickle.dumps(entity) for key, entity in table.items()}
              for name, table in tables.items()}

    def construct(solo_mode: bool = False) -> Environment:
        db = shared.model_copy(update={name: CopyOnRead(table, images[name])
                                       for name, table in tables.items()})
        return get_environment(db=db, solo_mode=solo_mode)

    return construct


def tau2_messages(environment: Environment, calls: list[Call]) -> list[Message]:
    """The calls as the agent's tool calls, each answered by tau2's tools."""
    messages: list[Message] = []
    for index, (name, arguments) in enumerate(calls):
        call = ToolCall(id=f"call_{index}", name=name, arguments=deepcopy(arguments))
        messages += [AssistantMessage(role="assistant", tool_calls=[call]),
                     environment.get_response(call)]
    return messages


def accepted(messages: list[Message], index: int) -> bool:
    """Whether tau2's tools accepted the ``index``-th call."""
    return not messages[2 * index + 1].error


# -- perturbations, chosen from the database -----------------------------------------------

NEW_ADDRESS = {"address1": "17 Harbor Lane", "address2": "Unit 4", "city": "Portland",
               "state": "ME", "country": "USA", "zip": "04101"}
CHANGED_ADDRESS_FIELDS = (("address2", "Suite 900"), ("zip", "04101"))
CANCEL_REASONS = ("no longer needed", "ordered by mistake")
CABINS = ("basic_economy", "economy", "business")


def _others(values: Iterable, *excluded) -> list:
    return sorted(v for v in values if v not in excluded)


def _replaced(items: list, position: int, value: Any) -> list:
    return [value if i == position else item for i, item in enumerate(items)]


class RetailPerturbations:
    """Changed arguments and extra writes for retail, read from tau2's database."""

    def __init__(self, db):
        self.db = db
        self.product_of_item = {item_id: product for product in db.products.values()
                                for item_id in product.variants}

    def user_of(self, calls: list[Call]) -> str:
        users = self.db.users
        for _, arguments in calls:
            if arguments.get("user_id") in users:
                return arguments["user_id"]
            if arguments.get("order_id") in self.db.orders:
                return self.db.orders[arguments["order_id"]].user_id
            for user_id, user in sorted(users.items()):
                if user.email == arguments.get("email") or (
                        (user.name.first_name, user.name.last_name, user.address.zip)
                        == tuple(arguments.get(k) for k in ("first_name", "last_name", "zip"))):
                    return user_id
        return min(users)

    def _pending_orders(self, user_id: str, *excluded: str) -> list[str]:
        orders = self.db.orders
        return _others((o for o in self.db.users[user_id].orders
                        if o in orders and orders[o].status == "pending"), *excluded)

    def changes(self, name: str, arguments: dict) -> Iterator[dict]:
        order = self.db.orders.get(arguments.get("order_id"))
        user_id = order.user_id if order else arguments.get("user_id")
        user = self.db.users.get(user_id)
        if "payment_method_id" in arguments and user:
            for method in _others(user.payment_methods, arguments["payment_method_id"]):
                yield {**arguments, "payment_method_id": method}
        for position, new_item in enumerate(arguments.get("new_item_ids", ())):
            product = self.product_of_item.get(new_item)
            old_item = arguments["item_ids"][position]
            for variant in _others(product.variants if product else (), new_item, old_item):
                if product.variants[variant].available:
                    yield {**arguments,
                           "new_item_ids": _replaced(arguments["new_item_ids"], position, variant)}
        if name == "return_delivered_order_items" and order:
            item_ids = arguments["item_ids"]
            for item in _others((item.item_id for item in order.items), *item_ids):
                yield {**arguments, "item_ids": _replaced(item_ids, 0, item)}
            if len(item_ids) > 1:
                yield {**arguments, "item_ids": item_ids[:-1]}
        if "reason" in arguments:
            for reason in _others(CANCEL_REASONS, arguments["reason"]):
                yield {**arguments, "reason": reason}
        for key, value in CHANGED_ADDRESS_FIELDS:
            if key in arguments and arguments[key] != value:
                yield {**arguments, key: value}
        if name in ("cancel_pending_order", "modify_pending_order_address",
                    "modify_pending_order_payment") and order:
            for other in self._pending_orders(order.user_id, order.order_id):
                yield {**arguments, "order_id": other}

    def extras(self, user_id: str, calls: list[Call]) -> Iterator[Call]:
        touched = {arguments.get("order_id") for _, arguments in calls}
        for order_id in self._pending_orders(user_id, *touched):
            yield "cancel_pending_order", {"order_id": order_id, "reason": CANCEL_REASONS[0]}
        yield "modify_user_address", {"user_id": user_id, **NEW_ADDRESS}


class AirlinePerturbations:
    """Changed arguments and extra writes for airline, read from tau2's database."""

    def __init__(self, db):
        self.db = db

    def user_of(self, calls: list[Call]) -> str:
        for _, arguments in calls:
            if arguments.get("user_id") in self.db.users:
                return arguments["user_id"]
            if arguments.get("reservation_id") in self.db.reservations:
                return self.db.reservations[arguments["reservation_id"]].user_id
        return min(self.db.users)

    def _active_reservations(self, user_id: str, *excluded: str) -> list[str]:
        reservations = self.db.reservations
        return _others((r for r in self.db.users[user_id].reservations
                        if r in reservations and reservations[r].status != "cancelled"),
                       *excluded)

    def changes(self, name: str, arguments: dict) -> Iterator[dict]:
        reservation = self.db.reservations.get(arguments.get("reservation_id"))
        user = self.db.users.get(reservation.user_id if reservation
                                 else arguments.get("user_id"))
        if "payment_id" in arguments and user:
            for method in _others(user.payment_methods, arguments["payment_id"]):
                yield {**arguments, "payment_id": method}
        if arguments.get("payment_methods") and user:
            payments = arguments["payment_methods"]
            for method in _others(user.payment_methods, *(p["payment_id"] for p in payments)):
                yield {**arguments, "payment_methods": _replaced(
                    payments, 0, {**payments[0], "payment_id": method})}
        if "cabin" in arguments:
            for cabin in _others(CABINS, arguments["cabin"]):
                yield {**arguments, "cabin": cabin}
        if "total_baggages" in arguments:
            yield {**arguments, "total_baggages": arguments["total_baggages"] + 1,
                   "nonfree_baggages": arguments.get("nonfree_baggages", 0) + 1}
        if arguments.get("passengers"):
            first = arguments["passengers"][0]
            dob = "1990-01-01" if first.get("dob") != "1990-01-01" else "1991-01-01"
            yield {**arguments, "passengers": _replaced(arguments["passengers"], 0,
                                                        {**first, "dob": dob})}
        if "amount" in arguments:
            yield {**arguments, "amount": arguments["amount"] + 50}
        if "insurance" in arguments:
            yield {**arguments, "insurance": "no" if arguments["insurance"] == "yes" else "yes"}
        if reservation:
            for other in self._active_reservations(reservation.user_id,
                                                   reservation.reservation_id):
                yield {**arguments, "reservation_id": other}

    def extras(self, user_id: str, calls: list[Call]) -> Iterator[Call]:
        touched = {arguments.get("reservation_id") for _, arguments in calls}
        for reservation_id in self._active_reservations(user_id, *touched):
            yield "cancel_reservation", {"reservation_id": reservation_id}
        yield "send_certificate", {"user_id": user_id, "amount": 100}


# -- the domains ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Tau2Domain:
    name: str
    get_environment: Callable[..., Environment]
    db_path: Any
    tasks_path: Any
    perturbations: type


DOMAINS = {
    "retail": Tau2Domain("retail", retail_environment.get_environment, RETAIL_DB_PATH,
                         RETAIL_TASK_SET_PATH, RetailPerturbations),
    "airline": Tau2Domain("airline", airline_environment.get_environment, AIRLINE_DB_PATH,
                          AIRLINE_TASK_SET_PATH, AirlinePerturbations),
}
TASK_COUNTS = {"retail": 114, "airline": 50}
PERTURBATIONS = ("omit", "change", "extra")


@dataclass
class Trajectory:
    task_id: str
    kind: str
    calls: list[Call]
    messages: list[Message]
    perturbed: int | None = None  # index of the changed or added call
    tau2: bool = False
    ours: bool = False

    def __str__(self) -> str:
        return f"task {self.task_id} {self.kind}: tau2 db_match={self.tau2}, ours={self.ours}"


def _first_accepted(construct: Callable, options: Iterable[tuple[list[Call], int]]):
    """The first option (calls, index of the perturbed call) whose perturbed call tau2's
    tools accept, as (calls, messages, index); else the first option; None when there is
    none."""
    first = None
    for calls, index in options:
        messages = tau2_messages(construct(), calls)
        if accepted(messages, index):
            return calls, messages, index
        first = first or (calls, messages, index)
    return first


def build_trajectories(task_id: str, gold: list[Call], construct: Callable,
                       perturbations) -> list[Trajectory]:
    """The gold trajectory and its perturbations (see the module docstring)."""
    environment = construct()
    gold_messages = tau2_messages(environment, gold)
    writes = [i for i, (name, _) in enumerate(gold)
              if environment.tools.tool_type(name) == ToolType.WRITE]
    chosen: dict[str, Any] = {"gold": (gold, gold_messages)}
    if writes:
        omitted = next((i for i in writes if accepted(gold_messages, i)), writes[0])
        calls = gold[:omitted] + gold[omitted + 1:]
        chosen["omit"] = calls, tau2_messages(construct(), calls)
        chosen["change"] = _first_accepted(construct, (
            (gold[:i] + [(gold[i][0], changed)] + gold[i + 1:], i)
            for i in writes for changed in perturbations.changes(*gold[i])))
    user_id = perturbations.user_of(gold)
    chosen["extra"] = _first_accepted(construct, (
        (gold + [extra], len(gold)) for extra in perturbations.extras(user_id, gold)))
    return [Trajectory(task_id, kind, *pair) for kind, pair in chosen.items() if pair]


def gold_calls(task: Tau2Task) -> list[Call]:
    actions = task.evaluation_criteria.actions
    assert all(action.requestor == "assistant" for action in actions), task.id
    return [(action.name, dict(action.arguments)) for action in actions]


def our_db_match(box_template: Template, gold: GoldOutcome, calls: list[Call]) -> bool:
    with Sandbox(box_template) as box:
        for name, arguments in calls:
            box.call(name, deepcopy(arguments))
        return db_match(box.db, gold, box_template)


@dataclass
class Player:
    """One process's means to play a domain's tasks: tau2's database loaded once, its
    environment constructor over it, our template and the perturbations."""

    domain: Tau2Domain
    tasks: dict[str, Tau2Task]
    shared: Any
    construct: Callable
    template: Template
    perturbations: Any

    def play(self, task: Tau2Task) -> list[Trajectory]:
        gold = gold_calls(task)
        outcome = replay_gold(self.template, [{"name": n, "arguments": a} for n, a in gold])
        trajectories = build_trajectories(task.id, gold, self.construct, self.perturbations)
        for trajectory in trajectories:
            reward = EnvironmentEvaluator.calculate_reward(self.construct, task,
                                                           trajectory.messages)
            trajectory.tau2 = reward.db_check.db_match
            trajectory.ours = our_db_match(self.template, outcome, trajectory.calls)
        return trajectories

    def shared_is_unchanged(self) -> bool:
        return self.shared.get_hash() == self.domain.get_environment().get_db_hash()


def load_tasks(domain: Tau2Domain) -> list[Tau2Task]:
    with open(domain.tasks_path) as f:
        return [Tau2Task.model_validate(raw) for raw in json.load(f)]


@functools.cache
def player(name: str) -> Player:
    domain = DOMAINS[name]
    shared = domain.get_environment().tools.db
    return Player(domain, {task.id: task for task in load_tasks(domain)}, shared,
                  shared_constructor(domain.get_environment, shared),
                  template(name, 0, domain.db_path), domain.perturbations(shared))


def play_tasks(name: str, task_ids: list[str]) -> tuple[list[Trajectory], bool]:
    """Every trajectory of these tasks, scored, and whether the shared database is still
    the one tau2 loads."""
    this = player(name)
    trajectories = [t for task_id in task_ids for t in this.play(this.tasks[task_id])]
    return trajectories, this.shared_is_unchanged()


@dataclass
class Played:
    """Every trajectory of one domain, scored by tau2 and by us."""

    domain: Tau2Domain
    tasks: list[Tau2Task]
    trajectories: list[Trajectory]
    shared_unchanged: list[bool]


def silence_tau2() -> None:
    logger.disable("tau2")


WORKERS = min(2, os.cpu_count() or 1)
CHUNKS = 2 * WORKERS if WORKERS > 1 else 1


def play(name: str) -> Played:
    """Play a domain's tasks in chunks, on ``WORKERS`` processes (spawned: the test session
    may hold threads) when there are several cores."""
    tasks = load_tasks(DOMAINS[name])
    ids = [task.id for task in tasks]
    chunks = [ids[i::CHUNKS] for i in range(CHUNKS)]
    if WORKERS > 1:
        with ProcessPoolExecutor(WORKERS, mp_context=multiprocessing.get_context("spawn"),
                                 initializer=silence_tau2) as pool:
            results = list(pool.map(play_tasks, [name] * len(chunks), chunks))
    else:
        results = [play_tasks(name, chunk) for chunk in chunks]
        player.cache_clear()
    order = {task_id: i for i, task_id in enumerate(ids)}
    trajectories = sorted((t for found, _ in results for t in found),
                          key=lambda t: order[t.task_id])
    return Played(DOMAINS[name], tasks, trajectories, [same for _, same in results])


@pytest.fixture(scope="module")
def quiet_tau2():
    logger.disable("tau2")
    yield
    logger.enable("tau2")


@pytest.fixture(scope="module", params=sorted(DOMAINS))
def played(request, quiet_tau2) -> Played:
    return play(request.param)


# -- the tests ------------------------------------------------------------------------------


def test_db_match_agrees_with_tau2(played):
    disagreements = [str(t) for t in played.trajectories if t.tau2 != t.ours]
    assert not disagreements, (f"{played.domain.name}: {len(disagreements)} of "
                               f"{len(played.trajectories)} disagree:\n"
                               + "\n".join(disagreements))


def test_every_task_is_played(played):
    name = played.domain.name
    assert len(played.tasks) == TASK_COUNTS[name]
    assert all(task.initial_state is None for task in played.tasks)
    kinds = {}
    for trajectory in played.trajectories:
        kinds.setdefault(trajectory.task_id, []).append(trajectory.kind)
    assert sorted(kinds) == sorted(task.id for task in played.tasks)
    missing = [f"{task_id}: {found}" for task_id, found in kinds.items()
               if found not in (["gold", *PERTURBATIONS], ["gold", "extra"])]
    assert not missing, f"{name}: tasks without every perturbation:\n" + "\n".join(missing)


def test_perturbations_are_meaningful(played):
    """Every gold trajectory matches; tau2 rejects nearly every perturbation, and most
    perturbed calls are ones tau2's tools accept."""
    trajectories = played.trajectories
    verdicts = Counter((t.kind, t.tau2) for t in trajectories)
    print(f"\n{played.domain.name}: {len(trajectories)} trajectories, tau2 (kind, match): "
          f"{dict(sorted(verdicts.items()))}")
    assert not verdicts["gold", False], [str(t) for t in trajectories
                                         if t.kind == "gold" and not t.tau2]
    for kind in PERTURBATIONS:
        total = verdicts[kind, True] + verdicts[kind, False]
        assert verdicts[kind, False] >= 0.9 * total, (kind, verdicts)
    perturbed = [t for t in trajectories if t.kind != "gold"]
    assert sum(not t.tau2 for t in perturbed) >= 2 * len(played.tasks)
    changed = [t for t in perturbed if t.perturbed is not None]
    assert sum(accepted(t.messages, t.perturbed) for t in changed) >= 0.9 * len(changed)


def test_shared_database_is_unchanged_and_never_refused(played):
    assert all(played.shared_unchanged)
    refused = [str(t) for t in played.trajectories
               if any("CopyOnRead" in (m.content or "") for m in t.messages[1::2])]
    assert not refused


TABLE_SCANS = {"find_user_id_by_name_zip", "find_user_id_by_email", "list_all_product_types",
               "search_direct_flight", "search_onestop_flight"}


def test_shared_constructor_scores_like_tau2s_own(played):
    """On the first task with writes whose gold reads a whole table, tau2's own constructor
    (db.json loaded each time) gives the verdicts of the shared one."""
    task_id = next(t.task_id for t in played.trajectories
                   if t.kind == "omit" and TABLE_SCANS & {name for name, _ in t.calls})
    task = next(task for task in played.tasks if task.id == task_id)
    sampled = [t for t in played.trajectories if t.task_id == task_id]
    assert [t.kind for t in sampled] == ["gold", *PERTURBATIONS]
    for trajectory in sampled:
        reward = EnvironmentEvaluator.calculate_reward(played.domain.get_environment, task,
                                                       trajectory.messages)
        assert reward.db_check.db_match == trajectory.tau2, str(trajectory)


def test_copy_on_read_leaves_the_shared_entities_alone():
    shared = {"a": {"n": [1]}, "b": {"n": [2]}, "c": {"n": [3]}}
    table = CopyOnRead(shared, {key: pickle.dumps(value) for key, value in shared.items()})
    table["a"]["n"].append(10)
    for value in table.values():
        value["n"].append(20)
    for key, value in table.items():
        value["n"].append(30 + len(key))
    table.get("b")["n"].append(40)
    table["d"] = {"n": []}
    assert shared == {"a": {"n": [1]}, "b": {"n": [2]}, "c": {"n": [3]}}
    assert dict(table) == {"a": {"n": [1, 10, 20, 31]}, "b": {"n": [2, 20, 31, 40]},
                           "c": {"n": [3, 20, 31]}, "d": {"n": []}}
    assert len(table.items()) == 4 and table.get("e") is None
    for refused in (lambda: table.pop("a"), lambda: table.update({}), table.copy):
        with pytest.raises(NotImplementedError):
            refused()
