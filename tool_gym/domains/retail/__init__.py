"""Retail: a tau2-bench ``retail`` compatible online store (users, orders, products).

``DOMAIN`` is what the core needs: the schema, the 16 tools, the generator of seeded
databases, the importer of tau2's ``db.json`` and the tau2 exporter that defines the
canonical state (and so ``Sandbox.state_hash``), the hidden-intent task kit and the
transfer tool.
"""

from __future__ import annotations

from pathlib import Path

from ...core.domain import Domain
from ...core.tools import Toolbox
from . import tau2, tools
from .generate import generate
from .invariants import invariants
from .tasks import TASKS

_HERE = Path(__file__).resolve().parent


DOMAIN = Domain(
    name="retail",
    schema=(_HERE / "schema.sql").read_text(encoding="utf-8"),
    toolbox=Toolbox.from_module(tools),
    generate=generate,
    load=tau2.load,
    read=tau2.read,
    exporters={"tau2": tau2.export},
    canonical="tau2",
    invariants=invariants,
    policy=(_HERE / "policy.md").read_text(encoding="utf-8"),
    tasks=TASKS,
    transfer_tool="transfer_to_human_agents",
)

__all__ = ["DOMAIN"]
