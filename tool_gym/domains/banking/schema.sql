-- Banking: customers, their checking/savings accounts, debit cards, transactions, payees,
-- transfers, scheduled payments and card disputes. Money is stored in dollars, rounded to
-- cents; dates are ISO text ('YYYY-MM-DD', times 'YYYY-MM-DDTHH:MM:SS').

CREATE TABLE customers (
    customer_id           TEXT PRIMARY KEY,
    first_name            TEXT NOT NULL,
    last_name             TEXT NOT NULL,
    email                 TEXT NOT NULL UNIQUE,
    username              TEXT NOT NULL UNIQUE,
    phone                 TEXT NOT NULL,
    date_of_birth         TEXT NOT NULL,
    city                  TEXT NOT NULL,
    member_since          TEXT NOT NULL,
    daily_transfer_limit  REAL NOT NULL CHECK (daily_transfer_limit > 0)
);

CREATE TABLE accounts (
    account_id      TEXT PRIMARY KEY,
    customer_id     TEXT NOT NULL REFERENCES customers (customer_id),
    type            TEXT NOT NULL CHECK (type IN ('checking', 'savings')),
    nickname        TEXT NOT NULL,
    account_number  TEXT NOT NULL UNIQUE,
    balance         REAL NOT NULL,
    hold_amount     REAL NOT NULL DEFAULT 0,
    interest_rate   REAL NOT NULL DEFAULT 0,
    status          TEXT NOT NULL CHECK (status IN ('open', 'closed')),
    opened_on       TEXT NOT NULL
);
CREATE INDEX accounts_customer ON accounts (customer_id);

CREATE TABLE cards (
    card_id            TEXT PRIMARY KEY,
    customer_id        TEXT NOT NULL REFERENCES customers (customer_id),
    account_id         TEXT NOT NULL REFERENCES accounts (account_id),
    network            TEXT NOT NULL CHECK (network IN ('Visa', 'Mastercard')),
    form               TEXT NOT NULL CHECK (form IN ('physical', 'virtual')),
    last4              TEXT NOT NULL,
    expiry             TEXT NOT NULL,
    status             TEXT NOT NULL CHECK (status IN ('active', 'frozen', 'cancelled')),
    daily_spend_limit  REAL NOT NULL
);
CREATE INDEX cards_customer ON cards (customer_id);
CREATE INDEX cards_account ON cards (account_id);

CREATE TABLE payees (
    payee_id        TEXT PRIMARY KEY,
    customer_id     TEXT NOT NULL REFERENCES customers (customer_id),
    name            TEXT NOT NULL,
    category        TEXT NOT NULL CHECK (category IN
                        ('utility', 'rent', 'credit_card', 'insurance', 'person', 'other')),
    bank_name       TEXT NOT NULL,
    account_number  TEXT NOT NULL,
    added_on        TEXT NOT NULL,
    UNIQUE (customer_id, name)
);
CREATE INDEX payees_customer ON payees (customer_id);

CREATE TABLE transfers (
    transfer_id      TEXT PRIMARY KEY,
    customer_id      TEXT NOT NULL REFERENCES customers (customer_id),
    from_account_id  TEXT NOT NULL REFERENCES accounts (account_id),
    to_account_id    TEXT REFERENCES accounts (account_id),
    payee_id         TEXT REFERENCES payees (payee_id),
    amount           REAL NOT NULL CHECK (amount > 0),
    memo             TEXT NOT NULL DEFAULT '',
    created_at       TEXT NOT NULL,
    CHECK ((to_account_id IS NULL) != (payee_id IS NULL))
);
CREATE INDEX transfers_customer ON transfers (customer_id, created_at);
CREATE INDEX transfers_from ON transfers (from_account_id);

CREATE TABLE transactions (
    transaction_id  TEXT PRIMARY KEY,
    account_id      TEXT NOT NULL REFERENCES accounts (account_id),
    card_id         TEXT REFERENCES cards (card_id),
    transfer_id     TEXT REFERENCES transfers (transfer_id),
    date            TEXT NOT NULL,
    description     TEXT NOT NULL,
    category        TEXT NOT NULL,
    kind            TEXT NOT NULL CHECK (kind IN ('card_purchase', 'deposit', 'atm_withdrawal',
                        'transfer_in', 'transfer_out', 'bill_payment', 'interest', 'fee')),
    amount          REAL NOT NULL,
    status          TEXT NOT NULL CHECK (status IN ('posted', 'pending'))
);
CREATE INDEX transactions_account ON transactions (account_id, date);
CREATE INDEX transactions_description ON transactions (description);

CREATE TABLE scheduled_payments (
    scheduled_payment_id  TEXT PRIMARY KEY,
    customer_id           TEXT NOT NULL REFERENCES customers (customer_id),
    from_account_id       TEXT NOT NULL REFERENCES accounts (account_id),
    payee_id              TEXT NOT NULL REFERENCES payees (payee_id),
    amount                REAL NOT NULL CHECK (amount > 0),
    frequency             TEXT NOT NULL CHECK (frequency IN ('once', 'weekly', 'monthly')),
    next_date             TEXT NOT NULL,
    status                TEXT NOT NULL CHECK (status IN ('active', 'cancelled')),
    memo                  TEXT NOT NULL DEFAULT ''
);
CREATE INDEX scheduled_customer ON scheduled_payments (customer_id);
CREATE INDEX scheduled_payee ON scheduled_payments (payee_id);

CREATE TABLE disputes (
    dispute_id      TEXT PRIMARY KEY,
    customer_id     TEXT NOT NULL REFERENCES customers (customer_id),
    transaction_id  TEXT NOT NULL UNIQUE REFERENCES transactions (transaction_id),
    reason          TEXT NOT NULL CHECK (reason IN
                        ('fraud', 'duplicate_charge', 'item_not_received', 'incorrect_amount')),
    amount          REAL NOT NULL,
    status          TEXT NOT NULL CHECK (status IN ('open', 'resolved', 'rejected')),
    filed_on        TEXT NOT NULL
);
CREATE INDEX disputes_customer ON disputes (customer_id);
