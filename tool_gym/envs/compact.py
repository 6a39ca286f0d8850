"""The compact prompt of a conversation env: a short policy and only the tools its tasks need.

A domain's full prompt (its ``policy.md`` and every tool schema) fills 5,000-7,000 tokens of
a small tokenizer before the user has said a word; a small model's context then holds no
episode. ``gym.make(id, prompt="compact")`` shows instead

- **the tools the env's task family needs**: the tools named by the reference plans of a
  fixed sample of the env's own tasks (for each constraint type the env draws, forced one
  at a time, so that a rare type is not missed), plus the domain's authentication tools
  and its transfer tool, in the domain's tool order; each schema keeps its name,
  parameters, types, enums and required list, its description is cut to the first
  sentence and the parameters' descriptions are left out;
- **a short policy**: the rules every domain's verification checks (authenticate first,
  one user, confirm every change, one call per turn, grounded answers, refusals,
  transfers), with the domain's own tool names filled in.

The list depends on the env's settings only (domain, task source, sampler, database), never
on the episode's task, so the tools shown say nothing about the hidden intent. Only what
the agent is shown changes: a call of a tool left out of the list still runs, and the
dynamics, the user and the rewards are those of the full prompt.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.task_model import SamplerConfig

#: Tasks sampled per constraint type (or in all, for a kit without types) to find the tools.
TASKS_PER_TYPE = 24

PROMPTS = ("full", "compact")


def sample_tasks(kit: Any, reader: Any, sampler: SamplerConfig) -> list:
    """A fixed sample of the env's training tasks: :data:`TASKS_PER_TYPE` of each
    constraint type the sampler draws, forced one at a time (in all, for a kit without
    types); draws with no feasible task are skipped."""
    types = tuple(sampler.types or getattr(kit, "constraint_types", ()) or ())
    forced = [SamplerConfig(sampler.min_constraints, sampler.max_constraints,
                            sampler.fuzziness, sampler.distractors, (t,))
              for t in types] if getattr(kit, "samplers", None) else [sampler]
    tasks = []
    for k, config in enumerate(forced):
        for index in range(TASKS_PER_TYPE):
            try:
                tasks.append(kit.sample(reader, np.random.default_rng([7, k, index]), "train",
                                        config, f"train-{index}"))
            except RuntimeError:  # no feasible task of this type for this draw
                continue
    return tasks


def family_tools(kit: Any, tasks: list, toolbox_names: list[str],
                 transfer_tool: str | None) -> list[str]:
    """Names of the tools the reference plans of ``tasks`` use, with the kit's
    authentication tools and the transfer tool, in the toolbox's order."""
    needed = set(getattr(kit, "auth_tools", ()))
    if transfer_tool:
        needed.add(transfer_tool)
    for task in tasks:
        needed.update(step.call.name for step in kit.plan(task) if step.call is not None)
    return [name for name in toolbox_names if name in needed]


def compact_schema(schema: dict) -> dict:
    """``schema`` with its description cut to the first sentence and no parameter
    descriptions (names, types, enums, items and the required list are kept)."""
    function = dict(schema["function"])
    description = str(function.get("description", ""))
    end = description.find(". ")
    function["description"] = description if end < 0 else description[:end + 1]
    parameters = dict(function.get("parameters") or {})
    parameters["properties"] = {
        name: {k: v for k, v in spec.items() if k != "description"}
        for name, spec in (parameters.get("properties") or {}).items()}
    function["parameters"] = parameters
    return {**schema, "function": function}


def compact_policy(domain: str, auth_tools: tuple[str, ...], transfer_tool: str | None) -> str:
    """The short policy text of ``domain``: the rules its verification checks."""
    lines = [f"You are a {domain.replace('_', ' ')} support agent."]
    if auth_tools:
        lines.append(f"First find the user's id with {' or '.join(auth_tools)}; "
                     f"help only that user.")
    lines += ["Before any change, state it and wait for the user's yes.",
              "One tool call per turn, no message with it.",
              "Say only what a tool showed; refuse what is not allowed."]
    if transfer_tool:
        lines.append(f"Use {transfer_tool} only if asked or stuck.")
    return "\n".join(lines)
