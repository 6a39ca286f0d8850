"""Smoke test of ``benchmarks/integrity.py``: tiny settings, the JSON it writes."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "integrity.py"


def test_integrity_benchmark_writes_its_table(tmp_path, capsys):
    spec = importlib.util.spec_from_file_location("benchmark_integrity", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    report = module.main(["--tasks", "3", "--ids", "ToolBanking-v0", "--rewards", "binary",
                          "cove", "--policies", "refusal", "terse", "--out", str(tmp_path),
                          "--quiet"])
    rows = {(r["reward"], r["policy"]): r for r in report["rows"]}
    assert set(rows) == {(p, n) for p in ("binary", "cove")
                         for n in ("oracle", "refusal", "terse")}
    assert rows[("binary", "refusal")]["win_rate"] == 0.0
    assert rows[("binary", "refusal")]["mean_return"] == 0.0
    assert rows[("cove", "refusal")]["kind"] == "adversary"
    assert rows[("cove", "terse")]["kind"] == "style"
    saved = json.loads((tmp_path / "ToolBanking-v0.json").read_text())
    assert len(saved["episodes"]["cove"]["terse"]) == 3
    assert json.loads((tmp_path / "summary.json").read_text())["rows"] == report["rows"]
    assert "ToolBanking-v0" in capsys.readouterr().out
