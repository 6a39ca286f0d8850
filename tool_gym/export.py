"""Export an ``evaluate.py --save-trajectories`` run as a chat dataset.

    python evaluate.py --policy oracle --split train --tasks 200 --save-trajectories \\
        --out runs/oracle-train
    python -m tool_gym.export runs/oracle-train --only-success --out data/oracle-sft \\
        [--max-length 4096 --tokenizer path/to/model]

``RUN_DIR/trajectories.jsonl`` holds one chat record per episode (:mod:`tool_gym.chat`);
the export keeps ``messages``, ``tools`` and the metadata columns (``env_id``,
``task_id``, ``trial``, ``seed``, ``success``, ``reward``, ``score``) and writes ``DIR``
with ``train.jsonl`` and a dataset card declaring the features, so that
``datasets.load_dataset(DIR, split="train")`` gives the rows back exactly and TRL's
``SFTTrainer`` trains on it (``tool_gym.agents.sft.make_sft_trainer``).
``--only-success`` keeps the successful episodes (``success`` of the record, else of
``RUN_DIR/episodes.jsonl``). With ``--max-length`` and ``--tokenizer`` the examples are
also measured as the trainer will tokenize them, and those longer than the max length are
counted (:func:`tool_gym.agents.sft.check_lengths`).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from tqdm import tqdm

from tool_gym.chat import METADATA, write_dataset
from tool_gym.cli.checks import (
    ArgumentParser,
    UsageError,
    check_out_dir,
    require_extra,
    usage_errors,
)

__all__ = ["main", "read_records"]

TRAJECTORIES, EPISODES, CONFIG = "trajectories.jsonl", "episodes.jsonl", "config.json"
PROG = "python -m tool_gym.export"


class ExportError(Exception):
    """A problem with the input, reported as one line."""


def _fail(message: str):
    """A run that has nothing to export: one line, exit status 1 (not a usage mistake)."""
    print(f"{PROG}: error: {message}", file=sys.stderr)
    raise SystemExit(1)


def _parser() -> argparse.ArgumentParser:
    parser = ArgumentParser(
        prog=PROG, description="Write an evaluate.py --save-trajectories run as a chat "
                               "dataset directory (datasets.load_dataset, TRL SFTTrainer).")
    parser.add_argument("run_dir", metavar="RUN_DIR",
                        help="an evaluate.py output directory written with --save-trajectories")
    parser.add_argument("--out", required=True, metavar="DIR",
                        help="dataset directory to write (train.jsonl and README.md)")
    parser.add_argument("--only-success", action="store_true",
                        help="keep only the episodes that succeeded")
    parser.add_argument("--max-length", type=int, default=None, metavar="N",
                        help="report the examples longer than N tokens (needs --tokenizer)")
    parser.add_argument("--tokenizer", default=None, metavar="PATH",
                        help="local tokenizer (a model directory) to measure lengths with")
    return parser


def _check(args: argparse.Namespace) -> None:
    """Every argument problem, before any work."""
    run = Path(args.run_dir)
    if not run.is_dir():
        raise UsageError(f"RUN_DIR {run} is not a directory")
    if not (run / TRAJECTORIES).is_file():
        raise UsageError(f"{run} has no {TRAJECTORIES}: rerun tool-gym-evaluate with "
                         f"--save-trajectories --out {run}")
    if (args.max_length is None) != (args.tokenizer is None):
        raise UsageError("--max-length and --tokenizer go together")
    if args.max_length is not None and args.max_length < 1:
        raise UsageError(f"--max-length must be positive, got {args.max_length}")
    if args.tokenizer is not None and not Path(args.tokenizer).exists():
        raise UsageError(f"--tokenizer {args.tokenizer} not found (a local model directory)")


def _tokenizer(path: str):
    """The local tokenizer at ``path`` (one-line error when it is not one)."""
    from transformers import AutoTokenizer

    try:
        tokenizer = AutoTokenizer.from_pretrained(path, local_files_only=True)
    except (OSError, ValueError) as error:
        raise UsageError(f"--tokenizer {path}: not a tokenizer "
                         f"({str(error).splitlines()[0]})") from None
    if not getattr(tokenizer, "chat_template", None):
        raise UsageError(f"--tokenizer {path} has no chat template")
    return tokenizer


def _lines(path: Path, desc: str):
    """``(line number, record)`` of a JSON-lines file, with a progress bar."""
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(tqdm(f, desc=desc, unit=" ep", file=sys.stderr,
                                           dynamic_ncols=True), 1):
            if not line.strip():
                continue
            try:
                yield number, json.loads(line)
            except ValueError:
                raise ExportError(f"{path}:{number} is not JSON") from None


def _outcomes(run: Path) -> dict:
    """``(task_id, trial) -> success`` of the run's episodes.jsonl (empty without one)."""
    path = run / EPISODES
    if not path.is_file():
        return {}
    return {(r.get("task_id"), r.get("trial")): bool(r.get("success"))
            for _, r in _lines(path, EPISODES)}


def read_records(run_dir: str | Path) -> list[dict]:
    """The chat records of a run's trajectories.jsonl, metadata completed from the run
    (``env_id`` from config.json, ``success`` from episodes.jsonl when a record lacks
    them); a record without chat messages is an error."""
    run = Path(run_dir)
    config = run / CONFIG
    env_id = json.loads(config.read_text()).get("env") if config.is_file() else None
    outcomes = None
    records = []
    for number, record in _lines(run / TRAJECTORIES, TRAJECTORIES):
        if not isinstance(record, dict) or not isinstance(record.get("messages"), list) \
                or not record["messages"] or not isinstance(record["messages"][0], dict):
            raise ExportError(f"{run / TRAJECTORIES}:{number} holds no chat messages (written "
                              "by an older tool_gym): rerun tool-gym-evaluate with "
                              "--save-trajectories into a new directory")
        row = {"messages": record["messages"], "tools": record.get("tools") or []}
        row.update({key: record.get(key) for key in METADATA})
        if row["env_id"] is None:
            row["env_id"] = env_id
        if row["success"] is None:
            if outcomes is None:
                outcomes = _outcomes(run)
            row["success"] = outcomes.get((row["task_id"], row["trial"]))
        records.append(row)
    return records


def main(argv: Sequence[str] | None = None) -> int:
    """The console script ``tool-gym-export``: run the command, exit status 0."""
    run_command(argv)
    return 0


def run_command(argv: Sequence[str] | None = None) -> dict:
    """Run the command; returns the counts (``episodes``, ``kept``, ``dropped``, and
    ``lengths`` when measured)."""
    with usage_errors(PROG):
        args = _parser().parse_args(argv)
        check_out_dir("--out", args.out)
        if args.tokenizer is not None:
            require_extra("train", ("transformers",), "--tokenizer")
        _check(args)
        tokenizer = _tokenizer(args.tokenizer) if args.tokenizer is not None else None
    try:
        records = read_records(args.run_dir)
    except ExportError as error:
        _fail(str(error))
    kept = [r for r in records if r["success"]] if args.only_success else records
    counts = {"episodes": len(records), "kept": len(kept),
              "dropped": len(records) - len(kept)}
    print(f"episodes: {counts['episodes']}, kept: {counts['kept']}, dropped by "
          f"--only-success: {counts['dropped']}")
    if not kept:
        _fail(f"no episode to export from {args.run_dir}"
              + (" (none succeeded)" if records else ""))
    if tokenizer is not None:
        from tool_gym.agents.sft import measure_lengths

        measured = tqdm(kept, desc="tokenizing", unit=" ex", file=sys.stderr,
                        dynamic_ncols=True)
        report = measure_lengths(measured, tokenizer, args.max_length)
        print(f"lengths: {report}")
        if report.lost == report.examples:
            print(f"warning: no example would be left for training at --max-length "
                  f"{args.max_length}: train with max_length >= {report.suggested}",
                  file=sys.stderr)
        counts["lengths"] = {"over": report.over, "lost": report.lost,
                             "longest": report.longest, "suggested": report.suggested}
    source = Path(args.run_dir)
    command = PROG + (" --only-success" if args.only_success else "")
    description = (f"Exported from `{source}` by `{command}`: {counts['kept']} of "
                   f"{counts['episodes']} episodes.")
    data = write_dataset(kept, args.out, title=f"tool_gym episodes of {source.name}",
                         description=description)
    print(f"wrote {data} and {Path(args.out) / 'README.md'}")
    return counts


if __name__ == "__main__":
    main()
