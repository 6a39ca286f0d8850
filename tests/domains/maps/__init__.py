"""Tests of the maps domain. Importing the package adds, for the shared answer tests
(``tests/domains/grounding_cases.py``), a careful agent's own refusals of this domain's
refusal types."""

from .. import grounding_cases

grounding_cases.REASONS.setdefault("refuse_own_review", (
    "Can't — you're the owner of that business.",
    "Sorry, owners can't review a business they have **claimed**, so I can't post it."))
grounding_cases.REASONS.setdefault("refuse_closed_stop", (
    "Can't — the place is closed at that time.",
    "Sorry, it's **not open** then, so I can't add that stop."))
