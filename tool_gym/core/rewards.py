"""Reward configuration: graded step validity plus the terminal verification score, or
PROVE's composite (``tool_gym.core.prove``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .prove import ProveRewardConfig


@dataclass(frozen=True)
class RewardConfig:
    """How the environment turns validity and verification into rewards.

    Attributes:
        validity_weight: step reward of a tool-call step = weight x graded validity
            (0, 1/3, 2/3, 1 for: the name exists, the arguments are valid, the call ran
            without error); averaged over the calls of one step; 0 for messages.
        terminal: ``"score"`` (CoVe's graded score, see ``tool_gym.core.verify``),
            ``"success"`` (1 when the score is 1, else 0) or ``"prove"`` (PROVE's
            composite over the episode's calls against the task's ground-truth calls,
            see ``tool_gym.core.prove``; ``prove.normalize`` divides it by its best value).
        terminal_weight: factor on the terminal reward.
        error_penalty: reward of a step whose action could not be parsed (<= 0).
        prove: the weights of PROVE's components (used when ``terminal == "prove"``; a
            dict of ``ProveRewardConfig`` fields is accepted).
    """

    validity_weight: float = 0.1
    terminal: Literal["score", "success", "prove"] = "score"
    terminal_weight: float = 1.0
    error_penalty: float = 0.0
    prove: ProveRewardConfig = ProveRewardConfig()

    def __post_init__(self):
        if self.terminal not in ("score", "success", "prove"):
            raise ValueError(f"terminal must be 'score', 'success' or 'prove', "
                             f"got {self.terminal!r}")
        if not isinstance(self.prove, ProveRewardConfig):
            object.__setattr__(self, "prove", ProveRewardConfig.from_dict(self.prove))

    @classmethod
    def named(cls, name: str | "RewardConfig" | dict | None) -> "RewardConfig":
        """``"cove"`` (default), ``"binary"`` (success only, no step reward), ``"sparse"``
        (graded score, no step reward), ``"prove"`` (PROVE's composite at the end, no step
        reward: validity is one of its components), a dict of fields, or a config."""
        if isinstance(name, RewardConfig):
            return name
        if isinstance(name, dict):
            return cls(**name)
        presets = {
            None: cls(),
            "cove": cls(),
            "sparse": cls(validity_weight=0.0),
            "binary": cls(validity_weight=0.0, terminal="success"),
            "prove": cls(validity_weight=0.0, terminal="prove"),
        }
        if name not in presets:
            raise ValueError(f"unknown reward {name!r}; use one of cove, sparse, binary, prove, "
                             "a dict of RewardConfig fields or a RewardConfig")
        return presets[name]

    def step(self, validities: list[float]) -> float:
        return self.validity_weight * (sum(validities) / len(validities)) if validities else 0.0

    def final(self, score: float, success: bool, prove: float | None = None) -> float:
        """Terminal reward: ``prove`` is the PROVE total (or normalized total) of the
        episode, needed when ``terminal == "prove"``."""
        if self.terminal == "prove":
            if prove is None:
                raise ValueError("terminal='prove' needs the episode's PROVE score")
            value = prove
        else:
            value = score if self.terminal == "score" else float(success)
        return self.terminal_weight * value
