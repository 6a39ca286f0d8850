"""Every team chat tool: its success path and its error paths; failed writes change
nothing."""

from __future__ import annotations

from collections import Counter


from tool_gym.core.tools import Category
from tool_gym.domains.team_chat import DOMAIN
from tool_gym.domains.team_chat.invariants import invariants

from ..calls import rules_catch


def _channel(call, where: str, params: tuple = ()):
    """(channel_id, workspace_id) of the first channel matching ``where``."""
    return call.one(f"SELECT c.channel_id, c.workspace_id FROM channels c WHERE {where} "
                    "ORDER BY c.channel_id LIMIT 1", params)


def _member(call, channel_id: str, role: str = "member"):
    return call.one("SELECT user_id FROM channel_members WHERE channel_id = ? AND role = ? "
                    "ORDER BY user_id LIMIT 1", (channel_id, role))[0]


def _outsider(call, channel_id: str, workspace_id: str):
    return call.one("SELECT w.user_id FROM workspace_members w WHERE w.workspace_id = ? AND NOT "
                    "EXISTS (SELECT 1 FROM channel_members m WHERE m.channel_id = ? AND "
                    "m.user_id = w.user_id) AND NOT EXISTS (SELECT 1 FROM invites i WHERE "
                    "i.channel_id = ? AND i.invitee_id = w.user_id) ORDER BY w.user_id LIMIT 1",
                    (workspace_id, channel_id, channel_id))[0]


OPEN = "c.is_archived = 0 AND c.name != 'general'"


def test_toolbox_has_six_reads_and_six_writes_at_least():
    counts = Counter(t.category for t in DOMAIN.toolbox)
    assert counts[Category.READ] >= 6 and counts[Category.WRITE] >= 6
    for t in (t for t in DOMAIN.toolbox if t.category is Category.WRITE):
        assert "user_id" in t.parameters["properties"], t.name  # every write names its actor


def test_find_users_and_profiles(call):
    uid, username, email = call.one("SELECT user_id, username, email FROM users LIMIT 1")
    assert call.ok("find_user_by_username", username="@" + username.upper())["user_id"] == uid
    assert call.ok("find_user_by_email", email=email)["user_id"] == uid
    assert "no user" in call.err("find_user_by_username", username="nobody.here")
    assert "no user" in call.err("find_user_by_email", email="nobody@orbitly.com")
    assert call.ok("get_user_profile", user_id=uid)["username"] == username
    assert "user not found" in call.err("get_user_profile", user_id="usr_0")
    spaces = call.ok("list_workspaces", user_id=uid)["workspaces"]
    assert "ws_01" in [w["workspace_id"] for w in spaces]
    name, = call.one("SELECT display_name FROM users WHERE user_id = ?", (uid,))
    found = call.ok("search_users", workspace_id="ws_01", query=name.lower())["users"]
    assert uid in [u["user_id"] for u in found]
    assert "at least 2" in call.err("search_users", workspace_id="ws_01", query="a")
    assert "workspace not found" in call.err("search_users", workspace_id="ws_9", query="ab")


def test_channels_members_messages(call):
    private, wid = _channel(call, "c.is_private = 1 AND c.is_archived = 0")
    member = _member(call, private)
    outsider = _outsider(call, private, wid)
    seen = {c["channel_id"] for c in call.ok("list_channels", workspace_id=wid,
                                             user_id=member)["channels"]}
    hidden = {c["channel_id"] for c in call.ok("list_channels", workspace_id=wid,
                                               user_id=outsider)["channels"]}
    assert private in seen and private not in hidden
    guest_of_other, = call.one("SELECT user_id FROM users WHERE user_id NOT IN (SELECT user_id "
                               "FROM workspace_members WHERE workspace_id = 'ws_03') LIMIT 1")
    assert "not a member of workspace" in call.err("list_channels", workspace_id="ws_03",
                                                   user_id=guest_of_other)
    info = call.ok("get_channel", channel_id=private)
    assert info["is_private"] and info["admins"] and info["members"] >= 2
    members = call.ok("list_channel_members", channel_id=private)["members"]
    assert len(members) == info["members"]
    assert "channel not found" in call.err("get_channel", channel_id="ch_0")
    latest = call.ok("get_channel_messages", channel_id=private, limit=5)["messages"]
    assert 1 <= len(latest) <= 5 and all(m["thread_parent_id"] is None for m in latest)
    assert "between 1 and 100" in call.err("get_channel_messages", channel_id=private, limit=0)
    parent, = call.one("SELECT thread_parent_id FROM messages WHERE thread_parent_id IS NOT NULL "
                       "LIMIT 1")
    thread = call.ok("get_thread", message_id=parent)["messages"]
    assert thread[0]["message_id"] == parent and len(thread) >= 2
    assert "message not found" in call.err("get_thread", message_id="msg_0")


def test_search_pins_invites(call):
    mid, cid, text = call.one("SELECT m.message_id, m.channel_id, m.text FROM messages m JOIN "
                              "channels c ON c.channel_id = m.channel_id WHERE c.is_private = 1 "
                              "LIMIT 1")
    wid, = call.one("SELECT workspace_id FROM channels WHERE channel_id = ?", (cid,))
    member = _member(call, cid, "admin")
    found = call.ok("search_messages", workspace_id=wid, user_id=member, query=text)["messages"]
    assert mid in [m["message_id"] for m in found]
    outsider = _outsider(call, cid, wid)
    hidden = call.ok("search_messages", workspace_id=wid, user_id=outsider, query=text)
    assert mid not in [m["message_id"] for m in hidden["messages"]]
    assert "at least 2" in call.err("search_messages", workspace_id=wid, user_id=member,
                                    query="x")
    pinned, = call.one("SELECT channel_id FROM pins LIMIT 1")
    assert call.ok("list_pinned_messages", channel_id=pinned)["pins"]
    invitee, = call.one("SELECT invitee_id FROM invites LIMIT 1")
    assert call.ok("list_invites", user_id=invitee)["invites"]
    assert call.ok("transfer_to_human_agents", summary="x") == "Transfer successful"


# ---------------------------------------------------------------------------- writes


def test_post_edit_and_threads(call):
    cid, wid = _channel(call, OPEN)
    author = _member(call, cid)
    posted = call.ok("post_message", channel_id=cid, user_id=author, text="Hello team")
    assert posted["ts"] == "2025-06-02 09:00" and posted["thread_parent_id"] is None
    reply = call.ok("post_message", channel_id=cid, user_id=author, text="More",
                    thread_parent_id=posted["message_id"])
    assert reply["thread_parent_id"] == posted["message_id"]
    assert "not to a reply" in call.err("post_message", channel_id=cid, user_id=author,
                                        text="x", thread_parent_id=reply["message_id"])
    other, _ = _channel(call, OPEN + " AND c.channel_id != ?", (cid,))
    foreign, = call.one("SELECT message_id FROM messages WHERE channel_id = ? LIMIT 1", (other,))
    assert "another channel" in call.err("post_message", channel_id=cid, user_id=author,
                                         text="x", thread_parent_id=foreign)
    outsider = _outsider(call, cid, wid)
    assert "not a member" in call.err("post_message", channel_id=cid, user_id=outsider,
                                      text="x")
    assert "text is empty" in call.err("post_message", channel_id=cid, user_id=author, text=" ")
    assert "too long" in call.err("post_message", channel_id=cid, user_id=author,
                                  text="x" * 4001)
    archived, _ = _channel(call, "c.is_archived = 1")
    someone = _member(call, archived, "admin")
    assert "archived" in call.err("post_message", channel_id=archived, user_id=someone, text="x")
    edited = call.ok("edit_message", message_id=posted["message_id"], user_id=author,
                     text="Hello everyone")
    assert edited["edited"] and edited["text"] == "Hello everyone"
    assert "only the author" in call.err("edit_message", message_id=posted["message_id"],
                                         user_id=_member(call, cid, "admin"), text="hack")
    assert "already has this text" in call.err("edit_message", message_id=posted["message_id"],
                                               user_id=author, text="Hello everyone")


def test_reactions_and_pins(call):
    cid, wid = _channel(call, OPEN)
    user = _member(call, cid)
    mid, = call.one("SELECT message_id FROM messages WHERE channel_id = ? AND message_id NOT IN "
                    "(SELECT message_id FROM pins) LIMIT 1", (cid,))
    reacted = call.ok("add_reaction", message_id=mid, user_id=user, emoji=":rocket:")
    assert any(r["emoji"] == ":rocket:" for r in reacted["reactions"])
    assert "already reacted" in call.err("add_reaction", message_id=mid, user_id=user,
                                         emoji=":rocket:")
    assert "invalid emoji" in call.err("add_reaction", message_id=mid, user_id=user,
                                       emoji="rocket")
    call.ok("remove_reaction", message_id=mid, user_id=user, emoji=":rocket:")
    assert "no :rocket: reaction" in call.err("remove_reaction", message_id=mid, user_id=user,
                                              emoji=":rocket:")
    assert call.ok("pin_message", message_id=mid, user_id=user)["pinned"] is True
    assert "already pinned" in call.err("pin_message", message_id=mid, user_id=user)
    assert call.ok("unpin_message", message_id=mid, user_id=user)["pinned"] is False
    assert "not pinned" in call.err("unpin_message", message_id=mid, user_id=user)
    outsider = _outsider(call, cid, wid)
    assert "not a member" in call.err("pin_message", message_id=mid, user_id=outsider)


def test_join_leave_and_invites(call):
    public, wid = _channel(call, OPEN + " AND c.is_private = 0")
    newcomer = _outsider(call, public, wid)
    assert call.ok("join_channel", channel_id=public, user_id=newcomer)["my_role"] == "member"
    assert "already a member" in call.err("join_channel", channel_id=public, user_id=newcomer)
    assert call.ok("leave_channel", channel_id=public, user_id=newcomer)["my_role"] is None
    assert "not a member" in call.err("leave_channel", channel_id=public, user_id=newcomer)
    general, = call.one("SELECT channel_id FROM channels WHERE name = 'general' AND "
                        "workspace_id = ?", (wid,))
    assert "#general" in call.err("leave_channel", channel_id=general, user_id=newcomer)
    private, pwid = _channel(call, "c.is_private = 1 AND c.is_archived = 0")
    stranger = _outsider(call, private, pwid)
    assert "only be joined with an invitation" in call.err("join_channel", channel_id=private,
                                                           user_id=stranger)
    inviter = _member(call, private)
    invite = call.ok("invite_to_channel", channel_id=private, user_id=inviter,
                     invitee_id=stranger)
    assert invite["status"] == "pending"
    assert "pending invitation" in call.err("invite_to_channel", channel_id=private,
                                            user_id=inviter, invitee_id=stranger)
    assert "not a member of #" in call.err("invite_to_channel", channel_id=private,
                                           user_id=_outsider(call, private, pwid),
                                           invitee_id=inviter)
    assert "already a member" in call.err("invite_to_channel", channel_id=private,
                                          user_id=inviter, invitee_id=inviter)
    call.ok("join_channel", channel_id=private, user_id=stranger)
    assert call.one("SELECT status FROM invites WHERE invite_id = ?",
                    (invite["invite_id"],)) == ("accepted",)
    outside_ws, = call.one("SELECT user_id FROM users WHERE user_id NOT IN (SELECT user_id FROM "
                           "workspace_members WHERE workspace_id = 'ws_03') LIMIT 1")
    guild, = call.one("SELECT channel_id FROM channels WHERE workspace_id = 'ws_03' AND "
                      "is_private = 0 AND name != 'general' LIMIT 1")
    assert "not a member of workspace" in call.err("join_channel", channel_id=guild,
                                                   user_id=outside_ws)
    assert invariants(call.box.db) == []


def test_topic_archive_and_removal(call):
    cid, wid = _channel(call, OPEN)
    admin, member = _member(call, cid, "admin"), _member(call, cid)
    assert call.ok("set_channel_topic", channel_id=cid, user_id=member, topic="New topic")[
        "topic"] == "New topic"
    assert "already has this topic" in call.err("set_channel_topic", channel_id=cid,
                                                user_id=member, topic="New topic")
    assert "too long" in call.err("set_channel_topic", channel_id=cid, user_id=member,
                                  topic="x" * 251)
    removed = call.ok("remove_member", channel_id=cid, user_id=admin, member_id=member)
    assert call.one("SELECT count(*) FROM channel_members WHERE channel_id = ? AND user_id = ?",
                    (cid, member)) == (0,)
    assert removed["channel_id"] == cid
    assert "not a member" in call.err("remove_member", channel_id=cid, user_id=admin,
                                      member_id=member)
    assert "use leave_channel" in call.err("remove_member", channel_id=cid, user_id=admin,
                                           member_id=admin)
    assert call.ok("archive_channel", channel_id=cid, user_id=admin)["is_archived"] is True
    assert "archived" in call.err("archive_channel", channel_id=cid, user_id=admin)
    general, = call.one("SELECT channel_id FROM channels WHERE name = 'general' LIMIT 1")
    boss = _member(call, general, "admin")
    assert "#general cannot be archived" in call.err("archive_channel", channel_id=general,
                                                     user_id=boss)
    assert invariants(call.box.db) == []


def test_last_admin_stays(call):
    cid, _ = _channel(call, OPEN)
    admin = _member(call, cid, "admin")
    call.box.db.execute("UPDATE channel_members SET role = 'member' WHERE channel_id = ? AND "
                        "user_id != ?", (cid, admin))  # leave a single admin
    assert "last admin" in call.err("leave_channel", channel_id=cid, user_id=admin)
    assert "last admin" in call.err("remove_member", channel_id=cid, user_id=_member(call, cid),
                                    member_id=admin)


def test_create_channel_and_status(call):
    uid, = call.one("SELECT user_id FROM workspace_members WHERE workspace_id = 'ws_01' AND "
                    "role = 'member' LIMIT 1")
    made = call.ok("create_channel", workspace_id="ws_01", user_id=uid, name="#q4-planning",
                   is_private=True)
    assert made["name"] == "q4-planning" and made["is_private"] and made["my_role"] == "admin"
    assert "already exists" in call.err("create_channel", workspace_id="ws_01", user_id=uid,
                                        name="q4-planning")
    assert "invalid channel name" in call.err("create_channel", workspace_id="ws_01",
                                              user_id=uid, name="Q4 Planning")
    guest, = call.one("SELECT user_id FROM workspace_members WHERE role = 'guest' LIMIT 1")
    assert "guests cannot" in call.err("create_channel", workspace_id="ws_02", user_id=guest,
                                       name="guest-room")
    status = call.ok("set_status", user_id=uid, status_text="In a meeting",
                     status_emoji=":calendar:", presence="dnd")
    assert (status["status_text"], status["status_emoji"], status["presence"]) == (
        "In a meeting", ":calendar:", "dnd")
    assert "already set" in call.err("set_status", user_id=uid, status_text="In a meeting",
                                     status_emoji=":calendar:")
    assert "invalid emoji" in call.err("set_status", user_id=uid, status_text="x",
                                       status_emoji="calendar")
    assert "too long" in call.err("set_status", user_id=uid, status_text="x" * 101)
    assert "must be one of" in call.err("set_status", user_id=uid, status_text="x",
                                        presence="busy")
    assert invariants(call.box.db) == []


def test_invariants_catch_broken_rules(box):
    rules_catch(box, {
        "has an admin": "DELETE FROM channel_members WHERE role = 'admin' AND channel_id = "
        "(SELECT channel_id FROM channels WHERE name = 'design')",
        "in the workspace's #general": "DELETE FROM channel_members WHERE channel_id = "
        "(SELECT channel_id FROM channels WHERE name = 'general' LIMIT 1) AND user_id = "
        "'usr_0001'",
        "answers a top-level message": "UPDATE messages SET thread_parent_id = (SELECT "
        "message_id FROM messages WHERE thread_parent_id IS NOT NULL LIMIT 1) WHERE "
        "message_id = 'msg_000001'",
        "unique lowercase names": "UPDATE channels SET name = 'Bad Name' WHERE name = 'random'",
        "empty or a short code": "UPDATE users SET status_emoji = 'smile' WHERE user_id = "
        "'usr_0001'",
    })
