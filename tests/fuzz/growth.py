"""Growth recipes: for each domain, valid calls of its growth tools that a loop can repeat.

``RECIPES[domain](db, text)`` returns a function ``step(i) -> (tool name, arguments)``
whose calls add rows (or rewrite the biggest texts) every time they succeed; ``text`` is
the longest text to store (:data:`TEXT`; recipes cut it to their domain's own limits).
The ids come from the sandbox's own data, so the calls are valid; the loop decides how
often to repeat them (``tests/fuzz/test_growth.py``, ``benchmarks/step_cost.py``).
"""
from __future__ import annotations

import sqlite3
from typing import Any, Callable

Step = Callable[[int], tuple[str, dict[str, Any]]]

#: The longest text the recipes store (email's own limit on a body; under every quota).
TEXT = "g" * 20_000


def _one(db: sqlite3.Connection, sql: str, *args: Any) -> tuple:
    row = db.execute(sql, args).fetchone()
    assert row is not None, sql
    return row


def filesystem(db: sqlite3.Connection, text: str) -> Step:
    """Two folders copied into each other in turn: the tree doubles every round."""
    from tool_gym.domains.filesystem.tools import create_file, create_folder

    user, root = _one(db, "SELECT owner_id, node_id FROM nodes WHERE parent_id IS NULL "
                          "ORDER BY owner_id")
    a = create_folder.fn(db, root, user, "growth-a")["node_id"]
    b = create_folder.fn(db, root, user, "growth-b")["node_id"]
    create_file.fn(db, a, user, "seed.txt", "x")

    def step(i: int):
        if i % 3 == 2:
            return "create_file", {"parent_id": a, "user_id": user, "name": f"big{i}.txt",
                                   "content": text[:2_000]}
        source, target = (a, b) if i % 3 == 0 else (b, a)
        return "copy_node", {"node_id": source, "user_id": user,
                             "destination_folder_id": target, "new_name": f"copy{i}"}
    return step


def email(db: sqlite3.Connection, text: str) -> Step:
    """Send, forward and draft messages with the longest bodies."""
    user, = _one(db, "SELECT user_id FROM users ORDER BY user_id")
    other, = _one(db, "SELECT email FROM users WHERE user_id != ? ORDER BY user_id", user)
    message, = _one(db, "SELECT message_id FROM messages WHERE user_id = ? ORDER BY message_id",
                    user)
    kinds = ("send_message", "forward_message", "create_draft")

    def step(i: int):
        kind = kinds[i % 3]
        if kind == "forward_message":
            return kind, {"message_id": message, "to": [other], "note": text}
        return kind, {"user_id": user, "to": [other], "subject": f"growth {i}", "body": text}
    return step


def team_chat(db: sqlite3.Connection, text: str) -> Step:
    """Post the longest messages a channel takes (4,000 characters); create channels."""
    channel, user = _one(db, "SELECT m.channel_id, m.user_id FROM channel_members m JOIN "
                             "channels c USING (channel_id) WHERE c.is_archived = 0 "
                             "ORDER BY m.channel_id, m.user_id")
    workspace, = _one(db, "SELECT workspace_id FROM channels WHERE channel_id = ?", channel)

    def step(i: int):
        if i % 4 == 3:
            return "create_channel", {"workspace_id": workspace, "user_id": user,
                                      "name": f"growth-{i}", "is_private": False,
                                      "topic": "growth"}
        return "post_message", {"channel_id": channel, "user_id": user, "text": text[:4_000],
                                "thread_parent_id": ""}
    return step


def calendar(db: sqlite3.Connection, text: str) -> Step:
    """Create events with many attendees and the longest descriptions."""
    users = [r[0] for r in db.execute("SELECT user_id FROM users ORDER BY user_id LIMIT 60")]

    def step(i: int):
        day = 1 + i % 28
        hour = 8 + (i // 28) % 9
        return "create_event", {"organizer_id": users[0], "title": f"growth {i}",
                                "start": f"2030-03-{day:02d} {hour:02d}:00",
                                "end": f"2030-03-{day:02d} {hour:02d}:30",
                                "attendee_ids": users[1:], "description": text}
    return step


def issue_tracker(db: sqlite3.Connection, text: str) -> Step:
    """Create issues and comment on them with the longest texts (5,000 characters)."""
    project, user = _one(db, "SELECT project_id, user_id FROM project_members "
                             "ORDER BY project_id, user_id")
    issue, = _one(db, "SELECT issue_id FROM issues WHERE project_id = ? ORDER BY number",
                  project)

    def step(i: int):
        if i % 2:
            return "add_comment", {"issue_id": issue, "user_id": user, "body": text[:5_000]}
        return "create_issue", {"project_id": project, "user_id": user,
                                "title": f"growth issue {i}", "type": "task",
                                "priority": "low", "description": text[:5_000]}
    return step


def crm(db: sqlite3.Connection, text: str) -> Step:
    """Log activities and create tasks with the longest notes."""
    opportunity, = _one(db, "SELECT opportunity_id FROM opportunities WHERE closed_on IS NULL "
                            "ORDER BY opportunity_id")

    def step(i: int):
        if i % 2:
            return "create_task", {"opportunity_id": opportunity, "title": f"growth task {i}",
                                   "due_date": "2030-01-01", "priority": "low"}
        return "log_activity", {"opportunity_id": opportunity, "kind": "note",
                                "subject": f"growth {i}", "notes": text}
    return step


def banking(db: sqlite3.Connection, text: str) -> Step:
    """Add payees and move a cent back and forth between two accounts."""
    customer, a, b = _one(
        db, "SELECT a.customer_id, a.account_id, b.account_id FROM accounts a JOIN accounts b "
            "ON a.customer_id = b.customer_id AND a.account_id < b.account_id "
            "WHERE a.status = 'open' AND b.status = 'open' AND a.type = 'checking' "
            "AND a.balance > 100 ORDER BY a.account_id")

    def step(i: int):
        if i % 3 == 2:
            return "add_payee", {"customer_id": customer, "name": f"Growth Payee {i}",
                                 "bank_name": "Growth Bank", "category": "other",
                                 "account_number": f"{100000 + i}"}
        source, target = (a, b) if i % 3 == 0 else (b, a)
        return "transfer_between_accounts", {"from_account_id": source, "to_account_id": target,
                                             "amount": 0.01, "memo": text[:200]}
    return step


def food_delivery(db: sqlite3.Connection, text: str) -> Step:
    """Fill a cart and place the order, again and again."""
    customer, address, payment = _one(
        db, "SELECT c.customer_id, a.address_id, p.payment_method_id FROM customers c "
            "JOIN addresses a USING (customer_id) JOIN payment_methods p USING (customer_id) "
            "WHERE p.kind = 'card' ORDER BY c.customer_id")
    items = [r[0] for r in db.execute(
        "SELECT m.item_id FROM menu_items m JOIN restaurants r USING (restaurant_id) "
        "WHERE m.available = 1 AND r.is_open = 1 AND r.restaurant_id = (SELECT restaurant_id "
        "FROM restaurants WHERE is_open = 1 ORDER BY restaurant_id) ORDER BY m.item_id")]

    def step(i: int):
        if i % 4 == 3:
            return "place_order", {"customer_id": customer, "address_id": address,
                                   "payment_method_id": payment}
        return "add_item_to_cart", {"customer_id": customer, "item_id": items[i % len(items)],
                                    "quantity": 20}
    return step


def airline(db: sqlite3.Connection, text: str) -> Step:
    """Send certificates (each one a new payment method)."""
    user, = _one(db, "SELECT user_id FROM users ORDER BY user_id")

    def step(i: int):
        return "send_certificate", {"user_id": user, "amount": 100}
    return step


def retail(db: sqlite3.Connection, text: str) -> Step:
    """Rewrite a user's address with the longest texts (retail has no creating tool)."""
    user, = _one(db, "SELECT user_id FROM users ORDER BY user_id")

    def step(i: int):
        return "modify_user_address", {"user_id": user, "address1": text, "address2": text,
                                       "city": text, "state": "CA", "country": "USA",
                                       "zip": f"{10000 + i % 80000}"}
    return step


RECIPES: dict[str, Callable[[sqlite3.Connection, str], Step]] = {
    "filesystem": filesystem, "email": email, "team_chat": team_chat, "calendar": calendar,
    "issue_tracker": issue_tracker, "crm": crm, "banking": banking,
    "food_delivery": food_delivery, "airline": airline, "retail": retail,
}


def _domain_recipes() -> None:
    """Domains whose recipe lives beside their own tests: ``tests/domains/<name>/growth.py``
    defines ``recipe(db, text) -> Step``."""
    import importlib.util

    from tool_gym.domains import BUILTINS

    for name in BUILTINS:
        if name in RECIPES or importlib.util.find_spec(f"tests.domains.{name}") is None:
            continue  # test_every_domain_has_a_growth_recipe names the domain
        module = f"tests.domains.{name}.growth"
        if importlib.util.find_spec(module) is not None:
            RECIPES[name] = importlib.import_module(module).recipe


_domain_recipes()

