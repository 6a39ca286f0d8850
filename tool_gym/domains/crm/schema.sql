-- CRM: sales reps (the users), companies (accounts), contacts, leads, opportunities with
-- stages and amounts, activities (calls, meetings, notes) and follow-up tasks.
-- Dates are ISO text ('YYYY-MM-DD'); amounts are US dollars.

CREATE TABLE reps (
    rep_id      TEXT PRIMARY KEY,
    first_name  TEXT NOT NULL,
    last_name   TEXT NOT NULL,
    email       TEXT NOT NULL UNIQUE,
    username    TEXT NOT NULL UNIQUE,
    region      TEXT NOT NULL,
    team        TEXT NOT NULL,
    quota       REAL NOT NULL,
    hired_on    TEXT NOT NULL
);

CREATE TABLE companies (
    company_id    TEXT PRIMARY KEY,
    name          TEXT NOT NULL UNIQUE,
    industry      TEXT NOT NULL,
    city          TEXT NOT NULL,
    country       TEXT NOT NULL,
    employees     INTEGER NOT NULL,
    website       TEXT NOT NULL,
    owner_rep_id  TEXT NOT NULL REFERENCES reps (rep_id),
    created_on    TEXT NOT NULL
);
CREATE INDEX companies_owner ON companies (owner_rep_id);

CREATE TABLE contacts (
    contact_id    TEXT PRIMARY KEY,
    company_id    TEXT NOT NULL REFERENCES companies (company_id),
    first_name    TEXT NOT NULL,
    last_name     TEXT NOT NULL,
    title         TEXT NOT NULL,
    email         TEXT NOT NULL UNIQUE,
    phone         TEXT NOT NULL,
    owner_rep_id  TEXT NOT NULL REFERENCES reps (rep_id)
);
CREATE INDEX contacts_company ON contacts (company_id);
CREATE INDEX contacts_owner ON contacts (owner_rep_id);

CREATE TABLE opportunities (
    opportunity_id  TEXT PRIMARY KEY,
    company_id      TEXT NOT NULL REFERENCES companies (company_id),
    contact_id      TEXT REFERENCES contacts (contact_id),
    owner_rep_id    TEXT NOT NULL REFERENCES reps (rep_id),
    name            TEXT NOT NULL,
    product         TEXT NOT NULL,
    stage           TEXT NOT NULL CHECK (stage IN ('prospecting', 'qualification', 'proposal',
                        'negotiation', 'closed_won', 'closed_lost')),
    amount          REAL NOT NULL CHECK (amount > 0),
    close_date      TEXT NOT NULL,
    created_on      TEXT NOT NULL,
    closed_on       TEXT,
    close_reason    TEXT,
    CHECK ((stage IN ('closed_won', 'closed_lost')) = (closed_on IS NOT NULL))
);
CREATE INDEX opportunities_owner ON opportunities (owner_rep_id, stage);
CREATE INDEX opportunities_company ON opportunities (company_id);

CREATE TABLE leads (
    lead_id                    TEXT PRIMARY KEY,
    owner_rep_id               TEXT NOT NULL REFERENCES reps (rep_id),
    first_name                 TEXT NOT NULL,
    last_name                  TEXT NOT NULL,
    title                      TEXT NOT NULL,
    company_name               TEXT NOT NULL,
    email                      TEXT NOT NULL UNIQUE,
    source                     TEXT NOT NULL CHECK (source IN ('website', 'referral', 'trade_show',
                                   'cold_call', 'webinar', 'partner')),
    status                     TEXT NOT NULL CHECK (status IN ('new', 'contacted', 'qualified',
                                   'disqualified', 'converted')),
    created_on                 TEXT NOT NULL,
    converted_opportunity_id   TEXT REFERENCES opportunities (opportunity_id),
    CHECK ((status = 'converted') = (converted_opportunity_id IS NOT NULL))
);
CREATE INDEX leads_owner ON leads (owner_rep_id, status);

CREATE TABLE activities (
    activity_id     TEXT PRIMARY KEY,
    rep_id          TEXT NOT NULL REFERENCES reps (rep_id),
    opportunity_id  TEXT NOT NULL REFERENCES opportunities (opportunity_id),
    kind            TEXT NOT NULL CHECK (kind IN ('call', 'email', 'meeting', 'note')),
    subject         TEXT NOT NULL,
    notes           TEXT NOT NULL DEFAULT '',
    occurred_on     TEXT NOT NULL
);
CREATE INDEX activities_opportunity ON activities (opportunity_id);

CREATE TABLE tasks (
    task_id         TEXT PRIMARY KEY,
    rep_id          TEXT NOT NULL REFERENCES reps (rep_id),
    opportunity_id  TEXT REFERENCES opportunities (opportunity_id),
    title           TEXT NOT NULL,
    due_date        TEXT NOT NULL,
    priority        TEXT NOT NULL CHECK (priority IN ('low', 'normal', 'high')),
    status          TEXT NOT NULL CHECK (status IN ('open', 'completed')),
    completed_on    TEXT,
    CHECK ((status = 'completed') = (completed_on IS NOT NULL))
);
CREATE INDEX tasks_rep ON tasks (rep_id, status);
