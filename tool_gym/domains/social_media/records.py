"""The social media tools' shared parts: the clock and limits, the entity types of ids, and
the reads and checks the tools build on (who may see a post, who may message whom)."""

from __future__ import annotations

import sqlite3
from datetime import date
from typing import Annotated, Literal

from ...core.rows import fetch_row
from ...core.tools import Entity, ToolError

#: The platform's clock (fixed, so that every episode is reproducible).
TODAY = "2024-07-01"
NOW = "2024-07-01T12:00:00"
#: A deleted post may be restored at most this many days after it was deleted (policy).
RESTORE_WINDOW_DAYS = 30
#: Longest post, comment and message (characters).
MAX_POST = 2200
MAX_COMMENT = 1000
MAX_MESSAGE = 1000

UserId = Annotated[str, Entity("user_id")]
PostId = Annotated[str, Entity("post_id")]
CommentId = Annotated[str, Entity("comment_id")]
RequestId = Annotated[str, Entity("request_id")]

Audience = Literal["public", "followers"]
Visibility = Literal["public", "private"]
DmPolicy = Literal["everyone", "following", "nobody"]
Decision = Literal["accept", "decline"]
ReportReason = Literal["spam", "harassment", "hate_speech", "misinformation", "impersonation",
                       "other"]


def days_before_today(day: str) -> int:
    """Whole days from ``day`` (ISO date) to ``TODAY``."""
    return (date.fromisoformat(TODAY) - date.fromisoformat(day[:10])).days


PUBLIC_COLUMNS = ("user_id", "username", "display_name", "city", "visibility", "dm_policy")


def account(db: sqlite3.Connection, user_id: str, what: str = "User") -> dict:
    row = fetch_row(db, f"SELECT {', '.join(PUBLIC_COLUMNS)}, bio FROM users WHERE user_id = ?",
                    (user_id,), f"{what} {user_id!r} not found.")
    return dict(zip((*PUBLIC_COLUMNS, "bio"), row))


def public_profile(user: dict) -> dict:
    """What anyone may see of an account (no email)."""
    return {"user_id": user["user_id"], "username": user["username"],
            "display_name": user["display_name"], "city": user["city"],
            "account_visibility": user["visibility"], "accepts_messages_from": user["dm_policy"]}


def follows(db: sqlite3.Connection, follower: str, followee: str) -> bool:
    return db.execute("SELECT 1 FROM follows WHERE follower_id = ? AND followee_id = ?",
                      (follower, followee)).fetchone() is not None


def blocked_between(db: sqlite3.Connection, a: str, b: str) -> bool:
    """Whether either account blocks the other."""
    return db.execute("SELECT 1 FROM blocks WHERE (blocker_id = ? AND blocked_id = ?) "
                      "OR (blocker_id = ? AND blocked_id = ?)", (a, b, b, a)).fetchone() \
        is not None


def may_message(db: sqlite3.Connection, sender: str, recipient: dict) -> str | None:
    """Why ``sender`` may not message ``recipient`` (``None``: they may)."""
    name = f"@{recipient['username']}"
    if blocked_between(db, sender, recipient["user_id"]):
        return f"Messages between you and {name} are blocked."
    if recipient["dm_policy"] == "nobody":
        return f"{name} does not accept direct messages from anyone."
    if recipient["dm_policy"] == "following" and not follows(db, recipient["user_id"], sender):
        return f"{name} only accepts direct messages from accounts they follow, and they " \
               "do not follow you."
    return None


def check_view(db: sqlite3.Connection, viewer: str, author: dict, audience: str = "public"
                ) -> None:
    """Raise unless ``viewer`` may see a post of ``author`` with ``audience``."""
    if viewer == author["user_id"]:
        return
    name = f"@{author['username']}"
    if blocked_between(db, viewer, author["user_id"]):
        raise ToolError(f"You cannot see {name}'s posts: one of you blocks the other.")
    if (author["visibility"] == "private" or audience == "followers") and \
            not follows(db, viewer, author["user_id"]):
        what = "account is private" if author["visibility"] == "private" else \
            "post is for followers only"
        raise ToolError(f"{name}'s {what}: only their followers can see it.")


POST_COLUMNS = ("post_id", "author_id", "content", "audience", "status", "created_at",
              "deleted_on")


def post_row(db: sqlite3.Connection, post_id: str) -> dict:
    row = fetch_row(db, f"SELECT {', '.join(POST_COLUMNS)} FROM posts WHERE post_id = ?",
                    (post_id,), f"Post {post_id!r} not found.")
    return dict(zip(POST_COLUMNS, row))


def post_record(db: sqlite3.Connection, post: dict) -> dict:
    likes, comments = db.execute(
        "SELECT (SELECT count(*) FROM likes WHERE post_id = ?), (SELECT count(*) FROM comments "
        "WHERE post_id = ? AND status = 'visible')", (post["post_id"], post["post_id"])
    ).fetchone()
    return {**post, "like_count": likes, "comment_count": comments}


def visible_post(db: sqlite3.Connection, user_id: str, post_id: str) -> tuple[dict, dict]:
    """The published post and its author, once the user may see it."""
    viewer = account(db, user_id)
    post = post_row(db, post_id)
    if post["status"] != "published" and post["author_id"] != viewer["user_id"]:
        raise ToolError(f"Post {post_id!r} not found.")
    author = account(db, post["author_id"])
    check_view(db, viewer["user_id"], author, post["audience"])
    return post, author


def checked_text(value: str, what: str, limit: int) -> str:
    value = value.strip()
    if not value:
        raise ToolError(f"The {what} must not be empty.")
    if len(value) > limit:
        raise ToolError(f"The {what} is too long ({len(value)} characters; at most {limit}).")
    return value


def two_accounts(db: sqlite3.Connection, user_id: str, target_user_id: str) -> tuple[dict, dict]:
    """The acting user and another account (never the same one)."""
    me = account(db, user_id)
    other = account(db, target_user_id, "Account")
    if me["user_id"] == other["user_id"]:
        raise ToolError("That is your own account.")
    return me, other


def people(db: sqlite3.Connection, sql: str, params: tuple, since: str) -> list[dict]:
    """Accounts of ``sql`` (``user_id, <date>``) with their public names."""
    rows = db.execute(
        f"SELECT u.user_id, u.username, u.display_name, x.at FROM ({sql}) x "
        "JOIN users u ON u.user_id = x.user_id ORDER BY x.at DESC, u.username", params)
    return [{"user_id": r[0], "username": r[1], "display_name": r[2], since: r[3]}
            for r in rows]
