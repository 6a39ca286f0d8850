"""Issue tracker: users, projects and members, sprints, labels, issues with a status
workflow, comments, links and history.

``DOMAIN`` is what the core needs: the schema, the tools, the seeded generator, the JSON
import/export of the native tables (the canonical state), the invariants, the policy and
the hidden-intent task kit.
"""

from __future__ import annotations

from pathlib import Path

from ...core.domain import Domain
from ...core.tools import Toolbox
from . import io, tools
from .generate import generate
from .invariants import invariants
from .tasks import TASKS

_HERE = Path(__file__).resolve().parent

DOMAIN = Domain(
    name="issue_tracker",
    schema=(_HERE / "schema.sql").read_text(encoding="utf-8"),
    toolbox=Toolbox.from_module(tools),
    generate=generate,
    load=io.load,
    read=io.read,
    exporters={"json": io.export},
    canonical="json",
    invariants=invariants,
    policy=(_HERE / "policy.md").read_text(encoding="utf-8"),
    tasks=TASKS,
    transfer_tool="transfer_to_human_agents",
)

__all__ = ["DOMAIN"]
