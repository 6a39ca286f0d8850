"""Rules every video meeting database keeps (generated data and after any tool call).

``invariants(db)`` returns the problems found (empty when every rule holds).
"""

from __future__ import annotations

from ...core.rules import rule_checker
from .tools import NOW, PLANS

_END = "datetime({0}.start_time, '+' || {0}.duration_minutes || ' minutes')"
_LIVE = "status IN ('scheduled', 'in_progress')"
_BASIC_MAX = PLANS["basic"]["max_minutes"]
_NO_CLOUD = ", ".join(f"'{p}'" for p, limits in PLANS.items() if not limits["cloud_recording"])
_QUOTA = " ".join(f"WHEN '{p}' THEN {limits['storage_mb']}" for p, limits in PLANS.items())

RULES: list[tuple[str, str]] = [
    ("a host never has two scheduled or live meetings at once",
     f"SELECT a.meeting_id FROM meetings a JOIN meetings b ON b.host_id = a.host_id "
     f"AND b.meeting_id != a.meeting_id WHERE a.{_LIVE} AND b.{_LIVE} "
     f"AND datetime(a.start_time) < {_END.format('b')} "
     f"AND datetime(b.start_time) < {_END.format('a')}"),
    ("a conference room holds one meeting at a time, of its own organization",
     f"SELECT a.meeting_id FROM meetings a JOIN conference_rooms r ON r.room_id = a.room_id "
     f"JOIN users h ON h.user_id = a.host_id WHERE h.org_id != r.org_id OR (a.{_LIVE} AND "
     f"EXISTS (SELECT 1 FROM meetings b WHERE b.room_id = a.room_id AND b.meeting_id != "
     f"a.meeting_id AND b.{_LIVE} AND datetime(a.start_time) < {_END.format('b')} "
     f"AND datetime(b.start_time) < {_END.format('a')}))"),
    ("a meeting's status matches the clock",
     f"SELECT meeting_id FROM meetings m WHERE (status = 'scheduled' AND datetime(start_time) "
     f"<= datetime('{NOW}')) OR (status = 'completed' AND {_END.format('m')} > "
     f"datetime('{NOW}')) OR (status = 'in_progress' AND (datetime(start_time) > "
     f"datetime('{NOW}') OR {_END.format('m')} <= datetime('{NOW}')))"),
    ("a meeting lasts no longer than its host's plan allows",
     f"SELECT m.meeting_id FROM meetings m JOIN users h ON h.user_id = m.host_id "
     f"WHERE h.plan = 'basic' AND m.duration_minutes > {_BASIC_MAX}"),
    ("a passcode is six digits",
     "SELECT meeting_id FROM meetings WHERE length(passcode) != 6 OR passcode GLOB '*[^0-9]*'"),
    ("automatic cloud recording only on plans with cloud recording",
     f"SELECT m.meeting_id FROM meetings m JOIN users h ON h.user_id = m.host_id "
     f"WHERE m.auto_recording = 1 AND h.plan IN ({_NO_CLOUD})"),
    ("the host is not one of the invitees",
     "SELECT i.meeting_id FROM invitations i JOIN meetings m ON m.meeting_id = i.meeting_id "
     "JOIN users h ON h.user_id = m.host_id WHERE i.email = h.email"),
    ("a co-host belongs to the host's organization",
     "SELECT i.meeting_id FROM invitations i JOIN meetings m ON m.meeting_id = i.meeting_id "
     "JOIN users h ON h.user_id = m.host_id JOIN organizations o ON o.org_id = h.org_id "
     "WHERE i.role = 'co_host' AND i.email NOT LIKE '%@' || o.domain"),
    ("a breakout room member is an invitee of its meeting, in one room of it",
     "SELECT a.breakout_room_id FROM breakout_assignments a JOIN breakout_rooms b "
     "ON b.breakout_room_id = a.breakout_room_id WHERE NOT EXISTS (SELECT 1 FROM invitations i "
     "WHERE i.meeting_id = b.meeting_id AND i.email = a.email) OR (SELECT count(*) FROM "
     "breakout_assignments x JOIN breakout_rooms y ON y.breakout_room_id = x.breakout_room_id "
     "WHERE y.meeting_id = b.meeting_id AND x.email = a.email) > 1"),
    ("only a live meeting with its waiting room on has people waiting, none of them present",
     "SELECT w.entry_id FROM waiting_room w JOIN meetings m ON m.meeting_id = w.meeting_id "
     "WHERE m.status != 'in_progress' OR m.waiting_room = 0 OR EXISTS (SELECT 1 FROM "
     "attendance a WHERE a.meeting_id = w.meeting_id AND a.email = w.email)"),
    ("only a live or past meeting has attendance",
     "SELECT a.meeting_id FROM attendance a JOIN meetings m ON m.meeting_id = a.meeting_id "
     "WHERE m.status NOT IN ('in_progress', 'completed')"),
    ("a recording is of a past meeting of a host with cloud recording, no longer than it",
     f"SELECT r.recording_id FROM recordings r JOIN meetings m ON m.meeting_id = r.meeting_id "
     f"JOIN users h ON h.user_id = m.host_id WHERE m.status != 'completed' OR h.plan IN "
     f"({_NO_CLOUD}) OR r.duration_minutes > m.duration_minutes"),
    ("a host's recordings fit the plan's storage",
     f"SELECT h.user_id FROM users h WHERE (SELECT coalesce(sum(r.size_mb), 0) FROM recordings r "
     f"JOIN meetings m ON m.meeting_id = r.meeting_id WHERE m.host_id = h.user_id) > "
     f"CASE h.plan {_QUOTA} END"),
    ("a recording is shared only with members of the host's organization, not the host",
     "SELECT s.recording_id FROM recording_shares s JOIN recordings r ON r.recording_id = "
     "s.recording_id JOIN meetings m ON m.meeting_id = r.meeting_id JOIN users h ON "
     "h.user_id = m.host_id WHERE s.email = h.email OR NOT EXISTS (SELECT 1 FROM users u "
     "WHERE u.email = s.email AND u.org_id = h.org_id)"),
]


invariants = rule_checker(RULES)
