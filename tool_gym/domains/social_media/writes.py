"""The social media domain's writes; see :mod:`.tools`."""

from __future__ import annotations

import sqlite3

from ...core.ids import counted_id
from ...core.rows import fetch_row
from ...core.tools import Category, ToolError, tool
from .records import (
    MAX_COMMENT,
    MAX_MESSAGE,
    MAX_POST,
    NOW,
    TODAY,
    Audience,
    CommentId,
    Decision,
    DmPolicy,
    PostId,
    ReportReason,
    RequestId,
    UserId,
    Visibility,
    account,
    blocked_between,
    checked_text,
    follows,
    may_message,
    post_record,
    post_row,
    two_accounts,
    visible_post,
)


@tool(Category.WRITE, returns={"post_id": PostId, "author_id": UserId}, writes=("post_id",))
def create_post(db, user_id: UserId, content: str, audience: Audience = "public") -> dict:
    """Publish a new post for the user. Confirm the text and audience with the user
    (explicit yes) before calling.

    Args:
        user_id: The user's id.
        content: The text of the post (at most 2200 characters).
        audience: 'public' (anyone who may see the account) or 'followers' (followers only).
    """
    account(db, user_id)
    content = checked_text(content, "post", MAX_POST)
    post_id = counted_id(db, "posts", "post_id", "pst_")
    db.execute("INSERT INTO posts (post_id, author_id, content, audience, status, created_at, "
               "deleted_on) VALUES (?, ?, ?, ?, 'published', ?, NULL)",
               (post_id, user_id, content, audience, NOW))
    return post_record(db, post_row(db, post_id))


@tool(Category.WRITE, returns={"post_id": PostId}, writes=("post_id",), needs=("post_id",))
def delete_post(db, post_id: PostId) -> dict:
    """Delete one of the user's published posts. It can be restored later (see the policy
    for how long). Confirm with the user (explicit yes) before calling.

    Args:
        post_id: The post's id.
    """
    post = post_row(db, post_id)
    if post["status"] == "deleted":
        raise ToolError("The post is already deleted.")
    db.execute("UPDATE posts SET status = 'deleted', deleted_on = ? WHERE post_id = ?",
               (TODAY, post_id))
    return {"post_id": post_id, "status": "deleted", "deleted_on": TODAY}


@tool(Category.WRITE, returns={"post_id": PostId}, writes=("post_id",), needs=("post_id",))
def restore_post(db, post_id: PostId) -> dict:
    """Restore a deleted post of the user, so that it is published again. Check the
    policy's time window first. Confirm with the user (explicit yes) before calling.

    Args:
        post_id: The post's id.
    """
    post = post_row(db, post_id)
    if post["status"] != "deleted":
        raise ToolError("Only a deleted post can be restored; this post is published.")
    db.execute("UPDATE posts SET status = 'published', deleted_on = NULL WHERE post_id = ?",
               (post_id,))
    return post_record(db, post_row(db, post_id))


@tool(Category.WRITE, returns={"post_id": PostId, "user_id": UserId}, writes=("post_id",),
      needs=("post_id",))
def like_post(db, post_id: PostId, user_id: UserId) -> dict:
    """Like a post as the user. The user must be able to see the post. Confirm with the
    user (explicit yes) before calling.

    Args:
        post_id: The post's id.
        user_id: The user's id.
    """
    visible_post(db, user_id, post_id)
    if post_row(db, post_id)["status"] != "published":
        raise ToolError("A deleted post cannot be liked.")
    if db.execute("SELECT 1 FROM likes WHERE user_id = ? AND post_id = ?",
                  (user_id, post_id)).fetchone():
        raise ToolError("You already like this post.")
    db.execute("INSERT INTO likes (user_id, post_id, created_at) VALUES (?, ?, ?)",
               (user_id, post_id, NOW))
    return {"user_id": user_id, **post_record(db, post_row(db, post_id))}


@tool(Category.WRITE, returns={"post_id": PostId, "user_id": UserId}, writes=("post_id",),
      needs=("post_id",))
def unlike_post(db, post_id: PostId, user_id: UserId) -> dict:
    """Remove the user's like from a post. Confirm with the user (explicit yes) before
    calling.

    Args:
        post_id: The post's id.
        user_id: The user's id.
    """
    account(db, user_id)
    post_row(db, post_id)
    if db.execute("DELETE FROM likes WHERE user_id = ? AND post_id = ?",
                  (user_id, post_id)).rowcount == 0:
        raise ToolError("You do not like this post.")
    return {"user_id": user_id, **post_record(db, post_row(db, post_id))}


@tool(Category.WRITE, returns={"comment_id": CommentId, "post_id": PostId},
      writes=("comment_id",), needs=("post_id",))
def add_comment(db, post_id: PostId, user_id: UserId, content: str) -> dict:
    """Comment on a post as the user. The user must be able to see the post. Confirm the
    text with the user (explicit yes) before calling.

    Args:
        post_id: The post's id.
        user_id: The user's id.
        content: The text of the comment (at most 1000 characters).
    """
    post, _ = visible_post(db, user_id, post_id)
    if post["status"] != "published":
        raise ToolError("A deleted post cannot be commented on.")
    content = checked_text(content, "comment", MAX_COMMENT)
    comment_id = counted_id(db, "comments", "comment_id", "cmt_")
    db.execute("INSERT INTO comments (comment_id, post_id, author_id, content, status, "
               "created_at) VALUES (?, ?, ?, ?, 'visible', ?)",
               (comment_id, post_id, user_id, content, NOW))
    return {"comment_id": comment_id, "post_id": post_id, "author_id": user_id,
            "content": content, "status": "visible", "created_at": NOW}


@tool(Category.WRITE, returns={"comment_id": CommentId}, writes=("comment_id",),
      needs=("comment_id",))
def delete_comment(db, comment_id: CommentId, user_id: UserId) -> dict:
    """Delete a comment: the user may delete their own comments and any comment on their
    own posts. Confirm with the user (explicit yes) before calling.

    Args:
        comment_id: The comment's id, such as 'cmt_p0q9r8s7'.
        user_id: The user's id.
    """
    account(db, user_id)
    author, status, post_author = fetch_row(
        db, "SELECT c.author_id, c.status, p.author_id FROM comments c JOIN posts p "
            "ON p.post_id = c.post_id WHERE c.comment_id = ?", (comment_id,),
        f"Comment {comment_id!r} not found.")
    if user_id not in (author, post_author):
        raise ToolError("You can delete only your own comments and comments on your own posts.")
    if status == "deleted":
        raise ToolError("The comment is already deleted.")
    db.execute("UPDATE comments SET status = 'deleted' WHERE comment_id = ?", (comment_id,))
    return {"comment_id": comment_id, "status": "deleted"}


@tool(Category.WRITE, returns={"target_user_id": UserId, "request_id": RequestId},
      writes=("user_id", "request_id"), needs=("user_id",))
def follow_user(db, target_user_id: UserId, user_id: UserId) -> dict:
    """Follow another account as the user. A public account is followed at once; for a
    private account a follow request is sent and waits for their approval. Confirm with
    the user (explicit yes) before calling.

    Args:
        target_user_id: The id of the account to follow.
        user_id: The user's id.
    """
    _, other = two_accounts(db, user_id, target_user_id)
    name = f"@{other['username']}"
    if follows(db, user_id, target_user_id):
        raise ToolError(f"You already follow {name}.")
    if blocked_between(db, user_id, target_user_id):
        raise ToolError(f"You cannot follow {name}: one of you blocks the other.")
    if db.execute("SELECT 1 FROM follow_requests WHERE requester_id = ? AND target_id = ? "
                  "AND status = 'pending'", (user_id, target_user_id)).fetchone():
        raise ToolError(f"A follow request to {name} is already pending.")
    if other["visibility"] == "private":
        request_id = counted_id(db, "follow_requests", "request_id", "frq_")
        db.execute("INSERT INTO follow_requests (request_id, requester_id, target_id, status, "
                   "created_at) VALUES (?, ?, ?, 'pending', ?)",
                   (request_id, user_id, target_user_id, NOW))
        return {"target_user_id": target_user_id, "username": other["username"],
                "status": "requested", "request_id": request_id}
    db.execute("INSERT INTO follows (follower_id, followee_id, since) VALUES (?, ?, ?)",
               (user_id, target_user_id, TODAY))
    return {"target_user_id": target_user_id, "username": other["username"],
            "status": "following", "request_id": None}


@tool(Category.WRITE, returns={"target_user_id": UserId}, writes=("user_id",),
      needs=("user_id",))
def unfollow_user(db, target_user_id: UserId, user_id: UserId) -> dict:
    """Stop following an account (a mute of that account is lifted too). Confirm with the
    user (explicit yes) before calling.

    Args:
        target_user_id: The id of the account to unfollow.
        user_id: The user's id.
    """
    _, other = two_accounts(db, user_id, target_user_id)
    if not follows(db, user_id, target_user_id):
        raise ToolError(f"You do not follow @{other['username']}.")
    db.execute("DELETE FROM follows WHERE follower_id = ? AND followee_id = ?",
               (user_id, target_user_id))
    db.execute("DELETE FROM mutes WHERE muter_id = ? AND muted_id = ?", (user_id, target_user_id))
    return {"target_user_id": target_user_id, "username": other["username"],
            "status": "not_following"}


@tool(Category.WRITE, returns={"request_id": RequestId, "requester_id": UserId},
      writes=("request_id", "user_id"), needs=("request_id",))
def respond_to_follow_request(db, request_id: RequestId, decision: Decision) -> dict:
    """Accept or decline a pending follow request to the user's account. Accepting makes
    the requester a follower. Confirm with the user (explicit yes) before calling.

    Args:
        request_id: The follow request's id, such as 'frq_b7c8d9e0'.
        decision: 'accept' or 'decline'.
    """
    requester, target, status = fetch_row(
        db, "SELECT requester_id, target_id, status FROM follow_requests WHERE request_id = ?",
        (request_id,), f"Follow request {request_id!r} not found.")
    if status != "pending":
        raise ToolError(f"The follow request is {status}, not pending.")
    if decision == "accept":
        db.execute("INSERT OR IGNORE INTO follows (follower_id, followee_id, since) "
                   "VALUES (?, ?, ?)", (requester, target, TODAY))
    new = "accepted" if decision == "accept" else "declined"
    db.execute("UPDATE follow_requests SET status = ? WHERE request_id = ?", (new, request_id))
    return {"request_id": request_id, "requester_id": requester, "status": new}


@tool(Category.WRITE, returns={"target_user_id": UserId}, writes=("user_id",),
      needs=("user_id",))
def block_user(db, target_user_id: UserId, user_id: UserId) -> dict:
    """Block an account: the two stop following each other, pending follow requests between
    them are cancelled, and neither can see the other's posts or message the other.
    Confirm with the user (explicit yes) before calling.

    Args:
        target_user_id: The id of the account to block.
        user_id: The user's id.
    """
    _, other = two_accounts(db, user_id, target_user_id)
    if db.execute("SELECT 1 FROM blocks WHERE blocker_id = ? AND blocked_id = ?",
                  (user_id, target_user_id)).fetchone():
        raise ToolError(f"You already block @{other['username']}.")
    pair = (user_id, target_user_id, target_user_id, user_id)
    removed = db.execute("DELETE FROM follows WHERE (follower_id = ? AND followee_id = ?) OR "
                         "(follower_id = ? AND followee_id = ?)", pair).rowcount
    db.execute("DELETE FROM mutes WHERE (muter_id = ? AND muted_id = ?) OR "
               "(muter_id = ? AND muted_id = ?)", pair)
    db.execute("UPDATE follow_requests SET status = 'cancelled' WHERE status = 'pending' AND "
               "((requester_id = ? AND target_id = ?) OR (requester_id = ? AND target_id = ?))",
               pair)
    db.execute("INSERT INTO blocks (blocker_id, blocked_id, created_at) VALUES (?, ?, ?)",
               (user_id, target_user_id, NOW))
    return {"target_user_id": target_user_id, "username": other["username"],
            "status": "blocked", "follows_removed": removed}


@tool(Category.WRITE, returns={"target_user_id": UserId}, writes=("user_id",),
      needs=("user_id",))
def unblock_user(db, target_user_id: UserId, user_id: UserId) -> dict:
    """Unblock an account the user has blocked (follows are not restored). Confirm with the
    user (explicit yes) before calling.

    Args:
        target_user_id: The id of the blocked account.
        user_id: The user's id.
    """
    _, other = two_accounts(db, user_id, target_user_id)
    if db.execute("DELETE FROM blocks WHERE blocker_id = ? AND blocked_id = ?",
                  (user_id, target_user_id)).rowcount == 0:
        raise ToolError(f"You do not block @{other['username']}.")
    return {"target_user_id": target_user_id, "username": other["username"],
            "status": "unblocked"}


@tool(Category.WRITE, returns={"target_user_id": UserId}, writes=("user_id",),
      needs=("user_id",))
def mute_user(db, target_user_id: UserId, user_id: UserId) -> dict:
    """Mute an account the user follows: their posts stop showing in the user's feed, and
    they are not told. Confirm with the user (explicit yes) before calling.

    Args:
        target_user_id: The id of the account to mute (one the user follows).
        user_id: The user's id.
    """
    _, other = two_accounts(db, user_id, target_user_id)
    name = f"@{other['username']}"
    if not follows(db, user_id, target_user_id):
        raise ToolError(f"Only an account you follow can be muted; you do not follow {name}.")
    if db.execute("SELECT 1 FROM mutes WHERE muter_id = ? AND muted_id = ?",
                  (user_id, target_user_id)).fetchone():
        raise ToolError(f"You already mute {name}.")
    db.execute("INSERT INTO mutes (muter_id, muted_id, created_at) VALUES (?, ?, ?)",
               (user_id, target_user_id, NOW))
    return {"target_user_id": target_user_id, "username": other["username"], "status": "muted"}


@tool(Category.WRITE, returns={"target_user_id": UserId}, writes=("user_id",),
      needs=("user_id",))
def unmute_user(db, target_user_id: UserId, user_id: UserId) -> dict:
    """Unmute an account the user has muted. Confirm with the user (explicit yes) before
    calling.

    Args:
        target_user_id: The id of the muted account.
        user_id: The user's id.
    """
    _, other = two_accounts(db, user_id, target_user_id)
    if db.execute("DELETE FROM mutes WHERE muter_id = ? AND muted_id = ?",
                  (user_id, target_user_id)).rowcount == 0:
        raise ToolError(f"You do not mute @{other['username']}.")
    return {"target_user_id": target_user_id, "username": other["username"],
            "status": "unmuted"}


@tool(Category.WRITE, returns={"message_id": "message_id", "recipient_id": UserId},
      writes=("message_id",), needs=("user_id",))
def send_message(db, recipient_id: UserId, user_id: UserId, content: str) -> dict:
    """Send a direct message from the user to another account. The recipient's message
    setting must allow it ('everyone'; 'following': only accounts they follow; 'nobody')
    and neither may block the other. Confirm the text with the user (explicit yes) before
    calling.

    Args:
        recipient_id: The id of the account to message.
        user_id: The user's id (the sender).
        content: The text of the message (at most 1000 characters).
    """
    _, other = two_accounts(db, user_id, recipient_id)
    problem = may_message(db, user_id, other)
    if problem:
        raise ToolError(problem)
    content = checked_text(content, "message", MAX_MESSAGE)
    message_id = counted_id(db, "messages", "message_id", "msg_")
    db.execute("INSERT INTO messages (message_id, sender_id, recipient_id, content, sent_at, "
               "is_read) VALUES (?, ?, ?, ?, ?, 0)",
               (message_id, user_id, recipient_id, content, NOW))
    return {"message_id": message_id, "recipient_id": recipient_id,
            "recipient_username": other["username"], "content": content, "sent_at": NOW}


def _file_report(db: sqlite3.Connection, user_id: str, author: str, column: str, target: str,
                 reason: str) -> dict:
    if author == user_id:
        raise ToolError("You cannot report your own content.")
    if db.execute(f"SELECT 1 FROM reports WHERE reporter_id = ? AND {column} = ?",
                  (user_id, target)).fetchone():
        raise ToolError("You have already reported this.")
    report_id = counted_id(db, "reports", "report_id", "rpt_")
    db.execute(f"INSERT INTO reports (report_id, reporter_id, reported_user_id, {column}, "
               "reason, status, created_at) VALUES (?, ?, ?, ?, ?, 'open', ?)",
               (report_id, user_id, author, target, reason, NOW))
    return {"report_id": report_id, column: target, "reason": reason, "status": "open",
            "created_at": NOW}


@tool(Category.WRITE, returns={"report_id": "report_id", "post_id": PostId},
      writes=("report_id",), needs=("post_id",))
def report_post(db, post_id: PostId, user_id: UserId, reason: ReportReason) -> dict:
    """Report another account's post to the moderators. A post is reported at most once by
    the same user. Confirm the reason with the user (explicit yes) before calling.

    Args:
        post_id: The post's id.
        user_id: The user's id (the reporter).
        reason: 'spam', 'harassment', 'hate_speech', 'misinformation', 'impersonation' or
            'other'.
    """
    post, _ = visible_post(db, user_id, post_id)
    if post["status"] != "published":
        raise ToolError("A deleted post cannot be reported.")
    return _file_report(db, user_id, post["author_id"], "post_id", post_id, reason)


@tool(Category.WRITE, returns={"report_id": "report_id", "comment_id": CommentId},
      writes=("report_id",), needs=("comment_id",))
def report_comment(db, comment_id: CommentId, user_id: UserId, reason: ReportReason) -> dict:
    """Report another account's comment to the moderators. A comment is reported at most
    once by the same user. Confirm the reason with the user (explicit yes) before calling.

    Args:
        comment_id: The comment's id.
        user_id: The user's id (the reporter).
        reason: 'spam', 'harassment', 'hate_speech', 'misinformation', 'impersonation' or
            'other'.
    """
    account(db, user_id)
    post_id, author, status = fetch_row(
        db, "SELECT post_id, author_id, status FROM comments WHERE comment_id = ?",
        (comment_id,), f"Comment {comment_id!r} not found.")
    if status != "visible":
        raise ToolError("A deleted comment cannot be reported.")
    visible_post(db, user_id, post_id)
    return _file_report(db, user_id, author, "comment_id", comment_id, reason)


@tool(Category.WRITE, returns={"user_id": UserId}, writes=("user_id", "request_id"),
      needs=("user_id",))
def set_account_privacy(db, user_id: UserId, visibility: Visibility) -> dict:
    """Make the user's account public or private. Making it public accepts every pending
    follow request at once. Confirm with the user (explicit yes) before calling.

    Args:
        user_id: The user's id.
        visibility: 'public' or 'private'.
    """
    user = account(db, user_id)
    if user["visibility"] == visibility:
        raise ToolError(f"The account is already {visibility}.")
    accepted = 0
    if visibility == "public":
        db.execute("INSERT OR IGNORE INTO follows (follower_id, followee_id, since) "
                   "SELECT requester_id, target_id, ? FROM follow_requests "
                   "WHERE target_id = ? AND status = 'pending'", (TODAY, user_id))
        accepted = db.execute("UPDATE follow_requests SET status = 'accepted' "
                              "WHERE target_id = ? AND status = 'pending'", (user_id,)).rowcount
    db.execute("UPDATE users SET visibility = ? WHERE user_id = ?", (visibility, user_id))
    return {"user_id": user_id, "account_visibility": visibility,
            "follow_requests_accepted": accepted}


@tool(Category.WRITE, returns={"user_id": UserId}, writes=("user_id",), needs=("user_id",))
def set_message_permission(db, user_id: UserId, audience: DmPolicy) -> dict:
    """Choose who may send the user direct messages. Confirm with the user (explicit yes)
    before calling.

    Args:
        user_id: The user's id.
        audience: 'everyone', 'following' (only accounts the user follows) or 'nobody'.
    """
    user = account(db, user_id)
    if user["dm_policy"] == audience:
        raise ToolError(f"Direct messages are already set to {audience!r}.")
    db.execute("UPDATE users SET dm_policy = ? WHERE user_id = ?", (audience, user_id))
    return {"user_id": user_id, "accepts_messages_from": audience}
