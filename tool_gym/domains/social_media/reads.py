"""The social media domain's reads (and the hand-off to a human agent); see :mod:`.tools`."""

from __future__ import annotations

from ...core.common_tools import human_transfer_tool
from ...core.rows import fetch_dicts, find_id
from ...core.tools import Category, ToolError, tool
from .records import (
    POST_COLUMNS,
    PUBLIC_COLUMNS,
    CommentId,
    PostId,
    RequestId,
    UserId,
    account,
    check_view,
    follows,
    people,
    post_record,
    public_profile,
    two_accounts,
    visible_post,
)


@tool(Category.READ, returns={".": UserId})
def find_user_by_email(db, email: str) -> str:
    """Find a user's id by the email address of their account. Use it to authenticate the
    user before anything else.

    Args:
        email: The user's email address, such as 'ava.smith12@example.com'.
    """
    return find_id(db, "users", "user_id", "email", email.strip().lower(),
                   "No account found with this email address.")


@tool(Category.READ, returns={".": UserId})
def find_user_by_username(db, username: str) -> str:
    """Find a user's id by their own username (handle, without the @). Use it to
    authenticate the user before anything else; to look up other people use search_users.

    Args:
        username: The user's username, such as 'asmith42'.
    """
    return find_id(db, "users", "user_id", "username", username.strip().lstrip("@").lower(),
                   "No account found with this username.")


@tool(Category.READ, returns={"user_id": UserId})
def get_user_profile(db, user_id: UserId) -> dict:
    """Get the signed-in user's own profile: names, email, bio, privacy settings (account
    visibility and who may message them), and counts of followers, accounts followed,
    published posts and pending follow requests.

    Args:
        user_id: The user's id, such as 'usr_a1b2c3d4'.
    """
    user = account(db, user_id)
    email, joined = db.execute("SELECT email, joined_on FROM users WHERE user_id = ?",
                               (user_id,)).fetchone()
    counts = db.execute(
        "SELECT (SELECT count(*) FROM follows WHERE followee_id = ?), "
        "(SELECT count(*) FROM follows WHERE follower_id = ?), "
        "(SELECT count(*) FROM posts WHERE author_id = ? AND status = 'published'), "
        "(SELECT count(*) FROM follow_requests WHERE target_id = ? AND status = 'pending')",
        (user_id,) * 4).fetchone()
    return {**public_profile(user), "email": email, "bio": user["bio"], "joined_on": joined,
            "follower_count": counts[0], "following_count": counts[1],
            "post_count": counts[2], "pending_follow_requests": counts[3]}


@tool(Category.READ, returns={"users.user_id": UserId})
def search_users(db, query: str) -> dict:
    """Search accounts by username or display name (case-insensitive, part of the name is
    enough). Returns at most 20 public profiles: id, username, display name, city, account
    visibility and who they accept direct messages from.

    Args:
        query: At least 2 characters of the username (with or without @) or display name.
    """
    text = query.strip().lstrip("@").lower()
    if len(text) < 2:
        raise ToolError("The search needs at least 2 characters.")
    rows = db.execute(
        f"SELECT {', '.join(PUBLIC_COLUMNS)}, bio FROM users WHERE instr(username, ?) > 0 "
        "OR instr(lower(display_name), ?) > 0 ORDER BY username LIMIT 20", (text, text))
    return {"query": query, "users": [public_profile(dict(zip((*PUBLIC_COLUMNS, "bio"), r))) for r in rows]}


@tool(Category.READ, returns={"user_id": UserId, "followers.user_id": UserId})
def list_followers(db, user_id: UserId) -> dict:
    """List the accounts that follow the user, newest first, with the date each started
    following.

    Args:
        user_id: The user's id.
    """
    account(db, user_id)
    return {"user_id": user_id, "followers": people(
        db, "SELECT follower_id AS user_id, since AS at FROM follows WHERE followee_id = ?",
        (user_id,), "following_since")}


@tool(Category.READ, returns={"user_id": UserId, "following.user_id": UserId})
def list_following(db, user_id: UserId) -> dict:
    """List the accounts the user follows, newest first, with the date the user started
    following each and whether the user has muted it.

    Args:
        user_id: The user's id.
    """
    account(db, user_id)
    followed = people(db, "SELECT followee_id AS user_id, since AS at FROM follows "
                          "WHERE follower_id = ?", (user_id,), "following_since")
    muted = {m for (m,) in db.execute("SELECT muted_id FROM mutes WHERE muter_id = ?",
                                      (user_id,))}
    for p in followed:
        p["muted"] = p["user_id"] in muted
    return {"user_id": user_id, "following": followed}


@tool(Category.READ, returns={"user_id": UserId, "incoming.request_id": RequestId,
                              "incoming.user_id": UserId, "outgoing.request_id": RequestId,
                              "outgoing.user_id": UserId})
def list_follow_requests(db, user_id: UserId) -> dict:
    """List the user's pending follow requests: incoming (people asking to follow the
    user's private account) and outgoing (the user's requests to private accounts).

    Args:
        user_id: The user's id.
    """
    account(db, user_id)
    keys = ("request_id", "user_id", "username", "display_name", "created_at")

    def side(mine: str, theirs: str) -> list[dict]:
        return fetch_dicts(db, keys,
                           f"SELECT r.request_id, u.user_id, u.username, u.display_name, "
                           f"r.created_at FROM follow_requests r JOIN users u ON u.user_id = "
                           f"r.{theirs} WHERE r.{mine} = ? AND r.status = 'pending' "
                           "ORDER BY r.created_at DESC, r.request_id", (user_id,))
    return {"user_id": user_id, "incoming": side("target_id", "requester_id"),
            "outgoing": side("requester_id", "target_id")}


@tool(Category.READ, returns={"author_id": UserId, "posts.post_id": PostId})
def list_posts(db, user_id: UserId, author_id: UserId) -> dict:
    """List an account's posts as the user sees them, newest first, with like and comment
    counts. The user's own posts include deleted ones (with the day they were deleted);
    another account's posts are shown only when the user may see them.

    Args:
        user_id: The signed-in user's id (the viewer).
        author_id: The id of the account whose posts to list (the user's own id for their
            own posts).
    """
    viewer = account(db, user_id)
    author = account(db, author_id, "Account")
    own = viewer["user_id"] == author["user_id"]
    check_view(db, viewer["user_id"], author)
    rows = db.execute(f"SELECT {', '.join(POST_COLUMNS)} FROM posts WHERE author_id = ? "
                      "ORDER BY created_at DESC, post_id", (author_id,)).fetchall()
    posts = [dict(zip(POST_COLUMNS, r)) for r in rows]
    posts = [post_record(db, p) for p in posts if own or (
        p["status"] == "published" and (p["audience"] == "public"
                                        or follows(db, user_id, author_id)))]
    return {"author_id": author_id, "username": author["username"], "posts": posts}


@tool(Category.READ, returns={"post_id": PostId, "author_id": UserId,
                              "comments.comment_id": CommentId, "comments.author_id": UserId})
def get_post(db, user_id: UserId, post_id: PostId) -> dict:
    """Get one post as the user sees it: text, audience, status, like count, whether the
    user liked it, and its visible comments (oldest first) with their authors.

    Args:
        user_id: The signed-in user's id (the viewer).
        post_id: The post's id, such as 'pst_k3j9x0p2'.
    """
    post, author = visible_post(db, user_id, post_id)
    record = post_record(db, post)
    record["author_username"] = author["username"]
    record["liked_by_you"] = db.execute("SELECT 1 FROM likes WHERE user_id = ? AND post_id = ?",
                                        (user_id, post_id)).fetchone() is not None
    record["comments"] = fetch_dicts(
        db, ("comment_id", "author_id", "author_username", "content", "created_at"),
        "SELECT c.comment_id, c.author_id, u.username, c.content, c.created_at FROM comments c "
        "JOIN users u ON u.user_id = c.author_id WHERE c.post_id = ? AND c.status = 'visible' "
        "ORDER BY c.created_at, c.comment_id", (post_id,))
    return record


@tool(Category.READ, returns={"user_id": UserId, "conversations.user_id": UserId})
def list_conversations(db, user_id: UserId) -> dict:
    """List the user's direct-message conversations, the most recent first: the other
    account, the time of the last message and how many messages from them are unread.

    Args:
        user_id: The user's id.
    """
    account(db, user_id)
    rows = db.execute(
        "SELECT u.user_id, u.username, u.display_name, max(m.sent_at), "
        "sum(m.recipient_id = ? AND m.is_read = 0) FROM messages m JOIN users u "
        "ON u.user_id = CASE WHEN m.sender_id = ? THEN m.recipient_id ELSE m.sender_id END "
        "WHERE m.sender_id = ? OR m.recipient_id = ? GROUP BY u.user_id "
        "ORDER BY max(m.sent_at) DESC, u.username", (user_id,) * 4).fetchall()
    keys = ("user_id", "username", "display_name", "last_message_at", "unread")
    return {"user_id": user_id, "conversations": [dict(zip(keys, r)) for r in rows]}


@tool(Category.READ, returns={"user_id": UserId, "other_user_id": UserId})
def get_conversation(db, user_id: UserId, other_user_id: UserId) -> dict:
    """Get the direct messages between the user and another account, oldest first, each
    with its sender's username, time and whether it was read.

    Args:
        user_id: The signed-in user's id.
        other_user_id: The other account's id.
    """
    _, other = two_accounts(db, user_id, other_user_id)
    messages = fetch_dicts(
        db, ("message_id", "from", "content", "sent_at", "read"),
        "SELECT m.message_id, u.username, m.content, m.sent_at, m.is_read = 1 FROM messages m "
        "JOIN users u ON u.user_id = m.sender_id WHERE (m.sender_id = ? AND m.recipient_id = ?) "
        "OR (m.sender_id = ? AND m.recipient_id = ?) ORDER BY m.sent_at, m.message_id",
        (user_id, other_user_id, other_user_id, user_id))
    for m in messages:
        m["read"] = bool(m["read"])
    return {"user_id": user_id, "other_user_id": other_user_id,
            "other_username": other["username"], "messages": messages}


@tool(Category.READ, returns={"user_id": UserId, "blocked.user_id": UserId,
                              "muted.user_id": UserId})
def list_blocked_and_muted(db, user_id: UserId) -> dict:
    """List the accounts the user has blocked and the accounts the user has muted, each
    with the day it was done.

    Args:
        user_id: The user's id.
    """
    account(db, user_id)
    return {"user_id": user_id,
            "blocked": people(db, "SELECT blocked_id AS user_id, created_at AS at FROM blocks "
                                   "WHERE blocker_id = ?", (user_id,), "since"),
            "muted": people(db, "SELECT muted_id AS user_id, created_at AS at FROM mutes "
                                 "WHERE muter_id = ?", (user_id,), "since")}


@tool(Category.READ, returns={"user_id": UserId, "reports.report_id": "report_id",
                              "reports.post_id": PostId, "reports.comment_id": CommentId})
def list_reports(db, user_id: UserId) -> dict:
    """List the reports the user has filed, with the reported post or comment, the
    account reported, the reason and the review status.

    Args:
        user_id: The user's id.
    """
    account(db, user_id)
    return {"user_id": user_id, "reports": fetch_dicts(
        db, ("report_id", "post_id", "comment_id", "reported_username", "reason", "status",
             "created_at"),
        "SELECT r.report_id, r.post_id, r.comment_id, u.username, r.reason, r.status, "
        "r.created_at FROM reports r JOIN users u ON u.user_id = r.reported_user_id "
        "WHERE r.reporter_id = ? ORDER BY r.created_at DESC, r.report_id", (user_id,))}


transfer_to_human_agents = human_transfer_tool(
    "Transfer the user to a human agent, with a summary of their issue. Only transfer if "
    "the user explicitly asks for a human agent, or if the request cannot be handled with "
    "the policy and the available tools.",
    "A summary of the user's issue.")
