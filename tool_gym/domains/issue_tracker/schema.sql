-- Issue tracker: users, projects and their members, sprints, labels, issues with a status
-- workflow, comments, links between issues and a history of changes.

CREATE TABLE users (
    user_id    TEXT PRIMARY KEY,
    username   TEXT NOT NULL UNIQUE,
    email      TEXT NOT NULL UNIQUE,              -- lower case
    full_name  TEXT NOT NULL,
    created_at TEXT NOT NULL
);

CREATE TABLE projects (
    project_id  TEXT PRIMARY KEY,
    key         TEXT NOT NULL UNIQUE,             -- prefix of issue ids, e.g. 'WEB'
    name        TEXT NOT NULL UNIQUE,
    description TEXT NOT NULL,
    lead_id     TEXT NOT NULL REFERENCES users (user_id),
    created_at  TEXT NOT NULL
);

CREATE TABLE project_members (
    project_id TEXT NOT NULL REFERENCES projects (project_id),
    user_id    TEXT NOT NULL REFERENCES users (user_id),
    role       TEXT NOT NULL CHECK (role IN ('lead', 'member')),
    joined_at  TEXT NOT NULL,
    PRIMARY KEY (project_id, user_id)
);
CREATE INDEX project_members_user ON project_members (user_id);

CREATE TABLE sprints (
    sprint_id  TEXT PRIMARY KEY,
    project_id TEXT NOT NULL REFERENCES projects (project_id),
    name       TEXT NOT NULL,
    start_date TEXT NOT NULL,
    end_date   TEXT NOT NULL,
    state      TEXT NOT NULL CHECK (state IN ('planned', 'active', 'closed')),
    UNIQUE (project_id, name)
);

CREATE TABLE labels (
    project_id TEXT NOT NULL REFERENCES projects (project_id),
    name       TEXT NOT NULL,
    color      TEXT NOT NULL,
    PRIMARY KEY (project_id, name)
);

CREATE TABLE issues (
    issue_id    TEXT PRIMARY KEY,                 -- project key and number: 'WEB-42'
    project_id  TEXT NOT NULL REFERENCES projects (project_id),
    number      INTEGER NOT NULL CHECK (number >= 1),
    title       TEXT NOT NULL,
    description TEXT NOT NULL,
    type        TEXT NOT NULL CHECK (type IN ('bug', 'task', 'story')),
    status      TEXT NOT NULL
                CHECK (status IN ('open', 'in_progress', 'in_review', 'done', 'wont_fix')),
    priority    TEXT NOT NULL CHECK (priority IN ('low', 'medium', 'high', 'critical')),
    reporter_id TEXT NOT NULL REFERENCES users (user_id),
    assignee_id TEXT REFERENCES users (user_id),
    sprint_id   TEXT REFERENCES sprints (sprint_id),
    due_date    TEXT,
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL,
    resolved_at TEXT,                             -- set while done or wont_fix
    UNIQUE (project_id, number)
);
CREATE INDEX issues_project_status ON issues (project_id, status);
CREATE INDEX issues_project_title ON issues (project_id, title);
CREATE INDEX issues_assignee ON issues (assignee_id);
CREATE INDEX issues_reporter ON issues (reporter_id);
CREATE INDEX issues_sprint ON issues (sprint_id);

CREATE TABLE issue_labels (
    issue_id   TEXT NOT NULL REFERENCES issues (issue_id),
    project_id TEXT NOT NULL,
    label      TEXT NOT NULL,
    PRIMARY KEY (issue_id, label),
    FOREIGN KEY (project_id, label) REFERENCES labels (project_id, name)
);

CREATE TABLE comments (
    comment_id INTEGER PRIMARY KEY,
    issue_id   TEXT NOT NULL REFERENCES issues (issue_id),
    author_id  TEXT NOT NULL REFERENCES users (user_id),
    body       TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE INDEX comments_issue ON comments (issue_id);

-- "source kind target": WEB-1 blocks WEB-2, WEB-3 duplicates WEB-4, ...
CREATE TABLE issue_links (
    source_id  TEXT NOT NULL REFERENCES issues (issue_id),
    target_id  TEXT NOT NULL REFERENCES issues (issue_id),
    kind       TEXT NOT NULL CHECK (kind IN ('blocks', 'relates_to', 'duplicates')),
    created_by TEXT NOT NULL REFERENCES users (user_id),
    created_at TEXT NOT NULL,
    PRIMARY KEY (source_id, target_id, kind),
    CHECK (source_id != target_id)
);
CREATE INDEX issue_links_target ON issue_links (target_id);

-- Every change of an issue: field is 'created', 'status', 'assignee', 'priority', 'sprint',
-- 'label', 'due_date' or 'link'.
CREATE TABLE issue_events (
    event_id   INTEGER PRIMARY KEY,
    issue_id   TEXT NOT NULL REFERENCES issues (issue_id),
    actor_id   TEXT NOT NULL REFERENCES users (user_id),
    field      TEXT NOT NULL,
    old_value  TEXT,
    new_value  TEXT,
    created_at TEXT NOT NULL
);
CREATE INDEX issue_events_issue ON issue_events (issue_id);
