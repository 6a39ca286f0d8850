"""The tools of the trading domain: 15 reads, 11 writes and a transfer to a human agent.

A brokerage: investors with individual, joint and IRA accounts, linked bank accounts,
securities with quotes, holdings, market and limit orders, cash deposits and withdrawals,
dividends, watchlists and price alerts.

The market is frozen at the broker's clock (``NOW``): every security trades at its
``last_price``. A market order fills at once at that price; a limit order fills at once at
that price when it is marketable (a buy limit at or above it, a sell limit at or below it),
and otherwise rests ``open``, reserving what it would use: the cash of a buy
(``quantity x limit_price``, in ``accounts.reserved_cash``) or the shares of a sell
(``holdings.reserved_quantity``). Buying power is cash minus reserved cash; the shares
available to sell are the quantity minus the reserved quantity. Cancelling an open order
releases its reservation.

Rules the tools enforce: orders only in accounts that are not closed, buys only in open
(not restricted) accounts, no trading in a halted security, no buy above the buying power
and no sale above the available shares, limit prices within 50% of the last price;
deposits and withdrawals only through a verified bank of the account's owner, at most
``MAX_DEPOSIT`` a deposit, IRA deposits within the yearly contribution limit, withdrawals
within the buying power. Withdrawals from an IRA are a policy rule the agent must apply
(the tool does not check it, as in tau2, where tools trust the agent).
"""

from __future__ import annotations

import sqlite3
from typing import Annotated, Literal

from ...core.arguments import check_cents
from ...core.common_tools import human_transfer_tool
from ...core.ids import counted_id
from ...core.rows import fetch_dicts, fetch_row, find_id
from ...core.tools import Category, Entity, Quotas, ToolError, tool

#: Growth bounds of one sandbox (templates hold about 3,000 orders and 4,000 dividends).
QUOTAS = Quotas(rows={"orders": 12_000, "cash_transfers": 8_000, "holdings": 6_000,
                      "watchlists": 2_000, "watchlist_items": 10_000, "price_alerts": 5_000})

#: The broker's clock (fixed, so that every episode is reproducible): a trading day.
TODAY = "2024-11-08"
NOW = "2024-11-08T11:30:00"
YEAR = TODAY[:4]
#: The most an IRA may receive in deposits in one calendar year.
IRA_CONTRIBUTION_LIMIT = 7000.0
#: The largest single deposit.
MAX_DEPOSIT = 50_000.0
#: A limit price must lie within this fraction of the last price.
LIMIT_BAND = 0.5
#: The most shares one order may trade.
MAX_QUANTITY = 100_000
MAX_ACTIVE_ALERTS = 25
MAX_WATCHLISTS = 10
MAX_WATCHLIST_SYMBOLS = 50
MAX_NAME = 40

InvestorId = Annotated[str, Entity("investor_id")]
AccountId = Annotated[str, Entity("account_id")]
BankLinkId = Annotated[str, Entity("bank_link_id")]
Symbol = Annotated[str, Entity("symbol")]
OrderId = Annotated[str, Entity("order_id")]
WatchlistId = Annotated[str, Entity("watchlist_id")]
AlertId = Annotated[str, Entity("alert_id")]

Side = Literal["buy", "sell"]
Direction = Literal["above", "below"]
OrderStatus = Literal["all", "open", "filled", "cancelled"]


def money(value: float) -> float:
    """A dollar amount rounded to cents (the one rounding used everywhere)."""
    return round(float(value) + 0.0, 2)


def buying_power(cash: float, reserved: float) -> float:
    return money(cash - reserved)


def ira_contributions(db: sqlite3.Connection, account_id: str) -> float:
    """Deposits into ``account_id`` this calendar year."""
    (total,) = db.execute(
        "SELECT coalesce(sum(amount), 0) FROM cash_transfers WHERE account_id = ? "
        "AND direction = 'deposit' AND substr(created_at, 1, 4) = ?",
        (account_id, YEAR)).fetchone()
    return money(total)


# ------------------------------------------------------------------------- records

_ACCOUNT_COLUMNS = ("account_id", "investor_id", "type", "nickname", "account_number",
                    "cash_balance", "reserved_cash", "status", "opened_on")
_SECURITY_COLUMNS = ("symbol", "name", "kind", "sector", "exchange", "last_price",
                     "previous_close", "day_high", "day_low", "annual_dividend",
                     "trading_status")
_ORDER_COLUMNS = ("order_id", "account_id", "symbol", "side", "order_type", "quantity",
                  "limit_price", "status", "fill_price", "placed_at", "closed_at")


def _investor(db: sqlite3.Connection, investor_id: str) -> tuple:
    return fetch_row(db, "SELECT investor_id, first_name, last_name, email, username, phone, "
                     "city, member_since, risk_tolerance FROM investors WHERE investor_id = ?",
                     (investor_id,), f"Investor {investor_id!r} not found.")


def _account(db: sqlite3.Connection, account_id: str) -> dict:
    row = fetch_row(db, f"SELECT {', '.join(_ACCOUNT_COLUMNS)} FROM accounts "
                    "WHERE account_id = ?", (account_id,), f"Account {account_id!r} not found.")
    return dict(zip(_ACCOUNT_COLUMNS, row))


def _account_record(db: sqlite3.Connection, a: dict) -> dict:
    record = {"account_id": a["account_id"], "investor_id": a["investor_id"],
              "type": a["type"], "nickname": a["nickname"],
              "account_number_last4": a["account_number"][-4:],
              "cash_balance": a["cash_balance"], "reserved_cash": a["reserved_cash"],
              "buying_power": buying_power(a["cash_balance"], a["reserved_cash"]),
              "status": a["status"], "opened_on": a["opened_on"]}
    if a["type"] == "ira":
        used = ira_contributions(db, a["account_id"])
        record["contributions_this_year"] = used
        record["contribution_room_left"] = money(IRA_CONTRIBUTION_LIMIT - used)
    return record


def _security(db: sqlite3.Connection, symbol: str) -> dict:
    if not isinstance(symbol, str) or not symbol.strip():
        raise ToolError("The symbol must not be empty.")
    row = fetch_row(db, f"SELECT {', '.join(_SECURITY_COLUMNS)} FROM securities "
                    "WHERE symbol = ?", (symbol.strip().upper(),),
                    f"No security with the symbol {symbol.strip()[:20]!r}.")
    return dict(zip(_SECURITY_COLUMNS, row))


def _bank_link(db: sqlite3.Connection, bank_link_id: str) -> dict:
    keys = ("bank_link_id", "investor_id", "bank_name", "account_last4", "status", "linked_on")
    row = fetch_row(db, f"SELECT {', '.join(keys)} FROM bank_links WHERE bank_link_id = ?",
                    (bank_link_id,), f"Linked bank {bank_link_id!r} not found.")
    return dict(zip(keys, row))


def _holding(db: sqlite3.Connection, account_id: str, symbol: str) -> dict | None:
    keys = ("holding_id", "quantity", "reserved_quantity", "average_cost",
            "reinvest_dividends")
    row = db.execute(f"SELECT {', '.join(keys)} FROM holdings WHERE account_id = ? "
                     "AND symbol = ?", (account_id, symbol)).fetchone()
    return None if row is None else dict(zip(keys, row))


def _order(db: sqlite3.Connection, order_id: str) -> dict:
    row = fetch_row(db, f"SELECT {', '.join(_ORDER_COLUMNS)} FROM orders WHERE order_id = ?",
                    (order_id,), f"Order {order_id!r} not found.")
    return dict(zip(_ORDER_COLUMNS, row))


def _owned_ids(db: sqlite3.Connection, table: str, id_column: str, investor_id: str) -> list:
    return [r[0] for r in db.execute(f"SELECT {id_column} FROM {table} WHERE investor_id = ? "
                                     "ORDER BY rowid", (investor_id,))]


def _check_quantity(quantity: int) -> int:
    if not isinstance(quantity, int) or isinstance(quantity, bool):
        raise ToolError("The quantity must be a whole number of shares.")
    if quantity <= 0:
        raise ToolError("The quantity must be at least 1 share.")
    if quantity > MAX_QUANTITY:
        raise ToolError(f"At most {MAX_QUANTITY} shares can be traded in one order.")
    return quantity


def _check_tradable(account: dict, security: dict, side: str) -> None:
    if account["status"] == "closed":
        raise ToolError(f"Account {account['account_id']} is closed.")
    if side == "buy" and account["status"] == "restricted":
        raise ToolError(f"Account {account['account_id']} is restricted to closing trades: "
                        "shares can be sold but not bought.")
    if security["trading_status"] == "halted":
        raise ToolError(f"Trading in {security['symbol']} is halted.")


def _check_buy(account: dict, cost: float) -> None:
    power = buying_power(account["cash_balance"], account["reserved_cash"])
    if cost > power:
        raise ToolError(f"Insufficient buying power: {power:.2f} available in account "
                        f"{account['account_id']}, {cost:.2f} needed.")


def _check_sell(holding: dict | None, security: dict, quantity: int) -> None:
    if holding is None:
        raise ToolError(f"The account holds no shares of {security['symbol']}.")
    available = holding["quantity"] - holding["reserved_quantity"]
    if quantity > available:
        raise ToolError(f"Not enough shares: the account holds {holding['quantity']} shares "
                        f"of {security['symbol']}, {available} of them available to sell; "
                        f"{quantity} requested.")


def _fill(db: sqlite3.Connection, account: dict, security: dict, side: str,
          quantity: int) -> float:
    """Execute a trade at the last price: cash and holdings change; the cash moved."""
    price = security["last_price"]
    value = money(quantity * price)
    account_id, symbol = account["account_id"], security["symbol"]
    holding = _holding(db, account_id, symbol)
    if side == "buy":
        db.execute("UPDATE accounts SET cash_balance = ? WHERE account_id = ?",
                   (money(account["cash_balance"] - value), account_id))
        if holding is None:
            holding_id = counted_id(db, "holdings", "holding_id", "hld_")
            db.execute("INSERT INTO holdings (holding_id, account_id, symbol, quantity, "
                       "reserved_quantity, average_cost, reinvest_dividends, opened_on) "
                       "VALUES (?, ?, ?, ?, 0, ?, 0, ?)",
                       (holding_id, account_id, symbol, quantity, price, TODAY))
        else:
            total = holding["quantity"] + quantity
            cost = money((holding["quantity"] * holding["average_cost"] + value) / total)
            db.execute("UPDATE holdings SET quantity = ?, average_cost = ? WHERE holding_id = ?",
                       (total, cost, holding["holding_id"]))
    else:
        db.execute("UPDATE accounts SET cash_balance = ? WHERE account_id = ?",
                   (money(account["cash_balance"] + value), account_id))
        left = holding["quantity"] - quantity
        if left == 0:
            db.execute("DELETE FROM holdings WHERE holding_id = ?", (holding["holding_id"],))
        else:
            db.execute("UPDATE holdings SET quantity = ? WHERE holding_id = ?",
                       (left, holding["holding_id"]))
    return value


def _insert_order(db: sqlite3.Connection, account_id: str, symbol: str, side: str,
                  order_type: str, quantity: int, limit_price: float | None,
                  fill_price: float | None) -> str:
    order_id = counted_id(db, "orders", "order_id", "ord_")
    status = "open" if fill_price is None else "filled"
    db.execute("INSERT INTO orders (order_id, account_id, symbol, side, order_type, quantity, "
               "limit_price, status, fill_price, placed_at, closed_at) "
               "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
               (order_id, account_id, symbol, side, order_type, quantity, limit_price, status,
                fill_price, NOW, None if fill_price is None else NOW))
    return order_id


def _order_result(db: sqlite3.Connection, order_id: str) -> dict:
    order = _order(db, order_id)
    account = _account(db, order["account_id"])
    order["cash_balance"] = account["cash_balance"]
    order["buying_power"] = buying_power(account["cash_balance"], account["reserved_cash"])
    return order


# --------------------------------------------------------------------------- READ


@tool(Category.READ, returns={".": InvestorId})
def find_investor_by_email(db, email: str) -> str:
    """Find an investor's id by the email address on their profile. Use it to authenticate
    the investor before anything else.

    Args:
        email: The investor's email address, such as 'jane.doe12@example.com'.
    """
    return find_id(db, "investors", "investor_id", "email", email.strip().lower(),
                   "No investor found with this email address.")


@tool(Category.READ, returns={".": InvestorId})
def find_investor_by_username(db, username: str) -> str:
    """Find an investor's id by their login username. Use it to authenticate the investor
    before anything else.

    Args:
        username: The investor's username, such as 'jdoe42'.
    """
    return find_id(db, "investors", "investor_id", "username", username.strip().lower(),
                   "No investor found with this username.")


@tool(Category.READ, returns={"investor_id": InvestorId, "account_ids": AccountId,
                              "bank_link_ids": BankLinkId})
def get_investor_profile(db, investor_id: InvestorId) -> dict:
    """Get an investor's profile: name, contact details, risk tolerance, and the ids of
    their brokerage accounts and linked bank accounts.

    Args:
        investor_id: The investor's id, such as 'inv_a1b2c3d4'.
    """
    row = _investor(db, investor_id)
    keys = ("investor_id", "first_name", "last_name", "email", "username", "phone", "city",
            "member_since", "risk_tolerance")
    profile = dict(zip(keys, row))
    profile["account_ids"] = _owned_ids(db, "accounts", "account_id", investor_id)
    profile["bank_link_ids"] = _owned_ids(db, "bank_links", "bank_link_id", investor_id)
    return profile


@tool(Category.READ, returns={"investor_id": InvestorId, "accounts.account_id": AccountId})
def list_accounts(db, investor_id: InvestorId) -> dict:
    """List an investor's brokerage accounts: type (individual, joint or ira), nickname,
    last four digits of the account number, cash balance, cash reserved by open buy
    orders, buying power (cash minus reserved cash), status, and for an IRA this year's
    contributions and the contribution room left.

    Args:
        investor_id: The investor's id.
    """
    _investor(db, investor_id)
    rows = db.execute(f"SELECT {', '.join(_ACCOUNT_COLUMNS)} FROM accounts "
                      "WHERE investor_id = ? ORDER BY rowid", (investor_id,)).fetchall()
    return {"investor_id": investor_id,
            "accounts": [_account_record(db, dict(zip(_ACCOUNT_COLUMNS, r))) for r in rows]}


@tool(Category.READ, returns={"account_id": AccountId, "investor_id": InvestorId})
def get_account_summary(db, account_id: AccountId) -> dict:
    """Get the totals of one brokerage account: cash, buying power, the market value of
    its holdings at the last prices, the total account value (cash plus holdings), the
    unrealized gain of the holdings, and the number of positions and open orders.

    Args:
        account_id: The account's id, such as 'acc_k3j9x0p2'.
    """
    account = _account(db, account_id)
    value, cost, positions = db.execute(
        "SELECT coalesce(sum(h.quantity * s.last_price), 0), "
        "coalesce(sum(h.quantity * h.average_cost), 0), count(*) FROM holdings h "
        "JOIN securities s ON s.symbol = h.symbol WHERE h.account_id = ?",
        (account_id,)).fetchone()
    (open_orders,) = db.execute("SELECT count(*) FROM orders WHERE account_id = ? "
                                "AND status = 'open'", (account_id,)).fetchone()
    return {"account_id": account_id, "investor_id": account["investor_id"],
            "type": account["type"], "status": account["status"],
            "cash_balance": account["cash_balance"],
            "buying_power": buying_power(account["cash_balance"], account["reserved_cash"]),
            "holdings_value": money(value),
            "total_value": money(account["cash_balance"] + money(value)),
            "unrealized_gain": money(value - cost), "positions": positions,
            "open_orders": open_orders}


@tool(Category.READ, returns={"investor_id": InvestorId, "banks.bank_link_id": BankLinkId})
def list_linked_banks(db, investor_id: InvestorId) -> dict:
    """List the bank accounts an investor has linked for deposits and withdrawals: bank
    name, last four digits and status (verified or pending verification).

    Args:
        investor_id: The investor's id.
    """
    _investor(db, investor_id)
    banks = fetch_dicts(db, ("bank_link_id", "bank_name", "account_last4", "status",
                             "linked_on"),
                        "SELECT bank_link_id, bank_name, account_last4, status, linked_on "
                        "FROM bank_links WHERE investor_id = ? ORDER BY rowid", (investor_id,))
    return {"investor_id": investor_id, "banks": banks}


@tool(Category.READ, returns={"symbol": Symbol})
def get_quote(db, symbol: Symbol) -> dict:
    """Get the quote of a stock or ETF: name, last price, previous close, change, the
    day's range, annual dividend per share and yield, and whether trading is active or
    halted.

    Args:
        symbol: The ticker symbol, such as 'AAPL'.
    """
    s = _security(db, symbol)
    change = money(s["last_price"] - s["previous_close"])
    s["change"] = change
    s["change_percent"] = round(100 * change / s["previous_close"], 2)
    s["dividend_yield_percent"] = round(100 * s["annual_dividend"] / s["last_price"], 2)
    return s


@tool(Category.READ, returns={"results.symbol": Symbol})
def search_securities(db, query: str = "", sector: str = "") -> dict:
    """Search stocks and ETFs by ticker symbol or name (case-insensitive, part of a word
    is enough), optionally within a sector; at most 25 results.

    Args:
        query: Text to find in the symbol or name, such as 'apple' (empty: any).
        sector: Only this sector, such as 'Technology' (empty: any).
    """
    if not query.strip() and not sector.strip():
        raise ToolError("Give a query or a sector to search.")
    rows = fetch_dicts(db, ("symbol", "name", "kind", "sector", "last_price",
                            "trading_status"),
                       "SELECT symbol, name, kind, sector, last_price, trading_status "
                       "FROM securities WHERE (instr(lower(symbol), lower(?)) > 0 "
                       "OR instr(lower(name), lower(?)) > 0) "
                       "AND (? = '' OR lower(sector) = lower(?)) ORDER BY symbol LIMIT 25",
                       (query.strip(), query.strip(), sector.strip(), sector.strip()))
    return {"query": query, "sector": sector, "results": rows}


@tool(Category.READ, returns={"account_id": AccountId, "holdings.symbol": Symbol})
def list_holdings(db, account_id: AccountId) -> dict:
    """List the positions of a brokerage account: symbol, name, shares held, shares
    available to sell (not reserved by open sell orders), average cost per share, last
    price, market value, unrealized gain and whether dividends are reinvested.

    Args:
        account_id: The account's id.
    """
    _account(db, account_id)
    rows = db.execute(
        "SELECT h.symbol, s.name, h.quantity, h.reserved_quantity, h.average_cost, "
        "s.last_price, h.reinvest_dividends FROM holdings h JOIN securities s "
        "ON s.symbol = h.symbol WHERE h.account_id = ? ORDER BY h.rowid",
        (account_id,)).fetchall()
    holdings = []
    for symbol, name, quantity, reserved, cost, price, drip in rows:
        holdings.append({
            "symbol": symbol, "name": name, "quantity": quantity,
            "available_quantity": quantity - reserved, "average_cost": cost,
            "last_price": price, "market_value": money(quantity * price),
            "unrealized_gain": money(quantity * price - money(quantity * cost)),
            "reinvest_dividends": bool(drip)})
    return {"account_id": account_id, "holdings": holdings}


@tool(Category.READ, returns={"account_id": AccountId, "orders.order_id": OrderId,
                              "orders.symbol": Symbol})
def list_orders(db, account_id: AccountId, status: OrderStatus = "all") -> dict:
    """List the orders of a brokerage account, newest first: symbol, buy or sell, market
    or limit, quantity, limit price, status (open, filled or cancelled) and fill price.

    Args:
        account_id: The account's id.
        status: Only orders with this status ('all' for every order).
    """
    _account(db, account_id)
    rows = fetch_dicts(db, _ORDER_COLUMNS,
                       f"SELECT {', '.join(_ORDER_COLUMNS)} FROM orders WHERE account_id = ? "
                       "AND (? = 'all' OR status = ?) ORDER BY placed_at DESC, rowid DESC",
                       (account_id, status, status))
    return {"account_id": account_id, "status": status, "orders": rows}


@tool(Category.READ, returns={"order_id": OrderId, "account_id": AccountId, "symbol": Symbol})
def get_order(db, order_id: OrderId) -> dict:
    """Get one order: its account, symbol, side, type, quantity, limit price, status,
    fill price and times.

    Args:
        order_id: The order's id, such as 'ord_x8k2m4p1'.
    """
    return _order(db, order_id)


@tool(Category.READ, returns={"account_id": AccountId, "dividends.symbol": Symbol})
def list_dividends(db, account_id: AccountId, year: int = 0, symbol: str = "") -> dict:
    """List the dividends paid into a brokerage account, newest first, optionally for one
    calendar year and/or one symbol, with their total.

    Args:
        account_id: The account's id.
        year: Only dividends paid in this year, such as 2024 (0 for every year).
        symbol: Only dividends of this ticker symbol (empty for all).
    """
    _account(db, account_id)
    if year and not 1900 <= year <= 2100:
        raise ToolError("The year must be between 1900 and 2100 (or 0 for every year).")
    rows = fetch_dicts(db, ("dividend_id", "symbol", "pay_date", "shares", "per_share",
                            "amount", "reinvested"),
                       "SELECT dividend_id, symbol, pay_date, shares, per_share, amount, "
                       "reinvested FROM dividends WHERE account_id = ? "
                       "AND (? = 0 OR substr(pay_date, 1, 4) = ?) "
                       "AND (? = '' OR symbol = upper(?)) ORDER BY pay_date DESC, rowid DESC",
                       (account_id, year, f"{year:04d}", symbol.strip(), symbol.strip()))
    for r in rows:
        r["reinvested"] = bool(r["reinvested"])
    return {"account_id": account_id, "year": year, "symbol": symbol, "dividends": rows,
            "total": money(sum(r["amount"] for r in rows))}


@tool(Category.READ, returns={"account_id": AccountId,
                              "transfers.bank_link_id": BankLinkId})
def list_cash_transfers(db, account_id: AccountId) -> dict:
    """List the deposits into and withdrawals from a brokerage account, newest first, with
    the linked bank used.

    Args:
        account_id: The account's id.
    """
    _account(db, account_id)
    rows = fetch_dicts(db, ("transfer_id", "direction", "amount", "bank_link_id",
                            "bank_name", "created_at"),
                       "SELECT t.transfer_id, t.direction, t.amount, t.bank_link_id, "
                       "b.bank_name, t.created_at FROM cash_transfers t JOIN bank_links b "
                       "ON b.bank_link_id = t.bank_link_id WHERE t.account_id = ? "
                       "ORDER BY t.created_at DESC, t.rowid DESC", (account_id,))
    return {"account_id": account_id, "transfers": rows}


@tool(Category.READ, returns={"investor_id": InvestorId,
                              "watchlists.watchlist_id": WatchlistId,
                              "watchlists.symbols": Symbol})
def list_watchlists(db, investor_id: InvestorId) -> dict:
    """List an investor's watchlists with the symbols on each.

    Args:
        investor_id: The investor's id.
    """
    _investor(db, investor_id)
    lists = fetch_dicts(db, ("watchlist_id", "name", "created_on"),
                        "SELECT watchlist_id, name, created_on FROM watchlists "
                        "WHERE investor_id = ? ORDER BY rowid", (investor_id,))
    for w in lists:
        w["symbols"] = [r[0] for r in db.execute(
            "SELECT symbol FROM watchlist_items WHERE watchlist_id = ? ORDER BY rowid",
            (w["watchlist_id"],))]
    return {"investor_id": investor_id, "watchlists": lists}


@tool(Category.READ, returns={"investor_id": InvestorId, "alerts.alert_id": AlertId,
                              "alerts.symbol": Symbol})
def list_price_alerts(db, investor_id: InvestorId) -> dict:
    """List an investor's price alerts: symbol, direction (above or below), target price
    and status (active, triggered or cancelled).

    Args:
        investor_id: The investor's id.
    """
    _investor(db, investor_id)
    alerts = fetch_dicts(db, ("alert_id", "symbol", "direction", "target_price", "status",
                              "created_on", "triggered_on"),
                         "SELECT alert_id, symbol, direction, target_price, status, "
                         "created_on, triggered_on FROM price_alerts WHERE investor_id = ? "
                         "ORDER BY rowid", (investor_id,))
    return {"investor_id": investor_id, "alerts": alerts}


transfer_to_human_agents = human_transfer_tool(
    "Transfer the investor to a human agent, with a summary of their issue. Only transfer "
    "if the investor explicitly asks for a human agent, or if the request cannot be "
    "handled with the policy and the available tools.",
    "A summary of the investor's issue.")


# -------------------------------------------------------------------------- WRITE


@tool(Category.WRITE, returns={"order_id": OrderId, "account_id": AccountId, "symbol": Symbol},
      writes=("order_id", "account_id"), needs=("account_id",))
def place_market_order(db, account_id: AccountId, symbol: Symbol, side: Side,
                       quantity: int) -> dict:
    """Buy or sell shares at the current market price; the order fills at once. A buy may
    not cost more than the account's buying power; a sale may not exceed the shares
    available to sell. Confirm the details with the investor (explicit yes) before calling.

    Args:
        account_id: The brokerage account that trades.
        symbol: The ticker symbol, such as 'AAPL'.
        side: 'buy' or 'sell'.
        quantity: The number of shares, a whole number of at least 1.
    """
    quantity = _check_quantity(quantity)
    account = _account(db, account_id)
    security = _security(db, symbol)
    _check_tradable(account, security, side)
    if side == "buy":
        _check_buy(account, money(quantity * security["last_price"]))
    else:
        _check_sell(_holding(db, account_id, security["symbol"]), security, quantity)
    _fill(db, account, security, side, quantity)
    order_id = _insert_order(db, account_id, security["symbol"], side, "market", quantity,
                             None, security["last_price"])
    return _order_result(db, order_id)


@tool(Category.WRITE, returns={"order_id": OrderId, "account_id": AccountId, "symbol": Symbol},
      writes=("order_id", "account_id"), needs=("account_id",))
def place_limit_order(db, account_id: AccountId, symbol: Symbol, side: Side, quantity: int,
                      limit_price: float) -> dict:
    """Buy or sell shares at a limit price. A marketable order (a buy limit at or above the
    last price, a sell limit at or below it) fills at once at the last price; any other
    rests open until cancelled, reserving the cash of a buy (quantity x limit price) or the
    shares of a sale. The limit price must lie within 50% of the last price. Confirm the
    details with the investor (explicit yes) before calling.

    Args:
        account_id: The brokerage account that trades.
        symbol: The ticker symbol, such as 'AAPL'.
        side: 'buy' or 'sell'.
        quantity: The number of shares, a whole number of at least 1.
        limit_price: The limit price per share in dollars, at most two decimals.
    """
    quantity = _check_quantity(quantity)
    limit_price = check_cents(limit_price)
    account = _account(db, account_id)
    security = _security(db, symbol)
    _check_tradable(account, security, side)
    last = security["last_price"]
    low, high = money(last * (1 - LIMIT_BAND)), money(last * (1 + LIMIT_BAND))
    if not low <= limit_price <= high:
        raise ToolError(f"The limit price must be between {low:.2f} and {high:.2f} (within "
                        f"50% of the last price {last:.2f}).")
    symbol = security["symbol"]
    holding = _holding(db, account_id, symbol)
    marketable = limit_price >= last if side == "buy" else limit_price <= last
    if side == "buy":
        _check_buy(account, money(quantity * (last if marketable else limit_price)))
    else:
        _check_sell(holding, security, quantity)
    if marketable:
        _fill(db, account, security, side, quantity)
        order_id = _insert_order(db, account_id, symbol, side, "limit", quantity, limit_price,
                                 last)
    elif side == "buy":
        db.execute("UPDATE accounts SET reserved_cash = ? WHERE account_id = ?",
                   (money(account["reserved_cash"] + money(quantity * limit_price)),
                    account_id))
        order_id = _insert_order(db, account_id, symbol, side, "limit", quantity, limit_price,
                                 None)
    else:
        db.execute("UPDATE holdings SET reserved_quantity = reserved_quantity + ? "
                   "WHERE holding_id = ?", (quantity, holding["holding_id"]))
        order_id = _insert_order(db, account_id, symbol, side, "limit", quantity, limit_price,
                                 None)
    return _order_result(db, order_id)


@tool(Category.WRITE, returns={"order_id": OrderId, "account_id": AccountId},
      writes=("order_id", "account_id"), needs=("order_id",))
def cancel_order(db, order_id: OrderId) -> dict:
    """Cancel an open limit order, releasing the cash or shares it reserved. Filled and
    cancelled orders cannot be cancelled. Confirm with the investor (explicit yes) before
    calling.

    Args:
        order_id: The order's id.
    """
    order = _order(db, order_id)
    if order["status"] != "open":
        raise ToolError(f"Order {order_id} is {order['status']}: only an open order can be "
                        "cancelled.")
    if order["side"] == "buy":
        account = _account(db, order["account_id"])
        db.execute("UPDATE accounts SET reserved_cash = ? WHERE account_id = ?",
                   (money(account["reserved_cash"]
                          - money(order["quantity"] * order["limit_price"])),
                    order["account_id"]))
    else:
        db.execute("UPDATE holdings SET reserved_quantity = reserved_quantity - ? "
                   "WHERE account_id = ? AND symbol = ?",
                   (order["quantity"], order["account_id"], order["symbol"]))
    db.execute("UPDATE orders SET status = 'cancelled', closed_at = ? WHERE order_id = ?",
               (NOW, order_id))
    return _order_result(db, order_id)


def _cash_move(db: sqlite3.Connection, account_id: str, bank_link_id: str,
               amount: float) -> tuple[dict, dict, float]:
    """The checks deposits and withdrawals share: the account, the bank link, the amount."""
    amount = check_cents(amount)
    account = _account(db, account_id)
    bank = _bank_link(db, bank_link_id)
    if account["status"] == "closed":
        raise ToolError(f"Account {account_id} is closed.")
    if bank["investor_id"] != account["investor_id"]:
        raise ToolError("The linked bank does not belong to the owner of the account.")
    if bank["status"] != "verified":
        raise ToolError(f"The linked bank ({bank['bank_name']} ending {bank['account_last4']}) "
                        "is not verified yet.")
    return account, bank, amount


def _record_transfer(db: sqlite3.Connection, account: dict, bank: dict, direction: str,
                     amount: float, balance: float) -> dict:
    transfer_id = counted_id(db, "cash_transfers", "transfer_id", "trf_")
    db.execute("INSERT INTO cash_transfers (transfer_id, account_id, bank_link_id, direction, "
               "amount, created_at) VALUES (?, ?, ?, ?, ?, ?)",
               (transfer_id, account["account_id"], bank["bank_link_id"], direction, amount,
                NOW))
    db.execute("UPDATE accounts SET cash_balance = ? WHERE account_id = ?",
               (balance, account["account_id"]))
    return {"transfer_id": transfer_id, "account_id": account["account_id"],
            "bank_link_id": bank["bank_link_id"], "direction": direction, "amount": amount,
            "created_at": NOW, "cash_balance": balance,
            "buying_power": buying_power(balance, account["reserved_cash"])}


@tool(Category.WRITE, returns={"transfer_id": "transfer_id", "account_id": AccountId,
                               "bank_link_id": BankLinkId},
      writes=("account_id", "transfer_id"), needs=("bank_link_id",))
def deposit_funds(db, account_id: AccountId, bank_link_id: BankLinkId, amount: float) -> dict:
    """Deposit cash into a brokerage account from one of the owner's verified linked
    banks, at most 50000.00 at a time; an IRA may receive at most 7000.00 a calendar year.
    Confirm the details with the investor (explicit yes) before calling.

    Args:
        account_id: The brokerage account that receives the money.
        bank_link_id: The linked bank the money comes from.
        amount: The amount in dollars, positive, at most two decimals.
    """
    account, bank, amount = _cash_move(db, account_id, bank_link_id, amount)
    if amount > MAX_DEPOSIT:
        raise ToolError(f"A deposit may be at most {MAX_DEPOSIT:.2f}.")
    if account["type"] == "ira":
        used = ira_contributions(db, account_id)
        if money(used + amount) > IRA_CONTRIBUTION_LIMIT:
            raise ToolError(f"IRA contribution limit exceeded: {used:.2f} of "
                            f"{IRA_CONTRIBUTION_LIMIT:.2f} already contributed this year, "
                            f"{amount:.2f} requested.")
    return _record_transfer(db, account, bank, "deposit", amount,
                            money(account["cash_balance"] + amount))


@tool(Category.WRITE, returns={"transfer_id": "transfer_id", "account_id": AccountId,
                               "bank_link_id": BankLinkId},
      writes=("account_id", "transfer_id"), needs=("bank_link_id",))
def withdraw_funds(db, account_id: AccountId, bank_link_id: BankLinkId, amount: float) -> dict:
    """Withdraw cash from a brokerage account to one of the owner's verified linked banks;
    the amount may not exceed the buying power (cash not reserved by open orders). Check
    the policy first. Confirm the details with the investor (explicit yes) before calling.

    Args:
        account_id: The brokerage account the money leaves.
        bank_link_id: The linked bank that receives the money.
        amount: The amount in dollars, positive, at most two decimals.
    """
    account, bank, amount = _cash_move(db, account_id, bank_link_id, amount)
    power = buying_power(account["cash_balance"], account["reserved_cash"])
    if amount > power:
        raise ToolError(f"Insufficient cash: {power:.2f} can be withdrawn from account "
                        f"{account_id}, {amount:.2f} requested.")
    return _record_transfer(db, account, bank, "withdrawal", amount,
                            money(account["cash_balance"] - amount))


@tool(Category.WRITE, returns={"account_id": AccountId, "symbol": Symbol},
      writes=("account_id",), needs=("symbol",))
def set_dividend_reinvestment(db, account_id: AccountId, symbol: Symbol,
                              enabled: bool) -> dict:
    """Turn automatic dividend reinvestment on or off for one position of an account (the
    security must pay a dividend). Confirm with the investor (explicit yes) before calling.

    Args:
        account_id: The brokerage account that holds the position.
        symbol: The ticker symbol of the position.
        enabled: true to reinvest the dividends in more shares, false to receive cash.
    """
    if not isinstance(enabled, bool):
        raise ToolError("enabled must be true or false.")
    account = _account(db, account_id)
    security = _security(db, symbol)
    if account["status"] == "closed":
        raise ToolError(f"Account {account_id} is closed.")
    holding = _holding(db, account_id, security["symbol"])
    if holding is None:
        raise ToolError(f"The account holds no shares of {security['symbol']}.")
    if security["annual_dividend"] <= 0:
        raise ToolError(f"{security['symbol']} pays no dividend.")
    if bool(holding["reinvest_dividends"]) == enabled:
        raise ToolError(f"Dividend reinvestment for {security['symbol']} is already "
                        f"{'on' if enabled else 'off'}.")
    db.execute("UPDATE holdings SET reinvest_dividends = ? WHERE holding_id = ?",
               (int(enabled), holding["holding_id"]))
    return {"account_id": account_id, "symbol": security["symbol"],
            "reinvest_dividends": enabled}


def _watchlist(db: sqlite3.Connection, watchlist_id: str) -> dict:
    row = fetch_row(db, "SELECT watchlist_id, investor_id, name FROM watchlists "
                    "WHERE watchlist_id = ?", (watchlist_id,),
                    f"Watchlist {watchlist_id!r} not found.")
    return {"watchlist_id": row[0], "investor_id": row[1], "name": row[2]}


def _watchlist_record(db: sqlite3.Connection, watchlist_id: str) -> dict:
    record = _watchlist(db, watchlist_id)
    record["symbols"] = [r[0] for r in db.execute(
        "SELECT symbol FROM watchlist_items WHERE watchlist_id = ? ORDER BY rowid",
        (watchlist_id,))]
    return record


@tool(Category.WRITE, returns={"watchlist_id": WatchlistId, "investor_id": InvestorId},
      writes=("watchlist_id",))
def create_watchlist(db, investor_id: InvestorId, name: str) -> dict:
    """Create an empty watchlist for an investor (at most 10 watchlists, names unique).
    Confirm with the investor (explicit yes) before calling.

    Args:
        investor_id: The investor's id.
        name: The watchlist's name, 1 to 40 characters.
    """
    _investor(db, investor_id)
    name = " ".join(name.split())
    if not name:
        raise ToolError("The watchlist name must not be empty.")
    if len(name) > MAX_NAME:
        raise ToolError(f"The watchlist name may have at most {MAX_NAME} characters.")
    if db.execute("SELECT 1 FROM watchlists WHERE investor_id = ? AND lower(name) = lower(?)",
                  (investor_id, name)).fetchone():
        raise ToolError(f"A watchlist named {name!r} already exists.")
    (count,) = db.execute("SELECT count(*) FROM watchlists WHERE investor_id = ?",
                          (investor_id,)).fetchone()
    if count >= MAX_WATCHLISTS:
        raise ToolError(f"An investor may have at most {MAX_WATCHLISTS} watchlists.")
    watchlist_id = counted_id(db, "watchlists", "watchlist_id", "wl_")
    db.execute("INSERT INTO watchlists (watchlist_id, investor_id, name, created_on) "
               "VALUES (?, ?, ?, ?)", (watchlist_id, investor_id, name, TODAY))
    return _watchlist_record(db, watchlist_id)


@tool(Category.WRITE, returns={"watchlist_id": WatchlistId, "symbols": Symbol},
      writes=("watchlist_id",), needs=("watchlist_id",))
def add_to_watchlist(db, watchlist_id: WatchlistId, symbol: Symbol) -> dict:
    """Add a stock or ETF to a watchlist (at most 50 symbols on a list). Confirm with the
    investor (explicit yes) before calling.

    Args:
        watchlist_id: The watchlist's id.
        symbol: The ticker symbol to add.
    """
    _watchlist(db, watchlist_id)
    security = _security(db, symbol)
    if db.execute("SELECT 1 FROM watchlist_items WHERE watchlist_id = ? AND symbol = ?",
                  (watchlist_id, security["symbol"])).fetchone():
        raise ToolError(f"{security['symbol']} is already on this watchlist.")
    (count,) = db.execute("SELECT count(*) FROM watchlist_items WHERE watchlist_id = ?",
                          (watchlist_id,)).fetchone()
    if count >= MAX_WATCHLIST_SYMBOLS:
        raise ToolError(f"A watchlist may hold at most {MAX_WATCHLIST_SYMBOLS} symbols.")
    db.execute("INSERT INTO watchlist_items (watchlist_id, symbol, added_on) VALUES (?, ?, ?)",
               (watchlist_id, security["symbol"], TODAY))
    return _watchlist_record(db, watchlist_id)


@tool(Category.WRITE, returns={"watchlist_id": WatchlistId, "symbols": Symbol},
      writes=("watchlist_id",), needs=("watchlist_id",))
def remove_from_watchlist(db, watchlist_id: WatchlistId, symbol: Symbol) -> dict:
    """Remove a symbol from a watchlist. Confirm with the investor (explicit yes) before
    calling.

    Args:
        watchlist_id: The watchlist's id.
        symbol: The ticker symbol to remove.
    """
    _watchlist(db, watchlist_id)
    symbol = symbol.strip().upper()
    if not db.execute("SELECT 1 FROM watchlist_items WHERE watchlist_id = ? AND symbol = ?",
                      (watchlist_id, symbol)).fetchone():
        raise ToolError(f"{symbol[:20]} is not on this watchlist.")
    db.execute("DELETE FROM watchlist_items WHERE watchlist_id = ? AND symbol = ?",
               (watchlist_id, symbol))
    return _watchlist_record(db, watchlist_id)


@tool(Category.WRITE, returns={"alert_id": AlertId, "investor_id": InvestorId,
                               "symbol": Symbol},
      writes=("alert_id",))
def create_price_alert(db, investor_id: InvestorId, symbol: Symbol, direction: Direction,
                       target_price: float) -> dict:
    """Create a price alert that notifies the investor when a security's price rises above
    or falls below a target (an 'above' target must be higher than the last price, a
    'below' target lower; at most 25 active alerts). Confirm with the investor (explicit
    yes) before calling.

    Args:
        investor_id: The investor's id.
        symbol: The ticker symbol to watch.
        direction: 'above' or 'below'.
        target_price: The target price per share in dollars, at most two decimals.
    """
    _investor(db, investor_id)
    target = check_cents(target_price)
    security = _security(db, symbol)
    last = security["last_price"]
    if not last / 10 <= target <= last * 10:
        raise ToolError(f"The target price must be between a tenth and ten times the last "
                        f"price {last:.2f}.")
    if direction == "above" and target <= last:
        raise ToolError(f"An 'above' alert needs a target higher than the last price "
                        f"{last:.2f}.")
    if direction == "below" and target >= last:
        raise ToolError(f"A 'below' alert needs a target lower than the last price "
                        f"{last:.2f}.")
    if db.execute("SELECT 1 FROM price_alerts WHERE investor_id = ? AND symbol = ? "
                  "AND direction = ? AND target_price = ? AND status = 'active'",
                  (investor_id, security["symbol"], direction, target)).fetchone():
        raise ToolError("The same alert is already active.")
    (active,) = db.execute("SELECT count(*) FROM price_alerts WHERE investor_id = ? "
                           "AND status = 'active'", (investor_id,)).fetchone()
    if active >= MAX_ACTIVE_ALERTS:
        raise ToolError(f"An investor may have at most {MAX_ACTIVE_ALERTS} active alerts.")
    alert_id = counted_id(db, "price_alerts", "alert_id", "alt_")
    db.execute("INSERT INTO price_alerts (alert_id, investor_id, symbol, direction, "
               "target_price, status, created_on, triggered_on) "
               "VALUES (?, ?, ?, ?, ?, 'active', ?, NULL)",
               (alert_id, investor_id, security["symbol"], direction, target, TODAY))
    return {"alert_id": alert_id, "investor_id": investor_id, "symbol": security["symbol"],
            "direction": direction, "target_price": target, "status": "active",
            "last_price": last}


@tool(Category.WRITE, returns={"alert_id": AlertId}, writes=("alert_id",), needs=("alert_id",))
def cancel_price_alert(db, alert_id: AlertId) -> dict:
    """Cancel an active price alert. Confirm with the investor (explicit yes) before
    calling.

    Args:
        alert_id: The alert's id.
    """
    row = fetch_row(db, "SELECT status, symbol, direction, target_price FROM price_alerts "
                    "WHERE alert_id = ?", (alert_id,), f"Alert {alert_id!r} not found.")
    if row[0] != "active":
        raise ToolError(f"The alert is {row[0]}: only an active alert can be cancelled.")
    db.execute("UPDATE price_alerts SET status = 'cancelled' WHERE alert_id = ?", (alert_id,))
    return {"alert_id": alert_id, "symbol": row[1], "direction": row[2],
            "target_price": row[3], "status": "cancelled"}
