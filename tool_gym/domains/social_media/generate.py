"""Seeded synthetic data of the social media domain.

``generate(seed)`` returns the native data: ``{table: [row dict, ...]}`` with every column
of ``schema.sql``, in rowid order (what ``io.export`` gives back after ``io.load``). All
draws come from ``numpy.random.default_rng(seed)`` in a fixed order; the clock is the fixed
``TODAY`` of :mod:`.tools`.

About 240 users (a quarter of them private) who follow 12 to 50 others; pending follow
requests to private accounts; a few blocks and mutes; 3 to 7 posts per user (some deleted,
recently or long ago) with likes and comments from followers; direct-message threads; a few
reports of posts and comments.
"""

from __future__ import annotations

from datetime import date, timedelta

from tool_gym.core.draws import RngDraws

from .tools import TODAY

N_USERS = 240
_TODAY = date.fromisoformat(TODAY)

FIRST = ("Ava Liam Noah Emma Olivia Mia Lucas Ethan Sofia Amelia Harper Mason Logan Ella "
         "Chloe Jack Aiden Zoe Nora Leo Grace Owen Layla Ruby Henry Isla Caleb Hazel Ezra "
         "Piper Kai Luna Miles Aria Jonah Iris Felix Naomi Theo Stella Omar Aisha Wei Mei "
         "Carlos Lucia Raj Priya Ahmed Fatima Hiroshi Yuki Ivan Olga Kwame Amara Diego Ines "
         "Mateo Leila").split()
LAST = ("Smith Johnson Brown Garcia Miller Davis Rodriguez Martinez Lopez Wilson Anderson "
        "Taylor Moore Jackson Martin Lee Perez Thompson White Harris Clark Lewis Walker Young "
        "Allen King Wright Scott Torres Nguyen Hill Flores Green Adams Baker Hall Rivera "
        "Campbell Carter Roberts Patel Kim Chen Okafor Novak Schmidt Rossi Tanaka Haddad "
        "Silva Costa Dubois Larsen Kowalski Murphy Quinn Reyes Ward Fox Stone").split()
CITIES = ("Austin", "Denver", "Seattle", "Portland", "Chicago", "Boston", "Atlanta",
          "Phoenix", "Oakland", "Raleigh", "Madison", "Sacramento", "Pittsburgh", "Tampa",
          "Omaha", "Toronto", "Dublin", "Lisbon")
EMAIL_HOSTS = ("example.com", "mail.com", "inbox.net", "post.org")
BIOS = ("Coffee first.", "Runner, reader, occasional baker.", "Dog person.",
        "Photographer on weekends.", "Travel and street food.", "Plant parent.",
        "Amateur astronomer.", "Trying to learn the guitar.", "Teacher by day.",
        "Cyclist and climber.", "Home cook, big eater.", "Board games and bad puns.",
        "Mostly cat pictures.", "Hiking every weekend.", "")
#: Post texts; an author never posts the same text twice.
POSTS = (
    "Sunset hike at Mount Tam", "Finally finished the kitchen remodel",
    "First sourdough loaf of the year", "Our new puppy met the beach today",
    "Marathon training week 6 done", "Morning coffee on the balcony",
    "Street tacos in the Mission", "Rainy day reading list",
    "Back from a week in Lisbon", "Homemade ramen experiment",
    "The garden tomatoes are finally ripe", "Concert night with old friends",
    "New desk setup for working from home", "Weekend camping by the lake",
    "Tried rock climbing for the first time", "Farmers market haul",
    "Thrifted the perfect vintage jacket", "Late night coding session",
    "Road trip along the coast", "Painted the living room green",
    "Birthday dinner at our favorite spot", "Snow day in the mountains",
    "Learning to play the ukulele", "Sunrise swim at the pier",
    "Museum day with the kids", "Fresh batch of chocolate chip cookies",
    "Rescued a kitten from the storm drain", "Cherry blossoms in the park",
    "Game night highlights", "My first half marathon medal",
    "Built a bookshelf from scratch", "Autumn colors on the trail",
    "Trying out film photography", "Best pizza in town, no contest",
    "Cleaned out the garage at last", "Volunteer day at the food bank",
    "Watching the meteor shower", "Picnic in the botanical garden",
    "Kayaking through the canyon", "New haircut, who dis",
    "Graduation day for my sister", "Sketchbook page of the week",
    "Bike commute in the rain", "Made pasta from scratch tonight",
    "Visiting grandma's farm", "Beach cleanup with the neighbors",
    "Finished a 1000 piece puzzle", "Our wedding anniversary trip",
    "Moving into the new apartment", "Spotted a whale on the ferry",
    "Thanksgiving leftovers sandwich", "Sunday long run by the river",
    "Planted a lemon tree", "The view from the top of the tower",
    "Jazz night downtown", "Chasing waterfalls up north",
    "Baked a lemon tart for the office", "Stargazing in the desert",
    "Fixed my old bike myself", "Brunch with the book club",
)
COMMENTS = (
    "Love this!", "So jealous right now", "Looks amazing", "Wow, great shot",
    "Congrats!!", "Need the recipe please", "This made my day", "Where is this?",
    "Miss you, let's catch up soon", "Goals", "Incredible view", "So proud of you",
    "Haha classic", "Beautiful colors", "Count me in next time", "Stunning",
    "Nobody cares about your lunch, loser", "You are pathetic and everyone knows it",
    "Buy cheap followers at my profile link", "Free crypto giveaway, DM me now",
)
#: Comments that a user may want to report or delete, with the report reason that fits.
RUDE = {"Nobody cares about your lunch, loser": "harassment",
        "You are pathetic and everyone knows it": "harassment",
        "Buy cheap followers at my profile link": "spam",
        "Free crypto giveaway, DM me now": "spam"}
MESSAGES = (
    "Hey! Are you around this weekend?", "Did you see the game last night?",
    "Thanks for the birthday wishes!", "Can you send me that recipe?",
    "Running 10 minutes late, sorry", "Happy Friday!", "Are we still on for lunch?",
    "Loved your last post", "Call me when you can", "Got the tickets!",
    "Where did you get that jacket?", "Let's plan the trip soon",
    "How was the concert?", "Congrats on the new job!", "See you tomorrow",
    "Can I borrow your tent next month?", "Check out this playlist",
    "Good luck on the exam!", "The photos turned out great", "Miss you!",
)
REPORT_REASONS = ("spam", "harassment", "hate_speech", "misinformation", "impersonation",
                  "other")
TABLES = ("users", "follows", "follow_requests", "blocks", "mutes", "posts", "likes",
          "comments", "messages", "reports")


def _day(offset: int) -> str:
    return (_TODAY - timedelta(days=int(offset))).isoformat()


class _Draw(RngDraws):
    """The shared draws, and the times of this domain's records."""

    def stamp(self, offset: int) -> str:
        """A time of the day ``offset`` days before today (today: before the clock's noon)."""
        hour = self.int(7, 11) if offset == 0 else self.int(7, 22)
        return f"{_day(offset)}T{hour:02d}:{self.int(0, 59):02d}:00"


class _Network:
    """The tables being drawn, table by table in a fixed order."""

    def __init__(self, seed: int) -> None:
        self.d = _Draw(seed)
        self.data: dict[str, list[dict]] = {t: [] for t in TABLES}
        self.follows: dict[tuple[str, str], str] = {}  # (follower, followee) -> since
        self.blocked: set[tuple[str, str]] = set()

    def draw(self) -> dict[str, list[dict]]:
        for step in (self.users, self.follow_graph, self.blocks, self.requests, self.mutes,
                     self.posts, self.messages, self.reports):
            step()
        return self.data

    # ------------------------------------------------------------------- users
    def users(self) -> None:
        d = self.d
        names, emails = set(), set()
        for _ in range(N_USERS):
            first, last = d.pick(FIRST), d.pick(LAST)
            while True:
                style = d.int(0, 2)
                number = d.int(1, 99)
                username = (f"{first[0]}{last}{number}", f"{first}_{last}",
                            f"{first}.{last}{number}")[style].lower()
                if username not in names:
                    names.add(username)
                    break
            while True:
                email = f"{first}.{last}{d.int(1, 999)}@{d.pick(EMAIL_HOSTS)}".lower()
                if email not in emails:
                    emails.add(email)
                    break
            roll = d.rng.random()
            self.data["users"].append({
                "user_id": d.token("usr"), "username": username,
                "display_name": f"{first} {last}", "email": email, "bio": d.pick(BIOS),
                "city": d.pick(CITIES),
                "visibility": "private" if d.chance(0.25) else "public",
                "dm_policy": "everyone" if roll < 0.55 else "following" if roll < 0.88
                else "nobody",
                "joined_on": _day(d.int(400, 3000)),
            })
        self.ids = [u["user_id"] for u in self.data["users"]]
        self.private = {u["user_id"] for u in self.data["users"] if u["visibility"] == "private"}

    def follow_graph(self) -> None:
        d = self.d
        for user in self.ids:
            for other in d.sample([u for u in self.ids if u != user], d.int(12, 50)):
                self.follows[(user, other)] = _day(d.int(5, 900))

    def blocks(self) -> None:
        d = self.d
        for user in self.ids:
            if not d.chance(0.12):
                continue
            for other in d.sample([u for u in self.ids if u != user], d.int(1, 2)):
                if (other, user) in self.blocked:
                    continue
                self.blocked.add((user, other))
                self.follows.pop((user, other), None)
                self.follows.pop((other, user), None)
                self.data["blocks"].append({"blocker_id": user, "blocked_id": other,
                                            "created_at": d.stamp(d.int(1, 400))})
        for (follower, followee), since in sorted(self.follows.items(),
                                                  key=lambda kv: (kv[1], kv[0])):
            self.data["follows"].append({"follower_id": follower, "followee_id": followee,
                                         "since": since})

    def _apart(self, a: str, b: str) -> bool:
        """Neither blocks the other."""
        return (a, b) not in self.blocked and (b, a) not in self.blocked

    def requests(self) -> None:
        d = self.d
        rows = []
        for target in self.ids:
            strangers = [u for u in self.ids if u != target and (u, target) not in self.follows
                         and self._apart(u, target)]
            if target in self.private:
                for requester in d.sample(strangers, d.int(0, 4)):
                    rows.append((d.int(0, 40), requester, target, "pending"))
            for requester in d.sample(strangers, d.int(0, 2)):  # settled long ago
                rows.append((d.int(41, 600), requester, target,
                             d.pick(("declined", "cancelled"))))
        rows.sort(key=lambda r: (-r[0], r[1], r[2]))
        for offset, requester, target, status in rows:
            self.data["follow_requests"].append({
                "request_id": self.d.token("frq"), "requester_id": requester,
                "target_id": target, "status": status, "created_at": d.stamp(offset)})

    def mutes(self) -> None:
        d = self.d
        following: dict[str, list[str]] = {}
        for follower, followee in self.follows:
            following.setdefault(follower, []).append(followee)
        for user in self.ids:
            if following.get(user) and d.chance(0.3):
                for other in d.sample(sorted(following[user]), d.int(1, 3)):
                    self.data["mutes"].append({"muter_id": user, "muted_id": other,
                                               "created_at": d.stamp(d.int(1, 300))})

    # -------------------------------------------------------------------- posts
    def posts(self) -> None:
        d = self.d
        followers: dict[str, list[str]] = {}
        for follower, followee in self.follows:
            followers.setdefault(followee, []).append(follower)
        self.comment_rows: list[dict] = []
        like_rows: list[dict] = []
        for user in self.ids:
            fans = sorted(followers.get(user, []))
            for text in d.sample(POSTS, d.int(3, 7)):
                age = d.int(2, 420)
                deleted = d.chance(0.18)
                recent = d.chance(0.5) or age <= 40  # within the restore window, or long ago
                gone = d.int(1, min(25, age - 1)) if recent else d.int(40, age - 1)
                post = {"post_id": d.token("pst"), "author_id": user, "content": text,
                        "audience": "followers" if d.chance(0.2) else "public",
                        "status": "deleted" if deleted else "published",
                        "created_at": d.stamp(age),
                        "deleted_on": _day(gone) if deleted else None}
                self.data["posts"].append(post)
                for fan in d.sample(fans, d.int(0, min(30, len(fans)))):
                    like_rows.append({"user_id": fan, "post_id": post["post_id"],
                                      "created_at": d.stamp(d.int(1, age - 1))})
                for fan in d.sample(fans, d.int(0, min(5, len(fans)))):
                    index = d.int(0, len(COMMENTS) - 1)
                    self.comment_rows.append({
                        "comment_id": d.token("cmt"), "post_id": post["post_id"],
                        "author_id": fan, "content": COMMENTS[index],
                        "status": "deleted" if d.chance(0.05) else "visible",
                        "created_at": d.stamp(d.int(1, age - 1))})
        like_rows.sort(key=lambda r: (r["created_at"], r["user_id"], r["post_id"]))
        self.data["likes"] = like_rows
        self.comment_rows.sort(key=lambda r: (r["created_at"], r["comment_id"]))
        self.data["comments"] = self.comment_rows

    # ----------------------------------------------------------------- messages
    def messages(self) -> None:
        d = self.d
        rows = []
        for user in self.ids:
            partners = [b for (a, b) in self.follows if a == user and self._apart(a, b)]
            for other in d.sample(sorted(partners), d.int(0, 4)):
                for _ in range(d.int(1, 5)):
                    sender, recipient = (user, other) if d.chance(0.5) else (other, user)
                    offset = d.int(0, 200)
                    rows.append({"message_id": d.token("msg"), "sender_id": sender,
                                 "recipient_id": recipient, "content": d.pick(MESSAGES),
                                 "sent_at": d.stamp(offset),
                                 "is_read": 0 if offset < 3 and d.chance(0.6) else 1})
        rows.sort(key=lambda r: (r["sent_at"], r["message_id"]))
        self.data["messages"] = rows

    def reports(self) -> None:
        d = self.d
        authors = {p["post_id"]: p["author_id"] for p in self.data["posts"]}
        rude = [c for c in self.comment_rows if c["content"] in RUDE]
        for comment in d.sample(rude, len(rude) // 3):
            reporter = authors[comment["post_id"]]
            if reporter == comment["author_id"]:
                continue
            self.data["reports"].append({
                "report_id": d.token("rpt"), "reporter_id": reporter,
                "reported_user_id": comment["author_id"], "post_id": None,
                "comment_id": comment["comment_id"],
                "reason": RUDE[comment["content"]],
                "status": d.pick(("open", "resolved", "rejected")),
                "created_at": max(comment["created_at"], d.stamp(d.int(0, 30)))})
        posts = self.data["posts"]
        for _ in range(len(self.ids) // 10):
            post = d.pick(posts)
            reporter = d.pick(self.ids)
            if reporter == post["author_id"]:
                continue
            self.data["reports"].append({
                "report_id": d.token("rpt"), "reporter_id": reporter,
                "reported_user_id": post["author_id"], "post_id": post["post_id"],
                "comment_id": None, "reason": d.pick(REPORT_REASONS),
                "status": d.pick(("open", "resolved", "rejected")),
                "created_at": max(post["created_at"], d.stamp(d.int(0, 30)))})


def generate(seed: int) -> dict[str, list[dict]]:
    """The native data of a social network made from ``seed``."""
    return _Network(seed).draw()
