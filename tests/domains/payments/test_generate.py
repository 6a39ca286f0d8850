"""Payments data: realistic sizes, every kind of record, loader validation.
The checks every domain shares are in tests/domains/test_conformance.py."""

from __future__ import annotations

import sqlite3

import pytest

from tool_gym.domains.payments import DOMAIN


def test_sizes_are_realistic():
    data = DOMAIN.generate(0)
    assert 200 <= len(data["users"]) <= 400
    assert 5000 <= sum(map(len, data.values())) <= 20000
    assert {w["currency"] for w in data["wallets"]} == {"USD", "EUR", "GBP"}
    assert {p["status"] for p in data["payments"]} == {"completed", "partially_refunded",
                                                      "refunded"}
    assert {r["status"] for r in data["payment_requests"]} == {"pending", "accepted",
                                                              "declined", "cancelled"}
    assert {s["kind"] for s in data["funding_sources"]} == {"bank_account", "debit_card",
                                                           "credit_card"}
    people = [p for p in data["payments"] if p["recipient_id"]]
    assert people and len(people) < len(data["payments"])


def test_every_user_has_contacts_and_a_usd_wallet():
    data = DOMAIN.generate(1)
    usd = {w["user_id"] for w in data["wallets"] if w["currency"] == "USD"}
    with_contacts = {c["user_id"] for c in data["contacts"]}
    assert {u["user_id"] for u in data["users"]} == usd == with_contacts


def test_load_rejects_bad_data():
    db = sqlite3.connect(":memory:")
    db.executescript(DOMAIN.schema)
    with pytest.raises(ValueError, match="unknown tables"):
        DOMAIN.load(db, {"banks": []})
    with pytest.raises(ValueError, match="columns"):
        DOMAIN.load(db, {"users": [{"user_id": "x"}]})
    with pytest.raises(ValueError, match="JSON object"):
        DOMAIN.load(db, [])
