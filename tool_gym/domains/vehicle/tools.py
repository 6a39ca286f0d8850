"""The tools of the vehicle domain (a connected-car app): 13 reads, 16 writes and a transfer
to a human agent.

Every tool takes the sandbox's SQLite connection first and uses parameterized SQL only. A
write checks all its preconditions before its first statement and raises
:class:`ToolError` with a clear message when one fails (the toolbox also wraps each write in
a savepoint).

Rules the tools enforce: locks and climate only change from the opposite state, and remote
climate needs at least :data:`MIN_CLIMATE_RANGE_KM` of range; charge limits, schedules and
refunds only for plug-in vehicles; at most :data:`MAX_SCHEDULES` charging schedules and
:data:`MAX_ACTIVE_KEYS` active digital keys per vehicle; keys expire within a year and never
go to the owner's own email; service appointments are booked after today (within
:data:`BOOKING_HORIZON_DAYS`), on the hour or half hour within the dealer's hours, one per
vehicle per day, for a service that fits the powertrain, and electric vehicles only at
dealers that service them; only scheduled appointments can be moved or cancelled; a
charging session is refunded at most once. The 14-day window for charging refunds is a
policy rule the agent must apply (the tool trusts the agent, as in tau2).
"""

from __future__ import annotations

import re
import sqlite3
from datetime import date, timedelta
from typing import Annotated, Literal

from ...core.arguments import check_date
from ...core.common_tools import human_transfer_tool
from ...core.ids import counted_id
from ...core.rows import fetch_dicts, fetch_row, find_id
from ...core.tools import Category, Entity, Quotas, ToolError, tool

#: Growth bounds of one sandbox (see :class:`~tool_gym.core.tools.Quotas`): templates hold
#: about 7,000 trips and a few hundred rows in the other tables.
QUOTAS = Quotas(rows={"places": 5_000, "charge_schedules": 3_000,
                      "service_appointments": 5_000, "digital_keys": 5_000,
                      "charging_refunds": 3_000})

#: The app's clock (fixed, so that every episode is reproducible).
TODAY = "2025-04-16"
NOW = "2025-04-16T08:00:00"
#: Charging refunds may be requested only this many days after the session (policy).
REFUND_WINDOW_DAYS = 14
MIN_CLIMATE_RANGE_KM = 30
MAX_SCHEDULES = 3
MAX_ACTIVE_KEYS = 5
MAX_KEY_DAYS = 365
BOOKING_HORIZON_DAYS = 90
MAX_PLACES = 20
MAX_TEXT = 200

OwnerId = Annotated[str, Entity("owner_id")]
VehicleId = Annotated[str, Entity("vehicle_id")]
PlaceId = Annotated[str, Entity("place_id")]
DealerId = Annotated[str, Entity("dealer_id")]
ScheduleId = Annotated[str, Entity("schedule_id")]
AppointmentId = Annotated[str, Entity("appointment_id")]
KeyId = Annotated[str, Entity("key_id")]
AlertId = Annotated[str, Entity("alert_id")]
SessionId = Annotated[str, Entity("session_id")]

Days = Literal["daily", "weekdays", "weekends"]
ServiceType = Literal["oil_change", "tire_rotation", "brake_inspection",
                      "battery_health_check", "software_update", "annual_inspection"]
Access = Literal["full", "drive_only", "unlock_only"]
PlaceCategory = Literal["home", "work", "favorite", "charger"]
RefundReason = Literal["interrupted", "overcharged", "station_fault"]

#: Services that do not fit a powertrain.
UNFIT_SERVICES = {"electric": ("oil_change",), "gasoline": ("battery_health_check",),
                  "plug_in_hybrid": ()}
_TIME = re.compile(r"^([01]\d|2[0-3]):([0-5]\d)$")
_EMAIL = re.compile(r"^[a-z0-9._%+-]+@[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,}$")


def money(value: float) -> float:
    """A dollar amount rounded to cents."""
    return round(float(value) + 0.0, 2)


def days_before_today(day: str) -> int:
    """Whole days from ``day`` (ISO date, or the date part of a moment) to ``TODAY``."""
    return (date.fromisoformat(TODAY) - date.fromisoformat(day[:10])).days


def check_time(value: str, name: str) -> str:
    """A time of day ``HH:MM`` (24-hour clock)."""
    if not _TIME.match(value):
        raise ToolError(f"{name} must be a time of day as HH:MM (24-hour clock), got "
                        f"{value[:40]!r}.")
    return value


def check_text(value: str, name: str, limit: int = MAX_TEXT) -> str:
    """A non-empty text of at most ``limit`` characters, stripped."""
    text = value.strip()
    if not text:
        raise ToolError(f"{name} must not be empty.")
    if len(text) > limit:
        raise ToolError(f"{name} is too long (at most {limit} characters).")
    return text


# ------------------------------------------------------------------------- records

_VEHICLE_COLUMNS = ("vehicle_id", "owner_id", "make", "model", "year", "color", "nickname",
                    "plate", "powertrain", "odometer_km", "locked", "climate_on",
                    "cabin_target_c", "battery_percent", "charge_limit_percent", "plugged_in",
                    "fuel_percent", "range_km", "parked_city", "nav_place_id")


def _owner(db: sqlite3.Connection, owner_id: str) -> dict:
    row = fetch_row(db, "SELECT owner_id, first_name, last_name, email, username, phone, city, "
                    "member_since FROM owners WHERE owner_id = ?", (owner_id,),
                    f"Owner {owner_id!r} not found.")
    return dict(zip(("owner_id", "first_name", "last_name", "email", "username", "phone",
                     "city", "member_since"), row))


def _vehicle(db: sqlite3.Connection, vehicle_id: str) -> dict:
    row = fetch_row(db, f"SELECT {', '.join(_VEHICLE_COLUMNS)} FROM vehicles "
                    "WHERE vehicle_id = ?", (vehicle_id,), f"Vehicle {vehicle_id!r} not found.")
    return dict(zip(_VEHICLE_COLUMNS, row))


def _plug_in(vehicle: dict) -> None:
    if vehicle["powertrain"] == "gasoline":
        raise ToolError(f"Vehicle {vehicle['vehicle_id']} is a gasoline vehicle: it has no "
                        "battery to charge.")


def _vehicle_summary(v: dict) -> dict:
    return {"vehicle_id": v["vehicle_id"], "nickname": v["nickname"], "make": v["make"],
            "model": v["model"], "year": v["year"], "color": v["color"], "plate": v["plate"],
            "powertrain": v["powertrain"]}


def _place(db: sqlite3.Connection, place_id: str) -> dict:
    row = fetch_row(db, "SELECT place_id, owner_id, label, address, city, category FROM places "
                    "WHERE place_id = ?", (place_id,), f"Place {place_id!r} not found.")
    return dict(zip(("place_id", "owner_id", "label", "address", "city", "category"), row))


def _dealer(db: sqlite3.Connection, dealer_id: str) -> dict:
    row = fetch_row(db, "SELECT dealer_id, name, city, phone, opens, closes, services_ev "
                    "FROM dealers WHERE dealer_id = ?", (dealer_id,),
                    f"Dealer {dealer_id!r} not found.")
    record = dict(zip(("dealer_id", "name", "city", "phone", "opens", "closes",
                       "services_ev"), row))
    record["services_ev"] = bool(record["services_ev"])
    return record


_APPOINTMENT_SQL = (
    "SELECT a.appointment_id, a.vehicle_id, v.owner_id, a.dealer_id, d.name, a.service_type, "
    "a.date, a.time, a.status, a.booked_on FROM service_appointments a "
    "JOIN vehicles v ON v.vehicle_id = a.vehicle_id JOIN dealers d ON d.dealer_id = a.dealer_id")
_APPOINTMENT_KEYS = ("appointment_id", "vehicle_id", "owner_id", "dealer_id", "dealer_name",
                     "service_type", "date", "time", "status", "booked_on")


def _appointment(db: sqlite3.Connection, appointment_id: str) -> dict:
    row = fetch_row(db, _APPOINTMENT_SQL + " WHERE a.appointment_id = ?", (appointment_id,),
                    f"Appointment {appointment_id!r} not found.")
    return dict(zip(_APPOINTMENT_KEYS, row))


_KEY_COLUMNS = ("key_id", "vehicle_id", "holder_name", "holder_email", "access", "status",
                "issued_on", "expires_on")


def _key(db: sqlite3.Connection, key_id: str) -> dict:
    row = fetch_row(db, f"SELECT {', '.join(_KEY_COLUMNS)} FROM digital_keys WHERE key_id = ?",
                    (key_id,), f"Digital key {key_id!r} not found.")
    return dict(zip(_KEY_COLUMNS, row))


def _check_slot(db: sqlite3.Connection, vehicle: dict, dealer: dict, day: str, time: str,
                ignore: str = "") -> None:
    """The booking rules of a date and time at a dealer for a vehicle."""
    check_date(day, "date")
    check_time(time, "time")
    today = date.fromisoformat(TODAY)
    if day <= TODAY:
        raise ToolError(f"The appointment date must be after today ({TODAY}).")
    if day > (today + timedelta(days=BOOKING_HORIZON_DAYS)).isoformat():
        raise ToolError(f"Appointments can be booked at most {BOOKING_HORIZON_DAYS} days ahead.")
    if date.fromisoformat(day).weekday() == 6:
        raise ToolError("Dealers are closed on Sundays.")
    if time[3:] not in ("00", "30"):
        raise ToolError("Appointments start on the hour or the half hour.")
    last = f"{int(dealer['closes'][:2]) - 1:02d}{dealer['closes'][2:]}"
    if not dealer["opens"] <= time <= last:
        raise ToolError(f"{dealer['name']} takes appointments from {dealer['opens']} to {last}.")
    if db.execute("SELECT 1 FROM service_appointments WHERE vehicle_id = ? AND date = ? "
                  "AND status = 'scheduled' AND appointment_id != ?",
                  (vehicle["vehicle_id"], day, ignore)).fetchone():
        raise ToolError(f"Vehicle {vehicle['vehicle_id']} already has an appointment on {day}.")


# --------------------------------------------------------------------------- READ


@tool(Category.READ, returns={".": OwnerId})
def find_owner_by_email(db, email: str) -> str:
    """Find an owner's id by the email address of their app account. Use it to authenticate
    the owner before anything else.

    Args:
        email: The owner's email address, such as 'jane.doe12@example.com'.
    """
    return find_id(db, "owners", "owner_id", "email", email.strip().lower(),
                   "No owner found with this email address.")


@tool(Category.READ, returns={".": OwnerId})
def find_owner_by_username(db, username: str) -> str:
    """Find an owner's id by the username of their app account. Use it to authenticate the
    owner before anything else.

    Args:
        username: The owner's app username, such as 'jdoe42'.
    """
    return find_id(db, "owners", "owner_id", "username", username.strip().lower(),
                   "No owner found with this username.")


@tool(Category.READ, returns={"owner_id": OwnerId, "vehicle_ids": VehicleId})
def get_owner_profile(db, owner_id: OwnerId) -> dict:
    """Get an owner's profile: name, contact details, home city and the ids of their
    vehicles.

    Args:
        owner_id: The owner's id, such as 'own_a1b2c3d4'.
    """
    record = _owner(db, owner_id)
    record["vehicle_ids"] = [r[0] for r in db.execute(
        "SELECT vehicle_id FROM vehicles WHERE owner_id = ? ORDER BY rowid", (owner_id,))]
    return record


@tool(Category.READ, returns={"owner_id": OwnerId, "vehicles.vehicle_id": VehicleId})
def list_vehicles(db, owner_id: OwnerId) -> dict:
    """List an owner's vehicles: nickname, make, model, year, color, plate and powertrain
    (electric, plug_in_hybrid or gasoline).

    Args:
        owner_id: The owner's id.
    """
    _owner(db, owner_id)
    ids = [r[0] for r in db.execute("SELECT vehicle_id FROM vehicles WHERE owner_id = ? "
                                    "ORDER BY rowid", (owner_id,))]
    return {"owner_id": owner_id,
            "vehicles": [_vehicle_summary(_vehicle(db, v)) for v in ids]}


@tool(Category.READ, returns={"vehicle_id": VehicleId, "owner_id": OwnerId,
                              "navigation.place_id": PlaceId})
def get_vehicle_status(db, vehicle_id: VehicleId) -> dict:
    """Get a vehicle's live status: locks, climate, battery and charge limit (plug-in
    vehicles), fuel, estimated range, odometer, where it is parked, the destination sent
    to its navigation and how many alerts are open.

    Args:
        vehicle_id: The vehicle's id, such as 'veh_k3j9x0p2'.
    """
    v = _vehicle(db, vehicle_id)
    nav = None
    if v["nav_place_id"] is not None:
        p = _place(db, v["nav_place_id"])
        nav = {"place_id": p["place_id"], "label": p["label"], "address": p["address"],
               "city": p["city"]}
    (alerts,) = db.execute("SELECT count(*) FROM alerts WHERE vehicle_id = ? "
                           "AND status = 'open'", (vehicle_id,)).fetchone()
    record = {**_vehicle_summary(v), "owner_id": v["owner_id"],
              "odometer_km": v["odometer_km"], "locked": bool(v["locked"]),
              "climate_on": bool(v["climate_on"]), "cabin_target_c": v["cabin_target_c"],
              "range_km": v["range_km"], "parked_city": v["parked_city"]}
    if v["powertrain"] != "gasoline":
        record.update(battery_percent=v["battery_percent"],
                      charge_limit_percent=v["charge_limit_percent"],
                      plugged_in=bool(v["plugged_in"]))
    if v["powertrain"] != "electric":
        record["fuel_percent"] = v["fuel_percent"]
    record.update(navigation=nav, open_alerts=alerts)
    return record


@tool(Category.READ, returns={"vehicle_id": VehicleId,
                              "schedules.schedule_id": ScheduleId})
def list_charge_schedules(db, vehicle_id: VehicleId) -> dict:
    """List the charging schedules of a plug-in vehicle (days, start and end time).

    Args:
        vehicle_id: The vehicle's id.
    """
    _plug_in(_vehicle(db, vehicle_id))
    rows = fetch_dicts(db, ("schedule_id", "days", "charge_start", "charge_end", "created_on"),
                       "SELECT schedule_id, days, charge_start, charge_end, created_on FROM "
                       "charge_schedules WHERE vehicle_id = ? ORDER BY rowid", (vehicle_id,))
    return {"vehicle_id": vehicle_id, "schedules": rows}


@tool(Category.READ, returns={"vehicle_id": VehicleId, "trips.trip_id": "trip_id"})
def list_trips(db, vehicle_id: VehicleId, start_date: str = "", end_date: str = "") -> dict:
    """List a vehicle's trips, newest first, optionally within a date range, with the number
    of trips and their total distance in kilometers.

    Args:
        vehicle_id: The vehicle's id.
        start_date: Earliest day to include, as YYYY-MM-DD (empty for no bound).
        end_date: Latest day to include, as YYYY-MM-DD (empty for no bound).
    """
    _vehicle(db, vehicle_id)
    start = check_date(start_date, "start_date") if start_date else "0000-00-00"
    end = check_date(end_date, "end_date") if end_date else "9999-99-99"
    if start > end:
        raise ToolError("start_date is after end_date.")
    rows = fetch_dicts(
        db, ("trip_id", "started_at", "ended_at", "start_location", "end_location",
             "distance_km", "avg_speed_kmh"),
        "SELECT trip_id, started_at, ended_at, start_location, end_location, distance_km, "
        "avg_speed_kmh FROM trips WHERE vehicle_id = ? AND substr(started_at, 1, 10) >= ? "
        "AND substr(started_at, 1, 10) <= ? ORDER BY started_at DESC, rowid DESC",
        (vehicle_id, start, end))
    total = round(sum(r["distance_km"] for r in rows), 1)
    return {"vehicle_id": vehicle_id, "trip_count": len(rows), "total_distance_km": total,
            "trips": rows}


@tool(Category.READ, returns={"owner_id": OwnerId,
                              "appointments.appointment_id": AppointmentId,
                              "appointments.vehicle_id": VehicleId,
                              "appointments.dealer_id": DealerId})
def list_service_appointments(db, owner_id: OwnerId) -> dict:
    """List the service appointments of an owner's vehicles (scheduled, completed and
    cancelled) with the dealer, service, date and time.

    Args:
        owner_id: The owner's id.
    """
    _owner(db, owner_id)
    rows = fetch_dicts(db, _APPOINTMENT_KEYS, _APPOINTMENT_SQL + " WHERE v.owner_id = ? "
                       "ORDER BY a.date, a.time, a.rowid", (owner_id,))
    for r in rows:
        del r["owner_id"]
    return {"owner_id": owner_id, "appointments": rows}


@tool(Category.READ, returns={"dealers.dealer_id": DealerId})
def find_dealers(db, city: str = "", name: str = "") -> dict:
    """Find service dealers by city and/or by a part of their name, with their opening
    hours and whether they service electric vehicles.

    Args:
        city: The city, such as 'Denver' (empty for any city).
        name: A part of the dealer's name, case-insensitive (empty for any name).
    """
    if not city.strip() and not name.strip():
        raise ToolError("Give a city or a part of the dealer's name.")
    ids = [r[0] for r in db.execute(
        "SELECT dealer_id FROM dealers WHERE (? = '' OR lower(city) = lower(?)) "
        "AND instr(lower(name), lower(?)) > 0 ORDER BY rowid",
        (city.strip(), city.strip(), name.strip()))]
    return {"dealers": [_dealer(db, d) for d in ids]}


@tool(Category.READ, returns={"vehicle_id": VehicleId, "keys.key_id": KeyId})
def list_digital_keys(db, vehicle_id: VehicleId) -> dict:
    """List the digital keys of a vehicle shared with other people: holder, access level,
    status (active, revoked or expired) and expiry date.

    Args:
        vehicle_id: The vehicle's id.
    """
    _vehicle(db, vehicle_id)
    rows = fetch_dicts(db, _KEY_COLUMNS[:1] + _KEY_COLUMNS[2:],
                       f"SELECT {', '.join(_KEY_COLUMNS[:1] + _KEY_COLUMNS[2:])} FROM "
                       "digital_keys WHERE vehicle_id = ? ORDER BY rowid", (vehicle_id,))
    return {"vehicle_id": vehicle_id, "keys": rows}


@tool(Category.READ, returns={"vehicle_id": VehicleId, "alerts.alert_id": AlertId})
def list_alerts(db, vehicle_id: VehicleId) -> dict:
    """List a vehicle's alerts, newest first: kind, message, when it was raised and its
    status (open, acknowledged or resolved).

    Args:
        vehicle_id: The vehicle's id.
    """
    _vehicle(db, vehicle_id)
    rows = fetch_dicts(db, ("alert_id", "kind", "message", "raised_at", "status"),
                       "SELECT alert_id, kind, message, raised_at, status FROM alerts "
                       "WHERE vehicle_id = ? ORDER BY raised_at DESC, rowid DESC", (vehicle_id,))
    return {"vehicle_id": vehicle_id, "alerts": rows}


@tool(Category.READ, returns={"owner_id": OwnerId, "places.place_id": PlaceId})
def list_saved_places(db, owner_id: OwnerId) -> dict:
    """List the places an owner has saved for navigation (home, work, favorites,
    chargers).

    Args:
        owner_id: The owner's id.
    """
    _owner(db, owner_id)
    rows = fetch_dicts(db, ("place_id", "label", "address", "city", "category"),
                       "SELECT place_id, label, address, city, category FROM places "
                       "WHERE owner_id = ? ORDER BY rowid", (owner_id,))
    return {"owner_id": owner_id, "places": rows}


@tool(Category.READ, returns={"vehicle_id": VehicleId, "sessions.session_id": SessionId})
def list_charging_sessions(db, vehicle_id: VehicleId) -> dict:
    """List the public charging sessions of a plug-in vehicle, newest first: station,
    city, start, energy, cost, status (completed or interrupted) and any refund request.

    Args:
        vehicle_id: The vehicle's id.
    """
    _plug_in(_vehicle(db, vehicle_id))
    rows = fetch_dicts(
        db, ("session_id", "station", "city", "started_at", "energy_kwh", "cost", "status",
             "refund_status"),
        "SELECT s.session_id, s.station, s.city, s.started_at, s.energy_kwh, s.cost, s.status, "
        "r.status FROM charging_sessions s LEFT JOIN charging_refunds r "
        "ON r.session_id = s.session_id WHERE s.vehicle_id = ? "
        "ORDER BY s.started_at DESC, s.rowid DESC", (vehicle_id,))
    return {"vehicle_id": vehicle_id, "sessions": rows}


transfer_to_human_agents = human_transfer_tool(
    "Transfer the owner to a human agent, with a summary of their issue. Only transfer if "
    "the owner explicitly asks for a human agent, or if the request cannot be handled with "
    "the policy and the available tools.",
    "A summary of the owner's issue.")


# -------------------------------------------------------------------------- WRITE


def _set_flag(db: sqlite3.Connection, vehicle_id: str, column: str, value: int,
              already: str) -> dict:
    v = _vehicle(db, vehicle_id)
    if v[column] == value:
        raise ToolError(already)
    db.execute(f"UPDATE vehicles SET {column} = ? WHERE vehicle_id = ?", (value, vehicle_id))
    return get_vehicle_status.fn(db, vehicle_id)


@tool(Category.WRITE, returns={"vehicle_id": VehicleId}, writes=("vehicle_id",))
def lock_vehicle(db, vehicle_id: VehicleId) -> dict:
    """Lock an unlocked vehicle remotely. Confirm with the owner (explicit yes) before
    calling.

    Args:
        vehicle_id: The vehicle's id.
    """
    return _set_flag(db, vehicle_id, "locked", 1, "The vehicle is already locked.")


@tool(Category.WRITE, returns={"vehicle_id": VehicleId}, writes=("vehicle_id",))
def unlock_vehicle(db, vehicle_id: VehicleId) -> dict:
    """Unlock a locked vehicle remotely. Confirm with the owner (explicit yes) before
    calling.

    Args:
        vehicle_id: The vehicle's id.
    """
    return _set_flag(db, vehicle_id, "locked", 0, "The vehicle is already unlocked.")


@tool(Category.WRITE, returns={"vehicle_id": VehicleId}, writes=("vehicle_id",))
def start_climate(db, vehicle_id: VehicleId, cabin_target_c: float) -> dict:
    """Start the vehicle's climate control remotely (pre-heat or pre-cool the cabin) to a
    target temperature. Needs at least 30 km of range. Confirm with the owner (explicit
    yes) before calling.

    Args:
        vehicle_id: The vehicle's id.
        cabin_target_c: The cabin temperature in degrees Celsius, 16 to 28, in steps of 0.5.
    """
    v = _vehicle(db, vehicle_id)
    if not 16 <= cabin_target_c <= 28 or (cabin_target_c * 2) % 1:
        raise ToolError("The cabin temperature must be between 16 and 28 degrees Celsius, in "
                        "steps of 0.5.")
    if v["climate_on"]:
        raise ToolError("The climate control is already on.")
    if v["range_km"] < MIN_CLIMATE_RANGE_KM:
        raise ToolError(f"The range is too low ({v['range_km']} km) to run the climate control "
                        f"remotely: at least {MIN_CLIMATE_RANGE_KM} km is needed.")
    db.execute("UPDATE vehicles SET climate_on = 1, cabin_target_c = ? WHERE vehicle_id = ?",
               (float(cabin_target_c), vehicle_id))
    return get_vehicle_status.fn(db, vehicle_id)


@tool(Category.WRITE, returns={"vehicle_id": VehicleId}, writes=("vehicle_id",))
def stop_climate(db, vehicle_id: VehicleId) -> dict:
    """Stop the vehicle's climate control. Confirm with the owner (explicit yes) before
    calling.

    Args:
        vehicle_id: The vehicle's id.
    """
    return _set_flag(db, vehicle_id, "climate_on", 0, "The climate control is already off.")


@tool(Category.WRITE, returns={"vehicle_id": VehicleId}, writes=("vehicle_id",))
def set_charge_limit(db, vehicle_id: VehicleId, charge_limit_percent: int) -> dict:
    """Set the charge limit of a plug-in vehicle: charging stops at this battery level.
    Confirm with the owner (explicit yes) before calling.

    Args:
        vehicle_id: The vehicle's id.
        charge_limit_percent: The limit in percent, 50 to 100.
    """
    v = _vehicle(db, vehicle_id)
    _plug_in(v)
    if not 50 <= charge_limit_percent <= 100:
        raise ToolError("The charge limit must be between 50 and 100 percent.")
    if v["charge_limit_percent"] == charge_limit_percent:
        raise ToolError(f"The charge limit is already {charge_limit_percent}%.")
    db.execute("UPDATE vehicles SET charge_limit_percent = ? WHERE vehicle_id = ?",
               (charge_limit_percent, vehicle_id))
    return {"vehicle_id": vehicle_id, "charge_limit_percent": charge_limit_percent,
            "battery_percent": v["battery_percent"]}


@tool(Category.WRITE, returns={"schedule_id": ScheduleId, "vehicle_id": VehicleId},
      writes=("schedule_id",), needs=("vehicle_id",))
def add_charge_schedule(db, vehicle_id: VehicleId, days: Days, charge_start: str,
                        charge_end: str) -> dict:
    """Add a charging schedule to a plug-in vehicle: it charges on those days between the
    start and end time (an end before the start runs past midnight). At most three
    schedules per vehicle. Confirm with the owner (explicit yes) before calling.

    Args:
        vehicle_id: The vehicle's id.
        days: 'daily', 'weekdays' or 'weekends'.
        charge_start: When charging starts, HH:MM (24-hour clock).
        charge_end: When charging stops, HH:MM (24-hour clock), not equal to the start.
    """
    v = _vehicle(db, vehicle_id)
    _plug_in(v)
    check_time(charge_start, "charge_start")
    check_time(charge_end, "charge_end")
    if charge_start == charge_end:
        raise ToolError("The start and end time must differ.")
    (count,) = db.execute("SELECT count(*) FROM charge_schedules WHERE vehicle_id = ?",
                          (vehicle_id,)).fetchone()
    if count >= MAX_SCHEDULES:
        raise ToolError(f"The vehicle already has {MAX_SCHEDULES} charging schedules; remove "
                        "one first.")
    if db.execute("SELECT 1 FROM charge_schedules WHERE vehicle_id = ? AND days = ? "
                  "AND charge_start = ?", (vehicle_id, days, charge_start)).fetchone():
        raise ToolError(f"A {days} schedule starting at {charge_start} already exists.")
    schedule_id = counted_id(db, "charge_schedules", "schedule_id", "sch_")
    db.execute("INSERT INTO charge_schedules (schedule_id, vehicle_id, days, charge_start, "
               "charge_end, created_on) VALUES (?, ?, ?, ?, ?, ?)",
               (schedule_id, vehicle_id, days, charge_start, charge_end, TODAY))
    return {"schedule_id": schedule_id, "vehicle_id": vehicle_id, "days": days,
            "charge_start": charge_start, "charge_end": charge_end, "created_on": TODAY}


@tool(Category.WRITE, returns={"schedule_id": ScheduleId}, writes=("schedule_id",))
def remove_charge_schedule(db, schedule_id: ScheduleId) -> dict:
    """Remove a charging schedule. Confirm with the owner (explicit yes) before calling.

    Args:
        schedule_id: The schedule's id.
    """
    row = fetch_row(db, "SELECT vehicle_id, days, charge_start, charge_end FROM charge_schedules "
                    "WHERE schedule_id = ?", (schedule_id,),
                    f"Charging schedule {schedule_id!r} not found.")
    db.execute("DELETE FROM charge_schedules WHERE schedule_id = ?", (schedule_id,))
    return {"schedule_id": schedule_id, "vehicle_id": row[0], "days": row[1],
            "charge_start": row[2], "charge_end": row[3], "removed": True}


@tool(Category.WRITE, returns={"place_id": PlaceId, "owner_id": OwnerId},
      writes=("place_id",))
def save_place(db, owner_id: OwnerId, label: str, address: str, city: str,
               category: PlaceCategory) -> dict:
    """Save a new place for navigation under a label the owner chooses. Confirm with the
    owner (explicit yes) before calling.

    Args:
        owner_id: The owner's id.
        label: The place's label, unique among the owner's places (such as 'Gym').
        address: The street address.
        city: The city.
        category: 'home', 'work', 'favorite' or 'charger'.
    """
    _owner(db, owner_id)
    label = check_text(label, "label", 60)
    address = check_text(address, "address")
    city = check_text(city, "city", 60)
    (count,) = db.execute("SELECT count(*) FROM places WHERE owner_id = ?",
                          (owner_id,)).fetchone()
    if count >= MAX_PLACES:
        raise ToolError(f"An owner can save at most {MAX_PLACES} places.")
    if db.execute("SELECT 1 FROM places WHERE owner_id = ? AND lower(label) = lower(?)",
                  (owner_id, label)).fetchone():
        raise ToolError(f"A place labelled {label!r} already exists.")
    place_id = counted_id(db, "places", "place_id", "plc_")
    db.execute("INSERT INTO places (place_id, owner_id, label, address, city, category) "
               "VALUES (?, ?, ?, ?, ?, ?)", (place_id, owner_id, label, address, city, category))
    return _place(db, place_id)


@tool(Category.WRITE, returns={"vehicle_id": VehicleId, "place_id": PlaceId},
      writes=("vehicle_id",), needs=("place_id",))
def send_destination(db, vehicle_id: VehicleId, place_id: PlaceId) -> dict:
    """Send one of the owner's saved places to the vehicle's navigation as its destination
    (it replaces the current one). Confirm with the owner (explicit yes) before calling.

    Args:
        vehicle_id: The vehicle's id.
        place_id: The saved place's id (saved by the vehicle's owner).
    """
    v = _vehicle(db, vehicle_id)
    p = _place(db, place_id)
    if p["owner_id"] != v["owner_id"]:
        raise ToolError("The place is not saved by the vehicle's owner.")
    if v["nav_place_id"] == place_id:
        raise ToolError(f"{p['label']} is already the vehicle's destination.")
    db.execute("UPDATE vehicles SET nav_place_id = ? WHERE vehicle_id = ?",
               (place_id, vehicle_id))
    return {"vehicle_id": vehicle_id, "place_id": place_id, "label": p["label"],
            "address": p["address"], "city": p["city"]}


@tool(Category.WRITE, returns={"appointment_id": AppointmentId, "vehicle_id": VehicleId,
                               "dealer_id": DealerId},
      writes=("appointment_id",), needs=("vehicle_id",))
def book_service_appointment(db, vehicle_id: VehicleId, dealer_id: DealerId,
                             service_type: ServiceType, date: str, time: str) -> dict:
    """Book a service appointment for a vehicle at a dealer: after today and at most 90
    days ahead, not on a Sunday, on the hour or half hour within the dealer's hours (the
    last start one hour before closing), one per vehicle per day. Electric vehicles only at
    dealers that service them; no oil change for an electric vehicle, no battery health
    check for a gasoline one. Confirm with the owner (explicit yes) before calling.

    Args:
        vehicle_id: The vehicle's id.
        dealer_id: The dealer's id.
        service_type: The service to book.
        date: The day, YYYY-MM-DD.
        time: The start time, HH:MM (24-hour clock).
    """
    v = _vehicle(db, vehicle_id)
    d = _dealer(db, dealer_id)
    if service_type in UNFIT_SERVICES[v["powertrain"]]:
        raise ToolError(f"A {service_type} does not apply to a {v['powertrain']} vehicle.")
    if v["powertrain"] == "electric" and not d["services_ev"]:
        raise ToolError(f"{d['name']} does not service electric vehicles.")
    _check_slot(db, v, d, date, time)
    appointment_id = counted_id(db, "service_appointments", "appointment_id", "apt_")
    db.execute("INSERT INTO service_appointments (appointment_id, vehicle_id, dealer_id, "
               "service_type, date, time, status, booked_on) "
               "VALUES (?, ?, ?, ?, ?, ?, 'scheduled', ?)",
               (appointment_id, vehicle_id, dealer_id, service_type, date, time, TODAY))
    record = _appointment(db, appointment_id)
    del record["owner_id"]
    return record


def _scheduled(db: sqlite3.Connection, appointment_id: str, verb: str) -> dict:
    a = _appointment(db, appointment_id)
    if a["status"] != "scheduled":
        raise ToolError(f"The appointment is {a['status']} (on {a['date']}): only a scheduled "
                        f"appointment can be {verb}.")
    return a


@tool(Category.WRITE, returns={"appointment_id": AppointmentId, "vehicle_id": VehicleId,
                               "dealer_id": DealerId}, writes=("appointment_id",))
def reschedule_service_appointment(db, appointment_id: AppointmentId, date: str,
                                   time: str) -> dict:
    """Move a scheduled service appointment to another date and time at the same dealer
    (the booking rules apply). Confirm with the owner (explicit yes) before calling.

    Args:
        appointment_id: The appointment's id.
        date: The new day, YYYY-MM-DD.
        time: The new start time, HH:MM (24-hour clock).
    """
    a = _scheduled(db, appointment_id, "rescheduled")
    if (a["date"], a["time"]) == (date, time):
        raise ToolError("The appointment is already at that date and time.")
    _check_slot(db, _vehicle(db, a["vehicle_id"]), _dealer(db, a["dealer_id"]), date, time,
                ignore=appointment_id)
    db.execute("UPDATE service_appointments SET date = ?, time = ? WHERE appointment_id = ?",
               (date, time, appointment_id))
    record = _appointment(db, appointment_id)
    del record["owner_id"]
    return record


@tool(Category.WRITE, returns={"appointment_id": AppointmentId}, writes=("appointment_id",))
def cancel_service_appointment(db, appointment_id: AppointmentId) -> dict:
    """Cancel a scheduled service appointment. Confirm with the owner (explicit yes) before
    calling.

    Args:
        appointment_id: The appointment's id.
    """
    a = _scheduled(db, appointment_id, "cancelled")
    db.execute("UPDATE service_appointments SET status = 'cancelled' WHERE appointment_id = ?",
               (appointment_id,))
    return {"appointment_id": appointment_id, "service_type": a["service_type"],
            "date": a["date"], "status": "cancelled"}


@tool(Category.WRITE, returns={"key_id": KeyId, "vehicle_id": VehicleId},
      writes=("key_id",), needs=("vehicle_id",))
def share_digital_key(db, vehicle_id: VehicleId, holder_name: str, holder_email: str,
                      access: Access, expires_on: str) -> dict:
    """Share a digital key of a vehicle with another person until a date (at most a year
    ahead). At most five active keys per vehicle, one per person. Confirm with the owner
    (explicit yes) before calling.

    Args:
        vehicle_id: The vehicle's id.
        holder_name: The full name of the person who gets the key.
        holder_email: Their email address (the key is sent there).
        access: 'full' (unlock and drive), 'drive_only' or 'unlock_only'.
        expires_on: The last day the key works, YYYY-MM-DD, after today.
    """
    v = _vehicle(db, vehicle_id)
    name = check_text(holder_name, "holder_name", 80)
    email = holder_email.strip().lower()
    if not _EMAIL.match(email) or len(email) > 120:
        raise ToolError(f"{holder_email[:80]!r} is not a valid email address.")
    check_date(expires_on, "expires_on")
    if expires_on <= TODAY:
        raise ToolError(f"The key must expire after today ({TODAY}).")
    if expires_on > (date.fromisoformat(TODAY) + timedelta(days=MAX_KEY_DAYS)).isoformat():
        raise ToolError(f"A key can be shared for at most {MAX_KEY_DAYS} days.")
    if email == _owner(db, v["owner_id"])["email"]:
        raise ToolError("The owner does not need a shared key for their own vehicle.")
    active = [r[0] for r in db.execute("SELECT holder_email FROM digital_keys WHERE "
                                       "vehicle_id = ? AND status = 'active'", (vehicle_id,))]
    if email in active:
        raise ToolError(f"{email} already holds an active key for this vehicle.")
    if len(active) >= MAX_ACTIVE_KEYS:
        raise ToolError(f"The vehicle already has {MAX_ACTIVE_KEYS} active keys; revoke one "
                        "first.")
    key_id = counted_id(db, "digital_keys", "key_id", "key_")
    db.execute("INSERT INTO digital_keys (key_id, vehicle_id, holder_name, holder_email, "
               "access, status, issued_on, expires_on) VALUES (?, ?, ?, ?, ?, 'active', ?, ?)",
               (key_id, vehicle_id, name, email, access, TODAY, expires_on))
    return _key(db, key_id)


@tool(Category.WRITE, returns={"key_id": KeyId, "vehicle_id": VehicleId},
      writes=("key_id",))
def revoke_digital_key(db, key_id: KeyId) -> dict:
    """Revoke an active digital key: it stops working at once. Confirm with the owner
    (explicit yes) before calling.

    Args:
        key_id: The key's id.
    """
    k = _key(db, key_id)
    if k["status"] != "active":
        raise ToolError(f"The key is already {k['status']}.")
    db.execute("UPDATE digital_keys SET status = 'revoked' WHERE key_id = ?", (key_id,))
    k["status"] = "revoked"
    return k


@tool(Category.WRITE, returns={"alert_id": AlertId}, writes=("alert_id",))
def acknowledge_alert(db, alert_id: AlertId) -> dict:
    """Mark an open alert as acknowledged by the owner. Confirm with the owner (explicit
    yes) before calling.

    Args:
        alert_id: The alert's id.
    """
    row = fetch_row(db, "SELECT kind, status FROM alerts WHERE alert_id = ?", (alert_id,),
                    f"Alert {alert_id!r} not found.")
    if row[1] != "open":
        raise ToolError(f"The alert is already {row[1]}.")
    db.execute("UPDATE alerts SET status = 'acknowledged' WHERE alert_id = ?", (alert_id,))
    return {"alert_id": alert_id, "kind": row[0], "status": "acknowledged"}


@tool(Category.WRITE, returns={"refund_id": "refund_id", "session_id": SessionId},
      writes=("refund_id", "session_id"), needs=("session_id",))
def request_charging_refund(db, session_id: SessionId, reason: RefundReason) -> dict:
    """Request a refund of the full cost of a public charging session (once per session).
    Check the policy's time window first. Confirm with the owner (explicit yes) before
    calling.

    Args:
        session_id: The charging session's id.
        reason: 'interrupted' (charging stopped early), 'overcharged' (billed more than
            delivered) or 'station_fault' (the station failed).
    """
    row = fetch_row(db, "SELECT cost FROM charging_sessions WHERE session_id = ?",
                    (session_id,), f"Charging session {session_id!r} not found.")
    if db.execute("SELECT 1 FROM charging_refunds WHERE session_id = ?",
                  (session_id,)).fetchone():
        raise ToolError("A refund was already requested for this session.")
    refund_id = counted_id(db, "charging_refunds", "refund_id", "ref_")
    db.execute("INSERT INTO charging_refunds (refund_id, session_id, reason, amount, status, "
               "requested_on) VALUES (?, ?, ?, ?, 'pending', ?)",
               (refund_id, session_id, reason, money(row[0]), TODAY))
    return {"refund_id": refund_id, "session_id": session_id, "reason": reason,
            "amount": money(row[0]), "status": "pending", "requested_on": TODAY}
