"""The tool dependency graph: edges from entity types, exports, entity values, data flow."""

from __future__ import annotations

import json
from pathlib import Path

import networkx as nx
import pytest

from tool_gym.core import depgraph
from tool_gym.domains import domain_names, get_domain
from tool_gym.core.tools import Annotated, Category, Entity, Toolbox, tool

from . import toy

AccountId = Annotated[str, Entity("account_id")]
ROOT = Path(__file__).resolve().parents[2]


@tool(Category.READ, returns={"accounts.account_id": "account_id", "*": "owner"})
def list_accounts(db) -> dict:
    """List every account."""
    return {}


@tool(Category.READ, needs=("account_id",))
def audit(db, note: str) -> str:
    """Audit the ledger (needs the state of accounts, declared).

    Args:
        note: A note.
    """
    return "ok"


@tool(Category.READ)
def balance_maybe(db, account_id: AccountId = "") -> str:
    """An optional entity input makes no explicit edge.

    Args:
        account_id: An account.
    """
    return "0"


TOOLBOX = Toolbox([*toy.DOMAIN.toolbox, list_accounts, audit, balance_maybe])


def test_explicit_edges_follow_required_entity_inputs():
    g = depgraph.build_graph(TOOLBOX)
    assert set(g.nodes) == set(TOOLBOX.names)
    # find_account returns an account_id: both tools that require one follow it
    assert g.edges["find_account", "get_balance"]["explicit"] == ["account_id"]
    assert g.edges["find_account", "transfer"]["params"] == ["dst", "src"]
    assert g.edges["list_accounts", "transfer"]["kind"] == "explicit"
    # an optional input, a tool returning nothing declared, generic tools: no edge
    assert not g.has_edge("find_account", "balance_maybe")
    assert not any(g.has_edge("get_balance", b) for b in g.nodes)
    assert g.degree("echo") == 0
    assert not any(a == b for a, b in g.edges)  # no self-loops


def test_implicit_edges_declared_and_inferred():
    g = depgraph.build_graph(TOOLBOX)
    # transfer writes account_id; audit declares it needs it
    e = g.edges["transfer", "audit"]
    assert e["kind"] == "implicit" and e["implicit"] == ["account_id"] and not e["inferred"]
    # get_balance declares nothing: it needs the state of its required input (inferred)
    e = g.edges["transfer", "get_balance"]
    assert e["implicit"] == ["account_id"] and e["inferred"]
    declared = depgraph.build_graph(TOOLBOX, infer_needs=False)
    assert declared.has_edge("transfer", "audit")
    assert not declared.has_edge("transfer", "get_balance")
    # reads never make implicit edges
    assert not g.has_edge("get_balance", "audit")


def test_sizes_count_kinds():
    s = depgraph.sizes(depgraph.build_graph(TOOLBOX))
    assert s["nodes"] == len(TOOLBOX)
    assert s["edges"] == s["explicit"] + sum(
        1 for *_, d in depgraph.build_graph(TOOLBOX).edges(data=True) if not d["explicit"])
    assert s["implicit_declared"] == 1


@pytest.mark.parametrize("name", sorted(domain_names()))
def test_every_domain_graph_is_consistent(name):
    domain = get_domain(name)
    g = depgraph.build_graph(name)
    assert g.number_of_nodes() == len(domain.toolbox) and g.graph["domain"] == name
    assert g.number_of_edges() > 0
    for a, b, d in g.edges(data=True):
        ta, tb = domain.toolbox[a], domain.toolbox[b]
        for entity in d["explicit"]:
            assert entity in ta.output_entities.values()
            assert any(tb.input_entities.get(p) == entity for p in tb.required)
        for entity in d["implicit"]:
            assert ta.category is Category.WRITE and entity in ta.writes
        assert d["kind"] in ("explicit", "implicit", "both")


def test_cross_domain_graph():
    g = depgraph.build_cross_graph()
    names = {f"{d}/{t.name}" for d in domain_names() for t in get_domain(d).toolbox}
    assert set(g.nodes) == names
    for a, b, d in g.edges(data=True):
        assert d["cross_domain"] == (a.split("/")[0] != b.split("/")[0])
        if d["cross_domain"]:
            assert d["explicit"] and not d["implicit"]
    within = depgraph.build_cross_graph(cross_edges=False)
    assert not any(d["cross_domain"] for *_, d in within.edges(data=True))


def test_exports(tmp_path):
    g = depgraph.build_graph(TOOLBOX)
    data = depgraph.graph_json(g)
    assert json.loads(json.dumps(data)) == data
    assert {n["id"] for n in data["nodes"]} == set(g.nodes)
    assert len(data["edges"]) == g.number_of_edges()
    depgraph.write_graphml(g, tmp_path / "toy.graphml")
    back = nx.read_graphml(tmp_path / "toy.graphml")
    assert set(back.edges) == set(g.edges)
    assert back.edges["transfer", "audit"]["kind"] == "implicit"
    depgraph.draw(g, tmp_path / "toy.png", title="toy")
    assert (tmp_path / "toy.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_export_command_writes_every_domain(tmp_path):
    report = depgraph.main(["--out", str(tmp_path), "--domains", "retail", "--no-png"])
    assert report["retail"]["nodes"] == len(get_domain("retail").toolbox)
    for name in ("retail.json", "retail.graphml", "all.json", "all.graphml"):
        assert (tmp_path / name).exists()


def test_domain_overview_folds_the_cross_graph():
    names = ["retail", "airline", "banking"]
    cross = depgraph.build_cross_graph(names)
    overview = depgraph.domain_overview(cross)
    assert set(overview.nodes) == set(names)
    for name in names:
        assert overview.nodes[name]["tools"] == len(get_domain(name).toolbox)
        assert overview.nodes[name]["edges"] == sum(
            1 for a, b in cross.edges if a.startswith(name + "/") and b.startswith(name + "/"))
    across = sum(1 for *_, d in cross.edges(data=True) if d["cross_domain"])
    assert sum(d["count"] for *_, d in overview.edges(data=True)) == across > 0
    for a, b, d in overview.edges(data=True):
        assert a != b and d["entities"]


def test_png_all_draws_the_overview(tmp_path):
    depgraph.main(["--out", str(tmp_path), "--domains", "retail,airline", "--png-all"])
    for name in ("retail.png", "airline.png", "all.png"):
        assert (tmp_path / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("name", [*domain_names(), "all"])
def test_committed_pictures_exist(name):
    """One figure per domain and the overview (redrawn with ``depgraph.draw`` and
    ``depgraph.draw_overview``, or ``python -m tool_gym.core.depgraph --out DIR --png-all``,
    when a domain is added)."""
    picture = ROOT / "docs" / "graphs" / f"{name}.png"
    assert picture.exists() and picture.read_bytes()[:4] == b"\x89PNG"


def test_extract_entities_follows_paths():
    refs = depgraph.extract_entities(list_accounts, json.dumps(
        {"accounts": [{"account_id": "a1"}, {"account_id": "a2"}], "x": "o1"}))
    by = {(r.type, r.value) for r in refs}
    assert ("account_id", "a1") in by and ("account_id", "a2") in by
    assert ("owner", "o1") in by  # "*": every value of the object
    a1 = next(r for r in refs if r.value == "a1")
    assert a1.context == {"account_id": "a1"} and a1.path == "accounts.account_id"
    # ".": the result itself (plain text)
    assert [r.value for r in depgraph.extract_entities(toy.find_account, "acc0_1")] == ["acc0_1"]
    retail = get_domain("retail").toolbox
    user = {"user_id": "u1", "orders": ["#W1", "#W2"],
            "payment_methods": {"credit_card_1": {"source": "credit_card"}}}
    refs = depgraph.extract_entities(retail["get_user_details"], json.dumps(user))
    assert {(r.type, r.value) for r in refs} == {
        ("user_id", "u1"), ("order_id", "#W1"), ("order_id", "#W2"),
        ("payment_method_id", "credit_card_1")}
    card = next(r for r in refs if r.value == "credit_card_1")
    assert card.context == {"source": "credit_card"}  # an object keyed by id: its record
    assert depgraph.extract_entities(retail["get_user_details"], "Error: nope") == []


def test_call_dependencies_by_data_flow():
    calls = [("find_account", {"owner": "owner1"}),
             ("get_balance", {"account_id": "acc0_1"}),
             ("transfer", {"src": "acc0_1", "dst": "acc0_2", "amount": 1.0}),
             ("get_balance", {"account_id": "acc0_1"}),
             ("get_balance", {"account_id": "acc0_2"})]
    results = ["acc0_1", '{"balance": 1}', '{"src": "acc0_1"}', '{}', '{}']
    deps = depgraph.call_dependencies(toy.DOMAIN.toolbox, calls, results)
    # get_balance uses the id find_account returned; transfer too (acc0_2 came from the
    # user); the balance read after the transfer depends on it (implicit, same account)
    assert deps == [(), (0,), (0,), (0, 2), (2,)]
    assert depgraph.call_dependencies(toy.DOMAIN.toolbox, calls, results,
                                      infer_needs=False)[3] == (0,)
    assert depgraph.call_dependencies(toy.DOMAIN.toolbox, [("nope", {})], [None]) == [()]
