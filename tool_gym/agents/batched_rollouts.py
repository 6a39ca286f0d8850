"""Batched multi-turn rollouts: many episodes stepped in lockstep, one generation per turn.

For RL on LLM policies (GRPO's B prompts x G generations) and for fast evaluation of a
local model. Every live episode of the batch takes one turn together: one batched
sampling pass over all of them (left padding, one KV cache kept across turns, see
:class:`tool_gym.llm.transformers_backend.BatchDecoder`), then each env steps with its
model's raw text. An episode that ends leaves the batch; the others go on.

What an episode keeps, as a :class:`Trajectory`:

- ``prompt_ids``: the chat template's rendering of the system message, the tools and
  the user's opening, up to the generation prompt;
- ``completion_ids``: everything after it, model turns and environment replies
  interleaved, with the model's tokens **exactly as sampled** (never decoded and
  re-encoded) and the environment's replies in the template's format;
- ``env_mask``: 1 on the model's tokens, 0 on the environment's (TRL's ``env_mask``:
  only the model's tokens are trained on);
- ``logprobs``: the sampling log-probability of each model token (0 on env tokens);
- ``rewards``: the reward of every env step (a turn's validity, the terminal score);
- ``messages``: the conversation as chat messages, and the episode's ``record``.

``run_sequential`` plays the same episodes one at a time (a batch of one each), the way a
per-episode environment loop does; ``benchmarks/rollout.py`` compares the two.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

import gymnasium as gym

from .transformers_policy import initial_messages, observation_message

__all__ = ["BatchedRollouts", "RolloutConfig", "RolloutStats", "Trajectory"]


@dataclass
class RolloutConfig:
    """Settings of the batched rollouts.

    Attributes:
        max_new_tokens: longest model turn, in tokens.
        max_turns: most model turns per episode (then the episode is cut, unverified).
        max_context: longest episode in tokens, prompt included (a turn that could pass
            it is not taken; the episode is cut, unverified).
        temperature: sampling temperature (0: greedy).
        top_p / top_k: nucleus / top-k filtering (1.0 / 0: off).
        reuse_cache: keep one KV cache across turns (else re-run whole sequences).
        prefill_chunk: longest slice of new tokens per forward pass (bounds the memory of
            the attention mask when long prompts are batched).
        system_prompt: text put before the domain policy in the system message.
        seed: seed of the sampling generator.
    """

    max_new_tokens: int = 128
    max_turns: int = 20
    max_context: int = 4096
    temperature: float = 1.0
    top_p: float = 1.0
    top_k: int = 0
    reuse_cache: bool = True
    prefill_chunk: int = 1024
    system_prompt: str | None = None
    seed: int = 0


@dataclass
class Trajectory:
    """One episode as token ids, masks, per-turn rewards and messages."""

    task_id: str | None
    seed: int | None
    prompt_ids: list[int]
    completion_ids: list[int] = field(default_factory=list)
    env_mask: list[int] = field(default_factory=list)
    logprobs: list[float] = field(default_factory=list)
    rewards: list[float] = field(default_factory=list)
    validities: list[float | None] = field(default_factory=list)
    messages: list[dict] = field(default_factory=list)
    tools: list[dict] = field(default_factory=list)
    record: dict = field(default_factory=dict)

    @property
    def reward(self) -> float:
        """The episode's return: the sum of its step rewards."""
        return float(sum(self.rewards))

    @property
    def model_tokens(self) -> int:
        return int(sum(self.env_mask))

    @property
    def success(self) -> bool:
        return bool(self.record.get("success", False))

    @property
    def score(self) -> float:
        return float(self.record.get("score", 0.0))

    @property
    def validity(self) -> float | None:
        """Mean validity of the turns that called tools (``None`` when none did)."""
        values = [v for v in self.validities if v is not None]
        return sum(values) / len(values) if values else None

    def to_chat(self) -> dict:
        """A Hugging Face chat example: ``messages`` (the model's turns as their raw
        text) and ``tools`` (JSON text, as TRL's SFT reads it)."""
        return {"messages": [dict(m) for m in self.messages],
                "tools": json.dumps(self.tools, ensure_ascii=False)}


@dataclass
class RolloutStats:
    """Throughput of the last run."""

    episodes: int = 0
    turns: int = 0
    model_tokens: int = 0
    forward_tokens: int = 0
    generations: int = 0
    seconds: float = 0.0

    @property
    def tokens_per_second(self) -> float:
        return self.model_tokens / self.seconds if self.seconds > 0 else 0.0

    @property
    def episodes_per_second(self) -> float:
        return self.episodes / self.seconds if self.seconds > 0 else 0.0

    def as_dict(self) -> dict:
        return {"episodes": self.episodes, "turns": self.turns,
                "model_tokens": self.model_tokens, "forward_tokens": self.forward_tokens,
                "generations": self.generations, "seconds": round(self.seconds, 4),
                "tokens_per_second": round(self.tokens_per_second, 2),
                "episodes_per_second": round(self.episodes_per_second, 4)}


def step_validity(info: dict) -> float | None:
    """The validity of a step's tool calls: ``info["validity"]`` (``None`` for a message to
    the user), or, for envs that grade calls only at the end, the verification's
    ``components["validity"]``."""
    if "validity" in info:
        value = info["validity"]
    else:
        value = ((info.get("verification") or {}).get("components") or {}).get("validity")
    return None if value is None else float(value)


def episode_record(trajectory: Trajectory, info: dict, ended: str | None, steps: int) -> dict:
    """A JSON-ready summary like ``tool_gym.agents.episode_loop.run_episode``'s record."""
    verification = info.get("verification")
    record: dict[str, Any] = {
        "task_id": info.get("task_id", trajectory.task_id), "seed": trajectory.seed,
        "steps": steps, "turns": int(info.get("turn", steps)),
        "tool_calls": int(info.get("tool_calls", 0)), "errors": int(info.get("errors", 0)),
        "reward": trajectory.reward, "verified": verification is not None,
        "model_tokens": trajectory.model_tokens,
    }
    if verification is not None:
        record.update(success=bool(verification.get("success", False)),
                      score=float(verification.get("score", 0.0)),
                      ended=str(verification.get("ended", ended or "")))
    else:
        record.update(success=False, score=0.0, ended=ended or "cut")
    return record


class BatchedRollouts:
    """Episodes of a model in gym envs, stepped in lockstep with batched generation.

    Args:
        model / tokenizer: a causal LM and its tokenizer (any chat template; templates
            without tool support get the schemas in the system message).
        env: a registered id, or a factory returning a new env; one env per concurrent
            episode is made on demand and reused across calls.
        config: :class:`RolloutConfig`.
        env_kwargs: keyword arguments of ``gym.make`` when ``env`` is an id.
    """

    def __init__(self, model, tokenizer, env: str | Callable[[], gym.Env],
                 config: RolloutConfig | None = None, env_kwargs: dict | None = None):
        from tool_gym.llm.transformers_backend import prepare_tokenizer, stop_token_ids

        prepare_tokenizer(tokenizer)
        self.model, self.tokenizer = model, tokenizer
        self.config = config or RolloutConfig()
        self.stop_ids = stop_token_ids(model, tokenizer)
        if isinstance(env, str):
            import tool_gym  # noqa: F401  (registers the ids)

            env_id, kwargs = env, dict(env_kwargs or {})
            self.make_env: Callable[[], gym.Env] = lambda: gym.make(env_id, **kwargs)
        else:
            self.make_env = env
        self.envs: list[gym.Env] = []
        #: ``seed -> decoder`` with :class:`~tool_gym.llm.transformers_backend.BatchDecoder`'s
        #: interface, used instead of it (``tool_gym.llm.vllm_decoder.VLLMDecoder``).
        self.decoder_factory: Callable[[int], Any] | None = None
        self.stats = RolloutStats()
        self._formats: dict[str, Any] = {}
        self._calls = 0

    def close(self) -> None:
        for env in self.envs:
            env.close()
        self.envs = []

    def _format(self, tools: list[dict]):
        from tool_gym.llm.transformers_backend import ChatFormat

        key = json.dumps(tools, sort_keys=True, default=str)
        if key not in self._formats:
            self._formats[key] = ChatFormat(self.tokenizer, tools, self.stop_ids)
        return self._formats[key]

    # ------------------------------------------------------------------ public
    def run(self, episodes: Sequence[tuple[str | None, int | None]],
            seed: int | None = None) -> list[Trajectory]:
        """Play ``episodes`` (``(task_id, reset seed)`` pairs) all at once; the
        trajectories come back in the same order."""
        return self._play(list(episodes), batch=True, seed=seed)

    def run_sequential(self, episodes: Sequence[tuple[str | None, int | None]],
                       seed: int | None = None) -> list[Trajectory]:
        """The same episodes one at a time (a batch of one each), for comparison."""
        return self._play(list(episodes), batch=False, seed=seed)

    # ------------------------------------------------------------------ loop
    def _play(self, episodes, batch: bool, seed: int | None) -> list[Trajectory]:
        import torch

        started = time.perf_counter()
        self.stats = RolloutStats()
        base_seed = self.config.seed + self._calls if seed is None else seed
        self._calls += 1
        while len(self.envs) < (len(episodes) if batch else min(1, len(episodes))):
            self.envs.append(self.make_env())
        groups = [list(range(len(episodes)))] if batch else [[i] for i in range(len(episodes))]
        out: list[Trajectory | None] = [None] * len(episodes)
        was_training = self.model.training
        self.model.eval()
        try:
            with torch.no_grad():
                for g, indices in enumerate(groups):
                    for i, trajectory in zip(indices, self._play_group(
                            [episodes[i] for i in indices], base_seed + g)):
                        out[i] = trajectory
        finally:
            if was_training:
                self.model.train()
        self.stats.seconds = time.perf_counter() - started
        self.stats.episodes = len(episodes)
        return out  # type: ignore[return-value]

    def _play_group(self, episodes, seed: int) -> list[Trajectory]:
        from tool_gym.llm.transformers_backend import BatchDecoder

        cfg = self.config
        n = len(episodes)
        envs = self.envs[:n]
        trajectories: list[Trajectory] = []
        formats = []
        last_info: list[dict] = []
        for env, (task_id, reset_seed) in zip(envs, episodes):
            options = {"task_id": task_id} if task_id is not None else None
            observation, info = env.reset(seed=reset_seed, options=options)
            tools = list(info.get("tools") or [])
            fmt = self._format(tools)
            messages = initial_messages(observation, info, cfg.system_prompt)
            trajectories.append(Trajectory(task_id=info.get("task_id", task_id),
                                           seed=reset_seed, prompt_ids=fmt.prompt_ids(messages),
                                           messages=messages, tools=tools))
            formats.append(fmt)
            last_info.append(info)
        if self.decoder_factory is not None:
            decoder = self.decoder_factory(seed)
        else:
            decoder = BatchDecoder(self.model, self.tokenizer.pad_token_id, self.stop_ids,
                                   temperature=cfg.temperature, top_p=cfg.top_p,
                                   top_k=cfg.top_k, seed=seed, reuse_cache=cfg.reuse_cache,
                                   chunk_size=cfg.prefill_chunk)
        decoder.add([t.prompt_ids for t in trajectories])
        live = list(range(n))  # episode index of each decoder row
        steps = [0] * n
        ended: list[str | None] = [None] * n
        while live:
            # Episodes that cannot take another turn are cut before generating.
            keep = []
            for row, i in enumerate(live):
                t = trajectories[i]
                if steps[i] >= cfg.max_turns:
                    ended[i] = "max_turns"
                elif len(t.prompt_ids) + len(t.completion_ids) + 1 + cfg.max_new_tokens \
                        > cfg.max_context:
                    ended[i] = "max_context"
                else:
                    keep.append(row)
            if len(keep) != len(live):
                decoder.drop(keep)
                live = [live[row] for row in keep]
                if not live:
                    break
            results = decoder.generate(cfg.max_new_tokens)
            self.stats.generations += 1
            keep = []
            for row, (i, (ids, logps, closed)) in enumerate(zip(live, results)):
                t, env, fmt = trajectories[i], envs[i], formats[i]
                t.completion_ids.extend(ids)
                t.env_mask.extend([1] * len(ids))
                t.logprobs.extend(logps)
                self.stats.model_tokens += len(ids)
                self.stats.turns += 1
                text = fmt.decode(ids)
                t.messages.append({"role": "assistant", "content": text})
                observation, reward, terminated, truncated, info = env.step(text)
                steps[i] += 1
                t.rewards.append(float(reward))
                t.validities.append(step_validity(info))
                last_info[i] = info
                if terminated or truncated:
                    ended[i] = "terminated" if terminated else "truncated"
                    continue
                message = observation_message(observation, text, t.tools)
                t.messages.append(message)
                env_ids = fmt.env_ids([message], closed=closed)
                t.completion_ids.extend(env_ids)
                t.env_mask.extend([0] * len(env_ids))
                t.logprobs.extend([0.0] * len(env_ids))
                decoder.extend(row, env_ids)
                keep.append(row)
            if len(keep) != len(live):
                decoder.drop(keep)
                live = [live[row] for row in keep]
        self.stats.forward_tokens += decoder.forward_tokens
        for i, t in enumerate(trajectories):
            t.record = episode_record(t, last_info[i], ended[i], steps[i])
        return trajectories


def summarize(trajectories: Sequence[Trajectory]) -> dict:
    """Mean reward, its spread, success rate, score and validity of a set of episodes."""
    import statistics

    rewards = [t.reward for t in trajectories]
    validities = [t.validity for t in trajectories if t.validity is not None]
    n = len(trajectories)
    return {
        "episodes": n,
        "reward_mean": statistics.fmean(rewards) if n else 0.0,
        "reward_std": statistics.pstdev(rewards) if n > 1 else 0.0,
        "success_rate": sum(t.success for t in trajectories) / n if n else 0.0,
        "score_mean": statistics.fmean(t.score for t in trajectories) if n else 0.0,
        "validity_mean": statistics.fmean(validities) if validities else 0.0,
        "model_tokens_mean": statistics.fmean(t.model_tokens for t in trajectories) if n
        else 0.0,
    }


def evaluate_model(model, tokenizer, env: str | Callable[[], gym.Env], task_ids: Sequence[str],
                   config: RolloutConfig | None = None, env_kwargs: dict | None = None,
                   batch_size: int = 32, seed: int = 0) -> tuple[dict, list[Trajectory]]:
    """Greedy (unless ``config`` says otherwise) batched episodes of ``task_ids``, one
    per task with reset seed ``seed + index``: ``(summary, trajectories)``."""
    config = config or RolloutConfig(temperature=0.0)
    runner = BatchedRollouts(model, tokenizer, env, config, env_kwargs=env_kwargs)
    episodes = [(task_id, seed + i) for i, task_id in enumerate(task_ids)]
    trajectories: list[Trajectory] = []
    try:
        for start in range(0, len(episodes), batch_size):
            trajectories += runner.run(episodes[start:start + batch_size], seed=seed)
    finally:
        runner.close()
    return summarize(trajectories), trajectories
