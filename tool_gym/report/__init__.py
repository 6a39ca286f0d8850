"""An evaluation report people read in a browser: one self-contained HTML file.

    tool-gym-evaluate --policy oracle --tasks 50 --trials 4 --save-trajectories --report \\
        --out runs/oracle
    python -m tool_gym.report runs/oracle runs/random --out report.html

The page needs nothing but itself (no CDN, no server; it opens from disk, offline): the
numbers of each run's ``summary.json`` as they are (pass^k with its confidence band, pass@k,
success per constraint type, mean turns and tool calls, violations, redundant writes), a
task-by-trial grid whose cells open their episodes, filters and a search over the
episodes of ``episodes.jsonl``, each episode's transcript with its calls and its
verification (from ``trajectories.jsonl``, written by ``--save-trajectories``; without
it the page says which command gets them), and with several runs the tasks whose outcome
differs and each task side by side.

- :mod:`tool_gym.report.data`: run directories -> the data model and transcript chunks;
- :mod:`tool_gym.report.page`: the model -> the HTML page (``static/``: template, CSS, JS);
- ``python -m tool_gym.report``: the command line (:mod:`tool_gym.report.__main__`).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from .data import check_run_dir, load_runs
from .page import render

__all__ = ["REPORT", "build_report", "check_run_dir", "write_report"]

#: The report's file name in a run directory (``tool-gym-evaluate --report``).
REPORT = "report.html"


def build_report(run_dirs: Sequence[str | Path]) -> str:
    """The HTML page of ``run_dirs`` (one run, or several compared)."""
    model, transcripts = load_runs(run_dirs)
    names = " vs ".join(run["name"] for run in model["runs"])
    return render(model, transcripts, title=f"tool_gym report: {names}")


def write_report(run_dirs: Sequence[str | Path], out: str | Path) -> Path:
    """Write the page of ``run_dirs`` to ``out`` (its folder made when missing), atomically."""
    page = build_report(run_dirs)
    path = Path(out)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(page, encoding="utf-8")
    tmp.replace(path)
    return path
