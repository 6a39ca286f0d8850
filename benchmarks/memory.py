"""Memory: bytes per live environment, with 1,000 live environments in one process.

    python benchmarks/memory.py                        # 1,000 live ToolRetail-v0 envs
    python benchmarks/memory.py --env ToolAirline-v0 --count 300

Each environment is made with ``gym.make``, reset with its own seed and stepped once
(the oracle's first action), and kept alive with its private SQLite database. Figures:

- RSS per env: the growth of the process's resident set size over the ``--count`` envs,
  divided by the count, after one warm-up env (templates, imports and caches are built
  then, and shared by every env). SQLite's own allocations are not visible to Python, so
  this is the honest total: Python objects plus each env's in-memory database.
- Python heap per env (``tracemalloc``): the Python objects alone, over ``--traced`` envs.
- database per env: ``page_count x page_size`` of an episode database (its image in memory).

Then checks that every env is alive (its database answers) and independent (its database
bytes are its own, and equal to the template's while it has written nothing).

Prints one table and writes JSON (default ``benchmarks/results/memory.json``).
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import json
import os
import platform
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import gymnasium as gym  # noqa: E402

import tool_gym  # noqa: E402,F401  (registers the ids)
from tool_gym.agents import OraclePolicy  # noqa: E402
from tool_gym.agents.privileged import OracleAccess  # noqa: E402

try:
    from tqdm.auto import tqdm
except ImportError:  # pragma: no cover
    tqdm = None

RESULTS = Path(__file__).resolve().parent / "results"
MIB = 2**20


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--env", default="ToolRetail-v0", help="env id (default ToolRetail-v0)")
    parser.add_argument("--count", type=int, default=1000, help="live envs (default 1000)")
    parser.add_argument("--traced", type=int, default=100,
                        help="envs measured under tracemalloc (default 100)")
    parser.add_argument("--out", default=str(RESULTS / "memory.json"))
    parser.add_argument("--no-progress", dest="progress", action="store_false")
    return parser.parse_args(argv)


def rss_bytes() -> int | None:
    """The resident set size of this process now (Linux /proc, else psutil, else None)."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError, AttributeError):
        pass
    try:
        import psutil

        return psutil.Process().memory_info().rss
    except Exception:  # noqa: BLE001 - psutil missing or unsupported
        return None


def live_env(env_id: str, index: int) -> gym.Env:
    """A new env, reset with seed ``index`` and stepped once (the oracle's first action)."""
    env = gym.make(env_id)
    observation, info = env.reset(seed=index)
    policy = OraclePolicy()
    policy.reset_privileged(observation, info, OracleAccess.from_env(env))
    env.step(policy.act(observation, info))
    return env


def database_bytes(env: gym.Env) -> int:
    db = env.unwrapped.sandbox.db
    return db.execute("PRAGMA page_count").fetchone()[0] * db.execute("PRAGMA page_size").fetchone()[0]


def fingerprint(env: gym.Env) -> str:
    """sha256 of the env's database bytes (its canonical state hash on Python 3.10)."""
    box = env.unwrapped.sandbox
    if hasattr(box.db, "serialize"):
        return hashlib.sha256(box.db.serialize()).hexdigest()
    return box.state_hash()  # pragma: no cover - Python 3.10


def template_fingerprint(env: gym.Env) -> str:
    tpl = env.unwrapped.template
    if tpl.image is not None:
        return hashlib.sha256(tpl.image).hexdigest()
    from tool_gym.core.sandbox import Sandbox  # pragma: no cover - Python 3.10

    with Sandbox(tpl) as box:  # pragma: no cover
        return box.state_hash()


def check_live(envs: list[gym.Env]) -> dict:
    """Every env answers, holds its own connection, and its bytes equal the template's
    unless its one step wrote (the oracle's first action rarely does)."""
    start = template_fingerprint(envs[0])
    connections = {id(env.unwrapped.sandbox.db) for env in envs}
    alive = sum(env.unwrapped.sandbox.db.execute("SELECT 1").fetchone() == (1,) for env in envs)
    unchanged = sum(fingerprint(env) == start for env in envs)
    return {"alive": alive, "distinct connections": len(connections),
            "databases equal to the template": unchanged}


def measure(env_id: str, count: int, traced: int = 0, progress: bool = False) -> tuple[dict, list]:
    """Make ``count`` live envs; the figures and the envs (kept alive for the caller)."""
    warm = live_env(env_id, 2**31 - 1)  # builds the template and the caches
    gc.collect()
    rss_before = rss_bytes()
    envs = []
    bar = tqdm(total=count, desc=f"{env_id} live envs", unit="env", file=sys.stderr,
               dynamic_ncols=True) if progress and tqdm is not None else None
    start = time.perf_counter()
    for i in range(count):
        envs.append(live_env(env_id, i))
        if bar is not None:
            bar.update(1)
    seconds = time.perf_counter() - start
    if bar is not None:
        bar.close()
    gc.collect()
    rss_after = rss_bytes()
    result = {
        "env": env_id, "count": count,
        "rss before, MiB": None if rss_before is None else round(rss_before / MIB, 1),
        "rss after, MiB": None if rss_after is None else round(rss_after / MIB, 1),
        "rss per env, bytes": (None if rss_before is None or rss_after is None
                               else round((rss_after - rss_before) / count)),
        "database per env, bytes": database_bytes(warm),
        "template image, bytes": len(warm.unwrapped.template.image or b""),
        "make + reset + step per env, ms": round(1000 * seconds / count, 3),
    }
    if traced > 0:
        gc.collect()
        tracemalloc.start()
        before = tracemalloc.get_traced_memory()[0]
        extra = [live_env(env_id, count + i) for i in range(traced)]
        gc.collect()
        after = tracemalloc.get_traced_memory()[0]
        tracemalloc.stop()
        result["python heap per env (tracemalloc), bytes"] = round((after - before) / traced)
        result["traced envs"] = traced
        for env in extra:
            env.close()
    warm.close()
    return result, envs


def machine() -> dict:
    info = {"python": platform.python_version(), "processor": platform.machine(),
            "system": platform.system(), "cpus": os.cpu_count()}
    if hasattr(os, "getloadavg"):
        info["load_average_1m_at_start"] = round(os.getloadavg()[0], 2)
    return info


def main(argv=None) -> dict:
    args = parse_args(argv)
    result, envs = measure(args.env, args.count, args.traced, args.progress)
    result.update(check_live(envs))
    result["all alive and independent"] = (result["alive"] == args.count
                                           and result["distinct connections"] == args.count)
    report = {"machine": machine(), "results": result}
    width = max(len(k) for k in result)
    print()
    for key, value in result.items():
        shown = f"{value:,}" if isinstance(value, int) and not isinstance(value, bool) else value
        print(f"{key:<{width}}  {shown}")
    per_env = result["rss per env, bytes"]
    if per_env is not None:
        print(f"\n{args.count} live {args.env} envs: {per_env / MIB:.2f} MiB each (RSS), "
              f"{result['database per env, bytes'] / MIB:.2f} MiB of it the database")
    for env in envs:
        env.close()
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=2) + "\n")
    print(f"wrote {out}")
    return report


if __name__ == "__main__":
    main()
