"""The conformance suite: every registered domain (built-in or plug-in) passes the same checks.

Data (invariants, foreign keys, round trip), generator determinism, tool schemas, the task
kit through its env ids (oracle, random floor, every constraint type forced, splits, frozen
digests) and the MCP listing. A domain's folder tests only what is specific to it.
"""

from __future__ import annotations

import json
import re

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import tool_gym  # noqa: F401  (registers the env ids)
from tool_gym.agents import OraclePolicy, RandomPolicy
from tool_gym.agents.episode_loop import run_episode
from tool_gym.core.sandbox import Sandbox, build_database, canonical_json, template
from tool_gym.core.taskkit import BaseTaskKit
from tool_gym.core.task_model import Task
from tool_gym.core.tools import Category
from tool_gym.core.users import mentions_all
from tool_gym.domains import domain_names, get_domain
from tool_gym.envs.frozen import compute_test_set_digest
from tool_gym.envs.tool_env import TEST_SET_SIZE, ToolEnv

NAMES = domain_names()
TYPES = [(n, t) for n in NAMES for t in get_domain(n).tasks.constraint_types]
JSON_TYPES = {"string", "integer", "number", "boolean", "array", "object", "null"}
TRAIN_TASKS = 60


@pytest.fixture(scope="module", params=NAMES)
def domain_name(request) -> str:
    return request.param


@pytest.fixture(scope="module")
def domain(domain_name):
    return get_domain(domain_name)


@pytest.fixture(scope="module")
def env(domain):
    assert domain.envs, f"{domain.name} declares no env id"
    e = gym.make(domain.envs[0].id).unwrapped
    yield e
    e.close()


@pytest.fixture(scope="module")
def tasks(env) -> dict[str, list[Task]]:
    """The frozen test set and the first train tasks of the domain's first env id."""
    return {"test": [env.make_task(f"test-{n}") for n in range(TEST_SET_SIZE)],
            "train": [env.make_task(f"train-{n}") for n in range(TRAIN_TASKS)]}


# ----------------------------------------------------------------- data and invariants

@pytest.mark.parametrize("seed", [0, 1])
def test_generated_data_fills_every_table_and_holds_its_rules(domain, seed):
    db = template(domain.name, seed).reader()
    assert domain.invariants(db) == []
    assert db.execute("PRAGMA foreign_key_check").fetchall() == []
    tables = [t for (t,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' "
                                       "AND name NOT LIKE 'sqlite_%'")]
    empty = [t for t in tables if not db.execute(f'SELECT 1 FROM "{t}" LIMIT 1').fetchone()]
    assert empty == [], f"the generator leaves {empty} empty"


def _gives_back(exported, generated) -> bool:
    """``exported`` is ``generated``, but for optional fields that the export adds as null."""
    if isinstance(generated, dict) and isinstance(exported, dict):
        return set(generated) <= set(exported) and all(
            _gives_back(exported[k], v) for k, v in generated.items()) and all(
            exported[k] is None for k in set(exported) - set(generated))
    if isinstance(generated, list) and isinstance(exported, list):
        return len(generated) == len(exported) and all(map(_gives_back, exported, generated))
    return canonical_json(exported) == canonical_json(generated)


def test_export_and_load_round_trip(domain, tmp_path):
    with Sandbox(template(domain.name, 0)) as box:
        exported, state_hash = box.export(), box.state_hash()
        for exporter in domain.exporters:
            json.dumps(box.export(exporter))
    assert _gives_back(json.loads(json.dumps(exported)), domain.generate(0))
    path = tmp_path / "data.json"
    path.write_text(json.dumps(exported), encoding="utf-8")
    assert canonical_json(domain.read(path)) == canonical_json(exported)
    with Sandbox(template(domain.name, data=path)) as box:
        assert canonical_json(box.export()) == canonical_json(exported)
        assert box.state_hash() == state_hash
        assert box.check_integrity() == []


def test_same_seed_same_export_other_seed_other_export(domain):
    assert json.dumps(domain.generate(3)) == json.dumps(domain.generate(3))  # key order too
    export = domain.exporters[domain.canonical]
    first, again, other = (json.dumps(export(build_database(domain, seed)))
                           for seed in (3, 3, 4))
    assert first == again
    assert first != other


# ----------------------------------------------------------------- tool schemas

def _types(spec: dict) -> set[str]:
    """Every JSON type a parameter schema names, nested schemas included."""
    kinds = spec.get("type", [])
    found = {kinds} if isinstance(kinds, str) else set(kinds)
    for key in ("items", "additionalProperties"):
        if isinstance(spec.get(key), dict):
            found |= _types(spec[key])
    for nested in spec.get("properties", {}).values():
        found |= _types(nested)
    for option in spec.get("anyOf", []) + spec.get("oneOf", []):
        found |= _types(option)
    return found


def test_tool_schemas(domain):
    tools = list(domain.toolbox)
    names = [t.name for t in tools]
    assert len(names) == len(set(names)) and names == domain.toolbox.names
    assert domain.transfer_tool in names
    for t in tools:
        assert t.description.strip() and not t.description.startswith("Args"), t.name
        assert isinstance(t.category, Category), t.name  # read, write or generic
        assert t.schema["function"] == {"name": t.name, "description": t.description,
                                        "parameters": t.parameters}
        params = t.parameters
        assert params["type"] == "object", t.name
        assert set(params.get("required", ())) <= set(params["properties"]), t.name
        for param, spec in params["properties"].items():
            assert spec.get("description"), (t.name, param)
            assert _types(spec) and _types(spec) <= JSON_TYPES, (t.name, param, spec)
    writes = [t for t in tools if t.category is Category.WRITE]
    assert writes and len(writes) < len(tools)
    for t in writes:  # a write names the entities it acts on and the ones it changes
        assert t.input_entities and t.writes, t.name


def test_mcp_lists_exactly_the_domains_tools(domain):
    pytest.importorskip("mcp")
    import anyio
    from mcp import ClientSession
    from mcp.shared.memory import create_client_server_memory_streams

    from tool_gym.mcp import build_server

    server = build_server(domain.name)

    async def listing():
        async with create_client_server_memory_streams() as (client, served):
            async with anyio.create_task_group() as group:
                group.start_soon(server.run, served[0], served[1],
                                 server.create_initialization_options())
                async with ClientSession(*client) as session:
                    await session.initialize()
                    listed = (await session.list_tools()).tools
                group.cancel_scope.cancel()
        return listed

    try:
        listed = anyio.run(listing)
    finally:
        server.sandboxes.close()
    assert [t.name for t in listed] == domain.toolbox.names
    for t, tool in zip(listed, domain.toolbox):
        schema = t.inputSchema if hasattr(t, "inputSchema") else t.input_schema
        assert t.description == tool.description
        assert schema == json.loads(json.dumps(tool.parameters)), tool.name


# ----------------------------------------------------------------- the task kit

def test_check_env_on_every_id(domain):
    for spec in domain.envs:
        e = gym.make(spec.id)
        assert e.spec.max_episode_steps == spec.max_episode_steps
        check_env(e.unwrapped, skip_render_check=True)
        e.close()


def test_test_sets_are_frozen_and_splits_disjoint(domain, tasks):
    for spec in domain.envs:  # every conversation id
        e = gym.make(spec.id).unwrapped
        assert compute_test_set_digest(e) == spec.test_set_digest, (
            f"{spec.id}'s frozen test set changed: if that is intended, release a new version "
            "of the id and declare its digest in the domain's EnvSpec (Domain.envs; "
            f"python -m tool_gym.envs.frozen {spec.id} prints it)")
        test = [e.make_task(f"test-{n}") for n in range(TEST_SET_SIZE)]
        train_users = {e.make_task(f"train-{n}").user_id for n in range(TEST_SET_SIZE)}
        assert all(t.split == "test" for t in test), spec.id
        assert train_users and not {t.user_id for t in test} & train_users, spec.id
        e.close()
    for split, found in tasks.items():
        assert all(t.split == split == domain.tasks.split_of(t.user_id) for t in found)


def test_tasks_are_deterministic_serializable_and_proven(env, domain, tasks):
    db = template(domain.name, 0).reader()
    for task in tasks["train"][:20] + tasks["test"][:20]:
        assert env.make_task(task.id) == task
    for task in tasks["train"] + tasks["test"]:
        assert Task.from_dict(json.loads(json.dumps(task.to_dict()))).digest == task.digest
        for d in [task.identity] + [d for c in task.constraints for d in c.refs.values()]:
            assert d.proof is not None and d.proof.holds(db), (task.id, d)
        for c in task.constraints:  # a need that holds already would be no need
            if c.writes:
                assert not domain.tasks.check(db, task, c, []), (task.id, c.type)
        targets = [w for c in task.constraints for w in c.writes]
        assert len(targets) == len(set(targets)), task.id


def test_the_kit_knows_whose_data_every_write_changes(domain, tasks):
    kit, db = domain.tasks, template(domain.name, 0).reader()
    writes = {t.name for t in domain.toolbox if t.category is Category.WRITE}
    if isinstance(kit, BaseTaskKit):  # the shared kit declares an owner rule per write tool
        assert writes <= set(kit.owners), writes - set(kit.owners)
    for task in tasks["train"]:
        for call in (s.call for s in kit.plan(task) if s.call and s.call.name in writes):
            assert kit.owner(db, call.name, call.arguments) == task.user_id, (task.id, call)


def test_plans_authenticate_and_propose_every_write(domain, tasks):
    kit = domain.tasks
    for task in tasks["train"] + tasks["test"][:50]:
        steps = kit.plan(task)
        assert steps[0].call is None and steps[0].say, task.id
        assert steps[1].call.name in kit.auth_tools, task.id
        proposals = [s.say for s in steps if s.expects_confirmation]
        writes = [c for c in task.constraints if c.writes]
        assert len(proposals) == len(writes), task.id
        for text, c in zip(proposals, writes):
            assert c.confirm_terms and mentions_all(text, c.confirm_terms), (text, c)
        said = " ".join(s.say for s in steps if s.say).replace(",", "").lower()
        for c in task.constraints:
            if c.type.startswith("refuse_"):  # nothing to write; the answer says why not
                assert not c.writes and c.answer and (c.expect or c.refusal), (task.id, c.type)
            if c.answer is not None:
                assert c.answer.replace(",", "").lower() in said, (task.id, c.type, c.answer)
            if c.say:  # a need that carries its own words says it in two to four ways
                assert 2 <= len(c.say) <= 4, (task.id, c.type)
            if c.solution:  # ... and its own solution: propose, write, report
                assert all("Shall I proceed?" in s.say for s in c.solution
                           if s.expects_confirmation), (task.id, c.type)
                assert not c.writes or c.solution[-1].say.startswith("Done."), (task.id, c.type)


def _ids(db) -> set[str]:
    """Every string id of the database: the values of its ``id`` and ``*_id`` columns."""
    found = set()
    for (table,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'"):
        for column in db.execute(f"PRAGMA table_info('{table}')"):
            if column[1] == "id" or column[1].endswith("_id"):
                found |= {v for (v,) in db.execute(f'SELECT DISTINCT "{column[1]}" FROM '
                                                   f'"{table}"') if isinstance(v, str)}
    return found


def _known(value) -> set[str]:
    """The strings a description's fields tell the user (which they may say)."""
    if isinstance(value, dict):
        return set().union(*map(_known, value.values())) if value else set()
    if isinstance(value, (list, tuple)):
        return set().union(*map(_known, value)) if value else set()
    return {value} if isinstance(value, str) else set()


def test_the_users_words_name_no_hidden_id(domain, tasks):
    kit, ids = domain.tasks, _ids(template(domain.name, 0).reader())
    for task in tasks["train"] + tasks["test"][:50]:
        rng = np.random.default_rng(0)
        known = _known(task.identity.fields) | _known(
            [d.fields for c in task.constraints for d in c.refs.values()])
        texts = [kit.identify(task, rng), task.identity.text]
        for c in task.constraints:
            texts += [kit.opening(task, c, rng), kit.request(task, c, rng), *c.say]
            texts += [d.text for d in c.refs.values()]
        for text in texts:
            leaked = (set(re.findall(r"#?\w[\w-]*", text)) & ids) - known
            assert not leaked, (task.id, text, leaked)


def test_answers_hold_only_once_said_after_the_reads(domain, tasks):
    kit, db = domain.tasks, template(domain.name, 0).reader()
    for task in tasks["train"][:30]:
        unread = [s.say for s in kit.plan(task) if s.say]  # the plan's words, nothing read
        for c in task.constraints:
            if c.answer is not None:
                assert not kit.check(db, task, c, ["Hello."]), (task.id, c.type)
                assert not kit.check(db, task, c, unread), (task.id, c.type)


def test_plans_use_only_ids_that_tools_revealed_or_the_user_said(domain, tasks):
    kit, ids = domain.tasks, _ids(template(domain.name, 0).reader())
    for task in tasks["train"][:30]:
        seen = " ".join(_known([task.identity.fields] + [
            d.fields for c in task.constraints for d in c.refs.values()]))
        with Sandbox(template(domain.name, 0)) as box:
            for step in kit.plan(task):
                if step.call is None:
                    continue
                named = _known(step.call.arguments) & ids
                assert all(i in seen for i in named), (task.id, step.call, named)
                result = box.call(step.call.name, step.call.arguments)
                assert result.ok, (task.id, step.call.name, result.content)
                seen += result.content


def test_needs_with_their_own_solution_hold_in_any_order(domain, tasks):
    """The writes of a task's needs, in the plan's order or reversed, meet every need."""
    multi = [t for t in tasks["train"] if len(t.constraints) > 1
             and all(c.solution for c in t.constraints)][:20]
    for task in multi:
        for order in (task.constraints, task.constraints[::-1]):
            with Sandbox(template(domain.name, 0)) as box:
                for step in (s for c in order for s in c.solution if s.call):
                    if domain.toolbox[step.call.name].category is Category.WRITE:
                        result = box.call(step.call.name, step.call.arguments)
                        assert result.ok, (task.id, result.content)
                for c in task.constraints:
                    assert all(e.holds(box.db) for e in c.expect), (task.id, c.type)


def test_oracle_wins_train_and_test_tasks(env):
    for split, episodes in (("train", 20), ("test", 10)):
        for i in range(episodes):
            record = run_episode(env, OraclePolicy(), seed=i, task_id=f"{split}-{i}")
            assert record["success"] and record["score"] == 1.0, (split, i, record)
            assert record["violations"] == 0 and record["redundant_writes"] == 0, record
            if i % 5 == 0:
                assert env.sandbox.check_integrity() == []


@pytest.mark.parametrize("domain_name, kind", TYPES)
def test_each_constraint_type_forced_is_won_by_the_oracle(domain_name, kind):
    env = ToolEnv(domain_name, constraint_types=(kind,))
    for split in ("train", "test"):
        record = run_episode(env, OraclePolicy(), seed=0, task_id=f"{split}-0")
        assert {c["type"] for c in record["constraints"]} == {kind}, record
        assert record["success"] and record["score"] == 1.0, record
        assert record["violations"] == 0 and record["redundant_writes"] == 0, record
    assert env.sandbox.check_integrity() == []
    env.close()


def test_random_policy_scores_near_zero(env):
    scores = [run_episode(env, RandomPolicy(seed=i), seed=i, task_id=f"train-{i}")["score"]
              for i in range(30)]
    assert np.mean(scores) < 0.05
