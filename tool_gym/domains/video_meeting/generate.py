"""Seeded synthetic data of the video meeting domain.

``generate(seed)`` returns the native data: ``{table: [row dict, ...]}`` in the column order
of ``schema.sql`` and in rowid order, exactly what :func:`..io.export` gives back after
:func:`..io.load`. Everything comes from ``numpy.random.default_rng(seed)``; the service's
clock is the fixed ``NOW`` of :mod:`.tools`, so the same seed always gives the same data.

Eight organizations of 28 users each (basic, pro or business plans) with five conference
rooms each. Every user hosts a few meetings: completed ones of the last weeks (who came,
cloud recordings on the plans that have them, shared with colleagues), some live right now
(people present, others in the waiting room), scheduled ones of the coming weeks (invitees
from the organization and outside it, co-hosts, settings, conference rooms, breakout rooms)
and cancelled ones; no host has two meetings at once and no room is booked twice.
"""

from __future__ import annotations

import string
from datetime import datetime, timedelta

import numpy as np

from .tools import NOW, PLANS, TODAY, end_of, passcode_of

USERS_PER_ORG = 28
TABLES = ("organizations", "users", "conference_rooms", "meetings", "invitations",
          "breakout_rooms", "breakout_assignments", "waiting_room", "attendance", "recordings",
          "recording_shares")
_NOW = datetime.strptime(NOW, "%Y-%m-%d %H:%M")

ORGS = (("Northwind Traders", "northwind.io"), ("Bluepeak Analytics", "bluepeak.com"),
        ("Lumen Labs", "lumenlabs.com"), ("Harborview Health", "harborview.org"),
        ("Cobalt Works", "cobaltworks.net"), ("Sunridge Media", "sunridge.co"),
        ("Ironleaf Capital", "ironleaf.com"), ("Tidewater Logistics", "tidewater.io"))
#: Outside guests (clients, vendors) that meetings invite.
GUEST_DOMAINS = ("acme-corp.com", "globex.net", "initech.org", "partnerco.com", "vendorhub.io")
DEPARTMENTS = ("Engineering", "Sales", "Marketing", "Finance", "Operations", "Design",
               "Support", "People")
ROOM_NAMES = ("Everest", "Kilimanjaro", "Denali", "Matterhorn", "Fuji", "Aconcagua", "Elbrus",
              "Olympus", "Rainier", "Whitney")
#: Meeting titles; a host uses each at most once.
TITLES = ("Weekly Team Sync", "Quarterly Planning", "Design Review", "Sprint Retrospective",
          "Budget Review", "Hiring Debrief", "All Hands Prep", "Product Roadmap",
          "Onboarding Session", "Incident Postmortem", "Customer Demo", "Vendor Check-in",
          "Marketing Brainstorm", "Sales Pipeline Review", "Architecture Deep Dive",
          "Board Update Prep", "Team Offsite Planning", "Security Training",
          "Release Go/No-Go", "Partner Kickoff")
#: Titles that tasks ask to schedule (never generated).
NEW_TITLES = ("Pricing Workshop", "Customer Advisory Call", "Data Migration Kickoff",
              "Holiday Party Planning", "Mentoring Session", "Roadmap Q&A",
              "Accessibility Audit", "Launch Readiness Review")

FIRST = ("James Mary Robert Patricia John Jennifer Michael Linda David Elizabeth William "
         "Barbara Richard Susan Joseph Jessica Thomas Sarah Charles Karen Daniel Lisa Matthew "
         "Nancy Anthony Betty Mark Sandra Donald Ashley Steven Emily Paul Donna Andrew Michelle "
         "Joshua Carol Kevin Amanda Brian Melissa George Deborah Omar Aisha Wei Mei Carlos "
         "Lucia Raj Priya Ahmed Fatima Hiroshi Yuki Ivan Olga Kwame Amara").split()
LAST = ("Smith Johnson Williams Brown Jones Garcia Miller Davis Rodriguez Martinez Hernandez "
        "Lopez Gonzalez Wilson Anderson Thomas Taylor Moore Jackson Martin Lee Perez Thompson "
        "White Harris Sanchez Clark Ramirez Lewis Robinson Walker Young Allen King Wright Scott "
        "Torres Nguyen Hill Flores Green Adams Nelson Baker Hall Rivera Campbell Mitchell "
        "Carter Roberts Patel Kim Chen Okafor Novak Schmidt Rossi Tanaka Haddad").split()
_ALNUM = string.ascii_lowercase + string.digits


def _at(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%d %H:%M")


class _Service:
    """The tables being drawn, the values that must stay unique, and who is busy when."""

    def __init__(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)
        self.data: dict[str, list[dict]] = {t: [] for t in TABLES}
        self.ids: set[str] = set()
        self.usernames: set[str] = set()
        self.busy: dict[str, list[tuple[str, str]]] = {}  # host or room -> (start, end)

    def int(self, lo: int, hi: int) -> int:
        return int(self.rng.integers(lo, hi + 1))

    def pick(self, options):
        return options[int(self.rng.integers(len(options)))]

    def chance(self, p: float) -> bool:
        return bool(self.rng.random() < p)

    def sample(self, options, k: int) -> list:
        return [options[int(i)] for i in self.rng.permutation(len(options))[:k]]

    def token(self, prefix: str, n: int = 8) -> str:
        while True:
            chars = self.rng.integers(len(_ALNUM), size=n - 1)
            text = self.pick(string.ascii_lowercase) + "".join(_ALNUM[int(c)] for c in chars)
            if text not in self.ids:
                self.ids.add(text)
                return f"{prefix}_{text}"

    def free(self, key: str, start: str, end: str) -> bool:
        return all(e <= start or s >= end for s, e in self.busy.get(key, ()))

    def book(self, key: str, start: str, end: str) -> None:
        self.busy.setdefault(key, []).append((start, end))

    # ------------------------------------------------------------------- people
    def organizations(self) -> None:
        for name, domain in ORGS:
            org_id = self.token("org")
            self.data["organizations"].append({"org_id": org_id, "name": name,
                                               "domain": domain})
            emails: set[str] = set()
            for _ in range(USERS_PER_ORG):
                self.user(org_id, domain, emails)
            for room in self.sample(ROOM_NAMES, 5):
                self.data["conference_rooms"].append({
                    "room_id": self.token("room"), "org_id": org_id, "name": room,
                    "floor": self.int(1, 6), "capacity": self.pick((4, 6, 8, 10, 12, 20))})

    def user(self, org_id: str, domain: str, emails: set[str]) -> None:
        first, last = self.pick(FIRST), self.pick(LAST)
        base, n = f"{first}.{last}".lower(), 1
        while f"{base}{n if n > 1 else ''}@{domain}" in emails:
            n += 1
        email = f"{base}{n if n > 1 else ''}@{domain}"
        emails.add(email)
        while True:
            username = f"{first[0]}{last}{self.int(10, 99)}".lower()
            if username not in self.usernames:
                self.usernames.add(username)
                break
        roll = self.rng.random()
        self.data["users"].append({
            "user_id": self.token("usr"), "org_id": org_id, "first_name": first,
            "last_name": last, "email": email, "username": username,
            "department": self.pick(DEPARTMENTS),
            "plan": "basic" if roll < 0.25 else "pro" if roll < 0.7 else "business"})


class _Host:
    """One user's hosted meetings, drawn in a fixed order."""

    def __init__(self, service: _Service, user: dict, colleagues: list[dict],
                 rooms: list[dict], outsiders: list[tuple[str, str]]) -> None:
        self.s, self.user = service, user
        self.colleagues = [c for c in colleagues if c["user_id"] != user["user_id"]]
        self.rooms, self.outsiders = rooms, outsiders
        self.titles = service.sample(TITLES, len(TITLES))
        self.plan = PLANS[user["plan"]]

    def draw(self) -> None:
        s = self.s
        if s.chance(0.14):
            self.meeting("in_progress")
        for _ in range(s.int(1, 3)):
            self.meeting("completed")
        for _ in range(s.int(1, 4)):
            self.meeting("scheduled")
        if s.chance(0.3):
            self.meeting("cancelled")

    def slot(self, status: str) -> tuple[str, int] | None:
        s = self.s
        minutes = s.pick((30, 40) if self.user["plan"] == "basic" else (30, 45, 60, 60, 90))
        for _ in range(20):
            if status == "in_progress":
                start = _NOW - timedelta(minutes=s.pick((0, 15, 30)) if minutes <= 30
                                         else s.pick((0, 15, 30, 45)) if minutes >= 60
                                         else s.pick((0, 15, 30)))
                start = start.replace(minute=(start.minute // 15) * 15)
            else:
                days = -s.int(1, 45) if status == "completed" else s.int(1, 30)
                if status == "cancelled":
                    days = s.int(-20, 20) or 1
                day = (_NOW + timedelta(days=days)).replace(hour=s.int(8, 16),
                                                          minute=s.pick((0, 30)))
                if day.weekday() >= 5:
                    continue
                start = day
            begin, end = _at(start), end_of(_at(start), minutes)
            if status == "in_progress" and not begin <= NOW < end:
                continue
            if status == "cancelled" or self.s.free(self.user["user_id"], begin, end):
                return begin, minutes
        return None

    def meeting(self, status: str) -> None:
        s, host = self.s, self.user
        slot = self.slot(status)
        if slot is None or not self.titles:
            return
        start, minutes = slot
        end = end_of(start, minutes)
        if status != "cancelled":
            s.book(host["user_id"], start, end)
        meeting_id = s.token("mtg")
        waiting = s.chance(0.6)
        created = min(datetime.strptime(start, "%Y-%m-%d %H:%M") - timedelta(days=s.int(1, 20)),
                      _NOW - timedelta(hours=1))
        row = {"meeting_id": meeting_id, "host_id": host["user_id"], "title": self.titles.pop(),
               "start_time": start, "duration_minutes": minutes, "status": status,
               "passcode": passcode_of(meeting_id), "waiting_room": int(waiting),
               "mute_on_entry": int(s.chance(0.4)),
               "join_before_host": int(not waiting and s.chance(0.4)),
               "auto_recording": int(self.plan["cloud_recording"] and s.chance(0.3)),
               "room_id": None, "created_at": _at(created)}
        if status != "cancelled" and s.chance(0.3):
            for room in s.sample(self.rooms, len(self.rooms)):
                if s.free(room["room_id"], start, end):
                    row["room_id"] = room["room_id"]
                    s.book(room["room_id"], start, end)
                    break
        s.data["meetings"].append(row)
        invitees = self.invite(row)
        if status == "in_progress":
            self.live(row, invitees)
        elif status == "completed":
            self.present(row, [i for i in invitees if i[2] == "accepted"])
            self.record(row)
        elif status == "scheduled" and len(invitees) >= 4 and s.chance(0.2):
            self.breakout(row, invitees)

    def invite(self, meeting: dict) -> list[tuple[str, str, str]]:
        """Invitations: colleagues (one may be co-host) and maybe outside guests; each as
        ``(email, name, response)``."""
        s = self.s
        done = meeting["status"] in ("completed", "in_progress")
        people = [(c["email"], f"{c['first_name']} {c['last_name']}")
                  for c in s.sample(self.colleagues, s.int(2, 7))]
        if s.chance(0.3):
            people += s.sample(self.outsiders, s.int(1, 2))
        co_host = people[0][0] if s.chance(0.25) else None
        out = []
        for email, name in people:
            response = s.pick(("accepted", "accepted", "accepted", "declined") if done else
                              ("accepted", "accepted", "needs_action", "declined", "tentative"))
            s.data["invitations"].append({"meeting_id": meeting["meeting_id"], "email": email,
                                          "role": "co_host" if email == co_host else "attendee",
                                          "response": response})
            out.append((email, name, response))
        return out

    def present(self, meeting: dict, people: list[tuple[str, str, str]],
                until: str | None = None) -> None:
        s = self.s
        everyone = [(self.user["email"], f"{self.user['first_name']} {self.user['last_name']}")]
        everyone += [(e, n) for e, n, _ in people]
        for email, name in everyone:
            joined = end_of(meeting["start_time"], s.int(0, 5))
            if until is not None:
                joined = min(joined, until)
            s.data["attendance"].append({"meeting_id": meeting["meeting_id"], "email": email,
                                         "name": name, "joined_at": joined})

    def live(self, meeting: dict, invitees: list[tuple[str, str, str]]) -> None:
        s = self.s
        order = s.sample(invitees, len(invitees))
        cut = s.int(0, len(order) - 1)
        self.present(meeting, order[:cut], NOW)
        if not meeting["waiting_room"]:
            return
        waiting = order[cut:] or order[-1:]
        if not waiting:
            return
        for email, name, _ in waiting[:3]:
            if any(a["meeting_id"] == meeting["meeting_id"] and a["email"] == email
                   for a in s.data["attendance"][-10:]):
                continue
            s.data["waiting_room"].append({
                "entry_id": s.token("wait"), "meeting_id": meeting["meeting_id"], "name": name,
                "email": email, "since": min(end_of(meeting["start_time"], s.int(0, 10)), NOW)})

    def record(self, meeting: dict) -> None:
        s = self.s
        if not self.plan["cloud_recording"] or not (meeting["auto_recording"] or s.chance(0.4)):
            return
        minutes = max(5, meeting["duration_minutes"] - s.int(0, 6))
        recording_id = s.token("rec")
        s.data["recordings"].append({
            "recording_id": recording_id, "meeting_id": meeting["meeting_id"],
            "recorded_at": meeting["start_time"], "duration_minutes": minutes,
            "size_mb": float(round(minutes * s.rng.uniform(6.0, 11.5), 1)),
            "has_transcript": int(s.chance(0.5))})
        day = datetime.strptime(meeting["start_time"][:10], "%Y-%m-%d")
        for c in s.sample(self.colleagues, s.int(0, 3)):
            shared = min(day + timedelta(days=s.int(0, 3)), _NOW).strftime("%Y-%m-%d")
            s.data["recording_shares"].append({
                "recording_id": recording_id, "email": c["email"],
                "permission": s.pick(("view", "view", "download")), "shared_on": shared})

    def breakout(self, meeting: dict, invitees: list[tuple[str, str, str]]) -> None:
        s = self.s
        rooms = []
        for n in range(1, s.int(2, 3) + 1):
            room_id = s.token("brk")
            s.data["breakout_rooms"].append({"breakout_room_id": room_id,
                                             "meeting_id": meeting["meeting_id"],
                                             "name": f"Room {n}"})
            rooms.append(room_id)
        for k, (email, _, _) in enumerate(s.sample(invitees, s.int(2, len(invitees)))):
            s.data["breakout_assignments"].append({"breakout_room_id": rooms[k % len(rooms)],
                                                   "email": email})


def _outsiders(service: _Service, domain: str) -> list[tuple[str, str]]:
    """People outside an organization its meetings invite: guests of client companies and
    users of the other organizations."""
    guests = []
    for guest_domain in GUEST_DOMAINS:
        first, last = service.pick(FIRST), service.pick(LAST)
        guests.append((f"{first}.{last}@{guest_domain}".lower(), f"{first} {last}"))
    others = [u for u in service.data["users"] if not u["email"].endswith("@" + domain)]
    guests += [(u["email"], f"{u['first_name']} {u['last_name']}")
               for u in service.sample(others, 3)]
    return guests


def generate(seed: int) -> dict[str, list[dict]]:
    """The native data of a video meeting service made from ``seed``."""
    service = _Service(seed)
    service.organizations()
    for org in service.data["organizations"]:
        colleagues = [u for u in service.data["users"] if u["org_id"] == org["org_id"]]
        rooms = [r for r in service.data["conference_rooms"] if r["org_id"] == org["org_id"]]
        outsiders = _outsiders(service, org["domain"])
        for user in colleagues:
            _Host(service, user, colleagues, rooms, outsiders).draw()
    assert TODAY == NOW[:10]
    return service.data
