"""Supervised fine-tuning on verified trajectories, with TRL's ``SFTTrainer``.

Any policy (the oracle by default, or a model) plays training tasks; the episodes whose
verification score is 1.0 are kept as chat records of :mod:`tool_gym.chat` (the format of
``evaluate.py --save-trajectories``, synthesis and ``python -m tool_gym.export``): one row
per episode, ``messages`` (system, user, assistant turns with ``tool_calls`` that carry
ids, ``tool`` results with their ``tool_call_id``), ``tools`` (the schemas) and metadata.
The model is trained on its own turns only (``assistant_only_loss``): the chat template's
``{% generation %}`` span, which for the tiny model's template is exactly what the model
samples at rollout time, end-of-turn token included.

Before training, :func:`check_lengths` tokenizes every example as TRL will and reports
those longer than ``max_length``: TRL cuts them, and drops those cut before their first
assistant token; that is a warning with the counts, and an error when no example would
be left.

    from tool_gym.agents.sft import SFTDataConfig, collect_verified, make_sft_trainer
    rows = collect_verified(SFTDataConfig(env_id="ToolRetail-v0", tasks=200))
"""

from __future__ import annotations

import json
import math
import warnings
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from tool_gym.chat import to_dataset, write_dataset

from .isolation import load_policy_isolated
from .policy import Policy
from .privileged import privileged_spec
from .episode_loop import run_episode

__all__ = ["LengthReport", "SFTDataConfig", "check_lengths", "collect_verified",
           "export_dataset", "make_sft_trainer", "measure_lengths"]


@dataclass
class SFTDataConfig:
    """Which episodes become SFT data.

    Attributes:
        env_id / env_kwargs: the environment.
        policy: a ``load_policy`` spec (``oracle``, ``hf:PATH``, ``module:Class``...).
        split: task split to play (``train``; never train on ``test``).
        tasks: number of task ids (``<split>-<task_offset>`` onwards).
        task_offset: first task index.
        trials: episodes per task (different reset seeds).
        min_score: keep episodes whose verification score is at least this.
        seed: base of the reset seeds.
        system_prompt: text put before the domain policy in the system message.
        max_steps: most steps per episode.
        databases: how many generated databases the tasks are spread over (task ``k``
            plays on database ``db_seed + k % databases``, ``db_seed`` taken from
            ``env_kwargs``, 0 by default). One database holds a few hundred users, so a
            few thousand episodes of one task family meet each user many times, and a
            small model learns to recall those users' values instead of reading them
            from the conversation; more databases give fresh users, ids and figures.
            Only the ``split`` of each database is played (the train split: the held-out
            test users of the first database are never seen).
    """

    env_id: str = "ToolRetail-v0"
    env_kwargs: dict = field(default_factory=dict)
    policy: str = "oracle"
    split: str = "train"
    tasks: int = 200
    task_offset: int = 0
    trials: int = 1
    min_score: float = 1.0
    seed: int = 0
    system_prompt: str | None = None
    max_steps: int = 100
    databases: int = 1


def collect_verified(config: SFTDataConfig, policy: Policy | None = None) -> list[dict]:
    """Play ``config``'s tasks and keep the episodes verified with score >= ``min_score``,
    as chat records (:mod:`tool_gym.chat`, ``trial`` filled in)."""
    import gymnasium as gym

    import tool_gym  # noqa: F401  (registers the ids)

    # A policy built from the spec is privileged only for "oracle"; a policy object
    # passed in by library code is privileged only when it is the library's own oracle.
    privileged = privileged_spec(config.policy) if policy is None else None
    owned = policy is None
    policy = policy or load_policy_isolated(config.policy)  # module:Class: its own process
    if config.databases < 1:
        raise ValueError(f"databases must be at least 1, got {config.databases}")
    if config.databases > 1 and config.env_kwargs.get("data") is not None:
        raise ValueError("databases > 1 needs generated databases; env_kwargs names data")
    first = int(config.env_kwargs.get("db_seed", 0))
    envs: dict[int, gym.Env] = {}
    rows = []
    try:
        for k in range(config.tasks):
            task_id = f"{config.split}-{config.task_offset + k}"
            db_seed = first + k % config.databases
            if db_seed not in envs:
                kwargs = dict(config.env_kwargs, db_seed=db_seed) if config.databases > 1 \
                    else config.env_kwargs
                envs[db_seed] = gym.make(config.env_id, **kwargs)
            env = envs[db_seed]
            for trial in range(config.trials):
                seed = config.seed + 1000 * trial + config.task_offset + k
                record = run_episode(env, policy, seed, task_id, config.max_steps,
                                     privileged=privileged, chat=True,
                                     system_prompt=config.system_prompt)
                if record["verified"] and record["score"] >= config.min_score:
                    rows.append(dict(record["chat"], trial=trial))
    finally:
        for env in envs.values():
            env.close()
        if owned and callable(getattr(policy, "close", None)):
            policy.close()
    return rows


def export_dataset(rows: list[dict], out_dir: str | Path | None = None):
    """The rows as a ``datasets.Dataset`` (:func:`tool_gym.chat.to_dataset`); also written
    to ``out_dir`` as a dataset directory (``train.jsonl`` and a card) when given."""
    if out_dir is not None:
        write_dataset(rows, out_dir, title="tool_gym SFT data",
                      description=f"{len(rows)} verified episodes (tool_gym.agents.sft).")
    return to_dataset(rows)


@dataclass
class LengthReport:
    """Token lengths of a chat dataset against a max length (see :func:`check_lengths`).

    Attributes:
        examples: examples measured.
        max_length: the length they were measured against.
        longest: tokens of the longest example.
        over: examples longer than ``max_length`` (cut to it: their end is not trained on).
        lost: examples whose first assistant token is past ``max_length``: nothing of
            them would be trained on, and TRL drops them.
        suggested: a max length that keeps every example whole (``longest`` rounded up
            to a multiple of 64).
    """

    examples: int
    max_length: int
    longest: int
    over: int
    lost: int

    @property
    def suggested(self) -> int:
        return max(64, math.ceil(self.longest / 64) * 64)

    def __str__(self) -> str:
        if not self.over:
            return (f"{self.examples} examples, longest {self.longest} tokens: all fit in "
                    f"max_length={self.max_length}")
        return (f"{self.over} of {self.examples} examples are longer than max_length="
                f"{self.max_length} tokens (longest {self.longest}) and are cut to it; "
                f"{self.lost} of them are cut before their first assistant token and would "
                f"be dropped; use max_length >= {self.suggested} to keep every example whole")


def _chat_lengths(example: Mapping, tokenizer) -> tuple[int, int | None]:
    """``(tokens, index of the first assistant token or None)`` of one chat example,
    rendered as TRL's ``SFTTrainer`` renders it (chat template, tools, assistant mask)."""
    tools = example.get("tools")
    tools = json.loads(tools) if isinstance(tools, str) else tools
    out = tokenizer.apply_chat_template(list(example["messages"]), tools=tools or None,
                                        tokenize=True, return_dict=True,
                                        return_assistant_tokens_mask=True)
    ids, mask = out["input_ids"], out.get("assistant_masks") or []
    return len(ids), next((i for i, bit in enumerate(mask) if bit), None)


def measure_lengths(dataset: Iterable[Mapping], tokenizer, max_length: int) -> LengthReport:
    """Tokenize every example as TRL's ``SFTTrainer`` will and count those over
    ``max_length`` (see :class:`LengthReport`)."""
    if max_length < 1:
        raise ValueError(f"max_length must be positive, got {max_length}")
    examples = longest = over = lost = 0
    for example in dataset:
        tokens, first = _chat_lengths(example, tokenizer)
        examples += 1
        longest = max(longest, tokens)
        if tokens > max_length:
            over += 1
            lost += first is None or first >= max_length
    return LengthReport(examples, max_length, longest, over, lost)


def check_lengths(dataset: Iterable[Mapping], tokenizer, max_length: int | None
                  ) -> LengthReport | None:
    """Report, before training, the examples longer than ``max_length``: a
    ``UserWarning`` with the counts when there are any (TRL cuts them, and drops those cut
    before their first assistant token), a ``ValueError`` when every example would be
    lost (TRL would drop them all and fail with ``num_samples=0``). Returns the
    :class:`LengthReport` (``None`` when ``max_length`` is ``None``: nothing is cut)."""
    if max_length is None:
        return None
    report = measure_lengths(dataset, tokenizer, max_length)
    if report.examples and report.lost == report.examples:
        raise ValueError(f"every example would be lost: {report}")
    if report.over:
        warnings.warn(str(report), UserWarning, stacklevel=2)
    return report


def make_sft_trainer(model, tokenizer, dataset, args, peft_config=None, callbacks=None):
    """A ``trl.SFTTrainer`` on the chat dataset, assistant turns only (``args``: a
    ``trl.SFTConfig``; ``assistant_only_loss`` is switched on). The examples are measured
    first (:func:`check_lengths` with ``args.max_length``): over-long ones are reported
    with their counts, and an error is raised when none would be left; the report is
    kept as ``trainer.length_report``."""
    from trl import SFTTrainer

    args.assistant_only_loss = True
    columns = [c for c in dataset.column_names if c not in ("messages", "tools")]
    if columns:
        dataset = dataset.remove_columns(columns)
    report = check_lengths(dataset, tokenizer, args.max_length)
    trainer = SFTTrainer(model=model, args=args, train_dataset=dataset,
                         processing_class=tokenizer, peft_config=peft_config,
                         callbacks=callbacks)
    trainer.length_report = report
    return trainer
