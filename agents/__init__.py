"""Agents for tool_gym environments: the ``Policy`` protocol and reference policies."""

from .oracle import OraclePolicy
from .policy import Policy, RandomPolicy, load_policy

__all__ = ["Policy", "RandomPolicy", "OraclePolicy", "load_policy"]
