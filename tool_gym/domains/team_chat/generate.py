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

__all__ = ["generate", "NOW", "N_USERS"]

NOW = "2025-06-02 09:00"
N_USERS = 260
COMPANY = "orbitly.com"

FIRST_NAMES = [
    "Aaron", "Abigail", "Ahmed", "Alex", "Alina", "Andre", "Astrid", "Basil", "Bella", "Boris",
    "Cara", "Cedric", "Chloe", "Cosmo", "Dana", "Dev", "Dina", "Edgar", "Elif", "Enzo", "Eva",
    "Fiona", "Gus", "Hiro", "Holly", "Ivan", "Jade", "Jonah", "June", "Kira", "Lars", "Leah",
    "Levi", "Lola", "Mara", "Max", "Nadine", "Nico", "Noor", "Otto", "Petra", "Quinn", "Raj",
    "Remy", "Sana", "Seb", "Tess", "Ugo", "Vik", "Wanda", "Yuki", "Zeno",
]
LAST_NAMES = [
    "Adler", "Amari", "Bartos", "Bose", "Carvalho", "Dahl", "Ekstrom", "Falk", "Gomez", "Hart",
    "Horvat", "Ilic", "Juarez", "Kovac", "Lind", "Marsh", "Molina", "Nair", "Ng", "Obi",
    "Pereira", "Quint", "Ramos", "Reid", "Sauer", "Sorensen", "Tan", "Ueda", "Valdez", "Voss",
    "Wolff", "Xu", "Yamada", "Zamora", "Zubiri",
]
TITLES = ["Software Engineer", "Product Manager", "Designer", "Data Scientist", "Support Lead",
          "Account Manager", "Recruiter", "Marketing Lead", "SRE", "Engineering Manager",
          "QA Engineer", "Finance Analyst"]
WORKSPACES = ["Orbitly HQ", "Orbitly Partners", "Design Guild"]
CHANNELS = {  # workspace -> [(name, private, archived, topic)]
    "Orbitly HQ": [
        ("general", 0, 0, "Company-wide news and chatter"),
        ("random", 0, 0, "Anything goes"),
        ("announcements", 0, 0, "Official announcements"),
        ("engineering", 0, 0, "Engineering discussions"),
        ("design", 0, 0, "Design work in progress"),
        ("product", 0, 0, "Roadmap and product questions"),
        ("sales", 0, 0, "Deals and pipeline"),
        ("marketing", 0, 0, "Campaigns and content"),
        ("support", 0, 0, "Customer support escalations"),
        ("incidents", 0, 0, "Production incidents, live"),
        ("dev-backend", 0, 0, "Backend services"),
        ("dev-frontend", 0, 0, "Web and mobile front ends"),
        ("data-science", 0, 0, "Models, metrics and dashboards"),
        ("office-berlin", 0, 0, "Berlin office life"),
        ("office-lisbon", 0, 0, "Lisbon office life"),
        ("book-club", 0, 0, "This month: a novel a month"),
        ("running-club", 0, 0, "Weekly runs and races"),
        ("pets", 0, 0, "Pictures of pets, mandatory"),
        ("release-train", 0, 0, "Release coordination"),
        ("customer-feedback", 0, 0, "What customers tell us"),
        ("onboarding", 0, 0, "Help for new joiners"),
        ("social-events", 0, 0, "Parties and outings"),
        ("project-falcon", 0, 1, "Falcon (finished)"),
        ("old-website", 0, 1, "The 2023 website relaunch"),
        ("hiring", 1, 0, "Hiring pipeline (confidential)"),
        ("leadership", 1, 0, "Leadership team"),
        ("finance", 1, 0, "Budgets and forecasts"),
        ("security", 1, 0, "Security reviews"),
        ("q3-planning", 1, 0, "Q3 planning drafts"),
        ("offsite-2025", 1, 0, "Offsite organization"),
        ("legal-review", 1, 1, "Closed legal reviews"),
    ],
    "Orbitly Partners": [
        ("general", 0, 0, "Partners and Orbitly together"),
        ("globex-integration", 0, 0, "Globex API integration"),
        ("shared-support", 0, 0, "Joint support cases"),
        ("acme-collab", 1, 0, "Acme joint project"),
        ("beta-program", 1, 0, "Private beta partners"),
    ],
    "Design Guild": [
        ("general", 0, 0, "Guild news"),
        ("critiques", 0, 0, "Post your work for feedback"),
        ("inspiration", 0, 0, "Beautiful things"),
        ("tools", 0, 0, "Figma tips and plugins"),
        ("jobs", 0, 0, "Open design roles"),
        ("mentors", 1, 0, "Mentoring circle"),
    ],
}
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


def generate(seed: int) -> dict:
    """The native data of a seeded team chat database (deterministic in ``seed``)."""
    rng = random.Random(seed)
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
    uids = list(users)

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
    workspace_members = {f"{w}/{u}": {"workspace_id": w, "user_id": u, "role": r}
                         for w, roles in members.items() for u, r in sorted(roles.items())}

    channels, channel_members, messages, reactions, pins, invites = {}, {}, {}, {}, {}, {}
    for wid, workspace in workspaces.items():
        pool = sorted(members[wid])
        for name, private, archived, topic in CHANNELS[workspace["name"]]:
            cid = f"ch_{len(channels) + 1:04d}"
            creator = rng.choice(pool)
            created = _stamp(rng, dt.date(2024, 1, 8), 300)
            channels[cid] = {"channel_id": cid, "workspace_id": wid, "name": name, "topic": topic,
                             "is_private": private, "is_archived": archived,
                             "created_by": creator, "created_at": created}
            if name == "general":
                people = pool
            elif private:
                people = rng.sample(pool, min(len(pool), rng.randint(6, 24)))
            else:
                people = rng.sample(pool, min(len(pool), rng.randint(12, 70)))
            people = sorted(set(people) | {creator})
            admins = {creator} | set(rng.sample(people, max(1, len(people) // 5)))
            for u in people:
                channel_members[f"{cid}/{u}"] = {
                    "channel_id": cid, "user_id": u,
                    "role": "admin" if u in admins else "member", "joined_at": created}
            top = []
            for _ in range(rng.randint(30, 130) if name == "general" else rng.randint(15, 90)):
                mid = f"msg_{len(messages) + 1:06d}"
                text = rng.choice(TEMPLATES).format(t=rng.choice(TOPICS))
                author = rng.choice(people)
                messages[mid] = {"message_id": mid, "channel_id": cid, "user_id": author,
                                 "text": text, "ts": _stamp(rng), "thread_parent_id": None,
                                 "edited": int(rng.random() < 0.05)}
                top.append(mid)
                if rng.random() < 0.25:
                    base = messages[mid]["ts"]
                    for k in range(rng.randint(1, 4)):
                        rid = f"msg_{len(messages) + 1:06d}"
                        ts = f"{base[:11]}{min(23, int(base[11:13]) + 1 + k):02d}{base[13:]}"
                        messages[rid] = {"message_id": rid, "channel_id": cid,
                                         "user_id": rng.choice(people), "text": rng.choice(REPLIES),
                                         "ts": ts, "thread_parent_id": mid, "edited": 0}
            for mid in top:
                if rng.random() < 0.35:
                    for u in rng.sample(people, min(len(people), rng.randint(1, 5))):
                        emoji = rng.choice(EMOJIS)
                        reactions[f"{mid}/{u}/{emoji}"] = {"message_id": mid, "user_id": u,
                                                           "emoji": emoji}
            for mid in rng.sample(top, min(len(top), rng.randint(0, 3))):
                pins[mid] = {"message_id": mid, "channel_id": cid,
                             "pinned_by": rng.choice(sorted(admins)),
                             "pinned_at": messages[mid]["ts"]}
            if private and not archived:
                outside = [u for u in pool if u not in people]
                for u in rng.sample(outside, min(len(outside), rng.randint(1, 4))):
                    iid = f"inv_{len(invites) + 1:04d}"
                    invites[iid] = {"invite_id": iid, "channel_id": cid,
                                    "inviter_id": rng.choice(people), "invitee_id": u,
                                    "status": rng.choice(["pending", "pending", "declined"]),
                                    "created_at": _stamp(rng)}
    return {"users": users, "workspaces": workspaces, "workspace_members": workspace_members,
            "channels": channels, "channel_members": channel_members, "messages": messages,
            "reactions": reactions, "pins": pins, "invites": invites}
