"""Airline: a tau2-bench ``airline`` compatible flight booking service (flights, users,
reservations).
"""

from __future__ import annotations

from ...core.domain import Domain, EnvSpec
from . import io, tools
from .invariants import invariants
from .tasks import TASKS


def generate(seed: int) -> dict:
    """A seeded airline database in the native structure (imported lazily)."""
    from .generate import generate as _generate

    return _generate(seed)


DOMAIN = Domain.from_package(
    __name__, tools=tools, io=io, generate=generate, invariants=invariants, tasks=TASKS,
    exporters={"tau2": io.export, "tau-bench": io.export_v1}, canonical="tau2",
    transfer_tool="transfer_to_human_agents",
    envs=(EnvSpec("ToolAirline-v0", 100,
                  "e2358e0444959c215b34d8dad8b4be9dffaafaa5a753163aa646609b69886e7d"),),
)
