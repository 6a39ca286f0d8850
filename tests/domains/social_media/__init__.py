"""Tests of the social media domain.

``REFUSAL_REASONS``: a terse and a markdown refusal, in a careful agent's own words, for each
refusal type of the domain; the shared grounding cases (``tests/domains/grounding_cases``)
look them up in their ``REASONS`` table, where they are registered here (the table lists
the refusal types of the first ten domains)."""

from tests.domains import grounding_cases

REFUSAL_REASONS = {
    "refuse_restore_expired": (
        "Can't — it was deleted more than 30 days ago.",
        "Sorry, the **30-day restore window** has passed, so I can't bring it back."),
    "refuse_message_restricted": (
        "Can't — they don't accept messages from you.",
        "Sorry, their **message settings** don't let you write to them, so I can't send it."),
}

for _kind, _texts in REFUSAL_REASONS.items():
    grounding_cases.REASONS.setdefault(_kind, _texts)
