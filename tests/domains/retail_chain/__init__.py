"""Tests of the retail chain domain.

``REFUSAL_REASONS``: a terse and a markdown refusal, in a careful agent's own words, for each
refusal type of the domain; the shared grounding cases (``tests/domains/grounding_cases``)
look them up in their ``REASONS`` table, where they are registered here (the table lists
the refusal types of the first ten domains)."""

from tests.domains import grounding_cases

REFUSAL_REASONS = {
    "refuse_transfer_over_stock": (
        "Can't — they don't have that many units available.",
        "Sorry, that **exceeds the stock available** there, so I can't request it."),
    "refuse_deep_markdown": (
        "Can't — that's more than a 30% markdown.",
        "Sorry, prices can't go **below 70% of the base price** without approval."),
    "refuse_large_po": (
        "Can't — that order is over the $5,000 limit.",
        "Sorry, it **exceeds the spending limit** for one purchase order, so I can't place it."),
}

for _kind, _texts in REFUSAL_REASONS.items():
    grounding_cases.REASONS.setdefault(_kind, _texts)
