"""Reward configuration, and why returns order correctly under every accepted config.

The full explanation is in ``docs/rewards.md``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

from .prove import ProveRewardConfig

TERMINALS = ("score", "success", "prove")


@dataclass(frozen=True)
class RewardConfig:
    """How the environment turns validity and verification into rewards.

    Attributes:
        validity_weight: a tool-call step's shaping = weight x the mean over its calls of
            the *credited* graded validity (0, 1/3, 2/3, 1 for: the name exists, the
            arguments are valid, the call ran without error), credited once per distinct
            effective call (``tool_gym.core.shaping``).
        terminal: ``"score"`` (q = CoVe's graded score), ``"success"`` (q = 0) or
            ``"prove"`` (q = PROVE's total over its best value, clipped to [0, 1]).
        terminal_weight: ``w``, the reward of success (> 0).
        partial: the share of ``w`` paid for the quality ``q`` (0 <= partial < 1; no
            effect with ``terminal="success"``).
        shaping_cap: bound of the episode's total shaping (default ``0.2 * w``; must be
            below ``w * (1 - partial) / 2``, see the module docstring).
        error_penalty: shaping of a step whose action could not be parsed (<= 0).
        prove: the weights of PROVE's components (``terminal="prove"``; a dict of
            ``ProveRewardConfig`` fields is accepted).
    """

    validity_weight: float = 0.05
    terminal: Literal["score", "success", "prove"] = "score"
    terminal_weight: float = 1.0
    partial: float = 0.5
    shaping_cap: float | None = None
    error_penalty: float = 0.0
    prove: ProveRewardConfig = ProveRewardConfig()

    def __post_init__(self):
        if self.terminal not in TERMINALS:
            raise ValueError(f"terminal must be 'score', 'success' or 'prove', "
                             f"got {self.terminal!r}")
        if not isinstance(self.prove, ProveRewardConfig):
            object.__setattr__(self, "prove", ProveRewardConfig.from_dict(self.prove))
        if self.shaping_cap is None:
            object.__setattr__(self, "shaping_cap", 0.2 * self.terminal_weight)
        for name in ("validity_weight", "terminal_weight", "partial", "shaping_cap",
                     "error_penalty"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) \
                    or not math.isfinite(value):
                raise ValueError(f"{name} must be a finite number, got {value!r}")
        if self.terminal_weight <= 0:
            raise ValueError(f"terminal_weight must be > 0, got {self.terminal_weight}")
        if not 0 <= self.partial < 1:
            raise ValueError(f"partial must be in [0, 1), got {self.partial}")
        if self.validity_weight < 0:
            raise ValueError(f"validity_weight must be >= 0, got {self.validity_weight}")
        if self.error_penalty > 0:
            raise ValueError(f"error_penalty must be <= 0, got {self.error_penalty}")
        if self.shaping_cap < 0:
            raise ValueError(f"shaping_cap must be >= 0, got {self.shaping_cap}")
        bound = self.terminal_weight * (1 - self.effective_partial) / 2
        if not self.shaping_cap < bound:
            raise ValueError(
                f"shaping_cap={self.shaping_cap} must be below terminal_weight x "
                f"(1 - partial) / 2 = {bound:g}, else a failing episode could return as much "
                f"as a successful one")

    @property
    def effective_partial(self) -> float:
        """``partial``, or 0 for ``terminal="success"`` (whose quality is always 0)."""
        return 0.0 if self.terminal == "success" else float(self.partial)

    @classmethod
    def named(cls, name: "str | RewardConfig | dict | None") -> "RewardConfig":
        """``"cove"`` (default), ``"binary"`` (success only, no shaping), ``"sparse"``
        (graded score, no shaping), ``"prove"`` (PROVE's composite as the quality, no
        shaping: validity is one of its components), a dict of fields, or a config."""
        if isinstance(name, RewardConfig):
            return name
        if isinstance(name, dict):
            return cls(**name)
        presets = {
            None: cls(),
            "cove": cls(),
            "sparse": cls(validity_weight=0.0, shaping_cap=0.0),
            "binary": cls(validity_weight=0.0, terminal="success", partial=0.0,
                          shaping_cap=0.0),
            "prove": cls(validity_weight=0.0, terminal="prove", shaping_cap=0.0),
        }
        if name not in presets:
            raise ValueError(f"unknown reward {name!r}; use one of cove, sparse, binary, prove, "
                             "a dict of RewardConfig fields or a RewardConfig")
        return presets[name]

    def quality(self, score: float = 0.0, prove_normalized: float | None = None) -> float:
        """``q`` in [0, 1]: the verification score, PROVE's normalized total, or 0."""
        if self.terminal == "success":
            return 0.0
        if self.terminal == "prove":
            if prove_normalized is None:
                raise ValueError("terminal='prove' needs the episode's normalized PROVE total")
            value = prove_normalized
        else:
            value = score
        value = float(value)
        return min(1.0, max(0.0, value)) if math.isfinite(value) else 0.0

    def final(self, success: bool, score: float = 0.0,
              prove_normalized: float | None = None) -> float:
        """The terminal reward ``w * (success + partial * q)``."""
        q = self.quality(score, prove_normalized)
        return self.terminal_weight * (float(bool(success)) + self.effective_partial * q)
