-- Vehicle: a connected-car app. Owners and their vehicles (locks, climate, battery and
-- charging for plug-in vehicles, fuel, the route sent to the car), saved places, charging
-- schedules, trips, service appointments at dealers, digital keys shared with other people,
-- alerts, public charging sessions and refund requests for them. Dates are ISO text
-- ('YYYY-MM-DD', times of day 'HH:MM', moments 'YYYY-MM-DDTHH:MM:SS'); money in dollars.

CREATE TABLE owners (
    owner_id      TEXT PRIMARY KEY,
    first_name    TEXT NOT NULL,
    last_name     TEXT NOT NULL,
    email         TEXT NOT NULL UNIQUE,
    username      TEXT NOT NULL UNIQUE,
    phone         TEXT NOT NULL,
    city          TEXT NOT NULL,
    member_since  TEXT NOT NULL
);

CREATE TABLE dealers (
    dealer_id    TEXT PRIMARY KEY,
    name         TEXT NOT NULL UNIQUE,
    city         TEXT NOT NULL,
    phone        TEXT NOT NULL,
    opens        TEXT NOT NULL,
    closes       TEXT NOT NULL,
    services_ev  INTEGER NOT NULL CHECK (services_ev IN (0, 1)),
    CHECK (opens < closes)
);
CREATE INDEX dealers_city ON dealers (city);

CREATE TABLE places (
    place_id  TEXT PRIMARY KEY,
    owner_id  TEXT NOT NULL REFERENCES owners (owner_id),
    label     TEXT NOT NULL,
    address   TEXT NOT NULL,
    city      TEXT NOT NULL,
    category  TEXT NOT NULL CHECK (category IN ('home', 'work', 'favorite', 'charger')),
    UNIQUE (owner_id, label)
);

CREATE TABLE vehicles (
    vehicle_id            TEXT PRIMARY KEY,
    owner_id              TEXT NOT NULL REFERENCES owners (owner_id),
    vin                   TEXT NOT NULL UNIQUE,
    make                  TEXT NOT NULL,
    model                 TEXT NOT NULL,
    year                  INTEGER NOT NULL,
    color                 TEXT NOT NULL,
    nickname              TEXT NOT NULL,
    plate                 TEXT NOT NULL UNIQUE,
    powertrain            TEXT NOT NULL CHECK (powertrain IN
                              ('electric', 'plug_in_hybrid', 'gasoline')),
    odometer_km           INTEGER NOT NULL CHECK (odometer_km >= 0),
    locked                INTEGER NOT NULL CHECK (locked IN (0, 1)),
    climate_on            INTEGER NOT NULL CHECK (climate_on IN (0, 1)),
    cabin_target_c        REAL NOT NULL CHECK (cabin_target_c BETWEEN 16 AND 28),
    battery_percent       INTEGER CHECK (battery_percent BETWEEN 0 AND 100),
    charge_limit_percent  INTEGER CHECK (charge_limit_percent BETWEEN 50 AND 100),
    plugged_in            INTEGER CHECK (plugged_in IN (0, 1)),
    fuel_percent          INTEGER CHECK (fuel_percent BETWEEN 0 AND 100),
    range_km              INTEGER NOT NULL CHECK (range_km >= 0),
    parked_city           TEXT NOT NULL,
    nav_place_id          TEXT REFERENCES places (place_id)
);
CREATE INDEX vehicles_owner ON vehicles (owner_id);

CREATE TABLE charge_schedules (
    schedule_id   TEXT PRIMARY KEY,
    vehicle_id    TEXT NOT NULL REFERENCES vehicles (vehicle_id),
    days          TEXT NOT NULL CHECK (days IN ('daily', 'weekdays', 'weekends')),
    charge_start  TEXT NOT NULL,
    charge_end    TEXT NOT NULL,
    created_on    TEXT NOT NULL,
    CHECK (charge_start != charge_end)
);
CREATE INDEX schedules_vehicle ON charge_schedules (vehicle_id);

CREATE TABLE trips (
    trip_id         TEXT PRIMARY KEY,
    vehicle_id      TEXT NOT NULL REFERENCES vehicles (vehicle_id),
    started_at      TEXT NOT NULL,
    ended_at        TEXT NOT NULL,
    start_location  TEXT NOT NULL,
    end_location    TEXT NOT NULL,
    distance_km     REAL NOT NULL CHECK (distance_km > 0),
    avg_speed_kmh   INTEGER NOT NULL CHECK (avg_speed_kmh > 0),
    CHECK (started_at < ended_at)
);
CREATE INDEX trips_vehicle ON trips (vehicle_id, started_at);

CREATE TABLE service_appointments (
    appointment_id  TEXT PRIMARY KEY,
    vehicle_id      TEXT NOT NULL REFERENCES vehicles (vehicle_id),
    dealer_id       TEXT NOT NULL REFERENCES dealers (dealer_id),
    service_type    TEXT NOT NULL CHECK (service_type IN ('oil_change', 'tire_rotation',
                        'brake_inspection', 'battery_health_check', 'software_update',
                        'annual_inspection')),
    date            TEXT NOT NULL,
    time            TEXT NOT NULL,
    status          TEXT NOT NULL CHECK (status IN ('scheduled', 'completed', 'cancelled')),
    booked_on       TEXT NOT NULL
);
CREATE INDEX appointments_vehicle ON service_appointments (vehicle_id);

CREATE TABLE digital_keys (
    key_id        TEXT PRIMARY KEY,
    vehicle_id    TEXT NOT NULL REFERENCES vehicles (vehicle_id),
    holder_name   TEXT NOT NULL,
    holder_email  TEXT NOT NULL,
    access        TEXT NOT NULL CHECK (access IN ('full', 'drive_only', 'unlock_only')),
    status        TEXT NOT NULL CHECK (status IN ('active', 'revoked', 'expired')),
    issued_on     TEXT NOT NULL,
    expires_on    TEXT NOT NULL,
    CHECK (issued_on < expires_on)
);
CREATE INDEX keys_vehicle ON digital_keys (vehicle_id);

CREATE TABLE alerts (
    alert_id    TEXT PRIMARY KEY,
    vehicle_id  TEXT NOT NULL REFERENCES vehicles (vehicle_id),
    kind        TEXT NOT NULL CHECK (kind IN ('low_tire_pressure', 'service_due',
                    'low_battery', 'door_ajar', 'software_update', 'recall_notice')),
    message     TEXT NOT NULL,
    raised_at   TEXT NOT NULL,
    status      TEXT NOT NULL CHECK (status IN ('open', 'acknowledged', 'resolved'))
);
CREATE INDEX alerts_vehicle ON alerts (vehicle_id);

CREATE TABLE charging_sessions (
    session_id  TEXT PRIMARY KEY,
    vehicle_id  TEXT NOT NULL REFERENCES vehicles (vehicle_id),
    station     TEXT NOT NULL,
    city        TEXT NOT NULL,
    started_at  TEXT NOT NULL,
    energy_kwh  REAL NOT NULL CHECK (energy_kwh > 0),
    cost        REAL NOT NULL CHECK (cost > 0),
    status      TEXT NOT NULL CHECK (status IN ('completed', 'interrupted'))
);
CREATE INDEX sessions_vehicle ON charging_sessions (vehicle_id, started_at);

CREATE TABLE charging_refunds (
    refund_id     TEXT PRIMARY KEY,
    session_id    TEXT NOT NULL UNIQUE REFERENCES charging_sessions (session_id),
    reason        TEXT NOT NULL CHECK (reason IN
                      ('interrupted', 'overcharged', 'station_fault')),
    amount        REAL NOT NULL CHECK (amount > 0),
    status        TEXT NOT NULL CHECK (status IN ('pending', 'approved', 'rejected')),
    requested_on  TEXT NOT NULL
);
