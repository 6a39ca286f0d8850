"""Each CRM tool: its success path and its error paths; failed writes change nothing."""

from __future__ import annotations

from collections import Counter

from tool_gym.core.tools import Category
from tool_gym.domains.crm import DOMAIN
from tool_gym.domains.crm.tools import TODAY

from ..calls import fails, ok, one, rules_catch


def opp_in(box, stage):
    return one(box, "SELECT opportunity_id, owner_rep_id FROM opportunities WHERE stage = ? "
                    "LIMIT 1", (stage,))


def test_toolbox_has_six_reads_and_six_writes_at_least():
    counts = Counter(t.category for t in DOMAIN.toolbox)
    assert counts[Category.READ] >= 6 and counts[Category.WRITE] >= 6


def test_find_rep_and_profile(box, state):
    rep = state["reps"][11]
    assert ok(box, "find_rep_by_email", email=rep["email"].upper()) == rep["rep_id"]
    assert ok(box, "find_rep_by_username", username=f" {rep['username']} ") == rep["rep_id"]
    fails(box, "find_rep_by_email", "no sales rep", email="x@y.z")
    fails(box, "find_rep_by_username", "no sales rep", username="ghost")
    profile = ok(box, "get_rep_profile", rep_id=rep["rep_id"])
    assert profile["companies"] >= 1 and profile["team"].startswith(profile["region"])
    fails(box, "get_rep_profile", "not found", rep_id="rep_missing")


def test_companies_and_contacts(box, state):
    company = state["companies"][5]
    found = ok(box, "search_companies", name=company["name"][:6].lower())["companies"]
    assert company["company_id"] in {c["company_id"] for c in found}
    fails(box, "search_companies", "two characters", name="a")
    detail = ok(box, "get_company", company_id=company["company_id"])
    assert detail["contacts"] and all(o["owner_name"] for o in detail["opportunities"])
    fails(box, "get_company", "not found", company_id="co_missing")
    contact = ok(box, "get_contact", contact_id=detail["contacts"][0]["contact_id"])
    assert contact["company_id"] == company["company_id"] and "@" in contact["email"]
    fails(box, "get_contact", "not found", contact_id="ct_missing")


def test_opportunity_reads(box):
    opp, rep = opp_in(box, "proposal")
    mine = ok(box, "list_opportunities", rep_id=rep)["opportunities"]
    assert opp in {o["opportunity_id"] for o in mine}
    staged = ok(box, "list_opportunities", rep_id=rep, stage="proposal")["opportunities"]
    assert staged and all(o["stage"] == "proposal" for o in staged)
    fails(box, "list_opportunities", "unknown stage", rep_id=rep, stage="won")
    fails(box, "list_opportunities", "not found", rep_id="rep_missing")
    assert ok(box, "get_opportunity", opportunity_id=opp)["owner_rep_id"] == rep
    fails(box, "get_opportunity", "not found", opportunity_id="opp_missing")
    with_acts, = one(box, "SELECT opportunity_id FROM activities LIMIT 1")
    acts = ok(box, "list_activities", opportunity_id=with_acts)["activities"]
    assert acts == sorted(acts, key=lambda a: a["occurred_on"], reverse=True)
    fails(box, "list_activities", "not found", opportunity_id="opp_missing")


def test_leads_and_tasks_reads(box):
    rep, = one(box, "SELECT owner_rep_id FROM leads WHERE status = 'qualified' LIMIT 1")
    leads = ok(box, "list_leads", rep_id=rep, status="qualified")["leads"]
    assert leads and all(lead["status"] == "qualified" for lead in leads)
    fails(box, "list_leads", "unknown lead status", rep_id=rep, status="hot")
    fails(box, "list_leads", "not found", rep_id="rep_missing")
    rep, = one(box, "SELECT rep_id FROM tasks WHERE status = 'open' LIMIT 1")
    tasks = ok(box, "list_tasks", rep_id=rep, status="open")["tasks"]
    assert tasks and all(t["status"] == "open" for t in tasks)
    fails(box, "list_tasks", "unknown task status", rep_id=rep, status="late")
    fails(box, "list_tasks", "not found", rep_id="rep_missing")
    assert ok(box, "transfer_to_human_agents", summary="x") == "Transfer successful"


def test_update_stage(box):
    opp, _ = opp_in(box, "qualification")
    assert ok(box, "update_opportunity_stage", opportunity_id=opp,
              stage="negotiation")["stage"] == "negotiation"
    # moving back is a policy rule (not enforced by the tool)
    assert ok(box, "update_opportunity_stage", opportunity_id=opp,
              stage="proposal")["stage"] == "proposal"
    closed, _ = opp_in(box, "closed_won")
    before = box.state_hash()
    fails(box, "update_opportunity_stage", "already in the proposal", opportunity_id=opp,
          stage="proposal")
    fails(box, "update_opportunity_stage", "closed", opportunity_id=closed, stage="proposal")
    fails(box, "update_opportunity_stage", "must be one of", opportunity_id=opp,
          stage="closed_won")
    fails(box, "update_opportunity_stage", "not found", opportunity_id="opp_missing",
          stage="proposal")
    assert box.state_hash() == before


def test_amount_and_close_date(box):
    opp, _ = opp_in(box, "prospecting")
    assert ok(box, "update_opportunity_amount", opportunity_id=opp, amount=12500)["amount"] == 12500
    assert ok(box, "update_close_date", opportunity_id=opp,
              close_date="2024-09-01")["close_date"] == "2024-09-01"
    closed, _ = opp_in(box, "closed_lost")
    before = box.state_hash()
    fails(box, "update_opportunity_amount", "positive", opportunity_id=opp, amount=-5)
    fails(box, "update_opportunity_amount", "closed", opportunity_id=closed, amount=5)
    fails(box, "update_close_date", "past", opportunity_id=opp, close_date="2024-01-01")
    fails(box, "update_close_date", "YYYY-MM-DD", opportunity_id=opp, close_date="soon")
    fails(box, "update_close_date", "not a valid date", opportunity_id=opp,
          close_date="2024-13-01")
    assert box.state_hash() == before


def test_close_opportunity(box):
    won, _ = opp_in(box, "negotiation")
    result = ok(box, "close_opportunity", opportunity_id=won, outcome="won")
    assert (result["stage"], result["closed_on"], result["close_reason"]) == (
        "closed_won", TODAY, "Signed")
    lost, _ = opp_in(box, "prospecting")
    assert ok(box, "close_opportunity", opportunity_id=lost, outcome="lost",
              reason="No budget")["close_reason"] == "No budget"
    early, _ = opp_in(box, "proposal")
    before = box.state_hash()
    fails(box, "close_opportunity", "negotiation stage", opportunity_id=early, outcome="won")
    fails(box, "close_opportunity", "closed", opportunity_id=won, outcome="lost")
    fails(box, "close_opportunity", "must be one of", opportunity_id=early, outcome="maybe")
    assert box.state_hash() == before
    assert box.check_integrity() == []


def test_lead_status(box):
    lead, = one(box, "SELECT lead_id FROM leads WHERE status = 'new' LIMIT 1")
    assert ok(box, "update_lead_status", lead_id=lead, status="qualified")["status"] == "qualified"
    before = box.state_hash()
    fails(box, "update_lead_status", "cannot go back", lead_id=lead, status="contacted")
    fails(box, "update_lead_status", "already qualified", lead_id=lead, status="qualified")
    converted, = one(box, "SELECT lead_id FROM leads WHERE status = 'converted' LIMIT 1")
    fails(box, "update_lead_status", "no longer change", lead_id=converted,
          status="disqualified")
    fails(box, "update_lead_status", "not found", lead_id="lead_missing", status="contacted")
    assert box.state_hash() == before
    assert ok(box, "update_lead_status", lead_id=lead,
              status="disqualified")["status"] == "disqualified"


def test_convert_lead(box):
    lead, rep, company = one(box, "SELECT lead_id, owner_rep_id, company_name FROM leads "
                                  "WHERE status = 'qualified' LIMIT 1")
    result = ok(box, "convert_lead", lead_id=lead, product="Data Platform", amount=40000,
                close_date="2024-09-30")
    opp = ok(box, "get_opportunity", opportunity_id=result["opportunity_id"])
    assert (opp["owner_rep_id"], opp["stage"], opp["company_name"], opp["amount"]) == (
        rep, "qualification", company, 40000)
    assert opp["name"] == f"{company} - Data Platform new business"
    assert box.check_integrity() == []
    other, = one(box, "SELECT lead_id FROM leads WHERE status = 'qualified' LIMIT 1")
    new, = one(box, "SELECT lead_id FROM leads WHERE status = 'new' LIMIT 1")
    before = box.state_hash()
    fails(box, "convert_lead", "only a qualified lead", lead_id=lead, product="Data Platform",
          amount=1, close_date="2024-09-30")
    fails(box, "convert_lead", "only a qualified lead", lead_id=new, product="Data Platform",
          amount=1, close_date="2024-09-30")
    fails(box, "convert_lead", "past", lead_id=other, product="Data Platform", amount=1,
          close_date="2024-01-30")
    fails(box, "convert_lead", "must be one of", lead_id=other, product="Widgets", amount=1,
          close_date="2024-09-30")
    fails(box, "convert_lead", "positive", lead_id=other, product="Data Platform", amount=0,
          close_date="2024-09-30")
    assert box.state_hash() == before


def test_activities_and_tasks(box):
    opp, rep = opp_in(box, "proposal")
    act = ok(box, "log_activity", opportunity_id=opp, kind="call", subject=" Pricing sync ")
    assert act["subject"] == "Pricing sync" and act["occurred_on"] == TODAY
    task = ok(box, "create_task", opportunity_id=opp, title="Send quote", due_date="2024-06-20",
              priority="high")
    assert task["rep_id"] == rep and task["status"] == "open"
    done = ok(box, "complete_task", task_id=task["task_id"])
    assert (done["status"], done["completed_on"]) == ("completed", TODAY)
    closed, _ = opp_in(box, "closed_won")
    before = box.state_hash()
    fails(box, "log_activity", "must not be empty", opportunity_id=opp, kind="note", subject=" ")
    fails(box, "log_activity", "must be one of", opportunity_id=opp, kind="fax", subject="x")
    fails(box, "create_task", "past", opportunity_id=opp, title="x", due_date="2024-06-01")
    fails(box, "create_task", "closed", opportunity_id=closed, title="x", due_date="2024-07-01")
    fails(box, "create_task", "must not be empty", opportunity_id=opp, title="",
          due_date="2024-07-01")
    fails(box, "complete_task", "already completed", task_id=task["task_id"])
    fails(box, "complete_task", "not found", task_id="task_missing")
    assert box.state_hash() == before


def test_invariants_catch_broken_rules(box):
    rules_catch(box, {
        "no closing data": "UPDATE opportunities SET close_reason = 'x' WHERE opportunity_id "
        "= (SELECT opportunity_id FROM opportunities WHERE stage = 'proposal' LIMIT 1)",
        "opportunity's owner": "UPDATE activities SET rep_id = (SELECT rep_id FROM reps "
        "LIMIT 1 OFFSET 7) WHERE activity_id = (SELECT activity_id FROM activities LIMIT 1)"})
