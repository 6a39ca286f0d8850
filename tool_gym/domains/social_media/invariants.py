"""Rules every social media database keeps (generated data and after any tool call).

``invariants(db)`` returns the problems found (empty when every rule holds).
"""

from __future__ import annotations

from ...core.rules import rule_checker

RULES: list[tuple[str, str]] = [
    ("no follow between accounts where one blocks the other",
     "SELECT f.follower_id || ' -> ' || f.followee_id FROM follows f JOIN blocks b "
     "ON (b.blocker_id = f.follower_id AND b.blocked_id = f.followee_id) "
     "OR (b.blocker_id = f.followee_id AND b.blocked_id = f.follower_id)"),
    ("a pending follow request is to a private account",
     "SELECT r.request_id FROM follow_requests r JOIN users u ON u.user_id = r.target_id "
     "WHERE r.status = 'pending' AND u.visibility != 'private'"),
    ("a pending follow request comes from an account that does not follow yet",
     "SELECT r.request_id FROM follow_requests r JOIN follows f "
     "ON f.follower_id = r.requester_id AND f.followee_id = r.target_id "
     "WHERE r.status = 'pending'"),
    ("no pending follow request between accounts where one blocks the other",
     "SELECT r.request_id FROM follow_requests r JOIN blocks b "
     "ON (b.blocker_id = r.requester_id AND b.blocked_id = r.target_id) "
     "OR (b.blocker_id = r.target_id AND b.blocked_id = r.requester_id) "
     "WHERE r.status = 'pending'"),
    ("a muted account is one the muter follows",
     "SELECT m.muter_id || ' mutes ' || m.muted_id FROM mutes m WHERE NOT EXISTS ("
     "SELECT 1 FROM follows f WHERE f.follower_id = m.muter_id AND f.followee_id = m.muted_id)"),
    ("a post is deleted exactly when it has a deletion day, not before it was made",
     "SELECT post_id FROM posts WHERE (status = 'deleted') != (deleted_on IS NOT NULL) "
     "OR deleted_on < substr(created_at, 1, 10)"),
    ("a comment is not older than its post",
     "SELECT c.comment_id FROM comments c JOIN posts p ON p.post_id = c.post_id "
     "WHERE c.created_at < p.created_at"),
    ("a report names the author of the reported content, never the reporter",
     "SELECT r.report_id FROM reports r LEFT JOIN posts p ON p.post_id = r.post_id "
     "LEFT JOIN comments c ON c.comment_id = r.comment_id "
     "WHERE r.reported_user_id != coalesce(p.author_id, c.author_id) "
     "OR r.reporter_id = r.reported_user_id"),
    ("nothing happens after the platform's clock",
     "SELECT post_id FROM posts WHERE created_at > '2024-07-01T12:00:00' "
     "UNION ALL SELECT message_id FROM messages WHERE sent_at > '2024-07-01T12:00:00' "
     "UNION ALL SELECT comment_id FROM comments WHERE created_at > '2024-07-01T12:00:00'"),
]


invariants = rule_checker(RULES)
