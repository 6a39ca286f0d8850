"""tool_gym: Gymnasium environments for LLM agents that use tools over many turns.

Importing the package registers every environment id with Gymnasium.
"""

from gymnasium.envs.registration import register, registry

from .core.sandbox import Sandbox, sandbox

__version__ = "0.1.0"

#: Every registered id: (id, entry point, kwargs, max_episode_steps). One table.
ENVIRONMENTS = [
    ("ToolRetail-v0", "tool_gym.envs.tool_env:ToolEnv", {"domain": "retail"}, 100),
    ("ToolAirline-v0", "tool_gym.envs.tool_env:ToolEnv", {"domain": "airline"}, 100),
    ("ToolBanking-v0", "tool_gym.envs.tool_env:ToolEnv", {"domain": "banking"}, 100),
    ("ToolCalendar-v0", "tool_gym.envs.tool_env:ToolEnv", {"domain": "calendar"}, 100),
    ("ToolCrm-v0", "tool_gym.envs.tool_env:ToolEnv", {"domain": "crm"}, 100),
    ("ToolEmail-v0", "tool_gym.envs.tool_env:ToolEnv", {"domain": "email"}, 100),
    ("ToolFilesystem-v0", "tool_gym.envs.tool_env:ToolEnv", {"domain": "filesystem"}, 100),
    ("ToolFoodDelivery-v0", "tool_gym.envs.tool_env:ToolEnv", {"domain": "food_delivery"}, 100),
    ("ToolIssueTracker-v0", "tool_gym.envs.tool_env:ToolEnv", {"domain": "issue_tracker"}, 100),
    ("ToolTeamChat-v0", "tool_gym.envs.tool_env:ToolEnv", {"domain": "team_chat"}, 100),
    ("ToolCall-v0", "tool_gym.envs.function_call_env:FunctionCallEnv", {}, 1),
    ("ToolCall-Simple-v0", "tool_gym.envs.function_call_env:FunctionCallEnv",
     {"category": "simple"}, 1),
    ("ToolCall-Multiple-v0", "tool_gym.envs.function_call_env:FunctionCallEnv",
     {"category": "multiple"}, 1),
    ("ToolCall-Parallel-v0", "tool_gym.envs.function_call_env:FunctionCallEnv",
     {"category": "parallel"}, 1),
    ("ToolCall-ParallelMultiple-v0", "tool_gym.envs.function_call_env:FunctionCallEnv",
     {"category": "parallel_multiple"}, 1),
]

for _id, _entry, _kwargs, _steps in ENVIRONMENTS:
    if _id not in registry:
        register(id=_id, entry_point=_entry, kwargs=_kwargs, max_episode_steps=_steps)

ENV_IDS = [e[0] for e in ENVIRONMENTS]
#: The multi-turn ids (``ToolEnv``: a user, a sandbox, hidden-intent tasks).
CONVERSATION_IDS = [e[0] for e in ENVIRONMENTS if e[1].endswith(":ToolEnv")]

__all__ = ["CONVERSATION_IDS", "ENVIRONMENTS", "ENV_IDS", "Sandbox", "sandbox"]
