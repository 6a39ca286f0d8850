"""Synthetic mailboxes of one company, in the domain's native shape (see ``io.py``).

``generate(seed)`` is a pure function of the seed (a ``random.Random(seed)`` made inside
the call). About 220 mailboxes, each with the six system folders and a few custom ones
(some nested), labels (a quarter of the users have a "Legal hold" label on some
messages), 10-30 contacts, some 4,000 messages from colleagues, partners, newsletters and
a few blocked (phishing) senders, in the inbox, archive, custom folders, spam and trash,
sent replies in the same threads, drafts, attachment metadata and filters. ``NOW`` is
Monday 2025-06-02 09:00; every message is older.
"""

from __future__ import annotations

import datetime as dt
import random
from pathlib import Path

from ...core.tables import read_json

_VOCABULARY = read_json(Path(__file__).with_name("vocabulary.json"))

__all__ = ["generate", "NOW", "N_USERS", "BLOCKED", "LEGAL_HOLD"]

NOW = "2025-06-02 09:00"
N_USERS = 220
COMPANY = "brightwave.io"
LEGAL_HOLD = "Legal hold"

FIRST_NAMES = _VOCABULARY["first_names"]
LAST_NAMES = _VOCABULARY["last_names"]
PARTNER_DOMAINS = ["acme-supplies.com", "globex.com", "initech.com", "umbrella-health.org",
                   "vandelay.com", "hooli.com", "soylent.co", "tyrell-corp.com",
                   "wonka-foods.com", "stark-labs.io"]
SERVICES = [  # address, sender name, subjects
    ("digest@techweekly.news", "Tech Weekly", ["Your weekly tech digest", "Top stories this week"]),
    ("no-reply@travelbooker.com", "TravelBooker", ["Trip confirmation: Lisbon",
                                                   "Trip confirmation: Berlin",
                                                   "Your boarding pass"]),
    ("receipts@cloudstore.com", "CloudStore", ["Your receipt from CloudStore",
                                               "Your CloudStore order has shipped"]),
    ("events@meetupnow.org", "MeetupNow", ["New events near you", "Reminder: Design Meetup"]),
    ("billing@saasly.com", "Saasly Billing", ["Your Saasly invoice", "Payment received"]),
]
#: The organization's block list: address, sender name, reason, subjects.
BLOCKED = [
    ("it-helpdesk@brightwave-support.net", "IT Helpdesk", "phishing",
     ["Password expiry notice", "Mailbox quota exceeded"]),
    ("payroll@brightwave-hr.com", "Payroll Team", "phishing", ["Update your payroll details"]),
    ("billing@paypa1-secure.com", "Billing Department", "phishing", ["Invoice overdue"]),
    ("ceo.office@brightwave.co", "Office of the CEO", "impersonation",
     ["Urgent request", "Quick favor"]),
    ("deals@cheap-meds.biz", "Pharma Deals", "spam", ["Exclusive offer inside"]),
    ("prize@lucky-winner.info", "Prize Center", "scam", ["You have won a gift card"]),
    ("docs@docsign-review.com", "Document Review", "phishing", ["Document shared with you"]),
    ("alerts@micros0ft-security.com", "Security Alerts", "phishing",
     ["Unusual sign-in activity"]),
]
PROJECTS = ["Apollo", "Beacon", "Cobalt", "Dune", "Ember", "Falcon", "Glacier", "Helix",
            "Jade", "Kite", "Lumen", "Nova"]
TOPICS = ["budget review", "offsite agenda", "hiring plan", "contract renewal",
          "launch checklist", "design feedback", "quarterly report", "travel plans",
          "vendor quote", "security training", "expense report", "customer feedback",
          "sprint goals", "press release", "board deck", "onboarding schedule",
          "pricing proposal", "invoice", "meeting notes", "roadmap"]
BODIES = [
    "Hi,\n\nPlease find the latest version attached. Let me know what you think.\n\nBest,\n{s}",
    "Hello,\n\nQuick update on {t}: we are on track for the deadline.\n\nThanks,\n{s}",
    "Hi there,\n\nCan we discuss {t} this week? I have a few open questions.\n\n{s}",
    "Hi,\n\nFollowing up on {t}. Any news on your side?\n\nRegards,\n{s}",
    "Team,\n\nSharing my notes on {t} before our next sync.\n\nCheers,\n{s}",
]
CUSTOM_FOLDERS = ["Receipts", "Travel", "Projects", "Clients", "Newsletters", "Family",
                  "Hiring", "Finance", "Events", "Archive 2024"]
LABELS = ["Important", "Follow up", "Finance", "Personal", "Clients", "Waiting"]
COLORS = ["red", "orange", "yellow", "green", "blue", "purple", "gray"]
EXTENSIONS = [("pdf", "application/pdf"), ("xlsx", "application/vnd.ms-excel"),
              ("docx", "application/msword"), ("pptx", "application/vnd.ms-powerpoint"),
              ("png", "image/png")]
SYSTEM = [("Inbox", "inbox"), ("Sent", "sent"), ("Drafts", "drafts"), ("Trash", "trash"),
          ("Archive", "archive"), ("Spam", "spam")]


def _stamp(rng: random.Random) -> str:
    day = dt.date(2025, 3, 3) + dt.timedelta(days=rng.randrange(0, 90))
    return f"{day.isoformat()} {rng.randrange(7, 20):02d}:{rng.randrange(0, 60):02d}"


def _new_id(table: dict, prefix: str, width: int) -> str:
    return f"{prefix}{len(table) + 1:0{width}d}"


def _people(rng: random.Random) -> tuple[dict, list[tuple[str, str]], dict]:
    """The users, the outside partners ``(name, address)`` and the blocked addresses."""
    people = [f"{f} {l}" for f in FIRST_NAMES for l in LAST_NAMES]
    rng.shuffle(people)
    users = {}
    for i, name in enumerate(people[:N_USERS], start=1):
        first, last = name.lower().split(" ")
        uid = f"usr_{i:04d}"
        users[uid] = {"user_id": uid, "name": name, "email": f"{first}.{last}@{COMPANY}",
                      "signature": f"{name}\nBrightwave"}
    partners = []
    for name in people[N_USERS:N_USERS + 90]:
        first, last = name.lower().split(" ")
        partners.append((name, f"{first}.{last}@{rng.choice(PARTNER_DOMAINS)}"))
    blocked = {a: {"address": a, "reason": r,
                   "added_on": f"2025-0{rng.randint(1, 4)}-1{rng.randint(0, 9)}"}
               for a, _, r, _ in BLOCKED}
    return users, partners, blocked


class _Mailbox:
    """One user's folders, labels, contacts, messages and filters, drawn in a fixed order."""

    def __init__(self, rng: random.Random, tables: dict[str, dict], uid: str,
                 partners: list[tuple[str, str]]) -> None:
        self.rng, self.tables, self.uid, self.partners = rng, tables, uid, partners
        self.me = tables["users"][uid]
        self.box: dict[str, str] = {}
        self.custom: list[str] = []
        self.box_messages: list[dict] = []

    def draw(self) -> None:
        for step in (self.folders, self.labels, self.contacts, self.messages,
                     self.label_messages, self.filters):
            step()

    def folder(self, name: str, kind: str, parent: str | None = None) -> str:
        folders = self.tables["folders"]
        fid = _new_id(folders, "fld_", 5)
        folders[fid] = {"folder_id": fid, "user_id": self.uid, "name": name, "kind": kind,
                        "parent_id": parent}
        return fid

    def folders(self) -> None:
        rng = self.rng
        for name, kind in SYSTEM:
            self.box[kind] = self.folder(name, kind)
        for name in rng.sample(CUSTOM_FOLDERS, rng.randint(1, 4)):
            fid = self.folder(name, "custom")
            self.custom.append(fid)
            if name == "Projects":
                for project in rng.sample(PROJECTS, 2):
                    self.custom.append(self.folder(project, "custom", fid))

    def labels(self) -> None:
        rng, labels = self.rng, self.tables["labels"]
        self.mine = []
        for name in rng.sample(LABELS, rng.randint(1, 4)) + (
                [LEGAL_HOLD] if rng.random() < 0.25 else []):
            lid = _new_id(labels, "lbl_", 4)
            labels[lid] = {"label_id": lid, "user_id": self.uid, "name": name,
                           "color": "red" if name == LEGAL_HOLD else rng.choice(COLORS)}
            self.mine.append(lid)
        self.hold = next((l for l in self.mine if labels[l]["name"] == LEGAL_HOLD), None)

    def contacts(self) -> None:
        rng, users, contacts = self.rng, self.tables["users"], self.tables["contacts"]
        self.colleagues = [(users[u]["name"], users[u]["email"])
                           for u in rng.sample(list(users), 12) if u != self.uid]
        self.outside = rng.sample(self.partners, 8)
        self.known = (rng.sample(self.colleagues, rng.randint(3, 8))
                      + rng.sample(self.outside, rng.randint(2, 5)))
        for name, address in sorted(self.known, key=lambda p: p[1]):
            cid = _new_id(contacts, "con_", 5)
            contacts[cid] = {"contact_id": cid, "user_id": self.uid, "name": name,
                             "email": address}

    def attachments(self, status: str, sender: tuple[str, str], subject: str) -> list[dict]:
        rng = self.rng
        attachments: list[dict] = []
        if status != "draft" and rng.random() < 0.25 and not sender[1].endswith(".biz"):
            for _ in range(rng.choice([1, 1, 1, 2])):
                ext, mime = rng.choice(EXTENSIONS)
                stem = subject.replace(":", "").replace(" ", "_")
                name = f"{stem}_v{rng.randint(1, 4)}.{ext}" if not attachments else \
                    f"{stem}_appendix.{ext}"
                attachments.append({"attachment_id": f"att_{0:05d}", "filename": name,
                                    "mime_type": mime,
                                    "size_bytes": rng.randint(12_000, 4_800_000)})
        return attachments

    def add(self, folder: str, status: str, sender: tuple[str, str], subject: str,
            to: list[str], thread: str | None = None, reply_to: str | None = None,
            at: str | None = None, read: bool | None = None) -> str:
        rng, threads, messages = self.rng, self.tables["threads"], self.tables["messages"]
        if thread is None:
            thread = _new_id(threads, "thr_", 5)
            threads[thread] = {"thread_id": thread, "user_id": self.uid, "subject": subject}
        mid = _new_id(messages, "msg_", 6)
        topic = subject.split(" ", 1)[-1].lower()
        body = rng.choice(BODIES).format(t=topic, s=sender[0].split(" ")[0])
        attachments = self.attachments(status, sender, subject)
        recipients = [{"kind": "to", "address": a} for a in to]
        if status == "received" and rng.random() < 0.2:
            cc = rng.choice(self.colleagues)[1]
            if cc not in to:
                recipients.append({"kind": "cc", "address": cc})
        messages[mid] = {
            "message_id": mid, "user_id": self.uid, "thread_id": thread, "folder_id": folder,
            "status": status, "sender": sender[1], "sender_name": sender[0],
            "subject": subject, "body": body, "sent_at": at or _stamp(rng),
            "is_read": int(rng.random() < 0.6) if read is None else int(read),
            "is_starred": int(rng.random() < 0.08), "in_reply_to": reply_to,
            "recipients": sorted(recipients, key=lambda r: (r["kind"], r["address"])),
            "labels": [], "attachments": attachments,
        }
        self.box_messages.append(messages[mid])
        return mid

    def messages(self) -> None:
        rng, box, me = self.rng, self.box, self.me
        received = []
        for _ in range(rng.randint(10, 20)):
            roll = rng.random()
            if roll < 0.75:
                sender = rng.choice(self.colleagues) if roll < 0.45 else rng.choice(self.outside)
                subject = f"{rng.choice(PROJECTS)} {rng.choice(TOPICS)}"
            else:
                address, name, subjects = rng.choice(SERVICES)
                sender, subject = (name, address), rng.choice(subjects)
            where = rng.choices(["inbox", "archive", "custom", "trash"], [60, 15, 18, 7])[0]
            folder = rng.choice(self.custom) if where == "custom" else box[where]
            received.append(self.add(folder, "received", sender, subject, [me["email"]]))
        for _ in range(rng.choice([0, 0, 1, 1, 2])):
            address, name, _, subjects = rng.choice(BLOCKED)
            folder = box[rng.choice(["inbox", "inbox", "spam"])]
            received.append(self.add(folder, "received", (name, address),
                                     rng.choice(subjects), [me["email"]], read=False))
        self.replies(received)
        for _ in range(rng.randint(1, 3)):
            name, address = rng.choice(self.known)
            self.add(box["sent"], "sent", (me["name"], me["email"]),
                     f"{rng.choice(PROJECTS)} {rng.choice(TOPICS)}", [address], read=True)
        for _ in range(rng.choice([0, 1, 1, 2])):
            name, address = rng.choice(self.known)
            self.add(box["drafts"], "draft", (me["name"], me["email"]),
                     f"{rng.choice(PROJECTS)} {rng.choice(TOPICS)}", [address], read=True)

    def replies(self, received: list[str]) -> None:
        """Replies in the same thread to three received messages (not to robots)."""
        messages, me = self.tables["messages"], self.me
        for mid in self.rng.sample(received, 3):
            original = messages[mid]
            if original["sender"] in self.tables["blocked_addresses"] or original[
                    "sender"].startswith(
                    ("digest@", "no-reply@", "receipts@", "events@", "billing@saasly")):
                continue
            at = original["sent_at"][:11] + "21:30"
            self.add(self.box["sent"], "sent", (me["name"], me["email"]),
                     "Re: " + original["subject"], [original["sender"]],
                     thread=original["thread_id"], reply_to=mid, at=at, read=True)

    def label_messages(self) -> None:
        rng = self.rng
        self.plain = [l for l in self.mine if l != self.hold]
        for m in self.box_messages:
            if self.plain and rng.random() < 0.25:
                m["labels"].append(rng.choice(self.plain))
        if self.hold:
            for m in rng.sample([m for m in self.box_messages if m["status"] != "draft"], 2):
                m["labels"].append(self.hold)
        for m in self.box_messages:
            m["labels"] = sorted(set(m["labels"]))

    def filters(self) -> None:
        rng, filters = self.rng, self.tables["filters"]
        if rng.random() < 0.3:
            address, _, _ = rng.choice(SERVICES)
            fid = _new_id(filters, "flt_", 4)
            target = rng.choice(self.custom)
            filters[fid] = {"filter_id": fid, "user_id": self.uid, "from_address": address,
                            "subject_contains": None, "action": "move", "folder_id": target,
                            "label_id": None}
        if self.plain and rng.random() < 0.15:
            fid = _new_id(filters, "flt_", 4)
            filters[fid] = {"filter_id": fid, "user_id": self.uid, "from_address": None,
                            "subject_contains": rng.choice(PROJECTS), "action": "label",
                            "folder_id": None, "label_id": rng.choice(self.plain)}


def _number_attachments(messages: dict) -> None:
    number = 0
    for m in messages.values():
        for a in m["attachments"]:
            number += 1
            a["attachment_id"] = f"att_{number:05d}"


def generate(seed: int) -> dict:
    """The native data of a seeded email database (deterministic in ``seed``)."""
    rng = random.Random(seed)
    users, partners, blocked = _people(rng)
    tables: dict[str, dict] = {"users": users, "folders": {}, "labels": {}, "threads": {},
                               "messages": {}, "contacts": {}, "filters": {},
                               "blocked_addresses": blocked}
    for uid in list(users):
        _Mailbox(rng, tables, uid, partners).draw()
    _number_attachments(tables["messages"])
    return tables
