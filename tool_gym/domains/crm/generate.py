"""Seeded synthetic data of the CRM domain.

``generate(seed)`` returns the native data: ``{table: [row dict, ...]}`` in the column order
of ``schema.sql`` and in rowid order, exactly what :func:`..io.export` gives back after
:func:`..io.load`. Everything comes from ``random.Random(seed)``; the CRM's clock is the
fixed ``TODAY`` of :mod:`.tools`.

About 220 sales reps in regional teams, each owning a few companies (with contacts), a
pipeline of opportunities across the stages, leads in every status, logged activities and
follow-up tasks.
"""

from __future__ import annotations

import random
from datetime import date, timedelta

from ...core.fake_data import Tokens, draw_unique, first_numbered, phone
from .tools import OPEN_STAGES, PRODUCTS, TODAY

N_REPS = 220
_TODAY = date.fromisoformat(TODAY)

FIRST = ("Alex Jordan Taylor Morgan Casey Riley Jamie Avery Quinn Drew Harper Rowan Skyler "
         "Emerson Parker Reese Logan Cameron Dakota Hayden Elena Marco Sofia Lukas Nadia Tariq "
         "Ingrid Mateo Leila Viktor Chloe Ethan Grace Noah Olivia Liam Zoe Owen Maya Caleb "
         "Hannah Isaac Julia Felix Aria Dmitri Sana Kenji Amelia Rafael").split()
LAST = ("Anderson Bennett Carter Dawson Ellison Fischer Grant Hughes Ibarra Jensen Keller "
        "Larsen Mendez Nakamura Ortiz Price Quintero Reyes Sullivan Turner Underwood Vargas "
        "Whitman Xu Yilmaz Zimmer Abbott Brooks Chandler Delgado Espinoza Foster Gallagher "
        "Holloway Iverson Joshi Kowalczyk Lindqvist Moreau Novak O'Brien Petrov Rahman "
        "Sorensen Tran Valdez Walsh Young Zhou").split()
REGIONS = (("West", ("Pacific", "Mountain")), ("East", ("Atlantic", "New England")),
           ("Central", ("Great Lakes", "Plains")), ("South", ("Gulf", "Southeast")))
PREFIXES = ("Apex", "Blue Harbor", "Cedar", "Summit", "Northwind", "Silverline", "Redwood",
            "Ironclad", "Brightpath", "Evergreen", "Golden Gate", "Keystone", "Lakeside",
            "Meridian", "Nimbus", "Orion", "Pinnacle", "Quantum", "Riverstone", "Sterling",
            "Trident", "Unity", "Vanguard", "Westfield", "Zenith", "Atlas", "Beacon", "Cobalt",
            "Driftwood", "Falcon", "Granite", "Horizon", "Juniper", "Lighthouse", "Maple",
            "Northstar", "Oakridge", "Polaris", "Sequoia", "Tidewater")
NOUNS = (("Logistics", "Transportation"), ("Foods", "Food & Beverage"), ("Health", "Healthcare"),
         ("Analytics", "Technology"), ("Energy", "Energy"), ("Robotics", "Manufacturing"),
         ("Financial", "Financial Services"), ("Retail Group", "Retail"),
         ("Biotech", "Life Sciences"), ("Media", "Media"), ("Construction", "Construction"),
         ("Software", "Technology"), ("Hotels", "Hospitality"), ("Insurance", "Insurance"),
         ("Telecom", "Telecommunications"), ("Labs", "Life Sciences"),
         ("Manufacturing", "Manufacturing"), ("Capital", "Financial Services"),
         ("Outfitters", "Retail"), ("Airways", "Transportation"))
SUFFIXES = ("Inc", "LLC", "Co", "Group", "Partners", "Corp")
CITIES = (("Seattle", "USA"), ("Denver", "USA"), ("Chicago", "USA"), ("Boston", "USA"),
          ("Austin", "USA"), ("Atlanta", "USA"), ("Toronto", "Canada"), ("Vancouver", "Canada"),
          ("London", "UK"), ("Dublin", "Ireland"), ("Berlin", "Germany"),
          ("Amsterdam", "Netherlands"))
TITLES = ("CTO", "VP of Operations", "Head of Procurement", "IT Director", "CFO",
          "Director of Engineering", "Operations Manager", "Chief Data Officer", "COO",
          "Purchasing Manager")
KINDS = ("new business", "renewal", "expansion")
SOURCES = ("website", "referral", "trade_show", "cold_call", "webinar", "partner")
SUBJECTS = ("Discovery call", "Pricing discussion", "Product demo", "Security review",
            "Contract redlines", "Kickoff planning", "Budget check-in", "Technical deep dive",
            "Executive sponsor intro", "Reference call")
#: Subjects a task may ask to log (never generated).
NEW_SUBJECTS = ("Follow-up on proposal", "Negotiated payment terms", "Discussed rollout timeline",
                "Reviewed success criteria", "Legal review sync", "Quarterly business review")
TASK_TITLES = ("Send proposal to {contact}", "Follow up with {company} on pricing",
               "Schedule demo for {company}", "Prepare contract for {company}",
               "Call {contact} about budget", "Share case study with {contact}",
               "Update mutual action plan for {company}")
_STAGE_WEIGHTS = (("prospecting", 15), ("qualification", 20), ("proposal", 20),
                  ("negotiation", 20), ("closed_won", 15), ("closed_lost", 10))
LOSS_REASONS = ("Chose a competitor", "No budget", "Project cancelled", "Went silent")
TABLES = ("reps", "companies", "contacts", "opportunities", "leads", "activities", "tasks")


def _day(offset: int) -> str:
    return (_TODAY + timedelta(days=offset)).isoformat()


class _Crm:
    """The tables being drawn, with the names and values shared by all reps."""

    def __init__(self, seed: int) -> None:
        rng = self.rng = random.Random(seed)
        self.token = Tokens(rng)
        self.data: dict[str, list[dict]] = {t: [] for t in TABLES}
        self.emails: set[str] = set()
        self.usernames: set[str] = set()
        names = [f"{p} {n}" for p in PREFIXES for n, _ in NOUNS]
        rng.shuffle(names)
        self.industry = {f"{p} {n}": i for p in PREFIXES for n, i in NOUNS}
        self.company_names = iter(names)
        lead_companies = [f"{p} {n} {x}" for p in PREFIXES for n, _ in NOUNS for x in SUFFIXES]
        rng.shuffle(lead_companies)
        self.lead_company_names = iter(lead_companies)

    def unique_email(self, local: str, host: str) -> str:
        return first_numbered(lambda k: f"{local}{k}@{host}".lower().replace("'", ""), self.emails)

    def person(self) -> tuple[str, str]:
        return self.rng.choice(FIRST), self.rng.choice(LAST)


class _Rep:
    """One sales rep and their book of business, drawn table by table in a fixed order."""

    def __init__(self, crm: _Crm) -> None:
        self.crm, self.rng, self.token, self.data = crm, crm.rng, crm.token, crm.data
        self.companies: list[dict] = []
        self.opportunities: list[dict] = []

    def draw(self) -> None:
        for step in (self.profile, self.companies_and_contacts, self.pipeline, self.leads,
                     self.tasks):
            step()

    def profile(self) -> None:
        rng, crm = self.rng, self.crm
        first, last = crm.person()
        self.rep_id = self.token("rep")
        username = draw_unique(
            lambda: f"{first[0]}{last}{rng.randint(1, 99)}".lower().replace("'", ""),
            crm.usernames)
        region, teams = rng.choice(REGIONS)
        self.data["reps"].append({
            "rep_id": self.rep_id, "first_name": first, "last_name": last,
            "email": crm.unique_email(f"{first}.{last}", "northwind-sales.com"),
            "username": username, "region": region, "team": f"{region} {rng.choice(teams)}",
            "quota": float(rng.choice((400000, 600000, 800000, 1000000))),
            "hired_on": _day(-rng.randint(60, 3000)),
        })

    def companies_and_contacts(self) -> None:
        rng, crm = self.rng, self.crm
        for _ in range(rng.randint(2, 4)):
            base = next(crm.company_names)
            city, country = rng.choice(CITIES)
            company = {
                "company_id": self.token("co"), "name": base, "industry": crm.industry[base],
                "city": city, "country": country,
                "employees": rng.choice((40, 120, 350, 900, 2500, 8000, 20000)),
                "website": "https://www." + base.lower().replace(" ", "").replace("&", "and")
                           + ".com",
                "owner_rep_id": self.rep_id, "created_on": _day(-rng.randint(30, 1500))}
            self.companies.append(company)
            self.data["companies"].append(company)
            company["_contacts"] = []
            host = company["website"][12:]
            for _ in range(rng.randint(1, 3)):
                cf, cl = crm.person()
                contact = {
                    "contact_id": self.token("ct"), "company_id": company["company_id"],
                    "first_name": cf, "last_name": cl, "title": rng.choice(TITLES),
                    "email": crm.unique_email(f"{cf}.{cl}", host), "phone": phone(rng),
                    "owner_rep_id": self.rep_id}
                company["_contacts"].append(contact)
                self.data["contacts"].append(contact)

    def pipeline(self) -> None:
        """Opportunities, with activities logged on the open ones."""
        rng = self.rng
        used_pairs: set[tuple[str, str]] = set()
        for _ in range(rng.randint(3, 6)):
            company = rng.choice(self.companies)
            product = rng.choice(PRODUCTS)
            if (company["name"], product) in used_pairs:
                continue
            used_pairs.add((company["name"], product))
            stage = rng.choices([s for s, _ in _STAGE_WEIGHTS],
                                [w for _, w in _STAGE_WEIGHTS])[0]
            closed = stage not in OPEN_STAGES
            close = _day(-rng.randint(3, 200) if closed else rng.randint(5, 150))
            contact = rng.choice(company["_contacts"])
            opp = {
                "opportunity_id": self.token("opp"), "company_id": company["company_id"],
                "contact_id": contact["contact_id"], "owner_rep_id": self.rep_id,
                "name": f"{company['name']} - {product} {rng.choice(KINDS)}",
                "product": product, "stage": stage,
                "amount": float(500 * rng.randint(10, 500)), "close_date": close,
                "created_on": _day(-rng.randint(210, 400) if closed else -rng.randint(5, 200)),
                "closed_on": close if closed else None,
                "close_reason": (None if not closed else "Signed" if stage == "closed_won"
                                 else rng.choice(LOSS_REASONS))}
            self.opportunities.append(opp)
            self.data["opportunities"].append(opp)
            if not closed:
                self.activities(opp)

    def activities(self, opp: dict) -> None:
        rng = self.rng
        for subject in rng.sample(SUBJECTS, rng.randint(0, 3)):
            self.data["activities"].append({
                "activity_id": self.token("act"), "rep_id": self.rep_id,
                "opportunity_id": opp["opportunity_id"],
                "kind": rng.choice(("call", "email", "meeting", "note")),
                "subject": subject, "notes": "",
                "occurred_on": _day(-rng.randint(1, 60))})

    def leads(self) -> None:
        rng, crm = self.rng, self.crm
        for _ in range(rng.randint(2, 5)):
            lf, ll = crm.person()
            status = rng.choices(("new", "contacted", "qualified", "disqualified", "converted"),
                                 (30, 25, 25, 10, 10))[0]
            converted = None
            if status == "converted":
                won = [o for o in self.opportunities if o["stage"] != "closed_lost"]
                if not won:
                    status = "qualified"
                else:
                    converted = rng.choice(won)
            if converted is not None:
                company_name = next(c["name"] for c in self.companies
                                    if c["company_id"] == converted["company_id"])
            else:
                company_name = next(crm.lead_company_names)
            self.data["leads"].append({
                "lead_id": self.token("lead"), "owner_rep_id": self.rep_id, "first_name": lf,
                "last_name": ll, "title": rng.choice(TITLES), "company_name": company_name,
                "email": crm.unique_email(f"{lf}.{ll}",
                                          company_name.lower().replace(" ", "") + ".com"),
                "source": rng.choice(SOURCES), "status": status,
                "created_on": _day(-rng.randint(1, 120)),
                "converted_opportunity_id": converted["opportunity_id"] if converted else None})

    def tasks(self) -> None:
        rng = self.rng
        titles: set[str] = set()
        open_opps = ([o for o in self.opportunities if o["stage"] in OPEN_STAGES]
                     or self.opportunities)
        for _ in range(rng.randint(2, 6) if open_opps else 0):
            opp = rng.choice(open_opps)
            company = next(c for c in self.companies if c["company_id"] == opp["company_id"])
            contact = rng.choice(company["_contacts"])
            title = rng.choice(TASK_TITLES).format(
                company=company["name"], contact=f"{contact['first_name']} {contact['last_name']}")
            if title in titles:
                continue
            titles.add(title)
            done = rng.random() < 0.3
            self.data["tasks"].append({
                "task_id": self.token("task"), "rep_id": self.rep_id,
                "opportunity_id": opp["opportunity_id"], "title": title,
                "due_date": _day(rng.randint(-10, 30)),
                "priority": rng.choice(("low", "normal", "normal", "high")),
                "status": "completed" if done else "open",
                "completed_on": _day(-rng.randint(0, 10)) if done else None})


def generate(seed: int) -> dict[str, list[dict]]:
    """The native data of a CRM made from ``seed``."""
    crm = _Crm(seed)
    for _ in range(N_REPS):
        _Rep(crm).draw()
    for company in crm.data["companies"]:
        del company["_contacts"]
    return crm.data
