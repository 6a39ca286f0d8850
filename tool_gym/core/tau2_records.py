"""Record parts that tau2-bench's data formats (retail and airline) share, built in tau2's
key order so that exports and tool results match tau2 byte for byte."""

from __future__ import annotations

from typing import Any

__all__ = ["address_record", "name_record"]


def name_record(first_name: str, last_name: str) -> dict:
    """A Name: ``{"first_name", "last_name"}``."""
    return {"first_name": first_name, "last_name": last_name}


def address_record(address1: str, address2: Any, city: str, country: str, state: str,
                   zip_code: str) -> dict:
    """An Address: ``address1``, ``address2``, ``city``, ``country``, ``state``, ``zip``."""
    return {"address1": address1, "address2": address2, "city": city, "country": country,
            "state": state, "zip": zip_code}
