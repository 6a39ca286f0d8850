"""Grounded answers and earned refusals: what the agent had seen when it spoke.

The full explanation is in ``docs/grounding.md``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence

from . import values as V

#: The most distinct values of the answer's kind one answering message may name.
MAX_VALUES = 3
#: A longer agent message is never an answer or a refusal (and is not analysed: the cost
#: of a check stays bounded whatever the agent sends).
MAX_MESSAGE_CHARS = 20_000
#: More distinct values (all kinds together) than this in one message is a dump of records.
MAX_DUMP_VALUES = 12
#: More values of one tool result than this in one message, besides the answer's own, is
#: a copy of that record (rule (d)): a record of a dozen fields restated whole passes the
#: count above, and it answers every question about that record at once.
MAX_RECORD_VALUES = 5
_JSON_PAIR = re.compile(r"[\"']\w+[\"']\s*:")

_REFUSAL = re.compile(
    r"\b(?:can ?not|can't|cant|could not|couldn't|unable to|not able to|won't be able|"
    r"will not be able|not (?:be )?(?:eligible|allowed|permitted|possible)|ineligible|"
    r"isn't (?:eligible|allowed|permitted|possible)|aren't (?:eligible|allowed|permitted)|"
    r"is not (?:eligible|allowed|permitted|possible)|(?:does|do)(?:n't| not) (?:allow|permit)|"
    r"no longer (?:possible|eligible|allowed|be)|can no longer|too late to|impossible|"
    r"prohibited|forbidden|not in a position to|not permitted|"
    r"(?:have|has) to (?:decline|refuse)|must (?:decline|refuse)|i'm afraid|i am afraid|"
    r"not something (?:i|we) can|(?:i|we) (?:won't|will not|am not going to) be able|"
    r"unable|only (?:\w+ ){0,4}(?:can|may|is allowed to|are allowed to|is able to))\b")


def states_refusal(text: str) -> bool:
    """Whether ``text`` tells the user that something cannot be done (any common wording);
    kept on an :class:`AgentMessage` (the user's checks ask again every turn)."""
    cached = getattr(text, "_refusal", None)
    if cached is None:
        cached = (isinstance(text, str) and len(text) <= MAX_MESSAGE_CHARS
                  and _REFUSAL.search(_facts(text).canon) is not None)
        if isinstance(text, AgentMessage):
            text._refusal = cached
    return cached


def _facts(text: str) -> V.Facts:
    """``text`` analysed once: kept on an :class:`AgentMessage` (long texts are costly)."""
    cached = getattr(text, "_facts", None)
    if cached is None:
        cached = V.facts(str(text))
        if isinstance(text, AgentMessage):
            text._facts = cached
    return cached


@dataclass
class ToolEvent:
    """One tool call of the episode, as the agent saw it."""

    tool: str
    arguments: Any
    ok: bool
    content: str
    is_write: bool
    target: str | None
    authenticated: str | None  # who was authenticated after this call
    _facts: Any = field(default=None, repr=False)
    _values: set | None = field(default=None, repr=False)
    _json: Any = field(default=None, repr=False)

    @property
    def facts(self) -> V.Facts:
        """The result analysed (once, on first use)."""
        if self._facts is None:
            self._facts = V.facts(self.content if self.ok else "")
        return self._facts

    @property
    def values(self) -> set[str]:
        """Every canonical value the result showed (all kinds together)."""
        if self._values is None:
            self._values = V.all_values(self.facts)
        return self._values

    def names_record(self, record: Any, in_result: bool = True) -> bool:
        """Whether this call's arguments (or its successful result) name the record id
        ``record``."""
        rid = str(record)
        if any(str(a) == rid for a in _leaves(self.arguments)):
            return True
        if not self.ok or not in_result:
            return False
        pattern = r"(?<![\w#])" + re.escape(rid) + r"(?![\w])"
        return re.search(pattern, self.content, re.IGNORECASE) is not None

    def parsed(self) -> Any:
        if self._json is None:
            try:
                self._json = json.loads(self.content)
            except (TypeError, ValueError):
                self._json = ()
        return self._json


def _leaves(value: Any, depth: int = 0) -> Iterable[Any]:
    """The scalar values of a JSON-like structure (bounded depth)."""
    if depth > 8:
        return
    if isinstance(value, dict):
        for v in value.values():
            yield from _leaves(v, depth + 1)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _leaves(v, depth + 1)
    elif value is not None:
        yield value


def _pairs(value: Any, depth: int = 0) -> Iterable[tuple[str, Any]]:
    """``(key, scalar)`` pairs of a JSON structure (bounded depth)."""
    if depth > 8:
        return
    if isinstance(value, dict):
        for k, v in value.items():
            if isinstance(v, (dict, list)):
                yield from _pairs(v, depth + 1)
            elif v is not None:
                yield str(k), v
    elif isinstance(value, list):
        for v in value:
            yield from _pairs(v, depth + 1)


class EpisodeLog:
    """Append-only record of an episode's tool calls and user messages."""

    def __init__(self) -> None:
        self.events: list[ToolEvent] = []
        self.user_texts: list[tuple[int, str]] = []  # (position, text)

    def record_call(self, tool: str, arguments: Any, ok: bool, content: str, is_write: bool,
                    target: str | None, authenticated: str | None) -> None:
        self.events.append(ToolEvent(str(tool), arguments, bool(ok), str(content),
                                     bool(is_write), target, authenticated))

    def record_user(self, text: str) -> None:
        self.user_texts.append((len(self.events), str(text)))

    def agent_message(self, text: str, position: int | None = None) -> "AgentMessage":
        """The agent's message, grounded at ``position`` (default: now)."""
        return AgentMessage(text, self, len(self.events) if position is None else position)

    def before(self, position: int) -> list[ToolEvent]:
        return self.events[:position]

    def authenticated_at(self, position: int) -> str | None:
        return self.events[position - 1].authenticated if position > 0 else None

    def user_values(self, position: int) -> set[str]:
        out: set[str] = set()
        for pos, text in self.user_texts:
            if pos <= position:
                out |= V.all_values(text)
        return out


class AgentMessage(str):
    """An agent message that knows what the agent had seen when it wrote it."""

    log: EpisodeLog | None
    position: int
    _facts: Any = None
    _answers: dict | None = None  # (answer, evidence, kind) -> verdict, see answers()
    _refusal: bool | None = None  # states_refusal(self)

    def __new__(cls, text: str, log: EpisodeLog | None = None, position: int = 0):
        obj = super().__new__(cls, text)
        obj.log = log
        obj.position = position
        return obj

    def __reduce__(self):
        return (AgentMessage, (str(self), self.log, self.position))


def _grounding(message: Any) -> tuple[EpisodeLog, int] | None:
    log = getattr(message, "log", None)
    if not isinstance(message, str) or not isinstance(log, EpisodeLog):
        return None
    return log, int(getattr(message, "position", 0))


def _read(events: Sequence[ToolEvent], record: Any) -> bool:
    """A successful read named ``record``: an id, or ``(tool, id)`` for a read of that
    tool (a record that has no id of its own, such as "the user's invites")."""
    tool = None
    if isinstance(record, (tuple, list)) and len(record) == 2:
        tool, record = record
    return any(e.ok and not e.is_write and (tool is None or e.tool == tool)
               and e.names_record(record) for e in events)


def _read_records(events: Sequence[ToolEvent], records: Sequence[Any]) -> bool:
    return all(_read(events, r) for r in records)


def _field_siblings(events: Sequence[ToolEvent], answer: str) -> set[str]:
    """For a free-text answer: the canonical values the tool results gave under the same
    JSON keys as the answer."""
    target = V.canonical(answer)
    keys: set[str] = set()
    pairs: list[tuple[str, str]] = []
    for e in events:
        if not e.ok:
            continue
        for k, v in _pairs(e.parsed()):
            if isinstance(v, str):
                c = V.canonical(v)
                pairs.append((k, c))
                if c == target:
                    keys.add(k)
    return {c for k, c in pairs if k in keys and c}


def answers(message: Any, answer: str, evidence: Sequence[Any] = (),
            kind: str | None = None) -> bool:
    """Whether one message is a grounded answer ``answer`` (see the module docstring).
    Inline markdown is read both ways (:func:`tool_gym.core.values.readings`): the message
    answers when one reading satisfies (a) and (c). The verdict depends only on the log
    before the message (append-only), so it is kept on the message: the user asks again
    every turn."""
    ground = _grounding(message)
    if ground is None or answer is None:
        return False
    key = (str(answer), tuple(map(str, evidence)), kind)
    if message._answers is None:
        message._answers = {}
    if key not in message._answers:
        message._answers[key] = _answers(message, *ground, str(answer), evidence, kind)
    return message._answers[key]


def _answers(message: "AgentMessage", log: EpisodeLog, position: int, answer: str,
             evidence: Sequence[Any], kind: str | None) -> bool:
    return _answer_miss(message, log, position, answer, evidence, kind) is None


def _answer_miss(message: "AgentMessage", log: EpisodeLog, position: int, answer: str,
                 evidence: Sequence[Any], kind: str | None) -> str | None:
    """``None`` when ``message`` answers ``answer``; otherwise the first rule it breaks,
    a key of :data:`ANSWER_GAPS`."""
    if len(message) > MAX_MESSAGE_CHARS:
        return "too_long"
    kind = kind or V.kind_of(str(answer))
    texts = V.readings(str(message))
    said = [_facts(message)] + [V.facts(t) for t in texts[1:]]
    named = [f for f in said if V.names(f, str(answer), kind)]
    said = [f for f in named if not _dump(f)]                                  # (a), (d)
    if not said:
        return "dump" if named else "unsaid"
    events = [e for e in log.before(position) if e.ok]
    value = V.value_of(str(answer), kind)
    if kind == "text":
        shown = any(V.names(e.facts, str(answer), kind) for e in events)
    else:
        shown = any(value in e.values for e in events)
    if not shown and not (evidence and _read_records(events, evidence)):      # (b)
        return "unshown"
    own = V.all_values(V.facts(str(answer)))
    said = [f for f in said if not _copies_record(f, events, own)]              # (d)
    if not said:
        return "dump"
    if kind == "text":                                                          # (c)
        siblings = _field_siblings(events, str(answer))
        held = any(len({s for s in siblings if re.search(
            r"(?<![\w#$])" + re.escape(s) + r"(?!\w)", f.canon)}) <= MAX_VALUES for f in said)
        return None if held else "competing"
    known = set().union(*(e.values for e in events)) | log.user_values(position) | {value}
    if kind == "date":  # a day named without its year is known when a known date has it
        known |= {d for k in list(known) for d in V.date_forms(k)}
    held = any(_few(f, kind, value) and V.values(f, kind) <= known for f in said)
    return None if held else "competing"


def _dump(said: V.Facts) -> bool:
    """A copy of records rather than an answer: JSON pairs (``"key": value``) or more than
    :data:`MAX_DUMP_VALUES` distinct values of all kinds together."""
    return len(_JSON_PAIR.findall(said.canon, 0, MAX_MESSAGE_CHARS)) >= 3 or \
        len(V.all_values(said)) > MAX_DUMP_VALUES


def _copies_record(said: V.Facts, events: Sequence[ToolEvent], own: set[str]) -> bool:
    """Whether the message restates more than :data:`MAX_RECORD_VALUES` values of one tool
    result besides ``own`` (the answer's values)."""
    mine = V.all_values(said) - own
    return len(mine) > MAX_RECORD_VALUES and \
        any(len(mine & e.values) > MAX_RECORD_VALUES for e in events)


def is_dump(message: Any) -> bool:
    """Whether ``message`` is a dump of records (rule (d) of the module docstring)."""
    return _dump(_facts(message))


def read_records(events: Sequence[ToolEvent], records: Sequence[Any]) -> bool:
    """Whether a successful read among ``events`` named each of ``records`` (an id, or
    ``(tool, id)``)."""
    return _read_records(events, records)


def _few(said: V.Facts, kind: str, value: str) -> bool:
    """At most :data:`MAX_VALUES` values of the answer's kind; for a whole amount, which
    may be written as a bare number, every bare number counts as one (a list of numbers
    is a spray)."""
    stated = V.values(said, kind)
    if kind == "amount" and "." not in value:
        stated = stated | V.values(said, "number")
    return len(stated) <= MAX_VALUES


def grounded_answer(messages: Sequence[Any], answer: str, evidence: Sequence[Any] = (),
                    kind: str | None = None) -> bool:
    """Whether some agent message is a grounded answer ``answer``."""
    return any(answers(m, answer, evidence, kind) for m in messages)


def _keyed(value: Any, key: str = "", depth: int = 0) -> Iterable[tuple[str, Any]]:
    """``(key, scalar)`` pairs of a JSON structure; a list's scalars carry the list's key
    (``{"orders": ["#A", "#B"]}`` gives ``("orders", "#A")``, ``("orders", "#B")``)."""
    if depth > 8:
        return
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _keyed(v, str(k), depth + 1)
    elif isinstance(value, list):
        for v in value:
            yield from _keyed(v, key, depth + 1)
    elif value is not None and key:
        yield key, value


def _id_key(value: Any) -> str:
    """An id compared across notations: canonical, without a leading ``#``."""
    return V.canonical(str(value)).lstrip("#")


def _rival_named(canon: str, rival: Any) -> bool:
    """Whether the canonical text names a rival: one of its forms (a string, or a tuple
    of parts that must all occur) as a whole phrase."""
    forms = rival if isinstance(rival, tuple) else (rival,)
    for form in forms:
        parts = form if isinstance(form, tuple) else (form,)
        parts = [V.canonical(str(p)) for p in parts]
        if parts and all(p and re.search(r"(?<![\w#$])#?" + re.escape(p.lstrip("#"))
                                         + r"(?![\w])", canon) for p in parts):
            return True
    return False


_TOKEN = re.compile(r"[#a-z0-9_]+(?:[.\-@][#a-z0-9_]+)*")


def _id_like(raw: str) -> bool:
    """Whether a result's value reads as a record id (not a word): no space, and a digit,
    ``_``, ``#`` or ``-``, or all capitals (``HATHAT``)."""
    return (2 < len(raw) <= 64 and not any(ch.isspace() for ch in raw)
            and (any(ch.isdigit() or ch in "_#-" for ch in raw)
                 or (raw.isalnum() and raw.isupper())))


def names_competing_record(message: Any, events: Sequence[ToolEvent], records: Sequence[Any],
                           own: Iterable[Any] = (), rivals: Iterable[Any] = ()) -> bool:
    """Whether a refusal names a record other than the ineligible one(s) ``records``: an
    id that a tool result gave under the same JSON key as one of ``records`` (another of
    the user's orders or reservations), or one of the need's ``rivals`` (the competing
    values its intent declares), in either markdown reading. Ids of the need itself
    (``own``: its arguments) never compete."""
    targets = {_id_key(r) for r in records}
    allowed = targets | {_id_key(x) for x in own}
    keys: set[str] = set()
    pairs = []
    for e in events:
        if not e.ok:
            continue
        for k, v in _keyed(e.parsed()):
            if isinstance(v, (str, int)) and not isinstance(v, bool) and _id_like(str(v)):
                c = _id_key(v)
                pairs.append((k, c))
                if c in targets:
                    keys.add(k)
    siblings = {c for k, c in pairs if k in keys} - allowed
    texts = V.readings(str(message))
    for f in [_facts(message)] + [V.facts(t) for t in texts[1:]]:
        if siblings and {t.lstrip("#").rstrip(".") for t in _TOKEN.findall(f.canon)} & siblings:
            return True
        if any(_rival_named(f.canon, r) for r in rivals):
            return True
    return False


def refuses(message: Any, user_id: Any, records: Sequence[Any],
            tools: Sequence[str] = (), allowed: Iterable[tuple] = (),
            own: Iterable[Any] = (), rivals: Iterable[Any] = (),
            about: Sequence[Any] = ()) -> bool:
    """Whether one message is an earned refusal (see the module docstring)."""
    return _refusal_miss(message, user_id, records, tools, allowed, own, rivals,
                         about) is None


def _refusal_miss(message: Any, user_id: Any, records: Sequence[Any],
                  tools: Sequence[str] = (), allowed: Iterable[tuple] = (),
                  own: Iterable[Any] = (), rivals: Iterable[Any] = (),
                  about: Sequence[Any] = ()) -> str | None:
    """``None`` when ``message`` is an earned refusal; otherwise the first rule it
    breaks, a key of :data:`REFUSAL_GAPS`."""
    ground = _grounding(message)
    if ground is None or not states_refusal(message):
        return "unsaid"
    if not addresses(message, about):
        return "unaddressed"
    log, position = ground
    if user_id is not None and str(log.authenticated_at(position)) != str(user_id):
        return "unauthenticated"
    events = log.before(position)
    if not _read_records(events, records):
        return "unread"
    ids = [r[1] if isinstance(r, (tuple, list)) and len(r) == 2 else r for r in records]
    # a record that is the user (``("list_invites", user)``) has no rival of its kind
    kinds = [r for r in ids if user_id is None or str(r) != str(user_id)]
    if names_competing_record(message, events, kinds, own, rivals):
        return "competing"
    allowed = {(str(t), str(x)) for t, x in allowed}
    for e in log.events:  # the whole episode: a later write on the records undoes it
        if (e.tool, str(e.target)) in allowed:
            continue  # a write another need of the task requires
        if e.ok and e.is_write and (not tools or e.tool in tools) and \
                any(e.names_record(r, in_result=False) for r in ids):
            return "undone"
    return None


def earned_refusal(messages: Sequence[Any], user_id: Any, records: Sequence[Any],
                   tools: Sequence[str] = (), allowed: Iterable[tuple] = (),
                   own: Iterable[Any] = (), rivals: Iterable[Any] = (),
                   about: Sequence[Any] = ()) -> bool:
    """Whether some agent message is an earned refusal (``allowed``: ``(tool, target)``
    writes that other needs require, which may name the records; ``own``: ids of the need
    that a refusal may name besides its records; ``rivals``: competing values it may not
    name; ``about``: forms of which it must name one, :func:`addresses`)."""
    allowed, own, rivals, about = tuple(allowed), tuple(own), tuple(rivals), tuple(about)
    return any(refuses(m, user_id, records, tools, allowed, own, rivals, about)
               for m in messages)


def addresses(message: Any, about: Sequence[Any]) -> bool:
    """Whether a refusal addresses the request: it names at least one form of ``about``
    (each a string, or a tuple of strings that must all appear), as whole words of the
    canonical text in either markdown reading; an empty ``about`` asks nothing."""
    if not about:
        return True
    about = tuple(about)
    texts = V.readings(str(message))
    said = [_facts(message).canon] + [V.canonical(t) for t in texts[1:]]
    return any(_rival_named(canon, about) for canon in said)


#: Why no message answered (:func:`communication_gap`), from the message that got least
#: far to the one that got furthest.
ANSWER_GAPS = {
    "unsaid": "not communicated: no message to the user gave the answer",
    "too_long": "not communicated: the message was too long to be read as an answer",
    "dump": "not communicated: the answer was only in a dump of records, never said as one",
    "unshown": "not grounded: the answer was said before a tool result showed it "
               "(or before the records it is computed from were read)",
    "competing": "not grounded: the message with the answer also named other values "
                 "(ones no tool had shown, or too many of its kind)",
}
#: Why no message was an earned refusal (:func:`communication_gap`), in the same order.
REFUSAL_GAPS = {
    "unsaid": "not communicated: no message to the user said the request cannot be done",
    "unaddressed": "not communicated: the refusal did not name the request "
                   "(the record, or why it is blocked)",
    "unauthenticated": "not grounded: the refusal came before the task's user was "
                       "authenticated",
    "unread": "not grounded: the refusal came before a tool showed why "
              "(the records that block the request were not read)",
    "competing": "not grounded: the refusal named another of the user's records",
    "undone": "refusal undone: a write acted on the records that block the request",
}


def _furthest(misses: Iterable[str | None], gaps: dict[str, str]) -> str | None:
    """The text of the miss that got furthest (``None`` when one message held)."""
    order = list(gaps)
    worst = 0
    for miss in misses:
        if miss is None:
            return None
        worst = max(worst, order.index(miss))
    return gaps[order[worst]]


def communication_gap(task: Any, constraint: Any, messages: Sequence[Any]) -> str | None:
    """Why the message part of a need failed (:func:`communicated` is false): the text of
    :data:`REFUSAL_GAPS` or :data:`ANSWER_GAPS` for the message that got furthest;
    ``None`` when it holds. For explanations only: the score reads :func:`communicated`."""
    refusal = getattr(constraint, "refusal", None)
    if refusal is not None:
        allowed = tuple(w for c in task.constraints if c is not constraint for w in c.writes)
        intent = getattr(constraint, "intent", None)
        rivals = tuple(r for p in (intent.params if intent else ()) for r in p.rivals)
        own = tuple(_leaves(constraint.args))
        return _furthest((_refusal_miss(m, task.user_id, refusal.records, refusal.tools,
                                        allowed, own, rivals, tuple(getattr(refusal, "about", ())))
                          for m in messages), REFUSAL_GAPS)
    if constraint.answer is not None:
        return answer_gap(messages, constraint.answer, constraint.evidence)
    return None


def answer_gap(messages: Sequence[Any], answer: str, evidence: Sequence[Any] = (),
               kind: str | None = None) -> str | None:
    """Why no message is a grounded answer ``answer`` (:data:`ANSWER_GAPS`); ``None``
    when one is (:func:`grounded_answer`)."""
    def miss(message: Any) -> str | None:
        ground = _grounding(message)
        if ground is None:
            return "unsaid"
        return _answer_miss(message, *ground, str(answer), evidence, kind)
    return _furthest(map(miss, messages), ANSWER_GAPS)


def communicated(task: Any, constraint: Any, messages: Sequence[Any]) -> bool:
    """The message part of a need: an earned refusal for a constraint with ``refusal``, a
    grounded answer for one with ``answer``, nothing to say (True) otherwise."""
    refusal = getattr(constraint, "refusal", None)
    if refusal is not None:
        allowed = [w for c in task.constraints if c is not constraint for w in c.writes]
        intent = getattr(constraint, "intent", None)
        rivals = [r for p in (intent.params if intent else ()) for r in p.rivals]
        return earned_refusal(messages, task.user_id, refusal.records, refusal.tools, allowed,
                              own=list(_leaves(constraint.args)), rivals=rivals,
                              about=getattr(refusal, "about", ()))
    if constraint.answer is not None:
        return grounded_answer(messages, constraint.answer, constraint.evidence)
    return True


def record_call(log: EpisodeLog, box: Any, name: str, arguments: Any, result: Any,
                auth_tools: Sequence[str], authenticated: str | None) -> str | None:
    """Record a sandbox call in ``log`` as :class:`~tool_gym.envs.tool_env.ToolEnv` does
    (for replays outside an env); returns who is authenticated after it."""
    from .tools import Category
    from .verify import authenticated_user

    tool = box.toolbox[name] if name in box.toolbox else None
    is_write = tool is not None and tool.category is Category.WRITE and result.stage >= 2
    target = None
    if is_write and isinstance(arguments, dict):
        first = next(iter(tool.input_entities), None)
        target = arguments.get(first) if first else None
    if name in auth_tools and result.ok:
        authenticated = authenticated_user(result.content)
    log.record_call(name, arguments, result.ok, result.content, is_write, target,
                    authenticated)
    return authenticated


def replay(box: Any, steps: Iterable[Any], auth_tools: Sequence[str],
           log: EpisodeLog | None = None) -> list[AgentMessage]:
    """Run plan steps (:class:`~tool_gym.core.task_model.PlanStep`) on a sandbox, recording the
    calls; the steps' messages, grounded in what was read before each."""
    log = EpisodeLog() if log is None else log
    messages: list[AgentMessage] = []
    authenticated = None
    for step in steps:
        if step.call is not None:
            result = box.call(step.call.name, step.call.arguments)
            authenticated = record_call(log, box, step.call.name, step.call.arguments, result,
                                        auth_tools, authenticated)
        if step.say:
            messages.append(log.agent_message(step.say))
    return messages
