"""Video meeting's growth recipe (``tests/fuzz/growth.py`` finds it here): new meetings with
the longest titles, each on its own day, and new guests invited to one meeting."""
from __future__ import annotations

import sqlite3

from tool_gym.domains.video_meeting.tools import MAX_TITLE


def recipe(db: sqlite3.Connection, text: str):
    """``step(i) -> (tool, arguments)``: calls that add rows every time they succeed."""
    host, meeting = db.execute(
        "SELECT m.host_id, m.meeting_id FROM meetings m JOIN users u ON u.user_id = m.host_id "
        "WHERE m.status = 'scheduled' AND u.plan = 'business' ORDER BY m.meeting_id").fetchone()

    def step(i: int):
        if i % 2:
            return "invite_participant", {"meeting_id": meeting, "user_id": host,
                                          "email": f"guest{i}@growth.example.com"}
        day = 1 + i // 2
        return "schedule_meeting", {"user_id": host, "title": text[:MAX_TITLE],
                                    "start": f"2026-{1 + day // 28 % 12:02d}-{1 + day % 28:02d} "
                                             f"{7 + day // 336:02d}:00", "minutes": 30}
    return step
