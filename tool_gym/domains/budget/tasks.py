"""Hidden-intent tasks of the budget domain (users' transactions, budgets, bills and savings
goals): the constraint samplers and ``TASKS``, the domain's
:class:`~tool_gym.core.taskkit.RuleTaskKit`.

Descriptions: a transaction by payee, amount and day; a category, an account, a bill or a
goal by its name. Samplers claim what they touch (a transaction, a category's month, a bill,
a goal, an account's balance), so the needs of one task never interfere.

Constraint types: ``categorize_transaction``, ``add_transaction``, ``set_budget``,
``mark_bill_paid``, ``add_bill``, ``cancel_bill``, ``contribute_to_goal`` (writes);
``info_category_spent``, ``info_budget_remaining``, ``info_goal_remaining``,
``info_next_bill_due`` (answers); ``refuse_goal_over_balance`` (a goal transfer above the
account's balance) and ``refuse_past_month_budget`` (a budget of a month that has ended) are
refusals: nothing may change.
"""

from __future__ import annotations

from datetime import date, timedelta

from ...core.actions import ToolCall
from ...core.sampler_parts import Login, by_name
from ...core.taskkit import (RuleTaskKit, SampleContext, answer_steps, date_words, dollars,
                             money_terms, month_words, write_steps)
from ...core.task_model import Constraint, Description, Expectation, Refusal
from .generate import SPENDING
from .tools import (THIS_MONTH, TODAY, budgeted, cents_of, dollars_of,
                    months_between, next_due, spent_in)

#: Words that name why the request is refused (any one addresses it; see ``Refusal.about``).
_OVER_WORDS = (
    "balance", "insufficient", "not enough", "enough money", "funds", "exceeds", "exceed",
    "exceeding", "more than", "only has", "only holds", "short", "overdraw", "overdrawn")
_PAST_WORDS = (
    "past", "in the past", "already ended", "has ended", "already over", "is over", "ended",
    "already happened", "closed", "locked", "previous month", "earlier month")

ASK_IDENTITY = ("Happy to help! First I need to verify your account: could you tell me the "
                "email address or the username you sign in with?")
#: Bills a task may ask to add (never generated): name, category, low, high.
NEW_BILLS = (("Sunrise Daycare", "Rent", 600, 1200), ("HOA Dues", "Rent", 120, 350),
             ("Hulu", "Subscriptions", 7.99, 17.99), ("Audible", "Subscriptions", 14.95, 14.95),
             ("Solar Panel Lease", "Utilities", 80, 150), ("Trash Pickup", "Utilities", 20, 45),
             ("Pet Insurance", "Insurance", 25, 60), ("Life Insurance", "Insurance", 30, 90),
             ("Climbing Gym", "Fitness", 60, 95), ("Car Payment", "Debt Payments", 250, 500))


def cents_terms(amount: float) -> tuple[str, ...]:
    """The ways an agent's message may write ``amount``, always with its cents."""
    return tuple(dict.fromkeys((f"{amount:.2f}", f"{amount:,.2f}")))


def month_terms(month: str) -> tuple[str, ...]:
    return (month, month_words(month))


# ------------------------------------------------------------------ descriptions

def describe_transaction(ctx: SampleContext, transaction_id: str, payee: str, amount: float,
                         day: str) -> Description | None:
    """An outflow by payee, amount (positive, as the user says it) and day."""
    return ctx.describe(
        "transaction", f"{dollars(amount)} charge from {payee} on {date_words(day)}",
        {"payee": payee, "amount": amount, "date": day}, transaction_id,
        "SELECT transaction_id FROM transactions WHERE user_id = ? AND payee = ? "
        "AND amount = ? AND date = ?", (ctx.user_id, payee, -amount, day))


def describe_category(ctx: SampleContext, category_id: str, name: str) -> Description | None:
    return ctx.describe("category", name, {"name": name}, category_id,
                        "SELECT category_id FROM categories WHERE user_id = ? AND name = ?",
                        (ctx.user_id, name))


def describe_account(ctx: SampleContext, account_id: str, name: str) -> Description | None:
    return ctx.describe("account", name, {"name": name}, account_id,
                        "SELECT account_id FROM accounts WHERE user_id = ? AND name = ?",
                        (ctx.user_id, name))


def describe_bill(ctx: SampleContext, bill_id: str, name: str) -> Description | None:
    return ctx.describe("bill", f"{name} bill", {"name": name}, bill_id,
                        "SELECT bill_id FROM bills WHERE user_id = ? AND name = ? "
                        "AND status = 'active'", (ctx.user_id, name))


def describe_goal(ctx: SampleContext, goal_id: str, name: str) -> Description | None:
    return ctx.describe("goal", f"{name} goal", {"name": name}, goal_id,
                        "SELECT goal_id FROM goals WHERE user_id = ? AND name = ?",
                        (ctx.user_id, name))


# ------------------------------------------------------------------------ reads

def _call(tool: str, ctx: SampleContext, **more) -> ToolCall:
    return ToolCall(tool, {"user_id": ctx.user_id, **more})


def _expense_categories(ctx: SampleContext) -> list[tuple]:
    return ctx.rows("SELECT category_id, name FROM categories WHERE user_id = ? "
                    "AND kind = 'expense' AND status = 'active' ORDER BY rowid", (ctx.user_id,))


def _funding_accounts(ctx: SampleContext) -> list[tuple]:
    return ctx.rows("SELECT account_id, name, balance FROM accounts WHERE user_id = ? "
                    "AND status = 'open' AND kind IN ('checking', 'savings') ORDER BY rowid",
                    (ctx.user_id,))


def _balance(account_id: str, balance: float) -> Expectation:
    return Expectation("SELECT balance FROM accounts WHERE account_id = ?", (account_id,),
                       ((balance,),))


# ----------------------------------------------------------------------- samplers

def categorize_transaction(ctx: SampleContext) -> Constraint | None:
    rows = ctx.rows("SELECT transaction_id, payee, -amount, date FROM transactions "
                    "WHERE user_id = ? AND category_id IS NULL AND goal_id IS NULL "
                    "AND amount < 0 ORDER BY rowid", (ctx.user_id,))
    categories = dict((name, cid) for cid, name in _expense_categories(ctx))
    for transaction_id, payee, amount, day in ctx.shuffled(rows):
        name = next((n for n, spec in SPENDING.items() if payee in spec[1]), None)
        if name not in categories:
            name = ctx.pick(sorted(categories))
        d = describe_transaction(ctx, transaction_id, payee, amount, day)
        c = describe_category(ctx, categories[name], name)
        if d is None or c is None or not ctx.claim(transaction_id, categories[name]):
            continue
        call = ToolCall("categorize_transaction", {"transaction_id": transaction_id,
                                                   "category_id": categories[name]})
        return Constraint(
            "categorize_transaction", dict(call.arguments),
            refs={"transaction": d, "category": c},
            writes=(("categorize_transaction", transaction_id),),
            confirm_terms=((name,), (payee,), cents_terms(amount)),
            say=(f"The {d.text} has no category yet. Please put it under {name}.",
                 f"Could you file the {d.text} under {name}?",
                 f"Please categorize the {d.text} as {name}."),
            solution=write_steps(
                [_call("list_transactions", ctx, uncategorized_only=True),
                 _call("list_categories", ctx)],
                f"I will put the ${amount:.2f} charge from {payee} on {day} in your {name} "
                "category. Shall I proceed?", call),
            expect=(Expectation("SELECT category_id FROM transactions WHERE transaction_id = ?",
                                (transaction_id,), ((categories[name],),)),))
    return None


def add_transaction(ctx: SampleContext) -> Constraint | None:
    accounts = ctx.rows("SELECT account_id, name, kind, balance, credit_limit FROM accounts "
                        "WHERE user_id = ? AND status = 'open' AND kind IN ('cash', "
                        "'checking') ORDER BY kind = 'checking', rowid", (ctx.user_id,))
    categories = dict((name, cid) for cid, name in _expense_categories(ctx))
    names = [n for n in SPENDING if n in categories]
    if not accounts or not names:
        return None
    account_id, account, kind, balance, _ = accounts[0]
    name = ctx.pick(names)
    payee = ctx.pick(SPENDING[name][1])
    amount = dollars_of(int(ctx.rng.integers(300, min(8000, cents_of(balance)) + 1))) \
        if cents_of(balance) >= 300 else 0.0
    if not amount or not ctx.claim(account_id, ("balance", account_id), categories[name]):
        return None
    day = TODAY if ctx.rng.random() < 0.5 else (date.fromisoformat(TODAY)
                                                 - timedelta(days=1)).isoformat()
    a = describe_account(ctx, account_id, account)
    c = describe_category(ctx, categories[name], name)
    if a is None or c is None:
        return None
    when = "today" if day == TODAY else "yesterday"
    call = ToolCall("add_transaction", {"account_id": account_id, "date": day, "payee": payee,
                                        "amount": -amount, "category_id": categories[name]})
    count = ("SELECT count(*) FROM transactions WHERE account_id = ? AND date = ? AND payee = ? "
             "AND amount = ? AND category_id = ?")
    params = (account_id, day, payee, -amount, categories[name])
    (before,), = ctx.rows(count, params)
    paid = "in cash" if kind == "cash" else f"from my {account}"
    return Constraint(
        "add_transaction", dict(call.arguments), refs={"account": a, "category": c},
        writes=(("add_transaction", account_id),),
        confirm_terms=((payee,), cents_terms(amount), (name,)),
        say=(f"I spent ${amount:.2f} at {payee} {when}, paid {paid}. Please log it under "
             f"{name}.",
             f"Can you record a ${amount:.2f} purchase at {payee} from {when}? I paid {paid}; "
             f"it goes under {name}.",
             f"Please add a transaction: {payee}, ${amount:.2f}, {when}, paid {paid}, "
             f"category {name}."),
        solution=write_steps(
            [_call("list_accounts", ctx), _call("list_categories", ctx)],
            f"I will record a ${amount:.2f} payment to {payee} on {day} from your {account}, "
            f"filed under {name}. Shall I proceed?", call),
        expect=(Expectation(count, params, ((before + 1,),)),
                _balance(account_id, dollars_of(cents_of(balance) - cents_of(amount)))))


def set_budget(ctx: SampleContext) -> Constraint | None:
    for category_id, name in ctx.shuffled(_expense_categories(ctx)):
        month = ctx.pick((THIS_MONTH, "2024-07", "2024-08"))
        c = describe_category(ctx, category_id, name)
        if c is None or not ctx.claim(category_id):
            continue
        current = budgeted(ctx.db, category_id, month)
        amount = float(10 * int(ctx.rng.integers(5, 80)))
        if cents_of(amount) == cents_of(current):
            amount += 10
        call = ToolCall("set_budget", {"category_id": category_id, "month": month,
                                       "amount": amount})
        words = month_words(month)
        change = "change" if current else "set"
        return Constraint(
            "set_budget", dict(call.arguments), refs={"category": c},
            writes=(("set_budget", category_id),),
            confirm_terms=((name,), money_terms(amount), month_terms(month)),
            say=(f"Please {change} my {name} budget for {words} to {dollars(amount)}.",
                 f"I'd like to budget {dollars(amount)} for {name} in {words}.",
                 f"Can you make my {words} budget for {name} {dollars(amount)}?"),
            solution=write_steps(
                [_call("get_budget_summary", ctx, month=month), _call("list_categories", ctx)],
                f"I will set your {name} budget for {month} ({words}) to ${amount:,.2f}"
                + (f" (it is ${current:,.2f} now)" if current else "") + ". Shall I proceed?",
                call),
            expect=(Expectation("SELECT amount FROM budgets WHERE category_id = ? "
                                "AND month = ?", (category_id, month), ((amount,),)),))
    return None


def refuse_past_month_budget(ctx: SampleContext) -> Constraint | None:
    rows = ctx.rows("SELECT c.category_id, c.name, b.month, b.amount FROM budgets b JOIN "
                    "categories c ON c.category_id = b.category_id WHERE c.user_id = ? "
                    "AND c.status = 'active' AND b.month < ? ORDER BY b.rowid",
                    (ctx.user_id, THIS_MONTH))
    for category_id, name, month, amount in ctx.shuffled(rows):
        c = describe_category(ctx, category_id, name)
        if c is None or not ctx.claim(category_id):
            continue
        wanted = amount + 10 * int(ctx.rng.integers(3, 20))
        words = month_words(month)
        return Constraint(
            "refuse_past_month_budget", {"category_id": category_id, "month": month,
                                         "amount": wanted},
            refs={"category": c}, answer="cannot",
            refusal=Refusal((category_id,), about=(category_id, name, *_PAST_WORDS)),
            say=(f"I went over in {words}. Please raise my {name} budget for {words} to "
                 f"{dollars(wanted)}.",
                 f"Can you change my {name} budget for {words} to {dollars(wanted)}? I "
                 "planned badly.",
                 f"Please set my {words} {name} budget to {dollars(wanted)} after the fact."),
            solution=answer_steps(
                [_call("list_categories", ctx)],
                f"I'm sorry, but I cannot change your {name} budget for {month}: that month "
                "has already ended, and budgets of past months are closed. I can set the "
                "budget of the current month or a month ahead instead."),
            expect=(Expectation("SELECT amount FROM budgets WHERE category_id = ? AND month = ?",
                                (category_id, month), ((amount,),)),))
    return None


def mark_bill_paid(ctx: SampleContext) -> Constraint | None:
    rows = ctx.rows(
        "SELECT b.bill_id, b.name, b.amount, b.frequency, b.next_due, a.account_id, a.name, "
        "a.kind, a.balance, a.credit_limit FROM bills b JOIN accounts a ON a.account_id = "
        "b.account_id JOIN categories c ON c.category_id = b.category_id WHERE b.user_id = ? "
        "AND b.status = 'active' AND a.status = 'open' AND c.status = 'active' "
        "ORDER BY b.rowid", (ctx.user_id,))
    for bill_id, name, amount, frequency, due, account_id, account, kind, balance, limit \
            in ctx.shuffled(rows):
        room = cents_of(balance) + (cents_of(limit) if kind == "credit_card" else 0)
        d = describe_bill(ctx, bill_id, name)
        if d is None or room < cents_of(amount) or \
                not ctx.claim(bill_id, ("balance", account_id)):
            continue
        call = ToolCall("mark_bill_paid", {"bill_id": bill_id})
        following = next_due(due, frequency)
        (before,), = ctx.rows("SELECT count(*) FROM transactions WHERE bill_id = ? AND date = ?",
                              (bill_id, TODAY))
        return Constraint(
            "mark_bill_paid", dict(call.arguments), refs={"bill": d},
            writes=(("mark_bill_paid", bill_id),),
            confirm_terms=((name,), cents_terms(amount)),
            say=(f"I just paid my {d.text}. Please mark it as paid.",
                 f"Can you record today's payment of my {d.text}?",
                 f"My {d.text} is paid for this time; please log the payment."),
            solution=write_steps(
                [_call("list_bills", ctx)],
                f"I will record today's payment of ${amount:.2f} for {name} from your "
                f"{account}; the next one will be due on {following}. Shall I proceed?", call),
            expect=(Expectation("SELECT next_due FROM bills WHERE bill_id = ?", (bill_id,),
                                ((following,),)),
                    Expectation("SELECT count(*) FROM transactions WHERE bill_id = ? "
                                "AND date = ?", (bill_id, TODAY), ((before + 1,),)),
                    _balance(account_id, dollars_of(cents_of(balance) - cents_of(amount)))))
    return None


def add_bill(ctx: SampleContext) -> Constraint | None:
    taken = {n.lower() for (n,) in ctx.rows("SELECT name FROM bills WHERE user_id = ?",
                                            (ctx.user_id,))}
    categories = dict((name, cid) for cid, name in _expense_categories(ctx))
    options = [b for b in NEW_BILLS if b[0].lower() not in taken and b[1] in categories]
    accounts = ctx.rows("SELECT account_id, name FROM accounts WHERE user_id = ? AND status = "
                        "'open' AND kind IN ('checking', 'credit_card') ORDER BY rowid",
                        (ctx.user_id,))
    if not options or not accounts:
        return None
    name, category, lo, hi = ctx.pick(options)
    if not ctx.claim(("add_bill", ctx.user_id), categories[category]):
        return None
    account_id, account = ctx.pick(accounts)
    amount = dollars_of(int(ctx.rng.integers(cents_of(lo), cents_of(hi) + 1)))
    frequency = ctx.pick(("monthly", "monthly", "weekly", "yearly"))
    due = (date.fromisoformat(TODAY) + timedelta(days=int(ctx.rng.integers(3, 40)))).isoformat()
    a = describe_account(ctx, account_id, account)
    c = describe_category(ctx, categories[category], category)
    if a is None or c is None:
        return None
    call = ToolCall("add_bill", {"user_id": ctx.user_id, "name": name, "amount": amount,
                                 "category_id": categories[category], "account_id": account_id,
                                 "frequency": frequency, "next_due": due})
    when = date_words(due)
    return Constraint(
        "add_bill", dict(call.arguments), refs={"account": a, "category": c},
        writes=(("add_bill", ctx.user_id),),
        confirm_terms=((name,), cents_terms(amount), (frequency,), (due, when)),
        say=(f"Please add a new {frequency} bill, {name}: ${amount:.2f}, paid from my "
             f"{account}, filed under {category}, first due on {when}.",
             f"I have a new bill to track: {name}, ${amount:.2f} {frequency}, from my "
             f"{account}, category {category}. The first one is due {when}.",
             f"Can you set up {name} as a {frequency} bill of ${amount:.2f}? It comes out of my "
             f"{account}, goes under {category}, and is first due on {when}."),
        solution=write_steps(
            [_call("list_bills", ctx), _call("list_accounts", ctx),
             _call("list_categories", ctx)],
            f"I will add {name} as a {frequency} bill of ${amount:.2f}, paid from your "
            f"{account} and filed under {category}, first due on {due}. Shall I proceed?",
            call),
        expect=(Expectation("SELECT amount, category_id, account_id, frequency, next_due, "
                            "status FROM bills WHERE user_id = ? AND name = ?",
                            (ctx.user_id, name),
                            ((amount, categories[category], account_id, frequency, due,
                              "active"),)),))


def cancel_bill(ctx: SampleContext) -> Constraint | None:
    rows = ctx.rows("SELECT bill_id, name, amount, frequency FROM bills WHERE user_id = ? "
                    "AND status = 'active' ORDER BY rowid", (ctx.user_id,))
    for bill_id, name, amount, frequency in ctx.shuffled(rows):
        d = describe_bill(ctx, bill_id, name)
        if d is None or not ctx.claim(bill_id):
            continue
        call = ToolCall("cancel_bill", {"bill_id": bill_id})
        return Constraint(
            "cancel_bill", dict(call.arguments), refs={"bill": d},
            writes=(("cancel_bill", bill_id),),
            confirm_terms=(("cancel", "stop"), (name,)),
            say=(f"I no longer have the {d.text}. Please cancel it.",
                 f"Can you stop tracking my {d.text}? I cancelled the service.",
                 f"Please cancel my {d.text}."),
            solution=write_steps(
                [_call("list_bills", ctx)],
                f"I will cancel your {frequency} {name} bill of ${amount:.2f}. Shall I proceed?",
                call),
            expect=(Expectation("SELECT status FROM bills WHERE bill_id = ?", (bill_id,),
                                (("cancelled",),)),))
    return None


def contribute_to_goal(ctx: SampleContext) -> Constraint | None:
    goals = ctx.rows("SELECT goal_id, name, saved_amount, target_amount FROM goals "
                     "WHERE user_id = ? AND status = 'active' ORDER BY rowid", (ctx.user_id,))
    accounts = [a for a in _funding_accounts(ctx) if a[2] >= 60]
    if not goals or not accounts:
        return None
    goal_id, name, saved, target = ctx.pick(goals)
    account_id, account, balance = ctx.pick(accounts)
    if not ctx.claim(goal_id, account_id, ("balance", account_id)):
        return None
    cap = min(int(balance) // 10, 300)
    amount = float(10 * int(ctx.rng.integers(5, max(6, cap) + 1)))
    if amount > balance:
        return None
    g = describe_goal(ctx, goal_id, name)
    a = describe_account(ctx, account_id, account)
    if g is None or a is None:
        return None
    call = ToolCall("contribute_to_goal", {"goal_id": goal_id, "from_account_id": account_id,
                                           "amount": amount})
    total = dollars_of(cents_of(saved) + cents_of(amount))
    status = "completed" if cents_of(total) >= cents_of(target) else "active"
    return Constraint(
        "contribute_to_goal", dict(call.arguments), refs={"goal": g, "account": a},
        writes=(("contribute_to_goal", goal_id),),
        confirm_terms=(money_terms(amount), (name,), (account,)),
        say=(f"Please move {dollars(amount)} from my {account} into my {g.text}.",
             f"I'd like to put {dollars(amount)} toward my {g.text}, taken from my {account}.",
             f"Can you add {dollars(amount)} to my {g.text}? Use my {account}."),
        solution=write_steps(
            [_call("list_goals", ctx), _call("list_accounts", ctx)],
            f"I will move ${amount:,.2f} from your {account} into your {name} goal (saved so "
            f"far: ${saved:,.2f}). Shall I proceed?", call),
        expect=(Expectation("SELECT saved_amount, status FROM goals WHERE goal_id = ?",
                            (goal_id,), ((total, status),)),
                _balance(account_id, dollars_of(cents_of(balance) - cents_of(amount)))))


def refuse_goal_over_balance(ctx: SampleContext) -> Constraint | None:
    goals = ctx.rows("SELECT goal_id, name FROM goals WHERE user_id = ? AND status = 'active' "
                     "ORDER BY rowid", (ctx.user_id,))
    accounts = [a for a in _funding_accounts(ctx) if a[2] >= 20]
    if not goals or not accounts:
        return None
    goal_id, name = ctx.pick(goals)
    account_id, account, balance = ctx.pick(accounts)
    if not ctx.claim(goal_id, account_id, ("balance", account_id)):
        return None
    amount = float(100 * (int(balance // 100) + int(ctx.rng.integers(1, 6))))
    g = describe_goal(ctx, goal_id, name)
    a = describe_account(ctx, account_id, account)
    if g is None or a is None:
        return None
    (saved,), = ctx.rows("SELECT saved_amount FROM goals WHERE goal_id = ?", (goal_id,))
    return Constraint(
        "refuse_goal_over_balance", {"goal_id": goal_id, "from_account_id": account_id,
                                "amount": amount},
        refs={"goal": g, "account": a}, answer="cannot",
        refusal=Refusal((account_id,), about=(account_id, account, *_OVER_WORDS)),
        say=(f"Please move {dollars(amount)} from my {account} into my {g.text}.",
             f"I want {dollars(amount)} put into my {g.text} from my {account} right away.",
             f"Can you transfer {dollars(amount)} from my {account} to my {g.text}?"),
        solution=answer_steps(
            [_call("list_goals", ctx), _call("list_accounts", ctx)],
            f"I'm sorry, but I cannot move {dollars(amount)} from your {account}: its balance "
            f"is only ${balance:,.2f}, and a goal can't receive more than the account holds."),
        expect=(Expectation("SELECT saved_amount FROM goals WHERE goal_id = ?", (goal_id,),
                            ((saved,),)),
                _balance(account_id, balance)))


def info_category_spent(ctx: SampleContext) -> Constraint | None:
    rows = ctx.rows("SELECT DISTINCT c.category_id, c.name, substr(t.date, 1, 7) FROM "
                    "transactions t JOIN categories c ON c.category_id = t.category_id "
                    "WHERE t.user_id = ? AND c.kind = 'expense' AND t.date < ? "
                    "ORDER BY c.rowid, 3", (ctx.user_id, THIS_MONTH + "-01"))
    for category_id, name, month in ctx.shuffled(rows):
        c = describe_category(ctx, category_id, name)
        spent = spent_in(ctx.db, category_id, month)
        if c is None or spent <= 0 or not ctx.claim(category_id):
            continue
        words = month_words(month)
        return Constraint(
            "info_category_spent", {"category_id": category_id, "month": month},
            refs={"category": c}, answer=f"{spent:.2f}",
            say=(f"How much did I spend on {name} in {words}?",
                 f"What was my total {name} spending for {words}?",
                 f"Can you tell me what {name} cost me in {words}?"),
            solution=answer_steps(
                [_call("get_budget_summary", ctx, month=month)],
                f"In {words} you spent ${spent:,.2f} on {name}."))
    return None


def info_budget_remaining(ctx: SampleContext) -> Constraint | None:
    rows = ctx.rows("SELECT c.category_id, c.name, b.amount FROM budgets b JOIN categories c "
                    "ON c.category_id = b.category_id WHERE c.user_id = ? AND b.month = ? "
                    "AND c.status = 'active' ORDER BY b.rowid", (ctx.user_id, THIS_MONTH))
    for category_id, name, amount in ctx.shuffled(rows):
        spent = spent_in(ctx.db, category_id, THIS_MONTH)
        left = dollars_of(cents_of(amount) - cents_of(spent))
        c = describe_category(ctx, category_id, name)
        if c is None or left <= 0 or spent <= 0 or not ctx.claim(category_id):
            continue
        return Constraint(
            "info_budget_remaining", {"category_id": category_id, "month": THIS_MONTH},
            refs={"category": c}, answer=f"{left:.2f}",
            say=(f"How much do I have left in my {name} budget this month?",
                 f"What's remaining of my {name} budget for this month?",
                 f"Can you check how much {name} money I can still spend this month?"),
            solution=answer_steps(
                [_call("get_budget_summary", ctx)],
                f"You have ${left:,.2f} left in your {name} budget this month."))
    return None


def info_goal_remaining(ctx: SampleContext) -> Constraint | None:
    rows = ctx.rows("SELECT goal_id, name, target_amount, saved_amount FROM goals "
                    "WHERE user_id = ? AND status = 'active' ORDER BY rowid", (ctx.user_id,))
    for goal_id, name, target, saved in ctx.shuffled(rows):
        g = describe_goal(ctx, goal_id, name)
        if g is None or not ctx.claim(goal_id):
            continue
        left = dollars_of(cents_of(target) - cents_of(saved))
        return Constraint(
            "info_goal_remaining", {"goal_id": goal_id}, refs={"goal": g},
            answer=f"{left:.2f}",
            say=(f"How much more do I need to save for my {g.text}?",
                 f"What's still missing to reach my {g.text}?",
                 f"How far am I from my {g.text}, in dollars?"),
            solution=answer_steps(
                [_call("list_goals", ctx)],
                f"You still need ${left:,.2f} to reach your {name} goal."))
    return None


def info_next_bill_due(ctx: SampleContext) -> Constraint | None:
    rows = ctx.rows("SELECT bill_id, name, next_due FROM bills WHERE user_id = ? "
                    "AND status = 'active' ORDER BY rowid", (ctx.user_id,))
    for bill_id, name, due in ctx.shuffled(rows):
        d = describe_bill(ctx, bill_id, name)
        if d is None or not ctx.claim(bill_id):
            continue
        return Constraint(
            "info_next_bill_due", {"bill_id": bill_id}, refs={"bill": d}, answer=due,
            say=(f"When is my {d.text} due next?",
                 f"On what date is my next {d.text} payment due?",
                 f"Could you check the next due date of my {d.text}?"),
            solution=answer_steps([_call("list_bills", ctx)],
                                  f"Your {name} bill is next due on {due}."))
    return None


# ------------------------------------------------------------------------ the kit

LOGIN = Login("users", "user_id", "find_user_by_email", "find_user_by_username")


def policy_violations(db, tool: str, arguments: dict) -> list[str]:
    """Policy rules a write would break (past months' budgets are not checked by the tool)."""
    if tool == "set_budget":
        month = arguments.get("month")
        if isinstance(month, str) and len(month) == 7 and month[4] == "-" and \
                month[:4].isdigit() and month[5:].isdigit() and \
                months_between(THIS_MONTH, month) < 0:
            return ["policy:closed_month"]
    if tool == "contribute_to_goal":
        row = db.execute("SELECT balance FROM accounts WHERE account_id = ?",
                         (arguments.get("from_account_id"),)).fetchone()
        amount = arguments.get("amount")
        if row is not None and isinstance(amount, (int, float)) and \
                not isinstance(amount, bool) and amount > row[0]:
            return ["policy:available_balance"]
    return []


_USER = ("SELECT user_id FROM users WHERE user_id = ?", "user_id")
_CATEGORY = ("SELECT user_id FROM categories WHERE category_id = ?", "category_id")
_BILL = ("SELECT user_id FROM bills WHERE bill_id = ?", "bill_id")

SAMPLERS = by_name(
    categorize_transaction, add_transaction, set_budget, mark_bill_paid, add_bill, cancel_bill,
    contribute_to_goal, info_category_spent, info_budget_remaining, info_goal_remaining,
    info_next_bill_due, refuse_goal_over_balance, refuse_past_month_budget)

TASKS = RuleTaskKit(
    "budget", SAMPLERS,
    **LOGIN.kit_keywords(),
    owners={
        "add_transaction": ("SELECT user_id FROM accounts WHERE account_id = ?", "account_id"),
        "categorize_transaction": ("SELECT user_id FROM transactions WHERE transaction_id = ?",
                                   "transaction_id"),
        "set_budget": _CATEGORY,
        "create_category": _USER,
        "archive_category": _CATEGORY,
        "add_bill": _USER,
        "cancel_bill": _BILL,
        "mark_bill_paid": _BILL,
        "create_goal": _USER,
        "contribute_to_goal": ("SELECT user_id FROM goals WHERE goal_id = ?", "goal_id"),
    },
    ask_identity=ASK_IDENTITY,
    identity_phrases=("Sure, {text}.", "Of course: {text}.", "Yes, {text}."),
    greetings=("Hi!", "Hello,", "Hey there.", "Good morning."),
    policy_violations=policy_violations,
)
