"""The command lines: ``tool-gym-evaluate`` (:mod:`tool_gym.cli.evaluate`) and
``tool-gym-train`` (:mod:`tool_gym.cli.train`), with the checks they run before any work
(:mod:`tool_gym.cli.checks`). The repository's ``evaluate.py`` and ``train.py`` call the
same ``main``."""
