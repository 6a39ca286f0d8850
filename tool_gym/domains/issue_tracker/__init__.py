"""Issue tracker: users, projects and members, sprints, labels, issues with a status
workflow, comments, links and history.
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
    envs=(EnvSpec("ToolIssueTracker-v0", 100,
                  "2f39a37e84f84845dd9d6d67bf058e80a139c769d28f6b28de559645bff2b831"),),
)
