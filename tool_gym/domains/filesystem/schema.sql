-- Filesystem: a virtual file tree held entirely in SQLite (nothing touches the host's files).
-- Each user owns one tree: a root folder (parent_id NULL, name '') and its descendants.
-- A trashed item keeps its parent (its original location) and has trashed_at set; its
-- descendants are in the trash with it. Names are unique among the live children of a folder.

CREATE TABLE users (
    user_id      TEXT PRIMARY KEY,
    username     TEXT NOT NULL UNIQUE,
    email        TEXT NOT NULL UNIQUE,          -- lower case
    full_name    TEXT NOT NULL,
    organization TEXT NOT NULL,                 -- company; its email domain identifies it
    quota_bytes  INTEGER NOT NULL CHECK (quota_bytes > 0),
    created_at   TEXT NOT NULL
);

CREATE TABLE nodes (
    node_id     TEXT PRIMARY KEY,
    owner_id    TEXT NOT NULL REFERENCES users (user_id),
    parent_id   TEXT REFERENCES nodes (node_id),
    name        TEXT NOT NULL,
    kind        TEXT NOT NULL CHECK (kind IN ('folder', 'file')),
    mime_type   TEXT,                           -- files only
    size        INTEGER NOT NULL DEFAULT 0 CHECK (size >= 0),
    content     TEXT,                           -- text files only; NULL for binary files
    version     INTEGER NOT NULL DEFAULT 0,     -- current version of a file; 0 for folders
    created_at  TEXT NOT NULL,
    modified_at TEXT NOT NULL,
    trashed_at  TEXT                            -- set on the top item of a trashed subtree
);
CREATE UNIQUE INDEX nodes_root ON nodes (owner_id) WHERE parent_id IS NULL;
CREATE UNIQUE INDEX nodes_live_name ON nodes (parent_id, name) WHERE trashed_at IS NULL;
CREATE INDEX nodes_parent ON nodes (parent_id);
CREATE INDEX nodes_owner_name ON nodes (owner_id, name);

-- Every version of every file, the current one included (nodes.version).
CREATE TABLE versions (
    node_id     TEXT NOT NULL REFERENCES nodes (node_id) ON DELETE CASCADE,
    version     INTEGER NOT NULL CHECK (version >= 1),
    size        INTEGER NOT NULL CHECK (size >= 0),
    content     TEXT,
    modified_at TEXT NOT NULL,
    modified_by TEXT NOT NULL REFERENCES users (user_id),
    PRIMARY KEY (node_id, version)
);

-- A share gives another user access to a node and everything below it.
CREATE TABLE shares (
    node_id    TEXT NOT NULL REFERENCES nodes (node_id) ON DELETE CASCADE,
    grantee_id TEXT NOT NULL REFERENCES users (user_id),  -- who gets access
    permission TEXT NOT NULL CHECK (permission IN ('view', 'edit')),
    shared_at  TEXT NOT NULL,
    PRIMARY KEY (node_id, grantee_id)
);
CREATE INDEX shares_grantee ON shares (grantee_id);
