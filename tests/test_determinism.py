"""Two ``evaluate.py`` runs with the same seed write byte-identical reports, for every
registered id and for the oracle and the random policy.

The two runs are separate interpreters with different ``PYTHONHASHSEED`` values (set
and dict orders of strings, object ids and everything else that differs between
processes must not leak into a report), started at the same time into different
directories. Each interpreter evaluates every id in turn (tiny settings: 3 test tasks x 2
trials per policy) and records, per id, whether its runs finished.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import tool_gym

ROOT = Path(__file__).resolve().parents[1]
POLICIES = ("oracle", "random")
FILES = ("episodes.jsonl", "summary.json", "config.json")
SETTINGS = ["--split", "test", "--tasks", "3", "--trials", "2", "--seed", "11"]

SCRIPT = """
import json, sys, traceback
from tool_gym.cli import evaluate
out, ids, policies, settings = sys.argv[1], json.loads(sys.argv[2]), json.loads(sys.argv[3]), json.loads(sys.argv[4])
status = {}
for env_id in ids:
    try:
        for policy in policies:
            evaluate.run_command([*settings, "--env", env_id, "--policy", policy,
                                  "--out", f"{out}/{env_id}/{policy}"])
        status[env_id] = "ok"
    except BaseException:
        status[env_id] = traceback.format_exc()[-3000:]
with open(f"{out}/status.json", "w") as f:
    json.dump(status, f)
"""


def start(out: Path, hash_seed: str) -> subprocess.Popen:
    env = dict(os.environ, PYTHONHASHSEED=hash_seed, PYTHONPATH=os.pathsep.join(
        [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]))
    out.mkdir(parents=True)
    return subprocess.Popen(
        [sys.executable, "-c", SCRIPT, str(out), json.dumps(tool_gym.ENV_IDS),
         json.dumps(POLICIES), json.dumps(SETTINGS)],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


@pytest.fixture(scope="module")
def two_runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("determinism")
    outs = [root / "a", root / "b"]
    runs = [start(out, seed) for out, seed in zip(outs, ("1", "2"))]
    for run in runs:
        output, _ = run.communicate(timeout=600)
        assert run.returncode == 0, output[-3000:]
    return outs, [json.loads((out / "status.json").read_text()) for out in outs]


@pytest.mark.parametrize("env_id", tool_gym.ENV_IDS)
def test_two_runs_are_byte_identical(env_id, two_runs):
    outs, statuses = two_runs
    for status in statuses:
        assert status[env_id] == "ok", status[env_id]
    for policy in POLICIES:
        for name in FILES:
            first, second = ((out / env_id / policy / name).read_bytes() for out in outs)
            assert first, (policy, name)
            assert first == second, (env_id, policy, name)
        lines = (outs[0] / env_id / policy / "episodes.jsonl").read_bytes().splitlines()
        assert len(lines) == 3 * 2
