-- Shopping: an online storefront. Customers with addresses, payment methods and store
-- credit; a catalog of products with stock and reviews; carts, wishlists, coupons, orders
-- (placed -> shipped -> delivered, or cancelled) and item returns. Money is stored in
-- dollars, rounded to cents; dates are ISO text ('YYYY-MM-DD', times 'YYYY-MM-DDTHH:MM:SS').

CREATE TABLE customers (
    customer_id   TEXT PRIMARY KEY,
    first_name    TEXT NOT NULL,
    last_name     TEXT NOT NULL,
    email         TEXT NOT NULL UNIQUE,
    username      TEXT NOT NULL UNIQUE,
    phone         TEXT NOT NULL,
    member_since  TEXT NOT NULL,
    tier          TEXT NOT NULL CHECK (tier IN ('standard', 'plus')),
    store_credit  REAL NOT NULL DEFAULT 0 CHECK (store_credit >= 0)
);

CREATE TABLE addresses (
    address_id   TEXT PRIMARY KEY,
    customer_id  TEXT NOT NULL REFERENCES customers (customer_id),
    label        TEXT NOT NULL,
    street       TEXT NOT NULL,
    city         TEXT NOT NULL,
    state        TEXT NOT NULL,
    zip          TEXT NOT NULL,
    is_default   INTEGER NOT NULL CHECK (is_default IN (0, 1)),
    UNIQUE (customer_id, label)
);
CREATE INDEX addresses_customer ON addresses (customer_id);

CREATE TABLE payment_methods (
    payment_method_id  TEXT PRIMARY KEY,
    customer_id        TEXT NOT NULL REFERENCES customers (customer_id),
    kind               TEXT NOT NULL CHECK (kind IN ('card', 'gift_card', 'paypal')),
    brand              TEXT NOT NULL,
    last4              TEXT NOT NULL,
    balance            REAL CHECK (balance IS NULL OR balance >= 0),
    CHECK ((kind = 'gift_card') = (balance IS NOT NULL))
);
CREATE INDEX payment_methods_customer ON payment_methods (customer_id);

CREATE TABLE products (
    product_id  TEXT PRIMARY KEY,
    name        TEXT NOT NULL UNIQUE,
    brand       TEXT NOT NULL,
    category    TEXT NOT NULL CHECK (category IN ('electronics', 'home', 'kitchen', 'books',
                    'toys', 'sports', 'beauty', 'clothing', 'garden', 'office')),
    price       REAL NOT NULL CHECK (price > 0),
    stock       INTEGER NOT NULL CHECK (stock >= 0),
    status      TEXT NOT NULL CHECK (status IN ('active', 'discontinued'))
);
CREATE INDEX products_category ON products (category);

CREATE TABLE coupons (
    code          TEXT PRIMARY KEY,
    customer_id   TEXT REFERENCES customers (customer_id),
    description   TEXT NOT NULL,
    kind          TEXT NOT NULL CHECK (kind IN ('percent', 'fixed')),
    value         REAL NOT NULL CHECK (value > 0),
    min_subtotal  REAL NOT NULL CHECK (min_subtotal >= 0),
    expires_on    TEXT NOT NULL,
    CHECK (kind != 'percent' OR value <= 50)
);
CREATE INDEX coupons_customer ON coupons (customer_id);

CREATE TABLE carts (
    customer_id  TEXT PRIMARY KEY REFERENCES customers (customer_id),
    coupon_code  TEXT REFERENCES coupons (code),
    updated_at   TEXT NOT NULL
);

CREATE TABLE cart_items (
    customer_id  TEXT NOT NULL REFERENCES carts (customer_id),
    product_id   TEXT NOT NULL REFERENCES products (product_id),
    quantity     INTEGER NOT NULL CHECK (quantity BETWEEN 1 AND 10),
    added_at     TEXT NOT NULL,
    PRIMARY KEY (customer_id, product_id)
);
CREATE INDEX cart_items_product ON cart_items (product_id);

CREATE TABLE wishlist_items (
    customer_id  TEXT NOT NULL REFERENCES customers (customer_id),
    product_id   TEXT NOT NULL REFERENCES products (product_id),
    added_on     TEXT NOT NULL,
    PRIMARY KEY (customer_id, product_id)
);
CREATE INDEX wishlist_items_product ON wishlist_items (product_id);

CREATE TABLE orders (
    order_id           TEXT PRIMARY KEY,
    customer_id        TEXT NOT NULL REFERENCES customers (customer_id),
    address_id         TEXT NOT NULL REFERENCES addresses (address_id),
    payment_method_id  TEXT NOT NULL REFERENCES payment_methods (payment_method_id),
    status             TEXT NOT NULL CHECK (status IN ('placed', 'shipped', 'delivered',
                           'cancelled')),
    subtotal           REAL NOT NULL CHECK (subtotal > 0),
    discount           REAL NOT NULL CHECK (discount >= 0),
    shipping           REAL NOT NULL CHECK (shipping >= 0),
    total              REAL NOT NULL CHECK (total >= 0),
    coupon_code        TEXT REFERENCES coupons (code),
    placed_at          TEXT NOT NULL,
    shipped_at         TEXT,
    delivered_at       TEXT,
    cancel_reason      TEXT
);
CREATE INDEX orders_customer ON orders (customer_id, placed_at);

CREATE TABLE order_items (
    order_id    TEXT NOT NULL REFERENCES orders (order_id),
    line        INTEGER NOT NULL CHECK (line >= 1),
    product_id  TEXT NOT NULL REFERENCES products (product_id),
    name        TEXT NOT NULL,
    unit_price  REAL NOT NULL CHECK (unit_price > 0),
    quantity    INTEGER NOT NULL CHECK (quantity BETWEEN 1 AND 10),
    PRIMARY KEY (order_id, line),
    UNIQUE (order_id, product_id)
);
CREATE INDEX order_items_product ON order_items (product_id);

CREATE TABLE returns (
    return_id      TEXT PRIMARY KEY,
    customer_id    TEXT NOT NULL REFERENCES customers (customer_id),
    order_id       TEXT NOT NULL,
    line           INTEGER NOT NULL,
    quantity       INTEGER NOT NULL CHECK (quantity >= 1),
    reason         TEXT NOT NULL CHECK (reason IN ('damaged', 'defective', 'wrong_item',
                       'not_as_described', 'no_longer_needed')),
    refund_to      TEXT NOT NULL CHECK (refund_to IN ('original_payment', 'store_credit')),
    refund_amount  REAL NOT NULL CHECK (refund_amount >= 0),
    status         TEXT NOT NULL CHECK (status IN ('pending', 'received', 'refunded',
                       'rejected')),
    requested_on   TEXT NOT NULL,
    FOREIGN KEY (order_id, line) REFERENCES order_items (order_id, line),
    UNIQUE (order_id, line)
);
CREATE INDEX returns_customer ON returns (customer_id);

CREATE TABLE reviews (
    review_id    TEXT PRIMARY KEY,
    customer_id  TEXT NOT NULL REFERENCES customers (customer_id),
    product_id   TEXT NOT NULL REFERENCES products (product_id),
    rating       INTEGER NOT NULL CHECK (rating BETWEEN 1 AND 5),
    title        TEXT NOT NULL,
    body         TEXT NOT NULL,
    created_on   TEXT NOT NULL,
    UNIQUE (customer_id, product_id)
);
CREATE INDEX reviews_product ON reviews (product_id);
