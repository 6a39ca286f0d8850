"""A small registered env for model tests: short prompts, episodes of different lengths.

Task ``<split>-<n>`` asks for one call ``add(a=n, b=1)``. A tool-call step earns 0.1 when
the call is right; the episode ends after ``1 + n % 3`` turns (so episodes of one batch
end at different turns) or at once after the right call, with a terminal reward of 1 for
the right call and 0 otherwise. Any text is a valid action: nothing raises. It keeps the
episode record of :mod:`tool_gym.envs.episode` (no calls, no hidden task).
"""

import gymnasium as gym
from gymnasium.envs.registration import register, registry

from tool_gym.core.actions import parse_action
from tool_gym.envs.episode import EpisodeRecord, OracleAccess
from tool_gym.envs.spaces import LLMText

TOOLS = [{"type": "function", "function": {
    "name": "add", "description": "Add two integers.",
    "parameters": {"type": "object", "properties": {"a": {"type": "integer"},
                                                    "b": {"type": "integer"}},
                   "required": ["a", "b"]}}}]


class LockstepEnv(gym.Env):
    metadata = {"render_modes": []}

    def __init__(self, max_turns: int = 3):
        self.max_turns = max_turns
        self.action_space = LLMText(4000)
        self.observation_space = LLMText(4000)
        self.task_id, self.turn = None, 0

    @property
    def episode(self) -> EpisodeRecord:
        return EpisodeRecord(self.task_id, self.turn, False, (), (), (), tuple(TOOLS),
                             "Use the tools.", "lockstep")

    def oracle_access(self) -> OracleAccess:
        return OracleAccess(self.task_id, None)

    def ground_truth(self) -> list:
        return []

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        task_id = (options or {}).get("task_id") or f"train-{int(self.np_random.integers(50))}"
        self.n = int(task_id.rpartition("-")[2])
        self.task_id, self.turn, self.calls = task_id, 0, 0
        return f"Please add {self.n} and 1.", self._info()

    def _info(self, **extra):
        return dict(tools=TOOLS, policy="Use the tools.", task_id=self.task_id, turn=self.turn,
                    tool_calls=self.calls, **extra)

    def step(self, action):
        self.turn += 1
        parsed = parse_action(action, tool_names=["add"])
        right = parsed.is_call and len(parsed.calls) == 1 and parsed.calls[0].name == "add" \
            and parsed.calls[0].arguments == {"a": self.n, "b": 1}
        if parsed.is_call:
            self.calls += 1
            observation, validity = ('{"result": %d}' % (self.n + 1), 1.0) if right \
                else ("Error: wrong call", 0.0)
        elif parsed.error:
            observation, validity = f"Error: {parsed.error}", 0.0
        else:
            observation, validity = "Please call the tool.", None
        reward = 0.1 if right else 0.0
        done = right or self.turn >= min(1 + self.n % 3, self.max_turns)
        extra = {}
        if done:
            reward += 1.0 if right else 0.0
            extra["verification"] = {"score": float(right), "success": right,
                                     "ended": "user_stop"}
        return observation, reward, done, False, self._info(validity=validity, **extra)


ENV_ID = "ToolGymLockstep-v0"
if ENV_ID not in registry:
    register(id=ENV_ID, entry_point=LockstepEnv, max_episode_steps=20)
