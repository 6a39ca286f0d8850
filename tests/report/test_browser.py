"""The report in headless Chromium (Debian's ``chromium``; skipped where it is absent):
it loads with no console error, its numbers and failed episodes are the run's, filtering,
searching and opening an episode work, hostile agent text stays text, several runs open
side by side. Each test saves a screenshot in its tmp_path."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.report.browser import CHROMIUM, Chromium
from tests.report.runs import HOSTILE
from tool_gym.report import write_report

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="needs chromium (apt-get install chromium)")

READY = "document.documentElement.dataset.readyMs"
COUNT = "document.getElementById('count').textContent"
ROWS = """[...document.querySelectorAll('#episode-list tbody tr')].map(
    (row) => [...row.cells].map((cell) => cell.textContent))"""


@pytest.fixture(scope="module")
def browser():
    with Chromium(width=1280, height=900) as chromium:
        yield chromium


def lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def open_report(browser, runs, names, tmp_path) -> Path:
    page = write_report([runs[name] for name in names], tmp_path / "report.html")
    browser.events.clear()
    browser.open(page, ready=READY)
    return page


def no_trouble(browser):
    assert browser.errors() == []
    assert not any(e.get("method") == "Page.javascriptDialogOpening" for e in browser.events)
    assert browser.evaluate("window.__pwned === undefined")


def set_control(browser, element_id, value):
    browser.evaluate(f"""(() => {{ const c = document.getElementById({json.dumps(element_id)});
        c.value = {json.dumps(value)};
        c.dispatchEvent(new Event(c.tagName === 'SELECT' ? 'change' : 'input')); }})()""")


def test_numbers_and_failed_episodes_are_the_runs(browser, runs, tmp_path):
    open_report(browser, runs, ["mixed"], tmp_path)
    summary = json.loads((runs["mixed"] / "summary.json").read_text())
    cells = browser.evaluate("""Object.fromEntries([...document.querySelectorAll(
        '#summary td[data-key]')].map((td) => [td.dataset.key, JSON.parse(td.dataset.value)]))""")
    for k, value in summary["pass_hat_k"].items():
        assert cells[f"pass_hat_k.{k}"] == value and cells[f"pass_at_k.{k}"] == summary["pass_at_k"][k]
        assert [cells[f"pass_hat_k_ci.{k}.0"], cells[f"pass_hat_k_ci.{k}.1"]] == summary["pass_hat_k_ci"][k]
    for key in ("success_rate", "mean_turns", "mean_tool_calls", "episodes"):
        assert cells[key] == summary[key]
    assert cells["violations.total"] == summary["violations"]["total"]
    assert cells["redundant_writes.total"] == summary["redundant_writes"]["total"]
    for name, row in summary["constraint_types"].items():
        assert cells[f"constraint_types.{name}.episode_success_rate"] == row["episode_success_rate"]
    shown = browser.evaluate(f"document.querySelector('td[data-key=\"pass_hat_k.1\"]').textContent")
    assert shown == f"{summary['pass_hat_k']['1']:.3f}"

    records = lines(runs["mixed"] / "episodes.jsonl")
    failed = [(r["task_id"], str(r["trial"])) for r in records if not r["success"]]
    browser.evaluate("document.getElementById('filter-failed').click()")
    assert browser.evaluate(COUNT) == f"{len(failed)} of {len(records)} episodes shown ({len(failed)} failed)"
    assert [(row[0], row[1]) for row in browser.evaluate(ROWS)] == failed
    assert browser.evaluate("document.querySelectorAll('#grid a.cell.fail:not(.dim)').length") == len(failed)
    assert browser.evaluate("document.querySelectorAll('#grid a.cell.pass:not(.dim)').length") == 0
    browser.screenshot(tmp_path / "failed.png")
    no_trouble(browser)


def test_filters_and_search(browser, runs, tmp_path):
    open_report(browser, runs, ["mixed"], tmp_path)
    records = lines(runs["mixed"] / "episodes.jsonl")
    endings = browser.evaluate("[...document.getElementById('filter-ended').options].map((o) => o.text)")
    ending = records[-1]["ended"]
    set_control(browser, "filter-ended", str(endings.index(ending) - 1))
    assert len(browser.evaluate(ROWS)) == sum(r["ended"] == ending for r in records)
    set_control(browser, "filter-ended", "-1")

    kind = records[-1]["constraints"][0]["type"]
    values = browser.evaluate("[...document.getElementById('filter-constraint').options]"
                              ".map((o) => [o.value, o.text])")
    failed_of_kind = next(v for v, text in values if text == f"{kind} \u2014 failed")
    set_control(browser, "filter-constraint", failed_of_kind)
    assert len(browser.evaluate(ROWS)) == sum(
        any(c["type"] == kind and not c["satisfied"] for c in r["constraints"]) for r in records)
    set_control(browser, "filter-constraint", "")

    set_control(browser, "filter-search", "test-2")
    browser.wait_until(f"{COUNT}.startsWith('3 of')")
    assert {row[0] for row in browser.evaluate(ROWS)} == {"test-2"}
    set_control(browser, "filter-search", "")
    browser.wait_until(f"{COUNT}.startsWith('{len(records)} of')")
    no_trouble(browser)


def test_opening_an_episode_shows_its_transcript_and_verification(browser, runs, tmp_path):
    open_report(browser, runs, ["mixed"], tmp_path)
    browser.evaluate("document.querySelector('#grid a.cell[data-episode=\"0\"]').click()")
    browser.wait_until("!!document.querySelector('#viewer .episode[data-loaded]')")
    text = browser.evaluate("document.getElementById('viewer').textContent")
    assert HOSTILE in text  # the hostile message and tool result, as text
    assert browser.evaluate("document.querySelectorAll('img').length") == 0
    assert browser.evaluate("document.querySelectorAll('script').length") == 3
    record = lines(runs["mixed"] / "episodes.jsonl")[0]
    constraints = browser.evaluate("""[...document.querySelectorAll('#viewer [data-constraint]')].map(
        (li) => [li.dataset.constraint, li.className])""")
    assert constraints == [[c["type"], "pass" if c["satisfied"] else "fail"] for c in record["constraints"]]
    rules = browser.evaluate("[...document.querySelectorAll('#viewer [data-rule]')]"
                             ".map((li) => li.dataset.rule)")
    assert rules == sorted(record["violation_counts"])
    assert browser.evaluate("document.querySelectorAll('#viewer .call').length") == record["tool_calls"]
    browser.screenshot(tmp_path / "episode.png")
    browser.evaluate("document.getElementById('close-viewer').click()")
    browser.wait_until("document.getElementById('viewer').hidden")
    no_trouble(browser)


def test_a_failed_episode_says_why_and_lists_its_redundant_writes(browser, runs, tmp_path):
    open_report(browser, runs, ["explained"], tmp_path)
    records = lines(runs["explained"] / "episodes.jsonl")
    for id, record in enumerate(records):
        browser.evaluate(f"location.hash = '#episode={id}'")
        browser.wait_until(f"!!document.querySelector('#viewer .episode[data-episode=\"{id}\"]"
                           f"[data-loaded]')")
        shown = browser.evaluate("""[...document.querySelectorAll('#viewer [data-constraint]')]
            .map((li) => [li.dataset.constraint, li.className,
                          li.querySelector('.reason')?.textContent])""")
        assert shown == [[c["type"], "fail", c["reason"]] for c in record["constraints"]]
        writes = browser.evaluate("[...document.querySelectorAll('#viewer [data-redundant]')]"
                                  ".map((li) => [li.dataset.redundant, li.textContent])")
        assert writes == [[w["tool"], f"{w['tool']} on {w['target']}"]
                          for w in record.get("redundant", [])]
        summary = browser.evaluate("document.querySelector('#viewer .episode > p').textContent")
        assert record["constraints"][0]["reason"] in summary
    browser.screenshot(tmp_path / "explained.png")
    # the list's failed-constraint tag carries the reason as its tooltip
    titles = browser.evaluate("[...document.querySelectorAll('#episode-list .tag.fail')]"
                              ".map((tag) => tag.title)")
    assert titles == [r["constraints"][0]["reason"] for r in records]
    set_control(browser, "filter-search", "not grounded")
    browser.wait_until(f"{COUNT}.startsWith('1 of')")
    assert [row[0] for row in browser.evaluate(ROWS)] == [records[0]["task_id"]]
    no_trouble(browser)


def test_runs_side_by_side_and_without_transcripts(browser, runs, tmp_path):
    open_report(browser, runs, ["oracle", "random", "bare"], tmp_path)
    assert browser.evaluate("document.querySelectorAll('#compare [data-table=differs] tbody tr').length") == 2
    browser.evaluate("document.querySelector('#compare a[href^=\"#task=\"]').click()")
    browser.wait_until("document.querySelectorAll('#viewer .episode[data-loaded]').length === 2")
    assert browser.evaluate("document.querySelectorAll('#viewer .column').length") == 3
    notes = browser.evaluate("[...document.querySelectorAll('[data-note=no-transcripts] pre')]"
                             ".map((p) => p.textContent)")
    assert notes and all("--save-trajectories" in note for note in notes)
    browser.screenshot(tmp_path / "side-by-side.png")
    no_trouble(browser)
