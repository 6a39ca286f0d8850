"""The email domain's native data: one map per table keyed by the row's id; a message holds
its ``recipients`` ({kind, address}), ``labels`` (label ids) and ``attachments`` lists.
``load``, ``read`` and ``export`` come from :class:`~tool_gym.core.tables.KeyedTables`.
"""

from __future__ import annotations

from ...core.tables import KeyedTables, Nested, Table

__all__ = ["load", "read", "export"]

_MESSAGE_PARTS = (
    Nested("recipients", "recipients", "message_id", ("kind", "address")),
    Nested("labels", "message_labels", "message_id", ("label_id",), scalar=True),
    Nested("attachments", "attachments", "message_id",
           ("attachment_id", "filename", "mime_type", "size_bytes")),
)

FORMAT = KeyedTables((
    Table("users", ("user_id", "name", "email", "signature")),
    Table("folders", ("folder_id", "user_id", "name", "kind", "parent_id")),
    Table("labels", ("label_id", "user_id", "name", "color")),
    Table("threads", ("thread_id", "user_id", "subject")),
    Table("messages", ("message_id", "user_id", "thread_id", "folder_id", "status", "sender",
                       "sender_name", "subject", "body", "sent_at", "is_read", "is_starred",
                       "in_reply_to"), nested=_MESSAGE_PARTS),
    Table("contacts", ("contact_id", "user_id", "name", "email")),
    Table("filters", ("filter_id", "user_id", "from_address", "subject_contains", "action",
                      "folder_id", "label_id")),
    Table("blocked_addresses", ("address", "reason", "added_on")),
))
load, read, export = FORMAT.load, FORMAT.read, FORMAT.export
