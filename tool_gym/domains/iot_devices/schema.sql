-- Smart homes: users, the homes they own or share (members with a role), rooms, devices of
-- five kinds (thermostat, lock, light, camera, plug) with their state, device events, daily
-- energy readings, scenes (a named set of device commands) and automations (a command run on
-- a schedule). Temperatures are in degrees Celsius, energy in kWh; dates are ISO text
-- ('YYYY-MM-DD', times 'YYYY-MM-DDTHH:MM:SS', a schedule's time 'HH:MM').

CREATE TABLE users (
    user_id       TEXT PRIMARY KEY,
    first_name    TEXT NOT NULL,
    last_name     TEXT NOT NULL,
    email         TEXT NOT NULL UNIQUE,
    username      TEXT NOT NULL UNIQUE,
    phone         TEXT NOT NULL,
    member_since  TEXT NOT NULL
);

CREATE TABLE homes (
    home_id     TEXT PRIMARY KEY,
    owner_id    TEXT NOT NULL REFERENCES users (user_id),
    name        TEXT NOT NULL,
    street      TEXT NOT NULL,
    city        TEXT NOT NULL,
    timezone    TEXT NOT NULL,
    away_mode   INTEGER NOT NULL CHECK (away_mode IN (0, 1)),
    created_on  TEXT NOT NULL
);
CREATE INDEX homes_owner ON homes (owner_id);

CREATE TABLE home_members (
    home_id   TEXT NOT NULL REFERENCES homes (home_id),
    user_id   TEXT NOT NULL REFERENCES users (user_id),
    role      TEXT NOT NULL CHECK (role IN ('owner', 'admin', 'member', 'guest')),
    added_on  TEXT NOT NULL,
    PRIMARY KEY (home_id, user_id)
);
CREATE INDEX home_members_user ON home_members (user_id);

CREATE TABLE rooms (
    room_id  TEXT PRIMARY KEY,
    home_id  TEXT NOT NULL REFERENCES homes (home_id),
    name     TEXT NOT NULL,
    floor    INTEGER NOT NULL CHECK (floor BETWEEN -1 AND 3),
    UNIQUE (home_id, name)
);

CREATE TABLE devices (
    device_id     TEXT PRIMARY KEY,
    home_id       TEXT NOT NULL REFERENCES homes (home_id),
    room_id       TEXT NOT NULL REFERENCES rooms (room_id),
    kind          TEXT NOT NULL CHECK (kind IN ('thermostat', 'lock', 'light', 'camera', 'plug')),
    name          TEXT NOT NULL,
    model         TEXT NOT NULL,
    firmware      TEXT NOT NULL,
    status        TEXT NOT NULL CHECK (status IN ('online', 'offline')),
    battery       INTEGER CHECK (battery BETWEEN 0 AND 100),
    power         TEXT CHECK (power IN ('on', 'off')),
    brightness    INTEGER CHECK (brightness BETWEEN 1 AND 100),
    hvac_mode     TEXT CHECK (hvac_mode IN ('heat', 'cool', 'auto', 'off')),
    target_temp   REAL CHECK (target_temp BETWEEN 10 AND 30),
    current_temp  REAL,
    lock_state    TEXT CHECK (lock_state IN ('locked', 'unlocked', 'jammed')),
    recording     INTEGER CHECK (recording IN (0, 1)),
    installed_on  TEXT NOT NULL,
    UNIQUE (home_id, name),
    -- the state fields of each kind, and only those
    CHECK ((kind IN ('light', 'camera', 'plug')) = (power IS NOT NULL)),
    CHECK ((kind = 'light') = (brightness IS NOT NULL)),
    CHECK ((kind = 'thermostat') = (hvac_mode IS NOT NULL AND target_temp IS NOT NULL
                                    AND current_temp IS NOT NULL)),
    CHECK ((kind = 'lock') = (lock_state IS NOT NULL)),
    CHECK ((kind = 'camera') = (recording IS NOT NULL)),
    CHECK ((kind IN ('lock', 'camera')) = (battery IS NOT NULL))
);
CREATE INDEX devices_home ON devices (home_id);
CREATE INDEX devices_room ON devices (room_id);

CREATE TABLE device_events (
    event_id   TEXT PRIMARY KEY,
    device_id  TEXT NOT NULL REFERENCES devices (device_id),
    at         TEXT NOT NULL,
    event      TEXT NOT NULL CHECK (event IN ('locked', 'unlocked', 'jammed', 'turned_on',
                   'turned_off', 'brightness_changed', 'setpoint_changed', 'motion',
                   'recording_started', 'recording_stopped')),
    user_id    TEXT REFERENCES users (user_id),
    detail     TEXT NOT NULL DEFAULT ''
);
CREATE INDEX device_events_device ON device_events (device_id, at);

CREATE TABLE energy_readings (
    device_id  TEXT NOT NULL REFERENCES devices (device_id),
    day        TEXT NOT NULL,
    kwh        REAL NOT NULL CHECK (kwh >= 0),
    PRIMARY KEY (device_id, day)
);

CREATE TABLE scenes (
    scene_id        TEXT PRIMARY KEY,
    home_id         TEXT NOT NULL REFERENCES homes (home_id),
    name            TEXT NOT NULL,
    created_by      TEXT NOT NULL REFERENCES users (user_id),
    last_activated  TEXT,
    UNIQUE (home_id, name)
);
CREATE INDEX scenes_home ON scenes (home_id);

CREATE TABLE scene_actions (
    scene_id   TEXT NOT NULL REFERENCES scenes (scene_id),
    device_id  TEXT NOT NULL REFERENCES devices (device_id),
    command    TEXT NOT NULL CHECK (command IN ('turn_on', 'turn_off', 'set_brightness',
                   'set_temperature', 'lock', 'unlock', 'start_recording', 'stop_recording')),
    value      REAL,
    PRIMARY KEY (scene_id, device_id)
);

CREATE TABLE automations (
    automation_id  TEXT PRIMARY KEY,
    home_id        TEXT NOT NULL REFERENCES homes (home_id),
    name           TEXT NOT NULL,
    device_id      TEXT NOT NULL REFERENCES devices (device_id),
    command        TEXT NOT NULL CHECK (command IN ('turn_on', 'turn_off', 'set_brightness',
                       'set_temperature', 'lock', 'unlock', 'start_recording',
                       'stop_recording')),
    value          REAL,
    time           TEXT NOT NULL,
    days           TEXT NOT NULL CHECK (days IN ('daily', 'weekdays', 'weekends')),
    status         TEXT NOT NULL CHECK (status IN ('active', 'paused')),
    created_by     TEXT NOT NULL REFERENCES users (user_id),
    UNIQUE (home_id, name)
);
CREATE INDEX automations_home ON automations (home_id);
CREATE INDEX automations_device ON automations (device_id);
