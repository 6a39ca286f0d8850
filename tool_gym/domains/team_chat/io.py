"""The team chat domain's native data: one map per table keyed by the row's key (a composite
key joins its parts with ``/``, e.g. ``"ch_0001/usr_0002"``); ``load``, ``read`` and
``export`` come from :class:`~tool_gym.core.tables.KeyedTables`.
"""

from __future__ import annotations

from ...core.tables import KeyedTables, Table

__all__ = ["load", "read", "export"]

FORMAT = KeyedTables((
    Table("users", ("user_id", "username", "display_name", "email", "title", "status_text",
                    "status_emoji", "presence")),
    Table("workspaces", ("workspace_id", "name")),
    Table("workspace_members", ("workspace_id", "user_id", "role"),
          key=("workspace_id", "user_id")),
    Table("channels", ("channel_id", "workspace_id", "name", "topic", "is_private",
                       "is_archived", "created_by", "created_at")),
    Table("channel_members", ("channel_id", "user_id", "role", "joined_at"),
          key=("channel_id", "user_id")),
    Table("messages", ("message_id", "channel_id", "user_id", "text", "ts", "thread_parent_id",
                       "edited")),
    Table("reactions", ("message_id", "user_id", "emoji"), key=("message_id", "user_id", "emoji")),
    Table("pins", ("message_id", "channel_id", "pinned_by", "pinned_at")),
    Table("invites", ("invite_id", "channel_id", "inviter_id", "invitee_id", "status",
                      "created_at")),
))
load, read, export = FORMAT.load, FORMAT.read, FORMAT.export
