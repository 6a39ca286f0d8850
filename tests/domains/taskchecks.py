"""Checks of a domain's tasks that its folder fills in with what is specific to it: how a
description resolves over the plain data, and which write each refusal type forbids."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from tool_gym.core.actions import ToolCall
from tool_gym.core.sandbox import Sandbox, template
from tool_gym.core.task_model import Constraint, Description, SamplerConfig, Task
from tool_gym.domains import get_domain
from tool_gym.envs.tool_env import ToolEnv


@dataclass(frozen=True)
class Forbidden:
    """The write that a refusal type forbids: ``call(need, task)``, the policy violations
    the kit names for it, whether the tool itself lets it through (a policy-only rule), and
    the violation an episode counts when the agent proposes and makes it (``None``: not
    played)."""

    call: Callable[[Constraint, Task], ToolCall]
    violations: tuple[str, ...]
    tool_allows: bool = True
    in_episode: str | None = None


def identified(rows: list[dict], id_key: str, fields: dict) -> list:
    """The ids of the ``rows`` that match every field of a description."""
    return [r[id_key] for r in rows if all(r[k] == v for k, v in fields.items())]


def resolved_entities(tasks: list[Task],
                      resolve: Callable[[Task, Description], list]) -> Counter:
    """Assert that each description of ``tasks`` (the identity and every reference), resolved
    by ``resolve`` over the plain data (no SQL, no sampler code), names its hidden value
    alone; how many of each entity type were seen."""
    kinds = Counter()
    for task in tasks:
        for d in [task.identity] + [d for c in task.constraints for d in c.refs.values()]:
            assert resolve(task, d) == [d.value], (task.id, d)
            kinds[d.entity] += 1
    return kinds


def flagged_refusals(tasks: list[Task], forbidden: dict[str, Forbidden]) -> Counter:
    """Make the forbidden write of every need of ``tasks`` whose type ``forbidden`` names, on
    a fresh sandbox each: the kit flags it, the tool lets it through only when the rule is
    policy-only, and the need then fails. How many needs of each type were tried."""
    tried = Counter()
    for task in tasks:
        kit, tpl = get_domain(task.domain).tasks, template(task.domain, 0)
        for c in (c for c in task.constraints if c.type in forbidden):
            rule = forbidden[c.type]
            call = rule.call(c, task)
            with Sandbox(tpl) as box:
                flagged = kit.policy_violations(box.db, call.name, call.arguments)
                assert flagged == list(rule.violations), (task.id, c.type, flagged)
                assert box.call(call.name, call.arguments).ok == rule.tool_allows, (task.id, call)
                if rule.tool_allows:
                    assert not kit.check(box.db, task, c, ["I cannot do that."]), task.id
            tried[c.type] += 1
    return tried


def forbidden_write_episode(domain: str, kind: str,
                            forbidden: Callable[[Constraint, Task], ToolCall],
                            propose: bool = False) -> ToolEnv:
    """An env in the middle of ``train-0`` with its one need forced to type ``kind``: the
    agent has authenticated (asking first and proposing the write when ``propose``) and
    made the write ``forbidden(need, task)``."""
    env = ToolEnv(domain, constraint_types=(kind,), max_constraints=1)
    env.reset(seed=0, options={"task_id": "train-0"})
    if propose:
        env.step(env.kit.ask_identity)
    env.step(env.kit.plan(env.task)[1].call.to_hermes())
    if propose:
        env.step("I will do that now. Shall I proceed?")
    env.step(forbidden(env.task.constraints[0], env.task).to_hermes())
    return env


def violations_in_episodes(domain: str, forbidden: dict[str, Forbidden]) -> set[str]:
    """Play each refusal type of ``forbidden`` that names an ``in_episode`` violation: the
    agent asks, authenticates, proposes and makes the forbidden write, then hands over; the
    episode counts that violation once and fails. The types played."""
    played = {kind for kind, rule in forbidden.items() if rule.in_episode}
    for kind in played:
        env = forbidden_write_episode(domain, kind, forbidden[kind].call, propose=True)
        *_, info = env.step("transfer_to_human_agents(summary='done')")
        env.close()
        result = info["verification"]
        assert result["violation_counts"].get(forbidden[kind].in_episode) == 1, (kind, result)
        assert not result["success"], kind
    return played


def named_forbidden_write_violations(domain: str, kind: str) -> list[str]:
    """For a task of ``kind`` (forced) whose need names the write it forbids
    (``args["forbidden"]``): assert that the tool allows that write and that the need then
    fails; the policy violations the kit names for it."""
    kit, tpl = get_domain(domain).tasks, template(domain, 0)
    task = kit.sample(tpl.reader(), np.random.default_rng(0), "train",
                      SamplerConfig(max_constraints=1, types=(kind,)), "t")
    refusal = task.constraints[0]
    name, arguments = refusal.args["forbidden"]["name"], refusal.args["forbidden"]["arguments"]
    with Sandbox(tpl) as box:
        violations = kit.policy_violations(box.db, name, arguments)
        assert box.call(name, arguments).ok  # the tool allows it: the rule is policy
        assert not kit.check(box.db, task, refusal, ["I cannot do that."])
    return violations
