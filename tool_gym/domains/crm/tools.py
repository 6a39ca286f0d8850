"""The tools of the CRM domain: 11 reads, 9 writes and a transfer to a human agent.

The user of this domain is a sales rep; the agent is their CRM assistant. Every tool takes
the sandbox's SQLite connection first and uses parameterized SQL only. A write checks all
its preconditions before its first statement and raises :class:`ToolError` with a clear
message when one fails (the toolbox also wraps each write in a savepoint).

Rules the tools enforce: a closed opportunity never changes; ``closed_won`` only from the
``negotiation`` stage; close dates and due dates not in the past; lead statuses move forward
(new, contacted, qualified) and only a qualified lead converts. Two rules are policy rules
the agent must apply (the tools cannot know who asks): only the owning rep may change or
close an opportunity, and stages move forward only.
"""

from __future__ import annotations

import re
import sqlite3
from typing import Annotated, Literal

from ...core.arguments import check_cents, check_date
from ...core.common_tools import human_transfer_tool
from ...core.ids import counted_id
from ...core.rows import fetch_record, fetch_row, find_id
from ...core.tools import Category, Entity, Quotas, ToolError, tool

#: Growth bounds of one sandbox (see :class:`~tool_gym.core.tools.Quotas`): templates hold
#: about 1,400 rows in their largest table.
QUOTAS = Quotas(rows={"activities": 10_000, "tasks": 10_000, "opportunities": 10_000,
                      "leads": 10_000})

#: The CRM's clock (fixed, so that every episode is reproducible).
TODAY = "2024-06-14"

STAGES = ("prospecting", "qualification", "proposal", "negotiation", "closed_won", "closed_lost")
OPEN_STAGES = STAGES[:4]
PRODUCTS = ("Analytics Suite", "Data Platform", "Security Add-on", "Cloud Storage",
            "CRM Seats", "Support Plan", "Integration Hub", "Mobile SDK", "AI Assistant",
            "Compliance Pack")
LEAD_ORDER = ("new", "contacted", "qualified")

RepId = Annotated[str, Entity("rep_id")]
CompanyId = Annotated[str, Entity("company_id")]
ContactId = Annotated[str, Entity("contact_id")]
OpportunityId = Annotated[str, Entity("opportunity_id")]
LeadId = Annotated[str, Entity("lead_id")]
TaskId = Annotated[str, Entity("task_id")]

OpenStage = Literal["prospecting", "qualification", "proposal", "negotiation"]
Product = Literal["Analytics Suite", "Data Platform", "Security Add-on", "Cloud Storage",
                  "CRM Seats", "Support Plan", "Integration Hub", "Mobile SDK", "AI Assistant",
                  "Compliance Pack"]


def stage_index(stage: str) -> int:
    return STAGES.index(stage)


# ------------------------------------------------------------------------- records

_OPP_COLUMNS = ("o.opportunity_id, o.name, o.company_id, c.name, o.contact_id, o.owner_rep_id, "
                "r.first_name || ' ' || r.last_name, o.product, o.stage, o.amount, "
                "o.close_date, o.created_on, o.closed_on, o.close_reason")
_OPP_FROM = ("FROM opportunities o JOIN companies c ON c.company_id = o.company_id "
             "JOIN reps r ON r.rep_id = o.owner_rep_id")
_OPP_KEYS = ("opportunity_id", "name", "company_id", "company_name", "contact_id",
             "owner_rep_id", "owner_name", "product", "stage", "amount", "close_date",
             "created_on", "closed_on", "close_reason")


def _opportunity(db: sqlite3.Connection, opportunity_id: str) -> dict:
    row = fetch_row(db, f"SELECT {_OPP_COLUMNS} {_OPP_FROM} WHERE o.opportunity_id = ?",
                    (opportunity_id,), f"Opportunity {opportunity_id!r} not found.")
    return dict(zip(_OPP_KEYS, row))


def _open_opportunity(db: sqlite3.Connection, opportunity_id: str) -> dict:
    opp = _opportunity(db, opportunity_id)
    if opp["stage"] not in OPEN_STAGES:
        raise ToolError(f"Opportunity {opportunity_id} is closed ({opp['stage']}) and can no "
                        "longer be changed.")
    return opp


def _rep(db: sqlite3.Connection, rep_id: str) -> dict:
    row = fetch_row(db, "SELECT rep_id, first_name, last_name, email, username, region, team, "
                    "quota, hired_on FROM reps WHERE rep_id = ?", (rep_id,),
                    f"Sales rep {rep_id!r} not found.")
    return dict(zip(("rep_id", "first_name", "last_name", "email", "username", "region",
                     "team", "quota", "hired_on"), row))


_LEAD_KEYS = ("lead_id", "owner_rep_id", "first_name", "last_name", "title", "company_name",
              "email", "source", "status", "created_on", "converted_opportunity_id")


def _lead(db: sqlite3.Connection, lead_id: str) -> dict:
    return fetch_record(db, "leads", _LEAD_KEYS, "lead_id", lead_id, f"Lead {lead_id!r} not found.")


_TASK_KEYS = ("task_id", "rep_id", "opportunity_id", "title", "due_date", "priority", "status",
              "completed_on")

# --------------------------------------------------------------------------- READ


@tool(Category.READ, returns={".": RepId})
def find_rep_by_email(db, email: str) -> str:
    """Find a sales rep's id by their work email. Use it to authenticate the rep before
    anything else.

    Args:
        email: The rep's work email, such as 'alex.turner@northwind-sales.com'.
    """
    return find_id(db, "reps", "rep_id", "email", email.strip().lower(),
                   "No sales rep found with this email.")


@tool(Category.READ, returns={".": RepId})
def find_rep_by_username(db, username: str) -> str:
    """Find a sales rep's id by their CRM username. Use it to authenticate the rep before
    anything else.

    Args:
        username: The rep's CRM username, such as 'aturner12'.
    """
    return find_id(db, "reps", "rep_id", "username", username.strip().lower(),
                   "No sales rep found with this username.")


@tool(Category.READ, returns={"rep_id": RepId})
def get_rep_profile(db, rep_id: RepId) -> dict:
    """Get a sales rep's profile: name, contact, region, team, quota, and how many
    companies, open opportunities, leads and open tasks they own.

    Args:
        rep_id: The rep's id, such as 'rep_a1b2c3d4'.
    """
    rep = _rep(db, rep_id)
    counts = db.execute(
        "SELECT (SELECT count(*) FROM companies WHERE owner_rep_id = ?1), "
        "(SELECT count(*) FROM opportunities WHERE owner_rep_id = ?1 AND stage IN "
        "('prospecting', 'qualification', 'proposal', 'negotiation')), "
        "(SELECT count(*) FROM leads WHERE owner_rep_id = ?1), "
        "(SELECT count(*) FROM tasks WHERE rep_id = ?1 AND status = 'open')",
        (rep_id,)).fetchone()
    rep.update(zip(("companies", "open_opportunities", "leads", "open_tasks"), counts))
    return rep


@tool(Category.READ, returns={"companies.company_id": CompanyId,
                              "companies.owner_rep_id": RepId})
def search_companies(db, name: str) -> dict:
    """Search companies (accounts) by part of their name, case-insensitive. Companies of
    every rep are visible.

    Args:
        name: Part of the company name, such as 'harbor'.
    """
    if len(name.strip()) < 2:
        raise ToolError("Give at least two characters of the company name.")
    rows = db.execute(
        "SELECT c.company_id, c.name, c.industry, c.city, c.country, c.owner_rep_id, "
        "r.first_name || ' ' || r.last_name FROM companies c JOIN reps r "
        "ON r.rep_id = c.owner_rep_id WHERE instr(lower(c.name), lower(?)) > 0 "
        "ORDER BY c.name LIMIT 20", (name.strip(),)).fetchall()
    keys = ("company_id", "name", "industry", "city", "country", "owner_rep_id", "owner_name")
    return {"companies": [dict(zip(keys, r)) for r in rows]}


@tool(Category.READ, returns={"company_id": CompanyId, "owner_rep_id": RepId,
                              "contacts.contact_id": ContactId,
                              "opportunities.opportunity_id": OpportunityId,
                              "opportunities.owner_rep_id": RepId})
def get_company(db, company_id: CompanyId) -> dict:
    """Get a company with its contacts and its opportunities (with their owners and stages).

    Args:
        company_id: The company's id.
    """
    row = fetch_row(db, "SELECT company_id, name, industry, city, country, employees, website, "
                    "owner_rep_id, created_on FROM companies WHERE company_id = ?",
                    (company_id,), f"Company {company_id!r} not found.")
    company = dict(zip(("company_id", "name", "industry", "city", "country", "employees",
                        "website", "owner_rep_id", "created_on"), row))
    company["contacts"] = [dict(zip(("contact_id", "first_name", "last_name", "title"), r))
                           for r in db.execute(
        "SELECT contact_id, first_name, last_name, title FROM contacts WHERE company_id = ? "
        "ORDER BY rowid", (company_id,))]
    company["opportunities"] = [dict(zip(
        ("opportunity_id", "name", "product", "stage", "amount", "owner_rep_id", "owner_name"), r))
        for r in db.execute(
        "SELECT o.opportunity_id, o.name, o.product, o.stage, o.amount, o.owner_rep_id, "
        "r.first_name || ' ' || r.last_name FROM opportunities o JOIN reps r "
        "ON r.rep_id = o.owner_rep_id WHERE o.company_id = ? ORDER BY o.rowid", (company_id,))]
    return company


@tool(Category.READ, returns={"rep_id": RepId, "opportunities.opportunity_id": OpportunityId,
                              "opportunities.company_id": CompanyId})
def list_opportunities(db, rep_id: RepId, stage: str = "") -> dict:
    """List the opportunities a rep owns, optionally only those in one stage.

    Args:
        rep_id: The rep's id.
        stage: Only this stage ('prospecting', 'qualification', 'proposal', 'negotiation',
            'closed_won' or 'closed_lost'); empty for all.
    """
    _rep(db, rep_id)
    if stage and stage not in STAGES:
        raise ToolError(f"Unknown stage {stage!r}; stages are: {', '.join(STAGES)}.")
    rows = db.execute(
        f"SELECT {_OPP_COLUMNS} {_OPP_FROM} WHERE o.owner_rep_id = ? AND (? = '' OR o.stage = ?) "
        "ORDER BY o.rowid", (rep_id, stage, stage)).fetchall()
    return {"rep_id": rep_id, "opportunities": [dict(zip(_OPP_KEYS, r)) for r in rows]}


@tool(Category.READ, returns={"opportunity_id": OpportunityId, "company_id": CompanyId,
                              "contact_id": ContactId, "owner_rep_id": RepId})
def get_opportunity(db, opportunity_id: OpportunityId) -> dict:
    """Get one opportunity: company, contact, owner, product, stage, amount and dates.

    Args:
        opportunity_id: The opportunity's id.
    """
    return _opportunity(db, opportunity_id)


@tool(Category.READ, returns={"opportunity_id": OpportunityId,
                              "activities.activity_id": "activity_id"})
def list_activities(db, opportunity_id: OpportunityId) -> dict:
    """List the activities (calls, emails, meetings, notes) logged on an opportunity,
    newest first.

    Args:
        opportunity_id: The opportunity's id.
    """
    _opportunity(db, opportunity_id)
    rows = db.execute("SELECT activity_id, rep_id, kind, subject, notes, occurred_on "
                      "FROM activities WHERE opportunity_id = ? "
                      "ORDER BY occurred_on DESC, rowid DESC", (opportunity_id,)).fetchall()
    keys = ("activity_id", "rep_id", "kind", "subject", "notes", "occurred_on")
    return {"opportunity_id": opportunity_id, "activities": [dict(zip(keys, r)) for r in rows]}


@tool(Category.READ, returns={"contact_id": ContactId, "company_id": CompanyId,
                              "owner_rep_id": RepId})
def get_contact(db, contact_id: ContactId) -> dict:
    """Get a contact's details: name, title, company, email and phone.

    Args:
        contact_id: The contact's id.
    """
    row = fetch_row(db, "SELECT contact_id, company_id, first_name, last_name, title, email, "
                    "phone, owner_rep_id FROM contacts WHERE contact_id = ?",
                    (contact_id,), f"Contact {contact_id!r} not found.")
    return dict(zip(("contact_id", "company_id", "first_name", "last_name", "title", "email",
                     "phone", "owner_rep_id"), row))


@tool(Category.READ, returns={"rep_id": RepId, "leads.lead_id": LeadId,
                              "leads.converted_opportunity_id": OpportunityId})
def list_leads(db, rep_id: RepId, status: str = "") -> dict:
    """List the leads a rep owns, optionally only those with one status.

    Args:
        rep_id: The rep's id.
        status: Only this status ('new', 'contacted', 'qualified', 'disqualified' or
            'converted'); empty for all.
    """
    _rep(db, rep_id)
    statuses = ("new", "contacted", "qualified", "disqualified", "converted")
    if status and status not in statuses:
        raise ToolError(f"Unknown lead status {status!r}; statuses are: {', '.join(statuses)}.")
    rows = db.execute(f"SELECT {', '.join(_LEAD_KEYS)} FROM leads WHERE owner_rep_id = ? "
                      "AND (? = '' OR status = ?) ORDER BY rowid",
                      (rep_id, status, status)).fetchall()
    return {"rep_id": rep_id, "leads": [dict(zip(_LEAD_KEYS, r)) for r in rows]}


@tool(Category.READ, returns={"rep_id": RepId, "tasks.task_id": TaskId,
                              "tasks.opportunity_id": OpportunityId})
def list_tasks(db, rep_id: RepId, status: str = "") -> dict:
    """List a rep's follow-up tasks, optionally only 'open' or 'completed' ones.

    Args:
        rep_id: The rep's id.
        status: 'open' or 'completed'; empty for all.
    """
    _rep(db, rep_id)
    if status not in ("", "open", "completed"):
        raise ToolError(f"Unknown task status {status!r}; use 'open' or 'completed'.")
    rows = db.execute(f"SELECT {', '.join(_TASK_KEYS)} FROM tasks WHERE rep_id = ? "
                      "AND (? = '' OR status = ?) ORDER BY due_date, rowid",
                      (rep_id, status, status)).fetchall()
    return {"rep_id": rep_id, "tasks": [dict(zip(_TASK_KEYS, r)) for r in rows]}


transfer_to_human_agents = human_transfer_tool(
    "Transfer the rep to a human sales-operations agent, with a summary of the issue. "
    "Only transfer if the rep explicitly asks for a human, or if the request cannot be "
    "handled with the policy and the available tools.",
    "A summary of the rep's issue.")


# -------------------------------------------------------------------------- WRITE


@tool(Category.WRITE, returns={"opportunity_id": OpportunityId}, writes=("opportunity_id",))
def update_opportunity_stage(db, opportunity_id: OpportunityId, stage: OpenStage) -> dict:
    """Move an open opportunity to another open stage (to close it, use
    close_opportunity). Check the policy on stage changes first. Confirm with the rep
    (explicit yes) before calling.

    Args:
        opportunity_id: The opportunity's id.
        stage: The new stage: 'prospecting', 'qualification', 'proposal' or 'negotiation'.
    """
    opp = _open_opportunity(db, opportunity_id)
    if opp["stage"] == stage:
        raise ToolError(f"The opportunity is already in the {stage} stage.")
    db.execute("UPDATE opportunities SET stage = ? WHERE opportunity_id = ?",
               (stage, opportunity_id))
    return _opportunity(db, opportunity_id)


@tool(Category.WRITE, returns={"opportunity_id": OpportunityId}, writes=("opportunity_id",))
def update_opportunity_amount(db, opportunity_id: OpportunityId, amount: float) -> dict:
    """Change the amount (deal size, US dollars) of an open opportunity. Confirm with the
    rep (explicit yes) before calling.

    Args:
        opportunity_id: The opportunity's id.
        amount: The new amount in dollars, positive.
    """
    amount = check_cents(amount)
    _open_opportunity(db, opportunity_id)
    db.execute("UPDATE opportunities SET amount = ? WHERE opportunity_id = ?",
               (amount, opportunity_id))
    return _opportunity(db, opportunity_id)


@tool(Category.WRITE, returns={"opportunity_id": OpportunityId}, writes=("opportunity_id",))
def update_close_date(db, opportunity_id: OpportunityId, close_date: str) -> dict:
    """Change the expected close date of an open opportunity (today or later). Confirm
    with the rep (explicit yes) before calling.

    Args:
        opportunity_id: The opportunity's id.
        close_date: The new expected close date, YYYY-MM-DD.
    """
    if check_date(close_date, "close_date") < TODAY:
        raise ToolError(f"The close date cannot be in the past (today is {TODAY}).")
    _open_opportunity(db, opportunity_id)
    db.execute("UPDATE opportunities SET close_date = ? WHERE opportunity_id = ?",
               (close_date, opportunity_id))
    return _opportunity(db, opportunity_id)


@tool(Category.WRITE, returns={"opportunity_id": OpportunityId}, writes=("opportunity_id",),
      needs=("opportunity_id",))
def close_opportunity(db, opportunity_id: OpportunityId, outcome: Literal["won", "lost"],
                      reason: str = "") -> dict:
    """Close an open opportunity as won or lost. Only an opportunity in the 'negotiation'
    stage can be closed as won. Only the owning rep may close an opportunity. Confirm with
    the rep (explicit yes) before calling.

    Args:
        opportunity_id: The opportunity's id.
        outcome: 'won' or 'lost'.
        reason: An optional reason (e.g. why it was lost).
    """
    opp = _open_opportunity(db, opportunity_id)
    if outcome == "won" and opp["stage"] != "negotiation":
        raise ToolError(f"Only an opportunity in the negotiation stage can be closed as won; "
                        f"this one is in {opp['stage']}.")
    stage = "closed_won" if outcome == "won" else "closed_lost"
    db.execute("UPDATE opportunities SET stage = ?, closed_on = ?, close_date = ?, "
               "close_reason = ? WHERE opportunity_id = ?",
               (stage, TODAY, TODAY, reason.strip() or ("Signed" if outcome == "won" else
                                                        "Unspecified"), opportunity_id))
    return _opportunity(db, opportunity_id)


@tool(Category.WRITE, returns={"lead_id": LeadId}, writes=("lead_id",))
def update_lead_status(db, lead_id: LeadId,
                       status: Literal["contacted", "qualified", "disqualified"]) -> dict:
    """Change a lead's status. Statuses move forward (new, contacted, qualified); any lead
    that is not converted or disqualified can be disqualified. Confirm with the rep
    (explicit yes) before calling.

    Args:
        lead_id: The lead's id.
        status: 'contacted', 'qualified' or 'disqualified'.
    """
    lead = _lead(db, lead_id)
    current = lead["status"]
    if current in ("converted", "disqualified"):
        raise ToolError(f"The lead is {current} and can no longer change status.")
    if current == status:
        raise ToolError(f"The lead is already {status}.")
    if status != "disqualified" and LEAD_ORDER.index(status) < LEAD_ORDER.index(current):
        raise ToolError(f"A lead cannot go back from {current} to {status}.")
    db.execute("UPDATE leads SET status = ? WHERE lead_id = ?", (status, lead_id))
    lead["status"] = status
    return lead


@tool(Category.WRITE, returns={"lead_id": LeadId, "opportunity_id": OpportunityId,
                               "company_id": CompanyId, "contact_id": ContactId},
      writes=("lead_id", "opportunity_id", "company_id", "contact_id"))
def convert_lead(db, lead_id: LeadId, product: Product, amount: float,
                 close_date: str) -> dict:
    """Convert a qualified lead into an opportunity (stage 'qualification') owned by the
    lead's rep. The lead's company is created if no company has that exact name, and the lead
    becomes a contact of it. Confirm with the rep (explicit yes) before calling.

    Args:
        lead_id: The lead's id.
        product: The product of the new opportunity.
        amount: The expected deal size in dollars, positive.
        close_date: The expected close date, YYYY-MM-DD, today or later.
    """
    amount = check_cents(amount)
    if check_date(close_date, "close_date") < TODAY:
        raise ToolError(f"The close date cannot be in the past (today is {TODAY}).")
    lead = _lead(db, lead_id)
    if lead["status"] != "qualified":
        raise ToolError(f"Only a qualified lead can be converted; this lead is {lead['status']}.")
    rep = lead["owner_rep_id"]
    row = db.execute("SELECT company_id FROM companies WHERE name = ?",
                     (lead["company_name"],)).fetchone()
    if row is not None:
        company_id = row[0]
    else:
        company_id = counted_id(db, "companies", "company_id", "co_")
        site = re.sub(r"[^a-z0-9]", "", lead["company_name"].lower())
        db.execute("INSERT INTO companies (company_id, name, industry, city, country, employees, "
                   "website, owner_rep_id, created_on) VALUES (?, ?, 'Unknown', 'Unknown', "
                   "'Unknown', 0, ?, ?, ?)",
                   (company_id, lead["company_name"], f"https://www.{site}.com", rep, TODAY))
    row = db.execute("SELECT contact_id FROM contacts WHERE email = ?",
                     (lead["email"],)).fetchone()
    if row is not None:
        contact_id = row[0]
    else:
        contact_id = counted_id(db, "contacts", "contact_id", "ct_")
        db.execute("INSERT INTO contacts (contact_id, company_id, first_name, last_name, title, "
                   "email, phone, owner_rep_id) VALUES (?, ?, ?, ?, ?, ?, '', ?)",
                   (contact_id, company_id, lead["first_name"], lead["last_name"],
                    lead["title"], lead["email"], rep))
    opportunity_id = counted_id(db, "opportunities", "opportunity_id", "opp_")
    db.execute("INSERT INTO opportunities (opportunity_id, company_id, contact_id, owner_rep_id, "
               "name, product, stage, amount, close_date, created_on, closed_on, close_reason) "
               "VALUES (?, ?, ?, ?, ?, ?, 'qualification', ?, ?, ?, NULL, NULL)",
               (opportunity_id, company_id, contact_id, rep,
                f"{lead['company_name']} - {product} new business", product, amount,
                close_date, TODAY))
    db.execute("UPDATE leads SET status = 'converted', converted_opportunity_id = ? "
               "WHERE lead_id = ?", (opportunity_id, lead_id))
    return {"lead_id": lead_id, "status": "converted", "opportunity_id": opportunity_id,
            "company_id": company_id, "contact_id": contact_id}


@tool(Category.WRITE, returns={"activity_id": "activity_id", "opportunity_id": OpportunityId},
      writes=("activity_id",), needs=("opportunity_id",))
def log_activity(db, opportunity_id: OpportunityId,
                 kind: Literal["call", "email", "meeting", "note"], subject: str,
                 notes: str = "") -> dict:
    """Log an activity (call, email, meeting or note) on an opportunity, dated today, for
    the opportunity's owner. Confirm with the rep (explicit yes) before calling.

    Args:
        opportunity_id: The opportunity's id.
        kind: 'call', 'email', 'meeting' or 'note'.
        subject: A short subject line.
        notes: Optional longer notes.
    """
    if not subject.strip():
        raise ToolError("The subject must not be empty.")
    opp = _opportunity(db, opportunity_id)
    activity_id = counted_id(db, "activities", "activity_id", "act_")
    db.execute("INSERT INTO activities (activity_id, rep_id, opportunity_id, kind, subject, notes, "
               "occurred_on) VALUES (?, ?, ?, ?, ?, ?, ?)",
               (activity_id, opp["owner_rep_id"], opportunity_id, kind, subject.strip(), notes,
                TODAY))
    return {"activity_id": activity_id, "opportunity_id": opportunity_id, "kind": kind,
            "subject": subject.strip(), "notes": notes, "occurred_on": TODAY}


@tool(Category.WRITE, returns={"task_id": TaskId, "opportunity_id": OpportunityId},
      writes=("task_id",), needs=("opportunity_id",))
def create_task(db, opportunity_id: OpportunityId, title: str, due_date: str,
                priority: Literal["low", "normal", "high"] = "normal") -> dict:
    """Create a follow-up task on an open opportunity for its owner. Confirm with the rep
    (explicit yes) before calling.

    Args:
        opportunity_id: The opportunity's id.
        title: What to do.
        due_date: The due date, YYYY-MM-DD, today or later.
        priority: 'low', 'normal' or 'high'.
    """
    if not title.strip():
        raise ToolError("The title must not be empty.")
    if check_date(due_date, "due_date") < TODAY:
        raise ToolError(f"The due date cannot be in the past (today is {TODAY}).")
    opp = _open_opportunity(db, opportunity_id)
    task_id = counted_id(db, "tasks", "task_id", "task_")
    db.execute("INSERT INTO tasks (task_id, rep_id, opportunity_id, title, due_date, priority, "
               "status, completed_on) VALUES (?, ?, ?, ?, ?, ?, 'open', NULL)",
               (task_id, opp["owner_rep_id"], opportunity_id, title.strip(), due_date, priority))
    return dict(zip(_TASK_KEYS, (task_id, opp["owner_rep_id"], opportunity_id, title.strip(),
                                 due_date, priority, "open", None)))


@tool(Category.WRITE, returns={"task_id": TaskId}, writes=("task_id",))
def complete_task(db, task_id: TaskId) -> dict:
    """Mark an open task as completed today. Confirm with the rep (explicit yes) before
    calling.

    Args:
        task_id: The task's id.
    """
    task = fetch_record(db, "tasks", _TASK_KEYS, "task_id", task_id, f"Task {task_id!r} not found.")
    if task["status"] != "open":
        raise ToolError("The task is already completed.")
    db.execute("UPDATE tasks SET status = 'completed', completed_on = ? WHERE task_id = ?",
               (TODAY, task_id))
    task.update(status="completed", completed_on=TODAY)
    return task
