"""Grounded answers and earned refusals in every domain (``tool_gym.core.grounding``):
answers count only after a read showed them and in any equivalent form; refusals only once
earned and when they address the request (``Refusal.about``: the oracle's refusal and
careful rewordings pass, a generic "Sorry, I can't do that." fails); fixed or sprayed
messages never win."""

from __future__ import annotations

import importlib

import pytest

from tool_gym.core.sandbox import template
from tool_gym.domains import BUILTINS

from . import grounding_cases as cases

DOMAINS = tuple(sorted(BUILTINS))


@pytest.fixture(scope="module", params=DOMAINS)
def domain(request):
    """``(name, kit, template, sampled tasks)`` of one domain."""
    name = request.param
    kit = importlib.import_module(f"tool_gym.domains.{name}.tasks").TASKS
    tpl = template(name, 0)
    return name, kit, tpl, cases.sample_tasks(kit, tpl)


def test_restated_answers_pass(domain):
    _, kit, tpl, tasks = domain
    assert cases.check_restated_answers_pass(kit, tpl, tasks) > 0


def test_answer_before_the_read_fails(domain):
    _, kit, tpl, tasks = domain
    assert cases.check_answer_before_the_read_fails(kit, tpl, tasks) > 0


def test_answer_copied_from_the_user_fails(domain):
    _, kit, tpl, tasks = domain
    assert cases.check_answer_from_the_user_fails(kit, tpl, tasks) > 0


def test_spray_after_the_reads_fails(domain):
    _, kit, tpl, tasks = domain
    cases.check_spray_after_the_reads_fails(kit, tpl, tasks)


def test_refusals_must_be_earned(domain):
    _, kit, tpl, tasks = domain
    assert cases.check_refusals_must_be_earned(kit, tpl, tasks) > 0


def test_refusals_naming_another_record_fail(domain):
    _, kit, tpl, tasks = domain
    checked, with_rivals = cases.check_refusals_naming_another_record_fail(kit, tpl, tasks)
    assert checked > 0 and with_rivals > 0


def test_refusals_must_address_the_request(domain):
    _, kit, tpl, _ = domain
    tasks = cases.sample_tasks(kit, tpl, 60)
    assert cases.check_refusals_must_address_the_request(kit, tpl, tasks) > 0


def test_fixed_refusal_every_turn_never_wins(domain):
    cases.check_fixed_messages_never_win(domain[0], lambda env: cases.FIXED_REFUSAL)


def test_spray_of_the_users_values_never_wins(domain):
    cases.check_fixed_messages_never_win(domain[0], cases.user_row_spray)
