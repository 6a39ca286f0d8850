"""Synthetic team chat data of one company, in the domain's native shape (see ``io.py``).

``generate(seed)`` is a pure function of the seed (a ``random.Random(seed)`` made inside
the call). About 260 people, three workspaces (everyone in the main one, some in the
partner and guild ones), some 45 public and private channels (a few archived), members
with admin or member roles, some 4,000 messages with threads, reactions, pins, pending and
answered invitations to private channels, and user statuses. ``NOW`` is Monday
2025-06-02 09:00; every message is older.
"""

from __future__ import annotations

import datetime as dt
import random
from pathlib import Path

from ...core.tables import read_json

_VOCABULARY = read_json(Path(__file__).with_name("vocabulary.json"))

__all__ = ["generate", "NOW", "N_USERS"]

NOW = "2025-06-02 09:00"
N_USERS = 260
COMPANY = "orbitly.com"

FIRST_NAMES = _VOCABULARY["first_names"]
LAST_NAMES = _VOCABULARY["last_names"]
TITLES = ["Software Engineer", "Product Manager", "Designer", "Data Scientist", "Support Lead",
          "Account Manager", "Recruiter", "Marketing Lead", "SRE", "Engineering Manager",
          "QA Engineer", "Finance Analyst"]
WORKSPACES = ["Orbitly HQ", "Orbitly Partners", "Design Guild"]
CHANNELS = _VOCABULARY["channels"]  # workspace -> [(name, private, archived, topic)]
TEMPLATES = [
    "Has anyone looked at the {t} yet?", "Quick reminder about the {t} today.",
    "I just shared the {t} in the drive.", "Who owns the {t} this sprint?",
    "The {t} is done. Please take a look.", "Can we move the {t} to tomorrow?",
    "Heads up: the {t} slipped by a week.", "Thanks all for the help with the {t}!",
    "Is the {t} still on track?", "New draft of the {t} is up for review.",
]
TOPICS = ["Q3 roadmap", "launch plan", "pricing page", "onboarding flow", "release notes",
          "incident report", "customer survey", "hiring plan", "budget sheet", "design system",
          "API migration", "sales deck", "offsite agenda", "security review", "data pipeline",
          "mobile beta", "support rota", "OKR draft", "brand refresh", "partner contract"]
REPLIES = ["Thanks!", "On it.", "+1", "I'll take a look this afternoon.",
           "Good question. Let me check.", "Done.", "Can you share the link?", "Agreed."]
EMOJIS = [":thumbsup:", ":tada:", ":eyes:", ":white_check_mark:", ":heart:", ":joy:",
          ":rocket:", ":pray:"]
STATUSES = [("On vacation until June 9", ":palm_tree:"), ("In a meeting", ":calendar:"),
            ("Out sick", ":face_with_thermometer:"), ("Working from Lisbon", ":sunny:"),
            ("Focus time: slow to respond", ":headphones:"), ("Commuting", ":bus:"),
            ("Parental leave until August", ":baby:"), ("At the offsite", ":mountain:"),
            ("Back at 2 PM", ":hourglass:"), ("Working remotely", ":house_with_garden:")]


def _stamp(rng: random.Random, first: dt.date = dt.date(2025, 4, 1), days: int = 61) -> str:
    day = first + dt.timedelta(days=rng.randrange(days))
    return f"{day.isoformat()} {rng.randrange(7, 20):02d}:{rng.randrange(60):02d}"


def _users(rng: random.Random) -> dict[str, dict]:
    names = [(f, l) for f in FIRST_NAMES for l in LAST_NAMES]
    rng.shuffle(names)
    users = {}
    for i, (first, last) in enumerate(names[:N_USERS], start=1):
        uid = f"usr_{i:04d}"
        text, emoji = rng.choice(STATUSES) if rng.random() < 0.4 else ("", "")
        users[uid] = {"user_id": uid, "username": f"{first}.{last}".lower(),
                      "display_name": f"{first} {last}",
                      "email": f"{first}.{last}@{COMPANY}".lower(),
                      "title": rng.choice(TITLES), "status_text": text, "status_emoji": emoji,
                      "presence": rng.choice(["active", "active", "away", "dnd"])}
    return users


def _workspaces(rng: random.Random, uids: list[str]) -> tuple[dict, dict[str, dict[str, str]]]:
    """The workspaces, and each one's members with their roles."""
    workspaces, members = {}, {}
    for i, name in enumerate(WORKSPACES, start=1):
        wid = f"ws_{i:02d}"
        workspaces[wid] = {"workspace_id": wid, "name": name}
        chosen = uids if i == 1 else rng.sample(uids, int(N_USERS * (0.3 if i == 2 else 0.2)))
        roles = {u: "member" for u in chosen}
        owner = rng.choice(sorted(chosen))
        roles[owner] = "owner"
        for u in rng.sample(sorted(chosen), 4):
            if roles[u] == "member":
                roles[u] = "admin"
        if i == 2:
            for u in rng.sample(sorted(chosen), 10):
                if roles[u] == "member":
                    roles[u] = "guest"
        members[wid] = roles
    return workspaces, members


class _Channel:
    """One channel and its rows, drawn table by table in a fixed order."""

    def __init__(self, rng: random.Random, tables: dict[str, dict], wid: str,
                 pool: list[str]) -> None:
        self.rng, self.tables, self.wid, self.pool = rng, tables, wid, pool
        self.top: list[str] = []

    def draw(self, name: str, private: int, archived: int, topic: str) -> None:
        self.channel(name, private, archived, topic)
        self.members(name, private)
        count = self.rng.randint(30, 130) if name == "general" else self.rng.randint(15, 90)
        for _ in range(count):
            self.message()
        self.reactions()
        self.pins()
        if private and not archived:
            self.invites()

    def channel(self, name: str, private: int, archived: int, topic: str) -> None:
        rng, channels = self.rng, self.tables["channels"]
        self.cid = f"ch_{len(channels) + 1:04d}"
        self.creator = rng.choice(self.pool)
        self.created = _stamp(rng, dt.date(2024, 1, 8), 300)
        channels[self.cid] = {"channel_id": self.cid, "workspace_id": self.wid, "name": name,
                              "topic": topic, "is_private": private, "is_archived": archived,
                              "created_by": self.creator, "created_at": self.created}

    def members(self, name: str, private: int) -> None:
        rng, pool = self.rng, self.pool
        if name == "general":
            people = pool
        elif private:
            people = rng.sample(pool, min(len(pool), rng.randint(6, 24)))
        else:
            people = rng.sample(pool, min(len(pool), rng.randint(12, 70)))
        self.people = sorted(set(people) | {self.creator})
        self.admins = {self.creator} | set(rng.sample(self.people, max(1, len(self.people) // 5)))
        for u in self.people:
            self.tables["channel_members"][f"{self.cid}/{u}"] = {
                "channel_id": self.cid, "user_id": u,
                "role": "admin" if u in self.admins else "member", "joined_at": self.created}

    def message(self) -> None:
        """A top-level message, with a thread of replies a quarter of the time."""
        rng, messages = self.rng, self.tables["messages"]
        mid = f"msg_{len(messages) + 1:06d}"
        text = rng.choice(TEMPLATES).format(t=rng.choice(TOPICS))
        author = rng.choice(self.people)
        messages[mid] = {"message_id": mid, "channel_id": self.cid, "user_id": author,
                         "text": text, "ts": _stamp(rng), "thread_parent_id": None,
                         "edited": int(rng.random() < 0.05)}
        self.top.append(mid)
        if rng.random() < 0.25:
            base = messages[mid]["ts"]
            for k in range(rng.randint(1, 4)):
                rid = f"msg_{len(messages) + 1:06d}"
                ts = f"{base[:11]}{min(23, int(base[11:13]) + 1 + k):02d}{base[13:]}"
                messages[rid] = {"message_id": rid, "channel_id": self.cid,
                                 "user_id": rng.choice(self.people),
                                 "text": rng.choice(REPLIES), "ts": ts,
                                 "thread_parent_id": mid, "edited": 0}

    def reactions(self) -> None:
        rng, reactions = self.rng, self.tables["reactions"]
        for mid in self.top:
            if rng.random() < 0.35:
                for u in rng.sample(self.people, min(len(self.people), rng.randint(1, 5))):
                    emoji = rng.choice(EMOJIS)
                    reactions[f"{mid}/{u}/{emoji}"] = {"message_id": mid, "user_id": u,
                                                       "emoji": emoji}

    def pins(self) -> None:
        rng, top = self.rng, self.top
        for mid in rng.sample(top, min(len(top), rng.randint(0, 3))):
            self.tables["pins"][mid] = {"message_id": mid, "channel_id": self.cid,
                                        "pinned_by": rng.choice(sorted(self.admins)),
                                        "pinned_at": self.tables["messages"][mid]["ts"]}

    def invites(self) -> None:
        rng, invites = self.rng, self.tables["invites"]
        outside = [u for u in self.pool if u not in self.people]
        for u in rng.sample(outside, min(len(outside), rng.randint(1, 4))):
            iid = f"inv_{len(invites) + 1:04d}"
            invites[iid] = {"invite_id": iid, "channel_id": self.cid,
                            "inviter_id": rng.choice(self.people), "invitee_id": u,
                            "status": rng.choice(["pending", "pending", "declined"]),
                            "created_at": _stamp(rng)}


def generate(seed: int) -> dict:
    """The native data of a seeded team chat database (deterministic in ``seed``)."""
    rng = random.Random(seed)
    users = _users(rng)
    workspaces, members = _workspaces(rng, list(users))
    tables: dict[str, dict] = {
        "users": users, "workspaces": workspaces,
        "workspace_members": {f"{w}/{u}": {"workspace_id": w, "user_id": u, "role": r}
                              for w, roles in members.items()
                              for u, r in sorted(roles.items())},
        "channels": {}, "channel_members": {}, "messages": {}, "reactions": {}, "pins": {},
        "invites": {}}
    for wid, workspace in workspaces.items():
        pool = sorted(members[wid])
        for name, private, archived, topic in CHANNELS[workspace["name"]]:
            _Channel(rng, tables, wid, pool).draw(name, private, archived, topic)
    return tables
