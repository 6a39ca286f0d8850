-- Budget: a personal budgeting app. Users with accounts (checking, savings, credit cards,
-- cash), spending and income categories, monthly budgets per category, transactions and their
-- categories, recurring bills and savings goals. Money is stored in dollars, rounded to
-- cents; an outflow is a negative amount. Dates are ISO text ('YYYY-MM-DD'), months 'YYYY-MM'.

CREATE TABLE users (
    user_id      TEXT PRIMARY KEY,
    first_name   TEXT NOT NULL,
    last_name    TEXT NOT NULL,
    email        TEXT NOT NULL UNIQUE,
    username     TEXT NOT NULL UNIQUE,
    joined_on    TEXT NOT NULL
);

CREATE TABLE accounts (
    account_id       TEXT PRIMARY KEY,
    user_id          TEXT NOT NULL REFERENCES users (user_id),
    name             TEXT NOT NULL,
    kind             TEXT NOT NULL CHECK (kind IN ('checking', 'savings', 'credit_card', 'cash')),
    institution      TEXT NOT NULL,
    opening_balance  REAL NOT NULL,
    balance          REAL NOT NULL,
    credit_limit     REAL CHECK (credit_limit IS NULL OR credit_limit > 0),
    status           TEXT NOT NULL CHECK (status IN ('open', 'closed')),
    CHECK ((kind = 'credit_card') = (credit_limit IS NOT NULL)),
    UNIQUE (user_id, name)
);
CREATE INDEX accounts_user ON accounts (user_id);

CREATE TABLE categories (
    category_id  TEXT PRIMARY KEY,
    user_id      TEXT NOT NULL REFERENCES users (user_id),
    name         TEXT NOT NULL,
    kind         TEXT NOT NULL CHECK (kind IN ('expense', 'income')),
    group_name   TEXT NOT NULL CHECK (group_name IN ('essentials', 'lifestyle', 'financial',
                     'income')),
    status       TEXT NOT NULL CHECK (status IN ('active', 'archived')),
    UNIQUE (user_id, name)
);
CREATE INDEX categories_user ON categories (user_id);

CREATE TABLE budgets (
    budget_id    TEXT PRIMARY KEY,
    category_id  TEXT NOT NULL REFERENCES categories (category_id),
    month        TEXT NOT NULL CHECK (length(month) = 7),
    amount       REAL NOT NULL CHECK (amount >= 0),
    UNIQUE (category_id, month)
);

CREATE TABLE bills (
    bill_id      TEXT PRIMARY KEY,
    user_id      TEXT NOT NULL REFERENCES users (user_id),
    name         TEXT NOT NULL,
    amount       REAL NOT NULL CHECK (amount > 0),
    category_id  TEXT NOT NULL REFERENCES categories (category_id),
    account_id   TEXT NOT NULL REFERENCES accounts (account_id),
    frequency    TEXT NOT NULL CHECK (frequency IN ('weekly', 'monthly', 'yearly')),
    next_due     TEXT NOT NULL,
    status       TEXT NOT NULL CHECK (status IN ('active', 'cancelled'))
);
CREATE INDEX bills_user ON bills (user_id);

CREATE TABLE goals (
    goal_id        TEXT PRIMARY KEY,
    user_id        TEXT NOT NULL REFERENCES users (user_id),
    name           TEXT NOT NULL,
    target_amount  REAL NOT NULL CHECK (target_amount > 0),
    saved_amount   REAL NOT NULL CHECK (saved_amount >= 0),
    target_date    TEXT NOT NULL,
    status         TEXT NOT NULL CHECK (status IN ('active', 'completed')),
    created_on     TEXT NOT NULL,
    UNIQUE (user_id, name)
);
CREATE INDEX goals_user ON goals (user_id);

CREATE TABLE transactions (
    transaction_id  TEXT PRIMARY KEY,
    user_id         TEXT NOT NULL REFERENCES users (user_id),
    account_id      TEXT NOT NULL REFERENCES accounts (account_id),
    date            TEXT NOT NULL,
    payee           TEXT NOT NULL,
    amount          REAL NOT NULL CHECK (amount != 0),
    category_id     TEXT REFERENCES categories (category_id),
    memo            TEXT NOT NULL DEFAULT '',
    status          TEXT NOT NULL CHECK (status IN ('pending', 'cleared')),
    bill_id         TEXT REFERENCES bills (bill_id),
    goal_id         TEXT REFERENCES goals (goal_id),
    CHECK (goal_id IS NULL OR category_id IS NULL)
);
CREATE INDEX transactions_user ON transactions (user_id, date);
CREATE INDEX transactions_account ON transactions (account_id);
CREATE INDEX transactions_category ON transactions (category_id, date);
CREATE INDEX transactions_goal ON transactions (goal_id);
