"""Marketplace: a peer-to-peer marketplace where members sell second-hand items and buy
from each other: listings, offers and counter-offers, purchases, shipping labels, returns,
feedback, saved searches and messages between members.
"""

from __future__ import annotations

from ...core.domain import Domain, EnvSpec
from . import io, tools
from .generate import generate
from .invariants import invariants
from .tasks import TASKS

DOMAIN = Domain.from_package(
    __name__, tools=tools, io=io, generate=generate, invariants=invariants, tasks=TASKS,
    transfer_tool="transfer_to_human_agents",
    envs=(EnvSpec("ToolMarketplace-v0", 100,
                  "8142862c9e380356480db47aff5ee8ef0aebd5f8e98e2166b708b998b317582e"),),
)
