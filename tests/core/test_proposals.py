import pytest

from tool_gym.core.proposals import (Intent, Param, Verdict, asks_approval, asks_information,
                                     judge)
from tool_gym.core.task_model import Constraint, Description, Task

CANCEL = Intent((
    Param("action", ("cancel",)),
    Param("order", ("#W1000001",), (("#W1000002",), ("#W1000003",))),
    Param("reason", ("no longer needed", "no longer need", "don't need"),
          (("ordered by mistake", "by mistake"),)),
))
TRANSFER = Intent((
    Param("amount", ("1202", "1,202")),
    Param("from", ("acc_1", "checking account", "0970"), (("acc_2", "savings account", "5094"),),
          ("from", "out of")),
    Param("to", ("acc_2", "savings account", "5094"), (("acc_1", "checking account", "0970"),),
          ("to", "into")),
))
FREEZE = Intent((Param("action", ("freeze", "block")), Param("card", ("4242",), (("1111",),))),
                opposite=("unfreeze", "unblock"))
EXCHANGE = Intent((Param("item", ("1234567890", ("Water Bottle", "red", "750ml"))),))
MEETING = Intent((Param("date", ("2024-05-03", "May 3")), Param("time", ("14:00", "2 pm"))))


@pytest.mark.parametrize("text", [
    "I will cancel order #W1000001 because it's no longer needed. Shall I proceed?",
    "Cancel **#W1000001** (reason: you no longer need it)?",
    "- Order: `#W1000001`\n- Reason: you don't need it anymore\n\nI'll get it canceled. OK?",
    "Just to double-check: order #W1000001 will be CANCELLED since you no longer need it.",
])
def test_a_correct_proposal_in_any_style_is_confirmed(text):
    assert judge(text, CANCEL) is Verdict.YES


@pytest.mark.parametrize("text", [
    "I will move $1,202.00 from your checking account (ending 0970) to your savings account.",
    "Transfer 1202 dollars out of acc_1 into acc_2?",
    "Moving one thousand two hundred and two dollars from checking ...0970 to savings ...5094.",
])
def test_amounts_and_roles_in_any_notation(text):
    assert judge(text, TRANSFER) is Verdict.YES


def test_a_swapped_direction_is_declined():
    text = "I will move $1,202 from your savings account (5094) to your checking account (0970)."
    assert judge(text, TRANSFER) is Verdict.NO
    assert judge("Transfer $1,202 into 0970 out of 5094?", TRANSFER) is Verdict.NO


def test_competing_values_ask_for_specifics_whichever_is_right():
    both = "I can cancel order #W1000001 or #W1000002, since you no longer need it. OK?"
    assert judge(both, CANCEL) is Verdict.VAGUE
    wrong_pair = "I can cancel order #W1000003 or #W1000002, since you no longer need it. OK?"
    assert judge(wrong_pair, CANCEL) is Verdict.VAGUE  # same answer: it reveals nothing
    every = "Cancel #W1000001, #W1000002 and #W1000003, no longer needed?"
    assert judge(every, CANCEL) is Verdict.VAGUE
    reasons = "Cancel #W1000001 because it's no longer needed or was ordered by mistake?"
    assert judge(reasons, CANCEL) is Verdict.VAGUE
    ruled_out = "The card ending 4242 is not eligible, so I'll freeze the card ending 1111."
    assert judge(ruled_out, FREEZE) is Verdict.VAGUE


def test_substituted_values_and_opposite_actions_are_declined():
    assert judge("Cancel order #W1000002, no longer needed?", CANCEL) is Verdict.NO
    assert judge("Cancel order #W1000001, ordered by mistake?", CANCEL) is Verdict.NO
    assert judge("I will unfreeze the card ending in 4242.", FREEZE) is Verdict.NO
    assert judge("I will freeze the card ending in 4242.", FREEZE) is Verdict.YES
    assert judge("I will freeze the card ending in 4242. You can unfreeze it at any time.",
                 FREEZE) is Verdict.YES
    assert judge("I will freeze and then unfreeze the card ending in 4242.",
                 FREEZE) is Verdict.NO
    assert judge("Move $1,203 from checking to savings?", TRANSFER) is Verdict.NO
    # an id the need does not have (another entity) is not confirmed
    assert judge("Cancel #W1000001 and #W7777777, you don't need them?", CANCEL) is Verdict.NO
    assert judge("Cancel #W1000001 and #W7777777, you don't need them?", CANCEL,
                 known=["#W7777777"]) is Verdict.YES


def test_descriptions_dates_and_times():
    assert judge("Exchange it for the red Water Bottle (750ml)?", EXCHANGE) is Verdict.YES
    assert judge("Exchange it for the blue Water Bottle (750ml)?", EXCHANGE) is Verdict.NO
    assert judge("Exchange it for item 1234567890?", EXCHANGE) is Verdict.YES
    assert judge("Exchange it for item 12345678901?", EXCHANGE) is Verdict.NO
    for text in ("Move it to May 3, 2024 at 2:00 PM?", "Move it to 05/03/2024, 14:00?",
                 "Move it to **Friday, May 3rd** at 2pm?"):
        assert judge(text, MEETING) is Verdict.YES, text
    assert judge("Move it to May 4, 2024 at 2:00 PM?", MEETING) is Verdict.NO
    assert judge("Move it to May 3, 2024 at 3:00 PM?", MEETING) is Verdict.NO


def test_intent_from_terms_widens_actions_and_keeps_rivals():
    intent = Intent.from_terms((("freeze",), ("4242",)), rivals={1: ["1111", "4242"]})
    assert intent.params[1].rivals == (("1111",),)
    assert "unfreeze" in intent.opposite
    assert judge("I'll block the card ending 4242. OK?", intent) is Verdict.YES
    assert judge("I'll unfreeze the card ending 4242. OK?", intent) is Verdict.NO
    assert judge("Freeze 4242 or 1111?", intent) is Verdict.VAGUE


@pytest.mark.parametrize("text", [
    "Does this look correct?", "Sound good?", "Shall I go ahead?", "Should I proceed?",
    "Would you like me to cancel it?", "Can you confirm you'd like me to do this?",
    "Do you want me to go ahead with this?", "Is that okay with you?", "Is this correct?",
    "Please confirm and I will proceed.", "Can I go ahead and cancel it?",
    "May I proceed with the refund?", "Let me know if you'd like me to make this change.",
    "Reply yes to confirm.", "**Shall I proceed?**", "Would you like to proceed?",
    "Does that work for you?", "Are you sure you want to cancel it?", "Confirm?",
    "Shall I?", "Can you give me the go-ahead?", "Could I get your confirmation to proceed?",
])
def test_approval_requests(text):
    assert asks_approval(text), text
    assert not asks_information(text), text


@pytest.mark.parametrize("text", [
    "Can I have your email?", "Could you confirm your zip code?", "What is the order number?",
    "Which order would you like me to cancel?", "What would you like me to do?",
    "Could you tell me the name on the account?", "May I ask for your username?",
    "Can I get the last four digits of the card?",
])
def test_information_requests_are_not_proposals(text):
    assert not asks_approval(text), text
    assert asks_information(text), text


def test_statements_are_neither():
    for text in ("I have verified the order.", "Done. The email was sent.", "One moment."):
        assert not asks_approval(text) and not asks_information(text), text


def test_intent_round_trips_through_task_dicts():
    c = Constraint("transfer", {"amount": 1202}, intent=TRANSFER)
    task = Task("t", "banking", "test", "u", Description("user", "x", {}, "u"), (c,))
    again = Task.from_dict(task.to_dict())
    assert again.constraints[0].intent == TRANSFER
    assert Task.from_dict(Task("t", "d", "test", "u", Description("user", "x", {}, "u"), (
        Constraint("x", {}),)).to_dict()).constraints[0].intent is None


def test_rivals_come_from_other_draws_of_the_same_need_type():
    from tool_gym.core.proposals import entity_groups, intent_with_rivals

    def meeting(title, other=None):
        return Constraint("cancel_meeting", {"event_id": title},
                          refs={"event": Description("event", f'the "{title}" meeting',
                                                     {"title": title}, title)},
                          confirm_terms=((title,), ("cancel",)),
                          say=(f'Cancel "{title}"' + (f" (not {other})" if other else ""),))

    mine = meeting("Roadmap review", other="Budget sync")
    assert entity_groups(mine) == [0]
    intent = intent_with_rivals(mine, [meeting("Roadmap review"), meeting("Design sync"),
                                       meeting("Budget sync"), None])
    # the same title again and a title the user's own words name are no rivals
    assert intent.params[0].rivals == (("Design sync",),)
    assert judge('Cancel "Roadmap review" and "Design sync"?', intent) is Verdict.VAGUE
    assert judge('Cancel "Roadmap review"?', intent) is Verdict.YES


def test_swapped_order_of_replaced_and_replacement_is_declined():
    intent = Intent((Param("old", ("1111111111", ("Lamp", "red"))),
                     Param("new", ("2222222222", ("Lamp", "blue")))), before=(("old", "new"),))
    assert judge("Exchange item 1111111111 for item 2222222222?", intent) is Verdict.YES
    assert judge("Exchange the red Lamp for the blue Lamp?", intent) is Verdict.YES
    assert judge("Exchange item 2222222222 for item 1111111111?", intent) is Verdict.NO
