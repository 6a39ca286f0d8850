"""Hidden-intent tasks of the smart home domain (users' homes, devices, scenes, automations and
shared access): the constraint samplers and ``TASKS``, the domain's
:class:`~tool_gym.core.taskkit.RuleTaskKit`.

A user refers to a home by its name and to a device, scene or automation by its name and
home; to a person sharing a home by their name; to a new person by their email address.
Writes: set a thermostat, dim a light, lock a door, run a scene, create or pause an
automation, share a home, remove someone's access. Questions: a plug's or thermostat's
energy use over some days, when a door was last unlocked, the temperature a thermostat
reads. Refusals: a guest asking to unlock a door (the tool refuses too), an automation that
would unlock a door (policy only: the tool would make it).
"""

from __future__ import annotations

from datetime import date, timedelta

from ...core.actions import ToolCall
from ...core.proposals import Intent, Param
from ...core.sampler_parts import Login, by_name
from ...core.taskkit import RuleTaskKit, SampleContext, answer_steps, date_words, write_steps
from ...core.task_model import Constraint, Description, Expectation, Refusal
from .commands import effect
from .tools import CONTROL, MANAGE, MAX_MEMBERS, NOW, TODAY

ASK_IDENTITY = ("Before I can help, I need to verify your account. Could you tell me the "
                "email address or the app username of your smart home account?")
#: Words that name why a request is refused (any one addresses it; see ``Refusal.about``).
_GUEST_WORDS = ("guest", "guests", "guest access", "permission", "permissions", "role",
                "member", "members", "owner", "admin", "not authorized", "authorized")
_SCHEDULED_UNLOCK_WORDS = ("automation", "automations", "automatic", "automatically",
                           "schedule", "scheduled", "schedules", "security", "timer",
                           "recurring")
DAYS_WORDS = {"daily": "every day", "weekdays": "on weekdays", "weekends": "on weekends"}
DAYS_TERMS = {"daily": ("every day", "daily"), "weekdays": ("weekday",),
              "weekends": ("weekend",)}
SWITCH_TERMS = {"turn_on": ("turns on", "turn on", "switches on", "switch on", "turning on"),
                "turn_off": ("turns off", "turn off", "switches off", "switch off",
                             "turning off")}
AUTOMATION_NAMES = ("Evening Glow", "Morning Routine", "Night Owl", "Early Bird", "Lights Out",
                    "Wake Up Call", "Quiet Hours", "Sunset Switch", "Weekend Lie-In",
                    "Coffee Time", "Bedtime Check", "Home Stretch")
UNLOCK_TIMES = ("07:15", "07:45", "08:00", "08:30", "16:30", "17:45")


# ------------------------------------------------------------------ descriptions

def _homes(ctx: SampleContext, roles: tuple[str, ...] | None = None) -> list[tuple]:
    """``(home_id, name, role)`` of the homes the user reaches (with one of ``roles``)."""
    rows = ctx.rows("SELECT h.home_id, h.name, m.role FROM home_members m JOIN homes h "
                    "ON h.home_id = m.home_id WHERE m.user_id = ? ORDER BY h.rowid",
                    (ctx.user_id,))
    return [r for r in rows if roles is None or r[2] in roles]


def _devices(ctx: SampleContext, kind: str, roles: tuple[str, ...] | None = None,
             where: str = "1") -> list[dict]:
    """The user's devices of ``kind`` in homes where they hold one of ``roles``, as dicts
    with their home's name."""
    out = []
    for home_id, home, _ in _homes(ctx, roles):
        for row in ctx.rows("SELECT device_id, name, kind, status, power, brightness, "
                            "hvac_mode, target_temp, current_temp, lock_state, recording "
                            f"FROM devices WHERE home_id = ? AND kind = ? AND {where} "
                            "ORDER BY rowid", (home_id, kind)):
            keys = ("device_id", "name", "kind", "status", "power", "brightness",
                    "hvac_mode", "target_temp", "current_temp", "lock_state", "recording")
            out.append({**dict(zip(keys, row)), "home_id": home_id, "home": home})
    return out


def describe_home(ctx: SampleContext, home_id: str, name: str) -> Description | None:
    return ctx.describe("home", name, {"home": name}, home_id,
                        "SELECT h.home_id FROM homes h JOIN home_members m "
                        "ON m.home_id = h.home_id WHERE m.user_id = ? AND h.name = ?",
                        (ctx.user_id, name))


def describe_device(ctx: SampleContext, device: dict) -> Description | None:
    noun = " lock" if device["kind"] == "lock" else ""
    return ctx.describe(
        "device", f"{device['name']}{noun} at {device['home']}",
        {"home": device["home"], "device": device["name"]}, device["device_id"],
        "SELECT d.device_id FROM devices d JOIN homes h ON h.home_id = d.home_id "
        "JOIN home_members m ON m.home_id = h.home_id WHERE m.user_id = ? AND h.name = ? "
        "AND d.name = ?", (ctx.user_id, device["home"], device["name"]))


def _reached(ctx: SampleContext, table: str, key: str) -> list[tuple]:
    """``(id, name, home name)`` of every row of ``table`` in the user's homes."""
    return ctx.rows(f"SELECT t.{key}, t.name, h.name FROM {table} t JOIN homes h "
                    "ON h.home_id = t.home_id JOIN home_members m ON m.home_id = h.home_id "
                    "WHERE m.user_id = ? ORDER BY t.rowid", (ctx.user_id,))


def _param(name: str, ctx: SampleContext, table: str, key: str, own: str) -> Param:
    """A device, scene or automation by its id or by its name with its home's; every
    other one of the user's homes is a rival."""
    rows = _reached(ctx, table, key)
    mine = next(r for r in rows if r[0] == own)
    return Param(name, (own, (mine[1], mine[2])),
                 tuple((r[0], (r[1], r[2])) for r in rows if r[0] != own))


def _home_param(ctx: SampleContext, home_id: str) -> Param:
    homes = _homes(ctx)
    name = next(h[1] for h in homes if h[0] == home_id)
    return Param("home", (home_id, name), tuple((h[0], h[1]) for h in homes if h[0] != home_id))


def _reads(ctx: SampleContext, home_id: str, **filters: str) -> list[ToolCall]:
    return [ToolCall("list_homes", {"user_id": ctx.user_id}),
            ToolCall("list_devices", {"home_id": home_id, **filters})]


def _state(device_id: str, columns: str, rows: tuple) -> Expectation:
    return Expectation(f"SELECT {columns} FROM devices WHERE device_id = ?", (device_id,),
                       (rows,))


def _degrees(value: float) -> str:
    return f"{value:g} degrees"


# ----------------------------------------------------------------------- writes

def set_thermostat(ctx: SampleContext) -> Constraint | None:
    for t in ctx.shuffled(_devices(ctx, "thermostat", CONTROL, "status = 'online'")):
        d = describe_device(ctx, t)
        if d is None or not ctx.claim(t["device_id"]):
            continue
        mode = ctx.pick(("heat", "cool", "auto"))
        targets = [x / 2 for x in range(34, 51) if x / 2 != t["target_temp"]]
        target = float(ctx.pick(targets))
        call = ToolCall("set_thermostat", {"device_id": t["device_id"], "user_id": ctx.user_id,
                                           "hvac_mode": mode, "target_temp": target})
        temp = _degrees(target)
        return Constraint(
            "set_thermostat", dict(call.arguments), refs={"device": d},
            writes=(("set_thermostat", t["device_id"]),),
            confirm_terms=((t["name"], t["device_id"]), (f"{target:g}",), (mode,)),
            intent=Intent((_param("device", ctx, "devices", "device_id", t["device_id"]),
                           Param("temperature", (f"{target:g}",)), Param("mode", (mode,)))),
            say=(f"Please set the {d.text} to {temp} in {mode} mode.",
                 f"Could you switch the {d.text} to {mode} mode with a target of {temp}?",
                 f"I'd like the {d.text} on {mode}, set to {temp}."),
            solution=write_steps(
                _reads(ctx, t["home_id"], kind="thermostat"),
                f"I will set the {t['name']} at {t['home']} ({t['device_id']}) to {mode} mode "
                f"with a target of {temp}. Shall I proceed?", call),
            expect=(_state(t["device_id"], "hvac_mode, target_temp", (mode, target)),))
    return None


def dim_light(ctx: SampleContext) -> Constraint | None:
    for light in ctx.shuffled(_devices(ctx, "light", None, "status = 'online'")):
        d = describe_device(ctx, light)
        if d is None or not ctx.claim(light["device_id"]):
            continue
        levels = [x for x in range(10, 101, 5)
                  if light["power"] == "off" or x != light["brightness"]]
        level = int(ctx.pick(levels))
        call = ToolCall("set_brightness", {"device_id": light["device_id"],
                                           "user_id": ctx.user_id, "brightness": level})
        return Constraint(
            "dim_light", dict(call.arguments), refs={"device": d},
            writes=(("set_brightness", light["device_id"]),),
            confirm_terms=((light["name"], light["device_id"]), (f"{level}",)),
            intent=Intent((_param("device", ctx, "devices", "device_id", light["device_id"]),
                           Param("brightness", (f"{level}%", f"{level} percent",
                                                f"{level} %")))),
            say=(f"Please set the {d.text} to {level}% brightness.",
                 f"Can you put the {d.text} at {level} percent?",
                 f"I'd like the {d.text} on at {level}% brightness, please."),
            solution=write_steps(
                _reads(ctx, light["home_id"], kind="light"),
                f"I will set the {light['name']} at {light['home']} ({light['device_id']}) to "
                f"{level}% brightness. Shall I proceed?", call),
            expect=(_state(light["device_id"], "power, brightness", ("on", level)),))
    return None


def lock_door(ctx: SampleContext) -> Constraint | None:
    locks = _devices(ctx, "lock", CONTROL, "status = 'online' AND lock_state = 'unlocked'")
    for lock in ctx.shuffled(locks):
        d = describe_device(ctx, lock)
        if d is None or not ctx.claim(lock["device_id"]):
            continue
        call = ToolCall("lock_door", {"device_id": lock["device_id"], "user_id": ctx.user_id})
        return Constraint(
            "lock_door", dict(call.arguments), refs={"device": d},
            writes=(("lock_door", lock["device_id"]),),
            confirm_terms=(("lock",), (lock["name"], lock["device_id"])),
            intent=Intent((Param("action", ("lock",)),
                           _param("device", ctx, "devices", "device_id", lock["device_id"])),
                          opposite=("unlock",)),
            say=(f"I left the {d.text} open. Can you lock it?",
                 f"Please lock the {d.text} for me.",
                 f"Could you lock the {d.text}? I forgot to when I left."),
            solution=write_steps(
                _reads(ctx, lock["home_id"], kind="lock"),
                f"I will lock the {lock['name']} at {lock['home']} ({lock['device_id']}). "
                "Shall I proceed?", call),
            expect=(_state(lock["device_id"], "lock_state", ("locked",)),))
    return None


def _scene_outcome(ctx: SampleContext, scene_id: str) -> list[tuple] | None:
    """The state of each device of the scene after it runs (offline devices and jammed
    locks unchanged), ordered by device id; ``None`` when a device of it is claimed."""
    actions = ctx.rows("SELECT a.device_id, a.command, a.value FROM scene_actions a "
                       "WHERE a.scene_id = ? ORDER BY a.rowid", (scene_id,))
    keys = ("device_id", "kind", "name", "status", "power", "brightness", "hvac_mode",
            "target_temp", "lock_state", "recording")
    out = []
    for device_id, command, value in actions:
        row = ctx.rows(f"SELECT {', '.join(keys)} FROM devices WHERE device_id = ?",
                       (device_id,))[0]
        device = dict(zip(keys, row))
        if device["status"] == "online" and device["lock_state"] != "jammed":
            device.update(effect(device, command, value))
        out.append((device_id, device["power"], device["brightness"], device["hvac_mode"],
                    device["target_temp"], device["lock_state"], device["recording"]))
    return sorted(out)


def activate_scene(ctx: SampleContext) -> Constraint | None:
    scenes = []
    for home_id, home, _ in _homes(ctx, CONTROL):
        scenes += [(s, n, home_id, home) for s, n in ctx.rows(
            "SELECT scene_id, name FROM scenes s WHERE home_id = ? AND EXISTS (SELECT 1 FROM "
            "scene_actions a WHERE a.scene_id = s.scene_id) ORDER BY rowid", (home_id,))]
    for scene_id, name, home_id, home in ctx.shuffled(scenes):
        d = ctx.describe("scene", f"{name} scene at {home}", {"home": home, "scene": name},
                         scene_id, "SELECT s.scene_id FROM scenes s JOIN homes h "
                         "ON h.home_id = s.home_id JOIN home_members m ON m.home_id = "
                         "h.home_id WHERE m.user_id = ? AND h.name = ? AND s.name = ?",
                         (ctx.user_id, home, name))
        devices = [r[0] for r in ctx.rows("SELECT device_id FROM scene_actions "
                                          "WHERE scene_id = ?", (scene_id,))]
        if d is None or not ctx.claim(scene_id, *devices):
            continue
        outcome = _scene_outcome(ctx, scene_id)
        call = ToolCall("activate_scene", {"scene_id": scene_id, "user_id": ctx.user_id})
        marks = ", ".join("?" for _ in devices)
        return Constraint(
            "activate_scene", dict(call.arguments), refs={"scene": d},
            writes=(("activate_scene", scene_id),),
            confirm_terms=((name, scene_id),),
            intent=Intent((Param("action", ("run", "activate", "start", "trigger")),
                           _param("scene", ctx, "scenes", "scene_id", scene_id))),
            say=(f"Please run the {d.text}.",
                 f"Can you activate my {d.text} now?",
                 f"Could you trigger the {d.text} for me?"),
            solution=write_steps(
                [ToolCall("list_homes", {"user_id": ctx.user_id}),
                 ToolCall("list_scenes", {"home_id": home_id})],
                f"I will run the {name} scene at {home} ({scene_id}) now. Shall I proceed?",
                call),
            expect=(Expectation("SELECT last_activated FROM scenes WHERE scene_id = ?",
                                (scene_id,), ((NOW,),)),
                    Expectation("SELECT device_id, power, brightness, hvac_mode, target_temp, "
                                f"lock_state, recording FROM devices WHERE device_id IN "
                                f"({marks}) ORDER BY device_id", tuple(devices),
                                tuple(outcome))))
    return None


def create_automation(ctx: SampleContext) -> Constraint | None:
    candidates = []
    for kind in ("light", "plug"):
        candidates += _devices(ctx, kind, MANAGE)
    for device in ctx.shuffled(candidates):
        taken = {n.lower() for (n,) in ctx.rows("SELECT name FROM automations "
                                                "WHERE home_id = ?", (device["home_id"],))}
        names = [n for n in AUTOMATION_NAMES if n.lower() not in taken]
        d = describe_device(ctx, device)
        if d is None or not names or not ctx.claim(device["device_id"],
                                                   ("automations", device["home_id"])):
            continue
        name = ctx.pick(names)
        command = ctx.pick(("turn_on", "turn_off"))
        time = f"{int(ctx.rng.integers(5, 24)):02d}:{int(ctx.rng.integers(0, 12)) * 5:02d}"
        days = ctx.pick(("daily", "weekdays", "weekends"))
        call = ToolCall("create_automation", {
            "device_id": device["device_id"], "user_id": ctx.user_id, "name": name,
            "command": command, "time": time, "days": days})
        switch = "on" if command == "turn_on" else "off"
        other = "turn_off" if command == "turn_on" else "turn_on"
        when = f"at {time} {DAYS_WORDS[days]}"
        return Constraint(
            "create_automation", dict(call.arguments), refs={"device": d},
            writes=(("create_automation", device["device_id"]),),
            confirm_terms=((name,), SWITCH_TERMS[command],
                           (device["name"], device["device_id"]), (time,), DAYS_TERMS[days]),
            intent=Intent((Param("name", (name,)), Param("switch", SWITCH_TERMS[command]),
                           _param("device", ctx, "devices", "device_id", device["device_id"]),
                           Param("time", (time,)), Param("days", DAYS_TERMS[days])),
                          opposite=SWITCH_TERMS[other]),
            say=(f"Please set up an automation called \"{name}\" that turns the {d.text} "
                 f"{switch} {when}.",
                 f"I want the {d.text} to switch {switch} {when}; name the automation "
                 f"\"{name}\".",
                 f"Could you create a schedule named \"{name}\" to turn {switch} the {d.text} "
                 f"{when}?"),
            solution=write_steps(
                _reads(ctx, device["home_id"], kind=device["kind"]),
                f"I will create the automation \"{name}\" that {SWITCH_TERMS[command][0]} the "
                f"{device['name']} at {device['home']} ({device['device_id']}) at {time} "
                f"{DAYS_WORDS[days]}. Shall I proceed?", call),
            expect=(Expectation("SELECT device_id, command, value, time, days, status "
                                "FROM automations WHERE home_id = ? AND lower(name) = lower(?)",
                                (device["home_id"], name),
                                ((device["device_id"], command, None, time, days,
                                  "active"),)),))
    return None


def pause_automation(ctx: SampleContext) -> Constraint | None:
    rows = []
    for home_id, home, _ in _homes(ctx, MANAGE):
        rows += [(a, n, home_id, home) for a, n in ctx.rows(
            "SELECT automation_id, name FROM automations WHERE home_id = ? "
            "AND status = 'active' ORDER BY rowid", (home_id,))]
    for automation_id, name, home_id, home in ctx.shuffled(rows):
        d = ctx.describe("automation", f"\"{name}\" automation at {home}",
                         {"home": home, "automation": name}, automation_id,
                         "SELECT a.automation_id FROM automations a JOIN homes h "
                         "ON h.home_id = a.home_id JOIN home_members m ON m.home_id = "
                         "h.home_id WHERE m.user_id = ? AND h.name = ? AND a.name = ?",
                         (ctx.user_id, home, name))
        if d is None or not ctx.claim(automation_id, ("automations", home_id)):
            continue
        call = ToolCall("pause_automation", {"automation_id": automation_id,
                                             "user_id": ctx.user_id})
        return Constraint(
            "pause_automation", dict(call.arguments), refs={"automation": d},
            writes=(("pause_automation", automation_id),),
            confirm_terms=(("pause",), (name, automation_id)),
            intent=Intent((Param("action", ("pause", "suspend", "disable")),
                           _param("automation", ctx, "automations", "automation_id",
                                  automation_id)),
                          opposite=("resume", "delete", "remove")),
            say=(f"Please pause the {d.text} for now.",
                 f"Can you put the {d.text} on hold? I don't want it running for a while.",
                 f"I'd like to pause my {d.text}."),
            solution=write_steps(
                [ToolCall("list_homes", {"user_id": ctx.user_id}),
                 ToolCall("list_automations", {"home_id": home_id})],
                f"I will pause the automation \"{name}\" at {home} ({automation_id}). "
                "Shall I proceed?", call),
            expect=(Expectation("SELECT status FROM automations WHERE automation_id = ?",
                                (automation_id,), (("paused",),)),))
    return None


def share_access(ctx: SampleContext) -> Constraint | None:
    for home_id, home, _ in ctx.shuffled(_homes(ctx, MANAGE)):
        members = {u for (u,) in ctx.rows("SELECT user_id FROM home_members WHERE home_id = ?",
                                          (home_id,))}
        d = describe_home(ctx, home_id, home)
        if len(members) >= MAX_MEMBERS or d is None or not ctx.claim(("members", home_id)):
            continue
        others = [r for r in ctx.rows("SELECT user_id, first_name, last_name, email FROM users "
                                      "ORDER BY rowid") if r[0] not in members]
        invitee, first, last, email = ctx.pick(others)
        role = ctx.pick(("member", "guest"))
        call = ToolCall("share_home_access", {"home_id": home_id, "user_id": ctx.user_id,
                                              "email": email, "role": role})
        other = "guest" if role == "member" else "member"
        return Constraint(
            "share_access", dict(call.arguments), refs={"home": d},
            writes=(("share_home_access", home_id),),
            confirm_terms=((email,), (home, home_id), (role,)),
            intent=Intent((Param("email", (email,)), _home_param(ctx, home_id),
                           Param("role", (role,), ((other,), ("admin",))))),
            say=(f"Please give {first} {last} {role} access to {home}; their account "
                 f"email is {email}.",
                 f"I'd like to share {home} with {first} ({email}) as a {role}.",
                 f"Can you add {first} {last} to {home} as a {role}? The email on their "
                 f"account is {email}."),
            solution=write_steps(
                [ToolCall("list_homes", {"user_id": ctx.user_id}),
                 ToolCall("list_home_members", {"home_id": home_id})],
                f"I will share {home} ({home_id}) with {email} as a {role}. Shall I proceed?",
                call),
            expect=(Expectation("SELECT role FROM home_members WHERE home_id = ? "
                                "AND user_id = ?", (home_id, invitee), ((role,),)),))
    return None


def revoke_access(ctx: SampleContext) -> Constraint | None:
    for home_id, home, role in ctx.shuffled(_homes(ctx, MANAGE)):
        removable = ("admin", "member", "guest") if role == "owner" else ("member", "guest")
        members = ctx.rows("SELECT m.user_id, u.first_name, u.last_name, m.role "
                           "FROM home_members m JOIN users u ON u.user_id = m.user_id "
                           "WHERE m.home_id = ? ORDER BY m.rowid", (home_id,))
        for member_id, first, last, their_role in ctx.shuffled(members):
            if their_role not in removable or member_id == ctx.user_id:
                continue
            d = ctx.describe("member", f"{first} {last}", {"home": home, "first_name": first,
                                                           "last_name": last}, member_id,
                             "SELECT m.user_id FROM home_members m JOIN users u ON u.user_id "
                             "= m.user_id JOIN homes h ON h.home_id = m.home_id JOIN "
                             "home_members me ON me.home_id = h.home_id WHERE me.user_id = ? "
                             "AND h.name = ? AND u.first_name = ? AND u.last_name = ?",
                             (ctx.user_id, home, first, last))
            if d is None or not ctx.claim(("members", home_id)):
                continue
            call = ToolCall("revoke_home_access", {"home_id": home_id, "user_id": ctx.user_id,
                                                   "member_id": member_id})
            rivals = tuple((m[0], (m[1], m[2])) for m in members if m[0] != member_id)
            return Constraint(
                "revoke_access", dict(call.arguments), refs={"member": d},
                writes=(("revoke_home_access", home_id),),
                confirm_terms=(("remove", "revoke"), (f"{first} {last}", member_id),
                               (home, home_id)),
                intent=Intent((Param("action", ("remove", "revoke")),
                               Param("member", (member_id, (first, last)), rivals),
                               _home_param(ctx, home_id))),
                say=(f"Please remove {first} {last}'s access to {home}.",
                     f"{first} {last} shouldn't have access to {home} anymore; can you "
                     "revoke it?",
                     f"I want to take {first} {last} off {home}."),
                solution=write_steps(
                    [ToolCall("list_homes", {"user_id": ctx.user_id}),
                     ToolCall("list_home_members", {"home_id": home_id})],
                    f"I will remove {first} {last} ({member_id}) from {home} ({home_id}), so "
                    "they lose access to it. Shall I proceed?", call),
                expect=(Expectation("SELECT count(*) FROM home_members WHERE home_id = ? "
                                    "AND user_id = ?", (home_id, member_id), ((0,),)),))
    return None


# -------------------------------------------------------------------- questions

def info_energy_usage(ctx: SampleContext) -> Constraint | None:
    devices = _devices(ctx, "plug") + _devices(ctx, "thermostat")
    for device in ctx.shuffled(devices):
        d = describe_device(ctx, device)
        if d is None or not ctx.claim(device["device_id"]):
            continue
        today = date.fromisoformat(TODAY)
        end = today - timedelta(days=int(ctx.rng.integers(1, 15)))
        start = end - timedelta(days=int(ctx.rng.integers(4, 10)))
        readings = ctx.rows("SELECT kwh FROM energy_readings WHERE device_id = ? "
                            "AND day >= ? AND day <= ? ORDER BY day",
                            (device["device_id"], start.isoformat(), end.isoformat()))
        total = round(sum(kwh for (kwh,) in readings) + 0.0, 2)  # as the tool adds them
        if total < 1:
            continue
        period = f"from {date_words(start.isoformat())} to {date_words(end.isoformat())}"
        call = ToolCall("get_energy_usage", {"device_id": device["device_id"],
                                             "start_date": start.isoformat(),
                                             "end_date": end.isoformat()})
        return Constraint(
            "info_energy_usage", dict(call.arguments), refs={"device": d},
            answer=f"{total:.2f}",
            say=(f"How much energy did the {d.text} use {period}?",
                 f"What was the total energy use of the {d.text} {period}, in kWh?",
                 f"Can you tell me how many kWh the {d.text} used {period}?"),
            solution=answer_steps(
                _reads(ctx, device["home_id"], kind=device["kind"]) + [call],
                f"The {device['name']} at {device['home']} used {total:.2f} kWh {period}."))
    return None


def info_last_unlock(ctx: SampleContext) -> Constraint | None:
    locks = _devices(ctx, "lock", None, "(SELECT count(*) FROM device_events e WHERE "
                     "e.device_id = devices.device_id) >= 4 AND EXISTS (SELECT 1 FROM "
                     "device_events e WHERE e.device_id = devices.device_id "
                     "AND e.event = 'unlocked')")
    for lock in ctx.shuffled(locks):
        d = describe_device(ctx, lock)
        if d is None or not ctx.claim(lock["device_id"]):
            continue
        (at,) = ctx.rows("SELECT max(at) FROM device_events WHERE device_id = ? "
                         "AND event = 'unlocked'", (lock["device_id"],))[0]
        day, clock = at[:10], at[11:16]
        return Constraint(
            "info_last_unlock", {"device_id": lock["device_id"]}, refs={"device": d},
            answer=clock,
            say=(f"When was the {d.text} last unlocked?",
                 f"What time did someone last unlock the {d.text}?",
                 f"Can you check when the {d.text} was most recently unlocked?"),
            solution=answer_steps(
                _reads(ctx, lock["home_id"], kind="lock") + [
                    ToolCall("get_device_events", {"device_id": lock["device_id"]})],
                f"The {lock['name']} at {lock['home']} was last unlocked on {day} at "
                f"{clock}."))
    return None


def info_current_temperature(ctx: SampleContext) -> Constraint | None:
    for t in ctx.shuffled(_devices(ctx, "thermostat", None, "status = 'online'")):
        d = describe_device(ctx, t)
        if d is None or not ctx.claim(t["device_id"]):
            continue
        reading = f"{t['current_temp']:.1f}"
        return Constraint(
            "info_current_temperature", {"device_id": t["device_id"]}, refs={"device": d},
            answer=reading,
            say=(f"What temperature is the {d.text} reading right now?",
                 f"How warm is it at the {d.text} at the moment?",
                 f"Can you check the current temperature the {d.text} measures?"),
            solution=answer_steps(
                _reads(ctx, t["home_id"], kind="thermostat"),
                f"The {t['name']} at {t['home']} currently reads {reading} degrees."))
    return None


# --------------------------------------------------------------------- refusals

def refuse_guest_unlock(ctx: SampleContext) -> Constraint | None:
    for lock in ctx.shuffled(_devices(ctx, "lock", ("guest",),
                                      "status = 'online' AND lock_state = 'locked'")):
        d = describe_device(ctx, lock)
        if d is None or not ctx.claim(lock["device_id"]):
            continue
        return Constraint(
            "refuse_guest_unlock",
            {"device_id": lock["device_id"], "user_id": ctx.user_id,
             "home_id": lock["home_id"]},
            refs={"device": d}, answer="cannot",
            refusal=Refusal((lock["home_id"], lock["device_id"]),
                            about=(lock["device_id"], lock["home_id"], lock["name"],
                                   *_GUEST_WORDS)),
            say=(f"I'm standing outside, please unlock the {d.text}.",
                 f"Can you unlock the {d.text} for me? I'm about to arrive.",
                 f"Please open the {d.text} remotely, I need to get in."),
            solution=answer_steps(
                _reads(ctx, lock["home_id"], kind="lock"),
                f"I'm sorry, but I cannot unlock the {lock['name']} at {lock['home']}: you "
                "have guest access to that home, and guests may not lock or unlock doors. "
                "A member, an admin or the owner of the home can unlock it."),
            expect=(_state(lock["device_id"], "lock_state", ("locked",)),))
    return None


def refuse_scheduled_unlock(ctx: SampleContext) -> Constraint | None:
    for lock in ctx.shuffled(_devices(ctx, "lock", MANAGE)):
        d = describe_device(ctx, lock)
        if d is None or not ctx.claim(lock["device_id"], ("automations", lock["home_id"])):
            continue
        time = ctx.pick(UNLOCK_TIMES)
        days = ctx.pick(("daily", "weekdays", "weekends"))
        when = f"at {time} {DAYS_WORDS[days]}"
        return Constraint(
            "refuse_scheduled_unlock",
            {"device_id": lock["device_id"], "user_id": ctx.user_id,
             "name": "Scheduled Unlock", "time": time, "days": days},
            refs={"device": d}, answer="cannot",
            refusal=Refusal((lock["device_id"],),
                            about=(lock["device_id"], lock["name"], *_SCHEDULED_UNLOCK_WORDS)),
            say=(f"Please set up an automation that unlocks the {d.text} {when}.",
                 f"Can you schedule the {d.text} to unlock by itself {when}? The cleaner "
                 "comes then.",
                 f"I'd like the {d.text} to unlock automatically {when}."),
            solution=answer_steps(
                _reads(ctx, lock["home_id"], kind="lock"),
                f"I'm sorry, but I cannot set that up: for security, an automation may never "
                f"unlock a door, so the {lock['name']} at {lock['home']} cannot be unlocked "
                "on a schedule. Automations that lock it are fine."),
            expect=(Expectation("SELECT count(*) FROM automations WHERE device_id = ? "
                                "AND command = 'unlock'", (lock["device_id"],), ((0,),)),))
    return None


# ------------------------------------------------------------------------ the kit

LOGIN = Login("users", "user_id", "find_user_by_email", "find_user_by_username")

#: Device kinds a guest may control (the rest is for members and up).
_GUEST_TOOLS_OK = ("light", "plug")


def policy_violations(db, tool: str, arguments: dict) -> list[str]:
    """Policy rules a write would break: an automation that unlocks a door (the tool would
    make it), a guest controlling what only members may (the tool refuses it too)."""
    if tool == "create_automation" and arguments.get("command") == "unlock":
        return ["policy:scheduled_unlock"]
    if tool in ("set_thermostat", "set_power", "set_brightness", "lock_door", "unlock_door",
                "set_camera_recording"):
        row = db.execute("SELECT d.kind, m.role FROM devices d JOIN home_members m "
                         "ON m.home_id = d.home_id WHERE d.device_id = ? AND m.user_id = ?",
                         (arguments.get("device_id"), arguments.get("user_id"))).fetchone()
        if row is not None and row[1] == "guest" and row[0] not in _GUEST_TOOLS_OK:
            return ["policy:guest_access"]
    return []


WRITE_TOOLS = ("set_thermostat", "set_power", "set_brightness", "lock_door", "unlock_door",
               "set_camera_recording", "rename_device", "move_device", "create_scene",
               "add_scene_action", "activate_scene", "delete_scene", "create_automation",
               "pause_automation", "resume_automation", "delete_automation",
               "share_home_access", "revoke_home_access", "change_member_role",
               "set_away_mode")
_ACTING_USER = ("SELECT user_id FROM users WHERE user_id = ?", "user_id")

SAMPLERS = by_name(
    set_thermostat, dim_light, lock_door, activate_scene, create_automation, pause_automation,
    share_access, revoke_access, info_energy_usage, info_last_unlock,
    info_current_temperature, refuse_guest_unlock, refuse_scheduled_unlock)

TASKS = RuleTaskKit(
    "iot_devices", SAMPLERS,
    **LOGIN.kit_keywords(),
    owners={name: _ACTING_USER for name in WRITE_TOOLS},
    ask_identity=ASK_IDENTITY,
    identity_phrases=("Sure, {text}.", "Of course: {text}.", "Yes, {text}."),
    greetings=("Hi!", "Hello,", "Hi there.", "Hey,"),
    policy_violations=policy_violations,
)
