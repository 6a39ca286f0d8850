"""Rollout throughput: TRL's three ways of playing tool_gym episodes with one model.

    python benchmarks/rollout.py [--env ToolCall-Simple-v0] [--model tiny|PATH] [--episodes 32]

The same model plays the same episodes (task ids and reset seeds) three ways:

- **batched** (the ``rollout_func`` path of ``tool_gym.agents.grpo``):
  ``tool_gym.agents.batched_rollouts.BatchedRollouts.run``, every live episode of the batch takes
  its turn together, one sampling pass per turn over all of them (left padding, a KV cache
  kept across turns);
- **one at a time**: ``BatchedRollouts.run_sequential``, each episode alone with a batch
  of one, turn after turn, as a plain ``run_episode`` with a model policy does;
- **environment_factory**: TRL's own tool loop, ``GRPOTrainer`` with
  ``tool_gym.integrations.trl.environment_factory`` (one batched ``generate`` per tool
  round over the rollouts that called a tool, the prompt re-run each round, no KV cache
  kept), timed over ``_generate_and_score_completions`` on the same rows (resets,
  generation, tool calls and ``get_reward``); ``--no-trl`` leaves it out.

Decoding is greedy by default, so batched and one at a time generate exactly the same
tokens (checked) and only the batching differs; the ``environment_factory`` side samples
(TRL's GRPO always does) with a budget of ``max_new_tokens x max_turns`` completion tokens
and ``max_turns - 1`` tool rounds, and renders tools and results its own way, so it is
compared on rates only. Reported: generated (model) tokens per second, episodes per
second, and the ratios to one at a time. ``--model tiny`` builds the tiny model of
``tool_gym.agents.tiny`` from the environment's texts (the default; nothing is downloaded).

Writes JSON (default ``benchmarks/results/rollout.json``). The machine is shared and
noisy: compare the ratio of one run, not absolute figures.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

import gymnasium as gym  # noqa: E402

import tool_gym  # noqa: E402,F401  (registers the ids)


def default_env() -> str:
    return "ToolCall-Simple-v0" if "ToolCall-Simple-v0" in gym.registry else "ToolRetail-v0"


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--env", default=None, help="Gymnasium id (default: ToolCall-Simple-v0 "
                        "when registered, else ToolRetail-v0)")
    parser.add_argument("--env-kwargs", default="{}", help="JSON keyword arguments of gym.make")
    parser.add_argument("--model", default="tiny", help="'tiny' or a local model path")
    parser.add_argument("--episodes", type=int, default=32, help="episodes (the batch size)")
    parser.add_argument("--max-new-tokens", type=int, default=32, help="tokens per turn")
    parser.add_argument("--max-turns", type=int, default=3, help="turns per episode")
    parser.add_argument("--max-context", type=int, default=32768, help="tokens per episode")
    parser.add_argument("--temperature", type=float, default=0.0,
                        help="0: greedy (both sides generate the same tokens)")
    parser.add_argument("--threads", type=int, default=0,
                        help="torch CPU threads (0: torch's default)")
    parser.add_argument("--device", default=None, help="cpu or cuda (default: cuda if any)")
    parser.add_argument("--split", default="test", help="task split")
    parser.add_argument("--no-trl", action="store_true",
                        help="leave out the environment_factory side (TRL's tool loop)")
    parser.add_argument("--out", default=str(Path(__file__).parent / "results" / "rollout.json"),
                        help="JSON output file")
    return parser.parse_args(argv)


def main(argv=None) -> dict:
    args = parse_args(argv)
    import torch

    from tool_gym.agents.batched_rollouts import BatchedRollouts, RolloutConfig
    from tool_gym.agents.tiny import build_tiny_model, env_texts
    from tool_gym.llm.transformers_backend import load_model

    if args.threads:
        torch.set_num_threads(args.threads)
    env_id = args.env or default_env()
    env_kwargs = json.loads(args.env_kwargs)
    with tempfile.TemporaryDirectory() as tmp:
        path = args.model
        if path == "tiny":
            path = build_tiny_model(Path(tmp) / "tiny", env_texts(env_id, 8, env_kwargs))
        model, tokenizer = load_model(path, device=args.device)
    config = RolloutConfig(max_new_tokens=args.max_new_tokens, max_turns=args.max_turns,
                           max_context=args.max_context, temperature=args.temperature)
    episodes = [(f"{args.split}-{i}", i) for i in range(args.episodes)]
    runner = BatchedRollouts(model, tokenizer, env_id, config, env_kwargs=env_kwargs)
    runner.run(episodes[:2], seed=0)  # warm up: envs, templates, kernels
    sides = {}
    outputs = {}
    for name, play in (("batched", runner.run), ("one_at_a_time", runner.run_sequential)):
        started = time.perf_counter()
        trajectories = play(episodes, seed=0)
        seconds = time.perf_counter() - started
        stats = runner.stats.as_dict()
        stats["seconds"] = round(seconds, 4)
        stats["tokens_per_second"] = round(stats["model_tokens"] / seconds, 2)
        stats["episodes_per_second"] = round(len(episodes) / seconds, 4)
        sides[name] = stats
        outputs[name] = [t.completion_ids for t in trajectories]
    runner.close()
    if not args.no_trl:
        sides["environment_factory"] = environment_factory_side(model, tokenizer, env_id,
                                                                env_kwargs, args, episodes)
    batched, single = sides["batched"], sides["one_at_a_time"]
    report = {
        "env": env_id, "model": str(args.model), "device": str(model.device),
        "dtype": str(model.dtype), "threads": torch.get_num_threads(),
        "episodes": args.episodes, "max_new_tokens": args.max_new_tokens,
        "max_turns": args.max_turns, "temperature": args.temperature,
        "same_tokens": outputs["batched"] == outputs["one_at_a_time"],
        "batched": batched, "one_at_a_time": single,
        **({"environment_factory": sides["environment_factory"]}
           if "environment_factory" in sides else {}),
        "tokens_per_second_ratio": round(batched["tokens_per_second"]
                                         / max(single["tokens_per_second"], 1e-9), 2),
        "episodes_per_second_ratio": round(batched["episodes_per_second"]
                                           / max(single["episodes_per_second"], 1e-9), 2),
        "ratios_to_one_at_a_time": {
            name: {"tokens_per_second": round(row["tokens_per_second"]
                                              / max(single["tokens_per_second"], 1e-9), 2),
                   "episodes_per_second": round(row["episodes_per_second"]
                                                / max(single["episodes_per_second"], 1e-9), 2)}
            for name, row in sides.items()},
        "python": platform.python_version(), "torch": torch.__version__,
    }
    print(f"{env_id}, {args.episodes} episodes, {report['device']} {report['dtype']}, "
          f"{report['threads']} threads, same tokens: {report['same_tokens']}")
    print(f"{'':20}{'seconds':>10}{'tokens':>9}{'tokens/s':>11}{'episodes/s':>12}"
          f"{'generate calls':>16}")
    for name, row in sides.items():
        print(f"{name:20}{row['seconds']:>10.2f}{row['model_tokens']:>9}"
              f"{row['tokens_per_second']:>11.1f}{row['episodes_per_second']:>12.2f}"
              f"{row['generations']:>16}")
    print(f"batched / one at a time: {report['tokens_per_second_ratio']}x tokens/s, "
          f"{report['episodes_per_second_ratio']}x episodes/s")
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=2) + "\n")
    return report


def environment_factory_side(model, tokenizer, env_id: str, env_kwargs: dict, args,
                             episodes: list) -> dict:
    """TRL's tool loop on the same rows: one ``_generate_and_score_completions`` call of
    ``GRPOTrainer(environment_factory=...)`` (after one warm-up call), timed."""
    import torch
    from datasets import Dataset
    from trl import GRPOConfig, GRPOTrainer

    from tool_gym.integrations.trl import environment_factory, task_dataset

    os.environ.setdefault("TRL_EXPERIMENTAL_SILENCE", "1")
    split = task_dataset(env_id, split=args.split, n=1, **env_kwargs)
    system = split[0]["prompt"][0]
    rows = [{"prompt": [system, {"role": "user", "content": ""}], "task_id": task_id,
             "split": args.split, "seed": seed} for task_id, seed in episodes]
    n = len(rows)
    generations = next(g for g in range(min(n, 8), 0, -1) if n % g == 0)
    with tempfile.TemporaryDirectory() as out:
        config = GRPOConfig(
            output_dir=out, per_device_train_batch_size=n, num_generations=generations,
            max_completion_length=args.max_new_tokens * args.max_turns,
            max_tool_calling_iterations=max(args.max_turns - 1, 0), beta=0.0,
            temperature=max(args.temperature, 1.0), report_to=[], save_strategy="no",
            use_cpu=model.device.type == "cpu", bf16=False, seed=0, disable_tqdm=True)
        trainer = GRPOTrainer(model=model, args=config, processing_class=tokenizer,
                              train_dataset=Dataset.from_list(rows),
                              environment_factory=environment_factory(env_id, **env_kwargs))
        calls = {"n": 0}
        original = trainer._generate_single_turn

        def counted(*a, **k):
            calls["n"] += 1
            return original(*a, **k)

        trainer._generate_single_turn = counted
        trainer._generate_and_score_completions(rows[:generations])  # warm up
        calls["n"] = 0
        started = time.perf_counter()
        output = trainer._generate_and_score_completions(rows)
        seconds = time.perf_counter() - started
    mask = output["completion_mask"]
    if "tool_mask" in output:
        mask = mask * output["tool_mask"]
    tokens = int(torch.as_tensor(mask).sum())
    return {"episodes": n, "model_tokens": tokens, "generations": calls["n"],
            "seconds": round(seconds, 4), "tokens_per_second": round(tokens / seconds, 2),
            "episodes_per_second": round(n / seconds, 4)}


if __name__ == "__main__":
    main()
