"""Shopping: an online storefront account with a cart, checkout and coupons, orders and their
cancellation, returns of delivered items, product reviews, a wishlist and shipping
addresses.
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
    envs=(EnvSpec("ToolShopping-v0", 100,
                  "fce5d0c0bd34584dc56b217132a4f485457a9a6a5bffc34cd2c768a237629c40"),),
)
