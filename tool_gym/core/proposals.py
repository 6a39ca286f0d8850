"""Matching an agent's proposal against one need of the user.

The full explanation is in ``docs/proposals.md``.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Iterable, Sequence

from .values import canonical, extract, kind_of, value_of

Form = Any  # str, or a tuple of str that must all appear


@dataclass(frozen=True)
class Param:
    """One parameter of a need: the intended value's forms and its rivals' forms."""

    name: str
    forms: tuple
    rivals: tuple = ()  # tuple of tuples of forms, one per competing value
    role: tuple[str, ...] = ()

    @classmethod
    def from_dict(cls, d: dict) -> "Param":
        return cls(d["name"], tuple(_form(f) for f in d["forms"]),
                   tuple(tuple(_form(f) for f in r) for r in d.get("rivals", ())),
                   tuple(d.get("role", ())))


@dataclass(frozen=True)
class Intent:
    """What a proposal for one need must name (see the module docstring)."""

    params: tuple[Param, ...]
    opposite: tuple[str, ...] = ()
    before: tuple[tuple[str, str], ...] = ()  # (a, b): parameter a is named before b

    @classmethod
    def from_dict(cls, d: dict | None) -> "Intent | None":
        if d is None:
            return None
        return cls(tuple(Param.from_dict(p) for p in d["params"]), tuple(d.get("opposite", ())),
                   tuple(tuple(b) for b in d.get("before", ())))

    @classmethod
    def from_terms(cls, groups: Sequence[Sequence[str]],
                   rivals: dict[int, Iterable] | None = None) -> "Intent":
        """The intent of plain ``confirm_terms``: one parameter per group, action words
        widened by :data:`SYNONYMS`, opposites from :data:`OPPOSITES`; ``rivals`` maps a
        group's index to the competing values of that parameter (each a form or a tuple of
        forms)."""
        rivals = rivals or {}
        params, opposite = [], []
        for i, group in enumerate(groups):
            forms: list = []
            for term in group:
                forms.append(term)
                key = str(term).lower()
                forms.extend(SYNONYMS.get(key, ()))
                opposite.extend(OPPOSITES.get(key, ()))
            own = {str(t).lower() for t in group}
            competing = tuple(
                tuple(r) if isinstance(r, (tuple, list)) else (r,) for r in rivals.get(i, ())
                if str(r[0] if isinstance(r, (tuple, list)) else r).lower() not in own)
            params.append(Param(f"term{i}", tuple(dict.fromkeys(forms)),
                                tuple(dict.fromkeys(competing))))
        return cls(tuple(params), tuple(dict.fromkeys(opposite)))


def _form(f: Any) -> Form:
    return tuple(f) if isinstance(f, list) else f


class Verdict(enum.Enum):
    YES = "yes"
    VAGUE = "vague"
    NO = "no"


#: Words that name the same action as a confirm term (a careful agent's synonyms).
SYNONYMS: dict[str, tuple[str, ...]] = {
    "cancel": ("call off", "void"),
    "dispute": ("contest", "chargeback", "charge back", "challenge"),
    "refund": ("reimburse", "money back"),
    "permanently": ("for good", "forever", "irreversibl", "cannot be undone", "can't be undone",
                    "permanent"),
    "send": ("sent",),
    "complete": ("done", "finished", "finish"),
    "won": ("closed_won",),
    "disqualif": ("not qualified", "unqualified"),
    "archive": (),
    "join": ("add you to",),
    "pin": (),
    "freeze": ("frozen", "block", "lock"),
    "unfreeze": ("unblock", "unlock", "reactivat", "thaw"),
}

#: Words of the opposite action: a proposal using one is never confirmed.
OPPOSITES: dict[str, tuple[str, ...]] = {
    "freeze": ("unfreeze", "unblock", "unlock", "reactivat"),
    "unfreeze": ("freeze", "block", "lock"),
    "join": ("leave",),
    "archive": ("unarchive",),
    "pin": ("unpin",),
    "won": ("lost", "closed_lost"),
    "send": ("discard",),
    "accept": ("decline",),
    "decline": ("accept",),
}


# ------------------------------------------------------------------ finding forms
@lru_cache(maxsize=16384)
def _pattern(canon_form: str) -> re.Pattern:
    """A canonical form as a phrase of the canonical text: not inside a longer number or
    id; a single word may take a suffix (``cancel`` -> ``cancelled``)."""
    if re.fullmatch(r"[a-z]{3,}", canon_form):
        return re.compile(r"(?<![\w#])" + re.escape(canon_form))
    if re.search(r"(?<![\w#])[a-z]{3,}$", canon_form):  # a last word may be inflected
        return re.compile(r"(?<![\w#])(?<!\d\.)" + re.escape(canon_form) + r"(?:s|es|ed|d)?(?!\w)")
    body = re.escape(canon_form[1:] if canon_form.startswith("$") else canon_form)
    return re.compile(r"(?<![\w#])(?<!\d\.)\$?" + body + r"(?![\w]|\.\d)")


_VALUE_KINDS = ("amount", "number", "date", "time", "id")


def _value(form: str) -> tuple[str, str] | None:
    """``(kind, canonical value)`` when the form is one value of a kind."""
    kind = kind_of(form)
    if kind not in _VALUE_KINDS:
        return None
    return kind, value_of(form, kind)


def _value_named(found: dict[str, set[str]], kind: str, value: str) -> bool:
    if kind in ("amount", "number"):
        return value in found["amount"] or value in found["number"]
    if kind == "date":
        return any(d == value or d[-6:] == value[-6:] and ("--" in (d[:2], value[:2]))
                   for d in found["date"])
    return value in found[kind]


def _positions(text: str, found: dict[str, set[str]], form: Form) -> list[int]:
    """Where ``form`` occurs in the canonical ``text`` (empty: nowhere). A form that is one
    value also matches an equal value in another notation (position -1 when found only so)."""
    if isinstance(form, tuple):  # a description: where its last-named part first occurs
        spots = [_positions(text, found, part) for part in form]
        return [max(s[0] for s in spots)] if all(spots) else []
    c = canonical(str(form))
    if not c:
        return []
    spots = [m.start() for m in _pattern(c).finditer(text)]
    if spots:
        return spots
    v = _value(str(form))
    if v is not None and _value_named(found, *v):
        return [-1]
    return []


def _sentence_of(text: str, spot: int) -> int:
    """The start of the sentence of the canonical ``text`` holding ``spot``."""
    return max(text.rfind(". ", 0, spot), text.rfind("? ", 0, spot), text.rfind("! ", 0, spot),
               text.rfind("; ", 0, spot))


def _role_words(intent: Intent) -> list[tuple[re.Pattern, str]]:
    out = []
    for p in intent.params:
        for word in p.role:
            out.append((re.compile(r"(?<![\w])" + re.escape(word.lower()) + r"(?![\w])"), p.name))
    return out


def _in_role(text: str, spot: int, param: Param, roles: list[tuple[re.Pattern, str]]) -> bool:
    """The nearest role word before ``spot`` (in the same sentence) belongs to ``param``."""
    if not param.role:
        return True
    if spot < 0:
        return False
    start = max(text.rfind(". ", 0, spot), text.rfind("? ", 0, spot),
                text.rfind("\n", 0, spot)) + 1
    best, owner = -1, None
    for pattern, name in roles:
        for m in pattern.finditer(text, start, spot):
            if m.start() > best:
                best, owner = m.start(), name
    return owner == param.name


def _named(text: str, found, forms: Iterable[Form], param: Param, roles) -> bool:
    return any(_in_role(text, s, param, roles) for f in forms for s in _positions(text, found, f))


def _own_ids(intent: Intent, extra: Iterable[str]) -> set[str]:
    ids: set[str] = set()
    for p in intent.params:
        for f in p.forms:
            for part in (f if isinstance(f, tuple) else (f,)):
                ids |= extract(str(part))["id"]
    for value in extra:
        ids |= extract(str(value))["id"]
    return ids


def _shape(token: str) -> str:
    """``"#w6238857"`` -> ``"#a9999999"``: ids of one kind share a shape, option values
    such as ``"7-in-1"`` or ``"60w"`` do not share it with the need's ids."""
    return re.sub(r"\d", "9", re.sub(r"[a-z]", "a", token))


@lru_cache(maxsize=4096)
def _param_shapes(intent: Intent) -> frozenset[str]:
    """The shapes of the ids the need's parameters and their rivals name."""
    forms = [f for p in intent.params for f in (*p.forms, *(x for r in p.rivals for x in r))]
    return frozenset(_shape(i) for f in forms for part in (f if isinstance(f, tuple) else (f,))
                     for i in extract(str(part))["id"] if _ID_SHAPE.search(i))


_ID_SHAPE = re.compile(r"\d")
_COUNT_WORD = re.compile(r"\d+(?:-[a-z]+)+")  # "1-time", "5-star": not ids


_INLINE_MARKS = re.compile(r"\*\*|__|`")


def judge(message: str, intent: Intent, known: Iterable[str] = ()) -> Verdict:
    """Whether ``message`` proposes exactly ``intent``; ``known`` are further texts whose
    ids the proposal may name (the need's arguments, the user's own words).

    The message is read twice: as :func:`~tool_gym.core.values.canonical` reads it (an
    emphasis mark separates words) and with inline emphasis marks deleted (a name bold in
    part, ``'**budget-2024**.xlsx'``, is one word); any ``VAGUE`` reading wins, then any
    ``YES``."""
    known = list(known)
    verdicts = {_judge(message, intent, known)}
    if _INLINE_MARKS.search(message or ""):
        verdicts.add(_judge(_INLINE_MARKS.sub("", message), intent, known))
    for v in (Verdict.VAGUE, Verdict.YES):
        if v in verdicts:
            return v
    return Verdict.NO


def _judge(message: str, intent: Intent, known: list[str]) -> Verdict:
    text = canonical(message)
    found = extract(message)
    roles = _role_words(intent)
    hits = []
    for p in intent.params:
        right = _named(text, found, p.forms, p, roles)
        others = sum(_named(text, found, r, p, roles) for r in p.rivals)
        if right + others >= 2:
            return Verdict.VAGUE
        hits.append(right)
    if not all(hits):
        return Verdict.NO
    if intent.before:
        first = {p.name: min((s for f in p.forms for s in _positions(text, found, f) if s >= 0),
                             default=-1) for p in intent.params}
        for a, b in intent.before:
            if first.get(a, -1) >= 0 and first.get(b, -1) >= 0 and first[a] > first[b]:
                return Verdict.NO  # swapped: what is replaced named after its replacement
    if intent.opposite:
        named = [s for p in intent.params for f in p.forms for s in _positions(text, found, f)
                 if s >= 0]
        for word in intent.opposite:
            for m in _pattern(canonical(word)).finditer(text):
                # the opposite action on something this proposal names ("unfreeze card
                # 4242"), not an aside in another sentence ("You can unfreeze it later.")
                if any(_sentence_of(text, s) == _sentence_of(text, m.start()) for s in named):
                    return Verdict.NO
    foreign = {i for i in found["id"] if _ID_SHAPE.search(i) and not _COUNT_WORD.fullmatch(i)} \
        - _own_ids(intent, known)
    if {_shape(i) for i in foreign} & _param_shapes(intent):
        return Verdict.NO  # an id of the kind the need names, of another entity: a catch-all
    return Verdict.YES


def need_texts(constraint: Any, identity: Any = None) -> list[str]:
    """What a proposal for ``constraint`` may name besides its intent: the need's argument
    values, the user's own words (its requests, descriptions) and the user's identity."""
    return [*known_values(constraint.args), *constraint.say,
            *(d.text for d in constraint.refs.values()),
            *(known_values(identity.fields) if identity is not None else ())]


def known_values(args: Any) -> list[str]:
    """Every scalar of a constraint's arguments, as text (the ids a proposal may name)."""
    out: list[str] = []
    stack = [args]
    while stack:
        v = stack.pop()
        if isinstance(v, dict):
            stack.extend(v.values())
        elif isinstance(v, (list, tuple, set)):
            stack.extend(v)
        elif isinstance(v, (str, int, float)):
            out.append(str(v))
    return out


# ------------------------------------------------------------------ kinds of messages
_SENTENCE = re.compile(r"[^.?!\n]+[.?!]*")

_APPROVAL = re.compile(
    r"\b(?:shall|should|can|could|may) (?:i|we) (?!have\b|get\b|ask\b|know\b|see\b|help\b|"
    r"assist\b|please have\b|also have\b|confirm your\b|verify your\b|check your\b)\w+"
    r"|\bwould you like (?:me|us) to\b|\bdo you want (?:me|us) to\b|\bwant me to\b"
    r"|\b(?:does|do|did) (?:this|that|it|everything|all (?:of )?(?:this|that)|these|the "
    r"(?:details|changes?|above)) (?:look|sound|seem)"
    r"|\b(?:looks?|sounds?|seems?) (?:good|right|correct|ok|okay|fine|alright)\b[^.!?]{0,80}\?"
    r"|\bis (?:this|that|it|everything|all (?:of )?(?:this|that)|the above) (?:correct|right|"
    r"ok|okay|accurate|fine|alright|what you want)"
    r"|\b(?:are|is) (?:these|those|the) (?:details|changes?) (?:correct|right|ok|okay)"
    r"|\b(?:can|could|would|will) you (?:please )?confirm\b(?! (?:your|the (?:email|name|zip|"
    r"username|user|account|order|reservation)|which|what|when|where|who|how))"
    r"|\bhow (?:does|do|did) (?:this|that|it|everything|all (?:of )?(?:this|that)) (?:sound|"
    r"look|seem)"
    r"|\bplease confirm\b(?! (?:your|the (?:email|name|zip|username|user)|which|what|when|"
    r"where|who|how))"
    r"|\bdo you (?:confirm|approve|agree)\b|\bconfirm (?:that|if|whether) (?:you|i|we|this|"
    r"that|it)\b"
    r"|\b(?:ok|okay|alright|all right|good) (?:to|for me to|if i) (?:proceed|go ahead|continue)"
    r"|\bready (?:to|for me to) (?:proceed|go ahead)|\b(?:go ahead|proceed)\s*\?"
    r"|\blet me know if (?:you(?:'d| would)? (?:like|want)|i should|that'?s|this is|it'?s)"
    r"|\b(?:reply|respond|answer|say) (?:with )?['\"]?yes\b|\byes or no\b|\(yes/no\)|\by/n\b"
    r"|\b(?:correct|right|ok|okay)\s*\?\s*$"
    r"|\bwith your (?:permission|approval|consent)\b|\bdo i have your (?:permission|approval|"
    r"consent|go-ahead|ok)\b"
    r"|\b(?:would|do) you (?:like|want|wish) to (?:proceed|go ahead|continue|confirm|move "
    r"forward|do this|make (?:this|these|the) change)|\bshall (?:i|we)\s*\?"
    r"|\bare you sure (?:you want|that you want)|\b(?:does|would|will) (?:this|that|it) work "
    r"(?:for you)?\s*\?|\bgo-ahead\b|^\W*(?:confirm|proceed|ok|okay)\s*\?"
    r"|\b(?:need|get|have|give me|with) (?:your|the) (?:explicit )?(?:confirmation|approval|"
    r"permission|consent)\b")

_INFO_START = re.compile(
    r"^\W*(?:what|which|when|where|who|whose|how(?! (?:does|do|did) (?:this|that|it|"
    r"everything|all (?:of )?(?:this|that)) (?:sound|look|seem)))\b")
_INFO = re.compile(
    r"\b(?:can|could|may) i (?:please |also )?(?:have|get|ask|know)\b"
    r"|\b(?:can|could|would|will) you (?:please )?(?:tell|give|send|share|provide|remind|"
    r"let me know)\b(?! me (?:if|whether) (?:you|i))"
    r"|\b(?:please )?(?:provide|share|tell me|give me|send me)\b(?! (?:your )?(?:approval|"
    r"confirmation|consent|go-ahead|ok))"
    r"|\b(?:confirm|verify) your\b|\bwhat(?:'s| is| are)\b")


def _sentences(message: str) -> list[str]:
    return [s.strip() for s in _SENTENCE.findall(message or "") if s.strip()]


def asks_approval(message: str) -> bool:
    """Whether the message asks the user to approve an action ("Shall I go ahead?",
    "Does this look correct?", "Would you like me to ...?", "Can you confirm ...?")."""
    for s in _sentences(canonical(message)):
        if _INFO_START.match(s) and not re.search(r"\b(?:correct|right|ok|okay)\s*\?\s*$", s):
            continue
        if _APPROVAL.search(s):
            return True
    return False


def asks_information(message: str) -> bool:
    """Whether the message asks the user for a fact (and for no approval)."""
    if asks_approval(message):
        return False
    for s in _sentences(canonical(message)):
        if _INFO_START.match(s) or _INFO.search(s):
            return True
    return False


def parts_of(text: str) -> tuple[str, ...]:
    """The words of a description worth matching (for product names with options)."""
    return tuple(w for w in re.split(r"[\s,()/:;]+", text) if w)


def _flat(value: Any) -> Iterable[str]:
    if isinstance(value, dict):
        for v in value.values():
            yield from _flat(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _flat(v)
    elif isinstance(value, (str, int, float)):
        yield str(value)


def entity_groups(constraint: Any) -> list[int]:
    """The ``confirm_terms`` groups of ``constraint`` that name an entity the user
    described (a term equal to a field of one of its ``refs``, and not a date, time, amount
    or count): the parameters whose other values the user has are its rivals."""
    named = {v.lower() for d in constraint.refs.values() for v in _flat(d.fields)}
    return [i for i, group in enumerate(constraint.confirm_terms)
            if any(str(t).lower() in named and kind_of(str(t)) in ("text", "id")
                   for t in group)]


def intent_with_rivals(constraint: Any, others: Iterable[Any]) -> Intent:
    """The intent of ``constraint``'s ``confirm_terms`` whose entity groups
    (:func:`entity_groups`) take as rivals the same groups of ``others``: needs of the same
    type drawn again for the same user (other meetings, messages, channels ...)."""
    groups = entity_groups(constraint)
    # values the user's own words or the need itself name are never rivals (the sender of
    # a message to forward, a second intended item, a first name two people share)
    own = " | ".join([*constraint.say, *(d.text for d in constraint.refs.values()),
                      *(v for d in constraint.refs.values() for v in _flat(d.fields)),
                      *(str(t) for g in constraint.confirm_terms for t in g)]).lower()
    rivals: dict[int, list] = {i: [] for i in groups}
    for other in others:
        if other is None or other.type != constraint.type:
            continue
        for i in groups:
            if i < len(other.confirm_terms):
                forms = tuple(f for f in other.confirm_terms[i] if str(f).lower() not in own)
                if forms:
                    rivals[i].append(forms)
    return Intent.from_terms(constraint.confirm_terms, rivals)
