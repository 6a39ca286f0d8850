"""Hidden-intent tasks of the social media domain: the constraint samplers and ``TASKS``, the
domain's :class:`~tool_gym.core.taskkit.RuleTaskKit`.

Eight kinds of writes (follow an account, answer a follow request, block a follower, delete
or report a rude comment on one's own post, restore a recently deleted post, send a direct
message, switch the account's visibility), three questions (the follower count, who left
the latest comment on a post, since when the user follows an account) and two requests the
policy forbids (restoring a post deleted more than 30 days ago; messaging an account whose
setting does not accept the user's messages).

People are described by their handle (``@username``) or by their display name among the
user's followers, the accounts they follow or the accounts asking to follow them; posts by
their text; comments by their text, author and post. Claims keep the needs of one task
apart: an account, a post, and ``("followers", user)`` for every need that reads or changes
the user's follower count, ``("privacy", user)`` for the account's visibility and its
pending follow requests.
"""

from __future__ import annotations

from ...core.actions import ToolCall
from ...core.sampler_parts import Login, by_name, describe_any
from ...core.task_model import Constraint, Description, Expectation, Refusal
from ...core.taskkit import RuleTaskKit, SampleContext, answer_steps, write_steps
from .generate import MESSAGES, RUDE
from .tools import RESTORE_WINDOW_DAYS, days_before_today, may_message

ASK_IDENTITY = ("Before I can help, I need to verify your identity. Could you tell me the "
                "email address or the username of your account?")

#: How a user describes someone among their followers, the accounts they follow, or the
#: accounts asking to follow them: words, and the query that proves the description.
RELATIONS = {
    "follower": ("my follower {name}",
                 "SELECT f.follower_id FROM follows f JOIN users u ON u.user_id = f.follower_id "
                 "WHERE f.followee_id = ? AND u.display_name = ?"),
    "following": ("{name}, whom I follow",
                  "SELECT f.followee_id FROM follows f JOIN users u ON u.user_id = f.followee_id "
                  "WHERE f.follower_id = ? AND u.display_name = ?"),
    "requester": ("{name}",
                  "SELECT r.requester_id FROM follow_requests r JOIN users u "
                  "ON u.user_id = r.requester_id WHERE r.target_id = ? AND r.status = 'pending' "
                  "AND u.display_name = ?"),
}
#: What the user says about a rude comment, by the report reason that fits it.
REASON_WORDS = {
    "harassment": ("it's insulting and I feel harassed", "they are harassing me"),
    "spam": ("it's just spam", "it's an ad, pure spam"),
}
_RESTORE_WORDS = ("30 days", "30-day", "days", "restore window", "window", "too long ago",
                  "too old", "expired", "no longer be restored", "can no longer")
_MESSAGE_WORDS = (
    "accept messages", "accepts messages", "accept direct messages",
    "accepts direct messages", "message settings", "message setting", "messaging settings",
    "settings", "only accepts", "nobody", "doesn't follow you", "does not follow you",
    "don't follow you", "do not follow you", "messages from you", "turned off")


# ------------------------------------------------------------------ descriptions

def _names(ctx: SampleContext, person_id: str) -> tuple[str, str]:
    """The account's username and display name."""
    return ctx.rows("SELECT username, display_name FROM users WHERE user_id = ?",
                    (person_id,))[0]


def describe_person(ctx: SampleContext, person_id: str,
                    relation: str | None = None) -> Description | None:
    """Someone by handle, by display name and handle, or (with ``relation``) by display
    name among the user's followers / followed accounts / requesters."""
    username, name = _names(ctx, person_id)
    options = [(f"@{username}", {"username": username},
                "SELECT user_id FROM users WHERE username = ?", (username,)),
               (f"{name} (@{username})", {"display_name": name, "username": username},
                "SELECT user_id FROM users WHERE username = ? AND display_name = ?",
                (username, name))]
    if relation is not None:
        text, query = RELATIONS[relation]
        options.append((text.format(name=name), {"display_name": name, "relation": relation},
                        query, (ctx.user_id, name)))
    return describe_any(ctx, "person", person_id, options)


def describe_post(ctx: SampleContext, post_id: str, content: str) -> Description | None:
    return ctx.describe("post", f'my post "{content}"', {"content": content}, post_id,
                        "SELECT post_id FROM posts WHERE author_id = ? AND content = ?",
                        (ctx.user_id, content))


def describe_comment(ctx: SampleContext, comment_id: str, comment: str, author: str,
                     post: str) -> Description | None:
    base = ("SELECT c.comment_id FROM comments c JOIN posts p ON p.post_id = c.post_id "
            "JOIN users u ON u.user_id = c.author_id WHERE p.author_id = ? AND p.content = ? "
            "AND c.content = ? AND c.status = 'visible'")
    return describe_any(ctx, "comment", comment_id, [
        (f'the comment "{comment}" that {author} left on my post "{post}"',
         {"comment": comment, "author": author, "post": post},
         base + " AND u.display_name = ?", (ctx.user_id, post, comment, author)),
        (f'the comment "{comment}" on my post "{post}"', {"comment": comment, "post": post},
         base, (ctx.user_id, post, comment))])


def _find(ctx: SampleContext, d: Description) -> list[ToolCall]:
    """The read that shows the described person's id: the relation's list, else a search
    by handle."""
    relation = d.fields.get("relation")
    tool = {"follower": "list_followers", "following": "list_following",
            "requester": "list_follow_requests"}.get(relation)
    if tool is not None:
        return [ToolCall(tool, {"user_id": ctx.user_id})]
    return [ToolCall("search_users", {"query": d.fields["username"]})]


def _own_posts(ctx: SampleContext) -> ToolCall:
    return ToolCall("list_posts", {"user_id": ctx.user_id, "author_id": ctx.user_id})


def _count(ctx: SampleContext, sql: str, params: tuple) -> int:
    return ctx.rows(sql, params)[0][0]


def _who(name: str, username: str) -> str:
    return f"{name} (@{username})"


# ----------------------------------------------------------------------- samplers

def follow_account(ctx: SampleContext) -> Constraint | None:
    uid = ctx.user_id
    rows = ctx.rows(
        "SELECT DISTINCT u.user_id, u.visibility FROM follows mine JOIN follows theirs "
        "ON theirs.follower_id = mine.followee_id JOIN users u ON u.user_id = theirs.followee_id "
        "WHERE mine.follower_id = ? AND u.user_id != ? AND NOT EXISTS (SELECT 1 FROM follows f "
        "WHERE f.follower_id = ? AND f.followee_id = u.user_id) AND NOT EXISTS (SELECT 1 FROM "
        "blocks b WHERE (b.blocker_id = ? AND b.blocked_id = u.user_id) OR (b.blocker_id = "
        "u.user_id AND b.blocked_id = ?)) AND NOT EXISTS (SELECT 1 FROM follow_requests r "
        "WHERE r.requester_id = ? AND r.target_id = u.user_id AND r.status = 'pending') "
        "ORDER BY u.rowid", (uid,) * 6)
    for pid, visibility in ctx.shuffled(rows)[:8]:
        d = describe_person(ctx, pid)
        if d is None or not ctx.claim(pid):
            continue
        username, name = _names(ctx, pid)
        call = ToolCall("follow_user", {"target_user_id": pid, "user_id": uid})
        if visibility == "private":
            proposal = (f"{_who(name, username)} has a private account, so I will send them a "
                        "follow request from your account. Shall I proceed?")
            expect = Expectation("SELECT count(*) FROM follow_requests WHERE requester_id = ? "
                                 "AND target_id = ? AND status = 'pending'", (uid, pid), ((1,),))
        else:
            proposal = f"I will follow {_who(name, username)} from your account. Shall I proceed?"
            expect = Expectation("SELECT count(*) FROM follows WHERE follower_id = ? "
                                 "AND followee_id = ?", (uid, pid), ((1,),))
        return Constraint(
            "follow_account", dict(call.arguments), refs={"person": d},
            writes=(("follow_user", pid),), confirm_terms=(("follow",), (pid, username, name)),
            say=(f"I'd like to follow {d.text}.", f"Please follow {d.text} for me.",
                 f"Can you make my account follow {d.text}?"),
            solution=write_steps(_find(ctx, d), proposal, call), expect=(expect,))
    return None


def respond_follow_request(ctx: SampleContext) -> Constraint | None:
    rows = ctx.rows("SELECT request_id, requester_id FROM follow_requests WHERE target_id = ? "
                    "AND status = 'pending' ORDER BY rowid", (ctx.user_id,))
    for request_id, pid in ctx.shuffled(rows):
        accept = bool(ctx.rng.random() < 0.5)
        d = describe_person(ctx, pid, "requester")
        keys = (request_id, pid, ("privacy", ctx.user_id)) + \
            ((("followers", ctx.user_id),) if accept else ())
        if d is None or not ctx.claim(*keys):
            continue
        username, name = _names(ctx, pid)
        decision, status = ("accept", "accepted") if accept else ("decline", "declined")
        call = ToolCall("respond_to_follow_request", {"request_id": request_id,
                                                      "decision": decision})
        if accept:
            say = (f"Please accept the follow request from {d.text}.",
                   f"{d.text[:1].upper()}{d.text[1:]} asked to follow me; please approve it.",
                   f"I'd like to let {d.text} follow me: accept their request, please.")
            effect = "they will become your follower"
        else:
            say = (f"Please decline the follow request from {d.text}.",
                   f"I don't want {d.text} following me; please decline their request.",
                   f"Could you turn down the follow request from {d.text}?")
            effect = "they will not be able to see your posts"
        return Constraint(
            "respond_follow_request", dict(call.arguments), refs={"requester": d},
            writes=(("respond_to_follow_request", request_id),),
            confirm_terms=((decision,), (request_id, username, name)), say=say,
            solution=write_steps(
                [ToolCall("list_follow_requests", {"user_id": ctx.user_id})],
                f"I will {decision} the follow request from {_who(name, username)}: {effect}. "
                "Shall I proceed?", call),
            expect=(Expectation("SELECT status FROM follow_requests WHERE request_id = ?",
                                (request_id,), ((status,),)),
                    Expectation("SELECT count(*) FROM follows WHERE follower_id = ? "
                                "AND followee_id = ?", (pid, ctx.user_id),
                                ((int(accept),),))))
    return None


def block_account(ctx: SampleContext) -> Constraint | None:
    rows = ctx.rows("SELECT follower_id FROM follows WHERE followee_id = ? ORDER BY rowid",
                    (ctx.user_id,))
    for (pid,) in ctx.shuffled(rows)[:8]:
        d = describe_person(ctx, pid, "follower")
        if d is None or not ctx.claim(pid, ("followers", ctx.user_id)):
            continue
        username, name = _names(ctx, pid)
        call = ToolCall("block_user", {"target_user_id": pid, "user_id": ctx.user_id})
        return Constraint(
            "block_account", dict(call.arguments), refs={"person": d},
            writes=(("block_user", pid),), confirm_terms=(("block",), (pid, username, name)),
            say=(f"Please block {d.text}; they keep bothering me.",
                 f"I want to block {d.text}.", f"Can you block {d.text} on my account?"),
            solution=write_steps(
                _find(ctx, d),
                f"I will block {_who(name, username)}: you will stop following each other, and "
                "they will not be able to see your posts or message you. Shall I proceed?", call),
            expect=(Expectation("SELECT count(*) FROM blocks WHERE blocker_id = ? "
                                "AND blocked_id = ?", (ctx.user_id, pid), ((1,),)),
                    Expectation("SELECT count(*) FROM follows WHERE (follower_id = ? AND "
                                "followee_id = ?) OR (follower_id = ? AND followee_id = ?)",
                                (pid, ctx.user_id, ctx.user_id, pid), ((0,),))))
    return None


def _rude_comments(ctx: SampleContext) -> list[tuple]:
    """Visible rude comments of others on the user's published posts, not reported by the
    user: ``(comment_id, post_id, post text, comment text, author's display name)``."""
    rows = ctx.rows(
        "SELECT c.comment_id, p.post_id, p.content, c.content, u.display_name FROM comments c "
        "JOIN posts p ON p.post_id = c.post_id JOIN users u ON u.user_id = c.author_id "
        "WHERE p.author_id = ? AND p.status = 'published' AND c.status = 'visible' "
        "AND c.author_id != ? AND NOT EXISTS (SELECT 1 FROM reports r WHERE r.reporter_id = ? "
        "AND r.comment_id = c.comment_id) ORDER BY c.rowid", (ctx.user_id,) * 3)
    return [r for r in rows if r[3] in RUDE]


def _comment_reads(ctx: SampleContext, post_id: str) -> list[ToolCall]:
    return [_own_posts(ctx), ToolCall("get_post", {"user_id": ctx.user_id, "post_id": post_id})]


def delete_comment(ctx: SampleContext) -> Constraint | None:
    for cid, post_id, post, comment, author in ctx.shuffled(_rude_comments(ctx)):
        d = describe_comment(ctx, cid, comment, author, post)
        if d is None or not ctx.claim(cid, ("post", post_id)):
            continue
        call = ToolCall("delete_comment", {"comment_id": cid, "user_id": ctx.user_id})
        return Constraint(
            "delete_comment", dict(call.arguments), refs={"comment": d},
            writes=(("delete_comment", cid),), confirm_terms=(("delete",), (cid, comment)),
            say=(f"Please delete {d.text}.",
                 f"Someone was rude under my post: can you remove {d.text}?",
                 f"I want {d.text} gone. Can you delete it?"),
            solution=write_steps(
                _comment_reads(ctx, post_id),
                f'I will delete the comment "{comment}" by {author} on your post "{post}". '
                "Shall I proceed?", call),
            expect=(Expectation("SELECT status FROM comments WHERE comment_id = ?", (cid,),
                                (("deleted",),)),))
    return None


def report_comment(ctx: SampleContext) -> Constraint | None:
    for cid, post_id, post, comment, author in ctx.shuffled(_rude_comments(ctx)):
        d = describe_comment(ctx, cid, comment, author, post)
        if d is None or not ctx.claim(cid, ("post", post_id)):
            continue
        reason = RUDE[comment]
        first, second = REASON_WORDS[reason]
        call = ToolCall("report_comment", {"comment_id": cid, "user_id": ctx.user_id,
                                           "reason": reason})
        return Constraint(
            "report_comment", dict(call.arguments), refs={"comment": d},
            writes=(("report_comment", cid),),
            confirm_terms=(("report",), (cid, comment), (reason,)),
            say=(f"I want to report {d.text}: {first}.",
                 f"Please report {d.text} to the moderators, because {second}.",
                 f"Can you flag {d.text}? {first[:1].upper()}{first[1:]}."),
            solution=write_steps(
                _comment_reads(ctx, post_id),
                f'I will report the comment "{comment}" by {author} on your post "{post}" to '
                f"the moderators, with the reason {reason}. Shall I proceed?", call),
            expect=(Expectation("SELECT reason, status FROM reports WHERE reporter_id = ? "
                                "AND comment_id = ?", (ctx.user_id, cid),
                                ((reason, "open"),)),))
    return None


def _deleted_posts(ctx: SampleContext, newest: int, oldest: int) -> list[tuple]:
    """The user's deleted posts deleted ``newest`` to ``oldest`` days ago."""
    rows = ctx.rows("SELECT post_id, content, deleted_on FROM posts WHERE author_id = ? "
                    "AND status = 'deleted' ORDER BY rowid", (ctx.user_id,))
    return [r for r in rows if newest <= days_before_today(r[2]) <= oldest]


def restore_post(ctx: SampleContext) -> Constraint | None:
    for post_id, content, deleted_on in ctx.shuffled(_deleted_posts(
            ctx, 1, RESTORE_WINDOW_DAYS - 2)):
        d = describe_post(ctx, post_id, content)
        if d is None or not ctx.claim(post_id, ("post", post_id)):
            continue
        call = ToolCall("restore_post", {"post_id": post_id})
        return Constraint(
            "restore_post", dict(call.arguments), refs={"post": d},
            writes=(("restore_post", post_id),), confirm_terms=(("restore",), (post_id, content)),
            say=(f"I deleted {d.text} by mistake; can you restore it?",
                 f"Please bring back {d.text}, which I deleted recently.",
                 f"Could you restore {d.text}?"),
            solution=write_steps(
                [_own_posts(ctx)],
                f'I will restore your post "{content}" (deleted on {deleted_on}) so that it is '
                "published again. Shall I proceed?", call),
            expect=(Expectation("SELECT status FROM posts WHERE post_id = ?", (post_id,),
                                (("published",),)),))
    return None


def refuse_restore_expired(ctx: SampleContext) -> Constraint | None:
    for post_id, content, deleted_on in ctx.shuffled(_deleted_posts(
            ctx, RESTORE_WINDOW_DAYS + 4, 10_000)):
        d = describe_post(ctx, post_id, content)
        if d is None or not ctx.claim(post_id, ("post", post_id)):
            continue
        age = days_before_today(deleted_on)
        return Constraint(
            "refuse_restore_expired", {"post_id": post_id}, refs={"post": d}, answer="cannot",
            refusal=Refusal((post_id,), about=(post_id, content, *_RESTORE_WORDS)),
            say=(f"I deleted {d.text} a while ago and I want it back. Can you restore it?",
                 f"Please restore {d.text}.",
                 f"Could you undelete {d.text} for me?"),
            solution=answer_steps(
                [_own_posts(ctx)],
                f'I\'m sorry, but I cannot restore your post "{content}": it was deleted on '
                f"{deleted_on}, {age} days ago, and a deleted post can only be restored within "
                f"{RESTORE_WINDOW_DAYS} days."),
            expect=(Expectation("SELECT status FROM posts WHERE post_id = ?", (post_id,),
                                (("deleted",),)),))
    return None


def _contacts(ctx: SampleContext) -> list[tuple]:
    """The accounts the user follows, with their message setting and whether they follow
    the user back."""
    return ctx.rows(
        "SELECT u.user_id, u.username, u.dm_policy FROM follows f JOIN users u "
        "ON u.user_id = f.followee_id WHERE f.follower_id = ? ORDER BY f.rowid", (ctx.user_id,))


def _sent(ctx: SampleContext, pid: str, text: str | None = None) -> Expectation:
    """How many messages the user sent ``pid`` (with ``text``) now."""
    sql = "SELECT count(*) FROM messages WHERE sender_id = ? AND recipient_id = ?"
    params: tuple = (ctx.user_id, pid)
    if text is not None:
        sql, params = sql + " AND content = ?", params + (text,)
    return Expectation(sql, params, ((_count(ctx, sql, params),),))


def send_message(ctx: SampleContext) -> Constraint | None:
    for pid, username, policy in ctx.shuffled(_contacts(ctx))[:8]:
        recipient = {"user_id": pid, "username": username, "dm_policy": policy}
        if may_message(ctx.db, ctx.user_id, recipient) is not None:
            continue
        d = describe_person(ctx, pid, "following")
        if d is None or not ctx.claim(pid):
            continue
        text = ctx.pick(MESSAGES)
        _, name = _names(ctx, pid)
        call = ToolCall("send_message", {"recipient_id": pid, "user_id": ctx.user_id,
                                         "content": text})
        before = _sent(ctx, pid, text)
        return Constraint(
            "send_message", dict(call.arguments), refs={"person": d},
            writes=(("send_message", pid),),
            confirm_terms=(("send",), (pid, username, name), (text,)),
            say=(f'Please send {d.text} a message saying "{text}"',
                 f'Can you message {d.text} for me? Write: "{text}"',
                 f'I want to DM {d.text} this: "{text}"'),
            solution=write_steps(
                _find(ctx, d),
                f'I will send {_who(name, username)} this direct message: "{text}". '
                "Shall I proceed?", call),
            expect=(Expectation(before.query, before.params, ((before.rows[0][0] + 1,),)),))
    return None


def refuse_message_restricted(ctx: SampleContext) -> Constraint | None:
    for pid, username, policy in ctx.shuffled(_contacts(ctx))[:12]:
        recipient = {"user_id": pid, "username": username, "dm_policy": policy}
        if policy == "everyone" or may_message(ctx.db, ctx.user_id, recipient) is None:
            continue
        d = describe_person(ctx, pid)
        if d is None or not ctx.claim(pid):
            continue
        text = ctx.pick(MESSAGES)
        _, name = _names(ctx, pid)
        reads = [ToolCall("search_users", {"query": username})]
        if policy == "following":
            reads.append(ToolCall("list_followers", {"user_id": ctx.user_id}))
            why = (f"{_who(name, username)} only accepts messages from accounts they follow, "
                   "and they do not follow you")
        else:
            why = f"{_who(name, username)} does not accept direct messages from anyone"
        return Constraint(
            "refuse_message_restricted",
            {"recipient_id": pid, "user_id": ctx.user_id, "content": text},
            refs={"person": d}, answer="cannot",
            refusal=Refusal((pid,), about=(pid, username, name, *_MESSAGE_WORDS)),
            say=(f'Please send {d.text} a message saying "{text}"',
                 f'Can you DM {d.text} for me? Write: "{text}"',
                 f'I need to message {d.text}: "{text}"'),
            solution=answer_steps(reads, f"I'm sorry, but I cannot send that message: {why}."),
            expect=(_sent(ctx, pid),))
    return None


def change_privacy(ctx: SampleContext) -> Constraint | None:
    (visibility,), = ctx.rows("SELECT visibility FROM users WHERE user_id = ?", (ctx.user_id,))
    pending = _count(ctx, "SELECT count(*) FROM follow_requests WHERE target_id = ? "
                          "AND status = 'pending'", (ctx.user_id,))
    target = "public" if visibility == "private" else "private"
    keys = [("privacy", ctx.user_id)] + ([("followers", ctx.user_id)] if pending else [])
    if not ctx.claim(*keys):
        return None
    call = ToolCall("set_account_privacy", {"user_id": ctx.user_id, "visibility": target})
    reads = [ToolCall("get_user_profile", {"user_id": ctx.user_id})]
    expect = [Expectation("SELECT visibility FROM users WHERE user_id = ?", (ctx.user_id,),
                          ((target,),))]
    if target == "private":
        say = ("Please make my account private.",
               "I want only my followers to see my posts; can you switch my account to "
               "private?", "Could you set my profile to private?")
        proposal = ("I will make your account private: from now on, only your followers will "
                    "see your posts and new followers will need your approval. Shall I proceed?")
    else:
        say = ("Please make my account public.", "Can you switch my account to public?",
               "I'd like anyone to be able to see my profile again; please make it public.")
        proposal = "I will make your account public, so that anyone can see your posts."
        if pending:
            reads.append(ToolCall("list_follow_requests", {"user_id": ctx.user_id}))
            proposal += (f" This also accepts your {pending} pending follow requests at once.")
            expect.append(Expectation("SELECT count(*) FROM follow_requests WHERE target_id = ? "
                                      "AND status = 'pending'", (ctx.user_id,), ((0,),)))
        proposal += " Shall I proceed?"
    return Constraint(
        "change_privacy", dict(call.arguments), writes=(("set_account_privacy", ctx.user_id),),
        confirm_terms=((target,),), say=say, solution=write_steps(reads, proposal, call),
        expect=tuple(expect))


def info_follower_count(ctx: SampleContext) -> Constraint | None:
    count = _count(ctx, "SELECT count(*) FROM follows WHERE followee_id = ?", (ctx.user_id,))
    if count < 10 or not ctx.claim(("followers", ctx.user_id)):
        return None
    return Constraint(
        "info_follower_count", {"user_id": ctx.user_id}, answer=str(count),
        say=("How many followers do I have right now?",
             "Can you tell me my current follower count?",
             "What's the number of people following me at the moment?"),
        solution=answer_steps([ToolCall("get_user_profile", {"user_id": ctx.user_id})],
                              f"You have {count} followers right now."))


def info_last_commenter(ctx: SampleContext) -> Constraint | None:
    posts = ctx.rows("SELECT post_id, content FROM posts WHERE author_id = ? "
                     "AND status = 'published' ORDER BY rowid", (ctx.user_id,))
    for post_id, content in ctx.shuffled(posts):
        comments = ctx.rows(
            "SELECT u.username, u.display_name, c.created_at FROM comments c JOIN users u "
            "ON u.user_id = c.author_id WHERE c.post_id = ? AND c.status = 'visible' "
            "ORDER BY c.created_at DESC, c.comment_id DESC", (post_id,))
        if len(comments) < 2 or comments[0][2] == comments[1][2] or \
                comments[0][0] == comments[1][0]:
            continue
        d = describe_post(ctx, post_id, content)
        if d is None or not ctx.claim(("post", post_id)):
            continue
        username, name, _ = comments[0]
        return Constraint(
            "info_last_commenter", {"post_id": post_id}, refs={"post": d}, answer=username,
            say=(f"Who left the latest comment on {d.text}?",
                 f"Who was the last person to comment on {d.text}?",
                 f"Can you check who commented most recently on {d.text}?"),
            solution=answer_steps(
                [_own_posts(ctx), ToolCall("get_post", {"user_id": ctx.user_id,
                                                        "post_id": post_id})],
                f'The latest comment on your post "{content}" was left by @{username} '
                f"({name})."))
    return None


def info_follow_since(ctx: SampleContext) -> Constraint | None:
    rows = ctx.rows("SELECT followee_id, since FROM follows WHERE follower_id = ? ORDER BY rowid",
                    (ctx.user_id,))
    for pid, since in ctx.shuffled(rows)[:8]:
        d = describe_person(ctx, pid, "following")
        if d is None or not ctx.claim(pid):
            continue
        username, name = _names(ctx, pid)
        return Constraint(
            "info_follow_since", {"target_user_id": pid}, refs={"person": d}, answer=since,
            say=(f"Since when have I been following {d.text}?",
                 f"When did I start following {d.text}?",
                 f"Can you check the date I began following {d.text}?"),
            solution=answer_steps(
                [ToolCall("list_following", {"user_id": ctx.user_id})],
                f"You have been following {_who(name, username)} since {since}."))
    return None


# ------------------------------------------------------------------------ the kit

LOGIN = Login("users", "user_id", "find_user_by_email", "find_user_by_username")


def policy_violations(db, tool: str, arguments: dict) -> list[str]:
    """Policy rules a write would break: the restore window (the tool allows it) and the
    recipient's message setting (the tool refuses it too)."""
    if tool == "restore_post":
        row = db.execute("SELECT status, deleted_on FROM posts WHERE post_id = ?",
                         (arguments.get("post_id"),)).fetchone()
        if row is not None and row[0] == "deleted" and \
                days_before_today(row[1]) > RESTORE_WINDOW_DAYS:
            return ["policy:restore_window"]
    if tool == "send_message":
        sender = arguments.get("user_id")
        row = db.execute("SELECT user_id, username, dm_policy FROM users WHERE user_id = ?",
                         (arguments.get("recipient_id"),)).fetchone()
        if row is not None and isinstance(sender, str) and sender != row[0] and may_message(
                db, sender, {"user_id": row[0], "username": row[1], "dm_policy": row[2]}):
            return ["policy:message_setting"]
    return []


_SELF = ("SELECT user_id FROM users WHERE user_id = ?", "user_id")
_POST_OWNER = ("SELECT author_id FROM posts WHERE post_id = ?", "post_id")

SAMPLERS = by_name(
    follow_account, respond_follow_request, block_account, delete_comment, report_comment,
    restore_post, send_message, change_privacy, info_follower_count, info_last_commenter,
    info_follow_since, refuse_restore_expired, refuse_message_restricted)

TASKS = RuleTaskKit(
    "social_media", SAMPLERS,
    **LOGIN.kit_keywords(),
    owners={
        **{name: _SELF for name in (
            "create_post", "like_post", "unlike_post", "add_comment", "delete_comment",
            "follow_user", "unfollow_user", "block_user", "unblock_user", "mute_user",
            "unmute_user", "send_message", "report_post", "report_comment",
            "set_account_privacy", "set_message_permission")},
        "delete_post": _POST_OWNER,
        "restore_post": _POST_OWNER,
        "respond_to_follow_request": ("SELECT target_id FROM follow_requests "
                                      "WHERE request_id = ?", "request_id"),
    },
    ask_identity=ASK_IDENTITY,
    identity_phrases=("Sure, {text}.", "Of course: {text}.", "Yes, {text}."),
    greetings=("Hi!", "Hello,", "Hi there.", "Hey,"),
    policy_violations=policy_violations,
)
