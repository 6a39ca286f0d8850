"""The 16 retail tools on a tiny hand-written database (spec section 2).

Every success path, every error path in the spec's check order, the quirks of section 2.4,
the toolbox's argument validation, and that failed calls change nothing.
"""

from __future__ import annotations

import json

import pytest

from tool_gym.core.tools import MAX_STRING, Category
from tool_gym.domains.retail import DOMAIN, tools
from tool_gym.domains.retail.invariants import invariants

from ..calls import fails, ok
from .conftest import (
    AUSTIN,
    LAMP_WHITE_HALOGEN,
    SHIRT_BLUE_S,
    SHIRT_RED_M,
    make_tiny_data,
    with_optional_fields,
    write_arguments,
)

NEW_ADDRESS = {"address1": "  9 Oak Rd ", "address2": "", "city": "Dallas", "state": "TX",
               "country": "USA", "zip": "75001"}
STORED_NEW_ADDRESS = {"address1": "  9 Oak Rd ", "address2": "", "city": "Dallas",
                      "country": "USA", "state": "TX", "zip": "75001"}


def run(sb, name, **args):
    return sb.call(name, args)


def order(sb, order_id):
    return ok(sb, "get_order_details", order_id=order_id)


def balance(sb, user_id, method_id):
    return ok(sb, "get_user_details", user_id=user_id)["payment_methods"][method_id]["balance"]


# ------------------------------------------------------------------------- the toolbox

EXPECTED_SIGNATURES = {
    "find_user_id_by_email": (Category.READ, ["email"]),
    "find_user_id_by_name_zip": (Category.READ, ["first_name", "last_name", "zip"]),
    "get_user_details": (Category.READ, ["user_id"]),
    "get_order_details": (Category.READ, ["order_id"]),
    "get_product_details": (Category.READ, ["product_id"]),
    "get_item_details": (Category.READ, ["item_id"]),
    "list_all_product_types": (Category.READ, []),
    "calculate": (Category.GENERIC, ["expression"]),
    "transfer_to_human_agents": (Category.GENERIC, ["summary"]),
    "cancel_pending_order": (Category.WRITE, ["order_id", "reason"]),
    "modify_pending_order_address": (Category.WRITE, ["order_id", "address1", "address2",
                                                      "city", "state", "country", "zip"]),
    "modify_pending_order_payment": (Category.WRITE, ["order_id", "payment_method_id"]),
    "modify_pending_order_items": (Category.WRITE, ["order_id", "item_ids", "new_item_ids",
                                                    "payment_method_id"]),
    "modify_user_address": (Category.WRITE, ["user_id", "address1", "address2", "city",
                                             "state", "country", "zip"]),
    "return_delivered_order_items": (Category.WRITE, ["order_id", "item_ids",
                                                      "payment_method_id"]),
    "exchange_delivered_order_items": (Category.WRITE, ["order_id", "item_ids",
                                                        "new_item_ids", "payment_method_id"]),
}

ENTITY_OF_PARAM = {"user_id": "user_id", "order_id": "order_id", "product_id": "product_id",
                   "item_id": "item_id", "item_ids": "item_id", "new_item_ids": "item_id",
                   "payment_method_id": "payment_method_id"}


def test_sixteen_tools_with_tau2_signatures():
    box = DOMAIN.toolbox
    assert sorted(box.names) == sorted(EXPECTED_SIGNATURES)
    for name, (category, params) in EXPECTED_SIGNATURES.items():
        t = box[name]
        assert t.category is category, name
        assert list(t.parameters["properties"]) == params, name
        assert t.required == params, name  # every parameter required, none has a default
        for p, schema in t.parameters["properties"].items():
            expected = ({"array"} if p in ("item_ids", "new_item_ids") else {"string"})
            assert {schema["type"]} == expected, (name, p)
            if schema["type"] == "array":
                assert schema["items"]["type"] == "string"
            assert schema.get("description"), (name, p)
            assert "default" not in schema
            if p in ENTITY_OF_PARAM:
                assert t.input_entities[p] == ENTITY_OF_PARAM[p], (name, p)
        assert len(t.description) > 30, name
        assert "Args:" not in t.description
        if category is Category.WRITE:
            assert t.writes, name
        else:
            assert not t.writes, name
    assert box["find_user_id_by_email"].output_entities == {".": "user_id"}
    assert box["get_order_details"].output_entities["items.item_id"] == "item_id"
    assert box["get_user_details"].output_entities["orders"] == "order_id"
    assert box["get_user_details"].output_entities["payment_methods"] == "payment_method_id"
    assert box["modify_user_address"].writes == ("user_id",)
    for name in ("modify_pending_order_payment", "modify_pending_order_items",
                 "cancel_pending_order"):
        assert "payment_method_id" in box[name].writes  # gift card balances change


def test_reason_is_a_plain_string_in_the_schema():
    schema = DOMAIN.toolbox["cancel_pending_order"].parameters["properties"]["reason"]
    assert schema["type"] == "string" and "enum" not in schema


def test_domain_description(tiny_sandbox):
    assert DOMAIN.name == "retail" and DOMAIN.canonical == "tau2"
    assert "tau2" in DOMAIN.exporters
    assert "YOU ARE BEING TRANSFERRED TO A HUMAN AGENT. PLEASE HOLD ON." in DOMAIN.policy
    assert len(tiny_sandbox.tools) == 16


# ------------------------------------------------------------------------------- READ


def test_find_user_id_by_email(tiny_sandbox):
    sb = tiny_sandbox
    assert ok(sb, "find_user_id_by_email", email="ada.moss@example.com") == "ada_moss_1234"
    assert ok(sb, "find_user_id_by_email", email="ADA.Moss@Example.com") == "ada_moss_1234"
    assert ok(sb, "find_user_id_by_email", email="bob.stone@example.com") == "bob_stone_5678"
    # Non-ASCII case folding follows Python's str.lower() on both sides.
    assert ok(sb, "find_user_id_by_email", email="élise.durand@EXAMPLE.com") == \
        "elise_durand_4321"
    assert ok(sb, "find_user_id_by_email", email="ÉLISE.DURAND@example.com") == \
        "elise_durand_4321"
    result = run(sb, "find_user_id_by_email", email="ada.moss@example.com ")
    assert result.content.startswith("Error: ") and "user not found" in result.content.lower()
    fails(sb, "find_user_id_by_email", "user not found", email="nobody@example.com")
    fails(sb, "find_user_id_by_email", "user not found", email="")
    # The plain string is returned as is (no JSON quotes).
    assert run(sb, "find_user_id_by_email", email="ada.moss@example.com").content == \
        "ada_moss_1234"


def test_find_user_id_by_name_zip(tiny_sandbox):
    sb = tiny_sandbox
    find = "find_user_id_by_name_zip"
    # Two users match ignoring case; the first in file order wins.
    assert ok(sb, find, first_name="ada", last_name="MOSS", zip="73301") == "ada_moss_1234"
    assert ok(sb, find, first_name="Bob", last_name="Stone", zip="10001") == "bob_stone_5678"
    assert ok(sb, find, first_name="élise", last_name="durand", zip="75001") == \
        "elise_durand_4321"
    fails(sb, find, "user not found", first_name="Ada", last_name="Moss", zip="73302")
    fails(sb, find, "user not found", first_name="Ada", last_name="Moss", zip=" 73301")
    fails(sb, find, "user not found", first_name="Ada ", last_name="Moss", zip="73301")
    fails(sb, find, "user not found", first_name="Bob", last_name="Moss", zip="10001")


def test_find_user_id_by_name_zip_uses_the_current_zip(tiny_sandbox):
    sb = tiny_sandbox
    ok(sb, "modify_user_address", user_id="ada_moss_1234", **NEW_ADDRESS)
    assert ok(sb, "find_user_id_by_name_zip", first_name="Ada", last_name="Moss",
              zip="73301") == "ada_moss_9999"
    assert ok(sb, "find_user_id_by_name_zip", first_name="Ada", last_name="Moss",
              zip="75001") == "ada_moss_1234"


def test_get_user_details(tiny_sandbox, tiny_data):
    sb = tiny_sandbox
    for user_id, user in tiny_data["users"].items():
        result = run(sb, "get_user_details", user_id=user_id)
        assert result.ok
        # Same records, same key order (tau2 declaration order), same float formatting.
        assert result.content == json.dumps(user, ensure_ascii=False)
    user = ok(sb, "get_user_details", user_id="ada_moss_1234")
    assert list(user) == ["user_id", "name", "address", "email", "payment_methods", "orders"]
    assert list(user["address"]) == ["address1", "address2", "city", "country", "state", "zip"]
    assert list(user["payment_methods"]) == ["gift_card_1111111", "credit_card_2222222",
                                             "paypal_3333333"]
    assert list(user["payment_methods"]["credit_card_2222222"]) == ["source", "id", "brand",
                                                                   "last_four"]
    fails(sb, "get_user_details", "user not found", user_id="ada_moss_123")
    fails(sb, "get_user_details", "user not found", user_id="ADA_MOSS_1234")


def test_get_order_details(tiny_sandbox, tiny_data):
    sb = tiny_sandbox
    for order_id, record in tiny_data["orders"].items():
        result = run(sb, "get_order_details", order_id=order_id)
        assert result.ok
        assert result.content == json.dumps(record, ensure_ascii=False)
    record = order(sb, "#W9000001")
    assert list(record) == ["order_id", "user_id", "address", "items", "status", "fulfillments",
                            "payment_history", "cancel_reason", "exchange_items",
                            "exchange_new_items", "exchange_payment_method_id",
                            "exchange_price_difference", "return_items",
                            "return_payment_method_id"]
    assert list(record["items"][0]) == ["name", "product_id", "item_id", "price", "options"]
    assert list(order(sb, "#W9000002")["fulfillments"][0]) == ["tracking_id", "item_ids"]
    fails(sb, "get_order_details", "order not found", order_id="W9000001")
    fails(sb, "get_order_details", "order not found", order_id="#w9000001")
    fails(sb, "get_order_details", "order not found", order_id="9000001")


def test_get_product_and_item_details(tiny_sandbox, tiny_data):
    sb = tiny_sandbox
    for pid, product in tiny_data["products"].items():
        assert run(sb, "get_product_details", product_id=pid).content == \
            json.dumps(product, ensure_ascii=False)
        for item_id, variant in product["variants"].items():
            assert run(sb, "get_item_details", item_id=item_id).content == \
                json.dumps(variant, ensure_ascii=False)
    item = ok(sb, "get_item_details", item_id="2000000002")
    assert item["available"] is False and list(item) == ["item_id", "options", "available",
                                                          "price"]
    fails(sb, "get_product_details", "product not found", product_id="2000000001")
    fails(sb, "get_product_details", "product not found", product_id="1000000099")
    fails(sb, "get_item_details", "item not found", item_id="1000000001")
    fails(sb, "get_item_details", "item not found", item_id="2000000099")


def test_list_all_product_types(tiny_sandbox):
    result = run(tiny_sandbox, "list_all_product_types")
    assert result.ok
    assert result.content == \
        '{"Bookshelf": "1000000003", "Desk Lamp": "1000000001", "T-Shirt": "1000000002"}'
    assert tiny_sandbox.call("list_all_product_types").ok  # arguments default to {}


# ---------------------------------------------------------------------------- GENERIC


@pytest.mark.parametrize("expression, expected", [
    ("2 + 2", "4.0"),
    (" 1 + 2", "3.0"),
    ("(31.5 + 19.99) * 2", "102.98"),
    ("10 / 4", "2.5"),
    ("7 // 2", "3.0"),
    ("2 ** 10", "1024.0"),
    ("2 ** -1", "0.5"),
    ("-(3 - 5)", "2.0"),
    ("--1", "1.0"),
    ("+-+1", "-1.0"),
    ("1.005 * 1000", "1005.0"),
    ("2.675", "2.67"),
    ("1/3", "0.33"),
    ("0.1 + 0.2", "0.3"),
    ("1.", "1.0"),
    (".5", "0.5"),
    ("(2 ** 1000) // (2 ** 990)", "1024.0"),
    ("10.0 ** 308 * 10", "inf"),
    ("10.0 ** 308 * 10 - 10.0 ** 308 * 10", "nan"),
    ("+".join(["1"] * 2000), "2000.0"),
    ("-9 ** 9999 * 0", "0.0"),  # a 31,700-bit intermediate is still computed
    ("(9 ** 9999) // (9 ** 9998)", "9.0"),
])
def test_calculate(tiny_sandbox, expression, expected, reference):
    assert run(tiny_sandbox, "calculate", expression=expression).content == expected
    # Same answer as tau2's eval-based implementation.
    assert reference(make_tiny_data()).call("calculate", {"expression": expression}) == \
        (True, expected)


@pytest.mark.parametrize("expression", [
    "", " ", "1 +", "()", "(1)(2)", "1 2", "...", "1 / 0", "1 // 0", "0.0 ** -1", "01",
    "10 ** 400", "10.0 ** 400", "(-8) ** 0.5", "2 ** 2 ** 2 ** 2 ** 2", "(" * 201 + "1" + ")" * 201,
])
def test_calculate_errors(tiny_sandbox, expression, reference):
    result = run(tiny_sandbox, "calculate", expression=expression)
    assert not result.ok and result.content.startswith("Error: ")
    assert reference(make_tiny_data()).call("calculate", {"expression": expression})[0] is False


@pytest.mark.parametrize("expression", [
    "2 ** 100001 // 2 ** 99990",  # tau2 would answer 2048.0 after computing a 100k-bit int
    "+".join(["9 ** 30000 // 9 ** 29999"] * 20),  # 180.0 in tau2; too much work in total
])
def test_calculate_refuses_giant_integers_even_when_tau2_would_not(tiny_sandbox, expression):
    result = run(tiny_sandbox, "calculate", expression=expression)
    assert not result.ok and result.content.startswith("Error: ")


@pytest.mark.parametrize("expression", [
    "__import__('os')", "abs(-1)", "1e5", "1_000", "x", "2 % 3", "1, 2", "[1]", "1 if 1 else 2",
    "0x10", "1 < 2", "lambda: 1", "(1).real", "1 .real", "'1'", "\t1",
])
def test_calculate_rejects_anything_but_arithmetic(tiny_sandbox, expression):
    result = run(tiny_sandbox, "calculate", expression=expression)
    assert not result.ok
    assert "invalid" in result.content.lower()


@pytest.mark.parametrize("expression", ["9**9**9", "9 ** 9 ** 9 ** 9", "(10 ** 10) ** (10 ** 10)",
                                        "2 ** 9999999 * 2", "99999 ** 99999 // 7"])
def test_calculate_refuses_huge_powers(tiny_sandbox, expression):
    result = run(tiny_sandbox, "calculate", expression=expression)
    assert not result.ok and "too large" in result.content


def test_calculate_evaluator_has_no_eval():
    from tool_gym.core import arithmetic
    for module in (tools, arithmetic):
        source = open(module.__file__, encoding="utf-8").read()
        assert "eval(" not in source.replace("_evaluate(", "")


def test_transfer_to_human_agents(tiny_sandbox):
    sb = tiny_sandbox
    before = sb.state_hash()
    result = run(sb, "transfer_to_human_agents", summary="User wants a refund to a new card.")
    assert result.ok and result.content == "Transfer successful"
    assert sb.state_hash() == before


# ------------------------------------------------------------------------------ cancel


def test_cancel_pending_order(tiny_sandbox):
    sb = tiny_sandbox
    record = ok(sb, "cancel_pending_order", order_id="#W9000001", reason="ordered by mistake")
    assert record == order(sb, "#W9000001")
    assert record["status"] == "cancelled"
    assert record["cancel_reason"] == "ordered by mistake"
    assert record["payment_history"] == [
        {"transaction_type": "payment", "amount": 71.48, "payment_method_id": "credit_card_2222222"},
        {"transaction_type": "refund", "amount": 71.48, "payment_method_id": "credit_card_2222222"},
    ]
    assert balance(sb, "ada_moss_1234", "gift_card_1111111") == 20.0  # credit cards: no balance
    # A gift-card payment is credited back at once.
    ok(sb, "cancel_pending_order", order_id="#W9000005", reason="no longer needed")
    assert balance(sb, "ada_moss_1234", "gift_card_1111111") == round(20.0 + 21.49, 2)
    assert sb.check_integrity() == []


def test_cancel_errors_in_order(tiny_sandbox):
    sb = tiny_sandbox
    fails(sb, "cancel_pending_order", "order not found", order_id="#W0000000", reason="x")
    for order_id in ("#W9000002", "#W9000003", "#W9000004"):  # delivered, processed, cancelled
        # The status check comes before the reason check.
        fails(sb, "cancel_pending_order", "not pending", order_id=order_id, reason="x")
        fails(sb, "cancel_pending_order", "not pending", order_id=order_id,
              reason="no longer needed")
    for reason in ("No longer needed", "no longer needed ", "changed my mind", ""):
        fails(sb, "cancel_pending_order", "invalid reason", order_id="#W9000001", reason=reason)


def test_cancel_rejects_pending_item_modified(tiny_sandbox):
    sb = tiny_sandbox
    ok(sb, "modify_pending_order_items", order_id="#W9000005", item_ids=["2000000012"],
       new_item_ids=["2000000011"], payment_method_id="credit_card_2222222")
    assert order(sb, "#W9000005")["status"] == "pending (item modified)"
    fails(sb, "cancel_pending_order", "not pending", order_id="#W9000005",
          reason="no longer needed")


def test_cancel_refunds_every_history_entry_quirk(tiny_sandbox):
    """Quirk 3: after a payment change, a cancel refunds the payments AND the refund."""
    sb = tiny_sandbox
    ok(sb, "modify_pending_order_payment", order_id="#W9000005",
       payment_method_id="credit_card_2222222")
    gift = round(20.0 + 21.49, 2)
    assert balance(sb, "ada_moss_1234", "gift_card_1111111") == gift
    record = ok(sb, "cancel_pending_order", order_id="#W9000005", reason="no longer needed")
    assert [(p["transaction_type"], p["payment_method_id"]) for p in record["payment_history"]] == [
        ("payment", "gift_card_1111111"), ("payment", "credit_card_2222222"),
        ("refund", "gift_card_1111111"),
        ("refund", "gift_card_1111111"), ("refund", "credit_card_2222222"),
        ("refund", "gift_card_1111111"),
    ]
    assert all(p["amount"] == 21.49 for p in record["payment_history"])
    assert balance(sb, "ada_moss_1234", "gift_card_1111111") == \
        round(round(gift + 21.49, 2) + 21.49, 2)


# ---------------------------------------------------------------------- modify address


def test_modify_pending_order_address(tiny_sandbox):
    sb = tiny_sandbox
    record = ok(sb, "modify_pending_order_address", order_id="#W9000001", **NEW_ADDRESS)
    assert record["address"] == STORED_NEW_ADDRESS  # verbatim, no trimming
    assert list(record["address"]) == list(STORED_NEW_ADDRESS)
    assert record["status"] == "pending"
    assert order(sb, "#W9000001")["address"] == STORED_NEW_ADDRESS
    # The user's default address is untouched.
    assert ok(sb, "get_user_details", user_id="ada_moss_1234")["address"] == AUSTIN


def test_modify_address_accepts_pending_item_modified_quirk(tiny_sandbox):
    """Quirk 4: address changes use the pending-like test."""
    sb = tiny_sandbox
    ok(sb, "modify_pending_order_items", order_id="#W9000005", item_ids=["2000000012"],
       new_item_ids=["2000000011"], payment_method_id="credit_card_2222222")
    record = ok(sb, "modify_pending_order_address", order_id="#W9000005", **NEW_ADDRESS)
    assert record["address"] == STORED_NEW_ADDRESS
    assert record["status"] == "pending (item modified)"


def test_modify_address_errors(tiny_sandbox):
    sb = tiny_sandbox
    fails(sb, "modify_pending_order_address", "order not found", order_id="#W1", **NEW_ADDRESS)
    for order_id in ("#W9000002", "#W9000003", "#W9000004"):
        fails(sb, "modify_pending_order_address", "not pending", order_id=order_id,
              **NEW_ADDRESS)


# ---------------------------------------------------------------------- modify payment


def test_modify_pending_order_payment(tiny_sandbox):
    sb = tiny_sandbox
    record = ok(sb, "modify_pending_order_payment", order_id="#W9000001",
                payment_method_id="paypal_3333333")
    assert record["payment_history"] == [
        {"transaction_type": "payment", "amount": 71.48, "payment_method_id": "credit_card_2222222"},
        {"transaction_type": "payment", "amount": 71.48, "payment_method_id": "paypal_3333333"},
        {"transaction_type": "refund", "amount": 71.48, "payment_method_id": "credit_card_2222222"},
    ]
    assert record["status"] == "pending"
    # Old gift card refunded at once; new gift card debited.
    ok(sb, "modify_pending_order_payment", order_id="#W9000005",
       payment_method_id="paypal_3333333")
    assert balance(sb, "ada_moss_1234", "gift_card_1111111") == round(20.0 + 21.49, 2)
    ok(sb, "modify_pending_order_payment", order_id="#W9000008",
       payment_method_id="gift_card_1111111")
    assert balance(sb, "ada_moss_1234", "gift_card_1111111") == \
        round(round(20.0 + 21.49, 2) - 10.0, 2)
    assert sb.check_integrity() == []


def test_modify_payment_errors_in_order(tiny_sandbox):
    sb = tiny_sandbox
    tool = "modify_pending_order_payment"
    fails(sb, tool, "order not found", order_id="#W0", payment_method_id="nope")
    fails(sb, tool, "not pending", order_id="#W9000002", payment_method_id="nope")
    fails(sb, tool, "not pending", order_id="#W9000003", payment_method_id="paypal_3333333")
    # Another user's method is not found (no ownership shortcut).
    fails(sb, tool, "payment method not found", order_id="#W9000001",
          payment_method_id="paypal_4444444")
    fails(sb, tool, "must differ", order_id="#W9000001",
          payment_method_id="credit_card_2222222")
    fails(sb, tool, "insufficient gift card balance", order_id="#W9000001",
          payment_method_id="gift_card_1111111")  # 20.0 < 71.48
    fails(sb, tool, "insufficient gift card balance", order_id="#W9000006",
          payment_method_id="gift_card_5555555")  # 5.0 < 29.99
    # After one change the history has 3 entries: a second change is refused, and the
    # method lookup still comes first.
    ok(sb, tool, order_id="#W9000001", payment_method_id="paypal_3333333")
    fails(sb, tool, "payment method not found", order_id="#W9000001",
          payment_method_id="gift_card_5555555")
    fails(sb, tool, "exactly one payment", order_id="#W9000001",
          payment_method_id="credit_card_2222222")


def test_modify_payment_refused_after_item_modification_quirk(tiny_sandbox):
    """Quirk 4: pending-like status passes, but the history then has 2 entries."""
    sb = tiny_sandbox
    ok(sb, "modify_pending_order_items", order_id="#W9000001", item_ids=["2000000001"],
       new_item_ids=["2000000003"], payment_method_id="credit_card_2222222")
    fails(sb, "modify_pending_order_payment", "exactly one payment", order_id="#W9000001",
          payment_method_id="paypal_3333333")


# ------------------------------------------------------------------------ modify items


def test_modify_items_last_variant_price_and_unrounded_diff_quirks(tiny_sandbox):
    """Quirks 1 and 2: every rewritten line takes the LAST new variant's price and options;
    the payment entry stores the unrounded abs(diff)."""
    sb = tiny_sandbox
    record = ok(sb, "modify_pending_order_items", order_id="#W9000001",
                item_ids=["2000000001", "2000000011"],
                new_item_ids=["2000000004", "2000000013"],
                payment_method_id="paypal_3333333")
    diff = 0 + (35.1 - 31.5) + (18.75 - 19.99)
    assert diff != round(diff, 2)  # the fixture really exercises the unrounded amount
    assert record["payment_history"][-1] == {"transaction_type": "payment", "amount": diff,
                                             "payment_method_id": "paypal_3333333"}
    assert record["items"] == [
        # The lamp line gets the T-shirt variant's price and options (tau2 quirk).
        {"name": "Desk Lamp", "product_id": "1000000001", "item_id": "2000000004",
         "price": 18.75, "options": SHIRT_BLUE_S},
        {"name": "T-Shirt", "product_id": "1000000002", "item_id": "2000000013",
         "price": 18.75, "options": SHIRT_BLUE_S},
        # The duplicate line not named in the call is untouched.
        {"name": "T-Shirt", "product_id": "1000000002", "item_id": "2000000011",
         "price": 19.99, "options": {"color": "red", "size": "S"}},
    ]
    assert record["status"] == "pending (item modified)"
    assert record["fulfillments"] == []
    # Item modification happens once.
    fails(sb, "modify_pending_order_items", "not pending", order_id="#W9000001",
          item_ids=["2000000011"], new_item_ids=["2000000012"],
          payment_method_id="paypal_3333333")
    assert sb.check_integrity() == []


def test_modify_items_refund_to_gift_card_and_duplicates(tiny_sandbox):
    sb = tiny_sandbox
    record = ok(sb, "modify_pending_order_items", order_id="#W9000001",
                item_ids=["2000000011", "2000000011"],
                new_item_ids=["2000000013", "2000000013"],
                payment_method_id="gift_card_1111111")
    diff = 0 + (18.75 - 19.99) + (18.75 - 19.99)
    assert record["payment_history"][-1] == {"transaction_type": "refund", "amount": abs(diff),
                                             "payment_method_id": "gift_card_1111111"}
    assert [i["item_id"] for i in record["items"]] == ["2000000001", "2000000013", "2000000013"]
    assert balance(sb, "ada_moss_1234", "gift_card_1111111") == round(20.0 - diff, 2)


def test_modify_items_zero_diff_records_a_zero_refund(tiny_sandbox):
    sb = tiny_sandbox
    record = ok(sb, "modify_pending_order_items", order_id="#W9000001",
                item_ids=["2000000011"], new_item_ids=["2000000015"],  # same price 19.99
                payment_method_id="gift_card_1111111")
    last = record["payment_history"][-1]
    assert last == {"transaction_type": "refund", "amount": 0.0,
                    "payment_method_id": "gift_card_1111111"}
    assert isinstance(last["amount"], float)
    assert balance(sb, "ada_moss_1234", "gift_card_1111111") == 20.0


def test_modify_items_empty_lists(tiny_sandbox):
    sb = tiny_sandbox
    record = ok(sb, "modify_pending_order_items", order_id="#W9000005", item_ids=[],
                new_item_ids=[], payment_method_id="credit_card_2222222")
    assert record["status"] == "pending (item modified)"
    assert record["payment_history"][-1] == {"transaction_type": "refund", "amount": 0.0,
                                             "payment_method_id": "credit_card_2222222"}
    assert '"amount": 0.0' in run(sb, "get_order_details", order_id="#W9000005").content


def test_modify_items_rewrites_lines_already_rewritten(tiny_sandbox):
    """A line rewritten earlier in the same call counts with its new id: lines [11, 12],
    call 11->12, 12->13: the first line becomes 12 and then 13; the second is untouched."""
    sb = tiny_sandbox
    record = ok(sb, "modify_pending_order_items", order_id="#W9000009",
                item_ids=["2000000011", "2000000012"],
                new_item_ids=["2000000012", "2000000013"],
                payment_method_id="credit_card_2222222")
    assert record["items"] == [
        {"name": "T-Shirt", "product_id": "1000000002", "item_id": "2000000013",
         "price": 18.75, "options": SHIRT_BLUE_S},
        {"name": "T-Shirt", "product_id": "1000000002", "item_id": "2000000012",
         "price": 21.49, "options": SHIRT_RED_M},
    ]
    diff = 0 + (21.49 - 19.99) + (18.75 - 21.49)
    assert record["payment_history"][-1] == {"transaction_type": "refund", "amount": abs(diff),
                                             "payment_method_id": "credit_card_2222222"}


def test_modify_items_gift_card_can_pay_exactly_its_balance(tiny_sandbox):
    sb = tiny_sandbox
    # 31.5 -> 35.1 costs 3.6000000000000014 (> 3.6): a 20.0 card pays it.
    ok(sb, "modify_pending_order_items", order_id="#W9000001", item_ids=["2000000001"],
       new_item_ids=["2000000004"], payment_method_id="gift_card_1111111")
    assert balance(sb, "ada_moss_1234", "gift_card_1111111") == round(20.0 - (35.1 - 31.5), 2)


def test_modify_items_errors_in_order(tiny_sandbox):
    sb = tiny_sandbox
    tool = "modify_pending_order_items"
    args = dict(order_id="#W9000001", item_ids=["2000000001"], new_item_ids=["2000000004"],
                payment_method_id="credit_card_2222222")

    def f(fragment, **changes):
        fails(sb, tool, fragment, **{**args, **changes})

    f("order not found", order_id="#W9", item_ids=["x"], new_item_ids=[])
    f("not pending", order_id="#W9000002", item_ids=["x"], new_item_ids=[])
    f("not pending", order_id="#W9000004")
    # Multiset check: unknown id, then too many copies; it comes before the length check.
    f("2000000003", item_ids=["2000000003"], new_item_ids=[])
    f("2000000011", item_ids=["2000000011", "2000000011", "2000000011"],
      new_item_ids=["2000000012"])
    f("2000000001", item_ids=["2000000001", "2000000001"], new_item_ids=["2000000004"] * 2)
    f("same length", item_ids=["2000000001"], new_item_ids=[])
    f("same length", item_ids=["2000000001"], new_item_ids=["2000000004", "2000000003"])
    # Per position: old == new, variant of the line's product, availability.
    f("must differ", item_ids=["2000000001"], new_item_ids=["2000000001"])
    f("must differ", item_ids=["2000000001", "2000000011"],
      new_item_ids=["2000000004", "2000000011"])
    f("variant not found", new_item_ids=["2000000011"])  # a T-shirt for a lamp
    f("variant not found", new_item_ids=["9999999999"])
    f("product not found", order_id="#W9000008", item_ids=["2000000099"],
      new_item_ids=["2000000001"])
    f("not available", new_item_ids=["2000000002"])
    f("not available", item_ids=["2000000011", "2000000001"],
      new_item_ids=["2000000014", "2000000004"])
    # The first failing position decides.
    f("not available", item_ids=["2000000001", "2000000011"],
      new_item_ids=["2000000002", "2000000011"])
    # Then the payment method, then the gift card balance (against the unrounded diff).
    f("payment method not found", payment_method_id="paypal_4444444")
    f("not available", new_item_ids=["2000000002"], payment_method_id="nope")
    f("payment method not found", payment_method_id="gift_card_5555555")
    f("insufficient gift card balance", order_id="#W9000006", item_ids=["2000000003"],
      new_item_ids=["2000000004"], payment_method_id="gift_card_5555555")  # 5.11 > 5.0


# ------------------------------------------------------------------ modify user address


def test_modify_user_address(tiny_sandbox):
    sb = tiny_sandbox
    record = ok(sb, "modify_user_address", user_id="bob_stone_5678", **NEW_ADDRESS)
    assert record == ok(sb, "get_user_details", user_id="bob_stone_5678")
    assert record["address"] == STORED_NEW_ADDRESS
    assert list(record["address"]) == ["address1", "address2", "city", "country", "state", "zip"]
    assert order(sb, "#W9000006")["address"]["city"] == "New York"  # orders untouched
    fails(sb, "modify_user_address", "user not found", user_id="nobody", **NEW_ADDRESS)


# ----------------------------------------------------------------------------- return


def test_return_delivered_order_items(tiny_sandbox):
    sb = tiny_sandbox
    before_balance = balance(sb, "ada_moss_1234", "gift_card_1111111")
    record = ok(sb, "return_delivered_order_items", order_id="#W9000002",
                item_ids=["2000000012", "2000000003", "2000000012"],
                payment_method_id="gift_card_1111111")
    assert record["status"] == "return requested"
    assert record["return_items"] == ["2000000003", "2000000012", "2000000012"]
    assert record["return_payment_method_id"] == "gift_card_1111111"
    assert len(record["payment_history"]) == 1  # no refund recorded (quirk 5)
    assert balance(sb, "ada_moss_1234", "gift_card_1111111") == before_balance
    assert [i["item_id"] for i in record["items"]] == ["2000000003", "2000000012", "2000000012"]
    fails(sb, "return_delivered_order_items", "not delivered", order_id="#W9000002",
          item_ids=["2000000003"], payment_method_id="gift_card_1111111")
    fails(sb, "exchange_delivered_order_items", "not delivered", order_id="#W9000002",
          item_ids=[], new_item_ids=[], payment_method_id="gift_card_1111111")
    assert sb.check_integrity() == []


def test_return_to_original_method_and_empty_list(tiny_sandbox):
    sb = tiny_sandbox
    # Bob's order was paid with his gift card: the original method.
    record = ok(sb, "return_delivered_order_items", order_id="#W9000007", item_ids=[],
                payment_method_id="gift_card_5555555")
    assert record["status"] == "return requested" and record["return_items"] == []


def test_return_errors_in_order(tiny_sandbox):
    sb = tiny_sandbox
    tool = "return_delivered_order_items"
    fails(sb, tool, "order not found", order_id="#W0", item_ids=[], payment_method_id="x")
    for order_id in ("#W9000001", "#W9000003", "#W9000004"):
        fails(sb, tool, "not delivered", order_id=order_id, item_ids=["nope"],
              payment_method_id="nope")
    fails(sb, tool, "payment method not found", order_id="#W9000002", item_ids=["nope"],
          payment_method_id="paypal_4444444")
    fails(sb, tool, "original payment method or a gift card", order_id="#W9000002",
          item_ids=["nope"], payment_method_id="credit_card_2222222")
    fails(sb, tool, "original payment method or a gift card", order_id="#W9000007",
          item_ids=["2000000011"], payment_method_id="paypal_4444444")
    fails(sb, tool, "2000000001", order_id="#W9000002", item_ids=["2000000001"],
          payment_method_id="gift_card_1111111")
    fails(sb, tool, "2000000003", order_id="#W9000002", item_ids=["2000000003", "2000000003"],
          payment_method_id="gift_card_1111111")


# --------------------------------------------------------------------------- exchange


def test_exchange_delivered_order_items(tiny_sandbox):
    sb = tiny_sandbox
    before = ok(sb, "get_user_details", user_id="ada_moss_1234")
    record = ok(sb, "exchange_delivered_order_items", order_id="#W9000002",
                item_ids=["2000000012", "2000000003"],
                new_item_ids=["2000000011", "2000000004"],
                payment_method_id="credit_card_2222222")
    diff = round(0 + (19.99 - 21.49) + (35.1 - 29.99), 2)
    assert record["status"] == "exchange requested"
    assert record["exchange_items"] == ["2000000003", "2000000012"]
    assert record["exchange_new_items"] == ["2000000004", "2000000011"]  # sorted independently
    assert record["exchange_payment_method_id"] == "credit_card_2222222"
    assert record["exchange_price_difference"] == diff
    # Nothing is paid or credited, lines untouched (quirk 5).
    assert len(record["payment_history"]) == 1
    assert [i["item_id"] for i in record["items"]] == ["2000000003", "2000000012", "2000000012"]
    assert ok(sb, "get_user_details", user_id="ada_moss_1234") == before
    assert sb.check_integrity() == []


def test_exchange_quirks(tiny_sandbox):
    sb = tiny_sandbox
    # No old != new check; negative difference with a gift card is fine.
    record = ok(sb, "exchange_delivered_order_items", order_id="#W9000007",
                item_ids=["2000000011"], new_item_ids=["2000000011"],
                payment_method_id="gift_card_5555555")
    assert record["exchange_price_difference"] == 0.0
    assert isinstance(record["exchange_price_difference"], float)


def test_exchange_empty_call_stores_integer_zero(tiny_sandbox):
    sb = tiny_sandbox
    ok(sb, "exchange_delivered_order_items", order_id="#W9000007", item_ids=[],
       new_item_ids=[], payment_method_id="gift_card_5555555")
    content = run(sb, "get_order_details", order_id="#W9000007").content
    assert '"exchange_price_difference": 0,' in content
    exported = sb.export()["orders"]["#W9000007"]["exchange_price_difference"]
    assert exported == 0 and type(exported) is int


def test_exchange_negative_zero_difference_survives(tiny_sandbox):
    """round() of a tiny negative sum is -0.0; tau2 serializes it as -0.0."""
    sb = tiny_sandbox
    sb.db.execute("UPDATE orders SET exchange_price_difference = ?, status = 'exchange requested', "
                  "exchange_items = '[]', exchange_new_items = '[]', "
                  "exchange_payment_method_id = 'paypal_4444444' WHERE order_id = '#W9000007'",
                  (-0.0,))
    assert '"exchange_price_difference": -0.0' in \
        run(sb, "get_order_details", order_id="#W9000007").content


def test_exchange_errors_in_order(tiny_sandbox):
    sb = tiny_sandbox
    tool = "exchange_delivered_order_items"
    args = dict(order_id="#W9000002", item_ids=["2000000003"], new_item_ids=["2000000004"],
                payment_method_id="gift_card_1111111")

    def f(fragment, **changes):
        fails(sb, tool, fragment, **{**args, **changes})

    f("order not found", order_id="#W9000010")
    f("not delivered", order_id="#W9000001", item_ids=["nope"])
    f("not delivered", order_id="#W9000003")
    f("2000000001", item_ids=["2000000001"], new_item_ids=[])
    f("2000000003", item_ids=["2000000003", "2000000003"], new_item_ids=["2000000004"])
    f("same length", new_item_ids=[])
    f("variant not found", new_item_ids=["2000000011"])
    f("not available", new_item_ids=["2000000002"])
    f("payment method not found", payment_method_id="gift_card_5555555")
    f("not available", new_item_ids=["2000000002"], payment_method_id="nope")
    f("payment method not found", new_item_ids=["2000000001"], payment_method_id="nope")
    # 29.99 -> 35.1 costs 5.11: refused once Ada's card holds less.
    sb.db.execute("UPDATE payment_methods SET balance = 5.1 WHERE id = 'gift_card_1111111'")
    f("insufficient gift card balance")
    # A negative difference needs no balance.
    ok(sb, tool, **{**args, "item_ids": ["2000000012"], "new_item_ids": ["2000000013"]})


def test_exchange_gift_card_covering_the_difference(tiny_sandbox):
    sb = tiny_sandbox
    sb.db.execute("UPDATE payment_methods SET balance = 5.11 WHERE id = 'gift_card_1111111'")
    record = ok(sb, "exchange_delivered_order_items", order_id="#W9000002",
                item_ids=["2000000003"], new_item_ids=["2000000004"],
                payment_method_id="gift_card_1111111")
    assert record["exchange_price_difference"] == round(0 + (35.1 - 29.99), 2) == 5.11
    assert balance(sb, "ada_moss_1234", "gift_card_1111111") == 5.11  # nothing debited


def test_exchange_gift_card_cannot_cover_difference(tiny_sandbox):
    sb = tiny_sandbox
    # Bob's order #W9000007: 19.99 -> 21.49 costs 1.5 <= 5.0 (ok on a copy of the state) ...
    snapshot = sb.snapshot()
    ok(sb, "exchange_delivered_order_items", order_id="#W9000007", item_ids=["2000000011"],
       new_item_ids=["2000000012"], payment_method_id="gift_card_5555555")
    sb.restore(snapshot)
    # ... but with less than 1.5 on his card it is refused.
    sb.db.execute("UPDATE payment_methods SET balance = 1.49 WHERE id = 'gift_card_5555555'")
    fails(sb, "exchange_delivered_order_items", "insufficient gift card balance",
          order_id="#W9000007", item_ids=["2000000011"], new_item_ids=["2000000012"],
          payment_method_id="gift_card_5555555")


# --------------------------------------------------------- validation by the toolbox


@pytest.mark.parametrize("name, args, fragment", [
    ("get_order_details", {}, "missing"),
    ("get_order_details", {"order_id": "#W9000001", "extra": 1}, "unknown parameter"),
    ("get_order_details", {"orderId": "#W9000001"}, "unknown parameter"),
    ("get_order_details", {"order_id": 9000001}, "must be of type string"),
    ("get_order_details", {"order_id": None}, "must be of type string"),
    ("get_order_details", {"order_id": ["#W9000001"]}, "must be of type string"),
    ("cancel_pending_order", {"order_id": "#W9000001"}, "missing"),
    ("cancel_pending_order", {"order_id": "#W9000001", "reason": True}, "type string"),
    ("return_delivered_order_items", {"order_id": "#W9000002", "item_ids": "2000000003",
                                      "payment_method_id": "gift_card_1111111"}, "type array"),
    ("return_delivered_order_items", {"order_id": "#W9000002", "item_ids": [2000000003],
                                      "payment_method_id": "gift_card_1111111"}, "type string"),
    ("modify_pending_order_items", {"order_id": "#W9000001", "item_ids": ["2000000001"],
                                    "new_item_ids": [None],
                                    "payment_method_id": "credit_card_2222222"}, "type string"),
    ("cancel_pending_order", {"order_id": "#W9000001", "reason": "no longer needed\ud800"},
     "utf-8"),
    ("cancel_pending_order", {"order_id": "#W9000001", "reason": "x" * (MAX_STRING + 1)},
     "too long"),
    ("modify_user_address", {"user_id": "ada_moss_1234", "address1": "a\x00", "address2": "",
                             "city": "c", "state": "s", "country": "c", "zip": "z"}, "NUL"),
    ("cancel_pending_order", ["#W9000001", "no longer needed"], "JSON object"),
    ("no_such_tool", {}, "unknown tool"),
    ("calculate", {"expression": 2}, "type string"),
])
def test_invalid_calls_are_rejected_without_change(tiny_sandbox, name, args, fragment):
    sb = tiny_sandbox
    before = sb.state_hash()
    result = sb.call(name, args)
    assert not result.ok
    assert result.content.startswith("Error: ")
    assert fragment.lower() in result.content.lower(), result.content
    assert result.stage < 2
    assert sb.state_hash() == before


def test_non_utf8_and_odd_strings_in_reads(tiny_sandbox):
    sb = tiny_sandbox
    for value in ("#W9000001\udcff", "\udcff"):
        result = sb.call("get_order_details", {"order_id": value})
        assert not result.ok and "utf-8" in result.content.lower()
    # Valid but unusual text is just "not found".
    for value in ("#W9000001'; DROP TABLE orders; --", "🙂", "x" * MAX_STRING):
        fails(sb, "get_order_details", "order not found", order_id=value)
    assert ok(sb, "get_order_details", order_id="#W9000001")["order_id"] == "#W9000001"


# --------------------------------------------------------------------- misc guarantees


def test_failed_writes_change_nothing_even_late(tiny_sandbox):
    """Failures at the last check of each write leave the hash unchanged."""
    sb = tiny_sandbox
    fails(sb, "modify_pending_order_items", "insufficient", order_id="#W9000006",
          item_ids=["2000000003"], new_item_ids=["2000000004"],
          payment_method_id="gift_card_5555555")
    fails(sb, "exchange_delivered_order_items", "payment method not found",
          order_id="#W9000002", item_ids=["2000000003"], new_item_ids=["2000000004"],
          payment_method_id="credit_card_6666666")
    fails(sb, "return_delivered_order_items", "not found", order_id="#W9000002",
          item_ids=["2000000003", "2000000099"], payment_method_id="gift_card_1111111")


def test_no_ownership_checks(tiny_sandbox):
    """Quirk 6: tools take any order id, whoever the agent authenticated."""
    sb = tiny_sandbox
    assert ok(sb, "find_user_id_by_email", email="ada.moss@example.com") == "ada_moss_1234"
    ok(sb, "cancel_pending_order", order_id="#W9000006", reason="no longer needed")


def test_reads_do_not_write(tiny_sandbox):
    sb = tiny_sandbox
    before = sb.state_hash()
    changes = sb.db.total_changes
    for name, args in [("get_order_details", {"order_id": "#W9000001"}),
                       ("get_user_details", {"user_id": "ada_moss_1234"}),
                       ("get_product_details", {"product_id": "1000000001"}),
                       ("get_item_details", {"item_id": "2000000001"}),
                       ("list_all_product_types", {}),
                       ("find_user_id_by_email", {"email": "x"}),
                       ("find_user_id_by_name_zip", {"first_name": "a", "last_name": "b",
                                                     "zip": "c"}),
                       ("calculate", {"expression": "1+1"}),
                       ("transfer_to_human_agents", {"summary": "s"})]:
        sb.call(name, args)
    assert sb.db.total_changes == changes
    assert sb.state_hash() == before


def test_random_calls_match_the_reference_model(tiny_template, reference):
    """Every write tool, valid and invalid arguments mixed, against the dict model."""
    import random

    from tool_gym.core.sandbox import Sandbox

    rng = random.Random(1234)
    data = make_tiny_data()
    item_pool = [v for p in data["products"].values() for v in p["variants"]] + ["2000000099",
                                                                                  "1"]
    orders = list(data["orders"]) + ["#W0000000"]
    users = list(data["users"]) + ["nobody"]
    methods = [m for u in data["users"].values() for m in u["payment_methods"]] + ["x"]

    def ids(k):
        return [rng.choice(item_pool) for _ in range(k)]

    def random_call():
        name = rng.choice(reference.WRITES)
        oid = rng.choice(orders)
        line_ids = [i["item_id"] for i in data["orders"].get(oid, {"items": []})["items"]]
        k = rng.choice([0, 1, 1, 2, 3])
        old = [rng.choice(line_ids) for _ in range(k)] if line_ids and rng.random() < 0.8 \
            else ids(k)
        new = ids(len(old) if rng.random() < 0.9 else k + 1)
        method = rng.choice(methods)
        address = {"address1": "a", "address2": "b", "city": "c", "state": "s",
                   "country": "k", "zip": str(rng.randint(0, 9))}
        reason = rng.choice(["no longer needed", "ordered by mistake", "bored"])
        user = rng.choice(users)
        return name, write_arguments(name, oid, user, reason, old, new, method, address)

    successes = 0
    for _ in range(150):
        sb = Sandbox(tiny_template)
        model = reference(make_tiny_data())
        for _ in range(rng.randint(1, 6)):
            name, args = random_call()
            before = sb.state_hash()
            result = sb.call(name, args)
            expected_ok, _ = model.call(name, json.loads(json.dumps(args)))
            assert result.ok == expected_ok, (name, args, result.content)
            successes += result.ok
            if result.ok:
                assert json.loads(result.content) == model.call(
                    "get_user_details" if name == "modify_user_address" else
                    "get_order_details", {k: v for k, v in args.items()
                                          if k in ("user_id", "order_id")})[1]
            else:
                assert sb.state_hash() == before
        assert sb.export() == model.data
        assert sb.state_json() == json.dumps(model.data, sort_keys=True)
        assert sb.check_integrity() == []
        sb.close()
    assert successes > 50


# --------------------------------------------------------------------------- invariants


def test_invariants_hold_on_the_fixture_and_catch_problems(tiny_sandbox):
    sb = tiny_sandbox
    assert invariants(sb.db) == []
    assert sb.check_integrity() == []
    db = sb.db
    db.execute("UPDATE payment_methods SET balance = -1.0 WHERE id = 'gift_card_1111111'")
    db.execute("UPDATE orders SET status = 'lost' WHERE order_id = '#W9000003'")
    db.execute("UPDATE orders SET cancel_reason = 'bored' WHERE order_id = '#W9000004'")
    db.execute("INSERT INTO user_orders VALUES ('bob_stone_5678', 9, '#W0000000')")
    db.execute("UPDATE orders SET return_items = '[]' WHERE order_id = '#W9000001'")
    problems = "\n".join(invariants(db))
    assert "gift_card_1111111" in problems
    assert "#W9000003" in problems and "'lost'" in problems
    assert "'bored'" in problems
    assert "#W0000000" in problems
    assert "#W9000001" in problems


def test_snapshot_restore(tiny_sandbox):
    sb = tiny_sandbox
    snap = sb.snapshot()
    before = sb.state_hash()
    ok(sb, "cancel_pending_order", order_id="#W9000001", reason="no longer needed")
    assert sb.state_hash() != before
    sb.restore(snap)
    assert sb.state_hash() == before
    assert order(sb, "#W9000001")["status"] == "pending"


def test_export_of_fixture_equals_source(tiny_sandbox):
    assert tiny_sandbox.export() == with_optional_fields(make_tiny_data())


def test_tool_outputs_use_the_same_records_as_export(tiny_sandbox):
    sb = tiny_sandbox
    ok(sb, "modify_pending_order_items", order_id="#W9000001", item_ids=["2000000011"],
       new_item_ids=["2000000012"], payment_method_id="gift_card_1111111")
    exported = sb.export()
    assert order(sb, "#W9000001") == exported["orders"]["#W9000001"]
    assert exported["orders"]["#W9000001"]["items"][1]["options"] == SHIRT_RED_M
    assert exported["products"]["1000000001"]["variants"]["2000000004"]["options"] == \
        LAMP_WHITE_HALOGEN


def test_cached_read_outputs_follow_the_data(tiny_sandbox):
    """Outputs cached by content never go stale, even for values that compare equal but
    serialize differently (0, 0.0, -0.0 in the untyped exchange_price_difference)."""
    sb = tiny_sandbox
    texts = []
    for value in (0, 0.0, -0.0, None):
        sb.db.execute("UPDATE orders SET exchange_price_difference = ? WHERE order_id = ?",
                      (value, "#W9000007"))
        content = run(sb, "get_order_details", order_id="#W9000007").content
        texts.append(content)
        assert f'"exchange_price_difference": {json.dumps(value)},' in content
    assert len(set(texts)) == 4
    before = run(sb, "get_product_details", product_id="1000000001").content
    sb.db.execute("UPDATE variants SET available = 1 WHERE item_id = '2000000002'")
    after = ok(sb, "get_product_details", product_id="1000000001")
    assert before != json.dumps(after) and after["variants"]["2000000002"]["available"] is True
    sb.db.execute("UPDATE products SET name = 'Lamp' WHERE product_id = '1000000001'")
    assert "Lamp" in ok(sb, "list_all_product_types")
