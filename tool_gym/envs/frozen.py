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


def main(argv: list[str] | None = None) -> int:
    """``python -m tool_gym.envs.frozen ENV_ID...``: print each id's test-set digest."""
    ids = sys.argv[1:] if argv is None else argv
    unknown = [i for i in ids if i not in TEST_SET_DIGESTS]
    if not ids or unknown:
        what = f"unknown conversation id {unknown[0]!r}" if unknown else "no env id given"
        print(f"python -m tool_gym.envs.frozen: error: {what}; use one of "
              f"{', '.join(TEST_SET_DIGESTS)}", file=sys.stderr)
        return 2
    for env_id in ids:
        env = gym.make(env_id).unwrapped
        print(env_id, compute_test_set_digest(env))
        env.close()
    return 0

if __name__ == "__main__":
    sys.exit(main())
