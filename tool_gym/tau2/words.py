"""What a domain contributes to tau2 tasks: one gold write in a customer's words.

For each gold write of a tau2 task (``evaluation_criteria.actions``) the domain module
(:mod:`tool_gym.tau2.retail`, :mod:`tool_gym.tau2.airline`) builds a :class:`WriteWords`
from the initial database:

- ``intent``: what a proposal must name for the scripted user to say yes
  (:class:`~tool_gym.core.proposals.Intent`: the action, the entity and each argument, each
  with its accepted forms and its rivals: the user's other orders, items, cards ...);
- ``request``: the user's own words asking for it, as a customer says it (product names
  and option values, card kinds and last digits, cities and dates), never an internal id
  that the task's instructions do not give (``known_ids``: ids the instructions state,
  which the user may say);
- ``proposal``: the reference agent's question asking approval for exactly this write
  (it names every parameter of ``intent`` in one of its forms and ends with a question).

For a task with nothing to write and nothing to tell, whose right ending is a refusal, the
same modules say what the refusal must have read and may name:
``records_named(db, user_id, text)`` (the user's records the instructions name),
``record_words(db, user_id, record)`` (the words that name a record besides its id) and
``facts_named(db, text)`` (other facts of the instructions a refusal may name).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.proposals import Intent


@dataclass(frozen=True)
class WriteWords:
    intent: Intent
    request: str
    proposal: str
