"""Seeded synthetic data of the smart home domain.

``generate(seed)`` returns the native data: ``{table: [row dict, ...]}`` in the column order
of ``schema.sql`` and in rowid order (what :mod:`.io` exports back). Everything is drawn from
``numpy.random.default_rng(seed)`` in a fixed order; the homes' clock is the fixed ``NOW``
of :mod:`.tools`.

About 200 users; about seven in ten own a home, and each home is shared with up to three
other users (admins, members, guests), so every user reaches at least one home and many
reach several. A home has rooms, a thermostat or two, locks, lights, cameras and smart
plugs; two weeks of device events; four weeks of daily energy readings of its plugs and
thermostats; a few scenes and automations.
"""

from __future__ import annotations

import string
from datetime import date, datetime, timedelta

import numpy as np

from .commands import COMMAND_KINDS, EVENTS
from .tools import NOW, TODAY

N_USERS = 200
#: Days of energy readings, ending yesterday.
ENERGY_DAYS = 28
#: Days of device events, ending now.
EVENT_DAYS = 14
_TODAY = date.fromisoformat(TODAY)
_NOW = datetime.fromisoformat(NOW)

FIRST = ("James Mary Robert Patricia John Jennifer Michael Linda David Elizabeth William "
         "Barbara Richard Susan Joseph Jessica Thomas Sarah Charles Karen Daniel Lisa Matthew "
         "Nancy Anthony Betty Mark Sandra Donald Ashley Steven Emily Paul Donna Andrew Michelle "
         "Joshua Carol Kevin Amanda Brian Melissa Omar Aisha Wei Mei Carlos Lucia Raj Priya "
         "Ahmed Fatima Hiroshi Yuki Ivan Olga Kwame Amara Nora Felix Ingrid Mateo").split()
LAST = ("Smith Johnson Williams Brown Jones Garcia Miller Davis Rodriguez Martinez Hernandez "
        "Lopez Gonzalez Wilson Anderson Thomas Taylor Moore Jackson Martin Lee Perez Thompson "
        "White Harris Sanchez Clark Ramirez Lewis Robinson Walker Young Allen King Wright Scott "
        "Torres Nguyen Hill Flores Green Adams Nelson Baker Hall Rivera Campbell Mitchell "
        "Carter Roberts Patel Kim Chen Okafor Novak Schmidt Rossi Tanaka Haddad Lindqvist").split()
EMAIL_HOSTS = ("example.com", "mail.com", "inbox.net", "post.org")
#: (city, timezone)
CITIES = (("Austin", "America/Chicago"), ("Denver", "America/Denver"),
          ("Seattle", "America/Los_Angeles"), ("Portland", "America/Los_Angeles"),
          ("Chicago", "America/Chicago"), ("Boston", "America/New_York"),
          ("Atlanta", "America/New_York"), ("Phoenix", "America/Phoenix"),
          ("Raleigh", "America/New_York"), ("Madison", "America/Chicago"),
          ("Sacramento", "America/Los_Angeles"), ("Pittsburgh", "America/New_York"))
STREETS = ("Maple", "Oak", "Cedar", "Pine", "Elm", "Willow", "Birch", "Aspen", "Harbor",
           "Lakeview", "Hillcrest", "Sunset", "Riverside", "Meadow", "Juniper", "Chestnut",
           "Magnolia", "Spruce", "Laurel", "Sycamore", "Orchard", "Prospect", "Highland",
           "Fairview", "Brookside", "Ridge", "Canyon", "Bayview", "Summit", "Garden")
STREET_KINDS = ("Street", "Avenue", "Lane", "Road", "Drive", "Court")
HOME_KINDS = ("House", "Cottage", "Condo", "Cabin", "Loft", "Townhouse", "Bungalow")
#: Rooms every home has, then the optional ones (name, floor).
BASE_ROOMS = (("Entryway", 0), ("Living Room", 0), ("Kitchen", 0))
EXTRA_ROOMS = (("Master Bedroom", 1), ("Guest Room", 1), ("Nursery", 1), ("Office", 1),
               ("Dining Room", 0), ("Garage", 0), ("Basement", -1), ("Patio", 0),
               ("Laundry Room", 0), ("Kids Room", 1), ("Den", 0))
MODELS = {
    "thermostat": ("Nest Learning Thermostat", "Ecobee SmartThermostat", "Honeywell T9"),
    "lock": ("August Wi-Fi Smart Lock", "Yale Assure Lock 2", "Schlage Encode"),
    "light": ("Philips Hue White", "LIFX Mini", "Sengled Smart Bulb"),
    "camera": ("Arlo Pro 4", "Ring Stick Up Cam", "Wyze Cam v3"),
    "plug": ("Kasa Smart Plug", "Wemo Mini", "Eve Energy"),
}
#: (plug name, preferred room, low and high kWh a day while in use)
PLUGS = (("Coffee Maker Plug", "Kitchen", 0.2, 0.6), ("Space Heater Plug", "Office", 2.5, 8.5),
         ("Dehumidifier Plug", "Basement", 1.0, 3.2), ("TV Plug", "Living Room", 0.3, 1.2),
         ("Fan Plug", "Master Bedroom", 0.2, 0.8), ("Aquarium Plug", "Den", 0.5, 1.1),
         ("Kettle Plug", "Kitchen", 0.1, 0.4), ("Washer Plug", "Laundry Room", 0.4, 1.6),
         ("Printer Plug", "Office", 0.05, 0.3), ("Air Purifier Plug", "Nursery", 0.2, 0.7))
#: (camera name, preferred room)
CAMERAS = (("Doorbell Camera", "Entryway"), ("Driveway Camera", "Garage"),
           ("Backyard Camera", "Patio"), ("Nursery Camera", "Nursery"),
           ("Living Room Camera", "Living Room"))
SCENES = ("Good Night", "Movie Night", "Good Morning", "Leaving Home", "Dinner Time",
          "Relax", "Welcome Home", "Reading Time")
TABLES = ("users", "homes", "home_members", "rooms", "devices", "device_events",
          "energy_readings", "scenes", "scene_actions", "automations")
_ALNUM = string.ascii_lowercase + string.digits


def _day(offset: int) -> str:
    return (_TODAY - timedelta(days=offset)).isoformat()


class _World:
    """The tables being drawn and the values that must stay unique."""

    def __init__(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)
        self.data: dict[str, list[dict]] = {t: [] for t in TABLES}
        self.used_ids: set[str] = set()
        self.emails: set[str] = set()
        self.usernames: set[str] = set()

    def pick(self, options):
        return options[int(self.rng.integers(len(options)))]

    def chance(self, p: float) -> bool:
        return bool(self.rng.random() < p)

    def token(self, prefix: str, n: int = 8) -> str:
        """``prefix_`` and a letter, then letters and digits (ids the tools create have
        digits after the prefix, so they never clash)."""
        while True:
            letters = self.rng.integers(0, len(_ALNUM), size=n - 1)
            text = _ALNUM[int(self.rng.integers(26))] + "".join(_ALNUM[int(i)] for i in letters)
            value = f"{prefix}_{text}"
            if value not in self.used_ids:
                self.used_ids.add(value)
                return value

    def unique(self, make, taken: set[str]) -> str:
        while True:
            value = make()
            if value not in taken:
                taken.add(value)
                return value

    # ------------------------------------------------------------------- users
    def user(self) -> dict:
        first, last = self.pick(FIRST), self.pick(LAST)
        rng = self.rng
        email = self.unique(lambda: f"{first}.{last}{int(rng.integers(1, 1000))}@"
                                    f"{self.pick(EMAIL_HOSTS)}".lower(), self.emails)
        username = self.unique(lambda: f"{first[0]}{last}{int(rng.integers(10, 100))}".lower(),
                               self.usernames)
        row = {"user_id": self.token("usr"), "first_name": first, "last_name": last,
               "email": email, "username": username,
               "phone": f"+1-555-{int(rng.integers(200, 1000))}-"
                        f"{int(rng.integers(0, 10000)):04d}",
               "member_since": _day(int(rng.integers(30, 2000)))}
        self.data["users"].append(row)
        return row


class _Home:
    """One home: its rooms, devices, history, scenes and automations."""

    def __init__(self, world: _World, owner: dict, names: set[str]) -> None:
        self.world, self.rng = world, world.rng
        self.owner = owner
        pick = world.pick
        street = f"{pick(STREETS)} {pick(STREET_KINDS)}"
        name = world.unique(lambda: f"{pick(STREETS)} {pick(HOME_KINDS)}", names)
        city, timezone = pick(CITIES)
        self.home_id = world.token("home")
        self.row = {"home_id": self.home_id, "owner_id": owner["user_id"], "name": name,
                    "street": f"{int(self.rng.integers(2, 9900))} {street}", "city": city,
                    "timezone": timezone, "away_mode": int(world.chance(0.12)),
                    "created_on": _day(int(self.rng.integers(60, 1500)))}
        self.members: list[tuple[str, str]] = [(owner["user_id"], "owner")]
        self.rooms: dict[str, str] = {}
        self.devices: list[dict] = []

    def draw_members(self, users: list[dict], memberships: dict[str, int]) -> None:
        world = self.world
        for _ in range(int(self.rng.integers(0, 4))):
            other = world.pick(users)
            if any(other["user_id"] == u for u, _ in self.members):
                continue
            roll = self.rng.random()
            role = "admin" if roll < 0.22 else "member" if roll < 0.62 else "guest"
            self.add_member(other["user_id"], role, memberships)

    def add_member(self, user_id: str, role: str, memberships: dict[str, int]) -> None:
        self.members.append((user_id, role))
        memberships[user_id] = memberships.get(user_id, 0) + 1

    def member_rows(self) -> list[dict]:
        return [{"home_id": self.home_id, "user_id": u, "role": role,
                 "added_on": self.row["created_on"] if role == "owner"
                 else _day(int(self.rng.integers(5, 50)))}
                for u, role in self.members]

    # ------------------------------------------------------------------- rooms
    def draw_rooms(self) -> list[dict]:
        count = int(self.rng.integers(2, 6))
        extra = [EXTRA_ROOMS[int(i)] for i in self.rng.permutation(len(EXTRA_ROOMS))[:count]]
        rows = []
        for name, floor in (*BASE_ROOMS, *extra):
            room_id = self.world.token("room")
            self.rooms[name] = room_id
            rows.append({"room_id": room_id, "home_id": self.home_id, "name": name,
                         "floor": floor})
        return rows

    def room(self, preferred: str) -> str:
        return self.rooms.get(preferred, self.rooms["Living Room"])

    # ----------------------------------------------------------------- devices
    def device(self, kind: str, name: str, room: str, **state) -> dict:
        rng, world = self.rng, self.world
        row = {"device_id": world.token("dev"), "home_id": self.home_id,
               "room_id": self.room(room), "kind": kind, "name": name,
               "model": world.pick(MODELS[kind]),
               "firmware": f"{int(rng.integers(1, 5))}.{int(rng.integers(0, 10))}."
                           f"{int(rng.integers(0, 20))}",
               "status": "offline" if world.chance(0.07) else "online",
               "battery": None, "power": None, "brightness": None, "hvac_mode": None,
               "target_temp": None, "current_temp": None, "lock_state": None,
               "recording": None, "installed_on": _day(int(rng.integers(20, 900)))}
        row.update(state)
        self.devices.append(row)
        return row

    def draw_devices(self) -> None:
        world, rng = self.world, self.rng
        thermostats = [("Hallway Thermostat", "Living Room")]
        if "Master Bedroom" in self.rooms and world.chance(0.4):
            thermostats.append(("Upstairs Thermostat", "Master Bedroom"))
        for name, room in thermostats:
            mode = world.pick(("heat", "heat", "cool", "cool", "auto", "off"))
            target = float(rng.integers(36, 51)) / 2
            current = round(target + float(rng.normal(0, 0.9)), 1)
            self.device("thermostat", name, room, hvac_mode=mode, target_temp=target,
                        current_temp=current)
        locks = [("Front Door", "Entryway")]
        if world.chance(0.6):
            locks.append(("Back Door", "Kitchen"))
        if "Garage" in self.rooms and world.chance(0.7):
            locks.append(("Garage Door", "Garage"))
        for name, room in locks:
            roll = rng.random()
            state = "locked" if roll < 0.68 else "unlocked" if roll < 0.97 else "jammed"
            self.device("lock", name, room, lock_state=state,
                        battery=int(rng.integers(8, 101)))
        lit = [r for r in self.rooms if r != "Entryway" or world.chance(0.5)]
        for index in rng.permutation(len(lit))[:int(rng.integers(3, 6))]:
            room = lit[int(index)]
            self.device("light", f"{room} Light", room,
                        power="on" if world.chance(0.4) else "off",
                        brightness=int(rng.integers(2, 21)) * 5)
        cameras = [c for c in CAMERAS if c[1] in self.rooms]
        for index in rng.permutation(len(cameras))[:int(rng.integers(0, 3))]:
            name, room = cameras[int(index)]
            on = world.chance(0.85)
            self.device("camera", name, room, power="on" if on else "off",
                        recording=int(on and world.chance(0.6)),
                        battery=int(rng.integers(10, 101)))
        plugs = [p for p in PLUGS if p[1] in self.rooms or world.chance(0.3)]
        self.plug_use: dict[str, tuple[float, float]] = {}
        for index in rng.permutation(len(plugs))[:int(rng.integers(1, 4))]:
            name, room, lo, hi = plugs[int(index)]
            row = self.device("plug", name, room, power="on" if world.chance(0.5) else "off")
            self.plug_use[row["device_id"]] = (lo, hi)

    # ----------------------------------------------------------------- history
    def stamp(self, days: int) -> str:
        """A time in the last ``days`` days (minutes, before NOW)."""
        minutes = int(self.rng.integers(30, days * 24 * 60))
        return (_NOW - timedelta(minutes=minutes)).strftime("%Y-%m-%dT%H:%M:00")

    def events(self) -> list[dict]:
        rows = []
        people = [u for u, _ in self.members]
        for d in self.devices:
            kind = d["kind"]
            found: list[tuple[str, str, str | None, str]] = []
            if kind == "lock":
                stamps = sorted({self.stamp(EVENT_DAYS) for _ in range(int(
                    self.rng.integers(3, 9)))})
                states, state = [], d["lock_state"]  # backwards from the current state
                for _ in stamps:
                    states.append(state)
                    state = "locked" if state == "unlocked" else "unlocked"
                for at, event in zip(stamps, reversed(states)):
                    who = self.world.pick(people) if event != "jammed" and \
                        self.world.chance(0.75) else None
                    found.append((at, event, who, ""))
            elif kind == "camera":
                for _ in range(int(self.rng.integers(0, 5))):
                    found.append((self.stamp(EVENT_DAYS), "motion", None, ""))
            elif kind == "thermostat":
                for _ in range(int(self.rng.integers(1, 3))):
                    target = float(self.rng.integers(36, 51)) / 2
                    found.append((self.stamp(EVENT_DAYS), "setpoint_changed",
                                  self.world.pick(people), f"target {target:g}"))
            else:
                for _ in range(int(self.rng.integers(0, 3))):
                    found.append((self.stamp(EVENT_DAYS), self.world.pick(
                        ("turned_on", "turned_off")), self.world.pick(people), ""))
            for at, event, who, detail in sorted(found, key=lambda e: e[0]):
                rows.append({"event_id": self.world.token("evt", 10),
                             "device_id": d["device_id"], "at": at, "event": event,
                             "user_id": who, "detail": detail})
        return rows

    def energy(self) -> list[dict]:
        rows = []
        for d in self.devices:
            if d["kind"] == "plug":
                lo, hi = self.plug_use[d["device_id"]]
                used = 0.8
            elif d["kind"] == "thermostat":
                lo, hi = (1.5, 14.0) if d["hvac_mode"] != "off" else (0.0, 1.0)
                used = 0.95
            else:
                continue
            for offset in range(ENERGY_DAYS, 0, -1):
                kwh = round(float(self.rng.uniform(lo, hi)), 2) if self.world.chance(used) \
                    else 0.0
                rows.append({"device_id": d["device_id"], "day": _day(offset), "kwh": kwh})
        return rows

    # --------------------------------------------------------- scenes, schedules
    def commands_for(self, d: dict) -> list[tuple[str, float | None]]:
        kind = d["kind"]
        options = [(c, None) for c, kinds in COMMAND_KINDS.items()
                   if kind in kinds and c not in ("set_brightness", "set_temperature", "unlock")]
        if kind == "light":
            options.append(("set_brightness", float(int(self.rng.integers(1, 21)) * 5)))
        if kind == "thermostat":
            options.append(("set_temperature", float(self.rng.integers(34, 49)) / 2))
        return options

    def creators(self) -> list[str]:
        return [u for u, role in self.members if role in ("owner", "admin")]

    def scenes(self) -> tuple[list[dict], list[dict]]:
        scenes, actions = [], []
        names = [SCENES[int(i)] for i in self.rng.permutation(len(SCENES))[
            :int(self.rng.integers(1, 4))]]
        for name in names:
            scene_id = self.world.token("scn")
            activated = self.stamp(20) if self.world.chance(0.7) else None
            scenes.append({"scene_id": scene_id, "home_id": self.home_id, "name": name,
                           "created_by": self.world.pick(self.creators()),
                           "last_activated": activated})
            count = min(len(self.devices), int(self.rng.integers(2, 5)))
            for index in self.rng.permutation(len(self.devices))[:count]:
                d = self.devices[int(index)]
                command, value = self.world.pick(self.commands_for(d))
                actions.append({"scene_id": scene_id, "device_id": d["device_id"],
                                "command": command, "value": value})
        return scenes, actions

    def automations(self) -> list[dict]:
        rows = []
        taken: set[str] = set()
        for _ in range(int(self.rng.integers(0, 4))):
            d = self.world.pick(self.devices)
            command, value = self.world.pick(self.commands_for(d))
            hour, minute = int(self.rng.integers(5, 24)), int(self.rng.integers(0, 12)) * 5
            name = f"{d['name']} {command.replace('_', ' ')} at {hour:02d}:{minute:02d}"
            if name in taken:
                continue
            taken.add(name)
            rows.append({"automation_id": self.world.token("aut"), "home_id": self.home_id,
                         "name": name, "device_id": d["device_id"], "command": command,
                         "value": value, "time": f"{hour:02d}:{minute:02d}",
                         "days": self.world.pick(("daily", "daily", "weekdays", "weekends")),
                         "status": "paused" if self.world.chance(0.2) else "active",
                         "created_by": self.world.pick(self.creators())})
        return rows


def generate(seed: int) -> dict[str, list[dict]]:
    """The native data of the smart homes made from ``seed``."""
    world = _World(seed)
    users = [world.user() for _ in range(N_USERS)]
    names: set[str] = set()
    homes = [_Home(world, u, names) for u in users if world.chance(0.7)]
    memberships: dict[str, int] = {h.owner["user_id"]: 1 for h in homes}
    for home in homes:
        home.draw_members(users, memberships)
    for u in users:  # everyone reaches at least one home
        if u["user_id"] not in memberships:
            home = world.pick([h for h in homes if len(h.members) < 6])
            home.add_member(u["user_id"], world.pick(("member", "member", "guest")),
                            memberships)
    data = world.data
    for home in homes:
        data["homes"].append(home.row)
    for home in homes:
        data["home_members"].extend(home.member_rows())
        data["rooms"].extend(home.draw_rooms())
        home.draw_devices()
        data["devices"].extend(home.devices)
        data["device_events"].extend(home.events())
        data["energy_readings"].extend(home.energy())
        scenes, actions = home.scenes()
        data["scenes"].extend(scenes)
        data["scene_actions"].extend(actions)
        data["automations"].extend(home.automations())
    assert set(EVENTS) == set(COMMAND_KINDS)
    return data
