"""PROVE's training data at the paper's scale, as chat records: one command.

    python -m tool_gym.synth.dataset --out DIR [--examples 13500] [--seed 0]
        [--domains banking,retail] [--backend openai:URL#MODEL] [--workers 2]

writes ``DIR/train.jsonl`` and its dataset card (:func:`tool_gym.chat.write_dataset`: the
project's one chat-dataset format, ``messages`` with assistant ``tool_calls`` and ``tool``
messages with their ``tool_call_id``, ``tools``, metadata columns) and ``DIR/summary.json``
(the table it prints: examples per domain, kind, mode, chain length and outcome tag, what
was dropped and why, and the time it took).

The examples come in PROVE's mix, scaled to ``--examples`` (largest remainders) and spread
evenly over the domains:

- **conversation** (10,895 of 13,517): a chain task (:mod:`tool_gym.synth.chains`) phrased
  ``complete`` or ``minimal`` (3 : 1, the ratio of their shares), played to the end;
- **clarification** (1,500): a ``missing`` chain task: the request leaves out a value; the
  agent asks for it, the user gives it, then the calls run with it;
- **abstention** (1,122): an unanswerable chain task (the needed tool hidden, or a request
  for another domain's tool): no call, a clear refusal.

Each example is a synthesized task (walk, replay filter, ground truth, phrasing,
near-duplicate removal by :func:`~tool_gym.synth.chains.jaccard`, all in one
:class:`~tool_gym.synth.chains.ChainSynthesizer` per domain) played by the library's
oracle through ``ToolEnv(task_source="chains")``
(:func:`tool_gym.agents.episode_loop.run_episode` with ``chat=True``) and kept only when
it is *validated*: the episode was verified a success with score 1 and its conversation
has the shape of its kind (:func:`check_record`); a task that fails is replaced by
another. Everything draws from seeded numpy generators (one per domain, from ``--seed``
and the domain's place in the registry): the same arguments give the same file.

``--backend openai:URL#MODEL`` rewrites every request for fluency through
:class:`~tool_gym.synth.chains.TemplatePhraser`'s backend hook; a rewrite that loses a
value the user must give (or names a tool or parameter) is replaced by the template, so
the replay check still holds. A command-line mistake is one line on stderr and exit
status 2, before any work.
"""

from __future__ import annotations

import json
import multiprocessing
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from .chains import (FAILURE, MODES, REFUSAL, ChainConfig, ChainSynthesizer, _holds_value,
                     mode_schedule)

__all__ = ["KINDS", "PROVE_MIX", "build", "check_record", "main", "plan"]

#: PROVE's data mix: multi-turn conversations, clarification trajectories, abstentions.
PROVE_MIX = {"conversation": 10_895, "clarification": 1_500, "abstention": 1_122}
KINDS = tuple(PROVE_MIX)
#: The default size: PROVE's total, rounded.
DEFAULT_EXAMPLES = 13_500
#: Tasks tried for one example before the domain gives up (a domain that cannot make
#: its share is reported, never padded).
TRIES_PER_EXAMPLE = 25


def _split(total: int, weights: Sequence[float]) -> list[int]:
    """``total`` split in proportion to ``weights`` (largest remainders, ties to the
    first)."""
    w = np.asarray(weights, dtype=float)
    exact = w / w.sum() * total
    counts = np.floor(exact).astype(int)
    for k in np.argsort(-(exact - counts), kind="stable")[:total - counts.sum()]:
        counts[k] += 1
    return [int(c) for c in counts]


def plan(examples: int, domains: Sequence[str]) -> dict[str, dict[str, int]]:
    """How many examples of each kind each domain makes: PROVE's mix scaled to
    ``examples``, each kind spread evenly over ``domains`` (remainders to the first)."""
    per_kind = dict(zip(KINDS, _split(examples, list(PROVE_MIX.values())), strict=True))
    out = {d: {} for d in domains}
    for kind, count in per_kind.items():
        for d, c in zip(domains, _split(count, [1.0] * len(domains)), strict=True):
            out[d][kind] = c
    return out


# ------------------------------------------------------------------------ checks


def _calls(messages: Sequence[dict]) -> list[tuple[int, dict]]:
    return [(i, c["function"]) for i, m in enumerate(messages)
            if m.get("role") == "assistant" for c in m.get("tool_calls") or ()]


def check_record(record: dict, task) -> str | None:
    """Why an example's conversation does not have the shape of its kind (None: it
    does). Every kind: the episode succeeded with score 1. ``conversation``: the opening
    gives every value the user must give, and calls were made. ``clarification``: the
    opening lacks the withheld value; before any call uses it, the agent asks (a message
    without a call), the user's reply gives it, and a later call passes it.
    ``abstention``: no call at all, and an agent message refuses."""
    if not (record.get("verified") and record.get("success") and record.get("score") == 1.0):
        return "the oracle's episode was not a verified success"
    c = task.constraints[0]
    messages = record["chat"]["messages"]
    opening = next(m["content"] for m in messages if m["role"] == "user")
    calls = _calls(messages)
    if c.args.get("unanswerable"):
        if calls:
            return "an abstention example has a tool call"
        if not any(m["role"] == "assistant" and REFUSAL.search(m.get("content") or "")
                   for m in messages):
            return "an abstention example has no refusal"
        return None
    for given in c.args.get("given", ()):
        if not all(n in opening for n in given["needles"]):
            return f"the opening lacks a value to give: {given['needles']}"
    if not calls:
        return "a conversation without calls"
    withheld = c.args.get("withheld")
    if withheld is None:
        return None
    if any(n.lower() in opening.lower() for n in withheld["needles"]):
        return "the opening states the withheld value"
    step = c.args["calls"][withheld["step"]]
    use = next((i for i, f in calls if f["name"] == step["name"]
                and f["arguments"].get(withheld["param"]) == withheld["value"]), None)
    if use is None:
        return "no call passes the withheld value"
    answer = next((i for i, m in enumerate(messages[:use]) if m["role"] == "user" and i > 0
                   and all(n in m["content"] for n in withheld["needles"])), None)
    if answer is None:
        return "the user never gives the withheld value before its call"
    question = answer - 1
    if messages[question]["role"] != "assistant" or messages[question].get("tool_calls"):
        return "the user's value does not answer an agent's question"
    if any(i < answer and _holds_value(f["arguments"], withheld["value"]) for i, f in calls):
        return "a call used the withheld value before the user gave it"
    return None


# ------------------------------------------------------------------------ one domain


def _kind_of(task) -> str:
    c = task.constraints[0]
    if c.args.get("unanswerable"):
        return "abstention"
    return "clarification" if c.args.get("mode") == "missing" else "conversation"


def _domain_examples(domain: str, quotas: dict[str, int], seed: int, db_seed: int,
                     backend: Any, progress: Any = None) -> tuple[list[dict], dict]:
    """The validated examples of one domain and its statistics (run in a worker)."""
    from ..agents.episode_loop import run_episode
    from ..agents.oracle import OraclePolicy
    from ..domains import domain_names, get_domain
    from ..envs.tool_env import ToolEnv

    index = list(domain_names()).index(domain)
    rng = np.random.default_rng(np.random.SeedSequence([seed, index]))
    kinds = [k for k in KINDS for _ in range(quotas.get(k, 0))]
    kinds = [kinds[int(i)] for i in rng.permutation(len(kinds))]
    conversation_modes = mode_schedule(ChainConfig(p_complete=0.6, p_missing=0.0,
                                                   p_minimal=0.2), rng)
    abstention_modes = mode_schedule(ChainConfig(), rng)
    spec = get_domain(domain)
    env_id = spec.envs[0].id if spec.envs else None
    env = ToolEnv(domain, task_source="chains", reward="prove", db_seed=db_seed)
    kit = env.kit
    records: list[dict] = []
    stats: Counter = Counter()
    start = time.perf_counter()
    played = 0
    with ChainSynthesizer(domain, seed=rng, db_seed=db_seed, backend=backend) as synth:
        for n, kind in enumerate(kinds):
            mode = {"conversation": lambda: next(conversation_modes),
                    "clarification": lambda: "missing",
                    "abstention": lambda: next(abstention_modes)}[kind]()
            for _ in range(TRIES_PER_EXAMPLE):
                task = synth.next(mode, unanswerable=kind == "abstention")
                if task is None:
                    stats["drop_no_task"] += 1
                    break
                task = replace(task, id=f"train-{played}")  # one id per episode
                played += 1
                kit.pin([task])
                episode_seed = int(rng.integers(2**31))
                record = run_episode(env, OraclePolicy(), episode_seed, task.id, chat=True)
                problem = check_record(record, task)
                if problem is not None:
                    stats["drop_invalid"] += 1
                    stats[f"drop_invalid: {problem}"] += 1
                    continue
                records.append(_row(record, task, domain, kind, env_id, n))
                stats[f"kind_{kind}"] += 1
                break
            else:
                stats["drop_no_valid_example"] += 1
            if progress is not None:
                progress.put(1)
        stats.update({f"synth_{k}": v for k, v in synth.stats.items()})
        stats["synth_draws"] = synth.draws
    env.close()
    stats["seconds"] = round(time.perf_counter() - start, 3)
    return records, dict(stats)


def _row(record: dict, task, domain: str, kind: str, env_id: str | None, n: int) -> dict:
    c = task.constraints[0]
    row = dict(record["chat"])
    outcomes = list(c.args.get("outcomes", ()))
    pruned = [p.get("outcome", FAILURE) for p in c.args.get("pruned", ())]
    withheld = c.args.get("withheld") if kind == "clarification" else None
    row.update(env_id=env_id, task_id=f"{domain}-{n}", trial=0, domain=domain, kind=kind,
               mode=c.args["mode"], chain_length=len(c.args.get("calls", ())),
               outcomes=",".join(outcomes), pruned=",".join(pruned),
               unanswerable=c.args.get("unanswerable") or "",
               withheld_param=withheld["param"] if withheld else "",
               withheld_value=json.dumps(withheld["value"]) if withheld else "")
    return row


# ------------------------------------------------------------------------ all domains


def _worker(job: tuple) -> tuple[str, list[dict], dict]:
    domain, quotas, seed, db_seed, backend = job
    records, stats = _domain_examples(domain, quotas, seed, db_seed, backend, _QUEUE)
    return domain, records, stats


_QUEUE: Any = None


def _init_worker(queue: Any) -> None:
    global _QUEUE
    _QUEUE = queue


def build(out: str | Path, examples: int = DEFAULT_EXAMPLES, *, seed: int = 0,
          domains: Sequence[str] | None = None, backend: Any = None, workers: int = 1,
          db_seed: int = 0, quiet: bool = False) -> dict:
    """Write the dataset to ``out`` and return its summary (see the module doc).
    ``backend``: a backend object (``generate(messages) -> str``) or None; ``workers``:
    processes (one domain at a time each; the result does not depend on it)."""
    from tqdm import tqdm

    from ..chat import write_dataset
    from ..domains import domain_names

    domains = list(domains) if domains is not None else _default_domains()
    quotas = plan(examples, domains)
    start = time.perf_counter()
    results: dict[str, tuple[list[dict], dict]] = {}
    bar = tqdm(total=examples, desc="examples", unit=" ex", file=sys.stderr,
               disable=quiet, dynamic_ncols=True)
    jobs = [(d, quotas[d], seed, db_seed, backend) for d in domains]
    if workers <= 1 or len(domains) == 1:
        class _Bar:
            @staticmethod
            def put(k: int) -> None:
                bar.update(k)

        for d, q, s, dbs, b in jobs:
            results[d] = _domain_examples(d, q, s, dbs, b, _Bar)
    else:
        context = multiprocessing.get_context("spawn")
        # the slowest domains first: one long domain last would leave a core idle
        order = sorted(jobs, key=lambda j: -_COST.get(j[0], 1.0))
        with context.Manager() as manager, context.Pool(
                min(workers, len(domains)), initializer=_init_worker,
                initargs=(queue := manager.Queue(),)) as pool:
            pending = pool.imap_unordered(_worker, order)
            done = 0
            while done < len(jobs):
                try:
                    d, records, stats = pending.next(timeout=0.2)
                    results[d] = (records, stats)
                    done += 1
                except multiprocessing.TimeoutError:
                    pass
                while not queue.empty():
                    bar.update(queue.get())
            while not queue.empty():
                bar.update(queue.get())
    bar.close()
    rows = [r for d in domains for r in results[d][0]]
    rng = np.random.default_rng(np.random.SeedSequence([seed, len(domain_names())]))
    rows = [rows[int(i)] for i in rng.permutation(len(rows))]
    out = Path(out)
    write_dataset(rows, out, title="tool_gym PROVE chain data",
                  description=_DESCRIPTION.format(n=len(rows), seed=seed,
                                                  domains=", ".join(domains)))
    summary = _summary(rows, {d: results[d][1] for d in domains}, examples, seed,
                       time.perf_counter() - start, workers)
    (out / "summary.json").write_text(json.dumps(summary, indent=1, sort_keys=True) + "\n",
                                      encoding="utf-8")
    return summary


#: Relative cost of a domain's examples (measured), to schedule the slow ones first.
_COST = {"email": 2.5, "airline": 1.5, "calendar": 1.3, "filesystem": 1.2,
         "team_chat": 1.2, "retail": 1.1}

_DESCRIPTION = """\
{n} validated examples of PROVE-style tool use (seed {seed}; domains: {domains}),
written by `python -m tool_gym.synth.dataset`: multi-turn conversations, clarification
trajectories and abstention examples, in PROVE's mix. Extra columns: `domain`, `kind`
(conversation, clarification, abstention), `mode` (complete, missing, minimal),
`chain_length`, `outcomes` (the replay's tag of each call: SUCCESS or PARTIAL), `pruned`
(tags of the calls the replay filter took out: FAILURE), `unanswerable`, and for a
clarification the parameter and JSON value the request left out (`withheld_param`,
`withheld_value`). See docs/prove-data.md.
"""


def _default_domains() -> list[str]:
    from ..domains import domain_names, get_domain

    return [d for d in domain_names() if get_domain(d).tasks is not None]


def _summary(rows: list[dict], stats: dict[str, dict], examples: int, seed: int,
             seconds: float, workers: int) -> dict:
    by = {key: Counter() for key in ("domain", "kind", "mode", "chain_length")}
    tags: Counter = Counter()
    table: dict[str, Counter] = {d: Counter() for d in stats}
    for r in rows:
        for key in by:
            by[key][str(r[key])] += 1
        table.setdefault(r["domain"], Counter())[r["kind"]] += 1
        tags.update(t for t in r["outcomes"].split(",") if t)
        tags.update(t for t in r["pruned"].split(",") if t)
    for tag in ("SUCCESS", "PARTIAL", "FAILURE"):
        tags.setdefault(tag, 0)
    for mode in MODES:
        by["mode"].setdefault(mode, 0)
    drops: Counter = Counter()
    phrasing: Counter = Counter()
    for s in stats.values():
        drops.update({k: v for k, v in s.items() if k.startswith(("drop", "synth_drop"))})
        phrasing.update({k[len("synth_phrasing_"):]: v for k, v in s.items()
                         if k.startswith("synth_phrasing_")})
    return {
        "examples": len(rows), "requested": examples, "seed": seed, "workers": workers,
        "seconds": round(seconds, 1),
        "per_domain": {d: dict(sorted(c.items())) for d, c in table.items()},
        "per_kind": dict(sorted(by["kind"].items())),
        "per_mode": dict(sorted(by["mode"].items())),
        "per_chain_length": dict(sorted(by["chain_length"].items(), key=lambda kv: int(kv[0]))),
        "outcome_tags": dict(sorted(tags.items())),
        "dropped": dict(sorted(drops.items())),
        "phrasing": dict(sorted(phrasing.items())),
        "domain_seconds": {d: s.get("seconds") for d, s in stats.items()},
    }


def format_summary(summary: dict) -> str:
    """The summary as the table the command prints."""
    lines = [f"{summary['examples']} examples (asked {summary['requested']}, seed "
             f"{summary['seed']}) in {summary['seconds']} s"]
    head = f"{'domain':<16}" + "".join(f"{k:>15}" for k in KINDS) + f"{'total':>8}"
    lines += [head, "-" * len(head)]
    totals = Counter()
    for d, c in summary["per_domain"].items():
        lines.append(f"{d:<16}" + "".join(f"{c.get(k, 0):>15}" for k in KINDS)
                     + f"{sum(c.values()):>8}")
        totals.update(c)
    lines.append(f"{'all':<16}" + "".join(f"{totals.get(k, 0):>15}" for k in KINDS)
                 + f"{sum(totals.values()):>8}")
    for key, title in (("per_mode", "mode"), ("per_chain_length", "chain length"),
                       ("outcome_tags", "outcome tag (per call)"), ("dropped", "dropped")):
        items = summary[key]
        if items:
            lines.append(f"{title}: " + ", ".join(f"{k} {v}" for k, v in items.items()))
    return "\n".join(lines)


# ------------------------------------------------------------------------ command line


def _parse(argv: Sequence[str] | None):
    from ..cli.checks import ArgumentParser, UsageError

    parser = ArgumentParser(prog="python -m tool_gym.synth.dataset",
                            description="PROVE's chain data as chat records.")
    parser.add_argument("--out", required=True, help="the dataset directory to write")
    parser.add_argument("--examples", type=int, default=DEFAULT_EXAMPLES,
                        help=f"examples in all (default {DEFAULT_EXAMPLES})")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--domains", default=None,
                        help="comma-separated domains (default: every domain with a task kit)")
    parser.add_argument("--backend", default=None,
                        help="openai:URL#MODEL: rewrite the requests for fluency")
    parser.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    parser.add_argument("--db-seed", type=int, default=0, help="seed of the domains' data")
    args = parser.parse_args(argv)
    if args.examples < 1:
        raise UsageError(f"--examples must be at least 1, got {args.examples}")
    if args.workers < 1:
        raise UsageError(f"--workers must be at least 1, got {args.workers}")
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise UsageError(f"--out {args.out} is a file, not a directory")
    known = _default_domains()
    if args.domains is not None:
        domains = [d.strip() for d in args.domains.split(",") if d.strip()]
        unknown = [d for d in domains if d not in known]
        if not domains or unknown:
            raise UsageError(f"--domains: unknown {', '.join(unknown) or 'empty list'}; "
                             f"known: {', '.join(known)}")
        if len(set(domains)) != len(domains):
            raise UsageError("--domains names a domain twice")
        args.domains = domains
    else:
        args.domains = known
    from .requests import problems

    for d in args.domains:
        found = problems(d)
        if found:
            raise UsageError(f"domain {d} has no complete requests.json: {found[0]}")
    if args.backend is not None and args.backend != "template":
        from ..llm.openai_compat import parse_openai_spec

        try:
            parse_openai_spec(args.backend)
        except ValueError as error:
            raise UsageError(f"--backend: {error}") from None
    return args


def main(argv: Sequence[str] | None = None) -> dict:
    from ..cli.checks import UsageError, usage_errors

    with usage_errors("python -m tool_gym.synth.dataset"):
        args = _parse(argv)
        backend = None
        if args.backend not in (None, "template"):
            from ..llm import make_backend

            try:
                backend = make_backend(args.backend)
            except ValueError as error:
                raise UsageError(f"--backend: {error}") from None
    summary = build(args.out, args.examples, seed=args.seed, domains=args.domains,
                    backend=backend, workers=args.workers, db_seed=args.db_seed)
    print(format_summary(summary))
    print(f"wrote {Path(args.out) / 'train.jsonl'}, README.md and summary.json")
    return summary


if __name__ == "__main__":
    main()
