"""The social media growth recipe (``tests/fuzz/growth.py``): posts, comments and direct
messages with the longest texts the domain stores, each call adding a row."""

from __future__ import annotations

import sqlite3

from tool_gym.domains.social_media.tools import MAX_COMMENT, MAX_MESSAGE, MAX_POST


def recipe(db: sqlite3.Connection, text: str):
    """``step(i) -> (tool, arguments)``: a post, a comment on it, a message to a follower."""
    user, friend = db.execute(
        "SELECT f.followee_id, f.follower_id FROM follows f JOIN users u ON u.user_id = "
        "f.follower_id WHERE u.dm_policy = 'everyone' AND NOT EXISTS (SELECT 1 FROM blocks b "
        "WHERE b.blocker_id IN (f.followee_id, f.follower_id) AND b.blocked_id IN "
        "(f.followee_id, f.follower_id)) ORDER BY f.followee_id, f.follower_id").fetchone()
    post, = db.execute("SELECT post_id FROM posts WHERE author_id = ? AND status = 'published' "
                       "ORDER BY post_id", (user,)).fetchone()

    def step(i: int):
        if i % 3 == 0:
            return "create_post", {"user_id": user, "content": text[:MAX_POST],
                                   "audience": "public"}
        if i % 3 == 1:
            return "add_comment", {"post_id": post, "user_id": user, "content": text[:MAX_COMMENT]}
        return "send_message", {"recipient_id": friend, "user_id": user,
                                "content": text[:MAX_MESSAGE]}
    return step
