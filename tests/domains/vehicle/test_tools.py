"""Each vehicle tool: its success path and its error paths; failed writes change nothing;
the invariants catch broken rules."""

from __future__ import annotations

from collections import Counter

from tool_gym.core.tools import Category
from tool_gym.domains.vehicle import DOMAIN
from tool_gym.domains.vehicle.tools import TODAY

from ..calls import rules_catch


def test_toolbox_has_twenty_tools_at_least():
    counts = Counter(t.category for t in DOMAIN.toolbox)
    assert len(DOMAIN.toolbox) >= 20
    assert counts[Category.READ] >= 10 and counts[Category.WRITE] >= 10


def _ev(call, where: str = "1"):
    """An electric vehicle (id, owner) matching ``where``."""
    return call.one(f"SELECT vehicle_id, owner_id FROM vehicles WHERE powertrain = 'electric' "
                    f"AND {where} ORDER BY rowid LIMIT 1")


def _gas(call):
    return call.one("SELECT vehicle_id FROM vehicles WHERE powertrain = 'gasoline' LIMIT 1")[0]


# --------------------------------------------------------------------------- reads

def test_find_owner_and_profile(call, state):
    owner = state["owners"][5]
    assert call.ok("find_owner_by_email", email=f" {owner['email'].upper()} ") == \
        owner["owner_id"]
    assert call.ok("find_owner_by_username", username=owner["username"]) == owner["owner_id"]
    call.err("find_owner_by_email", email="nobody@example.com")
    call.err("find_owner_by_username", username="nobody")
    profile = call.ok("get_owner_profile", owner_id=owner["owner_id"])
    mine = [v["vehicle_id"] for v in state["vehicles"] if v["owner_id"] == owner["owner_id"]]
    assert profile["vehicle_ids"] == mine and profile["email"] == owner["email"]
    vehicles = call.ok("list_vehicles", owner_id=owner["owner_id"])["vehicles"]
    assert [v["vehicle_id"] for v in vehicles] == mine and "vin" not in vehicles[0]
    for name in ("get_owner_profile", "list_vehicles", "list_service_appointments",
                 "list_saved_places"):
        assert "not found" in call.err(name, owner_id="own_missing")


def test_vehicle_status(call):
    ev, _ = _ev(call)
    status = call.ok("get_vehicle_status", vehicle_id=ev)
    assert {"battery_percent", "charge_limit_percent", "plugged_in"} <= set(status)
    assert "fuel_percent" not in status and isinstance(status["locked"], bool)
    gas = call.ok("get_vehicle_status", vehicle_id=_gas(call))
    assert "battery_percent" not in gas and "fuel_percent" in gas
    routed, place = call.one("SELECT vehicle_id, nav_place_id FROM vehicles "
                             "WHERE nav_place_id IS NOT NULL LIMIT 1")
    assert call.ok("get_vehicle_status", vehicle_id=routed)["navigation"]["place_id"] == place
    assert "not found" in call.err("get_vehicle_status", vehicle_id="veh_missing")


def test_plug_in_reads(call):
    ev, _ = call.one("SELECT s.vehicle_id, count(*) FROM charging_sessions s "
                     "GROUP BY s.vehicle_id HAVING count(*) >= 2 LIMIT 1")
    sessions = call.ok("list_charging_sessions", vehicle_id=ev)["sessions"]
    starts = [s["started_at"] for s in sessions]
    assert len(sessions) >= 2 and starts == sorted(starts, reverse=True)
    scheduled, = call.one("SELECT vehicle_id FROM charge_schedules LIMIT 1")
    assert call.ok("list_charge_schedules", vehicle_id=scheduled)["schedules"]
    for name in ("list_charge_schedules", "list_charging_sessions"):
        assert "gasoline" in call.err(name, vehicle_id=_gas(call))
        assert "not found" in call.err(name, vehicle_id="veh_missing")


def test_trips(call):
    vehicle, day = call.one("SELECT vehicle_id, substr(started_at, 1, 10) FROM trips "
                            "GROUP BY vehicle_id, substr(started_at, 1, 10) "
                            "HAVING count(*) >= 2 LIMIT 1")
    every = call.ok("list_trips", vehicle_id=vehicle)
    assert every["trip_count"] == len(every["trips"]) >= 2
    one_day = call.ok("list_trips", vehicle_id=vehicle, start_date=day, end_date=day)
    assert one_day["trip_count"] >= 2
    assert one_day["total_distance_km"] == round(sum(t["distance_km"]
                                                     for t in one_day["trips"]), 1)
    assert all(t["started_at"].startswith(day) for t in one_day["trips"])
    assert "YYYY-MM-DD" in call.err("list_trips", vehicle_id=vehicle, start_date="May 1")
    assert "after end_date" in call.err("list_trips", vehicle_id=vehicle,
                                        start_date="2025-04-10", end_date="2025-04-01")
    assert "not found" in call.err("list_trips", vehicle_id="veh_missing")


def test_appointments_dealers_keys_alerts_places(call):
    owner, = call.one("SELECT v.owner_id FROM service_appointments a JOIN vehicles v "
                      "USING (vehicle_id) LIMIT 1")
    appointments = call.ok("list_service_appointments", owner_id=owner)["appointments"]
    assert appointments and all(a["dealer_name"] for a in appointments)
    dealers = call.ok("find_dealers", city="denver")["dealers"]
    assert dealers and all(d["city"] == "Denver" for d in dealers)
    named = call.ok("find_dealers", name="summit")["dealers"]
    assert named and all("Summit" in d["name"] for d in named)
    assert call.ok("find_dealers", city="Nowhere")["dealers"] == []
    assert "city or a part" in call.err("find_dealers")
    keyed, = call.one("SELECT vehicle_id FROM digital_keys LIMIT 1")
    assert call.ok("list_digital_keys", vehicle_id=keyed)["keys"]
    alerted, = call.one("SELECT vehicle_id FROM alerts LIMIT 1")
    assert call.ok("list_alerts", vehicle_id=alerted)["alerts"]
    assert call.ok("list_saved_places", owner_id=owner)["places"]
    for name in ("list_digital_keys", "list_alerts"):
        assert "not found" in call.err(name, vehicle_id="veh_missing")
    assert call.ok("transfer_to_human_agents", summary="help") == "Transfer successful"


# -------------------------------------------------------------------------- writes

def test_locks_and_climate(call, box):
    vehicle, = call.one("SELECT vehicle_id FROM vehicles WHERE locked = 1 AND climate_on = 0 "
                        "AND range_km >= 60 LIMIT 1")
    assert "already locked" in call.err("lock_vehicle", vehicle_id=vehicle)
    assert call.ok("unlock_vehicle", vehicle_id=vehicle)["locked"] is False
    assert "already unlocked" in call.err("unlock_vehicle", vehicle_id=vehicle)
    assert call.ok("lock_vehicle", vehicle_id=vehicle)["locked"] is True
    assert "already off" in call.err("stop_climate", vehicle_id=vehicle)
    assert "between 16 and 28" in call.err("start_climate", vehicle_id=vehicle,
                                           cabin_target_c=30)
    assert "steps of 0.5" in call.err("start_climate", vehicle_id=vehicle,
                                      cabin_target_c=21.3)
    on = call.ok("start_climate", vehicle_id=vehicle, cabin_target_c=22.5)
    assert on["climate_on"] is True and on["cabin_target_c"] == 22.5
    assert "already on" in call.err("start_climate", vehicle_id=vehicle, cabin_target_c=21)
    assert call.ok("stop_climate", vehicle_id=vehicle)["climate_on"] is False
    low, = call.one("SELECT vehicle_id FROM vehicles WHERE range_km < 30 AND climate_on = 0 "
                    "LIMIT 1")
    assert "range is too low" in call.err("start_climate", vehicle_id=low, cabin_target_c=21)
    assert "not found" in call.err("lock_vehicle", vehicle_id="veh_missing")
    assert "must be of type number" in call.err("start_climate", vehicle_id=vehicle,
                                                cabin_target_c="21")
    assert box.check_integrity() == []


def test_charge_limit(call):
    ev, _ = _ev(call)
    current, = call.one("SELECT charge_limit_percent FROM vehicles WHERE vehicle_id = ?", (ev,))
    new = 60 if current != 60 else 65
    assert call.ok("set_charge_limit", vehicle_id=ev, charge_limit_percent=new)[
        "charge_limit_percent"] == new
    assert "already" in call.err("set_charge_limit", vehicle_id=ev, charge_limit_percent=new)
    assert "between 50 and 100" in call.err("set_charge_limit", vehicle_id=ev,
                                            charge_limit_percent=40)
    assert "gasoline" in call.err("set_charge_limit", vehicle_id=_gas(call),
                                  charge_limit_percent=80)
    assert "must be of type integer" in call.err("set_charge_limit", vehicle_id=ev,
                                                 charge_limit_percent=80.5)


def test_charge_schedules(call, box):
    ev, _ = _ev(call, "NOT EXISTS (SELECT 1 FROM charge_schedules s "
                      "WHERE s.vehicle_id = vehicles.vehicle_id)")
    made = call.ok("add_charge_schedule", vehicle_id=ev, days="weekdays", charge_start="23:00",
                   charge_end="06:00")
    assert made["schedule_id"].startswith("sch_") and made["created_on"] == TODAY
    assert "already exists" in call.err("add_charge_schedule", vehicle_id=ev,
                                        days="weekdays", charge_start="23:00", charge_end="07:00")
    assert "HH:MM" in call.err("add_charge_schedule", vehicle_id=ev, days="daily",
                               charge_start="11pm", charge_end="06:00")
    assert "must differ" in call.err("add_charge_schedule", vehicle_id=ev, days="daily",
                                     charge_start="06:00", charge_end="06:00")
    assert "must be one of" in call.err("add_charge_schedule", vehicle_id=ev, days="mondays",
                                        charge_start="01:00", charge_end="06:00")
    call.ok("add_charge_schedule", vehicle_id=ev, days="daily", charge_start="01:00",
            charge_end="05:00")
    call.ok("add_charge_schedule", vehicle_id=ev, days="weekends", charge_start="01:00",
            charge_end="05:00")
    assert "already has 3" in call.err("add_charge_schedule", vehicle_id=ev, days="daily",
                                       charge_start="02:00", charge_end="05:00")
    assert call.ok("remove_charge_schedule", schedule_id=made["schedule_id"])["removed"]
    assert "not found" in call.err("remove_charge_schedule", schedule_id=made["schedule_id"])
    assert "gasoline" in call.err("add_charge_schedule", vehicle_id=_gas(call), days="daily",
                                  charge_start="01:00", charge_end="05:00")
    assert box.check_integrity() == []


def test_places_and_destinations(call, state):
    vehicle, owner, current = call.one("SELECT vehicle_id, owner_id, nav_place_id FROM vehicles "
                                       "ORDER BY rowid LIMIT 1")
    place = call.ok("save_place", owner_id=owner, label="Yoga Studio", address="12 Elm Street",
                    city="Denver", category="favorite")
    assert place["label"] == "Yoga Studio" and place["place_id"].startswith("plc_")
    assert "already exists" in call.err("save_place", owner_id=owner, label="yoga studio",
                                        address="1 Main Street", city="Denver",
                                        category="favorite")
    assert "must not be empty" in call.err("save_place", owner_id=owner, label="  ",
                                           address="x", city="Denver", category="home")
    assert "too long" in call.err("save_place", owner_id=owner, label="Long", address="x" * 201,
                                  city="Denver", category="home")
    assert "must be one of" in call.err("save_place", owner_id=owner, label="Spa",
                                        address="x", city="Denver", category="spa")
    sent = call.ok("send_destination", vehicle_id=vehicle, place_id=place["place_id"])
    assert sent["label"] == "Yoga Studio"
    assert call.ok("get_vehicle_status", vehicle_id=vehicle)["navigation"]["place_id"] == \
        place["place_id"]
    assert "already" in call.err("send_destination", vehicle_id=vehicle,
                                 place_id=place["place_id"])
    stranger, = call.one("SELECT place_id FROM places WHERE owner_id != ? LIMIT 1", (owner,))
    assert "not saved by the vehicle's owner" in call.err("send_destination",
                                                          vehicle_id=vehicle,
                                                          place_id=stranger)
    assert "not found" in call.err("send_destination", vehicle_id=vehicle,
                                   place_id="plc_missing")


def test_place_limit(call):
    owner, = call.one("SELECT owner_id FROM owners LIMIT 1")
    (count,) = call.one("SELECT count(*) FROM places WHERE owner_id = ?", (owner,))
    for i in range(20 - count):
        call.ok("save_place", owner_id=owner, label=f"Spot {i}", address="1 Main Street",
                city="Denver", category="favorite")
    assert "at most 20" in call.err("save_place", owner_id=owner, label="One more",
                                    address="x", city="Denver", category="favorite")


def _bookable(call):
    """An electric vehicle without scheduled appointments and an EV dealer of its city."""
    return call.one(
        "SELECT v.vehicle_id, d.dealer_id, d.opens FROM vehicles v JOIN owners o "
        "USING (owner_id) JOIN dealers d ON d.city = o.city AND d.services_ev = 1 "
        "WHERE v.powertrain = 'electric' AND NOT EXISTS (SELECT 1 FROM service_appointments a "
        "WHERE a.vehicle_id = v.vehicle_id AND a.status = 'scheduled') LIMIT 1")


def test_book_and_cancel_appointment(call, box):
    vehicle, dealer, opens = _bookable(call)
    made = call.ok("book_service_appointment", vehicle_id=vehicle, dealer_id=dealer,
                   service_type="tire_rotation", date="2025-04-22", time=opens)
    assert made["status"] == "scheduled" and made["dealer_id"] == dealer
    args = {"vehicle_id": vehicle, "dealer_id": dealer, "service_type": "tire_rotation"}
    assert "already has an appointment" in call.err("book_service_appointment", **args,
                                                    date="2025-04-22", time=opens)
    assert "after today" in call.err("book_service_appointment", **args, date=TODAY,
                                     time=opens)
    assert "at most 90 days" in call.err("book_service_appointment", **args,
                                         date="2025-09-01", time=opens)
    assert "Sundays" in call.err("book_service_appointment", **args, date="2025-04-20",
                                 time=opens)
    assert "half hour" in call.err("book_service_appointment", **args, date="2025-04-23",
                                   time="09:15")
    assert "takes appointments" in call.err("book_service_appointment", **args,
                                            date="2025-04-23", time="05:00")
    assert "does not apply" in call.err("book_service_appointment", **dict(
        args, service_type="oil_change"), date="2025-04-23", time=opens)
    assert "HH:MM" in call.err("book_service_appointment", **args, date="2025-04-23",
                               time="9am")
    no_ev, = call.one("SELECT dealer_id FROM dealers WHERE services_ev = 0 LIMIT 1")
    assert "does not service electric" in call.err("book_service_appointment", **dict(
        args, dealer_id=no_ev), date="2025-04-23", time="10:00")
    moved = call.ok("reschedule_service_appointment", appointment_id=made["appointment_id"],
                    date="2025-04-24", time="10:00")
    assert (moved["date"], moved["time"]) == ("2025-04-24", "10:00")
    assert "already at that date" in call.err("reschedule_service_appointment",
                                              appointment_id=made["appointment_id"],
                                              date="2025-04-24", time="10:00")
    done = call.ok("cancel_service_appointment", appointment_id=made["appointment_id"])
    assert done["status"] == "cancelled"
    assert "only a scheduled" in call.err("cancel_service_appointment",
                                          appointment_id=made["appointment_id"])
    past, = call.one("SELECT appointment_id FROM service_appointments "
                     "WHERE status = 'completed' LIMIT 1")
    assert "completed" in call.err("cancel_service_appointment", appointment_id=past)
    assert "completed" in call.err("reschedule_service_appointment", appointment_id=past,
                                   date="2025-05-02", time="10:00")
    assert "not found" in call.err("cancel_service_appointment", appointment_id="apt_missing")
    assert box.check_integrity() == []


def test_digital_keys(call, box):
    vehicle, owner = call.one("SELECT v.vehicle_id, v.owner_id FROM vehicles v WHERE NOT EXISTS "
                              "(SELECT 1 FROM digital_keys k WHERE k.vehicle_id = v.vehicle_id) "
                              "LIMIT 1")
    email, = call.one("SELECT email FROM owners WHERE owner_id = ?", (owner,))
    args = {"vehicle_id": vehicle, "access": "drive_only", "expires_on": "2025-06-01"}
    made = call.ok("share_digital_key", **args, holder_name="Ivy Chen",
                   holder_email="Ivy.Chen@Example.com")
    assert made["status"] == "active" and made["holder_email"] == "ivy.chen@example.com"
    assert "already holds" in call.err("share_digital_key", **args, holder_name="Ivy C",
                                       holder_email="ivy.chen@example.com")
    assert "own vehicle" in call.err("share_digital_key", **args, holder_name="Me",
                                     holder_email=email)
    assert "valid email" in call.err("share_digital_key", **args, holder_name="X",
                                     holder_email="not-an-email")
    assert "after today" in call.err("share_digital_key", **dict(args, expires_on=TODAY),
                                     holder_name="X", holder_email="x@example.com")
    assert "at most 365 days" in call.err("share_digital_key", **dict(
        args, expires_on="2026-12-31"), holder_name="X", holder_email="x@example.com")
    assert "must be one of" in call.err("share_digital_key", **dict(args, access="trunk"),
                                        holder_name="X", holder_email="x@example.com")
    for i in range(4):
        call.ok("share_digital_key", **args, holder_name=f"Friend {i}",
                holder_email=f"friend{i}@example.com")
    assert "already has 5 active keys" in call.err("share_digital_key", **args,
                                                   holder_name="Friend 9",
                                                   holder_email="friend9@example.com")
    assert call.ok("revoke_digital_key", key_id=made["key_id"])["status"] == "revoked"
    assert "already revoked" in call.err("revoke_digital_key", key_id=made["key_id"])
    expired, = call.one("SELECT key_id FROM digital_keys WHERE status = 'expired' LIMIT 1")
    assert "already expired" in call.err("revoke_digital_key", key_id=expired)
    assert "not found" in call.err("revoke_digital_key", key_id="key_missing")
    assert box.check_integrity() == []


def test_alerts(call):
    alert, = call.one("SELECT alert_id FROM alerts WHERE status = 'open' LIMIT 1")
    assert call.ok("acknowledge_alert", alert_id=alert)["status"] == "acknowledged"
    assert "already acknowledged" in call.err("acknowledge_alert", alert_id=alert)
    resolved, = call.one("SELECT alert_id FROM alerts WHERE status = 'resolved' LIMIT 1")
    assert "already resolved" in call.err("acknowledge_alert", alert_id=resolved)
    assert "not found" in call.err("acknowledge_alert", alert_id="alt_missing")


def test_charging_refunds(call, box):
    session, cost = call.one("SELECT session_id, cost FROM charging_sessions s WHERE NOT EXISTS "
                             "(SELECT 1 FROM charging_refunds r WHERE r.session_id = "
                             "s.session_id) LIMIT 1")
    made = call.ok("request_charging_refund", session_id=session, reason="station_fault")
    assert made["amount"] == cost and made["status"] == "pending"
    assert "already requested" in call.err("request_charging_refund", session_id=session,
                                           reason="overcharged")
    assert "must be one of" in call.err("request_charging_refund", session_id=session,
                                        reason="angry")
    assert "not found" in call.err("request_charging_refund", session_id="chg_missing",
                                   reason="interrupted")
    assert box.check_integrity() == []


def test_created_ids_never_clash_with_generated_ones(call):
    owner, = call.one("SELECT owner_id FROM owners LIMIT 1")
    first = call.ok("save_place", owner_id=owner, label="A1", address="x", city="Denver",
                    category="favorite")["place_id"]
    second = call.ok("save_place", owner_id=owner, label="A2", address="x", city="Denver",
                     category="favorite")["place_id"]
    assert first != second and first.split("_")[1].isdigit()


def test_bad_input_leaves_the_state_alone(call, box):
    ev, _ = _ev(call)
    before = box.state_hash()
    assert "too long" in call.err("save_place", owner_id="x" * 200_000, label="a", address="b",
                                  city="c", category="home")
    assert "must be of type string" in call.err("lock_vehicle", vehicle_id=7)
    assert "unknown parameter" in call.err("lock_vehicle", vehicle_id=ev, force=True)
    assert "missing required" in call.err("set_charge_limit", vehicle_id=ev)
    assert box.state_hash() == before


def test_invariants_catch_broken_rules(box):
    rules_catch(box, {
        "plug-in vehicle has a battery": "UPDATE vehicles SET battery_percent = NULL WHERE "
        "vehicle_id = (SELECT vehicle_id FROM vehicles WHERE powertrain = 'electric' LIMIT 1)",
        "at least 30 km": "UPDATE vehicles SET climate_on = 1 WHERE vehicle_id = (SELECT "
        "vehicle_id FROM vehicles WHERE range_km < 30 LIMIT 1)",
        "saved by its owner": "UPDATE vehicles SET nav_place_id = (SELECT place_id FROM places "
        "WHERE owner_id != vehicles.owner_id LIMIT 1) WHERE vehicle_id = (SELECT vehicle_id "
        "FROM vehicles LIMIT 1)",
        "scheduled appointment is after today": "UPDATE service_appointments SET status = "
        "'scheduled' WHERE appointment_id = (SELECT appointment_id FROM service_appointments "
        "WHERE status = 'completed' LIMIT 1)",
        "active key has not expired": "UPDATE digital_keys SET status = 'active' WHERE key_id = "
        "(SELECT key_id FROM digital_keys WHERE status = 'expired' LIMIT 1)",
        "refund is the cost": "UPDATE charging_refunds SET amount = amount + 1 WHERE refund_id = "
        "(SELECT refund_id FROM charging_refunds LIMIT 1)",
        "service fits the powertrain": "UPDATE service_appointments SET service_type = "
        "'oil_change' WHERE appointment_id = (SELECT a.appointment_id FROM "
        "service_appointments a JOIN vehicles v USING (vehicle_id) WHERE v.powertrain = "
        "'electric' LIMIT 1)"})
