"""The CRM generator, loader, exporter and invariants."""

from __future__ import annotations

import json
import sqlite3

import pytest

from tool_gym.core.sandbox import Sandbox, build_database, canonical_json, template
from tool_gym.domains.crm import DOMAIN
from tool_gym.domains.crm.generate import generate
from tool_gym.domains.crm.io import TABLES, export
from tool_gym.domains.crm.tools import STAGES


def test_same_seed_same_data_other_seed_other_data():
    a, b, c = generate(3), generate(3), generate(4)
    assert canonical_json(a) == canonical_json(b)
    assert canonical_json(a) != canonical_json(c)


def test_sizes_are_realistic():
    data = generate(0)
    assert set(data) == set(TABLES)
    assert 200 <= len(data["reps"]) <= 500
    assert 3000 <= sum(map(len, data.values())) <= 15000
    assert {o["stage"] for o in data["opportunities"]} == set(STAGES)
    assert {lead["status"] for lead in data["leads"]} == {
        "new", "contacted", "qualified", "disqualified", "converted"}
    assert {t["status"] for t in data["tasks"]} == {"open", "completed"}


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
    path = tmp_path / "crm.json"
    data = generate(1)
    path.write_text(json.dumps(data), encoding="utf-8")
    assert DOMAIN.read(path) == json.loads(json.dumps(data))
    with Sandbox(template("crm", data=path)) as box:
        assert canonical_json(box.export()) == canonical_json(data)
        assert box.check_integrity() == []


def test_load_rejects_bad_data():
    db = sqlite3.connect(":memory:")
    db.executescript(DOMAIN.schema)
    with pytest.raises(ValueError, match="unknown tables"):
        DOMAIN.load(db, {"planets": []})
    with pytest.raises(ValueError, match="columns"):
        DOMAIN.load(db, {"reps": [{"rep_id": "x"}]})


def test_invariants_catch_broken_rules(box):
    db = box.db
    db.execute("UPDATE opportunities SET close_reason = 'x' WHERE opportunity_id = (SELECT "
               "opportunity_id FROM opportunities WHERE stage = 'proposal' LIMIT 1)")
    db.execute("UPDATE activities SET rep_id = (SELECT rep_id FROM reps LIMIT 1 OFFSET 7) "
               "WHERE activity_id = (SELECT activity_id FROM activities LIMIT 1)")
    problems = DOMAIN.invariants(db)
    assert any("no closing data" in p for p in problems)
    assert any("opportunity's owner" in p for p in problems)
