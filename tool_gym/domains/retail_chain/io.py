"""Retail chain data: one list of row dicts per table of ``schema.sql`` (every column, rowid
order); ``load``, ``read`` and ``export`` come from :class:`~tool_gym.core.tables.RowTables`.
"""

from __future__ import annotations

from ...core.tables import RowTables

__all__ = ["TABLES", "load", "read", "export"]

#: Tables in an order that satisfies the foreign keys.
TABLES = ("stores", "employees", "suppliers", "products", "inventory", "price_changes",
          "transfers", "purchase_orders", "shifts", "pickup_orders", "pickup_items")

FORMAT = RowTables("retail_chain", TABLES)
load, read, export = FORMAT.load, FORMAT.read, FORMAT.export
