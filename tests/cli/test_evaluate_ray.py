"""``evaluate.py --ray`` on a local two-CPU Ray: the same files as a local run, byte for
byte; resuming (a pre-seeded file with a cut last line, or a run interrupted mid-stream)
plays only the missing episodes. Skipped when Ray is not installed.

The Ray plumbing does not depend on the domain, only on how an env is built and pickled,
so the comparison runs on one registered id per env class (entry point); determinism
across every id is ``tests/test_determinism.py``'s."""

import json

import pytest

import tool_gym
from tool_gym.cli import evaluate

ray = pytest.importorskip("ray")

FILES = ("episodes.jsonl", "summary.json", "config.json")
TASKS, TRIALS = 3, 2
#: The first registered id of each env class.
ONE_ID_PER_CLASS = list({entry: env_id for env_id, entry, *_ in
                         reversed(tool_gym.ENVIRONMENTS)}.values())[::-1]


def args(env_id, policy, out, *extra):
    return ["--env", env_id, "--policy", policy, "--split", "test", "--tasks", str(TASKS),
            "--trials", str(TRIALS), "--seed", "3", "--out", str(out), *extra]


def read(out):
    return {name: (out / name).read_bytes() for name in FILES}


@pytest.fixture(scope="module")
def local_runs(tmp_path_factory):
    """The reference: each (env id, policy) evaluated without Ray, computed once."""
    cache = {}

    def get(env_id, policy):
        if (env_id, policy) not in cache:
            out = tmp_path_factory.mktemp(f"local-{env_id}-{policy}")
            evaluate.run_command(args(env_id, policy, out))
            cache[env_id, policy] = read(out)
        return cache[env_id, policy]

    return get


def test_evaluate_starts_and_stops_its_own_local_ray(local_runs, tmp_path):
    """``--ray`` alone: evaluate.py starts a local Ray with --ray-cpus CPUs, shuts it down."""
    assert not ray.is_initialized()
    env_id = tool_gym.ENV_IDS[0]
    evaluate.run_command(args(env_id, "oracle", tmp_path, "--ray", "--ray-cpus", "2"))
    assert not ray.is_initialized()
    assert read(tmp_path) == local_runs(env_id, "oracle")


@pytest.fixture(scope="module")
def local_ray():
    """One local Ray for the rest of the module (evaluate.py reuses an initialized Ray)."""
    if not ray.is_initialized():
        ray.init(num_cpus=2, include_dashboard=False, object_store_memory=100 * 2**20,
                 log_to_driver=False)
    yield ray
    ray.shutdown()


@pytest.mark.parametrize("env_id", ONE_ID_PER_CLASS)
def test_ray_run_is_byte_identical_to_local(local_ray, local_runs, env_id, tmp_path):
    # the random policy is compared in the interrupted-run test below
    evaluate.run_command(args(env_id, "oracle", tmp_path, "--ray"))
    assert read(tmp_path) == local_runs(env_id, "oracle")
    assert local_ray.is_initialized()  # an initialized Ray is used, not shut down


def test_ray_resumes_a_preseeded_file(local_ray, local_runs, tmp_path, capsys):
    env_id = tool_gym.ENV_IDS[0]
    reference = local_runs(env_id, "oracle")
    lines = reference["episodes.jsonl"].decode().splitlines(keepends=True)
    # three finished episodes (out of order, as a Ray run appends them), one marked to show
    # it is kept rather than played again, then a line cut by a kill
    marked = json.loads(lines[4])
    marked["kept"] = True
    seeded = [lines[2], json.dumps(marked, sort_keys=True) + "\n", lines[0], lines[1][:40]]
    (tmp_path / "episodes.jsonl").write_text("".join(seeded))
    evaluate.run_command(args(env_id, "oracle", tmp_path, "--ray"))
    assert f"3 of {TASKS * TRIALS} episodes done" in capsys.readouterr().out
    result = read(tmp_path)
    got = result["episodes.jsonl"].decode().splitlines(keepends=True)
    assert json.loads(got[4]) == marked  # not replayed
    got[4] = lines[4]
    assert "".join(got).encode() == reference["episodes.jsonl"]
    assert result["summary.json"] == reference["summary.json"]


def test_ray_run_interrupted_mid_stream_then_resumed(local_ray, local_runs, tmp_path,
                                                     monkeypatch):
    env_id = tool_gym.ENV_IDS[0]
    real_append = evaluate.append_episode
    appended = []

    def append_then_kill(path, record):
        if len(appended) == 2:
            raise KeyboardInterrupt
        real_append(path, record)
        appended.append((record["task_id"], record["trial"]))

    monkeypatch.setattr(evaluate, "append_episode", append_then_kill)
    with pytest.raises(KeyboardInterrupt):
        evaluate.run_command(args(env_id, "random", tmp_path, "--ray"))
    lines = (tmp_path / "episodes.jsonl").read_text().splitlines()
    assert [(json.loads(x)["task_id"], json.loads(x)["trial"]) for x in lines] == appended
    monkeypatch.setattr(evaluate, "append_episode", real_append)
    evaluate.run_command(args(env_id, "random", tmp_path, "--ray"))
    assert read(tmp_path) == local_runs(env_id, "random")
