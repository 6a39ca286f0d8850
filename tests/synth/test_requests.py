"""Requests in a user's words: the phrasing data of every tool and what chains make of it."""

from __future__ import annotations

import json
from collections import Counter

import numpy as np
import pytest

from tool_gym.core.depgraph import EntityRef
from tool_gym.core.sandbox import template
from tool_gym.core.task_model import SamplerConfig
from tool_gym.domains import domain_names, get_domain
from tool_gym.synth import requests
from tool_gym.synth.chains import FAILURE, PARTIAL, SUCCESS, ChainTaskKit, synthesize
from tool_gym.synth.requests import (MissingPhrasing, ToolPhrasing, banned_names, names_in,
                                     problems, refer, show)

WITH_KIT = [d for d in domain_names() if get_domain(d).tasks is not None]


@pytest.mark.parametrize("domain", domain_names())
def test_every_tool_of_every_domain_has_phrasing(domain):
    assert problems(domain) == []
    entries = requests.load(domain)
    assert set(entries) == set(get_domain(domain).toolbox.names)


def test_a_tool_without_an_entry_fails(monkeypatch):
    full = requests.load("banking")
    partial = {k: v for k, v in full.items() if k != "freeze_card"}
    monkeypatch.setattr(requests, "load", lambda domain: partial)
    assert problems("banking") == ["banking/freeze_card: no entry in requests.json"]
    broken = dict(full, freeze_card=ToolPhrasing(
        "freeze_card", ("freeze card {card_id}",), {"card_id": ("{value}",)}))
    monkeypatch.setattr(requests, "load", lambda domain: broken)
    found = problems("banking")
    assert any("every ask has a placeholder" in p for p in found)
    assert any("no bare form" in p for p in found)
    assert any("says ['freeze card']" in p for p in found)


def test_a_domain_without_a_file_fails(monkeypatch):
    monkeypatch.setattr(requests, "_package", lambda domain: "tool_gym.synth")
    with pytest.raises(MissingPhrasing, match="has no requests.json"):
        requests.load.__wrapped__("banking")


def test_names_in_finds_tool_and_parameter_names_in_both_forms():
    assert names_in("First, list scheduled payments.") == ["list scheduled payments"]
    assert names_in("Freeze the card with card_id x.") == ["card_id"]
    assert names_in("with card   ID 7") == ["card id"]
    assert names_in("freeze my card ending 2093, my checking account") == []
    # a value the user quotes is not a name of the request
    assert names_in('call the folder "list cards"', values=["list cards"]) == []
    # one-word parameters are plain English
    assert "to" not in banned_names() and "reason" not in banned_names()
    assert {"card_id", "card id", "freeze_card", "freeze card"} <= set(banned_names())


def test_values_are_written_as_a_user_writes_them():
    assert show(120.5) == "120.50" and show(1450.0) == "1450.00" and show(0.0425) == "0.0425"
    assert show(3) == "3" and show(True) == "yes" and show("#W1") == "#W1"


def _card(card_id, last4, network="Visa"):
    ctx = {"card_id": card_id, "network": network, "last4": last4}
    return EntityRef("card_id", card_id, "cards.card_id", ctx)


def test_an_entity_is_referred_to_by_a_sibling_that_picks_it_out():
    entry = requests.phrasing("banking", "freeze_card")
    refs = [_card("card_a", "2093"), _card("card_b", "7714", "Mastercard")]
    text, needles, sibling = refer(entry, "card_id", "card_a", refs, "card_id")
    assert (text, needles, sibling) == ("my Visa card ending 2093", ["Visa", "2093"], True)
    # two cards look alike through the first template: the next one that tells them apart
    refs = [_card("card_a", "2093"), _card("card_b", "2093", "Visa")]
    text, needles, sibling = refer(entry, "card_id", "card_a", refs, "card_id")
    assert (text, needles, sibling) == ("my card card_a", ["card_a"], False)
    # no record around the id (a list of ids): the id itself
    bare = [EntityRef("card_id", "card_a", "card_ids", {"card_ids": ["card_a"]})]
    assert refer(entry, "card_id", "card_a", bare, "card_id")[:2] == ("my card card_a",
                                                                      ["card_a"])
    # a field of another entity in the record is not used: owner_id -> owner_* only
    assert requests.refers_to("owner_id", "user_id", "owner_name")
    assert not requests.refers_to("owner_id", "user_id", "name")
    assert requests.refers_to("card_id", "card_id", "last4")


def test_objects_and_lists_are_spelled_out():
    entry = requests.phrasing("airline", "update_reservation_passengers")
    value = [{"first_name": "Vera", "last_name": "Udeh", "dob": "1990-01-02"},
             {"first_name": "Ada", "last_name": "Ng", "dob": "1985-05-06"}]
    text, needles, _ = refer(entry, "passengers", value)
    assert text == "Vera Udeh (born 1990-01-02) and Ada Ng (born 1985-05-06)"
    assert needles == ["Vera", "Udeh", "1990-01-02", "Ada", "Ng", "1985-05-06"]


# ------------------------------------------------------------------ chains' requests


def _texts(c):
    return [t for t in dict.fromkeys(c.say) if t]


def _values(c):
    out = [x["arguments"] for x in c.args["calls"]]
    out += [n for g in c.args.get("given", ()) for n in g["needles"]]
    if c.args.get("withheld"):
        out += c.args["withheld"]["needles"]
    return out


def check_requests(tasks):
    """What every chain request must hold; returns the mode counts."""
    modes = Counter()
    for task in tasks:
        c = task.constraints[0]
        modes[c.args["mode"]] += 1
        for text in _texts(c):  # opening, follow-up, missing-value answer
            assert names_in(text, _values(c)) == [], (text, names_in(text, _values(c)))
        assert len(c.args["outcomes"]) == len(c.args["calls"])
        assert set(c.args["outcomes"]) <= {SUCCESS, PARTIAL}
        assert all(p["outcome"] == FAILURE for p in c.args["pruned"])
        if c.args.get("foreign"):
            continue
        for given in c.args["given"]:  # every value the user must give, verbatim
            assert given["needles"] and all(n in c.say[0] for n in given["needles"]), given
        withheld = c.args["withheld"]
        if c.args["mode"] == "missing":
            assert withheld is not None
            assert not any(n.lower() in c.say[0].lower() for n in withheld["needles"])
            assert all(n in c.say[1] for n in withheld["needles"])
        else:
            assert withheld is None
    return modes


@pytest.mark.parametrize("domain", WITH_KIT)
def test_chain_requests_name_no_tool_and_give_every_value(domain):
    report = synthesize(domain, 100, seed=7)
    modes = check_requests(report.tasks)
    assert len(report.tasks) == 100
    assert modes == {"complete": 60, "missing": 20, "minimal": 20}  # stratified
    assert "missing_to_complete" not in report.stats


@pytest.mark.slow
@pytest.mark.parametrize("domain", WITH_KIT)
def test_chain_requests_over_a_thousand_chains(domain):
    report = synthesize(domain, 1000, seed=11)
    modes = check_requests(report.tasks)
    total = sum(modes.values())
    assert total == 1000
    for mode, share in (("complete", 0.6), ("missing", 0.2), ("minimal", 0.2)):
        assert abs(modes[mode] / total - share) <= 0.03, (mode, modes)


@pytest.mark.parametrize("domain", ["banking", "calendar"])
def test_missing_mode_is_never_turned_into_another_mode(domain):
    """The mode is drawn before the chain: a chain with nothing to withhold is replaced,
    never phrased in another mode (what made "missing" come out below its share)."""
    tpl = template(domain)
    kit = ChainTaskKit(domain, template=tpl, config={"p_complete": 0, "p_missing": 1,
                                                     "p_minimal": 0, "p_unanswerable": 0})
    for i in range(12):
        task = kit.sample(tpl.reader(), np.random.default_rng(i), "train", SamplerConfig())
        c = task.constraints[0]
        assert c.args["mode"] == "missing" and c.args["withheld"] is not None
    assert kit.stats["mode_missing"] == 12 and not kit.stats["mode_complete"]


def test_unanswerable_requests_are_in_the_users_words():
    report = synthesize("retail", 20, seed=2, config={"p_unanswerable": 1.0})
    kinds = Counter()
    for task in report.tasks:
        c = task.constraints[0]
        kinds[c.args["unanswerable"]] += 1
        assert names_in(c.say[0], _values(c)) == []
        assert "none of the tools I have here can" in c.solution[0].say
        if c.args["unanswerable"] == "foreign":
            foreign = c.args["foreign"]
            entry = requests.phrasing(foreign["domain"], foreign["name"])
            assert any(a in c.say[0] for a in entry.asks)
    assert set(kinds) == {"hidden_tool", "foreign"}
    assert json.dumps([t.to_dict() for t in report.tasks], default=list)
