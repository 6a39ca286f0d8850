"""Seeded synthetic data of the trading domain.

``generate(seed)`` returns the native data: ``{table: [row dict, ...]}`` in the column
order of ``schema.sql`` and in rowid order, exactly what :func:`..io.export` gives back after
:func:`..io.load`. Everything comes from ``numpy.random.default_rng(seed)``; the broker's
clock is the fixed ``NOW`` of :mod:`.tools`, so the same seed always gives the same broker.

About 60 securities (stocks and ETFs, two of them halted) and 220 investors, each with an
individual account (some also an IRA or a joint account, a few closed or restricted),
one to three linked banks, positions, a history of filled and cancelled orders, open
limit orders that reserve cash or shares, deposits and withdrawals, quarterly dividends,
watchlists and price alerts.
"""

from __future__ import annotations

from datetime import date, timedelta

import numpy as np

from .tools import IRA_CONTRIBUTION_LIMIT, NOW, TODAY, money

N_INVESTORS = 220
_TODAY = date.fromisoformat(TODAY)

FIRST = ("James Mary Robert Patricia John Jennifer Michael Linda David Elizabeth William "
         "Barbara Richard Susan Joseph Jessica Thomas Sarah Charles Karen Daniel Lisa Matthew "
         "Nancy Anthony Betty Mark Sandra Donald Ashley Steven Emily Paul Donna Andrew Michelle "
         "Joshua Carol Kevin Amanda Brian Melissa George Deborah Omar Aisha Wei Mei Carlos "
         "Lucia Raj Priya Ahmed Fatima Hiroshi Yuki Ivan Olga Kwame Amara").split()
LAST = ("Smith Johnson Williams Brown Jones Garcia Miller Davis Rodriguez Martinez Hernandez "
        "Lopez Gonzalez Wilson Anderson Thomas Taylor Moore Jackson Martin Lee Perez Thompson "
        "White Harris Sanchez Clark Ramirez Lewis Robinson Walker Young Allen King Wright Scott "
        "Torres Nguyen Hill Flores Green Adams Nelson Baker Hall Rivera Campbell Mitchell "
        "Carter Roberts Patel Kim Chen Okafor Novak Schmidt Rossi Tanaka Haddad").split()
CITIES = ("Austin", "Denver", "Seattle", "Portland", "Chicago", "Boston", "Atlanta", "Phoenix",
          "Columbus", "Raleigh", "Madison", "Sacramento", "Pittsburgh", "Tampa", "Omaha")
EMAIL_HOSTS = ("example.com", "mail.com", "inbox.net", "post.org")
BANKS = ("Chase", "Bank of America", "Wells Fargo", "Citibank", "US Bank", "PNC Bank",
         "Capital One", "Ally Bank", "TD Bank", "Truist")
NICKNAMES = {"individual": ("Main Brokerage", "Growth Portfolio", "Trading Account",
                            "Long Term Investing"),
             "joint": ("Family Joint", "Joint Savings Portfolio"),
             "ira": ("Retirement IRA", "Rollover IRA")}
WATCHLIST_NAMES = ("Tech Picks", "Dividend Ideas", "Long Term", "Earnings Watch",
                   "Clean Energy", "Healthcare Names", "Banks to Watch", "ETF Shortlist")
#: (symbol, name, kind, sector, exchange, base price, annual dividend per share).
SECURITIES = (
    ("AAPL", "Apple", "stock", "Technology", "NASDAQ", 227.0, 1.00),
    ("MSFT", "Microsoft", "stock", "Technology", "NASDAQ", 422.0, 3.32),
    ("NVDA", "Nvidia", "stock", "Technology", "NASDAQ", 148.0, 0.04),
    ("GOOGL", "Alphabet", "stock", "Communication", "NASDAQ", 178.0, 0.80),
    ("AMZN", "Amazon", "stock", "Consumer", "NASDAQ", 208.0, 0.0),
    ("META", "Meta Platforms", "stock", "Communication", "NASDAQ", 589.0, 2.00),
    ("TSLA", "Tesla", "stock", "Consumer", "NASDAQ", 321.0, 0.0),
    ("NFLX", "Netflix", "stock", "Communication", "NASDAQ", 795.0, 0.0),
    ("AMD", "Advanced Micro Devices", "stock", "Technology", "NASDAQ", 145.0, 0.0),
    ("INTC", "Intel", "stock", "Technology", "NASDAQ", 25.0, 0.50),
    ("CSCO", "Cisco Systems", "stock", "Technology", "NASDAQ", 58.0, 1.60),
    ("ORCL", "Oracle", "stock", "Technology", "NYSE", 189.0, 1.60),
    ("CRM", "Salesforce", "stock", "Technology", "NYSE", 322.0, 1.60),
    ("ADBE", "Adobe", "stock", "Technology", "NASDAQ", 505.0, 0.0),
    ("IBM", "IBM", "stock", "Technology", "NYSE", 212.0, 6.68),
    ("JPM", "JPMorgan Chase", "stock", "Financials", "NYSE", 241.0, 5.00),
    ("BAC", "Bank of America Corp", "stock", "Financials", "NYSE", 45.0, 1.04),
    ("WFC", "Wells Fargo & Co", "stock", "Financials", "NYSE", 71.0, 1.60),
    ("GS", "Goldman Sachs", "stock", "Financials", "NYSE", 583.0, 12.00),
    ("AXP", "American Express", "stock", "Financials", "NYSE", 285.0, 2.80),
    ("MA", "Mastercard", "stock", "Financials", "NYSE", 522.0, 2.64),
    ("PYPL", "PayPal", "stock", "Financials", "NASDAQ", 86.0, 0.0),
    ("JNJ", "Johnson & Johnson", "stock", "Healthcare", "NYSE", 155.0, 4.96),
    ("PFE", "Pfizer", "stock", "Healthcare", "NYSE", 27.0, 1.68),
    ("MRK", "Merck", "stock", "Healthcare", "NYSE", 101.0, 3.08),
    ("UNH", "UnitedHealth Group", "stock", "Healthcare", "NYSE", 605.0, 8.40),
    ("ABBV", "AbbVie", "stock", "Healthcare", "NYSE", 180.0, 6.20),
    ("LLY", "Eli Lilly", "stock", "Healthcare", "NYSE", 815.0, 5.20),
    ("KO", "Coca-Cola", "stock", "Consumer Staples", "NYSE", 64.0, 1.94),
    ("PEP", "PepsiCo", "stock", "Consumer Staples", "NASDAQ", 160.0, 5.42),
    ("PG", "Procter & Gamble", "stock", "Consumer Staples", "NYSE", 168.0, 4.03),
    ("WMT", "Walmart", "stock", "Consumer Staples", "NYSE", 84.0, 0.83),
    ("COST", "Costco Wholesale", "stock", "Consumer Staples", "NASDAQ", 905.0, 4.64),
    ("MCD", "McDonald's", "stock", "Consumer", "NYSE", 296.0, 6.68),
    ("SBUX", "Starbucks", "stock", "Consumer", "NASDAQ", 98.0, 2.44),
    ("NKE", "Nike", "stock", "Consumer", "NYSE", 77.0, 1.60),
    ("DIS", "Walt Disney", "stock", "Communication", "NYSE", 99.0, 1.00),
    ("TMUS", "T-Mobile US", "stock", "Communication", "NASDAQ", 230.0, 3.52),
    ("VZ", "Verizon", "stock", "Communication", "NYSE", 42.0, 2.71),
    ("XOM", "Exxon Mobil", "stock", "Energy", "NYSE", 121.0, 3.96),
    ("CVX", "Chevron", "stock", "Energy", "NYSE", 158.0, 6.52),
    ("NEE", "NextEra Energy", "stock", "Utilities", "NYSE", 77.0, 2.06),
    ("DUK", "Duke Energy", "stock", "Utilities", "NYSE", 113.0, 4.18),
    ("ENPH", "Enphase Energy", "stock", "Energy", "NASDAQ", 70.0, 0.0),
    ("RIVN", "Rivian Automotive", "stock", "Consumer", "NASDAQ", 11.0, 0.0),
    ("GM", "General Motors", "stock", "Consumer", "NYSE", 56.0, 0.48),
    ("BA", "Boeing", "stock", "Industrials", "NYSE", 150.0, 0.0),
    ("CAT", "Caterpillar", "stock", "Industrials", "NYSE", 392.0, 5.64),
    ("UPS", "United Parcel Service", "stock", "Industrials", "NYSE", 134.0, 6.52),
    ("HD", "Home Depot", "stock", "Consumer", "NYSE", 408.0, 9.00),
    ("SPG", "Simon Property Group", "stock", "Real Estate", "NYSE", 170.0, 8.20),
    ("PLTR", "Palantir Technologies", "stock", "Technology", "NYSE", 55.0, 0.0),
    ("UBER", "Uber Technologies", "stock", "Technology", "NYSE", 75.0, 0.0),
    ("SPY", "SPDR S&P 500 ETF", "etf", "Index Funds", "NYSE", 598.0, 6.80),
    ("VOO", "Vanguard S&P 500 ETF", "etf", "Index Funds", "NYSE", 549.0, 6.40),
    ("QQQ", "Invesco QQQ Trust", "etf", "Index Funds", "NASDAQ", 514.0, 2.80),
    ("VTI", "Vanguard Total Stock Market ETF", "etf", "Index Funds", "NYSE", 296.0, 3.60),
    ("SCHD", "Schwab US Dividend Equity ETF", "etf", "Index Funds", "NYSE", 29.0, 1.00),
    ("BND", "Vanguard Total Bond Market ETF", "etf", "Bonds", "NASDAQ", 72.0, 2.52),
    ("VNQ", "Vanguard Real Estate ETF", "etf", "Real Estate", "NYSE", 94.0, 3.80),
    ("GLD", "SPDR Gold Shares", "etf", "Commodities", "NYSE", 249.0, 0.0),
)
#: Dividend pay days of the history (quarterly; the last one of 2023 and three of 2024).
PAY_DATES = ("2023-11-15", "2024-02-15", "2024-05-15", "2024-08-15")
TABLES = ("investors", "accounts", "bank_links", "securities", "holdings", "orders",
          "cash_transfers", "dividends", "watchlists", "watchlist_items", "price_alerts")
_ALNUM = "abcdefghijklmnopqrstuvwxyz0123456789"


def _day(offset: int) -> str:
    return (_TODAY - timedelta(days=int(offset))).isoformat()


def _stamp(offset: int, rng: np.random.Generator) -> str:
    return f"{_day(offset)}T{int(rng.integers(9, 16)):02d}:{int(rng.integers(0, 60)):02d}:00"


class _Broker:
    """The tables being drawn, with the values that must stay unique across investors."""

    def __init__(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)
        self.data: dict[str, list[dict]] = {t: [] for t in TABLES}
        self.tokens: set[str] = set()
        self.numbers: set[str] = set()
        self.emails: set[str] = set()
        self.usernames: set[str] = set()
        self.prices: dict[str, float] = {}
        self.dividend: dict[str, float] = {}

    def pick(self, options):
        return options[int(self.rng.integers(len(options)))]

    def token(self, prefix: str, n: int = 8) -> str:
        """A new id ``prefix_xxxxxxxx``: a letter first (created ids are digits)."""
        while True:
            chars = [_ALNUM[int(i)] for i in self.rng.integers(0, 36, size=n)]
            chars[0] = _ALNUM[int(self.rng.integers(0, 26))]
            value = f"{prefix}_{''.join(chars)}"
            if value not in self.tokens:
                self.tokens.add(value)
                return value

    def digits(self, k: int) -> str:
        return "".join(str(int(d)) for d in self.rng.integers(0, 10, size=k))

    def cents(self, lo: float, hi: float) -> float:
        return money(self.rng.uniform(lo, hi))

    def securities(self) -> None:
        rng = self.rng
        halted = set(rng.choice(len(SECURITIES), size=2, replace=False).tolist())
        for i, (symbol, name, kind, sector, exchange, base, dividend) in enumerate(SECURITIES):
            last = money(base * rng.uniform(0.9, 1.1))
            previous = money(last / (1 + rng.normal(0, 0.015)))
            high = money(max(last, previous) * (1 + rng.uniform(0.001, 0.02)))
            low = money(min(last, previous) * (1 - rng.uniform(0.001, 0.02)))
            self.prices[symbol] = last
            self.dividend[symbol] = dividend
            self.data["securities"].append({
                "symbol": symbol, "name": name, "kind": kind, "sector": sector,
                "exchange": exchange, "last_price": last, "previous_close": previous,
                "day_high": high, "day_low": low, "annual_dividend": dividend,
                "trading_status": "halted" if i in halted else "active"})


class _Investor:
    """One investor and their rows, drawn table by table in a fixed order."""

    def __init__(self, broker: _Broker) -> None:
        self.broker, self.rng = broker, broker.rng
        self.accounts: list[dict] = []
        self.banks: list[dict] = []
        self.holdings: dict[str, list[dict]] = {}
        self.last4s: set[str] = set()

    def draw(self) -> None:
        for step in (self.profile, self.open_accounts, self.link_banks, self.positions,
                     self.order_history, self.cash_history, self.dividends, self.watchlists,
                     self.alerts):
            step()

    def profile(self) -> None:
        b, rng = self.broker, self.rng
        first, last = b.pick(FIRST), b.pick(LAST)
        self.investor_id = b.token("inv")
        while True:
            email = f"{first}.{last}{int(rng.integers(1, 1000))}@{b.pick(EMAIL_HOSTS)}".lower()
            if email not in b.emails:
                b.emails.add(email)
                break
        while True:
            username = f"{first[0]}{last}{int(rng.integers(10, 100))}".lower()
            if username not in b.usernames:
                b.usernames.add(username)
                break
        b.data["investors"].append({
            "investor_id": self.investor_id, "first_name": first, "last_name": last,
            "email": email, "username": username,
            "phone": f"+1-555-{int(rng.integers(200, 1000))}-{int(rng.integers(0, 10000)):04d}",
            "city": b.pick(CITIES), "member_since": _day(int(rng.integers(200, 4000))),
            "risk_tolerance": b.pick(("conservative", "moderate", "moderate", "aggressive"))})

    # ------------------------------------------------------------------- accounts
    def last4(self) -> str:
        """Four digits that no other account or bank of this investor ends in."""
        while True:
            value = self.broker.digits(4)
            if value not in self.last4s:
                self.last4s.add(value)
                return value

    def account_number(self) -> str:
        while True:
            number = "7" + self.broker.digits(7)
            if number not in self.broker.numbers and number[-4:] not in self.last4s:
                self.broker.numbers.add(number)
                self.last4s.add(number[-4:])
                return number

    def open_account(self, kind: str, status: str = "open") -> dict:
        b, rng = self.broker, self.rng
        cash = 0.0 if status == "closed" else b.cents(150, 25000)
        row = {"account_id": b.token("acc"), "investor_id": self.investor_id, "type": kind,
               "nickname": b.pick(NICKNAMES[kind]), "account_number": self.account_number(),
               "cash_balance": cash, "reserved_cash": 0.0, "status": status,
               "opened_on": _day(int(rng.integers(400, 3000)))}
        self.accounts.append(row)
        return row

    def open_accounts(self) -> None:
        rng = self.rng
        roll = rng.random()
        self.open_account("individual", "restricted" if roll < 0.04 else "open")
        if rng.random() < 0.5:
            self.open_account("ira")
        if rng.random() < 0.15:
            self.open_account("joint")
        if rng.random() < 0.06:
            self.open_account("individual", "closed")
        self.broker.data["accounts"].extend(self.accounts)

    def link_banks(self) -> None:
        b, rng = self.broker, self.rng
        names = [str(n) for n in rng.choice(BANKS, size=int(rng.integers(1, 4)), replace=False)]
        for i, name in enumerate(names):
            status = "pending" if i > 0 and rng.random() < 0.35 else "verified"
            self.banks.append({"bank_link_id": b.token("bnk"), "investor_id": self.investor_id,
                               "bank_name": name, "account_last4": self.last4(),
                               "status": status,
                               "linked_on": _day(int(rng.integers(30, 900)))})
        b.data["bank_links"].extend(self.banks)

    # ------------------------------------------------------------------ positions
    def positions(self) -> None:
        b, rng = self.broker, self.rng
        for account in self.accounts:
            if account["status"] == "closed":
                continue
            count = int(rng.integers(2, 8))
            picks = rng.choice(len(SECURITIES), size=count, replace=False)
            rows = []
            for i in sorted(picks.tolist()):
                symbol = SECURITIES[i][0]
                price = b.prices[symbol]
                quantity = max(1, int(rng.integers(2000, 30000) / price))
                drip = int(b.dividend[symbol] > 0 and rng.random() < 0.35)
                rows.append({"holding_id": b.token("hld"), "account_id": account["account_id"],
                             "symbol": symbol, "quantity": quantity, "reserved_quantity": 0,
                             "average_cost": money(price * rng.uniform(0.55, 1.25)),
                             "reinvest_dividends": drip,
                             "opened_on": _day(int(rng.integers(120, 1500)))})
            self.holdings[account["account_id"]] = rows

    def order(self, account: dict, symbol: str, side: str, order_type: str, quantity: int,
              limit: float | None, status: str, fill: float | None, offset: int) -> dict:
        b = self.broker
        placed = _stamp(offset, self.rng)
        closed = None if status == "open" else placed
        return {"order_id": b.token("ord"), "account_id": account["account_id"],
                "symbol": symbol, "side": side, "order_type": order_type, "quantity": quantity,
                "limit_price": limit, "status": status, "fill_price": fill,
                "placed_at": placed, "closed_at": closed}

    def order_history(self) -> None:
        b, rng = self.broker, self.rng
        orders: list[dict] = []
        for account in self.accounts:
            for h in self.holdings.get(account["account_id"], []):
                offset = (_TODAY - date.fromisoformat(h["opened_on"])).days
                kind = "limit" if rng.random() < 0.3 else "market"
                limit = money(h["average_cost"] * 1.01) if kind == "limit" else None
                orders.append(self.order(account, h["symbol"], "buy", kind, h["quantity"],
                                         limit, "filled", h["average_cost"], offset))
            for _ in range(int(rng.integers(0, 3))):  # old trades of other securities
                symbol = b.pick(SECURITIES)[0]
                price = money(b.prices[symbol] * rng.uniform(0.7, 1.1))
                quantity = max(1, int(rng.integers(500, 6000) / price))
                offset = int(rng.integers(10, 300))
                orders.append(self.order(account, symbol, "buy", "market", quantity, None,
                                         "filled", price, offset + 40))
                orders.append(self.order(account, symbol, "sell", "market", quantity, None,
                                         "filled", money(price * rng.uniform(0.9, 1.3)),
                                         offset))
            if rng.random() < 0.3:
                symbol = b.pick(SECURITIES)[0]
                price = b.prices[symbol]
                orders.append(self.order(account, symbol, "buy", "limit",
                                         max(1, int(rng.integers(500, 4000) / price)),
                                         money(price * 0.85), "cancelled", None,
                                         int(rng.integers(5, 200))))
            if account["status"] == "open":
                orders += self.open_orders(account)
        orders.sort(key=lambda o: o["placed_at"])
        b.data["orders"].extend(orders)
        for account in self.accounts:
            b.data["holdings"].extend(self.holdings.get(account["account_id"], []))

    def open_orders(self, account: dict) -> list[dict]:
        """Resting limit orders: buys below the price (cash reserved), sells above it."""
        b, rng = self.broker, self.rng
        orders = []
        if rng.random() < 0.4:
            held = {h["symbol"] for h in self.holdings[account["account_id"]]}
            options = [s for s in SECURITIES if s[0] not in held]
            symbol = b.pick(options)[0]
            price = b.prices[symbol]
            limit = money(price * rng.uniform(0.85, 0.97))
            quantity = max(1, int(rng.integers(800, 5000) / limit))
            cost = money(quantity * limit)
            if cost < account["cash_balance"] - 50:
                account["reserved_cash"] = money(account["reserved_cash"] + cost)
                orders.append(self.order(account, symbol, "buy", "limit", quantity, limit,
                                         "open", None, int(rng.integers(0, 12))))
        holdings = self.holdings[account["account_id"]]
        if holdings and rng.random() < 0.35:
            h = b.pick(holdings)
            if h["quantity"] >= 4:
                quantity = int(rng.integers(1, h["quantity"] // 2 + 1))
                limit = money(b.prices[h["symbol"]] * rng.uniform(1.04, 1.2))
                h["reserved_quantity"] = quantity
                orders.append(self.order(account, h["symbol"], "sell", "limit", quantity,
                                         limit, "open", None, int(rng.integers(0, 12))))
        return orders

    # -------------------------------------------------------------------- cash
    def cash_history(self) -> None:
        b, rng = self.broker, self.rng
        verified = [k for k in self.banks if k["status"] == "verified"]
        rows = []
        for account in self.accounts:
            if account["type"] == "ira":
                room = IRA_CONTRIBUTION_LIMIT if rng.random() < 0.8 else 0.0
                contributed = 0.0
                for _ in range(int(rng.integers(1, 4))):
                    amount = float(b.pick((500, 1000, 1500, 2000, 2500)))
                    if contributed + amount > IRA_CONTRIBUTION_LIMIT - 250:
                        break
                    contributed += amount
                    rows.append(self.transfer(account, b.pick(verified), "deposit", amount,
                                              int(rng.integers(10, 300))))
                if room == 0.0 and contributed < IRA_CONTRIBUTION_LIMIT:  # maxed out
                    rows.append(self.transfer(account, b.pick(verified), "deposit",
                                              money(IRA_CONTRIBUTION_LIMIT - contributed),
                                              int(rng.integers(5, 200))))
                rows.append(self.transfer(account, b.pick(verified), "deposit",
                                          float(b.pick((3000, 6500, 7000))),
                                          int(rng.integers(320, 700))))
                continue
            for _ in range(int(rng.integers(1, 5))):
                amount = float(b.pick((250, 500, 1000, 2000, 5000, 10000)))
                rows.append(self.transfer(account, b.pick(verified), "deposit", amount,
                                          int(rng.integers(10, 700))))
            if rng.random() < 0.4:
                rows.append(self.transfer(account, b.pick(verified), "withdrawal",
                                          b.cents(100, 3000), int(rng.integers(5, 400))))
        rows.sort(key=lambda t: t["created_at"])
        b.data["cash_transfers"].extend(rows)

    def transfer(self, account: dict, bank: dict, direction: str, amount: float,
                 offset: int) -> dict:
        return {"transfer_id": self.broker.token("trf"), "account_id": account["account_id"],
                "bank_link_id": bank["bank_link_id"], "direction": direction,
                "amount": amount, "created_at": _stamp(offset, self.rng)}

    # -------------------------------------------------------------- dividends
    def dividends(self) -> None:
        b, rng = self.broker, self.rng
        rows = []
        for account in self.accounts:
            for h in self.holdings.get(account["account_id"], []):
                per_share = round(b.dividend[h["symbol"]] / 4, 4)
                if per_share <= 0:
                    continue
                for pay_date in PAY_DATES:
                    if pay_date < h["opened_on"]:
                        continue
                    shares = max(1, h["quantity"] - int(rng.integers(0, 3)) * (
                        h["quantity"] // 10))
                    amount = money(shares * per_share)
                    if amount <= 0:
                        continue
                    rows.append({"dividend_id": b.token("div"),
                                 "account_id": account["account_id"], "symbol": h["symbol"],
                                 "pay_date": pay_date, "shares": shares,
                                 "per_share": per_share, "amount": amount,
                                 "reinvested": h["reinvest_dividends"]})
        rows.sort(key=lambda d: d["pay_date"])
        b.data["dividends"].extend(rows)

    # ---------------------------------------------------- watchlists and alerts
    def watchlists(self) -> None:
        b, rng = self.broker, self.rng
        count = int(rng.choice((0, 1, 1, 2, 2, 3)))
        for name in rng.choice(WATCHLIST_NAMES, size=count, replace=False).tolist():
            watchlist_id = b.token("wl")
            b.data["watchlists"].append({"watchlist_id": watchlist_id,
                                         "investor_id": self.investor_id, "name": name,
                                         "created_on": _day(int(rng.integers(20, 600)))})
            size = int(rng.integers(2, 9))
            for i in sorted(rng.choice(len(SECURITIES), size=size, replace=False).tolist()):
                b.data["watchlist_items"].append({
                    "watchlist_id": watchlist_id, "symbol": SECURITIES[i][0],
                    "added_on": _day(int(rng.integers(1, 20)))})

    def alerts(self) -> None:
        b, rng = self.broker, self.rng
        for _ in range(int(rng.integers(0, 5))):
            symbol = b.pick(SECURITIES)[0]
            price = b.prices[symbol]
            direction = b.pick(("above", "below"))
            factor = rng.uniform(1.05, 1.3) if direction == "above" else rng.uniform(0.7, 0.95)
            target = float(round(price * factor)) if price > 20 else money(price * factor)
            roll = rng.random()
            status = "active" if roll < 0.6 else "triggered" if roll < 0.8 else "cancelled"
            created = int(rng.integers(10, 300))
            triggered = _day(int(rng.integers(1, created))) if status == "triggered" else None
            if status == "active" and any(
                    a["investor_id"] == self.investor_id and a["symbol"] == symbol
                    and a["direction"] == direction and a["target_price"] == target
                    and a["status"] == "active" for a in b.data["price_alerts"][-5:]):
                continue
            b.data["price_alerts"].append({
                "alert_id": b.token("alt"), "investor_id": self.investor_id,
                "symbol": symbol, "direction": direction, "target_price": target,
                "status": status, "created_on": _day(created), "triggered_on": triggered})


def generate(seed: int) -> dict[str, list[dict]]:
    """The native data of a broker made from ``seed``."""
    broker = _Broker(seed)
    broker.securities()
    for _ in range(N_INVESTORS):
        _Investor(broker).draw()
    assert NOW.startswith(TODAY)
    return broker.data
