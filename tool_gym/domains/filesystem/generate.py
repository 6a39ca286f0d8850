"""Seeded synthetic data of the filesystem domain.

``generate(seed)`` returns the native data (what :func:`~.io.load` writes and
:func:`~.io.export` gives back): ``{"users", "nodes", "versions", "shares"}``, each a
list of row dicts with every column, in insertion order. About 300 users in six
organizations, each with a tree of folders and text or binary files (a few thousand
nodes), file versions, a few trashed files and shares between users. Deterministic from
the seed only.

Generated data follows the policy too: edit shares never cross organizations, and only
files (never folders) are in the trash.
"""

from __future__ import annotations

import datetime as dt
import random
import unicodedata

from ...core.fake_data import draw_unique, numbered

#: The clock of the domain: every write is stamped with it.
NOW = "2025-06-02T09:00:00"

ORGANIZATIONS = (
    ("Northwind Traders", "northwind.com"),
    ("Contoso", "contoso.com"),
    ("Fabrikam", "fabrikam.io"),
    ("Tailspin Toys", "tailspintoys.com"),
    ("Wingtip Labs", "wingtiplabs.dev"),
    ("Adatum", "adatum.org"),
)

FIRST_NAMES = (
    "Ada", "Alice", "Amir", "Ana", "Ben", "Bruno", "Carla", "Chen", "Chloé", "Dana", "David",
    "Diego", "Elena", "Farah", "Felix", "Grace", "Hana", "Hugo", "Inès", "Ivan", "Jack",
    "Jana", "Jonas", "Kai", "Kenji", "Lara", "Leo", "Lina", "Luca", "Maya", "Mateo", "Mei",
    "Nadia", "Noah", "Nora", "Olga", "Omar", "Paul", "Priya", "Quinn", "Rafael", "Rosa",
    "Sam", "Sara", "Sofia", "Tariq", "Theo", "Uma", "Victor", "Wei", "Yara", "Yusuf", "Zoe",
)
LAST_NAMES = (
    "Adams", "Baker", "Becker", "Costa", "Diaz", "Dubois", "Evans", "Fischer", "Garcia",
    "Gupta", "Hansen", "Haddad", "Ito", "Jensen", "Kim", "Kowalski", "Larsen", "Lopez",
    "Martin", "Moreau", "Müller", "Nakamura", "Novak", "Okafor", "Olsen", "Patel", "Petrov",
    "Rossi", "Santos", "Schmidt", "Silva", "Singh", "Tanaka", "Torres", "Vargas", "Wagner",
    "Walsh", "Weber", "Wong", "Yilmaz", "Young", "Zhang",
)

#: Top-level folders and the subfolders they may hold.
FOLDERS = {
    "Documents": ("Letters", "Contracts", "Manuals"),
    "Photos": ("2023", "2024", "Vacation", "Family"),
    "Projects": ("Website Redesign", "Apollo", "Garden Plan", "Mobile App"),
    "Finance": ("Taxes", "Receipts", "Invoices", "2024"),
    "Work": ("Meetings", "Reports", "Clients", "Presentations"),
    "Music": ("Playlists", "Recordings"),
    "Travel": ("Japan 2024", "Lisbon", "Road Trip"),
    "Recipes": ("Desserts", "Weeknight"),
    "Archive": ("2022", "Old Projects"),
    "School": ("Courses", "Thesis"),
    "Health": ("Insurance", "Fitness"),
    "Home": ("Renovation", "Appliances"),
}

#: File names by top-level folder ({n}: a number, {year}, {month}).
FILES = {
    "Documents": ("cover-letter.docx", "lease-agreement.pdf", "passport-scan.pdf", "notes.txt",
                  "reading-list.md", "warranty.pdf", "résumé.pdf", "to-do.txt"),
    "Photos": ("IMG_{n}.jpg", "beach.jpg", "portrait.png", "sunset.jpg", "birthday-party.mp4",
               "album-notes.txt"),
    "Projects": ("project-plan.md", "requirements.txt", "budget.xlsx", "timeline.csv",
                 "design-mockup.png", "main.py", "README.md", "meeting-notes.md"),
    "Finance": ("budget-{year}.xlsx", "tax-return-{year}.pdf", "expenses.csv",
                "bank-statement-{month}.pdf", "invoice-{n}.pdf", "savings-plan.md"),
    "Work": ("quarterly-report.docx", "slides.pptx", "meeting-notes.md", "agenda.txt",
             "client-list.csv", "status-update.md"),
    "Music": ("playlist.m3u", "demo-track.mp3", "lyrics.txt", "setlist.md"),
    "Travel": ("itinerary.md", "boarding-pass.pdf", "packing-list.txt", "hotel-booking.pdf",
               "map.png"),
    "Recipes": ("lasagna.md", "banana-bread.txt", "shopping-list.txt", "café-menu.txt",
                "pancakes.md"),
    "Archive": ("old-notes.txt", "backup-2021.tar", "letters.pdf", "draft.docx"),
    "School": ("essay.docx", "lecture-notes.md", "syllabus.pdf", "grades.csv",
               "bibliography.txt"),
    "Health": ("vaccination-record.pdf", "workout-log.csv", "insurance-card.png",
               "meal-plan.md"),
    "Home": ("floor-plan.pdf", "paint-colors.txt", "contractor-quote.pdf", "inventory.csv",
             "manual.pdf"),
    "": ("todo.txt", "scratch.md", "ideas.txt", "screenshot.png", "photo.jpg"),
}

#: Extension -> (mime type, is text).
MIME = {
    "txt": ("text/plain", True), "md": ("text/markdown", True), "csv": ("text/csv", True),
    "json": ("application/json", True), "py": ("text/x-python", True),
    "m3u": ("audio/x-mpegurl", True), "html": ("text/html", True),
    "pdf": ("application/pdf", False), "docx": ("application/msword", False),
    "xlsx": ("application/vnd.ms-excel", False), "pptx": ("application/vnd.ms-powerpoint", False),
    "jpg": ("image/jpeg", False), "png": ("image/png", False), "mp4": ("video/mp4", False),
    "mp3": ("audio/mpeg", False), "tar": ("application/x-tar", False),
}

MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august",
          "september", "october", "november", "december")
QUOTAS = (2 * 1024**3, 5 * 1024**3, 15 * 1024**3)

_WORDS = ("plan", "review", "budget", "draft", "call", "garden", "order", "paint", "update",
          "team", "trip", "book", "fix", "meeting", "deadline", "invoice", "photos", "chapter",
          "kitchen", "design", "launch", "notes", "ideas", "groceries", "schedule", "tickets")


def mime_of(name: str) -> tuple[str, bool]:
    """(mime type, is text) of a file name, by its extension (text/plain by default)."""
    ext = name.rsplit(".", 1)[-1].lower() if "." in name else ""
    return MIME.get(ext, ("text/plain", True))


def ascii_fold(text: str) -> str:
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")


def _stamp(rng: random.Random, lo_day: int, hi_day: int) -> tuple[int, str]:
    """A day number (days since 2022-01-01) in [lo_day, hi_day] and its timestamp."""
    day = rng.randint(lo_day, hi_day)
    return day, _day_stamp(day, rng)


_EPOCH = dt.date(2022, 1, 1)


def _date(day: int) -> str:
    """The ISO date ``day`` days after 2022-01-01."""
    return (_EPOCH + dt.timedelta(days=day)).isoformat()


def _day_stamp(day: int, rng: random.Random) -> str:
    hour, minute, second = rng.randint(7, 22), rng.randint(0, 59), rng.randint(0, 59)
    return f"{_date(day)}T{hour:02d}:{minute:02d}:{second:02d}"


#: Day number of the day before NOW (2025-06-01): generated events happen before NOW.
LAST_DAY = (dt.date(2025, 6, 1) - _EPOCH).days


def _content(rng: random.Random, name: str) -> str:
    """Text content of a file, in the style of its extension."""
    ext = name.rsplit(".", 1)[-1].lower()
    words = lambda k: " ".join(rng.choices(_WORDS, k=k))  # noqa: E731
    if ext == "csv":
        rows = ["date,item,amount"] + [
            f"2024-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d},{rng.choice(_WORDS)},"
            f"{rng.randint(3, 900)}.{rng.randint(0, 99):02d}" for _ in range(rng.randint(2, 6))]
        body = "\n".join(rows)
    elif ext == "py":
        body = (f"# {words(4)}\n\ndef main():\n    print({words(3)!r})\n\n\n"
                f"if __name__ == '__main__':\n    main()")
    elif ext == "m3u":
        body = "#EXTM3U\n" + "\n".join(f"{words(2).title()}.mp3" for _ in range(rng.randint(2, 5)))
    elif ext == "md":
        body = f"# {words(3).title()}\n\n" + "\n".join(
            f"- {words(rng.randint(3, 7))}" for _ in range(rng.randint(2, 5)))
    else:
        body = "\n".join(words(rng.randint(4, 9)) for _ in range(rng.randint(2, 5)))
    return body + "\n"


def _revise(rng: random.Random, content: str, version: int) -> str:
    """The content of a later version: the earlier one with a line added."""
    return content + f"revision {version}: {' '.join(rng.choices(_WORDS, k=3))}\n"


def _fill(rng: random.Random, template: str) -> str:
    return template.format(n=rng.randint(1000, 9999), year=rng.choice((2022, 2023, 2024)),
                           month=rng.choice(MONTHS))


class _Drive:
    """The tables being drawn, with the ids that must stay unique."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.users: list[dict] = []
        self.nodes: list[dict] = []
        self.versions: list[dict] = []
        self.shares: list[dict] = []
        self.used_ids: set[str] = set()

    def new_id(self, prefix: str) -> str:
        rng = self.rng
        return draw_unique(lambda: f"{prefix}{rng.getrandbits(32):08x}", self.used_ids)

    def draw_users(self, n_users: int) -> None:
        rng = self.rng
        people = rng.sample([(f, last) for f in FIRST_NAMES for last in LAST_NAMES], n_users)
        usernames: set[str] = set()
        for first, last in people:
            organization, domain = rng.choice(ORGANIZATIONS)
            base = ascii_fold(f"{first}{last[0]}").lower()
            username = numbered(base, usernames)
            joined, created = _stamp(rng, 0, 400)
            self.users.append({
                "user_id": self.new_id("usr_"), "username": username,
                "email": ascii_fold(f"{first}.{last}@{domain}").lower(),
                "full_name": f"{first} {last}", "organization": organization,
                "quota_bytes": rng.choice(QUOTAS), "created_at": created, "_joined": joined,
            })

    def draw_shares(self) -> None:
        rng, users = self.rng, self.users
        by_org: dict[str, list[dict]] = {}
        for user in users:
            by_org.setdefault(user["organization"], []).append(user)
        for user in users:
            candidates = user["_files"] + user["_folders"]
            for node in rng.sample(candidates,
                                   min(len(candidates), rng.choice((0, 1, 1, 2, 3)))):
                colleagues = [u for u in by_org[user["organization"]] if u is not user]
                self.share(user, node, colleagues)

    def share(self, user: dict, node: dict, colleagues: list[dict]) -> None:
        """One to two shares of ``node``; edit shares stay inside the organization."""
        rng = self.rng
        taken: set[str] = set()
        for _ in range(rng.randint(1, 2)):
            inside = rng.random() < 0.7 and colleagues
            other = rng.choice(colleagues) if inside else rng.choice(self.users)
            if other is user or other["user_id"] in taken:
                continue
            taken.add(other["user_id"])
            same = other["organization"] == user["organization"]
            _, stamp = _stamp(rng, node["_day"], LAST_DAY)
            self.shares.append({"node_id": node["node_id"], "grantee_id": other["user_id"],
                                "permission": rng.choice(("view", "edit")) if same else "view",
                                "shared_at": stamp})

    def tables(self) -> dict:
        """The native data, without the helper keys the drawing used."""
        for user in self.users:
            del user["_files"], user["_folders"]
        for node in self.nodes:
            node.pop("_day", None)
        return {"users": self.users, "nodes": self.nodes, "versions": self.versions,
                "shares": self.shares}


class _Tree:
    """One user's folders and files, drawn in a fixed order."""

    def __init__(self, drive: _Drive, user: dict) -> None:
        self.drive, self.rng, self.user = drive, drive.rng, user
        self.owner = user["user_id"]
        self.joined = user.pop("_joined")
        self.own_files: list[dict] = []
        self.own_folders: list[dict] = []

    def draw(self) -> None:
        rng, user = self.rng, self.user
        root = {"node_id": self.drive.new_id("nd_"), "owner_id": self.owner, "parent_id": None,
                "name": "", "kind": "folder", "mime_type": None, "size": 0, "content": None,
                "version": 0, "created_at": user["created_at"],
                "modified_at": user["created_at"], "trashed_at": None}
        self.drive.nodes.append(root)
        for top in rng.sample(sorted(FOLDERS), rng.randint(2, 3)):
            parent = self.folder(root, top)
            self.files(parent, top, rng.randint(1, 3))
            for sub in rng.sample(FOLDERS[top], rng.choice((0, 1, 1))):
                self.files(self.folder(parent, sub), top, rng.randint(1, 3))
        self.files(root, "", rng.randint(0, 2))
        self.trash()
        user["_files"] = [n for n in self.own_files if n["trashed_at"] is None]
        user["_folders"] = self.own_folders

    def folder(self, parent: dict, name: str) -> dict:
        day, stamp = _stamp(self.rng, self.joined, LAST_DAY - 300)
        node = {"node_id": self.drive.new_id("nd_"), "owner_id": self.owner,
                "parent_id": parent["node_id"], "name": name, "kind": "folder",
                "mime_type": None, "size": 0, "content": None, "version": 0,
                "created_at": stamp, "modified_at": stamp, "trashed_at": None, "_day": day}
        self.drive.nodes.append(node)
        self.own_folders.append(node)
        return node

    def files(self, parent: dict, kind: str, count: int) -> None:
        rng = self.rng
        taken: set[str] = set()
        for _ in range(count):
            name = _fill(rng, rng.choice(FILES[kind]))
            if name in taken:
                continue
            taken.add(name)
            self.file(parent, name)

    def file(self, parent: dict, name: str) -> None:
        """A file with its versions; a text file's content grows a line a version."""
        rng = self.rng
        mime, is_text = mime_of(name)
        day, created = _stamp(rng, parent.get("_day", self.joined), LAST_DAY - 60)
        n_versions = rng.choice((1, 1, 1, 2, 2, 3))
        node_id = self.drive.new_id("nd_")
        content = size = None
        stamp = created
        for v in range(1, n_versions + 1):
            if v > 1:
                day, stamp = _stamp(rng, day + 1, day + 25)
            if is_text:
                content = _content(rng, name) if v == 1 else _revise(rng, content, v)
                size = len(content.encode("utf-8"))
            else:
                size = rng.randint(20_000, 6_000_000)
            self.drive.versions.append({"node_id": node_id, "version": v, "size": size,
                                        "content": content, "modified_at": stamp,
                                        "modified_by": self.owner})
        node = {"node_id": node_id, "owner_id": self.owner, "parent_id": parent["node_id"],
                "name": name, "kind": "file", "mime_type": mime, "size": size,
                "content": content, "version": n_versions, "created_at": created,
                "modified_at": stamp, "trashed_at": None, "_day": day}
        self.drive.nodes.append(node)
        self.own_files.append(node)

    def trash(self) -> None:
        """A few files are in the trash (never folders)."""
        rng, own_files = self.rng, self.own_files
        if own_files and rng.random() < 0.4:
            for node in rng.sample(own_files, min(len(own_files), rng.randint(1, 2))):
                _, node["trashed_at"] = _stamp(rng, min(node["_day"] + 1, LAST_DAY), LAST_DAY)


def generate(seed: int = 0, n_users: int = 300) -> dict:
    """The native data of a filesystem database, deterministic from ``seed``."""
    drive = _Drive(seed)
    drive.draw_users(n_users)
    for user in drive.users:
        _Tree(drive, user).draw()
    drive.draw_shares()
    return drive.tables()
