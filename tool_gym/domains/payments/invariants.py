"""Rules every payments database keeps (generated data and after any tool call).

``invariants(db)`` returns the problems found (empty when every rule holds).
"""

from __future__ import annotations

from ...core.rules import rule_checker
from .tools import RATES_USD, TODAY

#: ``CASE`` expression of a currency's USD value per unit (``{c}`` is the column).
_USD = "CASE {c} " + " ".join(f"WHEN '{k}' THEN {v}" for k, v in RATES_USD.items()) + " END"

RULES: list[tuple[str, str]] = [
    ("money amounts are whole cents",
     "SELECT wallet_id FROM wallets WHERE abs(balance * 100 - round(balance * 100)) > 1e-6 "
     "UNION ALL SELECT payment_id FROM payments WHERE abs(amount * 100 - round(amount * 100)) "
     "> 1e-6 OR abs(refunded_amount * 100 - round(refunded_amount * 100)) > 1e-6"),
    ("every user has a USD wallet",
     "SELECT u.user_id FROM users u WHERE NOT EXISTS (SELECT 1 FROM wallets w "
     "WHERE w.user_id = u.user_id AND w.currency = 'USD')"),
    ("a user with active funding sources has exactly one default",
     "SELECT user_id FROM funding_sources WHERE status = 'active' GROUP BY user_id "
     "HAVING sum(is_default) != 1"),
    ("a payment from a wallet uses a wallet of the sender in its currency",
     "SELECT p.payment_id FROM payments p JOIN wallets w ON w.wallet_id = p.wallet_id "
     "WHERE w.user_id != p.sender_id OR w.currency != p.currency"),
    ("a payment from a funding source is a merchant payment from the sender's source",
     "SELECT p.payment_id FROM payments p JOIN funding_sources s ON s.source_id = p.source_id "
     "WHERE s.user_id != p.sender_id OR p.merchant_id IS NULL"),
    ("the recipient of a payment holds a wallet in its currency",
     "SELECT p.payment_id FROM payments p WHERE p.recipient_id IS NOT NULL AND NOT EXISTS ("
     "SELECT 1 FROM wallets w WHERE w.user_id = p.recipient_id AND w.currency = p.currency)"),
    ("a payment's refunded amount is the sum of its refunds, at most the payment",
     "SELECT p.payment_id FROM payments p WHERE abs(p.refunded_amount - (SELECT coalesce(sum("
     "r.amount), 0) FROM refunds r WHERE r.payment_id = p.payment_id)) > 0.005 "
     "OR p.refunded_amount > p.amount + 0.005"),
    ("a payment's status follows its refunds",
     "SELECT payment_id FROM payments WHERE status != CASE WHEN refunded_amount = 0 THEN "
     "'completed' WHEN refunded_amount >= amount - 0.005 THEN 'refunded' "
     "ELSE 'partially_refunded' END"),
    ("refunds and disputes are on merchant payments of their user",
     "SELECT r.refund_id FROM refunds r JOIN payments p USING (payment_id) "
     "WHERE p.merchant_id IS NULL UNION ALL SELECT d.dispute_id FROM disputes d "
     "JOIN payments p USING (payment_id) WHERE p.merchant_id IS NULL "
     "OR p.sender_id != d.user_id"),
    ("an accepted request was paid by its payer to its requester, in full",
     "SELECT q.request_id FROM payment_requests q JOIN payments p USING (payment_id) "
     "WHERE p.sender_id != q.payer_id OR p.recipient_id IS NOT q.requester_id "
     "OR abs(p.amount - q.amount) > 0.005 OR p.currency != q.currency"),
    ("the payments to people of a day stay within the sender's daily limit",
     f"SELECT p.sender_id FROM payments p JOIN users u ON u.user_id = p.sender_id "
     f"WHERE p.recipient_id IS NOT NULL AND substr(p.created_at, 1, 10) = '{TODAY}' "
     f"GROUP BY p.sender_id HAVING round(sum(p.amount * {_USD.format(c='p.currency')}), 2) "
     f"> max(u.daily_send_limit) + 0.005"),
    ("top-ups and withdrawals use the USD wallet and a source of its owner",
     "SELECT t.transfer_id FROM wallet_transfers t JOIN wallets w USING (wallet_id) "
     "JOIN funding_sources s USING (source_id) WHERE w.currency != 'USD' "
     "OR s.user_id != w.user_id"),
    ("a conversion joins two wallets of its user at its rate",
     "SELECT c.conversion_id FROM conversions c JOIN wallets a ON a.wallet_id = "
     "c.from_wallet_id JOIN wallets b ON b.wallet_id = c.to_wallet_id "
     "WHERE a.user_id != c.user_id OR b.user_id != c.user_id OR a.currency = b.currency "
     "OR abs(c.converted_amount - c.amount * c.rate) > 0.0051"),
]


invariants = rule_checker(RULES)
