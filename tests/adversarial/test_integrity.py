"""The acceptance gate of reward integrity (issue #11): over every conversation id, no
adversarial policy wins more than 1% of the test tasks or out-earns the oracle (on
average; a failing episode never earns as much as the oracle's success), and every style
agent (the oracle's calls, its own wording) wins at least 97%.

100 test tasks per (id, policy) under the ``cove`` and ``binary`` presets; the costlier
adversaries (long messages, many reads) play :data:`FEWER` tasks unless marked ``slow``,
and the ``sparse`` and ``prove`` presets are ``slow`` too (``pytest -m "not slow"`` leaves
them out). ``benchmarks/integrity.py`` prints
the whole table.
"""

from __future__ import annotations

import pytest

import tool_gym
from tool_gym.agents.adversarial import ADVERSARIES
from tool_gym.agents.styles import STYLES

TASKS = 100
#: Tasks of the unmarked cases of the costlier adversaries (long episodes of many reads
#: or long messages); their 100-task cases are marked ``slow``.
FEWER = {"spam_distinct": 50, "write_everything": 50, "spray": 25, "status_dump": 25}
MAX_WIN_RATE = 0.01
MIN_STYLE_WIN_RATE = 0.97


def _cases():
    for env_id in tool_gym.CONVERSATION_IDS:
        for name in ADVERSARIES:
            for preset in ("cove", "binary", "sparse", "prove"):
                slow = preset in ("sparse", "prove")
                tasks = TASKS if slow else FEWER.get(name, TASKS)
                marks = [pytest.mark.slow] if slow else []
                yield pytest.param(env_id, name, preset, tasks, marks=marks,
                                   id=f"{env_id}-{name}-{preset}-{tasks}")
                if tasks < TASKS:
                    yield pytest.param(env_id, name, preset, TASKS, marks=[pytest.mark.slow],
                                       id=f"{env_id}-{name}-{preset}-{TASKS}")


@pytest.mark.parametrize("env_id,name,preset,tasks", list(_cases()))
def test_adversary_wins_nothing_and_never_out_earns_the_oracle(play, env_id, name, preset,
                                                               tasks):
    oracle = play(env_id, preset, "oracle", tasks)
    adversary = play(env_id, preset, name, tasks)
    wins = sum(success for success, _ in adversary)
    assert wins <= int(MAX_WIN_RATE * tasks), \
        f"{name} wins {wins}/{tasks} tasks of {env_id} under {preset}"
    mean = sum(ret for _, ret in adversary) / tasks
    oracle_mean = sum(ret for _, ret in oracle) / tasks
    assert mean < oracle_mean, \
        f"{name} earns {mean:.3f} on average >= oracle {oracle_mean:.3f} on {env_id} ({preset})"
    # a failing episode earns less than a successful one (a rare win of the adversary may
    # earn a little more step shaping than the oracle's, never a failure)
    for i, ((won, ret), (oracle_won, oracle_ret)) in enumerate(zip(adversary, oracle)):
        if oracle_won and not won:
            assert ret < oracle_ret, \
                f"failing {name} earns {ret:.3f} >= the oracle's {oracle_ret:.3f} on test-{i} " \
                f"of {env_id} ({preset})"


@pytest.mark.parametrize("env_id", tool_gym.CONVERSATION_IDS)
@pytest.mark.parametrize("style", list(STYLES))
def test_style_agent_wins_like_the_oracle(play, env_id, style):
    results = play(env_id, "binary", style, TASKS)
    wins = sum(success for success, _ in results)
    failed = [f"test-{i}" for i, (success, _) in enumerate(results) if not success]
    assert wins >= MIN_STYLE_WIN_RATE * TASKS, \
        f"{style} wins {wins}/{TASKS} of {env_id}; failed: {failed[:10]}"


@pytest.mark.parametrize("env_id", tool_gym.CONVERSATION_IDS)
def test_oracle_wins_every_task(play, env_id):
    results = play(env_id, "binary", "oracle", TASKS)
    failed = [f"test-{i}" for i, (success, _) in enumerate(results) if not success]
    assert not failed, f"oracle fails {failed[:10]} of {env_id}"
