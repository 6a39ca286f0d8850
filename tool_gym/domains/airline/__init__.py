"""Airline: a tau2-bench ``airline`` compatible flight booking service (flights, users,
reservations).

``DOMAIN`` is what the core needs: the schema, the 14 tools, the generator of seeded
databases, the importer of tau-bench's three files or tau2's ``db.json``, and the
exporters (``tau2``, which defines the canonical state and so ``Sandbox.state_hash``, and
``tau-bench``), the hidden-intent task kit and the transfer tool.
"""

from __future__ import annotations

from pathlib import Path

from ...core.domain import Domain
from ...core.tools import Toolbox
from . import io, tools
from .invariants import invariants
from .tasks import TASKS

_HERE = Path(__file__).resolve().parent


def generate(seed: int) -> dict:
    """A seeded airline database in the native structure (imported lazily)."""
    from .generate import generate as _generate

    return _generate(seed)


DOMAIN = Domain(
    name="airline",
    schema=(_HERE / "schema.sql").read_text(encoding="utf-8"),
    toolbox=Toolbox.from_module(tools),
    generate=generate,
    load=io.load,
    read=io.read,
    exporters={"tau2": io.export, "tau-bench": io.export_v1},
    canonical="tau2",
    invariants=invariants,
    policy=(_HERE / "policy.md").read_text(encoding="utf-8"),
    tasks=TASKS,
    transfer_tool="transfer_to_human_agents",
)

__all__ = ["DOMAIN"]
