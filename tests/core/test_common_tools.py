"""The tools several domains share."""

from __future__ import annotations

from tool_gym.core.common_tools import TRANSFER_DESCRIPTION, calculate, human_transfer_tool
from tool_gym.core.tools import Category


def test_human_transfer_tool_carries_the_domain_wording():
    default = human_transfer_tool()
    assert default.name == "transfer_to_human_agents" and default.category == Category.GENERIC
    assert default.description == TRANSFER_DESCRIPTION
    assert default.parameters == {
        "type": "object", "required": ["summary"],
        "properties": {"summary": {"type": "string",
                                   "description": "A summary of the user's issue."}}}
    own = human_transfer_tool("Hand over to a person.", "What went wrong.")
    assert own.description == "Hand over to a person."
    assert own.parameters["properties"]["summary"]["description"] == "What went wrong."
    assert own.fn(None, summary="x") == "Transfer successful"


def test_calculate():
    assert calculate.name == "calculate" and calculate.fn(None, expression="10 / 3") == "3.33"
