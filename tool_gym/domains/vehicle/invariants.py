"""Rules every vehicle database keeps (generated data and after any tool call).

``invariants(db)`` returns the problems found (empty when every rule holds).
"""

from __future__ import annotations

from ...core.rules import rule_checker
from .tools import MAX_ACTIVE_KEYS, MAX_SCHEDULES, MIN_CLIMATE_RANGE_KM, TODAY

RULES: list[tuple[str, str]] = [
    ("a plug-in vehicle has a battery, a charge limit and a plug state; a gasoline one none",
     "SELECT vehicle_id FROM vehicles WHERE (powertrain = 'gasoline') != "
     "(battery_percent IS NULL) OR (powertrain = 'gasoline') != (charge_limit_percent IS NULL) "
     "OR (powertrain = 'gasoline') != (plugged_in IS NULL)"),
    ("a vehicle with an engine has a fuel level; an electric one none",
     "SELECT vehicle_id FROM vehicles WHERE (powertrain = 'electric') != (fuel_percent IS NULL)"),
    (f"remote climate runs only with at least {MIN_CLIMATE_RANGE_KM} km of range",
     f"SELECT vehicle_id FROM vehicles WHERE climate_on = 1 AND range_km < "
     f"{MIN_CLIMATE_RANGE_KM}"),
    ("a vehicle's destination is a place saved by its owner",
     "SELECT v.vehicle_id FROM vehicles v JOIN places p ON p.place_id = v.nav_place_id "
     "WHERE p.owner_id != v.owner_id"),
    ("charging schedules belong to plug-in vehicles",
     "SELECT s.schedule_id FROM charge_schedules s JOIN vehicles v USING (vehicle_id) "
     "WHERE v.powertrain = 'gasoline'"),
    (f"a vehicle has at most {MAX_SCHEDULES} charging schedules, no two alike",
     f"SELECT vehicle_id FROM charge_schedules GROUP BY vehicle_id "
     f"HAVING count(*) > {MAX_SCHEDULES} OR count(DISTINCT days || charge_start) < count(*)"),
    ("a scheduled appointment is after today, a completed one not",
     f"SELECT appointment_id FROM service_appointments WHERE (status = 'scheduled' AND "
     f"date <= '{TODAY}') OR (status = 'completed' AND date > '{TODAY}')"),
    ("a vehicle has at most one scheduled appointment a day",
     "SELECT vehicle_id || ' ' || date FROM service_appointments WHERE status = 'scheduled' "
     "GROUP BY vehicle_id, date HAVING count(*) > 1"),
    ("an appointment's service fits the powertrain and the dealer services the vehicle",
     "SELECT a.appointment_id FROM service_appointments a JOIN vehicles v USING (vehicle_id) "
     "JOIN dealers d USING (dealer_id) WHERE (v.powertrain = 'electric' AND "
     "(a.service_type = 'oil_change' OR d.services_ev = 0)) OR (v.powertrain = 'gasoline' "
     "AND a.service_type = 'battery_health_check')"),
    ("an appointment starts within its dealer's hours",
     "SELECT a.appointment_id FROM service_appointments a JOIN dealers d USING (dealer_id) "
     "WHERE a.time < d.opens OR a.time >= d.closes"),
    ("an active key has not expired, an expired one has",
     f"SELECT key_id FROM digital_keys WHERE (status = 'active' AND expires_on <= '{TODAY}') "
     f"OR (status = 'expired' AND expires_on > '{TODAY}')"),
    (f"a vehicle has at most {MAX_ACTIVE_KEYS} active keys, one per person",
     f"SELECT vehicle_id FROM digital_keys WHERE status = 'active' GROUP BY vehicle_id "
     f"HAVING count(*) > {MAX_ACTIVE_KEYS} OR count(DISTINCT holder_email) < count(*)"),
    ("no key is shared with the vehicle's own owner",
     "SELECT k.key_id FROM digital_keys k JOIN vehicles v USING (vehicle_id) "
     "JOIN owners o ON o.owner_id = v.owner_id WHERE k.holder_email = o.email"),
    ("charging sessions belong to plug-in vehicles",
     "SELECT s.session_id FROM charging_sessions s JOIN vehicles v USING (vehicle_id) "
     "WHERE v.powertrain = 'gasoline'"),
    ("a charging refund is the cost of its session",
     "SELECT r.refund_id FROM charging_refunds r JOIN charging_sessions s USING (session_id) "
     "WHERE abs(r.amount - s.cost) > 0.005"),
    ("money amounts are whole cents",
     "SELECT session_id FROM charging_sessions WHERE abs(cost * 100 - round(cost * 100)) > 1e-6"
     " UNION ALL SELECT refund_id FROM charging_refunds "
     "WHERE abs(amount * 100 - round(amount * 100)) > 1e-6"),
]


invariants = rule_checker(RULES)
