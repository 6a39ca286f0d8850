"""Rules every team chat database keeps: members, channels, threads and invites.

``invariants(db)`` returns the problems found (empty when every rule holds).
"""

from __future__ import annotations

from ...core.rules import rule_checker

__all__ = ["invariants", "RULES"]


RULES: list[tuple[str, str]] = [
    ("a channel member belongs to the channel's workspace",
     "SELECT m.channel_id || ' ' || m.user_id FROM channel_members m JOIN channels c ON "
     "c.channel_id = m.channel_id WHERE NOT EXISTS (SELECT 1 FROM workspace_members w WHERE "
     "w.workspace_id = c.workspace_id AND w.user_id = m.user_id)"),
    ("a channel with members has an admin",
     "SELECT c.channel_id FROM channels c WHERE EXISTS (SELECT 1 FROM channel_members m WHERE "
     "m.channel_id = c.channel_id) AND NOT EXISTS (SELECT 1 FROM channel_members m WHERE "
     "m.channel_id = c.channel_id AND m.role = 'admin')"),
    ("every workspace member is in the workspace's #general",
     "SELECT w.workspace_id || ' ' || w.user_id FROM workspace_members w JOIN channels c ON "
     "c.workspace_id = w.workspace_id AND c.name = 'general' WHERE NOT EXISTS (SELECT 1 FROM "
     "channel_members m WHERE m.channel_id = c.channel_id AND m.user_id = w.user_id)"),
    ("a workspace has exactly one owner",
     "SELECT w.workspace_id FROM workspaces w WHERE (SELECT count(*) FROM workspace_members m "
     "WHERE m.workspace_id = w.workspace_id AND m.role = 'owner') != 1"),
    ("a reply answers a top-level message of the same channel",
     "SELECT r.message_id FROM messages r JOIN messages p ON p.message_id = r.thread_parent_id "
     "WHERE p.channel_id != r.channel_id OR p.thread_parent_id IS NOT NULL"),
    ("a pin lies in its message's channel",
     "SELECT p.message_id FROM pins p JOIN messages m ON m.message_id = p.message_id "
     "WHERE m.channel_id != p.channel_id"),
    ("no pending invitation for a member, an archived channel, or twice",
     "SELECT i.invite_id FROM invites i JOIN channels c ON c.channel_id = i.channel_id WHERE "
     "i.status = 'pending' AND (c.is_archived = 1 OR EXISTS (SELECT 1 FROM channel_members m "
     "WHERE m.channel_id = i.channel_id AND m.user_id = i.invitee_id) OR (SELECT count(*) FROM "
     "invites j WHERE j.channel_id = i.channel_id AND j.invitee_id = i.invitee_id AND j.status "
     "= 'pending') > 1)"),
    ("a status emoji is empty or a short code",
     "SELECT user_id FROM users WHERE status_emoji != '' AND status_emoji NOT GLOB ':*:'"),
    ("channel names are unique lowercase names",
     "SELECT channel_id FROM channels WHERE name != lower(name) OR name GLOB '*[^a-z0-9_-]*'"),
    ("times are YYYY-MM-DD HH:MM",
     "SELECT message_id FROM messages WHERE ts NOT GLOB "
     "'[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9] [0-9][0-9]:[0-9][0-9]'"),
]


invariants = rule_checker(RULES)
