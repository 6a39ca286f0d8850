"""Each social media tool: its success path and its error paths; failed writes change nothing."""

from __future__ import annotations

from collections import Counter

from tool_gym.core.tools import Category
from tool_gym.domains.social_media import DOMAIN
from tool_gym.domains.social_media.tools import TODAY

from ..calls import fails, ok, one, rules_catch


def public_stranger(box, user):
    """A public account that ``user`` neither follows nor blocks, with no pending request."""
    return one(box, "SELECT u.user_id FROM users u WHERE u.visibility = 'public' AND u.user_id != ? "
                    "AND NOT EXISTS (SELECT 1 FROM follows f WHERE f.follower_id = ? AND "
                    "f.followee_id = u.user_id) AND NOT EXISTS (SELECT 1 FROM blocks b WHERE "
                    "b.blocker_id IN (?, u.user_id) AND b.blocked_id IN (?, u.user_id)) "
                    "ORDER BY u.user_id LIMIT 1", (user, user, user, user))[0]


def a_follow(box):
    """``(follower, followee)`` of a follow."""
    return one(box, "SELECT follower_id, followee_id FROM follows ORDER BY rowid LIMIT 1")


def count(box, sql, params=()):
    return one(box, sql, params)[0]


# ------------------------------------------------------------------------- schemas


def test_toolbox_has_thirteen_reads_and_nineteen_writes():
    counts = Counter(t.category for t in DOMAIN.toolbox)
    assert counts[Category.READ] == 13 and counts[Category.WRITE] == 19
    assert counts[Category.GENERIC] == 1


# --------------------------------------------------------------------------- reads

def test_find_user(box, state):
    user = state["users"][5]
    assert ok(box, "find_user_by_email", email=f" {user['email'].upper()} ") == user["user_id"]
    assert ok(box, "find_user_by_username", username="@" + user["username"]) == user["user_id"]
    fails(box, "find_user_by_email", "no account", email="nobody@example.com")
    fails(box, "find_user_by_username", "no account", username="nobody")


def test_profile_counts(box):
    user, = one(box, "SELECT user_id FROM users WHERE visibility = 'private' LIMIT 1")
    profile = ok(box, "get_user_profile", user_id=user)
    assert profile["follower_count"] == count(box, "SELECT count(*) FROM follows "
                                                   "WHERE followee_id = ?", (user,))
    assert profile["following_count"] == len(ok(box, "list_following",
                                                user_id=user)["following"])
    assert profile["pending_follow_requests"] == len(ok(box, "list_follow_requests",
                                                        user_id=user)["incoming"])
    assert profile["account_visibility"] == "private" and "@" in profile["email"]
    fails(box, "get_user_profile", "not found", user_id="usr_missing")


def test_search_users(box, state):
    user = state["users"][3]
    found = ok(box, "search_users", query="@" + user["username"].upper())["users"]
    assert user["user_id"] in [u["user_id"] for u in found]
    assert all("email" not in u for u in found)
    by_name = ok(box, "search_users", query=user["display_name"].split()[1].lower())["users"]
    assert by_name and len(by_name) <= 20
    fails(box, "search_users", "at least 2", query=" a ")


def test_followers_and_following(box):
    follower, followee = a_follow(box)
    followers = ok(box, "list_followers", user_id=followee)["followers"]
    assert follower in [f["user_id"] for f in followers]
    since = [f["following_since"] for f in followers]
    assert since == sorted(since, reverse=True)
    following = ok(box, "list_following", user_id=follower)["following"]
    assert followee in [f["user_id"] for f in following]
    muter, muted = one(box, "SELECT muter_id, muted_id FROM mutes LIMIT 1")
    marks = {f["user_id"]: f["muted"] for f in ok(box, "list_following",
                                                  user_id=muter)["following"]}
    assert marks[muted] is True
    for name in ("list_followers", "list_following", "list_follow_requests",
                 "list_conversations", "list_blocked_and_muted", "list_reports"):
        fails(box, name, "not found", user_id="usr_missing")


def test_follow_requests_list(box):
    target, requester = one(box, "SELECT target_id, requester_id FROM follow_requests "
                                 "WHERE status = 'pending' LIMIT 1")
    incoming = ok(box, "list_follow_requests", user_id=target)["incoming"]
    assert requester in [r["user_id"] for r in incoming]
    outgoing = ok(box, "list_follow_requests", user_id=requester)["outgoing"]
    assert target in [r["user_id"] for r in outgoing]


def test_list_posts_respects_privacy(box):
    author, = one(box, "SELECT author_id FROM posts WHERE status = 'deleted' LIMIT 1")
    own = ok(box, "list_posts", user_id=author, author_id=author)["posts"]
    assert {p["status"] for p in own} >= {"deleted"}
    assert all(p["deleted_on"] for p in own if p["status"] == "deleted")
    private, = one(box, "SELECT user_id FROM users WHERE visibility = 'private' LIMIT 1")
    stranger, = one(box, "SELECT u.user_id FROM users u WHERE u.user_id != ? AND NOT EXISTS "
                         "(SELECT 1 FROM follows f WHERE f.follower_id = u.user_id AND "
                         "f.followee_id = ?) LIMIT 1", (private, private))
    fails(box, "list_posts", "private", user_id=stranger, author_id=private)
    follower, = one(box, "SELECT follower_id FROM follows WHERE followee_id = ? LIMIT 1",
                    (private,))
    seen = ok(box, "list_posts", user_id=follower, author_id=private)["posts"]
    assert seen and all(p["status"] == "published" for p in seen)
    blocker, blocked = one(box, "SELECT blocker_id, blocked_id FROM blocks LIMIT 1")
    fails(box, "list_posts", "blocks", user_id=blocked, author_id=blocker)
    fails(box, "list_posts", "not found", user_id=blocker, author_id="usr_missing")


def test_get_post(box):
    post, author = one(box, "SELECT p.post_id, p.author_id FROM posts p WHERE p.status = "
                            "'published' AND (SELECT count(*) FROM comments c WHERE c.post_id = "
                            "p.post_id AND c.status = 'visible') >= 2 LIMIT 1")
    record = ok(box, "get_post", user_id=author, post_id=post)
    assert len(record["comments"]) == record["comment_count"] >= 2
    times = [c["created_at"] for c in record["comments"]]
    assert times == sorted(times) and record["liked_by_you"] is False
    deleted, owner = one(box, "SELECT post_id, author_id FROM posts WHERE status = 'deleted' "
                              "LIMIT 1")
    assert ok(box, "get_post", user_id=owner, post_id=deleted)["status"] == "deleted"
    other, = one(box, "SELECT user_id FROM users WHERE user_id != ? LIMIT 1", (owner,))
    fails(box, "get_post", "not found", user_id=other, post_id=deleted)
    fails(box, "get_post", "not found", user_id=author, post_id="pst_missing")


def test_conversations(box):
    sender, recipient = one(box, "SELECT sender_id, recipient_id FROM messages LIMIT 1")
    talks = ok(box, "list_conversations", user_id=sender)["conversations"]
    assert recipient in [c["user_id"] for c in talks]
    thread = ok(box, "get_conversation", user_id=sender, other_user_id=recipient)
    assert thread["messages"] and all(isinstance(m["read"], bool) for m in thread["messages"])
    fails(box, "get_conversation", "your own account", user_id=sender, other_user_id=sender)
    fails(box, "get_conversation", "not found", user_id=sender, other_user_id="usr_missing")


def test_blocked_and_reports(box):
    blocker, blocked = one(box, "SELECT blocker_id, blocked_id FROM blocks LIMIT 1")
    lists = ok(box, "list_blocked_and_muted", user_id=blocker)
    assert blocked in [b["user_id"] for b in lists["blocked"]]
    reporter, = one(box, "SELECT reporter_id FROM reports LIMIT 1")
    reports = ok(box, "list_reports", user_id=reporter)["reports"]
    assert reports and all(r["status"] in ("open", "resolved", "rejected") for r in reports)
    assert ok(box, "transfer_to_human_agents", summary="help") == "Transfer successful"


# -------------------------------------------------------------------------- writes

def test_follow_public_and_private(box):
    user, = one(box, "SELECT user_id FROM users ORDER BY rowid LIMIT 1")
    target = public_stranger(box, user)
    made = ok(box, "follow_user", target_user_id=target, user_id=user)
    assert made["status"] == "following"
    assert count(box, "SELECT count(*) FROM follows WHERE follower_id = ? AND followee_id = ?",
                 (user, target)) == 1
    private, = one(box, "SELECT u.user_id FROM users u WHERE u.visibility = 'private' AND "
                        "u.user_id != ? AND NOT EXISTS (SELECT 1 FROM follows f WHERE "
                        "f.follower_id = ? AND f.followee_id = u.user_id) AND NOT EXISTS ("
                        "SELECT 1 FROM follow_requests r WHERE r.requester_id = ? AND "
                        "r.target_id = u.user_id AND r.status = 'pending') AND NOT EXISTS ("
                        "SELECT 1 FROM blocks b WHERE b.blocker_id IN (?, u.user_id) AND "
                        "b.blocked_id IN (?, u.user_id)) LIMIT 1", (user,) * 5)
    request = ok(box, "follow_user", target_user_id=private, user_id=user)
    assert request["status"] == "requested" and request["request_id"].startswith("frq_")
    before = box.state_hash()
    fails(box, "follow_user", "already pending", target_user_id=private, user_id=user)
    fails(box, "follow_user", "already follow", target_user_id=target, user_id=user)
    fails(box, "follow_user", "your own account", target_user_id=user, user_id=user)
    fails(box, "follow_user", "not found", target_user_id="usr_missing", user_id=user)
    blocker, blocked = one(box, "SELECT blocker_id, blocked_id FROM blocks LIMIT 1")
    fails(box, "follow_user", "blocks", target_user_id=blocker, user_id=blocked)
    assert box.state_hash() == before
    assert box.check_integrity() == []


def test_unfollow_lifts_the_mute(box):
    muter, muted = one(box, "SELECT muter_id, muted_id FROM mutes LIMIT 1")
    ok(box, "unfollow_user", target_user_id=muted, user_id=muter)
    assert count(box, "SELECT count(*) FROM mutes WHERE muter_id = ? AND muted_id = ?",
                 (muter, muted)) == 0
    fails(box, "unfollow_user", "do not follow", target_user_id=muted, user_id=muter)
    assert box.check_integrity() == []


def test_respond_to_follow_request(box):
    first, second = box.db.execute("SELECT request_id, requester_id, target_id FROM "
                                   "follow_requests WHERE status = 'pending' LIMIT 2").fetchall()
    made = ok(box, "respond_to_follow_request", request_id=first[0], decision="accept")
    assert made["status"] == "accepted"
    assert count(box, "SELECT count(*) FROM follows WHERE follower_id = ? AND followee_id = ?",
                 first[1:]) == 1
    assert ok(box, "respond_to_follow_request", request_id=second[0],
              decision="decline")["status"] == "declined"
    before = box.state_hash()
    fails(box, "respond_to_follow_request", "not pending", request_id=first[0],
          decision="decline")
    fails(box, "respond_to_follow_request", "not found", request_id="frq_missing",
          decision="accept")
    fails(box, "respond_to_follow_request", "must be one of", request_id=second[0],
          decision="maybe")
    assert box.state_hash() == before
    assert box.check_integrity() == []


def test_block_removes_follows_and_requests(box):
    target, user = one(box, "SELECT f.follower_id, f.followee_id FROM follows f JOIN follows g "
                            "ON g.follower_id = f.followee_id AND g.followee_id = f.follower_id "
                            "LIMIT 1")
    made = ok(box, "block_user", target_user_id=target, user_id=user)
    assert made["follows_removed"] == 2
    fails(box, "block_user", "already block", target_user_id=target, user_id=user)
    fails(box, "follow_user", "blocks", target_user_id=user, user_id=target)
    fails(box, "send_message", "blocked", recipient_id=user, user_id=target, content="hi")
    requester, private = one(box, "SELECT requester_id, target_id FROM follow_requests "
                                  "WHERE status = 'pending' LIMIT 1")
    ok(box, "block_user", target_user_id=requester, user_id=private)
    assert count(box, "SELECT count(*) FROM follow_requests WHERE requester_id = ? AND "
                      "target_id = ? AND status = 'pending'", (requester, private)) == 0
    assert box.check_integrity() == []
    ok(box, "unblock_user", target_user_id=target, user_id=user)
    fails(box, "unblock_user", "do not block", target_user_id=target, user_id=user)
    assert count(box, "SELECT count(*) FROM follows WHERE follower_id = ? AND followee_id = ?",
                 (target, user)) == 0  # unblocking restores nothing


def test_mute_and_unmute(box):
    user, followee = one(box, "SELECT f.follower_id, f.followee_id FROM follows f WHERE NOT "
                              "EXISTS (SELECT 1 FROM mutes m WHERE m.muter_id = f.follower_id "
                              "AND m.muted_id = f.followee_id) LIMIT 1")
    assert ok(box, "mute_user", target_user_id=followee, user_id=user)["status"] == "muted"
    fails(box, "mute_user", "already mute", target_user_id=followee, user_id=user)
    stranger = public_stranger(box, user)
    fails(box, "mute_user", "only an account you follow", target_user_id=stranger, user_id=user)
    assert ok(box, "unmute_user", target_user_id=followee, user_id=user)["status"] == "unmuted"
    fails(box, "unmute_user", "do not mute", target_user_id=followee, user_id=user)


def test_posts_delete_and_restore(box):
    user, = one(box, "SELECT user_id FROM users LIMIT 1")
    post = ok(box, "create_post", user_id=user, content="  Hello world  ", audience="followers")
    assert post["content"] == "Hello world" and post["status"] == "published"
    before = box.state_hash()
    fails(box, "create_post", "must not be empty", user_id=user, content="   ")
    fails(box, "create_post", "too long", user_id=user, content="x" * 2201)
    fails(box, "create_post", "must be one of", user_id=user, content="hi", audience="friends")
    assert box.state_hash() == before
    gone = ok(box, "delete_post", post_id=post["post_id"])
    assert gone["deleted_on"] == TODAY
    fails(box, "delete_post", "already deleted", post_id=post["post_id"])
    back = ok(box, "restore_post", post_id=post["post_id"])
    assert back["status"] == "published" and back["deleted_on"] is None
    fails(box, "restore_post", "only a deleted post", post_id=post["post_id"])
    fails(box, "restore_post", "not found", post_id="pst_missing")
    assert box.check_integrity() == []


def test_likes_need_a_visible_post(box):
    follower, author = a_follow(box)
    post, = one(box, "SELECT p.post_id FROM posts p WHERE p.author_id = ? AND p.status = "
                     "'published' AND NOT EXISTS (SELECT 1 FROM likes l WHERE l.post_id = "
                     "p.post_id AND l.user_id = ?) LIMIT 1", (author, follower))
    liked = ok(box, "like_post", post_id=post, user_id=follower)
    fails(box, "like_post", "already like", post_id=post, user_id=follower)
    assert ok(box, "unlike_post", post_id=post, user_id=follower)["like_count"] == \
        liked["like_count"] - 1
    fails(box, "unlike_post", "do not like", post_id=post, user_id=follower)
    hidden, owner = one(box, "SELECT p.post_id, p.author_id FROM posts p JOIN users u ON "
                             "u.user_id = p.author_id WHERE p.status = 'published' AND "
                             "(u.visibility = 'private' OR p.audience = 'followers') LIMIT 1")
    outsider, = one(box, "SELECT u.user_id FROM users u WHERE u.user_id != ? AND NOT EXISTS "
                         "(SELECT 1 FROM follows f WHERE f.follower_id = u.user_id AND "
                         "f.followee_id = ?) LIMIT 1", (owner, owner))
    fails(box, "like_post", "only their followers", post_id=hidden, user_id=outsider)
    deleted, = one(box, "SELECT post_id FROM posts WHERE status = 'deleted' LIMIT 1")
    fails(box, "like_post", "not found", post_id=deleted, user_id=outsider)


def test_comments(box):
    follower, author = a_follow(box)
    post, = one(box, "SELECT post_id FROM posts WHERE author_id = ? AND status = 'published' "
                     "LIMIT 1", (author,))
    made = ok(box, "add_comment", post_id=post, user_id=follower, content="Nice one")
    fails(box, "add_comment", "must not be empty", post_id=post, user_id=follower, content=" ")
    fails(box, "add_comment", "too long", post_id=post, user_id=follower, content="x" * 1001)
    stranger, = one(box, "SELECT user_id FROM users WHERE user_id NOT IN (?, ?) LIMIT 1",
                    (follower, author))
    fails(box, "delete_comment", "only your own", comment_id=made["comment_id"],
          user_id=stranger)
    ok(box, "delete_comment", comment_id=made["comment_id"], user_id=author)  # the post's owner
    fails(box, "delete_comment", "already deleted", comment_id=made["comment_id"],
          user_id=follower)
    fails(box, "delete_comment", "not found", comment_id="cmt_missing", user_id=follower)


def test_messages_respect_the_recipients_setting(box):
    nobody, = one(box, "SELECT user_id FROM users WHERE dm_policy = 'nobody' LIMIT 1")
    sender, = one(box, "SELECT user_id FROM users WHERE user_id != ? AND NOT EXISTS (SELECT 1 "
                       "FROM blocks b WHERE b.blocker_id IN (?, user_id) AND b.blocked_id IN "
                       "(?, user_id)) LIMIT 1", (nobody, nobody, nobody))
    fails(box, "send_message", "does not accept", recipient_id=nobody, user_id=sender,
          content="hi")
    picky, sender = one(box, "SELECT u.user_id, s.user_id FROM users u JOIN users s ON "
                             "s.user_id != u.user_id WHERE u.dm_policy = 'following' AND NOT "
                             "EXISTS (SELECT 1 FROM follows f WHERE f.follower_id = u.user_id AND "
                             "f.followee_id = s.user_id) AND NOT EXISTS (SELECT 1 FROM blocks b "
                             "WHERE b.blocker_id IN (u.user_id, s.user_id) AND b.blocked_id IN "
                             "(u.user_id, s.user_id)) LIMIT 1")
    fails(box, "send_message", "only accepts", recipient_id=picky, user_id=sender, content="hi")
    friend, = one(box, "SELECT follower_id FROM follows WHERE followee_id = ? LIMIT 1", (picky,))
    sent = ok(box, "send_message", recipient_id=friend, user_id=picky, content=" See you! ")
    assert sent["content"] == "See you!"
    fails(box, "send_message", "must not be empty", recipient_id=friend, user_id=picky,
          content="")
    fails(box, "send_message", "your own account", recipient_id=picky, user_id=picky,
          content="hi")


def test_reports(box):
    reporter, post, author = one(
        box, "SELECT f.follower_id, p.post_id, p.author_id FROM follows f JOIN posts p ON "
             "p.author_id = f.followee_id WHERE p.status = 'published' AND NOT EXISTS (SELECT 1 "
             "FROM reports r WHERE r.reporter_id = f.follower_id AND r.post_id = p.post_id) LIMIT 1")
    made = ok(box, "report_post", post_id=post, user_id=reporter, reason="spam")
    assert made["status"] == "open"
    fails(box, "report_post", "already reported", post_id=post, user_id=reporter, reason="other")
    fails(box, "report_post", "your own content", post_id=post, user_id=author, reason="spam")
    fails(box, "report_post", "must be one of", post_id=post, user_id=reporter, reason="rude")
    comment, owner = one(box, "SELECT c.comment_id, p.author_id FROM comments c JOIN posts p ON "
                              "p.post_id = c.post_id WHERE c.status = 'visible' AND "
                              "p.status = 'published' AND c.author_id != p.author_id AND NOT "
                              "EXISTS (SELECT 1 FROM reports r WHERE r.comment_id = c.comment_id) "
                              "LIMIT 1")
    assert ok(box, "report_comment", comment_id=comment, user_id=owner,
              reason="harassment")["comment_id"] == comment
    fails(box, "report_comment", "already reported", comment_id=comment, user_id=owner,
          reason="spam")
    deleted, viewer = one(box, "SELECT c.comment_id, p.author_id FROM comments c JOIN posts p ON "
                               "p.post_id = c.post_id WHERE c.status = 'deleted' LIMIT 1")
    fails(box, "report_comment", "deleted comment", comment_id=deleted, user_id=viewer,
          reason="spam")
    assert box.check_integrity() == []


def test_privacy_settings(box):
    user, pending = one(box, "SELECT target_id, count(*) FROM follow_requests WHERE status = "
                             "'pending' GROUP BY target_id ORDER BY count(*) DESC LIMIT 1")
    followers = count(box, "SELECT count(*) FROM follows WHERE followee_id = ?", (user,))
    fails(box, "set_account_privacy", "already private", user_id=user, visibility="private")
    made = ok(box, "set_account_privacy", user_id=user, visibility="public")
    assert made["follow_requests_accepted"] == pending >= 1
    assert count(box, "SELECT count(*) FROM follows WHERE followee_id = ?",
                 (user,)) == followers + pending
    assert ok(box, "set_account_privacy", user_id=user,
              visibility="private")["follow_requests_accepted"] == 0
    policy, = one(box, "SELECT dm_policy FROM users WHERE user_id = ?", (user,))
    fails(box, "set_message_permission", "already", user_id=user, audience=policy)
    other = "nobody" if policy != "nobody" else "everyone"
    assert ok(box, "set_message_permission", user_id=user,
              audience=other)["accepts_messages_from"] == other
    assert box.check_integrity() == []


def test_created_ids_never_clash_with_generated_ones(box):
    user, = one(box, "SELECT user_id FROM users LIMIT 1")
    first = ok(box, "create_post", user_id=user, content="one")["post_id"]
    second = ok(box, "create_post", user_id=user, content="two")["post_id"]
    assert first != second and first.split("_")[1].isdigit()


def test_invariants_catch_broken_rules(box):
    rules_catch(box, {
        "one blocks the other": "INSERT INTO follows SELECT blocker_id, blocked_id, '2024-01-01' "
        "FROM blocks LIMIT 1",
        "pending follow request is to a private account": "UPDATE users SET visibility = "
        "'public' WHERE user_id = (SELECT target_id FROM follow_requests WHERE status = "
        "'pending' LIMIT 1)",
        "muted account is one the muter follows": "DELETE FROM follows WHERE (follower_id, "
        "followee_id) IN (SELECT muter_id, muted_id FROM mutes LIMIT 1)",
        "not before it was made": "UPDATE posts SET deleted_on = '2000-01-01' WHERE post_id = "
        "(SELECT post_id FROM posts WHERE status = 'deleted' LIMIT 1)",
        "never the reporter": "UPDATE reports SET reported_user_id = (SELECT user_id FROM users "
        "WHERE user_id != reports.reported_user_id AND user_id != reports.reporter_id LIMIT 1) "
        "WHERE report_id = (SELECT report_id FROM reports LIMIT 1)",
        "after the platform's clock": "UPDATE messages SET sent_at = '2024-07-02T09:00:00' "
        "WHERE message_id = (SELECT message_id FROM messages LIMIT 1)"})
