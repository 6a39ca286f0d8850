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
import random

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

FIRST_NAMES = (
    "Ada", "Alice", "Amir", "Ana", "Ben", "Bruno", "Carla", "Chen", "Dana", "David", "Diego",
    "Elena", "Farah", "Felix", "Grace", "Hana", "Hugo", "Ivan", "Jack", "Jana", "Jonas", "Kai",
    "Kenji", "Lara", "Leo", "Lina", "Luca", "Maya", "Mateo", "Mei", "Nadia", "Noah", "Nora",
    "Olga", "Omar", "Paul", "Priya", "Quinn", "Rafael", "Rosa", "Sam", "Sara", "Sofia",
    "Tariq", "Theo", "Uma", "Victor", "Wei", "Yara", "Yusuf", "Zoe",
)
LAST_NAMES = (
    "Adams", "Baker", "Becker", "Costa", "Diaz", "Dubois", "Evans", "Fischer", "Garcia",
    "Gupta", "Hansen", "Haddad", "Ito", "Jensen", "Kim", "Kowalski", "Larsen", "Lopez",
    "Martin", "Moreau", "Nakamura", "Novak", "Okafor", "Olsen", "Patel", "Petrov", "Rossi",
    "Santos", "Schmidt", "Silva", "Singh", "Tanaka", "Torres", "Vargas", "Wagner", "Walsh",
    "Weber", "Wong", "Yilmaz", "Young", "Zhang",
)
DOMAINS = ("acmesoft.com", "acmesoft.com", "acmesoft.com", "partners.acmesoft.com")

PROJECTS = (
    ("WEB", "Web Platform", "The customer-facing web application."),
    ("MOB", "Mobile App", "The iOS and Android apps."),
    ("API", "Public API", "REST API and SDKs for integrators."),
    ("DATA", "Data Pipeline", "Ingestion, warehouse and nightly jobs."),
    ("OPS", "Site Reliability", "Monitoring, on-call and infrastructure."),
    ("PAY", "Payments", "Checkout, invoices and payment providers."),
    ("SRCH", "Search", "Search indexing and ranking."),
    ("ACC", "Accounts", "Sign-up, login and account settings."),
    ("DOCS", "Documentation", "Developer guides and the help center."),
    ("GROW", "Growth", "Onboarding, experiments and the marketing site."),
    ("DESK", "Desktop Client", "The Windows and macOS desktop app."),
    ("INT", "Integrations", "Connectors to third-party tools."),
)

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


def generate(seed: int = 0, n_users: int = 250) -> dict:
    """The native data of an issue tracker database, deterministic from ``seed``."""
    rng = random.Random(seed)
    data: dict[str, list[dict]] = {t: [] for t in (
        "users", "projects", "project_members", "sprints", "labels", "issues",
        "issue_labels", "comments", "issue_links", "issue_events")}
    used: set[str] = set()

    def new_id(prefix: str, bits: int = 24) -> str:
        while True:
            value = f"{prefix}{rng.getrandbits(bits):0{bits // 4}x}"
            if value not in used:
                used.add(value)
                return value

    users = data["users"]
    usernames: set[str] = set()
    for first, last in rng.sample([(f, la) for f in FIRST_NAMES for la in LAST_NAMES], n_users):
        base = f"{first[0]}{last}".lower()
        username, k = base, 2
        while username in usernames:
            username, k = f"{base}{k}", k + 1
        usernames.add(username)
        users.append({"user_id": new_id("u_"), "username": username,
                      "email": f"{first}.{last}@{rng.choice(DOMAINS)}".lower(),
                      "full_name": f"{first} {last}",
                      "created_at": stamp_of(rng.randint(-900, -500), rng)})

    # Memberships: every user is in one to three projects.
    members: dict[str, list[dict]] = {key: [] for key, _, _ in PROJECTS}
    for user in users:
        for key in rng.sample([p[0] for p in PROJECTS], rng.choice((1, 1, 2, 2, 3))):
            members[key].append(user)

    comment_id = event_id = 0
    for key, name, description in PROJECTS:
        team = members[key]
        lead = team[0]
        project_id = new_id("prj_", 16)
        created = rng.randint(-480, -420)
        data["projects"].append({"project_id": project_id, "key": key, "name": name,
                                 "description": description, "lead_id": lead["user_id"],
                                 "created_at": stamp_of(created, rng)})
        for user in team:
            data["project_members"].append({
                "project_id": project_id, "user_id": user["user_id"],
                "role": "lead" if user is lead else "member",
                "joined_at": stamp_of(rng.randint(created, -30), rng)})
        labels = sorted(rng.sample(LABELS, rng.randint(4, 7)))
        for label in labels:
            data["labels"].append({"project_id": project_id, "name": label,
                                   "color": rng.choice(COLORS)})
        # Sprints: closed, closed, active (today inside), planned.
        first_number = rng.randint(8, 40)
        active_start = -rng.randint(0, 13)
        sprints = []
        for k, state in enumerate(("closed", "closed", "active", "planned")):
            start = active_start + 14 * (k - 2)
            sprint = {"sprint_id": new_id("spr_"), "project_id": project_id,
                      "name": f"Sprint {first_number + k}", "start_date": date_of(start),
                      "end_date": date_of(start + 13), "state": state}
            sprints.append(sprint)
            data["sprints"].append(sprint)
        closed, active, planned = sprints[:2], sprints[2], sprints[3]

        titles = rng.sample([(c, p, t) for c in COMPONENTS for p, t in PROBLEMS],
                            rng.randint(60, 110))
        issues = []
        for number, (component, problem, kind) in enumerate(titles, start=1):
            status = rng.choices(STATUSES, weights=(30, 20, 15, 25, 10))[0]
            assigned = rng.random() < {"open": 0.4, "wont_fix": 0.5}.get(status, 0.9)
            assignee = rng.choice(team)["user_id"] if assigned else None
            reporter = rng.choice(team)["user_id"]
            roll = rng.random()
            if status in ("in_progress", "in_review"):
                sprint = active if roll < 0.8 else None
            elif status == "done":
                sprint = rng.choice(closed) if roll < 0.5 else (active if roll < 0.7 else None)
            elif status == "open":
                sprint = planned if roll < 0.25 else (active if roll < 0.4 else None)
            else:
                sprint = None
            day = rng.randint(-400, -70)  # room for three status changes
            created_at = stamp_of(day, rng)
            issue_id = f"{key}-{number}"
            events = [(None, "created", None, "open", created_at)]
            stamp = created_at
            history = _HISTORY[status]
            for old, new in zip(history, history[1:]):
                day = rng.randint(day + 1, day + 20)
                stamp = stamp_of(day, rng)
                events.append((old, "status", old, new, stamp))
            due = None
            if status not in CLOSED and rng.random() < 0.25:
                due = date_of(rng.randint(-10, 60))
            issue = {"issue_id": issue_id, "project_id": project_id, "number": number,
                     "title": f"{component} {problem}",
                     "description": f"{component} {problem}. Reported by the "
                                    f"{rng.choice(('support', 'QA', 'design', 'sales'))} team.",
                     "type": kind, "status": status,
                     "priority": rng.choices(PRIORITIES, weights=(25, 40, 25, 10))[0],
                     "reporter_id": reporter, "assignee_id": assignee,
                     "sprint_id": sprint["sprint_id"] if sprint else None, "due_date": due,
                     "created_at": created_at, "updated_at": stamp,
                     "resolved_at": stamp if status in CLOSED else None}
            issues.append(issue)
            data["issues"].append(issue)
            for _, field, old, new, when in events:
                event_id += 1
                actor = reporter if field == "created" else (assignee or reporter)
                data["issue_events"].append({
                    "event_id": event_id, "issue_id": issue_id, "actor_id": actor,
                    "field": field, "old_value": old, "new_value": new, "created_at": when})
            for label in sorted(rng.sample(labels, rng.choice((0, 1, 1, 2)))):
                data["issue_labels"].append({"issue_id": issue_id, "project_id": project_id,
                                             "label": label})
            for _ in range(rng.choice((0, 0, 1, 1, 2, 3))):
                comment_id += 1
                data["comments"].append({
                    "comment_id": comment_id, "issue_id": issue_id,
                    "author_id": rng.choice(team)["user_id"], "body": rng.choice(COMMENTS),
                    "created_at": stamp_of(rng.randint(day_of(
                        dt.date.fromisoformat(created_at[:10])), -1), rng)})

        linked: set[tuple] = set()
        for _ in range(len(issues) // 5):
            a, b = sorted(rng.sample(issues, 2), key=lambda i: i["number"])
            kind = rng.choices(("blocks", "relates_to", "duplicates"), weights=(6, 3, 1))[0]
            if kind == "blocks" and b["status"] == "done" and a["status"] not in CLOSED:
                continue  # the policy: never done while blocked by an unresolved issue
            if (a["issue_id"], b["issue_id"]) in linked:
                continue
            linked.add((a["issue_id"], b["issue_id"]))
            data["issue_links"].append({
                "source_id": a["issue_id"], "target_id": b["issue_id"], "kind": kind,
                "created_by": rng.choice(team)["user_id"],
                "created_at": max(a["created_at"], b["created_at"])})
    return data
