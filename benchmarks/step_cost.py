"""Cost of one step: adversarial actions and growth tools in loops (issue #11, item 5).

    python benchmarks/step_cost.py                      # both tables
    python benchmarks/step_cost.py --steps 2000         # longer growth loops
    python benchmarks/step_cost.py --compare OLD.py     # also time another actions.py

Table 1, for every adversarial shape of ``tests/core/test_actions.py`` at ``--length``
characters (100,000): the time of ``parse_action`` (best of 3, with the retail tool
names), the work it counted (``ParseCost.total`` per input character), and the time of
one ``env.step`` of ``--env`` (ToolRetail-v0) with that action; with ``--compare``, the
time of the given older ``actions.py`` on the same text.

Table 2, for every domain: its growth recipe (``tests/fuzz/growth.py``: folders copied
into each other, the longest messages sent and forwarded, events with many attendees,
orders placed, ...) run ``--steps`` times under the domain's quotas: the slowest step,
the sandbox size at the end (``len(serialize())``), how many calls were refused with
``Error: quota exceeded`` and the first such refusal; then, on the grown sandbox, every
READ tool is called ``--reads`` times with real values of the database (and ``"g"``, which
matches the grown texts, for free-text parameters): the slowest read.

Wall-clock figures depend on the machine; the tests bound the same things by counting.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import gymnasium as gym  # noqa: E402

import numpy as np  # noqa: E402

import tool_gym  # noqa: E402
from tool_gym.core.tools import Category  # noqa: E402
from tool_gym.envs.spaces import sample_values  # noqa: E402
from tool_gym.core.actions import parse_action, parse_with_cost  # noqa: E402
from tests.core.test_actions import ADVERSARIAL  # noqa: E402
from tests.fuzz.growth import RECIPES, TEXT  # noqa: E402


def _best_ms(fn, repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best * 1000


def _load(path: str):
    spec = importlib.util.spec_from_file_location("compared_actions", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["compared_actions"] = module
    spec.loader.exec_module(module)
    return module


def parse_table(length: int, env_id: str, compare: str | None) -> None:
    env = gym.make(env_id)
    names = set(env.unwrapped.domain.toolbox.names)
    old = _load(compare) if compare else None
    head = f"{'shape':28} {'chars':>7} {'parse ms':>9} {'work/char':>9} {'step ms':>8}"
    print(head + (f" {'compared ms':>11}" if old else ""))
    for shape in sorted(ADVERSARIAL):
        text = ADVERSARIAL[shape](length)
        parse_ms = _best_ms(lambda: parse_action(text, tool_names=names))
        _, cost = parse_with_cost(text, tool_names=names)
        step_ms = float("inf")
        for seed in range(3):
            env.reset(seed=seed)
            start = time.perf_counter()
            env.step(text)
            step_ms = min(step_ms, (time.perf_counter() - start) * 1000)
        line = (f"{shape:28} {len(text):7d} {parse_ms:9.2f} {cost.total / len(text):9.2f} "
                f"{step_ms:8.2f}")
        if old:
            line += f" {_best_ms(lambda: old.parse_action(text, tool_names=names), 1):11.1f}"
        print(line, flush=True)


def _read_calls(box, per_tool: int, seed: int = 0):
    """READ calls with real values of the (grown) database, seeded."""
    rng = np.random.default_rng(seed)
    names = sorted({p for t in box.toolbox for p in t.parameters["properties"]})
    values = sample_values(box.db, names)
    for t in box.toolbox:
        if t.category is not Category.READ:
            continue
        properties = t.parameters["properties"]
        for _ in range(per_tool):
            arguments = {}
            for name, schema in properties.items():
                if name in values and values[name]:
                    arguments[name] = values[name][int(rng.integers(len(values[name])))]
                elif "enum" in schema:
                    arguments[name] = schema["enum"][int(rng.integers(len(schema["enum"])))]
                elif schema.get("type") == "string":
                    arguments[name] = "g"
                elif schema.get("type") in ("integer", "number"):
                    arguments[name] = 1
                elif name in t.required:
                    arguments[name] = [] if schema.get("type") == "array" else True
            yield t.name, arguments


def growth_table(steps: int, reads: int) -> None:
    print(f"\n{'domain':14} {'steps':>6} {'max step ms':>11} {'MB at end':>9} {'refused':>8} "
          f"{'max read ms':>11}  first refusal")
    for domain in RECIPES:
        box = tool_gym.sandbox(domain, seed=0)
        step = RECIPES[domain](box.db, TEXT)
        worst, refused, first = 0.0, 0, ""
        for i in range(steps):
            name, arguments = step(i)
            start = time.perf_counter()
            result = box.call(name, arguments)
            worst = max(worst, time.perf_counter() - start)
            if "quota exceeded" in result.content:
                refused += 1
                first = first or f"{name}: {result.content[:70]}"
        size = len(box.db.serialize()) / 1e6
        problems = box.check_integrity()
        slowest_read, slowest = 0.0, ""
        for name, arguments in _read_calls(box, reads):
            start = time.perf_counter()
            box.call(name, arguments)
            elapsed = time.perf_counter() - start
            if elapsed > slowest_read:
                slowest_read, slowest = elapsed, name
        print(f"{domain:14} {steps:6d} {worst * 1000:11.1f} {size:9.1f} {refused:8d} "
              f"{slowest_read * 1000:11.1f}  {first}"
              f"{'  INTEGRITY: ' + problems[0] if problems else ''}"
              f"  (slowest read: {slowest})", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--length", type=int, default=100_000, help="characters per action")
    parser.add_argument("--env", default="ToolRetail-v0", help="env id for env.step times")
    parser.add_argument("--steps", type=int, default=600, help="growth steps per domain")
    parser.add_argument("--reads", type=int, default=20, help="calls per READ tool after growth")
    parser.add_argument("--compare", help="path of another actions.py to time as well")
    parser.add_argument("--skip-parse", action="store_true")
    parser.add_argument("--skip-growth", action="store_true")
    args = parser.parse_args()
    if not args.skip_parse:
        parse_table(args.length, args.env, args.compare)
    if not args.skip_growth:
        growth_table(args.steps, args.reads)


if __name__ == "__main__":
    main()
