-- Payments: a P2P and merchant payments wallet. Users hold wallets in one to three
-- currencies, link funding sources (bank accounts and cards), keep contacts, send money to
-- contacts, request money from them (accepted, declined or cancelled), pay merchants, get
-- merchant payments refunded and dispute them; top-ups, withdrawals and currency conversions
-- are kept. Money in the currency's units, rounded to cents; dates are ISO text
-- ('YYYY-MM-DD', moments 'YYYY-MM-DDTHH:MM:SS').

CREATE TABLE users (
    user_id           TEXT PRIMARY KEY,
    first_name        TEXT NOT NULL,
    last_name         TEXT NOT NULL,
    email             TEXT NOT NULL UNIQUE,
    username          TEXT NOT NULL UNIQUE,
    phone             TEXT NOT NULL,
    city              TEXT NOT NULL,
    joined_on         TEXT NOT NULL,
    verified          INTEGER NOT NULL CHECK (verified IN (0, 1)),
    daily_send_limit  REAL NOT NULL CHECK (daily_send_limit > 0)
);

CREATE TABLE wallets (
    wallet_id  TEXT PRIMARY KEY,
    user_id    TEXT NOT NULL REFERENCES users (user_id),
    currency   TEXT NOT NULL CHECK (currency IN ('USD', 'EUR', 'GBP')),
    balance    REAL NOT NULL CHECK (balance >= 0),
    opened_on  TEXT NOT NULL,
    UNIQUE (user_id, currency)
);

CREATE TABLE funding_sources (
    source_id    TEXT PRIMARY KEY,
    user_id      TEXT NOT NULL REFERENCES users (user_id),
    kind         TEXT NOT NULL CHECK (kind IN ('bank_account', 'debit_card', 'credit_card')),
    institution  TEXT NOT NULL,
    last4        TEXT NOT NULL,
    is_default   INTEGER NOT NULL CHECK (is_default IN (0, 1)),
    status       TEXT NOT NULL CHECK (status IN ('active', 'removed')),
    added_on     TEXT NOT NULL,
    CHECK (status = 'active' OR is_default = 0)
);
CREATE INDEX sources_user ON funding_sources (user_id);

CREATE TABLE contacts (
    contact_id       TEXT PRIMARY KEY,
    user_id          TEXT NOT NULL REFERENCES users (user_id),
    contact_user_id  TEXT NOT NULL REFERENCES users (user_id),
    nickname         TEXT NOT NULL DEFAULT '',
    added_on         TEXT NOT NULL,
    UNIQUE (user_id, contact_user_id),
    CHECK (user_id != contact_user_id)
);

CREATE TABLE merchants (
    merchant_id         TEXT PRIMARY KEY,
    name                TEXT NOT NULL UNIQUE,
    category            TEXT NOT NULL,
    refund_window_days  INTEGER NOT NULL CHECK (refund_window_days > 0)
);

CREATE TABLE payments (
    payment_id       TEXT PRIMARY KEY,
    sender_id        TEXT NOT NULL REFERENCES users (user_id),
    recipient_id     TEXT REFERENCES users (user_id),
    merchant_id      TEXT REFERENCES merchants (merchant_id),
    wallet_id        TEXT REFERENCES wallets (wallet_id),
    source_id        TEXT REFERENCES funding_sources (source_id),
    amount           REAL NOT NULL CHECK (amount > 0),
    currency         TEXT NOT NULL CHECK (currency IN ('USD', 'EUR', 'GBP')),
    note             TEXT NOT NULL DEFAULT '',
    created_at       TEXT NOT NULL,
    status           TEXT NOT NULL CHECK (status IN
                         ('completed', 'partially_refunded', 'refunded')),
    refunded_amount  REAL NOT NULL DEFAULT 0 CHECK (refunded_amount >= 0),
    CHECK ((recipient_id IS NULL) != (merchant_id IS NULL)),
    CHECK ((wallet_id IS NULL) != (source_id IS NULL)),
    CHECK (recipient_id IS NULL OR wallet_id IS NOT NULL),
    CHECK (recipient_id IS NULL OR recipient_id != sender_id)
);
CREATE INDEX payments_sender ON payments (sender_id, created_at);
CREATE INDEX payments_recipient ON payments (recipient_id, created_at);

CREATE TABLE payment_requests (
    request_id    TEXT PRIMARY KEY,
    requester_id  TEXT NOT NULL REFERENCES users (user_id),
    payer_id      TEXT NOT NULL REFERENCES users (user_id),
    amount        REAL NOT NULL CHECK (amount > 0),
    currency      TEXT NOT NULL CHECK (currency IN ('USD', 'EUR', 'GBP')),
    note          TEXT NOT NULL DEFAULT '',
    created_at    TEXT NOT NULL,
    status        TEXT NOT NULL CHECK (status IN ('pending', 'accepted', 'declined',
                      'cancelled')),
    payment_id    TEXT UNIQUE REFERENCES payments (payment_id),
    CHECK (requester_id != payer_id),
    CHECK ((status = 'accepted') = (payment_id IS NOT NULL))
);
CREATE INDEX requests_requester ON payment_requests (requester_id);
CREATE INDEX requests_payer ON payment_requests (payer_id);

CREATE TABLE refunds (
    refund_id   TEXT PRIMARY KEY,
    payment_id  TEXT NOT NULL REFERENCES payments (payment_id),
    amount      REAL NOT NULL CHECK (amount > 0),
    reason      TEXT NOT NULL CHECK (reason IN ('returned_item', 'damaged_item',
                    'wrong_item', 'order_cancelled')),
    created_at  TEXT NOT NULL
);
CREATE INDEX refunds_payment ON refunds (payment_id);

CREATE TABLE disputes (
    dispute_id  TEXT PRIMARY KEY,
    payment_id  TEXT NOT NULL UNIQUE REFERENCES payments (payment_id),
    user_id     TEXT NOT NULL REFERENCES users (user_id),
    reason      TEXT NOT NULL CHECK (reason IN ('unauthorized', 'not_received',
                    'not_as_described', 'duplicate')),
    status      TEXT NOT NULL CHECK (status IN ('open', 'resolved', 'rejected')),
    opened_on   TEXT NOT NULL
);

CREATE TABLE wallet_transfers (
    transfer_id  TEXT PRIMARY KEY,
    wallet_id    TEXT NOT NULL REFERENCES wallets (wallet_id),
    source_id    TEXT NOT NULL REFERENCES funding_sources (source_id),
    direction    TEXT NOT NULL CHECK (direction IN ('top_up', 'withdrawal')),
    amount       REAL NOT NULL CHECK (amount > 0),
    created_at   TEXT NOT NULL
);
CREATE INDEX transfers_wallet ON wallet_transfers (wallet_id);

CREATE TABLE conversions (
    conversion_id     TEXT PRIMARY KEY,
    user_id           TEXT NOT NULL REFERENCES users (user_id),
    from_wallet_id    TEXT NOT NULL REFERENCES wallets (wallet_id),
    to_wallet_id      TEXT NOT NULL REFERENCES wallets (wallet_id),
    amount            REAL NOT NULL CHECK (amount > 0),
    rate              REAL NOT NULL CHECK (rate > 0),
    converted_amount  REAL NOT NULL CHECK (converted_amount > 0),
    created_at        TEXT NOT NULL,
    CHECK (from_wallet_id != to_wallet_id)
);
