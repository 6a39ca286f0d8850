"""CRM data: realistic sizes and stages.
The checks every domain shares are in tests/domains/test_conformance.py."""

from __future__ import annotations

from tool_gym.domains.crm import DOMAIN
from tool_gym.domains.crm.tools import STAGES


def test_sizes_are_realistic():
    data = DOMAIN.generate(0)
    assert 200 <= len(data["reps"]) <= 500 and 3000 <= sum(map(len, data.values())) <= 15000
    assert {o["stage"] for o in data["opportunities"]} == set(STAGES)
    assert {lead["status"] for lead in data["leads"]} == {
        "new", "contacted", "qualified", "disqualified", "converted"}
    assert {t["status"] for t in data["tasks"]} == {"open", "completed"}
