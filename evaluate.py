"""Evaluate a policy on a tool_gym environment: pass^k over tasks x trials, resumable.

    python evaluate.py --policy oracle --tasks 50 --trials 2
    python evaluate.py --policy random --split train --tasks 100
    python evaluate.py --policy mypkg.agent:MyPolicy --env-kwargs '{"max_turns": 30}'

Every (task, trial) is one episode, reset with a seed that is a function of
(--seed, task id, trial) only. Each finished episode is appended at once as one JSON line
to ``OUT/episodes.jsonl``. Rerunning with the same ``--out`` resumes: finished episodes
are kept and skipped, a partial last line left by a kill is dropped. At the end the
episodes file is rewritten in (task, trial) order, and ``OUT/summary.json`` and
``OUT/pass_hat_k.png`` are written. Nothing written depends on wall-clock time, so two
runs with the same arguments (interrupted or not) write byte-identical files.

A policy sees only the observation and the info, as an agent would: a ``module:Class``
policy is built and played in a process of its own that holds no env
(``tool_gym/agents/isolation.py``), and only ``--policy oracle`` is handed the hidden task
(``tool_gym/agents/privileged.py``). A wrong ``--env``, ``--env-kwargs`` or ``--policy`` stops the
run with one line before any work.

``--ray`` spreads the episodes over Ray (``pip install "tool_gym[distributed]"``): a local
``ray.init`` with ``--ray-cpus`` CPUs, or ``--ray auto`` / ``--ray HOST:PORT`` for a
cluster. A pool of workers, each holding one env and one policy, plays the same episodes
with the same seeds; each is appended to the same file as it finishes (in completion
order), and the final rewrite, the summary and resuming are the same as without Ray, so
the files are byte-identical to a local run's (see ``tool_gym/agents/distributed.py``).
"""

import argparse
import contextlib
import dataclasses
import hashlib
import importlib
import json
import os
import re
import sys
import typing
from dataclasses import dataclass, field
from pathlib import Path

import gymnasium as gym
from tqdm import tqdm

import tool_gym  # noqa: F401  (registers the environments)
from tool_gym.agents.isolation import load_policy_isolated, needs_isolation
from tool_gym.agents.policy import check_policy_spec
from tool_gym.agents.privileged import privileged_spec
from tool_gym.agents.rollout import run_episode
from tool_gym.core.metrics import summarize


@dataclass
class Args:
    env: str = field(default="ToolRetail-v0", metadata={
        "help": "Gymnasium id of the environment"})
    policy: str = field(default="oracle", metadata={
        "help": "policy: 'oracle', 'random', 'hf:PATH' (a local transformers model), "
                "'openai:URL#MODEL' (an OpenAI-compatible server) or 'module:Class' "
                "(instantiated with no arguments)"})
    split: str = field(default="test", metadata={
        "help": "task split: 'train' or 'test'; with tau2's tasks (--env-kwargs "
                "'{\"task_source\": \"tau2\"}') also 'all'", "choices": ("train", "test", "all")})
    tasks: typing.Optional[int] = field(default=None, metadata={
        "help": "evaluate the first N task ids of the split (<split>-0 .. <split>-(N-1)); "
                "default: all 200 test tasks, or 100 train tasks, or every tau2 task of "
                "the split"})
    task_ids: typing.Optional[str] = field(default=None, metadata={
        "help": "comma-separated task ids to evaluate instead of --tasks (e.g. test-3,test-7)"})
    trials: int = field(default=4, metadata={
        "help": "trials per task (k of pass^k goes up to this)"})
    seed: int = field(default=0, metadata={
        "help": "base seed; each episode's reset seed is a function of (seed, task id, trial)"})
    out: typing.Optional[str] = field(default=None, metadata={
        "help": "output directory (default: runs/<env>-<policy>-<split>); rerun to resume"})
    env_kwargs: str = field(default="{}", metadata={
        "help": "JSON object of keyword arguments for gym.make"})
    ray: typing.Optional[str] = field(default=None, metadata={
        "help": "play the episodes on Ray: '--ray' alone starts a local Ray, '--ray auto' or "
                "'--ray HOST:PORT' connects to a cluster (needs tool_gym[distributed])",
        "nargs": "?", "const": "local", "metavar": "ADDRESS"})
    ray_cpus: typing.Optional[int] = field(default=None, metadata={
        "help": "with --ray: CPUs of the local Ray (default: all), or the number of workers "
                "on a cluster (default: one per CPU of the cluster)"})
    save_trajectories: bool = field(default=False, metadata={
        "help": "also store each episode's calls, results, messages and ground-truth calls "
                "in OUT/trajectories.jsonl (for python -m tool_gym.synth.sweep)",
        "action": "store_true"})


DEFAULT_TASKS = {"test": 200, "train": 100}
EPISODES, SUMMARY, PLOT, CONFIG = "episodes.jsonl", "summary.json", "pass_hat_k.png", "config.json"
TRAJECTORIES = "trajectories.jsonl"


def parse_args(argv=None) -> Args:
    """Command-line flags from the fields of ``Args`` (``--task-ids`` for ``task_ids``)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    hints = typing.get_type_hints(Args)
    for f in dataclasses.fields(Args):
        kind = hints[f.name]
        if typing.get_origin(kind) is typing.Union:  # Optional[X]
            kind = next(a for a in typing.get_args(kind) if a is not type(None))
        if "action" in f.metadata:  # a flag
            parser.add_argument("--" + f.name.replace("_", "-"), action=f.metadata["action"],
                                default=f.default, help=f.metadata["help"])
            continue
        extra = {key: f.metadata[key] for key in ("choices", "nargs", "const", "metavar")
                 if key in f.metadata}
        parser.add_argument("--" + f.name.replace("_", "-"), type=kind, default=f.default,
                            help=f.metadata["help"] + ("" if f.default is None
                                                       else f" (default: {f.default})"),
                            **extra)
    return Args(**vars(parser.parse_args(argv)))


def check_args(args: Args) -> None:
    """Exit with one line saying what to use when --env or --policy names nothing (before
    any work: no env is built, no model loaded)."""
    module, sep, env_name = args.env.rpartition(":")
    try:
        if sep:  # "module:Env-v0", as gym.make takes it
            importlib.import_module(module)
        gym.spec(env_name)
    except ImportError as error:
        raise SystemExit(f"--env {args.env!r}: cannot import module {module!r} ({error})") \
            from None
    except gym.error.Error as error:
        raise SystemExit(f"--env {args.env!r}: {str(error).rstrip('.')}; the tool_gym ids "
                         f"are listed in README.md (e.g. ToolRetail-v0)") from None
    try:
        check_policy_spec(args.policy, imports=False)  # a module:Class is imported apart
    except ValueError as error:
        raise SystemExit(f"--policy: {error}") from None


def start_policy(spec: str):
    """A ``module:Class`` policy started now, in its own process (``tool_gym.agents.isolation``),
    so that a spec that cannot be built stops the run before any work; ``None`` for the
    library's policies (built where they play)."""
    if not needs_isolation(spec):
        return None
    try:
        return load_policy_isolated(spec)
    except ValueError as error:
        raise SystemExit(f"--policy: {error}") from None


def tau2_task_ids(args: Args, env_kwargs: dict) -> list | None:
    """With ``task_source="tau2"``: tau2's own ids of ``--split`` (in the task file's
    order); ``None`` for the project's own tasks."""
    if env_kwargs.get("task_source") != "tau2":
        if args.split == "all":
            raise SystemExit("--split all plays tau2's tasks: add --env-kwargs "
                             "'{\"task_source\": \"tau2\"}' (or use train or test)")
        return None
    from tool_gym.tau2.source import load_tasks, locate, split_ids

    domain = gym.spec(args.env.rpartition(":")[2]).kwargs.get("domain")
    try:
        files = locate(domain, env_kwargs.get("data"))
        return split_ids(files, load_tasks(files), args.split)
    except (OSError, ValueError) as error:
        raise SystemExit(f"--env-kwargs: {error}") from None


def resolve_task_ids(args: Args, tau2_ids: list | None = None) -> list:
    """The task ids to evaluate, in evaluation order (``tau2_ids``: the split's tau2 ids)."""
    if tau2_ids is not None and args.task_ids is None:
        if args.tasks is not None and args.tasks < 1:
            raise SystemExit(f"--tasks must be positive, got {args.tasks}")
        return tau2_ids if args.tasks is None else tau2_ids[:args.tasks]
    if args.task_ids is not None:
        if args.tasks is not None:
            raise SystemExit("give --tasks or --task-ids, not both")
        ids = [t.strip() for t in args.task_ids.split(",") if t.strip()]
        if not ids or len(set(ids)) != len(ids):
            raise SystemExit(f"--task-ids must list distinct task ids, got {args.task_ids!r}")
        return ids
    count = DEFAULT_TASKS[args.split] if args.tasks is None else args.tasks
    if count < 1:
        raise SystemExit(f"--tasks must be positive, got {count}")
    return [f"{args.split}-{i}" for i in range(count)]


def episode_seed(seed: int, task_id: str, trial: int) -> int:
    """The reset seed of one episode: a hash of (base seed, task id, trial), < 2**31."""
    digest = hashlib.sha256(f"{seed}\0{task_id}\0{trial}".encode()).digest()
    return int.from_bytes(digest[:4], "little") & 0x7FFFFFFF


def default_out(args: Args) -> Path:
    name = f"{args.env}-{args.policy}-{args.split}"
    return Path("runs") / re.sub(r"[^A-Za-z0-9._-]+", "_", name)


def check_config(out: Path, config: dict) -> None:
    """Write ``config.json``, or check that a resumed run used the same settings."""
    path = out / CONFIG
    text = json.dumps(config, indent=2, sort_keys=True) + "\n"
    if path.exists():
        old = json.loads(path.read_text())
        if old != config:
            raise SystemExit(f"{out} holds a run with other settings ({old}); "
                             f"use another --out or delete it")
        return
    write_atomic(path, text)


def load_episodes(path: Path) -> dict:
    """Finished episodes of an earlier run, by (task_id, trial).

    A last line without its newline (a write cut by a kill) or that is not valid JSON is
    dropped and truncated from the file; a broken line elsewhere is an error. When a
    (task_id, trial) appears twice, the first line counts.
    """
    if not path.exists():
        return {}
    data = path.read_bytes()
    records, keep, offset = [], 0, 0
    lines = data.split(b"\n")[:-1]  # complete lines only: a cut last line has no newline
    for number, line in enumerate(lines, 1):
        offset += len(line) + 1
        try:
            record = json.loads(line)
            record["task_id"], record["trial"]  # noqa: B018 - required keys
        except (ValueError, KeyError, TypeError):
            if number == len(lines):  # a final line that was cut: drop it
                break
            raise SystemExit(f"{path}:{number} is not an episode record; fix or delete it")
        records.append(record)
        keep = offset
    if keep != len(data):
        with open(path, "r+b") as f:
            f.truncate(keep)
            os.fsync(f.fileno())
    done = {}
    for record in records:
        done.setdefault((record["task_id"], record["trial"]), record)
    return done


def append_episode(path: Path, record: dict) -> None:
    """Append one line and make it durable before going on."""
    with open(path, "a", encoding="utf-8") as f:
        f.write(json.dumps(record, sort_keys=True) + "\n")
        f.flush()
        os.fsync(f.fileno())


def write_atomic(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def play_local(env_id: str, env_kwargs: dict, policy_spec: str, jobs: list,
               trajectories: bool = False, policy=None):
    """Play ``jobs`` (``(task_id, trial, seed)``) in order with one env and one policy in
    this process (a ``module:Class`` policy in a process of its own); yield ``(task_id,
    trial, seed, record)`` as each episode ends (with ``trajectories``, each record also
    holds its ``"trajectory"``). ``policy``: the spec's policy, already built."""
    env = gym.make(env_id, **env_kwargs)
    if policy is None:
        policy = load_policy_isolated(policy_spec)
    privileged = privileged_spec(policy_spec)  # only --policy oracle sees the hidden task
    try:
        for task_id, trial, seed in jobs:
            extra = {"trajectory": True} if trajectories else {}
            yield task_id, trial, seed, run_episode(env, policy, seed, task_id,
                                                    privileged=privileged, **extra)
    finally:
        env.close()
        if callable(getattr(policy, "close", None)):
            policy.close()


def play_ray(args: "Args", env_kwargs: dict, jobs: list):
    """Play ``jobs`` on Ray (``--ray``); yield as :func:`play_local`, in completion order."""
    from tool_gym.agents import distributed

    with distributed.session(args.ray, args.ray_cpus) as ray:
        workers = args.ray_cpus if args.ray not in (None, "", "local") else None
        workers = workers or distributed.default_workers(ray)
        print(f"ray: {workers} workers", file=sys.stderr)
        yield from distributed.play(args.env, env_kwargs, args.policy, jobs, workers=workers)


def print_table(summary: dict) -> None:
    print(f"\n{summary['episodes']} episodes over {summary['tasks']} tasks")
    print(f"{'k':>3}  {'pass^k':>7}  {'95% CI':>17}  {'pass@k':>7}")
    for k, value in summary["pass_hat_k"].items():
        low, high = summary["pass_hat_k_ci"][k]
        print(f"{k:>3}  {value:7.3f}  [{low:6.3f}, {high:6.3f}]  {summary['pass_at_k'][k]:7.3f}")
    if summary["constraint_types"]:
        print(f"\n{'constraint type':<28}{'n':>5}{'satisfied':>11}{'episode success':>17}")
        for name, row in summary["constraint_types"].items():
            print(f"{name:<28}{row['constraints']:>5}{row['satisfied_rate']:>11.3f}"
                  f"{row['episode_success_rate']:>17.3f}")
    violations = summary["violations"]
    print(f"\nmean score {summary['mean_score']:.3f}   mean turns {summary['mean_turns']:.2f}"
          f"   mean tool calls {summary['mean_tool_calls']:.2f}")
    print(f"violations {violations['total']} ({violations['per_episode']:.3f}/episode"
          f"{', ' if violations['by_kind'] else ''}"
          + ", ".join(f"{k}: {v}" for k, v in violations["by_kind"].items()) + ")"
          f"   redundant writes {summary['redundant_writes']['total']}")
    print("ended: " + ", ".join(f"{k}: {v}" for k, v in summary["ended"].items()))
    tau2 = summary.get("tau2")
    if tau2:
        print(f"\ntau2 reward (deterministic parts) {tau2['reward_mean']:.3f}   db_match "
              f"{tau2['db_match_rate']:.3f}   communicate_info "
              f"{tau2['communicate_info_rate']:.3f}")
        for group, row in tau2["groups"].items():
            print(f"  {group:<34} tasks {row['tasks']:>4}   pass^1 {row['pass_hat_1']:.3f}")
        if tau2["tasks_with_rejected_gold_writes"]:
            print(f"  tasks {', '.join(tau2['tasks_with_rejected_gold_writes'])}: a gold write "
                  f"that tau2's own tool rejects; counted as tau2 counts them (the gold "
                  f"database leaves that write out)")


def plot(summary: dict, path: Path, title: str) -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print(f"matplotlib is not installed: skipping {path.name}")
        return
    ks = [int(k) for k in summary["pass_hat_k"]]
    values = [summary["pass_hat_k"][str(k)] for k in ks]
    lows = [summary["pass_hat_k_ci"][str(k)][0] for k in ks]
    highs = [summary["pass_hat_k_ci"][str(k)][1] for k in ks]
    fig, ax = plt.subplots(figsize=(5, 3.5))
    ax.fill_between(ks, lows, highs, alpha=0.25, label="95% CI")
    ax.plot(ks, values, marker="o", label="pass^k")
    ax.set(xlabel="k", ylabel="pass^k", ylim=(-0.02, 1.02), xticks=ks, title=title)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, metadata={"Software": None})
    plt.close(fig)


def main(argv=None) -> dict:
    args = parse_args(argv)
    if args.trials < 1:
        raise SystemExit(f"--trials must be positive, got {args.trials}")
    if args.ray_cpus is not None and args.ray_cpus < 1:
        raise SystemExit(f"--ray-cpus must be positive, got {args.ray_cpus}")
    if args.save_trajectories and args.ray is not None:
        raise SystemExit("--save-trajectories is not supported with --ray yet")
    try:
        env_kwargs = json.loads(args.env_kwargs)
    except ValueError as error:
        raise SystemExit(f"--env-kwargs must be a JSON object: {error}") from None
    if not isinstance(env_kwargs, dict):
        raise SystemExit("--env-kwargs must be a JSON object")
    check_args(args)
    task_ids = resolve_task_ids(args, tau2_task_ids(args, env_kwargs))
    policy = start_policy(args.policy)  # a module:Class policy: built now, in its own process
    try:
        return run(args, env_kwargs, task_ids, policy)
    finally:
        if policy is not None:
            policy.close()


def run(args: Args, env_kwargs: dict, task_ids: list, policy=None) -> dict:
    """The evaluation of checked arguments (``policy``: the spec's policy if started)."""
    out = Path(args.out) if args.out else default_out(args)
    out.mkdir(parents=True, exist_ok=True)
    config = {"env": args.env, "policy": args.policy, "seed": args.seed,
              "env_kwargs": env_kwargs}
    check_config(out, config)

    # Resume: keep what an earlier run finished, play the rest in (task, trial) order.
    episodes_path = out / EPISODES
    done = load_episodes(episodes_path)
    episodes_path.touch()
    trajectories_path = out / TRAJECTORIES
    trajectories = load_episodes(trajectories_path) if args.save_trajectories else {}
    plan = [(task_id, trial) for task_id in task_ids for trial in range(args.trials)]
    todo = [key for key in plan if key not in done]
    if done:
        print(f"resuming in {out}: {len(plan) - len(todo)} of {len(plan)} episodes done")

    jobs = [(task_id, trial, episode_seed(args.seed, task_id, trial)) for task_id, trial in todo]
    if args.ray is not None and jobs:
        results = play_ray(args, env_kwargs, jobs)
    else:
        results = play_local(args.env, env_kwargs, args.policy, jobs,
                             trajectories=args.save_trajectories, policy=policy)
    bar = tqdm(total=len(plan), initial=len(plan) - len(todo), desc=f"{args.policy}",
               unit="ep", file=sys.stderr, dynamic_ncols=True)
    try:
        with contextlib.closing(results):
            for task_id, trial, seed, record in results:  # as each episode ends
                trajectory = record.pop("trajectory", None)
                if args.save_trajectories and trajectory is not None:
                    trajectory = dict(trajectory, task_id=task_id, trial=trial, seed=seed)
                    append_episode(trajectories_path, trajectory)
                    trajectories[(task_id, trial)] = trajectory
                record.update(task_id=task_id, trial=trial, seed=seed)
                append_episode(episodes_path, record)
                done[(task_id, trial)] = record
                bar.update(1)
    except KeyboardInterrupt:
        print(f"\ninterrupted: rerun the same command to resume into {out}", file=sys.stderr)
        raise
    finally:
        bar.close()

    # Canonical episodes file: plan order first, then episodes of other tasks kept from
    # earlier runs into this directory (they never count in the summary).
    order = {task_id: i for i, task_id in enumerate(task_ids)}
    keys = sorted(done, key=lambda key: (order.get(key[0], len(order)),
                                         "" if key[0] in order else str(key[0]), key[1]))
    write_atomic(episodes_path, "".join(json.dumps(done[key], sort_keys=True) + "\n"
                                        for key in keys))
    if args.save_trajectories:
        write_atomic(trajectories_path, "".join(
            json.dumps(trajectories[key], sort_keys=True) + "\n"
            for key in keys if key in trajectories))

    summary = summarize([done[key] for key in plan], max_k=args.trials)
    summary["config"] = dict(config, split=args.split, trials=args.trials,
                             task_ids=task_ids)
    write_atomic(out / SUMMARY, json.dumps(summary, indent=2, sort_keys=True) + "\n")
    print_table(summary)
    plot(summary, out / PLOT, f"{args.policy} on {args.env} ({args.split})")
    print(f"\nwrote {episodes_path}, {out / SUMMARY}")
    return summary


if __name__ == "__main__":
    main()
