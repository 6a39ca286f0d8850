"""Rules every budget database keeps (generated data and after any tool call).

``invariants(db)`` returns the problems found (empty when every rule holds).
"""

from __future__ import annotations

from ...core.rules import rule_checker

_CENTS = "abs({0} * 100 - round({0} * 100)) > 1e-6"

RULES: list[tuple[str, str]] = [
    ("money amounts are whole cents",
     f"SELECT account_id FROM accounts WHERE {_CENTS.format('balance')} UNION ALL "
     f"SELECT transaction_id FROM transactions WHERE {_CENTS.format('amount')} UNION ALL "
     f"SELECT goal_id FROM goals WHERE {_CENTS.format('saved_amount')}"),
    ("an account's balance is its opening balance plus its transactions",
     "SELECT a.account_id FROM accounts a WHERE abs(round(a.balance * 100) - round("
     "a.opening_balance * 100) - (SELECT coalesce(sum(round(t.amount * 100)), 0) FROM "
     "transactions t WHERE t.account_id = a.account_id)) > 0.5"),
    ("cash, checking and savings never go below zero, a card never past its limit",
     "SELECT account_id FROM accounts WHERE (kind != 'credit_card' AND balance < 0) "
     "OR (kind = 'credit_card' AND balance < -credit_limit)"),
    ("a closed account holds no money",
     "SELECT account_id FROM accounts WHERE status = 'closed' AND balance != 0"),
    ("a transaction's account, category, bill and goal belong to its user",
     "SELECT t.transaction_id FROM transactions t JOIN accounts a ON a.account_id = "
     "t.account_id LEFT JOIN categories c ON c.category_id = t.category_id LEFT JOIN bills b "
     "ON b.bill_id = t.bill_id LEFT JOIN goals g ON g.goal_id = t.goal_id "
     "WHERE a.user_id != t.user_id OR c.user_id != t.user_id OR b.user_id != t.user_id "
     "OR g.user_id != t.user_id"),
    ("an income category only takes money coming in",
     "SELECT t.transaction_id FROM transactions t JOIN categories c ON c.category_id = "
     "t.category_id WHERE c.kind = 'income' AND t.amount < 0"),
    ("a goal's savings are the transfers into it, from checking or savings, and it is "
     "completed once they reach its target",
     "SELECT g.goal_id FROM goals g WHERE abs(round(g.saved_amount * 100) + (SELECT coalesce("
     "sum(round(t.amount * 100)), 0) FROM transactions t WHERE t.goal_id = g.goal_id)) > 0.5 "
     "OR (g.status = 'completed') != (round(g.saved_amount * 100) >= round(g.target_amount "
     "* 100)) OR EXISTS (SELECT 1 FROM transactions t JOIN accounts a ON a.account_id = "
     "t.account_id WHERE t.goal_id = g.goal_id AND (a.kind NOT IN ('checking', 'savings') "
     "OR t.amount > 0))"),
    ("budgets are for expense categories, in months written YYYY-MM",
     "SELECT b.budget_id FROM budgets b JOIN categories c ON c.category_id = b.category_id "
     "WHERE c.kind != 'expense' OR b.month NOT GLOB '[0-9][0-9][0-9][0-9]-[01][0-9]' "
     f"OR {_CENTS.format('b.amount')}"),
    ("a bill is filed under an expense category and paid from an account of its user",
     "SELECT b.bill_id FROM bills b JOIN categories c ON c.category_id = b.category_id "
     "JOIN accounts a ON a.account_id = b.account_id WHERE c.user_id != b.user_id "
     "OR a.user_id != b.user_id OR c.kind != 'expense'"),
    ("an active bill's category is active",
     "SELECT b.bill_id FROM bills b JOIN categories c ON c.category_id = b.category_id "
     "WHERE b.status = 'active' AND c.status != 'active'"),
    ("a user keeps at most 40 categories, 30 bills and 20 goals",
     "SELECT user_id FROM categories GROUP BY user_id HAVING count(*) > 40 UNION ALL "
     "SELECT user_id FROM bills GROUP BY user_id HAVING count(*) > 30 UNION ALL "
     "SELECT user_id FROM goals GROUP BY user_id HAVING count(*) > 20"),
]


invariants = rule_checker(RULES)
