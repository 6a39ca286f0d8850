"""Growth tools in loops stay bounded in every domain (issue #11, item 5).

Each domain's growth recipe (``growth.py``: copy folders into each other, send and forward
the longest messages, create events with many attendees, place orders, ...) runs a few
hundred steps twice:

- under the domain's own quotas: no step passes a generous 0.5 s (a sanity bound; the
  figures are in ``benchmarks/step_cost.py``), the sandbox stays under 64 MB and
  consistent, and where the loop reaches a quota the refusal is ``Error: quota exceeded``;
- under quotas tightened to the sandbox's start (each table may grow by a few rows, the
  database by 1 MiB), so that every domain reaches them within the loop: the quota error
  appears, the refused call leaves nothing behind (row counts and pages unchanged), and the
  sandbox stays consistent.
"""
from __future__ import annotations

import dataclasses
import time

import pytest

import tool_gym
from tool_gym.domains import BUILTINS
from tool_gym.core.tools import Toolbox

from .growth import RECIPES, TEXT

MB64 = 64 * 1024 * 1024
STEP_BOUND_S = 0.5  # sanity only: machines are noisy


def _tables(db) -> list[str]:
    return [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' "
                                     "AND name NOT LIKE 'sqlite_%' ORDER BY name")]


def _footprint(db) -> tuple:
    """Row count of every table and the page count: what a refused call must not change."""
    counts = tuple(db.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0] for t in _tables(db))
    return counts, db.execute("PRAGMA page_count").fetchone()[0]


def _size(db) -> int:
    return len(db.serialize())


def _longest_text_argument(arguments: dict) -> str | None:
    texts = [k for k, v in arguments.items() if isinstance(v, str)]
    return max(texts, key=lambda k: len(arguments[k])) if texts else None


def test_every_domain_has_a_growth_recipe():
    assert set(RECIPES) == set(BUILTINS)


@pytest.mark.parametrize("domain", sorted(RECIPES))
def test_growth_under_the_domain_quotas(domain):
    box = tool_gym.sandbox(domain, seed=0)
    quotas = box.toolbox.quotas
    step = RECIPES[domain](box.db, TEXT)
    refused = 0
    for i in range(240):
        name, arguments = step(i)
        if i % 40 == 39:  # one text longer than a stored text may be
            key = _longest_text_argument(arguments)
            arguments = {**arguments, key: "g" * (quotas.max_text + 1)}
        before = _footprint(box.db)
        start = time.perf_counter()
        result = box.call(name, arguments)
        elapsed = time.perf_counter() - start
        assert elapsed < STEP_BOUND_S, (domain, i, name, elapsed)
        if "quota exceeded" in result.content:
            assert not result.ok and result.content.startswith("Error: quota exceeded: ")
            assert _footprint(box.db) == before, (domain, i, result.content)
            refused += 1
        if i % 40 == 39:
            assert not result.ok and "quota exceeded" in result.content, result.content
    assert refused >= 6
    assert _size(box.db) <= min(quotas.max_bytes, MB64)
    assert box.check_integrity() == []


@pytest.mark.parametrize("domain", sorted(RECIPES))
def test_growth_reaches_tightened_quotas_and_rolls_back(domain):
    box = tool_gym.sandbox(domain, seed=0)
    db = box.db
    quotas = box.toolbox.quotas
    counts, pages = _footprint(db)
    page_size = db.execute("PRAGMA page_size").fetchone()[0]
    tight = dataclasses.replace(
        quotas, rows={t: n + 40 for t, n in zip(_tables(db), counts)},
        max_bytes=pages * page_size + 1024 * 1024)
    toolbox = Toolbox(list(box.toolbox), tight)
    step = RECIPES[domain](db, TEXT)
    refused = []
    for i in range(200):
        name, arguments = step(i)
        before = _footprint(db)
        start = time.perf_counter()
        result = toolbox.call(db, name, arguments)
        assert time.perf_counter() - start < STEP_BOUND_S
        if "quota exceeded" in result.content:
            assert not result.ok and result.content.startswith("Error: quota exceeded: ")
            assert _footprint(db) == before, (domain, i, result.content)
            refused.append(result.content)
        if i % 50 == 49:
            assert box.check_integrity() == []
    if domain in ("airline", "retail"):
        # Growth is bounded by the domain itself (3 certificates; addresses overwritten):
        # the loop never reaches a row or byte quota, so the text quota is what is tested.
        assert not refused
    else:
        assert refused, f"{domain}: the loop never reached a quota"
    assert db.execute("PRAGMA page_count").fetchone()[0] * page_size <= tight.max_bytes
    for table, n in zip(_tables(db), _footprint(db)[0]):
        assert n <= tight.limit(table)
    assert box.check_integrity() == []


def test_filesystem_doubling_stops_at_the_quota():
    """The issue's loop: a folder copied into another and back doubles the tree each round."""
    box = tool_gym.sandbox("filesystem", seed=0)
    step = RECIPES["filesystem"](box.db, "")
    worst = 0.0
    messages = set()
    for i in range(150):
        name, arguments = step(i)
        if name != "copy_node":
            continue
        start = time.perf_counter()
        result = box.call(name, arguments)
        worst = max(worst, time.perf_counter() - start)
        if not result.ok:
            messages.add(result.content.split(":")[1].strip())
    assert worst < STEP_BOUND_S
    assert messages == {"quota exceeded"}
    nodes = box.db.execute("SELECT count(*) FROM nodes").fetchone()[0]
    assert nodes <= box.toolbox.quotas.limit("nodes")
    assert _size(box.db) <= MB64
    assert box.check_integrity() == []


def test_check_integrity_reports_a_sandbox_past_its_quotas():
    box = tool_gym.sandbox("email", seed=0)
    assert box.check_integrity() == []
    messages = box.db.execute("SELECT count(*) FROM messages").fetchone()[0]
    box.toolbox = Toolbox(list(box.toolbox), dataclasses.replace(
        box.toolbox.quotas, rows={"messages": messages - 1}))
    assert box.check_integrity() == [
        f"quota: table messages would hold {messages} rows (at most {messages - 1})"]
