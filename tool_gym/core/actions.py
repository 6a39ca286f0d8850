"""Actions: turn what an LLM policy sends into tool calls, a message to the user, or an error.

:func:`parse_action` accepts the forms a policy produces and never raises on anything an
agent can send. It never evaluates model text: JSON goes through :mod:`json`, Python call
syntax through :mod:`ast` with a literal-only walker (no ``eval``/``exec``/``literal_eval``
on code paths that could run anything).

The full explanation is in ``docs/actions.md``.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import json
import re
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, Collection, Mapping

__all__ = ["PY_CODE_BUDGET", "ParseCost", "ParsedAction", "ToolCall", "parse_action",
           "parse_with_cost"]

OPEN_TAG = "<tool_call>"
CLOSE_TAG = "</tool_call>"
_THINK_OPEN = "<think>"
_THINK_CLOSE = "</think>"
_SNIP = 200
#: Most tool calls accepted in one action (a guard against pathological inputs).
MAX_CALLS = 100
_MAX_LITERAL_DEPTH = 100
_MAX_EMBEDDED_CANDIDATES = 20
_MAX_EMBEDDED_LINES = 30
#: Most characters of Python call syntax outside string literals (a literal counts one)
#: scanned, and so handed to ``ast``, for one action.
PY_CODE_BUDGET = 8192
#: ``ast`` refuses deeper bracket nesting than this anyway.
_MAX_PY_DEPTH = 200

_DECODER = json.JSONDecoder()
_WS = re.compile(r"[ \t\n\r]*")
_FENCE_LANG = re.compile(r"```[\w+.-]*")
#: Text that might be Python call syntax: ``name(``/``a.b(`` or a bracket first, no space
#: before "(" (so prose like "Confirm (yes/no)" stays prose).
_PY_START = re.compile(r"[\[(]|[^\W\d]\w*(?:\.[^\W\d]\w*)*\(")
_IDENTIFIER = re.compile(r"[^\W\d]\w*")
#: Invalid JSON that was surely meant as a call.
_BROKEN_CALL = re.compile(
    r'\A[\[{\s]*"(?:name|function|tool_calls)"\s*:|"(?:arguments|parameters)"\s*:')
_EMPTY_FENCE = re.compile(r"```[\w+.-]*\s*```")
#: One token for the bracket scanner of Python call syntax. Closed strings (triple-quoted
#: ones across lines), then unclosed ones up to the end of the line or text (a syntax
#: error: the scan stops there), comments, brackets, newlines, and runs of anything else.
#: Each alternative is unambiguous, so a match costs time linear in what it consumes.
_PY_TOKEN = re.compile("|".join((
    r'(?P<s>"""[^"\\]*(?:(?:\\.|"(?!""))[^"\\]*)*"""',
    r"'{3}[^'\\]*(?:(?:\\.|'(?!'{2}))[^'\\]*)*'{3}",
    r'"[^"\\\n]*(?:\\.[^"\\\n]*)*"',
    r"'[^'\\\n]*(?:\\.[^'\\\n]*)*')",
    r"""(?P<u>["'])""", r"(?P<o>[(\[{])", r"(?P<c>[)\]}])", r"(?P<n>\n)",
    r"#[^\n]*", r"""[^()\[\]{}"'\n#\\]+""", r"\\\n?")), re.DOTALL)
_CALL_KEYS = frozenset({"name", "id", "type"})


def _snip(text: str, limit: int = _SNIP) -> str:
    text = text.strip()
    return text if len(text) <= limit else text[:limit] + "..."


def _show(value: Any, limit: int = 80) -> str:
    """Short repr of an agent-sent value for an error message (never raises)."""
    try:
        shown = repr(value)
    except Exception:  # noqa: BLE001 - a hostile __repr__ must not crash the parser
        shown = f"<{type(value).__name__}>"
    return shown if len(shown) <= limit else shown[:limit] + "..."


def _type_name(value: Any) -> str:
    if value is None:
        return "null"
    return {dict: "object", list: "array", str: "string", bool: "boolean", int: "integer",
            float: "number", tuple: "array"}.get(type(value), type(value).__name__)


# ---------------------------------------------------------------------------- values


@dataclass(frozen=True)
class ToolCall:
    """One call of a tool by name; ``arguments`` is always a dict (values as sent)."""

    name: str
    arguments: dict
    id: str | None = None

    def _arguments_json(self) -> str:
        return json.dumps(self.arguments, ensure_ascii=False, default=str)

    def to_openai(self) -> dict:
        """An OpenAI ``tool_calls`` entry. Without an ``id``, a deterministic one is made."""
        arguments = self._arguments_json()
        call_id = self.id
        if call_id is None:
            digest = hashlib.sha1(f"{self.name}\0{arguments}".encode("utf-8", "surrogatepass"))
            call_id = "call_" + digest.hexdigest()[:24]
        return {"id": call_id, "type": "function",
                "function": {"name": self.name, "arguments": arguments}}

    def to_hermes(self) -> str:
        """``<tool_call>{"name": ..., "arguments": ...}</tool_call>`` (the id is not kept)."""
        body = json.dumps({"name": self.name, "arguments": self.arguments},
                          ensure_ascii=False, default=str)
        return f"{OPEN_TAG}{body}{CLOSE_TAG}"


@dataclass(frozen=True)
class ParsedAction:
    """Result of :func:`parse_action`: exactly one of call(s), message, error.

    ``calls`` non-empty -> a call action (``message`` may hold prose sent alongside);
    otherwise ``message`` is the text for the user; ``error`` set -> nothing else counts.
    """

    calls: tuple[ToolCall, ...] = ()
    message: str | None = None
    error: str | None = None

    @property
    def is_error(self) -> bool:
        return self.error is not None

    @property
    def is_call(self) -> bool:
        return self.error is None and len(self.calls) > 0

    @property
    def is_message(self) -> bool:
        return self.error is None and not self.calls and self.message is not None

    @property
    def has_prose(self) -> bool:
        """A call action that also talks to the user (a policy violation for most envs)."""
        return self.is_call and bool(self.message)


class _Fail(Exception):
    """Internal: a specific parse error, turned into ``ParsedAction(error=...)``."""


@dataclass
class ParseCost:
    """Work done by one :func:`parse_with_cost` (see the module docstring, "Cost").

    ``json_chars``: characters read by the JSON decoder; ``scan_code`` and
    ``scan_chars``: code (see :data:`PY_CODE_BUDGET`) and characters the Python bracket
    scanner read; ``ast_parses``
    and ``ast_chars``: calls of :func:`ast.parse` and the characters handed to it.
    """

    json_chars: int = 0
    scan_code: int = 0
    scan_chars: int = 0
    ast_parses: int = 0
    ast_chars: int = 0

    @property
    def total(self) -> int:
        """Characters read by any parser plus scanned tokens: one number to bound."""
        return self.json_chars + self.scan_chars + self.ast_chars


_COST: ContextVar[ParseCost] = ContextVar("tool_gym_parse_cost")


def _cost() -> ParseCost:
    cost = _COST.get(None)
    return cost if cost is not None else ParseCost()


def _json_loads(text: str) -> Any:
    """``json.loads`` that counts what it read (all of it, or up to the error)."""
    cost = _cost()
    try:
        value = json.loads(text)
    except json.JSONDecodeError as error:
        cost.json_chars += error.pos
        raise
    except ValueError:
        cost.json_chars += len(text)
        raise
    cost.json_chars += len(text)
    return value


def _raw_decode(text: str, pos: int) -> tuple[Any, int]:
    """``JSONDecoder.raw_decode`` from ``pos`` that counts what it read."""
    cost = _cost()
    try:
        value, end = _DECODER.raw_decode(text, pos)
    except json.JSONDecodeError as error:
        cost.json_chars += max(error.pos - pos, 0)
        raise
    cost.json_chars += end - pos
    return value, end


@dataclass
class _Scan:
    """What the bracket scanner found: where it stopped and whether ``ast`` may look."""

    end: int
    ok: bool  # brackets balanced, no unclosed string, within budget and depth
    over_budget: bool = False
    top_calls: int = 0  # "(" opened at the top level (or inside one top-level list)


def _scan_python(text: str, start: int, stop: int, *, embedded: bool) -> _Scan:
    """Scan Python call syntax in ``text[start:stop]`` with :data:`_PY_TOKEN`.

    Whole text (``embedded=False``): scan to ``stop``; ``ok`` when brackets balance at the
    end. Embedded: stop right after the bracket that closes the first one, within
    ``_MAX_EMBEDDED_LINES`` lines. Code counts against the action's
    :data:`PY_CODE_BUDGET` and characters against ``2 len(text) + 10,000`` (all scans of
    one action together); running out, a depth past ``_MAX_PY_DEPTH`` or an unclosed
    string ends the scan with ``ok`` false.
    """
    cost = _cost()
    char_limit = 2 * len(text) + 10_000 - cost.scan_chars + start
    stack: list[str] = []
    top_calls = 0
    lines = 0
    pos = start
    previous = ""
    for match in _PY_TOKEN.finditer(text, start, stop):
        kind = match.lastgroup
        cost.scan_code += 1 if kind == "s" else match.end() - match.start()
        if cost.scan_code > PY_CODE_BUDGET or match.end() > char_limit:
            cost.scan_chars += match.end() - start
            return _Scan(match.end(), False, True, top_calls)
        pos = match.end()
        if kind == "o":
            bracket = match.group()
            if bracket == "(" and (previous.isalnum() or previous == "_") and (
                    not stack or (len(stack) == 1 and stack[0] in "[(")):
                top_calls += 1
            stack.append(bracket)
            if len(stack) > _MAX_PY_DEPTH:
                break
        elif kind == "c":
            if not stack or "([{".index(stack.pop()) != ")]}".index(match.group()):
                break
            if embedded and not stack:
                cost.scan_chars += pos - start
                return _Scan(pos, True, False, top_calls)
        elif kind == "u":
            break
        elif kind == "n":
            lines += 1
            if embedded and lines >= _MAX_EMBEDDED_LINES:
                break
        previous = "" if kind else match.group()[-1:].strip()
    else:
        cost.scan_chars += stop - start
        return _Scan(stop, not embedded and not stack, False, top_calls)
    cost.scan_chars += pos - start
    return _Scan(pos, False, False, top_calls)


def _ast_parse(source: str) -> ast.Module:
    cost = _cost()
    cost.ast_parses += 1
    cost.ast_chars += len(source)
    return ast.parse(source, mode="exec")


# ------------------------------------------------------------------------ call objects


def _label(index: int, name: Any = None) -> str:
    if isinstance(name, str) and name:
        return f"tool call {index} ({_snip(name, 60)!r})"
    return f"tool call {index}"


def _decode_arguments(raw: Any, where: str, max_length: int) -> dict:
    if raw is None:
        return {}
    if isinstance(raw, str):
        if not raw.strip():
            return {}
        if len(raw) > max_length:
            raise _Fail(f"{where}: arguments string too long "
                        f"({len(raw)} > {max_length} characters)")
        if _cost().json_chars + len(raw) > 2 * max_length:
            raise _Fail(f"{where}: arguments strings too long in total "
                        f"(more than {max_length} characters)")
        try:
            value = _json_loads(raw)
        except RecursionError:
            raise _Fail(f"{where}: arguments JSON nested too deeply") from None
        except ValueError as error:
            raise _Fail(f"{where}: arguments string is not valid JSON "
                        f"({_json_problem(error)}): {_snip(raw)}") from None
        if not isinstance(value, dict):
            raise _Fail(f"{where}: arguments must be a JSON object, got a string holding "
                        f"{_type_name(value)}")
        return value
    if isinstance(raw, Mapping):
        return raw if type(raw) is dict else dict(raw)
    raise _Fail(f"{where}: arguments must be a JSON object, got {_type_name(raw)}")


def _call_from_mapping(obj: Mapping, index: int, max_length: int) -> ToolCall:
    """A call from ``{"name", "arguments"|"parameters", "id"?}`` or an OpenAI entry."""
    fn = obj.get("function")
    if "name" not in obj and isinstance(fn, Mapping):  # OpenAI tool_calls entry
        kind = obj.get("type", "function")
        if kind != "function":
            raise _Fail(f"{_label(index)}: unsupported tool call type {_show(kind)} "
                        f"(expected 'function')")
        call_id = obj.get("id")
        obj = fn
    else:
        call_id = obj.get("id")
    name = obj.get("name")
    if "name" not in obj or name is None or name == "":
        raise _Fail(f"{_label(index)}: missing tool name (expected {{\"name\": ..., "
                    f"\"arguments\": {{...}}}})")
    if not isinstance(name, str):
        raise _Fail(f"{_label(index)}: tool name must be a string, got {_type_name(name)} "
                    f"{_show(name)}")
    where = _label(index, name)
    if "arguments" in obj and "parameters" in obj and obj["arguments"] != obj["parameters"]:
        raise _Fail(f"{where}: both 'arguments' and 'parameters' given; use 'arguments'")
    raw = obj["arguments"] if "arguments" in obj else obj.get("parameters")
    arguments = _decode_arguments(raw, where, max_length)
    if call_id is not None and not isinstance(call_id, str):
        raise _Fail(f"{where}: id must be a string, got {_type_name(call_id)}")
    return ToolCall(name, arguments, call_id)


def _call_from_item(item: Any, index: int, max_length: int) -> ToolCall:
    if isinstance(item, ToolCall):
        if not isinstance(item.name, str) or not item.name:
            raise _Fail(f"{_label(index)}: tool name must be a non-empty string")
        if not isinstance(item.arguments, dict):
            raise _Fail(f"{_label(index, item.name)}: arguments must be a JSON object, "
                        f"got {_type_name(item.arguments)}")
        if item.id is not None and not isinstance(item.id, str):
            raise _Fail(f"{_label(index, item.name)}: id must be a string")
        return item
    if isinstance(item, Mapping):
        return _call_from_mapping(item, index, max_length)
    raise _Fail(f"{_label(index)}: expected an object with 'name' and 'arguments', "
                f"got {_type_name(item)} {_show(item)}")


# ------------------------------------------------------------------------------ text


def _strip_think(text: str) -> str:
    if _THINK_OPEN not in text and _THINK_CLOSE not in text:
        return text
    parts = []
    pos = 0
    while True:
        start = text.find(_THINK_OPEN, pos)
        if start < 0:
            parts.append(text[pos:])
            break
        end = text.find(_THINK_CLOSE, start + len(_THINK_OPEN))
        if end < 0:  # unclosed: the rest is unfinished reasoning
            parts.append(text[pos:start])
            break
        parts.append(text[pos:start])
        pos = end + len(_THINK_CLOSE)
    text = "".join(parts)
    stray = text.rfind(_THINK_CLOSE)
    if stray >= 0:  # "<think>" was in the prompt: everything before is reasoning
        text = text[stray + len(_THINK_CLOSE):]
    return text


def _unfence(text: str) -> str:
    """Inside of a text that is exactly one ``` fence (language tag dropped), else the text."""
    if len(text) >= 6 and text.startswith("```") and text.endswith("```"):
        inner = text[3:-3]
        if "```" in inner:
            return text
        newline = inner.find("\n")
        first = inner if newline < 0 else inner[:newline]
        if newline >= 0 and re.fullmatch(r"[\w+.-]*[ \t]*", first):
            inner = inner[newline + 1:]
        return inner.strip()
    return text


def _json_problem(error: ValueError) -> str:
    if isinstance(error, json.JSONDecodeError):
        return f"{error.msg} at line {error.lineno} column {error.colno}"
    return _snip(str(error), 100)


def _skip_ws(text: str, pos: int) -> int:
    return _WS.match(text, pos).end()


def _hermes_body(text: str, start: int, index: int, max_length: int,
                 ) -> tuple[list[ToolCall], int]:
    """Parse one ``<tool_call>`` body starting at ``start``; return calls and end offset."""
    pos = _skip_ws(text, start)
    fence = _FENCE_LANG.match(text, pos)
    if fence:
        pos = _skip_ws(text, fence.end())
    values: list[Any] = []
    n = len(text)
    while True:
        if text.startswith(CLOSE_TAG, pos):
            end = pos + len(CLOSE_TAG)
            break
        if pos >= n:  # missing closing tag at the end of the text
            end = n
            break
        if text.startswith("```", pos):
            pos = _skip_ws(text, pos + 3)
            continue
        if text.startswith(OPEN_TAG, pos):
            raise _Fail(f"{_label(index)}: missing {CLOSE_TAG} before the next {OPEN_TAG}")
        if text[pos] in "{[":
            try:
                value, pos = _raw_decode(text, pos)
            except RecursionError:
                raise _Fail(f"{_label(index)}: JSON nested too deeply") from None
            except ValueError as error:
                return _hermes_fallback(text, start, index, max_length, error)
            values.append(value)
            pos = _skip_ws(text, pos)
            continue
        if not values:  # not JSON at all: maybe Python call syntax, else an error
            return _hermes_fallback(text, start, index, max_length, None)
        raise _Fail(f"{_label(index)}: unexpected text after the JSON inside {OPEN_TAG}: "
                    f"{_snip(text[pos:pos + 60], 60)}")
    if not values:
        raise _Fail(f"{_label(index)}: empty {OPEN_TAG} block")
    calls = []
    for value in values:
        items = value if isinstance(value, list) else [value]
        if not items:
            raise _Fail(f"{_label(index)}: empty list inside {OPEN_TAG}")
        for item in items:
            if not isinstance(item, dict):
                raise _Fail(f"{_label(index)}: expected a JSON object with 'name' and "
                            f"'arguments', got {_type_name(item)}")
            calls.append(_call_from_mapping(item, index + len(calls), max_length))
    return calls, end


def _hermes_fallback(text: str, start: int, index: int, max_length: int,
                     error: ValueError | None) -> tuple[list[ToolCall], int]:
    # The block ends at its closing tag or, without one, at the next opening tag: no
    # search runs past the next <tool_call> (that keeps many open tags linear).
    nxt = text.find(OPEN_TAG, start)
    window = len(text) if nxt < 0 else nxt
    close = text.find(CLOSE_TAG, start, window)
    stop = window if close < 0 else close
    body = _unfence(text[start:stop].strip())
    end = stop + len(CLOSE_TAG) if stop == close else stop
    if _PY_START.match(body):
        calls = _python_calls(body, index)
        if calls is not None:
            return calls, end
    if error is None:
        problem = "expected a JSON object"
    elif isinstance(error, json.JSONDecodeError):
        # Position relative to the body, which is what the model wrote inside the tag.
        offset = error.pos - _skip_ws(text, start)
        problem = f"{error.msg} at character {max(offset, 0)} of the block"
    else:
        problem = _json_problem(error)
    raise _Fail(f"{_label(index)}: invalid JSON inside {OPEN_TAG} ({problem}): {_snip(body)}")


def _parse_hermes(text: str, max_length: int) -> ParsedAction:
    calls: list[ToolCall] = []
    prose: list[str] = []
    pos = 0
    while True:
        start = text.find(OPEN_TAG, pos)
        if start < 0:
            prose.append(text[pos:])
            break
        prose.append(text[pos:start])
        found, pos = _hermes_body(text, start + len(OPEN_TAG), len(calls) + 1, max_length)
        calls.extend(found)
        _check_count(len(calls))
    rest = "".join(prose)
    if CLOSE_TAG in rest:
        raise _Fail(f"found {CLOSE_TAG} without a matching {OPEN_TAG}")
    rest = _EMPTY_FENCE.sub("", rest).strip() if "```" in rest else rest.strip()
    return ParsedAction(calls=tuple(calls), message=rest or None)


def _calls_from_json(value: Any, tool_names: Collection[str] | None,
                     max_length: int) -> ParsedAction | None:
    """Calls from a whole-text JSON value, or ``None`` when it is just data (a message)."""
    if isinstance(value, dict):
        if "tool_calls" in value or "function_call" in value:
            return _parse_mapping(value, tool_names, max_length)
        if "name" not in value:
            if isinstance(value.get("function"), dict):
                return ParsedAction(calls=(_call_from_mapping(value, 1, max_length),))
            if "arguments" in value or "parameters" in value:
                raise _Fail("tool call 1: missing tool name (expected {\"name\": ..., "
                            "\"arguments\": {...}})")
            return None
        name = value["name"]
        if "arguments" in value or "parameters" in value:
            return ParsedAction(calls=(_call_from_mapping(value, 1, max_length),))
        known = tool_names is not None and isinstance(name, str) and name in tool_names
        if value.keys() <= _CALL_KEYS:
            if tool_names is None or known:
                return ParsedAction(calls=(_call_from_mapping(value, 1, max_length),))
            return None
        if known:
            extra = ", ".join(sorted(str(k) for k in value.keys() - _CALL_KEYS))
            raise _Fail(f"{_label(1, name)}: put the arguments under \"arguments\" "
                        f"(unexpected keys: {_snip(extra, 100)})")
        return None
    if isinstance(value, list) and value and any(
        isinstance(v, dict) and (("name" in v and ("arguments" in v or "parameters" in v))
                                 or isinstance(v.get("function"), dict))
        for v in value
    ):
        return ParsedAction(calls=tuple(
            _call_from_item(v, i, max_length) for i, v in enumerate(value, 1)))
    return None


def _parse_text(text: str, tool_names: Collection[str] | None, max_length: int) -> ParsedAction:
    if len(text) > max_length:
        return ParsedAction(error=f"action too long: {len(text)} characters "
                                  f"(max {max_length})")
    text = _strip_think(text)
    if OPEN_TAG in text:
        return _parse_hermes(text, max_length)
    if CLOSE_TAG in text:
        raise _Fail(f"found {CLOSE_TAG} without a matching {OPEN_TAG}")
    stripped = text.strip()
    if not stripped:
        raise _Fail("empty action: send a message to the user or a tool call")
    body = _unfence(stripped) if stripped[0] == "`" else stripped
    first = body[:1]
    if first == "{" or first == "[":
        try:
            value = _json_loads(body)
        except RecursionError:
            raise _Fail("JSON nested too deeply") from None
        except ValueError as error:
            value = error
        if not isinstance(value, ValueError):
            result = _calls_from_json(value, tool_names, max_length)
            return result if result is not None else ParsedAction(message=stripped)
        if first == "[" and _PY_START.match(body):
            calls = _python_calls(body, 1)
            if calls is not None:
                return ParsedAction(calls=tuple(calls))
        if _BROKEN_CALL.search(body):
            raise _Fail(f"invalid JSON tool call ({_json_problem(value)}): {_snip(body)}")
        return ParsedAction(message=stripped)
    if _PY_START.match(body) and body[-1] in ")];":
        calls = _python_calls(body, 1)
        if calls is not None:
            return ParsedAction(calls=tuple(calls))
    if tool_names:
        found = _embedded_python(stripped, tool_names)
        if found is not None:
            return found
    return ParsedAction(message=stripped)


# ---------------------------------------------------------------------- python syntax

_NODE_WORDS = {
    ast.Name: "a variable name", ast.Attribute: "attribute access", ast.Call: "a function call",
    ast.Lambda: "a lambda", ast.JoinedStr: "an f-string", ast.FormattedValue: "an f-string",
    ast.ListComp: "a comprehension", ast.SetComp: "a comprehension",
    ast.DictComp: "a comprehension", ast.GeneratorExp: "a generator expression",
    ast.Starred: "unpacking (*)", ast.BinOp: "an operator expression",
    ast.BoolOp: "a boolean expression", ast.Compare: "a comparison",
    ast.Subscript: "indexing", ast.IfExp: "a conditional expression",
    ast.Set: "a set", ast.NamedExpr: "an assignment expression", ast.Await: "await",
    ast.Yield: "yield", ast.YieldFrom: "yield", ast.Slice: "a slice",
}
_JSON_NAMES = {"true": True, "false": False, "null": None}


def _not_literal(node: ast.AST, where: str) -> _Fail:
    word = _NODE_WORDS.get(type(node), type(node).__name__)
    try:
        source = ast.unparse(node)
    except Exception:  # noqa: BLE001
        source = ""
    shown = f" `{_snip(source, 60)}`" if source else ""
    return _Fail(f"{where} must be a literal (string, number, boolean, None, list, dict), "
                 f"got {word}{shown}; nothing was evaluated")


def _literal(node: ast.AST, where: str, depth: int = 0) -> Any:
    if depth > _MAX_LITERAL_DEPTH:
        raise _Fail(f"{where} is nested too deeply")
    if isinstance(node, ast.Constant):
        value = node.value
        if value is None or isinstance(value, (str, bool, int, float)):
            return value
        raise _Fail(f"{where} must be a JSON-like literal, got {type(value).__name__}")
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        operand = node.operand
        if (isinstance(operand, ast.Constant) and isinstance(operand.value, (int, float))
                and not isinstance(operand.value, bool)):
            return -operand.value if isinstance(node.op, ast.USub) else operand.value
        raise _not_literal(node, where)
    if isinstance(node, (ast.List, ast.Tuple)):
        return [_literal(e, f"{where}[{i}]", depth + 1) for i, e in enumerate(node.elts)]
    if isinstance(node, ast.Dict):
        out = {}
        for key, value in zip(node.keys, node.values):
            if key is None:
                raise _Fail(f"{where}: ** unpacking is not allowed in a literal dict")
            if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
                raise _Fail(f"{where}: dict keys must be strings")
            out[key.value] = _literal(value, f"{where}[{key.value!r}]", depth + 1)
        return out
    if isinstance(node, ast.Name) and node.id in _JSON_NAMES:
        return _JSON_NAMES[node.id]
    raise _not_literal(node, where)


def _check_count(count: int) -> None:
    if count > MAX_CALLS:
        raise _Fail(f"too many tool calls in one action ({count} > {MAX_CALLS})")


def _call_nodes(tree: ast.Module) -> list[ast.Call] | None:
    """The calls a module consists of, or ``None`` when it is not purely calls."""
    calls: list[ast.Call] = []
    if not tree.body:
        return None
    for statement in tree.body:
        if not isinstance(statement, ast.Expr):
            return None
        value = statement.value
        items = value.elts if isinstance(value, (ast.List, ast.Tuple)) else [value]
        if not items or not all(isinstance(item, ast.Call) for item in items):
            return None
        calls.extend(items)
    return calls


def _call_from_node(node: ast.Call, index: int) -> ToolCall:
    if not isinstance(node.func, ast.Name):
        raise _Fail(f"{_label(index)}: only a plain tool name can be called, got "
                    f"`{_snip(ast.unparse(node.func), 60)}(...)`; nothing was evaluated")
    name = node.func.id
    where = _label(index, name)
    if node.args:
        raise _Fail(f"{where}: positional arguments are not supported; "
                    f"use keyword arguments (name=value)")
    arguments: dict[str, Any] = {}
    for keyword in node.keywords:
        if keyword.arg is None:
            raise _Fail(f"{where}: ** unpacking is not allowed; use keyword arguments")
        if keyword.arg in arguments:
            raise _Fail(f"{where}: argument {keyword.arg!r} given twice")
        arguments[keyword.arg] = _literal(keyword.value, f"{where}: argument {keyword.arg!r}")
    return ToolCall(name, arguments)


def _parse_python(source: str) -> ast.Module | None:
    try:
        return _ast_parse(source)
    except UnicodeError:
        raise _Fail("Python call syntax cannot contain lone surrogate characters") from None
    except (SyntaxError, ValueError, RecursionError, MemoryError, OverflowError):
        return None


def _python_calls(source: str, first_index: int) -> list[ToolCall] | None:
    """Calls from text that is exactly Python call syntax, ``None`` if it is not that."""
    scan = _scan_python(source, 0, len(source), embedded=False)
    if not scan.ok:
        if scan.over_budget:
            _check_count(scan.top_calls)
            if scan.top_calls and source.rstrip()[-1:] in (")", "]", ";"):
                raise _Fail(f"Python call syntax too long (more than {PY_CODE_BUDGET} "
                            f"characters of code); send large calls as JSON")
        return None
    tree = _parse_python(source)
    if tree is None:
        return None
    nodes = _call_nodes(tree)
    if nodes is None:
        return None
    _check_count(len(nodes))
    return [_call_from_node(node, first_index + i) for i, node in enumerate(nodes)]


@functools.lru_cache(maxsize=64)
def _line_pattern(tool_names: frozenset) -> re.Pattern:
    """Lines in prose that start with ``name(`` for a known tool ``name`` (only those, so
    that other lines cost no Python work)."""
    names = sorted((n for n in tool_names if isinstance(n, str) and _IDENTIFIER.fullmatch(n)),
                   key=lambda n: (-len(n), n))
    if not names:
        return re.compile(r"(?!)")
    return re.compile(r"^[ \t]*(" + "|".join(map(re.escape, names)) + r")\(", re.MULTILINE)


def _embedded_python(text: str, tool_names: Collection[str]) -> ParsedAction | None:
    """Lines in prose that are exactly a call to a known tool; ``None`` if there are none."""
    if "(" not in text:
        return None
    calls: list[ToolCall] = []
    spans: list[tuple[int, int]] = []
    tried = 0
    pos = 0
    for match in _line_pattern(frozenset(tool_names)).finditer(text):
        if match.start() < pos or match.group(1) not in tool_names:
            continue
        tried += 1
        if tried > _MAX_EMBEDDED_CANDIDATES:
            break
        start = match.start(1)
        scan = _scan_python(text, start, len(text), embedded=True)
        if not scan.ok:
            if scan.over_budget:
                break
            continue
        end = text.find("\n", scan.end)
        end = len(text) if end < 0 else end
        pos = end  # parsed once: a candidate inside this one is not tried again
        tail = _scan_python(text, scan.end, end, embedded=False)
        if tail.over_budget:
            break
        if not tail.ok:  # an unbalanced or unclosed rest of the line: not one call
            continue
        tree = _parse_python(text[start:end].strip())
        if tree is None:
            continue
        nodes = _call_nodes(tree)
        if nodes is None or len(nodes) != 1 or tree.body[0].value is not nodes[0]:
            continue
        calls.append(_call_from_node(nodes[0], len(calls) + 1))
        spans.append((match.start(), end))
    if not calls:
        return None
    prose, last = [], 0
    for start, end in spans:
        prose.append(text[last:start])
        last = end
    prose.append(text[last:])
    rest = "".join(prose)
    rest = _EMPTY_FENCE.sub("", rest).strip() if "```" in rest else rest.strip()
    return ParsedAction(calls=tuple(calls), message=rest or None)


# ---------------------------------------------------------------------- dicts, lists


def _content_text(content: Any) -> str:
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, (list, tuple)):
        parts = []
        for part in content:
            if isinstance(part, str):
                parts.append(part)
            elif isinstance(part, Mapping) and part.get("type", "text") == "text" \
                    and isinstance(part.get("text"), str):
                parts.append(part["text"])
            else:
                kind = part.get("type") if isinstance(part, Mapping) else _type_name(part)
                raise _Fail(f"unsupported content part {_show(kind)}; only text is accepted")
        return "".join(parts)
    raise _Fail(f"message content must be a string, got {_type_name(content)}")


def _parse_mapping(action: Mapping, tool_names: Collection[str] | None,
                   max_length: int) -> ParsedAction:
    is_message = "tool_calls" in action or "content" in action or "role" in action \
        or "function_call" in action
    if not is_message:
        if "name" in action or isinstance(action.get("function"), Mapping) \
                or "arguments" in action or "parameters" in action:
            return ParsedAction(calls=(_call_from_mapping(action, 1, max_length),))
        keys = ", ".join(_show(k, 30) for k in list(action)[:8])
        raise _Fail(f"unsupported dict action (keys: {keys or 'none'}); expected an assistant "
                    f"message with 'content'/'tool_calls' or a call with 'name'/'arguments'")
    role = action.get("role", "assistant")
    if role != "assistant":
        raise _Fail(f"unsupported message role {_show(role)}; expected 'assistant'")
    raw_calls = action.get("tool_calls")
    if raw_calls is None and action.get("function_call") is not None:
        raw_calls = [action["function_call"]]
    if raw_calls is not None and not isinstance(raw_calls, (list, tuple)):
        raise _Fail(f"tool_calls must be a list, got {_type_name(raw_calls)}")
    content = _content_text(action.get("content"))
    if not raw_calls:
        return _parse_text(content, tool_names, max_length)
    if len(content) > max_length:
        raise _Fail(f"action too long: {len(content)} characters (max {max_length})")
    calls = tuple(_call_from_item(item, i, max_length) for i, item in enumerate(raw_calls, 1))
    prose = _strip_think(content).strip()
    return ParsedAction(calls=calls, message=prose or None)


def _parse_sequence(action: list | tuple, max_length: int) -> ParsedAction:
    if not action:
        raise _Fail("empty list of tool calls")
    return ParsedAction(calls=tuple(_call_from_item(item, i, max_length)
                                    for i, item in enumerate(action, 1)))


def _dump_object(action: Any) -> Any:
    """A dict from an SDK/pydantic message object, or ``None``."""
    try:
        dump = getattr(action, "model_dump", None)
        value = dump() if callable(dump) else None
    except Exception as error:  # noqa: BLE001 - the object's own code failed
        raise _Fail(f"could not read {type(action).__name__} action: model_dump() raised "
                    f"{type(error).__name__}") from None
    return value if isinstance(value, Mapping) else None


def _dispatch(action: Any, tool_names: Collection[str] | None, max_length: int) -> ParsedAction:
    if isinstance(action, str):
        return _parse_text(action, tool_names, max_length)
    if isinstance(action, ToolCall):
        return ParsedAction(calls=(_call_from_item(action, 1, max_length),))
    if isinstance(action, ParsedAction):
        return action
    if isinstance(action, (bytes, bytearray, memoryview)):
        data = bytes(action)
        if len(data) > 4 * max_length:
            raise _Fail(f"action too long: {len(data)} bytes (max {max_length} characters)")
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as error:
            raise _Fail(f"bytes action is not valid UTF-8 (at byte {error.start})") from None
        return _parse_text(text, tool_names, max_length)
    if isinstance(action, Mapping):
        return _parse_mapping(action, tool_names, max_length)
    if isinstance(action, (list, tuple)):
        return _parse_sequence(action, max_length)
    if not isinstance(action, (int, float, complex, bool, type(None), set, frozenset)):
        dumped = _dump_object(action)
        if dumped is not None:
            return _parse_mapping(dumped, tool_names, max_length)
    raise _Fail(f"unsupported action type {type(action).__name__}; send text, a message "
                f"dict or tool calls")


def parse_with_cost(action: object, tool_names: Collection[str] | None = None,
                    max_length: int = 200_000) -> tuple[ParsedAction, ParseCost]:
    """:func:`parse_action` plus the work it did (for tests and benchmarks of its bounds)."""
    cost = ParseCost()
    token = _COST.set(cost)
    try:
        return parse_action(action, tool_names, max_length), cost
    finally:
        _COST.reset(token)


def parse_action(action: object, tool_names: Collection[str] | None = None,
                 max_length: int = 200_000) -> ParsedAction:
    """Turn a policy's action into tool calls, a message to the user, or an error.

    ``tool_names`` (optional) helps tell data from calls: a JSON object ``{"name": x}``
    without arguments, and a call written on its own line inside prose, count as calls only
    for known tools. It never filters calls: unknown names are returned as given. Never
    raises; see the module docstring for the accepted forms and the decisions taken.
    """
    token = _COST.set(ParseCost()) if _COST.get(None) is None else None
    try:
        result = _dispatch(action, tool_names, max_length)
        _check_count(len(result.calls))
        return result
    except _Fail as failure:
        return ParsedAction(error=str(failure))
    except RecursionError:
        return ParsedAction(error="action nested too deeply")
    except Exception as error:  # noqa: BLE001 - last resort: never raise on agent input
        return ParsedAction(error=f"internal parse error: {type(error).__name__}: "
                                  f"{_snip(str(error), 150)}")
    finally:
        if token is not None:
            _COST.reset(token)
