"""Budget: a personal budgeting app. Accounts, spending and income categories, monthly budgets,
transactions and their categories, recurring bills and savings goals.
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
    envs=(EnvSpec("ToolBudget-v0", 100,
                  "4e57aa34fba284dc78d42164c7aef2c9b82dee736d90fde303645f155f7927b1"),),
)
