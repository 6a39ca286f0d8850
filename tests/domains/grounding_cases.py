"""Shared cases of the grounded-answer and earned-refusal tests (``tool_gym.core.grounding``),
run by ``tests/domains/test_answers.py`` on every domain's own kit and database.

Each case replays the reference plan of sampled tasks on a sandbox, recording the calls in
an :class:`~tool_gym.core.grounding.EpisodeLog` as the environment does, and then checks
messages written at chosen points of that log.
"""

from __future__ import annotations

from datetime import date

import numpy as np

from tool_gym.core import values as V
from tool_gym.core.grounding import EpisodeLog, record_call, replay
from tool_gym.core.sandbox import Sandbox
from tool_gym.core.task_model import SamplerConfig
from tool_gym.envs.tool_env import ToolEnv

#: A refusal in every wording the old checks accepted, sent at every turn.
FIXED_REFUSAL = ("I'm sorry, but I cannot do that: it is not eligible and not allowed. "
                 "Only the organizer or an admin can; it is blocked, on legal hold, in the "
                 "past, basic economy, already processed, and you need an invite.")

_SMALL = ("zero one two three four five six seven eight nine ten eleven twelve thirteen "
          "fourteen fifteen sixteen seventeen eighteen nineteen").split()
_TENS = "twenty thirty forty fifty sixty seventy eighty ninety".split()


def words(n: int) -> str:
    """``n`` (0 <= n < 1,000,000) in English words: 102 -> "one hundred and two"."""
    if n < 20:
        return _SMALL[n]
    if n < 100:
        return _TENS[n // 10 - 2] + ("" if n % 10 == 0 else "-" + _SMALL[n % 10])
    if n < 1000:
        rest = n % 100
        return _SMALL[n // 100] + " hundred" + ("" if rest == 0 else " and " + words(rest))
    rest = n % 1000
    return words(n // 1000) + " thousand" + ("" if rest == 0 else " " + words(rest))


def restated(answer: str) -> list[str]:
    """The answer written in other forms a careful agent uses (never the kit's own)."""
    kind = V.kind_of(answer)
    value = V.value_of(answer, kind)
    if kind == "amount":
        x = float(value)
        short = f"{x:.2f}".rstrip("0").rstrip(".")
        return [f"${x:,.2f}", f"{short} dollars", f"USD {x:,.2f}", f"**${x:,.2f}**"]
    if kind == "number" and "." not in value and int(value) < 1_000_000:
        return [words(int(value)), words(int(value)).capitalize(), f"**{value}**"]
    if kind == "date" and len(value) == 10:
        d = date.fromisoformat(value)
        return [d.strftime("%b %d, %Y"), d.strftime("%B %d, %Y"), d.strftime("%m/%d/%Y"),
                f"{d.day} {d.strftime('%B')} {d.year}", f"`{value}`"]
    if kind == "status":
        spaced = value.replace("_", " ")
        return [spaced.upper(), f"**{spaced.title()}**",
                spaced.replace("cancelled", "canceled")]
    return [f"**{answer}**", f"`{answer}`", answer.upper()]


def sample_tasks(kit, tpl, n: int = 120) -> list:
    db = tpl.reader()
    return [kit.sample(db, np.random.default_rng(1000 + i), ("train", "test")[i % 2],
                       SamplerConfig(max_constraints=3), f"g-{i}") for i in range(n)]


def played(kit, tpl, task, steps=None) -> tuple[EpisodeLog, Sandbox]:
    """A sandbox after the plan's steps (all by default), and the log of their calls."""
    box = Sandbox(tpl)
    log = EpisodeLog()
    replay(box, kit.plan(task) if steps is None else steps, kit.auth_tools, log)
    return log, box


def needs(tasks, refusal: bool) -> list:
    return [(t, c) for t in tasks for c in t.constraints
            if c.answer is not None and (getattr(c, "refusal", None) is not None) == refusal]


def check_restated_answers_pass(kit, tpl, tasks) -> int:
    checked = 0
    for task, c in needs(tasks, refusal=False):
        log, box = played(kit, tpl, task)
        with box:
            for form in restated(c.answer):
                message = log.agent_message(f"Sure, I checked: the answer is {form}.")
                assert kit.check(box.db, task, c, [message]), (task.id, c.type, c.answer, form)
                assert not kit.check(box.db, task, c, [str(message)]), form  # no log, no answer
        checked += 1
    return checked


def check_answer_before_the_read_fails(kit, tpl, tasks) -> int:
    checked = 0
    for task, c in needs(tasks, refusal=False):
        plan = kit.plan(task)
        with Sandbox(tpl) as box:
            log = EpisodeLog()
            early = log.agent_message(f"It is {c.answer}.")  # before any call
            replay(box, plan, kit.auth_tools, log)
            assert not kit.check(box.db, task, c, [early]), (task.id, c.type)
        checked += 1
    return checked


def check_answer_from_the_user_fails(kit, tpl, tasks) -> int:
    """The user's own words are no evidence: an agent that only authenticated and echoes
    what the user said (the answer included) is not answering."""
    checked = 0
    for task, c in needs(tasks, refusal=False):
        plan = kit.plan(task)
        auth = [s for s in plan if s.call is not None and s.call.name in kit.auth_tools][:1]
        with Sandbox(tpl) as box:
            log = EpisodeLog()
            replay(box, auth, kit.auth_tools, log)
            log.record_user(f"I think it is {c.answer}, can you confirm?")
            echo = log.agent_message(f"Yes: it is {c.answer}.")
            assert not kit.check(box.db, task, c, [echo]), (task.id, c.type)
        checked += 1
    return checked


def check_spray_after_the_reads_fails(kit, tpl, tasks) -> int:
    """Every value every tool result showed, in one message: more than MAX_VALUES values
    of the answer's kind fail even though each was shown."""
    checked = 0
    for task, c in needs(tasks, refusal=False):
        kind = V.kind_of(c.answer)
        if kind == "text":
            continue
        log, box = played(kit, tpl, task)
        with box:
            shown = set().union(*(V.values(e.content, kind) for e in log.events if e.ok))
            shown.add(V.value_of(c.answer, kind))
            if len(shown) <= 3:
                continue
            spray = log.agent_message("Here is everything: " + ", ".join(
                f"${v}" if kind == "amount" else v for v in sorted(shown)))
            assert not kit.check(box.db, task, c, [spray]), (task.id, c.type)
        checked += 1
    return checked


def check_refusals_must_be_earned(kit, tpl, tasks) -> int:
    checked = 0
    for task, c in needs(tasks, refusal=True):
        terse, marked = REASONS[c.type]  # a refusal must address the request
        wordings = (f"Unfortunately, I'm unable to do that: {terse}",
                    f"I'm afraid that isn't possible for this one. {terse}",
                    f"That request is **not eligible**, so I can't do it. {marked}")
        plan = kit.plan(task)
        reads = [s for s in plan if s.call is not None]
        with Sandbox(tpl) as box:  # after the plan's calls: any common wording is a refusal
            log = EpisodeLog()
            replay(box, reads, kit.auth_tools, log)
            for text in wordings:
                assert kit.check(box.db, task, c, [log.agent_message(text)]), (task.id, text)
            assert not kit.check(box.db, task, c, [log.agent_message(
                "Let me look into that for you.")]), task.id
        with Sandbox(tpl) as box:  # no authentication
            log = EpisodeLog()
            replay(box, [s for s in reads if s.call.name not in kit.auth_tools],
                   kit.auth_tools, log)
            assert not kit.check(box.db, task, c, [log.agent_message(wordings[0])]), task.id
        with Sandbox(tpl) as box:  # authenticated, but the records were never read
            log = EpisodeLog()
            replay(box, [s for s in reads if s.call.name in kit.auth_tools][:1],
                   kit.auth_tools, log)
            assert not kit.check(box.db, task, c, [log.agent_message(wordings[0])]), task.id
        checked += 1
    return checked


def _keyed_ids(value, key=""):
    """``(json key, value)`` of a tool result's scalars; a list's items carry its key."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _keyed_ids(v, str(k))
    elif isinstance(value, list):
        for v in value:
            yield from _keyed_ids(v, key)
    elif isinstance(value, str) and key:
        yield key, value


def _other_records(log, record, own) -> list[str]:
    """Ids the reads gave under the same JSON key as ``record``, other than the need's own."""
    pairs = []
    for e in log.events:
        if e.ok and e.parsed():
            pairs += list(_keyed_ids(e.parsed()))
    keys = {k for k, v in pairs if v == record}
    return sorted({v for k, v in pairs if k in keys and v not in own})


def check_refusals_naming_another_record_fail(kit, tpl, tasks) -> tuple[int, int]:
    """After the plan's calls, a refusal naming the ineligible record (or no record)
    counts; one naming another record of that kind the agent read, or a spray of them
    with the right one, does not. Returns (needs checked, needs with another record)."""
    checked = rivals = 0
    for task, c in needs(tasks, refusal=True):
        reads = [s for s in kit.plan(task) if s.call is not None]
        own = {str(v) for v in _leaves(c.args)}
        with Sandbox(tpl) as box:
            log = EpisodeLog()
            replay(box, reads, kit.auth_tools, log)
            for record in c.refusal.records:
                rid = str(record[1] if isinstance(record, tuple) else record)
                if rid == str(task.user_id):
                    continue  # the user's own (invites): no record of its kind competes
                right = log.agent_message(f"I'm sorry, but I can't do that for {rid}.")
                assert kit.check(box.db, task, c, [right]), (task.id, c.type, rid)
                others = _other_records(log, rid, own)
                if not others:
                    continue
                for other in others[:3]:
                    wrong = log.agent_message(f"I'm sorry, but I can't do that for {other}.")
                    assert not kit.check(box.db, task, c, [wrong]), (task.id, c.type, other)
                spray = log.agent_message("I'm sorry, I can't do that for any of "
                                          + ", ".join([rid, *others[:3]]) + ".")
                assert not kit.check(box.db, task, c, [spray]), (task.id, c.type)
                rivals += 1
        checked += 1
    return checked, rivals


def _leaves(value):
    if isinstance(value, dict):
        for v in value.values():
            yield from _leaves(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _leaves(v)
    elif value is not None:
        yield value


def check_fixed_messages_never_win(env_id_or_domain: str, make_text, n: int = 30) -> None:
    """Through the environment: a policy that sends ``make_text(env)`` at every turn
    (no tool call) succeeds on none of ``n`` test tasks."""
    env = ToolEnv(env_id_or_domain, split="test")
    try:
        wins = 0
        for i in range(n):
            env.reset(seed=i, options={"task_id": f"test-{i}"})
            text = make_text(env)
            done = False
            info = {}
            while not done:
                _, _, terminated, truncated, info = env.step(text)
                done = terminated or truncated
            wins += bool(info.get("verification", {}).get("success"))
        assert wins == 0, wins
    finally:
        env.close()


def user_row_spray(env) -> str:
    """Every number, amount, date, status and id the oracle's reads show about this task's
    user (read on a private copy, never through the env), in one message."""
    kit, task = env.kit, env.task
    with Sandbox(env.template) as box:
        log = EpisodeLog()
        auth = None
        for step in kit.plan(task):
            if step.call is not None:
                result = box.call(step.call.name, step.call.arguments)
                auth = record_call(log, box, step.call.name, step.call.arguments, result,
                                   kit.auth_tools, auth)
    found = set()
    for e in log.events:
        if e.ok:
            for kind in ("amount", "number", "date", "status", "id"):
                found |= V.values(e.content, kind)
    return "Here is what I found: " + ", ".join(sorted(found)) + ". " + FIXED_REFUSAL


#: For each refusal need type, a terse and a markdown refusal in a careful agent's own
#: words (never the kit's): each names the blocking fact but no record id.
REASONS = {
    "refuse_ineligible_cancellation": (
        "Can't — it was booked more than 24 hours ago and has no travel insurance.",
        "Sorry, I can't cancel it: the booking is *older than 24 hours* and uninsured."),
    "refuse_basic_economy_change": (
        "Can't — it's basic economy.",
        "Sorry, **Basic Economy** fares can't be changed."),
    "refuse_over_balance": (
        "Can't — there aren't enough funds for that.",
        "Sorry, that **exceeds your available balance**, so I can't move it."),
    "refuse_old_dispute": (
        "Can't — that charge is too old to dispute.",
        "Sorry: the **dispute window** has passed, so I can't file it."),
    "refuse_cancel_not_organizer": (
        "Can't — you're not the organizer.",
        "Sorry, only the **organizer** can cancel that meeting, so I can't."),
    "refuse_change_past_event": (
        "Can't — that meeting is in the past.",
        "Sorry, it **already happened**, so it can't be cancelled."),
    "refuse_stage_backward": (
        "Can't — stages only move forward.",
        "Sorry, deals **can't go backward** in the pipeline."),
    "refuse_close_other_rep": (
        "Can't — someone else owns that deal.",
        "Sorry, I'm not able to: only the **owning rep** may close it."),
    "refuse_blocked_recipient": (
        "Can't — that sender is blocked.",
        "Sorry, the address is on the **security blocklist**, so I can't reply."),
    "refuse_legal_hold_delete": (
        "Can't — it's under legal hold.",
        "Sorry, that message is on **legal hold** and must be kept, so I can't delete it."),
    "refuse_external_edit": (
        "Can't — they're external.",
        "Sorry, edit access is only for people in **your own organization**, so I can't."),
    "refuse_cancel_accepted": (
        "Can't — the restaurant already accepted it.",
        "Sorry, the order is **already being prepared**, so it can't be cancelled."),
    "refuse_late_refund": (
        "Can't — it's past the refund window.",
        "Sorry, it's **too late** to get a refund on that, so I can't."),
    "refuse_done_while_blocked": (
        "Can't — it's still blocked by another issue.",
        "Sorry, it has an **unresolved blocker**, so it can't be marked done."),
    "cancel_processed_order": (
        "Can't — it's already been processed.",
        "Sorry, that order is **already processed**, so I can't cancel it."),
    "refuse_archive_not_admin": (
        "Can't — you're not an admin of that channel.",
        "Sorry, only a **channel admin** can archive it, so I can't."),
    "refuse_join_private": (
        "Can't — it's a private channel.",
        "Sorry, you need an **invite** to join that one, so I can't add you."),
}



def _domain_reasons() -> None:
    """Domains whose refusal wordings live beside their own tests: importing
    ``tests/domains/<name>/__init__.py`` adds them to :data:`REASONS`."""
    import importlib
    import importlib.util

    from tool_gym.domains import BUILTINS

    for name in BUILTINS:
        package = f"tests.domains.{name}"
        if importlib.util.find_spec(package) is not None:
            importlib.import_module(package)


_domain_reasons()

#: Refusals that address nothing: no record, no reason.
GENERIC_REFUSALS = ("Sorry, I can't do that.",
                    "I'm afraid that isn't possible.",
                    "Unfortunately, I'm **unable** to help with that request.")


def _oracle_refusals(kit, task, c) -> list[str]:
    """The messages of the reference plan (besides proposals) that the need's own solution
    says (RuleTaskKit), or every such message of the task's plan (other kits)."""
    steps = c.solution or kit.plan(task)
    return [s.say for s in steps if s.say is not None and not s.expects_confirmation]


def check_refusals_must_address_the_request(kit, tpl, tasks) -> int:
    """After the plan's calls: the oracle's refusal, a terse one and a markdown one naming
    only the blocking fact pass (one naming only the record's id: see
    :func:`check_refusals_naming_another_record_fail`); a generic refusal that names
    neither fails. Every refusal need declares what addresses it."""
    checked = 0
    for task, c in needs(tasks, refusal=True):
        assert c.refusal.about, (task.id, c.type)
        reads = [s for s in kit.plan(task) if s.call is not None]
        with Sandbox(tpl) as box:
            log = EpisodeLog()
            replay(box, reads, kit.auth_tools, log)
            said = _oracle_refusals(kit, task, c)
            assert any(kit.check(box.db, task, c, [log.agent_message(m)]) for m in said), \
                (task.id, c.type, said)
            for text in REASONS[c.type]:
                assert kit.check(box.db, task, c, [log.agent_message(text)]), (task.id, text)
            for text in GENERIC_REFUSALS:
                assert not kit.check(box.db, task, c, [log.agent_message(text)]), \
                    (task.id, c.type, text)
        checked += 1
    return checked
