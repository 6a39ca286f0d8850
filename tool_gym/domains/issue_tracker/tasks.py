"""Hidden-intent tasks of the issue tracker domain (issues, projects, sprints and their
members): the constraint samplers and ``TASKS``, the domain's
:class:`~tool_gym.core.taskkit.RuleTaskKit`. Types, descriptions and claims:
``docs/issue-tracker-tasks.md``.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...core.actions import ToolCall
from ...core.sampler_parts import Login, describe_any, write_need
from ...core.taskkit import RuleTaskKit, SampleContext
from ...core.sampler_parts import by_name
from ...core.task_model import Constraint, Description, Expectation, PlanStep, Refusal
from .generate import COMPONENTS, PROBLEMS
from .tools import unresolved_blockers

#: Words that name why the request is refused (any one addresses it; see ``Refusal.about``).
_BLOCKED_BY_WORDS = (
    "blocked", "blocker", "blockers", "blocking", "blocks", "depends", "dependency",
    "dependencies", "unresolved", "not resolved", "still open", "in progress")


STATUS_WORDS = {"open": "open", "in_progress": "in progress", "in_review": "in review",
                "done": "done", "wont_fix": "won't fix"}
STATUS_TERMS = {"open": ("open",), "in_progress": ("in progress", "in_progress", "in-progress"),
                "in_review": ("in review", "in_review", "in-review"), "done": ("done",),
                "wont_fix": ("won't fix", "wont_fix", "wont fix", "won’t fix")}
WRITE_TOOLS = ("create_issue", "transition_issue", "assign_issue", "unassign_issue",
               "set_issue_priority", "add_label", "remove_label", "add_comment", "link_issues",
               "move_issue_to_sprint", "set_due_date")
NEW_COMMENTS = (
    "Verified the fix on staging, looks good.", "This also happens on the Android app.",
    "Customer Globex is waiting on this, please prioritize.",
    "Root cause is the retry logic in the client.", "Workaround: reload the page twice.",
    "Moving the discussion to the design review on Thursday.",
    "Logs show the timeout starts after half a minute.",
    "Confirmed fixed in the latest build.",
)

_ISSUES = ("SELECT i.issue_id, i.project_id, p.name, i.title, i.type, i.status, i.priority, "
           "i.assignee_id, i.reporter_id, i.sprint_id, substr(i.created_at, 1, 10) "
           "FROM issues i JOIN projects p ON p.project_id = i.project_id "
           "JOIN project_members m ON m.project_id = i.project_id AND m.user_id = ? ")


@dataclass(frozen=True)
class Issue:
    issue_id: str
    project_id: str
    project: str
    title: str
    type: str
    status: str
    priority: str
    assignee_id: str | None
    reporter_id: str
    sprint_id: str | None
    reported_on: str


def _issues(ctx: SampleContext, where: str = "", params: tuple = ()) -> list[Issue]:
    rows = ctx.rows(_ISSUES + (f"WHERE {where} " if where else "") + "ORDER BY i.rowid",
                    (ctx.user_id, *params))
    return [Issue(*r) for r in rows]


def _unresolved(ctx: SampleContext) -> list[Issue]:
    return ctx.shuffled(_issues(ctx, "i.status NOT IN ('done', 'wont_fix')"))[:16]


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def describe_issue(ctx: SampleContext, issue: Issue) -> Description | None:
    q = ("SELECT i.issue_id FROM issues i JOIN projects p ON p.project_id = i.project_id "
         "JOIN project_members m ON m.project_id = i.project_id AND m.user_id = ? WHERE ")
    options = [
        (f"the issue '{issue.title}' in the {issue.project} project",
         {"title": issue.title, "project": issue.project},
         q + "i.title = ? AND p.name = ?", (ctx.user_id, issue.title, issue.project)),
        (f"the issue '{issue.title}'", {"title": issue.title},
         q + "i.title = ?", (ctx.user_id, issue.title)),
    ]
    if issue.reporter_id == ctx.user_id:
        options.append((
            f"the {issue.type} I reported in the {issue.project} project on {issue.reported_on}",
            {"reported_by_me": True, "type": issue.type, "project": issue.project,
             "reported_on": issue.reported_on},
            q + "i.reporter_id = ? AND i.type = ? AND p.name = ? "
                "AND substr(i.created_at, 1, 10) = ?",
            (ctx.user_id, ctx.user_id, issue.type, issue.project, issue.reported_on)))
    return describe_any(ctx, "issue", issue.issue_id, options)


def describe_member(ctx: SampleContext, project_id: str, project: str, user_id: str,
                    full_name: str) -> Description | None:
    return ctx.describe("user", full_name, {"full_name": full_name, "project": project},
                        user_id, "SELECT u.user_id FROM users u JOIN project_members m "
                        "ON m.user_id = u.user_id WHERE m.project_id = ? AND u.full_name = ?",
                        (project_id, full_name))


def describe_sprint(ctx: SampleContext, sprint_id: str, name: str, project: str
                    ) -> Description | None:
    return ctx.describe("sprint", f"{name} of the {project} project",
                        {"sprint": name, "project": project}, sprint_id,
                        "SELECT s.sprint_id FROM sprints s JOIN projects p "
                        "ON p.project_id = s.project_id WHERE s.name = ? AND p.name = ?",
                        (name, project))


def _title_keys(d: Description) -> list[tuple]:
    return [("title", d.fields["title"])] if "title" in d.fields else []


def _find(ctx: SampleContext, issue: Issue, d: Description) -> tuple[PlanStep, ...]:
    """Reads that find the issue: the user's projects, then a search."""
    search = {"project_id": issue.project_id, "query": d.fields.get("title", "")}
    if "title" not in d.fields:
        search = {"project_id": issue.project_id, "status": issue.status}
    return (PlanStep(call=ToolCall("get_user_details", {"user_id": ctx.user_id})),
            PlanStep(call=ToolCall("search_issues", search)),
            PlanStep(call=ToolCall("get_issue_details", {"issue_id": issue.issue_id})))


def _claim_count(ctx: SampleContext, issue: Issue, *users: str | None) -> tuple:
    """The count key of the issue's project when one of ``users`` is the task's user."""
    return (("count", issue.project_id),) if ctx.user_id in users else ()


# --------------------------------------------------------------------------- writes

_SAY_STATUS = {
    "in_progress": ("I'm starting work on {d}. Please set it to in progress.",
                    "Could you move {d} to in progress?",
                    "{D} should be in progress now; can you update it?"),
    "in_review": ("{D} is ready for review; please move it to in review.",
                  "Could you set {d} to in review?"),
    "done": ("{D} is finished. Please mark it as done.", "Could you close {d} as done?"),
    "wont_fix": ("We decided not to fix {d}. Please close it as won't fix.",
                 "Could you mark {d} as won't fix?"),
}


def transition_issue(ctx: SampleContext) -> Constraint | None:
    for issue in _unresolved(ctx):
        step = {"open": "in_progress", "in_progress": "in_review", "in_review": "done"}
        status = step[issue.status] if ctx.rng.random() < 0.85 else "wont_fix"
        blockers = unresolved_blockers(ctx.db, issue.issue_id)
        if status == "done" and blockers:
            continue
        if status == "wont_fix" and ctx.rows(
                "SELECT 1 FROM issue_links l JOIN issues i ON i.issue_id = l.target_id "
                "WHERE l.source_id = ? AND l.kind = 'blocks' "
                "AND i.status NOT IN ('done', 'wont_fix')", (issue.issue_id,)):
            continue
        d = describe_issue(ctx, issue)
        if d is None or not ctx.claim(issue.issue_id, *blockers, *_title_keys(d),
                                      *_claim_count(ctx, issue, issue.assignee_id)):
            continue
        call = ToolCall("transition_issue", {"issue_id": issue.issue_id,
                                             "user_id": ctx.user_id, "status": status})
        return write_need(
            "transition_issue", {"issue_id": issue.issue_id, "status": status}, {"issue": d},
            call, issue.issue_id, ((issue.title,), STATUS_TERMS[status]),
            tuple(s.format(d=d.text, D=_cap(d.text)) for s in _SAY_STATUS[status]),
            f"I will move '{issue.title}' from {STATUS_WORDS[issue.status]} to "
            f"{STATUS_WORDS[status]}.", _find(ctx, issue, d),
            (Expectation("SELECT status, resolved_at IS NOT NULL FROM issues "
                         "WHERE issue_id = ?", (issue.issue_id,),
                         ((status, int(status in ("done", "wont_fix"))),)),))
    return None


def assign_issue(ctx: SampleContext) -> Constraint | None:
    for issue in _unresolved(ctx):
        members = ctx.rows("SELECT u.user_id, u.full_name, u.username FROM project_members m "
                           "JOIN users u ON u.user_id = m.user_id WHERE m.project_id = ? "
                           "AND u.user_id IS NOT ? ORDER BY m.rowid",
                           (issue.project_id, issue.assignee_id))
        if not members:
            continue
        member, full_name, username = ctx.pick(members)
        d = describe_issue(ctx, issue)
        dm = describe_member(ctx, issue.project_id, issue.project, member, full_name)
        if d is None or dm is None or not ctx.claim(
                issue.issue_id, *_title_keys(d),
                *_claim_count(ctx, issue, issue.assignee_id, member)):
            continue
        me = member == ctx.user_id
        who = "me" if me else full_name
        call = ToolCall("assign_issue", {"issue_id": issue.issue_id, "user_id": ctx.user_id,
                                         "assignee_id": member})
        return write_need(
            "assign_issue", {"issue_id": issue.issue_id, "assignee_id": member},
            {"issue": d, "assignee": dm}, call, issue.issue_id,
            ((issue.title,), (full_name, username, "to you", "yourself") if me
             else (full_name, username)),
            (f"Please assign {d.text} to {who}.",
             f"Could you make {who} the assignee of {d.text}?",
             f"{_cap(d.text)} should be handled by {who}; can you assign it?"),
            f"I will assign '{issue.title}' to {full_name} ({username}).",
            (*_find(ctx, issue, d), PlanStep(call=ToolCall(
                "get_project_details", {"project_id": issue.project_id}))),
            (Expectation("SELECT assignee_id FROM issues WHERE issue_id = ?",
                         (issue.issue_id,), ((member,),)),))
    return None


def change_priority(ctx: SampleContext) -> Constraint | None:
    for issue in _unresolved(ctx):
        priority = ctx.pick([p for p in ("low", "medium", "high", "critical")
                             if p != issue.priority])
        d = describe_issue(ctx, issue)
        if d is None or not ctx.claim(issue.issue_id, *_title_keys(d)):
            continue
        call = ToolCall("set_issue_priority", {"issue_id": issue.issue_id,
                                               "user_id": ctx.user_id, "priority": priority})
        return write_need(
            "change_priority", {"issue_id": issue.issue_id, "priority": priority},
            {"issue": d}, call, issue.issue_id, ((issue.title,), (priority,)),
            (f"Please set the priority of {d.text} to {priority}.",
             f"Could you change {d.text} to {priority} priority?",
             f"{_cap(d.text)} should be {priority} priority."),
            f"I will change the priority of '{issue.title}' from {issue.priority} to "
            f"{priority}.", _find(ctx, issue, d),
            (Expectation("SELECT priority FROM issues WHERE issue_id = ?", (issue.issue_id,),
                         ((priority,),)),))
    return None


def add_label(ctx: SampleContext) -> Constraint | None:
    for issue in _unresolved(ctx):
        labels = [r[0] for r in ctx.rows(
            "SELECT name FROM labels WHERE project_id = ? AND name NOT IN (SELECT label "
            "FROM issue_labels WHERE issue_id = ?) ORDER BY name",
            (issue.project_id, issue.issue_id))]
        if not labels:
            continue
        label = ctx.pick(labels)
        d = describe_issue(ctx, issue)
        if d is None or not ctx.claim(issue.issue_id, *_title_keys(d)):
            continue
        call = ToolCall("add_label", {"issue_id": issue.issue_id, "user_id": ctx.user_id,
                                      "label": label})
        return write_need(
            "add_label", {"issue_id": issue.issue_id, "label": label}, {"issue": d}, call,
            issue.issue_id, ((issue.title,), (label,)),
            (f"Please add the label '{label}' to {d.text}.",
             f"Could you tag {d.text} with '{label}'?",
             f"{_cap(d.text)} needs the '{label}' label."),
            f"I will add the label '{label}' to '{issue.title}'.", _find(ctx, issue, d),
            (Expectation("SELECT count(*) FROM issue_labels WHERE issue_id = ? AND label = ?",
                         (issue.issue_id, label), ((1,),)),))
    return None


def add_comment(ctx: SampleContext) -> Constraint | None:
    for issue in ctx.shuffled(_issues(ctx))[:16]:
        body = ctx.pick(NEW_COMMENTS)
        d = describe_issue(ctx, issue)
        if d is None or not ctx.claim(issue.issue_id, *_title_keys(d)):
            continue
        (count,), = ctx.rows("SELECT count(*) FROM comments WHERE issue_id = ? "
                             "AND author_id = ? AND body = ?", (issue.issue_id, ctx.user_id, body))
        call = ToolCall("add_comment", {"issue_id": issue.issue_id, "user_id": ctx.user_id,
                                        "body": body})
        return write_need(
            "add_comment", {"issue_id": issue.issue_id, "body": body}, {"issue": d}, call,
            issue.issue_id, ((issue.title,), (body,)),
            (f"Please add this comment to {d.text}: \"{body}\"",
             f"Could you comment on {d.text} for me? Write exactly: \"{body}\"",
             f"I'd like to leave a comment on {d.text} saying \"{body}\""),
            f"I will add your comment \"{body}\" to '{issue.title}'.", _find(ctx, issue, d),
            (Expectation("SELECT count(*) FROM comments WHERE issue_id = ? AND author_id = ? "
                         "AND body = ?", (issue.issue_id, ctx.user_id, body),
                         ((count + 1,),)),))
    return None


def create_issue(ctx: SampleContext) -> Constraint | None:
    projects = ctx.rows("SELECT p.project_id, p.name FROM project_members m JOIN projects p "
                        "ON p.project_id = m.project_id WHERE m.user_id = ? ORDER BY p.rowid",
                        (ctx.user_id,))
    mine = {r[0] for r in ctx.rows("SELECT i.title FROM issues i JOIN project_members m "
                                   "ON m.project_id = i.project_id WHERE m.user_id = ?",
                                   (ctx.user_id,))}
    for project_id, project in ctx.shuffled(projects):
        for _ in range(8):
            component, (problem, kind) = ctx.pick(COMPONENTS), ctx.pick(PROBLEMS)
            title = f"{component} {problem}"
            if title not in mine:
                break
        else:
            continue
        dp = ctx.describe("project", project, {"name": project}, project_id,
                          "SELECT project_id FROM projects WHERE name = ?", (project,))
        if dp is None or not ctx.claim(("title", title)):
            continue
        priority = ctx.pick(("low", "medium", "high", "critical"))
        call = ToolCall("create_issue", {"project_id": project_id, "user_id": ctx.user_id,
                                         "title": title, "type": kind, "priority": priority})
        return write_need(
            "create_issue", {"project_id": project_id, "title": title, "type": kind,
                             "priority": priority}, {"project": dp}, call, project_id,
            ((title,), (kind,), (priority,)),
            (f"Please file a new {kind} in the {project} project titled '{title}', with "
             f"{priority} priority.",
             f"Could you create a {priority}-priority {kind} called '{title}' in {project}?",
             f"I need a new {kind} in {project}: '{title}'. Priority {priority}."),
            f"I will create a new {kind} '{title}' in {project} with {priority} priority.",
            (PlanStep(call=ToolCall("get_user_details", {"user_id": ctx.user_id})),
             PlanStep(call=ToolCall("search_issues", {"project_id": project_id,
                                                      "query": title}))),
            (Expectation("SELECT count(*) FROM issues WHERE project_id = ? AND title = ? "
                         "AND type = ? AND priority = ? AND reporter_id = ? AND status = 'open' "
                         "AND assignee_id IS NULL",
                         (project_id, title, kind, priority, ctx.user_id), ((1,),)),))
    return None


def _blocks_path(ctx: SampleContext, start: str, goal: str) -> bool:
    rows = ctx.rows("WITH RECURSIVE t(id) AS (SELECT ? UNION SELECT l.target_id FROM "
                    "issue_links l JOIN t ON l.source_id = t.id WHERE l.kind = 'blocks') "
                    "SELECT 1 FROM t WHERE id = ?", (start, goal))
    return bool(rows)


def link_blocking(ctx: SampleContext) -> Constraint | None:
    issues = _unresolved(ctx)
    for a in issues:
        others = [b for b in issues if b.project_id == a.project_id and b is not a]
        if not others:
            continue
        b = ctx.pick(others)
        if ctx.rows("SELECT 1 FROM issue_links WHERE (source_id = ? AND target_id = ?) "
                    "OR (source_id = ? AND target_id = ?)",
                    (a.issue_id, b.issue_id, b.issue_id, a.issue_id)):
            continue
        if _blocks_path(ctx, b.issue_id, a.issue_id):
            continue
        da, db_ = describe_issue(ctx, a), describe_issue(ctx, b)
        if da is None or db_ is None or not ctx.claim(a.issue_id, b.issue_id, *_title_keys(da),
                                                      *_title_keys(db_)):
            continue
        call = ToolCall("link_issues", {"issue_id": a.issue_id, "user_id": ctx.user_id,
                                        "target_issue_id": b.issue_id, "kind": "blocks"})
        return write_need(
            "link_blocking", {"issue_id": a.issue_id, "target_issue_id": b.issue_id},
            {"blocker": da, "blocked": db_}, call, a.issue_id,
            ((a.title,), (b.title,), ("block",)),
            (f"Please record that {da.text} blocks {db_.text}.",
             f"{_cap(db_.text)} can't move forward until {da.text} is resolved. Can you link "
             f"them so the first one blocks it?",
             f"Could you mark {da.text} as blocking {db_.text}?"),
            f"I will link the issues so that '{a.title}' blocks '{b.title}'.",
            (*_find(ctx, a, da), *_find(ctx, b, db_)[1:]),
            (Expectation("SELECT count(*) FROM issue_links WHERE source_id = ? "
                         "AND target_id = ? AND kind = 'blocks'", (a.issue_id, b.issue_id),
                         ((1,),)),))
    return None


def move_to_sprint(ctx: SampleContext) -> Constraint | None:
    for issue in _unresolved(ctx):
        sprints = ctx.rows("SELECT sprint_id, name FROM sprints WHERE project_id = ? "
                           "AND state != 'closed' AND sprint_id IS NOT ? ORDER BY start_date",
                           (issue.project_id, issue.sprint_id))
        if not sprints:
            continue
        sprint_id, name = ctx.pick(sprints)
        d = describe_issue(ctx, issue)
        ds = describe_sprint(ctx, sprint_id, name, issue.project)
        if d is None or ds is None or not ctx.claim(issue.issue_id, *_title_keys(d)):
            continue
        call = ToolCall("move_issue_to_sprint", {"issue_id": issue.issue_id,
                                                 "user_id": ctx.user_id, "sprint_id": sprint_id})
        return write_need(
            "move_to_sprint", {"issue_id": issue.issue_id, "sprint_id": sprint_id},
            {"issue": d, "sprint": ds}, call, issue.issue_id, ((issue.title,), (name,)),
            (f"Please put {d.text} into {ds.text}.",
             f"Could you move {d.text} to {ds.text}?",
             f"We want to tackle {d.text} in {ds.text}; can you add it there?"),
            f"I will move '{issue.title}' into {name}.",
            (*_find(ctx, issue, d), PlanStep(call=ToolCall(
                "get_project_details", {"project_id": issue.project_id}))),
            (Expectation("SELECT sprint_id FROM issues WHERE issue_id = ?", (issue.issue_id,),
                         ((sprint_id,),)),))
    return None


# --------------------------------------------------------------------------- information


def info_assignee(ctx: SampleContext) -> Constraint | None:
    for issue in ctx.shuffled(_issues(ctx, "i.assignee_id IS NOT NULL"))[:16]:
        d = describe_issue(ctx, issue)
        if d is None or not ctx.claim(issue.issue_id, *_title_keys(d)):
            continue
        (full_name,), = ctx.rows("SELECT full_name FROM users WHERE user_id = ?",
                                 (issue.assignee_id,))
        return Constraint(
            "info_assignee", {"issue_id": issue.issue_id}, {"issue": d}, answer=full_name,
            say=(f"Who is working on {d.text}?", f"Who's assigned to {d.text}?",
                 f"Can you tell me the assignee of {d.text}?"),
            solution=(*_find(ctx, issue, d),
                      PlanStep(say=f"'{issue.title}' is assigned to {full_name}.")))
    return None


def info_open_count(ctx: SampleContext) -> Constraint | None:
    projects = ctx.rows("SELECT p.project_id, p.name FROM project_members m JOIN projects p "
                        "ON p.project_id = m.project_id WHERE m.user_id = ? ORDER BY p.rowid",
                        (ctx.user_id,))
    counted = [(project_id, project, [r[0] for r in ctx.rows(
        "SELECT issue_id FROM issues WHERE project_id = ? AND assignee_id = ? "
        "AND status NOT IN ('done', 'wont_fix')", (project_id, ctx.user_id))])
        for project_id, project in ctx.shuffled(projects)]
    counted.sort(key=lambda c: not c[2])  # projects where the answer is not 0 first
    for project_id, project, mine in counted:
        dp = ctx.describe("project", project, {"name": project}, project_id,
                          "SELECT project_id FROM projects WHERE name = ?", (project,))
        if dp is None or not ctx.claim(("count", project_id), *mine):
            continue
        n = len(mine)
        return Constraint(
            "info_open_count", {"project_id": project_id}, {"project": dp}, answer=str(n),
            evidence=(("search_issues", project_id),),
            say=(f"How many unresolved issues do I have assigned in the {project} project?",
                 f"How many of my issues in {project} are still not done or closed?",
                 f"Can you count the issues assigned to me in {project} that aren't resolved "
                 f"yet?"),
            solution=(PlanStep(call=ToolCall("get_user_details", {"user_id": ctx.user_id})),
                      PlanStep(call=ToolCall("search_issues", {
                          "project_id": project_id, "status": "unresolved",
                          "assignee_id": ctx.user_id})),
                      PlanStep(say=f"You have {n} unresolved issues assigned to you in "
                                   f"{project}.")))
    return None


def info_sprint_end(ctx: SampleContext) -> Constraint | None:
    rows = ctx.rows("SELECT s.sprint_id, s.name, p.name, s.end_date, s.project_id "
                    "FROM sprints s JOIN projects p ON p.project_id = s.project_id "
                    "JOIN project_members m ON m.project_id = s.project_id AND m.user_id = ? "
                    "WHERE s.state != 'closed' ORDER BY s.rowid", (ctx.user_id,))
    for sprint_id, name, project, end, project_id in ctx.shuffled(rows):
        ds = describe_sprint(ctx, sprint_id, name, project)
        if ds is None or not ctx.claim(("sprint", sprint_id)):
            continue
        return Constraint(
            "info_sprint_end", {"sprint_id": sprint_id}, {"sprint": ds}, answer=end,
            say=(f"When does {ds.text} end?", f"What's the last day of {ds.text}?",
                 f"Can you tell me the end date of {ds.text}?"),
            solution=(PlanStep(call=ToolCall("get_user_details", {"user_id": ctx.user_id})),
                      PlanStep(call=ToolCall("get_project_details", {"project_id": project_id})),
                      PlanStep(say=f"{name} of {project} ends on {end}.")))
    return None


# --------------------------------------------------------------------------- refusal


def refuse_done_while_blocked(ctx: SampleContext) -> Constraint | None:
    for issue in ctx.shuffled(_issues(ctx, "i.status = 'in_review'")):
        blockers = unresolved_blockers(ctx.db, issue.issue_id)
        if not blockers:
            continue
        d = describe_issue(ctx, issue)
        if d is None or not ctx.claim(("refusal",), issue.issue_id, *blockers,
                                      *_title_keys(d)):
            continue
        (title, status), = ctx.rows("SELECT title, status FROM issues WHERE issue_id = ?",
                                    (blockers[0],))
        return Constraint(
            "refuse_done_while_blocked",
            {"issue_id": issue.issue_id, "blockers": list(blockers),
             "forbidden": {"name": "transition_issue", "arguments": {
                 "issue_id": issue.issue_id, "user_id": ctx.user_id, "status": "done"}}},
            {"issue": d}, answer="cannot",
            refusal=Refusal((issue.issue_id,), about=(issue.issue_id, issue.title, title,
                                                      *blockers, *_BLOCKED_BY_WORDS)),
            say=(f"{_cap(d.text)} is finished. Please mark it as done.",
                 f"Could you close {d.text} as done?",
                 f"Please set {d.text} to done; the review went fine."),
            solution=(*_find(ctx, issue, d), PlanStep(say=(
                f"I'm sorry, but I cannot mark '{issue.title}' as done: it is still blocked by "
                f"'{title}', which is {STATUS_WORDS[status]}. It can be marked done once every "
                f"issue that blocks it is resolved."))),
            expect=(Expectation("SELECT status, resolved_at FROM issues WHERE issue_id = ?",
                                (issue.issue_id,), (("in_review", None),)),))
    return None


def policy_violations(db, tool: str, arguments: dict) -> list[str]:
    """Rules of the policy that a write would break (judged before it runs)."""
    if tool == "transition_issue" and arguments.get("status") == "done":
        issue_id = arguments.get("issue_id")
        if isinstance(issue_id, str) and unresolved_blockers(db, issue_id):
            return ["policy:done_while_blocked"]
    return []


# --------------------------------------------------------------------------- the kit

LOGIN = Login("users", "user_id", "find_user_by_email", "find_user_by_username")

SAMPLERS = by_name(
    transition_issue, assign_issue, change_priority, add_label, add_comment, create_issue,
    link_blocking, move_to_sprint, info_assignee, info_open_count, info_sprint_end,
    refuse_done_while_blocked)

TASKS = RuleTaskKit(
    "issue_tracker", SAMPLERS,
    **LOGIN.kit_keywords(),
    owners={name: ("SELECT user_id FROM users WHERE user_id = ?", "user_id")
            for name in WRITE_TOOLS},
    ask_identity="Before I can help, I need to verify your identity. Could you give me your "
                 "email address or your username?",
    identity_phrases=("Sure, {text}.", "Of course, {text}.", "OK: {text}."),
    policy_violations=policy_violations,
)

__all__ = ["TASKS", "SAMPLERS", "policy_violations"]
