"""Shared checks of tool arguments."""

from __future__ import annotations

import pytest

from tool_gym.core.arguments import check_cents, check_date
from tool_gym.core.tools import ToolError


def test_check_cents():
    assert check_cents(12) == 12.0 and check_cents(0.1) == 0.1
    with pytest.raises(ToolError, match="The amount must be positive."):
        check_cents(0)
    with pytest.raises(ToolError, match="whole cents"):
        check_cents(1.005)


def test_check_date():
    assert check_date("2024-02-29", "day") == "2024-02-29"
    with pytest.raises(ToolError, match="day must be a date in the format YYYY-MM-DD"):
        check_date("2024-2-1", "day")
    with pytest.raises(ToolError, match="day is not a valid date: '2023-02-29'."):
        check_date("2023-02-29", "day")
