import json
import threading
from importlib.metadata import EntryPoint

import pytest

from tool_gym.core.sandbox import Sandbox, Template, build_database, canonical_json, sandbox, template
from tool_gym.domains import ENTRY_POINT_GROUP as GROUP, plugins

from . import toy


@pytest.fixture()
def toy_registered(monkeypatch):
    monkeypatch.setitem(plugins(), "toy", EntryPoint("toy", "tests.core.toy:DOMAIN", GROUP))
    yield


def test_fresh_sandbox_has_foreign_keys_on(toy_registered):
    box = sandbox("toy", seed=3)
    assert box.db.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    assert box.check_integrity() == []


def test_template_is_cached_per_domain_and_seed(toy_registered):
    assert template("toy", 1) is template("toy", 1)
    assert template("toy", 1) is not template("toy", 2)
    assert sandbox("toy", 1).state_hash() != sandbox("toy", 2).state_hash()


def test_sandboxes_are_isolated_and_template_never_changes(toy_registered):
    tpl = template("toy", 5)
    digest = tpl.digest
    a, b = Sandbox(tpl), Sandbox(tpl)
    start = a.state_hash()
    assert a.call("transfer", {"src": "acc5_2", "dst": "acc5_1", "amount": 10}).ok
    assert a.state_hash() != start
    assert b.state_hash() == start
    assert Sandbox(tpl).state_hash() == start
    assert tpl.digest == digest


def test_isolation_across_threads(toy_registered):
    tpl = template("toy", 6)
    start = Sandbox(tpl).state_hash()
    hashes = {}

    def worker(i):
        box = Sandbox(tpl)
        for _ in range(i + 1):
            assert box.call("transfer", {"src": "acc6_2", "dst": "acc6_1", "amount": 1}).ok
        hashes[i] = box.export()["accounts"]

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for i, accounts in hashes.items():
        assert accounts[2]["balance"] == 200.0 - (i + 1)
    assert Sandbox(tpl).state_hash() == start


def test_snapshot_and_restore(toy_registered):
    box = sandbox("toy", 7)
    start = box.state_hash()
    snap = box.snapshot()
    assert box.call("transfer", {"src": "acc7_2", "dst": "acc7_1", "amount": 10}).ok
    assert box.state_hash() != start
    box.restore(snap)
    assert box.state_hash() == start
    assert box.db.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    assert box.call("transfer", {"src": "acc7_2", "dst": "acc7_1", "amount": 10}).ok


def test_generic_export_and_hash_are_canonical(toy_registered):
    box = sandbox("toy", 8)
    state = box.export()
    assert state["accounts"][0] == {"account_id": "acc8_0", "owner": "owner0", "balance": 0.0}
    assert state["transfers"] == []
    assert box.export("tables") == state
    assert box.state_json() == canonical_json(state) == json.dumps(state, sort_keys=True)
    with pytest.raises(ValueError, match="unknown export format"):
        box.export("tau2")


def test_integrity_check_reports_invariants_and_foreign_keys(toy_registered):
    box = sandbox("toy", 9)
    box.db.execute("UPDATE accounts SET balance = -1 WHERE account_id = 'acc9_1'")
    box.db.execute("PRAGMA foreign_keys = OFF")
    box.db.execute("INSERT INTO transfers (src, dst, amount) VALUES ('ghost', 'acc9_1', 1)")
    problems = box.check_integrity()
    assert "negative balance on acc9_1" in problems
    assert any(p.startswith("foreign key violation") for p in problems)


def test_import_from_a_data_path(toy_registered, tmp_path):
    path = tmp_path / "toy.json"
    path.write_text(json.dumps({"accounts": [["x", "someone", 1.0]]}))
    box = sandbox("toy", data=path)
    assert box.call("find_account", {"owner": "someone"}).content == "x"
    assert template("toy", data=path) is template("toy", data=str(path))
    with pytest.raises(FileNotFoundError):
        sandbox("toy", data=tmp_path / "missing.json")


def test_unknown_domain():
    with pytest.raises(KeyError, match="unknown domain"):
        sandbox("no-such-domain")


def test_context_manager_closes():
    tpl = Template(toy.DOMAIN, build_database(toy.DOMAIN, 1), ("toy", 1))
    with Sandbox(tpl) as box:
        assert box.tools == toy.DOMAIN.toolbox.schemas
    with pytest.raises(Exception):
        box.db.execute("SELECT 1")
