"""Retail chain: a chain of stores as its staff see them: stores and their employees,
per-store inventory and prices, stock transfers between stores, purchase orders to
suppliers, shifts and customers' store-pickup orders.
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
    envs=(EnvSpec("ToolRetailChain-v0", 100,
                  "9e639e9e87770fc3554eb4d4eee3f78533bbed77063da57aa513f00cfe0c5450"),),
)
