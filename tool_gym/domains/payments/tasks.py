"""Hidden-intent tasks of the payments domain (users' wallets, contacts, payments to people
and merchants, payment requests, refunds and disputes): the constraint samplers and
``TASKS``, the domain's :class:`~tool_gym.core.taskkit.RuleTaskKit`.

A user refers to a wallet by its currency, to a contact by their name, to a payment request
by the other person, its amount and what it is for, and to a merchant payment by its amount,
merchant and day; every description is proven unique among the user's own records. Every
need that moves money claims the wallets it touches (and the daily limit), so that the
needs of one task never change each other's numbers.
"""

from __future__ import annotations

from datetime import date, timedelta

from ...core.actions import ToolCall
from ...core.proposals import Intent, Param
from ...core.sampler_parts import Login, by_name
from ...core.taskkit import (RuleTaskKit, SampleContext, answer_steps, date_words, dollars,
                             money_terms, month_words, write_steps)
from ...core.task_model import Constraint, Description, Expectation, Refusal
from .generate import NEW_NOTES
from .tools import RATES_USD, TODAY, days_before_today, money, rate, sent_today

ASK_IDENTITY = ("Before I can help, I need to verify your identity. Could you tell me the "
                "email address or the username of your wallet account?")
REFUND_WORDS = {
    "returned_item": ("I returned the item", "I sent it back to them"),
    "damaged_item": ("it arrived damaged", "the item came broken"),
    "wrong_item": ("they sent me the wrong item", "I got the wrong thing"),
    "order_cancelled": ("the order was cancelled", "I cancelled the order"),
}
DISPUTE_WORDS = {
    "unauthorized": ("I never made that payment", "I don't recognize it, it wasn't me"),
    "not_received": ("I never received what I paid for", "the order never arrived"),
    "not_as_described": ("what I got is nothing like what was described",
                         "the item is not as described"),
}
#: Words that name why a request is refused (any one addresses it; see ``Refusal.about``).
_OVER_BALANCE_WORDS = (
    "balance", "available", "insufficient", "not enough", "funds", "exceeds", "exceed",
    "exceeding", "more than", "limit", "short")
_LATE_REFUND_WORDS = ("window", "too late", "too old", "older than", "expired", "time limit",
                      "deadline", "ago", "days", "refund period", "return period")


def amount_words(amount: float, currency: str) -> str:
    """How a person writes an amount: ``$45.50``, ``$120``, ``80.25 EUR``."""
    if currency == "USD":
        return dollars(amount)
    return f"{amount:,.0f} {currency}" if amount == int(amount) else f"{amount:,.2f} {currency}"


def amount_text(amount: float, currency: str) -> str:
    """How the agent writes an amount: ``$45.50``, ``80.25 EUR``."""
    return f"${amount:,.2f}" if currency == "USD" else f"{amount:,.2f} {currency}"


# ------------------------------------------------------------------ descriptions

def describe_wallet(ctx: SampleContext, wallet_id: str, currency: str) -> Description | None:
    return ctx.describe("wallet", f"{currency} wallet", {"currency": currency}, wallet_id,
                        "SELECT wallet_id FROM wallets WHERE user_id = ? AND currency = ?",
                        (ctx.user_id, currency))


def describe_contact(ctx: SampleContext, other: str, first: str,
                     last: str) -> Description | None:
    return ctx.describe(
        "contact", f"{first} {last}", {"first_name": first, "last_name": last}, other,
        "SELECT c.contact_user_id FROM contacts c JOIN users u ON u.user_id = "
        "c.contact_user_id WHERE c.user_id = ? AND u.first_name = ? AND u.last_name = ?",
        (ctx.user_id, first, last))


def describe_request(ctx: SampleContext, request_id: str, incoming: bool, name: str,
                     amount: float, currency: str, note: str) -> Description | None:
    first, last = name.split(" ", 1)
    them, me = ("requester_id", "payer_id") if incoming else ("payer_id", "requester_id")
    text = (f"{amount_words(amount, currency)} request from {name} for \"{note}\"" if incoming
            else f"{amount_words(amount, currency)} request I sent {name} for \"{note}\"")
    return ctx.describe(
        "request", text, {"incoming": incoming, "first_name": first, "last_name": last,
                          "amount": amount, "currency": currency, "note": note}, request_id,
        f"SELECT q.request_id FROM payment_requests q JOIN users u ON u.user_id = q.{them} "
        f"WHERE q.{me} = ? AND u.first_name = ? AND u.last_name = ? AND q.amount = ? "
        "AND q.currency = ? AND q.note = ?", (ctx.user_id, first, last, amount, currency, note))


def describe_purchase(ctx: SampleContext, payment_id: str, merchant: str, amount: float,
                      day: str) -> Description | None:
    return ctx.describe(
        "payment", f"{dollars(amount)} payment to {merchant} on {date_words(day)}",
        {"merchant": merchant, "amount": amount, "date": day}, payment_id,
        "SELECT p.payment_id FROM payments p JOIN merchants m ON m.merchant_id = p.merchant_id "
        "WHERE p.sender_id = ? AND m.name = ? AND p.amount = ? AND substr(p.created_at, 1, 10) "
        "= ?", (ctx.user_id, merchant, amount, day))


# ------------------------------------------------------------------ reads and rows

def _lists(ctx: SampleContext, *tools: str) -> list[ToolCall]:
    """Calls of the user's list tools (``list_wallets``, ``list_contacts``, ...)."""
    return [ToolCall(tool, {"user_id": ctx.user_id}) for tool in tools]


def _wallets(ctx: SampleContext) -> list[tuple]:
    return ctx.rows("SELECT wallet_id, currency, balance FROM wallets WHERE user_id = ? "
                    "ORDER BY rowid", (ctx.user_id,))


def _contacts(ctx: SampleContext, currency: str | None = None) -> list[tuple]:
    """The user's contacts (user id, first name, last name), those holding a wallet of
    ``currency`` when given."""
    return ctx.rows(
        "SELECT c.contact_user_id, u.first_name, u.last_name FROM contacts c JOIN users u "
        "ON u.user_id = c.contact_user_id WHERE c.user_id = ? AND (? IS NULL OR EXISTS ("
        "SELECT 1 FROM wallets w WHERE w.user_id = c.contact_user_id AND w.currency = ?)) "
        "ORDER BY c.rowid", (ctx.user_id, currency, currency))


def _room(ctx: SampleContext, currency: str) -> float:
    """How much of ``currency`` the user may still send today."""
    (limit,) = ctx.rows("SELECT daily_send_limit FROM users WHERE user_id = ?",
                        (ctx.user_id,))[0]
    return money((limit - sent_today(ctx.db, ctx.user_id)) / RATES_USD[currency])


def _balance(wallet_id: str, balance: float) -> Expectation:
    return Expectation("SELECT balance FROM wallets WHERE wallet_id = ?", (wallet_id,),
                       ((balance,),))


def _purchases(ctx: SampleContext, where: str, params: tuple = ()) -> list[tuple]:
    """The user's merchant payments without a dispute (``where`` on ``p`` and ``m``): id,
    merchant, amount, day, refunded amount, wallet, refund window."""
    return ctx.rows(
        "SELECT p.payment_id, m.name, p.amount, substr(p.created_at, 1, 10), "
        "p.refunded_amount, p.wallet_id, m.refund_window_days FROM payments p JOIN merchants m "
        "ON m.merchant_id = p.merchant_id WHERE p.sender_id = ? AND NOT EXISTS (SELECT 1 FROM "
        f"disputes d WHERE d.payment_id = p.payment_id) AND {where} ORDER BY p.rowid",
        (ctx.user_id, *params))


def _merchant_reads(ctx: SampleContext, merchant: str) -> list[ToolCall]:
    return [ToolCall("list_payments", {"user_id": ctx.user_id, "merchant": merchant})]


def _age_ok(row: tuple, lo: int | None = None, hi: int | None = None) -> bool:
    """A purchase row whose age lies ``lo`` .. ``hi`` days around its refund window."""
    age, window = days_before_today(row[3]), row[6]
    return (lo is None or age >= window + lo) and (hi is None or age <= window + hi)


# ----------------------------------------------------------------------- samplers

def send_money(ctx: SampleContext) -> Constraint | None:
    for wallet_id, currency, balance in ctx.shuffled(_wallets(ctx)):
        cap = min(balance, _room(ctx, currency), 400.0)
        contacts = _contacts(ctx, currency)
        if cap < 20 or not contacts or not ctx.claim(wallet_id, ("daily_limit", ctx.user_id)):
            continue
        other, first, last = ctx.pick(contacts)
        w = describe_wallet(ctx, wallet_id, currency)
        c = describe_contact(ctx, other, first, last)
        if w is None or c is None or not ctx.claim(("contact", other)):
            return None
        amount = money(int(ctx.rng.integers(500, int(cap * 100) + 1)) / 100)
        note = ctx.pick(NEW_NOTES)
        call = ToolCall("send_money", {"from_wallet_id": wallet_id, "recipient_id": other,
                                       "amount": amount, "note": note})
        (before,) = ctx.rows("SELECT count(*) FROM payments WHERE sender_id = ? AND "
                             "recipient_id = ? AND amount = ? AND currency = ?",
                             (ctx.user_id, other, amount, currency))[0]
        words = amount_words(amount, currency)
        return Constraint(
            "send_money", dict(call.arguments), refs={"wallet": w, "contact": c},
            writes=(("send_money", wallet_id),),
            confirm_terms=(money_terms(amount), (c.text,), (currency,)),
            say=(f'Please send {words} to {c.text} from my {currency} wallet, with the note '
                 f'"{note}".',
                 f'I owe {c.text} {words} for "{note}". Can you pay them from my {currency} '
                 "wallet?",
                 f'Send {c.text} {words} out of my {currency} wallet please; note: "{note}".'),
            solution=write_steps(
                _lists(ctx, "list_contacts", "list_wallets"),
                f'I will send {amount_text(amount, currency)} from your {currency} wallet to '
                f'{c.text} with the note "{note}". Shall I proceed?', call),
            expect=(_balance(wallet_id, money(balance - amount)),
                    Expectation("SELECT count(*) FROM payments WHERE sender_id = ? AND "
                                "recipient_id = ? AND amount = ? AND currency = ?",
                                (ctx.user_id, other, amount, currency), ((before + 1,),))))
    return None


def refuse_over_balance(ctx: SampleContext) -> Constraint | None:
    wallets = _wallets(ctx)
    if len(wallets) < 2:
        return None  # another wallet of the user's must compete with the refused one
    for wallet_id, currency, balance in ctx.shuffled(wallets):
        contacts = _contacts(ctx, currency)
        if balance < 20 or not contacts or not ctx.claim(wallet_id):
            continue
        other, first, last = ctx.pick(contacts)
        w = describe_wallet(ctx, wallet_id, currency)
        c = describe_contact(ctx, other, first, last)
        if w is None or c is None or not ctx.claim(("contact", other)):
            return None
        amount = float(100 * (int(balance // 100) + int(ctx.rng.integers(1, 6))))
        words = amount_words(amount, currency)
        return Constraint(
            "refuse_over_balance", {"from_wallet_id": wallet_id, "recipient_id": other,
                                    "amount": amount},
            refs={"wallet": w, "contact": c}, answer="cannot",
            refusal=Refusal((wallet_id,), about=(wallet_id, (currency, "wallet"),
                                                 *_OVER_BALANCE_WORDS)),
            say=(f"Please send {words} to {c.text} from my {currency} wallet.",
                 f"I need to pay {c.text} {words} right away, out of my {currency} wallet.",
                 f"Can you transfer {words} from my {currency} wallet to {c.text}?"),
            solution=answer_steps(
                _lists(ctx, "list_contacts", "list_wallets"),
                f"I'm sorry, but I cannot send {amount_text(amount, currency)} to {c.text}: your "
                f"{currency} wallet holds only {amount_text(balance, currency)}, and payments "
                "above the wallet's balance are not allowed."),
            expect=(_balance(wallet_id, balance),))
    return None


def request_money(ctx: SampleContext) -> Constraint | None:
    currencies = [c for _, c, _ in _wallets(ctx)]
    for other, first, last in ctx.shuffled(_contacts(ctx)):
        c = describe_contact(ctx, other, first, last)
        if c is None or not ctx.claim(("contact", other)):
            continue
        currency = ctx.pick(currencies) if ctx.rng.random() < 0.3 else "USD"
        amount = money(int(ctx.rng.integers(1000, 30001)) / 100)
        note = ctx.pick(NEW_NOTES)
        call = ToolCall("request_money", {"user_id": ctx.user_id, "payer_id": other,
                                          "amount": amount, "currency": currency,
                                          "note": note})
        words = amount_words(amount, currency)
        return Constraint(
            "request_money", dict(call.arguments), refs={"contact": c},
            writes=(("request_money", ctx.user_id),),
            confirm_terms=(("request",), money_terms(amount), (c.text,)),
            say=(f'Please request {words} from {c.text} for "{note}".',
                 f'{c.text} owes me {words} for "{note}". Can you send them a payment '
                 "request?",
                 f'Could you ask {c.text} to pay me {words}? It\'s for "{note}".'),
            solution=write_steps(
                _lists(ctx, "list_contacts"),
                f'I will send {c.text} a payment request for {amount_text(amount, currency)} '
                f'with the note "{note}". Shall I proceed?', call),
            expect=(Expectation("SELECT count(*) FROM payment_requests WHERE requester_id = ? "
                                "AND payer_id = ? AND amount = ? AND currency = ? "
                                "AND status = 'pending'",
                                (ctx.user_id, other, amount, currency), ((1,),)),))
    return None


def _requests(ctx: SampleContext, incoming: bool) -> list[tuple]:
    """The user's pending requests received (``incoming``) or sent: id, the other person's
    id and name, amount, currency, note."""
    them, me = ("requester_id", "payer_id") if incoming else ("payer_id", "requester_id")
    return ctx.rows(
        f"SELECT q.request_id, q.{them}, u.first_name || ' ' || u.last_name, q.amount, "
        f"q.currency, q.note FROM payment_requests q JOIN users u ON u.user_id = q.{them} "
        f"WHERE q.{me} = ? AND q.status = 'pending' ORDER BY q.rowid", (ctx.user_id,))


def _request_need(ctx: SampleContext, kind: str) -> Constraint | None:
    incoming = kind != "cancel_payment_request"
    for request_id, other, name, amount, currency, note in ctx.shuffled(
            _requests(ctx, incoming)):
        d = describe_request(ctx, request_id, incoming, name, amount, currency, note)
        if d is None:
            continue
        keys, expect = [request_id, ("contact", other)], []
        if kind == "accept_payment_request":  # paid from the wallet of its currency
            wallet = ctx.rows("SELECT wallet_id, balance FROM wallets WHERE user_id = ? AND "
                              "currency = ?", (ctx.user_id, currency))
            if not wallet or wallet[0][1] < amount or _room(ctx, currency) < amount:
                continue
            keys += [wallet[0][0], ("daily_limit", ctx.user_id)]
            expect = [_balance(wallet[0][0], money(wallet[0][1] - amount))]
        if not ctx.claim(*keys):
            continue
        status, words = {
            "accept_payment_request": ("accepted", ("accept", "pay")),
            "decline_payment_request": ("declined", ("decline",)),
            "cancel_payment_request": ("cancelled", ("cancel",)),
        }[kind]
        money_text = amount_text(amount, currency)
        if kind == "accept_payment_request":
            say = (f"Please accept the {d.text} and pay it.",
                   f"I'd like to pay the {d.text}.",
                   f"Can you accept the {d.text}? I'm happy to pay it.")
            proposal = (f'I will accept the request from {name} for {money_text} ("{note}") and '
                        f"pay it from your {currency} wallet.")
        elif kind == "decline_payment_request":
            say = (f"Please decline the {d.text}.",
                   f"I don't owe that: decline the {d.text}, please.",
                   f"Can you decline the {d.text}? I'm not paying it.")
            proposal = f'I will decline the request from {name} for {money_text} ("{note}").'
        else:
            say = (f"Please cancel the {d.text}.",
                   f"{name} already paid me back another way, so cancel the {d.text}.",
                   f"Can you withdraw the {d.text}? I don't need it anymore.")
            proposal = f'I will cancel your request to {name} for {money_text} ("{note}").'
        call = ToolCall(kind, {"request_id": request_id})
        return Constraint(
            kind, dict(call.arguments), refs={"request": d}, writes=((kind, request_id),),
            confirm_terms=(words, money_terms(amount), (name,)), say=say,
            solution=write_steps(_lists(ctx, "list_payment_requests"),
                                 f"{proposal} Shall I proceed?", call),
            expect=(Expectation("SELECT status FROM payment_requests WHERE request_id = ?",
                                (request_id,), ((status,),)), *expect))
    return None


def accept_payment_request(ctx: SampleContext) -> Constraint | None:
    return _request_need(ctx, "accept_payment_request")


def decline_payment_request(ctx: SampleContext) -> Constraint | None:
    return _request_need(ctx, "decline_payment_request")


def cancel_payment_request(ctx: SampleContext) -> Constraint | None:
    return _request_need(ctx, "cancel_payment_request")


def refund_merchant_payment(ctx: SampleContext) -> Constraint | None:
    rows = _purchases(ctx, "p.status != 'refunded'")
    for row in ctx.shuffled([r for r in rows if _age_ok(r, hi=-2)]):
        payment_id, merchant, amount, day, refunded, wallet_id = row[:6]
        left = money(amount - refunded)
        d = describe_purchase(ctx, payment_id, merchant, amount, day)
        if d is None or left < 5 or not ctx.claim(payment_id, *([wallet_id] if wallet_id
                                                                   else [])):
            continue
        full = refunded == 0 and ctx.rng.random() < 0.6
        refund = left if full else money(int(ctx.rng.integers(100, int(left * 60) + 101)) / 100)
        refund = min(refund, left)
        reason = ctx.pick(tuple(REFUND_WORDS))
        first, second = REFUND_WORDS[reason]
        part = "a full refund" if full else f"a refund of {dollars(refund)}"
        call = ToolCall("refund_merchant_payment", {"payment_id": payment_id, "amount": refund,
                                                    "reason": reason})
        expect = [Expectation("SELECT refunded_amount FROM payments WHERE payment_id = ?",
                              (payment_id,), ((money(refunded + refund),),)),
                  Expectation("SELECT count(*) FROM refunds WHERE payment_id = ? AND amount = ? "
                              "AND reason = ?", (payment_id, refund, reason), ((1,),))]
        return Constraint(
            "refund_merchant_payment", dict(call.arguments), refs={"payment": d},
            writes=(("refund_merchant_payment", payment_id),),
            confirm_terms=(("refund",), money_terms(refund), (merchant,)),
            say=(f"I'd like {part} for my {d.text}: {first}.",
                 f"Please get me {part} on the {d.text}, because {second}.",
                 f"Can you process {part} for my {d.text}? {first[0].upper()}{first[1:]}."),
            solution=write_steps(
                _merchant_reads(ctx, merchant),
                f"I will refund ${refund:,.2f} of your ${amount:,.2f} payment to {merchant} on "
                f"{day} (reason: {reason}). Shall I proceed?", call),
            expect=tuple(expect))
    return None


def refuse_late_refund(ctx: SampleContext) -> Constraint | None:
    rows = _purchases(ctx, "p.status = 'completed'")
    for row in ctx.shuffled([r for r in rows if _age_ok(r, lo=4)]):
        payment_id, merchant, amount, day, _, _, window = row
        d = describe_purchase(ctx, payment_id, merchant, amount, day)
        if d is None or not ctx.claim(payment_id):
            continue
        reason = ctx.pick(tuple(REFUND_WORDS))
        return Constraint(
            "refuse_late_refund", {"payment_id": payment_id, "amount": amount,
                                   "reason": reason},
            refs={"payment": d}, answer="cannot",
            refusal=Refusal((payment_id,), about=(payment_id, merchant, *_LATE_REFUND_WORDS)),
            say=(f"I want a refund for my {d.text}; {REFUND_WORDS[reason][0]}.",
                 f"Please refund the {d.text}. {REFUND_WORDS[reason][1].capitalize()}.",
                 f"Can I still get my money back for the {d.text}?"),
            solution=answer_steps(
                _merchant_reads(ctx, merchant),
                f"I'm sorry, but I cannot refund your {d.text}: {merchant} accepts refunds "
                f"only within {window} days of a payment, and this one was "
                f"{days_before_today(day)} days ago."),
            expect=(Expectation("SELECT count(*) FROM refunds WHERE payment_id = ?",
                                (payment_id,), ((0,),)),))
    return None


def open_dispute(ctx: SampleContext) -> Constraint | None:
    rows = _purchases(ctx, "p.status = 'completed' AND p.created_at >= ?",
                      ((date.fromisoformat(TODAY) - timedelta(days=170)).isoformat(),))
    for payment_id, merchant, amount, day, *_ in ctx.shuffled(rows):
        d = describe_purchase(ctx, payment_id, merchant, amount, day)
        if d is None or not ctx.claim(payment_id):
            continue
        reason = ctx.pick(tuple(DISPUTE_WORDS))
        first, second = DISPUTE_WORDS[reason]
        call = ToolCall("open_dispute", {"payment_id": payment_id, "reason": reason})
        return Constraint(
            "open_dispute", dict(call.arguments), refs={"payment": d},
            writes=(("open_dispute", payment_id),),
            confirm_terms=(("dispute",), money_terms(amount), (merchant,)),
            say=(f"I want to dispute my {d.text}: {first}.",
                 f"Please open a dispute on the {d.text}, because {second}.",
                 f"There's a {d.text} I need to dispute. {first[0].upper()}{first[1:]}."),
            solution=write_steps(
                _merchant_reads(ctx, merchant),
                f"I will open a dispute (reason: {reason}) on your ${amount:,.2f} payment to "
                f"{merchant} on {day}. Shall I proceed?", call),
            expect=(Expectation("SELECT reason, status FROM disputes WHERE payment_id = ?",
                                (payment_id,), ((reason, "open"),)),))
    return None


def convert_funds(ctx: SampleContext) -> Constraint | None:
    wallets = _wallets(ctx)
    for src, dst in ctx.shuffled([(a, b) for a in wallets for b in wallets if a != b]):
        cap = min(src[2], 1500.0)
        if cap < 30 or not ctx.claim(src[0], dst[0]):
            continue
        amount = float(10 * int(ctx.rng.integers(2, int(cap // 10) + 1)))
        a = describe_wallet(ctx, src[0], src[1])
        b = describe_wallet(ctx, dst[0], dst[1])
        if a is None or b is None:
            return None
        converted = money(amount * rate(src[1], dst[1]))
        words = amount_words(amount, src[1])
        call = ToolCall("convert_funds", {"from_wallet_id": src[0], "to_wallet_id": dst[0],
                                          "amount": amount})
        others = [w for w in wallets if w[0] not in (src[0], dst[0])]
        intent = Intent((
            Param("amount", money_terms(amount)),
            Param("from", (src[1], src[0]), tuple((w[1], w[0]) for w in (dst, *others)),
                  ("from", "out of")),
            Param("to", (dst[1], dst[0]), tuple((w[1], w[0]) for w in (src, *others)),
                  ("to", "into"))))
        return Constraint(
            "convert_funds", dict(call.arguments), refs={"from": a, "to": b},
            writes=(("convert_funds", src[0]),),
            confirm_terms=(money_terms(amount), (src[1],), (dst[1],)), intent=intent,
            say=(f"Please convert {words} from my {src[1]} wallet into my {dst[1]} wallet.",
                 f"I'd like to move {words} out of my {src[1]} wallet into my {dst[1]} one.",
                 f"Can you exchange {words} from my {src[1]} wallet to {dst[1]}?"),
            solution=write_steps(
                _lists(ctx, "list_wallets"),
                f"I will convert {amount_text(amount, src[1])} from your {src[1]} wallet into "
                f"your {dst[1]} wallet, which gives about {converted:,.2f}. Shall I proceed?",
                call),
            expect=(_balance(src[0], money(src[2] - amount)),
                    _balance(dst[0], money(dst[2] + converted))))
    return None


def add_contact(ctx: SampleContext) -> Constraint | None:
    if not ctx.claim(("add_contact", ctx.user_id)):
        return None
    (city,) = ctx.rows("SELECT city FROM users WHERE user_id = ?", (ctx.user_id,))[0]
    rows = ctx.rows("SELECT u.user_id, u.first_name, u.last_name, u.username FROM users u "
                    "WHERE u.user_id != ? AND u.city = ? AND NOT EXISTS (SELECT 1 FROM contacts "
                    "c WHERE c.user_id = ? AND c.contact_user_id = u.user_id) ORDER BY u.rowid",
                    (ctx.user_id, city, ctx.user_id))
    if not rows:
        return None
    other, first, last, username = ctx.pick(rows)
    name = f"{first} {last}"
    call = ToolCall("add_contact", {"user_id": ctx.user_id, "username": username})
    return Constraint(
        "add_contact", dict(call.arguments), writes=(("add_contact", ctx.user_id),),
        confirm_terms=((username,),),
        say=(f"Please add my friend {name} to my contacts; their username is {username}.",
             f"I'd like to add {username} ({name}) as a contact.",
             f"Can you put {name} in my contacts? Username: {username}."),
        solution=write_steps(
            _lists(ctx, "list_contacts"),
            f"I will add {name} (username {username}) to your contacts. Shall I proceed?", call),
        expect=(Expectation("SELECT count(*) FROM contacts WHERE user_id = ? "
                            "AND contact_user_id = ?", (ctx.user_id, other), ((1,),)),))


def info_wallet_balance(ctx: SampleContext) -> Constraint | None:
    for wallet_id, currency, balance in ctx.shuffled(_wallets(ctx)):
        w = describe_wallet(ctx, wallet_id, currency)
        if balance < 1 or w is None or not ctx.claim(wallet_id):
            continue
        return Constraint(
            "info_wallet_balance", {"wallet_id": wallet_id}, refs={"wallet": w},
            answer=f"{balance:.2f}",
            say=(f"How much money is in my {currency} wallet right now?",
                 f"What's the balance of my {currency} wallet?",
                 f"Can you check my {currency} wallet balance?"),
            solution=answer_steps(
                _lists(ctx, "list_wallets"),
                f"Your {currency} wallet holds {amount_text(balance, currency)}."))
    return None


def info_merchant_spend(ctx: SampleContext) -> Constraint | None:
    rows = ctx.rows(
        "SELECT m.name, substr(p.created_at, 1, 7) AS month, count(*) FROM payments p "
        "JOIN merchants m ON m.merchant_id = p.merchant_id WHERE p.sender_id = ? "
        "AND p.created_at < ? GROUP BY m.name, month HAVING count(*) >= 2 "
        "ORDER BY m.name, month", (ctx.user_id, TODAY[:7] + "-01"))
    for merchant, month, _ in ctx.shuffled(rows):
        if not ctx.claim(("spend", merchant, month)):
            continue
        first = date(int(month[:4]), int(month[5:]), 1)
        last = (first + timedelta(days=32)).replace(day=1) - timedelta(days=1)
        (total,) = ctx.rows(
            "SELECT sum(p.amount) FROM payments p JOIN merchants m ON m.merchant_id = "
            "p.merchant_id WHERE p.sender_id = ? AND m.name = ? AND substr(p.created_at, 1, 7) "
            "= ?", (ctx.user_id, merchant, month))[0]
        total = money(total)
        period = month_words(month)
        return Constraint(
            "info_merchant_spend", {"merchant": merchant, "month": month},
            answer=f"{total:.2f}", evidence=(("list_payments", ctx.user_id),),
            say=(f"How much did I pay {merchant} in {period}, in total?",
                 f"What was my total spending at {merchant} during {period}?",
                 f"Can you add up my payments to {merchant} from {period}?"),
            solution=answer_steps(
                [ToolCall("list_payments", {"user_id": ctx.user_id,
                                            "start_date": first.isoformat(),
                                            "end_date": last.isoformat(), "merchant": merchant})],
                f"In {period} you paid ${total:,.2f} to {merchant} in total."))
    return None


def info_refunded_amount(ctx: SampleContext) -> Constraint | None:
    rows = ctx.rows(
        "SELECT p.payment_id, m.name, p.amount, substr(p.created_at, 1, 10), p.refunded_amount "
        "FROM payments p JOIN merchants m ON m.merchant_id = p.merchant_id "
        "WHERE p.sender_id = ? AND p.status = 'partially_refunded' ORDER BY p.rowid",
        (ctx.user_id,))
    for payment_id, merchant, amount, day, refunded in ctx.shuffled(rows):
        d = describe_purchase(ctx, payment_id, merchant, amount, day)
        if d is None or not ctx.claim(payment_id):
            continue
        return Constraint(
            "info_refunded_amount", {"payment_id": payment_id}, refs={"payment": d},
            answer=f"{refunded:.2f}",
            say=(f"How much of my {d.text} has been refunded so far?",
                 f"What amount did I get back on the {d.text}?",
                 f"Can you tell me how much was refunded on my {d.text}?"),
            solution=answer_steps(
                _merchant_reads(ctx, merchant),
                f"So far ${refunded:,.2f} of your {d.text} has been refunded."))
    return None


# ------------------------------------------------------------------------ the kit

LOGIN = Login("users", "user_id", "find_user_by_email", "find_user_by_username")


def policy_violations(db, tool: str, arguments: dict) -> list[str]:
    """Policy rules a write would break (the merchants' refund windows are not enforced by
    the tool)."""
    if tool == "refund_merchant_payment":
        row = db.execute("SELECT p.created_at, m.refund_window_days FROM payments p "
                         "JOIN merchants m ON m.merchant_id = p.merchant_id "
                         "WHERE p.payment_id = ?", (arguments.get("payment_id"),)).fetchone()
        if row is not None and days_before_today(row[0]) > row[1]:
            return ["policy:refund_window"]
    if tool == "send_money":
        row = db.execute("SELECT balance FROM wallets WHERE wallet_id = ?",
                         (arguments.get("from_wallet_id"),)).fetchone()
        amount = arguments.get("amount")
        if row is not None and isinstance(amount, (int, float)) and amount > row[0]:
            return ["policy:wallet_balance"]
    return []


_WALLET_OWNER = ("SELECT user_id FROM wallets WHERE wallet_id = ?", "wallet_id")
_PAYER = ("SELECT payer_id FROM payment_requests WHERE request_id = ?", "request_id")
_SENDER = ("SELECT sender_id FROM payments WHERE payment_id = ?", "payment_id")
_SOURCE_OWNER = ("SELECT user_id FROM funding_sources WHERE source_id = ?", "source_id")
_USER = ("SELECT user_id FROM users WHERE user_id = ?", "user_id")

SAMPLERS = by_name(
    send_money, request_money, accept_payment_request, decline_payment_request,
    cancel_payment_request, refund_merchant_payment, open_dispute, convert_funds, add_contact,
    info_wallet_balance, info_merchant_spend, info_refunded_amount, refuse_over_balance,
    refuse_late_refund)

TASKS = RuleTaskKit(
    "payments", SAMPLERS,
    **LOGIN.kit_keywords(),
    owners={
        "send_money": ("SELECT user_id FROM wallets WHERE wallet_id = ?", "from_wallet_id"),
        "request_money": _USER,
        "accept_payment_request": _PAYER,
        "decline_payment_request": _PAYER,
        "cancel_payment_request": ("SELECT requester_id FROM payment_requests "
                                   "WHERE request_id = ?", "request_id"),
        "refund_merchant_payment": _SENDER,
        "open_dispute": _SENDER,
        "add_contact": _USER,
        "remove_contact": ("SELECT user_id FROM contacts WHERE contact_id = ?", "contact_id"),
        "add_money": _WALLET_OWNER,
        "withdraw_money": _WALLET_OWNER,
        "convert_funds": ("SELECT user_id FROM wallets WHERE wallet_id = ?", "from_wallet_id"),
        "set_default_funding_source": _SOURCE_OWNER,
        "remove_funding_source": _SOURCE_OWNER,
    },
    ask_identity=ASK_IDENTITY,
    identity_phrases=("Sure, {text}.", "Of course: {text}.", "Yes, {text}."),
    greetings=("Hi!", "Hello,", "Hey there.", "Good afternoon."),
    policy_violations=policy_violations,
)
