-- Maps: users, places (category, city, coordinates, rating, business status, the user who
-- claimed the business), their weekly opening hours, users' saved lists of places, reviews,
-- reports of wrong place data, and trip plans (a day in a city, a travel mode, timed stops).
-- Dates are ISO text ('YYYY-MM-DD'), times of day 'HH:MM' (24-hour clock); distances in km.

CREATE TABLE users (
    user_id       TEXT PRIMARY KEY,
    first_name    TEXT NOT NULL,
    last_name     TEXT NOT NULL,
    email         TEXT NOT NULL UNIQUE,
    username      TEXT NOT NULL UNIQUE,
    home_city     TEXT NOT NULL,
    member_since  TEXT NOT NULL
);

CREATE TABLE places (
    place_id      TEXT PRIMARY KEY,
    name          TEXT NOT NULL,
    category      TEXT NOT NULL CHECK (category IN ('restaurant', 'cafe', 'bar', 'museum',
                      'park', 'hotel', 'supermarket', 'pharmacy', 'gas_station', 'gym',
                      'library', 'bakery')),
    city          TEXT NOT NULL,
    address       TEXT NOT NULL,
    lat           REAL NOT NULL CHECK (lat BETWEEN -90 AND 90),
    lon           REAL NOT NULL CHECK (lon BETWEEN -180 AND 180),
    phone         TEXT NOT NULL,
    price_level   INTEGER CHECK (price_level BETWEEN 1 AND 4),
    status        TEXT NOT NULL CHECK (status IN ('operating', 'temporarily_closed',
                      'permanently_closed')),
    owner_id      TEXT REFERENCES users (user_id),
    rating        REAL CHECK (rating BETWEEN 1 AND 5),
    review_count  INTEGER NOT NULL CHECK (review_count >= 0),
    UNIQUE (city, name)
);
CREATE INDEX places_city ON places (city, category);
CREATE INDEX places_owner ON places (owner_id);

CREATE TABLE opening_hours (
    place_id  TEXT NOT NULL REFERENCES places (place_id),
    weekday   INTEGER NOT NULL CHECK (weekday BETWEEN 0 AND 6),  -- 0 Monday .. 6 Sunday
    opens     TEXT NOT NULL,
    closes    TEXT NOT NULL,
    PRIMARY KEY (place_id, weekday),
    CHECK (opens < closes)
);

CREATE TABLE saved_lists (
    list_id     TEXT PRIMARY KEY,
    user_id     TEXT NOT NULL REFERENCES users (user_id),
    name        TEXT NOT NULL,
    created_on  TEXT NOT NULL,
    UNIQUE (user_id, name)
);
CREATE INDEX saved_lists_user ON saved_lists (user_id);

CREATE TABLE saved_places (
    list_id   TEXT NOT NULL REFERENCES saved_lists (list_id),
    place_id  TEXT NOT NULL REFERENCES places (place_id),
    note      TEXT NOT NULL DEFAULT '',
    added_on  TEXT NOT NULL,
    PRIMARY KEY (list_id, place_id)
);

CREATE TABLE reviews (
    review_id   TEXT PRIMARY KEY,
    place_id    TEXT NOT NULL REFERENCES places (place_id),
    user_id     TEXT NOT NULL REFERENCES users (user_id),
    rating      INTEGER NOT NULL CHECK (rating BETWEEN 1 AND 5),
    text        TEXT NOT NULL,
    created_on  TEXT NOT NULL,
    updated_on  TEXT,
    UNIQUE (place_id, user_id)
);
CREATE INDEX reviews_user ON reviews (user_id);

CREATE TABLE place_reports (
    report_id   TEXT PRIMARY KEY,
    place_id    TEXT NOT NULL REFERENCES places (place_id),
    user_id     TEXT NOT NULL REFERENCES users (user_id),
    issue       TEXT NOT NULL CHECK (issue IN ('wrong_hours', 'wrong_phone', 'wrong_address',
                    'permanently_closed', 'duplicate', 'other')),
    detail      TEXT NOT NULL,
    status      TEXT NOT NULL CHECK (status IN ('pending', 'accepted', 'rejected')),
    created_on  TEXT NOT NULL
);
CREATE INDEX place_reports_user ON place_reports (user_id);
CREATE INDEX place_reports_place ON place_reports (place_id);

CREATE TABLE trips (
    trip_id      TEXT PRIMARY KEY,
    user_id      TEXT NOT NULL REFERENCES users (user_id),
    name         TEXT NOT NULL,
    city         TEXT NOT NULL,
    date         TEXT NOT NULL,
    travel_mode  TEXT NOT NULL CHECK (travel_mode IN ('driving', 'walking', 'cycling',
                     'transit')),
    UNIQUE (user_id, name)
);
CREATE INDEX trips_user ON trips (user_id);

CREATE TABLE trip_stops (
    trip_id    TEXT NOT NULL REFERENCES trips (trip_id),
    place_id   TEXT NOT NULL REFERENCES places (place_id),
    arrive_at  TEXT NOT NULL,
    PRIMARY KEY (trip_id, place_id),
    UNIQUE (trip_id, arrive_at)
);
