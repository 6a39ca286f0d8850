"""64 environments of every id at once, 32 in threads and 32 in two worker processes,
each playing write-heavy episodes whose steps interleave with the others' (a barrier
between steps in the threads, round-robin stepping inside each process).

No cross-talk: every episode's tool results and final database equal those of the same
calls replayed alone on a fresh sandbox; the calls write values that name their env, so
a write that leaked into another env would change that env's state. Templates unchanged:
the template digest is the same before, during (in each worker) and after.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import threading
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

import gymnasium as gym
import numpy as np
import pytest

import tool_gym
from tool_gym.core.actions import ToolCall
from tool_gym.core.sandbox import Sandbox, template
from tool_gym.core.tools import Category
from tool_gym.envs.spaces import sample_values

THREADS = 32
PROCESSES, PER_PROCESS_JOB = 2, 8  # 4 jobs of 8 envs on 2 worker processes: 32 envs
EPISODES = 2
STEPS = 30  # tool calls per episode
ENV_KWARGS = {"max_errors": 10**6, "max_turns": 10**6}


def fingerprint(box: Sandbox) -> str:
    """sha256 of the database's bytes (equal bytes: equal state, and cheaper than the
    canonical export); the canonical state hash on Python 3.10 (no ``serialize``)."""
    if hasattr(box.db, "serialize"):
        return hashlib.sha256(box.db.serialize()).hexdigest()
    return box.state_hash()  # pragma: no cover - Python 3.10


def scripted_calls(env, index: int, episode: int) -> list[tuple[str, dict]]:
    """The episode's calls: the oracle's calls for its task and writes with real ids and
    values naming this env (``env<index>-...``), shuffled, transfer excluded."""
    base = env.unwrapped
    rng = np.random.default_rng([index, episode])
    domain = base.domain
    plan = [(s.call.name, dict(s.call.arguments)) for s in base.kit.plan(base.task)
            if s.call is not None and s.call.name != domain.transfer_tool]
    tools = [t for t in domain.toolbox if t.category is Category.WRITE]
    names = sorted({p for t in tools for p in t.parameters["properties"]})
    pools = sample_values(base.template.reader(), names)
    writes = []
    for k in range(STEPS):
        tool = tools[int(rng.integers(len(tools)))]
        args = {}
        for name, schema in tool.parameters["properties"].items():
            pool = pools.get(name) or pools.get(name.rstrip("s"))
            if schema.get("enum"):
                args[name] = schema["enum"][int(rng.integers(len(schema["enum"])))]
            elif schema.get("type") == "integer":
                args[name] = int(rng.integers(0, 4))
            elif schema.get("type") == "array":
                args[name] = [pool[int(rng.integers(len(pool)))] for _ in range(2)] if pool else []
            elif pool:
                args[name] = pool[int(rng.integers(len(pool)))]
            else:
                args[name] = f"env{index}-{name}-{episode}-{k}"
        writes.append((tool.name, args))
    calls = plan + writes
    order = rng.permutation(len(calls))
    return [calls[i] for i in order][:STEPS]


class Player:
    """One env playing its episodes one step at a time."""

    def __init__(self, env_id: str, index: int):
        self.env = gym.make(env_id, **ENV_KWARGS)
        self.index = index
        self.episodes: list[dict] = []
        self.calls: list = []

    def start(self, episode: int) -> None:
        self.env.reset(seed=self.index * 100 + episode,
                      options={"task_id": f"train-{self.index * EPISODES + episode}"})
        self.calls = scripted_calls(self.env, self.index, episode)
        self.episodes.append({"task_id": self.env.unwrapped.task.id, "log": []})

    def step(self, k: int) -> None:
        name, args = self.calls[k]
        observation, _, terminated, truncated, _ = self.env.step(ToolCall(name, args))
        assert not (terminated or truncated), (self.index, name, observation[:200])
        self.episodes[-1]["log"].append((name, args, observation))

    def finish(self) -> None:
        self.episodes[-1]["image"] = fingerprint(self.env.unwrapped.sandbox)


def play_in_threads(env_id: str) -> list[list[dict]]:
    barrier = threading.Barrier(THREADS)

    def run(index: int) -> list[dict]:
        player = Player(env_id, index)
        for episode in range(EPISODES):
            player.start(episode)
            for k in range(STEPS):
                barrier.wait()  # every thread takes step k before any takes step k + 1
                player.step(k)
            player.finish()
        return player.episodes

    with ThreadPoolExecutor(THREADS) as pool:
        return list(pool.map(run, range(THREADS)))


def play_round_robin(env_id: str, indices: list[int]) -> tuple[list[list[dict]], str, str]:
    """In a worker process: the envs of ``indices`` step by step in turn."""
    digest_before = template(**template_key(env_id)).digest
    players = [Player(env_id, i) for i in indices]
    for episode in range(EPISODES):
        for player in players:
            player.start(episode)
        for k in range(STEPS):
            for player in players:
                player.step(k)
        for player in players:
            player.finish()
    digest_after = players[0].env.unwrapped.template.digest
    return [p.episodes for p in players], digest_before, digest_after


def template_key(env_id: str) -> dict:
    spec = gym.spec(env_id)
    return {"domain": spec.kwargs["domain"], "seed": spec.kwargs.get("db_seed", 0),
            "data": spec.kwargs.get("data")}


def replay(env_id: str, index: int, episodes: list[dict]) -> int:
    """Replay each episode's calls alone on a fresh sandbox; the number of writes that
    succeeded."""
    tpl = template(**template_key(env_id))
    toolbox = tpl.domain.toolbox
    max_length = gym.make(env_id).unwrapped.observation_space.max_length
    ok_writes = 0
    for episode in episodes:
        with Sandbox(tpl) as box:
            for name, args, observation in episode["log"]:
                result = box.call(name, args)
                expected = result.content
                if len(expected) > max_length:
                    expected = expected[: max_length - 20] + " ...[truncated]"
                assert observation == expected, (env_id, index, episode["task_id"], name, args)
                ok_writes += result.ok and toolbox[name].category is Category.WRITE
            image = fingerprint(box)
        assert episode["image"] == image, (env_id, index, episode["task_id"])
    return ok_writes


@pytest.fixture(scope="module")
def processes():
    # spawn: a clean interpreter per worker (no inherited threads or connections)
    with ProcessPoolExecutor(PROCESSES, mp_context=multiprocessing.get_context("spawn")) as pool:
        yield pool


@pytest.mark.parametrize("env_id", tool_gym.ENV_IDS)
def test_64_interleaved_environments_do_not_interfere(env_id, processes):
    probe = gym.make(env_id)
    probe.reset(seed=0)
    if getattr(probe.unwrapped, "sandbox", None) is None:
        pytest.skip(f"{env_id} keeps no database across steps (single-turn: each answer runs "
                    f"on a freshly reset sandbox)")
    tpl = template(**template_key(env_id))
    digest = tpl.digest
    jobs = [list(range(THREADS + j * PER_PROCESS_JOB, THREADS + (j + 1) * PER_PROCESS_JOB))
            for j in range(THREADS // PER_PROCESS_JOB)]
    futures = [processes.submit(play_round_robin, env_id, indices) for indices in jobs]
    results = dict(enumerate(play_in_threads(env_id)))  # meanwhile, the 32 threads
    for indices, future in zip(jobs, futures):
        episodes, before, after = future.result()
        assert before == after == digest  # the same template in every process, unchanged
        results.update(zip(indices, episodes))
    assert sorted(results) == list(range(2 * THREADS))
    assert tpl.digest == digest

    ok_writes = {index: replay(env_id, index, episodes) for index, episodes in results.items()}
    assert sum(ok_writes.values()) >= 2 * THREADS  # write-heavy indeed
    assert sum(n > 0 for n in ok_writes.values()) >= THREADS
    images = {e["image"] for episodes in results.values() for e in episodes}
    assert len(images) > THREADS  # the envs really ended in different states
    assert tpl.digest == digest
    if tpl.image is not None:  # a fresh sandbox still starts from the same bytes
        with Sandbox(tpl) as fresh:
            assert fresh.db.serialize() == tpl.image
