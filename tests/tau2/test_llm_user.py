"""Tau2LLMUser: tau2's own LLM user, driven by a fake backend."""

from __future__ import annotations

import numpy as np
import pytest

from tool_gym.core.task_model import Description, Task
from tool_gym.core.users import READ_LIMIT, STOP, TRANSFER, has_stop_marker
from tool_gym.llm.base import BackendError
from tool_gym.tau2.llm_user import (
    AGENT_GREETING,
    GUIDELINES,
    Tau2LLMUser,
    render_scenario,
)

SCENARIO = {
    "persona": "A busy nurse who types short messages.",
    "instructions": {
        "domain": "retail",
        "reason_for_call": "You want to exchange the mechanical keyboard in order #W2378156.",
        "known_info": "You are Yusuf Rossi in zip code 19122.",
        "unknown_info": "You do not remember your email address.",
        "task_instructions": "You are detail-oriented.\nAsk for everything in one go.",
    },
}


class FakeBackend:
    """Records every call and answers with scripted replies (the last one repeats)."""

    def __init__(self, *replies: str):
        self.replies = list(replies) or ["Hello."]
        self.calls: list[tuple[list[dict], dict]] = []

    def generate(self, messages, **kw):
        self.calls.append(([dict(m) for m in messages], kw))
        return self.replies[min(len(self.calls) - 1, len(self.replies) - 1)]


class BrokenBackend(FakeBackend):
    def __init__(self, error: Exception):
        super().__init__()
        self.error = error

    def generate(self, messages, **kw):
        self.calls.append((messages, kw))
        raise self.error


def make_user(backend, scenario=SCENARIO, seed=0, **kw) -> Tau2LLMUser:
    task = Task(id="0", domain="retail", split="test", user_id="u",
                identity=Description("user", "", {}, "u"), constraints=(),
                persona={"tau2": scenario})
    return Tau2LLMUser(task, None, None, np.random.default_rng(seed), backend, **kw)


def test_system_prompt_holds_the_whole_scenario():
    backend = FakeBackend("Hi, I want to exchange a keyboard.")
    make_user(backend).opening()
    system = backend.calls[0][0][0]
    assert system["role"] == "system"
    text = system["content"]
    assert text.startswith(GUIDELINES)
    instructions = SCENARIO["instructions"]
    for part in (SCENARIO["persona"], instructions["reason_for_call"],
                 instructions["known_info"], instructions["unknown_info"],
                 "You are detail-oriented.", "Ask for everything in one go."):
        assert part in text
    for label in ("Persona:", "Domain: retail", "Reason for call:", "Known info:",
                  "Unknown info:", "Task instructions:", "<scenario>", "</scenario>"):
        assert label in text
    for marker in ("###STOP###", "###TRANSFER###", "###OUT-OF-SCOPE###"):
        assert marker in text


def test_absent_parts_are_left_out():
    scenario = {"persona": None, "instructions": {**SCENARIO["instructions"],
                                                  "unknown_info": None}}
    text = render_scenario(scenario)
    assert "Persona:" not in text and "Unknown info:" not in text
    assert "Known info:" in text


def test_rendering_matches_tau2():
    tasks = pytest.importorskip("tau2.data_model.tasks")
    for scenario in (SCENARIO, {"persona": None, "instructions": {
            **SCENARIO["instructions"], "known_info": None}}):
        assert render_scenario(scenario) == str(tasks.UserScenario(**scenario))


def test_roles_are_flipped():
    backend = FakeBackend("I need to exchange a keyboard.", "Yusuf Rossi, 19122.")
    user = make_user(backend)
    first = user.opening()
    second = user.respond("Sure, what is your name and zip code?")
    assert (first, second) == ("I need to exchange a keyboard.", "Yusuf Rossi, 19122.")
    first_call = backend.calls[0][0]
    assert first_call[1:] == [{"role": "user", "content": AGENT_GREETING}]
    last_call = backend.calls[1][0]
    assert [m["role"] for m in last_call] == ["system", "user", "assistant", "user"]
    assert last_call[2]["content"] == first
    assert last_call[3]["content"] == "Sure, what is your name and zip code?"


def test_seeds_are_deterministic_and_temperature_is_sent():
    def seeds(seed, **kw):
        backend = FakeBackend("Hi.", "More.", "Again.")
        user = make_user(backend, seed=seed, **kw)
        user.opening()
        user.respond("How can I help?")
        user.respond("Anything else?")
        return [kw["seed"] for _, kw in backend.calls], backend.calls[0][1]

    same, kw = seeds(7)
    assert same == seeds(7)[0]
    assert len(set(same)) == 3
    assert same != seeds(8)[0]
    assert kw["temperature"] == 0.0
    assert seeds(7, temperature=0.5)[1]["temperature"] == 0.5


def test_stop_marker_ends_the_conversation():
    backend = FakeBackend("I want an exchange.", "Thanks, that's all. ###STOP###")
    user = make_user(backend)
    user.opening()
    assert not user.done
    reply = user.respond("Done, the exchange is placed.")
    assert user.done and STOP in reply
    assert user.respond("Anything else?") == STOP  # no further model call
    assert len(backend.calls) == 2
    assert user.report() == {"backend_errors": 0, "turns": 2}


def test_transfer_marker_ends_the_conversation():
    user = make_user(FakeBackend(f"Okay. {TRANSFER}"))
    assert has_stop_marker(user.opening()) and user.done


def test_max_turns_ends_with_stop():
    backend = FakeBackend("Still here.")
    user = make_user(backend, max_turns=3)
    user.opening()
    assert not user.respond("One moment.").endswith(STOP)
    assert not user.done
    last = user.respond("Another moment.")
    assert user.done and last == f"Still here. {STOP}"
    assert user.report()["turns"] == 3 and len(backend.calls) == 3


@pytest.mark.parametrize("error", [BackendError("HTTP 500"), RuntimeError("boom"),
                                   TimeoutError()])
def test_backend_error_ends_with_stop_and_is_counted(error):
    user = make_user(BrokenBackend(error))
    reply = user.opening()
    assert reply == STOP and user.done
    assert user.report() == {"backend_errors": 1, "turns": 1}


def test_backend_error_mid_conversation():
    class FailsSecond(FakeBackend):
        def generate(self, messages, **kw):
            if self.calls:
                raise BackendError("down")
            return super().generate(messages, **kw)

    user = make_user(FailsSecond("Hello, I need help."))
    assert user.opening() == "Hello, I need help." and not user.done
    assert user.respond("Sure.") == STOP and user.done
    assert user.report() == {"backend_errors": 1, "turns": 2}


def test_long_agent_message_is_cut():
    backend = FakeBackend("Hi.", "Too long.")
    user = make_user(backend)
    user.opening()
    user.respond("x" * 100_000)
    seen = backend.calls[1][0][-1]["content"]
    assert len(seen) == READ_LIMIT == 4000


def test_reasoning_is_not_sent_to_the_agent():
    user = make_user(FakeBackend("<think>I should say ###STOP### later</think>Hi there."))
    assert user.opening() == "Hi there." and not user.done


def test_task_without_scenario_is_refused():
    task = Task(id="0", domain="retail", split="test", user_id="u",
                identity=Description("user", "", {}, "u"), constraints=(), persona={})
    with pytest.raises(ValueError):
        Tau2LLMUser(task, None, None, np.random.default_rng(0), FakeBackend())


@pytest.mark.parametrize("domain", ["retail", "airline"])
def test_every_shared_tau2_scenario_renders(domain):
    import json
    from pathlib import Path

    try:
        import tau2.data_model.tasks as tau2_tasks
    except ImportError:
        tau2_tasks = None
    path = Path(f"/work/shared/data/tau2/{domain}/tasks.json")
    if not path.exists():
        pytest.skip(f"tau2 {domain} data absent")
    for raw in json.loads(path.read_text()):
        scenario = raw["user_scenario"]
        backend = FakeBackend("Hi.")
        make_user(backend, scenario=scenario).opening()
        text = backend.calls[0][0][0]["content"]
        for key in ("reason_for_call", "known_info", "unknown_info", "task_instructions"):
            for line in (scenario["instructions"].get(key) or "").splitlines():
                assert line.strip() in text
        if tau2_tasks is not None:
            assert render_scenario(scenario) == str(tau2_tasks.UserScenario(**scenario))
