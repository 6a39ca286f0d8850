"""Vehicle data: one list of row dicts per table of ``schema.sql`` (every column, rowid
order); ``load``, ``read`` and ``export`` come from :class:`~tool_gym.core.tables.RowTables`.
"""

from __future__ import annotations

from ...core.tables import RowTables
from .generate import TABLES

__all__ = ["TABLES", "load", "read", "export"]

FORMAT = RowTables("vehicle", TABLES)
load, read, export = FORMAT.load, FORMAT.read, FORMAT.export
