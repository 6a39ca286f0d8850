"""The tools of the retail chain domain: 14 reads, 15 writes and a transfer to a human agent
(the reads in :mod:`.reads`, the writes in :mod:`.writes`, their shared parts in
:mod:`.records`; this module lists them in order, with the sandbox's quotas).

The agent is an operations assistant for the chain's staff: it acts for one signed-in
employee, whose id every write takes as ``employee_id`` (last), and whose store and role
decide what they may do. Every tool uses parameterized SQL; a write checks all its
preconditions before its first statement and raises :class:`ToolError` with a clear message
when one fails (the toolbox also wraps each write in a savepoint).

Rules the tools enforce: only active employees act, and only for their own store; who may
do what (associates: pickup orders, transfer requests, receiving; supervisors also ship and
cancel transfers, schedule shifts and set reorder points; managers also place and cancel
purchase orders and change prices); stock never goes below what pickup orders reserve (a
transfer or pickup order takes only available units); closed stores take part in no
transfer; purchase orders come in whole cases of active products; a shift is 4 to 10 hours
on the half hour, one per person and day, within the person's weekly hours (40 full-time,
25 part-time). Two rules are the policy's, which the agent must apply (the tools trust it,
as in tau2): a store price at least 70% of the base price, and purchase orders of at most
$5,000.
"""

from __future__ import annotations

from ...core.tools import Quotas

# The imports below keep the tools in the toolbox's order (reads, then writes): not sorted.
# ruff: noqa: I001
from .reads import (find_employee_by_email, find_employee_by_username, get_employee_profile,
                    list_stores, list_store_staff, search_products, get_store_inventory,
                    check_product_stock, list_transfers, list_purchase_orders, list_suppliers,
                    list_shifts, list_pickup_orders, get_pickup_order, transfer_to_human_agents)
from .records import (MAX_WEEKLY_HOURS, MIN_PRICE_SHARE, NOW, PICKUP_DAYS, PO_LIMIT,
                      SCHEDULE_DAYS, TODAY, minutes, money, scheduled_minutes, week_of)
from .writes import (request_transfer, ship_transfer, receive_transfer, cancel_transfer,
                     create_purchase_order, receive_purchase_order, cancel_purchase_order,
                     change_price, update_reorder_point, schedule_shift, cancel_shift,
                     create_pickup_order, mark_pickup_ready, complete_pickup,
                     cancel_pickup_order)

#: Growth bounds of one sandbox.
QUOTAS = Quotas(rows={"transfers": 10_000, "purchase_orders": 10_000, "shifts": 20_000,
                      "pickup_orders": 10_000, "pickup_items": 20_000,
                      "price_changes": 10_000, "inventory": 5_000})

__all__ = [
    "QUOTAS", "TODAY", "NOW", "MAX_WEEKLY_HOURS", "MIN_PRICE_SHARE", "PO_LIMIT",
    "SCHEDULE_DAYS", "PICKUP_DAYS", "minutes", "money", "scheduled_minutes", "week_of",
    "find_employee_by_email", "find_employee_by_username", "get_employee_profile",
    "list_stores", "list_store_staff", "search_products", "get_store_inventory",
    "check_product_stock", "list_transfers", "list_purchase_orders", "list_suppliers",
    "list_shifts", "list_pickup_orders", "get_pickup_order", "transfer_to_human_agents",
    "request_transfer", "ship_transfer", "receive_transfer", "cancel_transfer",
    "create_purchase_order", "receive_purchase_order", "cancel_purchase_order",
    "change_price", "update_reorder_point", "schedule_shift", "cancel_shift",
    "create_pickup_order", "mark_pickup_ready", "complete_pickup", "cancel_pickup_order"]
