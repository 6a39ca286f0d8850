"""The tools of the smart home domain: 13 reads, 20 writes and a transfer to a human agent.

Every tool takes the sandbox's SQLite connection first and uses parameterized SQL only. A
write names the household member who makes it (``user_id``) and checks, before its first
statement, that this member may make it in that home:

- ``guest``: switch lights and plugs on or off and dim lights, nothing else;
- ``member``: control every device (thermostats, locks, cameras), run scenes, away mode;
- ``admin``: also rename and move devices, manage scenes and automations, share the home
  with new members or guests and remove members and guests;
- ``owner``: also make or remove admins and change roles.

Device commands are checked per kind (:mod:`.commands`): a thermostat's set point is 10 to
30 degrees in steps of 0.5, a brightness a whole percent, a jammed lock cannot move, an
offline device takes no command. A failed call raises :class:`ToolError` and changes
nothing. That an automation may never unlock a lock is a policy rule the agent must apply
(the tool does not check it).
"""

from __future__ import annotations

import re
import sqlite3
from datetime import date
from typing import Annotated, Literal

from ...core.arguments import check_date
from ...core.common_tools import human_transfer_tool
from ...core.ids import counted_id
from ...core.rows import fetch_dicts, fetch_row, find_id
from ...core.tools import Category, Entity, Quotas, ToolError, tool
from .commands import (EVENTS, Command, check_brightness, check_command, check_temperature,
                       effect, event_detail)

#: Growth bounds of one sandbox (see :class:`~tool_gym.core.tools.Quotas`); templates hold
#: about 3,000 events and 14,000 energy readings.
QUOTAS = Quotas(rows={"device_events": 20_000, "scenes": 3_000, "scene_actions": 20_000,
                      "automations": 5_000, "home_members": 2_000, "rooms": 3_000,
                      "devices": 5_000, "energy_readings": 20_000})

#: The homes' clock (fixed, so that every episode is reproducible).
TODAY = "2024-06-14"
NOW = "2024-06-14T12:00:00"
#: The most members a home has (its owner included).
MAX_MEMBERS = 8
MAX_SCENES = 20
MAX_AUTOMATIONS = 30
#: The longest name of a device, scene or automation.
MAX_NAME = 40
#: The longest period one energy query covers (days).
MAX_ENERGY_DAYS = 92

UserId = Annotated[str, Entity("user_id")]
HomeId = Annotated[str, Entity("home_id")]
RoomId = Annotated[str, Entity("room_id")]
DeviceId = Annotated[str, Entity("device_id")]
SceneId = Annotated[str, Entity("scene_id")]
AutomationId = Annotated[str, Entity("automation_id")]

Role = Literal["admin", "member", "guest"]
HvacMode = Literal["heat", "cool", "auto", "off"]
Power = Literal["on", "off"]
Days = Literal["daily", "weekdays", "weekends"]

#: Roles by what they may do (see the module docstring).
CONTROL = ("owner", "admin", "member")
MANAGE = ("owner", "admin")
#: Device kinds a guest may switch.
GUEST_KINDS = ("light", "plug")

_TIME = re.compile(r"^(?:[01]\d|2[0-3]):[0-5]\d$")
_STATE = {"thermostat": ("hvac_mode", "target_temp", "current_temp"),
          "lock": ("lock_state", "battery"), "light": ("power", "brightness"),
          "camera": ("power", "recording", "battery"), "plug": ("power",)}
_DEVICE_COLUMNS = ("device_id", "home_id", "room_id", "kind", "name", "model", "firmware",
                   "status", "battery", "power", "brightness", "hvac_mode", "target_temp",
                   "current_temp", "lock_state", "recording", "installed_on")


# ------------------------------------------------------------------------- records

def _user(db: sqlite3.Connection, user_id: str) -> tuple:
    return fetch_row(db, "SELECT user_id, first_name, last_name, email, username, phone, "
                     "member_since FROM users WHERE user_id = ?", (user_id,),
                     f"User {user_id!r} not found.")


def _home(db: sqlite3.Connection, home_id: str) -> dict:
    row = fetch_row(db, "SELECT h.home_id, h.name, h.street, h.city, h.timezone, h.away_mode, "
                    "h.owner_id, u.first_name || ' ' || u.last_name FROM homes h JOIN users u "
                    "ON u.user_id = h.owner_id WHERE h.home_id = ?", (home_id,),
                    f"Home {home_id!r} not found.")
    keys = ("home_id", "name", "street", "city", "timezone", "away_mode", "owner_id",
            "owner_name")
    record = dict(zip(keys, row))
    record["away_mode"] = bool(record["away_mode"])
    return record


def _role(db: sqlite3.Connection, home_id: str, user_id: str) -> str:
    """The role of ``user_id`` in ``home_id`` (a :class:`ToolError` when they have none)."""
    _user(db, user_id)
    row = db.execute("SELECT role FROM home_members WHERE home_id = ? AND user_id = ?",
                     (home_id, user_id)).fetchone()
    if row is None:
        raise ToolError(f"User {user_id} has no access to home {home_id}.")
    return row[0]


def _require(role: str, allowed: tuple[str, ...], what: str) -> None:
    if role not in allowed:
        raise ToolError(f"A {role} of this home cannot {what}; that needs the role "
                        f"{' or '.join(allowed)}.")


def _device(db: sqlite3.Connection, device_id: str) -> dict:
    row = fetch_row(db, f"SELECT {', '.join(_DEVICE_COLUMNS)} FROM devices "
                    "WHERE device_id = ?", (device_id,), f"Device {device_id!r} not found.")
    return dict(zip(_DEVICE_COLUMNS, row))


def _device_record(db: sqlite3.Connection, device: dict) -> dict:
    """What the agent sees of a device: where it is, its status and its kind's state."""
    (room,) = db.execute("SELECT name FROM rooms WHERE room_id = ?",
                         (device["room_id"],)).fetchone()
    record = {k: device[k] for k in ("device_id", "name", "kind", "room_id")}
    record["room"] = room
    record["status"] = device["status"]
    for key in _STATE[device["kind"]]:
        value = device[key]
        record[key] = bool(value) if key == "recording" else value
    return record


def _check_name(name: str, what: str) -> str:
    name = " ".join(name.split())
    if not name:
        raise ToolError(f"The {what} name must not be empty.")
    if len(name) > MAX_NAME:
        raise ToolError(f"The {what} name may have at most {MAX_NAME} characters.")
    return name


def _member(db: sqlite3.Connection, home_id: str, user_id: str) -> dict:
    row = fetch_row(db, "SELECT m.user_id, u.first_name, u.last_name, u.email, m.role, "
                    "m.added_on FROM home_members m JOIN users u ON u.user_id = m.user_id "
                    "WHERE m.home_id = ? AND m.user_id = ?", (home_id, user_id),
                    f"User {user_id} is not a member of home {home_id}.")
    return dict(zip(("user_id", "first_name", "last_name", "email", "role", "added_on"), row))


def _log(db: sqlite3.Connection, device_id: str, event: str, user_id: str | None,
         detail: str = "") -> None:
    event_id = counted_id(db, "device_events", "event_id", "evt_")
    db.execute("INSERT INTO device_events (event_id, device_id, at, event, user_id, detail) "
               "VALUES (?, ?, ?, ?, ?, ?)", (event_id, device_id, NOW, event, user_id, detail))


def _apply(db: sqlite3.Connection, device: dict, command: str, value: float | None,
           user_id: str) -> dict:
    """Run ``command`` on ``device`` (already checked): update the changed columns and log
    the event; the changes (empty when the device was already in that state)."""
    changes = effect(device, command, value)
    if changes:
        assignments = ", ".join(f"{column} = ?" for column in changes)
        db.execute(f"UPDATE devices SET {assignments} WHERE device_id = ?",
                   (*changes.values(), device["device_id"]))
        device.update(changes)
        _log(db, device["device_id"], EVENTS[command], user_id, event_detail(command, value))
    return changes


def _control(db: sqlite3.Connection, device_id: str, user_id: str, kinds: tuple[str, ...],
             what: str) -> dict:
    """The device, once checked: of one of ``kinds``, online, and ``user_id`` may control it
    (guests only lights and plugs)."""
    device = _device(db, device_id)
    role = _role(db, device["home_id"], user_id)
    if device["kind"] not in kinds:
        raise ToolError(f"{device['name']} is a {device['kind']}; only a "
                        f"{' or '.join(kinds)} can {what}.")
    if role == "guest" and device["kind"] not in GUEST_KINDS:
        raise ToolError(f"Guests may only switch lights and plugs: user {user_id} is a guest "
                        f"of this home and cannot {what} the {device['kind']} "
                        f"{device['name']}.")
    if device["status"] != "online":
        raise ToolError(f"{device['name']} is offline and cannot take commands until it "
                        "reconnects.")
    return device


def _scene(db: sqlite3.Connection, scene_id: str) -> dict:
    row = fetch_row(db, "SELECT scene_id, home_id, name, created_by, last_activated FROM scenes "
                    "WHERE scene_id = ?", (scene_id,), f"Scene {scene_id!r} not found.")
    scene = dict(zip(("scene_id", "home_id", "name", "created_by", "last_activated"), row))
    scene["actions"] = fetch_dicts(
        db, ("device_id", "device_name", "command", "value"),
        "SELECT a.device_id, d.name, a.command, a.value FROM scene_actions a JOIN devices d "
        "ON d.device_id = a.device_id WHERE a.scene_id = ? ORDER BY a.rowid", (scene_id,))
    return scene


_AUTOMATION_COLUMNS = ("automation_id", "home_id", "name", "device_id", "device_name",
                       "command", "value", "time", "days", "status", "created_by")
_AUTOMATION_SELECT = ("SELECT a.automation_id, a.home_id, a.name, a.device_id, d.name, "
                      "a.command, a.value, a.time, a.days, a.status, a.created_by "
                      "FROM automations a JOIN devices d ON d.device_id = a.device_id ")


def _automation(db: sqlite3.Connection, automation_id: str) -> dict:
    row = fetch_row(db, _AUTOMATION_SELECT + "WHERE a.automation_id = ?", (automation_id,),
                    f"Automation {automation_id!r} not found.")
    return dict(zip(_AUTOMATION_COLUMNS, row))


def _dates(start_date: str, end_date: str) -> tuple[str, str]:
    start = check_date(start_date, "start_date") if start_date else "0000-00-00"
    end = check_date(end_date, "end_date") if end_date else "9999-99-99"
    if start > end:
        raise ToolError("start_date is after end_date.")
    return start, end


# --------------------------------------------------------------------------- READ


@tool(Category.READ, returns={".": UserId})
def find_user_by_email(db, email: str) -> str:
    """Find a user's id by the email address of their smart home account. Use it to
    authenticate the user before anything else.

    Args:
        email: The user's email address, such as 'nora.kim12@example.com'.
    """
    return find_id(db, "users", "user_id", "email", email.strip().lower(),
                   "No user found with this email address.")


@tool(Category.READ, returns={".": UserId})
def find_user_by_username(db, username: str) -> str:
    """Find a user's id by their smart home app username. Use it to authenticate the user
    before anything else.

    Args:
        username: The user's app username, such as 'nkim42'.
    """
    return find_id(db, "users", "user_id", "username", username.strip().lower(),
                   "No user found with this username.")


@tool(Category.READ, returns={"user_id": UserId, "homes.home_id": HomeId})
def get_user_profile(db, user_id: UserId) -> dict:
    """Get a user's profile: name, contact details, and the homes they can reach with their
    role in each (owner, admin, member or guest).

    Args:
        user_id: The user's id, such as 'usr_a1b2c3d4'.
    """
    row = _user(db, user_id)
    homes = fetch_dicts(db, ("home_id", "name", "role"),
                        "SELECT h.home_id, h.name, m.role FROM home_members m JOIN homes h "
                        "ON h.home_id = m.home_id WHERE m.user_id = ? ORDER BY h.rowid",
                        (user_id,))
    keys = ("user_id", "first_name", "last_name", "email", "username", "phone", "member_since")
    return {**dict(zip(keys, row)), "homes": homes}


@tool(Category.READ, returns={"user_id": UserId, "homes.home_id": HomeId,
                              "homes.owner_id": UserId})
def list_homes(db, user_id: UserId) -> dict:
    """List the homes a user can reach: name, address, the user's role there, the owner,
    whether away mode is on, and how many devices the home has.

    Args:
        user_id: The user's id.
    """
    _user(db, user_id)
    homes = fetch_dicts(
        db, ("home_id", "name", "street", "city", "role", "owner_id", "owner_name",
             "away_mode", "device_count"),
        "SELECT h.home_id, h.name, h.street, h.city, m.role, h.owner_id, "
        "o.first_name || ' ' || o.last_name, h.away_mode, (SELECT count(*) FROM devices d "
        "WHERE d.home_id = h.home_id) FROM home_members m JOIN homes h "
        "ON h.home_id = m.home_id JOIN users o ON o.user_id = h.owner_id "
        "WHERE m.user_id = ? ORDER BY h.rowid", (user_id,))
    for home in homes:
        home["away_mode"] = bool(home["away_mode"])
    return {"user_id": user_id, "homes": homes}


@tool(Category.READ, returns={"home_id": HomeId, "owner_id": UserId, "rooms.room_id": RoomId})
def get_home(db, home_id: HomeId) -> dict:
    """Get a home's details: name, address, time zone, owner, away mode, its rooms and how
    many devices of each kind it has.

    Args:
        home_id: The home's id, such as 'home_k2j4m9x1'.
    """
    home = _home(db, home_id)
    home["rooms"] = fetch_dicts(db, ("room_id", "name", "floor"),
                                "SELECT room_id, name, floor FROM rooms WHERE home_id = ? "
                                "ORDER BY rowid", (home_id,))
    home["device_counts"] = dict(db.execute(
        "SELECT kind, count(*) FROM devices WHERE home_id = ? GROUP BY kind ORDER BY kind",
        (home_id,)).fetchall())
    return home


@tool(Category.READ, returns={"home_id": HomeId, "rooms.room_id": RoomId})
def list_rooms(db, home_id: HomeId) -> dict:
    """List the rooms of a home with their floor and how many devices each holds.

    Args:
        home_id: The home's id.
    """
    _home(db, home_id)
    rooms = fetch_dicts(db, ("room_id", "name", "floor", "device_count"),
                        "SELECT r.room_id, r.name, r.floor, (SELECT count(*) FROM devices d "
                        "WHERE d.room_id = r.room_id) FROM rooms r WHERE r.home_id = ? "
                        "ORDER BY r.rowid", (home_id,))
    return {"home_id": home_id, "rooms": rooms}


@tool(Category.READ, returns={"home_id": HomeId, "devices.device_id": DeviceId,
                              "devices.room_id": RoomId})
def list_devices(db, home_id: HomeId, room_id: RoomId = "", kind: str = "") -> dict:
    """List a home's devices with their room, online status and current state (power,
    brightness, thermostat mode and temperatures, lock state, camera recording, battery),
    optionally only those of one room or of one kind.

    Args:
        home_id: The home's id.
        room_id: Only the devices of this room (empty for all rooms).
        kind: Only devices of this kind: 'thermostat', 'lock', 'light', 'camera' or 'plug'
            (empty for all kinds).
    """
    _home(db, home_id)
    if kind and kind not in _STATE:
        raise ToolError(f"Unknown device kind {kind[:40]!r}; use thermostat, lock, light, "
                        "camera or plug.")
    if room_id:
        row = fetch_row(db, "SELECT home_id FROM rooms WHERE room_id = ?", (room_id,),
                        f"Room {room_id!r} not found.")
        if row[0] != home_id:
            raise ToolError(f"Room {room_id} is not in home {home_id}.")
    rows = db.execute(f"SELECT {', '.join(_DEVICE_COLUMNS)} FROM devices WHERE home_id = ? "
                      "AND (? = '' OR room_id = ?) AND (? = '' OR kind = ?) ORDER BY rowid",
                      (home_id, room_id, room_id, kind, kind)).fetchall()
    return {"home_id": home_id,
            "devices": [_device_record(db, dict(zip(_DEVICE_COLUMNS, r))) for r in rows]}


@tool(Category.READ, returns={"device_id": DeviceId, "home_id": HomeId, "room_id": RoomId})
def get_device(db, device_id: DeviceId) -> dict:
    """Get one device: its home, room, model, firmware, install date, online status and the
    full state of its kind.

    Args:
        device_id: The device's id, such as 'dev_p4q8r2s6'.
    """
    device = _device(db, device_id)
    record = _device_record(db, device)
    record.update(home_id=device["home_id"], model=device["model"],
                  firmware=device["firmware"], installed_on=device["installed_on"])
    return record


@tool(Category.READ, returns={"device_id": DeviceId, "events.user_id": UserId})
def get_device_events(db, device_id: DeviceId, start_date: str = "",
                      end_date: str = "") -> dict:
    """List a device's event history (locked, unlocked, turned on or off, set point changes,
    motion, ...), newest first, with who caused each event when a person did; optionally
    within a date range. At most 50 events.

    Args:
        device_id: The device's id.
        start_date: Earliest day to include, as YYYY-MM-DD (empty for no bound).
        end_date: Latest day to include, as YYYY-MM-DD (empty for no bound).
    """
    device = _device(db, device_id)
    start, end = _dates(start_date, end_date)
    events = fetch_dicts(
        db, ("at", "event", "user_id", "by", "detail"),
        "SELECT e.at, e.event, e.user_id, u.first_name || ' ' || u.last_name, e.detail "
        "FROM device_events e LEFT JOIN users u ON u.user_id = e.user_id "
        "WHERE e.device_id = ? AND substr(e.at, 1, 10) >= ? AND substr(e.at, 1, 10) <= ? "
        "ORDER BY e.at DESC, e.rowid DESC LIMIT 50", (device_id, start, end))
    return {"device_id": device_id, "name": device["name"], "events": events}


@tool(Category.READ, returns={"device_id": DeviceId})
def get_energy_usage(db, device_id: DeviceId, start_date: str, end_date: str) -> dict:
    """Get the daily energy use of a smart plug or thermostat (kWh per day) between two
    dates, both included, and its total. Readings exist up to yesterday.

    Args:
        device_id: The plug's or thermostat's id.
        start_date: The first day, as YYYY-MM-DD.
        end_date: The last day, as YYYY-MM-DD (at most 92 days after start_date).
    """
    device = _device(db, device_id)
    if device["kind"] not in ("plug", "thermostat"):
        raise ToolError(f"{device['name']} is a {device['kind']}; only plugs and "
                        "thermostats report energy use.")
    start, end = check_date(start_date, "start_date"), check_date(end_date, "end_date")
    if start > end:
        raise ToolError("start_date is after end_date.")
    if (date.fromisoformat(end) - date.fromisoformat(start)).days >= MAX_ENERGY_DAYS:
        raise ToolError(f"One query covers at most {MAX_ENERGY_DAYS} days.")
    readings = fetch_dicts(db, ("day", "kwh"),
                           "SELECT day, kwh FROM energy_readings WHERE device_id = ? "
                           "AND day >= ? AND day <= ? ORDER BY day", (device_id, start, end))
    total = round(sum(r["kwh"] for r in readings) + 0.0, 2)
    return {"device_id": device_id, "name": device["name"], "start_date": start,
            "end_date": end, "readings": readings, "total_kwh": total}


@tool(Category.READ, returns={"home_id": HomeId, "members.user_id": UserId})
def list_home_members(db, home_id: HomeId) -> dict:
    """List the people who share a home, with their role (owner, admin, member or guest)
    and when they were added.

    Args:
        home_id: The home's id.
    """
    _home(db, home_id)
    members = fetch_dicts(
        db, ("user_id", "first_name", "last_name", "email", "role", "added_on"),
        "SELECT m.user_id, u.first_name, u.last_name, u.email, m.role, m.added_on "
        "FROM home_members m JOIN users u ON u.user_id = m.user_id WHERE m.home_id = ? "
        "ORDER BY m.rowid", (home_id,))
    return {"home_id": home_id, "members": members}


@tool(Category.READ, returns={"home_id": HomeId, "scenes.scene_id": SceneId,
                              "scenes.actions.device_id": DeviceId})
def list_scenes(db, home_id: HomeId) -> dict:
    """List a home's scenes: each one's name, when it last ran and its actions (a device
    and the command it gets).

    Args:
        home_id: The home's id.
    """
    _home(db, home_id)
    ids = [r[0] for r in db.execute("SELECT scene_id FROM scenes WHERE home_id = ? "
                                    "ORDER BY rowid", (home_id,))]
    scenes = []
    for scene_id in ids:
        scene = _scene(db, scene_id)
        del scene["home_id"]
        scenes.append(scene)
    return {"home_id": home_id, "scenes": scenes}


@tool(Category.READ, returns={"home_id": HomeId, "automations.automation_id": AutomationId,
                              "automations.device_id": DeviceId})
def list_automations(db, home_id: HomeId) -> dict:
    """List a home's automations: each one's device, command, time of day (HH:MM), days
    (daily, weekdays or weekends) and status (active or paused).

    Args:
        home_id: The home's id.
    """
    _home(db, home_id)
    automations = fetch_dicts(db, _AUTOMATION_COLUMNS, _AUTOMATION_SELECT +
                              "WHERE a.home_id = ? ORDER BY a.rowid", (home_id,))
    for a in automations:
        del a["home_id"]
    return {"home_id": home_id, "automations": automations}


transfer_to_human_agents = human_transfer_tool(
    "Transfer the user to a human agent, with a summary of their issue. Only transfer if "
    "the user explicitly asks for a human agent, or if the request cannot be handled with "
    "the policy and the available tools.",
    "A summary of the user's issue.")


# -------------------------------------------------------------------------- WRITE

_DEVICE_WRITE = {"returns": {"device_id": DeviceId}, "writes": ("device_id",),
                 "needs": ("device_id",)}


@tool(Category.WRITE, **_DEVICE_WRITE)
def set_thermostat(db, device_id: DeviceId, user_id: UserId, hvac_mode: HvacMode,
                   target_temp: float) -> dict:
    """Set a thermostat's mode and target temperature. Members, admins and the owner may do
    it. Confirm the details with the user (explicit yes) before calling.

    Args:
        device_id: The thermostat's id.
        user_id: The household member making the change (the authenticated user).
        hvac_mode: 'heat', 'cool', 'auto' or 'off'.
        target_temp: The target temperature in degrees Celsius, 10 to 30 in steps of 0.5.
    """
    target = check_temperature(target_temp)
    device = _control(db, device_id, user_id, ("thermostat",), "change the temperature of")
    if device["hvac_mode"] == hvac_mode and device["target_temp"] == target:
        raise ToolError(f"{device['name']} is already in {hvac_mode} mode at {target:g} "
                        "degrees.")
    db.execute("UPDATE devices SET hvac_mode = ?, target_temp = ? WHERE device_id = ?",
               (hvac_mode, target, device_id))
    _log(db, device_id, "setpoint_changed", user_id, f"{hvac_mode} {target:g}")
    device.update(hvac_mode=hvac_mode, target_temp=target)
    return _device_record(db, device)


@tool(Category.WRITE, **_DEVICE_WRITE)
def set_power(db, device_id: DeviceId, user_id: UserId, power: Power) -> dict:
    """Switch a light, smart plug or camera on or off (a camera switched off stops
    recording). Guests may switch lights and plugs. Confirm with the user (explicit yes)
    before calling.

    Args:
        device_id: The light's, plug's or camera's id.
        user_id: The household member making the change (the authenticated user).
        power: 'on' or 'off'.
    """
    device = _control(db, device_id, user_id, ("light", "plug", "camera"), "switch")
    if not _apply(db, device, "turn_on" if power == "on" else "turn_off", None, user_id):
        raise ToolError(f"{device['name']} is already {power}.")
    return _device_record(db, device)


@tool(Category.WRITE, **_DEVICE_WRITE)
def set_brightness(db, device_id: DeviceId, user_id: UserId, brightness: int) -> dict:
    """Set a light's brightness (it is switched on if it was off). Guests may do it.
    Confirm with the user (explicit yes) before calling.

    Args:
        device_id: The light's id.
        user_id: The household member making the change (the authenticated user).
        brightness: The brightness in percent, a whole number from 1 to 100.
    """
    level = check_brightness(brightness)
    device = _control(db, device_id, user_id, ("light",), "dim")
    if not _apply(db, device, "set_brightness", float(level), user_id):
        raise ToolError(f"{device['name']} is already on at {level}%.")
    return _device_record(db, device)


def _lock(db: sqlite3.Connection, device_id: str, user_id: str, command: str) -> dict:
    device = _control(db, device_id, user_id, ("lock",), command)
    if not _apply(db, device, command, None, user_id):
        raise ToolError(f"{device['name']} is already {device['lock_state']}.")
    return _device_record(db, device)


@tool(Category.WRITE, **_DEVICE_WRITE)
def lock_door(db, device_id: DeviceId, user_id: UserId) -> dict:
    """Lock a smart lock. Members, admins and the owner may do it; a jammed lock must be
    cleared by hand. Confirm with the user (explicit yes) before calling.

    Args:
        device_id: The lock's id.
        user_id: The household member making the change (the authenticated user).
    """
    return _lock(db, device_id, user_id, "lock")


@tool(Category.WRITE, **_DEVICE_WRITE)
def unlock_door(db, device_id: DeviceId, user_id: UserId) -> dict:
    """Unlock a smart lock. Members, admins and the owner may do it (never a guest); a
    jammed lock must be cleared by hand. Confirm with the user (explicit yes) before
    calling.

    Args:
        device_id: The lock's id.
        user_id: The household member making the change (the authenticated user).
    """
    return _lock(db, device_id, user_id, "unlock")


@tool(Category.WRITE, **_DEVICE_WRITE)
def set_camera_recording(db, device_id: DeviceId, user_id: UserId, recording: bool) -> dict:
    """Start or stop a camera's recording; the camera must be switched on to record.
    Members, admins and the owner may do it. Confirm with the user (explicit yes) before
    calling.

    Args:
        device_id: The camera's id.
        user_id: The household member making the change (the authenticated user).
        recording: true to start recording, false to stop.
    """
    device = _control(db, device_id, user_id, ("camera",), "record with")
    if recording and device["power"] != "on":
        raise ToolError(f"{device['name']} is switched off; switch it on before recording.")
    command = "start_recording" if recording else "stop_recording"
    if not _apply(db, device, command, None, user_id):
        raise ToolError(f"{device['name']} is already "
                        f"{'recording' if recording else 'not recording'}.")
    return _device_record(db, device)


@tool(Category.WRITE, returns={"device_id": DeviceId}, writes=("device_id",))
def rename_device(db, device_id: DeviceId, user_id: UserId, name: str) -> dict:
    """Give a device a new name (unique within its home). Admins and the owner may do it.
    Confirm with the user (explicit yes) before calling.

    Args:
        device_id: The device's id.
        user_id: The household member making the change (the authenticated user).
        name: The new name, at most 40 characters.
    """
    name = _check_name(name, "device")
    device = _device(db, device_id)
    _require(_role(db, device["home_id"], user_id), MANAGE, "rename devices")
    if name == device["name"]:
        raise ToolError(f"The device is already named {name!r}.")
    if db.execute("SELECT 1 FROM devices WHERE home_id = ? AND lower(name) = lower(?) "
                  "AND device_id != ?", (device["home_id"], name, device_id)).fetchone():
        raise ToolError(f"Another device of this home is already named {name!r}.")
    db.execute("UPDATE devices SET name = ? WHERE device_id = ?", (name, device_id))
    device["name"] = name
    return _device_record(db, device)


@tool(Category.WRITE, returns={"device_id": DeviceId, "room_id": RoomId},
      writes=("device_id",))
def move_device(db, device_id: DeviceId, user_id: UserId, room_id: RoomId) -> dict:
    """Move a device to another room of the same home. Admins and the owner may do it.
    Confirm with the user (explicit yes) before calling.

    Args:
        device_id: The device's id.
        user_id: The household member making the change (the authenticated user).
        room_id: The room it moves to (same home).
    """
    device = _device(db, device_id)
    _require(_role(db, device["home_id"], user_id), MANAGE, "move devices")
    (home_id,) = fetch_row(db, "SELECT home_id FROM rooms WHERE room_id = ?", (room_id,),
                           f"Room {room_id!r} not found.")
    if home_id != device["home_id"]:
        raise ToolError(f"Room {room_id} is in another home; a device moves only within its "
                        "own home.")
    if room_id == device["room_id"]:
        raise ToolError(f"{device['name']} is already in that room.")
    db.execute("UPDATE devices SET room_id = ? WHERE device_id = ?", (room_id, device_id))
    device["room_id"] = room_id
    return _device_record(db, device)


@tool(Category.WRITE, returns={"scene_id": SceneId, "home_id": HomeId},
      writes=("scene_id",))
def create_scene(db, home_id: HomeId, user_id: UserId, name: str) -> dict:
    """Create an empty scene in a home (add its device commands with add_scene_action).
    Admins and the owner may do it; a home has at most 20 scenes. Confirm with the user
    (explicit yes) before calling.

    Args:
        home_id: The home's id.
        user_id: The household member making the change (the authenticated user).
        name: The scene's name, unique within the home, at most 40 characters.
    """
    name = _check_name(name, "scene")
    _home(db, home_id)
    _require(_role(db, home_id, user_id), MANAGE, "create scenes")
    if db.execute("SELECT 1 FROM scenes WHERE home_id = ? AND lower(name) = lower(?)",
                  (home_id, name)).fetchone():
        raise ToolError(f"This home already has a scene named {name!r}.")
    (count,) = db.execute("SELECT count(*) FROM scenes WHERE home_id = ?",
                          (home_id,)).fetchone()
    if count >= MAX_SCENES:
        raise ToolError(f"A home has at most {MAX_SCENES} scenes; delete one first.")
    scene_id = counted_id(db, "scenes", "scene_id", "scn_")
    db.execute("INSERT INTO scenes (scene_id, home_id, name, created_by, last_activated) "
               "VALUES (?, ?, ?, ?, NULL)", (scene_id, home_id, name, user_id))
    return _scene(db, scene_id)


@tool(Category.WRITE, returns={"scene_id": SceneId, "actions.device_id": DeviceId},
      writes=("scene_id",))
def add_scene_action(db, scene_id: SceneId, user_id: UserId, device_id: DeviceId,
                     command: Command, value: float = 0) -> dict:
    """Add a device command to a scene (one command per device and scene). Commands by kind:
    lights turn_on, turn_off, set_brightness (value 1-100); plugs turn_on, turn_off;
    cameras turn_on, turn_off, start_recording, stop_recording; locks lock, unlock;
    thermostats set_temperature (value 10-30, steps of 0.5), turn_off. Admins and the owner
    may do it. Confirm with the user (explicit yes) before calling.

    Args:
        scene_id: The scene's id.
        user_id: The household member making the change (the authenticated user).
        device_id: The device the command is for (same home as the scene).
        command: The command.
        value: The brightness or temperature for set_brightness and set_temperature; 0 for
            the other commands.
    """
    scene = _scene(db, scene_id)
    _require(_role(db, scene["home_id"], user_id), MANAGE, "change scenes")
    device = _device(db, device_id)
    if device["home_id"] != scene["home_id"]:
        raise ToolError(f"Device {device_id} is in another home than the scene.")
    kept = check_command(device["kind"], command, value)
    if any(a["device_id"] == device_id for a in scene["actions"]):
        raise ToolError(f"The scene already has a command for {device['name']}.")
    db.execute("INSERT INTO scene_actions (scene_id, device_id, command, value) "
               "VALUES (?, ?, ?, ?)", (scene_id, device_id, command, kept))
    return _scene(db, scene_id)


@tool(Category.WRITE, returns={"scene_id": SceneId, "applied.device_id": DeviceId},
      writes=("scene_id", "device_id"), needs=("scene_id",))
def activate_scene(db, scene_id: SceneId, user_id: UserId) -> dict:
    """Run a scene now: each of its commands is sent to its device (offline devices and
    jammed locks are skipped). Members, admins and the owner may do it. Confirm with the
    user (explicit yes) before calling.

    Args:
        scene_id: The scene's id.
        user_id: The household member making the change (the authenticated user).
    """
    scene = _scene(db, scene_id)
    _require(_role(db, scene["home_id"], user_id), CONTROL, "run scenes")
    if not scene["actions"]:
        raise ToolError(f"The scene {scene['name']} has no commands yet.")
    applied, skipped = [], []
    for action in scene["actions"]:
        device = _device(db, action["device_id"])
        if device["status"] != "online":
            skipped.append({"device_id": device["device_id"], "name": device["name"],
                            "reason": "offline"})
            continue
        if device["kind"] == "lock" and device["lock_state"] == "jammed":
            skipped.append({"device_id": device["device_id"], "name": device["name"],
                            "reason": "jammed"})
            continue
        changed = _apply(db, device, action["command"], action["value"], user_id)
        applied.append({"device_id": device["device_id"], "name": device["name"],
                        "command": action["command"], "changed": bool(changed)})
    db.execute("UPDATE scenes SET last_activated = ? WHERE scene_id = ?", (NOW, scene_id))
    return {"scene_id": scene_id, "name": scene["name"], "last_activated": NOW,
            "applied": applied, "skipped": skipped}


@tool(Category.WRITE, returns={"scene_id": SceneId}, writes=("scene_id",))
def delete_scene(db, scene_id: SceneId, user_id: UserId) -> dict:
    """Delete a scene and its commands. Admins and the owner may do it. Confirm with the
    user (explicit yes) before calling.

    Args:
        scene_id: The scene's id.
        user_id: The household member making the change (the authenticated user).
    """
    scene = _scene(db, scene_id)
    _require(_role(db, scene["home_id"], user_id), MANAGE, "delete scenes")
    db.execute("DELETE FROM scene_actions WHERE scene_id = ?", (scene_id,))
    db.execute("DELETE FROM scenes WHERE scene_id = ?", (scene_id,))
    return {"scene_id": scene_id, "name": scene["name"], "deleted": True}


@tool(Category.WRITE, returns={"automation_id": AutomationId, "device_id": DeviceId},
      writes=("automation_id",))
def create_automation(db, device_id: DeviceId, user_id: UserId, name: str, command: Command,
                      time: str, days: Days, value: float = 0) -> dict:
    """Schedule a device command to run at a time of day on some days (an automation,
    active at once). The commands and values are those of add_scene_action. Admins and the
    owner may do it; a home has at most 30 automations. Confirm the details with the user
    (explicit yes) before calling.

    Args:
        device_id: The device the command is for.
        user_id: The household member making the change (the authenticated user).
        name: The automation's name, unique within the home, at most 40 characters.
        command: The command.
        time: The time of day it runs, as HH:MM (24-hour clock, the home's time zone).
        days: 'daily', 'weekdays' or 'weekends'.
        value: The brightness or temperature for set_brightness and set_temperature; 0 for
            the other commands.
    """
    name = _check_name(name, "automation")
    if not _TIME.match(time):
        raise ToolError(f"time must be HH:MM on a 24-hour clock, got {time[:20]!r}.")
    device = _device(db, device_id)
    home_id = device["home_id"]
    _require(_role(db, home_id, user_id), MANAGE, "create automations")
    kept = check_command(device["kind"], command, value)
    if db.execute("SELECT 1 FROM automations WHERE home_id = ? AND lower(name) = lower(?)",
                  (home_id, name)).fetchone():
        raise ToolError(f"This home already has an automation named {name!r}.")
    (count,) = db.execute("SELECT count(*) FROM automations WHERE home_id = ?",
                          (home_id,)).fetchone()
    if count >= MAX_AUTOMATIONS:
        raise ToolError(f"A home has at most {MAX_AUTOMATIONS} automations; delete one first.")
    automation_id = counted_id(db, "automations", "automation_id", "aut_")
    db.execute("INSERT INTO automations (automation_id, home_id, name, device_id, command, "
               "value, time, days, status, created_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?, "
               "'active', ?)", (automation_id, home_id, name, device_id, command, kept, time,
                                days, user_id))
    return _automation(db, automation_id)


def _automation_status(db: sqlite3.Connection, automation_id: str, user_id: str,
                       status: str) -> dict:
    automation = _automation(db, automation_id)
    verb = "pause" if status == "paused" else "resume"
    _require(_role(db, automation["home_id"], user_id), MANAGE, f"{verb} automations")
    if automation["status"] == status:
        raise ToolError(f"The automation {automation['name']} is already {status}.")
    db.execute("UPDATE automations SET status = ? WHERE automation_id = ?",
               (status, automation_id))
    automation["status"] = status
    return automation


@tool(Category.WRITE, returns={"automation_id": AutomationId}, writes=("automation_id",))
def pause_automation(db, automation_id: AutomationId, user_id: UserId) -> dict:
    """Pause an active automation (it stops running until resumed). Admins and the owner may
    do it. Confirm with the user (explicit yes) before calling.

    Args:
        automation_id: The automation's id.
        user_id: The household member making the change (the authenticated user).
    """
    return _automation_status(db, automation_id, user_id, "paused")


@tool(Category.WRITE, returns={"automation_id": AutomationId}, writes=("automation_id",))
def resume_automation(db, automation_id: AutomationId, user_id: UserId) -> dict:
    """Resume a paused automation. Admins and the owner may do it. Confirm with the user
    (explicit yes) before calling.

    Args:
        automation_id: The automation's id.
        user_id: The household member making the change (the authenticated user).
    """
    return _automation_status(db, automation_id, user_id, "active")


@tool(Category.WRITE, returns={"automation_id": AutomationId}, writes=("automation_id",))
def delete_automation(db, automation_id: AutomationId, user_id: UserId) -> dict:
    """Delete an automation. Admins and the owner may do it. Confirm with the user
    (explicit yes) before calling.

    Args:
        automation_id: The automation's id.
        user_id: The household member making the change (the authenticated user).
    """
    automation = _automation(db, automation_id)
    _require(_role(db, automation["home_id"], user_id), MANAGE, "delete automations")
    db.execute("DELETE FROM automations WHERE automation_id = ?", (automation_id,))
    return {"automation_id": automation_id, "name": automation["name"], "deleted": True}


@tool(Category.WRITE, returns={"home_id": HomeId, "user_id": UserId},
      writes=("home_id",))
def share_home_access(db, home_id: HomeId, user_id: UserId, email: str, role: Role) -> dict:
    """Share a home with another person who has an account, by their email address, as an
    admin, member or guest. Admins and the owner may share; only the owner may add an
    admin; a home has at most 8 members. Confirm with the user (explicit yes) before
    calling.

    Args:
        home_id: The home's id.
        user_id: The household member making the change (the authenticated user).
        email: The email address of the person's account.
        role: 'admin', 'member' or 'guest'.
    """
    _home(db, home_id)
    acting = _role(db, home_id, user_id)
    _require(acting, MANAGE, "share the home")
    if role == "admin" and acting != "owner":
        raise ToolError("Only the owner of the home can add an admin.")
    row = db.execute("SELECT user_id FROM users WHERE email = ?",
                     (email.strip().lower(),)).fetchone()
    if row is None:
        raise ToolError("No account uses this email address; the person must create an "
                        "account before the home can be shared with them.")
    invitee = row[0]
    if db.execute("SELECT 1 FROM home_members WHERE home_id = ? AND user_id = ?",
                  (home_id, invitee)).fetchone():
        raise ToolError("This person already has access to the home.")
    (count,) = db.execute("SELECT count(*) FROM home_members WHERE home_id = ?",
                          (home_id,)).fetchone()
    if count >= MAX_MEMBERS:
        raise ToolError(f"A home has at most {MAX_MEMBERS} members; remove one first.")
    db.execute("INSERT INTO home_members (home_id, user_id, role, added_on) VALUES "
               "(?, ?, ?, ?)", (home_id, invitee, role, TODAY))
    return {"home_id": home_id, **_member(db, home_id, invitee)}


@tool(Category.WRITE, returns={"home_id": HomeId, "user_id": UserId}, writes=("home_id",))
def revoke_home_access(db, home_id: HomeId, user_id: UserId, member_id: UserId) -> dict:
    """Remove a person's access to a home. Admins and the owner may remove members and
    guests; only the owner may remove an admin; the owner cannot be removed. Anyone but the
    owner may also remove themself. Confirm with the user (explicit yes) before calling.

    Args:
        home_id: The home's id.
        user_id: The household member making the change (the authenticated user).
        member_id: The user id of the person whose access is removed.
    """
    _home(db, home_id)
    acting = _role(db, home_id, user_id)
    member = _member(db, home_id, member_id)
    if member["role"] == "owner":
        raise ToolError("The owner of a home cannot be removed from it.")
    if member_id != user_id:
        _require(acting, MANAGE, "remove people")
        if member["role"] == "admin" and acting != "owner":
            raise ToolError("Only the owner of the home can remove an admin.")
    db.execute("DELETE FROM home_members WHERE home_id = ? AND user_id = ?",
               (home_id, member_id))
    return {"home_id": home_id, "user_id": member_id, "removed": True,
            "name": f"{member['first_name']} {member['last_name']}"}


@tool(Category.WRITE, returns={"home_id": HomeId, "user_id": UserId}, writes=("home_id",))
def change_member_role(db, home_id: HomeId, user_id: UserId, member_id: UserId,
                       role: Role) -> dict:
    """Change the role of a person who shares a home (admin, member or guest). Only the
    owner may do it. Confirm with the user (explicit yes) before calling.

    Args:
        home_id: The home's id.
        user_id: The household member making the change (the authenticated user; the owner).
        member_id: The user id of the person whose role changes.
        role: 'admin', 'member' or 'guest'.
    """
    _home(db, home_id)
    if _role(db, home_id, user_id) != "owner":
        raise ToolError("Only the owner of the home can change roles.")
    member = _member(db, home_id, member_id)
    if member["role"] == "owner":
        raise ToolError("The owner's role cannot be changed.")
    if member["role"] == role:
        raise ToolError(f"This person already has the {role} role in the home.")
    db.execute("UPDATE home_members SET role = ? WHERE home_id = ? AND user_id = ?",
               (role, home_id, member_id))
    return {"home_id": home_id, **_member(db, home_id, member_id)}


@tool(Category.WRITE, returns={"home_id": HomeId}, writes=("home_id",))
def set_away_mode(db, home_id: HomeId, user_id: UserId, away: bool) -> dict:
    """Turn a home's away mode on or off. Members, admins and the owner may do it. Confirm
    with the user (explicit yes) before calling.

    Args:
        home_id: The home's id.
        user_id: The household member making the change (the authenticated user).
        away: true to turn away mode on, false to turn it off.
    """
    home = _home(db, home_id)
    _require(_role(db, home_id, user_id), CONTROL, "change away mode")
    if home["away_mode"] == away:
        raise ToolError(f"Away mode is already {'on' if away else 'off'}.")
    db.execute("UPDATE homes SET away_mode = ? WHERE home_id = ?", (int(away), home_id))
    home["away_mode"] = away
    return home
