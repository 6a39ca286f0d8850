"""tau2's second-person instructions ("You received your order ...") as the customer's own
first-person words ("I received my order ...").

tau2's ``reason_for_call`` and ``unknown_info`` speak to the simulated user. The scripted
user says them, so they are rewritten in the first person by rules (pronouns and the verb
forms that follow them), and sentences that steer the simulator rather than state the
customer's wish ("If the agent asks for confirmation, ...", "Do not ...") are left out of
what the customer says.
"""

from __future__ import annotations

import re

__all__ = ["first_person", "customer_sentences"]

# "you" is the subject at the start of a clause (I), otherwise an object (me).
_SUBJECT_BEFORE = r"(?:^|(?<=[.!?;:,\n(])\s*|\b(?:and|but|or|that|if|so|because|when|since|" \
                  r"as|unless|while|though|although|where|which|then)\s+)"
_RULES: tuple[tuple[str, str], ...] = (
    (r"\byou are\b", "I am"), (r"\byou're\b", "I'm"), (r"\byou were\b", "I was"),
    (r"\byou've\b", "I've"), (r"\byou'd\b", "I'd"), (r"\byou'll\b", "I'll"),
    (r"\byourself\b", "myself"), (r"\byours\b", "mine"), (r"\byour\b", "my"),
    (r"\bare you\b", "am I"), (r"\bdo you\b", "do I"), (r"\bhave you\b", "have I"),
)
_YOU_SUBJECT = re.compile(_SUBJECT_BEFORE + r"you\b", re.IGNORECASE)
# "you" before a verb is a subject too ("the jigsaw you ordered", "By default you use").
_YOU_BEFORE_VERB = re.compile(
    r"\byou(?=\s+(?:\w+ed|have|had|might|may|can|could|would|will|should|must|do|did|"
    r"don't|didn't|want|wanted|need|use|think|know|like|prefer|believe|remember|just|also|"
    r"only|still|already|really|recently|never|got|paid|bought|made|took|gave|saw|"
    r"received|placed|booked)\b)", re.IGNORECASE)
_YOU = re.compile(r"\byou\b", re.IGNORECASE)
_I_AGREEMENT = ((r"\bI (doesn't|does not)\b", r"I \1"), (r"\bI has\b", "I have"),
                (r"\bI is\b", "I am"), (r"\bI was\b", "I was"))
_STEERING = re.compile(
    r"^\s*(?:if|when|once|only|do not|don't|never|make sure|try|insist|be |you should|"
    r"you must|you want to make sure|at the end|after the agent|before the agent)\b|"
    r"\b(?:the agent|the service agent|agent)\b|###", re.IGNORECASE)


def _keep_case(match: re.Match, replacement: str) -> str:
    text = match.group(0)
    if text[:1].isupper() and not replacement.startswith("I"):
        return replacement[:1].upper() + replacement[1:]
    return replacement


def first_person(text: str) -> str:
    """``text`` with the simulated user's "you" turned into "I"/"me" and "your" into
    "my"."""
    out = text or ""
    for pattern, replacement in _RULES:
        out = re.sub(pattern, lambda m, r=replacement: _keep_case(m, r), out,
                     flags=re.IGNORECASE)

    def subject(match: re.Match) -> str:
        whole = match.group(0)
        return whole[: len(whole) - 3] + "I"

    out = _YOU_SUBJECT.sub(subject, out)
    out = _YOU_BEFORE_VERB.sub("I", out)
    out = _YOU.sub("me", out)
    for pattern, replacement in _I_AGREEMENT:
        out = re.sub(pattern, replacement, out)
    out = re.sub(r"(^|[.!?]\s+)(my|me)\b", lambda m: m.group(1) + m.group(2).capitalize(), out)
    return out


def _sentences(text: str) -> list[str]:
    return [s.strip() for s in re.findall(r"[^.!?\n]+[.!?]*", text or "") if s.strip()]


def customer_sentences(text: str) -> str:
    """The sentences of ``text`` that a customer would say, in the first person: those
    steering the simulator are dropped (all of them only when nothing else is left)."""
    sentences = _sentences(text)
    kept = [s for s in sentences if not _STEERING.search(s)] or sentences[:1]
    return " ".join(first_person(s) for s in kept)
