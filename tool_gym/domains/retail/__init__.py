"""Retail: a tau2-bench ``retail`` compatible online store (users, orders, products)."""

from __future__ import annotations

from ...core.domain import Domain, EnvSpec
from . import io, tools
from .generate import generate
from .invariants import invariants
from .tasks import TASKS

DOMAIN = Domain.from_package(
    __name__, tools=tools, io=io, generate=generate, invariants=invariants, tasks=TASKS,
    exporters={"tau2": io.export}, canonical="tau2",
    transfer_tool="transfer_to_human_agents",
    envs=(EnvSpec("ToolRetail-v0", 100,
                  "28aadf24b39968a2cdd966ca208e8cf1a4925cdaa32bf39a37d2c20868e1d8fe"),),
)
