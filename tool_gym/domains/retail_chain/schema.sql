-- Retail chain: the stores of a chain as its staff see them. Employees (associates,
-- supervisors, managers) of each store, the product catalogue and its suppliers, per-store
-- inventory and shelf prices (with their history), stock transfers between stores, purchase
-- orders to suppliers, staff shifts and customers' store-pickup orders. Money is in dollars
-- (cents); dates are ISO text ('YYYY-MM-DD', times 'HH:MM', stamps 'YYYY-MM-DDTHH:MM:SS').

CREATE TABLE stores (
    store_id        TEXT PRIMARY KEY,
    name            TEXT NOT NULL UNIQUE,
    city            TEXT NOT NULL,
    region          TEXT NOT NULL CHECK (region IN ('West', 'Midwest', 'South', 'Northeast')),
    status          TEXT NOT NULL CHECK (status IN ('open', 'closed')),
    opened_on       TEXT NOT NULL
);

CREATE TABLE employees (
    employee_id       TEXT PRIMARY KEY,
    first_name        TEXT NOT NULL,
    last_name         TEXT NOT NULL,
    email             TEXT NOT NULL UNIQUE,
    username          TEXT NOT NULL UNIQUE,
    store_id          TEXT NOT NULL REFERENCES stores (store_id),
    role              TEXT NOT NULL CHECK (role IN ('associate', 'supervisor', 'manager')),
    employment_type   TEXT NOT NULL CHECK (employment_type IN ('full_time', 'part_time')),
    status            TEXT NOT NULL CHECK (status IN ('active', 'on_leave')),
    hired_on          TEXT NOT NULL
);
CREATE INDEX employees_store ON employees (store_id);

CREATE TABLE suppliers (
    supplier_id     TEXT PRIMARY KEY,
    name            TEXT NOT NULL UNIQUE,
    lead_time_days  INTEGER NOT NULL CHECK (lead_time_days BETWEEN 1 AND 60),
    email           TEXT NOT NULL
);

CREATE TABLE products (
    product_id      TEXT PRIMARY KEY,
    sku             TEXT NOT NULL UNIQUE,
    name            TEXT NOT NULL UNIQUE,
    brand           TEXT NOT NULL,
    category        TEXT NOT NULL,
    supplier_id     TEXT NOT NULL REFERENCES suppliers (supplier_id),
    base_price      REAL NOT NULL CHECK (base_price > 0),
    unit_cost       REAL NOT NULL CHECK (unit_cost > 0),
    case_size       INTEGER NOT NULL CHECK (case_size > 0),
    status          TEXT NOT NULL CHECK (status IN ('active', 'discontinued'))
);

CREATE TABLE inventory (
    store_id        TEXT NOT NULL REFERENCES stores (store_id),
    product_id      TEXT NOT NULL REFERENCES products (product_id),
    on_hand         INTEGER NOT NULL CHECK (on_hand >= 0),
    reserved        INTEGER NOT NULL CHECK (reserved >= 0),
    reorder_point   INTEGER NOT NULL CHECK (reorder_point >= 0),
    price           REAL NOT NULL CHECK (price > 0),
    PRIMARY KEY (store_id, product_id)
);
CREATE INDEX inventory_product ON inventory (product_id);

CREATE TABLE price_changes (
    change_id       TEXT PRIMARY KEY,
    store_id        TEXT NOT NULL REFERENCES stores (store_id),
    product_id      TEXT NOT NULL REFERENCES products (product_id),
    old_price       REAL NOT NULL CHECK (old_price > 0),
    new_price       REAL NOT NULL CHECK (new_price > 0),
    changed_by      TEXT NOT NULL REFERENCES employees (employee_id),
    changed_at      TEXT NOT NULL
);
CREATE INDEX price_changes_item ON price_changes (store_id, product_id);

CREATE TABLE transfers (
    transfer_id     TEXT PRIMARY KEY,
    product_id      TEXT NOT NULL REFERENCES products (product_id),
    from_store_id   TEXT NOT NULL REFERENCES stores (store_id),
    to_store_id     TEXT NOT NULL REFERENCES stores (store_id),
    quantity        INTEGER NOT NULL CHECK (quantity > 0),
    status          TEXT NOT NULL CHECK (status IN ('requested', 'in_transit', 'received',
                                                    'cancelled')),
    requested_by    TEXT NOT NULL REFERENCES employees (employee_id),
    created_at      TEXT NOT NULL,
    updated_at      TEXT NOT NULL,
    CHECK (from_store_id != to_store_id)
);
CREATE INDEX transfers_from ON transfers (from_store_id);
CREATE INDEX transfers_to ON transfers (to_store_id);

CREATE TABLE purchase_orders (
    po_id           TEXT PRIMARY KEY,
    store_id        TEXT NOT NULL REFERENCES stores (store_id),
    supplier_id     TEXT NOT NULL REFERENCES suppliers (supplier_id),
    product_id      TEXT NOT NULL REFERENCES products (product_id),
    quantity        INTEGER NOT NULL CHECK (quantity > 0),
    unit_cost       REAL NOT NULL CHECK (unit_cost > 0),
    status          TEXT NOT NULL CHECK (status IN ('submitted', 'received', 'cancelled')),
    created_by      TEXT NOT NULL REFERENCES employees (employee_id),
    created_at      TEXT NOT NULL,
    expected_on     TEXT NOT NULL
);
CREATE INDEX purchase_orders_store ON purchase_orders (store_id);

CREATE TABLE shifts (
    shift_id        TEXT PRIMARY KEY,
    employee_id     TEXT NOT NULL REFERENCES employees (employee_id),
    store_id        TEXT NOT NULL REFERENCES stores (store_id),
    date            TEXT NOT NULL,
    start_time      TEXT NOT NULL,
    end_time        TEXT NOT NULL,
    status          TEXT NOT NULL CHECK (status IN ('scheduled', 'completed', 'cancelled')),
    CHECK (start_time < end_time)
);
CREATE INDEX shifts_employee ON shifts (employee_id, date);
CREATE INDEX shifts_store ON shifts (store_id, date);

CREATE TABLE pickup_orders (
    order_id        TEXT PRIMARY KEY,
    store_id        TEXT NOT NULL REFERENCES stores (store_id),
    customer_name   TEXT NOT NULL,
    customer_phone  TEXT NOT NULL,
    status          TEXT NOT NULL CHECK (status IN ('pending', 'ready', 'picked_up',
                                                    'cancelled')),
    created_at      TEXT NOT NULL,
    pickup_by       TEXT NOT NULL
);
CREATE INDEX pickup_orders_store ON pickup_orders (store_id, status);

CREATE TABLE pickup_items (
    order_id        TEXT NOT NULL REFERENCES pickup_orders (order_id),
    product_id      TEXT NOT NULL REFERENCES products (product_id),
    quantity        INTEGER NOT NULL CHECK (quantity > 0),
    unit_price      REAL NOT NULL CHECK (unit_price > 0),
    PRIMARY KEY (order_id, product_id)
);
