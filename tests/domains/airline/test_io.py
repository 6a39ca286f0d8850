"""Import / export of airline data: tau-bench's three files and tau2's ``db.json``."""

from __future__ import annotations

import copy
import json

import pytest

import tool_gym
from tool_gym.core.sandbox import Sandbox, Template, build_database, template
from tool_gym.domains.airline import DOMAIN, io

from .conftest import canonical, normalized_v1


def _db(data):
    return build_database(DOMAIN, data=data)


# ------------------------------------------------------------------------ tiny data


def test_tiny_round_trip(tiny_data):
    assert io.export(_db(tiny_data)) == tiny_data
    assert json.dumps(io.export(_db(tiny_data))) == json.dumps(tiny_data)  # key order too


def test_export_normalizes_like_tau2(tiny_data):
    data = copy.deepcopy(tiny_data)
    # v1-like input: ints for balances, no status, no user_id, extra keys in records
    data["users"]["alice_ng_1001"]["payment_methods"]["gift_card_1000002"]["amount"] = 500
    del data["users"]["alice_ng_1001"]["user_id"]
    del data["reservations"]["RES001"]["status"]
    data["reservations"]["RES001"]["note"] = "ignored"
    data["flights"]["HAT001"]["dates"]["2024-05-14"]["extra"] = 1
    out = io.export(_db(data))
    assert out == tiny_data
    amount = out["users"]["alice_ng_1001"]["payment_methods"]["gift_card_1000002"]["amount"]
    assert type(amount) is float


def test_load_rejects_bad_data(tiny_data):
    bad = copy.deepcopy(tiny_data)
    bad["extra"] = {}
    with pytest.raises(ValueError, match="unknown top-level keys"):
        _db(bad)
    bad = copy.deepcopy(tiny_data)
    bad["users"]["alice_ng_1001"]["user_id"] = "someone_else"
    with pytest.raises(ValueError, match="differs"):
        _db(bad)
    bad = copy.deepcopy(tiny_data)
    bad["flights"]["HAT001"]["dates"]["2024-05-20"]["prices"]["economy"] = 120.5
    with pytest.raises(ValueError, match="expected an integer"):
        _db(bad)
    bad = copy.deepcopy(tiny_data)
    bad["flights"]["HAT001"]["dates"]["2024-05-20"]["status"] = "boarding"
    with pytest.raises(ValueError, match="unknown status"):
        _db(bad)
    bad = copy.deepcopy(tiny_data)
    bad["reservations"]["RES001"]["cabin"] = "first"
    with pytest.raises(Exception):
        _db(bad)


def test_export_v1_layout(tiny_data):
    out = io.export_v1(_db(tiny_data))
    assert list(out) == ["flights", "reservations", "users"]
    alice = out["users"]["alice_ng_1001"]
    assert "user_id" not in alice
    assert list(alice["payment_methods"]["credit_card_1000001"]) == [
        "source", "brand", "last_four", "id"]
    assert alice["payment_methods"]["gift_card_1000002"] == {
        "source": "gift_card", "amount": 500, "id": "gift_card_1000002"}
    r = out["reservations"]["RES001"]
    assert "status" not in r
    assert list(r["flights"][0]) == ["origin", "destination", "flight_number", "date", "price"]


def test_export_v1_keeps_status_of_cancelled_and_fractional_balances(tiny_sandbox):
    box = tiny_sandbox
    assert box.call("cancel_reservation", {"reservation_id": "RES001"}).ok
    box.db.execute("UPDATE payment_methods SET amount = 12.5 WHERE id = 'gift_card_1000004'")
    out = box.export("tau-bench")
    assert out["reservations"]["RES001"]["status"] == "cancelled"
    assert out["users"]["alice_ng_1001"]["payment_methods"]["gift_card_1000004"]["amount"] == 12.5


def test_read_tau2_db_json_file_and_directory(tmp_path, tiny_data):
    (tmp_path / "db.json").write_text(json.dumps(tiny_data))
    assert io.read(tmp_path / "db.json") == tiny_data
    assert io.read(tmp_path) == tiny_data
    with pytest.raises(FileNotFoundError):
        io.read(tmp_path / "empty")  # neither a file nor a directory
    (tmp_path / "empty").mkdir()
    with pytest.raises(FileNotFoundError, match="db.json"):
        io.read(tmp_path / "empty")


def test_read_v1_directory(tmp_path, tiny_data):
    v1 = io.export_v1(_db(tiny_data))
    for name, content in v1.items():
        (tmp_path / f"{name}.json").write_text(json.dumps(content))
    native = io.read(tmp_path)
    assert native["users"]["alice_ng_1001"]["user_id"] == "alice_ng_1001"
    assert io.export(_db(native)) == tiny_data


def test_sandbox_from_a_data_path(tmp_path, tiny_data):
    (tmp_path / "db.json").write_text(json.dumps(tiny_data))
    box = tool_gym.sandbox("airline", data=tmp_path)
    assert box.export() == tiny_data
    assert box.check_integrity() == []
    assert template("airline", data=tmp_path) is template("airline", data=str(tmp_path))


def test_generated_sandbox_through_the_domain_table():
    box = tool_gym.sandbox("airline", seed=0)
    assert box.check_integrity() == []
    assert box.call("list_all_airports", {}).ok


# ----------------------------------------------------------------- tau-bench files


def test_v1_export_is_byte_identical(v1_raw, v1_template):
    box = Sandbox(v1_template)
    out = box.export("tau-bench")
    for name in ("flights", "reservations", "users"):
        assert json.dumps(out[name]) == json.dumps(v1_raw[name]), name


def test_v1_tau2_export_is_the_normalized_input(v1_raw, v1_template):
    box = Sandbox(v1_template)
    expected = normalized_v1(v1_raw)
    out = box.export()
    assert out == expected
    assert canonical(out) == canonical(expected)
    # reservation segments come out in tau2's key order
    first = next(iter(out["reservations"].values()))
    assert list(first["flights"][0]) == ["flight_number", "origin", "destination", "date",
                                         "price"]


def test_v1_round_trip_through_tau2_db_json(v1_template, tmp_path):
    out = Sandbox(v1_template).export()
    (tmp_path / "db.json").write_text(json.dumps(out))
    again = Template(DOMAIN, build_database(DOMAIN, data=tmp_path / "db.json"), ("x",))
    assert Sandbox(again).state_hash() == Sandbox(v1_template).state_hash()


def test_v1_data_satisfies_the_invariants(v1_template):
    box = Sandbox(v1_template)
    assert box.check_integrity() == []


def test_v1_facts_of_the_spec(v1_raw):
    """The counts and invariants that spec section 1.1 states about the v1 files."""
    flights, users, reservations = v1_raw["flights"], v1_raw["users"], v1_raw["reservations"]
    assert len(flights) == 300 and len(users) == 500 and len(reservations) == 2000
    assert sum("+1" in f["scheduled_arrival_time_est"] for f in flights.values()) == 36
    for r in reservations.values():
        n = len(r["passengers"])
        price = (sum(s["price"] for s in r["flights"]) * n
                 + (30 * n if r["insurance"] == "yes" else 0) + 50 * r["nonfree_baggages"])
        assert [p["amount"] for p in r["payment_history"]] == [price]
        assert r["payment_history"][0]["payment_id"] in users[r["user_id"]]["payment_methods"]
        assert r["reservation_id"] in users[r["user_id"]]["reservations"]
    assert not {"HATHAT", "HATHAU", "HATHAV"} & set(reservations)
    ids = [m for u in users.values() for m in u["payment_methods"]]
    assert len(ids) == len(set(ids))
    assert not {"certificate_3221322", "certificate_3221323", "certificate_3221324"} & set(ids)
