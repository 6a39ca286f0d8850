"""Banking: customers with checking and savings accounts, debit cards, transactions,
payees, transfers, scheduled payments and card disputes.
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
    envs=(EnvSpec("ToolBanking-v0", 100,
                  "bc5dd3e13f9ba2d4f33b1c91eb3c258c606aa204ae1ab04e19a293ee7c3a5c87"),),
)
