"""PROVE's server library (issue #16): the twelve servers PROVE trains on beside the ten
first domains, each with at least PROVE's tool count where it is larger than 15."""

from __future__ import annotations

import gymnasium as gym
import pytest

import tool_gym
from tool_gym.domains import BUILTINS, get_domain

#: PROVE's servers added here, with the least number of tools each must have.
PROVE_SERVERS = {"trading": 15, "payments": 15, "shopping": 23, "marketplace": 15,
                 "retail_chain": 15, "travel_booking": 20, "maps": 15, "social_media": 15,
                 "iot_devices": 25, "vehicle": 20, "budget": 15, "video_meeting": 16}


def test_at_least_22_domains_and_400_tools():
    assert len(BUILTINS) >= 22
    assert sum(len(get_domain(name).toolbox) for name in BUILTINS) >= 400


@pytest.mark.parametrize("name", sorted(PROVE_SERVERS))
def test_each_server_has_its_tools_reads_writes_and_an_id(name):
    domain = get_domain(name)
    tools = list(domain.toolbox)
    assert name in BUILTINS and len(tools) >= PROVE_SERVERS[name]
    categories = {t.category.value for t in tools}
    assert {"read", "write"} <= categories
    env_id = domain.envs[0].id
    assert env_id in tool_gym.CONVERSATION_IDS and env_id in gym.registry
    assert domain.tasks is not None and len(domain.tasks.constraint_types) >= 8


def test_the_domains_page_is_current():
    """``docs/domains.md`` is what ``python -m tool_gym.domains.catalog`` prints."""
    from pathlib import Path

    from tool_gym.domains.catalog import catalog

    page = Path(__file__).resolve().parents[2] / "docs" / "domains.md"
    if tool_gym.domains.plugins():
        pytest.skip("plug-in domains installed: the page lists the built-ins only")
    assert page.read_text() == catalog()
