"""Adversarial policies: cheap strategies that must never be paid as if they did the task.

Each policy sees only what any agent sees: the observation text and ``info`` (the tool
schemas in ``info["tools"]``); it never touches the env or the hidden task. They exist to
test the reward: under every preset each should win (almost) no task and never out-earn
the reference solution (``tests/adversarial``, ``benchmarks/integrity.py``).

- :class:`SpamReadPolicy`: authenticates, then repeats one valid read call.
- :class:`SpamDistinctReadsPolicy`: authenticates, then makes a new valid read every turn.
- :class:`RefusalPolicy`: one fixed refusal sentence every turn, nothing else.
- :class:`SprayPolicy`: reads, then messages listing every number, date, id and status
  word seen in tool results and the user's messages (and every count up to 30).
- :class:`CatchAllPolicy`: reads, then proposes every action on every entity it has seen
  (all in one message, then one action on all its entities at a time: "Shall I cancel
  #A, #B and #C?") and performs all those writes after any yes.
- :class:`EchoPolicy`: repeats the user's last message and the last tool result back.
- :class:`TransferPolicy`: calls the domain's transfer-to-human tool at once.
- :class:`RandomPolicy`: :class:`tool_gym.agents.policy.RandomPolicy`.
- :class:`WriteEverythingPolicy`: asks a vague "shall I go ahead?", then makes every write
  it can fill, whatever the answer.
- :class:`StatusDumpPolicy`: reads everything, then states every field of every record it
  read ("status: pending; total: 341.68; ...") as its answer.
- :class:`ProposeEachPolicy` (a probe, in :data:`PROBES`): proposes each write on each
  entity in turn, using the user's yes/no as an oracle.
- :class:`RefuseAfterReadsPolicy` (a probe): reads everything, writes nothing, refuses
  every request.

All are deterministic by seed: the generator is reseeded at every ``reset`` from ``seed``,
the task id and the opening message (as :class:`~tool_gym.agents.policy.RandomPolicy`), so an
episode's actions depend on that episode only. Each is loadable by ``evaluate.py`` as
``tool_gym.agents.adversarial:<Class>``.

What they know of a domain comes from the tool schemas: a tool whose name starts with one
of :data:`READ_PREFIXES` is taken as a read, a ``transfer...`` tool as the transfer tool,
every other one as a write. Argument values come from what was seen: a value shown under
a key (``"order_id": "#W1"``) fills a parameter of that name, the user's email, username,
user id, name and zip fill identity parameters, enums take their first value.
"""

from __future__ import annotations

import itertools
import json
import re
import zlib
from typing import Any, Iterator

import numpy as np

from tool_gym.core.actions import ToolCall

from .policy import RandomPolicy

__all__ = ["AdversarialPolicy", "CatchAllPolicy", "EchoPolicy", "RandomPolicy",
           "RefusalPolicy", "SpamDistinctReadsPolicy", "SpamReadPolicy", "SprayPolicy",
           "StatusDumpPolicy", "TransferPolicy", "WriteEverythingPolicy", "ProposeEachPolicy",
           "RefuseAfterReadsPolicy", "ADVERSARIES", "PROBES"]

#: Tool-name prefixes of read tools.
READ_PREFIXES = ("get_", "list_", "find_", "search_", "check_", "calculate")
#: Parameters filled with free text when nothing was seen for them.
FREE_TEXT = ("summary", "query", "reason", "body", "text", "content", "memo", "note",
             "comment", "message", "description", "keyword", "subject")
ASK_IDENTITY = ("Before I can help, I need to verify your identity. Could you give me the "
                "email address on your account, your username or user id, or your first "
                "name, last name and zip code?")
REFUSAL = "I'm sorry, but I cannot do that: it is not allowed under our policy."
CLOSING = "Is there anything else I can help you with?"
#: Memory key of the numbers the user wrote (amounts, counts).
USER_NUMBERS = "<user numbers>"

_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_USERNAME = re.compile(r"\b(?:username|handle)\s+(?:is\s+)?@?([\w.\-]*\w)", re.IGNORECASE)
_USER_ID = re.compile(r"\buser\s*id\s+(?:is\s+)?([\w\-]*\w)", re.IGNORECASE)
_AT_HANDLE = re.compile(r"(?<![\w.])@([a-z][\w.\-]*\w)", re.IGNORECASE)
_NAME = re.compile(r"\b([A-Z][a-z]+) ([A-Z][a-z]+(?:-[A-Z][a-z]+)?)\b")
_ZIP = re.compile(r"\b(\d{5})\b")
_NUMBER = re.compile(r"(?<![\w.])\$?\d[\d,]*(?:\.\d+)?")
_DATE = re.compile(r"\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?)?")
_ID_TOKEN = re.compile(r"[#@\w][\w.\-#@]*\d[\w.\-]*")
_YES = re.compile(r"^\W*(yes|yeah|yep|sure|ok(ay)?|correct|confirm|please do|go ahead)\b",
                  re.IGNORECASE)
_STATUS_KEY = re.compile(r"status|state|stage|priority|type|category|kind")


def _plural_to_id(key: str) -> str | None:
    """``"orders"`` -> ``"order_id"``, ``"reservations"`` -> ``"reservation_id"``."""
    if key.endswith("ies"):
        return key[:-3] + "y_id"
    if key.endswith("s") and not key.endswith("ss"):
        return key[:-1] + "_id"
    return None


class Memory:
    """Everything a policy has seen, indexed for filling arguments.

    ``values[key]`` lists the scalars seen under ``key`` (first seen first, no duplicates);
    ``pairs`` lists ``(key, value)`` of every scalar of every tool result; ``user`` and
    ``results`` hold the raw texts.
    """

    def __init__(self) -> None:
        self.values: dict[str, list] = {}
        self.pairs: list[tuple[str, Any]] = []
        self.user: list[str] = []
        self.results: list[str] = []

    def add(self, key: str, value: Any) -> None:
        if isinstance(value, bool) or value is None or value == "":
            return
        if isinstance(value, str) and len(value) > 200:
            return
        bucket = self.values.setdefault(key, [])
        if value not in bucket and len(bucket) < 200:
            bucket.append(value)

    def user_message(self, text: str) -> None:
        """Identity values the user stated (email, username, user id, name and zip)."""
        if not isinstance(text, str):
            return
        self.user.append(text)
        for email in _EMAIL.findall(text):
            self.add("email", email.rstrip("."))
        for pattern in (_USERNAME, _AT_HANDLE):
            for name in pattern.findall(text):
                self.add("username", name)
        for uid in _USER_ID.findall(text):
            self.add("user_id", uid)
        for number in _NUMBER.findall(text):  # amounts the user named: "$1,090"
            value = float(number.lstrip("$").replace(",", "") or "nan")
            self.add(USER_NUMBERS, int(value) if value.is_integer() else value)
        zips = _ZIP.findall(text)
        if zips or "name" in text.lower():
            for first, last in _NAME.findall(text):
                if first not in ("Hi", "Hello", "Sure", "Yes", "My", "It", "Good", "Thanks"):
                    self.add("first_name", first)
                    self.add("last_name", last)
            for z in zips:
                self.add("zip", z)

    def tool_result(self, text: str, tools: list[str], id_params: list[str]) -> None:
        """Scalars of a tool result (several calls' results come one per line); a bare
        token result of ``find_customer_by_email`` fills ``customer_id``."""
        if not isinstance(text, str):
            return
        self.results.append(text)
        for line in text.split("\n"):
            line = line.strip()
            if not line or line.startswith("Error"):
                continue
            try:
                self._walk(json.loads(line), None, 0)
                continue
            except (ValueError, RecursionError):
                pass
            if " " not in line and any(c.isdigit() for c in line) and len(line) <= 60:
                for tool in tools:
                    for param in id_params:
                        if param[:-3] and param[:-3] in tool:
                            self.add(param, line)
                self.add("id", line)

    def _walk(self, value: Any, key: str | None, depth: int) -> None:
        if depth > 8:
            return
        if isinstance(value, dict):
            for k, v in value.items():
                if isinstance(v, (dict, list)):
                    self._walk(v, str(k), depth + 1)
                else:
                    self.add(str(k), v)
                    self.pairs.append((str(k), v))
            return
        if isinstance(value, list):
            alias = _plural_to_id(key) if key else None
            for item in value:
                if isinstance(item, (dict, list)):
                    self._walk(item, key, depth + 1)
                elif key is not None:
                    self.add(key, item)
                    self.pairs.append((key, item))
                    if alias:
                        self.add(alias, item)
            return
        if key is not None:
            self.add(key, value)

    # ---------------------------------------------------------------- derived views
    def numbers(self) -> list[str]:
        found = []
        for text in self.results + self.user:
            found.extend(_NUMBER.findall(text))
        return list(dict.fromkeys(found))

    def dates(self) -> list[str]:
        found = []
        for text in self.results + self.user:
            found.extend(_DATE.findall(text))
        return list(dict.fromkeys(found))

    def ids(self) -> list[str]:
        found = []
        for key, values in self.values.items():
            if key == "id" or key.endswith("_id") or key.endswith("ids"):
                found.extend(str(v) for v in values)
        for text in self.results:
            found.extend(t for t in _ID_TOKEN.findall(text) if len(t) <= 40)
        return list(dict.fromkeys(found))

    def status_words(self) -> list[str]:
        words = []
        for key, values in self.values.items():
            if _STATUS_KEY.search(key):
                words.extend(v for v in values if isinstance(v, str) and len(v) <= 30)
        for text in self.results:
            t = text.strip()
            if t and " " not in t and t.isalpha() and len(t) <= 30:
                words.append(t)  # e.g. get_flight_status -> "cancelled"
        return list(dict.fromkeys(words))


class AdversarialPolicy:
    """The shared machinery: observation bookkeeping, argument filling, authentication.

    A subclass writes :meth:`script`, a generator of actions; before each action is
    drawn, the observation that answered the previous one is recorded (as a user message
    after a message, as a tool result after a call). When the script ends the policy
    repeats :data:`CLOSING`.
    """

    #: How many distinct reads the exploring policies make before their trick.
    explore_limit = 12

    def __init__(self, seed: int = 0) -> None:
        self.seed = int(seed)
        self.rng = np.random.default_rng(self.seed)
        self.memory = Memory()
        self.tools: dict[str, dict] = {}
        self.made: set[str] = set()
        self.last_kind = "message"
        self.last_observation = ""
        self.authenticated = False
        self._last_tools: list[str] = []  # the tools of the last action, if it made calls
        self._script: Iterator[str] | None = None

    # -------------------------------------------------------------- Policy API
    def reset(self, observation: str, info: dict) -> None:
        """Start an episode from the opening message and the reset ``info``."""
        task_id = info.get("task_id") if isinstance(info, dict) else None
        self.rng = np.random.default_rng([self.seed, zlib.crc32(
            f"{task_id}\0{observation}".encode("utf-8", "surrogatepass"))])
        self.memory = Memory()
        self.tools = {}
        for schema in (info.get("tools") or []) if isinstance(info, dict) else []:
            function = schema.get("function", schema)
            if isinstance(function.get("name"), str):
                self.tools[function["name"]] = function
        self.made = set()
        self._last_tools = []
        self.authenticated = False
        self.last_kind = "message"
        self.last_observation = ""
        self._script = None
        self._record(observation)

    def act(self, observation: str, info: dict) -> str:
        if self._script is None:
            self._script = self.script()
        else:
            self._record(observation)
        try:
            action = next(self._script)
        except StopIteration:
            action = CLOSING
            self._script = iter(())
        self.last_kind = "call" if action.lstrip().startswith("<tool_call>") else "message"
        return action

    def script(self) -> Iterator[str]:  # pragma: no cover - abstract
        raise NotImplementedError

    # -------------------------------------------------------------- bookkeeping
    def _record(self, observation: str) -> None:
        self.last_observation = observation if isinstance(observation, str) else ""
        if self.last_kind == "call":
            id_params = sorted({p for f in self.tools.values()
                                for p in self._params(f) if p.endswith("_id")})
            self.memory.tool_result(self.last_observation, self._last_tools, id_params)
        else:
            self.memory.user_message(self.last_observation)

    @property
    def user_said_yes(self) -> bool:
        return self.last_kind == "message" and bool(_YES.match(self.last_observation))

    @property
    def last_failed(self) -> bool:
        return self.last_observation.lstrip().startswith("Error")

    # -------------------------------------------------------------- tools
    @staticmethod
    def _params(function: dict) -> dict:
        return (function.get("parameters") or {}).get("properties") or {}

    @staticmethod
    def _required(function: dict) -> list[str]:
        return list((function.get("parameters") or {}).get("required") or [])

    def reads(self) -> list[str]:
        return [n for n in self.tools if n.startswith(READ_PREFIXES)]

    def writes(self) -> list[str]:
        return [n for n in self.tools
                if not n.startswith(READ_PREFIXES) and not n.startswith("transfer")]

    def transfer_tool(self) -> str | None:
        return next((n for n in self.tools if n.startswith("transfer")), None)

    def candidates(self, name: str, param: str, limit: int = 6) -> list:
        """Values that may fill ``param`` of tool ``name``, most plausible first."""
        schema = self._params(self.tools[name]).get(param) or {}
        if schema.get("enum"):
            return list(schema["enum"])[:limit]
        kind = schema.get("type", "string")
        seen = [v for v in self.memory.values.get(param, [])
                if _fits(v, kind)]
        if kind in ("number", "integer") or kind == ["number", "integer"]:
            said = [v for v in self.memory.values.get(USER_NUMBERS, []) if _fits(v, kind)]
            seen = list(dict.fromkeys(seen[-limit:] + said))  # the user's own numbers last
        if seen:
            return seen[-limit:][::-1]  # the most recent first
        if kind == "string" and any(word in param for word in FREE_TEXT):
            return ["The customer needs help with their request."]
        if kind == "array":
            singular = _plural_to_id(param)
            items = self.memory.values.get(singular, []) if singular else []
            return [items[:limit]] if items else []
        return []

    def fills(self, name: str, limit: int = 6) -> Iterator[dict]:
        """Argument sets for ``name`` from what was seen (required parameters only)."""
        required = self._required(self.tools[name])
        options = [self.candidates(name, p, limit) for p in required]
        if any(not o for o in options):
            return iter(())
        return (dict(zip(required, combo)) for combo in
                itertools.islice(itertools.product(*options), 4 * limit))

    def call(self, name: str, arguments: dict) -> str:
        self._last_tools = [name]
        self.made.add(_key(name, arguments))
        return ToolCall(name, arguments).to_hermes()

    def calls(self, pairs: list[tuple[str, dict]]) -> str:
        self._last_tools = [n for n, _ in pairs]
        for name, arguments in pairs:
            self.made.add(_key(name, arguments))
        return "\n".join(ToolCall(n, a).to_hermes() for n, a in pairs)

    def fresh_reads(self) -> list[tuple[str, dict]]:
        """Read calls not made yet whose required arguments can be filled."""
        found = []
        for name in self.reads():
            for arguments in self.fills(name):
                if _key(name, arguments) not in self.made:
                    found.append((name, arguments))
        return found

    # -------------------------------------------------------------- shared scripts
    def identify(self, asks: int = 3) -> Iterator[str]:
        """Ask who the user is, then try the identity lookups until one succeeds; ask
        again (for the zip code when a name came alone) up to ``asks`` times."""
        identity = {"email", "username", "user_id", "first_name", "last_name", "zip"}
        lookups = [n for n in self.reads() if self._required(self.tools[n])
                   and set(self._required(self.tools[n])) <= identity]
        tried: set[str] = set()
        for attempt in range(asks):
            if attempt and "first_name" in self.memory.values and "zip" not in \
                    self.memory.values:
                yield "Thanks. Could you also give me your zip code?"
            else:
                yield ASK_IDENTITY
            for name in lookups:
                for arguments in self.fills(name, limit=2):
                    if _key(name, arguments) in tried:
                        continue
                    tried.add(_key(name, arguments))
                    yield self.call(name, arguments)
                    if not self.last_failed:
                        self.authenticated = True
                        return

    def explore(self, limit: int) -> Iterator[str]:
        """Up to ``limit`` distinct read calls, each drawn among those now fillable."""
        for _ in range(limit):
            fresh = self.fresh_reads()
            if not fresh:
                return
            name, arguments = fresh[int(self.rng.integers(len(fresh)))]
            yield self.call(name, arguments)


def _fits(value: Any, kind: Any) -> bool:
    if isinstance(kind, list):
        return any(_fits(value, k) for k in kind)
    if kind == "string":
        return isinstance(value, str)
    if kind == "integer":
        return isinstance(value, int)
    if kind == "number":
        return isinstance(value, (int, float))
    return False


def _key(name: str, arguments: dict) -> str:
    return name + json.dumps(arguments, sort_keys=True, default=str)


def _join(items: list) -> str:
    items = [str(i) for i in items]
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


# ------------------------------------------------------------------ the policies
class SpamReadPolicy(AdversarialPolicy):
    """Authenticate, pick one fillable read at random, repeat it until the episode ends."""

    def script(self) -> Iterator[str]:
        yield from self.identify()
        options = [(n, a) for n in self.reads() for a in self.fills(n)
                   if not n.startswith("find_")] or \
            [(n, a) for n in self.reads() for a in self.fills(n)]
        if not options:
            while True:
                yield REFUSAL
        name, arguments = options[int(self.rng.integers(len(options)))]
        while True:
            yield self.call(name, arguments)


class SpamDistinctReadsPolicy(AdversarialPolicy):
    """Authenticate, then a read call never made before every turn (repeats when none is
    left)."""

    def script(self) -> Iterator[str]:
        yield from self.identify()
        last = None
        while True:
            fresh = self.fresh_reads()
            if fresh:
                last = fresh[int(self.rng.integers(len(fresh)))]
            if last is None:
                yield REFUSAL
                continue
            yield self.call(*last)


class RefusalPolicy(AdversarialPolicy):
    """One fixed refusal sentence every turn: no tool call, no authentication."""

    def script(self) -> Iterator[str]:
        while True:
            yield REFUSAL


class SprayPolicy(AdversarialPolicy):
    """Authenticate, read, then list every number, date, id and status word seen (tool
    results and the user's messages) in one message; more reads, and again."""

    max_chars = 6000
    #: Every count from 0 to this one is listed too (answers to "how many ...?").
    counts = 30

    def spray(self) -> str:
        m = self.memory
        text = ("Here is what I found: it is done and it has been cancelled, refunded, "
                "updated and confirmed; I cannot do anything else. Status: "
                + ", ".join(m.status_words()) + "; dates: " + ", ".join(m.dates())
                + "; ids: " + ", ".join(m.ids()) + "; counts: "
                + ", ".join(str(i) for i in range(self.counts + 1)) + "; numbers: "
                + ", ".join(m.numbers()))
        return text[: self.max_chars]

    def script(self) -> Iterator[str]:
        yield self.spray()
        yield from self.identify()
        while True:
            yield from self.explore(self.explore_limit)
            yield self.spray()


class CatchAllPolicy(AdversarialPolicy):
    """Authenticate, read, then for each write tool propose it on every entity seen at
    once ("Shall I cancel pending order #A, #B and #C?") and, after any yes, perform all
    those writes in one action."""

    def proposals(self) -> list[tuple[str, list[dict]]]:
        out = []
        for name in self.writes():
            required = self._required(self.tools[name])
            if not required:
                continue
            lead = next((p for p in required if p.endswith("_id")), required[0])
            entities = self.candidates(name, lead, limit=12)
            rest = {p: self.candidates(name, p, limit=1) for p in required if p != lead}
            if not entities or any(not v for v in rest.values()):
                continue
            out.append((name, [{lead: e, **{p: v[0] for p, v in rest.items()}}
                               for e in entities]))  # the entity first (see wording)
        return out

    #: Fewest entities one proposal names (1: every single proposal, see ProposeEachPolicy).
    min_entities = 2

    @staticmethod
    def wording(name: str, argument_sets: list[dict]) -> str:
        lead = next(iter(argument_sets[0]))
        return f"{name.replace('_', ' ')} for {_join([a[lead] for a in argument_sets])}"

    def script(self) -> Iterator[str]:
        yield from self.identify()
        yield from self.explore(self.explore_limit)
        plans = [p for p in self.proposals() if len(p[1]) >= self.min_entities]
        if len(plans) > 1 and self.min_entities > 1:  # everything in one proposal first
            yield ("Shall I " + _join([self.wording(*p) for p in plans]) + "? I can do all of "
                   "them for you now; please confirm.")
            if self.user_said_yes:
                yield self.calls([(n, a) for n, sets in plans for a in sets])
        order = self.rng.permutation(len(plans)) if plans else []
        for index in order:
            name, argument_sets = plans[int(index)]
            yield (f"Shall I {self.wording(name, argument_sets)}? I can do all of them for "
                   "you now; please confirm.")
            if self.user_said_yes:
                yield self.calls([(name, a) for a in argument_sets])
        yield from self.explore(self.explore_limit)


class ProposeEachPolicy(CatchAllPolicy):
    """A probe of the user as an oracle: proposes each write tool in turn on every entity
    seen (one entity alone too) and performs it after a yes. It wins where the right
    entity is the only one of its kind and the user lets it try enough proposals; it is
    reported by ``benchmarks/integrity.py`` but not held to the 1% bound."""

    min_entities = 1


class EchoPolicy(AdversarialPolicy):
    """Repeat the user's words back; after authenticating, alternate a read and a message
    that repeats its result back, then repeat the user's reply back."""

    def script(self) -> Iterator[str]:
        yield self.last_observation or "Hello."
        yield from self.identify()
        while True:
            fresh = self.fresh_reads()
            if fresh:
                yield self.call(*fresh[int(self.rng.integers(len(fresh)))])
                yield self.last_observation[:4000] or "OK."
            yield self.last_observation[:4000] or "OK."


class TransferPolicy(AdversarialPolicy):
    """Call the domain's transfer-to-human tool at once (a refusal when there is none)."""

    def script(self) -> Iterator[str]:
        name = self.transfer_tool()
        while True:
            arguments = next(self.fills(name), None) if name else None
            if arguments is None:
                yield REFUSAL
            else:
                yield self.call(name, arguments)


class WriteEverythingPolicy(AdversarialPolicy):
    """Authenticate, read, ask a vague "shall I go ahead?", then make every write it can
    fill on every entity seen, whatever the user answered."""

    def script(self) -> Iterator[str]:
        yield from self.identify()
        yield from self.explore(self.explore_limit)
        yield "I have everything I need. Shall I go ahead and take care of that for you now?"
        plans = CatchAllPolicy.proposals(self)
        for name, argument_sets in plans:
            for arguments in argument_sets:
                yield self.call(name, arguments)
        yield "Done. " + CLOSING


class StatusDumpPolicy(AdversarialPolicy):
    """Authenticate, read everything it can, then answer by stating every field of every
    record read ("status: pending; total: 341.68; ..."), and again after more reads."""

    max_chars = 8000

    def dump(self) -> str:
        parts = [f"{k}: {v}" for k, v in dict.fromkeys(self.memory.pairs)]
        return ("Here are the details: " + "; ".join(parts) + ".")[: self.max_chars]

    def script(self) -> Iterator[str]:
        yield from self.identify()
        while True:
            yield from self.explore(2 * self.explore_limit)
            yield self.dump()


class RefuseAfterReadsPolicy(AdversarialPolicy):
    """A probe of earned refusals: authenticates, reads everything it can, writes nothing
    and refuses every request. Its wins are the tasks whose every need is a refusal (where
    refusing after reading the records is what a careful agent does, though this one does
    it without looking at them); reported, not held to the 1% bound."""

    def script(self) -> Iterator[str]:
        yield from self.identify()
        yield from self.explore(2 * self.explore_limit)
        while True:
            yield REFUSAL


#: Probes reported beside the adversaries (see :class:`ProposeEachPolicy`,
#: :class:`RefuseAfterReadsPolicy`).
PROBES: dict[str, type] = {"propose_each": ProposeEachPolicy,
                           "refuse_after_reads": RefuseAfterReadsPolicy}

#: Every adversarial policy of this module held to the integrity bounds, by short name.
ADVERSARIES: dict[str, type] = {
    "spam_read": SpamReadPolicy,
    "spam_distinct": SpamDistinctReadsPolicy,
    "refusal": RefusalPolicy,
    "spray": SprayPolicy,
    "catch_all": CatchAllPolicy,
    "echo": EchoPolicy,
    "transfer": TransferPolicy,
    "random": RandomPolicy,
    "write_everything": WriteEverythingPolicy,
    "status_dump": StatusDumpPolicy,
}
