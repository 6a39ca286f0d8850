"""The report built from small real runs: one self-contained file whose numbers are
summary.json's, whose episodes are episodes.jsonl's, whose transcripts are the
trajectories', and in which no episode text can become markup; the command line's
mistakes are one line and exit 2."""

from __future__ import annotations

import base64
import gzip
import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from tests.report.runs import HOSTILE
from tool_gym.cli import evaluate
from tool_gym.report import build_report, write_report
from tool_gym.report.__main__ import main

ROOT = Path(__file__).resolve().parents[2]


def script(page: str, name: str):
    match = re.search(rf'<script type="application/json" id="{name}">(.*?)</script>', page, re.S)
    return json.loads(match.group(1))


def transcripts(page: str) -> list[dict]:
    chunks = script(page, "report-transcripts")
    return [t for c in chunks for t in json.loads(gzip.decompress(base64.b64decode(c)))]


def lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_one_self_contained_file(runs):
    page = build_report([runs["oracle"], runs["random"]])
    assert page.startswith("<!DOCTYPE html>")
    assert page.count("<script") == 3 and page.count("</script>") == 3  # data, data, code
    assert "<link" not in page and " src=" not in page
    assert "Content-Security-Policy" in page and "default-src 'none'" in page
    assert (runs["oracle"] / "report.html").read_text() == build_report([runs["oracle"]])


def test_numbers_are_summary_json(runs):
    model = script(build_report([runs["oracle"], runs["mixed"]]), "report-data")
    for run, path in zip(model["runs"], (runs["oracle"], runs["mixed"])):
        assert run["summary"] == json.loads((path / "summary.json").read_text())


def test_episodes_are_episodes_jsonl(runs):
    model = script(build_report([runs["mixed"]]), "report-data")
    records = lines(runs["mixed"] / "episodes.jsonl")
    shown = [(model["tasks"][e["task"]], e["trial"], e["success"], e["score"], e["ended"])
             for e in model["episodes"]]
    assert shown == [(r["task_id"], r["trial"], r["success"], r["score"],
                      model["endings"].index(r["ended"])) for r in records]
    failed = {(r["task_id"], r["trial"]) for r in records if not r["success"]}
    assert 0 < len(failed) < len(records)  # the run mixes outcomes
    for episode, record in zip(model["episodes"], records):
        assert [[model["types"][c[0]], c[1]] for c in episode["constraints"]] == \
            [[c["type"], c["satisfied"]] for c in record["constraints"]]
        assert [model["reasons"][c[2]] if len(c) > 2 else None
                for c in episode["constraints"]] == \
            [c.get("reason") for c in record["constraints"]]
        assert episode.get("redundant", []) == \
            [[w["tool"], w["target"]] for w in record.get("redundant", [])]
        assert {model["kinds"][int(k)]: v for k, v in episode["violation_counts"].items()} == \
            record["violation_counts"]


def test_failed_constraints_give_their_reason_and_redundant_writes_are_listed(runs):
    model = script(build_report([runs["explained"]]), "report-data")
    records = lines(runs["explained"] / "episodes.jsonl")
    unread, wrong_order = records
    assert not unread["success"] and unread["constraints"][0]["reason"].startswith(
        "not grounded: the answer was said before a tool result showed it")
    assert not wrong_order["success"] and wrong_order["constraints"][0]["reason"].startswith(
        "outcome check failed: the final database does not hold the cancel_order outcome")
    (redundant,) = wrong_order["redundant"]
    assert redundant["tool"] == "cancel_pending_order" and wrong_order["redundant_writes"] == 1
    for episode, record in zip(model["episodes"], records):
        (constraint,) = episode["constraints"]
        assert model["types"][constraint[0]] == record["constraints"][0]["type"]
        assert constraint[1] is False
        assert model["reasons"][constraint[2]] == record["constraints"][0]["reason"]
    assert "redundant" not in model["episodes"][0]
    assert model["episodes"][1]["redundant"] == [["cancel_pending_order", redundant["target"]]]


def test_transcripts_pair_calls_with_their_stage_and_result(runs):
    page = build_report([runs["random"]])
    model, shown = script(page, "report-data"), transcripts(page)
    saved = lines(runs["random"] / "trajectories.jsonl")
    assert len(shown) == len(saved) == len(model["episodes"])
    for transcript, trajectory in zip(shown, saved):
        calls = [c for turn in transcript["turns"] for c in turn.get("calls", [])]
        assert [(c["name"], c["arguments"], c["stage"], c["ok"]) for c in calls] == \
            [(c["name"], c["arguments"], c["stage"], c["ok"]) for c in trajectory["calls"]]
        results = [m["content"] for m in trajectory["messages"] if m["role"] == "tool"]
        assert [c["result"] for c in calls][:len(results)] == results
        said = [m["content"] for m in trajectory["messages"][1:] if m["role"] != "tool"]
        assert [t["text"] for t in transcript["turns"]] == said
        assert model["runs"][0]["prompts"][transcript["system"]] == \
            trajectory["messages"][0]["content"]
        assert any(c.get("write") for c in calls)  # the random policy tries writes


def test_hostile_text_stays_data(runs):
    page = build_report([runs["mixed"]])
    assert HOSTILE not in page and "<img" not in page and "</script><script>" not in page
    assert page.count("<script") == 3
    model, shown = script(page, "report-data"), transcripts(page)
    assert model["tasks"][0] == "test-0" + HOSTILE
    first = shown[model["episodes"][0]["transcript"]]
    agent = next(t for t in first["turns"] if t["who"] == "agent")
    result = next(c["result"] for t in first["turns"] for c in t.get("calls", []))
    assert agent["text"] == HOSTILE and result == HOSTILE
    assert "{{" not in page.split('id="report-data">')[0]  # the template was filled


def test_without_trajectories_the_page_says_how_to_get_them(runs, tmp_path):
    model = script(build_report([runs["bare"]]), "report-data")
    run = model["runs"][0]
    assert not run["has_transcripts"] and "transcript" not in model["episodes"][0]
    words = shlex.split(run["transcripts_command"])
    assert words[0] == "tool-gym-evaluate"
    args = evaluate.parse_args(words[1:])
    assert (args.env, args.policy, args.split, args.tasks, args.trials, args.seed) == \
        ("ToolRetail-v0", "oracle", "test", 2, 2, 0)
    assert args.save_trajectories and args.report and args.out == str(runs["bare"]) + "-transcripts"


def test_several_runs_are_compared(runs):
    model = script(build_report([runs["oracle"], runs["random"]]), "report-data")
    assert [r["label"] for r in model["runs"]] == ["A", "B"]
    assert {e["run"] for e in model["episodes"]} == {0, 1}
    assert model["tasks"] == ["test-0", "test-1", "test-2"]


def test_command_line_writes_the_report(runs, tmp_path, capsys):
    out = tmp_path / "new" / "report.html"
    assert main([str(runs["oracle"]), str(runs["random"]), "--out", str(out)]) == 0
    assert out.read_text() == build_report([runs["oracle"], runs["random"]])
    assert capsys.readouterr().out.startswith(f"wrote {out}")


@pytest.mark.parametrize("argv, message", [
    ([], "the following arguments are required: RUN_DIR"),
    (["{tmp}/none"], "RUN_DIR {tmp}/none is not a directory"),
    (["{tmp}"], "RUN_DIR {tmp} has no summary.json"),
    (["{oracle}", "{oracle}"], "is given twice"),
    (["{oracle}", "--out", "/proc/no/report.html"], "--out /proc/no/report.html: cannot write in /proc"),
    (["{oracle}", "--out", "{tmp}"], "a directory is there"),
])
def test_command_line_mistakes_are_one_line(runs, tmp_path, capsys, argv, message):
    fill = {"tmp": str(tmp_path), "oracle": str(runs["oracle"])}
    argv = [a.format(**fill) for a in argv]
    if "--out" not in argv:
        argv += ["--out", str(tmp_path / "r.html")]
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("python -m tool_gym.report: error: ")
    assert message.format(**fill) in err
    assert not (tmp_path / "r.html").exists()


def test_python_m_entry_point(tmp_path):
    done = subprocess.run([sys.executable, "-m", "tool_gym.report", str(tmp_path / "none")],
                          capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [f"python -m tool_gym.report: error: RUN_DIR "
                                        f"{tmp_path / 'none'} is not a directory"]


def test_episodes_outside_the_plan_are_listed_not_counted(runs, tmp_path):
    out = tmp_path / "extra"
    out.mkdir()
    for name in ("summary.json", "config.json", "trajectories.jsonl"):
        (out / name).write_bytes((runs["oracle"] / name).read_bytes())
    records = lines(runs["oracle"] / "episodes.jsonl")
    extra = dict(records[0], task_id="test-99", success=False)
    (out / "episodes.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records + [extra]))
    model = script(write_report([out], out / "r.html").read_text(), "report-data")
    assert model["runs"][0]["uncounted"] == 1
    assert [e["counted"] for e in model["episodes"]] == [True] * len(records) + [False]


def test_benchmark_smoke(tmp_path):
    """benchmarks/report.py on a tiny run (the page is opened when chromium is there)."""
    from tests.benchmarks.test_benchmarks_smoke import load

    result = load("report").main(["--episodes", "16", "--trials", "2", "--source-tasks", "2",
                                  "--repeats", "1", "--out", str(tmp_path / "report.json")])
    assert result["episodes"] == 16 and result["size_mb"] > 0 and result["build_seconds"] >= 0
    assert json.loads((tmp_path / "report.json").read_text()) == result
    assert result.get("console_errors", []) == []
