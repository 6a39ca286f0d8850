"""Team chat: a company's chat workspaces (people, workspaces, public and private
channels, memberships with roles, messages with threads, reactions, pins, invites, status).
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
    envs=(EnvSpec("ToolTeamChat-v0", 100,
                  "76004510e3d44c418232374aaa31bac5343405869e537604d0cedff7eff913fc"),),
)
