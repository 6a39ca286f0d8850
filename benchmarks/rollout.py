"""Rollout throughput: batched lockstep episodes against one episode at a time.

    python benchmarks/rollout.py [--env ToolCall-Simple-v0] [--model tiny|PATH] [--episodes 32]

The same model plays the same episodes (task ids and reset seeds) twice:

- **batched**: ``tool_gym.agents.rollouts.BatchedRollouts.run``, every live episode of the batch
  takes its turn together, one sampling pass per turn over all of them (left padding, a
  KV cache kept across turns);
- **one at a time**: ``BatchedRollouts.run_sequential``, each episode alone with a batch
  of one, turn after turn, as a per-episode environment loop (TRL's
  ``environment_factory`` path, a plain ``run_episode`` with a model policy) does.

Decoding is greedy by default, so both sides generate exactly the same tokens (checked)
and only the batching differs. Reported: model tokens per second, episodes per second,
and their ratio (batched / one at a time). ``--model tiny`` builds the tiny model of
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
    parser.add_argument("--out", default=str(Path(__file__).parent / "results" / "rollout.json"),
                        help="JSON output file")
    return parser.parse_args(argv)


def main(argv=None) -> dict:
    args = parse_args(argv)
    import torch

    from tool_gym.agents.rollouts import BatchedRollouts, RolloutConfig
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
    batched, single = sides["batched"], sides["one_at_a_time"]
    report = {
        "env": env_id, "model": str(args.model), "device": str(model.device),
        "dtype": str(model.dtype), "threads": torch.get_num_threads(),
        "episodes": args.episodes, "max_new_tokens": args.max_new_tokens,
        "max_turns": args.max_turns, "temperature": args.temperature,
        "same_tokens": outputs["batched"] == outputs["one_at_a_time"],
        "batched": batched, "one_at_a_time": single,
        "tokens_per_second_ratio": round(batched["tokens_per_second"]
                                         / max(single["tokens_per_second"], 1e-9), 2),
        "episodes_per_second_ratio": round(batched["episodes_per_second"]
                                           / max(single["episodes_per_second"], 1e-9), 2),
        "python": platform.python_version(), "torch": torch.__version__,
    }
    print(f"{env_id}, {args.episodes} episodes, {report['device']} {report['dtype']}, "
          f"{report['threads']} threads, same tokens: {report['same_tokens']}")
    print(f"{'':16}{'seconds':>10}{'tokens':>9}{'tokens/s':>11}{'episodes/s':>12}"
          f"{'generate calls':>16}")
    for name, row in sides.items():
        print(f"{name:16}{row['seconds']:>10.2f}{row['model_tokens']:>9}"
              f"{row['tokens_per_second']:>11.1f}{row['episodes_per_second']:>12.2f}"
              f"{row['generations']:>16}")
    print(f"batched / one at a time: {report['tokens_per_second_ratio']}x tokens/s, "
          f"{report['episodes_per_second_ratio']}x episodes/s")
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=2) + "\n")
    return report


if __name__ == "__main__":
    main()
