"""Each smart home tool: its success path and its error paths; failed writes change nothing."""

from __future__ import annotations

from collections import Counter

from tool_gym.core.tools import Category
from tool_gym.domains.iot_devices import DOMAIN
from tool_gym.domains.iot_devices.tools import NOW, TODAY

from ..calls import fails, ok, one, rules_catch


def device(box, kind: str, where: str = "1", role: str = "owner") -> tuple:
    """``(device_id, user_id, home_id)`` of an online device of ``kind`` and a user with
    ``role`` in its home."""
    return one(box, "SELECT d.device_id, m.user_id, d.home_id FROM devices d JOIN home_members m "
                    f"ON m.home_id = d.home_id WHERE d.kind = ? AND m.role = ? AND d.status = "
                    f"'online' AND {where} ORDER BY d.rowid LIMIT 1", (kind, role))


def state(box, device_id: str, columns: str) -> tuple:
    return one(box, f"SELECT {columns} FROM devices WHERE device_id = ?", (device_id,))


def events(box, device_id: str) -> int:
    return one(box, "SELECT count(*) FROM device_events WHERE device_id = ?", (device_id,))[0]


# ------------------------------------------------------------------------- schemas


def test_toolbox_has_enough_reads_and_writes():
    counts = Counter(t.category for t in DOMAIN.toolbox)
    assert len(DOMAIN.toolbox) >= 25
    assert counts[Category.READ] >= 10 and counts[Category.WRITE] >= 15
    for t in DOMAIN.toolbox:
        if t.category is Category.WRITE:
            assert "user_id" in t.required, t.name  # every write names who makes it


# --------------------------------------------------------------------------- reads

def test_find_user_and_profile(box, state):
    user = state["users"][5]
    assert ok(box, "find_user_by_email", email=f" {user['email'].upper()} ") == user["user_id"]
    assert ok(box, "find_user_by_username", username=user["username"]) == user["user_id"]
    fails(box, "find_user_by_email", "no user", email="nobody@example.com")
    fails(box, "find_user_by_username", "no user", username="nobody")
    profile = ok(box, "get_user_profile", user_id=user["user_id"])
    assert profile["email"] == user["email"] and profile["homes"]
    assert {h["role"] for h in profile["homes"]} <= {"owner", "admin", "member", "guest"}
    fails(box, "get_user_profile", "not found", user_id="usr_missing")


def test_homes_rooms_and_members(box):
    home, owner = one(box, "SELECT home_id, owner_id FROM homes ORDER BY rowid LIMIT 1")
    homes = ok(box, "list_homes", user_id=owner)["homes"]
    mine = next(h for h in homes if h["home_id"] == home)
    assert mine["role"] == "owner" and mine["device_count"] > 0
    assert isinstance(mine["away_mode"], bool)
    details = ok(box, "get_home", home_id=home)
    assert details["owner_id"] == owner and details["rooms"]
    assert sum(details["device_counts"].values()) == mine["device_count"]
    rooms = ok(box, "list_rooms", home_id=home)["rooms"]
    assert {r["room_id"] for r in rooms} == {r["room_id"] for r in details["rooms"]}
    members = ok(box, "list_home_members", home_id=home)["members"]
    assert [m["role"] for m in members].count("owner") == 1
    for name in ("get_home", "list_rooms", "list_home_members", "list_scenes",
                 "list_automations", "list_devices"):
        fails(box, name, "not found", home_id="home_missing")
    fails(box, "list_homes", "not found", user_id="usr_missing")


def test_list_devices_filters(box):
    home, = one(box, "SELECT home_id FROM devices GROUP BY home_id HAVING count(DISTINCT kind) "
                     ">= 4 LIMIT 1")
    everything = ok(box, "list_devices", home_id=home)["devices"]
    assert len({d["kind"] for d in everything}) >= 4
    locks = ok(box, "list_devices", home_id=home, kind="lock")["devices"]
    assert locks and all(d["kind"] == "lock" and "lock_state" in d and "power" not in d
                         for d in locks)
    room = everything[0]["room_id"]
    in_room = ok(box, "list_devices", home_id=home, room_id=room)["devices"]
    assert in_room and all(d["room_id"] == room for d in in_room)
    other_room, = one(box, "SELECT room_id FROM rooms WHERE home_id != ? LIMIT 1", (home,))
    fails(box, "list_devices", "not in home", home_id=home, room_id=other_room)
    fails(box, "list_devices", "unknown device kind", home_id=home, kind="toaster")
    fails(box, "list_devices", "not found", home_id=home, room_id="room_missing")


def test_get_device_and_events(box):
    lock, _, home = device(box, "lock")
    record = ok(box, "get_device", device_id=lock)
    assert record["home_id"] == home and record["kind"] == "lock" and record["firmware"]
    history = ok(box, "get_device_events", device_id=lock)["events"]
    stamps = [e["at"] for e in history]
    assert stamps == sorted(stamps, reverse=True)
    assert {e["event"] for e in history} <= {"locked", "unlocked", "jammed"}
    day = history[0]["at"][:10]
    same = ok(box, "get_device_events", device_id=lock, start_date=day, end_date=day)["events"]
    assert same and all(e["at"].startswith(day) for e in same)
    fails(box, "get_device_events", "YYYY-MM-DD", device_id=lock, start_date="June 1")
    fails(box, "get_device_events", "after end_date", device_id=lock, start_date="2024-06-10",
          end_date="2024-06-01")
    fails(box, "get_device", "not found", device_id="dev_missing")


def test_energy_usage(box):
    plug, = one(box, "SELECT device_id FROM devices WHERE kind = 'plug' LIMIT 1")
    used = ok(box, "get_energy_usage", device_id=plug, start_date="2024-06-01",
              end_date="2024-06-07")
    assert len(used["readings"]) == 7
    assert used["total_kwh"] == round(sum(r["kwh"] for r in used["readings"]), 2)
    today = ok(box, "get_energy_usage", device_id=plug, start_date=TODAY, end_date=TODAY)
    assert today["readings"] == [] and today["total_kwh"] == 0
    light, = one(box, "SELECT device_id FROM devices WHERE kind = 'light' LIMIT 1")
    fails(box, "get_energy_usage", "report energy", device_id=light, start_date="2024-06-01",
          end_date="2024-06-07")
    fails(box, "get_energy_usage", "at most 92 days", device_id=plug, start_date="2024-01-01",
          end_date="2024-06-07")
    fails(box, "get_energy_usage", "after end_date", device_id=plug, start_date="2024-06-07",
          end_date="2024-06-01")
    fails(box, "get_energy_usage", "valid date", device_id=plug, start_date="2024-02-30",
          end_date="2024-06-01")


def test_scenes_and_automations_lists(box):
    home, = one(box, "SELECT home_id FROM automations LIMIT 1")
    automations = ok(box, "list_automations", home_id=home)["automations"]
    assert automations and all(a["status"] in ("active", "paused") for a in automations)
    home, = one(box, "SELECT home_id FROM scenes LIMIT 1")
    scenes = ok(box, "list_scenes", home_id=home)["scenes"]
    assert scenes and all(s["actions"] for s in scenes)
    assert ok(box, "transfer_to_human_agents", summary="help") == "Transfer successful"


# -------------------------------------------------------------------------- device writes

def test_set_thermostat(box):
    t, user, _ = device(box, "thermostat", "target_temp != 21.5", "member")
    before = events(box, t)
    record = ok(box, "set_thermostat", device_id=t, user_id=user, hvac_mode="heat",
                target_temp=21.5)
    assert (record["hvac_mode"], record["target_temp"]) == ("heat", 21.5)
    assert state(box, t, "hvac_mode, target_temp") == ("heat", 21.5)
    assert events(box, t) == before + 1
    args = {"device_id": t, "user_id": user}
    fails(box, "set_thermostat", "already", **args, hvac_mode="heat", target_temp=21.5)
    fails(box, "set_thermostat", "between 10 and 30", **args, hvac_mode="heat", target_temp=35)
    fails(box, "set_thermostat", "steps of 0.5", **args, hvac_mode="heat", target_temp=21.3)
    fails(box, "set_thermostat", "must be one of", **args, hvac_mode="dry", target_temp=21)
    fails(box, "set_thermostat", "must be of type number", **args, hvac_mode="heat",
          target_temp="21")
    light, _, _ = device(box, "light")
    fails(box, "set_thermostat", "only a thermostat", device_id=light, user_id=user,
          hvac_mode="heat", target_temp=21)


def test_guests_switch_only_lights_and_plugs(box):
    light, guest, home = device(box, "light", "power = 'off'", "guest")
    ok(box, "set_power", device_id=light, user_id=guest, power="on")
    assert state(box, light, "power") == ("on",)
    fails(box, "set_power", "already on", device_id=light, user_id=guest, power="on")
    thermostat, = one(box, "SELECT device_id FROM devices WHERE home_id = ? "
                           "AND kind = 'thermostat' LIMIT 1", (home,))
    fails(box, "set_thermostat", "guest", device_id=thermostat, user_id=guest,
          hvac_mode="cool", target_temp=24)
    lock, = one(box, "SELECT device_id FROM devices WHERE home_id = ? AND kind = 'lock' "
                     "LIMIT 1", (home,))
    fails(box, "unlock_door", "guest", device_id=lock, user_id=guest)
    stranger, = one(box, "SELECT user_id FROM users WHERE user_id NOT IN (SELECT user_id "
                         "FROM home_members WHERE home_id = ?) LIMIT 1", (home,))
    fails(box, "set_power", "no access", device_id=light, user_id=stranger, power="off")
    fails(box, "set_power", "not found", device_id=light, user_id="usr_missing", power="off")


def test_set_power_and_brightness(box):
    camera, user, _ = device(box, "camera", "power = 'on' AND recording = 1")
    ok(box, "set_power", device_id=camera, user_id=user, power="off")
    assert state(box, camera, "power, recording") == ("off", 0)  # off stops the recording
    fails(box, "set_camera_recording", "switched off", device_id=camera, user_id=user,
          recording=True)
    light, user, _ = device(box, "light", "power = 'off'")
    ok(box, "set_brightness", device_id=light, user_id=user, brightness=35)
    assert state(box, light, "power, brightness") == ("on", 35)
    fails(box, "set_brightness", "already on at 35", device_id=light, user_id=user,
          brightness=35)
    fails(box, "set_brightness", "whole percent", device_id=light, user_id=user, brightness=0)
    fails(box, "set_brightness", "whole percent", device_id=light, user_id=user,
          brightness=150)
    plug, user, _ = device(box, "plug")
    fails(box, "set_brightness", "only a light", device_id=plug, user_id=user, brightness=50)
    lock, user, _ = device(box, "lock")
    fails(box, "set_power", "only a light or plug or camera", device_id=lock, user_id=user,
          power="on")
    offline, user = one(box, "SELECT d.device_id, h.owner_id FROM devices d JOIN homes h "
                             "ON h.home_id = d.home_id WHERE d.kind = 'plug' "
                             "AND d.status = 'offline' LIMIT 1")
    fails(box, "set_power", "offline", device_id=offline, user_id=user, power="on")


def test_lock_and_unlock(box):
    lock, user, _ = device(box, "lock", "lock_state = 'unlocked'", "member")
    before = events(box, lock)
    assert ok(box, "lock_door", device_id=lock, user_id=user)["lock_state"] == "locked"
    fails(box, "lock_door", "already locked", device_id=lock, user_id=user)
    assert ok(box, "unlock_door", device_id=lock, user_id=user)["lock_state"] == "unlocked"
    last = one(box, "SELECT event, user_id, at FROM device_events WHERE device_id = ? "
                    "ORDER BY rowid DESC LIMIT 1", (lock,))
    assert last == ("unlocked", user, NOW) and events(box, lock) == before + 2
    jammed, user, _ = device(box, "lock", "lock_state = 'jammed'")
    fails(box, "unlock_door", "jammed", device_id=jammed, user_id=user)
    fails(box, "lock_door", "not found", device_id="dev_missing", user_id=user)


def test_camera_recording(box):
    camera, user, _ = device(box, "camera", "power = 'on' AND recording = 0")
    assert ok(box, "set_camera_recording", device_id=camera, user_id=user,
              recording=True)["recording"] is True
    fails(box, "set_camera_recording", "already recording", device_id=camera, user_id=user,
          recording=True)
    fails(box, "set_camera_recording", "must be of type boolean", device_id=camera,
          user_id=user, recording="yes")


def test_rename_and_move(box):
    light, admin, home = device(box, "light", "EXISTS (SELECT 1 FROM home_members x WHERE "
                                "x.home_id = d.home_id AND x.role IN ('member', 'guest'))",
                                "admin")
    ok(box, "rename_device", device_id=light, user_id=admin, name="  Reading   Lamp ")
    assert state(box, light, "name") == ("Reading Lamp",)
    other, = one(box, "SELECT name FROM devices WHERE home_id = ? AND device_id != ? LIMIT 1",
                 (home, light))
    fails(box, "rename_device", "already named", device_id=light, user_id=admin,
          name=other.upper())
    fails(box, "rename_device", "must not be empty", device_id=light, user_id=admin, name=" ")
    fails(box, "rename_device", "at most 40", device_id=light, user_id=admin, name="x" * 41)
    member, = one(box, "SELECT user_id FROM home_members WHERE home_id = ? AND role IN "
                       "('member', 'guest') LIMIT 1", (home,))
    fails(box, "rename_device", "needs the role", device_id=light, user_id=member, name="Nope")
    room, = one(box, "SELECT room_id FROM rooms WHERE home_id = ? AND room_id != (SELECT "
                     "room_id FROM devices WHERE device_id = ?) LIMIT 1", (home, light))
    assert ok(box, "move_device", device_id=light, user_id=admin, room_id=room)["room_id"] == room
    fails(box, "move_device", "already in that room", device_id=light, user_id=admin,
          room_id=room)
    elsewhere, = one(box, "SELECT room_id FROM rooms WHERE home_id != ? LIMIT 1", (home,))
    fails(box, "move_device", "another home", device_id=light, user_id=admin, room_id=elsewhere)
    assert box.check_integrity() == []


# --------------------------------------------------------------- scenes and automations

def test_scene_lifecycle(box):
    light, owner, home = device(box, "light", "power = 'off'")
    scene = ok(box, "create_scene", home_id=home, user_id=owner, name="Late Show")
    scene_id = scene["scene_id"]
    assert scene["actions"] == [] and scene["last_activated"] is None
    fails(box, "create_scene", "already has a scene", home_id=home, user_id=owner,
          name="late show")
    fails(box, "activate_scene", "no commands", scene_id=scene_id, user_id=owner)
    ok(box, "add_scene_action", scene_id=scene_id, user_id=owner, device_id=light,
       command="set_brightness", value=20)
    fails(box, "add_scene_action", "already has a command", scene_id=scene_id, user_id=owner,
          device_id=light, command="turn_off")
    plug, = one(box, "SELECT device_id FROM devices WHERE home_id = ? AND kind = 'plug' "
                     "LIMIT 1", (home,))
    fails(box, "add_scene_action", "takes no value", scene_id=scene_id, user_id=owner,
          device_id=plug, command="turn_on", value=3)
    fails(box, "add_scene_action", "does not take", scene_id=scene_id, user_id=owner,
          device_id=plug, command="lock")
    elsewhere, = one(box, "SELECT device_id FROM devices WHERE home_id != ? LIMIT 1", (home,))
    fails(box, "add_scene_action", "another home", scene_id=scene_id, user_id=owner,
          device_id=elsewhere, command="turn_on")
    ran = ok(box, "activate_scene", scene_id=scene_id, user_id=owner)
    assert ran["last_activated"] == NOW and ran["applied"][0]["changed"] is True
    assert state(box, light, "power, brightness") == ("on", 20)
    again = ok(box, "activate_scene", scene_id=scene_id, user_id=owner)
    assert again["applied"][0]["changed"] is False
    ok(box, "delete_scene", scene_id=scene_id, user_id=owner)
    assert one(box, "SELECT count(*) FROM scene_actions WHERE scene_id = ?", (scene_id,)) == (0,)
    fails(box, "delete_scene", "not found", scene_id=scene_id, user_id=owner)
    assert box.check_integrity() == []


def test_scene_skips_offline_devices_and_guests_cannot_run_scenes(box):
    scene, owner, offline = one(
        box, "SELECT s.scene_id, h.owner_id, a.device_id FROM scenes s JOIN homes h "
             "ON h.home_id = s.home_id JOIN scene_actions a ON a.scene_id = s.scene_id "
             "JOIN devices d ON d.device_id = a.device_id WHERE d.status = 'offline' LIMIT 1")
    before = state(box, offline, "power, brightness, hvac_mode, target_temp, lock_state")
    ran = ok(box, "activate_scene", scene_id=scene, user_id=owner)
    assert offline in {s["device_id"] for s in ran["skipped"]}
    assert state(box, offline, "power, brightness, hvac_mode, target_temp, lock_state") == before
    guest, = one(box, "SELECT m.user_id FROM home_members m JOIN scenes s "
                      "ON s.home_id = m.home_id WHERE m.role = 'guest' LIMIT 1")
    scene, = one(box, "SELECT s.scene_id FROM scenes s JOIN home_members m ON m.home_id = "
                      "s.home_id WHERE m.user_id = ? LIMIT 1", (guest,))
    fails(box, "activate_scene", "guest", scene_id=scene, user_id=guest)
    assert box.check_integrity() == []


def test_automations(box):
    plug, owner, home = device(box, "plug")
    made = ok(box, "create_automation", device_id=plug, user_id=owner, name="Night Off",
              command="turn_off", time="23:30", days="weekdays")
    automation = made["automation_id"]
    assert (made["status"], made["time"], made["value"]) == ("active", "23:30", None)
    args = {"device_id": plug, "user_id": owner, "command": "turn_off", "days": "daily"}
    fails(box, "create_automation", "already has an automation", **args, name="NIGHT OFF",
          time="22:00")
    fails(box, "create_automation", "HH:MM", **args, name="Other", time="24:00")
    fails(box, "create_automation", "HH:MM", **args, name="Other", time="7pm")
    fails(box, "create_automation", "does not take", device_id=plug, user_id=owner,
          name="Other", command="set_temperature", time="07:00", days="daily", value=20)
    fails(box, "create_automation", "must be one of", **{**args, "days": "mondays"},
          name="Other", time="07:00")
    thermostat, = one(box, "SELECT device_id FROM devices WHERE home_id = ? "
                           "AND kind = 'thermostat' LIMIT 1", (home,))
    warm = ok(box, "create_automation", device_id=thermostat, user_id=owner, name="Warm Up",
              command="set_temperature", time="06:15", days="daily", value=21.5)
    assert warm["value"] == 21.5
    assert ok(box, "pause_automation", automation_id=automation,
              user_id=owner)["status"] == "paused"
    fails(box, "pause_automation", "already paused", automation_id=automation, user_id=owner)
    assert ok(box, "resume_automation", automation_id=automation,
              user_id=owner)["status"] == "active"
    fails(box, "resume_automation", "already active", automation_id=automation, user_id=owner)
    ok(box, "delete_automation", automation_id=automation, user_id=owner)
    fails(box, "delete_automation", "not found", automation_id=automation, user_id=owner)
    member, = one(box, "SELECT m.user_id FROM home_members m JOIN automations a "
                       "ON a.home_id = m.home_id WHERE m.role = 'member' LIMIT 1")
    theirs, = one(box, "SELECT a.automation_id FROM automations a JOIN home_members m "
                       "ON m.home_id = a.home_id WHERE m.user_id = ? LIMIT 1", (member,))
    fails(box, "pause_automation", "needs the role", automation_id=theirs, user_id=member)
    assert box.check_integrity() == []


def test_automation_unlocking_a_door_is_left_to_the_policy(box):
    lock, owner, _ = device(box, "lock")
    # the tool makes it; the kit flags it (tests/domains/iot_devices/test_tasks.py)
    ok(box, "create_automation", device_id=lock, user_id=owner, name="Open Up",
       command="unlock", time="08:00", days="daily")


# ----------------------------------------------------------------------- sharing

def test_share_revoke_and_roles(box):
    home, owner = one(box, "SELECT h.home_id, h.owner_id FROM homes h WHERE (SELECT count(*) "
                           "FROM home_members m WHERE m.home_id = h.home_id) <= 3 LIMIT 1")
    newcomer, email = one(box, "SELECT user_id, email FROM users WHERE user_id NOT IN (SELECT "
                               "user_id FROM home_members WHERE home_id = ?) LIMIT 1", (home,))
    made = ok(box, "share_home_access", home_id=home, user_id=owner, email=email.upper(),
              role="guest")
    assert (made["user_id"], made["role"], made["added_on"]) == (newcomer, "guest", TODAY)
    fails(box, "share_home_access", "already has access", home_id=home, user_id=owner,
          email=email, role="member")
    fails(box, "share_home_access", "no account", home_id=home, user_id=owner,
          email="stranger@nowhere.org", role="member")
    fails(box, "share_home_access", "must be one of", home_id=home, user_id=owner,
          email=email, role="owner")
    fails(box, "share_home_access", "needs the role", home_id=home, user_id=newcomer,
          email="x@y.z", role="guest")
    assert ok(box, "change_member_role", home_id=home, user_id=owner, member_id=newcomer,
              role="admin")["role"] == "admin"
    fails(box, "change_member_role", "already has the admin role", home_id=home, user_id=owner,
          member_id=newcomer, role="admin")
    fails(box, "change_member_role", "only the owner", home_id=home, user_id=newcomer,
          member_id=owner, role="guest")
    fails(box, "revoke_home_access", "owner", home_id=home, user_id=newcomer, member_id=owner)
    ok(box, "revoke_home_access", home_id=home, user_id=owner, member_id=newcomer)
    fails(box, "revoke_home_access", "not a member", home_id=home, user_id=owner,
          member_id=newcomer)
    assert box.check_integrity() == []


def test_admins_cannot_add_or_remove_admins_and_anyone_may_leave(box):
    home, admin = one(box, "SELECT home_id, user_id FROM home_members WHERE role = 'admin' "
                           "AND home_id IN (SELECT home_id FROM home_members GROUP BY home_id "
                           "HAVING count(*) < 8) LIMIT 1")
    email, = one(box, "SELECT email FROM users WHERE user_id NOT IN (SELECT user_id FROM "
                      "home_members WHERE home_id = ?) LIMIT 1", (home,))
    fails(box, "share_home_access", "only the owner", home_id=home, user_id=admin, email=email,
          role="admin")
    ok(box, "revoke_home_access", home_id=home, user_id=admin, member_id=admin)  # leaves
    assert one(box, "SELECT count(*) FROM home_members WHERE home_id = ? AND user_id = ?",
               (home, admin)) == (0,)


def test_home_member_limit(box):
    home, owner = one(box, "SELECT home_id, owner_id FROM homes LIMIT 1")
    emails = [e for (e,) in box.db.execute(
        "SELECT email FROM users WHERE user_id NOT IN (SELECT user_id FROM home_members "
        "WHERE home_id = ?) ORDER BY rowid LIMIT 10", (home,))]
    (count,) = one(box, "SELECT count(*) FROM home_members WHERE home_id = ?", (home,))
    for email in emails[:8 - count]:
        ok(box, "share_home_access", home_id=home, user_id=owner, email=email, role="guest")
    fails(box, "share_home_access", "at most 8", home_id=home, user_id=owner,
          email=emails[8 - count], role="guest")


def test_away_mode(box):
    home, user = one(box, "SELECT h.home_id, m.user_id FROM homes h JOIN home_members m "
                          "ON m.home_id = h.home_id WHERE h.away_mode = 0 "
                          "AND m.role = 'member' LIMIT 1")
    assert ok(box, "set_away_mode", home_id=home, user_id=user, away=True)["away_mode"] is True
    fails(box, "set_away_mode", "already on", home_id=home, user_id=user, away=True)
    guest, = one(box, "SELECT user_id FROM home_members WHERE role = 'guest' LIMIT 1")
    guest_home, = one(box, "SELECT home_id FROM home_members WHERE user_id = ? "
                           "AND role = 'guest' LIMIT 1", (guest,))
    fails(box, "set_away_mode", "guest", home_id=guest_home, user_id=guest, away=True)


def test_created_ids_never_clash_with_generated_ones(box):
    _, owner, home = device(box, "light")
    first = ok(box, "create_scene", home_id=home, user_id=owner, name="One")["scene_id"]
    second = ok(box, "create_scene", home_id=home, user_id=owner, name="Two")["scene_id"]
    assert first != second and first.split("_")[1].isdigit()


def test_invariants_catch_broken_rules(box):
    rules_catch(box, {
        "one member with the owner role": "DELETE FROM home_members WHERE role = 'owner' "
        "AND home_id = (SELECT home_id FROM homes LIMIT 1)",
        "room is in the device's home": "UPDATE devices SET room_id = (SELECT room_id FROM "
        "rooms WHERE home_id != devices.home_id LIMIT 1) WHERE rowid = 1",
        "steps of 0.5": "UPDATE devices SET target_temp = 21.3 WHERE kind = 'thermostat' "
        "AND rowid = (SELECT min(rowid) FROM devices WHERE kind = 'thermostat')",
        "records only while it is on": "UPDATE devices SET power = 'off' WHERE kind = 'camera' "
        "AND recording = 1",
        "fits its device's kind": "UPDATE scene_actions SET command = 'lock' WHERE rowid = "
        "(SELECT a.rowid FROM scene_actions a JOIN devices d ON d.device_id = a.device_id "
        "WHERE d.kind = 'plug' LIMIT 1)",
        "HH:MM": "UPDATE automations SET time = '25:00' WHERE rowid = 1",
        "only from plugs and thermostats": "UPDATE energy_readings SET device_id = (SELECT "
        "device_id FROM devices WHERE kind = 'light' LIMIT 1) WHERE rowid = 1"})
