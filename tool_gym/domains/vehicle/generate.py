"""Seeded synthetic data of the vehicle domain.

``generate(seed)`` returns the native data: ``{table: [row dict, ...]}`` in the column order
of ``schema.sql`` and in rowid order, exactly what :func:`..io.export` gives back after
:func:`..io.load`. Everything comes from ``numpy.random.default_rng(seed)``; the app's clock
is the fixed ``TODAY`` of :mod:`.tools`, so the same seed always gives the same fleet.

About 220 owners in eight cities with one to three vehicles each (electric, plug-in hybrid
or gasoline), their saved places, charging schedules, six weeks of trips, service
appointments at the dealers of their city (past, upcoming and cancelled), digital keys
shared with family and friends, alerts, public charging sessions and a few refund requests.
"""

from __future__ import annotations

import string
from datetime import date, datetime, timedelta

from tool_gym.core.draws import BlockDraws

from .tools import TODAY, UNFIT_SERVICES

N_OWNERS = 220
_TODAY = date.fromisoformat(TODAY)

FIRST = ("James Mary Robert Patricia John Jennifer Michael Linda David Elizabeth William "
         "Barbara Richard Susan Joseph Jessica Thomas Sarah Charles Karen Daniel Lisa Matthew "
         "Nancy Anthony Betty Mark Sandra Donald Ashley Steven Emily Paul Donna Andrew Michelle "
         "Omar Aisha Wei Mei Carlos Lucia Raj Priya Ahmed Fatima Hiroshi Yuki Ivan Olga Kwame "
         "Amara").split()
LAST = ("Smith Johnson Williams Brown Jones Garcia Miller Davis Rodriguez Martinez Hernandez "
        "Lopez Gonzalez Wilson Anderson Taylor Moore Jackson Martin Lee Perez Thompson White "
        "Harris Sanchez Clark Ramirez Lewis Robinson Walker Young Allen King Wright Scott Torres "
        "Nguyen Hill Flores Green Adams Nelson Baker Hall Rivera Campbell Mitchell Carter "
        "Roberts Patel Kim Chen Okafor Novak Schmidt Rossi Tanaka Haddad").split()
CITIES = ("Denver", "Austin", "Seattle", "Portland", "Chicago", "Phoenix", "Atlanta", "Boston")
EMAIL_HOSTS = ("example.com", "mail.com", "inbox.net", "post.org")
STREETS = ("Maple Ave", "Oak Street", "Pine Road", "Cedar Lane", "Elm Street", "Lakeview Drive",
           "Sunset Blvd", "Hillcrest Road", "River Road", "Park Avenue", "Main Street",
           "Washington Street", "Highland Ave", "Spring Street", "Mill Road")
DEALER_PREFIXES = ("Summit Motors", "Lakeside Auto Center", "Metro Car Care", "Pioneer Motors",
                   "Riverside Service Center", "Highland Auto Works")
#: (make, model, range on a full battery or tank in km) per powertrain.
CATALOG = {
    "electric": (("Tesla", "Model Y", 500), ("Tesla", "Model S", 560),
                 ("Hyundai", "Ioniq", 430), ("Kia", "Niro EV", 400),
                 ("Ford", "Mustang Mach-E", 440), ("Chevrolet", "Bolt EV", 410),
                 ("Nissan", "Leaf", 300), ("BMW", "iX", 480), ("Lucid", "Air", 650),
                 ("Volkswagen", "ID Buzz", 380)),
    "plug_in_hybrid": (("Toyota", "Prius Prime", 55), ("Ford", "Escape Plug-In", 60),
                       ("Mitsubishi", "Outlander PHEV", 60), ("Kia", "Sorento PHEV", 50),
                       ("Chrysler", "Pacifica Hybrid", 50)),
    "gasoline": (("Honda", "Civic", 700), ("Toyota", "Camry", 750), ("Ford", "Bronco", 550),
                 ("Subaru", "Outback", 720), ("Chevrolet", "Tahoe", 650),
                 ("Honda", "Accord", 760), ("Toyota", "Tacoma", 620), ("Jeep", "Cherokee", 600),
                 ("Volkswagen", "Jetta", 720), ("Mazda", "Miata", 560)),
}
#: Fuel range of a plug-in hybrid's tank in km.
HYBRID_TANK_KM = 600
COLORS = ("white", "black", "silver", "gray", "blue", "red", "green")
NICKNAMES = ("Daily Driver", "Road Tripper", "Commuter", "Weekend Car", "Family Hauler",
             "Sparky", "Zippy", "Old Faithful", "Silver Arrow", "The Beast", "Little Bean",
             "Voltage")
FAVORITES = ("Gym", "Mom's House", "Grocery Store", "Lakeside Park", "Airport Parking",
             "Kids' School", "Golf Club", "Climbing Gym", "Farmers Market", "Dentist",
             "Book Club", "Soccer Field")
CHARGER_PLACES = ("Fast Charger Downtown", "Mall Charger", "Office Garage Charger")
LOCATIONS = ("Downtown", "Shopping Center", "Airport", "Stadium", "Hospital", "Library",
             "Train Station", "University")
NETWORKS = ("ChargePoint", "Electrify America", "EVgo", "Blink")
SITES = ("Union Station", "Westfield Mall", "Main Street", "Airport Park", "City Library",
         "Harbor Plaza")
#: People an owner shares keys with (never an owner's own email: those have digits).
HOLDERS = ("Maria Lopez", "Tom Becker", "Anna Kowalski", "Sam Whitaker", "Priya Raman",
           "Leo Martins", "Grace Okoye", "Ben Carter", "Nina Petrova", "Diego Alvarez",
           "Chloe Dubois", "Marcus Reed", "Hana Sato", "Ethan Brooks")
#: People a task may ask to share a key with (never generated as holders).
NEW_HOLDERS = ("Olivia Grant", "Noah Fischer", "Zara Khan", "Lucas Moreau", "Ivy Chen",
               "Felix Wagner")
ALERT_TEXT = {
    "low_tire_pressure": "{side} tire pressure is low ({psi} psi).",
    "service_due": "Scheduled maintenance is due within {n} days.",
    "low_battery": "Battery is below {n}%: plug in soon.",
    "door_ajar": "The {door} door was left open.",
    "software_update": "Software update {version} is ready to install.",
    "recall_notice": "A safety recall applies to this vehicle: contact a dealer.",
}
TABLES = ("owners", "dealers", "places", "vehicles", "charge_schedules", "trips",
          "service_appointments", "digital_keys", "alerts", "charging_sessions",
          "charging_refunds")


def holder_email(name: str) -> str:
    """The email address of a key holder: ``first.last@example.com``."""
    return name.lower().replace(" ", ".") + "@example.com"


class _Draw(BlockDraws):
    """The generator's draws: picks, unique ids, days and times (all from one
    ``numpy.random.default_rng(seed)`` stream, read in blocks of uniforms for speed)."""

    def day(self, lo: int, hi: int, weekdays: bool = False) -> date:
        """A day ``lo..hi`` days after today (negative: before), not a Sunday when
        ``weekdays``."""
        while True:
            d = _TODAY + timedelta(days=self.int(lo, hi))
            if not weekdays or d.weekday() != 6:
                return d


def _slots(dealer: dict) -> list[str]:
    """The appointment start times of a dealer: on the hour or half hour, the last one
    hour before closing."""
    out, t = [], datetime.strptime(dealer["opens"], "%H:%M")
    last = datetime.strptime(dealer["closes"], "%H:%M") - timedelta(hours=1)
    while t <= last:
        out.append(t.strftime("%H:%M"))
        t += timedelta(minutes=30)
    return out


def generate(seed: int) -> dict:
    """``{table: [row, ...]}`` for every table of ``schema.sql``."""
    g = _Draw(seed)
    data: dict[str, list] = {t: [] for t in TABLES}
    dealers = _dealers(g, data)
    emails, usernames, plates, vins = set(), set(), set(), set()
    for n in range(N_OWNERS):
        first, last = g.pick(FIRST), g.pick(LAST)
        owner_id = g.token("own")
        number = g.int(1, 99)
        email = f"{first}.{last}{number}@{g.pick(EMAIL_HOSTS)}".lower()
        username = f"{first[0]}{last}{number}".lower()
        if email in emails or username in usernames:
            email, username = f"{first}.{last}{n + 100}@example.com".lower(), \
                f"{first[0]}{last}{n + 100}".lower()
        emails.add(email)
        usernames.add(username)
        city = g.pick(CITIES)
        data["owners"].append({
            "owner_id": owner_id, "first_name": first, "last_name": last, "email": email,
            "username": username, "phone": f"+1-555-{g.int(200, 999)}-{g.int(0, 9999):04d}",
            "city": city, "member_since": g.day(-1500, -30).isoformat()})
        count = 1 if g.chance(0.5) else (2 if g.chance(0.75) else 3)
        kinds = [g.pick(("electric",) * 9 + ("plug_in_hybrid",) * 4 + ("gasoline",) * 7)
                 for _ in range(count)]
        places = _places(g, data, owner_id, city, any(k != "gasoline" for k in kinds))
        models: set[str] = set()
        nicknames = g.sample(NICKNAMES, count)
        for kind, nickname in zip(kinds, nicknames):
            make, model, full = g.pick(CATALOG[kind])
            while model in models:
                make, model, full = g.pick(CATALOG[kind])
            models.add(model)
            vehicle = _vehicle(g, owner_id, city, kind, make, model, full, nickname, places,
                               plates, vins)
            data["vehicles"].append(vehicle)
            _vehicle_rows(g, data, vehicle, [d for d in dealers if d["city"] == city], places)
    return data


def _dealers(g: _Draw, data: dict) -> list[dict]:
    for city in CITIES:
        for i, prefix in enumerate(g.sample(DEALER_PREFIXES, 4)):
            data["dealers"].append({
                "dealer_id": g.token("dlr"), "name": f"{prefix} {city}", "city": city,
                "phone": f"+1-555-{g.int(200, 999)}-{g.int(0, 9999):04d}",
                "opens": g.pick(("07:00", "07:30", "08:00")),
                "closes": g.pick(("17:00", "17:30", "18:00")),
                "services_ev": 1 if i < 2 or g.chance(0.3) else 0})
    return data["dealers"]


def _places(g: _Draw, data: dict, owner_id: str, city: str, plug_in: bool) -> list[dict]:
    labels = [("Home", "home")]
    if g.chance(0.7):
        labels.append(("Work", "work"))
    labels += [(f, "favorite") for f in g.sample(FAVORITES, g.int(1, 3))]
    if plug_in and g.chance(0.6):
        labels.append((g.pick(CHARGER_PLACES), "charger"))
    rows = []
    for label, category in labels:
        rows.append({"place_id": g.token("plc"), "owner_id": owner_id, "label": label,
                     "address": f"{g.int(10, 9899)} {g.pick(STREETS)}", "city": city,
                     "category": category})
    data["places"] += rows
    return rows


def _vehicle(g: _Draw, owner_id: str, city: str, kind: str, make: str, model: str, full: int,
             nickname: str, places: list[dict], plates: set, vins: set) -> dict:
    battery = limit = plugged = fuel = None
    if kind != "gasoline":
        battery = g.int(4, 98) if kind == "electric" else g.int(0, 100)
        limit = g.pick((70, 80, 80, 80, 90, 100))
        plugged = 1 if g.chance(0.35) else 0
    if kind != "electric":
        fuel = g.int(3, 100)
    if kind == "electric":
        range_km = round(full * battery / 100)
    elif kind == "plug_in_hybrid":
        range_km = round(full * battery / 100 + HYBRID_TANK_KM * fuel / 100)
    else:
        range_km = round(full * fuel / 100)
    while True:
        plate = g.chars(string.ascii_uppercase, 3) + g.chars(string.digits, 4)
        vin = g.chars("ABCDEFGHJKLMNPRSTUVWXYZ0123456789", 17)
        if plate not in plates and vin not in vins:
            plates.add(plate)
            vins.add(vin)
            break
    return {
        "vehicle_id": g.token("veh"), "owner_id": owner_id, "vin": vin, "make": make,
        "model": model, "year": g.int(2019 if kind == "electric" else 2015, 2025),
        "color": g.pick(COLORS), "nickname": nickname, "plate": plate, "powertrain": kind,
        "odometer_km": g.int(3000, 140000), "locked": 0 if g.chance(0.15) else 1,
        "climate_on": 1 if range_km >= 30 and g.chance(0.06) else 0,
        "cabin_target_c": g.pick((20.0, 20.5, 21.0, 21.5, 22.0)),
        "battery_percent": battery, "charge_limit_percent": limit, "plugged_in": plugged,
        "fuel_percent": fuel, "range_km": range_km,
        "parked_city": city if g.chance(0.9) else g.pick(CITIES),
        "nav_place_id": g.pick(places)["place_id"] if g.chance(0.2) else None}


def _vehicle_rows(g: _Draw, data: dict, v: dict, dealers: list[dict],
                  places: list[dict]) -> None:
    vid, kind = v["vehicle_id"], v["powertrain"]
    if kind != "gasoline":
        _schedules(g, data, vid)
        _sessions(g, data, vid, dealers[0]["city"])
    _trips(g, data, vid, places)
    _appointments(g, data, v, dealers)
    _keys(g, data, vid)
    _alerts(g, data, vid, kind)


def _schedules(g: _Draw, data: dict, vid: str) -> None:
    taken = set()
    for _ in range(g.pick((0, 1, 1, 2))):
        days = g.pick(("daily", "weekdays", "weekends"))
        start = g.pick(("21:00", "22:00", "23:00", "00:00", "01:00"))
        if (days, start) in taken:
            continue
        taken.add((days, start))
        data["charge_schedules"].append({
            "schedule_id": g.token("sch"), "vehicle_id": vid, "days": days,
            "charge_start": start, "charge_end": g.pick(("05:00", "06:00", "06:30", "07:00")),
            "created_on": g.day(-300, -5).isoformat()})


def _trips(g: _Draw, data: dict, vid: str, places: list[dict]) -> None:
    where = [p["label"] for p in places] + list(LOCATIONS)
    for offset in sorted(g.sample(range(1, 41), g.int(7, 12)), reverse=True):
        day = _TODAY - timedelta(days=offset)
        clock = datetime(day.year, day.month, day.day, g.int(6, 9), g.pick((0, 15, 30, 45)))
        here = places[0]["label"]
        for _ in range(g.int(1, 3)):
            there = g.pick([w for w in where if w != here])
            distance = round(float(g.uniform(2, 75)), 1)
            speed = g.int(25, 90)
            end = clock + timedelta(minutes=max(3, round(distance / speed * 60)))
            data["trips"].append({
                "trip_id": g.token("trp"), "vehicle_id": vid,
                "started_at": clock.isoformat(timespec="seconds"),
                "ended_at": end.isoformat(timespec="seconds"), "start_location": here,
                "end_location": there, "distance_km": distance, "avg_speed_kmh": speed})
            here, clock = there, end + timedelta(minutes=g.int(20, 240))


def _appointments(g: _Draw, data: dict, v: dict, dealers: list[dict]) -> None:
    kind = v["powertrain"]
    fits = [s for s in ("oil_change", "tire_rotation", "brake_inspection",
                        "battery_health_check", "software_update", "annual_inspection")
            if s not in UNFIT_SERVICES[kind]]
    usable = [d for d in dealers if d["services_ev"] or kind != "electric"]
    plan = ["completed"] * g.pick((0, 1, 1, 2)) + \
        (["scheduled"] if g.chance(0.35) else []) + (["cancelled"] if g.chance(0.1) else [])
    days = set()
    for status in plan:
        dealer = g.pick(usable)
        when = g.day(3, 60, True) if status == "scheduled" else (
            g.day(-300, -5, True) if status == "completed" else g.day(-60, 30, True))
        if when in days:
            continue
        days.add(when)
        booked = min(when - timedelta(days=g.int(3, 40)), _TODAY)
        data["service_appointments"].append({
            "appointment_id": g.token("apt"), "vehicle_id": v["vehicle_id"],
            "dealer_id": dealer["dealer_id"], "service_type": g.pick(fits),
            "date": when.isoformat(), "time": g.pick(_slots(dealer)), "status": status,
            "booked_on": booked.isoformat()})


def _keys(g: _Draw, data: dict, vid: str) -> None:
    for name in g.sample(HOLDERS, g.pick((0, 0, 1, 1, 2, 3))):
        status = g.pick(("active", "active", "active", "expired", "revoked"))
        issued = g.day(-200, -2)
        if status == "expired":
            expires = g.day(-60, 0)
            issued = min(issued, expires - timedelta(days=g.int(1, 60)))
        else:
            expires = g.day(5, 240)
        data["digital_keys"].append({
            "key_id": g.token("key"), "vehicle_id": vid, "holder_name": name,
            "holder_email": holder_email(name),
            "access": g.pick(("full", "drive_only", "drive_only", "unlock_only")),
            "status": status, "issued_on": issued.isoformat(), "expires_on": expires.isoformat()})


def _alerts(g: _Draw, data: dict, vid: str, kind: str) -> None:
    kinds = [k for k in ALERT_TEXT if k != "low_battery" or kind != "gasoline"]
    for alert in g.sample(kinds, g.pick((0, 1, 1, 2, 3))):
        text = ALERT_TEXT[alert].format(
            side=g.pick(("Front left", "Front right", "Rear left", "Rear right")),
            psi=g.int(24, 29), n=g.pick((10, 15, 20)), door=g.pick(("driver", "trunk", "rear")),
            version=f"2025.{g.int(2, 14)}.{g.int(1, 9)}")
        moment = datetime.combine(g.day(-30, -1), datetime.min.time()) + \
            timedelta(minutes=g.int(0, 1439))
        data["alerts"].append({
            "alert_id": g.token("alt"), "vehicle_id": vid, "kind": alert, "message": text,
            "raised_at": moment.isoformat(timespec="seconds"),
            "status": g.pick(("open", "open", "acknowledged", "resolved"))})


def _sessions(g: _Draw, data: dict, vid: str, city: str) -> None:
    stations = [f"{n} {s}" for n in NETWORKS for s in SITES]
    for offset in sorted(g.sample(range(1, 61), g.int(2, 7)), reverse=True):
        day = _TODAY - timedelta(days=offset)
        moment = datetime(day.year, day.month, day.day, g.int(7, 21), g.pick((0, 10, 20, 40)))
        energy = round(float(g.uniform(8, 65)), 1)
        cost = round(energy * float(g.uniform(0.32, 0.58)), 2)
        session = {"session_id": g.token("chg"), "vehicle_id": vid, "station": g.pick(stations),
                   "city": city, "started_at": moment.isoformat(timespec="seconds"),
                   "energy_kwh": energy, "cost": cost,
                   "status": "interrupted" if g.chance(0.12) else "completed"}
        data["charging_sessions"].append(session)
        if offset > 5 and g.chance(0.1):
            data["charging_refunds"].append({
                "refund_id": g.token("ref"), "session_id": session["session_id"],
                "reason": g.pick(("interrupted", "overcharged", "station_fault")),
                "amount": cost, "status": g.pick(("pending", "approved", "rejected")),
                "requested_on": (day + timedelta(days=g.int(1, 5))).isoformat()})
