"""Agents for tool_gym environments: the ``Policy`` protocol and reference policies.

The model-backed pieces (``TransformersPolicy``, ``OpenAIPolicy``, the batched rollouts,
SFT and GRPO) load on first use, so that ``import tool_gym.agents`` never imports ``torch``.
"""

from importlib import import_module

from .oracle import OraclePolicy
from .policy import Policy, RandomPolicy, load_policy
from .privileged import OracleAccess, PrivilegedPolicy

_LAZY = {
    "TransformersPolicy": ".transformers_policy",
    "OpenAIPolicy": ".openai_policy",
    "BatchedRollouts": ".batched_rollouts",
    "RolloutConfig": ".batched_rollouts",
    "Trajectory": ".batched_rollouts",
    "build_tiny_model": ".tiny",
}

__all__ = ["Policy", "RandomPolicy", "OraclePolicy", "OracleAccess", "PrivilegedPolicy",
           "load_policy", *_LAZY]


def __getattr__(name: str):
    if name in _LAZY:
        value = getattr(import_module(_LAZY[name], __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
