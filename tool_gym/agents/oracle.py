"""``OraclePolicy``: plays the task kit's reference solution through the text interface.

The oracle is privileged (:mod:`tool_gym.agents.privileged`): it is started with
``reset_privileged(observation, info, access)``, where ``access`` holds the episode's hidden
task and the domain's task kit, and it asks the kit for the plan (``access.kit.plan(task)``).
Only ``--policy oracle`` and the library's own code are granted that access; the plain
``reset(observation, info)`` of every other policy cannot start it. It then acts exactly
as an LLM would, by text: a plan step with a ``call`` becomes a Hermes ``<tool_call>``
block, a ``say`` step becomes a message to the user. It does not read the tools' results
or the user's replies, so it succeeds only if the plan is right and the simulated user
follows it: an oracle failure points at the task kit, the user simulator or the verifier.
"""

from __future__ import annotations

from .privileged import OracleAccess

CLOSING = "Is there anything else I can help you with?"


class OraclePolicy:
    """Solves a task from its hidden intent (a :class:`~tool_gym.agents.privileged.PrivilegedPolicy`)."""

    closing = CLOSING

    def __init__(self) -> None:
        self.steps: list | None = None
        self.position = 0
        self.task_id: str | None = None

    def reset(self, observation: str, info: dict) -> None:
        raise TypeError("OraclePolicy is privileged: start it with reset_privileged(observation, "
                        "info, OracleAccess.from_env(env)), as tool_gym.agents.episode_loop.run_episode and "
                        "evaluate.py --policy oracle do")

    def reset_privileged(self, observation: str, info: dict, access: OracleAccess) -> None:
        task, kit = access.task, access.kit
        task_id = info.get("task_id") if isinstance(info, dict) else None
        if task_id is not None and task_id != task.id:
            raise RuntimeError(f"the access's task is {task.id!r} but the episode's info says "
                               f"{task_id!r}")
        self.steps = list(kit.plan(task))
        self.position = 0
        self.task_id = task.id

    def act(self, observation: str, info: dict) -> str:
        if self.steps is None:
            raise RuntimeError("OraclePolicy.act before reset: call reset_privileged("
                               "observation, info, access) at the start of each episode")
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


class NeverWritesPolicy(OraclePolicy):
    """The oracle's plan without its writes: it identifies the user, reads, proposes and
    says everything the oracle says, and changes nothing (a probe: it must lose every task
    that needs a write)."""

    def reset_privileged(self, observation: str, info: dict, access: OracleAccess) -> None:
        from tool_gym.domains import get_domain
        from tool_gym.core.tools import Category

        super().reset_privileged(observation, info, access)
        toolbox = get_domain(access.task.domain).toolbox
        self.steps = [s for s in self.steps if s.call is None or s.call.name not in toolbox
                      or toolbox[s.call.name].category is not Category.WRITE]
