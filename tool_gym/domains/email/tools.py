"""The tools of the email domain: a company mail service.

Reads find the user's mailbox, folders, labels, messages, threads, contacts, filters and
whether an address is on the organization's block list. Writes send, reply, forward and
draft messages, move, trash and permanently delete them, mark them read, label them, and
manage contacts, filters and folders.

Sending stores the message in the sender's Sent folder and delivers a copy to the Inbox
of every recipient who has a mailbox here, applying that mailbox's filters. The tools
enforce the data rules (a permanent deletion only from Trash, drafts stay in Drafts,
folders and labels belong to the mailbox); the organization's rules (never write to a
blocked address, never delete a message under legal hold) are policy, checked by the task
kit's ``policy_violations``.
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
#: about 5,000 messages.
QUOTAS = Quotas(rows={"messages": 20_000, "recipients": 60_000, "threads": 20_000,
                      "folders": 5_000, "contacts": 10_000, "filters": 2_000,
                      "message_labels": 20_000})

UserId = Annotated[str, Entity("user_id")]
MessageId = Annotated[str, Entity("message_id")]
ThreadId = Annotated[str, Entity("thread_id")]
FolderId = Annotated[str, Entity("folder_id")]
LabelId = Annotated[str, Entity("label_id")]
ContactId = Annotated[str, Entity("contact_id")]
FilterId = Annotated[str, Entity("filter_id")]

MESSAGE_RETURNS = {"message_id": "message_id", "thread_id": "thread_id",
                   "folder_id": "folder_id", "user_id": "user_id", "labels.label_id": "label_id"}
_ADDRESS = re.compile(r"^[^@\s,;<>]+@[^@\s,;<>]+\.[A-Za-z]{2,}$")
MAX_RECIPIENTS = 50
MAX_BODY = 20_000

# --------------------------------------------------------------------------- helpers


def _user(db: sqlite3.Connection, user_id: str) -> dict:
    row = fetch_row(db, "SELECT user_id, name, email, signature FROM users WHERE user_id = ?",
                    (user_id,), f"user not found: {user_id[:60]!r}")
    return dict(zip(("user_id", "name", "email", "signature"), row))


_MESSAGE_COLUMNS = ("message_id", "user_id", "thread_id", "folder_id", "status", "sender",
                    "sender_name", "subject", "body", "sent_at", "is_read", "is_starred",
                    "in_reply_to")


def _row(db: sqlite3.Connection, message_id: str) -> dict:
    return fetch_record(db, "messages", _MESSAGE_COLUMNS, "message_id", message_id,
                        f"message not found: {message_id[:60]!r}")


def _message(db: sqlite3.Connection, message_id: str) -> dict:
    """A message with its folder name, recipients, labels and attachments."""
    m = _row(db, message_id)
    m["is_read"], m["is_starred"] = bool(m["is_read"]), bool(m["is_starred"])
    m["folder"] = db.execute("SELECT name FROM folders WHERE folder_id = ?",
                             (m["folder_id"],)).fetchone()[0]
    m["to"] = [a for a, in db.execute("SELECT address FROM recipients WHERE message_id = ? "
                                      "AND kind = 'to' ORDER BY address", (message_id,))]
    m["cc"] = [a for a, in db.execute("SELECT address FROM recipients WHERE message_id = ? "
                                      "AND kind = 'cc' ORDER BY address", (message_id,))]
    m["labels"] = [{"label_id": i, "name": n} for i, n in db.execute(
        "SELECT l.label_id, l.name FROM message_labels x JOIN labels l ON l.label_id = "
        "x.label_id WHERE x.message_id = ? ORDER BY l.label_id", (message_id,))]
    m["attachments"] = [{"attachment_id": i, "filename": f, "mime_type": t, "size_bytes": s}
                        for i, f, t, s in db.execute(
        "SELECT attachment_id, filename, mime_type, size_bytes FROM attachments "
        "WHERE message_id = ? ORDER BY attachment_id", (message_id,))]
    return m


def _summary(row: tuple) -> dict:
    message_id, thread_id, folder, sender, sender_name, subject, sent_at, read, status, n = row
    return {"message_id": message_id, "thread_id": thread_id, "folder": folder,
            "from": f"{sender_name} <{sender}>", "subject": subject, "sent_at": sent_at,
            "is_read": bool(read), "status": status, "attachments": n}


_SUMMARY = ("SELECT m.message_id, m.thread_id, f.name, m.sender, m.sender_name, m.subject, "
            "m.sent_at, m.is_read, m.status, (SELECT count(*) FROM attachments a WHERE "
            "a.message_id = m.message_id) FROM messages m JOIN folders f ON f.folder_id = "
            "m.folder_id ")


def _folder(db: sqlite3.Connection, folder_id: str, user_id: str | None = None) -> dict:
    row = fetch_row(db, "SELECT folder_id, user_id, name, kind, parent_id FROM folders "
                    "WHERE folder_id = ?", (folder_id,), f"folder not found: {folder_id[:60]!r}")
    folder = dict(zip(("folder_id", "user_id", "name", "kind", "parent_id"), row))
    if user_id is not None and folder["user_id"] != user_id:
        raise ToolError(f"folder {folder_id} belongs to another mailbox")
    return folder


def _system(db: sqlite3.Connection, user_id: str, kind: str) -> str:
    return db.execute("SELECT folder_id FROM folders WHERE user_id = ? AND kind = ?",
                      (user_id, kind)).fetchone()[0]


def _label(db: sqlite3.Connection, label_id: str, user_id: str) -> dict:
    row = fetch_row(db, "SELECT label_id, user_id, name FROM labels WHERE label_id = ?",
                    (label_id,), f"label not found: {label_id[:60]!r}")
    if row[1] != user_id:
        raise ToolError(f"label {label_id} belongs to another mailbox")
    return {"label_id": row[0], "name": row[2]}


def _addresses(values: list[str], what: str) -> list[str]:
    out: list[str] = []
    for value in values:
        address = value.strip()
        if not _ADDRESS.match(address):
            raise ToolError(f"invalid address in {what}: {value[:60]!r}")
        if address.lower() not in (a.lower() for a in out):
            out.append(address)
    return out


def _recipients(to: list[str], cc: list[str]) -> tuple[list[str], list[str]]:
    to, cc = _addresses(to, "to"), _addresses(cc, "cc")
    if not to:
        raise ToolError("at least one recipient is needed in 'to'")
    cc = [a for a in cc if a.lower() not in {t.lower() for t in to}]
    if len(to) + len(cc) > MAX_RECIPIENTS:
        raise ToolError(f"at most {MAX_RECIPIENTS} recipients")
    return to, cc


def _text(value: str, what: str, limit: int) -> str:
    if len(value) > limit:
        raise ToolError(f"the {what} is too long (at most {limit} characters)")
    return value


def _insert_message(db: sqlite3.Connection, user_id: str, folder_id: str, status: str,
                    sender: tuple[str, str], subject: str, body: str, to: list[str],
                    cc: list[str], thread_id: str | None = None, in_reply_to: str | None = None,
                    read: bool = True) -> str:
    if thread_id is None:
        thread_id = next_serial_id(db, "threads", "thread_id", "thr_", 5)
        db.execute("INSERT INTO threads (thread_id, user_id, subject) VALUES (?, ?, ?)",
                   (thread_id, user_id, subject))
    message_id = next_serial_id(db, "messages", "message_id", "msg_", 6)
    db.execute("INSERT INTO messages (message_id, user_id, thread_id, folder_id, status, sender, "
               "sender_name, subject, body, sent_at, is_read, is_starred, in_reply_to) VALUES "
               "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?)",
               (message_id, user_id, thread_id, folder_id, status, sender[1], sender[0],
                subject, body, NOW, int(read), in_reply_to))
    db.executemany("INSERT INTO recipients (message_id, kind, address) VALUES (?, ?, ?)",
                   [(message_id, "to", a) for a in to] + [(message_id, "cc", a) for a in cc])
    return message_id


def _copy_attachments(db: sqlite3.Connection, source: str, target: str) -> None:
    for filename, mime, size in db.execute(
            "SELECT filename, mime_type, size_bytes FROM attachments WHERE message_id = ? "
            "ORDER BY attachment_id", (source,)).fetchall():
        db.execute("INSERT INTO attachments (attachment_id, message_id, filename, mime_type, "
                   "size_bytes) VALUES (?, ?, ?, ?, ?)",
                   (next_serial_id(db, "attachments", "attachment_id", "att_", 5), target, filename,
                    mime, size))


def _apply_filters(db: sqlite3.Connection, user_id: str, message_id: str, sender: str,
                   subject: str) -> None:
    for from_address, contains, action, folder_id, label_id in db.execute(
            "SELECT from_address, subject_contains, action, folder_id, label_id FROM filters "
            "WHERE user_id = ? ORDER BY filter_id", (user_id,)).fetchall():
        if from_address is not None and from_address.lower() != sender.lower():
            continue
        if contains is not None and contains.lower() not in subject.lower():
            continue
        if action == "move":
            db.execute("UPDATE messages SET folder_id = ? WHERE message_id = ?",
                       (folder_id, message_id))
        elif action == "label":
            db.execute("INSERT OR IGNORE INTO message_labels (message_id, label_id) VALUES (?, ?)",
                       (message_id, label_id))
        else:
            db.execute("UPDATE messages SET is_read = 1 WHERE message_id = ?", (message_id,))


def _deliver(db: sqlite3.Connection, sent_id: str) -> list[str]:
    """Copies of a sent message in the Inbox of every recipient with a mailbox here."""
    m = _row(db, sent_id)
    to = [a for a, in db.execute("SELECT address FROM recipients WHERE message_id = ? AND "
                                 "kind = 'to' ORDER BY rowid", (sent_id,))]
    cc = [a for a, in db.execute("SELECT address FROM recipients WHERE message_id = ? AND "
                                 "kind = 'cc' ORDER BY rowid", (sent_id,))]
    delivered = []
    for address in to + cc:
        row = db.execute("SELECT user_id FROM users WHERE email = ?", (address,)).fetchone()
        if row is None or row[0] == m["user_id"] or row[0] in delivered:
            continue
        copy = _insert_message(db, row[0], _system(db, row[0], "inbox"), "received",
                               (m["sender_name"], m["sender"]), m["subject"], m["body"], to, cc,
                               read=False)
        _copy_attachments(db, sent_id, copy)
        _apply_filters(db, row[0], copy, m["sender"], m["subject"])
        delivered.append(row[0])
    return delivered


def _send(db: sqlite3.Connection, user: dict, subject: str, body: str, to: list[str],
          cc: list[str], thread_id: str | None = None, in_reply_to: str | None = None) -> str:
    message_id = _insert_message(db, user["user_id"], _system(db, user["user_id"], "sent"),
                                 "sent", (user["name"], user["email"]), subject, body, to, cc,
                                 thread_id, in_reply_to)
    return message_id


def _prefixed(prefix: str, subject: str) -> str:
    return subject if subject.lower().startswith(prefix.lower()) else f"{prefix} {subject}"


def _remove_message(db: sqlite3.Connection, message_id: str, thread_id: str) -> None:
    db.execute("UPDATE messages SET in_reply_to = NULL WHERE in_reply_to = ?", (message_id,))
    for table in ("recipients", "message_labels", "attachments"):
        db.execute(f"DELETE FROM {table} WHERE message_id = ?", (message_id,))
    db.execute("DELETE FROM messages WHERE message_id = ?", (message_id,))
    if not db.execute("SELECT 1 FROM messages WHERE thread_id = ? LIMIT 1",
                      (thread_id,)).fetchone():
        db.execute("DELETE FROM threads WHERE thread_id = ?", (thread_id,))


# ------------------------------------------------------------------------------ READ


@tool(Category.READ, returns={"user_id": UserId})
def find_user_by_email(db, email: str) -> dict:
    """Find a user (mailbox owner) by their address. Use it first, to authenticate the user.

    Args:
        email: The user's address, such as 'anna.baker@brightwave.io'.
    """
    return _user(db, find_id(db, "users", "user_id", "email", email.strip(),
                             "no mailbox with this address"))


@tool(Category.READ, returns={"folders.folder_id": FolderId})
def list_folders(db, user_id: UserId) -> dict:
    """List the folders of a user's mailbox with their message and unread counts. Custom
    folders may be nested (parent_id).

    Args:
        user_id: The user's id, such as 'usr_0001'.
    """
    _user(db, user_id)
    rows = db.execute(
        "SELECT f.folder_id, f.name, f.kind, f.parent_id, (SELECT count(*) FROM messages m "
        "WHERE m.folder_id = f.folder_id), (SELECT count(*) FROM messages m WHERE m.folder_id = "
        "f.folder_id AND m.is_read = 0) FROM folders f WHERE f.user_id = ? ORDER BY f.folder_id",
        (user_id,))
    keys = ("folder_id", "name", "kind", "parent_id", "messages", "unread")
    return {"folders": [dict(zip(keys, r)) for r in rows]}


@tool(Category.READ, returns={"labels.label_id": LabelId})
def list_labels(db, user_id: UserId) -> dict:
    """List the labels of a user's mailbox.

    Args:
        user_id: The user's id.
    """
    _user(db, user_id)
    return {"labels": [{"label_id": i, "name": n, "color": c} for i, n, c in db.execute(
        "SELECT label_id, name, color FROM labels WHERE user_id = ? ORDER BY label_id",
        (user_id,))]}


@tool(Category.READ, returns={"messages.message_id": MessageId,
                              "messages.thread_id": ThreadId})
def list_messages(db, folder_id: FolderId, unread_only: bool = False, limit: int = 50) -> dict:
    """List the messages of a folder, newest first.

    Args:
        folder_id: The folder's id, such as 'fld_00001' (see list_folders).
        unread_only: Only unread messages.
        limit: At most this many messages (1 to 200).
    """
    _folder(db, folder_id)
    if not 1 <= limit <= 200:
        raise ToolError("limit must be between 1 and 200")
    rows = db.execute(_SUMMARY + "WHERE m.folder_id = ? AND (? = 0 OR m.is_read = 0) "
                      "ORDER BY m.sent_at DESC, m.message_id DESC LIMIT ?",
                      (folder_id, int(unread_only), limit))
    return {"messages": [_summary(r) for r in rows]}


@tool(Category.READ, returns={"messages.message_id": MessageId,
                              "messages.thread_id": ThreadId})
def search_messages(db, user_id: UserId, query: str = "", sender: str = "") -> dict:
    """Search a user's whole mailbox (every folder), newest first, at most 50 results: by
    words of the subject or body, and/or by sender (part of the name or address).

    Args:
        user_id: The user's id.
        query: Text to find in the subject or body (case-insensitive); empty for any.
        sender: Part of the sender's name or address (case-insensitive); empty for any.
    """
    _user(db, user_id)
    text, who = query.strip().lower(), sender.strip().lower()
    if not text and not who:
        raise ToolError("give a query, a sender, or both")
    rows = db.execute(
        _SUMMARY + "WHERE m.user_id = ? AND (? = '' OR instr(lower(m.subject), ?) > 0 OR "
        "instr(lower(m.body), ?) > 0) AND (? = '' OR instr(lower(m.sender), ?) > 0 OR "
        "instr(lower(m.sender_name), ?) > 0) ORDER BY m.sent_at DESC, m.message_id DESC LIMIT 50",
        (user_id, text, text, text, who, who, who))
    return {"messages": [_summary(r) for r in rows]}


@tool(Category.READ, returns=MESSAGE_RETURNS)
def get_message(db, message_id: MessageId) -> dict:
    """Get a message in full: sender, recipients, subject, body, folder, labels and the
    metadata of its attachments.

    Args:
        message_id: The message's id, such as 'msg_000123'.
    """
    return _message(db, message_id)


@tool(Category.READ, returns={"messages.message_id": MessageId})
def get_thread(db, thread_id: ThreadId) -> dict:
    """Get the messages of a conversation thread, oldest first.

    Args:
        thread_id: The thread's id, such as 'thr_00042'.
    """
    row = fetch_row(db, "SELECT subject FROM threads WHERE thread_id = ?", (thread_id,),
                    f"thread not found: {thread_id[:60]!r}")
    rows = db.execute(_SUMMARY + "WHERE m.thread_id = ? ORDER BY m.sent_at, m.message_id",
                      (thread_id,))
    return {"thread_id": thread_id, "subject": row[0], "messages": [_summary(r) for r in rows]}


@tool(Category.READ, returns={"contacts.contact_id": ContactId})
def list_contacts(db, user_id: UserId, query: str = "") -> dict:
    """List a user's contacts, optionally only those whose name or address contains a text.

    Args:
        user_id: The user's id.
        query: Part of a name or address (case-insensitive); empty for all.
    """
    _user(db, user_id)
    text = query.strip().lower()
    return {"contacts": [{"contact_id": i, "name": n, "email": e} for i, n, e in db.execute(
        "SELECT contact_id, name, email FROM contacts WHERE user_id = ? AND (? = '' OR "
        "instr(lower(name), ?) > 0 OR instr(lower(email), ?) > 0) ORDER BY name, contact_id",
        (user_id, text, text, text))]}


@tool(Category.READ, returns={"filters.filter_id": FilterId, "filters.folder_id": FolderId,
                              "filters.label_id": LabelId})
def list_filters(db, user_id: UserId) -> dict:
    """List the filters of a user's mailbox (applied in order to each delivered message).

    Args:
        user_id: The user's id.
    """
    _user(db, user_id)
    keys = ("filter_id", "from_address", "subject_contains", "action", "folder_id", "label_id")
    return {"filters": [dict(zip(keys, r)) for r in db.execute(
        f"SELECT {', '.join(keys)} FROM filters WHERE user_id = ? ORDER BY filter_id",
        (user_id,))]}


@tool(Category.READ)
def check_address(db, address: str) -> dict:
    """Check whether an address is on the organization's block list (nothing may be sent to
    a blocked address), and whether it is a mailbox of the organization.

    Args:
        address: The address to check, such as 'someone@example.com'.
    """
    text = address.strip()
    row = db.execute("SELECT reason FROM blocked_addresses WHERE address = ?", (text,)).fetchone()
    internal = db.execute("SELECT 1 FROM users WHERE email = ?", (text,)).fetchone()
    return {"address": text, "blocked": row is not None, "block_reason": row[0] if row else None,
            "internal": internal is not None}


transfer_to_human_agents = human_transfer_tool()


# ----------------------------------------------------------------------------- WRITE


@tool(Category.WRITE, returns=MESSAGE_RETURNS, writes=("message_id", "thread_id"))
def send_message(db, user_id: UserId, to: list[str], subject: str, body: str,
                 cc: list[str] = ()) -> dict:
    """Send a new message from a user's mailbox. It is stored in their Sent folder and
    delivered to the recipients.

    Args:
        user_id: The sender's user id.
        to: Recipient addresses.
        subject: The subject line.
        body: The text of the message.
        cc: Addresses in copy.
    """
    user = _user(db, user_id)
    to, cc = _recipients(to, cc)
    subject = _text(subject.strip(), "subject", 300)
    if not subject:
        raise ToolError("the subject is empty")
    message_id = _send(db, user, subject, _text(body, "body", MAX_BODY), to, cc)
    _deliver(db, message_id)
    return _message(db, message_id)


@tool(Category.WRITE, returns=MESSAGE_RETURNS, writes=("message_id", "thread_id"))
def reply_to_message(db, message_id: MessageId, body: str, reply_all: bool = False) -> dict:
    """Reply to a received or sent message, in the same thread. The reply goes to the
    original sender (for a message the user sent: to its recipients); with reply_all also
    to the other recipients in copy. The subject gets 'Re:'.

    Args:
        message_id: The id of the message to answer.
        body: The text of the reply.
        reply_all: Also reply to every other recipient of the original.
    """
    original = _row(db, message_id)
    if original["status"] == "draft":
        raise ToolError("a draft cannot be replied to; send it or edit it instead")
    user = _user(db, original["user_id"])
    others = [a for a, in db.execute("SELECT address FROM recipients WHERE message_id = ? "
                                     "ORDER BY kind DESC, address", (message_id,))]
    mine = user["email"].lower()
    if original["status"] == "sent":
        to = [a for a, in db.execute("SELECT address FROM recipients WHERE message_id = ? AND "
                                     "kind = 'to' ORDER BY address", (message_id,))]
    else:
        to = [original["sender"]]
    cc = [a for a in others if a.lower() != mine and a.lower() not in {t.lower() for t in to}] \
        if reply_all else []
    to, cc = _recipients(to, cc)
    reply = _send(db, user, _prefixed("Re:", original["subject"]), _text(body, "body", MAX_BODY),
                  to, cc, original["thread_id"], message_id)
    _deliver(db, reply)
    return _message(db, reply)


@tool(Category.WRITE, returns=MESSAGE_RETURNS, writes=("message_id", "thread_id"))
def forward_message(db, message_id: MessageId, to: list[str], note: str = "") -> dict:
    """Forward a message, with its attachments, to other addresses. The subject gets
    'Fwd:'; the optional note comes before the forwarded text.

    Args:
        message_id: The id of the message to forward.
        to: Recipient addresses.
        note: A short text to add above the forwarded message.
    """
    original = _row(db, message_id)
    if original["status"] == "draft":
        raise ToolError("a draft cannot be forwarded; send it instead")
    user = _user(db, original["user_id"])
    to, cc = _recipients(to, [])
    body = (f"{_text(note, 'note', MAX_BODY)}\n\n---------- Forwarded message ----------\n"
            f"From: {original['sender_name']} <{original['sender']}>\nDate: {original['sent_at']}"
            f"\nSubject: {original['subject']}\n\n{original['body']}")
    forward = _send(db, user, _prefixed("Fwd:", original["subject"]), body, to, cc)
    _copy_attachments(db, message_id, forward)
    _deliver(db, forward)
    return _message(db, forward)


@tool(Category.WRITE, returns=MESSAGE_RETURNS, writes=("message_id", "thread_id"))
def create_draft(db, user_id: UserId, to: list[str], subject: str, body: str,
                 cc: list[str] = ()) -> dict:
    """Save a new draft in a user's Drafts folder (nothing is sent).

    Args:
        user_id: The user's id.
        to: Recipient addresses.
        subject: The subject line.
        body: The text of the draft.
        cc: Addresses in copy.
    """
    user = _user(db, user_id)
    to, cc = _recipients(to, cc)
    message_id = _insert_message(db, user_id, _system(db, user_id, "drafts"), "draft",
                                 (user["name"], user["email"]),
                                 _text(subject.strip(), "subject", 300),
                                 _text(body, "body", MAX_BODY), to, cc)
    return _message(db, message_id)


@tool(Category.WRITE, returns=MESSAGE_RETURNS, writes=("message_id",))
def send_draft(db, message_id: MessageId) -> dict:
    """Send a draft as it is: it moves to the Sent folder and is delivered.

    Args:
        message_id: The draft's message id.
    """
    draft = _row(db, message_id)
    if draft["status"] != "draft":
        raise ToolError(f"message {message_id} is not a draft")
    if not draft["subject"].strip():
        raise ToolError("the draft has no subject")
    if not db.execute("SELECT 1 FROM recipients WHERE message_id = ? AND kind = 'to'",
                      (message_id,)).fetchone():
        raise ToolError("the draft has no recipient")
    db.execute("UPDATE messages SET status = 'sent', folder_id = ?, sent_at = ?, is_read = 1 "
               "WHERE message_id = ?", (_system(db, draft["user_id"], "sent"), NOW, message_id))
    _deliver(db, message_id)
    return _message(db, message_id)


@tool(Category.WRITE, returns=MESSAGE_RETURNS, writes=("message_id",), needs=("folder_id",))
def move_message(db, message_id: MessageId, folder_id: FolderId) -> dict:
    """Move a message to another folder of the same mailbox (not into Drafts or Sent;
    drafts stay in Drafts).

    Args:
        message_id: The message's id.
        folder_id: The destination folder's id.
    """
    m = _row(db, message_id)
    folder = _folder(db, folder_id, m["user_id"])
    if m["status"] == "draft":
        raise ToolError("drafts stay in the Drafts folder")
    if folder["kind"] in ("drafts", "sent"):
        raise ToolError(f"messages cannot be moved into {folder['name']}")
    if m["folder_id"] == folder_id:
        raise ToolError(f"the message is already in {folder['name']}")
    db.execute("UPDATE messages SET folder_id = ? WHERE message_id = ?", (folder_id, message_id))
    return _message(db, message_id)


@tool(Category.WRITE, returns=MESSAGE_RETURNS, writes=("message_id",))
def trash_message(db, message_id: MessageId) -> dict:
    """Move a message (or a draft) to the Trash folder.

    Args:
        message_id: The message's id.
    """
    m = _row(db, message_id)
    trash = _system(db, m["user_id"], "trash")
    if m["folder_id"] == trash:
        raise ToolError("the message is already in the Trash")
    db.execute("UPDATE messages SET folder_id = ? WHERE message_id = ?", (trash, message_id))
    return _message(db, message_id)


@tool(Category.WRITE, returns={"deleted": MessageId}, writes=("message_id",))
def delete_permanently(db, message_id: MessageId) -> dict:
    """Delete a message for good, with its attachments. Only messages in the Trash can be
    deleted permanently; this cannot be undone.

    Args:
        message_id: The message's id.
    """
    m = _row(db, message_id)
    if m["folder_id"] != _system(db, m["user_id"], "trash"):
        raise ToolError("only messages in the Trash can be deleted permanently; trash it first")
    _remove_message(db, message_id, m["thread_id"])
    return {"deleted": message_id}


@tool(Category.WRITE, returns=MESSAGE_RETURNS, writes=("message_id",))
def mark_read(db, message_id: MessageId, read: bool = True) -> dict:
    """Mark a message as read or unread.

    Args:
        message_id: The message's id.
        read: True to mark it read, False to mark it unread.
    """
    m = _row(db, message_id)
    if bool(m["is_read"]) == read:
        raise ToolError(f"the message is already {'read' if read else 'unread'}")
    db.execute("UPDATE messages SET is_read = ? WHERE message_id = ?", (int(read), message_id))
    return _message(db, message_id)


@tool(Category.WRITE, returns=MESSAGE_RETURNS, writes=("message_id",), needs=("label_id",))
def add_label(db, message_id: MessageId, label_id: LabelId) -> dict:
    """Put a label of the mailbox on a message.

    Args:
        message_id: The message's id.
        label_id: The label's id (see list_labels).
    """
    m = _row(db, message_id)
    label = _label(db, label_id, m["user_id"])
    if db.execute("SELECT 1 FROM message_labels WHERE message_id = ? AND label_id = ?",
                  (message_id, label_id)).fetchone():
        raise ToolError(f"the message already has the label {label['name']!r}")
    db.execute("INSERT INTO message_labels (message_id, label_id) VALUES (?, ?)",
               (message_id, label_id))
    return _message(db, message_id)


@tool(Category.WRITE, returns=MESSAGE_RETURNS, writes=("message_id",), needs=("label_id",))
def remove_label(db, message_id: MessageId, label_id: LabelId) -> dict:
    """Take a label off a message.

    Args:
        message_id: The message's id.
        label_id: The label's id.
    """
    m = _row(db, message_id)
    label = _label(db, label_id, m["user_id"])
    if db.execute("DELETE FROM message_labels WHERE message_id = ? AND label_id = ?",
                  (message_id, label_id)).rowcount == 0:
        raise ToolError(f"the message does not have the label {label['name']!r}")
    return _message(db, message_id)


@tool(Category.WRITE, returns={"contact_id": ContactId}, writes=("contact_id",))
def add_contact(db, user_id: UserId, name: str, email: str) -> dict:
    """Add a contact to a user's address book.

    Args:
        user_id: The user's id.
        name: The contact's full name.
        email: The contact's address.
    """
    _user(db, user_id)
    name = _text(name.strip(), "name", 200)
    if not name:
        raise ToolError("the name is empty")
    address, = _addresses([email], "email")
    if db.execute("SELECT 1 FROM contacts WHERE user_id = ? AND email = ?",
                  (user_id, address)).fetchone():
        raise ToolError(f"{address} is already a contact")
    contact_id = next_serial_id(db, "contacts", "contact_id", "con_", 5)
    db.execute("INSERT INTO contacts (contact_id, user_id, name, email) VALUES (?, ?, ?, ?)",
               (contact_id, user_id, name, address))
    return {"contact_id": contact_id, "name": name, "email": address}


@tool(Category.WRITE, returns={"filter_id": FilterId}, writes=("filter_id",),
      needs=("folder_id", "label_id"))
def create_filter(db, user_id: UserId, action: Literal["move", "label", "mark_read"],
                  from_address: str = "", subject_contains: str = "",
                  folder_id: FolderId = "", label_id: LabelId = "") -> dict:
    """Create a filter applied to every message delivered from now on to a user's mailbox:
    when the sender and/or the subject match, move the message to a folder, label it, or
    mark it read.

    Args:
        user_id: The user's id.
        action: 'move' (needs folder_id), 'label' (needs label_id) or 'mark_read'.
        from_address: Match messages from this exact address; empty for any sender.
        subject_contains: Match subjects containing this text; empty for any subject.
        folder_id: Destination folder of a 'move' filter (not Drafts or Sent).
        label_id: Label of a 'label' filter.
    """
    _user(db, user_id)
    sender = _addresses([from_address], "from_address")[0] if from_address.strip() else None
    contains = _text(subject_contains.strip(), "subject_contains", 200) or None
    if sender is None and contains is None:
        raise ToolError("a filter needs from_address, subject_contains, or both")
    folder = label = None
    if action == "move":
        if not folder_id:
            raise ToolError("a 'move' filter needs folder_id")
        if _folder(db, folder_id, user_id)["kind"] in ("drafts", "sent"):
            raise ToolError("a filter cannot move messages into Drafts or Sent")
        folder = folder_id
    elif folder_id:
        raise ToolError("folder_id applies to 'move' filters only")
    if action == "label":
        if not label_id:
            raise ToolError("a 'label' filter needs label_id")
        label = _label(db, label_id, user_id)["label_id"]
    elif label_id:
        raise ToolError("label_id applies to 'label' filters only")
    if db.execute("SELECT 1 FROM filters WHERE user_id = ? AND from_address IS ? AND "
                  "subject_contains IS ? AND action = ? AND folder_id IS ? AND label_id IS ?",
                  (user_id, sender, contains, action, folder, label)).fetchone():
        raise ToolError("the same filter already exists")
    filter_id = next_serial_id(db, "filters", "filter_id", "flt_", 4)
    db.execute("INSERT INTO filters (filter_id, user_id, from_address, subject_contains, action, "
               "folder_id, label_id) VALUES (?, ?, ?, ?, ?, ?, ?)",
               (filter_id, user_id, sender, contains, action, folder, label))
    return {"filter_id": filter_id, "from_address": sender, "subject_contains": contains,
            "action": action, "folder_id": folder, "label_id": label}


@tool(Category.WRITE, returns={"folder_id": FolderId}, writes=("folder_id",))
def create_folder(db, user_id: UserId, name: str, parent_id: FolderId = "") -> dict:
    """Create a custom folder in a user's mailbox, optionally inside another custom folder.

    Args:
        user_id: The user's id.
        name: The folder's name (unique in the mailbox).
        parent_id: The id of the custom folder to put it in; empty for the top level.
    """
    _user(db, user_id)
    name = _text(name.strip(), "name", 100)
    if not name:
        raise ToolError("the name is empty")
    if db.execute("SELECT 1 FROM folders WHERE user_id = ? AND name = ?",
                  (user_id, name)).fetchone():
        raise ToolError(f"a folder named {name!r} already exists")
    parent = None
    if parent_id:
        if _folder(db, parent_id, user_id)["kind"] != "custom":
            raise ToolError("folders can only be nested inside custom folders")
        parent = parent_id
    folder_id = next_serial_id(db, "folders", "folder_id", "fld_", 5)
    db.execute("INSERT INTO folders (folder_id, user_id, name, kind, parent_id) VALUES "
               "(?, ?, ?, 'custom', ?)", (folder_id, user_id, name, parent))
    return {"folder_id": folder_id, "name": name, "parent_id": parent}
