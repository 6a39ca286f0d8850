"""Team chat tasks through the env: the oracle solves them, a random policy does not, the
fuzzy descriptions resolve independently, no id leaks to the user's words, rules hold."""

from __future__ import annotations

import re
from collections import Counter

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from tool_gym.agents import OraclePolicy, RandomPolicy
from tool_gym.agents.rollout import run_episode
from tool_gym.core.grounding import replay
from tool_gym.core.sandbox import Sandbox
from tool_gym.core.tasks import SamplerConfig, Task
from tool_gym.core.users import _IDENTITY, _PROPOSAL, mentions_all
from tool_gym.domains.team_chat.tasks import TASKS, policy_violations
from tool_gym.envs.tool_env import ToolEnv

from .conftest import NAME

ID = re.compile(r"\b(usr|ws|ch|msg|inv)_\d+")


@pytest.fixture(scope="module")
def env(registered):
    e = ToolEnv(NAME)
    yield e
    e.close()


@pytest.fixture(scope="module")
def oracle_runs(env):
    runs = []
    for split, n in (("train", 100), ("test", 50)):
        for i in range(n):
            record = run_episode(env, OraclePolicy(), seed=i, task_id=f"{split}-{i}")
            if i % 25 == 0:
                record["integrity"] = env.sandbox.check_integrity()
            runs.append(record)
    return runs


@pytest.fixture(scope="module")
def tasks(env) -> list[Task]:
    return [env.make_task(f"train-{i}") for i in range(150)] + \
           [env.make_task(f"test-{i}") for i in range(50)]


@pytest.fixture(scope="module")
def state(tpl):
    with Sandbox(tpl) as box:
        return box.export()


def test_check_env(registered):
    e = ToolEnv(NAME)
    check_env(e)
    e.close()


def test_oracle_succeeds_on_train_and_test(oracle_runs):
    failures = [r for r in oracle_runs if not r["success"]]
    assert failures == []
    assert all(r["violations"] == 0 and r["redundant_writes"] == 0 for r in oracle_runs)
    types = Counter(c["type"] for r in oracle_runs for c in r["constraints"])
    assert set(types) == set(TASKS.constraint_types)


def test_integrity_after_oracle_episodes(oracle_runs):
    checked = [r["integrity"] for r in oracle_runs if "integrity" in r]
    assert checked and all(problems == [] for problems in checked)


def test_random_policy_scores_near_zero(env):
    scores = [run_episode(env, RandomPolicy(seed=i), seed=i, task_id=f"train-{i}")["score"]
              for i in range(30)]
    assert np.mean(scores) <= 0.05


def _resolve(state: dict, task: Task, d) -> list:
    """The ids that a description names, found with plain Python over the export."""
    f = d.fields
    users = state["users"]
    if d.entity == "user" and "email" in f:
        return [u for u, r in users.items() if r["email"].lower() == f["email"].lower()]
    if d.entity == "user" and "username" in f:
        return [u for u, r in users.items() if r["username"].lower() == f["username"].lower()]
    if d.entity == "user":
        return [u for u, r in users.items() if r["display_name"] == f["name"]]
    workspace = {w["name"]: k for k, w in state["workspaces"].items()}.get(f["workspace"])
    channels = [c for c, r in state["channels"].items() if r["workspace_id"] == workspace
                and r["name"] == f["channel"]]
    if d.entity == "channel":
        return channels
    if d.entity == "message":
        return [m for m, r in state["messages"].items() if r["channel_id"] in channels
                and users[r["user_id"]]["display_name"] == f["author"] and r["text"] == f["text"]
                and ("date" not in f or r["ts"][:10] == f["date"])]
    raise AssertionError(f"unknown entity {d.entity}")


def test_descriptions_resolve_independently(state, tasks):
    seen = 0
    for task in tasks:
        assert _resolve(state, task, task.identity) == [task.user_id]
        for c in task.constraints:
            for d in c.refs.values():
                assert _resolve(state, task, d) == [d.value], (task.id, d)
                seen += 1
    assert seen > 200


def test_no_ids_in_the_users_words(tasks):
    for task in tasks:
        texts = [task.identity.text] + [s for c in task.constraints for s in c.say]
        texts += [TASKS.identify(task, np.random.default_rng(0))]
        for text in texts:
            assert not ID.search(text), text
            for c in task.constraints:
                for value in c.args.values():
                    if isinstance(value, str) and ID.fullmatch(value):
                        assert value not in text
        assert 2 <= min(len(c.say) for c in task.constraints)
    assert _IDENTITY.search(TASKS.ask_identity)


def test_plans_are_well_formed(tasks):
    for task in tasks:
        for c in task.constraints:
            proposals = [s for s in c.solution if s.expects_confirmation]
            if c.answer is None:
                assert len(proposals) == 1 and c.writes and c.expect
                text = proposals[0].say
                assert "Shall I proceed?" in text and mentions_all(text, c.confirm_terms)
                assert _PROPOSAL.search(text) and not _IDENTITY.search(text), text
                assert c.solution[-1].say.startswith("Done.")
            else:
                assert not proposals and not c.writes
                assert any(s.say and c.answer.lower() in s.say.lower() for s in c.solution)


def test_sampling_is_deterministic_and_serializable(env):
    db = env.template.reader()
    a = TASKS.sample(db, np.random.default_rng(11), "train", SamplerConfig(), "t")
    b = TASKS.sample(db, np.random.default_rng(11), "train", SamplerConfig(), "t")
    assert a == b and Task.from_dict(a.to_dict()) == a


def test_expectations_fail_before_the_write(env, tasks):
    db = env.template.reader()
    for task in tasks[:60]:
        for c in task.constraints:
            if c.answer is None:
                assert not TASKS.check(db, task, c, [])
            else:  # answers and refusals hold only once said, after the reads
                assert not TASKS.check(db, task, c, ["Hello."])
                assert not TASKS.check(db, task, c, [c.solution[-1].say])  # ungrounded
                with Sandbox(env.template) as box:
                    messages = replay(box, TASKS.plan(task), TASKS.auth_tools)
                    assert TASKS.check(box.db, task, c, messages), (task.id, c.type)


def test_policy_flags_archive_and_removal_by_non_admins(sb):
    db = sb.db
    cid, admin = db.execute("SELECT channel_id, user_id FROM channel_members WHERE role = "
                            "'admin' ORDER BY channel_id LIMIT 1").fetchone()
    member, = db.execute("SELECT user_id FROM channel_members WHERE channel_id = ? AND role = "
                         "'member' LIMIT 1", (cid,)).fetchone()
    assert policy_violations(db, "archive_channel", {"channel_id": cid, "user_id": member}) == [
        "policy:admin_only_archive"]
    assert policy_violations(db, "archive_channel", {"channel_id": cid, "user_id": admin}) == []
    assert policy_violations(db, "remove_member", {"channel_id": cid, "user_id": member,
                                                   "member_id": admin}) == [
        "policy:admin_only_remove"]
    assert policy_violations(db, "remove_member", {"channel_id": cid, "user_id": admin,
                                                   "member_id": member}) == []
    assert policy_violations(db, "post_message", {"channel_id": cid, "user_id": member,
                                                  "text": "x"}) == []
    assert policy_violations(db, "archive_channel", {"channel_id": 1, "user_id": member}) == []


def test_forbidden_archive_is_a_violation(env):
    """The refusal needs: archiving anyway is a violation and fails the need."""
    for i in range(300):
        env.reset(seed=i, options={"task_id": f"train-{i}"})
        if env.task.constraints[0].type == "refuse_archive_not_admin":
            break
    else:
        pytest.skip("no refusal task drawn")
    refusal = env.task.constraints[0]
    auth = TASKS.plan(env.task)[1].call
    for action in (auth.to_hermes(),
                   f'<tool_call>{{"name": "archive_channel", "arguments": {{"channel_id": '
                   f'"{refusal.args["channel_id"]}", "user_id": "{env.task.user_id}"}}}}'
                   f"</tool_call>"):
        env.step(action)
    assert env.monitor.violations["policy:admin_only_archive"] == 1
    assert not TASKS.check(env.sandbox.db, env.task, refusal, [refusal.solution[-1].say])


def test_joining_a_private_channel_without_invite_fails(env):
    for i in range(300):
        env.reset(seed=i, options={"task_id": f"train-{i}"})
        if env.task.constraints[0].type == "refuse_join_private":
            break
    else:
        pytest.skip("no refusal task drawn")
    refusal = env.task.constraints[0]
    result = env.sandbox.call("join_channel", {"channel_id": refusal.args["channel_id"],
                                               "user_id": env.task.user_id})
    assert not result.ok and "invitation" in result.content


def test_failed_writes_keep_the_state_hash(sb):
    before = sb.state_hash()
    archived, = sb.db.execute("SELECT channel_id FROM channels WHERE is_archived = 1").fetchone()
    for name, args in [
        ("post_message", {"channel_id": archived, "user_id": "usr_0001", "text": "x"}),
        ("join_channel", {"channel_id": "ch_0", "user_id": "usr_0001"}),
        ("set_status", {"user_id": "usr_0001", "status_text": "x", "status_emoji": "bad"}),
        ("create_channel", {"workspace_id": "ws_01", "user_id": "usr_0001", "name": "general"}),
        ("add_reaction", {"message_id": "msg_000001", "user_id": "usr_0", "emoji": ":tada:"}),
    ]:
        assert not sb.call(name, args).ok
    assert sb.state_hash() == before


def test_needs_hold_in_any_order(tpl, tasks):
    """The writes of a task's needs, in the plan's order or reversed, meet every need: the
    needs of one task never interfere."""
    multi = [t for t in tasks if len(t.constraints) > 1][:60]
    assert multi
    for task in multi:
        for order in (task.constraints, task.constraints[::-1]):
            with Sandbox(tpl) as box:
                for c in order:
                    for step in c.solution:
                        if step.call and box.toolbox[step.call.name].category.value == "write":
                            result = box.call(step.call.name, step.call.arguments)
                            assert result.ok, (task.id, result.content)
                for c in task.constraints:
                    assert all(e.holds(box.db) for e in c.expect), (task.id, c.type)


def test_plans_only_use_ids_that_tools_revealed(tpl, tasks):
    """A real agent can follow every plan: each id in a call's arguments appeared in an
    earlier tool result of the episode (the user never gives ids)."""
    for task in tasks[:100]:
        with Sandbox(tpl) as box:
            seen = ""
            for step in TASKS.plan(task):
                if step.call is None:
                    continue
                for value in step.call.arguments.values():
                    for item in value if isinstance(value, list) else [value]:
                        if isinstance(item, str) and ID.fullmatch(item):
                            assert item in seen, (task.id, step.call.name, item)
                result = box.call(step.call.name, step.call.arguments)
                assert result.ok, (task.id, step.call.name, result.content)
                seen += result.content
