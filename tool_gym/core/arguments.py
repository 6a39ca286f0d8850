"""Checks of tool arguments that several domains share; each raises a :class:`ToolError`
the agent can read, or returns the value to use."""

from __future__ import annotations

import re
from datetime import date

from .tools import ToolError

__all__ = ["check_cents", "check_date"]

_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def check_cents(amount: float) -> float:
    """A positive amount of money in whole cents, as a float rounded to cents."""
    if not amount > 0:
        raise ToolError("The amount must be positive.")
    if abs(round(amount, 2) - amount) > 1e-9:
        raise ToolError("The amount must be in whole cents (at most two decimals).")
    return round(float(amount), 2)


def check_date(value: str, name: str) -> str:
    """An ISO date ``YYYY-MM-DD`` that exists; ``name`` names the argument in the error."""
    if not _DATE.match(value):
        raise ToolError(f"{name} must be a date in the format YYYY-MM-DD, got {value!r}.")
    try:
        date.fromisoformat(value)
    except ValueError:
        raise ToolError(f"{name} is not a valid date: {value!r}.") from None
    return value
