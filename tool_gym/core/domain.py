"""The description of a domain that the core needs (:class:`Domain`, :class:`EnvSpec`).

The core names no domain: names are resolved through the registry that
:mod:`tool_gym.domains` installs with :func:`use_registry`.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from types import ModuleType
from typing import Any, Callable, Mapping, Protocol

from .task_model import TaskKit
from .tools import Toolbox

Exporter = Callable[[sqlite3.Connection], Any]


class DomainIO(Protocol):
    """A domain's native data format: what :meth:`Domain.from_package` takes as ``io``."""

    def load(self, db: sqlite3.Connection, data: Any) -> None: ...

    def read(self, path: Path) -> Any: ...

    def export(self, db: sqlite3.Connection) -> Any: ...


@dataclass(frozen=True)
class EnvSpec:
    """A conversation env id of a domain (``ToolEnv`` with ``domain=<name>``).

    Attributes:
        id: the Gymnasium id, versioned (``"ToolRetail-v0"``).
        max_episode_steps: the time limit of an episode.
        test_set_digest: sha256 over the digests of tasks ``test-0`` .. ``test-199``
            (:func:`tool_gym.envs.frozen.compute_test_set_digest`); pins the frozen test set.
    """

    id: str
    max_episode_steps: int
    test_set_digest: str


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
        tasks: the domain's task kit (hidden-intent tasks).
        transfer_tool: the tool that hands the conversation to a human (ends an episode).
        envs: the env ids this domain registers.
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
    tasks: TaskKit | None = None
    transfer_tool: str | None = None
    envs: tuple[EnvSpec, ...] = ()

    @classmethod
    def from_package(cls, package: str, *, tools: ModuleType, io: DomainIO,
                     generate: Callable[[int], Any],
                     invariants: Callable[[sqlite3.Connection], list[str]],
                     tasks: TaskKit | None, envs: tuple[EnvSpec, ...] = (),
                     transfer_tool: str | None = None,
                     exporters: Mapping[str, Exporter] | None = None,
                     canonical: str = "json") -> Domain:
        """The domain of ``package`` (its ``__name__``): named after its last component,
        with ``schema.sql`` and ``policy.md`` read from the package and the ``@tool``
        functions of ``tools``. ``exporters`` defaults to ``{"json": io.export}``."""
        files = resources.files(package)
        return cls(
            name=package.rpartition(".")[2],
            schema=files.joinpath("schema.sql").read_text(encoding="utf-8"),
            toolbox=Toolbox.from_module(tools),
            generate=generate,
            load=io.load,
            read=io.read,
            exporters={"json": io.export} if exporters is None else exporters,
            canonical=canonical,
            invariants=invariants,
            policy=files.joinpath("policy.md").read_text(encoding="utf-8"),
            tasks=tasks,
            transfer_tool=transfer_tool,
            envs=envs,
        )


@dataclass(frozen=True)
class _Registry:
    lookup: Callable[[str], Domain]
    names: Callable[[], tuple[str, ...]]


_registry: list[_Registry] = []


def use_registry(lookup: Callable[[str], Domain], names: Callable[[], tuple[str, ...]]) -> None:
    """Install how the core resolves domain names (called once by :mod:`tool_gym.domains`)."""
    _registry[:] = [_Registry(lookup, names)]


def _installed() -> _Registry:
    if not _registry:
        raise RuntimeError("no domain registry: import tool_gym first")
    return _registry[0]


def lookup_domain(name: str) -> Domain:
    """The :class:`Domain` registered under ``name``."""
    return _installed().lookup(name)


def known_domains() -> tuple[str, ...]:
    """The names of every registered domain."""
    return _installed().names()
