"""Hidden-intent tasks of the banking domain (customers' accounts, payees, scheduled payments,
cards and card purchases): the constraint samplers and ``TASKS``, the domain's
:class:`~tool_gym.core.taskkit.RuleTaskKit`. Types, descriptions and claims:
``docs/banking-tasks.md``.
"""

from __future__ import annotations

from datetime import date, timedelta

from ...core.actions import ToolCall
from ...core.proposals import Intent, Param, SYNONYMS
from ...core.sampler_parts import Login
from ...core.taskkit import (RuleTaskKit, SampleContext, answer_steps, date_words, dollars,
                             money_terms, month_words, write_steps)
from ...core.sampler_parts import by_name
from ...core.task_model import Constraint, Description, Expectation, Refusal
from .generate import NEW_PAYEES
from .tools import DISPUTE_WINDOW_DAYS, TODAY, days_before_today, money, transferred_today

#: Words that name why the request is refused (any one addresses it; see ``Refusal.about``).
_OVER_BALANCE_WORDS = (
    "balance", "available", "insufficient", "not enough", "funds", "exceeds", "exceed",
    "exceeding", "more than", "overdraft", "overdraw", "overdrawn", "limit", "short")
_OLD_DISPUTE_WORDS = (
    "days", "days old", "too old", "old", "older", "too late", "window", "expired",
    "time limit", "deadline", "ago")


ASK_IDENTITY = ("Before I can help, I need to verify your identity. Could you tell me the "
                "email address or the online banking username on your account?")
CATEGORY_WORDS = {
    "utility": "it's for a utility bill", "rent": "it's my rent",
    "credit_card": "it's a credit card bill", "insurance": "it's my insurance",
    "person": "it's a person I send money to", "other": "it's for other bills",
}
REASON_WORDS = {
    "fraud": ("I never made that purchase", "I don't recognize it at all, it's not mine"),
    "item_not_received": ("I paid but never received what I ordered",
                          "the order never arrived"),
    "incorrect_amount": ("they charged me more than the agreed price",
                         "the amount is wrong, it's more than I agreed to pay"),
}


# ------------------------------------------------------------------ descriptions

def describe_account(ctx: SampleContext, account_id: str, kind: str,
                     number: str) -> Description | None:
    last4 = number[-4:]
    return ctx.describe(
        "account", f"{kind} account ending in {last4}", {"type": kind, "last4": last4},
        account_id,
        "SELECT account_id FROM accounts WHERE customer_id = ? AND type = ? "
        "AND substr(account_number, -4) = ?", (ctx.user_id, kind, last4))


def describe_card(ctx: SampleContext, card_id: str, network: str, form: str,
                  last4: str) -> Description | None:
    return ctx.describe(
        "card", f"{form} {network} debit card ending in {last4}",
        {"network": network, "form": form, "last4": last4}, card_id,
        "SELECT card_id FROM cards WHERE customer_id = ? AND network = ? AND form = ? "
        "AND last4 = ?", (ctx.user_id, network, form, last4))


def describe_payee(ctx: SampleContext, payee_id: str, name: str) -> Description | None:
    return ctx.describe("payee", name, {"name": name}, payee_id,
                        "SELECT payee_id FROM payees WHERE customer_id = ? AND name = ?",
                        (ctx.user_id, name))


def describe_transaction(ctx: SampleContext, txn_id: str, merchant: str, amount: float,
                         day: str) -> Description | None:
    return ctx.describe(
        "transaction", f"{dollars(amount)} charge from {merchant} on {date_words(day)}",
        {"merchant": merchant, "amount": amount, "date": day}, txn_id,
        "SELECT t.transaction_id FROM transactions t JOIN accounts a "
        "ON a.account_id = t.account_id WHERE a.customer_id = ? AND t.description = ? "
        "AND t.amount = ? AND t.date = ?", (ctx.user_id, merchant, -amount, day))


def _open_accounts(ctx: SampleContext) -> list[tuple]:
    return ctx.rows("SELECT account_id, type, account_number, balance, hold_amount "
                    "FROM accounts WHERE customer_id = ? AND status = 'open' ORDER BY rowid",
                    (ctx.user_id,))


def _remaining_limit(ctx: SampleContext) -> float:
    (limit,) = ctx.rows("SELECT daily_transfer_limit FROM customers WHERE customer_id = ?",
                        (ctx.user_id,))[0]
    return money(limit - transferred_today(ctx.db, ctx.user_id))


def _account_forms(acc: tuple, accounts: list[tuple]) -> tuple:
    """How a proposal may name an account: id, number, last four digits, and its type when
    no other open account of the customer has that type."""
    forms = [acc[0], acc[2], acc[2][-4:]]
    if sum(1 for a in accounts if a[1] == acc[1]) == 1:
        forms.append(f"{acc[1]} account")
    return tuple(forms)


def _account_param(name: str, acc: tuple, accounts: list[tuple],
                   role: tuple[str, ...] = ()) -> Param:
    """An account parameter whose rivals are the customer's other open accounts."""
    return Param(name, _account_forms(acc, accounts),
                 tuple(_account_forms(a, accounts) for a in accounts if a[0] != acc[0]), role)


def _payee_param(ctx: SampleContext, payee_id: str, name: str) -> Param:
    """A payee parameter whose rivals are the customer's other payees."""
    others = ctx.rows("SELECT payee_id, name FROM payees WHERE customer_id = ? AND name != ? "
                      "ORDER BY rowid", (ctx.user_id, name))
    return Param("payee", (name, payee_id), tuple((n, i) for i, n in others))


def _card_param(ctx: SampleContext, card_id: str) -> Param:
    """A card by id, last four digits, or form and network when no other card of the
    customer shares them; the customer's other cards are its rivals."""
    cards = ctx.rows("SELECT card_id, network, form, last4 FROM cards WHERE customer_id = ? "
                     "ORDER BY rowid", (ctx.user_id,))

    def forms(card: tuple) -> tuple:
        kind = [c for c in cards if (c[1], c[2]) == (card[1], card[2])]
        return (card[0], card[3], *([(card[2], card[1])] if len(kind) == 1 else []))

    mine = next(c for c in cards if c[0] == card_id)
    return Param("card", forms(mine), tuple(forms(c) for c in cards
                                            if c[0] != card_id and c[3] != mine[3]))


def _lists(ctx: SampleContext, *tools: str) -> list[ToolCall]:
    """Calls of the customer's list tools (``list_accounts``, ``list_payees``, ...)."""
    return [ToolCall(tool, {"customer_id": ctx.user_id}) for tool in tools]


def _purchase_reads(ctx: SampleContext, account_id: str, merchant: str) -> list[ToolCall]:
    """The reads that find a card purchase: the accounts, then the merchant's charges."""
    return _lists(ctx, "list_accounts") + [ToolCall(
        "get_account_transactions", {"account_id": account_id, "merchant": merchant})]


def _balance_check(account_id: str, balance: float) -> Expectation:
    return Expectation("SELECT balance FROM accounts WHERE account_id = ?", (account_id,),
                       ((balance,),))


# ----------------------------------------------------------------------- samplers

def transfer_funds(ctx: SampleContext) -> Constraint | None:
    accounts = _open_accounts(ctx)
    if len(accounts) < 2:
        return None
    remaining = _remaining_limit(ctx)
    for src, dst in ctx.shuffled([(a, b) for a in accounts for b in accounts if a != b]):
        cap = min(money(src[3] - src[4]), remaining, 3000.0)
        if cap < 50 or not ctx.claim(src[0], dst[0], ("daily_limit", ctx.user_id)):
            continue
        amount = float(10 * int(ctx.rng.integers(5, int(cap // 10) + 1)))
        a = describe_account(ctx, src[0], src[1], src[2])
        b = describe_account(ctx, dst[0], dst[1], dst[2])
        if a is None or b is None:
            return None
        call = ToolCall("transfer_between_accounts", {
            "from_account_id": src[0], "to_account_id": dst[0], "amount": amount})
        (before,) = ctx.rows("SELECT count(*) FROM transfers WHERE from_account_id = ? "
                             "AND to_account_id = ? AND amount = ?", (src[0], dst[0], amount))[0]
        return Constraint(
            "transfer_funds", dict(call.arguments), refs={"from": a, "to": b},
            writes=(("transfer_between_accounts", src[0]),),
            confirm_terms=(money_terms(amount), (src[2][-4:],), (dst[2][-4:],)),
            intent=Intent((Param("amount", money_terms(amount)),
                           _account_param("from", src, accounts, ("from", "out of")),
                           _account_param("to", dst, accounts, ("to", "into")))),
            say=(f"I'd like to move {dollars(amount)} from my {a.text} to my {b.text}.",
                 f"Could you transfer {dollars(amount)} from my {a.text} into my {b.text}?",
                 f"Please send {dollars(amount)} over from my {a.text} to my {b.text}."),
            solution=write_steps(
                _lists(ctx, "list_accounts"),
                f"I will transfer ${amount:,.2f} from your {a.text} to your {b.text}. "
                "Shall I proceed?", call),
            expect=(_balance_check(src[0], money(src[3] - amount)),
                    _balance_check(dst[0], money(dst[3] + amount)),
                    Expectation("SELECT count(*) FROM transfers WHERE from_account_id = ? "
                                "AND to_account_id = ? AND amount = ?",
                                (src[0], dst[0], amount), ((before + 1,),))))
    return None


def refuse_over_balance(ctx: SampleContext) -> Constraint | None:
    accounts = _open_accounts(ctx)
    if len(accounts) < 2:
        return None
    for src, dst in ctx.shuffled([(a, b) for a in accounts for b in accounts if a != b]):
        available = money(src[3] - src[4])
        if available < 20 or not ctx.claim(src[0], dst[0]):
            continue
        amount = float(100 * (int(available // 100) + int(ctx.rng.integers(1, 6))))
        a = describe_account(ctx, src[0], src[1], src[2])
        b = describe_account(ctx, dst[0], dst[1], dst[2])
        if a is None or b is None:
            return None
        return Constraint(
            "refuse_over_balance",
            {"from_account_id": src[0], "to_account_id": dst[0], "amount": amount},
            refs={"from": a, "to": b}, answer="cannot",
            refusal=Refusal((src[0],), about=(src[0], (src[1], a.fields["last4"]),
                                              *_OVER_BALANCE_WORDS)),
            say=(f"Please move {dollars(amount)} from my {a.text} to my {b.text}.",
                 f"I need {dollars(amount)} transferred from my {a.text} to my {b.text} "
                 "right away.",
                 f"Can you send {dollars(amount)} from my {a.text} over to my {b.text}?"),
            solution=answer_steps(
                _lists(ctx, "list_accounts"),
                f"I'm sorry, but I cannot transfer {dollars(amount)} from your {a.text}: its "
                f"available balance is only ${available:,.2f}, and transfers above the "
                "available balance are not allowed."),
            expect=(_balance_check(src[0], src[3]), _balance_check(dst[0], dst[3])))
    return None


def pay_payee(ctx: SampleContext) -> Constraint | None:
    payees = ctx.rows("SELECT payee_id, name FROM payees WHERE customer_id = ? ORDER BY rowid",
                      (ctx.user_id,))
    sources = [a for a in _open_accounts(ctx) if a[1] == "checking"]
    if not payees or not sources:
        return None
    src = sources[0]
    payee_id, name = ctx.pick(payees)
    cap = min(money(src[3] - src[4]), _remaining_limit(ctx), 600.0)
    if cap < 30 or not ctx.claim(src[0], payee_id, ("daily_limit", ctx.user_id)):
        return None
    amount = money(int(ctx.rng.integers(2000, int(cap * 100) + 1)) / 100)
    a = describe_account(ctx, src[0], src[1], src[2])
    p = describe_payee(ctx, payee_id, name)
    if a is None or p is None:
        return None
    call = ToolCall("pay_payee", {"from_account_id": src[0], "payee_id": payee_id,
                                  "amount": amount})
    (before,) = ctx.rows("SELECT count(*) FROM transfers WHERE payee_id = ? AND amount = ?",
                         (payee_id, amount))[0]
    return Constraint(
        "pay_payee", dict(call.arguments), refs={"from": a, "payee": p},
        writes=(("pay_payee", src[0]),),
        confirm_terms=(money_terms(amount), (name,), (src[2][-4:],)),
        intent=Intent((Param("amount", money_terms(amount)), _payee_param(ctx, payee_id, name),
                       _account_param("from", src, _open_accounts(ctx)))),
        say=(f"Please pay {dollars(amount)} to {name} from my {a.text}.",
             f"I need to send a payment of {dollars(amount)} to {name}, out of my {a.text}.",
             f"Can you make a {dollars(amount)} payment to {name} using my {a.text}?"),
        solution=write_steps(
            _lists(ctx, "list_payees", "list_accounts"),
            f"I will pay ${amount:,.2f} to {name} from your {a.text}. Shall I proceed?", call),
        expect=(_balance_check(src[0], money(src[3] - amount)),
                Expectation("SELECT count(*) FROM transfers WHERE payee_id = ? AND amount = ?",
                            (payee_id, amount), ((before + 1,),))))


def add_payee(ctx: SampleContext) -> Constraint | None:
    taken = {n.lower() for (n,) in ctx.rows("SELECT name FROM payees WHERE customer_id = ?",
                                            (ctx.user_id,))}
    options = [p for p in NEW_PAYEES if p[0].lower() not in taken]
    if not options or not ctx.claim(("add_payee", ctx.user_id)):
        return None
    name, category, bank = ctx.pick(options)
    number = "".join(str(int(d)) for d in ctx.rng.integers(0, 10, size=10))
    call = ToolCall("add_payee", {"customer_id": ctx.user_id, "name": name, "bank_name": bank,
                                  "account_number": number, "category": category})
    words = CATEGORY_WORDS[category]
    return Constraint(
        "add_payee", dict(call.arguments), writes=(("add_payee", ctx.user_id),),
        confirm_terms=((name,), (number[-4:],)),
        say=(f"Please add {name} as a new payee: they bank with {bank}, account number "
             f"{number}, and {words}.",
             f"I want to save a new payee, {name} ({bank}, account {number}); {words}.",
             f"Could you set up {name} as a payee? Bank: {bank}, account number {number}. "
             f"{words[0].upper()}{words[1:]}."),
        solution=write_steps(
            _lists(ctx, "list_payees"),
            f"I will add {name} as a payee ({bank}, account ending in {number[-4:]}, category "
            f"{category}). Shall I proceed?", call),
        expect=(Expectation("SELECT bank_name, account_number, category FROM payees "
                            "WHERE customer_id = ? AND name = ?", (ctx.user_id, name),
                            ((bank, number, category),)),))


def schedule_payment(ctx: SampleContext) -> Constraint | None:
    payees = ctx.rows(
        "SELECT p.payee_id, p.name FROM payees p WHERE p.customer_id = ? AND NOT EXISTS ("
        "SELECT 1 FROM scheduled_payments s WHERE s.payee_id = p.payee_id "
        "AND s.status = 'active') ORDER BY p.rowid", (ctx.user_id,))
    sources = [a for a in _open_accounts(ctx) if a[1] == "checking"]
    if not payees or not sources:
        return None
    payee_id, name = ctx.pick(payees)
    src = sources[0]
    if not ctx.claim(payee_id):
        return None
    amount = money(int(ctx.rng.integers(2500, 40000)) / 100)
    frequency = ctx.pick(("once", "monthly", "weekly"))
    start = (date.fromisoformat(TODAY) + timedelta(days=int(ctx.rng.integers(3, 40)))).isoformat()
    a = describe_account(ctx, src[0], src[1], src[2])
    p = describe_payee(ctx, payee_id, name)
    if a is None or p is None:
        return None
    call = ToolCall("schedule_payment", {"from_account_id": src[0], "payee_id": payee_id,
                                         "amount": amount, "start_date": start,
                                         "frequency": frequency})
    how = {"once": "a one-time payment", "monthly": "a monthly payment",
           "weekly": "a weekly payment"}[frequency]
    when = date_words(start)
    return Constraint(
        "schedule_payment", dict(call.arguments), refs={"from": a, "payee": p},
        writes=(("schedule_payment", src[0]),),
        confirm_terms=(money_terms(amount), (name,), (start, when)),
        intent=Intent((Param("amount", money_terms(amount)), _payee_param(ctx, payee_id, name),
                       Param("start", (start, when)),
                       _account_param("from", src, _open_accounts(ctx)))),
        say=(f"Please set up {how} of {dollars(amount)} to {name} from my {a.text}, "
             f"starting {when}.",
             f"I'd like to schedule {how} to {name}: {dollars(amount)} out of my {a.text}, "
             f"first one on {when}.",
             f"Can you schedule {how} of {dollars(amount)} to {name}? Use my {a.text} and "
             f"start on {when}."),
        solution=write_steps(
            _lists(ctx, "list_payees", "list_accounts"),
            f"I will schedule {how} of ${amount:,.2f} to {name} from your {a.text}, "
            f"starting {start}. Shall I proceed?", call),
        expect=(Expectation("SELECT from_account_id, amount, frequency, next_date "
                            "FROM scheduled_payments WHERE payee_id = ? AND status = 'active'",
                            (payee_id,), ((src[0], amount, frequency, start),)),))


def cancel_scheduled_payment(ctx: SampleContext) -> Constraint | None:
    rows = ctx.rows("SELECT s.scheduled_payment_id, s.payee_id, p.name, s.amount, s.frequency "
                    "FROM scheduled_payments s JOIN payees p ON p.payee_id = s.payee_id "
                    "WHERE s.customer_id = ? AND s.status = 'active' ORDER BY s.rowid",
                    (ctx.user_id,))
    for sched_id, payee_id, name, amount, frequency in ctx.shuffled(rows):
        how = {"once": "one-time", "monthly": "monthly", "weekly": "weekly"}[frequency]
        d = ctx.describe(
            "scheduled_payment", f"{how} {dollars(amount)} payment to {name}",
            {"payee": name, "amount": amount, "frequency": frequency}, sched_id,
            "SELECT s.scheduled_payment_id FROM scheduled_payments s JOIN payees p "
            "ON p.payee_id = s.payee_id WHERE s.customer_id = ? AND p.name = ? "
            "AND s.amount = ? AND s.frequency = ? AND s.status = 'active'",
            (ctx.user_id, name, amount, frequency))
        if d is None or not ctx.claim(sched_id, payee_id):
            continue
        call = ToolCall("cancel_scheduled_payment", {"scheduled_payment_id": sched_id})
        return Constraint(
            "cancel_scheduled_payment", dict(call.arguments), refs={"scheduled_payment": d},
            writes=(("cancel_scheduled_payment", sched_id),),
            confirm_terms=(("cancel",), (name,)),
            say=(f"Please cancel my {d.text}.",
                 f"I don't need the {d.text} anymore; can you cancel it?",
                 f"Could you stop my {d.text}?"),
            solution=write_steps(
                _lists(ctx, "list_scheduled_payments"),
                f"I will cancel your {how} scheduled payment of ${amount:,.2f} to {name}. "
                "Shall I proceed?", call),
            expect=(Expectation("SELECT status FROM scheduled_payments "
                                "WHERE scheduled_payment_id = ?", (sched_id,),
                                (("cancelled",),)),))
    return None


def _card_need(ctx: SampleContext, kind: str) -> Constraint | None:
    status, target = ("active", "frozen") if kind == "freeze_card" else ("frozen", "active")
    rows = ctx.rows("SELECT card_id, network, form, last4 FROM cards WHERE customer_id = ? "
                    "AND status = ? ORDER BY rowid", (ctx.user_id, status))
    for card_id, network, form, last4 in ctx.shuffled(rows):
        d = describe_card(ctx, card_id, network, form, last4)
        if d is None or not ctx.claim(card_id):
            continue
        call = ToolCall(kind, {"card_id": card_id})
        if kind == "freeze_card":
            say = (f"I think I lost my {d.text}. Can you freeze it?",
                   f"Please put a freeze on my {d.text}; I can't find it.",
                   f"My {d.text} is missing, please freeze it for now.")
            terms = (("freeze",), (last4,))
            action, opposite = ("freeze", *SYNONYMS["freeze"]), ("unfreeze", "unblock",
                                                                 "unlock", "reactivat")
            proposal = f"I will freeze your {d.text}. Shall I proceed?"
        else:
            say = (f"I found my {d.text}, so please unfreeze it.",
                   f"Could you unfreeze my {d.text}? I have it again.",
                   f"Please reactivate my frozen {d.text}.")
            terms = (("unfreeze",), (last4,))
            action, opposite = ("unfreeze", *SYNONYMS["unfreeze"]), ("freeze", "block",
                                                                     "lock")
            proposal = f"I will unfreeze your {d.text} so it works again. Shall I proceed?"
        return Constraint(
            kind, dict(call.arguments), refs={"card": d}, writes=((kind, card_id),),
            confirm_terms=terms, say=say,
            intent=Intent((Param("action", action), _card_param(ctx, card_id)), opposite),
            solution=write_steps(_lists(ctx, "list_cards"), proposal, call),
            expect=(Expectation("SELECT status FROM cards WHERE card_id = ?", (card_id,),
                                ((target,),)),))
    return None


def freeze_card(ctx: SampleContext) -> Constraint | None:
    return _card_need(ctx, "freeze_card")


def unfreeze_card(ctx: SampleContext) -> Constraint | None:
    return _card_need(ctx, "unfreeze_card")


def _purchases(ctx: SampleContext, newest: int, oldest: int) -> list[tuple]:
    """Posted, undisputed card purchases between ``newest`` and ``oldest`` days ago."""
    today = date.fromisoformat(TODAY)
    return ctx.rows(
        "SELECT t.transaction_id, t.account_id, t.description, -t.amount, t.date "
        "FROM transactions t JOIN accounts a ON a.account_id = t.account_id "
        "WHERE a.customer_id = ? AND t.kind = 'card_purchase' AND t.status = 'posted' "
        "AND t.date <= ? AND t.date >= ? AND NOT EXISTS (SELECT 1 FROM disputes d "
        "WHERE d.transaction_id = t.transaction_id) ORDER BY t.rowid",
        (ctx.user_id, (today - timedelta(days=newest)).isoformat(),
         (today - timedelta(days=oldest)).isoformat()))


def file_dispute(ctx: SampleContext) -> Constraint | None:
    for txn_id, account_id, merchant, amount, day in ctx.shuffled(_purchases(ctx, 1, 55)):
        d = describe_transaction(ctx, txn_id, merchant, amount, day)
        if d is None or not ctx.claim(txn_id):
            continue
        reason = ctx.pick(tuple(REASON_WORDS))
        first, second = REASON_WORDS[reason]
        call = ToolCall("file_dispute", {"transaction_id": txn_id, "reason": reason})
        return Constraint(
            "file_dispute", dict(call.arguments), refs={"transaction": d},
            writes=(("file_dispute", txn_id),),
            confirm_terms=(("dispute",), money_terms(amount), (merchant,)),
            say=(f"I want to dispute the {d.text}: {first}.",
                 f"There's a {d.text} on my statement that I need to dispute, because "
                 f"{second}.",
                 f"Please open a dispute for the {d.text}. {first[0].upper()}{first[1:]}."),
            solution=write_steps(
                _purchase_reads(ctx, account_id, merchant),
                f"I will open a dispute (reason: {reason}) for the ${amount:,.2f} charge from "
                f"{merchant} on {day}. Shall I proceed?", call),
            expect=(Expectation("SELECT reason, status FROM disputes WHERE transaction_id = ?",
                                (txn_id,), ((reason, "open"),)),))
    return None


def refuse_old_dispute(ctx: SampleContext) -> Constraint | None:
    for txn_id, account_id, merchant, amount, day in ctx.shuffled(_purchases(ctx, 66, 400)):
        d = describe_transaction(ctx, txn_id, merchant, amount, day)
        if d is None or not ctx.claim(txn_id):
            continue
        age = days_before_today(day)
        return Constraint(
            "refuse_old_dispute", {"transaction_id": txn_id}, refs={"transaction": d},
            answer="cannot",
            refusal=Refusal((txn_id,), about=(txn_id, merchant, *_OLD_DISPUTE_WORDS)),
            say=(f"I want to dispute the {d.text}; I never received the item.",
                 f"Please open a dispute on the {d.text}, I don't recognize it.",
                 f"I need to dispute an old {d.text}. Can you do that?"),
            solution=answer_steps(
                _purchase_reads(ctx, account_id, merchant),
                f"I'm sorry, but I cannot open a dispute for the {d.text}: disputes can only "
                f"be filed within {DISPUTE_WINDOW_DAYS} days of the transaction, and this "
                f"charge is {age} days old."),
            expect=(Expectation("SELECT count(*) FROM disputes WHERE transaction_id = ?",
                                (txn_id,), ((0,),)),))
    return None


def info_available_balance(ctx: SampleContext) -> Constraint | None:
    for account_id, kind, number, balance, hold in ctx.shuffled(_open_accounts(ctx)):
        d = describe_account(ctx, account_id, kind, number)
        if d is None or not ctx.claim(account_id):
            continue
        available = money(balance - hold)
        return Constraint(
            "info_available_balance", {"account_id": account_id}, refs={"account": d},
            answer=f"{available:.2f}",
            say=(f"How much money is available in my {d.text} right now?",
                 f"What's the available balance on my {d.text}?",
                 f"Can you tell me how much I can spend from my {d.text} today?"),
            solution=answer_steps(
                _lists(ctx, "list_accounts"),
                f"The available balance of your {d.text} is ${available:,.2f}."))
    return None


def info_merchant_spend(ctx: SampleContext) -> Constraint | None:
    rows = ctx.rows(
        "SELECT t.description, substr(t.date, 1, 7) AS month, count(*), sum(-t.amount) "
        "FROM transactions t JOIN accounts a ON a.account_id = t.account_id "
        "WHERE a.customer_id = ? AND t.kind = 'card_purchase' AND t.status = 'posted' "
        "AND t.date < ? GROUP BY t.description, month HAVING count(*) >= 2 "
        "ORDER BY t.description, month", (ctx.user_id, TODAY[:7] + "-01"))
    for merchant, month, _, _ in ctx.shuffled(rows):
        if not ctx.claim(("spend", merchant, month)):
            continue
        year, number = int(month[:4]), int(month[5:])
        first = date(year, number, 1)
        last = (first + timedelta(days=32)).replace(day=1) - timedelta(days=1)
        detail = ctx.rows(
            "SELECT t.account_id, -t.amount FROM transactions t JOIN accounts a "
            "ON a.account_id = t.account_id WHERE a.customer_id = ? AND t.description = ? "
            "AND t.kind = 'card_purchase' AND t.status = 'posted' AND t.date >= ? "
            "AND t.date <= ? ORDER BY t.rowid",
            (ctx.user_id, merchant, first.isoformat(), last.isoformat()))
        total = money(sum(amount for _, amount in detail))
        accounts = list(dict.fromkeys(a for a, _ in detail))
        period = month_words(month)
        return Constraint(
            "info_merchant_spend", {"merchant": merchant, "month": month}, answer=f"{total:.2f}",
            evidence=tuple(("get_account_transactions", a) for a in accounts),
            say=(f"How much did I spend at {merchant} in {period}, in total?",
                 f"What was my total spending at {merchant} during {period}?",
                 f"Can you add up my {merchant} purchases from {period} for me?"),
            solution=answer_steps(
                _lists(ctx, "list_accounts") + [
                    ToolCall("get_account_transactions", {
                        "account_id": a, "start_date": first.isoformat(),
                        "end_date": last.isoformat(), "merchant": merchant})
                    for a in accounts],
                f"In {period} you spent ${total:,.2f} at {merchant} ({len(detail)} "
                "purchases)."))
    return None


def info_next_payment(ctx: SampleContext) -> Constraint | None:
    rows = ctx.rows(
        "SELECT s.payee_id, p.name, min(s.next_date), count(*), s.amount "
        "FROM scheduled_payments s JOIN payees p ON p.payee_id = s.payee_id "
        "WHERE s.customer_id = ? AND s.status = 'active' GROUP BY s.payee_id "
        "ORDER BY p.rowid", (ctx.user_id,))
    for payee_id, name, next_date, count, amount in ctx.shuffled(rows):
        p = describe_payee(ctx, payee_id, name)
        if count != 1 or p is None or not ctx.claim(payee_id):
            continue
        return Constraint(
            "info_next_payment", {"payee_id": payee_id}, refs={"payee": p}, answer=next_date,
            say=(f"When is my next scheduled payment to {name}?",
                 f"On what date does my next payment to {name} go out?",
                 f"Could you check when the upcoming scheduled payment to {name} is due?"),
            solution=answer_steps(
                _lists(ctx, "list_scheduled_payments"),
                f"Your next scheduled payment to {name} ({dollars(amount)}) is on "
                f"{next_date}."))
    return None


# ------------------------------------------------------------------------ the kit

LOGIN = Login("customers", "customer_id", "find_customer_by_email",
              "find_customer_by_username")


def policy_violations(db, tool: str, arguments: dict) -> list[str]:
    """Policy rules a write would break that the tools do not enforce themselves."""
    if tool == "file_dispute":
        row = db.execute("SELECT date FROM transactions WHERE transaction_id = ?",
                         (arguments.get("transaction_id"),)).fetchone()
        if row is not None and days_before_today(row[0]) > DISPUTE_WINDOW_DAYS:
            return ["policy:dispute_window"]
    if tool in ("transfer_between_accounts", "pay_payee"):
        row = db.execute("SELECT balance - hold_amount FROM accounts WHERE account_id = ?",
                         (arguments.get("from_account_id"),)).fetchone()
        amount = arguments.get("amount")
        if row is not None and isinstance(amount, (int, float)) and amount > money(row[0]):
            return ["policy:available_balance"]
    return []


_ACCOUNT_OWNER = ("SELECT customer_id FROM accounts WHERE account_id = ?", "from_account_id")

SAMPLERS = by_name(
    transfer_funds, pay_payee, add_payee, schedule_payment, cancel_scheduled_payment,
    freeze_card, unfreeze_card, file_dispute, info_available_balance, info_merchant_spend,
    info_next_payment, refuse_old_dispute, refuse_over_balance)

TASKS = RuleTaskKit(
    "banking", SAMPLERS,
    **LOGIN.kit_keywords(),
    owners={
        "transfer_between_accounts": _ACCOUNT_OWNER,
        "pay_payee": _ACCOUNT_OWNER,
        "schedule_payment": _ACCOUNT_OWNER,
        "add_payee": ("SELECT customer_id FROM customers WHERE customer_id = ?", "customer_id"),
        "cancel_scheduled_payment": ("SELECT customer_id FROM scheduled_payments "
                                     "WHERE scheduled_payment_id = ?", "scheduled_payment_id"),
        "freeze_card": ("SELECT customer_id FROM cards WHERE card_id = ?", "card_id"),
        "unfreeze_card": ("SELECT customer_id FROM cards WHERE card_id = ?", "card_id"),
        "file_dispute": ("SELECT a.customer_id FROM transactions t JOIN accounts a "
                         "ON a.account_id = t.account_id WHERE t.transaction_id = ?",
                         "transaction_id"),
    },
    ask_identity=ASK_IDENTITY,
    identity_phrases=("Sure, {text}.", "Of course: {text}.", "Yes, {text}."),
    greetings=("Hi!", "Hello,", "Hi there.", "Good afternoon."),
    policy_violations=policy_violations,
)
