"""``python -m tool_gym.synth.dataset``: PROVE's mix of validated chat examples."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from tool_gym.synth import dataset
from tool_gym.synth.dataset import KINDS, PROVE_MIX, build, main, plan

DOMAINS = ["banking", "retail", "calendar"]


def test_plan_scales_prove_mix():
    full = plan(13_500, ["a"])["a"]
    assert sum(full.values()) == 13_500
    for kind in KINDS:  # within one example of the mix scaled to the total
        assert abs(full[kind] - PROVE_MIX[kind] * 13_500 / sum(PROVE_MIX.values())) < 1
    spread = plan(100, ["a", "b", "c"])
    assert sum(sum(q.values()) for q in spread.values()) == 100
    assert {k: sum(q[k] for q in spread.values()) for k in KINDS} == \
        {"conversation": 81, "clarification": 11, "abstention": 8}
    assert max(spread["a"][k] - spread["c"][k] for k in KINDS) <= 1


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    out = tmp_path_factory.mktemp("prove") / "data"
    summary = build(out, 60, seed=3, domains=DOMAINS, workers=1, quiet=True)
    return out, summary


def _rows(out: Path) -> list[dict]:
    return [json.loads(line) for line in (out / "train.jsonl").read_text().splitlines()]


def test_counts_mix_and_summary(small):
    out, summary = small
    rows = _rows(out)
    assert len(rows) == summary["examples"] == 60
    quotas = plan(60, DOMAINS)
    assert summary["per_domain"] == {d: {k: v for k, v in q.items()}
                                     for d, q in quotas.items()}
    kinds = Counter(r["kind"] for r in rows)
    assert kinds == {k: sum(q[k] for q in quotas.values()) for k in KINDS}
    assert Counter(r["domain"] for r in rows) == {d: sum(q.values()) for d, q in quotas.items()}
    on_disk = json.loads((out / "summary.json").read_text())
    assert on_disk["per_kind"] == dict(sorted(kinds.items()))
    assert set(on_disk["outcome_tags"]) == {"SUCCESS", "PARTIAL", "FAILURE"}
    assert sum(on_disk["per_chain_length"].values()) == 60
    assert on_disk["per_mode"]["missing"] == kinds["clarification"] + sum(
        r["mode"] == "missing" for r in rows if r["kind"] == "abstention")
    assert (out / "README.md").exists()
    for r in rows:
        assert r["success"] and r["score"] == 1.0 and r["env_id"].startswith("Tool")
        tags = [t for t in r["outcomes"].split(",") if t]
        assert len(tags) == r["chain_length"]  # every step tagged
        assert set(tags) <= {"SUCCESS", "PARTIAL"}
        if r["kind"] == "conversation":
            assert r["mode"] in ("complete", "minimal") and not r["unanswerable"]
        elif r["kind"] == "clarification":
            assert r["mode"] == "missing" and r["withheld_param"]
        else:
            assert r["unanswerable"] in ("hidden_tool", "foreign")
    assert "card_id" not in " ".join(m["content"] for r in rows for m in r["messages"]
                                     if m["role"] == "user")


def test_records_are_chat_records_loadable_by_datasets(small, tmp_path):
    datasets = pytest.importorskip("datasets")
    out, _ = small
    cache = str(tmp_path / "cache")  # never a stale cache of an earlier run at this path
    plain = datasets.load_dataset("json", data_files=str(out / "train.jsonl"), split="train",
                                  cache_dir=cache)
    assert len(plain) == 60
    carded = datasets.load_dataset(str(out), split="train", cache_dir=cache)
    rows = _rows(out)
    assert carded[0]["messages"] == rows[0]["messages"] and carded[0]["kind"] == rows[0]["kind"]
    for r in rows:
        ids = [c["id"] for m in r["messages"] if m["role"] == "assistant"
               for c in m.get("tool_calls") or ()]
        answered = [m["tool_call_id"] for m in r["messages"] if m["role"] == "tool"]
        assert answered == ids[:len(answered)] and r["tools"]
        assert r["messages"][0]["role"] == "system"


def test_a_clarification_asks_gets_the_value_then_calls_with_it(small):
    out, _ = small
    rows = [r for r in _rows(out) if r["kind"] == "clarification"]
    assert rows
    for r in rows:
        value = json.loads(r["withheld_value"])
        messages = r["messages"]
        opening = messages[1]["content"]
        calls = [(i, c["function"]) for i, m in enumerate(messages) if m["role"] == "assistant"
                 for c in m.get("tool_calls") or ()]
        use = next(i for i, f in calls if f["arguments"].get(r["withheld_param"]) == value)
        answers = [i for i, m in enumerate(messages[:use]) if m["role"] == "user"
                   and m["content"].startswith("Sorry, I forgot to mention")]
        assert len(answers) == 1  # the user gives the value once, before its call
        answer = answers[0]
        question = messages[answer - 1]
        assert question["role"] == "assistant" and not question.get("tool_calls")
        assert question["content"].endswith("?")  # the question
        assert str(value) not in opening or isinstance(value, (int, float))
        assert not any(i < answer and f["arguments"].get(r["withheld_param"]) == value
                       for i, f in calls)


def test_an_abstention_has_no_call_and_a_refusal(small):
    out, _ = small
    rows = [r for r in _rows(out) if r["kind"] == "abstention"]
    assert rows
    for r in rows:
        assert not any(m.get("tool_calls") for m in r["messages"])
        assert not any(m["role"] == "tool" for m in r["messages"])
        said = [m["content"] for m in r["messages"] if m["role"] == "assistant"]
        assert any("can't do that" in s for s in said)


def test_same_seed_same_file_whatever_the_workers(small, tmp_path):
    out, _ = small
    again = tmp_path / "again"
    build(again, 60, seed=3, domains=DOMAINS, workers=1, quiet=True)
    assert (again / "train.jsonl").read_bytes() == (out / "train.jsonl").read_bytes()
    other = tmp_path / "other"
    build(other, 60, seed=4, domains=DOMAINS, workers=1, quiet=True)
    assert (other / "train.jsonl").read_bytes() != (out / "train.jsonl").read_bytes()


def test_the_command_with_two_workers(small, tmp_path):
    out, _ = small
    target = tmp_path / "cli"
    done = subprocess.run(
        [sys.executable, "-m", "tool_gym.synth.dataset", "--out", str(target), "--examples",
         "60", "--seed", "3", "--domains", ",".join(DOMAINS), "--workers", "2"],
        capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert "conversation" in done.stdout and "outcome tag" in done.stdout
    assert "examples" in done.stderr  # the progress bar
    assert (target / "train.jsonl").read_bytes() == (out / "train.jsonl").read_bytes()


@pytest.mark.parametrize("argv, says", [
    (["--examples", "0"], "--examples must be at least 1"),
    (["--examples", "many"], "invalid int value"),
    (["--domains", "banking,nowhere"], "unknown nowhere"),
    (["--domains", "banking,banking"], "twice"),
    (["--workers", "0"], "--workers must be at least 1"),
    (["--backend", "openai:no-model-here"], "--backend"),
    (["--backend", "gpt"], "--backend"),
    (["--seed"], "expected one argument"),
])
def test_command_line_mistakes_are_one_line(argv, says, tmp_path, capsys):
    out = tmp_path / "never"
    with pytest.raises(SystemExit) as stop:
        main(["--out", str(out), *argv])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and says in err and err.startswith("python -m tool_gym")
    assert not out.exists()  # before any work


def test_missing_out_and_a_file_as_out(tmp_path, capsys):
    with pytest.raises(SystemExit):
        main(["--examples", "5"])
    assert capsys.readouterr().err.count("\n") == 1
    file = tmp_path / "file"
    file.write_text("x")
    with pytest.raises(SystemExit):
        main(["--out", str(file)])
    assert "is a file" in capsys.readouterr().err


class Rewriter:
    """A fake fluency backend: rewrites every request, keeping its values."""

    def __init__(self):
        self.calls = 0

    def generate(self, messages, **kw):
        self.calls += 1
        draft = messages[-1]["content"].split("Draft: ", 1)[1]
        return "Hey there, hope you're well! " + draft


class Forgetful:
    """A fake backend whose rewrite drops the values: never used."""

    def generate(self, messages, **kw):
        return "Hey, can you sort out my stuff?"


@pytest.mark.parametrize("backend, used", [(Rewriter(), True), (Forgetful(), False)])
def test_a_fluency_backend_keeps_the_replay_check(backend, used, tmp_path):
    summary = build(tmp_path / "b", 20, seed=5, domains=["banking", "crm"], workers=1,
                    backend=backend, quiet=True)
    assert summary["examples"] == 20
    rows = _rows(tmp_path / "b")
    openings = [r["messages"][1]["content"] for r in rows if r["kind"] != "abstention"]
    rewritten = sum("hope you're well" in o for o in openings)
    if used:
        assert rewritten == len(openings) and summary["phrasing"]["backend"] > 0
    else:
        assert rewritten == 0 and summary["phrasing"]["fallback"] > 0
    # every example was validated: the opening holds every value to give (check_record)
    assert all(r["success"] for r in rows)


def test_check_record_refuses_a_wrong_shape(small):
    out, _ = small
    row = next(r for r in _rows(out) if r["kind"] == "abstention")

    class Task:  # the minimum check_record reads
        class C:
            args = {"unanswerable": "foreign"}
        constraints = (C,)

    record = {"verified": True, "success": True, "score": 1.0, "chat": row}
    assert dataset.check_record(record, Task) is None
    called = dict(row, messages=row["messages"] + [{"role": "assistant", "content": "",
                                                    "tool_calls": [{"id": "call_0",
                                                                    "type": "function",
                                                                    "function": {
                                                                        "name": "x",
                                                                        "arguments": {}}}]}])
    assert "tool call" in dataset.check_record(dict(record, chat=called), Task)
    assert "verified" in dataset.check_record(dict(record, success=False), Task)
