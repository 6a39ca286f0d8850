"""Sandbox speed: template build, fresh sandbox, tool calls through the full tool layer.

    python benchmarks/sandbox.py [--domain retail] [--data PATH_TO_TAU2_DB_JSON] [--out FILE]

Prints a table and writes JSON (default ``benchmarks/results/sandbox.json``). Figures are
medians of repeated runs on this machine; compare ratios within one run, not across
machines. For scale: tau2-bench builds its retail environment in about 40 ms here and
serves 8,000 to 24,000 calls per second without argument validation.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tool_gym.core.domain import get_domain  # noqa: E402
from tool_gym.core.sandbox import Sandbox, Template, build_database, template  # noqa: E402

DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "tau2" / "retail" / "db.json"


@dataclass
class Args:
    domain: str = field(default="retail", metadata={"help": "domain to measure"})
    data: str | None = field(default=None, metadata={
        "help": "tau2 db.json to time the import (default: ../shared/data when present)"})
    repeats: int = field(default=2000, metadata={"help": "fresh sandboxes to time"})
    calls: int = field(default=20000, metadata={"help": "tool calls per read measurement"})
    out: str = field(default="benchmarks/results/sandbox.json", metadata={"help": "JSON output"})


def parse_args() -> Args:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for name, f in Args.__dataclass_fields__.items():
        parser.add_argument(f"--{name}", type=type(f.default) if f.default is not None else str,
                            default=f.default, help=f.metadata["help"])
    return Args(**vars(parser.parse_args()))


def timed(fn, repeats: int) -> list[float]:
    out = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        out.append(time.perf_counter() - start)
    return out


def calls_per_second(box: Sandbox, calls: list[tuple[str, dict]], n: int) -> float:
    start = time.perf_counter()
    for i in range(n):
        name, args = calls[i % len(calls)]
        result = box.call(name, args)
    elapsed = time.perf_counter() - start
    assert result.ok, result.content
    return n / elapsed


def retail_calls(box: Sandbox) -> dict[str, list[tuple[str, dict]]]:
    db = box.db
    emails = [r[0] for r in db.execute("SELECT email FROM users ORDER BY ord LIMIT 200")]
    orders = [r[0] for r in db.execute("SELECT order_id FROM orders ORDER BY ord LIMIT 200")]
    products = [r[0] for r in db.execute("SELECT product_id FROM products")]
    users = [r[0] for r in db.execute("SELECT user_id FROM users ORDER BY ord LIMIT 200")]
    return {
        "find_user_id_by_email": [("find_user_id_by_email", {"email": e}) for e in emails],
        "get_order_details": [("get_order_details", {"order_id": o}) for o in orders],
        "get_user_details": [("get_user_details", {"user_id": u}) for u in users],
        "get_product_details": [("get_product_details", {"product_id": p}) for p in products],
    }


def main() -> dict:
    args = parse_args()
    domain = get_domain(args.domain)
    rows: dict[str, float] = {}

    build = timed(lambda: build_database(domain, seed=1).close(), 5)
    rows["template build (generate + load), ms"] = statistics.median(build) * 1e3
    tpl: Template = template(args.domain, seed=0)
    rows["template size, KiB"] = len(tpl.image) / 1024 if tpl.image else float("nan")
    fresh = timed(lambda: Sandbox(tpl).close(), args.repeats)
    rows["fresh sandbox, median ms"] = statistics.median(fresh) * 1e3
    rows["fresh sandbox, p95 ms"] = sorted(fresh)[int(0.95 * len(fresh))] * 1e3

    box = Sandbox(tpl)
    rows["state hash (full export), ms"] = statistics.median(timed(box.state_hash, 20)) * 1e3
    if args.domain == "retail":
        for name, calls in retail_calls(box).items():
            rows[f"read {name}, calls/s"] = calls_per_second(box, calls, args.calls)
        orders = [r[0] for r in box.db.execute(
            "SELECT order_id FROM orders WHERE status = 'pending' ORDER BY ord")]
        writes = [("modify_pending_order_address",
                   {"order_id": o, "address1": f"{i} Main St", "address2": "", "city": "Austin",
                    "state": "TX", "country": "USA", "zip": "73301"}) for i, o in enumerate(orders)]
        rows["write modify_pending_order_address, calls/s"] = calls_per_second(
            box, writes, args.calls // 4)
        invalid = [("get_order_details", {"order_id": 7}), ("nope", {}),
                   ("get_order_details", {"order_id": "#W0000000"})]
        start = time.perf_counter()
        for i in range(args.calls):
            box.call(*invalid[i % 3])
        rows["invalid calls (unknown/mistyped/not found), calls/s"] = \
            args.calls / (time.perf_counter() - start)

    data = Path(args.data) if args.data else (DEFAULT_DATA if args.domain == "retail" else None)
    if data is not None and data.exists():
        native = domain.read(data)
        rows["tau2 db.json read (json), ms"] = statistics.median(
            timed(lambda: domain.read(data), 3)) * 1e3
        rows["tau2 import (load into SQLite), ms"] = statistics.median(
            timed(lambda: build_database(domain, data=native).close(), 3)) * 1e3
        imported = Sandbox(template(args.domain, data=data))
        rows["tau2 export, ms"] = statistics.median(
            timed(lambda: imported.export("tau2"), 5)) * 1e3

    width = max(map(len, rows))
    print(f"{'measure':<{width}}  value")
    for key, value in rows.items():
        print(f"{key:<{width}}  {value:,.3f}")
    report = {"machine": {"python": platform.python_version(), "processor": platform.machine()},
              "domain": args.domain, "results": rows}
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=2) + "\n")
    print(f"wrote {out}")
    return report


if __name__ == "__main__":
    main()
