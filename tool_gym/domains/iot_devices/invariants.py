"""Rules every smart home database keeps (generated data and after any tool call).

``invariants(db)`` returns the problems found (empty when every rule holds).
"""

from __future__ import annotations

from ...core.rules import rule_checker

RULES: list[tuple[str, str]] = [
    ("a home's owner is its one member with the owner role",
     "SELECT h.home_id FROM homes h WHERE NOT EXISTS (SELECT 1 FROM home_members m "
     "WHERE m.home_id = h.home_id AND m.user_id = h.owner_id AND m.role = 'owner') "
     "OR (SELECT count(*) FROM home_members m WHERE m.home_id = h.home_id "
     "AND m.role = 'owner') != 1"),
    ("a home has at most 8 members",
     "SELECT home_id FROM home_members GROUP BY home_id HAVING count(*) > 8"),
    ("a device's room is in the device's home",
     "SELECT d.device_id FROM devices d JOIN rooms r ON r.room_id = d.room_id "
     "WHERE r.home_id != d.home_id"),
    ("a thermostat's set point is in steps of 0.5 degrees",
     "SELECT device_id FROM devices WHERE kind = 'thermostat' "
     "AND abs(target_temp * 2 - round(target_temp * 2)) > 1e-9"),
    ("a camera records only while it is on",
     "SELECT device_id FROM devices WHERE kind = 'camera' AND recording = 1 AND power = 'off'"),
    ("a scene and its actions belong to one home",
     "SELECT a.scene_id || ' ' || a.device_id FROM scene_actions a "
     "JOIN scenes s ON s.scene_id = a.scene_id JOIN devices d ON d.device_id = a.device_id "
     "WHERE d.home_id != s.home_id"),
    ("an automation's device is in the automation's home",
     "SELECT a.automation_id FROM automations a JOIN devices d ON d.device_id = a.device_id "
     "WHERE d.home_id != a.home_id"),
    ("a command fits its device's kind and carries a value exactly when it needs one",
     "SELECT x.id FROM (SELECT a.scene_id || ' ' || a.device_id AS id, a.device_id, "
     "a.command, a.value FROM scene_actions a UNION ALL SELECT automation_id, device_id, "
     "command, value FROM automations) x JOIN devices d ON d.device_id = x.device_id "
     "WHERE NOT ((x.command IN ('turn_on') AND d.kind IN ('light', 'plug', 'camera')) "
     "OR (x.command = 'turn_off' AND d.kind IN ('light', 'plug', 'camera', 'thermostat')) "
     "OR (x.command = 'set_brightness' AND d.kind = 'light') "
     "OR (x.command = 'set_temperature' AND d.kind = 'thermostat') "
     "OR (x.command IN ('lock', 'unlock') AND d.kind = 'lock') "
     "OR (x.command IN ('start_recording', 'stop_recording') AND d.kind = 'camera')) "
     "OR (x.command IN ('set_brightness', 'set_temperature')) != (x.value IS NOT NULL)"),
    ("a schedule's time is HH:MM",
     "SELECT automation_id FROM automations WHERE time NOT GLOB '[0-2][0-9]:[0-5][0-9]' "
     "OR substr(time, 1, 2) > '23'"),
    ("energy is read only from plugs and thermostats",
     "SELECT e.device_id || ' ' || e.day FROM energy_readings e JOIN devices d "
     "ON d.device_id = e.device_id WHERE d.kind NOT IN ('plug', 'thermostat')"),
]

invariants = rule_checker(RULES)
