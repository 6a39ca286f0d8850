"""``tool-gym-evaluate`` from a checkout: ``python evaluate.py --help``.

The command lives in :mod:`tool_gym.cli.evaluate`; this file only runs it.
"""

import sys

from tool_gym.cli.evaluate import main

if __name__ == "__main__":
    sys.exit(main())
