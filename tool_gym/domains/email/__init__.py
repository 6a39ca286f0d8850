"""Email: a company mail service (mailboxes with folders and labels, threads, messages
with recipients and attachment metadata, drafts, contacts, filters, a block list).
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
    envs=(EnvSpec("ToolEmail-v0", 100,
                  "a230d61c4de8e5289e777ae46a101c2aeb95e0a6b311cf089a3a0bd3feb01b44"),),
)
