-- Airline domain (tau2-bench `airline` compatible).
-- `ord` keeps the source order of top-level records and of map entries (flights, the dates
-- of a flight, users, a user's payment methods, reservations): searches emit flights in
-- that order and the export rebuilds every map in it. `pos` numbers the elements of every
-- list (segments, passengers, payments, saved passengers, a user's reservation ids).
-- Money: seat prices, segment prices, payment amounts and baggage counts are INTEGER;
-- gift card and certificate amounts are REAL (tau2 floats). No SQL arithmetic on money.

CREATE TABLE flights (
    flight_number TEXT PRIMARY KEY,
    origin        TEXT NOT NULL,
    destination   TEXT NOT NULL,
    sched_dep     TEXT NOT NULL,                   -- HH:MM:SS
    sched_arr     TEXT NOT NULL,                   -- HH:MM:SS, may end in '+1' (next day)
    ord           INTEGER NOT NULL
);
CREATE INDEX flights_route ON flights(origin, destination, ord);
CREATE INDEX flights_ord ON flights(ord);

-- One row per (flight, date); the columns that apply depend on the status (NULL otherwise):
--   available: seats_* and price_*; on time / delayed: est_dep, est_arr;
--   flying: act_dep, est_arr; landed: act_dep, act_arr; cancelled: none.
CREATE TABLE flight_dates (
    flight_number       TEXT NOT NULL REFERENCES flights(flight_number),
    date                TEXT NOT NULL,             -- YYYY-MM-DD
    status              TEXT NOT NULL CHECK (status IN
                            ('available', 'on time', 'delayed', 'flying', 'landed', 'cancelled')),
    seats_basic_economy INTEGER,
    seats_economy       INTEGER,
    seats_business      INTEGER,
    price_basic_economy INTEGER,
    price_economy       INTEGER,
    price_business      INTEGER,
    est_dep             TEXT,
    est_arr             TEXT,
    act_dep             TEXT,
    act_arr             TEXT,
    ord                 INTEGER NOT NULL,          -- position within the flight's dates
    PRIMARY KEY (flight_number, date)
);
CREATE INDEX flight_dates_date ON flight_dates(date, status);

CREATE TABLE users (
    user_id    TEXT PRIMARY KEY,
    first_name TEXT NOT NULL,
    last_name  TEXT NOT NULL,
    address1   TEXT NOT NULL,
    address2   TEXT,                               -- nullable in tau2's model
    city       TEXT NOT NULL,
    country    TEXT NOT NULL,
    state      TEXT NOT NULL,
    zip        TEXT NOT NULL,
    email      TEXT NOT NULL,
    dob        TEXT NOT NULL,
    membership TEXT NOT NULL CHECK (membership IN ('regular', 'silver', 'gold')),
    ord        INTEGER NOT NULL
);
CREATE INDEX users_ord ON users(ord);

-- A user's payment methods (a map keyed by id in tau2). Ids are unique per user only:
-- send_certificate gives every user the same `certificate_3221322`.. ids.
CREATE TABLE payment_methods (
    user_id   TEXT NOT NULL REFERENCES users(user_id),
    id        TEXT NOT NULL,
    source    TEXT NOT NULL CHECK (source IN ('credit_card', 'gift_card', 'certificate')),
    brand     TEXT,                                -- credit cards only
    last_four TEXT,                                -- credit cards only
    amount    REAL,                                -- gift cards and certificates only
    ord       INTEGER NOT NULL,                    -- position within the user's methods
    PRIMARY KEY (user_id, id)
);
CREATE INDEX payment_methods_user ON payment_methods(user_id, ord);

CREATE TABLE saved_passengers (
    user_id    TEXT NOT NULL REFERENCES users(user_id),
    pos        INTEGER NOT NULL,
    first_name TEXT NOT NULL,
    last_name  TEXT NOT NULL,
    dob        TEXT NOT NULL,
    PRIMARY KEY (user_id, pos)
);

-- users[*].reservations as listed (append-only); a soft reference checked by invariants.
CREATE TABLE user_reservations (
    user_id        TEXT NOT NULL REFERENCES users(user_id),
    pos            INTEGER NOT NULL,
    reservation_id TEXT NOT NULL,
    PRIMARY KEY (user_id, pos)
);
CREATE INDEX user_reservations_reservation ON user_reservations(reservation_id);

CREATE TABLE reservations (
    reservation_id   TEXT PRIMARY KEY,
    user_id          TEXT NOT NULL REFERENCES users(user_id),
    origin           TEXT NOT NULL,
    destination      TEXT NOT NULL,
    flight_type      TEXT NOT NULL CHECK (flight_type IN ('one_way', 'round_trip')),
    cabin            TEXT NOT NULL CHECK (cabin IN ('basic_economy', 'economy', 'business')),
    created_at       TEXT NOT NULL,                -- YYYY-MM-DDTHH:MM:SS
    total_baggages   INTEGER NOT NULL,
    nonfree_baggages INTEGER NOT NULL,
    insurance        TEXT NOT NULL CHECK (insurance IN ('yes', 'no')),
    status           TEXT CHECK (status IS NULL OR status = 'cancelled'),
    ord              INTEGER NOT NULL
);
CREATE INDEX reservations_user ON reservations(user_id);
CREATE INDEX reservations_ord ON reservations(ord);

-- Segments. flight_number/date are soft references (checked by invariants): a reservation
-- keeps its segments whatever happens to the flight data.
CREATE TABLE reservation_flights (
    reservation_id TEXT NOT NULL REFERENCES reservations(reservation_id),
    pos            INTEGER NOT NULL,
    flight_number  TEXT NOT NULL,
    origin         TEXT NOT NULL,
    destination    TEXT NOT NULL,
    date           TEXT NOT NULL,
    price          INTEGER NOT NULL,
    PRIMARY KEY (reservation_id, pos)
);
CREATE INDEX reservation_flights_flight ON reservation_flights(flight_number, date);

CREATE TABLE reservation_passengers (
    reservation_id TEXT NOT NULL REFERENCES reservations(reservation_id),
    pos            INTEGER NOT NULL,
    first_name     TEXT NOT NULL,
    last_name      TEXT NOT NULL,
    dob            TEXT NOT NULL,
    PRIMARY KEY (reservation_id, pos)
);

-- Payment history; negative amounts are refunds. payment_id is a soft reference: a
-- certificate disappears from the user once used.
CREATE TABLE reservation_payments (
    reservation_id TEXT NOT NULL REFERENCES reservations(reservation_id),
    pos            INTEGER NOT NULL,
    payment_id     TEXT NOT NULL,
    amount         INTEGER NOT NULL,
    PRIMARY KEY (reservation_id, pos)
);
