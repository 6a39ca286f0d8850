"""Tests of the shopping domain. Importing the package adds, for the shared answer tests
(``tests/domains/grounding_cases.py``), a careful agent's own refusals of this domain's
refusal types."""

from .. import grounding_cases

grounding_cases.REASONS.setdefault("refuse_cancel_shipped", (
    "Can't — it has already shipped.",
    "Sorry, that order is **already on its way**, so it can't be cancelled."))
grounding_cases.REASONS.setdefault("refuse_late_return", (
    "Can't — it's past the 30-day return window.",
    "Sorry, it arrived **more than 30 days ago**, so it can't be returned."))
