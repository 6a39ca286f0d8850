"""Fixtures of the team chat tests: the domain registered for the module, its seed-0
template, a fresh sandbox per test and a ``call`` helper that returns parsed results."""

from __future__ import annotations

import json

import pytest

from tool_gym.core import domain as domain_table
from tool_gym.core.sandbox import Sandbox, template

NAME = "team_chat"


@pytest.fixture(scope="session", autouse=True)
def registered():
    with pytest.MonkeyPatch.context() as mp:
        mp.setitem(domain_table.DOMAINS, NAME, f"tool_gym.domains.{NAME}")
        yield


@pytest.fixture(scope="session")
def tpl(registered):
    return template(NAME, 0)


@pytest.fixture
def sb(tpl):
    box = Sandbox(tpl)
    yield box
    box.close()


class Caller:
    """``ok(name, **args)`` -> parsed result (asserts success); ``err(...)`` -> message
    (asserts failure and that the state did not change)."""

    def __init__(self, box: Sandbox):
        self.box = box

    def ok(self, name: str, /, **arguments):
        result = self.box.call(name, arguments)
        assert result.ok, result.content
        try:
            return json.loads(result.content)
        except ValueError:
            return result.content

    def err(self, name: str, /, **arguments) -> str:
        """A failing call: its message; the state is unchanged (the same database bytes,
        or else the same canonical state hash)."""
        image = self.box.db.serialize()
        result = self.box.call(name, arguments)
        assert not result.ok, result.content
        assert result.content.startswith("Error: ")
        if self.box.db.serialize() != image:  # bytes moved: compare the canonical states
            after = self.box.state_hash()
            self.box.restore(image)
            assert self.box.state_hash() == after, f"{name} failed but changed the state"
        return result.content

    def one(self, query: str, params: tuple = ()):
        return self.box.db.execute(query, params).fetchone()


@pytest.fixture
def call(sb) -> Caller:
    return Caller(sb)
