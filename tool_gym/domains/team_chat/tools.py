"""The tools of the team chat domain: a company's chat workspaces.

Reads find people, workspaces, channels, members, messages and threads, pins, invitations
and statuses. Writes post and edit messages (threads included), react, pin, join, leave
and create channels, invite people, set topics, archive channels, remove members and set
the user's status. Every write names the acting user (``user_id``).

The tools enforce the data rules (only members post, react, pin or invite; archived
channels are read-only; a private channel is joined only with a pending invitation; only
the author edits a message; a channel keeps an admin). The rule that depends on the
actor's role (only channel admins archive a channel or remove members) is policy, checked
by the task kit's ``policy_violations``.
"""

from __future__ import annotations

import re
import sqlite3
from typing import Annotated, Literal

from ...core.common_tools import human_transfer_tool
from ...core.ids import next_serial_id
from ...core.rows import fetch_record, fetch_row, find_id
from ...core.tools import Category, Entity, Quotas, ToolError, tool
from .generate import NOW

#: Growth bounds of one sandbox (see :class:`~tool_gym.core.tools.Quotas`): templates hold
#: about 4,000 messages.
QUOTAS = Quotas(rows={"messages": 20_000, "channels": 2_000, "channel_members": 20_000,
                      "reactions": 20_000, "pins": 5_000, "invites": 5_000})

UserId = Annotated[str, Entity("user_id")]
WorkspaceId = Annotated[str, Entity("workspace_id")]
ChannelId = Annotated[str, Entity("channel_id")]
MessageId = Annotated[str, Entity("message_id")]
InviteId = Annotated[str, Entity("invite_id")]

_CHANNEL_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,79}$")
_EMOJI = re.compile(r"^:[a-z0-9_+-]{1,40}:$")
MAX_TEXT = 4000
USER_FIELDS = ("user_id", "username", "display_name", "email", "title", "status_text",
               "status_emoji", "presence")
CHANNEL_FIELDS = ("channel_id", "workspace_id", "name", "topic", "is_private", "is_archived",
                  "created_by", "created_at")
MESSAGE_FIELDS = ("message_id", "channel_id", "user_id", "text", "ts", "thread_parent_id",
                  "edited")

# --------------------------------------------------------------------------- helpers


def _user(db: sqlite3.Connection, user_id: str) -> dict:
    return fetch_record(db, "users", USER_FIELDS, "user_id", user_id,
                        f"user not found: {user_id[:60]!r}")


def _channel(db: sqlite3.Connection, channel_id: str) -> dict:
    channel = fetch_record(db, "channels", CHANNEL_FIELDS, "channel_id", channel_id,
                           f"channel not found: {channel_id[:60]!r}")
    channel["is_private"] = bool(channel["is_private"])
    channel["is_archived"] = bool(channel["is_archived"])
    return channel


def _open_channel(db: sqlite3.Connection, channel_id: str) -> dict:
    channel = _channel(db, channel_id)
    if channel["is_archived"]:
        raise ToolError(f"#{channel['name']} is archived (read-only)")
    return channel


def _role(db: sqlite3.Connection, channel_id: str, user_id: str) -> str | None:
    row = db.execute("SELECT role FROM channel_members WHERE channel_id = ? AND user_id = ?",
                     (channel_id, user_id)).fetchone()
    return row[0] if row else None


def _member(db: sqlite3.Connection, channel: dict, user_id: str) -> str:
    _user(db, user_id)
    role = _role(db, channel["channel_id"], user_id)
    if role is None:
        raise ToolError(f"{user_id} is not a member of #{channel['name']}")
    return role


def _members_channel(db: sqlite3.Connection, channel_id: str, user_id: str) -> dict:
    """The channel, once it is open and ``user_id`` is one of its members."""
    channel = _open_channel(db, channel_id)
    _member(db, channel, user_id)
    return channel


def _remove_from_channel(db: sqlite3.Connection, channel: dict, member_id: str,
                         refusal: str) -> None:
    """Take a member out of ``channel``; ``refusal`` is the error for #general, and a
    channel keeps an admin while it has other members."""
    _member(db, channel, member_id)
    if channel["name"] == "general":
        raise ToolError(refusal)
    _keeps_an_admin(db, channel["channel_id"], member_id)
    db.execute("DELETE FROM channel_members WHERE channel_id = ? AND user_id = ?",
               (channel["channel_id"], member_id))


def _in_workspace(db: sqlite3.Connection, workspace_id: str, user_id: str) -> str:
    row = fetch_row(db, "SELECT role FROM workspace_members WHERE workspace_id = ? AND user_id = ?",
                    (workspace_id, user_id),
                    f"{user_id[:60]} is not a member of workspace {workspace_id[:60]}")
    return row[0]


def _message_row(db: sqlite3.Connection, message_id: str) -> dict:
    return fetch_record(db, "messages", MESSAGE_FIELDS, "message_id", message_id,
                        f"message not found: {message_id[:60]!r}")


def _member_message(db: sqlite3.Connection, message_id: str, user_id: str) -> dict:
    """The message's row, once ``user_id`` is a member of its channel (which is open)."""
    m = _message_row(db, message_id)
    _members_channel(db, m["channel_id"], user_id)
    return m


def _message(db: sqlite3.Connection, message_id: str) -> dict:
    m = _message_row(db, message_id)
    m["edited"] = bool(m["edited"])
    m["author"] = db.execute("SELECT display_name FROM users WHERE user_id = ?",
                             (m["user_id"],)).fetchone()[0]
    m["reply_count"] = db.execute("SELECT count(*) FROM messages WHERE thread_parent_id = ?",
                                  (message_id,)).fetchone()[0]
    m["reactions"] = [{"emoji": e, "count": n} for e, n in db.execute(
        "SELECT emoji, count(*) FROM reactions WHERE message_id = ? GROUP BY emoji ORDER BY emoji",
        (message_id,))]
    m["pinned"] = db.execute("SELECT 1 FROM pins WHERE message_id = ?",
                             (message_id,)).fetchone() is not None
    return m


def _text(text: str) -> str:
    if not text.strip():
        raise ToolError("the text is empty")
    if len(text) > MAX_TEXT:
        raise ToolError(f"the text is too long (at most {MAX_TEXT} characters)")
    return text


def _emoji(emoji: str) -> str:
    if not _EMOJI.match(emoji):
        raise ToolError(f"invalid emoji {emoji[:40]!r}: use a short code such as ':thumbsup:'")
    return emoji


def _summary(db: sqlite3.Connection, channel: dict, user_id: str | None = None) -> dict:
    out = {k: channel[k] for k in ("channel_id", "name", "topic", "is_private", "is_archived")}
    out["members"] = db.execute("SELECT count(*) FROM channel_members WHERE channel_id = ?",
                                (channel["channel_id"],)).fetchone()[0]
    if user_id is not None:
        out["my_role"] = _role(db, channel["channel_id"], user_id)
    return out


# ------------------------------------------------------------------------------ READ


@tool(Category.READ, returns={"user_id": UserId})
def find_user_by_username(db, username: str) -> dict:
    """Find a user by their username (handle, with or without '@'). Use it (or
    find_user_by_email) first, to authenticate the user.

    Args:
        username: The username, such as 'maya.lopez' or '@maya.lopez'.
    """
    return _user(db, find_id(db, "users", "user_id", "username", username.strip().lstrip("@"),
                             "no user with this username"))


@tool(Category.READ, returns={"user_id": UserId})
def find_user_by_email(db, email: str) -> dict:
    """Find a user by their email address. Use it (or find_user_by_username) first, to
    authenticate the user.

    Args:
        email: The user's email address, such as 'maya.lopez@orbitly.com'.
    """
    return _user(db, find_id(db, "users", "user_id", "email", email.strip(),
                             "no user with this email address"))


@tool(Category.READ, returns={"user_id": UserId})
def get_user_profile(db, user_id: UserId) -> dict:
    """Get a user's profile: name, title, status text and emoji, presence.

    Args:
        user_id: The user's id, such as 'usr_0001'.
    """
    return _user(db, user_id)


@tool(Category.READ, returns={"workspaces.workspace_id": WorkspaceId})
def list_workspaces(db, user_id: UserId) -> dict:
    """List the workspaces a user belongs to, with their role in each.

    Args:
        user_id: The user's id.
    """
    _user(db, user_id)
    return {"workspaces": [{"workspace_id": w, "name": n, "role": r} for w, n, r in db.execute(
        "SELECT w.workspace_id, w.name, m.role FROM workspace_members m JOIN workspaces w ON "
        "w.workspace_id = m.workspace_id WHERE m.user_id = ? ORDER BY w.workspace_id",
        (user_id,))]}


@tool(Category.READ, returns={"users.user_id": UserId})
def search_users(db, workspace_id: WorkspaceId, query: str) -> dict:
    """Search the members of a workspace by display name or username (case-insensitive,
    part of the name is enough). At most 20 results, with their status.

    Args:
        workspace_id: The workspace's id, such as 'ws_01'.
        query: Part of a name or username, such as 'maya'.
    """
    if db.execute("SELECT 1 FROM workspaces WHERE workspace_id = ?",
                  (workspace_id,)).fetchone() is None:
        raise ToolError(f"workspace not found: {workspace_id[:60]!r}")
    text = query.strip().lstrip("@").lower()
    if len(text) < 2:
        raise ToolError("the query must have at least 2 characters")
    rows = db.execute(
        f"SELECT {', '.join('u.' + f for f in USER_FIELDS)} FROM users u JOIN workspace_members "
        "m ON m.user_id = u.user_id WHERE m.workspace_id = ? AND (instr(lower(u.display_name), ?) "
        "> 0 OR instr(lower(u.username), ?) > 0) ORDER BY u.display_name LIMIT 20",
        (workspace_id, text, text))
    return {"users": [dict(zip(USER_FIELDS, r)) for r in rows]}


@tool(Category.READ, returns={"channels.channel_id": ChannelId})
def list_channels(db, workspace_id: WorkspaceId, user_id: UserId) -> dict:
    """List the channels of a workspace that a user can see: every public channel (archived
    ones included) and the private channels the user belongs to, with the user's role.

    Args:
        workspace_id: The workspace's id.
        user_id: The user's id (a member of the workspace).
    """
    _user(db, user_id)
    _in_workspace(db, workspace_id, user_id)
    rows = db.execute(
        f"SELECT {', '.join('c.' + f for f in CHANNEL_FIELDS)} FROM channels c WHERE "
        "c.workspace_id = ? AND (c.is_private = 0 OR EXISTS (SELECT 1 FROM channel_members m "
        "WHERE m.channel_id = c.channel_id AND m.user_id = ?)) ORDER BY c.name",
        (workspace_id, user_id))
    return {"channels": [_summary(db, _channel(db, r[0]), user_id) for r in rows]}


@tool(Category.READ, returns={"channel_id": ChannelId, "workspace_id": WorkspaceId,
                              "admins.user_id": UserId})
def get_channel(db, channel_id: ChannelId) -> dict:
    """Get a channel's details: topic, privacy, archived state, creator, member count and
    admins.

    Args:
        channel_id: The channel's id, such as 'ch_0004'.
    """
    channel = _channel(db, channel_id)
    out = {**channel, **_summary(db, channel)}
    out["admins"] = [{"user_id": u, "display_name": n} for u, n in db.execute(
        "SELECT m.user_id, u.display_name FROM channel_members m JOIN users u ON u.user_id = "
        "m.user_id WHERE m.channel_id = ? AND m.role = 'admin' ORDER BY m.user_id", (channel_id,))]
    return out


@tool(Category.READ, returns={"members.user_id": UserId})
def list_channel_members(db, channel_id: ChannelId) -> dict:
    """List the members of a channel with their role ('admin' or 'member').

    Args:
        channel_id: The channel's id.
    """
    _channel(db, channel_id)
    return {"members": [{"user_id": u, "display_name": n, "username": h, "role": r}
                        for u, n, h, r in db.execute(
        "SELECT m.user_id, u.display_name, u.username, m.role FROM channel_members m JOIN users "
        "u ON u.user_id = m.user_id WHERE m.channel_id = ? ORDER BY u.display_name",
        (channel_id,))]}


@tool(Category.READ, returns={"messages.message_id": MessageId, "messages.user_id": UserId})
def get_channel_messages(db, channel_id: ChannelId, limit: int = 20) -> dict:
    """Get the latest top-level messages of a channel, newest first, with reply counts,
    reactions and pins.

    Args:
        channel_id: The channel's id.
        limit: At most this many messages (1 to 100).
    """
    _channel(db, channel_id)
    if not 1 <= limit <= 100:
        raise ToolError("limit must be between 1 and 100")
    rows = db.execute("SELECT message_id FROM messages WHERE channel_id = ? AND thread_parent_id "
                      "IS NULL ORDER BY ts DESC, message_id DESC LIMIT ?", (channel_id, limit))
    return {"messages": [_message(db, m) for m, in rows.fetchall()]}


@tool(Category.READ, returns={"messages.message_id": MessageId, "messages.user_id": UserId})
def get_thread(db, message_id: MessageId) -> dict:
    """Get a thread: the top-level message and its replies, oldest first.

    Args:
        message_id: The id of the thread's top-level message (or of any reply in it).
    """
    m = _message_row(db, message_id)
    parent = m["thread_parent_id"] or message_id
    replies = db.execute("SELECT message_id FROM messages WHERE thread_parent_id = ? ORDER BY ts, "
                         "message_id", (parent,)).fetchall()
    return {"messages": [_message(db, parent)] + [_message(db, r) for r, in replies]}


@tool(Category.READ, returns={"messages.message_id": MessageId,
                              "messages.channel_id": ChannelId, "messages.user_id": UserId})
def search_messages(db, workspace_id: WorkspaceId, user_id: UserId, query: str,
                    from_user_id: str = "", channel_id: str = "") -> dict:
    """Search the messages a user can see in a workspace (public channels and their private
    channels) for a text, newest first, at most 30 results; optionally only the messages of
    one author and/or one channel.

    Args:
        workspace_id: The workspace's id.
        user_id: The id of the user searching.
        query: Text to find (case-insensitive).
        from_user_id: Only messages by this user id; empty for anyone.
        channel_id: Only messages of this channel; empty for every channel.
    """
    _user(db, user_id)
    _in_workspace(db, workspace_id, user_id)
    text = query.strip().lower()
    if len(text) < 2:
        raise ToolError("the query must have at least 2 characters")
    rows = db.execute(
        "SELECT m.message_id FROM messages m JOIN channels c ON c.channel_id = m.channel_id "
        "WHERE c.workspace_id = ? AND (c.is_private = 0 OR EXISTS (SELECT 1 FROM channel_members "
        "x WHERE x.channel_id = c.channel_id AND x.user_id = ?)) AND instr(lower(m.text), ?) > 0 "
        "AND (? = '' OR m.user_id = ?) AND (? = '' OR m.channel_id = ?) "
        "ORDER BY m.ts DESC, m.message_id DESC LIMIT 30",
        (workspace_id, user_id, text, from_user_id, from_user_id, channel_id,
         channel_id)).fetchall()
    out = []
    for m, in rows:
        message = _message(db, m)
        message["channel"] = db.execute("SELECT name FROM channels WHERE channel_id = ?",
                                        (message["channel_id"],)).fetchone()[0]
        out.append(message)
    return {"messages": out}


@tool(Category.READ, returns={"pins.message_id": MessageId})
def list_pinned_messages(db, channel_id: ChannelId) -> dict:
    """List the pinned messages of a channel.

    Args:
        channel_id: The channel's id.
    """
    _channel(db, channel_id)
    rows = db.execute("SELECT message_id, pinned_by, pinned_at FROM pins WHERE channel_id = ? "
                      "ORDER BY pinned_at, message_id", (channel_id,)).fetchall()
    return {"pins": [{**_message(db, m), "pinned_by": by, "pinned_at": at}
                     for m, by, at in rows]}


@tool(Category.READ, returns={"invites.invite_id": InviteId, "invites.channel_id": ChannelId})
def list_invites(db, user_id: UserId) -> dict:
    """List the invitations to channels that a user has received, with their status.

    Args:
        user_id: The user's id.
    """
    _user(db, user_id)
    keys = ("invite_id", "channel_id", "channel", "inviter_id", "status", "created_at")
    return {"invites": [dict(zip(keys, r)) for r in db.execute(
        "SELECT i.invite_id, i.channel_id, c.name, i.inviter_id, i.status, i.created_at FROM "
        "invites i JOIN channels c ON c.channel_id = i.channel_id WHERE i.invitee_id = ? "
        "ORDER BY i.invite_id", (user_id,))]}


transfer_to_human_agents = human_transfer_tool()


# ----------------------------------------------------------------------------- WRITE


@tool(Category.WRITE, returns={"message_id": MessageId, "channel_id": ChannelId},
      writes=("message_id",), needs=("channel_id",))
def post_message(db, channel_id: ChannelId, user_id: UserId, text: str,
                 thread_parent_id: str = "") -> dict:
    """Post a message in a channel as a user (a member), or a reply in a thread when
    thread_parent_id is given.

    Args:
        channel_id: The channel's id.
        user_id: The author's user id.
        text: The message text.
        thread_parent_id: The id of the top-level message to reply to; empty for a new
            message in the channel.
    """
    _members_channel(db, channel_id, user_id)
    text = _text(text)
    parent = None
    if thread_parent_id:
        p = _message_row(db, thread_parent_id)
        if p["channel_id"] != channel_id:
            raise ToolError("the thread's message is in another channel")
        if p["thread_parent_id"] is not None:
            raise ToolError("reply to the thread's top-level message, not to a reply")
        parent = thread_parent_id
    message_id = next_serial_id(db, "messages", "message_id", "msg_", 6)
    db.execute("INSERT INTO messages (message_id, channel_id, user_id, text, ts, "
               "thread_parent_id, edited) VALUES (?, ?, ?, ?, ?, ?, 0)",
               (message_id, channel_id, user_id, text, NOW, parent))
    return _message(db, message_id)


@tool(Category.WRITE, returns={"message_id": MessageId}, writes=("message_id",))
def edit_message(db, message_id: MessageId, user_id: UserId, text: str) -> dict:
    """Change the text of a message; only its author can.

    Args:
        message_id: The message's id.
        user_id: The author's user id.
        text: The new text.
    """
    m = _message_row(db, message_id)
    _open_channel(db, m["channel_id"])
    if m["user_id"] != user_id:
        raise ToolError("only the author can edit a message")
    text = _text(text)
    if text == m["text"]:
        raise ToolError("the message already has this text")
    db.execute("UPDATE messages SET text = ?, edited = 1 WHERE message_id = ?", (text, message_id))
    return _message(db, message_id)


@tool(Category.WRITE, returns={"message_id": MessageId}, writes=("message_id",))
def add_reaction(db, message_id: MessageId, user_id: UserId, emoji: str) -> dict:
    """React to a message with an emoji, as a member of its channel.

    Args:
        message_id: The message's id.
        user_id: The reacting user's id.
        emoji: An emoji short code, such as ':thumbsup:'.
    """
    _member_message(db, message_id, user_id)
    _emoji(emoji)
    if db.execute("SELECT 1 FROM reactions WHERE message_id = ? AND user_id = ? AND emoji = ?",
                  (message_id, user_id, emoji)).fetchone():
        raise ToolError(f"{user_id} already reacted with {emoji}")
    db.execute("INSERT INTO reactions (message_id, user_id, emoji) VALUES (?, ?, ?)",
               (message_id, user_id, emoji))
    return _message(db, message_id)


@tool(Category.WRITE, returns={"message_id": MessageId}, writes=("message_id",))
def remove_reaction(db, message_id: MessageId, user_id: UserId, emoji: str) -> dict:
    """Take back one of a user's reactions to a message.

    Args:
        message_id: The message's id.
        user_id: The user's id.
        emoji: The emoji short code to remove.
    """
    _message_row(db, message_id)
    _user(db, user_id)
    if db.execute("DELETE FROM reactions WHERE message_id = ? AND user_id = ? AND emoji = ?",
                  (message_id, user_id, emoji)).rowcount == 0:
        raise ToolError(f"{user_id} has no {emoji[:40]} reaction on this message")
    return _message(db, message_id)


@tool(Category.WRITE, returns={"message_id": MessageId}, writes=("message_id",))
def pin_message(db, message_id: MessageId, user_id: UserId) -> dict:
    """Pin a message in its channel, as a member of the channel.

    Args:
        message_id: The message's id.
        user_id: The id of the member pinning it.
    """
    m = _member_message(db, message_id, user_id)
    if db.execute("SELECT 1 FROM pins WHERE message_id = ?", (message_id,)).fetchone():
        raise ToolError("the message is already pinned")
    db.execute("INSERT INTO pins (message_id, channel_id, pinned_by, pinned_at) VALUES "
               "(?, ?, ?, ?)", (message_id, m["channel_id"], user_id, NOW))
    return _message(db, message_id)


@tool(Category.WRITE, returns={"message_id": MessageId}, writes=("message_id",))
def unpin_message(db, message_id: MessageId, user_id: UserId) -> dict:
    """Unpin a pinned message, as a member of its channel.

    Args:
        message_id: The message's id.
        user_id: The id of the member unpinning it.
    """
    _member_message(db, message_id, user_id)
    if db.execute("DELETE FROM pins WHERE message_id = ?", (message_id,)).rowcount == 0:
        raise ToolError("the message is not pinned")
    return _message(db, message_id)


@tool(Category.WRITE, returns={"channel_id": ChannelId}, writes=("channel_id",))
def join_channel(db, channel_id: ChannelId, user_id: UserId) -> dict:
    """Join a channel as a member. A public channel is open to every member of its
    workspace; a private channel only to someone with a pending invitation (which it
    accepts).

    Args:
        channel_id: The channel's id.
        user_id: The id of the user joining.
    """
    channel = _open_channel(db, channel_id)
    _user(db, user_id)
    _in_workspace(db, channel["workspace_id"], user_id)
    if _role(db, channel_id, user_id) is not None:
        raise ToolError(f"{user_id} is already a member of #{channel['name']}")
    invite = db.execute("SELECT invite_id FROM invites WHERE channel_id = ? AND invitee_id = ? "
                        "AND status = 'pending'", (channel_id, user_id)).fetchone()
    if channel["is_private"] and invite is None:
        raise ToolError(f"#{channel['name']} is private: it can only be joined with an "
                        f"invitation from a member")
    if invite is not None:
        db.execute("UPDATE invites SET status = 'accepted' WHERE invite_id = ?", (invite[0],))
    db.execute("INSERT INTO channel_members (channel_id, user_id, role, joined_at) VALUES "
               "(?, ?, 'member', ?)", (channel_id, user_id, NOW))
    return _summary(db, channel, user_id)


def _keeps_an_admin(db: sqlite3.Connection, channel_id: str, leaving: str) -> None:
    admins = [u for u, in db.execute("SELECT user_id FROM channel_members WHERE channel_id = ? "
                                     "AND role = 'admin'", (channel_id,))]
    others = db.execute("SELECT count(*) FROM channel_members WHERE channel_id = ? AND "
                        "user_id != ?", (channel_id, leaving)).fetchone()[0]
    if admins == [leaving] and others:
        raise ToolError("the channel's last admin cannot leave it while it has other members")


@tool(Category.WRITE, returns={"channel_id": ChannelId}, writes=("channel_id",))
def leave_channel(db, channel_id: ChannelId, user_id: UserId) -> dict:
    """Leave a channel (the last admin cannot leave while others remain).

    Args:
        channel_id: The channel's id.
        user_id: The id of the user leaving.
    """
    channel = _channel(db, channel_id)
    _remove_from_channel(db, channel, user_id, "nobody can leave #general")
    return _summary(db, channel, user_id)


@tool(Category.WRITE, returns={"invite_id": InviteId, "channel_id": ChannelId},
      writes=("invite_id",), needs=("user_id",))
def invite_to_channel(db, channel_id: ChannelId, user_id: UserId, invitee_id: UserId) -> dict:
    """Invite a member of the workspace to a channel, as a member of the channel. The
    invitation stays pending until the invitee joins.

    Args:
        channel_id: The channel's id.
        user_id: The id of the member sending the invitation.
        invitee_id: The id of the person to invite.
    """
    channel = _members_channel(db, channel_id, user_id)
    _user(db, invitee_id)
    _in_workspace(db, channel["workspace_id"], invitee_id)
    if _role(db, channel_id, invitee_id) is not None:
        raise ToolError(f"{invitee_id} is already a member of #{channel['name']}")
    if db.execute("SELECT 1 FROM invites WHERE channel_id = ? AND invitee_id = ? AND status = "
                  "'pending'", (channel_id, invitee_id)).fetchone():
        raise ToolError(f"{invitee_id} already has a pending invitation to #{channel['name']}")
    invite_id = next_serial_id(db, "invites", "invite_id", "inv_", 4)
    db.execute("INSERT INTO invites (invite_id, channel_id, inviter_id, invitee_id, status, "
               "created_at) VALUES (?, ?, ?, ?, 'pending', ?)",
               (invite_id, channel_id, user_id, invitee_id, NOW))
    return {"invite_id": invite_id, "channel_id": channel_id, "invitee_id": invitee_id,
            "status": "pending"}


@tool(Category.WRITE, returns={"channel_id": ChannelId}, writes=("channel_id",))
def set_channel_topic(db, channel_id: ChannelId, user_id: UserId, topic: str) -> dict:
    """Set a channel's topic, as a member of the channel.

    Args:
        channel_id: The channel's id.
        user_id: The id of the member setting it.
        topic: The new topic (at most 250 characters; empty to clear it).
    """
    channel = _members_channel(db, channel_id, user_id)
    if len(topic) > 250:
        raise ToolError("the topic is too long (at most 250 characters)")
    if topic == channel["topic"]:
        raise ToolError("the channel already has this topic")
    db.execute("UPDATE channels SET topic = ? WHERE channel_id = ?", (topic, channel_id))
    return _summary(db, _channel(db, channel_id), user_id)


@tool(Category.WRITE, returns={"channel_id": ChannelId}, writes=("channel_id",))
def archive_channel(db, channel_id: ChannelId, user_id: UserId) -> dict:
    """Archive a channel: it becomes read-only for everyone. #general cannot be archived.

    Args:
        channel_id: The channel's id.
        user_id: The id of the member archiving it.
    """
    channel = _members_channel(db, channel_id, user_id)
    if channel["name"] == "general":
        raise ToolError("#general cannot be archived")
    db.execute("UPDATE channels SET is_archived = 1 WHERE channel_id = ?", (channel_id,))
    db.execute("UPDATE invites SET status = 'declined' WHERE channel_id = ? AND status = "
               "'pending'", (channel_id,))
    return _summary(db, _channel(db, channel_id), user_id)


@tool(Category.WRITE, returns={"channel_id": ChannelId}, writes=("channel_id",))
def remove_member(db, channel_id: ChannelId, user_id: UserId, member_id: UserId) -> dict:
    """Remove someone else from a channel, as a member of the channel. Nobody is removed
    from #general, and a channel keeps at least one admin.

    Args:
        channel_id: The channel's id.
        user_id: The id of the member doing the removal.
        member_id: The id of the member to remove.
    """
    channel = _members_channel(db, channel_id, user_id)
    if member_id == user_id:
        raise ToolError("use leave_channel to leave a channel")
    _remove_from_channel(db, channel, member_id, "nobody can be removed from #general")
    return _summary(db, _channel(db, channel_id), user_id)


@tool(Category.WRITE, returns={"channel_id": ChannelId, "workspace_id": WorkspaceId},
      writes=("channel_id",))
def create_channel(db, workspace_id: WorkspaceId, user_id: UserId, name: str,
                   is_private: bool = False, topic: str = "") -> dict:
    """Create a channel in a workspace; its creator becomes its admin. Names are lowercase
    letters, digits, '-' and '_', unique in the workspace. Guests cannot create channels.

    Args:
        workspace_id: The workspace's id.
        user_id: The creator's user id.
        name: The channel name, such as 'q4-planning' (without '#').
        is_private: True for a private channel.
        topic: The channel's topic.
    """
    _user(db, user_id)
    if _in_workspace(db, workspace_id, user_id) == "guest":
        raise ToolError("guests cannot create channels")
    name = name.strip().lstrip("#")
    if not _CHANNEL_NAME.match(name):
        raise ToolError("invalid channel name: use lowercase letters, digits, '-' and '_'")
    if db.execute("SELECT 1 FROM channels WHERE workspace_id = ? AND name = ?",
                  (workspace_id, name)).fetchone():
        raise ToolError(f"#{name} already exists in this workspace")
    if len(topic) > 250:
        raise ToolError("the topic is too long (at most 250 characters)")
    channel_id = next_serial_id(db, "channels", "channel_id", "ch_", 4)
    db.execute("INSERT INTO channels (channel_id, workspace_id, name, topic, is_private, "
               "is_archived, created_by, created_at) VALUES (?, ?, ?, ?, ?, 0, ?, ?)",
               (channel_id, workspace_id, name, topic, int(is_private), user_id, NOW))
    db.execute("INSERT INTO channel_members (channel_id, user_id, role, joined_at) VALUES "
               "(?, ?, 'admin', ?)", (channel_id, user_id, NOW))
    return _summary(db, _channel(db, channel_id), user_id)


@tool(Category.WRITE, returns={"user_id": UserId}, writes=("user_id",))
def set_status(db, user_id: UserId, status_text: str, status_emoji: str = "",
               presence: Literal["", "active", "away", "dnd"] = "") -> dict:
    """Set a user's status text and emoji (empty text and emoji clear it), and optionally
    their presence.

    Args:
        user_id: The user's id.
        status_text: The status text, such as 'In a meeting' (at most 100 characters).
        status_emoji: An emoji short code, such as ':calendar:'; empty for none.
        presence: 'active', 'away' or 'dnd' (do not disturb); empty to keep it.
    """
    user = _user(db, user_id)
    text = status_text.strip()
    if len(text) > 100:
        raise ToolError("the status text is too long (at most 100 characters)")
    if status_emoji:
        _emoji(status_emoji)
    new = (text, status_emoji, presence or user["presence"])
    if new == (user["status_text"], user["status_emoji"], user["presence"]):
        raise ToolError("the status is already set this way")
    db.execute("UPDATE users SET status_text = ?, status_emoji = ?, presence = ? WHERE "
               "user_id = ?", (*new, user_id))
    return _user(db, user_id)
