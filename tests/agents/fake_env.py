"""A tiny stand-in for ``ToolEnv`` used by the agent and evaluation tests.

It speaks the same interface: text actions parsed with ``parse_action``, ``info["tools"]``
schemas, the episode record of :mod:`tool_gym.envs.episode` (``episode``, with no calls;
``oracle_access()`` with the task and ``kit.plan(task)`` for the oracle; ``ground_truth()``,
empty) and ``info["verification"]`` on the final step. Task ``<split>-<n>`` has a plan of three
steps; following it exactly satisfies the constraints with probability ``(n % 4) / 3``
(drawn from the env's ``np_random``), so results vary with the reset seed and pass^k is
not trivially 0 or 1. Anything off-plan fails the episode; it ends when the agent writes a
message after the plan is done, or after ``max_turns`` actions (truncated, score 0).
"""

from __future__ import annotations

import gymnasium as gym
from gymnasium.envs.registration import register, registry

from tool_gym.core.actions import ToolCall, parse_action
from tool_gym.core.task_model import Constraint, Description, PlanStep, Task
from tool_gym.envs.episode import EpisodeRecord, OracleAccess
from tool_gym.envs.spaces import LLMText

TOOLS = [
    {"type": "function", "function": {
        "name": "find_user", "description": "Find a user by email.",
        "parameters": {"type": "object", "properties": {"email": {"type": "string"}},
                       "required": ["email"]}}},
    {"type": "function", "function": {
        "name": "cancel_order", "description": "Cancel an order.",
        "parameters": {"type": "object", "properties": {
            "order_id": {"type": "string"},
            "reason": {"type": "string", "enum": ["no longer needed", "ordered by mistake"]},
            "quantity": {"type": "integer"}, "refund": {"type": "number"},
            "notify": {"type": "boolean"}, "tags": {"type": "array", "items": {"type": "string"}}},
            "required": ["order_id", "reason"]}}},
]
TYPES = ("cancel_order", "lookup")


class FakeKit:
    constraint_types = TYPES
    auth_tools = ("find_user",)

    def plan(self, task: Task) -> list[PlanStep]:
        order = task.constraints[0].args["order_id"]
        return [
            PlanStep(call=ToolCall("find_user", {"email": f"{task.user_id}@example.com"})),
            PlanStep(say=f"Shall I cancel order {order}?", expects_confirmation=True),
            PlanStep(call=ToolCall("cancel_order", {"order_id": order,
                                                    "reason": "no longer needed"})),
        ]


class FakeToolEnv(gym.Env):
    metadata = {"render_modes": []}

    def __init__(self, max_turns: int = 8):
        self.max_turns = max_turns
        self.kit = FakeKit()
        self.action_space = LLMText(1000)
        self.observation_space = LLMText(1000)
        self.task = None
        self.turn = 0

    @property
    def episode(self) -> EpisodeRecord:
        return EpisodeRecord(None if self.task is None else self.task.id, self.turn, False,
                             (), (), (), tuple(TOOLS), None, "fake")

    def oracle_access(self) -> OracleAccess:
        if self.task is None:
            raise ValueError("no current task: reset the env first")
        return OracleAccess(self.task, self.kit, tuple(c.type for c in self.task.constraints))

    def ground_truth(self) -> list:
        return []

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        task_id = (options or {}).get("task_id") or f"train-{int(self.np_random.integers(100))}"
        split, _, number = task_id.rpartition("-")
        n = int(number)
        user = f"user{n}"
        types = TYPES[: 1 + n % 2]
        self.task = Task(
            id=task_id, domain="fake", split=split, user_id=user,
            identity=Description("user", f"the user number {n}", {}, user),
            constraints=tuple(Constraint(type=t, args={"order_id": f"#W{1000 + n}"})
                              for t in types))
        self.plan = self.kit.plan(self.task)
        self.position = 0
        self.on_plan = True
        self.turn = self.tool_calls = self.errors = 0
        self.lucky = bool(self.np_random.random() < (n % 4) / 3)
        return f"Hi, I am {user} and I want to cancel an order.", self._info()

    def _info(self, **extra):
        return dict(tools=TOOLS, task_id=self.task.id, turn=self.turn,
                    tool_calls=self.tool_calls, errors=self.errors, **extra)

    def step(self, action):
        self.turn += 1
        parsed = parse_action(action, tool_names=[t["function"]["name"] for t in TOOLS])
        expected = self.plan[self.position] if self.position < len(self.plan) else None
        reward, ended = 0.0, None
        if parsed.error:
            self.errors += 1
            self.on_plan = False
            observation = f"Error: {parsed.error}"
        elif parsed.calls:
            self.tool_calls += len(parsed.calls)
            ok = (expected is not None and expected.call is not None and len(parsed.calls) == 1
                  and parsed.calls[0].name == expected.call.name
                  and parsed.calls[0].arguments == expected.call.arguments)
            observation = '{"status": "ok", "order_id": "#W1234567"}' if ok else "Error: no"
            reward = 0.1 if ok else 0.0
        else:
            ok = expected is not None and expected.say == parsed.message
            if expected is None:
                ended, ok = "user_stop", True
            observation = "###STOP###" if ended else "yes"
        if ok and expected is not None:
            self.position += 1
        self.on_plan = self.on_plan and ok
        truncated = ended is None and self.turn >= self.max_turns
        if truncated:
            ended = "truncated"
        extra = {}
        if ended:
            success = ended == "user_stop" and self.on_plan and self.lucky
            score = 1.0 if success else 0.0
            reward += score
            extra["verification"] = {
                "score": score, "success": success, "ended": ended,
                "constraints": [{"type": c.type, "satisfied": success}
                                for c in self.task.constraints],
                "redundant_writes": 0 if self.on_plan else 1,
                "violations": 0 if self.on_plan else 2,
                "violation_counts": {} if self.on_plan else
                {"write_without_confirmation": 1, "write_before_authentication": 1},
                "satisfied_fraction": score,
            }
        return observation, reward, ended is not None and not truncated, truncated, \
            self._info(**extra)


ENV_ID = "ToolGymFake-v0"
if ENV_ID not in registry:
    register(id=ENV_ID, entry_point=FakeToolEnv, max_episode_steps=50)
