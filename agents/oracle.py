"""``OraclePolicy``: plays the task kit's reference solution through the text interface.

The oracle is privileged: at ``reset`` it reads the episode's hidden task from the env
(``env.unwrapped.task``) and asks the domain's task kit for the plan
(``env.unwrapped.kit.plan(task)``). It then acts exactly as an LLM would, by text: a
plan step with a ``call`` becomes a Hermes ``<tool_call>`` block, a ``say`` step becomes
a message to the user. It does not read the tools' results or the user's replies, so it
succeeds only if the plan is right and the simulated user follows it: an oracle failure
points at the task kit, the user simulator or the verifier.
"""

from __future__ import annotations

from typing import Any

CLOSING = "Is there anything else I can help you with?"


class OraclePolicy:
    """Solves a task from its hidden intent (needs the env at ``reset``)."""

    closing = CLOSING

    def __init__(self) -> None:
        self.steps: list | None = None
        self.position = 0
        self.task_id: str | None = None

    def reset(self, observation: str, info: dict, env: Any = None) -> None:
        if env is None:
            raise ValueError("OraclePolicy reads the hidden task from the env: call "
                             "reset(observation, info, env) with the env of the episode")
        base = getattr(env, "unwrapped", env)
        task = getattr(base, "task", None)
        kit = getattr(base, "kit", None)
        if task is None or kit is None or not callable(getattr(kit, "plan", None)):
            raise ValueError(f"OraclePolicy needs an env with a current `task` and a `kit` "
                             f"with plan(task); {type(base).__name__} has none (reset it first)")
        task_id = info.get("task_id") if isinstance(info, dict) else None
        if task_id is not None and task_id != task.id:
            raise RuntimeError(f"the env's task is {task.id!r} but the episode's info says "
                               f"{task_id!r}")
        self.steps = list(kit.plan(task))
        self.position = 0
        self.task_id = task.id

    def act(self, observation: str, info: dict) -> str:
        if self.steps is None:
            raise RuntimeError("OraclePolicy.act before reset: call "
                               "reset(observation, info, env) at the start of each episode")
        if self.position >= len(self.steps):
            return self.closing
        step = self.steps[self.position]
        self.position += 1
        if step.call is not None:
            return step.call.to_hermes()
        if step.say is not None:
            return step.say
        raise ValueError(f"plan step {self.position - 1} of task {self.task_id!r} has neither "
                         f"a call nor a message: {step!r}")
