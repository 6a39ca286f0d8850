"""Evaluate a policy on a tool_gym environment: pass^k over tasks x trials, resumable.

    tool-gym-evaluate --policy oracle --tasks 50 --trials 2
    tool-gym-evaluate --policy random --split train --tasks 100
    tool-gym-evaluate --policy mypkg.agent:MyPolicy --env-kwargs '{"max_turns": 30}'
    tool-gym-evaluate --policy openai:http://127.0.0.1:8000/v1#MODEL --temperature 0.7

(``python evaluate.py`` in a checkout and ``python -m tool_gym.cli.evaluate`` are the same
command.) Every (task, trial) is one episode, reset with a seed that is a function of
(--seed, task id, trial) only. Each finished episode is appended at once as one JSON line
to ``OUT/episodes.jsonl``. Rerunning with the same ``--out`` resumes: finished episodes
are kept and skipped, a partial last line left by a kill is dropped. At the end the
episodes file is rewritten in (task, trial) order, and ``OUT/summary.json`` and
``OUT/pass_hat_k.png`` are written. Nothing written depends on wall-clock time, so two
runs with the same arguments (interrupted or not) write byte-identical files.

Every argument is checked before the first episode (:mod:`tool_gym.cli.checks`): the env
id, ``--env-kwargs`` (its keys against the env's signature, its values by building the
env), the split and task range, the policy spec (a ``module:Class`` is imported from the
current directory too), the extras a policy or ``--ray`` needs, an ``openai:`` server's
reachability, and a resumed run's settings. A mistake prints one line,
``tool-gym-evaluate: error: ...``, exits with status 2 and creates no run directory.

A policy sees only the observation and the info, as an agent would: a ``module:Class``
policy is built and played in a process of its own that holds no env
(``tool_gym/agents/isolation.py``), and only ``--policy oracle`` is handed the hidden task
(``tool_gym/agents/privileged.py``).

``--ray`` spreads the episodes over Ray (``pip install "tool_gym[distributed]"``): a local
``ray.init`` with ``--ray-cpus`` CPUs, or ``--ray auto`` / ``--ray HOST:PORT`` for a
cluster. A pool of workers, each holding one env and one policy, plays the same episodes
with the same seeds; each is appended to the same file as it finishes (in completion
order), and the final rewrite, the summary and resuming are the same as without Ray, so
the files are byte-identical to a local run's (see ``tool_gym/agents/distributed.py``).
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import os
import re
import socket
import sys
import typing
from dataclasses import dataclass, field
from pathlib import Path

import gymnasium as gym
from tqdm import tqdm

import tool_gym
from tool_gym.agents.isolation import load_policy_isolated, needs_isolation
from tool_gym.agents.privileged import privileged_spec
from tool_gym.agents.episode_loop import run_episode
from tool_gym.cli import checks
from tool_gym.cli.checks import UsageError
from tool_gym.core.metrics import summarize

PROG = "tool-gym-evaluate"


@dataclass
class Args:
    env: str = field(default="ToolRetail-v0", metadata={
        "help": "Gymnasium id of the environment"})
    policy: str = field(default="oracle", metadata={
        "help": "policy: 'oracle', 'random', 'hf:PATH' (a local transformers model), "
                "'openai:URL#MODEL' (an OpenAI-compatible server) or 'module:Class' "
                "(instantiated with no arguments; the current directory is on the path)"})
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
    temperature: typing.Optional[float] = field(default=None, metadata={
        "help": "hf: and openai: policies: sampling temperature (default: the policy's, "
                "greedy)"})
    max_tokens: typing.Optional[int] = field(default=None, metadata={
        "help": "hf: and openai: policies: longest model turn, in tokens (default: the "
                "policy's)"})
    api_key_env: typing.Optional[str] = field(default=None, metadata={
        "help": "openai: policies: the environment variable that holds the API key "
                "(default: OPENAI_API_KEY)"})
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
    report: bool = field(default=False, metadata={
        "help": "also write OUT/report.html, the run as one HTML page to read in a browser "
                "(transcripts with --save-trajectories; python -m tool_gym.report)",
        "action": "store_true"})


DEFAULT_TASKS = {"test": 200, "train": 100}
EPISODES, SUMMARY, PLOT, CONFIG = "episodes.jsonl", "summary.json", "pass_hat_k.png", "config.json"
TRAJECTORIES = "trajectories.jsonl"


def parse_args(argv=None) -> Args:
    """Command-line flags from the fields of ``Args`` (``--task-ids`` for ``task_ids``);
    a parse error is a :class:`~tool_gym.cli.checks.UsageError`."""
    parser = checks.ArgumentParser(prog=PROG, description=__doc__.split("\n\n")[0])
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


# ---------------------------------------------------------------------------- checks

@dataclass
class Checked:
    """What the checks of :func:`check_args` found: everything a run needs."""

    env_kwargs: dict
    task_ids: list
    policy_kwargs: dict
    env: typing.Any = None  # the built env (None with --ray: each worker builds its own)
    policy: typing.Any = None  # a module:Class policy, started in its own process

    def close(self) -> None:
        for thing in (self.policy, self.env):
            if thing is not None and callable(getattr(thing, "close", None)):
                thing.close()
        self.policy = self.env = None


def check_args(args: Args) -> Checked:
    """Check every argument before any work, cheapest first; raise
    :class:`~tool_gym.cli.checks.UsageError` (one line) at the first mistake. Ends by
    building the env (its values) and starting a ``module:Class`` policy, so that nothing
    the episodes need can fail after the run directory exists."""
    checks.positive("--trials", args.trials)
    checks.positive("--ray-cpus", args.ray_cpus)
    if args.save_trajectories and args.ray is not None:
        raise UsageError("--save-trajectories is not supported with --ray yet")
    if args.ray is not None:
        checks.require_extra("distributed", ("ray",), "--ray")
    env_kwargs = checks.parse_env_kwargs(args.env_kwargs)
    spec = checks.check_env_id(args.env)
    checks.check_env_kwargs(args.env, spec, env_kwargs)
    checks.check_user_llm(env_kwargs)
    policy_kwargs = checks.policy_kwargs(args.policy, args.temperature, args.max_tokens,
                                         args.api_key_env)
    task_ids = resolve_task_ids(args, tau2_task_ids(args, env_kwargs))
    checks.check_out_dir("--out", args.out or default_out(args))
    checks.check_policy(args.policy, api_key_env=args.api_key_env)
    checked = Checked(env_kwargs, task_ids, policy_kwargs)
    try:
        env = checks.make_env(args.env, env_kwargs)
        checked.env = env
        check_task_ids(env, args, task_ids)
        if args.ray is not None:  # the workers build their own
            checked.close()
        checked.policy = start_policy(args.policy, policy_kwargs)
    except BaseException:
        checked.close()
        raise
    return checked


def start_policy(spec: str, kwargs: dict | None = None):
    """A ``module:Class`` policy started now, in its own process (``tool_gym.agents.isolation``),
    so that a spec that cannot be built stops the run before any work; ``None`` for the
    library's policies (built where they play)."""
    if not needs_isolation(spec):
        return None
    try:
        return load_policy_isolated(spec, **(kwargs or {}))
    except ValueError as error:
        raise UsageError(f"--policy: {error}") from None


def tau2_task_ids(args: Args, env_kwargs: dict) -> list | None:
    """With ``task_source="tau2"``: tau2's own ids of ``--split`` (in the task file's
    order); ``None`` for the project's own tasks."""
    if env_kwargs.get("task_source") != "tau2":
        if args.split == "all":
            raise UsageError("--split all plays tau2's tasks: add --env-kwargs "
                             "'{\"task_source\": \"tau2\"}' (or use train or test)")
        return None
    from tool_gym.tau2.source import load_tasks, locate, split_ids

    domain = gym.spec(args.env.rpartition(":")[2]).kwargs.get("domain")
    try:
        files = locate(domain, env_kwargs.get("data"))
        return split_ids(files, load_tasks(files), args.split)
    except (OSError, ValueError) as error:
        raise UsageError(f"--env-kwargs: {error}") from None


def resolve_task_ids(args: Args, tau2_ids: list | None = None) -> list:
    """The task ids to evaluate, in evaluation order (``tau2_ids``: the split's tau2 ids)."""
    checks.positive("--tasks", args.tasks)
    if args.task_ids is not None:
        if args.tasks is not None:
            raise UsageError("give --tasks or --task-ids, not both")
        ids = [t.strip() for t in args.task_ids.split(",") if t.strip()]
        if not ids or len(set(ids)) != len(ids):
            raise UsageError(f"--task-ids must list distinct task ids, got {args.task_ids!r}")
        return ids
    if tau2_ids is not None:
        if args.tasks is not None and args.tasks > len(tau2_ids):
            raise UsageError(f"--tasks {args.tasks}: tau2's {args.split} split has "
                             f"{len(tau2_ids)} tasks")
        return tau2_ids if args.tasks is None else tau2_ids[:args.tasks]
    count = DEFAULT_TASKS[args.split] if args.tasks is None else args.tasks
    return [f"{args.split}-{i}" for i in range(count)]


def check_task_ids(env: gym.Env, args: Args, task_ids: list) -> None:
    """Each id names a task of the built env (for a ``--tasks`` range, its last id stands
    for the range); see :func:`tool_gym.cli.checks.task_error`."""
    for task_id in task_ids if args.task_ids is not None else task_ids[-1:]:
        error = checks.task_error(env, task_id)
        if error is None:
            continue
        if args.task_ids is not None:
            raise UsageError(f"--task-ids: {error}")
        if args.tasks is None:
            raise UsageError(f"the {args.split} split of {args.env} has fewer than "
                             f"{len(task_ids)} tasks: give --tasks ({error})")
        raise UsageError(f"--tasks {args.tasks} goes past the {args.split} split of "
                         f"{args.env}: {error}")


# ---------------------------------------------------------------------------- files

def episode_seed(seed: int, task_id: str, trial: int) -> int:
    """The reset seed of one episode: a hash of (base seed, task id, trial), < 2**31."""
    digest = hashlib.sha256(f"{seed}\0{task_id}\0{trial}".encode()).digest()
    return int.from_bytes(digest[:4], "little") & 0x7FFFFFFF


def default_out(args: Args) -> Path:
    name = f"{args.env}-{args.policy}-{args.split}"
    return Path("runs") / re.sub(r"[^A-Za-z0-9._-]+", "_", name)


def check_resume(out: Path, config: dict) -> None:
    """A run already in ``out`` must have used the same settings (checked before anything
    is written there)."""
    path = out / CONFIG
    if path.exists():
        old = json.loads(path.read_text())
        if old != config:
            raise UsageError(f"{out} holds a run with other settings ({json.dumps(old)}); "
                             f"use another --out or delete it")


def write_config(out: Path, config: dict) -> None:
    """``config.json`` of a new run (a resumed run's is kept as it is)."""
    path = out / CONFIG
    if not path.exists():
        write_atomic(path, json.dumps(config, indent=2, sort_keys=True) + "\n")


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
            record["task_id"], record["trial"]
        except (ValueError, KeyError, TypeError):
            if number == len(lines):  # a final line that was cut: drop it
                break
            raise UsageError(f"{path}:{number} is not an episode record; fix or delete it") \
                from None
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


def json_line(record: dict) -> str:
    """One JSON line with the record's own keys sorted; nested objects keep their order
    (a tool call's arguments stay as the agent wrote them: they are training targets)."""
    return json.dumps(dict(sorted(record.items()))) + "\n"


def append_episode(path: Path, record: dict, line=None) -> None:
    """Append one line (``line(record)``: all keys sorted by default) and make it durable
    before going on."""
    with open(path, "a", encoding="utf-8") as f:
        f.write(line(record) if line else json.dumps(record, sort_keys=True) + "\n")
        f.flush()
        os.fsync(f.fileno())


def write_atomic(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


# ---------------------------------------------------------------------------- playing

def play_local(env_id: str, env_kwargs: dict, policy_spec: str, jobs: list,
               trajectories: bool = False, policy=None, env=None,
               policy_kwargs: dict | None = None):
    """Play ``jobs`` (``(task_id, trial, seed)``) in order with one env and one policy in
    this process (a ``module:Class`` policy in a process of its own); yield ``(task_id,
    trial, seed, record)`` as each episode ends (with ``trajectories``, each record also
    holds its ``"trajectory"``). ``policy`` and ``env``: already built (the caller closes
    them); otherwise they are built here (``policy_kwargs`` for the policy) and closed."""
    owned = []
    if env is None:
        env = gym.make(env_id, **env_kwargs)
        owned.append(env)
    if policy is None:
        policy = load_policy_isolated(policy_spec, **(policy_kwargs or {}))
        owned.append(policy)
    privileged = privileged_spec(policy_spec)  # only --policy oracle sees the hidden task
    try:
        for task_id, trial, seed in jobs:
            extra = {"trajectory": True} if trajectories else {}
            yield task_id, trial, seed, run_episode(env, policy, seed, task_id,
                                                    privileged=privileged, **extra)
    finally:
        for thing in owned:
            if callable(getattr(thing, "close", None)):
                thing.close()


def play_ray(args: Args, env_kwargs: dict, jobs: list, policy_kwargs: dict | None = None):
    """Play ``jobs`` on Ray (``--ray``); yield as :func:`play_local`, in completion order."""
    from tool_gym.agents import distributed

    with distributed.session(args.ray, args.ray_cpus) as ray:
        workers = args.ray_cpus if args.ray not in (None, "", "local") else None
        workers = workers or distributed.default_workers(ray)
        print(f"ray: {workers} workers", file=sys.stderr)
        yield from distributed.play(args.env, env_kwargs, args.policy, jobs, workers=workers,
                                    policy_kwargs=policy_kwargs)


# ---------------------------------------------------------------------------- report

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


# ---------------------------------------------------------------------------- entry

def main(argv=None) -> int:
    """``tool-gym-evaluate``: run the command line; exit status 0 (2 for a mistake in
    the arguments, with one line on stderr)."""
    run_command(argv)
    return 0


def run_command(argv=None) -> dict:
    """Check the arguments (``argv``, default ``sys.argv[1:]``), evaluate, return the
    summary. A mistake prints ``tool-gym-evaluate: error: ...`` and raises
    ``SystemExit(2)`` before any run directory is created."""
    with checks.usage_errors(PROG):
        checks.put_cwd_on_path()
        args = parse_args(argv)
        checked = check_args(args)
        try:
            with contextlib.ExitStack() as stack:
                connect_ray_cluster(args.ray, stack)
                return run(args, checked)
        finally:
            checked.close()


#: Seconds to wait for a Ray head node to accept a connection (``--ray HOST:PORT``).
RAY_PROBE_SECONDS = 5.0


def connect_ray_cluster(address: str | None, stack: contextlib.ExitStack) -> None:
    """Connect to the Ray cluster of ``--ray auto`` / ``--ray HOST:PORT`` now, before any
    run directory exists (the episodes then play on this connection), with one line when
    it cannot be reached. A local Ray (``--ray`` alone) starts where the episodes play."""
    if address in (None, "", "local"):
        return
    from tool_gym.agents import distributed

    if address != "auto":  # HOST:PORT or ray://HOST:PORT: Ray itself would retry for minutes
        host, _, port = address.removeprefix("ray://").rpartition(":")
        try:
            socket.create_connection((host, int(port)), timeout=RAY_PROBE_SECONDS).close()
        except (OSError, ValueError) as error:
            raise UsageError(f"--ray {address}: no Ray cluster answers there "
                             f"({getattr(error, 'strerror', None) or error}); give "
                             f"HOST:PORT of a running head node, auto, or --ray alone for a "
                             f"local Ray") from None
    try:
        stack.enter_context(distributed.session(address))
    except (ConnectionError, RuntimeError, ValueError, TimeoutError) as error:
        reason = (str(error).strip().splitlines() or [type(error).__name__])[0]
        raise UsageError(f"--ray {address}: cannot connect to a Ray cluster ({reason}); "
                         f"start one (ray start --head) or give --ray alone for a local "
                         f"Ray") from None


def run(args: Args, checked: Checked) -> dict:
    """The evaluation of checked arguments."""
    env_kwargs, task_ids = checked.env_kwargs, checked.task_ids
    out = Path(args.out) if args.out else default_out(args)
    config = {"env": args.env, "policy": args.policy, "seed": args.seed,
              "env_kwargs": env_kwargs}
    if checked.policy_kwargs:
        config["policy_kwargs"] = checked.policy_kwargs
    check_resume(out, config)
    out.mkdir(parents=True, exist_ok=True)
    write_config(out, config)

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
        results = play_ray(args, env_kwargs, jobs, checked.policy_kwargs)
    else:
        results = play_local(args.env, env_kwargs, args.policy, jobs,
                             trajectories=args.save_trajectories, policy=checked.policy,
                             env=checked.env, policy_kwargs=checked.policy_kwargs)
    bar = tqdm(total=len(plan), initial=len(plan) - len(todo), desc=f"{args.policy}",
               unit="ep", file=sys.stderr, dynamic_ncols=True)
    try:
        with contextlib.closing(results):
            for task_id, trial, seed, record in results:  # as each episode ends
                trajectory = record.pop("trajectory", None)
                if args.save_trajectories and trajectory is not None:
                    trajectory = dict(trajectory, task_id=task_id, trial=trial, seed=seed)
                    append_episode(trajectories_path, trajectory, json_line)
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
            json_line(trajectories[key])
            for key in keys if key in trajectories))

    summary = summarize([done[key] for key in plan], max_k=args.trials)
    summary["config"] = dict(config, split=args.split, trials=args.trials,
                             task_ids=task_ids)
    write_atomic(out / SUMMARY, json.dumps(summary, indent=2, sort_keys=True) + "\n")
    print_table(summary)
    plot(summary, out / PLOT, f"{args.policy} on {args.env} ({args.split})")
    print(f"\nwrote {episodes_path}, {out / SUMMARY}")
    if args.report:
        from tool_gym.report import REPORT, write_report

        print(f"wrote {write_report([out], out / REPORT)}")
    return summary


if __name__ == "__main__":
    sys.exit(main())
