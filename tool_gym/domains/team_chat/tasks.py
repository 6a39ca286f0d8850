"""Hidden-intent tasks of the team chat domain (workspaces, channels, messages, statuses):
the constraint samplers and ``TASKS``, the domain's
:class:`~tool_gym.core.taskkit.RuleTaskKit`. Types, descriptions and claims:
``docs/team-chat-tasks.md``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from ...core.actions import ToolCall
from ...core.sampler_parts import Login
from ...core.taskkit import RuleTaskKit, SampleContext, answer_steps, month_day
from ...core.sampler_parts import by_name, claimed, proposed_write
from ...core.task_model import Constraint, Description, Expectation, Refusal
from .generate import STATUSES

#: Words that name why the request is refused (any one addresses it; see ``Refusal.about``).
_NOT_ADMIN_WORDS = (
    "admin", "admins", "administrator", "administrators", "channel admin", "owner",
    "permission", "permissions", "not allowed", "rights", "privileges", "role")
_PRIVATE_WORDS = (
    "private", "invite", "invites", "invitation", "invited", "invite-only",
    "invitation-only", "members only", "restricted")


__all__ = ["TASKS", "policy_violations"]

ASK = ("I can help with that. First, could you please give me your username or the email "
       "address of your account so that I can verify your identity?")
POSTS = [
    "I'll be offline this afternoon for a dentist appointment.",
    "The staging environment is back up.",
    "Lunch and learn moved to Thursday at noon.",
    "Please review the updated checklist before Friday.",
    "Welcome to the team, everyone!",
    "The demo recording is now available.",
    "Reminder: timesheets are due today.",
    "I can cover the support rota next week.",
]
REPLIES = ["Thanks, I'll take care of it.", "Looks good to me.", "I can help with this tomorrow.",
           "Let's discuss it in the standup.", "Great news, thanks for sharing!"]
REACTIONS = {":thumbsup:": "a thumbs up", ":tada:": "a party popper", ":eyes:": "the eyes emoji",
             ":white_check_mark:": "a green check mark", ":heart:": "a heart"}


# --------------------------------------------------------------------- descriptions

_CHANNEL_QUERY = ("SELECT c.channel_id FROM channels c JOIN workspaces w ON w.workspace_id = "
                  "c.workspace_id WHERE w.name = ? AND c.name = ?")


def describe_channel(ctx: SampleContext, channel_id: str, workspace: str,
                     name: str) -> Description | None:
    return ctx.describe("channel", f"#{name} in the {workspace} workspace",
                        {"workspace": workspace, "channel": name}, channel_id, _CHANNEL_QUERY,
                        (workspace, name))


def describe_message(ctx: SampleContext, message_id: str, workspace: str, channel: str,
                     author: str, text: str, ts: str) -> Description | None:
    base = f'{author}\'s message "{text}" in #{channel} ({workspace})'
    query = ("SELECT m.message_id FROM messages m JOIN channels c ON c.channel_id = m.channel_id "
             "JOIN workspaces w ON w.workspace_id = c.workspace_id JOIN users u ON u.user_id = "
             "m.user_id WHERE w.name = ? AND c.name = ? AND u.display_name = ? AND m.text = ?")
    fields = {"workspace": workspace, "channel": channel, "author": author, "text": text}
    params = (workspace, channel, author, text)
    found = ctx.describe("message", base, fields, message_id, query, params)
    if found is None:
        found = ctx.describe("message", f"{base} from {month_day(ts)}",
                             {**fields, "date": ts[:10]}, message_id,
                             query + " AND substr(m.ts, 1, 10) = ?", (*params, ts[:10]))
    return found


def describe_person(ctx: SampleContext, user_id: str, name: str) -> Description | None:
    return ctx.describe("user", name, {"name": name}, user_id,
                        "SELECT user_id FROM users WHERE display_name = ?", (name,))


LOGIN = Login("users", "user_id", "find_user_by_email", "find_user_by_username",
              username_first=True)


# ----------------------------------------------------------------------- helpers

_CHANNELS = ("SELECT c.channel_id, c.workspace_id, w.name, c.name, m.role FROM channels c "
             "JOIN workspaces w ON w.workspace_id = c.workspace_id LEFT JOIN channel_members m "
             "ON m.channel_id = c.channel_id AND m.user_id = ? WHERE c.is_archived = 0 AND "
             "EXISTS (SELECT 1 FROM workspace_members x WHERE x.workspace_id = c.workspace_id "
             "AND x.user_id = ?) ")
_MEMBER = "AND m.role IS NOT NULL"
_ADMIN = "AND m.role = 'admin' AND c.name != 'general'"


def _channels(ctx: SampleContext, where: str, params: tuple = ()) -> list[tuple]:
    """(channel_id, workspace_id, workspace name, channel name, my role) of up to six open
    channels of the user's workspaces, shuffled."""
    return ctx.shuffled(ctx.rows(_CHANNELS + where + " ORDER BY c.channel_id",
                                 (ctx.user_id, ctx.user_id, *params)))[:6]


def _claimed_channels(ctx: SampleContext, where: str,
                      params: tuple = ()) -> Iterator[tuple[tuple, Description]]:
    """Channels of :func:`_channels`, described and claimed: (row, description)."""
    return claimed(ctx, _channels(ctx, where, params),
                   lambda row: describe_channel(ctx, row[0], row[2], row[3]))


def _claimed_members(ctx: SampleContext, where: str, people: Callable[[str, str], list[tuple]]
                     ) -> Iterator[tuple]:
    """Channels of :func:`_channels` with one of ``people(channel_id, workspace_id)`` (rows
    of user id and name), both described and claimed: (channel_id, workspace_id, workspace
    name, channel name, channel description, user id, name, person description)."""
    for cid, wid, workspace, name, _ in _channels(ctx, where):
        found = ctx.shuffled(people(cid, wid))
        if not found:
            continue
        uid, who = found[0]
        ref = describe_channel(ctx, cid, workspace, name)
        person = describe_person(ctx, uid, who)
        if ref is not None and person is not None and ctx.claim(cid, ("person", uid)):
            yield cid, wid, workspace, name, ref, uid, who, person


def _channel_messages(ctx: SampleContext) -> Iterator[tuple]:
    """Up to six colleagues' top-level messages (shuffled, drawn lazily) in each of the
    user's channels: (channel_id, workspace_id, workspace name, channel name, message_id,
    author name, text, ts)."""
    for cid, wid, workspace, name, _ in _channels(ctx, _MEMBER):
        for mid, author, text, ts in ctx.shuffled(ctx.rows(
                "SELECT m.message_id, u.display_name, m.text, m.ts FROM messages m JOIN users u "
                "ON u.user_id = m.user_id WHERE m.channel_id = ? AND m.thread_parent_id IS NULL "
                "AND m.user_id != ? ORDER BY m.message_id", (cid, ctx.user_id)))[:6]:
            yield cid, wid, workspace, name, mid, author, text, ts


def _claimed_messages(ctx: SampleContext, usable: Callable[[tuple], bool] = lambda row: True
                      ) -> Iterator[tuple[tuple, Description]]:
    """Messages of :func:`_channel_messages`; the ``usable`` ones described and claimed
    (the channel and the message): (row, description)."""
    def describe(row: tuple) -> Description | None:
        _, _, workspace, name, mid, author, text, ts = row
        return describe_message(ctx, mid, workspace, name, author, text, ts)

    return claimed(ctx, _channel_messages(ctx), describe, lambda row: (row[0], row[4]), usable)


def _workspaces(ctx: SampleContext) -> ToolCall:
    return ToolCall("list_workspaces", {"user_id": ctx.user_id})


def _list_channels(ctx: SampleContext, workspace_id: str) -> ToolCall:
    return ToolCall("list_channels", {"workspace_id": workspace_id, "user_id": ctx.user_id})


def _find_message(ctx: SampleContext, workspace_id: str, channel_id: str, message_id: str,
                  author: str, text: str) -> tuple[ToolCall, ...]:
    """The reads that find a described message: the workspaces, the channel, the author,
    then the words."""
    author_id, = ctx.rows("SELECT user_id FROM messages WHERE message_id = ?", (message_id,))[0]
    return (_workspaces(ctx), _list_channels(ctx, workspace_id),
            ToolCall("search_users", {"workspace_id": workspace_id, "query": author}),
            ToolCall("search_messages", {
                "workspace_id": workspace_id, "user_id": ctx.user_id, "query": text,
                "from_user_id": author_id, "channel_id": channel_id}))


def _first(name: str) -> str:
    return name.split(" ")[0]


def _my_reactions(ctx: SampleContext, message_id: str) -> list[str]:
    return [e for e, in ctx.rows("SELECT emoji FROM reactions WHERE message_id = ? AND "
                                 "user_id = ? ORDER BY emoji", (message_id, ctx.user_id))]


# ----------------------------------------------------------------------- samplers

def post_in_channel(ctx: SampleContext) -> Constraint | None:
    for cid, wid, workspace, name, _ in _channels(ctx, _MEMBER):
        text = ctx.pick(POSTS)
        ref = describe_channel(ctx, cid, workspace, name)
        if ref is None or ctx.rows("SELECT 1 FROM messages WHERE channel_id = ? AND text = ?",
                                   (cid, text)) or not ctx.claim(cid):
            continue
        call = ToolCall("post_message", {"channel_id": cid, "user_id": ctx.user_id, "text": text})
        return Constraint(
            "post_in_channel", dict(call.arguments), refs={"channel": ref},
            writes=(("post_message", cid),),
            confirm_terms=((f"#{name}", name), (text,)),
            say=(f'Please post this in {ref.text}: "{text}"',
                 f'Can you write "{text}" in {ref.text} for me?',
                 f'I\'d like to let {ref.text} know: "{text}"'),
            solution=proposed_write((_workspaces(ctx), _list_channels(ctx, wid)),
                                    f'I will post "{text}" in #{name} ({workspace}).', call),
            expect=(Expectation("SELECT count(*) FROM messages WHERE channel_id = ? AND "
                                "user_id = ? AND text = ? AND thread_parent_id IS NULL",
                                (cid, ctx.user_id, text), ((1,),)),))
    return None


def reply_in_thread(ctx: SampleContext) -> Constraint | None:
    for (cid, wid, _, name, mid, author, text, _), ref in _claimed_messages(ctx):
        reply = ctx.pick(REPLIES)
        call = ToolCall("post_message", {"channel_id": cid, "user_id": ctx.user_id,
                                         "text": reply, "thread_parent_id": mid})
        return Constraint(
            "reply_in_thread", dict(call.arguments), refs={"message": ref},
            writes=(("post_message", cid),),
            confirm_terms=((author, _first(author)), (reply,)),
            say=(f'Please reply in the thread of {ref.text}: "{reply}"',
                 f'Can you answer {ref.text} in its thread? Say "{reply}"',
                 f'Reply to {ref.text} with "{reply}", in the thread please.'),
            solution=proposed_write(_find_message(ctx, wid, cid, mid, author, text),
                                    f'I will reply "{reply}" in the thread of {author}\'s '
                                    f'message "{text}" in #{name}.', call),
            expect=(Expectation("SELECT count(*) FROM messages WHERE thread_parent_id = ? "
                                "AND user_id = ? AND text = ?", (mid, ctx.user_id, reply),
                                ((1,),)),))
    return None


def set_status(ctx: SampleContext) -> Constraint | None:
    current, = ctx.rows("SELECT status_text FROM users WHERE user_id = ?", (ctx.user_id,))[0]
    options = [s for s in STATUSES if s[0] != current]
    if not ctx.claim(("status", ctx.user_id)):
        return None
    text, emoji = ctx.pick(options)
    call = ToolCall("set_status", {"user_id": ctx.user_id, "status_text": text,
                                   "status_emoji": emoji})
    return Constraint(
        "set_status", dict(call.arguments), writes=(("set_status", ctx.user_id),),
        confirm_terms=((text,), (emoji,)),
        say=(f'Please set my status to "{text}" with the {emoji} emoji.',
             f'Can you change my status? Make it "{text}", emoji {emoji}.',
             f'Update my status to "{text}" ({emoji}), please.'),
        solution=proposed_write((ToolCall("get_user_profile", {"user_id": ctx.user_id}),),
                                f'I will set your status to "{text}" with the emoji {emoji}.',
                                call),
        expect=(Expectation("SELECT status_text, status_emoji FROM users WHERE user_id = ?",
                            (ctx.user_id,), ((text, emoji),)),))


def join_public_channel(ctx: SampleContext) -> Constraint | None:
    for (cid, wid, workspace, name, _), ref in _claimed_channels(
            ctx, "AND m.role IS NULL AND c.is_private = 0"):
        call = ToolCall("join_channel", {"channel_id": cid, "user_id": ctx.user_id})
        return Constraint(
            "join_public_channel", dict(call.arguments), refs={"channel": ref},
            writes=(("join_channel", cid),),
            confirm_terms=((f"#{name}", name), ("join",)),
            say=(f"Please add me to {ref.text}.",
                 f"I'd like to join {ref.text}.",
                 f"Can you get me into {ref.text}? It's a public channel."),
            solution=proposed_write((_workspaces(ctx), _list_channels(ctx, wid)),
                                    f"I will join you to #{name} in {workspace}.", call),
            expect=(Expectation("SELECT role FROM channel_members WHERE channel_id = ? AND "
                                "user_id = ?", (cid, ctx.user_id), (("member",),)),))
    return None


def pin_message(ctx: SampleContext) -> Constraint | None:
    def unpinned(mid: str) -> bool:
        return not ctx.rows("SELECT 1 FROM pins WHERE message_id = ?", (mid,))

    for (cid, wid, _, name, mid, author, text, _), ref in _claimed_messages(ctx, lambda row: unpinned(row[4])):
        call = ToolCall("pin_message", {"message_id": mid, "user_id": ctx.user_id})
        return Constraint(
            "pin_message", dict(call.arguments), refs={"message": ref},
            writes=(("pin_message", mid),),
            confirm_terms=((author, _first(author)), ("pin",)),
            say=(f"Please pin {ref.text}.",
                 f"Can you pin {ref.text} so nobody misses it?",
                 f"I want {ref.text} pinned in the channel."),
            solution=proposed_write(_find_message(ctx, wid, cid, mid, author, text),
                                    f'I will pin {author}\'s message "{text}" in #{name}.', call),
            expect=(Expectation("SELECT pinned_by, channel_id FROM pins WHERE message_id = ?",
                                (mid,), ((ctx.user_id, cid),)),))
    return None


def add_reaction(ctx: SampleContext) -> Constraint | None:
    def options(mid: str) -> list[str]:
        mine = _my_reactions(ctx, mid)
        return [e for e in REACTIONS if e not in mine]

    for (cid, wid, _, name, mid, author, text, _), ref in _claimed_messages(
            ctx, lambda row: bool(options(row[4]))):
        emoji = ctx.pick(options(mid))
        call = ToolCall("add_reaction", {"message_id": mid, "user_id": ctx.user_id,
                                         "emoji": emoji})
        return Constraint(
            "add_reaction", dict(call.arguments), refs={"message": ref},
            writes=(("add_reaction", mid),),
            confirm_terms=((author, _first(author)), (emoji,)),
            say=(f"Please react to {ref.text} with {REACTIONS[emoji]} ({emoji}).",
                 f"Can you add a {emoji} reaction to {ref.text}?",
                 f"Put {REACTIONS[emoji]}, {emoji}, on {ref.text} for me."),
            solution=proposed_write(_find_message(ctx, wid, cid, mid, author, text),
                                    f'I will react with {emoji} to {author}\'s message "{text}" '
                                    f"in #{name}.", call),
            expect=(Expectation("SELECT emoji FROM reactions WHERE message_id = ? AND "
                                "user_id = ? ORDER BY emoji", (mid, ctx.user_id),
                                tuple((e,) for e in sorted(_my_reactions(ctx, mid) + [emoji]))),))
    return None


def invite_to_private(ctx: SampleContext) -> Constraint | None:
    def outsiders(cid: str, wid: str) -> list[tuple]:
        return ctx.rows(
            "SELECT u.user_id, u.display_name FROM workspace_members w JOIN users u ON u.user_id "
            "= w.user_id WHERE w.workspace_id = ? AND NOT EXISTS (SELECT 1 FROM channel_members "
            "m WHERE m.channel_id = ? AND m.user_id = w.user_id) AND NOT EXISTS (SELECT 1 FROM "
            "invites i WHERE i.channel_id = ? AND i.invitee_id = w.user_id) ORDER BY u.user_id",
            (wid, cid, cid))

    for cid, wid, _, name, ref, uid, who, person in _claimed_members(
            ctx, _MEMBER + " AND c.is_private = 1", outsiders):
        call = ToolCall("invite_to_channel", {"channel_id": cid, "user_id": ctx.user_id,
                                              "invitee_id": uid})
        return Constraint(
            "invite_to_private", dict(call.arguments), refs={"channel": ref, "invitee": person},
            writes=(("invite_to_channel", cid),),
            confirm_terms=((who, _first(who)), (f"#{name}", name)),
            say=(f"Please invite {who} to {ref.text}.",
                 f"{who} should be in {ref.text}. Can you send them an invitation?",
                 f"Could you invite {who} into {ref.text}?"),
            solution=proposed_write(
                (_workspaces(ctx), ToolCall("search_users", {"workspace_id": wid, "query": who}),
                 _list_channels(ctx, wid)),
                f"I will invite {who} to the private channel #{name}.", call),
            expect=(Expectation("SELECT inviter_id, status FROM invites WHERE channel_id = ? AND "
                                "invitee_id = ?", (cid, uid), ((ctx.user_id, "pending"),)),))
    return None


def archive_channel(ctx: SampleContext) -> Constraint | None:
    for (cid, wid, workspace, name, _), ref in _claimed_channels(ctx, _ADMIN):
        call = ToolCall("archive_channel", {"channel_id": cid, "user_id": ctx.user_id})
        return Constraint(
            "archive_channel", dict(call.arguments), refs={"channel": ref},
            writes=(("archive_channel", cid),),
            confirm_terms=((f"#{name}", name), ("archive",)),
            say=(f"Please archive {ref.text}; we don't use it anymore.",
                 f"Can you archive {ref.text}? I'm one of its admins.",
                 f"{ref.text[0].upper()}{ref.text[1:]} is done. Archive it, please."),
            solution=proposed_write(
                (_workspaces(ctx), _list_channels(ctx, wid),
                 ToolCall("get_channel", {"channel_id": cid})),
                f"I will archive #{name} in {workspace}; it will become read-only for everyone.",
                call),
            expect=(Expectation("SELECT is_archived FROM channels WHERE channel_id = ?", (cid,),
                                ((1,),)),))
    return None


def remove_member(ctx: SampleContext) -> Constraint | None:
    def members(cid: str, wid: str) -> list[tuple]:
        return ctx.rows("SELECT m.user_id, u.display_name FROM channel_members m JOIN users u ON "
                        "u.user_id = m.user_id WHERE m.channel_id = ? AND m.role = 'member' "
                        "ORDER BY m.user_id", (cid,))

    for cid, wid, workspace, name, ref, uid, who, person in _claimed_members(
            ctx, _ADMIN, members):
        call = ToolCall("remove_member", {"channel_id": cid, "user_id": ctx.user_id,
                                          "member_id": uid})
        return Constraint(
            "remove_member", dict(call.arguments), refs={"channel": ref, "member": person},
            writes=(("remove_member", cid),),
            confirm_terms=((who, _first(who)), (f"#{name}", name)),
            say=(f"Please remove {who} from {ref.text}.",
                 f"{who} moved to another team; can you take them out of {ref.text}?",
                 f"Could you remove {who} from {ref.text}? I'm an admin there."),
            solution=proposed_write(
                (_workspaces(ctx), _list_channels(ctx, wid),
                 ToolCall("list_channel_members", {"channel_id": cid})),
                f"I will remove {who} from #{name} in {workspace}.", call),
            expect=(Expectation("SELECT count(*) FROM channel_members WHERE channel_id = ? AND "
                                "user_id = ?", (cid, uid), ((0,),)),))
    return None


def info_member_count(ctx: SampleContext) -> Constraint | None:
    for (cid, wid, workspace, name, _), ref in _claimed_channels(
            ctx, "AND (m.role IS NOT NULL OR c.is_private = 0)"):
        count, = ctx.rows("SELECT count(*) FROM channel_members WHERE channel_id = ?", (cid,))[0]
        return Constraint(
            "info_member_count", {"channel_id": cid}, refs={"channel": ref}, answer=str(count),
            say=(f"How many members does {ref.text} have?",
                 f"Can you tell me how many people are in {ref.text}?",
                 f"What's the member count of {ref.text}?"),
            solution=answer_steps((_workspaces(ctx), _list_channels(ctx, wid)),
                                  f"#{name} in {workspace} has {count} members."))
    return None


def info_colleague_status(ctx: SampleContext) -> Constraint | None:
    rows = ctx.shuffled(ctx.rows(
        "SELECT DISTINCT u.user_id, u.display_name, u.status_text, w.workspace_id FROM users u "
        "JOIN workspace_members w ON w.user_id = u.user_id WHERE u.status_text != '' AND "
        "u.user_id != ? AND w.workspace_id IN (SELECT workspace_id FROM workspace_members "
        "WHERE user_id = ?) ORDER BY u.user_id, w.workspace_id", (ctx.user_id, ctx.user_id)))
    for uid, who, status, wid in rows[:6]:
        person = describe_person(ctx, uid, who)
        if person is None or not ctx.claim(("person", uid)):
            continue
        return Constraint(
            "info_colleague_status", {"user_id": uid}, refs={"colleague": person},
            answer=status,
            say=(f"What's {who}'s status right now?",
                 f"Can you check {who}'s status for me?",
                 f"Is {who} around? What does their status say?"),
            solution=answer_steps(
                (_workspaces(ctx), ToolCall("search_users", {"workspace_id": wid, "query": who})),
                f'{who}\'s status is "{status}".'))
    return None


def refuse_archive_not_admin(ctx: SampleContext) -> Constraint | None:
    for (cid, wid, _, name, _), ref in _claimed_channels(
            ctx, "AND m.role = 'member' AND c.name != 'general'"):
        admins = [n for n, in ctx.rows("SELECT u.display_name FROM channel_members m JOIN users "
                                       "u ON u.user_id = m.user_id WHERE m.channel_id = ? AND "
                                       "m.role = 'admin' ORDER BY u.display_name", (cid,))]
        return Constraint(
            "refuse_archive_not_admin", {"channel_id": cid}, refs={"channel": ref},
            answer="admin",
            refusal=Refusal((cid,), about=(cid, name, *_NOT_ADMIN_WORDS)),
            say=(f"Please archive {ref.text}. Nobody uses it anymore.",
                 f"Can you archive {ref.text} for me?",
                 f"I want {ref.text} archived, please."),
            solution=answer_steps(
                (_workspaces(ctx), _list_channels(ctx, wid),
                 ToolCall("get_channel", {"channel_id": cid})),
                f"I'm sorry, but I cannot archive #{name}: only a channel admin can archive it, "
                f"and you are not an admin there. You could ask {admins[0]} to do it."),
            expect=(Expectation("SELECT is_archived FROM channels WHERE channel_id = ?", (cid,),
                                ((0,),)),))
    return None


def refuse_join_private(ctx: SampleContext) -> Constraint | None:
    for (cid, _, _, name, _), ref in _claimed_channels(
            ctx, "AND m.role IS NULL AND c.is_private = 1 AND NOT EXISTS (SELECT 1 FROM invites "
                 "i WHERE i.channel_id = c.channel_id AND i.invitee_id = ? AND i.status = "
                 "'pending')", (ctx.user_id,)):
        return Constraint(
            "refuse_join_private", {"channel_id": cid}, refs={"channel": ref}, answer="invite",
            refusal=Refusal((("list_invites", ctx.user_id),),
                            about=(cid, name, *_PRIVATE_WORDS)),
            say=(f"Please add me to {ref.text}.",
                 f"I'd like to join {ref.text}.",
                 f"Can you get me into {ref.text}?"),
            solution=answer_steps(
                (_workspaces(ctx), ToolCall("list_invites", {"user_id": ctx.user_id})),
                f"I'm sorry, but I cannot add you to #{name}: it is a private channel, and it "
                f"can only be joined with an invite from one of its members."),
            expect=(Expectation("SELECT count(*) FROM channel_members WHERE channel_id = ? AND "
                                "user_id = ?", (cid, ctx.user_id), ((0,),)),))
    return None

# ------------------------------------------------------------------------- policy


def _is_admin(db, channel_id, user_id) -> bool:
    return db.execute("SELECT 1 FROM channel_members WHERE channel_id = ? AND user_id = ? AND "
                      "role = 'admin'", (channel_id, user_id)).fetchone() is not None


def policy_violations(db, tool: str, arguments: dict) -> list[str]:
    """Policy rules a write would break, judged on the state before it runs: archiving a
    channel (``policy:admin_only_archive``) or removing a member
    (``policy:admin_only_remove``) without being an admin of the channel."""
    channel_id, user_id = arguments.get("channel_id"), arguments.get("user_id")
    if not isinstance(channel_id, str) or not isinstance(user_id, str):
        return []
    if tool == "archive_channel" and not _is_admin(db, channel_id, user_id):
        return ["policy:admin_only_archive"]
    if tool == "remove_member" and not _is_admin(db, channel_id, user_id):
        return ["policy:admin_only_remove"]
    return []


_BY_ACTOR = ("SELECT user_id FROM users WHERE user_id = ?", "user_id")

TASKS = RuleTaskKit(
    "team_chat",
    by_name(post_in_channel, reply_in_thread, set_status, join_public_channel, pin_message,
            add_reaction, invite_to_private, archive_channel, remove_member, info_member_count,
            info_colleague_status, refuse_archive_not_admin, refuse_join_private),
    **LOGIN.kit_keywords(),
    owners={t: _BY_ACTOR for t in (
        "post_message", "edit_message", "add_reaction", "remove_reaction", "pin_message",
        "unpin_message", "join_channel", "leave_channel", "invite_to_channel",
        "set_channel_topic", "archive_channel", "remove_member", "create_channel", "set_status")},
    ask_identity=ASK,
    identity_phrases=("Sure, {text}.", "Of course: {text}.", "{text}."),
    policy_violations=policy_violations,
)
