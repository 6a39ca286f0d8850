"""Hidden-intent tasks of the vehicle domain (owners' vehicles, charging, navigation, service
appointments, digital keys, trips and charging sessions): the constraint samplers and
``TASKS``, the domain's :class:`~tool_gym.core.taskkit.RuleTaskKit`.

An owner refers to a vehicle by its color, make and model (or make and model), to a saved
place by its label, to a dealer by its name, to an appointment by its service, dealer and
day, to a digital key by its holder and vehicle, and to a charging session by its station
and day; every description is proven unique among the owner's own records.
"""

from __future__ import annotations

from datetime import date, timedelta

from ...core.actions import ToolCall
from ...core.sampler_parts import Login, by_name, describe_any
from ...core.taskkit import (RuleTaskKit, SampleContext, answer_steps, date_words,
                             money_terms, write_steps)
from ...core.task_model import Constraint, Description, Expectation, Refusal
from .generate import NEW_HOLDERS, holder_email
from .tools import (BOOKING_HORIZON_DAYS, MAX_ACTIVE_KEYS, MAX_SCHEDULES, REFUND_WINDOW_DAYS,
                    TODAY, UNFIT_SERVICES, days_before_today, list_trips)

ASK_IDENTITY = ("Before I can help, I need to verify your identity. Could you tell me the "
                "email address or the username of your app account?")
SERVICE_WORDS = {"oil_change": "oil change", "tire_rotation": "tire rotation",
                 "brake_inspection": "brake inspection",
                 "battery_health_check": "battery health check",
                 "software_update": "software update", "annual_inspection": "annual inspection"}
DAYS_WORDS = {"daily": ("every day", ("daily", "every day", "every night")),
              "weekdays": ("on weekdays", ("weekday",)),
              "weekends": ("on weekends", ("weekend",))}
ACCESS_WORDS = {"full": ("full-access", ("full access", "full-access", "full")),
                "drive_only": ("drive-only", ("drive-only", "drive only", "drive_only")),
                "unlock_only": ("unlock-only", ("unlock-only", "unlock only", "unlock_only"))}
REASON_WORDS = {
    "interrupted": ("it stopped charging partway through", "the charging cut off early"),
    "overcharged": ("I was billed for more energy than I actually got",
                    "they charged me for more energy than the car received"),
    "station_fault": ("the charger was faulty", "the station malfunctioned"),
}
#: Words that name why a request is refused (any one addresses it; see ``Refusal.about``).
_PAST_WORDS = ("past", "in the past", "already happened", "already took place", "took place",
               "already completed", "completed", "has passed", "already passed", "ago",
               "already been", "over")
_LATE_REFUND_WORDS = (
    f"{REFUND_WINDOW_DAYS} days", f"{REFUND_WINDOW_DAYS}-day", "two weeks", "window",
    "too late", "too old", "older than", "expired", "time limit", "deadline", "ago")


# ------------------------------------------------------------------ descriptions

def _vehicle_query(ctx: SampleContext, fields: dict) -> tuple[str, tuple]:
    """The owner's vehicles matching a vehicle description's ``fields``."""
    where = " AND ".join(f"v.{k} = ?" for k in fields)
    return (f"SELECT v.vehicle_id FROM vehicles v WHERE v.owner_id = ? AND {where}",
            (ctx.user_id, *fields.values()))


def describe_vehicle(ctx: SampleContext, vehicle_id: str, color: str, make: str,
                     model: str) -> Description | None:
    options = []
    for fields in ({"color": color, "make": make, "model": model},
                   {"make": make, "model": model}):
        query, params = _vehicle_query(ctx, fields)
        options.append((" ".join(fields.values()), fields, query, params))
    return describe_any(ctx, "vehicle", vehicle_id, options)


def describe_place(ctx: SampleContext, place_id: str, label: str) -> Description | None:
    return ctx.describe("place", f'saved place "{label}"', {"label": label}, place_id,
                        "SELECT place_id FROM places WHERE owner_id = ? AND label = ?",
                        (ctx.user_id, label))


def describe_dealer(ctx: SampleContext, dealer_id: str, name: str) -> Description | None:
    return ctx.describe("dealer", name, {"name": name}, dealer_id,
                        "SELECT dealer_id FROM dealers WHERE name = ?", (name,))


def describe_appointment(ctx: SampleContext, appointment_id: str, service: str, dealer: str,
                         day: str) -> Description | None:
    return ctx.describe(
        "appointment", f"{SERVICE_WORDS[service]} appointment at {dealer} on {date_words(day)}",
        {"service_type": service, "dealer": dealer, "date": day}, appointment_id,
        "SELECT a.appointment_id FROM service_appointments a JOIN vehicles v "
        "ON v.vehicle_id = a.vehicle_id JOIN dealers d ON d.dealer_id = a.dealer_id "
        "WHERE v.owner_id = ? AND a.service_type = ? AND d.name = ? AND a.date = ?",
        (ctx.user_id, service, dealer, day))


def describe_key(ctx: SampleContext, key_id: str, holder: str,
                 vehicle: Description) -> Description | None:
    """The key the owner shared with ``holder`` for the described vehicle (``None`` when
    that does not pick it out)."""
    where = " AND ".join(f"v.{k} = ?" for k in vehicle.fields)
    return ctx.describe(
        "key", f"digital key I shared with {holder} for my {vehicle.text}",
        {"holder_name": holder, **vehicle.fields}, key_id,
        f"SELECT k.key_id FROM digital_keys k JOIN vehicles v ON v.vehicle_id = k.vehicle_id "
        f"WHERE v.owner_id = ? AND k.holder_name = ? AND k.status = 'active' AND {where}",
        (ctx.user_id, holder, *vehicle.fields.values()))


def describe_session(ctx: SampleContext, session_id: str, station: str,
                     day: str) -> Description | None:
    return ctx.describe(
        "session", f"charging session at {station} on {date_words(day)}",
        {"station": station, "date": day}, session_id,
        "SELECT s.session_id FROM charging_sessions s JOIN vehicles v "
        "ON v.vehicle_id = s.vehicle_id WHERE v.owner_id = ? AND s.station = ? "
        "AND substr(s.started_at, 1, 10) = ?", (ctx.user_id, station, day))


# ------------------------------------------------------------------ reads and rows

def _lists(ctx: SampleContext, *tools: str) -> list[ToolCall]:
    """Calls of the owner's list tools (``list_vehicles``, ``list_saved_places``, ...)."""
    return [ToolCall(tool, {"owner_id": ctx.user_id}) for tool in tools]


def _of_vehicle(tool: str, vehicle_id: str, **more) -> ToolCall:
    return ToolCall(tool, {"vehicle_id": vehicle_id, **more})


def _vehicles(ctx: SampleContext, where: str = "1") -> list[tuple]:
    """The owner's vehicles: id, color, make, model, powertrain, range, charge limit."""
    return ctx.rows("SELECT vehicle_id, color, make, model, powertrain, range_km, "
                    f"charge_limit_percent FROM vehicles WHERE owner_id = ? AND {where} "
                    "ORDER BY rowid", (ctx.user_id,))


def _described_vehicles(ctx: SampleContext, where: str = "1"):
    """``(row, description)`` of the owner's vehicles (``where``), in a random order."""
    for row in ctx.shuffled(_vehicles(ctx, where)):
        d = describe_vehicle(ctx, row[0], row[1], row[2], row[3])
        if d is not None:
            yield row, d


def _sessions(ctx: SampleContext, newest: int, oldest: int) -> list[tuple]:
    """The owner's charging sessions from ``newest`` to ``oldest`` days ago without a
    refund request, on vehicles with at least two sessions: id, vehicle, station, day,
    cost, status."""
    today = date.fromisoformat(TODAY)
    return ctx.rows(
        "SELECT s.session_id, s.vehicle_id, s.station, substr(s.started_at, 1, 10), s.cost, "
        "s.status FROM charging_sessions s JOIN vehicles v ON v.vehicle_id = s.vehicle_id "
        "WHERE v.owner_id = ? AND substr(s.started_at, 1, 10) <= ? "
        "AND substr(s.started_at, 1, 10) >= ? AND NOT EXISTS (SELECT 1 FROM charging_refunds r "
        "WHERE r.session_id = s.session_id) AND (SELECT count(*) FROM charging_sessions o "
        "WHERE o.vehicle_id = s.vehicle_id) >= 2 ORDER BY s.rowid",
        (ctx.user_id, (today - timedelta(days=newest)).isoformat(),
         (today - timedelta(days=oldest)).isoformat()))


def _appointments(ctx: SampleContext, status: str) -> list[tuple]:
    """The owner's appointments of ``status``: id, vehicle, service, dealer, day, time."""
    return ctx.rows(
        "SELECT a.appointment_id, a.vehicle_id, a.service_type, d.name, a.date, a.time "
        "FROM service_appointments a JOIN vehicles v ON v.vehicle_id = a.vehicle_id "
        "JOIN dealers d ON d.dealer_id = a.dealer_id WHERE v.owner_id = ? AND a.status = ? "
        "ORDER BY a.rowid", (ctx.user_id, status))


def _vehicle_of(ctx: SampleContext, vehicle_id: str) -> tuple:
    (row,) = ctx.rows("SELECT color, make, model FROM vehicles WHERE vehicle_id = ?",
                      (vehicle_id,))
    return row


# ----------------------------------------------------------------------- samplers

def set_charge_limit(ctx: SampleContext) -> Constraint | None:
    for row, d in _described_vehicles(ctx, "powertrain != 'gasoline'"):
        vehicle_id, current, model = row[0], row[6], row[3]
        if not ctx.claim(("limit", vehicle_id)):
            continue
        percent = int(ctx.pick([p for p in (60, 65, 70, 75, 85, 90, 95, 100) if p != current]))
        call = ToolCall("set_charge_limit", {"vehicle_id": vehicle_id,
                                             "charge_limit_percent": percent})
        return Constraint(
            "set_charge_limit", dict(call.arguments), refs={"vehicle": d},
            writes=(("set_charge_limit", vehicle_id),),
            confirm_terms=(("limit",), (str(percent),), (model,)),
            say=(f"Please set the charge limit of my {d.text} to {percent}%.",
                 f"I want my {d.text} to stop charging at {percent} percent from now on.",
                 f"Can you change the charge limit on my {d.text} to {percent}%?"),
            solution=write_steps(
                _lists(ctx, "list_vehicles"),
                f"I will set the charge limit of your {d.text} to {percent}%. Shall I proceed?",
                call),
            expect=(Expectation("SELECT charge_limit_percent FROM vehicles WHERE vehicle_id = ?",
                                (vehicle_id,), ((percent,),)),))
    return None


def add_charge_schedule(ctx: SampleContext) -> Constraint | None:
    for row, d in _described_vehicles(ctx, "powertrain != 'gasoline'"):
        vehicle_id, model = row[0], row[3]
        taken = ctx.rows("SELECT days, charge_start FROM charge_schedules WHERE vehicle_id = ?",
                         (vehicle_id,))
        if len(taken) >= MAX_SCHEDULES or not ctx.claim(("schedules", vehicle_id)):
            continue
        days = ctx.pick(tuple(DAYS_WORDS))
        start = ctx.pick([s for s in ("21:30", "22:30", "23:30", "00:30", "02:00")
                          if (days, s) not in taken])
        end = ctx.pick(("05:30", "06:15", "07:00", "07:45"))
        when, forms = DAYS_WORDS[days]
        call = ToolCall("add_charge_schedule", {"vehicle_id": vehicle_id, "days": days,
                                                "charge_start": start, "charge_end": end})
        return Constraint(
            "add_charge_schedule", dict(call.arguments), refs={"vehicle": d},
            writes=(("add_charge_schedule", vehicle_id),),
            confirm_terms=(forms, (start,), (end,), (model,)),
            say=(f"Please set my {d.text} to charge {when} from {start} to {end}.",
                 f"I'd like a charging schedule for my {d.text}: {when}, {start} to {end}.",
                 f"Can you add a schedule so my {d.text} charges {when} between {start} and "
                 f"{end}?"),
            solution=write_steps(
                _lists(ctx, "list_vehicles") + [_of_vehicle("list_charge_schedules",
                                                            vehicle_id)],
                f"I will add a charging schedule to your {d.text}: {when} from {start} to "
                f"{end}. Shall I proceed?", call),
            expect=(Expectation("SELECT charge_end FROM charge_schedules WHERE vehicle_id = ? "
                                "AND days = ? AND charge_start = ?", (vehicle_id, days, start),
                                ((end,),)),))
    return None


def share_digital_key(ctx: SampleContext) -> Constraint | None:
    for row, d in _described_vehicles(ctx):
        vehicle_id, model = row[0], row[3]
        holders = {h for (h,) in ctx.rows("SELECT holder_name FROM digital_keys "
                                          "WHERE vehicle_id = ?", (vehicle_id,))}
        (active,) = ctx.rows("SELECT count(*) FROM digital_keys WHERE vehicle_id = ? "
                             "AND status = 'active'", (vehicle_id,))[0]
        options = [h for h in NEW_HOLDERS if h not in holders]
        if active >= MAX_ACTIVE_KEYS - 1 or not options or not ctx.claim(("keys", vehicle_id)):
            continue
        name = ctx.pick(options)
        email = holder_email(name)
        access = ctx.pick(tuple(ACCESS_WORDS))
        expires = (date.fromisoformat(TODAY)
                   + timedelta(days=int(ctx.rng.integers(7, 121)))).isoformat()
        words, forms = ACCESS_WORDS[access]
        until = date_words(expires)
        call = ToolCall("share_digital_key", {
            "vehicle_id": vehicle_id, "holder_name": name, "holder_email": email,
            "access": access, "expires_on": expires})
        return Constraint(
            "share_digital_key", dict(call.arguments), refs={"vehicle": d},
            writes=(("share_digital_key", vehicle_id),),
            confirm_terms=((name, email), forms, (expires, until), (model,)),
            say=(f"Please share a {words} digital key for my {d.text} with {name} ({email}), "
                 f"valid until {until}.",
                 f"I'd like to give {name} a {words} key to my {d.text} until {until}; their "
                 f"email is {email}.",
                 f"Can you send {name} at {email} a {words} digital key for my {d.text}? It "
                 f"should work until {until}."),
            solution=write_steps(
                _lists(ctx, "list_vehicles") + [_of_vehicle("list_digital_keys", vehicle_id)],
                f"I will share a {words} digital key for your {d.text} with {name} ({email}), "
                f"valid until {expires}. Shall I proceed?", call),
            expect=(Expectation("SELECT access, expires_on, status FROM digital_keys "
                                "WHERE vehicle_id = ? AND holder_email = ?",
                                (vehicle_id, email), ((access, expires, "active"),)),))
    return None


def _active_keys(ctx: SampleContext):
    """``(key id, vehicle id, holder, expiry, key description, vehicle description)`` of
    the owner's active keys, in a random order."""
    rows = ctx.rows("SELECT k.key_id, k.vehicle_id, k.holder_name, k.expires_on FROM "
                    "digital_keys k JOIN vehicles v ON v.vehicle_id = k.vehicle_id "
                    "WHERE v.owner_id = ? AND k.status = 'active' ORDER BY k.rowid",
                    (ctx.user_id,))
    for key_id, vehicle_id, holder, expires in ctx.shuffled(rows):
        vehicle = describe_vehicle(ctx, vehicle_id, *_vehicle_of(ctx, vehicle_id))
        d = describe_key(ctx, key_id, holder, vehicle) if vehicle is not None else None
        if d is not None:
            yield key_id, vehicle_id, holder, expires, d, vehicle


def revoke_digital_key(ctx: SampleContext) -> Constraint | None:
    for key_id, vehicle_id, holder, _, d, vehicle in _active_keys(ctx):
        if not ctx.claim(key_id):
            continue
        model = vehicle.fields["model"]
        call = ToolCall("revoke_digital_key", {"key_id": key_id})
        return Constraint(
            "revoke_digital_key", dict(call.arguments), refs={"key": d},
            writes=(("revoke_digital_key", key_id),),
            confirm_terms=(("revoke",), (holder,), (model,)),
            say=(f"Please revoke the {d.text}.",
                 f"{holder} shouldn't have access to my {vehicle.text} anymore. Please revoke "
                 "their digital key.",
                 f"Can you revoke the {d.text}? I don't want them using it."),
            solution=write_steps(
                _lists(ctx, "list_vehicles") + [_of_vehicle("list_digital_keys", vehicle_id)],
                f"I will revoke the digital key of {holder} for your {vehicle.text}; it will "
                "stop working at once. Shall I proceed?", call),
            expect=(Expectation("SELECT status FROM digital_keys WHERE key_id = ?", (key_id,),
                                (("revoked",),)),))
    return None


def _free_days(ctx: SampleContext, vehicle_id: str) -> list[str]:
    """Days a new appointment of the vehicle may take: weekdays and Saturdays 5 to 45 days
    ahead without a scheduled appointment of the vehicle."""
    taken = {d for (d,) in ctx.rows("SELECT date FROM service_appointments WHERE "
                                    "vehicle_id = ? AND status = 'scheduled'", (vehicle_id,))}
    today = date.fromisoformat(TODAY)
    days = [today + timedelta(days=n) for n in range(5, min(46, BOOKING_HORIZON_DAYS))]
    return [d.isoformat() for d in days if d.weekday() != 6 and d.isoformat() not in taken]


def _slots(opens: str, closes: str) -> list[str]:
    """Start times on the hour or half hour from ``opens`` to one hour before ``closes``."""
    h, m = int(opens[:2]), int(opens[3:])
    last = f"{int(closes[:2]) - 1:02d}{closes[2:]}"
    out = []
    while f"{h:02d}:{m:02d}" <= last:
        out.append(f"{h:02d}:{m:02d}")
        h, m = (h, 30) if m == 0 else (h + 1, 0)
    return out


def book_service_appointment(ctx: SampleContext) -> Constraint | None:
    (city,) = ctx.rows("SELECT city FROM owners WHERE owner_id = ?", (ctx.user_id,))[0]
    dealers = ctx.rows("SELECT dealer_id, name, opens, closes, services_ev FROM dealers "
                       "WHERE city = ? ORDER BY rowid", (city,))
    for row, d in _described_vehicles(ctx):
        vehicle_id, model, kind = row[0], row[3], row[4]
        usable = [x for x in dealers if x[4] or kind != "electric"]
        if not usable or not ctx.claim(("booking", vehicle_id)):
            continue
        dealer_id, dealer, opens, closes, _ = ctx.pick(usable)
        service = ctx.pick([s for s in SERVICE_WORDS if s not in UNFIT_SERVICES[kind]])
        day = ctx.pick(_free_days(ctx, vehicle_id))
        time = ctx.pick(_slots(opens, closes))
        place = describe_dealer(ctx, dealer_id, dealer)
        if place is None:
            return None
        words, when = SERVICE_WORDS[service], date_words(day)
        article = "an" if words[0] in "aeiou" else "a"
        call = ToolCall("book_service_appointment", {
            "vehicle_id": vehicle_id, "dealer_id": dealer_id, "service_type": service,
            "date": day, "time": time})
        return Constraint(
            "book_service_appointment", dict(call.arguments),
            refs={"vehicle": d, "dealer": place},
            writes=(("book_service_appointment", vehicle_id),),
            confirm_terms=((words, service), (dealer,), (day, when), (time,), (model,)),
            say=(f"I'd like to book {article} {words} for my {d.text} at {dealer} on {when} at "
                 f"{time}.",
                 f"Please schedule {article} {words} for my {d.text}: {dealer}, {when}, {time}.",
                 f"Can you book my {d.text} in for {article} {words} at {dealer}? {when} at "
                 f"{time} works for me."),
            solution=write_steps(
                _lists(ctx, "list_vehicles") + [ToolCall("find_dealers", {"city": city})],
                f"I will book {article} {words} for your {d.text} at {dealer} on {day} at "
                f"{time}. Shall I proceed?", call),
            expect=(Expectation("SELECT dealer_id, service_type, time FROM service_appointments "
                                "WHERE vehicle_id = ? AND date = ? AND status = 'scheduled'",
                                (vehicle_id, day), ((dealer_id, service, time),)),))
    return None


def cancel_service_appointment(ctx: SampleContext) -> Constraint | None:
    for appointment_id, _, service, dealer, day, _ in ctx.shuffled(
            _appointments(ctx, "scheduled")):
        d = describe_appointment(ctx, appointment_id, service, dealer, day)
        if d is None or not ctx.claim(appointment_id):
            continue
        words = SERVICE_WORDS[service]
        call = ToolCall("cancel_service_appointment", {"appointment_id": appointment_id})
        return Constraint(
            "cancel_service_appointment", dict(call.arguments), refs={"appointment": d},
            writes=(("cancel_service_appointment", appointment_id),),
            confirm_terms=(("cancel",), (words, service), (dealer,), (day, date_words(day))),
            say=(f"Please cancel my {d.text}.",
                 f"I can't make my {d.text}. Can you cancel it?",
                 f"I need to call off my {d.text}, please cancel it."),
            solution=write_steps(
                _lists(ctx, "list_service_appointments"),
                f"I will cancel your {words} appointment at {dealer} on {day}. Shall I "
                "proceed?", call),
            expect=(Expectation("SELECT status FROM service_appointments "
                                "WHERE appointment_id = ?", (appointment_id,),
                                (("cancelled",),)),))
    return None


def send_destination(ctx: SampleContext) -> Constraint | None:
    places = ctx.rows("SELECT place_id, label FROM places WHERE owner_id = ? ORDER BY rowid",
                      (ctx.user_id,))
    for row, d in _described_vehicles(ctx):
        vehicle_id, model = row[0], row[3]
        (current,) = ctx.rows("SELECT nav_place_id FROM vehicles WHERE vehicle_id = ?",
                              (vehicle_id,))[0]
        options = [p for p in places if p[0] != current]
        if not options or not ctx.claim(("nav", vehicle_id)):
            continue
        place_id, label = ctx.pick(options)
        p = describe_place(ctx, place_id, label)
        if p is None:
            return None
        call = ToolCall("send_destination", {"vehicle_id": vehicle_id, "place_id": place_id})
        return Constraint(
            "send_destination", dict(call.arguments), refs={"vehicle": d, "place": p},
            writes=(("send_destination", vehicle_id),),
            confirm_terms=((label,), (model,)),
            say=(f'Please send my saved place "{label}" to the navigation of my {d.text}.',
                 f'I\'m heading to "{label}" (one of my saved places). Can you set it as the '
                 f"destination in my {d.text}?",
                 f'Could you route my {d.text} to my saved place "{label}"?'),
            solution=write_steps(
                _lists(ctx, "list_vehicles", "list_saved_places"),
                f'I will send your saved place "{label}" to the navigation of your {d.text}. '
                "Shall I proceed?", call),
            expect=(Expectation("SELECT nav_place_id FROM vehicles WHERE vehicle_id = ?",
                                (vehicle_id,), ((place_id,),)),))
    return None


def lock_vehicle(ctx: SampleContext) -> Constraint | None:
    for row, d in _described_vehicles(ctx, "locked = 0"):
        vehicle_id, model = row[0], row[3]
        if not ctx.claim(("lock", vehicle_id)):
            continue
        call = ToolCall("lock_vehicle", {"vehicle_id": vehicle_id})
        return Constraint(
            "lock_vehicle", dict(call.arguments), refs={"vehicle": d},
            writes=(("lock_vehicle", vehicle_id),),
            confirm_terms=(("lock",), (model,)),
            say=(f"I think I left my {d.text} unlocked. Can you lock it?",
                 f"Please lock my {d.text} remotely.",
                 f"Could you make sure my {d.text} gets locked? I forgot to do it."),
            solution=write_steps(
                _lists(ctx, "list_vehicles") + [_of_vehicle("get_vehicle_status", vehicle_id)],
                f"Your {d.text} is currently unlocked. I will lock it remotely now. Shall I "
                "proceed?", call),
            expect=(Expectation("SELECT locked FROM vehicles WHERE vehicle_id = ?",
                                (vehicle_id,), ((1,),)),))
    return None


def request_charging_refund(ctx: SampleContext) -> Constraint | None:
    for session_id, vehicle_id, station, day, cost, status in ctx.shuffled(
            _sessions(ctx, 1, REFUND_WINDOW_DAYS - 2)):
        d = describe_session(ctx, session_id, station, day)
        if d is None or not ctx.claim(session_id):
            continue
        reason = "interrupted" if status == "interrupted" else \
            ctx.pick(("overcharged", "station_fault"))
        first, second = REASON_WORDS[reason]
        call = ToolCall("request_charging_refund", {"session_id": session_id,
                                                    "reason": reason})
        return Constraint(
            "request_charging_refund", dict(call.arguments), refs={"session": d},
            writes=(("request_charging_refund", session_id),),
            confirm_terms=(("refund",), money_terms(cost), (station,)),
            say=(f"I'd like a refund for my {d.text}: {first}.",
                 f"Please refund my {d.text}, because {second}.",
                 f"Can I get my money back for the {d.text}? {first[0].upper()}{first[1:]}."),
            solution=write_steps(
                _lists(ctx, "list_vehicles") + [_of_vehicle("list_charging_sessions",
                                                            vehicle_id)],
                f"I will request a refund of ${cost:.2f} for your {d.text} (reason: {reason}). "
                "Shall I proceed?", call),
            expect=(Expectation("SELECT reason, amount, status FROM charging_refunds "
                                "WHERE session_id = ?", (session_id,),
                                ((reason, cost, "pending"),)),))
    return None


def refuse_late_refund(ctx: SampleContext) -> Constraint | None:
    for session_id, vehicle_id, station, day, cost, status in ctx.shuffled(
            _sessions(ctx, REFUND_WINDOW_DAYS + 4, 90)):
        d = describe_session(ctx, session_id, station, day)
        if d is None or not ctx.claim(session_id):
            continue
        reason = "interrupted" if status == "interrupted" else "overcharged"
        age = days_before_today(day)
        return Constraint(
            "refuse_late_refund", {"session_id": session_id, "reason": reason},
            refs={"session": d}, answer="cannot",
            refusal=Refusal((session_id,), about=(session_id, station, *_LATE_REFUND_WORDS)),
            say=(f"I want a refund for my {d.text}; {REASON_WORDS[reason][0]}.",
                 f"Please refund the {d.text}. {REASON_WORDS[reason][1].capitalize()}.",
                 f"Can I still get my money back for the {d.text}?"),
            solution=answer_steps(
                _lists(ctx, "list_vehicles") + [_of_vehicle("list_charging_sessions",
                                                            vehicle_id)],
                f"I'm sorry, but I cannot request a refund for your {d.text}: refunds are only "
                f"possible within {REFUND_WINDOW_DAYS} days of a session, and this one was "
                f"{age} days ago."),
            expect=(Expectation("SELECT count(*) FROM charging_refunds WHERE session_id = ?",
                                (session_id,), ((0,),)),))
    return None


def refuse_change_past_event(ctx: SampleContext) -> Constraint | None:
    if len(ctx.rows("SELECT 1 FROM service_appointments a JOIN vehicles v ON v.vehicle_id = "
                    "a.vehicle_id WHERE v.owner_id = ?", (ctx.user_id,))) < 2:
        return None  # another appointment of the owner's must compete with the refused one
    for appointment_id, _, service, dealer, day, _ in ctx.shuffled(
            _appointments(ctx, "completed")):
        d = describe_appointment(ctx, appointment_id, service, dealer, day)
        if d is None or not ctx.claim(appointment_id):
            continue
        return Constraint(
            "refuse_change_past_event", {"appointment_id": appointment_id},
            refs={"appointment": d}, answer="cannot",
            refusal=Refusal((appointment_id,), about=(appointment_id, dealer, *_PAST_WORDS)),
            say=(f"Please cancel my {d.text}.",
                 f"I need to cancel the {d.text}, can you do that?",
                 f"Could you call off my {d.text}?"),
            solution=answer_steps(
                _lists(ctx, "list_service_appointments"),
                f"I'm sorry, but I cannot cancel your {d.text}: that appointment already took "
                "place, and only upcoming scheduled appointments can be cancelled."),
            expect=(Expectation("SELECT status FROM service_appointments "
                                "WHERE appointment_id = ?", (appointment_id,),
                                (("completed",),)),))
    return None


def info_trip_distance(ctx: SampleContext) -> Constraint | None:
    rows = ctx.rows("SELECT t.vehicle_id, substr(t.started_at, 1, 10) AS day, count(*) "
                    "FROM trips t JOIN vehicles v ON v.vehicle_id = t.vehicle_id "
                    "WHERE v.owner_id = ? GROUP BY t.vehicle_id, day HAVING count(*) >= 2 "
                    "ORDER BY t.vehicle_id, day", (ctx.user_id,))
    for vehicle_id, day, _ in ctx.shuffled(rows):
        vehicle = describe_vehicle(ctx, vehicle_id, *_vehicle_of(ctx, vehicle_id))
        if vehicle is None or not ctx.claim(("trips", vehicle_id, day)):
            continue
        total = list_trips.fn(ctx.db, vehicle_id, day, day)["total_distance_km"]
        when = date_words(day)
        return Constraint(
            "info_trip_distance", {"vehicle_id": vehicle_id, "date": day},
            refs={"vehicle": vehicle}, answer=f"{total:.1f}",
            evidence=(("list_trips", vehicle_id),),
            say=(f"How many kilometers did I drive my {vehicle.text} on {when}, in total?",
                 f"What distance did my {vehicle.text} cover on {when}, all trips together?",
                 f"Can you add up how far I drove the {vehicle.text} on {when}?"),
            solution=answer_steps(
                _lists(ctx, "list_vehicles") + [_of_vehicle("list_trips", vehicle_id,
                                                            start_date=day, end_date=day)],
                f"On {when} your {vehicle.text} drove {total:.1f} km in total."))
    return None


def info_charging_cost(ctx: SampleContext) -> Constraint | None:
    for session_id, vehicle_id, station, day, cost, _ in ctx.shuffled(_sessions(ctx, 1, 60)):
        d = describe_session(ctx, session_id, station, day)
        if d is None or not ctx.claim(session_id):
            continue
        return Constraint(
            "info_charging_cost", {"session_id": session_id}, refs={"session": d},
            answer=f"{cost:.2f}",
            say=(f"How much did my {d.text} cost?",
                 f"What was I charged for the {d.text}?",
                 f"Can you tell me the price of my {d.text}?"),
            solution=answer_steps(
                _lists(ctx, "list_vehicles") + [_of_vehicle("list_charging_sessions",
                                                            vehicle_id)],
                f"Your {d.text} cost ${cost:.2f}."))
    return None


def info_key_expiry(ctx: SampleContext) -> Constraint | None:
    for key_id, vehicle_id, holder, expires, d, vehicle in _active_keys(ctx):
        if not ctx.claim(key_id):
            continue
        return Constraint(
            "info_key_expiry", {"key_id": key_id}, refs={"key": d}, answer=expires,
            say=(f"Until when does the {d.text} work?",
                 f"When does the {d.text} expire?",
                 f"Can you check the expiry date of the {d.text}?"),
            solution=answer_steps(
                _lists(ctx, "list_vehicles") + [_of_vehicle("list_digital_keys", vehicle_id)],
                f"The digital key of {holder} for your {vehicle.text} expires on {expires}."))
    return None


def info_vehicle_range(ctx: SampleContext) -> Constraint | None:
    for row, d in _described_vehicles(ctx, "range_km >= 20"):
        vehicle_id, range_km = row[0], row[5]
        if not ctx.claim(("range", vehicle_id)):
            continue
        return Constraint(
            "info_vehicle_range", {"vehicle_id": vehicle_id}, refs={"vehicle": d},
            answer=str(range_km),
            say=(f"What's the estimated range of my {d.text} right now?",
                 f"How many kilometers can my {d.text} go before it needs energy?",
                 f"Could you check how much range my {d.text} has left?"),
            solution=answer_steps(
                _lists(ctx, "list_vehicles") + [_of_vehicle("get_vehicle_status", vehicle_id)],
                f"Your {d.text} has an estimated range of {range_km} km."))
    return None


# ------------------------------------------------------------------------ the kit

LOGIN = Login("owners", "owner_id", "find_owner_by_email", "find_owner_by_username")


def policy_violations(db, tool: str, arguments: dict) -> list[str]:
    """Policy rules a write would break (the refund window is not enforced by the tool)."""
    if tool == "request_charging_refund":
        row = db.execute("SELECT started_at FROM charging_sessions WHERE session_id = ?",
                         (arguments.get("session_id"),)).fetchone()
        if row is not None and days_before_today(row[0]) > REFUND_WINDOW_DAYS:
            return ["policy:refund_window"]
    if tool in ("cancel_service_appointment", "reschedule_service_appointment"):
        row = db.execute("SELECT date FROM service_appointments WHERE appointment_id = ?",
                         (arguments.get("appointment_id"),)).fetchone()
        if row is not None and row[0] <= TODAY:
            return ["policy:past_appointment"]
    return []


_VEHICLE_OWNER = ("SELECT owner_id FROM vehicles WHERE vehicle_id = ?", "vehicle_id")
_APPOINTMENT_OWNER = ("SELECT v.owner_id FROM service_appointments a JOIN vehicles v "
                      "ON v.vehicle_id = a.vehicle_id WHERE a.appointment_id = ?",
                      "appointment_id")

SAMPLERS = by_name(
    set_charge_limit, add_charge_schedule, share_digital_key, revoke_digital_key,
    book_service_appointment, cancel_service_appointment, send_destination, lock_vehicle,
    request_charging_refund, info_trip_distance, info_charging_cost, info_key_expiry,
    info_vehicle_range, refuse_late_refund, refuse_change_past_event)

TASKS = RuleTaskKit(
    "vehicle", SAMPLERS,
    **LOGIN.kit_keywords(),
    owners={
        "lock_vehicle": _VEHICLE_OWNER,
        "unlock_vehicle": _VEHICLE_OWNER,
        "start_climate": _VEHICLE_OWNER,
        "stop_climate": _VEHICLE_OWNER,
        "set_charge_limit": _VEHICLE_OWNER,
        "add_charge_schedule": _VEHICLE_OWNER,
        "remove_charge_schedule": ("SELECT v.owner_id FROM charge_schedules s JOIN vehicles v "
                                   "ON v.vehicle_id = s.vehicle_id WHERE s.schedule_id = ?",
                                   "schedule_id"),
        "save_place": ("SELECT owner_id FROM owners WHERE owner_id = ?", "owner_id"),
        "send_destination": _VEHICLE_OWNER,
        "book_service_appointment": _VEHICLE_OWNER,
        "reschedule_service_appointment": _APPOINTMENT_OWNER,
        "cancel_service_appointment": _APPOINTMENT_OWNER,
        "share_digital_key": _VEHICLE_OWNER,
        "revoke_digital_key": ("SELECT v.owner_id FROM digital_keys k JOIN vehicles v "
                               "ON v.vehicle_id = k.vehicle_id WHERE k.key_id = ?", "key_id"),
        "acknowledge_alert": ("SELECT v.owner_id FROM alerts a JOIN vehicles v "
                              "ON v.vehicle_id = a.vehicle_id WHERE a.alert_id = ?", "alert_id"),
        "request_charging_refund": ("SELECT v.owner_id FROM charging_sessions s JOIN vehicles "
                                    "v ON v.vehicle_id = s.vehicle_id WHERE s.session_id = ?",
                                    "session_id"),
    },
    ask_identity=ASK_IDENTITY,
    identity_phrases=("Sure, {text}.", "Of course: {text}.", "Yes, {text}."),
    greetings=("Hi!", "Hello,", "Hi there.", "Good morning."),
    policy_violations=policy_violations,
)
