"""Tools several domains offer alike: the calculator and the hand-off to a human agent.

A domain's tools module binds them among its own tools (``Toolbox.from_module`` keeps the
module's order), e.g. ``transfer_to_human_agents = human_transfer_tool()``.
"""

from __future__ import annotations

from . import arithmetic
from .tools import Category, Tool, tool

__all__ = ["calculate", "human_transfer_tool"]

#: The hand-off's description where a domain has no wording of its own.
TRANSFER_DESCRIPTION = (
    "Transfer the user to a human agent, with a summary of the user's issue. Only transfer "
    "if the user explicitly asks for a human, or if the request cannot be handled with the "
    "policy and the available tools.")


@tool(Category.GENERIC)
def calculate(db, expression: str) -> str:
    """Calculate the result of an arithmetic expression. The result is rounded to 2
    decimal places.

    Args:
        expression: The arithmetic expression to calculate, such as '2 + 2'. It may contain
            numbers, the operators +, -, *, /, parentheses and spaces.
    """
    return arithmetic.calculate(expression)


def human_transfer_tool(description: str = TRANSFER_DESCRIPTION,
                        summary_help: str = "A summary of the user's issue.") -> Tool:
    """The ``transfer_to_human_agents`` tool (it answers "Transfer successful") with the
    domain's ``description`` and help text of its ``summary`` parameter."""

    def transfer_to_human_agents(db, summary: str) -> str:
        return "Transfer successful"

    transfer_to_human_agents.__doc__ = f"{description}\n\nArgs:\n    summary: {summary_help}\n"
    return tool(Category.GENERIC)(transfer_to_human_agents)
