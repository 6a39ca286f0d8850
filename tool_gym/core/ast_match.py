"""Match function calls against accepted answers under BFCL's AST rules.

The full explanation is in ``docs/ast-match.md``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Sequence

__all__ = [
    "MatchResult",
    "as_calls",
    "as_doc",
    "check",
    "check_call",
    "checker_mode",
    "components",
    "normalize_string",
    "schema_validity",
]

#: Documented type name -> the Python type a value must have.
PY_TYPES: dict[str, type] = {
    "string": str,
    "integer": int,
    "float": float,
    "number": float,
    "boolean": bool,
    "array": list,
    "tuple": list,
    "dict": dict,
    "object": dict,
    "any": str,
}
_ITEM_CHECKED = ("array", "tuple")
_FLOAT_TYPES = ("float", "number")
_STRIP = re.compile(r"[ ,./\-_*^]")



def _show(value: Any, limit: int = 120) -> str:
    """A bounded repr that never raises (a huge int's repr exceeds Python's digit limit)."""
    try:
        return repr(value)[:limit]
    except ValueError:
        return f"<{type(value).__name__}>"

def normalize_string(text: str) -> str:
    """BFCL's string normalization: drop spaces and ``,./-_*^``, lower case, ``'`` -> ``"``.

    So ``"April 1, 2024"`` and ``"april 1 2024"`` compare equal.
    """
    return _STRIP.sub("", text).lower().replace("'", '"')


@dataclass
class MatchResult:
    """Verdict of a check: ``valid`` and, when not, the problems and an error type."""

    valid: bool
    errors: list[str] = field(default_factory=list)
    error_type: str = ""

    def __bool__(self) -> bool:
        return self.valid

    def to_dict(self) -> dict:
        return {"valid": self.valid, "errors": list(self.errors), "error_type": self.error_type}


_OK = MatchResult(True)


def _fail(error_type: str, message: str) -> MatchResult:
    return MatchResult(False, [message], error_type)


# --------------------------------------------------------------------- inputs


def as_doc(function: Any) -> dict:
    """A function document ``{"name", "description", "parameters"}`` from a BFCL doc, an
    OpenAI ``tools`` entry, or an object with a ``schema`` property (a core ``Tool``)."""
    if hasattr(function, "schema") and not isinstance(function, Mapping):
        function = function.schema
    if isinstance(function, Mapping) and "function" in function and "name" not in function:
        function = function["function"]
    if not isinstance(function, Mapping) or "name" not in function:
        raise TypeError(f"not a function document: {function!r:.120}")
    return dict(function)


def as_calls(calls: Any) -> list[tuple[str, Any]]:
    """``[(name, arguments)]`` from a list of ``ToolCall``, ``(name, arguments)``,
    ``{"name", "arguments"}``, OpenAI ``tool_calls`` entries or BFCL's
    ``{name: arguments}``; ``None`` -> ``[]``."""
    if calls is None:
        return []
    if isinstance(calls, Mapping) or not isinstance(calls, Iterable) or isinstance(calls, str):
        calls = [calls]
    out: list[tuple[str, Any]] = []
    for call in calls:
        if isinstance(call, tuple) and len(call) == 2 and isinstance(call[0], str):
            out.append((call[0], call[1]))
            continue
        if hasattr(call, "name") and hasattr(call, "arguments") and not isinstance(call, Mapping):
            out.append((call.name, call.arguments))
            continue
        if not isinstance(call, Mapping):
            raise TypeError(f"not a function call: {call!r:.120}")
        if "function" in call and "name" not in call:  # OpenAI tool_calls entry
            fn = call["function"]
            arguments = fn.get("arguments")
            if isinstance(arguments, str):
                import json

                arguments = json.loads(arguments) if arguments.strip() else {}
            out.append((fn["name"], {} if arguments is None else arguments))
        elif "name" in call and set(call) <= {"name", "arguments", "parameters", "id", "type"}:
            arguments = call.get("arguments", call.get("parameters"))
            out.append((call["name"], {} if arguments is None else arguments))
        elif len(call) == 1:  # BFCL {name: arguments}
            (name, arguments), = call.items()
            out.append((name, arguments))
        else:
            raise TypeError(f"not a function call: {call!r:.120}")
    return out


def checker_mode(category: str) -> str:
    """The rule set of a BFCL category: irrelevance, relevance, parallel, multiple or simple."""
    if "irrelevance" in category:
        return "irrelevance"
    if "relevance" in category:
        return "relevance"
    if "parallel" in category:
        return "parallel"
    if "multiple" in category:
        return "multiple"
    return "simple"


def _expected_name(name: str, underscore_to_dot: bool) -> str:
    return name.replace(".", "_") if underscore_to_dot and "." in name else name


def _find(docs: Sequence[dict], name: str) -> dict | None:
    for doc in docs:
        if doc.get("name") == name:
            return doc
    return None


# ------------------------------------------------------------------- one value


def _first_type(accepted: Sequence) -> type | None:
    """The type of the first accepted value that is not the "may be omitted" marker."""
    for value in accepted:
        if not (isinstance(value, str) and value == ""):
            return type(value)
    return None


def _as_list(accepted: Any) -> list:
    if isinstance(accepted, (list, tuple)):
        return list(accepted)
    return [accepted]


def _items_fit(values: list, accepted_item: Any, item_type: type) -> bool:
    """Items of a given list against one accepted list: each of the documented item type,
    or of the type the accepted list itself uses."""
    if not isinstance(accepted_item, list):
        return True  # a non-list entry ("" for an optional parameter) does not constrain
    own = _first_type(accepted_item)
    return all(type(v) is item_type or (own is not None and type(v) is own) for v in values)


def _type_check(param: str, value: Any, accepted: list, spec: dict
                ) -> tuple[MatchResult, bool]:
    """(verdict, is_variable). ``is_variable``: the accepted values are of another type than
    documented (a variable name), so the value is compared as it is."""
    kind = spec.get("type")
    expected = PY_TYPES.get(kind) if isinstance(kind, str) else None
    if expected is None:
        return _OK, False
    answer_type = _first_type(accepted)
    variable = answer_type is not None and answer_type is not expected
    if type(value) is expected:
        item_kind = (spec.get("items") or {}).get("type") if kind in _ITEM_CHECKED else None
        item_type = PY_TYPES.get(item_kind) if isinstance(item_kind, str) else None
        if item_type is None:
            return _OK, variable
        if any(_items_fit(value, entry, item_type) for entry in accepted):
            return _OK, variable
        return _fail("type_error:nested",
                     f"items of {param!r} must be of type {item_kind}: {_show(value)}"), variable
    if answer_type is not None and type(value) is answer_type:
        return _OK, True
    return _fail("type_error:simple", f"{param!r} must be of type {kind}, got "
                                      f"{type(value).__name__}: {_show(value)}"), variable


def _norm(value: Any) -> Any:
    return normalize_string(value) if isinstance(value, str) else value


def _dict_fits(value: Any, entry: Any) -> bool:
    if not isinstance(entry, Mapping) or not isinstance(value, Mapping):
        return False
    for key, item in value.items():
        if key not in entry:
            return False
        if _norm(item) not in [_norm(a) for a in _as_list(entry[key])]:
            return False
    return all(key in value or "" in _as_list(options) for key, options in entry.items())


def _dict_check(param: str, value: Any, accepted: list) -> MatchResult:
    for entry in accepted:
        if isinstance(entry, str) and entry == "":
            continue
        if _dict_fits(value, entry):
            return _OK
    return _fail("value_error:dict", f"invalid value for {param!r}: {_show(value)}")


def _list_of_dicts_check(param: str, value: list, accepted: list) -> MatchResult:
    for entry in accepted:
        if not isinstance(entry, (list, str)):
            continue
        size = len(entry)
        if size != len(value):
            continue
        if all(_dict_fits(value[i], entry[i]) for i in range(size)):
            return _OK
    return _fail("value_error:list_dict", f"invalid value for {param!r}: {_show(value)}")


def _string_check(param: str, value: str, accepted: list) -> MatchResult:
    if normalize_string(value) in [normalize_string(a) for a in accepted if type(a) is str]:
        return _OK
    return _fail("value_error:string",
                 f"invalid value for {param!r}: {_show(value)}; accepted: {_show(accepted, 200)}")


def _list_check(param: str, value: list, accepted: list) -> MatchResult:
    mine = [_norm(v) if type(v) is str else v for v in value]
    for entry in accepted:
        if isinstance(entry, (list, str)):
            if mine == [_norm(v) if type(v) is str else v for v in entry]:
                return _OK
    return _fail("value_error:list",
                 f"invalid value for {param!r}: {_show(value)}; accepted: {_show(accepted, 200)}")


def check_value(param: str, value: Any, accepted: Any, spec: dict) -> MatchResult:
    """One given parameter value against its accepted values (rules 4 and 5)."""
    accepted = _as_list(accepted)
    kind = spec.get("type")
    if kind == "tuple" and isinstance(value, tuple):
        value = list(value)
    if kind in _FLOAT_TYPES and type(value) is int:
        value = float(value)
    verdict, variable = _type_check(param, value, accepted, spec)
    if not verdict.valid:
        return verdict
    if not variable:
        expected = PY_TYPES.get(kind) if isinstance(kind, str) else None
        item_kind = (spec.get("items") or {}).get("type") if kind in _ITEM_CHECKED else None
        if expected is dict:
            return _dict_check(param, value, accepted)
        if expected is list and PY_TYPES.get(item_kind) is dict:
            return _list_of_dicts_check(param, value, accepted)
        if expected is str:
            return _string_check(param, value, accepted)
        if expected is list:
            return _list_check(param, value, accepted)
    try:
        found = value in accepted
    except Exception:  # noqa: BLE001 - exotic values never raise out of the checker
        found = False
    if found:
        return _OK
    return _fail("value_error:others",
                 f"invalid value for {param!r}: {_show(value)}; accepted: {_show(accepted, 200)}")


# -------------------------------------------------------------------- one call


def check_call(doc: Any, name: str, arguments: Any, answer: Mapping[str, Any],
               underscore_to_dot: bool = False) -> MatchResult:
    """One call ``name(**arguments)`` against one expected call ``{fn: {param: [values]}}``
    whose function is documented by ``doc``."""
    doc = as_doc(doc)
    params = next(iter(answer.values())) or {}
    expected = _expected_name(doc["name"], underscore_to_dot)
    if name != expected:
        return _fail("wrong_func_name", f"expected a call of {expected!r}, got {_show(name, 80)}")
    if not isinstance(arguments, Mapping):
        return _fail("wrong_arguments", f"arguments of {name!r} must be an object")
    schema = doc.get("parameters") or {}
    properties = schema.get("properties") or {}
    for param in schema.get("required") or []:
        if param not in arguments:
            return _fail("missing_required", f"missing required parameter {param!r}")
    for param, value in arguments.items():
        if param not in properties or param not in params:
            return _fail("unexpected_param", f"unexpected parameter {param!r:.80}")
        verdict = check_value(param, value, params[param], properties[param] or {})
        if not verdict.valid:
            return verdict
    for param, accepted in params.items():
        if param not in arguments and "" not in _as_list(accepted):
            return _fail("missing_optional", f"parameter {param!r} is expected")
    return _OK


# -------------------------------------------------------------------- the task


def check(functions: Sequence[Any], calls: Any, answers: Sequence[Mapping[str, Any]],
          category: str = "simple", underscore_to_dot: bool = False) -> MatchResult:
    """Verdict of ``calls`` for a task with candidate ``functions`` and the possible
    ``answers`` (BFCL format), under the rules of ``category`` (a BFCL category name or
    one of simple, multiple, parallel, parallel_multiple, irrelevance, relevance)."""
    docs = [as_doc(f) for f in functions]
    made = as_calls(calls)
    mode = checker_mode(category)
    if mode == "irrelevance":
        if made:
            return _fail("irrelevance:called", "no function fits the request, but "
                                               f"{len(made)} call(s) were made")
        return _OK
    if mode == "relevance":
        return _OK if made else _fail("relevance:no_call", "a call was expected")
    answers = list(answers)
    want = 1 if mode == "simple" else len(answers)
    if len(made) != want:
        return _fail("wrong_count", f"expected {want} call(s), got {len(made)}")
    if mode in ("simple", "multiple"):
        return _one(docs, made[0], answers[0], underscore_to_dot)
    used: set[int] = set()
    for index, answer in enumerate(answers):
        problems = []
        for position, (name, arguments) in enumerate(made):
            if position in used:
                continue
            verdict = _one(docs, (name, arguments), answer, underscore_to_dot)
            if verdict.valid:
                used.add(position)
                break
            problems.append(f"call {position}: {verdict.errors[0]}")
        else:
            expected = next(iter(answer))
            return MatchResult(False, [f"no call matches expected call {index} ({expected!r})",
                                       *problems], "parallel:cannot_find_match")
    return _OK


def _one(docs: Sequence[dict], call: tuple[str, Any], answer: Mapping[str, Any],
         underscore_to_dot: bool) -> MatchResult:
    expected = next(iter(answer))
    doc = _find(docs, expected)
    if doc is None:
        return _fail("unknown_function", f"{expected!r} is not among the functions")
    return check_call(doc, call[0], call[1], answer, underscore_to_dot)


# ------------------------------------------------------------------ components


def _argument_score(doc: dict, arguments: Any, params: Mapping[str, Any]) -> float:
    """Fraction of the expected parameters handled right (given with an accepted value, or
    left out where that is allowed); unexpected parameters count against it."""
    if not isinstance(arguments, Mapping):
        return 0.0
    properties = (doc.get("parameters") or {}).get("properties") or {}
    good = 0
    for param, accepted in params.items():
        if param in arguments:
            good += check_value(param, arguments[param], accepted,
                                properties.get(param) or {}).valid
        else:
            good += "" in _as_list(accepted)
    extra = sum(1 for p in arguments if p not in params)
    total = len(params) + extra
    return 1.0 if total == 0 else good / total


def schema_validity(docs: Sequence[dict], name: str, arguments: Any,
                    underscore_to_dot: bool = False) -> float:
    """0 unknown function, 1/3 known, 2/3 required present and nothing unknown, 1 also
    every value of its documented type."""
    doc = next((d for d in docs if _expected_name(d["name"], underscore_to_dot) == name), None)
    if doc is None:
        return 0.0
    if not isinstance(arguments, Mapping):
        return 1 / 3
    schema = doc.get("parameters") or {}
    properties = schema.get("properties") or {}
    if any(p not in arguments for p in schema.get("required") or []) or any(
            p not in properties for p in arguments):
        return 1 / 3
    for param, value in arguments.items():
        spec = properties[param] or {}
        kind = spec.get("type")
        expected = PY_TYPES.get(kind) if isinstance(kind, str) else None
        if kind in _FLOAT_TYPES and type(value) is int:
            continue
        if kind == "any" or expected is None:
            continue
        if type(value) is not expected:
            return 2 / 3
    return 1.0


def _assign(score: list[list[float]]) -> list[tuple[int, int]]:
    """Greedy one-to-one assignment of rows to columns by decreasing score (> 0)."""
    pairs = sorted(((s, i, j) for i, row in enumerate(score) for j, s in enumerate(row)
                    if s > 0), key=lambda t: (-t[0], t[1], t[2]))
    rows, cols, out = set(), set(), []
    for _, i, j in pairs:
        if i not in rows and j not in cols:
            rows.add(i)
            cols.add(j)
            out.append((i, j))
    return out


def components(functions: Sequence[Any], calls: Any, answers: Sequence[Mapping[str, Any]],
               category: str = "simple", underscore_to_dot: bool = False) -> dict[str, float]:
    """Partial scores in [0, 1] (PROVE-style reward components for one turn):

    - ``validity``: mean graded schema validity of the calls made (see
      :func:`schema_validity`); 1 when no call was made and none was expected.
    - ``coverage``: fraction of expected calls matched exactly, one call each.
    - ``efficiency``: 1 up to the expected number of calls, ``expected / made`` beyond.
    - ``tool_name``: fraction of expected function names among the calls (multiset).
    - ``arguments``: mean argument score over expected calls, each paired with the best
      remaining call of the same function (0 when none).
    """
    docs = [as_doc(f) for f in functions]
    made = as_calls(calls)
    mode = checker_mode(category)
    if mode == "relevance":
        ok = float(bool(made))
        return {"validity": _mean([schema_validity(docs, n, a, underscore_to_dot)
                                   for n, a in made], ok),
                "coverage": ok, "efficiency": ok, "tool_name": ok, "arguments": ok}
    answers = [] if mode == "irrelevance" else list(answers)
    validity = _mean([schema_validity(docs, n, a, underscore_to_dot) for n, a in made],
                     1.0 if not answers else 0.0)
    if not answers:
        none = float(not made)
        return {"validity": validity, "coverage": none, "efficiency": none,
                "tool_name": none, "arguments": none}
    expected_names = [next(iter(a)) for a in answers]
    efficiency = 0.0 if not made else min(1.0, len(answers) / len(made))
    remaining = [n for n, _ in made]
    named = 0
    for name in expected_names:
        wanted = _expected_name(name, underscore_to_dot)
        if wanted in remaining:
            remaining.remove(wanted)
            named += 1
    exact = [[0.0] * len(made) for _ in answers]
    partial = [[0.0] * len(made) for _ in answers]
    for i, answer in enumerate(answers):
        doc = _find(docs, expected_names[i])
        if doc is None:
            continue
        wanted = _expected_name(doc["name"], underscore_to_dot)
        params = answer[expected_names[i]] or {}
        for j, (name, arguments) in enumerate(made):
            if name != wanted:
                continue
            exact[i][j] = float(check_call(doc, name, arguments, answer, underscore_to_dot).valid)
            partial[i][j] = _argument_score(doc, arguments, params) + 1e-9
    coverage = len(_assign(exact)) / len(answers)
    argument_total = sum(partial[i][j] for i, j in _assign(partial))
    return {"validity": validity, "coverage": coverage, "efficiency": efficiency,
            "tool_name": named / len(answers),
            "arguments": min(1.0, round(argument_total, 9) / len(answers))}


def _mean(values: list[float], empty: float) -> float:
    return sum(values) / len(values) if values else empty
