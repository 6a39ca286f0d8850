"""Calendar: a company's shared calendar (people, calendars, rooms, meetings with
attendees and RSVPs, recurring series expanded as rows, reminders).
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
    envs=(EnvSpec("ToolCalendar-v0", 100,
                  "194bbca4e267352b45d3b2c1c142e91d992dfd26ab902a93f793bc70f4c7caee"),),
)
