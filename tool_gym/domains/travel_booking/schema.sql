-- Travel booking: customers of a travel agency, their saved traveller profiles and trips
-- (itineraries), and the hotel stays, car rentals and activities booked on each trip, with
-- the loyalty points they earn and redeem. Flights are the airline domain's. Money is in
-- dollars rounded to cents; dates are ISO text ('YYYY-MM-DD'); 100 points are worth $1.

CREATE TABLE customers (
    customer_id     TEXT PRIMARY KEY,
    first_name      TEXT NOT NULL,
    last_name       TEXT NOT NULL,
    email           TEXT NOT NULL UNIQUE,
    username        TEXT NOT NULL UNIQUE,
    phone           TEXT NOT NULL,
    home_city       TEXT NOT NULL,
    member_since    TEXT NOT NULL,
    loyalty_tier    TEXT NOT NULL CHECK (loyalty_tier IN ('blue', 'silver', 'gold', 'platinum')),
    points_balance  INTEGER NOT NULL CHECK (points_balance >= 0)
);

CREATE TABLE travelers (
    traveler_id    TEXT PRIMARY KEY,
    customer_id    TEXT NOT NULL REFERENCES customers (customer_id),
    first_name     TEXT NOT NULL,
    last_name      TEXT NOT NULL,
    date_of_birth  TEXT NOT NULL,
    relation       TEXT NOT NULL CHECK (relation IN
                       ('self', 'spouse', 'partner', 'child', 'parent', 'sibling', 'friend',
                        'colleague'))
);
CREATE INDEX travelers_customer ON travelers (customer_id);

CREATE TABLE hotels (
    hotel_id           TEXT PRIMARY KEY,
    name               TEXT NOT NULL UNIQUE,
    city               TEXT NOT NULL,
    stars              INTEGER NOT NULL CHECK (stars BETWEEN 1 AND 5),
    address            TEXT NOT NULL,
    free_cancel_days   INTEGER NOT NULL CHECK (free_cancel_days >= 0)
);
CREATE INDEX hotels_city ON hotels (city);

CREATE TABLE room_types (
    room_type_id   TEXT PRIMARY KEY,
    hotel_id       TEXT NOT NULL REFERENCES hotels (hotel_id),
    name           TEXT NOT NULL,
    capacity       INTEGER NOT NULL CHECK (capacity > 0),
    nightly_rate   REAL NOT NULL CHECK (nightly_rate > 0),
    rooms_total    INTEGER NOT NULL CHECK (rooms_total > 0),
    UNIQUE (hotel_id, name)
);
CREATE INDEX room_types_hotel ON room_types (hotel_id);

CREATE TABLE cars (
    car_id       TEXT PRIMARY KEY,
    company      TEXT NOT NULL,
    city         TEXT NOT NULL,
    car_class    TEXT NOT NULL CHECK (car_class IN
                     ('economy', 'compact', 'midsize', 'suv', 'van', 'luxury')),
    model        TEXT NOT NULL,
    seats        INTEGER NOT NULL CHECK (seats > 0),
    daily_rate   REAL NOT NULL CHECK (daily_rate > 0),
    units        INTEGER NOT NULL CHECK (units > 0),
    UNIQUE (company, city, car_class)
);
CREATE INDEX cars_city ON cars (city);

CREATE TABLE activities (
    activity_id       TEXT PRIMARY KEY,
    name              TEXT NOT NULL UNIQUE,
    city              TEXT NOT NULL,
    category          TEXT NOT NULL CHECK (category IN
                          ('tour', 'food', 'outdoor', 'culture', 'cruise', 'class')),
    start_time        TEXT NOT NULL,
    duration_hours    REAL NOT NULL CHECK (duration_hours > 0),
    price_per_person  REAL NOT NULL CHECK (price_per_person > 0),
    daily_capacity    INTEGER NOT NULL CHECK (daily_capacity > 0),
    weekdays          TEXT NOT NULL  -- days it runs, 0 = Monday .. 6 = Sunday, e.g. '0246'
);
CREATE INDEX activities_city ON activities (city);

CREATE TABLE trips (
    trip_id           TEXT PRIMARY KEY,
    customer_id       TEXT NOT NULL REFERENCES customers (customer_id),
    name              TEXT NOT NULL,
    destination_city  TEXT NOT NULL,
    start_date        TEXT NOT NULL,
    end_date          TEXT NOT NULL,
    status            TEXT NOT NULL CHECK (status IN
                          ('planned', 'in_progress', 'completed', 'cancelled')),
    created_on        TEXT NOT NULL,
    CHECK (end_date >= start_date)
);
CREATE INDEX trips_customer ON trips (customer_id);

CREATE TABLE trip_travelers (
    trip_id      TEXT NOT NULL REFERENCES trips (trip_id),
    traveler_id  TEXT NOT NULL REFERENCES travelers (traveler_id),
    PRIMARY KEY (trip_id, traveler_id)
);
CREATE INDEX trip_travelers_traveler ON trip_travelers (traveler_id);

-- One row per hotel stay, car rental or activity booking: exactly one of room_type_id,
-- car_id, activity_id is set, the one of its kind. quantity is rooms, cars (1) or
-- participants; unit_price the nightly rate, daily rate or price per person.
CREATE TABLE bookings (
    booking_id         TEXT PRIMARY KEY,
    trip_id            TEXT NOT NULL REFERENCES trips (trip_id),
    kind               TEXT NOT NULL CHECK (kind IN ('hotel', 'car', 'activity')),
    room_type_id       TEXT REFERENCES room_types (room_type_id),
    car_id             TEXT REFERENCES cars (car_id),
    activity_id        TEXT REFERENCES activities (activity_id),
    start_date         TEXT NOT NULL,
    end_date           TEXT NOT NULL,
    quantity           INTEGER NOT NULL CHECK (quantity > 0),
    unit_price         REAL NOT NULL CHECK (unit_price > 0),
    total_price        REAL NOT NULL CHECK (total_price > 0),
    points_redeemed    INTEGER NOT NULL DEFAULT 0 CHECK (points_redeemed >= 0),
    status             TEXT NOT NULL CHECK (status IN ('confirmed', 'cancelled', 'completed')),
    cancellation_fee   REAL NOT NULL DEFAULT 0 CHECK (cancellation_fee >= 0),
    booked_on          TEXT NOT NULL,
    CHECK ((kind = 'hotel') = (room_type_id IS NOT NULL)),
    CHECK ((kind = 'car') = (car_id IS NOT NULL)),
    CHECK ((kind = 'activity') = (activity_id IS NOT NULL)),
    CHECK (end_date >= start_date)
);
CREATE INDEX bookings_trip ON bookings (trip_id);
CREATE INDEX bookings_room ON bookings (room_type_id, start_date);
CREATE INDEX bookings_car ON bookings (car_id, start_date);
CREATE INDEX bookings_activity ON bookings (activity_id, start_date);

-- Every change of a customer's points: earned (after a completed booking), redeemed on a
-- booking (negative), refunded when that booking is cancelled, or a bonus.
CREATE TABLE points_ledger (
    entry_id     TEXT PRIMARY KEY,
    customer_id  TEXT NOT NULL REFERENCES customers (customer_id),
    booking_id   TEXT REFERENCES bookings (booking_id),
    kind         TEXT NOT NULL CHECK (kind IN ('earned', 'redeemed', 'refunded', 'bonus')),
    points       INTEGER NOT NULL CHECK (points != 0),
    posted_on    TEXT NOT NULL,
    CHECK ((kind = 'bonus') = (booking_id IS NULL))
);
CREATE INDEX points_customer ON points_ledger (customer_id);
CREATE INDEX points_booking ON points_ledger (booking_id);
