"""The tools of the social media domain: 13 reads, 19 writes and a transfer to a human agent
(the reads in :mod:`.reads`, the writes in :mod:`.writes`, their shared parts in
:mod:`.records`; this module lists them in order, with the sandbox's quotas).

The agent is a support assistant acting for one signed-in user: tools that act as someone
take that ``user_id`` first. Every tool uses parameterized SQL; a write checks all its
preconditions before its first statement and raises :class:`ToolError` with a clear message
when one fails (the toolbox also wraps each write in a savepoint).

Rules the tools enforce: who may see a post (its author; anyone for a public post of a
public account; otherwise only the author's followers; never across a block), so likes and
comments need that view; following a private account sends a follow request instead;
blocking removes the follows and pending requests between the two accounts; a direct
message respects the recipient's message setting and blocks; a post or comment is reported
at most once by the same user, never by its author. The 30-day window to restore a deleted
post is a policy rule the agent must apply (the tool does not check it, as in tau2, where
tools trust the agent).
"""

from __future__ import annotations

from ...core.tools import Quotas

# The imports below keep the tools in the toolbox's order (reads, then writes): not sorted.
# ruff: noqa: I001
from .reads import (find_user_by_email, find_user_by_username, get_user_profile, search_users,
                    list_followers, list_following, list_follow_requests, list_posts, get_post,
                    list_conversations, get_conversation, list_blocked_and_muted,
                    list_reports, transfer_to_human_agents)
from .records import (MAX_COMMENT, MAX_MESSAGE, MAX_POST, NOW, RESTORE_WINDOW_DAYS, TODAY,
                      blocked_between, days_before_today, follows, may_message)
from .writes import (create_post, delete_post, restore_post, like_post, unlike_post,
                     add_comment, delete_comment, follow_user, unfollow_user,
                     respond_to_follow_request, block_user, unblock_user, mute_user,
                     unmute_user, send_message, report_post, report_comment,
                     set_account_privacy, set_message_permission)

#: Growth bounds of one sandbox (templates hold about 17,000 likes).
QUOTAS = Quotas(rows={"posts": 10_000, "comments": 20_000, "likes": 40_000,
                      "messages": 20_000, "follows": 30_000, "follow_requests": 10_000,
                      "reports": 5_000, "blocks": 5_000, "mutes": 5_000})

__all__ = [
    "QUOTAS", "TODAY", "NOW", "RESTORE_WINDOW_DAYS", "MAX_POST", "MAX_COMMENT", "MAX_MESSAGE",
    "blocked_between", "days_before_today", "follows", "may_message",
    "find_user_by_email", "find_user_by_username", "get_user_profile", "search_users",
    "list_followers", "list_following", "list_follow_requests", "list_posts", "get_post",
    "list_conversations", "get_conversation", "list_blocked_and_muted", "list_reports",
    "transfer_to_human_agents", "create_post", "delete_post", "restore_post", "like_post",
    "unlike_post", "add_comment", "delete_comment", "follow_user", "unfollow_user",
    "respond_to_follow_request", "block_user", "unblock_user", "mute_user", "unmute_user",
    "send_message", "report_post", "report_comment", "set_account_privacy",
    "set_message_permission"]
