"""The databases of the domain tests besides the seed-0 template: hand-written ones, a
domain's generated data as a private copy (generated once per session), and the seeds a
generator test runs on."""

from __future__ import annotations

import copy
import json
from functools import cache

from hypothesis import example, given, settings
from hypothesis import strategies as st

from tool_gym.core.sandbox import Template, build_database
from tool_gym.domains import get_domain


def hand_written(name: str, data: dict, label: str = "tiny") -> Template:
    """A template of domain ``name`` holding (a copy of) hand-written ``data``."""
    domain = get_domain(name)
    return Template(domain, build_database(domain, data=copy.deepcopy(data)), (name, label))


@cache
def generated_json(name: str, seed: int) -> str:
    """The JSON text of domain ``name``'s generated data for ``seed``."""
    return json.dumps(get_domain(name).generate(seed))


def generated(name: str, seed: int) -> dict:
    """A private copy of domain ``name``'s generated data for ``seed``."""
    return json.loads(generated_json(name, seed))


def fixed_and_drawn_seeds(*fixed: int):
    """Run a test of ``seed`` on the ``fixed`` seeds, then on five that hypothesis draws."""
    def run_on_seeds(test):
        for seed in reversed(fixed):
            test = example(seed)(test)
        return settings(max_examples=5, deadline=None)(
            given(st.integers(min_value=0, max_value=2**32))(test))
    return run_on_seeds
