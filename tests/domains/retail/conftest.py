"""Shared fixtures of the retail tests.

- ``tiny_data`` / ``tiny_template``: a small hand-written tau2-shaped database (independent of
  the generator) covering every order status, duplicate order lines, gift cards, an order line
  of an unknown product and a user with a non-ASCII email.
- ``tau2_db_path`` / ``tau2_tasks``: tau2's shipped files (tests skip when they are absent).
- ``reference``: a plain-dict model of the retail tools written literally from the spec
  (section 2), used as an independent oracle for state after write calls.
"""

from __future__ import annotations

import copy
import json
import warnings
from pathlib import Path

import pytest

from tool_gym.core.sandbox import Template

from ..databases import hand_written

REPO = Path(__file__).resolve().parents[3]
TAU2_DIR = REPO.parent / "shared" / "data" / "tau2" / "retail"

OPTIONAL_ORDER_FIELDS = (
    "cancel_reason",
    "exchange_items",
    "exchange_new_items",
    "exchange_payment_method_id",
    "exchange_price_difference",
    "return_items",
    "return_payment_method_id",
)


def _address(a1, a2, city, country, state, zip_):
    return {"address1": a1, "address2": a2, "city": city, "country": country, "state": state,
            "zip": zip_}


AUSTIN = _address("1 Elm St", "Apt 2", "Austin", "USA", "TX", "73301")
NYC = _address("5 Park Ave", "", "New York", "USA", "NY", "10001")
PARIS = _address("3 Rue de Rivoli", "", "Paris", "France", "IDF", "75001")

LAMP_WHITE_LED = {"color": "white", "bulb": "LED"}
LAMP_BLACK_LED = {"color": "black", "bulb": "LED"}
LAMP_BLACK_HALOGEN = {"color": "black", "bulb": "halogen"}
LAMP_WHITE_HALOGEN = {"color": "white", "bulb": "halogen"}
SHIRT_RED_S = {"color": "red", "size": "S"}
SHIRT_RED_M = {"color": "red", "size": "M"}
SHIRT_BLUE_S = {"color": "blue", "size": "S"}
SHIRT_BLUE_M = {"color": "blue", "size": "M"}


def _variant(item_id, options, available, price):
    return {"item_id": item_id, "options": options, "available": available, "price": price}


def _item(name, product_id, item_id, price, options):
    return {"name": name, "product_id": product_id, "item_id": item_id, "price": price,
            "options": options}


def _lamp(item_id, price, options):
    return _item("Desk Lamp", "1000000001", item_id, price, options)


def _shirt(item_id, price, options):
    return _item("T-Shirt", "1000000002", item_id, price, options)


def _pay(amount, method, kind="payment"):
    return {"transaction_type": kind, "amount": amount, "payment_method_id": method}


def _order(order_id, user_id, address, items, status, fulfillments, payments):
    return {"order_id": order_id, "user_id": user_id, "address": address, "items": items,
            "status": status, "fulfillments": fulfillments, "payment_history": payments}


def make_tiny_data() -> dict:
    """A fresh copy of the tiny tau2-shaped database."""
    products = {
        "1000000001": {"name": "Desk Lamp", "product_id": "1000000001", "variants": {
            "2000000001": _variant("2000000001", LAMP_WHITE_LED, True, 31.5),
            "2000000002": _variant("2000000002", LAMP_BLACK_LED, False, 33.25),
            "2000000003": _variant("2000000003", LAMP_BLACK_HALOGEN, True, 29.99),
            "2000000004": _variant("2000000004", LAMP_WHITE_HALOGEN, True, 35.1),
        }},
        "1000000002": {"name": "T-Shirt", "product_id": "1000000002", "variants": {
            "2000000011": _variant("2000000011", SHIRT_RED_S, True, 19.99),
            "2000000012": _variant("2000000012", SHIRT_RED_M, True, 21.49),
            "2000000013": _variant("2000000013", SHIRT_BLUE_S, True, 18.75),
            "2000000014": _variant("2000000014", SHIRT_BLUE_M, False, 22.0),
            "2000000015": _variant("2000000015", {"color": "green", "size": "S"}, True, 19.99),
        }},
        "1000000003": {"name": "Bookshelf", "product_id": "1000000003", "variants": {
            "2000000021": _variant("2000000021", {"material": "oak"}, True, 120.0),
        }},
    }
    users = {
        "ada_moss_1234": {
            "user_id": "ada_moss_1234", "name": {"first_name": "Ada", "last_name": "Moss"},
            "address": dict(AUSTIN), "email": "ada.moss@example.com",
            "payment_methods": {
                "gift_card_1111111": {"source": "gift_card", "id": "gift_card_1111111",
                                      "balance": 20.0},
                "credit_card_2222222": {"source": "credit_card", "id": "credit_card_2222222",
                                        "brand": "visa", "last_four": "4242"},
                "paypal_3333333": {"source": "paypal", "id": "paypal_3333333"},
            },
            "orders": ["#W9000001", "#W9000002", "#W9000003", "#W9000004", "#W9000005",
                       "#W9000008", "#W9000009"],
        },
        "bob_stone_5678": {
            "user_id": "bob_stone_5678", "name": {"first_name": "Bob", "last_name": "Stone"},
            "address": dict(NYC), "email": "Bob.Stone@Example.COM",
            "payment_methods": {
                "paypal_4444444": {"source": "paypal", "id": "paypal_4444444"},
                "gift_card_5555555": {"source": "gift_card", "id": "gift_card_5555555",
                                      "balance": 5.0},
            },
            "orders": ["#W9000006", "#W9000007"],
        },
        # Same name and zip as ada_moss_1234, later in file order: never found by name/zip.
        "ada_moss_9999": {
            "user_id": "ada_moss_9999", "name": {"first_name": "ADA", "last_name": "moss"},
            "address": dict(AUSTIN), "email": "ada.moss.2@example.com",
            "payment_methods": {}, "orders": [],
        },
        "elise_durand_4321": {
            "user_id": "elise_durand_4321",
            "name": {"first_name": "Élise", "last_name": "Durand"},
            "address": dict(PARIS), "email": "ÉLISE.DURAND@example.com",
            "payment_methods": {
                "credit_card_6666666": {"source": "credit_card", "id": "credit_card_6666666",
                                        "brand": "mastercard", "last_four": "0005"},
            },
            "orders": [],
        },
    }

    def fulfilled(*ids):
        return [{"tracking_id": ["123456789012"], "item_ids": list(ids)}]

    orders = {
        "#W9000001": _order("#W9000001", "ada_moss_1234", dict(AUSTIN), [
            _lamp("2000000001", 31.5, LAMP_WHITE_LED),
            _shirt("2000000011", 19.99, SHIRT_RED_S),
            _shirt("2000000011", 19.99, SHIRT_RED_S),
        ], "pending", [], [_pay(71.48, "credit_card_2222222")]),
        "#W9000002": _order("#W9000002", "ada_moss_1234", dict(AUSTIN), [
            _lamp("2000000003", 29.99, LAMP_BLACK_HALOGEN),
            _shirt("2000000012", 21.49, SHIRT_RED_M),
            _shirt("2000000012", 21.49, SHIRT_RED_M),
        ], "delivered", fulfilled("2000000003", "2000000012", "2000000012"),
            [_pay(72.97, "gift_card_1111111")]),
        "#W9000003": _order("#W9000003", "ada_moss_1234", dict(AUSTIN), [
            _shirt("2000000013", 18.75, SHIRT_BLUE_S),
        ], "processed", fulfilled("2000000013"), [_pay(18.75, "paypal_3333333")]),
        "#W9000004": _order("#W9000004", "ada_moss_1234", dict(AUSTIN), [
            _lamp("2000000001", 31.5, LAMP_WHITE_LED),
        ], "cancelled", [], [_pay(31.5, "credit_card_2222222"),
                             _pay(31.5, "credit_card_2222222", "refund")]),
        "#W9000005": _order("#W9000005", "ada_moss_1234", dict(AUSTIN), [
            _shirt("2000000012", 21.49, SHIRT_RED_M),
        ], "pending", [], [_pay(21.49, "gift_card_1111111")]),
        "#W9000006": _order("#W9000006", "bob_stone_5678", dict(NYC), [
            _lamp("2000000003", 29.99, LAMP_BLACK_HALOGEN),
        ], "pending", [], [_pay(29.99, "paypal_4444444")]),
        "#W9000007": _order("#W9000007", "bob_stone_5678", dict(NYC), [
            _shirt("2000000011", 19.99, SHIRT_RED_S),
        ], "delivered", fulfilled("2000000011"), [_pay(19.99, "gift_card_5555555")]),
        # A line whose product is not in the catalogue (soft reference).
        "#W9000008": _order("#W9000008", "ada_moss_1234", dict(AUSTIN), [
            _item("Mystery Box", "1000000099", "2000000099", 10.0, {"size": "one"}),
        ], "pending", [], [_pay(10.0, "credit_card_2222222")]),
        # Two variants of the same product on separate lines.
        "#W9000009": _order("#W9000009", "ada_moss_1234", dict(AUSTIN), [
            _shirt("2000000011", 19.99, SHIRT_RED_S),
            _shirt("2000000012", 21.49, SHIRT_RED_M),
        ], "pending", [], [_pay(41.48, "credit_card_2222222")]),
    }
    return {"products": products, "users": users, "orders": orders}


def with_optional_fields(data: dict) -> dict:
    """A deep copy of tau2-shaped data with the optional order fields present (null)."""
    out = copy.deepcopy(data)
    for order in out["orders"].values():
        for key in OPTIONAL_ORDER_FIELDS:
            order.setdefault(key, None)
    return out


@pytest.fixture(scope="session")
def tiny_template() -> Template:
    return hand_written("retail", make_tiny_data(), "tiny-test-fixture")


@pytest.fixture
def tiny_data() -> dict:
    """The tiny database as tau2-shaped data (optional order fields present as null)."""
    return with_optional_fields(make_tiny_data())


# --------------------------------------------------------------------------- tau2 data


@pytest.fixture(scope="session")
def tau2_dir() -> Path:
    if not (TAU2_DIR / "db.json").is_file():
        pytest.skip(f"tau2 retail data not found at {TAU2_DIR}")
    return TAU2_DIR


@pytest.fixture(scope="session")
def tau2_db_path(tau2_dir) -> Path:
    return tau2_dir / "db.json"


@pytest.fixture(scope="session")
def tau2_db_text(tau2_db_path) -> str:
    return tau2_db_path.read_text(encoding="utf-8")


@pytest.fixture(scope="session")
def tau2_tasks(tau2_dir) -> list[dict]:
    path = tau2_dir / "tasks.json"
    if not path.is_file():
        pytest.skip(f"tau2 retail tasks not found at {path}")
    return json.loads(path.read_text(encoding="utf-8"))


# ---------------------------------------------------------------------- reference model


def write_arguments(name: str, order_id, user_id, reason, item_ids, new_item_ids, method,
                    address: dict) -> dict:
    """The arguments of the retail write tool ``name``, made of these values."""
    return {
        "cancel_pending_order": {"order_id": order_id, "reason": reason},
        "modify_pending_order_address": {"order_id": order_id, **address},
        "modify_pending_order_payment": {"order_id": order_id, "payment_method_id": method},
        "modify_pending_order_items": {"order_id": order_id, "item_ids": item_ids,
                                       "new_item_ids": new_item_ids,
                                       "payment_method_id": method},
        "modify_user_address": {"user_id": user_id, **address},
        "return_delivered_order_items": {"order_id": order_id, "item_ids": item_ids,
                                         "payment_method_id": method},
        "exchange_delivered_order_items": {"order_id": order_id, "item_ids": item_ids,
                                           "new_item_ids": new_item_ids,
                                           "payment_method_id": method},
    }[name]


class RefError(Exception):
    pass


class RetailReference:
    """The retail tools on plain tau2-shaped dicts, transcribed from spec section 2.

    ``call(name, args)`` returns ``(ok, result)`` and mutates ``self.data`` like tau2 does.
    Deliberately naive (lists and dicts, no SQL) so that it is an independent oracle.
    """

    WRITES = ("cancel_pending_order", "modify_pending_order_address",
              "modify_pending_order_payment", "modify_pending_order_items",
              "modify_user_address", "return_delivered_order_items",
              "exchange_delivered_order_items")

    def __init__(self, data: dict):
        """Takes ownership of ``data`` (pass a fresh copy) and adds the optional fields."""
        self.data = data
        for order in data["orders"].values():
            for key in OPTIONAL_ORDER_FIELDS:
                order.setdefault(key, None)

    def call(self, name: str, args: dict):
        try:
            return True, getattr(self, name)(**args)
        except RefError as error:
            return False, str(error)

    # lookups
    def _order(self, order_id):
        if order_id not in self.data["orders"]:
            raise RefError("order not found")
        return self.data["orders"][order_id]

    def _user(self, user_id):
        if user_id not in self.data["users"]:
            raise RefError("user not found")
        return self.data["users"][user_id]

    def _variant(self, product_id, item_id):
        if product_id not in self.data["products"]:
            raise RefError("product not found")
        variants = self.data["products"][product_id]["variants"]
        if item_id not in variants:
            raise RefError("variant not found")
        return variants[item_id]

    def _method(self, user_id, method_id):
        methods = self._user(user_id)["payment_methods"]
        if method_id not in methods:
            raise RefError("payment method not found")
        return methods[method_id]

    @staticmethod
    def _multiset(order, item_ids):
        lines = [item["item_id"] for item in order["items"]]
        for x in item_ids:
            if item_ids.count(x) > lines.count(x):
                raise RefError(f"{x} not found")

    # reads
    def find_user_id_by_email(self, email):
        for user_id, user in self.data["users"].items():
            if user["email"].lower() == email.lower():
                return user_id
        raise RefError("user not found")

    def find_user_id_by_name_zip(self, first_name, last_name, zip):
        for user_id, user in self.data["users"].items():
            if (user["name"]["first_name"].lower() == first_name.lower()
                    and user["name"]["last_name"].lower() == last_name.lower()
                    and user["address"]["zip"] == zip):
                return user_id
        raise RefError("user not found")

    def get_user_details(self, user_id):
        return self._user(user_id)

    def get_order_details(self, order_id):
        return self._order(order_id)

    def get_product_details(self, product_id):
        if product_id not in self.data["products"]:
            raise RefError("product not found")
        return self.data["products"][product_id]

    def get_item_details(self, item_id):
        for product in self.data["products"].values():
            if item_id in product["variants"]:
                return product["variants"][item_id]
        raise RefError("item not found")

    def list_all_product_types(self):
        return json.dumps({p["name"]: p["product_id"] for p in self.data["products"].values()},
                          sort_keys=True)

    def calculate(self, expression):
        if not all(c in "0123456789+-*/(). " for c in expression):
            raise RefError("invalid characters")
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", SyntaxWarning)  # e.g. "(1)(2)"
                return str(round(float(eval(expression, {"__builtins__": None}, {})), 2))
        except Exception as error:  # noqa: BLE001 - any evaluation failure is an error
            raise RefError(str(error)) from None

    def transfer_to_human_agents(self, summary):
        return "Transfer successful"

    # writes
    def cancel_pending_order(self, order_id, reason):
        order = self._order(order_id)
        if order["status"] != "pending":
            raise RefError("not pending")
        if reason not in ("no longer needed", "ordered by mistake"):
            raise RefError("invalid reason")
        refunds = []
        for entry in order["payment_history"]:
            refunds.append({"transaction_type": "refund", "amount": entry["amount"],
                            "payment_method_id": entry["payment_method_id"]})
            method = self._method(order["user_id"], entry["payment_method_id"])
            if method["source"] == "gift_card":
                method["balance"] = round(method["balance"] + entry["amount"], 2)
        order["status"] = "cancelled"
        order["cancel_reason"] = reason
        order["payment_history"].extend(refunds)
        return order

    def modify_pending_order_address(self, order_id, address1, address2, city, state, country,
                                     zip):
        order = self._order(order_id)
        if "pending" not in order["status"]:
            raise RefError("not pending")
        order["address"] = _address(address1, address2, city, country, state, zip)
        return order

    def modify_pending_order_payment(self, order_id, payment_method_id):
        order = self._order(order_id)
        if "pending" not in order["status"]:
            raise RefError("not pending")
        method = self._method(order["user_id"], payment_method_id)
        history = order["payment_history"]
        if len(history) != 1 or history[0]["transaction_type"] != "payment":
            raise RefError("exactly one payment")
        if history[0]["payment_method_id"] == payment_method_id:
            raise RefError("same method")
        amount = history[0]["amount"]
        if method["source"] == "gift_card" and method["balance"] < amount:
            raise RefError("insufficient")
        old = self._method(order["user_id"], history[0]["payment_method_id"])
        history.append(_pay(amount, payment_method_id))
        history.append(_pay(amount, history[0]["payment_method_id"], "refund"))
        if method["source"] == "gift_card":
            method["balance"] = round(method["balance"] - amount, 2)
        if old["source"] == "gift_card":
            old["balance"] = round(old["balance"] + amount, 2)
        return order

    def modify_pending_order_items(self, order_id, item_ids, new_item_ids, payment_method_id):
        order = self._order(order_id)
        if order["status"] != "pending":
            raise RefError("not pending")
        self._multiset(order, item_ids)
        if len(item_ids) != len(new_item_ids):
            raise RefError("length")
        diff = 0
        variant = None
        for old, new in zip(item_ids, new_item_ids):
            if old == new:
                raise RefError("same item")
            line = next(item for item in order["items"] if item["item_id"] == old)
            variant = self._variant(line["product_id"], new)
            if not variant["available"]:
                raise RefError("not available")
            diff = diff + (variant["price"] - line["price"])
        method = self._method(order["user_id"], payment_method_id)
        if method["source"] == "gift_card" and method["balance"] < diff:
            raise RefError("insufficient")
        order["payment_history"].append(
            _pay(float(abs(diff)), payment_method_id, "payment" if diff > 0 else "refund"))
        if method["source"] == "gift_card":
            method["balance"] = round(method["balance"] - diff, 2)
        for old, new in zip(item_ids, new_item_ids):
            line = next(item for item in order["items"] if item["item_id"] == old)
            line["item_id"] = new
            line["price"] = variant["price"]
            line["options"] = dict(variant["options"])
        order["status"] = "pending (item modified)"
        return order

    def modify_user_address(self, user_id, address1, address2, city, state, country, zip):
        user = self._user(user_id)
        user["address"] = _address(address1, address2, city, country, state, zip)
        return user

    def return_delivered_order_items(self, order_id, item_ids, payment_method_id):
        order = self._order(order_id)
        if order["status"] != "delivered":
            raise RefError("not delivered")
        method = self._method(order["user_id"], payment_method_id)
        if (method["source"] != "gift_card"
                and payment_method_id != order["payment_history"][0]["payment_method_id"]):
            raise RefError("not original")
        self._multiset(order, item_ids)
        order["status"] = "return requested"
        order["return_items"] = sorted(item_ids)
        order["return_payment_method_id"] = payment_method_id
        return order

    def exchange_delivered_order_items(self, order_id, item_ids, new_item_ids,
                                       payment_method_id):
        order = self._order(order_id)
        if order["status"] != "delivered":
            raise RefError("not delivered")
        self._multiset(order, item_ids)
        if len(item_ids) != len(new_item_ids):
            raise RefError("length")
        diff = 0
        for old, new in zip(item_ids, new_item_ids):
            line = next(item for item in order["items"] if item["item_id"] == old)
            variant = self._variant(line["product_id"], new)
            if not variant["available"]:
                raise RefError("not available")
            diff = diff + (variant["price"] - line["price"])
        diff = round(diff, 2)
        method = self._method(order["user_id"], payment_method_id)
        if method["source"] == "gift_card" and method["balance"] < diff:
            raise RefError("insufficient")
        order["status"] = "exchange requested"
        order["exchange_items"] = sorted(item_ids)
        order["exchange_new_items"] = sorted(new_item_ids)
        order["exchange_payment_method_id"] = payment_method_id
        order["exchange_price_difference"] = diff
        return order


@pytest.fixture(scope="session")
def reference():
    """The reference model class: ``reference(data).call(name, args) -> (ok, result)``."""
    return RetailReference


def canonical(value) -> str:
    """The canonical JSON text of a state (what ``Sandbox.state_hash`` hashes)."""
    return json.dumps(value, sort_keys=True)


@pytest.fixture(scope="session")
def canonical_json():
    return canonical
