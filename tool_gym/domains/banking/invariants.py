"""Rules every banking database keeps (generated data and after any tool call).

``invariants(db)`` returns the problems found (empty when every rule holds).
"""

from __future__ import annotations

from ...core.rules import rule_checker


RULES: list[tuple[str, str]] = [
    ("balances and holds are non-negative",
     "SELECT account_id FROM accounts WHERE balance < 0 OR hold_amount < 0"),
    ("holds never exceed the balance (available balance >= 0)",
     "SELECT account_id FROM accounts WHERE round(balance - hold_amount, 2) < 0"),
    ("a hold equals the pending card purchases of the account",
     "SELECT a.account_id FROM accounts a WHERE abs(a.hold_amount + (SELECT coalesce(sum("
     "t.amount), 0) FROM transactions t WHERE t.account_id = a.account_id "
     "AND t.status = 'pending')) > 0.005"),
    ("money amounts are whole cents",
     "SELECT account_id FROM accounts WHERE abs(balance * 100 - round(balance * 100)) > 1e-6 "
     "UNION ALL SELECT transfer_id FROM transfers "
     "WHERE abs(amount * 100 - round(amount * 100)) > 1e-6"),
    ("a closed account holds no money",
     "SELECT account_id FROM accounts WHERE status = 'closed' AND balance != 0"),
    ("a card belongs to the owner of its account",
     "SELECT c.card_id FROM cards c JOIN accounts a ON a.account_id = c.account_id "
     "WHERE a.customer_id != c.customer_id"),
    ("an internal transfer stays within one customer's accounts",
     "SELECT t.transfer_id FROM transfers t JOIN accounts f ON f.account_id = t.from_account_id "
     "LEFT JOIN accounts d ON d.account_id = t.to_account_id "
     "LEFT JOIN payees p ON p.payee_id = t.payee_id "
     "WHERE f.customer_id != t.customer_id OR (d.account_id IS NOT NULL "
     "AND d.customer_id != t.customer_id) OR (p.payee_id IS NOT NULL "
     "AND p.customer_id != t.customer_id) OR t.from_account_id = t.to_account_id"),
    ("transfers of a day stay within the customer's daily limit",
     "SELECT t.customer_id || ' ' || substr(t.created_at, 1, 10) FROM transfers t "
     "JOIN customers c ON c.customer_id = t.customer_id "
     "GROUP BY t.customer_id, substr(t.created_at, 1, 10) "
     "HAVING round(sum(t.amount), 2) > max(c.daily_transfer_limit)"),
    ("a scheduled payment goes to a payee of its customer from their account",
     "SELECT s.scheduled_payment_id FROM scheduled_payments s "
     "JOIN payees p ON p.payee_id = s.payee_id "
     "JOIN accounts a ON a.account_id = s.from_account_id "
     "WHERE p.customer_id != s.customer_id OR a.customer_id != s.customer_id"),
    ("a dispute is on a posted card purchase of its customer, for its amount",
     "SELECT d.dispute_id FROM disputes d JOIN transactions t "
     "ON t.transaction_id = d.transaction_id JOIN accounts a ON a.account_id = t.account_id "
     "WHERE a.customer_id != d.customer_id OR t.kind != 'card_purchase' "
     "OR t.status != 'posted' OR abs(d.amount + t.amount) > 0.005"),
    ("a transaction's card is linked to the transaction's account",
     "SELECT t.transaction_id FROM transactions t JOIN cards c ON c.card_id = t.card_id "
     "WHERE c.account_id != t.account_id"),
]


invariants = rule_checker(RULES)
