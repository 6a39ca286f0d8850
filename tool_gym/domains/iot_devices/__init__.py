"""Smart home devices: users, the homes they own or share (owner, admin, member, guest),
rooms, thermostats, locks, lights, cameras and smart plugs with their state, device events,
energy readings, scenes and automations.
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
    envs=(EnvSpec("ToolIotDevices-v0", 100, "832fd2233788c1bbf680d3c5a74636a8c9af03d1e8f24013f2a87927472a71c6"),),
)
