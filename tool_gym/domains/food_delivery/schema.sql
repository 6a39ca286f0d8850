-- Food delivery: customers with addresses and payment methods, restaurants with menus,
-- one cart per customer, orders with statuses and lines, refunds, promo codes and ratings.
-- Money in dollars rounded to cents; times are ISO text 'YYYY-MM-DDTHH:MM:SS'.

CREATE TABLE customers (
    customer_id  TEXT PRIMARY KEY,
    first_name   TEXT NOT NULL,
    last_name    TEXT NOT NULL,
    email        TEXT NOT NULL UNIQUE,
    username     TEXT NOT NULL UNIQUE,
    phone        TEXT NOT NULL,
    joined_on    TEXT NOT NULL
);

CREATE TABLE addresses (
    address_id    TEXT PRIMARY KEY,
    customer_id   TEXT NOT NULL REFERENCES customers (customer_id),
    label         TEXT NOT NULL,
    street        TEXT NOT NULL,
    city          TEXT NOT NULL,
    zip           TEXT NOT NULL,
    instructions  TEXT NOT NULL DEFAULT '',
    is_default    INTEGER NOT NULL CHECK (is_default IN (0, 1)),
    UNIQUE (customer_id, label)
);
CREATE INDEX addresses_customer ON addresses (customer_id);

CREATE TABLE payment_methods (
    payment_method_id  TEXT PRIMARY KEY,
    customer_id        TEXT NOT NULL REFERENCES customers (customer_id),
    kind               TEXT NOT NULL CHECK (kind IN ('card', 'paypal', 'gift_card')),
    brand              TEXT NOT NULL,
    last4              TEXT NOT NULL,
    balance            REAL,
    is_default         INTEGER NOT NULL CHECK (is_default IN (0, 1)),
    CHECK ((kind = 'gift_card') = (balance IS NOT NULL))
);
CREATE INDEX payment_methods_customer ON payment_methods (customer_id);

CREATE TABLE restaurants (
    restaurant_id  TEXT PRIMARY KEY,
    name           TEXT NOT NULL UNIQUE,
    cuisine        TEXT NOT NULL,
    city           TEXT NOT NULL,
    delivery_fee   REAL NOT NULL CHECK (delivery_fee >= 0),
    min_order      REAL NOT NULL CHECK (min_order >= 0),
    is_open        INTEGER NOT NULL CHECK (is_open IN (0, 1)),
    rating         REAL NOT NULL,
    rating_count   INTEGER NOT NULL
);
CREATE INDEX restaurants_cuisine ON restaurants (cuisine);

CREATE TABLE menu_items (
    item_id        TEXT PRIMARY KEY,
    restaurant_id  TEXT NOT NULL REFERENCES restaurants (restaurant_id),
    name           TEXT NOT NULL,
    category       TEXT NOT NULL,
    price          REAL NOT NULL CHECK (price > 0),
    available      INTEGER NOT NULL CHECK (available IN (0, 1)),
    UNIQUE (restaurant_id, name)
);
CREATE INDEX menu_items_restaurant ON menu_items (restaurant_id);

CREATE TABLE promo_codes (
    code          TEXT PRIMARY KEY,
    description   TEXT NOT NULL,
    percent_off   INTEGER NOT NULL CHECK (percent_off BETWEEN 1 AND 100),
    max_discount  REAL NOT NULL,
    min_subtotal  REAL NOT NULL,
    expires_on    TEXT NOT NULL,
    active        INTEGER NOT NULL CHECK (active IN (0, 1))
);

CREATE TABLE cart_items (
    customer_id  TEXT NOT NULL REFERENCES customers (customer_id),
    item_id      TEXT NOT NULL REFERENCES menu_items (item_id),
    quantity     INTEGER NOT NULL CHECK (quantity BETWEEN 1 AND 20),
    PRIMARY KEY (customer_id, item_id)
);

CREATE TABLE orders (
    order_id           TEXT PRIMARY KEY,
    customer_id        TEXT NOT NULL REFERENCES customers (customer_id),
    restaurant_id      TEXT NOT NULL REFERENCES restaurants (restaurant_id),
    address_id         TEXT NOT NULL REFERENCES addresses (address_id),
    payment_method_id  TEXT NOT NULL REFERENCES payment_methods (payment_method_id),
    status             TEXT NOT NULL CHECK (status IN ('placed', 'accepted', 'preparing',
                           'on_the_way', 'delivered', 'cancelled')),
    subtotal           REAL NOT NULL,
    delivery_fee       REAL NOT NULL,
    discount           REAL NOT NULL DEFAULT 0,
    total              REAL NOT NULL,
    promo_code         TEXT REFERENCES promo_codes (code),
    placed_at          TEXT NOT NULL,
    delivered_at       TEXT,
    cancel_reason      TEXT,
    CHECK ((status = 'delivered') = (delivered_at IS NOT NULL)),
    CHECK ((status = 'cancelled') = (cancel_reason IS NOT NULL))
);
CREATE INDEX orders_customer ON orders (customer_id, placed_at);
CREATE INDEX orders_restaurant ON orders (restaurant_id);

CREATE TABLE order_items (
    order_id    TEXT NOT NULL REFERENCES orders (order_id),
    line        INTEGER NOT NULL,
    item_id     TEXT NOT NULL REFERENCES menu_items (item_id),
    name        TEXT NOT NULL,
    unit_price  REAL NOT NULL,
    quantity    INTEGER NOT NULL CHECK (quantity >= 1),
    PRIMARY KEY (order_id, line),
    UNIQUE (order_id, item_id)
);

CREATE TABLE refunds (
    refund_id          TEXT PRIMARY KEY,
    order_id           TEXT NOT NULL REFERENCES orders (order_id),
    payment_method_id  TEXT NOT NULL REFERENCES payment_methods (payment_method_id),
    amount             REAL NOT NULL CHECK (amount > 0),
    reason             TEXT NOT NULL CHECK (reason IN ('cancellation', 'missing_items')),
    item_ids           TEXT NOT NULL DEFAULT '[]',
    created_at         TEXT NOT NULL
);
CREATE INDEX refunds_order ON refunds (order_id);

CREATE TABLE ratings (
    rating_id      TEXT PRIMARY KEY,
    order_id       TEXT NOT NULL UNIQUE REFERENCES orders (order_id),
    customer_id    TEXT NOT NULL REFERENCES customers (customer_id),
    restaurant_id  TEXT NOT NULL REFERENCES restaurants (restaurant_id),
    stars          INTEGER NOT NULL CHECK (stars BETWEEN 1 AND 5),
    comment        TEXT NOT NULL DEFAULT '',
    created_at     TEXT NOT NULL
);
CREATE INDEX ratings_restaurant ON ratings (restaurant_id);
