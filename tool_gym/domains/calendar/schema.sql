-- Calendar domain: people, their calendars, meeting rooms, events (recurring series
-- expanded as one row per occurrence), attendees with their RSVP, and reminders.
-- Times are local office time, 'YYYY-MM-DD HH:MM' (24 h), so text order is time order.

CREATE TABLE users (
    user_id    TEXT PRIMARY KEY,                    -- usr_0001
    name       TEXT NOT NULL UNIQUE,
    email      TEXT NOT NULL UNIQUE COLLATE NOCASE,
    department TEXT NOT NULL,
    title      TEXT NOT NULL
);

CREATE TABLE calendars (
    calendar_id TEXT PRIMARY KEY,                   -- cal_0001
    owner_id    TEXT NOT NULL REFERENCES users(user_id),
    name        TEXT NOT NULL,
    color       TEXT NOT NULL,
    is_primary  INTEGER NOT NULL CHECK (is_primary IN (0, 1)),
    UNIQUE (owner_id, name)
);
CREATE INDEX calendars_owner ON calendars(owner_id);

CREATE TABLE rooms (
    room_id   TEXT PRIMARY KEY,                     -- room_01
    name      TEXT NOT NULL UNIQUE,
    building  TEXT NOT NULL,
    floor     INTEGER NOT NULL,
    capacity  INTEGER NOT NULL CHECK (capacity > 0),
    has_video INTEGER NOT NULL CHECK (has_video IN (0, 1))
);

-- A recurring series; its occurrences are rows of `events` with this series_id.
CREATE TABLE series (
    series_id   TEXT PRIMARY KEY,                   -- ser_0001
    frequency   TEXT NOT NULL CHECK (frequency IN ('daily', 'weekly')),
    occurrences INTEGER NOT NULL CHECK (occurrences > 0)
);

CREATE TABLE events (
    event_id     TEXT PRIMARY KEY,                  -- evt_00001
    calendar_id  TEXT NOT NULL REFERENCES calendars(calendar_id),
    organizer_id TEXT NOT NULL REFERENCES users(user_id),
    title        TEXT NOT NULL,
    description  TEXT NOT NULL DEFAULT '',
    start        TEXT NOT NULL,
    end          TEXT NOT NULL,
    room_id      TEXT REFERENCES rooms(room_id),
    status       TEXT NOT NULL CHECK (status IN ('confirmed', 'cancelled')),
    series_id    TEXT REFERENCES series(series_id),
    CHECK (end > start)
);
CREATE INDEX events_organizer ON events(organizer_id, start);
CREATE INDEX events_calendar ON events(calendar_id, start);
CREATE INDEX events_room ON events(room_id, start);
CREATE INDEX events_series ON events(series_id, start);
CREATE INDEX events_title ON events(title);

CREATE TABLE attendees (
    event_id TEXT NOT NULL REFERENCES events(event_id),
    user_id  TEXT NOT NULL REFERENCES users(user_id),
    rsvp     TEXT NOT NULL CHECK (rsvp IN ('needs_action', 'accepted', 'declined', 'tentative')),
    PRIMARY KEY (event_id, user_id)
);
CREATE INDEX attendees_user ON attendees(user_id);

CREATE TABLE reminders (
    reminder_id    TEXT PRIMARY KEY,                -- rem_00001
    event_id       TEXT NOT NULL REFERENCES events(event_id),
    user_id        TEXT NOT NULL REFERENCES users(user_id),
    minutes_before INTEGER NOT NULL CHECK (minutes_before BETWEEN 0 AND 10080),
    method         TEXT NOT NULL CHECK (method IN ('popup', 'push')),
    UNIQUE (event_id, user_id, minutes_before, method)
);
CREATE INDEX reminders_user ON reminders(user_id, event_id);
