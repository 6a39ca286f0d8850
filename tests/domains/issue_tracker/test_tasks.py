"""Issue tracker tasks through the environment: the oracle, random play, descriptions, words.

The database is the generated one (seed 0). Descriptions are resolved again here by plain
Python over the exported state (not by the proof queries of the task kit).
"""

from __future__ import annotations

import re
from collections import Counter

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from tool_gym.agents import OraclePolicy, RandomPolicy
from tool_gym.agents.rollout import run_episode
from tool_gym.core.grounding import EpisodeLog, replay
from tool_gym.core.actions import ToolCall
from tool_gym.core.sandbox import Sandbox
from tool_gym.core.tasks import SamplerConfig, Task
from tool_gym.core.users import _IDENTITY, _PROPOSAL, mentions_all
from tool_gym.domains.issue_tracker.tasks import SAMPLERS, TASKS
from tool_gym.envs.tool_env import ToolEnv

ID = re.compile(r"\b(u|prj|spr)_[0-9a-f]{4,6}\b|\b[A-Z]{2,5}-\d+\b")


@pytest.fixture(scope="module")
def env(registered):
    e = ToolEnv("issue_tracker", max_constraints=3)
    yield e
    e.close()


@pytest.fixture(scope="module")
def state(env) -> dict:
    with Sandbox(env.template) as box:
        return box.export()


@pytest.fixture(scope="module")
def tasks(env) -> list[Task]:
    return [env.make_task(f"{split}-{i}") for split, n in (("train", 150), ("test", 50))
            for i in range(n)]


def test_check_env(registered):
    check_env(ToolEnv("issue_tracker"), skip_render_check=True)


def test_oracle_solves_train_and_test_tasks_with_integrity(env):
    seen = Counter()
    for split, n in (("train", 100), ("test", 50)):
        for i in range(n):
            record = run_episode(env, OraclePolicy(), seed=i, task_id=f"{split}-{i}")
            assert record["success"] and record["score"] == 1.0, (split, i, record)
            assert record["violations"] == 0 and record["redundant_writes"] == 0
            assert env.sandbox.check_integrity() == []
            seen.update(c["type"] for c in record["constraints"])
    assert set(seen) == set(SAMPLERS), seen


def test_random_policy_scores_near_zero(env):
    scores = [run_episode(env, RandomPolicy(seed=i), seed=i, task_id=f"train-{i}")["score"]
              for i in range(20)]
    assert np.mean(scores) < 0.1
    assert env.sandbox.check_integrity() == []


def test_forbidden_write_is_a_violation(env):
    """Doing what a refusal need forbids: nothing holds and the policy hook counts it."""
    for i in range(400):
        task = env.make_task(f"train-{i}")
        refusal = [c for c in task.constraints if c.type == "refuse_done_while_blocked"]
        if refusal:
            break
    env.reset(seed=0, options={"task_id": task.id})
    forbidden = refusal[0].args["forbidden"]
    assert env._policy_violations(ToolCall(forbidden["name"], forbidden["arguments"])) == \
        ["policy:done_while_blocked"]
    assert env.sandbox.call(forbidden["name"], forbidden["arguments"]).ok  # the tool allows it
    assert not env.kit.check(env.sandbox.db, task, refusal[0], ["I cannot do that."])


def test_expectations_fail_before_and_hold_after_the_solution(env, tasks):
    with Sandbox(env.template) as box:
        for i, task in enumerate(tasks[:60]):
            box.reset()
            for c in task.constraints:
                if c.writes:
                    assert not env.kit.check(box.db, task, c, []), c.type
            log = EpisodeLog()  # the plan's messages, grounded in its reads
            messages = replay(box, env.kit.plan(task), env.kit.auth_tools, log)
            assert all(e.ok for e in log.events), task.id
            for c in task.constraints:
                assert env.kit.check(box.db, task, c, messages), c.type
            if i % 6 == 0:
                assert box.check_integrity() == []


def test_sampling_is_deterministic_and_serializable(env):
    db = env.template.reader()
    for seed in range(10):
        a = TASKS.sample(db, np.random.default_rng(seed), "train", SamplerConfig(), "t")
        b = TASKS.sample(db, np.random.default_rng(seed), "train", SamplerConfig(), "t")
        assert a == b and Task.from_dict(a.to_dict()) == a
        assert a.identity.proof.holds(db)
        assert all(d.proof.holds(db) for c in a.constraints for d in c.refs.values())


def test_splits_are_disjoint(tasks):
    train = {t.user_id for t in tasks if t.split == "train"}
    test = {t.user_id for t in tasks if t.split == "test"}
    assert train and test and not train & test


# ----------------------------------------------------------------- descriptions


def _resolver(state: dict):
    projects = {p["project_id"]: p["name"] for p in state["projects"]}
    members = {(m["project_id"], m["user_id"]) for m in state["project_members"]}
    users = state["users"]

    def resolve(user_id, d):
        f = d.fields
        if d.entity == "user":
            if "email" in f:
                return [u["user_id"] for u in users if u["email"] == f["email"]]
            if "username" in f:
                return [u["user_id"] for u in users if u["username"] == f["username"]]
            return [u["user_id"] for u in users if u["full_name"] == f["full_name"]
                    and any(projects[p] == f["project"] and (p, u["user_id"]) in members
                            for p in projects)]
        if d.entity == "project":
            return [p for p, name in projects.items() if name == f["name"]]
        if d.entity == "sprint":
            return [s["sprint_id"] for s in state["sprints"] if s["name"] == f["sprint"]
                    and projects[s["project_id"]] == f["project"]]
        out = []
        for i in state["issues"]:
            if (i["project_id"], user_id) not in members:
                continue
            if "title" in f and i["title"] != f["title"]:
                continue
            if "project" in f and projects[i["project_id"]] != f["project"]:
                continue
            if f.get("reported_by_me") and (i["reporter_id"] != user_id or i["type"] != f["type"]
                                            or i["created_at"][:10] != f["reported_on"]):
                continue
            out.append(i["issue_id"])
        return out

    return resolve


def test_every_description_resolves_to_its_value_alone(state, tasks):
    resolve = _resolver(state)
    count = 0
    for task in tasks:
        assert resolve(task.user_id, task.identity) == [task.user_id]
        for c in task.constraints:
            for d in c.refs.values():
                assert resolve(task.user_id, d) == [d.value], (task.id, c.type, d)
                count += 1
    assert count >= 200


# ----------------------------------------------------------------- the user's words


def test_no_id_leaks_into_what_the_user_says(tasks):
    rng = np.random.default_rng(0)
    for task in tasks:
        texts = [TASKS.identify(task, rng), task.identity.text, TASKS.opening(
            task, task.constraints[0], rng)]
        texts += [s for c in task.constraints for s in c.say]
        assert 2 <= min(len(c.say) for c in task.constraints)
        for text in texts:
            assert not ID.search(text), (task.id, text)
            for c in task.constraints:
                for d in c.refs.values():
                    if isinstance(d.value, str):
                        assert d.value not in text


def test_proposals_match_their_need_and_only_their_need(tasks):
    assert re.search(r"verify|email", TASKS.ask_identity) and "username" in TASKS.ask_identity
    assert _IDENTITY.search(TASKS.ask_identity)
    for task in tasks:
        for c in task.constraints:
            for step in c.solution:
                if step.say is None:
                    continue
                assert not _IDENTITY.search(step.say), step.say
                if step.expects_confirmation:
                    assert _PROPOSAL.search(step.say) and "Shall I proceed?" in step.say
                    assert mentions_all(step.say, c.confirm_terms), (step.say, c.confirm_terms)
            if c.answer is not None:
                assert c.answer in c.solution[-1].say
            if c.type.startswith("refuse_"):
                assert c.answer == "cannot" and not c.writes and c.expect
