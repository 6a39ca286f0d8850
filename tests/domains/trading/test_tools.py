"""Each trading tool: its success path and its error paths; failed writes change nothing."""

from __future__ import annotations

from collections import Counter

import pytest

from tool_gym.core.tools import Category
from tool_gym.domains.trading import DOMAIN
from tool_gym.domains.trading.tools import (IRA_CONTRIBUTION_LIMIT, NOW, TODAY, buying_power,
                                            ira_contributions, money)

from ..calls import fails, ok, one, rules_catch


def rich_account(box, kind="individual"):
    """An open account of ``kind`` with buying power to spare, its investor and a verified
    bank of that investor."""
    return one(box, "SELECT a.account_id, a.investor_id, b.bank_link_id FROM accounts a "
                    "JOIN bank_links b ON b.investor_id = a.investor_id AND b.status = 'verified' "
                    "WHERE a.type = ? AND a.status = 'open' "
                    "AND a.cash_balance - a.reserved_cash > 3000 ORDER BY a.rowid LIMIT 1",
               (kind,))


def account_row(box, account_id):
    return one(box, "SELECT cash_balance, reserved_cash FROM accounts WHERE account_id = ?",
               (account_id,))


def position(box, account_id, symbol):
    row = box.db.execute("SELECT quantity, reserved_quantity FROM holdings WHERE account_id = ? "
                         "AND symbol = ?", (account_id, symbol)).fetchone()
    return row


def cheap_unheld(box, account_id):
    """An active security under $150 that the account does not hold: symbol, price."""
    return one(box, "SELECT symbol, last_price FROM securities WHERE trading_status = 'active' "
                    "AND last_price < 150 AND symbol NOT IN (SELECT symbol FROM holdings "
                    "WHERE account_id = ?) ORDER BY symbol LIMIT 1", (account_id,))


def sellable(box):
    """A position in an active security with at least 4 unreserved shares, in an open
    account: account, symbol, quantity, reserved, price."""
    return one(box, "SELECT h.account_id, h.symbol, h.quantity, h.reserved_quantity, "
                    "s.last_price FROM holdings h JOIN securities s ON s.symbol = h.symbol "
                    "JOIN accounts a ON a.account_id = h.account_id WHERE a.status = 'open' "
                    "AND s.trading_status = 'active' AND h.quantity - h.reserved_quantity >= 4 "
                    "ORDER BY h.rowid LIMIT 1")


# ------------------------------------------------------------------------- schemas

def test_toolbox_has_many_reads_and_writes():
    counts = Counter(t.category for t in DOMAIN.toolbox)
    assert len(DOMAIN.toolbox) >= 17
    assert counts[Category.READ] >= 10 and counts[Category.WRITE] >= 8
    assert counts[Category.GENERIC] == 1


# --------------------------------------------------------------------------- reads

def test_find_investor(box, state):
    investor = state["investors"][5]
    assert ok(box, "find_investor_by_email",
              email=f" {investor['email'].upper()} ") == investor["investor_id"]
    assert ok(box, "find_investor_by_username",
              username=investor["username"]) == investor["investor_id"]
    fails(box, "find_investor_by_email", "no investor", email="nobody@example.com")
    fails(box, "find_investor_by_username", "no investor", username="nobody")


def test_profile_accounts_and_banks(box):
    account, investor, bank = rich_account(box, "ira")
    profile = ok(box, "get_investor_profile", investor_id=investor)
    assert account in profile["account_ids"] and bank in profile["bank_link_ids"]
    accounts = ok(box, "list_accounts", investor_id=investor)["accounts"]
    for a in accounts:
        assert a["buying_power"] == buying_power(a["cash_balance"], a["reserved_cash"])
        assert len(a["account_number_last4"]) == 4 and "account_number" not in a
    ira = next(a for a in accounts if a["account_id"] == account)
    assert ira["contribution_room_left"] == money(
        IRA_CONTRIBUTION_LIMIT - ira["contributions_this_year"])
    banks = ok(box, "list_linked_banks", investor_id=investor)["banks"]
    assert {b["status"] for b in banks} <= {"verified", "pending"}
    for name in ("get_investor_profile", "list_accounts", "list_linked_banks",
                 "list_watchlists", "list_price_alerts"):
        fails(box, name, "not found", investor_id="inv_missing")


def test_account_summary_adds_cash_and_holdings(box):
    account, = one(box, "SELECT account_id FROM holdings ORDER BY rowid LIMIT 1")
    summary = ok(box, "get_account_summary", account_id=account)
    holdings = ok(box, "list_holdings", account_id=account)["holdings"]
    assert summary["positions"] == len(holdings)
    assert abs(summary["holdings_value"] - sum(h["market_value"] for h in holdings)) < 0.05
    assert summary["total_value"] == money(summary["cash_balance"] + summary["holdings_value"])
    for h in holdings:
        assert h["market_value"] == money(h["quantity"] * h["last_price"])
        assert 0 <= h["available_quantity"] <= h["quantity"]
    fails(box, "get_account_summary", "not found", account_id="acc_missing")
    fails(box, "list_holdings", "not found", account_id="acc_missing")


def test_quotes_and_search(box):
    quote = ok(box, "get_quote", symbol=" aapl ")
    assert quote["symbol"] == "AAPL"
    assert quote["day_low"] <= quote["last_price"] <= quote["day_high"]
    assert quote["change"] == money(quote["last_price"] - quote["previous_close"])
    fails(box, "get_quote", "no security", symbol="ZZZZ")
    fails(box, "get_quote", "must not be empty", symbol="  ")
    found = ok(box, "search_securities", query="vanguard")["results"]
    assert found and all("vanguard" in r["name"].lower() for r in found)
    sector = ok(box, "search_securities", sector="energy")["results"]
    assert sector and all(r["sector"] == "Energy" for r in sector)
    assert ok(box, "search_securities", query="zzzzqq")["results"] == []
    fails(box, "search_securities", "give a query or a sector")


def test_orders_listing_and_filters(box):
    account, = one(box, "SELECT account_id FROM orders WHERE status = 'open' LIMIT 1")
    every = ok(box, "list_orders", account_id=account)["orders"]
    stamps = [o["placed_at"] for o in every]
    assert stamps == sorted(stamps, reverse=True)
    open_orders = ok(box, "list_orders", account_id=account, status="open")["orders"]
    assert open_orders and all(o["status"] == "open" for o in open_orders)
    order = ok(box, "get_order", order_id=open_orders[0]["order_id"])
    assert order["limit_price"] is not None and order["fill_price"] is None
    fails(box, "list_orders", "must be one of", account_id=account, status="done")
    fails(box, "get_order", "not found", order_id="ord_missing")


def test_dividends_cash_transfers_watchlists_alerts(box):
    account, symbol = one(box, "SELECT account_id, symbol FROM dividends "
                               "WHERE pay_date >= '2024' GROUP BY account_id, symbol "
                               "HAVING count(*) >= 2 LIMIT 1")
    every = ok(box, "list_dividends", account_id=account)
    year = ok(box, "list_dividends", account_id=account, year=2024, symbol=symbol.lower())
    assert len(year["dividends"]) >= 2 and all(d["symbol"] == symbol for d in year["dividends"])
    assert year["total"] == money(sum(d["amount"] for d in year["dividends"]))
    assert len(every["dividends"]) >= len(year["dividends"])
    fails(box, "list_dividends", "year", account_id=account, year=24)
    transfers = ok(box, "list_cash_transfers", account_id=account)["transfers"]
    assert all(t["direction"] in ("deposit", "withdrawal") for t in transfers)
    fails(box, "list_cash_transfers", "not found", account_id="acc_missing")
    investor, = one(box, "SELECT investor_id FROM watchlists LIMIT 1")
    lists = ok(box, "list_watchlists", investor_id=investor)["watchlists"]
    assert lists and all(w["symbols"] for w in lists)
    investor, = one(box, "SELECT investor_id FROM price_alerts LIMIT 1")
    alerts = ok(box, "list_price_alerts", investor_id=investor)["alerts"]
    assert alerts and all(a["direction"] in ("above", "below") for a in alerts)
    assert ok(box, "transfer_to_human_agents", summary="help") == "Transfer successful"


# -------------------------------------------------------------------------- orders

@pytest.mark.usefixtures("rules_kept")
def test_market_buy_and_sell(box):
    account, _, _ = rich_account(box)
    symbol, price = cheap_unheld(box, account)
    cash, _ = account_row(box, account)
    order = ok(box, "place_market_order", account_id=account, symbol=symbol.lower(),
               side="buy", quantity=10)
    assert order["status"] == "filled" and order["fill_price"] == price
    assert order["placed_at"] == NOW and order["symbol"] == symbol
    assert account_row(box, account)[0] == money(cash - money(10 * price))
    assert position(box, account, symbol) == (10, 0)
    ok(box, "place_market_order", account_id=account, symbol=symbol, side="buy", quantity=5)
    assert position(box, account, symbol)[0] == 15
    ok(box, "place_market_order", account_id=account, symbol=symbol, side="sell", quantity=15)
    assert position(box, account, symbol) is None  # the whole position is sold
    assert account_row(box, account)[0] == money(cash - money(10 * price)
                                                 - money(5 * price) + money(15 * price))


def test_market_order_errors(box):
    account, _, _ = rich_account(box)
    symbol, _ = cheap_unheld(box, account)
    cash, reserved = account_row(box, account)
    halted, = one(box, "SELECT symbol FROM securities WHERE trading_status = 'halted' LIMIT 1")
    closed, = one(box, "SELECT account_id FROM accounts WHERE status = 'closed' LIMIT 1")
    restricted, = one(box, "SELECT account_id FROM accounts WHERE status = 'restricted' LIMIT 1")
    expensive, price = one(box, "SELECT symbol, last_price FROM securities "
                                "WHERE trading_status = 'active' ORDER BY last_price DESC")
    too_many = int(buying_power(cash, reserved) // price) + 1
    args = {"account_id": account, "symbol": symbol, "side": "buy"}
    fails(box, "place_market_order", "at least 1 share", **args, quantity=0)
    fails(box, "place_market_order", "at most", **args, quantity=10**9)
    fails(box, "place_market_order", "must be of type integer", **args, quantity=1.5)
    fails(box, "place_market_order", "must be one of", account_id=account, symbol=symbol,
          side="short", quantity=1)
    fails(box, "place_market_order", "no security", account_id=account, symbol="ZZZZ",
          side="buy", quantity=1)
    fails(box, "place_market_order", "halted", account_id=account, symbol=halted, side="buy",
          quantity=1)
    fails(box, "place_market_order", "closed", account_id=closed, symbol=symbol, side="buy",
          quantity=1)
    fails(box, "place_market_order", "restricted", account_id=restricted, symbol=symbol,
          side="buy", quantity=1)
    fails(box, "place_market_order", "insufficient buying power", account_id=account,
          symbol=expensive, side="buy", quantity=too_many)
    fails(box, "place_market_order", "holds no shares", account_id=account, symbol=symbol,
          side="sell", quantity=1)
    fails(box, "place_market_order", "not found", account_id="acc_missing", symbol=symbol,
          side="buy", quantity=1)
    held, = one(box, "SELECT symbol FROM holdings h JOIN securities s USING (symbol) "
                     "WHERE h.account_id = ? AND s.trading_status = 'active'", (restricted,))
    ok(box, "place_market_order", account_id=restricted, symbol=held, side="sell", quantity=1)


@pytest.mark.usefixtures("rules_kept")
def test_limit_orders_rest_reserve_and_cancel(box):
    account, _, _ = rich_account(box)
    symbol, price = cheap_unheld(box, account)
    cash, reserved = account_row(box, account)
    limit = money(price * 0.9)
    order = ok(box, "place_limit_order", account_id=account, symbol=symbol, side="buy",
               quantity=4, limit_price=limit)
    assert order["status"] == "open" and order["fill_price"] is None
    assert account_row(box, account) == (cash, money(reserved + money(4 * limit)))
    assert order["buying_power"] == buying_power(cash, money(reserved + money(4 * limit)))
    ok(box, "cancel_order", order_id=order["order_id"])
    assert account_row(box, account) == (cash, reserved)
    fails(box, "cancel_order", "only an open order", order_id=order["order_id"])
    filled = ok(box, "place_limit_order", account_id=account, symbol=symbol, side="buy",
                quantity=2, limit_price=money(price * 1.1))  # marketable: fills at the price
    assert filled["status"] == "filled" and filled["fill_price"] == price
    fails(box, "cancel_order", "only an open order", order_id=filled["order_id"])
    held_account, held, quantity, held_reserved, held_price = sellable(box)
    sell = ok(box, "place_limit_order", account_id=held_account, symbol=held, side="sell",
              quantity=2, limit_price=money(held_price * 1.1))
    assert sell["status"] == "open"
    assert position(box, held_account, held) == (quantity, held_reserved + 2)
    ok(box, "cancel_order", order_id=sell["order_id"])
    assert position(box, held_account, held) == (quantity, held_reserved)


def test_limit_order_errors(box):
    account, _, _ = rich_account(box)
    symbol, price = cheap_unheld(box, account)
    held_account, held, quantity, reserved, held_price = sellable(box)
    args = {"account_id": account, "symbol": symbol, "side": "buy", "quantity": 1}
    fails(box, "place_limit_order", "positive", **args, limit_price=0)
    fails(box, "place_limit_order", "whole cents", **args, limit_price=10.001)
    fails(box, "place_limit_order", "within 50%", **args, limit_price=money(price * 0.3))
    fails(box, "place_limit_order", "within 50%", **args, limit_price=money(price * 1.8))
    fails(box, "place_limit_order", "not enough shares", account_id=held_account, symbol=held,
          side="sell", quantity=quantity - reserved + 1, limit_price=money(held_price * 1.1))
    fails(box, "place_limit_order", "must be of type number", **args, limit_price="12")
    fails(box, "cancel_order", "not found", order_id="ord_missing")


# ---------------------------------------------------------------------------- cash

@pytest.mark.usefixtures("rules_kept")
def test_deposit_and_withdraw(box):
    account, _, bank = rich_account(box)
    cash, _ = account_row(box, account)
    made = ok(box, "deposit_funds", account_id=account, bank_link_id=bank, amount=1234.5)
    assert made["direction"] == "deposit" and made["cash_balance"] == money(cash + 1234.5)
    out = ok(box, "withdraw_funds", account_id=account, bank_link_id=bank, amount=200)
    assert out["cash_balance"] == money(cash + 1234.5 - 200)
    assert made["transfer_id"] != out["transfer_id"]
    assert made["transfer_id"].split("_")[1].isdigit()


def test_cash_errors(box):
    account, investor, bank = rich_account(box)
    cash, reserved = account_row(box, account)
    stranger, = one(box, "SELECT bank_link_id FROM bank_links WHERE investor_id != ? "
                         "AND status = 'verified' LIMIT 1", (investor,))
    closed, closed_bank = one(box, "SELECT a.account_id, b.bank_link_id FROM accounts a JOIN "
                                   "bank_links b USING (investor_id) WHERE a.status = 'closed' "
                                   "AND b.status = 'verified' LIMIT 1")
    args = {"account_id": account, "bank_link_id": bank}
    fails(box, "deposit_funds", "positive", **args, amount=-5)
    fails(box, "deposit_funds", "whole cents", **args, amount=1.234)
    fails(box, "deposit_funds", "at most 50000", **args, amount=50000.01)
    fails(box, "deposit_funds", "does not belong", account_id=account, bank_link_id=stranger,
          amount=10)
    fails(box, "deposit_funds", "closed", account_id=closed, bank_link_id=closed_bank,
          amount=10)
    fails(box, "deposit_funds", "not found", account_id=account, bank_link_id="bnk_missing",
          amount=10)
    fails(box, "withdraw_funds", "insufficient cash", **args,
          amount=money(buying_power(cash, reserved) + 0.01))
    target, pending = one(box, "SELECT a.account_id, b.bank_link_id FROM bank_links b JOIN "
                               "accounts a USING (investor_id) WHERE b.status = 'pending' "
                               "AND a.status = 'open' LIMIT 1")
    fails(box, "deposit_funds", "not verified", account_id=target, bank_link_id=pending,
          amount=10)


def test_ira_contribution_limit(box):
    ira, _, bank = rich_account(box, "ira")
    room = money(IRA_CONTRIBUTION_LIMIT - ira_contributions(box.db, ira))
    fails(box, "deposit_funds", "contribution limit", account_id=ira, bank_link_id=bank,
          amount=money(room + 0.01))
    if room > 0:
        ok(box, "deposit_funds", account_id=ira, bank_link_id=bank, amount=room)
        fails(box, "deposit_funds", "contribution limit", account_id=ira, bank_link_id=bank,
              amount=1)
    assert box.check_integrity() == []


# ------------------------------------------------------------ dividends, watchlists

def test_dividend_reinvestment(box):
    account, symbol, drip = one(box, "SELECT h.account_id, h.symbol, h.reinvest_dividends "
                                     "FROM holdings h JOIN securities s USING (symbol) "
                                     "JOIN accounts a ON a.account_id = h.account_id "
                                     "WHERE s.annual_dividend > 0 AND a.status = 'open' LIMIT 1")
    no_dividend, = one(box, "SELECT h.symbol FROM holdings h JOIN securities s USING (symbol) "
                            "WHERE h.account_id = ? AND s.annual_dividend = 0 UNION ALL "
                            "SELECT 'ZZZZ' LIMIT 1", (account,))
    result = ok(box, "set_dividend_reinvestment", account_id=account, symbol=symbol,
                enabled=not drip)
    assert result["reinvest_dividends"] is (not drip)
    fails(box, "set_dividend_reinvestment", "already", account_id=account, symbol=symbol,
          enabled=not drip)
    fails(box, "set_dividend_reinvestment", "must be of type boolean", account_id=account,
          symbol=symbol, enabled="yes")
    unheld, = one(box, "SELECT symbol FROM securities WHERE annual_dividend > 0 AND symbol NOT "
                       "IN (SELECT symbol FROM holdings WHERE account_id = ?)", (account,))
    fails(box, "set_dividend_reinvestment", "holds no shares", account_id=account,
          symbol=unheld, enabled=True)
    if no_dividend != "ZZZZ":
        fails(box, "set_dividend_reinvestment", "pays no dividend", account_id=account,
              symbol=no_dividend, enabled=True)


def test_watchlists(box):
    investor, = one(box, "SELECT investor_id FROM investors WHERE investor_id NOT IN (SELECT "
                         "investor_id FROM watchlists) LIMIT 1")
    made = ok(box, "create_watchlist", investor_id=investor, name="  Space   Stocks ")
    assert made["name"] == "Space Stocks" and made["symbols"] == []
    fails(box, "create_watchlist", "already exists", investor_id=investor, name="space stocks")
    fails(box, "create_watchlist", "must not be empty", investor_id=investor, name="   ")
    fails(box, "create_watchlist", "at most 40", investor_id=investor, name="x" * 41)
    wl = made["watchlist_id"]
    assert ok(box, "add_to_watchlist", watchlist_id=wl, symbol="nvda")["symbols"] == ["NVDA"]
    fails(box, "add_to_watchlist", "already on", watchlist_id=wl, symbol="NVDA")
    fails(box, "add_to_watchlist", "no security", watchlist_id=wl, symbol="ZZZZ")
    fails(box, "add_to_watchlist", "not found", watchlist_id="wl_missing", symbol="NVDA")
    assert ok(box, "remove_from_watchlist", watchlist_id=wl, symbol="NVDA")["symbols"] == []
    fails(box, "remove_from_watchlist", "not on this watchlist", watchlist_id=wl, symbol="NVDA")
    for i in range(9):
        ok(box, "create_watchlist", investor_id=investor, name=f"List {i}")
    fails(box, "create_watchlist", "at most 10", investor_id=investor, name="One more")


def test_price_alerts(box):
    investor, = one(box, "SELECT investor_id FROM investors LIMIT 1")
    price, = one(box, "SELECT last_price FROM securities WHERE symbol = 'MSFT'")
    made = ok(box, "create_price_alert", investor_id=investor, symbol="MSFT", direction="above",
              target_price=money(price + 10))
    assert made["status"] == "active"
    args = {"investor_id": investor, "symbol": "MSFT"}
    fails(box, "create_price_alert", "already active", **args, direction="above",
          target_price=money(price + 10))
    fails(box, "create_price_alert", "higher than the last price", **args, direction="above",
          target_price=money(price - 1))
    fails(box, "create_price_alert", "lower than the last price", **args, direction="below",
          target_price=money(price + 1))
    fails(box, "create_price_alert", "ten times", **args, direction="above",
          target_price=1e12)
    fails(box, "create_price_alert", "must be one of", **args, direction="sideways",
          target_price=10)
    ok(box, "cancel_price_alert", alert_id=made["alert_id"])
    fails(box, "cancel_price_alert", "only an active alert", alert_id=made["alert_id"])
    fails(box, "cancel_price_alert", "not found", alert_id="alt_missing")
    assert box.check_integrity() == []


def test_active_alert_quota_per_investor(box):
    investor, = one(box, "SELECT investor_id FROM investors LIMIT 1")
    price, = one(box, "SELECT last_price FROM securities WHERE symbol = 'SPY'")
    (active,) = one(box, "SELECT count(*) FROM price_alerts WHERE investor_id = ? "
                         "AND status = 'active'", (investor,))
    for i in range(25 - active):
        ok(box, "create_price_alert", investor_id=investor, symbol="SPY", direction="above",
           target_price=money(price + 1 + i))
    fails(box, "create_price_alert", "at most 25", investor_id=investor, symbol="SPY",
          direction="above", target_price=money(price + 100))


# ------------------------------------------------------------------------- invariants

def test_invariants_catch_broken_rules(box):
    rules_catch(box, {
        "reserved cash equals": "UPDATE accounts SET reserved_cash = reserved_cash + 5 WHERE "
        "account_id = (SELECT account_id FROM accounts WHERE cash_balance > 10 LIMIT 1)",
        "reserved shares equal": "UPDATE holdings SET reserved_quantity = 0 WHERE holding_id = "
        "(SELECT holding_id FROM holdings WHERE reserved_quantity > 0 LIMIT 1)",
        "buying power >= 0": "UPDATE accounts SET cash_balance = 0 WHERE account_id = (SELECT "
        "account_id FROM accounts WHERE reserved_cash > 0 LIMIT 1)",
        "not marketable": "UPDATE securities SET last_price = 0.01, day_low = 0.01 WHERE symbol "
        "= (SELECT symbol FROM orders WHERE status = 'open' AND side = 'sell' LIMIT 1)",
        "contribution limit": "INSERT INTO cash_transfers SELECT 'trf_x', a.account_id, "
        "b.bank_link_id, 'deposit', 7000.0, '" + TODAY + "T10:00:00' FROM accounts a JOIN "
        "bank_links b USING (investor_id) WHERE a.type = 'ira' LIMIT 1",
        "closed account": "UPDATE accounts SET cash_balance = 5 WHERE status = 'closed'",
        "shares times the amount": "UPDATE dividends SET amount = amount + 1 WHERE rowid = 1",
        "side of the last price": "UPDATE price_alerts SET target_price = 0.01 WHERE alert_id = "
        "(SELECT alert_id FROM price_alerts WHERE status = 'active' AND direction = 'above' "
        "LIMIT 1)",
    })
