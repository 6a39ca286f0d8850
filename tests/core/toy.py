"""A two-table toy domain used by the core tests (nothing here is a real domain)."""

import json
import sqlite3
from typing import Literal

from tool_gym.core.domain import Domain
from tool_gym.core.tools import Annotated, Category, Entity, ToolError, Toolbox, tool

AccountId = Annotated[str, Entity("account_id")]

SCHEMA = """
CREATE TABLE accounts (account_id TEXT PRIMARY KEY, owner TEXT NOT NULL, balance REAL NOT NULL);
CREATE TABLE transfers (id INTEGER PRIMARY KEY, src TEXT NOT NULL REFERENCES accounts,
                        dst TEXT NOT NULL REFERENCES accounts, amount REAL NOT NULL);
"""


@tool(Category.READ, returns={".": AccountId})
def find_account(db, owner: str) -> str:
    """Find the account of an owner.

    Args:
        owner: The owner's name,
            as written on the account.
    """
    row = db.execute("SELECT account_id FROM accounts WHERE owner = ?", (owner,)).fetchone()
    if row is None:
        raise ToolError("account not found")
    return row[0]


@tool(Category.READ)
def get_balance(db, account_id: AccountId) -> dict:
    """Get an account's balance.

    Args:
        account_id: The account id.
    """
    row = db.execute("SELECT balance FROM accounts WHERE account_id = ?", (account_id,)).fetchone()
    if row is None:
        raise ToolError("account not found")
    return {"account_id": account_id, "balance": row[0]}


@tool(Category.WRITE, writes=("account_id",))
def transfer(db, src: AccountId, dst: AccountId, amount: float,
             speed: Literal["normal", "express"] = "normal", tags: list[str] = ()) -> dict:
    """Move money between accounts.

    The source is debited first, then the destination is credited.

    Args:
        src: Source account.
        dst: Destination account.
        amount: Amount to move, positive.
        speed: How fast.
        tags: Free labels.
    """
    db.execute("UPDATE accounts SET balance = balance - ? WHERE account_id = ?", (amount, src))
    if amount <= 0:
        raise ToolError("amount must be positive")  # after a mutation: must roll back
    moved = db.execute("UPDATE accounts SET balance = balance + ? WHERE account_id = ?", (amount, dst))
    if moved.rowcount == 0:
        raise ToolError("destination not found")
    db.execute("INSERT INTO transfers (src, dst, amount) VALUES (?, ?, ?)", (src, dst, amount))
    return {"src": src, "dst": dst, "amount": amount}


@tool(Category.GENERIC)
def echo(db, flag: bool, count: int, payload: dict) -> dict:
    """Echo the arguments back."""
    return {"flag": flag, "count": count, "payload": payload}


def generate(seed: int) -> dict:
    return {"accounts": [[f"acc{seed}_{i}", f"owner{i}", 100.0 * i] for i in range(3)]}


def load(db: sqlite3.Connection, data: dict) -> None:
    db.executemany("INSERT INTO accounts VALUES (?, ?, ?)", data["accounts"])


def read(path):
    return json.loads(path.read_text())


def invariants(db) -> list[str]:
    return [f"negative balance on {r[0]}" for r in
            db.execute("SELECT account_id FROM accounts WHERE balance < 0")]


DOMAIN = Domain(
    name="toy", schema=SCHEMA,
    toolbox=Toolbox([find_account, get_balance, transfer, echo]),
    generate=generate, load=load, read=read, invariants=invariants, policy="Be nice.",
)
