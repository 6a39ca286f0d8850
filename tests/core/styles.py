"""Agents that make the oracle's tool calls but word their messages in other styles, and
wrong proposals built from a need's intent: shared by the user tests and the benchmark.

Styles rewrite every message of the plan (never the calls): ``terse``, ``verbose``,
``markdown`` (bullets and bold), ``formats`` (money as "$1,202.00" or "1202 dollars", ISO
dates as "November 14, 1983", small numbers as words, "canceled"), ``question`` (another
way to ask for approval). Wrong proposals take the oracle's proposal of a need and
substitute the intended value of one parameter by a rival, swap role-bound values, or add
every rival (a catch-all).
"""

from __future__ import annotations

import re
from datetime import date

import gymnasium as gym
import tool_gym  # noqa: F401  (registers the ids)
from tool_gym.core.users import intent_of, is_confirmation

_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
           "September", "October", "November", "December")
_SMALL = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
          "ten", "eleven", "twelve")
_APPROVAL = re.compile(r"\s*(Shall I proceed\?|Should I proceed\?|Shall I go ahead\?)\s*$")
STYLES = ("terse", "verbose", "markdown", "formats", "question")


def _iso_words(m: re.Match) -> str:
    d = date.fromisoformat(m.group(0))
    return f"{_MONTHS[d.month - 1]} {d.day}, {d.year}"


def _money_words(m: re.Match) -> str:
    value = float(m.group(1).replace(",", ""))
    return f"{value:,.2f} dollars" if value != int(value) else f"USD {value:,.2f}"


def rewrite(text: str, style: str) -> str:
    """``text`` (an oracle message) in another style; same facts."""
    if style == "terse":
        body = _APPROVAL.sub("", text)
        return re.sub(r"^I (?:will|can) ", "", body) + (" OK?" if body != text else "")
    if style == "verbose":
        body = _APPROVAL.sub("", text)
        tail = (" Before I make any change, I want to be sure this is exactly what you want. "
                "Would you like me to go ahead with this?") if body != text else ""
        return f"Thank you for your patience, I have reviewed everything carefully. {body}{tail}"
    if style == "markdown":
        body = _APPROVAL.sub("", text)
        parts = [p.strip() for p in re.split(r"(?<=[.;:])\s+", body) if p.strip()]
        lines = "\n".join(f"- **{p}**" if i == 0 else f"- {p}" for i, p in enumerate(parts))
        return f"### Summary\n{lines}\n\nDoes this look correct?" if body != text else lines
    if style == "formats":
        out = re.sub(r"\b\d{4}-\d{2}-\d{2}\b", _iso_words, text)
        out = re.sub(r"\$(\d[\d,]*(?:\.\d+)?)", _money_words, out)
        out = re.sub(r"(?<![\w.,$#-])([0-9]|1[0-2])(?![\w.,:/-])",
                     lambda m: _SMALL[int(m.group(1))], out)
        return out.replace("cancelled", "canceled").replace("Cancelled", "Canceled")
    if style == "question":
        return _APPROVAL.sub(" Sound good?", text) if _APPROVAL.search(text) else text
    raise ValueError(style)


def play(env_id: str, seed: int, style: str | None = None, split: str = "test",
         declined: list | None = None) -> dict:
    """One episode of the kit's plan with every message rewritten in ``style``; the
    proposals the user did not confirm are appended to ``declined``."""
    env = gym.make(env_id, split=split)
    try:
        env.reset(seed=seed)
        base = env.unwrapped
        info: dict = {}
        done = False
        for step in base.kit.plan(base.task):
            if step.call is not None:
                action = step.call.to_hermes()
            else:
                action = step.say if style is None else rewrite(step.say, style)
            obs, _, terminated, truncated, info = env.step(action)
            if step.expects_confirmation and declined is not None and not is_confirmation(obs):
                declined.append((action, obs))
            if terminated or truncated:
                done = True
                break
        if not done:
            for _ in range(3):
                _, _, terminated, truncated, info = env.step(
                    "Is there anything else I can help you with?")
                if terminated or truncated:
                    break
        return info.get("verification", {})
    finally:
        env.close()


def _first_form(forms) -> str | None:
    for f in forms:
        if isinstance(f, str) and f:
            return f
        if isinstance(f, tuple) and f:
            return " ".join(f)
    return None


def wrong_proposals(proposal: str, need) -> list[tuple[str, str]]:
    """``(kind, text)`` wrong variants of the oracle's ``proposal`` for ``need``: each
    rival substituted for the intended value, role-bound values swapped, every rival added
    (a catch-all)."""
    intent = intent_of(need)
    if intent is None:
        return []
    out: list[tuple[str, str]] = []
    low = proposal
    for p in intent.params:
        present = [f for f in p.forms if isinstance(f, str) and f and f in low]
        if not present:
            continue
        longest = max(present, key=len)
        for rival in p.rivals:
            r = _first_form(rival)
            if r:
                out.append(("substituted", low.replace(longest, r)))
        if p.rivals:
            every = ", ".join(filter(None, (_first_form(r) for r in p.rivals)))
            out.append(("catch-all", low.replace(longest, f"{longest} (and also {every})")))
            out.append(("ruled-out", f"{longest} cannot be used. "
                        + low.replace(longest, _first_form(p.rivals[0]) or longest)))
    by_name = {p.name: p for p in intent.params}
    roles = [p for p in intent.params if p.role]
    pairs = [(roles[0], roles[1])] if len(roles) == 2 else []
    pairs += [(by_name[a], by_name[b]) for a, b in intent.before]
    for pa, pb in pairs:  # role-bound or ordered values swapped
        a = [f for f in pa.forms if isinstance(f, str) and f in low]
        b = [f for f in pb.forms if isinstance(f, str) and f in low]
        if a and b:
            fa, fb = max(a, key=len), max(b, key=len)
            swapped = low.replace(fa, "\0").replace(fb, fa).replace("\0", fb)
            out.append(("swapped", swapped))
    return [(k, t) for k, t in out if t != proposal]


def user_verdicts(env_id: str, seed: int, split: str = "test") -> list[tuple[str, bool]]:
    """``(kind, confirmed)`` for every wrong proposal of every write need of one task, each
    sent, in turn, to the user while that need is current (the plan is played up to it)."""
    results: list[tuple[str, bool]] = []
    env = gym.make(env_id, split=split)
    try:
        env.reset(seed=seed)
        base = env.unwrapped
        steps = base.kit.plan(base.task)
        for i, step in enumerate(steps):
            if step.say is not None and step.expects_confirmation:
                need = base.user.current
                if need is None:
                    break
                for kind, text in wrong_proposals(step.say, need):
                    reply = base.user.respond(text, ())
                    results.append((kind, is_confirmation(reply)))
                    base.user._stalled = 0
            if step.call is not None:
                action = step.call.to_hermes()
            else:
                action = step.say
            _, _, terminated, truncated, _ = env.step(action)
            if terminated or truncated:
                break
    finally:
        env.close()
    return results


def catch_all(proposal: str, need) -> str | None:
    """The oracle's proposal naming, for every parameter with rivals, all of them."""
    intent = intent_of(need)
    if intent is None:
        return None
    text = proposal
    changed = False
    for p in intent.params:
        present = [f for f in p.forms if isinstance(f, str) and f and f in text]
        if present and p.rivals:
            longest = max(present, key=len)
            every = ", ".join(filter(None, (_first_form(r) for r in p.rivals)))
            text = text.replace(longest, f"{longest}, {every}", 1)
            changed = True
    return text if changed else None

