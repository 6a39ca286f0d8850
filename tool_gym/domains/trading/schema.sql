-- Trading: investors, their brokerage accounts and linked banks, securities with their
-- quotes, holdings, buy and sell orders, cash deposits and withdrawals, dividends,
-- watchlists and price alerts. Money is in dollars, rounded to cents; share counts are
-- whole; dates are ISO text ('YYYY-MM-DD', times 'YYYY-MM-DDTHH:MM:SS').

CREATE TABLE investors (
    investor_id     TEXT PRIMARY KEY,
    first_name      TEXT NOT NULL,
    last_name       TEXT NOT NULL,
    email           TEXT NOT NULL UNIQUE,
    username        TEXT NOT NULL UNIQUE,
    phone           TEXT NOT NULL,
    city            TEXT NOT NULL,
    member_since    TEXT NOT NULL,
    risk_tolerance  TEXT NOT NULL CHECK (risk_tolerance IN
                        ('conservative', 'moderate', 'aggressive'))
);

CREATE TABLE accounts (
    account_id      TEXT PRIMARY KEY,
    investor_id     TEXT NOT NULL REFERENCES investors (investor_id),
    type            TEXT NOT NULL CHECK (type IN ('individual', 'joint', 'ira')),
    nickname        TEXT NOT NULL,
    account_number  TEXT NOT NULL UNIQUE,
    cash_balance    REAL NOT NULL CHECK (cash_balance >= 0),
    reserved_cash   REAL NOT NULL DEFAULT 0 CHECK (reserved_cash >= 0),
    status          TEXT NOT NULL CHECK (status IN ('open', 'restricted', 'closed')),
    opened_on       TEXT NOT NULL
);
CREATE INDEX accounts_investor ON accounts (investor_id);

CREATE TABLE bank_links (
    bank_link_id   TEXT PRIMARY KEY,
    investor_id    TEXT NOT NULL REFERENCES investors (investor_id),
    bank_name      TEXT NOT NULL,
    account_last4  TEXT NOT NULL CHECK (length(account_last4) = 4),
    status         TEXT NOT NULL CHECK (status IN ('verified', 'pending')),
    linked_on      TEXT NOT NULL,
    UNIQUE (investor_id, bank_name, account_last4)
);
CREATE INDEX bank_links_investor ON bank_links (investor_id);

CREATE TABLE securities (
    symbol           TEXT PRIMARY KEY,
    name             TEXT NOT NULL UNIQUE,
    kind             TEXT NOT NULL CHECK (kind IN ('stock', 'etf')),
    sector           TEXT NOT NULL,
    exchange         TEXT NOT NULL CHECK (exchange IN ('NYSE', 'NASDAQ')),
    last_price       REAL NOT NULL CHECK (last_price > 0),
    previous_close   REAL NOT NULL CHECK (previous_close > 0),
    day_high         REAL NOT NULL,
    day_low          REAL NOT NULL,
    annual_dividend  REAL NOT NULL DEFAULT 0 CHECK (annual_dividend >= 0),
    trading_status   TEXT NOT NULL CHECK (trading_status IN ('active', 'halted')),
    CHECK (day_low <= last_price AND last_price <= day_high)
);

CREATE TABLE holdings (
    holding_id          TEXT PRIMARY KEY,
    account_id          TEXT NOT NULL REFERENCES accounts (account_id),
    symbol              TEXT NOT NULL REFERENCES securities (symbol),
    quantity            INTEGER NOT NULL CHECK (quantity > 0),
    reserved_quantity   INTEGER NOT NULL DEFAULT 0
                            CHECK (reserved_quantity >= 0 AND reserved_quantity <= quantity),
    average_cost        REAL NOT NULL CHECK (average_cost > 0),
    reinvest_dividends  INTEGER NOT NULL DEFAULT 0 CHECK (reinvest_dividends IN (0, 1)),
    opened_on           TEXT NOT NULL,
    UNIQUE (account_id, symbol)
);
CREATE INDEX holdings_symbol ON holdings (symbol);

CREATE TABLE orders (
    order_id     TEXT PRIMARY KEY,
    account_id   TEXT NOT NULL REFERENCES accounts (account_id),
    symbol       TEXT NOT NULL REFERENCES securities (symbol),
    side         TEXT NOT NULL CHECK (side IN ('buy', 'sell')),
    order_type   TEXT NOT NULL CHECK (order_type IN ('market', 'limit')),
    quantity     INTEGER NOT NULL CHECK (quantity > 0),
    limit_price  REAL CHECK (limit_price IS NULL OR limit_price > 0),
    status       TEXT NOT NULL CHECK (status IN ('open', 'filled', 'cancelled')),
    fill_price   REAL CHECK (fill_price IS NULL OR fill_price > 0),
    placed_at    TEXT NOT NULL,
    closed_at    TEXT,
    CHECK ((order_type = 'limit') = (limit_price IS NOT NULL)),
    CHECK ((status = 'filled') = (fill_price IS NOT NULL)),
    CHECK ((status = 'open') = (closed_at IS NULL)),
    CHECK (order_type = 'limit' OR status = 'filled')
);
CREATE INDEX orders_account ON orders (account_id, status);

CREATE TABLE cash_transfers (
    transfer_id   TEXT PRIMARY KEY,
    account_id    TEXT NOT NULL REFERENCES accounts (account_id),
    bank_link_id  TEXT NOT NULL REFERENCES bank_links (bank_link_id),
    direction     TEXT NOT NULL CHECK (direction IN ('deposit', 'withdrawal')),
    amount        REAL NOT NULL CHECK (amount > 0),
    created_at    TEXT NOT NULL
);
CREATE INDEX cash_transfers_account ON cash_transfers (account_id, created_at);

CREATE TABLE dividends (
    dividend_id  TEXT PRIMARY KEY,
    account_id   TEXT NOT NULL REFERENCES accounts (account_id),
    symbol       TEXT NOT NULL REFERENCES securities (symbol),
    pay_date     TEXT NOT NULL,
    shares       INTEGER NOT NULL CHECK (shares > 0),
    per_share    REAL NOT NULL CHECK (per_share > 0),
    amount       REAL NOT NULL CHECK (amount > 0),
    reinvested   INTEGER NOT NULL CHECK (reinvested IN (0, 1))
);
CREATE INDEX dividends_account ON dividends (account_id, pay_date);

CREATE TABLE watchlists (
    watchlist_id  TEXT PRIMARY KEY,
    investor_id   TEXT NOT NULL REFERENCES investors (investor_id),
    name          TEXT NOT NULL,
    created_on    TEXT NOT NULL,
    UNIQUE (investor_id, name)
);
CREATE INDEX watchlists_investor ON watchlists (investor_id);

CREATE TABLE watchlist_items (
    watchlist_id  TEXT NOT NULL REFERENCES watchlists (watchlist_id),
    symbol        TEXT NOT NULL REFERENCES securities (symbol),
    added_on      TEXT NOT NULL,
    PRIMARY KEY (watchlist_id, symbol)
);

CREATE TABLE price_alerts (
    alert_id      TEXT PRIMARY KEY,
    investor_id   TEXT NOT NULL REFERENCES investors (investor_id),
    symbol        TEXT NOT NULL REFERENCES securities (symbol),
    direction     TEXT NOT NULL CHECK (direction IN ('above', 'below')),
    target_price  REAL NOT NULL CHECK (target_price > 0),
    status        TEXT NOT NULL CHECK (status IN ('active', 'triggered', 'cancelled')),
    created_on    TEXT NOT NULL,
    triggered_on  TEXT,
    CHECK ((status = 'triggered') = (triggered_on IS NOT NULL))
);
CREATE INDEX price_alerts_investor ON price_alerts (investor_id);
