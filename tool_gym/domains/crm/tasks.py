"""Hidden-intent tasks of the CRM domain (a sales rep's opportunities, leads and tasks): the
constraint samplers and ``TASKS``, the domain's :class:`~tool_gym.core.taskkit.RuleTaskKit`.
Types, descriptions and claims: ``docs/crm-tasks.md``.
"""

from __future__ import annotations

from datetime import date, timedelta

from ...core.actions import ToolCall
from ...core.sampler_parts import Login
from ...core.taskkit import (RuleTaskKit, SampleContext, answer_steps, date_words, dollars,
                             money_terms, write_steps)
from ...core.sampler_parts import by_name
from ...core.task_model import Constraint, Description, Expectation, Refusal
from .generate import NEW_SUBJECTS
from .tools import OPEN_STAGES, PRODUCTS, TODAY, stage_index

#: Words that name why the request is refused (any one addresses it; see ``Refusal.about``).
_BACKWARD_WORDS = (
    "forward", "forwards", "backward", "backwards", "back", "move back", "go back",
    "reverse", "reversed", "earlier stage", "previous stage", "advance", "regress",
    "downgrade", "demote")
_OTHER_REP_WORDS = (
    "owner", "owned", "owns", "owning", "another rep", "other rep", "another sales rep",
    "not yours", "your own", "someone else", "on their behalf", "on behalf", "assigned")


ASK_IDENTITY = ("Happy to help. First I need to verify who you are: what is your work email "
                "or your CRM username?")
FOLLOWUPS = ("Send revised quote", "Book onsite workshop", "Confirm legal contact",
             "Draft implementation plan", "Prepare ROI summary", "Schedule executive briefing")


# ------------------------------------------------------------------ descriptions

def describe_opportunity(ctx: SampleContext, opportunity_id: str, company: str,
                         product: str) -> Description | None:
    return ctx.describe(
        "opportunity", f"{product} deal with {company}", {"company": company, "product": product},
        opportunity_id,
        "SELECT o.opportunity_id FROM opportunities o JOIN companies c "
        "ON c.company_id = o.company_id WHERE o.owner_rep_id = ? AND c.name = ? "
        "AND o.product = ?", (ctx.user_id, company, product))


def describe_lead(ctx: SampleContext, lead_id: str, first: str, last: str,
                  company: str) -> Description | None:
    return ctx.describe(
        "lead", f"{first} {last} from {company}", {"name": f"{first} {last}", "company": company},
        lead_id,
        "SELECT lead_id FROM leads WHERE owner_rep_id = ? AND first_name || ' ' || last_name = ? "
        "AND company_name = ?", (ctx.user_id, f"{first} {last}", company))


def _opportunities(ctx: SampleContext, stages: tuple[str, ...]) -> list[tuple]:
    marks = ", ".join("?" for _ in stages)
    return ctx.rows(
        "SELECT o.opportunity_id, c.name, o.product, o.stage, o.amount, o.close_date "
        "FROM opportunities o JOIN companies c ON c.company_id = o.company_id "
        f"WHERE o.owner_rep_id = ? AND o.stage IN ({marks}) ORDER BY o.rowid",
        (ctx.user_id, *stages))


def _touch(ctx: SampleContext, opportunity_id: str, *stages: str) -> bool:
    """Claim an opportunity whose stage or amount changes, affecting ``stages``' totals."""
    if any(("read_stage", s) in ctx.claimed for s in stages):
        return False
    return ctx.claim(opportunity_id, *(("touch_stage", s, opportunity_id) for s in stages))


def _opportunity_is(opportunity_id: str, columns: str, *values) -> Expectation:
    """The opportunity's ``columns`` (``"stage, closed_on"``) hold ``values``."""
    return Expectation(f"SELECT {columns} FROM opportunities WHERE opportunity_id = ?",
                       (opportunity_id,), (values,))


def _stage_of(ctx: SampleContext, opportunity_id: str) -> Expectation:
    """The opportunity keeps its initial stage."""
    (stage,) = ctx.rows("SELECT stage FROM opportunities WHERE opportunity_id = ?",
                        (opportunity_id,))[0]
    return _opportunity_is(opportunity_id, "stage", stage)


def _list_call(ctx: SampleContext, stage: str = "") -> ToolCall:
    args = {"rep_id": ctx.user_id}
    if stage:
        args["stage"] = stage
    return ToolCall("list_opportunities", args)


# ----------------------------------------------------------------------- samplers

def advance_stage(ctx: SampleContext) -> Constraint | None:
    for opp_id, company, product, stage, _, _ in ctx.shuffled(_opportunities(ctx, OPEN_STAGES[:3])):
        later = OPEN_STAGES[stage_index(stage) + 1:]
        target = later[0] if len(later) == 1 or ctx.rng.random() < 0.7 else later[1]
        d = describe_opportunity(ctx, opp_id, company, product)
        if d is None or not _touch(ctx, opp_id, stage, target):
            continue
        call = ToolCall("update_opportunity_stage", {"opportunity_id": opp_id, "stage": target})
        return Constraint(
            "advance_stage", dict(call.arguments), refs={"opportunity": d},
            writes=(("update_opportunity_stage", opp_id),),
            confirm_terms=((target,), (company,)),
            say=(f"My {d.text} is progressing; please move it to the {target} stage.",
                 f"Can you advance the {d.text} to {target}?",
                 f"Please update the stage of my {d.text} to {target}."),
            solution=write_steps(
                [_list_call(ctx)],
                f"I will move your {product} opportunity with {company} from {stage} to "
                f"{target}. Shall I proceed?", call),
            expect=(_opportunity_is(opp_id, "stage", target),))
    return None


def close_won(ctx: SampleContext) -> Constraint | None:
    for opp_id, company, product, stage, amount, _ in ctx.shuffled(
            _opportunities(ctx, ("negotiation",))):
        d = describe_opportunity(ctx, opp_id, company, product)
        if d is None or not _touch(ctx, opp_id, stage):
            continue
        call = ToolCall("close_opportunity", {"opportunity_id": opp_id, "outcome": "won"})
        return Constraint(
            "close_won", dict(call.arguments), refs={"opportunity": d},
            writes=(("close_opportunity", opp_id),),
            confirm_terms=(("won",), (company,)),
            say=(f"Great news: {company} signed! Please close my {d.text} as won.",
                 f"The {d.text} is signed; mark it closed won, please.",
                 f"We won the {d.text}. Can you close it out as won?"),
            solution=write_steps(
                [_list_call(ctx, "negotiation")],
                f"I will close your {product} opportunity with {company} "
                f"({dollars(amount)}) as won, dated today. Shall I proceed?", call),
            expect=(_opportunity_is(opp_id, "stage, closed_on", "closed_won", TODAY),))
    return None


def update_amount(ctx: SampleContext) -> Constraint | None:
    rows = _opportunities(ctx, OPEN_STAGES)
    for opp_id, company, product, stage, amount, _ in ctx.shuffled(rows):
        new = float(500 * int(ctx.rng.integers(10, 500)))
        d = describe_opportunity(ctx, opp_id, company, product)
        if new == amount or d is None or not _touch(ctx, opp_id, stage):
            continue
        call = ToolCall("update_opportunity_amount", {"opportunity_id": opp_id, "amount": new})
        return Constraint(
            "update_amount", dict(call.arguments), refs={"opportunity": d},
            writes=(("update_opportunity_amount", opp_id),),
            confirm_terms=(money_terms(new), (company,)),
            say=(f"The scope changed on my {d.text}: please set the amount to {dollars(new)}.",
                 f"Can you update the {d.text} to {dollars(new)}?",
                 f"Please change the deal size of my {d.text} to {dollars(new)}."),
            solution=write_steps(
                [_list_call(ctx)],
                f"I will change the amount of your {product} opportunity with {company} from "
                f"${amount:,.2f} to ${new:,.2f}. Shall I proceed?", call),
            expect=(_opportunity_is(opp_id, "amount", new),))
    return None


def convert_lead(ctx: SampleContext) -> Constraint | None:
    rows = ctx.rows("SELECT lead_id, first_name, last_name, company_name FROM leads "
                    "WHERE owner_rep_id = ? AND status = 'qualified' ORDER BY rowid",
                    (ctx.user_id,))
    for lead_id, first, last, company in ctx.shuffled(rows):
        d = describe_lead(ctx, lead_id, first, last, company)
        if d is None or ("read_stage", "qualification") in ctx.claimed \
                or not ctx.claim(lead_id, ("touch_stage", "qualification", lead_id)):
            continue
        product = ctx.pick(PRODUCTS)
        amount = float(1000 * int(ctx.rng.integers(5, 150)))
        days = int(ctx.rng.integers(30, 150))
        close = (date.fromisoformat(TODAY) + timedelta(days=days)).isoformat()
        call = ToolCall("convert_lead", {"lead_id": lead_id, "product": product,
                                         "amount": amount, "close_date": close})
        when = date_words(close)
        return Constraint(
            "convert_lead", dict(call.arguments), refs={"lead": d},
            writes=(("convert_lead", lead_id),),
            confirm_terms=((f"{first} {last}",), (product,), money_terms(amount), (close, when)),
            say=(f"Please convert my qualified lead {d.text} into an opportunity: {product}, "
                 f"about {dollars(amount)}, expected to close {when}.",
                 f"I'd like to turn my lead {d.text} into a {product} opportunity worth "
                 f"{dollars(amount)}, closing on {when}.",
                 f"Convert the lead {d.text}, please. It's a {product} deal of "
                 f"{dollars(amount)} that should close by {when}."),
            solution=write_steps(
                [ToolCall("list_leads", {"rep_id": ctx.user_id, "status": "qualified"})],
                f"I will convert the lead {first} {last} ({company}) into a {product} "
                f"opportunity of ${amount:,.2f} with an expected close date of {close}. "
                "Shall I proceed?", call),
            expect=(Expectation(
                "SELECT l.status, o.owner_rep_id, o.product, o.amount, o.close_date, o.stage "
                "FROM leads l JOIN opportunities o ON o.opportunity_id = "
                "l.converted_opportunity_id WHERE l.lead_id = ?", (lead_id,),
                (("converted", ctx.user_id, product, amount, close, "qualification"),)),))
    return None


def disqualify_lead(ctx: SampleContext) -> Constraint | None:
    rows = ctx.rows("SELECT lead_id, first_name, last_name, company_name FROM leads "
                    "WHERE owner_rep_id = ? AND status IN ('new', 'contacted') ORDER BY rowid",
                    (ctx.user_id,))
    for lead_id, first, last, company in ctx.shuffled(rows):
        d = describe_lead(ctx, lead_id, first, last, company)
        if d is None or not ctx.claim(lead_id):
            continue
        call = ToolCall("update_lead_status", {"lead_id": lead_id, "status": "disqualified"})
        return Constraint(
            "disqualify_lead", dict(call.arguments), refs={"lead": d},
            writes=(("update_lead_status", lead_id),),
            confirm_terms=(("disqualif",), (f"{first} {last}",)),
            say=(f"My lead {d.text} is not a fit after all; please disqualify it.",
                 f"Please mark the lead {d.text} as disqualified, they have no budget.",
                 f"Can you disqualify my lead {d.text}?"),
            solution=write_steps(
                [ToolCall("list_leads", {"rep_id": ctx.user_id})],
                f"I will mark your lead {first} {last} from {company} as disqualified. "
                "Shall I proceed?", call),
            expect=(Expectation("SELECT status FROM leads WHERE lead_id = ?", (lead_id,),
                                (("disqualified",),)),))
    return None


def log_call(ctx: SampleContext) -> Constraint | None:
    for opp_id, company, product, _, _, _ in ctx.shuffled(_opportunities(ctx, OPEN_STAGES)):
        d = describe_opportunity(ctx, opp_id, company, product)
        if d is None or not ctx.claim(opp_id):
            continue
        subject = ctx.pick(NEW_SUBJECTS)
        call = ToolCall("log_activity", {"opportunity_id": opp_id, "kind": "call",
                                         "subject": subject})
        return Constraint(
            "log_call", dict(call.arguments), refs={"opportunity": d},
            writes=(("log_activity", opp_id),),
            confirm_terms=(("call",), (subject,), (company,)),
            say=(f'Please log a call on my {d.text} with the subject "{subject}".',
                 f'I just had a call about the {d.text}. Log it as "{subject}", please.',
                 f'Can you record a call on the {d.text}? Subject: "{subject}".'),
            solution=write_steps(
                [_list_call(ctx)],
                f'I will log a call with the subject "{subject}" on your {product} '
                f"opportunity with {company}, dated today. Shall I proceed?", call),
            expect=(Expectation("SELECT count(*) FROM activities WHERE opportunity_id = ? "
                                "AND kind = 'call' AND subject = ?", (opp_id, subject),
                                ((1,),)),))
    return None


def create_followup_task(ctx: SampleContext) -> Constraint | None:
    for opp_id, company, product, _, _, _ in ctx.shuffled(_opportunities(ctx, OPEN_STAGES)):
        d = describe_opportunity(ctx, opp_id, company, product)
        if d is None or not ctx.claim(opp_id):
            continue
        title = f"{ctx.pick(FOLLOWUPS)} for {company}"
        due = (date.fromisoformat(TODAY) + timedelta(days=int(ctx.rng.integers(2, 30)))).isoformat()
        priority = ctx.pick(("low", "normal", "high"))
        call = ToolCall("create_task", {"opportunity_id": opp_id, "title": title,
                                        "due_date": due, "priority": priority})
        when = date_words(due)
        return Constraint(
            "create_followup_task", dict(call.arguments), refs={"opportunity": d},
            writes=(("create_task", opp_id),),
            confirm_terms=((title,), (due, when), (priority,)),
            say=(f'Create a {priority}-priority task "{title}" on my {d.text}, due {when}.',
                 f'Please add a follow-up task to my {d.text}: "{title}", due on {when}, '
                 f"{priority} priority.",
                 f'I need a reminder on the {d.text}: "{title}" by {when}; make it '
                 f"{priority} priority."),
            solution=write_steps(
                [_list_call(ctx)],
                f'I will create the task "{title}" ({priority} priority, due {due}) on your '
                f"{product} opportunity with {company}. Shall I proceed?", call),
            expect=(Expectation("SELECT due_date, priority, status, rep_id FROM tasks "
                                "WHERE opportunity_id = ? AND title = ?", (opp_id, title),
                                ((due, priority, "open", ctx.user_id),)),))
    return None


def complete_task(ctx: SampleContext) -> Constraint | None:
    rows = ctx.rows("SELECT task_id, title FROM tasks WHERE rep_id = ? AND status = 'open' "
                    "ORDER BY rowid", (ctx.user_id,))
    for task_id, title in ctx.shuffled(rows):
        d = ctx.describe("task", f'"{title}"', {"title": title}, task_id,
                         "SELECT task_id FROM tasks WHERE rep_id = ? AND title = ?",
                         (ctx.user_id, title))
        if d is None or not ctx.claim(task_id):
            continue
        call = ToolCall("complete_task", {"task_id": task_id})
        return Constraint(
            "complete_task", dict(call.arguments), refs={"task": d},
            writes=(("complete_task", task_id),),
            confirm_terms=(("complete",), (title,)),
            say=(f"I finished my task {d.text}; please mark it as done.",
                 f"Can you close out the task {d.text}? It's done.",
                 f"Please mark my task {d.text} complete."),
            solution=write_steps(
                [ToolCall("list_tasks", {"rep_id": ctx.user_id, "status": "open"})],
                f'I will mark your task "{title}" as completed. Shall I proceed?', call),
            expect=(Expectation("SELECT status, completed_on FROM tasks WHERE task_id = ?",
                                (task_id,), (("completed", TODAY),)),))
    return None


def info_pipeline_total(ctx: SampleContext) -> Constraint | None:
    rows = ctx.rows("SELECT stage, count(*), sum(amount) FROM opportunities "
                    "WHERE owner_rep_id = ? AND stage IN ('prospecting', 'qualification', "
                    "'proposal', 'negotiation') GROUP BY stage ORDER BY stage", (ctx.user_id,))
    for stage, count, total in ctx.shuffled(rows):
        if any(isinstance(k, tuple) and k[:2] == ("touch_stage", stage) for k in ctx.claimed) \
                or not ctx.claim(("read_stage", stage)):
            continue
        total = round(total, 2)
        return Constraint(
            "info_pipeline_total", {"stage": stage}, answer=f"{total:.2f}",
            evidence=(("list_opportunities", ctx.user_id),),
            say=(f"What's the total amount of my open deals in the {stage} stage?",
                 f"How much pipeline do I have sitting in {stage} right now?",
                 f"Can you add up the amounts of all my {stage}-stage opportunities?"),
            solution=answer_steps(
                [_list_call(ctx, stage)],
                f"You have {count} opportunities in the {stage} stage, for a total of "
                f"${total:,.2f}."))
    return None


def info_close_date(ctx: SampleContext) -> Constraint | None:
    for opp_id, company, product, _, _, close in ctx.shuffled(_opportunities(ctx, OPEN_STAGES)):
        d = describe_opportunity(ctx, opp_id, company, product)
        if d is None or not ctx.claim(opp_id):
            continue
        return Constraint(
            "info_close_date", {"opportunity_id": opp_id}, refs={"opportunity": d},
            answer=close,
            say=(f"When is my {d.text} expected to close?",
                 f"What's the expected close date on the {d.text}?",
                 f"Remind me of the close date for my {d.text}."),
            solution=answer_steps(
                [_list_call(ctx)],
                f"Your {product} opportunity with {company} is expected to close on {close}."))
    return None


def refuse_stage_backward(ctx: SampleContext) -> Constraint | None:
    for opp_id, company, product, stage, _, _ in ctx.shuffled(
            _opportunities(ctx, ("proposal", "negotiation"))):
        d = describe_opportunity(ctx, opp_id, company, product)
        if d is None or not ctx.claim(opp_id):
            continue
        target = ctx.pick(OPEN_STAGES[:stage_index(stage)])
        return Constraint(
            "refuse_stage_backward", {"opportunity_id": opp_id, "stage": target},
            refs={"opportunity": d}, answer="cannot",
            refusal=Refusal((opp_id,), about=(opp_id, (company, product), target,
                                              *_BACKWARD_WORDS)),
            say=(f"The {d.text} stalled; please move it back to {target}.",
                 f"Can you put my {d.text} back into the {target} stage?",
                 f"Please change the stage of my {d.text} back to {target}."),
            solution=answer_steps(
                [_list_call(ctx)],
                f"I'm sorry, but I cannot move your {product} opportunity with {company} from "
                f"{stage} back to {target}: opportunity stages can only move forward."),
            expect=(_stage_of(ctx, opp_id),))
    return None


def refuse_close_other_rep(ctx: SampleContext) -> Constraint | None:
    (team,) = ctx.rows("SELECT team FROM reps WHERE rep_id = ?", (ctx.user_id,))[0]
    rows = ctx.rows(
        "SELECT o.opportunity_id, c.company_id, c.name, o.product, r.first_name, r.last_name "
        "FROM opportunities o JOIN reps r ON r.rep_id = o.owner_rep_id "
        "JOIN companies c ON c.company_id = o.company_id "
        "WHERE r.team = ? AND r.rep_id != ? AND o.stage = 'negotiation' ORDER BY o.rowid LIMIT 40",
        (team, ctx.user_id))
    for opp_id, company_id, company, product, first, last in ctx.shuffled(rows):
        owner = f"{first} {last}"
        d = ctx.describe(
            "opportunity", f"{owner}'s {product} deal with {company}",
            {"owner": owner, "company": company, "product": product}, opp_id,
            "SELECT o.opportunity_id FROM opportunities o JOIN reps r "
            "ON r.rep_id = o.owner_rep_id JOIN companies c ON c.company_id = o.company_id "
            "WHERE r.first_name || ' ' || r.last_name = ? AND c.name = ? AND o.product = ?",
            (owner, company, product))
        if d is None or not ctx.claim(opp_id):
            continue
        return Constraint(
            "refuse_close_other_rep", {"opportunity_id": opp_id}, refs={"opportunity": d},
            answer="cannot",
            refusal=Refusal((opp_id,), about=(opp_id, (company, product), owner, first,
                                              *_OTHER_REP_WORDS)),
            say=(f"{owner} is out this week. Please close {d.text} as won for them.",
                 f"Can you mark {d.text} as closed won? {first} asked me to.",
                 f"Close {d.text} as won on {first}'s behalf, please."),
            solution=answer_steps(
                [ToolCall("search_companies", {"name": company}),
                 ToolCall("get_company", {"company_id": company_id})],
                f"I'm sorry, but I cannot close that opportunity: it is owned by {owner}, and "
                "only the owning rep may close an opportunity."),
            expect=(_stage_of(ctx, opp_id),))
    return None


# ------------------------------------------------------------------------ the kit

LOGIN = Login("reps", "rep_id", "find_rep_by_email", "find_rep_by_username",
              email_words="my work email is")


def policy_violations(db, tool: str, arguments: dict) -> list[str]:
    """Policy rules a write would break that the tools do not enforce themselves (the
    owner rule is the core's ``write_on_other_user``)."""
    if tool == "update_opportunity_stage":
        row = db.execute("SELECT stage FROM opportunities WHERE opportunity_id = ?",
                         (arguments.get("opportunity_id"),)).fetchone()
        stage = arguments.get("stage")
        if row is not None and stage in OPEN_STAGES and row[0] in OPEN_STAGES \
                and stage_index(stage) < stage_index(row[0]):
            return ["policy:stage_forward_only"]
    return []


_OPP_OWNER = ("SELECT owner_rep_id FROM opportunities WHERE opportunity_id = ?", "opportunity_id")
_LEAD_OWNER = ("SELECT owner_rep_id FROM leads WHERE lead_id = ?", "lead_id")

SAMPLERS = by_name(
    advance_stage, close_won, update_amount, convert_lead, disqualify_lead, log_call,
    create_followup_task, complete_task, info_pipeline_total, info_close_date,
    refuse_stage_backward, refuse_close_other_rep)

TASKS = RuleTaskKit(
    "crm", SAMPLERS,
    **LOGIN.kit_keywords(),
    owners={
        "update_opportunity_stage": _OPP_OWNER,
        "update_opportunity_amount": _OPP_OWNER,
        "update_close_date": _OPP_OWNER,
        "close_opportunity": _OPP_OWNER,
        "log_activity": _OPP_OWNER,
        "create_task": _OPP_OWNER,
        "update_lead_status": _LEAD_OWNER,
        "convert_lead": _LEAD_OWNER,
        "complete_task": ("SELECT rep_id FROM tasks WHERE task_id = ?", "task_id"),
    },
    ask_identity=ASK_IDENTITY,
    identity_phrases=("Sure, {text}.", "Of course, {text}.", "Yes: {text}."),
    greetings=("Hi!", "Hey,", "Hello.", "Morning!"),
    policy_violations=policy_violations,
)
