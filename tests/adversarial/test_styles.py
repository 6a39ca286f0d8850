"""The style agents: exactly the oracle's tool calls, each message in its own style."""

from __future__ import annotations

import gymnasium as gym
import pytest

import tool_gym
from tool_gym.agents.oracle import OraclePolicy
from tool_gym.agents.privileged import OracleAccess, is_privileged
from tool_gym.agents.episode_loop import run_episode
from tool_gym.agents.styles import (CONFIRMATIONS, STYLES, FormatsPolicy, MarkdownPolicy, NamesPolicy,
                           TersePolicy, VerbosePolicy)


def _run(env, policy, task_id):
    record = run_episode(env, policy, seed=0, task_id=task_id, privileged=True)
    base = env.unwrapped
    calls = [(c["name"], c["arguments"]) for c in base.calls]
    return record, calls, list(base.agent_messages)


@pytest.mark.parametrize("env_id", tool_gym.CONVERSATION_IDS)
@pytest.mark.parametrize("style", list(STYLES))
def test_same_calls_as_the_oracle_other_words(env_id, style):
    env = gym.make(env_id, split="test")
    changed = 0
    for i in range(3):
        oracle, oracle_calls, oracle_words = _run(env, OraclePolicy(), f"test-{i}")
        styled, calls, words = _run(env, STYLES[style](), f"test-{i}")
        # the same calls as far as both went (a user who declines a styled proposal
        # ends the comparison early, which the integrity gate counts)
        n = min(len(calls), len(oracle_calls))
        assert calls[:n] == oracle_calls[:n]
        if styled["success"]:
            assert calls == oracle_calls
        changed += sum(a != b for a, b in zip(words, oracle_words))
    assert changed > 0


def test_style_agents_are_not_privileged_by_type():
    # only explicit grants start them: evaluate.py never grants a module:Class policy
    assert not any(is_privileged(cls()) for cls in STYLES.values())
    with pytest.raises(TypeError):
        TersePolicy().reset("Hi", {"task_id": "test-0"})


def _started(cls, env_id="ToolRetail-v0", task_id="test-1", **kw):
    env = gym.make(env_id, split="test")
    observation, info = env.reset(seed=0, options={"task_id": task_id})
    policy = cls(**kw)
    policy.reset_privileged(observation, info, OracleAccess.from_env(env))
    return policy


def test_confirmation_questions_vary():
    asked = set()
    env = gym.make("ToolBanking-v0", split="test")
    for i in range(12):
        _, _, words = _run(env, VerbosePolicy(), f"test-{i}")
        asked.update(q for q in CONFIRMATIONS for w in words if w.endswith(q))
    assert len(asked) >= 3


def test_formats():
    policy = _started(FormatsPolicy)
    text = policy.render("Flight on 1983-11-14 for 3 passengers costs $1202 and was cancelled;"
                         " it cannot be changed.", "")
    assert "November 14, 1983" in text and "1983-11-14" not in text
    assert "$1,202.00" in text and "three passengers" in text
    assert "canceled" in text and "can't" in text
    short = {policy.render("on 2024-05-03", "") for _ in range(20)}
    assert short <= {"on May 3, 2024", "on May 3"} and short


def test_markdown_terse_verbose():
    md = _started(MarkdownPolicy).render("I will cancel order #W1234567 for $12.50. Then done.",
                                         "Sound good?")
    assert md.startswith("### ") and "\n- " in md and "**#W1234567**" in md
    assert "**$12.50**" in md and md.endswith("Sound good?")
    md = _started(MarkdownPolicy).render("The file is report_v2.docx; mail a.b7@x.com.", "")
    assert "**report_v2.docx**" in md and "**a.b7@x.com**" in md  # bold whole values
    text = "I'd be happy to help. First, could you please provide your email?"
    terse = _started(TersePolicy).render(text, "")
    assert len(terse) < len(text) and "email" in terse
    verbose = _started(VerbosePolicy).render(text, "Sound good?")
    assert len(verbose) > len(text) + 40 and text in verbose


def test_names_replace_ids_by_what_tool_results_showed():
    policy = _started(NamesPolicy)
    policy._harvest('{"order_id": "#W5392998", "items": [{"name": "Tennis Racket", '
                    '"item_id": "3418584966", "options": {"weight": "300 g"}}]}')
    text = policy.render("I will cancel order #W5392998 and item 3418584966.", "")
    assert text == ("I will cancel the order with the Tennis Racket and the Tennis Racket "
                    "(weight: 300 g).")


@pytest.mark.parametrize("style", list(STYLES))
def test_wording_deterministic_by_episode(style):
    env = gym.make("ToolAirline-v0", split="test")
    policy = STYLES[style]()
    first = _run(env, policy, "test-3")[2]
    _run(env, policy, "test-4")  # an earlier episode changes nothing
    assert _run(env, policy, "test-3")[2] == first
    assert _run(env, STYLES[style](seed=1), "test-3")[1] == _run(env, policy, "test-3")[1]
