"""GRPO on tool_gym environments with TRL's ``GRPOTrainer`` and the batched rollouts.

TRL draws ``B`` prompts and repeats each ``G`` times; its ``rollout_func`` hook hands
them to us. Every prompt names an episode (a task id and a reset seed, carried on the
prompt's message); :class:`~tool_gym.agents.batched_rollouts.BatchedRollouts` plays the ``B x G`` episodes
in lockstep with the model being trained, and returns, per episode, the prompt ids, the
completion ids (model turns and environment replies), the sampling log-probabilities and
``env_mask`` (1 on the model's tokens, 0 on the environment's, so that only the model's
tokens are in the loss). The reward is the environment's: the sum of the episode's step
rewards (validity shaping and the terminal verification score), normalized within each
group of ``G`` by TRL.

Logged besides TRL's own metrics (reward mean and spread, KL when ``beta > 0``):
``env/success_rate``, ``env/score``, ``env/validity``, ``env/turns``,
``rollout/tokens_per_second`` and ``rollout/episodes_per_second``.

With ``GRPOConfig(use_vllm=True)`` each turn of the rollouts is sampled by TRL's vLLM
generation (:class:`tool_gym.llm.vllm_decoder.VLLMDecoder`; TRL syncs the trained weights
into vLLM before each rollout); the episodes, masks and rewards are the same.

    from tool_gym.agents.grpo import EnvGRPOConfig, make_grpo_trainer
    trainer = make_grpo_trainer(model, tokenizer, EnvGRPOConfig(env_id="ToolRetail-v0"),
                                grpo_args)
    trainer.train()
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field
from typing import Any

from .batched_rollouts import BatchedRollouts, RolloutConfig

__all__ = ["EnvGRPOConfig", "episode_dataset", "make_grpo_trainer", "make_rollout_func"]

TASK_KEY, SEED_KEY = "tool_gym_task", "tool_gym_seed"


@dataclass
class EnvGRPOConfig:
    """What GRPO trains on: the environment, its tasks and the rollout settings.

    Attributes:
        env_id: Gymnasium id of the environment.
        env_kwargs: keyword arguments of ``gym.make``.
        train_tasks: number of training task ids (``train-0`` ..) in the prompt dataset.
        task_offset: first training task index (keep SFT and GRPO tasks apart).
        seed: base of the reset seeds (each task gets its own).
        rollout: the :class:`~tool_gym.agents.batched_rollouts.RolloutConfig` of training rollouts.
    """

    env_id: str = "ToolRetail-v0"
    env_kwargs: dict = field(default_factory=dict)
    train_tasks: int = 256
    task_offset: int = 0
    seed: int = 0
    rollout: RolloutConfig = field(default_factory=RolloutConfig)


def episode_dataset(task_ids: list[str], seed: int = 0):
    """A TRL prompt dataset with one row per task: a conversational ``prompt`` whose
    message carries the task id and reset seed for the rollout function."""
    from datasets import Dataset

    rows = [{"prompt": [{"role": "user", "content": task_id, TASK_KEY: task_id,
                         SEED_KEY: int(seed + i)}]} for i, task_id in enumerate(task_ids)]
    return Dataset.from_list(rows)


def _episode(prompt: Any) -> tuple[str | None, int | None]:
    message = prompt[-1] if isinstance(prompt, list) and prompt else {}
    if not isinstance(message, dict) or TASK_KEY not in message:
        raise ValueError("a GRPO prompt must come from tool_gym.agents.grpo.episode_dataset (its "
                         f"message names the task); got {prompt!r:.200}")
    return message[TASK_KEY], message.get(SEED_KEY)


class PromptTooLong(ValueError):
    """An episode's opening prompt does not fit the rollout's ``max_context``."""


def make_rollout_func(env_id: str, tokenizer, rollout: RolloutConfig,
                      env_kwargs: dict | None = None):
    """TRL's ``rollout_func(prompts, trainer) -> dict`` over batched rollouts."""
    runner: dict[str, BatchedRollouts] = {}

    def rollout_func(prompts: list, trainer) -> dict:
        from trl.models import unwrap_model_for_generation

        episodes = [_episode(p) for p in prompts]
        with unwrap_model_for_generation(
                trainer.model_wrapped, trainer.accelerator,
                gradient_checkpointing_kwargs=getattr(trainer.args,
                                                      "gradient_checkpointing_kwargs", None),
        ) as model:
            if "runner" not in runner:
                runner["runner"] = BatchedRollouts(model, tokenizer, env_id, rollout,
                                                   env_kwargs=env_kwargs)
            rollouts = runner["runner"]
            rollouts.model = model
            if getattr(trainer, "use_vllm", False):  # TRL synced the weights into vLLM
                from tool_gym.llm.vllm_decoder import VLLMDecoder

                generation = trainer.vllm_generation
                rollouts.decoder_factory = lambda seed: VLLMDecoder(generation,
                                                                    rollouts.stop_ids)
            trajectories = rollouts.run(episodes, seed=rollout.seed + trainer.state.global_step)
        stats = rollouts.stats
        n = len(trajectories)
        unplayable = [t for t in trajectories if not t.completion_ids]
        if unplayable:  # the prompt alone fills max_context: no turn could be generated
            t = unplayable[0]
            raise PromptTooLong(
                f"the prompt of task {t.task_id} is {len(t.prompt_ids)} tokens: max_context "
                f"{rollout.max_context} leaves no room for a turn of {rollout.max_new_tokens}; "
                f"use at least {len(t.prompt_ids) + rollout.max_new_tokens + 1}")
        return {
            "prompt_ids": [t.prompt_ids for t in trajectories],
            "completion_ids": [t.completion_ids for t in trajectories],
            "logprobs": [t.logprobs for t in trajectories],
            "env_mask": [t.env_mask for t in trajectories],
            "env_reward": [t.reward for t in trajectories],
            "env_success": [float(t.success) for t in trajectories],
            "env_score": [t.score for t in trajectories],
            "env_validity": [t.validity for t in trajectories],
            "env_turns": [float(t.record.get("steps", 0)) for t in trajectories],
            "rollout_tps": [stats.tokens_per_second] * n,
            "rollout_eps": [stats.episodes_per_second] * n,
        }

    return rollout_func


def env_reward(completions, env_reward=None, env_success=None, env_score=None,
               env_validity=None, env_turns=None, rollout_tps=None, rollout_eps=None,
               log_metric=None, **_: Any) -> list[float]:
    """The environment's return of each episode (a TRL reward function); logs the
    episode metrics on the way."""
    if env_reward is None:
        raise ValueError("env_reward needs the rollout_func of tool_gym.agents.grpo")
    if log_metric is not None:
        log_metric("env/success_rate", statistics.fmean(env_success))
        log_metric("env/score", statistics.fmean(env_score))
        validities = [v for v in env_validity if v is not None]
        if validities:
            log_metric("env/validity", statistics.fmean(validities))
        log_metric("env/turns", statistics.fmean(env_turns))
        log_metric("rollout/tokens_per_second", rollout_tps[0])
        log_metric("rollout/episodes_per_second", rollout_eps[0])
    return [float(r) for r in env_reward]


def make_grpo_trainer(model, tokenizer, config: EnvGRPOConfig, args, peft_config=None,
                      callbacks=None):
    """A ``trl.GRPOTrainer`` on ``config``'s environment (``args``: a ``trl.GRPOConfig``
    with ``num_generations`` = G and a batch of B x G episodes)."""
    import os

    from trl import GRPOTrainer

    os.environ.setdefault("TRL_EXPERIMENTAL_SILENCE", "1")
    start = config.task_offset
    task_ids = [f"train-{i}" for i in range(start, start + config.train_tasks)]
    dataset = episode_dataset(task_ids, seed=config.seed)
    return GRPOTrainer(
        model=model, reward_funcs=env_reward, args=args, train_dataset=dataset,
        processing_class=tokenizer, peft_config=peft_config, callbacks=callbacks,
        rollout_func=make_rollout_func(config.env_id, tokenizer, config.rollout,
                                       config.env_kwargs))
