"""Filesystem: a cloud drive held entirely in SQLite (users, folders and files, versions,
shares, trash).
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
    envs=(EnvSpec("ToolFilesystem-v0", 100,
                  "bb7ea2dd01b21523450977a4a5f2b8f3c15e7f18bdcc46036ac48338b0ca79f6"),),
)
