"""The tools of the payments domain (a P2P and merchant payments wallet): 11 reads, 14 writes
and a transfer to a human agent.

Every tool takes the sandbox's SQLite connection first and uses parameterized SQL only. A
write checks all its preconditions before its first statement and raises
:class:`ToolError` with a clear message when one fails (the toolbox also wraps each write in
a savepoint). Money is in the wallet's currency, rounded to cents in Python.

Rules the tools enforce: money goes only to contacts, never above the wallet's balance nor
the sender's daily send limit (today's P2P payments counted in USD at :data:`RATES_USD`),
and only into a wallet of the same currency the recipient holds; a request goes to a
contact, one pending request per payer, amount and currency; only the payer accepts or
declines a pending request, only the requester cancels it; refunds and disputes only for
merchant payments, refunds never above what is left, no refund under an open dispute,
disputes within :data:`DISPUTE_WINDOW_DAYS`; top-ups into the USD wallet from a bank account
or debit card (at most :data:`MAX_TOP_UP`), withdrawals to a bank account; conversions
between two wallets of one user; the default funding source cannot be removed. The
merchants' refund windows are a policy rule the agent must apply (the tool trusts the agent,
as in tau2).
"""

from __future__ import annotations

import sqlite3
from datetime import date
from typing import Annotated, Literal

from ...core.arguments import check_cents, check_date
from ...core.common_tools import human_transfer_tool
from ...core.ids import counted_id
from ...core.rows import fetch_dicts, fetch_row, find_id
from ...core.tools import Category, Entity, Quotas, ToolError, tool

#: Growth bounds of one sandbox (see :class:`~tool_gym.core.tools.Quotas`): templates hold
#: about 6,000 payments.
QUOTAS = Quotas(rows={"payments": 20_000, "payment_requests": 5_000, "refunds": 5_000,
                      "disputes": 5_000, "contacts": 8_000, "wallet_transfers": 5_000,
                      "conversions": 5_000})

#: The wallet's clock (fixed, so that every episode is reproducible).
TODAY = "2025-02-20"
NOW = "2025-02-20T10:00:00"
#: The value of one unit of each currency in USD (fixed rates of the app).
RATES_USD = {"USD": 1.0, "EUR": 1.08, "GBP": 1.27}
CURRENCIES = tuple(RATES_USD)
DISPUTE_WINDOW_DAYS = 180
MAX_TOP_UP = 2500.0
MAX_REQUEST = 5000.0
MAX_CONTACTS = 200
MAX_NOTE = 200

UserId = Annotated[str, Entity("user_id")]
WalletId = Annotated[str, Entity("wallet_id")]
SourceId = Annotated[str, Entity("source_id")]
ContactId = Annotated[str, Entity("contact_id")]
PaymentId = Annotated[str, Entity("payment_id")]
RequestId = Annotated[str, Entity("request_id")]

Currency = Literal["USD", "EUR", "GBP"]
RefundReason = Literal["returned_item", "damaged_item", "wrong_item", "order_cancelled"]
DisputeReason = Literal["unauthorized", "not_received", "not_as_described", "duplicate"]


def money(value: float) -> float:
    """An amount rounded to cents (the one rounding used everywhere)."""
    return round(float(value) + 0.0, 2)


def rate(source: str, target: str) -> float:
    """Units of ``target`` one unit of ``source`` buys."""
    return round(RATES_USD[source] / RATES_USD[target], 6)


def days_before_today(moment: str) -> int:
    """Whole days from ``moment`` (an ISO date or moment) to ``TODAY``."""
    return (date.fromisoformat(TODAY) - date.fromisoformat(moment[:10])).days


def sent_today(db: sqlite3.Connection, user_id: str) -> float:
    """The USD value of the user's payments to other users made today."""
    rows = db.execute("SELECT amount, currency FROM payments WHERE sender_id = ? "
                      "AND recipient_id IS NOT NULL AND created_at >= ? AND created_at < ?",
                      (user_id, TODAY, TODAY + "U")).fetchall()
    return money(sum(a * RATES_USD[c] for a, c in rows))


def _note(note: str) -> str:
    note = note.strip()
    if len(note) > MAX_NOTE:
        raise ToolError(f"The note is too long (at most {MAX_NOTE} characters).")
    return note


# ------------------------------------------------------------------------- records


def _user(db: sqlite3.Connection, user_id: str) -> dict:
    row = fetch_row(db, "SELECT user_id, first_name, last_name, email, username, phone, city, "
                    "joined_on, verified, daily_send_limit FROM users WHERE user_id = ?",
                    (user_id,), f"User {user_id!r} not found.")
    return dict(zip(("user_id", "first_name", "last_name", "email", "username", "phone",
                     "city", "joined_on", "verified", "daily_send_limit"), row))


def _wallet(db: sqlite3.Connection, wallet_id: str) -> dict:
    row = fetch_row(db, "SELECT wallet_id, user_id, currency, balance, opened_on FROM wallets "
                    "WHERE wallet_id = ?", (wallet_id,), f"Wallet {wallet_id!r} not found.")
    return dict(zip(("wallet_id", "user_id", "currency", "balance", "opened_on"), row))


def _wallet_of(db: sqlite3.Connection, user_id: str, currency: str) -> dict | None:
    row = db.execute("SELECT wallet_id FROM wallets WHERE user_id = ? AND currency = ?",
                     (user_id, currency)).fetchone()
    return None if row is None else _wallet(db, row[0])


_SOURCE_KEYS = ("source_id", "user_id", "kind", "institution", "last4", "is_default", "status",
                "added_on")


def _source(db: sqlite3.Connection, source_id: str) -> dict:
    row = fetch_row(db, f"SELECT {', '.join(_SOURCE_KEYS)} FROM funding_sources "
                    "WHERE source_id = ?", (source_id,),
                    f"Funding source {source_id!r} not found.")
    record = dict(zip(_SOURCE_KEYS, row))
    record["is_default"] = bool(record["is_default"])
    return record


def _name(db: sqlite3.Connection, user_id: str) -> str:
    first, last = db.execute("SELECT first_name, last_name FROM users WHERE user_id = ?",
                             (user_id,)).fetchone()
    return f"{first} {last}"


_PAYMENT_KEYS = ("payment_id", "sender_id", "recipient_id", "merchant_id", "wallet_id",
                 "source_id", "amount", "currency", "note", "created_at", "status",
                 "refunded_amount")


def _payment(db: sqlite3.Connection, payment_id: str) -> dict:
    row = fetch_row(db, f"SELECT {', '.join(_PAYMENT_KEYS)} FROM payments WHERE payment_id = ?",
                    (payment_id,), f"Payment {payment_id!r} not found.")
    return dict(zip(_PAYMENT_KEYS, row))


def _merchant_payment(db: sqlite3.Connection, payment_id: str) -> tuple[dict, tuple]:
    """A payment to a merchant and its merchant's ``(name, refund_window_days)``."""
    p = _payment(db, payment_id)
    if p["merchant_id"] is None:
        raise ToolError("Only payments to merchants can be refunded or disputed; a payment to "
                        "a person cannot.")
    merchant = db.execute("SELECT name, refund_window_days FROM merchants WHERE merchant_id = ?",
                          (p["merchant_id"],)).fetchone()
    return p, merchant


_REQUEST_KEYS = ("request_id", "requester_id", "payer_id", "amount", "currency", "note",
                 "created_at", "status", "payment_id")


def _request(db: sqlite3.Connection, request_id: str) -> dict:
    row = fetch_row(db, f"SELECT {', '.join(_REQUEST_KEYS)} FROM payment_requests "
                    "WHERE request_id = ?", (request_id,),
                    f"Payment request {request_id!r} not found.")
    return dict(zip(_REQUEST_KEYS, row))


def _pending(db: sqlite3.Connection, request_id: str) -> dict:
    r = _request(db, request_id)
    if r["status"] != "pending":
        raise ToolError(f"The request is already {r['status']}.")
    return r


def _is_contact(db: sqlite3.Connection, user_id: str, other: str) -> bool:
    return db.execute("SELECT 1 FROM contacts WHERE user_id = ? AND contact_user_id = ?",
                      (user_id, other)).fetchone() is not None


def _pay(db: sqlite3.Connection, wallet: dict, recipient_id: str, amount: float,
         note: str) -> dict:
    """Move ``amount`` from ``wallet`` to the recipient's wallet of its currency, within the
    balance and the sender's daily limit; the new payment."""
    sender = _user(db, wallet["user_id"])
    if recipient_id == sender["user_id"]:
        raise ToolError("A user cannot send money to themself.")
    target = _wallet_of(db, recipient_id, wallet["currency"])
    if target is None:
        raise ToolError(f"The recipient has no {wallet['currency']} wallet to receive the "
                        "money.")
    if amount > wallet["balance"]:
        raise ToolError(f"Insufficient balance: {wallet['balance']:.2f} {wallet['currency']} in "
                        f"the wallet, {amount:.2f} requested.")
    used = sent_today(db, sender["user_id"])
    value = money(amount * RATES_USD[wallet["currency"]])
    if money(used + value) > sender["daily_send_limit"]:
        raise ToolError(f"Daily send limit exceeded: the limit is "
                        f"{sender['daily_send_limit']:.2f} USD, {used:.2f} USD already sent "
                        f"today, this payment is worth {value:.2f} USD.")
    payment_id = counted_id(db, "payments", "payment_id", "pmt_")
    db.execute("INSERT INTO payments (payment_id, sender_id, recipient_id, merchant_id, "
               "wallet_id, source_id, amount, currency, note, created_at, status, "
               "refunded_amount) VALUES (?, ?, ?, NULL, ?, NULL, ?, ?, ?, ?, 'completed', 0)",
               (payment_id, sender["user_id"], recipient_id, wallet["wallet_id"], amount,
                wallet["currency"], note, NOW))
    db.execute("UPDATE wallets SET balance = ? WHERE wallet_id = ?",
               (money(wallet["balance"] - amount), wallet["wallet_id"]))
    db.execute("UPDATE wallets SET balance = ? WHERE wallet_id = ?",
               (money(target["balance"] + amount), target["wallet_id"]))
    return {"payment_id": payment_id, "wallet_id": wallet["wallet_id"],
            "recipient_id": recipient_id, "recipient_name": _name(db, recipient_id),
            "amount": amount, "currency": wallet["currency"], "note": note,
            "created_at": NOW, "status": "completed",
            "wallet_balance": money(wallet["balance"] - amount)}


# --------------------------------------------------------------------------- READ


@tool(Category.READ, returns={".": UserId})
def find_user_by_email(db, email: str) -> str:
    """Find a user's id by the email address of their wallet account. Use it to
    authenticate the user before anything else.

    Args:
        email: The user's email address, such as 'jane.doe12@example.com'.
    """
    return find_id(db, "users", "user_id", "email", email.strip().lower(),
                   "No user found with this email address.")


@tool(Category.READ, returns={".": UserId})
def find_user_by_username(db, username: str) -> str:
    """Find a user's id by their wallet username. Use it to authenticate the user before
    anything else.

    Args:
        username: The user's username, such as 'jdoe42'.
    """
    return find_id(db, "users", "user_id", "username", username.strip().lower().lstrip("@"),
                   "No user found with this username.")


@tool(Category.READ, returns={"user_id": UserId, "wallet_ids": WalletId})
def get_user_profile(db, user_id: UserId) -> dict:
    """Get a user's profile: name, contact details, whether they are verified, their daily
    send limit in USD with how much of it is used today, and the ids of their wallets.

    Args:
        user_id: The user's id, such as 'usr_a1b2c3d4'.
    """
    record = _user(db, user_id)
    used = sent_today(db, user_id)
    record["verified"] = bool(record["verified"])
    record.update(sent_today_usd=used,
                  remaining_daily_limit=money(record["daily_send_limit"] - used),
                  wallet_ids=[r[0] for r in db.execute(
                      "SELECT wallet_id FROM wallets WHERE user_id = ? ORDER BY rowid",
                      (user_id,))])
    return record


@tool(Category.READ, returns={"user_id": UserId, "wallets.wallet_id": WalletId})
def list_wallets(db, user_id: UserId) -> dict:
    """List a user's wallets: currency (USD, EUR or GBP) and balance.

    Args:
        user_id: The user's id.
    """
    _user(db, user_id)
    rows = fetch_dicts(db, ("wallet_id", "currency", "balance", "opened_on"),
                       "SELECT wallet_id, currency, balance, opened_on FROM wallets "
                       "WHERE user_id = ? ORDER BY rowid", (user_id,))
    return {"user_id": user_id, "wallets": rows}


@tool(Category.READ, returns={"user_id": UserId, "sources.source_id": SourceId})
def list_funding_sources(db, user_id: UserId) -> dict:
    """List a user's funding sources (bank accounts, debit and credit cards): institution,
    last four digits, whether it is the default, and status (active or removed).

    Args:
        user_id: The user's id.
    """
    _user(db, user_id)
    ids = [r[0] for r in db.execute("SELECT source_id FROM funding_sources WHERE user_id = ? "
                                    "ORDER BY rowid", (user_id,))]
    sources = [_source(db, s) for s in ids]
    for s in sources:
        del s["user_id"]
    return {"user_id": user_id, "sources": sources}


@tool(Category.READ, returns={"user_id": UserId, "contacts.contact_id": ContactId,
                              "contacts.user_id": UserId})
def list_contacts(db, user_id: UserId) -> dict:
    """List a user's contacts (the people they can send money to and request money from):
    each contact's own user id, name, username and the nickname the user gave them.

    Args:
        user_id: The user's id.
    """
    _user(db, user_id)
    rows = fetch_dicts(
        db, ("contact_id", "user_id", "first_name", "last_name", "username", "nickname",
             "added_on"),
        "SELECT c.contact_id, c.contact_user_id, u.first_name, u.last_name, u.username, "
        "c.nickname, c.added_on FROM contacts c JOIN users u ON u.user_id = c.contact_user_id "
        "WHERE c.user_id = ? ORDER BY c.rowid", (user_id,))
    return {"user_id": user_id, "contacts": rows}


@tool(Category.READ, returns={"user_id": UserId, "payments.payment_id": PaymentId,
                              "payments.counterparty_id": UserId,
                              "payments.merchant_id": "merchant_id"})
def list_payments(db, user_id: UserId, start_date: str = "", end_date: str = "",
                  merchant: str = "") -> dict:
    """List the payments a user sent and received, newest first, optionally within a date
    range and/or to one merchant, with the totals sent per currency.

    Args:
        user_id: The user's id.
        start_date: Earliest day to include, as YYYY-MM-DD (empty for no bound).
        end_date: Latest day to include, as YYYY-MM-DD (empty for no bound).
        merchant: Only payments to merchants whose name contains this text,
            case-insensitive (empty for all payments).
    """
    _user(db, user_id)
    start = check_date(start_date, "start_date") if start_date else "0000-00-00"
    end = check_date(end_date, "end_date") if end_date else "9999-99-99"
    if start > end:
        raise ToolError("start_date is after end_date.")
    rows = db.execute(
        "SELECT p.payment_id, p.sender_id, p.recipient_id, p.merchant_id, m.name, p.amount, "
        "p.currency, p.note, p.created_at, p.status, p.refunded_amount FROM payments p "
        "LEFT JOIN merchants m ON m.merchant_id = p.merchant_id WHERE (p.sender_id = ? "
        "OR p.recipient_id = ?) AND substr(p.created_at, 1, 10) >= ? "
        "AND substr(p.created_at, 1, 10) <= ? AND (? = '' OR instr(lower(m.name), lower(?)) > 0) "
        "ORDER BY p.created_at DESC, p.rowid DESC",
        (user_id, user_id, start, end, merchant, merchant)).fetchall()
    payments, totals = [], {}
    for (payment_id, sender, recipient, merchant_id, merchant_name, amount, currency, note,
         created, status, refunded) in rows:
        sent = sender == user_id
        record = {"payment_id": payment_id, "direction": "sent" if sent else "received"}
        if merchant_id is not None:
            record.update(merchant_id=merchant_id, merchant_name=merchant_name)
        else:
            other = recipient if sent else sender
            record.update(counterparty_id=other, counterparty_name=_name(db, other))
        record.update(amount=amount, currency=currency, note=note, created_at=created,
                      status=status, refunded_amount=refunded)
        payments.append(record)
        if sent:
            totals[currency] = money(totals.get(currency, 0) + amount)
    return {"user_id": user_id, "payments": payments, "total_sent": totals}


@tool(Category.READ, returns={"payment_id": PaymentId, "sender_id": UserId,
                              "recipient_id": UserId, "merchant_id": "merchant_id",
                              "wallet_id": WalletId, "source_id": SourceId,
                              "refunds.refund_id": "refund_id",
                              "dispute.dispute_id": "dispute_id"})
def get_payment(db, payment_id: PaymentId) -> dict:
    """Get one payment: who paid whom, how it was funded, its refunds so far and any dispute,
    its age in days and, for a merchant payment, the merchant's refund window in days.

    Args:
        payment_id: The payment's id, such as 'pmt_k3j9x0p2'.
    """
    record = _payment(db, payment_id)
    record["days_ago"] = days_before_today(record["created_at"])
    if record["merchant_id"] is not None:
        name, window = db.execute("SELECT name, refund_window_days FROM merchants "
                                  "WHERE merchant_id = ?", (record["merchant_id"],)).fetchone()
        record.update(merchant_name=name, refund_window_days=window)
    else:
        record["recipient_name"] = _name(db, record["recipient_id"])
    record["refunds"] = fetch_dicts(db, ("refund_id", "amount", "reason", "created_at"),
                                    "SELECT refund_id, amount, reason, created_at FROM refunds "
                                    "WHERE payment_id = ? ORDER BY rowid", (payment_id,))
    dispute = db.execute("SELECT dispute_id, reason, status, opened_on FROM disputes "
                         "WHERE payment_id = ?", (payment_id,)).fetchone()
    record["dispute"] = None if dispute is None else dict(zip(
        ("dispute_id", "reason", "status", "opened_on"), dispute))
    return record


@tool(Category.READ, returns={"user_id": UserId, "requests.request_id": RequestId,
                              "requests.counterparty_id": UserId})
def list_payment_requests(db, user_id: UserId) -> dict:
    """List the payment requests a user received (incoming: they are asked to pay) and sent
    (outgoing), newest first, with the other person, amount, note and status (pending,
    accepted, declined or cancelled).

    Args:
        user_id: The user's id.
    """
    _user(db, user_id)
    rows = db.execute(f"SELECT {', '.join(_REQUEST_KEYS)} FROM payment_requests "
                      "WHERE requester_id = ? OR payer_id = ? ORDER BY created_at DESC, "
                      "rowid DESC", (user_id, user_id)).fetchall()
    out = []
    for row in rows:
        r = dict(zip(_REQUEST_KEYS, row))
        incoming = r["payer_id"] == user_id
        other = r["requester_id"] if incoming else r["payer_id"]
        out.append({"request_id": r["request_id"],
                    "direction": "incoming" if incoming else "outgoing",
                    "counterparty_id": other, "counterparty_name": _name(db, other),
                    "amount": r["amount"], "currency": r["currency"], "note": r["note"],
                    "created_at": r["created_at"], "status": r["status"]})
    return {"user_id": user_id, "requests": out}


@tool(Category.READ, returns={"user_id": UserId, "disputes.dispute_id": "dispute_id",
                              "disputes.payment_id": PaymentId})
def list_disputes(db, user_id: UserId) -> dict:
    """List the disputes a user has opened, with their payment, reason and status.

    Args:
        user_id: The user's id.
    """
    _user(db, user_id)
    rows = fetch_dicts(db, ("dispute_id", "payment_id", "reason", "status", "opened_on"),
                       "SELECT dispute_id, payment_id, reason, status, opened_on FROM disputes "
                       "WHERE user_id = ? ORDER BY rowid", (user_id,))
    return {"user_id": user_id, "disputes": rows}


@tool(Category.READ)
def get_exchange_rate(db, from_currency: Currency, to_currency: Currency) -> dict:
    """Get the app's exchange rate between two currencies: how many units of the target
    one unit of the source buys.

    Args:
        from_currency: The currency converted from.
        to_currency: The currency converted to.
    """
    return {"from_currency": from_currency, "to_currency": to_currency,
            "rate": rate(from_currency, to_currency)}


transfer_to_human_agents = human_transfer_tool(
    "Transfer the user to a human agent, with a summary of their issue. Only transfer if the "
    "user explicitly asks for a human agent, or if the request cannot be handled with the "
    "policy and the available tools.",
    "A summary of the user's issue.")


# -------------------------------------------------------------------------- WRITE


@tool(Category.WRITE, returns={"payment_id": PaymentId, "wallet_id": WalletId,
                               "recipient_id": UserId},
      writes=("wallet_id", "payment_id"), needs=("wallet_id",))
def send_money(db, from_wallet_id: WalletId, recipient_id: UserId, amount: float,
               note: str = "") -> dict:
    """Send money from one of the user's wallets to one of their contacts, into the
    contact's wallet of the same currency. The amount may not exceed the wallet's balance
    nor the user's remaining daily send limit. Confirm the details with the user (explicit
    yes) before calling.

    Args:
        from_wallet_id: The wallet the money leaves.
        recipient_id: The user id of the contact who gets the money.
        amount: The amount in the wallet's currency, positive, at most two decimals.
        note: An optional note for the recipient.
    """
    amount = check_cents(amount)
    wallet = _wallet(db, from_wallet_id)
    _user(db, recipient_id)
    if recipient_id != wallet["user_id"] and not _is_contact(db, wallet["user_id"],
                                                             recipient_id):
        raise ToolError("The recipient is not one of the user's contacts; add them first.")
    return _pay(db, wallet, recipient_id, amount, _note(note))


@tool(Category.WRITE, returns={"request_id": RequestId, "user_id": UserId, "payer_id": UserId},
      writes=("request_id",))
def request_money(db, user_id: UserId, payer_id: UserId, amount: float, currency: Currency,
                  note: str = "") -> dict:
    """Ask a contact to pay the user an amount (a payment request they can accept or
    decline). The user must hold a wallet in that currency; one pending request per payer,
    amount and currency. Confirm the details with the user (explicit yes) before calling.

    Args:
        user_id: The id of the user who asks for the money.
        payer_id: The user id of the contact asked to pay.
        amount: The amount, positive, at most two decimals, at most 5000.
        currency: The currency of the request.
        note: What the money is for.
    """
    amount = check_cents(amount)
    _user(db, user_id)
    _user(db, payer_id)
    if payer_id == user_id:
        raise ToolError("A user cannot request money from themself.")
    if not _is_contact(db, user_id, payer_id):
        raise ToolError("The payer is not one of the user's contacts; add them first.")
    if amount > MAX_REQUEST:
        raise ToolError(f"A request may be at most {MAX_REQUEST:.2f}.")
    if _wallet_of(db, user_id, currency) is None:
        raise ToolError(f"The user has no {currency} wallet to receive the money.")
    if db.execute("SELECT 1 FROM payment_requests WHERE requester_id = ? AND payer_id = ? "
                  "AND amount = ? AND currency = ? AND status = 'pending'",
                  (user_id, payer_id, amount, currency)).fetchone():
        raise ToolError("The same request to this person is already pending.")
    request_id = counted_id(db, "payment_requests", "request_id", "req_")
    db.execute("INSERT INTO payment_requests (request_id, requester_id, payer_id, amount, "
               "currency, note, created_at, status, payment_id) "
               "VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', NULL)",
               (request_id, user_id, payer_id, amount, currency, _note(note), NOW))
    return {"request_id": request_id, "user_id": user_id, "payer_id": payer_id,
            "payer_name": _name(db, payer_id), "amount": amount, "currency": currency,
            "note": note.strip(), "status": "pending"}


@tool(Category.WRITE, returns={"request_id": RequestId, "payment_id": PaymentId},
      writes=("request_id", "payment_id", "wallet_id"), needs=("request_id",))
def accept_payment_request(db, request_id: RequestId) -> dict:
    """Accept a pending payment request the user received: pay it from their wallet of the
    request's currency (balance and daily send limit apply). Confirm with the user
    (explicit yes) before calling.

    Args:
        request_id: The request's id.
    """
    r = _pending(db, request_id)
    wallet = _wallet_of(db, r["payer_id"], r["currency"])
    if wallet is None:
        raise ToolError(f"The payer has no {r['currency']} wallet to pay from.")
    payment = _pay(db, wallet, r["requester_id"], r["amount"], r["note"])
    db.execute("UPDATE payment_requests SET status = 'accepted', payment_id = ? "
               "WHERE request_id = ?", (payment["payment_id"], request_id))
    return {"request_id": request_id, "status": "accepted", **payment}


@tool(Category.WRITE, returns={"request_id": RequestId}, writes=("request_id",))
def decline_payment_request(db, request_id: RequestId) -> dict:
    """Decline a pending payment request the user received. Confirm with the user
    (explicit yes) before calling.

    Args:
        request_id: The request's id.
    """
    _pending(db, request_id)
    db.execute("UPDATE payment_requests SET status = 'declined' WHERE request_id = ?",
               (request_id,))
    return {"request_id": request_id, "status": "declined"}


@tool(Category.WRITE, returns={"request_id": RequestId}, writes=("request_id",))
def cancel_payment_request(db, request_id: RequestId) -> dict:
    """Cancel a pending payment request the user sent. Confirm with the user (explicit yes)
    before calling.

    Args:
        request_id: The request's id.
    """
    _pending(db, request_id)
    db.execute("UPDATE payment_requests SET status = 'cancelled' WHERE request_id = ?",
               (request_id,))
    return {"request_id": request_id, "status": "cancelled"}


@tool(Category.WRITE, returns={"refund_id": "refund_id", "payment_id": PaymentId},
      writes=("payment_id", "refund_id", "wallet_id"), needs=("payment_id",))
def refund_merchant_payment(db, payment_id: PaymentId, amount: float,
                            reason: RefundReason) -> dict:
    """Refund a payment to a merchant, in full or in part, back to how it was paid (the
    wallet, or the card or bank account). At most what is left unrefunded; not while a
    dispute on it is open. Check the merchant's refund window first (policy). Confirm the
    details with the user (explicit yes) before calling.

    Args:
        payment_id: The merchant payment's id.
        amount: The amount to refund, positive, at most two decimals.
        reason: 'returned_item', 'damaged_item', 'wrong_item' or 'order_cancelled'.
    """
    amount = check_cents(amount)
    p, _ = _merchant_payment(db, payment_id)
    left = money(p["amount"] - p["refunded_amount"])
    if left <= 0:
        raise ToolError("The payment is already fully refunded.")
    if amount > left:
        raise ToolError(f"At most {left:.2f} {p['currency']} of this payment can still be "
                        "refunded.")
    if db.execute("SELECT 1 FROM disputes WHERE payment_id = ? AND status = 'open'",
                  (payment_id,)).fetchone():
        raise ToolError("The payment has an open dispute; it cannot be refunded meanwhile.")
    refunded = money(p["refunded_amount"] + amount)
    status = "refunded" if refunded >= p["amount"] else "partially_refunded"
    refund_id = counted_id(db, "refunds", "refund_id", "rfd_")
    db.execute("INSERT INTO refunds (refund_id, payment_id, amount, reason, created_at) "
               "VALUES (?, ?, ?, ?, ?)", (refund_id, payment_id, amount, reason, NOW))
    db.execute("UPDATE payments SET refunded_amount = ?, status = ? WHERE payment_id = ?",
               (refunded, status, payment_id))
    if p["wallet_id"] is not None:
        wallet = _wallet(db, p["wallet_id"])
        db.execute("UPDATE wallets SET balance = ? WHERE wallet_id = ?",
                   (money(wallet["balance"] + amount), wallet["wallet_id"]))
    return {"refund_id": refund_id, "payment_id": payment_id, "amount": amount,
            "reason": reason, "refunded_amount": refunded, "status": status,
            "refunded_to": "wallet" if p["wallet_id"] is not None else "funding source"}


@tool(Category.WRITE, returns={"dispute_id": "dispute_id", "payment_id": PaymentId},
      writes=("dispute_id", "payment_id"), needs=("payment_id",))
def open_dispute(db, payment_id: PaymentId, reason: DisputeReason) -> dict:
    """Open a dispute on a payment to a merchant (at most 180 days old, once per payment,
    not when it is fully refunded). Confirm with the user (explicit yes) before calling.

    Args:
        payment_id: The merchant payment's id.
        reason: 'unauthorized' (the user did not make it), 'not_received',
            'not_as_described' or 'duplicate'.
    """
    p, _ = _merchant_payment(db, payment_id)
    if p["status"] == "refunded":
        raise ToolError("The payment is already fully refunded.")
    if days_before_today(p["created_at"]) > DISPUTE_WINDOW_DAYS:
        raise ToolError(f"Payments can be disputed only within {DISPUTE_WINDOW_DAYS} days.")
    if db.execute("SELECT 1 FROM disputes WHERE payment_id = ?", (payment_id,)).fetchone():
        raise ToolError("This payment is already disputed.")
    dispute_id = counted_id(db, "disputes", "dispute_id", "dsp_")
    db.execute("INSERT INTO disputes (dispute_id, payment_id, user_id, reason, status, "
               "opened_on) VALUES (?, ?, ?, ?, 'open', ?)",
               (dispute_id, payment_id, p["sender_id"], reason, TODAY))
    return {"dispute_id": dispute_id, "payment_id": payment_id, "reason": reason,
            "status": "open", "opened_on": TODAY}


@tool(Category.WRITE, returns={"contact_id": ContactId, "user_id": UserId},
      writes=("contact_id",))
def add_contact(db, user_id: UserId, username: str, nickname: str = "") -> dict:
    """Add another user to the user's contacts by their username. Confirm with the user
    (explicit yes) before calling.

    Args:
        user_id: The user's id.
        username: The username of the person to add, such as 'mlopez7'.
        nickname: An optional nickname for them.
    """
    _user(db, user_id)
    nickname = nickname.strip()
    if len(nickname) > 60:
        raise ToolError("The nickname is too long (at most 60 characters).")
    row = db.execute("SELECT user_id FROM users WHERE username = ?",
                     (username.strip().lower().lstrip("@"),)).fetchone()
    if row is None:
        raise ToolError(f"No user has the username {username[:60]!r}.")
    other = row[0]
    if other == user_id:
        raise ToolError("A user cannot add themself as a contact.")
    if _is_contact(db, user_id, other):
        raise ToolError("This person is already a contact.")
    (count,) = db.execute("SELECT count(*) FROM contacts WHERE user_id = ?",
                          (user_id,)).fetchone()
    if count >= MAX_CONTACTS:
        raise ToolError(f"A user can have at most {MAX_CONTACTS} contacts.")
    contact_id = counted_id(db, "contacts", "contact_id", "con_")
    db.execute("INSERT INTO contacts (contact_id, user_id, contact_user_id, nickname, added_on) "
               "VALUES (?, ?, ?, ?, ?)", (contact_id, user_id, other, nickname, TODAY))
    return {"contact_id": contact_id, "user_id": other, "name": _name(db, other),
            "username": username.strip().lower().lstrip("@"), "nickname": nickname}


@tool(Category.WRITE, returns={"contact_id": ContactId, "user_id": UserId},
      writes=("contact_id",))
def remove_contact(db, contact_id: ContactId) -> dict:
    """Remove a contact. Confirm with the user (explicit yes) before calling.

    Args:
        contact_id: The contact's id (from the user's contact list).
    """
    row = fetch_row(db, "SELECT contact_user_id FROM contacts WHERE contact_id = ?",
                    (contact_id,), f"Contact {contact_id!r} not found.")
    db.execute("DELETE FROM contacts WHERE contact_id = ?", (contact_id,))
    return {"contact_id": contact_id, "user_id": row[0], "removed": True}


def _transfer(db: sqlite3.Connection, wallet_id: str, source_id: str, amount: float,
              direction: str) -> dict:
    wallet = _wallet(db, wallet_id)
    source = _source(db, source_id)
    if source["user_id"] != wallet["user_id"]:
        raise ToolError("The funding source does not belong to the wallet's owner.")
    if source["status"] != "active":
        raise ToolError("The funding source was removed.")
    if wallet["currency"] != "USD":
        raise ToolError("Top-ups and withdrawals go through the USD wallet only.")
    if direction == "top_up":
        if source["kind"] == "credit_card":
            raise ToolError("A wallet cannot be topped up from a credit card.")
        if amount > MAX_TOP_UP:
            raise ToolError(f"A top-up may be at most {MAX_TOP_UP:.2f} USD.")
        balance = money(wallet["balance"] + amount)
    else:
        if source["kind"] != "bank_account":
            raise ToolError("Money can be withdrawn only to a bank account.")
        if amount > wallet["balance"]:
            raise ToolError(f"Insufficient balance: {wallet['balance']:.2f} USD in the wallet, "
                            f"{amount:.2f} requested.")
        balance = money(wallet["balance"] - amount)
    transfer_id = counted_id(db, "wallet_transfers", "transfer_id", "trf_")
    db.execute("INSERT INTO wallet_transfers (transfer_id, wallet_id, source_id, direction, "
               "amount, created_at) VALUES (?, ?, ?, ?, ?, ?)",
               (transfer_id, wallet_id, source_id, direction, amount, NOW))
    db.execute("UPDATE wallets SET balance = ? WHERE wallet_id = ?", (balance, wallet_id))
    return {"transfer_id": transfer_id, "wallet_id": wallet_id, "source_id": source_id,
            "direction": direction, "amount": amount, "wallet_balance": balance}


@tool(Category.WRITE, returns={"transfer_id": "transfer_id", "wallet_id": WalletId,
                               "source_id": SourceId},
      writes=("wallet_id", "transfer_id"), needs=("source_id",))
def add_money(db, wallet_id: WalletId, source_id: SourceId, amount: float) -> dict:
    """Top up the user's USD wallet from one of their active bank accounts or debit cards
    (not a credit card), at most 2500.00 at a time. Confirm the details with the user
    (explicit yes) before calling.

    Args:
        wallet_id: The user's USD wallet.
        source_id: The funding source to take the money from.
        amount: The amount in USD, positive, at most two decimals.
    """
    return _transfer(db, wallet_id, source_id, check_cents(amount), "top_up")


@tool(Category.WRITE, returns={"transfer_id": "transfer_id", "wallet_id": WalletId,
                               "source_id": SourceId},
      writes=("wallet_id", "transfer_id"), needs=("source_id",))
def withdraw_money(db, wallet_id: WalletId, source_id: SourceId, amount: float) -> dict:
    """Withdraw money from the user's USD wallet to one of their active bank accounts, at
    most the balance. Confirm the details with the user (explicit yes) before calling.

    Args:
        wallet_id: The user's USD wallet.
        source_id: The bank account to send the money to.
        amount: The amount in USD, positive, at most two decimals.
    """
    return _transfer(db, wallet_id, source_id, check_cents(amount), "withdrawal")


@tool(Category.WRITE, returns={"conversion_id": "conversion_id", "from_wallet_id": WalletId,
                               "to_wallet_id": WalletId},
      writes=("wallet_id", "conversion_id"), needs=("wallet_id",))
def convert_funds(db, from_wallet_id: WalletId, to_wallet_id: WalletId,
                  amount: float) -> dict:
    """Convert money between two wallets of the same user at the app's exchange rate (see
    get_exchange_rate); the amount is in the source wallet's currency, at most its balance.
    Confirm the details with the user (explicit yes) before calling.

    Args:
        from_wallet_id: The wallet the money leaves.
        to_wallet_id: The wallet (another currency, same user) the money goes to.
        amount: The amount in the source wallet's currency, positive, at most two decimals.
    """
    amount = check_cents(amount)
    source = _wallet(db, from_wallet_id)
    target = _wallet(db, to_wallet_id)
    if source["user_id"] != target["user_id"]:
        raise ToolError("Both wallets must belong to the same user.")
    if source["wallet_id"] == target["wallet_id"]:
        raise ToolError("The two wallets must differ.")
    if amount > source["balance"]:
        raise ToolError(f"Insufficient balance: {source['balance']:.2f} {source['currency']} "
                        f"in the wallet, {amount:.2f} requested.")
    r = rate(source["currency"], target["currency"])
    converted = money(amount * r)
    if converted <= 0:
        raise ToolError("The amount is too small to convert.")
    conversion_id = counted_id(db, "conversions", "conversion_id", "cnv_")
    db.execute("INSERT INTO conversions (conversion_id, user_id, from_wallet_id, to_wallet_id, "
               "amount, rate, converted_amount, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
               (conversion_id, source["user_id"], from_wallet_id, to_wallet_id, amount, r,
                converted, NOW))
    db.execute("UPDATE wallets SET balance = ? WHERE wallet_id = ?",
               (money(source["balance"] - amount), from_wallet_id))
    db.execute("UPDATE wallets SET balance = ? WHERE wallet_id = ?",
               (money(target["balance"] + converted), to_wallet_id))
    return {"conversion_id": conversion_id, "from_wallet_id": from_wallet_id,
            "to_wallet_id": to_wallet_id, "amount": amount, "from_currency": source["currency"],
            "rate": r, "converted_amount": converted, "to_currency": target["currency"],
            "from_balance": money(source["balance"] - amount),
            "to_balance": money(target["balance"] + converted)}


@tool(Category.WRITE, returns={"source_id": SourceId}, writes=("source_id",))
def set_default_funding_source(db, source_id: SourceId) -> dict:
    """Make an active funding source the user's default. Confirm with the user (explicit
    yes) before calling.

    Args:
        source_id: The funding source's id.
    """
    source = _source(db, source_id)
    if source["status"] != "active":
        raise ToolError("A removed funding source cannot be the default.")
    if source["is_default"]:
        raise ToolError("This funding source is already the default.")
    db.execute("UPDATE funding_sources SET is_default = 0 WHERE user_id = ?",
               (source["user_id"],))
    db.execute("UPDATE funding_sources SET is_default = 1 WHERE source_id = ?", (source_id,))
    source["is_default"] = True
    return source


@tool(Category.WRITE, returns={"source_id": SourceId}, writes=("source_id",))
def remove_funding_source(db, source_id: SourceId) -> dict:
    """Remove a funding source from the user's wallet. The default source cannot be removed
    (make another one the default first). Confirm with the user (explicit yes) before
    calling.

    Args:
        source_id: The funding source's id.
    """
    source = _source(db, source_id)
    if source["status"] != "active":
        raise ToolError("The funding source is already removed.")
    if source["is_default"]:
        raise ToolError("The default funding source cannot be removed; make another one the "
                        "default first.")
    db.execute("UPDATE funding_sources SET status = 'removed' WHERE source_id = ?",
               (source_id,))
    source["status"] = "removed"
    return source
