"""Long fuzzing: N random and adversarial actions per registered env id (default 100,000),
and N calls straight into each domain's sandbox.

    python benchmarks/fuzz.py                    # every id of tool_gym.ENV_IDS, every domain
    python benchmarks/fuzz.py --n 1000000 --env ToolRetail-v0 --no-sandbox

Actions come from ``tests/fuzz/adversarial.py`` (``mixed_actions``): broken JSON, wrong
types, unknown tools and parameters, SQL injection strings, megabyte strings, lone
surrogates and control characters, deep nesting, huge integers, NaN and infinities, in
every action format, and calls built from each tool's schema with real database values
(so that writes happen). Each action goes through ``env.step`` of ``gym.make(id)`` (the
registered wrappers included); an exception that escapes ``step`` is counted (with its
type, message and the action) and the env reset. After every episode the sandbox must
pass ``check_integrity()`` (SQLite integrity and foreign keys plus the domain's
invariants); at the end the template's digest must be unchanged.

The sandbox part sends ``adversarial_calls`` to ``Sandbox.call`` in episodes of
``--sandbox-episode`` calls, checking integrity after each.

Prints one table and writes ``benchmarks/results/fuzz.json``; exits with status 1 when an
exception escaped, an integrity check failed or a template changed.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
import traceback
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


import tool_gym  # noqa: E402  (registers the ids)
from tests.fuzz.adversarial import (IntegrityChecks, adversarial_calls,  # noqa: E402
                                    env_sandboxes, is_error_observation, make_env,
                                    mixed_actions)
from tool_gym.domains import domain_names  # noqa: E402
from tool_gym.core.tools import Category  # noqa: E402
from tool_gym.envs.episode import episode_env  # noqa: E402
from tool_gym.envs.spaces import sample_values  # noqa: E402

try:
    from tqdm.auto import tqdm
except ImportError:  # pragma: no cover
    tqdm = None

RESULTS = Path(__file__).resolve().parent / "results"
KEEP = 10  # examples kept per kind of failure


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=100_000,
                        help="actions per env id and calls per domain (default: 100000)")
    parser.add_argument("--env", action="append", default=None,
                        help="env id to fuzz (repeatable; default: every id of tool_gym.ENV_IDS)")
    parser.add_argument("--domain", action="append", default=None,
                        help="domain whose sandbox to fuzz (repeatable; default: every domain)")
    parser.add_argument("--no-env", dest="envs", action="store_false",
                        help="skip the env ids")
    parser.add_argument("--no-sandbox", dest="sandboxes", action="store_false",
                        help="skip the sandboxes")
    parser.add_argument("--max-errors", type=int, default=40,
                        help="error limit of envs that take one (default 40; ToolEnv's own is "
                             "10): longer episodes")
    parser.add_argument("--n-tasks", type=int, default=256,
                        help="envs that synthesize a task per episode (ToolCall-*) draw from "
                             "this many (default 256): the step is fuzzed, not the synthesizer")
    parser.add_argument("--jobs", type=int, default=1,
                        help="targets fuzzed in parallel processes (default 1)")
    parser.add_argument("--sandbox-episode", type=int, default=100,
                        help="calls between integrity checks and resets of a sandbox (default 100)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default=str(RESULTS / "fuzz.json"))
    parser.add_argument("--no-progress", dest="progress", action="store_false")
    return parser.parse_args(argv)


def machine() -> dict:
    info = {"python": platform.python_version(), "processor": platform.machine(),
            "system": platform.system(), "cpus": os.cpu_count()}
    if hasattr(os, "getloadavg"):
        info["load_average_1m_at_start"] = round(os.getloadavg()[0], 2)
    return info


def short(value: Any, limit: int = 200) -> str:
    """A printable, bounded description of any value (never raises)."""
    digits = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)  # show huge integers too
    try:
        text = repr(value)
    except Exception as error:  # noqa: BLE001
        text = f"<{type(value).__name__}: repr failed with {type(error).__name__}>"
    finally:
        sys.set_int_max_str_digits(digits)
    return text if len(text) <= limit else text[:limit] + f"... ({len(text)} chars)"


def where(error: BaseException) -> str:
    """``file:line (function)`` of the innermost frame of an exception."""
    frames = traceback.extract_tb(error.__traceback__)
    if not frames:
        return "?"
    frame = frames[-1]
    root = str(Path(__file__).resolve().parents[1]) + os.sep
    return f"{frame.filename.replace(root, '')}:{frame.lineno} ({frame.name})"


def real_values(template) -> dict:
    names = sorted({p for t in template.domain.toolbox for p in t.parameters["properties"]})
    return sample_values(template.reader(), names)


class Tally:
    """Counters plus a few examples of each kind of failure."""

    def __init__(self) -> None:
        self.counts: Counter = Counter()
        self.escaped: dict[str, dict] = {}
        self.integrity: list[list[str]] = []
        self.problem_kinds: Counter = Counter()  # the rule of each problem found

    def escape(self, error: BaseException, action: Any) -> None:
        self.counts["escaped exceptions"] += 1
        key = f"{type(error).__name__}: {str(error)[:120]}"
        entry = self.escaped.setdefault(key, {"count": 0, "where": where(error),
                                              "example_action": short(action)})
        entry["count"] += 1

    def check(self, integrity: IntegrityChecks, boxes, force: bool = False) -> None:
        """Integrity of the sandboxes whose database changed since their last check."""
        runs = integrity.runs
        problems = integrity.problems(boxes, force)
        self.counts["integrity checks"] += integrity.runs - runs
        if problems:
            self.counts["integrity failures"] += 1
            self.problem_kinds.update(problem.split(":", 1)[0] for problem in problems)
            if len(self.integrity) < KEEP:
                self.integrity.append(problems[:5])

    def row(self, target: str, kind: str, seconds: float, digest_ok: bool) -> dict:
        counts = self.counts
        return {
            "target": target, "kind": kind, "actions": counts["actions"],
            "escaped exceptions": counts["escaped exceptions"],
            "error observations": counts["error observations"],
            "ok calls": counts["ok calls"], "ok writes": counts["ok writes"],
            "episodes": counts["episodes"], "integrity checks": counts["integrity checks"],
            "integrity failures": counts["integrity failures"],
            "template unchanged": digest_ok, "seconds": round(seconds, 2),
            "actions/s": round(counts["actions"] / seconds, 1) if seconds > 0 else None,
            "escaped": dict(sorted(self.escaped.items(), key=lambda kv: -kv[1]["count"])[:KEEP]),
            "integrity examples": self.integrity,
            "integrity problems by rule": dict(self.problem_kinds.most_common()),
        }


def progress(args, total: int, desc: str, unit: str = "act"):
    if args.progress and tqdm is not None:
        return tqdm(total=total, desc=desc, unit=unit, file=sys.stderr, dynamic_ncols=True,
                    mininterval=0.5)
    return None


def fuzz_env(env_id: str, args) -> dict:
    # the error limit and a fixed set of synthesized tasks, where the env class takes them
    env = make_env(env_id, max_errors=args.max_errors, n_tasks=args.n_tasks)
    base = episode_env(env)
    _, info = env.reset(seed=args.seed)
    templates: dict[int, tuple] = {}  # id -> (template, digest at first sight)
    integrity = IntegrityChecks()
    writes = set()
    if getattr(base, "domain", None) is not None and hasattr(base.domain, "toolbox"):
        writes = {t.name for t in base.domain.toolbox if t.category is Category.WRITE}
    tally = Tally()
    counts = tally.counts
    bar = progress(args, args.n, env_id)
    episode = 0
    values = getattr(base.action_space, "values", {})  # real database values
    start = time.perf_counter()

    def end_episode() -> None:
        nonlocal episode
        for box in env_sandboxes(env):
            if id(box.template) not in templates:  # digest at first sight
                templates[id(box.template)] = (box.template, box.template.digest)
        tally.check(integrity, env_sandboxes(env))
        episode += 1
        env.reset(seed=args.seed + episode)

    for action in mixed_actions(info["tools"], values, args.n, args.seed):
        counts["actions"] += 1
        if bar is not None:
            bar.update(1)
        seen = len(base.episode.calls)
        try:
            observation, _, terminated, truncated, info = env.step(action)
        except Exception as error:  # noqa: BLE001 - what the benchmark counts
            tally.escape(error, action)
            end_episode()
            continue
        counts["error observations"] += is_error_observation(observation)
        for call in base.episode.calls[seen:]:  # the step's calls (tool_gym.envs.episode)
            if call["ok"]:
                counts["ok calls"] += 1
                counts["ok writes"] += call["name"] in writes
        if terminated or truncated:
            counts["episodes"] += 1
            end_episode()
    tally.check(integrity, env_sandboxes(env), force=True)
    seconds = time.perf_counter() - start
    if bar is not None:
        bar.close()
    unchanged = all(t.digest == digest for t, digest in templates.values())
    env.close()
    return tally.row(env_id, "env.step", seconds, unchanged)


def fuzz_sandbox(domain: str, args) -> dict:
    box = tool_gym.sandbox(domain)
    digest = box.template.digest
    writes = {t.name for t in box.toolbox if t.category is Category.WRITE}
    tally = Tally()
    counts = tally.counts
    bar = progress(args, args.n, f"{domain} sandbox")
    integrity = IntegrityChecks()
    start = time.perf_counter()
    calls = adversarial_calls(box.tools, real_values(box.template), args.n, args.seed)
    for i, (name, arguments) in enumerate(calls):
        counts["actions"] += 1
        if bar is not None:
            bar.update(1)
        try:
            result = box.call(name, arguments)
        except Exception as error:  # noqa: BLE001
            tally.escape(error, (name, arguments))
            continue
        if result.ok:
            counts["ok calls"] += 1
            counts["ok writes"] += name in writes
        elif result.content.startswith("Error: "):
            counts["error observations"] += 1
        else:
            tally.escape(AssertionError(f"failed call without 'Error: ': {result.content[:80]}"),
                         (name, arguments))
        if (i + 1) % args.sandbox_episode == 0:
            counts["episodes"] += 1
            tally.check(integrity, [box])
            box.reset()
    tally.check(integrity, [box], force=True)
    seconds = time.perf_counter() - start
    if bar is not None:
        bar.close()
    box.close()
    return tally.row(domain, "Sandbox.call", seconds, box.template.digest == digest)


def print_table(rows: list[dict]) -> None:
    w = max([len("target"), *(len(r["target"]) for r in rows)]) + 2
    header = (f"{'target':<{w}}{'via':<14}{'actions':>9}{'escaped':>9}{'errors':>9}"
              f"{'ok writes':>11}{'episodes':>10}{'integrity fail':>16}{'template':>10}"
              f"{'actions/s':>11}")
    print("\n" + header + "\n" + "-" * len(header))
    for r in rows:
        print(f"{r['target']:<{w}}{r['kind']:<14}{r['actions']:>9,}{r['escaped exceptions']:>9,}"
              f"{r['error observations']:>9,}{r['ok writes']:>11,}{r['episodes']:>10,}"
              f"{r['integrity failures']:>16,}{'same' if r['template unchanged'] else 'CHANGED':>10}"
              f"{r['actions/s']:>11,.0f}")
    for r in rows:
        for key, entry in r["escaped"].items():
            print(f"  {r['target']}: {entry['count']} x {key}\n      at {entry['where']}"
                  f"\n      e.g. {entry['example_action']}")
        for rule, count in r["integrity problems by rule"].items():
            print(f"  {r['target']}: {count} x integrity: {rule}")
        for problems in r["integrity examples"][:2]:
            print(f"      e.g. {problems}")


def run_target(kind: str, name: str, args) -> dict:
    return fuzz_env(name, args) if kind == "env" else fuzz_sandbox(name, args)


def main(argv=None) -> dict:
    args = parse_args(argv)
    targets = [("env", env_id) for env_id in (args.env or tool_gym.ENV_IDS) if args.envs]
    targets += [("sandbox", d) for d in (args.domain or sorted(domain_names())) if args.sandboxes]
    report = {"machine": machine(), "settings": {
        "n": args.n, "seed": args.seed, "max_errors": args.max_errors, "n_tasks": args.n_tasks,
        "sandbox_episode": args.sandbox_episode, "jobs": args.jobs}}
    if args.jobs <= 1:
        rows = [run_target(kind, name, args) for kind, name in targets]
    else:  # one target per worker process at a time; a bar over the targets
        from concurrent.futures import ProcessPoolExecutor

        quiet = argparse.Namespace(**dict(vars(args), progress=False))
        with ProcessPoolExecutor(args.jobs) as pool:
            futures = [pool.submit(run_target, kind, name, quiet) for kind, name in targets]
            bar = progress(args, len(targets), "targets", "target")
            for future in futures:
                future.result()
                if bar is not None:
                    bar.update(1)
            if bar is not None:
                bar.close()
            rows = [future.result() for future in futures]
    report["results"] = rows
    report["ok"] = all(r["escaped exceptions"] == 0 and r["integrity failures"] == 0
                       and r["template unchanged"] for r in rows)
    print_table(rows)
    print(f"\n{'OK' if report['ok'] else 'FAILED'}: {sum(r['actions'] for r in rows):,} actions")
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=2) + "\n")
    print(f"wrote {out}")
    return report


if __name__ == "__main__":
    raise SystemExit(0 if main()["ok"] else 1)
