"""Seeded synthetic data of the payments domain.

``generate(seed)`` returns the native data: ``{table: [row dict, ...]}`` in the column order
of ``schema.sql`` and in rowid order, exactly what :func:`..io.export` gives back after
:func:`..io.load`. Everything comes from ``numpy.random.default_rng(seed)``; the wallet's
clock is the fixed ``TODAY`` of :mod:`.tools`, so the same seed always gives the same data.

About 250 users with a USD wallet (half also a EUR wallet, a quarter a GBP one), bank
accounts and cards, a handful of contacts each, three months of payments to contacts and
five months of payments to merchants (some refunded or disputed), payment requests in every
state, top-ups, withdrawals and currency conversions.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta

from tool_gym.core.draws import BlockDraws

from .tools import RATES_USD, TODAY, money, rate

N_USERS = 250
_TODAY = date.fromisoformat(TODAY)

FIRST = ("James Mary Robert Patricia John Jennifer Michael Linda David Elizabeth William "
         "Barbara Richard Susan Joseph Jessica Thomas Sarah Charles Karen Daniel Lisa Matthew "
         "Nancy Anthony Betty Mark Sandra Donald Ashley Steven Emily Paul Donna Andrew Michelle "
         "Omar Aisha Wei Mei Carlos Lucia Raj Priya Ahmed Fatima Hiroshi Yuki Ivan Olga Kwame "
         "Amara Noah Emma Liam Olivia Mateo Sofia Elijah Ava").split()
LAST = ("Smith Johnson Williams Brown Jones Garcia Miller Davis Rodriguez Martinez Hernandez "
        "Lopez Gonzalez Wilson Anderson Taylor Moore Jackson Martin Lee Perez Thompson White "
        "Harris Sanchez Clark Ramirez Lewis Robinson Walker Young Allen King Wright Scott Torres "
        "Nguyen Hill Flores Green Adams Nelson Baker Hall Rivera Campbell Mitchell Carter "
        "Roberts Patel Kim Chen Okafor Novak Schmidt Rossi Tanaka Haddad").split()
CITIES = ("New York", "Chicago", "Austin", "Seattle", "Denver", "Miami", "Boston", "San Diego")
EMAIL_HOSTS = ("example.com", "mail.com", "inbox.net", "post.org")
BANKS = ("Chase", "Wells Fargo", "Bank of America", "Citibank", "Capital One", "Ally Bank",
         "US Bank", "PNC Bank")
#: (merchant, category, refund window in days, lowest price, highest price).
MERCHANTS = (
    ("Best Buy", "electronics", 15, 25, 900), ("Amazon", "shopping", 30, 9, 300),
    ("Target", "shopping", 90, 12, 200), ("Nike", "apparel", 60, 40, 220),
    ("Apple Store", "electronics", 14, 29, 1400), ("Zara", "apparel", 30, 20, 180),
    ("Sephora", "beauty", 60, 15, 160), ("Home Depot", "home", 90, 15, 450),
    ("Etsy", "shopping", 30, 10, 120), ("Wayfair", "home", 30, 40, 800),
    ("Walmart", "shopping", 90, 8, 250), ("Uniqlo", "apparel", 30, 15, 120),
    ("Chewy", "pets", 30, 20, 150), ("REI", "outdoor", 60, 25, 500),
    ("Barnes & Noble", "books", 14, 10, 80), ("Ticketmaster", "events", 7, 45, 400),
    ("Lululemon", "apparel", 30, 48, 200), ("Costco", "shopping", 90, 40, 350),
    ("DoorDash", "food", 7, 15, 70), ("Williams Sonoma", "home", 30, 20, 400),
)
NOTES = ("Dinner", "Rent share", "Concert tickets", "Groceries", "Birthday gift", "Uber ride",
         "Coffee", "Movie night", "Utilities", "Pizza night", "Gas money", "Book club",
         "Brunch", "Road trip", "Cabin weekend", "Team lunch")
#: Notes a task may put on a new request (never generated).
NEW_NOTES = ("Ski trip deposit", "Wedding gift pool", "Karaoke night", "Museum tickets",
             "Housewarming supplies", "Bowling league")
TABLES = ("users", "wallets", "funding_sources", "contacts", "merchants", "payments",
          "payment_requests", "refunds", "disputes", "wallet_transfers", "conversions")


class _Draw(BlockDraws):
    """The generator's draws: picks, unique ids, amounts and moments (all from one
    ``numpy.random.default_rng(seed)`` stream, read in blocks of uniforms for speed)."""

    def cents(self, lo: float, hi: float) -> float:
        """An amount from ``lo`` to ``hi`` in whole cents."""
        return money(self.int(int(lo * 100), int(hi * 100)) / 100)

    def moment(self, newest: int, oldest: int) -> str:
        """A moment ``newest`` to ``oldest`` days before today, in the day's business hours."""
        day = _TODAY - timedelta(days=self.int(newest, oldest))
        clock = datetime(day.year, day.month, day.day, self.int(7, 21), self.int(0, 59))
        return clock.isoformat(timespec="seconds")


def generate(seed: int) -> dict:
    """``{table: [row, ...]}`` for every table of ``schema.sql``."""
    g = _Draw(seed)
    data: dict[str, list] = {t: [] for t in TABLES}
    merchants = [{"merchant_id": g.token("mer"), "name": name, "category": category,
                  "refund_window_days": window} for name, category, window, _, _ in MERCHANTS]
    data["merchants"] = merchants
    users = _users(g, data)
    wallets = {}  # (user, currency) -> wallet row
    sources = {}  # user -> active source rows
    for u in users:
        for w in _wallets(g, data, u):
            wallets[(u["user_id"], w["currency"])] = w
        sources[u["user_id"]] = _sources(g, data, u)
    contacts = _contacts(g, data, users)
    for u in users:
        _p2p(g, data, u, contacts, wallets)
        _merchant_payments(g, data, u, wallets, sources, merchants)
        _requests(g, data, u, contacts, wallets)
        _transfers(g, data, u, wallets, sources)
        _conversions(g, data, u, wallets)
    data["payments"].sort(key=lambda p: p["created_at"])
    return data


def _users(g: _Draw, data: dict) -> list[dict]:
    emails, usernames = set(), set()
    for n in range(N_USERS):
        first, last = g.pick(FIRST), g.pick(LAST)
        number = g.int(1, 99)
        email = f"{first}.{last}{number}@{g.pick(EMAIL_HOSTS)}".lower()
        username = f"{first[0]}{last}{number}".lower()
        if email in emails or username in usernames:
            email = f"{first}.{last}{n + 100}@example.com".lower()
            username = f"{first[0]}{last}{n + 100}".lower()
        emails.add(email)
        usernames.add(username)
        verified = g.chance(0.75)
        data["users"].append({
            "user_id": g.token("usr"), "first_name": first, "last_name": last, "email": email,
            "username": username, "phone": f"+1-555-{g.int(200, 999)}-{g.int(0, 9999):04d}",
            "city": g.pick(CITIES),
            "joined_on": (_TODAY - timedelta(days=g.int(120, 2000))).isoformat(),
            "verified": int(verified),
            "daily_send_limit": float(g.pick((2500, 3000, 5000) if verified else (500, 1000)))})
    return data["users"]


def _wallets(g: _Draw, data: dict, u: dict) -> list[dict]:
    rows = [("USD", 3500)] + ([("EUR", 2000)] if g.chance(0.5) else []) + \
        ([("GBP", 1500)] if g.chance(0.25) else [])
    out = []
    for currency, top in rows:
        out.append({"wallet_id": g.token("wal"), "user_id": u["user_id"], "currency": currency,
                    "balance": g.cents(0, top), "opened_on": u["joined_on"]})
    data["wallets"] += out
    return out


def _sources(g: _Draw, data: dict, u: dict) -> list[dict]:
    kinds = ["bank_account"] * g.int(1, 2) + (["debit_card"] if g.chance(0.6) else []) + \
        (["credit_card"] if g.chance(0.45) else [])
    rows = []
    for i, kind in enumerate(kinds):
        removed = i > 0 and g.chance(0.12)
        rows.append({
            "source_id": g.token("src"), "user_id": u["user_id"], "kind": kind,
            "institution": g.pick(BANKS), "last4": f"{g.int(0, 9999):04d}",
            "is_default": int(i == 0), "status": "removed" if removed else "active",
            "added_on": (date.fromisoformat(u["joined_on"])
                         + timedelta(days=g.int(0, 100))).isoformat()})
    data["funding_sources"] += rows
    return [r for r in rows if r["status"] == "active"]


def _contacts(g: _Draw, data: dict, users: list[dict]) -> dict[str, list[str]]:
    """Each user's contacts (user ids), drawn among the other users."""
    ids = [u["user_id"] for u in users]
    out = {}
    for u in users:
        others = [i for i in g.sample(ids, g.int(5, 11)) if i != u["user_id"]]
        out[u["user_id"]] = others
        for other in others:
            data["contacts"].append({
                "contact_id": g.token("con"), "user_id": u["user_id"], "contact_user_id": other,
                "nickname": g.pick(("", "", "", "bestie", "roomie", "coach", "sis", "bro")),
                "added_on": (_TODAY - timedelta(days=g.int(30, 600))).isoformat()})
    return out


def _p2p_row(g: _Draw, sender: str, recipient: str, wallet: dict, amount: float, note: str,
             created: str) -> dict:
    return {"payment_id": g.token("pmt"), "sender_id": sender, "recipient_id": recipient,
            "merchant_id": None, "wallet_id": wallet["wallet_id"], "source_id": None,
            "amount": amount, "currency": wallet["currency"], "note": note,
            "created_at": created, "status": "completed", "refunded_amount": 0.0}


def _p2p(g: _Draw, data: dict, u: dict, contacts: dict, wallets: dict) -> None:
    me = u["user_id"]
    sent_today = False  # at most one payment today: well within every daily limit
    for _ in range(g.int(3, 12)):
        other = g.pick(contacts[me])
        shared = [c for c in ("EUR", "GBP") if (me, c) in wallets and (other, c) in wallets]
        currency = g.pick(shared) if shared and g.chance(0.3) else "USD"
        today = g.chance(0.03) and not sent_today
        sent_today = sent_today or today
        created = f"{TODAY}T{g.int(7, 9):02d}:{g.int(0, 59):02d}:00" if today \
            else g.moment(1, 90)
        data["payments"].append(_p2p_row(g, me, other, wallets[(me, currency)],
                                         g.cents(5, 200 if today else 250), g.pick(NOTES),
                                         created))


def _merchant_payments(g: _Draw, data: dict, u: dict, wallets: dict, sources: dict,
                       merchants: list[dict]) -> None:
    me = u["user_id"]
    for _ in range(g.int(4, 14)):
        i = g.int(0, len(merchants) - 1)
        merchant, (_, _, window, lo, hi) = merchants[i], MERCHANTS[i]
        wallet = wallets[(me, "USD")] if g.chance(0.5) or not sources[me] else None
        source = None if wallet is not None else g.pick(sources[me])
        created = g.moment(1, 150)
        amount = g.cents(lo, hi)
        payment = {"payment_id": g.token("pmt"), "sender_id": me, "recipient_id": None,
                   "merchant_id": merchant["merchant_id"],
                   "wallet_id": wallet["wallet_id"] if wallet else None,
                   "source_id": source["source_id"] if source else None, "amount": amount,
                   "currency": "USD", "note": "", "created_at": created, "status": "completed",
                   "refunded_amount": 0.0}
        data["payments"].append(payment)
        age = (_TODAY - date.fromisoformat(created[:10])).days
        if age > 2 and g.chance(0.14):
            _refund(g, data, payment, min(age - 1, window))
        elif age <= 170 and g.chance(0.04):
            data["disputes"].append({
                "dispute_id": g.token("dsp"), "payment_id": payment["payment_id"],
                "user_id": me, "reason": g.pick(("unauthorized", "not_received",
                                                 "not_as_described", "duplicate")),
                "status": g.pick(("open", "resolved", "rejected")),
                "opened_on": (date.fromisoformat(created[:10])
                              + timedelta(days=g.int(1, min(age, 20)))).isoformat()})


def _refund(g: _Draw, data: dict, payment: dict, within: int) -> None:
    full = g.chance(0.55)
    amount = payment["amount"] if full else g.cents(1, max(1.0, payment["amount"] * 0.6))
    amount = min(amount, payment["amount"])
    day = date.fromisoformat(payment["created_at"][:10]) + timedelta(days=g.int(1, within))
    data["refunds"].append({
        "refund_id": g.token("rfd"), "payment_id": payment["payment_id"], "amount": amount,
        "reason": g.pick(("returned_item", "damaged_item", "wrong_item", "order_cancelled")),
        "created_at": f"{day.isoformat()}T{g.int(8, 18):02d}:00:00"})
    payment["refunded_amount"] = amount
    payment["status"] = "refunded" if amount >= payment["amount"] else "partially_refunded"


def _requests(g: _Draw, data: dict, u: dict, contacts: dict, wallets: dict) -> None:
    me = u["user_id"]
    for other in g.sample(contacts[me], min(len(contacts[me]), g.pick((0, 1, 2, 2, 3)))):
        shared = [c for c in ("EUR", "GBP") if (me, c) in wallets and (other, c) in wallets]
        currency = g.pick(shared) if shared and g.chance(0.25) else "USD"
        status = g.pick(("pending", "pending", "pending", "accepted", "accepted", "declined",
                         "cancelled"))
        amount, note = g.cents(6, 180), g.pick(NOTES)
        created = g.moment(3, 40) if status != "pending" else g.moment(1, 20)
        payment_id = None
        if status == "accepted":
            paid = (datetime.fromisoformat(created) + timedelta(hours=g.int(1, 40)))
            payment = _p2p_row(g, other, me, wallets[(other, currency)], amount, note,
                               paid.isoformat(timespec="seconds"))
            data["payments"].append(payment)
            payment_id = payment["payment_id"]
        data["payment_requests"].append({
            "request_id": g.token("req"), "requester_id": me, "payer_id": other,
            "amount": amount, "currency": currency, "note": note, "created_at": created,
            "status": status, "payment_id": payment_id})


def _transfers(g: _Draw, data: dict, u: dict, wallets: dict, sources: dict) -> None:
    me = u["user_id"]
    for _ in range(g.pick((0, 1, 2, 3))):
        direction = g.pick(("top_up", "top_up", "withdrawal"))
        usable = [s for s in sources[me] if (s["kind"] != "credit_card" if direction == "top_up"
                                              else s["kind"] == "bank_account")]
        if not usable:
            continue
        data["wallet_transfers"].append({
            "transfer_id": g.token("trf"), "wallet_id": wallets[(me, "USD")]["wallet_id"],
            "source_id": g.pick(usable)["source_id"], "direction": direction,
            "amount": g.cents(20, 800), "created_at": g.moment(1, 120)})


def _conversions(g: _Draw, data: dict, u: dict, wallets: dict) -> None:
    me = u["user_id"]
    mine = [c for c in RATES_USD if (me, c) in wallets]
    if len(mine) < 2:
        return
    for _ in range(g.pick((0, 1, 2))):
        a, b = g.sample(mine, 2)
        amount = g.cents(20, 500)
        r = rate(a, b)
        data["conversions"].append({
            "conversion_id": g.token("cnv"), "user_id": me,
            "from_wallet_id": wallets[(me, a)]["wallet_id"],
            "to_wallet_id": wallets[(me, b)]["wallet_id"], "amount": amount, "rate": r,
            "converted_amount": money(amount * r), "created_at": g.moment(1, 120)})
