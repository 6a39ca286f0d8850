"""Reward integrity: adversarial policies and style agents against the oracle, per env id.

    python benchmarks/integrity.py --tasks 100 [--ids ToolRetail-v0 ...] [--rewards cove binary]
        [--policies spray catch_all terse ...] [--out runs/integrity]

For every conversation id, reward preset and task ``test-0 .. test-(N-1)`` it plays the
oracle (``tool_gym.agents.oracle.OraclePolicy``), every adversarial policy of
``tool_gym.agents.adversarial.ADVERSARIES`` and every style agent of ``tool_gym.agents.styles.STYLES``, and
prints one table per preset: id x policy with the win rate (share of tasks verified as
successful), the mean return (sum of step rewards), the oracle's mean return on the same
tasks and ``out-earn``: the number of tasks on which the policy failed yet earned as much
as the oracle's success. The goals (issue #11): every adversary wins at most 1%, earns
less than the oracle on average and never out-earns a success with a failure; every style
agent wins at least 97%. The probes (``tool_gym.agents.adversarial.PROBES``) are shown with their
win rates; only out-earning the oracle fails them.

Writes ``OUT/<id>.json`` (every episode's task id, success and return, per preset and
policy) and ``OUT/summary.json`` (the table's rows). Episodes are deterministic, so a
rerun gives the same figures; no time is measured.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import gymnasium as gym  # noqa: E402
from tqdm import tqdm  # noqa: E402

import tool_gym  # noqa: E402  (registers the ids)
from tool_gym.agents.adversarial import ADVERSARIES, PROBES  # noqa: E402
from tool_gym.agents.oracle import OraclePolicy  # noqa: E402
from tool_gym.agents.episode_loop import run_episode  # noqa: E402
from tool_gym.agents.styles import STYLES  # noqa: E402

PRESETS = ("cove", "sparse", "binary", "prove")
MAX_ADVERSARY_WINS = 0.01
MIN_STYLE_WINS = 0.97


def make_policy(name: str):
    if name == "oracle":
        return OraclePolicy()
    if name in ADVERSARIES or name in PROBES:
        return {**ADVERSARIES, **PROBES}[name]()
    return STYLES[name]()


def play(env: gym.Env, name: str, task_ids: list[str], bar: tqdm) -> list[dict[str, Any]]:
    """One episode of policy ``name`` per task: ``{"task_id", "success", "return"}``."""
    out = []
    for task_id in task_ids:
        # the style agents play the oracle's plan: granted the hidden task explicitly
        record = run_episode(env, make_policy(name), seed=0, task_id=task_id,
                             privileged=name == "oracle" or name in STYLES)
        out.append({"task_id": task_id, "success": bool(record["success"]),
                    "return": round(float(record["reward"]), 6)})
        bar.update(1)
    return out


def summarize(env_id: str, preset: str, name: str, episodes: list[dict],
              oracle: list[dict]) -> dict[str, Any]:
    n = len(episodes)
    wins = sum(e["success"] for e in episodes) / n
    # a failure that earns as much as the oracle's success on the same task
    outearn = sum(not e["success"] and o["success"] and e["return"] >= o["return"] - 1e-9
                  for e, o in zip(episodes, oracle))
    below = sum(e["return"] for e in episodes) < sum(o["return"] for o in oracle)
    kind = "oracle" if name == "oracle" else "style" if name in STYLES else \
        "probe" if name in PROBES else "adversary"
    ok = (wins <= MAX_ADVERSARY_WINS and outearn == 0 and below) if kind == "adversary" \
        else (wins >= MIN_STYLE_WINS) if kind == "style" \
        else (outearn == 0 and below) if kind == "probe" else wins == 1.0
    return {"id": env_id, "reward": preset, "policy": name, "kind": kind, "tasks": n,
            "win_rate": round(wins, 4), "mean_return": round(sum(e["return"] for e in
                                                                 episodes) / n, 4),
            "oracle_mean_return": round(sum(o["return"] for o in oracle) / n, 4),
            "max_gain_over_oracle": round(max(e["return"] - o["return"] for e, o in
                                              zip(episodes, oracle)), 4),
            "outearn_tasks": int(outearn), "ok": bool(ok)}


def print_table(rows: list[dict], preset: str) -> None:
    print(f"\nreward={preset}  (goal: adversaries win <= {MAX_ADVERSARY_WINS:.0%} and "
          f"earn less than the oracle, no failure out-earns its success; styles win >= "
          f"{MIN_STYLE_WINS:.0%})")
    head = f"{'id':<20} {'policy':<17} {'win':>6} {'return':>8} {'oracle':>8} " \
           f"{'out-earn':>8}  ok"
    print(head)
    print("-" * len(head))
    for r in rows:
        if r["reward"] != preset:
            continue
        print(f"{r['id']:<20} {r['policy']:<17} {r['win_rate']:>6.2f} {r['mean_return']:>8.3f} "
              f"{r['oracle_mean_return']:>8.3f} {r['outearn_tasks']:>8d}  "
              f"{'yes' if r['ok'] else 'NO'}")


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tasks", type=int, default=100, help="test tasks per id (<= 200)")
    parser.add_argument("--ids", nargs="+", default=list(tool_gym.CONVERSATION_IDS))
    parser.add_argument("--rewards", nargs="+", default=list(PRESETS), choices=PRESETS)
    parser.add_argument("--policies", nargs="+",
                        default=[*ADVERSARIES, *PROBES, *STYLES],
                        choices=[*ADVERSARIES, *PROBES, *STYLES], help="besides the oracle")
    parser.add_argument("--out", default="runs/integrity", help="folder of the JSON files")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    args = parser.parse_args(argv)
    task_ids = [f"test-{i}" for i in range(args.tasks)]
    names = ["oracle", *args.policies]
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    rows: list[dict] = []
    total = len(args.ids) * len(args.rewards) * len(names) * len(task_ids)
    with tqdm(total=total, unit="ep", disable=args.quiet, file=sys.stderr) as bar:
        for env_id in args.ids:
            episodes: dict[str, dict[str, list]] = {}
            for preset in args.rewards:
                env = gym.make(env_id, split="test", reward=preset)
                bar.set_description(f"{env_id} {preset}")
                episodes[preset] = {n: play(env, n, task_ids, bar) for n in names}
                env.close()
                oracle = episodes[preset]["oracle"]
                rows.extend(summarize(env_id, preset, n, episodes[preset][n], oracle)
                            for n in names)
            (out / f"{env_id}.json").write_text(json.dumps(
                {"id": env_id, "tasks": args.tasks, "episodes": episodes}, indent=1))
    for preset in args.rewards:
        print_table(rows, preset)
    failing = [r for r in rows if not r["ok"]]
    print(f"\n{len(rows) - len(failing)}/{len(rows)} cells meet their goal")
    report = {"tasks": args.tasks, "rows": rows, "failing": len(failing)}
    (out / "summary.json").write_text(json.dumps(report, indent=1))
    return report


if __name__ == "__main__":
    main()
