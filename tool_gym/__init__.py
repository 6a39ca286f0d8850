"""tool_gym: Gymnasium environments for LLM agents that use tools over many turns."""

from .core.sandbox import Sandbox, sandbox

__all__ = ["Sandbox", "sandbox"]
__version__ = "0.1.0"
