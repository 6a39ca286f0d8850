"""Video meetings: organizations' users hosting meetings with invitees, settings, breakout
rooms, conference rooms and waiting rooms, and sharing the cloud recordings of past meetings.
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
    envs=(EnvSpec("ToolVideoMeeting-v0", 100,
                  "d63dcdb69a735e32a90cda4f1306707f2f63f45a4885098185c359dbf20a67ab"),),
)
