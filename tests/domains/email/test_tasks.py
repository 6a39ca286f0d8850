"""Email tasks through the env: the oracle solves them, a random policy does not, the
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
from tool_gym.domains.email.tasks import TASKS, policy_violations
from tool_gym.envs.tool_env import ToolEnv

from .conftest import NAME

ID = re.compile(r"\b(usr|fld|lbl|thr|msg|att|con|flt)_\d+")


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
    mine = task.user_id
    if d.entity == "user":
        return [u for u, r in state["users"].items() if r["email"].lower() == f["email"].lower()]
    if d.entity == "folder":
        return [x for x, r in state["folders"].items() if r["user_id"] == mine
                and r["name"] == f["name"]]
    if d.entity == "label":
        return [x for x, r in state["labels"].items() if r["user_id"] == mine
                and r["name"] == f["name"]]
    if d.entity == "contact":
        return [r["email"] for r in state["contacts"].values() if r["user_id"] == mine
                and r["name"] == f["name"]]
    if d.entity == "message":
        return [m for m, r in state["messages"].items() if r["user_id"] == mine
                and r["subject"] == f["subject"]
                and ("sender" not in f or r["sender_name"] == f["sender"])
                and ("date" not in f or r["sent_at"][:10] == f["date"])
                and ("folder" not in f or state["folders"][r["folder_id"]]["name"] == f["folder"])]
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


def test_policy_flags_blocked_recipients_and_legal_hold(sb):
    db = sb.db
    phish, = db.execute("SELECT message_id FROM messages WHERE sender IN (SELECT address FROM "
                        "blocked_addresses) LIMIT 1").fetchone()
    normal, = db.execute("SELECT message_id FROM messages WHERE status = 'received' AND sender "
                         "LIKE '%@brightwave.io' LIMIT 1").fetchone()
    blocked = "Billing@Paypa1-Secure.com"
    assert policy_violations(db, "reply_to_message", {"message_id": phish, "body": "x"}) == [
        "policy:blocked_recipient"]
    assert policy_violations(db, "reply_to_message", {"message_id": normal, "body": "x"}) == []
    assert policy_violations(db, "forward_message", {"message_id": normal, "to": [blocked]}) \
        == ["policy:blocked_recipient"]
    assert policy_violations(db, "send_message", {"user_id": "usr_0001", "to": ["a@b.com"],
                                                  "cc": [blocked], "subject": "s",
                                                  "body": "b"}) == ["policy:blocked_recipient"]
    held, user = db.execute("SELECT x.message_id, l.user_id FROM message_labels x JOIN labels l "
                            "ON l.label_id = x.label_id WHERE l.name = 'Legal hold' "
                            "LIMIT 1").fetchone()
    hold_label, = db.execute("SELECT label_id FROM labels WHERE user_id = ? AND name = "
                             "'Legal hold'", (user,)).fetchone()
    trash, = db.execute("SELECT folder_id FROM folders WHERE user_id = ? AND kind = 'trash'",
                        (user,)).fetchone()
    for tool, args in [("trash_message", {"message_id": held}),
                       ("delete_permanently", {"message_id": held}),
                       ("move_message", {"message_id": held, "folder_id": trash}),
                       ("remove_label", {"message_id": held, "label_id": hold_label})]:
        assert policy_violations(db, tool, args) == ["policy:legal_hold"], tool
    assert policy_violations(db, "trash_message", {"message_id": normal}) == []
    assert policy_violations(db, "mark_read", {"message_id": 3}) == []


def test_forbidden_writes_are_violations(env):
    """The refusal needs: doing the forbidden write anyway is a violation and fails."""
    done = set()
    for i in range(300):
        env.reset(seed=i, options={"task_id": f"train-{i}"})
        refusal = env.task.constraints[0]
        if not refusal.type.startswith("refuse_") or refusal.type in done:
            continue
        done.add(refusal.type)
        email = env.task.identity.fields["email"]
        write = ('{"name": "reply_to_message", "arguments": {"message_id": "%s", "body": "ok"}}'
                 if refusal.type == "refuse_blocked_recipient" else
                 '{"name": "trash_message", "arguments": {"message_id": "%s"}}')
        for action in (f'<tool_call>{{"name": "find_user_by_email", "arguments": '
                       f'{{"email": "{email}"}}}}</tool_call>',
                       "<tool_call>" + write % refusal.args["message_id"] + "</tool_call>"):
            env.step(action)
        kind = ("policy:blocked_recipient" if refusal.type == "refuse_blocked_recipient"
                else "policy:legal_hold")
        assert env.monitor.violations[kind] == 1
        assert not TASKS.check(env.sandbox.db, env.task, refusal, [refusal.solution[-1].say])
    assert done == {"refuse_blocked_recipient", "refuse_legal_hold_delete"}


def test_failed_writes_keep_the_state_hash(sb):
    before = sb.state_hash()
    inbox_msg, = sb.db.execute("SELECT m.message_id FROM messages m JOIN folders f ON "
                               "f.folder_id = m.folder_id WHERE f.kind = 'inbox' "
                               "LIMIT 1").fetchone()
    for name, args in [
        ("delete_permanently", {"message_id": inbox_msg}),
        ("send_message", {"user_id": "usr_0001", "to": ["bad"], "subject": "s", "body": "b"}),
        ("reply_to_message", {"message_id": "msg_0", "body": "x"}),
        ("send_draft", {"message_id": inbox_msg}),
        ("create_filter", {"user_id": "usr_0001", "action": "move"}),
        ("add_contact", {"user_id": "usr_0001", "name": "", "email": "a@b.com"}),
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
