"""Requests as a user writes them: the user-facing phrasing of every tool.

A chain request (:mod:`tool_gym.synth.chains`) must read like a person asking for help,
never like an API listing: it names no tool and no parameter ("list scheduled payments",
"card id"), and it refers to what the user knows ("my card ending 2093", "the payee Con
Edison", "$120.50") rather than to internal ids. The words come from data, one file per
domain, ``<domain package>/requests.json``: a mapping ``tool -> entry`` with

- ``"ask"``: variants of what the user wants when the tool runs, as an imperative phrase
  without final period ("freeze {card_id}", "see my upcoming scheduled payments"). A
  ``{param}`` placeholder is filled with how the user refers to that argument's value; a
  variant is used only when each of its placeholders can be filled (see below), and at
  least one variant has no placeholder at all.
- ``"args"``: for every parameter of the tool, a template or a list of templates, tried in
  order:

  * a template with fields other than ``{value}`` refers to an entity by its *sibling*
    fields in the result the agent saw it in (``"my card ending {last4}"``, ``"the payee
    {name}"``); it is used only when the entity's record (the object around the id in
    that result) holds each field, the field belongs to that entity (:func:`refers_to`),
    and no other entity of the same type in the results before the call renders to the
    same text, so that the agent can tell which one is meant;
  * a template with only ``{value}`` gives the value verbatim (``"${value}"``,
    ``"my card {value}"``): the fallback, required for every parameter;
  * a template without placeholder is the *bare* form, required for every parameter:
    how the user says the thing without giving its value ("the card", "a reason"); it
    fills a placeholder of an argument the user does not give (the agent finds it, or it
    is the value withheld in ``missing`` mode) and words the agent's question for a
    withheld value.
- ``"items"`` (optional): ``{param: template}`` for an array of objects (``"{first_name}
  {last_name} (born {dob})"``); without it an object's scalar fields are listed.

The *needles* of a mention are the strings the text must contain for the agent to make the
call: the value as written (numbers with two decimals when they have at most two: ``120.5``
is written ``120.50``), or the sibling fields' values that pick the entity. Checks:

- :func:`problems` lists what is wrong with a domain's file (a tool or parameter without
  phrasing, a template without fallback or bare form, a placeholder that names no
  parameter, a tool or parameter name in the words); a domain added later must pass it
  (``tests/synth/test_requests.py`` runs it on every registered domain);
- :func:`names_in` finds tool and parameter names in a text (values removed first).
"""

from __future__ import annotations

import functools
import json
import math
import re
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, Iterable, Mapping, Sequence

from ..core.depgraph import EntityRef

__all__ = [
    "FILE",
    "Mention",
    "MissingPhrasing",
    "ToolPhrasing",
    "banned_names",
    "fill",
    "load",
    "names_in",
    "phrasing",
    "placeholders",
    "problems",
    "refer",
    "refers_to",
    "show",
]

#: The file of a domain's phrasing, in its package.
FILE = "requests.json"

_FIELD = re.compile(r"\{(\w+)\}")


class MissingPhrasing(KeyError):
    """A domain without ``requests.json``, or a tool without an entry in it."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "missing phrasing"


@dataclass(frozen=True)
class ToolPhrasing:
    """One tool's entry of ``requests.json``."""

    name: str
    asks: tuple[str, ...]
    args: Mapping[str, tuple[str, ...]]
    items: Mapping[str, str] = field(default_factory=dict)

    def templates(self, param: str) -> tuple[str, ...]:
        return self.args.get(param, ())

    def bare(self, param: str) -> str | None:
        """How the user names the argument without its value ("the card")."""
        return next((t for t in self.templates(param) if not placeholders(t)), None)

    def fallback(self, param: str) -> str | None:
        """The first template that gives the value verbatim."""
        return next((t for t in self.templates(param) if set(placeholders(t)) == {"value"}),
                    None)


@dataclass(frozen=True)
class Mention:
    """A value the user gives: its first use ``(step, param)``, the value, how the user
    says it (``text``) and the strings the text must contain (``needles``)."""

    step: int
    param: str
    value: Any
    text: str
    needles: tuple[str, ...]
    bare: str
    sibling: bool = False  # referred to by sibling fields rather than by its value

    def to_dict(self) -> dict:
        return {"step": self.step, "param": self.param, "value": self.value,
                "text": self.text, "needles": list(self.needles)}


# ------------------------------------------------------------------------ loading


def _package(domain: str) -> str:
    from ..domains import BUILTINS, plugins

    if domain in BUILTINS:
        return f"tool_gym.domains.{domain}"
    point = plugins().get(domain)
    if point is None:
        raise MissingPhrasing(f"unknown domain {domain!r}")
    return point.module


def _as_tuple(value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        return (value,)
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return tuple(value)
    raise ValueError(f"a template must be a string or a list of strings, got {value!r}")


@functools.cache
def load(domain: str) -> dict[str, ToolPhrasing]:
    """The phrasing of ``domain``'s tools (``MissingPhrasing`` when it has no file)."""
    package = _package(domain)
    try:
        text = resources.files(package).joinpath(FILE).read_text(encoding="utf-8")
    except (FileNotFoundError, ModuleNotFoundError, NotADirectoryError) as error:
        raise MissingPhrasing(f"domain {domain!r} has no {FILE} in package {package} (see "
                              f"docs/prove-data.md): {error}") from None
    raw = json.loads(text)
    if not isinstance(raw, dict):
        raise ValueError(f"{package}/{FILE} must hold a JSON object")
    out = {}
    for name, entry in raw.items():
        if not isinstance(entry, dict):
            raise ValueError(f"{package}/{FILE}: entry {name!r} must be an object")
        out[name] = ToolPhrasing(
            name, _as_tuple(entry.get("ask", [])),
            {p: _as_tuple(t) for p, t in (entry.get("args") or {}).items()},
            dict(entry.get("items") or {}))
    return out


def phrasing(domain: str, tool: str) -> ToolPhrasing:
    """The entry of ``tool`` (``MissingPhrasing`` when there is none)."""
    entries = load(domain)
    if tool not in entries:
        raise MissingPhrasing(f"{domain}/{FILE} has no entry for tool {tool!r} (see "
                              f"docs/prove-data.md)")
    return entries[tool]


# ------------------------------------------------------------------ names to avoid


def _forms(name: str) -> set[str]:
    low = name.lower()
    return {low, low.replace("_", " ")}


@functools.cache
def _banned(domains: tuple[str, ...]) -> tuple[str, ...]:
    from ..domains import get_domain

    names: set[str] = set()
    for d in domains:
        for t in get_domain(d).toolbox:
            names |= _forms(t.name)
            for p in t.parameters.get("properties", {}):
                if "_" in p:  # one word ("reason", "to") is plain English
                    names |= _forms(p)
    return tuple(sorted(names, key=lambda n: (-len(n), n)))


def banned_names(domains: Iterable[str] | None = None) -> tuple[str, ...]:
    """Tool names and parameter names of several words, as they are (``card_id``) and
    with spaces (``card id``): what a request must not contain. ``domains``: default
    every registered domain."""
    from ..domains import domain_names

    return _banned(tuple(sorted(domain_names() if domains is None else domains)))


@functools.cache
def _banned_pattern(names: tuple[str, ...]) -> re.Pattern:
    alternatives = "|".join(re.escape(n).replace(r"\ ", r"\s+") for n in names)
    return re.compile(rf"(?<![\w-])(?:{alternatives})(?![\w-])", re.IGNORECASE)


def names_in(text: str, values: Iterable[Any] = (), names: Sequence[str] | None = None
             ) -> list[str]:
    """The tool and parameter names (:func:`banned_names`) in ``text``, once the
    ``values`` (argument values, needles: what the user may quote) are taken out."""
    names = tuple(names) if names is not None else banned_names()
    if not names:
        return []
    strings = sorted({s for v in values for s in _strings(v) if s}, key=len, reverse=True)
    for s in strings:
        text = text.replace(s, " ")
    return sorted({" ".join(m.group(0).lower().split())
                   for m in _banned_pattern(names).finditer(text)})


def _strings(value: Any) -> list[str]:
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, (list, tuple)):
        return [s for v in value for s in _strings(v)]
    if value is None:
        return []
    return list(dict.fromkeys([str(value), show(value)]))


# ------------------------------------------------------------------------ rendering


def placeholders(template: str) -> list[str]:
    """The ``{field}`` names of a template, in order."""
    return _FIELD.findall(template)


def fill(template: str, fields: Mapping[str, str]) -> str:
    """``template`` with each ``{field}`` replaced, in one pass (a value that holds
    braces is never expanded again)."""
    return _FIELD.sub(lambda m: fields[m.group(1)], template)


def show(value: Any) -> str:
    """A scalar as the user writes it: numbers with two decimals when they have at most
    two (``120.5`` -> ``120.50``), booleans as yes/no, text as it is."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        if math.isfinite(value) and abs(value) < 1e12 and round(value, 2) == value:
            return f"{value:.2f}"
        return repr(value)
    if value is None:
        return "none"
    return str(value)


def _scalar(value: Any) -> bool:
    return value is None or isinstance(value, (str, int, float, bool))


def _join(parts: Sequence[str]) -> str:
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def _render_value(value: Any, item: str | None) -> tuple[str, list[str]]:
    """The text of a value given verbatim and its needles."""
    if isinstance(value, list):
        parts, needles = [], []
        for v in value:
            text, n = _render_value(v, item)
            parts.append(text)
            needles += n
        return _join(parts), needles
    if isinstance(value, dict):
        leaves = {k: v for k, v in value.items() if _scalar(v) and v is not None}
        nested = [v for v in value.values() if not _scalar(v)]
        used: set[str] = set()
        text = ""
        if item and all(f in leaves for f in placeholders(item)):
            used = set(placeholders(item))
            text = fill(item, {f: show(leaves[f]) for f in used})
        rest = [show(v) for k, v in leaves.items() if k not in used]
        needles = [show(v) for v in leaves.values()]
        for v in nested:
            t, n = _render_value(v, None)
            rest.append(t)
            needles += n
        if text and rest:
            text = f"{text} ({', '.join(rest)})"
        elif rest:
            text = ", ".join(rest)
        return text, needles
    return show(value), [show(value)]


def _key_of(ref: EntityRef) -> str | None:
    """The key of ``ref.context`` that holds the entity's value (its own id field
    preferred), or None when the value is not a direct field there."""
    ctx = ref.context
    if not isinstance(ctx, dict):
        return None
    target = json.dumps(ref.value)
    keys = [k for k, v in ctx.items() if _scalar(v) and json.dumps(v) == target]
    if not keys:
        return None
    leaf = ref.path.rsplit(".", 1)[-1]
    for preferred in (ref.type, leaf, "id"):
        if preferred in keys:
            return preferred
    return keys[0]


def refers_to(key: str, entity: str, sibling: str) -> bool:
    """Whether the ``sibling`` field of a record describes the entity held in its field
    ``key``: every field does when ``key`` is the entity's own id field (``card_id`` of a
    card, or ``id``); otherwise only a field named after the key (``payee_id`` ->
    ``payee_name``, ``owner_id`` -> ``owner_email``, ``assignee_id`` ->
    ``assignee_name``)."""
    if key in (entity, "id"):
        return True
    stem = re.sub(r"_?id$", "", key)
    return bool(stem) and stem != key and sibling.startswith(stem + "_")


def _sibling_text(template: str, ref: EntityRef) -> tuple[str, list[str]] | None:
    key = _key_of(ref)
    if key is None:
        return None
    ctx = ref.context
    fields: dict[str, str] = {}
    needles: list[str] = []
    for f in placeholders(template):
        if f == "value":
            fields[f] = show(ref.value)
            needles.append(fields[f])
            continue
        if f == "key":  # the record maps names to ids: {"Air Fryer": "3629433770"}
            if re.fullmatch(r"[a-z0-9_]+", key):
                return None
            fields[f] = key
            needles.append(key)
            continue
        v = ctx.get(f)
        if not refers_to(key, ref.type, f) or not _scalar(v) or v is None or \
                isinstance(v, bool) or str(v).strip() == "":
            return None
        fields[f] = show(v)
        needles.append(fields[f])
    return fill(template, fields), needles


def refer(entry: ToolPhrasing, param: str, value: Any, refs: Sequence[EntityRef] = (),
          entity: str | None = None) -> tuple[str, list[str], bool]:
    """How the user gives ``value`` for ``param``: ``(text, needles, by_sibling)``.

    For an entity (``entity``: its type), the first sibling template that picks it out
    among ``refs`` (the entities of that type the agent saw before the call; the first ref
    of the value gives its record); else the verbatim fallback. A list is referred to
    element by element."""
    templates = entry.templates(param)
    fallback = entry.fallback(param) or "{value}"
    if isinstance(value, list) and entity is not None and all(_scalar(v) for v in value):
        parts, needles, sibling = [], [], True
        for v in value:
            text, n, s = refer(entry, param, v, refs, entity)
            parts.append(text)
            needles += n
            sibling = sibling and s
        return _join(parts), needles, sibling and bool(value)
    if entity is not None and _scalar(value):
        target = json.dumps(value)
        same = [r for r in refs if r.type == entity and json.dumps(r.value) == target]
        others = [r for r in refs if r.type == entity and json.dumps(r.value) != target]
        own = next((r for r in same if _key_of(r) is not None), None)
        if own is not None:
            for t in templates:
                names = set(placeholders(t))
                if not names or names == {"value"}:
                    continue
                found = _sibling_text(t, own)
                if found is None:
                    continue
                clash = any((_sibling_text(t, r) or ("",))[0] == found[0] for r in others)
                if not clash:
                    return found[0], found[1], True
    text, needles = _render_value(value, entry.items.get(param))
    return fill(fallback, {"value": text}), needles, False


# ------------------------------------------------------------------------ checking


def problems(domain: str) -> list[str]:
    """What is wrong with ``domain``'s ``requests.json`` (empty: nothing): a missing file,
    a tool of the domain without an entry (or an entry for no tool), a parameter without
    templates, a parameter without a verbatim fallback or a bare form, a placeholder that
    names no parameter, an ask without a variant free of placeholders, or a tool or
    parameter name in the words."""
    from ..domains import get_domain

    out: list[str] = []
    try:
        entries = load(domain)
    except MissingPhrasing as error:
        return [str(error)]
    except ValueError as error:
        return [f"{domain}: {error}"]
    toolbox = get_domain(domain).toolbox
    names = banned_names()
    for t in toolbox:
        entry = entries.get(t.name)
        where = f"{domain}/{t.name}"
        if entry is None:
            out.append(f"{where}: no entry in {FILE}")
            continue
        params = t.parameters.get("properties", {})
        if not entry.asks:
            out.append(f"{where}: no ask")
        if entry.asks and all(placeholders(a) for a in entry.asks):
            out.append(f"{where}: every ask has a placeholder; add one without")
        for ask in entry.asks:
            unknown = set(placeholders(ask)) - set(params)
            if unknown:
                out.append(f"{where}: ask {ask!r} names no parameter {sorted(unknown)}")
            found = names_in(_FIELD.sub(" ", ask), names=names)
            if found:
                out.append(f"{where}: ask {ask!r} says {found}")
        for p in params:
            templates = entry.templates(p)
            if not templates:
                out.append(f"{where}: no template for parameter {p!r}")
                continue
            if entry.fallback(p) is None:
                out.append(f"{where}.{p}: no template with only {{value}}")
            if entry.bare(p) is None:
                out.append(f"{where}.{p}: no bare form (a template without placeholder)")
            for tpl in templates:
                found = names_in(_FIELD.sub(" ", tpl), names=names)
                if found:
                    out.append(f"{where}.{p}: template {tpl!r} says {found}")
        for p in set(entry.args) - set(params):
            out.append(f"{where}: template for unknown parameter {p!r}")
        for p, item in entry.items.items():
            if p not in params:
                out.append(f"{where}: items for unknown parameter {p!r}")
            found = names_in(_FIELD.sub(" ", item), names=names)
            if found:
                out.append(f"{where}.{p}: item template {item!r} says {found}")
    for name in set(entries) - set(toolbox.names):
        out.append(f"{domain}: {FILE} has an entry for unknown tool {name!r}")
    return out
