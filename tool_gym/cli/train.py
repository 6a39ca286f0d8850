"""Train an LLM policy on a tool_gym environment: SFT on verified trajectories, or GRPO.

    tool-gym-train --algo sft  --env ToolRetail-v0 --model path/to/model --output-dir runs/sft
    tool-gym-train --algo grpo --env ToolRetail-v0 --model runs/sft/final --output-dir runs/grpo
    tool-gym-train --algo grpo --model tiny --warm-start-steps 300 --output-dir runs/demo
    tool-gym-train --config run.yaml --steps 50

(``python train.py`` in a checkout and ``python -m tool_gym.cli.train`` are the same
command; it needs ``pip install "tool_gym[train]"``.) The arguments are parsed with TRL's
``TrlParser``, as in TRL's own scripts: ``--config run.yaml`` sets any of them from a YAML
mapping (the field names, e.g. ``env_id: ToolRetail-v0``, ``output_dir: runs/x``; a
YAML ``env:`` mapping sets environment variables, as in TRL), and flags on the command
line override the file. Every argument is checked before any work
(:mod:`tool_gym.cli.checks`); a mistake prints one line, ``tool-gym-train: error: ...``,
and exits with status 2 before ``--output-dir`` is created.

The script reads top to bottom:

1. the model: a local directory or ``.gguf`` file, or ``tiny`` (a small Qwen2-style model
   and BPE tokenizer built here in seconds from the environment's texts);
2. the held-out score before training: greedy batched episodes on the first
   ``--eval-tasks`` tasks of the test split;
3. SFT (``--algo sft``, or ``--warm-start-steps`` before GRPO): a policy (the oracle by
   default) plays training tasks, the episodes verified with score 1.0 become a chat
   dataset with tools (``OUT/sft_data``), TRL's ``SFTTrainer`` trains on the assistant
   turns, after the turn-window phases if any (``--window-*-steps``:
   :mod:`tool_gym.agents.turn_windows`);
4. GRPO (``--algo grpo``): TRL's ``GRPOTrainer`` with a ``rollout_func`` that plays B x G
   episodes in lockstep (``tool_gym.agents.batched_rollouts``), only the model's tokens in the loss
   (``env_mask``), the environment's return as the reward;
5. the held-out score after training, ``OUT/final`` (the trained model) and
   ``OUT/results.json``.

Tensorboard logs go to ``OUT/<phase>/runs`` (reward mean and spread, success rate,
validity, KL when ``--beta`` > 0, rollout tokens per second) and ``OUT/eval``. Each phase
checkpoints every ``--save-steps`` steps; ``--resume`` continues from the last checkpoint
and skips finished phases. bf16 on a GPU that has it, fp32 on CPU. LoRA with ``--lora``.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import random
import re
import sys
import time
import typing
from dataclasses import dataclass, field
from pathlib import Path

from tool_gym.cli import checks
from tool_gym.cli.checks import UsageError
from tool_gym.cli.recipes import RECIPES, recipe_from_argv

PROG = "tool-gym-train"


@dataclass
class Args:
    recipe: typing.Optional[str] = field(default=None, metadata={
        "help": "a paper's recipe as defaults of the other flags (flags still override it): "
                "'cove' (SFT on verified trajectories), 'prove' (GRPO with PROVE's reward "
                "on chain tasks), 'toolloop' (SFT on staged synthesis samples); "
                "--recipe NAME --help shows what it sets", "choices": tuple(RECIPES)})
    algo: str = field(default="grpo", metadata={
        "help": "training algorithm", "choices": ("sft", "grpo")})
    env_id: str = field(default="ToolRetail-v0", metadata={
        "help": "Gymnasium id of the environment", "aliases": ["--env"]})
    model: str = field(default="tiny", metadata={
        "help": "local model directory or .gguf file, or 'tiny' to build a tiny model here "
                "(nothing is downloaded)"})
    output_dir: str = field(default="runs/train", metadata={
        "help": "where checkpoints, logs, the final model and results.json go"})
    env_kwargs: str = field(default="{}", metadata={
        "help": "JSON object of keyword arguments for gym.make"})
    steps: int = field(default=100, metadata={
        "help": "optimizer steps of the chosen algorithm"})
    learning_rate: float = field(default=1e-5, metadata={
        "help": "learning rate of the chosen algorithm"})
    batch_size: int = field(default=8, metadata={
        "help": "SFT: examples per step; GRPO: tasks per step (B; each played G times)"})
    num_generations: int = field(default=4, metadata={
        "help": "GRPO: episodes per task (G), the group the advantages are normalized in"})
    beta: float = field(default=0.0, metadata={
        "help": "GRPO: KL coefficient against the starting model (0: no reference model)"})
    temperature: float = field(default=1.0, metadata={
        "help": "GRPO: sampling temperature of training rollouts"})
    train_tasks: int = field(default=256, metadata={
        "help": "number of training tasks (train-0 ..) GRPO draws from"})
    warm_start_steps: int = field(default=0, metadata={
        "help": "GRPO: SFT steps on verified trajectories before GRPO (0: none)"})
    warm_start_lr: float = field(default=1e-3, metadata={
        "help": "learning rate of the SFT warm start"})
    warm_start_batch_size: int = field(default=0, metadata={
        "help": "examples per step of the SFT warm start (0: --batch-size)"})
    lr_scheduler: str = field(default="constant", metadata={
        "help": "learning-rate schedule of every phase (transformers' names: constant, "
                "linear, cosine, ...)"})
    sft_policy: str = field(default="oracle", metadata={
        "help": "policy whose verified episodes (score 1.0) make the SFT data "
                "(oracle, hf:PATH, module:Class, ...)"})
    sft_tasks: int = field(default=200, metadata={
        "help": "training tasks the SFT policy plays (after the GRPO tasks: no overlap)"})
    sft_databases: int = field(default=1, metadata={
        "help": "generated databases the SFT tasks are spread over (db_seed, db_seed+1, "
                "...; train split only): fresh users, ids and figures, so that a small model "
                "reads values from the conversation instead of recalling one database's"})
    eval_tasks: int = field(default=32, metadata={
        "help": "held-out test tasks scored before and after training (0: skip)"})
    eval_databases: int = field(default=1, metadata={
        "help": "generated databases the held-out tasks are spread over (task k: test "
                "task k // N of database db_seed + k %% N): a database holds a few dozen "
                "test users of one task family, so more databases give independent users "
                "and allow more than 200 held-out tasks"})
    max_new_tokens: int = field(default=128, metadata={
        "help": "longest model turn, in tokens"})
    max_turns: int = field(default=20, metadata={
        "help": "most model turns per episode"})
    max_context: int = field(default=8192, metadata={
        "help": "longest episode in tokens (prompt included); also SFT's max length"})
    lora: bool = field(default=False, metadata={
        "help": "train a LoRA adapter (peft) instead of all weights"})
    lora_r: int = field(default=16, metadata={"help": "LoRA rank"})
    lora_alpha: int = field(default=32, metadata={"help": "LoRA alpha"})
    window_steps: int = field(default=0, metadata={
        "help": "turn-window SFT before SFT on whole episodes: steps on each assistant turn "
                "with only the messages since the previous one (no system prompt), so that a "
                "small model learns to find the values it copies (tool_gym.agents.turn_windows)"})
    window_context_steps: int = field(default=0, metadata={
        "help": "then steps on the same windows behind what the episode shows before them, "
                "up to --window-context-tokens (a fifth of the steps bare; at two thirds of "
                "--window-lr): with --tiny-attention-window, every context an episode shows "
                "the model"})
    window_context_tokens: int = field(default=0, metadata={
        "help": "most tokens shown before a window in --window-context-steps (0: what "
                "--tiny-layers x --tiny-attention-window see back)"})
    window_prompt_steps: int = field(default=0, metadata={
        "help": "then steps on the same windows behind the system prompt and tool schemas "
                "(at a third of --window-lr)"})
    window_episode_steps: int = field(default=0, metadata={
        "help": "then steps on whole episodes, a quarter of --window-prompt-batch-size each, the "
                "system prompt run once per batch (at a third of --window-lr)"})
    window_lr: float = field(default=3e-3, metadata={
        "help": "peak learning rate of the turn windows (linear warmup and decay)"})
    window_batch_size: int = field(default=32, metadata={
        "help": "windows per step (all of one kind of turn)"})
    window_prompt_batch_size: int = field(default=32, metadata={
        "help": "windows per step behind the prompt (--window-prompt-steps); whole episodes "
                "per step (--window-episode-steps): a quarter of it"})
    tiny_hidden: int = field(default=64, metadata={
        "help": "--model tiny: hidden size"})
    tiny_layers: int = field(default=2, metadata={
        "help": "--model tiny: number of layers"})
    tiny_heads: int = field(default=4, metadata={
        "help": "--model tiny: attention heads"})
    tiny_kv_heads: int = field(default=2, metadata={
        "help": "--model tiny: key-value heads (a divisor of --tiny-heads)"})
    tiny_attention_window: int = field(default=0, metadata={
        "help": "--model tiny: tokens each layer attends back over (sliding-window "
                "attention; 0: the whole episode)"})
    tiny_min_frequency: int = field(default=2, metadata={
        "help": "--model tiny: fewest occurrences of a pair its BPE merges; higher keeps "
                "random ids (cus_gfxrxdsu) in frequent single letters a small model can copy, "
                "instead of rare pieces it never learns"})
    tiny_vocab_size: int = field(default=1024, metadata={
        "help": "--model tiny: most tokens of its BPE vocabulary"})
    tiny_corpus_episodes: int = field(default=16, metadata={
        "help": "--model tiny: training episodes (the reference policy's, train split) whose "
                "texts its tokenizer and copy pretraining are made from; a larger corpus "
                "makes the domain's common words (its names, say) single tokens"})
    tiny_value_tokens: bool = field(default=False, metadata={
        "help": "--model tiny: digits one by one and spaces as tokens of their own, so a "
                "value copied from a message into a call is the same tokens"})
    tiny_copy_steps: int = field(default=0, metadata={
        "help": "--model tiny: steps of copy pretraining before any task is seen (spans of "
                "the environment's texts repeated; tool_gym.agents.tiny.pretrain_copying)"})
    tiny_copy_random: bool = field(default=False, metadata={
        "help": "--model tiny: copy spans of random tokens (an induction circuit forms; "
                "text's own statistics let a small model predict without looking back)"})
    tiny_copy_long_steps: int = field(default=0, metadata={
        "help": "--model tiny: copy pretraining steps in 1,024-token sequences after the "
                "short ones, so that copying holds behind a long system prompt"})
    threads: int = field(default=0, metadata={
        "help": "torch CPU threads (0: torch's default; 1 is fastest for the tiny model on "
                "a busy machine)"})
    gradient_checkpointing: bool = field(default=False, metadata={
        "help": "recompute activations in the backward pass (less GPU memory, slower)"})
    use_vllm: bool = field(default=False, metadata={
        "help": "GRPO: sample the rollouts with vLLM (TRL's vLLM generation; needs a CUDA GPU "
                "and pip install vllm)"})
    vllm_mode: str = field(default="colocate", metadata={
        "help": "--use-vllm: 'colocate' (vLLM in the training process) or 'server' (a "
                "running `trl vllm-serve`)", "choices": ("colocate", "server")})
    vllm_gpu_memory_utilization: float = field(default=0.3, metadata={
        "help": "--use-vllm colocate: share of GPU memory vLLM may take"})
    seed: int = field(default=0, metadata={"help": "seed of everything"})
    logging_steps: int = field(default=1, metadata={"help": "log every N steps"})
    save_steps: int = field(default=50, metadata={"help": "checkpoint every N steps"})
    resume: bool = field(default=False, metadata={
        "help": "continue from the last checkpoint in --output-dir"})
    report_to: str = field(default="tensorboard", metadata={
        "help": "where trainers log ('tensorboard' or 'none')"})


class HelpFormatter(argparse.ArgumentDefaultsHelpFormatter,
                    argparse.RawDescriptionHelpFormatter):
    """Defaults after each flag's help; the recipes' text as it is written."""


def make_parser(recipe=None):
    """TRL's ``TrlParser`` over :class:`Args` (flags ``--output-dir`` or ``--output_dir``,
    ``--config FILE``), with one-line errors and ``--no-X`` for each switch; a
    :class:`~tool_gym.cli.recipes.Recipe` sets its defaults (and ``--help`` describes it)."""
    from trl import TrlParser

    class Parser(checks.OneLineErrors, TrlParser):
        pass

    epilog = "\n\n".join(r.describe() for r in ([recipe] if recipe else RECIPES.values()))
    parser = Parser(Args, prog=PROG, description=__doc__.split("\n\n")[0], epilog=epilog,
                    formatter_class=HelpFormatter)
    if recipe is not None:
        parser.set_defaults(**recipe.defaults)
    for f in dataclasses.fields(Args):
        if f.default is False:  # HfArgumentParser adds --no-X only for switches that are on
            parser.add_argument("--no-" + f.name.replace("_", "-"), dest=f.name,
                                action="store_false", help=f"do not {f.name.replace('_', ' ')}")
    return parser


def parse_args(argv=None) -> Args:
    """The arguments from ``argv`` (default ``sys.argv[1:]``) and ``--config FILE``; a
    mistake (a missing or malformed file, an unknown key or flag) is a
    :class:`~tool_gym.cli.checks.UsageError`."""
    import yaml

    argv = list(sys.argv[1:] if argv is None else argv)
    if "--config" in argv and argv.index("--config") == len(argv) - 1:
        raise UsageError("--config needs a YAML file")
    recipe = recipe_from_argv(argv)
    try:
        (args,) = make_parser(recipe).parse_args_and_config(argv)
    except OSError as error:
        raise UsageError(f"--config: cannot read {error.filename or ''}: "
                         f"{error.strerror or error}") from None
    except yaml.YAMLError as error:
        raise UsageError(f"--config: not YAML: {error}") from None
    except ValueError as error:  # TRL: unknown keys, not a mapping, a bad env: mapping
        raise UsageError(f"--config: {error}") from None
    return args


# ---------------------------------------------------------------------------- pieces

def build_or_load_model(args: Args, out: Path, env_kwargs: dict):
    """``(model, tokenizer, path)``: the tiny model built once in ``OUT/tiny-init``, or a
    local model."""
    from tool_gym.agents.tiny import TinyConfig, build_tiny_model, env_texts
    from tool_gym.llm.transformers_backend import load_model, resolve_model_path

    path = args.model
    if args.model == "tiny":
        path = out / "tiny-init"
        if not (path / "config.json").exists():
            texts = env_texts(args.env_id, episodes=args.tiny_corpus_episodes,
                              env_kwargs=env_kwargs, databases=args.sft_databases)
            build_tiny_model(path, texts, TinyConfig(
                vocab_size=args.tiny_vocab_size,
                hidden_size=args.tiny_hidden, intermediate_size=3 * args.tiny_hidden,
                num_hidden_layers=args.tiny_layers, num_attention_heads=args.tiny_heads,
                num_key_value_heads=args.tiny_kv_heads, seed=args.seed,
                value_tokens=args.tiny_value_tokens, min_frequency=args.tiny_min_frequency,
                attention_window=args.tiny_attention_window,
                copy_steps=args.tiny_copy_steps,
                copy_random=args.tiny_copy_random, copy_long_steps=args.tiny_copy_long_steps))
            copying = path / "copy_pretraining.json"
            if copying.exists():
                report = json.loads(copying.read_text())
                print(f"tiny model: {report['steps']} steps of copy pretraining, copy "
                      f"accuracy {report['copy_accuracy']:.2f} ({report['seconds']:.0f} s)")
    elif resolve_model_path(path)[1]:
        # A GGUF loads dequantized but flagged as quantized, which the trainers refuse to
        # fine-tune: it is saved once as plain weights in OUT/base and trained from there.
        base = out / "base"
        if not (base / "config.json").exists():
            model, tokenizer = load_model(path)
            model.hf_quantizer = None
            model.config.__dict__.pop("quantization_config", None)
            model.save_pretrained(base)
            tokenizer.save_pretrained(base)
        path = base
    model, tokenizer = load_model(path)
    training_template(tokenizer)
    return model, tokenizer, str(path)


def training_template(tokenizer) -> None:
    """A ChatML template without ``{% generation %}`` markers (SmolLM2's, say) cannot mask
    the assistant's tokens for SFT: it is replaced by the same ChatML with tools and the
    markers (:data:`tool_gym.agents.tiny.CHAT_TEMPLATE`), for every phase alike."""
    from tool_gym.agents.tiny import CHAT_TEMPLATE, IM_START

    template = tokenizer.chat_template or ""
    if not re.search(r"{%-?\s*generation\s*-?%}", template) and IM_START in template:
        print("chat template: ChatML without generation markers; using tool_gym's ChatML "
              "template with tools and {% generation %} markers")
        tokenizer.chat_template = CHAT_TEMPLATE


def held_out(model, tokenizer, args: Args, env_kwargs: dict) -> dict:
    """Greedy episodes on the first ``--eval-tasks`` test tasks (spread over
    ``--eval-databases``), scored by :func:`tool_gym.agents.held_out.score_model` (success
    with its 95% interval, reward)."""
    from tool_gym.agents.batched_rollouts import RolloutConfig
    from tool_gym.agents.held_out import held_out_tasks, score_model

    config = RolloutConfig(max_new_tokens=args.max_new_tokens, max_turns=args.max_turns,
                           max_context=args.max_context, temperature=0.0, seed=args.seed)
    groups = held_out_tasks(args.eval_tasks, args.eval_databases, env_kwargs)
    return score_model(model, tokenizer, args.env_id, groups, config, seed=10_000 + args.seed)


def lora_config(args: Args):
    if not args.lora:
        return None
    from peft import LoraConfig

    return LoraConfig(r=args.lora_r, lora_alpha=args.lora_alpha, lora_dropout=0.0,
                      target_modules="all-linear", task_type="CAUSAL_LM")


def merged(model):
    """The model with a LoRA adapter folded in (or the model itself)."""
    return model.merge_and_unload() if hasattr(model, "merge_and_unload") else model


def last_checkpoint(directory: Path, resume: bool):
    if not resume or not directory.exists():
        return None
    from transformers.trainer_utils import get_last_checkpoint

    return get_last_checkpoint(str(directory))


def common_kwargs(args: Args, phase_dir: Path, steps: int) -> dict:
    import torch

    bf16 = torch.cuda.is_available() and torch.cuda.is_bf16_supported()
    return dict(output_dir=str(phase_dir), max_steps=steps, logging_steps=args.logging_steps,
                save_steps=args.save_steps, save_total_limit=2, seed=args.seed, bf16=bf16,
                report_to=[] if args.report_to == "none" else [args.report_to],
                lr_scheduler_type=args.lr_scheduler, gradient_checkpointing=args.gradient_checkpointing,
                warmup_steps=0, disable_tqdm=not sys.stderr.isatty())


def step_batch(batch: int) -> dict:
    """``batch`` examples per optimizer step (SFT's examples, GRPO's prompts x
    generations, which are still rolled out together). On a GPU they go through together;
    on the CPU one at a time with the gradients accumulated: a padded batch carries an attention
    mask that takes PyTorch's attention off its causal fast path, and costs about twice
    the time of its examples one by one (the loss is the same mean over their tokens)."""
    import torch

    if torch.cuda.is_available():
        return {"per_device_train_batch_size": batch}
    return {"per_device_train_batch_size": 1, "gradient_accumulation_steps": batch}


def sft_steps_of(args: Args) -> int:
    """Steps of SFT on whole episodes with TRL (the algorithm, or GRPO's warm start)."""
    return args.steps if args.algo == "sft" else args.warm_start_steps


def window_steps_of(args: Args) -> int:
    return args.window_steps + args.window_context_steps + args.window_prompt_steps + \
        args.window_episode_steps


def context_tokens_of(args: Args) -> int:
    """``--window-context-tokens``, or what the tiny model's layers see back."""
    if args.window_context_tokens or args.model != "tiny":
        return args.window_context_tokens
    return args.tiny_layers * args.tiny_attention_window


def sft_rows(args: Args, out: Path, env_kwargs: dict):
    """The verified episodes SFT trains on (written to ``OUT/sft_data``) and their dataset."""
    from tool_gym.agents.sft import SFTDataConfig, collect_verified, export_dataset

    data = SFTDataConfig(env_id=args.env_id, env_kwargs=env_kwargs, policy=args.sft_policy,
                         tasks=args.sft_tasks, task_offset=args.train_tasks, seed=args.seed,
                         databases=args.sft_databases)
    rows = collect_verified(data)
    if not rows:
        raise SystemExit(f"{args.sft_policy} solved none of {args.sft_tasks} training tasks: "
                         "no SFT data")
    dataset = export_dataset(rows, out / "sft_data")
    print(f"SFT data: {len(rows)} verified episodes of {args.sft_tasks} tasks "
          f"-> {out / 'sft_data'}")
    return rows, dataset


def run_windows(model, tokenizer, args: Args, rows: list[dict]) -> list[dict]:
    """The turn-window phases (:mod:`tool_gym.agents.turn_windows`) that have steps, in
    place; their reports."""
    from tool_gym.agents.turn_windows import WindowConfig, render_episodes, train_windows

    phases = (("windows", args.window_steps, args.window_lr, args.window_batch_size),
              ("context", args.window_context_steps, args.window_lr * 2 / 3,
               args.window_batch_size),
              ("prompted", args.window_prompt_steps, args.window_lr / 3,
               args.window_prompt_batch_size),
              ("episodes", args.window_episode_steps, args.window_lr / 3,
               max(1, args.window_prompt_batch_size // 4)))
    reports = []
    rendered = render_episodes(rows, tokenizer)  # once for every phase
    for phase, steps, lr, batch in phases:
        if steps:
            # only the context phase reads context_tokens (check_args ensured it is set)
            context = {"context_tokens": context_tokens_of(args)} if phase == "context" else {}
            report = train_windows(model, tokenizer, rows, WindowConfig(
                phase=phase, steps=steps, batch_size=batch, learning_rate=lr,
                seed=args.seed, **context), progress=sys.stderr.isatty(), rendered=rendered)
            print(f"turn windows ({phase}): {steps} steps on {report['examples']} examples "
                  f"in {report['seconds']:.0f} s, final loss by kind " + ", ".join(
                      f"{k} {v:.3f}" for k, v in report["final_loss"].items()))
            reports.append(report)
    return reports


def run_sft(model, tokenizer, args: Args, out: Path, dataset, steps: int, lr: float):
    from trl import SFTConfig

    from tool_gym.agents.sft import make_sft_trainer

    phase = out / "sft"
    batch = args.batch_size if args.algo == "sft" else \
        args.warm_start_batch_size or args.batch_size
    config = SFTConfig(**common_kwargs(args, phase, steps), learning_rate=lr,
                       **step_batch(batch),
                       max_length=args.max_context, assistant_only_loss=True,
                       dataset_num_proc=None)
    try:
        trainer = make_sft_trainer(model, tokenizer, dataset, config,
                                   peft_config=lora_config(args))
    except ValueError as error:  # every example longer than --max-context
        raise UsageError(f"--max-context: {error}") from None
    trainer.train(resume_from_checkpoint=last_checkpoint(phase, args.resume))
    return merged(trainer.model)


def run_grpo(model, tokenizer, args: Args, out: Path, env_kwargs: dict, path: str):
    from trl import GRPOConfig

    from tool_gym.agents.grpo import EnvGRPOConfig, PromptTooLong, make_grpo_trainer
    from tool_gym.agents.batched_rollouts import RolloutConfig
    from tool_gym.llm.transformers_backend import resolve_model_path

    # TRL loads the KL reference (beta > 0) from the model's own path: the same weights.
    _, gguf = resolve_model_path(path)
    init_kwargs = {"gguf_file": gguf} if gguf else None

    phase = out / "grpo"
    rollout = RolloutConfig(max_new_tokens=args.max_new_tokens, max_turns=args.max_turns,
                            max_context=args.max_context, temperature=args.temperature,
                            seed=args.seed)
    env = EnvGRPOConfig(env_id=args.env_id, env_kwargs=env_kwargs, train_tasks=args.train_tasks,
                        seed=args.seed, rollout=rollout)
    config = GRPOConfig(**common_kwargs(args, phase, args.steps),
                        learning_rate=args.learning_rate,
                        **step_batch(args.batch_size * args.num_generations),
                        num_generations=args.num_generations, beta=args.beta,
                        temperature=args.temperature, max_completion_length=args.max_context,
                        log_completions=False, model_init_kwargs=init_kwargs,
                        use_vllm=args.use_vllm, vllm_mode=args.vllm_mode,
                        vllm_gpu_memory_utilization=args.vllm_gpu_memory_utilization)
    trainer = make_grpo_trainer(model, tokenizer, env, config, peft_config=lora_config(args))
    try:
        trainer.train(resume_from_checkpoint=last_checkpoint(phase, args.resume))
    except PromptTooLong as error:
        raise UsageError(f"--max-context: {error}") from None
    return merged(trainer.model), rollout_throughput(trainer.state.log_history)


def rollout_throughput(log_history: list[dict]) -> dict:
    """Mean generated tokens and episodes per second of GRPO's training rollouts (from the
    trainer's logs)."""
    out = {}
    for key, name in (("rollout/tokens_per_second", "tokens_per_second"),
                      ("rollout/episodes_per_second", "episodes_per_second")):
        values = [row[key] for row in log_history if key in row]
        if values:
            out[name] = round(sum(values) / len(values), 2)
    return out


def log_eval(out: Path, stages: dict, args: Args) -> None:
    """The held-out scores in tensorboard (``OUT/eval``), success and reward apart, one
    point per stage (0 before, 1 after SFT, 2 after GRPO)."""
    if args.report_to == "none":
        return
    from torch.utils.tensorboard import SummaryWriter

    from tool_gym.agents.held_out import STAGES

    writer = SummaryWriter(str(out / "eval"))
    for name, score in stages.items():
        step = STAGES.index(name)
        writer.add_scalar("held_out/success", score["success"], step)
        writer.add_scalar("held_out/success_ci_low", score["success_ci"][0], step)
        writer.add_scalar("held_out/success_ci_high", score["success_ci"][1], step)
        writer.add_scalar("held_out/reward", score["reward"], step)
        writer.add_scalar("held_out/score", score["score"], step)
        writer.add_text("held_out/stage", name, step)
    writer.close()


# ---------------------------------------------------------------------------- checks

def check_args(args: Args) -> dict:
    """Check every argument before any work (no model is built or loaded, nothing is
    written); return the env kwargs. Raises :class:`~tool_gym.cli.checks.UsageError`."""
    env_kwargs = checks.parse_env_kwargs(args.env_kwargs)
    spec = checks.check_env_id(args.env_id)
    checks.check_env_kwargs(args.env_id, spec, env_kwargs)
    checks.check_user_llm(env_kwargs)
    checks.check_out_dir("--output-dir", args.output_dir)
    for flag in ("batch_size", "num_generations", "train_tasks", "max_new_tokens",
                 "max_turns", "max_context", "lora_r", "tiny_hidden", "tiny_layers",
                 "logging_steps", "save_steps", "sft_databases", "eval_databases",
                 "tiny_corpus_episodes", "tiny_heads", "tiny_kv_heads", "tiny_min_frequency",
                 "window_batch_size", "window_prompt_batch_size"):
        checks.positive("--" + flag.replace("_", "-"), getattr(args, flag))
    for flag in ("steps", "warm_start_steps", "sft_tasks", "eval_tasks", "threads",
                 "tiny_copy_steps", "tiny_copy_long_steps", "warm_start_batch_size",
                 "window_steps", "window_prompt_steps", "window_episode_steps",
                 "window_context_steps", "window_context_tokens", "tiny_attention_window"):
        if getattr(args, flag) < 0:
            raise UsageError(f"--{flag.replace('_', '-')} must be >= 0, got "
                             f"{getattr(args, flag)}")
    for flag in ("learning_rate", "warm_start_lr", "temperature", "window_lr"):
        if not getattr(args, flag) > 0:  # also refuses nan
            raise UsageError(f"--{flag.replace('_', '-')} must be positive, got "
                             f"{getattr(args, flag)}")
    for flag, databases, what in (("--sft-databases", args.sft_databases, "SFT"),
                                  ("--eval-databases", args.eval_databases, "held-out")):
        if databases > 1:
            known = checks.env_keywords(spec)
            if known is not None and "db_seed" not in known:
                raise UsageError(f"{flag} {databases} spreads the {what} tasks over generated "
                                 f"databases; {args.env_id} has none (db_seed): leave it at 1")
            if env_kwargs.get("data") is not None:
                raise UsageError(f"{flag} {databases} needs generated databases; "
                                 "--env-kwargs names data: leave it at 1")
    if args.lora and window_steps_of(args):
        raise UsageError("--window-*-steps train every weight; leave them at 0 with --lora")
    if args.window_context_steps and not context_tokens_of(args):
        raise UsageError("--window-context-steps needs --window-context-tokens (or "
                         "--model tiny with --tiny-attention-window)")
    if args.tiny_heads % args.tiny_kv_heads or args.tiny_hidden % args.tiny_heads:
        raise UsageError(f"--tiny-kv-heads {args.tiny_kv_heads} must divide --tiny-heads "
                         f"{args.tiny_heads}, which must divide --tiny-hidden {args.tiny_hidden}")
    if args.tiny_vocab_size < 300:
        raise UsageError(f"--tiny-vocab-size must be at least 300 (the 256 bytes, the chat "
                         f"markup and some merges), got {args.tiny_vocab_size}")
    if not args.beta >= 0:
        raise UsageError(f"--beta must be >= 0, got {args.beta}")
    if args.max_context <= args.max_new_tokens:
        raise UsageError(f"--max-context {args.max_context} leaves no room for the prompt "
                         f"and a turn of --max-new-tokens {args.max_new_tokens}: give more "
                         f"than that (a prompt is a policy, tool schemas and the opening)")
    if args.algo == "grpo" and args.num_generations < 2:
        raise UsageError("--num-generations must be at least 2 for GRPO (a group of one "
                         "has no advantage)")
    from transformers.trainer_utils import SchedulerType

    schedules = [t.value for t in SchedulerType]
    if args.lr_scheduler not in schedules:
        raise UsageError(f"--lr-scheduler {args.lr_scheduler!r}: use one of "
                         f"{', '.join(schedules)}")
    if args.report_to not in ("tensorboard", "none"):
        raise UsageError(f"--report-to must be 'tensorboard' or 'none', got "
                         f"{args.report_to!r}")
    if args.report_to == "tensorboard":
        checks.require_extra("train", ("tensorboard",), "--report-to tensorboard")
    if args.lora:
        checks.require_extra("train", ("peft",), "--lora")
    if args.use_vllm:
        check_vllm(args)
    if args.model != "tiny":
        from tool_gym.llm.transformers_backend import resolve_model_path

        try:
            resolve_model_path(args.model)
        except (OSError, ValueError) as error:
            raise UsageError(f"--model: {error}") from None
    plays_sft_policy = bool(sft_steps_of(args) or window_steps_of(args))
    if plays_sft_policy:
        checks.check_policy(args.sft_policy, flag="--sft-policy")
    env = checks.make_env(args.env_id, env_kwargs)  # the values of --env-kwargs
    try:
        per_database = -(-args.eval_tasks // args.eval_databases)
        last = {"--eval-tasks": f"test-{per_database - 1}" if args.eval_tasks else None}
        for flag, task_id in last.items():
            error = task_id and checks.task_error(env, task_id)
            if error:
                spread = f" over --eval-databases {args.eval_databases}" \
                    if args.eval_databases > 1 else ""
                raise UsageError(f"{flag} {args.eval_tasks}{spread} goes past the test split "
                                 f"of {args.env_id}: {error}")
    finally:
        env.close()
    if plays_sft_policy:
        from tool_gym.agents.isolation import IsolatedPolicy, needs_isolation

        if needs_isolation(args.sft_policy):  # built apart, as it will play (and closed)
            try:
                IsolatedPolicy(args.sft_policy).close()
            except ValueError as error:
                raise UsageError(f"--sft-policy: {error}") from None
    return env_kwargs


def check_vllm(args: Args) -> None:
    """``--use-vllm`` needs GRPO, a CUDA GPU and the ``vllm`` package."""
    import importlib.util

    import torch

    if args.algo != "grpo":
        raise UsageError("--use-vllm samples GRPO's rollouts: it goes with --algo grpo")
    if not 0.0 < args.vllm_gpu_memory_utilization <= 1.0:
        raise UsageError(f"--vllm-gpu-memory-utilization must lie in (0, 1], got "
                         f"{args.vllm_gpu_memory_utilization}")
    if not torch.cuda.is_available():
        raise UsageError("--use-vllm needs a CUDA GPU (none here); leave it out to sample "
                         "with transformers")
    if importlib.util.find_spec("vllm") is None:
        raise UsageError("--use-vllm needs vLLM: pip install vllm")


# ---------------------------------------------------------------------------- main

def main(argv=None) -> int:
    """``tool-gym-train``: run the command line; exit status 0 (2 for a mistake in the
    arguments or a missing extra, with one line on stderr)."""
    run_command(argv)
    return 0


def run_command(argv=None) -> dict:
    """Check the arguments, train, return the results (also in ``OUT/results.json``)."""
    with checks.usage_errors(PROG):
        checks.require_extra("train", checks.TRAIN_MODULES, PROG)  # before importing trl
        checks.put_cwd_on_path()
        args = parse_args(argv)
        env_kwargs = check_args(args)
        return train(args, env_kwargs)


def train(args: Args, env_kwargs: dict) -> dict:
    """The run of checked arguments."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRL_EXPERIMENTAL_SILENCE", "1")
    import numpy as np
    import torch

    from tool_gym.agents.held_out import opening_context, plot_stages, stage_table

    if args.threads:
        torch.set_num_threads(args.threads)
    random.seed(args.seed)
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    out = Path(args.output_dir)
    out.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()

    # 1. the model, and what its context must hold
    model, tokenizer, path = build_or_load_model(args, out, env_kwargs)
    print(f"model {path}: {sum(p.numel() for p in model.parameters()):,} parameters, "
          f"{model.dtype}, {model.device}")
    opening = opening_context(tokenizer, args.env_id, env_kwargs, seed=args.seed)
    print(f"opening context: {opening['total']} tokens (policy and {opening['tools']} tool "
          f"schemas {opening['system']}, the user's opening {opening['opening']}) of "
          f"--max-context {args.max_context}")
    phase_seconds = {"model": round(time.perf_counter() - started, 1)}
    results: dict = {"args": dataclasses.asdict(args), "model": path,
                     "opening_context": opening, "phase_seconds": phase_seconds}
    stages: dict = {}

    def score(stage: str) -> None:
        if args.eval_tasks:
            stages[stage] = held_out(model, tokenizer, args, env_kwargs)
            s = stages[stage]
            print(f"held-out {stage}: success {s['success']:.3f} "
                  f"[{s['success_ci'][0]:.3f}, {s['success_ci'][1]:.3f}], "
                  f"reward {s['reward']:.3f}")

    # 2. held-out score before training
    score("before")

    # 3. SFT (the algorithm, or GRPO's warm start), after the turn windows if any
    sft_steps = sft_steps_of(args)
    sft_lr = args.learning_rate if args.algo == "sft" else args.warm_start_lr
    if sft_steps > 0 or window_steps_of(args):
        from tool_gym.llm.transformers_backend import load_model

        done = out / "sft" / "final"
        phase_started = time.perf_counter()
        if not (args.resume and (done / "config.json").exists()):
            rows, dataset = sft_rows(args, out, env_kwargs)
            if window_steps_of(args):
                results["turn_windows"] = run_windows(model, tokenizer, args, rows)
            if sft_steps > 0:
                model = run_sft(model, tokenizer, args, out, dataset, sft_steps, sft_lr)
            model.save_pretrained(done)
            tokenizer.save_pretrained(done)
        # Loaded back from disk: GRPO's KL reference is loaded from the model's path.
        model, tokenizer = load_model(done)
        path = str(done)
        phase_seconds["sft"] = round(time.perf_counter() - phase_started, 1)
        score("sft")

    # 4. GRPO
    if args.algo == "grpo" and args.steps > 0:
        phase_started = time.perf_counter()
        model, results["throughput"] = run_grpo(model, tokenizer, args, out, env_kwargs, path)
        phase_seconds["grpo"] = round(time.perf_counter() - phase_started, 1)
        score("grpo")

    # 5. the result
    final = out / "final"
    model.save_pretrained(final)
    tokenizer.save_pretrained(final)
    log_eval(out, stages, args)
    phase_seconds.update({f"held-out {name}": s["seconds"] for name, s in stages.items()})
    results.update(held_out=stages, final=str(final),
                   seconds=round(time.perf_counter() - started, 1))
    if torch.cuda.is_available():
        results["peak_memory_gib"] = round(torch.cuda.max_memory_allocated() / 2**30, 2)
    (out / "results.json").write_text(json.dumps(results, indent=2) + "\n")
    if stages:
        print("\n" + stage_table(stages, args.eval_tasks))
        where = f" of {args.eval_databases} databases" if args.eval_databases > 1 else ""
        if plot_stages(stages, out / "held_out.png", f"{args.env_id}: {args.eval_tasks} "
                       f"held-out test tasks{where}"):
            print(f"plot: {out / 'held_out.png'}")
    print("\nseconds: " + ", ".join(f"{name} {value:.0f}" for name, value in
                                   phase_seconds.items()))
    print(f"{results['seconds']:.0f} s; model in {final}, results in {out / 'results.json'}")
    return results


if __name__ == "__main__":
    sys.exit(main())
