"""The filesystem generator and the native data: scale, policy, valid names, any row
order, broken states caught. The checks every domain shares are in test_conformance.py."""

from __future__ import annotations

import re

import pytest

from tool_gym.core.sandbox import build_database
from tool_gym.core.users import _IDENTITY
from tool_gym.domains.filesystem import DOMAIN
from tool_gym.domains.filesystem.generate import generate
from tool_gym.domains.filesystem.tools import clean_name


@pytest.fixture(scope="module")
def data() -> dict:
    return generate(0)


def test_scale(data):
    assert len(data["users"]) == 300
    assert 2000 <= len(data["nodes"]) <= 8000
    assert len(data["versions"]) >= len([n for n in data["nodes"] if n["kind"] == "file"])
    assert 200 <= len(data["shares"]) <= 1500
    assert sum(n["trashed_at"] is not None for n in data["nodes"]) >= 50


def test_generated_data_follows_the_policy(data):
    org = {u["user_id"]: u["organization"] for u in data["users"]}
    owner = {n["node_id"]: n["owner_id"] for n in data["nodes"]}
    for share in data["shares"]:
        if share["permission"] == "edit":
            assert org[owner[share["node_id"]]] == org[share["grantee_id"]]
    kinds = {n["node_id"]: n["kind"] for n in data["nodes"]}
    assert all(kinds[n["node_id"]] == "file" for n in data["nodes"] if n["trashed_at"])


def test_names_are_valid_and_never_sound_like_identity_questions(data):
    # A proposal naming a file must not read as an identity question to the user
    # simulator (e.g. a '.zip' file or a folder called 'Email').
    for n in data["nodes"]:
        if n["parent_id"] is not None:
            assert clean_name(n["name"]) == n["name"]
            assert not _IDENTITY.search(n["name"]), n["name"]
    for u in data["users"]:
        assert not _IDENTITY.search(u["email"]) and not _IDENTITY.search(u["full_name"])
        assert re.fullmatch(r"[a-z.]+@[a-z.]+", u["email"]), u["email"]


def test_load_accepts_any_row_order(data):
    shuffled = {k: list(reversed(v)) for k, v in data.items()}
    db = build_database(DOMAIN, data=shuffled)
    assert DOMAIN.invariants(db) == []
    with pytest.raises(ValueError, match="unknown tables"):
        build_database(DOMAIN, data={"files": []})


@pytest.mark.parametrize("sql, problem", [
    ("UPDATE nodes SET parent_id = 'nd_2024' WHERE node_id = 'nd_photos'", "cycle"),
    ("UPDATE nodes SET parent_id = 'nd_todo' WHERE node_id = 'nd_notes'", "not a folder"),
    ("UPDATE nodes SET parent_id = 'nd_broot' WHERE node_id = 'nd_notes'", "same owner"),
    ("UPDATE nodes SET name = 'a/b' WHERE node_id = 'nd_notes'", "separator"),
    ("UPDATE nodes SET name = 'x' || char(7) WHERE node_id = 'nd_notes'", "control"),
    ("UPDATE nodes SET size = 99 WHERE node_id = 'nd_notes'", "UTF-8 length"),
    ("UPDATE nodes SET version = 1 WHERE node_id = 'nd_notes'", "latest saved version"),
    ("UPDATE users SET quota_bytes = 100 WHERE user_id = 'usr_alice'", "quota"),
    ("UPDATE nodes SET trashed_at = '2025-01-01' WHERE node_id = 'nd_aroot'", "root"),
    ("INSERT INTO shares VALUES ('nd_todo', 'usr_alice', 'view', '2025-01-01')", "share"),
    ("DELETE FROM versions WHERE node_id = 'nd_notes' AND version = 1", "without gaps"),
])
def test_invariants_catch_broken_states(box, sql, problem):
    assert box.check_integrity() == []
    box.db.execute(sql)
    assert any(problem in p for p in DOMAIN.invariants(box.db)), DOMAIN.invariants(box.db)
