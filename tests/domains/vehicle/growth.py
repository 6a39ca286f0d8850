"""The vehicle domain's growth recipe (see ``tests/fuzz/growth.py``): save places for the
owners in turn and share digital keys of the vehicles in turn, each call a new row."""

from __future__ import annotations

import sqlite3


def recipe(db: sqlite3.Connection, text: str):
    owners = [r[0] for r in db.execute("SELECT owner_id FROM owners ORDER BY owner_id")]
    vehicles = [r[0] for r in db.execute("SELECT vehicle_id FROM vehicles ORDER BY vehicle_id")]

    def step(i: int):
        if i % 2:
            return "share_digital_key", {
                "vehicle_id": vehicles[(i // 2) % len(vehicles)], "holder_name": text[:80],
                "holder_email": f"growth{i}@example.com", "access": "drive_only",
                "expires_on": "2025-06-30"}
        return "save_place", {"owner_id": owners[(i // 2) % len(owners)],
                              "label": f"Growth place {i}", "address": text[:200],
                              "city": "Denver", "category": "favorite"}
    return step
