import numpy as np

from tool_gym.core.proposals import Intent, Param
from tool_gym.core.task_model import Constraint, Description, Task, TaskKit
from tool_gym.core.users import (READ_LIMIT, STOP, ScriptedUser, has_stop_marker,
                                 is_confirmation, mentions_all)


class Kit(TaskKit):
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
                    confirm_terms=(("#W1000001",), ("no longer needed",)),
                    intent=Intent((Param("action", ("cancel",)),
                                   Param("order", ("#W1000001",),
                                         (("#W1000002",), ("#W1000003",))),
                                   Param("reason", ("no longer need", "not needed",
                                                    "don't need"),
                                         (("ordered by mistake",),)))))
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


def test_every_wrong_proposal_gets_the_same_decline():
    u = user({})
    wrong_id = u.respond("Shall I cancel order #W9999999 because it's no longer needed?")
    wrong_reason = u.respond("Shall I cancel order #W1000001, reason: ordered by mistake?")
    no_reason = u.respond("Shall I cancel order #W1000001?")
    assert wrong_id == wrong_reason == no_reason
    assert wrong_id.startswith("No") and not is_confirmation(wrong_id)
    assert "#W9999999" not in wrong_id and u.stats.declines == 3


def test_confirms_the_intended_proposal_in_other_words():
    for text in ("Does this look correct? Order #W1000001 will be canceled, as you no longer "
                 "need it.",
                 "Cancel:\n- **Order:** #W1000001\n- **Reason:** not needed anymore\n\nSound good?",
                 "Would you like me to cancel #W1000001 since you don't need it?"):
        assert is_confirmation(user({}).respond(text)), text


def test_a_catch_all_proposal_is_not_confirmed():
    u = user({})
    reply = u.respond("Shall I cancel orders #W1000001, #W1000002 and #W1000003, since you no "
                      "longer need them?")
    assert not is_confirmation(reply)


CARD = Constraint("freeze_card", {"card_id": "card_1"}, writes=(("freeze_card", "card_1"),),
                  confirm_terms=(("freeze",), ("4242",)), say=("Please freeze my card 4242.",),
                  intent=Intent((Param("action", ("freeze",)),
                                 Param("card", ("4242", "card_1"), (("1111", "card_2"),))),
                                ("unfreeze",)))


def card_user():
    task = Task("t", "banking", "test", "u1",
                Description("user", "my username is ada", {"username": "ada"}, "u1"), (CARD,))
    return ScriptedUser(task, Kit({}), None, np.random.default_rng(0))


def test_competing_values_get_asked_to_be_specific():
    reply = card_user().respond("Should I freeze the card ending 4242 or the one ending 1111?")
    assert "specific" in reply and not is_confirmation(reply)
    assert is_confirmation(card_user().respond("I'll freeze your card ending 4242. Okay?"))
    assert not is_confirmation(card_user().respond("I'll unfreeze your card 4242. Okay?"))


def test_answers_only_the_identity_fields_asked_for():
    u = ScriptedUser(Task("t", "retail", "test", "u1", Description(
        "user", "Ada Lovelace, 10001", {"first_name": "Ada", "last_name": "Lovelace",
                                        "zip": "10001"}, "u1"), (CANCEL,)),
        Kit({}), None, np.random.default_rng(0))
    reply = u.respond("Could you confirm your zip code?")
    assert "10001" in reply and "Lovelace" not in reply
    reply = u.respond("And what's your full name?")
    assert "Ada Lovelace" in reply and "10001" not in reply
    assert "ada" in card_user().respond("What is your username?")
    assert "ada" in card_user().respond("Can I have the username on your account?")


def test_identity_questions_in_other_words_are_answered():
    for text in ("Could you share the email you sign in with?",
                 "What email do you use to log in?",
                 "First, to verify your account, could you tell me the email address or the "
                 "username on it?",
                 "I need to verify your account: what's the email address or the username you "
                 "sign in with?",
                 "To verify your account, I need your email address or username.",
                 "Please give me the email address on file.",
                 "**Verification:** could you tell me the email address or the app username of "
                 "your smart home account?"):
        assert "ada@example.com" in user({}).respond(text), text


def test_identity_questions_cannot_farm_a_confirmation_or_endless_answers():
    """A policy that tacks an identity question onto every proposal (or asks it forever)
    gets the identity, never a yes, and after a few answers no more of them."""
    u = user({})
    reply = u.respond("Could you give me your email or username? Shall I cancel order "
                      "#W1000001 because you no longer need it?")
    assert "ada@example.com" in reply and not is_confirmation(reply)
    u = user({}, patience=20)
    replies = [u.respond("What's the email you sign in with?") for _ in range(8)]
    assert sum("ada@example.com" in r for r in replies) <= 4
    assert not any(is_confirmation(r) for r in replies)


def test_words_about_email_or_verifying_are_not_identity_requests():
    for text in ("I have verified the order details.", "I will send the email to Bob. Shall I "
                 "forward the email to your manager too?", "Let me verify the charge.",
                 "Which email address should I forward it to?",
                 "What's the email address of the recipient?", "I need the reason for the return."):
        reply = user({}).respond(text)
        assert "ada@example.com" not in reply, text


def test_information_questions_are_never_proposals():
    u = user({})
    for text in ("Can I have the order number?", "Could you confirm which order it is?",
                 "May I ask why you want to cancel?"):
        reply = u.respond(text)
        assert not reply.startswith("No") and not is_confirmation(reply), text
    assert u.stats.declines == 0 and u.stats.confirmations == 0


def test_does_not_know_internal_ids_and_asks_what_is_meant():
    reply = card_user().respond("What is the card id?")
    assert "don't know" in reply and "card_1" not in reply
    known = Constraint("cancel", {"order_id": "#W1000001"}, say=("Cancel order #W1000001.",),
                       refs={"order": Description("order", "order #W1000001",
                                                  {"order_id": "#W1000001"}, "#W1000001")},
                       confirm_terms=(("#W1000001",),))
    u = ScriptedUser(Task("t", "retail", "test", "u1", TASK.identity, (known,)), Kit({}), None,
                     np.random.default_rng(0))
    reply = u.respond("What is the order number?")  # it knows this one: its wish says it
    assert reply == "As I said: I want cancel." and "don't know" not in reply
    reply = card_user().respond("How would you like to proceed with the thing?")
    assert "not sure what you mean" in reply.lower()


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


def test_reads_only_the_start_of_a_huge_message():
    proposal = "Shall I cancel order #W1000001 because you no longer need it?"
    assert is_confirmation(user({}).respond(proposal))
    reply = user({}).respond("x " * (READ_LIMIT // 2) + proposal)
    assert not is_confirmation(reply)
