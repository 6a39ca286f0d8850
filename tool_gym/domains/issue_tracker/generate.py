"""Seeded synthetic data of the issue tracker domain.

``generate(seed)`` returns the native data (what :func:`~.io.load` writes and
:func:`~.io.export` gives back): one list of row dicts per table, every column present,
in insertion order. About 250 users, 12 projects with their members, labels and four
two-week sprints each (two closed, one active, one planned), about a thousand issues with
a status history that follows the workflow, comments and links. Deterministic from the
seed only.

Generated data follows the rules and the policy: assignees and reporters are project
members, ``blocks`` links go from a lower to a higher issue number (no cycle), and no
issue is done while an unresolved issue blocks it.
"""

from __future__ import annotations

import datetime as dt
import itertools
import random
from pathlib import Path

from ...core.fake_data import draw_unique, numbered
from ...core.tables import read_json

_VOCABULARY = read_json(Path(__file__).with_name("vocabulary.json"))

#: The clock of the domain: every write is stamped with it.
NOW = "2025-06-02T09:00:00"
TODAY = dt.date(2025, 6, 2)

STATUSES = ("open", "in_progress", "in_review", "done", "wont_fix")
CLOSED = ("done", "wont_fix")
PRIORITIES = ("low", "medium", "high", "critical")
TYPES = ("bug", "task", "story")
#: The workflow: status -> statuses it may move to.
WORKFLOW = {
    "open": ("in_progress", "wont_fix"),
    "in_progress": ("open", "in_review", "wont_fix"),
    "in_review": ("in_progress", "done", "wont_fix"),
    "done": ("open",),
    "wont_fix": ("open",),
}
#: The path of the history that leads to each status.
_HISTORY = {
    "open": ("open",),
    "in_progress": ("open", "in_progress"),
    "in_review": ("open", "in_progress", "in_review"),
    "done": ("open", "in_progress", "in_review", "done"),
    "wont_fix": ("open", "wont_fix"),
}

FIRST_NAMES = _VOCABULARY["first_names"]
LAST_NAMES = _VOCABULARY["last_names"]
DOMAINS = ("acmesoft.com", "acmesoft.com", "acmesoft.com", "partners.acmesoft.com")

PROJECTS = _VOCABULARY["projects"]

LABELS = ("frontend", "backend", "ux", "performance", "security", "regression", "tech-debt",
          "documentation", "customer", "flaky-test", "accessibility", "infra")
COLORS = ("#d73a4a", "#0075ca", "#a2eeef", "#7057ff", "#008672", "#e4e669", "#fbca04")

COMPONENTS = (
    "Login page", "Checkout form", "Search results", "Password reset", "Dashboard",
    "Settings page", "Notification center", "CSV export", "Image upload", "Profile page",
    "Billing page", "Rate limiter", "Onboarding flow", "Dark mode", "Audit log", "Sync job",
    "Invoice PDF", "Admin panel", "Mobile navigation", "Webhooks", "Report builder",
    "Cache layer",
)
#: (problem, issue type)
PROBLEMS = (
    ("crashes on Safari", "bug"), ("is slow to load", "bug"),
    ("shows the wrong timezone", "bug"), ("times out for large accounts", "bug"),
    ("loses unsaved changes", "bug"), ("breaks on small screens", "bug"),
    ("returns a 500 error", "bug"), ("double-counts items", "bug"),
    ("ignores the locale setting", "bug"), ("leaks memory in long sessions", "bug"),
    ("fails when names have accents", "bug"), ("sends duplicate notifications", "bug"),
    ("needs unit tests", "task"), ("should log retries", "task"),
    ("needs an accessibility review", "task"), ("needs clearer error messages", "task"),
    ("should support keyboard shortcuts", "story"), ("should be paginated", "story"),
    ("needs a loading state", "story"), ("should support German translations", "story"),
)
COMMENTS = (
    "I can reproduce this on the latest build.", "Looks like a regression from last sprint.",
    "Attached the logs from production.", "Can we get this into the next sprint?",
    "Fixed on the branch, waiting for review.", "A customer reported this again today.",
    "Lowering the priority: there is a workaround.", "Needs design input before we start.",
    "Could not reproduce on staging.", "Pairing on this tomorrow.",
    "Blocked until the API change ships.", "Added a test that covers this case.",
)


def day_of(date: dt.date) -> int:
    return (date - TODAY).days


def date_of(day: int) -> str:
    """The ISO date ``day`` days from today (negative: in the past)."""
    return (TODAY + dt.timedelta(days=day)).isoformat()


def stamp_of(day: int, rng: random.Random) -> str:
    hour, minute, second = rng.randint(8, 19), rng.randint(0, 59), rng.randint(0, 59)
    return f"{date_of(day)}T{hour:02d}:{minute:02d}:{second:02d}"


TABLES = ("users", "projects", "project_members", "sprints", "labels", "issues", "issue_labels",
          "comments", "issue_links", "issue_events")


class _Tracker:
    """The tables being drawn, with the ids and counters shared by all projects."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.data: dict[str, list[dict]] = {t: [] for t in TABLES}
        self.used: set[str] = set()
        self.comment_id = self.event_id = 0

    def new_id(self, prefix: str, bits: int = 24) -> str:
        rng = self.rng
        return draw_unique(lambda: f"{prefix}{rng.getrandbits(bits):0{bits // 4}x}", self.used)

    def users(self, n_users: int) -> None:
        rng = self.rng
        usernames: set[str] = set()
        for first, last in rng.sample([(f, la) for f in FIRST_NAMES for la in LAST_NAMES],
                                      n_users):
            base = f"{first[0]}{last}".lower()
            username = numbered(base, usernames)
            self.data["users"].append({
                "user_id": self.new_id("u_"), "username": username,
                "email": f"{first}.{last}@{rng.choice(DOMAINS)}".lower(),
                "full_name": f"{first} {last}",
                "created_at": stamp_of(rng.randint(-900, -500), rng)})

    def memberships(self) -> dict[str, list[dict]]:
        """Every user is in one to three projects."""
        members: dict[str, list[dict]] = {key: [] for key, _, _ in PROJECTS}
        for user in self.data["users"]:
            for key in self.rng.sample([p[0] for p in PROJECTS],
                                       self.rng.choice((1, 1, 2, 2, 3))):
                members[key].append(user)
        return members


class _Project:
    """One project and its rows, drawn table by table in a fixed order."""

    def __init__(self, tracker: _Tracker, key: str, team: list[dict]) -> None:
        self.tracker, self.rng, self.data = tracker, tracker.rng, tracker.data
        self.key, self.team = key, team
        self.issues: list[dict] = []

    def draw(self, name: str, description: str) -> None:
        self.project(name, description)
        self.labels()
        self.sprints()
        titles = self.rng.sample([(c, p, t) for c in COMPONENTS for p, t in PROBLEMS],
                                 self.rng.randint(60, 110))
        for number, (component, problem, kind) in enumerate(titles, start=1):
            self.issue(number, component, problem, kind)
        self.links()

    def project(self, name: str, description: str) -> None:
        rng = self.rng
        lead = self.team[0]
        self.project_id = self.tracker.new_id("prj_", 16)
        created = rng.randint(-480, -420)
        self.data["projects"].append({"project_id": self.project_id, "key": self.key,
                                      "name": name, "description": description,
                                      "lead_id": lead["user_id"],
                                      "created_at": stamp_of(created, rng)})
        for user in self.team:
            self.data["project_members"].append({
                "project_id": self.project_id, "user_id": user["user_id"],
                "role": "lead" if user is lead else "member",
                "joined_at": stamp_of(rng.randint(created, -30), rng)})

    def labels(self) -> None:
        self.label_names = sorted(self.rng.sample(LABELS, self.rng.randint(4, 7)))
        for label in self.label_names:
            self.data["labels"].append({"project_id": self.project_id, "name": label,
                                        "color": self.rng.choice(COLORS)})

    def sprints(self) -> None:
        """Closed, closed, active (today inside), planned."""
        rng = self.rng
        first_number = rng.randint(8, 40)
        active_start = -rng.randint(0, 13)
        sprints = []
        for k, state in enumerate(("closed", "closed", "active", "planned")):
            start = active_start + 14 * (k - 2)
            sprint = {"sprint_id": self.tracker.new_id("spr_"), "project_id": self.project_id,
                      "name": f"Sprint {first_number + k}", "start_date": date_of(start),
                      "end_date": date_of(start + 13), "state": state}
            sprints.append(sprint)
            self.data["sprints"].append(sprint)
        self.closed, self.active, self.planned = sprints[:2], sprints[2], sprints[3]

    def sprint_of(self, status: str, roll: float) -> dict | None:
        if status in ("in_progress", "in_review"):
            return self.active if roll < 0.8 else None
        if status == "done":
            return self.rng.choice(self.closed) if roll < 0.5 else (
                self.active if roll < 0.7 else None)
        if status == "open":
            return self.planned if roll < 0.25 else (self.active if roll < 0.4 else None)
        return None

    def issue(self, number: int, component: str, problem: str, kind: str) -> None:
        rng = self.rng
        status = rng.choices(STATUSES, weights=(30, 20, 15, 25, 10))[0]
        assigned = rng.random() < {"open": 0.4, "wont_fix": 0.5}.get(status, 0.9)
        assignee = rng.choice(self.team)["user_id"] if assigned else None
        reporter = rng.choice(self.team)["user_id"]
        sprint = self.sprint_of(status, rng.random())
        day = rng.randint(-400, -70)  # room for three status changes
        created_at = stamp_of(day, rng)
        issue_id = f"{self.key}-{number}"
        events = [("created", None, "open", created_at)]
        stamp = created_at
        history = _HISTORY[status]
        for old, new in itertools.pairwise(history):
            day = rng.randint(day + 1, day + 20)
            stamp = stamp_of(day, rng)
            events.append(("status", old, new, stamp))
        due = None
        if status not in CLOSED and rng.random() < 0.25:
            due = date_of(rng.randint(-10, 60))
        issue = {"issue_id": issue_id, "project_id": self.project_id, "number": number,
                 "title": f"{component} {problem}",
                 "description": f"{component} {problem}. Reported by the "
                                f"{rng.choice(('support', 'QA', 'design', 'sales'))} team.",
                 "type": kind, "status": status,
                 "priority": rng.choices(PRIORITIES, weights=(25, 40, 25, 10))[0],
                 "reporter_id": reporter, "assignee_id": assignee,
                 "sprint_id": sprint["sprint_id"] if sprint else None, "due_date": due,
                 "created_at": created_at, "updated_at": stamp,
                 "resolved_at": stamp if status in CLOSED else None}
        self.issues.append(issue)
        self.data["issues"].append(issue)
        self.issue_events(issue, events)
        self.issue_labels(issue_id)
        self.comments(issue_id, created_at)

    def issue_events(self, issue: dict, events: list[tuple]) -> None:
        reporter, assignee = issue["reporter_id"], issue["assignee_id"]
        for field, old, new, when in events:
            self.tracker.event_id += 1
            actor = reporter if field == "created" else (assignee or reporter)
            self.data["issue_events"].append({
                "event_id": self.tracker.event_id, "issue_id": issue["issue_id"],
                "actor_id": actor, "field": field, "old_value": old, "new_value": new,
                "created_at": when})

    def issue_labels(self, issue_id: str) -> None:
        for label in sorted(self.rng.sample(self.label_names, self.rng.choice((0, 1, 1, 2)))):
            self.data["issue_labels"].append({"issue_id": issue_id,
                                              "project_id": self.project_id, "label": label})

    def comments(self, issue_id: str, created_at: str) -> None:
        rng = self.rng
        for _ in range(rng.choice((0, 0, 1, 1, 2, 3))):
            self.tracker.comment_id += 1
            self.data["comments"].append({
                "comment_id": self.tracker.comment_id, "issue_id": issue_id,
                "author_id": rng.choice(self.team)["user_id"], "body": rng.choice(COMMENTS),
                "created_at": stamp_of(rng.randint(day_of(
                    dt.date.fromisoformat(created_at[:10])), -1), rng)})

    def links(self) -> None:
        rng, issues = self.rng, self.issues
        linked: set[tuple] = set()
        for _ in range(len(issues) // 5):
            a, b = sorted(rng.sample(issues, 2), key=lambda i: i["number"])
            kind = rng.choices(("blocks", "relates_to", "duplicates"), weights=(6, 3, 1))[0]
            if kind == "blocks" and b["status"] == "done" and a["status"] not in CLOSED:
                continue  # the policy: never done while blocked by an unresolved issue
            if (a["issue_id"], b["issue_id"]) in linked:
                continue
            linked.add((a["issue_id"], b["issue_id"]))
            self.data["issue_links"].append({
                "source_id": a["issue_id"], "target_id": b["issue_id"], "kind": kind,
                "created_by": rng.choice(self.team)["user_id"],
                "created_at": max(a["created_at"], b["created_at"])})


def generate(seed: int = 0, n_users: int = 250) -> dict:
    """The native data of an issue tracker database, deterministic from ``seed``."""
    tracker = _Tracker(seed)
    tracker.users(n_users)
    members = tracker.memberships()
    for key, name, description in PROJECTS:
        _Project(tracker, key, members[key]).draw(name, description)
    return tracker.data
