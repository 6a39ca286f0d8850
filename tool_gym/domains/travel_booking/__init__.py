"""Travel booking: customers of a travel agency, their trips (itineraries) with hotel stays,
car rentals and activities, the travellers on each trip and their loyalty points.
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
    envs=(EnvSpec("ToolTravelBooking-v0", 100,
                  "8d1e4bffe9de7e184952ef5cdfbe88e0e2d828a8ab6620ebcf6fd6484d720f30"),),
)
