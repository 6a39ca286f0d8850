"""Each payments tool: its success path and its error paths; failed writes change nothing;
the invariants catch broken rules."""

from __future__ import annotations

from collections import Counter

from tool_gym.core.tools import Category
from tool_gym.domains.payments import DOMAIN
from tool_gym.domains.payments.tools import TODAY, money, rate, sent_today

from ..calls import rules_catch


def test_toolbox_has_sixteen_tools_at_least():
    counts = Counter(t.category for t in DOMAIN.toolbox)
    assert len(DOMAIN.toolbox) >= 16
    assert counts[Category.READ] >= 8 and counts[Category.WRITE] >= 8


def balance(call, wallet_id: str) -> float:
    return call.one("SELECT balance FROM wallets WHERE wallet_id = ?", (wallet_id,))[0]


def _payer(call, minimum: float = 100):
    """A user with a USD wallet of at least ``minimum``, a contact holding a USD wallet, and
    no payment sent today: (user, wallet, contact)."""
    return call.one(
        "SELECT w.user_id, w.wallet_id, c.contact_user_id FROM wallets w JOIN contacts c "
        "ON c.user_id = w.user_id JOIN wallets o ON o.user_id = c.contact_user_id "
        "AND o.currency = 'USD' WHERE w.currency = 'USD' AND w.balance >= ? AND NOT EXISTS ("
        "SELECT 1 FROM payments p WHERE p.sender_id = w.user_id AND p.created_at >= ?) "
        "ORDER BY w.rowid LIMIT 1", (minimum, TODAY))


# --------------------------------------------------------------------------- reads

def test_find_user_profile_and_lists(call, state):
    user = state["users"][9]
    uid = user["user_id"]
    assert call.ok("find_user_by_email", email=f" {user['email'].upper()}") == uid
    assert call.ok("find_user_by_username", username="@" + user["username"]) == uid
    call.err("find_user_by_email", email="nobody@example.com")
    call.err("find_user_by_username", username="nobody")
    profile = call.ok("get_user_profile", user_id=uid)
    assert profile["remaining_daily_limit"] == money(profile["daily_send_limit"]
                                                     - profile["sent_today_usd"])
    assert profile["wallet_ids"] == [w["wallet_id"] for w in state["wallets"]
                                     if w["user_id"] == uid]
    assert {w["currency"] for w in call.ok("list_wallets", user_id=uid)["wallets"]} >= {"USD"}
    contacts = call.ok("list_contacts", user_id=uid)["contacts"]
    assert contacts and all(c["user_id"] != uid and c["username"] for c in contacts)
    sources = call.ok("list_funding_sources", user_id=uid)["sources"]
    assert sum(s["is_default"] for s in sources if s["status"] == "active") == 1
    assert call.ok("list_payment_requests", user_id=uid)["user_id"] == uid
    assert call.ok("list_disputes", user_id=uid)["user_id"] == uid
    for name in ("get_user_profile", "list_wallets", "list_contacts", "list_funding_sources",
                 "list_payments", "list_payment_requests", "list_disputes"):
        assert "not found" in call.err(name, user_id="usr_missing")
    assert call.ok("transfer_to_human_agents", summary="help") == "Transfer successful"


def test_payments_and_filters(call):
    uid, merchant, month = call.one(
        "SELECT p.sender_id, m.name, substr(p.created_at, 1, 7) FROM payments p JOIN merchants "
        "m USING (merchant_id) GROUP BY p.sender_id, m.name, substr(p.created_at, 1, 7) "
        "HAVING count(*) >= 2 LIMIT 1")
    every = call.ok("list_payments", user_id=uid)["payments"]
    stamps = [p["created_at"] for p in every]
    assert stamps == sorted(stamps, reverse=True)
    assert {p["direction"] for p in every} <= {"sent", "received"}
    mine = call.ok("list_payments", user_id=uid, merchant=merchant.lower(),
                   start_date=f"{month}-01", end_date=f"{month}-31")
    assert len(mine["payments"]) >= 2
    assert all(p["merchant_name"] == merchant for p in mine["payments"])
    assert mine["total_sent"]["USD"] == money(sum(p["amount"] for p in mine["payments"]))
    assert "YYYY-MM-DD" in call.err("list_payments", user_id=uid, start_date="Jan 3")
    assert "after end_date" in call.err("list_payments", user_id=uid,
                                        start_date="2025-02-10", end_date="2025-02-01")
    payment = mine["payments"][0]["payment_id"]
    record = call.ok("get_payment", payment_id=payment)
    assert record["merchant_name"] == merchant and record["refund_window_days"] > 0
    assert record["days_ago"] >= 0 and "refunds" in record
    assert "not found" in call.err("get_payment", payment_id="pmt_missing")
    assert call.ok("get_exchange_rate", from_currency="EUR", to_currency="USD")["rate"] == 1.08
    assert "must be one of" in call.err("get_exchange_rate", from_currency="JPY",
                                        to_currency="USD")


# -------------------------------------------------------------------------- writes

def test_send_money(call, box):
    uid, wallet, contact = _payer(call)
    other_wallet, = call.one("SELECT wallet_id FROM wallets WHERE user_id = ? "
                             "AND currency = 'USD'", (contact,))
    mine, theirs = balance(call, wallet), balance(call, other_wallet)
    made = call.ok("send_money", from_wallet_id=wallet, recipient_id=contact, amount=12.34,
                   note="lunch")
    assert made["status"] == "completed" and made["wallet_balance"] == money(mine - 12.34)
    assert balance(call, other_wallet) == money(theirs + 12.34)
    assert sent_today(box.db, uid) == 12.34
    stranger, = call.one("SELECT u.user_id FROM users u WHERE u.user_id != ? AND NOT EXISTS ("
                         "SELECT 1 FROM contacts c WHERE c.user_id = ? AND c.contact_user_id = "
                         "u.user_id) LIMIT 1", (uid, uid))
    args = {"from_wallet_id": wallet, "recipient_id": contact}
    assert "insufficient balance" in call.err("send_money", **args, amount=10_000_000).lower()
    assert "not one of the user's contacts" in call.err("send_money", from_wallet_id=wallet,
                                                        recipient_id=stranger, amount=1)
    assert "themself" in call.err("send_money", from_wallet_id=wallet, recipient_id=uid,
                                  amount=1)
    assert "positive" in call.err("send_money", **args, amount=-5)
    assert "whole cents" in call.err("send_money", **args, amount=1.001)
    assert "too long" in call.err("send_money", **args, amount=1, note="n" * 201)
    assert "not found" in call.err("send_money", from_wallet_id="wal_missing",
                                   recipient_id=contact, amount=1)
    assert box.check_integrity() == []


def test_send_money_needs_a_wallet_of_the_currency_and_room_in_the_limit(call, box):
    wallet, uid, contact = call.one(
        "SELECT w.wallet_id, w.user_id, c.contact_user_id FROM wallets w JOIN contacts c "
        "ON c.user_id = w.user_id WHERE w.currency = 'EUR' AND w.balance >= 5 AND NOT EXISTS ("
        "SELECT 1 FROM wallets o WHERE o.user_id = c.contact_user_id AND o.currency = 'EUR') "
        "LIMIT 1")
    assert "no EUR wallet" in call.err("send_money", from_wallet_id=wallet, recipient_id=contact,
                                       amount=1)
    uid, wallet, contact = _payer(call)
    limit, = call.one("SELECT daily_send_limit FROM users WHERE user_id = ?", (uid,))
    box.db.execute("UPDATE wallets SET balance = ? WHERE wallet_id = ?", (limit * 2, wallet))
    call.ok("send_money", from_wallet_id=wallet, recipient_id=contact, amount=limit - 1)
    assert "Daily send limit" in call.err("send_money", from_wallet_id=wallet,
                                          recipient_id=contact, amount=2)
    call.ok("send_money", from_wallet_id=wallet, recipient_id=contact, amount=1)


def test_requests(call, box):
    uid, _, contact = _payer(call)
    made = call.ok("request_money", user_id=uid, payer_id=contact, amount=42.5, currency="USD",
                   note="tickets")
    assert made["status"] == "pending"
    args = {"user_id": uid, "payer_id": contact, "currency": "USD"}
    assert "already pending" in call.err("request_money", **args, amount=42.5)
    assert "at most 5000" in call.err("request_money", **args, amount=6000)
    assert "themself" in call.err("request_money", **dict(args, payer_id=uid), amount=1)
    no_gbp, = call.one("SELECT u.user_id FROM users u WHERE NOT EXISTS (SELECT 1 FROM wallets "
                       "w WHERE w.user_id = u.user_id AND w.currency = 'GBP') AND EXISTS ("
                       "SELECT 1 FROM contacts c WHERE c.user_id = u.user_id) LIMIT 1")
    friend, = call.one("SELECT contact_user_id FROM contacts WHERE user_id = ? LIMIT 1",
                       (no_gbp,))
    assert "no GBP wallet" in call.err("request_money", user_id=no_gbp, payer_id=friend,
                                       amount=5, currency="GBP")
    assert call.ok("cancel_payment_request", request_id=made["request_id"])["status"] == \
        "cancelled"
    assert "already cancelled" in call.err("cancel_payment_request",
                                           request_id=made["request_id"])
    assert "already cancelled" in call.err("accept_payment_request",
                                           request_id=made["request_id"])
    pending, = call.one("SELECT request_id FROM payment_requests WHERE status = 'pending' "
                        "LIMIT 1")
    assert call.ok("decline_payment_request", request_id=pending)["status"] == "declined"
    assert "already declined" in call.err("decline_payment_request", request_id=pending)
    assert "not found" in call.err("decline_payment_request", request_id="req_missing")
    assert box.check_integrity() == []


def test_accept_request(call, box):
    request_id, payer, wallet, amount = call.one(
        "SELECT q.request_id, q.payer_id, w.wallet_id, q.amount FROM payment_requests q "
        "JOIN wallets w ON w.user_id = q.payer_id AND w.currency = q.currency "
        "WHERE q.status = 'pending' AND w.balance >= q.amount LIMIT 1")
    before = balance(call, wallet)
    paid = call.ok("accept_payment_request", request_id=request_id)
    assert paid["status"] == "completed" and paid["amount"] == amount
    assert balance(call, wallet) == money(before - amount)
    assert call.one("SELECT status, payment_id FROM payment_requests WHERE request_id = ?",
                    (request_id,)) == ("accepted", paid["payment_id"])
    broke, payer_wallet = call.one(
        "SELECT q.request_id, w.wallet_id FROM payment_requests q JOIN wallets w ON "
        "w.user_id = q.payer_id AND w.currency = q.currency WHERE q.status = 'pending' "
        "AND q.request_id != ? LIMIT 1", (request_id,))
    box.db.execute("UPDATE wallets SET balance = 0 WHERE wallet_id = ?", (payer_wallet,))
    assert "insufficient balance" in call.err("accept_payment_request",
                                              request_id=broke).lower()
    assert box.check_integrity() == []


def _refundable(call, status: str = "completed"):
    return call.one("SELECT p.payment_id, p.amount, p.wallet_id FROM payments p WHERE "
                    "p.merchant_id IS NOT NULL AND p.wallet_id IS NOT NULL AND p.status = ? "
                    "AND NOT EXISTS (SELECT 1 FROM disputes d WHERE d.payment_id = "
                    "p.payment_id) ORDER BY p.rowid LIMIT 1", (status,))


def test_refunds(call, box):
    payment, amount, wallet = _refundable(call)
    before = balance(call, wallet)
    part = call.ok("refund_merchant_payment", payment_id=payment, amount=1.5,
                   reason="damaged_item")
    assert part["status"] == "partially_refunded" and part["refunded_to"] == "wallet"
    assert balance(call, wallet) == money(before + 1.5)
    left = money(amount - 1.5)
    assert "At most" in call.err("refund_merchant_payment", payment_id=payment,
                                 amount=money(left + 0.01), reason="damaged_item")
    full = call.ok("refund_merchant_payment", payment_id=payment, amount=left,
                   reason="returned_item")
    assert full["status"] == "refunded" and full["refunded_amount"] == amount
    assert "fully refunded" in call.err("refund_merchant_payment", payment_id=payment,
                                        amount=1, reason="returned_item")
    person, = call.one("SELECT payment_id FROM payments WHERE recipient_id IS NOT NULL LIMIT 1")
    assert "payment to a person" in call.err("refund_merchant_payment", payment_id=person,
                                             amount=1, reason="returned_item")
    disputed, = call.one("SELECT d.payment_id FROM disputes d JOIN payments p USING "
                         "(payment_id) WHERE d.status = 'open' AND p.status != 'refunded' "
                         "LIMIT 1")
    assert "open dispute" in call.err("refund_merchant_payment", payment_id=disputed,
                                      amount=0.01, reason="returned_item")
    assert "must be one of" in call.err("refund_merchant_payment", payment_id=payment,
                                        amount=1, reason="changed_mind")
    carded, = call.one("SELECT payment_id FROM payments WHERE source_id IS NOT NULL "
                       "AND status = 'completed' AND NOT EXISTS (SELECT 1 FROM disputes d "
                       "WHERE d.payment_id = payments.payment_id) LIMIT 1")
    assert call.ok("refund_merchant_payment", payment_id=carded, amount=1,
                   reason="wrong_item")["refunded_to"] == "funding source"
    assert box.check_integrity() == []


def test_disputes(call, box):
    payment = call.one("SELECT payment_id FROM payments p WHERE merchant_id IS NOT NULL "
                       "AND status = 'completed' AND created_at >= '2025-01-01' AND NOT EXISTS "
                       "(SELECT 1 FROM disputes d WHERE d.payment_id = p.payment_id) LIMIT 1")[0]
    made = call.ok("open_dispute", payment_id=payment, reason="not_received")
    assert made["status"] == "open" and made["opened_on"] == TODAY
    assert "already disputed" in call.err("open_dispute", payment_id=payment,
                                          reason="duplicate")
    box.db.execute("UPDATE payments SET created_at = '2024-06-01T10:00:00' WHERE payment_id = "
                   "(SELECT payment_id FROM payments p WHERE merchant_id IS NOT NULL AND "
                   "status = 'completed' AND NOT EXISTS (SELECT 1 FROM disputes d WHERE "
                   "d.payment_id = p.payment_id) ORDER BY rowid DESC LIMIT 1)")
    old, = call.one("SELECT payment_id FROM payments WHERE created_at = '2024-06-01T10:00:00'")
    assert "within 180 days" in call.err("open_dispute", payment_id=old, reason="not_received")
    refunded, = call.one("SELECT payment_id FROM payments WHERE status = 'refunded' LIMIT 1")
    assert "fully refunded" in call.err("open_dispute", payment_id=refunded,
                                        reason="not_received")
    assert "not found" in call.err("open_dispute", payment_id="pmt_missing",
                                   reason="not_received")


def test_contacts(call, box):
    uid, username = call.one("SELECT user_id, username FROM users LIMIT 1")
    other, other_name = call.one("SELECT u.user_id, u.username FROM users u WHERE u.user_id != ? "
                                 "AND NOT EXISTS (SELECT 1 FROM contacts c WHERE c.user_id = ? "
                                 "AND c.contact_user_id = u.user_id) LIMIT 1", (uid, uid))
    made = call.ok("add_contact", user_id=uid, username="@" + other_name.upper(),
                   nickname="neighbor")
    assert made["user_id"] == other and made["contact_id"].startswith("con_")
    assert "already a contact" in call.err("add_contact", user_id=uid, username=other_name)
    assert "themself" in call.err("add_contact", user_id=uid, username=username)
    assert "No user has" in call.err("add_contact", user_id=uid, username="ghost_user")
    assert "too long" in call.err("add_contact", user_id=uid, username=other_name,
                                  nickname="n" * 61)
    assert call.ok("remove_contact", contact_id=made["contact_id"])["removed"]
    assert "not found" in call.err("remove_contact", contact_id=made["contact_id"])
    assert box.check_integrity() == []


def test_top_ups_and_withdrawals(call, box):
    wallet, bank, uid = call.one(
        "SELECT w.wallet_id, s.source_id, w.user_id FROM wallets w JOIN funding_sources s ON "
        "s.user_id = w.user_id AND s.kind = 'bank_account' AND s.status = 'active' "
        "WHERE w.currency = 'USD' LIMIT 1")
    before = balance(call, wallet)
    assert call.ok("add_money", wallet_id=wallet, source_id=bank, amount=100)[
        "wallet_balance"] == money(before + 100)
    assert call.ok("withdraw_money", wallet_id=wallet, source_id=bank, amount=50)[
        "wallet_balance"] == money(before + 50)
    assert "at most 2500" in call.err("add_money", wallet_id=wallet, source_id=bank,
                                      amount=2500.01)
    assert "insufficient balance" in call.err("withdraw_money", wallet_id=wallet,
                                              source_id=bank, amount=10_000_000).lower()
    credit, owner = call.one("SELECT source_id, user_id FROM funding_sources WHERE kind = "
                             "'credit_card' AND status = 'active' LIMIT 1")
    own_wallet, = call.one("SELECT wallet_id FROM wallets WHERE user_id = ? AND currency = "
                           "'USD'", (owner,))
    assert "credit card" in call.err("add_money", wallet_id=own_wallet, source_id=credit,
                                     amount=10)
    assert "only to a bank account" in call.err("withdraw_money", wallet_id=own_wallet,
                                                source_id=credit, amount=1)
    stranger, = call.one("SELECT source_id FROM funding_sources WHERE user_id != ? LIMIT 1",
                         (uid,))
    assert "does not belong" in call.err("add_money", wallet_id=wallet, source_id=stranger,
                                         amount=1)
    eur, eur_bank = call.one("SELECT w.wallet_id, s.source_id FROM wallets w JOIN "
                             "funding_sources s ON s.user_id = w.user_id AND s.kind = "
                             "'bank_account' AND s.status = 'active' WHERE w.currency = 'EUR' "
                             "LIMIT 1")
    assert "USD wallet only" in call.err("add_money", wallet_id=eur, source_id=eur_bank,
                                         amount=1)
    removed, removed_owner = call.one("SELECT source_id, user_id FROM funding_sources "
                                      "WHERE status = 'removed' LIMIT 1")
    removed_wallet, = call.one("SELECT wallet_id FROM wallets WHERE user_id = ? AND currency = "
                               "'USD'", (removed_owner,))
    assert "removed" in call.err("add_money", wallet_id=removed_wallet, source_id=removed,
                                 amount=1)
    assert box.check_integrity() == []


def test_conversions(call, box):
    usd, eur = call.one("SELECT a.wallet_id, b.wallet_id FROM wallets a JOIN wallets b ON "
                        "b.user_id = a.user_id AND b.currency = 'EUR' WHERE a.currency = 'USD' "
                        "AND a.balance >= 200 LIMIT 1")
    a, b = balance(call, usd), balance(call, eur)
    made = call.ok("convert_funds", from_wallet_id=usd, to_wallet_id=eur, amount=108)
    assert made["converted_amount"] == money(108 * rate("USD", "EUR")) == 100.0
    assert (balance(call, usd), balance(call, eur)) == (money(a - 108), money(b + 100))
    other, = call.one("SELECT wallet_id FROM wallets WHERE user_id != (SELECT user_id FROM "
                      "wallets WHERE wallet_id = ?) LIMIT 1", (usd,))
    assert "same user" in call.err("convert_funds", from_wallet_id=usd, to_wallet_id=other,
                                   amount=1)
    assert "must differ" in call.err("convert_funds", from_wallet_id=usd, to_wallet_id=usd,
                                     amount=1)
    assert "insufficient balance" in call.err("convert_funds", from_wallet_id=usd,
                                              to_wallet_id=eur, amount=10_000_000).lower()
    assert box.check_integrity() == []


def test_funding_sources(call, box):
    uid, default, other = call.one(
        "SELECT a.user_id, a.source_id, b.source_id FROM funding_sources a JOIN "
        "funding_sources b ON b.user_id = a.user_id AND b.source_id != a.source_id "
        "AND b.status = 'active' WHERE a.is_default = 1 LIMIT 1")
    assert "cannot be removed" in call.err("remove_funding_source", source_id=default)
    assert "already the default" in call.err("set_default_funding_source", source_id=default)
    assert call.ok("set_default_funding_source", source_id=other)["is_default"] is True
    assert call.ok("remove_funding_source", source_id=default)["status"] == "removed"
    assert "already removed" in call.err("remove_funding_source", source_id=default)
    assert "removed funding source" in call.err("set_default_funding_source",
                                                source_id=default)
    assert "not found" in call.err("remove_funding_source", source_id="src_missing")
    assert box.check_integrity() == []


def test_created_ids_never_clash_with_generated_ones(call):
    uid, _, contact = _payer(call)
    first = call.ok("request_money", user_id=uid, payer_id=contact, amount=1.11,
                    currency="USD")["request_id"]
    second = call.ok("request_money", user_id=uid, payer_id=contact, amount=2.22,
                     currency="USD")["request_id"]
    assert first != second and first.split("_")[1].isdigit()


def test_bad_input_leaves_the_state_alone(call, box):
    uid, wallet, contact = _payer(call)
    before = box.state_hash()
    assert "too long" in call.err("send_money", from_wallet_id="w" * 200_000,
                                  recipient_id=contact, amount=1)
    assert "must be of type number" in call.err("send_money", from_wallet_id=wallet,
                                                recipient_id=contact, amount="5")
    assert "finite" in call.err("send_money", from_wallet_id=wallet, recipient_id=contact,
                                amount=float("inf"))
    assert "unknown parameter" in call.err("send_money", from_wallet_id=wallet,
                                           recipient_id=contact, amount=1, fee=0)
    assert box.state_hash() == before


def test_invariants_catch_broken_rules(box):
    rules_catch(box, {
        "USD wallet": "UPDATE wallets SET currency = 'GBP' WHERE wallet_id = (SELECT "
        "w.wallet_id FROM wallets w WHERE w.currency = 'USD' AND NOT EXISTS (SELECT 1 FROM "
        "wallets o WHERE o.user_id = w.user_id AND o.currency = 'GBP') LIMIT 1)",
        "exactly one default": "UPDATE funding_sources SET is_default = 1 WHERE source_id = "
        "(SELECT source_id FROM funding_sources WHERE is_default = 0 AND status = 'active' "
        "LIMIT 1)",
        "sum of its refunds": "UPDATE payments SET refunded_amount = refunded_amount + 1 "
        "WHERE payment_id = (SELECT payment_id FROM refunds LIMIT 1)",
        "status follows its refunds": "UPDATE payments SET status = 'refunded' WHERE "
        "payment_id = (SELECT payment_id FROM payments WHERE status = 'completed' LIMIT 1)",
        "paid by its payer": "UPDATE payment_requests SET amount = amount + 1 WHERE "
        "status = 'accepted' AND rowid = (SELECT min(rowid) FROM payment_requests WHERE "
        "status = 'accepted')",
        "whole cents": "UPDATE wallets SET balance = balance + 0.001 WHERE rowid = 1",
        "within the sender's daily limit": "UPDATE payments SET created_at = "
        "'2025-02-20T09:00:00' WHERE recipient_id IS NOT NULL AND sender_id = (SELECT "
        "p.sender_id FROM payments p JOIN users u ON u.user_id = p.sender_id WHERE "
        "u.daily_send_limit = 500 AND p.recipient_id IS NOT NULL GROUP BY p.sender_id "
        "HAVING sum(p.amount) > 700 LIMIT 1)",
    })
