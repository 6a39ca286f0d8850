"""A model's held-out score between training stages, and the size of its opening context.

``train.py`` scores the model on the same held-out test tasks before training, after SFT
and after GRPO. Each stage's score keeps success and reward apart (a policy can raise its
mean reward, say by making more valid calls, while it solves fewer tasks):

    {"success": 0.42, "success_ci": [0.31, 0.54], "reward": 1.1, "reward_std": 0.6,
     "score": 0.45, "validity": 0.8, "episodes": 64, "successes": 27, "model_tokens": 71.5}

``success_ci`` is the 95% Wilson interval of the success rate
(:func:`tool_gym.core.metrics.wilson_interval`): two stages whose intervals do not overlap
differ by more than chance.
"""

from __future__ import annotations

import statistics
import time
from typing import Sequence

from tool_gym.core.metrics import wilson_interval

from .batched_rollouts import RolloutConfig, Trajectory, evaluate_model

__all__ = ["STAGES", "held_out_tasks", "opening_context", "plot_stages", "score_trajectories", "score_model",
           "stage_table"]

#: The stages of a run, in order: before training, after SFT, after GRPO.
STAGES = ("before", "sft", "grpo")


def score_trajectories(trajectories: Sequence[Trajectory], confidence: float = 0.95) -> dict:
    """Success (with its Wilson interval) and reward of a stage's episodes, kept apart."""
    n = len(trajectories)
    if not n:
        raise ValueError("no episodes to score")
    successes = sum(t.success for t in trajectories)
    rewards = [t.reward for t in trajectories]
    validities = [t.validity for t in trajectories if t.validity is not None]
    low, high = wilson_interval(successes, n, confidence)
    return {
        "success": successes / n, "success_ci": [round(low, 4), round(high, 4)],
        "reward": statistics.fmean(rewards),
        "reward_std": statistics.pstdev(rewards) if n > 1 else 0.0,
        "score": statistics.fmean(t.score for t in trajectories),
        "validity": statistics.fmean(validities) if validities else 0.0,
        "episodes": n, "successes": successes,
        "model_tokens": statistics.fmean(t.model_tokens for t in trajectories),
    }


def held_out_tasks(n: int, databases: int = 1, env_kwargs: dict | None = None
                   ) -> list[tuple[dict, list[str]]]:
    """The ``n`` held-out test tasks spread over ``databases`` generated databases: task
    ``k`` is ``test-{k // databases}`` on database ``db_seed + k % databases``. Returns
    ``[(env_kwargs of a database, [task ids]), ...]``; one database keeps ``env_kwargs``
    as they are. A database holds a few dozen test users of a task family, so spreading
    the tasks gives independent users where one database would repeat them."""
    if databases < 1:
        raise ValueError(f"databases must be at least 1, got {databases}")
    env_kwargs = dict(env_kwargs or {})
    if databases == 1:
        return [(env_kwargs, [f"test-{k}" for k in range(n)])]
    first = int(env_kwargs.get("db_seed", 0))
    groups = []
    for d in range(min(databases, n)):
        ids = [f"test-{k // databases}" for k in range(d, n, databases)]
        groups.append((dict(env_kwargs, db_seed=first + d), ids))
    return groups


def score_model(model, tokenizer, env_id: str, groups: Sequence[tuple[dict, Sequence[str]]],
                config: RolloutConfig, seed: int = 0, batch_size: int = 32) -> dict:
    """Play the tasks of ``groups`` (``(env_kwargs, task ids)`` pairs, as
    :func:`held_out_tasks` gives them) with ``model`` (batched; greedy when
    ``config.temperature`` is 0) and score them together (:func:`score_trajectories`),
    with the wall-clock ``seconds`` and the generated ``tokens_per_second``."""
    started = time.perf_counter()
    trajectories: list[Trajectory] = []
    for kwargs, ids in groups:
        _, played = evaluate_model(model, tokenizer, env_id, list(ids), config, kwargs,
                                   batch_size=batch_size, seed=seed)
        trajectories += played
    seconds = time.perf_counter() - started
    score = score_trajectories(trajectories)
    score.update(seconds=round(seconds, 2), tokens_per_second=round(
        sum(t.model_tokens for t in trajectories) / seconds, 1) if seconds > 0 else 0.0)
    return score


def opening_context(tokenizer, env_id: str, env_kwargs: dict | None = None,
                    task_id: str = "train-0", seed: int = 0) -> dict:
    """Token counts of an episode's opening context under ``tokenizer``'s chat template:
    ``total`` (what the model reads before its first turn), ``system`` (policy and tool
    schemas), ``opening`` (the user's first message) and ``tools`` (how many schemas)."""
    import gymnasium as gym

    import tool_gym  # noqa: F401  (registers the ids)
    from tool_gym.chat import initial_messages
    from tool_gym.llm.transformers_backend import ChatFormat

    env = gym.make(env_id, **(env_kwargs or {}))
    try:
        observation, info = env.reset(seed=seed, options={"task_id": task_id})
    finally:
        env.close()
    tools = list(info.get("tools") or [])
    fmt = ChatFormat(tokenizer, tools)
    messages = initial_messages(observation, info)
    total = len(fmt.prompt_ids(messages))
    without_user = len(fmt.prompt_ids([*messages[:-1], {"role": "user", "content": ""}]))
    return {"total": total, "system": without_user, "opening": total - without_user,
            "tools": len(tools)}


def stage_table(stages: dict, tasks: int) -> str:
    """The held-out scores of the stages run, one line each, as the final printout."""
    lines = [f"held-out ({tasks} test tasks)   success   95% CI            reward"]
    for name in STAGES:
        if name in stages:
            s = stages[name]
            low, high = s["success_ci"]
            lines.append(f"  {name:<27} {s['success']:.3f}     [{low:.3f}, {high:.3f}]    "
                         f"{s['reward']:.3f}")
    return "\n".join(lines)


def plot_stages(stages: dict, path, title: str) -> bool:
    """Held-out success of each stage with its 95% interval (and the mean reward on a
    second axis) as a PNG at ``path``; ``False`` (nothing written) without matplotlib."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    names = [name for name in STAGES if name in stages]
    x = list(range(len(names)))
    success = [stages[n]["success"] for n in names]
    low = [success[i] - stages[n]["success_ci"][0] for i, n in enumerate(names)]
    high = [stages[n]["success_ci"][1] - success[i] for i, n in enumerate(names)]
    fig, ax = plt.subplots(figsize=(5, 3.5))
    ax.bar(x, success, yerr=[low, high], capsize=6, color="#4c72b0", alpha=0.85,
           label="success (95% CI)")
    ax.set(xticks=x, xticklabels=[f"{n}\n{stages[n]['successes']}/{stages[n]['episodes']}"
                                  for n in names],
           ylabel="held-out success", ylim=(0, 1.02), title=title)
    reward = ax.twinx()
    reward.plot(x, [stages[n]["reward"] for n in names], color="#dd8452", marker="o",
                label="mean reward")
    reward.set_ylabel("mean reward")
    handles = [h for a in (ax, reward) for h in a.get_legend_handles_labels()[0]]
    ax.legend(handles, [h.get_label() for h in handles], loc="upper left", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, metadata={"Software": None})
    plt.close(fig)
    return True
