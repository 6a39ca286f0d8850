"""The description of a domain that the core needs, and the table of known domains."""

from __future__ import annotations

import importlib
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping

from .tools import Toolbox

Exporter = Callable[[sqlite3.Connection], Any]


@dataclass(frozen=True)
class Domain:
    """Everything the core needs to know about a domain.

    Attributes:
        name: short name (``"retail"``).
        schema: SQL script that creates the tables.
        toolbox: the domain's tools.
        generate: ``seed -> data`` in the domain's native format (what ``load`` reads).
        load: writes native ``data`` into an empty database made from ``schema``.
        read: reads native data from a user-supplied path (public benchmark files).
        exporters: named exports of the whole state; ``canonical`` names the one that
            defines ``state_hash``.
        invariants: ``db -> list of problems``; empty when the domain's rules hold.
        policy: the policy text the agent must follow.
        tasks: the domain's :class:`~tool_gym.core.tasks.TaskKit` (hidden-intent tasks).
        transfer_tool: the tool that hands the conversation to a human (ends an episode).
    """

    name: str
    schema: str
    toolbox: Toolbox
    generate: Callable[[int], Any]
    load: Callable[[sqlite3.Connection, Any], None]
    read: Callable[[Path], Any]
    exporters: Mapping[str, Exporter] = field(default_factory=dict)
    canonical: str | None = None
    invariants: Callable[[sqlite3.Connection], list[str]] = lambda db: []
    policy: str = ""
    tasks: Any = None
    transfer_tool: str | None = None


#: Short name -> module that defines ``DOMAIN``. One line per domain.
DOMAINS: dict[str, str] = {
    "retail": "tool_gym.domains.retail",
    "airline": "tool_gym.domains.airline",
    "banking": "tool_gym.domains.banking",
    "calendar": "tool_gym.domains.calendar",
    "crm": "tool_gym.domains.crm",
    "email": "tool_gym.domains.email",
    "filesystem": "tool_gym.domains.filesystem",
    "food_delivery": "tool_gym.domains.food_delivery",
    "issue_tracker": "tool_gym.domains.issue_tracker",
    "team_chat": "tool_gym.domains.team_chat",
}


def get_domain(name: str) -> Domain:
    """The :class:`Domain` registered under ``name``."""
    if name not in DOMAINS:
        raise KeyError(f"unknown domain {name!r}; known: {', '.join(sorted(DOMAINS))}")
    return importlib.import_module(DOMAINS[name]).DOMAIN
