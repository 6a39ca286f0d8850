-- Marketplace: members who buy and sell second-hand items, their payment cards, listings,
-- offers and counter-offers, orders, shipping labels, returns, feedback, saved searches and
-- conversations between members. Money is in dollars, rounded to cents; dates are ISO text
-- ('YYYY-MM-DD', times 'YYYY-MM-DDTHH:MM:SS').

CREATE TABLE members (
    member_id   TEXT PRIMARY KEY,
    first_name  TEXT NOT NULL,
    last_name   TEXT NOT NULL,
    email       TEXT NOT NULL UNIQUE,
    username    TEXT NOT NULL UNIQUE,
    city        TEXT NOT NULL,
    state       TEXT NOT NULL,
    joined_on   TEXT NOT NULL
);

CREATE TABLE payment_methods (
    payment_method_id  TEXT PRIMARY KEY,
    member_id          TEXT NOT NULL REFERENCES members (member_id),
    brand              TEXT NOT NULL CHECK (brand IN ('Visa', 'Mastercard', 'Amex', 'Discover')),
    last4              TEXT NOT NULL CHECK (length(last4) = 4),
    expires            TEXT NOT NULL,
    status             TEXT NOT NULL CHECK (status IN ('active', 'expired'))
);
CREATE INDEX payment_methods_member ON payment_methods (member_id);

CREATE TABLE listings (
    listing_id     TEXT PRIMARY KEY,
    seller_id      TEXT NOT NULL REFERENCES members (member_id),
    title          TEXT NOT NULL,
    category       TEXT NOT NULL CHECK (category IN ('Electronics', 'Video Games', 'Cameras',
                       'Clothing', 'Shoes', 'Home & Kitchen', 'Collectibles', 'Books',
                       'Sports & Outdoors', 'Musical Instruments', 'Toys')),
    condition      TEXT NOT NULL CHECK (condition IN
                       ('new', 'like_new', 'good', 'fair', 'for_parts')),
    price          REAL NOT NULL CHECK (price > 0),
    shipping_cost  REAL NOT NULL CHECK (shipping_cost >= 0),
    description    TEXT NOT NULL DEFAULT '',
    status         TEXT NOT NULL CHECK (status IN ('active', 'sold', 'closed')),
    created_on     TEXT NOT NULL,
    updated_on     TEXT NOT NULL,
    views          INTEGER NOT NULL DEFAULT 0 CHECK (views >= 0)
);
CREATE INDEX listings_seller ON listings (seller_id, status);
CREATE INDEX listings_status ON listings (status, price);

CREATE TABLE offers (
    offer_id           TEXT PRIMARY KEY,
    listing_id         TEXT NOT NULL REFERENCES listings (listing_id),
    buyer_id           TEXT NOT NULL REFERENCES members (member_id),
    payment_method_id  TEXT NOT NULL REFERENCES payment_methods (payment_method_id),
    amount             REAL NOT NULL CHECK (amount > 0),
    counter_amount     REAL CHECK (counter_amount IS NULL OR counter_amount > amount),
    message            TEXT NOT NULL DEFAULT '',
    status             TEXT NOT NULL CHECK (status IN
                           ('pending', 'countered', 'accepted', 'declined', 'expired')),
    created_at         TEXT NOT NULL,
    responded_at       TEXT,
    CHECK (status != 'countered' OR counter_amount IS NOT NULL),
    CHECK ((status = 'pending') = (responded_at IS NULL))
);
CREATE INDEX offers_listing ON offers (listing_id, status);
CREATE INDEX offers_buyer ON offers (buyer_id);

CREATE TABLE orders (
    order_id           TEXT PRIMARY KEY,
    listing_id         TEXT NOT NULL REFERENCES listings (listing_id),
    buyer_id           TEXT NOT NULL REFERENCES members (member_id),
    seller_id          TEXT NOT NULL REFERENCES members (member_id),
    payment_method_id  TEXT NOT NULL REFERENCES payment_methods (payment_method_id),
    offer_id           TEXT UNIQUE REFERENCES offers (offer_id),
    item_price         REAL NOT NULL CHECK (item_price > 0),
    shipping_cost      REAL NOT NULL CHECK (shipping_cost >= 0),
    total              REAL NOT NULL,
    status             TEXT NOT NULL CHECK (status IN
                           ('paid', 'shipped', 'delivered', 'cancelled')),
    ordered_at         TEXT NOT NULL,
    shipped_at         TEXT,
    delivered_at       TEXT,
    cancelled_at       TEXT,
    cancel_reason      TEXT CHECK (cancel_reason IS NULL OR cancel_reason IN
                           ('buyer_changed_mind', 'out_of_stock', 'payment_issue', 'other')),
    CHECK (buyer_id != seller_id),
    CHECK ((status IN ('shipped', 'delivered')) = (shipped_at IS NOT NULL)),
    CHECK ((status = 'delivered') = (delivered_at IS NOT NULL)),
    CHECK ((status = 'cancelled') = (cancelled_at IS NOT NULL AND cancel_reason IS NOT NULL))
);
CREATE INDEX orders_buyer ON orders (buyer_id);
CREATE INDEX orders_seller ON orders (seller_id);
CREATE INDEX orders_listing ON orders (listing_id);

CREATE TABLE shipping_labels (
    label_id         TEXT PRIMARY KEY,
    order_id         TEXT NOT NULL UNIQUE REFERENCES orders (order_id),
    carrier          TEXT NOT NULL CHECK (carrier IN ('USPS', 'UPS', 'FedEx')),
    service          TEXT NOT NULL CHECK (service IN ('ground', 'priority', 'express')),
    weight_oz        INTEGER NOT NULL CHECK (weight_oz > 0),
    cost             REAL NOT NULL CHECK (cost > 0),
    tracking_number  TEXT NOT NULL UNIQUE,
    created_at       TEXT NOT NULL
);

CREATE TABLE returns (
    return_id  TEXT PRIMARY KEY,
    order_id   TEXT NOT NULL UNIQUE REFERENCES orders (order_id),
    reason     TEXT NOT NULL CHECK (reason IN
                   ('not_as_described', 'damaged', 'wrong_item', 'changed_mind')),
    status     TEXT NOT NULL CHECK (status IN ('open', 'approved', 'rejected', 'refunded')),
    opened_on  TEXT NOT NULL
);

CREATE TABLE feedback (
    feedback_id   TEXT PRIMARY KEY,
    order_id      TEXT NOT NULL REFERENCES orders (order_id),
    author_id     TEXT NOT NULL REFERENCES members (member_id),
    recipient_id  TEXT NOT NULL REFERENCES members (member_id),
    role          TEXT NOT NULL CHECK (role IN ('buyer', 'seller')),
    rating        TEXT NOT NULL CHECK (rating IN ('positive', 'neutral', 'negative')),
    comment       TEXT NOT NULL,
    left_on       TEXT NOT NULL,
    UNIQUE (order_id, author_id)
);
CREATE INDEX feedback_recipient ON feedback (recipient_id);
CREATE INDEX feedback_author ON feedback (author_id);

CREATE TABLE saved_searches (
    saved_search_id  TEXT PRIMARY KEY,
    member_id        TEXT NOT NULL REFERENCES members (member_id),
    query            TEXT NOT NULL,
    category         TEXT NOT NULL DEFAULT '',
    max_price        REAL NOT NULL DEFAULT 0 CHECK (max_price >= 0),
    created_on       TEXT NOT NULL,
    UNIQUE (member_id, query, category, max_price)
);

CREATE TABLE conversations (
    conversation_id  TEXT PRIMARY KEY,
    listing_id       TEXT NOT NULL REFERENCES listings (listing_id),
    buyer_id         TEXT NOT NULL REFERENCES members (member_id),
    seller_id        TEXT NOT NULL REFERENCES members (member_id),
    started_at       TEXT NOT NULL,
    UNIQUE (listing_id, buyer_id),
    CHECK (buyer_id != seller_id)
);
CREATE INDEX conversations_buyer ON conversations (buyer_id);
CREATE INDEX conversations_seller ON conversations (seller_id);

CREATE TABLE messages (
    message_id       TEXT PRIMARY KEY,
    conversation_id  TEXT NOT NULL REFERENCES conversations (conversation_id),
    sender_id        TEXT NOT NULL REFERENCES members (member_id),
    body             TEXT NOT NULL,
    sent_at          TEXT NOT NULL,
    is_read          INTEGER NOT NULL DEFAULT 0 CHECK (is_read IN (0, 1))
);
CREATE INDEX messages_conversation ON messages (conversation_id, sent_at);
