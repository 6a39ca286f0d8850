"""Which airline users the kit draws and loads: rowid draws, distractor preference and the
SQL prefilter of rare first needs."""

from __future__ import annotations

import sqlite3

import numpy as np

from ...core.taskkit import UserDraws

#: A necessary condition (one row) for a user to satisfy a rare first need.
_NOT_ALL_AVAILABLE = (
    "EXISTS (SELECT 1 FROM reservation_flights f LEFT JOIN flight_dates d ON "
    "d.flight_number = f.flight_number AND d.date = f.date WHERE "
    "f.reservation_id = r.reservation_id AND (d.status IS NULL OR d.status != 'available'))")
_LEAD_SQL = {
    "compensation_certificate": (
        "SELECT 1 FROM reservations r JOIN users u ON u.user_id = r.user_id "
        "JOIN reservation_flights f ON f.reservation_id = r.reservation_id "
        "JOIN flight_dates d ON d.flight_number = f.flight_number AND d.date = f.date "
        "WHERE r.user_id = ? AND r.status IS NULL AND d.status = 'cancelled' AND "
        "(u.membership IN ('silver', 'gold') OR r.insurance = 'yes' OR r.cabin = 'business') "
        "LIMIT 1"),
    "refuse_basic_economy_change": (
        "SELECT 1 FROM reservations r WHERE r.user_id = ? AND r.status IS NULL AND "
        f"r.cabin = 'basic_economy' AND NOT {_NOT_ALL_AVAILABLE} LIMIT 1"),
    "change_flights": (
        "SELECT 1 FROM reservations r WHERE r.user_id = ? AND r.status IS NULL AND "
        f"r.cabin != 'basic_economy' AND NOT {_NOT_ALL_AVAILABLE} LIMIT 1"),
}
#: Reservations a "user with distractors" has at least.
_DISTRACTOR_MIN = 4


def may_lead(db: sqlite3.Connection, kind: str, user_id: str) -> bool:
    """Whether the user may satisfy a first need of type ``kind`` (rare types checked)."""
    sql = _LEAD_SQL.get(kind)
    return sql is None or db.execute(sql, (user_id,)).fetchone() is not None


def has_distractors(db: sqlite3.Connection, user_id: str) -> bool:
    """The user has several reservations (descriptions must tell them apart)."""
    n = db.execute("SELECT count(*) FROM reservations WHERE user_id = ?", (user_id,)).fetchone()
    return n[0] >= _DISTRACTOR_MIN


def _rowids(rng: np.random.Generator, lo: int, hi: int, size: int) -> list[int]:
    return [lo + int(x * (hi - lo + 1)) for x in rng.random(size)]


DRAWS = UserDraws(preferred_batches=4, rowids=_rowids, retry_failed_leads=True)
