-- Email domain: mailboxes (one per user) with folders (a tree), labels, threads, messages
-- with recipients, labels and attachment metadata, contacts, filters, and the
-- organization's block list. Times are 'YYYY-MM-DD HH:MM' (office local time).

CREATE TABLE users (
    user_id   TEXT PRIMARY KEY,                      -- usr_0001
    name      TEXT NOT NULL,
    email     TEXT NOT NULL UNIQUE COLLATE NOCASE,
    signature TEXT NOT NULL DEFAULT ''
);

CREATE TABLE folders (
    folder_id TEXT PRIMARY KEY,                      -- fld_00001
    user_id   TEXT NOT NULL REFERENCES users(user_id),
    name      TEXT NOT NULL,
    kind      TEXT NOT NULL CHECK (kind IN
                  ('inbox', 'sent', 'drafts', 'trash', 'archive', 'spam', 'custom')),
    parent_id TEXT REFERENCES folders(folder_id),
    UNIQUE (user_id, name)
);
CREATE INDEX folders_user ON folders(user_id, kind);

CREATE TABLE labels (
    label_id TEXT PRIMARY KEY,                       -- lbl_0001
    user_id  TEXT NOT NULL REFERENCES users(user_id),
    name     TEXT NOT NULL,
    color    TEXT NOT NULL,
    UNIQUE (user_id, name)
);

CREATE TABLE threads (
    thread_id TEXT PRIMARY KEY,                      -- thr_00001
    user_id   TEXT NOT NULL REFERENCES users(user_id),
    subject   TEXT NOT NULL
);
CREATE INDEX threads_user ON threads(user_id);

-- One row per copy of a message in one mailbox. status: 'received' (delivered to this
-- mailbox), 'sent' (sent from it), 'draft' (not sent yet; always in the Drafts folder).
CREATE TABLE messages (
    message_id  TEXT PRIMARY KEY,                    -- msg_000001
    user_id     TEXT NOT NULL REFERENCES users(user_id),
    thread_id   TEXT NOT NULL REFERENCES threads(thread_id),
    folder_id   TEXT NOT NULL REFERENCES folders(folder_id),
    status      TEXT NOT NULL CHECK (status IN ('received', 'sent', 'draft')),
    sender      TEXT NOT NULL COLLATE NOCASE,
    sender_name TEXT NOT NULL,
    subject     TEXT NOT NULL,
    body        TEXT NOT NULL,
    sent_at     TEXT NOT NULL,
    is_read     INTEGER NOT NULL CHECK (is_read IN (0, 1)),
    is_starred  INTEGER NOT NULL CHECK (is_starred IN (0, 1)),
    in_reply_to TEXT REFERENCES messages(message_id)
);
CREATE INDEX messages_folder ON messages(folder_id, sent_at);
CREATE INDEX messages_user ON messages(user_id, sent_at);
CREATE INDEX messages_thread ON messages(thread_id);
CREATE INDEX messages_reply ON messages(in_reply_to);
CREATE INDEX messages_sender ON messages(user_id, sender_name);

CREATE TABLE recipients (
    message_id TEXT NOT NULL REFERENCES messages(message_id),
    kind       TEXT NOT NULL CHECK (kind IN ('to', 'cc')),
    address    TEXT NOT NULL COLLATE NOCASE,
    PRIMARY KEY (message_id, kind, address)
);
CREATE INDEX recipients_address ON recipients(address);

CREATE TABLE message_labels (
    message_id TEXT NOT NULL REFERENCES messages(message_id),
    label_id   TEXT NOT NULL REFERENCES labels(label_id),
    PRIMARY KEY (message_id, label_id)
);
CREATE INDEX message_labels_label ON message_labels(label_id);

CREATE TABLE attachments (
    attachment_id TEXT PRIMARY KEY,                  -- att_00001
    message_id    TEXT NOT NULL REFERENCES messages(message_id),
    filename      TEXT NOT NULL,
    mime_type     TEXT NOT NULL,
    size_bytes    INTEGER NOT NULL CHECK (size_bytes > 0)
);
CREATE INDEX attachments_message ON attachments(message_id);

CREATE TABLE contacts (
    contact_id TEXT PRIMARY KEY,                     -- con_00001
    user_id    TEXT NOT NULL REFERENCES users(user_id),
    name       TEXT NOT NULL,
    email      TEXT NOT NULL COLLATE NOCASE,
    UNIQUE (user_id, email)
);

-- Applied in filter_id order to each message delivered to the mailbox.
CREATE TABLE filters (
    filter_id        TEXT PRIMARY KEY,               -- flt_0001
    user_id          TEXT NOT NULL REFERENCES users(user_id),
    from_address     TEXT COLLATE NOCASE,
    subject_contains TEXT,
    action           TEXT NOT NULL CHECK (action IN ('move', 'label', 'mark_read')),
    folder_id        TEXT REFERENCES folders(folder_id),
    label_id         TEXT REFERENCES labels(label_id),
    CHECK (from_address IS NOT NULL OR subject_contains IS NOT NULL),
    CHECK ((action = 'move') = (folder_id IS NOT NULL)),
    CHECK ((action = 'label') = (label_id IS NOT NULL))
);
CREATE INDEX filters_user ON filters(user_id);

-- The organization's block list (security team): nothing may be sent to these.
CREATE TABLE blocked_addresses (
    address  TEXT PRIMARY KEY COLLATE NOCASE,
    reason   TEXT NOT NULL,
    added_on TEXT NOT NULL
);
