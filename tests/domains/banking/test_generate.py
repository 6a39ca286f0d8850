"""The banking generator, loader, exporter and invariants."""

from __future__ import annotations

import json
import sqlite3

import pytest

from tool_gym.core.sandbox import Sandbox, build_database, canonical_json, template
from tool_gym.domains.banking import DOMAIN
from tool_gym.domains.banking.generate import generate
from tool_gym.domains.banking.io import TABLES, export


def test_same_seed_same_data_other_seed_other_data():
    a, b, c = generate(3), generate(3), generate(4)
    assert canonical_json(a) == canonical_json(b)
    assert canonical_json(a) != canonical_json(c)


def test_sizes_are_realistic():
    data = generate(0)
    assert set(data) == set(TABLES)
    assert 200 <= len(data["customers"]) <= 500
    assert 3000 <= sum(map(len, data.values())) <= 15000
    kinds = {(a["type"], a["status"]) for a in data["accounts"]}
    assert {("checking", "open"), ("savings", "open"), ("savings", "closed")} <= kinds
    assert {c["status"] for c in data["cards"]} == {"active", "frozen", "cancelled"}
    assert {t["status"] for t in data["transactions"]} == {"posted", "pending"}


def test_invariants_hold_on_generated_data(box):
    assert box.check_integrity() == []  # seed 0
    db = build_database(DOMAIN, 1)
    assert DOMAIN.invariants(db) == []
    assert db.execute("PRAGMA foreign_key_check").fetchall() == []
    db.close()


def test_round_trip_is_exact(tpl):
    data = generate(0)
    with Sandbox(tpl) as box:
        assert canonical_json(box.export()) == canonical_json(data)
        assert canonical_json(export(box.db)) == canonical_json(data)


def test_read_a_json_file(tmp_path, registered):
    path = tmp_path / "bank.json"
    data = generate(1)
    path.write_text(json.dumps(data), encoding="utf-8")
    assert DOMAIN.read(path) == json.loads(json.dumps(data))
    with Sandbox(template("banking", data=path)) as box:
        assert canonical_json(box.export()) == canonical_json(data)
        assert box.check_integrity() == []


def test_load_rejects_bad_data():
    db = sqlite3.connect(":memory:")
    db.executescript(DOMAIN.schema)
    with pytest.raises(ValueError, match="unknown tables"):
        DOMAIN.load(db, {"planets": []})
    with pytest.raises(ValueError, match="columns"):
        DOMAIN.load(db, {"customers": [{"customer_id": "x"}]})
    with pytest.raises(ValueError, match="JSON object"):
        DOMAIN.load(db, [])


def test_invariants_catch_broken_rules(box):
    db = box.db
    account = db.execute("SELECT account_id FROM accounts WHERE hold_amount > 0").fetchone()[0]
    db.execute("UPDATE accounts SET hold_amount = 0 WHERE account_id = ?", (account,))
    db.execute("UPDATE accounts SET balance = -5 WHERE account_id = (SELECT account_id "
               "FROM accounts WHERE hold_amount = 0 LIMIT 1 OFFSET 3)")
    problems = DOMAIN.invariants(db)
    assert any("pending card purchases" in p for p in problems)
    assert any("non-negative" in p for p in problems)
