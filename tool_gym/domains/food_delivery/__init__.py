"""Food delivery: customers with addresses and payment methods, restaurants with menus,
carts, orders with statuses, refunds, promo codes and ratings.
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
    envs=(EnvSpec("ToolFoodDelivery-v0", 100,
                  "b79548508d4e11a55ce7dd0076e83a51bad237f33f1881a311b8229b0a7b171f"),),
)
