"""The smart home's growth recipe (``tests/fuzz/growth.py`` finds it here): lock and unlock
a door in turn (each a new device event) and add scene commands, then new scenes."""
from __future__ import annotations

import sqlite3


def recipe(db: sqlite3.Connection, text: str):
    """``step(i) -> (tool, arguments)``: calls that add rows every time they succeed."""
    lock, owner, home = db.execute(
        "SELECT d.device_id, h.owner_id, h.home_id FROM devices d JOIN homes h "
        "ON h.home_id = d.home_id WHERE d.kind = 'lock' AND d.status = 'online' "
        "AND d.lock_state != 'jammed' ORDER BY d.device_id").fetchone()
    state = {"locked": db.execute("SELECT lock_state FROM devices WHERE device_id = ?",
                                  (lock,)).fetchone()[0] == "locked"}

    def step(i: int):
        if i % 5 == 4:
            return "create_scene", {"home_id": home, "user_id": owner,
                                    "name": f"growth {i} {text[:20]}"}
        state["locked"] = not state["locked"]
        return ("lock_door" if state["locked"] else "unlock_door"), {
            "device_id": lock, "user_id": owner}
    return step
