"""Canonical values in free text: the one vocabulary the answer checks and the user share.

The full explanation is in ``docs/values.md``.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import Iterable

#: Kinds that :func:`extract` returns.
KINDS = ("amount", "number", "date", "time", "id", "status")

#: Status words of the domains' schemas (canonical spelling, multi-word ones joined by _).
STATUSES = frozenset({
    # retail orders
    "pending", "processed", "delivered", "cancelled", "return_requested",
    "exchange_requested",
    # airline flights
    "available", "on_time", "delayed", "flying", "landed",
    # banking, crm, issue tracker, calendar, email, food delivery, team chat
    "active", "frozen", "confirmed", "open", "closed", "completed", "in_progress",
    "in_review", "done", "wont_fix", "resolved", "rejected", "planned", "posted",
    "received", "sent", "draft", "accepted", "declined", "tentative", "needs_action",
    "closed_won", "closed_lost", "away", "dnd", "preparing", "refunded", "placed",
    "picked_up", "out_for_delivery", "expired", "blocked",
    # shopping
    "shipped", "discontinued",
    # budget
    "archived", "cleared",
    # iot_devices
    "online", "offline", "paused", "locked", "unlocked", "jammed",
    # maps
    "operating", "temporarily_closed", "permanently_closed",
    # vehicle
    "scheduled", "revoked", "acknowledged", "interrupted", "approved",
    # payments
    "partially_refunded", "removed",
    # (travel_booking and video_meeting use words listed above)
    # trading
    "filled", "triggered", "halted", "restricted", "verified",
    # marketplace
    "sold", "countered", "paid",
    # social_media
    "published", "deleted", "visible",
    # retail_chain
    "on_leave", "requested", "in_transit", "submitted", "ready",
})

_MONTHS = {
    "jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6, "jul": 7, "aug": 8,
    "sep": 9, "oct": 10, "nov": 11, "dec": 12,
}
_MONTH = (r"(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
          r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?")
_ORD = r"(?:st|nd|rd|th)?"
_HAS_MONTH = re.compile(r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d|"
                        r"\d(?:st|nd|rd|th)?\s+(?:of\s+)?(?:jan|feb|mar|apr|may|jun|jul|aug|"
                        r"sep|oct|nov|dec)")

_UNITS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13,
    "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18,
    "nineteen": 19,
}
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
         "eighty": 80, "ninety": 90}
_SCALES = {"hundred": 100, "thousand": 1000, "million": 1_000_000}
_NUMWORD = "|".join(sorted({*_UNITS, *_TENS, *_SCALES}, key=len, reverse=True))
_NUMBER_WORDS = re.compile(
    rf"\b(?:{_NUMWORD})(?:(?:[ -]|\s+and\s+)(?:{_NUMWORD}))*\b")
_ONE_BEFORE = re.compile(
    r"(?:\b(?:the|this|that|which|any|each|every|no|some|another|a|one|last|only|right|"
    r"wrong|other|new|old)\s+)$")
_ONE_AFTER = re.compile(r"^\s+(?:of|another|more|by|at a time)\b")

_SPELLING = re.compile(
    r"\b(?:cancel(?:ed|ing|ations?)|in[ -](?:progress|review)|on[ -]time|won'?t[ -]fix|"
    r"needs[ -]action|closed[ -](?:won|lost)|(?:return|exchange)[ -]requested|picked[ -]up|"
    r"out[ -]for[ -]delivery|basic[ -]economy|colours?|grey)\b")
_SPELL_MAP = {"canceled": "cancelled", "canceling": "cancelling",
              "cancelation": "cancellation", "cancelations": "cancellations",
              "colour": "color", "colours": "colors", "grey": "gray"}


def _spelling(m: re.Match) -> str:
    word = m[0].replace("'", "").replace(" ", "_").replace("-", "_")
    return _SPELL_MAP.get(word, word)


_DASHES = dict.fromkeys(map(ord, "\u2010\u2011\u2012\u2013\u2014\u2015\u2212"), "-")
_QUOTES = {ord("\u2018"): "'", ord("\u2019"): "'", ord("\u201b"): "'", ord("\u2032"): "'",
           ord("\u201c"): '"', ord("\u201d"): '"', ord("\u201e"): '"', ord("\u00a0"): " "}

_MD_LINK = re.compile(r"\[([^\[\]\n]{0,500})\]\([^()\s]{0,2000}\)")
_MD_LINE = re.compile(r"(?m)^[ \t]{0,12}(?:#{1,6}[ \t]+|>[ \t]?|[-*+][ \t]+|\|?[ \t]*:?-{3,}"
                      r"[-:| \t]*$)")
_MD_MARKS = re.compile(r"\*\*|__|~~|[*`|]")
_SPACE = re.compile(r"\s+")

_ISO_DT = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})t(\d{2}):(\d{2})(?::\d{2}(?:\.\d+)?)?(?:z|[+-]\d{2}:?\d{2})?\b")
_YMD = re.compile(r"\b(\d{4})[/.-](\d{1,2})[/.-](\d{1,2})\b")
_MDY = re.compile(r"\b(\d{1,2})/(\d{1,2})/(\d{4})\b")
_MONTH_D_Y = re.compile(rf"\b{_MONTH}\s+(\d{{1,2}}){_ORD},?\s+(\d{{4}})\b")
_D_MONTH_Y = re.compile(rf"\b(\d{{1,2}}){_ORD}\s+(?:of\s+)?{_MONTH},?\s+(\d{{4}})\b")
_MONTH_Y = re.compile(rf"\b{_MONTH},?\s+(\d{{4}})\b")
_MONTH_D = re.compile(rf"\b{_MONTH}\s+(\d{{1,2}}){_ORD}\b(?!:)")
_D_MONTH = re.compile(rf"\b(\d{{1,2}}){_ORD}\s+(?:of\s+)?{_MONTH}(?![a-z])")

_TIME_AMPM = re.compile(r"\b(\d{1,2})(?::(\d{2}))?\s?([ap])\.?m\b\.?")
_TIME = re.compile(r"(?<![\d:.])(\d{1,2}):(\d{2})(?::\d{2})?(?![\d:])")

_NUM = r"\d+(?:,\d{3})*(?:\.\d+)?"
_MONEY_PRE = re.compile(rf"(?:\bus\$|\$|\busd\s?)\s?({_NUM})(?![\d.]\d)")
_MONEY_POST = re.compile(rf"(?<![\w.$])({_NUM})\s?(?:dollars?|usd|bucks)\b")
_THOUSANDS = re.compile(r"(?<![\w.,])\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\d]|,\d{3})")
_DECIMAL = re.compile(r"(?<![\w.])(\d+)\.(\d+)(?![\d]|\.\d)")

#: One scan of canonical text: alternatives tried in order at each position.
_SCAN = re.compile(
    r"(?P<date>(?<![\w-])(?:(?:\d{4}|-)-\d{2}-\d{2}|\d{4}-\d{2})(?![\w-]))"
    r"|(?P<time>(?<![\w:])\d{2}:\d{2}(?![\w:]))"
    r"|(?P<amount>\$\d+(?:\.\d+)?)"
    r"|(?P<token>[#a-z0-9_]+(?:[.\-@][#a-z0-9_]+)*)")
_ORDINAL = re.compile(r"\d+(?:st|nd|rd|th)")
_NUMBER_UNIT = re.compile(r"(\d+(?:\.\d+)?)([a-z]{1,3})")
_PLAIN_NUMBER = re.compile(r"\d+(?:\.\d+)?")


def number_form(text: str) -> str:
    """The one canonical form of a decimal number (see the module docstring):
    ``"1,202.00"`` -> ``"1202"``, ``"85.4"`` -> ``"85.40"``, ``"2.1250"`` -> ``"2.125"``."""
    whole, dot, frac = text.replace(",", "").partition(".")
    if not whole.isdigit() and whole or not (frac.isdigit() or not frac) or not (whole or frac):
        return text
    whole = whole.lstrip("0") or "0"
    frac = frac.rstrip("0")
    return f"{whole}.{frac.ljust(2, '0')}" if frac else whole


def _date(y: int, m: int, d: int) -> str | None:
    if 1 <= m <= 12 and 1 <= d <= 31 and 1000 <= y <= 9999:
        return f"{y:04d}-{m:02d}-{d:02d}"
    return None


def _month(word: str) -> int:
    return _MONTHS[word[:3]]


def _words_to_numbers(text: str) -> str:
    def parse(words: list[str]) -> list[str]:
        out: list[str] = []
        total = current = 0
        last = None  # kind of the previous word: unit, teen, tens, hundred, big
        started = False

        def flush():
            nonlocal total, current, started
            if started:
                out.append(str(total + current))
            total = current = 0
            started = False

        for w in words:
            if w == "and":
                if last in ("hundred", "big"):
                    continue  # "one hundred and two"
                flush()
                out.append("and")
                last = None
                continue
            if w in _UNITS:
                v = _UNITS[w]
                if started and not (last in ("hundred", "big") or (last == "tens" and v < 10)):
                    flush()
                current += v
                last = "unit" if v < 10 else "teen"
            elif w in _TENS:
                if started and last not in ("hundred", "big"):
                    flush()
                current += _TENS[w]
                last = "tens"
            elif w == "hundred":
                if started and last == "hundred":
                    flush()
                current = (current or 1) * 100
                last = "hundred"
            else:
                total += (current or 1) * _SCALES[w]
                current = 0
                last = "big"
            started = True
        flush()
        return out

    def replace(m: re.Match) -> str:
        run = m.group(0)
        if run == "one" and (_ONE_BEFORE.search(text, max(0, m.start() - 12), m.start())
                             or _ONE_AFTER.match(text[m.end():m.end() + 16])):
            return run
        return " ".join(parse(run.replace("-", " ").split()))

    return _NUMBER_WORDS.sub(replace, text)


_CACHE_LIMIT = 4096  # texts longer than this are not cached (memory stays bounded)


def canonical(text: str) -> str:
    """``text`` in canonical form (see the module docstring)."""
    if not isinstance(text, str):
        return ""
    if len(text) <= _CACHE_LIMIT:
        return _canonical_cached(text)
    return _canonical(text)


@lru_cache(maxsize=8192)
def _canonical_cached(text: str) -> str:
    return _canonical(text)


def _canonical(text: str) -> str:
    t = unicodedata.normalize("NFKC", text).translate(_DASHES).translate(_QUOTES)
    t = _MD_LINK.sub(r"\1", t)
    t = _MD_LINE.sub(" ", t)
    t = _MD_MARKS.sub(" ", t)
    t = t.lower()
    t = _SPACE.sub(" ", t)
    t = _words_to_numbers(t)
    # each pass runs only when a cheap substring test says it can match
    if "-" in t:
        t = _ISO_DT.sub(lambda m: f"{m[1]}-{m[2]}-{m[3]} {m[4]}:{m[5]}", t)
    if _HAS_MONTH.search(t):
        t = _MONTH_D_Y.sub(lambda m: _date(int(m[3]), _month(m[1]), int(m[2])) or m[0], t)
        t = _D_MONTH_Y.sub(lambda m: _date(int(m[3]), _month(m[2]), int(m[1])) or m[0], t)
    if "/" in t or "." in t or "-" in t:
        t = _YMD.sub(lambda m: _date(int(m[1]), int(m[2]), int(m[3])) or m[0], t)
    if "/" in t:
        t = _MDY.sub(lambda m: _date(int(m[3]), int(m[1]), int(m[2])) or m[0], t)
    if _HAS_MONTH.search(t):
        t = _MONTH_Y.sub(lambda m: f"{m[2]}-{_month(m[1]):02d}", t)
        t = _MONTH_D.sub(lambda m: _partial(_month(m[1]), int(m[2])) or m[0], t)
        t = _D_MONTH.sub(lambda m: _partial(_month(m[2]), int(m[1])) or m[0], t)
    if "m" in t:
        t = _TIME_AMPM.sub(_ampm, t)
    if ":" in t:
        t = _TIME.sub(lambda m: _hhmm(int(m[1]), int(m[2])) or m[0], t)
    if "$" in t or "usd" in t:
        t = _MONEY_PRE.sub(lambda m: "$" + number_form(m[1]), t)
    if "dollar" in t or "usd" in t or "buck" in t:
        t = _MONEY_POST.sub(lambda m: "$" + number_form(m[1]), t)
    if "," in t:
        t = _THOUSANDS.sub(lambda m: m[0].replace(",", ""), t)
    if "." in t:
        t = _DECIMAL.sub(lambda m: number_form(m[0]), t)
    t = _SPELLING.sub(_spelling, t)
    return _SPACE.sub(" ", t).strip()


def _partial(month: int, day: int) -> str | None:
    return f"--{month:02d}-{day:02d}" if 1 <= day <= 31 else None


def _hhmm(h: int, m: int) -> str | None:
    return f"{h:02d}:{m:02d}" if h <= 24 and m < 60 else None


def _ampm(m: re.Match) -> str:
    h, mins = int(m[1]), int(m[2] or 0)
    if not 1 <= h <= 12 or mins >= 60:
        return m[0]
    h = h % 12 + (12 if m[3] == "p" else 0)
    return f"{h:02d}:{mins:02d}" + (" " if m[0].endswith(" ") else "")


def _scan(canon: str) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {k: set() for k in KINDS}
    for m in _SCAN.finditer(canon):
        kind = m.lastgroup
        value = m.group(kind)
        if kind == "amount":
            found["amount"].add(number_form(value[1:]))
        elif kind in ("date", "time"):
            found[kind].add(value)
        else:
            _classify(value, found)
    return found


def _classify(token: str, found: dict[str, set[str]]) -> None:
    if _PLAIN_NUMBER.fullmatch(token):
        found["number"].add(number_form(token))
        return
    if token in STATUSES:
        found["status"].add(token)
        return
    if not any(c.isdigit() for c in token):
        if "_" in token or "#" in token:
            if any(c.isalnum() for c in token) and "#" in token:
                found["id"].add(token)
        return
    if _ORDINAL.fullmatch(token):
        return
    unit = _NUMBER_UNIT.fullmatch(token)
    if unit:
        found["number"].add(number_form(unit[1]))
        return
    token = token.rstrip(".")
    if any(c.isalpha() or c in "#_" for c in token):
        found["id"].add(token)
    elif _PLAIN_NUMBER.fullmatch(token):
        found["number"].add(number_form(token))


def extract(text: str) -> dict[str, set[str]]:
    """The canonical values ``text`` names, by kind (:data:`KINDS`); fresh sets."""
    return {k: set(v) for k, v in _extract(text).items()}


def _extract(text: str) -> dict[str, frozenset]:
    if not isinstance(text, str):
        text = str(text)
    if len(text) <= _CACHE_LIMIT:
        return _extract_cached(text)
    return {k: frozenset(v) for k, v in _scan(canonical(text)).items()}


@lru_cache(maxsize=8192)
def _extract_cached(text: str) -> dict[str, frozenset]:
    return {k: frozenset(v) for k, v in _scan(canonical(text)).items()}


def kind_of(value: str) -> str:
    """The kind of an answer value: ``amount`` (``$`` or two decimals), ``number``,
    ``date``, ``time``, ``id``, ``status``, else ``text`` (names, free words)."""
    raw = value.strip() if isinstance(value, str) else str(value)
    if re.fullmatch(r"\$?\s?\d[\d,]*\.\d{2}", raw) or raw.startswith("$"):
        return "amount"
    found = _extract(raw)
    canon = canonical(raw)
    for kind in ("date", "time", "amount", "number", "id", "status"):
        if len(found[kind]) == 1 and _whole(canon, kind, next(iter(found[kind]))):
            return kind
    return "text"


def _whole(canon: str, kind: str, value: str) -> bool:
    """Whether the canonical text is that one value and nothing else."""
    return canon in (value, "$" + value, value.rstrip("."))


def value_of(value: str, kind: str | None = None) -> str:
    """The canonical form of one value of ``kind`` (found by :func:`kind_of` if omitted)."""
    kind = kind or kind_of(value)
    if kind == "text":
        return canonical(value)
    found = _extract(str(value))
    if kind == "amount" and not found["amount"]:
        return next(iter(found["number"]), canonical(value))
    return next(iter(found[kind]), canonical(value))


def _numeric(found: dict[str, Iterable[str]]) -> set[str]:
    return set(found["amount"]) | set(found["number"])


class Facts:
    """A text analysed once: its canonical form and its values by kind (reuse it to ask
    several questions about a long text)."""

    __slots__ = ("canon", "found")

    def __init__(self, text: str):
        self.canon = canonical(text)
        self.found = _extract(text) if len(text) <= _CACHE_LIMIT else {
            k: frozenset(v) for k, v in _scan(self.canon).items()}


def facts(text: "str | Facts") -> Facts:
    """``text`` analysed (a :class:`Facts` is returned as is)."""
    return text if isinstance(text, Facts) else Facts(text if isinstance(text, str)
                                                      else str(text))


def names(text: "str | Facts", value: str, kind: str | None = None) -> bool:
    """Whether ``text`` states ``value`` (any equivalent form). Amounts and counts match
    either money or bare numbers (``$1,202`` states ``1202``); a full date matches the
    same day without the year (``Jun 28`` states ``2024-06-28``, :func:`date_forms`);
    ``text`` values (names) match as a whole-word phrase of the canonical text."""
    kind = kind or kind_of(value)
    v = value_of(value, kind)
    f = facts(text)
    if kind == "text":
        if not v:
            return False
        return re.search(r"(?<![\w#$])" + re.escape(v) + r"(?![\w])", f.canon) is not None
    if kind in ("amount", "number"):
        return v in _numeric(f.found)
    if kind == "date":
        return bool(date_forms(v) & f.found["date"])
    return v in f.found[kind]


def date_forms(value: str) -> set[str]:
    """The canonical forms that state the date ``value``: itself and, for a full date
    ``YYYY-MM-DD``, the day without its year ``--MM-DD`` (an agent may drop the year; a
    different month or day is another date)."""
    if len(value) == 10 and value[4] == "-" and value[:4].isdigit():
        return {value, "--" + value[5:]}
    return {value}


def values(text: "str | Facts", kind: str) -> set[str]:
    """The canonical values of ``kind`` that ``text`` names: for ``amount`` the money and
    the bare non-integers, for ``number`` the bare numbers, none for ``text``."""
    found = facts(text).found
    if kind == "amount":
        return set(found["amount"]) | {n for n in found["number"] if "." in n}
    if kind == "text":
        return set()
    return set(found[kind])


_INLINE_MARKS = re.compile(r"\*\*|__|`")


def readings(text: str) -> list[str]:
    """The ways to read ``text``'s inline markdown: as written (:func:`canonical` reads an
    emphasis mark as a space) and, when it has inline marks, with them deleted (a value
    bold in part, ``**report**.pdf`` or ``**$1,202**.50``, is one value)."""
    if not isinstance(text, str) or not _INLINE_MARKS.search(text):
        return [text]
    return [text, _INLINE_MARKS.sub("", text)]


def all_values(text: "str | Facts") -> set[str]:
    """Every canonical value of every kind in ``text`` (for "was this ever shown")."""
    return set().union(*facts(text).found.values())
