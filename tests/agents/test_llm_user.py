"""LLMUser: a model plays the user, guardrails in code keep it honest, the scripted user
answers when it fails; ToolEnv(user="llm") reports the counts."""

import gymnasium as gym
import numpy as np
import pytest

import tool_gym  # noqa: F401
from tool_gym.agents import OraclePolicy
from tool_gym.agents.privileged import OracleAccess
from tool_gym.core.llm_user import GUARDRAILS, LLMUser
from tool_gym.core.users import STOP


class Scripted:
    """Returns the reply the scripted user suggests (a perfect paraphraser)."""

    def __init__(self):
        self.calls = []

    def generate(self, messages, **kw):
        self.calls.append((messages, kw))
        return kw["context"]["suggested"]


class Fixed:
    """Cycles through fixed replies; raises when a reply is an exception."""

    def __init__(self, *replies):
        self.replies, self.calls = replies, 0

    def generate(self, messages, **kw):
        reply = self.replies[self.calls % len(self.replies)]
        self.calls += 1
        if isinstance(reply, Exception):
            raise reply
        return reply


def episode(backend, task_id="test-1", seed=0, **env_kwargs):
    env = gym.make("ToolRetail-v0", user="llm", user_llm=backend, **env_kwargs)
    observation, info = env.reset(seed=seed, options={"task_id": task_id})
    policy = OraclePolicy()
    policy.reset_privileged(observation, info, OracleAccess.from_env(env))
    while True:
        observation, _, terminated, truncated, info = env.step(policy.act(observation, info))
        if terminated or truncated:
            return info


def retail_user(backend, task_id="test-1"):
    env = gym.make("ToolRetail-v0")
    env.reset(seed=0, options={"task_id": task_id})
    base = env.unwrapped
    return LLMUser(base.task, base.kit, base.sandbox.db, np.random.default_rng(0), backend,
                   max_attempts=2), base.task


def hidden_order_id(task):
    for c in task.constraints:
        ref = c.refs.get("order")
        if ref is not None and "order_id" not in ref.fields:
            return c.args["order_id"]
    pytest.skip("no task constraint with a described order")


def test_template_backend_solves_what_the_scripted_user_solves():
    for task_id in ("test-0", "test-1", "test-2"):
        info = episode("template", task_id)
        assert info["verification"]["success"], task_id
        report = info["user_report"]
        assert report["llm_messages"] == report["messages"] > 0
        assert report["fallback"] == 0 and all(report[g] == 0 for g in GUARDRAILS)


def test_the_model_sees_needs_in_words_never_hidden_ids():
    backend = Scripted()
    info = episode(backend, "test-1")
    assert info["verification"]["success"]
    user, task = retail_user(Scripted())
    secret = hidden_order_id(task)
    system = backend.calls[0][0][0]["content"]
    assert secret not in system and "###STOP###" in system
    # one need at a time: the first prompt names only the first need's words
    first = backend.calls[0][1]["context"]["need"]
    assert first is not None and secret not in first


def test_each_guardrail_fires():
    user, task = retail_user(Scripted())
    secret = hidden_order_id(task)
    assert user.check(f"My order is {secret}.", "ok") == "leaked_id"
    assert user.check("It is order #W9999999, I think.", "ok") == "leaked_id"
    assert user.check("My account is user_4711.", "ok") == "leaked_id"
    assert user.check("Also, I want to exchange my lamp.", "ok") == "new_need" or \
        any("exchange" in c.type for c in task.constraints)
    assert user.check(f"Thanks, bye! {STOP}", "ok") == "early_stop"
    assert user.check("Yes, please go ahead.", "No.", decision="decline") == \
        "wrong_confirmation"
    assert user.check("Hmm, let me think.", "Yes.", decision="confirm") == \
        "missed_confirmation"
    identity = " and ".join(str(v) for v in task.identity.fields.values())
    assert user.check("I'd rather not say.", identity, decision="identify") == \
        "missed_identity"
    assert user.check(f"Sure: {identity}.", identity, decision="identify") is None
    assert user.check("   ", "ok") == "empty"
    assert user.check("Thanks, that sounds right.", "ok") is None
    # what the agent said, the user may repeat
    user.respond(f"I found your order {secret}; is that the one?")
    assert user.check(f"Yes, {secret} is the one.", "ok") in (None, "missed_confirmation")


def test_identity_guardrail_asks_only_for_the_fields_asked():
    user, task = retail_user(Scripted(), task_id="test-0")  # identity: name and zip code
    fields = task.identity.fields
    assert set(fields) == {"first_name", "last_name", "zip"}
    scripted = user.script.respond("What is your zip code?")
    assert fields["zip"] in scripted and fields["first_name"] not in scripted
    # the model answered the field that was asked: no fallback
    assert user.check(f"It's {fields['zip']}.", scripted, decision="identify") is None
    # ... but a reply without it still fires
    assert user.check(f"I'm {fields['first_name']} {fields['last_name']}.", scripted,
                      decision="identify") == "missed_identity"
    # asked for everything, the model must give everything
    full = user.script.respond("Please give me your name and zip code.")
    assert all(str(v) in full for v in fields.values())
    assert user.check(f"It's {fields['zip']}.", full, decision="identify") == "missed_identity"
    assert user.check(f"{fields['first_name']} {fields['last_name']}, {fields['zip']}.", full,
                      decision="identify") is None


def test_failures_are_resampled_then_the_script_answers():
    info = episode(Fixed("It is order #W0000001.", f"Bye {STOP}"))
    report = info["user_report"]
    assert info["verification"]["success"]  # the scripted fallback keeps the task solvable
    assert report["fallback"] >= report["messages"] - 1  # only a final goodbye may pass
    assert report["leaked_id"] > 0 and report["early_stop"] > 0
    fired = sum(report[g] for g in GUARDRAILS)
    assert report["resamples"] == fired - report["fallback"]  # resampled, then the script
    broken = episode(Fixed(RuntimeError("server down")))
    assert broken["user_report"]["backend_error"] == broken["user_report"]["messages"]
    assert broken["verification"]["success"]


def test_llm_user_needs_a_backend():
    with pytest.raises(ValueError, match="user_llm"):
        gym.make("ToolRetail-v0", user="llm")
    with pytest.raises(ValueError):
        gym.make("ToolRetail-v0", user="nobody")


def test_a_real_model_as_the_user(tiny):
    """The tiny (random) model writes the user's messages: most fail the guardrails and are
    replaced, any that pass are harmless, and the oracle still solves the tasks."""
    from tool_gym.llm.transformers_backend import TransformersBackend

    model, tokenizer = tiny
    backend = TransformersBackend(model, tokenizer, max_new_tokens=24, temperature=1.0)
    info = episode(backend, "test-0")
    report = info["user_report"]
    assert info["verification"]["success"], report
    assert report["messages"] == report["llm_messages"] + report["fallback"]
