import numpy as np

from tool_gym.core.tasks import Constraint, Description, Task
from tool_gym.core.users import STOP, ScriptedUser, has_stop_marker, is_confirmation, mentions_all


class Kit:
    """Needs hold when the fake database dict says so."""

    def __init__(self, state):
        self.state = state

    def check(self, db, task, constraint, messages):
        if constraint.answer is not None:
            return any(constraint.answer in m for m in messages)
        return self.state.get(constraint.type, False)

    def opening(self, task, constraint, rng):
        return f"Hi, I need help: {constraint.type}."

    def request(self, task, constraint, rng):
        return f"I want {constraint.type}."

    def identify(self, task, rng):
        return "My email is ada@example.com."


CANCEL = Constraint("cancel", {"order_id": "#W1000001", "reason": "no longer needed"},
                    writes=(("cancel_pending_order", "#W1000001"),),
                    confirm_terms=(("#W1000001",), ("no longer needed",)))
INFO = Constraint("info", {"order_id": "#W1000002"}, answer="123456789012")
TASK = Task("train-1", "retail", "train", "ada_1",
            Description("user", "ada@example.com", {"email": "ada@example.com"}, "ada_1"),
            (CANCEL, INFO))


def user(state, patience=6, seed=0):
    return ScriptedUser(TASK, Kit(state), None, np.random.default_rng(seed), patience=patience)


def test_confirmation_detection():
    for text in ["Yes, please go ahead.", "yes", "Sure.", "OK, do it", "Yes, I confirm."]:
        assert is_confirmation(text), text
    for text in ["No.", "Yes? No, wait, don't do it.", "Maybe", "", "I said yes before, not now"]:
        assert not is_confirmation(text), text
    assert has_stop_marker(f"Thanks! {STOP}") and not has_stop_marker("thanks")
    assert mentions_all("Cancel #W1000001 because no longer needed?", CANCEL.confirm_terms)
    assert not mentions_all("Cancel #W1000001?", CANCEL.confirm_terms)


def test_full_conversation():
    state = {}
    u = user(state)
    assert "cancel" in u.opening()
    assert "email" in u.respond("Could you give me your email?")
    reply = u.respond("I will cancel order #W1000001 for reason 'no longer needed'. Shall I proceed?")
    assert is_confirmation(reply)
    state["cancel"] = True  # the agent's write happened
    reply = u.respond("Done. Anything else?", [("cancel_pending_order", "#W1000001", "ada_1")])
    assert "info" in reply and not u.done
    reply = u.respond("The tracking number is 123456789012.")
    assert STOP in reply and u.done
    assert u.stats.confirmations == 1 and u.stats.identity_answers == 1


def test_declines_a_wrong_proposal_and_names_the_wrong_order():
    u = user({})
    reply = u.respond("Shall I cancel order #W9999999 because it was ordered by mistake?")
    assert reply.startswith("No, that's not the right order.")
    reply = u.respond("Shall I cancel order #W1000001, reason: ordered by mistake?")
    assert reply.startswith("No") and not is_confirmation(reply)
    assert u.stats.declines == 2


def test_corrects_a_write_on_the_wrong_entity():
    u = user({})
    reply = u.respond("Done!", [("cancel_pending_order", "#W5555555", "ada_1")])
    assert reply.startswith("Wait") and u.stats.corrections == 1


def test_gives_up_without_progress():
    u = user({}, patience=2)
    replies = [u.respond("Hmm.") for _ in range(3)]
    assert STOP in replies[-1] and u.done and u.stats.gave_up


def test_deterministic_given_seed():
    a = [user({}, seed=5).respond(m) for m in ("Your email?", "Hello", "Proceed?")]
    b = [user({}, seed=5).respond(m) for m in ("Your email?", "Hello", "Proceed?")]
    assert a == b
