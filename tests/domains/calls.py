"""Tool calls in domain tests: ``ok`` parses a successful result, ``fails`` asserts an error
that left the state unchanged, ``one`` reads a row, ``broken_rules`` the invariants that
some statements break, ``rules_catch`` that each of some statements breaks a named rule."""

from __future__ import annotations

import json

from tool_gym.core.sandbox import Sandbox


def ok(box: Sandbox, name: str, /, **arguments):
    """The parsed result of a call that must succeed (JSON, else the text)."""
    result = box.call(name, arguments)
    assert result.ok, result.content
    try:
        return json.loads(result.content)
    except ValueError:
        return result.content


def fails(box: Sandbox, name: str, fragment: str = "", /, **arguments) -> str:
    """The message of a call that must fail with ``fragment`` in it (any case) and leave the
    state as it was: the same database bytes, or else the same canonical state."""
    image = box.db.serialize()
    result = box.call(name, arguments)
    assert not result.ok and result.content.startswith("Error: "), result.content
    assert fragment.lower() in result.content.lower(), result.content
    if box.db.serialize() != image:  # bytes moved: compare the canonical states
        after = box.state_hash()
        box.restore(image)
        assert box.state_hash() == after, f"{name} failed but changed the state"
    return result.content


def one(box: Sandbox, query: str, params: tuple = ()) -> tuple:
    """The first row of a query, which must find one."""
    row = box.db.execute(query, params).fetchone()
    assert row is not None, query
    return row


def broken_rules(box: Sandbox, *statements: str) -> list[str]:
    """The problems the domain's invariants find after ``statements`` (none before)."""
    assert box.domain.invariants(box.db) == []
    for statement in statements:
        box.db.execute(statement)
    return box.domain.invariants(box.db)


def rules_catch(box: Sandbox, statements: dict[str, str], *setup: str) -> None:
    """Each of ``statements`` (``{what the broken rule says: statement}``), run alone after
    ``setup`` on the state as it was, breaks the rule that says so."""
    image = box.db.serialize()
    for rule, statement in statements.items():
        box.restore(image)
        problems = broken_rules(box, *setup, statement)
        assert any(rule in p for p in problems), (statement, problems)
