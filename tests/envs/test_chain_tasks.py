"""Chain tasks (``task_source="chains"``) and PROVE's reward (``reward="prove"``) in ToolEnv."""

from __future__ import annotations

import pytest
from gymnasium.utils.env_checker import check_env

from tool_gym.agents.oracle import OraclePolicy
from tool_gym.agents.privileged import OracleAccess
from tool_gym.core.actions import ToolCall
from tool_gym.domains import domain_names, get_domain
from tool_gym.envs.tool_env import ToolEnv

WITH_KIT = [d for d in sorted(domain_names()) if get_domain(d).tasks is not None]


def play(env: ToolEnv, task_id: str, seed: int = 0) -> dict:
    policy = OraclePolicy()
    obs, info = env.reset(seed=seed, options={"task_id": task_id})
    policy.reset_privileged(obs, info, OracleAccess.from_env(env))
    total = 0.0
    while True:
        obs, reward, terminated, truncated, info = env.step(policy.act(obs, info))
        total += reward
        if terminated or truncated:
            info["return"] = total
            return info


@pytest.mark.parametrize("domain", WITH_KIT)
def test_oracle_scores_one_on_chain_tasks(domain):
    env = ToolEnv(domain, task_source="chains", reward="prove")
    modes = set()
    for split, n in (("train", 16), ("test", 6)):
        for i in range(n):
            info = play(env, f"{split}-{i}", seed=i)
            v = info["verification"]
            assert v["score"] == 1.0 and v["success"], (split, i, v, env.render)
            assert v["prove"]["normalized"] == pytest.approx(1.0), (split, i, v["prove"])
            assert info["return"] == pytest.approx(1.5)  # success + 0.5 x normalized PROVE
            assert env.task.constraints[0].type == "chain"
            modes.add(env.task.constraints[0].args["mode"])
    assert modes >= {"complete"}
    env.close()


@pytest.mark.parametrize("domain", WITH_KIT)
def test_check_env_with_chains(domain):
    env = ToolEnv(domain, task_source="chains")
    check_env(env)
    env.close()


@pytest.mark.parametrize("domain", WITH_KIT)
def test_every_mode_and_perturbation_is_solvable(domain):
    forced = [{"p_complete": 0.0, "p_missing": 1.0, "p_minimal": 0.0},
              {"p_complete": 0.0, "p_missing": 0.0, "p_minimal": 1.0},
              {"p_unanswerable": 1.0, "p_distractors": 1.0, "p_strip_enums": 1.0}]
    for config in forced:
        env = ToolEnv(domain, task_source="chains", reward="prove", chain_config=config)
        for i in range(3):
            info = play(env, f"train-{i}")
            assert info["verification"]["success"], (config, i)
            assert info["verification"]["prove"]["normalized"] == pytest.approx(1.0)
        env.close()


def test_task_tool_list_distractors_hidden_and_enums():
    env = ToolEnv("retail", task_source="chains",
                  chain_config={"p_distractors": 1.0, "p_strip_enums": 1.0,
                                "p_unanswerable": 1.0})
    own = set(env.domain.toolbox.names)
    for i in range(12):
        obs, info = env.reset(seed=i, options={"task_id": f"train-{i}"})
        c = env.task.constraints[0]
        names = [t["function"]["name"] for t in info["tools"]]
        foreign = [n for n in names if n not in own]
        assert 3 <= len(foreign) <= 8 or len(domain_names()) == 1
        assert not any("enum" in str(t) for t in info["tools"])
        hidden = c.args["hidden"]
        assert not set(hidden) & set(names)
        if foreign:
            _, reward, _, _, step = env.step(ToolCall(foreign[0], {}).to_hermes())
            assert env.calls[-1]["stage"] in (1, 2) and not env.calls[-1]["ok"]
        if hidden:
            env.step(ToolCall(hidden[0], {}).to_hermes())
            assert env.calls[-1]["stage"] == 0 and "unknown tool" in env.calls[-1]["content"]
            assert env.ground_truth() == []
            break
    else:
        pytest.fail("no task hid a tool")
    env.close()


def test_unanswerable_abstention_scores():
    env = ToolEnv("retail", task_source="chains", reward="prove",
                  chain_config={"p_unanswerable": 1.0})
    info = play(env, "train-0")
    assert info["verification"]["prove"]["abstention"] == 1.0
    assert info["verification"]["prove"]["ground_truth"] == 0
    assert env.calls == []
    # answering with a call instead costs alpha and the task stays unsatisfied
    env.reset(seed=0, options={"task_id": "train-0"})
    env.step(ToolCall("list_all_product_types", {}).to_hermes())
    _, reward, *_, info = env.step("Sure, done!")
    while "verification" not in info:
        _, reward, term, trunc, info = env.step("Sure, done!")
    assert info["verification"]["prove"]["abstention"] == 0.0
    assert info["verification"]["prove"]["total"] < 0
    env.close()


@pytest.mark.parametrize("domain", WITH_KIT)
def test_prove_reward_on_constraint_tasks(domain):
    env = ToolEnv(domain, reward="prove")
    for i in range(4):
        info = play(env, f"train-{i}")
        prove = info["verification"]["prove"]
        assert info["verification"]["success"]
        assert prove["normalized"] == pytest.approx(1.0), (i, prove)
        truth = env.ground_truth()
        assert truth and all(all(j < k for j in g.after) for k, g in enumerate(truth))
    env.close()


def test_prove_components_reflect_a_bad_episode():
    env = ToolEnv("retail", task_source="chains", reward="prove")
    env.reset(seed=0, options={"task_id": "train-1"})
    for _ in range(3):
        env.step(ToolCall("get_order_details", {"order_id": "#W0"}).to_hermes())
    _, reward, term, trunc, info = env.step(ToolCall("transfer_to_human_agents",
                                                     {"summary": "help"}).to_hermes())
    assert term
    prove = info["verification"]["prove"]
    assert prove["validity"] == pytest.approx((3 * 2 / 3 + 1) / 4)
    assert prove["coverage"] == 0.0 and prove["calls"] == 4
    assert reward == pytest.approx(0.5 * min(1.0, max(0.0, prove["normalized"])))


def test_task_source_is_checked_and_default_unchanged():
    with pytest.raises(ValueError):
        ToolEnv("retail", task_source="nope")
    env = ToolEnv("retail")
    obs, info = env.reset(seed=3)
    assert info["tools"] == env.domain.toolbox.schemas
    assert env.task.constraints[0].type != "chain"
    env.close()


@pytest.mark.parametrize("domain", ["banking", "email", "retail", "team_chat"])
def test_adversaries_win_no_chain_task(domain):
    """Requests in the user's words and the user's answers give nothing away: spam, spray,
    catch-all, echo, refusal, transfer and write-everything policies win no chain task of
    the env's defaults."""
    from tool_gym.agents.adversarial import ADVERSARIES
    from tool_gym.agents.episode_loop import run_episode

    env = ToolEnv(domain, task_source="chains")
    for name, policy in ADVERSARIES.items():
        for i in range(6):
            record = run_episode(env, policy(), seed=i, task_id=f"test-{i}", max_steps=80)
            assert not record["success"], (name, i)
    env.close()


def test_unanswerable_tasks_are_opt_in():
    """An always-refusing policy wins exactly the unanswerable share (no check can tell it
    from a real abstainer on those tasks), so the env draws none unless asked: over 200
    tasks of the defaults it wins nothing, with PROVE's 5% it wins the unanswerable ones."""
    from tool_gym.agents.adversarial import RefusalPolicy
    from tool_gym.agents.episode_loop import run_episode

    for config, low, high in ((None, 0, 0), ({"p_unanswerable": 0.05}, 1, 30)):
        env = ToolEnv("banking", task_source="chains", chain_config=config)
        wins = 0
        for i in range(200):
            env.reset(seed=i, options={"task_id": f"test-{i}"})
            unanswerable = bool(env.task.constraints[0].args.get("unanswerable"))
            record = run_episode(env, RefusalPolicy(), seed=i, task_id=f"test-{i}",
                                 max_steps=20)
            assert record["success"] <= unanswerable
            wins += record["success"]
        assert low <= wins <= high, (config, wins)
        env.close()
