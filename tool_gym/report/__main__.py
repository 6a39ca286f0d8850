"""``python -m tool_gym.report RUN_DIR [RUN_DIR ...] --out report.html``.

Writes one self-contained HTML report of one ``tool-gym-evaluate`` run, or of several
compared side by side (see :mod:`tool_gym.report`). Every argument is checked before any
work: each RUN_DIR must hold ``summary.json`` and ``episodes.jsonl``, and ``--out`` must be
a file that can be written; a mistake is one line, ``python -m tool_gym.report: error:
...``, and exit status 2.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from tool_gym.cli.checks import ArgumentParser, UsageError, check_out_file, usage_errors

from . import check_run_dir, write_report

PROG = "python -m tool_gym.report"


def _parser() -> ArgumentParser:
    parser = ArgumentParser(prog=PROG, description="Write one self-contained HTML report of "
                            "tool-gym-evaluate runs (several runs: compared side by side).")
    parser.add_argument("run_dirs", nargs="+", metavar="RUN_DIR",
                        help="a tool-gym-evaluate --out directory (with --save-trajectories "
                             "for the transcripts)")
    parser.add_argument("--out", default="report.html", metavar="FILE",
                        help="the HTML file to write (default: report.html)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; exit status 0 (2 for a mistake, with one line on stderr)."""
    with usage_errors(PROG):
        args = _parser().parse_args(argv)
        seen = set()
        for run_dir in args.run_dirs:
            check_run_dir(run_dir)
            key = Path(run_dir).resolve()
            if key in seen:
                raise UsageError(f"RUN_DIR {run_dir} is given twice")
            seen.add(key)
        check_out_file("--out", args.out)
        path = write_report(args.run_dirs, args.out)
    print(f"wrote {path} ({path.stat().st_size / 1e6:.2f} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
