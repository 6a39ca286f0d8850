"""Tests of the budget domain. Importing the package adds, for the shared answer tests
(``tests/domains/grounding_cases.py``), a careful agent's own refusals of this domain's
refusal types."""

from .. import grounding_cases

grounding_cases.REASONS.setdefault("refuse_goal_over_balance", (
    "Can't — that account doesn't hold enough money.",
    "Sorry, that's **more than the account's balance**, so I can't move it."))
grounding_cases.REASONS.setdefault("refuse_past_month_budget", (
    "Can't — that month has already ended.",
    "Sorry, budgets of **past months are closed**, so I can't change it."))
