"""CRM: sales reps (the users), companies, contacts, leads, opportunities with stages and
amounts, activities and follow-up tasks.
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
    envs=(EnvSpec("ToolCrm-v0", 100,
                  "4b0839afd07e214f32f78d4ec1ec0b6eaee9c58bf32cc60f163374fd89f8bfce"),),
)
