"""tool_gym: Gymnasium environments for LLM agents that use tools over many turns.

Importing the package registers every environment id with Gymnasium: the conversation ids
that the domains declare (built-ins, then plug-ins) and the single-call ids below.
"""

from gymnasium.envs.registration import register, registry

from .core.sandbox import Sandbox, sandbox
from .domains import domain_names, get_domain

__version__ = "0.1.0"

_CALL_ENV = "tool_gym.envs.function_call_env:FunctionCallEnv"

#: The single-call ids (``FunctionCallEnv``): (id, entry point, kwargs, max_episode_steps).
CALL_ENVIRONMENTS = [
    ("ToolCall-v0", _CALL_ENV, {}, 1),
    ("ToolCall-Simple-v0", _CALL_ENV, {"category": "simple"}, 1),
    ("ToolCall-Multiple-v0", _CALL_ENV, {"category": "multiple"}, 1),
    ("ToolCall-Parallel-v0", _CALL_ENV, {"category": "parallel"}, 1),
    ("ToolCall-ParallelMultiple-v0", _CALL_ENV, {"category": "parallel_multiple"}, 1),
]

#: The conversation ids (``ToolEnv``: a user, a sandbox, hidden-intent tasks), as declared
#: by the domains in ``Domain.envs``.
CONVERSATION_ENVIRONMENTS = [
    (spec.id, "tool_gym.envs.tool_env:ToolEnv", {"domain": name}, spec.max_episode_steps)
    for name in domain_names() for spec in get_domain(name).envs
]

#: Every registered id: (id, entry point, kwargs, max_episode_steps).
ENVIRONMENTS = CONVERSATION_ENVIRONMENTS + CALL_ENVIRONMENTS

for _id, _entry, _kwargs, _steps in ENVIRONMENTS:
    if _id not in registry:
        register(id=_id, entry_point=_entry, kwargs=_kwargs, max_episode_steps=_steps)

ENV_IDS = [e[0] for e in ENVIRONMENTS]
CONVERSATION_IDS = [e[0] for e in CONVERSATION_ENVIRONMENTS]

__all__ = ["CONVERSATION_IDS", "ENVIRONMENTS", "ENV_IDS", "Sandbox", "sandbox"]
