"""Rules every email database keeps: mailboxes, folders, threads and filters.

``invariants(db)`` returns the problems found (empty when every rule holds).
"""

from __future__ import annotations

from ...core.rules import rule_checker

__all__ = ["invariants", "RULES"]

_STAMP = "'[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9] [0-9][0-9]:[0-9][0-9]'"

RULES: list[tuple[str, str]] = [
    ("a mailbox has exactly one folder of each system kind",
     "SELECT u.user_id || ' ' || k.kind FROM users u, (SELECT 'inbox' AS kind UNION SELECT "
     "'sent' UNION SELECT 'drafts' UNION SELECT 'trash' UNION SELECT 'archive' UNION SELECT "
     "'spam') k WHERE (SELECT count(*) FROM folders f WHERE f.user_id = u.user_id AND "
     "f.kind = k.kind) != 1"),
    ("a nested folder lies in a custom folder of the same mailbox",
     "SELECT f.folder_id FROM folders f JOIN folders p ON p.folder_id = f.parent_id "
     "WHERE p.user_id != f.user_id OR p.kind != 'custom' OR f.kind != 'custom'"),
    ("the folder tree has no cycle",
     "WITH RECURSIVE up(start, folder, depth) AS (SELECT folder_id, parent_id, 1 FROM folders "
     "WHERE parent_id IS NOT NULL UNION ALL SELECT up.start, f.parent_id, up.depth + 1 FROM up "
     "JOIN folders f ON f.folder_id = up.folder WHERE f.parent_id IS NOT NULL AND up.depth < "
     "100 AND up.folder != up.start) SELECT DISTINCT start FROM up WHERE folder = start"),
    ("a message lies in a folder and a thread of its own mailbox",
     "SELECT m.message_id FROM messages m JOIN folders f ON f.folder_id = m.folder_id "
     "JOIN threads t ON t.thread_id = m.thread_id WHERE f.user_id != m.user_id "
     "OR t.user_id != m.user_id"),
    ("only drafts are in the Drafts folder, and a draft is there or in the Trash "
     "(trash_message discards one); nothing is moved into Sent",
     "SELECT m.message_id FROM messages m JOIN folders f ON f.folder_id = m.folder_id "
     "WHERE (m.status = 'draft' AND f.kind NOT IN ('drafts', 'trash')) "
     "OR (m.status != 'draft' AND f.kind = 'drafts') "
     "OR (f.kind = 'sent' AND m.status != 'sent')"),
    ("a sent message or draft comes from its mailbox's address",
     "SELECT m.message_id FROM messages m JOIN users u ON u.user_id = m.user_id "
     "WHERE m.status != 'received' AND lower(m.sender) != lower(u.email)"),
    ("a message's labels belong to its mailbox",
     "SELECT x.message_id || ' ' || x.label_id FROM message_labels x JOIN messages m ON "
     "m.message_id = x.message_id JOIN labels l ON l.label_id = x.label_id "
     "WHERE l.user_id != m.user_id"),
    ("a reply answers a message of the same mailbox",
     "SELECT m.message_id FROM messages m JOIN messages o ON o.message_id = m.in_reply_to "
     "WHERE o.user_id != m.user_id"),
    ("a message has at least one recipient in 'to'",
     "SELECT m.message_id FROM messages m WHERE NOT EXISTS (SELECT 1 FROM recipients r "
     "WHERE r.message_id = m.message_id AND r.kind = 'to')"),
    ("every thread has a message",
     "SELECT t.thread_id FROM threads t WHERE NOT EXISTS (SELECT 1 FROM messages m "
     "WHERE m.thread_id = t.thread_id)"),
    ("a filter's folder and label belong to its mailbox; filters never fill Drafts or Sent",
     "SELECT x.filter_id FROM filters x LEFT JOIN folders f ON f.folder_id = x.folder_id "
     "LEFT JOIN labels l ON l.label_id = x.label_id WHERE f.user_id != x.user_id OR "
     "l.user_id != x.user_id OR f.kind IN ('drafts', 'sent')"),
    ("times are YYYY-MM-DD HH:MM",
     f"SELECT message_id FROM messages WHERE sent_at NOT GLOB {_STAMP}"),
]


invariants = rule_checker(RULES)
