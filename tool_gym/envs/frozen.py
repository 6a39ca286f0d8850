"""The frozen test sets: sha256 over the digests of tasks ``test-0`` .. ``test-199``.

A test set is tied to its env version: a change to a generator, a sampler or the task
format that changes these digests must come with a new version of the id (``-v1``), so
that results on ``-v0`` stay comparable. Each domain pins its digests in ``Domain.envs``.
"""

from __future__ import annotations

import hashlib
import sys

import gymnasium as gym

from ..domains import domain_names, get_domain
from .tool_env import TEST_SET_SIZE

#: env id -> pinned digest of its test set, as the domains declare them.
TEST_SET_DIGESTS = {spec.id: spec.test_set_digest
                    for name in domain_names() for spec in get_domain(name).envs}


def compute_test_set_digest(env) -> str:
    """The digest of a conversation env's test set (what ``EnvSpec.test_set_digest`` pins).

    ``env`` is the unwrapped env, e.g. ``gym.make("ToolRetail-v0").unwrapped``.
    """
    digest = hashlib.sha256()
    for n in range(TEST_SET_SIZE):
        digest.update(env.make_task(f"test-{n}").digest.encode())
    return digest.hexdigest()


def main(argv: list[str] | None = None) -> None:
    """``python -m tool_gym.envs.frozen ENV_ID...``: print each id's test-set digest."""
    for env_id in (sys.argv[1:] if argv is None else argv):
        env = gym.make(env_id).unwrapped
        print(env_id, compute_test_set_digest(env))
        env.close()


if __name__ == "__main__":
    main()
