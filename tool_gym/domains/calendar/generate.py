"""Synthetic calendar data of one company, in the domain's native shape (see ``io.py``).

``generate(seed)`` is a pure function of the seed: a ``random.Random(seed)`` made inside
the call draws everything from the vocabulary below. About 240 people with their work
(and some personal) calendars, 18 meeting rooms, some 2,000 meetings between 2025-05-05
and 2025-07-11 (``NOW`` is Monday 2025-06-02 09:00), recurring series expanded as one row
per occurrence, invitations with RSVPs and reminders. Every rule of ``invariants.py``
holds: no room is double-booked, no meeting has more invitees than its room seats, the
organizer attends their own meeting.
"""

from __future__ import annotations

import datetime as dt
import random

__all__ = ["generate", "NOW", "N_USERS"]

#: The domain's clock: every "past"/"future" rule is relative to this instant.
NOW = "2025-06-02 09:00"
N_USERS = 240
FIRST_DAY = dt.date(2025, 5, 5)
LAST_DAY = dt.date(2025, 7, 11)
DOMAIN = "northwind-labs.com"

FIRST_NAMES = [
    "Ada", "Adrian", "Aisha", "Alba", "Amara", "Anders", "Anika", "Arjun", "Beatriz", "Bruno",
    "Camila", "Carmen", "Chen", "Chiara", "Dario", "Dmitri", "Elena", "Emeka", "Esther",
    "Farah", "Felix", "Freya", "Gabriel", "Grace", "Hana", "Hugo", "Imani", "Ines", "Isaac",
    "Jamal", "Jonas", "Julia", "Kai", "Kenji", "Lara", "Leon", "Lina", "Luca", "Maya",
    "Marco", "Mei", "Milan", "Nadia", "Nikhil", "Nora", "Omar", "Olga", "Priya", "Quentin",
    "Rafael", "Rosa", "Sami", "Sofia", "Tariq", "Theo", "Uma", "Valentina", "Victor", "Wen",
    "Yara", "Yusuf", "Zoe",
]
LAST_NAMES = [
    "Abbott", "Alvarez", "Bauer", "Becker", "Bianchi", "Brooks", "Castillo", "Chowdhury",
    "Costa", "Dubois", "Duarte", "Eriksen", "Ferreira", "Fischer", "Garcia", "Gupta", "Haddad",
    "Hansen", "Hughes", "Ibrahim", "Ito", "Jansen", "Kaur", "Keller", "Kim", "Kowalski",
    "Larsen", "Lindqvist", "Lopez", "Martins", "Mendes", "Moreau", "Nakamura", "Novak",
    "Okafor", "Olsen", "Park", "Patel", "Petrov", "Quinn", "Rossi", "Sato", "Schmidt",
    "Silva", "Singh", "Tanaka", "Torres", "Vargas", "Weber", "Yilmaz", "Zhang",
]
DEPARTMENTS = {
    "Engineering": ["Software Engineer", "Senior Engineer", "Engineering Manager", "SRE"],
    "Design": ["Product Designer", "UX Researcher", "Design Lead"],
    "Product": ["Product Manager", "Senior PM", "Head of Product"],
    "Sales": ["Account Executive", "Sales Manager", "Solutions Engineer"],
    "Marketing": ["Marketing Manager", "Content Strategist", "Growth Analyst"],
    "Finance": ["Accountant", "Financial Analyst", "Controller"],
    "People": ["Recruiter", "HR Partner", "People Ops Lead"],
    "Legal": ["Counsel", "Paralegal"],
    "Support": ["Support Specialist", "Support Lead"],
}
ROOMS = [  # name, building, floor, capacity, has_video
    ("Aurora", "North", 1, 12, 1), ("Borealis", "North", 1, 6, 1), ("Cedar", "North", 2, 4, 0),
    ("Delta", "North", 2, 8, 1), ("Everest", "North", 3, 20, 1), ("Fjord", "North", 3, 4, 1),
    ("Granite", "North", 4, 10, 1), ("Harbor", "North", 4, 2, 0), ("Iris", "South", 1, 6, 1),
    ("Juniper", "South", 1, 3, 0), ("Kestrel", "South", 2, 8, 1), ("Lagoon", "South", 2, 14, 1),
    ("Maple", "South", 3, 5, 0), ("Nimbus", "South", 3, 6, 1), ("Orchid", "South", 4, 4, 1),
    ("Pinnacle", "South", 5, 16, 1), ("Quartz", "South", 5, 2, 0), ("Redwood", "North", 5, 10, 1),
]
TOPICS = [
    "design review", "budget sync", "sprint planning", "roadmap review", "kickoff",
    "retrospective", "status update", "architecture review", "customer call", "demo prep",
    "hiring debrief", "launch readiness", "pricing workshop", "risk review", "brainstorm",
    "quarterly planning", "vendor call", "content review", "contract review", "onboarding",
    "QA walkthrough", "metrics deep dive", "partner sync", "postmortem", "strategy session",
]
PROJECTS = [
    "Apollo", "Beacon", "Cobalt", "Dune", "Ember", "Falcon", "Glacier", "Helix", "Ion",
    "Jade", "Kite", "Lumen", "Mosaic", "Nova", "Orbit", "Prism",
]
SERIES_TITLES = ["Team standup", "Weekly 1:1", "Office hours", "Leads sync", "Design crit",
                 "Sales pipeline review", "Eng all-hands", "Support triage"]
CALENDAR_COLORS = ["blue", "green", "red", "purple", "orange", "teal", "gray"]
DESCRIPTIONS = ["Agenda in the shared doc.", "Please come prepared with updates.",
                "Dial-in details in the invite.", "", "", "Notes from last time attached."]


def _weekdays(first: dt.date, last: dt.date) -> list[dt.date]:
    days, d = [], first
    while d <= last:
        if d.weekday() < 5:
            days.append(d)
        d += dt.timedelta(days=1)
    return days


def _stamp(day: dt.date, minutes: int) -> str:
    return f"{day.isoformat()} {minutes // 60:02d}:{minutes % 60:02d}"


class _Rooms:
    """Bookings per (room, day), to keep every room free of overlaps."""

    def __init__(self) -> None:
        self.booked: dict[tuple[str, str], list[tuple[int, int]]] = {}

    def free(self, room: str, day: dt.date, start: int, end: int) -> bool:
        return all(e <= start or end <= s for s, e in self.booked.get((room, day.isoformat()), ()))

    def book(self, room: str, day: dt.date, start: int, end: int) -> None:
        self.booked.setdefault((room, day.isoformat()), []).append((start, end))


def _users(rng: random.Random) -> tuple[dict[str, dict], dict[str, list[str]]]:
    """The users, and their ids by department."""
    names = [f"{f} {l}" for f in FIRST_NAMES for l in LAST_NAMES]
    rng.shuffle(names)
    users: dict[str, dict] = {}
    by_dept: dict[str, list[str]] = {d: [] for d in DEPARTMENTS}
    for i, name in enumerate(names[:N_USERS], start=1):
        uid = f"usr_{i:04d}"
        dept = rng.choice(list(DEPARTMENTS))
        first, last = name.split(" ")
        users[uid] = {"user_id": uid, "name": name, "email": f"{first}.{last}@{DOMAIN}".lower(),
                      "department": dept, "title": rng.choice(DEPARTMENTS[dept])}
        by_dept[dept].append(uid)
    return users, by_dept


def _calendars(rng: random.Random, users: dict) -> tuple[dict[str, dict], dict[str, str]]:
    """Everyone's work calendar (and some personal ones), and each user's primary calendar."""
    calendars: dict[str, dict] = {}
    primary: dict[str, str] = {}
    for uid in users:
        cid = f"cal_{len(calendars) + 1:04d}"
        calendars[cid] = {"calendar_id": cid, "owner_id": uid, "name": "Work",
                          "color": rng.choice(CALENDAR_COLORS), "is_primary": 1}
        primary[uid] = cid
        if rng.random() < 0.3:
            cid = f"cal_{len(calendars) + 1:04d}"
            calendars[cid] = {"calendar_id": cid, "owner_id": uid, "name": "Personal",
                              "color": rng.choice(CALENDAR_COLORS), "is_primary": 0}
    return calendars, primary


def _rooms() -> dict[str, dict]:
    rooms = {}
    for i, (name, building, floor, capacity, video) in enumerate(ROOMS, start=1):
        rid = f"room_{i:02d}"
        rooms[rid] = {"room_id": rid, "name": name, "building": building, "floor": floor,
                      "capacity": capacity, "has_video": video}
    return rooms


class _Schedule:
    """The meetings being drawn: recurring series first, then one-off meetings."""

    def __init__(self, rng: random.Random, users: dict, by_dept: dict, primary: dict,
                 rooms: dict) -> None:
        self.rng, self.users, self.by_dept, self.primary = rng, users, by_dept, primary
        self.rooms, self.room_ids, self.uids = rooms, list(rooms), list(users)
        self.days = _weekdays(FIRST_DAY, LAST_DAY)
        self.booking = _Rooms()
        self.events: dict[str, dict] = {}
        self.series: dict[str, dict] = {}

    def guests(self, organizer: str, k: int) -> list[str]:
        rng = self.rng
        dept = self.users[organizer]["department"]
        pool = [u for u in self.by_dept[dept] if u != organizer]
        chosen: set[str] = set()
        while len(chosen) < k:
            source = pool if pool and rng.random() < 0.7 else self.uids
            u = rng.choice(source)
            if u != organizer:
                chosen.add(u)
        return sorted(chosen)

    def rsvp(self, day: dt.date, start: int) -> str:
        if _stamp(day, start) < NOW:
            return self.rng.choices(["accepted", "declined", "tentative", "needs_action"],
                                    [70, 15, 5, 10])[0]
        return self.rng.choices(["accepted", "declined", "tentative", "needs_action"],
                                [35, 10, 10, 45])[0]

    def pick_room(self, day: dt.date, start: int, end: int, people: int) -> str | None:
        options = [r for r in self.room_ids if self.rooms[r]["capacity"] >= people
                   and self.booking.free(r, day, start, end)]
        if not options:
            return None
        room = self.rng.choice(options)
        self.booking.book(room, day, start, end)
        return room

    def add_event(self, organizer, title, day, start, end, invited, room, series_id=None,
                  status="confirmed") -> str:
        eid = f"evt_{len(self.events) + 1:05d}"
        attendees = [{"user_id": organizer, "rsvp": "accepted"}]
        attendees += [{"user_id": u, "rsvp": self.rsvp(day, start)} for u in invited]
        attendees.sort(key=lambda a: a["user_id"])
        self.events[eid] = {
            "event_id": eid, "calendar_id": self.primary[organizer], "organizer_id": organizer,
            "title": title, "description": self.rng.choice(DESCRIPTIONS),
            "start": _stamp(day, start), "end": _stamp(day, end), "room_id": room,
            "status": status, "series_id": series_id, "attendees": attendees,
        }
        return eid

    def recurring_series(self, n: int = 60) -> None:
        """Drawn first: a series needs the same room free at every occurrence."""
        rng, days = self.rng, self.days
        for _ in range(n):
            organizer = rng.choice(self.uids)
            title = rng.choice(SERIES_TITLES)
            frequency = rng.choice(["weekly", "weekly", "daily"])
            count = rng.randint(5, 10)
            first = rng.choice(days[: len(days) - 14])
            start = rng.choice(range(8 * 60, 17 * 60, 30))
            end = start + rng.choice([15, 30, 30, 60])
            dates = _occurrences(first, 1 if frequency == "daily" else 7, count)
            invited = self.guests(organizer, rng.randint(1, 6))
            room = None
            if rng.random() < 0.6:
                options = [r for r in self.room_ids
                           if self.rooms[r]["capacity"] >= len(invited) + 1
                           and all(self.booking.free(r, x, start, end) for x in dates)]
                if options:
                    room = rng.choice(options)
                    for x in dates:
                        self.booking.book(room, x, start, end)
            sid = f"ser_{len(self.series) + 1:04d}"
            self.series[sid] = {"series_id": sid, "frequency": frequency,
                                "occurrences": len(dates)}
            for x in dates:
                self.add_event(organizer, title, x, start, end, invited, room, sid)

    def one_off_meetings(self) -> None:
        rng = self.rng
        for organizer in self.uids:
            for _ in range(rng.randint(3, 12)):
                title = f"{rng.choice(PROJECTS)} {rng.choice(TOPICS)}"
                day = rng.choice(self.days)
                start = rng.choice(range(8 * 60, 18 * 60, 30))
                end = min(start + rng.choice([30, 30, 45, 60, 60, 90]), 19 * 60)
                invited = self.guests(organizer, rng.choice([0, 1, 1, 2, 2, 3, 4, 5, 7]))
                room = None
                if invited and rng.random() < 0.65:
                    room = self.pick_room(day, start, end, len(invited) + 1)
                status = "cancelled" if rng.random() < 0.05 else "confirmed"
                self.add_event(organizer, title, day, start, end, invited, room, None, status)


def _occurrences(first: dt.date, step: int, count: int) -> list[dt.date]:
    """Up to ``count`` weekdays from ``first`` every ``step`` days, until ``LAST_DAY``."""
    dates = []
    d = first
    while len(dates) < count and d <= LAST_DAY:
        if d.weekday() < 5:
            dates.append(d)
        d += dt.timedelta(days=step)
    return dates


def _reminders(rng: random.Random, events: dict[str, dict], draws: int = 1400) -> dict:
    reminders: dict[str, dict] = {}
    event_ids = list(events)
    seen: set[tuple] = set()
    for _ in range(draws):
        e = events[rng.choice(event_ids)]
        user = rng.choice(e["attendees"])["user_id"]
        minutes = rng.choice([5, 10, 15, 30, 60, 1440])
        method = rng.choice(["popup", "popup", "push"])
        key = (e["event_id"], user, minutes, method)
        if key in seen:
            continue
        seen.add(key)
        rid = f"rem_{len(reminders) + 1:05d}"
        reminders[rid] = {"reminder_id": rid, "event_id": e["event_id"], "user_id": user,
                          "minutes_before": minutes, "method": method}
    return reminders


def generate(seed: int) -> dict:
    """The native data of a seeded calendar database (deterministic in ``seed``)."""
    rng = random.Random(seed)
    users, by_dept = _users(rng)
    calendars, primary = _calendars(rng, users)
    rooms = _rooms()
    schedule = _Schedule(rng, users, by_dept, primary, rooms)
    schedule.recurring_series()
    schedule.one_off_meetings()
    return {"users": users, "calendars": calendars, "rooms": rooms, "series": schedule.series,
            "events": schedule.events, "reminders": _reminders(rng, schedule.events)}
