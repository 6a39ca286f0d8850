"""The toy domain with a RuleTaskKit: the smallest complete hidden-intent domain."""

import dataclasses

from tool_gym.core.actions import ToolCall
from tool_gym.core.taskkit import RuleTaskKit
from tool_gym.core.task_model import Constraint, Expectation, PlanStep

from . import toy


def identify(ctx):
    return ctx.describe("user", ctx.user_id, {"owner": ctx.user_id}, ctx.user_id,
                        "SELECT owner FROM accounts WHERE owner = ?", (ctx.user_id,))


def move_money(ctx):
    (src, balance), = ctx.rows("SELECT account_id, balance FROM accounts WHERE owner = ?",
                               (ctx.user_id,))
    others = ctx.rows("SELECT account_id FROM accounts WHERE owner != ? ORDER BY rowid",
                      (ctx.user_id,))
    if balance < 10 or not others or not ctx.claim(src):
        return None
    dst = ctx.pick(others)[0]
    amount = float(ctx.pick([5, 10]))
    call = ToolCall("transfer", {"src": src, "dst": dst, "amount": amount})
    return Constraint(
        "move_money", dict(call.arguments), writes=(("transfer", src),),
        confirm_terms=((dst,), (f"{amount:g}",)),
        say=(f"Please send {amount:g} to account {dst}.",),
        solution=(PlanStep(call=ToolCall("get_balance", {"account_id": src})),
                  PlanStep(say=f"I will send {amount:g} to {dst}. Shall I proceed?",
                           expects_confirmation=True),
                  PlanStep(call=call), PlanStep(say="Done. Anything else?")),
        expect=(Expectation("SELECT balance FROM accounts WHERE account_id = ?", (src,),
                            ((balance - amount,),)),))


def balance_question(ctx):
    (src, balance), = ctx.rows("SELECT account_id, balance FROM accounts WHERE owner = ?",
                               (ctx.user_id,))
    if not ctx.claim(("balance", src)) or src in ctx.claimed:
        return None
    return Constraint("info_balance", {"account_id": src}, answer=f"{balance:.2f}",
                      say=("How much money do I have?",),
                      solution=(PlanStep(call=ToolCall("get_balance", {"account_id": src})),
                                PlanStep(say=f"Your balance is {balance:.2f}.")))


KIT = RuleTaskKit(
    "toy", {"move_money": move_money, "info_balance": balance_question},
    users_table="accounts", user_column="owner", identify=identify,
    auth_call=lambda d: ToolCall("find_account", {"owner": d.fields["owner"]}),
    auth_tools=("find_account",),
    # find_account authenticates with the account id, so that is the owner of a transfer
    owners={"transfer": ("SELECT account_id FROM accounts WHERE account_id = ?", "src")},
    ask_identity="Could you verify your identity: what is your name?",
    identity_phrases=("I am {owner}.",), test_share=0)


def generate(seed):
    return {"accounts": [[f"acc{i}", f"owner{i}", 100.0 + i] for i in range(40)]}


DOMAIN = dataclasses.replace(toy.DOMAIN, name="toy_tasks", tasks=KIT, generate=generate)
