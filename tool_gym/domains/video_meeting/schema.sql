-- Video meetings: organizations and their users (each on a plan), scheduled meetings with
-- their invitees, settings, breakout rooms and conference rooms, the waiting room and the
-- people present in live meetings, and cloud recordings with the people they are shared
-- with. Times are 'YYYY-MM-DD HH:MM' on the service's clock (one time zone).

CREATE TABLE organizations (
    org_id    TEXT PRIMARY KEY,
    name      TEXT NOT NULL UNIQUE,
    domain    TEXT NOT NULL UNIQUE
);

CREATE TABLE users (
    user_id      TEXT PRIMARY KEY,
    org_id       TEXT NOT NULL REFERENCES organizations (org_id),
    first_name   TEXT NOT NULL,
    last_name    TEXT NOT NULL,
    email        TEXT NOT NULL UNIQUE,
    username     TEXT NOT NULL UNIQUE,
    department   TEXT NOT NULL,
    plan         TEXT NOT NULL CHECK (plan IN ('basic', 'pro', 'business'))
);
CREATE INDEX users_org ON users (org_id);

CREATE TABLE conference_rooms (
    room_id   TEXT PRIMARY KEY,
    org_id    TEXT NOT NULL REFERENCES organizations (org_id),
    name      TEXT NOT NULL,
    floor     INTEGER NOT NULL,
    capacity  INTEGER NOT NULL CHECK (capacity > 0),
    UNIQUE (org_id, name)
);

CREATE TABLE meetings (
    meeting_id        TEXT PRIMARY KEY,
    host_id           TEXT NOT NULL REFERENCES users (user_id),
    title             TEXT NOT NULL,
    start_time        TEXT NOT NULL,
    duration_minutes  INTEGER NOT NULL CHECK (duration_minutes BETWEEN 15 AND 480),
    status            TEXT NOT NULL CHECK (status IN
                          ('scheduled', 'in_progress', 'completed', 'cancelled')),
    passcode          TEXT NOT NULL,
    waiting_room      INTEGER NOT NULL CHECK (waiting_room IN (0, 1)),
    mute_on_entry     INTEGER NOT NULL CHECK (mute_on_entry IN (0, 1)),
    join_before_host  INTEGER NOT NULL CHECK (join_before_host IN (0, 1)),
    auto_recording    INTEGER NOT NULL CHECK (auto_recording IN (0, 1)),
    room_id           TEXT REFERENCES conference_rooms (room_id),
    created_at        TEXT NOT NULL,
    CHECK (NOT (waiting_room = 1 AND join_before_host = 1))
);
CREATE INDEX meetings_host ON meetings (host_id, start_time);
CREATE INDEX meetings_room ON meetings (room_id);

-- Invitees of a meeting, by email (colleagues and people outside the organization); the
-- host is not listed. A co-host may run the meeting with the host.
CREATE TABLE invitations (
    meeting_id  TEXT NOT NULL REFERENCES meetings (meeting_id),
    email       TEXT NOT NULL,
    role        TEXT NOT NULL CHECK (role IN ('attendee', 'co_host')),
    response    TEXT NOT NULL CHECK (response IN
                    ('needs_action', 'accepted', 'declined', 'tentative')),
    PRIMARY KEY (meeting_id, email)
);
CREATE INDEX invitations_email ON invitations (email);

CREATE TABLE breakout_rooms (
    breakout_room_id  TEXT PRIMARY KEY,
    meeting_id        TEXT NOT NULL REFERENCES meetings (meeting_id),
    name              TEXT NOT NULL,
    UNIQUE (meeting_id, name)
);

CREATE TABLE breakout_assignments (
    breakout_room_id  TEXT NOT NULL REFERENCES breakout_rooms (breakout_room_id),
    email             TEXT NOT NULL,
    PRIMARY KEY (breakout_room_id, email)
);

-- People knocking at a live meeting's waiting room, and the people in a meeting (live or
-- over) with when they joined.
CREATE TABLE waiting_room (
    entry_id    TEXT PRIMARY KEY,
    meeting_id  TEXT NOT NULL REFERENCES meetings (meeting_id),
    name        TEXT NOT NULL,
    email       TEXT NOT NULL,
    since       TEXT NOT NULL,
    UNIQUE (meeting_id, email)
);

CREATE TABLE attendance (
    meeting_id  TEXT NOT NULL REFERENCES meetings (meeting_id),
    email       TEXT NOT NULL,
    name        TEXT NOT NULL,
    joined_at   TEXT NOT NULL,
    PRIMARY KEY (meeting_id, email)
);

CREATE TABLE recordings (
    recording_id      TEXT PRIMARY KEY,
    meeting_id        TEXT NOT NULL REFERENCES meetings (meeting_id),
    recorded_at       TEXT NOT NULL,
    duration_minutes  INTEGER NOT NULL CHECK (duration_minutes > 0),
    size_mb           REAL NOT NULL CHECK (size_mb > 0),
    has_transcript    INTEGER NOT NULL CHECK (has_transcript IN (0, 1))
);
CREATE INDEX recordings_meeting ON recordings (meeting_id);

CREATE TABLE recording_shares (
    recording_id  TEXT NOT NULL REFERENCES recordings (recording_id),
    email         TEXT NOT NULL,
    permission    TEXT NOT NULL CHECK (permission IN ('view', 'download')),
    shared_on     TEXT NOT NULL,
    PRIMARY KEY (recording_id, email)
);
