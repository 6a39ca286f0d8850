"""Episodes on a Ray cluster: a pool of actors, each holding one env and one policy.

``tool-gym-evaluate --ray [ADDRESS]`` uses this module; nothing else in the project needs Ray,
and Ray is imported only when a function here runs (``pip install "tool_gym[distributed]"``).

Each actor builds its env (``gym.make``) and policy (``tool_gym.agents.load_policy``; a
``module:Class`` one in a process of its own, ``tool_gym.agents.isolation``) once and then
plays the episodes it is sent with :func:`tool_gym.agents.episode_loop.run_episode`, the same loop as a
local evaluation. An episode is a pure function of (env id, env kwargs, policy, seed,
task id), so which actor plays it, in which order, and whether it is retried after a
worker died change nothing in its record. :func:`play` yields the records as they finish
(``ray.wait``), so the caller can append each one to its resumable file at once.

On a remote cluster (``ADDRESS`` given), the driver's ``tool_gym`` package is shipped to
the workers (``runtime_env`` ``py_modules``), so the workers run the code of the driver. A
policy given as ``module:Class`` must be importable on the workers too: the driver's
working directory is put on each worker's path (enough for a local Ray).
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import Any, Iterator, Sequence

#: One job: (task id, trial, reset seed).
Job = tuple[str, int, int]

INSTALL_HINT = "Ray is not installed: pip install 'tool_gym[distributed]' (or 'ray>=2.9')"


def import_ray():
    """``ray``, or a ``SystemExit`` that says how to install it."""
    try:
        import ray
    except ImportError as error:  # pragma: no cover - depends on the environment
        raise SystemExit(f"{INSTALL_HINT} ({error})") from error
    return ray


@contextlib.contextmanager
def session(address: str | None = None, num_cpus: int | None = None) -> Iterator[Any]:
    """Ray, connected for the duration of the ``with`` block.

    - Ray already initialized in this process (``ray.init`` called by the caller): used
      as it is and left running.
    - ``address`` ``None`` or ``"local"``: a new local Ray with ``num_cpus`` CPUs (default:
      all of this machine's), no dashboard; shut down at the end.
    - any other ``address`` (``"auto"``, ``"HOST:PORT"``, ``"ray://HOST:PORT"``): connects
      to that cluster, shipping ``tool_gym`` to its workers; disconnects at
      the end. ``num_cpus`` then only caps the number of workers (see :func:`play`).
    """
    ray = import_ray()
    if ray.is_initialized():
        yield ray
        return
    if address in (None, "", "local"):
        ray.init(num_cpus=num_cpus or os.cpu_count() or 1, include_dashboard=False)
    else:
        import tool_gym

        modules = [str(Path(tool_gym.__file__).resolve().parent)]
        ray.init(address=address, runtime_env={"py_modules": modules})
    try:
        yield ray
    finally:
        ray.shutdown()


class EpisodeWorker:
    """One env and one policy, kept for every episode sent to this worker (a Ray actor)."""

    def __init__(self, env_id: str, env_kwargs: dict, policy: str,
                 policy_kwargs: dict | None = None, search_path: str | None = None):
        import sys

        import gymnasium as gym

        import tool_gym  # noqa: F401  (registers the environments)
        from tool_gym.agents.isolation import load_policy_isolated
        from tool_gym.agents.privileged import privileged_spec

        if search_path and os.path.isdir(search_path) and search_path not in sys.path:
            sys.path.insert(0, search_path)  # the driver's directory, for module:Class
        self.env = gym.make(env_id, **env_kwargs)
        # a module:Class policy: in a process of its own
        self.policy = load_policy_isolated(policy, **(policy_kwargs or {}))
        self.privileged = privileged_spec(policy)  # from the spec, never from the object

    def run(self, jobs: Sequence[Job]) -> list[tuple[str, int, int, dict]]:
        """Play ``jobs`` in order; ``(task_id, trial, seed, record)`` for each."""
        from tool_gym.agents.episode_loop import run_episode

        return [(task_id, trial, seed, run_episode(self.env, self.policy, seed, task_id,
                                                   privileged=self.privileged))
                for task_id, trial, seed in jobs]

    def ready(self) -> bool:
        return True


def _chunks(jobs: Sequence[Job], size: int) -> list[list[Job]]:
    return [list(jobs[i:i + size]) for i in range(0, len(jobs), size)]


def default_workers(ray: Any) -> int:
    """One worker per CPU of the cluster."""
    cpus = ray.cluster_resources().get("CPU", 1)
    return max(1, int(cpus))


def play(env_id: str, env_kwargs: dict, policy: str, jobs: Sequence[Job],
         workers: int | None = None, chunk: int | None = None,
         policy_kwargs: dict | None = None) -> Iterator[tuple[str, int, int, dict]]:
    """Play ``jobs`` on the connected Ray (see :func:`session`); yield
    ``(task_id, trial, seed, record)`` as each batch finishes, in completion order.

    ``workers`` actors (default: one per CPU of the cluster, at most one per batch) each
    hold one env and one policy (``policy_kwargs`` go to its constructor, as in
    :func:`tool_gym.agents.policy.load_policy`); ``chunk`` episodes go to an actor per call (default:
    small batches, at most 16, so that results stream back steadily). Each actor has up to
    two batches queued so it never waits for the driver. An actor that dies is restarted
    and its batch retried: a record depends on its seed only. Leaving the generator early
    (an exception, a ``KeyboardInterrupt``) kills the actors.
    """
    jobs = list(jobs)
    if not jobs:
        return
    ray = import_ray()
    workers = workers or default_workers(ray)
    if chunk is None:
        chunk = max(1, min(16, len(jobs) // (workers * 8)))
    batches = _chunks(jobs, chunk)
    workers = max(1, min(workers, len(batches)))
    actor_class = ray.remote(num_cpus=1, max_restarts=2, max_task_retries=2)(EpisodeWorker)
    actors = [actor_class.remote(env_id, env_kwargs, policy, policy_kwargs, os.getcwd())
              for _ in range(workers)]
    pending: dict[Any, Any] = {}  # object ref -> actor
    queue = iter(batches)
    try:
        for _ in range(2):
            for actor in actors:
                batch = next(queue, None)
                if batch is not None:
                    pending[actor.run.remote(batch)] = actor
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1)
            for ref in ready:
                actor = pending.pop(ref)
                results = ray.get(ref)  # re-raises an episode's exception here
                batch = next(queue, None)
                if batch is not None:
                    pending[actor.run.remote(batch)] = actor
                yield from results
    finally:
        for actor in actors:
            with contextlib.suppress(Exception):
                ray.kill(actor)
