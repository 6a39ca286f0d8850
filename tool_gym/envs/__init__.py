"""Environments: ``ToolEnv`` (multi-turn, hidden intent) and the text spaces."""

from .spaces import LLMText, ToolActionSpace
from .tool_env import ToolEnv

__all__ = ["LLMText", "ToolActionSpace", "ToolEnv"]
