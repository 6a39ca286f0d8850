"""The scripted user's proposal judgement, per conversation id (issue #11, item 4).

    python benchmarks/scripted_user.py [--tasks 100] [--ids ToolRetail-v0 ...]

For every conversation id and test task ``0 .. N-1`` it prints: the oracle's success; the
success of the oracle's plan with every message rewritten in each style of
``tests/core/styles.py`` (terse, verbose, markdown, formats, question) and how many of
those proposals the user did not confirm; and, for wrong proposals built from each need's
intent (a rival substituted, role-bound values swapped, every rival added, the intended
value "ruled out" and a rival named), how many the user confirmed. Deterministic; no time
is measured.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.core.styles import STYLES, play, user_verdicts  # noqa: E402
from tool_gym import CONVERSATION_IDS  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tasks", type=int, default=100, help="test tasks per id")
    parser.add_argument("--ids", nargs="+", default=CONVERSATION_IDS)
    args = parser.parse_args()
    kinds = ("substituted", "swapped", "catch-all", "ruled-out")
    print(f"{'id':20} {'oracle':>6} " + " ".join(f"{s:>12}" for s in STYLES) + "  "
          + " ".join(f"{k:>12}" for k in kinds))
    for env_id in args.ids:
        n = args.tasks
        cells = [f"{sum(bool(play(env_id, s).get('success')) for s in range(n)) / n:6.2f}"]
        for style in STYLES:
            declined: list = []
            ok = sum(bool(play(env_id, s, style, declined=declined).get("success"))
                     for s in range(n))
            cells.append(f"{ok / n:6.2f}/{len(declined):<5}")
        sent, yes = Counter(), Counter()
        for s in range(n):
            for kind, confirmed in user_verdicts(env_id, s):
                sent[kind] += 1
                yes[kind] += confirmed
        wrong = [f"{yes[k]:>5}/{sent[k]:<6}" for k in kinds]
        print(f"{env_id:20} " + " ".join(cells) + "  " + " ".join(wrong), flush=True)
    print("styles: success/unconfirmed proposals; wrong proposals: confirmed/sent")


if __name__ == "__main__":
    main()
