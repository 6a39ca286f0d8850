"""Payments: a P2P and merchant payments wallet. Users with wallets in several currencies,
funding sources, contacts, payments to people and merchants, payment requests, refunds,
disputes, top-ups, withdrawals and currency conversions.
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
    envs=(EnvSpec("ToolPayments-v0", 100,
                  "05bb3f1726c17b9de4335f97bd2112214d3b68a0a312618afb78d6d0a3405b11"),),
)
