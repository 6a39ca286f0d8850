import json

import pytest

from tool_gym.core.tools import (Annotated, Category, Entity, MAX_STRING, ToolError, Toolbox,
                                 tool, validate_arguments)
from tool_gym.core.sandbox import Template, build_database

from . import toy


@pytest.fixture()
def db():
    return Template(toy.DOMAIN, build_database(toy.DOMAIN, seed=1), ("toy", 1)).open()


def test_schema_from_signature_and_docstring():
    schema = toy.transfer.schema
    assert schema["type"] == "function"
    fn = schema["function"]
    assert fn["name"] == "transfer"
    assert fn["description"] == ("Move money between accounts. The source is debited first, "
                                 "then the destination is credited.")
    params = fn["parameters"]
    assert params["required"] == ["src", "dst", "amount"]
    assert params["properties"]["amount"] == {"type": "number",
                                              "description": "Amount to move, positive."}
    assert params["properties"]["speed"]["enum"] == ["normal", "express"]
    assert params["properties"]["speed"]["default"] == "normal"
    assert params["properties"]["tags"]["type"] == "array"
    assert params["properties"]["tags"]["items"] == {"type": "string"}
    assert toy.echo.parameters["properties"]["flag"] == {"type": "boolean"}
    assert toy.echo.parameters["properties"]["count"] == {"type": "integer"}
    assert toy.echo.parameters["properties"]["payload"] == {"type": "object"}


def test_multiline_argument_description_is_joined():
    desc = toy.find_account.parameters["properties"]["owner"]["description"]
    assert desc == "The owner's name, as written on the account."


def test_categories_and_entities():
    assert toy.find_account.category is Category.READ
    assert toy.transfer.category is Category.WRITE
    assert toy.echo.category is Category.GENERIC
    assert toy.find_account.output_entities == {".": "account_id"}
    assert toy.get_balance.input_entities == {"account_id": "account_id"}
    assert toy.transfer.input_entities == {"src": "account_id", "dst": "account_id"}
    assert toy.transfer.writes == ("account_id",)


def test_list_of_entities_and_bad_hints():
    @tool(Category.READ)
    def many(db, ids: list[Annotated[str, Entity("thing")]]) -> list:
        """Many."""
        return ids
    assert many.input_entities == {"ids": "thing"}
    assert many.parameters["properties"]["ids"] == {"type": "array", "items": {"type": "string"}}

    with pytest.raises(TypeError):
        @tool()
        def untyped(db, x):
            """No hint."""
    with pytest.raises(TypeError):
        @tool()
        def weird(db, x: complex):
            """Unsupported."""
    with pytest.raises(ValueError):
        Toolbox([toy.echo, toy.echo])


@pytest.mark.parametrize("args, message", [
    ({"src": "a", "dst": "b"}, "missing required parameter(s) for transfer: amount"),
    ({"src": "a", "dst": "b", "amount": 1, "bogus": 1}, "unknown parameter 'bogus'"),
    ({"src": 1, "dst": "b", "amount": 1}, "parameter 'src' must be of type string, got integer"),
    ({"src": "a", "dst": "b", "amount": "1"}, "parameter 'amount' must be of type number, got string"),
    ({"src": "a", "dst": "b", "amount": True}, "must be of type number, got boolean"),
    ({"src": "a", "dst": "b", "amount": float("nan")}, "must be a finite number"),
    ({"src": "a", "dst": "b", "amount": float("inf")}, "must be a finite number"),
    ({"src": "a", "dst": "b", "amount": 1, "speed": "slow"}, 'must be one of "normal", "express"'),
    ({"src": "a", "dst": "b", "amount": 1, "tags": ["x", 2]}, "parameter 'tags'[1] must be of type string"),
    ({"src": "a", "dst": "b", "amount": 1, "tags": "x"}, "must be of type array, got string"),
    ({"src": "\ud800", "dst": "b", "amount": 1}, "is not valid UTF-8 text"),
    ({"src": "a\x00b", "dst": "b", "amount": 1}, "contains a NUL character"),
    ({"src": "x" * (MAX_STRING + 1), "dst": "b", "amount": 1}, "is too long"),
    ([1, 2], "must be a JSON object, got array"),
    ("src=a", "must be a JSON object, got string"),
])
def test_validation_errors(args, message):
    problem = validate_arguments(toy.transfer, args)
    assert problem is not None and message in problem


def test_int_accepted_for_number_and_valid_call_passes():
    assert validate_arguments(toy.transfer, {"src": "a", "dst": "b", "amount": 3}) is None
    assert validate_arguments(toy.echo, {"flag": True, "count": 2, "payload": {"a": [1]}}) is None
    assert "must be of type integer" in validate_arguments(
        toy.echo, {"flag": True, "count": 2.5, "payload": {}})


def test_deeply_nested_payload_is_rejected():
    deep = {}
    node = deep
    for _ in range(100):
        node["x"] = {}
        node = node["x"]
    assert "nested too deeply" in validate_arguments(toy.echo, {"flag": True, "count": 1, "payload": deep})


def test_call_stages_and_validity(db):
    box = toy.DOMAIN.toolbox
    unknown = box.call(db, "nope", {})
    assert (unknown.ok, unknown.stage, unknown.validity) == (False, 0, 0.0)
    assert unknown.content == "Error: unknown tool 'nope'"
    assert box.call(db, None, {}).stage == 0
    invalid = box.call(db, "get_balance", {"account_id": 5})
    assert (invalid.ok, invalid.stage) == (False, 1)
    assert invalid.content.startswith("Error: parameter 'account_id'")
    failed = box.call(db, "get_balance", {"account_id": "missing"})
    assert (failed.ok, failed.stage, failed.content) == (False, 2, "Error: account not found")
    assert abs(failed.validity - 2 / 3) < 1e-12
    ok = box.call(db, "find_account", {"owner": "owner1"})
    assert (ok.ok, ok.stage, ok.content, ok.validity) == (True, 3, "acc1_1", 1.0)
    assert json.loads(box.call(db, "get_balance", {"account_id": "acc1_1"}).content) == {
        "account_id": "acc1_1", "balance": 100.0}


def test_failed_write_rolls_back_everything(db):
    box = toy.DOMAIN.toolbox
    before = db.execute("SELECT * FROM accounts ORDER BY account_id").fetchall()
    result = box.call(db, "transfer", {"src": "acc1_1", "dst": "acc1_2", "amount": -5})
    assert not result.ok and "positive" in result.content
    result = box.call(db, "transfer", {"src": "acc1_1", "dst": "ghost", "amount": 5})
    assert not result.ok and "destination" in result.content
    assert db.execute("SELECT * FROM accounts ORDER BY account_id").fetchall() == before
    ok = box.call(db, "transfer", {"src": "acc1_1", "dst": "acc1_2", "amount": 5})
    assert ok.ok
    assert db.execute("SELECT balance FROM accounts WHERE account_id='acc1_1'").fetchone()[0] == 95.0
    assert not db.in_transaction


def test_huge_integers_are_rejected_before_sqlite(db):
    box = toy.DOMAIN.toolbox
    before = db.execute("SELECT * FROM accounts ORDER BY account_id").fetchall()
    for amount in (10 ** 30, -(10 ** 400)):
        result = box.call(db, "transfer", {"src": "acc1_1", "dst": "acc1_2", "amount": amount})
        assert not result.ok and result.stage == 1 and "out of range" in result.content
    assert db.execute("SELECT * FROM accounts ORDER BY account_id").fetchall() == before
    assert not db.in_transaction


def test_unexpected_errors_inside_a_tool_roll_back(db):
    @tool(Category.WRITE)
    def broken(db) -> None:
        """Writes, then fails in SQLite."""
        db.execute("UPDATE accounts SET balance = 0")
        db.execute("INSERT INTO transfers (src, dst, amount) VALUES ('nobody', 'acc1_1', 1)")
    box = Toolbox([broken])
    result = box.call(db, "broken", {})
    assert not result.ok and result.stage == 2 and "IntegrityError" in result.content
    assert db.execute("SELECT count(*) FROM accounts WHERE balance = 0").fetchone()[0] == 1
    assert not db.in_transaction


def test_results_are_deterministic_json(db):
    box = toy.DOMAIN.toolbox
    first = box.call(db, "echo", {"flag": False, "count": 3, "payload": {"é": [1.5, None]}})
    second = box.call(db, "echo", {"flag": False, "count": 3, "payload": {"é": [1.5, None]}})
    assert first.content == second.content == '{"flag": false, "count": 3, "payload": {"é": [1.5, null]}}'


def test_toolbox_collection_helpers():
    box = toy.DOMAIN.toolbox
    assert box.names == ["find_account", "get_balance", "transfer", "echo"]
    assert len(box) == 4 and "echo" in box and "nope" not in box
    assert box["echo"] is toy.echo
    assert [s["function"]["name"] for s in box.schemas] == box.names
    assert Toolbox.from_module(toy).names == box.names


def test_integral_floats_count_as_integers_and_are_coerced(db):
    assert validate_arguments(toy.echo, {"flag": True, "count": 2.0, "payload": {}}) is None
    result = toy.DOMAIN.toolbox.call(db, "echo", {"flag": True, "count": 2.0, "payload": {}})
    assert result.ok and '"count": 2,' in result.content


def test_keep_effects_error_keeps_partial_writes(db):
    @tool(Category.WRITE)
    def half(db) -> None:
        """Writes, then fails without rollback (like some reference tools)."""
        db.execute("UPDATE accounts SET balance = 7 WHERE account_id = 'acc1_0'")
        raise ToolError("failed after a write", keep_effects=True)
    result = Toolbox([half]).call(db, "half", {})
    assert not result.ok and result.content == "Error: failed after a write"
    assert db.execute("SELECT balance FROM accounts WHERE account_id='acc1_0'").fetchone()[0] == 7
    assert not db.in_transaction
