"""Adapters between tool_gym environments and outside training libraries.

- :mod:`tool_gym.integrations.trl`: TRL's ``GRPOTrainer(environment_factory=...)`` for
  every registered id (``environment_factory``, ``task_dataset``).

Each adapter imports its library only when used.
"""
