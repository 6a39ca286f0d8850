"""Vehicle: a connected-car app. Owners and their vehicles (locks, climate, battery, charge
limits and charging schedules, navigation), trips, service appointments at dealers, digital
keys shared with others, alerts and public charging sessions.
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
    envs=(EnvSpec("ToolVehicle-v0", 100,
                  "bad3742e036f564b840d3d33ccb074657cfe86517f35db69e7c0bd9c8fd0202a"),),
)
