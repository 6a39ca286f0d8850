"""``tool-gym-train`` from a checkout: ``python train.py --help``.

The command lives in :mod:`tool_gym.cli.train`; this file only runs it.
"""

import sys

from tool_gym.cli.train import main

if __name__ == "__main__":
    sys.exit(main())
