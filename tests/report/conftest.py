"""Small real runs of the evaluate CLI, played once for all the report's tests."""

from __future__ import annotations

import contextlib
import io

import pytest

from tests.report.runs import evaluate_run, explained_run, fabricate_run


@pytest.fixture(scope="session")
def runs(tmp_path_factory):
    """``oracle`` and ``random``: 3 tasks x 2 trials with trajectories (and the oracle's
    report through ``--report``); ``bare``: the oracle on 2 tasks without trajectories;
    ``mixed``: 24 episodes copied from both, some passed and some failed, the first one
    holding hostile agent text and tool result; ``explained``: two scripted episodes that
    fail for known reasons (:func:`tests.report.runs.explained_run`)."""
    root = tmp_path_factory.mktemp("runs")
    with contextlib.redirect_stdout(io.StringIO()):
        made = {"oracle": evaluate_run(root / "oracle", "oracle", report=True),
                "random": evaluate_run(root / "random", "random"),
                "bare": evaluate_run(root / "bare", "oracle", tasks=2, trajectories=False)}
    made["mixed"] = fabricate_run(root / "mixed", [made["oracle"], made["random"]],
                                  episodes=24, trials=3, seed=3, hostile=True)
    made["explained"] = explained_run(root / "explained")
    return made
