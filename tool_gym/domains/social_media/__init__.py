"""Social media: accounts with privacy settings, follows and follow requests to private
accounts, blocks and mutes, posts with likes and comments, direct messages and reports.
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
    envs=(EnvSpec("ToolSocialMedia-v0", 100,
                  "5355531cd50627da74d2fe00f0448e6bc5e1b697bc98798aa70fb15873533b27"),),
)
