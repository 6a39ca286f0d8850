"""Chain synthesis: walks along the graph, replay filter, ground truth, phrasing, dedup."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

from tool_gym.core.actions import ToolCall
from tool_gym.domains import domain_names, get_domain
from tool_gym.core.sandbox import Sandbox, template
from tool_gym.core.task_model import SamplerConfig, Task
from tool_gym.core.users import _IDENTITY, _PROPOSAL
from tool_gym.synth.chains import (FAILURE, PARTIAL, SUCCESS, Chain, ChainConfig, ChainStep,
                                   ChainTaskKit, Source, jaccard, mode_schedule, synthesize)

WITH_KIT = [d for d in sorted(domain_names()) if get_domain(d).tasks is not None]


@pytest.fixture(scope="module")
def retail_kit():
    tpl = template("retail")
    return ChainTaskKit("retail", template=tpl), tpl


def test_config_and_jaccard():
    assert ChainConfig.of(None) == ChainConfig()
    cfg = ChainConfig.of({"distractors": [4, 5], "p_missing": 0.5})
    assert cfg.distractors == (4, 5) and cfg.p_missing == 0.5
    d = ChainConfig()
    assert d.p_complete + d.p_missing + d.p_minimal == pytest.approx(1.0)
    assert (d.p_complete, d.p_missing, d.p_minimal) == (0.6, 0.2, 0.2)
    assert (d.p_distractors, d.distractors, d.p_strip_enums, d.p_unanswerable) == \
        (0.4, (3, 8), 0.3, 0.05)
    assert (d.min_length, d.max_length, d.max_failure, d.dedup) == (2, 5, 0.3, 0.7)
    assert jaccard(frozenset("ab"), frozenset("bc")) == pytest.approx(1 / 3)
    assert jaccard(frozenset(), frozenset()) == 0.0


@pytest.mark.parametrize("domain", WITH_KIT)
def test_synthesized_chains_are_grounded(domain):
    report = synthesize(domain, 10, seed=3)
    assert len(report.tasks) == 10 and report.per_second > 0
    stats = report.stats
    assert stats["kept"] == 10 and stats["draws"] >= 10
    signatures = []
    tpl = template(domain)
    toolbox = get_domain(domain).toolbox
    for task in report.tasks:
        c = task.constraints[0]
        assert c.type == "chain" and task.persona["source"] == "chains"
        assert Task.from_dict(json.loads(json.dumps(task.to_dict()))) == task
        if c.args["unanswerable"]:
            assert c.args["ground_truth"] == [] and len(c.solution) == 1
            continue
        calls = c.args["calls"]
        assert 2 <= len(calls) <= 5
        # each step tagged by its outcome on replay (failures were pruned)
        assert len(c.args["outcomes"]) == len(calls)
        assert set(c.args["outcomes"]) <= {SUCCESS, PARTIAL}
        truth = c.args["ground_truth"]
        assert [g["name"] for g in truth[1:]] == [x["name"] for x in calls]
        assert truth[0]["name"] in get_domain(domain).tasks.auth_tools
        for k, g in enumerate(truth):
            assert all(j < k for j in g["after"])
        # every call after the first takes an entity that an earlier chain call returned
        for k in range(2, len(truth)):
            assert any(j >= 1 for j in truth[k]["after"]) or truth[k]["after"], truth
        # the ground truth runs without error on a fresh sandbox and reaches `expect`
        with Sandbox(tpl) as box:
            if c.expect:
                assert not all(e.holds(box.db) for e in c.expect)
            for g in truth:
                assert box.call(g["name"], g["arguments"]).ok
            assert all(e.holds(box.db) for e in c.expect)
        writes = [x for x in calls if toolbox[x["name"]].category.value == "write"]
        assert len(c.writes) == len(writes) <= ChainConfig().max_writes
        assert (c.answer is None) == bool(writes)
        signatures.append(frozenset(f"{x['name']}:{json.dumps(x['arguments'], sort_keys=True)}"
                                    for x in calls))
    for i, a in enumerate(signatures):
        for b in signatures[i + 1:]:
            assert jaccard(a, b) < 0.7


def test_solution_messages_are_understood_by_the_scripted_user(retail_kit):
    kit, tpl = retail_kit
    for i in range(12):
        task = kit.sample(tpl.reader(), np.random.default_rng(i), "train", SamplerConfig())
        c = task.constraints[0]
        for step in c.solution:
            if step.expects_confirmation:
                assert _PROPOSAL.search(step.say) and not _IDENTITY.search(step.say)
                assert any(any(t.lower() in step.say.lower() for t in g)
                           for g in c.confirm_terms)
            elif step.say and step is not c.solution[-1]:  # the question in missing mode
                assert not _PROPOSAL.search(step.say) and not _IDENTITY.search(step.say)


def test_missing_mode_withholds_one_value_and_supplies_it_when_asked(retail_kit):
    kit, tpl = retail_kit
    kit = ChainTaskKit("retail", template=tpl,
                       config={"p_complete": 0, "p_missing": 1, "p_minimal": 0,
                               "p_unanswerable": 0})
    found = 0
    for i in range(10):
        task = kit.sample(tpl.reader(), np.random.default_rng(i), "train", SamplerConfig())
        c = task.constraints[0]
        assert c.args["mode"] == "missing"  # never turned into another mode
        found += 1
        withheld = c.args["withheld"]
        value = withheld["value"]
        assert not any(n.lower() in c.say[0].lower() for n in withheld["needles"])
        assert all(n in c.say[1] for n in withheld["needles"])
        assert c.say[1].startswith("Sorry, I forgot")
        assert kit.request(task, c, np.random.default_rng(0)) == c.say[1]
        asks = [k for k, s in enumerate(c.solution[:-1]) if s.say and not s.expects_confirmation]
        first_use = next(k for k, s in enumerate(c.solution) if s.call is not None
                         and s.call.arguments.get(withheld["param"]) == value
                         and s.call.name == c.args["calls"][withheld["step"]]["name"])
        assert len(asks) == 1 and asks[0] < first_use
        question = c.solution[asks[0]].say
        assert question.endswith("?")
        # the scripted user answers the question (and any other question before it has the
        # value) with the value alone
        for message in (question, "What is the order id?", "Which one do you mean?"):
            user = kit.scripted_user(task, tpl.reader(), np.random.default_rng(0), 6)
            assert user.respond(message) == c.say[1]
    assert found == 10


def test_complete_and_minimal_requests_give_every_value(retail_kit):
    kit, tpl = retail_kit
    for mode in ("complete", "minimal"):
        k = ChainTaskKit("retail", template=tpl,
                         config={"p_complete": float(mode == "complete"), "p_missing": 0,
                                 "p_minimal": float(mode == "minimal"), "p_unanswerable": 0})
        for i in range(6):
            task = k.sample(tpl.reader(), np.random.default_rng(i), "train", SamplerConfig())
            c = task.constraints[0]
            assert c.args["mode"] == mode and c.args["withheld"] is None
            # what the user must give is in the request, verbatim: ids the user must
            # choose (or the sibling field that picks them out) and values only they know
            for given in c.args["given"]:
                assert given["needles"]
                assert all(n in c.say[0] for n in given["needles"]), (given, c.say[0])
                assert given["text"] in c.say[0]
            assert k.opening(task, c, np.random.default_rng(0)).endswith(c.say[0])
            assert k.scripted_user(task, tpl.reader(), np.random.default_rng(0), 6) is None


def _chain(kit, tpl, user_id, auth, calls) -> Chain:
    steps = [ChainStep(ToolCall(n, a), get_domain("retail").toolbox[n].category.value == "write",
                       {p: Source("choice", 0) for p in a}) for n, a in calls]
    return Chain(steps, auth, "")


def test_replay_filter_drops_and_prunes(retail_kit):
    kit, tpl = retail_kit
    builder = kit.builder(tpl.reader())
    db = tpl.reader()
    user, = db.execute("SELECT user_id FROM users ORDER BY rowid LIMIT 1").fetchone()
    orders = [o for (o,) in db.execute("SELECT order_id FROM orders WHERE user_id = ?", (user,))]
    auth = ToolCall("get_user_details", {"user_id": user})  # any successful first call
    builder.stats.clear()
    # half of the calls fail on a fresh sandbox: dropped
    bad = _chain(kit, tpl, user, auth, [("get_order_details", {"order_id": orders[0]}),
                                        ("get_order_details", {"order_id": "#W0"})])
    assert builder.finish(bad) is None and builder.stats["drop_replay_failed"] == 1
    # one of four fails (25% <= 30%): pruned, the rest kept
    calls = [("get_user_details", {"user_id": user}),
             ("get_order_details", {"order_id": orders[0]}),
             ("get_order_details", {"order_id": "#W0"}),
             ("get_order_details", {"order_id": orders[-1]})]
    kept = builder.finish(_chain(kit, tpl, user, auth, calls))
    assert kept is not None and [s.call.arguments for s in kept.steps][1:] == \
        [{"order_id": orders[0]}, {"order_id": orders[-1]}]
    assert builder.stats["replay_pruned_calls"] == 1
    assert kept.answer is not None and kept.ground_truth[0].name == "get_user_details"
    # outcome tags: the calls that ran, and the one the filter took out
    assert kept.outcomes == [SUCCESS, SUCCESS, SUCCESS]
    assert [(p["name"], p["arguments"], p["outcome"]) for p in kept.pruned] == \
        [("get_order_details", {"order_id": "#W0"}, FAILURE)]
    # sources point at the renumbered steps
    assert all(src.step in (None, -1, 0, 1, 2) for s in kept.steps for src in s.sources.values())


def test_outcome_tags():
    """SUCCESS: the call did something; PARTIAL: it ran but returned no data (a read) or
    changed no row (a write); FAILURE: it returned an error."""
    tpl = template("banking")
    kit = ChainTaskKit("banking", template=tpl)
    builder = kit.builder(tpl.reader())
    read = ChainStep(ToolCall("list_cards", {"customer_id": "cus_1"}), False, {})
    db = builder.fresh()
    builder.tables.track(db)
    mark = builder.tables.mark(db)
    empty = json.dumps({"customer_id": "cus_1", "cards": []})
    full = json.dumps({"customer_id": "cus_1", "cards": [{"card_id": "card_1"}]})
    assert builder.outcome(read, True, empty, db, mark) == PARTIAL
    assert builder.outcome(read, True, "[]", db, mark) == PARTIAL
    assert builder.outcome(read, True, full, db, mark) == SUCCESS
    assert builder.outcome(read, False, "Error: no such customer", db, mark) == FAILURE
    card, status = db.execute("SELECT card_id, status FROM cards WHERE status = 'active' "
                              "LIMIT 1").fetchone()
    write = ChainStep(ToolCall("freeze_card", {"card_id": card}), True, {})
    mark = builder.tables.mark(db)
    assert builder.toolbox.call(db, "freeze_card", {"card_id": card}).ok
    assert builder.outcome(write, True, "", db, mark) == SUCCESS
    mark = builder.tables.mark(db)  # the same values again: a row touched, nothing changed
    db.execute("UPDATE cards SET status = status WHERE card_id = ?", (card,))
    assert builder.outcome(write, True, "", db, mark) == PARTIAL
    db.close()


def test_writes_without_effect_are_dropped(retail_kit):
    kit, tpl = retail_kit
    builder = kit.builder(tpl.reader())
    db = tpl.reader()
    row = db.execute("SELECT user_id, address1, address2, city, state, country, zip FROM users "
                     "ORDER BY rowid LIMIT 1").fetchone()
    same = dict(zip(("user_id", "address1", "address2", "city", "state", "country", "zip"), row))
    auth = ToolCall("get_user_details", {"user_id": row[0]})
    builder.stats.clear()
    chain = _chain(kit, tpl, row[0], auth, [("get_user_details", {"user_id": row[0]}),
                                            ("modify_user_address", same)])
    assert builder.finish(chain) is None and builder.stats["drop_no_effect"] == 1
    moved = dict(same, city="Elsewhere")
    chain = _chain(kit, tpl, row[0], auth, [("modify_user_address", moved),
                                            ("modify_user_address", dict(moved, zip="00001"))])
    done = builder.finish(chain)
    assert done is not None and len(done.expect) == 1  # the user's row, final state
    assert "Elsewhere" in done.expect[0].rows[0] and "00001" in done.expect[0].rows[0]
    # the same two writes, the second one changing nothing: the need holds before it
    chain = _chain(kit, tpl, row[0], auth, [("modify_user_address", moved),
                                            ("modify_user_address", dict(moved))])
    builder.stats.clear()
    assert builder.finish(chain) is None
    assert builder.stats["drop_premature"] + builder.stats["drop_replay_failed"] == 1


def test_llm_backend_is_used_only_when_it_keeps_the_values(retail_kit):
    kit, tpl = retail_kit

    class Echo:  # a backend that returns the draft as it is
        def generate(self, messages):
            return messages[-1]["content"].split("Draft: ", 1)[1]

    class Fluent:  # rewrites, keeping every value
        def generate(self, messages):
            return "Hey, quick one. " + messages[-1]["content"].split("Draft: ", 1)[1]

    class Vague:
        def generate(self, messages):
            return "Can you help me with my order?"

    class Technical:  # keeps the values but names the tools
        def generate(self, messages):
            return ("Please call get_order_details then list_all_product_types. "
                    + messages[-1]["content"].split("Draft: ", 1)[1])

    class Broken:
        def generate(self, messages):
            raise RuntimeError("no model")

    plain = ChainTaskKit("retail", template=tpl, config={"p_unanswerable": 0})
    seed = next(i for i in range(20) if plain.sample(
        tpl.reader(), np.random.default_rng(i), "train", SamplerConfig()
    ).constraints[0].args["given"])  # a request that must state some value
    expected = plain.sample(tpl.reader(), np.random.default_rng(seed), "train", SamplerConfig())
    for backend, key in ((Echo(), "phrasing_backend"), (Vague(), "phrasing_fallback"),
                         (Technical(), "phrasing_fallback"), (Broken(), "phrasing_fallback")):
        k = ChainTaskKit("retail", template=tpl, backend=backend,
                         config={"p_unanswerable": 0})
        task = k.sample(tpl.reader(), np.random.default_rng(seed), "train", SamplerConfig())
        assert k.stats[key] == 1, (backend, dict(k.stats))
        assert task.constraints[0].say == expected.constraints[0].say  # same text here
    k = ChainTaskKit("retail", template=tpl, backend=Fluent(), config={"p_unanswerable": 0})
    task = k.sample(tpl.reader(), np.random.default_rng(seed), "train", SamplerConfig())
    c = task.constraints[0]
    assert k.stats["phrasing_backend"] == 1 and c.say[0].startswith("Hey, quick one.")
    assert all(n in c.say[0] for g in c.args["given"] for n in g["needles"])


def test_near_duplicates_are_dropped():
    report = synthesize("retail", 3, seed=0, config={"dedup": 0.0}, max_draws=12)
    # with a threshold of 0 every chain after the first kept one is a near-duplicate
    assert len(report.tasks) == 1 and report.stats["drop_near_duplicate"] >= 3
    assert report.stats["draws"] == 12


def test_sampling_is_deterministic(retail_kit):
    kit, tpl = retail_kit
    a = kit.sample(tpl.reader(), np.random.default_rng(11), "test", SamplerConfig(), "test-1")
    b = ChainTaskKit("retail", template=tpl).sample(tpl.reader(), np.random.default_rng(11),
                                                    "test", SamplerConfig(), "test-1")
    assert a.digest == b.digest and a.split == "test"
    assert kit.split_of(a.user_id) == "test"


def test_live_synthesis_reports_filter_statistics():
    report = synthesize("retail", 12, seed=1, live=True)
    stats = report.stats
    assert stats["kept"] == 12
    dropped = {k: v for k, v in stats.items() if k.startswith("drop_")}
    assert all(v >= 0 for v in dropped.values())
    assert re.fullmatch(r"\d+", str(stats["attempts"]))


def test_mode_schedule_is_stratified():
    rng = np.random.default_rng(0)
    modes = [m for m, _ in zip(mode_schedule(None, rng), range(1000))]
    assert modes.count("complete") == 600 and modes.count("missing") == 200
    assert modes[:20] != sorted(modes[:20])  # shuffled within a block
    odd = mode_schedule({"p_complete": 0.5, "p_missing": 0.25, "p_minimal": 0.25},
                        np.random.default_rng(1))
    first = [next(odd) for _ in range(20)]
    assert (first.count("complete"), first.count("missing"), first.count("minimal")) == \
        (10, 5, 5)
    with pytest.raises(ValueError):
        next(mode_schedule({"p_complete": 0, "p_missing": 0, "p_minimal": 0}, rng))
