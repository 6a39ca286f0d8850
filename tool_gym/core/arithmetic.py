"""A safe evaluator for the ``calculate`` tools of tau-bench style domains.

``calculate(expression)`` behaves like tau2's ``eval``-based tool on every expression made
of digits, ``+ - * / ( ) .`` and spaces, without ever calling ``eval``: the expression is
parsed with ``ast`` and only numeric literals and arithmetic operators are evaluated.
"""

from __future__ import annotations

import ast
import math
import operator

from .tools import ToolError

_CALC_CHARS = frozenset("0123456789+-*/(). ")
#: Largest integer result (in bits) ``calculate`` computes; integers this big cannot become
#: a float anyway, and refusing them keeps ``9**9**9`` from hanging the process.
MAX_INT_BITS = 100_000
#: Total size (in bits) of all big integer results of one expression, to bound the work.
MAX_TOTAL_INT_BITS = 1_000_000

_BINOPS = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
    ast.Pow: operator.pow,
}
_UNARYOPS = {ast.UAdd: operator.pos, ast.USub: operator.neg}


class _TooLarge(Exception):
    pass


def _result_bits(op, a: int, b: int) -> float:
    """An upper estimate of the size in bits of ``op(a, b)`` for two integers."""
    if op is operator.pow:
        if b <= 0 or abs(a) <= 1:
            return 1
        if b.bit_length() > 64:
            return math.inf
        return b * math.log2(abs(a)) + 1
    if op is operator.mul:
        return a.bit_length() + b.bit_length()
    return max(a.bit_length(), b.bit_length()) + 1


def _evaluate(expression: str):
    """Evaluate an arithmetic expression like Python's ``eval`` would, without ``eval``.

    Only numeric literals, ``+ - * / // ** %`` and unary ``+ -`` are accepted; the tree
    is walked iteratively so long expressions do not hit the recursion limit; integer
    results beyond ``MAX_INT_BITS`` (or ``MAX_TOTAL_INT_BITS`` together) are refused.
    """
    tree = ast.parse(expression.lstrip(" \t"), mode="eval")
    stack: list = [(tree.body, False)]
    values: list = []
    total_bits = 0
    while stack:
        node, ready = stack.pop()
        if isinstance(node, ast.Constant):
            value = node.value
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise ToolError("Invalid expression")
            values.append(value)
        elif isinstance(node, ast.BinOp):
            op = _BINOPS.get(type(node.op))
            if op is None:
                raise ToolError("Invalid expression")
            if ready:
                b = values.pop()
                a = values.pop()
                if type(a) is int and type(b) is int:
                    bits = _result_bits(op, a, b)
                    if bits > MAX_INT_BITS:
                        raise _TooLarge
                    if bits > 1024:
                        total_bits += bits
                        if total_bits > MAX_TOTAL_INT_BITS:
                            raise _TooLarge
                values.append(op(a, b))
            else:
                stack.append((node, True))
                stack.append((node.right, False))
                stack.append((node.left, False))
        elif isinstance(node, ast.UnaryOp):
            op = _UNARYOPS.get(type(node.op))
            if op is None:
                raise ToolError("Invalid expression")
            if ready:
                values.append(op(values.pop()))
            else:
                stack.append((node, True))
                stack.append((node.operand, False))
        else:
            raise ToolError("Invalid expression")
    return values.pop()


def calculate(expression: str) -> str:
    """``str(round(float(value), 2))`` of the expression, or a ``ToolError``."""
    if not all(ch in _CALC_CHARS for ch in expression):
        raise ToolError("Invalid characters in expression")
    try:
        value = _evaluate(expression)
        return str(round(float(value), 2))
    except ToolError:
        raise
    except _TooLarge:
        raise ToolError("Result too large") from None
    except (SyntaxError, ValueError, TypeError, ArithmeticError, RecursionError,
            MemoryError) as error:
        raise ToolError(f"Invalid expression ({type(error).__name__})") from None
