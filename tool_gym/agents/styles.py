"""Style agents: the oracle's tool calls, every message worded in another agent's style.

A style agent plays the task kit's reference plan through the oracle's privileged
interface (it is an :class:`~tool_gym.agents.oracle.OraclePolicy`): every tool call is exactly the
oracle's, every ``say`` step is rewritten. They test the other side of reward integrity:
an agent that does the right thing must be paid for it whatever its wording, so the
scripted user and the answer checks must accept each style (issue #11, item 4).

Styles:

- ``terse``: filler removed ("I'd be happy to help", "please"), short closings.
- ``verbose``: a courteous preamble and an offer of more help around the content.
- ``markdown``: a heading, one bullet per sentence, ids, amounts and dates in bold.
- ``names``: ids replaced by the descriptive names the agent saw in tool results (a
  product's name with its option values, an order by its items, a trip by its route and
  date, an account by its nickname), where the name is unique among those seen.
- ``formats``: dates as "November 14, 1983" (or "Nov 14" in 2024, the data's year),
  money as "$1,202.00", small counts spelled out, "canceled", "can't".

Every style asks for confirmation in varied words ("Does this look correct?", "Sound
good?", "Shall I proceed?", ...) drawn from a generator reseeded at every ``reset`` from
``seed``, the task id and the opening message, so an episode's wording depends on that
episode only. Like the oracle they are privileged policies
(:mod:`tool_gym.agents.privileged`: started by ``reset_privileged`` with the hidden task). Only
library code grants them that access, explicitly (``run_episode(...,
privileged=True)``, as ``tests/adversarial`` and ``benchmarks/integrity.py`` do);
``evaluate.py`` grants it to ``--policy oracle`` alone.
"""

from __future__ import annotations

import json
import re
import zlib
from datetime import date
from typing import Any

import numpy as np

from .oracle import OraclePolicy
from .privileged import OracleAccess

__all__ = ["StylePolicy", "TersePolicy", "VerbosePolicy", "MarkdownPolicy", "NamesPolicy",
           "FormatsPolicy", "STYLES", "CONFIRMATIONS"]

#: Ways of asking for approval (one is drawn per proposal).
CONFIRMATIONS = ("Does this look correct?", "Sound good?", "Shall I proceed?",
                 "Would you like me to go ahead?", "Is that okay with you?",
                 "Can you confirm you'd like me to do this?", "Should I go ahead with this?")
_QUESTION_TAIL = re.compile(r"\s*(?:Shall I|Should I|Would you like|Do you want|Can I|May I|"
                            r"Is that|Does this)[^.?!]*\?\s*$")
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z\"'(])")
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
           "September", "October", "November", "December")
_ISO_DATE = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b(?!T|:)")
_MONEY = re.compile(r"\$(\d[\d,]*)(\.\d+)?(?![\d,]*\d)")
_COUNT = re.compile(r"(?<![\w$#.,:/\-])(\d{1,2})(?![\w.,:/%\-]|\s*(?:in|inch|am|pm|th)\b)")
_NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight",
                 "nine", "ten", "eleven", "twelve")
#: Values a markdown agent sets in bold, whole: emails, paths, money, ISO dates, clock
#: times, ids and file names (letters and digits, dots inside), long numbers.
_BOLD = re.compile(r"([\w.+\-]+@[\w\-]+(?:\.[\w\-]+)+|(?<![\w/])/[\w./\-]*[\w\-]"
                   r"|\$\d[\d,]*(?:\.\d+)?|\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}:\d{2}(?:\s?[AP]M)?"
                   r"|#\w*\d\w*|\b(?=[\w.\-]*[A-Za-z])(?=[\w.\-]*\d)[\w\-]+(?:\.[\w\-]+)*\b"
                   r"|\b\d{6,}\b)")
_NAME_KEYS = ("name", "nickname", "title", "subject", "display_name", "full_name", "path")
#: The year of the generated data: dates in it may be written without the year.
DATA_YEAR = 2024


class StylePolicy(OraclePolicy):
    """The oracle's plan with every message rewritten by :meth:`style_message`."""

    style = "plain"
    #: Whether the agent reads the tools' results for names (only the ``names`` style).
    reads_results = False

    def __init__(self, seed: int = 0) -> None:
        super().__init__()
        self.seed = int(seed)
        self.rng = np.random.default_rng(self.seed)
        self.names: dict[str, tuple[str, str]] = {}  # id -> (description, noun)
        self._described: dict[str, set] = {}
        self._after_call = False

    def reset_privileged(self, observation: str, info: dict, access: OracleAccess) -> None:
        super().reset_privileged(observation, info, access)
        task_id = info.get("task_id") if isinstance(info, dict) else None
        self.rng = np.random.default_rng([self.seed, zlib.crc32(
            f"{task_id}\0{observation}".encode("utf-8", "surrogatepass"))])
        self.names = {}
        self._described = {}
        self._after_call = False

    def act(self, observation: str, info: dict) -> str:
        if self._after_call and self.reads_results:
            self._harvest(observation)
        steps = self.steps or []
        step = steps[self.position] if self.position < len(steps) else None
        action = super().act(observation, info)
        self._after_call = step is not None and step.call is not None
        if step is None:
            return self.style_message(action, False)
        if step.call is None and step.say is not None:
            return self.style_message(step.say, step.expects_confirmation)
        return action

    # ------------------------------------------------------------------ wording
    def style_message(self, text: str, proposal: bool) -> str:
        body, question = text, ""
        if proposal:
            body = _QUESTION_TAIL.sub("", text).rstrip()
            question = CONFIRMATIONS[int(self.rng.integers(len(CONFIRMATIONS)))]
        return self.render(body, question)

    def render(self, body: str, question: str) -> str:
        return f"{body} {question}".strip()

    # ------------------------------------------------------------------ names
    def _harvest(self, observation: str) -> None:
        """Descriptive names of the ids in a tool result (one JSON value per line)."""
        if not isinstance(observation, str):
            return
        for line in observation.split("\n"):
            try:
                self._walk(json.loads(line), None, 0)
            except (ValueError, RecursionError):
                continue
        self.names = {}
        for description, owners in self._described.items():
            if len({value for _, value in owners}) == 1:  # unique among those seen
                key, value = next(iter(owners))
                self.names[value] = (description, key[:-3])

    def _walk(self, value: Any, parent_name: str | None, depth: int) -> None:
        if depth > 8:
            return
        if isinstance(value, list):
            for item in value:
                self._walk(item, parent_name, depth + 1)
            return
        if not isinstance(value, dict):
            return
        name = next((value[k] for k in _NAME_KEYS if isinstance(value.get(k), str)), None)
        keys = [k for k, v in value.items() if k.endswith("_id") and isinstance(v, str)]
        if "item_id" in keys and isinstance(value.get("options"), dict):
            keys = ["item_id"]  # an item of a product: its options name it
        own = (keys[0], value[keys[0]]) if keys else None
        description = _describe(value, name, parent_name)
        if own is not None and description:
            self._described.setdefault(description, set()).add(own)
        for v in value.values():
            if isinstance(v, (dict, list)):
                self._walk(v, name or parent_name, depth + 1)

    def replace_ids(self, text: str) -> str:
        for ident in sorted(self.names, key=len, reverse=True):
            if ident not in text:
                continue
            pattern = re.compile(r"(?:\b(?:[Tt]he|[Yy]our)\s+)?(?:\b[A-Za-z]+\s+)?(?<![\w#])"
                                 + re.escape(ident) + r"(?![\w])")
            text = pattern.sub(lambda m: _replacement(m.group(0), ident, *self.names[ident]),
                               text)
        return text


def _describe(record: dict, name: str | None, parent_name: str | None) -> str | None:
    """A customer's words for one record, or None."""
    options = record.get("options")
    if isinstance(options, dict) and options and (name or parent_name):
        values = ", ".join(f"{k}: {v}" for k, v in options.items())
        return f"{name or parent_name} ({values})"
    items = record.get("items")
    if isinstance(items, list) and items and all(isinstance(i, dict) and
                                                 isinstance(i.get("name"), str) for i in items):
        return "order with the " + _join([i["name"] for i in items])
    if isinstance(record.get("origin"), str) and isinstance(record.get("destination"), str):
        flights = record.get("flights")
        day = flights[0].get("date") if isinstance(flights, list) and flights and \
            isinstance(flights[0], dict) else None
        if isinstance(day, str):
            return f"trip from {record['origin']} to {record['destination']} departing {day}"
    if name and "nickname" in record:
        return f"{name} account"
    return name


def _replacement(matched: str, ident: str, description: str, noun: str) -> str:
    """``"order #W1"`` -> ``"the order with the Desk Lamp"``; keeps a leading verb."""
    words = matched[: matched.rfind(ident)].split()
    kept = [w for w in words if w.lower() not in ("the", "your")]
    last = kept[-1].lower() if kept else ""
    article = "your" if any(w.lower() == "your" for w in words) else "the"
    if last and (last.rstrip("s") == noun or last.rstrip("s") in description.lower()):
        kept = kept[:-1]  # "order #W1" -> "the order with ..."
    lead = " ".join(kept)
    text = f"{lead} {article} {description}".strip()
    return text[:1].upper() + text[1:] if matched[:1].isupper() else text


def _join(items: list) -> str:
    items = [str(i) for i in items]
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


# ---------------------------------------------------------------------- the styles
_FILLER = [
    (re.compile(r"\b(?:I'd be happy to help|I can help with that|Happy to help|Sure)[.!,]\s*",
                re.IGNORECASE), ""),
    (re.compile(r"\bBefore I can help, ", re.IGNORECASE), ""),
    (re.compile(r"\bFirst,? ", re.IGNORECASE), ""),
    (re.compile(r"\bplease ", re.IGNORECASE), ""),
    (re.compile(r",? so that I can [^.?]*(?=[.?])"), ""),
    (re.compile(r"Is there anything else (?:I can help you with|you need)\?"), "Anything else?"),
]


class TersePolicy(StylePolicy):
    """Short messages: filler removed, the content kept."""

    style = "terse"

    def render(self, body: str, question: str) -> str:
        for pattern, repl in _FILLER:
            body = pattern.sub(repl, body)
        body = re.sub(r"\s{2,}", " ", body).strip()
        body = body[:1].upper() + body[1:]
        return f"{body} {question}".strip()


_PREAMBLES = ("Thank you for your patience while I looked into this.",
              "Thanks so much for reaching out, I appreciate you taking the time.",
              "I have gone through everything carefully on my side.")
_CODAS = ("I want to make sure everything is exactly as you expect.",
          "Please take a moment to look over these details.",
          "Let me know if anything here looks off to you.")


class VerbosePolicy(StylePolicy):
    """Long messages: a preamble and a coda around the oracle's content."""

    style = "verbose"

    def render(self, body: str, question: str) -> str:
        pre = _PREAMBLES[int(self.rng.integers(len(_PREAMBLES)))]
        coda = _CODAS[int(self.rng.integers(len(_CODAS)))]
        return f"{pre} {body} {coda} {question}".strip()


class MarkdownPolicy(StylePolicy):
    """Markdown: a heading, one bullet per sentence, values in bold."""

    style = "markdown"

    def render(self, body: str, question: str) -> str:
        sentences = [s for s in _SENTENCE.split(body.strip()) if s]
        bullets = "\n".join("- " + _BOLD.sub(r"**\1**", s) for s in sentences)
        text = f"### Summary\n\n{bullets}"
        return f"{text}\n\n{question}" if question else text


class NamesPolicy(StylePolicy):
    """Ids replaced by the names seen in tool results."""

    style = "names"
    reads_results = True

    def render(self, body: str, question: str) -> str:
        return f"{self.replace_ids(body)} {question}".strip()


def _long_date(m: re.Match, short: bool) -> str:
    try:
        d = date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    except ValueError:
        return m.group(0)
    if short and d.year == DATA_YEAR:
        return f"{_MONTHS[d.month - 1][:3]} {d.day}"
    return f"{_MONTHS[d.month - 1]} {d.day}, {d.year}"


def _money(m: re.Match) -> str:
    try:
        return f"${float(m.group(1).replace(',', '') + (m.group(2) or '')):,.2f}"
    except ValueError:
        return m.group(0)


def _count(m: re.Match) -> str:
    n = int(m.group(1))
    return _NUMBER_WORDS[n] if n < len(_NUMBER_WORDS) else m.group(0)


class FormatsPolicy(StylePolicy):
    """Other formats: dates in words, money with cents, counts in words, US spellings."""

    style = "formats"

    def render(self, body: str, question: str) -> str:
        body = _COUNT.sub(_count, body)
        short = bool(self.rng.integers(2))
        body = _ISO_DATE.sub(lambda m: _long_date(m, short), body)
        body = _MONEY.sub(_money, body)
        body = re.sub(r"\b([Cc])ancelled\b", r"\1anceled", body)
        body = re.sub(r"\b([Cc])ancelling\b", r"\1anceling", body)
        body = re.sub(r"\bcannot\b", "can't", body)
        return f"{body} {question}".strip()


#: Every style agent, by style name.
STYLES: dict[str, type] = {cls.style: cls for cls in
                           (TersePolicy, VerbosePolicy, MarkdownPolicy, NamesPolicy,
                            FormatsPolicy)}
