-- Team chat domain: people, workspaces, public and private channels, memberships with
-- roles, messages with threads, reactions, pinned messages, invitations and user status.
-- Times are 'YYYY-MM-DD HH:MM' (office local time).

CREATE TABLE users (
    user_id      TEXT PRIMARY KEY,                    -- usr_0001
    username     TEXT NOT NULL UNIQUE COLLATE NOCASE,
    display_name TEXT NOT NULL UNIQUE,
    email        TEXT NOT NULL UNIQUE COLLATE NOCASE,
    title        TEXT NOT NULL,
    status_text  TEXT NOT NULL DEFAULT '',
    status_emoji TEXT NOT NULL DEFAULT '',
    presence     TEXT NOT NULL CHECK (presence IN ('active', 'away', 'dnd'))
);

CREATE TABLE workspaces (
    workspace_id TEXT PRIMARY KEY,                    -- ws_01
    name         TEXT NOT NULL UNIQUE
);

CREATE TABLE workspace_members (
    workspace_id TEXT NOT NULL REFERENCES workspaces(workspace_id),
    user_id      TEXT NOT NULL REFERENCES users(user_id),
    role         TEXT NOT NULL CHECK (role IN ('owner', 'admin', 'member', 'guest')),
    PRIMARY KEY (workspace_id, user_id)
);
CREATE INDEX workspace_members_user ON workspace_members(user_id);

CREATE TABLE channels (
    channel_id   TEXT PRIMARY KEY,                    -- ch_0001
    workspace_id TEXT NOT NULL REFERENCES workspaces(workspace_id),
    name         TEXT NOT NULL,
    topic        TEXT NOT NULL DEFAULT '',
    is_private   INTEGER NOT NULL CHECK (is_private IN (0, 1)),
    is_archived  INTEGER NOT NULL CHECK (is_archived IN (0, 1)),
    created_by   TEXT NOT NULL REFERENCES users(user_id),
    created_at   TEXT NOT NULL,
    UNIQUE (workspace_id, name)
);

CREATE TABLE channel_members (
    channel_id TEXT NOT NULL REFERENCES channels(channel_id),
    user_id    TEXT NOT NULL REFERENCES users(user_id),
    role       TEXT NOT NULL CHECK (role IN ('admin', 'member')),
    joined_at  TEXT NOT NULL,
    PRIMARY KEY (channel_id, user_id)
);
CREATE INDEX channel_members_user ON channel_members(user_id);

-- A reply has thread_parent_id = the top-level message it answers (same channel).
CREATE TABLE messages (
    message_id       TEXT PRIMARY KEY,                -- msg_000001
    channel_id       TEXT NOT NULL REFERENCES channels(channel_id),
    user_id          TEXT NOT NULL REFERENCES users(user_id),
    text             TEXT NOT NULL,
    ts               TEXT NOT NULL,
    thread_parent_id TEXT REFERENCES messages(message_id),
    edited           INTEGER NOT NULL CHECK (edited IN (0, 1))
);
CREATE INDEX messages_channel ON messages(channel_id, ts);
CREATE INDEX messages_thread ON messages(thread_parent_id, ts);
CREATE INDEX messages_user ON messages(user_id);

CREATE TABLE reactions (
    message_id TEXT NOT NULL REFERENCES messages(message_id),
    user_id    TEXT NOT NULL REFERENCES users(user_id),
    emoji      TEXT NOT NULL,
    PRIMARY KEY (message_id, user_id, emoji)
);

CREATE TABLE pins (
    message_id TEXT PRIMARY KEY REFERENCES messages(message_id),
    channel_id TEXT NOT NULL REFERENCES channels(channel_id),
    pinned_by  TEXT NOT NULL REFERENCES users(user_id),
    pinned_at  TEXT NOT NULL
);
CREATE INDEX pins_channel ON pins(channel_id);

CREATE TABLE invites (
    invite_id  TEXT PRIMARY KEY,                      -- inv_0001
    channel_id TEXT NOT NULL REFERENCES channels(channel_id),
    inviter_id TEXT NOT NULL REFERENCES users(user_id),
    invitee_id TEXT NOT NULL REFERENCES users(user_id),
    status     TEXT NOT NULL CHECK (status IN ('pending', 'accepted', 'declined')),
    created_at TEXT NOT NULL
);
CREATE INDEX invites_invitee ON invites(invitee_id, status);
CREATE INDEX invites_channel ON invites(channel_id, invitee_id);
