"""Tests of the smart home domain. Importing the package adds, for the shared answer tests
(``tests/domains/grounding_cases.py``), a careful agent's own refusals of this domain's
refusal types."""

from .. import grounding_cases

grounding_cases.REASONS.setdefault("refuse_guest_unlock", (
    "Can't — you only have guest access to that home.",
    "Sorry, **guests** can't unlock doors there, so I can't do it."))
grounding_cases.REASONS.setdefault("refuse_scheduled_unlock", (
    "Can't — automations may never unlock a door.",
    "Sorry, for **security** a door can't be unlocked on a schedule, so I can't set it up."))
