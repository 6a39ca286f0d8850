"""Runs of a task kit's plans for the retail and airline task tests: varied task sets, the
plan replayed on a sandbox (its messages grounded in the reads), played against the
scripted user, and the checks both folders make with them."""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterator

import numpy as np

from tool_gym.core.grounding import EpisodeLog, record_call
from tool_gym.core.sandbox import Sandbox, Template
from tool_gym.core.task_model import Constraint, Description, SamplerConfig, Task, TaskKit
from tool_gym.core.users import STOP, ScriptedUser

SPLITS = ("train", "test")
CONFIGS = ({}, {"fuzziness": 0.5}, {"min_constraints": 2, "max_constraints": 3},
           {"distractors": 1.0}, {"fuzziness": 0.0, "distractors": 0.0})


def sample(kit: TaskKit, db, seed: int, split: str, **config) -> Task:
    return kit.sample(db, np.random.default_rng(seed), split, SamplerConfig(**config),
                      f"{split}-{seed}")


def varied_tasks(kit: TaskKit, db, count: int = 1000) -> list[Task]:
    """``count`` tasks over both splits and a range of settings (:data:`CONFIGS`)."""
    return [sample(kit, db, i, SPLITS[i % 2], **CONFIGS[i % len(CONFIGS)])
            for i in range(count)]


def descriptions(task: Task) -> Iterator[tuple[Constraint | None, str, Description]]:
    """``(need, role, description)``: the identity (no need), then every reference."""
    yield None, "identity", task.identity
    for c in task.constraints:
        for role, d in c.refs.items():
            yield c, role, d


def need_of(task: Task, d: Description) -> Constraint:
    """The need of ``task`` that references ``d``."""
    return next(c for c in task.constraints if any(r is d for r in c.refs.values()))


def plan_messages(kit: TaskKit, task: Task) -> list[str]:
    """The plan's words, nothing read (they ground no answer)."""
    return [s.say for s in kit.plan(task) if s.say is not None]


def replay(box: Sandbox, kit: TaskKit, task: Task, write_tools: Collection[str],
           writes: bool = True, policy: bool = False) -> list[str]:
    """Play the plan (without its writes unless ``writes``): every call must succeed and,
    with ``policy``, every write break no policy rule. The plan's messages, grounded in
    the reads before each."""
    messages, log, auth = [], EpisodeLog(), None
    for step in kit.plan(task):
        write = step.call is not None and step.call.name in write_tools
        if step.call is not None and (writes or not write):
            name, arguments = step.call.name, step.call.arguments
            if write and policy:
                found = kit.policy_violations(box.db, name, arguments)
                assert found == [], (task.id, step.call, found)
            result = box.call(name, arguments)
            assert result.ok, (task.id, step.call, result.content)
            auth = record_call(log, box, name, arguments, result, kit.auth_tools, auth)
        if step.say:
            messages.append(log.agent_message(step.say))
    return messages


def sample_and_meet(box: Sandbox, kit: TaskKit, seed: int, split: str,
                    write_tools: Collection[str], policy: bool = False) -> Task:
    """A task sampled on ``box`` (at most three needs) whose descriptions' proofs hold
    there and whose plan, replayed there, meets every need."""
    task = kit.sample(box.db, np.random.default_rng(seed), split,
                      SamplerConfig(max_constraints=3), "t")
    for _, role, d in descriptions(task):
        assert d.proof.holds(box.db), (task.id, role, d)
    messages = replay(box, kit, task, write_tools, policy=policy)
    assert all(kit.check(box.db, task, c, messages) for c in task.constraints), task.id
    return task


def written(kit: TaskKit, task: Task, write_tools: Collection[str], key: str) -> list:
    """Assert that the plan's writes are the needs' writes in order (``(tool, the
    argument `key`, else the user)``), each right after its proposal; the plan."""
    steps = kit.plan(task)
    writes = [s.call for s in steps if s.call and s.call.name in write_tools]
    assert [(w.name, w.arguments.get(key, w.arguments.get("user_id"))) for w in writes] \
        == [w for c in task.constraints for w in c.writes], task.id
    for i, s in enumerate(steps):
        if s.expects_confirmation:  # a proposal is followed by its write
            assert steps[i + 1].call in writes, task.id
    return steps


def scripted_user_replies(box: Sandbox, kit: TaskKit, task: Task,
                          write_tools: Collection[str], key: str) -> list[str]:
    """Play the plan against the scripted user, telling it the writes made since its last
    turn (target: the argument ``key``, else the user): every proposal gets a yes and the
    user ends the conversation with every need met. The user's replies."""
    user = ScriptedUser(task, kit, box.db, np.random.default_rng(1))
    user.opening()
    replies, writes, log, auth = [], [], EpisodeLog(), None
    for step in kit.plan(task):
        if step.call is not None:
            name, args = step.call.name, step.call.arguments
            result = box.call(name, args)
            assert result.ok, (task.id, step.call, result.content)
            auth = record_call(log, box, name, args, result, kit.auth_tools, auth)
            if name in write_tools:
                writes.append((name, args.get(key, args.get("user_id")),
                               kit.owner(box.db, name, args)))
            continue
        replies.append(user.respond(log.agent_message(step.say), writes))
        writes = []
        if step.expects_confirmation:
            assert replies[-1].startswith("Yes"), (task.id, step.say, replies[-1])
    assert STOP in replies[-1] and user.done, (task.id, replies[-1])
    assert user.needs_met == len(task.constraints), task.id
    return replies


def assert_types_spread(tasks: list[Task], types: Collection[str]) -> None:
    """Every type is drawn, and the first need's type is drawn before the user: rare types
    are not crowded out."""
    assert set(Counter(c.type for t in tasks for c in t.constraints)) == set(types)
    firsts = Counter(t.constraints[0].type for t in tasks)
    assert min(firsts.values()) > 0.3 * len(tasks) / len(types)


def assert_counts_follow_the_config(kit: TaskKit, db) -> None:
    sizes = Counter(len(sample(kit, db, seed, SPLITS[seed % 2], min_constraints=3,
                               max_constraints=3).constraints) for seed in range(100))
    assert sizes[3] >= 90 and set(sizes) <= {1, 2, 3}
    for seed in range(30):
        assert len(sample(kit, db, seed, "test", min_constraints=1,
                          max_constraints=1).constraints) == 1


def assert_fuzziness_hides_ids(kit: TaskKit, db, role: str, key: str) -> None:
    """The ``role`` references of 60 tasks give the ``key`` id at fuzziness 0, never at 1."""
    def given(fuzziness: float) -> tuple[int, int]:
        refs = [c.refs[role] for seed in range(60)
                for c in sample(kit, db, seed, "train", fuzziness=fuzziness).constraints
                if role in c.refs]
        return sum(key in d.fields for d in refs), len(refs)

    assert given(0.0)[0] == given(0.0)[1] > 0
    assert given(1.0)[0] == 0


def needs_met_in_reverse(tpl: Template, kit: TaskKit, tasks: list[Task], write_calls: dict,
                         reads_first: bool = False) -> int:
    """The needs' writes (``write_calls``: type -> (tool, parameters)) made in reverse
    order all succeed, and every need holds after, grounded by the plan's reads (run
    before the writes, on a fresh copy, when ``reads_first``). How many tasks were tried."""
    write_tools = {tool for tool, _ in write_calls.values()}
    tried = 0
    for task in (t for t in tasks if len(t.constraints) > 1):
        with Sandbox(tpl) as box, Sandbox(tpl) as fresh:
            for c in reversed(task.constraints):
                if c.type in write_calls:
                    tool, params = write_calls[c.type]
                    result = box.call(tool, {p: c.args[p] for p in params})
                    assert result.ok, (task.id, c, result.content)
            messages = replay(fresh if reads_first else box, kit, task, write_tools,
                              writes=False)
            assert all(kit.check(box.db, task, c, messages) for c in task.constraints)
        tried += 1
    return tried


def assert_answers_need_the_reads(tpl: Template, kit: TaskKit, tasks: list[Task],
                                  write_tools: Collection[str], wrong: list[str]) -> None:
    """An information need fails with the ``wrong`` messages and with the plan's words
    unread, and holds with them grounded in the plan's reads."""
    for task in tasks:
        for c in (c for c in task.constraints if c.answer is not None):
            with Sandbox(tpl) as box:
                assert not kit.check(box.db, task, c, wrong), (task.id, c.type)
                assert not kit.check(box.db, task, c, plan_messages(kit, task)), task.id
                assert kit.check(box.db, task, c, replay(box, kit, task, write_tools))
