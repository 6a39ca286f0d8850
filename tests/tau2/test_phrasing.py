"""tau2's second-person instructions in the customer's first-person words."""

from __future__ import annotations


import pytest

from tool_gym.tau2.phrasing import customer_sentences, first_person
from tool_gym.tau2.source import load_tasks, locate

from .conftest import tau2_data


@pytest.mark.parametrize("text,expected", [
    ("You received your order #W1 and wish to return it.",
     "I received my order #W1 and wish to return it."),
    ("You are Yusuf Rossi in zip code 19122.", "I am Yusuf Rossi in zip code 19122."),
    ("You do not remember your email address", "I do not remember my email address"),
    ("the jigsaw you ordered", "the jigsaw I ordered"),
    ("A representative told you that an agent will help you.",
     "A representative told me that an agent will help me."),
    ("You're flying with your family and you'd like insurance.",
     "I'm flying with my family and I'd like insurance."),
])
def test_first_person(text, expected):
    assert first_person(text) == expected


def test_steering_sentences_dropped():
    text = ("You want to exchange the desk lamp. If the agent asks for confirmation, only "
            "exchange the lamp. Do not mention the bottle.")
    assert customer_sentences(text) == "I want to exchange the desk lamp."


@pytest.mark.parametrize("domain", ["retail", "airline"])
def test_every_reason_for_call_has_no_second_person(domain):
    for task in load_tasks(locate(domain, tau2_data(domain))):
        reason = task["user_scenario"]["instructions"]["reason_for_call"]
        said = customer_sentences(reason)
        assert said.strip(), task["id"]
        assert " you " not in f" {said.lower()} " and "your" not in said.lower(), (task["id"],
                                                                                  said)
