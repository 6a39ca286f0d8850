"""Grounded answers and earned refusals on hand-made episode logs, and the env's log."""

from __future__ import annotations

import json
import pickle

from tool_gym.core.grounding import (AgentMessage, EpisodeLog, answers, communicated,
                                     earned_refusal, grounded_answer, refuses, states_refusal)
from tool_gym.core.task_model import Constraint, Refusal

USER = "u_1"
ORDER = {"order_id": "#W0000001", "status": "delivered", "total": 1202.5,
         "placed": "2024-05-03", "items": 3}


def episode(*calls) -> EpisodeLog:
    """A log: the user authenticated, then ``calls`` as (tool, arguments, result, write)."""
    log = EpisodeLog()
    log.record_call("find_user", {"email": "a@b.c"}, True, USER, False, None, USER)
    for tool, arguments, result, write in calls:
        content = result if isinstance(result, str) else json.dumps(result)
        log.record_call(tool, arguments, True, content, write,
                        arguments.get("order_id") if write else None, USER)
    return log


def read_order():
    return ("get_order", {"order_id": "#W0000001"}, ORDER, False)


def test_agent_message_is_a_string_with_its_place():
    log = episode(read_order())
    m = log.agent_message("The total is $1,202.50.")
    assert isinstance(m, str) and m == "The total is $1,202.50." and m.position == 2
    again = pickle.loads(pickle.dumps(m))
    assert again == m and again.position == 2 and len(again.log.events) == 2
    assert not answers("The total is $1,202.50.", "1202.50")  # a plain str is never grounded


def test_answer_needs_a_read_that_showed_it_first():
    log = EpisodeLog()
    early = log.agent_message("The total is $1,202.50.")
    log.record_call("get_order", {"order_id": "#W0000001"}, True, json.dumps(ORDER), False,
                    None, None)
    late = log.agent_message("The total is $1,202.50.")
    assert not answers(early, "1202.50") and answers(late, "1202.50")
    assert grounded_answer([early, late], "1202.50")
    assert not answers(log.agent_message("The total is $1,202.00."), "1202.50")


def test_equivalent_forms():
    log = episode(read_order())
    for text, answer in [("It was placed on May 3, 2024.", "2024-05-03"),
                         ("It has **three** items.", "3"),
                         ("Status: `Delivered`", "delivered"),
                         ("Order #W0000001 costs 1202.5 dollars", "1202.50")]:
        assert answers(log.agent_message(text), answer), text


def test_competing_values_fail_unless_shown_and_few():
    log = episode(read_order())
    assert not answers(log.agent_message("It costs $1,202.50, or maybe $99."), "1202.50")
    # another value that a tool showed is no competition (up to three of the kind)
    assert answers(log.agent_message("3 items, order #W0000001, 1202.50 total"), "3")
    assert not answers(log.agent_message("It has 3 or 4 items."), "3")
    assert not answers(log.agent_message("It is delivered, not pending."), "delivered")


def test_spray_fails_even_when_every_value_was_shown():
    rows = [{"id": f"o{i}", "total": t} for i, t in enumerate((10.5, 20.25, 30.75, 40.5))]
    log = episode(("list_orders", {"user_id": USER}, rows, False))
    assert answers(log.agent_message("That order's total is $10.50."), "10.50")
    spray = log.agent_message("Totals: $10.50, $20.25, $30.75, $40.50.")
    assert not answers(spray, "10.50")
    # a whole amount may be written bare: then a list of bare numbers is a spray too
    rows = [{"id": "o1", "total": 18000, "items": 2}, {"id": "o2", "total": 500, "items": 7}]
    log = episode(("list_orders", {"user_id": USER}, rows, False))
    assert answers(log.agent_message("The total is 18000 over 2 orders."), "18000.00")
    assert not answers(log.agent_message("Numbers: 1, 2, 7, 500, 18000."), "18000.00")


def test_the_users_words_are_no_evidence_but_no_competition_either():
    log = episode()
    log.record_user("My order from June 3 cost $1,202.50, right?")
    assert not answers(log.agent_message("Yes, $1,202.50."), "1202.50")
    log = episode(read_order())
    log.record_user("Was it more than $1,000?")
    assert answers(log.agent_message("Yes: $1,202.50, more than $1,000."), "1202.50")


def test_computed_answers_need_their_evidence():
    log = episode(("list_items", {"order_id": "#W0000001"}, [{"sku": "a"}] * 3, False))
    said = log.agent_message("There are 3 items.")
    assert not answers(said, "3")  # no result shows "3" and no evidence is declared
    assert answers(said, "3", evidence=(("list_items", "#W0000001"),))
    log = episode(("list_items", {"order_id": "#W0000002"}, [{"sku": "a"}], False))
    assert not answers(log.agent_message("There are 3 items."), "3",
                       evidence=(("list_items", "#W0000001"),))


def test_text_answers_and_their_rivals():
    rooms = [{"event": "e1", "room": "Atlas Room"}, {"event": "e2", "room": "Birch"},
             {"event": "e3", "room": "Cedar"}, {"event": "e4", "room": "Dune"},
             {"event": "e5", "room": "Elm"}]
    log = episode(("list_events", {"user_id": USER}, rooms, False))
    assert answers(log.agent_message("It is in the **atlas room**."), "Atlas Room")
    assert not answers(log.agent_message("Atlas Room, Birch, Cedar or Dune."), "Atlas Room")
    assert not answers(log.agent_message("It is in the Atlas Roomy."), "Atlas Room")


def test_a_day_without_its_year_answers_a_date_that_was_shown():
    log = episode(read_order())
    for text in ("It was placed on May 3.", "Placed on the 3rd of May.", "3 May",
                 "It was placed **May 3rd**."):
        assert answers(log.agent_message(text), "2024-05-03"), text
    # another day is a competing date, with or without its year
    assert not answers(log.agent_message("It was placed on May 4."), "2024-05-03")
    assert not answers(log.agent_message("May 3, or was it June 3?"), "2024-05-03")
    assert not answers(log.agent_message("On May 3 (not 2024-06-03)."), "2024-05-03")
    # the day must have been shown: before the read it is no answer
    early = EpisodeLog().agent_message("It was placed on May 3.")
    assert not answers(early, "2024-05-03")


def test_half_bold_values_are_read_as_one_value():
    files = [{"path": "/docs/report.pdf", "name": "report.pdf", "size": 1202.5},
             {"path": "/docs/report.txt", "name": "report.txt", "size": 12}]
    log = episode(("list_files", {"path": "/docs"}, files, False))
    assert answers(log.agent_message("It is **report**.pdf."), "report.pdf")
    assert answers(log.agent_message("The size is **$1,202**.50."), "1202.50")
    assert answers(log.agent_message("The size is **1,202.50**."), "1202.50")
    # each reading still has to be free of competing values
    assert not answers(log.agent_message("**$1,202**.50 or $99"), "1202.50")


def test_a_refusal_naming_another_record_of_the_kind_fails():
    user = {"user_id": USER, "orders": ["#W0000001", "#W0000002", "#W0000003"]}
    log = episode(("get_user", {"user_id": USER}, user, False), read_order())
    ok = ("I'm sorry, but I can't cancel order #W0000001: it is delivered.",
          "I can't cancel that order: it is already delivered.",  # names no record: terse
          "I can't cancel **#W0000001**.")
    for text in ok:
        assert refuses(log.agent_message(text), USER, ("#W0000001",)), text
    bad = ("I'm sorry, but I can't cancel order #W0000002.",            # the other order
           "I can't do that for any of #W0000001, #W0000002, #W0000003.",  # a spray
           "I can't cancel W0000003 or #W0000001.")
    for text in bad:
        assert not refuses(log.agent_message(text), USER, ("#W0000001",)), text
    # ids without digits are records too when a result gave them as one
    log2 = episode(("get_user", {"user_id": USER}, {"reservations": ["HATHAT", "QWERTY"]}, False),
                   ("get_reservation", {"reservation_id": "HATHAT"}, {"reservation_id": "HATHAT"},
                    False))
    assert refuses(log2.agent_message("I can't cancel HATHAT."), USER, ("HATHAT",))
    assert not refuses(log2.agent_message("I can't cancel QWERTY."), USER, ("HATHAT",))
    # a record bold in part is still named
    assert not refuses(log.agent_message("I can't cancel **#W**0000002."), USER, ("#W0000001",))
    # an id of the need itself (its arguments) is no competition
    assert refuses(log.agent_message("I can't move it from #W0000001 to #W0000002."), USER,
                   ("#W0000001",), own=("#W0000001", "#W0000002"))
    # declared rivals (the need's intent) fail by any of their forms
    assert not refuses(log.agent_message("I can't cancel your order of the red lamp."), USER,
                       ("#W0000001",), rivals=((("red", "lamp"),),))
    assert refuses(log.agent_message("I can't cancel your order of the blue lamp."), USER,
                   ("#W0000001",), rivals=((("red", "lamp"),),))


def test_refusal_wordings():
    for text in ("I cannot do that.", "Sorry, we can't.", "I'm unable to cancel it.",
                 "That isn't possible.", "It is not eligible.", "This is not allowed.",
                 "I\u2019m afraid we can\u2019t do that.", "It can no longer be cancelled.",
                 "Our policy doesn't allow it."):
        assert states_refusal(text), text
    for text in ("Done!", "Sure, I can do that.", "Let me check.", "Shall I proceed?"):
        assert not states_refusal(text), text


def test_refusal_must_be_earned():
    text = "I'm sorry, but I can't cancel it: it is not eligible."
    read = read_order()
    log = episode(read)
    assert refuses(log.agent_message(text), USER, ("#W0000001",))
    assert not refuses(log.agent_message("Let me see."), USER, ("#W0000001",))
    assert not refuses(text, USER, ("#W0000001",))                     # no log
    assert not refuses(log.agent_message(text), "u_2", ("#W0000001",))  # another user
    assert not refuses(log.agent_message(text), USER, ("#W0000009",))    # record not read
    assert not refuses(log.agent_message(text), USER, (("get_invites", "#W0000001"),))
    unauthenticated = EpisodeLog()
    unauthenticated.record_call(*read[:2], True, json.dumps(ORDER), False, None, None)
    assert not refuses(unauthenticated.agent_message(text), USER, ("#W0000001",))
    early = EpisodeLog()
    said = early.agent_message(text)
    early.record_call("find_user", {}, True, USER, False, None, USER)
    early.record_call(*read[:2], True, json.dumps(ORDER), False, None, USER)
    assert not refuses(said, USER, ("#W0000001",))                       # said before


def test_a_write_on_the_record_undoes_a_refusal():
    text = "I cannot cancel it."
    log = episode(read_order())
    said = log.agent_message(text)
    assert refuses(said, USER, ("#W0000001",))
    log.record_call("cancel_order", {"order_id": "#W0000001"}, True, "{}", True, "#W0000001",
                    USER)
    assert not refuses(said, USER, ("#W0000001",))
    assert refuses(said, USER, ("#W0000001",), tools=("return_order",))
    assert earned_refusal([said], USER, ("#W0000001",),
                          allowed=[("cancel_order", "#W0000001")])


def test_communicated_dispatches_on_the_constraint():
    class T:
        user_id = USER
        constraints = ()

    log = episode(read_order())
    info = Constraint("info", {}, answer="1202.50")
    refusal = Constraint("refuse", {}, answer="cannot", refusal=Refusal(("#W0000001",)))
    write = Constraint("write", {})
    T.constraints = (info, refusal, write)
    assert communicated(T, info, [log.agent_message("$1,202.50")])
    assert not communicated(T, info, ["$1,202.50"])
    assert communicated(T, refusal, [log.agent_message("I can't cancel that order.")])
    assert not communicated(T, refusal, [log.agent_message("$1,202.50")])
    assert communicated(T, write, [])


def test_env_records_grounded_messages():
    from tool_gym.envs.tool_env import ToolEnv

    env = ToolEnv("retail")
    try:
        env.reset(seed=0, options={"task_id": "test-0"})
        env.step("Hello, how can I help?")
        env.step('Checking.<tool_call>{"name": "get_order_details", "arguments": '
                 '{"order_id": "#W0000001"}}</tool_call>')
        env.step("Thanks.")
        first, side, last = env.agent_messages
        assert all(isinstance(m, AgentMessage) and m.log is env.log for m in env.agent_messages)
        # a message sent with calls was written before they ran
        assert (first.position, side.position, last.position) == (0, 0, 1)
        assert env.log.events[0].tool == "get_order_details"
        assert len(env.log.user_texts) == 3  # the opening and two replies
    finally:
        env.close()


def test_a_refusal_must_address_the_request_when_it_declares_about():
    from tool_gym.core.grounding import addresses

    about = ("#W0000001", ("red", "lamp"), "processed", "already shipped")
    log = episode(read_order())
    for text in ("I can't cancel #W0000001.",               # the record's id
                 "I can't cancel W0000001, sorry.",          # without its '#'
                 "I can't cancel your lamp: it's the red one.",  # all parts of a form
                 "Can't — it's already **processed**.",      # the blocking fact, markdown
                 "I'm afraid it has ALREADY SHIPPED."):
        assert refuses(log.agent_message(text), USER, ("#W0000001",), about=about), text
    for text in ("Sorry, I can't do that.",
                 "I can't cancel your lamp.",                # a form's part alone
                 "I can't: it is unprocessed.",              # whole words only
                 "I can't cancel the #W00000011 order."):    # not the id (and invented)
        assert not refuses(log.agent_message(text), USER, ("#W0000001",), about=about), text
    assert refuses(log.agent_message("Sorry, I can't do that."), USER, ("#W0000001",))
    assert addresses("anything", ()) and not addresses("x" * 30_000, ("processed",))
    # a refusal that names the reason but was not earned still fails
    assert not refuses(log.agent_message("Can't: already processed."), "u_2",
                       ("#W0000001",), about=about)


def test_communicated_threads_the_refusal_about():
    class T:
        user_id = USER
        constraints = ()

    log = episode(read_order())
    refusal = Constraint("refuse", {}, answer="cannot",
                         refusal=Refusal(("#W0000001",), about=("processed",)))
    T.constraints = (refusal,)
    generic, specific = "I can't cancel that order.", "I can't cancel it: it was processed."
    assert not communicated(T, refusal, [log.agent_message(generic)])
    assert communicated(T, refusal, [log.agent_message(generic), log.agent_message(specific)])
    assert earned_refusal([log.agent_message(specific)], USER, ("#W0000001",),
                          about=["processed"])


def test_refusal_about_round_trips_through_task_dicts():
    from tool_gym.core.task_model import Description, Task

    identity = Description("user", "me", {}, USER)
    c = Constraint("refuse", {"order_id": "#W0000001"}, answer="cannot",
                   refusal=Refusal(("#W0000001",), about=("#W0000001", ("red", "lamp"))))
    task = Task("t-1", "retail", "test", USER, identity, (c,), {})
    back = Task.from_dict(json.loads(json.dumps(task.to_dict())))
    assert back.constraints[0].refusal == c.refusal
    assert Task.from_dict({**task.to_dict(), "constraints": [
        {**task.to_dict()["constraints"][0], "refusal": {"records": ["#W0000001"]}}]}
    ).constraints[0].refusal.about == ()


def test_a_pasted_tool_result_is_no_answer():
    """Echoing a record back (JSON pairs, or a dozen values) is a dump, not an answer, even
    when the record holds the answer and no competing value of its kind."""
    log = episode(read_order())
    assert answers(log.agent_message("Your order's total is $1,202.50."), "1202.50")
    assert not answers(log.agent_message(json.dumps(ORDER)), "1202.50")
    assert not answers(log.agent_message(json.dumps(ORDER)), "delivered")
    listing = "; ".join(f"item {n}: ref-{n}x" for n in range(13))
    assert not answers(log.agent_message(f"Status delivered. {listing}"), "delivered")


def test_restating_a_whole_record_is_no_answer():
    """A record restated field by field (``key: value; ...``, under the dozen values of a
    dump and no JSON pairs) answers every question about it at once: it is a dump. The
    answer with a few values of context still counts."""
    user = {"user_id": "rowan_reyes_7264", "first_name": "Rowan", "last_name": "Reyes",
            "address1": "422 Dogwood Terrace", "city": "Nashville", "zip": "37217",
            "email": "rowan.reyes4457@example.com",
            "gift_card": {"id": "gift_card_9114242", "balance": 2986.0},
            "orders": ["#W7112685", "#W4751504", "#W9431326"]}
    log = episode(("get_user", {"user_id": "rowan_reyes_7264"}, user, False))
    fields = "; ".join(f"{k}: {v}" for k, v in (
        ("user_id", "rowan_reyes_7264"), ("first_name", "Rowan"), ("address1", "422 Dogwood "
         "Terrace"), ("zip", "37217"), ("email", "rowan.reyes4457@example.com"),
        ("id", "gift_card_9114242"), ("balance", "2986.0"), ("orders", "#W7112685"),
        ("orders", "#W4751504"), ("orders", "#W9431326")))
    assert not answers(log.agent_message(f"Here are the details: {fields}."), "2986.00")
    assert answers(log.agent_message("The balance of your gift card is $2,986.00."), "2986.00")
    assert answers(log.agent_message(
        "Your gift card gift_card_9114242 (account rowan_reyes_7264, zip 37217) has "
        "**$2986.00** left."), "2986.00")
