"""Device commands of the smart home: which kinds take which command, the values they take,
and what each does to a device's state. The tools, scenes and automations share them.

A device's state is a dict of its ``devices`` row (see ``schema.sql``): lights, plugs and
cameras have ``power``; lights a ``brightness`` (kept while off); thermostats an
``hvac_mode``, a ``target_temp`` and a ``current_temp``; locks a ``lock_state``; cameras a
``recording`` flag (only while on).
"""

from __future__ import annotations

from typing import Literal

from ...core.tools import ToolError

KINDS = ("thermostat", "lock", "light", "camera", "plug")

Command = Literal["turn_on", "turn_off", "set_brightness", "set_temperature", "lock", "unlock",
                  "start_recording", "stop_recording"]

#: The kinds of device each command applies to.
COMMAND_KINDS: dict[str, tuple[str, ...]] = {
    "turn_on": ("light", "plug", "camera"),
    "turn_off": ("light", "plug", "camera", "thermostat"),
    "set_brightness": ("light",),
    "set_temperature": ("thermostat",),
    "lock": ("lock",),
    "unlock": ("lock",),
    "start_recording": ("camera",),
    "stop_recording": ("camera",),
}
#: Commands that take a value (the others take none).
VALUED = ("set_brightness", "set_temperature")
#: The thermostat's set point range (degrees Celsius, in steps of 0.5).
MIN_TEMP, MAX_TEMP = 10.0, 30.0

#: The event a command's change is logged as.
EVENTS = {"turn_on": "turned_on", "turn_off": "turned_off",
          "set_brightness": "brightness_changed", "set_temperature": "setpoint_changed",
          "lock": "locked", "unlock": "unlocked", "start_recording": "recording_started",
          "stop_recording": "recording_stopped"}


def check_temperature(value: float) -> float:
    """A thermostat set point: 10 to 30 degrees in steps of 0.5."""
    if not MIN_TEMP <= value <= MAX_TEMP:
        raise ToolError(f"The temperature must be between {MIN_TEMP:g} and {MAX_TEMP:g} "
                        f"degrees Celsius, got {value:g}.")
    if abs(value * 2 - round(value * 2)) > 1e-9:
        raise ToolError(f"The temperature must be in steps of 0.5 degrees, got {value:g}.")
    return round(value * 2) / 2


def check_brightness(value: float) -> int:
    """A light's brightness: a whole percent from 1 to 100."""
    if value != int(value) or not 1 <= value <= 100:
        raise ToolError(f"The brightness must be a whole percent from 1 to 100, got {value:g}.")
    return int(value)


def check_command(kind: str, command: str, value: float | None) -> float | None:
    """The value a command keeps for a device of ``kind`` (``None`` for a command without
    one); a :class:`ToolError` when the command does not apply to that kind or the value is
    out of range."""
    if command not in COMMAND_KINDS:
        raise ToolError(f"Unknown command {command!r}.")
    if kind not in COMMAND_KINDS[command]:
        allowed = ", ".join(c for c, kinds in COMMAND_KINDS.items() if kind in kinds)
        raise ToolError(f"A {kind} does not take the command {command!r} (it takes: "
                        f"{allowed}).")
    if command == "set_brightness":
        return float(check_brightness(value or 0))
    if command == "set_temperature":
        return check_temperature(value or 0)
    if value not in (None, 0):
        raise ToolError(f"The command {command!r} takes no value (leave it 0).")
    return None


def effect(device: dict, command: str, value: float | None) -> dict:
    """The columns the command changes on ``device`` (only those whose value changes;
    empty when the device is already in that state). A jammed lock cannot be moved."""
    kind = device["kind"]
    if command == "turn_on":
        target = {"power": "on"}
    elif command == "turn_off":
        target = ({"hvac_mode": "off"} if kind == "thermostat" else
                  {"power": "off", "recording": 0} if kind == "camera" else {"power": "off"})
    elif command == "set_brightness":
        target = {"power": "on", "brightness": int(value)}
    elif command == "set_temperature":
        target = {"target_temp": float(value)}
        if device["hvac_mode"] == "off":
            target["hvac_mode"] = "auto"
    elif command in ("lock", "unlock"):
        if device["lock_state"] == "jammed":
            raise ToolError(f"The lock {device['name']} is jammed and must be cleared by hand "
                            "before it can be locked or unlocked remotely.")
        target = {"lock_state": "locked" if command == "lock" else "unlocked"}
    elif command == "start_recording":
        target = {"power": "on", "recording": 1}
    elif command == "stop_recording":
        target = {"recording": 0}
    else:  # pragma: no cover - check_command refuses it first
        raise ToolError(f"Unknown command {command!r}.")
    return {k: v for k, v in target.items() if device.get(k) != v}


def event_detail(command: str, value: float | None) -> str:
    """The detail text of a command's event (``"target 21.5"``, ``"brightness 40"``)."""
    if command == "set_temperature":
        return f"target {value:g}"
    if command == "set_brightness":
        return f"brightness {int(value)}"
    return ""
