"""Hidden-intent tasks of the trading domain: the constraint samplers and ``TASKS``, the
domain's :class:`~tool_gym.core.taskkit.RuleTaskKit`.

Descriptions proven unique: a brokerage account by its type and the last four digits of
its number, a linked bank by its name and last four digits, an open order by its side,
quantity, symbol and limit price, a price alert by its symbol, direction and target, a
watchlist by its name. Securities are public: the investor names them by name and ticker.
Samplers claim what they touch, so the needs of one task never interfere: two needs never
both change the cash of one account (``("cash", account)``) or one position
(``(account, symbol)``).

Constraint types: ``buy_shares``, ``sell_shares``, ``place_limit_order``,
``cancel_open_order``, ``deposit_funds``, ``withdraw_funds``, ``set_dividend_reinvestment``,
``create_price_alert``, ``add_to_watchlist``, ``cancel_price_alert`` (writes);
``info_position_value``, ``info_buying_power``, ``info_dividend_income``,
``info_account_value`` (answers); ``refuse_over_balance`` (a purchase above the buying
power) and ``cancel_processed_order`` (an order that already filled) (refusals: nothing
may change).
"""

from __future__ import annotations

from ...core.actions import ToolCall
from ...core.proposals import Intent, Param
from ...core.sampler_parts import Login, by_name
from ...core.taskkit import (RuleTaskKit, SampleContext, answer_steps, date_words, dollars,
                             money_terms, write_steps)
from ...core.task_model import Constraint, Description, Expectation, Refusal
from .tools import (IRA_CONTRIBUTION_LIMIT, YEAR, buying_power, ira_contributions, money)

ASK_IDENTITY = ("Before I can help, I need to verify your identity. Could you tell me the "
                "email address or the username on your brokerage profile?")
#: How an investor names an account type.
TYPE_WORDS = {"individual": "individual account", "joint": "joint account", "ira": "IRA"}
#: Words that name why a purchase is refused (any one addresses it; ``Refusal.about``).
_BUYING_POWER_WORDS = (
    "buying power", "insufficient", "not enough", "enough cash", "funds", "exceeds",
    "exceed", "more than", "short", "available cash", "cash available", "afford")
_FILLED_WORDS = (
    "filled", "executed", "processed", "already", "completed", "went through", "too late",
    "not open", "no longer open")
#: Filled orders placed since this day are recent enough to be asked about.
RECENT = "2024-06-01"
ACTION_BUY = ("buy", "purchase")
ACTION_SELL = ("sell",)


# ------------------------------------------------------------------ descriptions

def describe_account(ctx: SampleContext, account_id: str, kind: str,
                     number: str) -> Description | None:
    last4 = number[-4:]
    return ctx.describe(
        "account", f"{TYPE_WORDS[kind]} ending in {last4}", {"type": kind, "last4": last4},
        account_id,
        "SELECT account_id FROM accounts WHERE investor_id = ? AND type = ? "
        "AND substr(account_number, -4) = ?", (ctx.user_id, kind, last4))


def describe_bank(ctx: SampleContext, bank_link_id: str, bank: str,
                  last4: str) -> Description | None:
    return ctx.describe(
        "bank", f"{bank} account ending in {last4}", {"bank_name": bank, "last4": last4},
        bank_link_id,
        "SELECT bank_link_id FROM bank_links WHERE investor_id = ? AND bank_name = ? "
        "AND account_last4 = ?", (ctx.user_id, bank, last4))


def describe_order(ctx: SampleContext, order_id: str, side: str, quantity: int, symbol: str,
                   limit: float) -> Description | None:
    return ctx.describe(
        "order", f"open limit order to {side} {quantity} shares of {symbol} at "
        f"{dollars(limit)}", {"side": side, "quantity": quantity, "symbol": symbol,
                              "limit_price": limit}, order_id,
        "SELECT o.order_id FROM orders o JOIN accounts a ON a.account_id = o.account_id "
        "WHERE a.investor_id = ? AND o.status = 'open' AND o.side = ? AND o.quantity = ? "
        "AND o.symbol = ? AND o.limit_price = ?", (ctx.user_id, side, quantity, symbol, limit))


def describe_alert(ctx: SampleContext, alert_id: str, symbol: str, direction: str,
                   target: float) -> Description | None:
    return ctx.describe(
        "alert", f"alert for {symbol} going {direction} {dollars(target)}",
        {"symbol": symbol, "direction": direction, "target_price": target}, alert_id,
        "SELECT alert_id FROM price_alerts WHERE investor_id = ? AND status = 'active' "
        "AND symbol = ? AND direction = ? AND target_price = ?",
        (ctx.user_id, symbol, direction, target))


def describe_watchlist(ctx: SampleContext, watchlist_id: str, name: str) -> Description | None:
    return ctx.describe("watchlist", f"\"{name}\" watchlist", {"name": name}, watchlist_id,
                        "SELECT watchlist_id FROM watchlists WHERE investor_id = ? AND name = ?",
                        (ctx.user_id, name))


# ------------------------------------------------------------------ reads and parts

def _accounts(ctx: SampleContext, statuses: tuple[str, ...] = ("open",)) -> list[tuple]:
    """The investor's accounts: ``(account_id, type, number, cash, reserved)``."""
    marks = ", ".join("?" * len(statuses))
    return ctx.rows("SELECT account_id, type, account_number, cash_balance, reserved_cash "
                    f"FROM accounts WHERE investor_id = ? AND status IN ({marks}) "
                    "ORDER BY rowid", (ctx.user_id, *statuses))


def _every_account(ctx: SampleContext) -> list[tuple]:
    return _accounts(ctx, ("open", "restricted", "closed"))


def _account_forms(acc: tuple, accounts: list[tuple]) -> tuple:
    """How a proposal may name an account: id, last four digits, and its type when no
    other account of the investor has that type."""
    forms = [acc[0], acc[2][-4:]]
    if sum(1 for a in accounts if a[1] == acc[1]) == 1:
        forms.append(TYPE_WORDS[acc[1]])
    return tuple(forms)


def _account_param(acc: tuple, accounts: list[tuple]) -> Param:
    """An account whose rivals are the investor's other accounts."""
    return Param("account", _account_forms(acc, accounts),
                 tuple(_account_forms(a, accounts) for a in accounts if a[0] != acc[0]))


def _security_forms(symbol: str, name: str) -> tuple:
    return (symbol, name)


def _symbol_param(ctx: SampleContext, symbol: str, name: str, account_id: str) -> Param:
    """A security whose rivals are the other positions of the account."""
    others = ctx.rows("SELECT s.symbol, s.name FROM holdings h JOIN securities s "
                      "ON s.symbol = h.symbol WHERE h.account_id = ? AND h.symbol != ? "
                      "ORDER BY h.rowid", (account_id, symbol))
    return Param("symbol", _security_forms(symbol, name),
                 tuple(_security_forms(s, n) for s, n in others))


def _banks(ctx: SampleContext) -> list[tuple]:
    return ctx.rows("SELECT bank_link_id, bank_name, account_last4, status FROM bank_links "
                    "WHERE investor_id = ? ORDER BY rowid", (ctx.user_id,))


def _bank_param(bank: tuple, banks: list[tuple]) -> Param:
    def forms(b: tuple) -> tuple:
        unique = sum(1 for o in banks if o[1] == b[1]) == 1
        return (b[0], b[2], *((b[1],) if unique else ()))
    return Param("bank", forms(bank), tuple(forms(b) for b in banks if b[0] != bank[0]))


def _lists(ctx: SampleContext, *tools: str) -> list[ToolCall]:
    """Calls of the investor's list tools (``list_accounts``, ``list_linked_banks``, ...)."""
    return [ToolCall(tool, {"investor_id": ctx.user_id}) for tool in tools]


def _quote(symbol: str) -> ToolCall:
    return ToolCall("get_quote", {"symbol": symbol})


def _count(query: str, params: tuple, ctx: SampleContext) -> int:
    return ctx.rows(query, params)[0][0]


def _cash_check(account_id: str, cash: float) -> Expectation:
    return Expectation("SELECT cash_balance FROM accounts WHERE account_id = ?", (account_id,),
                       ((cash,),))


def _tradable_securities(ctx: SampleContext) -> list[tuple]:
    return ctx.rows("SELECT symbol, name, last_price FROM securities "
                    "WHERE trading_status = 'active' ORDER BY rowid")


def _positions(ctx: SampleContext, account_id: str) -> list[tuple]:
    """The account's positions in active securities: ``(symbol, name, quantity, available,
    last price, annual dividend, reinvest)``."""
    return ctx.rows("SELECT h.symbol, s.name, h.quantity, h.quantity - h.reserved_quantity, "
                    "s.last_price, s.annual_dividend, h.reinvest_dividends FROM holdings h "
                    "JOIN securities s ON s.symbol = h.symbol WHERE h.account_id = ? "
                    "AND s.trading_status = 'active' ORDER BY h.rowid", (account_id,))


def _held(ctx: SampleContext, account_id: str, symbol: str) -> int:
    rows = ctx.rows("SELECT quantity FROM holdings WHERE account_id = ? AND symbol = ?",
                    (account_id, symbol))
    return rows[0][0] if rows else 0


def _label(name: str, symbol: str) -> str:
    """How the investor names a security: ``Apple (AAPL)``, or ``IBM`` alone."""
    return name if name == symbol else f"{name} ({symbol})"


def _nice_price(value: float) -> float:
    """A limit or target price as a person picks it: whole dollars above $20."""
    return float(round(value)) if value > 20 else money(value)


# ----------------------------------------------------------------------- samplers

def _trade_pick(ctx: SampleContext, side: str, most: float) -> tuple | None:
    """An account and a security to trade in it, claimed: ``(account row, symbol, name,
    price, shares available to sell, cash to spend)``; a buy spends at most ``most`` and
    buys at least two shares, a sale sells a holding of at least two."""
    for acc in ctx.shuffled(_accounts(ctx)):
        account_id, _, _, cash, reserved = acc
        cap = min(buying_power(cash, reserved), most)
        if side == "buy":
            options = [(s, n, p, None) for s, n, p in _tradable_securities(ctx) if 2 * p <= cap]
        else:
            options = [(s, n, p, avail) for s, n, _, avail, p, _, _ in _positions(ctx, account_id)
                       if avail >= 2]
        if not options:
            continue
        symbol, name, price, available = ctx.pick(options)
        if ctx.claim(("cash", account_id), (account_id, symbol)):
            return acc, symbol, name, price, available, cap
    return None


def _market_trade(ctx: SampleContext, side: str) -> Constraint | None:
    picked = _trade_pick(ctx, side, 8000.0)
    if picked is not None:
        acc, symbol, name, price, available, cap = picked
        account_id, kind, number, cash, reserved = acc
        label = _label(name, symbol)
        top = int(cap // price) if side == "buy" else available
        quantity = int(ctx.rng.integers(1, top + 1))
        a = describe_account(ctx, account_id, kind, number)
        if a is None:
            return None
        value = money(quantity * price)
        held = _held(ctx, account_id, symbol)
        after = held + quantity if side == "buy" else held - quantity
        call = ToolCall("place_market_order", {"account_id": account_id, "symbol": symbol,
                                               "side": side, "quantity": quantity})
        before = _count("SELECT count(*) FROM orders WHERE account_id = ? AND symbol = ? "
                        "AND side = ? AND quantity = ? AND status = 'filled'",
                        (account_id, symbol, side, quantity), ctx)
        action, opposite = (ACTION_BUY, ACTION_SELL) if side == "buy" else (ACTION_SELL,
                                                                            ACTION_BUY)
        if side == "buy":
            say = (f"I'd like to buy {quantity} shares of {label} in my {a.text}.",
                   f"Please purchase {quantity} {symbol} shares at the market price for my "
                   f"{a.text}.",
                   f"Can you place a market order for {quantity} shares of {label} "
                   f"in my {a.text}?")
        else:
            say = (f"I'd like to sell {quantity} of my {label} shares in my "
                   f"{a.text}.",
                   f"Please sell {quantity} {symbol} shares from my {a.text} at the market "
                   "price.",
                   f"Can you place a market order to sell {quantity} shares of {name} "
                   f"({symbol}) from my {a.text}?")
        cash_after = money(cash - value) if side == "buy" else money(cash + value)
        return Constraint(
            f"{side}_shares", dict(call.arguments), refs={"account": a},
            writes=(("place_market_order", account_id),),
            confirm_terms=(action[:1], (str(quantity),), (symbol,), (number[-4:],)),
            intent=Intent((Param("action", action), Param("quantity", (str(quantity),)),
                           _symbol_param(ctx, symbol, name, account_id),
                           _account_param(acc, _every_account(ctx))), opposite),
            say=say,
            solution=write_steps(
                _lists(ctx, "list_accounts") + [_quote(symbol)],
                f"I will {side} {quantity} shares of {label} at the market price in "
                f"your {a.text}. Shall I proceed?", call),
            expect=(Expectation("SELECT quantity FROM holdings WHERE account_id = ? "
                                "AND symbol = ?", (account_id, symbol),
                                ((after,),) if after else ()),
                    _cash_check(account_id, cash_after),
                    Expectation("SELECT count(*) FROM orders WHERE account_id = ? AND symbol = ? "
                                "AND side = ? AND quantity = ? AND status = 'filled'",
                                (account_id, symbol, side, quantity), ((before + 1,),))))
    return None


def buy_shares(ctx: SampleContext) -> Constraint | None:
    return _market_trade(ctx, "buy")


def sell_shares(ctx: SampleContext) -> Constraint | None:
    return _market_trade(ctx, "sell")


def place_limit_order(ctx: SampleContext) -> Constraint | None:
    side = ctx.pick(("buy", "sell"))
    picked = _trade_pick(ctx, side, 6000.0)
    if picked is not None:
        acc, symbol, name, price, available, cap = picked
        account_id, kind, number, cash, reserved = acc
        label = _label(name, symbol)
        if side == "buy":
            limit = _nice_price(price * ctx.rng.uniform(0.85, 0.96))
            quantity = int(ctx.rng.integers(1, max(1, int(cap // limit)) + 1))
        else:
            limit = _nice_price(price * ctx.rng.uniform(1.04, 1.2))
            quantity = int(ctx.rng.integers(1, available + 1))
        if not (price / 2 <= limit <= price * 1.5) or \
                (limit >= price if side == "buy" else limit <= price):
            return None
        a = describe_account(ctx, account_id, kind, number)
        if a is None:
            return None
        call = ToolCall("place_limit_order", {"account_id": account_id, "symbol": symbol,
                                              "side": side, "quantity": quantity,
                                              "limit_price": limit})
        before = _count("SELECT count(*) FROM orders WHERE account_id = ? AND symbol = ? "
                        "AND side = ? AND quantity = ? AND limit_price = ? AND status = 'open'",
                        (account_id, symbol, side, quantity, limit), ctx)
        if side == "buy":
            reserve = Expectation("SELECT reserved_cash FROM accounts WHERE account_id = ?",
                                  (account_id,),
                                  ((money(reserved + money(quantity * limit)),),))
            say = (f"Please put in a limit order to buy {quantity} shares of {label} "
                   f"at {dollars(limit)} a share in my {a.text}.",
                   f"I want to buy {quantity} {symbol} shares in my {a.text}, but only if the "
                   f"price comes down to {dollars(limit)}. Can you set up a limit order?",
                   f"Could you place a buy limit order for {quantity} shares of {name} at "
                   f"{dollars(limit)} in my {a.text}?")
            action, opposite = ACTION_BUY, ACTION_SELL
        else:
            (held_reserved,) = ctx.rows("SELECT reserved_quantity FROM holdings WHERE "
                                        "account_id = ? AND symbol = ?", (account_id, symbol))[0]
            reserve = Expectation("SELECT reserved_quantity FROM holdings WHERE account_id = ? "
                                  "AND symbol = ?", (account_id, symbol),
                                  ((held_reserved + quantity,),))
            say = (f"Please put in a limit order to sell {quantity} of my {label} "
                   f"shares at {dollars(limit)} a share in my {a.text}.",
                   f"I want to sell {quantity} {symbol} shares from my {a.text} once the price "
                   f"reaches {dollars(limit)}. Can you set up a limit order?",
                   f"Could you place a sell limit order for {quantity} shares of {name} at "
                   f"{dollars(limit)} in my {a.text}?")
            action, opposite = ACTION_SELL, ACTION_BUY
        return Constraint(
            "place_limit_order", dict(call.arguments), refs={"account": a},
            writes=(("place_limit_order", account_id),),
            confirm_terms=(("limit",), action[:1], (str(quantity),), (symbol,),
                           money_terms(limit), (number[-4:],)),
            intent=Intent((Param("action", action), Param("quantity", (str(quantity),)),
                           Param("limit", money_terms(limit)),
                           _symbol_param(ctx, symbol, name, account_id),
                           _account_param(acc, _every_account(ctx))), opposite),
            say=say,
            solution=write_steps(
                _lists(ctx, "list_accounts") + [_quote(symbol)],
                f"I will place a limit order to {side} {quantity} shares of {label} "
                f"at ${limit:,.2f} per share in your {a.text}. Shall I proceed?", call),
            expect=(Expectation("SELECT count(*) FROM orders WHERE account_id = ? AND symbol = ? "
                                "AND side = ? AND quantity = ? AND limit_price = ? "
                                "AND status = 'open'",
                                (account_id, symbol, side, quantity, limit), ((before + 1,),)),
                    reserve, _cash_check(account_id, cash)))
    return None


def cancel_open_order(ctx: SampleContext) -> Constraint | None:
    rows = ctx.rows("SELECT o.order_id, o.account_id, o.side, o.quantity, o.symbol, s.name, "
                    "o.limit_price FROM orders o JOIN accounts a ON a.account_id = o.account_id "
                    "JOIN securities s ON s.symbol = o.symbol WHERE a.investor_id = ? "
                    "AND o.status = 'open' ORDER BY o.rowid", (ctx.user_id,))
    for order_id, account_id, side, quantity, symbol, name, limit in ctx.shuffled(rows):
        label = _label(name, symbol)
        d = describe_order(ctx, order_id, side, quantity, symbol, limit)
        key = ("cash", account_id) if side == "buy" else (account_id, symbol)
        if d is None or not ctx.claim(order_id, key):
            continue
        call = ToolCall("cancel_order", {"order_id": order_id})
        return Constraint(
            "cancel_open_order", dict(call.arguments), refs={"order": d},
            writes=(("cancel_order", order_id),),
            confirm_terms=(("cancel",), (symbol,), money_terms(limit)),
            say=(f"Please cancel my {d.text}.",
                 f"I changed my mind about the {d.text}; can you cancel it?",
                 f"Could you pull my {d.text}?"),
            solution=write_steps(
                _lists(ctx, "list_accounts") + [
                    ToolCall("list_orders", {"account_id": account_id, "status": "open"})],
                f"I will cancel your open limit order {order_id} to {side} {quantity} shares "
                f"of {label} at ${limit:,.2f}. Shall I proceed?", call),
            expect=(Expectation("SELECT status FROM orders WHERE order_id = ?", (order_id,),
                                (("cancelled",),)),))
    return None


def _cash_need(ctx: SampleContext, direction: str) -> Constraint | None:
    banks = _banks(ctx)
    verified = [b for b in banks if b[3] == "verified"]
    if not verified:
        return None
    accounts = _accounts(ctx)
    for acc in ctx.shuffled(accounts):
        account_id, kind, number, cash, reserved = acc
        if direction == "deposit":
            room = IRA_CONTRIBUTION_LIMIT - ira_contributions(ctx.db, account_id) \
                if kind == "ira" else 5000.0
            cap = min(room, 5000.0)
        else:
            cap = 0.0 if kind == "ira" else min(buying_power(cash, reserved), 5000.0)
        if cap < 100 or not ctx.claim(("cash", account_id)):
            continue
        bank = ctx.pick(verified)
        amount = float(50 * int(ctx.rng.integers(2, int(cap // 50) + 1)))
        a = describe_account(ctx, account_id, kind, number)
        k = describe_bank(ctx, bank[0], bank[1], bank[2])
        if a is None or k is None:
            return None
        tool = "deposit_funds" if direction == "deposit" else "withdraw_funds"
        call = ToolCall(tool, {"account_id": account_id, "bank_link_id": bank[0],
                               "amount": amount})
        before = _count("SELECT count(*) FROM cash_transfers WHERE account_id = ? "
                        "AND bank_link_id = ? AND direction = ? AND amount = ?",
                        (account_id, bank[0], direction, amount), ctx)
        if direction == "deposit":
            say = (f"Please deposit {dollars(amount)} from my {k.text} into my {a.text}.",
                   f"I'd like to move {dollars(amount)} from my {k.text} into my {a.text}.",
                   f"Can you add {dollars(amount)} to my {a.text}? Take it from my {k.text}.")
            proposal = (f"I will deposit ${amount:,.2f} from your {k.text} into your {a.text}. "
                        "Shall I proceed?")
            action, opposite = ("deposit", "add", "transfer"), ("withdraw",)
            cash_after = money(cash + amount)
        else:
            say = (f"Please withdraw {dollars(amount)} from my {a.text} to my {k.text}.",
                   f"I need {dollars(amount)} taken out of my {a.text} and sent to my "
                   f"{k.text}.",
                   f"Can you transfer {dollars(amount)} of cash from my {a.text} back to my "
                   f"{k.text}?")
            proposal = (f"I will withdraw ${amount:,.2f} from your {a.text} to your {k.text}. "
                        "Shall I proceed?")
            action, opposite = ("withdraw", "take out", "transfer"), ("deposit",)
            cash_after = money(cash - amount)
        return Constraint(
            tool, dict(call.arguments), refs={"account": a, "bank": k},
            writes=((tool, account_id),),
            confirm_terms=(action[:1], money_terms(amount), (bank[2],), (number[-4:],)),
            intent=Intent((Param("action", action), Param("amount", money_terms(amount)),
                           _bank_param(bank, banks),
                           _account_param(acc, _every_account(ctx))), opposite),
            say=say,
            solution=write_steps(_lists(ctx, "list_accounts", "list_linked_banks"), proposal,
                                 call),
            expect=(_cash_check(account_id, cash_after),
                    Expectation("SELECT count(*) FROM cash_transfers WHERE account_id = ? "
                                "AND bank_link_id = ? AND direction = ? AND amount = ?",
                                (account_id, bank[0], direction, amount), ((before + 1,),))))
    return None


def deposit_funds(ctx: SampleContext) -> Constraint | None:
    return _cash_need(ctx, "deposit")


def withdraw_funds(ctx: SampleContext) -> Constraint | None:
    return _cash_need(ctx, "withdrawal")


def set_dividend_reinvestment(ctx: SampleContext) -> Constraint | None:
    accounts = _accounts(ctx)
    for acc in ctx.shuffled(accounts):
        account_id, kind, number = acc[:3]
        payers = [p for p in _positions(ctx, account_id) if p[5] > 0]
        if not payers:
            continue
        symbol, name, _, _, _, _, drip = ctx.pick(payers)
        label = _label(name, symbol)
        if not ctx.claim((account_id, symbol)):
            continue
        a = describe_account(ctx, account_id, kind, number)
        if a is None:
            return None
        enable = not drip
        call = ToolCall("set_dividend_reinvestment", {"account_id": account_id,
                                                      "symbol": symbol, "enabled": enable})
        if enable:
            action = ("turn on", "enable", "switch on", "start reinvesting")
            opposite = ("turn off", "disable", "switch off", "stop reinvesting")
            say = (f"Please turn on dividend reinvestment for my {label} shares in "
                   f"my {a.text}.",
                   f"I'd like the dividends from my {symbol} position in my {a.text} to be "
                   "reinvested automatically.",
                   f"Can you set up automatic reinvestment of the {label} dividends "
                   f"in my {a.text}?")
            proposal = (f"I will turn on automatic dividend reinvestment for your {name} "
                        f"({symbol}) shares in your {a.text}. Shall I proceed?")
        else:
            action = ("turn off", "disable", "switch off", "stop reinvesting")
            opposite = ("turn on", "enable", "switch on")
            say = (f"Please turn off dividend reinvestment for my {label} shares in "
                   f"my {a.text}; I want the dividends as cash.",
                   f"I'd like to stop reinvesting the {symbol} dividends in my {a.text} and "
                   "get cash instead.",
                   f"Can you switch off automatic dividend reinvestment for {label} "
                   f"in my {a.text}?")
            proposal = (f"I will turn off automatic dividend reinvestment for your {name} "
                        f"({symbol}) shares in your {a.text}, so their dividends are paid in "
                        "cash. Shall I proceed?")
        return Constraint(
            "set_dividend_reinvestment", dict(call.arguments), refs={"account": a},
            writes=(("set_dividend_reinvestment", account_id),),
            confirm_terms=(action[:1], ("reinvest",), (symbol,), (number[-4:],)),
            intent=Intent((Param("action", action), Param("what", ("reinvest",)),
                           _symbol_param(ctx, symbol, name, account_id),
                           _account_param(acc, _every_account(ctx))), opposite),
            say=say,
            solution=write_steps(
                _lists(ctx, "list_accounts") + [
                    ToolCall("list_holdings", {"account_id": account_id})], proposal, call),
            expect=(Expectation("SELECT reinvest_dividends FROM holdings WHERE account_id = ? "
                                "AND symbol = ?", (account_id, symbol), ((int(enable),),)),))
    return None


def create_price_alert(ctx: SampleContext) -> Constraint | None:
    options = _tradable_securities(ctx)
    symbol, name, price = ctx.pick(options)
    label = _label(name, symbol)
    direction = ctx.pick(("above", "below"))
    if direction == "above":
        target = _nice_price(price * ctx.rng.uniform(1.06, 1.3))
        action, opposite = ("above", "rises", "over", "exceeds"), ("below", "falls", "drops",
                                                                  "under")
        words = ("rises above", "goes above", "climbs over")
    else:
        target = _nice_price(price * ctx.rng.uniform(0.7, 0.94))
        action, opposite = ("below", "falls", "drops", "under"), ("above", "rises", "over",
                                                                  "exceeds")
        words = ("falls below", "drops below", "dips under")
    if (target <= price if direction == "above" else target >= price) or \
            not ctx.claim(("alert", symbol)):
        return None
    if _count("SELECT count(*) FROM price_alerts WHERE investor_id = ? AND symbol = ? "
              "AND direction = ? AND target_price = ?",
              (ctx.user_id, symbol, direction, target), ctx):
        return None
    call = ToolCall("create_price_alert", {"investor_id": ctx.user_id, "symbol": symbol,
                                           "direction": direction, "target_price": target})
    return Constraint(
        "create_price_alert", dict(call.arguments),
        writes=(("create_price_alert", ctx.user_id),),
        confirm_terms=(("alert",), (symbol,), action[:1], money_terms(target)),
        intent=Intent((Param("what", ("alert",)), Param("symbol", (symbol, name)),
                       Param("direction", action), Param("target", money_terms(target))),
                      opposite),
        say=(f"Please alert me when {label} {words[0]} {dollars(target)}.",
             f"Can you set a price alert for {symbol} for when it {words[1]} "
             f"{dollars(target)}?",
             f"I'd like a notification if {label} {words[2]} {dollars(target)} a "
             "share."),
        solution=write_steps(
            _lists(ctx, "list_price_alerts") + [_quote(symbol)],
            f"I will create a price alert for {label} for when the price {words[0]} "
            f"${target:,.2f}. Shall I proceed?", call),
        expect=(Expectation("SELECT count(*) FROM price_alerts WHERE investor_id = ? "
                            "AND symbol = ? AND direction = ? AND target_price = ? "
                            "AND status = 'active'",
                            (ctx.user_id, symbol, direction, target), ((1,),)),))


def add_to_watchlist(ctx: SampleContext) -> Constraint | None:
    lists = ctx.rows("SELECT watchlist_id, name FROM watchlists WHERE investor_id = ? "
                     "ORDER BY rowid", (ctx.user_id,))
    for watchlist_id, list_name in ctx.shuffled(lists):
        d = describe_watchlist(ctx, watchlist_id, list_name)
        if d is None or not ctx.claim(watchlist_id):
            continue
        options = ctx.rows("SELECT symbol, name FROM securities WHERE symbol NOT IN (SELECT "
                           "symbol FROM watchlist_items WHERE watchlist_id = ?) ORDER BY rowid",
                           (watchlist_id,))
        symbol, name = ctx.pick(options)
        label = _label(name, symbol)
        call = ToolCall("add_to_watchlist", {"watchlist_id": watchlist_id, "symbol": symbol})
        return Constraint(
            "add_to_watchlist", dict(call.arguments), refs={"watchlist": d},
            writes=(("add_to_watchlist", watchlist_id),),
            confirm_terms=(("add",), (symbol,), (list_name,)),
            say=(f"Please add {label} to my {d.text}.",
                 f"Can you put {symbol} on my {d.text}?",
                 f"I'd like to keep an eye on {label}; add it to my {d.text}, "
                 "please."),
            solution=write_steps(
                _lists(ctx, "list_watchlists"),
                f"I will add {label} to your \"{list_name}\" watchlist. "
                "Shall I proceed?", call),
            expect=(Expectation("SELECT count(*) FROM watchlist_items WHERE watchlist_id = ? "
                                "AND symbol = ?", (watchlist_id, symbol), ((1,),)),))
    return None


def cancel_price_alert(ctx: SampleContext) -> Constraint | None:
    rows = ctx.rows("SELECT p.alert_id, p.symbol, s.name, p.direction, p.target_price "
                    "FROM price_alerts p JOIN securities s ON s.symbol = p.symbol "
                    "WHERE p.investor_id = ? AND p.status = 'active' ORDER BY p.rowid",
                    (ctx.user_id,))
    for alert_id, symbol, name, direction, target in ctx.shuffled(rows):
        label = _label(name, symbol)
        d = describe_alert(ctx, alert_id, symbol, direction, target)
        if d is None or not ctx.claim(alert_id, ("alert", symbol)):
            continue
        call = ToolCall("cancel_price_alert", {"alert_id": alert_id})
        return Constraint(
            "cancel_price_alert", dict(call.arguments), refs={"alert": d},
            writes=(("cancel_price_alert", alert_id),),
            confirm_terms=(("cancel",), (symbol,), money_terms(target)),
            say=(f"Please cancel my {d.text}.",
                 f"I don't need the {d.text} anymore; can you remove it?",
                 f"Could you turn off my price {d.text}?"),
            solution=write_steps(
                _lists(ctx, "list_price_alerts"),
                f"I will cancel your price alert {alert_id} for {label} going "
                f"{direction} ${target:,.2f}. Shall I proceed?", call),
            expect=(Expectation("SELECT status FROM price_alerts WHERE alert_id = ?",
                                (alert_id,), (("cancelled",),)),))
    return None


# --------------------------------------------------------------------- answers

def info_position_value(ctx: SampleContext) -> Constraint | None:
    for acc in ctx.shuffled(_accounts(ctx, ("open", "restricted"))):
        account_id, kind, number = acc[:3]
        positions = _positions(ctx, account_id)
        if not positions:
            continue
        symbol, name, quantity, _, price, _, _ = ctx.pick(positions)
        label = _label(name, symbol)
        a = describe_account(ctx, account_id, kind, number)
        if a is None or not ctx.claim((account_id, symbol)):
            continue
        value = money(quantity * price)
        return Constraint(
            "info_position_value", {"account_id": account_id, "symbol": symbol},
            refs={"account": a}, answer=f"{value:.2f}",
            say=(f"How much are my {label} shares in my {a.text} worth right now?",
                 f"What's the current market value of my {symbol} position in my {a.text}?",
                 f"Can you tell me what my {label} holding in my {a.text} is worth "
                 "at today's price?"),
            solution=answer_steps(
                _lists(ctx, "list_accounts") + [
                    ToolCall("list_holdings", {"account_id": account_id})],
                f"Your {quantity} shares of {label} in your {a.text} are worth "
                f"${value:,.2f} at the last price."))
    return None


def info_buying_power(ctx: SampleContext) -> Constraint | None:
    for acc in ctx.shuffled(_accounts(ctx)):
        account_id, kind, number, cash, reserved = acc
        a = describe_account(ctx, account_id, kind, number)
        if a is None or not ctx.claim(("cash", account_id)):
            continue
        power = buying_power(cash, reserved)
        return Constraint(
            "info_buying_power", {"account_id": account_id}, refs={"account": a},
            answer=f"{power:.2f}",
            say=(f"How much buying power do I have in my {a.text}?",
                 f"How much cash can I use for new trades in my {a.text} right now?",
                 f"What's the buying power of my {a.text}?"),
            solution=answer_steps(
                _lists(ctx, "list_accounts"),
                f"Your {a.text} has ${power:,.2f} of buying power."))
    return None


def info_dividend_income(ctx: SampleContext) -> Constraint | None:
    rows = ctx.rows("SELECT d.account_id, a.type, a.account_number, d.symbol, s.name, "
                    "count(*), sum(d.amount) FROM dividends d JOIN accounts a "
                    "ON a.account_id = d.account_id JOIN securities s ON s.symbol = d.symbol "
                    "WHERE a.investor_id = ? AND substr(d.pay_date, 1, 4) = ? "
                    "GROUP BY d.account_id, d.symbol HAVING count(*) >= 2 "
                    "ORDER BY d.account_id, d.symbol", (ctx.user_id, YEAR))
    for account_id, kind, number, symbol, name, _, _ in ctx.shuffled(rows):
        label = _label(name, symbol)
        a = describe_account(ctx, account_id, kind, number)
        if a is None or not ctx.claim(("dividends", account_id, symbol)):
            continue
        amounts = [r[0] for r in ctx.rows(
            "SELECT amount FROM dividends WHERE account_id = ? AND symbol = ? "
            "AND substr(pay_date, 1, 4) = ? ORDER BY rowid", (account_id, symbol, YEAR))]
        total = 0.0
        for amount in amounts:
            total = money(total + amount)
        return Constraint(
            "info_dividend_income", {"account_id": account_id, "symbol": symbol, "year": YEAR},
            refs={"account": a}, answer=f"{total:.2f}",
            evidence=(("list_dividends", account_id),),
            say=(f"How much have I received in dividends from {label} in my "
                 f"{a.text} this year?",
                 f"What's the total of the {symbol} dividends paid into my {a.text} in "
                 f"{YEAR}?",
                 f"Can you add up the {label} dividends my {a.text} got this year?"),
            solution=answer_steps(
                _lists(ctx, "list_accounts") + [
                    ToolCall("list_dividends", {"account_id": account_id, "year": int(YEAR),
                                                "symbol": symbol})],
                f"In {YEAR} your {a.text} has received ${total:,.2f} in {label} "
                "dividends."))
    return None


def info_account_value(ctx: SampleContext) -> Constraint | None:
    for acc in ctx.shuffled(_accounts(ctx, ("open", "restricted"))):
        account_id, kind, number, cash = acc[:4]
        a = describe_account(ctx, account_id, kind, number)
        if a is None or not ctx.claim(("cash", account_id)):
            continue
        (holdings,) = ctx.rows(  # the same sum, in the same order, as get_account_summary
            "SELECT coalesce(sum(h.quantity * s.last_price), 0) FROM holdings h "
            "JOIN securities s ON s.symbol = h.symbol WHERE h.account_id = ?", (account_id,))[0]
        value = money(cash + money(holdings))
        return Constraint(
            "info_account_value", {"account_id": account_id}, refs={"account": a},
            answer=f"{value:.2f}",
            say=(f"What's the total value of my {a.text} right now, cash included?",
                 f"How much is my {a.text} worth in total today, holdings plus cash?",
                 f"Can you tell me the overall value of my {a.text}?"),
            solution=answer_steps(
                _lists(ctx, "list_accounts") + [
                    ToolCall("get_account_summary", {"account_id": account_id})],
                f"Your {a.text} is worth ${value:,.2f} in total, cash included."))
    return None


# -------------------------------------------------------------------- refusals

def refuse_over_balance(ctx: SampleContext) -> Constraint | None:
    for acc in ctx.shuffled(_accounts(ctx)):
        account_id, kind, number, cash, reserved = acc
        power = buying_power(cash, reserved)
        options = [o for o in _tradable_securities(ctx) if o[2] <= max(power, 1.0) * 3]
        if power < 50 or not options:
            continue
        symbol, name, price = ctx.pick(options)
        label = _label(name, symbol)
        if not ctx.claim(("cash", account_id), (account_id, symbol)):
            continue
        quantity = max(2, int(power * ctx.rng.uniform(1.3, 3.0) / price) + 1)
        if money(quantity * price) <= power:
            return None
        a = describe_account(ctx, account_id, kind, number)
        if a is None:
            return None
        cost = money(quantity * price)
        held = _held(ctx, account_id, symbol)
        return Constraint(
            "refuse_over_balance",
            {"account_id": account_id, "symbol": symbol, "side": "buy", "quantity": quantity},
            refs={"account": a}, answer="cannot",
            refusal=Refusal((account_id,), about=(account_id, a.text, (TYPE_WORDS[kind],
                                                                        number[-4:]),
                                                  *_BUYING_POWER_WORDS)),
            say=(f"Please buy {quantity} shares of {label} in my {a.text}.",
                 f"I want {quantity} {symbol} shares in my {a.text}, bought at the market "
                 "price right away.",
                 f"Can you place a market order for {quantity} shares of {label} "
                 f"in my {a.text}?"),
            solution=answer_steps(
                _lists(ctx, "list_accounts") + [_quote(symbol)],
                f"I'm sorry, but I cannot buy {quantity} shares of {symbol} in your {a.text}: "
                f"at the last price of ${price:,.2f} they cost about ${cost:,.2f}, more than "
                f"the account's buying power of ${power:,.2f}."),
            expect=(_cash_check(account_id, cash),
                    Expectation("SELECT quantity FROM holdings WHERE account_id = ? "
                                "AND symbol = ?", (account_id, symbol),
                                ((held,),) if held else ())))
    return None


def cancel_processed_order(ctx: SampleContext) -> Constraint | None:
    """A request to cancel an order that has already filled: refused (only an open order can
    be cancelled)."""
    rows = ctx.rows("SELECT o.order_id, o.account_id, o.side, o.quantity, o.symbol, s.name, "
                    "substr(o.placed_at, 1, 10) FROM orders o JOIN accounts a "
                    "ON a.account_id = o.account_id JOIN securities s ON s.symbol = o.symbol "
                    "WHERE a.investor_id = ? AND a.status != 'closed' AND o.status = 'filled' "
                    "AND o.placed_at >= ? ORDER BY o.rowid", (ctx.user_id, RECENT))
    for order_id, account_id, side, quantity, symbol, name, day in ctx.shuffled(rows):
        label = _label(name, symbol)
        d = ctx.describe(
            "order", f"order to {side} {quantity} shares of {label} from "
            f"{date_words(day)}", {"side": side, "quantity": quantity, "symbol": symbol,
                                   "date": day}, order_id,
            "SELECT o.order_id FROM orders o JOIN accounts a ON a.account_id = o.account_id "
            "WHERE a.investor_id = ? AND o.side = ? AND o.quantity = ? AND o.symbol = ? "
            "AND substr(o.placed_at, 1, 10) = ?", (ctx.user_id, side, quantity, symbol, day))
        if d is None or not ctx.claim(order_id):
            continue
        return Constraint(
            "cancel_processed_order", {"order_id": order_id}, refs={"order": d},
            answer="cannot",
            refusal=Refusal((order_id,), about=(order_id, *_FILLED_WORDS)),
            say=(f"Please cancel my {d.text}.",
                 f"I changed my mind about my {d.text}; can you cancel it?",
                 f"Can you undo my {d.text}? I don't want it anymore."),
            solution=answer_steps(
                _lists(ctx, "list_accounts") + [
                    ToolCall("list_orders", {"account_id": account_id})],
                f"I'm sorry, but I cannot cancel your {d.text}: it has already been filled "
                f"(executed) on {day}, and only an open order can be cancelled."),
            expect=(Expectation("SELECT status FROM orders WHERE order_id = ?", (order_id,),
                                (("filled",),)),))
    return None


# ------------------------------------------------------------------------ the kit

LOGIN = Login("investors", "investor_id", "find_investor_by_email",
              "find_investor_by_username")


def _buy_cost(db, arguments: dict) -> tuple[float, float] | None:
    """``(cost, buying power)`` of a buy order's arguments, or ``None`` (not a buy, or
    unknown account or security)."""
    if arguments.get("side") != "buy":
        return None
    account = db.execute("SELECT cash_balance, reserved_cash FROM accounts WHERE account_id = ?",
                         (arguments.get("account_id"),)).fetchone()
    symbol = arguments.get("symbol")
    price = db.execute("SELECT last_price FROM securities WHERE symbol = ?",
                       (symbol.strip().upper() if isinstance(symbol, str) else None,)).fetchone()
    quantity, limit = arguments.get("quantity"), arguments.get("limit_price")
    if account is None or price is None or not isinstance(quantity, (int, float)):
        return None
    per_share = price[0]
    if isinstance(limit, (int, float)) and limit < price[0]:
        per_share = limit
    return money(quantity * per_share), buying_power(*account)


def policy_violations(db, tool: str, arguments: dict) -> list[str]:
    """Policy rules a write would break (the ones the tools trust the agent with, and the
    ones they enforce themselves, so that a forbidden attempt is named)."""
    if not isinstance(arguments, dict):
        return []
    if tool in ("place_market_order", "place_limit_order"):
        found = _buy_cost(db, arguments)
        if found is not None and found[0] > found[1]:
            return ["policy:buying_power"]
    if tool == "cancel_order":
        row = db.execute("SELECT status FROM orders WHERE order_id = ?",
                         (arguments.get("order_id"),)).fetchone()
        if row is not None and row[0] != "open":
            return ["policy:order_not_open"]
    if tool in ("withdraw_funds", "deposit_funds"):
        row = db.execute("SELECT type FROM accounts WHERE account_id = ?",
                         (arguments.get("account_id"),)).fetchone()
        if row is None or row[0] != "ira":
            return []
        if tool == "withdraw_funds":
            return ["policy:ira_withdrawal"]
        amount = arguments.get("amount")
        used = ira_contributions(db, arguments.get("account_id"))
        if isinstance(amount, (int, float)) and money(used + amount) > IRA_CONTRIBUTION_LIMIT:
            return ["policy:ira_contribution_limit"]
    return []


_ACCOUNT_OWNER = ("SELECT investor_id FROM accounts WHERE account_id = ?", "account_id")
_INVESTOR = ("SELECT investor_id FROM investors WHERE investor_id = ?", "investor_id")

SAMPLERS = by_name(
    buy_shares, sell_shares, place_limit_order, cancel_open_order, deposit_funds,
    withdraw_funds, set_dividend_reinvestment, create_price_alert, add_to_watchlist,
    cancel_price_alert, info_position_value, info_buying_power, info_dividend_income,
    info_account_value, refuse_over_balance, cancel_processed_order)

TASKS = RuleTaskKit(
    "trading", SAMPLERS,
    **LOGIN.kit_keywords(),
    owners={
        "place_market_order": _ACCOUNT_OWNER,
        "place_limit_order": _ACCOUNT_OWNER,
        "deposit_funds": _ACCOUNT_OWNER,
        "withdraw_funds": _ACCOUNT_OWNER,
        "set_dividend_reinvestment": _ACCOUNT_OWNER,
        "cancel_order": ("SELECT a.investor_id FROM orders o JOIN accounts a "
                         "ON a.account_id = o.account_id WHERE o.order_id = ?", "order_id"),
        "create_watchlist": _INVESTOR,
        "create_price_alert": _INVESTOR,
        "add_to_watchlist": ("SELECT investor_id FROM watchlists WHERE watchlist_id = ?",
                             "watchlist_id"),
        "remove_from_watchlist": ("SELECT investor_id FROM watchlists WHERE watchlist_id = ?",
                                  "watchlist_id"),
        "cancel_price_alert": ("SELECT investor_id FROM price_alerts WHERE alert_id = ?",
                               "alert_id"),
    },
    ask_identity=ASK_IDENTITY,
    identity_phrases=("Sure, {text}.", "Of course: {text}.", "Yes, {text}."),
    greetings=("Hi!", "Hello,", "Hi there.", "Good morning."),
    policy_violations=policy_violations,
)
