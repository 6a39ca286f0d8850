"""Reward configuration: graded step validity plus the terminal verification score."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True)
class RewardConfig:
    """How the environment turns validity and verification into rewards.

    Attributes:
        validity_weight: step reward of a tool-call step = weight x graded validity
            (0, 1/3, 2/3, 1 for: the name exists, the arguments are valid, the call ran
            without error); averaged over the calls of one step; 0 for messages.
        terminal: ``"score"`` (CoVe's graded score, see ``tool_gym.core.verify``) or
            ``"success"`` (1 when the score is 1, else 0).
        terminal_weight: factor on the terminal reward.
        error_penalty: reward of a step whose action could not be parsed (<= 0).
    """

    validity_weight: float = 0.1
    terminal: Literal["score", "success"] = "score"
    terminal_weight: float = 1.0
    error_penalty: float = 0.0

    @classmethod
    def named(cls, name: str | "RewardConfig" | dict | None) -> "RewardConfig":
        """``"cove"`` (default), ``"binary"`` (success only, no step reward), ``"sparse"``
        (graded score, no step reward), a dict of fields, or a config."""
        if isinstance(name, RewardConfig):
            return name
        if isinstance(name, dict):
            return cls(**name)
        presets = {
            None: cls(),
            "cove": cls(),
            "sparse": cls(validity_weight=0.0),
            "binary": cls(validity_weight=0.0, terminal="success"),
        }
        if name not in presets:
            raise ValueError(f"unknown reward {name!r}; use one of cove, sparse, binary, "
                             "a dict of RewardConfig fields or a RewardConfig")
        return presets[name]

    def step(self, validities: list[float]) -> float:
        return self.validity_weight * (sum(validities) / len(validities)) if validities else 0.0

    def final(self, score: float, success: bool) -> float:
        value = score if self.terminal == "score" else float(success)
        return self.terminal_weight * value
