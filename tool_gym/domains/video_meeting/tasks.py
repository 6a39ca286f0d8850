"""Hidden-intent tasks of the video meeting domain (the meetings a user hosts or is invited
to, their invitees, settings and breakout rooms, live meetings' waiting rooms and the cloud
recordings of past meetings): the constraint samplers and ``TASKS``, the domain's
:class:`~tool_gym.core.taskkit.RuleTaskKit`.

Claims: a need claims the meeting (``("meeting", id)``) or recording it touches, and a need
that moves the host's calendar claims ``("calendar", user)``, so that two needs of one task
never change the same meeting nor compete for the same free slot.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from ...core.actions import ToolCall
from ...core.sampler_parts import Login, by_name, describe_any
from ...core.taskkit import RuleTaskKit, SampleContext, answer_steps, date_words, write_steps
from ...core.task_model import Constraint, Description, Expectation, Refusal
from .generate import NEW_TITLES
from .tools import NOW, PLANS, end_of, storage_used

#: Words that name why a refusal is due (any one addresses it; see ``Refusal.about``).
_NOT_HOST_WORDS = (
    "host", "hosts", "hosted", "hosting", "organizer", "organiser", "organized", "organised",
    "owner", "owns", "invitee", "invited", "invitation", "attendee", "participant")
_PAST_WORDS = (
    "past", "already happened", "happened", "took place", "ended", "is over", "was over",
    "already over", "completed", "finished", "already passed", "earlier")
_EXTERNAL_WORDS = (
    "external", "outside", "organization", "organisation", "own company", "your company",
    "not a member", "not part of", "domain", "internal")

ASK_IDENTITY = ("Happy to help. First I need to verify your account: could you tell me the "
                "email address or the username you sign in with?")
#: How a user asks for a setting (``{}``: the meeting), and the words a proposal names it by.
_SETTING_WORDS = {
    "waiting_room": (("Please turn on the waiting room for the {}.",
                      "Can you enable the waiting room on the {}?",
                      "I'd like people to wait in a waiting room before they join the {}."),
                     ("waiting room",)),
    "mute_on_entry": (("Please have everyone muted when they join the {}.",
                       "Can you turn on mute on entry for the {}?",
                       "Participants of the {} should be muted as they join."),
                      ("mute",)),
    "auto_recording": (("Please have the {} recorded automatically to the cloud.",
                        "Can you turn on automatic cloud recording for the {}?",
                        "I'd like the {} to be recorded automatically."),
                       ("record",)),
}


def clock(hhmm: str) -> str:
    """``14:30`` -> ``2:30 PM``."""
    hour, minute = int(hhmm[:2]), int(hhmm[3:5])
    return f"{hour % 12 or 12}:{minute:02d} {'AM' if hour < 12 else 'PM'}"


def when_words(start: str) -> str:
    """``2025-03-25 14:00`` -> ``March 25, 2025 at 2:00 PM``."""
    return f"{date_words(start[:10])} at {clock(start[11:])}"


def _time_terms(start: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The confirm-term groups of a start: its day, and its clock time."""
    return (start[:10], date_words(start[:10])), (start[11:], clock(start[11:]))


# ------------------------------------------------------------------ descriptions

def describe_hosted(ctx: SampleContext, meeting_id: str, title: str,
                    start: str) -> Description | None:
    """A meeting the user hosts, by its title (and its day)."""
    mine = "SELECT meeting_id FROM meetings WHERE host_id = ? AND title = ?"
    return describe_any(ctx, "meeting", meeting_id, [
        (f"{title} meeting I'm hosting", {"title": title, "host": "me"}, mine,
         (ctx.user_id, title)),
        (f"{title} meeting I'm hosting on {date_words(start[:10])}",
         {"title": title, "host": "me", "date": start[:10]},
         mine + " AND substr(start_time, 1, 10) = ?", (ctx.user_id, title, start[:10]))])


def describe_invited(ctx: SampleContext, meeting_id: str, title: str,
                     host: str) -> Description | None:
    """A meeting the user is invited to, by its title and its host's name."""
    return ctx.describe(
        "meeting", f"{title} meeting hosted by {host}", {"title": title, "host": host},
        meeting_id, "SELECT m.meeting_id FROM meetings m JOIN users h ON h.user_id = m.host_id "
        "JOIN invitations i ON i.meeting_id = m.meeting_id WHERE i.email = ? AND m.title = ? "
        "AND h.first_name || ' ' || h.last_name = ?", (_email(ctx), title, host))


def describe_recording(ctx: SampleContext, recording_id: str, title: str,
                       recorded: str) -> Description | None:
    return ctx.describe(
        "recording", f"recording of my {title} meeting from {date_words(recorded[:10])}",
        {"title": title, "date": recorded[:10]}, recording_id,
        "SELECT r.recording_id FROM recordings r JOIN meetings m ON m.meeting_id = r.meeting_id "
        "WHERE m.host_id = ? AND m.title = ? AND substr(r.recorded_at, 1, 10) = ?",
        (ctx.user_id, title, recorded[:10]))


def describe_colleague(ctx: SampleContext, user_id: str, first: str,
                       last: str) -> Description | None:
    return ctx.describe(
        "colleague", f"{first} {last}", {"first_name": first, "last_name": last}, user_id,
        "SELECT u.user_id FROM users u JOIN users me ON me.org_id = u.org_id "
        "WHERE me.user_id = ? AND u.first_name = ? AND u.last_name = ?",
        (ctx.user_id, first, last))


# ------------------------------------------------------------------------ helpers

def _email(ctx: SampleContext) -> str:
    return ctx.rows("SELECT email FROM users WHERE user_id = ?", (ctx.user_id,))[0][0]


def _plan(ctx: SampleContext) -> str:
    return ctx.rows("SELECT plan FROM users WHERE user_id = ?", (ctx.user_id,))[0][0]


def _hosted(ctx: SampleContext, status: str) -> list[tuple]:
    """The user's hosted meetings of ``status``: id, title, start, minutes, room."""
    return ctx.rows("SELECT meeting_id, title, start_time, duration_minutes, room_id "
                    "FROM meetings WHERE host_id = ? AND status = ? ORDER BY rowid",
                    (ctx.user_id, status))


def _meetings(ctx: SampleContext, status: str = "") -> ToolCall:
    args = {"user_id": ctx.user_id}
    if status:
        args["status"] = status
    return ToolCall("list_meetings", args)


def _get(meeting_id: str) -> ToolCall:
    return ToolCall("get_meeting", {"meeting_id": meeting_id})


def _busy(ctx: SampleContext, ignore: str = "") -> list[tuple[str, str]]:
    """The user's scheduled and live meetings as ``(start, end)``."""
    return [(s, end_of(s, d)) for s, d in ctx.rows(
        "SELECT start_time, duration_minutes FROM meetings WHERE host_id = ? AND status IN "
        "('scheduled', 'in_progress') AND meeting_id != ?", (ctx.user_id, ignore))]


def _free_slot(ctx: SampleContext, minutes: int, ignore: str = "",
               avoid: str = "") -> str | None:
    """A weekday slot of the next two weeks, on the hour or half hour between 9:00 and
    16:30, free in the user's calendar (and other than ``avoid``)."""
    busy = _busy(ctx, ignore)
    now = datetime.strptime(NOW, "%Y-%m-%d %H:%M")
    for _ in range(30):
        day = now + timedelta(days=int(ctx.rng.integers(1, 15)))
        if day.weekday() >= 5:
            continue
        start = day.replace(hour=int(ctx.rng.integers(9, 17)),
                            minute=int(ctx.rng.choice((0, 30)))).strftime("%Y-%m-%d %H:%M")
        end = end_of(start, minutes)
        if start != avoid and all(e <= start or s >= end for s, e in busy):
            return start
    return None


def _colleagues(ctx: SampleContext, exclude: set[str] = frozenset()) -> list[tuple]:
    """Colleagues of the user (same organization) whose name no one else there shares and
    whose email is not in ``exclude``: id, first and last name, email."""
    rows = ctx.rows(
        "SELECT u.user_id, u.first_name, u.last_name, u.email FROM users u JOIN users me "
        "ON me.org_id = u.org_id WHERE me.user_id = ? AND u.user_id != ? AND (SELECT count(*) "
        "FROM users x WHERE x.org_id = u.org_id AND x.first_name = u.first_name AND "
        "x.last_name = u.last_name) = 1 ORDER BY u.rowid", (ctx.user_id, ctx.user_id))
    return [r for r in rows if r[3] not in exclude]


def _search(ctx: SampleContext, last: str) -> ToolCall:
    return ToolCall("search_colleagues", {"user_id": ctx.user_id, "name": last})


def _meeting_forms(meeting_id: str, title: str) -> tuple[str, ...]:
    return (meeting_id, title)


# ------------------------------------------------------------------- write needs

def schedule_meeting(ctx: SampleContext) -> Constraint | None:
    if not ctx.claim(("calendar", ctx.user_id)):
        return None
    used = {t for (t,) in ctx.rows("SELECT title FROM meetings WHERE host_id = ?",
                                   (ctx.user_id,))}
    titles = [t for t in NEW_TITLES if t not in used]
    minutes = int(ctx.rng.choice((30, 40) if _plan(ctx) == "basic" else (30, 45, 60, 90)))
    start = _free_slot(ctx, minutes)
    if not titles or start is None:
        return None
    title = ctx.pick(titles)
    call = ToolCall("schedule_meeting", {"user_id": ctx.user_id, "title": title,
                                         "start": start, "minutes": minutes})
    day, hour = _time_terms(start)
    return Constraint(
        "schedule_meeting", dict(call.arguments),
        writes=(("schedule_meeting", ctx.user_id),),
        confirm_terms=((title,), day, hour, (str(minutes),)),
        say=(f"Please set up a {minutes}-minute meeting called \"{title}\" on "
             f"{when_words(start)}. I'll host it.",
             f"I need a new meeting, \"{title}\", on {when_words(start)}, {minutes} minutes "
             "long.",
             f"Can you schedule \"{title}\" for {when_words(start)}? Make it {minutes} "
             "minutes."),
        solution=write_steps(
            [_meetings(ctx, "scheduled")],
            f"I will schedule \"{title}\", hosted by you, on {start[:10]} at {start[11:]} for "
            f"{minutes} minutes. Shall I proceed?", call),
        expect=(Expectation("SELECT start_time, duration_minutes, status FROM meetings "
                            "WHERE host_id = ? AND title = ?", (ctx.user_id, title),
                            ((start, minutes, "scheduled"),)),))


def reschedule_meeting(ctx: SampleContext) -> Constraint | None:
    if ("calendar", ctx.user_id) in ctx.claimed:
        return None
    for meeting_id, title, start, minutes, room in ctx.shuffled(_hosted(ctx, "scheduled")):
        if room is not None:
            continue  # the room may be taken at the new time
        new = _free_slot(ctx, minutes, ignore=meeting_id, avoid=start)
        d = describe_hosted(ctx, meeting_id, title, start)
        if new is None or d is None or not ctx.claim(("meeting", meeting_id),
                                                     ("calendar", ctx.user_id)):
            continue
        call = ToolCall("reschedule_meeting", {"meeting_id": meeting_id, "user_id": ctx.user_id,
                                               "start": new, "minutes": minutes})
        day, hour = _time_terms(new)
        return Constraint(
            "reschedule_meeting", dict(call.arguments), refs={"meeting": d},
            writes=(("reschedule_meeting", meeting_id),),
            confirm_terms=(_meeting_forms(meeting_id, title), day, hour),
            say=(f"Could you move the {d.text} to {when_words(new)}? Same length.",
                 f"Please reschedule the {d.text}: it should start {when_words(new)} instead.",
                 f"I need the {d.text} moved to {when_words(new)}, keeping its duration."),
            solution=write_steps(
                [_meetings(ctx, "scheduled"), _get(meeting_id)],
                f"I will move \"{title}\" ({meeting_id}) to {new[:10]} at {new[11:]}, still "
                f"{minutes} minutes. Shall I proceed?", call),
            expect=(Expectation("SELECT start_time, duration_minutes, status FROM meetings "
                                "WHERE meeting_id = ?", (meeting_id,),
                                ((new, minutes, "scheduled"),)),))
    return None


def cancel_meeting(ctx: SampleContext) -> Constraint | None:
    for meeting_id, title, start, _, _ in ctx.shuffled(_hosted(ctx, "scheduled")):
        d = describe_hosted(ctx, meeting_id, title, start)
        if d is None or not ctx.claim(("meeting", meeting_id)):
            continue
        call = ToolCall("cancel_meeting", {"meeting_id": meeting_id, "user_id": ctx.user_id})
        return Constraint(
            "cancel_meeting", dict(call.arguments), refs={"meeting": d},
            writes=(("cancel_meeting", meeting_id),),
            confirm_terms=(("cancel",), _meeting_forms(meeting_id, title)),
            say=(f"Please cancel the {d.text}; we don't need it anymore.",
                 f"Can you call off the {d.text}?",
                 f"The {d.text} isn't happening, so please cancel it."),
            solution=write_steps(
                [_meetings(ctx, "scheduled")],
                f"I will cancel \"{title}\" ({meeting_id}) on {start[:10]} at {start[11:]}; "
                "its invitees will be told. Shall I proceed?", call),
            expect=(Expectation("SELECT status FROM meetings WHERE meeting_id = ?",
                                (meeting_id,), (("cancelled",),)),))
    return None


def invite_colleague(ctx: SampleContext) -> Constraint | None:
    for meeting_id, title, start, _, _ in ctx.shuffled(_hosted(ctx, "scheduled")):
        if ("meeting", meeting_id) in ctx.claimed:
            continue
        invited = {e for (e,) in ctx.rows("SELECT email FROM invitations WHERE meeting_id = ?",
                                          (meeting_id,))}
        people = _colleagues(ctx, invited)
        if not people:
            continue
        user_id, first, last, email = ctx.pick(people)
        d = describe_hosted(ctx, meeting_id, title, start)
        who = describe_colleague(ctx, user_id, first, last)
        if d is None or who is None or not ctx.claim(("meeting", meeting_id)):
            continue
        role = "co_host" if ctx.rng.random() < 0.25 else "attendee"
        args = {"meeting_id": meeting_id, "user_id": ctx.user_id, "email": email}
        if role == "co_host":
            args["role"] = role
        call = ToolCall("invite_participant", args)
        as_what = " as a co-host" if role == "co_host" else ""
        terms = ((first, email), _meeting_forms(meeting_id, title))
        return Constraint(
            "invite_colleague", dict(call.arguments), refs={"meeting": d, "colleague": who},
            writes=(("invite_participant", meeting_id),),
            confirm_terms=terms + ((("co-host", "cohost", "co_host"),) if role == "co_host"
                                   else ()),
            say=(f"Please invite my colleague {who.text} to the {d.text}{as_what}.",
                 f"Could you add {who.text} from my team to the {d.text}{as_what}?",
                 f"{who.text} should join the {d.text}{as_what}; can you invite them?"),
            solution=write_steps(
                [_meetings(ctx, "scheduled"), _search(ctx, last)],
                f"I will invite {first} {last} ({email}) to \"{title}\" ({meeting_id})"
                f"{' as a co-host' if role == 'co_host' else ''}. Shall I proceed?", call),
            expect=(Expectation("SELECT role FROM invitations WHERE meeting_id = ? AND email = ?",
                                (meeting_id, email), ((role,),)),))
    return None


def change_setting(ctx: SampleContext) -> Constraint | None:
    cloud = PLANS[_plan(ctx)]["cloud_recording"]
    rows = ctx.rows("SELECT meeting_id, title, start_time, waiting_room, mute_on_entry, "
                    "join_before_host, auto_recording FROM meetings WHERE host_id = ? AND "
                    "status = 'scheduled' ORDER BY rowid", (ctx.user_id,))
    for meeting_id, title, start, waiting, mute, early, auto in ctx.shuffled(rows):
        options = [s for s, off in (("waiting_room", not waiting and not early),
                                    ("mute_on_entry", not mute),
                                    ("auto_recording", cloud and not auto)) if off]
        d = describe_hosted(ctx, meeting_id, title, start)
        if not options or d is None or not ctx.claim(("meeting", meeting_id)):
            continue
        setting = ctx.pick(options)
        words, terms = _SETTING_WORDS[setting]
        call = ToolCall("update_meeting_settings", {"meeting_id": meeting_id,
                                                    "user_id": ctx.user_id, "setting": setting,
                                                    "enabled": True})
        label = setting.replace("_", " ")
        return Constraint(
            "change_setting", dict(call.arguments), refs={"meeting": d},
            writes=(("update_meeting_settings", meeting_id),),
            confirm_terms=(terms, _meeting_forms(meeting_id, title)),
            say=tuple(w.format(d.text) for w in words),
            solution=write_steps(
                [_meetings(ctx, "scheduled"), _get(meeting_id)],
                f"I will turn on {label} for \"{title}\" ({meeting_id}). Shall I proceed?",
                call),
            expect=(Expectation(f"SELECT {setting} FROM meetings WHERE meeting_id = ?",
                                (meeting_id,), ((1,),)),))
    return None


def share_recording(ctx: SampleContext) -> Constraint | None:
    rows = ctx.rows("SELECT r.recording_id, m.title, r.recorded_at FROM recordings r JOIN "
                    "meetings m ON m.meeting_id = r.meeting_id WHERE m.host_id = ? "
                    "ORDER BY r.rowid", (ctx.user_id,))
    for recording_id, title, recorded in ctx.shuffled(rows):
        shared = {e for (e,) in ctx.rows("SELECT email FROM recording_shares "
                                         "WHERE recording_id = ?", (recording_id,))}
        people = _colleagues(ctx, shared)
        d = describe_recording(ctx, recording_id, title, recorded)
        if not people or d is None or not ctx.claim(("recording", recording_id)):
            continue
        user_id, first, last, email = ctx.pick(people)
        who = describe_colleague(ctx, user_id, first, last)
        if who is None:
            return None
        permission = ctx.pick(("view", "download"))
        call = ToolCall("share_recording", {"recording_id": recording_id,
                                            "user_id": ctx.user_id, "email": email,
                                            "permission": permission})
        how = "watch it" if permission == "view" else "download it"
        return Constraint(
            "share_recording", dict(call.arguments), refs={"recording": d, "colleague": who},
            writes=(("share_recording", recording_id),),
            confirm_terms=((first, email), (recording_id, title),
                           ("view", "watch") if permission == "view" else ("download",)),
            say=(f"Please share the {d.text} with {who.text} so they can {how}.",
                 f"Could {who.text} get the {d.text}? They should be able to {how}.",
                 f"I'd like {who.text} from my team to {how}: the {d.text}."),
            solution=write_steps(
                [ToolCall("list_recordings", {"user_id": ctx.user_id}), _search(ctx, last)],
                f"I will share the recording of \"{title}\" ({recording_id}) with {first} "
                f"{last} ({email}) with {permission} access. Shall I proceed?", call),
            expect=(Expectation("SELECT permission FROM recording_shares WHERE recording_id = ? "
                                "AND email = ?", (recording_id, email), ((permission,),)),))
    return None


def admit_participant(ctx: SampleContext) -> Constraint | None:
    for meeting_id, title, start, _, _ in ctx.shuffled(_hosted(ctx, "in_progress")):
        waiting = ctx.rows("SELECT name, email FROM waiting_room w WHERE meeting_id = ? AND "
                           "(SELECT count(*) FROM waiting_room x WHERE x.meeting_id = "
                           "w.meeting_id AND x.name = w.name) = 1 ORDER BY rowid",
                           (meeting_id,))
        if not waiting or not ctx.claim(("meeting", meeting_id)):
            continue
        name, email = ctx.pick(waiting)
        d = ctx.describe("meeting", f"{title} meeting I'm hosting right now",
                         {"title": title, "host": "me", "status": "in_progress"}, meeting_id,
                         "SELECT meeting_id FROM meetings WHERE host_id = ? AND title = ? "
                         "AND status = 'in_progress'", (ctx.user_id, title))
        who = ctx.describe("waiting", name, {"name": name}, email,
                           "SELECT email FROM waiting_room WHERE meeting_id = ? AND name = ?",
                           (meeting_id, name))
        if d is None or who is None:
            return None
        call = ToolCall("admit_participant", {"meeting_id": meeting_id, "user_id": ctx.user_id,
                                              "email": email})
        return Constraint(
            "admit_participant", dict(call.arguments), refs={"meeting": d, "person": who},
            writes=(("admit_participant", meeting_id),),
            confirm_terms=((name, email), ("admit", "let")),
            say=(f"{name} is stuck in the waiting room of the {d.text}. Please let them in.",
                 f"Can you admit {name} into the {d.text}? They're waiting.",
                 f"Please let {name} in from the waiting room; it's the {d.text}."),
            solution=write_steps(
                [_meetings(ctx, "in_progress"),
                 ToolCall("get_waiting_room", {"meeting_id": meeting_id})],
                f"I will admit {name} ({email}) from the waiting room into \"{title}\" "
                f"({meeting_id}). Shall I proceed?", call),
            expect=(Expectation("SELECT name FROM attendance WHERE meeting_id = ? AND email = ?",
                                (meeting_id, email), ((name,),)),
                    Expectation("SELECT count(*) FROM waiting_room WHERE meeting_id = ? AND "
                                "email = ?", (meeting_id, email), ((0,),))))
    return None


def create_breakout_rooms(ctx: SampleContext) -> Constraint | None:
    rows = ctx.rows("SELECT m.meeting_id, m.title, m.start_time, (SELECT count(*) FROM "
                    "invitations i WHERE i.meeting_id = m.meeting_id) FROM meetings m WHERE "
                    "m.host_id = ? AND m.status = 'scheduled' AND NOT EXISTS (SELECT 1 FROM "
                    "breakout_rooms b WHERE b.meeting_id = m.meeting_id) ORDER BY m.rowid",
                    (ctx.user_id,))
    for meeting_id, title, start, invitees in ctx.shuffled(rows):
        if invitees < 4:
            continue
        d = describe_hosted(ctx, meeting_id, title, start)
        if d is None or not ctx.claim(("meeting", meeting_id)):
            continue
        count = int(ctx.rng.integers(2, min(5, invitees) + 1))
        call = ToolCall("create_breakout_rooms", {"meeting_id": meeting_id,
                                                  "user_id": ctx.user_id, "count": count})
        return Constraint(
            "create_breakout_rooms", dict(call.arguments), refs={"meeting": d},
            writes=(("create_breakout_rooms", meeting_id),),
            confirm_terms=((str(count),), ("breakout",), _meeting_forms(meeting_id, title)),
            say=(f"Please set up {count} breakout rooms for the {d.text}.",
                 f"I want to split the {d.text} into {count} breakout rooms.",
                 f"Can the {d.text} get {count} breakout rooms?"),
            solution=write_steps(
                [_meetings(ctx, "scheduled"), _get(meeting_id)],
                f"I will create {count} breakout rooms (Room 1 to Room {count}) for \"{title}\" "
                f"({meeting_id}). Shall I proceed?", call),
            expect=(Expectation("SELECT count(*) FROM breakout_rooms WHERE meeting_id = ?",
                                (meeting_id,), ((count,),)),))
    return None


# ------------------------------------------------------------- questions

def info_meeting_passcode(ctx: SampleContext) -> Constraint | None:
    rows = ctx.rows(
        "SELECT m.meeting_id, m.title, m.start_time, m.host_id, h.first_name || ' ' || "
        "h.last_name, m.passcode FROM meetings m JOIN users h ON h.user_id = m.host_id "
        "LEFT JOIN invitations i ON i.meeting_id = m.meeting_id AND i.email = ? "
        "WHERE m.status = 'scheduled' AND (m.host_id = ? OR i.email IS NOT NULL) "
        "ORDER BY m.rowid", (_email(ctx), ctx.user_id))
    for meeting_id, title, start, host_id, host, passcode in ctx.shuffled(rows):
        d = (describe_hosted(ctx, meeting_id, title, start) if host_id == ctx.user_id
             else describe_invited(ctx, meeting_id, title, host))
        if d is None or not ctx.claim(("meeting", meeting_id)):
            continue
        return Constraint(
            "info_meeting_passcode", {"meeting_id": meeting_id}, refs={"meeting": d},
            answer=passcode,
            say=(f"What's the passcode for the {d.text}?",
                 f"I lost the passcode of the {d.text}. Can you tell me what it is?",
                 f"Could you look up the passcode to join the {d.text}?"),
            solution=answer_steps(
                [_meetings(ctx, "scheduled"), _get(meeting_id)],
                f"The passcode of \"{title}\" on {start[:10]} is {passcode}."))
    return None


def info_recording_storage(ctx: SampleContext) -> Constraint | None:
    used = storage_used(ctx.db, ctx.user_id)
    if used <= 0 or not ctx.claim(("storage", ctx.user_id)):
        return None
    quota = PLANS[_plan(ctx)]["storage_mb"]
    return Constraint(
        "info_recording_storage", {"user_id": ctx.user_id}, answer=f"{used:.1f}",
        say=("How much cloud storage do my recordings take up right now?",
             "Can you check how many megabytes of recording storage I'm using?",
             "What's my current cloud recording storage usage?"),
        solution=answer_steps(
            [ToolCall("get_user_profile", {"user_id": ctx.user_id})],
            f"Your cloud recordings use {used:.1f} MB of your {quota} MB of storage."))


# ------------------------------------------------------------------- refusals

def refuse_cancel_not_organizer(ctx: SampleContext) -> Constraint | None:
    rows = ctx.rows(
        "SELECT m.meeting_id, m.title, h.first_name || ' ' || h.last_name FROM meetings m "
        "JOIN users h ON h.user_id = m.host_id JOIN invitations i ON i.meeting_id = "
        "m.meeting_id WHERE i.email = ? AND m.status = 'scheduled' ORDER BY m.rowid",
        (_email(ctx),))
    for meeting_id, title, host in ctx.shuffled(rows):
        d = describe_invited(ctx, meeting_id, title, host)
        if d is None or not ctx.claim(("meeting", meeting_id)):
            continue
        return Constraint(
            "refuse_cancel_not_organizer", {"meeting_id": meeting_id}, refs={"meeting": d},
            answer="cannot",
            refusal=Refusal((meeting_id,), about=(meeting_id, title, *_NOT_HOST_WORDS)),
            say=(f"Please cancel the {d.text}; it's a waste of everyone's time.",
                 f"Can you call off the {d.text} for everybody? I was invited to it.",
                 f"I want the {d.text} cancelled."),
            solution=answer_steps(
                [_meetings(ctx, "scheduled"), _get(meeting_id)],
                f"I'm sorry, but I cannot cancel \"{title}\": {host} is its host, and only the "
                "host can cancel a meeting. You are only invited to it; you could ask "
                f"{host} to cancel it."),
            expect=(Expectation("SELECT status FROM meetings WHERE meeting_id = ?",
                                (meeting_id,), (("scheduled",),)),))
    return None


def refuse_change_past_event(ctx: SampleContext) -> Constraint | None:
    for meeting_id, title, start, minutes, _ in ctx.shuffled(_hosted(ctx, "completed")):
        d = describe_hosted(ctx, meeting_id, title, start)
        if d is None or not ctx.claim(("meeting", meeting_id)):
            continue
        new = _free_slot(ctx, minutes)
        if new is None:
            return None
        return Constraint(
            "refuse_change_past_event", {"meeting_id": meeting_id, "start": new},
            refs={"meeting": d}, answer="cannot",
            refusal=Refusal((meeting_id,), about=(meeting_id, title, *_PAST_WORDS)),
            say=(f"Please move the {d.text} to {when_words(new)}.",
                 f"Can you reschedule the {d.text}? Put it on {when_words(new)}.",
                 f"I'd like the {d.text} to happen on {when_words(new)} instead."),
            solution=answer_steps(
                [_meetings(ctx, "completed"), _get(meeting_id)],
                f"I'm sorry, but I cannot reschedule \"{title}\": it already took place on "
                f"{start[:10]} (it is completed), and only a scheduled meeting can be moved. I "
                "can schedule a new meeting instead if you like."),
            expect=(Expectation("SELECT start_time, status FROM meetings WHERE meeting_id = ?",
                                (meeting_id,), ((start, "completed"),)),))
    return None


def refuse_external_edit(ctx: SampleContext) -> Constraint | None:
    rows = ctx.rows(
        "SELECT r.recording_id, m.title, r.recorded_at, i.email FROM recordings r JOIN "
        "meetings m ON m.meeting_id = r.meeting_id JOIN invitations i ON i.meeting_id = "
        "m.meeting_id JOIN users h ON h.user_id = m.host_id JOIN organizations o ON "
        "o.org_id = h.org_id WHERE m.host_id = ? AND i.email NOT LIKE '%@' || o.domain "
        "ORDER BY r.rowid", (ctx.user_id,))
    for recording_id, title, recorded, email in ctx.shuffled(rows):
        d = describe_recording(ctx, recording_id, title, recorded)
        if d is None or not ctx.claim(("recording", recording_id)):
            continue
        return Constraint(
            "refuse_external_edit", {"recording_id": recording_id, "email": email},
            refs={"recording": d}, answer="cannot",
            refusal=Refusal((recording_id,), about=(recording_id, title, email,
                                                    *_EXTERNAL_WORDS)),
            say=(f"Please share the {d.text} with {email}; they were in the meeting.",
                 f"Can you send the {d.text} to our guest at {email}?",
                 f"I'd like {email} to be able to watch the {d.text}."),
            solution=answer_steps(
                [ToolCall("list_recordings", {"user_id": ctx.user_id}),
                 ToolCall("get_recording", {"recording_id": recording_id})],
                f"I'm sorry, but I cannot share the recording of \"{title}\" with {email}: "
                "recordings can only be shared with members of your own organization, and "
                "that address is external."),
            expect=(Expectation("SELECT count(*) FROM recording_shares WHERE recording_id = ? "
                                "AND email = ?", (recording_id, email), ((0,),)),))
    return None


# ------------------------------------------------------------------------ the kit

LOGIN = Login("users", "user_id", "find_user_by_email", "find_user_by_username")


def policy_violations(db, tool: str, arguments: dict) -> list[str]:
    """Policy rules a write would break (the tools refuse these writes as well)."""
    if tool == "share_recording":
        row = db.execute("SELECT h.org_id FROM recordings r JOIN meetings m ON m.meeting_id = "
                         "r.meeting_id JOIN users h ON h.user_id = m.host_id WHERE "
                         "r.recording_id = ?", (arguments.get("recording_id"),)).fetchone()
        email = arguments.get("email")
        if row is not None and isinstance(email, str) and db.execute(
                "SELECT 1 FROM users WHERE email = ? AND org_id = ?",
                (email.strip().lower(), row[0])).fetchone() is None:
            return ["policy:external_share"]
    if tool in ("cancel_meeting", "reschedule_meeting"):
        row = db.execute("SELECT host_id, status FROM meetings WHERE meeting_id = ?",
                         (arguments.get("meeting_id"),)).fetchone()
        if row is not None and row[0] != arguments.get("user_id"):
            return ["policy:not_host"]
        if row is not None and row[1] != "scheduled":
            return ["policy:not_scheduled"]
    return []


_HOST = ("SELECT host_id FROM meetings WHERE meeting_id = ?", "meeting_id")
_RECORDING_HOST = ("SELECT m.host_id FROM recordings r JOIN meetings m ON m.meeting_id = "
                   "r.meeting_id WHERE r.recording_id = ?", "recording_id")

SAMPLERS = by_name(
    schedule_meeting, reschedule_meeting, cancel_meeting, invite_colleague, change_setting,
    share_recording, admit_participant, create_breakout_rooms, info_meeting_passcode,
    info_recording_storage, refuse_cancel_not_organizer, refuse_change_past_event,
    refuse_external_edit)

TASKS = RuleTaskKit(
    "video_meeting", SAMPLERS,
    **LOGIN.kit_keywords(),
    owners={
        "schedule_meeting": ("SELECT user_id FROM users WHERE user_id = ?", "user_id"),
        "reschedule_meeting": _HOST, "cancel_meeting": _HOST, "invite_participant": _HOST,
        "remove_participant": _HOST, "update_meeting_settings": _HOST,
        "create_breakout_rooms": _HOST, "admit_participant": _HOST,
        "assign_conference_room": _HOST,
        "assign_breakout_room": ("SELECT m.host_id FROM breakout_rooms b JOIN meetings m ON "
                                 "m.meeting_id = b.meeting_id WHERE b.breakout_room_id = ?",
                                 "breakout_room_id"),
        "share_recording": _RECORDING_HOST, "delete_recording": _RECORDING_HOST,
    },
    ask_identity=ASK_IDENTITY,
    identity_phrases=("Sure, {text}.", "Of course: {text}.", "Yes, {text}."),
    greetings=("Hi!", "Hello,", "Hi there.", "Good morning."),
    policy_violations=policy_violations,
)
