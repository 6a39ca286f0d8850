-- Retail domain (tau2-bench compatible). Lists whose order matters carry a `pos` column;
-- `ord` keeps the source order of top-level records (tools scan "first match" in it).

CREATE TABLE products (
    product_id TEXT PRIMARY KEY,
    name       TEXT NOT NULL,
    ord        INTEGER NOT NULL
);

CREATE TABLE variants (
    item_id    TEXT PRIMARY KEY,
    product_id TEXT NOT NULL REFERENCES products(product_id),
    options    TEXT NOT NULL,                      -- JSON object, key order kept
    available  INTEGER NOT NULL CHECK (available IN (0, 1)),
    price      REAL NOT NULL,
    ord        INTEGER NOT NULL                    -- position within the product
);
CREATE INDEX variants_product ON variants(product_id, ord);

CREATE TABLE users (
    user_id    TEXT PRIMARY KEY,
    first_name TEXT NOT NULL,
    last_name  TEXT NOT NULL,
    email      TEXT NOT NULL,
    address1   TEXT NOT NULL,
    address2   TEXT NOT NULL,
    city       TEXT NOT NULL,
    country    TEXT NOT NULL,
    state      TEXT NOT NULL,
    zip        TEXT NOT NULL,
    ord        INTEGER NOT NULL
);
CREATE INDEX users_email ON users(lower(email), ord);
CREATE INDEX users_name_zip ON users(lower(first_name), lower(last_name), zip, ord);
CREATE INDEX users_zip ON users(zip, ord);

CREATE TABLE payment_methods (
    id        TEXT PRIMARY KEY,
    user_id   TEXT NOT NULL REFERENCES users(user_id),
    source    TEXT NOT NULL CHECK (source IN ('credit_card', 'paypal', 'gift_card')),
    brand     TEXT,
    last_four TEXT,
    balance   REAL,
    ord       INTEGER NOT NULL                     -- position within the user's methods
);
CREATE INDEX payment_methods_user ON payment_methods(user_id, ord);

CREATE TABLE orders (
    order_id   TEXT PRIMARY KEY,
    user_id    TEXT NOT NULL REFERENCES users(user_id),
    address1   TEXT NOT NULL,
    address2   TEXT NOT NULL,
    city       TEXT NOT NULL,
    country    TEXT NOT NULL,
    state      TEXT NOT NULL,
    zip        TEXT NOT NULL,
    status     TEXT NOT NULL,
    cancel_reason              TEXT,
    exchange_items             TEXT,               -- JSON array or NULL
    exchange_new_items         TEXT,               -- JSON array or NULL
    exchange_payment_method_id TEXT,
    exchange_price_difference,                     -- no type: keeps tau2's int 0 and -0.0
    return_items               TEXT,               -- JSON array or NULL
    return_payment_method_id   TEXT,
    ord        INTEGER NOT NULL
);
CREATE INDEX orders_user ON orders(user_id);

-- users[*].orders as listed in the source (may differ from orders.user_id in foreign data).
CREATE TABLE user_orders (
    user_id  TEXT NOT NULL REFERENCES users(user_id),
    pos      INTEGER NOT NULL,
    order_id TEXT NOT NULL,
    PRIMARY KEY (user_id, pos)
);

CREATE TABLE order_items (
    order_id   TEXT NOT NULL REFERENCES orders(order_id),
    pos        INTEGER NOT NULL,
    item_id    TEXT NOT NULL,                      -- soft reference to variants
    product_id TEXT NOT NULL,
    name       TEXT NOT NULL,
    price      REAL NOT NULL,
    options    TEXT NOT NULL,                      -- JSON object
    PRIMARY KEY (order_id, pos)
);
CREATE INDEX order_items_item ON order_items(item_id);

CREATE TABLE fulfillments (
    order_id     TEXT NOT NULL REFERENCES orders(order_id),
    pos          INTEGER NOT NULL,
    tracking_ids TEXT NOT NULL,                    -- JSON array
    item_ids     TEXT NOT NULL,                    -- JSON array
    PRIMARY KEY (order_id, pos)
);

CREATE TABLE order_payments (
    order_id          TEXT NOT NULL REFERENCES orders(order_id),
    pos               INTEGER NOT NULL,
    transaction_type  TEXT NOT NULL CHECK (transaction_type IN ('payment', 'refund')),
    amount            REAL NOT NULL,
    payment_method_id TEXT NOT NULL,               -- soft reference to payment_methods
    PRIMARY KEY (order_id, pos)
);
