"""The registry of domains: the built-ins listed in :data:`BUILTINS`, then plug-ins.

To add a domain, write a package whose ``DOMAIN`` is a :class:`~tool_gym.core.domain.Domain`
and name it in the entry-point group ``tool_gym.domains``: see docs/adding-a-domain.md.
"""

from __future__ import annotations

import functools
import importlib
from importlib.metadata import EntryPoint, entry_points

from ..core.domain import Domain, use_registry

#: The built-in domains, in registration order: each is the package ``tool_gym.domains.<name>``.
BUILTINS = ("retail", "airline", "banking", "calendar", "crm", "email", "filesystem",
            "food_delivery", "issue_tracker", "team_chat", "travel_booking", "social_media",
            "vehicle", "iot_devices", "shopping", "trading", "retail_chain", "maps",
            "video_meeting", "payments", "marketplace", "budget")

#: The entry-point group where a third-party package names its ``Domain`` (``name = pkg:DOMAIN``).
ENTRY_POINT_GROUP = "tool_gym.domains"


class PluginError(RuntimeError):
    """A plug-in domain that cannot be used: it fails to load or its name clashes."""


@functools.cache
def plugins() -> dict[str, EntryPoint]:
    """The installed plug-in domains: name -> entry point (read once per process)."""
    found: dict[str, EntryPoint] = {}
    for point in entry_points(group=ENTRY_POINT_GROUP):
        if point.name in BUILTINS or point.name in found:
            raise PluginError(f"plug-in domain {point.name!r} (entry point {point.value!r}) "
                              "clashes with a domain of the same name")
        found[point.name] = point
    return found


def domain_names() -> tuple[str, ...]:
    """Every known domain: the built-ins in their listed order, then the plug-ins."""
    return BUILTINS + tuple(plugins())


def get_domain(name: str) -> Domain:
    """The :class:`Domain` registered under ``name``."""
    if name in BUILTINS:
        return importlib.import_module(f"{__name__}.{name}").DOMAIN
    point = plugins().get(name)
    if point is None:
        raise KeyError(f"unknown domain {name!r}; known: {', '.join(domain_names())}")
    return _load(point)


def _load(point: EntryPoint) -> Domain:
    where = f"entry point {point.name} = {point.value} (group {ENTRY_POINT_GROUP})"
    try:
        domain = point.load()
    except Exception as error:
        raise PluginError(f"plug-in domain failed to load: {where}: {error!r}") from error
    if not isinstance(domain, Domain):
        raise PluginError(f"{where} is a {type(domain).__name__}, not a Domain")
    if domain.name != point.name:
        raise PluginError(f"{where} declares a domain named {domain.name!r}")
    return domain


use_registry(get_domain, domain_names)

__all__ = ["BUILTINS", "ENTRY_POINT_GROUP", "PluginError", "domain_names", "get_domain", "plugins"]
