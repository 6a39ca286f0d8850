"""Checked reads of imported JSON values: each returns the value in the expected type or
raises ``ValueError`` naming ``where`` it was found.
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["as_int", "as_list", "as_map", "as_number", "as_str", "as_str_list", "check_key"]


def _is_number(value: Any) -> bool:
    return not isinstance(value, bool) and isinstance(value, (int, float))


def as_int(value: Any, where: str) -> int:
    """An integer as tau2's models accept it (an integral float counts as an int)."""
    if not _is_number(value) or (isinstance(value, float) and not value.is_integer()):
        raise ValueError(f"{where}: expected an integer, got {value!r}")
    return int(value)


def as_number(value: Any, where: str) -> float:
    """A number (not a boolean) as a float."""
    if not _is_number(value):
        raise ValueError(f"{where}: expected a number, got {value!r}")
    return float(value)


def as_str(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise ValueError(f"{where}: expected a string, got {value!r}")
    return value


def as_map(value: Any, where: str) -> dict:
    if not isinstance(value, dict):
        raise ValueError(f"{where}: expected a JSON object, got {type(value).__name__}")
    return value


def as_list(value: Any, where: str) -> list:
    if not isinstance(value, list):
        raise ValueError(f"{where}: expected a JSON array, got {type(value).__name__}")
    return value


def as_str_list(value: Any, where: str) -> str | None:
    """A list of strings (or null) as its JSON text (``None`` for null)."""
    if value is None:
        return None
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError(f"{where}: expected a list of strings or null, got {value!r}")
    return json.dumps(value, ensure_ascii=False)


def check_key(key: str, record_id: Any, where: str) -> None:
    """A map's key must be the id of the record it holds."""
    if key != record_id:
        raise ValueError(f"{where}: map key {key!r} differs from the record's id {record_id!r}")
