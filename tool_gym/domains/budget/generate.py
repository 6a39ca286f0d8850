"""Seeded synthetic data of the budget domain.

``generate(seed)`` returns the native data: ``{table: [row dict, ...]}`` in the column order
of ``schema.sql`` and in rowid order, exactly what :func:`..io.export` gives back after
:func:`..io.load`. Everything comes from ``numpy.random.default_rng(seed)``, drawn in a
fixed order; the app's clock is the fixed ``TODAY`` of :mod:`.tools`.

110 users, each with a checking account and most with savings, a credit card or cash; a
dozen spending and income categories (a few archived); monthly budgets from April to June
(some already set for July); three and a half months of transactions (paychecks, bills,
everyday spending, refunds, the last two days pending, recent ones not yet categorized);
recurring bills (a few cancelled) and savings goals with the transfers that funded them.
"""

from __future__ import annotations

import string
from datetime import date, timedelta

import numpy as np

from .io import TABLES
from .tools import TODAY, cents_of, dollars_of

N_USERS = 110
_TODAY = date.fromisoformat(TODAY)
_START = date(2024, 3, 1)
MONTHS = ("2024-03", "2024-04", "2024-05", "2024-06")

FIRST = ("Ava Ben Chloe Dan Eva Finn Gia Hugo Iris Jack Kara Leo Mia Nate Opal Paul Rosa Sam "
         "Tess Umar Vera Wes Yara Zane Amir Bella Cyrus Dana Elio Farah Gabe Hana Ivo June Kofi "
         "Lena Milo Nora Oren Pia Quinn Ravi Sara Theo Uma Vik Wren").split()
LAST = ("Adler Baptiste Costa Dubois Eklund Ferreira Gupta Hansen Ito Jovanovic Kaur Lambert "
        "Morales Nilsen Oliveira Pereira Rossi Sato Toivonen Ueda Varga Weber Yamada Zamora "
        "Alvarez Bauer Castillo Diaz Engel Fontaine Guerra Hoffmann Iqbal Jansen Kovacs").split()
EMAIL_HOSTS = ("example.com", "mail.com", "inbox.net", "post.org")
BANKS = ("Chase", "Wells Fargo", "Ally Bank", "Capital One", "Citibank", "Bank of America")
CARDS = (("Chase Freedom", "Chase"), ("Quicksilver Card", "Capital One"),
         ("Double Cash Card", "Citibank"), ("Blue Cash Card", "American Express"),
         ("Discover It", "Discover"))
SAVINGS = ("High-Yield Savings", "Emergency Savings", "Rainy Day Savings")
#: category -> (group, merchants, low, high, visits a month): spending categories.
SPENDING = {
    "Groceries": ("essentials", ("Whole Foods Market", "Trader Joe's", "Safeway", "Kroger",
                                 "Costco"), 25, 180, (2, 4)),
    "Transportation": ("essentials", ("Shell", "Chevron", "Uber", "Lyft", "Metro Transit"),
                       8, 70, (1, 3)),
    "Health": ("essentials", ("CVS Pharmacy", "Walgreens", "City Dental"), 8, 160, (0, 1)),
    "Dining Out": ("lifestyle", ("Chipotle", "Starbucks", "Olive Garden", "Sweetgreen",
                                 "Panera Bread", "Luigi's Pizza"), 6, 85, (1, 4)),
    "Entertainment": ("lifestyle", ("AMC Theatres", "Steam", "Ticketmaster", "Bowlero"),
                      10, 120, (0, 2)),
    "Shopping": ("lifestyle", ("Amazon", "Target", "IKEA", "Best Buy", "Old Navy"), 12, 260,
                 (0, 2)),
    "Travel": ("lifestyle", ("Delta Air Lines", "Marriott", "Airbnb", "Amtrak"), 80, 600,
               (0, 1)),
    "Personal Care": ("lifestyle", ("Great Clips", "Sephora", "Ulta Beauty"), 15, 90, (0, 1)),
    "Gifts": ("lifestyle", ("Etsy", "Hallmark", "1-800-Flowers"), 15, 120, (0, 1)),
    "Pets": ("lifestyle", ("Petco", "Chewy", "Happy Paws Vet"), 20, 150, (0, 2)),
    "Home Improvement": ("lifestyle", ("Home Depot", "Lowe's", "Ace Hardware"), 15, 300,
                         (0, 1)),
}
#: category -> (group, (bill name, low, high, frequency)...): categories that bills pay.
BILLED = {
    "Rent": ("essentials", (("Maple Court Apartments", 1100, 2400, "monthly"),
                            ("Greenview Properties", 1200, 2600, "monthly"),
                            ("Harbor Lofts Leasing", 1300, 2800, "monthly"))),
    "Utilities": ("essentials", (("City Power & Light", 60, 160, "monthly"),
                                 ("Metro Gas Company", 30, 110, "monthly"),
                                 ("City Water", 25, 70, "monthly"))),
    "Phone & Internet": ("essentials", (("Comcast Xfinity", 60, 110, "monthly"),
                                        ("Verizon Wireless", 45, 120, "monthly"),
                                        ("T-Mobile", 40, 100, "monthly"))),
    "Insurance": ("essentials", (("Geico Auto", 90, 180, "monthly"),
                                 ("State Farm Renters", 15, 30, "monthly"))),
    "Subscriptions": ("lifestyle", (("Netflix", 15.49, 15.49, "monthly"),
                                    ("Spotify", 10.99, 10.99, "monthly"),
                                    ("Disney+", 13.99, 13.99, "monthly"),
                                    ("Amazon Prime", 139, 139, "yearly"))),
    "Fitness": ("lifestyle", (("Planet Fitness", 24.99, 24.99, "monthly"),
                              ("Peloton App", 12.99, 12.99, "monthly"),
                              ("YMCA Membership", 55, 55, "monthly"))),
    "Debt Payments": ("financial", (("Student Loan Servicing", 180, 420, "monthly"),
                                    ("Auto Loan", 250, 480, "monthly"))),
}
INCOME = {"Salary": ("Acme Corp Payroll", "Globex Payroll", "Initech Payroll",
                     "Umbrella Health Payroll", "City of Springfield Payroll"),
          "Side Income": ("Etsy Payout", "Upwork", "DoorDash Payout"),
          "Interest": ("Interest payment",)}
GOALS = ("Vacation", "Emergency Fund", "New Laptop", "Wedding", "Car Down Payment",
         "Home Repairs", "Holiday Gifts", "New Phone")
MEMOS = ("", "", "", "split with roommate", "birthday", "work trip", "reimbursable")
_ALNUM = string.ascii_lowercase + string.digits


class _Draw:
    """The numpy generator with the draws this module needs."""

    def __init__(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)
        self.used: set[str] = set()

    def pick(self, options):
        return options[int(self.rng.integers(len(options)))]

    def sample(self, options, k: int) -> list:
        return [options[int(i)] for i in self.rng.choice(len(options), size=k, replace=False)]

    def int(self, lo: int, hi: int) -> int:
        """An integer in ``lo..hi`` (both included)."""
        return int(self.rng.integers(lo, hi + 1))

    def chance(self, p: float) -> bool:
        return bool(self.rng.random() < p)

    def cents(self, lo: float, hi: float) -> int:
        return int(self.rng.integers(cents_of(lo), cents_of(hi) + 1))

    def day(self, first: date, last: date) -> date:
        return first + timedelta(days=self.int(0, (last - first).days))

    def token(self, prefix: str, n: int = 8) -> str:
        """A unique id ``prefix_xxxxxxxx`` starting with a letter (ids the tools create are
        digits after the prefix, so the two never collide)."""
        while True:
            number = int(self.rng.integers(26 * 36 ** (n - 1)))
            tail = []
            for _ in range(n - 1):
                number, digit = divmod(number, 36)
                tail.append(_ALNUM[digit])
            value = f"{prefix}_{string.ascii_lowercase[number]}{''.join(tail)}"
            if value not in self.used:
                self.used.add(value)
                return value


class _User:
    """One user and their rows, drawn table by table in a fixed order."""

    def __init__(self, draw: _Draw, data: dict[str, list[dict]], taken: dict[str, set]) -> None:
        self.draw, self.data, self.taken = draw, data, taken
        self.accounts: dict[str, dict] = {}
        self.categories: dict[str, dict] = {}
        self.txns: list[dict] = []
        self.bills: list[dict] = []

    def make(self) -> None:
        for step in (self.profile, self.open_accounts, self.add_categories, self.add_bills,
                     self.earn, self.spend, self.save_for_goals, self.settle, self.plan):
            step()

    def unique(self, kind: str, make) -> str:
        while True:
            value = make()
            if value not in self.taken[kind]:
                self.taken[kind].add(value)
                return value

    def profile(self) -> None:
        d = self.draw
        first, last = d.pick(FIRST), d.pick(LAST)
        self.user_id = d.token("usr")
        self.data["users"].append({
            "user_id": self.user_id, "first_name": first, "last_name": last,
            "email": self.unique("email", lambda: f"{first}.{last}{d.int(1, 999)}@"
                                 f"{d.pick(EMAIL_HOSTS)}".lower()),
            "username": self.unique("username", lambda: f"{first}{last[0]}{d.int(10, 99)}"
                                    .lower()),
            "joined_on": (_TODAY - timedelta(days=d.int(120, 1500))).isoformat()})

    # ---------------------------------------------------------------- accounts
    def account(self, role: str, name: str, kind: str, institution: str, final: int,
                limit: float | None = None, status: str = "open") -> None:
        self.accounts[role] = {
            "account_id": self.draw.token("acc"), "user_id": self.user_id, "name": name,
            "kind": kind, "institution": institution, "opening_balance": 0.0,
            "balance": dollars_of(final), "credit_limit": limit, "status": status}

    def open_accounts(self) -> None:
        d = self.draw
        bank = d.pick(BANKS)
        self.account("checking", f"{bank} Checking", "checking", bank, d.cents(400, 9000))
        if d.chance(0.75):
            self.account("savings", d.pick(SAVINGS), "savings", d.pick(BANKS),
                         d.cents(1500, 30000))
        if d.chance(0.6):
            name, issuer = d.pick(CARDS)
            self.account("card", name, "credit_card", issuer, -d.cents(50, 1800),
                         float(d.pick((2000, 3500, 5000, 8000))))
        if d.chance(0.3):
            self.account("cash", "Cash Wallet", "cash", "Cash", d.cents(20, 300))
        if d.chance(0.06):
            self.account("old", "Old Checking", "checking", d.pick(BANKS), 0, status="closed")

    # -------------------------------------------------------------- categories
    def category(self, name: str, group: str, status: str = "active") -> None:
        self.categories[name] = {
            "category_id": self.draw.token("cat"), "user_id": self.user_id, "name": name,
            "kind": "income" if group == "income" else "expense", "group_name": group,
            "status": status}

    def add_categories(self) -> None:
        d = self.draw
        for name in ("Rent", "Utilities", "Phone & Internet", "Groceries", "Transportation"):
            self.category(name, BILLED.get(name, SPENDING.get(name))[0])
        optional = ["Health", "Insurance", "Dining Out", "Entertainment", "Shopping", "Travel",
                    "Personal Care", "Gifts", "Pets", "Home Improvement", "Subscriptions",
                    "Fitness", "Debt Payments"]
        for name in d.sample(optional, d.int(6, 9)):
            self.category(name, (BILLED.get(name) or SPENDING[name])[0])
        self.category("Salary", "income")
        if d.chance(0.35):
            self.category("Side Income", "income")
        if "savings" in self.accounts:
            self.category("Interest", "income")
        if d.chance(0.25):
            spending = [n for n, c in self.categories.items() if n in SPENDING]
            name = d.pick(spending)
            self.categories[name]["status"] = "archived"
        self.data["categories"].extend(self.categories.values())

    def active(self, name: str) -> bool:
        return name in self.categories and self.categories[name]["status"] == "active"

    # ------------------------------------------------------------ transactions
    def txn(self, account: str, day: date, payee: str, cents: int, category: str | None,
            bill: dict | None = None, goal: dict | None = None, memo: str = "") -> None:
        pending = (_TODAY - day).days <= 1 and bill is None and goal is None
        self.txns.append({
            "transaction_id": self.draw.token("txn"), "user_id": self.user_id,
            "account_id": self.accounts[account]["account_id"], "date": day.isoformat(),
            "payee": payee, "amount": dollars_of(cents),
            "category_id": self.categories[category]["category_id"] if category else None,
            "memo": memo, "status": "pending" if pending else "cleared",
            "bill_id": bill["bill_id"] if bill else None,
            "goal_id": goal["goal_id"] if goal else None})

    def card(self) -> str:
        d = self.draw
        if "cash" in self.accounts and d.chance(0.12):
            return "cash"
        return "card" if "card" in self.accounts and d.chance(0.55) else "checking"

    def add_bills(self) -> None:
        d = self.draw
        for name, (_, choices) in BILLED.items():
            if name not in self.categories or self.categories[name]["status"] != "active":
                continue
            count = 2 if name in ("Utilities", "Subscriptions") and d.chance(0.4) else 1
            for bill_name, lo, hi, frequency in d.sample(choices, count):
                due = _TODAY + timedelta(days=d.int(1, 27))
                if frequency == "yearly":
                    due = _TODAY + timedelta(days=d.int(20, 300))
                payer = "card" if name in ("Subscriptions", "Fitness") and \
                    "card" in self.accounts else "checking"
                amount = d.cents(lo, hi) if lo != hi else cents_of(lo)
                if name == "Rent":
                    amount = amount // 5000 * 5000
                self.bills.append({
                    "bill_id": d.token("bil"), "user_id": self.user_id, "name": bill_name,
                    "amount": dollars_of(amount),
                    "category_id": self.categories[name]["category_id"],
                    "account_id": self.accounts[payer]["account_id"],
                    "frequency": frequency, "next_due": due.isoformat(),
                    "status": "cancelled" if d.chance(0.1) else "active",
                    "_category": name, "_payer": payer})
        for bill in self.bills:  # the payments made so far, back from the next due date
            step = {"weekly": 7, "monthly": 30, "yearly": 365}[bill["frequency"]]
            day = date.fromisoformat(bill["next_due"]) - timedelta(days=step)
            while day >= _START:
                if bill["status"] == "active" or day < _TODAY - timedelta(days=40):
                    self.txn(bill["_payer"], day, bill["name"], -cents_of(bill["amount"]),
                             bill["_category"], bill=bill)
                day -= timedelta(days=step)
        self.data["bills"].extend({k: v for k, v in b.items() if not k.startswith("_")}
                                  for b in self.bills)

    def earn(self) -> None:
        d = self.draw
        employer = d.pick(INCOME["Salary"])
        pay = d.cents(1400, 4200)
        for month in MONTHS:
            for day in (1, 15):
                when = date(2024, int(month[5:]), day)
                if when <= _TODAY:
                    self.txn("checking", when, employer, pay, "Salary")
        if "Side Income" in self.categories:
            for _ in range(d.int(1, 4)):
                self.txn("checking", d.day(_START, _TODAY), d.pick(INCOME["Side Income"]),
                         d.cents(40, 600), "Side Income")
        if "savings" in self.accounts:
            for month in MONTHS[:3]:
                self.txn("savings", date(2024, int(month[5:]), 28), "Interest payment",
                         d.cents(200, 9000) // 100, "Interest")

    def spend(self) -> None:
        d = self.draw
        recent = _TODAY - timedelta(days=25)
        for name, (_, merchants, lo, hi, visits) in SPENDING.items():
            if name not in self.categories:
                continue
            archived = self.categories[name]["status"] == "archived"
            for month in MONTHS:
                first = date(2024, int(month[5:]), 1)
                last = min(_TODAY, (first + timedelta(days=32)).replace(day=1)
                           - timedelta(days=1))
                if archived and month != MONTHS[0]:
                    break
                for _ in range(d.int(*visits)):
                    day = d.day(first, last)
                    category = None if day >= recent and d.chance(0.2) else name
                    self.txn(self.card(), day, d.pick(merchants), -d.cents(lo, hi), category,
                             memo=d.pick(MEMOS))
            if name == "Shopping" and not archived and d.chance(0.3):
                self.txn("checking", d.day(_START, _TODAY), d.pick(merchants),
                         d.cents(10, 60), name, memo="refund")

    def save_for_goals(self) -> None:
        d = self.draw
        self.goals = []
        for name in d.sample(GOALS, d.pick((0, 1, 1, 2, 3))):
            created = d.day(_START - timedelta(days=60), _START)
            goal = {"goal_id": d.token("gol"), "user_id": self.user_id, "name": name,
                    "target_amount": float(d.pick((500, 800, 1200, 2500, 5000, 12000))),
                    "saved_amount": 0.0,
                    "target_date": (_TODAY + timedelta(days=d.int(30, 540))).isoformat(),
                    "status": "active", "created_on": created.isoformat()}
            saved = 0
            sources = ["checking"] + (["savings"] if "savings" in self.accounts else [])
            for _ in range(d.int(1, 5)):
                amount = 100 * d.pick((50, 75, 100, 150, 200, 250, 400))
                saved += amount
                self.txn(d.pick(sources), d.day(_START, _TODAY - timedelta(days=2)),
                         f"Savings goal: {name}", -amount, None, goal=goal)
            goal["saved_amount"] = dollars_of(saved)
            if saved >= cents_of(goal["target_amount"]):
                goal["status"] = "completed"
            self.goals.append(goal)
        self.data["goals"].extend(self.goals)

    def settle(self) -> None:
        """Opening balances that lead to the drawn balances; transactions in date order."""
        totals = {a["account_id"]: 0 for a in self.accounts.values()}
        for t in self.txns:
            totals[t["account_id"]] += cents_of(t["amount"])
        for a in self.accounts.values():
            a["opening_balance"] = dollars_of(cents_of(a["balance"]) - totals[a["account_id"]])
        self.data["accounts"].extend(self.accounts.values())
        self.txns.sort(key=lambda t: (t["date"], t["account_id"]))
        self.data["transactions"].extend(self.txns)

    def plan(self) -> None:
        d = self.draw
        for name, c in self.categories.items():
            if c["kind"] != "expense" or not d.chance(0.7):
                continue
            base = {"Rent": 2500, "Travel": 400, "Shopping": 250, "Groceries": 600}.get(name, 150)
            amount = 10 * d.int(base // 40, base // 10)
            months = MONTHS[1:2] if c["status"] == "archived" else MONTHS[1:]
            if c["status"] == "active" and d.chance(0.3):
                months = months + ("2024-07",)
            for month in months:
                if d.chance(0.2):
                    amount = max(10, amount + 10 * d.int(-5, 5))
                self.data["budgets"].append({
                    "budget_id": d.token("bud"), "category_id": c["category_id"],
                    "month": month, "amount": float(amount)})


def generate(seed: int) -> dict[str, list[dict]]:
    """The native data of a budgeting app made from ``seed``."""
    draw = _Draw(seed)
    data: dict[str, list[dict]] = {t: [] for t in TABLES}
    taken: dict[str, set] = {"email": set(), "username": set()}
    for _ in range(N_USERS):
        _User(draw, data, taken).make()
    return data
