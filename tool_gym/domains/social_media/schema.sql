-- Social media: user accounts with privacy settings, who follows whom, follow requests to
-- private accounts, blocks and mutes, posts with likes and comments, direct messages and
-- reports of content. Dates are ISO text ('YYYY-MM-DD', times 'YYYY-MM-DDTHH:MM:SS').

CREATE TABLE users (
    user_id         TEXT PRIMARY KEY,
    username        TEXT NOT NULL UNIQUE,
    display_name    TEXT NOT NULL,
    email           TEXT NOT NULL UNIQUE,
    bio             TEXT NOT NULL DEFAULT '',
    city            TEXT NOT NULL,
    visibility      TEXT NOT NULL CHECK (visibility IN ('public', 'private')),
    dm_policy       TEXT NOT NULL CHECK (dm_policy IN ('everyone', 'following', 'nobody')),
    joined_on       TEXT NOT NULL
);

CREATE TABLE follows (
    follower_id     TEXT NOT NULL REFERENCES users (user_id),
    followee_id     TEXT NOT NULL REFERENCES users (user_id),
    since           TEXT NOT NULL,
    PRIMARY KEY (follower_id, followee_id),
    CHECK (follower_id != followee_id)
);
CREATE INDEX follows_followee ON follows (followee_id);

CREATE TABLE follow_requests (
    request_id      TEXT PRIMARY KEY,
    requester_id    TEXT NOT NULL REFERENCES users (user_id),
    target_id       TEXT NOT NULL REFERENCES users (user_id),
    status          TEXT NOT NULL CHECK (status IN ('pending', 'accepted', 'declined',
                                                    'cancelled')),
    created_at      TEXT NOT NULL,
    CHECK (requester_id != target_id)
);
CREATE INDEX follow_requests_target ON follow_requests (target_id, status);
CREATE INDEX follow_requests_requester ON follow_requests (requester_id, status);
CREATE UNIQUE INDEX follow_requests_one_pending ON follow_requests (requester_id, target_id)
    WHERE status = 'pending';

CREATE TABLE blocks (
    blocker_id      TEXT NOT NULL REFERENCES users (user_id),
    blocked_id      TEXT NOT NULL REFERENCES users (user_id),
    created_at      TEXT NOT NULL,
    PRIMARY KEY (blocker_id, blocked_id),
    CHECK (blocker_id != blocked_id)
);
CREATE INDEX blocks_blocked ON blocks (blocked_id);

CREATE TABLE mutes (
    muter_id        TEXT NOT NULL REFERENCES users (user_id),
    muted_id        TEXT NOT NULL REFERENCES users (user_id),
    created_at      TEXT NOT NULL,
    PRIMARY KEY (muter_id, muted_id),
    CHECK (muter_id != muted_id)
);

CREATE TABLE posts (
    post_id         TEXT PRIMARY KEY,
    author_id       TEXT NOT NULL REFERENCES users (user_id),
    content         TEXT NOT NULL CHECK (length(content) > 0),
    audience        TEXT NOT NULL CHECK (audience IN ('public', 'followers')),
    status          TEXT NOT NULL CHECK (status IN ('published', 'deleted')),
    created_at      TEXT NOT NULL,
    deleted_on      TEXT,
    CHECK ((status = 'deleted') = (deleted_on IS NOT NULL))
);
CREATE INDEX posts_author ON posts (author_id, created_at);

CREATE TABLE likes (
    user_id         TEXT NOT NULL REFERENCES users (user_id),
    post_id         TEXT NOT NULL REFERENCES posts (post_id),
    created_at      TEXT NOT NULL,
    PRIMARY KEY (user_id, post_id)
);
CREATE INDEX likes_post ON likes (post_id);

CREATE TABLE comments (
    comment_id      TEXT PRIMARY KEY,
    post_id         TEXT NOT NULL REFERENCES posts (post_id),
    author_id       TEXT NOT NULL REFERENCES users (user_id),
    content         TEXT NOT NULL CHECK (length(content) > 0),
    status          TEXT NOT NULL CHECK (status IN ('visible', 'deleted')),
    created_at      TEXT NOT NULL
);
CREATE INDEX comments_post ON comments (post_id, created_at);
CREATE INDEX comments_author ON comments (author_id);

CREATE TABLE messages (
    message_id      TEXT PRIMARY KEY,
    sender_id       TEXT NOT NULL REFERENCES users (user_id),
    recipient_id    TEXT NOT NULL REFERENCES users (user_id),
    content         TEXT NOT NULL CHECK (length(content) > 0),
    sent_at         TEXT NOT NULL,
    is_read         INTEGER NOT NULL CHECK (is_read IN (0, 1)),
    CHECK (sender_id != recipient_id)
);
CREATE INDEX messages_pair ON messages (sender_id, recipient_id, sent_at);
CREATE INDEX messages_recipient ON messages (recipient_id, sent_at);

CREATE TABLE reports (
    report_id         TEXT PRIMARY KEY,
    reporter_id       TEXT NOT NULL REFERENCES users (user_id),
    reported_user_id  TEXT NOT NULL REFERENCES users (user_id),
    post_id           TEXT REFERENCES posts (post_id),
    comment_id        TEXT REFERENCES comments (comment_id),
    reason            TEXT NOT NULL CHECK (reason IN ('spam', 'harassment', 'hate_speech',
                          'misinformation', 'impersonation', 'other')),
    status            TEXT NOT NULL CHECK (status IN ('open', 'resolved', 'rejected')),
    created_at        TEXT NOT NULL,
    CHECK ((post_id IS NULL) != (comment_id IS NULL)),
    CHECK (reporter_id != reported_user_id)
);
CREATE INDEX reports_reporter ON reports (reporter_id);
