"""Rules every CRM database keeps: opportunities, leads, activities and companies.

``invariants(db)`` returns the problems found (empty when every rule holds).
"""

from __future__ import annotations

from ...core.rules import rule_checker


RULES: list[tuple[str, str]] = [
    ("amounts are positive whole cents",
     "SELECT opportunity_id FROM opportunities WHERE amount <= 0 "
     "OR abs(amount * 100 - round(amount * 100)) > 1e-6"),
    ("an open opportunity has no closing data",
     "SELECT opportunity_id FROM opportunities WHERE stage IN ('prospecting', 'qualification', "
     "'proposal', 'negotiation') AND (closed_on IS NOT NULL OR close_reason IS NOT NULL)"),
    ("a closed opportunity has a close reason and closed on its close date",
     "SELECT opportunity_id FROM opportunities WHERE stage IN ('closed_won', 'closed_lost') "
     "AND (close_reason IS NULL OR closed_on != close_date)"),
    ("an opportunity closes after it was created",
     "SELECT opportunity_id FROM opportunities WHERE close_date < created_on"),
    ("an opportunity's contact works at the opportunity's company",
     "SELECT o.opportunity_id FROM opportunities o JOIN contacts c "
     "ON c.contact_id = o.contact_id WHERE c.company_id != o.company_id"),
    ("a converted lead points to an opportunity of its own rep",
     "SELECT l.lead_id FROM leads l JOIN opportunities o "
     "ON o.opportunity_id = l.converted_opportunity_id WHERE o.owner_rep_id != l.owner_rep_id"),
    ("activities and tasks belong to the opportunity's owner",
     "SELECT a.activity_id FROM activities a JOIN opportunities o "
     "ON o.opportunity_id = a.opportunity_id WHERE a.rep_id != o.owner_rep_id "
     "UNION ALL SELECT t.task_id FROM tasks t JOIN opportunities o "
     "ON o.opportunity_id = t.opportunity_id WHERE t.rep_id != o.owner_rep_id"),
    ("company names are unique ignoring case",
     "SELECT lower(name) FROM companies GROUP BY lower(name) HAVING count(*) > 1"),
]


invariants = rule_checker(RULES)
