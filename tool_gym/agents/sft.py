"""Supervised fine-tuning on verified trajectories, with TRL's ``SFTTrainer``.

Any policy (the oracle by default, or a model) plays training tasks; the episodes whose
verification score is 1.0 are kept and exported as a Hugging Face chat dataset with
tools: one row per episode, ``messages`` (system, user, assistant turns with structured
``tool_calls``, ``tool`` results) and ``tools`` (the JSON schemas, as JSON text). The
model is trained on its own turns only (``assistant_only_loss``): the chat template's
``{% generation %}`` span, which for the tiny model's template is exactly what the model
samples at rollout time, end-of-turn token included.

    from tool_gym.agents.sft import SFTDataConfig, collect_verified, make_sft_trainer
    rows = collect_verified(SFTDataConfig(env_id="ToolRetail-v0", tasks=200))
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

from tool_gym.core.actions import parse_action

from .isolation import load_policy_isolated
from .policy import Policy
from .privileged import privileged_spec, reset_policy
from .transformers_policy import initial_messages, observation_message, tool_names

__all__ = ["SFTDataConfig", "assistant_message", "collect_verified", "export_dataset",
           "make_sft_trainer"]


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


def assistant_message(action: Any, tools: Sequence[dict]) -> dict:
    """A policy's action as an assistant chat message: structured ``tool_calls`` (with
    JSON-text arguments) when it is a call action, else its text as ``content``."""
    parsed = parse_action(action, tool_names=tool_names(tools) or None)
    if parsed.is_call:
        return {"role": "assistant", "content": parsed.message or "",
                "tool_calls": [{"type": "function", "function": {
                    "name": c.name, "arguments": json.dumps(c.arguments, ensure_ascii=False)}}
                    for c in parsed.calls]}
    if isinstance(action, str):
        return {"role": "assistant", "content": action}
    return {"role": "assistant", "content": parsed.message or ""}


def play(env, policy: Policy, task_id: str | None, seed: int | None,
         system_prompt: str | None = None, max_steps: int = 100,
         privileged: bool | None = None) -> tuple[dict, dict]:
    """One episode as ``(chat example, final info)`` (``privileged`` as in
    :func:`tool_gym.agents.rollout.run_episode`)."""
    options = {"task_id": task_id} if task_id is not None else None
    observation, info = env.reset(seed=seed, options=options)
    tools = list(info.get("tools") or [])
    reset_policy(policy, observation, info, env, privileged)
    messages = initial_messages(observation, info, system_prompt)
    for _ in range(max_steps):
        action = policy.act(observation, info)
        messages.append(assistant_message(action, tools))
        observation, _, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            break
        messages.append(observation_message(observation, action, tools))
    return {"messages": messages, "tools": json.dumps(tools, ensure_ascii=False)}, info


def collect_verified(config: SFTDataConfig, policy: Policy | None = None) -> list[dict]:
    """Play ``config``'s tasks and keep the episodes verified with score >= ``min_score``
    (``task_id`` and ``score`` are kept beside ``messages`` and ``tools``)."""
    import gymnasium as gym

    import tool_gym  # noqa: F401  (registers the ids)

    # A policy built from the spec is privileged only for "oracle"; a policy object
    # passed in by library code is privileged only when it is the library's own oracle.
    privileged = privileged_spec(config.policy) if policy is None else None
    owned = policy is None
    policy = policy or load_policy_isolated(config.policy)  # module:Class: its own process
    env = gym.make(config.env_id, **config.env_kwargs)
    rows = []
    try:
        for k in range(config.tasks):
            task_id = f"{config.split}-{config.task_offset + k}"
            for trial in range(config.trials):
                seed = config.seed + 1000 * trial + config.task_offset + k
                example, info = play(env, policy, task_id, seed, config.system_prompt,
                                     config.max_steps, privileged)
                verification = info.get("verification") or {}
                score = float(verification.get("score", 0.0))
                if verification and score >= config.min_score:
                    rows.append(dict(example, task_id=task_id, score=score))
    finally:
        env.close()
        if owned and callable(getattr(policy, "close", None)):
            policy.close()
    return rows


def export_dataset(rows: list[dict], out_dir: str | Path | None = None):
    """The rows as a ``datasets.Dataset``; also written to ``out_dir`` (``save_to_disk``
    and a ``train.jsonl``) when given."""
    from datasets import Dataset

    dataset = Dataset.from_list(rows)
    if out_dir is not None:
        out = Path(out_dir)
        out.mkdir(parents=True, exist_ok=True)
        dataset.save_to_disk(str(out / "dataset"))
        with open(out / "train.jsonl", "w", encoding="utf-8") as f:
            for row in rows:
                f.write(json.dumps(row, ensure_ascii=False) + "\n")
    return dataset


def make_sft_trainer(model, tokenizer, dataset, args, peft_config=None, callbacks=None):
    """A ``trl.SFTTrainer`` on the chat dataset, assistant turns only (``args``: a
    ``trl.SFTConfig``; ``assistant_only_loss`` is switched on)."""
    from trl import SFTTrainer

    args.assistant_only_loss = True
    columns = [c for c in dataset.column_names if c not in ("messages", "tools")]
    if columns:
        dataset = dataset.remove_columns(columns)
    return SFTTrainer(model=model, args=args, train_dataset=dataset, processing_class=tokenizer,
                      peft_config=peft_config, callbacks=callbacks)
