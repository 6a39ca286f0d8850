"""Shared fixtures of the domain tests, for the domain named by the test's folder (the
conformance suite parametrizes ``domain_name``): ``tpl`` its seed-0 template (a folder may
override it with a hand-written database: :mod:`tests.domains.databases`), ``db`` its state for
reads, ``box`` a fresh sandbox of ``tpl`` per test, ``call`` the helpers of
:mod:`tests.domains.calls` bound to ``box``, ``state`` the export of the generated data,
``tasks`` 200 tasks sampled from it, and ``tiny_sandbox`` a fresh sandbox of the folder's
``tiny_template``."""

from __future__ import annotations

import numpy as np
import pytest

from tool_gym.core.sandbox import Sandbox, Template, template
from tool_gym.core.task_model import SamplerConfig, Task
from tool_gym.domains import get_domain

from . import calls


@pytest.fixture(scope="module")
def domain_name(request) -> str:
    return request.path.parent.name


@pytest.fixture(scope="module")
def tpl(domain_name) -> Template:
    return template(domain_name, 0)


@pytest.fixture(scope="module")
def db(tpl):
    """The state of ``tpl``, for reads only."""
    return tpl.reader()


@pytest.fixture
def box(tpl):
    with Sandbox(tpl) as sandbox:
        yield sandbox


@pytest.fixture
def tiny_sandbox(tiny_template):
    with Sandbox(tiny_template) as sandbox:
        yield sandbox


@pytest.fixture(scope="module")
def state(domain_name) -> dict:
    """The export of the generated data (seed 0), which ``tasks`` are sampled from."""
    with Sandbox(template(domain_name, 0)) as sandbox:
        return sandbox.export()


@pytest.fixture
def rules_kept(box):
    """Opt-in (``pytest.mark.usefixtures``): the domain's rules hold before and after."""
    assert box.check_integrity() == []
    yield
    assert box.check_integrity() == []


class Caller:
    """:mod:`tests.domains.calls` on one sandbox: ``ok(name, **args)``, ``err(name, **args)``
    (the message of a failure that changed nothing), ``one(query, params)`` (a row)."""

    def __init__(self, box: Sandbox):
        self.box = box

    def ok(self, name: str, /, **arguments):
        return calls.ok(self.box, name, **arguments)

    def err(self, name: str, /, **arguments) -> str:
        return calls.fails(self.box, name, **arguments)

    def one(self, query: str, params: tuple = ()) -> tuple:
        return calls.one(self.box, query, params)


@pytest.fixture
def call(box) -> Caller:
    return Caller(box)


@pytest.fixture(scope="module")
def tasks(domain_name) -> list[Task]:
    """Tasks ``t-0`` .. ``t-199`` of the generated data (seed 0), splits alternating."""
    kit, db = get_domain(domain_name).tasks, template(domain_name, 0).reader()
    return [kit.sample(db, np.random.default_rng(i), ("train", "test")[i % 2],
                       SamplerConfig(max_constraints=3), f"t-{i}") for i in range(200)]
