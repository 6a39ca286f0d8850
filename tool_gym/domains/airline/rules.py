"""The airline's fare rules that sampling, outcome checks and policy checks share."""

from __future__ import annotations

from datetime import datetime, timedelta

from .tools import NOW

CABINS = ("basic_economy", "economy", "business")
#: Free checked bags per passenger by membership, per cabin (spec §3 rule 16).
FREE_BAGS = {"regular": (0, 1, 2), "silver": (1, 2, 3), "gold": (2, 3, 4)}
#: Reservations created at or after this moment were made within 24 hours of the clock.
WITHIN_24H = (datetime.fromisoformat(NOW) - timedelta(hours=24)).isoformat(timespec="seconds")
#: Flight statuses that mean a segment has been (or is being) flown.
FLOWN = ("landed", "flying")


def free_bags(membership: str, cabin: str, n: int) -> int:
    """Free checked bags of a reservation of ``n`` passengers."""
    table = FREE_BAGS.get(membership)
    if table is None or cabin not in CABINS:
        return 0
    return table[CABINS.index(cabin)] * n


def nonfree_after(old_total: int, old_nonfree: int, new_total: int, free: int) -> int:
    """Non-free bags after raising the total to ``new_total``: the added bags use what is
    left of the free allowance first."""
    left = max(0, free - (old_total - old_nonfree))
    return old_nonfree + max(0, (new_total - old_total) - left)
