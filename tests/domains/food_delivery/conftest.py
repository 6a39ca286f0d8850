"""Fixtures of the food delivery tests: the domain registered for the session, the generated
template (seed 0), a fresh sandbox per test and the untouched export."""

from __future__ import annotations

import pytest

from tool_gym.core import domain as domain_table
from tool_gym.core.sandbox import Sandbox, template

NAME = "food_delivery"


@pytest.fixture(scope="session", autouse=True)
def registered():
    with pytest.MonkeyPatch.context() as mp:
        mp.setitem(domain_table.DOMAINS, NAME, f"tool_gym.domains.{NAME}")
        yield


@pytest.fixture(scope="session")
def tpl(registered):
    return template(NAME, 0)


@pytest.fixture()
def box(tpl):
    with Sandbox(tpl) as sandbox:
        yield sandbox


@pytest.fixture(scope="session")
def state(tpl) -> dict:
    with Sandbox(tpl) as sandbox:
        return sandbox.export()
