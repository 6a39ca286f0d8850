"""Maps: places of six cities with categories, opening hours and ratings; users' saved lists,
reviews, reports of wrong place data, routes by travel mode, and trip plans with timed stops.
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
    envs=(EnvSpec("ToolMaps-v0", 100,
                  "0ad896e40e72246fbaf7a850a03337273faa46f57824b8ee1ded93ca9d5d1b9d"),),
)
