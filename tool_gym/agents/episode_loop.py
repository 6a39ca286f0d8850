"""One episode of a policy in an env, reduced to a JSON-ready record.

``run_episode`` is the one episode loop of the project's evaluation: ``evaluate.py`` calls
it for every (task, trial), and batched or distributed rollouts reuse it per worker.
"""

from __future__ import annotations

import json
from typing import Any

import gymnasium as gym

from tool_gym.chat import UNREPRESENTABLE, EpisodeChat

from ..envs.episode import episode_env
from .policy import Policy
from .privileged import reset_policy


def run_episode(env: gym.Env, policy: Policy, seed: int | None, task_id: str | None,
                max_steps: int | None = None, trajectory: bool = False,
                privileged: bool | None = None, chat: bool = False,
                system_prompt: str | None = None) -> dict[str, Any]:
    """Play one episode of ``task_id`` with ``policy`` and return its record.

    The env is reset with ``seed`` and ``options={"task_id": task_id}`` (no option when
    ``task_id`` is ``None``); the policy is reset with the opening observation and the
    info, never the env (:func:`tool_gym.agents.privileged.reset_policy`: with ``privileged`` it is
    a privileged policy started with the episode's hidden task; ``None`` grants that only
    to the library's own oracle, by exact type; callers running a user's policy spec pass
    :func:`tool_gym.agents.privileged.privileged_spec` of it); then ``policy.act`` drives
    ``env.step`` until the episode terminates or is truncated (or after ``max_steps``
    steps, recorded as ``ended="max_steps"``).

    The record holds only values that are a function of the episode (no wall-clock
    time): ``task_id``, ``seed``, ``success``, ``score``, ``satisfied_fraction``,
    ``turns``, ``steps``, ``tool_calls``, ``errors``, ``violations``,
    ``violation_counts``, ``redundant_writes`` (and ``redundant``, the writes it counts),
    ``constraints`` (a list of ``{"type", "satisfied"}``, with a ``reason`` where one
    failed), ``ended``, ``reward`` (the sum of step rewards) and
    ``verified``. ``verified`` is false when the final step carried no
    ``info["verification"]`` (e.g. a ``TimeLimit`` wrapper cut the episode before the env
    ended it): the episode then counts as a failure with score 0, and its constraints are
    listed as unsatisfied when the env exposes its task.

    With ``chat`` the record also holds ``"chat"``: the episode as a chat record of
    :mod:`tool_gym.chat` (``messages`` opening with ``system_prompt`` and the domain
    policy, ``tools``, and the metadata ``env_id``, ``task_id``, ``seed``, ``success``,
    ``reward``, ``score``; ``trial`` is the caller's). With ``trajectory`` it holds
    ``"trajectory"``: that chat record plus the episode's tool calls (``calls``: ``name``,
    ``arguments``, validity ``stage``, ``ok`` and the result ``content``, cut at
    :data:`TRAJECTORY_CONTENT` characters), the agent's messages (``agent_messages``) and
    the task's ground-truth calls for PROVE's reward (``ground_truth``), so that the episode
    can be scored again later (``tool_gym.synth.sweep``) or exported (``tool_gym.export``).

    The env must keep an episode record (:mod:`tool_gym.envs.episode`): the calls and
    messages come from ``env.unwrapped.episode``, the constraint types of an unverified
    episode and the ground truth from its privileged accessors (never handed to a plain
    policy); any other env raises ``TypeError``.
    """
    base = episode_env(env)
    options = {"task_id": task_id} if task_id is not None else None
    observation, info = env.reset(seed=seed, options=options)
    reset_policy(policy, observation, info, env, privileged)
    conversation = EpisodeChat(observation, info, system_prompt) if chat or trajectory else None
    info, total_reward, steps, terminated, truncated = _play(
        env, policy, observation, info, max_steps, conversation)
    record: dict[str, Any] = {
        "task_id": info.get("task_id", task_id),
        "seed": seed,
        "turns": int(info.get("turn", steps)),
        "steps": steps,
        "tool_calls": int(info.get("tool_calls", 0)),
        "errors": int(info.get("errors", 0)),
        "reward": total_reward,
        "verified": info.get("verification") is not None,
    }
    if record["verified"]:
        record.update(_verified(info["verification"]))
    else:
        ended = "time_limit" if truncated else "terminated" if terminated else "max_steps"
        types = base.oracle_access().constraint_types
        record.update(
            success=False, score=0.0, satisfied_fraction=0.0,
            constraints=[{"type": str(t), "satisfied": False} for t in types],
            violations=0, violation_counts={}, redundant_writes=0, ended=ended,
        )
    if conversation is not None:
        episode = conversation.record(
            env_id=env.spec.id if env.spec is not None else None, task_id=record["task_id"],
            seed=seed, success=record["success"], reward=total_reward, score=record["score"])
        if chat:
            record["chat"] = episode
        if trajectory:
            record["trajectory"] = {**episode, **episode_trajectory(env)}
    return record


def _play(env: gym.Env, policy: Policy, observation: str, info: dict,
          max_steps: int | None, conversation: EpisodeChat | None):
    """Step ``env`` with ``policy`` until the episode ends (or after ``max_steps``); the
    last info, the return, the steps and the final ``terminated`` and ``truncated``."""
    base = episode_env(env)
    total_reward = 0.0
    steps = 0
    terminated = truncated = False
    seen = len(base.episode.calls) if conversation is not None else 0
    while not (terminated or truncated):
        if max_steps is not None and steps >= max_steps:
            break
        action = policy.act(observation, info)
        observation, reward, terminated, truncated, info = env.step(action)
        total_reward += float(reward)
        steps += 1
        if conversation is not None:
            calls = base.episode.calls
            ran = list(calls[seen:])  # the calls this step ran
            seen = len(calls)
            conversation.add_turn(action, None if terminated or truncated else observation, ran)
    return info, total_reward, steps, terminated, truncated


def _verified(verification: dict[str, Any]) -> dict[str, Any]:
    """The record's fields taken from the final ``info["verification"]``: each failed
    constraint keeps its ``reason`` and ``redundant`` lists the redundant writes
    (``{"tool", "target"}``), when the verification gives them."""
    constraints = []
    for c in verification.get("constraints", []):
        constraint = {"type": str(c["type"]), "satisfied": bool(c["satisfied"])}
        if not constraint["satisfied"] and c.get("reason"):
            constraint["reason"] = str(c["reason"])
        constraints.append(constraint)
    fields: dict[str, Any] = dict(
        success=bool(verification["success"]),
        score=float(verification["score"]),
        satisfied_fraction=float(verification.get("satisfied_fraction", 0.0)),
        constraints=constraints,
        violations=int(verification.get("violations", 0)),
        violation_counts={str(k): int(v) for k, v in
                          sorted(verification.get("violation_counts", {}).items())},
        redundant_writes=int(verification.get("redundant_writes", 0)),
        redundant=[{"tool": str(w.get("tool")),
                    "target": None if w.get("target") is None else str(w["target"])}
                   for w in verification.get("redundant", [])],
        ended=str(verification.get("ended", "")),
    )
    tau2 = verification.get("tau2")
    if tau2:  # tau2's own tasks: its deterministic reward, NL assertions unjudged
        fields["tau2"] = {k: tau2[k] for k in ("db_match", "communicate_info", "reward",
                                               "nl_assertions_unchecked",
                                               "rejected_gold_writes")}
    return fields


#: Characters of a tool result kept in a trajectory.
TRAJECTORY_CONTENT = 4000


def episode_trajectory(env: gym.Env) -> dict[str, Any]:
    """The calls, agent messages and ground truth of the env's last episode (JSON-ready)."""
    base = episode_env(env)
    record = base.episode
    calls = []
    for c in record.calls:
        c = dict(c, content=str(c.get("content", ""))[:TRAJECTORY_CONTENT])
        try:
            json.dumps(c["arguments"])
        except (TypeError, ValueError, OverflowError):  # e.g. a 5000-digit integer
            c["arguments"] = UNREPRESENTABLE
        calls.append(c)
    return {"calls": calls, "agent_messages": list(record.agent_messages),
            "ground_truth": [g.to_dict() for g in base.ground_truth()]}
