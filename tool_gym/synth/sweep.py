"""Rescore recorded episodes under several PROVE weight settings and compare policies.

    python evaluate.py --policy oracle --env-kwargs '{"task_source": "chains"}' \\
        --save-trajectories --out runs/oracle
    python evaluate.py --policy random ... --save-trajectories --out runs/random
    python -m tool_gym.synth.sweep runs/oracle runs/random [--setting NAME:k=v,k=v ...]

Each ``RUN_DIR`` is an ``evaluate.py`` output directory written with
``--save-trajectories``: its ``trajectories.jsonl`` holds every episode as a chat record
(:mod:`tool_gym.chat`; ``python -m tool_gym.export`` makes a dataset of them) with its
calls (name, arguments, validity stage) and the task's ground-truth calls, so PROVE's reward
(:mod:`tool_gym.core.prove`) can be computed again under any weights without playing the
episodes again. The policy's name comes from the run's ``config.json`` (else the
directory's name).

Settings: by default a three-point sweep of the efficiency term, the part of PROVE's
reward whose strength trades success against verbosity:

- ``lenient``: ``alpha = 0.25``, ``beta = 1.0`` (a budget of twice the ground truth),
- ``default``: the paper's weights (0.5, 0.5, 0.15, 0.2, 0.1; ``alpha = beta = 0.5``),
- ``strict``: ``alpha = 1.0``, ``beta = 0.25``.

``--setting NAME:field=value,...`` (repeatable) replaces them with settings of your own,
each starting from the defaults (fields of ``ProveRewardConfig``). The report gives, for
each setting and policy, the mean total and normalized reward and the mean of every
component; the ranking of the policies under each setting (by mean total); and, against
the first setting, Kendall's tau and the policies whose rank moved. ``--out PATH`` also
writes it as JSON.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

from ..core.prove import ProveRewardConfig, score

__all__ = ["SETTINGS", "kendall_tau", "load_run", "parse_setting", "rank", "rescore", "sweep",
           "main"]

TRAJECTORIES = "trajectories.jsonl"
COMPONENTS = ("validity", "coverage", "efficiency", "tool_name", "arguments", "abstention")

#: The default three-point sweep (see the module docstring).
SETTINGS: dict[str, ProveRewardConfig] = {
    "lenient": ProveRewardConfig(alpha=0.25, beta=1.0),
    "default": ProveRewardConfig(),
    "strict": ProveRewardConfig(alpha=1.0, beta=0.25),
}


def parse_setting(text: str) -> tuple[str, ProveRewardConfig]:
    """``"name:alpha=1,validity=0.3"`` -> ``(name, config)`` (from the defaults)."""
    name, _, body = text.partition(":")
    if not name:
        raise ValueError(f"a setting needs a name: NAME:field=value,... (got {text!r})")
    values: dict[str, Any] = {}
    for item in filter(None, (p.strip() for p in body.split(","))):
        key, eq, value = item.partition("=")
        if not eq:
            raise ValueError(f"setting {name!r}: {item!r} is not field=value")
        values[key.strip()] = float(value)
    return name, ProveRewardConfig.from_dict({**ProveRewardConfig().to_dict(), **values})


def load_run(path: str | Path) -> tuple[str, list[dict]]:
    """``(policy label, trajectory records)`` of an ``evaluate.py`` output directory."""
    path = Path(path)
    file = path / TRAJECTORIES if path.is_dir() else path
    if not file.exists():
        raise FileNotFoundError(f"{file} not found: run evaluate.py with --save-trajectories")
    label = path.name if path.is_dir() else path.stem
    config = (path if path.is_dir() else path.parent) / "config.json"
    if config.exists():
        label = str(json.loads(config.read_text()).get("policy", label))
    records = []
    for number, line in enumerate(file.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            records.append(json.loads(line))
        except ValueError:
            raise SystemExit(f"{file}:{number} is not JSON") from None
    return label, records


def rescore(records: Iterable[Mapping], config: ProveRewardConfig) -> list[dict]:
    """PROVE's components of every record that has its ground truth."""
    out = []
    for r in records:
        if "ground_truth" not in r:
            continue
        s = score(r.get("calls") or [], r["ground_truth"], config)
        out.append({"task_id": r.get("task_id"), "trial": r.get("trial"), **s.to_dict()})
    return out


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def rank(means: Mapping[str, float]) -> dict[str, int]:
    """1 for the best; ties share the better rank."""
    order = sorted(means.values(), reverse=True)
    return {k: 1 + order.index(v) for k, v in means.items()}


def kendall_tau(a: Mapping[str, float], b: Mapping[str, float]) -> float:
    """Kendall's tau-b of two scorings of the same items (1: same order)."""
    keys = sorted(set(a) & set(b))
    concordant = discordant = ties_a = ties_b = 0
    for i, x in enumerate(keys):
        for y in keys[i + 1:]:
            da, db = a[x] - a[y], b[x] - b[y]
            if da == 0 and db == 0:
                continue
            if da == 0:
                ties_a += 1
            elif db == 0:
                ties_b += 1
            elif (da > 0) == (db > 0):
                concordant += 1
            else:
                discordant += 1
    denominator = ((concordant + discordant + ties_a) * (concordant + discordant + ties_b)) ** 0.5
    return (concordant - discordant) / denominator if denominator else 1.0


def sweep(runs: Sequence[tuple[str, list[dict]]],
          settings: Mapping[str, ProveRewardConfig] | None = None) -> dict:
    """The report (see the module docstring) of labelled runs under ``settings``."""
    settings = dict(SETTINGS if settings is None else settings)
    labels = [label for label, _ in runs]
    if len(set(labels)) != len(labels):  # two runs of one policy: tell them apart
        labels = [f"{label}#{i}" for i, label in enumerate(labels)]
    report: dict[str, Any] = {"settings": {k: v.to_dict() for k, v in settings.items()},
                              "policies": {}, "rankings": {}, "changes": {}}
    means: dict[str, dict[str, float]] = {}
    for name, config in settings.items():
        means[name] = {}
        for label, (_, records) in zip(labels, runs):
            scored = rescore(records, config)
            row = {"episodes": len(scored),
                   "skipped": sum(1 for r in records if "ground_truth" not in r),
                   "total": _mean([s["total"] for s in scored]),
                   "normalized": _mean([s["normalized"] for s in scored])}
            row.update({c: _mean([s[c] for s in scored]) for c in COMPONENTS})
            report["policies"].setdefault(label, {})[name] = row
            means[name][label] = row["total"]
        report["rankings"][name] = rank(means[name])
    names = list(settings)
    if names:
        first = names[0]
        for name in names[1:]:
            moved = {label: [report["rankings"][first][label], report["rankings"][name][label]]
                     for label in labels
                     if report["rankings"][first][label] != report["rankings"][name][label]}
            report["changes"][name] = {"against": first,
                                       "kendall_tau": kendall_tau(means[first], means[name]),
                                       "moved": moved}
    return report


def print_report(report: dict, file=None) -> None:
    file = file or sys.stdout
    settings = list(report["settings"])
    for name in settings:
        cfg = report["settings"][name]
        print(f"\n== {name}: alpha={cfg['alpha']} beta={cfg['beta']} weights "
              f"V {cfg['validity']} C {cfg['coverage']} E {cfg['efficiency']} "
              f"N {cfg['tool_name']} A {cfg['arguments']}", file=file)
        print(f"{'rank':>4}  {'policy':<24}{'n':>5}{'total':>8}{'norm':>7}"
              + "".join(f"{c[:6]:>8}" for c in COMPONENTS), file=file)
        ranking = report["rankings"][name]
        for label in sorted(ranking, key=lambda k: (ranking[k], k)):
            row = report["policies"][label][name]
            print(f"{ranking[label]:>4}  {label:<24}{row['episodes']:>5}{row['total']:>8.3f}"
                  f"{row['normalized']:>7.3f}" + "".join(f"{row[c]:>8.3f}" for c in COMPONENTS),
                  file=file)
    for name, change in report["changes"].items():
        moved = ", ".join(f"{k}: {a}->{b}" for k, (a, b) in change["moved"].items()) or "none"
        print(f"\n{name} vs {change['against']}: kendall tau {change['kendall_tau']:.3f}; "
              f"rank changes: {moved}", file=file)


def main(argv: Sequence[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(
        description="Rescore recorded trajectories under several PROVE weight settings.")
    parser.add_argument("runs", nargs="+", metavar="RUN_DIR",
                        help="evaluate.py output directories (with trajectories.jsonl)")
    parser.add_argument("--setting", action="append", default=None,
                        metavar="NAME:FIELD=VALUE,...",
                        help="a weight setting (repeatable; default: lenient, default, strict)")
    parser.add_argument("--out", default=None, help="also write the report as JSON here")
    args = parser.parse_args(argv)
    settings = dict(parse_setting(s) for s in args.setting) if args.setting else None
    runs = [load_run(path) for path in args.runs]
    report = sweep(runs, settings)
    print_report(report)
    if args.out:
        Path(args.out).write_text(json.dumps(report, indent=2, sort_keys=True) + "\n")
    return report


if __name__ == "__main__":
    main()
