"""Seeded synthetic data of the banking domain.

``generate(seed)`` returns the native data: ``{table: [row dict, ...]}`` in the column
order of ``schema.sql`` and in rowid order, exactly what :func:`..io.export` gives back after
:func:`..io.load`. Everything comes from ``random.Random(seed)``; the bank's clock is the
fixed ``TODAY`` of :mod:`.tools`, so the same seed always gives the same bank.

About 300 customers with a checking account (most also a savings account), debit cards
(some frozen), 120 days of transactions (payroll, card purchases, ATM, interest, transfers
and bill payments; card purchases of the last two days are pending and held), payees,
scheduled payments and a few disputes.
"""

from __future__ import annotations

import random
from datetime import date, datetime, timedelta

from ...core.fake_data import Tokens, digits, draw_unique, phone
from .tools import NOW, TODAY

N_CUSTOMERS = 250
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
SAVINGS_NAMES = ("Rainy Day Fund", "Vacation Fund", "House Deposit", "Emergency Savings",
                 "New Car Fund", "College Savings")
EMPLOYERS = ("Acme Corp", "Globex", "Initech", "Umbrella Health", "Stark Logistics",
             "Wayne Foods", "Hooli", "Vandelay Imports", "City of Springfield", "Soylent Labs")
#: (merchant, category, low, high) of card purchases.
MERCHANTS = (
    ("Whole Foods Market", "groceries", 18, 160), ("Trader Joe's", "groceries", 15, 110),
    ("Safeway", "groceries", 12, 140), ("Costco", "groceries", 40, 320),
    ("Starbucks", "dining", 4, 18), ("Chipotle", "dining", 9, 32),
    ("Olive Garden", "dining", 25, 95), ("Shell", "fuel", 25, 80), ("Chevron", "fuel", 22, 85),
    ("Amazon", "shopping", 9, 250), ("Target", "shopping", 12, 180),
    ("Best Buy", "electronics", 25, 900), ("Apple Store", "electronics", 29, 1300),
    ("Home Depot", "home", 15, 400), ("IKEA", "home", 20, 650), ("CVS Pharmacy", "health", 6, 70),
    ("Walgreens", "health", 5, 60), ("Netflix", "subscriptions", 15.49, 15.49),
    ("Spotify", "subscriptions", 10.99, 10.99), ("Delta Air Lines", "travel", 120, 780),
    ("Marriott Hotels", "travel", 140, 620), ("Uber", "transport", 8, 55),
    ("Lyft", "transport", 8, 50), ("AMC Theatres", "entertainment", 12, 45),
)
#: (payee name, category, bank) of bill payees and people.
PAYEES = (
    ("Con Edison", "utility", "JPMorgan Chase"),
    ("Pacific Gas & Electric", "utility", "Wells Fargo"),
    ("City Water Utility", "utility", "US Bank"), ("Verizon Wireless", "utility", "Citibank"),
    ("Comcast Xfinity", "utility", "Bank of America"), ("Greenview Apartments", "rent", "PNC Bank"),
    ("Maple Court Properties", "rent", "TD Bank"), ("Harbor Lofts Leasing", "rent", "Truist"),
    ("Chase Sapphire Card", "credit_card", "JPMorgan Chase"),
    ("Citi Double Cash Card", "credit_card", "Citibank"),
    ("State Farm Insurance", "insurance", "US Bank"), ("Geico", "insurance", "Wells Fargo"),
    ("Maria Lopez", "person", "Bank of America"), ("Tom Becker", "person", "Capital One"),
    ("Anna Kowalski", "person", "Ally Bank"), ("Sunrise Daycare", "other", "Regions Bank"),
    ("Northside Gym", "other", "Fifth Third Bank"), ("Dr. Rachel Green DDS", "other", "KeyBank"),
)
#: Payees that a task may ask to add (never generated as existing payees).
NEW_PAYEES = (
    ("Blue Sky Dental", "other", "Citizens Bank"), ("Riverside Electric", "utility", "PNC Bank"),
    ("Oakwood Townhomes", "rent", "Wells Fargo"), ("Liberty Mutual", "insurance", "Citibank"),
    ("Discover It Card", "credit_card", "Discover Bank"), ("Sam Whitaker", "person", "Chase"),
    ("Priya Raman", "person", "Ally Bank"), ("Metro Internet", "utility", "US Bank"),
)
DISPUTE_REASONS = ("fraud", "item_not_received", "incorrect_amount")
TABLES = ("customers", "accounts", "cards", "payees", "transfers", "transactions",
          "scheduled_payments", "disputes")


def _day(offset: int) -> str:
    return (_TODAY - timedelta(days=offset)).isoformat()


class _Bank:
    """The tables being drawn, with the values that must stay unique across customers."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.token = Tokens(self.rng)
        self.data: dict[str, list[dict]] = {t: [] for t in TABLES}
        self.numbers: set[str] = set()
        self.emails: set[str] = set()
        self.usernames: set[str] = set()

    def cents(self, lo: float, hi: float) -> float:
        return round(self.rng.uniform(lo, hi), 2)


class _Customer:
    """One customer and their rows, drawn table by table in a fixed order."""

    def __init__(self, bank: _Bank) -> None:
        self.bank, self.rng, self.token = bank, bank.rng, bank.token
        self.accounts: list[dict] = []
        self.savings: list[dict] = []
        self.cards: list[dict] = []
        self.txns: list[dict] = []
        self.payees: list[dict] = []
        self.last4s: set[str] = set()
        self.card_last4: set[str] = set()

    def draw(self) -> None:
        for step in (self.profile, self.open_accounts, self.issue_cards,
                     self.card_and_income_transactions, self.add_payees, self.transfers,
                     self.scheduled_payments, self.dispute):
            step()
        self.bank.data["accounts"].extend(self.accounts)

    def profile(self) -> None:
        rng, bank = self.rng, self.bank
        first, last = rng.choice(FIRST), rng.choice(LAST)
        self.customer_id = self.token("cus")
        email = draw_unique(
            lambda: f"{first}.{last}{rng.randint(1, 999)}@{rng.choice(EMAIL_HOSTS)}".lower(),
            bank.emails)
        username = draw_unique(lambda: f"{first[0]}{last}{rng.randint(10, 99)}".lower(),
                               bank.usernames)
        self.limit = float(rng.choice((2500, 5000, 5000, 10000)))
        bank.data["customers"].append({
            "customer_id": self.customer_id, "first_name": first, "last_name": last,
            "email": email, "username": username, "phone": phone(rng),
            "date_of_birth": date(rng.randint(1950, 2003), rng.randint(1, 12),
                                  rng.randint(1, 28)).isoformat(),
            "city": rng.choice(CITIES),
            "member_since": _day(rng.randint(200, 5000)),
            "daily_transfer_limit": self.limit,
        })

    # ------------------------------------------------------------------- accounts
    def account_number(self) -> str:
        while True:
            number = digits(self.rng, 10)
            if number not in self.bank.numbers and number[-4:] not in self.last4s:
                self.bank.numbers.add(number)
                self.last4s.add(number[-4:])
                return number

    def open_account(self, kind: str, nickname: str, balance: float, rate: float,
                     status: str = "open") -> dict:
        row = {"account_id": self.token("acc"), "customer_id": self.customer_id, "type": kind,
               "nickname": nickname, "account_number": self.account_number(),
               "balance": balance, "hold_amount": 0.0, "interest_rate": rate,
               "status": status, "opened_on": _day(self.rng.randint(150, 4000))}
        self.accounts.append(row)
        return row

    def open_accounts(self) -> None:
        rng, cents = self.rng, self.bank.cents
        self.checking = self.open_account("checking", "Everyday Checking", cents(150, 9000), 0.0)
        if rng.random() < 0.85:
            names = rng.sample(SAVINGS_NAMES, 2)
            self.savings.append(self.open_account("savings", names[0], cents(300, 40000), 0.0425))
            if rng.random() < 0.2:
                self.savings.append(
                    self.open_account("savings", names[1], cents(100, 15000), 0.0425))
        if rng.random() < 0.05:
            self.open_account("savings", "Old Savings", 0.0, 0.01, status="closed")

    # ---------------------------------------------------------------------- cards
    def new_card(self, account: dict, form: str, status: str) -> dict:
        rng = self.rng
        last4 = draw_unique(lambda: digits(rng, 4), self.card_last4)
        row = {"card_id": self.token("card"), "customer_id": self.customer_id,
               "account_id": account["account_id"],
               "network": rng.choice(("Visa", "Mastercard")), "form": form,
               "last4": last4,
               "expiry": f"{rng.randint(1, 12):02d}/{rng.randint(25, 29)}",
               "status": status, "daily_spend_limit": float(rng.choice((1000, 2500, 5000)))}
        self.bank.data["cards"].append(row)
        self.cards.append(row)
        return row

    def issue_cards(self) -> None:
        rng = self.rng
        roll = rng.random()
        self.physical = self.new_card(
            self.checking, "physical",
            "active" if roll < 0.72 else "frozen" if roll < 0.97 else "cancelled")
        if rng.random() < 0.3:
            self.new_card(self.checking, "virtual", "active" if rng.random() < 0.7 else "frozen")
        if self.savings and rng.random() < 0.1:
            self.new_card(self.savings[0], "physical", "active")

    # --------------------------------------------------------------- transactions
    def txn(self, account: dict, offset: int, description: str, category: str, kind: str,
            amount: float, card: dict | None = None, status: str = "posted",
            transfer_id: str | None = None) -> dict:
        row = {"transaction_id": self.token("txn", 10), "account_id": account["account_id"],
               "card_id": card["card_id"] if card else None, "transfer_id": transfer_id,
               "date": _day(offset), "description": description, "category": category,
               "kind": kind, "amount": round(amount, 2), "status": status}
        self.txns.append(row)
        return row

    def card_and_income_transactions(self) -> None:
        rng, cents, checking = self.rng, self.bank.cents, self.checking
        employer = rng.choice(EMPLOYERS)
        pay = cents(1200, 4200)
        for offset in range(rng.randint(1, 29), 120, 30):
            self.txn(checking, offset, f"Payroll {employer}", "income", "deposit", pay)
        usable = [c for c in self.cards if c["status"] != "cancelled"] or self.cards
        for _ in range(rng.randint(5, 9)):
            merchant, category, lo, hi = rng.choice(MERCHANTS)
            card = rng.choice(usable)
            account = next(a for a in self.accounts if a["account_id"] == card["account_id"])
            offset = rng.randint(2, 119)
            self.txn(account, offset, merchant, category, "card_purchase", -cents(lo, hi), card)
        # a favourite merchant visited several times in one month (monthly spend questions)
        merchant, category, lo, hi = rng.choice(MERCHANTS[:8])
        month = rng.choice((3, 4, 5))
        for _ in range(rng.randint(2, 4)):
            day = date(2024, month, rng.randint(1, 30 if month != 5 else 31))
            self.txn(checking, (_TODAY - day).days, merchant, category, "card_purchase",
                     -cents(lo, hi), self.physical)
        for _ in range(rng.randint(0, 1)):
            self.txn(checking, rng.randint(2, 110), "ATM Withdrawal", "cash", "atm_withdrawal",
                     -float(rng.choice((40, 60, 100, 200))))
        for account in self.savings:
            for offset in range(rng.randint(0, 29), 120, 30):
                self.txn(account, offset + 1, "Interest payment", "interest", "interest",
                         round(account["balance"] * 0.0425 / 12, 2) or 0.01)
        self.pending_purchases()

    def pending_purchases(self) -> None:
        """Card purchases of the last two days are pending and held."""
        rng, checking = self.rng, self.checking
        if self.physical["status"] == "active" and rng.random() < 0.45:
            for _ in range(rng.randint(1, 2)):
                merchant, category, lo, hi = rng.choice(MERCHANTS[:17])
                amount = self.bank.cents(lo, min(hi, 120))
                if checking["balance"] - checking["hold_amount"] - amount < 5:
                    break
                self.txn(checking, rng.randint(0, 1), merchant, category, "card_purchase",
                         -amount, self.physical, status="pending")
                checking["hold_amount"] = round(checking["hold_amount"] + amount, 2)

    # --------------------------------------------------------------------- payees
    def add_payees(self) -> None:
        rng = self.rng
        for name, category, bank in rng.sample(PAYEES, rng.randint(0, 4)):
            self.payees.append({"payee_id": self.token("pay"), "customer_id": self.customer_id,
                                "name": name, "category": category, "bank_name": bank,
                                "account_number": digits(rng, rng.randint(8, 12)),
                                "added_on": _day(rng.randint(30, 900))})
        self.bank.data["payees"].extend(self.payees)

    # ------------------------------------------------------------------ transfers
    def transfers(self) -> None:
        transfers = self.savings_transfers() + self.bill_payments()
        transfers.sort(key=lambda t: t["created_at"])
        self.bank.data["transfers"].extend(transfers)
        self.txns.sort(key=lambda t: (t["date"], t["account_id"]))
        self.bank.data["transactions"].extend(self.txns)

    def savings_transfers(self) -> list[dict]:
        rng, checking = self.rng, self.checking
        transfers = []
        today_total = 0.0
        for _ in range(rng.randint(0, 3) if self.savings else 0):
            offset = 0 if rng.random() < 0.15 else rng.randint(1, 100)
            amount = float(rng.choice((50, 100, 150, 200, 250, 300, 400, 500)))
            if offset == 0:
                if today_total + amount > self.limit / 2:
                    continue
                today_total += amount
            target = rng.choice(self.savings)
            transfer_id = self.token("trf")
            stamp = f"{_day(offset)}T{rng.randint(7, 11):02d}:{rng.randint(0, 59):02d}:00"
            transfers.append({"transfer_id": transfer_id, "customer_id": self.customer_id,
                              "from_account_id": checking["account_id"],
                              "to_account_id": target["account_id"], "payee_id": None,
                              "amount": amount, "memo": "Savings", "created_at": stamp})
            self.txn(checking, offset, f"Transfer to {target['nickname']}", "transfer",
                     "transfer_out", -amount, transfer_id=transfer_id)
            self.txn(target, offset, "Transfer from Everyday Checking", "transfer",
                     "transfer_in", amount, transfer_id=transfer_id)
        return transfers

    def bill_payments(self) -> list[dict]:
        rng, checking = self.rng, self.checking
        transfers = []
        for payee in self.payees:
            for _ in range(rng.randint(0, 2)):
                offset = rng.randint(3, 100)
                amount = self.bank.cents(30, 250) if payee["category"] != "rent" else float(
                    rng.choice((1200, 1450, 1800, 2100)))
                transfer_id = self.token("trf")
                transfers.append({"transfer_id": transfer_id, "customer_id": self.customer_id,
                                  "from_account_id": checking["account_id"],
                                  "to_account_id": None, "payee_id": payee["payee_id"],
                                  "amount": amount, "memo": "",
                                  "created_at": f"{_day(offset)}T09:{rng.randint(0, 59):02d}:00"})
                self.txn(checking, offset, f"Payment to {payee['name']}", "bills",
                         "bill_payment", -amount, transfer_id=transfer_id)
        return transfers

    # --------------------------------------------------------- scheduled payments
    def scheduled_payments(self) -> None:
        rng = self.rng
        for payee in self.payees:
            roll = rng.random()
            if roll < 0.55:
                monthly = payee["category"] in ("rent", "utility", "insurance", "credit_card")
                amount = (float(rng.choice((1200, 1450, 1800, 2100)))
                          if payee["category"] == "rent" else self.bank.cents(25, 300))
                self.bank.data["scheduled_payments"].append({
                    "scheduled_payment_id": self.token("sch"), "customer_id": self.customer_id,
                    "from_account_id": self.checking["account_id"],
                    "payee_id": payee["payee_id"],
                    "amount": amount, "frequency": "monthly" if monthly else rng.choice(
                        ("once", "weekly")),
                    "next_date": (_TODAY + timedelta(days=rng.randint(1, 40))).isoformat(),
                    "status": "active" if roll < 0.47 else "cancelled", "memo": ""})

    # ------------------------------------------------------------------- disputes
    def dispute(self) -> None:
        rng = self.rng
        if rng.random() < 0.1:
            purchases = [t for t in self.txns
                         if t["kind"] == "card_purchase" and t["status"] == "posted"]
            if purchases:
                t = rng.choice(purchases)
                self.bank.data["disputes"].append({
                    "dispute_id": self.token("dsp"), "customer_id": self.customer_id,
                    "transaction_id": t["transaction_id"],
                    "reason": rng.choice(DISPUTE_REASONS), "amount": -t["amount"],
                    "status": rng.choice(("open", "resolved", "rejected")),
                    "filed_on": _day(max(0, (_TODAY - date.fromisoformat(t["date"])).days - 3))})


def generate(seed: int) -> dict[str, list[dict]]:
    """The native data of a bank made from ``seed``."""
    bank = _Bank(seed)
    for _ in range(N_CUSTOMERS):
        _Customer(bank).draw()
    _ = datetime.fromisoformat(NOW)  # the clock is valid
    return bank.data
