"""The HTML report of a large run: build time, file size and, with Chromium, load time.

    python benchmarks/report.py [--episodes 10000] [--trials 4] [--out FILE] [--screenshot PNG]

Plays two small real runs on ToolRetail-v0 (the oracle and the random policy, with
``--save-trajectories``), fabricates from their episodes a run of ``--episodes`` episodes
in the same format (``tests/report/runs.py``: every episode a copy of a real one, the
summary written by ``tool_gym.core.metrics.summarize``), and builds its report with
``python -m tool_gym.report``'s code. When Debian's ``chromium`` is installed it opens the
page headless and reports the time until the page is interactive (the page's own
``performance.now()`` mark, from the start of navigation) and the time to open one
episode (its transcript chunk inflated and rendered). ``--screenshot`` saves the README's picture
of a report (two oracle runs compared, one of them cut at 9 turns, a failed episode open).

Prints one table and writes JSON (default ``benchmarks/results/report.json``). The
machine is shared and noisy: the figures are indications, not limits.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.report.browser import CHROMIUM, Chromium  # noqa: E402
from tests.report.runs import evaluate_run, fabricate_run  # noqa: E402
from tool_gym.report import write_report  # noqa: E402

READY = "document.documentElement.dataset.readyMs"


def measure_page(path: Path, repeats: int) -> dict:
    """Median milliseconds to interactive and to one open episode, over ``repeats`` loads."""
    ready, opened = [], []
    with Chromium() as browser:
        for _ in range(repeats):
            browser.open(path, ready=READY)
            ready.append(float(browser.evaluate(READY)))
            start = time.perf_counter()
            browser.evaluate("location.hash = '#episode=' + (document.querySelector("
                             "'a.cell.fail') || document.querySelector('a.cell')).dataset.episode")
            browser.wait_until("!!document.querySelector('#viewer .episode[data-loaded]')")
            opened.append((time.perf_counter() - start) * 1000)
            browser.evaluate("location.hash = '#'")
        errors = browser.errors()
    ready.sort()
    opened.sort()
    return {"interactive_ms": ready[len(ready) // 2], "open_episode_ms": opened[len(opened) // 2],
            "console_errors": errors}


def screenshot(path: Path, tasks: int) -> None:
    """The README's picture (1280 x 800): the oracle compared with the oracle cut at 9
    turns (so that some tasks fail), a failed episode open at its verification."""
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        runs = [evaluate_run(tmp / "oracle", "oracle", tasks=tasks, trials=4),
                evaluate_run(tmp / "oracle-9-turns", "oracle", tasks=tasks, trials=4,
                             env_kwargs={"max_turns": 9})]
        page = write_report(runs, tmp / "report.html")
        with Chromium(width=1280, height=800) as browser:
            browser.open(page, ready=READY)
            browser.evaluate("document.getElementById('filter-failed').click()")
            browser.evaluate("document.querySelector('#episode-list tbody tr').click()")
            browser.wait_until("!!document.querySelector('#viewer .episode[data-loaded]')")
            browser.evaluate("document.querySelector('#viewer .verdict')"
                             ".scrollIntoView({block: 'center'})")
            browser.screenshot(path)


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--episodes", type=int, default=10_000)
    parser.add_argument("--trials", type=int, default=4)
    parser.add_argument("--source-tasks", type=int, default=10,
                        help="tasks of each small real run the episodes are copied from")
    parser.add_argument("--repeats", type=int, default=3, help="page loads measured")
    parser.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "report.json"))
    parser.add_argument("--screenshot", default=None, metavar="PNG")
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        small = [evaluate_run(tmp / policy, policy, tasks=args.source_tasks, trials=2)
                 for policy in ("oracle", "random")]
        run = fabricate_run(tmp / "large", small, args.episodes, trials=args.trials)
        start = time.perf_counter()
        page = write_report([run], tmp / "report.html")
        build = time.perf_counter() - start
        result = {"episodes": args.episodes, "trials": args.trials,
                  "build_seconds": round(build, 2), "size_mb": round(page.stat().st_size / 1e6, 2),
                  "episodes_jsonl_mb": round((run / "episodes.jsonl").stat().st_size / 1e6, 2),
                  "trajectories_jsonl_mb": round((run / "trajectories.jsonl").stat().st_size / 1e6, 2),
                  "chromium": CHROMIUM}
        if CHROMIUM:
            result.update(measure_page(page, args.repeats))
        if args.screenshot and CHROMIUM:
            screenshot(Path(args.screenshot), args.source_tasks)
            result["screenshot"] = args.screenshot

    width = max(map(len, result))
    for key, value in result.items():
        print(f"{key:<{width}}  {value}")
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2) + "\n")
    return result


if __name__ == "__main__":
    main()
